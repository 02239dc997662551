//! `warden rules list`: every rule that decides here, built-in and the user's, with its layer, decision, source and examples; `warden rules sinks`: the options, settings and subcommands that hand code to a program.

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::error::Error;
use crate::rules::catalog::{self, Entry};
use crate::verdict::Decision;

pub(super) fn run(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    // `rules sinks`: the code-sink table, as docs/decisions.md shows it.
    if parsed.action.as_deref() == Some("sinks") {
        return Ok(Outcome {
            stdout: crate::shell::sinks::markdown(),
            stderr: String::new(),
            code: 0,
            audit: None,
        });
    }
    if parsed.value("--markdown").is_some() {
        return Ok(Outcome {
            stdout: catalog::markdown(),
            stderr: String::new(),
            code: 0,
            audit: None,
        });
    }
    let mut stderr = String::new();
    let cwd = super::policy::current_dir(parsed);
    let (options, ..) = env.options(cwd.as_deref(), &mut stderr);
    let policy = &options.policy;
    let mut entries = catalog::built_in();
    entries.extend(policy.rules().iter().map(|rule| {
        Entry {
            id: rule.id.clone(),
            layer: if rule.dangerous { "dangerous" } else { "user" },
            // A tighten-only file's allow does nothing, and says so.
            decision: match (rule.decision, policy.tightens_only(rule)) {
                (Decision::Block, _) => "block",
                (Decision::Ask, _) => "ask",
                (Decision::Allow, false) => "allow",
                (Decision::Allow, true) => "withheld",
            }
            .to_string(),
            description: if rule.description.is_empty() {
                rule.describe()
            } else {
                format!("{} ({})", rule.describe(), rule.description)
            },
            safer: rule.suggest.clone(),
            source: policy.origin(rule),
            hits: rule.hits.len(),
            misses: rule.misses.len(),
        }
    }));
    let layer = parsed.value("--layer");
    let group = parsed.value("--group");
    entries.retain(|e| {
        layer.is_none_or(|l| e.layer == l) && group.is_none_or(|g| catalog::group(&e.id) == g)
    });
    let stdout = if parsed.value("--json").is_some() {
        entries
            .iter()
            .map(|e| {
                format!(
                    "{}\n",
                    serde_json::json!({
                        "id": e.id, "layer": e.layer, "decision": e.decision,
                        "description": e.description, "source": e.source,
                        "hits": e.hits, "misses": e.misses, "safer": e.safer,
                    })
                )
            })
            .collect()
    } else {
        table(&entries)
    };
    Ok(Outcome {
        stdout,
        stderr,
        code: 0,
        audit: None,
    })
}

/// Aligned columns for a terminal; the description last, since it is long,
/// and the safer way, where there is one, on an indented line of its own.
fn table(entries: &[Entry]) -> String {
    let width = |f: fn(&Entry) -> usize, title: &str| {
        entries.iter().map(f).max().unwrap_or(0).max(title.len())
    };
    let (wi, wl, wd, ws) = (
        width(|e| e.id.len(), "ID"),
        width(|e| e.layer.len(), "LAYER"),
        width(|e| e.decision.len(), "DECISION"),
        width(|e| e.source.len(), "SOURCE"),
    );
    let mut out = format!(
        "{:wi$}  {:wl$}  {:wd$}  {:ws$}  EXAMPLES  DESCRIPTION\n",
        "ID", "LAYER", "DECISION", "SOURCE"
    );
    for e in entries {
        out.push_str(&format!(
            "{:wi$}  {:wl$}  {:wd$}  {:ws$}  {:>3}/{:<3}   {}\n",
            e.id, e.layer, e.decision, e.source, e.hits, e.misses, e.description
        ));
        if let Some(safer) = &e.safer {
            out.push_str(&format!("{:wi$}  safer: {safer}\n", ""));
        }
    }
    out.push_str(&format!("{} rules\n", entries.len()));
    out
}
