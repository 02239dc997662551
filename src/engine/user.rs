//! The user-rule layer: a tool call seen as rule subjects, and which matching rule wins.
//!
//! Every matching rule competes: highest priority wins, ties go deny > ask >
//! allow, managed rules (from `/etc/warden/`) win over everything else, and
//! a protected deny or ask wins over every unprotected rule.
//! A command line is judged per segment: a deny or ask on any segment
//! decides for the whole line, an allow only when every segment is allowed.

use crate::config::model::{RuleSpec, Target, Tier, ToolSel};
use crate::config::policy::{normalize_path, Policy, RuleMatch, Segment, Subjects};
use crate::payload::{ToolCall, ToolKind};
use crate::shell::{Analysis, Command};
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

/// Builds the subjects of `call` (with its analysis, for shell tools).
pub fn subjects(call: &ToolCall, analysis: Option<&Analysis>, home: Option<&str>) -> Subjects {
    let cwd = call.cwd.as_deref().map(|c| normalize_path(c, None, home));
    let mut subjects = Subjects {
        tool: call.tool.clone(),
        kind: call.kind,
        path: call
            .path
            .as_deref()
            .map(|p| normalize_path(p, cwd.as_deref(), home)),
        cwd,
        home: home.map(str::to_string),
        ..Subjects::default()
    };
    if let Some(analysis) = analysis {
        let text = analysis.text.trim().to_string();
        subjects.operator_free = !has_shell_operator(&text);
        subjects.text = Some(text);
        subjects.segments = analysis.commands.iter().map(segment).collect();
    }
    subjects
}

// Hermes' test for "too compound for the allowlist": newlines, `&&`, `||`,
// any of `; & | < >` and backticks, and `$(`.
fn has_shell_operator(text: &str) -> bool {
    text.contains(['\n', ';', '&', '|', '<', '>', '`']) || text.contains("$(")
}

fn segment(cmd: &Command) -> Segment {
    let mut bare = Vec::new();
    let words = |program: &str| {
        let mut line = program.to_string();
        for arg in &cmd.args {
            line.push(' ');
            line.push_str(arg);
        }
        line
    };
    if !cmd.path.is_empty() {
        bare.push(words(&cmd.path));
    }
    if cmd.program != cmd.path {
        bare.push(words(&cmd.program));
    }
    Segment {
        full: cmd.display(),
        bare,
    }
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
        let mut competing: Vec<&RuleMatch> = matches
            .iter()
            .filter(|m| m.whole || m.segments.contains(&s))
            .collect();
        // Managed rules cannot be loosened or overridden from below.
        if competing.iter().any(|m| managed(m)) {
            competing.retain(|m| managed(m));
        }
        // A protected deny or ask outranks every unprotected rule: adding an
        // allow of priority 1000 must not be a quiet way around it.
        *winner = competing
            .into_iter()
            .max_by_key(|m| {
                let guarded = m.spec.protected && m.spec.decision != Decision::Allow;
                (
                    guarded,
                    m.spec.priority,
                    m.spec.decision,
                    std::cmp::Reverse(m.rule),
                )
            })
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

/// A rule in the syntax a user would write it in: `terminal(git:*)`.
pub fn describe(rule: &RuleSpec) -> String {
    let tool = match &rule.tool {
        ToolSel::Any => "*".to_string(),
        ToolSel::Shell => "terminal".to_string(),
        ToolSel::Name(name) => name.clone(),
    };
    let inner = match &rule.target {
        Target::Any => return tool,
        Target::Prefix(p) => format!("{p}:*"),
        Target::Exact(t) => t.clone(),
        Target::CommandGlob(g) | Target::PathGlob(g) => g.clone(),
        Target::Regex(r) => format!("/{}/", r.strip_prefix("(?s)").unwrap_or(r)),
    };
    format!("{tool}({inner})")
}

/// Where a rule comes from: `path:line`.
pub fn origin(policy: &Policy, rule: &RuleSpec) -> String {
    let path = policy
        .source_of(rule)
        .map_or_else(|| "?".to_string(), |s| s.path.clone());
    match rule.line {
        Some(line) => format!("{path}:{line}"),
        None => path,
    }
}

/// Whether the tool only reads, for the modes and the risk classes.
pub fn is_read_only(kind: ToolKind) -> bool {
    kind == ToolKind::Read
}
