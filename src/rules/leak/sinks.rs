//! Where a command sends data off the machine, and in which part of the request: HTTP clients (credentials, body, URL, host), raw sockets, DNS look-ups, file copies and uploads, and git pushes.

use super::hosts::{has_literal_part, literal_host, split_url};
use super::sources::{
    command_secret, path_secret, stdin_secret, strongest, word_secret, Carried, Flow,
};
use crate::rules::access::WGET;
use crate::rules::net::curl_options;
use crate::rules::opts::parse_opts;
use crate::rules::secrets::{
    ab_sent_files, sent_files, sftp_puts, socat_address, upload_files, SOCAT_NET,
};
use crate::shell::names::{self, NameSet};
use crate::shell::{self, Command, RedirectOp};

/// Where in a transfer the secret travels, which says whether it is used or stolen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::rules) enum Place {
    /// A header, `-u user:pass`, a URL's `user:pass@`: where credentials are used.
    Auth,
    /// A request body, form, query string or path: where data goes.
    Data,
    /// A host name looked up: the resolver carries it to whoever runs the zone.
    Host,
    /// A raw socket (nc, socat, openssl s_client, /dev/tcp): no API takes credentials there.
    Socket,
    /// A file copied to another machine, mailed, or handed to a program that publishes it.
    Away,
    /// The stdin of `ssh host CMD`: a remote command of the user's own reads it.
    Remote,
}

/// A secret leaving through one command.
#[derive(Debug, Clone)]
pub(in crate::rules) struct Delivery {
    pub carried: Carried,
    pub place: Place,
    /// The literal hosts the command talks to; empty when none is known.
    pub hosts: Vec<String>,
    /// Whether a destination was named but could not be read (`$URL`).
    pub unknown_host: bool,
}

/// Programs that look a name up in DNS (or make the resolver do it).
#[rustfmt::skip]
const RESOLVERS: &[&str] = &[
    "dig", "nslookup", "host", "drill", "kdig", "delv", "dog", "doggo", "resolvectl", "getent",
    "ping", "ping6", "traceroute", "traceroute6", "tracepath", "mtr", "nping", "hping3", "whois",
];

/// Programs with a raw connection: what reaches their stdin is sent as it is.
const SOCKETS: &[&str] = &["nc", "ncat", "netcat", "telnet"];

/// Programs that mail their stdin.
const MAILERS: &[&str] = &[
    "mail", "mailx", "s-nail", "mutt", "sendmail", "msmtp", "ssmtp",
];

/// Other programs that may send something.
#[rustfmt::skip]
const SENDERS: &[&str] = &[
    "curl", "wget", "http", "https", "xh", "xhs", "socat", "openssl", "ssh", "ab", "scp", "rsync",
    "sftp", "ftp", "tftp", "lftp", "gh", "aws", "gsutil", "gcloud", "rclone", "az", "pastebinit", "croc",
    "wormhole", "ffsend",
];

/// Whether a program may send something: the rest are passed over cheaply.
pub(in crate::rules) fn may_send(program: &str) -> bool {
    // Nine rules ask this of every command of a line: one probe, not four scans.
    static SET: NameSet = names::name_set!(SENDERS, RESOLVERS, SOCKETS, MAILERS);
    SET.contains(program)
}

impl Delivery {
    fn new(carried: Carried, place: Place) -> Delivery {
        Delivery {
            carried,
            place,
            hosts: Vec::new(),
            unknown_host: false,
        }
    }
}

/// Everything secret `cmd` sends, given what the line did before it.
pub(in crate::rules) fn deliveries(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let mut out = match cmd.program.as_str() {
        "curl" => curl(cmd, flow),
        "wget" => wget(cmd, flow),
        "http" | "https" | "xh" | "xhs" => httpie(cmd, flow),
        "socat" => socat(cmd, flow),
        "openssl" if cmd.args.first().is_some_and(|a| a == "s_client") => {
            let host = option_value(cmd, "-connect");
            stream(
                cmd,
                flow,
                Place::Socket,
                &host.iter().map(String::as_str).collect::<Vec<_>>(),
            )
        }
        "ssh" => stream(cmd, flow, Place::Remote, &[]),
        "ab" => files(ab_sent_files(cmd), flow, Place::Data),
        "scp" | "rsync" => files(sent_files(cmd), flow, Place::Away),
        "sftp" | "ftp" => {
            let batch = cmd.stdin.as_deref().unwrap_or_default();
            files(sftp_puts(batch), flow, Place::Away)
        }
        // tftp takes the batch on stdin, or one command after `-c`.
        "tftp" => {
            let mut batch = cmd.stdin.clone().unwrap_or_default();
            if let Some(at) = cmd.args.iter().position(|a| a == "-c") {
                batch.push('\n');
                batch.push_str(&cmd.args[at + 1..].join(" "));
            }
            let puts: Vec<&str> = sftp_puts(&batch);
            files(puts, flow, Place::Away)
        }
        "lftp" => {
            let script = option_value(cmd, "-e").or(option_value(cmd, "-c"));
            let batch = script.unwrap_or_default().replace(';', "\n");
            files(sftp_puts(&batch), flow, Place::Away)
        }
        p if SOCKETS.contains(&p) => {
            let hosts: Vec<&str> = cmd
                .operands()
                .into_iter()
                .filter(|o| !o.chars().all(|c| c.is_ascii_digit()))
                .collect();
            let mut out = stream(cmd, flow, Place::Socket, &hosts);
            out.extend(looked_up(&hosts, flow));
            out
        }
        p if MAILERS.contains(&p) => {
            let mut out = stream(cmd, flow, Place::Away, &[]);
            out.extend(files(
                option_values(cmd, &["-a", "-A", "--attach"]),
                flow,
                Place::Away,
            ));
            out
        }
        p if RESOLVERS.contains(&p) => looked_up(&cmd.operands(), flow),
        _ => publish(cmd, flow),
    };
    out.extend(dev_tcp(cmd, flow));
    out
}

/// Host names a resolver is asked for, with what they carry.
fn looked_up(names: &[&str], flow: &Flow) -> Vec<Delivery> {
    names
        .iter()
        .filter_map(|n| word_secret(n, flow))
        .map(|c| Delivery::new(c, Place::Host))
        .collect()
}

/// What reaches `cmd`'s stdin, sent to `hosts` at `place`.
fn stream(cmd: &Command, flow: &Flow, place: Place, hosts: &[&str]) -> Vec<Delivery> {
    let Some(carried) = stdin_secret(cmd, flow) else {
        return Vec::new();
    };
    let mut d = Delivery::new(carried, place);
    for host in hosts {
        let host = host.rsplit_once(':').map_or(*host, |(h, _)| h);
        match literal_host(&split_url(host)) {
            Some(h) => d.hosts.push(h),
            None => d.unknown_host = true,
        }
    }
    vec![d]
}

fn files<S: AsRef<str>>(paths: Vec<S>, flow: &Flow, place: Place) -> Vec<Delivery> {
    paths
        .iter()
        .filter_map(|p| path_secret(p.as_ref(), flow))
        .map(|c| Delivery::new(c, place))
        .collect()
}

/// The value of an option given as a separate word (`-connect h:443`).
fn option_value(cmd: &Command, name: &str) -> Option<String> {
    option_values(cmd, &[name]).into_iter().next()
}

/// The values of options among `names`, separate (`-a f`) or attached (`--attach=f`).
fn option_values(cmd: &Command, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        for name in names {
            if arg == name {
                out.extend(args.next().cloned());
                break;
            }
            if let Some(v) = arg.strip_prefix(&format!("{name}=")) {
                out.push(v.to_string());
            }
        }
    }
    out
}

/// A request's URLs: what its body and path carry, what its credentials
/// part carries, what its host name carries, and the hosts it goes to.
fn requests(urls: &[&str], flow: &Flow, out: &mut Vec<Delivery>) -> (Vec<String>, bool) {
    let mut hosts = Vec::new();
    let mut unknown = false;
    for url in urls {
        let parts = split_url(url);
        match literal_host(&parts) {
            Some(h) => hosts.push(h),
            None => unknown = true,
        }
        if has_literal_part(parts.host) {
            out.extend(word_secret(parts.host, flow).map(|c| Delivery::new(c, Place::Host)));
        }
        let userinfo = parts.userinfo.and_then(|u| word_secret(u, flow));
        out.extend(userinfo.map(|c| Delivery::new(c, Place::Auth)));
        out.extend(word_secret(parts.rest, flow).map(|c| Delivery::new(c, Place::Data)));
    }
    if urls.is_empty() {
        unknown = true;
    }
    (hosts, unknown)
}

/// Every delivery of a request goes to the request's hosts.
fn to_hosts(mut out: Vec<Delivery>, hosts: Vec<String>, unknown: bool) -> Vec<Delivery> {
    for d in &mut out {
        d.hosts.clone_from(&hosts);
        d.unknown_host = unknown;
    }
    out
}

/// Files and stdin a request body reads, from names as curl and wget write them.
fn body_files(files: Vec<String>, cmd: &Command, flow: &Flow, out: &mut Vec<Delivery>) {
    for file in files {
        let carried = if matches!(file.as_str(), "-" | "." | "/dev/stdin") {
            stdin_secret(cmd, flow)
        } else {
            path_secret(&file, flow)
        };
        out.extend(carried.map(|c| Delivery::new(c, Place::Data)));
    }
}

fn curl(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let opts = curl_options(cmd);
    let mut out = Vec::new();
    for (opt, value) in &opts {
        let place =
            match opt.as_str() {
                "-H" | "--header" | "-u" | "--user" | "--oauth2-bearer" | "-b" | "--cookie"
                | "-A" | "--user-agent" | "-e" | "--referer" | "-U" | "--proxy-user"
                | "--proxy-header" => Place::Auth,
                "-d" | "--data" | "--data-binary" | "--data-ascii" | "--data-raw"
                | "--data-urlencode" | "--json" | "-F" | "--form" | "--form-string"
                | "--url-query" => Place::Data,
                _ => continue,
            };
        out.extend(word_secret(value, flow).map(|c| Delivery::new(c, place)));
    }
    body_files(upload_files(cmd), cmd, flow, &mut out);
    // Option values show up among the operands; they are not URLs.
    // Sorted and searched: a scan per operand was quadratic in a long call.
    let mut values: Vec<&str> = opts.iter().map(|(_, v)| v.as_str()).collect();
    values.sort_unstable();
    let mut urls: Vec<&str> = cmd
        .operands()
        .into_iter()
        .filter(|w| values.binary_search(w).is_err())
        .collect();
    urls.extend(
        opts.iter()
            .filter(|(o, _)| o == "--url")
            .map(|(_, v)| v.as_str()),
    );
    let (hosts, unknown) = requests(&urls, flow, &mut out);
    to_hosts(out, hosts, unknown)
}

fn wget(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let o = parse_opts(&cmd.args, &WGET);
    let mut out = Vec::new();
    for (name, value) in &o.longs {
        let place = match *name {
            "header" | "user" | "password" | "http-user" | "http-password" | "http-passwd"
            | "proxy-user" | "proxy-password" => Place::Auth,
            "post-data" | "body-data" => Place::Data,
            _ => continue,
        };
        let carried = value.and_then(|v| word_secret(v, flow));
        out.extend(carried.map(|c| Delivery::new(c, place)));
    }
    let posted = o
        .longs
        .iter()
        .filter(|(k, _)| matches!(*k, "post-file" | "body-file"))
        .filter_map(|(_, v)| v.map(str::to_string))
        .collect();
    body_files(posted, cmd, flow, &mut out);
    let (hosts, unknown) = requests(&o.operands, flow, &mut out);
    to_hosts(out, hosts, unknown)
}

/// HTTPie and xh options that take a value.
pub(in crate::rules) const HTTPIE_VALUED: &[&str] = &[
    "-a",
    "--auth",
    "-A",
    "--auth-type",
    "--session",
    "--session-read-only",
    "-o",
    "--output",
    "--proxy",
    "--verify",
    "--cert",
    "--cert-key",
    "-p",
    "--print",
    "--pretty",
    "-s",
    "--style",
    "--timeout",
    "--max-redirects",
    "--default-scheme",
    "--format-options",
    "--boundary",
];

/// HTTPie and xh: `[METHOD] URL ITEM...`, where an item's separator says
/// where it goes (`H:v` header, `k==v` query, `k=v` body, `k@f` file).
fn httpie(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let mut out = Vec::new();
    let mut words = Vec::new();
    let mut args = cmd.args.iter();
    let mut reads_stdin = true;
    while let Some(arg) = args.next() {
        let key = arg.split('=').next().unwrap_or(arg);
        if HTTPIE_VALUED.contains(&key) && !arg.contains('=') {
            let value = args.next();
            if matches!(key, "-a" | "--auth") {
                let carried = value.and_then(|v| word_secret(v, flow));
                out.extend(carried.map(|c| Delivery::new(c, Place::Auth)));
            }
        } else if matches!(arg.as_str(), "-I" | "--ignore-stdin") {
            reads_stdin = false;
        } else if !arg.starts_with('-') || arg == "-" {
            words.push(arg.as_str());
        }
    }
    let method = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase());
    if words.first().is_some_and(|w| method(w)) {
        words.remove(0);
    }
    let Some((url, items)) = words.split_first() else {
        return out;
    };
    for item in items {
        let (place, value, file) = httpie_item(item);
        let carried = if file {
            path_secret(value, flow)
        } else {
            word_secret(value, flow)
        };
        out.extend(carried.map(|c| Delivery::new(c, place)));
    }
    if reads_stdin {
        out.extend(stdin_secret(cmd, flow).map(|c| Delivery::new(c, Place::Data)));
    }
    let (hosts, unknown) = requests(&[url], flow, &mut out);
    to_hosts(out, hosts, unknown)
}

/// An HTTPie request item: where it goes, its value, and whether the value names a file.
fn httpie_item(item: &str) -> (Place, &str, bool) {
    const SEPARATORS: &[(&str, bool, bool)] = &[
        // (separator, is a header, names a file)
        (":=@", false, true),
        ("==", false, false),
        ("=@", false, true),
        (":=", false, false),
        ("=", false, false),
        ("@", false, true),
        (":", true, false),
    ];
    let first = SEPARATORS
        .iter()
        .filter_map(|&(sep, header, file)| item.find(sep).map(|at| (at, sep, header, file)))
        .min_by_key(|&(at, sep, ..)| (at, usize::MAX - sep.len()));
    match first {
        Some((at, sep, header, file)) => {
            let place = if header { Place::Auth } else { Place::Data };
            (place, &item[at + sep.len()..], file)
        }
        None => (Place::Data, item, false),
    }
}

/// socat: a file, the environment or stdin on one side, the network on the other.
fn socat(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let operands = cmd.operands();
    let mut addresses: Vec<(String, &str)> = Vec::new();
    for word in &operands {
        match socat_address(word) {
            Some(a) => addresses.push(a),
            None => addresses.push((word.to_ascii_lowercase(), "")),
        }
    }
    let hosts: Vec<&str> = addresses
        .iter()
        .filter(|(k, _)| SOCAT_NET.contains(&k.as_str()))
        .map(|(_, p)| *p)
        .collect();
    if hosts.is_empty() {
        return Vec::new();
    }
    let mut out = looked_up(&hosts, flow);
    for (kind, param) in &addresses {
        let carried = match kind.as_str() {
            "-" | "stdin" | "stdio" => stdin_secret(cmd, flow),
            "file" | "open" | "gopen" | "create" | "pipe" => path_secret(param, flow),
            "exec" | "system" => {
                let program = shell::analyze(param);
                strongest(
                    program
                        .commands
                        .iter()
                        .filter_map(|c| command_secret(c, flow)),
                )
            }
            _ => None,
        };
        if let Some(c) = carried {
            let mut d = Delivery::new(c, Place::Socket);
            d.hosts = hosts
                .iter()
                .filter_map(|h| literal_host(&split_url(h.rsplit_once(':').map_or(h, |(h, _)| h))))
                .collect();
            out.push(d);
        }
    }
    out
}

/// `> /dev/tcp/HOST/PORT`: bash opens a socket and the command's output goes there.
fn dev_tcp(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let sockets: Vec<&str> = cmd
        .redirects
        .iter()
        .filter(|r| matches!(r.op, RedirectOp::Write | RedirectOp::Append))
        .filter_map(|r| {
            r.target
                .strip_prefix("/dev/tcp/")
                .or_else(|| r.target.strip_prefix("/dev/udp/"))
        })
        .collect();
    if sockets.is_empty() {
        return Vec::new();
    }
    let Some(carried) = command_secret(cmd, flow) else {
        return Vec::new();
    };
    let mut d = Delivery::new(carried, Place::Socket);
    for s in sockets {
        let host = s.split('/').next().unwrap_or(s);
        match literal_host(&split_url(host)) {
            Some(h) => d.hosts.push(h),
            None => d.unknown_host = true,
        }
    }
    vec![d]
}

/// Programs that publish, share or store files elsewhere: gists, release
/// assets, cloud buckets, file-transfer services.
fn publish(cmd: &Command, flow: &Flow) -> Vec<Delivery> {
    let ops = cmd.operands();
    let after = |words: &[&str]| -> Option<Vec<&str>> {
        let at = ops.windows(words.len()).position(|w| w == words)?;
        Some(ops[at + words.len()..].to_vec())
    };
    let remote = |w: &&str| w.contains("://") || w.contains(':');
    let sent: Vec<&str> = match cmd.program.as_str() {
        "gh" => after(&["gist", "create"])
            .or_else(|| after(&["gist", "new"]))
            .or_else(|| after(&["release", "upload"]).map(|v| v.into_iter().skip(1).collect()))
            .unwrap_or_default(),
        "aws" | "gsutil" | "gcloud" | "rclone" => {
            let copied = [
                "cp", "mv", "sync", "rsync", "copy", "copyto", "move", "moveto",
            ]
            .iter()
            .find_map(|verb| after(&[verb]))
            .unwrap_or_default();
            match copied.split_last() {
                Some((dest, sources)) if remote(dest) => {
                    sources.iter().copied().filter(|s| !remote(s)).collect()
                }
                _ => Vec::new(),
            }
        }
        "az" if after(&["blob", "upload"]).is_some() => {
            let mut out = Vec::new();
            for pair in cmd.args.windows(2) {
                if matches!(pair[0].as_str(), "-f" | "--file") {
                    out.push(pair[1].as_str());
                }
            }
            return files(out, flow, Place::Away);
        }
        "pastebinit" => ops,
        "croc" | "wormhole" => after(&["send"]).unwrap_or_default(),
        "ffsend" => after(&["upload"]).unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for path in sent {
        let carried = if path == "-" {
            stdin_secret(cmd, flow)
        } else {
            path_secret(path, flow)
        };
        out.extend(carried.map(|c| Delivery::new(c, Place::Away)));
    }
    out
}

/// git's subcommand and the words after it (`git -C dir add -A` gives `add`, `[-A]`).
fn git_subcommand(cmd: &Command) -> Option<(&str, &[String])> {
    if cmd.program != "git" {
        return None;
    }
    let mut i = 0;
    while let Some(arg) = cmd.args.get(i) {
        if matches!(
            arg.as_str(),
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
        ) {
            i += 2;
        } else if arg.starts_with('-') {
            i += 1;
        } else {
            return Some((arg.as_str(), &cmd.args[i + 1..]));
        }
    }
    None
}

/// Follows a line's git commands: a secret added to the next commit
/// (`git add -f .env`, `git add -A` after `cp ~/.ssh/id_rsa .`), then a
/// `git push` that sends it. Returns the push and what added the secret.
pub(in crate::rules) fn git_push(cmd: &Command, flow: &mut Flow) -> Option<String> {
    let (sub, rest) = git_subcommand(cmd)?;
    let options: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-'))
        .collect();
    let paths: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let everything = options.iter().any(|o| {
        matches!(*o, "-A" | "--all" | "-u" | "--update")
            || (o.len() > 1 && !o.starts_with("--") && o.contains('a') && sub == "commit")
    });
    let adds = match sub {
        "add" | "stage" => {
            let named = paths.iter().any(|p| path_secret(p, flow).is_some());
            let swept = (everything || paths.iter().any(|p| matches!(*p, "." | "*" | ":/")))
                && flow.staged_in_tree().next().is_some();
            named || swept
        }
        "commit" => {
            let named = paths.iter().any(|p| path_secret(p, flow).is_some());
            named || (everything && flow.staged_in_tree().next().is_some())
        }
        "push" => {
            let dry = options.iter().any(|o| matches!(*o, "-n" | "--dry-run"));
            return flow
                .committed
                .clone()
                .filter(|_| !dry)
                .map(|added| format!("{added} … {}", cmd.display()));
        }
        _ => false,
    };
    if adds && flow.committed.is_none() {
        flow.committed = Some(cmd.display());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn httpie_items() {
        assert_eq!(
            httpie_item("Authorization:Bearer x"),
            (Place::Auth, "Bearer x", false)
        );
        assert_eq!(httpie_item("k=v"), (Place::Data, "v", false));
        assert_eq!(httpie_item("q==v"), (Place::Data, "v", false));
        assert_eq!(
            httpie_item("f@~/.ssh/id_rsa"),
            (Place::Data, "~/.ssh/id_rsa", true)
        );
        assert_eq!(httpie_item("j:=@a.json"), (Place::Data, "a.json", true));
        assert_eq!(httpie_item("j:=[1]"), (Place::Data, "[1]", false));
    }

    #[test]
    fn git_subcommands() {
        let git = Command::from_words("git -C /x -c a=b add -A");
        assert_eq!(
            git_subcommand(&git).map(|(s, r)| (s, r.len())),
            Some(("add", 1))
        );
        assert_eq!(git_subcommand(&Command::from_words("git --version")), None);
    }
}
