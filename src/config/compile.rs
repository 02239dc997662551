//! Compiling the sources read for a call into one policy: each file parsed by its format, settings merged by tier, rule examples checked.

use crate::config::ledger;
use crate::config::model::{
    Counts, RuleSpec, Settings, SourceDoc, SourceInfo, SourceKind, Standing, Target, Tier, ToolSel,
};
use crate::config::policy::{Policy, Subjects};
use crate::config::sources::{Candidate, Inputs};
use crate::config::{hermes, plugin, standing, warden_file};
use crate::error::{Error, Result};
use crate::payload::ToolKind;

/// Parses every source, settles its standing, checks rule examples, merges
/// settings. Returns the policy and the rules as written (for the ledger,
/// before any rule the ledger itself adds).
pub(crate) fn compile(inputs: &Inputs) -> (Policy, Vec<RuleSpec>) {
    let mut sources = Vec::new();
    let mut rules = Vec::new();
    let mut problems = Vec::new();
    let mut broken = false;
    let mut settings_in_order: Vec<Settings> = Vec::new();
    for (candidate, content) in inputs.candidates.iter().zip(&inputs.contents) {
        // A file named by an environment variable was asked for by name:
        // its absence is a problem, not a default.
        let named = inputs.named_by(candidate);
        let missing;
        let content = match (content, named) {
            (Some(content), _) => content,
            (None, Some(variable)) => {
                missing = Err(format!("does not exist, but {variable} names it"));
                &missing
            }
            (None, None) => continue,
        };
        let path = crate::path::text(&candidate.path);
        let index = sources.len() as u32;
        let (doc, sha, error) = read_doc(candidate, &path, content, &mut problems);
        broken |= error.is_some();
        let standing = match &error {
            // An unusable file says nothing; `on_error` decides.
            Some(_) => Standing::TightenOnly("it could not be used".into()),
            None => candidate.claim.settle(&path, &sha),
        };
        let withheld = match standing {
            Standing::Trusted => Vec::new(),
            Standing::TightenOnly(_) => standing::withheld_rules(&doc.rules),
        };
        sources.push(SourceInfo {
            path: path.clone(),
            tier: candidate.tier,
            kind: candidate.kind,
            sha256: sha,
            counts: Counts::of(&doc.rules),
            error,
            standing,
            withheld,
        });
        settings_in_order.push(doc.settings);
        for mut rule in doc.rules {
            rule.source = index;
            if rule.base.is_none() {
                rule.base.clone_from(&candidate.base);
            }
            rules.push(rule);
        }
    }
    let settings = merge(&mut sources, settings_in_order);
    let as_written = rules.clone();
    let mut policy = Policy::new(sources, settings, rules);
    for rule in &as_written {
        problems.extend(check_examples(&policy, rule));
    }
    policy.problems = problems;
    policy.broken = broken;
    (policy, as_written)
}

/// One source's document, its bytes' SHA-256 (empty if unread) and why it
/// is unusable, if it is; what is wrong with it goes to `problems`.
fn read_doc(
    candidate: &Candidate,
    path: &str,
    content: &std::result::Result<Vec<u8>, String>,
    problems: &mut Vec<String>,
) -> (SourceDoc, String, Option<String>) {
    let (mut doc, sha, error) = match content {
        Ok(bytes) => {
            let sha = ledger::sha256_hex(bytes);
            match parse(candidate, path, bytes) {
                Ok(doc) => (doc, sha, None),
                Err(err) => (SourceDoc::default(), sha, Some(err.to_string())),
            }
        }
        Err(why) => (
            SourceDoc::default(),
            String::new(),
            Some(format!("{path} {why}")),
        ),
    };
    if let Some(error) = &error {
        problems.push(format!("warden: policy file unusable: {error}"));
    }
    for warning in &doc.warnings {
        problems.push(format!("warden: {path}: {warning}"));
    }
    if candidate.tier == Tier::Project && doc.settings.audit.take().is_some() {
        problems.push(format!(
            "warden: {path}: `audit` is ignored in a project file: only your own \
             config or a managed one chooses where your commands are logged"
        ));
    }
    (doc, sha, error)
}

fn parse(candidate: &Candidate, path: &str, bytes: &[u8]) -> Result<SourceDoc> {
    let text = std::str::from_utf8(bytes).map_err(|e| Error::Config {
        path: path.to_string(),
        line: None,
        message: format!(
            "not valid UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        ),
    })?;
    match candidate.kind {
        SourceKind::Warden | SourceKind::Permissions => {
            warden_file::parse(path, text, candidate.kind, candidate.base.as_deref())
        }
        SourceKind::Plugin => plugin::parse(path, text),
        SourceKind::HermesConfig => hermes::parse_config(path, text),
        SourceKind::Trust => hermes::parse_trust(path, text),
    }
}

/// Merges scalar settings: the trusted sources' first, weaker sources
/// first, so a stronger tier's value wins; within a tier the file listed
/// first wins (warden's own file over Hermes' files); exemptions add up.
/// Then each tighten-only source adds only what is stricter, and what it
/// says that is not goes into its source's `withheld`.
fn merge(sources: &mut [SourceInfo], settings: Vec<Settings>) -> Settings {
    let trusted = |i: usize| sources.get(i).is_some_and(|s| s.standing.is_trusted());
    let mut order: Vec<usize> = (0..settings.len()).filter(|&i| trusted(i)).collect();
    order.sort_by_key(|&i| (sources.get(i).map(|s| s.tier), std::cmp::Reverse(i)));
    let mut merged = Settings::default();
    for i in order {
        let Some(s) = settings.get(i) else { continue };
        macro_rules! take {
            ($($field:ident),*) => {$(
                if s.$field.is_some() {
                    merged.$field = s.$field;
                }
            )*};
        }
        if s.audit.is_some() {
            merged.audit.clone_from(&s.audit);
        }
        take!(
            mode,
            on_error,
            approvals_off,
            cron_mode,
            single_query_mode,
            unattended_mode,
            auto_approve_up_to
        );
        for category in &s.exempt_categories {
            if !merged.exempt_categories.contains(category) {
                merged.exempt_categories.push(category.clone());
            }
        }
    }
    for (source, s) in sources.iter_mut().zip(&settings) {
        if !source.standing.is_trusted() && source.error.is_none() {
            source.withheld.extend(standing::tighten(&mut merged, s));
        }
    }
    merged
}

/// Runs a rule's examples through the rule: each hit must match, each miss
/// must not. The rule loads either way; the problems are reported.
fn check_examples(policy: &Policy, rule: &RuleSpec) -> Vec<String> {
    if rule.hits.is_empty() && rule.misses.is_empty() {
        return Vec::new();
    }
    let mut alone = rule.clone();
    alone.source = 0;
    let single = Policy::new(Vec::new(), Settings::default(), vec![alone]);
    let on_paths = matches!(rule.target, Target::PathGlob(_))
        || matches!(&rule.tool, ToolSel::Name(n) if !crate::config::spec::is_shell_tool(n));
    let mut out = Vec::new();
    for (example, expected) in rule
        .hits
        .iter()
        .map(|h| (h, true))
        .chain(rule.misses.iter().map(|m| (m, false)))
    {
        let subjects = if on_paths {
            let tool = match &rule.tool {
                ToolSel::Name(n) => n.clone(),
                _ => "write_file".into(),
            };
            Subjects {
                kind: ToolKind::of(&tool),
                tool,
                path: Some(crate::path::absolute(example, rule.base.as_deref(), None)),
                cwd: rule.base.clone(),
                ..Subjects::default()
            }
        } else {
            let analysis = crate::shell::analyze(example);
            let call = crate::payload::ToolCall::shell(example, rule.base.clone());
            Subjects::of(&call, Some(&analysis), None)
        };
        let matched = !single.matches(&subjects).is_empty();
        if matched != expected {
            let origin = policy.origin(rule);
            out.push(format!(
                "warden: {origin}: rule {}: example `{example}` {}",
                rule.id,
                if expected {
                    "is listed as a hit but does not match"
                } else {
                    "is listed as a miss but matches"
                }
            ));
        }
    }
    out
}
