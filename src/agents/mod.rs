//! The agents' own configuration: where Hermes, Claude Code, Codex, Gemini CLI, Copilot CLI and OpenCode read their hooks, registering warden there (`install`, `uninstall`) and checking that it really runs (`doctor`).
//!
//! Each agent has a module that knows its files and its quirks (`hermes`,
//! `claude`, `codex`, `gemini`, `copilot`, `opencode`); they share the safe file writer (`files`), the
//! order-keeping JSON editor (`json_doc`, `hooks_json`) and Hermes' YAML
//! editor (`hermes_yaml`). Nothing here prints: every function returns the
//! lines a person should read.

mod claude;
mod codex;
mod copilot;
mod doctor;
mod files;
mod gemini;
mod hermes;
mod hermes_yaml;
mod hooks_json;
mod json_doc;
mod opencode;
mod process;
mod purge;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use doctor::{doctor, Check, Status};
pub use purge::{leftovers, remove as purge};

pub use crate::payload::Agent;

/// Where the agents keep their files and programs, read from the
/// environment once (tests give their own).
#[derive(Debug, Clone, Default)]
pub struct Homes {
    pub home: Option<PathBuf>,
    /// `$HERMES_HOME`, else `~/.hermes`.
    pub hermes_home: Option<PathBuf>,
    /// `$HERMES_MANAGED_DIR`, else `/etc/hermes`: a `hooks.pre_tool_call`
    /// list there replaces the user's.
    pub hermes_managed: PathBuf,
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude_dir: Option<PathBuf>,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`.
    pub gemini_dir: Option<PathBuf>,
    /// `$GEMINI_CLI_TRUSTED_FOLDERS_PATH`: where Gemini CLI records the
    /// folders trusted, when not in `gemini_dir`.
    pub gemini_trusted_folders: Option<PathBuf>,
    /// `$COPILOT_HOME`, else `~/.copilot`.
    pub copilot_home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`.
    pub opencode_dir: Option<PathBuf>,
    /// `OPENCODE_PURE`, which switches off every plugin but OpenCode's own.
    pub opencode_pure: Option<String>,
    /// The directories of `$PATH`, in order.
    pub path: Vec<PathBuf>,
    /// `HERMES_SAFE_MODE` is set: Hermes runs no shell hook at all.
    pub hermes_safe_mode: bool,
}

impl Homes {
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Homes {
        let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = set("HOME");
        let under_home = |dir: &str| home.as_ref().map(|h| h.join(dir));
        Homes {
            hermes_home: set("HERMES_HOME").or_else(|| under_home(".hermes")),
            hermes_managed: set("HERMES_MANAGED_DIR").unwrap_or_else(|| "/etc/hermes".into()),
            claude_dir: set("CLAUDE_CONFIG_DIR").or_else(|| under_home(".claude")),
            codex_home: set("CODEX_HOME").or_else(|| under_home(".codex")),
            gemini_dir: set("GEMINI_CLI_HOME")
                .map(|h| h.join(".gemini"))
                .or_else(|| under_home(".gemini")),
            gemini_trusted_folders: set("GEMINI_CLI_TRUSTED_FOLDERS_PATH"),
            copilot_home: set("COPILOT_HOME").or_else(|| under_home(".copilot")),
            opencode_dir: set("XDG_CONFIG_HOME")
                .or_else(|| under_home(".config"))
                .map(|c| c.join("opencode")),
            opencode_pure: var("OPENCODE_PURE"),
            path: var("PATH")
                .map(|p| std::env::split_paths(&p).collect())
                .unwrap_or_default(),
            hermes_safe_mode: var("HERMES_SAFE_MODE")
                .is_some_and(|v| !matches!(v.trim(), "" | "0" | "false")),
            home,
        }
    }

    /// The first executable file called `name` on `PATH`.
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        self.path.iter().map(|dir| dir.join(name)).find(|file| {
            std::fs::metadata(file)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    }

    /// Whether the agent seems to be used here: its program is on `PATH`
    /// or its configuration directory exists.
    pub fn has(&self, agent: Agent) -> bool {
        self.which(agent.name()).is_some() || self.dir(agent).is_some_and(|d| d.is_dir())
    }

    /// The agent's configuration directory, when its home is known.
    pub fn dir(&self, agent: Agent) -> Option<&PathBuf> {
        match agent {
            Agent::Hermes => self.hermes_home.as_ref(),
            Agent::Claude => self.claude_dir.as_ref(),
            Agent::Codex => self.codex_home.as_ref(),
            Agent::Gemini => self.gemini_dir.as_ref(),
            Agent::OpenCode => self.opencode_dir.as_ref(),
            Agent::Copilot => self.copilot_home.as_ref(),
        }
    }

    /// The directories the agent's files that warden edits are in (where
    /// their backups are): its configuration directory, and Copilot's
    /// `hooks` directory in it.
    pub fn edited_dirs(&self, agent: Agent) -> Vec<PathBuf> {
        let Some(dir) = self.dir(agent) else {
            return Vec::new();
        };
        match agent {
            Agent::Copilot => vec![dir.clone(), copilot::hooks_dir(dir)],
            _ => vec![dir.clone()],
        }
    }
}

/// What `install` and `uninstall` are asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The agents to act on.
    pub agents: Vec<Agent>,
    /// Say what would change and change nothing.
    pub dry_run: bool,
    /// Record the person's consent to run warden's hook in Hermes'
    /// allowlist (Hermes otherwise asks at its first run, or skips the
    /// hook where no one can answer).
    pub accept_hooks: bool,
    /// The warden binary to register, absolute.
    pub warden: PathBuf,
}

/// One line of what was done or found, for one agent (or none: overall).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub agent: Option<Agent>,
    pub kind: Kind,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A change made (or, with --dry-run, that would be made).
    Changed,
    /// Nothing to do, or a fact worth knowing.
    Info,
    /// A step only the person can take.
    Todo,
    /// Something went wrong; the exit code says so.
    Failed,
}

/// What an install or uninstall did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub lines: Vec<Line>,
}

impl Report {
    fn push(&mut self, agent: Agent, kind: Kind, text: impl Into<String>) {
        self.lines.push(Line {
            agent: Some(agent),
            kind,
            text: text.into(),
        });
    }

    pub fn failed(&self) -> bool {
        self.lines.iter().any(|l| l.kind == Kind::Failed)
    }
}

/// One agent's install or uninstall, adding what it did to the report.
type Step = fn(&Homes, &Options, &mut Report);

/// What each agent's module does for `install` and `uninstall`.
struct Steps {
    install: Step,
    uninstall: Step,
}

fn steps(agent: Agent) -> Steps {
    match agent {
        Agent::Hermes => Steps {
            install: hermes::install,
            uninstall: hermes::uninstall,
        },
        Agent::Claude => Steps {
            install: claude::install,
            uninstall: claude::uninstall,
        },
        Agent::Codex => Steps {
            install: codex::install,
            uninstall: codex::uninstall,
        },
        Agent::Gemini => Steps {
            install: gemini::install,
            uninstall: gemini::uninstall,
        },
        Agent::Copilot => Steps {
            install: copilot::install,
            uninstall: copilot::uninstall,
        },
        Agent::OpenCode => Steps {
            install: opencode::install,
            uninstall: opencode::uninstall,
        },
    }
}

/// Registers warden with each agent in `options.agents`.
pub fn install(homes: &Homes, options: &Options) -> Report {
    each(homes, options, |s| s.install)
}

/// Takes out what `install` added, for each agent in `options.agents`.
pub fn uninstall(homes: &Homes, options: &Options) -> Report {
    each(homes, options, |s| s.uninstall)
}

fn each(homes: &Homes, options: &Options, pick: fn(Steps) -> Step) -> Report {
    let mut report = Report::default();
    for &agent in &options.agents {
        pick(steps(agent))(homes, options, &mut report);
    }
    report
}

/// Reads the text file at `path` (empty when missing), asks `change` for
/// the new text and what it did, and writes it when it differs (a backup
/// first). A `change` that refuses leaves the file alone and is reported.
fn edit_text(
    report: &mut Report,
    agent: Agent,
    options: &Options,
    path: &Path,
    change: impl FnOnce(&str) -> Result<(Option<String>, Vec<String>), String>,
) -> bool {
    let shown = path.display();
    let old = match files::read_optional(path) {
        Ok(old) => old,
        Err(err) => {
            report.push(agent, Kind::Failed, err.to_string());
            return false;
        }
    };
    let (new, notes) = match change(old.as_deref().unwrap_or("")) {
        Ok(edit) => edit,
        Err(err) => {
            report.push(
                agent,
                Kind::Failed,
                format!("{shown}: {err}; nothing was changed there: fix it and run this again"),
            );
            return false;
        }
    };
    let Some(new) = new.filter(|new| old.as_deref() != Some(new.as_str())) else {
        if old.is_some() {
            report.push(agent, Kind::Info, format!("{shown}: nothing to change"));
        }
        return true;
    };
    let what = notes.join("; ");
    if options.dry_run {
        report.push(
            agent,
            Kind::Changed,
            format!("would change {shown}: {what}"),
        );
        return true;
    }
    // A file left with nothing in it is removed, with no backup: for every
    // agent an empty settings file means the same as none, and what it held
    // was warden's alone (install may have made it).
    let written = if new.trim().is_empty() {
        files::remove(path)
    } else {
        files::replace(path, &new)
    };
    match written {
        Ok(backup) => {
            let saved = backup
                .map(|b| format!(" (the old file is saved as {})", b.display()))
                .unwrap_or_default();
            report.push(agent, Kind::Changed, format!("{shown}: {what}{saved}"));
            true
        }
        Err(err) => {
            report.push(agent, Kind::Failed, format!("could not write: {err}"));
            false
        }
    }
}

/// [`edit_text`] for a JSON file, keeping its keys in order.
fn edit_json(
    report: &mut Report,
    agent: Agent,
    options: &Options,
    path: &Path,
    change: impl FnOnce(&mut Value) -> Result<Vec<String>, String>,
) -> bool {
    edit_text(report, agent, options, path, |old| {
        let mut doc = json_doc::parse(old).map_err(|e| format!("not valid JSON ({e})"))?;
        let notes = change(&mut doc)?;
        let text = if json_doc::is_empty_container(&doc) {
            String::new()
        } else {
            json_doc::to_pretty(&doc)
        };
        Ok(((!notes.is_empty()).then_some(text), notes))
    })
}

/// The words of a hook command as a POSIX shell (Claude Code, Codex,
/// Gemini CLI, Copilot CLI) or
/// Python's `shlex.split` (Hermes) would split it: quotes removed,
/// backslash escapes outside single quotes.
pub fn command_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Whether a hook command runs warden: its program's file name is `warden`.
pub fn is_warden(command: &str) -> bool {
    command_words(command)
        .first()
        .is_some_and(|program| Path::new(program).file_name() == Some("warden".as_ref()))
}

/// A hook command line for `warden` with `args`, quoted for a shell (and
/// for `shlex.split`) only where the path needs it.
fn hook_command(warden: &Path, args: &[&str]) -> String {
    let program = warden.display().to_string();
    let plain = program
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+~".contains(c));
    let mut line = if plain {
        program
    } else {
        format!("'{}'", program.replace('\'', r"'\''"))
    };
    for arg in args {
        line.push(' ');
        line.push_str(arg);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            command_words(r#"'/opt/my tools/warden' --agent "cl\"aude" a\ b"#),
            ["/opt/my tools/warden", "--agent", "cl\"aude", "a b"]
        );
        assert_eq!(command_words("  "), Vec::<String>::new());
        assert_eq!(command_words("''"), [""]);
    }

    #[test]
    fn warden_is_recognised_by_its_program() {
        assert!(is_warden("~/.local/bin/warden"));
        assert!(is_warden("'/opt/a b/warden' --on-ask block"));
        assert!(!is_warden("/usr/bin/wardenctl"));
        assert!(!is_warden("echo warden"));
        assert!(!is_warden(""));
    }

    #[test]
    fn hook_commands_quote_only_odd_paths() {
        assert_eq!(
            hook_command(
                Path::new("/home/u/.local/bin/warden"),
                &["--agent", "codex"]
            ),
            "/home/u/.local/bin/warden --agent codex"
        );
        let odd = hook_command(Path::new("/opt/it's here/warden"), &[]);
        assert_eq!(command_words(&odd), ["/opt/it's here/warden"]);
    }

    #[test]
    fn homes_follow_the_agents_variables() {
        let vars = |name: &str| match name {
            "HOME" => Some("/h".to_string()),
            "CODEX_HOME" => Some("/c".to_string()),
            "GEMINI_CLI_HOME" => Some("/g".to_string()),
            "COPILOT_HOME" => Some("/k".to_string()),
            "XDG_CONFIG_HOME" => Some("/x".to_string()),
            "HERMES_SAFE_MODE" => Some("1".to_string()),
            _ => None,
        };
        let homes = Homes::from_vars(vars);
        assert_eq!(homes.hermes_home, Some("/h/.hermes".into()));
        assert_eq!(homes.claude_dir, Some("/h/.claude".into()));
        assert_eq!(homes.codex_home, Some("/c".into()));
        assert_eq!(homes.gemini_dir, Some("/g/.gemini".into()));
        assert_eq!(homes.gemini_trusted_folders, None);
        assert_eq!(homes.copilot_home, Some("/k".into()));
        assert_eq!(
            homes.edited_dirs(Agent::Copilot),
            [PathBuf::from("/k"), "/k/hooks".into()]
        );
        assert_eq!(homes.opencode_dir, Some("/x/opencode".into()));
        assert_eq!(
            Homes::from_vars(|n| (n == "HOME").then(|| "/h".into())).opencode_dir,
            Some("/h/.config/opencode".into())
        );
        assert_eq!(homes.hermes_managed, PathBuf::from("/etc/hermes"));
        assert!(homes.hermes_safe_mode);
    }
}
