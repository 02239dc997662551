//! Programs that run the rest of their arguments as a command (`sudo`, `env`, `timeout`, `strace`, `npx`, ...), and how to split their own options from it.

mod runners;
mod table;
#[cfg(test)]
mod tests;

use once_cell::sync::Lazy;

use super::expand::Field;
use super::names::{self, NameMap};

/// A program that runs the rest of its arguments as a command.
pub(super) struct WrapperSpec {
    pub(super) name: &'static str,
    /// Options that take a separate value (`-u root`).
    pub(super) valued: &'static [&'static str],
    /// Options that take more than one separate value (`bwrap --bind SRC DEST`).
    pub(super) multi: &'static [(&'static str, usize)],
    /// Positional arguments between the options and the command (`timeout 5 cmd`).
    pub(super) positionals: usize,
    /// `NAME=value` words may come before the command (`env A=1 cmd`).
    pub(super) assignments: bool,
    /// Only these subcommands run a command (`perf record`, `ip netns exec`);
    /// empty when the program itself does. Words are separated by a space.
    pub(super) subcommands: &'static [&'static str],
    /// The command starts after the first of these words, wherever it is
    /// (`gdb ... --args CMD`, `nix develop ... -c CMD`); without one, nothing runs.
    pub(super) after: &'static [&'static str],
    /// What follows `--` is arguments to a shell, not a command (`capsh -- -c CMD`).
    pub(super) shell_args: bool,
}

/// A wrapper with no options that take values: the base of every table entry.
pub(super) const fn plain(name: &'static str) -> WrapperSpec {
    WrapperSpec {
        name,
        valued: &[],
        multi: &[],
        positionals: 0,
        assignments: false,
        subcommands: &[],
        after: &[],
        shell_args: false,
    }
}

/// The wrapper named `name`, if it is one.
/// Asked for every command and every word that may start one, so a map
/// from name to the first entry of that name replaces the scan of the tables.
pub(super) fn find(name: &str) -> Option<&'static WrapperSpec> {
    static BY_NAME: Lazy<NameMap<&'static WrapperSpec>> =
        Lazy::new(|| names::first_by_name(all().map(|w| (w.name, w))));
    BY_NAME.get(name).copied()
}

/// The name of every wrapper.
pub(super) fn names() -> impl Iterator<Item = &'static str> {
    all().map(|w| w.name)
}

/// Every wrapper, in the order a lookup by name prefers.
fn all() -> impl Iterator<Item = &'static WrapperSpec> {
    table::WRAPPERS.iter().chain(runners::WRAPPERS)
}

/// Splits a wrapper's own options (and subcommand and positionals) from the
/// command it runs; `None` when this use of the program runs no command
/// (`perf report`, `gdb ./app` without `--args`).
pub(super) fn split_wrapper<'f>(
    spec: &WrapperSpec,
    fields: &'f [Field],
) -> Option<(&'f [Field], &'f [Field])> {
    let mut i = 0;
    if !spec.subcommands.is_empty() {
        i = skip_options(spec, fields, 0);
        let len = spec.subcommands.iter().find_map(|sub| {
            let words: Vec<&str> = sub.split(' ').collect();
            let given = fields.get(i..i + words.len())?;
            given
                .iter()
                .zip(&words)
                .all(|(f, w)| f.text == *w)
                .then_some(words.len())
        })?;
        i += len;
    }
    if spec.after.is_empty() {
        i = skip_options(spec, fields, i);
        i = (i + spec.positionals).min(fields.len());
    } else {
        let at = fields[i..]
            .iter()
            .position(|f| spec.after.contains(&f.text.as_str()))?;
        i += at + 1;
    }
    Some(fields.split_at(i))
}

/// The index after the options starting at `start` (and after a `--`).
fn skip_options(spec: &WrapperSpec, fields: &[Field], start: usize) -> usize {
    let mut i = start;
    while i < fields.len() {
        let a = fields[i].text.as_str();
        if a == "--" {
            return i + 1;
        }
        if !(a.starts_with('-') && a.len() > 1) {
            break;
        }
        i += 1 + values_taken(spec, a);
    }
    i.min(fields.len())
}

/// How many of the following words option `a` takes as its values.
fn values_taken(spec: &WrapperSpec, a: &str) -> usize {
    if let Some((_, n)) = spec.multi.iter().find(|(name, _)| *name == a) {
        return *n;
    }
    if spec.valued.contains(&a) {
        return 1;
    }
    // `--output=x` and `-etrace=file` carry their value.
    if a.starts_with("--") || a.contains('=') {
        return 0;
    }
    // A short cluster reads like getopt: the first valued letter takes the
    // rest of the word, or the next word when it ends the cluster
    // (`-nu root`, `-dmS name`, `-l50`).
    for (j, c) in a.char_indices().skip(1) {
        let mut short = [0u8; 8];
        let flag = format!("-{}", c.encode_utf8(&mut short));
        if spec.valued.contains(&flag.as_str()) {
            return usize::from(j + c.len_utf8() == a.len());
        }
    }
    0
}

/// Whether a wrapper whose options are `own` really runs `rest` as a
/// command; some uses of the same program run a shell string instead (which
/// `special` re-analyses) or run nothing.
pub(super) fn runs_command(spec: &WrapperSpec, own: &[Field], rest: &[Field]) -> bool {
    let has = |names: &[&str]| {
        own.iter().any(|f| {
            names
                .iter()
                .any(|n| f.text == *n || f.text.strip_prefix(n).is_some_and(|v| v.starts_with('=')))
        })
    };
    let first = rest.first().map_or("", |f| f.text.as_str());
    match spec.name {
        // `command -v x` asks where x is; it runs nothing.
        "command" => !own
            .iter()
            .any(|f| f.text.starts_with('-') && (f.text.contains('v') || f.text.contains('V'))),
        // `flock FILE -c CMD` and `sg GROUP -c CMD` run CMD through a shell.
        "flock" | "sg" => first != "-c" && !first.starts_with("--command"),
        // Without `-u USER`, runuser is su-like: `runuser -l USER -c CMD`.
        "runuser" => has(&["-u", "--user"]),
        // capsh runs a shell only after `--`; before it, options just print.
        "capsh" => own.last().is_some_and(|f| f.text == "--"),
        // `npx -c 'CMD'`, `pnpm exec -c 'CMD'`: shell strings.
        "npx" | "npm" => !has(&["-c", "--call"]),
        "pnpm" => !has(&["-c", "--shell-mode"]),
        // `ip -all netns exec CMD` has no namespace name to skip.
        "ip" => !has(&["-all", "-a"]),
        // `screen -X stuff TEXT` types TEXT into a session's shell.
        "screen" => !has(&["-X"]),
        _ => true,
    }
}

pub(super) fn split_assignment(word: &str) -> Option<(String, String)> {
    let (name, value) = word.split_once('=')?;
    // `env 'BASH_FUNC_ls%%=() { ...; }'` exports a function the shell imports.
    let name_part = name
        .strip_prefix("BASH_FUNC_")
        .and_then(|n| n.strip_suffix("%%"))
        .map_or(name, |_| name.trim_end_matches("%%"));
    super::params::is_name(name_part).then(|| (name.to_string(), value.to_string()))
}
