//! The parser on its own, and the reading of whole argument lists: which subcommand runs and whether it changes warden's state.

use super::*;

static FLAGS: &[Flag] = &[
    Flag {
        long: "--cwd",
        value: Some("DIR"),
        choices: &[],
        help: "where",
    },
    Flag {
        long: "--agent",
        value: Some("NAME"),
        choices: &["hermes", "claude"],
        help: "who",
    },
];

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn values_both_ways_and_the_last_wins() {
    let p = parse(
        FLAGS,
        &args(&["--cwd", "/a", "--cwd=/b", "--agent=claude"]),
        false,
    )
    .unwrap();
    assert_eq!(p.value("--cwd"), Some("/b"));
    assert_eq!(p.value("--agent"), Some("claude"));
    assert!(!p.help);
}

#[test]
fn usage_errors_name_the_argument() {
    let err = |list: &[&str]| parse(FLAGS, &args(list), false).unwrap_err().to_string();
    assert!(err(&["--bogus"]).contains("`--bogus`"));
    assert!(err(&["--cwd"]).contains("--cwd needs a value"));
    assert!(err(&["--agent", "x"]).contains("unknown --agent value `x`"));
    assert!(err(&["positional"]).contains("`positional`"));
}

#[test]
fn help_is_a_flag_of_every_command() {
    assert!(parse(FLAGS, &args(&["--help"]), false).unwrap().help);
    assert!(parse(&[], &args(&["-h"]), false).unwrap().help);
}

fn changes(list: &[&str]) -> bool {
    read(&args(list)).changes_state()
}

#[test]
fn reading_only_runs_change_nothing() {
    for list in [
        &[][..],
        &["--agent", "claude"],
        &["--agent", "claude", "why", "--cmd", "rm -rf /"],
        &["hook"],
        &["check", "--batch"],
        &["why", "--cmd", "rm -rf /"],
        &["why", "--bogus"],
        &["rules", "list", "--json"],
        &["test", "cases.jsonl", "--cwd", "/p"],
        &["lint"],
        &["doctor", "--agent", "claude"],
        &["audit", "tail", "--lines", "5"],
        &["trust", "list"],
        &["trust", "list", "--json"],
        &["audit", "tail", "--bogus"],
        &["trust", "show", "--id", "x"],
        &["-V"],
        &["--version"],
        &["-h"],
        &["help"],
        &["help", "bless"],
        &["help", "nope"],
        &["bless", "--help"],
        &["bless", "-h"],
        &["trust", "add", "--help"],
        &["trust", "--help"],
        &["install", "--dry-run"],
        &[
            "install",
            "--agent",
            "claude",
            "--dry-run",
            "--warden",
            "/x",
        ],
        &["uninstall", "--dry-run", "--agent=codex"],
    ] {
        assert!(!changes(list), "{list:?}");
    }
}

#[test]
fn state_changing_runs_and_anything_unknown_change_state() {
    for list in [
        &["bless"][..],
        &["bless", "--cwd", "/p"],
        &["install"],
        &["install", "--agent", "claude"],
        &["uninstall"],
        &["trust", "add", "--decision", "allow"],
        &["trust", "remove", "--id", "x"],
        &["trust", "init"],
        // A switch read as another flag's value is that value.
        &["trust", "add", "--decision", "allow", "--pattern", "--help"],
        &["install", "--warden", "--dry-run"],
        &["uninstall", "--warden", "-h"],
        // Not a switch: `--dry-run=x` is a usage error, and another
        // version may read it otherwise.
        &["install", "--dry-run=1"],
        &["install", "--bogus", "--dry-run"],
        &["trust", "add", "--bogus"],
        &["trust"],
        &["trust", "frobnicate"],
        &["$SUB"],
        &["$(echo bless)"],
    ] {
        assert!(changes(list), "{list:?}");
    }
}

#[test]
fn a_written_word_that_names_no_subcommand_is_told_apart() {
    for list in [&["lnit"][..], &["reset", "--yes"], &["env", "up"]] {
        let reading = args(list);
        assert!(!changes(list), "{list:?}");
        assert_eq!(read(&reading).unknown_word(), Some(list[0]), "{list:?}");
    }
    for list in [&["$SUB"][..], &["rules"], &["--version"], &["help", "lnit"]] {
        assert_eq!(read(&args(list)).unknown_word(), None, "{list:?}");
    }
}

#[test]
fn files_read_are_operands_and_file_flags() {
    let reading = args(&["test", "a.jsonl", "--cwd", "/p", "b.jsonl"]);
    assert_eq!(read(&reading).files_read(), ["a.jsonl", "b.jsonl"]);
    let reading = args(&["audit", "stats", "--file", "/var/log/a.jsonl"]);
    assert_eq!(read(&reading).files_read(), ["/var/log/a.jsonl"]);
    let reading = args(&["why", "--path", "/etc/shadow"]);
    assert!(read(&reading).files_read().is_empty());
}

#[test]
fn every_action_and_switch_the_table_names_exists() {
    for spec in SUBCOMMANDS {
        assert!(spec.actions.is_empty() || spec.changes == Changes::Nothing);
        let all = std::iter::once(spec.changes).chain(spec.actions.iter().map(|a| a.changes));
        for changes in all {
            if let Changes::StateUnless(switch) = changes {
                let flag = spec.flags.iter().find(|f| f.long == switch);
                assert!(
                    flag.is_some_and(|f| f.value.is_none()),
                    "{}: {switch}",
                    spec.name
                );
            }
        }
        for flag in spec.reads {
            assert!(spec.flags.iter().any(|f| f.long == *flag), "{}", spec.name);
        }
    }
    assert_eq!(SUBCOMMANDS[0].sub, Sub::Hook);
}
