//! Sets of program names asked about for every command: one probe of a table built for them instead of a scan of a static list.
//!
//! The lists stay where they are written (and in their order, where order
//! matters); a table is built from them once, on first use. The names are
//! short and fixed at build time, so the table is made for them: open
//! addressing keyed by a name's length and first eight bytes (and its last
//! eight, for a longer one), which for a name of up to eight bytes are the
//! name itself, so most lookups compare two words and call nothing. It took
//! half the instructions of a `HashSet` with a word-at-a-time hasher.

/// A name's first eight bytes as a little-endian word, zero-padded (with
/// its length, the whole name when it is no longer than eight bytes), and
/// the hash that picks its first slot.
#[inline(always)]
fn head_and_hash(name: &[u8]) -> (u64, u64) {
    let head = match name.first_chunk::<8>() {
        Some(eight) => u64::from_le_bytes(*eight),
        // The word built by shifts: a copy of a length known only at run
        // time is a call to `memcpy`.
        None => name
            .iter()
            .rev()
            .fold(0u64, |word, &b| (word << 8) | u64::from(b)),
    };
    // A longer name also mixes in its last eight bytes, so names that
    // share a beginning (`python3.11`, `python3.12`) spread out.
    let tail = match name.last_chunk::<8>() {
        Some(eight) if name.len() > 8 => u64::from_le_bytes(*eight).rotate_left(29),
        _ => 0,
    };
    let hash =
        (head ^ tail ^ (name.len() as u64).rotate_right(7)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (head, hash)
}

/// A slot of the table: 32 bytes for a set.
#[derive(Clone, Copy)]
struct Slot<V> {
    head: u64,
    name: &'static str,
    /// `None` only in an empty slot.
    value: Option<V>,
}

/// Names to values, built once; the first value given for a name is kept,
/// as a scan of the list in order would find it.
pub(crate) struct NameMap<V> {
    slots: Vec<Slot<V>>,
    /// The hash's top bits pick the first slot: 64 minus the table's log2 size.
    shift: u32,
}

/// A set of names.
pub(crate) type NameSet = NameMap<()>;

impl<V: Copy> NameMap<V> {
    fn build(items: impl IntoIterator<Item = (&'static str, V)>) -> NameMap<V> {
        let items: Vec<(&'static str, V)> = items.into_iter().collect();
        // At most two thirds full: a probe meets an empty slot soon, and
        // the largest table (some 650 names) stays at 32 KiB, where half
        // full it took 64 KiB and a call that builds it eight more pages.
        let size = (items.len() + items.len() / 2).next_power_of_two().max(8);
        let vacant = Slot {
            head: 0,
            name: "",
            value: None,
        };
        let mut map = NameMap {
            slots: vec![vacant; size],
            shift: 64 - size.trailing_zeros(),
        };
        for (name, value) in items {
            let (head, hash) = head_and_hash(name.as_bytes());
            let mask = size - 1;
            let mut i = (hash >> map.shift) as usize;
            loop {
                let slot = &mut map.slots[i];
                if slot.value.is_none() {
                    *slot = Slot {
                        head,
                        name,
                        value: Some(value),
                    };
                    break;
                }
                if slot.name == name {
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        map
    }

    /// The value of `name`, if it is in the table. Always inlined: as a
    /// call, saving and restoring registers cost as much as the probe.
    #[inline(always)]
    pub(crate) fn get(&self, name: &str) -> Option<&V> {
        let bytes = name.as_bytes();
        let (head, hash) = head_and_hash(bytes);
        let mask = self.slots.len() - 1;
        let mut i = (hash >> self.shift) as usize;
        loop {
            let slot = &self.slots[i];
            // An empty slot holds the empty name's key ("" and a head of 0)
            // and no value: for the empty name it answers `None`, rightly,
            // since the name would have been put there.
            if slot.head == head
                && slot.name.len() == bytes.len()
                && (bytes.len() <= 8 || slot.name.as_bytes()[8..] == bytes[8..])
            {
                return slot.value.as_ref();
            }
            slot.value.as_ref()?;
            i = (i + 1) & mask;
        }
    }

    #[inline(always)]
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

impl FromIterator<&'static str> for NameSet {
    fn from_iter<I: IntoIterator<Item = &'static str>>(names: I) -> NameSet {
        NameMap::build(names.into_iter().map(|name| (name, ())))
    }
}

/// The set of every name in `lists`.
pub(crate) fn set(lists: &[&[&'static str]]) -> NameSet {
    lists.iter().flat_map(|l| l.iter().copied()).collect()
}

/// The map from each item's name to the first item with that name.
pub(crate) fn first_by_name<V: Copy>(
    items: impl IntoIterator<Item = (&'static str, V)>,
) -> NameMap<V> {
    NameMap::build(items)
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
        let (prefixes, exact): (Vec<&'static str>, Vec<&'static str>) =
            list.iter().partition(|entry| entry.ends_with('*'));
        ProgramSet {
            exact: exact.into_iter().collect(),
            prefixes: prefixes
                .into_iter()
                .map(|p| p.strip_suffix('*').unwrap_or(p))
                .collect(),
        }
    }

    pub(crate) fn contains(&self, program: &str) -> bool {
        self.exact.contains(program) || self.prefixes.iter().any(|p| program.starts_with(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_holds_what_a_hash_set_holds() {
        // Names that share beginnings, ends and lengths, long and short,
        // empty, with NUL and non-ASCII bytes.
        let mut names: Vec<String> = vec![String::new(), "\0".into(), "a\0".into(), "é".into()];
        for stem in [
            "python3.",
            "x",
            "abcdefgh",
            "abcdefghi",
            "kubectl-",
            "a-very-long-program-",
        ] {
            for n in 0..40 {
                names.push(format!("{stem}{n}"));
                names.push(format!("{n}{stem}"));
            }
        }
        let names: Vec<&'static str> = names.into_iter().map(|n| &*n.leak()).collect();
        for count in [0, 1, 7, 8, 9, 100, names.len()] {
            let members = &names[..count];
            let table: NameSet = members.iter().copied().collect();
            let expected: std::collections::HashSet<&str> = members.iter().copied().collect();
            for name in names
                .iter()
                .copied()
                .chain(["python3.1000", "abcdefg", "abcdefghij"])
            {
                assert_eq!(
                    table.contains(name),
                    expected.contains(name),
                    "{name:?} of {count}"
                );
            }
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
