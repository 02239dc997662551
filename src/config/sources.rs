//! Where a call's policy comes from: the places warden looks for policy files, and reading them.
//!
//! Sources, strongest first: managed (`/etc/warden/*.yaml`), project
//! (`.warden.yaml` and `.hermes/permissions.yaml`, walking up from the
//! working directory), user (`~/.config/warden/config.yaml`, the
//! custom-patterns plugin's YAML, `~/.hermes/config.yaml`,
//! `~/.hermes/trust.json`), environment (`WARDEN_CONFIG`). Each is found
//! with its standing's [`Claim`] (see `standing`): what an environment
//! variable moved away from, or a project file no one trusted, is found too,
//! and only tightens.

use std::path::{Path, PathBuf};

use crate::config::fingerprint::Fingerprint;
use crate::config::model::{SourceKind, Tier};
use crate::config::standing::{self, Claim, DEFAULT_MANAGED_DIR};
use crate::config::trusted;

/// A policy file larger than this is refused rather than read.
pub(crate) const MAX_SOURCE_BYTES: u64 = 16 * 1024 * 1024;

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
    /// The variables above that were set, as set: each could loosen the
    /// guard, so `environment::vet` judges them and `why` and `doctor`
    /// name them.
    pub variables: Vec<(&'static str, String)>,
    /// The places `environment::vet` would not use, with the variable that
    /// named each: the policy files there still tighten.
    pub ignored: Vec<(&'static str, PathBuf)>,
}

impl Locations {
    /// Reads the locations from environment variables, given a lookup.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Locations {
        let path = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = path("HOME");
        let under_home = |rel: &str| home.as_ref().map(|h| h.join(rel));
        let variables = [
            "WARDEN_MANAGED_DIR",
            "WARDEN_CONFIG",
            "WARDEN_PROJECT_CEILING",
            "XDG_CONFIG_HOME",
            "XDG_CACHE_HOME",
            "XDG_STATE_HOME",
            "HERMES_HOME",
            "HERMES_CUSTOM_PATTERNS_PATH",
        ]
        .into_iter()
        .filter_map(|name| Some((name, var(name).filter(|v| !v.is_empty())?)))
        .collect();
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
                path("WARDEN_MANAGED_DIR").unwrap_or_else(|| PathBuf::from(DEFAULT_MANAGED_DIR)),
            ),
            project_ceiling: path("WARDEN_PROJECT_CEILING"),
            home,
            variables,
            ignored: Vec::new(),
        }
    }

    /// The integrity ledger's file.
    pub(crate) fn ledger_path(&self) -> Option<PathBuf> {
        self.state_dir.as_ref().map(|d| d.join("ledger.json"))
    }

    /// The record of the project files the person trusted.
    pub fn trust_store(&self) -> Option<PathBuf> {
        self.state_dir.as_ref().map(|d| d.join(trusted::FILE))
    }

    /// `~/.config`, `~/.hermes`: where a location is when no variable moves it.
    fn default_under_home(&self, rel: &str) -> Option<PathBuf> {
        self.home.as_ref().map(|h| h.join(rel))
    }
}

/// A file that may hold policy.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub(crate) path: PathBuf,
    pub(crate) tier: Tier,
    pub(crate) kind: SourceKind,
    /// The directory relative rules are relative to (a project's root).
    pub(crate) base: Option<String>,
    /// What may be trusted of it, before its bytes are read.
    pub(crate) claim: Claim,
}

impl Candidate {
    fn new(path: PathBuf, tier: Tier, kind: SourceKind, base: Option<String>) -> Candidate {
        Candidate {
            path,
            tier,
            kind,
            base,
            claim: Claim::Trusted,
        }
    }

    fn claiming(mut self, claim: Claim) -> Candidate {
        self.claim = claim;
        self
    }
}

/// The sources that apply to a call in `cwd`, read and hashed.
#[derive(Clone)]
pub(crate) struct Inputs {
    pub(crate) candidates: Vec<Candidate>,
    /// Every path looked at, for the ledger: a file that was there and is
    /// gone is still a candidate.
    pub(crate) looked_at: Vec<String>,
    /// Bytes of each candidate, or why it could not be read (`None`: absent).
    pub(crate) contents: Vec<Option<Result<Vec<u8>, String>>>,
    /// How each candidate looked as it was read.
    pub(crate) seen: Vec<Seen>,
    /// Files an environment variable names, which must exist.
    pub(crate) named: Vec<PathBuf>,
}

/// How a candidate looked as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seen {
    /// Its `stat` once the bytes were read.
    pub(crate) stat: Fingerprint,
    /// Its size, times and inode were the same before and after the read,
    /// and as many bytes were read as its size says: no write or rename
    /// happened in the middle of the read.
    pub(crate) whole: bool,
}

impl Inputs {
    /// Reads every candidate file.
    pub(crate) fn read(&mut self) {
        (self.contents, self.seen) = self.candidates.iter().map(|c| read_source(&c.path)).unzip();
    }

    /// Whether `other` found the same files with the same bytes, sizes,
    /// times and inodes, each read whole.
    pub(crate) fn same_as(&self, other: &Inputs) -> bool {
        let paths = |i: &Inputs| {
            i.candidates
                .iter()
                .map(|c| c.path.clone())
                .collect::<Vec<_>>()
        };
        paths(self) == paths(other)
            && self.contents == other.contents
            && self.seen == other.seen
            && self.seen.iter().all(|s| s.whole)
    }

    /// Marks the file at `path` as unusable for `why`, adding it as a
    /// candidate of `tier` and `kind` if it is not one (a file that is gone).
    pub(crate) fn refuse(&mut self, path: &Path, why: String, tier: Tier, kind: SourceKind) {
        match self.candidates.iter().position(|c| c.path == path) {
            Some(at) => self.contents[at] = Some(Err(why)),
            None => {
                let base = (tier == Tier::Project)
                    .then(|| project_root(path))
                    .flatten()
                    .map(crate::path::text);
                let claim = Claim::TightenOnly("it could not be read whole".into());
                self.candidates
                    .push(Candidate::new(path.to_path_buf(), tier, kind, base).claiming(claim));
                self.contents.push(Some(Err(why)));
                self.seen.push(Seen {
                    stat: Fingerprint::of(path),
                    whole: true,
                });
            }
        }
    }

    /// Every candidate's claim, in order, for the cache key and the cache
    /// file's name: a policy compiled under one standing must not answer
    /// for another (a file trusted or no longer trusted, a directory made
    /// world-writable). The candidates' paths are in both already.
    pub(crate) fn standing_key(&self) -> String {
        let mut key = String::new();
        for c in &self.candidates {
            key.push_str(&c.claim.key());
            key.push('\n');
        }
        key
    }

    /// The environment variable that named `candidate`, if one did.
    pub(crate) fn named_by(&self, candidate: &Candidate) -> Option<&'static str> {
        if self.named.contains(&candidate.path) {
            Some(match candidate.kind {
                SourceKind::Plugin => "HERMES_CUSTOM_PATTERNS_PATH",
                _ => "WARDEN_CONFIG",
            })
        } else {
            None
        }
    }
}

/// Finds the files that may hold policy for a call in `cwd`, without
/// reading them, strongest tier first, each with its claim.
pub(crate) fn discover(locations: &Locations, cwd: Option<&Path>) -> Inputs {
    let person = standing::person();
    let mut candidates = Vec::new();
    let mut looked_at = Vec::new();
    if let Some(dir) = &locations.managed_dir {
        let moved = dir != Path::new(DEFAULT_MANAGED_DIR);
        managed_files(
            dir,
            moved.then_some("WARDEN_MANAGED_DIR"),
            person,
            &mut candidates,
        );
        // Moving the managed directory does not take the administrator's
        // policy away.
        if moved {
            managed_files(
                Path::new(DEFAULT_MANAGED_DIR),
                None,
                person,
                &mut candidates,
            );
        }
    }
    if let Some(cwd) = cwd {
        project_files(locations, cwd, person, &mut candidates, &mut looked_at);
    }
    let user = |path, kind| Candidate::new(path, Tier::User, kind, None);
    if let Some(config) = &locations.config_home {
        let path = config.join("warden").join("config.yaml");
        candidates.push(user(path, SourceKind::Warden));
    }
    for path in plugin_files(locations) {
        candidates.push(user(path, SourceKind::Plugin));
    }
    if let Some(hermes) = &locations.hermes_home {
        candidates.push(user(hermes.join("config.yaml"), SourceKind::HermesConfig));
        candidates.push(user(hermes.join("trust.json"), SourceKind::Trust));
    }
    displaced_files(locations, &mut candidates);
    if let Some(path) = &locations.warden_config {
        let claim = standing::root_only_claim(path, Some("WARDEN_CONFIG"), person);
        let env = Candidate::new(path.clone(), Tier::Environment, SourceKind::Warden, None);
        candidates.push(env.claiming(claim));
    }
    for c in &candidates {
        let path = crate::path::text(&c.path);
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
        seen: Vec::new(),
        named,
    }
}

/// The files of a managed directory, trusted when only root could have
/// written them (see [`standing::root_only_claim`]).
fn managed_files(dir: &Path, named_by: Option<&str>, person: u32, candidates: &mut Vec<Candidate>) {
    for path in yaml_files(dir) {
        let claim = standing::root_only_claim(&path, named_by, person);
        let c = Candidate::new(path, Tier::Managed, SourceKind::Warden, None);
        candidates.push(c.claiming(claim));
    }
}

/// The person's files at their default places when a variable moved the
/// place away (`XDG_CONFIG_HOME`, `HERMES_HOME`,
/// `HERMES_CUSTOM_PATTERNS_PATH`), and the files at a place a variable
/// named that `environment::vet` ignored: they still apply, tighten-only,
/// so a variable can add policy but never take the person's away.
fn displaced_files(locations: &Locations, candidates: &mut Vec<Candidate>) {
    let mut found: Vec<(PathBuf, SourceKind, String)> = Vec::new();
    let moved = |variable: &str| {
        format!("{variable} moved this file's place away: it still applies, but only what tightens")
    };
    let config = locations.default_under_home(".config");
    if let Some(config) = config.filter(|c| locations.config_home.as_ref() != Some(c)) {
        let why = moved("XDG_CONFIG_HOME");
        found.extend(files_at("XDG_CONFIG_HOME", &config).map(|(p, k)| (p, k, why.clone())));
    }
    let hermes = locations.default_under_home(".hermes");
    if let Some(default) = hermes.filter(|h| locations.hermes_home.as_ref() != Some(h)) {
        let why = moved("HERMES_HOME");
        found.extend(files_at("HERMES_HOME", &default).map(|(p, k)| (p, k, why.clone())));
    }
    if let (Some(_), Some(home)) = (&locations.custom_patterns, &locations.hermes_home) {
        let why = moved("HERMES_CUSTOM_PATTERNS_PATH");
        found.extend(
            plugin_defaults(home)
                .into_iter()
                .map(|p| (p, SourceKind::Plugin, why.clone())),
        );
    }
    for (variable, place) in &locations.ignored {
        let why = format!(
            "{variable} points where an agent could have chosen it, so warden looks at the default place; this file still applies, but only what tightens"
        );
        found.extend(files_at(variable, place).map(|(p, k)| (p, k, why.clone())));
    }
    for (path, kind, why) in found {
        if path.symlink_metadata().is_err() || candidates.iter().any(|c| c.path == path) {
            continue;
        }
        let claim = Claim::TightenOnly(why);
        candidates.push(Candidate::new(path, Tier::User, kind, None).claiming(claim));
    }
}

/// The policy files at `place` when `variable` names it.
fn files_at(variable: &str, place: &Path) -> impl Iterator<Item = (PathBuf, SourceKind)> {
    let files: Vec<(PathBuf, SourceKind)> = match variable {
        "XDG_CONFIG_HOME" => vec![(place.join("warden").join("config.yaml"), SourceKind::Warden)],
        "HERMES_HOME" => [
            (place.join("config.yaml"), SourceKind::HermesConfig),
            (place.join("trust.json"), SourceKind::Trust),
        ]
        .into_iter()
        .chain(
            plugin_defaults(place)
                .into_iter()
                .map(|p| (p, SourceKind::Plugin)),
        )
        .collect(),
        "HERMES_CUSTOM_PATTERNS_PATH" if place.is_dir() => yaml_files(place)
            .into_iter()
            .map(|p| (p, SourceKind::Plugin))
            .collect(),
        "HERMES_CUSTOM_PATTERNS_PATH" => vec![(place.to_path_buf(), SourceKind::Plugin)],
        _ => Vec::new(),
    };
    files.into_iter()
}

/// The directory a project file belongs to: the one holding `.warden.yaml`,
/// or the one holding `.hermes/`.
fn project_root(path: &Path) -> Option<&Path> {
    let dir = path.parent()?;
    if dir.file_name().is_some_and(|n| n == ".hermes") {
        dir.parent()
    } else {
        Some(dir)
    }
}

/// The project files from `cwd` up to `/`: every one applies (nested
/// projects add to their parents'), so a file planted nearer the working
/// directory cannot hide the project's rules. Both names of every directory
/// are looked at, for the ledger. Files at and above the ceiling only
/// tighten: the variable that sets it cannot take policy away.
fn project_files(
    locations: &Locations,
    cwd: &Path,
    person: u32,
    candidates: &mut Vec<Candidate>,
    looked_at: &mut Vec<String>,
) {
    let mut store: Option<trusted::Store> = None;
    let mut above_ceiling = false;
    for dir in cwd.ancestors() {
        above_ceiling |= locations.project_ceiling.as_deref() == Some(dir);
        let warden = dir.join(".warden.yaml");
        let permissions = dir.join(".hermes").join("permissions.yaml");
        looked_at.push(crate::path::text(&warden));
        looked_at.push(crate::path::text(&permissions));
        let base = Some(crate::path::text(dir));
        for (path, kind) in [
            (warden, SourceKind::Warden),
            (permissions, SourceKind::Permissions),
        ] {
            // Something that is there but is not a file is a candidate too:
            // reading it fails and says so, rather than being skipped.
            if path.symlink_metadata().is_err() {
                continue;
            }
            let claim = if above_ceiling {
                Claim::TightenOnly(
                    "it is at or above WARDEN_PROJECT_CEILING: only what tightens applies".into(),
                )
            } else {
                let store = store.get_or_insert_with(|| trust_store(locations));
                let vouched = standing::project_identity(&path).and_then(|id| store.lookup(&id));
                standing::project_claim(&path, person, vouched)
            };
            let c = Candidate::new(path, Tier::Project, kind, base.clone());
            candidates.push(c.claiming(claim));
        }
    }
}

/// The person's record of trusted project files; an unreadable one trusts
/// nothing (`warden project list` says why).
fn trust_store(locations: &Locations) -> trusted::Store {
    locations
        .trust_store()
        .and_then(|path| trusted::read(&path).ok())
        .unwrap_or_default()
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
    match &locations.hermes_home {
        Some(hermes) => plugin_defaults(hermes),
        None => Vec::new(),
    }
}

/// The plugin's files in a Hermes home when no variable names them.
fn plugin_defaults(hermes: &Path) -> Vec<PathBuf> {
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

/// A source's bytes (`None` if it does not exist) and how it looked as
/// it was read.
fn read_source(path: &Path) -> (Option<Result<Vec<u8>, String>>, Seen) {
    let stat = std::fs::metadata(path);
    let unreadable = matches!(&stat, Err(e) if e.kind() != std::io::ErrorKind::NotFound);
    let before = Fingerprint::from_stat(path, stat.as_ref().ok(), unreadable);
    let bytes = read_bytes(path, stat);
    // A second `stat` after the read: an editor that truncates and writes
    // in place, or renames a new file over this one, while it was read
    // changes the size, a time or the inode in between.
    let after = Fingerprint::of(path);
    let whole = after == before
        && match &bytes {
            Some(Ok(bytes)) => after.len == Some(bytes.len() as u64),
            _ => true,
        };
    (bytes, Seen { stat: after, whole })
}

fn read_bytes(
    path: &Path,
    stat: std::io::Result<std::fs::Metadata>,
) -> Option<Result<Vec<u8>, String>> {
    use std::io::Read;
    // Opening a FIFO would wait for a writer, and a device may never end.
    match stat {
        Ok(meta) if !meta.is_file() => {
            let what = if meta.is_dir() {
                "a directory"
            } else {
                "a pipe, socket or device"
            };
            return Some(Err(format!("is not a regular file but {what}")));
        }
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            return Some(Err(format!("cannot be read: {err}")));
        }
        _ => {}
    }
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
