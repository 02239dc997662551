//! The cache routes: a policy placed in warden's cache directory (an allow-all entry warden itself compiled in a home of the agent's making, the person's own entry edited, another set's entry, an old one, a broken one) must never stand in for the person's policy.
//!
//! Each route is made as an agent would make it: the forged entries are
//! written by the real binary run with another `HOME`, and moved into the
//! person's cache directory as an archive extracted there would move them
//! (the extraction itself is a command other routes answer for). Where a
//! route needs the person's stamp (the fingerprints beside an entry that
//! let a call skip re-hashing), the test first waits until the policy
//! files have settled and a call has recorded one.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{route, Step, HELD};
use crate::support::World;

tests!(
    an_allow_all_entry_from_another_home_with_the_persons_stamp_edited,
    an_allow_all_entry_from_another_home_with_its_own_stamp,
    an_entry_sealed_with_the_persons_own_key_for_other_files,
    an_entry_relabelled_with_the_persons_key_and_its_checksum_recomputed,
    an_old_entry_of_the_same_files_put_back,
    a_truncated_or_garbage_entry,
);

// The entry's header, as the source says it is laid out.
const KEY: std::ops::Range<usize> = 12..44;
const SET: std::ops::Range<usize> = 44..60;
const HEAD_LEN: std::ops::Range<usize> = 60..68;
const SUM: std::ops::Range<usize> = 68..76;
const TAIL_LEN: std::ops::Range<usize> = 76..84;
const HEADER_LEN: usize = 100;

/// What an agent puts in its own home: a config that allows everything.
const ALLOW_ALL: &str = "rules:\n  allow:\n    - \"terminal(*)\"\n";

/// The person's cache directory.
fn cache_dir(w: &World) -> PathBuf {
    PathBuf::from(w.path("cache/warden"))
}

/// The person's one cache entry (the guarded world has one set of files).
fn the_entry(w: &World) -> PathBuf {
    let files = w.cache_files();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

fn stamp_of(entry: &Path) -> PathBuf {
    entry.with_extension("stamp")
}

/// Waits until every policy file, the ledger and the entry are old enough
/// for their fingerprints to be trusted, then makes a call, which records
/// the person's stamp vouching for the entry.
fn let_the_stamp_be_written(w: &World) {
    std::thread::sleep(Duration::from_millis(2100));
    let (v, _) = w.hook("ls");
    assert_eq!(v["action"], "allow", "{v:#}");
    assert!(stamp_of(&the_entry(w)).is_file(), "the person's stamp");
}

/// Runs the real binary as `warden check` on the call `cmd` in the
/// person's project, with a home of the agent's making in `project/f`
/// (config, cache, state, an empty managed directory); `state` keeps the
/// person's own state directory instead. Returns the cache entry it wrote.
fn compile_elsewhere(w: &World, state: Option<&str>) -> (PathBuf, PathBuf) {
    let fake = PathBuf::from(w.path("project/f"));
    let config = fake.join(".config/warden/config.yaml");
    if !config.is_file() {
        fs::create_dir_all(config.parent().unwrap()).unwrap();
        fs::write(&config, ALLOW_ALL).unwrap();
    }
    let payload = serde_json::json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": HELD[0].0},
        "cwd": w.path("project"),
    })
    .to_string();
    let fake_state = fake.join(".local/state");
    let state = state.map_or(fake_state, PathBuf::from);
    let out = w.run_binary(&["check", "--agent", "native"], payload.as_bytes(), |cmd| {
        cmd.env("HOME", &fake)
            .env("XDG_CACHE_HOME", fake.join(".cache"))
            .env("XDG_STATE_HOME", &state)
            .env("WARDEN_MANAGED_DIR", fake.join("etc-warden"));
    });
    let verdict = String::from_utf8_lossy(&out.stdout);
    assert!(
        !verdict.contains("block"),
        "the agent's home allows the call: {verdict}"
    );
    let entries: Vec<PathBuf> = fs::read_dir(fake.join(".cache/warden"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    (entries[0].clone(), stamp_of(&entries[0]))
}

/// The effect of extracting an archive holding `bytes` at `to`.
fn extract(to: &Path, bytes: &[u8]) {
    fs::write(to, bytes).unwrap();
}

/// The first call after a route: held (checked by the route), and stderr
/// says the cache was not used, in one line naming it.
fn said_once(w: &World, what: &str) {
    let (_, err) = w.hook(HELD[1].0);
    assert!(
        err.lines()
            .any(|l| l.starts_with("warden: the policy cache") && l.contains(what)),
        "stderr must say {what:?}: {err:?}"
    );
    let (_, again) = w.hook(HELD[1].0);
    assert_eq!(again, "", "said once");
}

/// The checksum the head carries, computed as the source computes it (an
/// agent can: it needs no secret, only the same public crate).
fn head_checksum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// The route: an allow-all entry compiled by warden in a home of
/// the agent's making, put in place of the person's, with the person's
/// stamp edited to name its key.
fn an_allow_all_entry_from_another_home_with_the_persons_stamp_edited() {
    let w = route(
        "cache-forged-stamp",
        &[Step::Effect(&|w| {
            let_the_stamp_be_written(w);
            let entry = the_entry(w);
            let (forged, _) = compile_elsewhere(w, None);
            let (theirs, ours) = (fs::read(&forged).unwrap(), fs::read(&entry).unwrap());
            let mut stamp = fs::read(stamp_of(&entry)).unwrap();
            let at = stamp
                .windows(32)
                .position(|win| win == &ours[KEY])
                .expect("the person's key is in the stamp");
            stamp[at..at + 32].copy_from_slice(&theirs[KEY]);
            extract(&entry, &theirs);
            extract(&stamp_of(&entry), &stamp);
            said_once(w, "was not sealed with this user's key");
        })],
    );
    assert_eq!(w.cache_files().len(), 1);
}

/// The same entry with the stamp the agent's home wrote beside it.
fn an_allow_all_entry_from_another_home_with_its_own_stamp() {
    route(
        "cache-foreign-stamp",
        &[Step::Effect(&|w| {
            let_the_stamp_be_written(w);
            let entry = the_entry(w);
            let (forged, forged_stamp) = compile_elsewhere(w, None);
            // Its stamp is written only once its files settle.
            std::thread::sleep(Duration::from_millis(2100));
            let _ = compile_elsewhere(w, None);
            assert!(forged_stamp.is_file(), "the agent's home has a stamp");
            extract(&entry, &fs::read(&forged).unwrap());
            extract(&stamp_of(&entry), &fs::read(&forged_stamp).unwrap());
            said_once(w, "not sealed with this user's key");
        })],
    );
}

/// warden run with another HOME but the person's own state directory, so
/// with the person's key: a sealed entry, but for other files (another
/// project's entry swapped in is the same), renamed to the person's.
fn an_entry_sealed_with_the_persons_own_key_for_other_files() {
    route(
        "cache-other-set",
        &[Step::Effect(&|w| {
            let_the_stamp_be_written(w);
            let entry = the_entry(w);
            let state = w.path("state");
            let (forged, forged_stamp) = compile_elsewhere(w, Some(&state));
            std::thread::sleep(Duration::from_millis(2100));
            let _ = compile_elsewhere(w, Some(&state));
            extract(&entry, &fs::read(&forged).unwrap());
            if forged_stamp.is_file() {
                extract(&stamp_of(&entry), &fs::read(&forged_stamp).unwrap());
            }
            said_once(w, "held the policy of other files");
        })],
    );
}

/// The allow-all entry's head and rules under the person's own header (its
/// key and set), with the lengths and the head's checksum recomputed.
fn an_entry_relabelled_with_the_persons_key_and_its_checksum_recomputed() {
    route(
        "cache-relabelled",
        &[Step::Effect(&|w| {
            let_the_stamp_be_written(w);
            let entry = the_entry(w);
            let (forged, _) = compile_elsewhere(w, None);
            let (theirs, ours) = (fs::read(&forged).unwrap(), fs::read(&entry).unwrap());
            let head_len = u64::from_le_bytes(theirs[HEAD_LEN].try_into().unwrap()) as usize;
            let head = &theirs[HEADER_LEN..HEADER_LEN + head_len];
            let mut spliced = theirs.clone();
            spliced[KEY].copy_from_slice(&ours[KEY]);
            spliced[SET].copy_from_slice(&ours[SET]);
            spliced[SUM].copy_from_slice(&head_checksum(head).to_le_bytes());
            assert_eq!(spliced[SUM], theirs[SUM], "the checksum is the public one");
            assert_eq!(
                u64::from_le_bytes(spliced[TAIL_LEN].try_into().unwrap()) as usize,
                theirs.len() - HEADER_LEN - head_len
            );
            extract(&entry, &spliced);
            said_once(w, "was not sealed with this user's key");
        })],
    );
}

/// An entry the person's warden wrote for an earlier version of the same
/// files (before the managed deny was added), saved and put back with its
/// stamp after the change.
fn an_old_entry_of_the_same_files_put_back() {
    route(
        "cache-old-entry",
        &[Step::Effect(&|w| {
            let managed = w.read("etc-warden/policy.yaml");
            w.put("etc-warden/policy.yaml", "rules: {}\n");
            let (v, _) = w.hook(HELD[1].0);
            assert_ne!(
                v["rule_id"], HELD[1].1,
                "the old version has no managed deny"
            );
            let_the_stamp_be_written(w);
            let entry = the_entry(w);
            let old = (
                fs::read(&entry).unwrap(),
                fs::read(stamp_of(&entry)).unwrap(),
            );
            w.put("etc-warden/policy.yaml", &managed);
            let (v, _) = w.hook(HELD[1].0);
            assert_eq!(v["rule_id"], HELD[1].1);
            extract(&entry, &old.0);
            extract(&stamp_of(&entry), &old.1);
            // A normal miss: an entry for other bytes of these very files.
            let (v, err) = w.hook(HELD[1].0);
            assert_eq!(v["rule_id"], HELD[1].1, "{v:#}\n{err}");
        })],
    );
}

/// Cut short, or not a cache at all: rebuilt, and said.
fn a_truncated_or_garbage_entry() {
    route(
        "cache-broken",
        &[Step::Effect(&|w| {
            let_the_stamp_be_written(w);
            let entry = the_entry(w);
            let good = fs::read(&entry).unwrap();
            extract(&entry, &good[..good.len() / 2]);
            said_once(w, "was truncated");
            extract(&entry, &b"\0garbage".repeat(64));
            said_once(w, "is not a warden cache");
            // Whole but for its last byte flipped: the tag covers the rules.
            let mut flipped = good.clone();
            *flipped.last_mut().unwrap() ^= 1;
            extract(&entry, &flipped);
            said_once(w, "was not sealed with this user's key");
            assert_eq!(cache_dir(w).join(entry.file_name().unwrap()), entry);
        })],
    );
}
