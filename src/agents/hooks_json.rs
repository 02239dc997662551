//! The hook list that Claude Code's `settings.json` and Codex's `hooks.json` (`PreToolUse`) and Gemini CLI's `settings.json` (`BeforeTool`) share: warden's entry added, found and removed.

use super::is_warden;
use serde_json::Value;

use super::json_doc;

/// warden's handler and the matcher group it sits in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The event the list is under: [`PRE_TOOL_USE`], or Gemini's `BeforeTool`.
    pub event: &'static str,
    pub matcher: String,
    pub command: String,
    pub timeout: u64,
}

/// A warden handler found in a file; the indices are what Codex's trust
/// key names (`<file>:pre_tool_use:<group>:<handler>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub group: usize,
    pub handler: usize,
    pub matcher: Option<String>,
    pub command: String,
    pub timeout: Option<u64>,
}

/// Claude Code's and Codex's event.
pub const PRE_TOOL_USE: &str = "PreToolUse";

/// Puts `entry` in `doc` as a matcher group of its own at the end of the
/// event's list, after taking out every warden handler already there, so
/// running it twice leaves one. Returns what it changed, for the person.
pub fn register(doc: &mut Value, entry: &Entry) -> Result<Vec<String>, String> {
    let event = entry.event;
    check_shape(doc, event)?;
    let mut notes = Vec::new();
    let removed = remove_warden(doc, event);
    if removed > 0 {
        notes.push(format!(
            "replaced {removed} earlier warden hook{}",
            if removed == 1 { "" } else { "s" }
        ));
    }
    let group = serde_json::json!({
        "matcher": entry.matcher,
        "hooks": [{"type": "command", "command": entry.command, "timeout": entry.timeout}],
    });
    let list = json_doc::entry(doc, "hooks", || Value::Object(serde_json::Map::new()))
        .and_then(|hooks| json_doc::entry(hooks, event, || Value::Array(Vec::new())))
        .and_then(Value::as_array_mut)
        .ok_or(format!("hooks.{event} is not a list"))?;
    list.push(group);
    notes.push(format!(
        "added a {event} hook for `{}`: {}",
        entry.matcher, entry.command
    ));
    Ok(notes)
}

/// Takes every warden handler out of `doc`, and the groups, list and
/// `hooks` object that are left empty by that, so an install followed by
/// an uninstall gives back the file as it was.
pub fn unregister(doc: &mut Value, event: &str) -> Result<Vec<String>, String> {
    check_shape(doc, event)?;
    let removed = remove_warden(doc, event);
    if removed == 0 {
        return Ok(Vec::new());
    }
    let list_empty = doc
        .get("hooks")
        .and_then(|h| h.get(event))
        .is_some_and(json_doc::is_empty_container);
    if let Some(hooks) = doc.get_mut("hooks") {
        if list_empty {
            json_doc::remove(hooks, event);
        }
    }
    if doc.get("hooks").is_some_and(json_doc::is_empty_container) {
        json_doc::remove(doc, "hooks");
    }
    Ok(vec![format!(
        "removed {removed} warden hook{}",
        if removed == 1 { "" } else { "s" }
    )])
}

/// Every warden handler under `hooks.<event>`.
pub fn find(doc: &Value, event: &str) -> Vec<Found> {
    let groups = doc
        .get("hooks")
        .and_then(|h| h.get(event))
        .and_then(Value::as_array);
    let mut found = Vec::new();
    for (g, group) in groups.into_iter().flatten().enumerate() {
        let handlers = group.get("hooks").and_then(Value::as_array);
        for (h, handler) in handlers.into_iter().flatten().enumerate() {
            let Some(command) = handler.get("command").and_then(Value::as_str) else {
                continue;
            };
            if is_warden(command) {
                found.push(Found {
                    group: g,
                    handler: h,
                    matcher: group.get("matcher").and_then(Value::as_str).map(Into::into),
                    command: command.to_string(),
                    timeout: handler.get("timeout").and_then(Value::as_u64),
                });
            }
        }
    }
    found
}

/// A file whose structure is not the documented one is left alone: warden
/// would otherwise have to guess what the person meant.
fn check_shape(doc: &Value, event: &str) -> Result<(), String> {
    if !matches!(doc, Value::Object(_)) {
        return Err("the file is not a JSON object".into());
    }
    match doc.get("hooks") {
        None => return Ok(()),
        Some(Value::Object(_)) => {}
        Some(_) => return Err("`hooks` is not an object".into()),
    }
    match doc.get("hooks").and_then(|h| h.get(event)) {
        None | Some(Value::Array(_)) => Ok(()),
        Some(_) => Err(format!("`hooks.{event}` is not a list")),
    }
}

/// Removes warden handlers and the groups they leave empty; returns how
/// many handlers went.
fn remove_warden(doc: &mut Value, event: &str) -> usize {
    let Some(groups) = doc
        .get_mut("hooks")
        .and_then(|h| h.get_mut(event))
        .and_then(Value::as_array_mut)
    else {
        return 0;
    };
    let mut removed = 0;
    groups.retain_mut(|group| {
        let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            return true;
        };
        let before = handlers.len();
        handlers.retain(|h| {
            !h.get("command")
                .and_then(Value::as_str)
                .is_some_and(is_warden)
        });
        removed += before - handlers.len();
        // A group that held only warden handlers goes with them.
        !(handlers.is_empty() && before > 0)
    });
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            event: PRE_TOOL_USE,
            matcher: "Bash|Write".into(),
            command: "/opt/bin/warden --agent claude".into(),
            timeout: 10,
        }
    }

    const THEIRS: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/audit-bash"
          }
        ]
      }
    ],
    "Stop": []
  },
  "permissions": {
    "allow": [
      "Bash(npm test)"
    ]
  }
}
"#;

    #[test]
    fn install_is_idempotent_and_uninstall_restores_the_file() {
        for original in ["", "{}\n", THEIRS] {
            let mut doc = json_doc::parse(original).unwrap();
            register(&mut doc, &entry()).unwrap();
            let once = json_doc::to_pretty(&doc);
            let notes = register(&mut doc, &entry()).unwrap();
            assert_eq!(json_doc::to_pretty(&doc), once, "{original}");
            assert!(notes[0].contains("replaced 1 earlier"), "{notes:?}");
            assert_eq!(find(&doc, PRE_TOOL_USE).len(), 1);
            unregister(&mut doc, PRE_TOOL_USE).unwrap();
            assert!(find(&doc, PRE_TOOL_USE).is_empty());
            let want = if original.is_empty() {
                "{}\n"
            } else {
                original
            };
            assert_eq!(json_doc::to_pretty(&doc), want);
        }
    }

    #[test]
    fn found_handlers_carry_codex_trust_indices() {
        let mut doc = json_doc::parse(THEIRS).unwrap();
        register(&mut doc, &entry()).unwrap();
        let found = find(&doc, PRE_TOOL_USE);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].group, found[0].handler), (1, 0));
        assert_eq!(found[0].matcher.as_deref(), Some("Bash|Write"));
        assert_eq!(found[0].timeout, Some(10));
    }

    #[test]
    fn a_warden_handler_among_others_leaves_its_group() {
        let text = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
            {"type":"command","command":"~/.local/bin/warden"},
            {"type":"command","command":"other"}]}]}}"#;
        let mut doc = json_doc::parse(text).unwrap();
        unregister(&mut doc, PRE_TOOL_USE).unwrap();
        let rest = serde_json::to_string(&doc).unwrap();
        assert_eq!(
            rest,
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"other"}]}]}}"#
        );
    }

    #[test]
    fn unexpected_shapes_are_refused() {
        for text in ["[]", r#"{"hooks": []}"#, r#"{"hooks": {"PreToolUse": {}}}"#] {
            let mut doc = json_doc::parse(text).unwrap();
            assert!(register(&mut doc, &entry()).is_err(), "{text}");
            assert!(unregister(&mut doc, PRE_TOOL_USE).is_err(), "{text}");
        }
    }
}
