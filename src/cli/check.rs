//! `warden check`: judge payloads as the hook would, one or (`--batch`) a JSON Lines stream of them in one process.
//!
//! Batch mode is for benchmarks, people's CI and test suites: each input
//! line gets the line the hook would print for it, in order, with the policy
//! loaded once per working directory instead of once per call.

use std::io::{BufRead, BufReader, BufWriter, Write};

use super::args::{Flag, Parsed};
use super::hook::{self, settings};
use super::{Env, Io, Outcome};
use crate::engine::{self, Options};
use crate::error::Error;
use crate::payload;

pub(super) static FLAGS: &[Flag] = &[
    Flag {
        long: "--batch",
        value: None,
        choices: &[],
        help: "read JSON Lines, one payload per line; write one verdict line per\npayload, in order (blank lines are skipped)",
    },
    hook::AGENT,
    hook::ON_ASK,
];

pub(super) fn run(parsed: &Parsed, env: &Env, io: &mut Io<'_>) -> Result<Outcome, Error> {
    if parsed.value("--batch").is_none() {
        return hook::run(parsed, env, io);
    }
    let (dialect, on_ask) = settings(parsed);
    // Searched in order, newest last: a stream nearly always stays in one
    // directory, and comparing the path costs less than hashing and copying
    // it (about 450 instructions a payload with a `HashMap`).
    let mut policies: Vec<(Option<String>, Options)> = Vec::new();
    let other_events = Options {
        on_ask,
        ..Options::default()
    };
    let mut out = Outcome {
        stdout: String::new(),
        stderr: String::new(),
        code: 0,
        audit: None,
    };
    let Io { stdin, stdout } = io;
    let mut reader = BufReader::with_capacity(1 << 16, &mut **stdin);
    let mut writer = BufWriter::with_capacity(1 << 16, &mut **stdout);
    let mut line = String::new();
    for n in 0.. {
        // Verdicts are held back only while more input is already here:
        // a reader that waits for each answer before sending the next
        // payload gets it before warden waits in turn.
        if reader.buffer().is_empty() && !flush(&mut writer, &mut out) {
            break;
        }
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(source) => {
                // Past a read error nothing more can be judged: say where it stopped.
                out.stderr
                    .push_str(&format!("warden: stdin line {}: {source}\n", n + 1));
                out.code = 1;
                break;
            }
        }
        if line.trim().is_empty() {
            continue;
        }
        let call = match payload::parse(line.trim_end_matches(['\n', '\r'])) {
            Ok(call) => call,
            Err(err) => {
                out.stderr
                    .push_str(&format!("warden: line {}: {err}\n", n + 1));
                if !emit(&mut writer, &hook::unreadable(&err, dialect), &mut out) {
                    break;
                }
                continue;
            }
        };
        let options = if call.is_pre_tool() {
            // Each policy holds its rules; a stream that visits many
            // directories must not hold them all.
            let at = match policies.iter().position(|(cwd, _)| *cwd == call.cwd) {
                Some(at) => at,
                None => {
                    if policies.len() >= MAX_POLICIES {
                        policies.clear();
                    }
                    let mut notes = String::new();
                    let mut options = env.options(call.cwd.as_deref(), &mut notes).0;
                    out.stderr.push_str(&notes);
                    // Many calls will read its rules: no system call for each.
                    std::sync::Arc::make_mut(&mut options.policy).hold_rules();
                    policies.push((call.cwd.clone(), Options { on_ask, ..options }));
                    policies.len() - 1
                }
            };
            &policies[at].1
        } else {
            &other_events
        };
        let verdict = engine::evaluate(&call, options);
        let rendered = verdict.render(dialect.unwrap_or(call.agent.dialect()));
        // The newline written on its own: pushed onto the rendered line, it
        // grew (copied) a string made to measure.
        if !emit(&mut writer, &rendered, &mut out) || !emit(&mut writer, "\n", &mut out) {
            break;
        }
    }
    flush(&mut writer, &mut out);
    Ok(out)
}

/// Working directories whose policy is kept loaded at once.
const MAX_POLICIES: usize = 64;

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
