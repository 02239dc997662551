//! What `warden lint` says about your rules beyond their syntax: allows that reach past the project (`grants`) or shadow a built-in rule or a deny, rules that never decide or never match, ids used twice, and regexes that cost more than they should.

use super::model::{RuleSpec, Settings, Target, ToolSel};
use super::pattern;
use super::policy::{Policy, Subjects};
use crate::payload::ToolCall;
use crate::rules;
use crate::verdict::Decision;

/// A regex's compiled size above which it is reported: it still runs in
/// linear time, but builds and scans slower on every call.
const COSTLY_REGEX_BYTES: usize = 64 * 1024;
/// Most findings of one kind per rule, so one broad allow does not drown the report.
const MAX_PER_RULE: usize = 3;

/// What lint found: errors fail `warden lint`, warnings are shown.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Review {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// How the engine decides a command under a policy: the decision and the
/// deciding rule's id. Passed in, since the engine sits above the config.
pub type Decide<'a> = &'a dyn Fn(&std::sync::Arc<Policy>, &str) -> (Decision, Option<String>);

/// Reviews every rule of `policy`; `home` is the user's, for `~` in rules.
pub fn review(policy: &Policy, decide: Decide<'_>, home: Option<&str>) -> Review {
    let rules = policy.rules();
    let mut out = Review::default();
    duplicate_ids(policy, &rules, &mut out);
    for grant in super::grants::grants(policy, home) {
        out.warnings
            .push(format!("warden: {}: {}", grant.origin, grant.text));
    }
    for rule in &rules {
        if rule.decision == Decision::Allow && !rule.dangerous {
            shadows(policy, rule, &rules, decide, &mut out);
        }
        costly_regex(policy, rule, &mut out);
        never_decides(policy, rule, &rules, &mut out);
    }
    out
}

/// A rule that can never decide: another rule covers its whole tool, with
/// no pattern or scope, and wins every contest with it (managed over the
/// rest, then the higher priority, then deny > ask > allow).
fn never_decides(policy: &Policy, rule: &RuleSpec, rules: &[RuleSpec], out: &mut Review) {
    if rule.dangerous {
        return;
    }
    let strength = |d: Decision| match d {
        Decision::Block => 2,
        Decision::Ask => 1,
        Decision::Allow => 0,
    };
    let managed = |r: &RuleSpec| policy.tier_of(r) == super::model::Tier::Managed;
    let beats = |d: &RuleSpec| {
        if managed(d) != managed(rule) {
            return managed(d);
        }
        d.priority > rule.priority
            || d.priority == rule.priority && strength(d.decision) > strength(rule.decision)
    };
    let covers = |d: &RuleSpec| {
        d.target == Target::Any
            && d.scope.is_none()
            && !d.dangerous
            && !d.whole_command
            && (d.tool == ToolSel::Any || d.tool == rule.tool)
    };
    if let Some(winner) = rules
        .iter()
        .find(|d| d.decision != rule.decision && covers(d) && beats(d))
    {
        out.warnings.push(format!(
            "warden: {}: rule `{}` can never decide: `{}` ({}) covers every call to its tool and wins",
            policy.origin(rule),
            rule.id,
            winner.id,
            policy.origin(winner)
        ));
    }
}

/// The same id given to rules in two files: a verdict or `why` naming it
/// could mean either. (Within one file the loader already refuses it, and
/// generated ids such as `config.allow-1` count per file.)
fn duplicate_ids(policy: &Policy, rules: &[RuleSpec], out: &mut Review) {
    let generated = |id: &str| {
        id.rsplit_once('-')
            .is_some_and(|(head, n)| head.contains('.') && n.chars().all(|c| c.is_ascii_digit()))
    };
    for (i, rule) in rules.iter().enumerate() {
        if generated(&rule.id) {
            continue;
        }
        if let Some(first) = rules[..i]
            .iter()
            .find(|r| r.id == rule.id && r.source != rule.source)
        {
            out.errors.push(format!(
                "warden: {}: rule id `{}` is also used at {}",
                policy.origin(rule),
                rule.id,
                policy.origin(first)
            ));
        }
    }
}

/// An allow that matches what a built-in rule or one of your denies
/// stops, shown with an example command it would let through.
fn shadows(
    policy: &Policy,
    allow: &RuleSpec,
    rules: &[RuleSpec],
    decide: Decide<'_>,
    out: &mut Review,
) {
    if !matches!(allow.tool, ToolSel::Any | ToolSel::Shell)
        && !matches!(&allow.tool, ToolSel::Name(n) if super::spec::is_shell_tool(n))
    {
        return;
    }
    let alone = std::sync::Arc::new(single(allow));
    let matches = |command: &str| {
        let call = ToolCall::shell(command, allow.base.clone());
        let analysis = crate::shell::analyze(command);
        !alone
            .matches(&Subjects::of(&call, Some(&analysis), None))
            .is_empty()
    };
    // Whether the allow would decide the call: it must cover every command
    // of the line, as the user layer requires.
    let lets_through = |command: &str| {
        let (decision, rule) = decide(&alone, command);
        decision == Decision::Allow && rule.as_deref() == Some(allow.id.as_str())
    };
    let origin = policy.origin(allow);
    let mut found = 0;
    for rule in rules::all() {
        if found == MAX_PER_RULE {
            break;
        }
        let floor = rules::hardline().any(|r| r.id == rule.id);
        let Some(example) = rule
            .hits
            .iter()
            .find(|h| if floor { matches(h) } else { lets_through(h) })
        else {
            continue;
        };
        found += 1;
        out.warnings.push(if floor {
            format!(
                "warden: {origin}: allow rule `{}` covers `{example}`, which {} blocks; the floor wins, so the allow does nothing there",
                allow.id, rule.id
            )
        } else {
            format!(
                "warden: {origin}: allow rule `{}` lets through what {} ({}) would ask about, e.g. `{example}`",
                allow.id, rule.id, rule.category
            )
        });
    }
    for deny in rules.iter().filter(|r| r.decision == Decision::Block) {
        if let Some(example) = deny.hits.iter().find(|h| lets_through(h)) {
            out.warnings.push(format!(
                "warden: {origin}: allow rule `{}` also matches `{example}`, which deny rule `{}` ({}) blocks; the higher priority wins, deny on a tie",
                allow.id,
                deny.id,
                policy.origin(deny)
            ));
        }
    }
}

/// A regex whose compiled program is large: it is built and run on every call.
fn costly_regex(policy: &Policy, rule: &RuleSpec, out: &mut Review) {
    let Some(source) = pattern::regex_source(&rule.target, rule.case_insensitive) else {
        return;
    };
    let small = regex::RegexBuilder::new(&source)
        .size_limit(COSTLY_REGEX_BYTES)
        .build();
    if small.is_err() {
        let warning = match pattern::compile(&source) {
            Ok(_) => format!(
                "its pattern compiles to more than {} KiB (large counted repetitions or Unicode classes); every call pays for it",
                COSTLY_REGEX_BYTES / 1024
            ),
            Err(_) => "its pattern is too large to build (over 1 MiB compiled): a deny or ask holds for every call it meets, an allow for none".to_string(),
        };
        out.warnings.push(format!(
            "warden: {}: rule `{}`: {warning}",
            policy.origin(rule),
            rule.id
        ));
    }
    let hir = regex_syntax::Parser::new().parse(&source).ok();
    if let Some(hir) = &hir {
        if hir.properties().minimum_len().is_none() {
            out.warnings.push(format!(
                "warden: {}: rule `{}`: its pattern can never match anything (an empty class such as `[^\\s\\S]`), so the rule never decides",
                policy.origin(rule),
                rule.id
            ));
        }
    }
    if matches!(rule.target, Target::Regex(_)) && source.trim_start_matches("(?i)").is_empty() {
        out.warnings.push(format!(
            "warden: {}: rule `{}`: an empty pattern matches every command",
            policy.origin(rule),
            rule.id
        ));
    }
}

/// A policy holding only `rule`, to ask what it alone matches.
pub(super) fn single(rule: &RuleSpec) -> Policy {
    let mut alone = rule.clone();
    alone.source = 0;
    Policy::new(Vec::new(), Settings::default(), vec![alone])
}
