//! User policy across calls and through the CLI: the cache, `warden why` and `warden lint`, precedence between sources, and broken sources.
//!
//! The golden fixtures check one verdict per source format; these tests
//! check what one payload cannot: a second call, an edited file, a corrupt
//! cache, the subcommands' output. Every test builds its own fake machine
//! (`support::World`), so the real HOME (and any `.warden.yaml` above the
//! checkout) is never read. The integrity ledger has its own module, `ledger`.

use std::fs;

use crate::support::{cache_line, verdict_is, World};

tests![
    lint_reviews_shadowing_allows_duplicate_ids_and_costly_regexes,
    cache_is_written_then_hit_then_rebuilt_when_a_source_changes,
    corrupt_cache_is_rebuilt_and_said_once,
    unwritable_cache_directory_changes_no_verdict,
    deleting_a_source_drops_its_rules,
    lint_passes_a_good_config,
    lint_fails_on_examples_that_misbehave_and_the_hook_still_loads_the_rule,
    a_regex_too_large_to_build_tightens_the_whole_call_and_allows_nothing,
    lint_fails_on_an_invalid_file_with_its_line,
    why_lists_sources_competing_rules_winner_and_verdict,
    precedence_table,
    every_source_at_once,
    invalid_project_file_blocks_by_default_and_names_the_file,
    on_error_allow_lets_the_valid_rules_decide,
    on_error_ask_turns_allows_into_asks,
    policy_file_that_is_not_utf8_blocks_and_is_named,
    policy_file_that_is_a_directory_blocks_and_is_named,
    project_file_that_is_a_directory_is_reported,
    unreadable_policy_file_blocks_and_is_named,
];

const USER: &str = "home/.config/warden/config.yaml";
const PROJECT: &str = "project/.warden.yaml";
const NO_PUSH: &str = "rules:\n  deny:\n    - \"terminal(git push:*)\"\n";

/// A regex that reads but compiles past the size limit: the file loads (only
/// the syntax is checked then), and when a call meets the rule, a deny holds
/// for the whole call and an allow vouches for nothing.
fn a_regex_too_large_to_build_tightens_the_whole_call_and_allows_nothing() {
    let huge = r"\w{400}";
    assert!(
        regex::RegexBuilder::new(huge)
            .size_limit(1 << 20)
            .build()
            .is_err(),
        "{huge} must be past the size limit for this test to mean anything"
    );
    let plugin = format!("deny_patterns:\n  - pattern: '{huge}'\n    description: too big\n");
    let w =
        World::new("policy/huge-deny").file("home/.hermes/custom-dangerous-patterns.yaml", &plugin);
    let (v, _) = w.hook("ls");
    verdict_is(&v, "block", Some("plugin.deny-1"));
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert!(out.stdout.contains("too large to build"), "{out:?}");

    let allow = format!("rules:\n  allow:\n    - {{tool: terminal, regex: '{huge}'}}\n");
    let w = World::new("policy/huge-allow").file(USER, &allow);
    let (v, _) = w.hook("git reset --hard HEAD~1");
    assert_ne!(v["action"], "allow", "{v}");
    assert_ne!(
        v,
        serde_json::json!({}),
        "an allow that cannot be built vouched for the call"
    );
}

// ---------------------------------------------------------------- lint

/// `warden lint` says which built-in rule or deny an allow covers, with an
/// example; an id used in two files fails it; a costly regex is a warning.
fn lint_reviews_shadowing_allows_duplicate_ids_and_costly_regexes() {
    let user = "rules:\n  allow:\n    - \"terminal(rm:*)\"\n    - \"terminal(git reset:*)\"\n  deny:\n    - id: mine\n      regex: \"curl.{1,60}\\\\w{1,5}\"\n";
    let w = World::new("policy/lint-review").file(USER, user);
    let clean = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);
    assert!(
        clean
            .stdout
            .contains("covers `rm -rf /`, which hardline.rm-root blocks; the floor wins"),
        "{}",
        clean.stdout
    );
    assert!(
        clean.stdout.contains("lets through what git.reset-hard"),
        "{}",
        clean.stdout
    );
    assert!(
        clean
            .stdout
            .contains("rule `mine`: its pattern compiles to more than"),
        "{}",
        clean.stdout
    );
    assert!(clean.stdout.contains("warnings)"), "{}", clean.stdout);
    let shadowed = World::new("policy/lint-never").file(
        USER,
        "rules:\n  deny:\n    - read_file\n  allow:\n    - \"read_file(src/**)\"\n",
    );
    let never = shadowed.run(&["lint", "--cwd", &shadowed.path("project")]);
    assert!(
        never
            .stdout
            .contains("rule `config.allow-1` can never decide: `config.deny-1`"),
        "{}",
        never.stdout
    );
    let w = w.file(
        PROJECT,
        "rules:\n  deny:\n    - id: mine\n      pattern: \"terminal(shutdown:*)\"\n",
    );
    let twice = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(twice.code, 1, "{}", twice.stdout);
    assert!(
        twice.stdout.contains("rule id `mine` is also used at"),
        "{}",
        twice.stdout
    );
}

// ---------------------------------------------------------------- cache

fn cache_is_written_then_hit_then_rebuilt_when_a_source_changes() {
    let w = World::new("policy/cache-hit").file(USER, NO_PUSH);
    let first = w.why("git push origin main");
    assert!(
        cache_line(&first).starts_with("cache: rebuilt ("),
        "{}",
        first.stdout
    );
    let files = w.cache_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("policy-") && name.ends_with(".bin"),
        "{name}"
    );
    assert!(cache_line(&first).contains(name), "{}", first.stdout);

    let second = w.why("git push origin main");
    assert!(
        cache_line(&second).starts_with("cache: hit ("),
        "{}",
        second.stdout
    );
    let (v, err) = w.hook("git push origin main");
    verdict_is(&v, "block", Some("config.deny-1"));
    assert_eq!(err, "");

    // Same rules, other bytes: the key is the bytes, not the meaning.
    w.put(USER, format!("{NO_PUSH}# touched\n").as_bytes());
    let out = w.why("git push origin main");
    assert!(
        cache_line(&out).starts_with("cache: rebuilt ("),
        "{}",
        out.stdout
    );
    assert!(cache_line(&w.why("ls")).starts_with("cache: hit ("));

    // A real edit takes effect on the very next call.
    w.put(USER, b"rules:\n  deny:\n    - \"terminal(curl:*)\"\n");
    let (v, _) = w.hook("git push origin main");
    verdict_is(&v, "allow", None);
    let (v, _) = w.hook("curl https://example.com");
    verdict_is(&v, "block", Some("config.deny-1"));
    assert_eq!(w.cache_files().len(), 1, "one file per set of sources");
}

fn corrupt_cache_is_rebuilt_and_said_once() {
    let w = World::new("policy/cache-corrupt").file(USER, NO_PUSH);
    w.hook("ls");
    let file = w.cache_files().pop().expect("a cache file");
    let good = fs::read(&file).unwrap();
    let mut other_version = good.clone();
    other_version[8..12].copy_from_slice(&99u32.to_le_bytes());
    // A flip bincode still decodes: only the checksum can tell. The rules'
    // bytes come after the head, whose literal index also holds the text,
    // so the last occurrence is the rule's own.
    let rule_text = |bytes: &[u8]| {
        bytes
            .windows(8)
            .rposition(|w| w == b"git push")
            .expect("rule text cached")
    };
    let mut in_rule = good.clone();
    in_rule[rule_text(&good)] ^= 0x20;
    let mut in_index = good.clone();
    let first = good
        .windows(8)
        .position(|w| w == b"git push")
        .expect("literal indexed");
    assert!(first < rule_text(&good), "the index comes before the rules");
    in_index[first] ^= 0x20;
    let corruptions: [(&str, Vec<u8>); 6] = [
        ("garbage", b"not a cache file at all".repeat(40)),
        ("half", good[..good.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("other format version", other_version),
        ("flipped rule text", in_rule),
        ("flipped literal in the index", in_index),
    ];
    // A damaged file is said once, in one line, as it is rebuilt; a rule
    // whose bytes fail their own check is recompiled without a word (the
    // file's head was intact).
    let said = |err: &str| {
        err.starts_with("warden: the policy cache ")
            && err.ends_with("; it was rebuilt\n")
            && err.lines().count() == 1
    };
    for (n, (what, bytes)) in corruptions.into_iter().enumerate() {
        fs::write(&file, &bytes).unwrap();
        let (v, err) = w.hook("git push origin main");
        verdict_is(&v, "block", Some("config.deny-1"));
        if n < 4 {
            assert!(said(&err), "{what}: {err:?}");
        } else {
            assert!(err.is_empty() || said(&err), "{what}: {err:?}");
        }
        let (_, again) = w.hook("git push origin main");
        assert_eq!(again, "", "{what}: said once");
        assert_eq!(fs::read(&file).unwrap(), good, "{what}: rewritten");
        // `check --batch` holds a policy's rules in memory: each is still
        // checked as it is read, for every payload.
        fs::write(&file, &bytes).unwrap();
        let payload = serde_json::json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": "git push origin main"},
            "cwd": w.path("project"),
        })
        .to_string();
        let stream = format!("{payload}\n{payload}\n");
        let args = ["check", "--batch", "--agent", "native"].map(String::from);
        let out = warden::cli::run(&args, &mut stream.as_bytes(), &w.env(false));
        let lines: Vec<&str> = out.stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{what}: {out:?}");
        for line in lines {
            verdict_is(
                &serde_json::from_str(line).unwrap(),
                "block",
                Some("config.deny-1"),
            );
        }
        fs::write(&file, &bytes).unwrap();
        let out = w.why("git push origin main");
        assert!(
            cache_line(&out).starts_with("cache: rebuilt ("),
            "{what}: {}",
            out.stdout
        );
        assert!(
            out.stderr.is_empty() || said(&out.stderr),
            "{what}: {}",
            out.stderr
        );
    }
}

fn unwritable_cache_directory_changes_no_verdict() {
    let w = World::new("policy/cache-unwritable")
        .file(USER, NO_PUSH)
        .file(
            "not-a-dir",
            "a regular file where the cache directory should be",
        )
        .var_at("XDG_CACHE_HOME", "not-a-dir");
    for _ in 0..2 {
        let (v, _) = w.hook("git push origin main");
        verdict_is(&v, "block", Some("config.deny-1"));
        let (v, _) = w.hook("ls");
        verdict_is(&v, "allow", None);
    }
    let out = w.why("git push origin main");
    assert!(
        cache_line(&out).starts_with("cache: not written ("),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("verdict: block"), "{}", out.stdout);
}

fn deleting_a_source_drops_its_rules() {
    let w = World::new("policy/cache-delete").file(USER, NO_PUSH);
    let (v, _) = w.hook("git push origin main");
    verdict_is(&v, "block", Some("config.deny-1"));
    fs::remove_file(w.path(USER)).unwrap();
    let out = w.why("git push origin main");
    assert!(
        cache_line(&out).starts_with("cache: rebuilt ("),
        "{}",
        out.stdout
    );
    let (v, err) = w.hook("git push origin main");
    verdict_is(&v, "allow", None);
    assert_eq!(err, "");
}

// ---------------------------------------------------------------- lint

fn lint_passes_a_good_config() {
    let w = World::new("policy/lint-ok").file(
        USER,
        "rules:\n  deny:\n    - tool: terminal\n      pattern: \"git push:*\"\n      examples:\n        hits: [\"git push origin main\"]\n        misses: [\"git pull\"]\n",
    );
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("ok: 1 rules from 1 files, 2 examples")),
        "{}",
        out.stdout
    );
}

const BAD_EXAMPLES: &str = "\
rules:
  deny:
    - id: no-push
      tool: terminal
      pattern: \"git push:*\"
      examples:
        hits: [\"git push origin main\", \"git pull origin\"]
        misses: [\"git status\", \"git push --tags\"]
";

fn lint_fails_on_examples_that_misbehave_and_the_hook_still_loads_the_rule() {
    let w = World::new("policy/lint-examples").file(USER, BAD_EXAMPLES);
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(out.code, 1, "{out:?}");
    let file = w.path(USER);
    let hit = out
        .stdout
        .lines()
        .find(|l| l.contains("`git pull origin`"))
        .unwrap_or_else(|| panic!("no line for the bad hit:\n{}", out.stdout));
    assert!(hit.contains("no-push") && hit.contains(&file), "{hit}");
    assert!(hit.contains("hit but does not match"), "{hit}");
    let miss = out
        .stdout
        .lines()
        .find(|l| l.contains("`git push --tags`"))
        .unwrap_or_else(|| panic!("no line for the bad miss:\n{}", out.stdout));
    assert!(
        miss.contains("no-push") && miss.contains("miss but matches"),
        "{miss}"
    );
    assert!(!out.stdout.contains("`git status`"), "{}", out.stdout);
    assert!(!out.stdout.contains("ok:"), "{}", out.stdout);

    let (v, err) = w.hook("git push origin main");
    verdict_is(&v, "block", Some("no-push"));
    assert!(
        err.contains("no-push") && err.contains("`git pull origin`"),
        "{err}"
    );
}

fn lint_fails_on_an_invalid_file_with_its_line() {
    let w = World::new("policy/lint-invalid").file(
        PROJECT,
        "mode: autonomous\nrules:\n  deny: []\n  alow:\n    - \"terminal(ls)\"\n",
    );
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(out.code, 1, "{out:?}");
    let at = format!("{}:4", w.path(PROJECT));
    assert!(out.stdout.contains(&at), "want {at} in:\n{}", out.stdout);
}

// ---------------------------------------------------------------- why

fn why_lists_sources_competing_rules_winner_and_verdict() {
    let w = World::new("policy/why-compete").file(
        USER,
        "\
rules:
  deny:
    - id: no-npm
      tool: terminal
      pattern: \"npm:*\"
      priority: 40
  allow:
    - id: tests-ok
      tool: terminal
      pattern: npm test
      priority: 60
",
    );
    let out = w.why("npm test");
    assert_eq!(out.code, 0, "{out:?}");
    let text = &out.stdout;
    let file = w.path(USER);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("user") && l.contains(&file)),
        "source with its tier:\n{text}"
    );
    let deny = text.lines().find(|l| l.contains("no-npm")).expect(text);
    assert!(
        deny.contains(&format!("{file}:3")) && deny.contains("priority 40"),
        "{deny}"
    );
    let allow = text
        .lines()
        .find(|l| l.contains("tests-ok terminal("))
        .expect(text);
    assert!(
        allow.contains(&format!("{file}:8")) && allow.contains("priority 60"),
        "{allow}"
    );
    assert!(text.contains("winner: tests-ok (allow)"), "{text}");
    assert!(
        text.contains("verdict: allow (layer user, rule tests-ok)"),
        "{text}"
    );

    // The dangerous layer's view is listed even when a user allow won.
    let w = World::new("policy/why-dangerous")
        .file(USER, "rules:\n  allow:\n    - \"terminal(git push:*)\"\n");
    let text = w.why("git push --force origin main").stdout;
    let dangerous = text
        .lines()
        .find(|l| l.contains("git.force-push"))
        .expect(&text);
    assert!(dangerous.trim_start().starts_with("dangerous"), "{text}");
    assert!(text.contains("skipped: a user allow rule won"), "{text}");
    assert!(
        text.contains("verdict: allow (layer user, rule config.allow-1)"),
        "{text}"
    );
}

// ---------------------------------------------------------------- precedence

/// One precedence case: files, variables, a command, the expected verdict.
struct Row {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    vars: &'static [(&'static str, &'static str)],
    cmd: &'static str,
    action: &'static str,
    rule: Option<&'static str>,
    layer: &'static str,
}

const MANAGED: &str = "etc-warden/policy.yaml";
const HERMES: &str = "home/.hermes/config.yaml";
const YOLO: &[(&str, &str)] = &[("HERMES_YOLO_MODE", "1")];
/// Yolo as warden takes it: from the person's own Hermes config.
const YOLO_CONFIG: (&str, &str) = (HERMES, "approvals:\n  mode: off\n");
const CRON: &[(&str, &str)] = &[("HERMES_CRON_SESSION", "1")];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    Row { name: "priority-beats-decision",
        files: &[(USER, "rules:\n  deny:\n    - {tool: terminal, pattern: 'npm:*', id: d}\n  allow:\n    - {tool: terminal, pattern: npm test, priority: 60, id: a}\n")],
        vars: &[], cmd: "npm test", action: "allow", rule: Some("a"), layer: "user" },
    Row { name: "tie-deny-beats-ask-and-allow",
        files: &[(USER, "rules:\n  allow: ['terminal(npm test)']\n  ask: ['terminal(npm test)']\n  deny: ['terminal(npm:*)']\n")],
        vars: &[], cmd: "npm test", action: "block", rule: Some("config.deny-1"), layer: "user" },
    Row { name: "tie-ask-beats-allow",
        files: &[(USER, "rules:\n  allow: ['terminal(npm test)']\n  ask: ['terminal(npm:*)']\n")],
        vars: &[], cmd: "npm test", action: "ask", rule: Some("config.ask-1"), layer: "user" },
    Row { name: "managed-beats-higher-priority-project-and-user",
        files: &[
            (MANAGED, "rules:\n  deny:\n    - {tool: terminal, pattern: 'git push:*', priority: 1, id: m}\n"),
            (PROJECT, "rules:\n  allow:\n    - {tool: terminal, pattern: 'git push:*', priority: 100, id: p}\n"),
            (USER, "rules:\n  allow:\n    - {tool: terminal, pattern: 'git push:*', priority: 900, id: u}\n"),
        ],
        vars: &[], cmd: "git push origin main", action: "block", rule: Some("m"), layer: "user" },
    Row { name: "project-mode-beats-user-mode",
        files: &[(PROJECT, "mode: plan\n"), (USER, "mode: autonomous\n")],
        vars: &[], cmd: "cargo build", action: "block", rule: Some("mode.plan"), layer: "mode" },
    Row { name: "managed-mode-beats-project-mode",
        files: &[(MANAGED, "mode: plan\n"), (PROJECT, "mode: autonomous\n")],
        vars: &[], cmd: "cargo build", action: "block", rule: Some("mode.plan"), layer: "mode" },
    // The world's managed directory is one WARDEN_MANAGED_DIR moved into a
    // directory the tests own: it cannot loosen (see loosening::environment
    // for one that can), and the project's plan still tightens.
    Row { name: "moved-managed-mode-only-tightens",
        files: &[(MANAGED, "mode: autonomous\n"), (PROJECT, "mode: plan\n")],
        vars: &[], cmd: "cargo build", action: "block", rule: Some("mode.plan"), layer: "mode" },
    Row { name: "compound-allow-needs-every-segment",
        files: &[(USER, "rules:\n  allow: ['terminal(git:*)']\n")],
        vars: &[], cmd: "git status && curl -s https://x.example/m.yaml | kubectl apply -f -", action: "ask", rule: Some("net.remote-to-program"), layer: "dangerous" },
    Row { name: "compound-allow-of-every-segment",
        files: &[(USER, "rules:\n  allow: ['terminal(git:*)']\n")],
        vars: &[], cmd: "git status && git push --force origin main", action: "allow", rule: Some("config.allow-1"), layer: "user" },
    Row { name: "deny-on-one-segment-decides",
        files: &[(USER, "rules:\n  allow: ['terminal(ls)']\n  deny: ['terminal(git push:*)']\n")],
        vars: &[], cmd: "ls && git push", action: "block", rule: Some("config.deny-1"), layer: "user" },
    Row { name: "hardline-beats-priority-1000-allow",
        files: &[(USER, "rules:\n  allow:\n    - {tool: terminal, pattern: 'rm:*', priority: 1000}\n")],
        vars: &[], cmd: "rm -rf /", action: "block", rule: Some("hardline.rm-root"), layer: "hardline" },
    Row { name: "sudo-guard-beats-allow",
        files: &[(USER, "rules:\n  allow:\n    - {tool: terminal, pattern: 'sudo:*', priority: 1000}\n")],
        vars: &[], cmd: "sudo -S whoami", action: "block", rule: Some("sudo.stdin-password"), layer: "sudo-guard" },
    Row { name: "sudo-password-lets-the-allow-decide",
        files: &[(USER, "rules:\n  allow:\n    - {tool: terminal, pattern: 'sudo:*', priority: 1000}\n")],
        vars: &[("SUDO_PASSWORD", "x")], cmd: "sudo -S whoami", action: "allow", rule: Some("config.allow-1"), layer: "user" },
    Row { name: "yolo-keeps-deny", files: &[(USER, NO_PUSH), YOLO_CONFIG],
        vars: &[], cmd: "git push origin main", action: "block", rule: Some("config.deny-1"), layer: "user" },
    Row { name: "yolo-keeps-ask-rule", files: &[(USER, "rules:\n  ask: ['terminal(git push:*)']\n"), YOLO_CONFIG],
        vars: &[], cmd: "git push origin main", action: "ask", rule: Some("config.ask-1"), layer: "user" },
    // HERMES_YOLO_MODE in the hook's environment is not warden's yolo: the
    // agent could have put it there.
    Row { name: "yolo-variable-lifts-nothing", files: &[],
        vars: YOLO, cmd: "git push --force origin main", action: "ask", rule: Some("git.force-push"), layer: "dangerous" },
    Row { name: "approvals-mode-off-is-yolo", files: &[(HERMES, "approvals:\n  mode: off\n")],
        vars: &[], cmd: "git push --force origin main", action: "allow", rule: None, layer: "default" },
    Row { name: "approvals-mode-manual-is-not-yolo", files: &[(HERMES, "approvals:\n  mode: manual\n")],
        vars: &[], cmd: "git push --force origin main", action: "ask", rule: Some("git.force-push"), layer: "dangerous" },
    Row { name: "cron-blocks-dangerous-ask", files: &[(HERMES, "approvals:\n  mode: manual\n")],
        vars: CRON, cmd: "git push --force origin main", action: "block", rule: Some("git.force-push"), layer: "dangerous" },
    Row { name: "cron-mode-approve-allows-dangerous", files: &[(HERMES, "approvals:\n  cron_mode: approve\n")],
        vars: CRON, cmd: "git push --force origin main", action: "allow", rule: Some("git.force-push"), layer: "dangerous" },
    Row { name: "cron-mode-approve-keeps-user-ask-blocked",
        files: &[(HERMES, "approvals:\n  cron_mode: approve\n"), (USER, "rules:\n  ask: ['terminal(git push:*)']\n")],
        vars: CRON, cmd: "git push origin main", action: "block", rule: Some("config.ask-1"), layer: "user" },
    Row { name: "allowlist-exact-text", files: &[(HERMES, "command_allowlist:\n  - git push --force origin main\n")],
        vars: &[], cmd: "git push --force origin main", action: "allow", rule: Some("hermes.allowlist-1"), layer: "user" },
    Row { name: "allowlist-not-with-more-appended", files: &[(HERMES, "command_allowlist:\n  - git push --force origin main\n")],
        vars: &[], cmd: "git push --force origin main && x", action: "ask", rule: Some("git.force-push"), layer: "dangerous" },
];

fn precedence_table() {
    let mut failures = Vec::new();
    for row in ROWS {
        let mut w = World::new(&format!("policy/prec-{}", row.name));
        for (rel, text) in row.files {
            w = w.file(rel, text);
        }
        for (name, value) in row.vars {
            w = w.var(name, value);
        }
        // Twice: compiled, then from the cache.
        for pass in ["compiled", "cached"] {
            let (v, err) = w.hook(row.cmd);
            let got = (
                v["action"].as_str().unwrap_or("?"),
                v["rule_id"].as_str(),
                v["layer"].as_str().unwrap_or("?"),
            );
            if got != (row.action, row.rule, row.layer) {
                failures.push(format!(
                    "{} ({pass}): `{}` gave {got:?}, want {:?}\n  {}\n  stderr: {err}",
                    row.name,
                    row.cmd,
                    (row.action, row.rule, row.layer),
                    v["message"]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------- all sources

fn every_source_at_once() {
    let rule = |section: &str, id: &str, spec: &str| {
        format!("rules:\n  {section}:\n    - {{id: {id}, tool: terminal, pattern: '{spec}'}}\n")
    };
    let w = World::new("policy/all-sources")
        .file(MANAGED, &rule("deny", "managed-no-psql", "psql:*"))
        .file(
            PROJECT,
            &format!(
                "mode: supervised\n{}",
                rule("allow", "project-make", "make:*")
            ),
        )
        .file(
            "project/.hermes/permissions.yaml",
            &rule("ask", "perm-deploy", "./deploy.sh:*"),
        )
        .file(USER, &rule("deny", "user-no-curl", "curl:*"))
        .file(
            "home/.hermes/custom-dangerous-patterns/a.yaml",
            "deny_patterns:\n  - pattern: '^helm\\s+uninstall'\n    description: helm uninstall\n",
        )
        .file(
            "home/.hermes/custom-dangerous-patterns/b.yaml",
            "patterns:\n  - pattern: '^helm\\s+rollback'\n    description: helm rollback\n",
        )
        .file(HERMES, "command_allowlist:\n  - echo hello\n")
        .file(
            "home/.hermes/trust.json",
            r#"[{"id": "wget-ok", "tool": "terminal", "pattern": "wget *", "decision": "allow"}]"#,
        )
        .file("extra.yaml", &rule("deny", "env-no-nc", "nc:*"))
        .var_at("WARDEN_CONFIG", "extra.yaml");

    // The person trusted the project's file: its allow rule applies.
    w.trust(PROJECT);
    let text = w.why("echo hello").stdout;
    let order = [
        ("managed", MANAGED),
        ("project", PROJECT),
        ("project", "project/.hermes/permissions.yaml"),
        ("user", USER),
        ("user", "home/.hermes/custom-dangerous-patterns/a.yaml"),
        ("user", "home/.hermes/custom-dangerous-patterns/b.yaml"),
        ("user", HERMES),
        ("user", "home/.hermes/trust.json"),
        ("environment", "extra.yaml"),
    ];
    let mut last = 0;
    for (tier, rel) in order {
        let path = w.path(rel);
        let (at, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(&format!(" {path}  [")))
            .unwrap_or_else(|| panic!("{path} not listed:\n{text}"));
        assert!(line.trim_start().starts_with(tier), "{tier}: {line}");
        assert!(at > last, "{path} is out of order:\n{text}");
        last = at;
    }

    for (cmd, action, rule) in [
        ("psql -c 'select 1'", "block", Some("managed-no-psql")),
        ("make all", "allow", Some("project-make")),
        ("./deploy.sh prod", "ask", Some("perm-deploy")),
        ("curl example.com", "block", Some("user-no-curl")),
        ("helm uninstall web", "block", Some("plugin.deny-1")),
        ("helm rollback web 3", "ask", Some("plugin.pattern-1")),
        ("echo hello", "allow", Some("hermes.allowlist-1")),
        ("wget example.com", "allow", Some("trust.wget-ok")),
        ("nc -l 80", "block", Some("env-no-nc")),
        // The project's mode decides what no rule names.
        ("cargo build", "ask", Some("mode.supervised")),
    ] {
        let (v, err) = w.hook(cmd);
        assert_eq!(
            (v["action"].as_str().unwrap(), v["rule_id"].as_str()),
            (action, rule),
            "{cmd}: {v:#}\n{err}"
        );
    }
}

// ---------------------------------------------------------------- broken sources

fn invalid_project_file_blocks_by_default_and_names_the_file() {
    let w = World::new("policy/broken-default")
        .file(PROJECT, "rules: [unclosed\n")
        .file(USER, NO_PUSH);
    for cmd in ["ls", "git push origin main"] {
        let (v, err) = w.hook(cmd);
        verdict_is(&v, "block", Some("config.invalid"));
        assert_eq!(v["layer"], "config");
        assert!(err.contains(&w.path(PROJECT)), "{err}");
    }
}

fn on_error_allow_lets_the_valid_rules_decide() {
    let w = World::new("policy/broken-allow")
        .file(PROJECT, "rules: [unclosed\n")
        .file(USER, &format!("on_error: allow\n{NO_PUSH}"));
    let (v, err) = w.hook("git push origin main");
    verdict_is(&v, "block", Some("config.deny-1"));
    assert!(err.contains(&w.path(PROJECT)), "{err}");
    let (v, err) = w.hook("ls");
    verdict_is(&v, "allow", None);
    assert!(err.contains(&w.path(PROJECT)), "{err}");
    let (v, _) = w.hook("git push --force origin main && ls");
    verdict_is(&v, "block", Some("config.deny-1"));
}

fn on_error_ask_turns_allows_into_asks() {
    let w = World::new("policy/broken-ask")
        .file(PROJECT, "rules: [unclosed\n")
        .file(
            USER,
            &format!("on_error: ask\n{NO_PUSH}  allow: ['terminal(make:*)']\n"),
        );
    for cmd in ["ls", "make all"] {
        let (v, err) = w.hook(cmd);
        verdict_is(&v, "ask", Some("config.invalid"));
        assert!(err.contains(&w.path(PROJECT)), "{err}");
    }
    let (v, _) = w.hook("git push origin main");
    verdict_is(&v, "block", Some("config.deny-1"));
}

fn policy_file_that_is_not_utf8_blocks_and_is_named() {
    let w = World::new("policy/broken-utf8");
    w.put(USER, b"rules:\n  deny: ['terminal(\xff\xfe)']\n");
    let (v, err) = w.hook("ls");
    verdict_is(&v, "block", Some("config.invalid"));
    assert!(
        err.contains(&w.path(USER)) && err.contains("UTF-8"),
        "{err}"
    );
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains(&w.path(USER)), "{}", out.stdout);
}

fn policy_file_that_is_a_directory_blocks_and_is_named() {
    for rel in [USER, "etc-warden/team.yaml", HERMES] {
        let w = World::new(&format!("policy/broken-dir-{}", rel.replace('/', "-")));
        fs::create_dir_all(w.path(rel)).unwrap();
        let (v, err) = w.hook("ls");
        verdict_is(&v, "block", Some("config.invalid"));
        assert!(err.contains(&w.path(rel)), "{rel}: {err}");
    }
}

fn project_file_that_is_a_directory_is_reported() {
    let w = World::new("policy/broken-dir-project");
    fs::create_dir_all(w.path(PROJECT)).unwrap();
    let (v, err) = w.hook("ls");
    verdict_is(&v, "block", Some("config.invalid"));
    assert!(err.contains(&w.path(PROJECT)), "{err}");
}

fn unreadable_policy_file_blocks_and_is_named() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new("policy/broken-unreadable").file(USER, NO_PUSH);
    fs::set_permissions(w.path(USER), fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(w.path(USER)).is_ok() {
        eprintln!("skipped: running as a user who can read mode-000 files (root)");
        return;
    }
    let (v, err) = w.hook("ls");
    verdict_is(&v, "block", Some("config.invalid"));
    assert!(err.contains(&w.path(USER)), "{err}");
    fs::set_permissions(w.path(USER), fs::Permissions::from_mode(0o644)).unwrap();
}
