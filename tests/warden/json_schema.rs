//! The JSON Schema files warden ships (`hooks/verdict.schema.json`, `examples/config.schema.json`) held to what warden prints and reads: every golden fixture's verdict fits the verdict schema, and the starter config fits the config schema, which refuses what the loader refuses.
//!
//! They are checked by `jsonschema`, a maintained validator, against the draft
//! each file declares in its `$schema`, as the editors and tools that read
//! them check them.

use std::fs;

use serde_json::Value;

use crate::support;

tests![
    every_fixture_verdict_fits_the_verdict_schema,
    each_dialect_schema_refuses_the_others,
    starter_config_fits_the_config_schema,
    config_schema_refuses_what_the_loader_refuses,
];

fn schema(rel: &str) -> Value {
    let text = support::read_repo_file(rel);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not JSON: {e}"))
}

/// A validator for `schema`, which must itself be a valid schema of its draft.
fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("not a valid schema: {e}"))
}

/// A validator for one of `root`'s `$defs`, with the others it refers to.
fn definition(root: &Value, name: &str) -> jsonschema::Validator {
    validator(&serde_json::json!({
        "$schema": root["$schema"],
        "$defs": root["$defs"],
        "$ref": format!("#/$defs/{name}"),
    }))
}

fn every_fixture_verdict_fits_the_verdict_schema() {
    let verdicts = validator(&schema("hooks/verdict.schema.json"));
    let mut checked = 0;
    let mut failures = Vec::new();
    for group in fs::read_dir(support::repo_path("fixtures")).expect("fixtures/ is readable") {
        let group = group.expect("fixtures/ lists").path();
        if !group.is_dir() {
            continue;
        }
        for file in fs::read_dir(&group).expect("a fixture group is readable") {
            let path = file.expect("a group lists").path();
            if !path.to_string_lossy().ends_with(".expected.json") {
                continue;
            }
            let value: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap_or_default())
                .unwrap_or(Value::Null);
            checked += 1;
            if let Err(error) = verdicts.validate(&value) {
                failures.push(format!("{}: {error}", path.display()));
            }
        }
    }
    assert!(checked > 300, "only {checked} fixtures");
    assert!(
        failures.is_empty(),
        "verdicts outside the schema:\n{}",
        failures.join("\n")
    );
}

/// The dialects' definitions are not so loose that one admits another's
/// answers: a Codex `ask` is not Codex, a Hermes approve is not Claude.
fn each_dialect_schema_refuses_the_others() {
    let root = schema("hooks/verdict.schema.json");
    let def = |name: &str| definition(&root, name);
    let claude_ask: Value = serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "x"}});
    let hermes_approve: Value =
        serde_json::json!({"action": "approve", "message": "x", "rule_key": "git.reset-hard"});
    let native: Value = serde_json::json!({"action": "ask", "message": "x", "rule_id": "git.reset-hard", "layer": "dangerous"});
    assert!(def("claude").is_valid(&claude_ask));
    assert!(!def("codex").is_valid(&claude_ask));
    assert!(def("hermes").is_valid(&hermes_approve));
    assert!(!def("claude").is_valid(&hermes_approve));
    assert!(def("native").is_valid(&native));
    assert!(!def("hermes").is_valid(&native));
    let gemini_deny: Value = serde_json::json!({"decision": "deny", "reason": "x"});
    assert!(def("gemini").is_valid(&gemini_deny));
    assert!(!def("gemini").is_valid(&claude_ask));
    assert!(!def("gemini").is_valid(&serde_json::json!({"decision": "ask", "reason": "x"})));
    assert!(!def("codex").is_valid(&gemini_deny));
    let copilot_ask: Value =
        serde_json::json!({"permissionDecision": "ask", "permissionDecisionReason": "x"});
    assert!(def("copilot").is_valid(&copilot_ask));
    assert!(!def("copilot").is_valid(&claude_ask));
    assert!(!def("copilot").is_valid(&gemini_deny));
    assert!(!def("claude").is_valid(&copilot_ask));
    assert!(!def("gemini").is_valid(&copilot_ask));
    let opencode_block: Value = serde_json::json!({"action": "block", "message": "x"});
    assert!(def("opencode").is_valid(&opencode_block));
    assert!(!def("opencode").is_valid(&hermes_approve));
    assert!(!def("opencode").is_valid(&gemini_deny));
    assert!(!def("opencode").is_valid(&native));
    assert!(!validator(&root).is_valid(&serde_json::json!({"action": "maybe"})));
}

fn yaml(text: &str) -> Value {
    let doc: serde_yaml::Value = serde_yaml::from_str(text).expect("YAML");
    serde_json::to_value(doc).expect("YAML as JSON")
}

fn starter_config_fits_the_config_schema() {
    let text = support::read_repo_file("examples/config.yaml");
    assert!(
        text.starts_with("# yaml-language-server: $schema=config.schema.json"),
        "examples/config.yaml names its schema on the first line, for editors"
    );
    let config = validator(&schema("examples/config.schema.json"));
    if let Err(error) = config.validate(&yaml(&text)) {
        panic!("examples/config.yaml does not fit its schema: {error}");
    }
}

/// What the loader refuses, the schema refuses too, so an editor flags it
/// before `warden lint` does.
fn config_schema_refuses_what_the_loader_refuses() {
    let config = validator(&schema("examples/config.schema.json"));
    let good = "mode: cautious\nrules:\n  deny:\n    - \"terminal(git push --force:*)\"\n    - {regex: 'terraform\\s+destroy', suggest: run terraform plan -destroy, examples: {hits: [terraform destroy]}}\n";
    assert!(config.is_valid(&yaml(good)));
    let audit = "audit:\n  path: ~/logs/warden.jsonl\n  max_bytes: 4096\n  keep: 0\n";
    assert!(config.is_valid(&yaml(audit)));
    for syslog in [
        "audit:\n  syslog: true\n",
        "audit:\n  file: false\n  syslog:\n    socket: /run/log.sock\n    facility: local3\n",
    ] {
        assert!(config.is_valid(&yaml(syslog)), "{syslog:?}");
    }
    for bad in [
        "mood: cautious\n",
        "mode: careful\n",
        "rules:\n  refuse: []\n",
        "rules:\n  deny:\n    - {regexp: x}\n",
        "rules:\n  deny:\n    - {pattern: x, priority: high}\n",
        "rules:\n  deny:\n    - {pattern: x, suggest: \"\"}\n",
        "on_error: maybe\n",
        "audit:\n  max_bytes: 100\n",
        "audit:\n  keep: 101\n",
        "audit:\n  path: \"\"\n",
        "audit:\n  rotate: daily\n",
        "audit:\n  file: no\n",
        "audit:\n  syslog: /dev/log\n",
        "audit:\n  syslog:\n    facility: kern\n",
        "audit:\n  syslog:\n    facilty: auth\n",
    ] {
        assert!(!config.is_valid(&yaml(bad)), "schema accepts {bad:?}");
    }
}
