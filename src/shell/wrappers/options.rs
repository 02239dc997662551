//! Reading a wrapper's own options as its parser reads them (getopt clusters and abbreviations, values in the word or the next one), and every place its command may start when an option is one the table does not know.

use super::{Assign, WrapperSpec};
use crate::shell::expand::Field;

/// How a wrapper's parser reads its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::shell) enum Syntax {
    /// glibc's `getopt_long` (and BSD `getopt`, which has only the short
    /// half): short options cluster (`-nu root`), a value is the rest of the
    /// word or the next word (`-uroot`, `--user=root`, `--user root`), and
    /// any unambiguous prefix of a long option is that option (`--us root`).
    Getopt,
    /// As [`Syntax::Getopt`], but a long option is only its whole name
    /// (clap, and hand-written parsers that take `--name=value`).
    Whole,
    /// Each option is a whole word as listed, its value the next word: no
    /// clusters, no prefixes (shell-script parsers, pkexec, bubblewrap).
    Words,
    /// iproute2: one dash or two, and a word is the first listed long
    /// option it is a prefix of (`-n` is `-netns`, `-b` is `-batch`).
    Prefix,
    /// Every option is one word, its value attached (`--name=value`):
    /// none takes the next word (firejail, valgrind, capsh).
    Attached,
}

/// What an option does with the words after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    Flag,
    /// Takes this many values: the first may be attached, the rest are words.
    Values(usize),
    /// Takes a value only when attached (`-xVALUE`, `--name=VALUE`).
    Optional,
}

/// One option as the wrapper read it, with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::shell) struct Opt {
    pub(in crate::shell) key: Key,
    pub(in crate::shell) value: Option<String>,
}

/// Which option: made without copying, as most uses of a wrapper read a
/// few of them and look them up once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::shell) enum Key {
    /// `-x`.
    Short(char),
    /// `--name`, by its whole name however it was abbreviated or dashed.
    Long(&'static str),
    /// A lone `-` (env's `-i`), `=` for an assignment read among the
    /// options (`sudo A=1 -u root`), `-n` for nice's `-5`.
    Named(&'static str),
    /// An option of a wrapper whose options are all one word (capsh's
    /// `--shell`), as written before any `=`.
    Word(String),
}

impl Key {
    /// Whether this is the option spelled `spelled` (`-x`, `--name`, `-`, `=`).
    pub(in crate::shell) fn is(&self, spelled: &str) -> bool {
        match self {
            Key::Short(c) => {
                let mut chars = spelled.chars();
                chars.next() == Some('-') && chars.next() == Some(*c) && chars.next().is_none()
            }
            Key::Long(name) => spelled.strip_prefix("--") == Some(name),
            Key::Named(name) => spelled == *name,
            Key::Word(word) => spelled == word,
        }
    }
}

/// What reading one word of the options gives.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Step {
    /// The options end here: what follows from this index is the command
    /// (after any assignments and positional arguments).
    pub(super) end: Option<usize>,
    /// The options go on at this index.
    pub(super) next: Option<usize>,
    /// Another reading goes on at this index: the word was an option the
    /// table does not know, which may take the next word as its value.
    pub(super) other: Option<usize>,
}

impl Step {
    fn end(at: usize) -> Step {
        Step {
            end: Some(at),
            ..Step::default()
        }
    }

    fn next(at: usize) -> Step {
        Step {
            next: Some(at),
            ..Step::default()
        }
    }
}

/// Reads the word at `i` of `words` as one of `spec`'s options, adding
/// what it sets to `opts`.
pub(super) fn step(spec: &WrapperSpec, words: &[Field], i: usize, opts: &mut Vec<Opt>) -> Step {
    let Some(field) = words.get(i) else {
        return Step::end(i);
    };
    let w = field.text.as_str();
    if spec.assignments == Assign::Among && assignment(field) && !w.starts_with(['/', '=', '-']) {
        opts.push(named("=", Some(w)));
        return Step::next(i + 1);
    }
    if field.dynamic && !w.starts_with('-') {
        // Text known only when the line runs: the command itself, or
        // options (with a value or not) before it.
        return Step {
            end: Some(i),
            next: Some(i + 1),
            other: Some(i + 2),
        };
    }
    if w == "--" || spec.shell_args && w == "-+" {
        return Step::end(i + 1);
    }
    if w == "-" && spec.dash {
        opts.push(named("-", None));
        return Step::next(i + 1);
    }
    if !w.starts_with('-') || w == "-" {
        return Step::end(i);
    }
    if let Some(n) = spec.numbers.then(|| number_option(w)).flatten() {
        opts.push(named("-n", Some(n)));
        return Step::next(i + 1);
    }
    match spec.syntax {
        Syntax::Attached => {
            let (key, value) = match w.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (w, None),
            };
            opts.push(Opt {
                key: Key::Word(key.to_string()),
                value: value.map(str::to_string),
            });
            Step::next(i + 1)
        }
        Syntax::Prefix => prefixed(spec, words, i, opts),
        Syntax::Words => whole_word(spec, words, i, opts),
        Syntax::Getopt | Syntax::Whole if w.starts_with("--") => long(spec, words, i, opts),
        Syntax::Getopt | Syntax::Whole => cluster(spec, words, i, opts),
    }
}

/// `--name`, `--name=value`, `--name value`, or a prefix of the name.
fn long(spec: &WrapperSpec, words: &[Field], i: usize, opts: &mut Vec<Opt>) -> Step {
    let text = &words[i].text[2..];
    let (name, attached) = match text.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (text, None),
    };
    let found = find_long(spec, name, spec.syntax == Syntax::Getopt);
    match found {
        Some((full, arity)) => takes(Key::Long(full), arity, attached, words, i, opts),
        // An option the table does not know carries its value when it has
        // `=`; without one it may take the next word.
        None if attached.is_some() => Step::next(i + 1),
        None => unknown(i),
    }
}

/// A short option or a cluster of them (`-nu root`, `-l50`).
fn cluster(spec: &WrapperSpec, words: &[Field], i: usize, opts: &mut Vec<Opt>) -> Step {
    let letters = &words[i].text[1..];
    // Where readings that take an unknown letter for a valued option go on:
    // after this word (the letter takes the rest) or after the next one.
    let (mut here, mut after_next) = (false, false);
    let mut next = i + 1;
    for (j, c) in letters.char_indices() {
        let rest = &letters[j + c.len_utf8()..];
        let key = Key::Short(c);
        match short_arity(spec.short, c) {
            Some(Arity::Flag) => opts.push(Opt { key, value: None }),
            Some(Arity::Optional) => {
                opts.push(Opt {
                    key,
                    value: (!rest.is_empty()).then(|| rest.to_string()),
                });
                break;
            }
            Some(Arity::Values(_)) if !rest.is_empty() => {
                opts.push(Opt {
                    key,
                    value: Some(rest.to_string()),
                });
                break;
            }
            Some(Arity::Values(_)) => {
                opts.push(Opt {
                    key,
                    value: words.get(i + 1).map(|f| f.text.clone()),
                });
                next = i + 2;
                break;
            }
            None if rest.is_empty() => after_next = true,
            None => here = true,
        }
    }
    let other = match next == i + 1 {
        true if after_next => Some(i + 2),
        false if here => Some(i + 1),
        _ => None,
    };
    Step {
        next: Some(next),
        other,
        ..Step::default()
    }
}

/// An option that is a whole listed word (`-u`, `--user`).
fn whole_word(spec: &WrapperSpec, words: &[Field], i: usize, opts: &mut Vec<Opt>) -> Step {
    let w = words[i].text.as_str();
    let found = match w.strip_prefix("--") {
        Some(name) => find_long(spec, name, false).map(|(full, a)| (Key::Long(full), a)),
        None => {
            let mut chars = w[1..].chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => short_arity(spec.short, c).map(|a| (Key::Short(c), a)),
                _ => None,
            }
        }
    };
    match found {
        Some((key, arity)) => takes(key, arity, None, words, i, opts),
        None => unknown(i),
    }
}

/// iproute2's options: `-n`, `-netns`, `--netns` and `-net` are one.
fn prefixed(spec: &WrapperSpec, words: &[Field], i: usize, opts: &mut Vec<Opt>) -> Step {
    let w = words[i].text.as_str();
    let text = w.strip_prefix("--").unwrap_or(&w[1..]);
    let (name, attached) = match text.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (text, None),
    };
    let found = (!name.is_empty())
        .then(|| {
            spec.long
                .iter()
                .map(|e| long_entry(e))
                .find(|(full, _)| full.starts_with(name))
        })
        .flatten();
    match found {
        Some((full, arity)) => takes(Key::Long(full), arity, attached, words, i, opts),
        None => unknown(i),
    }
}

/// A known option `key` with `arity`, its value attached or not.
fn takes(
    key: Key,
    arity: Arity,
    attached: Option<&str>,
    words: &[Field],
    i: usize,
    opts: &mut Vec<Opt>,
) -> Step {
    let (value, next) = match (arity, attached) {
        (Arity::Flag | Arity::Optional, _) => (attached.map(str::to_string), i + 1),
        (Arity::Values(n), Some(v)) => (Some(v.to_string()), i + n),
        (Arity::Values(n), None) => (words.get(i + 1).map(|f| f.text.clone()), i + 1 + n),
    };
    opts.push(Opt { key, value });
    Step::next(next)
}

/// An option the table does not know: read as a flag, and also as taking
/// the next word for its value.
fn unknown(i: usize) -> Step {
    Step {
        next: Some(i + 1),
        other: Some(i + 2),
        ..Step::default()
    }
}

fn named(key: &'static str, value: Option<&str>) -> Opt {
    Opt {
        key: Key::Named(key),
        value: value.map(str::to_string),
    }
}

/// The long option `name` is, with its whole name: the one of that name,
/// else (with `prefixes`) the only one it begins. `None` for no option or
/// a prefix of several, on which getopt fails.
fn find_long(spec: &WrapperSpec, name: &str, prefixes: bool) -> Option<(&'static str, Arity)> {
    let entries = || spec.long.iter().map(|e| long_entry(e));
    if let Some(found) = entries().find(|(full, _)| *full == name) {
        return Some(found);
    }
    if !prefixes || name.is_empty() {
        return None;
    }
    let mut matches = entries().filter(|(full, _)| full.starts_with(name));
    let first = matches.next()?;
    matches.next().is_none().then_some(first)
}

/// A long option's entry: `name` a flag, `name=` one value, `name=2` two,
/// `name?` an optional value.
fn long_entry(entry: &'static str) -> (&'static str, Arity) {
    if let Some(name) = entry.strip_suffix('?') {
        return (name, Arity::Optional);
    }
    match entry.split_once('=') {
        Some((name, "")) => (name, Arity::Values(1)),
        Some((name, n)) => (name, Arity::Values(n.parse().unwrap_or(1))),
        None => (entry, Arity::Flag),
    }
}

/// What the short option `c` takes, from a getopt string (`c` a flag, `c:`
/// a value, `c::` an optional value). Option letters are ASCII.
fn short_arity(short: &str, c: char) -> Option<Arity> {
    let byte = u8::try_from(c)
        .ok()
        .filter(|b| b.is_ascii() && *b != b':')?;
    let bytes = short.as_bytes();
    let at = bytes.iter().position(|&b| b == byte)?;
    let colons = bytes[at + 1..].iter().take_while(|&&b| b == b':').count();
    Some(match colons {
        0 => Arity::Flag,
        1 => Arity::Values(1),
        _ => Arity::Optional,
    })
}

/// nice's old spelling of an adjustment: `-5`, `--5`, `-+5`.
fn number_option(w: &str) -> Option<&str> {
    let n = w.strip_prefix('-')?;
    let digits = n.strip_prefix(['-', '+']).unwrap_or(n);
    digits
        .starts_with(|c: char| c.is_ascii_digit())
        .then_some(n)
}

/// Whether env or sudo may read `field` as a `NAME=value` word: any word
/// with `=` (sudo's not starting with `/`, `=` or `-`). An unquoted word
/// made at run time may split into several, the command among them: it is
/// one only when its name is written out (`FOO=$BAR`, not `$VAR=1`).
pub(super) fn assignment(field: &Field) -> bool {
    if field.dynamic && !field.quoted {
        return super::split_assignment(&field.text).is_some();
    }
    field.text.contains('=')
}

/// Checks a table's entries: every long entry well formed, no short letter
/// twice. Used by the tables' tests.
#[cfg(test)]
pub(super) fn check_entries(spec: &WrapperSpec) -> Result<(), String> {
    for entry in spec.long {
        let (name, arity) = long_entry(entry);
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && match arity {
                Arity::Values(n) => (1..=3).contains(&n) && entry.ends_with(['=', '1', '2', '3']),
                _ => true,
            };
        if !valid {
            return Err(format!("{}: bad long entry {entry:?}", spec.name));
        }
    }
    let letters: Vec<char> = spec.short.chars().filter(|&c| c != ':').collect();
    for (k, c) in letters.iter().enumerate() {
        if letters[..k].contains(c) {
            return Err(format!("{}: short option {c} twice", spec.name));
        }
    }
    Ok(())
}
