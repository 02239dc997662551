//! What text-producing and decoding commands output when their input is known: echo, printf, base64, xxd, rev, tr.

/// The output of `echo ARGS`, handling `-n`, `-e` and `-E`.
pub fn echo(args: &[String]) -> String {
    let mut newline = true;
    let mut escapes = false;
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        let is_flag = first.len() > 1
            && first.starts_with('-')
            && first[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'));
        if !is_flag {
            break;
        }
        for c in first[1..].chars() {
            match c {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        rest = tail;
    }
    let mut out = rest.join(" ");
    if escapes {
        out = backslash_escapes(&out);
    }
    if newline {
        out.push('\n');
    }
    out
}

/// The output of `printf FORMAT ARGS`: `%s`, `%b`, `%d`, `%c`, `%%` and
/// backslash escapes; the format is reused while arguments remain, as printf does.
pub fn printf(args: &[String]) -> Option<String> {
    let (format, mut rest) = match args.split_first()? {
        (f, tail) if f == "--" => tail.split_first()?,
        other => other,
    };
    let mut out = String::new();
    // Bounded: each round consumes at least one argument.
    for _ in 0..=args.len() {
        let mut consumed = false;
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            // Skip flags, width and precision.
            while chars.peek().is_some_and(|c| "-+ #0123456789.".contains(*c)) {
                chars.next();
            }
            match chars.next() {
                Some('%') => out.push('%'),
                Some(conv) => {
                    let arg = rest.first().map(String::as_str).unwrap_or("");
                    if !rest.is_empty() {
                        rest = &rest[1..];
                        consumed = true;
                    }
                    match conv {
                        'b' => out.push_str(&backslash_escapes(arg)),
                        'c' => out.extend(arg.chars().next()),
                        _ => out.push_str(arg),
                    }
                }
                None => out.push('%'),
            }
        }
        if !consumed || rest.is_empty() {
            break;
        }
    }
    Some(backslash_escapes(&out))
}

/// The character a one-letter backslash escape stands for (`\n`, `\e`, ...),
/// shared by `$'...'`, `echo -e` and `printf`.
pub fn simple_escape(e: char) -> Option<char> {
    Some(match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'e' | 'E' => '\u{1b}',
        'f' => '\u{c}',
        'v' => '\u{b}',
        '\\' => '\\',
        _ => return None,
    })
}

/// Interprets `\n`, `\t`, `\\`, `\xHH`, `\0NNN`/`\NNN` as echo -e and printf do.
pub fn backslash_escapes(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        if let Some(c) = simple_escape(e) {
            out.push(c);
            continue;
        }
        match e {
            'x' => {
                let (value, used) = digits(&chars[i..], 16, 2);
                if used == 0 {
                    out.push_str("\\x");
                } else {
                    out.extend(char::from_u32(value));
                }
                i += used;
            }
            '0'..='7' => {
                let start = if e == '0' { i } else { i - 1 };
                let (value, used) = digits(&chars[start..], 8, 3);
                out.extend(char::from_u32(value));
                i = start + used;
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

fn digits(chars: &[char], radix: u32, max: usize) -> (u32, usize) {
    let mut value = 0;
    let mut used = 0;
    for c in chars.iter().take(max) {
        match c.to_digit(radix) {
            Some(d) => {
                value = value * radix + d;
                used += 1;
            }
            None => break,
        }
    }
    (value, used)
}

/// Standard or URL-safe base64, whitespace ignored; `None` unless the
/// result is text.
pub fn base64(input: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut out = Vec::new();
    for c in input.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            '=' => break,
            c if c.is_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 6) | v;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Plain hex (`xxd -r -p`), whitespace ignored.
pub fn hex(input: &str) -> Option<String> {
    let digits: Vec<u32> = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(16))
        .collect::<Option<_>>()?;
    let bytes: Vec<u8> = digits
        .chunks(2)
        .map(|pair| (pair[0] * 16 + pair.get(1).copied().unwrap_or(0)) as u8)
        .collect();
    String::from_utf8(bytes).ok()
}

/// `rev`: each line reversed.
pub fn rev(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for line in input.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.extend(body.chars().rev());
        out.push_str(nl);
    }
    out
}

/// `tr SET1 SET2` and `tr -d SET1`, with ranges (`a-z`) and the common
/// classes; `None` for forms warden does not model.
pub fn tr(args: &[String], input: &str) -> Option<String> {
    let mut delete = false;
    let mut sets = Vec::new();
    for arg in args {
        match arg.as_str() {
            "-d" | "--delete" => delete = true,
            a if a.starts_with('-') && a.len() > 1 => return None,
            a => sets.push(expand_set(a)?),
        }
    }
    match (delete, sets.as_slice()) {
        (true, [set]) => Some(input.chars().filter(|c| !set.contains(c)).collect()),
        (false, [from, to]) if !to.is_empty() => Some(
            input
                .chars()
                .map(|c| match from.iter().position(|f| *f == c) {
                    Some(i) => to[i.min(to.len() - 1)],
                    None => c,
                })
                .collect(),
        ),
        _ => None,
    }
}

fn expand_set(set: &str) -> Option<Vec<char>> {
    let set = set
        .replace("[:lower:]", "a-z")
        .replace("[:upper:]", "A-Z")
        .replace("[:digit:]", "0-9");
    let chars: Vec<char> = backslash_escapes(&set).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' && chars[i] <= chars[i + 2] {
            let (a, b) = (chars[i] as u32, chars[i + 2] as u32);
            if b - a > 1024 {
                return None;
            }
            out.extend((a..=b).filter_map(char::from_u32));
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn decoders() {
        assert_eq!(base64("cm0gLXJmIC8=").as_deref(), Some("rm -rf /"));
        assert_eq!(hex("726d202d7266202f").as_deref(), Some("rm -rf /"));
        assert_eq!(rev("/ fr- mr\n"), "rm -rf /\n");
        assert_eq!(
            tr(&s(&["eqv", "rmf"]), "eq -pe v/").as_deref(),
            Some("rm -pr f/")
        );
        assert_eq!(
            printf(&s(&[r"\x72\x6d -rf /"])).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            printf(&s(&["%s %s\n", "a", "b", "c"])).as_deref(),
            Some("a b\nc \n")
        );
        assert_eq!(echo(&s(&["-e", r"\x72m"])), "rm\n");
    }
}
