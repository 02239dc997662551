//! The syslog sink: each decision as one RFC 5424 message, structured data and all, sent to the local syslog daemon's datagram socket without waiting.
//!
//! The message carries the same redacted [`Entry`] the JSONL file gets: the
//! decision and where it came from as structured data, the command (or the
//! paths) as the message. A daemon that is not there, or whose queue is
//! full, costs the caller one error; the send never blocks, so a stalled
//! daemon cannot hold up an agent's tool call.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{cut, Entry};
use crate::error::{Error, Result};

/// The SD-ID of warden's structured data: a name, `@`, and an enterprise
/// number (32473 is the one RFC 5612 sets aside for examples and
/// documentation).
pub const SD_ID: &str = "warden@32473";

/// Where the messages go and as which facility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syslog {
    pub socket: PathBuf,
    /// RFC 5424's facility number (`authpriv` is 10).
    pub facility: u8,
}

impl From<&crate::config::model::SyslogSettings> for Syslog {
    fn from(settings: &crate::config::model::SyslogSettings) -> Syslog {
        Syslog {
            socket: PathBuf::from(&settings.socket),
            facility: settings.facility,
        }
    }
}

impl Syslog {
    /// Whether a daemon receives on the socket, found out without sending
    /// anything (for `warden doctor`). Errors name the socket.
    pub fn listening(&self) -> Result<()> {
        self.connect().map_err(|e| Error::State {
            path: self.socket.display().to_string(),
            message: e,
        })
    }

    #[cfg(unix)]
    fn connect(&self) -> std::result::Result<(), String> {
        let socket =
            std::os::unix::net::UnixDatagram::unbound().map_err(|e| format!("no socket: {e}"))?;
        socket
            .connect(&self.socket)
            .map_err(|e| format!("cannot connect: {e}"))
    }

    #[cfg(not(unix))]
    fn connect(&self) -> std::result::Result<(), String> {
        Err("syslog is not supported on this system".into())
    }

    /// Sends the (already redacted) entry as one datagram. Errors name the socket.
    pub fn send(&self, entry: &Entry) -> Result<()> {
        let message = message(entry, self.facility, &hostname(), std::process::id());
        self.send_datagram(message.as_bytes())
            .map_err(|e| Error::State {
                path: self.socket.display().to_string(),
                message: e,
            })
    }

    #[cfg(unix)]
    fn send_datagram(&self, bytes: &[u8]) -> std::result::Result<(), String> {
        use std::os::unix::net::UnixDatagram;
        let socket = UnixDatagram::unbound().map_err(|e| format!("no socket: {e}"))?;
        // A daemon that stopped reading fills its queue; then the message is
        // dropped rather than the hook kept waiting.
        socket
            .set_nonblocking(true)
            .map_err(|e| format!("no socket: {e}"))?;
        match socket.send_to(bytes, &self.socket) {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                Err("the syslog daemon is not keeping up; the message was dropped".into())
            }
            Err(e) => Err(format!("cannot send: {e}")),
        }
    }

    #[cfg(not(unix))]
    fn send_datagram(&self, _: &[u8]) -> std::result::Result<(), String> {
        Err("syslog is not supported on this system".into())
    }
}

/// The syslog severity of a decision: a block is a warning, an ask a
/// notice, anything else information.
fn severity(decision: &str) -> u8 {
    match decision {
        "block" => 4,
        "ask" => 5,
        _ => 6,
    }
}

/// `entry` as an RFC 5424 message: `<PRI>1 TIME HOST warden PID DECISION
/// [warden@32473 …] COMMAND`. Fields the entry lacks are left out of the
/// structured data; the message is the command, or the paths.
pub fn message(entry: &Entry, facility: u8, host: &str, pid: u32) -> String {
    let pri = u16::from(facility) * 8 + u16::from(severity(&entry.decision));
    let mut out = format!(
        "<{pri}>1 {} {} warden {pid} {} [{SD_ID}",
        header_field(&entry.time, 128),
        header_field(host, 255),
        header_field(&entry.decision, 32),
    );
    let params = [
        ("decision", Some(&entry.decision)),
        ("layer", Some(&entry.layer)),
        ("rule", entry.rule.as_ref()),
        ("agent", Some(&entry.agent)),
        ("tool", Some(&entry.tool)),
        ("session", entry.session.as_ref()),
        ("cwd", entry.cwd.as_ref()),
        ("workdir", entry.workdir.as_ref()),
        ("once", entry.once.as_ref()),
    ];
    for (name, value) in params {
        if let Some(value) = value {
            let _ = write!(out, " {name}=\"{}\"", param_value(value));
        }
    }
    out.push(']');
    let subject = cut(&entry.subject());
    if !subject.is_empty() {
        out.push(' ');
        out.push_str(&visible(&subject));
    }
    out
}

/// A header field: printable ASCII without spaces, at most `max` bytes;
/// `-` (RFC 5424's nil) when nothing of it is left.
fn header_field(text: &str, max: usize) -> String {
    let kept: String = text
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(max)
        .collect();
    if kept.is_empty() {
        "-".into()
    } else {
        kept
    }
}

/// A PARAM-VALUE: `"`, `\` and `]` escaped with a backslash, as RFC 5424
/// requires, and control characters made visible.
fn param_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in visible(text).chars() {
        if matches!(c, '"' | '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` with each control character written `#` and three octal digits,
/// as rsyslog writes them on receipt: a command's newline must not start
/// what reads as another message in a receiver that splits lines.
fn visible(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match u32::from(c) {
            n @ (0..=0x1f | 0x7f) => {
                let _ = write!(out, "#{n:03o}");
            }
            _ => out.push(c),
        }
    }
    out
}

/// This machine's name, as the kernel has it.
#[cfg(unix)]
fn hostname() -> String {
    extern "C" {
        fn gethostname(name: *mut std::os::raw::c_char, len: usize) -> std::os::raw::c_int;
    }
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its whole length, and the name is
    // read only up to its first NUL (or the buffer's end if it was cut).
    let ok = unsafe { gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    if !ok {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

#[cfg(not(unix))]
fn hostname() -> String {
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            time: "2026-11-27T10:00:00.123Z".into(),
            agent: "hermes".into(),
            session: Some("s1".into()),
            tool: "terminal".into(),
            decision: "block".into(),
            layer: "hardline".into(),
            rule: Some("hardline.rm-root".into()),
            cwd: Some("/home/me/proj".into()),
            workdir: None,
            command: Some("rm -rf /".into()),
            paths: Vec::new(),
            once: None,
        }
    }

    #[test]
    fn a_block_is_a_warning_with_every_field_it_has() {
        assert_eq!(
            message(&entry(), 10, "box.example", 4242),
            "<84>1 2026-11-27T10:00:00.123Z box.example warden 4242 block \
             [warden@32473 decision=\"block\" layer=\"hardline\" rule=\"hardline.rm-root\" \
             agent=\"hermes\" tool=\"terminal\" session=\"s1\" cwd=\"/home/me/proj\"] rm -rf /"
        );
    }

    #[test]
    fn priority_is_facility_and_severity() {
        let mut e = entry();
        for (decision, facility, pri) in [
            ("block", 4, "<36>"),
            ("ask", 4, "<37>"),
            ("allow", 4, "<38>"),
            ("ask", 1, "<13>"),
            ("allow", 23, "<190>"),
        ] {
            e.decision = decision.into();
            let m = message(&e, facility, "h", 1);
            assert!(m.starts_with(pri), "{decision} {facility}: {m}");
            assert!(m.contains(&format!(" warden 1 {decision} [")), "{m}");
        }
    }

    #[test]
    fn param_values_escape_quote_backslash_and_bracket() {
        assert_eq!(param_value(r#"a"b\c]d[e"#), r#"a\"b\\c\]d[e"#);
        let mut e = entry();
        e.cwd = Some(r#"/tmp/x"] evil="1"#.into());
        let m = message(&e, 10, "h", 1);
        assert!(m.contains(r#"cwd="/tmp/x\"\] evil=\"1""#), "{m}");
        // The structured data ends where it should: at the only `]` not escaped.
        let sd_end = m
            .char_indices()
            .find(|&(i, c)| c == ']' && !m[..i].ends_with('\\'))
            .map(|(i, _)| i);
        assert_eq!(&m[sd_end.unwrap()..], "] rm -rf /");
    }

    #[test]
    fn control_characters_are_made_visible() {
        let mut e = entry();
        e.command = Some("echo a\n<13>1 forged\tline\u{7f}".into());
        e.session = Some("s\r1".into());
        let m = message(&e, 10, "h", 1);
        assert!(!m.chars().any(char::is_control), "{m:?}");
        assert!(m.ends_with("] echo a#012<13>1 forged#011line#177"), "{m}");
        assert!(m.contains("session=\"s#0151\""), "{m}");
    }

    #[test]
    fn header_fields_are_never_empty_or_spaced() {
        assert_eq!(header_field("", 255), "-");
        assert_eq!(header_field("my host", 255), "myhost");
        assert_eq!(header_field("hôte", 255), "hte");
        assert_eq!(header_field(&"h".repeat(300), 255).len(), 255);
        let m = message(&entry(), 10, " ", 1);
        assert!(m.contains(".123Z - warden 1 block ["), "{m}");
    }

    #[test]
    fn file_tools_send_their_paths_and_empty_fields_are_left_out() {
        let mut e = entry();
        e.command = None;
        e.paths = vec!["/home/me/.bashrc".into(), "/home/me/.profile".into()];
        e.rule = None;
        e.session = None;
        e.cwd = None;
        let m = message(&e, 10, "h", 1);
        assert!(
            m.ends_with(
                "[warden@32473 decision=\"block\" layer=\"hardline\" agent=\"hermes\" \
                 tool=\"terminal\"] /home/me/.bashrc /home/me/.profile"
            ),
            "{m}"
        );
        e.paths.clear();
        assert!(message(&e, 10, "h", 1).ends_with("tool=\"terminal\"]"));
    }

    #[test]
    fn the_message_is_cut_like_the_file_entry() {
        let mut e = entry();
        e.command = None;
        e.paths = vec!["p".repeat(3000), "q".repeat(3000)];
        let m = message(&e, 10, "h", 1);
        assert!(m.ends_with(" more bytes]"), "{}", &m[m.len() - 40..]);
        assert!(m.len() < 4096 + 400, "{}", m.len());
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_socket_is_an_error_naming_it() {
        let sink = Syslog {
            socket: PathBuf::from("/nonexistent/warden-test/log.sock"),
            facility: 10,
        };
        let err = sink.send(&entry()).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/warden-test/log.sock"), "{err}");
        let err = sink.listening().unwrap_err().to_string();
        assert!(err.contains("/nonexistent/warden-test/log.sock"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_datagram_reaches_a_listening_socket_whole() {
        use std::os::unix::net::UnixDatagram;
        let dir = std::env::temp_dir().join(format!("warden-syslog-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log.sock");
        let listener = UnixDatagram::bind(&path).unwrap();
        let sink = Syslog {
            socket: path.clone(),
            facility: 10,
        };
        sink.listening().unwrap();
        sink.send(&entry()).unwrap();
        let mut buf = vec![0u8; 65536];
        let n = listener.recv(&mut buf).unwrap();
        let got = String::from_utf8_lossy(&buf[..n]).into_owned();
        assert!(got.starts_with("<84>1 2026-11-27T10:00:00.123Z "), "{got}");
        assert!(
            got.contains(&format!(" warden {} block [", std::process::id())),
            "{got}"
        );
        assert!(got.ends_with("] rm -rf /"), "{got}");
        // A daemon that stopped reading: once its queue is full the send
        // fails at once instead of waiting.
        let started = std::time::Instant::now();
        let full = (0..10_000).find_map(|_| sink.send(&entry()).err());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        let full = full
            .expect("a queue that is never read fills up")
            .to_string();
        assert!(full.contains("not keeping up"), "{full}");
        drop(listener);
        // The file is left behind with no one reading it.
        assert!(sink.listening().is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
