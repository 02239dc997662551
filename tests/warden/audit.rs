//! The audit log through the real binary: one redacted line per decision, written after the verdict, rotated, never changing a verdict; `warden audit tail|stats`.

use std::io::Write;
use std::process::Output;

use serde_json::{json, Value};

use crate::support::World;

tests![
    each_decision_is_one_redacted_line,
    a_log_that_cannot_be_written_changes_no_verdict,
    only_the_users_own_config_chooses_the_log,
    the_agent_cannot_touch_the_log,
    the_log_rotates_by_size,
    processes_at_once_never_interleave_lines,
    audit_commands_read_the_log,
    an_agent_that_stopped_reading_still_gets_its_line_logged,
];

fn world(name: &str, audit: &str) -> World {
    World::new(name).file("home/.config/warden/config.yaml", audit)
}

fn hook(w: &World, payload: &Value) -> Output {
    w.run_binary(&[], payload.to_string().as_bytes(), |_| {})
}

/// Calls whose log entries show each decision and each kind of redaction:
/// allowed, blocked, asked, secrets in a command, a file tool's path.
pub fn sample_calls(w: &World) -> [Value; 5] {
    [
        terminal(w, "git status"),
        terminal(w, "rm -rf /"),
        terminal(w, "git push --force origin main"),
        terminal(
            w,
            "curl -H 'Authorization: Bearer tok_live_123' https://api.example.com/v1 && export DB_PASSWORD=hunter2",
        ),
        json!({
            "session_id": "claude-1", "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": w.path("home/.bashrc"), "content": "x"},
            "cwd": w.path("project"),
        }),
    ]
}

/// A Hermes terminal call in the world's project.
pub fn terminal(w: &World, command: &str) -> Value {
    json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": command},
        "session_id": "sess-1",
        "cwd": w.path("project"),
    })
}

fn lines(w: &World, rel: &str) -> Vec<Value> {
    w.read(rel)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn each_decision_is_one_redacted_line() {
    let w = world("audit/lines", "audit:\n  path: ~/audit/log.jsonl\n");
    let calls = sample_calls(&w);
    let mut verdicts = Vec::new();
    for call in &calls {
        let out = hook(&w, call);
        assert!(out.status.success());
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        verdicts.push(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    assert!(verdicts[1].contains("\"block\""), "{}", verdicts[1]);
    let log = lines(&w, "home/audit/log.jsonl");
    assert_eq!(log.len(), calls.len());
    let decisions: Vec<&str> = log
        .iter()
        .map(|e| e["decision"].as_str().unwrap())
        .collect();
    assert_eq!(decisions, ["allow", "block", "ask", "allow", "ask"]);
    assert_eq!(log[1]["rule"], "hardline.rm-root");
    assert_eq!(log[1]["layer"], "hardline");
    assert_eq!(log[1]["agent"], "hermes");
    assert_eq!(log[1]["session"], "sess-1");
    assert_eq!(log[1]["tool"], "terminal");
    assert_eq!(log[1]["command"], "rm -rf /");
    assert!(log[0].get("rule").is_none());
    let redacted = log[3]["command"].as_str().unwrap();
    assert!(
        !redacted.contains("tok_live_123") && !redacted.contains("hunter2"),
        "{redacted}"
    );
    assert!(redacted.contains("[REDACTED]"), "{redacted}");
    assert_eq!(log[4]["agent"], "claude");
    assert_eq!(log[4]["paths"][0], w.path("home/.bashrc"));
    assert!(log[4]["time"].as_str().unwrap().ends_with('Z'));
}

fn a_log_that_cannot_be_written_changes_no_verdict() {
    let w = world("audit/unwritable", "audit:\n  path: ~/dir-in-the-way\n")
        .file("home/dir-in-the-way/x", "");
    let blocked = hook(&w, &terminal(&w, "rm -rf /"));
    assert!(blocked.status.success());
    let stdout = String::from_utf8_lossy(&blocked.stdout);
    assert!(stdout.contains("\"block\""), "{stdout}");
    assert_eq!(stdout.lines().count(), 1);
    let stderr = String::from_utf8_lossy(&blocked.stderr);
    assert!(
        stderr.contains("audit log not written") && stderr.contains("dir-in-the-way"),
        "{stderr}"
    );
    let allowed = hook(&w, &terminal(&w, "git status"));
    assert_eq!(String::from_utf8_lossy(&allowed.stdout).trim(), "{}");
    // A full disk: the write fails after the verdict is out.
    #[cfg(target_os = "linux")]
    {
        let w = world("audit/full", "audit:\n  path: /dev/full\n");
        let out = hook(&w, &terminal(&w, "rm -rf /"));
        assert!(String::from_utf8_lossy(&out.stdout).contains("\"block\""));
        assert!(String::from_utf8_lossy(&out.stderr).contains("/dev/full"));
    }
}

fn only_the_users_own_config_chooses_the_log() {
    let w = World::new("audit/project")
        .file("project/.warden.yaml", "audit:\n  path: ../home/.bashrc\n");
    let (verdict, stderr) = w.hook("git status");
    assert_eq!(verdict["action"], "allow", "{verdict}");
    assert!(
        stderr.contains("`audit` is ignored in a project file"),
        "{stderr}"
    );
    assert!(!std::path::Path::new(&w.path("home/.bashrc")).exists());
    // Bad values are config errors with the line, like any other key.
    let w = world("audit/bad", "audit:\n  keep: 1000\n");
    let (verdict, stderr) = w.hook("git status");
    assert_eq!(verdict["action"], "block", "{verdict}");
    assert!(
        stderr.contains("config.yaml:2: audit.keep is 1000"),
        "{stderr}"
    );
    let w = world("audit/unknown", "audit:\n  path: x\n  rotate: daily\n");
    let (_, stderr) = w.hook("git status");
    assert!(stderr.contains("rotate"), "{stderr}");
}

fn the_agent_cannot_touch_the_log() {
    let w = world(
        "audit/guard",
        "audit:\n  path: ~/logs/audit.jsonl\n  keep: 2\n",
    );
    for command in [
        "rm ~/logs/audit.jsonl",
        ": > ~/logs/audit.jsonl",
        "rm ~/logs/audit.jsonl.2",
        "sed -i /rm/d ~/logs/audit.jsonl",
    ] {
        let (verdict, _) = w.hook(command);
        assert_eq!(verdict["action"], "block", "{command}: {verdict}");
        assert_eq!(verdict["rule_id"], "files.guard", "{command}: {verdict}");
    }
    let (verdict, _) = w.hook("cat ~/logs/audit.jsonl");
    assert_eq!(verdict["action"], "allow", "{verdict}");
}

fn the_log_rotates_by_size() {
    let w = world("audit/rotate", "audit:\n  max_bytes: 4096\n  keep: 1\n");
    for n in 0..60 {
        let out = hook(
            &w,
            &terminal(&w, &format!("echo line-{n} {}", "x".repeat(100))),
        );
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let current = std::path::PathBuf::from(w.path("state/warden/audit.jsonl"));
    let rotated = std::path::PathBuf::from(w.path("state/warden/audit.jsonl.1"));
    for file in [&current, &rotated] {
        let len = std::fs::metadata(file).unwrap().len();
        assert!(len > 0 && len <= 4096, "{}: {len}", file.display());
    }
    assert!(!std::path::Path::new(&w.path("state/warden/audit.jsonl.2")).exists());
    let last = lines(&w, "state/warden/audit.jsonl");
    assert!(last.last().unwrap()["command"]
        .as_str()
        .unwrap()
        .starts_with("echo line-59 "));
}

fn processes_at_once_never_interleave_lines() {
    let w = world("audit/race", "audit:\n  max_bytes: 8192\n  keep: 50\n");
    let children: Vec<_> = (0..24)
        .map(|n| {
            let mut child = w.spawn(&[]);
            let payload = terminal(&w, &format!("echo {n} {}", "y".repeat(300)));
            child
                .stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes())
                .unwrap();
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "{}");
    }
    let out = w.run(&["audit", "stats", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let stats: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(stats["decisions"], 24, "{stats}");
    assert_eq!(stats["unreadable_lines"], 0, "{stats}");
}

fn audit_commands_read_the_log() {
    let w = World::new("audit/none");
    let none = w.run(&["audit", "stats"]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr.contains("no audit log is configured"),
        "{}",
        none.stderr
    );

    let w = world("audit/read", "audit: {}\n");
    for command in ["git status", "rm -rf /", "git push -f", "git push -f", "ls"] {
        hook(&w, &terminal(&w, command));
    }
    let tail = w.run(&["audit", "tail", "--lines", "2"]);
    assert_eq!(tail.code, 0, "{}", tail.stderr);
    let shown: Vec<&str> = tail.stdout.lines().collect();
    assert_eq!(shown.len(), 2, "{}", tail.stdout);
    assert!(
        shown[0].contains("ask") && shown[0].contains("git push -f"),
        "{}",
        tail.stdout
    );
    assert!(shown[1].ends_with("  ls"), "{}", tail.stdout);
    let json = w.run(&["audit", "tail", "--json", "--lines", "1"]);
    let last: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(last["command"], "ls");

    let stats = w.run(&["audit", "stats", "--since", "1h"]);
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    assert!(stats.stdout.contains("5 decisions"), "{}", stats.stdout);
    let json = w.run(&["audit", "stats", "--json"]);
    let stats: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        stats["by_decision"],
        json!({"allow": 2, "ask": 2, "block": 1})
    );
    assert_eq!(stats["rules"][0]["count"], 2);
    let future = w.run(&["audit", "stats", "--json", "--since", "2999-01-01"]);
    let stats: Value = serde_json::from_str(&future.stdout).unwrap();
    assert_eq!(stats["decisions"], 0);
    let bad = w.run(&["audit", "stats", "--since", "yesterday"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("neither a duration"), "{}", bad.stderr);
    let other = w.run(&[
        "audit",
        "tail",
        "--file",
        &w.path("state/warden/audit.jsonl"),
    ]);
    assert_eq!(other.stdout.lines().count(), 5, "{}", other.stdout);
}

/// warden starts without std's runtime set-up, which would have ignored
/// SIGPIPE: it ignores it itself, so an agent that closed the pipe before
/// the verdict costs the verdict line only, not the process and its log.
fn an_agent_that_stopped_reading_still_gets_its_line_logged() {
    let w = world("audit/epipe", "audit:\n  path: ~/audit/log.jsonl\n");
    let mut child = w.spawn(&[]);
    // The reader is gone before warden has read its payload, let alone answered.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin pipe");
    stdin
        .write_all(terminal(&w, "rm -rf /").to_string().as_bytes())
        .expect("write the payload");
    drop(stdin);
    let status = child.wait().expect("wait for warden");
    assert!(status.success(), "{status:?}");
    let logged = lines(&w, "home/audit/log.jsonl");
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert_eq!(logged[0]["decision"], "block", "{}", logged[0]);
}
