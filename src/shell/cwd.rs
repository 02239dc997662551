//! Where the commands of a line run: `cd` moves them, a child process keeps its `cd` to itself, and a `cd` that may have failed leaves both places possible.
//!
//! `cd /; cd /tmp/x; rm -rf *` deletes `/` when `/tmp/x` does not exist, so
//! after a `cd` whose failure would not stop the line, the commands that
//! follow are judged in every directory the line may be in: the evaluator
//! emits them once per place. Inside an `&&` chain a `cd` is certain (the
//! rest of the chain runs only if it succeeded); when the chain ends, where
//! the line was before each of its `cd`s becomes possible again. `cd x ||
//! exit` is certain too.

use super::eval::Eval;
use super::parse::{Node, Pipeline, Then};

/// Most other directories the line is judged in: enough for the places
/// a few `cd`s may leave it, and a bound on how often a command is emitted.
const MAX_OTHER_DIRS: usize = 4;

/// Stands for the places past [`MAX_OTHER_DIRS`]: a directory the analysis
/// lost track of. Paths under it are unknown (a `$` word), so rules treat a
/// deletion there as they treat one of an unresolved variable.
pub(super) const UNTRACKED_DIR: &str = "$UNTRACKED_DIR";

impl Eval<'_> {
    /// `cd dir`: the line moves, and so does every other place it may be.
    pub(super) fn change_dir(&mut self, dir: &str) {
        self.left_cwds
            .push((self.cwd.clone(), self.other_cwds.clone()));
        self.cwd = moved(&self.cwd, dir);
        let others: Vec<Option<String>> = self.other_cwds.iter().map(|d| moved(d, dir)).collect();
        self.other_cwds.clear();
        for other in others {
            self.add_other_dir(other);
        }
    }

    /// After a pipeline: an `&&` keeps the chain's `cd`s certain; anything
    /// else ends the chain, unless a failed `cd` would have ended the line
    /// (`cd x || exit 1`).
    pub(super) fn chain_step(&mut self, then: Then, next: Option<&Pipeline>) {
        match then {
            Then::And => {}
            Then::Or if next.is_some_and(leaves) => self.left_cwds.clear(),
            Then::Or | Then::Next => self.end_chain(),
        }
    }

    /// Every place the chain left may still be where the line is.
    pub(super) fn end_chain(&mut self) {
        for (dir, others) in std::mem::take(&mut self.left_cwds) {
            for place in std::iter::once(dir).chain(others) {
                self.add_other_dir(place);
            }
        }
    }

    fn add_other_dir(&mut self, dir: Option<String>) {
        if dir == self.cwd || self.other_cwds.contains(&dir) {
            return;
        }
        if self.other_cwds.len() < MAX_OTHER_DIRS - 1 {
            self.other_cwds.push(dir);
            return;
        }
        // Too many places to follow: the last slot says "somewhere else".
        let untracked = Some(UNTRACKED_DIR.to_string());
        if !self.other_cwds.contains(&untracked) {
            self.other_cwds.push(untracked);
        }
    }

    /// Runs `f` as a child process would: a `cd` in it does not move the
    /// commands after it (`(cd /tmp); rm -rf *` deletes where it started).
    pub(super) fn child<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let cwd = self.cwd.clone();
        let others = std::mem::take(&mut self.other_cwds);
        let left = std::mem::take(&mut self.left_cwds);
        // The child starts wherever the parent may be.
        self.other_cwds.clone_from(&others);
        let out = f(self);
        self.cwd = cwd;
        self.other_cwds = others;
        self.left_cwds = left;
        out
    }
}

/// Where `cd dir` from `from` leads.
pub(super) fn moved(from: &Option<String>, dir: &str) -> Option<String> {
    Some(match from {
        // Lost track of stays lost, wherever a relative `cd` goes.
        Some(prev) if prev == UNTRACKED_DIR && !dir.starts_with('/') && !dir.starts_with('~') => {
            UNTRACKED_DIR.to_string()
        }
        Some(prev) if !dir.starts_with('/') && !dir.starts_with('~') => {
            format!("{}/{dir}", prev.trim_end_matches('/'))
        }
        _ => dir.to_string(),
    })
}

/// Whether a pipeline ends the script (`exit`, `return`): after `cd x ||`
/// it means a failed `cd` stops the line.
fn leaves(pipeline: &Pipeline) -> bool {
    let [Node::Simple(simple)] = pipeline.stages.as_slice() else {
        return false;
    };
    simple.words.first().is_some_and(|w| {
        matches!(
            super::parse::word_source_text(w).as_str(),
            "exit" | "return"
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::shell::analyze;

    /// The directories the commands named `program` run in.
    fn places(line: &str, program: &str) -> Vec<Option<String>> {
        analyze(line)
            .commands
            .into_iter()
            .filter(|c| c.program == program)
            .map(|c| c.cwd)
            .collect()
    }

    fn dir(d: &str) -> Option<String> {
        Some(d.to_string())
    }

    #[test]
    fn a_cd_in_an_and_chain_is_certain() {
        assert_eq!(places("cd /tmp/x && rm -rf *", "rm"), [dir("/tmp/x")]);
        assert_eq!(places("cd /a && make && cd /b && rm x", "rm"), [dir("/b")]);
        assert_eq!(places("cd /tmp/x || exit 1; rm x", "rm"), [dir("/tmp/x")]);
    }

    #[test]
    fn after_the_chain_every_place_it_left_is_possible() {
        assert_eq!(places("cd /tmp/x; rm x", "rm"), [dir("/tmp/x"), None]);
        assert_eq!(
            places("cd /; cd /tmp/x || true; rm x", "rm"),
            [dir("/tmp/x"), dir("/"), None]
        );
        // A relative cd moves every possible place.
        assert_eq!(
            places("cd /a; cd b; rm x", "rm"),
            [dir("/a/b"), dir("b"), dir("/a"), None]
        );
    }

    #[test]
    fn a_line_may_start_in_a_directory_as_after_a_certain_cd() {
        let places = |line: &str, start: &str| -> Vec<Option<String>> {
            crate::shell::analyze_in(line, Some(start))
                .commands
                .into_iter()
                .filter(|c| c.program == "rm")
                .map(|c| c.cwd)
                .collect()
        };
        assert_eq!(places("rm x", "~/.local"), [dir("~/.local")]);
        assert_eq!(places("cd bin && rm x", "~/.local"), [dir("~/.local/bin")]);
        assert_eq!(
            places("cd /tmp/x; rm x", "src"),
            [dir("/tmp/x"), dir("src")]
        );
        assert_eq!(places("(cd /tmp/x); rm x", "src"), [dir("src")]);
        assert_eq!(places("bash -c 'rm x'", "/srv"), [dir("/srv")]);
        // `$PWD` is where the line starts.
        let pwd = crate::shell::analyze_in("echo $PWD", Some("/srv/app"));
        assert_eq!(pwd.commands[0].args, ["/srv/app"]);
    }

    #[test]
    fn children_keep_their_cd() {
        assert_eq!(places("(cd /tmp/x); rm x", "rm"), [None]);
        assert_eq!(places("cd /tmp/x | cat; rm x", "rm"), [None]);
        assert_eq!(places("x=$(cd /tmp/x); rm x", "rm"), [None]);
        assert_eq!(places("bash -c 'cd /tmp/x'; rm x", "rm"), [None]);
    }

    #[test]
    fn too_many_places_end_in_an_untracked_one() {
        let found = places("cd /q; cd a; cd b; cd c; cd d; rm x", "rm");
        assert_eq!(found.len(), 1 + super::MAX_OTHER_DIRS, "{found:?}");
        assert!(found.contains(&dir(super::UNTRACKED_DIR)), "{found:?}");
        // Hostile repetition stays bounded.
        let line = "cd a; ".repeat(5000) + "rm x";
        assert!(places(&line, "rm").len() <= 1 + super::MAX_OTHER_DIRS);
    }
}
