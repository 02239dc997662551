//! The compiled user rules as the cache holds them: one record per rule, and an index from a short substring of each rule's literal to the rule, in flat little-endian sections read in place.
//!
//! A call must cost the same with 10 rules or 10,000, so nothing here is
//! decoded element by element when the cache is loaded: the index is one
//! byte buffer whose sections are read where they lie, and a rule's record
//! (its literal and its encoded form) is read from the cache file only when
//! the call contains that rule's gram.
//!
//! Every rule that needs a literal (see `pattern::required_literal`) is
//! indexed by one *gram* of it: four bytes, chosen as the rarest among all
//! the rules' literals, so 10,000 rules sharing a prefix (`kubectl delete
//! namespace prod-1` … `prod-10000`) do not all become candidates for every
//! `kubectl` command. A rule can only match a call whose text contains its
//! literal, hence that gram; the record's literal is then checked whole
//! before the rule is decoded. Literals of three bytes are indexed by all
//! three. Rules with no literal are always candidates.
//!
//! Index layout (all `u32`, little-endian):
//!
//! ```text
//! rules  buckets  entries  always  flags
//! offsets[rules + 1]     record n is records[offsets[n]..offsets[n + 1]]
//! sums[rules]            low 32 bits of each record's checksum
//! starts[buckets + 1]    bucket b is entries[starts[b]..starts[b + 1]]
//! entries[entries]       (gram, rule), by bucket, rules ascending in each
//! always[always]         rules with no literal
//! filter[2048]           65,536 bits: bit h is set if some gram hashes to h
//! ```
//!
//! The filter lets most of a call's 4-byte windows be passed over with one
//! load and a bit test: with 100 rules, 99.8% of them.
//!
//! A record is `u16` literal length, the literal, then the rule (bincode).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use bincode::Options as _;

use crate::config::cache::checksum;
use crate::config::fingerprint::Fingerprint;
use crate::config::model::RuleSpec;
use crate::config::pattern::{self, MIN_LITERAL};

const FIELDS: usize = 5;
/// `flags` bit: some rule is indexed by a three-byte gram.
const SHORT_GRAMS: u32 = 1;
/// A three-byte gram's fourth byte: never part of UTF-8, so never confused
/// with four bytes of text.
const SHORT_MARK: u32 = 0xff << 24;
/// Longer literals are cut: any part of a required literal is required too.
const MAX_LITERAL: usize = 1024;
/// The filter's size in bits, and in 32-bit words.
const FILTER_BITS: u32 = 16;
const FILTER_WORDS: usize = (1 << FILTER_BITS) / 32;

/// The rules and their index.
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleTable {
    /// The index sections start at `bytes[base..]`.
    bytes: Vec<u8>,
    base: usize,
    shape: Shape,
    records: Records,
}

/// Section counts and where each section starts (in `u32`s from `base`).
#[derive(Debug, Clone, Copy, Default)]
struct Shape {
    rules: usize,
    entries: usize,
    always: usize,
    short: bool,
    offsets: usize,
    sums: usize,
    starts: usize,
    grams: usize,
    always_at: usize,
    filter: usize,
    /// `32 - log2(buckets)`: a gram's bucket is the top bits of its hash.
    shift: u32,
}

impl Shape {
    fn new(rules: usize, buckets: usize, entries: usize, always: usize, flags: u32) -> Shape {
        let offsets = FIELDS;
        let sums = offsets + rules + 1;
        let starts = sums + rules;
        let grams = starts + buckets + 1;
        let always_at = grams + 2 * entries;
        let filter = always_at + always;
        Shape {
            rules,
            entries,
            always,
            short: flags & SHORT_GRAMS != 0,
            offsets,
            sums,
            starts,
            grams,
            always_at,
            filter,
            shift: 32 - buckets.max(1).trailing_zeros(),
        }
    }

    /// Length of the index in bytes.
    fn len(&self) -> usize {
        (self.filter + FILTER_WORDS) * 4
    }
}

/// Where the records are: in memory (just compiled, or read and checked
/// against the cache entry's tag), or still in the cache file, read one at a
/// time when a call could match them.
#[derive(Debug, Clone)]
pub(crate) enum Records {
    Memory(Vec<u8>),
    File {
        file: Arc<std::fs::File>,
        offset: u64,
        len: u64,
        /// The file a sealed stamp vouched for: records read from it are
        /// believed only while it is still that file (see [`RuleTable::unchanged`]).
        print: Fingerprint,
    },
}

impl Default for Records {
    fn default() -> Records {
        Records::Memory(Vec::new())
    }
}

/// A rule's record, checked against its sum.
pub(crate) struct Record<'a> {
    bytes: Cow<'a, [u8]>,
    literal_end: usize,
}

impl Record<'_> {
    /// The literal every text this rule matches contains (empty for none).
    pub(crate) fn literal(&self) -> &[u8] {
        &self.bytes[2..self.literal_end]
    }

    pub(crate) fn rule(&self) -> Option<RuleSpec> {
        bincode::DefaultOptions::new()
            .deserialize(&self.bytes[self.literal_end..])
            .ok()
    }
}

/// A multiplicative hash: literals sharing a prefix differ in their last
/// bytes, which the multiply carries into the top bits.
fn hash(gram: u32) -> u32 {
    gram.wrapping_mul(0x9e37_79b1)
}

fn bucket(gram: u32, shift: u32) -> usize {
    (hash(gram) >> shift) as usize
}

/// The filter bit of a gram.
fn filter_bit(gram: u32) -> usize {
    (hash(gram) >> (32 - FILTER_BITS)) as usize
}

fn gram4(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

fn gram3(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], 0]) | SHORT_MARK
}

impl RuleTable {
    /// Encodes `rules` and indexes them.
    pub(crate) fn build(rules: &[RuleSpec]) -> RuleTable {
        let literals: Vec<Vec<u8>> = rules
            .iter()
            .map(|rule| match pattern::required_literal(&rule.target) {
                Some(literal) if literal.len() >= MIN_LITERAL => {
                    let mut bytes = literal.into_bytes();
                    bytes.truncate(MAX_LITERAL);
                    bytes
                }
                _ => Vec::new(),
            })
            .collect();
        // How many literals each four-byte gram occurs in.
        let mut counts: HashMap<u32, u32> = HashMap::new();
        let mut seen = Vec::new();
        for literal in &literals {
            seen.clear();
            seen.extend(literal.windows(4).map(gram4));
            seen.sort_unstable();
            seen.dedup();
            for &gram in &seen {
                *counts.entry(gram).or_default() += 1;
            }
        }
        let mut grams: Vec<(u32, u32)> = Vec::new();
        let mut always = Vec::new();
        let mut flags = 0;
        for (n, literal) in literals.iter().enumerate() {
            let n = n as u32;
            match literal.len() {
                0 => always.push(n),
                3 => {
                    flags |= SHORT_GRAMS;
                    grams.push((gram3(literal), n));
                }
                _ => {
                    let rarest = literal
                        .windows(4)
                        .map(gram4)
                        .min_by_key(|g| counts.get(g).copied().unwrap_or(0))
                        .unwrap_or_default();
                    grams.push((rarest, n));
                }
            }
        }
        let buckets = grams.len().next_power_of_two().max(16);
        let shape = Shape::new(rules.len(), buckets, grams.len(), always.len(), flags);
        let mut words: Vec<u32> = Vec::with_capacity(shape.len() / 4);
        words.extend([
            rules.len() as u32,
            buckets as u32,
            grams.len() as u32,
            always.len() as u32,
            flags,
        ]);
        let mut records = Vec::new();
        let mut sums = Vec::with_capacity(rules.len());
        words.push(0);
        for (rule, literal) in rules.iter().zip(&literals) {
            let start = records.len();
            records.extend_from_slice(&(literal.len() as u16).to_le_bytes());
            records.extend_from_slice(literal);
            // Encoding a struct whose every length is known into memory
            // cannot fail; if it ever did, the empty rule would fail to
            // decode and the rule would be skipped, not misread.
            let encoded = bincode::DefaultOptions::new()
                .serialize(rule)
                .unwrap_or_default();
            records.extend_from_slice(&encoded);
            sums.push(checksum(&records[start..]) as u32);
            words.push(records.len() as u32);
        }
        words.extend(&sums);
        // Counting sort by bucket; rules stay ascending within each.
        let mut starts = vec![0u32; buckets + 1];
        for &(gram, _) in &grams {
            starts[bucket(gram, shape.shift) + 1] += 1;
        }
        for b in 0..buckets {
            starts[b + 1] += starts[b];
        }
        let mut next = starts.clone();
        let mut entries = vec![0u32; 2 * grams.len()];
        for &(gram, rule) in &grams {
            let b = bucket(gram, shape.shift);
            let at = next[b] as usize;
            entries[2 * at] = gram;
            entries[2 * at + 1] = rule;
            next[b] += 1;
        }
        let mut filter = vec![0u32; FILTER_WORDS];
        for &(gram, _) in &grams {
            let bit = filter_bit(gram);
            filter[bit / 32] |= 1 << (bit % 32);
        }
        words.extend(&starts);
        words.extend(&entries);
        words.extend(&always);
        words.extend(&filter);
        let mut bytes = Vec::with_capacity(words.len() * 4);
        for word in &words {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        RuleTable {
            bytes,
            base: 0,
            shape,
            records: Records::Memory(records),
        }
    }

    /// The index and the records, for the cache.
    pub(crate) fn parts(&self) -> Option<(&[u8], &[u8])> {
        match &self.records {
            Records::Memory(records) => Some((self.bytes.get(self.base..)?, records)),
            Records::File { .. } => None,
        }
    }

    /// The table whose index is `bytes[base..]` (nothing after it) and
    /// whose records are `records`; `None` if the sections do not fit.
    pub(crate) fn from_parts(bytes: Vec<u8>, base: usize, records: Records) -> Option<RuleTable> {
        let mut table = RuleTable {
            bytes,
            base,
            shape: Shape::default(),
            records,
        };
        let field = |i| table.word(i);
        let (rules, buckets, entries, always, flags) =
            (field(0)?, field(1)?, field(2)?, field(3)?, field(4)?);
        // Every count is of 4-byte words inside the index: a count larger
        // than the index is a lie, refused before any arithmetic on it.
        let room = table.bytes.len();
        if [rules, buckets, entries, always]
            .iter()
            .any(|&c| c as usize > room)
        {
            return None;
        }
        let shape = Shape::new(
            rules as usize,
            buckets as usize,
            entries as usize,
            always as usize,
            flags,
        );
        let records_len = match &table.records {
            Records::Memory(records) => records.len() as u64,
            Records::File { len, .. } => *len,
        };
        let fits = buckets.is_power_of_two()
            && table.bytes.len().checked_sub(base)? == shape.len()
            && u64::from(table.word(shape.offsets + shape.rules)?) == records_len;
        table.shape = shape;
        fits.then_some(table)
    }

    fn word(&self, i: usize) -> Option<u32> {
        let at = self.base.checked_add(i.checked_mul(4)?)?;
        let bytes = self.bytes.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// Reads the records into memory when they are in the cache file and
    /// no longer than `limit` bytes: a process that judges many calls with
    /// one policy (`check --batch`) then reads each candidate's record
    /// without a system call. The records are checked as they are used,
    /// wherever they are.
    #[cfg(unix)]
    pub(crate) fn hold_records(&mut self, limit: u64) {
        use std::os::unix::fs::FileExt;
        let Records::File {
            file, offset, len, ..
        } = &self.records
        else {
            return;
        };
        let Ok(size) = usize::try_from(*len) else {
            return;
        };
        if *len > limit {
            return;
        }
        let mut records = vec![0u8; size];
        if file.read_exact_at(&mut records, *offset).is_ok() && self.unchanged() {
            self.records = Records::Memory(records);
        }
    }

    /// Whether the records read so far are the ones the entry was sealed
    /// with: true in memory; in the file, if it is still the file a stamp
    /// vouched for. Asked after reading, so a change made while a call
    /// read them shows (its ctime cannot be set back).
    pub(crate) fn unchanged(&self) -> bool {
        match &self.records {
            Records::Memory(_) => true,
            Records::File { file, print, .. } => file.metadata().is_ok_and(|m| print.is_of(&m)),
        }
    }

    /// How many rules there are.
    pub(crate) fn len(&self) -> usize {
        self.shape.rules
    }

    /// Rule `n`'s record, or `None` if it cannot be read or fails its check.
    pub(crate) fn record(&self, n: usize) -> Option<Record<'_>> {
        if n >= self.shape.rules {
            return None;
        }
        let start = self.word(self.shape.offsets + n)? as usize;
        let end = self.word(self.shape.offsets + n + 1)? as usize;
        let bytes: Cow<'_, [u8]> = match &self.records {
            Records::Memory(records) => Cow::Borrowed(records.get(start..end)?),
            #[cfg(unix)]
            Records::File { file, offset, .. } => {
                use std::os::unix::fs::FileExt;
                let mut buf = vec![0u8; end.checked_sub(start)?];
                file.read_exact_at(&mut buf, offset.checked_add(start as u64)?)
                    .ok()?;
                Cow::Owned(buf)
            }
            #[cfg(not(unix))]
            Records::File { .. } => return None,
        };
        if checksum(&bytes) as u32 != self.word(self.shape.sums + n)? {
            return None;
        }
        let literal_len = u16::from_le_bytes([*bytes.first()?, *bytes.get(1)?]) as usize;
        let literal_end = 2usize.checked_add(literal_len)?;
        (literal_end <= bytes.len()).then_some(Record { bytes, literal_end })
    }

    /// The rules that could match a call whose (lower-cased) text is
    /// `haystack`, ascending: those whose gram occurs in it, and those
    /// with no literal.
    pub(crate) fn candidates(&self, haystack: &[u8]) -> Vec<u32> {
        let shape = &self.shape;
        let mut out: Vec<u32> = (0..shape.always)
            .filter_map(|i| self.word(shape.always_at + i))
            .collect();
        let filter_at = self.base + shape.filter * 4;
        let filter: &[u8; FILTER_WORDS * 4] = match self
            .bytes
            .get(filter_at..filter_at + FILTER_WORDS * 4)
            .and_then(|f| f.try_into().ok())
        {
            Some(filter) if shape.entries > 0 => filter,
            _ => return out,
        };
        // Bit `b` of the little-endian words is bit `b % 8` of byte `b / 8`.
        // A bit is below 2^FILTER_BITS, so its byte is always in the array.
        let maybe = |gram: u32| {
            let bit = filter_bit(gram);
            filter[bit >> 3] >> (bit & 7) & 1 == 1
        };
        let mut look = |gram: u32| {
            let b = bucket(gram, shape.shift);
            let (Some(from), Some(to)) =
                (self.word(shape.starts + b), self.word(shape.starts + b + 1))
            else {
                return;
            };
            for e in from as usize..(to as usize).min(shape.entries) {
                if self.word(shape.grams + 2 * e) == Some(gram) {
                    if let Some(rule) = self.word(shape.grams + 2 * e + 1) {
                        out.push(rule);
                    }
                }
            }
        };
        // Each gram is the last one shifted by a byte: no slice per window.
        if let Some(first) = haystack.get(..4) {
            let mut gram = gram4(first);
            if maybe(gram) {
                look(gram);
            }
            for &b in &haystack[4..] {
                gram = gram >> 8 | u32::from(b) << 24;
                if maybe(gram) {
                    look(gram);
                }
            }
        }
        if shape.short {
            for three in haystack.windows(3) {
                let gram = gram3(three);
                if maybe(gram) {
                    look(gram);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::{Target, ToolSel};
    use crate::verdict::Decision;

    fn prefix(text: &str) -> RuleSpec {
        RuleSpec::new(
            "t.rule",
            ToolSel::Shell,
            Target::Prefix(text.to_string()),
            Decision::Block,
        )
    }

    /// Candidates are exactly the rules whose literal occurs in the text,
    /// plus the literal-free ones: checked against a plain scan.
    #[test]
    fn candidates_include_every_rule_whose_literal_occurs() {
        let mut rules: Vec<RuleSpec> = (0..600)
            .map(|i| prefix(&format!("kubectl delete namespace prod-{i}")))
            .collect();
        rules.extend(["rm", "abc", "tool", "kubectl", "x y z"].map(prefix));
        rules.push(RuleSpec::new(
            "t.any",
            ToolSel::Shell,
            Target::Any,
            Decision::Block,
        ));
        let table = RuleTable::build(&rules);
        let texts = [
            "kubectl delete namespace prod-599 --wait=false",
            "kubectl delete namespace prod-5",
            "git status",
            "abc && tool",
            "ab",
            "",
            "KUBECTL get pods",
            "x y z kubectl delete namespace prod-1000",
        ];
        for text in texts {
            let haystack = text.to_ascii_lowercase();
            let found = table.candidates(haystack.as_bytes());
            for n in 0..table.len() {
                let record = table.record(n).expect("a fresh record reads");
                let literal = record.literal();
                let occurs = literal.is_empty()
                    || haystack
                        .as_bytes()
                        .windows(literal.len())
                        .any(|w| w == literal);
                if occurs {
                    assert!(found.contains(&(n as u32)), "{text:?}: rule {n} missed");
                }
            }
            // Rarest grams keep the shared prefix from making every rule a candidate.
            assert!(found.len() < 20, "{text:?}: {} candidates", found.len());
        }
    }

    #[test]
    fn records_round_trip_and_a_flipped_bit_is_refused() {
        let rules: Vec<RuleSpec> = ["git push --force", "terraform destroy"]
            .map(prefix)
            .to_vec();
        let table = RuleTable::build(&rules);
        assert_eq!(
            table.record(1).and_then(|r| r.rule()),
            Some(rules[1].clone())
        );
        let (index, records) = table.parts().expect("compiled in memory");
        let mut flipped = records.to_vec();
        flipped[3] ^= 4;
        let copy = RuleTable::from_parts(index.to_vec(), 0, Records::Memory(flipped))
            .expect("the index still fits");
        assert!(copy.record(0).is_none());
        assert!(copy.record(1).is_some());
        // An index cut short does not fit.
        let short = index[..index.len() - 4].to_vec();
        assert!(RuleTable::from_parts(short, 0, Records::Memory(records.to_vec())).is_none());
    }
}
