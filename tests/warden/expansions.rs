//! Every place bash runs a command substitution (`tests/data/substitution-contexts.txt`): a floor example put there is blocked, text bash leaves alone is not, and bash itself agrees with the table.

use std::path::Path;
use std::process::Command;

use warden::engine::{evaluate_command, Options};
use warden::verdict::Decision;

use crate::contexts::{self, join, Context, JOINS};
use crate::support;

tests![
    floor_examples_are_blocked_in_every_context,
    text_bash_leaves_alone_is_not_blocked,
    the_table_matches_bash,
    floor_examples_in_contexts_after_benign_lines_are_blocked,
];

fn contexts() -> Vec<Context> {
    let table = contexts::contexts().unwrap_or_else(|e| panic!("{TABLE_PATH}: {e}"));
    assert!(
        table.len() > 100,
        "{TABLE_PATH} lost lines: {}",
        table.len()
    );
    table
}

const TABLE_PATH: &str = "tests/data/substitution-contexts.txt";

/// The floor's examples that are blocked on their own.
fn floor() -> Vec<&'static str> {
    let options = Options::default();
    let examples: Vec<&str> = warden::rules::hardline()
        .flat_map(|r| r.hits.iter().copied())
        .filter(|h| evaluate_command(h, &options).decision == Decision::Block)
        .collect();
    assert!(examples.len() > 50, "floor examples: {}", examples.len());
    examples
}

fn floor_examples_are_blocked_in_every_context() {
    let options = Options::default();
    let examples = floor();
    let mut failures = Vec::new();
    let mut total = 0;
    for context in contexts().iter().filter(|c| c.runs) {
        for example in &examples {
            let line = context.with(example);
            total += 1;
            let verdict = evaluate_command(&line, &options);
            if verdict.decision != Decision::Block {
                failures.push(format!(
                    "{}: {:?} for {line:?}",
                    context.name, verdict.decision
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} not blocked:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The other half: text bash never runs is judged as the text it is, so
/// the table's `data` lines are not blocked (an ask for a command handed
/// to a program warden has no model of is allowed here).
fn text_bash_leaves_alone_is_not_blocked() {
    let options = Options::default();
    let mut failures = Vec::new();
    for context in contexts().iter().filter(|c| !c.runs) {
        for example in ["rm -rf /", "rm -rf ~", "mkfs.ext4 /dev/sda1", "kill -9 -1"] {
            let line = context.with(example);
            let verdict = evaluate_command(&line, &options);
            if verdict.decision == Decision::Block {
                failures.push(format!("{}: blocked {line:?}", context.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each template run in bash with `touch MARK` in its place: a `run` line
/// must create the mark and a `data` line must not, so the table says what
/// bash really does. Skipped, saying so, where bash is not installed.
fn the_table_matches_bash() {
    let Ok(version) = Command::new("bash").arg("--version").output() else {
        eprintln!("expansions::the_table_matches_bash: no bash here, table not checked");
        return;
    };
    let version = String::from_utf8_lossy(&version.stdout);
    let dir = std::env::temp_dir().join(format!("warden-contexts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let root = is_root();
    let mut wrong = Vec::new();
    for context in contexts() {
        // bash does not take PS4 from the environment when run as root.
        if root && context.name == "ps4-shell" {
            continue;
        }
        let mark = dir.join(context.name);
        let _ = std::fs::remove_file(&mark);
        let line = context.with(&format!("touch {}", mark.display()));
        let ran = run_bash(&line, &dir) && appears(&mark, context.runs);
        if ran != context.runs {
            wrong.push(format!(
                "{}: bash {} it: {line:?}",
                context.name,
                if ran { "runs" } else { "does not run" }
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        wrong.is_empty(),
        "{TABLE_PATH} disagrees with {}:\n{}",
        version.lines().next().unwrap_or("bash"),
        wrong.join("\n")
    );
}

fn run_bash(line: &str, dir: &Path) -> bool {
    Command::new("bash")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok()
}

/// Whether `mark` exists. A process substitution (`> >(touch MARK)`) runs
/// beside bash, which may exit before it has: a mark that should appear
/// is waited for, up to two seconds.
fn appears(mark: &Path, expected: bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while expected && !mark.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    mark.exists()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A small deterministic generator, so a failure reproduces.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The fuzz property of `fuzz/fuzz_targets/contexts.rs`, sampled: a floor
/// example in any context, joined to a benign corpus line in any of the
/// ways lines are joined, is blocked.
fn floor_examples_in_contexts_after_benign_lines_are_blocked() {
    let options = Options::default();
    let examples = floor();
    let contexts: Vec<Context> = contexts().into_iter().filter(|c| c.runs).collect();
    let benign = benign_lines();
    let mut rng = Lcg(0x5eed);
    let mut failures = Vec::new();
    for _ in 0..3_000 {
        let context = &contexts[rng.below(contexts.len())];
        let example = examples[rng.below(examples.len())];
        let line = benign[rng.below(benign.len())];
        let joined = join(line, &context.with(example), rng.below(JOINS));
        if evaluate_command(&joined, &options).decision != Decision::Block {
            failures.push(format!("{}: {joined:?}", context.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Corpus lines expected to be allowed that leave nothing open (a quote, a
/// heredoc) to swallow what follows them.
fn benign_lines() -> Vec<&'static str> {
    let options = Options::default();
    let text: &'static str = Box::leak(
        [
            "tests/corpus/false-positive-guards.jsonl",
            "tests/corpus/evasion-sample.jsonl",
        ]
        .iter()
        .map(|f| support::read_repo_file(f))
        .collect::<Vec<_>>()
        .join("\n")
        .into_boxed_str(),
    );
    let lines: Vec<&str> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|case| case["expect"] == "allow")
        .filter_map(|case| case["command"].as_str().map(|c| c.to_string()))
        .map(|c| &*Box::leak(c.into_boxed_str()))
        .filter(|c| {
            !c.contains(['\'', '"', '\\', '<', '#', '`'])
                && evaluate_command(&format!("{c}\nrm -rf /"), &options).decision == Decision::Block
        })
        .collect();
    assert!(lines.len() > 20, "benign lines: {}", lines.len());
    lines
}
