//! A fake machine for the policy tests: files in a temporary root, and warden run on it in-process.
//!
//! Shared by `tests/policy.rs` and `tests/policy_ledger.rs`; each uses part
//! of it, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use warden::cli::{self, Env, Outcome};

/// A fake machine: `home/` is HOME, `etc-warden/` the managed directory,
/// `project/` the working directory of every call, `cache/` and `state/`
/// warden's XDG directories.
pub struct World {
    pub root: PathBuf,
    vars: Vec<(String, String)>,
}

impl World {
    pub fn new(name: &str) -> World {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("policy-worlds")
            .join(name);
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("project")).unwrap();
        fs::create_dir_all(root.join("home")).unwrap();
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
        world
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

    /// A Hermes terminal call of `cmd` in `project/`: the native verdict and stderr.
    pub fn hook(&self, cmd: &str) -> (Value, String) {
        let payload = serde_json::json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": cmd},
            "cwd": self.path("project"),
        })
        .to_string();
        let args = ["--agent".to_string(), "native".to_string()];
        let out = cli::run(&args, &mut payload.as_bytes(), &self.env(false));
        assert_eq!(out.code, 0, "{out:?}");
        let line = out.stdout.strip_suffix('\n').expect("one line");
        assert!(!line.contains('\n'), "{out:?}");
        (serde_json::from_str(line).unwrap(), out.stderr)
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

    pub fn rm(&self, rel: &str) {
        fs::remove_file(self.root.join(rel)).unwrap();
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
