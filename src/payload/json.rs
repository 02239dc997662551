//! A borrowed JSON tree for payloads: what `serde_json::Value` reads, with strings borrowed from the text and objects kept as lists.
//!
//! `serde_json`'s deserializer checks every byte (syntax, nesting depth,
//! numbers, escapes) before a visitor sees a value, so reading into this
//! tree fails exactly where and how reading into a `Value` fails; only the
//! visitor differs, and it refuses nothing. It saves the sorted map per
//! object and a copy of every string a payload holds, most of the cost of
//! reading a payload that is then judged in a few microseconds.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// One JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    /// A number: no payload field the decision reads is one.
    Number,
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Object<'a>),
}

/// An object's members in the order written, repeats included.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Object<'a>(Vec<(Cow<'a, str>, Json<'a>)>);

impl<'a> Object<'a> {
    /// The value of `key`. A key written twice has its last value, as in
    /// `serde_json::Map`.
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Reads `text` as one JSON value, with `serde_json`'s errors.
pub(crate) fn from_str(text: &str) -> serde_json::Result<Json<'_>> {
    serde_json::from_str(text)
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Json<'de>, E> {
        Ok(Json::Number)
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(s)))
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        // A hook payload's top level has five to eight members: room for
        // them at once, instead of growing from four.
        let mut members = Vec::with_capacity(8);
        while let Some(Key(key)) = map.next_key()? {
            members.push((key, map.next_value()?));
        }
        Ok(Json::Object(Object(members)))
    }
}

/// An object key, borrowed when written without escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(s)))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s.to_string())))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The tree as a `Value` (numbers as 0: the tree keeps no number).
    fn value(json: &Json<'_>) -> Value {
        match json {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number => Value::from(0),
            Json::Str(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(value).collect()),
            Json::Object(o) => {
                let mut map = serde_json::Map::new();
                for (k, v) in &o.0 {
                    map.insert(k.to_string(), value(v));
                }
                Value::Object(map)
            }
        }
    }

    fn zero_numbers(v: Value) -> Value {
        match v {
            Value::Number(_) => Value::from(0),
            Value::Array(items) => Value::Array(items.into_iter().map(zero_numbers).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, zero_numbers(v))).collect())
            }
            other => other,
        }
    }

    #[test]
    fn reads_and_fails_as_a_value_does() {
        let deep_ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        let too_deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let texts = [
            r#"{"a":1,"b":"x","c":[true,null,{"d":"e\"f"}],"a":"again"}"#,
            r#"{"k\u00e9y":"v\n","":""}"#,
            r#"[1,2,"three"]"#,
            "\"just a string\"",
            "12",
            "-1.5e3",
            "1e999",
            "null",
            "{\"a\":1}trailing",
            "{\"a\":1} ",
            "{\"a\":",
            "{\"a\" 1}",
            "{\"a\":01}",
            "{\"a\":\"\\ud800\"}",
            "{\"a\":\"\\uZZZZ\"}",
            "{\"a\":\"bad \u{1} control\"}",
            "{1:2}",
            "",
            " ",
            "{\"a\":[1,]}",
            "{\"a\":18446744073709551616}",
            "{\"a\":-9223372036854775809}",
            &deep_ok,
            &too_deep,
        ];
        for text in texts {
            let ours = from_str(text);
            let theirs: serde_json::Result<Value> = serde_json::from_str(text);
            match (ours, theirs) {
                (Ok(ours), Ok(theirs)) => assert_eq!(value(&ours), zero_numbers(theirs), "{text}"),
                (Err(ours), Err(theirs)) => {
                    assert_eq!(ours.to_string(), theirs.to_string(), "{text}")
                }
                (ours, theirs) => panic!("{text}: {ours:?} against {theirs:?}"),
            }
        }
    }

    #[test]
    fn the_last_of_a_repeated_key_wins() {
        let Ok(Json::Object(o)) = from_str(r#"{"a":"1","b":"2","a":"3"}"#) else {
            panic!("an object");
        };
        assert_eq!(o.get("a"), Some(&Json::Str("3".into())));
        assert_eq!(o.get("b"), Some(&Json::Str("2".into())));
        assert_eq!(o.get("c"), None);
    }
}
