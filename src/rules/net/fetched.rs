//! Files filled from the network earlier in a line (a download, a redirected socket, a copy from a remote host, a clone) and the later commands that run them.

use super::consumers;
use crate::rules::exec::same_file;
use crate::rules::program_in;
use crate::shell::{Analysis, Command, RedirectOp};

/// Short curl options that take a value (the rest of a cluster or the next argument).
const CURL_VALUED: &str = "oHuXAebcKExwmrCYyzUQPtdFT";

/// (option, value) pairs of a curl command line, clusters taken apart.
pub(in crate::rules) fn curl_options(cmd: &Command) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        if let Some(long) = arg.strip_prefix("--") {
            match long.split_once('=') {
                Some((k, v)) => out.push((format!("--{k}"), v.to_string())),
                None if curl_long_takes_value(long) => {
                    out.push((arg.clone(), args.next().cloned().unwrap_or_default()));
                }
                None => out.push((arg.clone(), String::new())),
            }
        } else if let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.is_empty()) {
            for (i, flag) in cluster.char_indices() {
                if CURL_VALUED.contains(flag) {
                    let rest = &cluster[i + 1..];
                    let value = if rest.is_empty() {
                        args.next().cloned().unwrap_or_default()
                    } else {
                        rest.to_string()
                    };
                    out.push((format!("-{flag}"), value));
                    break;
                }
                out.push((format!("-{flag}"), String::new()));
            }
        }
    }
    out
}

/// curl's long options that take the next word as their value: a value
/// read as an operand would pass for a URL.
#[rustfmt::skip]
const CURL_LONG_VALUED: &[&str] = &[
    "output", "output-dir", "data", "data-binary", "data-ascii", "data-raw", "data-urlencode",
    "form", "form-string", "upload-file", "json", "header", "user", "request", "url", "user-agent",
    "referer", "cookie", "cookie-jar", "config", "cert", "proxy", "write-out", "max-time", "range",
    "continue-at", "oauth2-bearer", "proxy-user", "proxy-header", "url-query", "key", "cacert",
    "capath", "resolve", "connect-to", "connect-timeout", "retry", "limit-rate", "aws-sigv4",
    "netrc-file", "unix-socket", "interface", "dns-servers", "max-filesize", "proto", "ciphers",
];

fn curl_long_takes_value(name: &str) -> bool {
    CURL_LONG_VALUED.contains(&name)
}

/// The file name a URL would be saved as by `curl -O` or plain `wget`.
fn remote_name(url: &str) -> Option<String> {
    let path = url.split_once("://")?.1;
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let name = path
        .split_once('/')
        .map(|(_, p)| p.rsplit('/').next().unwrap_or(p))?;
    (!name.is_empty()).then(|| name.to_string())
}

fn join_dir(dir: Option<&str>, file: String) -> String {
    match dir {
        Some(d) if !file.starts_with('/') => format!("{}/{}", d.trim_end_matches('/'), file),
        _ => file,
    }
}

/// Files a curl or wget command writes its download to.
fn curl_wget_files(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| {
            matches!(r.op, RedirectOp::Write | RedirectOp::Append) && r.fd.is_none_or(|fd| fd == 1)
        })
        .map(|r| r.target.clone())
        .collect();
    let urls = || cmd.operands().into_iter().filter_map(remote_name);
    if cmd.program == "curl" {
        let opts = curl_options(cmd);
        let dir = opts
            .iter()
            .find(|(o, _)| o == "--output-dir")
            .map(|(_, v)| v.as_str());
        for (opt, value) in &opts {
            match opt.as_str() {
                "-o" | "--output" if value != "-" => out.push(join_dir(dir, value.clone())),
                "-O" | "--remote-name" | "--remote-name-all" => {
                    out.extend(urls().map(|f| join_dir(dir, f)))
                }
                _ => {}
            }
        }
    } else if cmd.program == "wget" {
        let mut document = None;
        let mut dir = None;
        let mut args = cmd.args.iter();
        while let Some(arg) = args.next() {
            let value = |prefix: &str, args: &mut std::slice::Iter<String>| {
                if arg == prefix {
                    args.next().cloned()
                } else {
                    arg.strip_prefix(prefix)
                        .map(|v| v.trim_start_matches('=').to_string())
                }
            };
            if arg.starts_with("--output-document") {
                document = value("--output-document", &mut args);
            } else if arg.starts_with("--directory-prefix") {
                dir = value("--directory-prefix", &mut args);
            } else if arg.starts_with('-') && !arg.starts_with("--") && !arg.starts_with("-n") {
                if let Some(i) = arg.find('O') {
                    document = if i + 1 == arg.len() {
                        args.next().cloned()
                    } else {
                        Some(arg[i + 1..].to_string())
                    };
                } else if let Some(i) = arg.find('P') {
                    dir = if i + 1 == arg.len() {
                        args.next().cloned()
                    } else {
                        Some(arg[i + 1..].to_string())
                    };
                }
            }
        }
        match document {
            Some(d) if d != "-" => out.push(d),
            Some(_) => {}
            None => out.extend(urls().map(|f| join_dir(dir.as_deref(), f))),
        }
    }
    out
}

/// Files (or, for a clone, a directory) that `cmd` fills with what came
/// from the network: a download's output file, a network source's
/// redirected stdout, a copy from a remote host, a clone.
fn fetched_files(cmd: &Command, fed: bool) -> Vec<String> {
    let redirected = || {
        cmd.redirects
            .iter()
            .filter(|r| {
                matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                    && r.fd.is_none_or(|fd| fd == 1)
            })
            .map(|r| r.target.clone())
            .collect::<Vec<_>>()
    };
    let operands = cmd.operands();
    let url_names = || {
        operands
            .iter()
            .filter_map(|u| remote_name(u))
            .collect::<Vec<_>>()
    };
    match cmd.program.as_str() {
        "curl" | "wget" => curl_wget_files(cmd),
        "aria2c" => {
            let out = option_value(cmd, &["-o", "--out"]);
            let dir = option_value(cmd, &["-d", "--dir"]);
            match out {
                Some(o) => vec![join_dir(dir.as_deref(), o)],
                None => url_names()
                    .into_iter()
                    .map(|f| join_dir(dir.as_deref(), f))
                    .collect(),
            }
        }
        "lwp-download" => match operands.get(1) {
            Some(f) => vec![f.to_string()],
            None => url_names(),
        },
        "http" | "https" | "xh" | "xhs" => {
            let mut out = redirected();
            out.extend(option_value(cmd, &["-o", "--output"]));
            out
        }
        "scp" | "rsync" | "sftp" => {
            let remote = operands[..operands.len().saturating_sub(1)]
                .iter()
                .any(|o| is_remote_path(o));
            match (remote, operands.last()) {
                (true, Some(dest)) if !is_remote_path(dest) => {
                    let names = operands[..operands.len() - 1]
                        .iter()
                        .filter_map(|o| o.rsplit(['/', ':']).next())
                        .map(|n| join_dir(Some(dest), n.to_string()));
                    std::iter::once(dest.to_string()).chain(names).collect()
                }
                _ => Vec::new(),
            }
        }
        "git" => clone_dir(cmd).into_iter().collect(),
        _ if fed && cmd.program == "tee" => operands.iter().map(|o| o.to_string()).collect(),
        _ if fed || consumers::is_network_source(cmd) => redirected(),
        _ => Vec::new(),
    }
}

/// `host:path`, `user@host:path` or `scp://`/`rsync://` URLs: a copy's
/// remote end (`./a:b` and `/x` are local).
fn is_remote_path(word: &str) -> bool {
    if word.contains("://") {
        return true;
    }
    match word.split_once(':') {
        Some((host, _)) => !host.is_empty() && !host.contains('/'),
        None => false,
    }
}

/// The value of one of `names` (`-o F`, `-oF`, `--out=F`).
fn option_value(cmd: &Command, names: &[&str]) -> Option<String> {
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        for name in names {
            if arg == name {
                return args.next().cloned();
            }
            if let Some(v) = arg.strip_prefix(name) {
                let long = name.starts_with("--");
                match v.strip_prefix('=') {
                    Some(v) => return Some(v.to_string()),
                    None if !long && !v.is_empty() => return Some(v.to_string()),
                    None => {}
                }
            }
        }
    }
    None
}

/// The directory `git clone URL [DIR]` makes: DIR, or the URL's last part
/// without `.git`.
pub(super) fn clone_dir(cmd: &Command) -> Option<String> {
    let Some(("clone", args)) = crate::rules::git::subcommand(cmd) else {
        return None;
    };
    let mut operands = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-b" | "--branch" | "-o" | "--origin" | "--depth" | "-c" | "--config" | "-u"
            | "--upload-pack" | "--reference" | "--separate-git-dir" | "-j" | "--jobs"
            | "--filter" | "--template" | "--shallow-since" | "--shallow-exclude" => {
                it.next();
            }
            a if a.starts_with('-') => {}
            a => operands.push(a),
        }
    }
    match operands[..] {
        [_, dir, ..] => Some(dir.to_string()),
        [url] => {
            let last = url.trim_end_matches('/').rsplit(['/', ':']).next()?;
            let name = last.strip_suffix(".git").unwrap_or(last);
            (!name.is_empty()).then(|| name.to_string())
        }
        _ => None,
    }
}

/// The file a command runs: its own program word, or the script operand of
/// a shell, interpreter or `source`, or anything below a fetched directory
/// (a clone) run by path.
fn runs_file(cmd: &Command, file: &str) -> bool {
    if same_file(file, &cmd.path) || below(&cmd.path, file) {
        return true;
    }
    // Copied into a file a tool runs by convention (`cp x.py conftest.py`).
    if program_in(&cmd.program, &["cp", "mv", "install", "ln"]) {
        if let [.., source, dest] = cmd.operands()[..] {
            return same_file(file, source)
                && crate::shell::convention::copy_destination(source, dest).is_some();
        }
    }
    if !cmd.path.contains('/') {
        // A program found on PATH is not the fetched one, unless run from
        // inside a fetched directory by a runner below.
    } else if cmd
        .cwd
        .as_deref()
        .is_some_and(|d| same_file(d, file) || below(d, file))
    {
        return true;
    }
    let runner = super::is_interpreter(&cmd.program) || program_in(&cmd.program, super::SOURCERS);
    runner
        && cmd.operands().first().is_some_and(|op| {
            same_file(file, op)
                || below(op, file)
                || (!op.starts_with('/') && cmd.cwd.as_deref().is_some_and(|d| same_file(d, file)))
        })
}

/// Whether `path` lies below directory `dir` (both as written).
fn below(path: &str, dir: &str) -> bool {
    let dir = dir.trim_start_matches("./").trim_end_matches('/');
    let path = path.trim_start_matches("./");
    !dir.is_empty() && path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// Content fetched earlier in the line run by a later command: a download
/// run as a script or program, a clone's script run from inside it.
pub(super) fn download_then_run(analysis: &Analysis) -> Option<String> {
    fetched_then(analysis, runs_file)
}

/// The first later command that `then` says runs a file fetched earlier.
fn fetched_then(analysis: &Analysis, then: fn(&Command, &str) -> bool) -> Option<String> {
    for (i, file) in fetches(analysis) {
        if let Some(run) = analysis.commands[i + 1..].iter().find(|c| then(c, &file)) {
            let fetch = &analysis.commands[i];
            return Some(format!("{} && {}", fetch.display(), run.display()));
        }
    }
    None
}

/// Whether a command before the `end`th of the line filled `file` from the
/// network.
pub(super) fn fetched_before(analysis: &Analysis, end: usize, file: &str) -> bool {
    fetches(analysis).any(|(i, fetched)| i < end && same_file(&fetched, file))
}

/// Each file a command of the line fills from the network, with the
/// command's place in the line.
fn fetches(analysis: &Analysis) -> impl Iterator<Item = (usize, String)> + '_ {
    // A stage's upstream are commands of the line: with no network source
    // among those, no stage is fed one, and a long pipeline need not ask
    // each stage about the ones before it (debug builds check).
    // Whether a command fetches is worked out once per line; a line that
    // fetches nothing has no network source to look for.
    let sources =
        super::line_fetches(analysis) && analysis.commands.iter().any(consumers::is_network_source);
    debug_assert_eq!(
        sources,
        analysis.commands.iter().any(consumers::is_network_source)
    );
    let fed_by = |fetch: &Command| {
        fetch
            .upstream
            .iter()
            .any(|u| consumers::is_network_source(u))
    };
    analysis
        .commands
        .iter()
        .enumerate()
        .flat_map(move |(i, fetch)| {
            debug_assert!(sources || !fed_by(fetch));
            let fed = sources && fed_by(fetch);
            let files = if fed || may_fetch(fetch, sources) {
                fetched_files(fetch, fed)
            } else {
                Vec::new()
            };
            files.into_iter().map(move |f| (i, f))
        })
}

/// Whether `cmd` is a program that may write what it fetched to a file:
/// asked of every command, so a name check before any work (and none of
/// the network sources when the line has none, `sources`).
fn may_fetch(cmd: &Command, sources: bool) -> bool {
    debug_assert!(sources || !consumers::is_network_source(cmd));
    (sources && consumers::is_network_source(cmd))
        || matches!(
            cmd.program.as_str(),
            "lwp-download" | "scp" | "rsync" | "sftp" | "git"
        )
}

/// A build tool run inside a fresh clone of a repository reached without
/// TLS, at an address or at a look-alike host: it runs that code
/// (recipes, lifecycle scripts, `setup.py`, `build.rs`). A clone over
/// HTTPS or ssh then built is how developers work with their own and
/// their dependencies' repositories every day, and runs; a script of the
/// clone run by name is a download run (`net.download-then-run`).
pub(super) fn clone_then_build(analysis: &Analysis) -> Option<String> {
    for (i, clone) in analysis.commands.iter().enumerate() {
        if clone.program != "git"
            || !clone
                .args
                .iter()
                .any(|a| crate::rules::url::untrusted_source(a))
        {
            continue;
        }
        let Some(dir) = clone_dir(clone) else {
            continue;
        };
        if let Some(run) = analysis.commands[i + 1..]
            .iter()
            .find(|c| builds_in(c, &dir))
        {
            return Some(format!("{} && {}", clone.display(), run.display()));
        }
    }
    None
}

fn builds_in(cmd: &Command, dir: &str) -> bool {
    let inside = cmd
        .cwd
        .as_deref()
        .is_some_and(|d| same_file(d, dir) || below(d, dir));
    let named = cmd
        .args
        .iter()
        .any(|a| same_file(a.trim_end_matches('/'), dir) || below(a, dir));
    // The verb: the first word that is no option nor an option's value.
    let first = cmd
        .args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with('-') && (*i == 0 || !cmd.args[i - 1].starts_with("--")))
        .map_or("", |(_, a)| a.as_str());
    let builds = match cmd.program.as_str() {
        "make" | "gmake" | "bmake" | "ninja" | "just" | "rake" | "task" | "cmake" | "meson" => true,
        "npm" | "pnpm" | "yarn" | "bun" => {
            matches!(
                first,
                "" | "install" | "i" | "ci" | "add" | "run" | "start" | "test" | "link"
            )
        }
        "pip" | "pip3" | "pipx" | "uv" => cmd.args.iter().any(|a| a == "install"),
        "cargo" => matches!(first, "build" | "run" | "install" | "test"),
        "go" => matches!(first, "run" | "generate" | "install"),
        "python" | "python3" => cmd.args.iter().any(|a| a.ends_with("setup.py")),
        "bundle" | "composer" | "mvn" | "gradle" | "sbt" | "dotnet" => true,
        _ => false,
    };
    builds && (inside || named)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads() {
        assert_eq!(
            curl_wget_files(&Command::new(
                "curl",
                &["-o", "/tmp/i.sh", "https://x/i.sh"]
            )),
            vec!["/tmp/i.sh"]
        );
        assert_eq!(
            curl_wget_files(&Command::new(
                "curl",
                &["-fsSLO", "https://x/a/install.sh?v=1"]
            )),
            vec!["install.sh"]
        );
        assert_eq!(
            curl_wget_files(&Command::new("wget", &["https://x/get.py"])),
            vec!["get.py"]
        );
        assert_eq!(
            curl_wget_files(&Command::new("wget", &["-P", "/tmp", "https://x/get.py"])),
            vec!["/tmp/get.py"]
        );
        assert!(curl_wget_files(&Command::new("wget", &["-qO-", "https://x/get.py"])).is_empty());
        let a = Analysis {
            commands: vec![
                Command::new("curl", &["-o", "/tmp/i.sh", "https://x/i.sh"]),
                Command::new("bash", &["/tmp/i.sh"]),
            ],
            ..Analysis::default()
        };
        assert!(download_then_run(&a).is_some());
    }

    #[test]
    fn fetched_then_run() {
        let run = |line: &str| download_then_run(&crate::shell::analyze(line)).is_some();
        let build = |line: &str| clone_then_build(&crate::shell::analyze(line)).is_some();
        for line in [
            "aria2c https://x/i.sh && sh i.sh",
            "lwp-download https://x/a.pl f && perl f",
            "wget https://x/f; chmod +x f; ./f",
            "git clone https://x/y && cd y && ./install.sh",
            "git clone --depth 1 https://x/fzf.git ~/.fzf && ~/.fzf/install",
            "scp host:x.sh . && sh x.sh",
            "rsync -a host:x.sh /tmp/ && bash /tmp/x.sh",
            "nc h 80 > x.sh; bash x.sh",
            "curl -s https://x/i | tee i.sh | grep a && sh i.sh",
        ] {
            assert!(run(line), "{line}");
        }
        for line in [
            "git clone http://x/y && cd y && make install",
            "git clone git://10.0.0.5/y && npm --prefix y install",
        ] {
            assert!(build(line), "{line}");
        }
        assert!(!build("git clone https://github.com/x/y && cd y && make"));
        for line in [
            "git clone https://x/y && cd y && git log",
            "scp x.sh host: && sh x.sh",
            "curl -o a.json https://x && jq . a.json",
        ] {
            assert!(!run(line) && !build(line), "{line}");
        }
    }
}
