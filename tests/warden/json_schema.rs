//! The JSON Schema files warden ships (`hooks/verdict.schema.json`, `examples/config.schema.json`) held to what warden prints and reads: every golden fixture's verdict fits the verdict schema, and the starter config fits the config schema, which refuses what the loader refuses.
//!
//! A small validator for the part of JSON Schema these files use (`type`,
//! `enum`, `const`, `properties`, `required`, `additionalProperties: false`,
//! `items`, `anyOf`, local `$ref`), so the test needs no crate of its own.

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

/// Whether `value` fits `schema`; `root` resolves `#/$defs/...` references.
fn fits(root: &Value, schema: &Value, value: &Value) -> bool {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/$defs/");
        return fits(root, &root["$defs"][name], value);
    }
    if let Some(options) = schema["anyOf"].as_array() {
        if !options.iter().any(|s| fits(root, s, value)) {
            return false;
        }
    }
    if let Some(want) = schema.get("const") {
        if want != value {
            return false;
        }
    }
    if let Some(options) = schema["enum"].as_array() {
        if !options.contains(value) {
            return false;
        }
    }
    let type_ok = |t: &str| match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => false,
    };
    match &schema["type"] {
        Value::String(t) if !type_ok(t) => return false,
        Value::Array(ts) if !ts.iter().filter_map(Value::as_str).any(type_ok) => return false,
        _ => {}
    }
    if let Some(object) = value.as_object() {
        let properties = schema["properties"].as_object();
        for required in schema["required"].as_array().into_iter().flatten() {
            if !required.as_str().is_some_and(|k| object.contains_key(k)) {
                return false;
            }
        }
        for (key, item) in object {
            match properties.and_then(|p| p.get(key)) {
                Some(sub) if !fits(root, sub, item) => return false,
                None if schema["additionalProperties"] == Value::Bool(false) => return false,
                _ => {}
            }
        }
    }
    if let Some(n) = value.as_f64() {
        let below = schema["minimum"].as_f64().is_some_and(|min| n < min);
        let above = schema["maximum"].as_f64().is_some_and(|max| n > max);
        if below || above {
            return false;
        }
    }
    if let (Some(min), Some(text)) = (schema["minLength"].as_u64(), value.as_str()) {
        if (text.chars().count() as u64) < min {
            return false;
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        if !array.iter().all(|item| fits(root, items, item)) {
            return false;
        }
    }
    true
}

fn every_fixture_verdict_fits_the_verdict_schema() {
    let root = schema("hooks/verdict.schema.json");
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
            if !fits(&root, &root, &value) {
                failures.push(path.display().to_string());
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
    let def = |name: &str| root["$defs"][name].clone();
    let claude_ask: Value = serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "x"}});
    let hermes_approve: Value =
        serde_json::json!({"action": "approve", "message": "x", "rule_key": "git.reset-hard"});
    let native: Value = serde_json::json!({"action": "ask", "message": "x", "rule_id": "git.reset-hard", "layer": "dangerous"});
    assert!(fits(&root, &def("claude"), &claude_ask));
    assert!(!fits(&root, &def("codex"), &claude_ask));
    assert!(fits(&root, &def("hermes"), &hermes_approve));
    assert!(!fits(&root, &def("claude"), &hermes_approve));
    assert!(fits(&root, &def("native"), &native));
    assert!(!fits(&root, &def("hermes"), &native));
    assert!(!fits(&root, &root, &serde_json::json!({"action": "maybe"})));
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
    let root = schema("examples/config.schema.json");
    assert!(
        fits(&root, &root, &yaml(&text)),
        "examples/config.yaml does not fit its schema"
    );
}

/// What the loader refuses, the schema refuses too, so an editor flags it
/// before `warden lint` does.
fn config_schema_refuses_what_the_loader_refuses() {
    let root = schema("examples/config.schema.json");
    let good = "mode: cautious\nrules:\n  deny:\n    - \"terminal(git push --force:*)\"\n    - {regex: 'terraform\\s+destroy', suggest: run terraform plan -destroy, examples: {hits: [terraform destroy]}}\n";
    assert!(fits(&root, &root, &yaml(good)));
    let audit = "audit:\n  path: ~/logs/warden.jsonl\n  max_bytes: 4096\n  keep: 0\n";
    assert!(fits(&root, &root, &yaml(audit)));
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
    ] {
        assert!(!fits(&root, &root, &yaml(bad)), "schema accepts {bad:?}");
    }
}
