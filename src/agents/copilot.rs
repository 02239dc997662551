//! GitHub Copilot CLI: warden's `preToolUse` hook in a file of warden's own, `hooks/warden.json` under `$COPILOT_HOME` (else `~/.copilot`), and the switches in Copilot's `settings.json` that turn hooks off.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{edit_json, hook_command, is_warden, json_doc, Agent, Homes, Kind, Options, Report};

/// The event Copilot CLI runs a hook on before each tool call (its
/// camelCase registration: the payload and the answer are Copilot's own).
pub const EVENT: &str = "preToolUse";

/// Seconds Copilot CLI waits for the hook; a hook that times out there
/// lets the call run, so it is far above warden's own deadline.
pub const TIMEOUT_SECS: u64 = 10;

/// The version of Copilot's hook-file format.
const FORMAT: u64 = 1;

/// Copilot's configuration directory, `$COPILOT_HOME` or `~/.copilot`.
pub fn home(homes: &Homes) -> Option<&PathBuf> {
    homes.copilot_home.as_ref()
}

/// The directory of user hook files Copilot reads every `*.json` of.
pub fn hooks_dir(home: &Path) -> PathBuf {
    home.join("hooks")
}

/// warden's own hook file.
pub fn hook_file(homes: &Homes) -> Option<PathBuf> {
    home(homes).map(|h| hooks_dir(h).join("warden.json"))
}

/// Copilot's user settings, where `disableAllHooks`, `disabledHooks` and
/// hooks of their own may be.
pub fn settings_file(homes: &Homes) -> Option<PathBuf> {
    home(homes).map(|h| h.join("settings.json"))
}

/// warden's entry in a `preToolUse` list: no matcher (Copilot has none for
/// this shape), so every tool call reaches warden, which answers `{}` for
/// the tools it does not judge.
pub fn entry(warden: &Path) -> Value {
    json!({
        "type": "command",
        "bash": hook_command(warden, &["--agent", "copilot"]),
        "timeoutSec": TIMEOUT_SECS,
    })
}

/// The command line of a hook entry: Copilot runs `bash`, or `command`.
pub fn entry_command(entry: &Value) -> Option<&str> {
    ["bash", "command"]
        .iter()
        .find_map(|k| entry.get(*k).and_then(Value::as_str))
}

pub fn install(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Copilot;
    let Some(path) = hook_file(homes) else {
        report.push(
            agent,
            Kind::Failed,
            "HOME and COPILOT_HOME are unset: no ~/.copilot to write",
        );
        return;
    };
    let entry = entry(&options.warden);
    let written = edit_json(report, agent, options, &path, |doc| register(doc, entry));
    if !written {
        return;
    }
    let settings = settings_file(homes).and_then(|f| read_json(&f).map(|doc| (f, doc)));
    if let Some((file, doc)) = settings {
        if hooks_switched_off(&doc) {
            report.push(
                agent,
                Kind::Todo,
                format!(
                    "{} sets disableAllHooks: Copilot CLI runs no hook, warden included, until you remove it",
                    file.display()
                ),
            );
        }
    }
}

pub fn uninstall(homes: &Homes, options: &Options, report: &mut Report) {
    if let Some(path) = hook_file(homes) {
        edit_json(report, Agent::Copilot, options, &path, unregister);
    }
}

/// Puts `entry` at the end of `hooks.preToolUse`, after taking out every
/// warden entry already there, so running it twice leaves one.
pub fn register(doc: &mut Value, entry: Value) -> Result<Vec<String>, String> {
    check_shape(doc)?;
    let mut notes = Vec::new();
    let removed = remove_warden(doc);
    if removed > 0 {
        notes.push(format!(
            "replaced {removed} earlier warden hook{}",
            if removed == 1 { "" } else { "s" }
        ));
    }
    json_doc::entry(doc, "version", || json!(FORMAT));
    let command = entry_command(&entry).unwrap_or_default().to_string();
    let list = json_doc::entry(doc, "hooks", || json!({}))
        .and_then(|hooks| json_doc::entry(hooks, EVENT, || json!([])))
        .and_then(Value::as_array_mut)
        .ok_or(format!("hooks.{EVENT} is not a list"))?;
    list.push(entry);
    notes.push(format!("added a {EVENT} hook: {command}"));
    Ok(notes)
}

/// Takes warden's entries out, and what they leave empty; a file left with
/// only its format version holds nothing, and goes.
pub fn unregister(doc: &mut Value) -> Result<Vec<String>, String> {
    check_shape(doc)?;
    let removed = remove_warden(doc);
    if removed == 0 {
        return Ok(Vec::new());
    }
    let hooks = doc.get_mut("hooks");
    if let Some(hooks) = hooks {
        if hooks.get(EVENT).is_some_and(json_doc::is_empty_container) {
            json_doc::remove(hooks, EVENT);
        }
    }
    if doc.get("hooks").is_some_and(json_doc::is_empty_container) {
        json_doc::remove(doc, "hooks");
        if doc.as_object().is_some_and(|o| o.len() == 1) && doc["version"] == json!(FORMAT) {
            json_doc::remove(doc, "version");
        }
    }
    Ok(vec![format!(
        "removed {removed} warden hook{}",
        if removed == 1 { "" } else { "s" }
    )])
}

/// Every warden command line under `hooks.preToolUse` of `doc`, and under
/// Claude Code's `hooks.PreToolUse` groups, which Copilot also runs.
pub fn find(doc: &Value) -> Vec<String> {
    let hooks = doc.get("hooks");
    let flat = hooks.and_then(|h| h.get(EVENT)).and_then(Value::as_array);
    let groups = hooks
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Value::as_array);
    let nested = groups
        .into_iter()
        .flatten()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten();
    flat.into_iter()
        .flatten()
        .chain(nested)
        .filter_map(entry_command)
        .filter(|c| is_warden(c))
        .map(str::to_string)
        .collect()
}

/// The entry of the first warden hook in `doc`'s `preToolUse` list.
pub fn found_entry(doc: &Value) -> Option<&Value> {
    doc.get("hooks")?
        .get(EVENT)?
        .as_array()?
        .iter()
        .find(|e| entry_command(e).is_some_and(is_warden))
}

/// A file whose structure is not Copilot's is left alone: warden would
/// otherwise have to guess what the person meant.
fn check_shape(doc: &Value) -> Result<(), String> {
    if !doc.is_object() {
        return Err("the file is not a JSON object".into());
    }
    match doc.get("hooks") {
        None => Ok(()),
        Some(Value::Object(hooks)) => match hooks.get(EVENT) {
            None | Some(Value::Array(_)) => Ok(()),
            Some(_) => Err(format!("`hooks.{EVENT}` is not a list")),
        },
        Some(_) => Err("`hooks` is not an object".into()),
    }
}

fn remove_warden(doc: &mut Value) -> usize {
    let Some(list) = doc
        .get_mut("hooks")
        .and_then(|h| h.get_mut(EVENT))
        .and_then(Value::as_array_mut)
    else {
        return 0;
    };
    let before = list.len();
    list.retain(|e| !entry_command(e).is_some_and(is_warden));
    before - list.len()
}

/// `disableAllHooks: true`: Copilot's switch for every hook, user and repository.
pub fn hooks_switched_off(settings: &Value) -> bool {
    settings.get("disableAllHooks").and_then(Value::as_bool) == Some(true)
}

/// How many hooks `disabledHooks` turns off. Copilot names them by a hash
/// of their content, which warden does not compute: any may be warden's.
pub fn disabled_hooks(settings: &Value) -> usize {
    settings
        .get("disabledHooks")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// A JSON file's document; `None` when it is missing or unreadable.
pub fn read_json(path: &Path) -> Option<Value> {
    let text = super::files::read_optional(path).ok()??;
    json_doc::parse(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_twice_leaves_one_entry_and_uninstall_leaves_nothing() {
        let mut doc = json!({});
        register(&mut doc, entry(Path::new("/old/warden"))).unwrap();
        let notes = register(&mut doc, entry(Path::new("/bin/warden"))).unwrap();
        assert_eq!(notes[0], "replaced 1 earlier warden hook");
        assert_eq!(
            doc,
            json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": "/bin/warden --agent copilot", "timeoutSec": 10}]}})
        );
        assert_eq!(find(&doc), ["/bin/warden --agent copilot"]);
        unregister(&mut doc).unwrap();
        assert_eq!(doc, json!({}));
    }

    #[test]
    fn uninstall_keeps_what_is_not_warden_s() {
        let theirs = json!({"type": "command", "bash": "./audit.sh"});
        let mut doc = json!({"version": 1, "hooks": {"preToolUse": [theirs.clone()]}});
        register(&mut doc, entry(Path::new("/bin/warden"))).unwrap();
        unregister(&mut doc).unwrap();
        assert_eq!(
            doc,
            json!({"version": 1, "hooks": {"preToolUse": [theirs]}})
        );
        assert!(unregister(&mut doc).unwrap().is_empty());
        let mut odd = json!({"hooks": {"preToolUse": {"bash": "warden"}}});
        assert!(register(&mut odd, entry(Path::new("/bin/warden"))).is_err());
    }

    #[test]
    fn warden_is_found_in_either_shape_copilot_runs() {
        let doc = json!({"hooks": {
            "preToolUse": [{"type": "command", "command": "warden --agent copilot"}],
            "PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "/x/warden --agent claude"}]}]}});
        assert_eq!(
            find(&doc),
            ["warden --agent copilot", "/x/warden --agent claude"]
        );
        let off = json!({"disableAllHooks": true, "disabledHooks": ["a1", "b2"]});
        assert!(hooks_switched_off(&off) && disabled_hooks(&off) == 2);
        assert!(!hooks_switched_off(&json!({})));
    }
}
