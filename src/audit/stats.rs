//! Counting a period of the audit log: by decision, layer, rule and tool, the numbers a person tunes a policy with.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Entry;

/// Counts over the entries of a period.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub decisions: usize,
    /// The first and last stamps counted.
    pub first: Option<String>,
    pub last: Option<String>,
    pub by_decision: BTreeMap<String, usize>,
    pub by_layer: BTreeMap<String, usize>,
    /// Rules that decided, most decisions first.
    pub rules: Vec<Count>,
    /// Agents and tools, most calls first.
    pub tools: Vec<Count>,
    /// Lines in the files that were not entries.
    pub unreadable_lines: usize,
}

/// How often one rule (or tool) decided what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    pub name: String,
    pub decision: String,
    pub count: usize,
}

impl Stats {
    /// Counts `entries` stamped at or after `since` (every entry when `None`).
    pub fn of<'a>(entries: impl IntoIterator<Item = &'a Entry>, since: Option<&str>) -> Stats {
        let mut stats = Stats::default();
        let mut rules: BTreeMap<(String, String), usize> = BTreeMap::new();
        let mut tools: BTreeMap<(String, String), usize> = BTreeMap::new();
        for entry in entries {
            if since.is_some_and(|start| entry.time.as_str() < start) {
                continue;
            }
            stats.decisions += 1;
            if stats.first.as_ref().is_none_or(|t| entry.time < *t) {
                stats.first = Some(entry.time.clone());
            }
            if stats.last.as_ref().is_none_or(|t| entry.time > *t) {
                stats.last = Some(entry.time.clone());
            }
            *stats.by_decision.entry(entry.decision.clone()).or_default() += 1;
            *stats.by_layer.entry(entry.layer.clone()).or_default() += 1;
            let rule = entry.rule.clone().unwrap_or_else(|| "(no rule)".into());
            *rules.entry((rule, entry.decision.clone())).or_default() += 1;
            let tool = format!("{} {}", entry.agent, entry.tool);
            *tools.entry((tool, entry.decision.clone())).or_default() += 1;
        }
        stats.rules = ranked(rules);
        stats.tools = ranked(tools);
        stats
    }
}

fn ranked(counts: BTreeMap<(String, String), usize>) -> Vec<Count> {
    let mut ranked: Vec<Count> = counts
        .into_iter()
        .map(|((name, decision), count)| Count {
            name,
            decision,
            count,
        })
        .collect();
    // Stable: equal counts keep name order.
    ranked.sort_by_key(|c| std::cmp::Reverse(c.count));
    ranked
}
