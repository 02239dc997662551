//! The policy subcommands: `why` (every layer's view of one call), `lint` (check the policy files), `bless` (accept them into the ledger).

use std::fmt::Write;
use std::path::Path;

use super::{Env, Outcome};
use crate::config::load::{self, CacheStatus};
use crate::config::policy::Policy;
use crate::engine;
use crate::error::Error;
use crate::payload::{ToolCall, ToolKind};

/// A policy subcommand and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Why {
        tool: Option<String>,
        cmd: Option<String>,
        path: Option<String>,
        cwd: Option<String>,
    },
    Lint {
        cwd: Option<String>,
    },
    Bless {
        cwd: Option<String>,
    },
}

/// Parses `args` (everything after `name`) when `name` is a policy
/// subcommand; `Ok(None)` when it is not one.
pub fn parse(name: &str, args: &[String]) -> Result<Option<Command>, Error> {
    if !matches!(name, "why" | "lint" | "bless") {
        return Ok(None);
    }
    let (mut tool, mut cmd, mut path, mut cwd) = (None, None, None, None);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let slot = match (name, flag) {
            ("why", "--tool") => &mut tool,
            ("why", "--cmd") => &mut cmd,
            ("why", "--path") => &mut path,
            (_, "--cwd") => &mut cwd,
            _ => {
                return Err(Error::Usage(format!(
                    "`warden {name}` does not take `{arg}`"
                )))
            }
        };
        let value = match inline {
            Some(value) => value,
            None => iter
                .next()
                .cloned()
                .ok_or_else(|| Error::Usage(format!("{flag} needs a value")))?,
        };
        *slot = Some(value);
    }
    Ok(Some(match name {
        "why" => {
            if cmd.is_none() && path.is_none() && tool.is_none() {
                return Err(Error::Usage(
                    "`warden why` needs --cmd COMMAND, --path PATH or --tool NAME".into(),
                ));
            }
            Command::Why {
                tool,
                cmd,
                path,
                cwd,
            }
        }
        "lint" => Command::Lint { cwd },
        _ => Command::Bless { cwd },
    }))
}

pub fn run(command: &Command, env: &Env) -> Outcome {
    match command {
        Command::Why {
            tool,
            cmd,
            path,
            cwd,
        } => why(
            env,
            tool.as_deref(),
            cmd.as_deref(),
            path.as_deref(),
            cwd.as_deref(),
        ),
        Command::Lint { cwd } => lint(env, cwd.as_deref()),
        Command::Bless { cwd } => bless(env, cwd.as_deref()),
    }
}

fn current_dir(cwd: Option<&str>) -> Option<String> {
    cwd.map(str::to_string).or_else(|| {
        std::env::current_dir()
            .ok()
            .map(|d| d.display().to_string())
    })
}

fn why(
    env: &Env,
    tool: Option<&str>,
    cmd: Option<&str>,
    path: Option<&str>,
    cwd: Option<&str>,
) -> Outcome {
    let cwd = current_dir(cwd);
    let tool = tool.map(str::to_string).unwrap_or_else(|| {
        if cmd.is_some() {
            "terminal"
        } else {
            "write_file"
        }
        .to_string()
    });
    let call = ToolCall::new(tool.clone())
        .with_cwd(cwd.clone())
        .with_path(path.map(str::to_string));
    let kind = call.kind;
    let call = match (kind, cmd) {
        (ToolKind::Shell, Some(cmd)) => call.with_command(cmd),
        (ToolKind::Shell, None) => {
            return usage(format!(
                "the `{tool}` tool runs a command: give it with --cmd"
            ))
        }
        _ => call,
    };
    let mut stderr = String::new();
    let ((explanation, options), loaded) =
        env.with_policy(cwd.as_deref(), &mut stderr, |options| {
            (engine::explain(&call, options), options.clone())
        });
    let mut out = String::new();
    let what = cmd.or(path).map(|t| format!(" `{t}`")).unwrap_or_default();
    let _ = writeln!(
        out,
        "call: {tool} ({} tool){what} in {}",
        kind.as_str(),
        cwd.as_deref().unwrap_or("an unknown directory")
    );
    describe_sources(&mut out, &options.policy);
    let _ = writeln!(
        out,
        "cache: {}",
        cache_line(&loaded.cache, loaded.cache_file.as_deref())
    );
    let _ = writeln!(
        out,
        "environment: yolo {}, {}",
        if options.yolo {
            "on (HERMES_YOLO_MODE)"
        } else {
            "off"
        },
        match options.unattended {
            Some(why) => format!("no human present ({why:?})"),
            None => "a human may answer asks".into(),
        }
    );
    let _ = writeln!(out, "layers, in order:");
    for (layer, lines) in &explanation.layers {
        for (i, line) in lines.iter().enumerate() {
            let label = if i == 0 { layer.as_str() } else { "" };
            let _ = writeln!(out, "  {label:<11} {line}");
        }
    }
    let verdict = &explanation.verdict;
    let _ = writeln!(
        out,
        "verdict: {} (layer {}, rule {})\n  {}",
        verdict.decision.as_str(),
        verdict.layer.as_str(),
        verdict.rule_id.as_deref().unwrap_or("none"),
        verdict.message
    );
    Outcome {
        stdout: out,
        stderr,
        code: 0,
    }
}

fn describe_sources(out: &mut String, policy: &Policy) {
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
    }
}

fn lint(env: &Env, cwd: Option<&str>) -> Outcome {
    let cwd = current_dir(cwd);
    let policy = load::lint(&env.locations, cwd.as_deref().map(Path::new));
    let mut out = String::new();
    describe_sources(&mut out, &policy);
    for problem in &policy.problems {
        let _ = writeln!(out, "{problem}");
    }
    let examples: usize = policy
        .rules()
        .iter()
        .map(|r| r.hits.len() + r.misses.len())
        .sum();
    let code = if policy.problems.is_empty() {
        let _ = writeln!(
            out,
            "ok: {} rules from {} files, {examples} examples behave as declared",
            policy.len(),
            policy.sources.len()
        );
        0
    } else {
        let _ = writeln!(out, "{} problems", policy.problems.len());
        1
    };
    Outcome {
        stdout: out,
        stderr: String::new(),
        code,
    }
}

fn bless(env: &Env, cwd: Option<&str>) -> Outcome {
    // The ledger exists so an agent cannot quietly drop a protected rule;
    // an agent's tool calls have no terminal, a person at a prompt does.
    if !env.stdin_is_terminal {
        return Outcome {
            stdout: String::new(),
            stderr: "warden: `warden bless` must be run by a person from a terminal (stdin is not one); nothing was changed\n".into(),
            code: 2,
        };
    }
    let cwd = current_dir(cwd);
    match load::bless(&env.locations, cwd.as_deref().map(Path::new)) {
        Ok(lines) => Outcome {
            stdout: lines.iter().map(|l| format!("{l}\n")).collect(),
            stderr: String::new(),
            code: 0,
        },
        Err(err) => Outcome {
            stdout: String::new(),
            stderr: format!("warden: {err}\n"),
            code: 1,
        },
    }
}

fn usage(message: String) -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: format!("warden: {message}\n"),
        code: 2,
    }
}
