//! Labelled corpora of evasion attempts and false-positive traps (`tests/corpus/*.jsonl`), each line run through the whole engine.

use std::path::Path;

use serde_json::Value;
use warden::engine::{evaluate_command, Options};

/// Runs every line of a corpus; `ask` cases may also be blocked, since a
/// block is never weaker than asking.
fn run(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("corpus file is readable");
    let mut failures = Vec::new();
    let mut total = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
        let command = case["command"].as_str().expect("command is a string");
        let expect = case["expect"].as_str().expect("expect is a string");
        let verdict = evaluate_command(command, &Options::default());
        let got = verdict.decision.as_str();
        total += 1;
        if got != expect && !(expect == "ask" && got == "block") {
            failures.push(format!(
                "{name}:{}: expected {expect}, got {got} ({:?}) for {command:?} — {}",
                n + 1,
                verdict.rule_id,
                case["why"].as_str().unwrap_or("")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn evasion_sample() {
    run("evasion-sample.jsonl");
}
