//! A rule's regex compiled only for text that holds one of the literals every match of it must hold.
//!
//! A hook call lives for one command, and compiling a regex costs far more
//! than matching it (a row's regex with a Unicode class or `(?i)` takes
//! hundreds of thousands of instructions). The literals come from the regex
//! itself, through `regex-syntax`'s extraction, so no list is kept in step
//! by hand: a match starts with one of the prefix literals and ends with
//! one of the suffix literals, whichever set says more. Extracting them
//! costs as much as parsing the regex (tens of thousands of instructions for
//! a long `(?i)` alternation), so the built-in rules' literals are worked out
//! ahead of time into a generated table ([`built`]), which a test keeps
//! current; any other pattern has its literals extracted on first need.

use memchr::memmem;
use once_cell::sync::OnceCell;
use regex::Regex;
use regex_syntax::hir::literal::{ExtractKind, Extractor, Seq};

mod built;

/// The most literals a gate tests: more cost more than they save.
const MOST_LITERALS: usize = 64;

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
    /// Whether `pattern` (always the same for one cell) matches `text`. A
    /// pattern that does not compile (a bug the rule tests catch) matches
    /// nothing rather than panicking.
    pub(crate) fn is_match(&self, pattern: &str, text: &str) -> bool {
        // Once built, the regex's own prefilter beats the literal test.
        if self.regex.get().is_none() {
            let needles = self.needles.get_or_init(|| Needles::built(pattern));
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
                return false;
            }
        }
        self.regex
            .get_or_init(|| Regex::new(pattern).ok())
            .as_ref()
            .is_some_and(|re| re.is_match(text))
    }
}

/// Literals, in ASCII lower case, one of which every match contains (the
/// text lowered too); none when the regex has no such set (it can match
/// the empty string, or starts and ends with a class too wide to spell out).
/// Lowering keeps the test sound (a literal in the text is still there
/// lowered) and folds the cases `(?i)` spells out into one literal.
enum Needles {
    /// From the generated table of the built-in rules' patterns.
    Built(Option<&'static [&'static [u8]]>),
    /// Extracted from a pattern the table does not hold.
    Found(Option<Vec<Vec<u8>>>),
}

/// A row of the generated table: the pattern's key, the pattern, and its
/// literals (`None`: no set every match holds).
type Built = (u64, &'static str, Option<&'static [&'static [u8]]>);

/// FNV-1a, 64 bits: the generated table's key for a pattern.
fn key(pattern: &str) -> u64 {
    pattern.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Needles {
    /// The table's literals for `pattern`, or its own when the table does
    /// not hold it (the key is checked against the pattern itself, so a
    /// stale table costs time, never a wrong answer).
    fn built(pattern: &str) -> Needles {
        let key = key(pattern);
        match built::NEEDLES.binary_search_by_key(&key, |&(k, _, _)| k) {
            Ok(i) if built::NEEDLES[i].1 == pattern => Needles::Built(built::NEEDLES[i].2),
            _ => Needles::of(pattern),
        }
    }

    fn of(pattern: &str) -> Needles {
        Needles::Found(Self::extract(pattern))
    }

    fn extract(pattern: &str) -> Option<Vec<Vec<u8>>> {
        let Ok(hir) = regex_syntax::parse(pattern) else {
            return None;
        };
        // Short literals from small classes: crossing every case of a long
        // word costs more than compiling the regex.
        let extract = |kind| {
            let mut extractor = Extractor::new();
            extractor
                .kind(kind)
                .limit_class(4)
                .limit_literal_len(3)
                .limit_total(200);
            lowered(&extractor.extract(&hir))
        };
        best(extract(ExtractKind::Prefix), extract(ExtractKind::Suffix))
    }

    fn may_match(&self, text: &str) -> bool {
        fn found<'n>(mut needles: impl Iterator<Item = &'n [u8]>, text: &str) -> bool {
            let text = text.to_ascii_lowercase();
            needles.any(|n| memmem::find(text.as_bytes(), n).is_some())
        }
        match self {
            Needles::Built(Some(set)) => found(set.iter().copied(), text),
            Needles::Found(Some(set)) => found(set.iter().map(Vec::as_slice), text),
            Needles::Built(None) | Needles::Found(None) => true,
        }
    }
}

/// A finite set's literals lowered, without repeats, when none is empty
/// (an empty one is in every text) and there are few enough to test.
fn lowered(seq: &Seq) -> Option<Vec<Vec<u8>>> {
    let mut lits: Vec<Vec<u8>> = seq
        .literals()?
        .iter()
        .map(|l| l.as_bytes().to_ascii_lowercase())
        .collect();
    lits.sort_unstable();
    lits.dedup();
    let usable =
        !lits.is_empty() && lits.len() <= MOST_LITERALS && lits.iter().all(|l| !l.is_empty());
    usable.then_some(lits)
}

/// Of two usable sets, the one whose shortest literal is longer: the rarer in text.
fn best(a: Option<Vec<Vec<u8>>>, b: Option<Vec<Vec<u8>>>) -> Option<Vec<Vec<u8>>> {
    let shortest = |s: &Vec<Vec<u8>>| s.iter().map(Vec::len).min().unwrap_or(0);
    match (a, b) {
        (Some(a), Some(b)) => Some(if shortest(&b) > shortest(&a) { b } else { a }),
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

/// Writes or checks the generated table of the built-in rules' literals.
#[cfg(test)]
mod generated {
    use super::*;
    use crate::rules::{all, Matcher};

    /// Every regex of every built-in rule, once each.
    fn patterns() -> Vec<&'static str> {
        let mut patterns: Vec<&'static str> = all()
            .flat_map(|rule| match &rule.matcher {
                Matcher::Command { args, .. } => vec![*args],
                Matcher::Verbs(rows) => rows.iter().map(|row| row.args).collect(),
                _ => Vec::new(),
            })
            .filter(|p| !p.is_empty())
            .collect();
        patterns.sort_unstable();
        patterns.dedup();
        patterns
    }

    fn render() -> String {
        let mut rows: Vec<(u64, &str)> = patterns().into_iter().map(|p| (key(p), p)).collect();
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

    const GENERATED_HEADER: &str = "\
//! The literals of every built-in rule's regex, worked out ahead of time (see `gate.rs`).
//!
//! Generated: `WARDEN_UPDATE_EXPECTED=1 cargo test --lib rules::gate` rewrites
//! it, and that test fails while it is out of date.

/// (key of the pattern, the pattern, its literals), sorted by key.
#[rustfmt::skip]
pub(super) static NEEDLES: &[super::Built] = &[
";

    #[test]
    fn the_table_of_built_in_literals_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules/gate/built.rs");
        let want = render();
        if std::env::var_os("WARDEN_UPDATE_EXPECTED").is_some() {
            std::fs::write(path, &want).expect("write the generated table");
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "src/rules/gate/built.rs is out of date: run WARDEN_UPDATE_EXPECTED=1 cargo test --lib rules::gate"
        );
    }

    #[test]
    fn keys_are_distinct() {
        let mut keys: Vec<u64> = patterns().into_iter().map(key).collect();
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), count, "two built-in patterns share a key");
    }

    #[test]
    fn every_built_in_pattern_is_in_the_table() {
        for pattern in patterns() {
            assert!(
                matches!(Needles::built(pattern), Needles::Built(_)),
                "{pattern:?} is not in the generated table"
            );
        }
    }
}
