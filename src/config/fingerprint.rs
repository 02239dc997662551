//! File fingerprints (size, times, inode) that let a call trust the cache without re-reading and re-hashing every policy file.
//!
//! The cache is keyed by the SHA-256 of the policy files' bytes; computing it
//! means reading them all, a megabyte for 10,000 patterns, on every call. So
//! beside each cache file warden keeps the fingerprints of the files it was
//! built from and the key it got. When every fingerprint is unchanged the
//! key is reused. Any write to a file changes its ctime, which a process
//! cannot set back, so an edit cannot hide behind an unchanged size and mtime.

use std::path::Path;

use serde::{Deserialize, Serialize};

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

/// The fingerprints of a cache entry's files, and the key they gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    pub(crate) files: Vec<Fingerprint>,
    pub(crate) key: [u8; 32],
}

/// The key recorded beside `cache_file`, if every file still has the
/// fingerprint it had then.
pub(crate) fn recorded_key(cache_file: &Path, files: &[Fingerprint]) -> Option<[u8; 32]> {
    let bytes = std::fs::read(stamp_path(cache_file)).ok()?;
    let stamp: Stamp = bincode::DefaultOptions::new()
        .with_limit(bytes.len() as u64)
        .deserialize(&bytes)
        .ok()?;
    (stamp.files == files).then_some(stamp.key)
}

/// Records `files` and `key` beside `cache_file`, unless a file changed
/// too recently to be trusted. Failures only cost the next call a re-hash.
pub(crate) fn record(cache_file: &Path, files: &[Fingerprint], key: [u8; 32]) {
    let now_ns = now_ns();
    let path = stamp_path(cache_file);
    if files.iter().any(|f| f.is_fresh(now_ns)) {
        let _ = std::fs::remove_file(&path);
        return;
    }
    let stamp = Stamp {
        files: files.to_vec(),
        key,
    };
    if let Ok(bytes) = bincode::DefaultOptions::new().serialize(&stamp) {
        let _ = crate::config::cache::write_atomic(&path, &bytes, false);
    }
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

use bincode::Options as _;

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

    #[test]
    fn fresh_files_are_not_recorded() {
        let dir = dir("fresh");
        let file = dir.join("a.yaml");
        std::fs::write(&file, "abc").unwrap();
        let cache = dir.join("policy-x.bin");
        let files = vec![Fingerprint::of(&file)];
        record(&cache, &files, [7; 32]);
        assert_eq!(recorded_key(&cache, &files), None);
    }

    #[test]
    fn settled_files_are_recorded_and_must_match() {
        let dir = dir("settled");
        let cache = dir.join("policy-x.bin");
        let mut old = Fingerprint::of(&dir.join("missing.yaml"));
        old.mtime_ns = Some(1);
        old.ctime_ns = Some(1);
        old.len = Some(3);
        record(&cache, std::slice::from_ref(&old), [7; 32]);
        assert_eq!(
            recorded_key(&cache, std::slice::from_ref(&old)),
            Some([7; 32])
        );
        let mut changed = old.clone();
        changed.ctime_ns = Some(2);
        assert_eq!(recorded_key(&cache, &[changed]), None);
        std::fs::write(stamp_path(&cache), b"garbage").unwrap();
        assert_eq!(recorded_key(&cache, &[old]), None);
    }
}
