//! The syslog sink through the real binary and a real rsyslogd: each decision read back from the daemon's own output as one RFC 5424 message, redacted; a managed policy turning it on for a user who is not root; a socket that is missing or dead changing no verdict.
//!
//! rsyslogd runs in the foreground with a config of its own: a datagram
//! socket in a temporary directory, parsed as RFC 5424 (imuxsock's parser
//! for syslog(3)'s format is off), written to a file in the same place in
//! RFC 5424 again. Where rsyslogd is not installed the daemon's tests say
//! SKIPPED, unless `CI` or `WARDEN_REQUIRE_SYSLOG=1` is set: there they fail.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::audit::terminal;

use crate::support::World;

tests![
    decisions_reach_a_real_syslog_daemon,
    a_managed_policy_turns_syslog_on_for_a_person_who_is_not_root,
    a_missing_or_dead_socket_changes_no_verdict,
];

/// A running rsyslogd, stopped when dropped.
struct Rsyslog {
    child: Child,
    dir: PathBuf,
    socket: PathBuf,
    out: PathBuf,
}

impl Rsyslog {
    /// Starts rsyslogd on a socket of its own, or says why not: `None`
    /// (skipped) only where neither `CI` nor `WARDEN_REQUIRE_SYSLOG` asks
    /// for the daemon.
    fn start(test: &str) -> Option<Rsyslog> {
        let Some(program) = rsyslogd() else {
            let required = std::env::var("WARDEN_REQUIRE_SYSLOG").is_ok_and(|v| v == "1")
                || std::env::var("CI").is_ok_and(|v| !v.is_empty());
            assert!(
                !required,
                "rsyslogd is not installed, and CI (or WARDEN_REQUIRE_SYSLOG=1) requires the \
                 syslog sink to be read back from a real daemon: apt-get install rsyslog"
            );
            eprintln!(
                "SKIPPED syslog::{test}: rsyslogd is not installed (apt-get install rsyslog)"
            );
            return None;
        };
        // Short and under /tmp: a socket's path has room for about 100 bytes.
        let dir = std::env::temp_dir().join(format!("warden-syslog-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the daemon's directory");
        let socket = dir.join("log.sock");
        let out = dir.join("messages.log");
        let conf = dir.join("rsyslog.conf");
        let text = format!(
            "global(workDirectory=\"{dir}\")\n\
             module(load=\"imuxsock\" SysSock.Use=\"off\")\n\
             input(type=\"imuxsock\" Socket=\"{socket}\" UseSpecialParser=\"off\")\n\
             action(type=\"omfile\" file=\"{out}\" template=\"RSYSLOG_SyslogProtocol23Format\")\n",
            dir = dir.display(),
            socket = socket.display(),
            out = out.display(),
        );
        std::fs::write(&conf, text).expect("write the daemon's config");
        let log = std::fs::File::create(dir.join("rsyslogd.stderr")).expect("daemon log");
        let child = Command::new(program)
            .arg("-n")
            .arg("-f")
            .arg(&conf)
            .arg("-i")
            .arg(dir.join("rsyslogd.pid"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("daemon log"))
            .stderr(log)
            .spawn()
            .expect("start rsyslogd");
        let daemon = Rsyslog {
            child,
            dir,
            socket,
            out,
        };
        daemon.wait_for(|| daemon.socket.exists(), "its socket");
        Some(daemon)
    }

    fn socket(&self) -> String {
        self.socket.display().to_string()
    }

    /// Waits (up to 30 s, for a loaded machine) until `ready`, or fails
    /// with what the daemon said.
    fn wait_for(&self, ready: impl Fn() -> bool, what: &str) {
        let until = Instant::now() + Duration::from_secs(30);
        while !ready() {
            assert!(
                Instant::now() < until,
                "rsyslogd never showed {what}; it said:\n{}",
                std::fs::read_to_string(self.dir.join("rsyslogd.stderr")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The first `n` messages the daemon wrote, waiting for them.
    fn messages(&self, n: usize) -> Vec<String> {
        let read = || -> Vec<String> {
            std::fs::read_to_string(&self.out)
                .unwrap_or_default()
                .lines()
                .map(str::to_string)
                .collect()
        };
        self.wait_for(|| read().len() >= n, &format!("{n} messages"));
        let mut lines = read();
        lines.truncate(n);
        lines
    }
}

impl Drop for Rsyslog {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// rsyslogd on the PATH or where Debian puts it (`/usr/sbin`, often not on
/// a user's PATH).
fn rsyslogd() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
        .map(|dir| dir.join("rsyslogd"))
        .find(|p| p.is_file())
}

/// One message as rsyslog wrote it back: `<PRI>1 TIME HOST APP PROCID
/// MSGID [SD] MSG`, split at its spaces and its structured data.
#[derive(Debug)]
struct Message {
    pri: u32,
    app: String,
    procid: String,
    msgid: String,
    sd: String,
    msg: String,
}

fn parse(line: &str) -> Message {
    let rest = line
        .strip_prefix('<')
        .unwrap_or_else(|| panic!("no PRI: {line}"));
    let (pri, rest) = rest.split_once(">1 ").expect("PRI and version");
    let mut fields = rest.splitn(6, ' ');
    let mut next = || fields.next().unwrap_or_else(|| panic!("short: {line}"));
    let (_time, _host) = (next(), next());
    let (app, procid, msgid, rest) = (next(), next(), next(), next());
    // The structured data ends at the first `]` no backslash escapes.
    let end = rest
        .char_indices()
        .find(|&(i, c)| c == ']' && !rest[..i].ends_with('\\'))
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no structured data: {line}"));
    Message {
        pri: pri.parse().expect("numeric PRI"),
        app: app.into(),
        procid: procid.into(),
        msgid: msgid.into(),
        sd: rest[..=end].into(),
        msg: rest[end + 1..].trim_start().into(),
    }
}

fn decisions_reach_a_real_syslog_daemon() {
    let Some(daemon) = Rsyslog::start("real") else {
        return;
    };
    let config = format!(
        "audit:\n  path: ~/audit.jsonl\n  syslog:\n    socket: {}\n    facility: local3\n",
        daemon.socket()
    );
    let w = World::new("syslog/real").file("home/.config/warden/config.yaml", &config);
    let calls = crate::audit::sample_calls(&w);
    for call in &calls {
        let out = w.run_binary(&[], call.to_string().as_bytes(), |_| {});
        assert!(out.status.success());
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let messages: Vec<Message> = daemon
        .messages(calls.len())
        .iter()
        .map(|l| parse(l))
        .collect();
    // local3 is 19: block a warning (4), ask a notice (5), allow information (6).
    let pris: Vec<u32> = messages.iter().map(|m| m.pri).collect();
    assert_eq!(pris, [158, 156, 157, 158, 157], "{messages:#?}");
    let msgids: Vec<&str> = messages.iter().map(|m| m.msgid.as_str()).collect();
    assert_eq!(msgids, ["allow", "block", "ask", "allow", "ask"]);
    for m in &messages {
        assert_eq!(m.app, "warden", "{m:?}");
        assert!(m.procid.parse::<u32>().is_ok(), "{m:?}");
        assert!(m.sd.starts_with("[warden@32473 "), "{m:?}");
    }
    let blocked = &messages[1];
    for param in [
        "decision=\"block\"",
        "layer=\"hardline\"",
        "rule=\"hardline.rm-root\"",
        "agent=\"hermes\"",
        "tool=\"terminal\"",
        "session=\"sess-1\"",
    ] {
        assert!(blocked.sd.contains(param), "{param}: {blocked:?}");
    }
    assert!(
        blocked
            .sd
            .contains(&format!("cwd=\"{}\"", w.path("project"))),
        "{blocked:?}"
    );
    assert_eq!(blocked.msg, "rm -rf /");
    assert!(!messages[0].sd.contains("rule="), "{:?}", messages[0]);
    let redacted = &messages[3].msg;
    assert!(
        !redacted.contains("tok_live_123") && !redacted.contains("hunter2"),
        "{redacted}"
    );
    assert!(redacted.contains("[REDACTED]"), "{redacted}");
    assert!(
        messages[4].sd.contains("agent=\"claude\""),
        "{:?}",
        messages[4]
    );
    assert_eq!(messages[4].msg, w.path("home/.bashrc"));
    let doctor = w.run(&["doctor"]).stdout;
    let line = format!(
        "audit: decisions go to syslog at {} (local3)",
        daemon.socket()
    );
    assert!(doctor.contains(&line), "{doctor}");
    // The file gets the same decisions beside it.
    let file = w.read("home/audit.jsonl");
    assert_eq!(file.lines().count(), calls.len(), "{file}");
    assert!(!file.contains("hunter2"));
}

/// A fleet's policy comes from `/etc/warden`: its `audit:` applies to
/// every person on the machine while only root can write it. The tests run
/// as root, where a moved managed directory only tightens (an agent running
/// as root could have made it), so the other side runs as uid 65534.
fn a_managed_policy_turns_syslog_on_for_a_person_who_is_not_root() {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok();
    if !root || !setpriv {
        eprintln!("SKIPPED syslog::a_managed_policy_turns_syslog_on_for_a_person_who_is_not_root: needs root and setpriv");
        return;
    }
    let Some(daemon) = Rsyslog::start("managed") else {
        return;
    };
    let policy = format!(
        "audit:\n  file: false\n  syslog:\n    socket: {}\n",
        daemon.socket()
    );
    let w = World::new("syslog/managed").file("etc-warden/policy.yaml", &policy);
    for dir in ["home", "cache", "state", "project"] {
        std::fs::create_dir_all(w.path(dir)).expect("create");
        let ok = Command::new("chown")
            .args(["-R", "65534:65534", &w.path(dir)])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "chown {dir}");
    }
    // As root first: the policy only tightens, its `audit` is withheld and
    // nothing is sent. Messages arrive in order, so had it been sent it
    // would come before the other user's.
    let as_root = w.run_binary(
        &[],
        terminal(&w, "echo root-side").to_string().as_bytes(),
        |_| {},
    );
    assert_eq!(String::from_utf8_lossy(&as_root.stdout).trim(), "{}");
    let payload = terminal(&w, "rm -rf /");
    let out = w
        .run_wrapped(
            &[
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--",
            ],
            &[],
            payload.to_string().as_bytes(),
        )
        .expect("run warden as another user");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"block\""), "{stdout}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let message = parse(&daemon.messages(1)[0]);
    // authpriv (10) by default: a block is 84.
    assert_eq!(message.pri, 84, "{message:?}");
    assert!(
        message.sd.contains("rule=\"hardline.rm-root\""),
        "{message:?}"
    );
    assert_eq!(message.msg, "rm -rf /");
    // `file: false`: no JSONL file anywhere in the user's state.
    assert!(!Path::new(&w.path("state/warden/audit.jsonl")).exists());
}

fn a_missing_or_dead_socket_changes_no_verdict() {
    // A socket file nobody listens on any more: the send is refused.
    let dead = std::env::temp_dir().join(format!("warden-syslog-{}-dead.sock", std::process::id()));
    let _ = std::fs::remove_file(&dead);
    drop(std::os::unix::net::UnixDatagram::bind(&dead).expect("bind"));
    for (name, socket) in [
        ("missing", "/nonexistent/warden/log.sock".to_string()),
        ("dead", dead.display().to_string()),
    ] {
        let config = format!("audit:\n  path: ~/audit.jsonl\n  syslog:\n    socket: {socket}\n");
        let w =
            World::new(&format!("syslog/{name}")).file("home/.config/warden/config.yaml", &config);
        let started = Instant::now();
        let out = w.run_binary(&[], terminal(&w, "rm -rf /").to_string().as_bytes(), |_| {});
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(out.status.success());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("\"block\""), "{stdout}");
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("warden: audit message not sent to syslog: ")
                && stderr.contains(&socket),
            "{stderr}"
        );
        let allowed = w.run_binary(
            &[],
            terminal(&w, "git status").to_string().as_bytes(),
            |_| {},
        );
        assert_eq!(String::from_utf8_lossy(&allowed.stdout).trim(), "{}");
        // The file beside it was still written, every time.
        assert_eq!(w.read("home/audit.jsonl").lines().count(), 2, "{name}");
        let doctor = w.run(&["doctor"]).stdout;
        assert!(
            doctor.contains(&format!("audit: syslog is not receiving: {socket}")),
            "{doctor}"
        );
    }
    // With the file off, `warden audit` says where the decisions went.
    let w = World::new("syslog/no-file").file(
        "home/.config/warden/config.yaml",
        "audit:\n  file: false\n  syslog: true\n",
    );
    let tail = w.run(&["audit", "tail"]);
    assert_eq!(tail.code, 2);
    assert!(tail.stderr.contains("only to syslog"), "{}", tail.stderr);
    let _ = std::fs::remove_file(&dead);
}
