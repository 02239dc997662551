//! The whole hook: any bytes on stdin, with each `--agent`, give exactly one JSON verdict line in that dialect.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, payload)) = data.split_first() else {
        return;
    };
    let agent = ["native", "hermes", "claude", "codex"][usize::from(pick) % 4];
    let args = vec!["--agent".to_string(), agent.to_string()];
    let out = warden::cli::run(&args, &mut &payload[..], &warden::cli::Env::default());
    assert_eq!(out.code, 0, "{out:?}");
    let line = out
        .stdout
        .strip_suffix('\n')
        .expect("a verdict line ends in a newline");
    assert!(!line.contains('\n'), "exactly one line: {:?}", out.stdout);
    let verdict: Value = serde_json::from_str(line).expect("the verdict is JSON");
    let object = verdict.as_object().expect("the verdict is an object");
    match agent {
        "native" => assert!(
            matches!(
                object.get("action").and_then(Value::as_str),
                Some("allow" | "ask" | "block")
            ),
            "{line}"
        ),
        "hermes" => assert!(
            object.is_empty()
                || matches!(
                    object.get("action").and_then(Value::as_str),
                    Some("block" | "approve")
                ),
            "{line}"
        ),
        // Claude's and Codex's shape; Codex acts on deny only.
        _ => {
            let decision = object
                .get("hookSpecificOutput")
                .and_then(|o| o.get("permissionDecision"))
                .and_then(Value::as_str);
            let known = if agent == "claude" {
                matches!(decision, Some("allow" | "ask" | "deny"))
            } else {
                decision == Some("deny")
            };
            assert!(object.is_empty() || known, "{line}");
        }
    }
    // Anything that is not a readable payload is blocked, never allowed.
    let readable = std::str::from_utf8(payload)
        .ok()
        .and_then(|text| warden::payload::parse(text).ok());
    if readable.is_none() {
        let blocked = match agent {
            "native" | "hermes" => object.get("action").and_then(Value::as_str) == Some("block"),
            _ => line.contains(r#""permissionDecision":"deny""#),
        };
        assert!(blocked, "unreadable input not blocked: {line}");
    }
});
