//! Argument lists no one would write, for every program the rules and the analysis know: each is decided, and nothing panics.
//!
//! The programs come from the code's own tables ([`warden::rules::program_names`]),
//! so a new rule's program is covered without a change here. Every case runs
//! under `catch_unwind` and the failures are reported together, each with the
//! command that failed, so one run lists every panic there is.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use warden::engine::{evaluate_command, Options};

tests![
    every_program_with_odd_arguments,
    every_program_behind_wrappers_and_shells,
    every_program_with_ten_thousand_arguments,
    rule_examples_cut_short,
];

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

/// A word as the shell reads it back: bare when that is safe, else in
/// single quotes.
fn quote(word: &str) -> String {
    let bare = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%^".contains(&b));
    if bare {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn line(program: &str, args: &[&str]) -> String {
    std::iter::once(program)
        .chain(args.iter().copied())
        .map(quote)
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
/// panicked, with where. Returns how many were decided.
fn decide_all(commands: impl IntoIterator<Item = String>) -> usize {
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
    count
}

fn every_program_with_odd_arguments() {
    let programs = warden::rules::program_names();
    assert!(programs.len() > 300, "{}", programs.len());
    let commands = programs.iter().flat_map(|p| {
        let grid = GRID.iter().map(move |args| line(p, args));
        let options = lone_options(p).into_iter().flat_map(move |o| {
            [
                line(p, &[&o]),
                line(p, &[&o, "--"]),
                line(p, &[&o, "é"]),
            ]
        });
        grid.chain(options)
    });
    decide_all(commands);
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

fn every_program_behind_wrappers_and_shells() {
    let programs = warden::rules::program_names();
    let small: &[&[&str]] = &[&[], &["--"], &["-"], &["-é"], &["--é="]];
    let commands = programs.iter().flat_map(|p| {
        small.iter().flat_map(move |args| {
            let inner = line(p, args);
            let shells = [
                format!("bash -c {}", quote(&inner)),
                format!("sh -c {}", quote(&inner)),
                format!("eval {}", quote(&inner)),
                format!("echo {} | sh", quote(&inner)),
                format!("x=$({inner})"),
            ];
            THROUGH
                .iter()
                .map(move |w| format!("{w} {inner}"))
                .chain(shells)
        })
    });
    decide_all(commands);
}

fn every_program_with_ten_thousand_arguments() {
    let programs = warden::rules::program_names();
    let many: Vec<&str> = ["a", "-x", "é", "-", "--x=", "-é"]
        .iter()
        .copied()
        .cycle()
        .take(10_000)
        .collect();
    let tail = many.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ");
    decide_all(programs.iter().map(|p| format!("{} {tail}", quote(p))));
}

/// Every rule's examples cut after each word, and each cut followed by
/// `--`, `-` and a multi-byte word: real options of real subcommands, each
/// left without what follows it.
fn rule_examples_cut_short() {
    let mut commands = Vec::new();
    for rule in warden::rules::all() {
        for example in rule.hits.iter().chain(rule.misses) {
            let words: Vec<&str> = example.split(' ').collect();
            for n in 1..=words.len() {
                let cut = words[..n].join(" ");
                for end in ["", " --", " -", " é", " -é"] {
                    commands.push(format!("{cut}{end}"));
                }
            }
        }
    }
    decide_all(commands);
}
