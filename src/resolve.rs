//! Paths as the kernel would open them: relative to a working directory, `~` and `$HOME` expanded, `.` and `..` applied, and symlinks followed through the file system.
//!
//! The file system is reached through [`Links`], so the engine stays free of
//! I/O: the hook passes [`Disk`], tests and rule examples pass nothing and get
//! the lexical answer.

use std::borrow::Cow;
use std::fmt;

mod overlay;
pub use overlay::{Made, MadeKind, Overlay, Plain};

/// Most symlinks followed for one path, as Linux's `MAXSYMLINKS`.
const MAX_LINKS: usize = 40;

/// What is at a path, asked without following a final symlink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// A symlink, with its target as stored.
    Link(String),
    /// A directory another is mounted on (a bind mount), with the absolute
    /// path of what shows there: followed like a link, but also where a
    /// symlink named last would not be, as it is a directory.
    Mount(String),
    /// Something that is not a symlink (a file, a directory, a device).
    Present,
    /// Nothing: the rest of the path does not exist yet.
    Missing,
    /// The file system would not say (permission, I/O error).
    Denied(String),
}

/// The file system as far as resolving paths needs it.
pub trait Links: Send + Sync + fmt::Debug {
    /// What is at `path`, an absolute path whose parents are not symlinks.
    fn probe(&self, path: &str) -> Probe;

    /// How walking the directory `dir` ended, if this file system remembers
    /// it from an earlier path: paths in one directory, and relative paths
    /// in one working directory, start with the same walk.
    fn walked(&self, _dir: &str) -> Option<Walked> {
        None
    }

    /// Remember how walking the directory `dir` ended.
    fn remember(&self, _dir: &str, _walked: &Walked) {}

    /// Whether `path`, an absolute path with its symlinks followed, is a
    /// directory: a copy given one puts the file inside it. `false` when
    /// this file system cannot say.
    fn is_dir(&self, _path: &str) -> bool {
        false
    }

    /// What is at `path`, asked for a question no later path repeats
    /// (where the guard's places are): not worth remembering.
    fn probe_once(&self, path: &str) -> Probe {
        self.probe(path)
    }

    /// `work`'s answer (which of the guard's places a symlink puts
    /// elsewhere, and where) for the places made of `facts`, kept by a
    /// file system that lives across calls: the places and their links are
    /// the same for every call of a batch.
    fn places_moved(
        &self,
        _facts: &[&str],
        work: &dyn Fn() -> Vec<(String, String)>,
    ) -> Vec<(String, String)> {
        work()
    }

    /// The text of the file at `path` (absolute, symlinks followed), when
    /// it is a regular file of at most `limit` bytes (bytes that are not
    /// UTF-8 replaced): a script an interpreter or make runs, a patch whose
    /// paths a command writes. `None` when this file system cannot say.
    fn read_text(&self, _path: &str, _limit: usize) -> Option<String> {
        None
    }
}

/// The largest patch warden reads from disk: as long as a command line may be.
pub const MAX_READ: u64 = 1 << 20;

/// The real file system. It remembers how the directories it was asked
/// about resolved, and what it found at each path it was asked about, for
/// as long as it lives: one call in the hook, and in `check --batch` the
/// calls made from one working directory, which also share that
/// directory's policy and project.
#[derive(Debug, Default)]
pub struct Disk {
    dirs: std::sync::Mutex<std::collections::HashMap<String, Walked>>,
    /// The last component of a path is asked about on every call that names
    /// it (`~`, `/etc`, a project file): a `statx` each, which was a tenth of
    /// the time of `check --batch` and which an instruction count never sees.
    probes: std::sync::Mutex<std::collections::HashMap<String, Probe>>,
    /// The guard's places and those of them a symlink puts elsewhere.
    moved: std::sync::Mutex<Option<Moved>>,
}

/// What the guard's places were made of, and where symlinks put those of
/// them they put elsewhere.
type Moved = (Vec<String>, Vec<(String, String)>);

/// Directories a [`Disk`] remembers at once.
const REMEMBERED_DIRS: usize = 1024;
/// Paths whose probe a [`Disk`] remembers at once.
const REMEMBERED_PROBES: usize = 4096;

/// What is at `path`, asked of the kernel.
fn probe_disk(path: &str) -> Probe {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(path) {
            Ok(target) => Probe::Link(target.to_string_lossy().into_owned()),
            Err(e) => Probe::Denied(e.to_string()),
        },
        Ok(_) => Probe::Present,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Probe::Missing,
        // A file where a directory was expected: the rest cannot exist.
        Err(e) if e.raw_os_error() == Some(20) => Probe::Missing,
        Err(e) => Probe::Denied(e.to_string()),
    }
}

impl Links for Disk {
    fn probe(&self, path: &str) -> Probe {
        if let Some(found) = self
            .probes
            .lock()
            .ok()
            .and_then(|probes| probes.get(path).cloned())
        {
            return found;
        }
        let found = probe_disk(path);
        if let Ok(mut probes) = self.probes.lock() {
            if probes.len() >= REMEMBERED_PROBES {
                probes.clear();
            }
            probes.insert(path.to_string(), found.clone());
        }
        found
    }

    fn probe_once(&self, path: &str) -> Probe {
        probe_disk(path)
    }

    fn places_moved(
        &self,
        facts: &[&str],
        work: &dyn Fn() -> Vec<(String, String)>,
    ) -> Vec<(String, String)> {
        if let Ok(moved) = self.moved.lock() {
            if let Some((_, answer)) = moved.as_ref().filter(|(known, _)| known == facts) {
                return answer.clone();
            }
        }
        let answer = work();
        if let Ok(mut moved) = self.moved.lock() {
            let facts = facts.iter().map(|f| f.to_string()).collect();
            *moved = Some((facts, answer.clone()));
        }
        answer
    }

    fn walked(&self, dir: &str) -> Option<Walked> {
        let dirs = self.dirs.lock().ok()?;
        dirs.get(dir).cloned()
    }

    fn is_dir(&self, path: &str) -> bool {
        // Asked only of a copy's one destination, when its words leave it open.
        std::fs::metadata(path).is_ok_and(|m| m.is_dir())
    }

    fn read_text(&self, path: &str, limit: usize) -> Option<String> {
        use std::io::Read;
        let file = std::fs::File::open(path).ok()?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        file.take(limit as u64 + 1).read_to_end(&mut bytes).ok()?;
        if bytes.len() > limit {
            return None;
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn remember(&self, dir: &str, walked: &Walked) {
        if let Ok(mut dirs) = self.dirs.lock() {
            if dirs.len() >= REMEMBERED_DIRS {
                dirs.clear();
            }
            dirs.insert(dir.to_string(), walked.clone());
        }
    }
}

/// Where the directories a path may name are.
#[derive(Debug, Clone, Copy, Default)]
pub struct Base<'a> {
    /// The directory a relative path starts in (absolute).
    pub cwd: Option<&'a str>,
    /// What `~` and `$HOME` stand for.
    pub home: Option<&'a str>,
    /// What `$HERMES_HOME` stands for (else `~/.hermes`).
    pub hermes_home: Option<&'a str>,
}

/// A path resolved as far as it could be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// Absolute and folded, symlinks followed; relative only when the
    /// directory it starts in is unknown.
    pub path: String,
    /// The same path without following symlinks (`~` and variables
    /// expanded, `.` and `..` folded lexically).
    pub lexical: String,
    /// A symlink was followed on the way.
    pub followed_link: bool,
    /// Why the path could not be resolved (a loop, a permission, an unknown
    /// variable): then [`Resolution::path`] is as far as it got, the rest
    /// as written.
    pub problem: Option<String>,
}

impl Resolution {
    /// Both forms a rule should see: the resolved one, and the lexical one
    /// when it differs (a rule that matches either decides).
    pub fn forms(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.path.as_str())
            .chain((self.lexical != self.path).then_some(self.lexical.as_str()))
    }
}

/// What a program does with a symlink named last in a path it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Last {
    /// Opens what it points to, as opening a file does (`shred`, `chmod`).
    Follow,
    /// Acts on the link itself (`rm LINK`, `mv LINK`, `find LINK`); a
    /// trailing `/` still follows it, as the kernel does.
    Keep,
}

/// Resolves `path` from `base`, asking `links` about each existing component.
pub fn resolve(path: &str, base: Base<'_>, links: Option<&dyn Links>) -> Resolution {
    resolve_as(path, base, links, Last::Follow)
}

/// [`resolve`], with a symlink named last followed or kept as `last` says.
pub fn resolve_as(path: &str, base: Base<'_>, links: Option<&dyn Links>, last: Last) -> Resolution {
    let (expanded, problem) = expand(path.trim(), base);
    let lexical = crate::path::absolute(&expanded, base.cwd, None);
    let mut out = Resolution {
        path: lexical.clone(),
        lexical,
        followed_link: false,
        problem,
    };
    if out.problem.is_some() || !out.lexical.starts_with('/') {
        return out;
    }
    let Some(links) = links else {
        return out;
    };
    // The unexpanded path joined to the cwd, not the folded one: `link/..`
    // is the parent of the link's target, not the directory holding the link.
    let joined = match (expanded.starts_with('/'), base.cwd) {
        (false, Some(cwd)) => format!("{cwd}/{expanded}"),
        _ => expanded,
    };
    // Paths in one directory walk the same way up to their last component.
    let (dir, name) = joined.rsplit_once('/').unwrap_or(("", joined.as_str()));
    let from = links.walked(dir).unwrap_or_else(|| {
        let from = Walked::default().walk(dir, links, false);
        links.remember(dir, &from);
        from
    });
    // `name` is one component, or empty after a trailing `/`.
    let walked = from.walk(name, links, last == Last::Keep);
    out.followed_link = walked.followed > 0;
    out.path = walked.path().to_string();
    out.problem = walked.problem;
    out
}

/// `~`, `$HOME`, `${HOME}` and `$HERMES_HOME` replaced; any other variable
/// left in place and reported.
fn expand(path: &str, base: Base<'_>) -> (String, Option<String>) {
    // Every path of every call comes here: a value is made only for the
    // prefix that is there.
    enum Var {
        Home,
        HermesHome,
        Pwd,
    }
    const PREFIXES: [(&str, Var); 6] = [
        ("~", Var::Home),
        ("$HOME", Var::Home),
        ("${HOME}", Var::Home),
        ("$HERMES_HOME", Var::HermesHome),
        ("${HERMES_HOME}", Var::HermesHome),
        ("$PWD", Var::Pwd),
    ];
    for (prefix, var) in PREFIXES {
        let Some(rest) = path.strip_prefix(prefix) else {
            continue;
        };
        if !(rest.is_empty() || rest.starts_with('/')) {
            continue;
        }
        let value: Option<Cow<'_, str>> = match var {
            Var::Home => base.home.map(Cow::Borrowed),
            Var::HermesHome => base.hermes_home.map(Cow::Borrowed).or_else(|| {
                base.home
                    .map(|h| Cow::Owned(format!("{}/.hermes", h.trim_end_matches('/'))))
            }),
            Var::Pwd => base.cwd.map(Cow::Borrowed),
        };
        return match value {
            Some(value) => (format!("{}{rest}", value.trim_end_matches('/')), None),
            None => (path.to_string(), Some(format!("{prefix} is not known"))),
        };
    }
    if let Some(named) = path.strip_prefix('~') {
        // `~user`: another user's home, where Linux keeps it.
        let (user, rest) = named.split_at(named.find('/').unwrap_or(named.len()));
        let home = if user == "root" {
            "/root".to_string()
        } else {
            format!("/home/{user}")
        };
        return (format!("{home}{rest}"), None);
    }
    if path.contains(['$', '`']) {
        return (
            path.to_string(),
            Some("it holds a variable or substitution warden cannot know".into()),
        );
    }
    (path.to_string(), None)
}

/// How far a walk through the file system got: the components reached,
/// with every link it could follow followed (the rest appended as written),
/// and why it stopped short, if it did.
#[derive(Debug, Clone, Default)]
pub struct Walked {
    /// The components reached, each after a `/` (empty: the root), kept as
    /// one string: a walk is copied for every path in a remembered directory.
    done: String,
    followed: usize,
    missing: bool,
    problem: Option<String>,
}

impl Walked {
    /// The path reached, absolute.
    fn path(&self) -> &str {
        if self.done.is_empty() {
            "/"
        } else {
            &self.done
        }
    }

    /// Back to the parent of the last component reached (the root stays).
    fn pop(&mut self) {
        let parent = self.done.rfind('/').unwrap_or(0);
        self.done.truncate(parent);
    }

    /// Walks on through `path`'s components as the kernel does, splicing in
    /// each symlink's target. What does not exist yet is appended lexically.
    /// With `keep_last`, a symlink as the last component is not followed.
    fn walk(mut self, path: &str, links: &dyn Links, keep_last: bool) -> Walked {
        let mut pending: Vec<String> = components(path);
        pending.reverse();
        while let Some(part) = pending.pop() {
            match part.as_str() {
                "." => continue,
                ".." => {
                    self.pop();
                    continue;
                }
                _ => {}
            }
            self.done.push('/');
            self.done.push_str(&part);
            if self.missing || self.problem.is_some() {
                continue;
            }
            let here = self.path();
            match links.probe(here) {
                Probe::Present => {}
                Probe::Missing => self.missing = true,
                // The rest is judged as written from here: both this form and
                // the lexical one are judged, and the more cautious wins.
                Probe::Denied(why) => self.problem = Some(format!("{here}: {why}")),
                Probe::Link(_) if keep_last && pending.is_empty() => {}
                Probe::Link(_) | Probe::Mount(_) if self.followed >= MAX_LINKS => {
                    self.problem = Some(format!("{here}: too many levels of symbolic links"));
                }
                Probe::Link(target) | Probe::Mount(target) => {
                    self.followed += 1;
                    self.pop();
                    if target.starts_with('/') {
                        self.done.clear();
                    }
                    for part in components(&target).into_iter().rev() {
                        pending.push(part);
                    }
                }
            }
        }
        self
    }
}

fn components(path: &str) -> Vec<String> {
    crate::path::slash_separated(path)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// A file system of absolute paths: a link's target, or `""` for a plain entry.
    #[derive(Debug)]
    struct Fake(HashMap<&'static str, &'static str>);

    impl Links for Fake {
        fn probe(&self, path: &str) -> Probe {
            match self.0.get(path) {
                Some(&"") => Probe::Present,
                Some(&"!") => Probe::Denied("permission denied".into()),
                Some(target) => Probe::Link(target.to_string()),
                None => Probe::Missing,
            }
        }
    }

    fn fake() -> Fake {
        Fake(HashMap::from([
            ("/home", ""),
            ("/home/u", ""),
            ("/home/u/.ssh", ""),
            ("/home/u/p", ""),
            ("/home/u/p/keys", "/home/u/.ssh"),
            ("/home/u/p/rel", "../.ssh/x"),
            ("/home/u/p/loop", "/home/u/p/loop"),
            ("/home/u/p/locked", "!"),
        ]))
    }

    fn base() -> Base<'static> {
        Base {
            cwd: Some("/home/u/p"),
            home: Some("/home/u"),
            hermes_home: None,
        }
    }

    fn resolved(path: &str) -> Resolution {
        resolve(path, base(), Some(&fake()))
    }

    #[test]
    fn expands_and_folds() {
        assert_eq!(resolved("~/.ssh/x").path, "/home/u/.ssh/x");
        assert_eq!(resolved("$HOME/.bashrc").path, "/home/u/.bashrc");
        assert_eq!(resolved("${HOME}/.bashrc").path, "/home/u/.bashrc");
        assert_eq!(resolved("$HERMES_HOME/.env").path, "/home/u/.hermes/.env");
        assert_eq!(resolved("../../u/.ssh/x").path, "/home/u/.ssh/x");
        assert_eq!(resolved("./src/../a").path, "/home/u/p/a");
        assert_eq!(resolved("~bob/.bashrc").path, "/home/bob/.bashrc");
        assert_eq!(resolved("~root").path, "/root");
    }

    #[test]
    fn follows_links_in_any_component() {
        let r = resolved("keys/authorized_keys");
        assert_eq!(r.path, "/home/u/.ssh/authorized_keys");
        assert_eq!(r.lexical, "/home/u/p/keys/authorized_keys");
        assert!(r.followed_link);
        assert_eq!(resolved("rel").path, "/home/u/.ssh/x");
        // `..` after a link climbs from the link's target.
        assert_eq!(resolved("keys/../.bashrc").path, "/home/u/.bashrc");
        assert_eq!(resolved("new/file").path, "/home/u/p/new/file");
    }

    #[test]
    fn problems_keep_the_lexical_form() {
        let r = resolved("loop/x");
        assert!(
            r.problem.as_deref().unwrap().contains("symbolic links"),
            "{r:?}"
        );
        assert_eq!(r.path, "/home/u/p/loop/x");
        assert!(resolved("locked/x").problem.is_some());
        let r = resolved("$DIR/x");
        assert!(r.problem.is_some());
        assert_eq!(r.path, "/home/u/p/$DIR/x");
    }

    #[test]
    fn without_a_file_system_or_a_cwd() {
        let r = resolve("keys/x", base(), None);
        assert_eq!(r.path, "/home/u/p/keys/x");
        let r = resolve("a/../b", Base::default(), Some(&fake()));
        assert_eq!(r.path, "b");
    }

    #[test]
    fn a_link_named_last_is_kept_or_followed() {
        let keep = |path: &str| resolve_as(path, base(), Some(&fake()), Last::Keep);
        // `rm -rf keys` removes the link; `keys/` and what is in it are
        // the target's.
        assert_eq!(keep("keys").path, "/home/u/p/keys");
        assert!(!keep("keys").followed_link);
        assert_eq!(keep("keys/").path, "/home/u/.ssh");
        assert_eq!(keep("keys/*").path, "/home/u/.ssh/*");
        assert_eq!(keep("keys/.").path, "/home/u/.ssh");
        assert_eq!(keep("/home/u/p/keys").path, "/home/u/p/keys");
        assert_eq!(resolved("keys").path, "/home/u/.ssh");
    }

    #[test]
    fn what_a_line_made_lies_over_the_disk() {
        let disk = fake();
        let made = [
            Made {
                at: "/home/u/p/r".into(),
                kind: MadeKind::Symlink("/".into()),
            },
            Made {
                at: "/home/u/p/rel".into(),
                kind: MadeKind::Symlink("sub".into()),
            },
            Made {
                at: "/home/u/p/new/deep/m".into(),
                kind: MadeKind::Mount("/etc".into()),
            },
            Made {
                at: "/home/u/p/tree".into(),
                kind: MadeKind::Mirror("/home/u".into()),
            },
        ];
        let view = Overlay {
            below: &disk,
            made: [&made, &[]],
            own: &[],
        };
        let at = |path: &str, last| resolve_as(path, base(), Some(&view), last).path;
        assert_eq!(at("r/", Last::Keep), "/");
        assert_eq!(at("r/etc", Last::Keep), "/etc");
        assert_eq!(at("r", Last::Keep), "/home/u/p/r");
        // A line's link hides the one on disk at the same path.
        assert_eq!(at("rel/x", Last::Follow), "/home/u/p/sub/x");
        // A mount point is a directory: entered even when named last, and
        // the directories above it exist because the line made them.
        assert_eq!(at("new/deep/m", Last::Keep), "/etc");
        // A mirror is a directory whose files lead back; what the file
        // system cannot tell from a file (this one has no `is_dir`) is
        // taken for one.
        assert_eq!(at("tree", Last::Keep), "/home/u/p/tree");
        assert_eq!(at("tree/p/keys", Last::Keep), "/home/u/p/keys");
        assert_eq!(at("tree/.ssh/x", Last::Follow), "/home/u/.ssh/x");
        // Without a disk, every other component is a plain directory.
        let plain = Overlay {
            below: &Plain,
            made: [&made[..2], &made[2..]],
            own: &[],
        };
        let r = resolve_as("keys/x", base(), Some(&plain), Last::Follow);
        assert_eq!(
            (r.path.as_str(), r.followed_link),
            ("/home/u/p/keys/x", false)
        );
        assert_eq!(
            resolve_as("r/*", base(), Some(&plain), Last::Keep).path,
            "/*"
        );
    }

    /// The fake file system, remembering walked directories as `Disk` does
    /// and counting the probes.
    #[derive(Debug)]
    struct Remembering {
        fs: Fake,
        probes: std::sync::atomic::AtomicUsize,
        dirs: std::sync::Mutex<HashMap<String, Walked>>,
    }

    impl Links for Remembering {
        fn probe(&self, path: &str) -> Probe {
            self.probes
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.fs.probe(path)
        }
        fn walked(&self, dir: &str) -> Option<Walked> {
            self.dirs.lock().unwrap().get(dir).cloned()
        }
        fn remember(&self, dir: &str, walked: &Walked) {
            self.dirs.lock().unwrap().insert(dir.into(), walked.clone());
        }
    }

    #[test]
    fn a_remembered_directory_resolves_as_a_fresh_walk() {
        let links = Remembering {
            fs: fake(),
            probes: Default::default(),
            dirs: Default::default(),
        };
        let cwds = [
            "/home/u/p",
            "/home/u/p/keys",
            "/home/u/p/loop",
            "/home/u/p/locked/d",
            "/nowhere/x",
        ];
        let paths = [
            "a",
            "keys/x",
            "rel",
            "../.ssh/k",
            "keys/../b",
            "loop/x",
            "./.",
            "/home/u/p/keys/y",
        ];
        for cwd in cwds {
            let base = Base {
                cwd: Some(cwd),
                ..base()
            };
            for path in paths {
                let fresh = resolve(path, base, Some(&fake()));
                for _ in 0..2 {
                    assert_eq!(
                        resolve(path, base, Some(&links)),
                        fresh,
                        "{path} from {cwd}"
                    );
                }
            }
        }
        // Asked again, a directory's own components are not probed again,
        // nor are those of a directory an absolute path names.
        let before = links.probes.load(std::sync::atomic::Ordering::Relaxed);
        resolve("a", base(), Some(&links));
        let after = links.probes.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(after - before, 1, "only /home/u/p/a is probed");
        resolve("/home/u/p/b", base(), Some(&links));
        let again = links.probes.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(again - after, 1, "only /home/u/p/b is probed");
    }

    #[test]
    fn the_real_disk() {
        let dir = std::env::temp_dir().join(format!("warden-resolve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real")).unwrap();
        let dir = dir.canonicalize().unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
        let cwd = dir.to_string_lossy().into_owned();
        let base = Base {
            cwd: Some(&cwd),
            ..Base::default()
        };
        let r = resolve("link/new.txt", base, Some(&Disk::default()));
        assert_eq!(r.path, format!("{cwd}/real/new.txt"));

        // A disk answers for a path as it first found it (the snapshot
        // `check --batch` documents); a new disk asks the kernel again.
        let disk = Disk::default();
        let target = format!("{cwd}/later");
        assert_eq!(disk.probe(&target), Probe::Missing);
        std::os::unix::fs::symlink(dir.join("real"), dir.join("later")).unwrap();
        assert_eq!(disk.probe(&target), Probe::Missing);
        let real = dir.join("real").to_string_lossy().into_owned();
        assert_eq!(Disk::default().probe(&target), Probe::Link(real.clone()));
        // It remembers a bounded number of paths, and still answers past them.
        for i in 0..REMEMBERED_PROBES + 10 {
            assert_eq!(disk.probe(&format!("{cwd}/none-{i}")), Probe::Missing);
        }
        assert!(disk.probes.lock().unwrap().len() <= REMEMBERED_PROBES);
        assert_eq!(disk.probe(&target), Probe::Link(real));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
