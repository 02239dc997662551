//! The file system as one command of a line finds it: the links, bind mounts and trees of symlinks that commands before it made, laid over the disk.
//!
//! A line can make the link it then deletes through (`ln -s / r; rm -rf
//! r/`), so what is on disk is not all a path crosses. Nothing here touches
//! the disk: what is not made on the line is asked of the file system below.

use super::{Links, Probe};
use crate::path::strip_dir;

/// One thing a line made at an absolute path (its directories resolved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Made {
    pub at: String,
    pub kind: MadeKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MadeKind {
    /// A symbolic link storing this text (relative: from the link's directory).
    Symlink(String),
    /// A bind mount showing this absolute path.
    Mount(String),
    /// A directory mirroring this absolute one, with a symlink for each file
    /// (`cp -rs`): its directories are real, its files lead back.
    Mirror(String),
}

/// The disk (or nothing known: [`Plain`]) with what a line made on top.
/// Later entries hide earlier ones at the same path.
#[derive(Debug)]
pub struct Overlay<'a> {
    pub below: &'a dyn Links,
    /// What the line made, oldest first: before the command, and (when a
    /// loop may run it again) after it.
    pub made: [&'a [Made]; 2],
    /// What the command's own sandbox binds (`bwrap --bind`), seen before the rest.
    pub own: &'a [Made],
}

/// A file system warden knows nothing of: every component is an ordinary
/// directory or file, so a walk through it is the lexical answer, and only
/// what a line made is followed.
#[derive(Debug)]
pub struct Plain;

impl Links for Plain {
    fn probe(&self, _path: &str) -> Probe {
        Probe::Present
    }
}

/// How `path` relates to one thing made.
enum Relation<'m> {
    Itself,
    /// Inside it, with the rest of the path.
    Inside(&'m str),
    /// One of the directories above it, which therefore exist.
    Above,
}

fn relation<'p>(path: &'p str, made: &Made) -> Option<Relation<'p>> {
    if let Some(rest) = strip_dir(path, &made.at) {
        return Some(if rest.is_empty() {
            Relation::Itself
        } else {
            Relation::Inside(rest)
        });
    }
    strip_dir(&made.at, path).map(|_| Relation::Above)
}

impl Overlay<'_> {
    /// The newest thing made that `path` is, is in or is above.
    fn nearest<'p>(&self, path: &'p str) -> Option<(&Made, Relation<'p>)> {
        self.own
            .iter()
            .chain(self.made[1].iter().rev())
            .chain(self.made[0].iter().rev())
            .find_map(|m| relation(path, m).map(|r| (m, r)))
    }
}

impl Links for Overlay<'_> {
    fn probe(&self, path: &str) -> Probe {
        let Some((made, relation)) = self.nearest(path) else {
            return self.below.probe(path);
        };
        match (&made.kind, relation) {
            (MadeKind::Symlink(target), Relation::Itself) => Probe::Link(target.clone()),
            (MadeKind::Mount(source), Relation::Itself) => Probe::Mount(source.clone()),
            (MadeKind::Mirror(_), Relation::Itself) => Probe::Present,
            (MadeKind::Mirror(source), Relation::Inside(rest)) => {
                let mirrored = format!("{}/{rest}", source.trim_end_matches('/'));
                if self.below.is_dir(&mirrored) {
                    Probe::Present
                } else {
                    // A file, or what warden cannot tell from one: a link
                    // back to it is the cautious answer.
                    Probe::Link(mirrored)
                }
            }
            // A walk follows a link or mount before going inside it.
            (_, Relation::Inside(_)) => self.below.probe(path),
            (_, Relation::Above) => match self.below.probe(path) {
                Probe::Missing | Probe::Denied(_) => Probe::Present,
                found => found,
            },
        }
    }

    fn is_dir(&self, path: &str) -> bool {
        match self.nearest(path) {
            Some((made, Relation::Inside(rest))) => match &made.kind {
                MadeKind::Mirror(source) => self
                    .below
                    .is_dir(&format!("{}/{rest}", source.trim_end_matches('/'))),
                _ => self.below.is_dir(path),
            },
            Some((made, Relation::Itself)) => match &made.kind {
                MadeKind::Mirror(_) => true,
                MadeKind::Mount(source) => self.below.is_dir(source),
                MadeKind::Symlink(_) => self.below.is_dir(path),
            },
            Some((_, Relation::Above)) => true,
            None => self.below.is_dir(path),
        }
    }
}
