//! Allow rules that grant what the person never chose: the starter config (`examples/config.yaml`) holds none and decides nothing more loosely than no config at all, its commented-out examples stay inside the project, and `warden lint` names every source's allow that covers a whole file tool or paths outside the project, with file:line.

use serde_json::{json, Value};

use crate::support::{read_repo_file, repo_path, World};

tests![
    starter_config_decides_nothing_more_loosely_than_no_config,
    starter_allow_examples_uncommented_stay_inside_the_project,
    lint_names_allows_past_the_project_in_every_source,
    allows_inside_the_project_are_not_named,
];

const STARTER: &str = "home/.config/warden/config.yaml";

/// Every corpus command as a Claude Code `Bash` call, and every file the
/// built-in path rules name (their examples, read and written) as Claude
/// Code's and Hermes' file tools, from `project/`.
fn payloads(w: &World) -> Vec<Value> {
    let project = w.path("project");
    let home = w.path("home");
    let mut out = Vec::new();
    let dir = repo_path("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    for file in files {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let Ok(case) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if let Some(command) = case["command"].as_str() {
                out.push(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": command}, "cwd": project}));
            }
        }
    }
    for rule in warden::rules::files::RULES {
        for access in rule.hits.iter().chain(rule.misses) {
            let Some((verb, path)) = access.split_once(' ') else {
                continue;
            };
            let path = match path.strip_prefix("~/") {
                Some(rest) => format!("{home}/{rest}"),
                None if path.starts_with('/') => path.to_string(),
                None => format!("{project}/{path}"),
            };
            let tools: &[(&str, &str)] = match verb {
                "read" => &[("Read", "file_path"), ("read_file", "path")],
                "write" => &[("Write", "file_path"), ("write_file", "path")],
                _ => continue,
            };
            for (tool, key) in tools {
                let event = if key == &"path" {
                    "pre_tool_call"
                } else {
                    "PreToolUse"
                };
                out.push(json!({"hook_event_name": event, "tool_name": tool,
                    "tool_input": {*key: path, "content": "x"}, "cwd": project}));
            }
        }
    }
    out
}

/// The native verdict of every payload, from one `check --batch`.
fn verdicts(w: &World, payloads: &[Value], agent: &str) -> Vec<Value> {
    let input: String = payloads.iter().map(|p| format!("{p}\n")).collect();
    let out = w.run_binary(
        &["check", "--batch", "--agent", agent],
        input.as_bytes(),
        |_| {},
    );
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), payloads.len());
    lines
}

fn strictness(verdict: &Value) -> u8 {
    match verdict["action"].as_str() {
        Some("allow") => 0,
        Some("ask") => 1,
        _ => 2,
    }
}

/// The starter config may deny and ask; it never allows what warden with
/// no config at all would ask about or block, in any setting or rule, and
/// so never gives Claude Code an `allow`, which would skip its own prompt.
fn starter_config_decides_nothing_more_loosely_than_no_config() {
    let starter =
        World::new("grants/starter").file(STARTER, &read_repo_file("examples/config.yaml"));
    let bare = World::new("grants/no-config");
    let cases = payloads(&starter);
    assert!(cases.len() > 2000, "{} payloads", cases.len());
    let with = verdicts(&starter, &cases, "native");
    let without = verdicts(&bare, &payloads(&bare), "native");
    let mut looser = Vec::new();
    for ((case, a), b) in cases.iter().zip(&with).zip(&without) {
        if strictness(a) < strictness(b) || (a["action"] == "allow" && a["layer"] == "user") {
            looser.push(format!(
                "{}\n  starter: {a}\n  none:    {b}",
                case["tool_input"]
            ));
        }
    }
    assert!(
        looser.is_empty(),
        "{} looser:\n{}",
        looser.len(),
        looser.join("\n")
    );
    let claude = verdicts(&starter, &cases, "claude");
    let allowed = claude
        .iter()
        .filter(|v| v["hookSpecificOutput"]["permissionDecision"] == "allow")
        .count();
    assert_eq!(
        allowed, 0,
        "Claude Code got `allow` from the starter config"
    );
    // The read Claude Code alone asks about reaches a prompt: warden's own.
    let aws = cases
        .iter()
        .position(|c| {
            c["tool_name"] == "Read"
                && c["tool_input"]["file_path"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("/.aws/credentials"))
        })
        .expect("a Read of ~/.aws/credentials");
    assert_eq!(
        claude[aws]["hookSpecificOutput"]["permissionDecision"], "ask",
        "{}",
        claude[aws]
    );
}

/// The starter config with its allow examples uncommented: the rules load,
/// and none reaches past the project (`lint` names no grant).
fn starter_allow_examples_uncommented_stay_inside_the_project() {
    let text = read_repo_file("examples/config.yaml");
    let mut uncommented = String::new();
    let mut allows = 0;
    for line in text.lines() {
        let line = match line.strip_prefix("  # ") {
            Some(rest) if rest == "allow:" => format!("  {rest}"),
            Some(rest) if rest.starts_with("  - ") => {
                allows += 1;
                format!("  {rest}")
            }
            _ => line.to_string(),
        };
        uncommented.push_str(&line);
        uncommented.push('\n');
    }
    assert!(
        allows >= 3,
        "the starter config shows allow examples:\n{uncommented}"
    );
    let w = World::new("grants/uncommented").file(STARTER, &uncommented);
    let out = w
        .command()
        .args(["lint", "--cwd", &w.path("project")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(&format!("{allows} allow")), "{stdout}");
    assert!(!grants_named(&stdout), "{stdout}");
}

/// Whether lint's output names an allow past the project: such a warning
/// says what the rule lets through in each agent.
fn grants_named(out: &str) -> bool {
    [
        "no permission prompt of its own",
        "no objection from warden",
    ]
    .iter()
    .any(|g| out.contains(g))
}

/// `warden lint`'s output in `w`, run in `project/`.
fn lint(w: &World) -> String {
    let out = w
        .command()
        .args(["lint", "--cwd", &w.path("project")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "warnings never fail lint: {stdout}"
    );
    stdout
}

/// The warning line naming `origin`, which must say `what`.
#[track_caller]
fn named(out: &str, origin: &str, what: &[&str]) {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("warden: {origin}: allow rule")))
        .unwrap_or_else(|| panic!("no warning naming {origin}:\n{out}"));
    for needle in what {
        assert!(line.contains(needle), "no `{needle}` in {line}");
    }
}

fn lint_names_allows_past_the_project_in_every_source() {
    let w = World::new("grants/every-source")
        .file(STARTER, "# user\nrules:\n  allow:\n    - read_file\n")
        .file(
            "project/.warden.yaml",
            "rules:\n  allow:\n    - \"write_file(~/**)\"\n",
        )
        .file(
            "project/.hermes/permissions.yaml",
            "approvals:\n  rules:\n    - {tool: Read, pattern: \"../**\", decision: allow}\n",
        )
        .file(
            "etc-warden/policy.yaml",
            "\n\nrules:\n  allow:\n    - \"Edit(/**)\"\n",
        )
        .file(
            "home/.hermes/trust.json",
            r#"[{"id": "reads", "tool": "read_file", "pattern": "*", "decision": "allow"}]"#,
        )
        .file("env.yaml", "rules:\n  allow:\n    - \"*\"\n");
    let w = w.var_at("WARDEN_CONFIG", "env.yaml");
    let out = lint(&w);
    named(
        &out,
        &format!("{}:4", w.path(STARTER)),
        &[
            "`read_file`",
            "covers every file its tool reads",
            "read `~/.aws/credentials` (files.cloud-credentials)",
            "Claude Code runs Read with no permission prompt of its own",
            "Hermes runs read_file with no objection from warden where it would ask",
        ],
    );
    named(
        &out,
        &format!("{}:3", w.path("project/.warden.yaml")),
        &[
            "`write_file(~/**)`",
            "covers files outside the project",
            "write `~/.bashrc` (files.shell-startup)",
            "Claude Code runs Write and Bash writes",
            "Codex runs Bash writes",
        ],
    );
    named(
        &out,
        &format!("{}:3", w.path("project/.hermes/permissions.yaml")),
        &["`Read(../**)`", "outside the project"],
    );
    named(
        &out,
        &format!("{}:5", w.path("etc-warden/policy.yaml")),
        &[
            "`Edit(/**)`",
            "outside the project",
            "Claude Code runs Edit, MultiEdit and Bash writes",
        ],
    );
    named(
        &out,
        &format!("{}:1", w.path("home/.hermes/trust.json")),
        &["`trust.reads`", "covers every file its tool reads"],
    );
    named(
        &out,
        &format!("{}:3", w.path("env.yaml")),
        &[
            "`*`",
            "covers every call",
            "every Bash command",
            "every terminal command",
        ],
    );
}

fn allows_inside_the_project_are_not_named() {
    let w = World::new("grants/inside")
        .file(
            STARTER,
            "rules:\n  allow:\n    - \"write_file(src/**)\"\n    - \"read_file(*.md)\"\n    - \"terminal(npm test)\"\n    - tool: read_file\n      scope: docs\n    - tool: Read\n      regex: '^/srv/data/'\n    - mcp__github__*\n",
        )
        .file("project/.warden.yaml", "rules:\n  allow:\n    - \"read_file(**)\"\n    - \"Edit({src,tests}/**)\"\n");
    let out = lint(&w);
    assert!(!grants_named(&out), "{out}");
    assert!(out.contains("[0 deny, 0 ask, 6 allow"), "{out}");
    assert!(out.contains("[0 deny, 0 ask, 2 allow"), "{out}");
}
