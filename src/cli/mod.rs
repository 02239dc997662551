//! The command line: argument parsing, hook mode (one payload in, one verdict line out), help and version.
//!
//! The policy subcommands (`why`, `lint`, `bless`) live in [`policy`].

mod policy;

use std::io::Read;
use std::path::Path;

use crate::config::load::{self, Locations};
use crate::engine::{self, NoHuman, Options};
use crate::error::Error;
use crate::payload;
use crate::verdict::{Decision, Dialect, Verdict};

/// The most stdin warden reads in hook mode. Real payloads are a few KiB;
/// anything past this is refused (blocked) rather than buffered.
pub const MAX_PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

/// What the process should print and return; the library never prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// The process environment the hook depends on, read by `main`.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub sudo_password_set: bool,
    /// stdin is a terminal: a person typed `warden` with no payload.
    pub stdin_is_terminal: bool,
    /// `HERMES_YOLO_MODE` is on (read here, never from a command's text).
    pub yolo: bool,
    /// No human will answer an ask (`HERMES_CRON_SESSION`, `WARDEN_UNATTENDED`).
    pub unattended: Option<NoHuman>,
    /// Where policy files, the cache and the ledger are. `Default` has none,
    /// so tests see only the built-in rules unless they say otherwise.
    pub locations: Locations,
}

impl Env {
    pub fn from_process() -> Env {
        use std::io::IsTerminal;
        Env::from_vars(
            |name| std::env::var(name).ok(),
            std::io::stdin().is_terminal(),
        )
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
        Env {
            sudo_password_set: var("SUDO_PASSWORD").is_some_and(|v| !v.is_empty()),
            stdin_is_terminal,
            yolo: on("HERMES_YOLO_MODE"),
            unattended,
            locations: Locations::from_vars(&var),
        }
    }

    /// Runs `decide` with the policy for `cwd`. If a rule read from the
    /// cache fails its check meanwhile, the answer is thrown away with the
    /// cache entry, and `decide` runs again on a freshly compiled policy.
    pub(crate) fn with_policy<T>(
        &self,
        cwd: Option<&str>,
        stderr: &mut String,
        decide: impl Fn(&Options) -> T,
    ) -> (T, load::Loaded) {
        let (options, mut loaded) = self.options(cwd, stderr);
        let answer = decide(&options);
        // A cached rule that failed its check was recovered inside config
        // (a fresh compile answered); say that the cache was rebuilt.
        loaded.refresh_cache_status();
        (answer, loaded)
    }

    /// Engine options for a call in `cwd`, with the policy loaded for it;
    /// what the loader has to say goes to `stderr`.
    pub(crate) fn options(
        &self,
        cwd: Option<&str>,
        stderr: &mut String,
    ) -> (Options, load::Loaded) {
        let mut loaded = load::load(&self.locations, cwd.map(Path::new));
        for line in loaded.notes.iter().chain(&loaded.policy.problems) {
            stderr.push_str(line);
            stderr.push('\n');
        }
        let options = Options {
            sudo_password_set: self.sudo_password_set,
            yolo: self.yolo,
            unattended: self.unattended,
            home: self
                .locations
                .home
                .as_ref()
                .map(|h| h.display().to_string()),
            // Moved, not cloned: the policy can hold megabytes of rules.
            policy: std::sync::Arc::new(std::mem::take(&mut loaded.policy)),
        };
        (options, loaded)
    }
}

/// How the hook was asked to behave.
#[derive(Debug, Clone, Copy, Default)]
struct HookOptions {
    dialect: Option<Dialect>,
    /// Turn every ask into a block, for agents that cannot ask (Hermes
    /// 0.19 ignores `approve`, so an ask would let the call through).
    ask_as_block: bool,
}

enum Mode {
    Hook(HookOptions),
    Policy(policy::Command),
    Help,
    Version,
}

const HELP: &str = "\
warden: a pre-tool-call guard for AI coding agents

USAGE:
    warden [hook] [--agent hermes|claude|codex|native] < payload.json
    warden why [--tool NAME] (--cmd COMMAND | --path PATH) [--cwd DIR]
    warden lint [--cwd DIR]
    warden bless [--cwd DIR]

Reads one hook payload (JSON) on stdin and writes one verdict line (JSON) on
stdout. Without --agent the dialect follows the payload: Hermes payloads get
Hermes' format, Claude Code's get Claude's, Codex's get Codex's.

SUBCOMMANDS:
    why     show every layer's view of one call: sources, matching rules
            (with file and line), the winner and the verdict
    lint    check every policy file and every rule's examples; exit 1 on problems
    bless   accept the current policy files into the integrity ledger (from
            a terminal only): protected rules that were removed stop being kept

OPTIONS:
    --agent NAME   output dialect: hermes, claude, codex or native
    --on-ask WHAT  `ask` (default) or `block`: block what would be asked, for
                   agents that cannot ask (Hermes before `approve` support)
    -h, --help     print this help
    -V, --version  print the version
";

/// Runs warden with `args` (without the program name) and `stdin`.
pub fn run(args: &[String], stdin: &mut dyn Read, env: &Env) -> Outcome {
    let mode = match parse_args(args) {
        Ok(mode) => mode,
        // A hook registered with a mistyped flag must still protect: block
        // and say why on stderr, so the user sees every call refused.
        Err(err) => {
            return Outcome {
                stdout: format!(
                    "{}\n",
                    Verdict::input_block(err.id(), format!("warden was started wrongly: {err}"))
                        .render_for_any_agent()
                ),
                stderr: format!("warden: {err}\n{HELP}"),
                code: 0,
            }
        }
    };
    match mode {
        Mode::Help => plain(HELP.to_string()),
        Mode::Version => plain(format!("warden {}\n", env!("CARGO_PKG_VERSION"))),
        Mode::Hook(_) if env.stdin_is_terminal => Outcome {
            stdout: String::new(),
            stderr: format!("warden: expected a hook payload on stdin\n{HELP}"),
            code: 2,
        },
        Mode::Hook(options) => hook(stdin, options, env),
        Mode::Policy(command) => policy::run(&command, env),
    }
}

/// The line to print when warden itself fails (a bug): a block every agent reads.
pub fn panic_verdict(detail: &str) -> String {
    let verdict = Verdict::input_block(
        "internal.error",
        format!("Blocked: warden hit an internal error ({detail}), so it fails closed."),
    );
    format!("{}\n", verdict.render_for_any_agent())
}

fn plain(stdout: String) -> Outcome {
    Outcome {
        stdout,
        stderr: String::new(),
        code: 0,
    }
}

fn parse_args(args: &[String]) -> Result<Mode, Error> {
    let mut options = HookOptions::default();
    let mut iter = args.iter().map(String::as_str).peekable();
    if let Some(&name) = iter.peek() {
        if let Some(command) = policy::parse(name, &args[1..])? {
            return Ok(Mode::Policy(command));
        }
    }
    if iter.peek() == Some(&"hook") {
        iter.next();
    }
    while let Some(arg) = iter.next() {
        match arg {
            "-h" | "--help" | "help" => return Ok(Mode::Help),
            "-V" | "--version" => return Ok(Mode::Version),
            "--agent" => {
                let name = iter
                    .next()
                    .ok_or_else(|| Error::Usage("--agent needs a value".into()))?;
                options.dialect = Some(parse_dialect(name)?);
            }
            "--on-ask" => {
                let what = iter
                    .next()
                    .ok_or_else(|| Error::Usage("--on-ask needs a value".into()))?;
                options.ask_as_block = parse_on_ask(what)?;
            }
            _ => {
                if let Some(name) = arg.strip_prefix("--agent=") {
                    options.dialect = Some(parse_dialect(name)?);
                } else if let Some(what) = arg.strip_prefix("--on-ask=") {
                    options.ask_as_block = parse_on_ask(what)?;
                } else {
                    return Err(Error::Usage(format!("unknown argument `{arg}`")));
                }
            }
        }
    }
    Ok(Mode::Hook(options))
}

fn parse_on_ask(what: &str) -> Result<bool, Error> {
    match what {
        "ask" => Ok(false),
        "block" => Ok(true),
        _ => Err(Error::Usage(format!(
            "unknown --on-ask value `{what}` (expected ask or block)"
        ))),
    }
}

fn parse_dialect(name: &str) -> Result<Dialect, Error> {
    Dialect::parse(name).ok_or_else(|| {
        Error::Usage(format!(
            "unknown agent `{name}` (expected hermes, claude, codex or native)"
        ))
    })
}

fn hook(stdin: &mut dyn Read, hook_options: HookOptions, env: &Env) -> Outcome {
    let dialect = hook_options.dialect;
    let mut stderr = String::new();
    match read_payload(stdin).and_then(|text| payload::parse(&text)) {
        Ok(call) => {
            // Other events carry nothing to judge: no policy to load.
            let mut verdict = if call.is_pre_tool() {
                env.with_policy(call.cwd.as_deref(), &mut stderr, |options| {
                    engine::evaluate(&call, options)
                })
                .0
            } else {
                engine::evaluate(&call, &Options::default())
            };
            if hook_options.ask_as_block && verdict.decision == Decision::Ask {
                verdict.decision = Decision::Block;
                verdict.message = format!(
                    "{} (Blocked rather than asked: warden runs with --on-ask block.)",
                    verdict.message.replacen("Needs approval:", "Blocked:", 1)
                );
            }
            let dialect = dialect.unwrap_or(call.agent.dialect());
            // Claude Code and Codex check that a hook's output names the
            // event it answers; for events other than PreToolUse warden has
            // no opinion, and an empty object says exactly that.
            let line = match dialect {
                Dialect::Claude | Dialect::Codex if !call.is_pre_tool() => "{}".to_string(),
                _ => verdict.render(dialect),
            };
            Outcome {
                stdout: format!("{line}\n"),
                stderr,
                code: 0,
            }
        }
        Err(err) => {
            let verdict = Verdict::input_block(
                err.id(),
                format!(
                    "Blocked: warden could not read the tool call ({err}), so it fails closed."
                ),
            );
            // An unreadable payload names no agent: without --agent, write
            // the block in a form every agent reads.
            let line = match dialect {
                Some(dialect) => verdict.render(dialect),
                None => verdict.render_for_any_agent(),
            };
            Outcome {
                stdout: format!("{line}\n"),
                stderr: format!("warden: {err}\n"),
                code: 0,
            }
        }
    }
}

fn read_payload(stdin: &mut dyn Read) -> Result<String, Error> {
    let mut bytes = Vec::new();
    stdin
        .take(MAX_PAYLOAD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            what: "stdin".into(),
            source,
        })?;
    if bytes.len() > MAX_PAYLOAD_BYTES {
        return Err(Error::PayloadTooLarge {
            limit: MAX_PAYLOAD_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| Error::PayloadNotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
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
}
