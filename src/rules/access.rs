//! Which files a command reads and writes, and how: every shell spelling of a file access, in one list.
//!
//! Paths are reported as the command names them: resolving them against an
//! earlier `cd` or `~` is the caller's job, so that one table of path rules
//! judges `echo x > P`, `tee P`, `cp a P` and `sed -i … P` as a file tool writing P.

use std::borrow::Cow;

use super::net::curl_options;
use super::opts::{parse_opts, Opts, Spec, GNU, MODE, RSYNC, SCP};
use super::paths::basename;
use crate::shell::{Command, RedirectOp};

mod git;
mod patches;
mod produce;
mod renames;
pub use patches::{patch_dir, patch_input, patch_targets, PatchInput};
pub(crate) use produce::{unpacking, PRODUCING};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// How the file is accessed; for writes this maps to Hermes' category names ([`hermes_category`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    Redirect,
    Tee,
    /// The destination of cp, mv, install, ln, rsync, scp, `dd of=`.
    Copy,
    /// `sed -i`, `gawk -i inplace`, `yq -i`, and the configuration editors
    /// (`git config --file`, `crudini --set`, `dasel put`).
    EditShort,
    /// `sed --in-place`.
    EditLong,
    /// `perl -i`, `ruby -i`.
    EditScript,
    Truncate,
    /// chmod, chown, chgrp, chattr, setfacl: the file's metadata changes, not its bytes.
    Chmod,
    /// curl -o/-O, wget, aria2c.
    Download,
    /// rm, unlink, shred, rmdir, and the sources of mv.
    Delete,
    /// touch, mkdir, `install -d`: the file is created if missing.
    Touch,
    /// `patch`: the file it patches, `-o`, `-r`.
    Patch,
    /// The source of a hard link (`ln`, `cp -l`, `link`): a later write
    /// through the new name writes it, unseen.
    Link,
    /// A directory that gets files warden cannot see: an archive unpacked
    /// (`tar -x`, `unzip`), a repository cloned, the contents of another
    /// directory copied (`rsync -a src/ d`), a patch it cannot read.
    Produce,
    Read,
    /// A path in the arguments of a program warden has no model of: it may
    /// be read or written (`iconv -o F`, `tsc --outFile F`, `mypy --junit-xml F`).
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileUse<'c> {
    /// Borrowed from the command where it names the file itself; owned where
    /// the name is derived (`cp a dir/` writes `dir/a`, `curl -O` a URL's last segment).
    pub path: Cow<'c, str>,
    pub access: Access,
    pub how: How,
    /// For a copy's destination that only the file system can tell from a
    /// directory (`cp a b`): the name the file gets inside `path` when `path`
    /// is one, as `cp a b/` says in its words.
    pub inside: Option<Cow<'c, str>>,
}

/// The families of files Hermes has dangerous-pattern keys for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    System,
    Sensitive,
    ProjectEnv,
    HermesConfig,
}

/// Hermes' dangerous-pattern category for a write of this spelling to a file
/// of this family, where Hermes has one, so `command_allowlist` entries keep working.
#[rustfmt::skip]
pub fn hermes_category(how: How, family: Family) -> Option<&'static str> {
    use Family::*;
    use How::*;
    Some(match (family, how) {
        (System, Redirect) => "overwrite system config",
        (System | Sensitive | HermesConfig, Tee) => "overwrite system file via tee",
        (System, Copy) => "copy/move file into system config path",
        (System, EditShort | EditScript) => "in-place edit of system config",
        (System, EditLong) => "in-place edit of system config (long flag)",
        (Sensitive | HermesConfig, Redirect) => "overwrite system file via redirection",
        (Sensitive | HermesConfig, Copy) => "copy/move file into sensitive credential/SSH/shell-rc path",
        (Sensitive, EditShort) => "in-place edit of sensitive credential/SSH/shell-rc path",
        (Sensitive, EditLong) => "in-place edit of sensitive credential/SSH/shell-rc path (long flag)",
        (Sensitive, EditScript) => "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)",
        (HermesConfig, EditShort) => "in-place edit of Hermes config/env",
        (HermesConfig, EditLong) => "in-place edit of Hermes config/env (long flag)",
        (HermesConfig, EditScript) => "in-place edit of Hermes config/env (perl/ruby)",
        (ProjectEnv, Redirect) => "overwrite project env/config via redirection",
        (ProjectEnv, Tee) => "overwrite project env/config via tee",
        (ProjectEnv, Copy) => "overwrite project env/config file",
        _ => return None,
    })
}

/// Every Hermes key a shell write can carry, each once.
pub fn hermes_categories() -> Vec<&'static str> {
    use How::*;
    let families = [
        Family::System,
        Family::Sensitive,
        Family::ProjectEnv,
        Family::HermesConfig,
    ];
    let hows = [Redirect, Tee, Copy, EditShort, EditLong, EditScript];
    let mut keys: Vec<&'static str> = Vec::new();
    for family in families {
        for how in hows {
            if let Some(key) = hermes_category(how, family) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    keys
}

/// Every file `cmd` reads or writes, in the order its words name them.
/// Unknown programs give only their redirections.
pub fn file_uses(cmd: &Command) -> Vec<FileUse<'_>> {
    let mut u = Uses(Vec::new());
    redirected(cmd, &mut u);
    let args = &cmd.args;
    match cmd.program.as_str() {
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => copy(cmd, &mut u),
        // `link SOURCE NAME`: a hard link, as `ln` makes without options.
        "link" => {
            if let [source, name] = cmd.operands().as_slice() {
                u.add(*source, How::Link);
                u.add(*name, How::Copy);
            }
        }
        "tar" | "gtar" | "bsdtar" | "unzip" | "7z" | "7za" | "7zz" | "7zr" | "cpio" => {
            produce::unpack(cmd, &mut u)
        }
        // What git produces (clones, `mv`, patches) and the config files it edits.
        "git" => {
            git::git_uses(cmd, &mut u);
            editors::uses(cmd, &mut u);
        }
        "rename" | "prename" | "perl-rename" | "file-rename" | "rename.ul" => {
            renames::rename(cmd, &mut u)
        }
        "mmv" => renames::mmv(cmd, &mut u),
        "dd" => {
            for a in args {
                if let Some(p) = a.strip_prefix("of=") {
                    u.add(p, How::Copy);
                } else if let Some(p) = a.strip_prefix("if=") {
                    u.add(p, How::Read);
                }
            }
        }
        "sed" | "gsed" => sed(args, &mut u),
        "perl" | "ruby" => script_edit(cmd, &mut u),
        "awk" | "gawk" | "mawk" | "nawk" => awk(args, &mut u),
        "grep" | "egrep" | "fgrep" | "rg" => grep(cmd, &mut u),
        "jq" => jq(args, &mut u),
        // `warden test FILE`, `warden audit --file F`, as warden reads them.
        crate::subcommands::PROGRAM => crate::subcommands::read(args)
            .files_read()
            .into_iter()
            .for_each(|f| u.add(f.to_string(), How::Read)),
        // tomlq and xq are yq's siblings for TOML and XML, with its `-i`.
        "yq" | "tomlq" | "xq" => yq(args, &mut u),
        "chmod" | "chown" | "chgrp" => chmod(cmd, &mut u),
        "curl" => curl(cmd, &mut u),
        "wget" | "aria2c" => wget(cmd, &mut u),
        "openssl" => {
            for pair in args.windows(2) {
                match pair[0].as_str() {
                    "-in" | "-inkey" | "-key" => u.add(&pair[1], How::Read),
                    "-out" => u.add(&pair[1], How::Redirect),
                    _ => {}
                }
            }
        }
        p => {
            if !editors::uses(cmd, &mut u) {
                simple(p, args, &mut u)
            }
        }
    }
    u.0
}

/// The files `cmd`'s redirections read and write (a here-document or
/// here-string names none).
fn redirected<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    for r in cmd.redirects.iter().filter(|r| !r.target.is_empty()) {
        // `<>` arrives as a read: the analysis does not tell it from `<`.
        let (access, how) = match r.op {
            RedirectOp::Write | RedirectOp::Append => (Access::Write, How::Redirect),
            RedirectOp::Read => (Access::Read, How::Read),
            RedirectOp::Here => continue,
        };
        // Here `-` is a file of that name: only fd duplications mean a stream, and those are gone.
        let path = r.target.as_str().into();
        u.0.push(FileUse {
            path,
            access,
            how,
            inside: None,
        });
    }
}

/// (short option, long option, how) for an option whose value is a file;
/// `' '` or `""` where the program has no such spelling.
type FileOption = (char, &'static str, How);

struct Uses<'c>(Vec<FileUse<'c>>);

impl<'c> Uses<'c> {
    fn add(&mut self, path: impl Into<Cow<'c, str>>, how: How) {
        let path = path.into();
        // `-` is stdin or stdout; `<(…)` is a pipe the analysis could not resolve.
        if path.is_empty() || path == "-" || path.starts_with("<(") || path.starts_with(">(") {
            return;
        }
        let access = if how == How::Read {
            Access::Read
        } else {
            Access::Write
        };
        self.0.push(FileUse {
            path,
            access,
            how,
            inside: None,
        });
    }

    fn adds(&mut self, paths: &[&'c str], how: How) {
        paths.iter().for_each(|p| self.add(*p, how));
    }

    fn option_files(&mut self, o: &Opts<'c>, files: &[FileOption]) {
        for &(short, long, how) in files {
            for (_, v) in o.values.iter().filter(|(c, _)| *c == short) {
                self.add(*v, how);
            }
            let named =
                |k: &&str| !long.is_empty() && (*k == long || k.len() >= 3 && long.starts_with(k));
            for (_, v) in o.longs.iter().filter(|(k, _)| named(k)) {
                self.add(v.unwrap_or(""), how);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Copies, moves and links.

const SCP_FILES: &[FileOption] = &[('i', "", How::Read), ('F', "", How::Read)];
#[rustfmt::skip]
const RSYNC_FILES: &[FileOption] = &[(' ', "files-from", How::Read), (' ', "password-file", How::Read)];
#[rustfmt::skip]
const SSH: Spec = Spec { values: "BbcDEeFIiJLlmOoPpQRSWw", attached: "", long_values: &[], permute: false };

/// `host:path`, `user@host:`, `scp://host/x`: a file on another machine.
pub(super) fn is_remote(word: &str) -> bool {
    match word.split_once(':') {
        _ if word.contains("://") => true,
        // `./a:b` is local; so is a Windows drive (`C:\x`).
        Some((host, rest)) => {
            let drive = host.len() == 1 && rest.starts_with('\\');
            !(host.is_empty() || host.contains('/') || drive)
        }
        None => false,
    }
}

fn copy<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let program = cmd.program.as_str();
    let networked = matches!(program, "rsync" | "scp");
    let (o, files) = match program {
        "rsync" => (parse_opts(&cmd.args, &RSYNC), RSYNC_FILES),
        "scp" => (parse_opts(&cmd.args, &SCP), SCP_FILES),
        _ => (parse_opts(&cmd.args, &MODE), &[][..]),
    };
    u.option_files(&o, files);
    if program == "install" && (o.flag('d') || o.long("directory", 3)) {
        return u.adds(&o.operands, How::Touch);
    }
    let local = |p: &str| !(networked && is_remote(p));
    let (sources, landings) = landings(program, &o);
    // A hard link gives its source a second name: a later write through
    // that name writes the source, where no rule sees it.
    let hard = match program {
        "ln" => !(o.flag('s') || o.long("symbolic", 2)),
        "cp" => o.flag('l') || o.long("link", 3),
        _ => false,
    };
    match program {
        "mv" => u.adds(sources, How::Delete),
        _ if hard => u.adds(sources, How::Link),
        // A symlink's target is neither read nor written.
        "ln" => {}
        _ => sources
            .iter()
            .filter(|s| local(s))
            .for_each(|s| u.add(*s, How::Read)),
    }
    for landing in landings {
        // The contents of a directory (`rsync -a src/ d`, `cp -r src/. d`):
        // names warden cannot see land in the destination. A pattern
        // (`cp src/* d/`) keeps its words: the rules match what it can name.
        let pattern = basename(landing.source).contains(['*', '?', '[']);
        if let (false, Some(dir)) = (pattern, landing.path.strip_suffix("/*")) {
            u.add(
                if dir.is_empty() { "/" } else { dir }.to_string(),
                How::Produce,
            );
            continue;
        }
        let before = u.0.len();
        u.add(landing.path, How::Copy);
        if let (Some(name), Some(added)) = (landing.inside, u.0.get_mut(before)) {
            added.inside = Some(name.into());
        }
    }
}

/// Where one source of a copy, move or link lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Landing<'c> {
    pub source: &'c str,
    /// The path the command's words give it.
    pub path: Cow<'c, str>,
    /// When only the file system can tell whether `path` is a directory
    /// (`cp a.txt build`): the name the source gets inside it if it is one.
    pub inside: Option<&'c str>,
}

/// The sources of a copy, move or link (`cp`, `mv`, `install`, `ln`,
/// `rsync`, `scp`), from its sorted arguments, and where each lands; nothing
/// lands on another machine.
pub(super) fn landings<'o, 'c>(
    program: &str,
    o: &'o Opts<'c>,
) -> (&'o [&'c str], Vec<Landing<'c>>) {
    let networked = matches!(program, "rsync" | "scp");
    let target_dir = o.value('t').or(o.long_value("target-directory", 3));
    let (dest, sources) = match (target_dir, o.operands.split_last()) {
        (Some(dir), _) => (dir, &o.operands[..]),
        (None, Some((dest, sources))) if !sources.is_empty() => (*dest, sources),
        // `ln -s /etc/x` makes `x` here.
        (None, Some((source, _))) if program == "ln" => {
            let landing = Landing {
                source,
                path: basename(source).into(),
                inside: None,
            };
            return (&o.operands[..], vec![landing]);
        }
        _ => return (&[], Vec::new()),
    };
    if networked && is_remote(dest) {
        return (sources, Vec::new());
    }
    // `-T` makes the destination the file itself, and `ln -n` replaces a
    // link to a directory rather than entering it.
    let no_target_dir = !networked && (o.flag('T') || o.long("no-target-directory", 3))
        || program == "ln" && (o.flag('n') || o.long("no-dereference", 4));
    let parents = program == "cp" && o.long("parents", 3);
    // Each source lands inside a destination that is a directory: what it
    // writes is `dest/name`, never the directory itself (`cp notes.txt
    // /tmp/` writes /tmp/notes.txt, `cp key.pub ~/.ssh/` ~/.ssh/key.pub).
    let into_dir = target_dir.is_some() || sources.len() > 1 || parents || names_directory(dest);
    let landings = sources
        .iter()
        .map(|&source| {
            let name = landing_name(program, source, parents, networked);
            // A link is named after its source's last component; one with
            // none to give (`ln -s / r`, `ln -s .. up`) is the destination.
            let (path, inside) = if no_target_dir || program == "ln" && name == "*" {
                (dest.into(), None)
            } else if into_dir || name == "*" {
                // Contents (`rsync -a src/ d`, `cp -r src/. d`) make a directory.
                (
                    format!("{}/{name}", dest.trim_end_matches('/')).into(),
                    None,
                )
            } else {
                // One source and a destination its words do not call a
                // directory: the file system tells.
                (dest.into(), Some(name))
            };
            Landing {
                source,
                path,
                inside,
            }
        })
        .collect();
    (sources, landings)
}

/// The name `source` gets inside the destination directory: its last
/// component (`host:keys` lands as `keys`), the whole path for `cp
/// --parents`, and `*` where the words do not say (the contents of `src/`
/// for rsync, of `src/.` for cp, or a source at `..` or `/`).
fn landing_name<'s>(program: &str, source: &'s str, parents: bool, networked: bool) -> &'s str {
    if parents {
        return source.trim_start_matches('/');
    }
    let source = if networked && is_remote(source) {
        source.split_once(':').map_or(source, |(_, path)| path)
    } else {
        source
    };
    let name = basename(source);
    let contents = program == "rsync" && source.ends_with('/');
    if contents || matches!(name, "" | "." | ".." | "~") {
        "*"
    } else {
        name
    }
}

/// Whether a destination's words say it is a directory: a trailing `/`,
/// `.` or `..` as its last component, `/`, the home, or a temporary
/// directory, which always exists.
fn names_directory(dest: &str) -> bool {
    dest.ends_with('/')
        || matches!(basename(dest), "." | "..")
        || matches!(
            dest,
            "~" | "$HOME" | "${HOME}" | "$TMPDIR" | "${TMPDIR}" | "$PWD" | "${PWD}"
        )
        || super::targets::is_temp_dir(&crate::path::absolute(dest, None, None))
}

// ---------------------------------------------------------------------------
// Editors in place, and the readers whose first operand is a script or pattern.

#[rustfmt::skip]
const SED: Spec = Spec { values: "efl", attached: "i", long_values: &["expression", "file", "line-length"], permute: true };
#[rustfmt::skip]
const PERL: Spec = Spec { values: "eE", attached: "iIlmM0CFdDxV", long_values: &[], permute: false };
#[rustfmt::skip]
const RUBY: Spec = Spec { values: "eIrCE", attached: "iFx0W", long_values: &[], permute: false };
#[rustfmt::skip]
const AWK: Spec = Spec::gnu("fvFiEl", &["file", "assign", "field-separator", "include", "exec", "load"]);

/// Each file operand read, or written in place with `edit`; the first operand
/// is the script itself unless `script_given`.
fn operand_files<'c>(u: &mut Uses<'c>, files: &[&'c str], script_given: bool, edit: Option<How>) {
    u.adds(
        &files[usize::from(!script_given).min(files.len())..],
        edit.unwrap_or(How::Read),
    );
}

fn sed<'c>(args: &'c [String], u: &mut Uses<'c>) {
    let o = parse_opts(args, &SED);
    u.option_files(&o, &[('f', "file", How::Read)]);
    let edit = if o.value('i').is_some() {
        Some(How::EditShort)
    } else {
        o.long("in-place", 1).then_some(How::EditLong)
    };
    let script_given = o.value('e').is_some()
        || o.value('f').is_some()
        || o.long("expression", 1)
        || o.long("file", 2);
    operand_files(u, &o.operands, script_given, edit);
}

fn script_edit<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let o = parse_opts(&cmd.args, if cmd.program == "perl" { &PERL } else { &RUBY });
    let script_given = o.value('e').is_some() || o.value('E').is_some();
    if !script_given {
        u.adds(&o.operands[..o.operands.len().min(1)], How::Read);
    }
    let files = &o.operands[usize::from(!script_given).min(o.operands.len())..];
    // Without -n, -p or -i the words after the script are its arguments, not input files.
    if o.value('i').is_some() {
        u.adds(files, How::EditScript);
    } else if o.flag('n') || o.flag('p') {
        u.adds(files, How::Read);
    }
}

fn awk<'c>(args: &'c [String], u: &mut Uses<'c>) {
    let o = parse_opts(args, &AWK);
    u.option_files(&o, &[('f', "file", How::Read)]);
    let inplace = |v: &str| matches!(v, "inplace" | "inplace.awk");
    let in_place = o.values.iter().any(|(c, v)| *c == 'i' && inplace(v))
        || o.longs
            .iter()
            .any(|(k, v)| k.len() >= 3 && "include".starts_with(k) && v.is_some_and(inplace));
    let script_given =
        o.value('f').is_some() || o.value('E').is_some() || o.long("file", 2) || o.long("exec", 2);
    // `name=value` operands set a variable between files.
    let assignment = |w: &&str| {
        w.split_once('=').is_some_and(|(name, _)| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    let mut files = o.operands.clone();
    files.retain(|w| !assignment(w));
    // fs_write judges `gawk -i inplace` with sed -i's keys, so the same category here.
    operand_files(u, &files, script_given, in_place.then_some(How::EditShort));
}

#[rustfmt::skip]
const GREP: Spec = Spec::gnu("efmABCdD", &["regexp", "file", "max-count", "after-context", "before-context", "context", "directories", "devices", "include", "exclude", "exclude-dir", "exclude-from", "label", "binary-files", "group-separator"]);
#[rustfmt::skip]
const RG: Spec = Spec::gnu("efgtTmABCjMErd", &["regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear", "max-count", "after-context", "before-context", "context", "threads", "max-columns", "encoding", "replace", "max-depth", "pre", "pre-glob", "sort", "sortr", "color", "colors", "path-separator", "context-separator", "ignore-file", "max-filesize", "engine", "dfa-size-limit", "regex-size-limit"]);

fn grep<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let rg = cmd.program == "rg";
    let o = parse_opts(&cmd.args, if rg { &RG } else { &GREP });
    #[rustfmt::skip]
    u.option_files(&o, &[('f', "file", How::Read), (' ', "exclude-from", How::Read), (' ', "ignore-file", How::Read)]);
    let pattern_given = o.value('e').is_some()
        || o.value('f').is_some()
        || o.long("regexp", 3)
        || o.long("file", 4)
        || rg && (o.long("files", 5) || o.long("type-list", 6));
    operand_files(u, &o.operands, pattern_given, None);
}

/// jq's options do not fit [`Spec`]: `--arg name value` takes two words.
fn jq<'c>(args: &'c [String], u: &mut Uses<'c>) {
    let (mut operands, mut from_file, mut positional) = (Vec::new(), false, false);
    let mut words = args.iter().map(String::as_str);
    while let Some(w) = words.next() {
        match w {
            "--arg" | "--argjson" | "--indent" | "-L" => {
                words.nth(usize::from(w.starts_with("--arg")));
            }
            "--slurpfile" | "--rawfile" => {
                words.nth(1).into_iter().for_each(|f| u.add(f, How::Read))
            }
            "--args" | "--jsonargs" => positional = true,
            "--from-file" => from_file = true,
            "--" => operands.extend(words.by_ref()),
            _ if w.starts_with("--") => {}
            _ if w.len() > 1 && w.starts_with('-') => from_file |= w.contains('f'),
            _ => operands.push(w),
        }
    }
    // With -f the first operand is the filter's file, read like the rest;
    // with --args the words after the filter are strings, not files.
    let files = operands.len().min(if positional { 1 } else { usize::MAX });
    operand_files(u, &operands[..files], from_file, None);
}

fn yq<'c>(args: &'c [String], u: &mut Uses<'c>) {
    #[rustfmt::skip]
    let o = parse_opts(args, &Spec::gnu("opIs", &["output-format", "input-format", "indent", "split-exp", "from-file"]));
    u.option_files(&o, &[(' ', "from-file", How::Read)]);
    let subcommand = matches!(
        o.operands.first(),
        Some(&("e" | "eval" | "ea" | "eval-all"))
    );
    let operands = &o.operands[usize::from(subcommand)..];
    let edit = o.flag('i') || o.long("inplace", 3) || o.long("in-place", 3);
    operand_files(
        u,
        operands,
        o.long("from-file", 3),
        edit.then_some(How::EditShort),
    );
}

fn chmod<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let o = parse_opts(&cmd.args, &Spec::gnu("", &["reference", "from"]));
    u.option_files(&o, &[(' ', "reference", How::Read)]);
    // `chmod -w f`: the mode itself looks like an option.
    let mode_as_option = cmd.program == "chmod"
        && o.clusters
            .iter()
            .any(|cl| !cl.is_empty() && cl.iter().all(|c| "rwxXstugoa=+-,01234567".contains(*c)));
    let skip = usize::from(!(mode_as_option || o.long("reference", 3)));
    u.adds(o.operands.get(skip..).unwrap_or_default(), How::Chmod);
}

// ---------------------------------------------------------------------------
// Downloads and uploads.

/// The name a URL's file is saved as: its last path segment.
fn remote_name(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let (_, path) = path.split_once('/')?;
    path.rsplit('/').next().filter(|n| !n.is_empty())
}

fn in_dir(dir: Option<&str>, file: &str) -> String {
    match dir {
        Some(d) if !file.starts_with('/') => format!("{}/{file}", d.trim_end_matches('/')),
        _ => file.to_string(),
    }
}

fn curl<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let opts = curl_options(cmd);
    let dir = opts
        .iter()
        .find(|(o, _)| o == "--output-dir")
        .map(|(_, v)| v.as_str());
    let mut remote_names = false;
    for (opt, value) in &opts {
        let file = match opt.as_str() {
            "-o" | "--output" if value != "-" => {
                u.add(in_dir(dir, value), How::Download);
                continue;
            }
            "-O" | "--remote-name" | "--remote-name-all" => {
                remote_names = true;
                continue;
            }
            "-T" | "--upload-file" if value != "." => Some(value.as_str()),
            "-K" | "--config" => Some(value.as_str()),
            "-d" | "--data" | "--data-binary" | "--data-ascii" | "--json" => {
                value.strip_prefix('@')
            }
            // `name@file` and `@file` read a file; `name=text` does not.
            "--data-urlencode" => value
                .find(['=', '@'])
                .and_then(|at| value[at..].strip_prefix('@')),
            "-F" | "--form" => value
                .split_once('=')
                .and_then(|(_, v)| v.strip_prefix(['@', '<'])),
            _ => None,
        };
        // A form file may carry `;type=…` after its name.
        if let Some(file) = file.and_then(|f| f.split(';').next()) {
            u.add(file.to_string(), How::Read);
        }
    }
    if remote_names {
        // Option values show up among the operands; they are not URLs.
        let values: Vec<&str> = opts.iter().map(|(_, v)| v.as_str()).collect();
        let urls = cmd.operands().into_iter().filter(|w| !values.contains(w));
        let named = opts.iter().filter(|(o, _)| o == "--url");
        for name in urls
            .chain(named.map(|(_, v)| v.as_str()))
            .filter_map(remote_name)
        {
            u.add(in_dir(dir, name), How::Download);
        }
    }
}

#[rustfmt::skip]
pub(super) const WGET: Spec = Spec::gnu("oaiBeOPtTwQlARDIXU", &["output-document", "directory-prefix", "output-file", "append-output", "input-file", "post-file", "body-file", "load-cookies", "config", "execute", "tries", "timeout", "wait", "user-agent", "header", "user", "password", "level", "accept", "reject", "domains", "include-directories", "exclude-directories", "post-data", "body-data", "method", "referer", "quota", "limit-rate", "base"]);
#[rustfmt::skip]
const ARIA2C: Spec = Spec::gnu("doijxskmtUlTM", &["dir", "out", "input-file", "log", "torrent-file", "metalink-file", "max-concurrent-downloads", "max-connection-per-server", "split", "min-split-size", "max-tries", "timeout", "user-agent", "header", "referer", "load-cookies"]);
#[rustfmt::skip]
const WGET_FILES: &[FileOption] = &[('i', "input-file", How::Read), (' ', "post-file", How::Read), (' ', "body-file", How::Read), (' ', "load-cookies", How::Read), (' ', "config", How::Read), ('o', "output-file", How::Redirect), ('a', "append-output", How::Redirect)];
#[rustfmt::skip]
const ARIA2C_FILES: &[FileOption] = &[('i', "input-file", How::Read), ('T', "torrent-file", How::Read), ('M', "metalink-file", How::Read), (' ', "load-cookies", How::Read), ('l', "log", How::Redirect)];

fn wget<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let aria = cmd.program == "aria2c";
    let o = parse_opts(&cmd.args, if aria { &ARIA2C } else { &WGET });
    u.option_files(&o, if aria { ARIA2C_FILES } else { WGET_FILES });
    let (doc, dir) = if aria {
        (
            o.value('o').or(o.long_value("out", 3)),
            o.value('d').or(o.long_value("dir", 3)),
        )
    } else {
        let doc = o.value('O').or(o.long_value("output-document", 3));
        (doc, o.value('P').or(o.long_value("directory-prefix", 3)))
    };
    match doc {
        // wget's -O is a path; aria2c's -o a name inside --dir.
        Some(d) if aria => u.add(in_dir(dir, d), How::Download),
        Some(d) => u.add(d, How::Download),
        None => {
            for url in &o.operands {
                let name = remote_name(url).unwrap_or("index.html");
                u.add(in_dir(dir, name), How::Download);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Programs whose operands are all used alike, after options of their own.

/// A program's options, those of them that name a file, and what it does to its
/// operands (`None`: they are not files).
type Shape = (Spec, &'static [FileOption], Option<How>);

#[rustfmt::skip]
fn shape(program: &str) -> Option<Shape> {
    use How::*;
    const NONE: &[FileOption] = &[];
    Some(match program {
        "tee" => (GNU, NONE, Some(Tee)),
        "truncate" => (Spec::gnu("sr", &["size", "reference"]), &[('r', "reference", Read)], Some(Truncate)),
        "chattr" => (Spec::gnu("vp", &[]), NONE, Some(Chmod)),
        "setfacl" => (Spec::gnu("mMxX", &["modify", "modify-file", "remove", "remove-file", "set", "set-file", "restore"]), &[('M', "modify-file", Read), ('X', "remove-file", Read), (' ', "set-file", Read), (' ', "restore", Read)], Some(Chmod)),
        "touch" => (Spec::gnu("drt", &["date", "reference", "time"]), &[('r', "reference", Read)], Some(Touch)),
        "mkdir" => (MODE, NONE, Some(Touch)),
        "rm" | "unlink" | "rmdir" | "srm" => (GNU, NONE, Some(Delete)),
        "shred" => (Spec::gnu("ns", &["iterations", "size", "random-source"]), NONE, Some(Delete)),
        "patch" => (Spec::gnu("BdDFioprVYzg", &["prefix", "directory", "ifdef", "fuzz", "input", "output", "strip", "reject-file", "version-control", "basename-prefix", "suffix", "get", "quoting-style"]), &[('i', "input", Read), ('o', "output", Patch), ('r', "reject-file", Patch)], Some(Patch)),
        "gpg" | "gpg2" => (Spec::gnu("orRufzN", &["output", "recipient", "hidden-recipient", "local-user", "recipient-file", "homedir", "keyring", "secret-keyring", "default-key", "passphrase", "passphrase-file", "passphrase-fd", "trust-model", "cipher-algo", "digest-algo", "compress-algo", "keyserver", "status-fd", "logger-fd", "command-fd", "set-filename", "comment", "pinentry-mode", "trusted-key", "encrypt-to", "default-recipient", "sig-notation", "export-options", "import-options", "keyserver-options", "list-options", "verify-options", "auto-key-locate", "compress-level"]), &[('o', "output", Redirect), ('f', "recipient-file", Read), (' ', "passphrase-file", Read)], Some(Read)),
        "ssh" => (SSH, &[('i', "", Read), ('F', "", Read)], None),
        "cat" | "md5sum" | "sha1sum" | "sha224sum" | "sha256sum" | "sha384sum" | "sha512sum" | "b2sum" | "cksum" | "sum" => (GNU, NONE, Some(Read)),
        "xxd" => (Spec::gnu("cglosn", &[]), NONE, Some(Read)),
        "uniq" => (Spec::gnu("fsw", &["skip-fields", "skip-chars", "check-chars"]), NONE, Some(Read)),
        "tac" => (Spec::gnu("s", &["separator"]), NONE, Some(Read)),
        "head" => (Spec::gnu("nc", &["lines", "bytes"]), NONE, Some(Read)),
        "tail" => (Spec::gnu("ncs", &["lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"]), NONE, Some(Read)),
        "more" => (Spec::gnu("n", &["lines"]), NONE, Some(Read)),
        "less" => (Spec::gnu("bhjkoOpPtTxyz#", &["pattern", "tag", "log-file", "LOG-FILE", "jump-target", "tabs", "window", "shift", "tag-file"]), &[('o', "log-file", Redirect), ('O', "LOG-FILE", Redirect)], Some(Read)),
        "bat" | "batcat" => (Spec::gnu("lHrm", &["language", "highlight-line", "line-range", "map-syntax", "style", "theme", "tabs", "wrap", "paging", "color", "decorations", "terminal-width", "file-name", "diff-context", "pager"]), NONE, Some(Read)),
        "nl" => (Spec::gnu("bdfhilnsvw", &["body-numbering", "section-delimiter", "footer-numbering", "header-numbering", "line-increment", "join-blank-lines", "number-format", "number-separator", "starting-line-number", "number-width"]), NONE, Some(Read)),
        "od" => (Spec { values: "AjNSt", attached: "w", long_values: &["address-radix", "skip-bytes", "read-bytes", "format"], permute: true }, NONE, Some(Read)),
        "hexdump" | "hd" => (Spec::gnu("efns", &[]), &[('f', "", Read)], Some(Read)),
        "strings" => (Spec::gnu("nteT", &["bytes", "radix", "encoding", "target", "output-separator"]), NONE, Some(Read)),
        "base64" | "base32" | "basenc" => (Spec::gnu("w", &["wrap"]), NONE, Some(Read)),
        "cut" => (Spec::gnu("bcdf", &["bytes", "characters", "delimiter", "fields", "output-delimiter"]), NONE, Some(Read)),
        "sort" => (Spec::gnu("kotST", &["key", "output", "field-separator", "buffer-size", "temporary-directory", "files0-from", "parallel", "batch-size", "compress-program", "random-source"]), &[('o', "output", Redirect), (' ', "files0-from", Read), (' ', "random-source", Read)], Some(Read)),
        "wc" => (Spec::gnu("", &["files0-from"]), &[(' ', "files0-from", Read)], Some(Read)),
        "shasum" => (Spec::gnu("a", &["algorithm"]), NONE, Some(Read)),
        "file" => (Spec::gnu("mfFeP", &["magic-file", "files-from", "separator", "exclude", "parameter"]), &[('m', "magic-file", Read), ('f', "files-from", Read)], Some(Read)),
        "diff" => (Spec::gnu("CUIFxXSLWD", &["ignore-matching-lines", "show-function-line", "exclude", "exclude-from", "starting-file", "label", "width", "ifdef", "from-file", "to-file", "horizon-lines", "tabsize", "line-format"]), &[('X', "exclude-from", Read), (' ', "from-file", Read), (' ', "to-file", Read)], Some(Read)),
        "cmp" => (Spec::gnu("in", &["ignore-initial", "bytes"]), NONE, Some(Read)),
        "source" | "." => (GNU, NONE, Some(Read)),
        _ => return None,
    })
}

/// gpg commands that take key ids, not files.
#[rustfmt::skip]
const GPG_KEY_COMMANDS: &[&str] = &["list-", "check-sig", "fingerprint", "export", "recv-key", "send-key", "search-key", "refresh-key", "delete-", "edit-key", "sign-key", "lsign-key", "quick-", "gen-", "generate-", "full-gen", "card-", "change-pin", "passwd", "locate-"];

fn simple<'c>(program: &str, args: &'c [String], u: &mut Uses<'c>) {
    let Some((spec, files, how)) = shape(program) else {
        return;
    };
    let o = parse_opts(args, &spec);
    u.option_files(&o, files);
    let Some(how) = how else {
        return;
    };
    let ops = &o.operands[..];
    let key_id = |k: &&str| GPG_KEY_COMMANDS.iter().any(|c| k.starts_with(c));
    let key_command = o.flag('k') || o.flag('K') || o.longs.iter().any(|(k, _)| key_id(k));
    match (program, ops) {
        // `uniq in out`, `xxd in out`: the second operand is the output.
        ("uniq" | "xxd", [input, output, ..]) => {
            u.add(*input, How::Read);
            u.add(*output, How::Redirect);
        }
        // `cmp a b SKIP1 SKIP2`: the offsets are numbers; `source f a b`: a and b are the script's.
        ("cmp", _) => u.adds(&ops[..ops.len().min(2)], how),
        ("source" | ".", _) => u.adds(&ops[..ops.len().min(1)], how),
        // `+i`, `=e` are attributes (`-i` parses as an option).
        ("chattr", _) => ops
            .iter()
            .filter(|w| !w.starts_with(['+', '=']))
            .for_each(|w| u.add(*w, how)),
        // With -o the original is only read; the second operand is the patch.
        ("patch", [original, rest @ ..]) => {
            let output = o.value('o').is_some() || o.long("output", 3);
            u.add(*original, if output { How::Read } else { how });
            u.adds(&rest[..rest.len().min(1)], How::Read);
        }
        ("gpg" | "gpg2", _) if key_command => {}
        _ => u.adds(ops, how),
    }
}

mod editors;
#[cfg(test)]
mod tests;
