//! Lines of plain words, read without the general parser: the shape of most command lines agents send.

use super::keywords::{KEYWORDS_OPENING, KEYWORDS_SKIPPED};
use super::{lit, Node, Pipeline, Script, Simple};

/// The bytes a [`plain`] line may hold: letters, digits, `_./:,@+%^=-` and
/// blanks. None of them quotes, expands, globs, groups, comments, escapes
/// or separates commands, so every word is literal text.
static PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b' ' | b'\t'
                    | b'_'
                    | b'.'
                    | b'/'
                    | b':'
                    | b','
                    | b'@'
                    | b'+'
                    | b'%'
                    | b'^'
                    | b'='
                    | b'-'
            );
        b += 1;
    }
    table
};

/// The tree of a line of plain words (`git status -s`, `tar -xzf a.tgz -C
/// out`): one simple command whose words are literal text, or `None` for
/// any other line. Most command lines agents send are plain (58% of the
/// tldr pages' examples), and reading them this way skips the general
/// parser's work per character; `parse` checks in debug builds, and so in
/// every test, that the general parser reads the same tree.
pub(super) fn plain(text: &str) -> Option<Script> {
    if !text.bytes().all(|b| PLAIN[usize::from(b)]) {
        return None;
    }
    // The only blanks the table lets through are spaces and tabs.
    let mut words = text.split_ascii_whitespace().peekable();
    // A keyword in command position is the general parser's business.
    let first = *words.peek()?;
    if KEYWORDS_SKIPPED.contains(&first) || KEYWORDS_OPENING.contains(&first) {
        return None;
    }
    let simple = Simple {
        words: words.map(lit).collect(),
        redirs: Vec::new(),
    };
    Some(Script {
        pipelines: vec![Pipeline {
            stages: vec![Node::Simple(simple)],
            ..Pipeline::default()
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Parser, Stop};
    use super::*;

    /// Words from the plain alphabet, keywords among them, joined by
    /// `BLANKS` into a deterministic stream of lines, so a failure repeats.
    const WORDS: &[&str] = &[
        "git",
        "status",
        "-s",
        "--force",
        "a=b",
        "X=1",
        "if",
        "then",
        "fi",
        "done",
        "for",
        "in",
        "case",
        "esac",
        "function",
        "select",
        "time",
        "do",
        "while",
        "!",
        "2",
        "1",
        "%1",
        "^a^b",
        "@x",
        "+x",
        "a,b",
        "host:/p",
        "./run.sh",
        "..",
        "-",
        "--",
        "=",
        "==",
        "http://x.y/z",
        "user@host",
        "cd",
        "exec",
        "sudo",
        "rm",
        "-rf",
        "/",
    ];
    const BLANKS: &[&str] = &[" ", "  ", "\t", " \t "];

    #[test]
    fn plain_lines_read_as_the_general_parser_reads_them() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut plain_seen = 0;
        for _ in 0..20_000 {
            let mut line = String::new();
            if next(4) == 0 {
                line.push_str(BLANKS[next(BLANKS.len())]);
            }
            for i in 0..1 + next(6) {
                if i > 0 {
                    line.push_str(BLANKS[next(BLANKS.len())]);
                }
                line.push_str(WORDS[next(WORDS.len())]);
            }
            if next(4) == 0 {
                line.push_str(BLANKS[next(BLANKS.len())]);
            }
            let general = Parser::new(&line, 0).script(Stop::Eof);
            if let Some(fast) = plain(&line) {
                plain_seen += 1;
                assert_eq!(fast, general, "{line:?}");
            }
            assert_eq!(parse(&line).script, general, "{line:?}");
        }
        // The shortcut is taken for most such lines, not quietly never.
        assert!(plain_seen > 10_000, "{plain_seen}");
        for line in [
            "",
            "   ",
            "if true",
            "for x in a b",
            "echo 'a'",
            "a # b",
            "a;b",
            "a\nb",
        ] {
            assert!(plain(line).is_none(), "{line:?}");
        }
    }
}
