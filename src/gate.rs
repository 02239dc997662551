//! A regex compiled only for text that holds one of the literals every match of it must hold.
//!
//! A hook call lives for one command, and compiling a regex costs far more
//! than matching it (a row's regex with a Unicode class or `(?i)` takes
//! hundreds of thousands of instructions; the interpreter readers' library
//! lists millions). The literals come from the regex itself, through
//! `regex-syntax`: its prefix and suffix extraction at every concatenation
//! of the syntax tree, the rarest set at each (a part every match holds
//! says as much as the whole), the union of the branches at an
//! alternation, and `(?i)` letters folded to one lower-case literal. So no
//! list is kept in step by hand. Extracting them costs as much as parsing
//! the regex, so the literals of the built-in rules' patterns and of the
//! code's own gated regexes ([`Gated`]) are worked out ahead of time into a
//! generated table ([`built`]), which a test keeps current; any other
//! pattern has its literals extracted on first need.

use memchr::memmem;
use once_cell::sync::OnceCell;
use regex::Regex;
use regex_syntax::hir::literal::{ExtractKind, Extractor, Seq};
use regex_syntax::hir::{Class, Hir, HirKind};

mod built;

/// The most literals a gate tests: more cost more than they save.
const MOST_LITERALS: usize = 128;

/// The regex of one rule or table row, built on first need.
#[derive(Default)]
pub(crate) struct LazyRegex {
    needles: OnceCell<Needles>,
    regex: OnceCell<Option<Regex>>,
    /// The same regex for debug builds to check each refusal with, kept
    /// apart so that it never takes the literal test's place.
    #[cfg(debug_assertions)]
    checker: OnceCell<Option<Regex>>,
}

impl LazyRegex {
    const fn new() -> LazyRegex {
        LazyRegex {
            needles: OnceCell::new(),
            regex: OnceCell::new(),
            #[cfg(debug_assertions)]
            checker: OnceCell::new(),
        }
    }

    /// Whether `pattern` (always the same for one cell) matches `text`. A
    /// pattern that does not compile (a bug the rule tests catch) matches
    /// nothing rather than panicking.
    pub(crate) fn is_match(&self, pattern: &str, text: &str) -> bool {
        self.for_text(pattern, None, text)
            .is_some_and(|re| re.is_match(text))
    }

    /// The regex, built if need be, when `text` holds one of its literals;
    /// `None` when it holds none (or the pattern does not compile).
    /// `known` is the pattern's key when the caller worked it out already.
    fn for_text(&self, pattern: &str, known: Option<u64>, text: &str) -> Option<&Regex> {
        // Once built, the regex's own prefilter beats the literal test.
        if self.regex.get().is_none() {
            let needles = self
                .needles
                .get_or_init(|| Needles::built(pattern, known.unwrap_or_else(|| key(pattern))));
            if !needles.may_match(text) {
                #[cfg(debug_assertions)]
                assert!(
                    !self
                        .checker
                        .get_or_init(|| Regex::new(pattern).ok())
                        .as_ref()
                        .is_some_and(|re| re.is_match(text)),
                    "{pattern:?} matches {text:?} without any of its literals"
                );
                return None;
            }
        }
        self.regex.get_or_init(|| Regex::new(pattern).ok()).as_ref()
    }
}

/// One of the code's own regexes (not a rule's), behind the same gate:
/// `static NETWORK: Gated = Gated::new(PATTERN);`. Its pattern belongs in
/// the generated table (`rules::gate_table` lists every one).
pub(crate) struct Gated {
    pattern: &'static str,
    /// The pattern's key in the generated table, worked out when compiling
    /// (hashing a long pattern on every call would cost more than its test).
    key: u64,
    lazy: LazyRegex,
}

impl Gated {
    pub(crate) const fn new(pattern: &'static str) -> Gated {
        Gated {
            pattern,
            key: key(pattern),
            lazy: LazyRegex::new(),
        }
    }

    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.for_text(text).is_some_and(|re| re.is_match(text))
    }

    /// The regex, for its captures, when `text` could hold a match.
    pub(crate) fn for_text(&self, text: &str) -> Option<&Regex> {
        self.lazy.for_text(self.pattern, Some(self.key), text)
    }

    #[cfg(test)]
    pub(crate) fn pattern(&self) -> &'static str {
        self.pattern
    }

    /// Whether the literal test lets `text` through to the regex.
    #[cfg(test)]
    pub(crate) fn passes(&self, text: &str) -> bool {
        Needles::built(self.pattern, self.key).may_match(text)
    }
}

/// Literals, in ASCII lower case, one of which every match contains (the
/// text lowered too); none when the regex has no such set (it can match
/// the empty string, or a branch holds nothing narrow enough to spell out).
/// Lowering keeps the test sound (a literal in the text is still there
/// lowered) and folds the cases `(?i)` spells out into one literal.
enum Needles {
    /// From the generated table.
    Built(Option<&'static [&'static [u8]]>),
    /// Extracted from a pattern the table does not hold.
    Found(Option<Vec<Vec<u8>>>),
}

/// A row of the generated table: the pattern's key, the pattern, and its
/// literals (`None`: no set every match holds).
type Built = (u64, &'static str, Option<&'static [&'static [u8]]>);

/// FNV-1a, 64 bits: the generated table's key for a pattern.
const fn key(pattern: &str) -> u64 {
    let bytes = pattern.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut at = 0;
    while at < bytes.len() {
        hash = (hash ^ bytes[at] as u64).wrapping_mul(0x0100_0000_01b3);
        at += 1;
    }
    hash
}

/// A set of literals, lowered, one of which every match holds.
type Literals = Vec<Vec<u8>>;

impl Needles {
    /// The table's literals for `pattern`, or its own when the table does
    /// not hold it (the key is checked against the pattern itself, so a
    /// stale table costs time, never a wrong answer).
    fn built(pattern: &str, key: u64) -> Needles {
        match built::NEEDLES.binary_search_by_key(&key, |&(k, _, _)| k) {
            Ok(i) if built::NEEDLES[i].1 == pattern => Needles::Built(built::NEEDLES[i].2),
            _ => Needles::of(pattern),
        }
    }

    fn of(pattern: &str) -> Needles {
        Needles::Found(Self::extract(pattern))
    }

    fn extract(pattern: &str) -> Option<Literals> {
        let hir = regex_syntax::parse(pattern).ok()?;
        required(&fold_ascii_case(&hir))
    }

    fn may_match(&self, text: &str) -> bool {
        fn found<'n>(mut needles: impl Iterator<Item = &'n [u8]>, text: &str) -> bool {
            let text = folded(text);
            let hay = text.as_bytes();
            // A literal with a byte the text lacks is passed over without a
            // search: one pass over the text spares most of a hundred.
            let mut present = [false; 256];
            for &b in hay {
                present[usize::from(b)] = true;
            }
            needles.any(|n| n.iter().all(|&b| present[usize::from(b)]) && contains(hay, n))
        }
        match self {
            Needles::Built(Some(set)) => found(set.iter().copied(), text),
            Needles::Found(Some(set)) => found(set.iter().map(Vec::as_slice), text),
            Needles::Built(None) | Needles::Found(None) => true,
        }
    }
}

/// Whether `hay` holds `needle`. Most texts a gate sees are a few words:
/// there setting up a `memmem` searcher per literal costs more than
/// comparing where the first byte already agrees.
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let Some(&first) = needle.first() else {
        return true;
    };
    if hay.len() > 256 {
        return memmem::find(hay, needle).is_some();
    }
    memchr::memchr_iter(first, hay).any(|at| hay[at..].starts_with(needle))
}

/// The tree with every class that is exactly the cases of one ASCII letter
/// (what `(?i)` makes of a letter) turned into the lower-case letter: the
/// text is folded the same way before it is searched ([`folded`]), so one
/// literal stands for every case.
fn fold_ascii_case(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Class(class) => {
            letter_cases(class).map_or_else(|| hir.clone(), |lower| Hir::literal([lower]))
        }
        HirKind::Concat(parts) => Hir::concat(parts.iter().map(fold_ascii_case).collect()),
        HirKind::Alternation(alts) => Hir::alternation(alts.iter().map(fold_ascii_case).collect()),
        HirKind::Capture(cap) => Hir::capture(regex_syntax::hir::Capture {
            index: cap.index,
            name: cap.name.clone(),
            sub: Box::new(fold_ascii_case(&cap.sub)),
        }),
        HirKind::Repetition(rep) => Hir::repetition(regex_syntax::hir::Repetition {
            min: rep.min,
            max: rep.max,
            greedy: rep.greedy,
            sub: Box::new(fold_ascii_case(&rep.sub)),
        }),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Look(_) => hir.clone(),
    }
}

/// The two characters outside ASCII that Unicode case folding makes one
/// with an ASCII letter: the Kelvin sign with `k`, the long s with `s`.
const FOLDED_INTO_ASCII: [(char, u8); 2] = [('\u{212a}', b'k'), ('\u{17f}', b's')];

/// The lower-case letter of a class that holds exactly its cases: the two
/// ASCII ones, and the third case folding gives `k` and `s`.
fn letter_cases(class: &Class) -> Option<u8> {
    let members: Vec<u32> = match class {
        Class::Unicode(c) => c
            .iter()
            .flat_map(|r| u32::from(r.start())..=u32::from(r.end()))
            .take(4)
            .collect(),
        Class::Bytes(c) => c
            .iter()
            .flat_map(|r| u32::from(r.start())..=u32::from(r.end()))
            .take(4)
            .collect(),
    };
    let (&upper, &lower) = (members.first()?, members.get(1)?);
    let (upper, lower) = (u8::try_from(upper).ok()?, u8::try_from(lower).ok()?);
    if !upper.is_ascii_uppercase() || lower != upper.to_ascii_lowercase() {
        return None;
    }
    let third = FOLDED_INTO_ASCII
        .iter()
        .find(|&&(_, letter)| letter == lower)
        .map(|&(c, _)| u32::from(c));
    (members[2..] == *third.as_slice() || members.len() == 2).then_some(lower)
}

/// `text` as the literals are spelled: ASCII letters lowered, and the two
/// characters case folding makes one with `k` and `s` written as those.
fn folded(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.is_ascii() {
        let mut out = text.to_ascii_lowercase();
        for (c, letter) in FOLDED_INTO_ASCII {
            if out.contains(c) {
                out = out.replace(c, &char::from(letter).to_string());
            }
        }
        return out.into();
    }
    // Most texts are lower case already: no copy then.
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        text.to_ascii_lowercase().into()
    } else {
        text.into()
    }
}

/// Literals one of which every match of `hir` holds, or none. A part of a
/// concatenation that every match passes through is as good a witness as
/// the whole, so each level keeps the rarest set among its parts' and its
/// own prefixes and suffixes; an alternation needs one from each branch.
fn required(hir: &Hir) -> Option<Literals> {
    match hir.kind() {
        HirKind::Capture(cap) => required(&cap.sub),
        HirKind::Repetition(rep) if rep.min >= 1 => required(&rep.sub),
        HirKind::Alternation(alts) => {
            let mut union = Vec::new();
            for alt in alts {
                match required(alt) {
                    Some(set) => union.extend(set),
                    None => return affixes(hir),
                }
            }
            best(usable(union), affixes(hir))
        }
        HirKind::Concat(parts) => parts.iter().map(required).fold(affixes(hir), best),
        _ => affixes(hir),
    }
}

/// The best of the prefix and suffix sets `regex-syntax` finds for `hir`,
/// with literals cut to several lengths: cut shorter, a set crossing many
/// choices may shrink to few enough to test.
fn affixes(hir: &Hir) -> Option<Literals> {
    let extract = |kind, len| {
        let mut extractor = Extractor::new();
        extractor
            .kind(kind)
            .limit_class(4)
            .limit_literal_len(len)
            .limit_total(200);
        lowered(&extractor.extract(hir))
    };
    [32, 8, 4]
        .into_iter()
        .flat_map(|len| {
            [
                extract(ExtractKind::Prefix, len),
                extract(ExtractKind::Suffix, len),
            ]
        })
        .fold(None, best)
}

/// A finite set's literals lowered, when usable.
fn lowered(seq: &Seq) -> Option<Literals> {
    usable(
        seq.literals()?
            .iter()
            .map(|l| l.as_bytes().to_ascii_lowercase())
            .collect(),
    )
}

/// The set without repeats or literals that hold another (`" -d"` is in
/// every text `" -d "` is), when none is empty (an empty one is in every
/// text) and there are few enough to test.
fn usable(mut lits: Literals) -> Option<Literals> {
    lits.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    lits.dedup();
    let mut kept: Literals = Vec::with_capacity(lits.len());
    for lit in lits {
        if !kept.iter().any(|k| memmem::find(&lit, k).is_some()) {
            kept.push(lit);
        }
    }
    let mut lits = kept;
    lits.sort_unstable();
    let usable =
        !lits.is_empty() && lits.len() <= MOST_LITERALS && lits.iter().all(|l| !l.is_empty());
    usable.then_some(lits)
}

/// Past this weight a literal is rare enough in a command line: a set whose
/// literals all weigh as much is judged by how few they are (each costs a
/// search).
const RARE_ENOUGH: usize = 8;

/// How rare a literal is in text, roughly: its length, with each
/// punctuation byte counting three times (`ws'` is rarer than `from`: words
/// are what code and commands are made of, quotes and brackets less so).
fn weight(lit: &[u8]) -> usize {
    lit.len() + 2 * lit.iter().filter(|b| b.is_ascii_punctuation()).count()
}

/// Of two usable sets, the better gate: the one whose weakest literal
/// weighs more (up to [`RARE_ENOUGH`]), then the next weakest and so on,
/// then the one with fewer literals.
fn best(a: Option<Literals>, b: Option<Literals>) -> Option<Literals> {
    let weights = |s: &Literals| {
        let mut w: Vec<usize> = s.iter().map(|l| weight(l).min(RARE_ENOUGH)).collect();
        w.sort_unstable();
        w
    };
    match (a, b) {
        (Some(a), Some(b)) => {
            let (wa, wb) = (weights(&a), weights(&b));
            let order = wa
                .iter()
                .zip(&wb)
                .map(|(x, y)| x.cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or_else(|| b.len().cmp(&a.len()));
            Some(if order.is_lt() { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needles(pattern: &str) -> Option<Vec<String>> {
        Needles::extract(pattern).map(|set| {
            set.into_iter()
                .map(|n| String::from_utf8_lossy(&n).into_owned())
                .collect()
        })
    }

    #[test]
    fn literals_come_from_the_regex() {
        let set = needles(r"chmod\b[^;]*?\b0[oO]?[2467][0-7]{3}\b|S_IS[UG]ID").unwrap();
        assert!(
            set.iter().any(|n| "chmod".starts_with(n.as_str())),
            "{set:?}"
        );
        assert!(
            set.iter().any(|n| "s_isuid".starts_with(n.as_str())),
            "{set:?}"
        );
        // Every case of a word `(?i)` spells out is one literal lowered.
        let set = needles(r"(?i)(?:^|/| )(?:mimipenguin|lazagne|swap_digger)").unwrap();
        assert!(set.len() <= 12, "{set:?}");
        // Nothing every match must hold: no gate.
        assert_eq!(needles(r"\w+"), None);
        assert_eq!(needles(r"(?:^| )x?"), None);
        assert_eq!(needles("(unclosed"), None);
    }

    #[test]
    fn a_gate_never_refuses_text_the_regex_matches() {
        let cases = [
            (
                r"(?i)(?:^|/| )(?:mimipenguin|lazagne|swap_digger)",
                "python3 /opt/LaZagne.py all",
            ),
            (
                r"(?i)(?:^|/| )(?:mimipenguin|lazagne|swap_digger)",
                "MIMIPENGUIN",
            ),
            (r"/proc/|/dev/k?mem\b", "-c open('/dev/kmem')"),
            (
                r"(?i)passw|\bpass\b|api.{0,6}key|BEGIN [A-Z ]*PRIVATE",
                "-ri API_KEY .",
            ),
            (r"(?i)token", "-r \u{212A}TOKEN ."),
            (r"--force(?:-with-lease)?\b", "push --force-with-lease"),
        ];
        for (pattern, text) in cases {
            let lazy = LazyRegex::default();
            assert!(lazy.is_match(pattern, text), "{pattern} on {text}");
        }
        let lazy = LazyRegex::default();
        assert!(!lazy.is_match(r"/proc/|/dev/k?mem\b", "-c print(1)"));
        assert!(
            lazy.regex.get().is_none(),
            "compiled for text without a literal"
        );
    }
}

/// The generated table: written and checked by `rules::gate_table`'s
/// tests, which know every pattern (a leaf knows none).
#[cfg(test)]
pub(crate) mod table {
    use super::{key, Needles};

    /// The table's source for `patterns`.
    pub(crate) fn render(patterns: &[&str]) -> String {
        let mut rows: Vec<(u64, &str)> = patterns.iter().map(|&p| (key(p), p)).collect();
        rows.sort_unstable();
        let mut out = String::from(GENERATED_HEADER);
        for (key, pattern) in rows {
            let literals = match Needles::extract(pattern) {
                Some(set) => {
                    let set: Vec<String> = set
                        .iter()
                        .map(|n| format!("b\"{}\"", n.escape_ascii()))
                        .collect();
                    format!("Some(&[{}])", set.join(", "))
                }
                None => "None".to_string(),
            };
            out.push_str(&format!("    ({key:#018x}, {pattern:?}, {literals}),\n"));
        }
        out.push_str("];\n");
        out
    }

    pub(crate) fn key_of(pattern: &str) -> u64 {
        key(pattern)
    }

    /// Whether the compiled-in table holds `pattern`.
    pub(crate) fn holds(pattern: &str) -> bool {
        matches!(Needles::built(pattern, key(pattern)), Needles::Built(_))
    }

    const GENERATED_HEADER: &str = "\
//! The literals of every built-in rule's regex and of the code's gated regexes, worked out ahead of time (see `gate.rs`).
//!
//! Generated: `WARDEN_UPDATE_EXPECTED=1 cargo test --lib gate_table` rewrites
//! it, and that test fails while it is out of date.

/// (key of the pattern, the pattern, its literals), sorted by key.
#[rustfmt::skip]
pub(super) static NEEDLES: &[super::Built] = &[
";
}
