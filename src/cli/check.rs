//! `warden check`: judge payloads as the hook would, one or (`--batch`) a JSON Lines stream of them in one process.
//!
//! Batch mode is for benchmarks, people's CI and test suites: each input
//! line gets the line the hook would print for it, in order, with the policy
//! loaded once per working directory instead of once per call.

use std::cell::RefCell;
use std::io::{BufWriter, Read, Write};

use super::args::Parsed;
use super::hook::{self, settings};
use super::{Env, Io, Outcome};
use crate::engine::{self, OnAsk, Options};
use crate::error::Error;
use crate::payload::{self, ToolCall};
use crate::verdict::{Dialect, Reason, Verdict};

pub(super) fn run(parsed: &Parsed, env: &Env, io: &mut Io<'_>) -> Result<Outcome, Error> {
    if parsed.value("--batch").is_none() {
        return hook::run(parsed, env, io);
    }
    let (dialect, on_ask) = settings(parsed);
    let mut policies = Policies {
        loaded: Vec::new(),
        other_events: Options {
            on_ask,
            ..Options::default()
        },
        on_ask,
    };
    let mut out = Outcome {
        stdout: String::new(),
        stderr: String::new(),
        code: 0,
        audit: None,
    };
    let Io { stdin, stdout } = io;
    let mut reader = Lines::new(&mut **stdin);
    let mut writer = BufWriter::with_capacity(1 << 16, &mut **stdout);
    for n in 0.. {
        // Verdicts are held back only while more input is already here:
        // a reader that waits for each answer before sending the next
        // payload gets it before warden waits in turn.
        if !reader.has_line() && !flush(&mut writer, &mut out) {
            break;
        }
        let line = match reader.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(source) => {
                // Past a read error nothing more can be judged: say where it stopped.
                out.stderr
                    .push_str(&format!("warden: stdin line {}: {source}\n", n + 1));
                out.code = 1;
                break;
            }
        };
        let text = match std::str::from_utf8(line) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => Ok(text.trim_end_matches('\r')),
            Err(e) => Err(Error::PayloadNotUtf8 {
                offset: e.valid_up_to(),
            }),
        };
        // The dialect of the answer, once the payload has named its agent.
        let mut answer_in = dialect;
        let judged = judged(|| policies.answer(text, n, env, &mut answer_in, &mut out.stderr));
        let rendered = judged.unwrap_or_else(|detail| {
            out.stderr.push_str(&format!(
                "warden: line {}: internal error: {detail}\n",
                n + 1
            ));
            // A policy the panic may have left half-updated is loaded again.
            policies.loaded.clear();
            let verdict = Verdict::input_block("internal.error", Reason::Internal { detail });
            match answer_in {
                Some(dialect) => verdict.render(dialect),
                None => verdict.render_for_any_agent(),
            }
        });
        // The newline written on its own: pushed onto the rendered line, it
        // grew (copied) a string made to measure.
        if !emit(&mut writer, &rendered, &mut out) || !emit(&mut writer, "\n", &mut out) {
            break;
        }
    }
    flush(&mut writer, &mut out);
    Ok(out)
}

thread_local! {
    /// Set while [`judged`] runs on this thread; the panic hook leaves the
    /// panic's text in it.
    static CATCHING: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Runs `judge` on one payload of a batch; a panic in it (a bug in warden)
/// is that payload's `Err`, with the panic's text, so the stream goes on: one
/// line out for every line in. Hook mode has no such catch: there the panic
/// hook in `main` prints the block and ends the process.
fn judged(judge: impl FnOnce() -> String) -> Result<String, String> {
    CATCHING.with_borrow_mut(|c| *c = Some(None));
    // What `judge` changes stays usable after a panic (a line more on
    // stderr, the dialect), except perhaps a policy, which the caller drops.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(judge));
    let noted = CATCHING.with_borrow_mut(Option::take).flatten();
    result.map_err(|payload| {
        noted.unwrap_or_else(|| {
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
            message.unwrap_or("a panic").to_string()
        })
    })
}

/// For `main`'s panic hook: whether the panic on this thread happened while
/// `check --batch` judged a payload, which turns it into that payload's
/// block (quoting `detail`) and goes on; the hook must then let it unwind
/// instead of ending the run.
pub fn batch_catches(detail: &str) -> bool {
    CATCHING.with_borrow_mut(|c| match c {
        Some(noted) => {
            *noted = Some(detail.to_string());
            true
        }
        None => false,
    })
}

/// Working directories whose policy is kept loaded at once.
const MAX_POLICIES: usize = 64;

/// The policy of each working directory a stream visits, loaded once.
struct Policies {
    /// Searched in order, newest last: a stream nearly always stays in one
    /// directory, and comparing the path costs less than hashing and copying
    /// it (about 450 instructions a payload with a `HashMap`).
    loaded: Vec<(Option<String>, Options)>,
    /// For events other than a tool call about to run: nothing to load.
    other_events: Options,
    on_ask: OnAsk,
}

impl Policies {
    /// The verdict line (without its newline) for the payload on line `n`
    /// (counted from 0); `dialect` is set to the payload's agent's when no
    /// `--agent` chose one, and what is wrong goes to `stderr`.
    fn answer(
        &mut self,
        text: Result<&str, Error>,
        n: usize,
        env: &Env,
        dialect: &mut Option<Dialect>,
        stderr: &mut String,
    ) -> String {
        let call = match text.and_then(payload::parse) {
            Ok(call) => call,
            Err(err) => {
                stderr.push_str(&format!("warden: line {}: {err}\n", n + 1));
                let mut line = hook::unreadable(&err, *dialect);
                line.pop();
                return line;
            }
        };
        let answer_in = *dialect.get_or_insert(call.agent.dialect());
        let options = self.options(&call, env, stderr);
        env.provoke(&call);
        engine::evaluate(&call, options).render(answer_in)
    }

    /// The options to judge `call` with; what loading a policy for it had
    /// to say goes to `stderr`.
    fn options(&mut self, call: &ToolCall, env: &Env, stderr: &mut String) -> &Options {
        if !call.is_pre_tool() {
            return &self.other_events;
        }
        // Each policy holds its rules; a stream that visits many
        // directories must not hold them all.
        let dir = env.session_dir(call);
        let at = match self.loaded.iter().position(|(cwd, _)| *cwd == dir) {
            Some(at) => at,
            None => {
                if self.loaded.len() >= MAX_POLICIES {
                    self.loaded.clear();
                }
                let mut notes = String::new();
                let mut options = env.options(dir.as_deref(), &mut notes).0;
                stderr.push_str(&notes);
                // Many calls will read its rules: no system call for each.
                std::sync::Arc::make_mut(&mut options.policy).hold_rules();
                let on_ask = self.on_ask;
                self.loaded.push((dir, Options { on_ask, ..options }));
                self.loaded.len() - 1
            }
        };
        &self.loaded[at].1
    }
}

/// The lines of a stream, each without its newline, read in large blocks
/// and found with `memchr`: std's line reader searched each line with a
/// plain loop, a tenth of judging a short command.
struct Lines<R> {
    inner: R,
    /// Read bytes in `..filled`; the rest is room for the next read.
    buf: Vec<u8>,
    filled: usize,
    /// Where the next line starts in `buf`.
    start: usize,
    /// How far past `start` is known to hold no newline.
    scanned: usize,
    eof: bool,
}

impl<R: Read> Lines<R> {
    const BLOCK: usize = 1 << 16;

    fn new(inner: R) -> Lines<R> {
        Lines {
            inner,
            buf: vec![0; Self::BLOCK],
            filled: 0,
            start: 0,
            scanned: 0,
            eof: false,
        }
    }

    /// Whether a whole line (or the end of input) is at hand without a read.
    fn has_line(&mut self) -> bool {
        self.eof || self.newline().is_some()
    }

    /// Where the next newline is in `buf`, if it has one. How far was
    /// searched is remembered, so a long line is searched once however many
    /// reads it takes, and a newline `has_line` found is found again at once.
    fn newline(&mut self) -> Option<usize> {
        let from = self.start + self.scanned;
        match memchr::memchr(b'\n', &self.buf[from..self.filled]) {
            Some(at) => {
                self.scanned += at;
                Some(from + at)
            }
            None => {
                self.scanned = self.filled - self.start;
                None
            }
        }
    }

    /// Takes `start..end` as the next line, resuming after `next`.
    fn take(&mut self, end: usize, next: usize) -> &[u8] {
        let line = self.start..end;
        self.start = next;
        self.scanned = 0;
        &self.buf[line]
    }

    /// The next line, without its newline; the last line need not end in
    /// one. `None` at the end of input.
    fn next_line(&mut self) -> std::io::Result<Option<&[u8]>> {
        loop {
            if let Some(at) = self.newline() {
                return Ok(Some(self.take(at, at + 1)));
            }
            if self.eof {
                if self.start == self.filled {
                    return Ok(None);
                }
                let end = self.filled;
                return Ok(Some(self.take(end, end)));
            }
            // The unfinished line moves to the front; a line longer than
            // the buffer doubles it.
            self.buf.copy_within(self.start..self.filled, 0);
            self.filled -= self.start;
            self.start = 0;
            if self.filled == self.buf.len() {
                self.buf.resize(2 * self.buf.len(), 0);
            }
            let got = loop {
                match self.inner.read(&mut self.buf[self.filled..]) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    other => break other?,
                }
            };
            self.filled += got;
            self.eof = got == 0;
        }
    }
}

/// Writes one verdict line as it is decided (into the buffer `flush`
/// empties), so memory stays flat however long the stream. A reader that
/// went away ends the batch.
fn emit(stdout: &mut impl Write, line: &str, out: &mut Outcome) -> bool {
    written(stdout.write_all(line.as_bytes()), out)
}

fn flush(stdout: &mut impl Write, out: &mut Outcome) -> bool {
    written(stdout.flush(), out)
}

fn written(result: std::io::Result<()>, out: &mut Outcome) -> bool {
    match result {
        Ok(()) => true,
        Err(err) => {
            if out.code == 0 {
                out.stderr
                    .push_str(&format!("warden: stdout: {err}; stopping\n"));
            }
            out.code = 1;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out a few bytes at a time, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn lines_are_what_splitting_on_newlines_gives_however_the_input_arrives() {
        let long = "y".repeat(3 * Lines::<&[u8]>::BLOCK + 5);
        for text in [
            String::new(),
            "\n".into(),
            "a".into(),
            "a\n".into(),
            "a\r\n\nb".into(),
            format!("x\n{long}\nz\n"),
            long.clone(),
        ] {
            let mut expected: Vec<&[u8]> = text.as_bytes().split(|&b| b == b'\n').collect();
            if expected.last().is_some_and(|l| l.is_empty()) {
                expected.pop();
            }
            for step in [1, 3, 4096, usize::MAX] {
                let mut lines = Lines::new(Trickle(text.as_bytes(), step));
                let mut got: Vec<Vec<u8>> = Vec::new();
                while let Some(line) = lines.next_line().expect("no read error") {
                    got.push(line.to_vec());
                }
                assert_eq!(
                    got,
                    expected,
                    "{:?} in steps of {step}",
                    &text[..text.len().min(20)]
                );
            }
        }
    }
}
