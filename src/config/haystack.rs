//! The haystack: every form of a call, on lines of their own, that the user rules' index and literals are looked for in.

use crate::payload::ToolCall;
use crate::shell::{Analysis, Command};

/// The program words of a command's bare forms: as written (`/usr/bin/git`)
/// and by its name when that differs (`git`).
pub(super) fn bare_programs(cmd: &Command) -> impl Iterator<Item = &str> {
    let path = (!cmd.path.is_empty()).then_some(cmd.path.as_str());
    let program = (cmd.program != cmd.path).then_some(cmd.program.as_str());
    path.into_iter().chain(program)
}

pub(super) fn write_words(out: &mut String, program: &str, args: &[String]) {
    out.push_str(program);
    for arg in args {
        out.push(' ');
        out.push_str(arg);
    }
}

/// The text the rule index and the rules' literals are looked for in: every
/// form of a call on a line of its own, lowercased. A line the same as the
/// one before it is written once: a plain command's display is its text,
/// and the index reads every byte of the haystack. (A literal is looked
/// for within one form, and a repeated form holds nothing new.)
#[derive(Default)]
pub(super) struct Lines {
    text: String,
    /// Where the last line starts.
    last: usize,
}

impl Lines {
    fn with_capacity(room: usize) -> Lines {
        Lines {
            text: String::with_capacity(room),
            last: 0,
        }
    }

    pub(super) fn line(&mut self, text: &str) {
        let start = self.text.len();
        self.text.push_str(text);
        self.end_line(start);
    }

    fn segment(&mut self, cmd: &Command) {
        let start = self.text.len();
        cmd.display_into(&mut self.text);
        self.end_line(start);
        for program in bare_programs(cmd) {
            let start = self.text.len();
            write_words(&mut self.text, program, &cmd.args);
            self.end_line(start);
        }
    }

    /// Ends the line written from `start`, or takes it back if the line
    /// before says the same.
    fn end_line(&mut self, start: usize) {
        if start > 0 && self.text[self.last..start - 1] == self.text[start..] {
            self.text.truncate(start);
            return;
        }
        self.text.push('\n');
        self.last = start;
    }

    pub(super) fn finish(mut self) -> String {
        self.text.make_ascii_lowercase();
        self.text
    }
}

/// What [`Subjects::of`] followed by [`Subjects::haystack`] gives, written
/// straight from the call: a call in which no rule's literal occurs (most
/// calls) then costs one string, not its subjects (several copies of every
/// command). `files` are the paths [`Subjects::files`] would hold.
pub(crate) fn haystack<'f>(
    call: &ToolCall,
    analysis: Option<&Analysis>,
    home: Option<&str>,
    files: impl Iterator<Item = &'f str>,
) -> String {
    // Room for the line, each command's display and its bare forms (about
    // four copies of the text), so the string is not grown a piece at a time.
    let room =
        analysis.map_or(0, |a| 4 * a.text.len()) + call.path.as_ref().map_or(0, |p| 2 * p.len());
    let mut lines = Lines::with_capacity(room + 64);
    if let Some(analysis) = analysis {
        lines.line(analysis.text.trim());
    }
    if let Some(path) = call.path.as_deref() {
        lines.line(&crate::path::absolute(
            path,
            call.tool_dir(home).as_deref(),
            home,
        ));
    }
    for file in files {
        lines.line(file);
    }
    for cmd in analysis.iter().flat_map(|a| &a.commands) {
        lines.segment(cmd);
    }
    lines.finish()
}
