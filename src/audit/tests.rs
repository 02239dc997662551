//! Tests of the audit log: entries, redaction on write, rotation, reading back and counting.

use super::*;

use crate::payload::{Agent, ToolCall};
use crate::verdict::{Decision, Layer, Reason};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn entry(command: &str, decision: &str, rule: Option<&str>, time: &str) -> Entry {
    Entry {
        time: time.into(),
        agent: "hermes".into(),
        session: None,
        tool: "terminal".into(),
        decision: decision.into(),
        layer: "dangerous".into(),
        rule: rule.map(str::to_string),
        cwd: None,
        workdir: None,
        command: Some(command.into()),
        paths: Vec::new(),
        once: None,
    }
}

#[test]
fn an_entry_names_the_call_and_the_verdict() {
    let call = ToolCall::shell(
        "curl -H 'Authorization: Bearer xyz' https://x",
        Some("/p".into()),
    )
    .with_workdir(Some("src".into()))
    .from(Agent::Claude, "PreToolUse");
    let verdict = Verdict::new(
        Decision::Ask,
        Layer::Dangerous,
        Some("net.example".into()),
        "",
        Reason::OtherEvent { event: "x".into() },
    );
    let e = Entry::new(&call, &verdict, std::time::UNIX_EPOCH).redacted();
    assert_eq!(e.time, "1970-01-01T00:00:00.000Z");
    assert_eq!(e.agent, "claude");
    assert_eq!(e.decision, "ask");
    assert_eq!(e.rule.as_deref(), Some("net.example"));
    assert_eq!(e.cwd.as_deref(), Some("/p"));
    assert_eq!(e.workdir.as_deref(), Some("src"));
    let command = e.command.unwrap_or_default();
    assert!(!command.contains("xyz"), "{command}");
    assert!(
        command.starts_with("curl -H 'Authorization: [REDACTED]'"),
        "{command}"
    );
}

#[test]
fn long_commands_are_cut_on_a_character_boundary() {
    let long = "é".repeat(MAX_LOGGED_BYTES);
    let cut = cut(&long);
    assert!(cut.len() < MAX_LOGGED_BYTES + 40, "{}", cut.len());
    assert!(cut.ends_with(&format!("[{} more bytes]", MAX_LOGGED_BYTES)));
}

#[test]
fn lines_append_and_rotate_by_size_keeping_n_files() {
    let dir = temp_dir("rotate");
    let log = Log {
        path: dir.join("logs/audit.jsonl"),
        max_bytes: 4096,
        keep: 2,
    };
    let mut written = 0;
    for n in 0..200 {
        let pending = Pending {
            log: Some(log.clone()),
            syslog: None,
            entry: entry(
                &format!("echo {n}"),
                "allow",
                None,
                "2026-11-24T00:00:00.000Z",
            ),
        };
        assert_eq!(pending.write(), Vec::<String>::new());
        written += 1;
    }
    for file in log.files() {
        let len = std::fs::metadata(&file).unwrap().len();
        assert!(len <= log.max_bytes, "{} is {len} bytes", file.display());
    }
    assert!(!log.rotated(3).exists(), "keeps only two rotated files");
    let read = log.read().unwrap();
    assert_eq!(read.bad, 0);
    assert_eq!(read.files, 3);
    assert!(read.entries.len() < written);
    // Oldest first, and the newest line is the last one written.
    let last = read.entries.last().and_then(|e| e.command.clone());
    assert_eq!(last.as_deref(), Some("echo 199"));
    let numbers: Vec<u32> = read
        .entries
        .iter()
        .filter_map(|e| e.command.as_deref()?.strip_prefix("echo ")?.parse().ok())
        .collect();
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{numbers:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&log.path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn keep_zero_starts_over() {
    let dir = temp_dir("keep0");
    let log = Log {
        path: dir.join("audit.jsonl"),
        max_bytes: 4096,
        keep: 0,
    };
    for n in 0..100 {
        log.append(&format!("{{\"n\":{n},\"pad\":\"{}\"}}\n", "x".repeat(100)))
            .unwrap();
    }
    assert!(std::fs::metadata(&log.path).unwrap().len() <= 4096);
    assert!(!log.rotated(1).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_log_that_cannot_be_written_is_an_error_naming_it() {
    let dir = temp_dir("bad");
    std::fs::create_dir_all(dir.join("audit.jsonl")).unwrap();
    let log = Log {
        path: dir.join("audit.jsonl"),
        max_bytes: 4096,
        keep: 1,
    };
    let err = log.append("{}\n").unwrap_err().to_string();
    assert!(
        err.contains("audit.jsonl") && err.contains("not a regular file"),
        "{err}"
    );
    #[cfg(unix)]
    {
        let link = Log {
            path: dir.join("link.jsonl"),
            ..log.clone()
        };
        std::os::unix::fs::symlink(dir.join("target"), &link.path).unwrap();
        let err = link.append("{}\n").unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        assert!(!dir.join("target").exists());
    }
    #[cfg(target_os = "linux")]
    {
        let full = Log {
            path: PathBuf::from("/dev/full"),
            ..log
        };
        // /dev/full is not a regular file: refused before writing.
        assert!(full.append("{}\n").is_err());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reading_skips_lines_that_are_not_entries() {
    let dir = temp_dir("read");
    std::fs::create_dir_all(&dir).unwrap();
    let log = Log {
        path: dir.join("audit.jsonl"),
        max_bytes: 1 << 20,
        keep: 1,
    };
    let good =
        serde_json::to_string(&entry("ls", "allow", None, "2026-11-24T00:00:00.000Z")).unwrap();
    std::fs::write(
        &log.path,
        format!("{good}\nnot json\n{{\"time\":1}}\n\n{good}\n"),
    )
    .unwrap();
    let read = log.read().unwrap();
    assert_eq!((read.entries.len(), read.bad, read.files), (2, 2, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_count_a_period() {
    let entries = [
        entry(
            "rm -rf /",
            "block",
            Some("hardline.rm-root"),
            "2026-11-20T10:00:00.000Z",
        ),
        entry(
            "git push -f",
            "ask",
            Some("git.force-push"),
            "2026-11-23T10:00:00.000Z",
        ),
        entry(
            "git push -f",
            "ask",
            Some("git.force-push"),
            "2026-11-23T11:00:00.000Z",
        ),
        entry("ls", "allow", None, "2026-11-24T10:00:00.000Z"),
    ];
    let all = Stats::of(&entries, None);
    assert_eq!(all.decisions, 4);
    assert_eq!(all.by_decision.get("ask"), Some(&2));
    assert_eq!(all.rules[0].name, "git.force-push");
    assert_eq!(all.rules[0].count, 2);
    assert_eq!(all.first.as_deref(), Some("2026-11-20T10:00:00.000Z"));
    let recent = Stats::of(&entries, Some("2026-11-23"));
    assert_eq!(recent.decisions, 3);
    assert_eq!(recent.by_decision.get("block"), None);
    assert_eq!(recent.tools[0].name, "hermes terminal");
}
