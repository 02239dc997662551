//! The real `warden` binary as an agent runs it: stdin payload in, one JSON line out, diagnostics on stderr, exit 0 with a verdict.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::{self, World};

tests![
    good_payloads_print_one_line_and_nothing_on_stderr,
    hook_verdicts_reach_stdout_in_the_agents_dialect,
    malformed_payloads_block_and_explain_on_stderr,
    oversized_payload_is_blocked_naming_the_limit,
    payload_at_the_limit_is_read,
    unknown_agent_still_blocks_and_explains,
    unknown_argument_still_blocks,
    help_and_version_exit_zero,
    no_args_and_closed_stdin_blocks_as_empty,
    golden_args_files_use_only_known_flags,
    subcommands_used_wrongly_exit_2_with_no_verdict,
    a_mistyped_subcommand_fails_and_blocks,
    every_subcommand_has_help,
    why_shows_post_processing_and_the_agents_line,
    rules_list_shows_built_in_and_user_rules,
    docs_rules_page_is_the_built_in_rules,
    test_runs_every_example_and_the_case_files,
    trust_edits_hermes_trust_file_from_a_terminal_only,
];

/// `warden trust`: list, init (read-only starters), add, show, remove on
/// `~/.hermes/trust.json`; changes need a terminal; the rules added decide.
fn trust_edits_hermes_trust_file_from_a_terminal_only() {
    let w = World::new("cli/trust");
    let empty = w.run(&["trust", "list"]);
    assert_eq!(empty.code, 0, "{}", empty.stderr);
    assert!(empty.stdout.contains(": 0 trust rules"), "{}", empty.stdout);
    let refused = w.run_as(&["trust", "init"], false);
    assert_eq!(refused.code, 2, "{}", refused.stdout);
    assert!(
        refused.stderr.contains("must be run by a person"),
        "{}",
        refused.stderr
    );
    let init = w.run_as(&["trust", "init"], true);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(w.run(&["trust", "list"]).stdout.contains(": 4 trust rules"));
    // None of them reaches past the project: lint would say what it lets
    // through in each agent.
    let lint = w.run(&["lint"]);
    let granted = [
        "no permission prompt of its own",
        "no objection from warden",
    ];
    assert!(
        !granted.iter().any(|g| lint.stdout.contains(g)),
        "{}",
        lint.stdout
    );
    let again = w.run_as(&["trust", "init"], true);
    assert_eq!(again.code, 2, "init never overwrites: {}", again.stderr);
    let add = w.run_as(
        &[
            "trust",
            "add",
            "--decision",
            "deny",
            "--tool",
            "terminal",
            "--pattern",
            "npm publish*",
            "--id",
            "no-publish",
        ],
        true,
    );
    assert_eq!(add.code, 0, "{}", add.stderr);
    let shown = w.run(&["trust", "show", "--id", "no-publish"]);
    assert!(
        shown.stdout.contains("\"decision\": \"deny\""),
        "{}",
        shown.stdout
    );
    let (verdict, _) = w.hook("npm publish --access public");
    support::verdict_is(&verdict, "block", Some("trust.no-publish"));
    let remove = w.run_as(&["trust", "remove", "--id", "no-publish"], true);
    assert_eq!(remove.code, 0, "{}", remove.stderr);
    assert!(w.run(&["trust", "list"]).stdout.contains(": 4 trust rules"));
    let missing = w.run_as(&["trust", "remove", "--id", "no-publish"], true);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
}

/// `warden test`: the built-in rules' examples pass; a case file's failing
/// line is reported with file and line, and the exit code says so.
fn test_runs_every_example_and_the_case_files() {
    let good = "{\"command\": \"rm -rf /\", \"expect\": \"block\"}\n{\"command\": \"git reset --hard\", \"expect\": \"ask\"}\n{\"payload\": {\"tool_name\": \"terminal\", \"tool_input\": {\"command\": \"ls\"}}, \"expect\": \"allow\"}\n";
    let bad = "{\"command\": \"git status\", \"expect\": \"block\"}\nnot json\n";
    let w = World::new("cli/test-cases")
        .file("cases/good.jsonl", good)
        .file("cases/bad.jsonl", bad);
    let pass = w.run(&["test", &w.path("cases/good.jsonl")]);
    assert_eq!(pass.code, 0, "{}{}", pass.stdout, pass.stderr);
    assert!(
        pass.stdout.contains(" 0 failed (1 case file)"),
        "{}",
        pass.stdout
    );
    let fail = w.run(&[
        "test",
        &w.path("cases/good.jsonl"),
        &w.path("cases/bad.jsonl"),
    ]);
    assert_eq!(fail.code, 1, "{}", fail.stdout);
    assert!(
        fail.stdout
            .contains("bad.jsonl:1  git status  block  allow"),
        "{}",
        fail.stdout
    );
    assert!(fail.stdout.contains("bad.jsonl:2"), "{}", fail.stdout);
    assert!(
        fail.stdout.contains(" 2 failed (2 case files)"),
        "{}",
        fail.stdout
    );
}

/// `warden rules list`: the built-in rules with their file, the user's with
/// file and line; filters by layer and group; one JSON object per line.
fn rules_list_shows_built_in_and_user_rules() {
    let w = World::new("cli/rules-list").file(
        "home/.config/warden/config.yaml",
        "rules:\n  deny:\n    - \"terminal(git push:*)\"\n",
    );
    let all = w.run(&["rules", "list"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert!(all.stdout.contains("hardline.rm-root"), "{}", all.stdout);
    assert!(
        all.stdout.contains("src/rules/hardline.rs"),
        "{}",
        all.stdout
    );
    let user = w.run(&["rules", "list", "--layer", "user", "--json"]);
    let rows: Vec<Value> = user
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(rows.len(), 1, "{}", user.stdout);
    assert_eq!(rows[0]["decision"], "block");
    let source = rows[0]["source"].as_str().unwrap_or_default();
    assert!(source.ends_with("config.yaml:3"), "{source}");
    let git = w.run(&["rules", "list", "--group", "git", "--json"]);
    assert!(git.stdout.lines().count() > 5);
    assert!(
        git.stdout.lines().all(|l| l.contains("\"id\":\"git.")),
        "{}",
        git.stdout
    );
    let wrong = w.run(&["rules"]);
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
}

/// `docs/rules.md` is what `warden rules list --markdown` prints, so the page
/// cannot drift from the tables.
fn docs_rules_page_is_the_built_in_rules() {
    let want = warden::rules::catalog::markdown();
    let path = support::repo_path("docs/rules.md");
    if support::updating() {
        support::write_expected(&path, &want).expect("docs/rules.md is writable");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/rules.md is not the built-in rules; run `cargo run -- rules list --markdown > docs/rules.md` (or {}) and read the diff",
        support::UPDATE_COMMAND
    );
}

fn fixture(name: &str) -> PathBuf {
    support::repo_path("fixtures").join(name)
}

fn read_fixture(name: &str) -> Vec<u8> {
    let path = fixture(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Runs the binary with `args`, feeding `stdin` (None: stdin is /dev/null).
fn warden(args: &[&str], stdin: Option<Vec<u8>>) -> Output {
    // A machine of its own, shared by these tests (none writes to it), so
    // the tester's environment and policy files cannot change a verdict.
    static WORLD: OnceLock<World> = OnceLock::new();
    let mut cmd = WORLD.get_or_init(|| World::new("cli")).command();
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().expect("spawn warden");
    // Written from a thread: warden may stop reading early (an oversized
    // payload), and a blocked write must not deadlock the test.
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("stdin pipe");
        std::thread::spawn(move || {
            // A broken pipe here is warden refusing the rest, which is fine.
            let _ = pipe.write_all(&bytes);
        })
    });
    let output = child.wait_with_output().expect("wait for warden");
    if let Some(writer) = writer {
        writer.join().expect("stdin writer thread");
    }
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The hook contract: exit 0 and exactly one newline-terminated JSON object on stdout.
fn verdict(output: &Output) -> Value {
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "exit status; stdout: {stdout}; stderr: {}",
        text(&output.stderr)
    );
    let line = stdout
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("stdout does not end in a newline: {stdout:?}"));
    assert!(
        !line.is_empty() && !line.contains('\n'),
        "stdout is not exactly one line: {stdout:?}"
    );
    let value: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {line}"));
    assert!(value.is_object(), "stdout is not a JSON object: {line}");
    value
}

/// The block written when warden cannot tell which agent is calling.
fn assert_any_agent_block(value: &Value) {
    assert_eq!(value["decision"], "block", "{value}");
    assert_eq!(
        value["hookSpecificOutput"]["permissionDecision"], "deny",
        "{value}"
    );
}

fn reason(value: &Value) -> String {
    value["reason"].as_str().unwrap_or_default().to_string()
}

fn good_payloads_print_one_line_and_nothing_on_stderr() {
    let cases = [
        "hardline/rm-rf-root.json",
        "allow/git-status.json",
        "allow/echo-reboot.json",
        "dangerous/git-reset-hard.json",
        "dialects/claude-allow.json",
        "dialects/claude-deny.json",
        "dialects/codex-ask-sent-as-deny.json",
        "tools/hermes-read-file.json",
        "events/hermes-post-tool-call.json",
    ];
    for case in cases {
        let output = warden(&[], Some(read_fixture(case)));
        verdict(&output);
        assert!(
            output.stderr.is_empty(),
            "{case}: stderr should be empty, got {}",
            text(&output.stderr)
        );
    }
}

fn hook_verdicts_reach_stdout_in_the_agents_dialect() {
    let hermes = verdict(&warden(&[], Some(read_fixture("hardline/rm-rf-root.json"))));
    assert_eq!(hermes["action"], "block");

    let claude = verdict(&warden(
        &[],
        Some(read_fixture("dialects/claude-deny.json")),
    ));
    assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "deny");

    let native = verdict(&warden(
        &["--agent", "native"],
        Some(read_fixture("allow/git-status.json")),
    ));
    assert_eq!(native["action"], "allow");
    assert_eq!(native["layer"], "default");
}

fn malformed_payloads_block_and_explain_on_stderr() {
    let cases = [
        "malformed/not-json.json",
        "malformed/empty.json",
        "malformed/json-array.json",
        "malformed/missing-tool-name.json",
        "malformed/tool-input-string.json",
        "malformed/command-number.json",
        "malformed/command-missing.json",
        "malformed/non-utf8-bytes.json",
        "malformed/deeply-nested.json",
    ];
    for case in cases {
        let output = warden(&[], Some(read_fixture(case)));
        assert_any_agent_block(&verdict(&output));
        let stderr = text(&output.stderr);
        assert!(
            stderr.starts_with("warden: ") && stderr.ends_with('\n') && stderr.lines().count() == 1,
            "{case}: stderr should be one `warden:` line, got {stderr:?}"
        );
    }
}

fn oversized_payload_is_blocked_naming_the_limit() {
    let limit = warden::cli::MAX_PAYLOAD_BYTES;
    let command = "a".repeat(limit);
    let payload = serde_json::json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": command},
        "session_id": "s",
        "cwd": "/home/u/proj",
    })
    .to_string();
    assert!(payload.len() > limit);
    let output = warden(&[], Some(payload.into_bytes()));
    let value = verdict(&output);
    assert_any_agent_block(&value);
    assert!(
        reason(&value).contains(&limit.to_string()),
        "the message should name the {limit}-byte limit: {value}"
    );
    assert!(text(&output.stderr).starts_with("warden: "));

    let native = verdict(&warden(&["--agent", "native"], Some(vec![b' '; limit + 1])));
    assert_eq!(native["action"], "block");
    assert_eq!(native["rule_id"], "input.too-large");
}

fn payload_at_the_limit_is_read() {
    // Padding after the object is legal JSON whitespace, so this payload is
    // exactly MAX_PAYLOAD_BYTES long and must be judged, not refused.
    let mut payload = read_fixture("allow/git-status.json");
    payload.resize(warden::cli::MAX_PAYLOAD_BYTES, b' ');
    let value = verdict(&warden(&["--agent", "native"], Some(payload)));
    assert_eq!(value["action"], "allow", "{value}");
}

fn unknown_agent_still_blocks_and_explains() {
    let output = warden(
        &["--agent", "bogus"],
        Some(read_fixture("allow/git-status.json")),
    );
    let value = verdict(&output);
    assert_any_agent_block(&value);
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("warden: ") && stderr.contains("bogus"),
        "stderr should explain the bad flag: {stderr}"
    );
}

fn unknown_argument_still_blocks() {
    let output = warden(
        &["--agnet", "claude"],
        Some(read_fixture("allow/git-status.json")),
    );
    assert_any_agent_block(&verdict(&output));
    assert!(text(&output.stderr).contains("--agnet"));
}

fn help_and_version_exit_zero() {
    for flag in ["--help", "-h"] {
        let output = warden(&[flag], None);
        assert_eq!(output.status.code(), Some(0), "{flag}");
        assert!(text(&output.stdout).contains("USAGE"), "{flag}");
    }
    for flag in ["--version", "-V"] {
        let output = warden(&[flag], None);
        assert_eq!(output.status.code(), Some(0), "{flag}");
        assert_eq!(
            text(&output.stdout),
            format!("warden {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
    }
}

fn no_args_and_closed_stdin_blocks_as_empty() {
    let output = warden(&[], None);
    let value = verdict(&output);
    assert_any_agent_block(&value);
    assert!(reason(&value).contains("empty"), "{value}");
    assert!(text(&output.stderr).starts_with("warden: "));

    let output = warden(&[], Some(Vec::new()));
    assert_any_agent_block(&verdict(&output));

    let native = verdict(&warden(&["--agent", "native"], None));
    assert_eq!(native["action"], "block");
    assert_eq!(native["rule_id"], "input.empty");
}

/// Every `.args` file of the golden fixtures uses only flags warden knows,
/// so a typo cannot turn a dialect case into a usage-error case.
fn golden_args_files_use_only_known_flags() {
    let root = fixture("");
    let mut checked = 0;
    for group in std::fs::read_dir(&root).expect("list fixtures") {
        let group = group.expect("fixture group").path();
        if !group.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&group).expect("list group") {
            let path = file.expect("fixture file").path();
            if path.extension().and_then(|e| e.to_str()) != Some("args") {
                continue;
            }
            let content = std::fs::read_to_string(&path).expect("read args file");
            if let Err(problem) = check_args(&content) {
                panic!("{}: {problem}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no .args files found under {}", root.display());
}

fn check_args(content: &str) -> Result<(), String> {
    const AGENTS: &[&str] = &["hermes", "claude", "codex", "gemini", "copilot", "native"];
    const ON_ASK: &[&str] = &["ask", "block"];
    let mut words = content.split_whitespace().peekable();
    if words.peek() == Some(&"hook") {
        words.next();
    }
    while let Some(word) = words.next() {
        let (flag, value) = match word.split_once('=') {
            Some((flag, value)) => (flag, value),
            None => (
                word,
                words
                    .next()
                    .ok_or_else(|| format!("`{word}` without a value"))?,
            ),
        };
        let allowed = match flag {
            "--agent" => AGENTS,
            "--on-ask" => ON_ASK,
            _ => return Err(format!("unknown argument `{word}`")),
        };
        if !allowed.contains(&value) {
            return Err(format!("unknown {flag} value `{value}`"));
        }
    }
    Ok(())
}

/// A script or CI step that runs a subcommand wrongly must fail, and a
/// person must see what was wrong, not a hook verdict.
fn subcommands_used_wrongly_exit_2_with_no_verdict() {
    for args in [
        &["lint", "--bogus"][..],
        &["lint", "--cwd"],
        &["why"],
        &["why", "--cmd", "ls", "--agent", "nobody"],
        &["why", "--tool", "terminal"],
        &["bless", "extra"],
        &["help", "nothing"],
    ] {
        let output = warden(args, None);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(output.stdout.is_empty(), "{args:?}: {output:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.starts_with("warden"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--help"),
            "{args:?} should say where help is: {stderr}"
        );
    }
}

/// `warden lnit`: a typo of a subcommand, or a hook registered wrongly.
/// Either way it must not pass: exit 2, and a block for an agent.
fn a_mistyped_subcommand_fails_and_blocks() {
    let output = warden(&["lnit"], Some(read_fixture("allow/git-status.json")));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stdout = text(&output.stdout);
    let value: Value = serde_json::from_str(stdout.trim_end()).expect("a JSON block");
    assert_any_agent_block(&value);
    assert!(text(&output.stderr).contains("unknown command `lnit`"));
}

fn every_subcommand_has_help() {
    for command in ["hook", "why", "lint", "bless"] {
        for args in [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ] {
            let output = warden(&args, None);
            assert_eq!(output.status.code(), Some(0), "{args:?}");
            let stdout = text(&output.stdout);
            assert!(stdout.contains("USAGE"), "{args:?}: {stdout}");
            assert!(output.stderr.is_empty(), "{args:?}");
        }
    }
    let listing = text(&warden(&["--help"], None).stdout);
    for command in ["hook", "why", "lint", "bless"] {
        assert!(
            listing.contains(&format!("\n    {command} ")),
            "{command} in:\n{listing}"
        );
    }
}

/// `warden why` walks every stage, including post-processing, and shows
/// what the hook with the same flags would print.
fn why_shows_post_processing_and_the_agents_line() {
    let output = warden(
        &[
            "why",
            "--cmd",
            "git push -f",
            "--on-ask",
            "block",
            "--agent",
            "codex",
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = text(&output.stdout);
    let labels: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| warden::engine::STAGES.iter().any(|s| s.name == *w))
        .collect();
    let names: Vec<&str> = warden::engine::STAGES.iter().map(|s| s.name).collect();
    assert_eq!(labels, names, "every stage once, in order:\n{text}");
    assert!(
        text.contains("--on-ask block turns this ask into a block"),
        "{text}"
    );
    assert!(text.contains("verdict: block (layer dangerous"), "{text}");
    let hook = verdict(&warden(
        &["--on-ask", "block", "--agent", "codex"],
        Some(
            serde_json::json!({
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "git push -f"},
            })
            .to_string()
            .into_bytes(),
        ),
    ));
    // The hook fills in a fresh allow-once code where `why` says CODE.
    let hook = hook.to_string();
    let (before, after) = hook
        .split_once("`warden allow-once ")
        .expect("the hook offers a code");
    let hook = format!("{before}`warden allow-once CODE{}", &after[6..]);
    assert!(
        text.contains(&hook),
        "why's last line is what the hook prints ({hook}):\n{text}"
    );
}
