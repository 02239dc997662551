//! The policy subcommands: `why` (every stage's view of one call), `lint` (check the policy files), `bless` (accept them into the ledger).

use std::fmt::Write;
use std::path::Path;

use super::args::Parsed;
use super::{hook, Env, Io, Outcome};
use crate::agents::{Check, Status};
use crate::config::load::{self, CacheStatus, Loaded};
use crate::config::policy::Policy;
use crate::engine::{self, Explanation, OnAsk, Options};
use crate::error::Error;
use crate::payload::{ToolCall, ToolKind};
use crate::verdict::Dialect;

pub(super) fn current_dir(parsed: &Parsed) -> Option<String> {
    let here = || std::env::current_dir().ok().map(|d| crate::path::text(&d));
    match parsed.value("--cwd") {
        // A relative `--cwd` is relative to where warden runs, as a shell's is.
        Some(dir) if !dir.starts_with(['/', '~']) => {
            Some(crate::path::absolute(dir, here().as_deref(), None))
        }
        Some(dir) => Some(dir.to_string()),
        None => here(),
    }
}

pub(super) fn why(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let (cmd, path) = (parsed.value("--cmd"), parsed.value("--path"));
    let call = call_to_explain(parsed)?;
    let (dialect, on_ask) = hook::settings(parsed);
    let dialect = dialect.unwrap_or(Dialect::Hermes);
    let mut stderr = String::new();
    let session = env.session_dir(&call);
    let (options, mut loaded, _) = env.options(session.as_deref(), &mut stderr);
    let options = Options { on_ask, ..options };
    let explanation = engine::explain(&call, &options);
    // A cached rule that failed its check was recovered inside config
    // while the call was decided: the cache line says it was rebuilt.
    loaded.refresh_cache_status();

    // The hook offers an ask the agent gets as a block for approval with a
    // fresh code; `why` changes no state, so it shows where the code goes.
    let verdict = &explanation.verdict;
    let mut shown = verdict.clone();
    if shown.asked_as_block(dialect) {
        shown.once = Some(crate::verdict::Offer {
            code: "CODE".into(),
            minutes: crate::once::OFFERED_FOR.as_secs() / 60,
        });
    }
    if parsed.value("--json").is_some() {
        return Ok(Outcome {
            stdout: why_json(&call, &explanation, dialect, &shown.render(dialect)),
            stderr,
            code: 0,
            audit: None,
        });
    }
    let mut out = String::new();
    let what = cmd.or(path).unwrap_or_default();
    describe_call(&mut out, &call, what, &options, &loaded);
    super::standing::describe_environment(&mut out, env, &env.vetted(session.as_deref()), &options);
    describe_files(&mut out, &explanation);
    describe_steps(&mut out, &explanation);
    let _ = writeln!(
        out,
        "verdict: {} (layer {}, rule {})\n  {}",
        verdict.decision.as_str(),
        verdict.layer.as_str(),
        verdict.rule_id.as_deref().unwrap_or("none"),
        verdict.message()
    );
    if let Some(safer) = verdict.safer_text() {
        let _ = writeln!(out, "safer: {safer}");
    }
    let _ = writeln!(
        out,
        "output ({}): {}\n  {}",
        dialect.as_str(),
        dialect.describe(verdict.decision),
        shown.render(dialect)
    );
    Ok(Outcome {
        stdout: out,
        stderr,
        code: 0,
        audit: None,
    })
}

/// The call `why` is given: `--tool` (default: the shell with `--cmd`, a
/// file write with `--path`), in `--cwd` and `--workdir`.
fn call_to_explain(parsed: &Parsed) -> Result<ToolCall, Error> {
    let cmd = parsed.value("--cmd");
    let path = parsed.value("--path");
    let tool = match (parsed.value("--tool"), cmd, path) {
        (Some(tool), _, _) => tool,
        (None, Some(_), _) => "terminal",
        (None, None, Some(_)) => "write_file",
        (None, None, None) => {
            return Err(Error::Usage(
                "give the call to explain: --cmd COMMAND, --path PATH or --tool NAME".into(),
            ))
        }
    };
    let call = ToolCall::new(tool)
        .with_cwd(current_dir(parsed))
        .with_workdir(parsed.value("--workdir").map(str::to_string))
        .with_path(path.map(str::to_string));
    match (call.kind, cmd) {
        (ToolKind::Shell, Some(cmd)) => Ok(call.with_command(cmd)),
        (ToolKind::Shell, None) => Err(Error::Usage(format!(
            "the `{tool}` tool runs a command: give it with --cmd"
        ))),
        _ => Ok(call),
    }
}

/// `why --json`: the call, the files it touches, every stage, the verdict
/// with its safer way, and the line `dialect` gets, as one JSON object.
fn why_json(call: &ToolCall, explanation: &Explanation, dialect: Dialect, line: &str) -> String {
    let verdict = &explanation.verdict;
    let stages: Vec<serde_json::Value> = explanation
        .steps
        .iter()
        .map(|s| serde_json::json!({"name": s.name, "notes": s.notes, "decided": s.decided}))
        .collect();
    let files: Vec<serde_json::Value> = explanation
        .files
        .iter()
        .map(|f| {
            serde_json::json!({
                "literal": f.literal, "write": f.write, "resolved": f.resolved,
                "problem": f.problem,
            })
        })
        .collect();
    // The line is warden's own JSON; kept as text should it ever not parse.
    let output: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|_| line.into());
    let object = serde_json::json!({
        "call": {
            "tool": call.tool, "kind": call.kind.as_str(), "command": call.command(),
            "path": call.path, "cwd": call.cwd, "workdir": call.workdir,
        },
        "project": explanation.project,
        "files": files,
        "stages": stages,
        "decision": verdict.decision.as_str(),
        "layer": verdict.layer.as_str(),
        "rule_id": verdict.rule_id,
        "message": verdict.message(),
        "safer": verdict.safer_text(),
        "agent": dialect.as_str(),
        "output": output,
    });
    format!("{object}\n")
}

/// The call, the policy's sources, the cache and the environment.
fn describe_call(
    out: &mut String,
    call: &ToolCall,
    what: &str,
    options: &Options,
    loaded: &load::Loaded,
) {
    let what = if what.is_empty() {
        String::new()
    } else {
        format!(" `{what}`")
    };
    let workdir = match &call.workdir {
        Some(workdir) => format!(", workdir `{workdir}`"),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "call: {} ({} tool){what} in {}{workdir}",
        call.tool,
        call.kind.as_str(),
        call.cwd.as_deref().unwrap_or("an unknown directory")
    );
    describe_sources(out, &options.policy);
    let _ = writeln!(
        out,
        "cache: {}",
        cache_line(&loaded.cache, loaded.cache_file.as_deref())
    );
    if let Some(settling) = &loaded.settling {
        let _ = writeln!(out, "settling: {settling}");
    }
    let _ = writeln!(
        out,
        "environment: yolo {}, {}, --on-ask {}",
        if options.policy.settings.approvals_off == Some(true) {
            "on (approvals.mode: off)"
        } else {
            "off"
        },
        match options.unattended {
            Some(why) => format!("no human present ({why:?})"),
            None => "a human may answer asks".into(),
        },
        match options.on_ask {
            OnAsk::Ask => "ask",
            OnAsk::Block => "block",
        }
    );
}

/// The project, and each file the call touches: as written, then resolved.
fn describe_files(out: &mut String, explanation: &Explanation) {
    let _ = writeln!(
        out,
        "project: {}",
        explanation
            .project
            .as_deref()
            .unwrap_or("none known (writes are judged without one)")
    );
    for file in &explanation.files {
        let _ = write!(
            out,
            "{}: {} -> {}",
            if file.write { "writes" } else { "reads" },
            file.literal,
            file.resolved
        );
        if file.lexical != file.resolved {
            let _ = write!(out, " (through a symlink; as written: {})", file.lexical);
        }
        if let Some(problem) = &file.problem {
            let _ = write!(out, " (cannot be resolved: {problem}; judged as written)");
        }
        out.push('\n');
    }
}

/// Every stage in order with what it saw; the one whose verdict stood is marked.
fn describe_steps(out: &mut String, explanation: &Explanation) {
    let _ = writeln!(
        out,
        "stages, in order (the first layer with an opinion decides; post-processing may change it):"
    );
    for step in &explanation.steps {
        for (i, line) in step.notes.iter().enumerate() {
            let label = if i == 0 { step.name } else { "" };
            let _ = writeln!(out, "  {label:<15} {line}");
        }
        if step.decided {
            let _ = writeln!(
                out,
                "  {:<15} => {}",
                "",
                if step.name == "post-processing" {
                    "changes the verdict"
                } else {
                    "decides"
                }
            );
        }
    }
}

pub(super) fn describe_sources(out: &mut String, policy: &Policy) {
    if policy.sources.is_empty() {
        let _ = writeln!(out, "sources: none (built-in rules only)");
        return;
    }
    let _ = writeln!(out, "sources, strongest first:");
    for source in &policy.sources {
        let state = match &source.error {
            Some(err) => format!("UNUSABLE: {err}"),
            None => source.counts.to_string(),
        };
        let _ = writeln!(
            out,
            "  {:<11} {}  [{}]",
            source.tier.as_str(),
            source.path,
            state
        );
        super::standing::describe_standing(out, source);
    }
    if let Some(mode) = policy.settings.mode {
        let _ = writeln!(out, "mode: {}", format!("{mode:?}").to_lowercase());
    }
}

fn cache_line(status: &CacheStatus, file: Option<&Path>) -> String {
    let file = file.map(|f| f.display().to_string()).unwrap_or_default();
    match status {
        CacheStatus::Hit => format!("hit ({file})"),
        CacheStatus::Rebuilt => format!("rebuilt ({file})"),
        CacheStatus::Unneeded => "not needed (no policy files)".into(),
        CacheStatus::Disabled => {
            "off (no cache directory: HOME and XDG_CACHE_HOME are unset)".into()
        }
        CacheStatus::Unwritable(why) => format!("not written ({why}); verdicts are unaffected"),
        CacheStatus::Kept => format!(
            "kept ({file}): a policy file did not settle, so the last policy compiled from complete files decides"
        ),
        CacheStatus::Unsettled => {
            "not written: a policy file did not settle, and no complete version of it is cached".into()
        }
    }
}

pub(super) fn lint(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let cwd = current_dir(parsed);
    let vetted = env.vetted(cwd.as_deref());
    let policy = load::lint(&vetted.locations, cwd.as_deref().map(Path::new));
    let mut out = String::new();
    describe_sources(&mut out, &policy);
    let decide = |policy: &std::sync::Arc<crate::config::policy::Policy>, command: &str| {
        let options = crate::engine::Options {
            policy: policy.clone(),
            ..crate::engine::Options::default()
        };
        let verdict = crate::engine::evaluate_command(command, &options);
        (verdict.decision, verdict.rule_id)
    };
    let home = env.locations.home.as_deref().map(crate::path::text);
    let review = crate::config::review::review(&policy, &decide, home.as_deref());
    let style = env.style();
    for note in vetted.notes() {
        let _ = writeln!(out, "{}", style.warn(&note));
    }
    for problem in policy.problems.iter().chain(&review.errors) {
        let _ = writeln!(out, "{}", style.fail(problem));
    }
    for warning in &review.warnings {
        let _ = writeln!(out, "{}", style.warn(warning));
    }
    let examples: usize = policy
        .rules()
        .iter()
        .map(|r| r.hits.len() + r.misses.len())
        .sum();
    let problems = policy.problems.len() + review.errors.len();
    let warned = match review.warnings.len() {
        0 => String::new(),
        n => format!(" ({n} warnings)"),
    };
    let code = if problems == 0 {
        let _ = writeln!(
            out,
            "{}: {} rules from {} files, {examples} examples behave as declared{warned}",
            style.ok("ok"),
            policy.len(),
            policy.sources.len()
        );
        0
    } else {
        let _ = writeln!(
            out,
            "{}{warned}",
            style.fail(&format!("{problems} problems"))
        );
        1
    };
    Ok(Outcome {
        stdout: out,
        stderr: String::new(),
        code,
        audit: None,
    })
}

pub(super) fn bless(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    // The ledger exists so an agent cannot quietly drop a protected rule;
    // an agent's tool calls have no terminal, a person at a prompt does.
    if !env.stdin_is_terminal {
        return Ok(Outcome {
            stdout: String::new(),
            stderr: "warden: `warden bless` must be run by a person from a terminal (stdin is not one); nothing was changed\n".into(),
            code: 2,
            audit: None,
        });
    }
    let cwd = current_dir(parsed);
    let vetted = env.vetted(cwd.as_deref());
    Ok(
        match load::bless(&vetted.locations, cwd.as_deref().map(Path::new)) {
            Ok(lines) => Outcome {
                stdout: lines.iter().map(|l| format!("{l}\n")).collect(),
                stderr: String::new(),
                code: 0,
                audit: None,
            },
            Err(err) => Outcome {
                stdout: String::new(),
                stderr: format!("warden: {err}\n"),
                code: 1,
                audit: None,
            },
        },
    )
}

/// `warden doctor`'s checks of warden's own state: the policy files, the
/// cache and the ledger.
pub(super) fn health(parsed: &Parsed, env: &Env) -> Vec<Check> {
    let cwd = current_dir(parsed);
    let vetted = env.vetted(cwd.as_deref());
    let cwd = cwd.as_deref().map(Path::new);
    let mut checks = Vec::new();
    let policy = load::lint(&vetted.locations, cwd);
    checks.push(match policy.problems.first() {
        None => Check::new(
            None,
            Status::Pass,
            format!(
                "policy valid: {} rules from {} files",
                policy.len(),
                policy.sources.len()
            ),
        ),
        Some(first) => Check::new(
            None,
            Status::Fail,
            format!(
                "policy has {} problem(s), first: {first}",
                policy.problems.len()
            ),
        )
        .fix("warden lint (shows every problem with file:line)"),
    });
    let loaded = load::load(&vetted.locations, cwd);
    checks.push(cache_check(&loaded));
    checks.push(ledger_check(&loaded));
    let syslog = loaded.policy.settings.audit.as_ref();
    checks.extend(syslog.and_then(|a| a.syslog.as_ref()).map(syslog_check));
    // An allow that reaches past the project is a choice only the person
    // can make: a warning, which leaves the exit code alone.
    let home = env.locations.home.as_deref().map(crate::path::text);
    for grant in crate::config::grants::grants(&policy, home.as_deref()) {
        checks.push(
            Check::new(
                None,
                Status::Warn,
                format!("{}: {}", grant.origin, grant.text),
            )
            .fix(crate::config::grants::FIX),
        );
    }
    checks.extend(super::standing::checks(&policy, env, &vetted));
    checks
}

/// Whether the compiled policy's cache could be written: without it every
/// call compiles the policy again, with the same verdicts.
fn cache_check(loaded: &Loaded) -> Check {
    let file = loaded.cache_file.as_deref();
    match &loaded.cache {
        CacheStatus::Unwritable(_) => Check::new(
            None,
            Status::Warn,
            format!("cache: {}", cache_line(&loaded.cache, file)),
        )
        .fix("make the cache directory writable (verdicts are the same, only slower)"),
        status => Check::new(
            None,
            Status::Pass,
            format!("cache: {}", cache_line(status, file)),
        ),
    }
}

/// Whether the ledger agrees with the policy files: a protected rule that
/// was weakened or removed by hand stays enforced from the ledger.
fn ledger_check(loaded: &Loaded) -> Check {
    let enforced: Vec<&String> = loaded
        .notes
        .iter()
        .filter(|n| n.contains("stays enforced"))
        .collect();
    match enforced.first() {
        None => Check::new(
            None,
            Status::Pass,
            "ledger consistent with the policy files",
        ),
        Some(first) => Check::new(
            None,
            Status::Warn,
            format!(
                "{} protected rule(s) enforced from the ledger: {}",
                enforced.len(),
                first.trim_start_matches("warden: ")
            ),
        )
        .fix("restore the rule, or accept the change with `warden bless` from a terminal"),
    }
}

/// Whether the syslog daemon the audit settings name is there to receive.
/// A warning at worst: a message that cannot be sent changes no verdict.
fn syslog_check(settings: &crate::config::model::SyslogSettings) -> Check {
    let facility = crate::config::model::SyslogSettings::FACILITIES
        .iter()
        .find(|(_, code)| *code == settings.facility)
        .map_or("?", |(name, _)| name);
    match crate::audit::Syslog::from(settings).listening() {
        Ok(()) => Check::new(
            None,
            Status::Pass,
            format!(
                "audit: decisions go to syslog at {} ({facility})",
                settings.socket
            ),
        ),
        Err(err) => Check::new(
            None,
            Status::Warn,
            format!("audit: syslog is not receiving: {err}"),
        )
        .fix("start the syslog daemon, or set audit.syslog.socket to the socket it reads"),
    }
}
