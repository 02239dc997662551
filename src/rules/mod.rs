//! Rules as data: the `Rule` type, its matchers, the built-in tables, and matching with a program-name prefilter.
//!
//! A rule never looks at the raw command text: it matches a [`Command`]
//! (program word and arguments, after the shell analysis), a redirection, or
//! a structural property of the whole [`Analysis`]. That is what keeps
//! `echo 'rm -rf /'` from looking like `rm -rf /`.

pub mod access;
mod accounts;
mod admin;
mod agents;
mod capture;
pub mod catalog;
mod cli_ops;
mod cloud;
mod cloud_access;
mod cloud_data;
mod containers;
mod credentials;
mod db;
mod db_admin;
mod escape;
mod exec;
mod exec_interp;
mod exec_unread;
mod exhaustion;
mod exposure;
pub mod files;
pub(crate) mod fs;
mod fs_write;
#[cfg(test)]
mod gate_table;
mod git;
mod guard_setters;
mod hardline;
mod hidden;
mod host;
mod http;
mod index;
mod kernel;
mod leak;
pub(crate) mod links;
mod logs;

pub(crate) use hidden::{path_arguments, searched as hidden_paths_searched};
#[cfg(test)]
pub(crate) mod near;
mod net;
mod opts;
mod package_sources;
mod packages;
mod paths;
mod perms;
mod privileged;
mod processes;
mod remote;
mod reveal;
mod safer;
mod secrets;
mod security;
mod services;
mod signs;
mod storage;
mod system;
mod tables;
pub(crate) mod targets;
mod tooling;
mod trust;
mod url;
mod vcs;
mod windows;
mod windows_script;

use crate::gate::LazyRegex;
use index::{ProgramIndex, Source};
use once_cell::race::OnceBox;
use once_cell::sync::{Lazy, OnceCell};

pub(crate) use crate::shell::program_in;
use std::rc::Rc;

use crate::shell::{Analysis, Command, Through};
use crate::verdict::Decision;
pub use safer::safer;
pub use signs::Signs;
pub(crate) use system::runs_sudo;
pub use tables::{
    all, dangerous, hardline, sudo_guard, tables, DANGEROUS, EXFILTRATION, FETCHED, FLOOR,
    HARDLINE, LEAKS, POWER, REMOTE_CODE, SUDO_GUARD,
};

/// One built-in rule, with the examples that prove it.
pub struct Rule {
    /// Stable id, `group.kebab-name`; appears in every verdict it decides.
    pub id: &'static str,
    /// What the command is, in a few words. It doubles as the key a Hermes
    /// `command_allowlist` entry names to exempt the rule, so where Hermes
    /// has a pattern key for the same thing, this is that key, verbatim.
    pub category: &'static str,
    /// Why it is dangerous, in words for the person reading the verdict.
    pub reason: &'static str,
    pub decision: Decision,
    pub matcher: Matcher,
    /// Commands this rule must decide, through the whole engine.
    pub hits: &'static [&'static str],
    /// Commands this rule must not decide.
    pub misses: &'static [&'static str],
}

/// What a rule looks at.
pub enum Matcher {
    /// A command whose program is one of `programs` (an entry ending in `*`
    /// matches a prefix, `mkfs*`; an empty list matches any program) and whose
    /// arguments, joined by single spaces, match the `args` regex (`""`: any).
    Command {
        programs: &'static [&'static str],
        args: &'static str,
    },
    /// A command whose program is one of `programs` and that passes `check`,
    /// for what a regex over arguments cannot say (which paths `rm` deletes).
    Check {
        programs: &'static [&'static str],
        check: fn(&Command) -> bool,
    },
    /// A command of any program that shows one of `signs` and passes
    /// `check`: a rule every command meets, which most pass over with one
    /// test ([`Signs`]). `check` must be false for a command without them.
    AnyProgram {
        signs: Signs,
        check: fn(&Command) -> bool,
    },
    /// A property of the whole analysis (a fork bomb, hidden characters,
    /// `chmod +x f && ./f`); returns the text to quote in the message.
    Analysis(fn(&Analysis) -> Option<String>),
    /// A family's table of verbs: the rule's effect, one row per program
    /// and the arguments that have it (`lvremove`, `zfs destroy`, `zpool
    /// destroy`). A program the family did not know is one more row.
    Verbs(&'static [Verb]),
}

impl Matcher {
    /// The program names this matcher is indexed under (an entry ending in
    /// `*` is a prefix); none for rules every command or the whole line meets.
    pub fn programs(&self) -> impl Iterator<Item = &'static str> + '_ {
        let (listed, rows): (&'static [&'static str], &'static [Verb]) = match self {
            Matcher::Command { programs, .. } | Matcher::Check { programs, .. } => (programs, &[]),
            Matcher::Verbs(rows) => (&[], rows),
            Matcher::AnyProgram { .. } | Matcher::Analysis(_) => (&[], &[]),
        };
        listed.iter().copied().chain(rows.iter().map(|v| v.program))
    }
}

/// One row of a [`Matcher::Verbs`] table: a program, the arguments that
/// give it the rule's effect, and what else must hold (the scope its
/// operands reach, say), for what a regex cannot tell.
pub struct Verb {
    /// The program as [`Command::program`] names it; `name*` is a prefix.
    pub program: &'static str,
    /// A regex over the arguments joined by single spaces (`""`: any).
    pub args: &'static str,
    pub check: Option<fn(&Command) -> bool>,
}

/// A row: `program` whose arguments match `args` (`""`: any).
pub const fn verb(program: &'static str, args: &'static str) -> Verb {
    Verb {
        program,
        args,
        check: None,
    }
}

/// A row: `program` whose arguments match `args` and that passes `check`.
pub const fn verb_if(
    program: &'static str,
    args: &'static str,
    check: fn(&Command) -> bool,
) -> Verb {
    Verb {
        program,
        args,
        check: Some(check),
    }
}

/// One file's table of rules. Ids are `group.name`, and a table's group is
/// its file's name, except where [`Table::group`] says otherwise.
pub struct Table {
    /// The file the rules are in (`src/rules/<file>.rs`).
    pub file: &'static str,
    /// The group of the ids in it.
    pub group: &'static str,
    pub rules: &'static [Rule],
}

/// Every program name a built-in rule or the shell analysis knows: the
/// programs the rules name (a prefix, `mkfs*`, as itself), the programs the
/// analysis models (shells, wrappers, decoders, launchers) and the
/// interpreters (without versions), each once. What a test that must reach
/// every program's handling walks, so a new rule's program is in it.
pub fn program_names() -> Vec<&'static str> {
    let named = all().flat_map(|rule| rule.matcher.programs());
    let mut names: Vec<&'static str> = named
        .map(|p| p.strip_suffix('*').unwrap_or(p))
        .chain(crate::shell::modelled_names())
        .chain(access::PRODUCING.iter().copied())
        .chain(crate::shell::interpreter_names())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The floor, ready to match.
pub(crate) static HARDLINE_SET: Lazy<RuleSet> =
    Lazy::new(|| RuleSet::indexed(hardline(), ProgramIndex::built(&FLOOR_INDEX)));
/// The built-in dangerous rules, ready to match; a command that only asks
/// for its help text is passed over.
pub(crate) static DANGEROUS_SET: Lazy<RuleSet> = Lazy::new(|| {
    RuleSet::indexed(dangerous(), ProgramIndex::built(&DANGEROUS_INDEX)).help_is_harmless()
});

const FLOOR_SOURCE: Source = Source::Tables(&FLOOR);
static FLOOR_INDEX: index::Built<
    { index::size(FLOOR_SOURCE) },
    { index::prefix_count(FLOOR_SOURCE) },
> = index::Built::new(FLOOR_SOURCE);
const DANGEROUS_SOURCE: Source = Source::Slice(DANGEROUS);
static DANGEROUS_INDEX: index::Built<
    { index::size(DANGEROUS_SOURCE) },
    { index::prefix_count(DANGEROUS_SOURCE) },
> = index::Built::new(DANGEROUS_SOURCE);

/// What the caller knows that makes a rule's match of a command harmless
/// after all (the disk shows the deleted paths are ones git ignores).
pub(crate) type Excuse<'a> = &'a dyn Fn(&Rule, &Command) -> bool;

/// What matched: the rule and the text to quote in the verdict.
pub(crate) struct Hit<'r> {
    pub rule: &'r Rule,
    pub text: String,
    /// Where the paths in it lead, when the rule matched them there.
    pub through: Option<Rc<Through>>,
}

/// The text a verdict quotes for a command a rule matched, and where its
/// paths lead when the rule matched those.
type Quote = (String, Option<Rc<Through>>);

/// A table of rules ready to match, indexed by program name so a command
/// only meets the rules that could match it, and with each regex compiled
/// the first time it is needed (compiling them all up front would cost more
/// than starting the process).
pub(crate) struct RuleSet {
    rules: Vec<&'static Rule>,
    by_program: ProgramIndex,
    any_program: Vec<usize>,
    /// For each set of signs (by [`Signs::index`]), the rules for any
    /// program a command showing those signs may match, in rule order: the
    /// others are not asked (debug builds still ask them, through
    /// `any_program`, and check that they do not match).
    any_by_signs: Vec<Vec<usize>>,
    /// The rules that judge the whole analysis, in rule order (a few among
    /// hundreds: walking the table for them cost more than matching them).
    whole_line: Vec<usize>,
    /// Each rule's regexes: one for a `Command` rule, one per row of a
    /// `Verbs` table; rule `i`'s start at `first_regex[i]`. A pointer each
    /// until a command needs one: a call uses a handful of a thousand.
    regexes: Vec<OnceBox<LazyRegex>>,
    first_regex: Vec<usize>,
    /// A command that only asks for its help text is passed over: for the
    /// rules that ask, `terraform destroy -help` destroys nothing. The floor
    /// never passes anything over.
    help_is_harmless: bool,
}

/// Whether `hay` contains `needle` (lowercase) in any ASCII case: the test
/// every argument of every command meets, so made before any lowercase copy.
pub(super) fn contains_any_case(hay: &str, needle: &str) -> bool {
    // Asked of every argument: a window is compared only where its first
    // byte already agrees. In a long argument those places are found by
    // `memchr` (a megabyte is scanned at memory speed); in a short one,
    // which most are, setting that search up costs more than the bytes.
    let needle = needle.as_bytes();
    let Some(&first) = needle.first() else {
        return true;
    };
    let hay = hay.as_bytes();
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let at = |at: usize| {
        hay.get(at..at + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    };
    let found = if hay.len() > 64 {
        memchr::memchr2_iter(lower, upper, hay).any(at)
    } else {
        hay.windows(needle.len())
            .any(|w| w[0].to_ascii_lowercase() == lower && w.eq_ignore_ascii_case(needle))
    };
    debug_assert_eq!(
        found,
        hay.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    );
    found
}

/// `program.starts_with(prefix)`, the first bytes compared before the
/// rest: asked of every command and of many words for each prefix rule,
/// and nearly always answered by the first byte without a call to compare.
fn has_prefix(program: &str, prefix: &str) -> bool {
    match (program.as_bytes().first(), prefix.as_bytes().first()) {
        (Some(a), Some(b)) if a != b => false,
        _ => program.starts_with(prefix),
    }
}

/// The rules a command meets, in rule order: those for any program (the
/// same for every command, so borrowed) merged with the few that name it.
struct Candidates<'a> {
    any: &'a [usize],
    /// Ascending, without repeats.
    named: Vec<usize>,
    i: usize,
    j: usize,
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let (a, n) = (self.any.get(self.i), self.named.get(self.j));
        let next = match (a, n) {
            (Some(&a), Some(&n)) if a == n => {
                self.i += 1;
                self.j += 1;
                a
            }
            (Some(&a), Some(&n)) if a < n => {
                self.i += 1;
                a
            }
            (_, Some(&n)) => {
                self.j += 1;
                n
            }
            (Some(&a), None) => {
                self.i += 1;
                a
            }
            (None, None) => return None,
        };
        Some(next)
    }
}

/// Programs whose `-h` always means help, wherever it stands (their option
/// parsers reserve it: cobra, oclif, commander, yargs, argparse, Go's
/// `mitchellh/cli`; util-linux's `su`). Elsewhere `-h` is often something else (`df -h`,
/// `docker run -h NAME`, `ssh-keygen -h`).
#[rustfmt::skip]
const SHORT_HELP: &[&str] = &["su", "runuser", "kubectl", "oc", "helm", "helmfile", "terraform", "tofu", "terragrunt", "pulumi", "gcloud", "az", "doctl", "fly", "flyctl", "heroku", "vercel", "netlify", "firebase", "wrangler", "supabase", "gh", "glab", "eksctl", "hcloud", "openstack"];

/// Whether a program as the command names it is an installed one: a bare
/// name found on `PATH`, or a path in the system's program directories;
/// not a script or a program of the project's or a temporary directory.
pub(super) fn installed_program(path: &str) -> bool {
    !path.contains('/')
        || ["/usr/", "/bin/", "/sbin/", "/opt/homebrew/"]
            .iter()
            .any(|p| path.starts_with(p))
}

/// Programs whose lone `-V` prints their version (util-linux's `su` and
/// `runuser`); elsewhere `-V` may do work.
const SHORT_VERSION: &[&str] = &["su", "runuser"];

/// Whether `cmd` asks for its help text or version (`--help`, Go-style
/// `-help`, or `-h` where that is help, before any `--`; `--version` or,
/// where that is the version, `-V` as the only argument), which programs
/// print instead of doing their work.
pub(super) fn asks_for_help(cmd: &Command) -> bool {
    // A script or a program of the project's or a temporary directory
    // (`sudo ./setup.sh --help`) prints help only if it says so itself.
    if !installed_program(&cmd.path) {
        return false;
    }
    // The AWS CLI's help is a last word: `aws iam create-access-key help`.
    if cmd.program == "aws" && cmd.args.last().is_some_and(|a| a == "help") {
        return true;
    }
    if let [only] = cmd.args.as_slice() {
        if only == "--version" || (only == "-V" && SHORT_VERSION.contains(&cmd.program.as_str())) {
            return true;
        }
    }
    cmd.args.iter().take_while(|a| *a != "--").any(|a| {
        a == "--help" || a == "-help" || (a == "-h" && SHORT_HELP.contains(&cmd.program.as_str()))
    })
}

impl RuleSet {
    pub fn new(rules: impl IntoIterator<Item = &'static Rule>) -> RuleSet {
        let rules: Vec<&'static Rule> = rules.into_iter().collect();
        let index = ProgramIndex::new(&rules);
        RuleSet::indexed(rules, index)
    }

    /// A set of `rules` whose program index is `by_program`.
    fn indexed(
        rules: impl IntoIterator<Item = &'static Rule>,
        by_program: ProgramIndex,
    ) -> RuleSet {
        let rules: Vec<&'static Rule> = rules.into_iter().collect();
        let mut any_program = Vec::new();
        let mut whole_line = Vec::new();
        let mut first_regex = Vec::with_capacity(rules.len());
        let mut cells = 0;
        for (i, rule) in rules.iter().enumerate() {
            first_regex.push(cells);
            cells += match &rule.matcher {
                Matcher::Verbs(rows) => rows.len(),
                _ => 1,
            };
            // Never matched command by command: not a candidate for any.
            if let Matcher::Analysis(_) = rule.matcher {
                whole_line.push(i);
                continue;
            }
            if index::program_at(&rule.matcher, 0).is_none() {
                any_program.push(i);
            }
        }
        let any_by_signs = (0..Signs::SETS_OF_SIGNS)
            .map(|index| {
                let shown = Signs::from_index(index);
                any_program
                    .iter()
                    .copied()
                    .filter(|&i| match &rules[i].matcher {
                        Matcher::AnyProgram { signs, .. } => shown.meets(*signs),
                        _ => true,
                    })
                    .collect()
            })
            .collect();
        let regexes = (0..cells).map(|_| OnceBox::new()).collect();
        RuleSet {
            by_program,
            rules,
            any_program,
            any_by_signs,
            whole_line,
            regexes,
            first_regex,
            help_is_harmless: false,
        }
    }

    /// This set, passing over commands that only ask for their help text.
    pub fn help_is_harmless(mut self) -> RuleSet {
        self.help_is_harmless = true;
        self
    }

    /// Whether a rule of this set names `program` (not counting rules that
    /// match any program).
    pub(crate) fn names(&self, program: &str) -> bool {
        self.by_program.get(&self.rules, program).next().is_some() || self.names_by_prefix(program)
    }

    /// Whether a rule of this set names `program` by a prefix (`mkfs*`).
    pub(crate) fn names_by_prefix(&self, program: &str) -> bool {
        let named = self
            .by_program
            .prefixes_of(program)
            .any(|(p, _)| program.starts_with(p));
        debug_assert_eq!(
            named,
            self.by_program
                .all_prefixes()
                .iter()
                .any(|(p, _)| has_prefix(program, p))
        );
        named
    }

    /// The commands of `analysis` this set judges one by one.
    fn judged<'a>(&self, analysis: &'a Analysis) -> impl Iterator<Item = &'a Command> {
        let skip_help = self.help_is_harmless;
        analysis
            .commands
            .iter()
            .filter(move |cmd| !(skip_help && asks_for_help(cmd)))
    }

    /// The first rule, in table order, that matches anything in `analysis`.
    pub fn first_match(&self, analysis: &Analysis) -> Option<Hit<'static>> {
        self.first_match_excusing(analysis, &|_, _| false)
    }

    /// [`RuleSet::first_match`], passing over a command a rule matched
    /// where `excused` says what the rule saw is harmless after all (what
    /// only the caller can see, such as the disk). Asked only of matches.
    pub fn first_match_excusing(
        &self,
        analysis: &Analysis,
        excused: Excuse<'_>,
    ) -> Option<Hit<'static>> {
        // Table order is priority: the earliest rule that matches anything wins.
        let mut best: Option<(usize, Quote)> = None;
        let beaten =
            |best: &Option<(usize, Quote)>, i: usize| best.as_ref().is_some_and(|(j, _)| *j <= i);
        for cmd in self.judged(analysis) {
            // Joined once per command, however many regexes read it.
            let line = OnceCell::new();
            for i in self.candidates(&cmd.program, Signs::of(cmd)) {
                if beaten(&best, i) {
                    break;
                }
                if let Some(text) = self.match_command(i, cmd, &line) {
                    if !excused(self.rules[i], cmd) {
                        best = Some((i, text));
                    }
                }
            }
        }
        for &i in &self.whole_line {
            if beaten(&best, i) {
                break;
            }
            let text = match &self.rules[i].matcher {
                Matcher::Analysis(f) => f(analysis),
                _ => None,
            };
            if let Some(text) = text {
                best = Some((i, (text, None)));
            }
        }
        best.map(|(i, (text, through))| Hit {
            rule: self.rules[i],
            text,
            through,
        })
    }

    /// Every rule that matches, in table order, each with the first text it
    /// matched, passing over what `excused` excuses; for explanations and
    /// for callers that skip some rules.
    pub fn all_matches_excusing(
        &self,
        analysis: &Analysis,
        excused: Excuse<'_>,
    ) -> Vec<Hit<'static>> {
        let mut found: Vec<Option<Quote>> = vec![None; self.rules.len()];
        for cmd in self.judged(analysis) {
            let line = OnceCell::new();
            for i in self.candidates(&cmd.program, Signs::of(cmd)) {
                if found[i].is_none() {
                    found[i] = self
                        .match_command(i, cmd, &line)
                        .filter(|_| !excused(self.rules[i], cmd));
                }
            }
        }
        for &i in &self.whole_line {
            if let (None, Matcher::Analysis(f)) = (&found[i], &self.rules[i].matcher) {
                found[i] = f(analysis).map(|text| (text, None));
            }
        }
        found
            .into_iter()
            .enumerate()
            .filter_map(|(i, quote)| {
                quote.map(|(text, through)| Hit {
                    rule: self.rules[i],
                    text,
                    through,
                })
            })
            .collect()
    }

    /// The rules that could match `program` showing `signs`, in rule order,
    /// each once. Most commands meet only the rules for any program, which
    /// need no copy.
    fn candidates(&self, program: &str, signs: Signs) -> Candidates<'_> {
        // The index holds a program's rules in rule order: only rules found
        // by a prefix need sorting in.
        let mut named: Vec<usize> = self.by_program.get(&self.rules, program).collect();
        let indexed = named.len();
        for &(prefix, i) in self.by_program.prefixes_of(program) {
            if program.starts_with(prefix) {
                named.push(i as usize);
            }
        }
        if named.len() > indexed {
            named.sort_unstable();
        }
        debug_assert!(named.is_sorted());
        named.dedup();
        #[cfg(debug_assertions)]
        {
            // The grouped prefixes find what a scan of them all finds.
            let mut all: Vec<usize> = self.by_program.get(&self.rules, program).collect();
            all.extend(
                self.by_program
                    .all_prefixes()
                    .iter()
                    .filter(|(p, _)| has_prefix(program, p))
                    .map(|&(_, i)| i as usize),
            );
            all.sort_unstable();
            all.dedup();
            debug_assert_eq!(named, all, "{program}");
        }
        let any = if cfg!(debug_assertions) {
            &self.any_program
        } else {
            &self.any_by_signs[signs.index()]
        };
        Candidates {
            any,
            named,
            i: 0,
            j: 0,
        }
    }

    fn match_command(&self, i: usize, cmd: &Command, line: &OnceCell<String>) -> Option<Quote> {
        let matched = match &self.rules[i].matcher {
            Matcher::Command { args, .. } => self.args_match(self.first_regex[i], args, cmd, line),
            Matcher::Verbs(rows) => rows.iter().enumerate().any(|(k, row)| {
                let program = match row.program.strip_suffix('*') {
                    Some(prefix) => has_prefix(&cmd.program, prefix),
                    None => cmd.program == row.program,
                };
                // The check before the regex: a check reads a few words, a
                // regex not yet compiled costs far more.
                program
                    && row.check.is_none_or(|check| check(cmd))
                    && self.args_match(self.first_regex[i] + k, row.args, cmd, line)
            }),
            Matcher::Check { check, .. } => check(cmd),
            Matcher::AnyProgram { signs, check } => {
                if Signs::of(cmd).meets(*signs) {
                    check(cmd)
                } else {
                    debug_assert!(
                        !check(cmd),
                        "{} matches `{}` without its signs",
                        self.rules[i].id,
                        cmd.display()
                    );
                    false
                }
            }
            Matcher::Analysis(_) => false,
        };
        // Quote the whole pipeline: `curl x | sh` says more than `sh`; and
        // a command as written, not the copy naming where its paths lead.
        matched.then(|| {
            let mut text: Vec<String> = cmd.upstream.iter().map(|u| u.display()).collect();
            text.push(match &cmd.through {
                Some(through) => through.written.clone(),
                None => cmd.display(),
            });
            (text.join(" | "), cmd.through.clone())
        })
    }

    /// Whether `cmd`'s arguments match `pattern` (`""`: any), with the
    /// regex compiled into cell `cell` the first time a line could match it.
    fn args_match(
        &self,
        cell: usize,
        pattern: &str,
        cmd: &Command,
        line: &OnceCell<String>,
    ) -> bool {
        pattern.is_empty()
            || self.regexes[cell]
                .get_or_init(Box::default)
                .is_match(pattern, line.get_or_init(|| cmd.arg_line()))
    }
}

#[cfg(test)]
mod tests;
