//! Every built-in rule's examples, run through the whole engine.

use std::collections::HashSet;

use warden::engine::{evaluate_command, Options};
use warden::rules;
use warden::verdict::Decision;

tests![
    ids_are_unique_and_well_formed,
    tables_decide_as_their_layer_says,
    every_example_is_decided_by_its_rule,
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
