//! The gate's generated table of literals (`src/gate/built.rs`), written and checked against every built-in regex.

use crate::gate::table;
use crate::rules::{all, Matcher};

/// Every regex of every built-in rule and every gated regex of the rules'
/// and the analyzer's own, once each.
fn patterns() -> Vec<&'static str> {
    let mut patterns: Vec<&'static str> = all()
        .flat_map(|rule| match &rule.matcher {
            Matcher::Command { args, .. } => vec![*args],
            Matcher::Verbs(rows) => rows.iter().map(|row| row.args).collect(),
            _ => Vec::new(),
        })
        .chain(super::leak::GATED)
        .chain(super::net::GATED)
        .chain(crate::shell::GATED)
        .filter(|p| !p.is_empty())
        .collect();
    patterns.sort_unstable();
    patterns.dedup();
    patterns
}

#[test]
fn the_table_of_built_in_literals_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/gate/built.rs");
    let want = table::render(&patterns());
    if std::env::var_os("WARDEN_UPDATE_EXPECTED").is_some() {
        std::fs::write(path, &want).expect("write the generated table");
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "src/gate/built.rs is out of date: run WARDEN_UPDATE_EXPECTED=1 cargo test --lib gate_table"
    );
}

#[test]
fn keys_are_distinct() {
    let mut keys: Vec<u64> = patterns().into_iter().map(table::key_of).collect();
    let count = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), count, "two built-in patterns share a key");
}

#[test]
fn every_built_in_pattern_is_in_the_table() {
    for pattern in patterns() {
        assert!(
            table::holds(pattern),
            "{pattern:?} is not in the generated table"
        );
    }
}
