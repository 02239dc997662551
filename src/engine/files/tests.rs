//! Unit tests of `engine/files.rs`.

use std::sync::Arc;

use super::*;

/// What the engine knows around `call`, with home `/home/u`.
fn around(call: &ToolCall, project: Option<&str>) -> Around<'static> {
    Around {
        home: Some("/home/u"),
        dir: call_dir(call, Some("/home/u")),
        project: project.map(str::to_string),
        ..Around::default()
    }
}

fn dirs(command: &str, cwd: &str, project: Option<&str>) -> Vec<Option<String>> {
    let call = ToolCall::shell(command, Some(cwd.into()));
    let mut analysis = crate::shell::analyze(command);
    place_commands(&mut analysis, &around(&call, project));
    analysis.commands.into_iter().map(|c| c.cwd).collect()
}

#[test]
fn commands_outside_the_project_get_their_absolute_directory() {
    let p = Some("/home/u/p");
    assert_eq!(dirs("rm -rf etc", "/", p), [Some("/".to_string())]);
    assert_eq!(dirs("rm -rf build", "/home/u/p", p), [None]);
    assert_eq!(
        dirs("cd src && rm -rf x", "/home/u/p", p)[1],
        Some("src".into())
    );
    assert_eq!(
        dirs("cd ../.. && rm -rf x", "/home/u/p", p)[1],
        Some("/home".into())
    );
    assert_eq!(dirs("cd ~ && ls", "/home/u/p", p)[1], Some("~".into()));
    // A directory in the home, however reached, is named from `~`.
    assert_eq!(dirs("rm -rf *", "/home/u", None), [Some("~".to_string())]);
    assert_eq!(dirs("ls", "/home/u/.ssh", p), [Some("~/.ssh".to_string())]);
    assert_eq!(
        dirs("cd /home/u/.aws && ls", "/", p)[1],
        Some("~/.aws".into())
    );
    assert_eq!(dirs("ls", "/home/uv", p), [Some("/home/uv".to_string())]);
    // In the project, however the `cd` named the place, the command is
    // seen from the call's directory.
    for cd in [
        "cd /home/u/p/src",
        "cd ~/p/src",
        "cd ./src",
        "cd /home/u/p/x/../src",
    ] {
        let line = format!("{cd} && rm -rf x");
        assert_eq!(dirs(&line, "/home/u/p", p)[1], Some("src".into()), "{cd}");
    }
    for cd in ["cd /home/u/p", "cd ~/p", "cd .", "cd src/.."] {
        let line = format!("{cd} && rm -rf x");
        assert_eq!(dirs(&line, "/home/u/p", p)[1], None, "{cd}");
    }
    // In the project but not below the call's directory: as written.
    assert_eq!(
        dirs("cd /home/u/p/b && ls", "/home/u/p/a", p)[1],
        Some("/home/u/p/b".into())
    );
    // Outside it, from `~` however the `cd` named it.
    assert_eq!(
        dirs("cd ~/p/../.local && ls", "/home/u/p", p)[1],
        Some("~/.local".into())
    );
    assert_eq!(
        dirs("cd ~bob && ls", "/home/u/p", p)[1],
        Some("~bob".into())
    );
    assert_eq!(dirs("cd $X && ls", "/home/u/p", p)[1], Some("$X".into()));
}

#[test]
fn the_project_is_found_or_the_working_directory_when_ordinary() {
    let home = Some("/home/u");
    let dir = |cwd: &str| call_dir(&ToolCall::shell("ls", Some(cwd.into())), home);
    let project = |found, cwd| project(found, dir(cwd).as_deref(), home);
    assert_eq!(project(Some("/r"), "/r/x"), Some("/r".into()));
    assert_eq!(project(None, "/home/u/p"), Some("/home/u/p".into()));
    assert_eq!(project(None, "/tmp"), Some("/tmp".into()));
    for not_a_project in ["/", "/usr/lib", "/home/u", "/etc", "/home"] {
        assert_eq!(project(None, not_a_project), None, "{not_a_project}");
    }
    // However it was found: a repository or CLAUDE_PROJECT_DIR at the
    // home, at `/`, at a system directory or above the home is none,
    // and the working directory is judged on its own.
    for found in ["/home/u", "/", "/etc", "/usr/local/Homebrew"] {
        assert_eq!(
            project(Some(found), "/home/u/notes"),
            Some("/home/u/notes".into())
        );
        assert_eq!(project(Some(found), "/home/u"), None, "{found}");
    }
    assert!(!can_be_project("/srv", Some("/srv/u")));
    assert!(!can_be_project("/srv/u/", Some("/srv/u")));
    assert!(can_be_project("/srv/u/app", Some("/srv/u")));
    assert!(can_be_project("/tmp", Some("/home/u")));
    assert!(!can_be_project("/tmp/ci/home", Some("/tmp/ci/home")));
}

#[test]
fn remembered_directories_follow_the_call_and_the_home() {
    // Calls in turn, as a batch gives them: each answer must be the
    // one worked out afresh, whatever the call before asked.
    let cases = [
        ("/home/u/p", Some("/home/u")),
        ("/home/u/p", Some("/home/u")),
        ("/home/u/p", Some("/home/u/p")),
        ("~/p", Some("/home/u")),
        ("~/p", Some("/home/v")),
        ("~/p", None),
        ("/tmp", None),
        ("/home/u", Some("/home/u")),
        ("/home/u", None),
        ("rel", None),
    ];
    for (cwd, home) in cases {
        let call = ToolCall::shell("ls", Some(cwd.into()));
        let fresh = crate::path::absolute(cwd, None, home);
        let fresh = fresh.starts_with('/').then_some(fresh);
        assert_eq!(call_dir(&call, home), fresh, "{cwd} {home:?}");
        let ordinary = fresh.filter(|dir| can_be_project(dir, home));
        let dir = call_dir(&call, home);
        assert_eq!(
            project(None, dir.as_deref(), home),
            ordinary,
            "{cwd} {home:?}"
        );
    }
}

/// A file system of plain directories: no links, nothing else.
#[derive(Debug)]
struct Dirs(&'static [&'static str]);

impl Links for Dirs {
    fn probe(&self, path: &str) -> resolve::Probe {
        if self.0.contains(&path) {
            resolve::Probe::Present
        } else {
            resolve::Probe::Missing
        }
    }

    fn is_dir(&self, path: &str) -> bool {
        self.0.contains(&path)
    }
}

#[test]
fn a_copy_into_a_directory_on_disk_writes_the_file_inside_it() {
    const DIRS: &[&str] = &["/home", "/home/u", "/home/u/p", "/home/u/p/build", "/etc"];
    let links: Arc<dyn Links> = Arc::new(Dirs(DIRS));
    let written = |command: &str| -> Vec<String> {
        let call = ToolCall::shell(command, Some("/home/u/p".into()));
        let analysis = crate::shell::analyze(command);
        let around = around(&call, Some("/home/u/p"));
        touched(
            &call,
            Some(&analysis),
            &around,
            Some(links.as_ref()),
            &reach::LineLinks::default(),
        )
        .into_iter()
        .filter(|t| t.write)
        .map(|t| t.resolution.path)
        .collect()
    };
    assert_eq!(written("cp notes.txt build"), ["/home/u/p/build/notes.txt"]);
    assert_eq!(
        written("mv app.conf /etc"),
        ["/home/u/p/app.conf", "/etc/app.conf"]
    );
    assert_eq!(
        written("cp notes.txt build/"),
        ["/home/u/p/build/notes.txt"]
    );
    // Not a directory on disk, or `-T`: the destination is the file.
    assert_eq!(written("cp notes.txt copy.txt"), ["/home/u/p/copy.txt"]);
    assert_eq!(written("cp -T notes.txt build"), ["/home/u/p/build"]);
}

#[test]
fn a_tool_path_resolves_against_the_call_directory() {
    let call = ToolCall::new("write_file")
        .with_cwd(Some("/home/u/p/sub".into()))
        .with_path(Some("../../.ssh/x".into()));
    let around_p = around(&call, Some("/home/u/p"));
    let touched = touched(&call, None, &around_p, None, &reach::LineLinks::default());
    assert_eq!(touched.len(), 1);
    assert_eq!(touched[0].resolution.path, "/home/u/.ssh/x");
    assert!(touched[0].write && touched[0].how.is_none());
    let around = around(&call, None);
    let (_, rule) = first_hit(&touched, &around, Decision::Block, &[]).unwrap();
    assert_eq!(rule.id, "files.ssh");
}

#[test]
fn a_tool_path_follows_its_workdir_as_a_cd() {
    // A `workdir` moves the tool as a `cd` would; one warden cannot
    // follow leaves relative paths unresolved.
    let resolved = |workdir: &str| {
        let call = ToolCall::new("write_file")
            .with_cwd(Some("/home/u/p".into()))
            .with_workdir(Some(workdir.into()))
            .with_path(Some("bin/git".into()));
        let around = around(&call, Some("/home/u/p"));
        let line = reach::LineLinks::default();
        touched(&call, None, &around, None, &line)
            .remove(0)
            .resolution
    };
    assert_eq!(resolved("~/.local").path, "/home/u/.local/bin/git");
    assert_eq!(resolved("../../v").path, "/home/v/bin/git");
    assert!(resolved("src").problem.is_none());
    assert!(resolved("$X").problem.is_some());
}
