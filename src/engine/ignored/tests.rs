//! The ignore rules asked of a file system made of a few paths, no disk.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::rules::fs::RULES;

/// A file system of a few files, directories and symlinks.
#[derive(Debug, Default)]
struct Tree {
    files: HashMap<String, String>,
    dirs: HashSet<String>,
    links: HashSet<String>,
}

impl Tree {
    /// A repository at `/w/app` with `ignore` as its root `.gitignore`.
    fn repo(ignore: &str) -> Tree {
        let mut t = Tree::default();
        t.dir("/w/app").dir("/w/app/.git").dir("/w/app/src");
        t.file("/w/app/.gitignore", ignore);
        t
    }

    fn file(&mut self, path: &str, text: &str) -> &mut Tree {
        self.files.insert(path.into(), text.into());
        self
    }

    fn dir(&mut self, path: &str) -> &mut Tree {
        self.dirs.insert(path.into());
        self
    }
}

impl Links for Tree {
    fn probe(&self, path: &str) -> Probe {
        if self.links.contains(path) {
            Probe::Link("/elsewhere".into())
        } else if self.files.contains_key(path) || self.dirs.contains(path) {
            Probe::Present
        } else {
            Probe::Missing
        }
    }

    fn is_dir(&self, path: &str) -> bool {
        self.dirs.contains(path)
    }

    fn read_text(&self, path: &str, _limit: usize) -> Option<String> {
        self.files.get(path).cloned()
    }
}

fn rule(id: &str) -> &'static Rule {
    RULES.iter().find(|r| r.id == id).expect("a rule of fs.rs")
}

/// Whether `line` (words split at spaces, no quoting), run in `dir`, is
/// excused for `id` on `tree`.
fn excused_in(tree: &Tree, dir: &str, id: &str, line: &str) -> bool {
    let around = Around {
        home: Some("/home/u"),
        dir: Some(dir.into()),
        links: Some(tree),
        ..Around::default()
    };
    excused(rule(id), &Command::from_words(line), &around)
}

const RM: &str = "fs.recursive-delete-in-project";
const FIND: &str = "fs.find-delete";

#[test]
fn ignored_directories_are_excused() {
    let mut t = Tree::repo("reports/\n/site\n.tfcache\nartifacts/\n# comment\n");
    for d in ["reports", "site", ".tfcache", "artifacts", "src/reports"] {
        t.dir(&format!("/w/app/{d}"));
    }
    let app = "/w/app";
    assert!(excused_in(
        &t,
        app,
        RM,
        "rm -rf reports site .tfcache artifacts"
    ));
    assert!(excused_in(&t, app, RM, "rm -rf ./reports/"));
    assert!(excused_in(&t, "/w/app/src", RM, "rm -rf reports"));
    // Anchored to the root: `src/site` is not ignored.
    t.dir("/w/app/src/site");
    assert!(!excused_in(&t, app, RM, "rm -rf src/site"));
    // One operand that is not ignored keeps the ask.
    assert!(!excused_in(&t, app, RM, "rm -rf reports src"));
    // Anything under an ignored directory is ignored.
    assert!(excused_in(&t, app, RM, "rm -rf reports/lcov-report"));
    assert!(excused_in(&t, app, RM, "rm -rf reports/*"));
}

#[test]
fn a_directory_pattern_needs_a_directory() {
    let mut t = Tree::repo("gen-out/\n");
    t.file("/w/app/gen-out", "a file named gen-out");
    assert!(!excused_in(&t, "/w/app", RM, "rm -rf gen-out"));
    let mut t = Tree::repo("gen-out/\n");
    t.dir("/w/app/gen-out");
    assert!(excused_in(&t, "/w/app", RM, "rm -rf gen-out"));
}

#[test]
fn negations_re_include_except_under_an_ignored_directory() {
    let mut t = Tree::repo("logs/*\n!logs/keep\nvendor/\n!vendor/pinned\n");
    t.dir("/w/app/logs")
        .dir("/w/app/logs/keep")
        .dir("/w/app/logs/old");
    t.dir("/w/app/vendor").dir("/w/app/vendor/pinned");
    let app = "/w/app";
    assert!(excused_in(&t, app, RM, "rm -rf logs/old"));
    assert!(!excused_in(&t, app, RM, "rm -rf logs/keep"));
    assert!(!excused_in(&t, app, RM, "rm -rf logs"));
    // Git never re-includes below an ignored directory.
    assert!(excused_in(&t, app, RM, "rm -rf vendor/pinned"));
    // A deeper file decides over a shallower one.
    t.dir("/w/app/src/gen");
    t.file("/w/app/.gitignore", "gen/\n");
    t.file("/w/app/src/.gitignore", "!gen/\n");
    assert!(!excused_in(&t, "/w/app/src", RM, "rm -rf gen"));
}

#[test]
fn what_cannot_be_shown_is_not_ignored() {
    let mut t = Tree::repo("build-out/\ncache/\n*\n");
    t.dir("/w/app/build-out").dir("/w/app/cache");
    t.links.insert("/w/app/cache".into());
    let app = "/w/app";
    for line in [
        "rm -rf cache",
        "rm -rf ../app/build-out",
        "rm -rf $OUT",
        "rm -rf ~/x",
        "rm -rf .git",
        "rm -rf /w/other/build-out",
        "rm -rf */build-out",
    ] {
        assert!(!excused_in(&t, app, RM, line), "{line}");
    }
    // No repository: nothing is ignored.
    let mut bare = Tree::default();
    bare.dir("/w/app").dir("/w/app/build-out");
    bare.file("/w/app/.gitignore", "build-out/\n");
    assert!(!excused_in(&bare, app, RM, "rm -rf build-out"));
    // A repository at a home is no project.
    let mut home = Tree::default();
    home.dir("/home/u/.git").dir("/home/u/gen");
    home.file("/home/u/.gitignore", "gen/\n");
    assert!(!excused_in(&home, "/home/u", RM, "rm -rf gen"));
}

#[test]
fn samples_of_a_glob() {
    let t = Tree::repo("*.py[cod]\n*.log\n");
    let repo = Repo::around("/w/app", &t, Some("/home/u")).expect("a repository");
    assert_eq!(repo.status("x.pyc", false), Status::Ignored);
    assert_eq!(repo.status(".pyc", false), Status::Ignored);
    assert_eq!(repo.status("\u{1}d/\u{1}\u{2}.pyc", false), Status::Ignored);
    assert!(repo.name_ignored("", "*.pyc", false));
    assert!(repo.found_ignored("/w/app", ".", "*.pyc", false));
    assert!(deleted_in_project(
        rule(FIND),
        &Command::from_words("find . -name '*.pyc' -delete")
    )
    .is_some());
}

#[test]
fn find_deletes_of_ignored_names() {
    let t = Tree::repo("*.py[cod]\n*.log\n");
    let app = "/w/app";
    assert!(excused_in(&t, app, FIND, "find . -name *.pyc -delete"));
    assert!(excused_in(&t, app, FIND, "find src -name *.log -delete"));
    assert!(excused_in(
        &t,
        app,
        "fs.find-exec-rm",
        "find . -name *.log -exec rm -f {} +"
    ));
    assert!(!excused_in(&t, app, FIND, "find . -name *.py -delete"));
    assert!(!excused_in(&t, app, FIND, "find . -name * -delete"));
    assert!(!excused_in(&t, app, FIND, "find . -delete"));
    assert!(!excused_in(
        &t,
        app,
        FIND,
        "find . -name *.log -o -name *.md -delete"
    ));
    assert!(!excused_in(
        &t,
        app,
        FIND,
        "find . -path ./src/*.log -delete"
    ));
    assert!(!excused_in(&t, app, FIND, "find .. -name *.log -delete"));
    // A pattern for one length of name does not cover a glob of any.
    let t = Tree::repo("?.log\nsrc/*.log\n");
    assert!(!excused_in(&t, app, FIND, "find . -name *.log -delete"));
    // A negation anywhere could re-include a name the samples miss.
    let t = Tree::repo("*.log\n!important.log\n");
    assert!(!excused_in(&t, app, FIND, "find . -name *.log -delete"));
}

#[test]
fn info_exclude_and_the_global_file() {
    let mut t = Tree::repo("");
    t.dir("/w/app/.idea").dir("/w/app/scratch");
    t.file("/w/app/.git/info/exclude", "scratch/\n");
    t.file("/home/u/.config/git/ignore", ".idea/\n");
    let app = "/w/app";
    assert!(excused_in(&t, app, RM, "rm -rf scratch .idea"));
    t.file(
        "/home/u/.gitconfig",
        "[core]\n\texcludesFile = ~/.gitignore_global\n",
    );
    assert!(!excused_in(&t, app, RM, "rm -rf .idea"));
    t.file("/home/u/.gitignore_global", ".idea\n");
    assert!(excused_in(&t, app, RM, "rm -rf .idea"));
    assert_eq!(excludes_file("[user]\nname = x\n"), None);
}

#[test]
fn other_rules_are_never_excused() {
    let mut t = Tree::repo("x/\n");
    t.dir("/w/app/x");
    assert!(!excused_in(&t, "/w/app", "fs.recursive-delete", "rm -rf x"));
}
