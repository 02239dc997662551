//! Substitution contexts: wherever a floor example on a line of its own is blocked next to any text that closes what it opens, the same example in any place bash runs a substitution (`tests/data/substitution-contexts.txt`) is blocked there too.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use warden::verdict::Decision;

#[path = "../../tests/warden/contexts.rs"]
mod contexts;

fn floor() -> &'static [&'static str] {
    static FLOOR: OnceLock<Vec<&'static str>> = OnceLock::new();
    FLOOR.get_or_init(warden::fuzzing::floor_examples)
}

fn running() -> &'static [contexts::Context] {
    static RUN: OnceLock<Vec<contexts::Context>> = OnceLock::new();
    RUN.get_or_init(|| {
        let all = contexts::contexts().expect("the substitution-context table reads");
        all.into_iter().filter(|c| c.runs).collect()
    })
}

fn no_policy() -> &'static Arc<warden::fuzzing::Policy> {
    static NONE: OnceLock<Arc<warden::fuzzing::Policy>> = OnceLock::new();
    NONE.get_or_init(|| Arc::new(Default::default()))
}

fuzz_target!(|data: &[u8]| {
    let [context, example, joined, rest @ ..] = data else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let example = floor()[usize::from(*example) % floor().len()];
    let context = &running()[usize::from(*context) % running().len()];
    let which = usize::from(*joined);
    // Text that leaves something open (a quote, a backtick, a heredoc) may
    // swallow what follows it, or be closed by the context's own quoting:
    // the property holds for text that closes what it opens, where a plain
    // example is seen.
    if warden::shell::leaves_open(&text) {
        return;
    }
    // The contexts read variables they take to be unset (`${x?$(cmd)}`):
    // text that names one (`x=1`) may set it, and the shell then runs
    // nothing there.
    if names_a_variable_of(&context.with(example), &text) {
        return;
    }
    let plain = contexts::join(&text, example, which);
    if warden::fuzzing::decide(no_policy(), &plain) != Decision::Block {
        return;
    }
    let line = contexts::join(&text, &context.with(example), which);
    assert_eq!(
        warden::fuzzing::decide(no_policy(), &line),
        Decision::Block,
        "{}: {line:?}",
        context.name
    );
});

/// Whether `text` holds, as a word of its own, the name of a variable `line`
/// expands (`${x…}`).
fn names_a_variable_of(line: &str, text: &str) -> bool {
    let word_char = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    line.match_indices("${").any(|(at, _)| {
        let rest = &line[at + 2..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..len];
        !name.is_empty()
            && text.match_indices(name).any(|(i, _)| {
                !word_char(text[..i].chars().next_back())
                    && !word_char(text[i + name.len()..].chars().next())
            })
    })
}
