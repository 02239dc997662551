//! The integrity ledger seen from the hook and the CLI: protected rules that are removed, changed or deleted stay enforced until `warden bless` from a terminal.
//!
//! Each test builds a fake machine (`support::World`), so the real HOME is
//! never read.

use serde_json::Value;

use crate::support::{verdict_is, World};

tests![
    removed_protected_rule_stays_enforced_until_blessed_from_a_terminal,
    changed_protected_rule_keeps_the_recorded_one,
    changed_counts_are_noted_once,
    deleted_file_with_a_protected_rule_stays_enforced_until_blessed,
    plugin_directory_shadowed_by_a_single_file_still_enforces,
    protected_rule_of_a_broken_file_holds_under_on_error_allow,
    disabling_a_protected_plugin_entry_does_not_lift_it,
    adding_a_protected_rule_needs_no_blessing,
    deleted_managed_file_keeps_its_rules_managed,
    corrupt_ledger_is_reported_on_every_call_and_repaired_by_bless,
];

const PLUGIN: &str = "home/.hermes/custom-dangerous-patterns.yaml";
const USER: &str = "home/.config/warden/config.yaml";
const PROTECTED_PLUGIN: &str = "\
deny_patterns:
  - pattern: 'terraform\\s+destroy'
    description: x
    protected: true
";
const PROTECTED_USER: &str = "\
rules:
  deny:
    - id: no-destroy
      tool: terminal
      pattern: \"terraform destroy:*\"
      protected: true
";
/// What `terraform destroy` gets with no user rule: the built-in ask.
const BUILT_IN: &str = "containers.infra-destroy";

fn removed_protected_rule_stays_enforced_until_blessed_from_a_terminal() {
    let w = World::new("ledger/removed").file(PLUGIN, PROTECTED_PLUGIN);
    let (v, err) = w.hook("terraform destroy");
    verdict_is(&v, "block", Some("plugin.deny-1"));
    assert_eq!(err, "", "a first sighting is recorded silently");
    let ledger = String::from_utf8(w.ledger().expect("ledger written")).unwrap();
    assert!(
        ledger.contains(&w.path(PLUGIN)) && ledger.contains("terraform"),
        "{ledger}"
    );

    w.put(PLUGIN, "deny_patterns: []\n");
    for call in ["rebuilt", "cached"] {
        let (v, err) = w.hook("terraform destroy");
        verdict_is(&v, "block", Some("plugin.deny-1"));
        assert_eq!(v["layer"], "user");
        assert!(
            err.contains("plugin.deny-1") && err.contains("until `warden bless`"),
            "{call}: {err}"
        );
    }

    // An agent's tool call has no terminal: refused, nothing changes.
    let before = w.ledger();
    let out = w.bless(false);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("terminal"), "{out:?}");
    assert_eq!(w.ledger(), before, "the ledger was touched");
    let (v, _) = w.hook("terraform destroy");
    verdict_is(&v, "block", Some("plugin.deny-1"));

    let out = w.bless(true);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(&format!(
            "blessed {}: 0 protected rules (was 1)",
            w.path(PLUGIN)
        )),
        "{}",
        out.stdout
    );
    let (v, err) = w.hook("terraform destroy");
    verdict_is(&v, "ask", Some(BUILT_IN));
    assert_eq!(err, "");
    let out = w.bless(true);
    assert!(out.stdout.contains("nothing to bless"), "{}", out.stdout);
}

fn changed_protected_rule_keeps_the_recorded_one() {
    let w = World::new("ledger/changed").file(USER, PROTECTED_USER);
    let (v, _) = w.hook("terraform destroy -auto-approve");
    verdict_is(&v, "block", Some("no-destroy"));

    w.put(
        USER,
        PROTECTED_USER.replace("terraform destroy", "terraform apply"),
    );
    let (v, err) = w.hook("terraform destroy -auto-approve");
    verdict_is(&v, "block", Some("no-destroy"));
    assert!(err.contains("the rule was changed"), "{err}");
    let (v, _) = w.hook("terraform apply");
    verdict_is(&v, "block", Some("no-destroy"));

    assert_eq!(w.bless(true).code, 0);
    let (v, _) = w.hook("terraform destroy -auto-approve");
    verdict_is(&v, "ask", Some(BUILT_IN));
    let (v, _) = w.hook("terraform apply");
    verdict_is(&v, "block", Some("no-destroy"));
}

fn changed_counts_are_noted_once() {
    let w = World::new("ledger/counts").file(USER, PROTECTED_USER);
    w.hook("ls");
    w.put(
        USER,
        format!(
            "{PROTECTED_USER}    - \"terminal(curl:*)\"\n  allow:\n    - \"terminal(make:*)\"\n"
        ),
    );
    let (_, err) = w.hook("ls");
    let note = err
        .lines()
        .find(|l| l.contains("changed since it was last seen"))
        .unwrap_or_else(|| panic!("no note: {err}"));
    assert!(note.contains(&w.path(USER)), "{note}");
    assert!(
        note.contains("1 deny, 0 ask, 0 allow") && note.contains("-> 2 deny, 0 ask, 1 allow"),
        "{note}"
    );
    let (_, err) = w.hook("ls");
    assert_eq!(err, "", "the note is said once");
    let (_, err) = w.hook("git status");
    assert_eq!(err, "");
}

fn deleted_file_with_a_protected_rule_stays_enforced_until_blessed() {
    for (rel, text, rule) in [
        (PLUGIN, PROTECTED_PLUGIN, "plugin.deny-1"),
        (USER, PROTECTED_USER, "no-destroy"),
    ] {
        let w = World::new(&format!("ledger/deleted-{}", rel.replace('/', "-")))
            .file(rel, text)
            .file("home/.hermes/config.yaml", "command_allowlist: [ls]\n");
        verdict_is(&w.hook("terraform destroy").0, "block", Some(rule));
        w.rm(rel);
        let (v, err) = w.hook("terraform destroy");
        verdict_is(&v, "block", Some(rule));
        assert!(
            err.contains("the file is gone") && err.contains(&w.path(rel)),
            "{err}"
        );
        assert_eq!(w.bless(false).code, 2);
        verdict_is(&w.hook("terraform destroy").0, "block", Some(rule));

        let out = w.bless(true);
        assert_eq!(out.code, 0, "{out:?}");
        let forgot = format!("forgot {} (file is gone)", w.path(rel));
        assert!(out.stdout.contains(&forgot), "{}", out.stdout);
        verdict_is(&w.hook("terraform destroy").0, "ask", Some(BUILT_IN));
    }
}

fn plugin_directory_shadowed_by_a_single_file_still_enforces() {
    let w = World::new("ledger/shadowed").file(
        "home/.hermes/custom-dangerous-patterns/team.yaml",
        PROTECTED_PLUGIN,
    );
    verdict_is(
        &w.hook("terraform destroy").0,
        "block",
        Some("plugin.deny-1"),
    );
    // The single file wins over the directory: the team file is no longer read.
    w.put(PLUGIN, "patterns: []\n");
    let (v, err) = w.hook("terraform destroy");
    verdict_is(&v, "block", Some("plugin.deny-1"));
    assert!(err.contains("team.yaml"), "{err}");
}

fn protected_rule_of_a_broken_file_holds_under_on_error_allow() {
    let w = World::new("ledger/broken")
        .file(
            "project/.warden.yaml",
            &PROTECTED_USER.replace("no-destroy", "p"),
        )
        .file(USER, "on_error: allow\n");
    verdict_is(&w.hook("terraform destroy").0, "block", Some("p"));
    w.put("project/.warden.yaml", "rules: [unclosed\n");
    let (v, err) = w.hook("terraform destroy");
    verdict_is(&v, "block", Some("p"));
    assert!(err.contains("could not be loaded"), "{err}");
    verdict_is(&w.hook("ls").0, "allow", None);
    // Blessing keeps what it cannot read.
    let out = w.bless(true);
    assert!(
        out.stdout.contains("kept the recorded state"),
        "{}",
        out.stdout
    );
    verdict_is(&w.hook("terraform destroy").0, "block", Some("p"));
}

fn disabling_a_protected_plugin_entry_does_not_lift_it() {
    let w = World::new("ledger/disabled").file(PLUGIN, PROTECTED_PLUGIN);
    verdict_is(
        &w.hook("terraform destroy").0,
        "block",
        Some("plugin.deny-1"),
    );
    w.put(PLUGIN, format!("{PROTECTED_PLUGIN}    enabled: false\n"));
    let (v, err) = w.hook("terraform destroy");
    verdict_is(&v, "block", Some("plugin.deny-1"));
    assert!(err.contains("until `warden bless`"), "{err}");
}

fn adding_a_protected_rule_needs_no_blessing() {
    let w = World::new("ledger/added").file(USER, "rules:\n  deny: ['terminal(curl:*)']\n");
    w.hook("ls");
    w.put(USER, PROTECTED_USER);
    let (v, err) = w.hook("terraform destroy");
    verdict_is(&v, "block", Some("no-destroy"));
    assert!(!err.contains("warden bless"), "{err}");
    verdict_is(&w.hook("curl x").0, "allow", None);
}

fn deleted_managed_file_keeps_its_rules_managed() {
    let w = World::new("ledger/managed-deleted")
        .file(
            "etc-warden/policy.yaml",
            "rules:\n  deny:\n    - {id: m, tool: terminal, pattern: 'git push:*', priority: 1, protected: true}\n",
        )
        .file(
            "project/.warden.yaml",
            "rules:\n  allow:\n    - {id: p, tool: terminal, pattern: 'git push:*', priority: 100}\n",
        );
    verdict_is(&w.hook("git push origin main").0, "block", Some("m"));
    w.rm("etc-warden/policy.yaml");
    let (v, err) = w.hook("git push origin main");
    assert!(err.contains("the file is gone"), "{err}");
    verdict_is(&v, "block", Some("m"));
}

fn corrupt_ledger_is_reported_on_every_call_and_repaired_by_bless() {
    let w = World::new("ledger/corrupt").file(USER, PROTECTED_USER);
    w.hook("ls");
    w.put("state/warden/ledger.json", "{ not json");
    for _ in 0..2 {
        let (v, err) = w.hook("terraform destroy");
        verdict_is(&v, "block", Some("no-destroy"));
        assert!(
            err.contains("ledger") && err.contains("warden bless"),
            "{err}"
        );
    }
    assert_eq!(w.bless(true).code, 0);
    let repaired: Value = serde_json::from_slice(&w.ledger().unwrap()).unwrap();
    assert!(
        repaired["sources"][w.path(USER)].is_object(),
        "{repaired:#}"
    );
    let (_, err) = w.hook("terraform destroy");
    assert_eq!(err, "");
}
