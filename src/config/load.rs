//! Turning a call's policy sources into one [`Policy`] through the cache and the ledger, and compiling afresh when a cached rule fails its check.
//!
//! Which files those are, and reading them, is [`sources`](super::sources)'s
//! business.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

use crate::config::cache::{self, KeyInput};
use crate::config::fingerprint::{self, Fingerprint};
use crate::config::ledger::{self, Ledger};
use crate::config::model::{
    Counts, RuleSpec, Settings, SourceDoc, SourceInfo, SourceKind, Target, Tier, ToolSel,
};
use crate::config::policy::{Policy, Recompile, Subjects};
pub use crate::config::sources::Locations;
use crate::config::sources::{discover, Candidate, Inputs};
use crate::config::{hermes, plugin, warden_file};
use crate::error::{Error, Result};
use crate::payload::ToolKind;

/// Cache files kept (one per set of policy files: one per project, roughly).
const MAX_CACHE_FILES: usize = 32;

/// What happened with the cache on this load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheStatus {
    /// Read from the cache: no YAML was parsed.
    Hit,
    /// Compiled and stored.
    Rebuilt,
    /// Compiled; no cache directory is known.
    Disabled,
    /// No policy file exists and the ledger is empty: nothing to compile.
    Unneeded,
    /// Compiled, but the cache could not be written (verdicts are unaffected).
    Unwritable(String),
}

/// A loaded policy and what to tell the user about it once.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub policy: Policy,
    /// Said once, when the sources changed (the ledger's notes).
    pub notes: Vec<String>,
    pub cache: CacheStatus,
    pub cache_file: Option<PathBuf>,
    /// Shared with a policy read from the cache, to learn whether it had to
    /// be compiled afresh.
    recovery: Option<Arc<Recovery>>,
}

impl Loaded {
    /// Brings `cache` up to date once the policy has been used: a rule read
    /// from the cache that failed its check had the policy compiled afresh
    /// and the cache rewritten.
    pub fn refresh_cache_status(&mut self) {
        if let Some(fresh) = self.recovery.as_ref().and_then(|r| r.fresh.get()) {
            self.cache = fresh.cache.clone();
        }
    }
}

/// Loads the policy for a call whose working directory is `cwd`.
pub fn load(locations: &Locations, cwd: Option<&Path>) -> Loaded {
    let mut inputs = discover(locations, cwd);
    let ledger_path = locations.ledger_path();
    let cache_file = cache_file(locations, &inputs);
    let files = fingerprints(&inputs.looked_at, ledger_path.as_deref());
    // Nothing to compile and nothing recorded: the built-in layers alone,
    // with no cache file written for every directory an agent visits.
    if files.iter().all(|f| f.len.is_none() && !f.unreadable) && inputs.named.is_empty() {
        return Loaded {
            policy: Policy::default(),
            notes: Vec::new(),
            cache: CacheStatus::Unneeded,
            cache_file: None,
            recovery: None,
        };
    }
    let Some(file) = cache_file else {
        inputs.read();
        let ledger_bytes = read_ledger(ledger_path.as_deref());
        return compile_and_store(&inputs, locations, None, ledger_bytes);
    };
    // Files unchanged since the cache was written: its key still holds, and
    // no policy file needs reading.
    if let Some(key) = fingerprint::recorded_key(&file, &files) {
        let policy = cache::read(&file, &cache::Key::from_bytes(key)).and_then(Policy::from_entry);
        if let Some(policy) = policy {
            return cached(policy, inputs, locations, file);
        }
    }
    inputs.read();
    let ledger_bytes = read_ledger(ledger_path.as_deref());
    let key = cache_key(&inputs, ledger_path.as_deref(), ledger_bytes.as_deref());
    if let Some(policy) = cache::read(&file, &key).and_then(Policy::from_entry) {
        // Touched but not changed: trust the files' new fingerprints.
        fingerprint::record(&file, &files, *key.as_bytes());
        return cached(policy, inputs, locations, file);
    }
    compile_and_store(&inputs, locations, Some(file), ledger_bytes)
}

/// A cache miss as a hook that read the ledger (`ledger_bytes`) before
/// another brought it up to date would handle it.
#[cfg(test)]
pub(super) fn load_with_ledger_read_before(
    locations: &Locations,
    ledger_bytes: Option<Vec<u8>>,
) -> Loaded {
    let mut inputs = discover(locations, None);
    inputs.read();
    let cache_file = cache_file(locations, &inputs);
    compile_and_store(&inputs, locations, cache_file, ledger_bytes)
}

/// The cache file for the sources `inputs` looked at, if a cache directory is known.
fn cache_file(locations: &Locations, inputs: &Inputs) -> Option<PathBuf> {
    locations.cache_dir.as_ref().map(|dir| {
        let paths: Vec<&str> = inputs.looked_at.iter().map(String::as_str).collect();
        dir.join(cache::file_name(&paths))
    })
}

/// The ledger's bytes, for the cache key; `None` if there is none.
fn read_ledger(path: Option<&Path>) -> Option<Vec<u8>> {
    path.and_then(|p| std::fs::read(p).ok())
}

/// What each file looked at, and the ledger, look like now.
fn fingerprints(looked_at: &[String], ledger_path: Option<&Path>) -> Vec<Fingerprint> {
    looked_at
        .iter()
        .map(|p| Fingerprint::of(Path::new(p)))
        .chain(ledger_path.map(Fingerprint::of))
        .collect()
}

/// The cache key of the read `inputs` and the ledger's bytes.
fn cache_key(
    inputs: &Inputs,
    ledger_path: Option<&Path>,
    ledger_bytes: Option<&[u8]>,
) -> cache::Key {
    // A file that exists but cannot be read must not share a key with an
    // absent one (both have no bytes): its key names it with the reason,
    // after a NUL, which no path contains.
    let names: Vec<String> = inputs
        .candidates
        .iter()
        .zip(&inputs.contents)
        .map(|(c, bytes)| {
            let path = c.path.to_str().unwrap_or("");
            match bytes {
                Some(Err(why)) => format!("{path}\0unreadable: {why}"),
                _ => path.to_string(),
            }
        })
        .collect();
    let mut keyed: Vec<KeyInput> = names
        .iter()
        .zip(&inputs.contents)
        .map(|(path, bytes)| KeyInput {
            path,
            bytes: match bytes {
                Some(Ok(b)) => Some(b.as_slice()),
                _ => None,
            },
        })
        .collect();
    keyed.push(KeyInput {
        path: ledger_path.and_then(Path::to_str).unwrap_or(""),
        bytes: ledger_bytes,
    });
    cache::key(&keyed)
}

/// A policy read from the cache, holding the way back to its sources
/// should one of its rules fail its check.
fn cached(policy: Policy, inputs: Inputs, locations: &Locations, file: PathBuf) -> Loaded {
    let recovery = Arc::new(Recovery {
        inputs,
        locations: locations.clone(),
        cache_file: file.clone(),
        fresh: OnceLock::new(),
    });
    Loaded {
        policy: policy.with_recovery(recovery.clone()),
        notes: Vec::new(),
        cache: CacheStatus::Hit,
        cache_file: Some(file),
        recovery: Some(recovery),
    }
}

/// What a cache miss does: compiles the read `inputs`, brings the ledger
/// up to date, and stores the policy in `cache_file` under a key that
/// covers the ledger it applied (`ledger_bytes`: as it was read before,
/// kept only when the ledger could not be read).
fn compile_and_store(
    inputs: &Inputs,
    locations: &Locations,
    cache_file: Option<PathBuf>,
    mut ledger_bytes: Option<Vec<u8>>,
) -> Loaded {
    let ledger_path = locations.ledger_path();
    let damage = cache_file.as_deref().and_then(cache::damage);
    let (mut policy, sources_rules) = compile(inputs);
    let (mut notes, applied) = match &ledger_path {
        Some(path) => apply_ledger(&mut policy, inputs, locations, path, &sources_rules),
        None => (Vec::new(), Applied::Unreadable),
    };
    // The key names the ledger the policy was made with. Another hook may
    // have brought the ledger up to date since this one first read it (a
    // config change meets many calls at once); a key from that first read
    // would name a ledger that is gone, and the entry would never be hit.
    if let Applied::Ledger(bytes) = applied {
        ledger_bytes = bytes;
    }
    let key = cache_key(inputs, ledger_path.as_deref(), ledger_bytes.as_deref());
    let cache = match &cache_file {
        None => CacheStatus::Disabled,
        Some(file) => store(
            &policy,
            file,
            &key,
            &inputs.looked_at,
            ledger_path.as_deref(),
        ),
    };
    // A damaged entry is healed by the write above; say so once. A cache
    // that cannot be written is said on every call, since every call pays.
    match (&cache, damage, &cache_file) {
        (CacheStatus::Unwritable(why), _, _) => notes.push(format!(
            "warden: the policy cache could not be written ({why}); verdicts are unaffected, but every call compiles the policy"
        )),
        (_, Some(why), Some(file)) => notes.push(format!(
            "warden: the policy cache {} {why}; it was rebuilt",
            file.display()
        )),
        _ => {}
    }
    Loaded {
        policy,
        notes,
        cache,
        cache_file,
        recovery: None,
    }
}

/// The ledger a compiled policy was made with.
enum Applied {
    /// Its bytes, as read or as saved; `None`: there is no ledger file.
    Ledger(Option<Vec<u8>>),
    /// It could not be read (or no ledger is kept): the policy says so.
    Unreadable,
}

/// Reconciles the ledger at `path` with what was compiled: protected rules
/// the ledger keeps enforcing join the policy, and the ledger is saved if
/// it changed. Returns the notes for the user and the ledger applied.
fn apply_ledger(
    policy: &mut Policy,
    inputs: &Inputs,
    locations: &Locations,
    path: &Path,
    sources_rules: &[RuleSpec],
) -> (Vec<String>, Applied) {
    let (mut book, read) = match ledger::read(path) {
        Ok(found) => found,
        Err(err) => {
            policy.problems.push(format!(
                "warden: {err}; protected rules cannot be checked until `warden bless` is run from a terminal"
            ));
            return (Vec::new(), Applied::Unreadable);
        }
    };
    let looked_at = ledger_candidates(inputs, &book, locations);
    let reconciled = ledger::reconcile(&mut book, &looked_at, &policy.sources, sources_rules);
    let mut notes = reconciled.notes;
    let enforced = reconciled
        .enforced
        .into_iter()
        .map(|rule| (recorded_path(&book, &rule), rule))
        .collect();
    enforce(policy, inputs, locations, enforced);
    if !reconciled.changed {
        return (notes, Applied::Ledger(read));
    }
    match ledger::save(path, &book) {
        Ok(written) => (notes, Applied::Ledger(Some(written))),
        Err(err) => {
            // The next call reads the ledger on disk and reconciles again.
            notes.push(format!("warden: could not record the ledger: {err}"));
            (notes, Applied::Ledger(read))
        }
    }
}

/// Writes `policy` to the cache `file` under `key`, and records beside it
/// the fingerprints that let the next call trust it without re-hashing.
fn store(
    policy: &Policy,
    file: &Path,
    key: &cache::Key,
    looked_at: &[String],
    ledger_path: Option<&Path>,
) -> CacheStatus {
    let written = policy
        .to_parts()
        .ok_or_else(|| Error::State {
            path: crate::path::text(file),
            message: "cannot encode the compiled policy".into(),
        })
        .and_then(|(head, rules)| cache::write(file, key, &head, rules));
    match written {
        Ok(()) => {
            fingerprint::record(file, &fingerprints(looked_at, ledger_path), *key.as_bytes());
            if let Some(dir) = file.parent() {
                cache::prune(dir, MAX_CACHE_FILES);
            }
            CacheStatus::Rebuilt
        }
        Err(err) => CacheStatus::Unwritable(err.to_string()),
    }
}

/// The way back from a policy read from the cache to its sources: on the
/// first rule that fails its check, the entry is thrown away and the same
/// sources are read and compiled again, as on a cache miss.
struct Recovery {
    inputs: Inputs,
    locations: Locations,
    cache_file: PathBuf,
    fresh: OnceLock<Loaded>,
}

impl Recompile for Recovery {
    fn fresh(&self) -> &Policy {
        let loaded = self.fresh.get_or_init(|| {
            // Silently, like any other damaged cache: the answer is the same.
            discard(&self.cache_file);
            let inputs = self.inputs.reread();
            let ledger_bytes = read_ledger(self.locations.ledger_path().as_deref());
            compile_and_store(
                &inputs,
                &self.locations,
                Some(self.cache_file.clone()),
                ledger_bytes,
            )
        });
        &loaded.policy
    }

    fn recompiled(&self) -> Option<&Policy> {
        self.fresh.get().map(|loaded| &loaded.policy)
    }
}

// By hand: the inputs can hold every policy file's bytes.
impl fmt::Debug for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Recovery")
            .field("cache_file", &self.cache_file)
            .field("recompiled", &self.fresh.get().is_some())
            .finish_non_exhaustive()
    }
}

/// Throws away a cache entry and the fingerprints recorded beside it, so
/// nothing reads it again.
fn discard(cache_file: &Path) {
    let _ = std::fs::remove_file(cache_file);
    let _ = std::fs::remove_file(fingerprint::stamp_path(cache_file));
}

/// Records the current sources as trusted: protected rules that were
/// removed or changed stop being enforced.
pub fn bless(locations: &Locations, cwd: Option<&Path>) -> Result<Vec<String>> {
    let path = locations.ledger_path().ok_or_else(|| Error::State {
        path: "ledger".into(),
        message: "no state directory is known (HOME and XDG_STATE_HOME are unset)".into(),
    })?;
    let mut inputs = discover(locations, cwd);
    inputs.read();
    let (policy, rules) = compile(&inputs);
    // A corrupt ledger is exactly what blessing repairs.
    let mut book = ledger::load(&path).unwrap_or_default();
    let looked_at = ledger_candidates(&inputs, &book, locations);
    let lines = ledger::bless(&mut book, &looked_at, &policy.sources, &rules);
    ledger::save(&path, &book)?;
    Ok(lines)
}

/// Compiles without cache or ledger, for `warden lint`: the policy with
/// every problem found (broken files, rules whose examples misbehave).
pub fn lint(locations: &Locations, cwd: Option<&Path>) -> Policy {
    let mut inputs = discover(locations, cwd);
    inputs.read();
    compile(&inputs).0
}

/// Parses every source, checks rule examples, merges settings. Returns the
/// policy and the rules as written (for the ledger, before any rule the
/// ledger itself adds).
fn compile(inputs: &Inputs) -> (Policy, Vec<RuleSpec>) {
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
        let (doc, sha, error) = match content {
            Ok(bytes) => {
                let sha = hex(&Sha256::digest(bytes));
                match parse(candidate, &path, bytes) {
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
            broken = true;
            problems.push(format!("warden: policy file unusable: {error}"));
        }
        for warning in &doc.warnings {
            problems.push(format!("warden: {path}: {warning}"));
        }
        let mut doc = doc;
        if candidate.tier == Tier::Project && doc.settings.audit.take().is_some() {
            problems.push(format!(
                "warden: {path}: `audit` is ignored in a project file: only your own \
                 config or a managed one chooses where your commands are logged"
            ));
        }
        sources.push(SourceInfo {
            path: path.clone(),
            tier: candidate.tier,
            kind: candidate.kind,
            sha256: sha,
            counts: Counts::of(&doc.rules),
            error,
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
    let settings = merge(&sources, settings_in_order);
    let as_written = rules.clone();
    let mut policy = Policy::new(sources, settings, rules);
    for rule in &as_written {
        problems.extend(check_examples(&policy, rule));
    }
    policy.problems = problems;
    policy.broken = broken;
    (policy, as_written)
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

/// Merges scalar settings: weaker sources first, so a stronger tier's value
/// wins; within a tier the file listed first wins (warden's own file over
/// Hermes' files). Exemptions add up.
fn merge(sources: &[SourceInfo], settings: Vec<Settings>) -> Settings {
    let mut order: Vec<usize> = (0..settings.len()).collect();
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

/// Every path the ledger may hold an opinion about for this call: what was
/// looked at, plus recorded files inside the directories that were listed
/// (a deleted `/etc/warden/x.yaml` is still "looked at").
fn ledger_candidates(inputs: &Inputs, book: &Ledger, locations: &Locations) -> Vec<String> {
    let mut out = inputs.looked_at.clone();
    let mut dirs: Vec<PathBuf> = Vec::new();
    dirs.extend(locations.managed_dir.clone());
    if let Some(hermes) = &locations.hermes_home {
        dirs.push(hermes.join("custom-dangerous-patterns"));
    }
    dirs.extend(locations.custom_patterns.clone());
    for path in book.sources.keys() {
        let p = Path::new(path);
        if dirs.iter().any(|d| p.parent() == Some(d.as_path())) && !out.contains(path) {
            out.push(path.clone());
        }
    }
    out
}

/// The tier and format of a file that is no longer there, from where it was.
fn place_of(path: &Path, locations: &Locations) -> (Tier, SourceKind) {
    let parent = path.parent();
    if locations
        .managed_dir
        .as_deref()
        .is_some_and(|d| parent == Some(d))
    {
        return (Tier::Managed, SourceKind::Warden);
    }
    if locations.warden_config.as_deref() == Some(path) {
        return (Tier::Environment, SourceKind::Warden);
    }
    match path.file_name().and_then(|n| n.to_str()) {
        Some(".warden.yaml") => (Tier::Project, SourceKind::Warden),
        Some("permissions.yaml") => (Tier::Project, SourceKind::Permissions),
        Some("trust.json") => (Tier::User, SourceKind::Trust),
        _ if locations
            .hermes_home
            .as_deref()
            .is_some_and(|h| parent == Some(h))
            && path.file_name().is_some_and(|n| n == "config.yaml") =>
        {
            (Tier::User, SourceKind::HermesConfig)
        }
        _ if locations
            .config_home
            .as_deref()
            .is_some_and(|c| path.starts_with(c)) =>
        {
            (Tier::User, SourceKind::Warden)
        }
        _ => (Tier::User, SourceKind::Plugin),
    }
}

/// The file a protected rule kept by the ledger was recorded from.
fn recorded_path(book: &Ledger, rule: &RuleSpec) -> String {
    book.sources
        .iter()
        .find(|(_, entry)| entry.protected.iter().any(|r| ledger::same_rule(r, rule)))
        .map_or_else(|| "an unknown file".to_string(), |(path, _)| path.clone())
}

/// Adds the protected rules the ledger still enforces, each with a source
/// entry that says where it came from.
fn enforce(
    policy: &mut Policy,
    inputs: &Inputs,
    locations: &Locations,
    enforced: Vec<(String, RuleSpec)>,
) {
    if enforced.is_empty() {
        return;
    }
    let mut sources = policy.sources.clone();
    let mut rules = policy.rules();
    for (path, mut rule) in enforced {
        // It keeps the tier of the file it was recorded from: a managed
        // rule deleted from /etc/warden still beats a project's allow.
        let (tier, kind) = inputs
            .candidates
            .iter()
            .find(|c| c.path == Path::new(&path))
            .map_or_else(
                || place_of(Path::new(&path), locations),
                |c| (c.tier, c.kind),
            );
        let label = format!("{path} (kept by warden's ledger: protected, no longer in the file)");
        policy.problems.push(format!(
            "warden: protected rule {} of {path} was removed or changed; warden keeps enforcing it until `warden bless` is run from a terminal",
            rule.id
        ));
        rule.source = sources.len() as u32;
        rule.line = None;
        sources.push(SourceInfo {
            path: label,
            tier,
            kind,
            sha256: String::new(),
            counts: Counts::of(std::slice::from_ref(&rule)),
            error: None,
        });
        rules.push(rule);
    }
    let problems = std::mem::take(&mut policy.problems);
    let broken = policy.broken;
    *policy = Policy::new(sources, policy.settings.clone(), rules);
    policy.problems = problems;
    policy.broken = broken;
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}
