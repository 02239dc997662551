//! Gemini CLI: warden's `BeforeTool` hook in `settings.json` (`$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`), and what Gemini's folder trust means for it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::hooks_json::{self, Entry};
use super::{edit_json, files, hook_command, Agent, Homes, Kind, Options, Report};

/// The event Gemini CLI runs a hook on before each tool call.
pub const EVENT: &str = "BeforeTool";

/// The tools warden judges in Gemini CLI: the shell, the file writers and
/// readers, and the searches and fetches that name files or addresses.
/// Gemini searches with the matcher (it does not anchor it), so it is
/// anchored here: `replace` alone would also take `str_replace_x`.
pub const MATCHER: &str = "^(run_shell_command|write_file|replace|read_file|read_many_files|glob|grep_search|list_directory|web_fetch)$";

/// Milliseconds Gemini CLI waits for the hook (its unit is the
/// millisecond, unlike Claude Code's and Codex's seconds). A hook that
/// times out there lets the call run.
pub const TIMEOUT: u64 = 10_000;

pub fn settings_file(homes: &Homes) -> Option<PathBuf> {
    homes.gemini_dir.as_ref().map(|d| d.join("settings.json"))
}

pub fn entry(warden: &Path) -> Entry {
    Entry {
        event: EVENT,
        matcher: MATCHER.into(),
        command: hook_command(warden, &["--agent", "gemini"]),
        timeout: TIMEOUT,
    }
}

pub fn install(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Gemini;
    let Some(path) = settings_file(homes) else {
        report.push(
            agent,
            Kind::Failed,
            "HOME and GEMINI_CLI_HOME are unset: no ~/.gemini to write",
        );
        return;
    };
    let entry = entry(&options.warden);
    let mut switched_off = false;
    let written = edit_json(report, agent, options, &path, |doc| {
        switched_off = hooks_switched_off(doc);
        hooks_json::register(doc, &entry)
    });
    if !written {
        return;
    }
    if switched_off {
        report.push(
            agent,
            Kind::Todo,
            format!(
                "{} sets hooksConfig.enabled to false: Gemini CLI runs no hook, warden included, until you remove it",
                path.display()
            ),
        );
    }
    report.push(agent, Kind::Info, TRUST_NOTE);
}

pub fn uninstall(homes: &Homes, options: &Options, report: &mut Report) {
    if let Some(path) = settings_file(homes) {
        edit_json(report, Agent::Gemini, options, &path, |doc| {
            hooks_json::unregister(doc, EVENT)
        });
    }
}

/// What install tells the person about folder trust: warden never trusts
/// a folder for them, because trusting one also runs that project's own
/// settings, hooks and commands.
pub const TRUST_NOTE: &str = "Gemini CLI runs hooks from settings only in folders you trust: in an untrusted folder it runs without warden (interactive) or refuses to start (`gemini -p`). warden does not trust folders for you; trust a project in Gemini (its trust prompt, or `/permissions trust`) when you mean to";

/// `hooksConfig.enabled: false`: Gemini's switch for every hook.
pub fn hooks_switched_off(doc: &Value) -> bool {
    doc.get("hooksConfig")
        .and_then(|c| c.get("enabled"))
        .and_then(Value::as_bool)
        == Some(false)
}

/// `security.folderTrust.enabled: false`: every folder counts as trusted.
pub fn trust_switched_off(doc: &Value) -> bool {
    doc.get("security")
        .and_then(|s| s.get("folderTrust"))
        .and_then(|t| t.get("enabled"))
        .and_then(Value::as_bool)
        == Some(false)
}

/// Where Gemini CLI keeps the folders the person trusted.
pub fn trusted_folders_file(homes: &Homes) -> Option<PathBuf> {
    homes.gemini_trusted_folders.clone().or_else(|| {
        homes
            .gemini_dir
            .as_ref()
            .map(|d| d.join("trustedFolders.json"))
    })
}

/// The folders the person trusts (with or without their parent), as
/// Gemini CLI's `trustedFolders.json` records them; an unreadable file
/// counts as none.
pub fn trusted_folders(homes: &Homes) -> Vec<String> {
    let Some(file) = trusted_folders_file(homes) else {
        return Vec::new();
    };
    let text = files::read_optional(&file)
        .ok()
        .flatten()
        .unwrap_or_default();
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&text) else {
        return Vec::new();
    };
    map.into_iter()
        .filter(|(_, level)| matches!(level.as_str(), Some("TRUST_FOLDER" | "TRUST_PARENT")))
        .map(|(folder, _)| folder)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::json_doc;

    #[test]
    fn the_matcher_takes_each_tool_whole_and_nothing_more() {
        let re = regex::Regex::new(MATCHER).unwrap();
        for tool in ["run_shell_command", "write_file", "replace", "read_file"] {
            assert!(re.is_match(tool), "{tool}");
        }
        for tool in ["str_replace_x", "mcp_fs_write_file", "write_todos"] {
            assert!(!re.is_match(tool), "{tool}");
        }
    }

    #[test]
    fn switches_are_read_where_gemini_reads_them() {
        let doc = json_doc::parse(
            r#"{"hooksConfig":{"enabled":false},"security":{"folderTrust":{"enabled":false}}}"#,
        )
        .unwrap();
        assert!(hooks_switched_off(&doc) && trust_switched_off(&doc));
        let doc = json_doc::parse(r#"{"hooksConfig":{"enabled":true}}"#).unwrap();
        assert!(!hooks_switched_off(&doc) && !trust_switched_off(&doc));
    }
}
