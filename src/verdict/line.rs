//! The JSON text of a verdict line, written straight into a string.
//!
//! A verdict line is a handful of fixed keys and one long message. Through
//! serde_json, escaping the message (which looks at each byte in turn) was
//! most of what writing a block or an ask cost; here a message is scanned
//! eight bytes at a time and copied in runs. The text is the same byte for
//! byte as serde_json's (the tests compare the two).

/// An object being written: `{"key":value,...}` in the order the fields
/// are added.
pub(super) struct Line {
    out: String,
    empty: bool,
}

impl Line {
    /// An object with room for `message_len` bytes of message and its keys.
    pub(super) fn new(message_len: usize) -> Line {
        let mut out = String::with_capacity(message_len + message_len / 8 + 128);
        out.push('{');
        Line { out, empty: true }
    }

    /// Adds `"key":"value"`.
    pub(super) fn str(mut self, key: &str, value: &str) -> Line {
        self.key(key);
        push_str(&mut self.out, value);
        self
    }

    /// Adds `"key":"value"`, or `"key":null` for none.
    pub(super) fn str_or_null(self, key: &str, value: Option<&str>) -> Line {
        match value {
            Some(value) => self.str(key, value),
            None => {
                let mut line = self;
                line.key(key);
                line.out.push_str("null");
                line
            }
        }
    }

    /// Adds `"key":{...}`, the object `inner` writes.
    pub(super) fn object(mut self, key: &str, inner: impl FnOnce(Line) -> Line) -> Line {
        self.key(key);
        // The nested object is written into the same string.
        let mut out = std::mem::take(&mut self.out);
        out.push('{');
        self.out = inner(Line { out, empty: true }).finish();
        self
    }

    /// The finished object.
    pub(super) fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }

    fn key(&mut self, key: &str) {
        // Keys are this module's callers' constants: nothing in them to escape.
        debug_assert!(!key.contains(['"', '\\']) && !key.contains(char::is_control));
        if !std::mem::take(&mut self.empty) {
            self.out.push(',');
        }
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\":");
    }
}

/// Appends `text` as a JSON string, escaped as serde_json escapes it: `"`
/// and `\` with a backslash, the five control characters that have one as
/// `\b \t \n \f \r`, the other control characters below 0x20 as `\u00xx`,
/// and everything else (DEL and all non-ASCII text included) as it is.
fn push_str(out: &mut String, text: &str) {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // Whether any byte of `word` is below 0x20, `"` or `\\`: for each, the
    // classic test for a zero (or small) byte, exact as a yes or no (only
    // which byte it points at can be wrong), the three tested at once.
    let special = |word: u64| {
        let control = word.wrapping_sub(ONES * 0x20) & !word;
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        (control
            | (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash))
            & HIGHS
            != 0
    };
    let bytes = text.as_bytes();
    let word_at = |at: usize| -> Option<u64> {
        let eight: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_ne_bytes(eight))
    };
    out.push('"');
    let mut clean = 0;
    let mut at = 0;
    while at < bytes.len() {
        // Sixteen clean bytes at a time, then eight, then one by one.
        if let (Some(first), Some(second)) = (word_at(at), word_at(at + 8)) {
            if !special(first) && !special(second) {
                at += 16;
                continue;
            }
        }
        if let Some(word) = word_at(at) {
            if !special(word) {
                at += 8;
                continue;
            }
        }
        let byte = bytes[at];
        let short = match byte {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            0x08 => Some("\\b"),
            0x09 => Some("\\t"),
            0x0a => Some("\\n"),
            0x0c => Some("\\f"),
            0x0d => Some("\\r"),
            _ => None,
        };
        if short.is_some() || byte < 0x20 {
            // Every byte escaped is ASCII, so both ends of the run are
            // character boundaries.
            out.push_str(&text[clean..at]);
            match short {
                Some(escape) => out.push_str(escape),
                None => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.push_str("\\u00");
                    out.push(char::from(HEX[usize::from(byte >> 4)]));
                    out.push(char::from(HEX[usize::from(byte & 0xf)]));
                }
            }
            clean = at + 1;
        }
        at += 1;
    }
    out.push_str(&text[clean..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = String::new();
        push_str(&mut out, text);
        out
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut texts: Vec<String> = (0u8..=0x7f).map(|b| char::from(b).to_string()).collect();
        texts.extend(
            [
                "",
                "plain text of some length, longer than eight",
                "Blocked: `rm -rf /` is \"gone\" \\ back\tslash\n",
                "é中\u{7f}\u{80}\u{a0}\u{2028}\u{1f600}\"",
                "12345678\"12345678\\1234567\u{1}",
            ]
            .map(String::from),
        );
        // Each special byte at each position of an eight-byte word, between
        // runs of clean and of non-ASCII text.
        for special in ['"', '\\', '\n', '\u{0}', '\u{1f}', '\u{7f}', 'é'] {
            for at in 0..33 {
                let mut text: String = "a".repeat(at);
                text.push(special);
                text.push_str("bcdéfghijklmnop");
                texts.push(text);
            }
        }
        for text in &texts {
            let expected = serde_json::to_string(text).expect("a string serializes");
            assert_eq!(escaped(text), expected, "{text:?}");
        }
    }

    #[test]
    fn objects_nest_and_separate_their_fields() {
        let line = Line::new(4)
            .str("a", "x\"y")
            .object("b", |inner| inner.str("c", "1").str_or_null("d", None))
            .str_or_null("e", Some("2"))
            .finish();
        assert_eq!(line, r#"{"a":"x\"y","b":{"c":"1","d":null},"e":"2"}"#);
        assert_eq!(Line::new(0).finish(), "{}");
    }
}
