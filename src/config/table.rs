//! The compiled user rules as the cache holds them: one record per rule, and an index from a short substring of each rule's literal to the rule, in flat little-endian sections read in place, a block at a time.
//!
//! A call must cost the same with 10 rules or 10,000, so nothing here is
//! decoded, read or checked whole when the cache is loaded. The index's
//! directory (its counts, a filter, and a checksum for every block of the
//! rest) is small and sits in the cache entry's head, which is read whole
//! and checked. The rest, the index's body and then the records, is the
//! entry's tail: it stays in the cache file, and a call reads, checks and
//! keeps only the blocks its lookups land in, and the records of the rules
//! it could match. Reading and checking 240 KB of index for 10,000 rules on
//! every call would cost more than the rest of the call.
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
//! Layout (all `u32`, little-endian):
//!
//! ```text
//! directory, in the head:
//!   rules  buckets  entries  always  flags
//!   filter[]               2^k bits: bit h is set if some gram hashes to h
//!   blocks[]               low 32 bits of the checksum of each BLOCK bytes of the body
//! body, the tail's start:
//!   offsets[rules + 1]     record n is records[offsets[n]..offsets[n + 1]]
//!   sums[rules]            low 32 bits of each record's checksum
//!   starts[buckets + 1]    bucket b is entries[starts[b]..starts[b + 1]]
//!   entries[entries]       (gram, rule), by bucket, rules ascending in each
//!   always[always]         rules with no literal
//! records, the rest of the tail
//! ```
//!
//! The filter lets most of a call's 4-byte windows be passed over with one
//! load and a bit test, so a call whose text holds no rule's gram reads
//! nothing from the body at all. It has 64 bits a gram (one window in 60
//! or so passes by chance), between 1,024 and 65,536 bits: a filter
//! sized for 10,000 rules would cost a 100-rule policy 7 KB more to read
//! and check on every call.
//!
//! A record is `u16` literal length, the literal, then the rule (bincode).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use bincode::Options as _;
use once_cell::sync::OnceCell;

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
/// The filter's size in bits is a power of two between these (log2).
const FILTER_LEAST: u32 = 10;
const FILTER_MOST: u32 = 16;
/// The body is read and checked in blocks of this many bytes: a lookup
/// touches one or two, and a block costs one `pread` and a checksum of a
/// kilobyte. A multiple of 4, so no word straddles two blocks.
const BLOCK: usize = 1024;

/// The rules and their index.
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleTable {
    /// The directory is `head[base..]`.
    head: Vec<u8>,
    base: usize,
    shape: Shape,
    store: Store,
    /// The body's blocks read from the cache file so far, each `None` if
    /// it failed its check (one per block while the tail is in the file;
    /// none in memory).
    blocks: Vec<OnceCell<Option<Box<[u8]>>>>,
}

/// Section counts and where each body section starts (in `u32`s).
#[derive(Debug, Clone, Copy, Default)]
struct Shape {
    rules: usize,
    entries: usize,
    always: usize,
    short: bool,
    sums: usize,
    starts: usize,
    grams: usize,
    always_at: usize,
    /// The body's length in words.
    body: usize,
    /// `32 - log2(buckets)`: a gram's bucket is the top bits of its hash.
    shift: u32,
    /// The filter's length in words, and `32 - log2(its bits)`: a gram's
    /// bit is the top bits of its hash too.
    filter_words: usize,
    filter_shift: u32,
}

impl Shape {
    fn new(rules: usize, buckets: usize, entries: usize, always: usize, flags: u32) -> Shape {
        let sums = rules + 1;
        let starts = sums + rules;
        let grams = starts + buckets + 1;
        let always_at = grams + 2 * entries;
        let filter_log2 = entries
            .saturating_mul(64)
            .checked_next_power_of_two()
            .map_or(FILTER_MOST, usize::trailing_zeros)
            .clamp(FILTER_LEAST, FILTER_MOST);
        Shape {
            rules,
            entries,
            always,
            short: flags & SHORT_GRAMS != 0,
            sums,
            starts,
            grams,
            always_at,
            body: always_at + always,
            shift: 32 - buckets.max(1).trailing_zeros(),
            filter_words: (1 << filter_log2) / 32,
            filter_shift: 32 - filter_log2,
        }
    }

    /// Where the block sums start in the directory, in words.
    fn block_sums(&self) -> usize {
        FIELDS + self.filter_words
    }

    fn body_bytes(&self) -> usize {
        self.body * 4
    }

    fn blocks(&self) -> usize {
        self.body_bytes().div_ceil(BLOCK)
    }

    /// Length of the directory in bytes.
    fn directory_bytes(&self) -> usize {
        (self.block_sums() + self.blocks()) * 4
    }
}

/// Where the tail (the index's body, then the records) is: in memory (just
/// compiled, or read and checked against the cache entry's tag), or still
/// in the cache file, read a block or a record at a time and each checked
/// against its sum.
#[derive(Debug, Clone)]
pub(crate) enum Store {
    Memory(Vec<u8>),
    File {
        file: Arc<std::fs::File>,
        offset: u64,
        len: u64,
        /// The file a sealed stamp vouched for: what is read from it is
        /// believed only while it is still that file (see [`RuleTable::unchanged`]).
        print: Fingerprint,
    },
}

impl Default for Store {
    fn default() -> Store {
        Store::Memory(Vec::new())
    }
}

impl Store {
    fn len(&self) -> u64 {
        match self {
            Store::Memory(tail) => tail.len() as u64,
            Store::File { len, .. } => *len,
        }
    }

    /// `len` bytes from `at` (counted from the tail's start).
    fn read(&self, at: usize, len: usize) -> Option<Cow<'_, [u8]>> {
        match self {
            Store::Memory(tail) => Some(Cow::Borrowed(tail.get(at..at.checked_add(len)?)?)),
            #[cfg(unix)]
            Store::File { file, offset, .. } => {
                use std::os::unix::fs::FileExt;
                let mut buf = vec![0u8; len];
                file.read_exact_at(&mut buf, offset.checked_add(at as u64)?)
                    .ok()?;
                Some(Cow::Owned(buf))
            }
            #[cfg(not(unix))]
            Store::File { .. } => None,
        }
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

/// The filter bit of a gram, for a filter of `2^(32 - shift)` bits.
fn filter_bit(gram: u32, shift: u32) -> usize {
    (hash(gram) >> shift) as usize
}

fn gram4(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

fn gram3(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], 0]) | SHORT_MARK
}

fn to_bytes(words: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(words.len() * 4);
    for word in words {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// The literal each rule needs, cut to [`MAX_LITERAL`]; empty for none.
fn literals(rules: &[RuleSpec]) -> Vec<Vec<u8>> {
    rules
        .iter()
        .map(|rule| match pattern::required_literal(&rule.target) {
            Some(literal) if literal.len() >= MIN_LITERAL => {
                let mut bytes = literal.into_bytes();
                bytes.truncate(MAX_LITERAL);
                bytes
            }
            _ => Vec::new(),
        })
        .collect()
}

/// The rules to index and by which gram, the rules with no literal, and
/// the flags: each literal's rarest four-byte gram among all literals.
fn choose_grams(literals: &[Vec<u8>]) -> (Vec<(u32, u32)>, Vec<u32>, u32) {
    // How many literals each four-byte gram occurs in.
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let mut seen = Vec::new();
    for literal in literals {
        seen.clear();
        seen.extend(literal.windows(4).map(gram4));
        seen.sort_unstable();
        seen.dedup();
        for &gram in &seen {
            *counts.entry(gram).or_default() += 1;
        }
    }
    let mut grams = Vec::new();
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
    (grams, always, flags)
}

/// The records, with their offsets and sums: the body's first sections.
fn encode_records(rules: &[RuleSpec], literals: &[Vec<u8>]) -> (Vec<u8>, Vec<u32>) {
    let mut records = Vec::new();
    let mut offsets = Vec::with_capacity(2 * rules.len() + 1);
    let mut sums = Vec::with_capacity(rules.len());
    offsets.push(0);
    for (rule, literal) in rules.iter().zip(literals) {
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
        offsets.push(records.len() as u32);
    }
    offsets.extend(sums);
    (records, offsets)
}

/// `starts` and `entries`: the grams sorted into their buckets (a
/// counting sort, so rules stay ascending within each).
fn bucketed(grams: &[(u32, u32)], buckets: usize, shift: u32) -> Vec<u32> {
    let mut starts = vec![0u32; buckets + 1];
    for &(gram, _) in grams {
        starts[bucket(gram, shift) + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let mut next = starts.clone();
    let mut entries = vec![0u32; 2 * grams.len()];
    for &(gram, rule) in grams {
        let b = bucket(gram, shift);
        let at = next[b] as usize;
        entries[2 * at] = gram;
        entries[2 * at + 1] = rule;
        next[b] += 1;
    }
    starts.extend(entries);
    starts
}

fn filter(grams: &[(u32, u32)], shape: &Shape) -> Vec<u32> {
    let mut filter = vec![0u32; shape.filter_words];
    for &(gram, _) in grams {
        let bit = filter_bit(gram, shape.filter_shift);
        filter[bit / 32] |= 1 << (bit % 32);
    }
    filter
}

impl RuleTable {
    /// Encodes `rules` and indexes them.
    pub(crate) fn build(rules: &[RuleSpec]) -> RuleTable {
        let literals = literals(rules);
        let (grams, always, flags) = choose_grams(&literals);
        let buckets = grams.len().next_power_of_two().max(16);
        let shape = Shape::new(rules.len(), buckets, grams.len(), always.len(), flags);
        let (records, mut body) = encode_records(rules, &literals);
        body.extend(bucketed(&grams, buckets, shape.shift));
        body.extend(&always);
        let mut tail = to_bytes(&body);
        let mut directory = vec![
            rules.len() as u32,
            buckets as u32,
            grams.len() as u32,
            always.len() as u32,
            flags,
        ];
        directory.extend(filter(&grams, &shape));
        directory.extend(tail.chunks(BLOCK).map(|block| checksum(block) as u32));
        tail.extend_from_slice(&records);
        RuleTable {
            head: to_bytes(&directory),
            base: 0,
            shape,
            store: Store::Memory(tail),
            blocks: Vec::new(),
        }
    }

    /// The directory and the tail, for the cache.
    pub(crate) fn parts(&self) -> Option<(&[u8], &[u8])> {
        match &self.store {
            Store::Memory(tail) => Some((self.head.get(self.base..)?, tail)),
            Store::File { .. } => None,
        }
    }

    /// The table whose directory is `head[base..]` (nothing after it) and
    /// whose tail is `store`; `None` if the sections do not fit.
    pub(crate) fn from_parts(head: Vec<u8>, base: usize, store: Store) -> Option<RuleTable> {
        let mut table = RuleTable {
            head,
            base,
            shape: Shape::default(),
            store,
            blocks: Vec::new(),
        };
        let field = |i| table.directory(i);
        let (rules, buckets, entries, always, flags) =
            (field(0)?, field(1)?, field(2)?, field(3)?, field(4)?);
        // Every count is of words in the tail: a count larger than the
        // tail is a lie, refused before any arithmetic on it.
        let room = table.store.len();
        if [rules, buckets, entries, always]
            .iter()
            .any(|&c| u64::from(c) > room)
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
        let fits = buckets.is_power_of_two()
            && table.head.len().checked_sub(base)? == shape.directory_bytes()
            && shape.body_bytes() as u64 <= room;
        table.shape = shape;
        if let Store::File { .. } = table.store {
            table.blocks = vec![OnceCell::new(); shape.blocks()];
        }
        fits.then_some(table)
    }

    /// Word `i` of the directory.
    fn directory(&self, i: usize) -> Option<u32> {
        let at = self.base.checked_add(i.checked_mul(4)?)?;
        let bytes = self.head.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// Word `i` of the body; `None` past its end, or if its block cannot be
    /// read or fails its check.
    fn word(&self, i: usize) -> Option<u32> {
        if i >= self.shape.body {
            return None;
        }
        let at = i * 4;
        let bytes = match &self.store {
            Store::Memory(tail) => tail.get(at..at + 4)?,
            Store::File { .. } => {
                let block = self.block(at / BLOCK)?;
                block.get(at % BLOCK..at % BLOCK + 4)?
            }
        };
        Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// Block `k` of the body, read from the cache file on first need.
    fn block(&self, k: usize) -> Option<&[u8]> {
        let cell = self.blocks.get(k)?;
        cell.get_or_init(|| {
            let from = k * BLOCK;
            let to = (from + BLOCK).min(self.shape.body_bytes());
            let bytes = self.store.read(from, to.checked_sub(from)?)?;
            self.block_intact(k, &bytes)
                .then(|| bytes.into_owned().into_boxed_slice())
        })
        .as_deref()
    }

    fn block_intact(&self, k: usize, bytes: &[u8]) -> bool {
        self.directory(self.shape.block_sums() + k) == Some(checksum(bytes) as u32)
    }

    /// Reads the tail into memory when it is in the cache file and no
    /// longer than `limit` bytes: a process that judges many calls with
    /// one policy (`check --batch`) then reads each candidate's record
    /// without a system call. The body's blocks are checked as they are
    /// read here; the records are checked as they are used, wherever they
    /// are.
    #[cfg(unix)]
    pub(crate) fn hold_records(&mut self, limit: u64) {
        let Store::File { len, .. } = &self.store else {
            return;
        };
        if *len > limit {
            return;
        }
        let Some(tail) = usize::try_from(*len)
            .ok()
            .and_then(|len| self.store.read(0, len))
        else {
            return;
        };
        let body = &tail[..self.shape.body_bytes()];
        let intact = body
            .chunks(BLOCK)
            .enumerate()
            .all(|(k, block)| self.block_intact(k, block));
        if intact && self.unchanged() {
            self.store = Store::Memory(tail.into_owned());
            self.blocks = Vec::new();
        }
    }

    /// Whether what was read so far is what the entry was sealed with:
    /// true in memory; in the file, if it is still the file a stamp
    /// vouched for. Asked after reading, so a change made while a call
    /// read it shows (its ctime cannot be set back).
    pub(crate) fn unchanged(&self) -> bool {
        match &self.store {
            Store::Memory(_) => true,
            Store::File { file, print, .. } => file.metadata().is_ok_and(|m| print.is_of(&m)),
        }
    }

    /// Whether anything was read from the cache file yet (every record is
    /// found through the body, so reading one reads a block first): what
    /// was read is believed once [`RuleTable::unchanged`] says so.
    pub(crate) fn read_from_file(&self) -> bool {
        self.blocks.iter().any(|block| block.get().is_some())
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
        let start = self.word(n)? as usize;
        let end = self.word(n + 1)? as usize;
        let bytes = self.store.read(
            self.shape.body_bytes().checked_add(start)?,
            end.checked_sub(start)?,
        )?;
        if checksum(&bytes) as u32 != self.word(self.shape.sums + n)? {
            return None;
        }
        let literal_len = u16::from_le_bytes([*bytes.first()?, *bytes.get(1)?]) as usize;
        let literal_end = 2usize.checked_add(literal_len)?;
        (literal_end <= bytes.len()).then_some(Record { bytes, literal_end })
    }

    /// The rules that could match a call whose (lower-cased) text is
    /// `haystack`, ascending: those whose gram occurs in it, and those
    /// with no literal. `None` if a block of the index it needed cannot be
    /// read or fails its check.
    pub(crate) fn candidates(&self, haystack: &[u8]) -> Option<Vec<u32>> {
        let shape = &self.shape;
        let mut out = Vec::new();
        for i in 0..shape.always {
            out.push(self.word(shape.always_at + i)?);
        }
        let filter_at = self.base + FIELDS * 4;
        let filter = match self.head.get(filter_at..filter_at + shape.filter_words * 4) {
            Some(filter) if shape.entries > 0 => filter,
            _ => return Some(out),
        };
        // Bit `b` of the little-endian words is bit `b % 8` of byte `b / 8`.
        let maybe = |gram: u32| {
            let bit = filter_bit(gram, shape.filter_shift);
            filter
                .get(bit >> 3)
                .is_some_and(|byte| byte >> (bit & 7) & 1 == 1)
        };
        let mut intact = true;
        let mut look = |gram: u32| {
            if self.look(gram, &mut out).is_none() {
                intact = false;
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
        if !intact {
            return None;
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Adds the rules indexed by `gram` to `out`.
    fn look(&self, gram: u32, out: &mut Vec<u32>) -> Option<()> {
        let shape = &self.shape;
        let b = bucket(gram, shape.shift);
        let from = self.word(shape.starts + b)? as usize;
        let to = (self.word(shape.starts + b + 1)? as usize).min(shape.entries);
        for e in from..to {
            if self.word(shape.grams + 2 * e)? == gram {
                out.push(self.word(shape.grams + 2 * e + 1)?);
            }
        }
        Some(())
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
            let found = table.candidates(haystack.as_bytes()).expect("in memory");
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
        let (directory, tail) = table.parts().expect("compiled in memory");
        let mut flipped = tail.to_vec();
        flipped[table.shape.body_bytes() + 3] ^= 4;
        let copy = RuleTable::from_parts(directory.to_vec(), 0, Store::Memory(flipped))
            .expect("the index still fits");
        assert!(copy.record(0).is_none());
        assert!(copy.record(1).is_some());
        // A directory cut short does not fit.
        let short = directory[..directory.len() - 4].to_vec();
        assert!(RuleTable::from_parts(short, 0, Store::Memory(tail.to_vec())).is_none());
    }
}
