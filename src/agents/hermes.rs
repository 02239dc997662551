//! Hermes Agent: warden's entry in `$HERMES_HOME/config.yaml`, Hermes' consent allowlist, and what the installed Hermes supports, asked of Hermes itself.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::hermes_yaml::{self, Entry};
use serde_json::Value;

use super::json_doc;
use super::{edit_json, edit_text, files, hook_command, is_warden, process};
use super::{Agent, Homes, Kind, Options, Report};

/// The tools warden judges in Hermes: the shell and the file writers.
pub const MATCHER: &str = "terminal|write_file|patch|read_file|search_files";

/// Seconds Hermes waits for the hook (its default is 60; warden answers in
/// milliseconds, and on Hermes 0.19 a timeout lets the call run).
pub const TIMEOUT: u64 = 10;

const EVENT: &str = "pre_tool_call";

/// What the installed Hermes does with a hook's answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Support {
    /// The distribution and its version, as Hermes' metadata says.
    pub version: String,
    /// It honours `{"action": "approve"}` (sends the call to its approval
    /// prompt); otherwise an approve is ignored and the call runs.
    pub approve: bool,
    /// It reads `fail_closed` on a hook entry (a crash or timeout blocks).
    pub fail_closed: bool,
}

/// Asks the Hermes on `PATH`, through its own Python and its own hook
/// parser, what it supports. Nothing is written and nothing is started.
const PROBE: &str = r#"
import json, importlib.metadata as md
from agent import shell_hooks as sh
dist = md.packages_distributions().get("agent", ["?"])[0]
spec = sh._parse_single_entry("pre_tool_call", 0, {"command": "/x", "fail_closed": True})
print(json.dumps({"version": dist + " " + md.version(dist),
    "approve": sh._parse_response("pre_tool_call", '{"action":"approve"}') is not None,
    "fail_closed": getattr(spec, "fail_closed", None) is True}))
"#;

/// The Hermes program and what it supports.
pub fn probe(homes: &Homes) -> Result<(PathBuf, Support), String> {
    let hermes = homes.which("hermes").ok_or("`hermes` is not on PATH")?;
    let python = interpreter(&hermes)
        .ok_or_else(|| format!("cannot tell which Python runs {}", hermes.display()))?;
    let out = process::run(&python, &["-c", PROBE], b"", Duration::from_secs(60))?;
    let line = out.stdout.lines().last().unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| {
        let why = out.stderr.lines().last().unwrap_or("no output");
        format!("{} could not answer: {why}", hermes.display())
    })?;
    let flag = |key: &str| {
        value[key]
            .as_bool()
            .ok_or(format!("no `{key}` in its answer"))
    };
    Ok((
        hermes,
        Support {
            version: value["version"].as_str().unwrap_or("unknown").to_string(),
            approve: flag("approve")?,
            fail_closed: flag("fail_closed")?,
        },
    ))
}

/// The Python a console script runs: its `#!` line, or pip's `/bin/sh`
/// trampoline for long paths (`'''exec' "/path/python" "$0" "$@"`), else
/// the `python3` beside it.
fn interpreter(script: &Path) -> Option<PathBuf> {
    let script = std::fs::canonicalize(script).ok()?;
    let head: Vec<u8> = std::fs::read(&script)
        .ok()?
        .into_iter()
        .take(1024)
        .collect();
    let head = String::from_utf8_lossy(&head);
    let mut lines = head.lines();
    let shebang = lines.next()?.strip_prefix("#!")?.trim();
    if shebang == "/bin/sh" {
        let exec = lines.find_map(|l| l.strip_prefix("'''exec' "))?;
        let words = super::command_words(exec);
        return words.first().map(PathBuf::from);
    }
    let program = shebang.split_whitespace().next()?;
    let sibling = script.parent().map(|d| d.join("python3"));
    match Path::new(program).file_name()?.to_str()? {
        "env" => sibling.filter(|p| p.exists()),
        _ => Some(PathBuf::from(program)),
    }
}

/// warden's entry for a Hermes that supports what `support` says; when
/// Hermes could not be asked, the choices that are safe on every release.
pub fn entry(warden: &Path, support: Option<&Support>) -> Entry {
    let approve = support.is_some_and(|s| s.approve);
    let args: &[&str] = if approve { &[] } else { &["--on-ask", "block"] };
    Entry {
        matcher: MATCHER.into(),
        command: hook_command(warden, args),
        timeout: TIMEOUT,
        // Older releases ignore the key, so it costs nothing where unknown.
        fail_closed: support.is_none_or(|s| s.fail_closed),
    }
}

pub fn config_file(home: &Path) -> PathBuf {
    home.join("config.yaml")
}

pub fn allowlist_file(home: &Path) -> PathBuf {
    home.join("shell-hooks-allowlist.json")
}

pub fn install(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Hermes;
    let Some(home) = &homes.hermes_home else {
        report.push(
            agent,
            Kind::Failed,
            "HOME and HERMES_HOME are unset: no Hermes home to write",
        );
        return;
    };
    let support = match probe(homes) {
        Ok((hermes, support)) => {
            report.push(agent, Kind::Info, describe(&hermes, &support));
            Some(support)
        }
        Err(why) => {
            report.push(
                agent,
                Kind::Info,
                format!(
                    "could not ask Hermes what it supports ({why}): registering with --on-ask block \
                     and fail_closed, which are safe on every release; run this again once Hermes is installed"
                ),
            );
            None
        }
    };
    let entry = entry(&options.warden, support.as_ref());
    let config = config_file(home);
    let written = edit_text(report, agent, options, &config, |text| {
        hermes_yaml::register(text, &entry).map(|edit| (edit.text, edit.notes))
    });
    if !written {
        return;
    }
    clean_cli_config(home, options, report);
    check_managed(homes, &entry, report);
    if options.accept_hooks {
        record_consent(home, &entry.command, options, report);
    } else if has_consent(home, &entry.command) {
        report.push(
            agent,
            Kind::Info,
            "your consent to this hook command is already recorded",
        );
    } else {
        report.push(agent, Kind::Todo, consent_step());
    }
    if homes.hermes_safe_mode {
        report.push(agent, Kind::Todo, "HERMES_SAFE_MODE is set here: Hermes runs no shell hook, warden included, until it is unset");
    }
}

pub fn uninstall(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Hermes;
    let Some(home) = &homes.hermes_home else {
        return;
    };
    for file in [config_file(home), home.join("cli-config.yaml")] {
        if file.exists() {
            edit_text(report, agent, options, &file, |text| {
                hermes_yaml::unregister(text).map(|edit| (edit.text, edit.notes))
            });
        }
    }
    let allowlist = allowlist_file(home);
    if allowlist.exists() {
        edit_json(report, agent, options, &allowlist, |doc| {
            let removed = remove_consent(doc, |_| true)?;
            // Hermes makes the file again when it records consent.
            if doc
                .get("approvals")
                .is_some_and(json_doc::is_empty_container)
            {
                json_doc::remove(doc, "approvals");
            }
            Ok(if removed == 0 {
                Vec::new()
            } else {
                vec![format!(
                    "removed the consent record of {removed} warden hook command(s)"
                )]
            })
        });
    }
}

/// One line on the Hermes found and what warden does about its answers.
pub fn describe(hermes: &Path, support: &Support) -> String {
    let asks = if support.approve {
        "it honours approve, so what warden asks about goes to Hermes' approval prompt"
    } else {
        "it ignores approve, so what warden would ask about is blocked instead (--on-ask block), with how to run it yourself"
    };
    let closed = if support.fail_closed {
        "fail_closed is set, so a hook that crashes or times out blocks"
    } else {
        "it has no fail_closed: a hook that crashes or times out lets the call run"
    };
    format!(
        "{} ({}): {asks}; {closed}",
        hermes.display(),
        support.version
    )
}

/// Hooks written into `cli-config.yaml` never run: Hermes reads that file
/// only from its install directory, and only for display settings.
fn clean_cli_config(home: &Path, options: &Options, report: &mut Report) {
    let agent = Agent::Hermes;
    let file = home.join("cli-config.yaml");
    let Ok(Some(text)) = files::read_optional(&file) else {
        return;
    };
    let Ok(hooks) = hermes_yaml::hooks(&text) else {
        return;
    };
    if hooks.iter().any(|h| is_warden(&h.command)) {
        edit_text(report, agent, options, &file, |text| {
            hermes_yaml::unregister(text).map(|edit| {
                let mut notes = edit.notes;
                notes.push("Hermes never reads hooks from cli-config.yaml; warden is registered in config.yaml instead".into());
                (edit.text, notes)
            })
        });
    }
    let others = hooks.iter().filter(|h| !is_warden(&h.command)).count();
    if others > 0 {
        report.push(
            agent,
            Kind::Todo,
            format!(
                "{} holds {others} other hook(s), which Hermes never runs from there; move them to config.yaml if you want them",
                file.display()
            ),
        );
    }
}

/// A managed config's hook list replaces the user's: warden registered in
/// the user's file would never run.
fn check_managed(homes: &Homes, entry: &Entry, report: &mut Report) {
    let file = homes.hermes_managed.join("config.yaml");
    let Ok(Some(text)) = files::read_optional(&file) else {
        return;
    };
    match hermes_yaml::hooks(&text) {
        Ok(hooks) if hooks.is_empty() => {}
        Ok(hooks) if hooks.iter().any(|h| is_warden(&h.command)) => {}
        _ => report.push(
            Agent::Hermes,
            Kind::Todo,
            format!(
                "{} (managed by an administrator) sets hooks.pre_tool_call, which replaces yours: \
                 ask for this entry to be added there: command {:?}, matcher {:?}",
                file.display(),
                entry.command,
                entry.matcher
            ),
        ),
    }
}

fn consent_step() -> String {
    "Hermes asks once, at its next start in a terminal, before it runs a new hook command: answer yes. \
     Where no one can answer (cron, scripts) it skips the hook: record your consent now with \
     `warden install --agent hermes --accept-hooks`"
        .into()
}

/// Whether Hermes' allowlist holds consent for exactly this command (the
/// key Hermes looks up is the event and the command string).
pub fn has_consent(home: &Path, command: &str) -> bool {
    let Ok(Some(text)) = files::read_optional(&allowlist_file(home)) else {
        return false;
    };
    let Ok(doc) = json_doc::parse(&text) else {
        return false;
    };
    doc.get("approvals")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|a| {
            a.get("event").and_then(Value::as_str) == Some(EVENT)
                && a.get("command").and_then(Value::as_str) == Some(command)
        })
}

/// Writes the record Hermes itself writes when a person says yes: the
/// command as configured, when, and the mtime of the program it runs
/// (which `hermes hooks doctor` compares to spot a changed script).
fn record_consent(home: &Path, command: &str, options: &Options, report: &mut Report) {
    let file = allowlist_file(home);
    let now = files::iso_utc(std::time::SystemTime::now());
    let mtime = std::fs::metadata(&options.warden)
        .and_then(|m| m.modified())
        .map(files::iso_utc)
        .map(Value::from)
        .unwrap_or(Value::Null);
    edit_json(report, Agent::Hermes, options, &file, |doc| {
        let stale = remove_consent(doc, |c| c != command)?;
        if has_record(doc, command) {
            return Ok(if stale > 0 {
                vec![format!(
                    "removed {stale} consent record(s) of earlier warden commands"
                )]
            } else {
                Vec::new()
            });
        }
        let approvals = json_doc::entry(doc, "approvals", || Value::Array(Vec::new()))
            .and_then(Value::as_array_mut)
            .ok_or("`approvals` is not a list")?;
        // Keys sorted, as Hermes writes them.
        approvals.push(serde_json::json!({
            "approved_at": now,
            "command": command,
            "event": EVENT,
            "script_mtime_at_approval": mtime,
        }));
        Ok(vec![format!(
            "recorded your consent to Hermes running `{command}` (--accept-hooks)"
        )])
    });
}

fn has_record(doc: &Value, command: &str) -> bool {
    doc.get("approvals")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|a| a.get("command").and_then(Value::as_str) == Some(command))
}

/// Removes the records of warden commands that `which` selects; returns
/// how many went.
fn remove_consent(doc: &mut Value, which: impl Fn(&str) -> bool) -> Result<usize, String> {
    if !matches!(doc, Value::Object(_)) {
        return Err("not a JSON object".into());
    }
    let Some(approvals) = doc.get_mut("approvals") else {
        return Ok(0);
    };
    let list = approvals
        .as_array_mut()
        .ok_or("`approvals` is not a list")?;
    let before = list.len();
    list.retain(|a| {
        let event = a.get("event").and_then(Value::as_str);
        let command = a.get("command").and_then(Value::as_str).unwrap_or("");
        !(event == Some(EVENT) && is_warden(command) && which(command))
    });
    Ok(before - list.len())
}
