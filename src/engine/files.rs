//! The files a call touches, resolved where the call runs — a file tool's paths and patches, every shell spelling of a read or write — and what the path rules say of them.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::reach;
use crate::config::policy::FileSubject;
use crate::payload::ToolCall;
use crate::resolve::{self, Base, Last, Links, Resolution};
use crate::rules::access::{self, How};
use crate::rules::files::{self as path_rules, Around, PathRule, Place};
use crate::shell::names::{self, NameSet};
use crate::shell::{Analysis, Command};
use crate::verdict::{Decision, Layer, Reason, Verdict};

/// One file a call reads or writes.
#[derive(Debug, Clone)]
pub(crate) struct Touched {
    /// The path as the tool or command names it.
    pub literal: String,
    pub resolution: Resolution,
    pub write: bool,
    /// The shell spelling; `None` for a file tool.
    pub how: Option<How>,
    /// What a verdict quotes: the tool and its path, or the command (shared
    /// by every file the command touches: a command can name hundreds, each
    /// as long as the line).
    pub subject: Rc<str>,
    /// The command of the line that touches it (shell calls).
    pub segment: Option<usize>,
}

/// Programs whose reads do not put the file's content before the agent:
/// copies, `source`, checksums, and ssh clients using a key (`ssh -i`).
#[rustfmt::skip]
const QUIET_READERS: &[&str] = &[
    "cp", "mv", "install", "ln", "rsync", "dd", "source", ".", "diff", "cmp", "wc", "md5sum",
    "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "file", "ssh", "scp", "sftp",
    "ssh-add", "ssh-keygen",
];

/// The session's directory, absolute (`~` expanded), if the payload says:
/// where a `cd` of the line, or the tool's `workdir`, starts from.
pub(crate) fn call_dir(call: &ToolCall, home: Option<&str>) -> Option<String> {
    let cwd = call.cwd.as_deref()?;
    thread_local! {
        static LAST: Remembered = const { RefCell::new(None) };
    }
    remembered(&LAST, cwd, home, || call.session_dir(home))
}

/// The last answer for a directory and a home: a call asks for its own
/// directory three times, and a batch's calls mostly share one.
type Remembered = RefCell<Option<(String, Option<String>, Option<String>)>>;

fn remembered(
    last: &'static std::thread::LocalKey<Remembered>,
    dir: &str,
    home: Option<&str>,
    work: impl FnOnce() -> Option<String>,
) -> Option<String> {
    let known = last.with(|last| {
        last.borrow()
            .as_ref()
            .filter(|(d, h, _)| d == dir && h.as_deref() == home)
            .map(|(_, _, answer)| answer.clone())
    });
    known.unwrap_or_else(|| {
        let answer = work();
        last.with(|last| {
            *last.borrow_mut() = Some((dir.to_string(), home.map(str::to_string), answer.clone()))
        });
        answer
    })
}

fn base<'a>(cwd: Option<&'a str>, home: Option<&'a str>, around: &Around<'a>) -> Base<'a> {
    Base {
        cwd,
        home,
        hermes_home: around.hermes_home,
    }
}

/// The call's `workdir`, unless it names the call's own directory (a
/// `cd` there moves nothing, and costs each command a resolution). A `..`
/// may climb out of a link, so only a name without one is compared.
pub(crate) fn workdir<'a>(call: &'a ToolCall, home: Option<&str>) -> Option<&'a str> {
    let workdir = call.workdir.as_deref()?;
    let plain = !workdir.contains('$') && !workdir.split('/').any(|part| part == "..");
    let stays = plain
        && call
            .session_dir(home)
            .is_some_and(|dir| crate::path::absolute(workdir, Some(&dir), home) == dir);
    (!stays).then_some(workdir)
}

/// Where `moved` (a `cd`'s directory, or a tool's `workdir`) leads from
/// the call's directory, absolute; `None` where warden cannot follow.
fn moved_dir(moved: &str, around: &Around<'_>, links: Option<&dyn Links>) -> Option<String> {
    let from = base(around.dir.as_deref(), around.home, around);
    known(resolve::resolve(moved, from, links))
}

/// The files a file tool names, resolved where it runs: the call's
/// directory, or its `workdir` from there as after a `cd`.
fn tool_files(call: &ToolCall, around: &Around<'_>, links: Option<&dyn Links>) -> Vec<Touched> {
    let workdir = workdir(call, around.home);
    let dir = match workdir {
        None => around.dir.clone(),
        Some(workdir) => moved_dir(workdir, around, links),
    };
    let from = base(dir.as_deref(), around.home, around);
    call.files
        .iter()
        .map(|file| {
            let mut resolution = resolve::resolve(&file.path, from, links);
            if workdir.is_some() && dir.is_none() {
                cannot_follow(&file.path, &mut resolution);
            }
            Touched {
                subject: tool_subject(&call.tool, &file.path).into(),
                literal: file.path.clone(),
                resolution,
                write: file.write,
                how: None,
                segment: None,
            }
        })
        .collect()
}

/// A relative path whose directory warden could not follow is unresolved,
/// whatever its text resolved to on its own.
fn cannot_follow(literal: &str, resolution: &mut Resolution) {
    if !literal.starts_with(['/', '~']) && resolution.problem.is_none() {
        resolution.problem = Some("an earlier `cd` went where warden cannot follow".into());
    }
}

/// Every file `call` touches, resolved against its working directory.
pub(crate) fn touched(
    call: &ToolCall,
    analysis: Option<&Analysis>,
    around: &Around<'_>,
    links: Option<&dyn Links>,
    line: &reach::LineLinks,
) -> Vec<Touched> {
    // A file tool's analysis is of code it writes for later (see
    // `shell::convention`): the tool touches only the files it names.
    let Some(analysis) = analysis.filter(|_| call.command().is_some()) else {
        return tool_files(call, around, links);
    };
    let mut out = Vec::new();
    for (i, cmd) in analysis.commands.iter().enumerate() {
        // A script read from disk says what the command may write of its
        // arguments better than not knowing it did.
        let (written, writes_arguments) =
            match links.and_then(|disk| script_writes(cmd, analysis, around, disk)) {
                Some((written, writes)) => (written, writes),
                None => (Vec::new(), cmd.writes_arguments),
            };
        let mut uses = command_uses(cmd, writes_arguments);
        for path in written {
            if !uses.iter().any(|u| u.path == path.as_str()) {
                uses.push(unknown_use(path.into()));
            }
        }
        uses.extend(patched(cmd, analysis, around, links));
        if uses.is_empty() {
            continue;
        }
        // What the line makes lies over the disk: as it is before this
        // command, and as a loop running it again may find it.
        let mut views = line.views(i, links).peekable();
        if views.peek().is_none() {
            resolve_uses(cmd, i, uses, around, links, None, &mut out);
            continue;
        }
        let first = out.len();
        for view in views {
            let mut found = Vec::new();
            resolve_uses(
                cmd,
                i,
                uses.clone(),
                around,
                Some(&view),
                Some(&view),
                &mut found,
            );
            for t in found {
                let seen = out[first..]
                    .iter()
                    .any(|o| o.literal == t.literal && o.resolution == t.resolution);
                if !seen {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// The files one command touches, resolved through `links`; through a
/// line's `view`, a directory or home the call does not give is stood in for.
fn resolve_uses(
    cmd: &Command,
    i: usize,
    uses: Vec<access::FileUse<'_>>,
    around: &Around<'_>,
    links: Option<&dyn Links>,
    view: Option<&resolve::Overlay<'_>>,
    out: &mut Vec<Touched>,
) {
    let (dir, home) = match view {
        Some(view) => {
            let place = reach::Place::of(cmd, around, view);
            (place.dir, Some(place.home))
        }
        None => (command_dir(cmd, around, links), around.home),
    };
    let unknown_dir = cmd.cwd.is_some() && dir.is_none();
    // Deleting, moving or linking over a symlink acts on the link, not on
    // what it points to (a link to a directory is entered: see `inside`).
    let last = |how| match how {
        How::Delete => crate::rules::links::last_named(cmd).unwrap_or(Last::Follow),
        How::Copy if matches!(cmd.program.as_str(), "ln" | "mv") => Last::Keep,
        _ => Last::Follow,
    };
    let subject: Rc<str> = cmd.display().into();
    // A `cd` warden cannot follow to a place is still a place in words
    // (`cd ~ && tar -xf x.tar` unpacks in `~`, whatever the home is).
    let named_dir = if unknown_dir {
        cmd.cwd.as_deref()
    } else {
        None
    };
    for file in uses {
        let from = base(dir.as_deref().or(named_dir), home, around);
        let mut literal = file.path;
        let last = last(file.how);
        let mut resolution = resolve::resolve_as(&literal, from, links, last);
        // `cp a.txt build` where `build` is a directory (or a link to one)
        // writes `build/a.txt`.
        if let (Some(name), Some(links)) = (file.inside, links) {
            let entered = match last {
                Last::Follow => Some(resolution.path.clone()),
                Last::Keep => known(resolve::resolve(&literal, from, Some(links))),
            };
            if resolution.problem.is_none() && entered.is_some_and(|dir| links.is_dir(&dir)) {
                literal = format!("{}/{name}", literal.trim_end_matches('/')).into();
                resolution = resolve::resolve_as(&literal, from, Some(links), last);
            }
        }
        if view.is_some() {
            reach::written_back(&mut resolution);
        }
        if unknown_dir {
            cannot_follow(&literal, &mut resolution);
        }
        out.push(Touched {
            literal: literal.into_owned(),
            resolution,
            write: file.access == access::Access::Write,
            how: Some(file.how),
            subject: subject.clone(),
            segment: Some(i),
        });
    }
}

/// The directory an earlier `cd` moved `cmd` to, seen from the call's.
fn command_dir(cmd: &Command, around: &Around<'_>, links: Option<&dyn Links>) -> Option<String> {
    match cmd.cwd.as_deref() {
        None => around.dir.clone(),
        Some(dir) => moved_dir(dir, around, links),
    }
}

/// Longest script or makefile read from disk.
const MAX_SCRIPT: usize = 64 * 1024;

/// A file given to a program that may write it in a way warden cannot see.
fn unknown_use<'c>(path: Cow<'c, str>) -> access::FileUse<'c> {
    access::FileUse {
        path,
        access: access::Access::Write,
        how: How::Unknown,
        inside: None,
    }
}

/// When `cmd` runs a script or makefile on disk (one the line did not
/// write: those the analysis read already): the files it would write, and
/// whether it may write its arguments in ways warden cannot see. Both are judged as
/// files given to a program warden has no model of: a guard file, a key or
/// a credential the script writes asks; what else it does is its author's,
/// as when it was run before warden.
fn script_writes(
    cmd: &Command,
    analysis: &Analysis,
    around: &Around<'_>,
    disk: &dyn Links,
) -> Option<(Vec<String>, bool)> {
    let files = crate::shell::files_run(cmd);
    if files.is_empty() {
        return None;
    }
    let key = |p: &str| p.strip_prefix("./").unwrap_or(p).to_string();
    let dir = command_dir(cmd, around, Some(disk));
    for file in files {
        if analysis.files.iter().any(|(p, _)| key(p) == key(&file)) {
            return None;
        }
        let r = resolve::resolve(&file, base(dir.as_deref(), around.home, around), Some(disk));
        if r.problem.is_some() {
            continue;
        }
        let Some(text) = disk.read_text(&r.path, MAX_SCRIPT) else {
            continue;
        };
        let (ran, writes_arguments) = crate::shell::run_file(cmd, &file, &text);
        let written = ran
            .commands
            .iter()
            .flat_map(access::file_uses)
            .filter(|u| u.access == access::Access::Write)
            .map(|u| u.path.into_owned())
            .collect();
        // make reads the first makefile it finds; a script is one file.
        return Some((written, writes_arguments));
    }
    None
}

/// The files a patch applied by `cmd` (`patch`, `git apply`, `git am`)
/// names, read from its text: given on the line, written earlier on it, or
/// in a file on disk. A patch warden cannot read puts files it cannot see
/// into the directory it is applied in.
fn patched<'c>(
    cmd: &'c Command,
    analysis: &Analysis,
    around: &Around<'_>,
    links: Option<&dyn Links>,
) -> Vec<access::FileUse<'c>> {
    let Some(input) = access::patch_input(cmd) else {
        return Vec::new();
    };
    let mut texts: Vec<Cow<'_, str>> = input.text.map(Cow::Borrowed).into_iter().collect();
    let mut unread = input.text.is_none() && input.files.is_empty();
    for file in &input.files {
        let written = analysis
            .files
            .iter()
            .rev()
            .find(|(path, _)| path == file)
            .map(|(_, text)| Cow::Borrowed(text.as_str()));
        let on_disk = || {
            let dir = command_dir(cmd, around, links);
            let r = resolve::resolve(file, base(dir.as_deref(), around.home, around), links);
            r.problem
                .is_none()
                .then(|| around.links?.read_text(&r.path, resolve::MAX_READ as usize))
                .flatten()
                .map(Cow::Owned)
        };
        match written.or_else(on_disk) {
            Some(text) => texts.push(text),
            None => unread = true,
        }
    }
    let file_use = |path: String, how| access::FileUse {
        path: path.into(),
        access: access::Access::Write,
        how,
        inside: None,
    };
    let mut uses: Vec<access::FileUse<'c>> = texts
        .iter()
        .flat_map(|text| access::patch_targets(&input, text))
        .map(|(path, how)| file_use(path, how))
        .collect();
    if unread {
        uses.push(file_use(
            access::patch_dir(&input).to_string(),
            How::Produce,
        ));
    }
    uses
}

/// Gives each command whose directory lies outside the project its
/// directory, so the rules that judge targets see where `rm -rf etc usr` in
/// `/` points: absolute, or from `~` inside the home. A command in the
/// project is seen from the call's directory, however its `cd` (or the
/// tool's `workdir`) named the place (`/abs/project/src`, `~/project/src`),
/// where a relative path is the project's own.
pub(crate) fn place_commands(analysis: &mut Analysis, around: &Around<'_>) {
    let Some(cwd) = around.dir.as_deref() else {
        return;
    };
    let project = around.project.as_deref();
    let home = around.home;
    // The stages of a pipeline share their upstream commands: each shared
    // one is placed once, and copied only when its directory changes. The
    // old `Rc` stays in the map so that no address is reused while it is a key.
    let mut placed: HashMap<*const Command, (Rc<Command>, Rc<Command>), BuildAddressHasher> =
        HashMap::default();
    // Where a command that names no directory of its own is seen depends
    // on the call alone: worked out once. Seen where it runs (the call's
    // own directory in the project), such a stage is left as it is, with
    // no look-up for each stage of a long pipeline.
    let plain = placed_dir(None, cwd, project, home);
    for cmd in &mut analysis.commands {
        let own = match cmd.cwd {
            None => plain.clone(),
            Some(_) => placed_dir(cmd.cwd.as_deref(), cwd, project, home),
        };
        if let Some(dir) = own {
            cmd.cwd = dir;
        }
        for up in &mut cmd.upstream {
            if up.cwd.is_none() && plain.is_none() {
                continue;
            }
            let (_, new) = placed.entry(Rc::as_ptr(up)).or_insert_with(|| {
                let new = match placed_dir(up.cwd.as_deref(), cwd, project, home) {
                    Some(dir) => Rc::new(Command {
                        cwd: dir,
                        ..Command::clone(up)
                    }),
                    None => Rc::clone(up),
                };
                (Rc::clone(up), new)
            });
            *up = Rc::clone(new);
        }
    }
}

/// The directory a command whose own is `own` (as the analysis gives it)
/// is to be seen in, when that is not `own` already: `Some(None)` is the
/// call's own.
fn placed_dir(
    own: Option<&str>,
    cwd: &str,
    project: Option<&str>,
    home: Option<&str>,
) -> Option<Option<String>> {
    // Most commands run where the call does, inside the project: no copy
    // of the directory is made to find that out.
    let dir: Cow<'_, str> = match own {
        None => Cow::Borrowed(cwd),
        // Variables and other users' homes are judged as written; the
        // rules know them.
        Some(d) if d.contains('$') => return None,
        Some(d) if d == "~" || d.starts_with("~/") => {
            Cow::Owned(crate::path::absolute(d, None, Some(home?)))
        }
        Some(d) if d.starts_with('~') => return None,
        Some(d) => Cow::Owned(crate::path::absolute(d, Some(cwd), None)),
    };
    if project.is_some_and(|p| path_rules::strip_dir(&dir, p).is_some()) {
        let seen = match path_rules::strip_dir(&dir, cwd)? {
            "" => None,
            rel => Some(rel),
        };
        return (seen != own).then(|| seen.map(str::to_string));
    }
    // The rules know a home by `~` (or `/home/NAME`): `rm -rf *` run at a
    // home in `/srv/u` or `/tmp/x/home` is `rm -rf ~/*`, as after `cd ~`.
    let seen = match home.and_then(|h| path_rules::strip_dir(&dir, h)) {
        Some("") => "~".to_string(),
        Some(rel) => format!("~/{rel}"),
        None => dir.into_owned(),
    };
    (own != Some(seen.as_str())).then_some(Some(seen))
}

/// Hashes the addresses `place_commands` keys its map by. std's default
/// hasher resists keys chosen to collide, which addresses of warden's own
/// commands cannot be, and cost a tenth of judging a long pipeline.
type BuildAddressHasher = BuildHasherDefault<AddressHasher>;

#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        // The low bits pick the bucket: fold the well-mixed high half of
        // the product into them (aligned addresses end in zeros).
        let h = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 32);
    }
}

/// The project a call works in: the one the caller found, else the call's
/// own directory, each only when it can be a project.
pub(crate) fn project(
    found: Option<&str>,
    dir: Option<&str>,
    home: Option<&str>,
) -> Option<String> {
    if let Some(found) = found.filter(|f| can_be_project(f, home)) {
        return Some(found.to_string());
    }
    let dir = dir?;
    thread_local! {
        static LAST: Remembered = const { RefCell::new(None) };
    }
    remembered(&LAST, dir, home, || {
        can_be_project(dir, home).then(|| dir.to_string())
    })
}

/// Whether `dir` (absolute and folded, as a working directory and a
/// repository root found on disk are) can be a project: an ordinary directory, or a
/// temporary one (a scratch workspace). `/`, a system directory, a whole
/// home or a directory holding the home never is, however it was found (a
/// dotfiles repository in `~`, etckeeper's `/etc/.git`, `CLAUDE_PROJECT_DIR`
/// at `~`): every write in it would count as the project's, and every
/// deletion in it as tidying the project.
pub(crate) fn can_be_project(dir: &str, home: Option<&str>) -> bool {
    use crate::rules::targets::{classify, is_temp_dir, Target};
    // Asked of every call: the paths are compared as they come, not copied.
    let holds_home = home.is_some_and(|h| path_rules::strip_dir(h, dir).is_some());
    !holds_home
        && (is_temp_dir(dir) || matches!(classify(dir, None), Target::Outside | Target::Temp))
}

/// The files as the user's rules see them: each form of each path (a
/// rule that names either the link or its target matches).
pub(crate) fn subjects(touched: &[Touched]) -> Vec<FileSubject> {
    touched
        .iter()
        .flat_map(|t| {
            t.resolution.forms().map(|path| FileSubject {
                path: path.to_string(),
                write: t.write,
                segment: t.segment,
            })
        })
        .collect()
}

/// What one command reads and writes, as the path rules judge it.
/// Programs that edit the files they are given.
const EDITORS: &[&str] = &[
    "ed", "red", "ex", "vi", "vim", "nvim", "view", "nano", "pico", "emacs", "joe", "jed",
    "mcedit", "micro", "kak", "hx", "helix", "ne",
];

fn command_uses(cmd: &Command, writes_arguments: bool) -> Vec<access::FileUse<'_>> {
    let mut uses = access::file_uses(cmd);
    // `cp .env.example .env` is the first step of every project that ships
    // an env template: the file made holds nothing but the template.
    if matches!(cmd.program.as_str(), "cp" | "install") {
        let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        let reads: Vec<String> = uses
            .iter()
            .filter(|u| u.access == access::Access::Read)
            .map(|u| name(&u.path))
            .collect();
        if !reads.is_empty() && reads.iter().all(|r| path_rules::is_env_template(r)) {
            uses.retain(|u| u.access == access::Access::Read || !name(&u.path).starts_with(".env"));
        }
    }
    // Reads that never show the content to the agent (copies, `source`,
    // checksums) are not a secret read; where the copy lands is judged.
    // Asked of every command: one probe each instead of scanning the lists.
    static QUIET: NameSet = names::name_set!(QUIET_READERS);
    static EDITING: NameSet = names::name_set!(EDITORS);
    if QUIET.contains(cmd.program.as_str()) {
        uses.retain(|u| u.access == access::Access::Write);
    }
    // An editor writes the files it opens (`ed FILE <<EOF`, `vim -c wq FILE`),
    // and a program warden has no model of may write any file it is given.
    let editor = EDITING.contains(cmd.program.as_str());
    // An unpacking's directories do not tell what else it is given.
    let only_produced = uses.iter().all(|u| u.how == How::Produce);
    if only_produced && (editor || crate::rules::hidden_paths_searched(cmd)) {
        for path in crate::rules::path_arguments(cmd) {
            uses.push(unknown_use(path.into()));
        }
    }
    // Interpreter code that writes a path it computes at run time, or a
    // script warden cannot read, may write any file it is given.
    if writes_arguments {
        for path in crate::shell::argument_files(cmd) {
            if !uses.iter().any(|u| u.path == path.as_str()) {
                uses.push(unknown_use(path.into()));
            }
        }
    }
    // Codex's `apply_patch` run as a command carries its patch along.
    if crate::patch::is_apply_patch_program(&cmd.program) {
        let text = cmd
            .stdin
            .as_deref()
            .or(cmd.args.first().map(String::as_str));
        for file in text.map(crate::patch::files).unwrap_or_default() {
            uses.push(access::FileUse {
                path: file.path.into(),
                access: access::Access::Write,
                how: How::Patch,
                inside: None,
            });
        }
    }
    uses
}

/// The path a resolution reached, when it is whole.
fn known(r: Resolution) -> Option<String> {
    r.problem.is_none().then_some(r.path)
}

fn tool_subject(tool: &str, path: &str) -> String {
    format!("{tool} {path}")
}

/// Whether `t` is a host's keys appended to a `known_hosts` file by
/// `ssh-keyscan HOST >> FILE` or `ssh-keyscan HOST | tee -a FILE`: how a
/// forge's keys are added before a first clone. Appending trusts only the
/// hosts named, as ssh's own `accept-new` does; overwriting the file, or
/// keys written by anything else, stays with `files.ssh-known-hosts`.
pub(crate) fn appends_scanned_keys(t: &Touched, analysis: Option<&Analysis>) -> bool {
    use crate::shell::RedirectOp;
    let named = t
        .literal
        .rsplit('/')
        .next()
        .is_some_and(|n| n.starts_with("known_hosts"));
    let Some(cmd) = t.segment.and_then(|i| analysis?.commands.get(i)) else {
        return false;
    };
    let scans = |c: &Command| {
        c.program == "ssh-keyscan"
            && !c.operands().is_empty()
            && c.operands().iter().all(|h| !h.contains(['$', '`', '/']))
    };
    let appended = match t.how {
        Some(access::How::Redirect) => {
            scans(cmd)
                && cmd
                    .redirects
                    .iter()
                    .any(|r| r.target == t.literal && r.op == RedirectOp::Append)
                && !cmd
                    .redirects
                    .iter()
                    .any(|r| r.target == t.literal && r.op == RedirectOp::Write)
        }
        Some(access::How::Tee) => {
            cmd.program == "tee"
                && cmd.args.iter().any(|a| a == "-a" || a == "--append")
                && cmd.upstream.iter().any(|u| scans(u))
        }
        _ => false,
    };
    named && t.write && appended
}

/// The first file whose path rule decides `decision`, and that rule. Both
/// the resolved and the literal form are judged: the more cautious wins.
pub(crate) fn first_hit<'t>(
    touched: impl IntoIterator<Item = &'t Touched>,
    around: &Around<'_>,
    decision: Decision,
    exempt: &[String],
) -> Option<(&'t Touched, &'static PathRule)> {
    touched.into_iter().find_map(|t| {
        t.resolution.forms().find_map(|path| {
            let place = Place::new(path, around).by(t.how);
            let rule = path_rules::first_match(&place, t.how, t.write, decision)?;
            let exempted = t
                .how
                .and_then(|how| access::hermes_category(how, family(rule)?))
                .is_some_and(|category| exempt.iter().any(|e| e == category));
            (!exempted).then_some((t, rule))
        })
    })
}

/// Which of Hermes' categories a shell write under `rule` falls in, so a
/// `command_allowlist` entry that names one still approves it.
fn family(rule: &PathRule) -> Option<access::Family> {
    use access::Family;
    Some(match rule.id {
        "files.system-config" => Family::System,
        "files.project-env" => Family::ProjectEnv,
        "files.hermes-config" => Family::HermesConfig,
        "files.shell-startup" | "files.autostart" => Family::Sensitive,
        _ => return None,
    })
}

/// The verdict a path rule gives.
pub(crate) fn verdict(touched: &Touched, rule: &'static PathRule, layer: Layer) -> Verdict {
    let decision = rule
        .decides(touched.how, touched.write)
        .unwrap_or(Decision::Ask);
    let r = &touched.resolution;
    Verdict::new(
        decision,
        layer,
        Some(rule.id.to_string()),
        touched.subject.to_string(),
        Reason::Path {
            category: rule.category,
            why: rule.reason,
            access: match (touched.write, touched.how) {
                (true, Some(How::Unknown)) => {
                    "may write (a program warden has no model of is given it)"
                }
                (true, Some(How::Link)) => "gives a second name (a hard link) to",
                (true, Some(How::Delete)) => "removes",
                (true, Some(How::Chmod)) => "changes the permissions of",
                (true, Some(How::Touch)) => "creates",
                (true, Some(How::Produce)) => "puts files warden cannot see into",
                (true, _) => "writes",
                (false, _) => "reads",
            },
            path: r.path.clone(),
            unresolved: r.problem.clone(),
        },
    )
    .with_safer(crate::rules::safer(rule.id).map(std::borrow::Cow::Borrowed))
}

#[cfg(test)]
mod tests;
