//! Where the string literals, comments and quoted shell commands of inline interpreter code lie, under each language's lexical rules.
//!
//! A call whose name sits inside a string is text, not a call; but a lexer
//! that mistakes a quote for the start of a string could hide real code the
//! same way, so each language family is lexed by its own rules. Input that
//! ends inside a string, comment or interpolation stops the lexing there:
//! the interpreter would reject it, and whatever follows counts as code.

/// One family of lexical conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// Python, and R (`#` comments, `'`/`"` strings).
    Python,
    Js,
    Ruby,
    Perl,
    Php,
    Lua,
    /// Julia: `#=` comments, `$` interpolation, backtick commands.
    Julia,
}

/// Deepest nesting of interpolations (`f"{f'{x}'}"`) followed.
const MAX_DEPTH: usize = 32;

/// What one lexing pass found, as byte ranges `(start, end)` in order.
#[derive(Debug, Default)]
pub(super) struct Lexed {
    /// String contents (minus interpolated code), comments, regex literals.
    pub text: Vec<(usize, usize)>,
    /// Bodies of backticks, `qx{}` and `%x()`: shell commands in Ruby, Perl
    /// and PHP; in JavaScript, templates tagged with `$` (zx, Bun shell).
    pub commands: Vec<(usize, usize)>,
}

#[cfg(test)]
fn contains(ranges: &[(usize, usize)], pos: usize) -> bool {
    let i = ranges.partition_point(|&(start, _)| start <= pos);
    i > 0 && pos < ranges[i - 1].1
}

/// Code that runs inside a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interp {
    None,
    /// Ruby `#{...}`.
    Hash,
    /// JavaScript template `${...}`.
    Dollar,
    /// Perl `@{[...]}`, `${\ ...}`.
    Perl,
    /// PHP `{$...}`, `${...}`.
    Php,
    /// Python f-string `{...}` (`{{` is a brace).
    Brace,
    /// Julia `$(...)`.
    Julia,
}

use heredocs::Heredoc;

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
    d: Dialect,
    out: Lexed,
    depth: usize,
    /// The input ended inside a construct: everything unwinds.
    done: bool,
    heredocs: Vec<Heredoc>,
    /// Last significant byte of code (0 at the start); `"` after a literal.
    prev: u8,
    /// The last token was this word.
    prev_word: Option<(usize, usize)>,
    /// Whitespace since the last significant byte.
    space: bool,
}

pub(super) fn lex(code: &str, d: Dialect) -> Lexed {
    let mut lexer = Lexer {
        s: code.as_bytes(),
        i: 0,
        d,
        out: Lexed::default(),
        depth: 0,
        done: false,
        heredocs: Vec::new(),
        prev: 0,
        prev_word: None,
        space: false,
    };
    lexer.code(None);
    lexer.out
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

const REGEX_AFTER: &[u8] = b"(,=:[!&|?{};+-*%<>~^";
const REGEX_KEYWORDS: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "if",
    "unless",
    "while",
    "until",
    "and",
    "or",
    "not",
    "split",
    "grep",
    "map",
    "join",
    "when",
    "yield",
];

impl Lexer<'_> {
    fn at(&self, j: usize) -> u8 {
        self.s.get(j).copied().unwrap_or(0)
    }

    fn starts(&self, j: usize, pat: &[u8]) -> bool {
        self.s.get(j..j + pat.len()) == Some(pat)
    }

    /// Ends the lexing: the input stopped inside a construct.
    fn stop(&mut self, text_len: usize, commands_len: usize) {
        self.out.text.truncate(text_len);
        self.out.commands.truncate(commands_len);
        self.done = true;
        self.i = self.s.len();
    }

    fn value(&mut self) {
        self.prev = b'"';
        self.prev_word = None;
        self.space = false;
    }

    /// Lexes code up to the end, or (inside an interpolation) up to the
    /// unmatched `close` where `self.i` is left.
    fn code(&mut self, close: Option<u8>) {
        let mut nest = 0usize;
        let open = if close == Some(b')') { b'(' } else { b'{' };
        while !self.done && self.i < self.s.len() {
            let i = self.i;
            let c = self.s[i];
            let next = self.at(i + 1);
            match c {
                b'\n' => {
                    self.i += 1;
                    self.space = true;
                    if !self.heredocs.is_empty() {
                        self.heredoc_bodies();
                    }
                    continue;
                }
                b' ' | b'\t' | b'\r' => {
                    self.i += 1;
                    self.space = true;
                    continue;
                }
                b'=' if self.line_start(i) && self.block_comment_at(i) => continue,
                _ if close == Some(c) && nest == 0 => return,
                _ if close.is_some() && c == open => nest += 1,
                _ if close == Some(c) => nest -= 1,
                _ if self.comment(i, next) => continue,
                _ if self.literal(i, c, next) => continue,
                c if is_word_byte(c) => {
                    if self.word(i) {
                        continue;
                    }
                    return;
                }
                _ => {}
            }
            self.i += 1;
            self.prev = c;
            self.prev_word = None;
            self.space = false;
        }
    }

    /// A comment starting at `i` (`next` is the byte after it), skipped:
    /// whether there was one.
    fn comment(&mut self, i: usize, next: u8) -> bool {
        match self.s[i] {
            b'#' if self.d == Dialect::Julia && next == b'=' => {
                let end = find(self.s, i + 2, b"=#").map_or(self.s.len(), |e| e + 2);
                self.out.text.push((i, end));
                self.i = end;
                true
            }
            b'#' if self.hash_comment() => {
                self.line_comment(i);
                true
            }
            b'/' if matches!(self.d, Dialect::Js | Dialect::Php) && next == b'/' => {
                self.line_comment(i);
                true
            }
            b'/' if matches!(self.d, Dialect::Js | Dialect::Php) && next == b'*' => {
                let end = find(self.s, i + 2, b"*/").map_or(self.s.len(), |e| e + 2);
                self.out.text.push((i, end));
                self.i = end;
                true
            }
            b'-' if self.d == Dialect::Lua && next == b'-' => {
                match self.long_bracket(i + 2) {
                    Some(level) => self.lua_long(i, i + 2, level),
                    None => self.line_comment(i),
                }
                true
            }
            _ => false,
        }
    }

    /// A string, regex, heredoc or other literal starting at `i`, read
    /// with its interpolations: whether there was one.
    fn literal(&mut self, i: usize, c: u8, next: u8) -> bool {
        match c {
            b'[' if self.d == Dialect::Lua => {
                let Some(level) = self.long_bracket(i) else {
                    return false;
                };
                self.lua_long(i, i, level);
                self.value();
                true
            }
            // Perl's and Ruby's `$'`, `$"` and `` $` `` are variables.
            b'\'' | b'"' | b'`'
                if matches!(self.d, Dialect::Perl | Dialect::Ruby)
                    && i > 0
                    && self.s[i - 1] == b'$' =>
            {
                false
            }
            // Julia's `'` after a value is the transpose operator.
            b'\''
                if self.d == Dialect::Julia
                    && i > 0
                    && (is_word_byte(self.s[i - 1]) || b")]'.".contains(&self.s[i - 1])) =>
            {
                false
            }
            b'\'' | b'"' => {
                self.string(c);
                self.value();
                true
            }
            b'`' if self.d != Dialect::Python && self.d != Dialect::Lua => {
                let (interp, command) = match self.d {
                    Dialect::Js => (Interp::Dollar, i > 0 && self.s[i - 1] == b'$'),
                    Dialect::Ruby => (Interp::Hash, true),
                    Dialect::Julia => (Interp::Julia, true),
                    Dialect::Perl => (Interp::Perl, true),
                    _ => (Interp::Php, true),
                };
                self.i = i + 1;
                self.quoted(None, b"`", interp, false, command);
                self.value();
                true
            }
            b'/' if matches!(self.d, Dialect::Js | Dialect::Ruby | Dialect::Perl)
                && self.regex_allowed() =>
            {
                let interp = match self.d {
                    Dialect::Ruby => Interp::Hash,
                    _ => Interp::None,
                };
                self.i = i + 1;
                self.quoted(None, b"/", interp, true, false);
                self.skip_flags();
                self.value();
                true
            }
            b'%' if self.d == Dialect::Ruby && self.ruby_percent() => {
                self.value();
                true
            }
            b'<' if matches!(self.d, Dialect::Ruby | Dialect::Perl | Dialect::Php)
                && next == b'<'
                && self.heredoc_opener() =>
            {
                self.value();
                true
            }
            _ => false,
        }
    }

    /// The word starting at `i`, read; `false` when it ends the code
    /// (Perl's and Ruby's `__END__`, after which comes data).
    fn word(&mut self, i: usize) -> bool {
        let mut j = i;
        while j < self.s.len() && is_word_byte(self.s[j]) {
            j += 1;
        }
        self.i = j;
        let word = &self.s[i..j];
        if matches!(self.d, Dialect::Perl | Dialect::Ruby)
            && self.line_start(i)
            && (word == b"__END__" || word == b"__DATA__")
        {
            // What follows is data the program may read, never code.
            self.out.text.push((i, self.s.len()));
            self.i = self.s.len();
            return false;
        }
        if self.d == Dialect::Perl && self.perl_quote_like(i, j) {
            self.value();
        } else {
            self.prev = self.s[j - 1];
            self.prev_word = Some((i, j));
            self.space = false;
        }
        true
    }

    fn line_start(&self, i: usize) -> bool {
        i == 0 || self.s[i - 1] == b'\n'
    }

    /// Perl POD (`=head1` ... `=cut`) and Ruby `=begin` ... `=end` at `i`.
    fn block_comment_at(&mut self, i: usize) -> bool {
        let end_marker: &[u8] = match self.d {
            Dialect::Perl if self.at(i + 1).is_ascii_alphabetic() => b"\n=cut",
            Dialect::Ruby if self.starts(i, b"=begin") => b"\n=end",
            _ => return false,
        };
        let end = match find(self.s, i, end_marker) {
            Some(e) => find(self.s, e + 1, b"\n").unwrap_or(self.s.len()),
            None => self.s.len(),
        };
        self.out.text.push((i, end));
        self.i = end;
        true
    }

    fn hash_comment(&self) -> bool {
        match self.d {
            Dialect::Python | Dialect::Ruby | Dialect::Php | Dialect::Julia => true,
            // `$#array` is the last index, not a comment.
            Dialect::Perl => !(self.i > 0 && self.s[self.i - 1] == b'$'),
            Dialect::Js | Dialect::Lua => false,
        }
    }

    fn line_comment(&mut self, start: usize) {
        let end = find(self.s, start, b"\n").unwrap_or(self.s.len());
        self.out.text.push((start, end));
        self.i = end;
    }

    /// The level of a Lua long bracket `[==[` opening at `j`.
    fn long_bracket(&self, j: usize) -> Option<usize> {
        if self.at(j) != b'[' {
            return None;
        }
        let mut k = j + 1;
        while self.at(k) == b'=' {
            k += 1;
        }
        (self.at(k) == b'[').then_some(k - j - 1)
    }

    fn lua_long(&mut self, start: usize, bracket: usize, level: usize) {
        let mut close = vec![b']'];
        close.extend(std::iter::repeat_n(b'=', level));
        close.push(b']');
        let body = bracket + level + 2;
        match find(self.s, body, &close) {
            Some(end) => {
                self.out.text.push((start.min(body), end));
                self.i = end + close.len();
            }
            None => self.stop(self.out.text.len(), self.out.commands.len()),
        }
    }

    fn regex_allowed(&self) -> bool {
        if let Some((a, b)) = self.prev_word {
            let word = std::str::from_utf8(&self.s[a..b]).unwrap_or("");
            return REGEX_KEYWORDS.contains(&word);
        }
        self.prev == 0 || REGEX_AFTER.contains(&self.prev)
    }

    fn skip_flags(&mut self) {
        while self.at(self.i).is_ascii_alphabetic() {
            self.i += 1;
        }
    }

    /// A `'` or `"` string at `self.i`, with Python's prefixes and triple quotes.
    fn string(&mut self, quote: u8) {
        let i = self.i;
        let mut interp = match (self.d, quote) {
            (Dialect::Ruby, b'"') => Interp::Hash,
            (Dialect::Perl, b'"') => Interp::Perl,
            (Dialect::Php, b'"') => Interp::Php,
            (Dialect::Julia, b'"') => Interp::Julia,
            _ => Interp::None,
        };
        let single_line = matches!(self.d, Dialect::Python | Dialect::Js | Dialect::Lua);
        if self.d == Dialect::Julia && self.at(i + 1) == quote && self.at(i + 2) == quote {
            self.i = i + 3;
            self.quoted(None, &[quote; 3], interp, false, false);
            return;
        }
        if self.d == Dialect::Python {
            let mut k = i;
            while k > 0 && self.s[k - 1].is_ascii_alphabetic() {
                k -= 1;
            }
            let prefix = &self.s[k..i];
            let standalone = k == 0 || !is_word_byte(self.s[k - 1]);
            let is_prefix = prefix.len() <= 2 && prefix.iter().all(|c| b"rRbBuUfF".contains(c));
            if standalone && is_prefix && prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'f')) {
                interp = Interp::Brace;
            }
            if self.at(i + 1) == quote && self.at(i + 2) == quote {
                self.i = i + 3;
                self.quoted(None, &[quote; 3], interp, false, false);
                return;
            }
        }
        self.i = i + 1;
        self.quoted(None, &[quote], interp, single_line, false);
    }

    /// The body of a quoted construct from `self.i` to `close` (nested
    /// `open`/`close` pairs when `open` is given); leaves `self.i` after it.
    fn quoted(
        &mut self,
        open: Option<u8>,
        close: &[u8],
        interp: Interp,
        single_line: bool,
        command: bool,
    ) {
        let (text_len, commands_len) = (self.out.text.len(), self.out.commands.len());
        let body = self.i;
        let mut start = body;
        let mut j = body;
        let mut nest = 0usize;
        loop {
            let Some(&c) = self.s.get(j) else {
                self.stop(text_len, commands_len);
                return;
            };
            if c == b'\\' {
                j += 2;
                continue;
            }
            if single_line && c == b'\n' {
                self.stop(text_len, commands_len);
                return;
            }
            if open == Some(c) {
                nest += 1;
            } else if self.starts(j, close) {
                if nest == 0 {
                    break;
                }
                nest -= 1;
            } else if let Some(code) = self.interpolation(j, interp) {
                self.out.text.push((start, j));
                if !self.interpolate(code) {
                    self.stop(text_len, commands_len);
                    return;
                }
                j = self.i + 1;
                start = j;
                continue;
            } else if interp == Interp::Brace && (self.starts(j, b"{{") || self.starts(j, b"}}")) {
                j += 2;
                continue;
            }
            j += 1;
        }
        self.out.text.push((start, j));
        if command {
            self.out.commands.push((body, j));
        }
        self.i = j + close.len();
    }

    /// Where interpolated code starts if an interpolation opens at `j`.
    fn interpolation(&self, j: usize, interp: Interp) -> Option<usize> {
        let (c, next) = (self.at(j), self.at(j + 1));
        match interp {
            Interp::None => None,
            Interp::Hash => (c == b'#' && next == b'{').then_some(j + 2),
            Interp::Dollar => (c == b'$' && next == b'{').then_some(j + 2),
            Interp::Perl => ((c == b'@' || c == b'$') && next == b'{').then_some(j + 2),
            Interp::Php => {
                if c == b'{' && next == b'$' {
                    Some(j + 1)
                } else {
                    (c == b'$' && next == b'{').then_some(j + 2)
                }
            }
            Interp::Brace => (c == b'{' && next != b'{').then_some(j + 1),
            Interp::Julia => (c == b'$' && next == b'(').then_some(j + 2),
        }
    }

    /// Lexes interpolated code from `start` to its closing `}` (`)` for
    /// Julia's `$(...)`), left at `self.i`; false when the input ends first.
    fn interpolate(&mut self, start: usize) -> bool {
        if self.depth >= MAX_DEPTH {
            return false;
        }
        let saved = (self.prev, self.prev_word, self.space);
        self.depth += 1;
        self.i = start;
        self.prev = 0;
        self.prev_word = None;
        let close = if self.s[start - 1] == b'(' {
            b')'
        } else {
            b'}'
        };
        self.code(Some(close));
        self.depth -= 1;
        (self.prev, self.prev_word, self.space) = saved;
        !self.done && self.i < self.s.len()
    }

    /// Perl's `q{}`, `qq//`, `qw()`, `qx!!`, `m//`, `qr{}`, `s///`, `tr///`, `y///`
    /// for the word at `start..end`.
    fn perl_quote_like(&mut self, start: usize, end: usize) -> bool {
        let word = &self.s[start..end];
        let (parts, interp, command) = match word {
            b"q" | b"qw" => (1, Interp::None, false),
            b"qq" | b"m" | b"qr" => (1, Interp::Perl, false),
            b"qx" => (1, Interp::Perl, true),
            b"s" => (2, Interp::Perl, false),
            b"tr" | b"y" => (2, Interp::None, false),
            _ => return false,
        };
        let before = if start > 0 { self.s[start - 1] } else { 0 };
        let arrow = start >= 2 && (self.starts(start - 2, b"->") || self.starts(start - 2, b"::"));
        if b"$@%&*-".contains(&before) || arrow {
            return false;
        }
        let mut j = end;
        while matches!(self.at(j), b' ' | b'\t' | b'\n') {
            j += 1;
        }
        let delim = self.at(j);
        let fat_comma = delim == b'=' && self.at(j + 1) == b'>';
        let spaced_comment = delim == b'#' && j > end;
        let valid = !(delim == 0
            || delim.is_ascii_alphanumeric()
            || delim.is_ascii_whitespace()
            || b"_,;)]}>".contains(&delim)
            || fat_comma
            || spaced_comment);
        if !valid {
            return false;
        }
        self.i = j + 1;
        self.delimited(delim, interp, command);
        let replacement = self.out.text.len();
        if parts == 2 && !self.done {
            if closing(delim).is_some() {
                while matches!(self.at(self.i), b' ' | b'\t' | b'\n') {
                    self.i += 1;
                }
                let second = self.at(self.i);
                if second == 0 {
                    self.stop(self.out.text.len(), self.out.commands.len());
                    return true;
                }
                self.i += 1;
                self.delimited(second, interp, false);
            } else {
                self.delimited(delim, interp, false);
            }
        }
        let flags = self.i;
        self.skip_flags();
        // With `/e` the replacement is code; counting it as code keeps
        // whatever it calls visible.
        if word == b"s" && self.s[flags..self.i].contains(&b'e') {
            self.out.text.truncate(replacement);
        }
        true
    }

    /// A body opened by `delim` (nesting for brackets).
    fn delimited(&mut self, delim: u8, interp: Interp, command: bool) {
        match closing(delim) {
            Some(close) => self.quoted(Some(delim), &[close], interp, false, command),
            None => self.quoted(None, &[delim], interp, false, command),
        }
    }

    /// Ruby's `%q()`, `%Q{}`, `%w[]`, `%x()`, `%r{}`, `%()` at `self.i`.
    fn ruby_percent(&mut self) -> bool {
        let i = self.i;
        let t = self.at(i + 1);
        let (kind, delim_at) = if b"qQwWiIxrs".contains(&t) {
            (t, i + 2)
        } else {
            (b'Q', i + 1)
        };
        let delim = self.at(delim_at);
        let bare = delim_at == i + 1;
        let valid_delim = if bare {
            b"([{<|!/^".contains(&delim)
        } else {
            delim != 0 && !delim.is_ascii_alphanumeric() && !delim.is_ascii_whitespace()
        };
        let context = self.prev == 0
            || (self.prev_word.is_none() && REGEX_AFTER.contains(&self.prev))
            || (self.prev_word.is_some()
                && self.space
                && !self.at(delim_at + 1).is_ascii_whitespace());
        if !valid_delim || !context {
            return false;
        }
        let interp = if b"qwis".contains(&kind) {
            Interp::None
        } else {
            Interp::Hash
        };
        self.i = delim_at + 1;
        self.delimited(delim, interp, kind == b'x');
        if kind == b'r' {
            self.skip_flags();
        }
        true
    }
}

fn closing(open: u8) -> Option<u8> {
    match open {
        b'(' => Some(b')'),
        b'[' => Some(b']'),
        b'{' => Some(b'}'),
        b'<' => Some(b'>'),
        _ => None,
    }
}

pub(super) fn find(s: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    if from > s.len() || pat.is_empty() {
        return None;
    }
    s[from..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| p + from)
}

fn trim_start(s: &[u8]) -> &[u8] {
    let k = s.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &s[k..]
}

fn trim_end(s: &[u8]) -> &[u8] {
    let k = s
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    &s[..s.len() - k]
}

mod heredocs;
#[cfg(test)]
mod tests;
