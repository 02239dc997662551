//! JSON settings files edited in place: an order-keeping value, so a person's `settings.json` keeps its keys where they put them.
//!
//! `serde_json::Value` sorts object keys, so writing it back would reorder
//! every key of a file warden only meant to add one entry to.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value whose objects keep their keys in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses a whole document; an empty or blank text is an empty object.
    pub fn parse(text: &str) -> Result<Json, String> {
        if text.trim().is_empty() {
            return Ok(Json::Object(Vec::new()));
        }
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// Two-space indented, as Claude Code and Codex write their files, with
    /// a final newline.
    pub fn to_pretty(&self) -> String {
        let mut out = serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into());
        out.push('\n');
        out
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(pairs) => pairs
                .iter_mut()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key`, inserted at the end as `make()` when missing.
    /// `None` when `self` is not an object.
    pub fn entry(&mut self, key: &str, make: impl FnOnce() -> Json) -> Option<&mut Json> {
        let Json::Object(pairs) = self else {
            return None;
        };
        let at = match pairs.iter().rposition(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                pairs.push((key.to_string(), make()));
                pairs.len() - 1
            }
        };
        pairs.get_mut(at).map(|(_, v)| v)
    }

    /// Removes every pair named `key`.
    pub fn remove(&mut self, key: &str) {
        if let Json::Object(pairs) = self {
            pairs.retain(|(k, _)| k != key);
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Json>> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is an empty object or array (what an uninstall leaves
    /// behind and then removes).
    pub fn is_empty_container(&self) -> bool {
        match self {
            Json::Object(pairs) => pairs.is_empty(),
            Json::Array(items) => items.is_empty(),
            _ => false,
        }
    }

    pub fn string(text: impl Into<String>) -> Json {
        Json::String(text.into())
    }

    pub fn object(pairs: Vec<(&str, Json)>) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(pairs) => {
                let mut map = serializer.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut pairs = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            pairs.push((k, v));
        }
        Ok(Json::Object(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_through_a_round_trip() {
        let text = "{\n  \"zeta\": 1,\n  \"alpha\": {\n    \"b\": [\n      true,\n      null\n    ],\n    \"a\": \"x\"\n  },\n  \"mid\": 2.5\n}\n";
        let doc = Json::parse(text).unwrap();
        assert_eq!(doc.to_pretty(), text);
    }

    #[test]
    fn entry_inserts_at_the_end_and_finds_existing() {
        let mut doc = Json::parse(r#"{"b": 1, "a": 2}"#).unwrap();
        doc.entry("hooks", || Json::Object(Vec::new()));
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            r#"{"b":1,"a":2,"hooks":{}}"#
        );
        assert_eq!(doc.entry("a", || Json::Null).unwrap().as_u64(), Some(2));
        assert!(Json::Null.entry("x", || Json::Null).is_none());
    }

    #[test]
    fn blank_is_an_empty_object_and_garbage_is_an_error() {
        assert_eq!(Json::parse(" \n").unwrap(), Json::Object(Vec::new()));
        assert!(Json::parse("{\"a\":").is_err());
        assert!(Json::parse("// comment\n{}").is_err());
    }
}
