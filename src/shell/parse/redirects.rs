//! Redirections: `>`, `>>`, `<`, fd duplications, here-strings and heredocs with their bodies.

use super::{literal_text, word_source_text, Parser, Part, Redir, RedirKind, Word};

impl Parser<'_> {
    /// Redirections after a compound command (`{ ...; } > out`).
    pub(super) fn trailing_redirs(&mut self) -> Vec<Redir> {
        let mut redirs = Vec::new();
        loop {
            self.skip_blanks();
            match self.redirect(false) {
                Some(r) => redirs.push(r),
                None => break,
            }
        }
        redirs
    }

    /// Parses a redirection at the current position, if there is one.
    pub(super) fn redirect(&mut self, in_test: bool) -> Option<Redir> {
        let save = self.pos;
        let mut fd = None;
        let mut digits = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            digits.push(c);
            self.pos += 1;
        }
        if !digits.is_empty() {
            fd = digits.parse().ok();
        }
        let c = self.peek();
        if !matches!(c, Some('<') | Some('>') | Some('&')) || in_test {
            self.pos = save;
            return None;
        }
        // `<(` and `>(` are process substitutions, words not redirections.
        if matches!(c, Some('<') | Some('>')) && self.peek_at(1) == Some('(') && digits.is_empty() {
            self.pos = save;
            return None;
        }
        let kind = if self.starts_with("&>>") {
            self.pos += 3;
            RedirKind::Append
        } else if self.starts_with("&>") {
            self.pos += 2;
            RedirKind::Write
        } else if c == Some('&') {
            self.pos = save;
            return None;
        } else if self.starts_with("<<<") {
            self.pos += 3;
            RedirKind::HereString
        } else if self.starts_with("<<") {
            self.pos += 2;
            let strip_tabs = self.peek() == Some('-');
            if strip_tabs {
                self.pos += 1;
            }
            return Some(self.heredoc(fd, strip_tabs));
        } else if self.starts_with(">>") {
            self.pos += 2;
            RedirKind::Append
        } else if self.starts_with(">&") || self.starts_with("<&") {
            self.pos += 2;
            self.skip_blanks();
            let target = self.word().unwrap_or_default();
            // `>&file` (not a number or `-`) writes a file, like `&>`.
            let text = literal_text(&target);
            let dup = text == "-" || text.chars().all(|c| c.is_ascii_digit());
            let kind = if dup {
                RedirKind::Dup
            } else {
                RedirKind::Write
            };
            return Some(Redir { fd, kind, target });
        } else if self.starts_with(">|") {
            self.pos += 2;
            RedirKind::Write
        } else if self.starts_with("<>") {
            self.pos += 2;
            RedirKind::Read
        } else if c == Some('>') {
            self.pos += 1;
            RedirKind::Write
        } else {
            self.pos += 1;
            RedirKind::Read
        };
        self.skip_blanks();
        let target = self.word().unwrap_or_default();
        Some(Redir { fd, kind, target })
    }

    /// Reads the delimiter, then the body from the line after the current
    /// one (after bodies already read for this line).
    fn heredoc(&mut self, fd: Option<u32>, strip_tabs: bool) -> Redir {
        self.skip_blanks();
        let delim_word = self.word().unwrap_or_default();
        let quoted = delim_word.parts.iter().any(|p| !matches!(p, Part::Lit(_)));
        let delim = word_source_text(&delim_word);
        // Several heredocs on one line share its end: find it once.
        let line_end = match self.line_end {
            Some(end) if end >= self.pos => Some(end),
            _ => self.find_from(self.pos, |c| c == '\n'),
        };
        self.line_end = line_end;
        let Some(line_end) = line_end else {
            // The operator is on the last line: its body never comes.
            self.open = true;
            return Redir {
                fd,
                kind: RedirKind::HereDoc,
                target: Word::default(),
            };
        };
        let mut at = self
            .resume_after_newline
            .unwrap_or(line_end + 1)
            .max(line_end + 1);
        let mut body = String::new();
        let mut ended = false;
        while at < self.len() {
            let end = self.find_from(at, |c| c == '\n').unwrap_or(self.len());
            let mut line = String::new();
            self.push_span(&mut line, at, end);
            let line = if strip_tabs {
                line.trim_start_matches('\t').to_string()
            } else {
                line
            };
            at = (end + 1).min(self.len());
            if line == delim {
                ended = true;
                break;
            }
            body.push_str(&line);
            body.push('\n');
        }
        self.open |= !ended;
        self.resume_after_newline = Some(at);
        let target = if quoted {
            Word {
                parts: vec![Part::Quoted(body)],
            }
        } else {
            // An unquoted delimiter lets `$( )`, backticks and `$VAR` run
            // inside the body, as in double quotes.
            let mut sub = Parser::new(&body, self.depth);
            let parts = sub.double_quoted_parts(false);
            self.limit = self.limit.take().or(sub.limit);
            self.open |= sub.open;
            Word {
                parts: vec![Part::Double(parts)],
            }
        };
        Redir {
            fd,
            kind: RedirKind::HereDoc,
            target,
        }
    }
}
