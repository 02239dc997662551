//! Command analysis: any text is analysed within its limits, and a floor example run first on its own line is blocked whatever follows it.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use warden::verdict::Decision;

fn floor() -> &'static [&'static str] {
    static FLOOR: OnceLock<Vec<&'static str>> = OnceLock::new();
    FLOOR.get_or_init(warden::fuzzing::floor_examples)
}

fn no_policy() -> &'static Arc<warden::fuzzing::Policy> {
    static NONE: OnceLock<Arc<warden::fuzzing::Policy>> = OnceLock::new();
    NONE.get_or_init(|| Arc::new(Default::default()))
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let _ = warden::shell::analyze(&text);
    let _ = warden::fuzzing::decide(no_policy(), &text);
    let examples = floor();
    let example = examples[usize::from(pick) % examples.len()];
    let line = format!("{example}\n{text}");
    assert_eq!(
        warden::fuzzing::decide(no_policy(), &line),
        Decision::Block,
        "{line:?}"
    );
});
