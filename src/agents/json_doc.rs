//! JSON settings files edited in place through `serde_json` with its `preserve_order` feature, so a person's `settings.json` keeps its keys where they put them.

use serde_json::{Map, Value};

/// Parses a whole document; an empty or blank text is an empty object.
pub fn parse(text: &str) -> Result<Value, String> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Two-space indented, as Claude Code and Codex write their files, with a
/// final newline.
pub fn to_pretty(doc: &Value) -> String {
    let mut out = serde_json::to_string_pretty(doc).unwrap_or_else(|_| "{}".into());
    out.push('\n');
    out
}

/// The value under `key`, inserted at the end as `make()` when missing;
/// `None` when `doc` is not an object.
pub fn entry<'a>(
    doc: &'a mut Value,
    key: &str,
    make: impl FnOnce() -> Value,
) -> Option<&'a mut Value> {
    Some(doc.as_object_mut()?.entry(key).or_insert_with(make))
}

/// Removes `key`, keeping the order of the keys after it.
pub fn remove(doc: &mut Value, key: &str) {
    if let Some(map) = doc.as_object_mut() {
        map.shift_remove(key);
    }
}

/// Whether `doc` is an empty object or array (what an uninstall leaves
/// behind and then removes).
pub fn is_empty_container(doc: &Value) -> bool {
    match doc {
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_through_a_round_trip() {
        let text = "{\n  \"zeta\": 1,\n  \"alpha\": {\n    \"b\": [\n      true,\n      null\n    ],\n    \"a\": \"x\"\n  },\n  \"mid\": 2.5\n}\n";
        assert_eq!(to_pretty(&parse(text).unwrap()), text);
    }

    #[test]
    fn entry_inserts_at_the_end_and_finds_existing() {
        let mut doc = parse(r#"{"b": 1, "a": 2}"#).unwrap();
        entry(&mut doc, "hooks", || Value::Object(Map::new()));
        assert_eq!(doc.to_string(), r#"{"b":1,"a":2,"hooks":{}}"#);
        assert_eq!(
            entry(&mut doc, "a", || Value::Null).unwrap().as_u64(),
            Some(2)
        );
        assert!(entry(&mut Value::Null, "x", || Value::Null).is_none());
    }

    #[test]
    fn removing_a_key_keeps_the_others_in_order() {
        let mut doc = parse(r#"{"a": 1, "b": 2, "c": 3, "d": 4}"#).unwrap();
        remove(&mut doc, "b");
        assert_eq!(doc.to_string(), r#"{"a":1,"c":3,"d":4}"#);
    }

    #[test]
    fn blank_is_an_empty_object_and_garbage_is_an_error() {
        assert_eq!(parse(" \n").unwrap(), Value::Object(Map::new()));
        assert!(parse("{\"a\":").is_err());
        assert!(parse("// comment\n{}").is_err());
    }
}
