//! The built-in rule tables: ids, groups and decisions, every rule's examples through the whole engine, and Hermes' category names kept.

use std::collections::HashSet;

use warden::engine::{evaluate_command, Options};
use warden::rules;
use warden::verdict::Decision;

use crate::support;

tests![
    ids_are_unique_and_well_formed,
    tables_decide_as_their_layer_says,
    every_example_is_decided_by_its_rule,
    ids_are_grouped_by_their_table,
    hermes_pattern_keys_are_rule_categories,
];

fn ids_are_unique_and_well_formed() {
    let mut seen = HashSet::new();
    for rule in rules::all() {
        let (group, name) = rule.id.split_once('.').expect("id has a group");
        let ok = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !s.starts_with('-')
                && !s.ends_with('-')
        };
        assert!(ok(group) && ok(name), "malformed id {}", rule.id);
        assert!(seen.insert(rule.id), "duplicate id {}", rule.id);
        assert!(
            !rule.category.is_empty() && !rule.reason.is_empty(),
            "{} lacks words",
            rule.id
        );
        assert!(rule.hits.len() >= 2, "{} needs at least two hits", rule.id);
        assert!(
            !rule.misses.is_empty(),
            "{} needs at least one miss",
            rule.id
        );
    }
}

fn tables_decide_as_their_layer_says() {
    for rule in rules::hardline().iter().chain(rules::sudo_guard()) {
        assert_eq!(rule.decision, Decision::Block, "{}", rule.id);
    }
    for rule in rules::dangerous() {
        assert_eq!(rule.decision, Decision::Ask, "{}", rule.id);
    }
}

fn every_example_is_decided_by_its_rule() {
    let options = Options::default();
    let mut failures = Vec::new();
    for rule in rules::all() {
        for hit in rule.hits {
            let verdict = evaluate_command(hit, &options);
            if verdict.rule_id.as_deref() != Some(rule.id) || verdict.decision != rule.decision {
                failures.push(format!(
                    "{}: hit {hit:?} got {:?} by {:?}",
                    rule.id, verdict.decision, verdict.rule_id
                ));
            }
        }
        for miss in rule.misses {
            let verdict = evaluate_command(miss, &options);
            if verdict.rule_id.as_deref() == Some(rule.id) {
                failures.push(format!("{}: miss {miss:?} was decided by it", rule.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Tables whose group is not their file's name, and why.
const GROUP_EXCEPTIONS: &[(&str, &str, &str)] = &[
    // (file, group, reason)
    (
        "fs_write",
        "fs",
        "writes are deletions' neighbours for a user: one group, two files",
    ),
    (
        "secrets",
        "net",
        "secrets leave the machine over the network",
    ),
    (
        "system",
        "sudo",
        "the sudo guard is a layer of its own, kept in system.rs beside the sudo flag rules",
    ),
];

fn ids_are_grouped_by_their_table() {
    let mut failures = Vec::new();
    let mut used = HashSet::new();
    for table in rules::tables() {
        if table.group != table.file {
            match GROUP_EXCEPTIONS
                .iter()
                .find(|(file, group, _)| *file == table.file && *group == table.group)
            {
                Some(exception) => {
                    used.insert(exception.0);
                }
                None => failures.push(format!(
                    "table {} has group {}: name the group after the file, or add an exception with its reason",
                    table.file, table.group
                )),
            }
        }
        let prefix = format!("{}.", table.group);
        for rule in table.rules {
            if !rule.id.starts_with(&prefix) {
                failures.push(format!(
                    "{} is in table {} (group {})",
                    rule.id, table.file, table.group
                ));
            }
        }
    }
    for (file, group, _) in GROUP_EXCEPTIONS {
        if !used.contains(file) {
            failures.push(format!(
                "stale exception: no table {file} with group {group}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Hermes pattern keys warden covers under another category: the hardline
/// rule that blocks the same commands, so there is no ask rule to carry the
/// key. (key, warden's category, reason)
const KEYS_COVERED_ELSEWHERE: &[(&str, &str, &str)] = &[
    (
        "write to block device",
        "redirect to raw block device",
        "a redirect onto a block device is a hardline block in warden, not an ask",
    ),
    (
        "raw block device wipe (shred/wipefs/blkdiscard/sgdisk)",
        "wipe raw block device",
        "wiping a block device is a hardline block in warden, not an ask",
    ),
];

/// A `command_allowlist` entry that names a Hermes category must name the
/// same thing in warden, so every Hermes pattern key (copied into
/// `tests/data/hermes-pattern-keys.txt`) is the category of a built-in rule.
fn hermes_pattern_keys_are_rule_categories() {
    let text = support::read_repo_file("tests/data/hermes-pattern-keys.txt");
    let keys: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert!(keys.len() >= 100, "only {} keys read", keys.len());
    let categories: HashSet<&str> = rules::all().map(|r| r.category).collect();
    let hardline: HashSet<&str> = rules::hardline().iter().map(|r| r.category).collect();
    let mut failures = Vec::new();
    for key in &keys {
        match KEYS_COVERED_ELSEWHERE.iter().find(|(k, _, _)| k == key) {
            None if !categories.contains(key) => {
                failures.push(format!("no built-in rule has category {key:?}"))
            }
            Some((_, ours, _)) if !hardline.contains(ours) => failures.push(format!(
                "{key:?} is said to be covered by {ours:?}, which is no hardline category"
            )),
            _ => {}
        }
    }
    for (key, _, _) in KEYS_COVERED_ELSEWHERE {
        if !keys.contains(key) {
            failures.push(format!("stale exception: {key:?} is not a Hermes key"));
        }
        if categories.contains(key) {
            failures.push(format!(
                "stale exception: a rule now has category {key:?}; drop it from the list"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
