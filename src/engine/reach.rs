//! Where a line's paths lead through links: the file system each command finds, and copies of the commands that destroy what they are given, naming where their paths lead.
//!
//! A path may cross a symlink or a bind mount, on disk or made earlier on
//! the same line (`ln -s / r; rm -rf r/`), and reach another place than its
//! text names. Each command finds the disk (or, without one, plain
//! directories) under what the line made before it and what its sandbox
//! binds; the file rules resolve through that. A command that deletes,
//! moves, re-permissions, wipes, formats or unpacks into the paths it is
//! given (see [`links::acts_on`]) also gets a copy with each path written
//! where it leads, added to the line: every rule that judges targets sees
//! that place as well as the text, and the more cautious verdict wins.

use std::rc::Rc;

use crate::resolve::{self, Base, Last, Links, Made, MadeKind, Overlay, Plain, Probe, Resolution};
use crate::rules::files::{strip_dir, Around};
use crate::rules::links::{self, Kind, Making};
use crate::shell::{Analysis, Command, Through};

/// Stand-ins for a working directory and a home the call does not name:
/// the line's own links are followed from them all the same, and a path
/// still under one is written back relative, or from `~`. A control
/// character begins each, so no file system has them.
const SOME_CWD: &str = "/\u{1}cwd";
const SOME_HOME: &str = "/\u{1}home";

/// What a line made, oldest first, and where each of its commands stands.
#[derive(Debug, Default)]
pub(crate) struct LineLinks {
    made: Vec<Made>,
    /// For each command: `made[..before]` came before it, `made[before..
    /// after]` is its own, and its sandbox binds `own`. Empty when the
    /// line makes nothing.
    commands: Vec<Standing>,
}

#[derive(Debug)]
struct Standing {
    before: usize,
    after: usize,
    own: Vec<Made>,
}

impl LineLinks {
    /// What the commands of `analysis` make, each placed as it is made.
    pub(crate) fn of(analysis: &Analysis, around: &Around<'_>, disk: Option<&dyn Links>) -> Self {
        if !analysis.commands.iter().any(links::may_make) {
            return LineLinks::default();
        }
        let below = disk.unwrap_or(&Plain);
        let mut line = LineLinks {
            made: Vec::new(),
            commands: Vec::with_capacity(analysis.commands.len()),
        };
        for cmd in &analysis.commands {
            let before = line.made.len();
            let own = {
                let view = line.view(before, None, below, &[]);
                let place = Place::of(cmd, around, &view);
                links::binds(cmd)
                    .into_iter()
                    .filter_map(|m| place.made(m, &view))
                    .collect()
            };
            for making in links::makes(cmd) {
                let made = {
                    let view = line.view(line.made.len(), None, below, &[]);
                    Place::of(cmd, around, &view).made(making, &view)
                };
                line.made.extend(made);
            }
            let after = line.made.len();
            line.commands.push(Standing { before, after, own });
        }
        line
    }

    /// The disk under what the line made before `before`, and from `later` on.
    fn view<'a>(
        &'a self,
        before: usize,
        later: Option<usize>,
        below: &'a dyn Links,
        own: &'a [Made],
    ) -> Overlay<'a> {
        let later = later.map_or(&[][..], |from| &self.made[from..]);
        Overlay {
            below,
            made: [&self.made[..before], later],
            own,
        }
    }

    /// The file systems command `i` may find: with what the line made
    /// before it, and, when more is made after it, with that too (a loop
    /// may run it again: `for i in 1 2; do rm -rf r/*; ln -s / r; done`).
    /// None: the disk alone.
    pub(crate) fn views<'a>(
        &'a self,
        i: usize,
        disk: Option<&'a dyn Links>,
    ) -> impl Iterator<Item = Overlay<'a>> {
        let below = disk.unwrap_or(&Plain);
        let standing = self.commands.get(i);
        let (before, after, own) =
            standing.map_or((0, 0, &[][..]), |s| (s.before, s.after, s.own.as_slice()));
        let later = (self.made.len() > after).then(|| self.view(before, Some(after), below, own));
        let now = (before > 0 || !own.is_empty() || later.is_some())
            .then(|| self.view(before, None, below, own));
        now.into_iter().chain(later)
    }

    fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }
}

/// Where a command's paths start: its directory and the home, the call's
/// or stand-ins.
pub(crate) struct Place<'a> {
    /// Absolute; `None` when an earlier `cd` went where warden cannot follow.
    pub dir: Option<String>,
    /// The same as its words name it, no link followed.
    named_dir: Option<String>,
    pub home: &'a str,
    hermes_home: Option<&'a str>,
}

impl<'a> Place<'a> {
    /// Where `cmd` runs, its `cd`s followed through `links`.
    pub(crate) fn of(cmd: &Command, around: &Around<'a>, links: &dyn Links) -> Place<'a> {
        let home = around.home.unwrap_or(SOME_HOME);
        let call = around.dir.as_deref().unwrap_or(SOME_CWD);
        let (dir, named_dir) = match cmd.cwd.as_deref() {
            None => (Some(call.to_string()), Some(call.to_string())),
            Some(dir) => {
                let base = Base {
                    cwd: Some(call),
                    home: Some(home),
                    hermes_home: around.hermes_home,
                };
                let r = resolve::resolve(dir, base, Some(links));
                let named = (r.problem.is_none()).then(|| r.lexical.clone());
                (known(r), named)
            }
        };
        Place {
            dir,
            named_dir,
            home,
            hermes_home: around.hermes_home,
        }
    }

    pub(crate) fn base(&self) -> Base<'_> {
        Base {
            cwd: self.dir.as_deref(),
            home: Some(self.home),
            hermes_home: self.hermes_home,
        }
    }

    fn resolve(&self, path: &str, links: &dyn Links, last: Last) -> Resolution {
        resolve::resolve_as(path, self.base(), Some(links), last)
    }

    /// `path` as its words and the command's `cd`s name it, no link
    /// followed; `None` where the directory is not known.
    fn named(&self, path: &str) -> Option<String> {
        let base = Base {
            cwd: self.named_dir.as_deref(),
            ..self.base()
        };
        let r = resolve::resolve(path, base, None);
        known(r)
    }

    /// Where a link a command makes is and what it shows; `None` where
    /// warden cannot place it, or nothing is made (a plain file copied).
    fn made(&self, making: Making<'_>, links: &dyn Links) -> Option<Made> {
        let from_here = |path: &str, last| known(self.resolve(path, links, last));
        // What it shows first: most copies and moves make no link at all.
        let kind = match making.kind {
            Kind::Symlink(text) => MadeKind::Symlink(self.home_expanded(text)),
            Kind::LinkTo(path) => MadeKind::Symlink(from_here(path, Last::Keep)?),
            Kind::Same { path, hard } => {
                let source = from_here(path, Last::Keep)?;
                match links.probe(&source) {
                    Probe::Link(text) => MadeKind::Symlink(text),
                    _ if hard => MadeKind::Symlink(source),
                    _ => return None,
                }
            }
            Kind::Mount(path) => MadeKind::Mount(from_here(path, Last::Follow)?),
            Kind::Mirror(path) => MadeKind::Mirror(from_here(path, Last::Follow)?),
        };
        // A mount point is entered; a link is made at the name itself.
        let last = match kind {
            MadeKind::Mount(_) => Last::Follow,
            _ => Last::Keep,
        };
        let mut at = self.resolve(&making.at, links, last);
        if let Some(name) = making.inside {
            // A link to a directory is entered too (`ln -s x dir`).
            let entered = known(self.resolve(&making.at, links, Last::Follow));
            if entered.is_some_and(|dir| links.is_dir(&dir)) {
                let inside = format!("{}/{name}", making.at.trim_end_matches('/'));
                at = self.resolve(&inside, links, last);
            }
        }
        Some(Made {
            at: known(at)?,
            kind,
        })
    }

    /// A symlink's text as the shell hands it over: `~` is the home.
    fn home_expanded(&self, text: &str) -> String {
        match text.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                format!("{}{rest}", self.home)
            }
            _ => text.to_string(),
        }
    }
}

/// The path a resolution reached, when it is absolute and whole.
fn known(r: Resolution) -> Option<String> {
    (r.problem.is_none() && r.path.starts_with('/')).then_some(r.path)
}

/// A path under a stand-in written as the call would name it: relative to
/// the working directory, or from `~`.
fn stand_ins_written_back(path: &str) -> Option<String> {
    if let Some(rest) = strip_dir(path, SOME_CWD) {
        return Some(if rest.is_empty() {
            ".".into()
        } else {
            rest.into()
        });
    }
    strip_dir(path, SOME_HOME).map(home_relative)
}

fn home_relative(rest: &str) -> String {
    if rest.is_empty() {
        "~".into()
    } else {
        format!("~/{rest}")
    }
}

/// Both forms of a resolution made from stand-ins, written back.
pub(crate) fn written_back(r: &mut Resolution) {
    for path in [&mut r.path, &mut r.lexical] {
        if let Some(back) = stand_ins_written_back(path) {
            *path = back;
        }
    }
}

/// How the rules that judge targets name a place: inside the project
/// relative to it, inside the home from `~`, else absolute. The project and
/// the home count by their own paths and by where those lead.
struct Namer {
    projects: Vec<String>,
    homes: Vec<String>,
}

impl Namer {
    fn new(around: &Around<'_>, disk: Option<&dyn Links>) -> Namer {
        let both = |dir: Option<&str>| -> Vec<String> {
            let Some(dir) = dir else {
                return Vec::new();
            };
            let resolved = resolve::resolve(dir, Base::default(), disk).path;
            let mut dirs = vec![dir.to_string()];
            if resolved != dir {
                dirs.push(resolved);
            }
            dirs
        };
        let mut homes = both(around.home);
        homes.push(SOME_HOME.into());
        let mut projects = both(around.project.as_deref());
        projects.push(SOME_CWD.into());
        Namer { projects, homes }
    }

    /// The name of `path`, which an operand `written` leads to: a trailing
    /// `/` stays, as it keeps `/tmp/` from being what is in it.
    fn name(&self, path: &str, written: &str) -> String {
        let mut name = if let Some(rest) = self.projects.iter().find_map(|p| strip_dir(path, p)) {
            if rest.is_empty() {
                ".".into()
            } else {
                rest.into()
            }
        } else {
            match self.homes.iter().find_map(|h| strip_dir(path, h)) {
                Some(rest) => home_relative(rest),
                None => path.to_string(),
            }
        };
        if written.ends_with('/') && !name.ends_with('/') {
            name.push('/');
        }
        name
    }
}

/// Adds, after the line's commands, a copy of each command that destroys
/// what it is given whose paths lead elsewhere through a link, with every
/// such path written where it leads (`rm -rf r/` where `r` links to `/` is
/// also judged as `rm -rf //`).
pub(crate) fn add_copies(
    analysis: &mut Analysis,
    around: &Around<'_>,
    disk: Option<&dyn Links>,
    line: &LineLinks,
) {
    if disk.is_none() && line.is_empty() {
        return;
    }
    let mut namer: Option<Namer> = None;
    let mut copies = Vec::new();
    for (i, cmd) in analysis.commands.iter().enumerate() {
        let Some((acted, last)) = links::acts_on(cmd) else {
            continue;
        };
        let views: Vec<Overlay<'_>> = line.views(i, disk).collect();
        let seen: Vec<&dyn Links> = match (views.is_empty(), disk) {
            (false, _) => views.iter().map(|v| v as &dyn Links).collect(),
            (true, Some(disk)) => vec![disk],
            (true, None) => continue,
        };
        for links in seen {
            copies.extend(copy_through(
                cmd, &acted, last, around, links, disk, &mut namer,
            ));
        }
    }
    copies.dedup();
    analysis.commands.extend(copies);
}

/// A copy of `cmd` with the paths it acts on (`acted`) written where they
/// lead through `links`, when one leads elsewhere than its text names.
fn copy_through(
    cmd: &Command,
    acted: &[links::Acted],
    last: Last,
    around: &Around<'_>,
    links: &dyn Links,
    disk: Option<&dyn Links>,
    namer: &mut Option<Namer>,
) -> Option<Command> {
    let place = Place::of(cmd, around, links);
    let resolved: Vec<(usize, usize, &str, Resolution)> = acted
        .iter()
        .map(|a| {
            let written = &cmd.args[a.index][a.prefix..];
            let r = place.resolve(written, links, last);
            (a.index, a.prefix, written, r)
        })
        .filter(|(.., r)| r.problem.is_none() && r.path.starts_with('/'))
        .collect();
    // Most commands cross no link at all: nothing to name.
    let crossed = place.dir != place.named_dir || resolved.iter().any(|(.., r)| r.followed_link);
    if !crossed {
        return None;
    }
    let namer = namer.get_or_insert_with(|| Namer::new(around, disk));
    let mut named = Vec::with_capacity(resolved.len());
    let mut leads = Vec::new();
    for (index, prefix, written, r) in resolved {
        let there = namer.name(&r.path, written);
        // A link crossed in the path or in the `cd`s before it.
        let here = place.named(written).map(|p| namer.name(&p, written));
        if here.is_some_and(|here| here != there) {
            leads.push((written.to_string(), there.clone()));
        }
        named.push((index, prefix, there));
    }
    if leads.is_empty() {
        return None;
    }
    let mut args = cmd.args.clone();
    for (index, prefix, there) in named {
        args[index] = format!("{}{there}", &cmd.args[index][..prefix]);
    }
    Some(Command {
        args,
        cwd: None,
        upstream: cmd.upstream.clone(),
        through: Some(Rc::new(Through {
            written: cmd.display(),
            leads,
        })),
        ..cmd.stage_copy()
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use super::*;
    use crate::engine::{evaluate, Options};
    use crate::payload::ToolCall;
    use crate::verdict::Decision;

    /// A disk of absolute paths: a link's target, `"dir"` for a directory,
    /// `""` for a file.
    #[derive(Debug)]
    struct Disk(HashMap<&'static str, &'static str>);

    impl Links for Disk {
        fn probe(&self, path: &str) -> Probe {
            match self.0.get(path) {
                Some(&("" | "dir")) => Probe::Present,
                Some(target) => Probe::Link(target.to_string()),
                None => Probe::Missing,
            }
        }

        fn is_dir(&self, path: &str) -> bool {
            self.0.get(path) == Some(&"dir")
        }
    }

    fn disk() -> Arc<dyn Links> {
        Arc::new(Disk(HashMap::from([
            ("/etc", "dir"),
            ("/etc/passwd", ""),
            ("/home", "dir"),
            ("/home/u", "dir"),
            ("/home/u/p", "dir"),
            ("/home/u/p/e", "/etc"),
            ("/home/u/p/r", "/"),
            ("/home/u/p/h", ".."),
            ("/home/u/p/out", "build/out"),
            ("/home/u/p/build", "dir"),
            ("/home/u/p/build/out", "dir"),
            ("/home/u/p/disk", "/dev/sda"),
            // A project reached through a link of its own.
            ("/home/u/proj", "/data/proj"),
            ("/data", "dir"),
            ("/data/proj", "dir"),
            ("/data/proj/src", "dir"),
        ])))
    }

    fn judged(command: &str, cwd: &str, project: &str) -> (Decision, Option<String>, String) {
        let options = Options::default()
            .with_home("/home/u")
            .with_project(project)
            .with_links(disk());
        let verdict = evaluate(&ToolCall::shell(command, Some(cwd.into())), &options);
        (verdict.decision, verdict.rule_id.clone(), verdict.message())
    }

    fn decision(command: &str) -> (Decision, Option<String>) {
        let (decision, rule, _) = judged(command, "/home/u/p", "/home/u/p");
        (decision, rule)
    }

    fn blocked_by(command: &str, rule: &str) {
        assert_eq!(
            decision(command),
            (Decision::Block, Some(rule.into())),
            "{command}"
        );
    }

    #[test]
    fn deleting_through_a_link_on_disk_is_judged_where_it_leads() {
        blocked_by("rm -rf e/", "hardline.rm-system");
        blocked_by("rm -rf e/*", "hardline.rm-system");
        blocked_by("rm -rf r/etc", "hardline.rm-system");
        blocked_by("rm -rf r/*", "hardline.rm-root");
        blocked_by("rm -rf h/", "hardline.rm-home");
        blocked_by("sudo rm -r -- r/", "hardline.rm-root");
        blocked_by("find e/ -delete", "hardline.rm-system");
        blocked_by("find -H e -delete", "hardline.rm-system");
        blocked_by(
            "find -L e -name '*.conf' -exec rm -rf {} +",
            "hardline.rm-system",
        );
        blocked_by("chmod -R 777 r", "hardline.chown-root");
        blocked_by("chown -RL nobody r", "hardline.chown-root");
        blocked_by("mv e/* /tmp/", "hardline.move-system");
        blocked_by("shred disk", "hardline.wipe-device");
        blocked_by("cd r && rm -rf etc", "hardline.rm-system");
        blocked_by("cd e && rm -rf *", "hardline.rm-system");
        // The link itself is what these remove or change.
        for link_only in [
            "rm -rf e",
            "rm e",
            "find e -delete",
            "chown -R nobody r",
            "unlink r",
        ] {
            let (decision, rule) = decision(link_only);
            assert_ne!(decision, Decision::Block, "{link_only}: {rule:?}");
        }
    }

    #[test]
    fn the_message_names_the_text_and_where_it_leads() {
        let (_, _, message) = judged("rm -rf e/ h/*", "/home/u/p", "/home/u/p");
        assert_eq!(
            message,
            "Blocked: `rm -rf e/ h/*` (where `e/` leads to `/etc/` and `h/*` to `~/*`) \
             is recursive delete of system directory: it would erase part of the operating \
             system (warden rule hardline.rm-system)."
        );
    }

    #[test]
    fn links_inside_the_project_stay_the_project_s() {
        // `out` leads to `build/out`, a build output: as quiet as naming it.
        assert_eq!(decision("rm -rf out/"), (Decision::Allow, None));
        assert_eq!(decision("rm -rf build/out/"), (Decision::Allow, None));
        // A project whose own path crosses a link: its files are still its.
        let (cwd, project) = ("/home/u/proj", "/home/u/proj");
        let (decision, rule, _) = judged("rm -rf build/ && rm -rf src/x", cwd, project);
        assert_eq!(
            (decision, rule.as_deref()),
            (Decision::Ask, Some("fs.recursive-delete-in-project"))
        );
        assert_eq!(judged("rm -rf target", cwd, project).0, Decision::Allow);
    }

    #[test]
    fn links_made_on_the_line_count_from_where_they_are_made() {
        blocked_by("ln -s /etc x && rm -rf x/", "hardline.rm-system");
        blocked_by("ln -s /etc ./new/x && rm -rf new/x/*", "hardline.rm-system");
        blocked_by("cd /tmp && ln -s / r; rm -rf /tmp/r/", "hardline.rm-root");
        blocked_by("ln -sr /etc x && rm -rf x/", "hardline.rm-system");
        blocked_by("ln -s /etc a; mv a b; rm -rf b/", "hardline.rm-system");
        blocked_by(
            "ln -s /etc a && cp -P a b && rm -rf b/",
            "hardline.rm-system",
        );
        blocked_by(
            "sudo mount --bind / /mnt/x && rm -rf /mnt/x",
            "hardline.rm-root",
        );
        blocked_by(
            "ln -s /etc e2 && ln -s e2 e3 && rm -rf e3/",
            "hardline.rm-system",
        );
        blocked_by("ln -s ~ x && rm -rf x/", "hardline.rm-home");
        // A line's link replaces the one on disk from then on, not before.
        blocked_by("rm -rf e/; ln -sfn /tmp/y e", "hardline.rm-system");
        assert_ne!(decision("ln -sfn /tmp/y e && rm -rf e/").0, Decision::Block);
        // A loop runs its body again: a link made after a deletion may be
        // there the next time round, and is judged so.
        blocked_by(
            "for i in 1 2; do rm -rf r2/*; ln -sfn / r2; done",
            "hardline.rm-root",
        );
        blocked_by(
            "for i in 1 2; do echo k >> k/authorized_keys; ln -sfn ~/.ssh k; done",
            "files.ssh",
        );
        // The disk says `e` is a link to a directory: `ln -s` without `-n`
        // makes the new link inside it.
        assert_ne!(decision("ln -sf /tmp/y e && rm -rf e/").0, Decision::Allow);
    }
}
