//! Built-in rules: credentials taken from where they are kept — keychains and password managers dumped, process memory read, credential files copied out or opened as databases, and searches for secrets across a home or the whole system.
//!
//! Reading one guarded file (`cat ~/.aws/credentials`) is the file rules'
//! job; these are the verbs whose effect is credential access whatever
//! path they name, or whose scope (the home, the system) makes an ordinary
//! search a hunt.

use super::access::{file_uses, Access, How};
use super::secrets::read_guarded;
use super::targets::{classify, Target};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::{Command, RedirectOp};
use crate::verdict::Decision;

/// Keychains and password managers exported or dumped whole, and the
/// tools whose only purpose is pulling stored passwords out.
#[rustfmt::skip]
static DUMP: &[Verb] = &[
    // macOS keychains: every item, or the private keys, written out.
    verb("security", r"^(?:-\S+ )*(?:dump-keychain|export)\b"),
    verb("chainbreaker*", ""),
    // Password managers' whole vaults exported.
    verb("bw", r"^(?:-\S+ )*export\b"),
    verb("lpass", r"^(?:-\S+ )*export\b"),
    verb("keepassxc-cli", r"^(?:-\S+ )*export\b"),
    verb("op", r"^(?:-\S+ )*(?:vault export|export)\b"),
    // Credential dumpers, run as programs or through an interpreter.
    verb("mimipenguin*", ""),
    verb("lazagne*", ""),
    verb("linpeas*", ""),
    verb("swap_digger*", ""),
    // The scripts' names as their projects spell them: `(?i)` would cost
    // every `bash -c` call the parse of a case-folded regex.
    verb("python*", r"(?:^|/| )(?:mimipenguin|[Ll]a[Zz]agne|swap_digger)"),
    verb("bash", r"(?:^|/| )(?:mimipenguin|linpeas|swap_digger)"),
    verb("sh", r"(?:^|/| )(?:mimipenguin|linpeas|swap_digger)"),
    // Password hashes joined for cracking, and the crackers given work.
    verb("unshadow", ""),
    verb("john", r"(?:^| )[^-\s]"),
    verb("hashcat", r"(?:^| )[^-\s]"),
    verb("hydra", r"(?:^| )[^-\s]"),
    verb("medusa", r"(?:^| )-[hH]\b"),
    verb("ncrack", r"(?:^| )[^-\s]"),
];

/// What reads or dumps the memory of a running process or of the machine,
/// where keys and passwords sit unencrypted.
#[rustfmt::skip]
static MEMORY: &[Verb] = &[
    verb("gcore", r"(?:^| )[^-\s]"),
    verb("procdump", ""),
    verb("gdb", r"(?:^| )(?:(?:dump|append) (?:binary )?(?:memory|value)|gcore|generate-core-file)\b"),
    verb("lldb", r"\bprocess save-core\b"),
    verb_if("cat", "", reads_memory), verb_if("dd", "", reads_memory),
    verb_if("strings", "", reads_memory), verb_if("xxd", "", reads_memory),
    verb_if("od", "", reads_memory), verb_if("hexdump", "", reads_memory),
    verb_if("hd", "", reads_memory), verb_if("head", "", reads_memory),
    verb_if("tail", "", reads_memory), verb_if("grep", "", reads_memory),
    verb_if("rg", "", reads_memory), verb_if("base64", "", reads_memory),
    verb_if("less", "", reads_memory), verb_if("tar", "", reads_memory),
    verb_if("python*", r"/proc/|/dev/k?mem\b", reads_memory),
    verb_if("perl", r"/proc/|/dev/k?mem\b", reads_memory),
];

/// Searches whose scope is a home or the system and whose object is
/// secrets: key files by name, passwords and tokens by word.
#[rustfmt::skip]
static HUNT: &[Verb] = &[
    verb_if("grep", SECRET_WORDS, searches_wide),
    verb_if("egrep", SECRET_WORDS, searches_wide),
    verb_if("fgrep", SECRET_WORDS, searches_wide),
    verb_if("rg", SECRET_WORDS, searches_wide),
    verb_if("ag", SECRET_WORDS, searches_wide),
    verb_if("ack", SECRET_WORDS, searches_wide),
    verb_if("ugrep", SECRET_WORDS, searches_wide),
    verb_if("find", SECRET_NAMES, finds_wide),
    verb_if("fd", SECRET_NAMES, searches_wide),
    // The locate databases and Spotlight index the whole machine.
    verb("locate", SECRET_NAMES),
    verb("plocate", SECRET_NAMES),
    verb("mlocate", SECRET_NAMES),
    verb("slocate", SECRET_NAMES),
    verb("mdfind", SECRET_NAMES),
    // Secret scanners pointed at a home or the system, not a repository.
    verb_if("trufflehog", "", scans_wide),
    verb_if("gitleaks", "", scans_wide),
    verb_if("noseyparker", "", scans_wide),
    verb_if("detect-secrets", "", scans_wide),
];

/// Credential stores copied somewhere no rule guards them, or opened as
/// the databases they are (a browser's `Login Data`, `Cookies`, `key4.db`).
#[rustfmt::skip]
static COPY: &[Verb] = &[
    verb_if("cp", "", copies_store), verb_if("ditto", "", copies_store),
    verb_if("install", "", copies_store), verb_if("rsync", "", copies_store),
    verb_if("dd", "", copies_store), verb_if("ln", "", copies_store),
    verb_if("sqlite3", "", opens_store), verb_if("sqlcipher", "", opens_store),
    verb_if("litecli", "", opens_store), verb_if("sqlite-utils", "", opens_store),
];

/// Words of a search pattern that look for secrets.
const SECRET_WORDS: &str = r"(?i)passw|passwd|\bpass\b|pwd|secret|token|api.{0,6}key|apikey|private[_ -]?key|BEGIN [A-Z ]*PRIVATE|credential|aws_access|aws_secret|authorization|bearer|psk=";

/// Names of files that hold keys and passwords.
const SECRET_NAMES: &str = r"(?i)id_(?:rsa|dsa|ecdsa|ed25519)|\.pem\b|\.key\b|\.p12\b|\.pfx\b|\.kdbx\b|\.ovpn\b|\.keychain|\.netrc|git-credentials|\.pgpass|credentials|\.env\b|shadow\b|wp-config|\.htpasswd|Login Data|key4\.db|logins\.json|cookies\.sqlite|\.tfstate|\.jks\b|\.keystore\b|secrets?\b|passw|tokens?\b";

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "credentials.dump-store",
        category: "dump a keychain or password vault, or run a credential dumper or cracker",
        reason: "every stored password and key comes out at once, where the agent and its provider see it",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(DUMP),
        hits: &["security dump-keychain -d login.keychain", "security export -k login.keychain -t identities -f pkcs12 -o /tmp/k.p12", "bw export --format json", "sudo python3 mimipenguin.py", "python3 laZagne.py all", "./linpeas.sh", "unshadow /etc/passwd /etc/shadow", "john --wordlist=rockyou.txt hashes.txt", "hashcat -m 1800 shadow.txt words.txt", "chainbreaker --dump-all login.keychain-db"],
        misses: &["security list-keychains", "security find-identity -v -p codesigning", "bw status", "john --version", "hashcat --help", "python3 manage.py test", "bash build.sh"],
    },
    Rule {
        id: "credentials.process-memory",
        category: "read or dump the memory of a process or of the machine",
        reason: "keys, tokens and passwords sit unencrypted in a running program's memory",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(MEMORY),
        hits: &["cat /proc/1234/mem", "dd if=/proc/42/mem bs=1 skip=4096 count=64 of=/tmp/m", "gcore -o /tmp/core 4321", "gdb -p 4321 -batch -ex 'dump memory /tmp/heap 0x1000 0x2000'", "sudo cat /proc/kcore", "strings /dev/mem", "xxd < /proc/self/mem", "lldb -p 99 -o 'process save-core /tmp/c'"],
        misses: &["cat /proc/meminfo", "cat /proc/1234/status", "gdb -p 4321 -batch -ex bt", "gdb ./app core", "strings target/release/app", "gcore --help", "dd if=/dev/zero of=f bs=1M count=1"],
    },
    Rule {
        id: "credentials.hunt",
        category: "search a home or the whole system for secrets",
        reason: "a search for passwords, tokens or key files across a home or the system gathers credentials the task never named",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(HUNT),
        hits: &["grep -r password /", "grep -rniE 'secret|token|api_key' ~", "sudo grep -rIl 'BEGIN RSA PRIVATE KEY' /", "rg -i aws_secret_access_key ~", "find / -name id_rsa", "find ~ -name '*.pem' -exec cat {} ;", "locate id_rsa", "mdfind -name .pem", "trufflehog filesystem /", "gitleaks detect --source=/home", "grep -ri password /etc"],
        misses: &["grep -r TODO src/", "grep -rn password src/", "rg -i token src", "find . -name '*.pem'", "find / -name libssl.so.3", "find / -name tokenizer.json", "locate Cargo.toml", "trufflehog git file://.", "gitleaks detect --source . --redact", "grep -i error /var/log/syslog", "grep -rn listen /etc/nginx/"],
    },
    Rule {
        id: "credentials.copy-store",
        category: "copy a credential store out of its place, or open one as a database",
        reason: "the copy holds the same passwords, cookies or keys, where no rule guards it",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(COPY),
        hits: &["cp ~/.config/chromium/Default/'Login Data' /tmp/ld.db", "cp ~/.mozilla/firefox/a.default/key4.db /tmp/", "cp ~/.aws/credentials /tmp/c", "sqlite3 ~/.config/google-chrome/Default/Cookies .dump", "rsync -a ~/Library/Keychains/login.keychain-db /tmp/k", "cp .env /tmp/env.txt", "install -m 600 ~/.netrc /tmp/n"],
        misses: &["cp .env .env.bak", "cp .env.example .env", "cp ~/.ssh/id_rsa.pub /tmp/", "sqlite3 app.db .tables", "cp ~/.aws/config ~/.aws/config.bak", "cp src/a.rs src/b.rs"],
    },
];

/// A path to the memory of a process or of the machine.
fn is_memory(path: &str) -> bool {
    let path = path.strip_prefix("if=").unwrap_or(path);
    matches!(
        path,
        "/proc/kcore" | "/dev/mem" | "/dev/kmem" | "/dev/port" | "/dev/crash"
    ) || path
        .strip_prefix("/proc/")
        .and_then(|rest| rest.strip_suffix("/mem"))
        .is_some_and(|pid| !pid.is_empty() && !pid.contains('/'))
}

/// Whether a command reads process memory through an argument or its stdin.
fn reads_memory(cmd: &Command) -> bool {
    cmd.args.iter().any(|a| is_memory(a))
        || cmd
            .redirects
            .iter()
            .any(|r| r.op == RedirectOp::Read && is_memory(&r.target))
        || (matches!(cmd.program.as_str(), "python3" | "python" | "perl")
            && cmd.args.iter().any(|a| {
                a.contains("/mem'")
                    || a.contains("/mem\"")
                    || a.contains("/dev/mem")
                    || a.contains("/proc/kcore")
            }))
}

/// A scope a secret search should not reach: the system, a whole home, or
/// the places every home lives in.
fn wide(path: &str, cwd: Option<&str>) -> bool {
    let path = path.strip_prefix("file://").unwrap_or(path);
    let homes = [
        "/home", "/Users", "/root", "/mnt", "/media", "/Volumes", "$HOME", "${HOME}",
    ];
    matches!(
        classify(path, cwd),
        Target::Root | Target::System | Target::Home
    ) || homes.contains(&path.trim_end_matches('/'))
        || hidden_in_home(path)
}

/// A home's dot-directories and `Library`, where applications keep their
/// settings and tokens (`~/.config`, `~/Library/Application Support`).
fn hidden_in_home(path: &str) -> bool {
    let rest = ["~/", "$HOME/", "${HOME}/"]
        .iter()
        .find_map(|h| path.strip_prefix(h));
    rest.and_then(|r| r.split('/').next()).is_some_and(|first| {
        (first.starts_with('.') && first.len() > 1 && first != "..") || first == "Library"
    })
}

/// A recursive search (rg, ag and fd always are) over a wide scope.
fn searches_wide(cmd: &Command) -> bool {
    let always = matches!(cmd.program.as_str(), "rg" | "ag" | "ack" | "fd");
    let recursive = always
        || cmd.has_short('r')
        || cmd.has_short('R')
        || cmd.args.iter().any(|a| {
            a.starts_with("--recursive")
                || a == "--dereference-recursive"
                || a == "--directories=recurse"
        });
    recursive && cmd.operands().iter().any(|p| wide(p, cmd.cwd.as_deref()))
}

/// `find` whose starting points (the words before its expression) are wide.
fn finds_wide(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .skip_while(|a| {
            matches!(a.as_str(), "-H" | "-L" | "-P") || a.starts_with("-O") || a.starts_with("-D")
        })
        .take_while(|a| !a.starts_with(['-', '(', '!']))
        .any(|p| wide(p, cmd.cwd.as_deref()))
}

/// A secret scanner given a wide scope, as an operand or `--source`.
fn scans_wide(cmd: &Command) -> bool {
    let cwd = cmd.cwd.as_deref();
    let mut args = cmd.args.iter().map(String::as_str).peekable();
    while let Some(arg) = args.next() {
        let value = match arg.split_once('=') {
            Some((opt, v)) if opt.starts_with("--") => v,
            _ if matches!(arg, "--source" | "-s" | "--path") => args.next().unwrap_or(""),
            _ => arg,
        };
        if !value.starts_with('-') && wide(value, cwd) {
            return true;
        }
    }
    false
}

/// A credential store, or process memory, read as the source of a copy
/// whose copy lands where no read rule guards it.
fn copies_store(cmd: &Command) -> bool {
    let uses = file_uses(cmd);
    let source = uses.iter().any(|u| {
        matches!(u.how, How::Read | How::Link) && (is_memory(&u.path) || read_guarded(&u.path))
    });
    let guarded_landing = |path: &str, inside: Option<&str>| match inside {
        Some(name) => read_guarded(&format!("{}/{name}", path.trim_end_matches('/'))),
        None => read_guarded(path),
    };
    source
        && uses
            .iter()
            .filter(|u| u.access == Access::Write)
            .any(|u| !guarded_landing(&u.path, u.inside.as_deref()))
}

/// A database program given a credential store (a browser's cookies).
fn opens_store(cmd: &Command) -> bool {
    cmd.operands().iter().any(|p| read_guarded(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_paths() {
        for p in [
            "/proc/1/mem",
            "/proc/self/mem",
            "if=/proc/42/mem",
            "/proc/kcore",
            "/dev/mem",
        ] {
            assert!(is_memory(p), "{p}");
        }
        for p in [
            "/proc/meminfo",
            "/proc/1/maps",
            "/proc/1/task/2/status",
            "/dev/null",
            "mem",
        ] {
            assert!(!is_memory(p), "{p}");
        }
    }

    #[test]
    fn wide_scopes() {
        for p in ["/", "~", "/home", "/Users", "/etc", "$HOME"] {
            assert!(wide(p, None), "{p}");
        }
        assert!(wide("~/.config", None) && wide("$HOME/Library/Application Support", None));
        for p in [".", "src", "~/projects/app", "/tmp/x", "~/./projects"] {
            assert!(!wide(p, None), "{p}");
        }
    }
}
