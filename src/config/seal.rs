//! The cache's seal: a secret of this user's (in the state directory, beside the ledger) that every cache entry and stamp is tagged with, so nothing placed in the cache directory can stand in for a policy.
//!
//! The cache directory is a plain directory of the user's: anything that can
//! write a file there could otherwise write a policy, and a checksum or a
//! SHA-256 key in the file proves nothing, since whoever writes the file can
//! compute those too. A tag is SipHash-2-4 (128 bits), a keyed function
//! whose output cannot be made without the key: an entry is believed only if
//! warden itself, with this user's key, wrote it. A warden run with another
//! `HOME` (or state directory) has another key, so what it writes is refused
//! here, and an entry it wrote for other files is refused by what the tag
//! covers: the sources' key and the set of paths (see `cache`).
//!
//! The key is made on first use from the system's random source, written
//! once (a file that appears whole or not at all) and never changed, unless
//! it is damaged, in which case every entry it sealed is simply rebuilt.

use std::fmt;
use std::fs;
use std::hash::Hasher as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use siphasher::sip128::{Hasher128 as _, SipHasher24};

/// The file, in the state directory, that holds the key.
const FILE: &str = "cache.key";
const LEN: usize = 16;

/// This user's cache key.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Seal([u8; LEN]);

/// A tag: what a sealed thing carries to show it was made with the key.
pub(crate) type Tag = [u8; LEN];

// By hand: the key is never printed.
impl fmt::Debug for Seal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seal(..)")
    }
}

/// A tag being computed over several parts, each length-prefixed so that
/// no two different lists of parts feed the function the same bytes.
pub(crate) struct Tagger(SipHasher24);

impl Tagger {
    /// Starts a part of `len` bytes, to be fed with [`Tagger::feed`].
    pub(crate) fn part(&mut self, len: usize) -> &mut Tagger {
        self.0.write(&(len as u64).to_le_bytes());
        self
    }

    pub(crate) fn feed(&mut self, bytes: &[u8]) -> &mut Tagger {
        self.0.write(bytes);
        self
    }

    /// A whole part.
    pub(crate) fn put(&mut self, bytes: &[u8]) -> &mut Tagger {
        self.part(bytes.len()).feed(bytes)
    }

    pub(crate) fn finish(&self) -> Tag {
        self.0.finish128().as_bytes()
    }
}

impl Seal {
    /// A seal with a given key (tests and fuzzing).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn from_bytes(key: [u8; LEN]) -> Seal {
        Seal(key)
    }

    /// The key in `state_dir`, made if there is none (or it is damaged).
    /// An error says why there is no key: the cache cannot be used then.
    pub(crate) fn of(state_dir: &Path) -> Result<Seal, String> {
        let path = state_dir.join(FILE);
        match read(&path) {
            Ok(Some(seal)) => Ok(seal),
            Ok(None) => make(&path, false),
            // A key of the wrong length: whatever it sealed is rebuilt.
            Err(()) => make(&path, true),
        }
    }

    /// A tag computation for one kind of thing (`domain`), so a tag made
    /// for one kind is never valid for another.
    pub(crate) fn tagger(&self, domain: &[u8]) -> Tagger {
        let mut tagger = Tagger(SipHasher24::new_with_key(&self.0));
        tagger.put(domain);
        tagger
    }

    /// The tag of `parts` for `domain`.
    pub(crate) fn tag(&self, domain: &[u8], parts: &[&[u8]]) -> Tag {
        let mut tagger = self.tagger(domain);
        for part in parts {
            tagger.put(part);
        }
        tagger.finish()
    }
}

/// The key at `path`: `Ok(None)` if there is none, `Err` if it is damaged.
fn read(path: &Path) -> Result<Option<Seal>, ()> {
    let mut file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err(()),
    };
    let mut bytes = Vec::with_capacity(LEN + 1);
    file.by_ref()
        .take(LEN as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| ())?;
    let key: [u8; LEN] = bytes.as_slice().try_into().map_err(|_| ())?;
    Ok(Some(Seal(key)))
}

/// Makes a key at `path`. A fresh one is linked into place only if there
/// is still none, so hooks starting at once agree on the one that won;
/// `replace` puts it over a damaged one.
fn make(path: &Path, replace: bool) -> Result<Seal, String> {
    let why = |e: &dyn fmt::Display| format!("cannot make the cache key {}: {e}", path.display());
    let seal = Seal(random().map_err(|e| why(&e))?);
    let temp = temp_beside(path);
    crate::config::cache::write_atomic(&temp, &seal.0, true).map_err(|e| why(&e))?;
    let placed = if replace {
        fs::rename(&temp, path)
    } else {
        let linked = fs::hard_link(&temp, path);
        let _ = fs::remove_file(&temp);
        linked
    };
    if placed.is_err() {
        let _ = fs::remove_file(&temp);
    }
    match (placed, read(path)) {
        (_, Ok(Some(winner))) => Ok(winner),
        (Err(e), _) => Err(why(&e)),
        (Ok(()), _) => Err(why(&"it does not read back")),
    }
}

fn temp_beside(path: &Path) -> PathBuf {
    let nanos = crate::config::fingerprint::now_ns();
    path.with_file_name(format!(".{FILE}.{}.{nanos}.new", std::process::id()))
}

/// Sixteen bytes from the system's random source.
fn random() -> std::io::Result<[u8; LEN]> {
    let mut key = [0u8; LEN];
    fs::File::open("/dev/urandom")?.read_exact(&mut key)?;
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "warden-seal-{tag}-{}-{}",
            std::process::id(),
            crate::config::fingerprint::now_ns()
        ));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn tags_are_sip_hash_2_4_with_128_bit_output() {
        // The reference implementation's first 128-bit vector: key 00..0f,
        // the empty message.
        let key: [u8; 16] = std::array::from_fn(|i| i as u8);
        let expected = [
            0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55,
            0x02, 0x93,
        ];
        assert_eq!(
            SipHasher24::new_with_key(&key).finish128().as_bytes(),
            expected
        );
        // A tag is that function over the domain and the parts, each after
        // its length.
        let mut by_hand = SipHasher24::new_with_key(&key);
        for part in [&b"d"[..], b"xy"] {
            by_hand.write(&(part.len() as u64).to_le_bytes());
            by_hand.write(part);
        }
        let seal = Seal::from_bytes(key);
        assert_eq!(seal.tag(b"d", &[b"xy"]), by_hand.finish128().as_bytes());
    }

    #[test]
    fn a_key_is_made_once_and_kept() {
        let dir = dir("once");
        let first = Seal::of(&dir).unwrap();
        assert_eq!(Seal::of(&dir).unwrap(), first);
        assert_eq!(fs::read(dir.join(FILE)).unwrap().len(), LEN);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let names: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn homes_have_different_keys_and_a_damaged_key_is_replaced() {
        let (a, b) = (dir("home-a"), dir("home-b"));
        let seal = Seal::of(&a).unwrap();
        assert_ne!(seal, Seal::of(&b).unwrap());
        let tag = seal.tag(b"t", &[b"x"]);
        assert_ne!(tag, Seal::of(&b).unwrap().tag(b"t", &[b"x"]));
        fs::write(a.join(FILE), b"short").unwrap();
        let fresh = Seal::of(&a).unwrap();
        assert_ne!(fresh, seal);
        assert_eq!(Seal::of(&a).unwrap(), fresh);
        fs::remove_dir_all(&a).unwrap();
        fs::remove_dir_all(&b).unwrap();
    }

    #[test]
    fn hooks_starting_at_once_agree_on_one_key() {
        let dir = dir("race");
        let seals: Vec<Seal> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8).map(|_| s.spawn(|| Seal::of(&dir))).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap().unwrap())
                .collect()
        });
        assert!(seals.iter().all(|s| *s == seals[0]));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tags_separate_domains_and_parts() {
        let seal = Seal::from_bytes([7; 16]);
        assert_ne!(seal.tag(b"a", &[b"x"]), seal.tag(b"b", &[b"x"]));
        assert_ne!(seal.tag(b"a", &[b"xy", b""]), seal.tag(b"a", &[b"x", b"y"]));
        assert_eq!(seal.tag(b"a", &[b"x"]), seal.tag(b"a", &[b"x"]));
        let mut streamed = seal.tagger(b"a");
        streamed.part(2).feed(b"x").feed(b"y");
        assert_eq!(streamed.finish(), seal.tag(b"a", &[b"xy"]));
    }

    #[test]
    fn an_unwritable_state_directory_is_an_error() {
        let dir = dir("unwritable");
        let blocker = dir.join("file");
        fs::write(&blocker, b"x").unwrap();
        let err = Seal::of(&blocker.join("state")).unwrap_err();
        assert!(err.contains("cache key"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
