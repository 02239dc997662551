//! The guard's own files — warden's policy, cache, state, ledger and binary, the agents' settings and hooks, every project policy file — where each is, which directories hold or could hold one, and what they are called through symlinks; names compared as a case-insensitive file system compares them.
//!
//! One question for every path a call writes, deletes, moves, re-permissions
//! or fills with files warden cannot see: how does it stand to the guard's
//! files ([`standing`])? It is one of them (or inside a directory of them),
//! or a directory above one, or neither. The places are named once, here:
//! in the home (`~/.config/warden`), in Hermes' home and its profiles
//! (`config.yaml`), from `/` (`/etc/warden`), anywhere (`.warden.yaml`,
//! `.hermes/permissions.yaml`, `.claude/settings.json`), and where this
//! machine keeps them ([`Around::guard_paths`], the running binary). A
//! place that a symlink puts elsewhere (`~/.config/warden ->
//! ~/dotfiles/warden`, a common dotfiles layout) is guarded under both
//! names: the file system is asked through the `Links` the engine was
//! given, once per call (once per working directory in a batch), and only
//! when a write outside a temp directory that names no place is judged.
//!
//! Names compare without regard to ASCII case (`.Warden.yaml` is
//! `.warden.yaml` on macOS' default file system), and a component with
//! `*`, `?` or `[...]` is a shell pattern that may name a guard file
//! (`rm ~/.hermes/*.yaml`), with a leading `.` matched only by a `.`, as
//! the shell matches.

use once_cell::unsync::OnceCell;

use super::{strip_dir, Around, Place};
use crate::path::slash_separated;
use crate::resolve::{self, Base, Links, Probe};
use crate::rules::access::How;
use crate::rules::targets::Target;

/// How a path stands to the guard's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// A directory that holds or could hold one: above one of the places
    /// (`~/.config`, `~/.hermes/profiles`), or named as a directory that
    /// holds one anywhere (`.hermes`, `.claude`, `.codex`).
    Dir,
    /// One of them, or inside a directory of them.
    File,
}

/// What a place's components count from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// A home directory, whoever's.
    Home,
    /// Hermes' home (`$HERMES_HOME`, else `~/.hermes`).
    HermesHome,
    /// `/`.
    Root,
    /// Any directory: the components end the path.
    Anywhere,
}

/// One place of the guard's files: where it counts from, its components
/// (`*` stands for any one, a profile's name), and whether everything
/// under it is the guard's too (a directory of them).
type Spot = (Anchor, &'static str, bool);

/// The project policy files, wherever a project is.
const PROJECT_FILES: &[&str] = &[
    ".warden.yaml",
    ".hermes/permissions.yaml",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
];

#[rustfmt::skip]
const SPOTS: &[Spot] = &[
    (Anchor::Home, ".config/warden", true),
    (Anchor::Home, ".local/state/warden", true),
    (Anchor::Home, ".cache/warden", true),
    (Anchor::Home, ".local/bin/warden", true),
    (Anchor::Root, "etc/warden", true),
    // Hermes' policy and hooks, in its home and in every profile.
    (Anchor::HermesHome, "custom-dangerous-patterns", true),
    (Anchor::HermesHome, "config.yaml", false),
    (Anchor::HermesHome, "cli-config.yaml", false),
    (Anchor::HermesHome, "shell-hooks-allowlist.json", false),
    (Anchor::HermesHome, "trust.json", false),
    (Anchor::HermesHome, "permissions.yaml", false),
    (Anchor::HermesHome, "custom-dangerous-patterns.yaml", false),
    (Anchor::HermesHome, ".custom-patterns-hash", false),
    (Anchor::HermesHome, "profiles/*/custom-dangerous-patterns", true),
    (Anchor::HermesHome, "profiles/*/config.yaml", false),
    (Anchor::HermesHome, "profiles/*/cli-config.yaml", false),
    (Anchor::HermesHome, "profiles/*/shell-hooks-allowlist.json", false),
    (Anchor::HermesHome, "profiles/*/trust.json", false),
    (Anchor::HermesHome, "profiles/*/permissions.yaml", false),
    (Anchor::HermesHome, "profiles/*/custom-dangerous-patterns.yaml", false),
    (Anchor::HermesHome, "profiles/*/.custom-patterns-hash", false),
    (Anchor::Anywhere, ".warden.yaml", false),
    (Anchor::Anywhere, ".hermes/permissions.yaml", false),
    (Anchor::Anywhere, ".claude/settings.json", false),
    (Anchor::Anywhere, ".claude/settings.local.json", false),
    (Anchor::Anywhere, ".codex/hooks.json", false),
    (Anchor::Anywhere, ".codex/config.toml", false),
];

/// The guard's places under other names, worked out once per call when
/// a write is first judged: (where a symlink puts a place, the place).
#[derive(Debug, Clone, Default)]
pub struct Aliases(OnceCell<Vec<(String, String)>>);

/// How `p` stands to the guard's files, if it does: the strongest of
/// every place, under its own name and its other names.
pub fn standing(p: &Place<'_>) -> Option<Standing> {
    *p.standing.get_or_init(|| worked_out(p))
}

fn worked_out(p: &Place<'_>) -> Option<Standing> {
    // Another name can only make a directory above a place the place
    // itself, and both are refused: the file system is asked only for a
    // path that stands to no place by its own name.
    let direct = lexical(p);
    if direct.is_some() || !may_be_moved_place(p.path) {
        return direct;
    }
    let around = p.around;
    let mut found = direct;
    for (there, place) in aliases(around) {
        let seen = match relate(p.path, there, true) {
            None => continue,
            // Above where a place really is: it holds the place.
            Some(Standing::Dir) => Some(Standing::Dir),
            // Inside it: judged by the place's own name, with the rest.
            Some(Standing::File) => {
                let rest: Vec<&str> = components(p.path).skip(components(there).count()).collect();
                let named = if rest.is_empty() {
                    place.clone()
                } else {
                    format!("{place}/{}", rest.join("/"))
                };
                lexical(&Place::new(&named, around))
            }
        };
        found = found.max(seen);
        if found == Some(Standing::File) {
            break;
        }
    }
    found
}

/// Whether a place of the guard's could really be at `path` under another
/// name: not a device or the kernel's files (`2>/dev/null`), and not a
/// temp directory's contents, which warden takes for temp files however
/// they are reached.
fn may_be_moved_place(path: &str) -> bool {
    let kernel = ["/dev", "/proc", "/sys"]
        .iter()
        .any(|k| crate::path::strip_dir(path, k).is_some());
    !kernel && crate::rules::targets::classify(path, None) != Target::Temp
}

/// How `p` stands to the places under the names they have.
fn lexical(p: &Place<'_>) -> Option<Standing> {
    let around = p.around;
    let flat = plain(p.path);
    let home = p.in_home();
    let hermes = hermes_part(p, home, flat);
    // Asked of every path a call writes: the places in the home begin with
    // a dot-directory, and those anywhere end with a dot-name in the last
    // two components, so most paths pass over them unasked.
    let dotted = |part: &str| part.starts_with('.') || !flat;
    let in_home = home.filter(|h| h.is_empty() || dotted(h));
    let (last, before) = components(p.path).rev_last_two();
    let anywhere = last.is_some_and(dotted) || before.is_some_and(dotted);
    let mut found: Option<Standing> = None;
    for &(anchor, place, tree) in SPOTS {
        // Only a profile's places hold a pattern (`profiles/*/...`).
        let place_flat = !place.starts_with("profiles/");
        let seen = match anchor {
            Anchor::Home => in_home.and_then(|h| relate_as(h, flat, place, place_flat, tree)),
            Anchor::HermesHome => hermes.and_then(|h| relate_as(h, flat, place, place_flat, tree)),
            Anchor::Root if p.path.starts_with('/') => {
                relate_as(p.path, flat, place, place_flat, tree)
            }
            Anchor::Root => None,
            Anchor::Anywhere if anywhere => ends_with(p.path, place),
            Anchor::Anywhere => None,
        };
        found = found.max(seen);
        if found == Some(Standing::File) {
            return found;
        }
    }
    // Hermes' home holds its files, and so does every directory above it.
    if hermes.is_some_and(|h| components(h).next().is_none()) {
        found = found.max(Some(Standing::Dir));
    }
    if !p.path.starts_with('/') {
        return found;
    }
    // The caller folds the places it was configured with.
    let configured = |place: &str, tree| {
        debug_assert!(plain(place) || place.contains(['*', '?', '[']), "{place}");
        relate_as(p.path, flat, place, true, tree)
    };
    if let Some(dir) = around.hermes_home {
        found = found.max(configured(dir, false).filter(|s| *s == Standing::Dir));
    }
    for place in around.guard_paths {
        found = found.max(configured(place, true));
    }
    if let Some(exe) = around.warden_exe {
        found = found.max(configured(exe, false));
    }
    found
}

/// The part of `p` inside Hermes' home: `$HERMES_HOME` as set or as
/// written, else `.hermes` in a home, in any case.
fn hermes_part<'p>(p: &Place<'p>, home: Option<&'p str>, flat: bool) -> Option<&'p str> {
    if let Some(dir) = p.around.hermes_home.filter(|_| p.path.starts_with('/')) {
        let rest = if flat {
            // Folded both: the text after the directory's, in any case.
            let dir = dir.trim_end_matches('/');
            let after = p.path.as_bytes().get(dir.len()).copied();
            let head = p.path.get(..dir.len());
            head.filter(|h| h.eq_ignore_ascii_case(dir) && matches!(after, None | Some(b'/')))
                .map(|_| p.path[dir.len()..].trim_start_matches('/'))
        } else {
            inside(p.path, dir)
        };
        if rest.is_some() {
            return rest;
        }
    }
    for prefix in ["$HERMES_HOME", "${HERMES_HOME}"] {
        if let Some(rest) = crate::path::strip_dir(p.path, prefix) {
            return Some(rest);
        }
    }
    let home = home?;
    if flat && !home.starts_with('.') {
        return None;
    }
    inside(home, ".hermes")
}

/// The rest of `path` inside `dir`, compared as [`relate`] compares.
fn inside<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    let mut rest = path;
    for name in components(dir) {
        loop {
            rest = rest.trim_start_matches('/');
            match rest.strip_prefix("./").or((rest == ".").then_some("")) {
                Some(after) => rest = after,
                None => break,
            }
        }
        let (word, after) = rest.split_once('/').unwrap_or((rest, ""));
        if word.is_empty() || !same(word, name) {
            return None;
        }
        rest = after;
    }
    Some(rest.trim_start_matches('/'))
}

/// The components of `path`, `.` and empty ones left out.
fn components(path: &str) -> impl Iterator<Item = &str> {
    slash_separated(path).filter(|c| !c.is_empty() && *c != ".")
}

/// How `path` stands to `place` (both from the same anchor): inside it
/// (or it, for a file), or above it.
fn relate(path: &str, place: &str, tree: bool) -> Option<Standing> {
    relate_as(path, plain(path), place, plain(place), tree)
}

/// [`relate`], told whether `path` and `place` are [`plain`].
fn relate_as(
    path: &str,
    path_plain: bool,
    place: &str,
    place_plain: bool,
    tree: bool,
) -> Option<Standing> {
    // Most paths and places are plain and folded: compared as text, in
    // any case, at a component's end.
    if path_plain && place_plain {
        let (a, b) = (path.trim_matches('/'), place.trim_matches('/'));
        let n = a.len().min(b.len());
        // Where the shorter ends, the longer must end a component: most
        // pairs fail there, before their text is compared.
        let standing = match (a.as_bytes().get(n), b.as_bytes().get(n)) {
            (None, None) => Some(Standing::File),
            (None, Some(b'/')) => Some(Standing::Dir),
            (None, Some(_)) if a.is_empty() => Some(Standing::Dir),
            (Some(b'/'), None) => tree.then_some(Standing::File),
            (Some(_), None) if b.is_empty() => tree.then_some(Standing::File),
            _ => None,
        }?;
        return a.as_bytes()[..n]
            .eq_ignore_ascii_case(&b.as_bytes()[..n])
            .then_some(standing);
    }
    relate_parts(path, place, tree)
}

/// [`relate`], component by component.
fn relate_parts(path: &str, place: &str, tree: bool) -> Option<Standing> {
    let (mut path, mut place) = (components(path), components(place));
    loop {
        match (path.next(), place.next()) {
            (Some(word), Some(name)) if same(word, name) => {}
            (Some(_), Some(_)) => return None,
            (None, Some(_)) => return Some(Standing::Dir),
            (None, None) => return Some(Standing::File),
            (Some(_), None) => return tree.then_some(Standing::File),
        }
    }
}

/// A path with no pattern, no `.` or `..` and no empty component, whose
/// text compares as its components do.
fn plain(path: &str) -> bool {
    let bytes = path.as_bytes();
    let mut start = true;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'*' | b'?' | b'[' => return false,
            b'/' if start && i > 0 => return false,
            b'.' if start => {
                let rest = &bytes[i..];
                if rest == b"."
                    || rest == b".."
                    || rest.starts_with(b"./")
                    || rest.starts_with(b"../")
                {
                    return false;
                }
            }
            _ => {}
        }
        start = b == b'/';
    }
    true
}

/// How a path stands to a place that may be in any directory (one or two
/// components): it ends with the place, or with the directory the place
/// is in (`x/.claude`).
fn ends_with(path: &str, place: &str) -> Option<Standing> {
    let (last, before) = components(path).rev_last_two();
    let last = last?;
    match place.split_once('/') {
        None => same(last, place).then_some(Standing::File),
        Some((dir, name)) => {
            if before.is_some_and(|b| same(b, dir)) && same(last, name) {
                Some(Standing::File)
            } else {
                same(last, dir).then_some(Standing::Dir)
            }
        }
    }
}

/// The last two items of an iterator, last first.
trait LastTwo<'a> {
    fn rev_last_two(self) -> (Option<&'a str>, Option<&'a str>);
}

impl<'a, I: Iterator<Item = &'a str>> LastTwo<'a> for I {
    fn rev_last_two(self) -> (Option<&'a str>, Option<&'a str>) {
        self.fold((None, None), |(last, _), word| (Some(word), last))
    }
}

/// Whether the component `word` of a path can name `name`, a component of
/// a place (`*`: any): the same letters in any ASCII case, or a shell
/// pattern that matches it.
fn same(word: &str, name: &str) -> bool {
    name == "*"
        || word.eq_ignore_ascii_case(name)
        || word.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
            && glob(word.as_bytes(), name.as_bytes())
}

/// A shell pattern (`*`, `?`, `[...]`, `[!...]`) against a name, in any
/// ASCII case; a leading `.` is matched only by a `.`.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    if name.first() == Some(&b'.') && pattern.first() != Some(&b'.') {
        return false;
    }
    // The last `*` seen and where the name stood then: on a mismatch the
    // star takes one more byte, as a backtracking matcher would.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        let step = match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
                continue;
            }
            Some(b'?') => Some(p + 1),
            Some(b'[') => class(pattern, p, name[n]),
            Some(c) => c.eq_ignore_ascii_case(&name[n]).then_some(p + 1),
            None => None,
        };
        match (step, star) {
            (Some(next), _) => {
                p = next;
                n += 1;
            }
            (None, Some((sp, sn))) => {
                star = Some((sp, sn + 1));
                p = sp + 1;
                n = sn + 1;
            }
            (None, None) => return false,
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// A bracket expression at `pattern[at]` against one byte: where the
/// pattern goes on when it matches. An unclosed `[` is a plain `[`.
fn class(pattern: &[u8], at: usize, byte: u8) -> Option<usize> {
    let body = &pattern[at + 1..];
    let negated = matches!(body.first(), Some(b'!' | b'^'));
    let start = usize::from(negated);
    // `]` first in the set is a member, not the end.
    let Some(len) = body
        .iter()
        .skip(start + 1)
        .position(|&c| c == b']')
        .map(|i| i + start + 1)
    else {
        return byte.eq_ignore_ascii_case(&b'[').then_some(at + 1);
    };
    let set = &body[start..len];
    let lower = byte.to_ascii_lowercase();
    let mut hit = false;
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == b'-' {
            let (a, b) = (set[i].to_ascii_lowercase(), set[i + 2].to_ascii_lowercase());
            hit |= (a..=b).contains(&lower) || (set[i]..=set[i + 2]).contains(&byte);
            i += 3;
        } else {
            hit |= set[i].eq_ignore_ascii_case(&byte);
            i += 1;
        }
    }
    (hit != negated).then_some(at + 1 + len + 1)
}

pub(super) fn is_guard_file(p: &Place<'_>) -> bool {
    if standing(p) != Some(Standing::File) {
        return false;
    }
    // A pattern over `/`, a system directory or the home (`rm -rf /etc/*`)
    // names the guard's files among everything else there: the rules for
    // wiping those judge it, by their own name.
    let Some((dir, last)) = p.path.trim_end_matches('/').rsplit_once('/') else {
        return true;
    };
    let dir = if dir.is_empty() { "/" } else { dir };
    let parent = Place::new(dir, p.around);
    !(last.contains(['*', '?', '['])
        && system_or_home(&parent)
        && standing(&parent) != Some(Standing::File))
}

/// A directory above the guard's files, named as one that holds them, or
/// holding a project policy file on disk, when the access deletes, moves,
/// re-permissions, replaces or fills it. Creating an empty one changes
/// nothing the guard reads (what is written into it later is judged then),
/// and `/`, the system directories and the home are judged by their own
/// rules, except when something unpacks there.
pub(super) fn is_guard_dir(p: &Place<'_>) -> bool {
    let how = p.how;
    if matches!(how, Some(How::Touch | How::Read | How::Unknown)) {
        return false;
    }
    let produced = how == Some(How::Produce);
    match standing(p) {
        Some(Standing::File) => false,
        Some(Standing::Dir) => produced || !system_or_home(p),
        None => {
            matches!(
                how,
                Some(How::Delete | How::Chmod | How::Produce | How::Link)
            ) && p.around.links.is_some_and(|links| holds(p.path, links))
        }
    }
}

/// `/`, a system directory, the home or a directory above it.
fn system_or_home(p: &Place<'_>) -> bool {
    p.in_home() == Some("")
        || p.around
            .home
            .is_some_and(|home| strip_dir(home, p.path).is_some())
        || matches!(
            crate::rules::targets::classify(p.path, None),
            Target::Root | Target::System | Target::Home
        )
}

/// Whether the directory `dir` (absolute, resolved) holds a project
/// policy file now (`dir/.warden.yaml`, `dir/.claude/settings.json`, ...),
/// as the file system says: what a deletion or an unpacking there would
/// take or replace. A guard file deeper down is not looked for: warden
/// reads no directory listings.
pub fn holds(dir: &str, links: &dyn Links) -> bool {
    if !dir.starts_with('/') {
        return false;
    }
    let dir = dir.trim_end_matches('/');
    PROJECT_FILES.iter().any(|file| {
        let path = joined(dir, file);
        match Walker::default().walk(&path, dir.len(), links) {
            Walk::Exists => true,
            Walk::Missing | Walk::Unknown => false,
            Walk::Crosses => {
                let r = resolve::resolve(&path, Base::default(), Some(links));
                r.problem.is_none()
                    && !matches!(links.probe(&r.path), Probe::Missing | Probe::Denied(_))
            }
        }
    })
}

/// How walking a path's components ended.
enum Walk {
    /// Each component is there, none a link.
    Exists,
    /// A component is missing: nothing below it can be a link either.
    Missing,
    /// A component is a symlink or a mount point.
    Crosses,
    /// The file system would not say.
    Unknown,
}

/// What the last walk found: the path, how much of it is there (up to a
/// component's end), and where a missing component ended it.
#[derive(Default)]
struct Walker<'p> {
    last: &'p str,
    present: usize,
    missing: Option<usize>,
}

impl<'p> Walker<'p> {
    /// Probes each directory of `path` (absolute) after its first `from`
    /// bytes, and the path itself, in order. What it shares with the last
    /// path walked is not asked again: places come grouped by directory.
    fn walk(&mut self, path: &'p str, from: usize, links: &dyn Links) -> Walk {
        let shared = shared_dirs(path, self.last);
        if self.missing.is_some_and(|m| m <= shared) {
            return Walk::Missing;
        }
        let start = shared.min(self.present).max(from);
        self.last = path;
        self.present = start;
        self.missing = None;
        let mut at = start;
        while at < path.len() {
            let end = path
                .get(at + 1..)
                .and_then(|rest| rest.find('/'))
                .map_or(path.len(), |i| at + 1 + i);
            match links.probe_once(&path[..end]) {
                Probe::Present => self.present = end,
                Probe::Missing => {
                    self.missing = Some(end);
                    return Walk::Missing;
                }
                Probe::Link(_) | Probe::Mount(_) => return Walk::Crosses,
                Probe::Denied(_) => return Walk::Unknown,
            }
            at = end;
        }
        Walk::Exists
    }
}

/// How many leading bytes `a` and `b` share, up to the end of a component
/// both have.
fn shared_dirs(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let ends_here = |s: &[u8]| s.len() == same || s[same] == b'/';
    if ends_here(a) && ends_here(b) {
        return same;
    }
    a[..same].iter().rposition(|&c| c == b'/').unwrap_or(0)
}

/// The places under the names symlinks give them, worked out on first use.
fn aliases<'a>(around: &'a Around<'_>) -> &'a [(String, String)] {
    let Some(links) = around.links else {
        return &[];
    };
    around
        .guard_aliases
        .0
        .get_or_init(|| resolve_places(around, links))
}

/// `dir/name`, made without the formatting machinery: a call that writes
/// makes some forty of these.
fn joined(dir: &str, name: &str) -> String {
    let mut out = String::with_capacity(dir.len() + 1 + name.len());
    out.push_str(dir);
    out.push('/');
    out.push_str(name);
    out
}

/// Each place this machine has (in the home, Hermes' home, the project,
/// the configured paths and the binary) that a symlink puts elsewhere.
/// Most machines have none: each directory on the way is probed once,
/// and only a place that crosses a link is resolved.
fn resolve_places(around: &Around<'_>, links: &dyn Links) -> Vec<(String, String)> {
    // What the places are made of: a batch's calls mostly share it, and
    // the file system remembers the answer by it.
    let mut facts: Vec<&str> = [
        around.home,
        around.hermes_home,
        around.project.as_deref(),
        around.dir.as_deref(),
        around.warden_exe,
    ]
    .iter()
    .map(|f| f.unwrap_or(""))
    .collect();
    facts.extend(around.guard_paths.iter().map(String::as_str));
    links.places_moved(&facts, &|| moved(&places(around), links))
}

/// Every place of the guard's this machine has, absolute.
fn places(around: &Around<'_>) -> Vec<String> {
    let mut places: Vec<String> = Vec::new();
    let home = around.home.map(|h| h.trim_end_matches('/'));
    let hermes = around
        .hermes_home
        .map(|h| h.trim_end_matches('/').to_string())
        .or_else(|| home.map(|h| joined(h, ".hermes")));
    places.extend(hermes.clone());
    for &(anchor, place, _) in SPOTS.iter().filter(|(_, p, _)| !p.contains('*')) {
        let from = match anchor {
            Anchor::Home => home,
            Anchor::HermesHome => hermes.as_deref(),
            Anchor::Root => Some(""),
            Anchor::Anywhere => None,
        };
        places.extend(from.map(|from| joined(from, place)));
    }
    // The project's policy files, and the home's (`~/.claude/settings.json`),
    // one directory at a time.
    let mut dirs = vec![around.project.as_deref(), around.dir.as_deref(), home];
    dirs.dedup();
    for dir in dirs.into_iter().flatten() {
        let dir = dir.trim_end_matches('/');
        places.extend(PROJECT_FILES.iter().map(|file| joined(dir, file)));
    }
    places.extend(around.guard_paths.iter().cloned());
    places.extend(around.warden_exe.map(str::to_string));
    places.retain(|p| p.starts_with('/'));
    places
}

/// Those of `places` a symlink puts elsewhere, and where.
fn moved(places: &[String], links: &dyn Links) -> Vec<(String, String)> {
    let mut walker = Walker::default();
    let mut crossing: Vec<&String> = Vec::new();
    for place in places {
        if let Walk::Crosses = walker.walk(place, 0, links) {
            if !crossing.contains(&place) {
                crossing.push(place);
            }
        }
    }
    crossing
        .into_iter()
        .filter_map(|place| {
            let r = resolve::resolve(place, Base::default(), Some(links));
            (r.problem.is_none() && r.path != *place).then(|| (r.path, place.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests;
