//! `warden check`: judge payloads as the hook would, one or (`--batch`) a JSON Lines stream of them in one process.
//!
//! Batch mode is for benchmarks, people's CI and test suites: each input
//! line gets the line the hook would print for it, in order, with the policy
//! loaded once per working directory instead of once per call.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};

use super::args::{Flag, Parsed};
use super::hook::{self, settings};
use super::{Env, Outcome};
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

pub(super) fn run(parsed: &Parsed, env: &Env, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    if parsed.value("--batch").is_none() {
        return hook::run(parsed, env, stdin);
    }
    let (dialect, on_ask) = settings(parsed);
    let mut policies: HashMap<Option<String>, Options> = HashMap::new();
    let mut out = Outcome {
        stdout: String::new(),
        stderr: String::new(),
        code: 0,
        audit: None,
    };
    for (n, line) in BufReader::new(stdin).lines().enumerate() {
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
                out.stdout.push_str(&hook::unreadable(&err, dialect));
                out.stderr
                    .push_str(&format!("warden: line {}: {err}\n", n + 1));
                continue;
            }
        };
        let options = if call.is_pre_tool() {
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
        out.stdout
            .push_str(&verdict.render(dialect.unwrap_or(call.agent.dialect())));
        out.stdout.push('\n');
    }
    Ok(out)
}
