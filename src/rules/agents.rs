//! Built-in rules: coding agents started with their own approvals off, and the guard's hook processes stopped or killed.
//!
//! Hermes, Claude Code and Codex started loose are the floor's
//! (`hardline.guard-tamper`, through [`super::guard_setters`]). The agents
//! here are other programs, or started another way: most run without
//! warden as their hook, and those it may guard (Gemini CLI, Copilot CLI,
//! OpenCode) need not be registered on this machine, so starting one that
//! approves every tool call by itself may hand the session to a program
//! nobody watches; that asks. A hook that is frozen
//! (`SIGSTOP`) times out, and one that is killed fails, and some agents
//! then run the call they were asking about.

use super::opts::parse_opts;
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// A word of its own in the joined arguments: `(?:^| )WORD(?: |$)`.
macro_rules! word {
    ($alternatives:literal) => {
        concat!(r"(?:^| )(?:", $alternatives, r")(?: |$)")
    };
}

/// Agents and the options that start them approving every tool call by
/// themselves: shell commands included, nobody asked.
#[rustfmt::skip]
static UNGUARDED: &[Verb] = &[
    // Codex's shortcut for automatic execution (approvals on request only).
    verb("codex", word!("--full-auto")),
    // Gemini CLI and its fork Qwen Code.
    verb("gemini", word!("--yolo|-y|--approval-mode[= ]yolo")),
    verb("qwen", word!("--yolo|-y|--approval-mode[= ]yolo")),
    // aider answers its own "run this shell command?" questions.
    verb("aider", word!("--yes-always|--yes")),
    verb_if("aider", "", aider_yes_by_env),
    verb("cursor-agent", word!("-f|--force|--yolo")),
    verb("amp", word!("--dangerously-allow-all")),
    verb("copilot", word!("--allow-all-tools|--allow-all|--yolo")),
    verb_if("copilot", "", copilot_allow_all_by_env),
    verb("crush", word!("-y|--yolo")),
    verb("droid", word!("--skip-permissions-unsafe")),
    verb("q", word!("--trust-all-tools")),
    verb("kiro-cli", word!("--trust-all-tools")),
    verb("opencode", word!("--dangerously-skip-permissions")),
    // Run from their packages (`npx @google/gemini-cli`, `uvx aider-chat`):
    // the runner is peeled and the package's last name is the program.
    verb("gemini-cli*", word!("--yolo|-y|--approval-mode[= ]yolo")),
    verb("qwen-code*", word!("--yolo|-y|--approval-mode[= ]yolo")),
    verb("aider-chat*", word!("--yes-always|--yes")),
    verb("claude-code*", word!("--dangerously-skip-permissions|--allow-dangerously-skip-permissions|--permission-mode[= ]bypassPermissions")),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "agents.launched-unguarded",
        category: "start a coding agent with its approvals off",
        reason: "the agent would run every tool call, shell commands included, without asking anyone; start it yourself if that is meant",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(UNGUARDED),
        hits: &["codex exec --full-auto 'fix the tests'", "gemini --yolo", "gemini -y -p 'clean up'", "gemini --approval-mode=yolo", "qwen --approval-mode yolo -p x", "aider --yes-always", "AIDER_YES_ALWAYS=true aider src/app.py", "cursor-agent -p --force 'refactor'", "amp --dangerously-allow-all -x 'fix'", "copilot -p 'fix the build' --allow-all-tools", "COPILOT_ALLOW_ALL=true copilot -p 'fix the build'", "COPILOT_ALLOW_ALL=' Yes ' npx @github/copilot -p x", "crush --yolo", "droid exec --skip-permissions-unsafe 'deploy'", "q chat --trust-all-tools", "npx @google/gemini-cli --yolo", "npx -y @anthropic-ai/claude-code --dangerously-skip-permissions", "bunx @qwen-code/qwen-code -y", "uvx aider-chat --yes-always"],
        misses: &["codex exec 'run the tests'", "gemini -p 'explain the build'", "gemini --approval-mode auto_edit", "gemini -m gemini-2.5-pro", "aider --model sonnet src/app.py", "aider --yes-always-not", "cursor-agent -p 'review'", "copilot -p 'summarise'", "COPILOT_ALLOW_ALL=false copilot -p 'summarise'", "COPILOT_ALLOW_ALL=true echo copilot", "npx -y prettier --write .", "npx @google/gemini-cli -p 'explain'", "pnpm dlx create-vite app", "q chat", "echo gemini --yolo"],
    },
    Rule {
        id: "agents.signal-guard",
        category: "stop or kill the guard's hook processes",
        reason: "a frozen hook times out and a killed one fails, and some agents then run the call it was judging",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["pkill", "killall", "kill"], check: signals_guard },
        hits: &["pkill -STOP warden", "killall -STOP warden", "pkill warden", "killall warden", "pkill -TSTP -x warden", "killall -s STOP warden", "pkill --signal=TSTP warden", "sudo killall -TERM warden", "pkill -f 'bin/warden hook'"],
        misses: &["pgrep warden", "pkill -CONT warden", "pkill -f webpack", "killall node", "kill -0 $(pgrep warden)", "kill -CONT $(pidof warden)", "echo pkill warden", "pkill -f wardenclyffe-server"],
    },
];

/// `AIDER_YES_ALWAYS` set true for aider (its options are also variables).
fn aider_yes_by_env(cmd: &Command) -> bool {
    env_true(cmd, "AIDER_YES_ALWAYS")
}

/// `COPILOT_ALLOW_ALL` set true for Copilot CLI: `--allow-all` by another name.
fn copilot_allow_all_by_env(cmd: &Command) -> bool {
    env_true(cmd, "COPILOT_ALLOW_ALL")
}

/// Whether the command sets `var` to a yes, as the agents read one (any
/// case, blanks around it ignored; Copilot CLI also takes `y`).
fn env_true(cmd: &Command, var: &str) -> bool {
    cmd.env_var(var).is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on" | "y"
        )
    })
}

/// Whether the signal `word` (`STOP`, `-9`, `SIGTSTP`) only tests or
/// resumes (`0`, `CONT`): everything else stops or ends the process.
fn harmless_signal(word: &str) -> bool {
    let up = word.trim_start_matches('-').to_ascii_uppercase();
    let name = up.strip_prefix("SIG").unwrap_or(&up);
    matches!(name, "0" | "CONT")
}

/// `-STOP`, `-9`, `-SIGTSTP`: a signal written as an option word.
fn is_signal_word(a: &str) -> bool {
    let Some(flag) = a
        .strip_prefix('-')
        .filter(|f| !f.is_empty() && !f.starts_with('-'))
    else {
        return false;
    };
    let upper = flag.to_ascii_uppercase();
    let named = upper.strip_prefix("SIG").unwrap_or(&upper);
    flag.chars().all(|c| c.is_ascii_digit())
        || named.len() > 1
            && named.chars().all(|c| c.is_ascii_uppercase())
            && flag.chars().all(|c| c.is_ascii_uppercase())
}

/// The signal a pkill, killall or kill sends, if the words say.
fn signal_of(cmd: &Command) -> Option<&str> {
    let mut args = cmd.args.iter().take_while(|a| *a != "--");
    while let Some(a) = args.next() {
        if matches!(a.as_str(), "-s" | "--signal") {
            return args.next().map(String::as_str);
        }
        if let Some(v) = a.strip_prefix("--signal=") {
            return Some(v);
        }
        if is_signal_word(a) {
            return a.strip_prefix('-');
        }
    }
    None
}

/// A pkill/killall pattern, or a kill's `$(pgrep …)`/`$(pidof …)`, that
/// names warden, with a signal that stops or ends it.
fn signals_guard(cmd: &Command) -> bool {
    if signal_of(cmd).is_some_and(harmless_signal) {
        return false;
    }
    let names_warden = |word: &str| {
        let word = word.trim_matches(['\'', '"']);
        word.split([' ', '/', '$', '(', ')', '`', '^'])
            .any(|part| part == "warden" || part == "warden.exe")
    };
    if cmd.program == "kill" {
        return cmd
            .args
            .iter()
            .any(|a| (a.contains("pgrep") || a.contains("pidof")) && names_warden(a));
    }
    // The signal word out first (`-STOP` is no cluster of options).
    let signal_at = cmd.args.iter().position(|a| is_signal_word(a));
    let args: Vec<String> = cmd
        .args
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != signal_at)
        .map(|(_, a)| a.clone())
        .collect();
    let opts = parse_opts(&args, &super::system::KILLER);
    opts.operands.iter().any(|o| names_warden(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals() {
        for (line, sig) in [
            ("pkill -STOP warden", Some("STOP")),
            ("kill -9 1", Some("9")),
            ("pkill -s TERM x", Some("TERM")),
            ("pkill --signal=CONT x", Some("CONT")),
            ("pkill -f x", None),
            ("kill 12", None),
        ] {
            assert_eq!(signal_of(&Command::from_words(line)), sig, "{line}");
        }
        assert!(harmless_signal("CONT") && harmless_signal("SIGCONT") && harmless_signal("0"));
        assert!(!harmless_signal("STOP") && !harmless_signal("19") && !harmless_signal("KILL"));
    }
}
