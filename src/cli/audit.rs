//! `warden audit tail|stats`: reading the audit log the hook writes when the user's config has `audit:`.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::args::Parsed;
use super::style::Style;
use super::{Env, Io, Outcome};
use crate::audit::{self, Log, Stats};
use crate::error::Error;

pub(super) fn run(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let mut stderr = String::new();
    let log = chosen_log(parsed, env, &mut stderr)?;
    let since = match parsed.value("--since") {
        Some(value) => {
            Some(audit::since(value, std::time::SystemTime::now()).map_err(Error::Usage)?)
        }
        None => None,
    };
    let read = log.read()?;
    if read.files == 0 {
        stderr.push_str(&format!(
            "warden: {} does not exist yet: no decision has been logged\n",
            log.path.display()
        ));
    }
    if read.bad > 0 {
        stderr.push_str(&format!(
            "warden: {}: {} lines are not audit entries and were skipped\n",
            log.path.display(),
            read.bad
        ));
    }
    let in_period: Vec<&audit::Entry> = read
        .entries
        .iter()
        .filter(|e| since.as_deref().is_none_or(|s| e.time.as_str() >= s))
        .collect();
    let json = parsed.value("--json").is_some();
    let style = env.style();
    let stdout = match parsed.action.as_deref() {
        Some("tail") => {
            let lines = match parsed.value("--lines") {
                Some(n) => n
                    .parse::<usize>()
                    .map_err(|_| Error::Usage(format!("--lines needs a number, not `{n}`")))?,
                None => 20,
            };
            tail(
                &in_period[in_period.len().saturating_sub(lines)..],
                json,
                style,
            )
        }
        _ => {
            let mut stats = Stats::of(in_period.iter().copied(), None);
            stats.unreadable_lines = read.bad;
            if json {
                format!("{}\n", serde_json::to_string(&stats).unwrap_or_default())
            } else {
                report(&stats, &log, since.as_deref(), style)
            }
        }
    };
    Ok(Outcome {
        stdout,
        stderr,
        code: 0,
        audit: None,
    })
}

/// The log to read: the file `--file` names (read whatever its size), or
/// the one the policy that applies in --cwd configures; what loading that
/// policy had to say goes to `stderr`.
fn chosen_log(parsed: &Parsed, env: &Env, stderr: &mut String) -> Result<Log, Error> {
    match parsed.value("--file") {
        Some(file) => Ok(Log {
            path: PathBuf::from(file),
            max_bytes: u64::MAX,
            keep: crate::config::model::AuditSettings::MAX_KEEP,
        }),
        None => {
            let cwd = super::policy::current_dir(parsed);
            let (options, _, locations) = env.options(cwd.as_deref(), stderr);
            let settings = &options.policy.settings;
            env.audit_log(settings, &locations).ok_or_else(|| {
                Error::Usage(match &settings.audit {
                    Some(audit) if !audit.file => {
                        "the audit log file is off (`audit.file: false`): \
                         decisions go only to syslog (or name a log with --file)"
                            .into()
                    }
                    _ => "no audit log is configured: add `audit: {}` to \
                          ~/.config/warden/config.yaml (or name a log with --file)"
                        .into(),
                })
            })
        }
    }
}

fn tail(entries: &[&audit::Entry], json: bool, style: Style) -> String {
    let mut out = String::new();
    for e in entries {
        if json {
            let _ = writeln!(out, "{}", serde_json::to_string(e).unwrap_or_default());
            continue;
        }
        let _ = writeln!(
            out,
            "{}  {}  {:<28}  {:<16}  {}",
            e.time,
            style.decision(&e.decision, &format!("{:<5}", e.decision)),
            e.rule.as_deref().unwrap_or("-"),
            format!("{} {}", e.agent, e.tool),
            e.subject().replace('\n', "⏎")
        );
    }
    out
}

fn report(stats: &Stats, log: &Log, since: Option<&str>, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", style.bold("log:"), log.path.display());
    let _ = writeln!(
        out,
        "{} {} decisions, {} to {}{}",
        style.bold("period:"),
        stats.decisions,
        stats.first.as_deref().unwrap_or("-"),
        stats.last.as_deref().unwrap_or("-"),
        since.map(|s| format!(" (since {s})")).unwrap_or_default()
    );
    let _ = writeln!(out, "\n{}", style.bold("DECISION  COUNT"));
    for decision in ["block", "ask", "allow"] {
        let count = stats.by_decision.get(decision).copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "{}  {count:>5}",
            style.decision(decision, &format!("{decision:<8}"))
        );
    }
    let _ = writeln!(out, "\n{}", style.bold("LAYER            COUNT"));
    for (layer, count) in &stats.by_layer {
        let _ = writeln!(out, "{layer:<15}  {count:>5}");
    }
    ranking(&mut out, "RULE", &stats.rules, style);
    ranking(&mut out, "AGENT TOOL", &stats.tools, style);
    out
}

/// The 25 most frequent names of a ranking, with their decisions.
fn ranking(out: &mut String, title: &str, counts: &[audit::Count], style: Style) {
    let _ = writeln!(
        out,
        "\n{}",
        style.bold(&format!("{title:<34}  DECISION  COUNT"))
    );
    for c in counts.iter().take(25) {
        let _ = writeln!(
            out,
            "{:<34}  {}  {:>5}",
            c.name,
            style.decision(&c.decision, &format!("{:<8}", c.decision)),
            c.count
        );
    }
    if counts.len() > 25 {
        let _ = writeln!(out, "… {} more (--json has them all)", counts.len() - 25);
    }
}
