//! Argument lists no one would write, for every program the rules and the analysis know: each is decided, and nothing panics.
//!
//! The programs come from the code's own tables ([`warden::rules::program_names`]),
//! so a new rule's program is covered without a change here. Every case runs
//! under `catch_unwind` and the failures are reported together, each with the
//! command that failed, so one run lists every panic there is.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use libtest_mimic::Trial;
use serde_json::{json, Value};
use warden::engine::{evaluate_command, Options};
use warden::shell::shell_quote;

use crate::support::World;

tests![
    the_binary_answers_each_call_once,
    a_batch_answers_every_line_once;
    every_program_with_odd_arguments,
    every_program_behind_wrappers_and_shells,
    every_program_with_ten_thousand_arguments,
    rule_examples_cut_short,
];

/// How many trials each sweep is cut into, so the test threads share the
/// sweeps' work instead of one thread running a whole sweep alone.
const PARTS: usize = 6;

/// One sweep as [`PARTS`] trials named `arguments::{name}/{k}-of-{PARTS}`,
/// trial `k` deciding the commands `commands` makes of every `PARTS`-th
/// item from the `k`-th.
fn sweep<T: Send + Sync + 'static>(
    name: &str,
    items: Vec<T>,
    commands: fn(&T) -> Vec<String>,
) -> Vec<Trial> {
    let items = std::sync::Arc::new(items);
    (0..PARTS)
        .map(|k| {
            let items = std::sync::Arc::clone(&items);
            Trial::test(
                format!("arguments::{name}/{}-of-{PARTS}", k + 1),
                move || {
                    decide_all(items.iter().skip(k).step_by(PARTS).flat_map(commands));
                    Ok(())
                },
            )
        })
        .collect()
}

/// Argument lists that end where a parser expects more, or hold what a
/// byte-indexed parser trips on.
const GRID: &[&[&str]] = &[
    &[],
    &["--"],
    &["-"],
    &["--", "--"],
    &["-", "--"],
    &["-x"],
    &["--x"],
    &["--x="],
    &["-x", "--"],
    &["é"],
    &["-é"],
    &["--é"],
    &["--é=é"],
    &["-xé"],
    &["-é-"],
    &["ｒｍ"],
    &["😀"],
    &["e\u{301}"],
    &[""],
    &["", ""],
    &["="],
    &["-="],
    &["+"],
    &["@"],
];

fn line(program: &str, args: &[&str]) -> String {
    std::iter::once(program)
        .chain(args.iter().copied())
        .map(shell_quote)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every short option letter alone, and the long options the examples of
/// the rules naming `program` use, alone: each option that takes a value
/// is then missing it.
fn lone_options(program: &str) -> Vec<String> {
    let letters = ('a'..='z').chain('A'..='Z').chain('0'..='9');
    let mut out: Vec<String> = letters.map(|c| format!("-{c}")).collect();
    for rule in warden::rules::all() {
        for example in rule.hits.iter().chain(rule.misses) {
            let mut words = example.split_whitespace();
            if words.next() != Some(program) {
                continue;
            }
            for word in words.filter(|w| w.starts_with('-') && w.len() > 1) {
                let option = word.split_once('=').map_or(word, |(k, _)| k);
                if !out.iter().any(|o| o == option) {
                    out.push(option.to_string());
                }
            }
        }
    }
    out
}

thread_local! {
    /// Set while [`decide_all`] runs on this thread: a panic is recorded
    /// here, with where it happened, instead of printed.
    static CAUGHT: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// A panic hook that records panics on threads running [`decide_all`] and
/// leaves every other thread's (other tests' failing asserts) to the
/// default hook.
fn record_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let recorded = CAUGHT.with_borrow_mut(|caught| match caught {
                Some(slot) => {
                    *slot = Some(info.to_string());
                    true
                }
                None => false,
            });
            if !recorded {
                default(info);
            }
        }));
    });
}

/// Decides each command, catching panics; fails listing every command that
/// panicked, with where.
fn decide_all(commands: impl IntoIterator<Item = String>) {
    record_panics();
    CAUGHT.with_borrow_mut(|caught| *caught = Some(None));
    let mut panicked = Vec::new();
    let mut count = 0;
    for command in commands {
        count += 1;
        let decided = catch_unwind(AssertUnwindSafe(|| {
            evaluate_command(&command, &Options::default())
        }));
        if decided.is_err() {
            let cause = CAUGHT.with_borrow_mut(|caught| caught.as_mut().and_then(Option::take));
            panicked.push(format!("{command:?}: {}", cause.unwrap_or_default()));
        }
    }
    CAUGHT.with_borrow_mut(|caught| *caught = None);
    assert!(
        panicked.is_empty(),
        "{} of {count} commands panicked:\n{}",
        panicked.len(),
        panicked.join("\n")
    );
}

fn every_program_with_odd_arguments() -> Vec<Trial> {
    let programs = warden::rules::program_names();
    assert!(programs.len() > 300, "{}", programs.len());
    sweep("every_program_with_odd_arguments", programs, |p| {
        let grid = GRID.iter().map(|args| line(p, args));
        let options = lone_options(p)
            .into_iter()
            .flat_map(|o| [line(p, &[&o]), line(p, &[&o, "--"]), line(p, &[&o, "é"])]);
        grid.chain(options).collect()
    })
}

/// Ways to run a program through another: wrappers the analysis peels, and
/// shell text it reads again.
const THROUGH: &[&str] = &[
    "sudo",
    "sudo -u root",
    "env",
    "env X=1",
    "timeout 5",
    "nice -n 5",
    "nohup",
    "command",
    "exec",
    "xargs",
    "find . -exec",
    "time",
    "doas",
];

fn every_program_behind_wrappers_and_shells() -> Vec<Trial> {
    let programs = warden::rules::program_names();
    sweep("every_program_behind_wrappers_and_shells", programs, |p| {
        let small: &[&[&str]] = &[&[], &["--"], &["-"], &["-é"], &["--é="]];
        let mut out = Vec::new();
        for args in small {
            let inner = line(p, args);
            out.extend(THROUGH.iter().map(|w| format!("{w} {inner}")));
            out.extend([
                format!("bash -c {}", shell_quote(&inner)),
                format!("sh -c {}", shell_quote(&inner)),
                format!("eval {}", shell_quote(&inner)),
                format!("echo {} | sh", shell_quote(&inner)),
                format!("x=$({inner})"),
            ]);
        }
        out
    })
}

fn every_program_with_ten_thousand_arguments() -> Vec<Trial> {
    let programs = warden::rules::program_names();
    sweep("every_program_with_ten_thousand_arguments", programs, |p| {
        let many = ["a", "-x", "é", "-", "--x=", "-é"]
            .iter()
            .cycle()
            .take(10_000);
        let tail = many.map(|w| shell_quote(w)).collect::<Vec<_>>().join(" ");
        vec![format!("{} {tail}", shell_quote(p))]
    })
}

/// Every rule's examples cut after each word, and each cut followed by
/// `--`, `-` and a multi-byte word: real options of real subcommands, each
/// left without what follows it.
fn rule_examples_cut_short() -> Vec<Trial> {
    let examples = warden::rules::all().flat_map(|rule| rule.hits.iter().chain(rule.misses));
    sweep("rule_examples_cut_short", examples.collect(), |example| {
        let words: Vec<&str> = example.split(' ').collect();
        let mut out = Vec::new();
        for n in 1..=words.len() {
            let cut = words[..n].join(" ");
            for end in ["", " --", " -", " é", " -é"] {
                out.push(format!("{cut}{end}"));
            }
        }
        out
    })
}

/// The real binary in hook mode: one JSON verdict line, exit 0, no
/// internal error, for the argument lists that end where a parser wants more.
fn the_binary_answers_each_call_once() {
    let w = World::new("arguments/hook");
    for command in [
        "git --",
        "git -C",
        "git -c",
        "git --git-dir",
        "sudo --",
        "sudo -u",
        "env -S",
        "timeout",
        "xargs -I",
        "find . -exec",
        "kubectl -n",
        "docker --",
        "bash -c",
        "bash -c --",
        "git -- é",
        "rm --",
    ] {
        let payload = json!({"tool_name": "terminal", "tool_input": {"command": command}});
        let out = w.run_binary(
            &["--agent", "native"],
            payload.to_string().as_bytes(),
            |_| {},
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{command}: {stderr}");
        assert!(!stderr.contains("internal error"), "{command}: {stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.strip_suffix('\n').expect("one line");
        let verdict: Value = serde_json::from_str(line).expect("a JSON verdict");
        assert!(
            matches!(verdict["action"].as_str(), Some("allow" | "ask" | "block")),
            "{command}: {verdict}"
        );
    }
}

/// One `check --batch` stream of every program with a few short grids:
/// as many verdict lines as payloads, none an internal error.
fn a_batch_answers_every_line_once() {
    let w = World::new("arguments/batch");
    let grids: &[&[&str]] = &[&[], &["--"], &["-"], &["-é"], &["--é="]];
    let mut stream = String::new();
    let mut lines = 0;
    for program in warden::rules::program_names() {
        for args in grids {
            let command = line(program, args);
            let payload = json!({"tool_name": "terminal", "tool_input": {"command": command}});
            stream.push_str(&payload.to_string());
            stream.push('\n');
            lines += 1;
        }
    }
    let out = w.run_binary(
        &["check", "--batch", "--agent", "native"],
        stream.as_bytes(),
        |_| {},
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("internal error"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), lines, "{stderr}");
    for line in stdout.lines() {
        let verdict: Value = serde_json::from_str(line).expect("a JSON verdict");
        assert_ne!(verdict["rule_id"], "internal.error", "{verdict}");
    }
}
