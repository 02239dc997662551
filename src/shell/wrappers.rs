//! Programs that run the rest of their arguments as a command (`sudo`, `env`, `timeout`, `strace`, `npx`, ...), and how to split their own options from it.
//!
//! Each wrapper's table entry says how its parser reads its options (see
//! [`options`]); what cannot be told from the words alone is read every way
//! it may be: an option the table does not know may or may not take the
//! next word, and a word known only when the line runs may be the command
//! or options. Every place the command may then start is judged.

mod options;
mod runners;
mod sandboxes;
mod split_string;
mod table;
#[cfg(test)]
mod tests;

pub(in crate::shell) use options::{Key, Opt, Syntax};
pub(in crate::shell) use sandboxes::binds_directories;

use super::expand::Field;
use super::names::{self, NameMap, Slot};

/// Most places one wrapper's command is read to start at, beyond the first.
pub(super) const MAX_READINGS_PER_WRAPPER: usize = 16;

/// Most `env -S` strings split into one command line.
const MAX_SPLITS: usize = 16;

/// Where `NAME=value` words go in a wrapper's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Assign {
    None,
    /// After the options, before the command; any word with `=` (env).
    After,
    /// Among the options; a word with `=` not starting with `/` or `=` (sudo).
    Among,
}

/// A program that runs the rest of its arguments as a command.
pub(super) struct WrapperSpec {
    pub(super) name: &'static str,
    /// How its parser reads options.
    pub(super) syntax: Syntax,
    /// Short options as a getopt string: `x` a flag, `x:` takes a value (the
    /// rest of the word, else the next word), `x::` an optional value (only
    /// the rest of the word).
    pub(super) short: &'static str,
    /// Long options, without dashes: `name` a flag, `name=` takes a value
    /// (`--name=V` or `--name V`), `name=2` takes two (`--bind SRC DEST`),
    /// `name?` an optional value (only `--name=V`).
    pub(super) long: &'static [&'static str],
    /// `-N`, `--N` and `-+N` are an option (nice's old adjustment).
    pub(super) numbers: bool,
    /// A lone `-` is an option (env's `-i`).
    pub(super) dash: bool,
    /// Positional arguments between the options and the command (`timeout 5 cmd`).
    pub(super) positionals: usize,
    /// The positional is there only when it is a number (chrt's priority,
    /// which newer chrt lets policies without one leave out).
    pub(super) numeric_positional: bool,
    pub(super) assignments: Assign,
    /// Only these subcommands run a command (`perf record`, `ip netns exec`);
    /// empty when the program itself does. Words are separated by a space.
    pub(super) subcommands: &'static [&'static str],
    /// The command starts after the first of these words, wherever it is
    /// (`gdb ... --args CMD`, `nix develop ... -c CMD`); without one, nothing runs.
    pub(super) after: &'static [&'static str],
    /// What follows `--` is arguments to a shell, not a command (`capsh -- -c CMD`).
    pub(super) shell_args: bool,
    /// Options (`-x`, `--name`) whose value is the directory the command runs in.
    pub(super) chdir: &'static [&'static str],
    /// Options with which nothing runs: what follows is a process, a file or
    /// a name to look up (`command -v`, `ionice -p`, `taskset -p`).
    pub(super) inert: &'static [&'static str],
    /// Options that hand the command to the user's shell as `-c` text, each
    /// character of its words escaped but letters, digits, `_`, `-` and `$`
    /// (sudo `-s`, `-i`): `$NAME` still expands there. With no command the
    /// shell reads its commands from stdin.
    pub(super) shell: &'static [&'static str],
    /// With no command it runs the user's shell, which reads stdin
    /// (`chroot DIR`, `pkexec`, `unshare`).
    pub(super) bare_shell: bool,
    /// Options whose value is split into words that take its place among
    /// the arguments (`env -S`).
    pub(super) splits: &'static [&'static str],
    /// Options that run this program on the other words instead of running
    /// them (`sudo -e FILE` runs `sudoedit FILE`).
    pub(super) program: &'static [(&'static str, &'static str)],
}

/// A wrapper with no options: the base of every table entry.
pub(super) const fn plain(name: &'static str) -> WrapperSpec {
    WrapperSpec {
        name,
        syntax: Syntax::Getopt,
        short: "",
        long: &[],
        numbers: false,
        dash: false,
        positionals: 0,
        numeric_positional: false,
        assignments: Assign::None,
        subcommands: &[],
        after: &[],
        shell_args: false,
        chdir: &[],
        inert: &[],
        shell: &[],
        bare_shell: false,
        splits: &[],
        program: &[],
    }
}

/// The wrapper named `name`, if it is one.
/// Asked for every command and every word that may start one, so a map
/// from name to the first entry of that name replaces the scan of the tables.
pub(super) fn find(name: &str) -> Option<&'static WrapperSpec> {
    static SLOTS: [Slot<&WrapperSpec>; names::table_size(COUNT)] = {
        let mut slots = [Slot::VACANT; names::table_size(COUNT)];
        let mut t = 0;
        while t < TABLES.len() {
            let mut i = 0;
            while i < TABLES[t].len() {
                names::insert(&mut slots, TABLES[t][i].name, &TABLES[t][i]);
                i += 1;
            }
            t += 1;
        }
        slots
    };
    static BY_NAME: NameMap<&WrapperSpec> = NameMap::built(&SLOTS);
    BY_NAME.get(name).copied()
}

/// The name of every wrapper.
pub(super) fn names() -> impl Iterator<Item = &'static str> {
    all().map(|w| w.name)
}

/// The wrapper tables, in the order a lookup by name prefers.
const TABLES: [&[WrapperSpec]; 3] = [table::WRAPPERS, sandboxes::WRAPPERS, runners::WRAPPERS];

/// How many wrappers the tables hold.
const COUNT: usize = TABLES[0].len() + TABLES[1].len() + TABLES[2].len();

/// Every wrapper, in the order a lookup by name prefers.
fn all() -> impl Iterator<Item = &'static WrapperSpec> {
    TABLES.into_iter().flatten()
}

/// One use of a wrapper, read: its own words and what they say, and the
/// command it runs.
#[derive(Debug, Default)]
pub(super) struct Peeled {
    /// The wrapper's own words as written: options, values, assignments,
    /// positional arguments, subcommand.
    pub(super) own: Vec<String>,
    /// The options it read.
    pub(super) opts: Vec<Opt>,
    /// `NAME=value` words it sets for the command.
    pub(super) env: Vec<(String, String)>,
    /// The command.
    pub(super) rest: Vec<Field>,
    /// Other readings of the same words: own words and command, for each
    /// place the command may start besides `rest`.
    pub(super) others: Vec<(Vec<String>, Vec<Field>)>,
    /// The words could be read more ways than [`MAX_READINGS_PER_WRAPPER`].
    pub(super) too_many: bool,
}

impl Peeled {
    /// Whether one of the options `keys` was given.
    pub(super) fn has(&self, keys: &[&str]) -> bool {
        self.opts.iter().any(|o| keys.iter().any(|k| o.key.is(k)))
    }

    /// The value of the last of the options `keys` given.
    pub(super) fn value(&self, keys: &[&str]) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|o| keys.iter().any(|k| o.key.is(k)))
            .and_then(|o| o.value.as_deref())
    }
}

/// Reads a wrapper's own options (and subcommand and positionals) off
/// `fields`, the words after its name; `None` when this use of the program
/// runs no command (`perf report`, `gdb ./app` without `--args`).
pub(super) fn peel(spec: &WrapperSpec, fields: &[Field]) -> Option<Peeled> {
    let mut words = fields.to_vec();
    let mut from = 0;
    let mut opts = Vec::new();
    if !spec.subcommands.is_empty() {
        // The subcommand follows the options, wherever any reading of
        // them ends.
        let (first, forks) = primary(spec, &mut words, 0, &mut opts);
        let others = if forks {
            ends(spec, &words, 0)
        } else {
            Vec::new()
        };
        let (at, len) = std::iter::once(first)
            .chain(others)
            .find_map(|at| Some((at, subcommand(spec, &words[at.min(words.len())..])?)))?;
        from = at + len;
    }
    if !spec.after.is_empty() {
        let at = words[from..]
            .iter()
            .position(|f| spec.after.contains(&f.text.as_str()))?;
        let rest = words.split_off(from + at + 1);
        return Some(Peeled {
            own: words.into_iter().map(|f| f.text).collect(),
            opts,
            rest,
            ..Peeled::default()
        });
    }
    let (end, forks) = primary(spec, &mut words, from, &mut opts);
    let mut peeled = Peeled {
        opts,
        ..Peeled::default()
    };
    let start = command_start(spec, &words, end, Some(&mut peeled.env));
    let others = if forks {
        ends(spec, &words, from)
    } else {
        Vec::new()
    };
    for other in others {
        let at = command_start(spec, &words, other, None);
        let known = at == start || peeled.others.iter().any(|(own, _)| own.len() == at);
        if at >= words.len() || known {
            continue;
        }
        if peeled.others.len() == MAX_READINGS_PER_WRAPPER {
            peeled.too_many = true;
            break;
        }
        peeled
            .others
            .push((texts(&words[..at]), words[at..].to_vec()));
    }
    peeled.env.extend(
        peeled
            .opts
            .iter()
            .filter(|o| o.key == Key::Named("="))
            .filter_map(|o| split_at_equals(o.value.as_deref()?)),
    );
    peeled.rest = words.split_off(start.min(words.len()));
    peeled.own = words.into_iter().map(|f| f.text).collect();
    Some(peeled)
}

/// How many words of the subcommand that runs a command `words` starts with.
fn subcommand(spec: &WrapperSpec, words: &[Field]) -> Option<usize> {
    spec.subcommands.iter().find_map(|sub| {
        let given = words.get(..sub.split(' ').count())?;
        given
            .iter()
            .map(|f| f.text.as_str())
            .eq(sub.split(' '))
            .then_some(given.len())
    })
}

/// Reads the options from `from` as the wrapper does, splitting the
/// strings of `splits` options into the words that take their place; the
/// index where they end, and whether another reading could end elsewhere
/// (most uses of a wrapper have none, and need no search for them).
fn primary(
    spec: &WrapperSpec,
    words: &mut Vec<Field>,
    from: usize,
    opts: &mut Vec<Opt>,
) -> (usize, bool) {
    let mut i = from;
    let mut splits = 0;
    let mut forks = false;
    loop {
        let before = opts.len();
        let step = options::step(spec, words, i, opts);
        forks |= step.other.is_some() || step.end.is_some() && step.next.is_some();
        let Some(next) = step.next.filter(|_| step.end.is_none()) else {
            return (step.end.unwrap_or(i), forks);
        };
        let split = opts[before..]
            .iter()
            .find(|o| spec.splits.iter().any(|k| o.key.is(k)))
            .and_then(|o| o.value.clone());
        if let Some(text) = split.filter(|_| splits < MAX_SPLITS && next <= words.len()) {
            // env reads the words of the string where the string was, then
            // goes on with its arguments: they are read here the same way.
            splits += 1;
            let tail = words.split_off(next);
            words.extend(split_string::split(&text));
            words.extend(tail);
        }
        i = next;
    }
}

/// Every index where the options may end, from `from`, for every reading
/// of the options the table does not know.
fn ends(spec: &WrapperSpec, words: &[Field], from: usize) -> Vec<usize> {
    let mut seen = vec![false; words.len() + 1];
    let mut todo = vec![from];
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    while let Some(i) = todo.pop() {
        if i >= words.len() {
            continue;
        }
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        scratch.clear();
        let step = options::step(spec, words, i, &mut scratch);
        out.extend(step.end);
        todo.extend(step.next);
        todo.extend(step.other);
    }
    out
}

/// Where the command starts when the options end at `end`: after env's
/// assignments (and a `--` after them, which NetBSD's env skips) and the
/// positional arguments. Collects the assignments into `env` when given.
fn command_start(
    spec: &WrapperSpec,
    words: &[Field],
    end: usize,
    mut env: Option<&mut Vec<(String, String)>>,
) -> usize {
    let mut i = end;
    if spec.assignments == Assign::After {
        let before = i;
        while let Some(pair) = words
            .get(i)
            .filter(|f| options::assignment(f))
            .and_then(|f| split_at_equals(&f.text))
        {
            if let Some(env) = env.as_deref_mut() {
                env.push(pair);
            }
            i += 1;
        }
        if i > before && words.get(i).is_some_and(|f| f.text == "--") {
            i += 1;
        }
    }
    for _ in 0..spec.positionals {
        let numeric = words
            .get(i)
            .is_some_and(|f| !f.text.is_empty() && f.text.bytes().all(|b| b.is_ascii_digit()));
        if spec.numeric_positional && !numeric {
            break;
        }
        i += 1;
    }
    i.min(words.len())
}

fn texts(words: &[Field]) -> Vec<String> {
    words.iter().map(|f| f.text.clone()).collect()
}

/// `NAME=value` split at its first `=`: how env and sudo read the words
/// they put in the environment, whatever the name holds.
fn split_at_equals(word: &str) -> Option<(String, String)> {
    let (name, value) = word.split_once('=')?;
    Some((name.to_string(), value.to_string()))
}

/// Whether a wrapper whose options are read as `p` really runs `p.rest` as
/// a command; some uses of the same program run a shell string instead
/// (which `special` re-analyses) or run nothing.
pub(super) fn runs_command(spec: &WrapperSpec, p: &Peeled) -> bool {
    if p.has(spec.inert) {
        return false;
    }
    let first = p.rest.first().map_or("", |f| f.text.as_str());
    match spec.name {
        // `flock FILE -c CMD` and `sg GROUP -c CMD` run CMD through a shell.
        "flock" | "sg" => first != "-c" && first != "--command",
        // Without `-u USER`, runuser is su-like: `runuser -l USER -c CMD`.
        "runuser" => p.has(&["-u", "--user"]),
        // capsh runs a shell only after `--` (or `-+`), and itself again
        // after `==` (or `=+`); without them its options just print.
        "capsh" => {
            p.own.last().is_some_and(|w| w == "--" || w == "-+") || matches!(first, "==" | "=+")
        }
        // `npx -c 'CMD'`, `pnpm exec -c 'CMD'`: shell strings.
        "npx" | "npm" => !p.has(&["-c", "--call"]),
        "pnpm" => !p.has(&["-c", "--shell-mode"]),
        // `ip -all netns exec CMD` has no namespace name to skip.
        "ip" => !p.has(&["--all"]),
        // `screen -X stuff TEXT` types TEXT into a session's shell.
        "screen" => !p.has(&["-X"]),
        // `torsocks on|off|show|sh` edit or print LD_PRELOAD; they run nothing.
        "torsocks" => !matches!(first, "on" | "off" | "show" | "sh"),
        _ => true,
    }
}

/// The command a wrapper read as `p` runs: its words, or the program one of
/// its options names before them (`sudo -e`), or the shell one of them
/// starts (`sudo -s`, `chroot DIR` with no command).
pub(super) fn command(spec: &WrapperSpec, mut p: Peeled) -> Vec<Field> {
    let mut rest = std::mem::take(&mut p.rest);
    if spec.shell_args {
        // capsh: `== ARGS` runs capsh again; `-- ARGS` runs bash (or the
        // program of --shell) on ARGS, reading stdin when there are none.
        if rest
            .first()
            .is_some_and(|f| f.text == "==" || f.text == "=+")
        {
            rest[0] = Field::plain(spec.name);
        } else {
            rest.insert(0, Field::plain(p.value(&["--shell"]).unwrap_or("bash")));
        }
        return rest;
    }
    if let Some((_, program)) = spec.program.iter().find(|(key, _)| p.has(&[*key])) {
        rest.insert(0, Field::plain(program));
        return rest;
    }
    let shell = p.has(spec.shell);
    if rest.is_empty() && (shell || spec.bare_shell) {
        return vec![Field::plain("sh")];
    }
    if shell && rest.iter().any(|f| f.text.contains('$')) {
        // Only `$` is left unescaped: the shell expands `$NAME` (and so
        // `$IFS`) in words that otherwise reach it as they are.
        return ["sh", "-c", &escaped(&rest)]
            .into_iter()
            .map(Field::plain)
            .collect();
    }
    rest
}

/// The words joined for a shell's `-c` as sudo does for `-s` and `-i`:
/// every character but an ASCII letter or digit, `_`, `-` and `$` behind a
/// backslash.
fn escaped(words: &[Field]) -> String {
    let mut out = String::new();
    for (k, word) in words.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        for c in word.text.chars() {
            if !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '$')) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

pub(super) fn split_assignment(word: &str) -> Option<(String, String)> {
    let (name, value) = word.split_once('=')?;
    // `env 'BASH_FUNC_ls%%=() { ...; }'` exports a function the shell imports.
    let name_part = name
        .strip_prefix("BASH_FUNC_")
        .and_then(|n| n.strip_suffix("%%"))
        .map_or(name, |_| name.trim_end_matches("%%"));
    super::params::is_name(name_part).then(|| (name.to_string(), value.to_string()))
}
