//! Snapshot of `shell::analyze`: `tests/snapshots/analyze.txt` holds commands, each followed by a rendering of its analysis that must stay the same.
//!
//! The file is both input and expected output. A case is a `## title` line,
//! the command (`$ ` on its first line, `> ` on each further line; `\u{..}`
//! stands for a character that would be invisible), then the rendering,
//! which `WARDEN_UPDATE_EXPECTED=1` rewrites. Lines before the first case are
//! kept as they are. A new case needs only its title and command.

use std::fmt::Write as _;

use warden::shell::{analyze, Analysis, Command, Finding, Redirect, RedirectOp, Wrapper};

use crate::support::{self, UPDATE_COMMAND};

tests![snapshot];

const FILE: &str = "tests/snapshots/analyze.txt";

struct Case {
    title: String,
    /// The command lines as written in the file, prefixes included.
    source: Vec<String>,
    /// The rendering found in the file.
    expected: String,
}

fn snapshot() {
    let path = support::repo_path(FILE);
    let text = support::read_repo_file(FILE);
    let (header, cases) = parse(&text).unwrap_or_else(|e| panic!("{FILE}: {e}"));
    assert!(cases.len() >= 40, "{FILE}: only {} cases", cases.len());
    let mut out = header;
    let mut differ = Vec::new();
    for case in &cases {
        let command = command_of(&case.source).unwrap_or_else(|e| panic!("{FILE}: {e}"));
        let actual = render(&command, &analyze(&command));
        if actual != case.expected {
            differ.push(format!(
                "## {}\n--- expected\n{}--- actual\n{}",
                case.title, case.expected, actual
            ));
        }
        writeln!(out, "## {}", case.title).unwrap();
        for line in &case.source {
            writeln!(out, "{line}").unwrap();
        }
        out.push_str(&actual);
        out.push('\n');
    }
    let out = format!("{}\n", out.trim_end());
    if support::updating() {
        support::write_expected(&path, &out).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    assert!(
        differ.is_empty(),
        "{} of {} analyses differ from {FILE} (if the change is meant, run {UPDATE_COMMAND} -- analyze:: and read the diff):\n\n{}",
        differ.len(),
        cases.len(),
        differ.join("\n")
    );
    // Blank lines and spacing too, so an update never reformats the file.
    assert!(
        text == out,
        "{FILE} is not laid out as {UPDATE_COMMAND} writes it: run that and read the diff"
    );
}

fn parse(text: &str) -> Result<(String, Vec<Case>), String> {
    let mut header = String::new();
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(title) = line.strip_prefix("## ") {
            cases.push(Case {
                title: title.to_string(),
                source: Vec::new(),
                expected: String::new(),
            });
            continue;
        }
        let Some(case) = cases.last_mut() else {
            header.push_str(line);
            header.push('\n');
            continue;
        };
        let is_source = line.starts_with("$ ") || line.starts_with("> ") || line == ">";
        if is_source && case.expected.is_empty() {
            if line.starts_with('$') != case.source.is_empty() {
                return Err(format!(
                    "line {}: a command starts with `$ ` and goes on with `> `",
                    n + 1
                ));
            }
            case.source.push(line.to_string());
        } else if !line.is_empty() {
            case.expected.push_str(line);
            case.expected.push('\n');
        }
    }
    match cases.iter().find(|c| c.source.is_empty()) {
        Some(case) => Err(format!("case {:?} has no command", case.title)),
        None => Ok((header, cases)),
    }
}

/// The command a case's lines stand for: prefixes dropped, lines joined,
/// `\u{..}` escapes decoded.
fn command_of(source: &[String]) -> Result<String, String> {
    // An empty further line may have lost its space to an editor.
    let joined = source
        .iter()
        .map(|l| l.get(2..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = joined.as_str();
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("unclosed \\u{{ in {joined:?}"))?;
        let c = u32::from_str_radix(&after[..end], 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| format!("bad \\u{{{}}} in {joined:?}", &after[..end]))?;
        out.push(c);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The analysis in a few lines: each command with only the fields that are
/// set, then findings and the limit. Strings are quoted as Rust writes them,
/// so spaces, empty strings and invisible characters show.
fn render(input: &str, analysis: &Analysis) -> String {
    let mut out = String::new();
    if analysis.text != input {
        writeln!(out, "text: {:?}", analysis.text).unwrap();
    }
    for (i, command) in analysis.commands.iter().enumerate() {
        render_command(&mut out, i + 1, command);
    }
    if analysis.commands.is_empty() {
        out.push_str("no commands\n");
    }
    for finding in &analysis.findings {
        writeln!(out, "finding: {}", finding_text(finding)).unwrap();
    }
    if let Some(limit) = &analysis.limit {
        writeln!(out, "limit: {limit}").unwrap();
    }
    out
}

fn render_command(out: &mut String, n: usize, c: &Command) {
    let program = if c.program.is_empty() {
        "(no program)"
    } else {
        &c.program
    };
    writeln!(out, "{n}. {program} {:?}", c.args).unwrap();
    let mut field = |name: &str, value: String| writeln!(out, "   {name}: {value}").unwrap();
    if c.path != c.program {
        field("path", format!("{:?}", c.path));
    }
    if !c.wrappers.is_empty() {
        field("wrappers", list(&c.wrappers, wrapper_text));
    }
    if !c.env.is_empty() {
        field(
            "env",
            list(&c.env, |(name, value)| format!("{name}={value:?}")),
        );
    }
    if !c.redirects.is_empty() {
        field("redirects", list(&c.redirects, redirect_text));
    }
    if let Some(stdin) = &c.stdin {
        field("stdin", format!("{stdin:?}"));
    }
    if !c.upstream.is_empty() {
        field("upstream", list(&c.upstream, |u| u.program.clone()));
    }
    if let Some(cwd) = &c.cwd {
        field("cwd", format!("{cwd:?}"));
    }
    if c.dynamic {
        field("dynamic", "yes".to_string());
    }
    if !c.via.is_empty() {
        field("via", c.via.join(" > "));
    }
}

fn list<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    items.iter().map(show).collect::<Vec<_>>().join(", ")
}

fn wrapper_text(w: &Wrapper) -> String {
    format!("{} {:?}", w.name, w.args)
}

fn redirect_text(r: &Redirect) -> String {
    let op = match r.op {
        RedirectOp::Write => ">",
        RedirectOp::Append => ">>",
        RedirectOp::Read => "<",
        RedirectOp::Here => "<<",
    };
    let fd = r.fd.map(|fd| fd.to_string()).unwrap_or_default();
    format!("{fd}{op} {:?}", r.target)
}

fn finding_text(finding: &Finding) -> String {
    match finding {
        Finding::ForkBomb { name } => format!("fork bomb, function {name:?}"),
        Finding::HiddenCharacters { codepoints } => format!(
            "hidden characters {}",
            list(codepoints, |c| format!("U+{c:04X}"))
        ),
        Finding::ForkLoop { code } => format!("fork loop {code:?}"),
        Finding::ReverseShell { command } => format!("reverse shell {command:?}"),
        Finding::Interpreter { concern, code } => format!("interpreter {concern:?} {code:?}"),
        Finding::CodeSink {
            program,
            lang,
            code,
        } => format!("code sink {program} ({lang}) {code:?}"),
    }
}
