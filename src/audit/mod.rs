//! The audit log: one redacted JSON line per decision, appended after the verdict is out and rotated by size, and read back for `warden audit`; the same entry can go to syslog too.
//!
//! The log is opt-in (`audit:` in warden's own config). Writing it can never
//! change a verdict: the hook prints its verdict first and only then appends,
//! and a log that cannot be written costs one line on stderr. The syslog
//! sink (`syslog.rs`) sends the same redacted entry, under the same rule.
//!
//! Many hook processes append at once. Each line is one `write` on a file
//! opened for appending, so lines never interleave. A rotation moves the
//! full log aside with one `rename`: of two processes racing to rotate, one
//! wins and the other finds nothing to move and appends to the new file.

pub mod redact;
mod stats;
pub mod syslog;
mod time;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use stats::{Count, Stats};
pub use syslog::Syslog;
pub use time::{format_time, since};

use crate::error::{Error, Result};
use crate::payload::ToolCall;
use crate::verdict::Verdict;

/// A command or path longer than this is cut in the log: the log is for
/// reading, and a megabyte payload must not become a megabyte line.
pub const MAX_LOGGED_BYTES: usize = 4096;

/// Where the log is and how much of it is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log {
    pub path: PathBuf,
    /// Rotate before a line would take the file past this size.
    pub max_bytes: u64,
    /// Rotated files kept: `PATH.1` (newest) to `PATH.keep`.
    pub keep: u32,
}

/// One decision, as a line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// UTC, RFC 3339 with milliseconds: sorts as text.
    pub time: String,
    /// The agent the payload came from (`hermes`, `claude`, `codex`).
    pub agent: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    pub tool: String,
    pub decision: String,
    pub layer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The session's directory (the payload's `cwd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The model's `workdir`, where the tool ran from `cwd`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workdir: Option<String>,
    /// The shell command, redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The files a file tool named, redacted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// The `warden allow-once` code the block offered, or whose approval
    /// this call used (then the layer is `allow-once`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub once: Option<String>,
}

impl Entry {
    /// The entry for `verdict` on `call`, at `time`, before redaction.
    pub fn new(call: &ToolCall, verdict: &Verdict, time: std::time::SystemTime) -> Entry {
        Entry {
            time: format_time(time),
            agent: call.agent.name().to_string(),
            session: call.session.clone(),
            tool: call.tool.clone(),
            decision: verdict.decision.as_str().to_string(),
            layer: verdict.layer.as_str().to_string(),
            rule: verdict.rule_id.clone(),
            cwd: call.cwd.clone(),
            workdir: call.workdir.clone(),
            command: call.command().map(str::to_string),
            paths: call.files.iter().map(|f| f.path.clone()).collect(),
            once: once_code(verdict),
        }
    }

    /// The same entry with its secrets taken out and long texts cut.
    pub fn redacted(&self) -> Entry {
        // Redacting twice what is kept leaves room for redaction to
        // shorten it, without scanning a megabyte command.
        let clean = |text: &str| cut(&redact::redact(prefix(text, 2 * MAX_LOGGED_BYTES)));
        Entry {
            command: self.command.as_deref().map(clean),
            paths: self.paths.iter().map(|p| clean(p)).collect(),
            cwd: self.cwd.as_deref().map(cut),
            workdir: self.workdir.as_deref().map(cut),
            ..self.clone()
        }
    }

    /// What the call was about: the command, or the paths.
    pub fn subject(&self) -> String {
        match &self.command {
            Some(command) => command.clone(),
            None => self.paths.join(" "),
        }
    }
}

/// The allow-once code a verdict offered or used.
fn once_code(verdict: &Verdict) -> Option<String> {
    let used = verdict.changes.iter().find_map(|c| match c {
        crate::verdict::Change::AllowedOnce { code } => Some(code.clone()),
        _ => None,
    });
    used.or_else(|| verdict.once.as_ref().map(|o| o.code.clone()))
}

/// `text` cut to [`MAX_LOGGED_BYTES`] on a character boundary, saying how much went.
fn cut(text: &str) -> String {
    let kept = prefix(text, MAX_LOGGED_BYTES);
    if kept.len() == text.len() {
        return text.to_string();
    }
    format!("{kept}… [{} more bytes]", text.len() - kept.len())
}

/// At most `max` bytes of the start of `text`, ending on a character boundary.
fn prefix(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A decision waiting for the verdict to be printed, and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The JSONL file (`None` with `file: false`).
    pub log: Option<Log>,
    pub syslog: Option<Syslog>,
    pub entry: Entry,
}

impl Pending {
    /// Redacts the entry once and hands it to each sink. Returns one
    /// sentence per sink that failed, naming it; a failure of one does not
    /// keep the entry from the other.
    pub fn write(&self) -> Vec<String> {
        let entry = self.entry.redacted();
        let mut failed = Vec::new();
        if let Some(log) = &self.log {
            if let Err(err) = log.write(&entry) {
                failed.push(format!("audit log not written: {err}"));
            }
        }
        if let Some(syslog) = &self.syslog {
            if let Err(err) = syslog.send(&entry) {
                failed.push(format!("audit message not sent to syslog: {err}"));
            }
        }
        failed
    }
}

impl Log {
    /// The log's files, newest first: `PATH`, `PATH.1`, … `PATH.keep`.
    pub fn files(&self) -> Vec<PathBuf> {
        std::iter::once(self.path.clone())
            .chain((1..=self.keep).map(|n| self.rotated(n)))
            .collect()
    }

    fn rotated(&self, n: u32) -> PathBuf {
        let mut name = self.path.clone().into_os_string();
        name.push(format!(".{n}"));
        PathBuf::from(name)
    }

    fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::State {
            path: self.path.display().to_string(),
            message: message.to_string(),
        }
    }

    /// Appends `entry` (already redacted) as one JSON line. Errors name the log file.
    pub fn write(&self, entry: &Entry) -> Result<()> {
        let mut line = serde_json::to_string(entry).map_err(|e| self.error(e))?;
        line.push('\n');
        self.append(&line)
    }

    /// Appends `line` (one whole line), rotating first when it would not fit.
    pub fn append(&self, line: &str) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            create_private_dir(dir)
                .map_err(|e| self.error(format!("cannot create its directory: {e}")))?;
        }
        match std::fs::symlink_metadata(&self.path) {
            // Following a link would let whoever placed it choose what the
            // hook appends to.
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(
                    self.error("is a symbolic link; the audit log is not written through one")
                )
            }
            Ok(meta) if !meta.is_file() => return Err(self.error("is not a regular file")),
            Ok(meta) if meta.len() > 0 && meta.len() + line.len() as u64 > self.max_bytes => {
                self.rotate()?
            }
            _ => {}
        }
        let mut file =
            open_append(&self.path).map_err(|e| self.error(format!("cannot open: {e}")))?;
        file.write_all(line.as_bytes())
            .map_err(|e| self.error(format!("cannot write: {e}")))
    }

    fn rotate(&self) -> Result<()> {
        let staging = {
            let mut name = self.path.clone().into_os_string();
            name.push(format!(".rotating-{}", std::process::id()));
            PathBuf::from(name)
        };
        match std::fs::rename(&self.path, &staging) {
            Ok(()) => {}
            // Another process rotated it first.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(self.error(format!("cannot rotate: {e}"))),
        }
        if self.keep == 0 {
            return std::fs::remove_file(&staging)
                .map_err(|e| self.error(format!("cannot remove the full log: {e}")));
        }
        for n in (1..self.keep).rev() {
            match std::fs::rename(self.rotated(n), self.rotated(n + 1)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(self.error(format!("cannot rotate: {e}")))
                }
                _ => {}
            }
        }
        std::fs::rename(&staging, self.rotated(1))
            .map_err(|e| self.error(format!("cannot rotate: {e}")))
    }

    /// Every entry in the log's files, oldest first; `bad` counts the lines
    /// that are not entries.
    pub fn read(&self) -> Result<Read> {
        let mut read = Read::default();
        for file in self.files().iter().rev() {
            let handle = match std::fs::File::open(file) {
                Ok(handle) => handle,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    return Err(Error::State {
                        path: file.display().to_string(),
                        message: format!("cannot read: {e}"),
                    })
                }
            };
            read.files += 1;
            for line in BufReader::new(handle).split(b'\n') {
                let line = line.map_err(|e| Error::State {
                    path: file.display().to_string(),
                    message: format!("cannot read: {e}"),
                })?;
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match serde_json::from_slice::<Entry>(&line) {
                    Ok(entry) => read.entries.push(entry),
                    Err(_) => read.bad += 1,
                }
            }
        }
        Ok(read)
    }
}

/// What reading a log found.
#[derive(Debug, Default)]
pub struct Read {
    pub entries: Vec<Entry>,
    /// Lines that are not entries (cut short by a full disk, edited by hand).
    pub bad: usize,
    /// Files that were there.
    pub files: usize,
}

#[cfg(unix)]
fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Even redacted, commands say what a person works on.
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

#[cfg(test)]
mod tests;
