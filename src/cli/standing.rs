//! `warden project trust|list|forget`, and what `why`, `lint` and `doctor` say about each source's standing and each variable that could loosen the guard.
//!
//! Trusting a project file lets its allow rules and loosening settings
//! apply; it changes the policy, so it needs a terminal (an agent's tool
//! call has none) and the floor blocks it from an agent's commands
//! (`hardline.guard-tamper`, read from the subcommand table). Forgetting
//! only tightens, so it needs no terminal, though the floor blocks it from
//! agents all the same.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::agents::{Check, Status};
use crate::config::environment::{Honour, Variable, Vetted};
use crate::config::load;
use crate::config::model::{SourceInfo, Standing, Tier};
use crate::config::policy::Policy;
use crate::config::trusted;
use crate::engine::Options;
use crate::error::Error;

pub(super) fn project(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let cwd = super::policy::current_dir(parsed);
    let vetted = env.vetted(cwd.as_deref());
    let store = vetted.locations.trust_store().ok_or_else(|| {
        Error::Usage("no state directory is known (HOME and XDG_STATE_HOME are unset)".into())
    })?;
    let action = parsed.action.as_deref().unwrap_or("list");
    if action == "list" && !parsed.operands.is_empty() {
        return Err(Error::Usage("list takes no files (use --cwd DIR)".into()));
    }
    let files = files(parsed, cwd.as_deref());
    match action {
        "trust" => trust(&store, &files, env),
        "forget" if files.is_empty() => Err(Error::Usage("forget needs the file to forget".into())),
        "forget" => Ok(forget(&store, &files)),
        _ => list(&store, &vetted, cwd.as_deref()),
    }
}

/// The files named, relative to `--cwd` (else the current directory); with
/// none, the project files of that directory itself (never a parent's: a
/// file in `/tmp` above a checkout is not the person's to trust by default).
fn files(parsed: &Parsed, cwd: Option<&str>) -> Vec<PathBuf> {
    let base = cwd.map(PathBuf::from).unwrap_or_default();
    if !parsed.operands.is_empty() {
        return parsed.operands.iter().map(|f| base.join(f)).collect();
    }
    [
        base.join(".warden.yaml"),
        base.join(".hermes").join("permissions.yaml"),
    ]
    .into_iter()
    .filter(|p| p.exists())
    .collect()
}

fn trust(store: &Path, files: &[PathBuf], env: &Env) -> Result<Outcome, Error> {
    if !env.stdin_is_terminal {
        return Ok(refused(
            "warden: `warden project trust` lets a project file loosen your guard and must be run by a person from a terminal (stdin is not one); nothing was trusted\n",
        ));
    }
    if files.is_empty() {
        return Err(Error::Usage(
            "no .warden.yaml or .hermes/permissions.yaml here: name the file to trust".into(),
        ));
    }
    let (mut stdout, mut stderr, mut code) = (String::new(), String::new(), 0);
    for file in files {
        match trusted::trust(store, file) {
            Ok(done) => {
                let sha = done.record.sha256.get(..12).unwrap_or_default();
                let again = if done.replaced { " again" } else { "" };
                let _ = writeln!(
                    stdout,
                    "trusted{again} {} (sha256 {sha}…); any change to it ends the trust",
                    done.record.path
                );
                if done.loosens.is_empty() {
                    let _ = writeln!(stdout, "  nothing in it loosens the guard");
                }
                for line in &done.loosens {
                    let _ = writeln!(stdout, "  now applies: {line}");
                }
            }
            Err(err) => {
                let _ = writeln!(stderr, "warden: {err}");
                code = 1;
            }
        }
    }
    Ok(Outcome {
        stdout,
        stderr,
        code,
        audit: None,
    })
}

fn forget(store: &Path, files: &[PathBuf]) -> Outcome {
    let (mut stdout, mut stderr, mut code) = (String::new(), String::new(), 0);
    for file in files {
        match trusted::forget(store, file) {
            Ok(true) => {
                let _ = writeln!(
                    stdout,
                    "forgot {}: only its deny and ask rules and stricter settings apply now",
                    file.display()
                );
            }
            Ok(false) => {
                let _ = writeln!(stdout, "{} was not trusted", file.display());
            }
            Err(err) => {
                let _ = writeln!(stderr, "warden: {err}");
                code = 1;
            }
        }
    }
    Outcome {
        stdout,
        stderr,
        code,
        audit: None,
    }
}

fn list(store: &Path, vetted: &Vetted, cwd: Option<&str>) -> Result<Outcome, Error> {
    let mut out = String::new();
    match trusted::list(store) {
        Ok(records) => {
            let files = if records.len() == 1 { "file" } else { "files" };
            let _ = writeln!(
                out,
                "{}: {} trusted project {files}",
                store.display(),
                records.len()
            );
            for (record, state) in records {
                let state = match state {
                    trusted::State::Current => "trusted",
                    trusted::State::Changed => "CHANGED since trusted: only tightens",
                    trusted::State::Gone => "gone",
                };
                let sha = record.sha256.get(..12).unwrap_or_default();
                let _ = writeln!(out, "  {}  {sha}…  {state}", record.path);
            }
        }
        Err(err) => {
            let _ = writeln!(out, "{err}: nothing is trusted");
        }
    }
    let policy = load::lint(&vetted.locations, cwd.map(Path::new));
    let here: Vec<&SourceInfo> = policy
        .sources
        .iter()
        .filter(|s| s.tier == Tier::Project)
        .collect();
    let _ = writeln!(
        out,
        "project files that apply in {}:",
        cwd.unwrap_or("an unknown directory")
    );
    if here.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for source in here {
        let standing = match &source.standing {
            Standing::Trusted => "trusted".to_string(),
            Standing::TightenOnly(why) => format!("tighten-only: {why}"),
        };
        let _ = writeln!(out, "  {}  {standing}", source.path);
        for line in &source.withheld {
            let _ = writeln!(out, "    withheld: {line}");
        }
    }
    Ok(Outcome {
        stdout: out,
        stderr: String::new(),
        code: 0,
        audit: None,
    })
}

fn refused(stderr: &str) -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: stderr.into(),
        code: 2,
        audit: None,
    }
}

/// Below a source's line in `why` and `lint`: its standing, when it only
/// tightens, and what it says that does not apply.
pub(super) fn describe_standing(out: &mut String, source: &SourceInfo) {
    if let Standing::TightenOnly(why) = &source.standing {
        if source.error.is_none() {
            let _ = writeln!(out, "              tighten-only: {why}");
        }
    }
    for line in &source.withheld {
        let _ = writeln!(out, "              withheld: {line}");
    }
}

/// Every variable set that could loosen the guard, as `why` shows them.
pub(super) fn describe_environment(
    out: &mut String,
    env: &Env,
    vetted: &Vetted,
    options: &Options,
) {
    let variables = variables(env, vetted, &options.policy);
    if variables.is_empty() {
        let _ = writeln!(out, "loosening variables: none set");
        return;
    }
    let _ = writeln!(out, "loosening variables:");
    for v in variables {
        let _ = writeln!(
            out,
            "  {}={}: {}; {}",
            v.name,
            v.value,
            v.honoured.as_str(),
            v.note
        );
    }
}

/// The location variables `vetted` judged, then the ones the environment
/// holds for the engine, each with what it does.
pub(super) fn variables(env: &Env, vetted: &Vetted, policy: &Policy) -> Vec<Variable> {
    let mut out = vetted.variables.clone();
    let settings = &policy.settings;
    for (name, value) in &env.loosening {
        let yes = |on: bool| if on { Honour::Yes } else { Honour::No };
        let (value, honoured, note) = match *name {
            "HERMES_YOLO_MODE" => (
                value.clone(),
                Honour::No,
                if env.yolo {
                    "an agent could have set it (Hermes reads ~/.hermes/.env), and the environment may only tighten: warden takes yolo only from `approvals.mode: off` in your own Hermes config, set from a terminal".to_string()
                } else {
                    "it is not on".to_string()
                },
            ),
            "HERMES_CRON_SESSION" | "WARDEN_UNATTENDED" => {
                let approves = [settings.cron_mode, settings.single_query_mode, settings.unattended_mode]
                    .contains(&Some(crate::config::model::Unattended::Approve));
                let note = if approves {
                    "no one can answer an ask: where your own trusted config says `approve` for this case, asks are approved; elsewhere they block"
                } else {
                    "no one can answer an ask, so each one blocks"
                };
                (value.clone(), yes(env.unattended.is_some()), note.to_string())
            }
            "SUDO_PASSWORD" => (
                "(set)".into(),
                Honour::Yes,
                "`sudo -S` passes the sudo guard (Hermes answers sudo's prompt with it); what sudo runs is still judged".into(),
            ),
            "CLAUDE_PROJECT_DIR" => (
                value.clone(),
                yes(env.claude_project.is_some()),
                "the project, where it holds the working directory and is no home or system directory: writes inside it are ordinary work".into(),
            ),
            _ => (
                value.clone(),
                Honour::Yes,
                "the hook's deadline (0: none), after which it blocks".into(),
            ),
        };
        out.push(Variable {
            name,
            value,
            honoured,
            note,
        });
    }
    out
}

/// `warden doctor`'s lines: each source that only tightens and says
/// something that would loosen, and each variable set that could loosen.
pub(super) fn checks(policy: &Policy, env: &Env, vetted: &Vetted) -> Vec<Check> {
    let mut checks = Vec::new();
    for source in &policy.sources {
        let Standing::TightenOnly(why) = &source.standing else {
            continue;
        };
        if source.withheld.is_empty() || source.error.is_some() {
            continue;
        }
        let fix = if source.tier == Tier::Project {
            format!(
                "if you mean it, `warden project trust {}` from a terminal",
                source.path
            )
        } else {
            "move what should loosen into your own config (~/.config/warden/config.yaml)".into()
        };
        checks.push(
            Check::new(
                None,
                Status::Warn,
                format!(
                    "{} only tightens ({why}); withheld: {}",
                    source.path,
                    source.withheld.join("; ")
                ),
            )
            .fix(fix),
        );
    }
    for v in variables(env, vetted, policy) {
        let ignored = v.honoured == Honour::No;
        let status = if ignored { Status::Warn } else { Status::Pass };
        let text = format!(
            "{}={}: {}; {}",
            v.name,
            v.value,
            v.honoured.as_str(),
            v.note
        );
        let mut check = Check::new(None, status, text);
        if ignored {
            check = check.fix(format!(
                "unset {} or point it somewhere only you can write",
                v.name
            ));
        }
        checks.push(check);
    }
    checks
}
