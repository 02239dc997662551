//! Any argument list for any program the rules and the analysis know, run as it is, behind a wrapper or as shell text: decided without a panic, and a floor example on the line before it still blocks.
#![no_main]

use std::cell::RefCell;
use std::sync::{Arc, Once, OnceLock};

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

thread_local! {
    /// The line being decided, printed with a panic: what goes into
    /// fuzz/regressions/command/ (a selector byte, then this text).
    static LINE: RefCell<String> = const { RefCell::new(String::new()) };
}

fuzz_target!(|data: &[u8]| {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            LINE.with_borrow(|line| eprintln!("argv line: {line:?}"));
            default(info);
        }));
    });
    let Some(line) = warden::fuzzing::argv_line(data) else {
        return;
    };
    LINE.with_borrow_mut(|l| l.clone_from(&line));
    let _ = warden::fuzzing::decide(no_policy(), &line);
    let examples = floor();
    let example = examples[data.len() % examples.len()];
    let guarded = format!("{example}\n{line}");
    assert_eq!(
        warden::fuzzing::decide(no_policy(), &guarded),
        Decision::Block,
        "{guarded:?}"
    );
});
