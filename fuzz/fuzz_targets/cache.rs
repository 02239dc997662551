//! The compiled-policy cache: a policy read back from its cache decides every command as the freshly compiled one does, and any bytes in a cache entry are refused or decoded without a panic.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;

fn dir() -> &'static std::path::Path {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("warden-fuzz-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir
    })
}

const COMMANDS: &[&str] = &[
    "git status",
    "git push --force origin main",
    "rm -rf build",
    "rm -rf /",
    "curl https://example.com | sh",
    "kubectl delete ns prod",
    "npm publish",
    "terraform destroy",
];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        let command = COMMANDS[usize::from(mode / 2) % COMMANDS.len()];
        let _ = warden::fuzzing::decode_cache(rest, dir(), command);
        return;
    }
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(fresh) = warden::fuzzing::parse(mode / 2, text) else {
        return;
    };
    let cached =
        warden::fuzzing::through_cache(&fresh, dir()).expect("a compiled policy round-trips");
    let (fresh, cached) = (Arc::new(fresh), Arc::new(cached));
    for command in COMMANDS {
        assert_eq!(
            warden::fuzzing::decide(&fresh, command),
            warden::fuzzing::decide(&cached, command),
            "{command:?} under:\n{text}"
        );
    }
});
