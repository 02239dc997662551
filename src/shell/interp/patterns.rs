//! Patterns spanning several calls of interpreter code: a fork in a loop that never ends, and a socket wired to a shell.

use once_cell::sync::Lazy;
use regex::Regex;

use super::lex::Dialect;
use super::view::{Span, View};

/// Longest loop source quoted in a fork-bomb finding.
const MAX_SNIPPET: usize = 80;

/// Words in a loop body that stop it from being a fork bomb: the loop ends,
/// waits, or the child becomes something else.
const LOOP_STOPPERS: &[&str] = &[
    "break", "exit", "_exit", "wait", "waitpid", "waitall", "accept", "sleep", "return", "last",
    "die", "exec", "execv", "execvp", "raise", "throw", "kill",
];

static LOOP: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?-u:\b)(?:while[\t\n\x0B\x0C\r ]*\(?[\t\n\x0B\x0C\r ]*(?:True|true|1|!0|!false)[\t\n\x0B\x0C\r ]*\)?|for[\t\n\x0B\x0C\r ]*\([\t\n\x0B\x0C\r ]*;[\t\n\x0B\x0C\r ]*;[\t\n\x0B\x0C\r ]*\)|loop(?-u:\b)|until[\t\n\x0B\x0C\r ]*\(?[\t\n\x0B\x0C\r ]*(?:false|0|nil)[\t\n\x0B\x0C\r ]*\)?)")
        .expect("loop regex is valid")
});

/// A shell handed to a stream: an interactive shell, a pseudo-terminal,
/// descriptors duplicated onto a socket (`>&3`, `>&S`) or piped to one.
static SHELL_HOOKUP: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r#"pty\.spawn|(?-u:\b)(?:ba|z|da|k)?sh[\t\n\x0B\x0C\r ]+-i(?-u:\b)|cmd\.exe|["']cmd["']|powershell|\.pipe\(|[<>]&[\t\n\x0B\x0C\r ]*(?:[3-9]|[A-Za-z$])"#)
        .expect("shell hookup regex is valid")
});

/// A shell program, which counts when the code also touches standard
/// streams or file descriptors.
static SHELL_PATH: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"/bin/(?:ba|z|da|k|c|tc|fi)?sh(?-u:\b)").expect("shell path regex is valid")
});

static STREAMS: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)std(?:in|out|err|io)(?-u:\b)|(?-u:\b)fileno(?-u:\b)")
        .expect("streams regex is valid")
});

static WORD: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"[A-Za-z_][0-9A-Za-z_]*").expect("word regex is valid"));

/// A fork inside a loop that never ends (`while True: os.fork()`,
/// `loop { fork }`, `for(;;) fork()`), or repeated by a statement
/// modifier (`fork while fork`).
pub(super) fn fork_loop(v: &View, tokens: &[Span]) -> Option<String> {
    let forks: Vec<Span> = tokens
        .iter()
        .copied()
        .filter(|&t| matches!(v.text(t), "fork" | "pcntl_fork"))
        .collect();
    if forks.is_empty() {
        return None;
    }
    for &(start, end) in &forks {
        if let Some(snippet) = fork_modifier(v, start, end) {
            return Some(snippet);
        }
    }
    for m in LOOP.find_iter(v.src) {
        if !v.is_code(m.start()) {
            continue;
        }
        let Some(body) = loop_body(v, m.start(), m.end()) else {
            continue;
        };
        let inside = forks.iter().any(|&(s, _)| s >= body.0 && s < body.1);
        if inside && !has_stopper(v, body) {
            return Some(snippet(v.text((m.start(), body.1))));
        }
    }
    None
}

fn fork_modifier(v: &View, start: usize, end: usize) -> Option<String> {
    let mut j = end;
    if v.byte(j) == b'(' {
        j = v.partner(j)? + 1;
    }
    while v.byte(j) == b' ' {
        j += 1;
    }
    let rest = &v.src[j.min(v.len())..];
    let (word, cond) = if let Some(c) = rest.strip_prefix("while ") {
        (true, c)
    } else {
        (false, rest.strip_prefix("until ")?)
    };
    let cond_end = cond.find([';', '\n', '}']).unwrap_or(cond.len());
    let c: String = cond[..cond_end]
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
        .collect();
    let forever = if word {
        matches!(c.as_str(), "1" | "true" | "fork" | "!0" | "pcntl_fork")
    } else {
        matches!(c.as_str(), "0" | "false" | "nil" | "!1")
    };
    forever.then(|| snippet(v.text((start, j + 6 + cond_end))))
}

/// The body of a loop whose header spans `start..end`.
fn loop_body(v: &View, start: usize, end: usize) -> Option<Span> {
    let header = v.text((start, end));
    let mut j = end;
    while matches!(v.byte(j), b' ' | b'\t') {
        j += 1;
    }
    match v.byte(j) {
        b':' if v.d == Dialect::Python => {
            let eol = v.src[j..].find('\n').map_or(v.len(), |e| j + e);
            if !v.text((j + 1, eol)).trim().is_empty() {
                return Some((j + 1, eol));
            }
            let line_start = v.src[..start].rfind('\n').map_or(0, |p| p + 1);
            let indent = start - line_start;
            let mut k = eol + 1;
            while k < v.len() {
                let line_end = v.src[k..].find('\n').map_or(v.len(), |e| k + e);
                let line = v.text((k, line_end));
                let depth = line.len() - line.trim_start().len();
                if !line.trim().is_empty() && depth <= indent {
                    break;
                }
                k = line_end + 1;
            }
            Some((eol, k.min(v.len())))
        }
        b'{' => v.partner(j).map(|close| (j + 1, close)),
        b'd' if v.src[j..].starts_with("do") && !v.byte(j + 2).is_ascii_alphanumeric() => {
            let mut depth = 1;
            let body = j + 2;
            for m in WORD.find_iter(v.text((body, v.len()))) {
                let at = body + m.start();
                if !v.is_code(at) {
                    continue;
                }
                match m.as_str() {
                    "do" => depth += 1,
                    "end" => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    return Some((body, at));
                }
            }
            Some((j + 2, v.len()))
        }
        _ if header.starts_with("loop") => None,
        _ => {
            let stop = v.walk((j, v.len()), |k| !matches!(v.byte(k), b';' | b'\n'));
            Some((j, stop))
        }
    }
}

fn has_stopper(v: &View, body: Span) -> bool {
    let text = v.text(body);
    WORD.find_iter(text)
        .any(|m| LOOP_STOPPERS.contains(&m.as_str()) && v.is_code(body.0 + m.start()))
}

/// A socket connected to (or accepting from) a host.
pub(super) fn socket(v: &View, tokens: &[Span]) -> bool {
    let names: Vec<&str> = tokens.iter().map(|&t| v.text(t)).collect();
    let has = |set: &[&str]| names.iter().any(|n| set.contains(n));
    let socket = has(&[
        "socket",
        "fsockopen",
        "pfsockopen",
        "stream_socket_client",
        "TCPSocket",
        "Socket",
        "INET",
        "createConnection",
        "create_connection",
        "tcp",
    ]);
    let connected = has(&[
        "connect",
        "create_connection",
        "createConnection",
        "fsockopen",
        "pfsockopen",
        "stream_socket_client",
        "TCPSocket",
        "PeerAddr",
        "PeerHost",
        "accept",
    ]);
    socket && connected
}

/// A shell or file-descriptor plumbing to hand a socket: descriptors
/// duplicated, an interactive shell, a pseudo-terminal, a pipe.
pub(super) fn shell_hookup(v: &View, tokens: &[Span]) -> bool {
    tokens
        .iter()
        .any(|&t| matches!(v.text(t), "dup2" | "dup" | "reopen"))
        || SHELL_HOOKUP.is_match(v.src)
        || (SHELL_PATH.is_match(v.src) && STREAMS.is_match(v.src))
}

fn snippet(s: &str) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > MAX_SNIPPET {
        let cut: String = flat.chars().take(MAX_SNIPPET).collect();
        format!("{cut}…")
    } else {
        flat
    }
}
