//! Built-in rules: secrets shown to the model — what a command prints goes into the agent's context and to its model provider, so a credential printed (`printenv AWS_SECRET_ACCESS_KEY`, `gh auth token`, `vault kv get`, `kubectl get secret -o yaml`) or the whole environment dumped is a secret handed over.
//!
//! A command's output is followed down its pipeline: a stage that passes
//! text on (`grep`, `head`, `base64`, `jq`) keeps it shown, one that
//! consumes it (`docker login --password-stdin`, `wc -l`, `> file`)
//! does not, and a `grep` decides by what it selects: `env | grep -i
//! path` shows no secret, `env | grep -i token` nothing else.

use std::collections::HashMap;

use once_cell::sync::Lazy;
use regex::Regex;

use super::leak::sources::{
    dumps_environment, is_environ, prints_credential, secret_var, word_secret, Flow, Secret,
};
use super::paths::basename;
use super::secrets::read_guarded;
use super::{Matcher, Rule};
use crate::shell::names::{self, NameSet};
use crate::shell::{Analysis, Command, RedirectOp};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: SECRET_PRINTED,
        category: "print a credential into the agent's context, or dump a whole store into a file",
        reason: "what a command prints is sent to the model provider and kept in the transcript; a printed key or token has left the machine, and a store dumped into a plain file is the agent's to read next",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(secret_printed),
        hits: &["printenv AWS_SECRET_ACCESS_KEY", "echo $GITHUB_TOKEN", "gh auth token", "gcloud auth print-access-token", "vault kv get secret/db", "kubectl get secret db -o yaml", "aws configure get aws_secret_access_key", "security find-generic-password -wa x", "git credential fill", "op read op://v/i/f", "history | grep -i password", "terraform output -json", "cat .env", "env | grep -i token", "kubectl get secrets -A -o yaml > s.yaml", "oc get secret -o json > all.json"],
        misses: &["printenv PATH", "echo $HOME", "gh auth status", "aws ecr get-login-password | docker login --username AWS --password-stdin x.example", "export T=$(gh auth token)", "kubectl get secrets", "kubectl describe secret db", "history | tail", "echo ${#GITHUB_TOKEN}", "vault kv get secret/db > /dev/null", "env > env.log", "kubectl get secret db -o yaml > db.yaml", "terraform output -json | jq -r .vpc_id", "kubectl get secrets -o json | jq -r '.items[].metadata.name'"],
    },
    Rule {
        id: ENVIRONMENT_PRINTED,
        category: "print the whole environment into the agent's context",
        reason: "the environment holds the session's tokens and keys; printed, every one of them goes to the model provider",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(environment_printed),
        hits: &["env", "printenv", "export -p", "env | sort", "env | grep -v PATH", "cat /proc/self/environ", "tr '\\0' '\\n' < /proc/1/environ", "docker inspect -f '{{.Config.Env}}' web", "heroku config -a app"],
        misses: &["env | grep -i path", "env | wc -l", "env FOO=1 make", "printenv HOME", "set -e", "env > /dev/null", "docker inspect web"],
    },
];

/// What a command itself prints that matters here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shows {
    /// A credential: a key, a token, a password, a secret file.
    Secret,
    /// Every variable of an environment, or an app's whole configuration.
    Environment,
    /// The session's command history: shown only when searched for secrets.
    History,
}

const SECRET_PRINTED: &str = "reveal.secret-printed";
const ENVIRONMENT_PRINTED: &str = "reveal.environment-printed";

fn secret_printed(a: &Analysis) -> Option<String> {
    first_shown(a, SECRET_PRINTED)
}

fn environment_printed(a: &Analysis) -> Option<String> {
    first_shown(a, ENVIRONMENT_PRINTED)
}

/// The first pipeline of the line that shows what rule `id` asks about.
fn first_shown(a: &Analysis, id: &str) -> Option<String> {
    let found = a.memo.shown.get_or_init(|| shown(a));
    found
        .iter()
        .find(|(rule, _)| *rule == id)
        .map(|(_, text)| text.clone())
}

/// Every command of the line whose output reaches the agent, each with the
/// rule its kind concerns and the pipeline it leads, worked out once for
/// both rules.
fn shown(a: &Analysis) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut echoed = Echoed::default();
    for (i, cmd) in a.commands.iter().enumerate() {
        // What a substitution prints is an argument of the command around it.
        if cmd
            .via
            .iter()
            .any(|v| matches!(*v, "$( )" | "<( )" | ">( )"))
        {
            continue;
        }
        // Help text prints no secret: `aws iam create-access-key help`
        // (asked only of what would print one, most commands print none).
        let Some((reached, last)) = prints(cmd, &mut echoed)
            .filter(|_| !super::asks_for_help(cmd))
            .and_then(|kind| reaches(a, i, kind))
        else {
            continue;
        };
        let id = match reached {
            Shows::Secret | Shows::History => SECRET_PRINTED,
            Shows::Environment => ENVIRONMENT_PRINTED,
        };
        let mut text: Vec<String> = a.commands[last]
            .upstream
            .iter()
            .map(|u| u.display())
            .collect();
        text.push(a.commands[last].display());
        out.push((id, text.join(" | ")));
    }
    out
}

/// What the words echoed on a line carry, each word with a substitution
/// followed once: a line's commands repeat their words (`xargs echo` in
/// every stage of a long pipeline echoes `$(xargs input)`), and following
/// one re-analyses its body.
#[derive(Default)]
struct Echoed<'a>(HashMap<&'a str, Option<Shows>>);

impl<'a> Echoed<'a> {
    fn word(&mut self, word: &'a str) -> Option<Shows> {
        let shows = |word| {
            word_secret(word, &Flow::default()).map(|c| match c.secret {
                Secret::Environment => Shows::Environment,
                _ => Shows::Secret,
            })
        };
        // A word with no `$` and no backquote names no variable and
        // substitutes nothing: nothing to remember.
        if memchr::memchr2(b'$', b'`', word.as_bytes()).is_none() {
            debug_assert!(shows(word).is_none());
            return None;
        }
        *self.0.entry(word).or_insert_with(|| shows(word))
    }
}

/// What a command prints of a secret, an environment or a history.
fn prints<'a>(cmd: &'a Command, echoed: &mut Echoed<'a>) -> Option<Shows> {
    let program = cmd.program.as_str();
    match program {
        "history" => return Some(Shows::History),
        "fc" if cmd.has_short('l') => return Some(Shows::History),
        "echo" | "printf" | "print" => return cmd.args.iter().find_map(|a| echoed.word(a)),
        "printenv" if cmd.operands().iter().any(|n| secret_var(n)) => return Some(Shows::Secret),
        "declare" | "typeset" if cmd.operands().iter().any(|n| secret_var(n)) => {
            return Some(Shows::Secret)
        }
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc"
            if inspects_env(cmd) || execs_env(cmd) =>
        {
            return Some(Shows::Environment)
        }
        "heroku" if shows_app_config(cmd) => return Some(Shows::Environment),
        _ => {}
    }
    if dumps_environment(cmd) {
        return Some(Shows::Environment);
    }
    if prints_credential(cmd).is_some() {
        return Some(Shows::Secret);
    }
    if is_passer(program) || program == "xargs" {
        return reads_secret(cmd);
    }
    None
}

/// Programs that print what they read: a file given to one is shown, and
/// text piped through one stays shown.
#[rustfmt::skip]
const PASSERS: &[&str] = &[
    "cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat", "nl", "grep", "egrep",
    "fgrep", "rg", "ag", "sed", "awk", "gawk", "mawk", "cut", "tr", "sort", "uniq", "tee", "xxd",
    "od", "hexdump", "hd", "base64", "base32", "basenc", "jq", "yq", "column", "fold", "fmt",
    "rev", "paste", "strings", "iconv", "expand", "pr", "envsubst", "ccze",
];

/// Whether `program` is one of [`PASSERS`]: asked of every command of a
/// line, so one probe rather than a scan of the list.
fn is_passer(program: &str) -> bool {
    static SET: NameSet = names::name_set!(PASSERS);
    SET.contains(program)
}

/// A file read by a printing program that is an environment or a secret:
/// `/proc/*/environ`, an env file, a private key by its name (the file
/// rules judge the guarded places; these are the ones they leave, such as
/// a scratch project's `.env`).
fn reads_secret(cmd: &Command) -> Option<Shows> {
    // Every operand is an argument: when no argument and no input names
    // such a file, there is no list of operands to make (every stage of a
    // long pipeline of filters is asked).
    let named = |p: &str| is_environ(p) || secret_file(p);
    let inputs = || {
        cmd.redirects
            .iter()
            .any(|r| r.op == RedirectOp::Read && named(&r.target))
    };
    if !cmd.args.iter().any(|a| named(a)) && !inputs() {
        debug_assert!(read_secret(cmd).is_none());
        return None;
    }
    read_secret(cmd)
}

/// [`reads_secret`], every operand and input asked.
fn read_secret(cmd: &Command) -> Option<Shows> {
    let redirected = cmd
        .redirects
        .iter()
        .filter(|r| r.op == RedirectOp::Read)
        .map(|r| r.target.as_str());
    let mut files = cmd.operands().into_iter().chain(redirected);
    files.find_map(|p| {
        if is_environ(p) {
            Some(Shows::Environment)
        } else {
            // A guarded place named in full is the file rules' to judge,
            // with their own words; these are the ones they leave.
            let named = p.starts_with(['/', '~', '$']);
            (secret_file(p) && !(named && read_guarded(p))).then_some(Shows::Secret)
        }
    })
}

/// An env file (not a template) or a private key, by its name.
fn secret_file(path: &str) -> bool {
    // Every name below has a dot or an underscore: asked of every
    // argument of every filter, most of which have neither.
    if memchr::memchr2(b'.', b'_', path.as_bytes()).is_none() {
        return false;
    }
    let base = basename(path);
    let env = base == ".env" || (base.starts_with(".env.") && !super::files::is_env_template(base));
    let key = ["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"]
        .iter()
        .any(|k| base.starts_with(k))
        && !base.ends_with(".pub");
    env || key || base.ends_with(".key") || base.ends_with(".p12") || base.ends_with(".pfx")
}

/// `kubectl get secrets -A -o yaml`: every secret of a namespace or of all
/// of them, not one named.
fn dumps_every_secret(cmd: &Command) -> bool {
    if !matches!(cmd.program.as_str(), "kubectl" | "oc") {
        return false;
    }
    // Options that take the next word as their value.
    const VALUED: &[&str] = &[
        "-n",
        "--namespace",
        "-o",
        "--output",
        "-l",
        "--selector",
        "--context",
        "--kubeconfig",
        "--cluster",
        "--user",
        "-s",
        "--server",
        "--field-selector",
        "--sort-by",
        "--template",
    ];
    let mut words = Vec::new();
    let mut args = cmd.args.iter().map(String::as_str);
    let mut all = false;
    while let Some(a) = args.next() {
        if a == "-A" || a == "--all-namespaces" {
            all = true;
        } else if VALUED.contains(&a) {
            args.next();
        } else if !a.starts_with('-') {
            words.push(a);
        }
    }
    let Some(at) = words.iter().position(|w| *w == "get") else {
        return false;
    };
    let secrets = words
        .get(at + 1)
        .is_some_and(|w| w.split(['/', ',']).any(|k| k.starts_with("secret")));
    secrets && (all || words.len() == at + 2)
}

/// `docker inspect` with a format that prints the container's environment.
fn inspects_env(cmd: &Command) -> bool {
    cmd.args
        .first()
        .is_some_and(|a| a == "inspect" || a == "container")
        && cmd
            .args
            .iter()
            .any(|a| a.contains(".Config.Env") || a.contains(".Env}}"))
}

/// `docker exec web env`, `kubectl exec pod -- printenv`: a container's
/// environment, or one of its processes', printed.
fn execs_env(cmd: &Command) -> bool {
    let Some(at) = cmd.args.iter().position(|a| a == "exec") else {
        return false;
    };
    let inner = &cmd.args[at + 1..];
    let last = inner.last().map(String::as_str);
    matches!(last, Some("env" | "printenv" | "export" | "set"))
        || inner.iter().any(|a| is_environ(a))
}

/// `heroku config` (and `-s`/`--shell`, `--json`) lists every config var
/// of an app with its value: database URLs with their passwords, API keys.
fn shows_app_config(cmd: &Command) -> bool {
    cmd.operands().first() == Some(&"config")
}

/// Where the output of `a.commands[i]`, of kind `kind`, ends: the kind it
/// has when it reaches the agent (or a file), and the command that shows
/// it; `None` when a stage consumes it.
fn reaches(a: &Analysis, i: usize, kind: Shows) -> Option<(Shows, usize)> {
    let cmd = &a.commands[i];
    let stdout = cmd.redirects.iter().rfind(|r| {
        matches!(r.op, RedirectOp::Write | RedirectOp::Append) && matches!(r.fd, None | Some(1))
    });
    // The terminal's own devices show it; other devices take it nowhere.
    // One secret saved to a file (a backup before an edit) is read later
    // and judged then; a whole cluster's secrets dumped into a file are a
    // store copied out, read next with a file tool under a name (`s.yaml`)
    // no file rule knows: asked as if printed.
    if let Some(r) = stdout {
        let target = r.target.as_str();
        let shown = matches!(target, "/dev/stdout" | "/dev/stderr" | "/dev/tty")
            || (kind == Shows::Secret && !target.starts_with("/dev/") && dumps_every_secret(cmd));
        return (shown && kind != Shows::History).then_some((kind, i));
    }
    let Some((j, next)) = next_stage(a, i) else {
        return (kind != Shows::History).then_some((kind, i));
    };
    if matches!(
        next.program.as_str(),
        "grep" | "egrep" | "fgrep" | "rg" | "ag"
    ) {
        if counts_only(next) {
            return None;
        }
        // What a search for secret words lets through is the secrets.
        if SECRET_PATTERN.is_match(&next.arg_line()) && !inverted(next) {
            return reaches(a, j, Shows::Secret).map(|(_, last)| (Shows::Secret, last));
        }
        if kind != Shows::Secret && !inverted(next) {
            return None;
        }
        return reaches(a, j, kind);
    }
    // A JSON or YAML query whose result is a plain field (names, ids, the
    // keys of a map) shows no secret.
    if matches!(next.program.as_str(), "jq" | "yq" | "gojq" | "jaq") {
        let filter = next.operands().first().copied().unwrap_or(".");
        if picks_plain_field(filter) {
            return None;
        }
        return reaches(a, j, kind);
    }
    if is_passer(&next.program) {
        return reaches(a, j, kind);
    }
    None
}

/// The stage after `a.commands[i]` in its pipeline.
fn next_stage(a: &Analysis, i: usize) -> Option<(usize, &Command)> {
    let cmd = &a.commands[i];
    let n = cmd.upstream.len();
    a.commands.iter().enumerate().skip(i + 1).find(|(_, d)| {
        // The stage as the next one holds it, compared by what it runs:
        // a copy may differ in what the analysis added to it since.
        d.upstream.len() == n + 1
            && d.upstream[n].program == cmd.program
            && d.upstream[n].args == cmd.args
    })
}

/// A search that prints counts, names or nothing, not the lines.
fn counts_only(cmd: &Command) -> bool {
    ['c', 'q', 'l', 'L'].iter().any(|f| cmd.has_short(*f))
        || cmd.options().any(|o| {
            matches!(
                o,
                "--count"
                    | "--quiet"
                    | "--silent"
                    | "--files-with-matches"
                    | "--files-without-match"
            )
        })
}

fn inverted(cmd: &Command) -> bool {
    cmd.has_short('v') || cmd.options().any(|o| o == "--invert-match")
}

/// Words a search for secrets looks for.
static SECRET_PATTERN: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?i)token|secret|pass|pwd|key|cred|auth|aws|api|private|session|cookie|bearer|github|gh_|openai|anthropic|database_url|dsn")
        .expect("secret pattern regex is valid")
});

/// Whether a jq or yq filter ends in a field that names or counts things
/// (`.items[].metadata.name`, `.data | keys`, `length`), not in values.
fn picks_plain_field(filter: &str) -> bool {
    static LAST_FIELD: Lazy<Regex> = Lazy::new(|| {
        Regex::new(r"\.([A-Za-z_][\w-]*)[\]\[\s)]*$").expect("last field regex is valid")
    });
    const PLAIN: &[&str] = &[
        "name",
        "names",
        "namespace",
        "id",
        "arn",
        "uid",
        "type",
        "kind",
        "labels",
        "annotations",
        "creationtimestamp",
        "status",
        "region",
        "version",
        "url",
        "host",
        "address",
    ];
    let last = filter.rsplit('|').next().unwrap_or(filter).trim();
    // Terraform's `-json` gives each output as `{value, type, sensitive}`:
    // `.NAME.value` is the output NAME.
    let last = last.strip_suffix(".value").unwrap_or(last);
    if matches!(last, "keys" | "keys[]" | "length" | "keys_unsorted") {
        return true;
    }
    if SECRET_PATTERN.is_match(filter) {
        return false;
    }
    LAST_FIELD
        .captures(last)
        .and_then(|c| c.get(1))
        .is_some_and(|m| {
            let field = m.as_str().to_ascii_lowercase();
            PLAIN.contains(&field.as_str())
                || ["_id", "_ids", "_arn", "_name", "_url"]
                    .iter()
                    .any(|s| field.ends_with(s))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_files_by_name() {
        for p in [
            ".env",
            "app/.env.production",
            "id_rsa",
            "deploy/id_ed25519",
            "tls.key",
        ] {
            assert!(secret_file(p), "{p}");
        }
        for p in [
            ".env.example",
            "id_rsa.pub",
            "README.md",
            "cert.pem",
            ".environment",
        ] {
            assert!(!secret_file(p), "{p}");
        }
    }

    #[test]
    fn plain_fields() {
        for f in [
            ".items[].metadata.name",
            ".data | keys",
            ".vpc_id",
            "length",
            ".items[] | .metadata.namespace",
        ] {
            assert!(picks_plain_field(f), "{f}");
        }
        for f in [
            ".",
            ".items",
            ".items[].data",
            ".data.password",
            ".db.value",
            ".[]",
            ".items[].data | map_values(@base64d)",
        ] {
            assert!(!picks_plain_field(f), "{f}");
        }
    }
}
