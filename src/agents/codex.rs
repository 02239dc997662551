//! Codex CLI: warden's hook in `$CODEX_HOME/hooks.json`, and the trust record Codex needs before it runs a hook, obtained from Codex itself through `codex app-server`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::hooks_json::{self, Entry, Found};
use super::json_doc;
use super::process::LineSession;
use super::{edit_json, files, hook_command, Agent, Homes, Kind, Options, Report};

/// The shell (which Codex reports as `Bash` whatever the model called) and
/// file edits.
pub const MATCHER: &str = "Bash|apply_patch";

/// Seconds Codex waits for the hook.
pub const TIMEOUT: u64 = 10;

/// How long one app-server request may take (it opens its databases first).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

pub fn hooks_file(homes: &Homes) -> Option<PathBuf> {
    homes.codex_home.as_ref().map(|d| d.join("hooks.json"))
}

pub fn entry(warden: &Path) -> Entry {
    Entry {
        event: hooks_json::PRE_TOOL_USE,
        matcher: MATCHER.into(),
        command: hook_command(warden, &["--agent", "codex"]),
        timeout: TIMEOUT,
    }
}

pub fn install(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Codex;
    let Some(file) = hooks_file(homes) else {
        report.push(
            agent,
            Kind::Failed,
            "HOME and CODEX_HOME are unset: no ~/.codex to write",
        );
        return;
    };
    let entry = entry(&options.warden);
    if !edit_json(report, agent, options, &file, |doc| {
        hooks_json::register(doc, &entry)
    }) {
        return;
    }
    if options.dry_run {
        report.push(
            agent,
            Kind::Changed,
            "would record Codex's trust in the hook (through codex app-server)",
        );
        return;
    }
    let found = read_found(&file);
    let Some(found) = found.first() else {
        report.push(
            agent,
            Kind::Failed,
            format!("{} holds no warden hook after writing it", file.display()),
        );
        return;
    };
    match homes.which("codex") {
        Some(codex) => match trust(&codex, &file, found) {
            Ok(Trust::Already) => report.push(agent, Kind::Info, "Codex already trusts the hook"),
            Ok(Trust::Recorded) => report.push(
                agent,
                Kind::Changed,
                "recorded Codex's trust in the hook (config.toml hooks.state, written by codex app-server); Codex runs no untrusted hook",
            ),
            Err(why) => report.push(agent, Kind::Failed, format!("could not record Codex's trust in the hook: {why}. {}", manual_step(&file, found))),
        },
        None => report.push(agent, Kind::Todo, format!("Codex is not on PATH, so warden could not ask it to trust the hook, and Codex skips untrusted hooks without a word. {}", manual_step(&file, found))),
    }
}

pub fn uninstall(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::Codex;
    let Some(file) = hooks_file(homes) else {
        return;
    };
    let found = read_found(&file);
    // The trust record names the hook's place in the file: find it first.
    let codex = homes.which("codex");
    let keys = match &codex {
        Some(codex) if !found.is_empty() && !options.dry_run => {
            trust_keys(codex, &file, &found, report)
        }
        _ => Vec::new(),
    };
    if !edit_json(report, agent, options, &file, |doc| {
        hooks_json::unregister(doc, hooks_json::PRE_TOOL_USE)
    }) {
        return;
    }
    if found.is_empty() {
        return;
    }
    if options.dry_run {
        report.push(
            agent,
            Kind::Changed,
            "would remove Codex's trust record of the hook",
        );
        return;
    }
    forget_trust(codex.as_deref(), &keys, &file, &found[0], report);
}

/// The keys of Codex's trust records of the warden hooks `found` in `file`,
/// as codex app-server lists them; none, with the failure reported, when it
/// cannot be asked.
fn trust_keys(codex: &Path, file: &Path, found: &[Found], report: &mut Report) -> Vec<String> {
    match AppServer::start(codex).and_then(|mut s| s.hooks_of(file)) {
        Ok(hooks) => found
            .iter()
            .filter_map(|f| listed(&hooks, file, f))
            .map(|h| h.key.clone())
            .collect(),
        Err(why) => {
            report.push(
                Agent::Codex,
                Kind::Failed,
                format!("could not ask codex app-server for the hook's trust record: {why}"),
            );
            Vec::new()
        }
    }
}

/// Removes Codex's trust records `keys` through codex app-server; without
/// Codex (or with no key found) says what to remove by hand, where a record
/// of the warden hook `first` is there.
fn forget_trust(
    codex: Option<&Path>,
    keys: &[String],
    file: &Path,
    first: &Found,
    report: &mut Report,
) {
    let agent = Agent::Codex;
    match codex {
        Some(codex) if !keys.is_empty() => {
            let forgotten = AppServer::start(codex).and_then(|mut s| {
                keys.iter().try_for_each(|k| s.forget(k))?;
                s.tidy()
            });
            match forgotten {
                Ok(tidied) => {
                    report.push(
                        agent,
                        Kind::Changed,
                        "removed Codex's trust record of the hook (config.toml hooks.state)",
                    );
                    if !tidied.is_empty() {
                        report.push(agent, Kind::Changed, format!("removed the empty table(s) {} that Codex keeps in config.toml once their last key is gone", tidied.join(", ")));
                    }
                    remove_if_empty(&file.with_file_name("config.toml"), report);
                }
                Err(why) => report.push(
                    agent,
                    Kind::Failed,
                    format!("could not remove the trust record: {why}"),
                ),
            }
        }
        _ => {
            // Said only where the record is: install writes none without Codex.
            let key = key(file, first);
            let config = files::read_optional(&file.with_file_name("config.toml"));
            if config
                .ok()
                .flatten()
                .is_some_and(|text| text.contains(&key))
            {
                report.push(agent, Kind::Todo, format!(
                    "remove the table [hooks.state.\"{key}\"] from Codex's config.toml by hand (Codex was not there to do it)"
                ));
            }
        }
    }
}

/// Removes Codex's config.toml when nothing is left in it: for Codex an
/// empty file means the same as none, and what it held was warden's trust
/// record alone (Codex writes the file for it when there was none).
fn remove_if_empty(config: &Path, report: &mut Report) {
    let Ok(Some(text)) = files::read_optional(config) else {
        return;
    };
    if !text.trim().is_empty() {
        return;
    }
    match files::remove(config) {
        Ok(_) => report.push(
            Agent::Codex,
            Kind::Changed,
            format!("{}: removed (it was left empty)", config.display()),
        ),
        Err(err) => report.push(
            Agent::Codex,
            Kind::Failed,
            format!("could not remove: {err}"),
        ),
    }
}

/// Whether Codex trusts the warden hook `found` in `file` now (its hash
/// recorded, and the hook unchanged since).
pub fn trusted(homes: &Homes, file: &Path, found: &Found) -> Result<bool, String> {
    let codex = homes.which("codex").ok_or("`codex` is not on PATH")?;
    let hooks = AppServer::start(&codex)?.hooks_of(file)?;
    let hook = listed(&hooks, file, found).ok_or("codex app-server does not list the hook")?;
    Ok(hook.trust == "trusted")
}

fn read_found(file: &Path) -> Vec<Found> {
    let text = files::read_optional(file)
        .ok()
        .flatten()
        .unwrap_or_default();
    json_doc::parse(&text)
        .map(|doc| hooks_json::find(&doc, hooks_json::PRE_TOOL_USE))
        .unwrap_or_default()
}

enum Trust {
    Already,
    Recorded,
}

fn trust(codex: &Path, file: &Path, found: &Found) -> Result<Trust, String> {
    let mut server = AppServer::start(codex)?;
    let hooks = server.hooks_of(file)?;
    let hook = listed(&hooks, file, found)
        .ok_or("codex app-server does not list the hook just written")?;
    if hook.trust == "trusted" {
        return Ok(Trust::Already);
    }
    server.request(
        "config/batchWrite",
        json!({"edits": [{"keyPath": "hooks.state",
                          "value": {hook.key.as_str(): {"trusted_hash": hook.hash}},
                          "mergeStrategy": "upsert"}],
               "reloadUserConfig": true}),
    )?;
    let hooks = server.hooks_of(file)?;
    match listed(&hooks, file, found) {
        Some(hook) if hook.trust == "trusted" => Ok(Trust::Recorded),
        _ => Err("Codex still does not trust the hook after recording its hash".into()),
    }
}

/// A hook as `hooks/list` describes it.
struct Listed {
    key: String,
    hash: String,
    trust: String,
    source: PathBuf,
    command: String,
}

/// The listed hook that is `found` in `file`: the key ends in its group and
/// handler indices, from the same file, running the same command.
fn listed<'a>(hooks: &'a [Listed], file: &Path, found: &Found) -> Option<&'a Listed> {
    let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let suffix = format!(":pre_tool_use:{}:{}", found.group, found.handler);
    hooks.iter().find(|h| {
        h.key.ends_with(&suffix)
            && h.command == found.command
            && std::fs::canonicalize(&h.source).unwrap_or_else(|_| h.source.clone()) == file
    })
}

/// What a person does when Codex cannot be asked: the record Codex 0.169
/// would write, with the hash computed as it computes it.
fn manual_step(file: &Path, found: &Found) -> String {
    format!(
        "Install Codex and run `warden install --agent codex` again, or approve the hook in Codex's hooks screen, or add to {}:\n    [hooks.state.\"{}\"]\n    trusted_hash = \"{}\"",
        file.with_file_name("config.toml").display(),
        key(file, found),
        hash(found)
    )
}

fn key(file: &Path, found: &Found) -> String {
    let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    format!(
        "{}:pre_tool_use:{}:{}",
        file.display(),
        found.group,
        found.handler
    )
}

/// Codex's trust hash of a hook (as of 0.169): SHA-256 over the compact,
/// key-sorted JSON of the event, the matcher and the handler's settings.
fn hash(found: &Found) -> String {
    let mut doc = json!({
        "event_name": "pre_tool_use",
        "hooks": [{"async": false, "command": found.command,
                   "timeout": found.timeout.unwrap_or(600).max(1), "type": "command"}],
    });
    if let Some(matcher) = &found.matcher {
        doc["matcher"] = matcher.as_str().into();
    }
    // serde_json's maps are sorted and its compact form has no spaces,
    // which is the form Codex hashes.
    let digest = Sha256::digest(doc.to_string().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// A `codex app-server` session: JSON-RPC, one object per line.
struct AppServer {
    session: LineSession,
    next: u64,
}

impl AppServer {
    fn start(codex: &Path) -> Result<AppServer, String> {
        let mut server = AppServer {
            session: LineSession::start(codex, &["app-server"])?,
            next: 0,
        };
        server.request(
            "initialize",
            json!({"clientInfo": {"name": "warden", "version": env!("CARGO_PKG_VERSION")}}),
        )?;
        server
            .session
            .send(&json!({"method": "initialized"}).to_string())?;
        Ok(server)
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        self.session
            .send(&json!({"id": id, "method": method, "params": params}).to_string())?;
        let line = self.session.receive(REQUEST_TIMEOUT, |line| {
            serde_json::from_str::<Value>(line).is_ok_and(|v| v["id"] == id)
        })?;
        let reply: Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        match reply.get("error") {
            Some(err) => Err(format!(
                "{method}: {}",
                err["message"].as_str().unwrap_or("an error")
            )),
            None => Ok(reply["result"].clone()),
        }
    }

    /// The hooks Codex sees, with their trust state.
    fn hooks_of(&mut self, file: &Path) -> Result<Vec<Listed>, String> {
        let cwd = file.parent().unwrap_or(Path::new("/"));
        let result = self.request("hooks/list", json!({"cwds": [cwd]}))?;
        let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
        Ok(result["data"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|d| d["hooks"].as_array().into_iter().flatten())
            .map(|h| Listed {
                key: text(h, "key"),
                hash: text(h, "currentHash"),
                trust: text(h, "trustStatus"),
                source: PathBuf::from(text(h, "sourcePath")),
                command: text(h, "command"),
            })
            .collect())
    }

    /// Removes `hooks.state`, then `hooks`, where each is left an empty
    /// table in the user's config.toml (Codex keeps a table's header once
    /// its last key is gone); returns the tables removed. Only empty ones:
    /// a table with anything of the person's in it stays.
    fn tidy(&mut self) -> Result<Vec<String>, String> {
        let mut removed = Vec::new();
        for path in ["hooks.state", "hooks"] {
            let layers = self.request("config/read", json!({"includeLayers": true}))?;
            let user = layers["layers"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|layer| layer["name"]["type"] == "user");
            let Some(user) = user else {
                break;
            };
            let table = path.split('.').fold(&user["config"], |v, k| &v[k]);
            if table.as_object().is_some_and(serde_json::Map::is_empty) {
                self.request(
                    "config/batchWrite",
                    json!({"edits": [{"keyPath": path, "value": null, "mergeStrategy": "replace"}],
                           "reloadUserConfig": true}),
                )?;
                removed.push(format!("[{path}]"));
            }
        }
        Ok(removed)
    }

    /// Removes the trust record under `key` (the quoted key is one segment
    /// of the path, though it contains dots).
    fn forget(&mut self, key: &str) -> Result<(), String> {
        let path = format!(
            "hooks.state.{}",
            serde_json::to_string(key).unwrap_or_default()
        );
        self.request(
            "config/batchWrite",
            json!({"edits": [{"keyPath": path, "value": null, "mergeStrategy": "replace"}],
                   "reloadUserConfig": true}),
        )
        .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trust_hash_is_codexs() {
        // Codex 0.169.0's own `currentHash` for this hook, read from
        // `codex app-server` (hooks/list).
        let found = Found {
            group: 0,
            handler: 0,
            matcher: Some("Bash|apply_patch".into()),
            command: "/work/main/target/debug/warden --agent codex".into(),
            timeout: Some(5),
        };
        assert_eq!(
            hash(&found),
            "sha256:0c9fb479dcbe453f7809c1e93c70dc3597e863550fd5b4135958d63a64cdc8ce"
        );
    }
}
