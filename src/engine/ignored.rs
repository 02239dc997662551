//! Whether a delete inside the project removes only what git ignores, asked of the repository's own ignore files (`.gitignore`, `.git/info/exclude`, the global excludes file) read through the [`Links`] the caller passes.
//!
//! Read only when `fs.recursive-delete-in-project`, `fs.find-delete` or
//! `fs.find-exec-rm` is about to ask, so every other call costs nothing.
//! The answer is git's: a path is ignored when a pattern ignores it or one
//! of its directories (a directory pattern, `build/`, only a directory),
//! the deepest file deciding and a negation (`!keep`) re-including, except
//! under an ignored directory, as in git. Whatever this cannot show is not
//! ignored, and the rule asks: a path with `..`, a variable or `~`, one
//! reached through a symlink or a bind mount, one outside the repository
//! or naming `.git`, a glob above the last component. Git's index is not
//! read: a file force-added (`git add -f`) under an ignored directory is
//! taken as ignored, as `git status --ignored` would list the directory.

use std::cell::RefCell;
use std::collections::HashMap;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use crate::resolve::{Links, Probe};
use crate::rules::files::Around;
use crate::rules::fs::{deleted_in_project, Deleted};
use crate::rules::Rule;
use crate::shell::Command;

/// Largest ignore file read: a `.gitignore` is a page of patterns.
const MAX_IGNORE_FILE: usize = 256 * 1024;
/// Most directories climbed looking for the repository.
const MAX_CLIMB: usize = 64;
/// What a `*` of a `-name` glob stands for, as two names: none at all,
/// and characters no pattern names. A pattern ignoring both ignores every
/// name the glob matches, once no negation could re-include one.
const STAR_SAMPLES: [&str; 2] = ["", "\u{1}\u{2}\u{3}\u{4}"];
/// A directory under a `find` root that no pattern names, for a name
/// found at any depth.
const DEEPER: &str = "\u{1}d";

/// Whether `rule`, which matched `cmd`, asked only about deleting what
/// the repository around the command ignores.
pub(super) fn excused(rule: &Rule, cmd: &Command, around: &Around<'_>) -> bool {
    let Some(deleted) = deleted_in_project(rule, cmd) else {
        return false;
    };
    let (Some(links), Some(call_dir)) = (around.links, around.dir.as_deref()) else {
        return false;
    };
    let dir = match cmd.cwd.as_deref() {
        Some(cwd) if !plain(cwd) => return false,
        Some(cwd) => crate::path::absolute(cwd, Some(call_dir), around.home),
        None => call_dir.to_string(),
    };
    let Some(repo) = Repo::around(&dir, links, around.home) else {
        return false;
    };
    match deleted {
        Deleted::Trees(paths) => paths.iter().all(|p| repo.tree_ignored(&dir, p)),
        Deleted::Found { roots, names, dirs } => {
            let found = roots
                .iter()
                .all(|r| names.iter().all(|n| repo.found_ignored(&dir, r, n, dirs)));
            // A negation could re-include a name the samples do not show.
            found && repo.no_negations()
        }
    }
}

/// Whether `path` is written plainly: no variable, substitution, home or
/// `..` that could lead elsewhere.
fn plain(path: &str) -> bool {
    !path.is_empty()
        && !path.contains(['$', '`', '~', '\\'])
        && !path.split('/').any(|part| part == ".." || part == ".git")
}

/// A glob character in a component.
fn is_glob(part: &str) -> bool {
    part.contains(['*', '?', '['])
}

/// The repository a directory is in, and its ignore files as they are read.
struct Repo<'l> {
    root: String,
    links: &'l dyn Links,
    /// Each directory's `.gitignore`, by its path relative to the root
    /// (`""`: the root's); `None` where there is none.
    files: RefCell<HashMap<String, Option<Gitignore>>>,
    /// `.git/info/exclude`, then the global excludes file.
    outer: Vec<Gitignore>,
}

impl<'l> Repo<'l> {
    /// The repository whose work tree holds `dir`: the nearest directory
    /// with a `.git`, if it can be a project (not `/`, a system directory
    /// or a home).
    fn around(dir: &str, links: &'l dyn Links, home: Option<&str>) -> Option<Repo<'l>> {
        let mut at = dir.trim_end_matches('/').to_string();
        for _ in 0..MAX_CLIMB {
            if matches!(links.probe(&format!("{at}/.git")), Probe::Present) {
                if !super::files::can_be_project(&at, home) {
                    return None;
                }
                return Some(Repo::at(at, links, home));
            }
            let cut = at.rfind('/')?;
            if cut == 0 {
                return None;
            }
            at.truncate(cut);
        }
        None
    }

    fn at(root: String, links: &'l dyn Links, home: Option<&str>) -> Repo<'l> {
        let mut outer = Vec::new();
        let exclude = format!("{root}/.git/info/exclude");
        outer.extend(read_ignore(links, &root, &exclude));
        if let Some(home) = home {
            outer.extend(global_excludes(links, home).and_then(|p| read_ignore(links, &root, &p)));
        }
        Repo {
            root,
            links,
            files: RefCell::new(HashMap::new()),
            outer,
        }
    }

    /// `path` (as `rm` is given it, from `dir`) relative to the root, when
    /// it is plainly inside the repository and not the root itself.
    fn relative(&self, dir: &str, path: &str) -> Option<String> {
        if !plain(path) {
            return None;
        }
        let absolute = crate::path::absolute(path.trim_end_matches('/'), Some(dir), None);
        let rest = absolute.strip_prefix(&self.root)?.strip_prefix('/')?;
        (!rest.is_empty()).then(|| rest.to_string())
    }

    /// Whether deleting the tree `path` removes only what git ignores.
    fn tree_ignored(&self, dir: &str, path: &str) -> bool {
        let Some(rel) = self.relative(dir, path) else {
            return false;
        };
        let parts: Vec<&str> = rel.split('/').collect();
        // Only the last component may be a glob, and then every name it
        // matches must be ignored, as for `find -name`.
        if parts[..parts.len() - 1].iter().any(|p| is_glob(p)) {
            return false;
        }
        let last = parts[parts.len() - 1];
        if is_glob(last) {
            let parent = parts[..parts.len() - 1].join("/");
            if !self.no_links(&parent) {
                return false;
            }
            return self.status(&parent, true) == Status::Ignored
                || (self.no_negations() && self.name_ignored(&parent, last, false));
        }
        self.no_links(&rel) && {
            let is_dir = self.links.is_dir(&format!("{}/{rel}", self.root));
            self.status(&rel, is_dir) == Status::Ignored
        }
    }

    /// Whether every file (or directory, `dirs`) named like the glob `name`
    /// under the `find` root `root` is ignored.
    fn found_ignored(&self, dir: &str, root: &str, name: &str, dirs: bool) -> bool {
        if !plain(root) {
            return false;
        }
        let absolute = crate::path::absolute(root.trim_end_matches('/'), Some(dir), None);
        let rel = match absolute.strip_prefix(&self.root) {
            Some("") => "",
            Some(rest) => match rest.strip_prefix('/') {
                Some(rest) => rest,
                None => return false,
            },
            None => return false,
        };
        self.no_links(rel)
            && (self.status(rel, true) == Status::Ignored || self.name_ignored(rel, name, dirs))
    }

    /// Whether `name` (a glob of one component) is ignored in `parent` and
    /// in a directory below it, for each sample of its wildcards.
    fn name_ignored(&self, parent: &str, name: &str, dirs: bool) -> bool {
        if name.contains(['[', '/', '\\']) || name.is_empty() {
            return false;
        }
        STAR_SAMPLES.iter().all(|star| {
            let sample = name.replace('*', star).replace('?', "\u{1}");
            !sample.is_empty()
                && [parent.to_string(), join(parent, DEEPER)]
                    .iter()
                    .all(|at| self.status(&join(at, &sample), dirs) == Status::Ignored)
        })
    }

    /// Whether no component of `rel` below the root is a symlink or a mount
    /// point, as far as the file system says.
    fn no_links(&self, rel: &str) -> bool {
        let mut at = self.root.clone();
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            at.push('/');
            at.push_str(part);
            match self.links.probe(&at) {
                Probe::Present => {}
                // Nothing more of it exists: nothing further is reached.
                Probe::Missing => return true,
                Probe::Link(_) | Probe::Mount(_) | Probe::Denied(_) => return false,
            }
        }
        true
    }

    /// What git says of `rel` (relative to the root): ignored when it, or
    /// a directory above it, is; a directory's own answer first.
    fn status(&self, rel: &str, is_dir: bool) -> Status {
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        for end in 1..=parts.len() {
            let dir = end < parts.len() || is_dir;
            if self.matched(&parts[..end], dir) == Status::Ignored {
                return Status::Ignored;
            }
        }
        Status::NotIgnored
    }

    /// The decision of the ignore files for `parts`, deepest first.
    fn matched(&self, parts: &[&str], is_dir: bool) -> Status {
        for depth in (0..parts.len()).rev() {
            let base = parts[..depth].join("/");
            let below = parts[depth..].join("/");
            let answer = self.with_file(&base, |gi| from_match(gi.matched(&below, is_dir)));
            if let Some(status) = answer.flatten() {
                return status;
            }
        }
        let whole = parts.join("/");
        self.outer
            .iter()
            .find_map(|gi| from_match(gi.matched(&whole, is_dir)))
            .unwrap_or(Status::NotIgnored)
    }

    /// `f` of the `.gitignore` in `base` (relative to the root), read once.
    fn with_file<T>(&self, base: &str, f: impl FnOnce(&Gitignore) -> T) -> Option<T> {
        let mut files = self.files.borrow_mut();
        let gi = files.entry(base.to_string()).or_insert_with(|| {
            let dir = join(&self.root, base);
            read_ignore(self.links, &dir, &format!("{dir}/.gitignore"))
        });
        gi.as_ref().map(f)
    }

    /// Whether no ignore file read so far re-includes anything.
    fn no_negations(&self) -> bool {
        let files = self.files.borrow();
        files
            .values()
            .flatten()
            .chain(&self.outer)
            .all(|gi| gi.num_whitelists() == 0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Ignored,
    NotIgnored,
}

fn from_match<T>(m: Match<T>) -> Option<Status> {
    match m {
        Match::Ignore(_) => Some(Status::Ignored),
        Match::Whitelist(_) => Some(Status::NotIgnored),
        Match::None => None,
    }
}

fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{name}"),
    }
}

/// The ignore file at `path`, its patterns relative to `dir`. A line git
/// could not read as a pattern is passed over, as git does.
fn read_ignore(links: &dyn Links, dir: &str, path: &str) -> Option<Gitignore> {
    let text = links.read_text(path, MAX_IGNORE_FILE)?;
    let mut builder = GitignoreBuilder::new(dir);
    for line in text.lines() {
        let _ = builder.add_line(None, line);
    }
    builder.build().ok()
}

/// The global excludes file: `core.excludesFile` of `~/.gitconfig` or
/// `~/.config/git/config`, else `~/.config/git/ignore`.
fn global_excludes(links: &dyn Links, home: &str) -> Option<String> {
    let configs = [
        format!("{home}/.gitconfig"),
        format!("{home}/.config/git/config"),
    ];
    let named = configs.iter().find_map(|c| {
        let text = links.read_text(c, MAX_IGNORE_FILE)?;
        excludes_file(&text)
    });
    let path = named.unwrap_or_else(|| "~/.config/git/ignore".to_string());
    Some(crate::path::absolute(&path, None, Some(home)))
}

/// The `excludesFile` key of a git config's `[core]` section.
fn excludes_file(config: &str) -> Option<String> {
    let mut in_core = false;
    let mut found = None;
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            in_core = line
                .trim_start_matches('[')
                .trim_end_matches(']')
                .trim()
                .eq_ignore_ascii_case("core");
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if in_core && key.trim().eq_ignore_ascii_case("excludesfile") {
            found = Some(value.trim().trim_matches('"').to_string());
        }
    }
    found.filter(|p| p.starts_with('/') || p.starts_with("~/"))
}

#[cfg(test)]
mod tests;
