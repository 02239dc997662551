//! What the deciding layer found, in the words a verdict's message opens with: the rule that decided and what it saw, or why warden could not judge.

use super::{clip, Reason, Verdict, QUOTED_CHARS};

impl Verdict {
    /// What the deciding layer found, opening with the final decision.
    pub(super) fn finding(&self) -> String {
        let quoted = || clip(&self.subject, QUOTED_CHARS);
        let lead = self.decision.lead();
        let id = self.rule_id.as_deref().unwrap_or("");
        match &self.reason {
            Reason::BuiltIn {
                category,
                why,
                leads,
            } => {
                let through = leads_text(leads);
                rule_finding(&[lead, ": `", &quoted(), "`", &through, " is "], category, why, id)
            }
            Reason::Path {
                category,
                why,
                access,
                path,
                unresolved,
            } => {
                let quoted = quoted();
                let opening = path_opening(lead, &quoted, access, path, unresolved.as_deref());
                rule_finding(&opening, category, why, id)
            }
            Reason::Limit(limit) => {
                format!("{lead}: {limit}, so warden cannot tell what it would run.")
            }
            Reason::PolicyUnreadable { problem } => format!(
                "{lead}: warden's policy could not be read ({problem}), and on_error is block; fix the file (see `warden why`) or set on_error."
            ),
            Reason::PolicyPartlyRead { problem } => format!(
                "{lead}: warden's policy could not be fully read ({problem}), and on_error is ask."
            ),
            Reason::UserRule {
                kind,
                rule,
                description,
                origin,
            } => your_rule_finding(lead, &quoted(), kind, id, rule, description, origin),
            Reason::Pattern {
                rule,
                description,
                origin,
            } => your_pattern_finding(lead, &quoted(), id, rule, description, origin),
            Reason::Exempted { category } => format!(
                "{lead}: `{}` is {category}, a category your command_allowlist approves.",
                quoted()
            ),
            Reason::YoloLifted { what } => format!(
                "{lead}: `{}` matches {what}, but yolo is on (HERMES_YOLO_MODE or approvals.mode: off).",
                quoted()
            ),
            Reason::Unnamed { why } => {
                format!("{lead}: `{}` is not named by any rule, and {why}.", quoted())
            }
            Reason::Risk { risk, limit } => format!(
                "{lead}: `{}` is {risk} risk, above approvals.auto_approve_up_to ({limit}).",
                quoted()
            ),
            Reason::NoMatch { tool: None } => "No warden rule matched this command.".into(),
            Reason::NoMatch { tool: Some(tool) } => {
                format!("No warden rule matched this `{tool}` call.")
            }
            Reason::OtherEvent { event } => {
                format!("warden only judges calls before a tool runs; `{event}` events pass.")
            }
            Reason::Unreadable { error } => format!(
                "{lead}: warden could not read the tool call ({error}), so it fails closed."
            ),
            Reason::BadStart { error } => format!("warden was started wrongly: {error}"),
            Reason::Internal { detail } => format!(
                "{lead}: warden hit an internal error ({detail}), so it fails closed."
            ),
            Reason::Deadline { millis } => format!(
                "{lead}: warden did not read and decide the call within its {millis} ms deadline (WARDEN_DEADLINE_MS), so it fails closed."
            ),
        }
    }
}

/// Where the paths a rule judged lead, for after the quoted command:
/// ``(where `r/` leads to `/`)``, ``(where `a` leads to `/x` and `b` to
/// `/y`)``; nothing when they were judged as written.
fn leads_text(leads: &[(String, String)]) -> String {
    let mut out = String::new();
    for (n, (written, leads_to)) in leads.iter().enumerate() {
        out.push_str(match n {
            0 => " (where `",
            _ if n + 1 == leads.len() => " and `",
            _ => ", `",
        });
        out.push_str(&clip(written, QUOTED_CHARS));
        out.push_str(if n == 0 { "` leads to `" } else { "` to `" });
        out.push_str(&clip(leads_to, QUOTED_CHARS));
        out.push('`');
    }
    if !out.is_empty() {
        out.push(')');
    }
    out
}

/// The opening of a path rule's finding, up to its category: "Lead:
/// `subject` writes PATH, ", saying the path was judged as written, and
/// why, where it could not be resolved.
fn path_opening<'a>(
    lead: &'a str,
    quoted: &'a str,
    access: &'a str,
    path: &'a str,
    unresolved: Option<&'a str>,
) -> [&'a str; 11] {
    let (judged, problem, close) = match unresolved {
        Some(problem) => (" (judged as written: ", problem, ")"),
        None => ("", "", ""),
    };
    [
        lead, ": `", quoted, "` ", access, " ", path, judged, problem, close, ", ",
    ]
}

/// The finding of a rule of yours (`kind` allow, ask or block) that
/// decided: its id, its text, what it says it is for, and where it is from.
fn your_rule_finding(
    lead: &str,
    quoted: &str,
    kind: &str,
    id: &str,
    rule: &str,
    description: &str,
    origin: &str,
) -> String {
    let about = if description.is_empty() {
        String::new()
    } else {
        format!(": {description}")
    };
    format!("{lead}: `{quoted}` matches your {kind} rule {id} {rule}{about} (from {origin}).")
}

/// The finding of one of your custom patterns (they ask): its id, its
/// regex, its description, and where it is from.
fn your_pattern_finding(
    lead: &str,
    quoted: &str,
    id: &str,
    rule: &str,
    description: &str,
    origin: &str,
) -> String {
    format!(
        "{lead}: `{quoted}` matches your pattern {id} ({rule}): {} (from {origin}).",
        if description.is_empty() {
            "no description"
        } else {
            description
        }
    )
}

/// A built-in rule's finding: `opening`, then "category: why (warden rule
/// id).", pieced together in a string allocated once (nearly every block
/// and ask says one, and `format!` cost several times as much).
fn rule_finding(opening: &[&str], category: &str, why: &str, id: &str) -> String {
    let closing = [category, ": ", why, " (warden rule ", id, ")."];
    let pieces = || opening.iter().chain(&closing);
    let mut out = String::with_capacity(pieces().map(|p| p.len()).sum());
    pieces().for_each(|p| out.push_str(p));
    out
}
