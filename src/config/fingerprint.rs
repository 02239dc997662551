//! File fingerprints (size, times, inode) that let a call trust the cache without re-reading and re-hashing every policy file, or every rule of the cache file.
//!
//! The cache is keyed by the SHA-256 of the policy files' bytes; computing it
//! means reading them all, half a megabyte for 10,000 rules (some 30 M
//! instructions, a hundred calls' worth), on every call; and checking an
//! entry's tag means reading all its rules. So beside each cache file warden
//! keeps a *stamp*: the fingerprints of the files it hashed, the key they
//! gave, and the fingerprint of the cache file once its tag was checked,
//! sealed with the user's key (see `seal`) so that only warden can have
//! written it. When every fingerprint is unchanged the key is reused and
//! the cache file believed without its tag. Any write to a file changes its
//! ctime, which a process cannot set back, so an edit cannot hide behind an
//! unchanged size and mtime, nor a cache file be changed or replaced after
//! it was checked; a stamp from elsewhere, or edited, fails its tag.

use std::path::Path;

use bincode::Options as _;
use serde::{Deserialize, Serialize};

use crate::config::cache::{self, FORMAT_VERSION};
use crate::config::seal::Seal;

/// What `stat` says about one file; `None` fields for a missing file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fingerprint {
    pub(crate) path: String,
    pub(crate) len: Option<u64>,
    pub(crate) mtime_ns: Option<i128>,
    pub(crate) ctime_ns: Option<i128>,
    pub(crate) inode: Option<u64>,
    /// `stat` failed for a reason other than absence (a symlink loop, no
    /// permission): not the same as a missing file, whose policy is none.
    pub(crate) unreadable: bool,
}

/// Files changed less than this long before a fingerprint is taken might
/// change again within the same timestamp tick, unseen: their fingerprints
/// are not trusted (git calls these "racily clean"). Two seconds is the
/// coarsest tick in use (FAT's mtime).
pub(crate) const SETTLE_NS: i128 = 2_000_000_000;

impl Fingerprint {
    pub(crate) fn of(path: &Path) -> Fingerprint {
        let stat = std::fs::metadata(path);
        let unreadable = matches!(&stat, Err(e) if e.kind() != std::io::ErrorKind::NotFound);
        Fingerprint::from_stat(path, stat.ok().as_ref(), unreadable)
    }

    /// The fingerprint of `path` from a `stat` already made (`None`: absent
    /// or unreadable, as `unreadable` says).
    pub(crate) fn from_stat(
        path: &Path,
        meta: Option<&std::fs::Metadata>,
        unreadable: bool,
    ) -> Fingerprint {
        let (mtime_ns, ctime_ns, inode) = meta.map_or((None, None, None), times);
        Fingerprint {
            path: crate::path::text(path),
            len: meta.map(std::fs::Metadata::len),
            mtime_ns,
            ctime_ns,
            inode,
            unreadable,
        }
    }

    /// Whether `meta` (of the same path) is the file this fingerprint was
    /// taken of, unchanged since.
    pub(crate) fn is_of(&self, meta: &std::fs::Metadata) -> bool {
        let (mtime_ns, ctime_ns, inode) = times(meta);
        !self.unreadable
            && self.len == Some(meta.len())
            && (self.mtime_ns, self.ctime_ns, self.inode) == (mtime_ns, ctime_ns, inode)
    }

    /// Whether the file changed too recently for its fingerprint to be
    /// trusted later, or for its bytes to be taken as a finished save.
    pub(crate) fn is_fresh(&self, now_ns: i128) -> bool {
        [self.mtime_ns, self.ctime_ns]
            .into_iter()
            .flatten()
            .any(|t| now_ns - t < SETTLE_NS)
    }
}

#[cfg(unix)]
fn times(meta: &std::fs::Metadata) -> (Option<i128>, Option<i128>, Option<u64>) {
    use std::os::unix::fs::MetadataExt;
    let ns = |secs: i64, nanos: i64| i128::from(secs) * 1_000_000_000 + i128::from(nanos);
    (
        Some(ns(meta.mtime(), meta.mtime_nsec())),
        Some(ns(meta.ctime(), meta.ctime_nsec())),
        Some(meta.ino()),
    )
}

#[cfg(not(unix))]
fn times(meta: &std::fs::Metadata) -> (Option<i128>, Option<i128>, Option<u64>) {
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i128);
    (mtime, None, None)
}

const STAMP_MAGIC: [u8; 8] = *b"WRDNSTM\x01";
const STAMP_DOMAIN: &[u8] = b"warden policy cache stamp\0";

/// What a stamp says: the fingerprints of a cache entry's files, the key
/// they gave, and the cache file's own fingerprint once its tag was checked.
/// [`recorded`] reads it as the encoded files, then the rest: the fields
/// keep this order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    files: Vec<Fingerprint>,
    key: [u8; 32],
    entry: Option<Fingerprint>,
}

/// What the stamp beside a cache file says for this call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// Every file is as it was when it was hashed to `key`; `entry`: the
    /// cache file the stamp vouches for, if one was checked.
    Trusted {
        key: [u8; 32],
        entry: Option<Fingerprint>,
    },
    /// No stamp, one from another format, or one for files since changed.
    Stale,
    /// A stamp whose tag is not this user's seal: not written by warden here.
    Forged,
}

/// What the stamp beside `cache_file` says, for files whose fingerprints
/// are now `files`.
pub(crate) fn recorded(cache_file: &Path, files: &[Fingerprint], seal: &Seal) -> Recorded {
    let Some((bytes, stamp_file)) = read_stamp(&stamp_path(cache_file)) else {
        return Recorded::Stale;
    };
    let version = FORMAT_VERSION.to_le_bytes();
    let tagged_at = STAMP_MAGIC.len() + version.len();
    let (Some(prefix), Some(tag), Some(body)) = (
        bytes.get(..tagged_at),
        bytes.get(tagged_at..tagged_at + 16),
        bytes.get(tagged_at + 16..),
    ) else {
        return Recorded::Stale;
    };
    if prefix[..8] != STAMP_MAGIC || prefix[8..] != version {
        return Recorded::Stale;
    }
    if seal.tag(STAMP_DOMAIN, &[body]) != tag {
        return Recorded::Forged;
    }
    // A stamp's body starts with its files as bincode writes them, and
    // bincode gives equal values equal bytes and unequal ones unequal: the
    // files are compared as written, which spares decoding a string and
    // four numbers for each of them on every call.
    let Ok(now) = bincode::DefaultOptions::new().serialize(files) else {
        return Recorded::Stale;
    };
    let Some(rest) = body.strip_prefix(now.as_slice()) else {
        return Recorded::Stale;
    };
    let rest: Option<([u8; 32], Option<Fingerprint>)> = bincode::DefaultOptions::new()
        .with_limit(rest.len() as u64)
        .deserialize(rest)
        .ok();
    match rest {
        Some((key, entry)) => {
            mark_used(&stamp_file);
            Recorded::Trusted { key, entry }
        }
        None => Recorded::Stale,
    }
}

/// A stamp larger than this is no stamp of warden's (one holds a
/// fingerprint of a hundred bytes or so for each file a call looks at).
const STAMP_MAX: u64 = 16 << 20;

/// The stamp at `path`, read whole, and its file with what `stat` said of
/// it: no more system calls than `fs::read` makes.
fn read_stamp(path: &Path) -> Option<(Vec<u8>, (std::fs::File, std::fs::Metadata))> {
    use std::io::Read as _;
    let mut file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if meta.len() > STAMP_MAX {
        return None;
    }
    let mut bytes = vec![0; usize::try_from(meta.len()).ok()?];
    file.read_exact(&mut bytes).ok()?;
    Some((bytes, (file, meta)))
}

/// Records that the cache entry of a stamp was used, for `cache::prune`: by
/// the stamp's mtime, set to now only when older than [`cache::USE_TICK`],
/// so that most calls write nothing. The stamp's bytes, and so its tag,
/// stay as they were; its own times are part of no fingerprint.
fn mark_used((file, meta): &(std::fs::File, std::fs::Metadata)) {
    let now = std::time::SystemTime::now();
    let stale = meta
        .modified()
        .is_ok_and(|m| now.duration_since(m).is_ok_and(|age| age > cache::USE_TICK));
    if stale {
        let _ = file.set_modified(now);
    }
}

/// Records `files` and `key` beside `cache_file`, with `entry`, the cache
/// file's fingerprint when it was read and its tag checked, unless a file
/// changed too recently to be trusted (an entry that did so is left out,
/// and checked again by the next call). Failures only cost the next call a
/// re-hash.
pub(crate) fn record(
    cache_file: &Path,
    files: &[Fingerprint],
    key: [u8; 32],
    entry: Option<&Fingerprint>,
    seal: &Seal,
) {
    let now_ns = now_ns();
    let path = stamp_path(cache_file);
    if files.iter().any(|f| f.is_fresh(now_ns)) {
        let _ = std::fs::remove_file(&path);
        return;
    }
    let entry = entry.filter(|e| !e.is_fresh(now_ns));
    write_stamp(&path, files, key, entry, seal);
}

/// [`record`], whether or not the files settled (tests).
#[cfg(test)]
pub(crate) fn record_unchecked(
    cache_file: &Path,
    files: &[Fingerprint],
    key: [u8; 32],
    entry: Option<&Fingerprint>,
    seal: &Seal,
) {
    write_stamp(&stamp_path(cache_file), files, key, entry, seal);
}

fn write_stamp(
    path: &Path,
    files: &[Fingerprint],
    key: [u8; 32],
    entry: Option<&Fingerprint>,
    seal: &Seal,
) {
    let stamp = Stamp {
        files: files.to_vec(),
        key,
        entry: entry.cloned(),
    };
    let Ok(body) = bincode::DefaultOptions::new().serialize(&stamp) else {
        return;
    };
    let mut bytes = Vec::with_capacity(28 + body.len());
    bytes.extend_from_slice(&STAMP_MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&seal.tag(STAMP_DOMAIN, &[&body]));
    bytes.extend_from_slice(&body);
    let _ = crate::config::cache::write_atomic(path, &bytes, false);
}

/// The wall clock in nanoseconds, as file times are kept.
pub(crate) fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// Where the fingerprints of `cache_file`'s sources are recorded.
pub(crate) fn stamp_path(cache_file: &Path) -> std::path::PathBuf {
    cache_file.with_extension("stamp")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("warden-fp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_write_changes_the_fingerprint_even_with_the_same_size_and_mtime() {
        let dir = dir("write");
        let file = dir.join("a.yaml");
        std::fs::write(&file, "abc").unwrap();
        let before = Fingerprint::of(&file);
        std::fs::write(&file, "xyz").unwrap();
        let after = Fingerprint::of(&file);
        // Size is equal and mtime may be too; ctime or inode differ unless
        // the clock did not move, in which case the file is "fresh" anyway.
        assert!(before != after || before.is_fresh(after.ctime_ns.unwrap_or(0)));
    }

    const SEAL: [u8; 16] = [7; 16];

    /// A fingerprint old enough to be trusted.
    fn settled(dir: &Path, name: &str) -> Fingerprint {
        let mut old = Fingerprint::of(&dir.join(name));
        old.mtime_ns = Some(1);
        old.ctime_ns = Some(1);
        old.len = Some(3);
        old
    }

    #[test]
    fn fresh_files_are_not_recorded() {
        let dir = dir("fresh");
        let file = dir.join("a.yaml");
        std::fs::write(&file, "abc").unwrap();
        let cache = dir.join("policy-x.bin");
        let files = vec![Fingerprint::of(&file)];
        let seal = Seal::from_bytes(SEAL);
        record(&cache, &files, [7; 32], None, &seal);
        assert_eq!(recorded(&cache, &files, &seal), Recorded::Stale);
    }

    #[test]
    fn settled_files_are_recorded_and_must_match() {
        let dir = dir("settled");
        let cache = dir.join("policy-x.bin");
        let seal = Seal::from_bytes(SEAL);
        let old = settled(&dir, "missing.yaml");
        let entry = settled(&dir, "policy-x.bin");
        record(
            &cache,
            std::slice::from_ref(&old),
            [7; 32],
            Some(&entry),
            &seal,
        );
        let trusted = Recorded::Trusted {
            key: [7; 32],
            entry: Some(entry),
        };
        assert_eq!(recorded(&cache, std::slice::from_ref(&old), &seal), trusted);
        let mut changed = old.clone();
        changed.ctime_ns = Some(2);
        assert_eq!(recorded(&cache, &[changed], &seal), Recorded::Stale);
        // The files are compared as a whole list: fewer or more is another.
        assert_eq!(recorded(&cache, &[], &seal), Recorded::Stale);
        let twice = [old.clone(), old.clone()];
        assert_eq!(recorded(&cache, &twice, &seal), Recorded::Stale);
        std::fs::write(stamp_path(&cache), b"garbage").unwrap();
        assert_eq!(recorded(&cache, &[old], &seal), Recorded::Stale);
    }

    #[test]
    fn a_fresh_cache_file_is_not_vouched_for() {
        let dir = dir("fresh-entry");
        let cache = dir.join("policy-x.bin");
        std::fs::write(&cache, b"x").unwrap();
        let seal = Seal::from_bytes(SEAL);
        let old = settled(&dir, "a.yaml");
        record(
            &cache,
            std::slice::from_ref(&old),
            [7; 32],
            Some(&Fingerprint::of(&cache)),
            &seal,
        );
        let fresh = Recorded::Trusted {
            key: [7; 32],
            entry: None,
        };
        assert_eq!(recorded(&cache, &[old], &seal), fresh);
    }

    #[test]
    fn a_stamp_is_believed_only_under_its_own_seal() {
        let dir = dir("forged");
        let cache = dir.join("policy-x.bin");
        let files = vec![settled(&dir, "a.yaml")];
        let seal = Seal::from_bytes(SEAL);
        // Written by warden with another key (another HOME): refused.
        record(&cache, &files, [9; 32], None, &Seal::from_bytes([8; 16]));
        assert_eq!(recorded(&cache, &files, &seal), Recorded::Forged);
        // The person's own stamp with the key (or anything else) edited.
        record(&cache, &files, [7; 32], None, &seal);
        let good = std::fs::read(stamp_path(&cache)).unwrap();
        let key_at = good
            .windows(32)
            .rposition(|w| w == [7; 32])
            .expect("the key is in the stamp");
        for at in 0..good.len() {
            let mut bytes = good.clone();
            bytes[at] ^= 0x01;
            std::fs::write(stamp_path(&cache), &bytes).unwrap();
            let said = recorded(&cache, &files, &seal);
            assert!(
                !matches!(said, Recorded::Trusted { .. }),
                "byte {at} (key at {key_at}): {said:?}"
            );
        }
    }

    #[test]
    fn a_trusted_stamp_marks_its_entry_used_once_a_day() {
        use std::time::{Duration, SystemTime};
        let dir = dir("used");
        let cache = dir.join("policy-x.bin");
        let seal = Seal::from_bytes(SEAL);
        let files = vec![settled(&dir, "a.yaml")];
        record(&cache, &files, [7; 32], None, &seal);
        let stamp = stamp_path(&cache);
        let set = |age: u64| {
            let file = std::fs::File::options().write(true).open(&stamp).unwrap();
            let time = SystemTime::now() - Duration::from_secs(age);
            file.set_modified(time).unwrap();
            time
        };
        let mtime = || std::fs::metadata(&stamp).unwrap().modified().unwrap();
        let bytes = std::fs::read(&stamp).unwrap();
        // Used an hour ago: a call that uses it writes nothing.
        let hour_ago = set(3600);
        assert!(matches!(
            recorded(&cache, &files, &seal),
            Recorded::Trusted { .. }
        ));
        assert_eq!(mtime(), hour_ago);
        // Used two days ago: the call sets it to now, bytes unchanged.
        let two_days_ago = set(2 * 24 * 3600);
        assert!(matches!(
            recorded(&cache, &files, &seal),
            Recorded::Trusted { .. }
        ));
        assert!(mtime() > two_days_ago + Duration::from_secs(24 * 3600));
        assert_eq!(std::fs::read(&stamp).unwrap(), bytes);
        // A stamp that does not vouch for these files is no use of its entry.
        let old = set(2 * 24 * 3600);
        let mut changed = files[0].clone();
        changed.ctime_ns = Some(2);
        assert_eq!(recorded(&cache, &[changed], &seal), Recorded::Stale);
        assert_eq!(mtime(), old);
    }
}
