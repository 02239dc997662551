//! `warden install`, `uninstall` and `doctor` for Gemini CLI offline: the `BeforeTool` entry in `settings.json` (timeout in milliseconds), the person's keys kept, `GEMINI_CLI_HOME`, and doctor on Gemini's switches and folder trust.
//!
//! As in `setup`, every test runs the real binary on a fake machine; the
//! real Gemini CLI is driven by `tests/e2e/gemini.py`.

use serde_json::{json, Value};

use crate::setup::{
    backups, exe, exists, holds, json_file, machine, read, warden, LET_THROUGH, REFUSED,
};

tests![
    install_adds_a_before_tool_hook_keeps_the_persons_keys_and_uninstall_restores,
    install_follows_gemini_cli_home_and_is_found_by_its_directory,
    doctor_passes_after_install_and_says_where_gemini_runs_the_hook,
    doctor_fails_hooks_switched_off_and_a_hook_migrated_from_claude,
];

const SETTINGS: &str = "home/.gemini/settings.json";
/// The person's own settings, as Gemini CLI writes them.
const THEIRS: &str = "{\n  \"model\": {\n    \"name\": \"gemini-2.5-pro\"\n  },\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"gemini-api-key\"\n    }\n  }\n}\n";
const MATCHER: &str = "^(run_shell_command|write_file|replace|read_file|read_many_files|glob|grep_search|list_directory|web_fetch)$";

/// warden's `BeforeTool` group: Gemini counts `timeout` in milliseconds.
fn group(command: &str) -> Value {
    let handler = json!({"type": "command", "command": command, "timeout": 10000});
    json!({"matcher": MATCHER, "hooks": [handler]})
}

fn install_adds_a_before_tool_hook_keeps_the_persons_keys_and_uninstall_restores() {
    let w = machine("gemini-install", &["home/.gemini"]).file(SETTINGS, THEIRS);
    let out = warden(&w, 0, "install --agent gemini");
    out.line("done gemini", &w.path(SETTINGS));
    // Folder trust is the person's to give: said, never done.
    let trust = out.line("ok gemini", "only in folders you trust");
    holds(trust, &["warden does not trust folders for you"]);
    assert!(!exists(&w, "home/.gemini/trustedFolders.json"));

    let command = format!("{} --agent gemini", exe());
    let mut want: Value = serde_json::from_str(THEIRS).unwrap();
    want["hooks"] = json!({"BeforeTool": [group(&command)]});
    assert_eq!(json_file(&w, SETTINGS), want);
    let text = read(&w, SETTINGS);
    let at = |key: &str| text.find(&format!("\"{key}\"")).unwrap();
    assert!(
        at("model") < at("security") && at("security") < at("hooks"),
        "{text}"
    );
    assert_eq!(backups(&w, SETTINGS).len(), 1);

    let again = warden(&w, 0, "install --agent gemini");
    assert_eq!(again.count("done"), 0, "{}", again.stdout);
    assert_eq!(read(&w, SETTINGS), text);
    assert_eq!(backups(&w, SETTINGS).len(), 1);

    warden(&w, 0, "uninstall --agent gemini");
    assert_eq!(read(&w, SETTINGS), THEIRS);
}

fn install_follows_gemini_cli_home_and_is_found_by_its_directory() {
    let w = machine("gemini-home", &["elsewhere/.gemini"]).var_at("GEMINI_CLI_HOME", "elsewhere");
    // No --agent: Gemini is found by its directory under GEMINI_CLI_HOME.
    let out = warden(&w, 0, "install");
    let moved = "elsewhere/.gemini/settings.json";
    out.line("done gemini", &w.path(moved));
    assert!(
        !exists(&w, SETTINGS),
        "wrote ~/.gemini despite GEMINI_CLI_HOME"
    );
    let command = format!("{} --agent gemini", exe());
    assert_eq!(
        json_file(&w, moved),
        json!({"hooks": {"BeforeTool": [group(&command)]}})
    );
    warden(&w, 0, "uninstall");
    assert!(!exists(&w, moved), "uninstall left the file install made");
}

fn doctor_passes_after_install_and_says_where_gemini_runs_the_hook() {
    let w = machine("gemini-doctor", &["home/.gemini"]);
    warden(&w, 0, "install --agent gemini");
    let out = warden(&w, 0, "doctor --agent gemini");
    out.line("ok gemini", &format!("for `{MATCHER}`"));
    out.line("ok gemini", REFUSED);
    out.line("ok gemini", LET_THROUGH);
    let warned = out.line(
        "warn gemini",
        "only in trusted folders (no folder is trusted yet)",
    );
    holds(warned, &["`gemini -p` refuses to start"]);

    let trusted = r#"{"/home/u/proj": "TRUST_FOLDER", "/tmp/x": "DO_NOT_TRUST"}"#;
    w.put("home/.gemini/trustedFolders.json", trusted);
    let out = warden(&w, 0, "doctor --agent gemini");
    out.line("warn gemini", "1 folder is trusted: /home/u/proj)");

    // With folder trust off, Gemini runs the hook everywhere.
    let mut settings = json_file(&w, SETTINGS);
    settings["security"] = json!({"folderTrust": {"enabled": false}});
    w.put(SETTINGS, settings.to_string());
    let out = warden(&w, 0, "doctor --agent gemini");
    out.line("ok gemini", "folder trust is off");
    assert_eq!(out.count("warn"), 1, "{}", out.stdout);
}

fn doctor_fails_hooks_switched_off_and_a_hook_migrated_from_claude() {
    let w = machine("gemini-doctor-bad", &["home/.gemini"]);
    warden(&w, 0, "install --agent gemini");
    let mut settings = json_file(&w, SETTINGS);
    settings["hooksConfig"] = json!({"enabled": false});
    w.put(SETTINGS, settings.to_string());
    let out = warden(&w, 1, "doctor --agent gemini");
    out.fails(
        "gemini",
        "hooksConfig.enabled to false",
        "remove hooksConfig.enabled",
    );

    // What `gemini hooks migrate --from-claude` makes of Claude Code's
    // entry: Claude's answers (which Gemini ignores) and its timeout in
    // seconds, which Gemini reads as milliseconds.
    let claude = format!("{} --agent claude", exe());
    let handler = json!({"type": "command", "command": claude, "timeout": 10});
    let migrated = json!({"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command|write_file|replace", "hooks": [handler]}]}});
    w.put(SETTINGS, migrated.to_string());
    let out = warden(&w, 1, "doctor --agent gemini");
    let fix = "warden install --agent gemini";
    out.fails("gemini", "timeout is 10 ms", fix);
    out.fails(
        "gemini",
        "`rm -rf /` through the registered command should be refused",
        fix,
    );
}
