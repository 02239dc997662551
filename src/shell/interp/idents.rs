//! The names in interpreter code, found a byte at a time as the identifier patterns `[A-Za-z_$][A-Za-z0-9_$]*` and their sigil variants would find them.
//!
//! Every inline snippet is searched for names before its calls are read,
//! and a regex search per name cost more than the rest of finding them:
//! the classes are ASCII, so a match starts at the first byte of its start
//! class and runs over the bytes of its continuing class, and the next one
//! is looked for where it ended. Debug builds compare each search with the
//! regex it replaces.

use super::view::Span;

/// One language family's identifiers: which bytes start one and which
/// continue it.
#[derive(Clone, Copy)]
pub(super) struct Idents {
    /// Bytes besides letters and `_` that start a name.
    start: &'static [u8],
    /// Bytes besides letters, digits and `_` that continue one.
    more: &'static [u8],
    /// The same names as a regex, to check the scan against.
    #[cfg(any(debug_assertions, test))]
    pattern: &'static str,
}

/// JavaScript's names, where `$` is a letter.
pub(super) const JS: Idents = Idents {
    start: b"$",
    more: b"$",
    #[cfg(any(debug_assertions, test))]
    pattern: r"[A-Za-z_$][A-Za-z0-9_$]*",
};

/// Names where `$` is a sigil, not a letter (Perl's `system$_`, PHP's `$x`).
pub(super) const SIGIL: Idents = Idents {
    start: b"$",
    more: b"",
    #[cfg(any(debug_assertions, test))]
    pattern: r"[A-Za-z_$][A-Za-z0-9_]*",
};

/// Names where `@` is a sigil too: Perl's arrays (`@ARGV`) and Ruby's
/// instance variables (`@x`) are variables, not calls. Elsewhere `@` is an
/// operator before a name: PHP's error suppression (`@system(...)`),
/// Python's decorators and matrix product, Julia's macros, R's slots.
pub(super) const AT_SIGIL: Idents = Idents {
    start: b"$@",
    more: b"",
    #[cfg(any(debug_assertions, test))]
    pattern: r"[A-Za-z_$@][A-Za-z0-9_]*",
};

impl Idents {
    /// The byte ranges of the names in `code`, in order.
    pub(super) fn find(self, code: &str) -> impl Iterator<Item = Span> + '_ {
        #[cfg(debug_assertions)]
        self.check(code);
        self.scan(code)
    }

    fn scan(self, code: &str) -> impl Iterator<Item = Span> + '_ {
        let bytes = code.as_bytes();
        let starts = move |b: u8| b.is_ascii_alphabetic() || b == b'_' || self.start.contains(&b);
        let continues =
            move |b: u8| b.is_ascii_alphanumeric() || b == b'_' || self.more.contains(&b);
        let mut at = 0;
        std::iter::from_fn(move || {
            let start = at + bytes.get(at..)?.iter().position(|&b| starts(b))?;
            let end = bytes[start + 1..]
                .iter()
                .position(|&b| !continues(b))
                .map_or(bytes.len(), |n| start + 1 + n);
            at = end;
            Some((start, end))
        })
    }

    /// Asserts that the scan finds what the regex finds.
    #[cfg(any(debug_assertions, test))]
    fn check(self, code: &str) {
        use std::collections::HashMap;
        thread_local! {
            static COMPILED: std::cell::RefCell<HashMap<&'static str, regex::Regex>> =
                std::cell::RefCell::default();
        }
        let matched: Vec<Span> = COMPILED.with(|compiled| {
            let mut compiled = compiled.borrow_mut();
            let regex = compiled.entry(self.pattern).or_insert_with(|| {
                regex::Regex::new(self.pattern).expect("identifier regex is valid")
            });
            regex
                .find_iter(code)
                .map(|m| (m.start(), m.end()))
                .collect()
        });
        let scanned: Vec<Span> = self.scan(code).collect();
        assert_eq!(scanned, matched, "names in {code:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_as_the_patterns_find_them() {
        // `find` checks itself against the regex in debug builds; these
        // are the edges: sigils, digits, non-ASCII text, the ends.
        for code in [
            "",
            "x",
            "system$_",
            "$x=@ARGV; @system(\"id\")",
            "a1 1a _a $$a @@b a$b$ é𝑥 naïve_x",
            "os.system('ls');",
            "9",
            "$",
            "@",
            "é",
            "x\u{301}y",
        ] {
            for idents in [JS, SIGIL, AT_SIGIL] {
                idents.check(code);
            }
        }
        let spans: Vec<Span> = SIGIL.scan("a$b c1").collect();
        assert_eq!(spans, [(0, 1), (1, 3), (4, 6)]);
        let spans: Vec<Span> = JS.scan("a$b c1").collect();
        assert_eq!(spans, [(0, 3), (4, 6)]);
    }
}
