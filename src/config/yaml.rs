//! What every YAML policy reader shares: `file:line` errors and warnings, the line finder, and the small serde readers the formats have in common.
//!
//! The parsers (`warden_file`, `plugin`, `hermes`, and `spec` for rule
//! entries) depend on this module and never on each other.

pub(crate) mod lines;

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;

use crate::error::Error;

/// A [`Error::Config`] for `path`.
pub(crate) fn config_error(path: &str, line: Option<u32>, message: impl Into<String>) -> Error {
    Error::Config {
        path: path.to_string(),
        line: line.map(|l| l as usize),
        message: message.into(),
    }
}

/// Turns a serde_yaml error into [`Error::Config`], moving its position
/// into `line` so the message does not repeat it.
pub(crate) fn yaml_error(path: &str, err: &serde_yaml::Error) -> Error {
    let mut message = err.to_string();
    let location = err.location();
    if let Some(loc) = &location {
        for suffix in [
            format!(" at line {} column {}", loc.line(), loc.column()),
            format!(" at position {}", loc.index()),
        ] {
            if let Some(pos) = message.find(&suffix) {
                message.replace_range(pos..pos + suffix.len(), "");
                break;
            }
        }
    }
    // serde names a Rust type (`expected struct WardenDoc`); say what the
    // file should hold instead. Without a key path in front, the error is
    // about the document itself.
    if let Some(pos) = message.find("expected struct ") {
        let top = message.starts_with("invalid type");
        let what = if top {
            "expected a mapping at the top level"
        } else {
            "expected a mapping"
        };
        message.replace_range(pos.., what);
    }
    Error::Config {
        path: path.to_string(),
        line: location.map(|l| l.line()),
        message,
    }
}

/// A warning about a file that still loads: `path:line: message`, or
/// `path: message` when the line is not known.
pub(crate) fn warning(path: &str, line: Option<u32>, message: String) -> String {
    match line {
        Some(line) => format!("{path}:{line}: {message}"),
        None => format!("{path}: {message}"),
    }
}

/// A mapping key as text; PyYAML allows any scalar (`1:`, `true:`) as a key.
pub(crate) fn key_text(key: serde_yaml::Value) -> String {
    match key {
        serde_yaml::Value::String(s) => s,
        other => serde_yaml::to_string(&other)
            .map(|s| s.trim().to_string())
            .unwrap_or_default(),
    }
}

/// A list whose elements are each read by a seed made for their index, so
/// an element can check itself while serde_yaml still knows its line; a
/// null is an empty list.
pub(crate) struct ListSeed<F> {
    /// What the list holds, for "expected ..." in errors.
    pub(crate) expecting: String,
    pub(crate) element: F,
}

impl<'de, S, F> DeserializeSeed<'de> for ListSeed<F>
where
    S: DeserializeSeed<'de>,
    F: FnMut(usize) -> S,
{
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S, F> Visitor<'de> for ListSeed<F>
where
    S: DeserializeSeed<'de>,
    F: FnMut(usize) -> S,
{
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.expecting)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element_seed((self.element)(elements.len()))? {
            elements.push(element);
        }
        Ok(elements)
    }
}

/// A boolean as PyYAML reads it: YAML 1.1's `yes`/`no`/`on`/`off` too.
pub(crate) struct Flag(pub(crate) bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("true or false")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Flag, E> {
                Ok(Flag(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Flag, E> {
                match v {
                    "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Ok(Flag(true)),
                    "no" | "No" | "NO" | "off" | "Off" | "OFF" => Ok(Flag(false)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A scalar a Hermes file compares as text: PyYAML reads unquoted `off` as
/// `false`, so booleans count as well, and numbers become their digits.
pub(crate) enum Loose {
    Bool(bool),
    Str(String),
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Loose;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a word or a boolean")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Loose, E> {
                Ok(Loose::Bool(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Loose, E> {
                Ok(Loose::Str(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Loose, E> {
                Ok(Loose::Str(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Loose, E> {
                Ok(Loose::Str(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Loose, E> {
                Ok(Loose::Str(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A string and nothing else (serde_yaml would turn `5` into "5"; Hermes
/// would choke on a number where it expects a command).
pub(crate) struct Text(pub(crate) String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A list of strings, or a single one; null is none.
pub(crate) struct OneOrMany(pub(crate) Vec<String>);

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            One(String),
            Many(Vec<String>),
        }
        Ok(match Option::<Form>::deserialize(d)? {
            None => OneOrMany(Vec::new()),
            Some(Form::One(s)) => OneOrMany(vec![s]),
            Some(Form::Many(v)) => OneOrMany(v),
        })
    }
}

/// A struct read only from a mapping: serde would otherwise also accept a
/// list and fill the fields by position.
pub(crate) struct MapOnly<T>(pub(crate) T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for MapOnly<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: DeserializeOwned> Visitor<'de> for V<T> {
            type Value = MapOnly<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MapOnly<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(MapOnly)
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}
