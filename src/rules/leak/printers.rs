//! The CLIs that print a credential (`gh auth token`, `vault kv get`, `security find-generic-password -w`, `kubectl get secret -o yaml`), as one table the leak rules and the rules for secrets shown to the model both read.

use super::hosts::provider;
use super::sources::{secret_var, Secret};
use crate::shell::names::{self, NameSet};
use crate::shell::Command;

enum Yields {
    Token(Option<&'static str>),
    Store,
}

/// A CLI invocation that prints a credential: program, words that must
/// appear in order among its operands, options of which one must be given.
struct Printer {
    program: &'static str,
    words: &'static [&'static str],
    flags: &'static [&'static str],
    yields: Yields,
}

#[rustfmt::skip]
const PRINTERS: &[Printer] = &[
    Printer { program: "gh", words: &["auth", "token"], flags: &[], yields: Yields::Token(Some("GitHub")) },
    Printer { program: "gh", words: &["auth", "status"], flags: &["-t", "--show-token"], yields: Yields::Token(Some("GitHub")) },
    Printer { program: "gcloud", words: &["auth", "print-access-token"], flags: &[], yields: Yields::Token(Some("Google")) },
    Printer { program: "gcloud", words: &["auth", "print-identity-token"], flags: &[], yields: Yields::Token(Some("Google")) },
    Printer { program: "az", words: &["account", "get-access-token"], flags: &[], yields: Yields::Token(Some("Azure")) },
    Printer { program: "aws", words: &["ecr", "get-login-password"], flags: &[], yields: Yields::Token(Some("AWS")) },
    Printer { program: "aws", words: &["configure", "export-credentials"], flags: &[], yields: Yields::Store },
    Printer { program: "aws", words: &["sts", "get-session-token"], flags: &[], yields: Yields::Store },
    Printer { program: "aws", words: &["sts", "assume-role"], flags: &[], yields: Yields::Store },
    Printer { program: "aws", words: &["secretsmanager", "get-secret-value"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "aws", words: &["ssm", "get-parameter"], flags: &["--with-decryption"], yields: Yields::Token(None) },
    Printer { program: "heroku", words: &["auth:token"], flags: &[], yields: Yields::Token(Some("Heroku")) },
    Printer { program: "heroku", words: &["config"], flags: &[], yields: Yields::Store },
    Printer { program: "kubectl", words: &["config", "view"], flags: &["--raw", "--flatten"], yields: Yields::Store },
    Printer { program: "kubectl", words: &["get", "secret"], flags: &[], yields: Yields::Store },
    Printer { program: "kubectl", words: &["get", "secrets"], flags: &[], yields: Yields::Store },
    Printer { program: "kubectl", words: &["create", "token"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "vault", words: &["read"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "vault", words: &["kv", "get"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "vault", words: &["print", "token"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "op", words: &["read"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "op", words: &["item", "get"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "pass", words: &["show"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "gopass", words: &["show"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "security", words: &["find-generic-password"], flags: &["-w", "-g"], yields: Yields::Token(None) },
    Printer { program: "security", words: &["find-internet-password"], flags: &["-w", "-g"], yields: Yields::Token(None) },
    Printer { program: "security", words: &["dump-keychain"], flags: &[], yields: Yields::Store },
    Printer { program: "secret-tool", words: &["lookup"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "bw", words: &["get"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "lpass", words: &["show"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "doppler", words: &["secrets"], flags: &[], yields: Yields::Store },
    Printer { program: "git", words: &["credential", "fill"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "terraform", words: &["output"], flags: &["-raw", "-json"], yields: Yields::Token(None) },
    Printer { program: "tofu", words: &["output"], flags: &["-raw", "-json"], yields: Yields::Token(None) },
    Printer { program: "sops", words: &[], flags: &["-d", "--decrypt"], yields: Yields::Store },
    Printer { program: "gpg", words: &[], flags: &["--export-secret-keys", "--export-secret-subkeys"], yields: Yields::Store },
    Printer { program: "gcloud", words: &["secrets", "versions", "access"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "az", words: &["keyvault", "secret", "show"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "az", words: &["keyvault", "key", "download"], flags: &[], yields: Yields::Store },
    Printer { program: "aws", words: &["ssm", "get-parameters"], flags: &["--with-decryption"], yields: Yields::Token(None) },
    Printer { program: "aws", words: &["ssm", "get-parameters-by-path"], flags: &["--with-decryption"], yields: Yields::Store },
    Printer { program: "aws", words: &["iam", "create-access-key"], flags: &[], yields: Yields::Token(Some("AWS")) },
    Printer { program: "heroku", words: &["config:get"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "vault", words: &["token", "create"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "npm", words: &["token", "create"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "chamber", words: &["read"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "chamber", words: &["export"], flags: &[], yields: Yields::Store },
    Printer { program: "secret-tool", words: &["search"], flags: &[], yields: Yields::Store },
    Printer { program: "keyctl", words: &["print"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "keyctl", words: &["read"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "keyctl", words: &["pipe"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "kwallet-query", words: &[], flags: &["-r", "--read-password"], yields: Yields::Token(None) },
    Printer { program: "keepassxc-cli", words: &["show"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "gopass", words: &["cat"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "az", words: &["ad", "sp", "create-for-rbac"], flags: &[], yields: Yields::Store },
    Printer { program: "az", words: &["ad", "sp", "credential", "reset"], flags: &[], yields: Yields::Store },
    Printer { program: "az", words: &["ad", "app", "credential", "reset"], flags: &[], yields: Yields::Store },
    Printer { program: "nmcli", words: &["wifi", "show-password"], flags: &[], yields: Yields::Token(None) },
    Printer { program: "nmcli", words: &["connection", "show"], flags: &["-s", "--show-secrets"], yields: Yields::Store },
];

/// The program of every row of [`PRINTERS`], in order (names repeat).
const PRINTER_PROGRAMS: [&str; PRINTERS.len()] = {
    let mut out = [""; PRINTERS.len()];
    let mut i = 0;
    while i < PRINTERS.len() {
        out[i] = PRINTERS[i].program;
        i += 1;
    }
    out
};

/// Whether `words` appear in order among `operands`.
fn in_order(operands: &[&str], words: &[&str]) -> bool {
    let mut it = operands.iter();
    words.iter().all(|w| it.any(|o| o == w))
}

/// The credential a CLI prints (`gh auth token`, `aws configure get
/// aws_secret_access_key`, `kubectl config view --raw`), if it prints one.
pub(in crate::rules) fn prints_credential(cmd: &Command) -> Option<Secret> {
    let program = cmd.program.as_str();
    if !may_print(program) {
        return None;
    }
    let operands = cmd.operands();
    if program == "aws" && in_order(&operands, &["configure", "get"]) {
        return aws_configured(&operands);
    }
    if matches!(program, "kubectl" | "oc") && !shows_secret_data(cmd, &operands) {
        return None;
    }
    // Metadata of a Vault secret holds its versions, not its values.
    if program == "vault" && operands.contains(&"metadata") {
        return None;
    }
    // A git credential helper asked for what it stores, as git asks it.
    let helper = program.starts_with("git-credential-")
        || (program == "git"
            && operands
                .first()
                .is_some_and(|o| o.starts_with("credential-")));
    if helper && operands.contains(&"get") {
        return Some(Secret::Token {
            name: cmd.display(),
            provider: None,
        });
    }
    // `-c`/`--clip` puts the entry on the clipboard and prints only that it did.
    let clipped = || {
        cmd.args.iter().any(|a| {
            a.starts_with("--clip")
                || a.strip_prefix("-c")
                    .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    if matches!(program, "pass" | "gopass") && clipped() {
        return None;
    }
    if matches!(program, "pass" | "gopass") && shows_entry(&operands) {
        return Some(Secret::Token {
            name: cmd.display(),
            provider: None,
        });
    }
    let name = if program.starts_with("docker-credential-") && operands.first() == Some(&"get") {
        return Some(Secret::Token {
            name: cmd.display(),
            provider: None,
        });
    } else if program == "oc" {
        // OpenShift's client is kubectl's, with the same subcommands.
        "kubectl"
    } else {
        program.trim_end_matches('2')
    };
    let printer = PRINTERS.iter().find(|p| {
        p.program == name
            && in_order(&operands, p.words)
            && (p.flags.is_empty() || cmd.options().any(|o| p.flags.iter().any(|f| given(o, f))))
    })?;
    Some(match printer.yields {
        Yields::Store => Secret::File(cmd.display()),
        Yields::Token(service) => Secret::Token {
            name: cmd.display(),
            provider: service.and_then(provider),
        },
    })
}

/// Whether `program` is one that may print a credential: a printer's, or a
/// credential helper's. Asked of every command of every line: most are no
/// printer's program, which one probe of the names tells before any
/// argument is looked at.
fn may_print(program: &str) -> bool {
    static KNOWN: NameSet = names::name_set!(&PRINTER_PROGRAMS);
    let known = program == "oc"
        || KNOWN.contains(program.trim_end_matches('2'))
        || program.starts_with("docker-credential-")
        || program.starts_with("git-credential-");
    debug_assert_eq!(
        known,
        program == "oc"
            || program.starts_with("docker-credential-")
            || program.starts_with("git-credential-")
            || PRINTERS
                .iter()
                .any(|p| p.program == program.trim_end_matches('2'))
    );
    known
}

/// `aws configure get KEY`: a credential when the key (its last dotted
/// part, `profile.x.aws_secret_access_key`) names a secret.
fn aws_configured(operands: &[&str]) -> Option<Secret> {
    let key = operands
        .iter()
        .skip_while(|o| **o != "get")
        .nth(1)?
        .rsplit('.')
        .next()?
        .to_ascii_uppercase();
    secret_var(&key).then(|| Secret::Token {
        name: key,
        provider: provider("AWS"),
    })
}

/// Whether option word `o` gives flag `f`: the word itself, a short flag
/// with its value or cluster attached (`-oyaml`, `-wa`), a long one with
/// `=value` (`--output=json`).
fn given(o: &str, f: &str) -> bool {
    o == f
        || (f.len() == 2 && !o.starts_with("--") && o.starts_with(f))
        || (f.starts_with("--") && o.strip_prefix(f).is_some_and(|v| v.starts_with('=')))
}

/// `kubectl get secret`'s data is shown only in a format that prints it
/// (`-o yaml`, `json`, `jsonpath=...`, `go-template`); names, `wide` and
/// `describe` show names and sizes.
fn shows_secret_data(cmd: &Command, operands: &[&str]) -> bool {
    let at = operands.iter().position(|o| *o == "get");
    let get = at
        .and_then(|i| operands.get(i + 1))
        .is_some_and(|o| o.split(['/', ',']).any(|k| k.starts_with("secret")));
    if !get {
        return true;
    }
    let mut args = cmd.args.iter().map(String::as_str);
    while let Some(a) = args.next() {
        let format = match a {
            "-o" | "--output" => args.next().unwrap_or(""),
            _ => match a.strip_prefix("--output=").or_else(|| a.strip_prefix("-o")) {
                Some(v) if !a.starts_with("--") || a.starts_with("--output=") => v,
                _ => continue,
            },
        };
        let format = format.trim_start_matches('=');
        return !matches!(format, "" | "name" | "wide");
    }
    false
}

/// `pass NAME` and `gopass NAME` show the entry; their subcommands do not.
fn shows_entry(operands: &[&str]) -> bool {
    const SUBCOMMANDS: &[&str] = &[
        "init",
        "ls",
        "list",
        "find",
        "search",
        "grep",
        "insert",
        "add",
        "edit",
        "generate",
        "rm",
        "remove",
        "delete",
        "mv",
        "cp",
        "git",
        "help",
        "version",
        "otp",
        "sync",
        "setup",
        "config",
        "audit",
        "fsck",
        "mounts",
        "templates",
        "recipients",
        "clone",
        "show",
        "cat",
    ];
    operands.first().is_some_and(|o| !SUBCOMMANDS.contains(o))
}
