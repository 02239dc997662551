//! Secrets taken out of a command line before it is written to the audit log.
//!
//! The log is for tuning a policy, so it keeps the shape of a command and
//! drops what would make the log itself a secret: tokens in known formats,
//! values of secret-named variables and flags, `Authorization:`-style
//! headers, passwords in URLs and `-u user:pass`, and private-key blocks.
//! Redaction errs towards removing too much: a value that merely looks like a
//! password is cheaper to lose than a real one is to keep.

use once_cell::sync::Lazy;
use regex::{Captures, Regex};

/// What stands in for a removed secret.
pub const MARK: &str = "[REDACTED]";

/// A value as the shell would delimit it: quoted, or up to a blank or an
/// operator.
const VALUE: &str = r#"(?:'[^']*'|"[^"]*"|[^\s'";&|)<>]+)"#;

/// A name that says its value is secret.
const SECRET_NAME: &str = r"[A-Za-z0-9_.-]*(?i:token|secret|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|auth[_-]?key|session[_-]?key|signing[_-]?key)[A-Za-z0-9_.-]*";

/// Rewrites one match; the secret part becomes [`MARK`].
type Replace = fn(&Captures<'_>) -> String;

struct Redaction {
    regex: Regex,
    replace: Replace,
}

fn keep_then_mark(caps: &Captures<'_>) -> String {
    format!("{}{MARK}", &caps[1])
}

fn mark(_: &Captures<'_>) -> String {
    MARK.to_string()
}

fn block(caps: &Captures<'_>) -> String {
    format!(
        "{}{MARK}{}",
        &caps[1],
        caps.get(3).map_or("", |m| m.as_str())
    )
}

fn url(caps: &Captures<'_>) -> String {
    format!("{}{}:{MARK}@", &caps[1], &caps[2])
}

// Built once per process that writes a log line, after the verdict is out.
static REDACTIONS: Lazy<Vec<Redaction>> = Lazy::new(|| {
    let table: Vec<(String, Replace)> = vec![
        // PEM private keys, whole or cut short.
        (
            r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)([\s\S]*?)(-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)"
                .into(),
            block,
        ),
        // Header values that are credentials, wherever the header is written.
        (
            r#"(?i)((?:proxy-)?authorization\s*:\s*|x-api-key\s*:\s*|api-key\s*:\s*|x-auth-token\s*:\s*|cookie\s*:\s*|private-token\s*:\s*)[^'"\n]+"#
                .into(),
            keep_then_mark,
        ),
        (r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]+".into(), keep_then_mark),
        (r"(?i)(\bbasic\s+)[A-Za-z0-9+/=]{8,}".into(), keep_then_mark),
        // scheme://user:password@host
        (
            r"([A-Za-z][A-Za-z0-9+.-]*://)([^/\s:@'\x22]*):([^@\s/'\x22]+)@".into(),
            url,
        ),
        // curl -u user:pass, --user=user:pass
        (
            format!(r"((?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)['\x22]?[^:\s'\x22]+:){VALUE}"),
            keep_then_mark,
        ),
        // sshpass -p PASS, mysql -pPASS
        (format!(r"(\bsshpass\s+-p\s*){VALUE}"), keep_then_mark),
        (
            format!(r"(\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^|;&\n]*?\s-p){VALUE}"),
            keep_then_mark,
        ),
        // NAME=value, NAME: value, --name value, --name=value
        (
            format!(r"(\b{SECRET_NAME}\s*[=:]\s*){VALUE}"),
            keep_then_mark,
        ),
        (
            format!(r"((?:^|\s)--?{SECRET_NAME}(?:\s+|=)){VALUE}"),
            keep_then_mark,
        ),
        // Tokens in formats their issuers publish.
        (
            r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b".into(),
            mark,
        ),
        (r"\bgh[pousr]_[A-Za-z0-9]{30,}\b".into(), mark),
        (r"\bgithub_pat_[A-Za-z0-9_]{20,}".into(), mark),
        (r"\bglpat-[A-Za-z0-9_-]{20,}".into(), mark),
        (r"\bxox[abeprs]-[A-Za-z0-9-]{10,}".into(), mark),
        (r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}".into(), mark),
        (r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}".into(), mark),
        (r"\bAIza[0-9A-Za-z_-]{35}".into(), mark),
        (r"\bnpm_[A-Za-z0-9]{36}\b".into(), mark),
        (r"\bhf_[A-Za-z0-9]{30,}\b".into(), mark),
        (
            r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}".into(),
            mark,
        ),
    ];
    table
        .into_iter()
        .filter_map(|(pattern, replace)| {
            // The patterns are constants; a test compiles every one.
            Regex::new(&pattern)
                .ok()
                .map(|regex| Redaction { regex, replace })
        })
        .collect()
});

/// `text` with every secret the redactions know replaced by [`MARK`].
pub fn redact(text: &str) -> String {
    let mut out = text.to_string();
    for r in REDACTIONS.iter() {
        if r.regex.is_match(&out) {
            out = r
                .regex
                .replace_all(&out, |c: &Captures<'_>| (r.replace)(c))
                .into_owned();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        assert_eq!(REDACTIONS.len(), 21);
    }

    #[test]
    fn secrets_are_removed() {
        let cases = [
            (
                "curl -H 'Authorization: Bearer abc.def' https://api.example.com",
                "abc.def",
            ),
            ("curl -H \"X-Api-Key: s3cr3tvalue\" https://x", "s3cr3tvalue"),
            ("git clone https://bob:hunter22@example.com/r.git", "hunter22"),
            ("curl -u admin:letmein https://x", "letmein"),
            ("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG", "wJalrXUtnFEMI"),
            ("aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
            ("GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 gh pr list", "ghp_abc"),
            ("echo ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abc"),
            ("mysql -u root -pS3cret db", "S3cret"),
            ("sshpass -p 'pa ss' ssh host", "pa ss"),
            ("deploy --password hunter2 --host x", "hunter2"),
            ("deploy --api-key=abcdef123", "abcdef123"),
            ("OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx python x.py", "abcdefghijk"),
            ("DB_PASSWORD=\"two words\" ./run", "two words"),
            (
                "printf '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n' > k",
                "b3BlbnNzaC1rZXk",
            ),
            ("echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEow", "MIIEow"),
            ("curl -H 'Cookie: session=abc123' x", "abc123"),
            ("slack xoxb-1234567890-abcdefghij", "xoxb-1234567890"),
            ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "eyJhbGci"),
        ];
        for (command, secret) in cases {
            let out = redact(command);
            assert!(!out.contains(secret), "{command:?} -> {out:?}");
            assert!(out.contains(MARK), "{command:?} -> {out:?}");
        }
    }

    #[test]
    fn the_shape_of_a_command_stays() {
        assert_eq!(
            redact("curl -H 'Authorization: Bearer abc' https://x"),
            "curl -H 'Authorization: [REDACTED]' https://x"
        );
        assert_eq!(
            redact("TOKEN=abc make deploy && echo done"),
            "TOKEN=[REDACTED] make deploy && echo done"
        );
        assert_eq!(
            redact("git push https://me:pw@host/r.git main"),
            "git push https://me:[REDACTED]@host/r.git main"
        );
        for plain in [
            "git status",
            "rm -rf /",
            "cargo test --release",
            "ls ~/.ssh",
            "cat README.md | grep token",
            "echo $GITHUB_TOKEN",
        ] {
            assert_eq!(redact(plain), plain);
        }
    }
}
