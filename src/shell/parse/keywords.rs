//! Shell keywords, and the short word at the cursor that is compared with them.

use super::{is_meta, Parser};

/// A word of up to [`ShortWord::MAX`] ASCII characters (`len` is `None`
/// for a longer or non-ASCII one, or an empty one: no keyword).
#[derive(Default)]
pub(super) struct ShortWord {
    bytes: [u8; ShortWord::MAX],
    len: Option<usize>,
}

impl ShortWord {
    /// The longest keyword, `function`.
    const MAX: usize = 8;

    pub(super) fn is(&self, keyword: &str) -> bool {
        self.len
            .is_some_and(|len| self.bytes[..len] == *keyword.as_bytes())
    }
}

/// Keywords that join the parts of a compound command (or stray ones):
/// passed over, the commands after them read as commands.
pub(super) const KEYWORDS_SKIPPED: &[&str] =
    &["then", "elif", "else", "fi", "do", "done", "!", "esac"];

/// Keywords that open a compound command, read with its body and the
/// redirections after its end as one node.
pub(super) const KEYWORDS_OPENING: &[&str] =
    &["while", "until", "if", "for", "select", "case", "function"];

impl Parser<'_> {
    /// The word at the cursor, up to the first metacharacter or `}`, when
    /// it is short and ASCII (as every keyword is): one pass, however many
    /// keywords it is compared with.
    pub(super) fn short_word(&self) -> ShortWord {
        let mut word = ShortWord::default();
        for at in 0..=ShortWord::MAX {
            match self.peek_at(at) {
                Some(c) if !(is_meta(c) || c == '}') => {
                    if at == ShortWord::MAX || !c.is_ascii() {
                        word.len = None;
                        break;
                    }
                    word.bytes[at] = c as u8;
                    word.len = Some(at + 1);
                }
                _ => break,
            }
        }
        #[cfg(debug_assertions)]
        for k in KEYWORDS_SKIPPED.iter().chain(KEYWORDS_OPENING) {
            debug_assert_eq!(word.is(k), self.word_is(k), "{k} at {}", self.pos);
        }
        word
    }
}
