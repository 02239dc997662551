//! `warden uninstall` and `uninstall --purge` on a fake machine: after install, a hook call and uninstall, every file of the agents is as it was; after a purge no file of warden's is left at all.
//!
//! The agents' programs are not on PATH here; `tests/e2e/run.sh` does the
//! same through the real Hermes, Claude Code and Codex.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Stdio;

use crate::setup::{tree, CLAUDE_SETTINGS, HERMES_CONFIG};
use crate::support::World;

tests![
    install_then_uninstall_leaves_the_agents_files_as_they_were,
    uninstall_removes_an_agent_directory_install_made,
    purge_lists_then_removes_every_file_of_wardens,
    purge_without_a_terminal_needs_yes_and_changes_nothing,
    purge_on_a_terminal_asks_and_a_no_changes_nothing,
    purge_dry_run_lists_and_changes_nothing,
];

/// The person's own Claude Code settings, as Claude Code lays them out.
const CLAUDE_THEIRS: &str = "{\n  \"theme\": \"dark\",\n  \"model\": \"opus\"\n}\n";

/// A machine where the person uses all three agents (their directories
/// exist, no program is on PATH), with settings of their own for Claude
/// Code and none yet for Hermes and Codex, and warden's starter config.
fn machine(name: &str) -> World {
    let w = World::new(&format!("uninstall/{name}"))
        .var_at("PATH", "bin")
        .var_at("HERMES_MANAGED_DIR", "etc-hermes")
        .file(CLAUDE_SETTINGS, CLAUDE_THEIRS);
    for dir in ["bin", "home/.hermes", "home/.codex"] {
        fs::create_dir_all(w.path(dir)).unwrap();
    }
    w
}

/// The real binary with `args`, stdin closed (no terminal); its exit code
/// must be `code`. Returns stdout and stderr.
#[track_caller]
fn warden(w: &World, code: i32, args: &[&str]) -> (String, String) {
    let out = w
        .command()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(
        out.status.code(),
        Some(code),
        "warden {args:?}:\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

/// Installs warden in every agent, with the starter config and consent
/// for Hermes, and has it decide a call, so that every kind of file warden
/// makes exists: hooks, consent, config, cache, cache key, ledger, audit
/// log, and the backup of the person's settings.
fn installed_and_used(w: &World) {
    let config = crate::support::read_repo_file("examples/config.yaml");
    let audit = "\naudit:\n  path: ~/logs/warden-audit.jsonl\n";
    w.put("home/.config/warden/config.yaml", config + audit);
    warden(w, 0, &["install", "--agent", "all", "--accept-hooks"]);
    // The real binary, which also writes the audit log.
    let payload = serde_json::json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": "git status"},
        "cwd": w.path("project"),
    });
    let mut call = w.spawn(&["--agent", "native"]);
    let mut stdin = call.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = call.wait_with_output().unwrap();
    let verdict = String::from_utf8_lossy(&out.stdout);
    assert!(verdict.contains(r#""action":"allow""#), "{verdict}");
    let made = tree(w);
    for file in [
        "home/.hermes/shell-hooks-allowlist.json",
        "home/.codex/hooks.json",
        "home/logs/warden-audit.jsonl",
    ] {
        assert!(
            made.contains_key(file),
            "install or the call made no {file}"
        );
    }
    let state = made.keys().filter(|k| k.starts_with("state/warden/"));
    assert!(
        state.count() >= 2,
        "no cache key or ledger: {:?}",
        made.keys()
    );
    assert!(!w.cache_files().is_empty(), "no cache entry");
}

/// Files of warden's own (config, cache, state, its audit log) and the
/// backups it made, as opposed to the agents' and the person's.
fn is_wardens(rel: &str) -> bool {
    ["home/.config/warden/", "cache/warden/", "state/warden/"]
        .iter()
        .any(|dir| rel.starts_with(dir))
        || rel.starts_with("home/logs/warden-audit.jsonl")
        || rel.contains(".warden-backup-")
}

fn install_then_uninstall_leaves_the_agents_files_as_they_were() {
    let w = machine("plain");
    let before = tree(&w);
    installed_and_used(&w);
    let (out, _) = warden(&w, 0, &["uninstall", "--agent", "all"]);
    let after = tree(&w);
    // The agents' files: byte for byte as before, none added, none lost.
    let theirs = |t: &BTreeMap<String, Vec<u8>>| {
        t.iter()
            .filter(|(k, _)| !is_wardens(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<BTreeMap<_, _>>()
    };
    assert_eq!(theirs(&after), theirs(&before), "{out}");
    assert_eq!(w.read(CLAUDE_SETTINGS), CLAUDE_THEIRS);
    assert!(!after.contains_key(HERMES_CONFIG), "{out}");
    // The backups are of the person's own file only, one by install (the
    // bytes before it) and one by uninstall (before it took warden out); a
    // file that held only warden's entries went with no backup.
    let backups: Vec<&String> = after
        .keys()
        .filter(|k| k.contains(".warden-backup-"))
        .collect();
    assert_eq!(backups.len(), 2, "{backups:?}\n{out}");
    let prefix = format!("{CLAUDE_SETTINGS}.warden-backup-");
    assert!(
        backups.iter().all(|b| b.starts_with(&prefix)),
        "{backups:?}"
    );
    assert_eq!(after[backups[0]], CLAUDE_THEIRS.as_bytes());
    assert!(
        !out.contains("todo"),
        "nothing is left to do by hand:\n{out}"
    );
}

/// Registering with an agent whose directory does not exist yet makes it;
/// taking warden out again leaves no empty directory behind, and a
/// directory that holds anything else stays.
fn uninstall_removes_an_agent_directory_install_made() {
    let w = machine("made-dir");
    fs::remove_file(w.path(CLAUDE_SETTINGS)).unwrap();
    fs::remove_dir(w.path("home/.claude")).unwrap();
    warden(&w, 0, &["install", "--agent", "claude"]);
    assert!(Path::new(&w.path(CLAUDE_SETTINGS)).exists());
    let (out, _) = warden(&w, 0, &["uninstall", "--agent", "claude"]);
    assert!(!Path::new(&w.path("home/.claude")).exists(), "{out}");

    w.put("home/.claude/notes.txt", "mine\n");
    warden(&w, 0, &["install", "--agent", "claude"]);
    let (out, _) = warden(&w, 0, &["uninstall", "--agent", "claude"]);
    assert_eq!(w.read("home/.claude/notes.txt"), "mine\n", "{out}");
    assert!(!Path::new(&w.path(CLAUDE_SETTINGS)).exists(), "{out}");
}

fn purge_lists_then_removes_every_file_of_wardens() {
    let w = machine("purge");
    let before = tree(&w);
    installed_and_used(&w);
    let (out, _) = warden(&w, 0, &["uninstall", "--purge", "--yes"]);
    for removed in [
        w.path("home/.config/warden"),
        w.path("cache/warden"),
        w.path("state/warden"),
        w.path("home/logs/warden-audit.jsonl"),
    ] {
        let line = format!("done warden  removed {removed}\n");
        assert!(out.contains(&line), "no `{line}` in:\n{out}");
    }
    assert!(out.contains("todo warden  the binary stays"), "{out}");
    // Nothing of warden's is left, and the person's files are as they were.
    assert_eq!(tree(&w), before, "{out}");
}

fn purge_without_a_terminal_needs_yes_and_changes_nothing() {
    let w = machine("purge-refused");
    installed_and_used(&w);
    let installed = tree(&w);
    let (out, err) = warden(&w, 2, &["uninstall", "--purge"]);
    assert!(err.contains("add --yes"), "{err}");
    // The list is shown all the same: what --yes would remove.
    for listed in ["home/.config/warden", "cache/warden", "state/warden"] {
        assert!(out.contains(&format!("  {}\n", w.path(listed))), "{out}");
    }
    assert!(out.contains(".warden-backup-"), "{out}");
    assert_eq!(tree(&w), installed, "a refused purge changed files");
}

fn purge_on_a_terminal_asks_and_a_no_changes_nothing() {
    let w = machine("purge-asked");
    installed_and_used(&w);
    let installed = tree(&w);
    let args: Vec<String> = ["uninstall", "--purge"].map(String::from).to_vec();
    let env = w.env(true);
    for answer in ["n\n", "\n", "", "yess\n"] {
        let out = warden::cli::run(&args, &mut answer.as_bytes(), &env);
        assert_eq!(out.code, 1, "{answer:?}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains("Remove them? [y/N] "), "{}", out.stdout);
        assert!(out.stdout.contains("nothing was changed"), "{}", out.stdout);
        assert_eq!(tree(&w), installed, "answer {answer:?} changed files");
    }
    let out = warden::cli::run(&args, &mut &b"y\n"[..], &env);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        !Path::new(&w.path("state/warden")).exists(),
        "{}",
        out.stdout
    );
}

fn purge_dry_run_lists_and_changes_nothing() {
    let w = machine("purge-dry");
    installed_and_used(&w);
    let installed = tree(&w);
    let (out, _) = warden(&w, 0, &["uninstall", "--purge", "--dry-run"]);
    assert!(
        out.contains(&format!("  {}\n", w.path("cache/warden"))),
        "{out}"
    );
    assert!(out.contains("--dry-run: nothing was removed"), "{out}");
    assert_eq!(tree(&w), installed);
}
