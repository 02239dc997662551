//! `warden test [FILE...]`: every rule's examples and people's own case files run through the whole engine, with a pass/fail report and exit code.

use std::path::Path;

use serde_json::Value;

use super::args::Parsed;
use super::policy::current_dir;
use super::{Env, Io, Outcome};
use crate::config::load;
use crate::engine::{self, Options};
use crate::error::Error;
use crate::payload::{self, ToolCall};
use crate::rules;

/// One check that failed, for the report.
struct Failure {
    at: String,
    what: String,
    want: String,
    got: String,
}

/// How the checks came out: how many passed, and each that failed, in the
/// order they ran.
#[derive(Default)]
struct Tally {
    passed: usize,
    failures: Vec<Failure>,
}

pub(super) fn run(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let cwd = current_dir(parsed);
    let mut tally = Tally::default();
    builtin_examples(&mut tally);
    your_examples(env, cwd.as_deref(), &mut tally);

    // Case files, judged with the policy that applies in --cwd.
    let mut stderr = String::new();
    let options = env.options(cwd.as_deref(), &mut stderr).0;
    for file in &parsed.operands {
        case_file(file, cwd.as_deref(), &options, &mut tally)?;
    }

    let Tally { passed, failures } = tally;
    let mut out = String::new();
    let style = env.style();
    if !failures.is_empty() {
        out.push_str("FAIL  WHERE  WHAT  WANT  GOT\n");
        for f in &failures {
            out.push_str(&format!(
                "{}  {}  {}  {}  {}\n",
                style.fail("FAIL"),
                f.at,
                f.what,
                f.want,
                f.got
            ));
        }
    }
    let failed = format!("{} failed", failures.len());
    out.push_str(&format!(
        "{} passed, {} ({} case file{})\n",
        style.ok(&passed.to_string()),
        if failures.is_empty() {
            failed
        } else {
            style.fail(&failed)
        },
        parsed.operands.len(),
        if parsed.operands.len() == 1 { "" } else { "s" }
    ));
    Ok(Outcome {
        stdout: out,
        stderr,
        code: i32::from(!failures.is_empty()),
        audit: None,
    })
}

/// Built-in rules: each hit decided by its rule, no miss by it.
fn builtin_examples(tally: &mut Tally) {
    let bare = Options::default();
    for rule in rules::all() {
        for hit in rule.hits {
            let v = engine::evaluate_command(hit, &bare);
            if v.rule_id.as_deref() == Some(rule.id) && v.decision == rule.decision {
                tally.passed += 1;
            } else {
                tally.failures.push(Failure {
                    at: rule.id.to_string(),
                    what: hit.to_string(),
                    want: format!("{} by {}", rule.decision.as_str(), rule.id),
                    got: got(&v),
                });
            }
        }
        for miss in rule.misses {
            let v = engine::evaluate_command(miss, &bare);
            if v.rule_id.as_deref() == Some(rule.id) {
                tally.failures.push(Failure {
                    at: rule.id.to_string(),
                    what: miss.to_string(),
                    want: format!("not {}", rule.id),
                    got: got(&v),
                });
            } else {
                tally.passed += 1;
            }
        }
    }
}

/// Your rules: the loader runs their examples and reports the ones that
/// misbehave; the rest passed.
fn your_examples(env: &Env, cwd: Option<&str>, tally: &mut Tally) {
    let vetted = env.vetted(cwd);
    let linted = load::lint(&vetted.locations, cwd.map(Path::new));
    let examples: usize = linted
        .rules()
        .iter()
        .map(|r| r.hits.len() + r.misses.len())
        .sum();
    let misbehaving: Vec<&String> = linted
        .problems
        .iter()
        .filter(|p| p.contains(": example `"))
        .collect();
    tally.passed += examples.saturating_sub(misbehaving.len());
    for problem in &misbehaving {
        tally.failures.push(Failure {
            at: "your rules".into(),
            what: problem.trim_start_matches("warden: ").to_string(),
            want: String::new(),
            got: String::new(),
        });
    }
}

/// Each non-blank line of the case file `file`, judged with `options`.
fn case_file(
    file: &str,
    cwd: Option<&str>,
    options: &Options,
    tally: &mut Tally,
) -> Result<(), Error> {
    let text = std::fs::read_to_string(file).map_err(|source| Error::Io {
        what: file.to_string(),
        source,
    })?;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = format!("{file}:{}", n + 1);
        match case(line, cwd) {
            Ok((call, want, what)) => {
                let v = engine::evaluate(&call, options);
                let decided = v.decision.as_str();
                // A block is never weaker than the ask a case expects.
                if decided == want || (want == "ask" && decided == "block") {
                    tally.passed += 1;
                } else {
                    tally.failures.push(Failure {
                        at,
                        what,
                        want,
                        got: got(&v),
                    });
                }
            }
            Err(why) => tally.failures.push(Failure {
                at,
                what: why,
                want: "a case".into(),
                got: "an unreadable line".into(),
            }),
        }
    }
    Ok(())
}

/// A verdict as the report shows it: `ask by git.reset-hard`.
fn got(v: &crate::verdict::Verdict) -> String {
    match &v.rule_id {
        Some(id) => format!("{} by {id}", v.decision.as_str()),
        None => v.decision.as_str().to_string(),
    }
}

/// One line of a case file: `{"command": …, "expect": …}` (a terminal call
/// in --cwd) or `{"payload": {…}, "expect": …}` (any hook payload).
fn case(line: &str, cwd: Option<&str>) -> Result<(ToolCall, String, String), String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let want = value["expect"]
        .as_str()
        .filter(|e| matches!(*e, "allow" | "ask" | "block"))
        .ok_or("`expect` must be allow, ask or block")?
        .to_string();
    if let Some(command) = value["command"].as_str() {
        let call = ToolCall::shell(command, cwd.map(str::to_string));
        return Ok((call, want, command.to_string()));
    }
    if value["payload"].is_object() {
        let text = value["payload"].to_string();
        let call = payload::parse(&text).map_err(|e| e.to_string())?;
        return Ok((call, want, text));
    }
    Err("a case needs `command` (a string) or `payload` (an object)".into())
}
