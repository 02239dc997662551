//! The bad-input matrix through the real binary: every bad payload, environment, policy file and cache gets its documented verdict and stderr line, never a panic, and `rm -rf /` still blocks; the failure-policy table of docs/failure-policy.md is this list.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{self, World};

tests![
    every_bad_input_gets_its_documented_verdict,
    stdin_that_never_closes_meets_the_deadline,
    a_slow_decision_meets_the_deadline,
    a_panic_blocks_the_call,
    a_panic_in_a_batch_blocks_that_payload_and_the_batch_goes_on,
    a_closed_stdout_is_not_a_crash,
    long_arguments_full_of_separators_stay_small,
    a_bad_line_in_a_batch_is_judged_alone,
    a_full_disk_changes_no_verdict,
    failure_table_is_this_matrix,
];

const USER: &str = "home/.config/warden/config.yaml";
const DENY_PUSH: &str = "rules:\n  deny:\n    - \"terminal(git push:*)\"\n";

/// What a case does to the world or the payload.
enum Setup {
    /// These bytes are the payload.
    Payload(fn() -> Vec<u8>),
    /// A terminal call of `command`, in a world changed by the function.
    World(&'static str, fn(&World)),
}

/// What a case changes in warden's environment.
type EnvChange = Box<dyn Fn(&mut Command)>;

struct Case {
    /// The input, as the failure-policy table names it.
    input: &'static str,
    setup: Setup,
    /// `block`, `ask` or `allow`, and the deciding rule.
    decision: &'static str,
    rule: Option<&'static str>,
    /// What stderr says (empty: nothing).
    says: &'static str,
}

fn terminal(command: &str) -> Vec<u8> {
    json!({"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": command}})
        .to_string()
        .into_bytes()
}

fn write_cache(w: &World, bytes: &[u8]) {
    let dir = std::path::PathBuf::from(w.path("cache/warden"));
    for entry in std::fs::read_dir(&dir).expect("the cache was written") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path));
            if bytes == b"DIR" {
                std::fs::create_dir_all(&path).unwrap();
            } else {
                std::fs::write(&path, bytes).unwrap();
            }
        }
    }
}

fn cases() -> Vec<Case> {
    use Setup::{Payload, World as In};
    let input = |input, setup, decision, rule, says| Case {
        input,
        setup,
        decision,
        rule,
        says,
    };
    vec![
        input("empty stdin", Payload(Vec::new), "block", Some("input.empty"), "payload is empty"),
        input("only whitespace", Payload(|| b" \n\t".to_vec()), "block", Some("input.empty"), "payload is empty"),
        input("not JSON (`hello`)", Payload(|| b"hello".to_vec()), "block", Some("input.malformed-json"), "not valid JSON"),
        input("JSON that is not an object (`[1,2]`)", Payload(|| b"[1,2]".to_vec()), "block", Some("input.malformed-json"), "not a JSON object"),
        input("`command: 42`", Payload(|| br#"{"tool_name":"terminal","tool_input":{"command":42}}"#.to_vec()), "block", Some("input.bad-field"), "`tool_input.command` is neither a string"),
        input("`tool_input: \"x\"`", Payload(|| br#"{"tool_name":"terminal","tool_input":"x"}"#.to_vec()), "block", Some("input.bad-field"), "`tool_input` is not an object"),
        input("`tool_name: null`", Payload(|| br#"{"hook_event_name":"pre_tool_call","tool_name":null,"tool_input":{}}"#.to_vec()), "block", Some("input.bad-field"), "`tool_name`"),
        input("a shell call without `tool_input`", Payload(|| br#"{"tool_name":"terminal"}"#.to_vec()), "block", Some("input.bad-field"), "`tool_input`"),
        input("a 10 MiB payload", Payload(|| terminal(&"a".repeat(10 << 20))), "block", Some("input.too-large"), "4194304-byte limit"),
        input("invalid UTF-8", Payload(|| b"{\"tool_name\":\"terminal\",\"tool_input\":{\"command\":\"ls \xff\"}}".to_vec()), "block", Some("input.not-utf8"), "not valid UTF-8"),
        input("a lone surrogate (`\\ud800`)", Payload(|| br#"{"tool_name":"terminal","tool_input":{"command":"ls \ud800"}}"#.to_vec()), "block", Some("input.malformed-json"), "not valid JSON"),
        input("a raw NUL byte in the JSON", Payload(|| b"{\"tool_name\":\"terminal\",\"tool_input\":{\"command\":\"ls\0\"}}".to_vec()), "block", Some("input.malformed-json"), "not valid JSON"),
        input("an escaped NUL in the command (`rm -rf /\\u0000x`)", Payload(|| terminal("rm -rf /\0x")), "block", Some("input.bad-field"), "NUL byte"),
        input("a command of 200,000 `;` (bash refuses it: nothing runs)", Payload(|| terminal(&";".repeat(200_000))), "allow", None, ""),
        input("`HOME` unset", In("git status", |_| {}), "allow", None, ""),
        input("`HOME` pointing nowhere", In("git status", |_| {}), "allow", None, ""),
        input("policy: invalid YAML", In("git status", |w| w.put(USER, "rules: [\n")), "block", Some("config.invalid"), "config.yaml:"),
        input("policy: a regex the regex crate rejects", In("git status", |w| w.put(USER, "rules:\n  deny:\n    - regex: '(unclosed'\n")), "block", Some("config.invalid"), "config.yaml:3"),
        input("policy: an id used twice in one file", In("git status", |w| w.put(USER, "rules:\n  deny:\n    - {id: x, pattern: 'terminal(a:*)'}\n    - {id: x, pattern: 'terminal(b:*)'}\n")), "block", Some("config.invalid"), "`x`"),
        input("policy: an unknown key", In("git status", |w| w.put(USER, "rulez: {}\n")), "block", Some("config.invalid"), "unknown field `rulez`"),
        input("policy: a directory where the file should be", In("git status", |w| {
            std::fs::remove_file(w.path(USER)).unwrap();
            std::fs::create_dir_all(w.path(USER)).unwrap()
        }), "block", Some("config.invalid"), "not a regular file but a directory"),
        input("policy: a FIFO where the file should be", In("git status", |w| make_fifo(&w.path(USER))), "block", Some("config.invalid"), "a pipe, socket or device"),
        input("policy: a file that cannot be read (mode 000; root reads it anyway, so the test skips it as root)", In("git status", |w| chmod_000(&w.path(USER))), "block", Some("config.invalid"), "Permission denied"),
        input("policy: a symlink loop", In("git status", |w| symlink_loop(&w.path(USER))), "block", Some("config.invalid"), "cannot be read"),
        input("policy: a 50 MiB file", In("git status", |w| w.put(USER, format!("# {}\n", "x".repeat(50 << 20)))), "block", Some("config.invalid"), "16777216-byte limit"),
        input("policy: never read whole, as in a save that never ends (here a `/proc` file, whose size is never what is read), with a complete version cached", In("git push", |w| never_whole(w, false)), "block", Some("config.deny-1"), "did not settle within 500 ms"),
        input("policy: never read whole, and no complete version of it cached", In("git push", |w| never_whole(w, true)), "block", Some("config.invalid"), "did not settle within 500 ms; no complete version"),
        input("cache: truncated", In("git push", |w| { let b = cache_bytes(w); write_cache(w, &b[..b.len() / 2]) }), "block", Some("config.deny-1"), "was truncated"),
        input("cache: random bytes", In("git push", |w| write_cache(w, &[0x5a; 300])), "block", Some("config.deny-1"), "is not a warden cache"),
        input("cache: another format version", In("git push", |w| { let mut b = cache_bytes(w); b[8] ^= 0x7f; write_cache(w, &b) }), "block", Some("config.deny-1"), "another warden version"),
        input("cache: a directory in its place", In("git push", |w| write_cache(w, b"DIR")), "block", Some("config.deny-1"), "could not be written"),
        input("cache: its directory cannot be created", In("git push", |w| { std::fs::remove_dir_all(w.path("cache")).unwrap(); w.put("cache", "a file") }), "block", Some("config.deny-1"), "could not be written"),
    ]
}

/// The cache bytes the world's policy compiled to (the world has run once).
fn cache_bytes(w: &World) -> Vec<u8> {
    let dir = std::path::PathBuf::from(w.path("cache/warden"));
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "bin"))
        .map(|p| std::fs::read(p).unwrap())
        .expect("a cache file")
}

/// The user's config replaced by a link to a file whose `stat` says it is
/// empty and whose reads say otherwise, as a save caught in the middle
/// always looks; `forget`: with the compiled cache gone too.
fn never_whole(w: &World, forget: bool) {
    std::fs::remove_file(w.path(USER)).unwrap();
    std::os::unix::fs::symlink("/proc/self/status", w.path(USER)).unwrap();
    if forget {
        std::fs::remove_dir_all(w.path("cache")).unwrap();
    }
}

fn make_fifo(path: &str) {
    let _ = std::fs::remove_file(path);
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {path}");
}

fn chmod_000(path: &str) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
}

fn symlink_loop(path: &str) {
    let _ = std::fs::remove_file(path);
    #[cfg(unix)]
    std::os::unix::fs::symlink(path, path).unwrap();
}

fn run(w: &World, payload: &[u8], change: impl FnOnce(&mut Command)) -> Output {
    w.run_binary(&["--agent", "native"], payload, change)
}

/// The one verdict line, parsed; stderr; and the checks every case shares.
fn check(case: &str, out: &Output) -> (Value, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{case}: {stderr}");
    assert!(!stderr.contains("internal error"), "{case}: {stderr}");
    let line = stdout
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("{case}: {stdout:?}"));
    assert!(!line.contains('\n'), "{case}: one line: {stdout}");
    let verdict = serde_json::from_str(line).unwrap_or_else(|e| panic!("{case}: {e}: {line}"));
    (verdict, stderr)
}

fn every_bad_input_gets_its_documented_verdict() {
    for (n, case) in cases().into_iter().enumerate() {
        let w = World::new(&format!("bad-input/{n}")).file(USER, DENY_PUSH);
        let (payload, env_change): (Vec<u8>, EnvChange) = match &case.setup {
            Setup::Payload(bytes) => (bytes(), Box::new(|_| {})),
            Setup::World(command, change) => {
                // Run once so a cache exists to be damaged, then change the world.
                let _ = run(&w, &terminal(command), |_| {});
                change(&w);
                let env: EnvChange = match case.input {
                    "`HOME` unset" => Box::new(|c| {
                        c.env_remove("HOME");
                    }),
                    "`HOME` pointing nowhere" => Box::new(|c| {
                        c.env("HOME", "/nonexistent/warden-home");
                    }),
                    _ => Box::new(|_| {}),
                };
                (terminal(command), env)
            }
        };
        if case.input.contains("mode 000") && unreadable_is_readable(&w) {
            continue;
        }
        if case.input.contains("/proc") && !std::path::Path::new("/proc/self/status").exists() {
            continue;
        }
        let (verdict, stderr) = check(case.input, &run(&w, &payload, &env_change));
        assert_eq!(
            verdict["action"], case.decision,
            "{}: {verdict}",
            case.input
        );
        assert_eq!(
            verdict["rule_id"].as_str(),
            case.rule,
            "{}: {verdict}",
            case.input
        );
        if case.says.is_empty() {
            assert_eq!(stderr, "", "{}", case.input);
        } else {
            assert!(
                stderr.starts_with("warden: ") && stderr.contains(case.says),
                "{}: {stderr:?} does not say {:?}",
                case.input,
                case.says
            );
            assert!(stderr.lines().count() <= 2, "{}: {stderr}", case.input);
        }
        // Whatever is broken, the floor holds.
        if matches!(case.setup, Setup::World(..)) {
            let (floor, _) = check(case.input, &run(&w, &terminal("rm -rf /"), &env_change));
            assert_eq!(floor["action"], "block", "{}: {floor}", case.input);
            assert_eq!(floor["layer"], "hardline", "{}: {floor}", case.input);
        }
    }
}

/// Root reads a mode-000 file anyway.
fn unreadable_is_readable(w: &World) -> bool {
    std::fs::read(w.path(USER)).is_ok()
}

fn stdin_that_never_closes_meets_the_deadline() {
    let w = World::new("bad-input/deadline").var("WARDEN_DEADLINE_MS", "300");
    for agent in ["native", "claude"] {
        let mut child = w.spawn(&["--agent", agent]);
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"{\"tool_name\":").unwrap();
        let started = Instant::now();
        // stdin stays open until the child is done; a hook that never
        // answers is killed, so the test fails instead of hanging.
        let pid = child.id();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(20));
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        });
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        drop(killer);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
        let (verdict, stderr) = check("stdin never closes", &out);
        if agent == "native" {
            assert_eq!(verdict["action"], "block", "{verdict}");
            assert_eq!(verdict["rule_id"], "input.deadline", "{verdict}");
        } else {
            assert_eq!(
                verdict["hookSpecificOutput"]["permissionDecision"], "deny",
                "{verdict}"
            );
        }
        assert!(stderr.contains("300 ms deadline"), "{stderr}");
    }
}

/// A decision that outlasts the deadline (a megabyte command against a
/// 1 ms deadline) ends in the deadline's block, not in a late allow.
fn a_slow_decision_meets_the_deadline() {
    let w = World::new("bad-input/slow").var("WARDEN_DEADLINE_MS", "1");
    let command = "echo ok; ".repeat(100_000);
    let (verdict, stderr) = check("slow decision", &run(&w, &terminal(&command), |_| {}));
    assert_eq!(verdict["rule_id"], "input.deadline", "{verdict}");
    assert!(stderr.contains("1 ms deadline"), "{stderr}");
}

/// The command a debug build panics on when `WARDEN_DEBUG_PANIC` names it:
/// a stand-in for a bug, which a release build cannot be made to show.
const PANICS: &str = "echo a command warden panics on";

/// A bug that panics in hook mode still leaves a block on stdout (the
/// every-agent form: the panic hook does not know the dialect) and exit 0.
fn a_panic_blocks_the_call() {
    let w = World::new("bad-input/panic").var("WARDEN_DEBUG_PANIC", PANICS);
    for agent in [&["--agent", "native"][..], &["--agent", "codex"], &[]] {
        let out = w.run_binary(agent, &terminal(PANICS), |_| {});
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let line = String::from_utf8_lossy(&out.stdout);
        let verdict: Value = serde_json::from_str(line.trim_end()).expect("one JSON line");
        assert_eq!(verdict["decision"], "block", "{agent:?}: {verdict}");
        assert_eq!(
            verdict["hookSpecificOutput"]["permissionDecision"], "deny",
            "{verdict}"
        );
        assert!(
            verdict["reason"]
                .as_str()
                .unwrap_or("")
                .contains("internal error"),
            "{verdict}"
        );
        assert!(
            stderr.starts_with("warden: internal error: ") && stderr.contains("WARDEN_DEBUG_PANIC"),
            "{stderr}"
        );
    }
    // Any other command is judged as ever.
    let (floor, _) = check("panic", &run(&w, &terminal("rm -rf /"), |_| {}));
    assert_eq!(floor["rule_id"], "hardline.rm-root", "{floor}");
}

/// In `check --batch` a panic on one payload is that payload's block, in the
/// batch's dialect, and the stream goes on with the policy loaded afresh:
/// one line out for every line in. The release profile must unwind for the
/// batch to catch it (a build that aborts would end at the panic hook).
fn a_panic_in_a_batch_blocks_that_payload_and_the_batch_goes_on() {
    let manifest = support::read_repo_file("Cargo.toml");
    let release = manifest
        .split("[profile.release]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .expect("a release profile");
    assert!(
        release.lines().any(|l| l.trim() == "panic = \"unwind\""),
        "the release profile must unwind: {release}"
    );
    let w = World::new("bad-input/panic-batch")
        .file(USER, DENY_PUSH)
        .var("WARDEN_DEBUG_PANIC", PANICS);
    let lines = [
        ("git status", "allow", None),
        (PANICS, "block", Some("internal.error")),
        ("git push origin main", "block", Some("config.deny-1")),
        ("rm -rf /", "block", Some("hardline.rm-root")),
        (PANICS, "block", Some("internal.error")),
        ("git push origin main", "block", Some("config.deny-1")),
        ("git status", "allow", None),
    ];
    let mut stream = Vec::new();
    for (command, ..) in lines {
        stream.extend(json!({"tool_name": "terminal", "tool_input": {"command": command}, "cwd": w.path("project")}).to_string().bytes());
        stream.push(b'\n');
    }
    let out = w.run_binary(&["check", "--batch", "--agent", "native"], &stream, |_| {});
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let verdicts: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a verdict line"))
        .collect();
    assert_eq!(verdicts.len(), lines.len(), "{stdout}{stderr}");
    for ((command, action, rule), verdict) in lines.iter().zip(&verdicts) {
        assert_eq!(verdict["action"], *action, "{command}: {verdict}");
        assert_eq!(verdict["rule_id"].as_str(), *rule, "{command}: {verdict}");
    }
    assert_eq!(
        stderr.matches("internal error").count(),
        2,
        "one line each: {stderr}"
    );
    assert!(
        stderr.starts_with("warden: line 2: internal error: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("warden: line 5: internal error: "),
        "{stderr}"
    );
}

fn a_closed_stdout_is_not_a_crash() {
    let w = World::new("bad-input/sigpipe");
    let mut child = w.spawn(&[]);
    // The reader goes away before the verdict is written.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&terminal("rm -rf /")).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("internal error"));
}

/// Every suffix after a `=` or `:` in an argument is searched for a hidden
/// command; a fuzz run found that copying them all made 80 KB of `k=v`
/// take 0.8 GB. Under a 256 MiB address-space limit such a line (and a
/// megabyte one) must still get its verdict, not die allocating.
fn long_arguments_full_of_separators_stay_small() {
    let w = World::new("bad-input/separators");
    for (n, argument) in [
        "k=v ".repeat(20_000),
        "a:b|c=d ".repeat(120_000),
        format!("{}rm -rf ~", "x=1 ".repeat(30_000)),
    ]
    .into_iter()
    .enumerate()
    {
        let command = format!("mytool --data \"{argument}\"");
        let out = run(&w, &terminal(&command), |c| {
            let exe = c.get_program().to_owned();
            *c = {
                let mut limited = Command::new("sh");
                limited
                    .arg("-c")
                    .arg("ulimit -v 262144 && exec \"$0\" \"$@\"")
                    .arg(exe)
                    .args(["--agent", "native"])
                    .env_clear()
                    .envs(
                        c.get_envs()
                            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
                    )
                    .current_dir(c.get_current_dir().unwrap_or(std::path::Path::new(".")))
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped());
                limited
            };
        });
        let (verdict, _) = check(&format!("separators {n}"), &out);
        assert!(verdict["action"].is_string(), "{verdict}");
    }
}

/// In `check --batch`, a line that is not UTF-8 gets the hook's block for
/// it and the stream goes on; carriage returns, blank lines, a line longer
/// than the read block and a last line without a newline are read as lines.
fn a_bad_line_in_a_batch_is_judged_alone() {
    let w = World::new("bad-input/batch-lines");
    let payload = |command: &str| {
        json!({"tool_name": "terminal", "tool_input": {"command": command}}).to_string()
    };
    let long = format!("echo {}", "x".repeat(200_000));
    let mut stream = Vec::new();
    stream.extend_from_slice(payload("git status").as_bytes());
    stream.extend_from_slice(b"\r\n\n   \n");
    stream.extend_from_slice(
        b"{\"tool_name\":\"terminal\",\"tool_input\":{\"command\":\"ls \xff\"}}\n",
    );
    stream.extend_from_slice(payload(&long).as_bytes());
    stream.push(b'\n');
    stream.extend_from_slice(payload("rm -rf /").as_bytes());
    let args = ["check", "--batch", "--agent", "native"].map(String::from);
    let out = warden::cli::run(&args, &mut stream.as_slice(), &w.env(false));
    let verdicts: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a verdict line"))
        .collect();
    let decided: Vec<(&str, &str)> = verdicts
        .iter()
        .map(|v| {
            (
                v["action"].as_str().unwrap_or("?"),
                v["rule_id"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        decided,
        [
            ("allow", "-"),
            ("block", "input.not-utf8"),
            ("allow", "-"),
            ("block", "hardline.rm-root"),
        ],
        "{out:?}"
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("warden: line 4: payload is not valid UTF-8"),
        "{}",
        out.stderr
    );
}

/// The cache and the audit log on a full file system (a 64 KiB tmpfs,
/// filled): the verdicts are the same, stderr says what was not written.
/// Mounting needs root; elsewhere the test says so and checks nothing.
fn a_full_disk_changes_no_verdict() {
    let w = World::new("bad-input/full-disk").file(
        USER,
        &format!("{DENY_PUSH}audit:\n  path: ~/full/audit.jsonl\n"),
    );
    let full = w.path("full");
    std::fs::create_dir_all(&full).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs", &full])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("bad_input::a_full_disk_changes_no_verdict: cannot mount a tmpfs here (not root?); skipped");
        return;
    }
    let _ = Command::new("sh")
        .arg("-c")
        .arg(format!("cat /dev/zero > {full}/filler 2>/dev/null; true"))
        .status();
    let _ = std::fs::create_dir_all(format!("{full}/cache"));
    let w = w.var("XDG_CACHE_HOME", &format!("{full}/cache"));
    std::os::unix::fs::symlink(&full, w.path("home/full")).unwrap();
    let result = std::panic::catch_unwind(|| {
        for (command, action, rule) in [
            ("git push origin main", "block", Some("config.deny-1")),
            ("rm -rf /", "block", Some("hardline.rm-root")),
            ("git status", "allow", None),
        ] {
            let (verdict, stderr) = check("full disk", &run(&w, &terminal(command), |_| {}));
            assert_eq!(verdict["action"], action, "{command}: {verdict}");
            assert_eq!(verdict["rule_id"].as_str(), rule, "{command}: {verdict}");
            assert!(
                stderr.contains("audit log not written"),
                "{command}: {stderr}"
            );
            assert!(stderr.contains("No space left"), "{command}: {stderr}");
        }
    });
    let _ = Command::new("umount").arg(&full).status();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// The failure-policy table of docs/failure-policy.md, generated from [`cases`].
fn table() -> String {
    let mut out = String::from("| input | verdict | stderr says |\n|---|---|---|\n");
    for case in cases() {
        let verdict = match case.rule {
            Some(rule) => format!("{} (`{rule}`)", case.decision),
            None => case.decision.to_string(),
        };
        let says = if case.says.is_empty() {
            "nothing".to_string()
        } else {
            format!("`warden: …{}…`", case.says.replace('`', ""))
        };
        out.push_str(&format!("| {} | {verdict} | {says} |\n", case.input));
    }
    out.push_str("| stdin never closes | block (`input.deadline`) | `warden: no verdict within the 2000 ms deadline …` |\n");
    out.push_str("| a decision slower than the deadline | block (`input.deadline`) | `warden: no verdict within the 2000 ms deadline …` |\n");
    out.push_str("| a bug in warden that panics (debug builds panic on the command `WARDEN_DEBUG_PANIC` names) | block (`internal.error`), in the form every agent reads | `warden: internal error: …` |\n");
    out.push_str("| the same, on one payload of `check --batch` | that payload: block (`internal.error`); the batch goes on | `warden: line N: internal error: …` |\n");
    out.push_str(
        "| stdout closed before the verdict | exit 0, no verdict can be read | nothing |\n",
    );
    out
}

fn failure_table_is_this_matrix() {
    support::doc_block(
        "docs/failure-policy.md",
        "<!-- failure-policy:start -->\n",
        "<!-- failure-policy:end -->",
        &table(),
        "the bad-input matrix (tests/warden/bad_input.rs)",
    );
}
