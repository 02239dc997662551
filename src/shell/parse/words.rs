//! Word-level parsing: quotes, escapes, `$'...'`, parameter expansions, command and process substitutions.

use super::arith::Closer;
use super::{is_meta, Parser, Part, Script, Stop, Word};

/// Longest source text kept for one expansion. Rules read it (an
/// unresolved `$(curl ...)` in an argument); nested substitutions each hold
/// their inner text, so without a cap the copies grow with depth × length.
const MAX_SOURCE_CHARS: usize = 1024;

impl Parser<'_> {
    /// The source text from `start` to here, shortened past the cap.
    pub(super) fn source(&self, start: usize) -> String {
        let end = self.pos.min(self.len());
        let mut text = String::new();
        if end - start <= MAX_SOURCE_CHARS {
            self.push_span(&mut text, start, end);
            return text;
        }
        self.push_span(&mut text, start, start + MAX_SOURCE_CHARS);
        text.push('…');
        text
    }

    /// Parses one word; `None` at a metacharacter or end of input.
    pub(super) fn word(&mut self) -> Option<Word> {
        self.word_until(None)
    }

    pub(super) fn word_until(&mut self, close: Option<char>) -> Option<Word> {
        let mut parts: Vec<Part> = Vec::new();
        let mut lit_buf = String::new();
        while let Some(c) = self.peek() {
            if Some(c) == close {
                break;
            }
            if close.is_none() && is_meta(c) {
                if self.meta_in_word(c, &mut parts, &mut lit_buf) {
                    continue;
                }
                break;
            }
            match c {
                '\\' => self.escape(&mut parts, &mut lit_buf),
                '\'' => {
                    flush(&mut parts, &mut lit_buf);
                    self.pos += 1;
                    let text = self.take_until('\'');
                    parts.push(Part::Quoted(text));
                }
                '"' => {
                    flush(&mut parts, &mut lit_buf);
                    self.pos += 1;
                    if !self.enter() {
                        break;
                    }
                    let inner = self.double_quoted_parts(true);
                    self.leave();
                    parts.push(Part::Double(inner));
                }
                '`' => {
                    flush(&mut parts, &mut lit_buf);
                    parts.push(self.backtick());
                }
                '$' => {
                    flush(&mut parts, &mut lit_buf);
                    match self.dollar() {
                        Some(part) => parts.push(part),
                        None => lit_buf.push('$'),
                    }
                }
                _ => self.plain_run(close, &mut lit_buf),
            }
        }
        if parts.is_empty() {
            // Most words are one run of plain text: a list made to measure,
            // not grown from nothing.
            return (!lit_buf.is_empty()).then(|| Word {
                parts: vec![Part::Lit(lit_buf)],
            });
        }
        flush(&mut parts, &mut lit_buf);
        Some(Word { parts })
    }

    /// Whether the metacharacter `c` still belongs to the word being read
    /// (and is taken): the list of an array assignment `name=(a b)`, or a
    /// process substitution at the start of a word or of an assignment's
    /// value (`BASH_ENV=<(cmd)`).
    #[inline]
    fn meta_in_word(&mut self, c: char, parts: &mut Vec<Part>, lit_buf: &mut String) -> bool {
        // `name=(a b)` array assignment: keep the list in the word.
        if c == '(' && lit_buf.ends_with('=') && parts.is_empty() {
            let src = self.balanced_source('(', ')');
            lit_buf.push_str(&src);
            return true;
        }
        if (c == '<' || c == '>')
            && self.peek_at(1) == Some('(')
            && (lit_buf.is_empty() || lit_buf.ends_with('='))
            && parts.is_empty()
        {
            flush(parts, lit_buf);
            parts.push(self.process_sub());
            return true;
        }
        false
    }

    /// A backslash outside quotes: a line continuation vanishes, any other
    /// character after it is quoted.
    #[inline]
    fn escape(&mut self, parts: &mut Vec<Part>, lit_buf: &mut String) {
        self.pos += 1;
        match self.peek() {
            Some('\n') => self.pos += 1,
            Some(e) => {
                self.pos += 1;
                flush(parts, lit_buf);
                parts.push(Part::Quoted(e.to_string()));
            }
            // The input ends on a line continuation: a line joined after it
            // becomes part of this word.
            None => self.open = true,
        }
    }

    /// Takes the run of ordinary characters from here at once, so the
    /// buffer grows once rather than per character.
    #[inline]
    fn plain_run(&mut self, close: Option<char>, lit_buf: &mut String) {
        let end = self
            .find_from(self.pos + 1, |n| {
                Some(n) == close
                    || (close.is_none() && is_meta(n))
                    || matches!(n, '\\' | '\'' | '"' | '`' | '$')
            })
            .unwrap_or(self.len());
        self.push_span(lit_buf, self.pos, end);
        self.pos = end;
    }

    pub(super) fn take_until(&mut self, end: char) -> String {
        let start = self.pos.min(self.len());
        let stop = self.find_from(start, |c| c == end).unwrap_or_else(|| {
            self.open = true;
            self.len()
        });
        let mut out = String::new();
        self.push_span(&mut out, start, stop);
        // Past the closing character, when there is one.
        self.pos = (stop + 1).min(self.len()).max(self.pos);
        out
    }

    /// Source text of a balanced `open ... close` run, quotes respected.
    pub(super) fn balanced_source(&mut self, open: char, close: char) -> String {
        let mut depth = 0usize;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            out.push(c);
            if c == '\\' {
                if let Some(n) = self.peek() {
                    self.pos += 1;
                    out.push(n);
                }
            } else if c == '\'' {
                out.push_str(&self.take_until('\''));
                out.push('\'');
            } else if c == open {
                depth += 1;
            } else if c == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return out;
                }
            }
        }
        self.open |= depth > 0;
        out
    }

    /// Parts inside double quotes (or an unquoted heredoc body when
    /// `closing` is false, which runs to end of input).
    pub(super) fn double_quoted_parts(&mut self, closing: bool) -> Vec<Part> {
        let mut parts = Vec::new();
        let mut buf = String::new();
        // Left open unless the closing quote is found.
        let mut open = closing;
        while let Some(c) = self.peek() {
            match c {
                '"' if closing => {
                    self.pos += 1;
                    open = false;
                    break;
                }
                '\\' => {
                    self.pos += 1;
                    match self.peek() {
                        Some(e)
                            if matches!(e, '$' | '`' | '\\' | '\n') || (e == '"' && closing) =>
                        {
                            self.pos += 1;
                            if e != '\n' {
                                buf.push(e);
                            }
                        }
                        _ => buf.push('\\'),
                    }
                }
                '`' => {
                    if !buf.is_empty() {
                        parts.push(Part::Quoted(std::mem::take(&mut buf)));
                    }
                    parts.push(self.backtick());
                }
                '$' => {
                    if !buf.is_empty() {
                        parts.push(Part::Quoted(std::mem::take(&mut buf)));
                    }
                    match self.dollar() {
                        Some(part) => parts.push(part),
                        None => buf.push('$'),
                    }
                }
                _ => {
                    buf.push(c);
                    self.pos += 1;
                }
            }
        }
        self.open |= open;
        if !buf.is_empty() {
            parts.push(Part::Quoted(buf));
        }
        parts
    }

    /// Parses what follows a `$`; `None` when it is a plain dollar sign.
    pub(super) fn dollar(&mut self) -> Option<Part> {
        let start = self.pos;
        self.pos += 1;
        match self.peek() {
            Some('\'') => {
                self.pos += 1;
                Some(Part::Quoted(self.ansi_c()))
            }
            Some('"') => {
                // `$"..."`: a translatable string, otherwise double quotes.
                self.pos += 1;
                if !self.enter() {
                    return None;
                }
                let inner = self.double_quoted_parts(true);
                self.leave();
                Some(Part::Double(inner))
            }
            Some('(') if self.peek_at(1) == Some('(') => {
                self.pos += 2;
                match self.arith(Closer::Parens) {
                    Some((parts, true)) => Some(Part::Arith {
                        parts,
                        src: self.source(start),
                    }),
                    // `$((a); (b))` is a command substitution; so is text
                    // left open, read the way that runs the most.
                    _ => self.command_sub(start),
                }
            }
            Some('[') => {
                self.pos += 1;
                let (parts, _) = self.arith(Closer::Bracket).unwrap_or_default();
                Some(Part::Arith {
                    parts,
                    src: self.source(start),
                })
            }
            Some('(') => self.command_sub(start),
            Some('{') => {
                self.pos += 1;
                if !self.enter() {
                    return None;
                }
                let part = self.braced_param(start);
                self.leave();
                Some(part)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => Some(self.named_param()),
            Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(c) => {
                self.pos += 1;
                Some(Part::Param {
                    name: c.to_string(),
                    op: String::new(),
                    arg: None,
                    index: Vec::new(),
                    src: format!("${c}"),
                })
            }
            _ => {
                self.pos = start + 1;
                None
            }
        }
    }

    /// `$name`, from the name's first character.
    #[inline]
    fn named_param(&mut self) -> Part {
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.pos += 1;
        }
        Part::Param {
            src: format!("${name}"),
            name,
            op: String::new(),
            arg: None,
            index: Vec::new(),
        }
    }

    /// `$( ... )` from its `$`.
    fn command_sub(&mut self, start: usize) -> Option<Part> {
        self.pos = start + 2;
        if !self.enter() {
            return None;
        }
        let script = self.script(Stop::Paren);
        self.leave();
        let src = self.source(start);
        Some(Part::CommandSub { script, src })
    }

    /// `${...}` after the `${`: a name, then an operator and an argument word.
    pub(super) fn braced_param(&mut self, start: usize) -> Part {
        let mut name = String::new();
        let mut op = String::new();
        if self.peek() == Some('#') && self.peek_at(1) != Some('}') {
            self.pos += 1;
            op.push('#');
        } else if self.peek() == Some('!') {
            self.pos += 1;
            op.push('!');
        }
        while let Some(c) = self.peek().filter(|c| {
            c.is_ascii_alphanumeric() || *c == '_' || (name.is_empty() && "@*#?$!-".contains(*c))
        }) {
            name.push(c);
            self.pos += 1;
            if !(c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
        }
        let mut index = Vec::new();
        if self.peek() == Some('[') {
            // The subscript stays in the name as written (`a[0]` is looked
            // up whole); its expansions are kept to be run.
            let from = self.pos;
            self.pos += 1;
            (index, _) = self.arith(Closer::Bracket).unwrap_or_default();
            self.push_span(&mut name, from, self.pos);
        }
        let mut arg = None;
        if self.peek() != Some('}') {
            let mut operator = String::new();
            for candidate in [
                ":-", ":=", ":+", ":?", "##", "%%", "//", "/#", "/%", "^^", ",,", "-", "=", "+",
                "?", "#", "%", "/", "^", ",", ":", "@",
            ] {
                if self.starts_with(candidate) {
                    operator = candidate.to_string();
                    self.pos += candidate.chars().count();
                    break;
                }
            }
            op.push_str(&operator);
            arg = self.word_until(Some('}'));
        }
        if self.peek() == Some('}') {
            self.pos += 1;
        } else {
            self.open = true;
        }
        let src = self.source(start);
        Part::Param {
            name,
            op,
            arg,
            index,
            src,
        }
    }

    pub(super) fn backtick(&mut self) -> Part {
        let start = self.pos;
        self.pos += 1;
        let mut inner = String::new();
        let mut closed = false;
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '`' => {
                    closed = true;
                    break;
                }
                '\\' => match self.peek() {
                    Some(e @ ('`' | '\\' | '$')) => {
                        self.pos += 1;
                        inner.push(e);
                    }
                    _ => inner.push('\\'),
                },
                c => inner.push(c),
            }
        }
        let src = self.source(start);
        let mut sub = Parser::new(&inner, self.depth);
        let script = if sub.enter() {
            sub.script(Stop::Eof)
        } else {
            Script::default()
        };
        if self.limit.is_none() {
            self.limit = sub.limit;
        }
        self.open |= !closed || sub.open;
        if self.limit.is_some() {
            self.pos = self.len();
        }
        Part::CommandSub { script, src }
    }

    pub(super) fn process_sub(&mut self) -> Part {
        let start = self.pos;
        self.pos += 2;
        if !self.enter() {
            return Part::Lit(String::new());
        }
        let script = self.script(Stop::Paren);
        self.leave();
        let src = self.source(start);
        Part::ProcessSub { script, src }
    }

    /// Decodes the body of `$'...'` (after the opening quote).
    pub(super) fn ansi_c(&mut self) -> String {
        let mut out = String::new();
        // Left open unless the closing quote is found.
        let was_open = std::mem::replace(&mut self.open, true);
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '\'' => {
                    self.open = was_open;
                    break;
                }
                '\\' => {
                    let Some(e) = self.peek() else { break };
                    self.pos += 1;
                    if let Some(c) = crate::shell::decode::simple_escape(e) {
                        out.push(c);
                        continue;
                    }
                    match e {
                        'c' => {
                            if let Some(k) = self.peek() {
                                self.pos += 1;
                                out.push(char::from((k as u8 & 0x1f) as u32 as u8));
                            }
                        }
                        'x' => out.push(self.radix_char(16, 2)),
                        'u' => out.push(self.radix_char(16, 4)),
                        'U' => out.push(self.radix_char(16, 8)),
                        '0'..='7' => {
                            self.pos -= 1;
                            out.push(self.radix_char(8, 3));
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        out
    }

    pub(super) fn radix_char(&mut self, radix: u32, max: usize) -> char {
        let mut value: u32 = 0;
        let mut n = 0;
        while n < max {
            match self.peek().and_then(|c| c.to_digit(radix)) {
                Some(d) => {
                    value = value.saturating_mul(radix).saturating_add(d);
                    self.pos += 1;
                    n += 1;
                }
                None => break,
            }
        }
        char::from_u32(value).unwrap_or('\u{fffd}')
    }
}

/// Moves the plain text gathered so far, if any, into the word's parts.
#[inline]
fn flush(parts: &mut Vec<Part>, buf: &mut String) {
    if !buf.is_empty() {
        parts.push(Part::Lit(std::mem::take(buf)));
    }
}
