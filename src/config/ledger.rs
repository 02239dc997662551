//! The integrity ledger: what each policy file looked like when last seen, and the protected rules it must keep.
//!
//! An agent that can edit files can edit a policy file. The ledger notices:
//! a changed file is reported, and a rule marked `protected` that disappears
//! or changes keeps being enforced from the recorded copy until a person runs
//! `warden bless` from a terminal. Adding protected rules needs no blessing;
//! only [`bless`] ever drops one. Stored as pretty JSON so a person can audit it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::cache::{state_error, write_atomic};
use crate::config::model::{Counts, RuleSpec, SourceInfo};
use crate::error::Result;

/// The ledger layout this warden writes; a ledger from a newer warden is
/// refused rather than half understood.
pub(crate) const LEDGER_VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Ledger {
    #[serde(default)]
    pub(crate) version: u32,
    #[serde(default)]
    pub(crate) sources: BTreeMap<String, Entry>,
}

/// What one policy file looked like when it was last seen or blessed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) sha256: String,
    pub(crate) counts: Counts,
    pub(crate) protected: Vec<RuleSpec>,
}

/// The ledger at `path`; an empty one if there is none yet.
pub(crate) fn load(path: &Path) -> Result<Ledger> {
    read(path).map(|(ledger, _)| ledger)
}

/// The ledger at `path` and the bytes it was read from (`None`: there is
/// no ledger yet), for a cache key that must name the ledger applied.
pub(crate) fn read(path: &Path) -> Result<(Ledger, Option<Vec<u8>>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Ledger::default(), None)),
        Err(e) => return Err(state_error(path, format!("cannot read the ledger: {e}"))),
    };
    let ledger = parse(path, text.as_bytes())?;
    Ok((ledger, Some(text.into_bytes())))
}

/// The ledger in `bytes`, read from `path`.
pub(crate) fn parse(path: &Path, bytes: &[u8]) -> Result<Ledger> {
    let ledger: Ledger = serde_json::from_slice(bytes)
        .map_err(|e| state_error(path, format!("the ledger is not valid: {e}")))?;
    if ledger.version > LEDGER_VERSION {
        return Err(state_error(
            path,
            format!(
                "the ledger was written by a newer warden (ledger version {}, this warden knows {})",
                ledger.version, LEDGER_VERSION
            ),
        ));
    }
    Ok(ledger)
}

/// The hash the ledger records of a file's bytes: SHA-256, in hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write;
    let mut out = String::with_capacity(64);
    for b in Sha256::digest(bytes) {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Writes the ledger atomically, creating its directory (private) if needed.
/// Returns the bytes written.
pub(crate) fn save(path: &Path, ledger: &Ledger) -> Result<Vec<u8>> {
    let mut text = serde_json::to_string_pretty(ledger)
        .map_err(|e| state_error(path, format!("cannot encode the ledger: {e}")))?;
    text.push('\n');
    write_atomic(path, text.as_bytes(), true)?;
    Ok(text.into_bytes())
}

/// What [`reconcile`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Reconciled {
    /// Lines for the user, in a stable order.
    pub(crate) notes: Vec<String>,
    /// Recorded protected rules that the current files no longer hold as
    /// recorded; their `source` is stale and must be re-pointed by the caller.
    pub(crate) enforced: Vec<RuleSpec>,
    /// The ledger was modified and should be saved.
    pub(crate) changed: bool,
}

/// Two rules are the same rule when everything but where they were found
/// (source index, line) is equal. Spelled out field by field so that it costs
/// no clones on every call, and so that a new field fails to compile here
/// until someone decides whether it matters.
pub(crate) fn same_rule(a: &RuleSpec, b: &RuleSpec) -> bool {
    let RuleSpec {
        id,
        source: _,
        line: _,
        tool,
        target,
        case_insensitive,
        whole_command,
        scope,
        base,
        decision,
        dangerous,
        priority,
        description,
        suggest,
        protected,
        hits,
        misses,
    } = a;
    *id == b.id
        && *tool == b.tool
        && *target == b.target
        && *case_insensitive == b.case_insensitive
        && *whole_command == b.whole_command
        && *scope == b.scope
        && *base == b.base
        && *decision == b.decision
        && *dangerous == b.dangerous
        && *priority == b.priority
        && *description == b.description
        && *suggest == b.suggest
        && *protected == b.protected
        && *hits == b.hits
        && *misses == b.misses
}

/// The current sources and rules, looked up by path.
struct Current<'a> {
    sources: &'a [SourceInfo],
    rules: &'a [RuleSpec],
}

impl<'a> Current<'a> {
    /// The first source read from `path`.
    fn source(&self, path: &str) -> Option<&'a SourceInfo> {
        self.sources.iter().find(|s| s.path == path)
    }

    /// Every rule read from `path`, from whichever source index names it.
    fn rules_of<'b>(&self, path: &'b str) -> impl Iterator<Item = &'a RuleSpec> + 'b
    where
        'a: 'b,
    {
        let sources = self.sources;
        self.rules.iter().filter(move |rule| {
            usize::try_from(rule.source)
                .ok()
                .and_then(|i| sources.get(i))
                .is_some_and(|s| s.path == path)
        })
    }

    fn protected_of(&self, path: &str) -> Vec<RuleSpec> {
        self.rules_of(path)
            .filter(|rule| rule.protected)
            .map(recorded)
            .collect()
    }
}

/// The copy of a rule the ledger keeps: the source index means nothing
/// outside the call that produced it.
fn recorded(rule: &RuleSpec) -> RuleSpec {
    RuleSpec {
        source: 0,
        ..rule.clone()
    }
}

/// Whether every source in `sources` (as a cached policy names them) is
/// the version the ledger last saw whole: that policy is the latest
/// compiled from these files, not an older entry put back in the cache.
pub(crate) fn saw_whole(ledger: &Ledger, sources: &[SourceInfo]) -> bool {
    sources
        .iter()
        .filter(|s| s.error.is_none() && !s.sha256.is_empty())
        .all(|s| {
            ledger
                .sources
                .get(&s.path)
                .is_none_or(|e| e.sha256 == s.sha256)
        })
}

/// Compares the current sources with the ledger: records new files, notes
/// changed ones, adds new protected rules, and returns every recorded
/// protected rule that is no longer in force as recorded.
pub(crate) fn reconcile(
    ledger: &mut Ledger,
    candidates: &[String],
    sources: &[SourceInfo],
    rules: &[RuleSpec],
) -> Reconciled {
    let current = Current { sources, rules };
    let mut out = Reconciled::default();
    let mut seen = BTreeSet::new();

    for source in sources {
        if source.error.is_some() || !seen.insert(source.path.as_str()) {
            continue;
        }
        let protected = current.protected_of(&source.path);
        let Some(entry) = ledger.sources.get_mut(&source.path) else {
            ledger.sources.insert(
                source.path.clone(),
                Entry {
                    sha256: source.sha256.clone(),
                    counts: source.counts,
                    protected,
                },
            );
            out.changed = true;
            continue;
        };
        if entry.sha256 != source.sha256 {
            out.notes.push(format!(
                "warden: {} changed since it was last seen: {} -> {}",
                source.path, entry.counts, source.counts
            ));
            entry.sha256.clone_from(&source.sha256);
            out.changed = true;
        }
        if entry.counts != source.counts {
            // Same bytes, other counts: a newer warden reads the file differently.
            entry.counts = source.counts;
            out.changed = true;
        }
        for rule in protected {
            if !entry.protected.iter().any(|old| same_rule(old, &rule)) {
                entry.protected.push(rule);
                out.changed = true;
            }
        }
    }

    let mut looked_at = BTreeSet::new();
    for path in candidates {
        if !looked_at.insert(path.as_str()) {
            continue;
        }
        let Some(entry) = ledger.sources.get(path) else {
            continue;
        };
        let source = current.source(path);
        for old in &entry.protected {
            if current.rules_of(path).any(|rule| same_rule(rule, old)) {
                continue;
            }
            let why = match source {
                None => "the file is gone".to_string(),
                Some(SourceInfo {
                    error: Some(error), ..
                }) => format!("the file could not be loaded ({error})"),
                Some(_) if current.rules_of(path).any(|rule| rule.id == old.id) => {
                    "the rule was changed".to_string()
                }
                Some(_) => "the rule was removed".to_string(),
            };
            out.notes.push(format!(
                "warden: protected rule {} from {path}: {why}; the recorded rule stays enforced until `warden bless` is run from a terminal",
                old.id
            ));
            out.enforced.push(old.clone());
        }
    }

    if out.changed {
        ledger.version = LEDGER_VERSION;
    }
    out
}

fn rules_phrase(n: usize) -> String {
    if n == 1 {
        "1 protected rule".to_string()
    } else {
        format!("{n} protected rules")
    }
}

/// Accepts the current state of every candidate file: its entry becomes what
/// the file holds now, and entries of files that are gone are forgotten.
/// Files that failed to load keep their entry. Returns one line per change.
pub(crate) fn bless(
    ledger: &mut Ledger,
    candidates: &[String],
    sources: &[SourceInfo],
    rules: &[RuleSpec],
) -> Vec<String> {
    let current = Current { sources, rules };
    let mut changes = Vec::new();
    let mut kept = Vec::new();
    let mut looked_at = BTreeSet::new();
    for path in candidates {
        if !looked_at.insert(path.as_str()) {
            continue;
        }
        match current.source(path) {
            None => {
                if ledger.sources.remove(path).is_some() {
                    changes.push(format!("forgot {path} (file is gone)"));
                }
            }
            Some(SourceInfo {
                error: Some(error), ..
            }) => {
                if ledger.sources.contains_key(path) {
                    kept.push(format!(
                        "kept the recorded state of {path}: it could not be loaded ({error})"
                    ));
                }
            }
            Some(source) => {
                let entry = Entry {
                    sha256: source.sha256.clone(),
                    counts: source.counts,
                    protected: current.protected_of(path),
                };
                let now = rules_phrase(entry.protected.len());
                match ledger.sources.insert(path.clone(), entry.clone()) {
                    Some(old) if old == entry => {}
                    Some(old) => changes.push(format!(
                        "blessed {path}: {now} (was {})",
                        old.protected.len()
                    )),
                    None => changes.push(format!("blessed {path}: {now} (new)")),
                }
            }
        }
    }
    if changes.is_empty() {
        changes.push("nothing to bless: the ledger already matches the policy files".to_string());
    } else {
        ledger.version = LEDGER_VERSION;
    }
    changes.extend(kept);
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::{SourceKind, Target, Tier, ToolSel, DEFAULT_PRIORITY};
    use crate::error::Error;
    use crate::verdict::Decision;
    use std::time::{SystemTime, UNIX_EPOCH};

    fn rule(id: &str, source: u32, pattern: &str, protected: bool) -> RuleSpec {
        RuleSpec {
            id: id.to_string(),
            source,
            line: Some(3),
            tool: ToolSel::Shell,
            target: Target::Prefix(pattern.to_string()),
            case_insensitive: false,
            whole_command: false,
            scope: None,
            base: None,
            decision: Decision::Block,
            dangerous: false,
            priority: DEFAULT_PRIORITY,
            description: String::new(),
            suggest: None,
            protected,
            hits: Vec::new(),
            misses: Vec::new(),
        }
    }

    fn info(path: &str, sha: &str, rules: &[RuleSpec]) -> SourceInfo {
        SourceInfo {
            path: path.to_string(),
            tier: Tier::Project,
            kind: SourceKind::Warden,
            sha256: sha.to_string(),
            counts: Counts::of(rules),
            error: None,
            standing: crate::config::model::Standing::Trusted,
            withheld: Vec::new(),
        }
    }

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| p.to_string()).collect()
    }

    const P: &str = "/p/.warden.yaml";
    const Q: &str = "/q/.warden.yaml";

    /// A ledger that has seen P with one protected and one plain rule.
    fn seen() -> (Ledger, Vec<RuleSpec>) {
        let rules = vec![
            rule("no-push", 0, "git push", true),
            rule("no-rm", 0, "rm", false),
        ];
        let mut ledger = Ledger::default();
        let r = reconcile(&mut ledger, &paths(&[P]), &[info(P, "aa", &rules)], &rules);
        assert!(r.changed && r.notes.is_empty() && r.enforced.is_empty());
        (ledger, rules)
    }

    #[test]
    fn new_source_is_recorded_silently() {
        let (ledger, _) = seen();
        let entry = &ledger.sources[P];
        assert_eq!(entry.sha256, "aa");
        assert_eq!(entry.counts.deny, 2);
        assert_eq!(entry.counts.protected, 1);
        assert_eq!(entry.protected.len(), 1);
        assert_eq!(entry.protected[0].id, "no-push");
        assert_eq!(ledger.version, LEDGER_VERSION);
    }

    #[test]
    fn unchanged_source_changes_nothing() {
        let (mut ledger, rules) = seen();
        let before = ledger.clone();
        let r = reconcile(&mut ledger, &paths(&[P]), &[info(P, "aa", &rules)], &rules);
        assert_eq!(r, Reconciled::default());
        assert_eq!(ledger, before);
    }

    #[test]
    fn changed_sha_notes_old_and_new_counts() {
        let (mut ledger, mut rules) = seen();
        rules.push(rule("more", 0, "curl", false));
        let r = reconcile(&mut ledger, &paths(&[P]), &[info(P, "bb", &rules)], &rules);
        assert!(r.changed);
        assert!(r.enforced.is_empty());
        assert_eq!(
            r.notes,
            vec![format!(
                "warden: {P} changed since it was last seen: 2 deny, 0 ask, 0 allow, 0 dangerous patterns (1 protected) -> 3 deny, 0 ask, 0 allow, 0 dangerous patterns (1 protected)"
            )]
        );
        assert_eq!(ledger.sources[P].sha256, "bb");
        assert_eq!(ledger.sources[P].counts.deny, 3);
    }

    #[test]
    fn removed_protected_rule_stays_enforced() {
        let (mut ledger, _) = seen();
        let rules = vec![rule("no-rm", 0, "rm", false)];
        let r = reconcile(&mut ledger, &paths(&[P]), &[info(P, "bb", &rules)], &rules);
        assert_eq!(r.enforced.len(), 1);
        assert_eq!(r.enforced[0].target, Target::Prefix("git push".to_string()));
        let note = r.notes.last().unwrap();
        assert!(note.contains("no-push") && note.contains(P), "{note}");
        assert!(
            note.contains("removed") && note.contains("warden bless"),
            "{note}"
        );
        // The entry keeps the rule; enforcement repeats on the next call.
        assert_eq!(ledger.sources[P].protected.len(), 1);
        let again = reconcile(&mut ledger, &paths(&[P]), &[info(P, "bb", &rules)], &rules);
        assert_eq!(again.enforced.len(), 1);
        assert!(!again.changed);
    }

    #[test]
    fn changed_protected_rule_enforces_the_recorded_one() {
        let (mut ledger, _) = seen();
        let rules = vec![
            rule("no-push", 0, "git push --dry-run", true),
            rule("no-rm", 0, "rm", false),
        ];
        let r = reconcile(&mut ledger, &paths(&[P]), &[info(P, "bb", &rules)], &rules);
        assert_eq!(r.enforced.len(), 1);
        assert_eq!(r.enforced[0].target, Target::Prefix("git push".to_string()));
        assert!(r.notes.last().unwrap().contains("changed"));
        // The new version is a tightening and joins the entry; the old stays.
        let recorded = &ledger.sources[P].protected;
        assert_eq!(recorded.len(), 2);
        assert!(r.changed);
    }

    #[test]
    fn unprotecting_a_rule_counts_as_a_change() {
        let (mut ledger, _) = seen();
        let rules = vec![
            rule("no-push", 0, "git push", false),
            rule("no-rm", 0, "rm", false),
        ];
        let r = reconcile(&mut ledger, &paths(&[P]), &[info(P, "bb", &rules)], &rules);
        assert_eq!(r.enforced.len(), 1);
        assert!(r.enforced[0].protected);
    }

    #[test]
    fn moved_protected_rule_is_not_enforced() {
        let (mut ledger, _) = seen();
        // P is now the second source and the rule sits on another line.
        let other = vec![rule("x", 0, "x", false)];
        let mut moved = rule("no-push", 1, "git push", true);
        moved.line = Some(40);
        let rules = vec![
            other[0].clone(),
            moved.clone(),
            rule("no-rm", 1, "rm", false),
        ];
        let sources = [info(Q, "qq", &other), info(P, "cc", &rules[1..])];
        let r = reconcile(&mut ledger, &paths(&[Q, P]), &sources, &rules);
        assert!(r.enforced.is_empty(), "{:?}", r.notes);
        assert_eq!(ledger.sources[P].protected.len(), 1);
    }

    #[test]
    fn same_rule_ignores_only_the_location() {
        let a = rule("r", 0, "git push", true);
        let mut b = rule("r", 7, "git push", true);
        b.line = None;
        assert!(same_rule(&a, &b));
        let mut c = a.clone();
        c.decision = Decision::Ask;
        assert!(!same_rule(&a, &c));
        let mut d = a.clone();
        d.scope = Some("/tmp".to_string());
        assert!(!same_rule(&a, &d));
        let mut e = a.clone();
        e.misses.push("git status".to_string());
        assert!(!same_rule(&a, &e));
        let mut f = a.clone();
        f.priority += 1;
        assert!(!same_rule(&a, &f));
    }

    #[test]
    fn other_projects_are_left_alone() {
        let (mut ledger, rules) = seen();
        // A call in project Q: P is not a candidate, even though its rule is
        // missing from this call's rules.
        let q_rules = vec![rule("q", 0, "make", false)];
        let before = ledger.sources[P].clone();
        let r = reconcile(
            &mut ledger,
            &paths(&[Q]),
            &[info(Q, "qq", &q_rules)],
            &q_rules,
        );
        assert!(r.enforced.is_empty() && r.notes.is_empty());
        assert_eq!(ledger.sources[P], before);
        assert!(ledger.sources.contains_key(Q));
        // And bless in Q does not touch P either.
        bless(
            &mut ledger,
            &paths(&[Q]),
            &[info(Q, "qq", &q_rules)],
            &q_rules,
        );
        assert_eq!(ledger.sources[P], before);
        let _ = rules;
    }

    #[test]
    fn deleted_file_keeps_its_protected_rules() {
        let (mut ledger, _) = seen();
        let r = reconcile(&mut ledger, &paths(&[P]), &[], &[]);
        assert_eq!(r.enforced.len(), 1);
        assert!(r.notes[0].contains("gone"), "{}", r.notes[0]);
        assert!(!r.changed);
        assert!(ledger.sources.contains_key(P));
    }

    #[test]
    fn broken_file_keeps_its_protected_rules() {
        let (mut ledger, _) = seen();
        let mut broken = info(P, "zz", &[]);
        broken.error = Some("line 3: bad indentation".to_string());
        let r = reconcile(&mut ledger, &paths(&[P]), &[broken.clone()], &[]);
        assert_eq!(r.enforced.len(), 1);
        assert!(r.notes[0].contains("bad indentation"), "{}", r.notes[0]);
        // A broken file's hash is not recorded: it was not really seen.
        assert_eq!(ledger.sources[P].sha256, "aa");
        // Bless leaves it as it is and says why.
        let lines = bless(&mut ledger, &paths(&[P]), &[broken], &[]);
        assert_eq!(ledger.sources[P].protected.len(), 1);
        assert!(
            lines.iter().any(|l| l.contains("could not be loaded")),
            "{lines:?}"
        );
    }

    #[test]
    fn bless_clears_enforcement_and_forgets_gone_files() {
        let (mut ledger, _) = seen();
        let q_rules = vec![rule("q", 0, "make", true)];
        reconcile(
            &mut ledger,
            &paths(&[Q]),
            &[info(Q, "qq", &q_rules)],
            &q_rules,
        );
        // P loses its protected rule, Q is deleted.
        let rules = vec![rule("no-rm", 0, "rm", false)];
        let sources = [info(P, "bb", &rules)];
        let candidates = paths(&[P, Q]);
        let r = reconcile(&mut ledger, &candidates, &sources, &rules);
        assert_eq!(r.enforced.len(), 2);

        let lines = bless(&mut ledger, &candidates, &sources, &rules);
        assert_eq!(
            lines,
            vec![
                format!("blessed {P}: 0 protected rules (was 1)"),
                format!("forgot {Q} (file is gone)"),
            ]
        );
        assert!(!ledger.sources.contains_key(Q));
        assert_eq!(ledger.sources[P].sha256, "bb");
        let r = reconcile(&mut ledger, &candidates, &sources, &rules);
        assert!(r.enforced.is_empty() && r.notes.is_empty() && !r.changed);

        let lines = bless(&mut ledger, &candidates, &sources, &rules);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("nothing"), "{lines:?}");
    }

    #[test]
    fn notes_follow_candidate_and_record_order() {
        let mut ledger = Ledger::default();
        let rules = vec![
            rule("b", 0, "b", true),
            rule("a", 0, "a", true),
            rule("c", 1, "c", true),
        ];
        let sources = [info(Q, "q", &rules[..2]), info(P, "p", &rules[2..])];
        reconcile(&mut ledger, &paths(&[Q, P]), &sources, &rules);
        let r = reconcile(&mut ledger, &paths(&[Q, P]), &[], &[]);
        let ids: Vec<_> = r.enforced.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, vec!["b", "a", "c"]);
        assert_eq!(r.notes.len(), 3);
    }

    fn temp_path(tag: &str) -> std::path::PathBuf {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        std::env::temp_dir().join(format!(
            "warden-ledger-test-{tag}-{}-{nanos}",
            std::process::id()
        ))
    }

    #[test]
    fn save_load_round_trip() {
        let dir = temp_path("round");
        let path = dir.join("state").join("ledger.json");
        assert_eq!(load(&path).unwrap(), Ledger::default());
        let (ledger, _) = seen();
        save(&path, &ledger).unwrap();
        assert_eq!(load(&path).unwrap(), ledger);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\n  \"sources\""), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_ledger_is_an_error_naming_the_path() {
        let dir = temp_path("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ledger.json");
        for text in ["{\"version\": 1, \"sources\": {\"x\": 3}}", "{", "\u{0}"] {
            std::fs::write(&path, text).unwrap();
            let err = load(&path).unwrap_err();
            assert!(matches!(err, Error::State { .. }), "{err:?}");
            assert!(
                err.to_string().contains(&path.display().to_string()),
                "{err}"
            );
        }
        std::fs::write(&path, "{\"version\": 99, \"sources\": {}}").unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("newer"));
        // A directory where the file should be cannot be read.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(matches!(load(&path), Err(Error::State { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
