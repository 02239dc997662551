//! What carries a secret: secret files, the whole environment, secret-named variables, credentials printed by CLIs, and files the same line filled with one of these.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use super::hosts::{provider_of, Provider};
pub(in crate::rules) use super::printers::prints_credential;
use super::script;
use crate::rules::access::{file_uses, Access, How};
use crate::rules::files::is_env_template;
use crate::rules::net::substituted;
use crate::rules::paths::basename;
use crate::rules::secrets::is_secret_path;
use crate::shell::{Command, RedirectOp};

/// A secret, from the weakest to the strongest claim that sending it is theft.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::rules) enum Secret {
    /// One credential value: a secret-named variable (`$GITHUB_TOKEN`) or
    /// what a CLI prints as its token (`gh auth token`). Credentials exist
    /// to be sent to their service, so where it goes decides.
    Token {
        name: String,
        provider: Option<&'static Provider>,
    },
    /// A secret file's content (a key, a credential store, `.env`), named as written.
    File(String),
    /// Every variable of the environment at once (`env`, `/proc/self/environ`).
    Environment,
}

impl Secret {
    fn rank(&self) -> u8 {
        match self {
            Secret::Token { .. } => 0,
            Secret::File(_) => 1,
            Secret::Environment => 2,
        }
    }

    fn token(name: &str) -> Secret {
        Secret::Token {
            name: name.to_string(),
            provider: provider_of(name),
        }
    }
}

/// A secret on its way, and the file the same line put it in, if it went through one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::rules) struct Carried {
    pub secret: Secret,
    /// The file and the command that filled it (`/tmp/k`, `cat ~/.ssh/id_rsa > /tmp/k`).
    pub staged: Option<(String, String)>,
}

impl From<Secret> for Carried {
    fn from(secret: Secret) -> Carried {
        Carried {
            secret,
            staged: None,
        }
    }
}

/// The strongest of several secrets (the environment over a file over a token).
pub(in crate::rules) fn strongest(found: impl IntoIterator<Item = Carried>) -> Option<Carried> {
    found
        .into_iter()
        .fold(None, |best: Option<Carried>, c| match best {
            Some(b) if b.secret.rank() >= c.secret.rank() => Some(b),
            _ => Some(c),
        })
}

/// Words of a variable name that make it a secret's.
const SECRET_WORDS: &[&str] = &[
    "TOKEN",
    "TOKENS",
    "SECRET",
    "SECRETS",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "PWD",
    "KEY",
    "APIKEY",
    "CREDENTIAL",
    "CREDENTIALS",
    "CREDS",
    "COOKIE",
];

/// Last words of a name that say it holds something about a secret, not the secret.
const NOT_THE_SECRET: &[&str] = &[
    "ID", "PATH", "FILE", "DIR", "NAME", "URL", "HOST", "PORT", "USER", "USERNAME", "TYPE",
    "LENGTH", "SIZE", "REGION", "HEADER", "ENDPOINT",
];

/// Names whose value carries a password inside a URL.
const SECRET_URLS: &[&str] = &[
    "DATABASE_URL",
    "MONGODB_URI",
    "MONGO_URL",
    "REDIS_URL",
    "SENTRY_DSN",
];

/// Whether a variable named so holds a secret. Environment variables are
/// upper case by convention; a lower-case `$key` is most often a loop
/// variable, so only upper-case names count.
pub(in crate::rules) fn secret_var(name: &str) -> bool {
    if name.is_empty() || name.chars().any(|c| c.is_ascii_lowercase()) {
        return false;
    }
    if SECRET_URLS.contains(&name) {
        return true;
    }
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let Some(last) = words.last() else {
        return false;
    };
    // `$PWD` is the working directory; `DB_PWD` a password.
    if name == "PWD" || name == "OLDPWD" || NOT_THE_SECRET.contains(last) {
        return false;
    }
    if words
        .iter()
        .any(|w| matches!(*w, "PUBLIC" | "PUBLISHABLE" | "PUB"))
    {
        return false;
    }
    words.iter().any(|w| {
        SECRET_WORDS.contains(w)
            || ["TOKEN", "SECRET", "PASSWORD", "APIKEY"]
                .iter()
                .any(|s| w.len() > s.len() && w.ends_with(s))
    })
}

/// Credentials never sent as they are, even to their own service: AWS
/// signs requests with its secret key, and private keys sign locally.
pub(in crate::rules) fn never_sent(name: &str) -> bool {
    name.contains("SECRET_ACCESS_KEY") || name.contains("PRIVATE_KEY")
}

/// The first secret-named variable a word expands (`$X`, `${X}`, `${X:-d}`).
pub(in crate::rules) fn secret_var_in(word: &str) -> Option<&str> {
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        rest = &rest[at + 1..];
        let inner = rest.strip_prefix('{').unwrap_or(rest);
        let end = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let name = &inner[..end];
        if secret_var(name) {
            return Some(name);
        }
    }
    None
}

/// What a word carries: a secret-named variable, or a substitution whose
/// commands produce a secret (`$(cat ~/.ssh/id_rsa)`, `` `env` ``).
pub(in crate::rules) fn word_secret(word: &str, flow: &Flow) -> Option<Carried> {
    let nested = has_substitution(word);
    let from_commands = if nested {
        within_depth(word, || {
            strongest(
                substituted(word)
                    .iter()
                    .filter_map(|c| command_secret(c, flow)),
            )
        })
    } else {
        None
    };
    let var = secret_var_in(word).map(|name| Carried::from(Secret::token(name)));
    strongest(from_commands.into_iter().chain(var))
}

/// How deep substitutions are followed: the analysis stands for what it
/// cannot resolve with the substitution's own text (`xargs` gives
/// `$(xargs input)`), which would otherwise be followed for ever.
const MAX_DEPTH: usize = 8;

fn within_depth(word: &str, f: impl FnOnce() -> Option<Carried>) -> Option<Carried> {
    thread_local! {
        static DEPTH: Cell<usize> = const { Cell::new(0) };
        /// Answers below the outermost word, by depth and word. Below it the
        /// line's flow is the same, so an answer is the same wherever the
        /// word recurs; without this, a program modelled as running its
        /// input (`parallel r>m /usr`) recurs into the same words at every
        /// level and the work grows as its branching to the eighth power.
        static SEEN: RefCell<HashMap<(usize, String), Option<Carried>>> =
            RefCell::new(HashMap::new());
        /// The words being followed, outermost first.
        static FOLLOWING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }
    let depth = DEPTH.with(Cell::get);
    if depth == 0 {
        FOLLOWING.with(|f| f.borrow_mut().clear());
    }
    // A word met again inside itself (`xargs` with unknown input runs
    // `$(xargs input)`) finds nothing its outer reading does not.
    if depth >= MAX_DEPTH || FOLLOWING.with(|f| f.borrow().iter().any(|w| w == word)) {
        return None;
    }
    let key = (depth, word.to_string());
    if depth == 0 {
        SEEN.with(|seen| seen.borrow_mut().clear());
    } else if let Some(known) = SEEN.with(|seen| seen.borrow().get(&key).cloned()) {
        return known;
    }
    DEPTH.with(|d| d.set(depth + 1));
    FOLLOWING.with(|f| f.borrow_mut().push(word.to_string()));
    let found = f();
    FOLLOWING.with(|f| f.borrow_mut().pop());
    DEPTH.with(|d| d.set(depth));
    if depth > 0 {
        SEEN.with(|seen| seen.borrow_mut().insert(key, found.clone()));
    }
    found
}

/// Whether a path is the environment of a process (`/proc/self/environ`).
pub(in crate::rules) fn is_environ(path: &str) -> bool {
    path.strip_prefix("/proc/")
        .is_some_and(|rest| rest.ends_with("/environ"))
}

/// What a file holds: the environment, a secret, or a secret the line put there.
pub(in crate::rules) fn path_secret(path: &str, flow: &Flow) -> Option<Carried> {
    if is_environ(path) {
        return Some(Secret::Environment.into());
    }
    if is_secret_path(path) {
        return Some(Secret::File(path.to_string()).into());
    }
    if has_substitution(path) {
        return word_secret(path, flow);
    }
    flow.staged(path)
}

/// Whether `word` holds `$(`, `<(` or a backquote. Over bytes: every
/// path a sender names is asked, and three substring searches cost more.
fn has_substitution(word: &str) -> bool {
    let bytes = word.as_bytes();
    bytes.contains(&b'`')
        || bytes
            .windows(2)
            .any(|pair| pair[1] == b'(' && matches!(pair[0], b'$' | b'<'))
}

/// Programs that use a key or credential file named in their arguments
/// without printing it (`ssh -i KEY`, `curl --key KEY`, `kubectl --kubeconfig`).
#[rustfmt::skip]
const USES_KEYS: &[&str] = &[
    "ssh", "scp", "sftp", "ssh-add", "ssh-keygen", "ssh-copy-id", "git", "curl", "wget", "docker",
    "podman", "kubectl", "helm", "terraform", "ansible", "ansible-playbook", "psql", "mysql", "aws",
    "gcloud", "az", "source", ".",
];

/// Shell builtins that read a variable without printing it.
const QUIET_BUILTINS: &[&str] = &[
    "test", "[", "[[", "export", "unset", "local", "readonly", "declare", "typeset", "read", ":",
];

/// What a command's output carries: a secret file it reads, the
/// environment it dumps, a credential it prints, a secret variable it
/// echoes, or what reaches its stdin.
pub(in crate::rules) fn command_secret(cmd: &Command, flow: &Flow) -> Option<Carried> {
    let mut found: Vec<Carried> = Vec::new();
    if dumps_environment(cmd) {
        return Some(Secret::Environment.into());
    }
    found.extend(prints_credential(cmd).map(Carried::from));
    if cmd.program == "printenv" {
        let named = cmd.operands().into_iter().find(|n| secret_var(n));
        found.extend(named.map(|n| Carried::from(Secret::token(n))));
    }
    let program = cmd.program.as_str();
    if !USES_KEYS.contains(&program) {
        // `cp .env.example .env` writes `.env`; it reads only the template.
        let mut written: Vec<String> = file_uses(cmd)
            .into_iter()
            .filter(|u| u.access == Access::Write)
            .map(|u| u.path.into_owned())
            .collect();
        // Sorted and searched: `rsync` with thousands of files writes as
        // many, and a scan for each argument was quadratic.
        written.sort_unstable();
        for arg in cmd
            .args
            .iter()
            .filter(|a| written.binary_search(a).is_err())
        {
            let arg = arg.trim_start_matches('@');
            let value = arg.split_once('=').map(|(_, v)| v);
            found.extend(
                std::iter::once(arg)
                    .chain(value)
                    .find_map(|p| path_secret(p, flow)),
            );
        }
        if !QUIET_BUILTINS.contains(&program) {
            let var = cmd.args.iter().find_map(|a| secret_var_in(a));
            found.extend(var.map(|name| Carried::from(Secret::token(name))));
        }
    }
    found.extend(stdin_secret(cmd, flow));
    strongest(found)
}

/// What reaches a command's stdin: earlier pipeline stages, an input
/// redirection, a here-string or heredoc.
pub(in crate::rules) fn stdin_secret(cmd: &Command, flow: &Flow) -> Option<Carried> {
    let upstream = cmd.upstream.iter().filter_map(|u| command_secret(u, flow));
    let redirected = cmd
        .redirects
        .iter()
        .filter(|r| r.op == RedirectOp::Read)
        .filter_map(|r| path_secret(&r.target, flow));
    let text = cmd.stdin.as_deref().and_then(|t| word_secret(t, flow));
    strongest(upstream.chain(redirected).chain(text))
}

/// `env`, `printenv`, `set`, `export -p`, `declare -x`, `ps e`, and
/// interpreter code printing its whole environment: every variable at once.
pub(in crate::rules) fn dumps_environment(cmd: &Command) -> bool {
    let args = &cmd.args;
    let options_only = || args.iter().all(|a| a.starts_with('-'));
    match cmd.program.as_str() {
        "env" | "printenv" => cmd.operands().is_empty(),
        "set" => args.is_empty(),
        "export" => options_only() && !args.iter().any(|a| a == "-n" || a == "-f"),
        "declare" | "typeset" => {
            options_only() && !args.iter().any(|a| a.contains('f') || a.contains('F'))
        }
        // BSD-style `ps eww`, `ps auxe`: each process's environment after its command.
        "ps" => ps_shows_environment(args),
        _ => script::prints_environment(cmd),
    }
}

/// `ps e` among BSD-style letters, not an option's value (`ps --sort
/// size`, `ps -p 1234 -o user`, `ps o pid,sess`).
fn ps_shows_environment(args: &[String]) -> bool {
    const VALUED: &[&str] = &[
        "-C",
        "-G",
        "-g",
        "-O",
        "-o",
        "-p",
        "-q",
        "-s",
        "-t",
        "-U",
        "-u",
        "-k",
        "--cols",
        "--columns",
        "--format",
        "--group",
        "--Group",
        "--lines",
        "--pid",
        "--ppid",
        "--quick-pid",
        "--rows",
        "--sid",
        "--sort",
        "--tty",
        "--user",
        "--User",
        "--width",
    ];
    let mut prev: Option<&str> = None;
    args.iter().any(|a| {
        let value = prev.is_some_and(|p| {
            VALUED.contains(&p)
                || (!p.starts_with('-') && p.ends_with(['o', 'O', 'p', 't', 'U', 'k']))
        });
        prev = Some(a.as_str());
        !value
            && !a.starts_with('-')
            && a.contains('e')
            && a.bytes().all(|b| b.is_ascii_alphabetic())
    })
}

/// What the line has done so far that later commands can send: files it
/// filled with a secret, and a secret it put in a git repository.
#[derive(Debug, Default)]
pub(in crate::rules) struct Flow {
    staged: Vec<(String, Carried)>,
    /// The command that added a secret to the repository's next commit.
    pub committed: Option<String>,
}

/// A path as written, made comparable: `./a//b/` is `a/b`.
fn norm(path: &str) -> String {
    let mut p = path.trim().to_string();
    while p.contains("//") {
        p = p.replace("//", "/");
    }
    while let Some(rest) = p.strip_prefix("./") {
        p = rest.to_string();
    }
    if p.len() > 1 {
        p = p.trim_end_matches('/').to_string();
    }
    p
}

impl Flow {
    /// What an earlier command put in `path`, or in a file under it.
    pub fn staged(&self, path: &str) -> Option<Carried> {
        // Nearly always nothing is staged: no need to make the path comparable.
        if self.staged.is_empty() {
            return None;
        }
        let path = norm(path);
        self.staged
            .iter()
            .find(|(file, _)| {
                *file == path
                    || (path != "." && file.starts_with(&format!("{path}/")))
                    || (path == "." && !file.starts_with('/') && !file.starts_with('~'))
            })
            .map(|(_, c)| c.clone())
    }

    /// Files the line filled with a secret and that sit in a working tree,
    /// not in a temp directory.
    pub fn staged_in_tree(&self) -> impl Iterator<Item = &str> {
        self.staged.iter().map(|(f, _)| f.as_str()).filter(|f| {
            !crate::rules::targets::classify(f, None).eq(&crate::rules::targets::Target::Temp)
        })
    }

    /// Records what `cmd` leaves behind: files it writes while carrying a
    /// secret (`cat k > f`, `cp k f`, `tar czf f ~/.ssh`, `tee f`).
    pub fn after(&mut self, cmd: &Command) {
        let reads = file_uses(cmd)
            .into_iter()
            .filter(|u| u.how == How::Read || (cmd.program == "mv" && u.how == How::Delete))
            .find_map(|u| path_secret(&u.path, self));
        let Some(carried) = strongest(command_secret(cmd, self).into_iter().chain(reads)) else {
            return;
        };
        let mut written: Vec<String> = cmd
            .redirects
            .iter()
            .filter(|r| {
                matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                    && r.fd.is_none_or(|fd| fd == 1)
            })
            .map(|r| r.target.clone())
            .collect();
        if cmd.program == "tee" {
            written.extend(cmd.operands().into_iter().map(str::to_string));
        }
        written.extend(
            file_uses(cmd)
                .into_iter()
                .filter(|u| {
                    u.access == Access::Write
                        && !matches!(u.how, How::Delete | How::Chmod | How::Touch)
                })
                .flat_map(|u| {
                    // `cp k d` fills `d`, or `d/k` when `d` is a directory.
                    let inside = u
                        .inside
                        .as_ref()
                        .map(|name| format!("{}/{name}", u.path.trim_end_matches('/')));
                    std::iter::once(u.path.into_owned()).chain(inside)
                }),
        );
        written.extend(archive_written(cmd));
        let shown = cmd.display();
        for file in written {
            // A template's name says it holds no secrets (`sed 's/=.*/=/' .env > .env.example`).
            if file.starts_with("/dev/") || is_env_template(basename(&file)) {
                continue;
            }
            let staged = Carried {
                secret: carried.secret.clone(),
                staged: Some((file.clone(), shown.clone())),
            };
            self.staged.push((norm(&file), staged));
        }
    }
}

/// The archive an archiver writes (`tar czf F`, `zip F`, `7z a F`).
fn archive_written(cmd: &Command) -> Option<String> {
    let args = &cmd.args;
    match cmd.program.as_str() {
        "tar" | "bsdtar" | "gtar" => tar_file(args),
        "zip" => cmd.operands().first().map(|s| s.to_string()),
        "7z" | "7za" | "7zz" => {
            let ops = cmd.operands();
            (ops.first() == Some(&"a")).then(|| ops.get(1).map(|s| s.to_string()))?
        }
        _ => None,
    }
}

/// tar's `-f` archive, in its old (`czf F`), short (`-czf F`, `-fF`) and long spellings.
fn tar_file(args: &[String]) -> Option<String> {
    const VALUED: &str = "bCfgHKLNTVX";
    let mut pending = 0usize;
    let mut wanted: Option<usize> = None;
    for (i, arg) in args.iter().enumerate() {
        if let Some(v) = arg.strip_prefix("--file=") {
            return Some(v.to_string());
        }
        if arg == "--file" {
            return args.get(i + 1).cloned();
        }
        if let Some(n) = wanted {
            if pending == n {
                return Some(arg.clone());
            }
            pending += 1;
            continue;
        }
        let old_style = i == 0 && !arg.starts_with('-');
        let Some(cluster) = arg.strip_prefix('-').or(old_style.then_some(arg.as_str())) else {
            continue;
        };
        if cluster.starts_with('-') {
            continue;
        }
        let mut before = 0;
        for (at, c) in cluster.char_indices() {
            if c == 'f' {
                let rest = &cluster[at + 1..];
                if !old_style && !rest.is_empty() {
                    return Some(rest.to_string());
                }
                wanted = Some(before);
                break;
            }
            if VALUED.contains(c) {
                before += 1;
                if !old_style {
                    break;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutions_found_as_the_substring_searches_did() {
        for word in [
            "$(x)", "<(x)", "`x`", "a$(", "a<(", "$", "(", "$ (", "(<", ">(x)", "plain", "",
        ] {
            let searched = word.contains("$(") || word.contains("<(") || word.contains('`');
            assert_eq!(has_substitution(word), searched, "{word:?}");
        }
    }

    #[test]
    fn secret_names() {
        for n in [
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "OPENAI_API_KEY",
            "DB_PASSWORD",
            "NPM_TOKEN",
            "GHTOKEN",
            "DATABASE_URL",
            "DB_PASS",
            "SESSION_COOKIE",
        ] {
            assert!(secret_var(n), "{n}");
        }
        for n in [
            "PATH",
            "HOME",
            "PWD",
            "KEYCLOAK_HOST",
            "AWS_ACCESS_KEY_ID",
            "SSH_KEY_PATH",
            "STRIPE_PUBLISHABLE_KEY",
            "token",
            "KEYBOARD",
            "TOKEN_URL",
        ] {
            assert!(!secret_var(n), "{n}");
        }
        assert_eq!(
            secret_var_in("k=${OPENAI_API_KEY:-x}"),
            Some("OPENAI_API_KEY")
        );
        assert_eq!(secret_var_in("$HOME/$USER"), None);
    }

    #[test]
    fn environment_dumps() {
        for line in [
            "env",
            "printenv",
            "set",
            "export -p",
            "declare -x",
            "declare -p",
            "ps eww",
        ] {
            assert!(dumps_environment(&Command::from_words(line)), "{line}");
        }
        for line in [
            "printenv HOME",
            "set -e",
            "export X=1",
            "declare -f",
            "ps -ef",
        ] {
            assert!(!dumps_environment(&Command::from_words(line)), "{line}");
        }
    }

    #[test]
    fn printers() {
        let token = |l: &str| prints_credential(&Command::from_words(l));
        assert!(
            matches!(token("gh auth token"), Some(Secret::Token { provider: Some(p), .. }) if p.name == "GitHub")
        );
        assert!(matches!(
            token("aws --profile x configure get aws_secret_access_key"),
            Some(Secret::Token { name, .. }) if name == "AWS_SECRET_ACCESS_KEY"
        ));
        assert!(matches!(
            token("kubectl config view --raw"),
            Some(Secret::File(_))
        ));
        assert!(token("aws configure get region").is_none());
        assert!(token("gh auth status").is_none());
        assert!(token("kubectl config view").is_none());
    }

    #[test]
    fn archives() {
        let tar = |l: &str| archive_written(&Command::from_words(l));
        assert_eq!(
            tar("tar czf /tmp/a.tgz ~/.ssh").as_deref(),
            Some("/tmp/a.tgz")
        );
        assert_eq!(tar("tar -czf a.tgz x").as_deref(), Some("a.tgz"));
        assert_eq!(
            tar("tar -c -C / -f out.tar etc").as_deref(),
            Some("out.tar")
        );
        assert_eq!(tar("tar --file=o.tar -c x").as_deref(), Some("o.tar"));
        assert_eq!(tar("tar cCf / o.tar etc").as_deref(), Some("o.tar"));
        assert_eq!(
            tar("zip -r /tmp/s.zip ~/.ssh").as_deref(),
            Some("/tmp/s.zip")
        );
        assert_eq!(tar("tar cz ~/.ssh"), None);
    }

    #[test]
    fn staging() {
        let mut flow = Flow::default();
        let mut cat = Command::new("cat", &["~/.ssh/id_rsa"]);
        cat.redirects.push(crate::shell::Redirect {
            op: RedirectOp::Write,
            fd: None,
            target: "/tmp/k".into(),
        });
        flow.after(&cat);
        assert!(flow.staged("/tmp/k").is_some());
        assert!(flow.staged("/tmp").is_some());
        flow.after(&Command::from_words("cp .env ./backup/"));
        assert!(flow.staged("backup/.env").is_some());
        assert!(flow.staged("report.txt").is_none());
        // A destination its words do not call a directory may be either.
        flow.after(&Command::from_words("cp ~/.aws/credentials keep"));
        assert!(flow.staged("keep").is_some() && flow.staged("keep/credentials").is_some());
        assert_eq!(
            flow.staged_in_tree().collect::<Vec<_>>(),
            vec!["backup/.env", "keep", "keep/credentials"]
        );
    }
}
