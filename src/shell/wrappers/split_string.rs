//! `env -S STRING`: the words env splits its string into, which take the string's place among env's arguments (options, assignments and the command alike).
//!
//! The rules are GNU env's (coreutils `env -S`), which FreeBSD's and
//! macOS's follow: words end at unquoted white space; `'…'` keeps
//! everything but `\\` and `\'`; `"…"` keeps everything but the escapes;
//! `\_` ends a word outside double quotes and is a space inside them; `\c`
//! and a `#` starting a word end the string; `\f \n \r \t \v` are those
//! characters; `${NAME}` is the value of an environment variable, unknown
//! here. Where env would refuse the string (an unknown escape, a quote left
//! open) it runs nothing; the words are read leniently instead, as a build
//! with other rules might.

use crate::shell::expand::Field;

/// The words of `text` as env splits them.
pub(super) fn split(text: &str) -> Vec<Field> {
    let mut out = Splitter::default();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' if !out.double => {
                out.single = !out.single;
                out.start();
            }
            '"' if !out.single => {
                out.double = !out.double;
                out.start();
            }
            ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' if !out.single && !out.double => out.end(),
            '#' if out.word.is_none() && !out.single && !out.double => break,
            '\\' if !out.single || matches!(chars.peek(), Some('\\' | '\'')) => {
                let Some(e) = chars.next() else { break };
                match e {
                    '_' if out.double => out.push(' '),
                    '_' => out.end(),
                    'c' => break,
                    'f' => out.push('\x0c'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'v' => out.push('\x0b'),
                    other => out.push(other),
                }
            }
            '$' if !out.single && chars.peek() == Some(&'{') => {
                // `${NAME}`: a variable of env's own environment.
                let mut name = String::from("${");
                chars.next();
                for n in chars.by_ref() {
                    name.push(n);
                    if n == '}' {
                        break;
                    }
                }
                out.push_str(&name);
                out.dynamic = true;
            }
            other => out.push(other),
        }
    }
    out.end();
    out.words
}

#[derive(Default)]
struct Splitter {
    words: Vec<Field>,
    /// The word being read; `None` between words.
    word: Option<String>,
    dynamic: bool,
    single: bool,
    double: bool,
}

impl Splitter {
    /// A quote starts a word, even an empty one (`''`).
    fn start(&mut self) {
        self.word.get_or_insert_with(String::new);
    }

    fn push(&mut self, c: char) {
        self.word.get_or_insert_with(String::new).push(c);
    }

    fn push_str(&mut self, s: &str) {
        self.word.get_or_insert_with(String::new).push_str(s);
    }

    fn end(&mut self) {
        if let Some(text) = self.word.take() {
            self.words.push(Field {
                text,
                dynamic: std::mem::take(&mut self.dynamic),
                quoted: true,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    fn words(text: &str) -> Vec<String> {
        split(text).into_iter().map(|f| f.text).collect()
    }

    #[test]
    fn splits_like_env() {
        assert_eq!(words("git reset --hard"), ["git", "reset", "--hard"]);
        assert_eq!(words("  perl\t-w  -T "), ["perl", "-w", "-T"]);
        assert_eq!(words("sh -c 'rm -rf /'"), ["sh", "-c", "rm -rf /"]);
        assert_eq!(words(r#"a "b c" d"#), ["a", "b c", "d"]);
        assert_eq!(words(r"a\_b"), ["a", "b"]);
        assert_eq!(words(r#""a\_b""#), ["a b"]);
        assert_eq!(words(r"rm -rf / \c ignored"), ["rm", "-rf", "/"]);
        assert_eq!(words("ls # a comment"), ["ls"]);
        assert_eq!(words("a#b"), ["a#b"]);
        assert_eq!(words("x '' y"), ["x", "", "y"]);
        assert_eq!(words(r"'a\'b' 'c\d'"), ["a'b", r"c\d"]);
    }

    #[test]
    fn variables_are_unknown() {
        let got = split("${CMD} -rf /");
        assert_eq!(got[0].text, "${CMD}");
        assert!(got[0].dynamic);
        assert!(!got[1].dynamic);
    }

    #[test]
    fn broken_strings_do_not_panic() {
        for text in [
            "'open", "\"open", "\\", "${", "${x", "a\\", "\\c", "#", "'\\",
        ] {
            let _ = split(text);
        }
    }
}
