//! The compiled-policy cache: one bincode file per set of policy sources, keyed by SHA-256 of their bytes.
//!
//! A hook call has about a millisecond in all, so reading a cache file costs
//! one `open`, two reads, a cheap checksum and a bincode decode. The SHA-256
//! key (over every source's path and bytes, the format version and warden's
//! version) decides whether the cached value is still the compiled form of
//! what is on disk; the checksum only guards against torn writes and bit rot.
//! Every failure to read is a plain miss: the caller recompiles.

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The layout of the cached value. Bump it whenever a type reachable from the
/// cached value (the compiled policy, `RuleSpec`, `Settings`, ...) changes
/// shape: bincode carries no field names, so an old file would otherwise
/// decode into garbage or fail in confusing ways. warden's own version is in
/// the key too, but a development build keeps its version across changes.
/// Bump it too when the way rules are compiled changes (their literals, the
/// index), or what an entry vouches for (every entry is compiled from files
/// that had settled, and [`read_latest`] relies on it): a cache built the old
/// way would still decode, and mislead.
pub(crate) const FORMAT_VERSION: u32 = 11;

const MAGIC: [u8; 8] = *b"WRDNPOL\x01";
const HEADER_LEN: usize = 8 + 4 + 32 + 8 + 8 + 8;
const KEY_DOMAIN: &[u8] = b"warden policy cache key\0";
const NAME_DOMAIN: &[u8] = b"warden policy cache name\0";

/// What a cache file must have been written for: SHA-256 of the inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key([u8; 32]);

impl Key {
    pub(crate) fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// A key recorded earlier (see `fingerprint`).
    pub(crate) fn from_bytes(bytes: [u8; 32]) -> Key {
        Key(bytes)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in &self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// One policy source as it was read for this call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyInput<'a> {
    pub(crate) path: &'a str,
    /// `None`: the file does not exist or could not be read.
    pub(crate) bytes: Option<&'a [u8]>,
}

fn put_len(hasher: &mut Sha256, len: usize) {
    hasher.update((len as u64).to_le_bytes());
}

fn put_field(hasher: &mut Sha256, bytes: &[u8]) {
    put_len(hasher, bytes.len());
    hasher.update(bytes);
}

/// The key of a cache entry for these inputs, in this order.
pub(crate) fn key(inputs: &[KeyInput<'_>]) -> Key {
    let mut hasher = Sha256::new();
    hasher.update(KEY_DOMAIN);
    hasher.update(FORMAT_VERSION.to_le_bytes());
    put_field(&mut hasher, env!("CARGO_PKG_VERSION").as_bytes());
    // Every variable-length piece carries its length and the list its count,
    // so no two different input lists feed the hash the same byte stream.
    put_len(&mut hasher, inputs.len());
    for input in inputs {
        put_field(&mut hasher, input.path.as_bytes());
        match input.bytes {
            None => hasher.update([0u8]),
            Some(bytes) => {
                hasher.update([1u8]);
                put_field(&mut hasher, bytes);
            }
        }
    }
    Key(hasher.finalize().into())
}

/// The cache file name for a set of source paths: each set gets its own file,
/// so two projects do not evict each other and a changed source overwrites
/// its set's old entry instead of piling up new ones.
pub(crate) fn file_name(paths: &[&str]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(NAME_DOMAIN);
    put_len(&mut hasher, paths.len());
    for path in paths {
        put_field(&mut hasher, path.as_bytes());
    }
    let digest = hasher.finalize();
    let mut name = String::from("policy-");
    for byte in digest.iter().take(8) {
        name.push_str(&format!("{byte:02x}"));
    }
    name.push_str(".bin");
    name
}

/// FNV-1a over 64-bit words, in four interleaved lanes (word `i` goes to
/// lane `i % 4`) so the multiplies overlap instead of waiting on each other.
/// Each step `h = (h ^ w) * P` is a bijection of `h` for a fixed word, so any
/// change confined to one word always changes its lane and so the result; it
/// runs at several bytes a cycle, where SHA-256 would not.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let seed = OFFSET ^ (bytes.len() as u64).wrapping_mul(PRIME);
    let mut lanes = [seed, seed ^ 1, seed ^ 2, seed ^ 3];
    let word = |chunk: &[u8]| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        u64::from_le_bytes(word)
    };
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, chunk) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = (*lane ^ word(chunk)).wrapping_mul(PRIME);
        }
    }
    for (lane, chunk) in lanes.iter_mut().zip(blocks.remainder().chunks(8)) {
        *lane = (*lane ^ word(chunk)).wrapping_mul(PRIME);
    }
    let mut hash = seed;
    for lane in lanes {
        hash = (hash ^ lane).wrapping_mul(PRIME);
    }
    // The multiply leaves the low bits depending only on low input bits.
    hash ^= hash >> 29;
    hash = hash.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash ^ (hash >> 32)
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let mut word = [0u8; 4];
    word.copy_from_slice(bytes.get(at..at + 4)?);
    Some(u32::from_le_bytes(word))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let mut word = [0u8; 8];
    word.copy_from_slice(bytes.get(at..at + 8)?);
    Some(u64::from_le_bytes(word))
}

/// An entry read in two parts: the head, read whole and checked against the
/// header's checksum, and the tail, left in the file for its owner to read
/// piece by piece (and check piece by piece: see `Policy`). Reading 10,000
/// rules to use three of them would cost more than the rest of the call.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) file: fs::File,
    pub(crate) head: Vec<u8>,
    /// Where the tail starts in `file`.
    pub(crate) tail_offset: u64,
    pub(crate) tail_len: u64,
}

/// The entry at `path` if it was written for `key` and its head is intact;
/// `None` on any miss, whatever the file holds.
pub(crate) fn read(path: &Path, key: &Key) -> Option<Entry> {
    open_entry(path, Some(key))
}

/// The entry at `path` whatever key it was written for, if it is intact:
/// the last policy compiled for this set of files, which decides a call
/// while one of them is in the middle of a save (see `settle`).
pub(crate) fn read_latest(path: &Path) -> Option<Entry> {
    open_entry(path, None)
}

/// The entry at `path`, written for `key` if one is given.
fn open_entry(path: &Path, key: Option<&Key>) -> Option<Entry> {
    let mut file = fs::File::open(path).ok()?;
    let file_len = file.metadata().ok()?.len();
    let mut header = [0u8; HEADER_LEN];
    file.read_exact(&mut header).ok()?;
    if header.get(..8)? != MAGIC.as_slice()
        || u32_at(&header, 8)? != FORMAT_VERSION
        || key.is_some_and(|key| header.get(12..44) != Some(key.0.as_slice()))
    {
        return None;
    }
    let head_len = u64_at(&header, 44)?;
    let sum = u64_at(&header, 52)?;
    let tail_len = u64_at(&header, 60)?;
    // The lengths must agree with the file itself before anything is
    // allocated, so a corrupt length costs nothing.
    if file_len.checked_sub(HEADER_LEN as u64)? != head_len.checked_add(tail_len)? {
        return None;
    }
    let mut head = Vec::with_capacity(usize::try_from(head_len).ok()?);
    (&mut file).take(head_len).read_to_end(&mut head).ok()?;
    if head.len() as u64 != head_len || checksum(&head) != sum {
        return None;
    }
    Some(Entry {
        file,
        head,
        tail_offset: HEADER_LEN as u64 + head_len,
        tail_len,
    })
}

/// Why the file at `path` is not a usable cache entry for any key, if it
/// exists and is not: a damaged or foreign file, as opposed to an entry
/// written for other sources (a normal miss) or no file at all.
pub(crate) fn damage(path: &Path) -> Option<String> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return Some("is not a regular file".into());
    }
    let mut header = [0u8; HEADER_LEN];
    let read = fs::File::open(path).and_then(|mut f| f.read_exact(&mut header));
    if read.is_err() || header.get(..8) != Some(MAGIC.as_slice()) {
        return Some("was truncated or is not a warden cache".into());
    }
    if u32_at(&header, 8) != Some(FORMAT_VERSION) {
        return Some("was written by another warden version".into());
    }
    let head_len = u64_at(&header, 44)?;
    let tail_len = u64_at(&header, 60)?;
    let whole = head_len
        .checked_add(tail_len)
        .and_then(|n| n.checked_add(HEADER_LEN as u64));
    if whole != Some(meta.len()) {
        return Some("was truncated or its lengths are corrupt".into());
    }
    let mut head = vec![0u8; usize::try_from(head_len).ok()?];
    let mut file = fs::File::open(path).ok()?;
    let intact = std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(HEADER_LEN as u64))
        .is_ok()
        && file.read_exact(&mut head).is_ok()
        && u64_at(&header, 52) == Some(checksum(&head));
    (!intact).then(|| "failed its checksum".into())
}

/// Stores a checked `head` and an unchecked `tail` (see [`Entry`]) at
/// `path` for `key`, replacing any older entry atomically.
pub(crate) fn write(path: &Path, key: &Key, head: &[u8], tail: &[u8]) -> Result<()> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + head.len() + tail.len());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&key.0);
    bytes.extend_from_slice(&(head.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(head).to_le_bytes());
    bytes.extend_from_slice(&(tail.len() as u64).to_le_bytes());
    bytes.extend_from_slice(head);
    bytes.extend_from_slice(tail);
    write_atomic(path, &bytes, false)
}

pub(crate) fn state_error(path: &Path, message: String) -> Error {
    Error::State {
        path: path.display().to_string(),
        message,
    }
}

/// Creates `dir` and its missing parents, private to the user: the state
/// directory says which rules guard which project.
pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Writes `bytes` to a fresh file next to `path` and renames it over `path`,
/// so a reader sees the old file or the new one, never half of one. `sync`
/// flushes the data to disk first (worth it for the ledger; a torn cache
/// file is only a miss).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    create_private_dir(dir).map_err(|e| {
        state_error(
            path,
            format!("cannot create directory {}: {e}", dir.display()),
        )
    })?;
    let name = path
        .file_name()
        .ok_or_else(|| state_error(path, "not a file path".to_string()))?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_nanos();
    let temp = dir.join(format!(
        ".{}.{}.{nanos}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = write_new_file(&temp, bytes, sync)
        .and_then(|()| fs::rename(&temp, path))
        .map_err(|e| state_error(path, format!("cannot write: {e}")));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

fn write_new_file(path: &Path, bytes: &[u8], sync: bool) -> std::io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    if sync {
        file.sync_all()?;
    }
    Ok(())
}

/// Removes the oldest `policy-*.bin` files in `dir` beyond the newest `keep`,
/// and temp files a crashed writer left behind. Best effort: errors are ignored.
pub(crate) fn prune(dir: &Path, keep: usize) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    let mut caches = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else {
            continue;
        };
        if name.starts_with("policy-") && name.ends_with(".bin") {
            caches.push((modified, entry.path()));
        } else if name.starts_with(".policy-") && name.ends_with(".tmp") {
            let age = now.duration_since(modified).unwrap_or(Duration::ZERO);
            if age > Duration::from_secs(600) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    caches.sort_by_key(|c| std::cmp::Reverse(c.0));
    for (_, path) in caches.into_iter().skip(keep) {
        let _ = fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::{RuleSpec, Settings, Target, ToolSel};
    use crate::config::policy::Policy;
    use crate::verdict::Decision;
    use std::io::{Seek, SeekFrom};
    use std::path::PathBuf;
    use std::time::Instant;

    /// A policy's head and rule bytes, as the loader stores them.
    type Parts = (Vec<u8>, Vec<u8>);

    fn parts(rules: Vec<RuleSpec>) -> Parts {
        let policy = Policy::new(Vec::new(), Settings::default(), rules);
        let (head, tail) = policy.to_parts().expect("a compiled policy encodes");
        (head, tail.to_vec())
    }

    fn sample() -> Parts {
        parts(vec![
            RuleSpec::new(
                "t.push",
                ToolSel::Shell,
                Target::Prefix("git push".into()),
                Decision::Block,
            ),
            RuleSpec::new(
                "t.ssh",
                ToolSel::Name("read_file".into()),
                Target::PathGlob("~/.ssh/**".into()),
                Decision::Ask,
            ),
        ])
    }

    fn store(path: &Path, key: &Key, (head, tail): &Parts) -> Result<()> {
        write(path, key, head, tail)
    }

    /// What a reader gets back: the checked head, and the tail read from
    /// where the entry says it is.
    fn read_back(path: &Path, key: &Key) -> Option<Parts> {
        let mut entry = read(path, key)?;
        entry.file.seek(SeekFrom::Start(entry.tail_offset)).ok()?;
        let mut tail = Vec::new();
        (&mut entry.file)
            .take(entry.tail_len)
            .read_to_end(&mut tail)
            .ok()?;
        Some((entry.head, tail))
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "warden-cache-test-{tag}-{}-{nanos}",
            std::process::id()
        ));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn sample_key() -> Key {
        key(&[KeyInput {
            path: "/p/.warden.yaml",
            bytes: Some(b"deny: [x]"),
        }])
    }

    #[test]
    fn round_trip() {
        let dir = temp_dir("round");
        let path = dir.join("state").join("policy-x.bin");
        let k = sample_key();
        store(&path, &k, &sample()).unwrap();
        assert_eq!(read_back(&path, &k), Some(sample()));
        // Overwriting replaces the entry.
        let other = parts(vec![RuleSpec::new(
            "t.other",
            ToolSel::Any,
            Target::Any,
            Decision::Allow,
        )]);
        store(&path, &k, &other).unwrap();
        assert_eq!(read_back(&path, &k), Some(other));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file_is_a_miss() {
        let dir = temp_dir("missing");
        assert!(read(&dir.join("nope.bin"), &sample_key()).is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn wrong_key_is_a_miss() {
        let dir = temp_dir("key");
        let path = dir.join("policy-x.bin");
        store(&path, &sample_key(), &sample()).unwrap();
        let other = key(&[KeyInput {
            path: "/p/.warden.yaml",
            bytes: Some(b"deny: [y]"),
        }]);
        assert!(read(&path, &other).is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn other_format_version_is_a_miss() {
        let dir = temp_dir("version");
        let path = dir.join("policy-x.bin");
        let k = sample_key();
        store(&path, &k, &sample()).unwrap();
        let mut bytes = fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        assert!(read(&path, &k).is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn keys_separate_inputs() {
        let k = |inputs: &[KeyInput<'_>]| key(inputs).to_string();
        let missing = k(&[KeyInput {
            path: "a",
            bytes: None,
        }]);
        let empty = k(&[KeyInput {
            path: "a",
            bytes: Some(b""),
        }]);
        assert_ne!(missing, empty);
        // Moving bytes between the path and the content must change the key.
        let one = k(&[KeyInput {
            path: "ab",
            bytes: Some(b"c"),
        }]);
        let two = k(&[KeyInput {
            path: "a",
            bytes: Some(b"bc"),
        }]);
        assert_ne!(one, two);
        // As must moving them between inputs.
        let split = k(&[
            KeyInput {
                path: "a",
                bytes: Some(b"b"),
            },
            KeyInput {
                path: "c",
                bytes: None,
            },
        ]);
        let joined = k(&[KeyInput {
            path: "a",
            bytes: Some(b"b\0\0\0\0\0\0\0\x01c\0"),
        }]);
        assert_ne!(split, joined);
        assert_ne!(k(&[]), missing);
        assert_eq!(
            empty,
            k(&[KeyInput {
                path: "a",
                bytes: Some(b""),
            }])
        );
        assert_eq!(empty.len(), 64);
        assert!(empty.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')));
    }

    #[test]
    fn file_names_are_stable_and_distinct() {
        let a = file_name(&["/home/u/.config/warden/config.yaml", "/p/.warden.yaml"]);
        assert_eq!(
            a,
            file_name(&["/home/u/.config/warden/config.yaml", "/p/.warden.yaml"])
        );
        assert_ne!(
            a,
            file_name(&["/home/u/.config/warden/config.yaml", "/q/.warden.yaml"])
        );
        assert_ne!(file_name(&["ab", "c"]), file_name(&["a", "bc"]));
        assert!(a.starts_with("policy-") && a.ends_with(".bin"));
        assert_eq!(a.len(), "policy-".len() + 16 + ".bin".len());
    }

    #[test]
    fn every_truncation_is_a_miss() {
        let dir = temp_dir("trunc");
        let path = dir.join("policy-x.bin");
        let k = sample_key();
        store(&path, &k, &sample()).unwrap();
        let bytes = fs::read(&path).unwrap();
        assert!(bytes.len() > HEADER_LEN);
        let cut = dir.join("cut.bin");
        for len in 0..bytes.len() {
            fs::write(&cut, &bytes[..len]).unwrap();
            assert!(read(&cut, &k).is_none(), "truncated to {len} bytes");
        }
        // Trailing garbage is as bad as missing bytes.
        let mut longer = bytes.clone();
        longer.push(0);
        fs::write(&cut, &longer).unwrap();
        assert!(read(&cut, &k).is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn flipped_header_or_head_bytes_are_a_miss() {
        let dir = temp_dir("flip");
        let path = dir.join("policy-x.bin");
        let k = sample_key();
        let (head, tail) = sample();
        store(&path, &k, &(head.clone(), tail.clone())).unwrap();
        let bytes = fs::read(&path).unwrap();
        assert_eq!(bytes.len(), HEADER_LEN + head.len() + tail.len());
        let bad = dir.join("bad.bin");
        for at in 0..HEADER_LEN + head.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut flipped = bytes.clone();
                flipped[at] ^= mask;
                fs::write(&bad, &flipped).unwrap();
                assert!(read(&bad, &k).is_none(), "byte {at} ^ {mask:#x}");
            }
        }
        // The rule bytes are left to the policy, which checks each rule as
        // it reads it (see `config::tests`): the entry itself still reads.
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + head.len()] ^= 0x01;
        fs::write(&bad, &flipped).unwrap();
        assert!(read(&bad, &k).is_some());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn checksum_sees_single_word_changes() {
        let base: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let sum = checksum(&base);
        for at in 0..base.len() {
            let mut changed = base.clone();
            changed[at] = changed[at].wrapping_add(1);
            assert_ne!(checksum(&changed), sum, "byte {at}");
        }
        assert_ne!(checksum(&base[..999]), sum);
        assert_ne!(checksum(b""), checksum(b"\0"));
    }

    #[test]
    fn giant_length_prefix_is_a_quick_miss() {
        let dir = temp_dir("giant");
        let path = dir.join("policy-x.bin");
        let k = sample_key();
        store(&path, &k, &sample()).unwrap();
        let mut bytes = fs::read(&path).unwrap();
        bytes[44..52].copy_from_slice(&u64::MAX.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        let start = Instant::now();
        assert!(read(&path, &k).is_none());
        assert!(start.elapsed() < Duration::from_secs(1));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn giant_inner_length_is_a_quick_miss() {
        // A well-formed header and checksum around a head whose first Vec
        // (the sources) says 2^60 elements, then whose first string says
        // 2^60 bytes. (bincode's slice reader and serde's cautious
        // preallocation already refuse this; the byte limit is a second
        // guard that this test cannot tell apart from the first.)
        let dir = temp_dir("inner");
        let path = dir.join("policy-x.bin");
        let k = sample_key();
        let start = Instant::now();
        for prefix in [vec![1u64 << 60], vec![1, 1 << 60]] {
            let mut head: Vec<u8> = prefix.iter().flat_map(|n| n.to_le_bytes()).collect();
            head.extend_from_slice(b"xxxxxxxx");
            write(&path, &k, &head, &[]).unwrap();
            let entry = read(&path, &k).expect("the head itself is intact");
            assert!(Policy::from_entry(entry).is_none());
        }
        assert!(start.elapsed() < Duration::from_secs(1));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unwritable_directory_is_an_error_naming_the_path() {
        let dir = temp_dir("unwritable");
        let blocker = dir.join("a-file");
        fs::write(&blocker, b"not a directory").unwrap();
        let path = blocker.join("sub").join("policy-x.bin");
        let err = store(&path, &sample_key(), &sample()).unwrap_err();
        assert!(matches!(err, Error::State { .. }), "{err:?}");
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failed_rename_leaves_no_temp_file() {
        // The target is an existing non-empty directory: the rename fails
        // after the temp file was written, and the temp file must go.
        let dir = temp_dir("rename");
        let path = dir.join("policy-x.bin");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("keep"), b"x").unwrap();
        assert!(store(&path, &sample_key(), &sample()).is_err());
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["policy-x.bin".to_string()]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn write_leaves_only_the_target() {
        let dir = temp_dir("atomic");
        let path = dir.join("policy-x.bin");
        for _ in 0..3 {
            store(&path, &sample_key(), &sample()).unwrap();
        }
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["policy-x.bin".to_string()]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn created_directories_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("mode");
        let state = dir.join("state");
        store(&state.join("policy-x.bin"), &sample_key(), &sample()).unwrap();
        let mode = fs::metadata(&state).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn prune_keeps_the_newest() {
        let dir = temp_dir("prune");
        let base = SystemTime::now() - Duration::from_secs(3600);
        for i in 0..5u64 {
            let path = dir.join(format!("policy-{i}.bin"));
            fs::write(&path, b"x").unwrap();
            let file = fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(base + Duration::from_secs(i * 60))
                .unwrap();
        }
        fs::write(dir.join("ledger.json"), b"{}").unwrap();
        prune(&dir, 2);
        let mut names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, vec!["ledger.json", "policy-3.bin", "policy-4.bin"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
