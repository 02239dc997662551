//! What the test modules share: the fake-machine builder `World`, paths in the checkout, and the switch that rewrites expected files.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::Value;
use warden::cli::{self, Env, Outcome};

/// `warden::fixtures` -> `fixtures`: test names start at the module.
pub fn module_name(path: &str) -> &str {
    path.split_once("::").map_or(path, |(_, rest)| rest)
}

/// Absolute path of `rel` in the checkout.
pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A text file of the checkout; a missing file fails the test that needs it.
pub fn read_repo_file(rel: &str) -> String {
    let path = repo_path(rel);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Set to rewrite golden fixtures and snapshots from what warden does now.
pub const UPDATE_VAR: &str = "WARDEN_UPDATE_EXPECTED";
/// The one command that regenerates every expected file.
pub const UPDATE_COMMAND: &str = "WARDEN_UPDATE_EXPECTED=1 cargo test --test warden";

/// Whether this run rewrites expected files instead of comparing with them.
pub fn updating() -> bool {
    std::env::var_os(UPDATE_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Writes an expected file in update mode, if its text changed.
pub fn write_expected(path: &Path, text: &str) -> Result<(), String> {
    // Updating in CI would turn every regression into a passing run, so it
    // is refused there rather than ignored.
    if std::env::var_os("CI").is_some() {
        return Err(format!(
            "{UPDATE_VAR} is refused when CI is set: update locally, read the diff, commit"
        ));
    }
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Stands for a world's absolute path in the files copied into it (and, for
/// fixtures, in payloads and expected verdicts), so files checked in do not
/// depend on where the checkout is.
pub const WORLD_TOKEN: &str = "@WORLD@";

/// A fake machine in a directory of its own under `CARGO_TARGET_TMPDIR`:
/// `home/` is HOME, `etc-warden/` the managed directory, `project/` where
/// calls run, `cache/` and `state/` warden's XDG directories, and the root
/// the ceiling of the project-file search. warden sees only the variables
/// listed here, so the tester's own HOME and policy files never count.
pub struct World {
    root: PathBuf,
    vars: Vec<(String, String)>,
}

/// Names handed out in this run. Tests run in parallel in one process, so
/// two tests sharing a world would race on its files.
static NAMES: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

impl World {
    /// An empty machine; `name` (which may contain `/`) must be unique.
    pub fn new(name: &str) -> World {
        let fresh = NAMES.lock().unwrap().insert(name.to_string());
        assert!(fresh, "two worlds are named {name:?}");
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("worlds")
            .join(name);
        let _ = fs::remove_dir_all(&root);
        for dir in ["home", "project"] {
            let dir = root.join(dir);
            fs::create_dir_all(&dir)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        }
        // Verdicts name paths as resolved, so the root must be too.
        let root = fs::canonicalize(&root).unwrap();
        let mut world = World {
            root,
            vars: Vec::new(),
        };
        for (name, rel) in [
            ("HOME", "home"),
            ("WARDEN_MANAGED_DIR", "etc-warden"),
            ("XDG_CACHE_HOME", "cache"),
            ("XDG_STATE_HOME", "state"),
            ("WARDEN_PROJECT_CEILING", ""),
        ] {
            world = world.var_at(name, rel);
        }
        // Debug builds on a loaded machine are slow; the deadline's own
        // tests set a short one.
        world.var("WARDEN_DEADLINE_MS", "60000")
    }

    /// Copies the tree at `from` into the world, with `WORLD_TOKEN` in every
    /// text file replaced by the world's path, then takes the `NAME=value`
    /// lines of its top-level `vars` file, if any, as variables, and trusts
    /// each project file its top-level `trusted` file lists (paths relative
    /// to the world), as the person would from a terminal.
    pub fn copy_of(mut self, from: &Path) -> World {
        copy_tree(from, &self.root, &self.root_text());
        let listed = self.root.join("vars");
        if listed.is_file() {
            let text = fs::read_to_string(&listed)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", listed.display()));
            for line in text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            {
                let (name, value) = line
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{}: `{line}` is not NAME=value", listed.display()));
                self = self.var(name, value);
            }
        }
        let trusted = self.root.join("trusted");
        if trusted.is_file() {
            let text = fs::read_to_string(&trusted)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", trusted.display()));
            for rel in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                self.trust(rel);
            }
        }
        self
    }

    /// `warden project trust` of the world's file `rel`, from a terminal,
    /// as the person would run it; it must succeed.
    pub fn trust(&self, rel: &str) -> Outcome {
        let out = self.run_as(&["project", "trust", &self.path(rel)], true);
        assert_eq!(out.code, 0, "trusting {rel}: {out:?}");
        out
    }

    /// The root as text, what `WORLD_TOKEN` stands for.
    pub fn root_text(&self) -> String {
        self.root.display().to_string()
    }

    /// Absolute path of `rel` inside the world.
    pub fn path(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }

    pub fn file(self, rel: &str, text: &str) -> World {
        self.put(rel, text.as_bytes());
        self
    }

    pub fn var(mut self, name: &str, value: &str) -> World {
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.to_string(), value.to_string()));
        self
    }

    /// Sets `name` to the absolute path of `rel` inside the world.
    pub fn var_at(self, name: &str, rel: &str) -> World {
        let value = self.path(rel);
        self.var(name, &value)
    }

    /// Writes a file now (for edits between calls).
    pub fn put(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    pub fn rm(&self, rel: &str) {
        fs::remove_file(self.root.join(rel)).unwrap();
    }

    /// The environment warden reads in-process: this world's variables only.
    pub fn env(&self, stdin_is_terminal: bool) -> Env {
        Env::from_vars(
            |name| {
                self.vars
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
            },
            stdin_is_terminal,
        )
    }

    /// The real binary, started in the world with its variables only.
    pub fn command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_warden"));
        cmd.env_clear()
            .envs(self.vars.iter().map(|(n, v)| (n, v)))
            .current_dir(&self.root);
        cmd
    }

    /// The real binary started with `args` and every stream piped, for a
    /// test that must hold the running process (write late, race many).
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        use std::process::Stdio;
        self.command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn warden")
    }

    /// The real binary started through `wrapper` (`setpriv --reuid=N --`,
    /// to run it as another user), with `args` and the world's variables,
    /// given `payload` on stdin.
    pub fn run_wrapped(
        &self,
        wrapper: &[&str],
        args: &[&str],
        payload: &[u8],
    ) -> std::io::Result<std::process::Output> {
        use std::io::Write;
        use std::process::Stdio;
        let (program, before) = wrapper.split_first().expect("a wrapper program");
        let mut child = std::process::Command::new(program)
            .args(before)
            .arg(env!("CARGO_BIN_EXE_warden"))
            .args(args)
            .env_clear()
            .envs(self.vars.iter().map(|(n, v)| (n, v)))
            .current_dir(&self.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(payload);
        }
        child.wait_with_output()
    }

    /// The real binary with `args`, given `payload` on stdin, after
    /// `change` (more arguments, variables, a wrapper) is made to its
    /// command. stdin is written from a thread: warden may stop reading
    /// early (an oversized payload), and a blocked write must not hang.
    pub fn run_binary(
        &self,
        args: &[&str],
        payload: &[u8],
        change: impl FnOnce(&mut std::process::Command),
    ) -> std::process::Output {
        use std::io::Write;
        use std::process::Stdio;
        let mut cmd = self.command();
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        change(&mut cmd);
        let mut child = cmd.spawn().expect("spawn warden");
        let mut stdin = child.stdin.take().expect("stdin pipe");
        let payload = payload.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&payload);
        });
        let out = child.wait_with_output().expect("wait for warden");
        writer.join().expect("stdin writer");
        out
    }

    /// A Hermes terminal call of `cmd` in `project/`: the native verdict and stderr.
    pub fn hook(&self, cmd: &str) -> (Value, String) {
        self.call(&serde_json::json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": cmd},
            "cwd": self.path("project"),
        }))
    }

    /// The same call with the model's `workdir` (as Hermes passes it).
    pub fn hook_in(&self, workdir: &str, cmd: &str) -> (Value, String) {
        self.call(&serde_json::json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": cmd, "workdir": workdir},
            "cwd": self.path("project"),
        }))
    }

    /// Any payload: the native verdict and stderr.
    pub fn call(&self, payload: &Value) -> (Value, String) {
        let payload = payload.to_string();
        let args = ["--agent".to_string(), "native".to_string()];
        let out = cli::run(&args, &mut payload.as_bytes(), &self.env(false));
        assert_eq!(out.code, 0, "{out:?}");
        let line = out.stdout.strip_suffix('\n').expect("one line");
        assert!(!line.contains('\n'), "{out:?}");
        (serde_json::from_str(line).unwrap(), out.stderr)
    }

    /// A file of the world, as text.
    pub fn read(&self, rel: &str) -> String {
        let path = self.root.join(rel);
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    }

    pub fn run(&self, args: &[&str]) -> Outcome {
        self.run_as(args, false)
    }

    pub fn run_as(&self, args: &[&str], stdin_is_terminal: bool) -> Outcome {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        cli::run(&args, &mut &b""[..], &self.env(stdin_is_terminal))
    }

    pub fn why(&self, cmd: &str) -> Outcome {
        let project = self.path("project");
        self.run(&["why", "--tool", "terminal", "--cmd", cmd, "--cwd", &project])
    }

    /// The compiled-policy files in the cache (not their fingerprint stamps).
    pub fn cache_files(&self) -> Vec<PathBuf> {
        let Ok(entries) = fs::read_dir(self.root.join("cache/warden")) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        files.sort();
        files
    }

    /// `warden bless` for the project, from a terminal or not.
    pub fn bless(&self, stdin_is_terminal: bool) -> Outcome {
        let project = self.path("project");
        self.run_as(&["bless", "--cwd", &project], stdin_is_terminal)
    }

    pub fn ledger(&self) -> Option<Vec<u8>> {
        fs::read(self.root.join("state/warden/ledger.json")).ok()
    }
}

fn copy_tree(from: &Path, to: &Path, root: &str) {
    let mut entries: Vec<PathBuf> = fs::read_dir(from)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", from.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for entry in entries {
        let target = to.join(entry.file_name().unwrap());
        // A link stays a link (a fixture's project may point into its home),
        // with its target's `WORLD_TOKEN` replaced like a file's text.
        if fs::symlink_metadata(&entry).is_ok_and(|m| m.file_type().is_symlink()) {
            let link = fs::read_link(&entry)
                .unwrap_or_else(|e| panic!("cannot read link {}: {e}", entry.display()));
            let link = link.to_string_lossy().replace(WORLD_TOKEN, root);
            std::os::unix::fs::symlink(&link, &target)
                .unwrap_or_else(|e| panic!("cannot link {}: {e}", target.display()));
            continue;
        }
        if entry.is_dir() {
            fs::create_dir_all(&target)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", target.display()));
            copy_tree(&entry, &target, root);
        } else {
            let bytes =
                fs::read(&entry).unwrap_or_else(|e| panic!("cannot read {}: {e}", entry.display()));
            let bytes = match String::from_utf8(bytes) {
                Ok(text) => text.replace(WORLD_TOKEN, root).into_bytes(),
                Err(e) => e.into_bytes(),
            };
            fs::write(&target, bytes)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", target.display()));
        }
    }
}

/// Asserts a verdict's action and rule id (`None`: no rule).
#[track_caller]
pub fn verdict_is(v: &Value, action: &str, rule: Option<&str>) {
    assert_eq!(v["action"], action, "{v:#}");
    assert_eq!(v["rule_id"].as_str(), rule, "{v:#}");
}

/// The `cache:` line of `warden why`.
pub fn cache_line(out: &Outcome) -> &str {
    out.stdout
        .lines()
        .find(|l| l.starts_with("cache: "))
        .unwrap_or_else(|| panic!("no cache line in:\n{}", out.stdout))
}

/// Holds the text between two markers of a documentation file (`README.md`,
/// `docs/…`) to `want`, or rewrites it when updating.
pub fn doc_block(file: &str, start_marker: &str, end_marker: &str, want: &str, source: &str) {
    // Several tests hold blocks of one page, and the harness runs them at
    // once: reading and rewriting a page is one step, or an update is lost.
    static PAGES: Mutex<()> = Mutex::new(());
    let _page = PAGES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let text = read_repo_file(file);
    let start = text
        .find(start_marker)
        .unwrap_or_else(|| panic!("{file} has no {start_marker:?} marker"))
        + start_marker.len();
    let end = text[start..]
        .find(end_marker)
        .map(|at| start + at)
        .unwrap_or_else(|| panic!("{file} has no {end_marker:?} marker"));
    if text[start..end] == *want {
        return;
    }
    if updating() {
        let updated = format!("{}{want}{}", &text[..start], &text[end..]);
        write_expected(&repo_path(file), &updated)
            .unwrap_or_else(|e| panic!("{file} is not writable: {e}"));
        return;
    }
    panic!(
        "{file}'s block is not {source}; run {UPDATE_COMMAND} and read the diff.\nwant:\n{want}"
    );
}
