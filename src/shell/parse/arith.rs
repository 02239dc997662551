//! Arithmetic text (`$(( ))`, `$[ ]`, `(( ))`, `for (( ))` and array subscripts), read for the expansions bash performs in it.
//!
//! Bash expands parameters and runs command substitutions in arithmetic
//! text before it evaluates it, as in double quotes; the tree keeps those
//! expansions so that what they run is analysed like any other command.

use super::{Parser, Part};

/// What ends an arithmetic text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Closer {
    /// `))`: `$(( ))`, `(( ))` and `for (( ))`.
    Parens,
    /// `]`: `$[ ]` and an array subscript.
    Bracket,
}

impl Parser<'_> {
    /// Reads arithmetic text from just after its opener to just past its
    /// closer: its parts, and whether the closer was there (false when the
    /// input ended first). `None`, with the cursor back where it was, when a
    /// lone `)` closes the text first: bash then reads `((a); (b))` as nested
    /// subshells and `$((a); (b))` as a command substitution.
    pub(super) fn arith(&mut self, closer: Closer) -> Option<(Vec<Part>, bool)> {
        let start = self.pos;
        if !self.enter() {
            return Some((Vec::new(), false));
        }
        let mut parts = Vec::new();
        let mut buf = String::new();
        let mut depth = 0usize;
        let closed = loop {
            let Some(c) = self.peek() else {
                break Some(false);
            };
            let opens = if closer == Closer::Parens { '(' } else { '[' };
            match c {
                _ if c == opens => {
                    // Nesting counts against the parser's limit like any other.
                    if !self.enter() {
                        break Some(false);
                    }
                    depth += 1;
                    buf.push(c);
                    self.pos += 1;
                }
                ')' | ']' if depth > 0 && (c == ')') == (closer == Closer::Parens) => {
                    self.leave();
                    depth -= 1;
                    buf.push(c);
                    self.pos += 1;
                }
                ')' if closer == Closer::Parens => {
                    if self.peek_at(1) != Some(')') {
                        break None;
                    }
                    self.pos += 2;
                    break Some(true);
                }
                ']' if closer == Closer::Bracket => {
                    self.pos += 1;
                    break Some(true);
                }
                '\\' | '\'' | '"' | '`' | '$' => {
                    if !buf.is_empty() {
                        parts.push(Part::Lit(std::mem::take(&mut buf)));
                    }
                    self.arith_special(c, &mut parts, &mut buf);
                }
                _ => {
                    buf.push(c);
                    self.pos += 1;
                }
            }
        };
        for _ in 0..=depth {
            self.leave();
        }
        let Some(closed) = closed else {
            self.pos = start;
            return None;
        };
        self.open |= !closed;
        if !buf.is_empty() {
            parts.push(Part::Lit(buf));
        }
        Some((parts, closed))
    }

    /// A quote, escape or expansion inside arithmetic text.
    fn arith_special(&mut self, c: char, parts: &mut Vec<Part>, buf: &mut String) {
        match c {
            '\\' => {
                self.pos += 1;
                if let Some(e) = self.peek() {
                    self.pos += 1;
                    if e != '\n' {
                        parts.push(Part::Quoted(e.to_string()));
                    }
                }
            }
            '\'' => {
                self.pos += 1;
                parts.push(Part::Quoted(self.take_until('\'')));
            }
            '"' => {
                self.pos += 1;
                if self.enter() {
                    let inner = self.double_quoted_parts(true);
                    parts.push(Part::Double(inner));
                }
                self.leave();
            }
            '`' => parts.push(self.backtick()),
            _ => match self.dollar() {
                Some(part) => parts.push(part),
                None => buf.push('$'),
            },
        }
    }
}
