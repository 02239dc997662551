//! `warden install`, `uninstall` and `doctor` for GitHub Copilot CLI offline: warden's own `hooks/warden.json` (timeout in seconds), the person's settings untouched, `COPILOT_HOME`, and doctor on Copilot's switches and a second warden entry.
//!
//! As in `setup`, every test runs the real binary on a fake machine; the
//! real Copilot CLI is driven by `tests/e2e/copilot.py`.

use serde_json::{json, Value};

use crate::setup::{backups, exe, exists, json_file, machine, read, warden, LET_THROUGH, REFUSED};

tests![
    install_writes_warden_s_own_hook_file_and_uninstall_removes_only_that,
    install_follows_copilot_home_and_is_found_by_its_directory,
    doctor_passes_after_install_and_fails_without_the_file_or_with_hooks_off,
    doctor_warns_of_disabled_hooks_and_a_second_warden,
];

const HOOKS: &str = "home/.copilot/hooks/warden.json";
const SETTINGS: &str = "home/.copilot/settings.json";
/// The person's own settings, as Copilot CLI writes them.
const THEIRS: &str = "{\n  \"theme\": \"dim\",\n  \"model\": \"gpt-4.1\"\n}\n";

/// warden's hook file: Copilot counts `timeoutSec` in seconds.
fn hook_file(command: &str) -> Value {
    let entry = json!({"type": "command", "bash": command, "timeoutSec": 10});
    json!({"version": 1, "hooks": {"preToolUse": [entry]}})
}

fn install_writes_warden_s_own_hook_file_and_uninstall_removes_only_that() {
    let w = machine("copilot-install", &["home/.copilot"]).file(SETTINGS, THEIRS);
    let out = warden(&w, 0, "install --agent copilot");
    out.line("done copilot", &w.path(HOOKS));
    let command = format!("{} --agent copilot", exe());
    assert_eq!(json_file(&w, HOOKS), hook_file(&command));
    assert_eq!(read(&w, SETTINGS), THEIRS, "install touched settings.json");

    let text = read(&w, HOOKS);
    let again = warden(&w, 0, "install --agent copilot");
    assert_eq!(again.count("done"), 0, "{}", again.stdout);
    assert_eq!(read(&w, HOOKS), text);
    assert!(backups(&w, HOOKS).is_empty());

    warden(&w, 0, "uninstall --agent copilot");
    assert!(!exists(&w, HOOKS), "uninstall left warden's hook file");
    let hooks_dir = "home/.copilot/hooks";
    assert!(
        !exists(&w, hooks_dir),
        "uninstall left the empty hooks directory"
    );
    assert_eq!(read(&w, SETTINGS), THEIRS);

    // Another hook the person put in warden's file stays there.
    let mut theirs = hook_file(&command);
    let audit = json!({"type": "command", "bash": "./audit.sh"});
    theirs["hooks"]["preToolUse"]
        .as_array_mut()
        .unwrap()
        .insert(0, audit.clone());
    w.put(HOOKS, theirs.to_string());
    warden(&w, 0, "uninstall --agent copilot");
    let left = json!({"version": 1, "hooks": {"preToolUse": [audit]}});
    assert_eq!(json_file(&w, HOOKS), left);
    assert_eq!(backups(&w, HOOKS).len(), 1);
}

fn install_follows_copilot_home_and_is_found_by_its_directory() {
    let w =
        machine("copilot-home", &["elsewhere/copilot"]).var_at("COPILOT_HOME", "elsewhere/copilot");
    // No --agent: Copilot is found by its directory, COPILOT_HOME.
    let out = warden(&w, 0, "install");
    let moved = "elsewhere/copilot/hooks/warden.json";
    out.line("done copilot", &w.path(moved));
    assert!(!exists(&w, HOOKS), "wrote ~/.copilot despite COPILOT_HOME");
    let command = format!("{} --agent copilot", exe());
    assert_eq!(json_file(&w, moved), hook_file(&command));
    warden(&w, 0, "uninstall");
    assert!(!exists(&w, moved), "uninstall left the file install made");
}

fn doctor_passes_after_install_and_fails_without_the_file_or_with_hooks_off() {
    let w = machine("copilot-doctor", &["home/.copilot"]);
    let out = warden(&w, 1, "doctor --agent copilot");
    out.fails(
        "copilot",
        "warden is not registered in",
        "warden install --agent copilot",
    );

    warden(&w, 0, "install --agent copilot");
    let out = warden(&w, 0, "doctor --agent copilot");
    out.line("ok copilot", &format!("registered in {}", w.path(HOOKS)));
    out.line("ok copilot", REFUSED);
    out.line("ok copilot", LET_THROUGH);
    let flagged = |l: &&str| l.starts_with("warn copilot") || l.starts_with("FAIL copilot");
    assert!(!out.stdout.lines().any(|l| flagged(&l)), "{}", out.stdout);

    w.put(SETTINGS, r#"{"disableAllHooks": true}"#);
    let out = warden(&w, 1, "doctor --agent copilot");
    out.line("FAIL copilot", "sets disableAllHooks: no hook runs");
    let install = warden(&w, 0, "install --agent copilot");
    install.line("todo copilot", "sets disableAllHooks");

    w.put(HOOKS, "{\"version\": 1,");
    let out = warden(&w, 1, "doctor --agent copilot");
    out.fails(
        "copilot",
        "is not valid JSON",
        "remove that file, then warden install",
    );

    // A warden path that is gone: the round trip fails, naming the fix.
    let gone = hook_file("/nonexistent/warden --agent copilot");
    w.put(SETTINGS, "{}");
    w.put(HOOKS, gone.to_string());
    let out = warden(&w, 1, "doctor --agent copilot");
    out.fails(
        "copilot",
        "the registered command failed on `rm -rf /`",
        "warden install --agent copilot",
    );
}

fn doctor_warns_of_disabled_hooks_and_a_second_warden() {
    let w = machine("copilot-doctor-warn", &["home/.copilot"]);
    warden(&w, 0, "install --agent copilot");
    let second = json!({"type": "command", "bash": format!("{} --agent copilot", exe())});
    let settings = json!({"disabledHooks": ["3f2a9c"], "hooks": {"preToolUse": [second]}});
    w.put(SETTINGS, settings.to_string());
    let out = warden(&w, 0, "doctor --agent copilot");
    out.line(
        "warn copilot",
        "turns off 1 hook(s) by content hash (disabledHooks)",
    );
    out.line("warn copilot", "registers warden too");
    out.line("ok copilot", REFUSED);
}
