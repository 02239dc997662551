//! The last layers, for calls no rule decided: the mode (`autonomous`, `cautious`, `supervised`, `plan`) and the risk threshold.

use crate::config::model::{Mode, Risk};
use crate::payload::ToolKind;
use crate::shell::{Analysis, Command, RedirectOp};
use crate::verdict::Decision;

/// What the mode says about a call no rule named, and why.
pub fn mode_decision(
    mode: Mode,
    kind: ToolKind,
    analysis: Option<&Analysis>,
) -> (Decision, &'static str) {
    // Only plan mode asks, and the question reads every command.
    let read_only = || match kind {
        ToolKind::Read => true,
        ToolKind::Shell => analysis.is_some_and(is_read_only_command),
        ToolKind::Write | ToolKind::Other => false,
    };
    match mode {
        Mode::Autonomous => (Decision::Allow, "mode autonomous allows what no rule names"),
        Mode::Cautious => match kind {
            ToolKind::Write => (Decision::Ask, "mode cautious asks before file writes"),
            ToolKind::Other => (Decision::Ask, "mode cautious asks before tools it does not know"),
            ToolKind::Read | ToolKind::Shell => {
                (Decision::Allow, "mode cautious allows reads and unflagged commands")
            }
        },
        Mode::Supervised => (
            Decision::Ask,
            "mode supervised asks for everything no allow rule allows",
        ),
        Mode::Plan if read_only() => (Decision::Allow, "mode plan lets read-only calls run"),
        Mode::Plan => (
            Decision::Block,
            "mode plan only lets read-only tools and commands run; make the change once the plan is agreed",
        ),
    }
}

/// A mode as the configuration spells it.
pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Autonomous => "autonomous",
        Mode::Cautious => "cautious",
        Mode::Supervised => "supervised",
        Mode::Plan => "plan",
    }
}

/// A risk class as the configuration spells it.
pub fn risk_name(risk: Risk) -> &'static str {
    match risk {
        Risk::None => "none",
        Risk::Low => "low",
        Risk::Medium => "medium",
        Risk::High => "high",
    }
}

/// The trust engine's risk class of a call: read-only tools and commands no
/// rule flagged are low, file writes and unknown tools medium, flagged
/// commands high.
pub fn risk(kind: ToolKind, flagged: bool) -> Risk {
    match kind {
        ToolKind::Read => Risk::Low,
        ToolKind::Shell if flagged => Risk::High,
        ToolKind::Shell => Risk::Low,
        ToolKind::Write | ToolKind::Other => Risk::Medium,
    }
}

/// Programs that only read or print, whatever their arguments, except for
/// the options [`writes`] looks for.
const READ_ONLY: &[&str] = &[
    "ls",
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "wc",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "find",
    "fd",
    "tree",
    "pwd",
    "echo",
    "printf",
    "stat",
    "file",
    "du",
    "df",
    "which",
    "whereis",
    "type",
    "date",
    "uname",
    "whoami",
    "id",
    "env",
    "printenv",
    "diff",
    "cmp",
    "sort",
    "uniq",
    "cut",
    "tr",
    "awk",
    "sed",
    "jq",
    "yq",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "true",
    "false",
    "test",
    "[",
    "cd",
    "hostname",
    "ps",
    "top",
    "nl",
    "column",
    "sha256sum",
    "md5sum",
    "cksum",
    "xxd",
    "od",
    "strings",
    "man",
    "help",
    "cargo-metadata",
];

/// git subcommands that change nothing.
const GIT_READ_ONLY: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "grep",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "describe",
    "shortlog",
    "reflog",
    "cat-file",
    "whatchanged",
    "remote",
    "branch",
    "tag",
];

fn is_read_only_command(analysis: &Analysis) -> bool {
    !analysis.commands.is_empty() && analysis.commands.iter().all(read_only)
}

fn read_only(cmd: &Command) -> bool {
    let redirects_ok = cmd.redirects.iter().all(|r| {
        !matches!(r.op, RedirectOp::Write | RedirectOp::Append) || r.target == "/dev/null"
    });
    if !redirects_ok || !cmd.wrappers.is_empty() {
        return false;
    }
    let program = cmd.program.as_str();
    if program == "git" {
        let sub = cmd.args.iter().find(|a| !a.starts_with('-'));
        // `git branch x` and `git tag x` create; listing forms take no operand.
        return sub.is_some_and(|s| GIT_READ_ONLY.contains(&s.as_str()))
            && !(matches!(sub.map(String::as_str), Some("branch" | "tag" | "remote"))
                && cmd.args.iter().filter(|a| !a.starts_with('-')).count() > 1);
    }
    READ_ONLY.contains(&program) && !writes(cmd)
}

// Options of otherwise read-only programs that write or run something.
fn writes(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "sed" => cmd.has_short('i') || cmd.has_long("--in-place"),
        "find" => cmd.args.iter().any(|a| {
            matches!(
                a.as_str(),
                "-exec"
                    | "-execdir"
                    | "-ok"
                    | "-okdir"
                    | "-delete"
                    | "-fprint"
                    | "-fprintf"
                    | "-fls"
            )
        }),
        "sort" => cmd.has_short('o') || cmd.has_long("--output"),
        "awk" => cmd
            .args
            .iter()
            .any(|a| a.contains("system") || a.contains('>')),
        "env" => !cmd.args.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::analyze;

    fn plan(cmd: &str) -> Decision {
        mode_decision(Mode::Plan, ToolKind::Shell, Some(&analyze(cmd))).0
    }

    #[test]
    fn plan_mode_runs_only_reading_commands() {
        assert_eq!(plan("git status && ls -la | grep x"), Decision::Allow);
        assert_eq!(plan("rg foo src"), Decision::Allow);
        assert_eq!(plan("git commit -m x"), Decision::Block);
        assert_eq!(plan("git branch feature"), Decision::Block);
        assert_eq!(plan("ls > files.txt"), Decision::Block);
        assert_eq!(plan("sed -i s/a/b/ f"), Decision::Block);
        assert_eq!(plan("find . -delete"), Decision::Block);
        assert_eq!(plan("cargo build"), Decision::Block);
        assert_eq!(plan("sudo cat /etc/shadow"), Decision::Block);
        assert_eq!(
            mode_decision(Mode::Plan, ToolKind::Read, None).0,
            Decision::Allow
        );
        assert_eq!(
            mode_decision(Mode::Plan, ToolKind::Write, None).0,
            Decision::Block
        );
    }

    #[test]
    fn cautious_asks_for_writes_and_unknown_tools() {
        assert_eq!(
            mode_decision(Mode::Cautious, ToolKind::Write, None).0,
            Decision::Ask
        );
        assert_eq!(
            mode_decision(Mode::Cautious, ToolKind::Other, None).0,
            Decision::Ask
        );
        assert_eq!(
            mode_decision(Mode::Cautious, ToolKind::Read, None).0,
            Decision::Allow
        );
        assert_eq!(
            mode_decision(Mode::Supervised, ToolKind::Read, None).0,
            Decision::Ask
        );
    }

    #[test]
    fn risk_classes() {
        assert_eq!(risk(ToolKind::Read, false), Risk::Low);
        assert_eq!(risk(ToolKind::Shell, false), Risk::Low);
        assert_eq!(risk(ToolKind::Shell, true), Risk::High);
        assert_eq!(risk(ToolKind::Write, false), Risk::Medium);
    }
}
