//! The command line: the table of subcommands, dispatch, help and version; what the process prints is returned, never printed.
//!
//! Hook mode (the default, and `warden hook`) is in `hook.rs`; the policy
//! subcommands (`why`, `lint`, `bless`) in `policy.rs`. Every subcommand is
//! one entry of the table in `crate::subcommands`, which also reads the
//! arguments; here each is mapped to the function that runs it.

mod args;
mod audit;
mod cases;
mod check;
mod hook;
mod once;
mod policy;
mod project;
mod rules;
mod setup;
mod standing;
mod style;
mod trust;

use std::io::{Read, Write};
use std::path::Path;

use args::Parsed;

use crate::config::environment::Vetted;
use crate::config::load::{self, Locations};
use crate::engine::{NoHuman, Options};
use crate::error::Error;
use crate::subcommands::{self, Reading, Spec, Sub, SUBCOMMANDS};

pub use check::batch_catches;
pub use hook::MAX_PAYLOAD_BYTES;

/// What the process should print and return; the library never prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
    /// The decision to log once `stdout` is out (see [`Outcome::after_verdict`]).
    pub audit: Option<crate::audit::Pending>,
}

impl Outcome {
    /// What is done after the verdict is printed: hands the decision to the
    /// audit log and syslog. Returns what to add to stderr; nothing here can
    /// change the verdict.
    pub fn after_verdict(&self) -> String {
        let failed = self.audit.as_ref().map(crate::audit::Pending::write);
        failed
            .unwrap_or_default()
            .iter()
            .map(|sentence| format!("warden: {sentence}\n"))
            .collect()
    }
}

/// The process environment warden depends on, read by `main`.
#[derive(Debug, Clone, Default)]
pub struct Env {
    sudo_password_set: bool,
    /// stdin is a terminal: a person typed `warden` with no payload.
    stdin_is_terminal: bool,
    /// `HERMES_YOLO_MODE` is on: named by `why` and `doctor`, never
    /// honoured (the environment may only tighten).
    yolo: bool,
    /// No human will answer an ask (`HERMES_CRON_SESSION`, `WARDEN_UNATTENDED`).
    unattended: Option<NoHuman>,
    /// Where policy files, the cache and the ledger are. `Default` has none,
    /// so tests see only the built-in rules unless they say otherwise.
    locations: Locations,
    /// Where the agents keep their configuration and programs.
    homes: crate::agents::Homes,
    /// `CLAUDE_PROJECT_DIR`: the project Claude Code works in.
    claude_project: Option<String>,
    /// `HERMES_WRITE_SAFE_ROOT`, split into its directories.
    safe_roots: Vec<String>,
    /// The running binary.
    warden_exe: Option<String>,
    /// stdout is a terminal and `NO_COLOR` is not set: colour what people read.
    colour: bool,
    /// `WARDEN_DEADLINE_MS`: how long the hook may take to read and decide.
    deadline: Option<std::time::Duration>,
    /// The variables read here (not locations) that could loosen the
    /// guard, as set, for `why` and `doctor` to name.
    loosening: Vec<(&'static str, String)>,
    /// `WARDEN_DEBUG_PANIC`, read only by debug builds: a shell command that
    /// panics when it is judged, so tests can prove what a bug costs.
    #[cfg(debug_assertions)]
    panic_on: Option<String>,
}

/// The hook's own deadline when `WARDEN_DEADLINE_MS` does not set one: far
/// below the agents' hook timeouts (10 s as `warden install` registers it,
/// 60 s by default), far above any real decision (milliseconds).
pub const DEFAULT_DEADLINE_MS: u64 = 2000;

/// What `main` does when the hook has not answered in time: print `stdout`
/// (a block) and `stderr`, and exit 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline {
    pub after: std::time::Duration,
    pub stdout: String,
    pub stderr: String,
}

impl Env {
    pub fn from_process() -> Env {
        use std::io::IsTerminal;
        let mut env = Env::from_vars(
            |name| std::env::var(name).ok(),
            std::io::stdin().is_terminal(),
        );
        env.warden_exe = std::env::current_exe().ok().map(|p| crate::path::text(&p));
        env.colour = std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
        env
    }

    /// Reads the environment through `var`, so tests can supply their own.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>, stdin_is_terminal: bool) -> Env {
        let on = |name: &str| {
            var(name).is_some_and(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "1" | "true" | "yes" | "on"
                )
            })
        };
        let unattended = if on("HERMES_CRON_SESSION") {
            Some(NoHuman::Cron)
        } else {
            match var("WARDEN_UNATTENDED")
                .map(|v| v.trim().to_ascii_lowercase())
                .as_deref()
            {
                Some("cron") => Some(NoHuman::Cron),
                Some("single-query" | "single_query") => Some(NoHuman::SingleQuery),
                Some("" | "0" | "false" | "no" | "off") | None => None,
                Some(_) => Some(NoHuman::Unattended),
            }
        };
        let loosening = [
            "HERMES_YOLO_MODE",
            "HERMES_CRON_SESSION",
            "WARDEN_UNATTENDED",
            "SUDO_PASSWORD",
            "CLAUDE_PROJECT_DIR",
            "WARDEN_DEADLINE_MS",
        ]
        .into_iter()
        .filter_map(|name| Some((name, var(name).filter(|v| !v.is_empty())?)))
        .collect();
        Env {
            loosening,
            sudo_password_set: var("SUDO_PASSWORD").is_some_and(|v| !v.is_empty()),
            stdin_is_terminal,
            yolo: on("HERMES_YOLO_MODE"),
            unattended,
            locations: Locations::from_vars(&var),
            homes: crate::agents::Homes::from_vars(&var),
            claude_project: var("CLAUDE_PROJECT_DIR").filter(|v| v.starts_with('/')),
            safe_roots: var("HERMES_WRITE_SAFE_ROOT")
                .map(|v| safe_roots(&v, var("HOME").as_deref()))
                .unwrap_or_default(),
            warden_exe: None,
            colour: false,
            deadline: match var("WARDEN_DEADLINE_MS").map(|v| v.trim().parse::<u64>()) {
                // 0 turns it off, for debugging under a slow tracer.
                Some(Ok(0)) => None,
                Some(Ok(ms)) => Some(std::time::Duration::from_millis(ms)),
                Some(Err(_)) | None => Some(std::time::Duration::from_millis(DEFAULT_DEADLINE_MS)),
            },
            #[cfg(debug_assertions)]
            panic_on: var("WARDEN_DEBUG_PANIC"),
        }
    }

    /// Panics on the command `WARDEN_DEBUG_PANIC` names (debug builds only;
    /// a release build has neither the variable nor this check).
    fn provoke(&self, _call: &crate::payload::ToolCall) {
        #[cfg(debug_assertions)]
        if self.panic_on.is_some() && self.panic_on.as_deref() == _call.command() {
            panic!("WARDEN_DEBUG_PANIC asked for a panic on this command");
        }
    }

    /// How to style what people read.
    pub(crate) fn style(&self) -> style::Style {
        style::Style { on: self.colour }
    }

    /// The directory a call's policy and project are found from: the
    /// session's (the payload's `cwd`), never the model's `workdir`, which
    /// only moves where the tool runs.
    fn session_dir(&self, call: &crate::payload::ToolCall) -> Option<String> {
        let home = self.locations.home.as_deref().map(crate::path::text);
        call.session_dir(home.as_deref())
    }

    /// Where policy, cache and state are for a call in `cwd`: the
    /// environment's locations, less those an agent could have chosen.
    pub(crate) fn vetted(&self, cwd: Option<&str>) -> Vetted {
        self.vetted_in(cwd, project::find(cwd, &self.search()))
    }

    /// [`Env::vetted`], with the project `found` for `cwd` already.
    fn vetted_in(&self, cwd: Option<&str>, found: Option<String>) -> Vetted {
        let home = self.locations.home.as_deref().map(crate::path::text);
        let ordinary = |dir: &String| crate::engine::can_be_project(dir, home.as_deref());
        let cwd = cwd
            .filter(|c| c.starts_with('/'))
            .map(|c| crate::path::absolute(c, None, None));
        let project = found.filter(ordinary).or(cwd.filter(ordinary));
        crate::config::environment::vet(&self.locations, project.as_deref().map(Path::new))
    }

    fn search(&self) -> project::Search<'_> {
        project::Search {
            claude_project: self.claude_project.as_deref(),
            home: self.locations.home.as_deref(),
            ceiling: self.locations.project_ceiling.as_deref(),
        }
    }

    /// Engine options for a call in `cwd`, with the policy loaded for it
    /// and the locations it was loaded from; what the loader has to say
    /// goes to `stderr`.
    fn options(
        &self,
        cwd: Option<&str>,
        stderr: &mut String,
    ) -> (Options, load::Loaded, Locations) {
        let found = project::find(cwd, &self.search());
        let vetted = self.vetted_in(cwd, found.clone());
        let mut loaded = load::load(&vetted.locations, cwd.map(Path::new));
        for line in vetted
            .notes()
            .iter()
            .chain(&loaded.notes)
            .chain(&loaded.policy.problems)
        {
            stderr.push_str(line);
            stderr.push('\n');
        }
        let options = Options {
            sudo_password_set: self.sudo_password_set,
            unattended: self.unattended,
            home: self.locations.home.as_ref().map(|h| crate::path::text(h)),
            // Moved, not cloned: the policy can hold megabytes of rules.
            policy: std::sync::Arc::new(std::mem::take(&mut loaded.policy)),
            project: found,
            hermes_home: vetted
                .locations
                .hermes_home
                .as_ref()
                .map(|h| crate::path::absolute(&crate::path::text(h), None, None)),
            safe_roots: self.safe_roots.clone(),
            warden_exe: self.warden_exe.clone(),
            guard_paths: self.guard_paths(&vetted.locations),
            links: Some(std::sync::Arc::new(crate::resolve::Disk::default())),
            ..Options::default()
        };
        let mut options = options;
        // The agent must not be able to edit away what it did.
        if let Some(log) = self.audit_log(&options.policy.settings, &vetted.locations) {
            options.guard_paths.extend(
                log.files()
                    .iter()
                    .map(|p| crate::path::absolute(&crate::path::text(p), None, None)),
            );
        }
        (options, loaded, vetted.locations)
    }

    /// The audit log the settings ask for, with `~` and the default path
    /// resolved; `None` when logging is off or has nowhere to go.
    pub(crate) fn audit_log(
        &self,
        settings: &crate::config::model::Settings,
        locations: &Locations,
    ) -> Option<crate::audit::Log> {
        let audit = settings.audit.as_ref().filter(|a| a.file)?;
        let home = locations.home.as_deref();
        let path = match audit.path.as_deref() {
            None => locations.state_dir.as_ref()?.join("audit.jsonl"),
            Some("~") => return None,
            Some(p) => match p.strip_prefix("~/") {
                Some(rest) => home?.join(rest),
                None => std::path::PathBuf::from(p),
            },
        };
        Some(crate::audit::Log {
            path,
            max_bytes: audit.max_bytes,
            keep: audit.keep,
        })
    }

    /// Where the settings send `entry`: the audit log and syslog; `None`
    /// when auditing is off or neither has anywhere to go.
    pub(crate) fn audit_pending(
        &self,
        settings: &crate::config::model::Settings,
        locations: &Locations,
        entry: impl FnOnce() -> crate::audit::Entry,
    ) -> Option<crate::audit::Pending> {
        let log = self.audit_log(settings, locations);
        let syslog = settings
            .audit
            .as_ref()
            .and_then(|a| a.syslog.as_ref())
            .map(crate::audit::Syslog::from);
        (log.is_some() || syslog.is_some()).then(|| crate::audit::Pending {
            log,
            syslog,
            entry: entry(),
        })
    }

    /// The guard's own files where this machine keeps them: where the
    /// environment says, and where warden looks (`vetted`), which differ
    /// when a variable was ignored.
    fn guard_paths(&self, vetted: &Locations) -> Vec<String> {
        let h = &self.homes;
        let mut paths: Vec<std::path::PathBuf> = Vec::new();
        let moved = vetted.config_home != self.locations.config_home
            || vetted.cache_dir != self.locations.cache_dir
            || vetted.state_dir != self.locations.state_dir
            || vetted.hermes_home != self.locations.hermes_home
            || vetted.custom_patterns != self.locations.custom_patterns;
        let both = [&self.locations, vetted];
        for l in &both[..if moved { 2 } else { 1 }] {
            paths.extend(l.config_home.as_ref().map(|c| c.join("warden")));
            paths.extend(l.cache_dir.iter().chain(&l.state_dir).cloned());
            paths.extend(
                l.managed_dir
                    .iter()
                    .chain(&l.custom_patterns)
                    .chain(&l.warden_config)
                    .cloned(),
            );
        }
        if let Some(dir) = &h.claude_dir {
            paths.push(dir.join("settings.json"));
            paths.push(dir.join("settings.local.json"));
        }
        if let Some(dir) = &h.codex_home {
            paths.push(dir.join("hooks.json"));
            paths.push(dir.join("config.toml"));
        }
        paths.push(h.hermes_managed.clone());
        // Folded, as the guard's rules compare them as text.
        let mut out: Vec<String> = paths
            .iter()
            .map(|p| crate::path::absolute(&crate::path::text(p), None, None))
            .filter(|p| p.starts_with('/') && p != "/")
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// `HERMES_WRITE_SAFE_ROOT`: directories separated by `:` (as Python's
/// `os.pathsep` on Unix), `~` expanded; empty entries are ignored.
fn safe_roots(value: &str, home: Option<&str>) -> Vec<String> {
    value
        .split(':')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| crate::path::absolute(r, None, home))
        .filter(|r| r.starts_with('/'))
        .collect()
}

/// What runs a subcommand; a usage error it finds (a missing flag) comes
/// back as `Err`.
type Run = fn(&Parsed, &Env, &mut Io<'_>) -> Result<Outcome, Error>;

/// The function that runs each subcommand of the table in
/// [`crate::subcommands`].
fn runner(sub: Sub) -> Run {
    match sub {
        Sub::Hook => hook::run,
        Sub::Check => check::run,
        Sub::Why => policy::why,
        Sub::Rules => rules::run,
        Sub::Test => cases::run,
        Sub::Trust => trust::run,
        Sub::Audit => audit::run,
        Sub::Lint => policy::lint,
        Sub::Bless => policy::bless,
        Sub::AllowOnce => once::run,
        Sub::Install => setup::install,
        Sub::Uninstall => setup::uninstall,
        Sub::Doctor => setup::doctor,
        Sub::Project => standing::project,
    }
}

/// What a subcommand reads and may stream to. Only `check --batch` writes
/// to `stdout` as it goes (its output has no end); the rest return theirs in
/// [`Outcome::stdout`].
pub(crate) struct Io<'a> {
    pub(crate) stdin: &'a mut dyn Read,
    pub(crate) stdout: &'a mut dyn Write,
}

/// Runs warden with `args` (without the program name) and `stdin`; what it
/// prints is all in the outcome.
pub fn run(args: &[String], stdin: &mut dyn Read, env: &Env) -> Outcome {
    let mut streamed = Vec::new();
    let mut outcome = run_streaming(args, stdin, &mut streamed, env);
    if !streamed.is_empty() {
        outcome.stdout = String::from_utf8_lossy(&streamed).into_owned() + &outcome.stdout;
    }
    outcome
}

/// Runs warden as [`run`] does, but a subcommand whose output has no end
/// (`check --batch`) writes it to `stdout` as it goes; the rest of what to
/// print is in the outcome, to follow it.
pub fn run_streaming(
    args: &[String],
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    env: &Env,
) -> Outcome {
    let mut io = Io { stdin, stdout };
    match subcommands::read(args) {
        Reading::Version => plain(format!("warden {}\n", env!("CARGO_PKG_VERSION"))),
        Reading::Help(None) => plain(env.style().help(&global_help())),
        Reading::Help(Some(spec)) => plain(env.style().help(&command_help(spec))),
        Reading::UnknownHelp(name) => {
            usage_error(None, &Error::Usage(format!("unknown command `{name}`")))
        }
        // A word that names no command: a typo of a subcommand, or a hook
        // registered wrongly. Both must fail: the call is blocked (stdout),
        // and the exit code stops a script or CI step.
        Reading::Unknown(word) => {
            let err = Error::Usage(format!("unknown command `{word}`"));
            Outcome {
                stdout: hook::bad_start(&err),
                ..usage_error(None, &err)
            }
        }
        // A hook registered with a mistyped flag must still protect: block
        // and say why on stderr, so the user sees every call refused.
        Reading::Usage { spec, err, .. } if spec.sub == Sub::Hook => Outcome {
            stdout: hook::bad_start(&err),
            stderr: format!("warden: {err}\n{}", global_help()),
            code: 0,
            audit: None,
        },
        Reading::Usage { spec, err, .. } => usage_error(Some(spec), &err),
        Reading::Run { spec, parsed, .. } => dispatch(spec, &parsed, &mut io, env),
    }
}

fn dispatch(spec: &Spec, parsed: &Parsed, io: &mut Io<'_>, env: &Env) -> Outcome {
    let is_hook = spec.sub == Sub::Hook;
    if parsed.help {
        return plain(env.style().help(&if is_hook {
            global_help()
        } else {
            command_help(spec)
        }));
    }
    if is_hook && env.stdin_is_terminal {
        return Outcome {
            stdout: String::new(),
            stderr: format!(
                "warden: expected a hook payload on stdin\n{}",
                global_help()
            ),
            code: 2,
            audit: None,
        };
    }
    runner(spec.sub)(parsed, env, io).unwrap_or_else(|err| usage_error(Some(spec), &err))
}

/// The hook's deadline for this run: `None` for subcommands other than the
/// hook (and `check` without `--batch`), which may take as long as they need.
/// A hook that has not printed its verdict by then must print this block:
/// an agent that times a hook out lets the call run.
pub fn deadline(args: &[String], env: &Env) -> Option<Deadline> {
    let after = env.deadline?;
    // A run that reads a payload: the hook, or `check` without --batch.
    let Reading::Run { spec, parsed, .. } = subcommands::read(args) else {
        return None;
    };
    let hook = match spec.sub {
        Sub::Hook => true,
        Sub::Check => parsed.value("--batch").is_none(),
        _ => false,
    };
    if !hook || parsed.help {
        return None;
    }
    let dialect = parsed
        .value("--agent")
        .and_then(crate::verdict::Dialect::parse);
    let millis = after.as_millis() as u64;
    let verdict = crate::verdict::Verdict::input_block(
        "input.deadline",
        crate::verdict::Reason::Deadline { millis },
    );
    let line = match dialect {
        Some(dialect) => verdict.render(dialect),
        None => verdict.render_for_any_agent(),
    };
    Some(Deadline {
        after,
        stdout: format!("{line}\n"),
        stderr: format!(
            "warden: no verdict within the {millis} ms deadline (stdin still open, or a decision too slow); blocked\n"
        ),
    })
}

/// The line to print when warden itself fails (a bug): a block every agent reads.
pub fn panic_verdict(detail: &str) -> String {
    let verdict = crate::verdict::Verdict::input_block(
        "internal.error",
        crate::verdict::Reason::Internal {
            detail: detail.to_string(),
        },
    );
    format!("{}\n", verdict.render_for_any_agent())
}

fn plain(stdout: String) -> Outcome {
    Outcome {
        stdout,
        stderr: String::new(),
        code: 0,
        audit: None,
    }
}

/// A subcommand used wrongly: the problem and how to get help, on stderr,
/// exit 2, and no verdict.
fn usage_error(command: Option<&Spec>, err: &Error) -> Outcome {
    let err = match err {
        Error::Usage(problem) => problem.clone(),
        other => other.to_string(),
    };
    let stderr = match command {
        Some(c) => format!(
            "warden {}: {err}\nUSAGE: warden {} {}\nRun `warden {} --help` for more.\n",
            c.name, c.name, c.usage, c.name
        ),
        None => format!("warden: {err}\nRun `warden --help` for the commands.\n"),
    };
    Outcome {
        stdout: String::new(),
        stderr,
        code: 2,
        audit: None,
    }
}

fn global_help() -> String {
    let hook = &SUBCOMMANDS[0];
    let mut out = format!(
        "warden: a pre-tool-call guard for AI coding agents\n\n\
         USAGE:\n    warden [hook] {}\n    warden <COMMAND> [OPTIONS]\n\n{}\n\nCOMMANDS:\n",
        hook.usage, hook.about
    );
    let width = SUBCOMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for c in SUBCOMMANDS {
        out.push_str(&format!("    {:<width$}  {}\n", c.name, c.summary));
    }
    out.push_str("\nHOOK OPTIONS:\n");
    out.push_str(&args::describe(
        hook.flags,
        &[
            (
                "-h, --help",
                "print this help; `warden COMMAND --help` for one command",
            ),
            ("-V, --version", "print the version"),
        ],
    ));
    out
}

fn command_help(c: &Spec) -> String {
    format!(
        "warden {}: {}\n\nUSAGE:\n    warden {} {}\n\n{}\n\nOPTIONS:\n{}",
        c.name,
        c.summary,
        c.name,
        c.usage,
        c.about,
        args::describe(c.flags, &[("-h, --help", "print this help")])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(args: &[&str], payload: &str) -> Outcome {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        run(&args, &mut payload.as_bytes(), &Env::default())
    }

    const ASKED: &str = r#"{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"kubectl delete namespace prod"}}"#;

    #[test]
    fn on_ask_block_turns_asks_into_blocks() {
        let out = run_with(&["--on-ask", "block"], ASKED);
        assert!(
            out.stdout.starts_with(r#"{"action":"block""#),
            "{}",
            out.stdout
        );
        let out = run_with(&[], ASKED);
        assert!(
            out.stdout.contains(r#""action":"approve""#),
            "{}",
            out.stdout
        );
    }

    #[test]
    fn bad_flag_values_block() {
        let out = run_with(&["--on-ask", "maybe"], ASKED);
        assert!(out.stdout.contains(r#""decision":"block""#));
        assert!(out.stderr.contains("--on-ask"));
    }

    #[test]
    fn subcommand_usage_errors_exit_2_without_a_verdict() {
        for args in [
            &["lint", "--bogus"][..],
            &["why"],
            &["why", "--cmd"],
            &["bless", "extra"],
            &["help", "nope"],
        ] {
            let out = run_with(args, "");
            assert_eq!(out.code, 2, "{args:?}: {out:?}");
            assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
            assert!(out.stderr.starts_with("warden"), "{args:?}: {out:?}");
        }
    }

    #[test]
    fn an_unknown_command_fails_and_still_blocks() {
        let out = run_with(&["lnit"], "");
        assert_eq!(out.code, 2);
        assert!(out.stdout.contains(r#""decision":"block""#));
        assert!(out.stderr.contains("unknown command `lnit`"));
    }

    #[test]
    fn every_command_has_help() {
        for c in SUBCOMMANDS {
            for args in [vec![c.name, "--help"], vec!["help", c.name]] {
                let out = run_with(&args, "");
                assert_eq!(out.code, 0, "{args:?}");
                assert!(out.stdout.contains("USAGE"), "{args:?}: {}", out.stdout);
                assert!(out.stderr.is_empty());
            }
        }
        assert!(global_help().contains("    lint  "));
    }
}
