//! `warden install`, `uninstall` and `doctor` for OpenCode offline: the plugin file warden owns in `~/.config/opencode/plugin` (`XDG_CONFIG_HOME` followed) with warden's path written in, a file of someone else's left alone, doctor on a missing warden, a stale copy and `OPENCODE_PURE`; and the plugin itself run by Node with a stand-in for Bun's `spawn`.
//!
//! As in `setup`, every test runs the real binary on a fake machine; the
//! real OpenCode is driven by `tests/e2e/opencode.py`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::setup::{exe, exists, holds, machine, read, warden, LET_THROUGH, REFUSED};
use crate::support::{read_repo_file, World};

tests![
    install_writes_the_plugin_with_wardens_path_and_uninstall_removes_only_it,
    install_follows_xdg_config_home_and_leaves_a_strangers_file_alone,
    doctor_passes_after_install_and_fails_what_keeps_the_plugin_from_guarding,
    the_plugin_blocks_and_fails_closed_when_node_runs_it,
];

const CONFIG: &str = "home/.config/opencode";
const PLUGIN: &str = "home/.config/opencode/plugin/warden.js";
/// The person's own configuration, which install must not touch.
const THEIRS: &str = "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"model\": \"anthropic/claude-sonnet-4-5\"\n}\n";

/// What install writes for the warden at `path`.
fn plugin_for(path: &str) -> String {
    let shipped = read_repo_file("hooks/opencode-warden.js");
    let line = format!("const WARDEN = {};", json!(path));
    assert!(shipped.contains("const WARDEN = \"warden\";"));
    shipped.replacen("const WARDEN = \"warden\";", &line, 1)
}

fn install_writes_the_plugin_with_wardens_path_and_uninstall_removes_only_it() {
    let w = machine("opencode-install", &[CONFIG]).file(&format!("{CONFIG}/opencode.json"), THEIRS);
    let out = warden(&w, 0, "install --agent opencode");
    out.line("done opencode", &w.path(PLUGIN));
    assert_eq!(read(&w, PLUGIN), plugin_for(&exe()));
    assert_eq!(read(&w, &format!("{CONFIG}/opencode.json")), THEIRS);

    // Idempotent, and no backup of a file that is warden's alone (a
    // backup in plugin/ would be one more file there).
    let again = warden(&w, 0, "install --agent opencode");
    assert_eq!(again.count("done"), 0, "{}", again.stdout);
    let listed: Vec<String> = fs::read_dir(w.path(&format!("{CONFIG}/plugin")))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(listed, ["warden.js"]);

    // An older copy is replaced by this warden's.
    w.put(PLUGIN, plugin_for("/old/bin/warden"));
    let out = warden(&w, 0, "install --agent opencode");
    out.line("done opencode", "replaced warden's plugin");
    assert_eq!(read(&w, PLUGIN), plugin_for(&exe()));

    w.put(
        &format!("{CONFIG}/plugin/theirs.js"),
        "export const Theirs = async () => ({});\n",
    );
    let out = warden(&w, 0, "uninstall --agent opencode");
    out.line("done opencode", "removed warden's plugin");
    assert!(!exists(&w, PLUGIN));
    assert!(exists(&w, &format!("{CONFIG}/plugin/theirs.js")));
    assert_eq!(read(&w, &format!("{CONFIG}/opencode.json")), THEIRS);
}

fn install_follows_xdg_config_home_and_leaves_a_strangers_file_alone() {
    let w = machine("opencode-xdg", &["xdg/opencode"]).var_at("XDG_CONFIG_HOME", "xdg");
    // No --agent: OpenCode is found by its directory under XDG_CONFIG_HOME.
    let out = warden(&w, 0, "install");
    let moved = "xdg/opencode/plugin/warden.js";
    out.line("done opencode", &w.path(moved));
    assert!(
        !exists(&w, PLUGIN),
        "wrote ~/.config despite XDG_CONFIG_HOME"
    );
    warden(&w, 0, "uninstall");
    assert!(!exists(&w, moved));
    assert!(
        !exists(&w, "xdg/opencode/plugin"),
        "uninstall left the directory install made"
    );

    let stranger = "export const Guard = async () => ({});\n";
    w.put(moved, stranger);
    let out = warden(&w, 1, "install --agent opencode");
    out.line("FAIL opencode", "is not warden's plugin");
    let out = warden(&w, 0, "uninstall --agent opencode");
    out.line("ok opencode", "is not warden's plugin: left alone");
    assert_eq!(read(&w, moved), stranger);
}

fn doctor_passes_after_install_and_fails_what_keeps_the_plugin_from_guarding() {
    let w = machine("opencode-doctor", &[CONFIG]);
    let fix = "warden install --agent opencode";
    let out = warden(&w, 1, "doctor --agent opencode");
    out.fails("opencode", "warden's plugin is not in", fix);

    warden(&w, 0, "install --agent opencode");
    let out = warden(&w, 0, "doctor --agent opencode");
    out.line("ok opencode", &format!("running {}", exe()));
    out.line("ok opencode", REFUSED);
    out.line("ok opencode", LET_THROUGH);

    let w = w.var("OPENCODE_PURE", "1");
    let out = warden(&w, 1, "doctor --agent opencode");
    out.fails("opencode", "OPENCODE_PURE is set", "unset OPENCODE_PURE");
    let w = w.var("OPENCODE_PURE", "0");
    warden(&w, 0, "doctor --agent opencode");

    // An edited copy still guards, but is not the one install writes.
    w.put(PLUGIN, plugin_for(&exe()).replace("10000", "60000"));
    let out = warden(&w, 0, "doctor --agent opencode");
    out.line("warn opencode", "an older or edited copy");

    // A warden that is gone: OpenCode refuses every tool call.
    w.put(PLUGIN, plugin_for("/nowhere/warden"));
    let out = warden(&w, 1, "doctor --agent opencode");
    let failed = out.fails(
        "opencode",
        "runs `/nowhere/warden`, which is not there",
        fix,
    );
    holds(failed, &["blocks every tool call"]);
}

/// A stand-in for `Bun.spawn` over Node's `child_process`, enough for the
/// plugin: stdin, web streams, `exited`, `exitCode`, `kill`. Bun throws at
/// once for a program that is not there; so does this.
const HARNESS: &str = r#"
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { Readable } from "node:stream";
globalThis.Bun = {
  spawn(argv, { cwd }) {
    accessSync(argv[0], constants.X_OK);
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const exited = new Promise((done) => child.on("close", (code, signal) => done(code ?? 128)));
    return {
      stdin: { write: (text) => child.stdin.write(text), end: () => child.stdin.end() },
      stdout: Readable.toWeb(child.stdout),
      stderr: Readable.toWeb(child.stderr),
      exited,
      get exitCode() { return child.exitCode; },
      kill: (signal) => child.kill(signal),
    };
  },
};
const [plugin, tool, args, directory] = process.argv.slice(2);
const { WardenGuard } = await import(plugin);
const hooks = await WardenGuard({ directory });
try {
  await hooks["tool.execute.before"]({ tool, sessionID: "ses_1", callID: "call_1" }, { args: JSON.parse(args) });
  console.log(JSON.stringify({ ran: true }));
} catch (e) {
  console.log(JSON.stringify({ thrown: e.message }));
}
"#;

/// What the plugin for the warden at `program` (with its time limit set to
/// `timeout_ms`) does with a `tool` call: `{"ran": true}` or `{"thrown": message}`.
fn through_plugin(w: &World, program: &str, timeout_ms: u32, tool: &str, args: Value) -> Value {
    let text = plugin_for(program).replace(
        "const TIMEOUT_MS = 10000;",
        &format!("const TIMEOUT_MS = {timeout_ms};"),
    );
    w.put("plugin/warden.mjs", text);
    w.put("plugin/harness.mjs", HARNESS);
    let out = Command::new("node")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .arg(w.path("plugin/harness.mjs"))
        .args([
            &w.path("plugin/warden.mjs"),
            tool,
            &args.to_string(),
            &w.path("project"),
        ])
        .env("HOME", w.path("home"))
        .env("XDG_CACHE_HOME", w.path("cache"))
        .env("XDG_STATE_HOME", w.path("state"))
        .env("WARDEN_MANAGED_DIR", w.path("etc-warden"))
        .stdin(Stdio::null())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)))
}

/// A stand-in warden: a shell script with `body`.
fn fake(w: &World, name: &str, body: &str) -> String {
    let rel = format!("bin/{name}");
    w.put(&rel, format!("#!/bin/sh\ncat >/dev/null\n{body}\n"));
    let path = w.path(&rel);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn the_plugin_blocks_and_fails_closed_when_node_runs_it() {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("opencode: no `node` here; the plugin is run by tests/e2e/opencode.py instead");
        return;
    }
    let w = machine("opencode-plugin", &["project"]);
    let real = exe();
    let thrown = |v: &Value| {
        v["thrown"]
            .as_str()
            .unwrap_or_else(|| panic!("ran: {v}"))
            .to_string()
    };
    let v = through_plugin(&w, &real, 10000, "bash", json!({"command": "rm -rf /"}));
    holds(
        &thrown(&v),
        &["Blocked: `rm -rf /`", "(warden rule hardline.rm-root)."],
    );
    let v = through_plugin(&w, &real, 10000, "bash", json!({"command": "git status"}));
    assert_eq!(v, json!({"ran": true}));
    // The workdir reaches warden, which resolves it against the directory.
    let v = through_plugin(
        &w,
        &real,
        10000,
        "bash",
        json!({"command": "rm -rf .", "workdir": "/"}),
    );
    holds(&thrown(&v), &["hardline.rm-root"]);
    let key =
        json!({"filePath": w.path("home/.ssh/authorized_keys"), "content": "ssh-ed25519 AAAA"});
    let v = through_plugin(&w, &real, 10000, "write", key);
    holds(&thrown(&v), &["files.ssh"]);

    // Whatever keeps warden from answering blocks the call, and says why.
    let failures = [
        (
            w.path("bin/missing"),
            "warden could not check this call (ENOENT",
        ),
        (
            fake(&w, "crash", "echo boom >&2; exit 3"),
            "warden exited with 3: boom",
        ),
        (
            fake(&w, "garbage", "echo 'not json'"),
            "warden's answer is not JSON: not json",
        ),
        (
            fake(&w, "allow", r#"echo '{"action":"allow"}'"#),
            "neither a block nor `{}`",
        ),
        (fake(&w, "array", "echo '[]'"), "neither a block nor `{}`"),
        (fake(&w, "slow", "exec sleep 5"), "no answer within 300 ms"),
    ];
    for (program, said) in failures {
        let v = through_plugin(&w, &program, 300, "bash", json!({"command": "true"}));
        holds(&thrown(&v), &["Blocked: ", said]);
    }
    // The every-agent block of a warden that did not know the flag.
    let any = fake(
        &w,
        "any",
        r#"echo '{"decision":"block","reason":"Blocked: old warden."}'"#,
    );
    let v = through_plugin(&w, &any, 300, "bash", json!({"command": "true"}));
    assert_eq!(thrown(&v), "Blocked: old warden.");
}
