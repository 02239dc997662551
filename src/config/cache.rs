//! The compiled-policy cache: one bincode file per set of policy sources, keyed by SHA-256 of their bytes and sealed with this user's key.
//!
//! A hook call has about a millisecond in all, so reading a cache file costs
//! one `open`, two reads, a cheap checksum and a bincode decode. What an
//! entry is believed to be is what its header says, and the header is
//! believed only under its tag (see `seal`): the SHA-256 key (over every
//! source's path and bytes, the ledger's, the format version and warden's
//! version) says which bytes it was compiled from, the set says which
//! files, and the tag, over the header, the head and the rules, says that
//! warden wrote all of it with this user's key. The tag is checked whenever
//! the file is not the very one a sealed stamp vouches for (see
//! `fingerprint`); the checksums only guard against torn writes and bit rot.
//! Every failure to read is a plain miss: the caller recompiles.

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use crate::config::fingerprint::Fingerprint;
use crate::config::seal::{Seal, Tag};
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
pub(crate) const FORMAT_VERSION: u32 = 17;

const MAGIC: [u8; 8] = *b"WRDNPOL\x01";
const KEY_AT: usize = 12;
const SET_AT: usize = KEY_AT + 32;
const HEAD_LEN_AT: usize = SET_AT + 16;
const SUM_AT: usize = HEAD_LEN_AT + 8;
const TAIL_LEN_AT: usize = SUM_AT + 8;
/// Everything before the tag, which the tag covers.
const TAG_AT: usize = TAIL_LEN_AT + 8;
const HEADER_LEN: usize = TAG_AT + 16;
const KEY_DOMAIN: &[u8] = b"warden policy cache key\0";
const SET_DOMAIN: &[u8] = b"warden policy cache set\0";
const ENTRY_DOMAIN: &[u8] = b"warden policy cache entry\0";

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

/// Which set of files (their paths) an entry holds the policy of: a tag,
/// so it also names the file the entry is kept in, a name no other key
/// (another `HOME`'s warden) gives the same set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SetId(Tag);

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

/// The set of source paths a call looked at, under `seal`.
pub(crate) fn set_id(seal: &Seal, paths: &[&str]) -> SetId {
    let mut tagger = seal.tagger(SET_DOMAIN);
    tagger.feed(&(paths.len() as u64).to_le_bytes());
    for path in paths {
        tagger.put(path.as_bytes());
    }
    SetId(tagger.finish())
}

/// The cache file name for a set of source paths: each set gets its own file,
/// so two projects do not evict each other and a changed source overwrites
/// its set's old entry instead of piling up new ones.
pub(crate) fn file_name(set: &SetId) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut name = String::from("policy-");
    for byte in set.0.iter().take(8) {
        name.push(char::from(HEX[usize::from(byte >> 4)]));
        name.push(char::from(HEX[usize::from(byte & 15)]));
    }
    name.push_str(".bin");
    name
}

/// Where a call's set of sources is cached.
#[derive(Debug, Clone)]
pub(crate) enum Place {
    /// No cache directory is known.
    Off,
    /// There is one, but no key to seal entries with (why not): every call
    /// compiles.
    Keyless(String),
    At(Slot),
}

/// The cache file of one set of sources, and the seal its entry and stamp
/// must carry.
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub(crate) file: std::path::PathBuf,
    pub(crate) seal: Seal,
    pub(crate) set: SetId,
}

impl Place {
    /// Where the sources at `paths` are cached: in `cache_dir`, sealed with
    /// the key kept in `state_dir` beside the ledger (never in the cache
    /// directory, where it would vouch for whatever was put beside it).
    pub(crate) fn of(
        cache_dir: Option<&Path>,
        state_dir: Option<&Path>,
        paths: &[String],
    ) -> Place {
        let Some(dir) = cache_dir else {
            return Place::Off;
        };
        let Some(state) = state_dir else {
            return Place::Keyless("no state directory is known for the cache key".into());
        };
        match Seal::of(state) {
            Err(why) => Place::Keyless(why),
            Ok(seal) => {
                let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
                let set = set_id(&seal, &paths);
                Place::At(Slot {
                    file: dir.join(file_name(&set)),
                    seal,
                    set,
                })
            }
        }
    }

    pub(crate) fn slot(&self) -> Option<&Slot> {
        match self {
            Place::At(slot) => Some(slot),
            _ => None,
        }
    }

    pub(crate) fn file(&self) -> Option<std::path::PathBuf> {
        self.slot().map(|slot| slot.file.clone())
    }
}

/// XXH3 (64 bits) of `bytes`: several bytes a cycle, where SHA-256 would
/// not be. Damage (a torn write, a flipped bit) goes unseen with odds of
/// 2^-64 for the head, 2^-32 for a rule's record, which keeps the low half.
/// It finds damage, not forgery: anyone can compute it (the seal's tag is
/// for that).
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
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

/// The fields of a header, once its magic, version and lengths hold.
struct Header {
    bytes: [u8; HEADER_LEN],
    head_len: u64,
    tail_len: u64,
}

impl Header {
    /// Reads a header from `file`, whose length is `file_len`; why not, as
    /// the note that names a damaged file says it.
    fn read(file: &mut fs::File, file_len: u64) -> std::result::Result<Header, &'static str> {
        let mut bytes = [0u8; HEADER_LEN];
        let truncated = "was truncated or is not a warden cache";
        if file.read_exact(&mut bytes).is_err() || bytes[..8] != MAGIC {
            return Err(truncated);
        }
        if u32_at(&bytes, 8) != Some(FORMAT_VERSION) {
            return Err("was written by another warden version");
        }
        let (head_len, tail_len) = (u64_at(&bytes, HEAD_LEN_AT), u64_at(&bytes, TAIL_LEN_AT));
        let (Some(head_len), Some(tail_len)) = (head_len, tail_len) else {
            return Err(truncated);
        };
        // The lengths must agree with the file itself before anything is
        // allocated, so a corrupt length costs nothing.
        let whole = head_len
            .checked_add(tail_len)
            .and_then(|n| n.checked_add(HEADER_LEN as u64));
        if whole != Some(file_len) {
            return Err("was truncated or its lengths are corrupt");
        }
        Ok(Header {
            bytes,
            head_len,
            tail_len,
        })
    }

    fn key(&self) -> &[u8] {
        &self.bytes[KEY_AT..SET_AT]
    }

    fn set(&self) -> &[u8] {
        &self.bytes[SET_AT..HEAD_LEN_AT]
    }

    fn tag(&self) -> &[u8] {
        &self.bytes[TAG_AT..]
    }

    /// The head, read from where the header leaves `file`, if it is whole
    /// and matches its checksum.
    fn read_head(&self, file: &mut fs::File) -> Option<Vec<u8>> {
        let mut head = Vec::with_capacity(usize::try_from(self.head_len).ok()?);
        file.take(self.head_len).read_to_end(&mut head).ok()?;
        let intact = head.len() as u64 == self.head_len
            && Some(checksum(&head)) == u64_at(&self.bytes, SUM_AT);
        intact.then_some(head)
    }

    /// The rest of `file`, the rules, if its tag says this user's warden
    /// wrote this header, `head` and them.
    fn read_sealed_tail(&self, file: &mut fs::File, head: &[u8], seal: &Seal) -> Option<Vec<u8>> {
        let mut tail = Vec::with_capacity(usize::try_from(self.tail_len).ok()?);
        file.take(self.tail_len).read_to_end(&mut tail).ok()?;
        let tag = entry_tag(seal, &self.bytes[..TAG_AT], head, &tail);
        (tail.len() as u64 == self.tail_len && self.tag() == tag.as_slice()).then_some(tail)
    }
}

fn entry_tag(seal: &Seal, header: &[u8], head: &[u8], tail: &[u8]) -> Tag {
    seal.tag(ENTRY_DOMAIN, &[header, head, tail])
}

/// An entry read in two parts: the head, read whole and checked against the
/// header's checksum, and the tail, left in the file for its owner to read
/// piece by piece (and check piece by piece: see `Policy`) when a stamp
/// vouches for the file, else read whole to check the tag. Reading 10,000
/// rules to use three of them would cost more than the rest of the call.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) head: Vec<u8>,
    pub(crate) tail: Tail,
    /// The file as it was read, if it did not change meanwhile: what a
    /// stamp may vouch for once it is old enough (see `fingerprint`).
    pub(crate) print: Option<Fingerprint>,
    /// Whether its tag was checked on this read (rather than a stamp
    /// vouching for the file).
    pub(crate) verified: bool,
}

/// Where an entry's tail (the rule index's body and the rules) is.
#[derive(Debug)]
pub(crate) enum Tail {
    /// Still in the file, which must still be as `print` says whenever
    /// rules are read from it: a stamp vouched for that file, not another.
    File {
        file: fs::File,
        offset: u64,
        len: u64,
        print: Fingerprint,
    },
    /// Read, and checked against the tag.
    Memory(Vec<u8>),
}

/// What an entry must have been written for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Want<'a> {
    /// These very bytes.
    Key(&'a Key),
    /// This set of files, whatever their bytes were: see [`read_latest`].
    Set(&'a SetId),
}

/// The entry at `path` if this user's warden wrote it for `key`; `None` on
/// any miss, whatever the file holds.
pub(crate) fn read(path: &Path, seal: &Seal, key: &Key) -> Option<Entry> {
    open(path, seal, Want::Key(key), None)
}

/// The entry at `path` for the set `set`, whatever bytes it was compiled
/// from, if this user's warden wrote it: the last policy compiled for this
/// set of files, which decides a call while one of them is in the middle of
/// a save (see `settle`; the caller checks it against the ledger).
pub(crate) fn read_latest(path: &Path, seal: &Seal, set: &SetId) -> Option<Entry> {
    open(path, seal, Want::Set(set), None)
}

/// The entry at `path`, written for `want`. Its tag is checked unless the
/// file is still the one whose `vouched` fingerprint a sealed stamp
/// recorded after checking it (unchanged since: its ctime cannot be set
/// back), which spares reading every rule on every call.
pub(crate) fn open(
    path: &Path,
    seal: &Seal,
    want: Want<'_>,
    vouched: Option<&Fingerprint>,
) -> Option<Entry> {
    let mut file = fs::File::open(path).ok()?;
    let before = file.metadata().ok()?;
    let header = Header::read(&mut file, before.len()).ok()?;
    let wanted = match want {
        Want::Key(key) => header.key() == key.0.as_slice(),
        Want::Set(set) => header.set() == set.0.as_slice(),
    };
    if !wanted {
        return None;
    }
    let head = header.read_head(&mut file)?;
    let offset = HEADER_LEN as u64 + header.head_len;
    if let Some(vouched) = vouched {
        // Taken after the head was read: a change before or during the
        // read shows here.
        if vouched.is_of(&file.metadata().ok()?) {
            let print = vouched.clone();
            return Some(Entry {
                head,
                tail: Tail::File {
                    file,
                    offset,
                    len: header.tail_len,
                    print: print.clone(),
                },
                print: Some(print),
                verified: false,
            });
        }
    }
    let tail = header.read_sealed_tail(&mut file, &head, seal)?;
    let print = Fingerprint::from_stat(path, Some(&before), false);
    let unchanged = file.metadata().is_ok_and(|after| print.is_of(&after));
    Some(Entry {
        head,
        tail: Tail::Memory(tail),
        print: unchanged.then_some(print),
        verified: true,
    })
}

/// Why the file at `path` is not a usable cache entry for the set `set`,
/// if it exists and is not: a damaged, foreign or forged file, as opposed
/// to an entry written for earlier bytes of the same files (a normal miss)
/// or no file at all.
pub(crate) fn damage(path: &Path, seal: &Seal, set: &SetId) -> Option<String> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return Some("is not a regular file".into());
    }
    let Ok(mut file) = fs::File::open(path) else {
        return Some("cannot be read".into());
    };
    let header = match Header::read(&mut file, meta.len()) {
        Ok(header) => header,
        Err(why) => return Some(why.into()),
    };
    let Some(head) = header.read_head(&mut file) else {
        return Some("failed its checksum".into());
    };
    if header.read_sealed_tail(&mut file, &head, seal).is_none() {
        return Some(
            "was not sealed with this user's key (it was made elsewhere, or changed since)".into(),
        );
    }
    (header.set() != set.0.as_slice()).then(|| "held the policy of other files".into())
}

/// Stores a checked `head` and an unchecked `tail` (see [`Entry`]) at
/// `path` for the set `set` and `key`, sealed, replacing any older entry
/// atomically.
pub(crate) fn write(
    path: &Path,
    seal: &Seal,
    set: &SetId,
    key: &Key,
    head: &[u8],
    tail: &[u8],
) -> Result<()> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + head.len() + tail.len());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&key.0);
    bytes.extend_from_slice(&set.0);
    bytes.extend_from_slice(&(head.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(head).to_le_bytes());
    bytes.extend_from_slice(&(tail.len() as u64).to_le_bytes());
    let tag = entry_tag(seal, &bytes, head, tail);
    bytes.extend_from_slice(&tag);
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

/// Cache files kept at most, the most recently used first: one per set of
/// policy files, which is one per project with a policy of its own and one
/// per directory an agent works in under a user's config. A few hundred
/// covers everyday work many times over, while the whole directory stays a
/// few megabytes and pruning it (one `stat` per file, only when an entry is
/// written, beside a compile that costs milliseconds) stays well under one.
pub(crate) const KEEP: usize = 256;

/// An entry not used for this long is removed when another is written: its
/// project is done with, or moved, and compiling it again costs one call a
/// few milliseconds.
pub(crate) const UNUSED_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);

/// How stale the "last used" time of an entry (its stamp's mtime) may get
/// before a call that uses it sets it to now: once a day at most, so that a
/// call writes nothing for it on every other day (see
/// `fingerprint::recorded`).
pub(crate) const USE_TICK: Duration = Duration::from_secs(24 * 3600);

/// Removes the cache files in `dir` (with their stamps) not used within
/// `unused_after`, then all but the `keep` most recently used, and
/// temporary files left behind by a writer that died. An entry was last
/// used when it or its stamp was last written, or the stamp's time was
/// last set by a call that used it.
pub(crate) fn prune(dir: &Path, keep: usize, unused_after: Duration) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    let age = |time: SystemTime| now.duration_since(time).unwrap_or(Duration::ZERO);
    let mut caches = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else {
            continue;
        };
        if name.starts_with("policy-") && name.ends_with(".bin") {
            let path = entry.path();
            let stamp = crate::config::fingerprint::stamp_path(&path);
            let stamped = fs::metadata(&stamp).and_then(|m| m.modified());
            let used = stamped.map_or(modified, |s| s.max(modified));
            caches.push((used, path));
        } else if name.starts_with(".policy-")
            && name.ends_with(".tmp")
            && age(modified) > Duration::from_secs(600)
        {
            let _ = fs::remove_file(entry.path());
        }
    }
    caches.sort_by_key(|c| std::cmp::Reverse(c.0));
    for (index, (used, path)) in caches.into_iter().enumerate() {
        if index >= keep || age(used) > unused_after {
            let _ = fs::remove_file(crate::config::fingerprint::stamp_path(&path));
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests;
