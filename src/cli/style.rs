//! Colour for people at a terminal: ANSI styles when stdout is a TTY and `NO_COLOR` is unset, plain text otherwise.

/// Whether to colour what a command prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Style {
    pub(crate) on: bool,
}

impl Style {
    fn paint(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub(crate) fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// `text` in the colour of `decision`: block red, ask yellow, allow green.
    pub(crate) fn decision(self, decision: &str, text: &str) -> String {
        match decision {
            "block" => self.paint("1;31", text),
            "ask" => self.paint("33", text),
            "allow" => self.paint("32", text),
            _ => text.to_string(),
        }
    }

    pub(crate) fn fail(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    pub(crate) fn warn(self, text: &str) -> String {
        self.paint("33", text)
    }

    pub(crate) fn ok(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Help text with its section headings (`USAGE:`, `OPTIONS:` …) in bold.
    pub(crate) fn help(self, text: &str) -> String {
        if !self.on {
            return text.to_string();
        }
        text.lines()
            .map(|line| {
                let heading = line.ends_with(':')
                    && !line.starts_with(' ')
                    && line
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b == b' ' || b == b':');
                if heading {
                    self.bold(line)
                } else {
                    line.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + if text.ends_with('\n') { "\n" } else { "" }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_unless_on() {
        let off = Style::default();
        assert_eq!(off.decision("block", "block"), "block");
        assert_eq!(off.help("USAGE:\n  x\n"), "USAGE:\n  x\n");
        let on = Style { on: true };
        assert_eq!(on.decision("ask", "ask"), "\x1b[33mask\x1b[0m");
        assert_eq!(on.help("USAGE:\n  x\n"), "\x1b[1mUSAGE:\x1b[0m\n  x\n");
        assert_eq!(on.help("warden: a guard\n"), "warden: a guard\n");
    }
}
