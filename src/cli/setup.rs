//! The registration subcommands: `install` and `uninstall` (warden in each agent's configuration) and `doctor` (is it really guarding).

use std::fmt::Write as _;
use std::path::PathBuf;

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::agents::{self, Agent, Kind, Options, Status};
use crate::error::Error;

/// The agents the flag names (`all`: every one); without it, those found here.
fn chosen(parsed: &Parsed, env: &Env) -> Vec<Agent> {
    match parsed.value("--agent") {
        Some("hermes") => vec![Agent::Hermes],
        Some("claude") => vec![Agent::Claude],
        Some("codex") => vec![Agent::Codex],
        Some("gemini") => vec![Agent::Gemini],
        Some("copilot") => vec![Agent::Copilot],
        Some("opencode") => vec![Agent::OpenCode],
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

pub(super) fn uninstall(parsed: &Parsed, env: &Env, io: &mut Io<'_>) -> Result<Outcome, Error> {
    let options = options(parsed, env)?;
    if parsed.value("--purge").is_some() {
        return purge(parsed, env, io, &options);
    }
    if options.agents.is_empty() {
        return Ok(none_found());
    }
    Ok(outcome(agents::uninstall(&env.homes, &options)))
}

/// `uninstall --purge`: the hooks out of every agent chosen, then warden's
/// own files, once the person has seen the list and said yes (a terminal),
/// or `--yes` said it beforehand (a script). An agent's tool call cannot
/// get here: the floor blocks `warden uninstall` in any tool call.
fn purge(parsed: &Parsed, env: &Env, io: &mut Io<'_>, options: &Options) -> Result<Outcome, Error> {
    let own = own_files(env);
    let listed = agents::leftovers(&env.homes, &own);
    let mut list = String::new();
    for path in &listed {
        let _ = writeln!(list, "  {}", path.display());
    }
    if listed.is_empty() {
        list.push_str("  (none of warden's files is here)\n");
    }
    let agents: Vec<&str> = options.agents.iter().map(|a| a.name()).collect();
    let hooks = match agents.as_slice() {
        [] => "no agent was found to take warden's hooks out of".to_string(),
        names => format!("warden's hooks come out of {}", names.join(", ")),
    };
    let plan = format!(
        "{hooks}; then these are removed, with all they hold (and any backup the uninstall makes):\n{list}"
    );
    if options.dry_run {
        let mut out = outcome(agents::uninstall(&env.homes, options));
        out.stdout = format!("{plan}(--dry-run: nothing was removed)\n{}", out.stdout);
        return Ok(out);
    }
    if parsed.value("--yes").is_none() {
        if !env.stdin_is_terminal {
            return Ok(Outcome {
                stdout: plan,
                stderr: "warden: `uninstall --purge` asks a person at a terminal (stdin is not one); add --yes to remove these without asking; nothing was changed\n".into(),
                code: 2,
                audit: None,
            });
        }
        if !confirmed(io, &format!("{plan}Remove them? [y/N] "))? {
            return Ok(Outcome {
                stdout: "nothing was changed\n".into(),
                stderr: String::new(),
                code: 1,
                audit: None,
            });
        }
    }
    let mut report = agents::uninstall(&env.homes, options);
    // Listed again: the uninstall may have backed up a file it changed.
    let removed = agents::purge(&agents::leftovers(&env.homes, &own));
    report.lines.extend(removed.lines);
    let mut out = outcome(report);
    if let Ok(exe) = std::env::current_exe() {
        let _ = writeln!(
            out.stdout,
            "todo warden  the binary stays: remove it with `rm {}` when you want it gone",
            exe.display()
        );
    }
    Ok(out)
}

/// warden's own places: the config directory, the cache, the state
/// directory (the ledger, the cache key, trust records, the audit log by
/// default), and the audit log's files wherever the config puts them; as
/// the environment names them and where warden looks (they differ when an
/// `XDG_*` variable was not believed).
fn own_files(env: &Env) -> Vec<PathBuf> {
    let vetted = env.vetted(None);
    let mut own = Vec::new();
    for locations in [&env.locations, &vetted.locations] {
        own.extend(locations.config_home.as_ref().map(|c| c.join("warden")));
        own.extend(locations.cache_dir.clone());
        own.extend(locations.state_dir.clone());
    }
    let policy = crate::config::load::lint(&vetted.locations, None);
    if let Some(log) = env.audit_log(&policy.settings, &vetted.locations) {
        own.extend(log.files());
    }
    own
}

/// Asks `question` on the terminal; true on `y` or `yes`.
fn confirmed(io: &mut Io<'_>, question: &str) -> Result<bool, Error> {
    let failed = |source| Error::Io {
        what: "the terminal".into(),
        source,
    };
    io.stdout.write_all(question.as_bytes()).map_err(failed)?;
    io.stdout.flush().map_err(failed)?;
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while answer.len() < 64 && io.stdin.read(&mut byte).map_err(failed)? == 1 && byte[0] != b'\n' {
        answer.push(byte[0]);
    }
    let answer = String::from_utf8_lossy(&answer).trim().to_ascii_lowercase();
    Ok(matches!(answer.as_str(), "y" | "yes"))
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
        stderr:
            "warden: found no agent here (no hermes, claude, codex, gemini, copilot or opencode on PATH, \
                 and none of ~/.hermes, ~/.claude, ~/.codex, ~/.gemini, ~/.copilot, ~/.config/opencode): \
                 name one with --agent\n"
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
