//! What git puts on disk beyond the files its words name: a clone, a worktree or a submodule checked out, files moved (`git mv`), and paths restored from another commit.

use std::borrow::Cow;

use super::{landings, How, Uses};
use crate::rules::git::{git, GLOBAL};
use crate::rules::opts::{parse_opts, Opts, Spec, GNU};
use crate::shell::Command;

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
    let at = run_in(g.global);
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
        "worktree" if g.args.first().map(String::as_str) == Some("add") => {
            let o = parse_opts(&g.args[1..], &WORKTREE_ADD);
            if let Some(path) = o.operands.first() {
                u.add(at(path), How::Produce);
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

/// Where a path named to the subcommand is, from git's global options:
/// `git -C DIR` runs the subcommand in DIR (each later `-C` inside the one
/// before), so a relative path is joined onto them.
fn run_in<'c>(global: &[String]) -> impl Fn(&str) -> Cow<'c, str> + '_ {
    let globals = parse_opts(global, &GLOBAL);
    let dirs: Vec<&str> = globals
        .values
        .iter()
        .filter(|(c, _)| *c == 'C')
        .map(|(_, v)| *v)
        .collect();
    move |path: &str| -> Cow<'c, str> {
        let mut joined = path.to_string();
        for dir in dirs.iter().rev() {
            if joined.starts_with(['/', '~', '$']) {
                break;
            }
            joined = format!("{}/{joined}", dir.trim_end_matches('/'));
        }
        Cow::Owned(joined)
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
