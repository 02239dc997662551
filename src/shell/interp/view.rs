//! One reading of interpreter code under one dialect: matching brackets, call arguments and receivers, list literals and simple assignments.

use std::cell::{Cell, OnceCell};
use std::collections::HashMap;

use super::lex::{Dialect, Lexed};

/// A byte range `(start, end)` of the code.
pub(super) type Span = (usize, usize);

const NONE: u32 = u32::MAX;
/// Most argument lists read without parentheses, and most assignments
/// recorded, in one reading.
const MAX_BARE_CALLS: usize = 2_000;
const MAX_ASSIGNMENTS: usize = 20_000;
/// Longest argument list read without parentheses (`system "x", "y"`).
const MAX_BARE_ARGS: usize = 1024;

/// One argument of a call: `value`, or `key=value` / `key: value`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Arg {
    pub key: Option<Span>,
    pub value: Span,
}

/// The receiver of a method call: `os` in `os.remove(p)`, `Path('/x')` in
/// `Path('/x').unlink()`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Recv {
    pub name: Span,
    /// The whole receiver expression.
    pub span: Span,
}

pub(super) struct View<'a> {
    pub d: Dialect,
    pub src: &'a str,
    pub(super) s: &'a [u8],
    lexed: &'a Lexed,
    partner: Vec<u32>,
    assignments: OnceCell<HashMap<&'a str, Vec<(usize, Span)>>>,
    /// Evaluation steps spent so far, and when the current value began.
    pub(super) steps: Cell<usize>,
    pub(super) value_start: Cell<usize>,
    bare_calls: Cell<usize>,
    /// Why the reading is incomplete, if it is.
    pub incomplete: Cell<Option<&'static str>>,
    /// The arguments and environment the command gives the code.
    pub(super) given: Option<&'a super::given::Given>,
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

fn closes(open: u8, close: u8) -> bool {
    matches!((open, close), (b'(', b')') | (b'[', b']') | (b'{', b'}'))
}

impl<'a> View<'a> {
    pub fn new(src: &'a str, d: Dialect, lexed: &'a Lexed) -> View<'a> {
        let s = src.as_bytes();
        let mut partner = vec![NONE; s.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut t = 0;
        let mut j = 0;
        while j < s.len() {
            if let Some(&(start, end)) = lexed.text.get(t) {
                if start <= j {
                    j = j.max(end);
                    t += 1;
                    continue;
                }
            }
            match s[j] {
                b'(' | b'[' | b'{' => stack.push(j),
                c @ (b')' | b']' | b'}') => {
                    if let Some(&open) = stack.last() {
                        if closes(s[open], c) {
                            stack.pop();
                            partner[open] = j as u32;
                            partner[j] = open as u32;
                        }
                    }
                }
                _ => {}
            }
            j += 1;
        }
        View {
            d,
            src,
            s,
            lexed,
            partner,
            assignments: OnceCell::new(),
            steps: Cell::new(0),
            value_start: Cell::new(0),
            bare_calls: Cell::new(0),
            incomplete: Cell::new(None),
            given: None,
        }
    }

    /// This view with the arguments and environment the code is given.
    pub fn with_given(self, given: Option<&'a super::given::Given>) -> View<'a> {
        View { given, ..self }
    }

    pub fn text(&self, span: Span) -> &'a str {
        self.src.get(span.0..span.1).unwrap_or("")
    }

    pub fn byte(&self, j: usize) -> u8 {
        self.s.get(j).copied().unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.s.len()
    }

    /// The end of the text range holding `pos`, if `pos` is text.
    pub(super) fn text_end(&self, pos: usize) -> Option<usize> {
        let text = &self.lexed.text;
        let i = text.partition_point(|&(start, _)| start <= pos);
        (i > 0 && pos < text[i - 1].1).then(|| text[i - 1].1)
    }

    pub fn is_code(&self, pos: usize) -> bool {
        self.text_end(pos).is_none()
    }

    pub fn partner(&self, pos: usize) -> Option<usize> {
        self.partner
            .get(pos)
            .filter(|&&p| p != NONE)
            .map(|&p| p as usize)
    }

    pub fn trim(&self, (mut a, mut b): Span) -> Span {
        while a < b && self.byte(a).is_ascii_whitespace() {
            a += 1;
        }
        while b > a && self.byte(b - 1).is_ascii_whitespace() {
            b -= 1;
        }
        (a, b)
    }

    /// Visits the code positions of `span` outside nested brackets and
    /// text, in order, until `f` returns false; returns where it stopped.
    pub fn walk(&self, (from, to): Span, mut f: impl FnMut(usize) -> bool) -> usize {
        let mut j = from;
        while j < to {
            if let Some(end) = self.text_end(j) {
                j = end;
                continue;
            }
            if !f(j) {
                return j;
            }
            j = match self.partner(j) {
                Some(p) if p > j => p + 1,
                _ => j + 1,
            };
        }
        to
    }

    /// Splits `span` at top-level occurrences of `sep`.
    pub(super) fn split(&self, span: Span, sep: &[u8]) -> Vec<Span> {
        let mut parts = Vec::new();
        let mut start = span.0;
        self.walk(span, |j| {
            if j >= start && self.s[j..span.1].starts_with(sep) {
                // `==`, `+=`, `..` and the like are not the separator.
                let next = self.byte(j + sep.len());
                let prev = if j > 0 { self.byte(j - 1) } else { 0 };
                let doubled = sep.len() == 1 && (next == sep[0] || prev == sep[0] || next == b'=');
                if !doubled {
                    parts.push(self.trim((start, j)));
                    start = j + sep.len();
                }
            }
            true
        });
        parts.push(self.trim((start, span.1)));
        parts
    }

    /// The arguments inside the parentheses opening at `open`.
    pub fn paren_args(&self, open: usize) -> Option<Vec<Arg>> {
        let close = self.partner(open).filter(|&c| c > open)?;
        let mut args: Vec<Arg> = self
            .split((open + 1, close), b",")
            .into_iter()
            .map(|span| self.arg(span))
            .collect();
        if args.last().is_some_and(|a| a.value.0 >= a.value.1) {
            args.pop();
        }
        Some(args)
    }

    pub fn arg(&self, span: Span) -> Arg {
        let (a, b) = span;
        let mut k = a;
        if matches!(self.byte(k), b'$' | b'@') {
            k += 1;
        }
        while k < b && (self.byte(k).is_ascii_alphanumeric() || self.byte(k) == b'_') {
            k += 1;
        }
        let key = (a, k);
        let mut j = k;
        while j < b && self.byte(j) == b' ' {
            j += 1;
        }
        let keyed = k > a
            && match (self.byte(j), self.byte(j + 1)) {
                (b'=', b'>') => true,
                (b'=', c) => c != b'=' && c != b'~',
                (b':', c) => c != b':' && j == k,
                _ => false,
            };
        if keyed {
            let skip = if self.byte(j + 1) == b'>' { 2 } else { 1 };
            Arg {
                key: Some(key),
                value: self.trim((j + skip, b)),
            }
        } else {
            Arg {
                key: None,
                value: span,
            }
        }
    }

    /// The arguments of a call whose name ends at `name_end`: in
    /// parentheses, or (Ruby, Perl, PHP statements) up to the statement's end.
    pub fn call_args(&self, name_end: usize) -> Option<(Vec<Arg>, bool)> {
        let mut j = name_end;
        while matches!(self.byte(j), b' ' | b'\t') {
            j += 1;
        }
        if self.byte(j) == b'(' {
            return self.paren_args(j).map(|args| (args, true));
        }
        // Only Ruby, Perl and Lua call without parentheses (Lua only with
        // a string: `os.execute "x"`).
        let first = self.byte(j);
        let starts_value = match self.d {
            // Perl's sigils need no space: `system$_`, `exec@ARGV`.
            Dialect::Perl if j == name_end => matches!(first, b'$' | b'@'),
            Dialect::Ruby | Dialect::Perl => {
                j > name_end && (first.is_ascii_alphanumeric() || b"'\"`$@-[%".contains(&first))
            }
            Dialect::Lua => matches!(first, b'\'' | b'"'),
            _ => false,
        };
        if !starts_value || !self.is_code(j) {
            return None;
        }
        let word_end = (j..self.s.len())
            .find(|&k| !is_word_byte(self.byte(k)))
            .unwrap_or(self.s.len());
        if STOP_WORDS.contains(&self.text((j, word_end))) {
            return None;
        }
        self.bare_calls.set(self.bare_calls.get() + 1);
        if self.bare_calls.get() > MAX_BARE_CALLS {
            self.incomplete.set(Some(
                "the interpreter code makes too many calls without parentheses",
            ));
            return None;
        }
        let limit = (j + MAX_BARE_ARGS).min(self.s.len());
        let end = self.walk((j, limit), |k| {
            let c = self.s[k];
            if matches!(c, b';' | b'\n' | b')' | b']' | b'}')
                || self.starts_with(k, b"||")
                || self.starts_with(k, b"&&")
            {
                return false;
            }
            let word_start = k > 0 && !is_word_byte(self.s[k - 1]) && is_word_byte(c);
            !(word_start && k > j && STOP_WORDS.iter().any(|w| self.word_at(k, w)))
        });
        let args = self
            .split((j, end), b",")
            .into_iter()
            .filter(|s| s.0 < s.1)
            .map(|span| self.arg(span))
            .collect();
        Some((args, false))
    }

    pub(super) fn starts_with(&self, j: usize, pat: &[u8]) -> bool {
        self.s.get(j..j + pat.len()) == Some(pat)
    }

    fn word_at(&self, j: usize, word: &str) -> bool {
        self.starts_with(j, word.as_bytes()) && !is_word_byte(self.byte(j + word.len()))
    }

    /// The receiver before a method name starting at `start`.
    pub fn receiver(&self, start: usize) -> Option<Recv> {
        let mut k = start;
        while k > 0 && self.s[k - 1] == b' ' {
            k -= 1;
        }
        if k >= 1 && self.s[k - 1] == b'.' {
            k -= 1;
        } else if k >= 2 && (self.starts_with(k - 2, b"::") || self.starts_with(k - 2, b"->")) {
            k -= 2;
        } else {
            return None;
        }
        while k > 0 && self.s[k - 1] == b' ' {
            k -= 1;
        }
        let end = k;
        if k > 0 && self.s[k - 1] == b')' {
            k = self.partner(k - 1)?;
            while k > 0 && self.s[k - 1] == b' ' {
                k -= 1;
            }
        }
        let name_end = k;
        while k > 0 && is_word_byte(self.s[k - 1]) {
            k -= 1;
        }
        Some(Recv {
            name: (k, name_end),
            span: (k, end),
        })
    }

    fn assignments(&self) -> &HashMap<&'a str, Vec<(usize, Span)>> {
        self.assignments.get_or_init(|| {
            let mut map: HashMap<&str, Vec<(usize, Span)>> = HashMap::new();
            // Every assignment the pattern finds holds `=` or `<-`: code
            // with neither (a one-line call) is not scanned.
            if !self.s.iter().any(|&b| b == b'=' || b == b'<') {
                return map;
            }
            // Where the statement reaching each position ends; filled as
            // statements are walked so that `a=a=a=...` stays linear.
            let mut ends: Vec<u32> = vec![NONE; self.s.len()];
            let mut count = 0;
            for found in super::assign::assignments(self.src) {
                let (name_start, name_end) = found.name;
                let name = &self.src[name_start..name_end];
                let eq = if found.arrow { found.op + 1 } else { found.op };
                let before = if name_start > 0 {
                    self.s[name_start - 1]
                } else {
                    0
                };
                let after = self.byte(eq + 1);
                if !self.is_code(name_start)
                    || before == b'.'
                    || is_word_byte(before)
                    || matches!(after, b'=' | b'~' | b'>')
                {
                    continue;
                }
                count += 1;
                if count > MAX_ASSIGNMENTS {
                    self.incomplete
                        .set(Some("the interpreter code has too many assignments"));
                    break;
                }
                let mut visited = Vec::new();
                let mut end = self.s.len();
                self.walk((eq + 1, self.s.len()), |k| {
                    if ends[k] != NONE {
                        end = ends[k] as usize;
                        return false;
                    }
                    if matches!(self.s[k], b';' | b'\n' | b')' | b']' | b'}' | b',') {
                        end = k;
                        return false;
                    }
                    visited.push(k);
                    true
                });
                for k in visited {
                    ends[k] = end as u32;
                }
                map.entry(name)
                    .or_default()
                    .push((name_start, self.trim((eq + 1, end))));
            }
            map
        })
    }

    /// Every simple assignment in order: the name and the assigned expression.
    pub(super) fn assigned(&self) -> Vec<(&'a str, Span)> {
        let mut all: Vec<(usize, &'a str, Span)> = self
            .assignments()
            .iter()
            .flat_map(|(name, list)| list.iter().map(|&(at, rhs)| (at, *name, rhs)))
            .collect();
        all.sort_unstable_by_key(|&(at, _, _)| at);
        all.into_iter().map(|(_, name, rhs)| (name, rhs)).collect()
    }

    /// The value last assigned to `name` by a statement that ends before `pos`.
    pub(super) fn lookup(&self, name: &str, pos: usize) -> Option<Span> {
        let list = self.assignments().get(name)?;
        let i = list.partition_point(|&(at, _)| at < pos);
        list[..i]
            .iter()
            .rev()
            .find(|(_, rhs)| rhs.1 <= pos)
            .map(|&(_, rhs)| rhs)
    }

    /// The items of a list literal: `[...]`, `(...)`, `%w[...]`, `c(...)`, `array(...)`.
    pub fn list_items(&self, span: Span) -> Option<Vec<Span>> {
        let (a, b) = self.trim(span);
        if a >= b {
            return None;
        }
        let open = if self.starts_with(a, b"%w") || self.starts_with(a, b"%W") {
            let body = (a + 3, b.checked_sub(1)?);
            let text = self.text(body);
            let mut items = Vec::new();
            let mut offset = body.0;
            for word in text.split(' ') {
                if !word.is_empty() {
                    items.push((offset, offset + word.len()));
                }
                offset += word.len() + 1;
            }
            return Some(items);
        } else if let Some(open) = self.literal_open((a, b)) {
            open
        } else if matches!(self.s[a], b'[' | b'(') {
            a
        } else {
            return None;
        };
        if self.partner(open) != Some(b - 1) {
            return None;
        }
        Some(
            self.split((open + 1, b - 1), b",")
                .into_iter()
                .filter(|s| s.0 < s.1)
                .collect(),
        )
    }

    /// Where the items of a list written as a call or a typed literal
    /// open: R's `c(...)`, PHP's `array(...)`, Java's `List.of(...)` and
    /// `new String[]{...}`, Go's `[]string{...}`.
    fn literal_open(&self, (a, b): Span) -> Option<usize> {
        const CALLS: &[&str] = &["c(", "array(", "list(", "List.of(", "Arrays.asList("];
        if let Some(call) = CALLS.iter().find(|c| self.starts_with(a, c.as_bytes())) {
            return Some(a + call.len() - 1);
        }
        let text = self.text((a, b));
        if text.starts_with("new ") {
            return text.find("[]{").map(|k| a + k + 2);
        }
        let head = text.strip_prefix("[]")?;
        let k = head.find('{')?;
        head[..k]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'.')
            .then_some(a + 2 + k)
    }

    pub fn is_list(&self, span: Span) -> bool {
        self.list_items(span).is_some()
    }
}

/// Words that end an argument list written without parentheses.
const STOP_WORDS: &[&str] = &[
    "if", "unless", "or", "and", "while", "until", "for", "foreach", "do", "then", "else", "in",
    "not", "is",
];
#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    #[test]
    fn arguments_balance_brackets_and_quotes() {
        let code = "fs.rmSync(require('os').homedir(), {recursive: true})";
        let lexed = lex(code, Dialect::Js);
        let view = View::new(code, Dialect::Js, &lexed);
        let (args, parens) = view.call_args(9).unwrap_or_default();
        assert!(parens);
        assert_eq!(args.len(), 2);
        assert_eq!(view.text(args[0].value), "require('os').homedir()");
        let code = "system \"rm\", \"-rf\", \"/\" if $x";
        let lexed = lex(code, Dialect::Perl);
        let view = View::new(code, Dialect::Perl, &lexed);
        let (args, _) = view.call_args(6).unwrap_or_default();
        assert_eq!(args.len(), 3);
    }
}
