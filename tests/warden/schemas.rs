//! Each dialect's output against what its real client accepts and acts on: every golden fixture's expected output, every corpus command and rule example in each dialect, Claude's `allow`, and the every-agent block.
//!
//! The clients' rules are data below, each with the client version it was
//! measured on. A validator returns the [`Effect`] an answer has on its
//! client, or why the client (or warden's own rule for that client) rejects
//! it; `validators_reject_what_clients_reject` keeps the validators honest.

use std::fs;
use std::path::{Path, PathBuf};

use libtest_mimic::Trial;
use serde_json::{json, Map, Value};
use warden::cli::{self, Env};
use warden::rules;
use warden::verdict::Dialect;

use crate::support::{self, World};

tests![
    every_fixture_fits_its_client,
    claude_allow_comes_only_from_a_user_allow_rule,
    every_agent_blocks_fit_every_agent,
    validators_reject_what_clients_reject;
    commands
];

/// What a client does with an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Nothing: its own checks decide.
    NoOpinion,
    Block,
    /// Claude's permission prompt.
    Ask,
    /// Hermes' approval prompt (the 0.22 fork).
    Approve,
    /// The call runs past the client's own prompt (Codex: with its input rewritten).
    Allow,
}

// The clients' schemas: each key a client reads, as `key:kind`, where kind
// is bool, str, object, any, or the values allowed, `a|b`.

/// Codex CLI 0.169.0, PreToolUse hook output (`additionalProperties: false`).
const CODEX_TOP: &str = "continue:bool decision:approve|block reason:str \
    hookSpecificOutput:object stopReason:str suppressOutput:bool systemMessage:str";
/// Codex CLI 0.169.0, its `hookSpecificOutput` (`additionalProperties:
/// false`, `hookEventName` required). Codex fails the hook, and runs the
/// call, on `allow` without `updatedInput`, on `ask`, on a deny without a
/// reason and on `decision: approve`.
const CODEX_SPECIFIC: &str = "hookEventName:PreToolUse permissionDecision:allow|deny|ask \
    permissionDecisionReason:str additionalContext:str updatedInput:any";
/// Claude Code 2.1.330, PreToolUse hook output: unknown keys are ignored; a
/// known key with a bad value fails validation, and the call goes on to
/// Claude's own permission check.
const CLAUDE_TOP: &str = "continue:bool suppressOutput:bool stopReason:str \
    decision:approve|block reason:str systemMessage:str terminalSequence:any \
    hookSpecificOutput:object";
/// Claude Code 2.1.330, its `hookSpecificOutput`. `defer` is valid, but ends
/// a `claude -p` session, so warden must never send it.
const CLAUDE_SPECIFIC: &str = "hookEventName:PreToolUse permissionDecision:allow|deny|ask|defer \
    permissionDecisionReason:str updatedInput:object additionalContext:str";

/// Gemini CLI 0.61.0, BeforeTool hook output: unknown keys are ignored.
/// `decision` `deny` or `block` blocks, `ask` forces Gemini's confirmation
/// (which hangs `gemini -p`), anything else is no objection; `continue:
/// false` stops the whole run.
const GEMINI_TOP: &str = "decision:any reason:str continue:bool stopReason:str \
    systemMessage:str suppressOutput:bool hookSpecificOutput:object";

/// Copilot CLI 1.0.102, preToolUse hook output (camelCase registration):
/// unknown keys are ignored; `permissionDecision` `deny` blocks, `ask` asks
/// (and denies where no one can answer, `copilot -p`), `allow` skips
/// Copilot's own approval; any other value, or none, is no objection.
const COPILOT_TOP: &str = "permissionDecision:any permissionDecisionReason:str \
    modifiedArgs:object additionalContext:str suppressOutput:bool";

/// warden's OpenCode plugin (hooks/opencode-warden.js), in OpenCode
/// 1.18.33: `{}` lets the call go on; `action: block` with a message, or
/// `decision: block` with a reason, is thrown, and OpenCode fails the call
/// with that text. Every other answer is blocked too, as one the plugin
/// does not understand, so warden must never send one.
const OPENCODE_BLOCKS: &[(&str, &str)] = &[("action", "message"), ("decision", "reason")];

/// An answer Hermes acts on: its `key=word`, the keys that must hold text,
/// what Hermes does, and the release that first does it.
type HermesAnswer = (&'static str, &'static str, Effect, &'static str);
/// Hermes Agent 0.19.0 and the 0.22.2 fork: the only answers acted on;
/// anything else (`allow`, `ask`, `deny`, ...) is no opinion.
const HERMES_ANSWERS: &[HermesAnswer] = &[
    ("action=block", "message", Effect::Block, "0.19.0"),
    ("decision=block", "reason", Effect::Block, "0.19.0"),
    (
        "action=approve",
        "message rule_key",
        Effect::Approve,
        "0.22.2",
    ),
];

/// warden's own contract (docs/agents.md, "Output dialects").
const NATIVE_KEYS: &[&str] = &["action", "layer", "message", "rule_id"];
const LAYERS: &str = "input hardline sudo-guard config user dangerous mode threshold default";

/// Who reads an answer: one dialect's client, or every one at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Client {
    One(Dialect),
    Every,
}

fn object(v: &Value) -> Result<&Map<String, Value>, String> {
    v.as_object().ok_or_else(|| format!("not an object: {v}"))
}

/// A string with more than blanks in it.
fn text(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::String(s)) if !s.trim().is_empty())
}

/// Checks each key's value against `spec`; a key not in it is an error only when `strict`.
fn fields(map: &Map<String, Value>, spec: &str, strict: bool) -> Result<(), String> {
    for (key, value) in map {
        let mut entries = spec.split_whitespace();
        let kind = entries.find_map(|e| e.strip_prefix(key.as_str())?.strip_prefix(':'));
        let ok = match kind {
            None => !strict,
            Some("bool") => value.is_boolean(),
            Some("str") => value.is_string(),
            Some("object") => value.is_object(),
            Some("any") => true,
            Some(words) => words.split('|').any(|w| value.as_str() == Some(w)),
        };
        if !ok {
            return Err(format!("{key}: {value} is outside the schema"));
        }
    }
    Ok(())
}

/// An answer's checked `hookSpecificOutput`, if any.
fn specific<'a>(
    top: &'a Map<String, Value>,
    spec: &str,
    strict: bool,
) -> Result<Option<&'a Map<String, Value>>, String> {
    let Some(inner) = top.get("hookSpecificOutput").and_then(Value::as_object) else {
        return Ok(None);
    };
    fields(inner, spec, strict)?;
    match inner.contains_key("hookEventName") {
        true => Ok(Some(inner)),
        false => Err("hookSpecificOutput.hookEventName is required".into()),
    }
}

/// What Codex does; `Err`: a failed hook (after which Codex runs the call).
fn codex(v: &Value) -> Result<Effect, String> {
    let top = object(v)?;
    fields(top, CODEX_TOP, true)?;
    let mut effect = None;
    if let Some(inner) = specific(top, CODEX_SPECIFIC, true)? {
        effect = match inner.get("permissionDecision").and_then(Value::as_str) {
            Some("deny") if text(inner.get("permissionDecisionReason")) => Some(Effect::Block),
            Some("allow") if inner.contains_key("updatedInput") => Some(Effect::Allow),
            Some(word) => return Err(format!("permissionDecision {word} fails: {v}")),
            None => None,
        };
    }
    match top.get("decision").and_then(Value::as_str) {
        Some("block") if text(top.get("reason")) && effect.is_none_or(|e| e == Effect::Block) => {
            effect = Some(Effect::Block)
        }
        Some(word) => return Err(format!("decision {word} fails: {v}")),
        None => {}
    }
    match effect {
        Some(effect) => Ok(effect),
        None if top.is_empty() => Ok(Effect::NoOpinion),
        None => Err(format!("no decision, and not `{{}}`: {v}")),
    }
}

/// What Gemini CLI does with any answer (`Err`: one warden must never send).
fn gemini_reads(v: &Value) -> Result<Effect, String> {
    let top = object(v)?;
    fields(top, GEMINI_TOP, false)?;
    if top.get("continue") == Some(&Value::Bool(false)) {
        return Err("continue: false stops the whole Gemini run".into());
    }
    match top.get("decision").and_then(Value::as_str) {
        Some("deny" | "block") if text(top.get("reason")) => Ok(Effect::Block),
        Some("deny" | "block") => Err(format!("a block without a reason: {v}")),
        Some("ask") => Err("ask hangs `gemini -p`".into()),
        _ => Ok(Effect::NoOpinion),
    }
}

/// warden's Gemini dialect: `{}`, or exactly `decision: deny` with a reason.
fn gemini(v: &Value) -> Result<Effect, String> {
    let effect = gemini_reads(v)?;
    let keys = object(v)?.len();
    let exact = match effect {
        Effect::NoOpinion => keys == 0,
        _ => keys == 2 && v["decision"] == "deny",
    };
    match exact {
        true => Ok(effect),
        false => Err(format!("not `{{}}` or exactly a deny with a reason: {v}")),
    }
}

/// What Copilot CLI does with any answer (`Err`: one warden must never send).
fn copilot_reads(v: &Value) -> Result<Effect, String> {
    let top = object(v)?;
    fields(top, COPILOT_TOP, false)?;
    if top.contains_key("modifiedArgs") {
        return Err("modifiedArgs rewrites the call: warden never sends it".into());
    }
    let reason = text(top.get("permissionDecisionReason"));
    match top.get("permissionDecision").and_then(Value::as_str) {
        Some("allow") => Ok(Effect::Allow),
        Some(word @ ("deny" | "ask")) if !reason => Err(format!("{word} without a reason")),
        Some("deny") => Ok(Effect::Block),
        Some("ask") => Ok(Effect::Ask),
        _ => Ok(Effect::NoOpinion),
    }
}

/// warden's Copilot dialect: `{}`, or exactly a decision with its reason.
fn copilot(v: &Value) -> Result<Effect, String> {
    let effect = copilot_reads(v)?;
    let keys = object(v)?.len();
    match (effect, keys) {
        (Effect::NoOpinion, 0) | (Effect::Block | Effect::Ask | Effect::Allow, 2) => Ok(effect),
        _ => Err(format!(
            "not `{{}}` or exactly a decision with a reason: {v}"
        )),
    }
}

/// What warden's OpenCode plugin does with any answer.
fn opencode_reads(v: &Value) -> Result<Effect, String> {
    let top = object(v)?;
    if top.is_empty() {
        return Ok(Effect::NoOpinion);
    }
    let thrown = |(key, text_key): &(&str, &str)| v[*key] == "block" && v[*text_key].is_string();
    match OPENCODE_BLOCKS.iter().any(thrown) {
        true => Ok(Effect::Block),
        false => Err(format!(
            "the plugin blocks it as an answer it does not understand: {v}"
        )),
    }
}

/// warden's OpenCode dialect: `{}`, or exactly `action: block` with a message.
fn opencode(v: &Value) -> Result<Effect, String> {
    let effect = opencode_reads(v)?;
    let exact = match effect {
        Effect::NoOpinion => true,
        _ => object(v)?.len() == 2 && v["action"] == "block" && text(v.get("message")),
    };
    match exact {
        true => Ok(effect),
        false => Err(format!("not `{{}}` or exactly a block with a message: {v}")),
    }
}

/// What Claude Code does, under warden's rules for it: never `defer`, a
/// reason with every deny and ask, `{}` for no objection.
fn claude(v: &Value) -> Result<Effect, String> {
    let top = object(v)?;
    fields(top, CLAUDE_TOP, false)?;
    if let Some(inner) = specific(top, CLAUDE_SPECIFIC, false)? {
        let reason = text(inner.get("permissionDecisionReason"));
        match inner.get("permissionDecision").and_then(Value::as_str) {
            Some("defer") => return Err("defer ends a `claude -p` session".into()),
            Some("allow") => return Ok(Effect::Allow),
            Some(word) if !reason => return Err(format!("{word} without a reason")),
            Some("deny") => return Ok(Effect::Block),
            Some(_) => return Ok(Effect::Ask),
            None => {}
        }
    }
    match top.get("decision").and_then(Value::as_str) {
        Some("block") => Ok(Effect::Block),
        Some(_) => Ok(Effect::Allow),
        None if top.is_empty() => Ok(Effect::NoOpinion),
        None => Err(format!("no decision, and not `{{}}`: {v}")),
    }
}

fn hermes_fits(v: &Value, (answer, texts, _, _): &HermesAnswer) -> bool {
    let (key, word) = answer.split_once('=').unwrap();
    v[key] == word && texts.split(' ').all(|k| text(v.get(k)))
}

/// What Hermes does with any answer, ignoring the keys it does not read.
fn hermes_reads(v: &Value) -> Effect {
    let answer = HERMES_ANSWERS.iter().find(|a| hermes_fits(v, a));
    answer.map_or(Effect::NoOpinion, |a| a.2)
}

/// warden's Hermes dialect: `{}`, or exactly one answer Hermes acts on.
fn hermes(v: &Value) -> Result<Effect, String> {
    let top = object(v)?;
    if top.is_empty() {
        return Ok(Effect::NoOpinion);
    }
    let exact = |a: &&HermesAnswer| hermes_fits(v, a) && top.len() == 1 + a.1.split(' ').count();
    let answer = HERMES_ANSWERS.iter().find(exact);
    answer
        .map(|a| a.2)
        .ok_or(format!("not an answer Hermes acts on: {v}"))
}

fn native(v: &Value) -> Result<Effect, String> {
    let mut keys: Vec<&str> = object(v)?.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let layer = v["layer"].as_str().unwrap_or_default();
    let rule_id = v["rule_id"].is_null() || text(v.get("rule_id"));
    if keys != NATIVE_KEYS || !LAYERS.split(' ').any(|l| l == layer) || !rule_id {
        return Err(format!("not warden's native contract: {v}"));
    }
    match v["action"].as_str() {
        _ if !text(v.get("message")) => Err(format!("no message: {v}")),
        Some("allow") => Ok(Effect::Allow),
        Some("ask") => Ok(Effect::Ask),
        Some("block") => Ok(Effect::Block),
        _ => Err(format!("action is not allow, ask or block: {v}")),
    }
}

/// A block for every client at once: a Codex block, a Claude deny, a
/// Hermes `decision: block`, a Gemini block and a block for warden's
/// OpenCode plugin. Copilot CLI is not among them: it reads only a
/// top-level `permissionDecision`, a key Codex's strict schema refuses;
/// `warden install` registers it with `--agent copilot`, so its payloads
/// are answered in its own dialect.
fn every(v: &Value) -> Result<Effect, String> {
    let (codex, claude, gemini) = (codex(v)?, claude(v)?, gemini_reads(v)?);
    let deny = v["hookSpecificOutput"]["permissionDecision"] == "deny";
    let hermes = v["decision"] == "block" && hermes_reads(v) == Effect::Block;
    let others = gemini == Effect::Block && opencode_reads(v)? == Effect::Block;
    match codex == Effect::Block && claude == Effect::Block && deny && hermes && others {
        true => Ok(Effect::Block),
        false => Err(format!("not a block for every agent: {v}")),
    }
}

/// The effect of `v` on `client`, or why the client or warden's rule for it rejects it.
fn check(client: Client, v: &Value) -> Result<Effect, String> {
    match client {
        Client::Every => every(v),
        Client::One(Dialect::Native) => native(v),
        Client::One(Dialect::Hermes) => hermes(v),
        Client::One(Dialect::Claude) => claude(v),
        Client::One(Dialect::Gemini) => gemini(v),
        Client::One(Dialect::Copilot) => copilot(v),
        Client::One(Dialect::OpenCode) => opencode(v),
        Client::One(Dialect::Codex) => match codex(v)? {
            effect @ (Effect::NoOpinion | Effect::Block) => Ok(effect),
            effect => Err(format!("not `{{}}` or a deny: {effect:?}")),
        },
    }
}

/// What a verdict (its native effect) is meant to do to each client (docs/agents.md
/// "Registering the hook"); `user`: the user's own rule decided.
fn meant(dialect: Dialect, on_ask_block: bool, native: Effect, user: bool) -> Effect {
    match (dialect, native) {
        (Dialect::Native, effect) | (_, effect @ Effect::Block) => effect,
        (Dialect::Hermes, Effect::Ask) if !on_ask_block => Effect::Approve,
        (Dialect::Claude | Dialect::Copilot, Effect::Ask) if !on_ask_block => Effect::Ask,
        (_, Effect::Ask) => Effect::Block,
        (Dialect::Claude | Dialect::Copilot, _) if user => Effect::Allow,
        _ => Effect::NoOpinion,
    }
}

/// The hook command lines warden is registered with (the native one first),
/// and the agent whose payloads each gets.
const RUNS: &[(&[&str], Dialect)] = &[
    (&["--agent", "native"], Dialect::Hermes),
    (&["--agent", "hermes"], Dialect::Hermes),
    (&["--agent", "hermes", "--on-ask", "block"], Dialect::Hermes),
    (&["--agent", "claude"], Dialect::Claude),
    (&["--agent", "codex"], Dialect::Codex),
    (&["--agent", "gemini"], Dialect::Gemini),
    (&["--agent", "copilot"], Dialect::Copilot),
    (&["--agent", "opencode"], Dialect::OpenCode),
];

/// A terminal call of `command` in `cwd`, shaped as `agent` sends it.
fn payload(agent: Dialect, command: &str, cwd: &str) -> String {
    let mut p = match agent {
        Dialect::Claude | Dialect::Codex => json!({
            "session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1",
        }),
        Dialect::Gemini => json!({
            "session_id": "s1", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-11-27T11:20:12.150Z",
            "tool_name": "run_shell_command", "tool_input": {"command": command},
        }),
        Dialect::Copilot => json!({
            "sessionId": "s1", "timestamp": 1795778606524_u64, "cwd": cwd,
            "toolName": "bash", "toolArgs": {"command": command, "description": "run"},
        }),
        Dialect::OpenCode => json!({
            "hook_event_name": "tool.execute.before", "tool_name": "bash",
            "tool_input": {"command": command}, "session_id": "ses_1", "call_id": "call_1",
            "cwd": cwd,
        }),
        _ => json!({
            "hook_event_name": "pre_tool_call", "tool_name": "terminal",
            "tool_input": {"command": command}, "session_id": "s", "cwd": cwd,
        }),
    };
    if agent == Dialect::Codex {
        p["turn_id"] = json!("turn-1");
    }
    p.to_string()
}

/// One hook run: exit 0 and exactly one line of JSON.
fn hook(args: &[&str], payload: &[u8], env: &Env) -> Result<Value, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = cli::run(&args, &mut &payload[..], env);
    let line = out.stdout.strip_suffix('\n').unwrap_or("");
    if out.code != 0 || line.is_empty() || line.contains('\n') {
        return Err(format!("{args:?}: not one line with exit 0: {out:?}"));
    }
    serde_json::from_str(line).map_err(|e| format!("{args:?}: not JSON ({e}): {line}"))
}

/// `command` through the first run of `RUNS` (the native verdict) and
/// through `others` of the rest, each output checked against its client and
/// against what the native verdict means there. Returns the number of
/// outputs checked.
fn check_runs(
    command: &str,
    cwd: &str,
    env: &Env,
    others: impl Fn(usize) -> bool,
    failures: &mut Vec<String>,
) -> usize {
    let mut truth = None;
    let mut checked = 0;
    for (n, (args, agent)) in RUNS.iter().enumerate() {
        if n > 0 && !others(n) {
            continue;
        }
        checked += 1;
        let dialect = Dialect::parse(args[1]).expect("a dialect");
        let result = hook(args, payload(*agent, command, cwd).as_bytes(), env).and_then(|v| {
            let effect = check(Client::One(dialect), &v)?;
            let (native, user) = *truth.get_or_insert((effect, v["layer"] == "user"));
            match meant(dialect, args.contains(&"block"), native, user) {
                want if want == effect => Ok(()),
                want => Err(format!("means {effect:?}, want {want:?}: {v}")),
            }
        });
        if let Err(e) = result {
            failures.push(format!("{command:?} {args:?}: {e}"));
            if n == 0 {
                return 1;
            }
        }
    }
    checked
}

fn report(failures: &[String], checked: usize) {
    let shown: Vec<&str> = failures.iter().take(40).map(String::as_str).collect();
    let head = format!("{} of {checked} outputs fail", failures.len());
    assert!(failures.is_empty(), "{head}:\n{}", shown.join("\n"));
}

fn sorted(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths
}

/// The client a fixture's answer is for, found as warden finds it: `--agent`,
/// else the every-agent block for an unreadable payload, else the payload's shape.
fn fixture_client(args: &str, bytes: &[u8]) -> Result<Client, String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let flag = words.iter().enumerate().find_map(|(i, w)| match *w {
        "--agent" => words.get(i + 1).copied(),
        w => w.strip_prefix("--agent="),
    });
    if let Some(name) = flag {
        return Dialect::parse(name)
            .map(Client::One)
            .ok_or(format!("--agent {name}"));
    }
    let utf8 = std::str::from_utf8(bytes).unwrap_or_default();
    let Ok(call) = warden::payload::parse(utf8) else {
        return Ok(Client::Every);
    };
    let root: Value = serde_json::from_str(utf8).map_err(|e| e.to_string())?;
    let tool = root["tool_name"].as_str().unwrap_or("");
    let agent = match root["hook_event_name"].as_str().unwrap_or("") {
        "" if root.get("tool_name").is_none() && root.get("toolName").is_some() => Dialect::Copilot,
        "pre_tool_call" => Dialect::Hermes,
        "BeforeTool" => Dialect::Gemini,
        "tool.execute.before" => Dialect::OpenCode,
        "PreToolUse" if text(root.get("turn_id")) => Dialect::Codex,
        "PreToolUse" => Dialect::Claude,
        _ if tool == "Bash" || tool.starts_with("mcp__") => Dialect::Claude,
        _ => Dialect::Hermes,
    };
    match call.agent.dialect() {
        warden if warden == agent => Ok(Client::One(agent)),
        warden => Err(format!("warden reads it as {warden:?}, not {agent:?}")),
    }
}

/// One fixture's expected output against the client of its dialect; a
/// Claude `allow` there must come from the user's allow rule.
fn fixture(group: &Path, stem: &str, at: &str) -> Result<(), String> {
    let args = fs::read_to_string(group.join(format!("{stem}.args"))).unwrap_or_default();
    let expected = support::read_repo_file(&format!("fixtures/{at}.expected.json"));
    let v: Value = serde_json::from_str(&expected).map_err(|e| e.to_string())?;
    let payload = fs::read(group.join(format!("{stem}.json"))).unwrap();
    let client = fixture_client(&args, &payload)?;
    if at.starts_with("malformed/") && !args.contains("--agent") && client != Client::Every {
        return Err("warden reads this malformed payload".into());
    }
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"].as_str();
    let granted = reason.is_some_and(|r| r.contains(" matches your allow rule "));
    let granted = granted
        || v["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains(" matches your allow rule "));
    match (client, check(client, &v)?) {
        (Client::One(Dialect::Claude | Dialect::Copilot), Effect::Allow) if !granted => {
            Err(format!("an allow not from a user allow rule: {v}"))
        }
        _ => Ok(()),
    }
}

/// Test 1: every golden fixture's expected output fits its client.
fn every_fixture_fits_its_client() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let groups = sorted(&support::repo_path("fixtures")).into_iter();
    for group in groups.filter(|g| g.is_dir()) {
        for file in sorted(&group) {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".json") else {
                continue;
            };
            if !stem.ends_with(".expected") {
                let at = format!("{}/{stem}", group.file_name().unwrap().to_string_lossy());
                if let Err(e) = fixture(&group, stem, &at) {
                    failures.push(format!("{at}: {e}"));
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "only {checked} fixtures found");
    report(&failures, checked);
}

/// Test 2: every corpus command and rule example, through the whole engine:
/// the native verdict and, in turn, one other dialect each (the n-th command
/// of a source in the n-th dialect, so every dialect meets a share of every
/// source and every kind of verdict), accepted by its client and meaning
/// what the native verdict means. A dialect's answer depends on the verdict,
/// not on the command: every dialect for every command cost the suite a
/// minute and found nothing the share does not. One trial per corpus file
/// and one for the rules' examples, `schemas::commands/<source>`, so they
/// run in parallel.
fn commands() -> Vec<Trial> {
    let mut sources: Vec<(String, Vec<String>, usize)> = Vec::new();
    for path in sorted(&support::repo_path("tests/corpus")) {
        if path.extension().is_some_and(|e| e == "jsonl") {
            let text = fs::read_to_string(&path).unwrap();
            let lines = text.lines().filter(|l| !l.trim().is_empty());
            let cases = lines.map(|l| serde_json::from_str::<Value>(l).expect("corpus JSON"));
            let commands = cases.filter_map(|c| c["command"].as_str().map(str::to_string));
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            // A corpus file that yields fewer commands than this did not parse as meant.
            sources.push((stem, commands.collect(), 20));
        }
    }
    let examples = rules::all().flat_map(|rule| rule.hits.iter().chain(rule.misses));
    let examples = examples.map(|s| s.to_string()).collect();
    sources.push(("rule-examples".into(), examples, 300));
    let trial = |(name, commands, least): (String, Vec<String>, usize)| {
        Trial::test(format!("schemas::commands/{name}"), move || {
            assert!(commands.len() >= least, "only {} commands", commands.len());
            let (env, mut failures) = (Env::default(), Vec::new());
            let dialects = RUNS.len() - 1;
            let checked = commands.iter().enumerate();
            let checked = checked.map(|(i, c)| {
                let turn = |n: usize| n == 1 + i % dialects;
                check_runs(c, "/home/u/proj", &env, turn, &mut failures)
            });
            let checked = checked.sum();
            report(&failures, checked);
            Ok(())
        })
    };
    sources.into_iter().map(trial).collect()
}

/// Test 3: `allow` reaches Claude Code only from the user's own allow rule, and
/// never reaches Hermes or Codex; with no rule `git status` is `{}` to all.
fn claude_allow_comes_only_from_a_user_allow_rule() {
    let rule = "rules:\n  allow:\n    - \"terminal(git status:*)\"\n";
    let with = World::new("schemas/user-allow-rule").file("home/.config/warden/config.yaml", rule);
    let without = World::new("schemas/no-config");
    for (world, user) in [(&with, true), (&without, false)] {
        let (env, cwd) = (world.env(false), world.path("project"));
        for (args, agent) in RUNS {
            let v = hook(args, payload(*agent, "git status", &cwd).as_bytes(), &env).unwrap();
            let dialect = Dialect::parse(args[1]).unwrap();
            let want = meant(dialect, false, Effect::Allow, user);
            assert_eq!(check(Client::One(dialect), &v), Ok(want), "{args:?}: {v}");
            match dialect {
                Dialect::Native => assert_eq!(v["layer"] == "user", user, "{v}"),
                _ if want == Effect::NoOpinion => assert_eq!(v, json!({}), "{args:?}"),
                _ => {}
            }
        }
    }
}

/// The every-agent block (`Verdict::render_for_any_agent`) where warden
/// writes it: unreadable payloads, and a hook started with bad flags.
fn every_agent_blocks_fit_every_agent() {
    let env = Env::default();
    let runs: [(&[&str], &[u8]); 4] = [
        (&[], b"rm -rf /"),
        (&[], b""),
        (&["--on-ask"], b"{}"),
        (&["--agent", "gpt"], b"{}"),
    ];
    for (args, payload) in runs {
        let v = hook(args, payload, &env).unwrap();
        assert_eq!(check(Client::Every, &v), Ok(Effect::Block), "{args:?}: {v}");
    }
}

/// What each client does with an answer: `client  effect-or-reject  answer`
/// (the outputs warden really sends are accepted in the tests above).
const CASES: &str = r#"
codex  Block     {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
codex  Block     {"decision":"block","reason":"no"}
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"ok"}}
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":" "}}
codex  reject    {"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","rule_id":"x"}}
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"},"rule_id":"x"}
codex  reject    {"decision":"approve","reason":"fine"}
codex  reject    {"systemMessage":"hello"}
# A rewrite is valid for Codex, but warden never sends one.
codex  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"true"}}}
# Valid; whether it came from the user's allow rule is checked by the tests above.
claude Allow     {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}
claude Block     {"decision":"block","x":1}
claude reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}
claude reject    {"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
claude reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block","permissionDecisionReason":"no"}}
claude reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}
claude reject    {"decision":"deny","reason":"no"}
claude reject    {"decision":"block","continue":"yes"}
hermes Block     {"decision":"block","reason":"r"}
hermes reject    {"action":"allow"}
hermes reject    {"action":"ask","message":"m"}
hermes reject    {"action":"deny","message":"m"}
hermes reject    {"action":"block"}
hermes reject    {"action":"approve","message":"m"}
hermes reject    {"action":"block","message":"m","rule_id":"x"}
hermes reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
copilot Block    {"permissionDecision":"deny","permissionDecisionReason":"no"}
copilot Ask      {"permissionDecision":"ask","permissionDecisionReason":"why"}
copilot Allow    {"permissionDecision":"allow","permissionDecisionReason":"yours"}
copilot NoOpinion {}
copilot reject   {"permissionDecision":"deny"}
copilot reject   {"permissionDecision":"ask","permissionDecisionReason":" "}
copilot reject   {"permissionDecision":"deny","permissionDecisionReason":"no","rule_id":"x"}
copilot reject   {"permissionDecision":"allow","modifiedArgs":{"command":"true"}}
copilot reject   {"permissionDecision":"block","permissionDecisionReason":"no"}
copilot reject   {"decision":"block","reason":"no"}
copilot reject   {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
gemini Block     {"decision":"deny","reason":"no"}
gemini NoOpinion {}
gemini reject    {"decision":"block","reason":"no"}
gemini reject    {"decision":"deny"}
gemini reject    {"decision":"deny","reason":" "}
gemini reject    {"decision":"ask","reason":"hangs"}
gemini reject    {"decision":"allow"}
gemini reject    {"decision":"deny","reason":"no","continue":false}
gemini reject    {"decision":"deny","reason":"no","rule_id":"x"}
gemini reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
opencode Block     {"action":"block","message":"no"}
opencode NoOpinion {}
# The plugin throws this block's reason too, but warden's dialect sends `action`.
opencode reject    {"decision":"block","reason":"no"}
opencode reject    {"action":"block","message":" "}
opencode reject    {"action":"block"}
opencode reject    {"action":"block","message":"m","rule_id":"x"}
opencode reject    {"action":"approve","message":"m","rule_key":"k"}
opencode reject    {"action":"allow","message":"m"}
opencode reject    {"decision":"deny","reason":"no"}
opencode reject    []
native reject    {"action":"deny","message":"m","rule_id":null,"layer":"user"}
native reject    {"action":"block","message":"m","rule_id":"x","layer":"policy"}
every  Block     {"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
every  reject    {"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"},"x":1}
every  reject    {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
every  reject    {"decision":"block","reason":"no"}
every  reject    {"action":"block","message":"no"}
every  reject    {"decision":"block","reason":" ","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
"#;

/// Test 4: the validators reject what the clients reject (so the tests above can
/// fail) and accept what they act on.
fn validators_reject_what_clients_reject() {
    let lines = CASES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    for line in lines {
        let (client, rest) = line.split_once(' ').expect("three columns");
        let (want, answer) = rest.trim_start().split_once(' ').expect("three columns");
        let client = match client {
            "every" => Client::Every,
            name => Client::One(Dialect::parse(name).expect("a dialect")),
        };
        let v: Value = serde_json::from_str(answer.trim()).expect(line);
        let got = check(client, &v).map(|e| format!("{e:?}"));
        match (want, got) {
            ("reject", Err(_)) => {}
            (want, Ok(got)) if got == want => {}
            (_, got) => panic!("{line}\n  got {got:?}"),
        }
    }
}
