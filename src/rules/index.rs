//! Program name to rule indices for a set of rules, worked out at compile time for the built-in sets.
//!
//! A command meets only the rules that name its program, so every call
//! needs this index; building it at run time walked 1,500 names in two
//! passes on every call, a quarter of a `git status` call's instructions.
//! The same `const fn` builds it for the floor and the built-in dangerous
//! rules into static tables, and at run time for any other set.

use std::borrow::Cow;

use super::{Matcher, Rule, Table};

const BUCKETS: usize = 256;

/// The rules a set is made of, in set order: what the index is built from.
#[derive(Clone, Copy)]
pub(crate) enum Source<'a> {
    /// Tables, each by reference (the floor's).
    Tables(&'a [&'a Table]),
    /// Tables in one slice (the built-in dangerous rules').
    Slice(&'a [Table]),
    /// Rules listed one by one.
    Rules(&'a [&'a Rule]),
}

impl<'a> Source<'a> {
    /// How many rules group `t` holds; `None` past the last group.
    const fn group_len(&self, t: usize) -> Option<usize> {
        match *self {
            Source::Tables(tables) if t < tables.len() => Some(tables[t].rules.len()),
            Source::Slice(tables) if t < tables.len() => Some(tables[t].rules.len()),
            Source::Rules(rules) if t == 0 => Some(rules.len()),
            _ => None,
        }
    }

    /// Rule `r` of group `t`, which [`Source::group_len`] bounds.
    const fn rule(&self, t: usize, r: usize) -> &'a Rule {
        match *self {
            Source::Tables(tables) => &tables[t].rules[r],
            Source::Slice(tables) => &tables[t].rules[r],
            Source::Rules(rules) => rules[r],
        }
    }
}

/// The `k`th program name `matcher` is indexed under, if it has one.
pub(super) const fn program_at(matcher: &Matcher, k: usize) -> Option<&'static str> {
    match matcher {
        Matcher::Command { programs, .. } | Matcher::Check { programs, .. }
            if k < programs.len() =>
        {
            Some(programs[k])
        }
        Matcher::Verbs(rows) if k < rows.len() => Some(rows[k].program),
        _ => None,
    }
}

const fn bucket(program: &str) -> usize {
    let bytes = program.as_bytes();
    let (first, last) = match bytes {
        [] => (0, 0),
        [first, .., last] => (*first as usize, *last as usize),
        [only] => (*only as usize, *only as usize),
    };
    (bytes.len().wrapping_mul(31) ^ first ^ last.wrapping_mul(7)) % BUCKETS
}

/// What [`walk`] does with each name it meets.
enum Visit<'e> {
    /// Counts each exact name into `counts[bucket + 1]`.
    Count,
    /// Writes each exact name's entry at `counts[bucket]` and moves that on.
    Place(&'e mut [(u32, u32)]),
    /// Writes each prefix (`mkfs*`, without its `*`) and its rule in order,
    /// counting them in `counts[0]`.
    Prefixes(&'e mut [(&'static str, u32)]),
}

/// Walks every name of every rule, doing `visit` with it.
const fn walk(source: Source, counts: &mut [u32; BUCKETS + 1], mut visit: Visit) {
    let (mut t, mut i) = (0, 0u32);
    while let Some(len) = source.group_len(t) {
        let mut r = 0;
        while r < len {
            let matcher = &source.rule(t, r).matcher;
            let mut k = 0;
            while let Some(name) = program_at(matcher, k) {
                let b = bucket(name);
                match (&mut visit, name.as_bytes()) {
                    (Visit::Prefixes(out), [stem @ .., b'*']) => {
                        // Counting only, the output is empty. Cutting off an
                        // ASCII `*` leaves valid UTF-8.
                        let n = counts[0] as usize;
                        if let (true, Ok(stem)) = (n < out.len(), std::str::from_utf8(stem)) {
                            out[n] = (stem, i);
                        }
                        counts[0] += 1;
                    }
                    (Visit::Prefixes(_), _) | (_, [.., b'*']) => {}
                    (Visit::Count, _) => counts[b + 1] += 1,
                    (Visit::Place(entries), _) => {
                        entries[counts[b] as usize] = (i, k as u32);
                        counts[b] += 1;
                    }
                }
                k += 1;
            }
            (i, r) = (i + 1, r + 1);
        }
        t += 1;
    }
}

/// Where each bucket starts: counted, then summed.
const fn starts(source: Source) -> [u32; BUCKETS + 1] {
    let mut starts = [0u32; BUCKETS + 1];
    walk(source, &mut starts, Visit::Count);
    let mut b = 0;
    while b < BUCKETS {
        starts[b + 1] += starts[b];
        b += 1;
    }
    starts
}

/// How many exact names the index of `source` has.
pub(crate) const fn size(source: Source) -> usize {
    starts(source)[BUCKETS] as usize
}

/// How many prefixes (`mkfs*`) the rules of `source` name.
pub(crate) const fn prefix_count(source: Source) -> usize {
    let mut counts = [0u32; BUCKETS + 1];
    walk(source, &mut counts, Visit::Prefixes(&mut []));
    counts[0] as usize
}

/// The group of prefix `stem`: 0 for the empty one (it begins every
/// name), else its first byte plus one.
const fn first_byte_key(stem: &str) -> usize {
    match stem.as_bytes() {
        [] => 0,
        [first, ..] => *first as usize + 1,
    }
}

/// How many groups of prefixes there are: the empty one and one per byte.
const PREFIX_GROUPS: usize = 257;

/// Sorts `prefixed` by [`first_byte_key`], keeping rule order within a
/// group, and returns where each group starts (group `k` is
/// `prefixed[starts[k]..starts[k + 1]]`): a program then meets only the
/// prefixes that begin with its own first byte.
const fn group_prefixes(prefixed: &mut [(&'static str, u32)]) -> [u32; PREFIX_GROUPS + 1] {
    // Insertion sort: stable, and a set has a few dozen prefixes.
    let mut i = 1;
    while i < prefixed.len() {
        let mut j = i;
        while j > 0 && first_byte_key(prefixed[j - 1].0) > first_byte_key(prefixed[j].0) {
            let moved = prefixed[j];
            prefixed[j] = prefixed[j - 1];
            prefixed[j - 1] = moved;
            j -= 1;
        }
        i += 1;
    }
    let mut starts = [0u32; PREFIX_GROUPS + 1];
    let mut n = 0;
    while n < prefixed.len() {
        starts[first_byte_key(prefixed[n].0) + 1] += 1;
        n += 1;
    }
    let mut k = 0;
    while k < PREFIX_GROUPS {
        starts[k + 1] += starts[k];
        k += 1;
    }
    starts
}

/// An index built at compile time, `N` being [`size`] and `P`
/// [`prefix_count`] of its source.
pub(crate) struct Built<const N: usize, const P: usize> {
    starts: [u32; BUCKETS + 1],
    entries: [(u32, u32); N],
    prefixed: [(&'static str, u32); P],
    prefix_starts: [u32; PREFIX_GROUPS + 1],
}

impl<const N: usize, const P: usize> Built<N, P> {
    pub(crate) const fn new(source: Source) -> Built<N, P> {
        let starts = starts(source);
        let mut next = starts;
        let mut entries = [(0u32, 0u32); N];
        walk(source, &mut next, Visit::Place(&mut entries));
        let mut prefixed = [("", 0u32); P];
        walk(
            source,
            &mut [0; BUCKETS + 1],
            Visit::Prefixes(&mut prefixed),
        );
        let prefix_starts = group_prefixes(&mut prefixed);
        Built {
            starts,
            entries,
            prefixed,
            prefix_starts,
        }
    }
}

/// Program name to rule indices, as buckets in one flat array (the layout
/// of a compressed sparse row). An entry is a rule and the place of the
/// name among its programs, eight bytes, not the name itself: the pages a
/// call touches are counted in page faults, which cost more than the
/// instructions.
pub(super) struct ProgramIndex {
    /// Bucket `b` is `entries[starts[b]..starts[b + 1]]`.
    starts: Cow<'static, [u32]>,
    /// Rule index and the name's place in its programs, in rule order
    /// within each bucket.
    entries: Cow<'static, [(u32, u32)]>,
    /// The names that are prefixes (`mkfs*`, kept as `mkfs`) and their
    /// rules, grouped by first byte ([`group_prefixes`]), in rule order
    /// within a group.
    prefixed: Cow<'static, [(&'static str, u32)]>,
    /// Where each group of `prefixed` starts.
    prefix_starts: Cow<'static, [u32]>,
}

impl ProgramIndex {
    /// The index of `rules`, built now.
    pub(super) fn new(rules: &[&'static Rule]) -> ProgramIndex {
        let source = Source::Rules(rules);
        let starts = starts(source);
        let mut next = starts;
        let mut entries = vec![(0u32, 0u32); starts[BUCKETS] as usize];
        walk(source, &mut next, Visit::Place(&mut entries));
        let mut prefixed = vec![("", 0u32); prefix_count(source)];
        walk(
            source,
            &mut [0; BUCKETS + 1],
            Visit::Prefixes(&mut prefixed),
        );
        let prefix_starts = group_prefixes(&mut prefixed);
        ProgramIndex {
            starts: Cow::Owned(starts.to_vec()),
            entries: Cow::Owned(entries),
            prefixed: Cow::Owned(prefixed),
            prefix_starts: Cow::Owned(prefix_starts.to_vec()),
        }
    }

    /// An index built at compile time.
    pub(super) fn built<const N: usize, const P: usize>(
        built: &'static Built<N, P>,
    ) -> ProgramIndex {
        ProgramIndex {
            starts: Cow::Borrowed(&built.starts),
            entries: Cow::Borrowed(&built.entries),
            prefixed: Cow::Borrowed(&built.prefixed),
            prefix_starts: Cow::Borrowed(&built.prefix_starts),
        }
    }

    /// The prefixes that may begin `program`, with their rules: the empty
    /// one and those that begin with its first byte, not all of them.
    pub(super) fn prefixes_of<'a>(
        &'a self,
        program: &str,
    ) -> impl Iterator<Item = &'a (&'static str, u32)> + 'a {
        let group = |k: usize| {
            &self.prefixed[self.prefix_starts[k] as usize..self.prefix_starts[k + 1] as usize]
        };
        let own = match first_byte_key(program) {
            0 => &[][..],
            k => group(k),
        };
        group(0).iter().chain(own)
    }

    /// Every prefix and its rule (for checks of [`ProgramIndex::prefixes_of`]).
    pub(super) fn all_prefixes(&self) -> &[(&'static str, u32)] {
        &self.prefixed
    }

    /// The name entry `(rule, k)` stands for.
    fn name(rules: &[&'static Rule], (rule, k): (u32, u32)) -> &'static str {
        rules
            .get(rule as usize)
            .and_then(|r| program_at(&r.matcher, k as usize))
            .unwrap_or("")
    }

    /// The rules naming `program`, in rule order (a rule naming it twice,
    /// twice: `candidates` drops the repeat, which is cheaper than
    /// searching a long table's names for it while building).
    pub(super) fn get<'a>(
        &'a self,
        rules: &'a [&'static Rule],
        program: &'a str,
    ) -> impl Iterator<Item = usize> + 'a {
        let b = bucket(program);
        self.entries[self.starts[b] as usize..self.starts[b + 1] as usize]
            .iter()
            .filter(move |&&entry| Self::name(rules, entry) == program)
            .map(|&(rule, _)| rule as usize)
    }

    /// Every exact name indexed.
    #[cfg(test)]
    pub(super) fn all<'a>(
        &'a self,
        rules: &'a [&'static Rule],
    ) -> impl Iterator<Item = &'static str> + 'a {
        self.entries
            .iter()
            .map(move |&entry| Self::name(rules, entry))
    }

    /// Whether two indexes hold the same buckets.
    #[cfg(test)]
    pub(super) fn same_as(&self, other: &ProgramIndex) -> bool {
        self.starts == other.starts
            && self.entries == other.entries
            && self.prefixed == other.prefixed
            && self.prefix_starts == other.prefix_starts
    }
}
