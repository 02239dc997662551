//! warden's own command line as data: every subcommand with its flags, action words and what it changes, and the one reading of an argument list that the CLI runs and the floor judges.
//!
//! `cli` turns a [`Reading`] into what the process does; the floor
//! (`hardline.guard-tamper`) asks the same reading whether an agent's
//! `warden ...` would change warden's state, so a new subcommand or flag is
//! judged as soon as it is in this table.

use crate::error::Error;

/// The program's name, as the shell analysis sees it run (`~/.local/bin/warden`
/// and `warden.exe` are `warden` there).
pub const PROGRAM: &str = "warden";

/// One flag a subcommand takes.
#[derive(Debug)]
pub struct Flag {
    /// `--name`.
    pub long: &'static str,
    /// The value's placeholder in help (`DIR`); `None` for a switch.
    pub value: Option<&'static str>,
    /// The values it accepts, when it is a choice.
    pub choices: &'static [&'static str],
    pub help: &'static str,
}

/// What running a subcommand (or one of its actions) changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changes {
    /// It reads and prints: the policy, the ledger and the agents'
    /// settings stay as they were (a cache entry or an audit line may be
    /// written, as every hook call writes them).
    Nothing,
    /// It rewrites what guards the agent: the ledger, a policy file, the
    /// agents' hook registrations.
    State,
    /// [`Changes::State`], unless this switch is given (`--dry-run`).
    StateUnless(&'static str),
}

/// An action word of a subcommand that has them (`warden trust add`).
#[derive(Debug)]
pub struct Action {
    pub name: &'static str,
    pub changes: Changes,
}

/// Which subcommand; `cli` maps each to the function that runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sub {
    Hook,
    Check,
    Why,
    Rules,
    Test,
    Trust,
    Audit,
    Lint,
    Bless,
    AllowOnce,
    Install,
    Uninstall,
    Doctor,
    Project,
}

/// What a subcommand takes after its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    None,
    /// Files it reads (`warden test FILE...`).
    FilesRead,
    /// Words that name no file (`warden allow-once CODE`).
    Words,
}

/// One subcommand: its name, its help, its flags and what it changes.
#[derive(Debug)]
pub struct Spec {
    pub sub: Sub,
    pub name: &'static str,
    /// One line, for the list of commands.
    pub summary: &'static str,
    /// What follows `warden NAME` in the usage line.
    pub usage: &'static str,
    /// Paragraphs for `warden NAME --help`.
    pub about: &'static str,
    pub flags: &'static [Flag],
    /// The words that must come first (`warden rules list`); none for most.
    pub actions: &'static [Action],
    pub operands: Operands,
    /// Flags whose value is a file it reads (`audit --file`).
    pub reads: &'static [&'static str],
    /// What it changes; for a command with actions, each action says.
    pub changes: Changes,
}

impl Spec {
    /// Whether some way of running it changes warden's state.
    fn may_change(&self) -> bool {
        self.changes != Changes::Nothing
            || self.actions.iter().any(|a| a.changes != Changes::Nothing)
    }
}

/// The flags given, in the order given (a later one wins).
#[derive(Debug, Default)]
pub struct Parsed {
    values: Vec<(&'static str, String)>,
    /// `-h` or `--help` was given: print help and do nothing else.
    pub help: bool,
    /// The action word a command with actions was given (`list`).
    pub action: Option<String>,
    /// Words that are not flags, for a command that takes them.
    pub operands: Vec<String>,
}

impl Parsed {
    /// The last value given for `long`.
    pub fn value(&self, long: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(name, _)| *name == long)
            .map(|(_, value)| value.as_str())
    }
}

/// Parses `args` against `flags`: `--name VALUE`, `--name=VALUE`, switches,
/// and `-h`/`--help`. Anything else is a usage error naming the argument.
pub fn parse(flags: &'static [Flag], args: &[String], operands: bool) -> Result<Parsed, Error> {
    let mut parsed = Parsed::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if matches!(arg.as_str(), "-h" | "--help") {
            parsed.help = true;
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (arg.as_str(), None),
        };
        if operands && !arg.starts_with('-') {
            parsed.operands.push(arg.clone());
            continue;
        }
        let Some(flag) = flags.iter().find(|f| f.long == name) else {
            return Err(Error::Usage(format!("unknown argument `{arg}`")));
        };
        let value = match (flag.value, inline) {
            (None, None) => String::new(),
            (None, Some(_)) => {
                return Err(Error::Usage(format!("{name} does not take a value")));
            }
            (Some(_), Some(value)) => value.to_string(),
            (Some(_), None) => iter
                .next()
                .cloned()
                .ok_or_else(|| Error::Usage(format!("{name} needs a value")))?,
        };
        if !flag.choices.is_empty() && !flag.choices.contains(&value.as_str()) {
            return Err(Error::Usage(format!(
                "unknown {name} value `{value}` (expected {})",
                flag.choices.join(", ")
            )));
        }
        parsed.values.push((flag.long, value));
    }
    Ok(parsed)
}

/// What an argument list asks warden to do, before anything is done.
#[derive(Debug)]
pub enum Reading<'a> {
    /// `-V`, `--version`.
    Version,
    /// `-h`, `--help`, `help` (the global help), or `help NAME`.
    Help(Option<&'static Spec>),
    /// `help NAME` for a name that is no subcommand.
    UnknownHelp(&'a str),
    /// A first word that names no subcommand (`warden lnit`).
    Unknown(&'a str),
    /// A subcommand used wrongly (with its action, when that was read):
    /// nothing runs.
    Usage {
        spec: &'static Spec,
        action: Option<&'static Action>,
        err: Error,
    },
    /// A subcommand to run, with its action and flags.
    Run {
        spec: &'static Spec,
        action: Option<&'static Action>,
        parsed: Parsed,
    },
}

/// Reads `args` (without the program name) as the CLI does: the first word
/// names the subcommand; flags alone, or nothing, are the hook's.
pub fn read(args: &[String]) -> Reading<'_> {
    let hook = &SUBCOMMANDS[0];
    let Some((first, rest)) = args.split_first() else {
        return run(hook, args);
    };
    match first.as_str() {
        "-V" | "--version" => Reading::Version,
        "-h" | "--help" => Reading::Help(None),
        "help" => match rest.first() {
            None => Reading::Help(None),
            Some(name) => match find(name) {
                Some(spec) => Reading::Help(Some(spec)),
                None => Reading::UnknownHelp(name),
            },
        },
        word => match find(word) {
            Some(spec) => run(spec, rest),
            None if word.is_empty() || word.starts_with('-') => run(hook, args),
            None => Reading::Unknown(word),
        },
    }
}

/// The subcommand called `name`.
pub fn find(name: &str) -> Option<&'static Spec> {
    SUBCOMMANDS.iter().find(|s| s.name == name)
}

/// `spec` with `args`: its action word first, when it has actions, then
/// its flags.
fn run<'a>(spec: &'static Spec, args: &'a [String]) -> Reading<'a> {
    let (action, args) = match (spec.actions.is_empty(), args.split_first()) {
        (true, _) => (None, args),
        (false, Some((first, rest))) => match spec.actions.iter().find(|a| a.name == first) {
            Some(action) => (Some(action), rest),
            None if matches!(first.as_str(), "-h" | "--help") => (None, args),
            None => return needs_action(spec),
        },
        (false, None) => return needs_action(spec),
    };
    match parse(spec.flags, args, spec.operands != Operands::None) {
        Ok(mut parsed) => {
            parsed.action = action.map(|a| a.name.to_string());
            Reading::Run {
                spec,
                action,
                parsed,
            }
        }
        Err(err) => Reading::Usage { spec, action, err },
    }
}

fn needs_action(spec: &'static Spec) -> Reading<'static> {
    let names: Vec<&str> = spec.actions.iter().map(|a| a.name).collect();
    let err = Error::Usage(format!(
        "`warden {}` needs one of: {}",
        spec.name,
        names.join(", ")
    ));
    Reading::Usage {
        spec,
        action: None,
        err,
    }
}

impl Reading<'_> {
    /// Whether running warden with these arguments may change what guards
    /// the agent. A word that names no subcommand may: the `warden` run
    /// may be another version, whose table this is not. So may a usage
    /// error of a subcommand or action that can change state, since
    /// another version may read those flags.
    pub fn changes_state(&self) -> bool {
        match self {
            Reading::Version | Reading::Help(_) | Reading::UnknownHelp(_) => false,
            // A word known only at run time (`warden "$SUB"`) may be any
            // subcommand; a written one this table lacks is asked about
            // (`exec.warden-unknown-command`): another program may be
            // called warden too.
            Reading::Unknown(word) => !is_plain_word(word),
            Reading::Usage { spec, action, .. } => match action {
                Some(action) => action.changes != Changes::Nothing,
                None => spec.may_change(),
            },
            Reading::Run {
                spec,
                action,
                parsed,
            } => {
                let changes = action.map_or(spec.changes, |a| a.changes);
                !parsed.help
                    && match changes {
                        Changes::Nothing => false,
                        Changes::State => true,
                        Changes::StateUnless(switch) => parsed.value(switch).is_none(),
                    }
            }
        }
    }

    /// A first word written out that names no subcommand (`warden lnit`).
    pub fn unknown_word(&self) -> Option<&str> {
        match self {
            Reading::Unknown(word) if is_plain_word(word) => Some(word),
            _ => None,
        }
    }

    /// The files this run reads: a subcommand's file operands and the
    /// values of its file flags.
    pub fn files_read(&self) -> Vec<&str> {
        let Reading::Run { spec, parsed, .. } = self else {
            return Vec::new();
        };
        let mut files: Vec<&str> = match spec.operands {
            Operands::FilesRead => parsed.operands.iter().map(String::as_str).collect(),
            Operands::None | Operands::Words => Vec::new(),
        };
        files.extend(spec.reads.iter().filter_map(|flag| parsed.value(flag)));
        files
    }
}

mod table;
pub use table::SUBCOMMANDS;

#[cfg(test)]
mod tests;

/// A word of letters, digits, `-`, `_` and `.`: written out, not made at
/// run time.
fn is_plain_word(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
