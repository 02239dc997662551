//! Secrets taken out of a command line before it is written to the audit log.
//!
//! The log is for tuning a policy, so it keeps the shape of a command and
//! drops what would make the log itself a secret: tokens in known formats,
//! values of secret-named variables and flags, `Authorization:`-style
//! headers, passwords in URLs and `-u user:pass`, and private-key blocks.
//! Redaction errs towards removing too much: a value that merely looks like a
//! password is cheaper to lose than a real one is to keep.

use once_cell::sync::Lazy;
use std::sync::OnceLock;

use regex::Regex;

/// What stands in for a removed secret.
pub const MARK: &str = "[REDACTED]";

/// A value as the shell would delimit it: quoted, or up to a blank or an
/// operator.
const VALUE: &str = r#"(?:'[^']*'|"[^"]*"|[^\s'";&|)<>]+)"#;

/// A name that says its value is secret.
const SECRET_NAME: &str = r"[a-z0-9_.-]*(?:token|secret|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|auth[_-]?key|session[_-]?key|signing[_-]?key)[a-z0-9_.-]*";

/// Rewrites one match, given its groups in the original text; the secret
/// part becomes [`MARK`].
type Replace = fn(&[&str]) -> String;

/// One kind of secret.
struct Redaction {
    /// Lower-case texts one of which any match contains: a line without
    /// them skips the regex, which is then never compiled. Most commands
    /// name no secret, and compiling every pattern costs milliseconds.
    triggers: &'static [&'static str],
    pattern: fn() -> String,
    /// The pattern is written in lower case and searched for in the
    /// lower-cased text: case-insensitive regexes cost several times as
    /// much to compile, and lower-casing ASCII keeps every byte offset.
    lower: bool,
    replace: Replace,
}

fn group<'a>(groups: &[&'a str], n: usize) -> &'a str {
    groups.get(n).copied().unwrap_or_default()
}

fn keep_then_mark(groups: &[&str]) -> String {
    format!("{}{MARK}", group(groups, 1))
}

fn mark(_: &[&str]) -> String {
    MARK.to_string()
}

fn block(groups: &[&str]) -> String {
    format!("{}{MARK}{}", group(groups, 1), group(groups, 3))
}

fn url(groups: &[&str]) -> String {
    format!("{}{}:{MARK}@", group(groups, 1), group(groups, 2))
}

/// What `SECRET_NAME` contains, lower-cased.
const SECRET_WORDS: &[&str] = &[
    "token",
    "secret",
    "passw",
    "pwd",
    "api_key",
    "api-key",
    "apikey",
    "access_key",
    "access-key",
    "private_key",
    "private-key",
    "credential",
    "auth_key",
    "auth-key",
    "session_key",
    "session-key",
    "signing_key",
    "signing-key",
];

static REDACTIONS: &[Redaction] = &[
    // PEM private keys, whole or cut short.
    Redaction {
        triggers: &["private key-----"],
        pattern: || {
            r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)([\s\S]*?)(-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)".into()
        },
        lower: false,
        replace: block,
    },
    // Header values that are credentials, wherever the header is written.
    Redaction {
        triggers: &[
            "authorization",
            "api-key",
            "auth-token",
            "cookie",
            "private-token",
        ],
        pattern: || {
            r#"((?:proxy-)?authorization\s*:\s*|x-api-key\s*:\s*|api-key\s*:\s*|x-auth-token\s*:\s*|cookie\s*:\s*|private-token\s*:\s*)[^'"\n]+"#.into()
        },
        lower: true,
        replace: keep_then_mark,
    },
    Redaction {
        triggers: &["bearer"],
        pattern: || r"(\bbearer\s+)[a-z0-9._~+/=-]+".into(),
        lower: true,
        replace: keep_then_mark,
    },
    Redaction {
        triggers: &["basic"],
        pattern: || r"(\bbasic\s+)[a-z0-9+/=]{8,}".into(),
        lower: true,
        replace: keep_then_mark,
    },
    // scheme://user:password@host
    Redaction {
        triggers: &["://"],
        pattern: || r"([a-z][a-z0-9+.-]*://)([^/\s:@'\x22]*):([^@\s/'\x22]+)@".into(),
        lower: true,
        replace: url,
    },
    // curl -u user:pass, --user=user:pass
    Redaction {
        triggers: &["-u", "--user", "--proxy-user"],
        pattern: || {
            format!(r"((?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)['\x22]?[^:\s'\x22]+:){VALUE}")
        },
        lower: true,
        replace: keep_then_mark,
    },
    // sshpass -p PASS, mysql -pPASS
    Redaction {
        triggers: &["sshpass"],
        pattern: || format!(r"(\bsshpass\s+-p\s*){VALUE}"),
        lower: true,
        replace: keep_then_mark,
    },
    Redaction {
        triggers: &["mysql", "mariadb"],
        pattern: || format!(r"(\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^|;&\n]*?\s-p){VALUE}"),
        lower: true,
        replace: keep_then_mark,
    },
    // NAME=value, NAME: value, --name value, --name=value
    Redaction {
        triggers: SECRET_WORDS,
        pattern: || format!(r"(\b{SECRET_NAME}\s*[=:]\s*){VALUE}"),
        lower: true,
        replace: keep_then_mark,
    },
    Redaction {
        triggers: SECRET_WORDS,
        pattern: || format!(r"((?:^|\s)--?{SECRET_NAME}(?:\s+|=)){VALUE}"),
        lower: true,
        replace: keep_then_mark,
    },
    // Tokens in formats their issuers publish.
    Redaction {
        triggers: &[
            "akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa",
        ],
        pattern: || r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        pattern: || r"\bgh[pousr]_[A-Za-z0-9]{30,}\b".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["github_pat_"],
        pattern: || r"\bgithub_pat_[A-Za-z0-9_]{20,}".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["glpat-"],
        pattern: || r"\bglpat-[A-Za-z0-9_-]{20,}".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["xox"],
        pattern: || r"\bxox[abeprs]-[A-Za-z0-9-]{10,}".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["sk-"],
        pattern: || r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["k_live_", "k_test_"],
        pattern: || r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["aiza"],
        pattern: || r"\bAIza[0-9A-Za-z_-]{35}".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["npm_"],
        pattern: || r"\bnpm_[A-Za-z0-9]{36}\b".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["hf_"],
        pattern: || r"\bhf_[A-Za-z0-9]{30,}\b".into(),
        lower: false,
        replace: mark,
    },
    Redaction {
        triggers: &["eyj"],
        pattern: || r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}".into(),
        lower: false,
        replace: mark,
    },
];

/// Each redaction's regex, compiled the first time a line needs it.
static COMPILED: Lazy<Vec<OnceLock<Option<Regex>>>> =
    Lazy::new(|| REDACTIONS.iter().map(|_| OnceLock::new()).collect());

fn regex(index: usize) -> Option<&'static Regex> {
    let r = REDACTIONS.get(index)?;
    COMPILED
        .get(index)?
        // The patterns are constants; a test compiles every one.
        .get_or_init(|| Regex::new(&(r.pattern)()).ok())
        .as_ref()
}

/// `text` with every secret the redactions know replaced by [`MARK`].
pub fn redact(text: &str) -> String {
    let mut out = text.to_string();
    let mut lower = out.to_ascii_lowercase();
    for (i, r) in REDACTIONS.iter().enumerate() {
        if !r.triggers.iter().any(|t| lower.contains(t)) {
            continue;
        }
        let Some(regex) = regex(i) else { continue };
        let haystack = if r.lower { &lower } else { &out };
        let mut rewritten = String::with_capacity(out.len());
        let mut last = 0;
        for caps in regex.captures_iter(haystack) {
            let Some(whole) = caps.get(0) else { continue };
            // Offsets in the lower-cased text are offsets in `out`.
            let groups: Vec<&str> = (0..caps.len())
                .map(|g| caps.get(g).map_or("", |m| &out[m.range()]))
                .collect();
            rewritten.push_str(&out[last..whole.start()]);
            rewritten.push_str(&(r.replace)(&groups));
            last = whole.end();
        }
        if last > 0 {
            rewritten.push_str(&out[last..]);
            out = rewritten;
            lower = out.to_ascii_lowercase();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles_and_names_its_triggers() {
        for (i, r) in REDACTIONS.iter().enumerate() {
            assert!(regex(i).is_some(), "{}", (r.pattern)());
            assert!(!r.triggers.is_empty());
            // A pattern searched in lower-cased text must not need capitals.
            assert!(
                !r.lower || !(r.pattern)().contains("A-Z"),
                "{}",
                (r.pattern)()
            );
            for t in r.triggers {
                assert_eq!(*t, t.to_ascii_lowercase(), "triggers are lower case");
            }
        }
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
