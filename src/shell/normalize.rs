//! Text normalization before parsing: terminal escapes, NUL, invisible characters, Unicode compatibility forms, and dashes and quotes that look like ASCII.

use unicode_normalization::UnicodeNormalization;

/// Returns the cleaned text and the invisible or bidirectional-control
/// characters that were removed from it (a reviewer cannot see them, so their
/// presence is itself a finding).
pub fn normalize(raw: &str) -> (String, Vec<u32>) {
    // Nearly every command is plain ASCII without escapes: nothing to do.
    // (Two scans many bytes at a time cost less than one byte-at-a-time test.)
    let bytes = raw.as_bytes();
    if raw.is_ascii() && memchr::memchr2(0x1b, 0, bytes).is_none() {
        return (raw.to_string(), Vec::new());
    }
    clean(raw)
}

/// The line as a shell reads it, when [`normalize`] changed more than its
/// NULs (which no command can hold): to a shell, terminal escapes, invisible
/// characters and compatibility forms are ordinary characters, and what a
/// terminal swallows with an escape may be a `;` or a `|` (`echo ESC; rm
/// -rf /` runs `rm`). A second reading, judged beside the normalized one;
/// `None` when the two are the same.
pub fn shell_reading(raw: &str, normalized: &str) -> Option<String> {
    if !raw.contains('\0') {
        return (raw != normalized).then(|| raw.to_string());
    }
    let shell: String = raw.chars().filter(|&c| c != '\0').collect();
    (shell != normalized).then_some(shell)
}

/// [`normalize`]'s work past the fast path.
fn clean(raw: &str) -> (String, Vec<u32>) {
    let mut hidden = Vec::new();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => skip_escape(&mut chars),
            // 8-bit CSI and OSC introducers.
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' => skip_osc(&mut chars),
            '\0' => {}
            c if is_hidden(c) => hidden.push(c as u32),
            c => out.push(c),
        }
    }
    hidden.sort_unstable();
    hidden.dedup();
    // NFKC folds full-width and other compatibility letters (`ｒｍ` -> `rm`);
    // plain ASCII, nearly every command, is already in NFKC.
    if !out.is_ascii() {
        out = out.nfkc().map(ascii_dash).collect();
    }
    (out, hidden)
}

/// A dash that looks like `-` is read as one: `rm –rf /` is what the person
/// who pasted it meant, and a dash is no shell metacharacter, so the
/// reading changes no word boundary.
fn ascii_dash(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}'
        | '\u{2212}'
        | '\u{2043}'
        | '\u{fe58}'
        | '\u{fe63}'
        | '\u{ff0d}' => '-',
        c => c,
    }
}

/// The text with typographic quotes (`‘’‚‛“”„‟`) made ASCII, when it has
/// any. A shell does not quote with them, so this is a second reading of
/// the line, judged beside the first: `rm -rf “/”` is what its writer
/// meant, while `echo 'it’s' ; rm -rf /` must keep its first reading, where
/// the `’` quotes nothing.
pub fn ascii_quotes(text: &str) -> Option<String> {
    let smart = |c: char| matches!(c, '\u{2018}'..='\u{201f}');
    if text.is_ascii() || !text.contains(smart) {
        return None;
    }
    Some(
        text.chars()
            .map(|c| match c {
                '\u{2018}'..='\u{201b}' => '\'',
                '\u{201c}'..='\u{201f}' => '"',
                c => c,
            })
            .collect(),
    )
}

/// Zero-width, soft-hyphen, word-joiner and bidirectional-control
/// characters: they change what a person sees, not what a shell runs.
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{00ad}' | '\u{034f}' | '\u{061c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{3164}' | '\u{feff}' | '\u{ffa0}')
}

fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars>) {
    match chars.peek() {
        Some('[') => {
            chars.next();
            skip_csi(chars);
        }
        Some(']') => {
            chars.next();
            skip_osc(chars);
        }
        // Two-character escapes (ESC c, ESC 7, ...).
        Some(_) => {
            chars.next();
        }
        None => {}
    }
}

fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
    }
}

fn skip_osc(chars: &mut std::iter::Peekable<std::str::Chars>) {
    while let Some(c) = chars.next() {
        if c == '\u{7}' || c == '\u{9c}' {
            break;
        }
        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
            chars.next();
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_escapes_and_hidden_characters() {
        let (text, hidden) = normalize("\u{1b}[31mr\u{200b}m\u{1b}[0m -rf\0 /\u{1b}]0;title\u{7}");
        assert_eq!(text, "rm -rf /");
        assert_eq!(hidden, vec![0x200b]);
    }

    #[test]
    fn a_line_normalization_changes_is_also_read_as_the_shell_reads_it() {
        let reading = |raw: &str| shell_reading(raw, &normalize(raw).0);
        // A terminal swallows the `;` after ESC; a shell runs `rm`.
        let line = "echo \u{1b}; rm -rf /";
        assert_eq!(normalize(line).0, "echo  rm -rf /");
        assert_eq!(reading(line).as_deref(), Some(line));
        assert_eq!(
            reading("x\u{9b};rm\u{200b} -\0rf /").as_deref(),
            Some("x\u{9b};rm\u{200b} -rf /")
        );
        assert_eq!(
            reading("\u{ff52}m -rf /").as_deref(),
            Some("\u{ff52}m -rf /")
        );
        // Nothing changed: no second reading.
        assert_eq!(reading("rm -rf /"), None);
        assert_eq!(reading("echo caf\u{e9}"), None);
        assert_eq!(reading("rm -rf\0 /"), None);
    }

    #[test]
    fn dashes_that_look_like_ascii_are_ascii() {
        for dash in [
            '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
            '\u{fe63}', '\u{ff0d}',
        ] {
            let (text, hidden) = normalize(&format!("rm {dash}rf /"));
            assert_eq!(text, "rm -rf /", "U+{:04X}", dash as u32);
            assert!(hidden.is_empty());
        }
    }

    #[test]
    fn typographic_quotes_give_a_second_reading() {
        assert_eq!(
            ascii_quotes("rm -rf \u{201c}/\u{201d}").as_deref(),
            Some("rm -rf \"/\"")
        );
        assert_eq!(
            ascii_quotes("echo \u{2018}x\u{2019}").as_deref(),
            Some("echo 'x'")
        );
        assert_eq!(ascii_quotes("rm -rf /"), None);
        assert_eq!(ascii_quotes("echo caf\u{e9}"), None);
    }

    #[test]
    fn folds_full_width() {
        assert_eq!(normalize("ｒｍ -rf /").0, "rm -rf /");
    }
}
