//! Turning a call's policy sources into one [`Policy`] through the cache and the ledger, and compiling afresh when a cached rule fails its check.
//!
//! Which files those are, and reading them, is [`sources`](super::sources)'s
//! business; waiting for a file in the middle of a save is
//! [`settle`](super::settle)'s.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::config::cache::{self, KeyInput, Place, Slot, Want};
use crate::config::compile::compile;
use crate::config::fingerprint::{self, Fingerprint, Recorded};
use crate::config::ledger::{self, Ledger};
use crate::config::model::{Counts, RuleSpec, SourceInfo, SourceKind, Standing, Tier};
use crate::config::policy::{Policy, Recompile};
use crate::config::settle::{self, Settled};
pub use crate::config::sources::Locations;
use crate::config::sources::{discover, Inputs};
use crate::error::{Error, Result};

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
    /// A policy file did not settle: the cache's entry, the last policy
    /// compiled from complete files, decided instead.
    Kept,
    /// A policy file did not settle and no complete version is cached: it
    /// counts as unusable, and nothing was stored.
    Unsettled,
}

/// A loaded policy and what to tell the user about it once.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub policy: Policy,
    /// Said once, when the sources changed (the ledger's notes).
    pub notes: Vec<String>,
    pub cache: CacheStatus,
    pub cache_file: Option<PathBuf>,
    /// How long the load waited for a policy file in the middle of a save,
    /// and for which; `None` when it did not wait.
    pub settling: Option<String>,
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
    load_reading(locations, cwd, &mut || read(locations, cwd))
}

/// A load whose files are changed by `change` each time before they are
/// read again, as a save racing the call would change them.
#[cfg(test)]
pub(super) fn load_while(locations: &Locations, mut change: impl FnMut()) -> Loaded {
    load_reading(locations, None, &mut || {
        change();
        read(locations, None)
    })
}

/// [`load`], reading the files again with `again` while one is in doubt.
fn load_reading(
    locations: &Locations,
    cwd: Option<&Path>,
    again: &mut dyn FnMut() -> Inputs,
) -> Loaded {
    let mut inputs = discover(locations, cwd);
    let ledger_path = locations.ledger_path();
    let files = fingerprints(&inputs.looked_at, ledger_path.as_deref());
    // Nothing to compile and nothing recorded: the built-in layers alone,
    // with no cache file written for every directory an agent visits.
    if files.iter().all(|f| f.len.is_none() && !f.unreadable) && inputs.named.is_empty() {
        return Loaded {
            policy: Policy::default(),
            notes: Vec::new(),
            cache: CacheStatus::Unneeded,
            cache_file: None,
            settling: None,
            recovery: None,
        };
    }
    let place = cache_place(locations, &inputs);
    let mut said = Vec::new();
    if let Some(slot) = place.slot() {
        if let Some(loaded) = stamped(slot, &files, locations, cwd, &mut said) {
            return loaded;
        }
    }
    inputs.read();
    let ledger_bytes = read_ledger(ledger_path.as_deref());
    let read = Read {
        inputs: &inputs,
        place: &place,
        ledger_bytes: ledger_bytes.as_deref(),
    };
    let mut loaded = hit(&read, locations, cwd, Some(&files))
        .unwrap_or_else(|| miss(inputs, place, locations, cwd, ledger_bytes, again));
    said.append(&mut loaded.notes);
    loaded.notes = said;
    loaded
}

/// The cache's entry, if the stamp beside it says every file (`files`, as
/// they are now) is as it was when hashed: no policy file needs reading.
/// A stamp that is not this user's is said in `said`, and ignored.
fn stamped(
    slot: &Slot,
    files: &[Fingerprint],
    locations: &Locations,
    cwd: Option<&Path>,
    said: &mut Vec<String>,
) -> Option<Loaded> {
    let (key, entry) = match fingerprint::recorded(&slot.file, files, &slot.seal) {
        Recorded::Trusted { key, entry } => (cache::Key::from_bytes(key), entry),
        Recorded::Stale => return None,
        Recorded::Forged => {
            said.push(format!(
                "warden: the policy cache's stamp {} was not sealed with this user's key (it was made elsewhere, or changed since); it was ignored",
                fingerprint::stamp_path(&slot.file).display()
            ));
            return None;
        }
    };
    let found = cache::open(&slot.file, &slot.seal, Want::Key(&key), entry.as_ref())?;
    // Checked whole, and old enough to be vouched for from now on.
    let settled = |p: &Fingerprint| !p.is_fresh(fingerprint::now_ns());
    if found.verified && found.print.as_ref().is_some_and(settled) {
        let (key, entry) = (*key.as_bytes(), found.print.as_ref());
        fingerprint::record(&slot.file, files, key, entry, &slot.seal);
    }
    let policy = Policy::from_entry(found)?;
    Some(cached(policy, locations, cwd, slot.file.clone()))
}

/// The sources as one call read them, where that set of sources is
/// cached, and the ledger's bytes.
struct Read<'a> {
    inputs: &'a Inputs,
    place: &'a Place,
    ledger_bytes: Option<&'a [u8]>,
}

/// The cache's entry for the bytes read and the ledger's, if it has one.
/// `files`: the fingerprints taken before the read, recorded as trusted
/// (touched but not changed).
fn hit(
    read: &Read<'_>,
    locations: &Locations,
    cwd: Option<&Path>,
    files: Option<&[Fingerprint]>,
) -> Option<Loaded> {
    let slot = read.place.slot()?;
    let ledger_path = locations.ledger_path();
    let key = cache_key(read.inputs, ledger_path.as_deref(), read.ledger_bytes);
    let found = cache::read(&slot.file, &slot.seal, &key)?;
    if let Some(files) = files {
        let (key, entry) = (*key.as_bytes(), found.print.as_ref());
        fingerprint::record(&slot.file, files, key, entry, &slot.seal);
    }
    let policy = Policy::from_entry(found)?;
    Some(cached(policy, locations, cwd, slot.file.clone()))
}

/// What a cache miss does: waits for files in the middle of a save to
/// settle (reading them again with `again`), then compiles and stores them.
fn miss(
    inputs: Inputs,
    place: Place,
    locations: &Locations,
    cwd: Option<&Path>,
    ledger_bytes: Option<Vec<u8>>,
    again: &mut dyn FnMut() -> Inputs,
) -> Loaded {
    let ledger_path = locations.ledger_path();
    let book = match (&ledger_path, &ledger_bytes) {
        (Some(path), Some(bytes)) => ledger::parse(path, bytes).unwrap_or_default(),
        _ => Ledger::default(),
    };
    let Settled {
        inputs,
        doubts,
        waited,
    } = settled(inputs, locations, &book, again);
    let (mut ledger_bytes, mut place) = (ledger_bytes, place);
    if waited.is_some() {
        // The files read last may be another set (one appeared or went);
        // another hook may have compiled them, and brought the ledger up
        // to date, while this one waited.
        ledger_bytes = read_ledger(ledger_path.as_deref());
        place = cache_place(locations, &inputs);
    }
    let known = || {
        let read = Read {
            inputs: &inputs,
            place: &place,
            ledger_bytes: ledger_bytes.as_deref(),
        };
        hit(&read, locations, cwd, None)
    };
    let mut loaded = match (doubts.is_empty(), waited.is_some()) {
        (true, true) => known()
            .unwrap_or_else(|| compile_and_store(&inputs, locations, &place, ledger_bytes.clone())),
        (true, false) => compile_and_store(&inputs, locations, &place, ledger_bytes),
        (false, _) => {
            let book = &book;
            unsettled(inputs, &doubts, &place, locations, cwd, ledger_bytes, book)
        }
    };
    loaded.settling = waited.as_ref().map(settle::Waited::describe);
    loaded
}

/// Files that did not settle: the cache's last entry, compiled from
/// complete files, decides; without one they are unusable, and nothing is
/// stored.
fn unsettled(
    mut inputs: Inputs,
    doubts: &[settle::Doubt],
    place: &Place,
    locations: &Locations,
    cwd: Option<&Path>,
    ledger_bytes: Option<Vec<u8>>,
    book: &Ledger,
) -> Loaded {
    let patience = settle::PATIENCE.as_millis();
    let latest = place.slot().and_then(|slot| {
        let found = cache::read_latest(&slot.file, &slot.seal, &slot.set)?;
        let policy = Policy::from_entry(found).filter(|p| ledger::saw_whole(book, &p.sources))?;
        Some(cached(policy, locations, cwd, slot.file.clone()))
    });
    if let Some(mut loaded) = latest {
        loaded.cache = CacheStatus::Kept;
        loaded.notes.push(format!(
            "warden: {}, and did not settle within {patience} ms: this call is decided by the last policy compiled from complete files",
            settle::list(doubts)
        ));
        return loaded;
    }
    for doubt in doubts {
        let (tier, kind) = place_of(Path::new(&doubt.path), locations);
        let why = format!(
            "{}, and did not settle within {patience} ms; no complete version of it is cached",
            doubt.why
        );
        inputs.refuse(Path::new(&doubt.path), why, tier, kind);
    }
    let mut loaded = compile_and_store(&inputs, locations, &Place::Off, ledger_bytes);
    loaded.cache = CacheStatus::Unsettled;
    loaded.cache_file = place.file();
    loaded
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
    let place = cache_place(locations, &inputs);
    compile_and_store(&inputs, locations, &place, ledger_bytes)
}

/// Has the stamp vouch for the cache entry of the sources as they are now,
/// however recently they or it changed: as a stamp written long after
/// would, so that damage the file's fingerprint cannot show (bit rot) can
/// be made in a test.
#[cfg(test)]
pub(super) fn vouch_for_the_cache_as_it_is(locations: &Locations) {
    let inputs = read(locations, None);
    let ledger_path = locations.ledger_path();
    let files = fingerprints(&inputs.looked_at, ledger_path.as_deref());
    let ledger_bytes = read_ledger(ledger_path.as_deref());
    let key = cache_key(&inputs, ledger_path.as_deref(), ledger_bytes.as_deref());
    let place = cache_place(locations, &inputs);
    let slot = place.slot().expect("a cache");
    let entry = Fingerprint::of(&slot.file);
    fingerprint::record_unchecked(
        &slot.file,
        &files,
        *key.as_bytes(),
        Some(&entry),
        &slot.seal,
    );
}

/// Where the sources `inputs` looked at, with their standing, are cached.
fn cache_place(locations: &Locations, inputs: &Inputs) -> Place {
    let (cache, state) = (&locations.cache_dir, &locations.state_dir);
    let mut names = inputs.looked_at.clone();
    names.push(inputs.standing_key());
    Place::of(cache.as_deref(), state.as_deref(), &names)
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
    // What each source may do is part of what the policy was compiled from.
    let standing = inputs.standing_key();
    keyed.push(KeyInput {
        path: "\0standing",
        bytes: Some(standing.as_bytes()),
    });
    cache::key(&keyed)
}

/// A policy read from the cache, holding the way back to its sources
/// should one of its rules fail its check.
fn cached(policy: Policy, locations: &Locations, cwd: Option<&Path>, file: PathBuf) -> Loaded {
    let recovery = Arc::new(Recovery {
        locations: locations.clone(),
        cwd: cwd.map(Path::to_path_buf),
        cache_file: file.clone(),
        fresh: OnceLock::new(),
    });
    Loaded {
        policy: policy.with_recovery(recovery.clone()),
        notes: Vec::new(),
        cache: CacheStatus::Hit,
        cache_file: Some(file),
        settling: None,
        recovery: Some(recovery),
    }
}

/// Compiles the read `inputs`, brings the ledger
/// up to date, and stores the policy at `place` under a key that
/// covers the ledger it applied (`ledger_bytes`: as it was read before,
/// kept only when the ledger could not be read).
fn compile_and_store(
    inputs: &Inputs,
    locations: &Locations,
    place: &Place,
    mut ledger_bytes: Option<Vec<u8>>,
) -> Loaded {
    let ledger_path = locations.ledger_path();
    let damage = place
        .slot()
        .and_then(|slot| cache::damage(&slot.file, &slot.seal, &slot.set));
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
    let cache = match place {
        Place::Off => CacheStatus::Disabled,
        Place::Keyless(why) => CacheStatus::Unwritable(why.clone()),
        Place::At(slot) => store(
            &policy,
            slot,
            &key,
            &inputs.looked_at,
            ledger_path.as_deref(),
        ),
    };
    let cache_file = place.file();
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
        settling: None,
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

/// Writes `policy` to the cache `slot` under `key`, and records beside it
/// the fingerprints that let the next call trust it without re-hashing.
fn store(
    policy: &Policy,
    slot: &Slot,
    key: &cache::Key,
    looked_at: &[String],
    ledger_path: Option<&Path>,
) -> CacheStatus {
    let file = &slot.file;
    let written = policy
        .to_parts()
        .ok_or_else(|| Error::State {
            path: crate::path::text(file),
            message: "cannot encode the compiled policy".into(),
        })
        .and_then(|(head, rules)| cache::write(file, &slot.seal, &slot.set, key, &head, rules));
    match written {
        Ok(()) => {
            // The entry was just written: its own fingerprint is not
            // trusted until the next call checks its tag.
            let files = fingerprints(looked_at, ledger_path);
            fingerprint::record(file, &files, *key.as_bytes(), None, &slot.seal);
            if let Some(dir) = file.parent() {
                cache::prune(dir, cache::KEEP, cache::UNUSED_AFTER);
            }
            CacheStatus::Rebuilt
        }
        Err(err) => CacheStatus::Unwritable(err.to_string()),
    }
}

/// The way back from a policy read from the cache to its sources: on the
/// first rule that fails its check, the entry is thrown away and the
/// sources are read and compiled again, as on a cache miss.
struct Recovery {
    locations: Locations,
    cwd: Option<PathBuf>,
    cache_file: PathBuf,
    fresh: OnceLock<Loaded>,
}

impl Recompile for Recovery {
    fn fresh(&self) -> &Policy {
        let loaded = self.fresh.get_or_init(|| {
            // Silently, like any other damaged cache: the answer is the same.
            discard(&self.cache_file);
            let (locations, cwd) = (&self.locations, self.cwd.as_deref());
            let ledger_bytes = read_ledger(locations.ledger_path().as_deref());
            let again = &mut || read(locations, cwd);
            let inputs = again();
            let place = cache_place(locations, &inputs);
            miss(inputs, place, locations, cwd, ledger_bytes, again)
        });
        &loaded.policy
    }

    fn recompiled(&self) -> Option<&Policy> {
        self.fresh.get().map(|loaded| &loaded.policy)
    }
}

// By hand: the fresh policy can hold every rule.
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
/// removed or changed stop being enforced. A file in the middle of a save
/// is waited for, and one that does not settle blesses nothing.
pub fn bless(locations: &Locations, cwd: Option<&Path>) -> Result<Vec<String>> {
    bless_reading(locations, cwd, &mut || read(locations, cwd))
}

/// [`bless`] with the files changed by `change` before each time they are
/// read again.
#[cfg(test)]
pub(super) fn bless_while(locations: &Locations, mut change: impl FnMut()) -> Result<Vec<String>> {
    bless_reading(locations, None, &mut || {
        change();
        read(locations, None)
    })
}

/// [`bless`], reading the files with `again`.
fn bless_reading(
    locations: &Locations,
    cwd: Option<&Path>,
    again: &mut dyn FnMut() -> Inputs,
) -> Result<Vec<String>> {
    let path = locations.ledger_path().ok_or_else(|| Error::State {
        path: "ledger".into(),
        message: "no state directory is known (HOME and XDG_STATE_HOME are unset)".into(),
    })?;
    // A corrupt ledger is exactly what blessing repairs.
    let mut book = ledger::load(&path).unwrap_or_default();
    let settled = settled(read(locations, cwd), locations, &book, again);
    if let Some(doubt) = settled.doubts.first() {
        return Err(Error::State {
            path: doubt.path.clone(),
            message: format!(
                "{} and did not settle within {} ms; nothing was blessed (run `warden bless` again once it is saved)",
                doubt.why,
                settle::PATIENCE.as_millis()
            ),
        });
    }
    let inputs = settled.inputs;
    let (policy, rules) = compile(&inputs);
    let looked_at = ledger_candidates(&inputs, &book, locations);
    let lines = ledger::bless(&mut book, &looked_at, &policy.sources, &rules);
    ledger::save(&path, &book)?;
    Ok(lines)
}

/// Compiles without cache or ledger, for `warden lint`: the policy with
/// every problem found (broken files, rules whose examples misbehave, a
/// file that did not settle).
pub fn lint(locations: &Locations, cwd: Option<&Path>) -> Policy {
    let book = locations
        .ledger_path()
        .and_then(|path| ledger::load(&path).ok())
        .unwrap_or_default();
    let Settled {
        mut inputs, doubts, ..
    } = {
        let again = &mut || read(locations, cwd);
        settled(again(), locations, &book, again)
    };
    for doubt in doubts {
        let (tier, kind) = place_of(Path::new(&doubt.path), locations);
        let why = format!("{}, and did not settle", doubt.why);
        inputs.refuse(Path::new(&doubt.path), why, tier, kind);
    }
    compile(&inputs).0
}

/// The sources for a call in `cwd`, read.
fn read(locations: &Locations, cwd: Option<&Path>) -> Inputs {
    let mut inputs = discover(locations, cwd);
    inputs.read();
    inputs
}

/// `first`, the sources as just read, once they have settled (or patience
/// ran out; see `settle`), read again with `again`, `book` saying what was
/// last seen whole.
fn settled(
    first: Inputs,
    locations: &Locations,
    book: &Ledger,
    again: &mut dyn FnMut() -> Inputs,
) -> Settled {
    settle::settle(
        first,
        book,
        |inputs| ledger_candidates(inputs, book, locations),
        again,
    )
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
            // It keeps denying or asking; a protected allow kept after it
            // left its file would loosen from a file that no longer says so.
            standing: Standing::TightenOnly("kept by warden's ledger".into()),
            withheld: crate::config::standing::withheld_rules(std::slice::from_ref(&rule)),
        });
        rules.push(rule);
    }
    let problems = std::mem::take(&mut policy.problems);
    let broken = policy.broken;
    *policy = Policy::new(sources, policy.settings.clone(), rules);
    policy.problems = problems;
    policy.broken = broken;
}
