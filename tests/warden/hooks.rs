//! What the user-facing docs promise: the hooks/ snippets parse, register warden on the shell tool and
//! start it with flags it accepts, the documented examples (README, docs/shell.md) are decided as they say, and the example config lints clean.

use regex::Regex;
use serde_json::Value;
use warden::cli::{self, Env};
use warden::engine::{evaluate_command, Options};

use crate::support::{self, read_repo_file, World};

tests![
    hermes_snippet,
    claude_snippet,
    codex_snippet,
    gemini_snippet,
    copilot_snippet,
    snippets_are_what_install_writes,
    a_mistyped_agent_flag_would_be_noticed,
    documented_examples_hold,
    example_config_is_the_documented_one_and_lints_clean,
    readme_rule_example_lints_and_decides,
];

/// One hook entry as a user would paste it, reduced to what the checks need.
struct Registration {
    file: &'static str,
    event: String,
    matcher: String,
    command: String,
    /// Seconds (Gemini's milliseconds, converted).
    timeout: i64,
}

fn hermes() -> (Registration, serde_yaml::Value) {
    let file = "hermes-config.yaml";
    let doc: serde_yaml::Value =
        serde_yaml::from_str(&read_repo_file(&format!("hooks/{file}"))).expect("valid YAML");
    let hooks = doc["hooks"].as_mapping().expect("a `hooks` mapping");
    assert_eq!(hooks.len(), 1, "{file}: only pre_tool_call is registered");
    let entries = doc["hooks"]["pre_tool_call"]
        .as_sequence()
        .expect("`hooks.pre_tool_call` is a list");
    assert_eq!(entries.len(), 1, "{file}: one entry");
    let entry = &entries[0];
    let registration = Registration {
        file,
        event: "pre_tool_call".into(),
        matcher: entry["matcher"].as_str().expect("matcher string").into(),
        command: entry["command"].as_str().expect("command string").into(),
        timeout: entry["timeout"].as_i64().expect("integer timeout"),
    };
    (registration, doc)
}

// Claude Code's settings.json and Codex's hooks.json share one shape
// (`PreToolUse`), and Gemini CLI's settings.json has it too (`BeforeTool`,
// its timeout in milliseconds).
fn claude_shaped(file: &'static str, event: &str) -> Registration {
    let doc: Value =
        serde_json::from_str(&read_repo_file(&format!("hooks/{file}"))).expect("valid JSON");
    let hooks = doc["hooks"].as_object().expect("a `hooks` object");
    assert_eq!(hooks.len(), 1, "{file}: only {event} is registered");
    let groups = doc["hooks"][event]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: `hooks.{event}` is an array"));
    assert_eq!(groups.len(), 1, "{file}: one matcher group");
    let group = &groups[0];
    let commands = group["hooks"]
        .as_array()
        .expect("`hooks` array in the group");
    assert_eq!(commands.len(), 1, "{file}: one command");
    let hook = &commands[0];
    assert_eq!(hook["type"], "command", "{file}: type");
    let timeout = hook["timeout"].as_i64().expect("integer timeout");
    Registration {
        file,
        event: event.into(),
        matcher: group["matcher"].as_str().expect("matcher string").into(),
        command: hook["command"].as_str().expect("command string").into(),
        timeout: if event == "BeforeTool" {
            timeout / 1000
        } else {
            timeout
        },
    }
}

/// Checks what every snippet shares, and returns the arguments warden gets.
fn check(reg: &Registration, event: &str, shell_tool: &str) -> Vec<String> {
    let file = reg.file;
    assert_eq!(reg.event, event, "{file}: event");
    // Hermes full-matches the tool name; requiring a full match here also
    // keeps Claude's and Codex's unanchored matchers from being too loose.
    let matcher = Regex::new(&format!("^(?:{})$", reg.matcher))
        .unwrap_or_else(|e| panic!("{file}: matcher is not a regex: {e}"));
    assert!(
        matcher.is_match(shell_tool),
        "{file}: matcher {:?} does not match {shell_tool}",
        reg.matcher
    );
    assert!(
        (1..=300).contains(&reg.timeout),
        "{file}: timeout {} is outside 1..=300 seconds",
        reg.timeout
    );
    let mut words = reg.command.split_whitespace();
    let program = words.next().expect("a command");
    assert_eq!(
        program.rsplit('/').next(),
        Some("warden"),
        "{file}: command {:?} does not run warden",
        reg.command
    );
    words.map(str::to_string).collect()
}

/// Runs warden in-process as the snippet would start it, on `payload`.
fn run(file: &str, args: &[String], payload: &Value) -> Value {
    let input = payload.to_string();
    let env = Env::default();
    let outcome = cli::run(args, &mut input.as_bytes(), &env);
    assert_eq!(outcome.code, 0, "{file}: exit code");
    assert_eq!(
        outcome.stderr, "",
        "{file}: warden complained about {args:?}"
    );
    let mut lines = outcome.stdout.lines();
    let line = lines.next().expect("a verdict line");
    assert_eq!(lines.next(), None, "{file}: exactly one line");
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}: verdict {line:?}: {e}"))
}

fn claude_payload(command: &str, codex: bool) -> Value {
    let mut payload = serde_json::json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    });
    if codex {
        payload["turn_id"] = "turn-1".into();
    }
    payload
}

fn hermes_snippet() {
    let (reg, doc) = hermes();
    let args = check(&reg, "pre_tool_call", "terminal");
    // Consent stays with the user: the snippet must not switch it off.
    assert_eq!(
        doc["hooks_auto_accept"].as_bool(),
        Some(false),
        "{}: hooks_auto_accept",
        reg.file
    );
    let payload = serde_json::json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": "git status"},
        "session_id": "",
        "cwd": "/tmp",
        "extra": {"task_id": "t", "tool_call_id": "c"},
    });
    let verdict = run(reg.file, &args, &payload);
    // No objection is no opinion: nothing Hermes acts on.
    assert_eq!(verdict, serde_json::json!({}), "{}", reg.file);
}

fn claude_snippet() {
    let reg = claude_shaped("claude-settings.json", "PreToolUse");
    let args = check(&reg, "PreToolUse", "Bash");
    assert_eq!(args, ["--agent", "claude"], "{}: arguments", reg.file);
    // No objection must not skip Claude's own permission prompt.
    let verdict = run(reg.file, &args, &claude_payload("git status", false));
    assert_eq!(verdict, serde_json::json!({}), "{}", reg.file);
    let verdict = run(reg.file, &args, &claude_payload("rm -rf /", false));
    assert_eq!(
        verdict["hookSpecificOutput"]["permissionDecision"], "deny",
        "{}: {verdict}",
        reg.file
    );
}

/// The snippets are documentation of `warden install`: the entry each one
/// shows is the one install writes (on a machine where Hermes cannot be
/// asked what it supports, which gets the choices safe on every release).
fn snippets_are_what_install_writes() {
    let world = World::new("hooks/install-matches-snippets");
    for dir in [
        "home/.hermes",
        "home/.claude",
        "home/.codex",
        "home/.gemini",
        "home/.copilot",
        "home/.config/opencode",
    ] {
        world.put(&format!("{dir}/.keep"), "");
    }
    let warden = "/opt/tools/warden";
    let out = world.run(&["install", "--warden", warden]);
    assert!(!out.stdout.contains("FAIL"), "{out:?}");
    let shown = |text: String| text.replace("~/.local/bin/warden", warden);

    let (snippet, _) = hermes();
    let written: serde_yaml::Value =
        serde_yaml::from_str(&world.read("home/.hermes/config.yaml")).expect("YAML");
    let want: serde_yaml::Value =
        serde_yaml::from_str(&shown(read_repo_file(&format!("hooks/{}", snippet.file))))
            .expect("YAML");
    assert_eq!(
        written["hooks"], want["hooks"],
        "hooks/hermes-config.yaml differs from what install writes"
    );
    for (file, installed) in [
        ("claude-settings.json", "home/.claude/settings.json"),
        ("codex-hooks.json", "home/.codex/hooks.json"),
        ("gemini-settings.json", "home/.gemini/settings.json"),
        ("copilot-hooks.json", "home/.copilot/hooks/warden.json"),
    ] {
        let written: Value = serde_json::from_str(&world.read(installed)).expect("JSON");
        let want: Value =
            serde_json::from_str(&shown(read_repo_file(&format!("hooks/{file}")))).expect("JSON");
        assert_eq!(
            written, want,
            "hooks/{file} differs from what install writes"
        );
    }
    // OpenCode's plugin, with warden's path written where the shipped file
    // runs the `warden` on PATH.
    let shipped = read_repo_file("hooks/opencode-warden.js");
    let want = shipped.replacen(
        "const WARDEN = \"warden\";",
        &format!("const WARDEN = \"{warden}\";"),
        1,
    );
    assert_ne!(
        want, shipped,
        "hooks/opencode-warden.js names no `warden` to replace"
    );
    assert_eq!(
        world.read("home/.config/opencode/plugin/warden.js"),
        want,
        "hooks/opencode-warden.js differs from what install writes"
    );
}

fn codex_snippet() {
    let reg = claude_shaped("codex-hooks.json", "PreToolUse");
    let args = check(&reg, "PreToolUse", "Bash");
    assert_eq!(args, ["--agent", "codex"], "{}: arguments", reg.file);
    // Codex counts an `allow` as a failed hook: no objection is `{}`.
    let verdict = run(reg.file, &args, &claude_payload("git status", true));
    assert_eq!(verdict, serde_json::json!({}), "{}", reg.file);
    let verdict = run(reg.file, &args, &claude_payload("rm -rf /", true));
    assert_eq!(
        verdict["hookSpecificOutput"]["permissionDecision"], "deny",
        "{}: {verdict}",
        reg.file
    );
}

fn gemini_snippet() {
    let reg = claude_shaped("gemini-settings.json", "BeforeTool");
    let args = check(&reg, "BeforeTool", "run_shell_command");
    assert_eq!(args, ["--agent", "gemini"], "{}: arguments", reg.file);
    // Gemini searches with its matcher: anchored, it takes no longer name.
    let matcher = Regex::new(&reg.matcher).expect("a regex");
    assert!(
        !matcher.is_match("str_replace_x"),
        "{}: unanchored",
        reg.file
    );
    let payload = |command: &str| {
        serde_json::json!({"session_id": "s1", "transcript_path": "", "cwd": "/tmp",
            "hook_event_name": "BeforeTool", "timestamp": "2026-11-27T11:20:12.150Z",
            "tool_name": "run_shell_command", "tool_input": {"command": command}})
    };
    let verdict = run(reg.file, &args, &payload("git status"));
    assert_eq!(verdict, serde_json::json!({}), "{}", reg.file);
    let verdict = run(reg.file, &args, &payload("rm -rf /"));
    assert_eq!(verdict["decision"], "deny", "{}: {verdict}", reg.file);
}

/// Copilot CLI's own hook file: a flat `preToolUse` list of entries with
/// no matcher (every tool call reaches warden), `bash` the command line and
/// `timeoutSec` in seconds.
fn copilot_snippet() {
    let file = "copilot-hooks.json";
    let doc: Value =
        serde_json::from_str(&read_repo_file(&format!("hooks/{file}"))).expect("valid JSON");
    assert_eq!(doc["version"], 1, "{file}: version");
    let entries = doc["hooks"]["preToolUse"]
        .as_array()
        .expect("a preToolUse list");
    assert_eq!(entries.len(), 1, "{file}: one entry");
    let entry = &entries[0];
    assert_eq!(entry["type"], "command", "{file}: type");
    let reg = Registration {
        file,
        event: "preToolUse".into(),
        matcher: "bash".into(),
        command: entry["bash"].as_str().expect("bash string").into(),
        timeout: entry["timeoutSec"].as_i64().expect("integer timeoutSec"),
    };
    let args = check(&reg, "preToolUse", "bash");
    assert_eq!(args, ["--agent", "copilot"], "{file}: arguments");
    let payload = |command: &str| {
        serde_json::json!({"sessionId": "s1", "timestamp": 1795778606524_u64, "cwd": "/tmp",
            "toolName": "bash", "toolArgs": {"command": command, "description": "run"}})
    };
    let verdict = run(file, &args, &payload("git status"));
    assert_eq!(verdict, serde_json::json!({}), "{file}");
    let verdict = run(file, &args, &payload("rm -rf /"));
    assert_eq!(verdict["permissionDecision"], "deny", "{file}: {verdict}");
}

fn a_mistyped_agent_flag_would_be_noticed() {
    // The checks above rely on warden refusing unknown flags; if it ever
    // accepted anything, a typo in a snippet would pass unnoticed.
    let args = ["--agent".to_string(), "claude-code".to_string()];
    let input = claude_payload("git status", false).to_string();
    let outcome = cli::run(&args, &mut input.as_bytes(), &Env::default());
    assert!(outcome.stderr.starts_with("warden: "), "{}", outcome.stderr);
    let verdict: Value = serde_json::from_str(outcome.stdout.trim()).expect("JSON verdict");
    assert_eq!(verdict["decision"], "block");
}

/// The documentation files whose example tables are checked.
const EXAMPLE_FILES: &[&str] = &["README.md", "docs/shell.md"];

/// The rows of a file's example tables (between `<!-- examples:start -->`
/// and `<!-- examples:end -->`): (command, decision). Cells are split on
/// ` | `; inside a command, `\|` is a pipe (Markdown's escape) and `` `⏎` ``
/// between code spans is a newline.
fn documented_examples(file: &str) -> Vec<(String, String)> {
    let text = read_repo_file(file);
    let mut rows = Vec::new();
    for block in text.split("<!-- examples:start -->").skip(1) {
        let block = block
            .split("<!-- examples:end -->")
            .next()
            .filter(|_| block.contains("<!-- examples:end -->"))
            .unwrap_or_else(|| panic!("{file}: an examples block without its end marker"));
        rows.extend(block.lines().filter_map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split(" | ").collect();
            let cell = cells
                .first()?
                .trim()
                .replace("`⏎`", "\n")
                .replace("\\|", "|");
            let command = cell.strip_prefix('`')?.strip_suffix('`')?;
            Some((command.to_string(), cells.get(1)?.trim().to_string()))
        }));
    }
    rows
}

fn documented_examples_hold() {
    let mut failures = Vec::new();
    for file in EXAMPLE_FILES {
        let examples = documented_examples(file);
        assert!(examples.len() >= 5, "{file} examples: {examples:?}");
        for (command, want) in &examples {
            let verdict = evaluate_command(command, &Options::default());
            if verdict.decision.as_str() != want {
                failures.push(format!(
                    "{file}: {command:?}: the page says {want}, warden says {} ({:?})",
                    verdict.decision.as_str(),
                    verdict.rule_id
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} documented examples do not hold:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The commented example config in docs/configuration.md is `examples/config.yaml`
/// (what `install.sh` installs), and it lints clean: every rule loads and
/// every example behaves as declared.
fn example_config_is_the_documented_one_and_lints_clean() {
    let example = read_repo_file("examples/config.yaml");
    let page = read_repo_file("docs/configuration.md");
    let block = page
        .split("<!-- example-config:start -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- example-config:end -->").next())
        .expect("docs/configuration.md has the example-config markers");
    let block = block
        .trim_start()
        .strip_prefix("```yaml\n")
        .and_then(|b| b.trim_end().strip_suffix("```"))
        .expect("the example config is a ```yaml block");
    assert_eq!(
        block, example,
        "docs/configuration.md's example config differs from examples/config.yaml"
    );

    let w = World::new("hooks/example-config").var(
        "WARDEN_CONFIG",
        &support::repo_path("examples/config.yaml")
            .display()
            .to_string(),
    );
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(out.code, 0, "warden lint: {}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("ok: "), "{}", out.stdout);
}

/// The rules the README shows under "Adding a rule" load, pass their own
/// examples, and decide as the README says.
fn readme_rule_example_lints_and_decides() {
    let readme = read_repo_file("README.md");
    let yaml = readme
        .split("## Adding a rule")
        .nth(1)
        .and_then(|rest| rest.split("```yaml\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("README's \"Adding a rule\" has a ```yaml block");
    let w = World::new("hooks/readme-rules").file("home/.config/warden/config.yaml", yaml);
    let out = w.run(&["lint", "--cwd", &w.path("project")]);
    assert_eq!(out.code, 0, "warden lint: {}{}", out.stdout, out.stderr);
    for (command, want) in [
        ("git push --force origin feature", "block"),
        ("cd infra && terraform destroy -auto-approve", "block"),
        ("kubectl apply -f deploy.yaml", "ask"),
        ("make deploy-staging", "allow"),
    ] {
        let out = w.run(&["why", "--cmd", command, "--cwd", &w.path("project")]);
        let verdict = out
            .stdout
            .lines()
            .find(|l| l.starts_with("verdict: "))
            .unwrap_or_else(|| panic!("no verdict line:\n{}", out.stdout));
        assert!(
            verdict.starts_with(&format!("verdict: {want} (layer user")),
            "{command}: {verdict}"
        );
    }
}
