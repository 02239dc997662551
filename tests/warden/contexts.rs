//! The table of places bash runs a command substitution (`tests/data/substitution-contexts.txt`), read for the `expansions` tests and for the `contexts` fuzz target, which includes this file.

/// The table, as checked in.
pub const TABLE: &str = include_str!("../data/substitution-contexts.txt");

/// One line of the table.
pub struct Context {
    /// Bash runs the substitution (`run`), or leaves the text alone (`data`).
    pub runs: bool,
    pub name: &'static str,
    template: String,
}

impl Context {
    /// The template with `cmd` put in its place, quoted as the place needs
    /// (`$( (cmd))`: `$((` would open arithmetic).
    pub fn with(&self, cmd: &str) -> String {
        let spaced = format!(" {cmd}");
        let cmd = if cmd.starts_with('(') { &spaced } else { cmd };
        let single = cmd.replace('\'', r"'\''");
        let backticked = cmd
            .replace('\\', r"\\")
            .replace('`', r"\`")
            .replace('$', r"\$");
        self.template
            .replace("{cmd'}", &single)
            .replace("{cmd`}", &backticked)
            .replace("{cmd}", cmd)
    }
}

/// Every line of the table, or what is wrong with one.
pub fn contexts() -> Result<Vec<Context>, String> {
    let mut out = Vec::new();
    for (n, line) in TABLE.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at = n + 1;
        let fields: Vec<&str> = line.splitn(3, '\t').collect();
        let [label, name, template] = fields[..] else {
            return Err(format!("line {at}: not `run|data<TAB>name<TAB>template`"));
        };
        let runs = match label {
            "run" => true,
            "data" => false,
            other => return Err(format!("line {at}: label {other:?} is not run or data")),
        };
        if !template.contains("{cmd") {
            return Err(format!("line {at}: no {{cmd}} in the template"));
        }
        if out.iter().any(|c: &Context| c.name == name) {
            return Err(format!("line {at}: the name {name} is used twice"));
        }
        out.push(Context {
            runs,
            name,
            template: template.replace("\\n", "\n"),
        });
    }
    Ok(out)
}

/// How many ways [`join`] knows.
pub const JOINS: usize = 4;

/// Two command lines as one, joined the way `which` picks: the second runs
/// in each, whatever the first does.
pub fn join(first: &str, second: &str, which: usize) -> String {
    match which % JOINS {
        0 => format!("{first}\n{second}"),
        1 => format!("{second}\n{first}"),
        2 => format!("{first}; {second}"),
        _ => format!("{second} || {first}"),
    }
}
