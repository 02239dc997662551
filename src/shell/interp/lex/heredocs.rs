//! Heredocs in the languages that have them (Ruby's `<<~EOS`, Perl's `<<"EOF"`, PHP's `<<<EOT`): the opener queued, the body read at the next line with its interpolations.

use super::{find, is_word_byte, trim_end, trim_start, Dialect, Interp, Lexer};

/// A heredoc whose opener was read and whose body starts at the next line.
pub(super) struct Heredoc {
    pub(super) id: Vec<u8>,
    pub(super) indented: bool,
    pub(super) interp: Interp,
    pub(super) command: bool,
}

impl Lexer<'_> {
    /// A heredoc opener at `self.i` (`<<~EOS`, `<<'EOF'`, PHP `<<<EOT`):
    /// queues its body for the next line and returns true.
    pub(super) fn heredoc_opener(&mut self) -> bool {
        let mut j = self.i + 2;
        let mut indented = self.d == Dialect::Php;
        if self.d == Dialect::Php {
            if self.at(j) != b'<' {
                return false;
            }
            j += 1;
            while self.at(j) == b' ' {
                j += 1;
            }
        } else if matches!(self.at(j), b'~' | b'-')
            && !(self.d == Dialect::Perl && self.at(j) == b'-')
        {
            indented = true;
            j += 1;
        }
        let quote = self.at(j);
        let quoted = matches!(quote, b'\'' | b'"') || (self.d == Dialect::Ruby && quote == b'`');
        let id_start = if quoted { j + 1 } else { j };
        let mut k = id_start;
        while k < self.s.len() && (self.s[k].is_ascii_alphanumeric() || self.s[k] == b'_') {
            k += 1;
        }
        let id = &self.s[id_start..k];
        let first = id.first().copied().unwrap_or(0);
        if id.is_empty() || first.is_ascii_digit() {
            return false;
        }
        // A bare lowercase word after `<<` is more likely a shift or an append.
        if !(quoted || first.is_ascii_uppercase() || first == b'_') {
            return false;
        }
        if quoted && self.at(k) != quote {
            return false;
        }
        let end = if quoted { k + 1 } else { k };
        let interp = match (self.d, quote) {
            (_, b'\'') => Interp::None,
            (Dialect::Ruby, _) => Interp::Hash,
            (Dialect::Perl, _) => Interp::Perl,
            _ => Interp::Php,
        };
        self.heredocs.push(Heredoc {
            id: id.to_vec(),
            indented,
            interp,
            command: self.d == Dialect::Ruby && quote == b'`',
        });
        self.i = end;
        true
    }

    /// Reads the bodies of pending heredocs from `self.i` (a line start).
    pub(super) fn heredoc_bodies(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        for doc in pending {
            let (text_len, commands_len) = (self.out.text.len(), self.out.commands.len());
            let body = self.i;
            let mut line = body;
            let end = loop {
                if line >= self.s.len() {
                    self.stop(text_len, commands_len);
                    return;
                }
                let eol = find(self.s, line, b"\n").unwrap_or(self.s.len());
                let content = &self.s[line..eol];
                let content = if doc.indented {
                    trim_start(content)
                } else {
                    content
                };
                let terminated = content.strip_prefix(doc.id.as_slice()).is_some_and(|rest| {
                    let rest = trim_end(rest);
                    rest.is_empty() || (self.d == Dialect::Php && !is_word_byte(rest[0]))
                });
                if terminated {
                    break (line, eol);
                }
                line = eol + 1;
            };
            let mut start = body;
            let mut j = body;
            while j < end.0 {
                if self.s[j] == b'\\' && doc.interp != Interp::None {
                    j += 2;
                    continue;
                }
                if let Some(code) = self.interpolation(j, doc.interp) {
                    self.out.text.push((start, j));
                    if !self.interpolate(code) || self.i >= end.0 {
                        self.stop(text_len, commands_len);
                        return;
                    }
                    j = self.i + 1;
                    start = j;
                    continue;
                }
                j += 1;
            }
            self.out.text.push((start, end.0.max(start)));
            if doc.command {
                self.out.commands.push((body, end.0));
            }
            // The terminator line is consumed up to its newline, which the
            // code loop then reads (it may open the next heredoc's body).
            self.i = end.1;
        }
    }
}
