//! The values of expressions in interpreter code: string literals with their escapes and interpolations, concatenations, simple variables, the home, working and temporary directories, path joins, and base64 or hex decoding.

use super::lex::Dialect;
use super::places::{names_place, Place};
use super::view::{Arg, Span, View};
use crate::shell::decode;

/// What stands for a value warden cannot compute, inside a known string
/// (`'rm -rf ' + d`); the shell analysis treats it as an unknown word.
pub(super) const PLACEHOLDER: &str = "\"$(interpreter value)\"";

/// Evaluation steps spent on one value (assignments may refer to each other).
const MAX_STEPS: usize = 5_000;
/// Evaluation steps spent on one reading of the code; past it the reading
/// is incomplete and says so.
const MAX_TOTAL_STEPS: usize = 1_000_000;
const MAX_EVAL_DEPTH: usize = 16;
/// Longest value computed; longer ones are unknown.
const MAX_VALUE: usize = 256 * 1024;

/// A value computed from the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Val {
    pub text: String,
    /// Some of it came out of a decoder (`b64decode`, `atob`).
    pub decoded: bool,
    /// Some of it is unknown and stands as [`PLACEHOLDER`].
    pub partial: bool,
    /// It starts with the home directory, which `~` stands for (a `~`
    /// the code wrote itself is a plain character).
    pub home: bool,
}

impl Val {
    fn plain(text: impl Into<String>) -> Val {
        Val {
            text: text.into(),
            decoded: false,
            partial: false,
            home: false,
        }
    }
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

impl<'a> View<'a> {
    /// The string value of an expression, if warden can compute it.
    /// `lenient` lets unknown parts of a concatenation or interpolation
    /// stand as [`PLACEHOLDER`].
    pub fn value(&self, span: Span, lenient: bool) -> Option<Val> {
        self.value_start.set(self.steps.get());
        self.eval(span, lenient, 0)
    }

    fn eval(&self, span: Span, lenient: bool, depth: usize) -> Option<Val> {
        let (a, b) = self.trim(span);
        let steps = self.steps.get() + 1;
        self.steps.set(steps);
        if steps > MAX_TOTAL_STEPS {
            self.incomplete
                .set(Some("the interpreter code has too many values to compute"));
            return None;
        }
        if a >= b || depth > MAX_EVAL_DEPTH || steps - self.value_start.get() > MAX_STEPS {
            return None;
        }
        if self.s[a] == b'(' && self.partner(a) == Some(b - 1) {
            return self.eval((a + 1, b - 1), lenient, depth + 1);
        }
        // PHP's `@` silences the expression's errors, not its value.
        if self.d == Dialect::Php && self.s[a] == b'@' {
            return self.eval((a + 1, b), lenient, depth + 1);
        }
        if let Some(v) = self.literal((a, b), lenient, depth) {
            return Some(v);
        }
        let raw = self.text((a, b));
        if raw.len() < 100 {
            let compact: String = raw
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| if c == '"' { '\'' } else { c })
                .collect();
            if names_place(&compact, Place::Home) {
                return Some(Val {
                    home: true,
                    ..Val::plain("~")
                });
            }
            if names_place(&compact, Place::Cwd) {
                return Some(Val::plain("."));
            }
            if names_place(&compact, Place::Temp) {
                return Some(Val::plain("/tmp"));
            }
            // A word of the command line (`sys.argv[1]`, `os.environ['P']`),
            // where `~` is the home the shell expands it to.
            if let Some(word) = self.given.and_then(|g| g.value(&compact)) {
                let home = word == "~" || word.starts_with("~/");
                return Some(Val {
                    home,
                    ..Val::plain(word)
                });
            }
        }
        let ident = raw.trim_start_matches(['$', '@']);
        if !ident.is_empty()
            && ident
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            let rhs = self.lookup(raw, a)?;
            return self.eval(rhs, lenient, depth + 1);
        }
        if let Some(v) = self.concatenation((a, b), lenient, depth) {
            return Some(v);
        }
        self.call_value((a, b), lenient, depth)
    }

    fn concatenation(&self, span: Span, lenient: bool, depth: usize) -> Option<Val> {
        let ops: &[&[u8]] = match self.d {
            Dialect::Python => &[b"+", b"/"],
            Dialect::Js | Dialect::Ruby => &[b"+"],
            Dialect::Perl | Dialect::Php => &[b"."],
            Dialect::Lua => &[b".."],
            Dialect::Julia => &[b"*"],
        };
        for op in ops {
            let parts = self.split(span, op);
            if parts.len() < 2 || parts.iter().any(|p| p.0 >= p.1) {
                continue;
            }
            let values: Vec<Option<Val>> = parts
                .iter()
                .map(|&p| self.eval(p, lenient, depth + 1))
                .collect();
            if values.iter().all(Option::is_none)
                || (!lenient && values.iter().any(Option::is_none))
            {
                return None;
            }
            let mut out = Val::plain("");
            for (i, v) in values.into_iter().enumerate() {
                let text = match v {
                    Some(v) => {
                        out.decoded |= v.decoded;
                        out.partial |= v.partial;
                        out.home |= i == 0 && v.home;
                        v.text
                    }
                    None => {
                        out.partial = true;
                        PLACEHOLDER.to_string()
                    }
                };
                if *op == b"/" {
                    out.text = join_path(&out.text, &text, i == 0);
                } else {
                    out.text.push_str(&text);
                }
                if out.text.len() > MAX_VALUE {
                    return None;
                }
            }
            return Some(out);
        }
        None
    }

    /// A single string literal with its interpolations, if `span` is one.
    fn literal(&self, (a, b): Span, lenient: bool, depth: usize) -> Option<Val> {
        let mut p = a;
        let mut raw = false;
        if self.d == Dialect::Python {
            while p < b && p - a < 2 && b"rRbBuUfF".contains(&self.s[p]) {
                raw |= matches!(self.s[p], b'r' | b'R');
                p += 1;
            }
        }
        let (open_len, close): (usize, &[u8]) = match self.byte(p) {
            q @ (b'\'' | b'"') if self.d == Dialect::Python && self.starts_with(p, &[q; 3]) => {
                (3, if q == b'"' { b"\"\"\"" } else { b"'''" })
            }
            b'\'' => (1, b"'"),
            b'"' => (1, b"\""),
            b'`' => (1, b"`"),
            _ => return None,
        };
        let quote = self.s[p];
        let (body_start, body_end) = (p + open_len, b.checked_sub(close.len())?);
        if body_end < body_start || !self.starts_with(body_end, close) {
            return None;
        }
        let minimal = raw
            || (quote == b'\'' && matches!(self.d, Dialect::Ruby | Dialect::Perl | Dialect::Php));
        self.body((body_start, body_end), lenient, minimal, depth)
    }

    /// The value of a string body: its text pieces unescaped, its
    /// interpolations computed. `None` when the body holds other code.
    pub fn body_value(&self, body: Span, lenient: bool, minimal: bool) -> Option<Val> {
        self.value_start.set(self.steps.get());
        self.body(body, lenient, minimal, 0)
    }

    fn body(
        &self,
        (body_start, body_end): Span,
        lenient: bool,
        minimal: bool,
        depth: usize,
    ) -> Option<Val> {
        let mut out = Val::plain("");
        let mut j = body_start;
        while j < body_end {
            if let Some(end) = self.text_end(j) {
                let end = end.min(body_end);
                if self.d == Dialect::Julia {
                    self.julia_text(&mut out, (j, end), lenient, depth)?;
                    j = end;
                    continue;
                }
                if !minimal && matches!(self.d, Dialect::Perl | Dialect::Php) {
                    self.sigil_text(&mut out, (j, end), lenient, depth)?;
                    j = end;
                    continue;
                }
                let piece = self.text((j, end));
                out.text.push_str(&if minimal {
                    unescape_minimal(piece)
                } else {
                    unescape(piece)
                });
                j = end;
                continue;
            }
            // Code inside the literal: only interpolations may be there.
            let c = self.s[j];
            if matches!(c, b'#' | b'$' | b'@') && matches!(self.byte(j + 1), b'{' | b'(') {
                j += 1;
                continue;
            }
            let close = self
                .partner(j)
                .filter(|&e| matches!(c, b'{' | b'(') && e < body_end)?;
            self.append(&mut out, (j + 1, close), lenient, depth)?;
            j = close + 1;
        }
        (out.text.len() <= MAX_VALUE).then_some(out)
    }

    /// Perl or PHP text in a double-quoted string: `$name`, `$name[1]` and
    /// `$name{key}` are the variable's value (`">$ARGV[0]"`).
    fn sigil_text(&self, out: &mut Val, (a, b): Span, lenient: bool, depth: usize) -> Option<()> {
        let name_byte = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let (mut k, mut start) = (a, a);
        while k < b {
            match self.s[k] {
                b'\\' => k += 2,
                b'$' if k + 1 < b
                    && (self.s[k + 1].is_ascii_alphabetic() || self.s[k + 1] == b'_') =>
                {
                    let mut e = k + 1;
                    while e < b && name_byte(self.s[e]) {
                        e += 1;
                    }
                    // One subscript: `[0]`, `{HOME}`.
                    if e < b && matches!(self.s[e], b'[' | b'{') {
                        let close = if self.s[e] == b'[' { b']' } else { b'}' };
                        if let Some(at) = self.s[e..b].iter().position(|&c| c == close) {
                            e += at + 1;
                        }
                    }
                    out.text.push_str(&unescape(self.text((start, k))));
                    self.append(out, (k, e), lenient, depth)?;
                    (k, start) = (e, e);
                }
                _ => k += 1,
            }
        }
        out.text
            .push_str(&unescape(self.text((start, b.max(start)))));
        Some(())
    }

    /// Julia text in a string or command literal: `$name` is the
    /// variable's value.
    fn julia_text(&self, out: &mut Val, (a, b): Span, lenient: bool, depth: usize) -> Option<()> {
        let mut j = a;
        let mut start = a;
        while j < b {
            if self.s[j] == b'\\' {
                j += 2;
                continue;
            }
            let first = self.byte(j + 1);
            if self.s[j] == b'$' && (first.is_ascii_alphabetic() || first == b'_') {
                out.text.push_str(&unescape(self.text((start, j))));
                let mut k = j + 1;
                while k < b && (self.s[k].is_ascii_alphanumeric() || self.s[k] == b'_') {
                    k += 1;
                }
                self.append(out, (j + 1, k), lenient, depth)?;
                j = k;
                start = k;
                continue;
            }
            j += 1;
        }
        out.text
            .push_str(&unescape(self.text((start, b.min(self.len())))));
        Some(())
    }

    /// The callee and arguments of `callee(args)` followed by no-op methods
    /// (`.decode()`, `.toString()`): receiver text, name, arguments.
    fn callee(&self, span: Span) -> Option<(&'a str, &'a str, Vec<Arg>, Span)> {
        let mut open = None;
        self.walk(span, |j| {
            if self.s[j] == b'(' {
                open = Some(j);
                return false;
            }
            true
        });
        let open = open?;
        let close = self.partner(open)?;
        if !self.noop_suffix((close + 1, span.1)) {
            return None;
        }
        let callee = self.trim((span.0, open));
        let (recv, name) = split_callee(self.text(callee));
        let name = if name == "new" {
            recv.rsplit(['.', ':']).next().unwrap_or("")
        } else {
            name
        };
        Some((recv, name, self.paren_args(open)?, callee))
    }

    /// The bytes a decoding call stands for (`b64decode(...)`,
    /// `Buffer.from(..., 'base64')`), for decompressors to read.
    fn bytes(&self, span: Span, depth: usize) -> Option<Vec<u8>> {
        let (recv, name, args, _) = self.callee(self.trim(span))?;
        let strict = |i: usize| {
            args.get(i)
                .and_then(|a| self.eval(a.value, false, depth + 1))
        };
        let encoding = match name {
            n if BASE64_DECODERS.contains(&n) => "base64".to_string(),
            n if HEX_DECODERS.contains(&n) => "hex".to_string(),
            "from" if recv == "Buffer" => strict(1)?.text.to_ascii_lowercase(),
            "decode" if args.len() >= 2 => strict(1)?.text.to_ascii_lowercase(),
            _ => return None,
        };
        let text = strict(0)?.text;
        match encoding.as_str() {
            "base64" | "base64url" | "base64_codec" => decode::base64_bytes(&text),
            "hex" | "hex_codec" => decode::hex(&text).map(String::into_bytes),
            _ => None,
        }
    }

    /// `callee(args)` followed by no-op methods (`.decode()`, `.toString()`).
    fn call_value(&self, span: Span, lenient: bool, depth: usize) -> Option<Val> {
        let (recv, name, args, callee) = self.callee(span)?;
        let arg = |i: usize| args.get(i).map(|a| a.value);
        let strict = |i: usize| arg(i).and_then(|s| self.eval(s, false, depth + 1));
        match name {
            n if BASE64_DECODERS.contains(&n) => decoded(decode::base64(&strict(0)?.text)?),
            n if HEX_DECODERS.contains(&n) => decoded(decode::hex(&strict(0)?.text)?),
            n if DECOMPRESSORS.contains(&n) => {
                decoded(decode::decompress(&self.bytes(arg(0)?, depth)?)?)
            }
            "str_rot13" => decoded(rot13(&strict(0)?.text)),
            // `codecs.decode(text, 'rot13')`, `codecs.decode(data, 'zlib')`.
            "decode" if recv == "codecs" => {
                let codec = strict(1)?.text.to_ascii_lowercase();
                match codec.as_str() {
                    "rot13" | "rot_13" => decoded(rot13(&strict(0)?.text)),
                    "zlib" | "zlib_codec" => {
                        decoded(decode::decompress(&self.bytes(arg(0)?, depth)?)?)
                    }
                    _ => decoded(String::from_utf8(self.bytes(span, depth)?).ok()?),
                }
            }
            // A directory the code has just created, wherever it lies:
            // deleting it harms nothing else, as deleting under /tmp.
            "mkdtemp" | "mkdtempSync" | "mktmpdir" => Some(Val::plain("/tmp/tmpXXXXXX")),
            "from" if recv == "Buffer" => {
                let text = strict(0)?.text;
                match strict(1).map(|v| v.text.to_ascii_lowercase()).as_deref() {
                    Some("base64") | Some("base64url") => decoded(decode::base64(&text)?),
                    Some("hex") => decoded(decode::hex(&text)?),
                    Some(_) => None,
                    None => Some(Val::plain(text)),
                }
            }
            // `expanduser('~/x')` is the home directory's x.
            "expanduser" | "expand_path" | "expand" => {
                let v = self.eval(arg(0)?, lenient, depth + 1)?;
                let home = v.home || v.text == "~" || v.text.starts_with("~/");
                Some(Val { home, ..v })
            }
            "Path" | "PurePath" | "PosixPath" | "Pathname" | "str" | "String" | "abspath"
            | "realpath" | "realpathSync" | "normpath" | "normalize" | "fspath" => {
                self.eval(arg(0)?, lenient, depth + 1)
            }
            "paste" | "paste0" if self.d == Dialect::Python => {
                self.paste(name, &args, lenient, depth)
            }
            "resolve" if args.len() == 1 => self.eval(arg(0)?, lenient, depth + 1),
            "join" | "joinpath" | "resolve" | "path" => {
                let recv_span = self.trim((callee.0, callee.0 + recv.len()));
                if let Some(sep) = self.literal(recv_span, false, depth + 1) {
                    let items = self.list_items(arg(0)?)?;
                    return self.join_values(&items, &sep.text, lenient, depth);
                }
                if let Some(items) = self.list_items(recv_span) {
                    let sep = strict(0).map_or(",".to_string(), |v| v.text);
                    return self.join_values(&items, &sep, lenient, depth);
                }
                if name == "path" && recv != "file" {
                    return None;
                }
                self.path_joined(&args, lenient, depth)
            }
            _ => None,
        }
    }

    /// R's `paste(a, b, sep = " ")` and `paste0(a, b)`.
    fn paste(&self, name: &str, args: &[Arg], lenient: bool, depth: usize) -> Option<Val> {
        let sep = match args
            .iter()
            .find(|a| a.key.is_some_and(|k| self.text(k) == "sep"))
        {
            Some(a) => self.eval(a.value, false, depth + 1)?.text,
            None if name == "paste" => " ".to_string(),
            None => String::new(),
        };
        let items: Vec<Span> = args
            .iter()
            .filter(|a| a.key.is_none())
            .map(|a| a.value)
            .collect();
        self.join_values(&items, &sep, lenient, depth)
    }

    /// `os.path.join(a, b)` and kin: the arguments joined as path parts.
    fn path_joined(&self, args: &[Arg], lenient: bool, depth: usize) -> Option<Val> {
        let mut out = Val::plain("");
        for (i, a) in args.iter().enumerate() {
            let v = self.eval(a.value, lenient, depth + 1)?;
            out.decoded |= v.decoded;
            out.partial |= v.partial;
            out.home |= i == 0 && v.home;
            out.text = join_path(&out.text, &v.text, i == 0);
        }
        Some(out)
    }

    /// Appends the value of `span` to `out`; an unknown one becomes the
    /// placeholder when `lenient`, else the whole value is unknown.
    fn append(&self, out: &mut Val, span: Span, lenient: bool, depth: usize) -> Option<()> {
        match self.eval(span, lenient, depth + 1) {
            Some(v) => {
                out.decoded |= v.decoded;
                out.partial |= v.partial;
                out.text.push_str(&v.text);
            }
            None if lenient => {
                out.partial = true;
                out.text.push_str(PLACEHOLDER);
            }
            None => return None,
        }
        Some(())
    }

    fn join_values(&self, items: &[Span], sep: &str, lenient: bool, depth: usize) -> Option<Val> {
        let mut out = Val::plain("");
        for (i, &item) in items.iter().enumerate() {
            if i > 0 {
                out.text.push_str(sep);
            }
            self.append(&mut out, item, lenient, depth)?;
            if out.text.len() > MAX_VALUE {
                return None;
            }
        }
        Some(out)
    }

    fn noop_suffix(&self, span: Span) -> bool {
        let (mut a, b) = self.trim(span);
        while a < b {
            if self.byte(a) != b'.' {
                return false;
            }
            let mut k = a + 1;
            while k < b && is_word_byte(self.s[k]) {
                k += 1;
            }
            if !NOOP_METHODS.contains(&self.text((a + 1, k))) {
                return false;
            }
            a = match self.byte(k) {
                b'(' => match self.partner(k) {
                    Some(close) if close < b => close + 1,
                    _ => return false,
                },
                _ => k,
            };
        }
        true
    }
}

#[rustfmt::skip]
const BASE64_DECODERS: &[&str] = &[
    "b64decode", "standard_b64decode", "urlsafe_b64decode", "decodebytes", "decodestring", "atob",
    "decode64", "strict_decode64", "urlsafe_decode64", "decode_base64", "base64_decode",
    "a2b_base64",
];

const HEX_DECODERS: &[&str] = &["fromhex", "unhexlify", "a2b_hex", "hex2bin"];

/// Calls that inflate DEFLATE data (zlib, gzip or raw) in the languages read.
#[rustfmt::skip]
const DECOMPRESSORS: &[&str] = &[
    "decompress", "gzinflate", "gzuncompress", "gzdecode", "inflate", "inflateSync",
    "inflateRawSync", "gunzipSync", "unzipSync", "gunzip", "uncompress", "zlib_decode",
];

fn rot13(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
            'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
            _ => c,
        })
        .collect()
}

/// Methods that leave a string's text as it is.
const NOOP_METHODS: &[&str] = &[
    "decode",
    "encode",
    "toString",
    "strip",
    "trim",
    "to_s",
    "chomp",
    "resolve",
    "absolute",
    "expanduser",
    "as_posix",
    "to_str",
    "rstrip",
    "lstrip",
    "trimEnd",
    "trimStart",
];

fn decoded(text: String) -> Option<Val> {
    Some(Val {
        decoded: true,
        ..Val::plain(text)
    })
}

/// `recv.name` split at the last `.`, `::` or `->` outside brackets.
fn split_callee(callee: &str) -> (&str, &str) {
    let bytes = callee.as_bytes();
    let mut depth = 0i32;
    for k in (0..bytes.len()).rev() {
        match bytes[k] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => depth -= 1,
            b'.' if depth == 0 => return (callee[..k].trim_end_matches('-'), &callee[k + 1..]),
            b':' | b'>' if depth == 0 && k > 0 && matches!(bytes[k - 1], b':' | b'-') => {
                return (&callee[..k - 1], &callee[k + 1..]);
            }
            _ => {}
        }
    }
    ("", callee)
}

fn join_path(base: &str, part: &str, first: bool) -> String {
    if first || base.is_empty() || part.starts_with('/') {
        part.to_string()
    } else {
        format!("{}/{}", base.trim_end_matches('/'), part)
    }
}

/// Backslash escapes of double-quoted strings in the C family.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\'' | '"' | '`' | '/' | '$' | '@' | '#' | '{' | '}' => out.push(e),
            '0' => out.push('\0'),
            'x' | 'u' => {
                let braced = chars.peek() == Some(&'{');
                if braced {
                    chars.next();
                }
                let max = if braced {
                    6
                } else if e == 'x' {
                    2
                } else {
                    4
                };
                let mut value = 0u32;
                let mut used = 0;
                while used < max {
                    match chars.peek().and_then(|c| c.to_digit(16)) {
                        Some(d) => {
                            value = value * 16 + d;
                            used += 1;
                            chars.next();
                        }
                        None => break,
                    }
                }
                if braced && chars.peek() == Some(&'}') {
                    chars.next();
                }
                match char::from_u32(value).filter(|_| used > 0) {
                    Some(c) => out.push(c),
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            '\n' => {}
            e => match decode::simple_escape(e) {
                Some(c) => out.push(c),
                None => {
                    out.push('\\');
                    out.push(e);
                }
            },
        }
    }
    out
}

/// Single-quoted strings of Perl, Ruby and PHP: only `\\` and `\'`.
fn unescape_minimal(s: &str) -> String {
    s.replace("\\\\", "\u{0}")
        .replace("\\'", "'")
        .replace('\u{0}', "\\")
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    fn eval(code: &str, d: Dialect) -> Option<String> {
        let lexed = lex(code, d);
        let view = View::new(code, d, &lexed);
        view.value((0, code.len()), false).map(|v| v.text)
    }

    #[test]
    fn literals() {
        assert_eq!(
            eval(r#""a\"b\n""#, Dialect::Python).as_deref(),
            Some("a\"b\n")
        );
        assert_eq!(eval(r"'a\nb'", Dialect::Perl).as_deref(), Some("a\\nb"));
        assert_eq!(
            eval("'rm ' + '-rf /'", Dialect::Js).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            eval("'rm ' . '-rf /'", Dialect::Perl).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            eval("f'{\"/\"}etc'", Dialect::Python).as_deref(),
            Some("/etc")
        );
        assert_eq!(eval("'x' + y", Dialect::Python), None);
    }

    #[test]
    fn home_and_paths() {
        for home in [
            "os.homedir()",
            "require('os').homedir()",
            "Path.home()",
            "os.path.expanduser('~')",
            "os.environ['HOME']",
            "process.env.HOME",
            "Dir.home",
            "ENV['HOME']",
            "$ENV{HOME}",
        ] {
            assert_eq!(eval(home, Dialect::Python).as_deref(), Some("~"), "{home}");
        }
        assert_eq!(
            eval(
                "os.path.join(os.path.expanduser('~'), '.cache')",
                Dialect::Python
            )
            .as_deref(),
            Some("~/.cache")
        );
        assert_eq!(
            eval("Path.home() / 'x'", Dialect::Python).as_deref(),
            Some("~/x")
        );
        assert_eq!(
            eval("Path('/etc/passwd')", Dialect::Python).as_deref(),
            Some("/etc/passwd")
        );
        assert_eq!(
            eval("tempfile.mkdtemp()", Dialect::Python).as_deref(),
            Some("/tmp/tmpXXXXXX")
        );
        assert_eq!(
            eval("fs.mkdtempSync(path.join(os.tmpdir(), 'x-'))", Dialect::Js).as_deref(),
            Some("/tmp/tmpXXXXXX")
        );
    }

    #[test]
    fn decoders_and_variables() {
        assert_eq!(
            eval("base64.b64decode('cm0gLXJmIC8=').decode()", Dialect::Python).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            eval(
                "Buffer.from('cm0gLXJmIC8=', 'base64').toString()",
                Dialect::Js
            )
            .as_deref(),
            Some("rm -rf /")
        );
        let code = "c = 'rm -rf /'\nx = c";
        let lexed = lex(code, Dialect::Python);
        let view = View::new(code, Dialect::Python, &lexed);
        let at = code.rfind('c').unwrap_or(0);
        assert_eq!(
            view.value((at, at + 1), false).map(|v| v.text).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            eval("' '.join(['rm', '-rf', '/'])", Dialect::Python).as_deref(),
            Some("rm -rf /")
        );
    }

    #[test]
    fn php_error_suppression_keeps_the_value() {
        assert_eq!(
            eval("@base64_decode('cm0gLXJmIC8=')", Dialect::Php).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            eval("@'rm ' . @'-rf /'", Dialect::Php).as_deref(),
            Some("rm -rf /")
        );
        // Elsewhere `@` is no such operator: a Perl array has no string value.
        assert_eq!(eval("@ARGV", Dialect::Perl), None);
    }
}
