//! Approving one call once: the short code an ask-turned-block carries, the sealed record of the call it names, and the store of those records in warden's state directory.
//!
//! Agents that cannot ask (Hermes 0.19, Codex) get an ask as a block. The
//! block carries a code; the person runs `warden allow-once CODE` in a
//! terminal, and the same call (same digest: agent, tool, command or input,
//! directory, session) is then allowed once within [`APPROVED_FOR`].
//!
//! Each record is one file, `allow-once/CODE.json`, so that using an
//! approval is one `unlink` that only one process can win: two hooks
//! retrying the same call at once cannot both be allowed. Every record is
//! tagged with this user's key (the cache's [`Seal`], under a domain of its
//! own), so a file the agent (or anything without the key) writes there,
//! or a record edited to be approved or to name another call, is refused.
//! A record that fails its check, does not parse, or has expired is never
//! an approval; such files are pruned when a new record is written.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::config::cache::{state_error, write_atomic};
use crate::config::seal::Seal;
use crate::error::Result;
use crate::payload::ToolCall;

/// How long a code can be approved after the block that showed it.
pub const OFFERED_FOR: Duration = Duration::from_secs(10 * 60);
/// How long an approval waits for the agent to retry the call.
pub const APPROVED_FOR: Duration = Duration::from_secs(5 * 60);
/// The records kept at most; the oldest go first past this.
const MAX_RECORDS: usize = 64;
/// The store's directory under warden's state directory.
const DIR: &str = "allow-once";
/// What the tag is computed for: no other sealed thing has a valid tag here.
const DOMAIN: &[u8] = b"warden allow-once record v1";
const VERSION: u32 = 1;
/// Letters and digits a person reads and types without doubt: no 0/O, 1/I/L.
const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
pub const CODE_LEN: usize = 6;

/// One call offered for approval, approved or not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub version: u32,
    pub code: String,
    /// SHA-256 of what makes the call this call (see [`digest`]), in hex.
    pub digest: String,
    pub agent: String,
    pub tool: String,
    /// The command, or for another tool the files it names: what the person
    /// is shown, redacted as the audit log is.
    pub subject: String,
    /// Where the tool runs.
    #[serde(default)]
    pub dir: Option<String>,
    #[serde(default)]
    pub session: Option<String>,
    /// Seconds since the Unix epoch.
    pub created: u64,
    /// Until when the approval holds; `None` while it waits for one.
    #[serde(default)]
    pub approved_until: Option<u64>,
    /// The key's tag over every field above, in hex.
    pub tag: String,
}

impl Record {
    fn tag_with(&self, seal: &Seal) -> String {
        let opt = |v: &Option<String>| v.as_deref().unwrap_or("").as_bytes().to_vec();
        let flag = |v: &Option<String>| [u8::from(v.is_some())];
        let until = self.approved_until.map_or(0, |t| t.saturating_add(1));
        let tag = seal.tag(
            DOMAIN,
            &[
                &self.version.to_le_bytes(),
                self.code.as_bytes(),
                self.digest.as_bytes(),
                self.agent.as_bytes(),
                self.tool.as_bytes(),
                self.subject.as_bytes(),
                &flag(&self.dir),
                &opt(&self.dir),
                &flag(&self.session),
                &opt(&self.session),
                &self.created.to_le_bytes(),
                &until.to_le_bytes(),
            ],
        );
        hex(&tag)
    }

    fn seal(mut self, seal: &Seal) -> Record {
        self.tag = self.tag_with(seal);
        self
    }

    fn sealed_by(&self, seal: &Seal) -> bool {
        // Both sides are hex of 16 bytes; the comparison's timing tells an
        // agent nothing it could use without the key.
        self.version == VERSION && self.tag == self.tag_with(seal)
    }

    /// Whether it can still be approved or used at `now`.
    pub fn live(&self, now: u64) -> bool {
        match self.approved_until {
            Some(until) => now <= until,
            None => now <= self.created.saturating_add(OFFERED_FOR.as_secs()),
        }
    }
}

/// What the store says about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// It was approved, and this use spent the approval.
    Allowed(Record),
    /// It is not approved: the code the person can approve it with.
    Offered(String),
}

/// The store in a state directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    state_dir: PathBuf,
}

impl Store {
    pub fn new(state_dir: &Path) -> Store {
        Store {
            dir: state_dir.join(DIR),
            state_dir: state_dir.to_path_buf(),
        }
    }

    fn seal(&self) -> Result<Seal> {
        Seal::of(&self.state_dir).map_err(|e| state_error(&self.dir, e))
    }

    fn path(&self, code: &str) -> PathBuf {
        self.dir.join(format!("{code}.json"))
    }

    /// For a call that reaches the agent as a block: spends an approval of
    /// this very call if there is one, else offers a code for it (the one
    /// already offered, while it lasts). `notes` gets a line per record
    /// that was refused.
    pub fn settle(&self, call: &Call, now: u64, notes: &mut Vec<String>) -> Result<Settled> {
        let seal = self.seal()?;
        let records = self.scan(&seal, now, notes);
        for (path, record) in &records {
            if record.digest != call.digest || record.approved_until.is_none() {
                continue;
            }
            // Only the process whose unlink succeeds uses it.
            if fs::remove_file(path).is_ok() {
                return Ok(Settled::Allowed(record.clone()));
            }
        }
        if let Some((_, waiting)) = records
            .iter()
            .find(|(_, r)| r.digest == call.digest && r.approved_until.is_none())
        {
            return Ok(Settled::Offered(waiting.code.clone()));
        }
        let record = Record {
            version: VERSION,
            code: new_code()?,
            digest: call.digest.clone(),
            agent: call.agent.clone(),
            tool: call.tool.clone(),
            subject: call.subject.clone(),
            dir: call.dir.clone(),
            session: call.session.clone(),
            created: now,
            approved_until: None,
            tag: String::new(),
        }
        .seal(&seal);
        self.prune(&seal, &records, now);
        // Not synced: a record lost to a crash is only a code to ask again.
        write_atomic(&self.path(&record.code), &to_json(&record)?, false)?;
        Ok(Settled::Offered(record.code))
    }

    /// Approves the call `code` names, from `now` for [`APPROVED_FOR`].
    pub fn approve(&self, code: &str, now: u64) -> std::result::Result<Record, Refusal> {
        let code = normal_code(code).ok_or(Refusal::NotACode)?;
        let seal = self.seal().map_err(|e| Refusal::Store(e.to_string()))?;
        let path = self.path(&code);
        let record = match read(&path) {
            Ok(Some(record)) => record,
            Ok(None) => return Err(Refusal::Unknown(code)),
            Err(why) => return Err(Refusal::Damaged(code, why)),
        };
        if record.code != code || !record.sealed_by(&seal) {
            return Err(Refusal::Damaged(
                code,
                "it fails its integrity check".into(),
            ));
        }
        if !record.live(now) {
            return Err(Refusal::Expired(code));
        }
        if let Some(until) = record.approved_until {
            return Err(Refusal::AlreadyApproved { code, until });
        }
        let approved = Record {
            approved_until: Some(now.saturating_add(APPROVED_FOR.as_secs())),
            ..record
        }
        .seal(&seal);
        let bytes = to_json(&approved).map_err(|e| Refusal::Store(e.to_string()))?;
        write_atomic(&path, &bytes, true).map_err(|e| Refusal::Store(e.to_string()))?;
        Ok(approved)
    }

    /// Every record in the store that parses and passes its check, with
    /// its file; one note per file refused. Expired ones are left out.
    fn scan(&self, seal: &Seal, now: u64, notes: &mut Vec<String>) -> Vec<(PathBuf, Record)> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let Some(code) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
                continue;
            };
            match read(&path) {
                Ok(Some(r)) if r.code == code && r.sealed_by(seal) => {
                    if r.live(now) {
                        out.push((path, r));
                    }
                }
                Ok(None) => {}
                Ok(Some(_)) => notes.push(format!(
                    "warden: allow-once record {} fails its integrity check (not written by warden with this user's key); it approves nothing",
                    path.display()
                )),
                Err(why) => notes.push(format!(
                    "warden: allow-once record {} is unreadable ({why}); it approves nothing",
                    path.display()
                )),
            }
        }
        out.sort_by(|a, b| b.1.created.cmp(&a.1.created).then(a.1.code.cmp(&b.1.code)));
        out
    }

    /// Removes every file that is not a live record (expired, damaged,
    /// foreign, a crashed writer's leftover), and the oldest of `live` past
    /// [`MAX_RECORDS`] less the one about to be written. A file not in
    /// `live` is read again: a record another hook wrote since stays.
    /// Best effort.
    fn prune(&self, seal: &Seal, live: &[(PathBuf, Record)], now: u64) {
        let (kept, over) = live.split_at(live.len().min(MAX_RECORDS - 1));
        for (path, _) in over {
            let _ = fs::remove_file(path);
        }
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if kept.iter().any(|(p, _)| *p == path) {
                continue;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') {
                // A write under way is young: leave it.
                let age = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok());
                if age.is_none_or(|age| age < Duration::from_secs(60)) {
                    continue;
                }
            } else if let Ok(Some(r)) = read(&path) {
                if name.strip_suffix(".json") == Some(r.code.as_str())
                    && r.sealed_by(seal)
                    && r.live(now)
                {
                    continue;
                }
            }
            let _ = fs::remove_file(&path);
        }
    }
}

/// Why `warden allow-once` approved nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotACode,
    Unknown(String),
    Expired(String),
    AlreadyApproved { code: String, until: u64 },
    Damaged(String, String),
    Store(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotACode => write!(
                f,
                "that is not a code warden gives ({CODE_LEN} letters and digits, as in the block message)"
            ),
            Refusal::Unknown(code) => write!(
                f,
                "no call is waiting with code {code}: it was used already, it expired, or it was never given"
            ),
            Refusal::Expired(code) => write!(
                f,
                "code {code} has expired; let the agent try the call again for a new one"
            ),
            Refusal::AlreadyApproved { code, until } => {
                write!(f, "code {code} is approved already, until {}", clock(*until))
            }
            Refusal::Damaged(code, why) => {
                write!(f, "the record of code {code} cannot be used: {why}")
            }
            Refusal::Store(why) => write!(f, "{why}"),
        }
    }
}

/// What identifies one call, and what the person is shown of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub digest: String,
    pub agent: String,
    pub tool: String,
    pub subject: String,
    pub dir: Option<String>,
    pub session: Option<String>,
}

/// `input` as text with every object's keys sorted: a retry whose input
/// lists the same members in another order is the same call.
fn canonical(input: &serde_json::Value) -> String {
    let mut input = input.clone();
    input.sort_all_objects();
    input.to_string()
}

impl Call {
    /// The call `call`, whose payload's `tool_input` was `input` (for tools
    /// other than a shell, the whole input is what the call does). A shell
    /// call is its command where it runs: the description or timeout an
    /// agent adds on a retry does not make it another call.
    pub fn of(call: &ToolCall, input: Option<&serde_json::Value>, home: Option<&str>) -> Call {
        let dir = call.tool_dir(home).or_else(|| call.workdir.clone());
        let what = match call.command() {
            Some(command) => format!("command\0{command}"),
            None => format!("input\0{}", input.map_or_else(String::new, canonical)),
        };
        let parts: [&[u8]; 6] = [
            call.agent.name().as_bytes(),
            call.tool.as_bytes(),
            what.as_bytes(),
            call.cwd.as_deref().unwrap_or("").as_bytes(),
            dir.as_deref().unwrap_or("").as_bytes(),
            call.session.as_deref().unwrap_or("").as_bytes(),
        ];
        let mut joined = Vec::new();
        for part in parts {
            joined.extend_from_slice(&(part.len() as u64).to_le_bytes());
            joined.extend_from_slice(part);
        }
        let subject = match call.command() {
            Some(command) => command.to_string(),
            None => call
                .files
                .iter()
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        };
        Call {
            digest: {
                use sha2::{Digest, Sha256};
                hex(&Sha256::digest(&joined))
            },
            agent: call.agent.name().to_string(),
            tool: call.tool.clone(),
            subject: crate::audit::redact::redact(&clip(&subject, 2000)),
            dir,
            session: call.session.clone(),
        }
    }
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The record at `path`: `Ok(None)` when there is none, `Err` when it
/// cannot be read or is not a record.
fn read(path: &Path) -> std::result::Result<Option<Record>, String> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    if bytes.len() > 64 * 1024 {
        return Err("too large".into());
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| format!("not a record: {e}"))
}

fn to_json(record: &Record) -> Result<Vec<u8>> {
    let mut text = serde_json::to_string_pretty(record)
        .map_err(|e| state_error(Path::new(DIR), format!("cannot encode a record: {e}")))?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// A fresh code from the system's random source: never derived from the
/// call, so nothing about a call tells what its code will be.
fn new_code() -> Result<String> {
    use std::io::Read as _;
    let mut code = String::with_capacity(CODE_LEN);
    let mut file = fs::File::open("/dev/urandom")
        .map_err(|e| state_error(Path::new("/dev/urandom"), e.to_string()))?;
    let mut byte = [0u8; 1];
    // Bytes past the last whole multiple of the alphabet are skipped, so
    // every character is equally likely.
    let limit = 256 - 256 % ALPHABET.len();
    while code.len() < CODE_LEN {
        file.read_exact(&mut byte)
            .map_err(|e| state_error(Path::new("/dev/urandom"), e.to_string()))?;
        if usize::from(byte[0]) < limit {
            code.push(char::from(ALPHABET[usize::from(byte[0]) % ALPHABET.len()]));
        }
    }
    Ok(code)
}

/// `text` as a code, as the person may type it (any case, with spaces or
/// a dash); `None` when it cannot be one.
pub fn normal_code(text: &str) -> Option<String> {
    let code: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `secs` as a time of day in UTC, `HH:MM:SS UTC`.
pub fn clock(secs: u64) -> String {
    let day = secs % 86_400;
    format!(
        "{:02}:{:02}:{:02} UTC",
        day / 3600,
        day % 3600 / 60,
        day % 60
    )
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests;
