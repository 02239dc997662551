//! Sets of program names asked about for every command: one hash probe instead of a scan of a static list.
//!
//! The lists stay where they are written (and in their order, where order
//! matters); a set is built from them once, on first use. The hash is a
//! multiply-rotate over eight bytes at a time: the keys are short program
//! names fixed at build time, so the collision resistance of the standard
//! hasher buys nothing and costs more than the scans it replaces.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A word-at-a-time hasher for short trusted keys (the Fx hash of rustc).
#[derive(Default, Clone, Copy)]
pub(crate) struct NameHasher(u64);

impl NameHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        // The same little-endian word, zero-padded, built by shifts: a copy of
        // a length known only at run time is a call to `memcpy`, made for
        // nearly every name asked about.
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let word = rest
                .iter()
                .rev()
                .fold(0u64, |word, &b| (word << 8) | u64::from(b));
            self.add(word);
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Build = BuildHasherDefault<NameHasher>;

/// A set of names.
pub(crate) type NameSet = HashSet<&'static str, Build>;

/// Names to values; the first value given for a name is kept, as a scan
/// of the list in order would find it.
pub(crate) type NameMap<V> = HashMap<&'static str, V, Build>;

/// The set of every name in `lists`.
pub(crate) fn set(lists: &[&[&'static str]]) -> NameSet {
    lists.iter().flat_map(|l| l.iter().copied()).collect()
}

/// The map from each item's name to the first item with that name.
pub(crate) fn first_by_name<V: Copy>(
    items: impl IntoIterator<Item = (&'static str, V)>,
) -> NameMap<V> {
    let mut map = NameMap::default();
    for (name, value) in items {
        map.entry(name).or_insert(value);
    }
    map
}

/// A program list as the rule tables write it, where an entry ending in
/// `*` is a prefix (`python3*`): [`crate::shell::program_in`] with one probe
/// for the exact names.
pub(crate) struct ProgramSet {
    exact: NameSet,
    prefixes: Vec<&'static str>,
}

impl ProgramSet {
    pub(crate) fn new(list: &[&'static str]) -> ProgramSet {
        let mut exact = NameSet::default();
        let mut prefixes = Vec::new();
        for entry in list {
            match entry.strip_suffix('*') {
                Some(prefix) => prefixes.push(prefix),
                None => {
                    exact.insert(*entry);
                }
            }
        }
        ProgramSet { exact, prefixes }
    }

    pub(crate) fn contains(&self, program: &str) -> bool {
        self.exact.contains(program) || self.prefixes.iter().any(|p| program.starts_with(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_tail_hashes_as_its_zero_padded_word() {
        for name in ["", "a", "rm", "mkfs.ext", "python3.11", "abcdefghijklmno"] {
            let mut shifted = NameHasher::default();
            shifted.write(name.as_bytes());
            let mut padded = NameHasher::default();
            for chunk in name.as_bytes().chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                padded.add(u64::from_le_bytes(word));
            }
            assert_eq!(shifted.finish(), padded.finish(), "{name:?}");
        }
    }

    #[test]
    fn a_program_set_is_program_in() {
        let list: &[&'static str] = &["sh", "python*", "node", "*", "x*"];
        let names = [
            "",
            "sh",
            "shx",
            "python",
            "python3.11",
            "pytho",
            "node",
            "nodejs",
            "x",
            "xy",
        ];
        for lists in [list, &list[..3], &[]] {
            let set = ProgramSet::new(lists);
            for name in names {
                assert_eq!(
                    set.contains(name),
                    crate::shell::program_in(name, lists),
                    "{name} in {lists:?}"
                );
            }
        }
    }

    #[test]
    fn a_set_holds_exactly_its_lists() {
        let s = set(&[&["rm", "git", "a-very-long-program-name"], &["", "git"]]);
        for name in ["rm", "git", "a-very-long-program-name", ""] {
            assert!(s.contains(name), "{name}");
        }
        for name in [
            "r",
            "gi",
            "a-very-long-program-nam",
            "a-very-long-program-namex",
            "rmx",
        ] {
            assert!(!s.contains(name), "{name}");
        }
    }

    #[test]
    fn the_first_item_of_a_name_wins() {
        let m = first_by_name([("a", 1), ("b", 2), ("a", 3)]);
        assert_eq!(m.get("a"), Some(&1));
        assert_eq!(m.get("b"), Some(&2));
        assert_eq!(m.get("c"), None);
    }
}
