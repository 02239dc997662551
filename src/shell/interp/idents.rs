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
pub(super) struct Idents {
    /// Which bytes start a name: letters, `_` and the family's own.
    start: [bool; 256],
    /// Which bytes continue one: letters, digits, `_` and the family's own.
    more: [bool; 256],
    /// The same names as a regex, to check the scan against.
    #[cfg(any(debug_assertions, test))]
    pattern: &'static str,
}

/// JavaScript's names, where `$` is a letter.
pub(super) static JS: Idents = Idents {
    start: class(b"$", false),
    more: class(b"$", true),
    #[cfg(any(debug_assertions, test))]
    pattern: r"[A-Za-z_$][A-Za-z0-9_$]*",
};

/// Names where `$` is a sigil, not a letter (Perl's `system$_`, PHP's `$x`).
pub(super) static SIGIL: Idents = Idents {
    start: class(b"$", false),
    more: class(b"", true),
    #[cfg(any(debug_assertions, test))]
    pattern: r"[A-Za-z_$][A-Za-z0-9_]*",
};

/// Names where `@` is a sigil too: Perl's arrays (`@ARGV`) and Ruby's
/// instance variables (`@x`) are variables, not calls. Elsewhere `@` is an
/// operator before a name: PHP's error suppression (`@system(...)`),
/// Python's decorators and matrix product, Julia's macros, R's slots.
pub(super) static AT_SIGIL: Idents = Idents {
    start: class(b"$@", false),
    more: class(b"", true),
    #[cfg(any(debug_assertions, test))]
    pattern: r"[A-Za-z_$@][A-Za-z0-9_]*",
};

/// A byte class as a table, looked up once per byte of every snippet:
/// ASCII letters, `_`, digits when `digits`, and `extra`.
const fn class(extra: &[u8], digits: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphabetic() || c == b'_' || (digits && c.is_ascii_digit());
        b += 1;
    }
    let mut i = 0;
    while i < extra.len() {
        table[extra[i] as usize] = true;
        i += 1;
    }
    table
}

impl Idents {
    /// The byte ranges of the names in `code`, in order.
    pub(super) fn find<'c>(&'static self, code: &'c str) -> impl Iterator<Item = Span> + 'c {
        #[cfg(debug_assertions)]
        self.check(code);
        self.scan(code)
    }

    fn scan<'c>(&'static self, code: &'c str) -> impl Iterator<Item = Span> + 'c {
        let bytes = code.as_bytes();
        let starts = move |b: u8| self.start[usize::from(b)];
        let continues = move |b: u8| self.more[usize::from(b)];
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
    fn check(&'static self, code: &str) {
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
            for idents in [&JS, &SIGIL, &AT_SIGIL] {
                idents.check(code);
            }
        }
        let spans: Vec<Span> = SIGIL.scan("a$b c1").collect();
        assert_eq!(spans, [(0, 1), (1, 3), (4, 6)]);
        let spans: Vec<Span> = JS.scan("a$b c1").collect();
        assert_eq!(spans, [(0, 3), (4, 6)]);
    }
}
