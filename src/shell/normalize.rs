//! Text normalization before parsing: terminal escapes, NUL, invisible characters, Unicode compatibility forms.

use unicode_normalization::UnicodeNormalization;

/// Returns the cleaned text and the invisible or bidirectional-control
/// characters that were removed from it (a reviewer cannot see them, so their
/// presence is itself a finding).
pub fn normalize(raw: &str) -> (String, Vec<u32>) {
    // Nearly every command is plain ASCII without escapes: nothing to do.
    if raw.bytes().all(|b| b.is_ascii() && b != 0x1b && b != 0) {
        return (raw.to_string(), Vec::new());
    }
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
        out = out.nfkc().collect();
    }
    (out, hidden)
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
    fn folds_full_width() {
        assert_eq!(normalize("ｒｍ -rf /").0, "rm -rf /");
    }
}
