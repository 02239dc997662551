//! What an archive puts on disk: where `tar -x`, `unzip`, `7z x` and `cpio -i` unpack, the member names given, and the names a transform (`--transform`, bsdtar's `-s`) writes.
//!
//! A directory that gets files warden cannot list is a [`How::Produce`] of
//! that directory; a name the command states (a member, a transform's
//! replacement) is reported as the path it makes, so the path rules judge
//! it as they judge `> PATH`.

use std::borrow::Cow;

use super::{How, Uses};
use crate::rules::opts::Spec;
use crate::shell::Command;

/// The programs whose words `access` and its modules read for what they
/// put on disk (archives, git, renames, links, patches): every argument
/// grid the tests build runs them.
#[rustfmt::skip]
pub(crate) const PRODUCING: &[&str] = &[
    "tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "7zr", "cpio", "git", "rename", "prename",
    "perl-rename", "file-rename", "rename.ul", "mmv", "link", "ln", "cp", "patch", "gpatch",
];

/// Where an archive is unpacked.
#[derive(Debug, Default)]
pub(crate) struct Unpacking<'c> {
    /// The directories its files land in, as `(index, prefix)`:
    /// `args[index][prefix..]` (`-C DIR`, `--directory=DIR`, `-d DIR`,
    /// `-oDIR`). None: the working directory.
    pub dirs: Vec<(usize, usize)>,
    /// Member names given (`tar -xf a.tar .warden.yaml`), which land in each directory.
    pub members: Vec<&'c str>,
    /// What a transform writes in place of a name (`--transform
    /// 's,^,.config/,'`, bsdtar's `-s`): its replacement, references to the
    /// match as `*`.
    pub renamed: Vec<String>,
    /// `tar -P`: names land where they say, from `/`.
    pub absolute: bool,
}

/// Where `cmd` unpacks an archive, if it does.
pub(crate) fn unpacking(cmd: &Command) -> Option<Unpacking<'_>> {
    match cmd.program.as_str() {
        "tar" | "gtar" | "bsdtar" => tar(cmd),
        "unzip" => unzip(&cmd.args),
        "7z" | "7za" | "7zz" | "7zr" => seven_zip(&cmd.args),
        "cpio" => cpio(&cmd.args),
        _ => None,
    }
}

/// An archive's files, where they land.
pub(super) fn unpack<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let Some(unpacking) = unpacking(cmd) else {
        return;
    };
    let mut dirs: Vec<&str> = unpacking
        .dirs
        .iter()
        .filter_map(|&(index, prefix)| cmd.args.get(index)?.get(prefix..))
        .collect();
    if unpacking.absolute {
        dirs.push("/");
    }
    if dirs.is_empty() {
        dirs.push(".");
    }
    for dir in dirs {
        u.add(dir, How::Produce);
        let named = unpacking
            .members
            .iter()
            .map(|m| Cow::Borrowed(*m))
            .chain(unpacking.renamed.iter().map(|r| Cow::Borrowed(r.as_str())));
        for name in named {
            u.add(within(dir, &name), How::Produce);
        }
    }
}

/// `name` inside `dir`; a leading `/` is dropped, as tar and unzip drop it.
fn within(dir: &str, name: &str) -> String {
    let name = name.trim_start_matches('/');
    if name.is_empty() {
        return dir.to_string();
    }
    format!("{}/{name}", dir.trim_end_matches('/'))
}

/// How a program's options are read, with where each value is.
struct Walked<'c> {
    flags: Vec<char>,
    /// Each option that took a value: its name (a short letter as one
    /// character), and where the value is.
    values: Vec<(Cow<'c, str>, usize, usize)>,
    /// Long options given without a value.
    longs: Vec<&'c str>,
    operands: Vec<usize>,
}

impl Walked<'_> {
    fn long(&self, name: &str, min: usize) -> bool {
        self.longs.iter().any(|l| long_is(l, name, min))
            || self.values.iter().any(|(k, ..)| long_is(k, name, min))
    }

    /// Where each value of the short option `short` or the long `long` is.
    fn spots(&self, short: char, long: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
        let long = long.to_string();
        self.values
            .iter()
            .filter(move |(k, ..)| {
                let one = k.chars().count() == 1 && k.starts_with(short);
                one || !long.is_empty() && k.len() > 1 && long_is(k, &long, 3)
            })
            .map(|(_, index, prefix)| (*index, *prefix))
    }
}

fn long_is(given: &str, name: &str, min: usize) -> bool {
    given == name || given.len() >= min && name.starts_with(given)
}

/// Reads `args` as GNU getopt would, keeping where each value is. With
/// `old_style`, a first word without a dash is a cluster of letters
/// whose values are the words after it, in order (`tar xzfC a.tgz dir`).
fn walk<'c>(
    args: &'c [String],
    spec: &Spec,
    old_style: bool,
    takes: impl Fn(char, &[String], usize) -> bool,
) -> Walked<'c> {
    let mut w = Walked {
        flags: Vec::new(),
        values: Vec::new(),
        longs: Vec::new(),
        operands: Vec::new(),
    };
    let mut i = 0;
    if old_style {
        if let Some(first) = args.first().filter(|f| {
            !f.starts_with('-') && !f.is_empty() && f.chars().all(|c| c.is_ascii_alphabetic())
        }) {
            i = 1;
            for c in first.chars() {
                if spec.values.contains(c) || takes(c, args, i) {
                    if i < args.len() {
                        w.values.push((Cow::Owned(c.to_string()), i, 0));
                        i += 1;
                    }
                } else {
                    w.flags.push(c);
                }
            }
        }
    }
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--" {
            w.operands.extend(i..args.len());
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            match long.split_once('=') {
                Some((key, _)) => w.values.push((Cow::Borrowed(key), i - 1, key.len() + 3)),
                None if spec.long_values.iter().any(|v| long_is(long, v, 3)) => {
                    if i < args.len() {
                        w.values.push((Cow::Borrowed(long), i, 0));
                    }
                    i += 1;
                }
                None => w.longs.push(long),
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            for (at, c) in arg.char_indices().skip(1) {
                let end = at + c.len_utf8();
                if spec.values.contains(c) || takes(c, args, i) && end == arg.len() {
                    if end < arg.len() {
                        w.values.push((Cow::Owned(c.to_string()), i - 1, end));
                    } else if i < args.len() {
                        w.values.push((Cow::Owned(c.to_string()), i, 0));
                        i += 1;
                    }
                    break;
                }
                w.flags.push(c);
            }
            continue;
        }
        w.operands.push(i - 1);
    }
    w
}

/// tar's options that take a value (GNU and bsdtar), short and long.
#[rustfmt::skip]
const TAR: Spec = Spec::gnu("fCTXbHIKLNgV", &["file", "directory", "files-from", "exclude-from", "exclude", "use-compress-program", "newer", "label", "transform", "xform", "owner", "group", "mode", "mtime", "format", "blocking-factor", "record-size", "checkpoint-action", "to-command", "info-script", "new-volume-script", "volno-file", "index-file", "listed-incremental", "suffix", "strip-components", "rsh-command", "tape-length", "starting-file", "after-date", "newer-mtime", "add-file", "pax-option", "exclude-tag", "exclude-tag-under", "exclude-tag-all", "owner-map", "group-map", "quoting-style"]);

fn tar(cmd: &Command) -> Option<Unpacking<'_>> {
    let args = &cmd.args;
    let bsd = cmd.program == "bsdtar";
    // bsdtar's `-s PATTERN` renames; GNU tar's `-s` keeps the order. A
    // pattern after it is bsdtar's reading either way.
    let substitution = |c: char, args: &[String], next: usize| {
        c == 's'
            && (bsd
                || args
                    .get(next)
                    .is_some_and(|a| substitution_parts(a).is_some()))
    };
    let w = walk(args, &TAR, true, substitution);
    let extract = w.flags.contains(&'x') || w.long("extract", 3) || w.long("get", 3);
    // To stdout or to a command: nothing lands on disk by tar's hand.
    let elsewhere = w.flags.contains(&'O') || w.long("to-stdout", 4) || w.long("to-command", 4);
    if !extract || elsewhere {
        return None;
    }
    let renamed = w
        .values
        .iter()
        .filter(|(k, ..)| k == "s" || long_is(k, "transform", 3) || long_is(k, "xform", 3))
        .filter_map(|&(_, index, prefix)| args.get(index)?.get(prefix..))
        .flat_map(replacements)
        .collect();
    Some(Unpacking {
        dirs: w.spots('C', "directory").collect(),
        members: w.operands.iter().map(|&i| args[i].as_str()).collect(),
        renamed,
        absolute: w.flags.contains(&'P') || w.long("absolute-names", 3),
    })
}

/// unzip's letters that list, test or print instead of extracting.
const UNZIP_NO_FILES: &str = "lptvcZzf";

fn unzip(args: &[String]) -> Option<Unpacking<'_>> {
    let mut out = Unpacking::default();
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        match arg {
            // `-x` names members to leave out, up to the next option.
            "-x" => {
                while args.get(i).is_some_and(|a| !a.starts_with('-')) {
                    i += 1;
                }
            }
            "-P" => i += 1,
            _ if arg.len() > 1 && arg.starts_with('-') => {
                // `-d DIR`, `-dDIR`, `-qd DIR`, `-qdDIR`: what follows `d` is the directory.
                let (letters, dir) = match arg[1..].split_once('d') {
                    Some((before, after)) => (before, Some(after)),
                    None => (&arg[1..], None),
                };
                if letters.contains(|c| UNZIP_NO_FILES.contains(c)) {
                    return None;
                }
                match dir {
                    Some("") => {
                        out.dirs.extend((i < args.len()).then_some((i, 0)));
                        i += 1;
                    }
                    Some(dir) => out.dirs.push((i - 1, arg.len() - dir.len())),
                    None => {}
                }
            }
            _ => operands.push(arg),
        }
    }
    // The archive, then the members to take from it.
    out.members = operands.get(1..).unwrap_or_default().to_vec();
    (!operands.is_empty()).then_some(out)
}

fn seven_zip(args: &[String]) -> Option<Unpacking<'_>> {
    let operands: Vec<usize> = (0..args.len())
        .filter(|&i| !args[i].starts_with('-'))
        .collect();
    let command = operands.first().map(|&i| args[i].as_str())?;
    if !matches!(command, "x" | "e") {
        return None;
    }
    let dirs = (0..args.len())
        .filter(|&i| args[i].starts_with("-o"))
        .map(|i| (i, 2))
        .collect();
    Some(Unpacking {
        dirs,
        members: operands.iter().skip(2).map(|&i| args[i].as_str()).collect(),
        ..Unpacking::default()
    })
}

#[rustfmt::skip]
const CPIO: Spec = Spec::gnu("CDEFHIMOR", &["directory", "file", "format", "pattern-file", "message", "owner", "io-size", "block-size", "rsh-command"]);

fn cpio(args: &[String]) -> Option<Unpacking<'_>> {
    let w = walk(args, &CPIO, false, |_, _, _| false);
    let extract = w.flags.contains(&'i') || w.long("extract", 3);
    let pass = w.flags.contains(&'p') || w.long("pass-through", 3);
    let mut dirs: Vec<(usize, usize)> = w.spots('D', "directory").collect();
    if pass {
        // `cpio -p DEST`: the files named on stdin are copied into DEST.
        dirs.extend(w.operands.first().map(|&i| (i, 0)));
    } else if !extract {
        return None;
    }
    Some(Unpacking {
        dirs,
        members: if pass {
            Vec::new()
        } else {
            w.operands.iter().map(|&i| args[i].as_str()).collect()
        },
        ..Unpacking::default()
    })
}

/// The parts of a substitution `s<d>pattern<d>replacement<d>flags` (sed,
/// GNU tar's `--transform`, Perl), or bsdtar's `<d>pattern<d>replacement<d>flags`.
pub(super) fn substitution_parts(expr: &str) -> Option<(&str, &str, &str)> {
    let delimiter = |c: &char| !c.is_alphanumeric() && !c.is_whitespace() && *c != '\\';
    let rest = match expr.strip_prefix('s') {
        Some(rest) if rest.chars().next().is_some_and(|c| delimiter(&c)) => rest,
        _ => expr,
    };
    let delim = rest.chars().next().filter(delimiter)?;
    let body = &rest[delim.len_utf8()..];
    let (pattern, after) = split_unescaped(body, delim)?;
    let (replacement, flags) = split_unescaped(after, delim)?;
    Some((pattern, replacement, flags))
}

/// `text` up to the first `delim` not after a backslash, and what follows it.
fn split_unescaped(text: &str, delim: char) -> Option<(&str, &str)> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if c == delim => return Some((&text[..at], &text[at + c.len_utf8()..])),
            _ => {}
        }
    }
    None
}

/// The names a transform's substitutions write: each replacement, with a
/// reference to what was matched (`&`, `\1`) standing as `*`.
fn replacements(exprs: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = exprs;
    while let Some((_, replacement, flags)) = substitution_parts(rest) {
        out.push(referenced_as_any(replacement));
        // GNU tar separates expressions with `;`.
        match flags.split_once(';') {
            Some((_, next)) => rest = next,
            None => break,
        }
    }
    out
}

/// A replacement text with `&`, `\N`, `$N` and `${N}` as `*`, case
/// escapes (`\U`, `\L`, `\E`) dropped and other escapes unescaped.
fn referenced_as_any(replacement: &str) -> String {
    let mut out = String::with_capacity(replacement.len());
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '&' => out.push('*'),
            '\\' => match chars.next() {
                Some(d) if d.is_ascii_digit() => out.push('*'),
                Some('U' | 'L' | 'E' | 'u' | 'l') | None => {}
                Some(other) => out.push(other),
            },
            '$' if chars
                .peek()
                .is_some_and(|d| d.is_ascii_digit() || *d == '{' || *d == '&') =>
            {
                while chars
                    .peek()
                    .is_some_and(|d| d.is_ascii_alphanumeric() || matches!(d, '{' | '}' | '&'))
                {
                    chars.next();
                }
                out.push('*');
            }
            _ => out.push(c),
        }
    }
    out
}
