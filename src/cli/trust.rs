//! `warden trust list|show|add|remove|init`: the trust rules in Hermes' proposed `~/.hermes/trust.json`, read and edited by a person.
//!
//! The file is a JSON array of `{id, tool, pattern, scope, decision,
//! priority}`; warden reads it as one of its policy sources. Changing it is
//! changing the policy, so `add`, `remove` and `init` need a terminal, and
//! the floor blocks them from an agent's tool calls (`hardline.guard-tamper`).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::config::load::Locations;
use crate::error::Error;

/// Read-only rules `init` starts a file with: looking never changes anything.
/// No whole file tool: an allow for `read_file` would cover `~/.aws/credentials`
/// too, and Claude Code would read it with no prompt of its own.
const STARTER: &[(&str, &str, &str)] = &[
    ("git-status", "terminal", "git status*"),
    ("git-diff", "terminal", "git diff*"),
    ("git-log", "terminal", "git log*"),
    ("list-files", "terminal", "ls*"),
];

pub(super) fn run(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let cwd = super::policy::current_dir(parsed);
    let path = trust_path(&env.vetted(cwd.as_deref()).locations)
        .ok_or_else(|| Error::Usage("no Hermes home: set HOME or HERMES_HOME".into()))?;
    let action = parsed.action.as_deref().unwrap_or("list");
    if matches!(action, "add" | "remove" | "init") && !env.stdin_is_terminal {
        return Ok(Outcome {
            stdout: String::new(),
            stderr: format!(
                "warden: `warden trust {action}` changes the policy and must be run by a person from a terminal (stdin is not one); nothing was changed\n"
            ),
            code: 2,
            audit: None,
        });
    }
    let shown = path.display().to_string();
    let mut rules = read(&path)?;
    let stdout = match action {
        "list" => {
            let mut out = format!("{shown}: {} trust rules\n", rules.len());
            for rule in &rules {
                out.push_str(&format!("{}\n", line(rule)));
            }
            out
        }
        "show" => {
            let id = parsed
                .value("--id")
                .ok_or_else(|| Error::Usage("show needs --id".into()))?;
            let rule = find(&rules, id).ok_or_else(|| not_found(id, &shown))?;
            format!(
                "{}\n",
                serde_json::to_string_pretty(rule).unwrap_or_else(|_| rule.to_string())
            )
        }
        "add" => add(parsed, &path, &shown, rules)?,
        "remove" => {
            let id = parsed
                .value("--id")
                .ok_or_else(|| Error::Usage("remove needs --id".into()))?;
            let before = rules.len();
            rules.retain(|r| id_of(r) != id);
            if rules.len() == before {
                return Err(not_found(id, &shown));
            }
            write(&path, &rules)?;
            format!("removed `{id}` from {shown}\n")
        }
        _ => init(&path, &shown, &rules)?,
    };
    Ok(Outcome {
        stdout,
        stderr: String::new(),
        code: 0,
        audit: None,
    })
}

/// `add`: a rule built from the flags (`--decision` required; an `id` of
/// the first free `trust-N` unless given) appended to the file.
fn add(parsed: &Parsed, path: &Path, shown: &str, mut rules: Vec<Value>) -> Result<String, Error> {
    let decision = parsed
        .value("--decision")
        .ok_or_else(|| Error::Usage("add needs --decision allow|ask|deny".into()))?;
    let priority: i64 = match parsed.value("--priority") {
        Some(p) => p
            .parse()
            .map_err(|_| Error::Usage(format!("--priority must be a number, not `{p}`")))?,
        None => 50,
    };
    let id = match parsed.value("--id") {
        Some(id) => id.to_string(),
        None => (1..)
            .map(|n| format!("trust-{n}"))
            .find(|id| find(&rules, id).is_none())
            .unwrap_or_default(),
    };
    if find(&rules, &id).is_some() {
        return Err(Error::Usage(format!("{shown} already has a rule `{id}`")));
    }
    let rule = json!({
        "id": id,
        "tool": parsed.value("--tool").unwrap_or("*"),
        "pattern": parsed.value("--pattern").unwrap_or("*"),
        "scope": parsed.value("--scope").unwrap_or("everywhere"),
        "decision": decision,
        "priority": priority,
    });
    let shown_rule = line(&rule);
    rules.push(rule);
    write(path, &rules)?;
    Ok(format!("added to {shown}: {shown_rule}\n"))
}

/// `init`: an empty or missing file started with the read-only `STARTER`
/// rules; a file that has rules is left alone.
fn init(path: &Path, shown: &str, rules: &[Value]) -> Result<String, Error> {
    if !rules.is_empty() {
        return Err(Error::Usage(format!(
            "{shown} already has {} rules; init only starts an empty file",
            rules.len()
        )));
    }
    let rules: Vec<Value> = STARTER
        .iter()
        .map(|(id, tool, pattern)| {
            json!({"id": id, "tool": tool, "pattern": pattern, "scope": "everywhere", "decision": "allow", "priority": 50})
        })
        .collect();
    write(path, &rules)?;
    Ok(format!(
        "wrote {shown} with {} read-only rules; `warden trust list` shows them\n",
        rules.len()
    ))
}

/// `~/.hermes/trust.json`, or under `HERMES_HOME`.
fn trust_path(locations: &Locations) -> Option<PathBuf> {
    locations.hermes_home.as_ref().map(|h| h.join("trust.json"))
}

/// The rules in the file; a missing file has none, a file that is not a
/// JSON array is an error naming it (it is not overwritten).
fn read(path: &std::path::Path) -> Result<Vec<Value>, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(Error::Io {
                what: path.display().to_string(),
                source,
            })
        }
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Array(rules)) => Ok(rules),
        _ => Err(Error::Usage(format!(
            "{} is not a JSON array of trust rules; fix it by hand first",
            path.display()
        ))),
    }
}

/// Writes the rules beside the file and renames it into place, so a reader
/// never sees half a file.
fn write(path: &std::path::Path, rules: &[Value]) -> Result<(), Error> {
    let io = |source| Error::Io {
        what: path.display().to_string(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let text = serde_json::to_string_pretty(rules).unwrap_or_else(|_| "[]".into());
    let temp = path.with_extension("json.tmp");
    std::fs::write(&temp, format!("{text}\n")).map_err(io)?;
    std::fs::rename(&temp, path).map_err(io)
}

fn id_of(rule: &Value) -> String {
    match &rule["id"] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn find<'a>(rules: &'a [Value], id: &str) -> Option<&'a Value> {
    rules.iter().find(|r| id_of(r) == id)
}

fn not_found(id: &str, file: &str) -> Error {
    Error::Usage(format!("no trust rule `{id}` in {file}"))
}

/// One rule on one line: `id  decision  tool(pattern)  scope  priority`.
fn line(rule: &Value) -> String {
    let text = |k: &str, default: &str| rule[k].as_str().unwrap_or(default).to_string();
    format!(
        "{}  {}  {}({})  {}  priority {}",
        id_of(rule),
        text("decision", "?"),
        text("tool", "*"),
        text("pattern", "*"),
        text("scope", "everywhere"),
        rule["priority"].as_i64().unwrap_or(50)
    )
}
