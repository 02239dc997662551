//! Sets of program names asked about for every command: one probe of a table built for them instead of a scan of a static list.
//!
//! The lists stay where they are written (and in their order, where order
//! matters); a set's table is built from them at compile time
//! ([`name_set!`], [`program_set!`]), a map's once, on first use. The names
//! are short and fixed at build time, so the table is made for them: open
//! addressing keyed by a name's length and first eight bytes (and its last
//! eight, for a longer one), which for a name of up to eight bytes are the
//! name itself, so most lookups compare two words and call nothing. It took
//! half the instructions of a `HashSet` with a word-at-a-time hasher, and
//! built at compile time it costs a call nothing to make.

use std::borrow::Cow;

/// A name's first eight bytes as a little-endian word, zero-padded (with
/// its length, the whole name when it is no longer than eight bytes), and
/// the hash that picks its first slot.
#[inline(always)]
const fn head_and_hash(name: &[u8]) -> (u64, u64) {
    let head = match name.first_chunk::<8>() {
        Some(eight) => u64::from_le_bytes(*eight),
        // The word built by shifts: a copy of a length known only at run
        // time is a call to `memcpy`.
        None => {
            let (mut word, mut i) = (0u64, name.len());
            while i > 0 {
                i -= 1;
                word = (word << 8) | name[i] as u64;
            }
            word
        }
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
pub(crate) struct Slot<V> {
    head: u64,
    name: &'static str,
    /// `None` only in an empty slot.
    value: Option<V>,
}

/// Names to values; the first value given for a name is kept, as a scan of
/// the list in order would find it.
pub(crate) struct NameMap<V: Copy + 'static> {
    slots: Cow<'static, [Slot<V>]>,
    /// The hash's top bits pick the first slot: 64 minus the table's log2 size.
    shift: u32,
}

/// A set of names.
pub(crate) type NameSet = NameMap<()>;

/// The table size for `count` names: a power of two, at most two thirds
/// full, so a probe meets an empty slot soon (the largest table, some 650
/// names, stays at 32 KiB).
pub(crate) const fn table_size(count: usize) -> usize {
    let size = (count + count / 2).next_power_of_two();
    if size < 8 {
        8
    } else {
        size
    }
}

pub(crate) const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl<V> Slot<V> {
    pub(crate) const VACANT: Slot<V> = Slot {
        head: 0,
        name: "",
        value: None,
    };
}

/// Puts `name` into `slots` unless it is there already.
pub(crate) const fn insert<V: Copy>(slots: &mut [Slot<V>], name: &'static str, value: V) {
    let (head, hash) = head_and_hash(name.as_bytes());
    let mask = slots.len() - 1;
    let mut i = (hash >> (64 - slots.len().trailing_zeros())) as usize;
    loop {
        if slots[i].value.is_none() {
            slots[i] = Slot {
                head,
                name,
                value: Some(value),
            };
            return;
        }
        if same(slots[i].name, name) {
            return;
        }
        i = (i + 1) & mask;
    }
}

const fn is_prefix(entry: &str) -> bool {
    matches!(entry.as_bytes(), [.., b'*'])
}

/// How many names the groups hold (without the `name*` prefixes, for a
/// program set).
pub(crate) const fn count<V>(groups: &[(&[&str], V)], programs: bool) -> usize {
    let (mut n, mut g) = (0, 0);
    while g < groups.len() {
        let mut i = 0;
        while i < groups[g].0.len() {
            if !(programs && is_prefix(groups[g].0[i])) {
                n += 1;
            }
            i += 1;
        }
        g += 1;
    }
    n
}

/// The table of every name of the groups, each to its group's value (the
/// first group naming it wins), `N` being [`table_size`] of their
/// [`count`]; a program set leaves out the `name*` prefixes.
pub(crate) const fn slots<V: Copy, const N: usize>(
    groups: &[(&[&'static str], V)],
    programs: bool,
) -> [Slot<V>; N] {
    let mut slots = [Slot::VACANT; N];
    let mut g = 0;
    while g < groups.len() {
        let mut i = 0;
        while i < groups[g].0.len() {
            if !(programs && is_prefix(groups[g].0[i])) {
                insert(&mut slots, groups[g].0[i], groups[g].1);
            }
            i += 1;
        }
        g += 1;
    }
    slots
}

impl<V: Copy> NameMap<V> {
    fn build(items: impl IntoIterator<Item = (&'static str, V)>) -> NameMap<V> {
        let items: Vec<(&'static str, V)> = items.into_iter().collect();
        let mut slots = vec![Slot::VACANT; table_size(items.len())];
        for (name, value) in items {
            insert(&mut slots, name, value);
        }
        NameMap {
            shift: 64 - slots.len().trailing_zeros(),
            slots: Cow::Owned(slots),
        }
    }

    /// A map over a table built at compile time ([`slots`], [`insert`]).
    pub(crate) const fn built(slots: &'static [Slot<V>]) -> NameMap<V> {
        NameMap {
            shift: 64 - slots.len().trailing_zeros(),
            slots: Cow::Borrowed(slots),
        }
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

/// The [`NameMap`] from every name of each list (a `&[&str]` constant or
/// static) to the list's value, its table built at compile time:
/// `name_map!(Kind; LIST => Kind::A, OTHER => Kind::B)`.
macro_rules! name_map {
    ($v:ty; $($list:expr => $value:expr),+ $(,)?) => {{
        const GROUPS: &[(&[&str], $v)] = &[$(($list, $value)),+];
        const SIZE: usize = $crate::shell::names::table_size($crate::shell::names::count(GROUPS, false));
        const SLOTS: [$crate::shell::names::Slot<$v>; SIZE] = $crate::shell::names::slots(GROUPS, false);
        $crate::shell::names::NameMap::built(&SLOTS)
    }};
}
pub(crate) use name_map;

/// The [`NameSet`] of every name in the lists, its table built at compile time.
macro_rules! name_set {
    ($($list:expr),+ $(,)?) => {
        $crate::shell::names::name_map!((); $($list => ()),+)
    };
}
pub(crate) use name_set;

/// The set of every name in `lists`, built now.
#[cfg(test)]
pub(crate) fn set(lists: &[&[&'static str]]) -> NameSet {
    lists.iter().flat_map(|l| l.iter().copied()).collect()
}

/// The map from each item's name to the first item with that name.
#[cfg(test)]
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
    prefixes: Cow<'static, [&'static str]>,
}

/// How many entries of `list` are prefixes.
pub(crate) const fn prefix_count(list: &[&str]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < list.len() {
        if is_prefix(list[i]) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The prefixes of `list` without their `*`, `N` being [`prefix_count`].
pub(crate) const fn prefixes<const N: usize>(list: &[&'static str]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut n, mut i) = (0, 0);
    while i < list.len() {
        if is_prefix(list[i]) {
            let (stem, _) = list[i].as_bytes().split_at(list[i].len() - 1);
            // Cutting off an ASCII `*` leaves valid UTF-8.
            if let Ok(stem) = std::str::from_utf8(stem) {
                out[n] = stem;
            }
            n += 1;
        }
        i += 1;
    }
    out
}

/// The [`ProgramSet`] of a program list, built at compile time.
macro_rules! program_set {
    ($list:expr) => {{
        const GROUPS: &[(&[&str], ())] = &[($list, ())];
        const SIZE: usize =
            $crate::shell::names::table_size($crate::shell::names::count(GROUPS, true));
        const SLOTS: [$crate::shell::names::Slot<()>; SIZE] =
            $crate::shell::names::slots(GROUPS, true);
        const PREFIXES: [&str; $crate::shell::names::prefix_count($list)] =
            $crate::shell::names::prefixes($list);
        $crate::shell::names::ProgramSet::built(&SLOTS, &PREFIXES)
    }};
}
pub(crate) use program_set;

impl ProgramSet {
    #[cfg(test)]
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

    /// A set over a table and prefixes built at compile time.
    pub(crate) const fn built(
        slots: &'static [Slot<()>],
        prefixes: &'static [&'static str],
    ) -> ProgramSet {
        ProgramSet {
            exact: NameMap::built(slots),
            prefixes: Cow::Borrowed(prefixes),
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
    fn tables_built_at_compile_time_are_the_ones_built_now() {
        const A: &[&str] = &[
            "rm",
            "git",
            "a-very-long-program-name",
            "python3.11",
            "python3.12",
        ];
        const B: &[&str] = &["", "git", "x", "python*"];
        static BUILT: NameSet = name_set!(A, B);
        static PROGRAMS: ProgramSet = program_set!(B);
        static MAP: NameMap<u8> = name_map!(u8; A => 1, B => 2);
        let (now, programs) = (set(&[A, B]), ProgramSet::new(B));
        let others = ["r", "gi", "python3.1", "python3", "y", "python*"];
        for name in A.iter().chain(B).chain(&others) {
            assert_eq!(BUILT.contains(name), now.contains(name), "{name}");
            assert_eq!(programs.contains(name), PROGRAMS.contains(name), "{name}");
            let first = [(A, 1), (B, 2)].into_iter().find(|(l, _)| l.contains(name));
            assert_eq!(MAP.get(name).copied(), first.map(|(_, v)| v), "{name}");
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
