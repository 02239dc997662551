//! The project files the person trusted: each one's path and the SHA-256 of its bytes, kept in `trusted-projects.json` in warden's state directory and written only by `warden project trust` from a terminal.
//!
//! A record names the file by its project directory with symlinks resolved
//! (`/home/me/app/.warden.yaml`), so a link from another project to a
//! trusted file is not trusted with it. Any change to the file's bytes ends
//! the trust: the file's allow rules and settings stop applying until it is
//! trusted again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::cache::write_atomic;
use crate::config::ledger::sha256_hex;
use crate::config::model::{Settings, SourceKind};
use crate::config::sources::MAX_SOURCE_BYTES;
use crate::config::standing::{self, foreign, project_identity};
use crate::config::warden_file;
use crate::error::{Error, Result};

/// The store's file name in the state directory.
pub const FILE: &str = "trusted-projects.json";

const VERSION: u32 = 1;

/// The store as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Store {
    pub version: u32,
    pub files: Vec<Record>,
}

/// One trusted file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The file, its project directory's symlinks resolved.
    pub path: String,
    /// Hex SHA-256 of the bytes that were trusted.
    pub sha256: String,
}

fn state_error(path: &Path, message: String) -> Error {
    Error::State {
        path: path.display().to_string(),
        message,
    }
}

/// The store at `path`; empty when there is none.
pub fn read(path: &Path) -> Result<Store> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Store::default()),
        Err(err) => return Err(state_error(path, format!("cannot be read: {err}"))),
    };
    serde_json::from_slice(&bytes)
        .map_err(|e| state_error(path, format!("is not a trust store warden wrote: {e}")))
}

impl Store {
    /// The hash the person trusted for the file at `identity`.
    pub(crate) fn lookup(&self, identity: &Path) -> Option<String> {
        let identity = crate::path::text(identity);
        self.files
            .iter()
            .find(|r| r.path == identity)
            .map(|r| r.sha256.clone())
    }

    fn save(&mut self, path: &Path) -> Result<()> {
        self.version = VERSION;
        self.files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| state_error(path, format!("cannot encode: {e}")))?;
        text.push('\n');
        write_atomic(path, text.as_bytes(), true)
    }
}

/// What trusting a file did.
#[derive(Debug, Clone)]
pub struct Trusted {
    pub record: Record,
    /// It replaced a record of the same file with other bytes.
    pub replaced: bool,
    /// What now applies that did not: its allow rules and loosening settings.
    pub loosens: Vec<String>,
}

/// Records `file` (a `.warden.yaml` or `.hermes/permissions.yaml`) as
/// trusted in the store at `store`, as its bytes are now. Refused for a
/// file that is not a project file, that someone other than the person or
/// root could have written, or that does not parse.
pub fn trust(store: &Path, file: &Path) -> Result<Trusted> {
    let refuse = |message: String| state_error(file, message);
    if !standing::is_project_file(file) {
        return Err(refuse(
            "is not a project policy file (.warden.yaml or .hermes/permissions.yaml); nothing was trusted".into(),
        ));
    }
    let meta = std::fs::metadata(file).map_err(|e| refuse(format!("cannot be read: {e}")))?;
    if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
        return Err(refuse(format!(
            "is not a regular file of at most {MAX_SOURCE_BYTES} bytes; nothing was trusted"
        )));
    }
    if let Some(why) = foreign(file, standing::person()) {
        return Err(refuse(format!(
            "{why}: warden will not trust it (its deny and ask rules still apply); nothing was trusted"
        )));
    }
    let identity =
        project_identity(file).ok_or_else(|| refuse("its directory cannot be resolved".into()))?;
    let bytes = std::fs::read(file).map_err(|e| refuse(format!("cannot be read: {e}")))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| refuse("is not valid UTF-8; nothing was trusted".into()))?;
    let shown = crate::path::text(file);
    let kind = if shown.ends_with("permissions.yaml") {
        SourceKind::Permissions
    } else {
        SourceKind::Warden
    };
    let doc = warden_file::parse(&shown, text, kind, None)
        .map_err(|e| refuse(format!("does not parse ({e}); nothing was trusted")))?;
    let mut loosens = standing::withheld_rules(&doc.rules);
    loosens.extend(standing::tighten(&mut Settings::default(), &doc.settings));
    let record = Record {
        path: crate::path::text(&identity),
        sha256: sha256_hex(&bytes),
    };
    let mut book = read(store).map_err(|e| {
        state_error(
            store,
            format!("{e}; remove it to start afresh (every trust it held is lost anyway)"),
        )
    })?;
    let mut replaced = false;
    book.files.retain(|r| {
        let same = r.path == record.path;
        replaced |= same && r.sha256 != record.sha256;
        !same
    });
    book.files.push(record.clone());
    book.save(store)?;
    Ok(Trusted {
        record,
        replaced,
        loosens,
    })
}

/// Removes the record of `file`; whether there was one.
pub fn forget(store: &Path, file: &Path) -> Result<bool> {
    let mut book = read(store)?;
    let wanted: Vec<String> = [project_identity(file), Some(file.to_path_buf())]
        .into_iter()
        .flatten()
        .map(|p| crate::path::text(&p))
        .collect();
    let before = book.files.len();
    book.files.retain(|r| !wanted.contains(&r.path));
    if book.files.len() == before {
        return Ok(false);
    }
    book.save(store)?;
    Ok(true)
}

/// Whether a recorded file is still as it was trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Its bytes hash as recorded: its allow rules and settings apply.
    Current,
    /// Its bytes changed: only what tightens applies.
    Changed,
    /// It is gone, or cannot be read.
    Gone,
}

/// Each record with its file's state now.
pub fn list(store: &Path) -> Result<Vec<(Record, State)>> {
    let book = read(store)?;
    Ok(book
        .files
        .into_iter()
        .map(|record| {
            let state = match std::fs::read(PathBuf::from(&record.path)) {
                Ok(bytes) if sha256_hex(&bytes) == record.sha256 => State::Current,
                Ok(_) => State::Changed,
                Err(_) => State::Gone,
            };
            (record, state)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warden-trusted-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("p/.hermes")).unwrap();
        dir
    }

    #[test]
    fn trust_records_the_bytes_and_an_edit_ends_it() {
        let root = dir("edit");
        let store = root.join("state/trusted-projects.json");
        let file = root.join("p/.warden.yaml");
        std::fs::write(
            &file,
            "rules:\n  allow: ['terminal(make:*)']\nmode: autonomous\n",
        )
        .unwrap();
        let done = trust(&store, &file).unwrap();
        assert!(!done.replaced);
        assert!(
            done.loosens.iter().any(|l| l.contains("terminal(make:*)")),
            "{:?}",
            done.loosens
        );
        let identity = project_identity(&file).unwrap();
        let book = read(&store).unwrap();
        assert_eq!(book.lookup(&identity), Some(done.record.sha256.clone()));
        assert_eq!(list(&store).unwrap()[0].1, State::Current);
        std::fs::write(&file, "rules:\n  allow: ['terminal(curl:*)']\n").unwrap();
        assert_eq!(list(&store).unwrap()[0].1, State::Changed);
        assert!(trust(&store, &file).unwrap().replaced);
        assert_eq!(read(&store).unwrap().files.len(), 1);
        assert!(forget(&store, &file).unwrap());
        assert!(!forget(&store, &file).unwrap());
        assert!(read(&store).unwrap().files.is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn only_project_files_that_parse_are_trusted() {
        let root = dir("refuse");
        let store = root.join("trusted-projects.json");
        let other = root.join("p/policy.yaml");
        std::fs::write(&other, "rules: {}\n").unwrap();
        assert!(trust(&store, &other)
            .unwrap_err()
            .to_string()
            .contains("not a project policy file"));
        let broken = root.join("p/.hermes/permissions.yaml");
        std::fs::write(&broken, "rulez: {}\n").unwrap();
        assert!(trust(&store, &broken)
            .unwrap_err()
            .to_string()
            .contains("does not parse"));
        assert!(trust(&store, &root.join("p/.warden.yaml")).is_err());
        assert!(!store.exists());
        std::fs::write(&store, "not json").unwrap();
        assert!(read(&store).is_err());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
