//! The built-in rule tables: ids, groups and decisions, every rule's examples through the whole engine, and Hermes' category names kept.

use std::collections::HashSet;

use warden::engine::{evaluate, evaluate_command, Options};
use warden::payload::{self, ToolCall};
use warden::rules::{self, files::RULES as PATH_RULES};
use warden::verdict::{Decision, Verdict};

use crate::support;

tests![
    path_rules_are_well_formed,
    every_path_example_is_decided_by_its_rule_in_every_spelling,
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
    for rule in rules::hardline().chain(rules::sudo_guard()) {
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
        "exec_unread",
        "exec",
        "code of languages warden does not read is code execution, like the interpreters' own: one group",
    ),
    (
        "fs_write",
        "fs",
        "writes are deletions' neighbours for a user: one group, two files",
    ),
    (
        "processes",
        "hardline",
        "PID 1 signalled and power requests are the floor's class; the family's asks live beside them",
    ),
    (
        "exec_interp",
        "exec",
        "code reaching a program by an interpreter's side door is exec's: one group, two files",
    ),
    (
        "secrets",
        "net",
        "secrets leave the machine over the network",
    ),
    (
        "leak",
        "net",
        "secrets followed to the network are the same family as those in secrets.rs",
    ),
    (
        "package_sources",
        "packages",
        "where an install's code comes from is the packages family's, beside what a removal takes away",
    ),
    (
        "url",
        "net",
        "where a URL points is the network's business, beside the download rules of net.rs",
    ),
    (
        "cloud_access",
        "cloud",
        "who may reach a cloud account and what it records are the cloud's: one group, three files",
    ),
    (
        "cloud_data",
        "cloud",
        "clusters, secret stores and remote storage are the cloud's: one group, three files",
    ),
    (
        "db_admin",
        "db",
        "databases emptied through frameworks are the databases': one group, two files",
    ),
    (
        "hidden",
        "exec",
        "a command handed to another program is a way to execute one; the table is last so every other rule speaks first",
    ),
    (
        "escape",
        "containers",
        "containers used to reach the host are the container group's, in a file beside containers.rs",
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
        "a disk or other device",
        "a write onto a block device is a hardline block in warden (files.block-device), not an ask",
    ),
    (
        "redirect to raw block device",
        "a disk or other device",
        "any write onto a block device, redirect or file tool, is files.block-device in warden",
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
    // Writes are judged by where they land; their Hermes keys ride on the
    // path rules' verdicts (`command_allowlist` still exempts them).
    let categories: HashSet<&str> = rules::all()
        .map(|r| r.category)
        .chain(rules::access::hermes_categories())
        .collect();
    let hardline: HashSet<&str> = rules::hardline()
        .map(|r| r.category)
        .chain(
            PATH_RULES
                .iter()
                .filter(|r| r.write == Some(Decision::Block))
                .map(|r| r.category),
        )
        .collect();
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

fn path_rules_are_well_formed() {
    let mut seen: HashSet<&str> = rules::all().map(|r| r.id).collect();
    for rule in PATH_RULES {
        assert!(rule.id.starts_with("files."), "{}", rule.id);
        assert!(seen.insert(rule.id), "duplicate id {}", rule.id);
        assert!(
            rule.write.is_some() || rule.read.is_some(),
            "{} decides nothing",
            rule.id
        );
        assert!(rule.hits.len() >= 2, "{} needs at least two hits", rule.id);
        assert!(!rule.misses.is_empty(), "{} needs a miss", rule.id);
    }
}

/// Where path examples run: relative paths are in the project.
const HOME: &str = "/home/user";
const PROJECT: &str = "/home/user/project";

/// What a path example does: `write`, `read`, or a shell-only change.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    Write,
    Read,
    /// `rm -rf`, `mv` away.
    Delete,
    /// `chmod`, `chown`.
    Chmod,
    /// An archive unpacked, a clone, a directory's contents copied into it.
    Unpack,
    /// `mkdir`, `touch`.
    Create,
}

/// `[VAR=value ...] VERB PATH`: the facts it sets, the access, and the path.
fn path_example(example: &str) -> (Options, Verb, &str) {
    let mut options = Options::default().with_home(HOME).with_project(PROJECT);
    let mut rest = example;
    while let Some((word, tail)) = rest.split_once(' ') {
        match word.split_once('=') {
            Some(("HERMES_WRITE_SAFE_ROOT", roots)) => {
                options = options.with_safe_roots(roots.split(':').map(str::to_string).collect());
                rest = tail;
            }
            _ => break,
        }
    }
    let (access, path) = rest.split_once(' ').expect("an access and a path");
    let verb = match access {
        "write" => Verb::Write,
        "read" => Verb::Read,
        "delete" => Verb::Delete,
        "chmod" => Verb::Chmod,
        "unpack" => Verb::Unpack,
        "create" => Verb::Create,
        _ => panic!("bad example {example:?}"),
    };
    (options, verb, path)
}

/// The shell spellings of a change that only the shell makes.
fn shell_spellings(path: &str, verb: Verb) -> Vec<String> {
    let lines: &[&str] = match verb {
        Verb::Delete => &["rm -rf {}", "mv {} /tmp/aside", "rm -r -- {}"],
        Verb::Chmod => &["chmod 000 {}", "chmod -R 700 {}", "chown -R nobody {}"],
        Verb::Unpack => &[
            "tar -xzf /tmp/x.tgz -C {}",
            "unzip -o /tmp/x.zip -d {}",
            "git clone https://example.com/x.git {}",
            "rsync -a /tmp/x/ {}",
            "cp -r /tmp/x/. {}",
        ],
        Verb::Create => &["mkdir -p {}", "touch {}"],
        Verb::Write | Verb::Read => &[],
    };
    lines.iter().map(|l| l.replace("{}", path)).collect()
}

/// Every way an agent can write (or read, or change) `path`: each agent's
/// file tool, and each shell spelling.
fn spellings(path: &str, verb: Verb) -> Vec<(String, ToolCall)> {
    if !matches!(verb, Verb::Write | Verb::Read) {
        return shell_spellings(path, verb)
            .into_iter()
            .map(|line| {
                let call = ToolCall::shell(&line, Some(PROJECT.into()));
                (line, call)
            })
            .collect();
    }
    let write = verb == Verb::Write;
    let json = |s: &str| serde_json::to_string(s).expect("a string");
    let payloads: Vec<String> = if write {
        let patch = format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n");
        vec![
            format!(
                r#"{{"hook_event_name":"pre_tool_call","tool_name":"write_file","tool_input":{{"path":{}}},"cwd":"{PROJECT}"}}"#,
                json(path)
            ),
            format!(
                r#"{{"hook_event_name":"pre_tool_call","tool_name":"patch","tool_input":{{"mode":"patch","patch":{}}},"cwd":"{PROJECT}"}}"#,
                json(&patch)
            ),
            format!(
                r#"{{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":{}}},"cwd":"{PROJECT}"}}"#,
                json(path)
            ),
            format!(
                r#"{{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{{"command":{}}},"cwd":"{PROJECT}","turn_id":"t"}}"#,
                json(&patch)
            ),
        ]
    } else {
        vec![
            format!(
                r#"{{"hook_event_name":"pre_tool_call","tool_name":"read_file","tool_input":{{"path":{}}},"cwd":"{PROJECT}"}}"#,
                json(path)
            ),
            format!(
                r#"{{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{{"file_path":{}}},"cwd":"{PROJECT}"}}"#,
                json(path)
            ),
        ]
    };
    let mut out: Vec<(String, ToolCall)> = payloads
        .into_iter()
        .map(|p| {
            let call = payload::parse(&p).expect("the example payload parses");
            (p, call)
        })
        .collect();
    if write {
        for line in [
            format!("echo x > {path}"),
            format!("printf x >> {path}"),
            format!("echo x | tee -a {path}"),
            format!("cp /tmp/new {path}"),
            format!("sed -i s/a/b/ {path}"),
        ] {
            let call = ToolCall::shell(&line, Some(PROJECT.into()));
            out.push((line, call));
        }
    }
    out
}

fn every_path_example_is_decided_by_its_rule_in_every_spelling() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for rule in PATH_RULES {
        let decided = |v: &Verdict| v.rule_id.as_deref() == Some(rule.id);
        for hit in rule.hits {
            let (options, verb, path) = path_example(hit);
            let want = if verb == Verb::Read {
                rule.read
            } else {
                rule.write
            };
            for (spelling, call) in spellings(path, verb) {
                let verdict = evaluate(&call, &options);
                checked += 1;
                if !decided(&verdict) || Some(verdict.decision) != want {
                    failures.push(format!(
                        "{}: hit {hit:?} as {spelling} got {:?} by {:?}",
                        rule.id, verdict.decision, verdict.rule_id
                    ));
                }
            }
        }
        for miss in rule.misses {
            let (options, verb, path) = path_example(miss);
            for (spelling, call) in spellings(path, verb) {
                if decided(&evaluate(&call, &options)) {
                    failures.push(format!(
                        "{}: miss {miss:?} as {spelling} was decided by it",
                        rule.id
                    ));
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} spellings checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
