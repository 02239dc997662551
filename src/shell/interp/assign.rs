//! Where interpreter code assigns to a name (`x = …`, `local x=…`, R's `x <- …`), found by scanning back from each `=` and `<-`.
//!
//! The search is the one a regex over the whole snippet made (the pattern
//! is kept below, and debug builds compare every search with it), but a
//! regex with groups ran its slowest engine over every snippet holding an
//! `=`: keyword arguments (`capture_output=True`) made it most of the cost
//! of reading a short Python call. An assignment ends at its operator, so
//! each operator is a candidate, and what stands before it (blanks, then a
//! name) is read backwards. Matches do not overlap: nothing before the end
//! of the last one is read again, as the regex's search resumed there.

use super::view::Span;

/// One assignment: the name (with its `$`/`@` sigil) and where its
/// operator starts, `=` or `<-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Assignment {
    pub name: Span,
    pub op: usize,
    /// The operator is R's `<-` rather than `=`.
    pub arrow: bool,
}

/// The pattern the scan agrees with. A keyword (`const`, `let`, `var`, `my`,
/// `our`, `local`) may stand before the name; it changes where a match
/// starts but never which name it holds, so the scan does not look for it.
/// `<-` counts only before something other than a digit or `-` (`x <- 5` is
/// a comparison of `x` with `-5` in most of the languages read).
#[cfg(any(debug_assertions, test))]
const PATTERN: &str = r"(?:(?-u:\b)(?:const|let|var|my|our|local)[\t\n\x0B\x0C\r ]+)?([$@]?[A-Za-z_][0-9A-Za-z_]*)[\t\n\x0B\x0C\r ]*(=|<-[^[0-9]-])";

fn is_blank(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every assignment in `src`, in order.
pub(super) fn assignments(src: &str) -> impl Iterator<Item = Assignment> + '_ {
    #[cfg(debug_assertions)]
    check(src);
    scan(src)
}

fn scan(src: &str) -> impl Iterator<Item = Assignment> + '_ {
    let s = src.as_bytes();
    // Nothing before `done` belongs to a later match.
    let mut done = 0;
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(found) = s.get(at..)?.iter().position(|&b| b == b'=' || b == b'<') {
            let op = at + found;
            at = op + 1;
            let (arrow, end) = if s[op] == b'=' {
                (false, op + 1)
            } else {
                // `<-` and the character after it, which must be there.
                if s.get(op + 1) != Some(&b'-') {
                    continue;
                }
                match src.get(op + 2..).and_then(|rest| rest.chars().next()) {
                    Some(c) if !c.is_ascii_digit() && c != '-' => (true, op + 2 + c.len_utf8()),
                    _ => continue,
                }
            };
            let mut k = op;
            while k > done && is_blank(s[k - 1]) {
                k -= 1;
            }
            let name_end = k;
            while k > done && is_word(s[k - 1]) {
                k -= 1;
            }
            // The name starts at its first letter or `_` (digits before it
            // belong to no name), or at a sigil right before the word.
            let Some(first) = (k..name_end).find(|&j| !s[j].is_ascii_digit()) else {
                continue;
            };
            let start = if first == k && k > done && matches!(s[k - 1], b'$' | b'@') {
                k - 1
            } else {
                first
            };
            done = end;
            at = end;
            return Some(Assignment {
                name: (start, name_end),
                op,
                arrow,
            });
        }
        None
    })
}

/// Asserts that the scan finds what the pattern finds.
#[cfg(any(debug_assertions, test))]
fn check(src: &str) {
    use once_cell::sync::Lazy;
    static REGEX: Lazy<regex::Regex> =
        Lazy::new(|| regex::Regex::new(PATTERN).expect("assignment pattern is valid"));
    let matched: Vec<Assignment> = REGEX
        .captures_iter(src)
        .filter_map(|caps| {
            let (name, op) = (caps.get(1)?, caps.get(2)?);
            Some(Assignment {
                name: (name.start(), name.end()),
                op: op.start(),
                arrow: op.as_str() != "=",
            })
        })
        .collect();
    let scanned: Vec<Assignment> = scan(src).collect();
    assert_eq!(scanned, matched, "assignments in {src:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_agrees_with_the_pattern() {
        let snippets = [
            "",
            "x = 1",
            "x=1; y = 2\nz\t=3",
            "let x = 1; const y=2; var z = 3; my $a = 4; our @b = (); local c = 5",
            "let let = 5",
            "my$x=1",
            "a$b=1",
            "9abc=1",
            "_9=1 __=2",
            "a==b; a <= b; a >= b; a != b; a => b; a =~ b",
            "a<-b=1",
            "a<-bc=1",
            "a <- 5; a <- -1; a <-x; a<-",
            "a <- 'x'; b<-\n1",
            "a<-é; b <- ü=2",
            "f(x=1, capture_output=True)",
            "= = =; <- <-; <",
            "x =\n\n y",
            "é = 1; xé=2; é_a = 3",
            "@x = 1; $$x = 2; @@y=3",
            "a=b=c=d",
            "x<-=1",
            "x <-  \t- 1",
        ];
        for code in snippets {
            check(code);
        }
        // Every short string over the bytes that matter.
        let alphabet = [
            "a", "9", "_", "$", "@", "=", "<", "-", " ", "\n", "é", "l", "e", "t", "(",
        ];
        for code in crate::shell::interp::tests::every_string(&alphabet, 4) {
            check(&code);
        }
    }

    #[test]
    fn names_and_operators_are_where_they_are_written() {
        let found: Vec<Assignment> = scan("let $x = 1; y <- z").collect();
        assert_eq!(
            found,
            [
                Assignment {
                    name: (4, 6),
                    op: 7,
                    arrow: false
                },
                Assignment {
                    name: (12, 13),
                    op: 14,
                    arrow: true
                },
            ]
        );
    }
}
