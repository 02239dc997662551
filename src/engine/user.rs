//! The user-rule layer: a tool call seen as rule subjects, and which matching rule wins.
//!
//! Every matching rule of a trusted source competes: highest priority wins,
//! ties go deny > ask > allow, managed rules (from `/etc/warden/`) win over
//! everything else, and a protected deny or ask wins over every unprotected
//! rule. A tighten-only source's rules (an untrusted project file, a
//! managed directory an agent could have written) do not compete: their
//! allows do nothing, and their strictest deny or ask replaces the winner
//! only when it is stricter.
//! A command line is judged per segment: a deny or ask on any segment
//! decides for the whole line, an allow only when every segment is allowed.

use crate::config::model::{RuleSpec, Tier};
use crate::config::policy::{Policy, RuleMatch, Subjects};
use crate::verdict::Decision;

/// The user layer's answer.
#[derive(Debug, Clone)]
pub struct UserDecision {
    pub decision: Decision,
    /// The deciding rule (for an allow: the one that allowed the first segment).
    pub rule: RuleSpec,
    /// The text the deciding rule matched.
    pub text: String,
}

/// What the rules said about one call, for the verdict and for `warden why`.
#[derive(Debug, Clone, Default)]
pub struct UserOutcome {
    pub subjects: Subjects,
    /// Deny, ask and allow rules that matched.
    pub matches: Vec<RuleMatch>,
    /// The plugin's `patterns` that matched (they belong to the dangerous layer).
    pub patterns: Vec<RuleSpec>,
    pub decision: Option<UserDecision>,
}

/// Runs the user rules over `subjects`.
pub fn decide(policy: &Policy, subjects: Subjects) -> UserOutcome {
    let (patterns, matches): (Vec<RuleMatch>, Vec<RuleMatch>) = policy
        .matches(&subjects)
        .into_iter()
        .partition(|m| m.spec.dangerous);
    let decision = resolve(policy, &subjects, &matches);
    UserOutcome {
        subjects,
        matches,
        patterns: patterns.into_iter().map(|m| m.spec).collect(),
        decision,
    }
}

fn resolve(policy: &Policy, subjects: &Subjects, matches: &[RuleMatch]) -> Option<UserDecision> {
    if matches.is_empty() {
        return None;
    }
    let managed = |m: &RuleMatch| policy.tier_of(&m.spec) == Tier::Managed;
    // A call that is not a command line, or one with no commands in it
    // (only a comment), is one segment.
    let count = subjects.segments.len().max(1);
    let mut winners: Vec<Option<(&RuleMatch, usize)>> = vec![None; count];
    for (s, winner) in winners.iter_mut().enumerate() {
        let (bound, mut competing): (Vec<&RuleMatch>, Vec<&RuleMatch>) = matches
            .iter()
            .filter(|m| m.whole || m.segments.contains(&s))
            .partition(|m| policy.tightens_only(&m.spec));
        // Managed rules cannot be loosened or overridden from below.
        if competing.iter().any(|m| managed(m)) {
            competing.retain(|m| managed(m));
        }
        // A protected deny or ask outranks every unprotected rule: adding an
        // allow of priority 1000 must not be a quiet way around it.
        let trusted = competing.into_iter().max_by_key(|m| {
            let guarded = m.spec.protected && m.spec.decision != Decision::Allow;
            (
                guarded,
                m.spec.priority,
                m.spec.decision,
                std::cmp::Reverse(m.rule),
            )
        });
        let strictest = bound
            .into_iter()
            .filter(|m| m.spec.decision != Decision::Allow)
            .max_by_key(|m| (m.spec.decision, m.spec.priority, std::cmp::Reverse(m.rule)));
        *winner = match (trusted, strictest) {
            (Some(t), Some(u)) if u.spec.decision > t.spec.decision => Some(u),
            (None, u) => u,
            (t, _) => t,
        }
        .map(|m| (m, s));
    }
    let text_of = |s: usize| {
        subjects
            .segments
            .get(s)
            .map(|seg| seg.full.clone())
            .or_else(|| subjects.text.clone())
            .or_else(|| subjects.path.clone())
            .unwrap_or_else(|| subjects.tool.clone())
    };
    for wanted in [Decision::Block, Decision::Ask] {
        let best = winners
            .iter()
            .flatten()
            .filter(|(m, _)| m.spec.decision == wanted)
            .max_by_key(|(m, _)| m.spec.priority);
        if let Some((m, s)) = best {
            return Some(UserDecision {
                decision: wanted,
                rule: m.spec.clone(),
                text: text_of(*s),
            });
        }
    }
    if winners.iter().all(Option::is_some) {
        let (m, _) = winners.first().copied().flatten()?;
        return Some(UserDecision {
            decision: Decision::Allow,
            rule: m.spec.clone(),
            text: subjects
                .text
                .clone()
                .or_else(|| subjects.path.clone())
                .unwrap_or_else(|| subjects.tool.clone()),
        });
    }
    None
}

/// One line per matching rule, for `warden why`: its decision, priority,
/// tier and origin, and which commands of the line it matched.
pub(super) fn describe_matches(policy: &Policy, outcome: &UserOutcome) -> Vec<String> {
    outcome
        .matches
        .iter()
        .map(|m| {
            let rule = &m.spec;
            let parts: Vec<String> = m
                .segments
                .iter()
                .filter_map(|s| outcome.subjects.segments.get(*s))
                .map(|s| format!("`{}`", s.full))
                .collect();
            let place = match (parts.is_empty(), m.whole) {
                (true, _) => "the whole call".to_string(),
                (false, true) => format!("the whole call and {}", parts.join(", ")),
                (false, false) => parts.join(", "),
            };
            let standing = match (policy.tightens_only(rule), rule.decision) {
                (false, _) => "",
                (true, Decision::Allow) => ", tighten-only: withheld",
                (true, _) => ", tighten-only",
            };
            format!(
                "{} {} {} (priority {}, {} tier{standing}, {}) matches {place}",
                rule.decision.as_str(),
                rule.id,
                rule.describe(),
                rule.priority,
                policy.tier_of(rule).as_str(),
                policy.origin(rule),
            )
        })
        .collect()
}
