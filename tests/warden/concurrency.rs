//! Many hook processes at once: against a cold cache right after a config change, and while the config is being saved (in place, by rename, or moved aside and written anew); every verdict right, one valid cache left, no half-saved file ever believed, no wait while nothing is saved.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::World;

tests![
    thirty_two_processes_on_a_cold_cache,
    processes_while_the_config_is_rewritten,
    sixteen_callers_never_believe_a_half_saved_config,
];

const USER: &str = "home/.config/warden/config.yaml";
const PROCESSES: usize = 32;

/// Two configs that both deny `git push` and differ otherwise, so a verdict
/// on `git push` is the same whichever one a process reads.
const CONFIG_A: &str =
    "rules:\n  deny:\n    - \"terminal(git push:*)\"\n  ask:\n    - \"terminal(npm publish:*)\"\n";
const CONFIG_B: &str = "rules:\n  deny:\n    - id: no-push\n      pattern: \"git push:*\"\n  allow:\n    - \"terminal(make:*)\"\n";

/// Starts one hook process per command, all before any is waited on.
fn storm(w: &World, commands: &[&str]) -> Vec<Child> {
    let mut children: Vec<Child> = commands
        .iter()
        .map(|_| w.spawn(&["--agent", "native"]))
        .collect();
    // The payloads go out only once every process is up, so they race.
    for (child, command) in children.iter_mut().zip(commands) {
        let payload = json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": command},
            "cwd": w.path("project"),
        });
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
    }
    children
}

fn verdict(child: Child) -> (Value, String) {
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    (serde_json::from_str(stdout.trim()).unwrap(), stderr)
}

/// The cache files the world holds.
fn caches(w: &World) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(w.path("cache/warden"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "bin"))
                .collect()
        })
        .unwrap_or_default()
}

fn commands() -> Vec<&'static str> {
    (0..PROCESSES)
        .map(|n| ["git push origin main", "rm -rf /", "ls -la", "git status"][n % 4])
        .collect()
}

fn expected(command: &str) -> (&'static str, &'static str) {
    match command {
        "git push origin main" => ("block", "user"),
        "rm -rf /" => ("block", "hardline"),
        _ => ("allow", "default"),
    }
}

fn thirty_two_processes_on_a_cold_cache() {
    let w = World::new("concurrency/cold").file(USER, CONFIG_A);
    // A first run, then a change: the storm meets a stale cache and a new key.
    for child in storm(&w, &["git status"]) {
        verdict(child);
    }
    w.put(USER, CONFIG_B);
    let commands = commands();
    for (child, command) in storm(&w, &commands).into_iter().zip(&commands) {
        let (v, stderr) = verdict(child);
        let (action, layer) = expected(command);
        assert_eq!(v["action"], action, "{command}: {v} {stderr}");
        assert_eq!(v["layer"], layer, "{command}: {v}");
        assert!(!stderr.contains("unusable"), "{command}: {stderr}");
        if *command == "git push origin main" {
            assert_eq!(v["rule_id"], "no-push", "read the new config: {v}");
        }
    }
    let left = caches(&w);
    assert_eq!(left.len(), 1, "one cache per set of sources: {left:?}");
    let leftovers: Vec<_> = std::fs::read_dir(w.path("cache/warden"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let why = w.why("git push origin main");
    assert!(
        why.stdout.contains("cache: hit ("),
        "the cache left is valid: {}",
        why.stdout
    );
}

fn processes_while_the_config_is_rewritten() {
    let w = Arc::new(World::new("concurrency/rewrite").file(USER, CONFIG_A));
    // The config is seen whole once: while it is rewritten faster than it
    // can settle, that version decides.
    for child in storm(&w, &["git status"]) {
        verdict(child);
    }
    let stop = Arc::new(AtomicBool::new(false));
    // An editor that saves atomically (a new file renamed over the old one),
    // as fast as it can, alternating two configs.
    let writer = {
        let (w, stop) = (w.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let text = if n % 2 == 0 { CONFIG_B } else { CONFIG_A };
                let temp = w.path("home/.config/warden/.config.yaml.tmp");
                std::fs::write(&temp, text).unwrap();
                std::fs::rename(&temp, w.path(USER)).unwrap();
                n += 1;
            }
            n
        })
    };
    let commands = commands();
    for _round in 0..3 {
        for (child, command) in storm(&w, &commands).into_iter().zip(&commands) {
            let (v, stderr) = verdict(child);
            let (action, layer) = expected(command);
            assert_eq!(v["action"], action, "{command}: {v} {stderr}");
            assert_eq!(v["layer"], layer, "{command}: {v}");
            assert!(
                !stderr.contains("unusable"),
                "a partial file was read: {stderr}"
            );
        }
    }
    stop.store(true, Ordering::Relaxed);
    let rewrites = writer.join().unwrap();
    assert!(
        rewrites > 10,
        "the config was rewritten during the storms ({rewrites} times)"
    );
    // Once quiet, a cache stands for the final config and holds.
    let (v, _) = w.hook("git push origin main");
    assert_eq!(v["action"], "block", "{v}");
    assert!(caches(&w).len() <= 2, "{:?}", caches(&w));
    let why = w.why("git push origin main");
    assert!(why.stdout.contains("verdict: block"), "{}", why.stdout);
}

// ------------------------------------------- saved while hooks run

const CALLERS: usize = 16;
const CALLS: usize = 20;
const DENIED: &str = "make deploy";

/// Two versions of the config, both denying `make deploy` (last, so that a
/// prefix can hold the allow without the deny), and differing otherwise.
/// A prefix of either, or an empty file, lets `make deploy` through.
const VERSION_A: &str = "rules:\n  allow:\n    - \"terminal(make:*)\"\n  deny:\n    - \"terminal(terraform destroy:*)\"\n    - \"terminal(kubectl delete namespace:*)\"\n    - \"terminal(dropdb:*)\"\n    - id: no-deploy\n      pattern: \"make deploy:*\"\n";
const VERSION_B: &str = "rules:\n  ask:\n    - \"terminal(kubectl apply:*)\"\n  allow:\n    - \"terminal(make:*)\"\n  deny:\n    - \"terminal(terraform destroy:*)\"\n    - \"terminal(kubectl delete namespace:*)\"\n    - \"terminal(dropdb:*)\"\n    - id: no-deploy\n      pattern: \"make deploy:*\"\n";

/// How long warden waits for a doubted file to stay the same
/// (`STEADY` in src/config/settle.rs).
const STEADY: Duration = Duration::from_millis(250);

/// A save longer than this from first to last step may have left a half
/// unchanged for `STEADY`: the writer was stalled (an editor on a machine
/// loaded past its cores stalls too), which warden cannot tell from a save
/// that finished. Runs with such a stall are judged only up to it.
const STALLED: Duration = Duration::from_millis(200);

#[derive(Clone, Copy, Debug)]
enum Save {
    /// Truncate, then write in three pieces a millisecond apart (vim with
    /// `backupcopy=yes`, ed, most editors on a file with several links).
    InPlace,
    /// Write a temporary file, rename it over the config.
    Rename,
    /// Move the config aside, write a new one in three pieces, delete the
    /// old (vim's default backup dance).
    Replace,
}

/// One call: when it ran, and what it answered.
#[derive(Debug)]
struct Call {
    span: (Instant, Instant),
    verdict: Value,
    stderr: String,
}

fn save(w: &World, how: Save, text: &str) {
    let path = w.path(USER);
    let pieces = |file: &mut fs::File| {
        let bytes = text.as_bytes();
        let third = bytes.len() / 3;
        for (n, piece) in [
            &bytes[..third],
            &bytes[third..2 * third],
            &bytes[2 * third..],
        ]
        .into_iter()
        .enumerate()
        {
            if n > 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            file.write_all(piece).unwrap();
        }
    };
    match how {
        Save::InPlace => {
            let mut file = OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(&path)
                .unwrap();
            pieces(&mut file);
        }
        Save::Rename => {
            let temp = format!("{path}.tmp");
            fs::write(&temp, text).unwrap();
            fs::rename(&temp, &path).unwrap();
        }
        Save::Replace => {
            let aside = format!("{path}~");
            fs::rename(&path, &aside).unwrap();
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .unwrap();
            pieces(&mut file);
            fs::remove_file(&aside).unwrap();
        }
    }
}

/// Saves the config until `stop`, in bursts of saves 2 ms apart with a
/// pause after each burst long enough for the file to settle. Returns the
/// number of saves and when the first that stalled began.
fn writer(w: &World, how: Save, stop: &AtomicBool) -> (usize, Option<Instant>) {
    let mut saves = 0;
    let mut stalled = None;
    while !stop.load(Ordering::Relaxed) {
        let text = if saves % 2 == 0 { VERSION_B } else { VERSION_A };
        let start = Instant::now();
        save(w, how, text);
        if start.elapsed() >= STALLED {
            stalled = stalled.or(Some(start));
        }
        saves += 1;
        let pause = if saves % 100 == 0 {
            3 * STEADY
        } else {
            Duration::from_millis(2)
        };
        std::thread::sleep(pause);
    }
    (saves, stalled)
}

/// One hook call of `make deploy`. The hooks run at the lowest priority
/// (`nice -n 19`), so that sixteen of them on two cores do not starve the
/// writer of CPU: the race is with an editor saving, not with a machine
/// too busy to let it save.
fn call(w: &World) -> Call {
    use std::process::{Command, Stdio};
    let start = Instant::now();
    let warden = w.command();
    let mut child = Command::new("nice")
        .args(["-n", "19"])
        .arg(warden.get_program())
        .args(["--agent", "native"])
        .env_clear()
        .envs(
            warden
                .get_envs()
                .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn nice warden");
    let payload = json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": DENIED},
        "cwd": w.path("project"),
    });
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let end = Instant::now();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    Call {
        span: (start, end),
        verdict: serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}")),
        stderr,
    }
}

/// `CALLERS` threads making `calls` calls each, one after another.
fn callers(w: &Arc<World>, calls: usize) -> Vec<Call> {
    let made = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = (0..CALLERS)
        .map(|_| {
            let (w, made) = (w.clone(), made.clone());
            std::thread::spawn(move || {
                for _ in 0..calls {
                    let done = call(&w);
                    made.lock().unwrap().push(done);
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    Arc::try_unwrap(made).unwrap().into_inner().unwrap()
}

fn blocked_by_the_deny_rule(call: &Call) -> bool {
    call.verdict["action"] == "block" && call.verdict["rule_id"] == "no-deploy"
}

/// The callers while the config is saved `how`: every call that ended
/// before a stalled save began is blocked by the deny rule. Returns whether
/// the writer stalled.
fn race(w: &Arc<World>, how: Save) -> bool {
    let stop = Arc::new(AtomicBool::new(false));
    let saver = {
        let (w, stop) = (w.clone(), stop.clone());
        std::thread::spawn(move || writer(&w, how, &stop))
    };
    let calls = callers(w, CALLS);
    stop.store(true, Ordering::Relaxed);
    let (saves, stalled) = saver.join().unwrap();
    let judged: Vec<&Call> = calls
        .iter()
        .filter(|c| stalled.is_none_or(|at| c.span.1 < at))
        .collect();
    let let_through: Vec<String> = judged
        .iter()
        .filter(|c| !blocked_by_the_deny_rule(c))
        .map(|c| format!("{} {}", c.verdict, c.stderr))
        .collect();
    assert!(
        let_through.is_empty(),
        "{how:?}: {} of {} calls not blocked by the deny rule ({saves} saves):\n{}",
        let_through.len(),
        judged.len(),
        let_through.join("\n")
    );
    for c in &judged {
        assert!(!c.stderr.contains("unusable"), "{how:?}: {}", c.stderr);
        assert!(!c.stderr.contains("-> 0 deny"), "{how:?}: {}", c.stderr);
    }
    assert!(stalled.is_some() || saves > 100, "{how:?}: {saves} saves");
    stalled.is_some()
}

fn sixteen_callers_never_believe_a_half_saved_config() {
    let w = Arc::new(World::new("saving/sixteen").file(USER, VERSION_A));
    // Seen whole once, then nothing is saved: no call waits.
    assert!(blocked_by_the_deny_rule(&call(&w)));
    let quiet = callers(&w, 4);
    for c in &quiet {
        assert!(blocked_by_the_deny_rule(c), "{} {}", c.verdict, c.stderr);
        assert_eq!(c.stderr, "", "a quiet call says nothing");
    }
    let why = w.why(DENIED);
    assert!(why.stdout.contains("cache: hit ("), "{}", why.stdout);
    assert!(!why.stdout.contains("settling:"), "{}", why.stdout);

    for how in [Save::InPlace, Save::Rename, Save::Replace] {
        let mut attempt = 1;
        while race(&w, how) {
            assert!(
                attempt < 5,
                "{how:?}: the writer stalled for {STALLED:?} in {attempt} runs: this machine is too loaded to tell a save from a pause"
            );
            attempt += 1;
            // The stall may have let a half-saved config settle and be
            // recorded: a whole one is recorded before the next run.
            save(&w, Save::Rename, VERSION_A);
            let why = w.why(DENIED);
            assert!(why.stdout.contains("verdict: block"), "{}", why.stdout);
        }
    }
    // Once the saving stops, the last version saved decides.
    std::thread::sleep(STEADY);
    let why = w.why(DENIED);
    assert!(why.stdout.contains("verdict: block"), "{}", why.stdout);
}
