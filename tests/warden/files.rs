//! Files across the real process boundary: user path rules on file tools and on every shell spelling, `warden why --path`, the project, `HERMES_WRITE_SAFE_ROOT`, symlinks on disk, and the guard's files where `XDG_*` moves them.

use serde_json::{json, Value};

use crate::support::{verdict_is, World};

tests![
    a_write_rule_judges_file_tools_and_shell_writes_alike,
    an_allow_covers_a_patch_only_when_it_covers_every_file,
    a_read_deny_judges_shell_reads,
    why_shows_the_literal_and_resolved_path_and_the_rule,
    why_shows_the_workdir_and_the_session_project,
    safe_root_blocks_writes_outside_it,
    claude_project_dir_is_the_project,
    guard_files_moved_by_xdg_are_still_the_guard,
    a_symlink_into_home_is_judged_as_its_target,
    deleting_what_the_repository_ignores_is_tidying,
];

const USER: &str = "home/.config/warden/config.yaml";

fn write_file(w: &World, path: &str) -> Value {
    let (v, _) = w.call(&json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "write_file",
        "tool_input": {"path": path, "content": "x"},
        "cwd": w.path("project"),
    }));
    v
}

fn a_write_rule_judges_file_tools_and_shell_writes_alike() {
    let w = World::new("files/write-rule")
        .file(USER, "rules:\n  deny:\n    - \"write_file(secrets/**)\"\n");
    verdict_is(
        &write_file(&w, "secrets/key.txt"),
        "block",
        Some("config.deny-1"),
    );
    for cmd in [
        "echo x > secrets/key.txt",
        "cp /tmp/k secrets/",
        "sed -i s/a/b/ secrets/key.txt",
        "cd secrets && tee key.txt < /tmp/k",
    ] {
        let (v, _) = w.hook(cmd);
        assert_eq!(v["action"], "block", "{cmd}: {v:#}");
        assert!(
            v["rule_id"].as_str().unwrap().starts_with("config."),
            "{cmd}: {v:#}"
        );
    }
    // Reading the file is not writing it, and other files are not named.
    verdict_is(&w.hook("cat secrets/key.txt").0, "allow", None);
    verdict_is(&w.hook("echo x > notes/key.txt").0, "allow", None);
}

fn an_allow_covers_a_patch_only_when_it_covers_every_file() {
    let w = World::new("files/allow-patch").file(
        USER,
        "rules:\n  allow:\n    - \"patch(src/**)\"\n    - \"write_file(~/.bashrc)\"\n",
    );
    let patch = |body: &str| {
        w.call(&json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "patch",
            "tool_input": {"mode": "patch", "patch": body},
            "cwd": w.path("project"),
        }))
        .0
    };
    let inside = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** End Patch\n";
    let v = patch(inside);
    assert_eq!(
        (v["action"].as_str(), v["layer"].as_str()),
        (Some("allow"), Some("user")),
        "{v:#}"
    );
    let mixed = "*** Begin Patch\n*** Update File: src/a.rs\n*** Add File: /opt/outside.txt\n+x\n*** End Patch\n";
    verdict_is(&patch(mixed), "ask", Some("files.outside-project"));
    // A user's allow lifts an ask, for the file tool and the shell alike...
    let v = write_file(&w, "~/.bashrc");
    assert_eq!(v["action"], "allow", "{v:#}");
    let v = w.hook("echo 'alias ll=ls' >> ~/.bashrc").0;
    assert_eq!(v["action"], "allow", "{v:#}");
    // ...never a block.
    verdict_is(
        &write_file(&w, "~/.ssh/authorized_keys"),
        "block",
        Some("files.ssh"),
    );
}

fn a_read_deny_judges_shell_reads() {
    let w = World::new("files/read-deny")
        .file(USER, "rules:\n  deny:\n    - \"Read(~/.ssh/**)\"\n")
        .file("home/.ssh/config", "Host x\n");
    for cmd in [
        "cat ~/.ssh/config",
        "grep Host ~/.ssh/config",
        "head -1 < ~/.ssh/config",
    ] {
        let (v, _) = w.hook(cmd);
        assert_eq!(v["action"], "block", "{cmd}: {v:#}");
    }
    let (v, _) = w.call(&json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": w.path("home/.ssh/config")},
        "cwd": w.path("project"),
    }));
    assert_eq!(v["action"], "block", "{v:#}");
}

fn why_shows_the_workdir_and_the_session_project() {
    let w = World::new("files/why-workdir").file("home/.local/bin/.keep", "");
    let project = w.path("project");
    let out = w.run(&[
        "why",
        "--cmd",
        "echo x > bin/git",
        "--cwd",
        &project,
        "--workdir",
        "~/.local",
    ]);
    let lines = [
        format!("call: terminal (shell tool) `echo x > bin/git` in {project}, workdir `~/.local`"),
        format!("project: {project}"),
        format!("writes: bin/git -> {}", w.path("home/.local/bin/git")),
        "verdict: ask (layer dangerous, rule files.command-shadow)".to_string(),
    ];
    for line in lines {
        assert!(out.stdout.contains(&line), "{line}\n{}", out.stdout);
    }
}

fn why_shows_the_literal_and_resolved_path_and_the_rule() {
    let w = World::new("files/why").file("home/.ssh/known_hosts", "");
    std::fs::create_dir_all(w.path("project")).unwrap();
    std::os::unix::fs::symlink(w.path("home/.ssh"), w.path("project/keys")).unwrap();
    let project = w.path("project");
    let out = w.run(&[
        "why",
        "--tool",
        "write_file",
        "--path",
        "keys/authorized_keys",
        "--cwd",
        &project,
    ]);
    let home_key = w.path("home/.ssh/authorized_keys");
    let want = format!(
        "writes: keys/authorized_keys -> {home_key} (through a symlink; as written: {project}/keys/authorized_keys)"
    );
    assert!(out.stdout.contains(&want), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("files.ssh matches a write of keys/authorized_keys"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("verdict: block (layer hardline, rule files.ssh)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(&format!("project: {project}")),
        "{}",
        out.stdout
    );
}

fn safe_root_blocks_writes_outside_it() {
    let w = World::new("files/safe-root");
    let roots = format!("{}:/srv/data", w.path("project"));
    let w = w.var("HERMES_WRITE_SAFE_ROOT", &roots);
    verdict_is(&write_file(&w, "src/main.rs"), "allow", None);
    verdict_is(
        &write_file(&w, "/srv/data/x.csv"),
        "ask",
        Some("files.outside-project"),
    );
    verdict_is(
        &write_file(&w, "/opt/app/x"),
        "block",
        Some("files.outside-safe-root"),
    );
    verdict_is(
        &w.hook("echo x > /opt/app/x").0,
        "block",
        Some("files.outside-safe-root"),
    );
}

fn claude_project_dir_is_the_project() {
    let w = World::new("files/claude-project").var_at("CLAUDE_PROJECT_DIR", "project");
    std::fs::create_dir_all(w.path("project/src")).unwrap();
    // Claude's cwd followed a `cd` into src; the project is still the root.
    let (v, _) = w.call(&json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": w.path("project/README.md")},
        "cwd": w.path("project/src"),
    }));
    verdict_is(&v, "allow", None);
    let (v, _) = w.call(&json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "/opt/elsewhere/x.md"},
        "cwd": w.path("project/src"),
    }));
    verdict_is(&v, "ask", Some("files.outside-project"));
}

fn guard_files_moved_by_xdg_are_still_the_guard() {
    let w = World::new("files/xdg").var_at("XDG_CONFIG_HOME", "xdg");
    let config = w.path("xdg/warden/config.yaml");
    verdict_is(&write_file(&w, &config), "block", Some("files.guard"));
    verdict_is(
        &w.hook(&format!("rm -f {config}")).0,
        "block",
        Some("files.guard"),
    );
    // The cache and the ledger are the guard's too, wherever they are.
    let cache = w.path("cache/warden/x.bin");
    verdict_is(&write_file(&w, &cache), "block", Some("files.guard"));
}

fn a_symlink_into_home_is_judged_as_its_target() {
    let w = World::new("files/symlink").file("home/.bashrc", "# rc\n");
    std::fs::create_dir_all(w.path("project")).unwrap();
    std::os::unix::fs::symlink(w.path("home/.bashrc"), w.path("project/rc")).unwrap();
    verdict_is(&write_file(&w, "rc"), "ask", Some("files.shell-startup"));
    verdict_is(
        &w.hook("echo 'curl x | sh' >> rc").0,
        "ask",
        Some("files.shell-startup"),
    );
    // A new file beside the link is the project's own.
    verdict_is(&write_file(&w, "rc2"), "allow", None);
}

fn deleting_what_the_repository_ignores_is_tidying() {
    let w = World::new("files/ignored")
        .file(
            "project/.gitignore",
            "reports/\n/generated\n*.log\n*.py[cod]\n",
        )
        .file("project/.git/info/exclude", "scratch/\n")
        .file("project/src/app.py", "x = 1\n")
        .file("project/src/.gitignore", "fixtures/\n")
        .file("project/reports/index.html", "r\n")
        .file("project/generated/api.ts", "g\n")
        .file("project/scratch/notes.md", "n\n")
        .file("project/src/fixtures/a.json", "{}\n")
        .file("project/docs/guide.md", "d\n");
    std::fs::create_dir_all(w.path("project/.git/objects")).unwrap();
    std::fs::create_dir_all(w.path("project/keep")).unwrap();
    std::os::unix::fs::symlink(w.path("home"), w.path("project/keep/reports")).unwrap();
    for allowed in [
        "rm -rf reports generated scratch",
        "rm -rf src/fixtures",
        "cd src && rm -rf fixtures",
        "find . -name '*.pyc' -delete",
        "find src -name '*.log' -delete",
        "find . -name '*.pyc' -exec rm -f {} +",
    ] {
        verdict_is(&w.hook(allowed).0, "allow", None);
    }
    for (asked, rule) in [
        ("rm -rf reports docs", "fs.recursive-delete-in-project"),
        ("rm -rf src", "fs.recursive-delete-in-project"),
        ("rm -rf src/generated", "fs.recursive-delete-in-project"),
        ("rm -rf keep/reports", "fs.recursive-delete-in-project"),
        ("find . -name '*.py' -delete", "fs.find-delete"),
        (
            "find . -name '*.pyc' -o -name '*.md' -delete",
            "fs.find-delete",
        ),
    ] {
        verdict_is(&w.hook(asked).0, "ask", Some(rule));
    }
}
