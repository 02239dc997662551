//! Many hook processes at once: against a cold cache right after a config change, and while the config is being rewritten; every verdict right, one valid cache left, no partial file ever read.

use std::io::Write;
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::support::World;

tests![
    thirty_two_processes_on_a_cold_cache,
    processes_while_the_config_is_rewritten,
];

const USER: &str = "home/.config/warden/config.yaml";
const PROCESSES: usize = 32;

/// Two configs that both deny `git push` and differ otherwise, so a verdict
/// on `git push` is the same whichever one a process reads.
const CONFIG_A: &str =
    "rules:\n  deny:\n    - \"terminal(git push:*)\"\n  ask:\n    - \"terminal(npm publish:*)\"\n";
const CONFIG_B: &str = "rules:\n  deny:\n    - id: no-push\n      pattern: \"git push:*\"\n  allow:\n    - \"terminal(make:*)\"\n";

/// Starts one hook process per command, all before any is waited on.
fn storm(w: &World, commands: &[&str]) -> Vec<Child> {
    let mut children: Vec<Child> = commands
        .iter()
        .map(|_| w.spawn(&["--agent", "native"]))
        .collect();
    // The payloads go out only once every process is up, so they race.
    for (child, command) in children.iter_mut().zip(commands) {
        let payload = json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": command},
            "cwd": w.path("project"),
        });
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
    }
    children
}

fn verdict(child: Child) -> (Value, String) {
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    (serde_json::from_str(stdout.trim()).unwrap(), stderr)
}

/// The cache files the world holds.
fn caches(w: &World) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(w.path("cache/warden"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "bin"))
                .collect()
        })
        .unwrap_or_default()
}

fn commands() -> Vec<&'static str> {
    (0..PROCESSES)
        .map(|n| ["git push origin main", "rm -rf /", "ls -la", "git status"][n % 4])
        .collect()
}

fn expected(command: &str) -> (&'static str, &'static str) {
    match command {
        "git push origin main" => ("block", "user"),
        "rm -rf /" => ("block", "hardline"),
        _ => ("allow", "default"),
    }
}

fn thirty_two_processes_on_a_cold_cache() {
    let w = World::new("concurrency/cold").file(USER, CONFIG_A);
    // A first run, then a change: the storm meets a stale cache and a new key.
    for child in storm(&w, &["git status"]) {
        verdict(child);
    }
    w.put(USER, CONFIG_B);
    let commands = commands();
    for (child, command) in storm(&w, &commands).into_iter().zip(&commands) {
        let (v, stderr) = verdict(child);
        let (action, layer) = expected(command);
        assert_eq!(v["action"], action, "{command}: {v} {stderr}");
        assert_eq!(v["layer"], layer, "{command}: {v}");
        assert!(!stderr.contains("unusable"), "{command}: {stderr}");
        if *command == "git push origin main" {
            assert_eq!(v["rule_id"], "no-push", "read the new config: {v}");
        }
    }
    let left = caches(&w);
    assert_eq!(left.len(), 1, "one cache per set of sources: {left:?}");
    let leftovers: Vec<_> = std::fs::read_dir(w.path("cache/warden"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let why = w.why("git push origin main");
    assert!(
        why.stdout.contains("cache: hit ("),
        "the cache left is valid: {}",
        why.stdout
    );
}

fn processes_while_the_config_is_rewritten() {
    let w = Arc::new(World::new("concurrency/rewrite").file(USER, CONFIG_A));
    let stop = Arc::new(AtomicBool::new(false));
    // An editor that saves atomically (a new file renamed over the old one),
    // as fast as it can, alternating two configs.
    let writer = {
        let (w, stop) = (w.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let text = if n % 2 == 0 { CONFIG_B } else { CONFIG_A };
                let temp = w.path("home/.config/warden/.config.yaml.tmp");
                std::fs::write(&temp, text).unwrap();
                std::fs::rename(&temp, w.path(USER)).unwrap();
                n += 1;
            }
            n
        })
    };
    let commands = commands();
    for _round in 0..3 {
        for (child, command) in storm(&w, &commands).into_iter().zip(&commands) {
            let (v, stderr) = verdict(child);
            let (action, layer) = expected(command);
            assert_eq!(v["action"], action, "{command}: {v} {stderr}");
            assert_eq!(v["layer"], layer, "{command}: {v}");
            assert!(
                !stderr.contains("unusable"),
                "a partial file was read: {stderr}"
            );
        }
    }
    stop.store(true, Ordering::Relaxed);
    let rewrites = writer.join().unwrap();
    assert!(
        rewrites > 10,
        "the config was rewritten during the storms ({rewrites} times)"
    );
    // Once quiet, a cache stands for the final config and holds.
    let (v, _) = w.hook("git push origin main");
    assert_eq!(v["action"], "block", "{v}");
    assert!(caches(&w).len() <= 2, "{:?}", caches(&w));
    let why = w.why("git push origin main");
    assert!(why.stdout.contains("verdict: block"), "{}", why.stdout);
}
