//! `warden check`: judge payloads as the hook would, one or (`--batch`) a JSON Lines stream of them in one process.
//!
//! Batch mode is for benchmarks, people's CI and test suites: each input
//! line gets the line the hook would print for it, in order, with the policy
//! loaded once per working directory instead of once per call.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};

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
    let mut policies: HashMap<Option<String>, Options> = HashMap::new();
    let mut out = Outcome {
        stdout: String::new(),
        stderr: String::new(),
        code: 0,
        audit: None,
    };
    let Io { stdin, stdout } = io;
    for (n, line) in BufReader::new(&mut **stdin).lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(source) => {
                // Past a read error nothing more can be judged: say where it stopped.
                out.stderr
                    .push_str(&format!("warden: stdin line {}: {source}\n", n + 1));
                out.code = 1;
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let call = match payload::parse(&line) {
            Ok(call) => call,
            Err(err) => {
                out.stderr
                    .push_str(&format!("warden: line {}: {err}\n", n + 1));
                if !emit(&mut **stdout, &hook::unreadable(&err, dialect), &mut out) {
                    break;
                }
                continue;
            }
        };
        let options = if call.is_pre_tool() {
            // Each policy holds its rules; a stream that visits many
            // directories must not hold them all.
            if policies.len() >= MAX_POLICIES && !policies.contains_key(&call.cwd) {
                policies.clear();
            }
            let cwd = call.cwd.clone();
            let cached = policies.entry(cwd).or_insert_with(|| {
                let mut notes = String::new();
                let options = env.options(call.cwd.as_deref(), &mut notes).0;
                out.stderr.push_str(&notes);
                options
            });
            Options {
                on_ask,
                ..cached.clone()
            }
        } else {
            Options {
                on_ask,
                ..Options::default()
            }
        };
        let verdict = engine::evaluate(&call, &options);
        let line = verdict.render(dialect.unwrap_or(call.agent.dialect()));
        if !emit(&mut **stdout, &format!("{line}\n"), &mut out) {
            break;
        }
    }
    Ok(out)
}

/// Working directories whose policy is kept loaded at once.
const MAX_POLICIES: usize = 64;

/// Writes one verdict line as it is decided, so a reader waiting on each
/// answer gets it and memory stays flat however long the stream. A reader
/// that went away ends the batch.
fn emit(stdout: &mut dyn Write, line: &str, out: &mut Outcome) -> bool {
    match stdout.write_all(line.as_bytes()) {
        Ok(()) => true,
        Err(err) => {
            out.stderr
                .push_str(&format!("warden: stdout: {err}; stopping\n"));
            out.code = 1;
            false
        }
    }
}
