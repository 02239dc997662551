//! The model's `workdir`: where the tool runs, as after a `cd` from the session's directory; never which project it is, nor where the project's policy is found.

use serde_json::{json, Value};

use super::{assert_held, guarded, refuses, route, Step, HELD};
use crate::support::World;

tests!(
    a_workdir_outside_the_project_is_not_the_project,
    another_repository_is_not_the_project,
    the_project_deny_holds_however_the_workdir_is_written,
    a_scope_is_judged_where_the_command_runs,
    a_workdir_at_the_home_is_cd_home,
    held_rules_block_in_every_workdir,
    a_workdir_judges_as_the_cd_it_stands_for,
    a_workdir_inside_the_project_is_everyday_work,
);

/// A Hermes terminal call with the session in `cwd` (none: the payload
/// names no directory) and the model's `workdir`.
fn call(world: &World, cwd: Option<&str>, workdir: Option<&str>, cmd: &str) -> Value {
    let mut input = json!({"command": cmd});
    if let Some(workdir) = workdir {
        input["workdir"] = json!(workdir);
    }
    let mut payload = json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": input,
    });
    if let Some(cwd) = cwd {
        payload["cwd"] = json!(cwd);
    }
    world.call(&payload).0
}

#[track_caller]
fn blocked_by(v: &Value, rule: &str, what: &str) {
    assert!(
        v["action"] == "block" && v["rule_id"].as_str() == Some(rule),
        "{what}: must be blocked by {rule}, got {v:#}"
    );
}

fn a_workdir_outside_the_project_is_not_the_project() {
    // `echo x > ~/.local/bin/git` asks; a `workdir` there must not make the
    // same write the project's own (a `git` planted on the PATH).
    let world = route(
        "workdir-local-bin",
        &[
            Step::Effect(&|w| w.put("home/.local/bin/.keep", "")),
            Step::RefusedIn("~/.local", "echo x > bin/git"),
            Step::RefusedIn("~/.local/bin", "cp /bin/true git"),
            Step::RefusedIn("~/.local/bin", "ln -sf /tmp/evil git"),
            Step::RefusedIn("~/.local/", "printf x >> bin/git && chmod +x bin/git"),
            Step::RefusedIn("../home/.local", "echo x > bin/git"),
            Step::RefusedIn("~", "echo x > .local/bin/git"),
            Step::RefusedIn("~/.local", "cd bin && echo x > git"),
        ],
    );
    let local = world.path("home/.local");
    let v = call(
        &world,
        Some(&world.path("project")),
        Some(&local),
        "echo x > bin/git",
    );
    assert!(refuses(&v), "{v:#}");
    // A `git` there asks wherever the project is (`files.command-shadow`);
    // a name of its own asks as a write outside the project.
    assert_eq!(v["rule_id"], "files.command-shadow", "{v:#}");
    let v = call(
        &world,
        Some(&world.path("project")),
        Some(&local),
        "echo x > share/notes.txt",
    );
    assert!(
        v["message"]
            .as_str()
            .unwrap_or_default()
            .contains("outside the project"),
        "{v:#}"
    );
}

fn another_repository_is_not_the_project() {
    let world = route(
        "workdir-other-repo",
        &[
            Step::Effect(&|w| w.put("home/other/.git/HEAD", "ref: refs/heads/main\n")),
            Step::RefusedIn("~/other", "echo x > notes.txt"),
            Step::RefusedIn("~/other", "rm -rf src"),
            Step::RefusedIn("~/other", "sed -i s/a/b/ main.rs"),
            Step::RefusedIn("../home/other", "echo x > new.txt"),
        ],
    );
    let other = world.path("home/other");
    let v = call(
        &world,
        Some(&world.path("project")),
        Some(&other),
        "rm -rf src",
    );
    assert!(refuses(&v), "{v:#}");
}

fn the_project_deny_holds_however_the_workdir_is_written() {
    let deny = |id: &str| {
        format!("rules:\n  deny:\n    - tool: terminal\n      pattern: \"npm publish:*\"\n      id: {id}\n")
    };
    let world = guarded("workdir-project-deny")
        .file("project/.warden.yaml", &deny("project-deny"))
        .file("project/sub/.keep", "")
        .file("home/proj/.git/HEAD", "ref: refs/heads/main\n")
        .file("home/proj/.warden.yaml", &deny("home-project-deny"))
        .file("home/proj/sub/.keep", "");
    // The hook runs from the test's directory, not the project's: a
    // `workdir` used as written to find policy would find none.
    let project = world.path("project");
    let workdirs = [
        "sub",
        "./sub/..",
        ".",
        "..",
        "~",
        "~/proj",
        "~/../project",
        "/",
        "/nonexistent",
        "$HOME",
        &project,
    ];
    for workdir in workdirs {
        let v = call(&world, Some(&project), Some(workdir), "npm publish");
        blocked_by(&v, "project-deny", &format!("workdir `{workdir}`"));
    }
    // A session in `~/proj`, with the model's `workdir` spelled from `~`.
    let proj = world.path("home/proj");
    for workdir in ["~/proj", "~/proj/sub", "sub", "~/../project"] {
        let v = call(&world, Some(&proj), Some(workdir), "npm publish");
        blocked_by(
            &v,
            "home-project-deny",
            &format!("workdir `{workdir}` in ~/proj"),
        );
    }
    // Whose policy applies is the session's, not the workdir's: the other
    // project's deny does not come with a `workdir` there.
    let v = call(&world, Some(&proj), Some(&project), "npm publish");
    blocked_by(&v, "home-project-deny", "workdir in the other project");
    assert_held(&world, "after every workdir");
}

fn a_scope_is_judged_where_the_command_runs() {
    let policy = "mode: supervised\n\
                  rules:\n  allow:\n    - tool: terminal\n      pattern: \"make:*\"\n      \
                  scope: src\n      id: make-in-src\n  deny:\n    - tool: terminal\n      \
                  pattern: \"terraform apply:*\"\n      scope: infra\n      id: infra-deny\n";
    let world = guarded("workdir-scope")
        .file("project/.warden.yaml", policy)
        .file("project/src/.keep", "")
        .file("project/infra/.keep", "");
    // The allow is a project file's loosening: it applies once trusted.
    world.trust("project/.warden.yaml");
    let project = world.path("project");
    let run = |workdir: Option<&str>, cmd: &str| call(&world, Some(&project), workdir, cmd);
    // The allow covers `make` run in `src`.
    let src = world.path("project/src");
    for (workdir, cmd) in [(Some("src"), "make"), (Some(src.as_str()), "make -j4")] {
        let v = run(workdir, cmd);
        assert_eq!(v["rule_id"], "make-in-src", "{workdir:?} {cmd}: {v:#}");
    }
    // Not `make` run elsewhere: supervised asks.
    for (workdir, cmd) in [
        (Some("/"), "make"),
        (Some("~"), "make"),
        (None, "cd / && make"),
        (Some("src"), "cd / && make"),
        (Some("src"), "make && cd .. && make"),
    ] {
        let v = run(workdir, cmd);
        assert!(refuses(&v), "{workdir:?} {cmd}: {v:#}");
    }
    // The deny holds in its scope, however the command got there, and in a
    // session in its scope wherever a `cd` took the command.
    let infra = world.path("project/infra");
    let from_root = format!("cd {infra} && terraform apply");
    for (workdir, cmd) in [
        (Some("infra"), "terraform apply"),
        (None, "cd infra && terraform apply"),
        (Some("/"), from_root.as_str()),
        (Some(infra.as_str()), "terraform apply"),
    ] {
        blocked_by(
            &run(workdir, cmd),
            "infra-deny",
            &format!("{workdir:?} {cmd}"),
        );
    }
    for (workdir, cmd) in [
        (Some("/tmp"), "terraform apply"),
        (None, "cd / && terraform apply"),
    ] {
        let v = call(&world, Some(&infra), workdir, cmd);
        blocked_by(
            &v,
            "infra-deny",
            &format!("session in infra, {workdir:?} {cmd}"),
        );
    }
}

fn a_workdir_at_the_home_is_cd_home() {
    let world = guarded("workdir-home");
    let home = world.path("home");
    let cd = world.hook("cd ~ && rm -rf *").0;
    blocked_by(&cd, "hardline.rm-home", "cd ~ && rm -rf *");
    for workdir in ["~", "~/", "../home", "~/.local/..", &home] {
        let v = world.hook_in(workdir, "rm -rf *").0;
        blocked_by(&v, "hardline.rm-home", &format!("workdir `{workdir}`"));
        let v = world.hook_in(workdir, "rm -rf .ssh .aws").0;
        assert!(refuses(&v), "workdir `{workdir}`: rm -rf .ssh .aws: {v:#}");
    }
    // A session at the home with the model's `workdir` in the project is
    // the project: `rm -rf *` there is not the home's.
    let v = call(&world, Some(&home), Some("../project"), "rm -rf *");
    assert_ne!(v["rule_id"], "hardline.rm-home", "{v:#}");
}

fn held_rules_block_in_every_workdir() {
    let world = guarded("workdir-held");
    let project = world.path("project");
    for workdir in [
        "~",
        "/",
        "~/.local",
        "sub",
        "..",
        "/nonexistent",
        "$HOME",
        "~/.config/warden",
    ] {
        for (cmd, rule) in HELD {
            let v = world.hook_in(workdir, cmd).0;
            blocked_by(&v, rule, &format!("`{cmd}` in workdir `{workdir}`"));
            let v = call(&world, None, Some(workdir), cmd);
            blocked_by(&v, rule, &format!("`{cmd}` in workdir `{workdir}`, no cwd"));
        }
        let v = call(
            &world,
            Some(&project),
            Some(workdir),
            "echo 'rules: {}' > config.yaml",
        );
        if workdir == "~/.config/warden" {
            assert_eq!(v["action"], "block", "the guard's own file: {v:#}");
        }
    }
    assert_held(&world, "after every workdir");
}

/// A `workdir` is exactly a `cd` the line starts with: every rule, the
/// floor, the path rules and the user's rules, judge the two alike, and a
/// `workdir` warden cannot follow is a `cd` it cannot follow.
fn a_workdir_judges_as_the_cd_it_stands_for() {
    let world = guarded("workdir-as-cd")
        .file("project/src/deep/.keep", "")
        .file("home/other/.git/HEAD", "ref: refs/heads/main\n")
        .file("home/.local/bin/.keep", "");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("loop", world.path("project/loop")).unwrap();
        std::os::unix::fs::symlink("../home/.local", world.path("project/up")).unwrap();
    }
    let project = world.path("project");
    let workdirs = [
        "~",
        "~/.local",
        "~/.local/bin",
        "~/other",
        "/",
        "/etc",
        "/usr",
        "..",
        "../home",
        "src",
        "src/deep",
        ".",
        "./",
        "/nonexistent/x",
        "loop",
        "up",
        "up/..",
        "up/bin",
        "~/.ssh",
        "/tmp",
        &project,
    ];
    let commands = [
        "rm -rf *",
        "rm -rf build",
        "echo x > bin/git",
        "echo x > f.txt",
        "cat .env",
        "touch .bashrc",
        "chmod -R 777 .",
        "git push origin main",
        "cp id_rsa.pub authorized_keys",
        "ls",
    ];
    let mut differ = Vec::new();
    for cwd in [Some(project.as_str()), None] {
        for workdir in workdirs {
            for cmd in commands {
                let given = call(&world, cwd, Some(workdir), cmd);
                let cd = call(&world, cwd, None, &format!("cd {workdir} && {cmd}"));
                if (&given["action"], &given["rule_id"]) != (&cd["action"], &cd["rule_id"]) {
                    differ.push(format!(
                        "cwd {cwd:?}, workdir `{workdir}`, `{cmd}`: {} {} vs `cd` {} {}",
                        given["action"], given["rule_id"], cd["action"], cd["rule_id"]
                    ));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

fn a_workdir_inside_the_project_is_everyday_work() {
    let world = guarded("workdir-everyday")
        .file("project/src/deep/.keep", "")
        .file("project/src/build/.keep", "");
    let project = world.path("project");
    let src = world.path("project/src");
    let workdirs = [
        "src",
        "src/deep",
        ".",
        "./src/../src",
        &src,
        &project,
        "~/../project/src",
    ];
    let commands = [
        "echo x > out.txt",
        "rm -rf build",
        "mkdir -p gen && touch gen/a.rs",
        "sed -i s/a/b/ main.rs",
        "cp main.rs main.rs.bak && mv main.rs.bak old.rs",
        "cargo build",
        "git status",
    ];
    for workdir in workdirs {
        for cmd in commands {
            let v = world.hook_in(workdir, cmd).0;
            assert_eq!(
                v["action"], "allow",
                "`{cmd}` in workdir `{workdir}`: {v:#}"
            );
        }
    }
}
