//! Each policy source's standing: trusted (all it says applies) or tighten-only (only what makes the guard stricter), judged from who owns it, who else could write where it lies, and whether the person trusted it.
//!
//! A file an agent could have written must not loosen the guard that
//! watches the agent. So a project's `.warden.yaml` or
//! `.hermes/permissions.yaml` (which arrive with `git clone`), a managed
//! directory or `WARDEN_CONFIG` file that an environment variable points at,
//! and a default file that a variable moved away from all contribute only
//! their deny and ask rules and the settings stricter than the person's,
//! unless:
//!
//! * a project file is owned by the person (or root), lies where no one else
//!   can change it, and the person trusted its exact bytes from a terminal
//!   (`warden project trust`, recorded in [`trusted`](super::trusted));
//! * a managed directory or `WARDEN_CONFIG` file, and every directory above
//!   it, is owned by root and writable by no one else, and either it is the
//!   default `/etc/warden` or the person is not root (an agent running as
//!   root could have made any root-owned directory).
//!
//! What "contributes only what tightens" means for rules is the engine's
//! (a tighten-only rule never enters the trusted rules' contest, it can only
//! make its outcome stricter); for settings it is [`tighten`] here.

use std::path::{Path, PathBuf};

use crate::config::model::{
    Mode, OnError, RuleSpec, Settings, Standing, Unattended, DEFAULT_PRIORITY,
};
use crate::verdict::Decision;

/// Where the administrator's policy lives.
pub const DEFAULT_MANAGED_DIR: &str = "/etc/warden";

/// What is known about a source's standing before its bytes are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Claim {
    Trusted,
    TightenOnly(String),
    /// A project file the person trusted when its bytes hashed to this
    /// (hex SHA-256): trusted while they still do.
    Vouched(String),
}

impl Claim {
    /// The standing of a source whose bytes hash to `sha256`.
    pub(crate) fn settle(&self, path: &str, sha256: &str) -> Standing {
        match self {
            Claim::Trusted => Standing::Trusted,
            Claim::TightenOnly(why) => Standing::TightenOnly(why.clone()),
            Claim::Vouched(sha) if sha == sha256 => Standing::Trusted,
            Claim::Vouched(_) => Standing::TightenOnly(format!(
                "it changed since you trusted it; `warden project trust {path}` from a terminal trusts it as it is now"
            )),
        }
    }

    /// How the claim enters the cache key: a change of standing must not
    /// be answered from a policy compiled under another one. The reason a
    /// file only tightens is only shown, so a short sum of it will do (it
    /// is hashed on every call).
    pub(crate) fn key(&self) -> String {
        match self {
            Claim::Trusted => "T".into(),
            Claim::TightenOnly(why) => format!("t{:016x}", fnv1a(why.as_bytes())),
            Claim::Vouched(sha) => format!("v{sha}"),
        }
    }
}

/// FNV-1a, 64 bits: a cheap sum that tells two texts apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |sum, &b| {
        (sum ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The user warden runs as: the person whose guard this is.
#[cfg(unix)]
pub fn person() -> u32 {
    extern "C" {
        fn geteuid() -> u32;
    }
    // SAFETY: geteuid takes no arguments, cannot fail and touches no memory.
    unsafe { geteuid() }
}

#[cfg(not(unix))]
pub fn person() -> u32 {
    0
}

const ROOT: u32 = 0;

/// What the file system says about one path, as the checks need it.
struct Node {
    uid: u32,
    mode: u32,
}

#[cfg(unix)]
fn node(meta: &std::fs::Metadata) -> Node {
    use std::os::unix::fs::MetadataExt;
    Node {
        uid: meta.uid(),
        mode: meta.mode(),
    }
}

#[cfg(not(unix))]
fn node(_: &std::fs::Metadata) -> Node {
    // No owners to compare: nothing passes for root-only.
    Node {
        uid: u32::MAX,
        mode: 0o777,
    }
}

const OTHERS_WRITE: u32 = 0o002;
const GROUP_WRITE: u32 = 0o020;
const STICKY: u32 = 0o1000;

fn owner_is(node: &Node, person: u32) -> bool {
    node.uid == person || node.uid == ROOT
}

/// Why someone other than the person or root could have written the file
/// at `path`, or could change it now: `None` when no one could.
///
/// The file (and what a symlink in its place leads to) must be owned by the
/// person or root and not writable by everyone; so must every directory
/// above it, except that a world-writable directory with the sticky bit
/// (`/tmp`) is fine, since no one else can rename or remove what the person
/// owns in it. Group write is not looked at: with a group of one's own it
/// is the usual default.
pub(crate) fn foreign(path: &Path, person: u32) -> Option<String> {
    let shown = path.display();
    for meta in [std::fs::symlink_metadata(path), std::fs::metadata(path)] {
        let node = match meta {
            Ok(meta) => node(&meta),
            Err(err) => return Some(format!("{shown} cannot be looked at ({err})")),
        };
        if !owner_is(&node, person) {
            return Some(format!(
                "{shown} is owned by uid {}, neither you nor root",
                node.uid
            ));
        }
        if node.mode & OTHERS_WRITE != 0 {
            return Some(format!(
                "anyone can write {shown} (mode {:o})",
                node.mode & 0o7777
            ));
        }
    }
    let dir = path.parent().unwrap_or(Path::new("/"));
    foreign_dirs(dir, person)
}

/// [`foreign`] for the directory `dir` and every one above it (the nearest
/// existing one, for a directory not made yet), symlinks resolved.
pub(crate) fn foreign_dirs(dir: &Path, person: u32) -> Option<String> {
    let existing = dir.ancestors().find(|d| d.exists())?;
    match std::fs::canonicalize(existing) {
        Ok(real) => foreign_chain(&real, person),
        Err(err) => Some(format!("{} cannot be resolved ({err})", existing.display())),
    }
}

/// [`foreign_dirs`] for `real`, an existing directory with its symlinks
/// resolved, and every one above it.
pub(crate) fn foreign_chain(real: &Path, person: u32) -> Option<String> {
    for d in real.ancestors() {
        let node = match std::fs::metadata(d) {
            Ok(meta) => node(&meta),
            Err(err) => return Some(format!("{} cannot be looked at ({err})", d.display())),
        };
        if !owner_is(&node, person) {
            return Some(format!(
                "it lies in {}, owned by uid {}, neither you nor root",
                d.display(),
                node.uid
            ));
        }
        if node.mode & OTHERS_WRITE != 0 && node.mode & STICKY == 0 {
            return Some(format!(
                "it lies in {}, which anyone can write (world-writable without the sticky bit)",
                d.display()
            ));
        }
    }
    None
}

/// Why the file at `path` could have been written by someone other than
/// root: it, or a directory above it, is not owned by root or is writable
/// by its group or by everyone. `None` when only root could have.
pub(crate) fn not_root_only(path: &Path) -> Option<String> {
    let real = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(err) => return Some(format!("{} cannot be resolved ({err})", path.display())),
    };
    for p in real.ancestors() {
        let node = match std::fs::metadata(p) {
            Ok(meta) => node(&meta),
            Err(err) => return Some(format!("{} cannot be looked at ({err})", p.display())),
        };
        if node.uid != ROOT {
            return Some(format!(
                "{} is owned by uid {}, not root",
                p.display(),
                node.uid
            ));
        }
        if node.mode & (GROUP_WRITE | OTHERS_WRITE) != 0 {
            return Some(format!(
                "{} can be written by others than root (mode {:o})",
                p.display(),
                node.mode & 0o7777
            ));
        }
    }
    None
}

/// The claim of a file in a managed directory, or of the `WARDEN_CONFIG`
/// file (`named_by`: the variable that chose its place, when one did).
pub(crate) fn root_only_claim(path: &Path, named_by: Option<&str>, person: u32) -> Claim {
    if let Some(why) = not_root_only(path) {
        return Claim::TightenOnly(format!(
            "{why}: someone other than an administrator could have written it, so only its deny and ask rules and stricter settings apply"
        ));
    }
    match named_by {
        Some(variable) if person == ROOT => Claim::TightenOnly(format!(
            "{variable} chose it and you are root: an agent running as root could have made it, so only its deny and ask rules and stricter settings apply"
        )),
        _ => Claim::Trusted,
    }
}

/// The claim of a project file: tighten-only unless the person owns it,
/// no one else can change it, and `trusted` (the hash the person trusted
/// for it, if any) vouches for it.
pub(crate) fn project_claim(path: &Path, person: u32, trusted: Option<String>) -> Claim {
    if let Some(why) = foreign(path, person) {
        return Claim::TightenOnly(format!(
            "{why}; warden will not trust it, so only its deny and ask rules and stricter settings apply"
        ));
    }
    match trusted {
        Some(sha) => Claim::Vouched(sha),
        None => Claim::TightenOnly(format!(
            "a project file you have not trusted; `warden project trust {}` from a terminal lets its allow rules and settings apply",
            path.display()
        )),
    }
}

/// Merges a tighten-only source's settings `s` into `merged` (the trusted
/// sources' merge): only what makes the guard stricter is taken. Returns
/// what is withheld, in the file's own words.
pub(crate) fn tighten(merged: &mut Settings, s: &Settings) -> Vec<String> {
    let mut withheld = Vec::new();
    if let Some(mode) = s.mode {
        let trusted = merged.mode.unwrap_or(Mode::Autonomous);
        if !trusted.at_least_as_strict_as(mode) && !merged.tightening_modes.contains(&mode) {
            merged.tightening_modes.push(mode);
        }
        if !mode.at_least_as_strict_as(trusted) {
            withheld.push(format!(
                "mode: {} where it is looser than yours ({})",
                format!("{mode:?}").to_lowercase(),
                format!("{trusted:?}").to_lowercase()
            ));
        }
    }
    if let Some(on_error) = s.on_error {
        let rank = |o: OnError| match o {
            OnError::Allow => 0,
            OnError::Ask => 1,
            OnError::Block => 2,
        };
        let current = merged.on_error.unwrap_or(OnError::Block);
        if rank(on_error) > rank(current) {
            merged.on_error = Some(on_error);
        } else if on_error != current {
            withheld.push(format!(
                "on_error: {}",
                format!("{on_error:?}").to_lowercase()
            ));
        }
    }
    match s.approvals_off {
        Some(false) => merged.approvals_off = Some(false),
        Some(true) => withheld.push("approvals.mode: off (yolo)".into()),
        None => {}
    }
    for (theirs, ours, name) in [
        (s.cron_mode, &mut merged.cron_mode, "cron_mode"),
        (
            s.single_query_mode,
            &mut merged.single_query_mode,
            "single_query_mode",
        ),
        (
            s.unattended_mode,
            &mut merged.unattended_mode,
            "unattended_mode",
        ),
    ] {
        match theirs {
            Some(Unattended::Deny) => *ours = Some(Unattended::Deny),
            Some(Unattended::Approve) => withheld.push(format!("{name}: approve")),
            None => {}
        }
    }
    if let Some(risk) = s.auto_approve_up_to {
        match merged.auto_approve_up_to {
            Some(current) if current <= risk => {
                if current < risk {
                    withheld.push(format!(
                        "auto_approve_up_to: {}",
                        format!("{risk:?}").to_lowercase()
                    ));
                }
            }
            _ => merged.auto_approve_up_to = Some(risk),
        }
    }
    if !s.exempt_categories.is_empty() {
        withheld.push(format!("exempt: {}", s.exempt_categories.join(", ")));
    }
    if s.audit.is_some() {
        withheld.push("audit (where your commands are logged)".into());
    }
    withheld
}

/// What a tighten-only source's rules would loosen: every allow rule, and
/// the priorities of ask rules set above the default (a tighten-only rule
/// never outranks another, so they do nothing).
pub(crate) fn withheld_rules(rules: &[RuleSpec]) -> Vec<String> {
    let at = |rule: &RuleSpec| {
        rule.line
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    for rule in rules.iter().filter(|r| !r.dangerous) {
        match rule.decision {
            Decision::Allow => out.push(format!(
                "allow rule {} {}{}",
                rule.id,
                rule.describe(),
                at(rule)
            )),
            Decision::Ask if rule.priority > DEFAULT_PRIORITY => out.push(format!(
                "priority {} of ask rule {}{}",
                rule.priority,
                rule.id,
                at(rule)
            )),
            _ => {}
        }
    }
    out
}

/// The directory a project file belongs to (the one holding `.warden.yaml`,
/// or the one holding `.hermes/`), with symlinks resolved, and the file's
/// path below it: what a trust record names.
pub(crate) fn project_identity(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let (root, rel) = if dir.file_name().is_some_and(|n| n == ".hermes") {
        (dir.parent()?, Path::new(".hermes").join(path.file_name()?))
    } else {
        (dir, PathBuf::from(path.file_name()?))
    };
    let root = std::fs::canonicalize(root).ok()?;
    Some(root.join(rel))
}

/// Whether `path` names a project policy file.
pub(crate) fn is_project_file(path: &Path) -> bool {
    match path.file_name().and_then(|n| n.to_str()) {
        Some(".warden.yaml") => true,
        Some("permissions.yaml") => path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".hermes"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::Risk;

    #[test]
    fn tightening_settings_apply_and_loosening_ones_are_withheld() {
        let mut merged = Settings {
            mode: Some(Mode::Cautious),
            on_error: Some(OnError::Ask),
            auto_approve_up_to: Some(Risk::Medium),
            cron_mode: Some(Unattended::Approve),
            approvals_off: Some(true),
            ..Settings::default()
        };
        let strict = Settings {
            mode: Some(Mode::Plan),
            on_error: Some(OnError::Block),
            auto_approve_up_to: Some(Risk::Low),
            cron_mode: Some(Unattended::Deny),
            approvals_off: Some(false),
            ..Settings::default()
        };
        let withheld = tighten(&mut merged, &strict);
        assert_eq!(merged.on_error, Some(OnError::Block));
        assert_eq!(merged.auto_approve_up_to, Some(Risk::Low));
        assert_eq!(merged.cron_mode, Some(Unattended::Deny));
        assert_eq!(merged.approvals_off, Some(false));
        assert_eq!(merged.mode, Some(Mode::Cautious));
        assert_eq!(merged.tightening_modes, vec![Mode::Plan]);
        assert!(withheld.is_empty(), "{withheld:?}");
        // Supervised asks where plan lets a read run: that much is withheld.
        let mut supervised = Settings {
            mode: Some(Mode::Supervised),
            ..Settings::default()
        };
        let plan = Settings {
            mode: Some(Mode::Plan),
            ..Settings::default()
        };
        assert_eq!(
            tighten(&mut supervised, &plan),
            vec!["mode: plan where it is looser than yours (supervised)"]
        );
        assert_eq!(supervised.tightening_modes, vec![Mode::Plan]);

        let mut merged = Settings::default();
        let loose = Settings {
            mode: Some(Mode::Autonomous),
            on_error: Some(OnError::Allow),
            approvals_off: Some(true),
            unattended_mode: Some(Unattended::Approve),
            exempt_categories: vec!["recursive delete".into()],
            ..Settings::default()
        };
        let withheld = tighten(&mut merged, &loose);
        assert_eq!(merged.on_error, None);
        assert_eq!(merged.approvals_off, None);
        assert_eq!(merged.unattended_mode, None);
        assert!(merged.exempt_categories.is_empty());
        for needle in [
            "on_error: allow",
            "approvals.mode: off",
            "unattended_mode: approve",
            "exempt: recursive delete",
        ] {
            assert!(
                withheld.iter().any(|w| w.contains(needle)),
                "{needle}: {withheld:?}"
            );
        }
        // A threshold where the trusted files set none only tightens.
        let mut merged = Settings::default();
        let threshold = Settings {
            auto_approve_up_to: Some(Risk::High),
            ..Settings::default()
        };
        assert!(tighten(&mut merged, &threshold).is_empty());
        assert_eq!(merged.auto_approve_up_to, Some(Risk::High));
    }

    #[test]
    fn claims_key_apart() {
        let keys = [
            Claim::Trusted.key(),
            Claim::TightenOnly("a".into()).key(),
            Claim::TightenOnly("b".into()).key(),
            Claim::Vouched("a".into()).key(),
        ];
        for (i, a) in keys.iter().enumerate() {
            assert!(keys[i + 1..].iter().all(|b| a != b), "{keys:?}");
        }
    }

    #[test]
    fn a_vouched_claim_holds_only_for_the_bytes_trusted() {
        let claim = Claim::Vouched("ab".into());
        assert_eq!(claim.settle("/p/.warden.yaml", "ab"), Standing::Trusted);
        assert!(!claim.settle("/p/.warden.yaml", "cd").is_trusted());
        assert_ne!(claim.key(), Claim::Vouched("cd".into()).key());
    }

    #[test]
    fn project_file_names() {
        assert!(is_project_file(Path::new("/p/.warden.yaml")));
        assert!(is_project_file(Path::new("/p/.hermes/permissions.yaml")));
        assert!(!is_project_file(Path::new("/p/permissions.yaml")));
        assert!(!is_project_file(Path::new("/p/warden.yaml")));
    }

    #[cfg(unix)]
    #[test]
    fn ownership_and_world_writable_directories() {
        use std::os::unix::fs::PermissionsExt;
        let root = std::env::temp_dir().join(format!("warden-standing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let open = root.join("open");
        std::fs::create_dir_all(&open).unwrap();
        let file = open.join(".warden.yaml");
        std::fs::write(&file, "rules: {}\n").unwrap();
        let me = person();
        // The temp directory is world-writable with the sticky bit: fine.
        assert_eq!(foreign(&file, me), None);
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        let why = foreign(&file, me).unwrap();
        assert!(why.contains("anyone can write"), "{why}");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!(foreign(&file, me), None);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(foreign(&file, me).unwrap().contains("anyone can write"));
        // To someone else, a file the tests own is another user's (as
        // root, everyone's files are root's own and pass).
        if me != ROOT {
            let why = foreign(&file, me.wrapping_add(1)).unwrap();
            assert!(why.contains("neither you nor root"), "{why}");
        }
        // A temp directory is never root-only.
        assert!(not_root_only(&file).is_some());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
