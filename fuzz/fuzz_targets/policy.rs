//! Every policy parser (warden YAML, permissions.yaml, the plugin's YAML, Hermes' config.yaml, trust.json, a rule spec): any text is parsed or refused, and no policy it yields lets a floor example through.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use warden::verdict::Decision;

fn floor() -> &'static [&'static str] {
    static FLOOR: OnceLock<Vec<&'static str>> = OnceLock::new();
    FLOOR.get_or_init(warden::fuzzing::floor_examples)
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(policy) = warden::fuzzing::parse(which, text) else {
        return;
    };
    let policy = Arc::new(policy);
    let examples = floor();
    // Three floor examples per input keep each run fast.
    for k in 0..3 {
        let example = examples[(usize::from(which) * 7 + k * 31 + text.len()) % examples.len()];
        assert_eq!(
            warden::fuzzing::decide(&policy, example),
            Decision::Block,
            "a policy lifted the floor for {example:?}:\n{text}"
        );
    }
    let _ = warden::fuzzing::decide(&policy, "git status");
});
