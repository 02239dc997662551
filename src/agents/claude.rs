//! Claude Code: warden's `PreToolUse` hook in `settings.json` (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), and the JSON file edit Codex shares.

use std::path::{Path, PathBuf};

use super::hooks_json::{self, Entry};
use serde_json::Value;

use super::{edit_json, hook_command, Agent, Homes, Kind, Options, Report};

/// The tools warden judges in Claude Code: the shell and the file writers.
pub const MATCHER: &str = "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Glob|Grep";

/// Seconds Claude Code waits for the hook; warden answers in milliseconds,
/// and a hook that times out is no hook at all.
pub const TIMEOUT: u64 = 10;

pub fn settings_file(homes: &Homes) -> Option<PathBuf> {
    homes.claude_dir.as_ref().map(|d| d.join("settings.json"))
}

pub fn entry(warden: &Path) -> Entry {
    Entry {
        event: hooks_json::PRE_TOOL_USE,
        matcher: MATCHER.into(),
        command: hook_command(warden, &["--agent", "claude"]),
        timeout: TIMEOUT,
    }
}

pub fn install(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Claude;
    let Some(path) = settings_file(homes) else {
        report.push(
            agent,
            Kind::Failed,
            "HOME is not set: no ~/.claude to write",
        );
        return;
    };
    let entry = entry(&options.warden);
    let mut disabled = false;
    let written = edit_json(report, agent, options, &path, |doc| {
        disabled = doc.get("disableAllHooks").and_then(Value::as_bool) == Some(true);
        hooks_json::register(doc, &entry)
    });
    if written && disabled {
        report.push(
            agent,
            Kind::Todo,
            format!(
                "{} sets disableAllHooks: Claude Code runs no hook, warden included, until you remove it",
                path.display()
            ),
        );
    }
}

pub fn uninstall(homes: &Homes, options: &Options, report: &mut Report) {
    if let Some(path) = settings_file(homes) {
        edit_json(report, Agent::Claude, options, &path, |doc| {
            hooks_json::unregister(doc, hooks_json::PRE_TOOL_USE)
        });
    }
}
