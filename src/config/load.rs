//! Finding every policy source for a call, and turning them into one [`Policy`] through the cache and the ledger.
//!
//! Sources, strongest first: managed (`/etc/warden/*.yaml`), project
//! (`.warden.yaml` and `.hermes/permissions.yaml`, walking up from the
//! working directory), user (`~/.config/warden/config.yaml`, the
//! custom-patterns plugin's YAML, `~/.hermes/config.yaml`,
//! `~/.hermes/trust.json`), environment (`WARDEN_CONFIG`).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::config::cache::{self, KeyInput};
use crate::config::fingerprint::{self, Fingerprint};
use crate::config::ledger::{self, Ledger};
use crate::config::model::{
    Counts, RuleSpec, Settings, SourceDoc, SourceInfo, SourceKind, Target, Tier, ToolSel,
};
use crate::config::policy::{Policy, Subjects};
use crate::config::{hermes, plugin, warden_file};
use crate::error::{Error, Result};
use crate::payload::ToolKind;

/// A policy file larger than this is refused rather than read.
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// Cache files kept (one per set of policy files: one per project, roughly).
const MAX_CACHE_FILES: usize = 32;

/// Where the policy files, the cache and the ledger live. Read from the
/// environment by the caller, so tests can point everything elsewhere.
#[derive(Debug, Clone, Default)]
pub struct Locations {
    pub home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub config_home: Option<PathBuf>,
    /// `$XDG_CACHE_HOME/warden`, else `~/.cache/warden`.
    pub cache_dir: Option<PathBuf>,
    /// `$XDG_STATE_HOME/warden`, else `~/.local/state/warden`.
    pub state_dir: Option<PathBuf>,
    /// `$HERMES_HOME`, else `~/.hermes`.
    pub hermes_home: Option<PathBuf>,
    /// `HERMES_CUSTOM_PATTERNS_PATH`: a file, or a directory of `*.yaml`.
    pub custom_patterns: Option<PathBuf>,
    /// `WARDEN_CONFIG`.
    pub warden_config: Option<PathBuf>,
    /// `/etc/warden` (`WARDEN_MANAGED_DIR` moves it, for tests and packagers).
    pub managed_dir: Option<PathBuf>,
    /// `WARDEN_PROJECT_CEILING`: the search for a project file stops below
    /// this directory (as `GIT_CEILING_DIRECTORIES` does for git), so tests
    /// cannot pick up a file above their checkout.
    pub project_ceiling: Option<PathBuf>,
}

impl Locations {
    /// Reads the locations from environment variables, given a lookup.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Locations {
        let path = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = path("HOME");
        let under_home = |rel: &str| home.as_ref().map(|h| h.join(rel));
        Locations {
            config_home: path("XDG_CONFIG_HOME").or_else(|| under_home(".config")),
            cache_dir: path("XDG_CACHE_HOME")
                .or_else(|| under_home(".cache"))
                .map(|d| d.join("warden")),
            state_dir: path("XDG_STATE_HOME")
                .or_else(|| under_home(".local/state"))
                .map(|d| d.join("warden")),
            hermes_home: path("HERMES_HOME").or_else(|| under_home(".hermes")),
            custom_patterns: path("HERMES_CUSTOM_PATTERNS_PATH"),
            warden_config: path("WARDEN_CONFIG"),
            managed_dir: Some(
                path("WARDEN_MANAGED_DIR").unwrap_or_else(|| PathBuf::from("/etc/warden")),
            ),
            project_ceiling: path("WARDEN_PROJECT_CEILING"),
            home,
        }
    }

    pub fn ledger_path(&self) -> Option<PathBuf> {
        self.state_dir.as_ref().map(|d| d.join("ledger.json"))
    }
}

/// A file that may hold policy.
#[derive(Debug, Clone)]
struct Candidate {
    path: PathBuf,
    tier: Tier,
    kind: SourceKind,
    /// The directory relative rules are relative to (a project's root).
    base: Option<String>,
}

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
}

/// The sources that apply to a call in `cwd`, read and hashed.
struct Inputs {
    candidates: Vec<Candidate>,
    /// Every path looked at, for the ledger: a file that was there and is
    /// gone is still a candidate.
    looked_at: Vec<String>,
    /// Bytes of each candidate, or why it could not be read (`None`: absent).
    contents: Vec<Option<std::result::Result<Vec<u8>, String>>>,
    /// Files an environment variable names, which must exist.
    named: Vec<PathBuf>,
}

/// Loads the policy for a call whose working directory is `cwd`.
pub fn load(locations: &Locations, cwd: Option<&Path>) -> Loaded {
    let mut inputs = discover(locations, cwd);
    let ledger_path = locations.ledger_path();
    let cache_file = locations.cache_dir.as_ref().map(|dir| {
        let paths: Vec<&str> = inputs.looked_at.iter().map(String::as_str).collect();
        dir.join(cache::file_name(&paths))
    });
    let looked_at = inputs.looked_at.clone();
    let stamps = |ledger_path: Option<&Path>| -> Vec<Fingerprint> {
        looked_at
            .iter()
            .map(|p| Fingerprint::of(Path::new(p)))
            .chain(ledger_path.map(Fingerprint::of))
            .collect()
    };
    let files = stamps(ledger_path.as_deref());
    // Nothing to compile and nothing recorded: the built-in layers alone,
    // with no cache file written for every directory an agent visits.
    if files.iter().all(|f| f.len.is_none()) && inputs.named.is_empty() {
        return Loaded {
            policy: Policy::default(),
            notes: Vec::new(),
            cache: CacheStatus::Unneeded,
            cache_file: None,
        };
    }
    // Files unchanged since the cache was written: its key still holds, and
    // no policy file needs reading.
    if let Some(file) = &cache_file {
        if let Some(key) = fingerprint::recorded_key(file, &files) {
            let policy =
                cache::read_split(file, &cache::Key::from_bytes(key)).and_then(Policy::from_entry);
            if let Some(policy) = policy {
                return Loaded {
                    policy,
                    notes: Vec::new(),
                    cache: CacheStatus::Hit,
                    cache_file,
                };
            }
        }
    }
    inputs.read();
    let ledger_bytes = ledger_path.as_deref().and_then(|p| std::fs::read(p).ok());
    let key_of = |ledger_bytes: Option<&[u8]>| {
        let mut keyed: Vec<KeyInput> = inputs
            .candidates
            .iter()
            .zip(&inputs.contents)
            .map(|(c, bytes)| KeyInput {
                path: c.path.to_str().unwrap_or(""),
                bytes: match bytes {
                    Some(Ok(b)) => Some(b.as_slice()),
                    _ => None,
                },
            })
            .collect();
        let ledger_name = ledger_path.as_deref().and_then(Path::to_str).unwrap_or("");
        keyed.push(KeyInput {
            path: ledger_name,
            bytes: ledger_bytes,
        });
        cache::key(&keyed)
    };
    let key = key_of(ledger_bytes.as_deref());
    if let Some(file) = &cache_file {
        if let Some(policy) = cache::read_split(file, &key).and_then(Policy::from_entry) {
            // Touched but not changed: trust the files' new fingerprints.
            fingerprint::record(file, &files, *key.as_bytes());
            return Loaded {
                policy,
                notes: Vec::new(),
                cache: CacheStatus::Hit,
                cache_file,
            };
        }
    }
    let (mut policy, sources_rules) = compile(&inputs);
    let mut notes = Vec::new();
    let mut ledger_bytes = ledger_bytes;
    if let Some(path) = &ledger_path {
        match ledger::load(path) {
            Ok(mut book) => {
                let looked_at = ledger_candidates(&inputs, &book, locations);
                let reconciled =
                    ledger::reconcile(&mut book, &looked_at, &policy.sources, &sources_rules);
                notes.extend(reconciled.notes);
                let enforced = reconciled
                    .enforced
                    .into_iter()
                    .map(|rule| (recorded_path(&book, &rule), rule))
                    .collect();
                enforce(&mut policy, &inputs, locations, enforced);
                if reconciled.changed {
                    match ledger::save(path, &book) {
                        Ok(()) => ledger_bytes = std::fs::read(path).ok(),
                        Err(err) => notes.push(format!("warden: could not record the ledger: {err}")),
                    }
                }
            }
            Err(err) => policy.problems.push(format!(
                "warden: {err}; protected rules cannot be checked until `warden bless` is run from a terminal"
            )),
        }
    }
    let key = key_of(ledger_bytes.as_deref());
    let cache = match &cache_file {
        None => CacheStatus::Disabled,
        Some(file) => match policy
            .to_parts()
            .ok_or_else(|| Error::State {
                path: file.display().to_string(),
                message: "cannot encode the compiled policy".into(),
            })
            .and_then(|(head, rules)| cache::write_split(file, &key, &head, rules))
        {
            Ok(()) => {
                fingerprint::record(file, &stamps(ledger_path.as_deref()), *key.as_bytes());
                if let Some(dir) = file.parent() {
                    cache::prune(dir, MAX_CACHE_FILES);
                }
                CacheStatus::Rebuilt
            }
            Err(err) => CacheStatus::Unwritable(err.to_string()),
        },
    };
    Loaded {
        policy,
        notes,
        cache,
        cache_file,
    }
}

/// Throws away the cache entry `loaded` came from (a rule in it failed its
/// check), so the next load compiles afresh.
pub fn discard(loaded: &Loaded) {
    if let Some(file) = &loaded.cache_file {
        let _ = std::fs::remove_file(file);
        let _ = std::fs::remove_file(file.with_extension("stamp"));
    }
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

impl Inputs {
    /// Reads every candidate file.
    fn read(&mut self) {
        self.contents = self
            .candidates
            .iter()
            .map(|c| read_source(&c.path))
            .collect();
    }
}

/// Finds the files that may hold policy for a call in `cwd`, without
/// reading them.
fn discover(locations: &Locations, cwd: Option<&Path>) -> Inputs {
    let mut candidates = Vec::new();
    let mut looked_at = Vec::new();
    let add = |path: PathBuf, tier, kind, base: Option<String>, list: &mut Vec<Candidate>| {
        list.push(Candidate {
            path,
            tier,
            kind,
            base,
        });
    };
    if let Some(dir) = &locations.managed_dir {
        for path in yaml_files(dir) {
            add(
                path,
                Tier::Managed,
                SourceKind::Warden,
                None,
                &mut candidates,
            );
        }
    }
    if let Some(cwd) = cwd {
        for dir in cwd.ancestors() {
            if locations.project_ceiling.as_deref() == Some(dir) {
                break;
            }
            let warden = dir.join(".warden.yaml");
            let permissions = dir.join(".hermes").join("permissions.yaml");
            looked_at.push(warden.display().to_string());
            looked_at.push(permissions.display().to_string());
            let base = Some(dir.display().to_string());
            // Every project file from here up applies (nested projects
            // add to their parents'), so a file planted nearer the working
            // directory cannot hide the project's rules. Something that is
            // there but is not a file is a candidate too: reading it fails
            // and says so, rather than being skipped.
            if warden.symlink_metadata().is_ok() {
                add(
                    warden,
                    Tier::Project,
                    SourceKind::Warden,
                    base.clone(),
                    &mut candidates,
                );
            }
            if permissions.symlink_metadata().is_ok() {
                add(
                    permissions,
                    Tier::Project,
                    SourceKind::Permissions,
                    base,
                    &mut candidates,
                );
            }
        }
    }
    if let Some(config) = &locations.config_home {
        add(
            config.join("warden").join("config.yaml"),
            Tier::User,
            SourceKind::Warden,
            None,
            &mut candidates,
        );
    }
    for path in plugin_files(locations) {
        add(path, Tier::User, SourceKind::Plugin, None, &mut candidates);
    }
    if let Some(hermes) = &locations.hermes_home {
        add(
            hermes.join("config.yaml"),
            Tier::User,
            SourceKind::HermesConfig,
            None,
            &mut candidates,
        );
        add(
            hermes.join("trust.json"),
            Tier::User,
            SourceKind::Trust,
            None,
            &mut candidates,
        );
    }
    if let Some(path) = &locations.warden_config {
        add(
            path.clone(),
            Tier::Environment,
            SourceKind::Warden,
            None,
            &mut candidates,
        );
    }
    for c in &candidates {
        let path = c.path.display().to_string();
        if !looked_at.contains(&path) {
            looked_at.push(path);
        }
    }
    let named = [&locations.warden_config, &locations.custom_patterns]
        .into_iter()
        .flatten()
        .filter(|p| !p.is_dir())
        .cloned()
        .collect();
    Inputs {
        candidates,
        looked_at,
        contents: Vec::new(),
        named,
    }
}

/// The plugin's files: `HERMES_CUSTOM_PATTERNS_PATH` (a file or a
/// directory), else `custom-dangerous-patterns.yaml`, else every `*.yaml` in
/// `custom-dangerous-patterns/`, in name order.
fn plugin_files(locations: &Locations) -> Vec<PathBuf> {
    if let Some(path) = &locations.custom_patterns {
        return if path.is_dir() {
            yaml_files(path)
        } else {
            vec![path.clone()]
        };
    }
    let Some(hermes) = &locations.hermes_home else {
        return Vec::new();
    };
    let single = hermes.join("custom-dangerous-patterns.yaml");
    if single.exists() {
        return vec![single];
    }
    let listed = yaml_files(&hermes.join("custom-dangerous-patterns"));
    if listed.is_empty() {
        vec![single]
    } else {
        listed
    }
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    files
}

fn read_source(path: &Path) -> Option<std::result::Result<Vec<u8>, String>> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => return Some(Err(format!("cannot be read: {err}"))),
    };
    let mut bytes = Vec::new();
    match file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() as u64 > MAX_SOURCE_BYTES => Some(Err(format!(
            "is larger than the {MAX_SOURCE_BYTES}-byte limit for a policy file"
        ))),
        Ok(_) => Some(Ok(bytes)),
        Err(err) => Some(Err(format!("cannot be read: {err}"))),
    }
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
        let named = locations_name(inputs, candidate);
        let missing;
        let content = match (content, named) {
            (Some(content), _) => content,
            (None, Some(variable)) => {
                missing = Err(format!("does not exist, but {variable} names it"));
                &missing
            }
            (None, None) => continue,
        };
        let path = candidate.path.display().to_string();
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

/// The environment variable that named `candidate`, if one did.
fn locations_name(inputs: &Inputs, candidate: &Candidate) -> Option<&'static str> {
    if inputs.named.contains(&candidate.path) {
        Some(match candidate.kind {
            SourceKind::Plugin => "HERMES_CUSTOM_PATTERNS_PATH",
            _ => "WARDEN_CONFIG",
        })
    } else {
        None
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
