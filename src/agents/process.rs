//! Running the agents' own programs (Hermes' Python, `codex app-server`) and warden's registered hook, always with a deadline.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// What a finished program printed.
#[derive(Debug, Clone)]
pub struct Output {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `program` with `args`, feeding it `stdin`, and waits at most
/// `timeout` for it; a program still running then is killed.
pub fn run(
    program: &Path,
    args: &[&str],
    stdin: &[u8],
    timeout: Duration,
) -> Result<Output, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", program.display()))?;
    // Drained before stdin is written, so a program that answers before it
    // has read everything cannot block on a full pipe while we write.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    if let Some(mut input) = child.stdin.take() {
        // A program that exits without reading its stdin closes the pipe;
        // that is its business, not an error here.
        let _ = input.write_all(stdin);
    }
    let status = wait(&mut child, timeout).ok_or_else(|| {
        format!(
            "{} did not finish within {} s",
            program.display(),
            timeout.as_secs()
        )
    })?;
    Ok(Output {
        status,
        stdout: stdout.recv().unwrap_or_default(),
        stderr: stderr.recv().unwrap_or_default(),
    })
}

/// Reads a pipe to its end on a thread of its own, so a chatty program
/// cannot fill one pipe while we wait on the other.
fn drain(pipe: Option<impl Read + Send + 'static>) -> Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        let _ = send.send(text);
    });
    receive
}

/// The exit code, or `None` for a signal; `None` from the function itself
/// when the deadline passed (the child is killed then).
fn wait(child: &mut Child, timeout: Duration) -> Option<Option<i32>> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status.code()),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// A program spoken to in lines of JSON over its stdin and stdout (Codex's
/// app-server), killed when dropped.
pub struct LineSession {
    child: Child,
    lines: Receiver<String>,
}

impl LineSession {
    pub fn start(program: &Path, args: &[&str]) -> Result<LineSession, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", program.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(LineSession { child, lines })
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.child.stdin.as_mut().ok_or("stdin is closed")?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("could not write to the program: {e}"))
    }

    /// The next line that `accept` takes, skipping others (notifications),
    /// within `timeout`.
    pub fn receive(
        &mut self,
        timeout: Duration,
        mut accept: impl FnMut(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if accept(&line) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {} s", timeout.as_secs()))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err("the program exited without answering".into())
                }
            }
        }
    }
}

impl Drop for LineSession {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_and_deadline() {
        let out = run(
            Path::new("/bin/sh"),
            &["-c", "cat; echo err >&2; exit 3"],
            b"in",
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(
            (out.status, out.stdout.as_str(), out.stderr.as_str()),
            (Some(3), "in", "err\n")
        );
        let slow = run(
            Path::new("/bin/sh"),
            &["-c", "sleep 5"],
            b"",
            Duration::from_millis(200),
        );
        assert!(slow.unwrap_err().contains("did not finish"));
        assert!(run(
            Path::new("/nonexistent/x"),
            &[],
            b"",
            Duration::from_secs(1)
        )
        .is_err());
    }

    #[test]
    fn line_sessions_answer_in_lines() {
        let mut session = LineSession::start(
            Path::new("/bin/sh"),
            &["-c", "echo note; while read l; do echo \"got $l\"; done"],
        )
        .unwrap();
        session.send("one").unwrap();
        let line = session
            .receive(Duration::from_secs(10), |l| l.starts_with("got"))
            .unwrap();
        assert_eq!(line, "got one");
    }
}
