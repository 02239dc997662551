//! The registration subcommands: `install` and `uninstall` (warden in each agent's configuration) and `doctor` (is it really guarding).

use std::fmt::Write;
use std::path::PathBuf;

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::agents::{self, Agent, Kind, Options, Status};
use crate::error::Error;

/// The agents the flag names (`all`: the three); without it, those found here.
fn chosen(parsed: &Parsed, env: &Env) -> Vec<Agent> {
    match parsed.value("--agent") {
        Some("hermes") => vec![Agent::Hermes],
        Some("claude") => vec![Agent::Claude],
        Some("codex") => vec![Agent::Codex],
        Some(_) => Agent::ALL.to_vec(),
        None => Agent::ALL
            .into_iter()
            .filter(|a| env.homes.has(*a))
            .collect(),
    }
}

fn options(parsed: &Parsed, env: &Env) -> Result<Options, Error> {
    let warden = match parsed.value("--warden") {
        Some(path) => PathBuf::from(path),
        None => std::env::current_exe().map_err(|source| Error::Io {
            what: "the path of the running warden".into(),
            source,
        })?,
    };
    // Agents start the hook from their own working directory.
    let warden = std::path::absolute(&warden).unwrap_or(warden);
    Ok(Options {
        agents: chosen(parsed, env),
        dry_run: parsed.value("--dry-run").is_some(),
        accept_hooks: parsed.value("--accept-hooks").is_some(),
        warden,
    })
}

pub(super) fn install(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let options = options(parsed, env)?;
    if options.agents.is_empty() {
        return Ok(none_found());
    }
    Ok(outcome(agents::install(&env.homes, &options)))
}

pub(super) fn uninstall(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let options = options(parsed, env)?;
    if options.agents.is_empty() {
        return Ok(none_found());
    }
    Ok(outcome(agents::uninstall(&env.homes, &options)))
}

pub(super) fn doctor(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let agents = chosen(parsed, env);
    let mut checks = agents::doctor(&env.homes, &agents);
    checks.extend(super::policy::health(parsed, env));
    let mut out = String::new();
    for check in &checks {
        let agent = check.agent.map(Agent::name).unwrap_or("warden");
        let _ = writeln!(out, "{:<4} {agent:<7} {}", check.status.label(), check.text);
        if let Some(fix) = &check.fix {
            let _ = writeln!(out, "{:<4} {:<7}   fix: {fix}", "", "");
        }
    }
    let count = |status: Status| checks.iter().filter(|c| c.status == status).count();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let (failed, warned) = (count(Status::Fail), count(Status::Warn));
    // Warnings are worth reading but leave warden guarding: only a failure
    // changes the exit code.
    let warnings = match warned {
        0 => String::new(),
        n => format!(" ({n} warning{})", plural(n)),
    };
    let _ = writeln!(
        out,
        "{}{warnings}",
        if failed == 0 {
            "all checks passed".to_string()
        } else {
            format!("{failed} check{} failed", plural(failed))
        }
    );
    Ok(Outcome {
        stdout: out,
        stderr: String::new(),
        code: i32::from(failed > 0),
        audit: None,
    })
}

fn none_found() -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: "warden: found no agent here (no hermes, claude or codex on PATH, and none of \
                 ~/.hermes, ~/.claude, ~/.codex): name one with --agent\n"
            .into(),
        code: 1,
        audit: None,
    }
}

fn outcome(report: agents::Report) -> Outcome {
    let mut out = String::new();
    for line in &report.lines {
        let agent = line.agent.map(Agent::name).unwrap_or("warden");
        let label = match line.kind {
            Kind::Changed => "done",
            Kind::Info => "ok",
            Kind::Todo => "todo",
            Kind::Failed => "FAIL",
        };
        let _ = writeln!(out, "{label:<4} {agent:<7} {}", line.text);
    }
    Outcome {
        stdout: out,
        stderr: String::new(),
        code: i32::from(report.failed()),
        audit: None,
    }
}
