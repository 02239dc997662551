//! `warden doctor` for the agents: is warden registered in the shape each agent really reads, consented or trusted, with the right flags, and does the registered command line answer as it should.

use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;
use serde_json::{json, Value};

use super::hooks_json::{self, Found};
use super::json_doc;
use super::{claude, codex, command_words, copilot, files, gemini};
use super::{hook_command, opencode, process};
use super::{Agent, Homes};

mod hermes_checks;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    /// Works, but not as well as it could.
    Warn,
    /// warden does not guard (or not as it should): the exit code says so.
    Fail,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Pass => "ok",
            Status::Warn => "warn",
            Status::Fail => "FAIL",
        }
    }
}

/// One line of the doctor's report, with the fix when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub agent: Option<Agent>,
    pub status: Status,
    pub text: String,
    pub fix: Option<String>,
}

impl Check {
    pub fn new(agent: Option<Agent>, status: Status, text: impl Into<String>) -> Check {
        Check {
            agent,
            status,
            text: text.into(),
            fix: None,
        }
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }
}

/// Checks warden's binary and each agent in `agents`.
pub fn doctor(homes: &Homes, agents: &[Agent]) -> Vec<Check> {
    let mut checks = Vec::new();
    checks.push(match homes.which("warden") {
        Some(path) => Check::new(
            None,
            Status::Pass,
            format!("warden on PATH: {}", path.display()),
        ),
        None => Check::new(
            None,
            Status::Warn,
            "warden is not on PATH (agents run it by its absolute path, so hooks still work)",
        )
        .fix("add the directory ./install.sh installed to (default ~/.local/bin) to PATH"),
    });
    if agents.is_empty() {
        checks.push(
            Check::new(
                None,
                Status::Fail,
                "found no agent here (hermes, claude, codex, gemini, copilot or opencode)",
            )
            .fix(
                "install one, or name it: warden doctor --agent hermes|claude|codex|gemini|copilot|opencode",
            ),
        );
    }
    for &agent in agents {
        match agent {
            Agent::Hermes => hermes_checks::checks(homes, &mut checks),
            Agent::Claude => claude_checks(homes, &mut checks),
            Agent::Codex => codex_checks(homes, &mut checks),
            Agent::Gemini => gemini_checks(homes, &mut checks),
            Agent::Copilot => copilot_checks(homes, &mut checks),
            Agent::OpenCode => opencode_checks(homes, &mut checks),
        }
    }
    checks
}

fn install_fix(agent: Agent) -> String {
    format!("warden install --agent {}", agent.name())
}

fn claude_checks(homes: &Homes, checks: &mut Vec<Check>) {
    let agent = Agent::Claude;
    let file = claude::settings_file(homes);
    let Some((file, doc, found)) = json_registered(agent, file, "HOME is unset", checks) else {
        return;
    };
    if doc.get("disableAllHooks").and_then(Value::as_bool) == Some(true) {
        checks.push(
            Check::new(
                Some(agent),
                Status::Fail,
                format!("{} sets disableAllHooks: no hook runs", file.display()),
            )
            .fix("remove disableAllHooks from that file"),
        );
    }
    // Your own allow rule for `git status`, if you wrote one, is the one
    // allow Claude Code may get; warden's own format says whether that is
    // what decided.
    let native = format!("{} --agent native", found.command);
    let yours = run_hook(homes, &native, &claude_payload("git status", None))
        .is_ok_and(|v| v["action"] == "allow" && v["layer"] == "user");
    claude_round_trip(homes, agent, &found.command, None, yours, checks);
}

fn codex_checks(homes: &Homes, checks: &mut Vec<Check>) {
    let agent = Agent::Codex;
    let file = codex::hooks_file(homes);
    let unset = "HOME and CODEX_HOME are unset";
    let Some((file, _, found)) = json_registered(agent, file, unset, checks) else {
        return;
    };
    checks.push(match codex::trusted(homes, &file, &found) {
        Ok(true) => Check::new(Some(agent), Status::Pass, "Codex trusts the hook"),
        Ok(false) => Check::new(Some(agent), Status::Fail, "Codex does not trust the hook, so it never runs it")
            .fix(format!("{} (records trust through codex app-server), or approve the hook in Codex's hooks screen", install_fix(agent))),
        Err(why) => Check::new(Some(agent), Status::Warn, format!("could not ask Codex whether it trusts the hook: {why}")),
    });
    claude_round_trip(
        homes,
        agent,
        &found.command,
        Some("doctor-turn"),
        false,
        checks,
    );
}

fn gemini_checks(homes: &Homes, checks: &mut Vec<Check>) {
    let agent = Agent::Gemini;
    let file = gemini::settings_file(homes);
    let unset = "HOME and GEMINI_CLI_HOME are unset";
    let Some((file, doc, found)) = json_registered(agent, file, unset, checks) else {
        return;
    };
    if gemini::hooks_switched_off(&doc) {
        checks.push(
            Check::new(
                Some(agent),
                Status::Fail,
                format!(
                    "{} sets hooksConfig.enabled to false: no hook runs",
                    file.display()
                ),
            )
            .fix("remove hooksConfig.enabled from that file"),
        );
    }
    // Gemini counts the timeout in milliseconds: a timeout copied from
    // Claude Code's seconds (`gemini hooks migrate`) lets every call run.
    if found.timeout.is_some_and(|ms| ms < 1000) {
        checks.push(
            Check::new(
                Some(agent),
                Status::Fail,
                format!(
                    "the hook's timeout is {} ms: Gemini CLI counts milliseconds, and a call whose hook times out runs",
                    found.timeout.unwrap_or_default()
                ),
            )
            .fix(install_fix(agent)),
        );
    }
    checks.push(gemini_trust(homes, &doc));
    let payload = |command: &str| {
        json!({"session_id": "doctor", "transcript_path": "", "cwd": "/tmp",
            "hook_event_name": gemini::EVENT, "timestamp": "2026-01-01T00:00:00.000Z",
            "tool_name": "run_shell_command", "tool_input": {"command": command}})
    };
    round_trip(
        homes,
        agent,
        &found.command,
        &payload,
        |v| v["decision"] == "deny" && v["reason"].is_string(),
        |v| *v == json!({}),
        checks,
    );
}

fn copilot_checks(homes: &Homes, checks: &mut Vec<Check>) {
    let agent = Agent::Copilot;
    let (Some(file), Some(settings)) = (copilot::hook_file(homes), copilot::settings_file(homes))
    else {
        let unset = "HOME and COPILOT_HOME are unset";
        checks.push(Check::new(Some(agent), Status::Fail, unset));
        return;
    };
    let mut add = |status, text: String| checks.push(Check::new(Some(agent), status, text));
    let doc = match read_json(agent, &file) {
        Ok(doc) => doc,
        Err(check) => {
            let fix = format!("remove that file, then {}", install_fix(agent));
            checks.push(check.fix(fix));
            return;
        }
    };
    let Some(command) = copilot::found_entry(&doc).and_then(copilot::entry_command) else {
        let text = format!("warden is not registered in {}", file.display());
        checks.push(Check::new(Some(agent), Status::Fail, text).fix(install_fix(agent)));
        return;
    };
    let command = command.to_string();
    add(
        Status::Pass,
        format!("registered in {}: {command}", file.display()),
    );
    let settings_doc = copilot::read_json(&settings).unwrap_or_default();
    let shown = settings.display();
    if copilot::hooks_switched_off(&settings_doc) {
        add(
            Status::Fail,
            format!("{shown} sets disableAllHooks: no hook runs"),
        );
    }
    let disabled = copilot::disabled_hooks(&settings_doc);
    if disabled > 0 {
        add(Status::Warn, format!("{shown} turns off {disabled} hook(s) by content hash (disabledHooks): if warden's is one, it never runs; see Copilot's /hooks"));
    }
    let twice = copilot::find(&settings_doc);
    if let Some(other) = twice.first() {
        add(Status::Warn, format!("{shown} registers warden too ({other}): Copilot runs both, so every call is judged twice; remove that entry"));
    }
    let payload = |command: &str| {
        json!({"sessionId": "doctor", "timestamp": 0, "cwd": "/tmp",
            "toolName": "bash", "toolArgs": {"command": command, "description": "doctor"}})
    };
    let native = format!("{command} --agent native");
    let yours = run_hook(homes, &native, &payload("git status"))
        .is_ok_and(|v| v["action"] == "allow" && v["layer"] == "user");
    round_trip(
        homes,
        agent,
        &command,
        &payload,
        |v| v["permissionDecision"] == "deny" && v["permissionDecisionReason"].is_string(),
        |v| *v == json!({}) || (yours && v["permissionDecision"] == "allow"),
        checks,
    );
}

/// Where Gemini CLI runs warden: only in folders it trusts. warden says
/// which those are and never trusts one for the person.
fn gemini_trust(homes: &Homes, settings: &Value) -> Check {
    let agent = Some(Agent::Gemini);
    if gemini::trust_switched_off(settings) {
        return Check::new(
            agent,
            Status::Pass,
            "folder trust is off (security.folderTrust.enabled: false): Gemini CLI runs the hook in every folder",
        );
    }
    let trusted = gemini::trusted_folders(homes);
    let named = match trusted.len() {
        0 => "no folder is trusted yet".to_string(),
        n => format!(
            "{n} folder{} trusted: {}",
            if n == 1 { " is" } else { "s are" },
            trusted
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Check::new(
        agent,
        Status::Warn,
        format!("Gemini CLI runs the hook only in trusted folders ({named}); elsewhere an interactive session runs unguarded and `gemini -p` refuses to start"),
    )
    .fix("trust each project you use Gemini in, in Gemini itself (its trust prompt, or `/permissions trust`); warden does not trust folders for you")
}

/// OpenCode runs warden through the plugin file install wrote: it must be
/// there, warden's and current, name a warden that exists, and not be
/// switched off; then warden is asked what the plugin would ask.
fn opencode_checks(homes: &Homes, checks: &mut Vec<Check>) {
    let agent = Some(Agent::OpenCode);
    let fix = install_fix(Agent::OpenCode);
    let Some(file) = opencode::plugin_file(homes) else {
        checks.push(Check::new(
            agent,
            Status::Fail,
            "HOME and XDG_CONFIG_HOME are unset",
        ));
        return;
    };
    let shown = file.display();
    let text = match files::read_optional(&file) {
        Ok(Some(text)) if opencode::is_ours(&text) => text,
        Ok(Some(_)) => {
            let said = format!("{shown} is not warden's plugin");
            checks.push(
                Check::new(agent, Status::Fail, said).fix(format!("move it away, then {fix}")),
            );
            return;
        }
        Ok(None) => {
            let said = format!("warden's plugin is not in {shown}: OpenCode runs unguarded");
            checks.push(Check::new(agent, Status::Fail, said).fix(fix));
            return;
        }
        Err(err) => {
            checks.push(Check::new(agent, Status::Fail, err.to_string()));
            return;
        }
    };
    let named = opencode::warden_in(&text).unwrap_or_default();
    // A copy made by hand names `warden`, found on PATH.
    let program = match named.contains('/') {
        true => Some(PathBuf::from(&named)).filter(|p| p.is_file()),
        false => homes.which(&named),
    };
    let Some(program) = program else {
        let said =
            format!("{shown} runs `{named}`, which is not there: OpenCode blocks every tool call");
        checks.push(Check::new(agent, Status::Fail, said).fix(fix));
        return;
    };
    checks.push(if text == opencode::plugin_text(Path::new(&named)) {
        Check::new(
            agent,
            Status::Pass,
            format!(
                "warden's plugin is in {shown}, running {}",
                program.display()
            ),
        )
    } else {
        let said = format!("{shown} is an older or edited copy of warden's plugin");
        Check::new(agent, Status::Warn, said).fix(fix.clone())
    });
    if opencode::pure(homes.opencode_pure.as_deref()) {
        checks
            .push(Check::new(agent, Status::Fail, opencode::PURE_NOTE).fix("unset OPENCODE_PURE"));
    }
    let payload = |command: &str| {
        json!({"hook_event_name": "tool.execute.before", "tool_name": "bash",
            "tool_input": {"command": command}, "session_id": "doctor",
            "call_id": "doctor", "cwd": "/tmp"})
    };
    round_trip(
        homes,
        Agent::OpenCode,
        &hook_command(&program, &["--agent", "opencode"]),
        &payload,
        |v| v["action"] == "block" && v["message"].is_string(),
        |v| *v == json!({}),
        checks,
    );
}

/// The agent's hooks `file`, its document and the warden handler in it,
/// with the checks saying so; `None` where there is none to check further:
/// no `file` (`unset` says why), not JSON, or warden not in it.
fn json_registered(
    agent: Agent,
    file: Option<PathBuf>,
    unset: &str,
    checks: &mut Vec<Check>,
) -> Option<(PathBuf, Value, Found)> {
    let Some(file) = file else {
        checks.push(Check::new(Some(agent), Status::Fail, unset));
        return None;
    };
    let (doc, found) = json_hooks(agent, &file, checks)?;
    Some((file, doc, found))
}

/// The JSON document in `file` (an absent or unreadable file reads as
/// empty), or the failed check saying it is not JSON.
fn read_json(agent: Agent, file: &Path) -> Result<Value, Check> {
    let text = files::read_optional(file)
        .ok()
        .flatten()
        .unwrap_or_default();
    json_doc::parse(&text).map_err(|err| {
        Check::new(
            Some(agent),
            Status::Fail,
            format!("{} is not valid JSON: {err}", file.display()),
        )
    })
}

/// The warden handler in a Claude-shaped hooks file, with a check saying
/// whether it is there and covers the shell tool.
fn json_hooks(agent: Agent, file: &Path, checks: &mut Vec<Check>) -> Option<(Value, Found)> {
    // Where each agent lists the hook, the name of its shell tool, and
    // whether it anchors a matcher (Gemini CLI searches with it).
    let (event, shell, anchored) = match agent {
        Agent::Gemini => (gemini::EVENT, "run_shell_command", false),
        _ => (hooks_json::PRE_TOOL_USE, "Bash", true),
    };
    let doc = match read_json(agent, file) {
        Ok(doc) => doc,
        Err(check) => {
            checks.push(check);
            return None;
        }
    };
    let Some(found) = hooks_json::find(&doc, event).into_iter().next() else {
        checks.push(
            Check::new(
                Some(agent),
                Status::Fail,
                format!("warden is not registered in {}", file.display()),
            )
            .fix(install_fix(agent)),
        );
        return None;
    };
    let matcher = found.matcher.clone().unwrap_or_default();
    checks.push(
        if matcher.is_empty() || matcher == "*" || matches_tool(&matcher, shell, anchored) {
            Check::new(
                Some(agent),
                Status::Pass,
                format!(
                    "registered in {} for `{matcher}`: {}",
                    file.display(),
                    found.command
                ),
            )
        } else {
            Check::new(
                Some(agent),
                Status::Fail,
                format!(
                    "registered in {}, but its matcher `{matcher}` misses {shell}",
                    file.display()
                ),
            )
            .fix(install_fix(agent))
        },
    );
    Some((doc, found))
}

fn claude_payload(command: &str, turn: Option<&str>) -> Value {
    let mut payload = json!({"session_id": "doctor", "transcript_path": "/dev/null", "cwd": "/tmp",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "doctor"});
    if let Some(turn) = turn {
        payload["turn_id"] = turn.into();
    }
    payload
}

/// The round trip of a Claude-shaped hook (Claude Code's, Codex's, whose
/// payload carries `turn`): refused is a deny, and no objection is `{}`, or
/// an allow too where your own allow rule decides (`yours`).
fn claude_round_trip(
    homes: &Homes,
    agent: Agent,
    command: &str,
    turn: Option<&str>,
    yours: bool,
    checks: &mut Vec<Check>,
) {
    let payload = |command: &str| claude_payload(command, turn);
    round_trip(
        homes,
        agent,
        command,
        &payload,
        |v| decision(v) == Some("deny"),
        |v| *v == json!({}) || (yours && decision(v) == Some("allow")),
        checks,
    );
}

fn decision(v: &Value) -> Option<&str> {
    v["hookSpecificOutput"]["permissionDecision"].as_str()
}

/// Runs the registered command line as the agent would, on `rm -rf /`
/// (must be refused) and `git status` (must get no objection).
fn round_trip(
    homes: &Homes,
    agent: Agent,
    command: &str,
    payload: &dyn Fn(&str) -> Value,
    refused: impl Fn(&Value) -> bool,
    silent: impl Fn(&Value) -> bool,
    checks: &mut Vec<Check>,
) {
    type Want<'a> = &'a dyn Fn(&Value) -> bool;
    let cases: [(&str, Want, &str); 2] = [
        ("rm -rf /", &refused, "refused"),
        ("git status", &silent, "let through"),
    ];
    for (line, want, meant) in cases {
        let got = run_hook(homes, command, &payload(line));
        checks.push(match got {
            // The answer itself, so the line says what the agent was told.
            Ok(v) if want(&v) => Check::new(
                Some(agent),
                Status::Pass,
                format!(
                    "`{line}` through the registered command: {meant} ({})",
                    answer(&v)
                ),
            ),
            Ok(v) => Check::new(
                Some(agent),
                Status::Fail,
                format!("`{line}` through the registered command should be {meant}, got {v}"),
            )
            .fix(install_fix(agent)),
            Err(why) => Check::new(
                Some(agent),
                Status::Fail,
                format!("the registered command failed on `{line}`: {why}"),
            )
            .fix(install_fix(agent)),
        });
    }
}

/// A hook's answer in a few words: its decision and the rule behind it, or
/// that it had no objection.
fn answer(v: &Value) -> String {
    if v.as_object().is_some_and(|o| o.is_empty()) {
        return "no objection: `{}`".to_string();
    }
    let decision = ["decision", "action", "permissionDecision"]
        .iter()
        .find_map(|k| v[k].as_str())
        .or_else(|| v["hookSpecificOutput"]["permissionDecision"].as_str());
    // Every dialect's message ends `(warden rule ID).`
    let message = ["message", "reason", "permissionDecisionReason"]
        .iter()
        .find_map(|k| v[k].as_str())
        .or_else(|| v["hookSpecificOutput"]["permissionDecisionReason"].as_str());
    let rule = message
        .and_then(|m| m.rsplit_once("(warden rule "))
        .and_then(|(_, r)| r.split(')').next());
    match (decision, rule, message) {
        (Some(d), Some(r), _) => format!("`{d}` from {r}"),
        (Some(d), None, Some(m)) => format!("`{d}`: {m}"),
        (Some(d), None, None) => format!("`{d}`"),
        _ => format!("{v}"),
    }
}

/// Runs a hook command line on a payload as the agents do: split into
/// words, `~` expanded, no shell; the answer must be one JSON object.
fn run_hook(homes: &Homes, command: &str, payload: &Value) -> Result<Value, String> {
    let words = command_words(command);
    let (program, args) = words.split_first().ok_or("the command is empty")?;
    let program = match (program.strip_prefix("~/"), &homes.home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(program),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = process::run(
        &program,
        &args,
        payload.to_string().as_bytes(),
        Duration::from_secs(10),
    )?;
    if out.status != Some(0) {
        return Err(format!(
            "exit status {:?}: {}",
            out.status,
            out.stderr.trim()
        ));
    }
    serde_json::from_str(out.stdout.trim())
        .map_err(|e| format!("its answer is not JSON ({e}): {}", out.stdout.trim()))
}

/// Whether the agent's matcher (a regex, which the agent anchors or
/// searches with) takes `tool`.
fn matches_tool(matcher: &str, tool: &str, anchored: bool) -> bool {
    let pattern = match anchored {
        true => format!("^(?:{matcher})$"),
        false => matcher.to_string(),
    };
    Regex::new(&pattern).is_ok_and(|re| re.is_match(tool)) || matcher == tool
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_told_as_the_agent_got_it() {
        assert_eq!(answer(&json!({})), "no objection: `{}`");
        let hermes = json!({"action": "block", "message": "Blocked: `rm -rf /` is x (warden rule hardline.rm-root)."});
        assert_eq!(answer(&hermes), "`block` from hardline.rm-root");
        let claude = json!({"hookSpecificOutput": {"permissionDecision": "allow",
            "permissionDecisionReason": "Allowed: `git status` matches your allow rule config.allow-1"}});
        assert_eq!(
            answer(&claude),
            "`allow`: Allowed: `git status` matches your allow rule config.allow-1"
        );
        assert_eq!(answer(&json!([1])), "[1]");
    }
}
