//! What a command puts on disk beyond the destinations its words name: archives unpacked (`tar -x`, `unzip`, `7z x`, `cpio -i`), repositories cloned or checked out, files renamed by an expression (`rename`, `mmv`) or by git (`git mv`), and the files a patch names (`patch`, `git apply`, `git am`).
//!
//! A directory that gets files warden cannot list is a [`How::Produce`] of
//! that directory; a name the command states (an archive member, a
//! transform's replacement, a rename's result, a clone's directory) is
//! reported as the path it makes, so the path rules judge it as they judge
//! `> PATH`.

use std::borrow::Cow;

use super::{landings, How, Uses};
use crate::rules::git::{git, GLOBAL};
use crate::rules::opts::{parse_opts, Opts, Spec, GNU};
use crate::shell::Command;

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
            "-d" => {
                out.dirs.extend((i < args.len()).then_some((i, 0)));
                i += 1;
            }
            _ if arg.starts_with("-d") => out.dirs.push((i - 1, 2)),
            _ if arg.len() > 1 && arg.starts_with('-') => {
                let letters = &arg[1..];
                if letters.contains(|c| UNZIP_NO_FILES.contains(c)) {
                    return None;
                }
                if letters.ends_with('d') {
                    out.dirs.extend((i < args.len()).then_some((i, 0)));
                    i += 1;
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

/// The parts of a sed-style substitution `s<d>pattern<d>replacement<d>flags`.
fn substitution_parts(expr: &str) -> Option<(&str, &str, &str)> {
    let rest = expr.strip_prefix('s')?;
    let delim = rest
        .chars()
        .next()
        .filter(|c| !c.is_alphanumeric() && *c != '\\')?;
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

// ---------------------------------------------------------------------------
// git: clones, worktrees and submodules checked out, files moved, and
// paths restored from another commit.

#[rustfmt::skip]
const CLONE: Spec = Spec::gnu("obucj", &["origin", "branch", "upload-pack", "reference", "reference-if-able", "separate-git-dir", "depth", "shallow-since", "shallow-exclude", "config", "template", "filter", "jobs", "server-option", "bundle-uri", "ref-format"]);
const WORKTREE_ADD: Spec = Spec::gnu("bB", &["reason"]);
#[rustfmt::skip]
const SUBMODULE_ADD: Spec = Spec::gnu("b", &["branch", "name", "reference", "depth"]);
#[rustfmt::skip]
const RESTORE: Spec = Spec::gnu("s", &["source", "pathspec-from-file", "conflict"]);
const CHECKOUT: Spec = Spec::gnu("bB", &["conflict", "pathspec-from-file"]);

pub(super) fn git_uses<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let Some(g) = git(cmd) else {
        return;
    };
    // `git -C DIR` runs the subcommand in DIR.
    let globals = parse_opts(g.global, &GLOBAL);
    let dirs: Vec<&str> = globals
        .values
        .iter()
        .filter(|(c, _)| *c == 'C')
        .map(|(_, v)| *v)
        .collect();
    let at = |path: &str| -> Cow<'c, str> {
        let mut joined = path.to_string();
        for dir in dirs.iter().rev() {
            if joined.starts_with(['/', '~', '$']) {
                break;
            }
            joined = format!("{}/{joined}", dir.trim_end_matches('/'));
        }
        Cow::Owned(joined)
    };
    match g.sub {
        "clone" => {
            let o = parse_opts(g.args, &CLONE);
            if let Some(dir) = o.operands.get(1).copied().or_else(|| {
                let source = o.operands.first()?;
                cloned_name(source, o.long("bare", 3) || o.long("mirror", 3))
            }) {
                u.add(at(dir), How::Produce);
            }
            if let Some(dir) = o.long_value("separate-git-dir", 3) {
                u.add(at(dir), How::Produce);
            }
        }
        "worktree" => {
            if g.args.first().map(String::as_str) == Some("add") {
                let o = parse_opts(&g.args[1..], &WORKTREE_ADD);
                if let Some(path) = o.operands.first() {
                    u.add(at(path), How::Produce);
                }
            }
        }
        "submodule" => {
            let add = g.args.iter().position(|a| a == "add");
            if let Some(args) = add.and_then(|i| g.args.get(i + 1..)) {
                let o = parse_opts(args, &SUBMODULE_ADD);
                let path = o
                    .operands
                    .get(1)
                    .copied()
                    .or_else(|| o.operands.first().and_then(|s| cloned_name(s, false)));
                if let Some(path) = path {
                    u.add(at(path), How::Produce);
                }
            }
        }
        "mv" => {
            let o = parse_opts(g.args, &GNU);
            if o.flag('n') || o.long("dry-run", 3) {
                return;
            }
            let (sources, landings) = landings("mv", &o);
            for source in sources {
                u.add(at(source), How::Delete);
            }
            for landing in landings {
                let before = u.0.len();
                u.add(at(&landing.path), How::Copy);
                if let (Some(name), Some(added)) = (landing.inside, u.0.get_mut(before)) {
                    added.inside = Some(name.into());
                }
            }
        }
        // Paths taken from another commit: what they hold is not the
        // working tree's, nor the index's.
        "checkout" | "restore" => {
            let restore = g.sub == "restore";
            let o = parse_opts(g.args, if restore { &RESTORE } else { &CHECKOUT });
            for path in restored(g.args, &o, restore) {
                u.add(at(path), How::Produce);
            }
        }
        _ => {}
    }
}

/// The paths `git checkout COMMIT -- PATHS` or `git restore --source=X
/// PATHS` fill from another commit; none when they come from the index.
fn restored<'c>(args: &'c [String], o: &Opts<'c>, restore: bool) -> Vec<&'c str> {
    if restore {
        let source = o.value('s').or(o.long_value("source", 3));
        let worktree =
            o.flag('W') || o.long("worktree", 3) || !(o.flag('S') || o.long("staged", 3));
        return if source.is_some() && worktree {
            o.operands.clone()
        } else {
            Vec::new()
        };
    }
    // `git checkout COMMIT -- PATHS`, or `git checkout COMMIT PATH...`.
    match args.iter().position(|a| a == "--") {
        Some(dashes) => {
            let before = parse_opts(&args[..dashes], &CHECKOUT);
            if before.operands.is_empty() {
                Vec::new()
            } else {
                args[dashes + 1..].iter().map(String::as_str).collect()
            }
        }
        None if o.operands.len() > 1 => o.operands[1..].to_vec(),
        None => Vec::new(),
    }
}

/// The directory `git clone SOURCE` makes: the source's last component
/// without `.git` (`.git` kept for a bare clone), as git names it.
fn cloned_name(source: &str, bare: bool) -> Option<&str> {
    let path = source.trim_end_matches('/');
    let path = path.strip_suffix("/.git").unwrap_or(path);
    // `host:path` and URLs: the part after the last `/` or `:`.
    let name = path.rsplit(['/', ':']).next().unwrap_or(path);
    let name = if bare {
        name
    } else {
        name.strip_suffix(".git").unwrap_or(name)
    };
    (!name.is_empty()).then_some(name)
}

// ---------------------------------------------------------------------------
// Renames by an expression.

/// `rename`, `prename`, `perl-rename`, `file-rename` (Perl's: `rename
/// 's/a/b/' FILES`) and util-linux's (`rename FROM TO FILES`): each file
/// named moves to the name the expression gives it; where warden cannot
/// work that out, its directory gets a name it cannot see.
pub(super) fn rename<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    #[rustfmt::skip]
    let o = parse_opts(&cmd.args, &Spec::gnu("e", &["expr"]));
    if o.flag('n') || o.long("no-act", 3) || o.long("dry-run", 3) || o.long("just-print", 3) {
        return;
    }
    let expression = o.value('e').or(o.long_value("expr", 3));
    let (perl, files): (Option<&str>, &[&str]) = match (expression, o.operands.as_slice()) {
        (Some(e), files) => (Some(e), files),
        (None, [first, files @ ..]) if perl_expression(first) => (Some(first), files),
        (None, [from, to, files @ ..]) => {
            let (all, last) = (
                o.flag('a') || o.long("all", 3),
                o.flag('l') || o.long("last", 3),
            );
            for file in files {
                u.add(*file, How::Delete);
                u.add(replaced(file, from, to, all, last), How::Copy);
            }
            return;
        }
        _ => return,
    };
    let Some(expression) = perl else {
        return;
    };
    let substitution = compile(expression);
    for file in files {
        u.add(*file, How::Delete);
        match substitution.as_ref().map(|s| s.apply(file)) {
            Some(name) => u.add(name, How::Copy),
            None => u.add(parent(file), How::Produce),
        }
    }
}

/// `mmv FROM TO`: each file FROM matches moves to TO, its `#N` standing
/// for what a wildcard matched (`*`); copies, links and appends keep it.
pub(super) fn mmv<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let o = parse_opts(&cmd.args, &GNU);
    if o.flag('n') {
        return;
    }
    let [from, to, ..] = o.operands.as_slice() else {
        return;
    };
    let source = if o.flag('l') {
        How::Link
    } else if o.flag('c') || o.flag('o') || o.flag('a') || o.flag('s') {
        How::Read
    } else {
        How::Delete
    };
    u.add(*from, source);
    let mut target = String::with_capacity(to.len());
    let mut chars = to.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            target.push('*');
        } else {
            target.push(c);
        }
    }
    u.add(target, How::Copy);
}

fn parent(file: &str) -> String {
    match file.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/".into(),
        Some((dir, _)) => dir.into(),
        None => ".".into(),
    }
}

/// util-linux's replacement of `from` by `to` in `file`: the first
/// occurrence, every one (`-a`) or the last (`-l`).
fn replaced(file: &str, from: &str, to: &str, all: bool, last: bool) -> String {
    if from.is_empty() {
        return file.to_string();
    }
    if all {
        return file.replace(from, to);
    }
    let at = if last {
        file.rfind(from)
    } else {
        file.find(from)
    };
    match at {
        Some(at) => format!("{}{to}{}", &file[..at], &file[at + from.len()..]),
        None => file.to_string(),
    }
}

fn perl_expression(word: &str) -> bool {
    let code = word.trim_start();
    ["s", "y", "tr"].iter().any(|op| {
        code.strip_prefix(op)
            .and_then(|r| r.chars().next())
            .is_some_and(|c| !c.is_alphanumeric() && !c.is_whitespace())
    }) || code.contains("$_")
}

/// A Perl substitution warden can apply: `s/PATTERN/REPLACEMENT/FLAGS`
/// with a pattern the regex engine takes and no code in the replacement.
struct Substitution {
    regex: regex::Regex,
    replacement: String,
    all: bool,
}

impl Substitution {
    fn apply(&self, name: &str) -> String {
        let replacement = self.replacement.as_str();
        if self.all {
            self.regex.replace_all(name, replacement).into_owned()
        } else {
            self.regex.replace(name, replacement).into_owned()
        }
    }
}

fn compile(expression: &str) -> Option<Substitution> {
    let (pattern, replacement, flags) = substitution_parts(expression.trim())?;
    if !flags.chars().all(|f| "gimsxr".contains(f)) {
        return None;
    }
    let inline: String = flags.chars().filter(|f| "imsx".contains(*f)).collect();
    let regex = if inline.is_empty() {
        regex::Regex::new(pattern)
    } else {
        regex::Regex::new(&format!("(?{inline}){pattern}"))
    }
    .ok()?;
    // `$1`, `${1}`, `\1` and `$&` as the regex engine writes them; case
    // escapes dropped (names compare in any case); other code refused.
    let mut out = String::new();
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(d) if d.is_ascii_digit() => out.push_str(&format!("${{{d}}}")),
                Some('U' | 'L' | 'E' | 'u' | 'l') => {}
                Some(other) => out.push(other),
                None => {}
            },
            '$' => match chars.peek().copied() {
                Some('&') => {
                    chars.next();
                    out.push_str("${0}");
                }
                Some(d) if d.is_ascii_digit() => {
                    chars.next();
                    out.push_str(&format!("${{{d}}}"));
                }
                Some('{') => {
                    let digits: String = chars
                        .clone()
                        .skip(1)
                        .take_while(char::is_ascii_digit)
                        .collect();
                    if digits.is_empty() {
                        return None;
                    }
                    chars.nth(digits.len() + 1);
                    out.push_str(&format!("${{{digits}}}"));
                }
                _ => return None,
            },
            '@' => return None,
            _ => out.push(c),
        }
    }
    Some(Substitution {
        regex,
        replacement: out,
        all: flags.contains('g'),
    })
}

// ---------------------------------------------------------------------------
// Patches.

/// Where a patch's text is and where its paths count from, for `patch`,
/// `git apply` and `git am`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PatchInput<'c> {
    /// The text handed to the command: a heredoc, a here-string, the output
    /// of `echo` or `printf`.
    pub text: Option<&'c str>,
    /// The files the patch is read from (none and no text: stdin, unknown).
    pub files: Vec<&'c str>,
    /// The directory its paths count from (`patch -d DIR`, `git -C DIR`).
    pub dir: Option<&'c str>,
    /// Put before every path (`git apply --directory=ROOT`).
    pub root: Option<&'c str>,
}

#[rustfmt::skip]
const PATCH: Spec = Spec::gnu("BdDFioprVYzg", &["prefix", "directory", "ifdef", "fuzz", "input", "output", "strip", "reject-file", "version-control", "basename-prefix", "suffix", "get", "quoting-style"]);
#[rustfmt::skip]
const APPLY: Spec = Spec::gnu("pC", &["directory", "exclude", "include", "whitespace", "build-fake-ancestor"]);

/// Where the patch `cmd` applies is, when it applies one to the files the
/// patch names (not to an original named on its command line).
pub fn patch_input(cmd: &Command) -> Option<PatchInput<'_>> {
    let stdin_file = || {
        cmd.redirects
            .iter()
            .rev()
            .find(|r| r.op == crate::shell::RedirectOp::Read)
            .map(|r| r.target.as_str())
            .or_else(|| {
                // `cat fix.diff | patch -p1`.
                let last = cmd.upstream.last()?;
                (last.program == "cat" && last.args.len() == 1).then(|| last.args[0].as_str())
            })
    };
    match cmd.program.as_str() {
        "patch" | "gpatch" => {
            let o = parse_opts(&cmd.args, &PATCH);
            let dry = o.long("dry-run", 3);
            let output = o.value('o').is_some() || o.long("output", 3);
            if dry || output || !o.operands.is_empty() {
                return None;
            }
            let file = o
                .value('i')
                .or(o.long_value("input", 3))
                .or_else(stdin_file);
            Some(PatchInput {
                text: cmd.stdin.as_deref().filter(|_| file.is_none()),
                files: file.into_iter().collect(),
                dir: o.value('d').or(o.long_value("directory", 3)),
                root: None,
            })
        }
        "git" => {
            let g = git(cmd)?;
            let globals = parse_opts(g.global, &GLOBAL);
            let dir = globals.value('C');
            let (spec, only_reads) = match g.sub {
                "apply" => (
                    &APPLY,
                    &["check", "stat", "numstat", "summary", "cached"][..],
                ),
                "am" => (&GNU, &["show-current-patch", "abort", "quit", "skip"][..]),
                _ => return None,
            };
            let o = parse_opts(g.args, spec);
            let applies = o.long("apply", 3) || !only_reads.iter().any(|r| o.long(r, 3));
            if !applies {
                return None;
            }
            let files: Vec<&str> = o.operands.iter().copied().filter(|f| *f != "-").collect();
            let files = if files.is_empty() {
                stdin_file().into_iter().collect()
            } else {
                files
            };
            Some(PatchInput {
                text: cmd.stdin.as_deref().filter(|_| files.is_empty()),
                files,
                dir,
                root: o.long_value("directory", 3),
            })
        }
        _ => None,
    }
}

/// The paths a patch's text names, each with the components `-p` may
/// strip taken off in turn (warden does not know which count the tool
/// will use), from `input`'s directory; `None` for a deleted or moved-away
/// file is [`How::Delete`].
pub fn patch_targets(input: &PatchInput<'_>, text: &str) -> Vec<(String, How)> {
    let mut out: Vec<(String, How)> = Vec::new();
    for file in crate::patch::files(text) {
        let how = match file.change {
            crate::patch::Change::Delete | crate::patch::Change::MoveFrom => How::Delete,
            _ => How::Patch,
        };
        let parts: Vec<&str> = file.path.split('/').filter(|p| !p.is_empty()).collect();
        for skip in 0..parts.len() {
            let rest = parts[skip..].join("/");
            let mut path = match input.root {
                Some(root) => format!("{}/{rest}", root.trim_end_matches('/')),
                None => rest,
            };
            if let Some(dir) = input.dir.filter(|_| !path.starts_with('/')) {
                path = format!("{}/{path}", dir.trim_end_matches('/'));
            }
            if !out.iter().any(|(p, h)| *p == path && *h == how) {
                out.push((path, how));
            }
            if file.path.starts_with('/') {
                break;
            }
        }
    }
    out
}

/// The directory a patch whose text warden cannot read puts files into.
pub fn patch_dir<'c>(input: &PatchInput<'c>) -> &'c str {
    input.dir.unwrap_or(".")
}
