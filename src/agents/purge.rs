//! What `warden uninstall --purge` removes besides the hooks: warden's own directories (config, cache, state with the ledger and the audit log), an audit log kept elsewhere, and the backups warden made of the agents' files.

use std::fs;
use std::path::{Path, PathBuf};

use super::{files, Homes, Kind, Line, Report};
use crate::payload::Agent;

/// Every file and directory of warden's that exists here, in a stable
/// order: `own` (warden's directories and an audit log's files, as the
/// caller knows them) and the backups (`*.warden-backup-*`) beside the
/// agents' configuration files. A directory stands for all it holds.
pub fn leftovers(homes: &Homes, own: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = own
        .iter()
        .filter(|p| fs::symlink_metadata(p).is_ok())
        .cloned()
        .collect();
    for dir in Agent::ALL
        .into_iter()
        .flat_map(|agent| homes.edited_dirs(agent))
    {
        found.extend(backups_in(&dir));
    }
    found.sort();
    found.dedup();
    // A file inside a directory already listed goes with it.
    let dirs: Vec<PathBuf> = found
        .iter()
        .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .cloned()
        .collect();
    found.retain(|p| !dirs.iter().any(|d| p != d && p.starts_with(d)));
    found
}

/// warden's backups among the files directly in `dir`.
fn backups_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| files::is_backup(&e.file_name().to_string_lossy()))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .collect()
}

/// Removes each of `paths` (a directory with all it holds; a symlink, not
/// what it points to), one line each.
pub fn remove(paths: &[PathBuf]) -> Report {
    let mut report = Report::default();
    for path in paths {
        let is_dir = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
        let removed = if is_dir {
            fs::remove_dir_all(path)
        } else {
            fs::remove_file(path)
        };
        let (kind, text) = match removed {
            Ok(()) => (Kind::Changed, format!("removed {}", path.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => (
                Kind::Failed,
                format!("could not remove {}: {err}", path.display()),
            ),
        };
        report.lines.push(Line {
            agent: None,
            kind,
            text,
        });
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warden-purge-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn leftovers_are_warden_s_own_and_its_backups_only() {
        let root = temp("list");
        let claude = root.join(".claude");
        let cache = root.join(".cache/warden");
        fs::create_dir_all(&cache).unwrap();
        fs::write(cache.join("policy-00.bin"), "x").unwrap();
        // A backup beside every agent's settings, so a new agent cannot be
        // left out of the purge.
        let homes = Homes {
            hermes_home: Some(root.join(".hermes")),
            claude_dir: Some(claude.clone()),
            codex_home: Some(root.join(".codex")),
            gemini_dir: Some(root.join(".gemini")),
            copilot_home: Some(root.join(".copilot")),
            opencode_dir: Some(root.join(".config/opencode")),
            ..Homes::default()
        };
        let mut want = vec![cache.clone()];
        let dirs: Vec<PathBuf> = Agent::ALL
            .iter()
            .flat_map(|a| homes.edited_dirs(*a))
            .collect();
        for dir in &dirs {
            fs::create_dir_all(dir).unwrap();
            fs::write(dir.join("settings.json"), "{}").unwrap();
            let backup = dir.join("settings.json.warden-backup-20261127T080000Z");
            fs::write(&backup, "{}").unwrap();
            want.push(backup);
        }
        want.sort();
        let log = cache.join("audit.jsonl");
        fs::write(&log, "").unwrap();
        let own = [cache.clone(), log, root.join(".local/state/warden")];
        let found = leftovers(&homes, &own);
        assert_eq!(found, want);
        let report = remove(&found);
        assert!(!report.failed(), "{:?}", report.lines);
        assert_eq!(report.lines.len(), 1 + dirs.len());
        assert!(!cache.exists());
        assert!(claude.join("settings.json").exists());
        assert!(leftovers(&homes, &own).is_empty());
        fs::remove_dir_all(&root).unwrap();
    }
}
