//! A rule's regex compiled only for text that holds one of the literals every match of it must hold.
//!
//! A hook call lives for one command, and compiling a regex costs far more
//! than matching it (a row's regex with a Unicode class or `(?i)` takes
//! hundreds of thousands of instructions). The literals come from the regex
//! itself, through `regex-syntax`'s extraction, so no list is kept in step
//! by hand: a match starts with one of the prefix literals and ends with
//! one of the suffix literals, whichever set says more.

use memchr::memmem;
use once_cell::sync::OnceCell;
use regex::Regex;
use regex_syntax::hir::literal::{ExtractKind, Extractor, Seq};

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
            let needles = self.needles.get_or_init(|| Needles::of(pattern));
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
/// text lowered too); `None` when the regex has no such set (it can match
/// the empty string, or starts and ends with a class too wide to spell out).
/// Lowering keeps the test sound (a literal in the text is still there
/// lowered) and folds the cases `(?i)` spells out into one literal.
struct Needles(Option<Vec<Vec<u8>>>);

impl Needles {
    fn of(pattern: &str) -> Needles {
        let Ok(hir) = regex_syntax::parse(pattern) else {
            return Needles(None);
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
        Needles(best(
            extract(ExtractKind::Prefix),
            extract(ExtractKind::Suffix),
        ))
    }

    fn may_match(&self, text: &str) -> bool {
        let Some(needles) = &self.0 else {
            return true;
        };
        let text = text.to_ascii_lowercase();
        needles
            .iter()
            .any(|n| memmem::find(text.as_bytes(), n).is_some())
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
        Needles::of(pattern).0.map(|set| {
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
