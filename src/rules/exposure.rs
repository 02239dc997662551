//! Built-in rules: this machine opened to others (tunnels to public URLs, shared terminals, servers with their authentication off or bound to every interface, file servers of a home or the system), one row per program; the firewall itself is `admin`'s.

use super::capture::not_info;
use super::leak::hosts::is_loopback;
use super::targets::{classify, Target};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// An address a server listens on that only this machine reaches
/// (`127.0.0.1`, `localhost`, `::1`); `0.0.0.0`, `*`, `::`, an empty host
/// (`:8080`) and any other address are reached from the network.
fn loopback_bind(address: &str) -> bool {
    let host = match address.rsplit_once(':') {
        // `[::1]:8080`, `127.0.0.1:8080`, `:8080`; a bare `::1` has no port.
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !host.ends_with(':') => {
            host
        }
        _ => address,
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host != "0.0.0.0" && !host.is_empty() && is_loopback(host)
}

/// The value of the first of `options` given (`-d x`, `-dx` for a short
/// one, `--dir=x`).
fn value_of<'c>(cmd: &'c Command, options: &[&str]) -> Option<&'c str> {
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        for o in options {
            if arg == o {
                return iter.next().map(String::as_str);
            }
            let rest = arg.strip_prefix(o);
            if let Some(v) = rest.and_then(|r| r.strip_prefix('=')) {
                return Some(v);
            }
            if let Some(v) = rest.filter(|r| !r.is_empty() && o.len() == 2 && !o.starts_with("--"))
            {
                return Some(v);
            }
        }
    }
    None
}

/// The first argument after `from` that is no option and no option's
/// value (options in `valued` take the next word).
fn operand_after<'c>(cmd: &'c Command, from: usize, valued: &[&str]) -> Option<&'c str> {
    let mut iter = cmd.args.iter().skip(from);
    while let Some(arg) = iter.next() {
        if valued.contains(&arg.as_str()) {
            iter.next();
        } else if !arg.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Tunnels and shared terminals.

/// ssh's options that take a value; autossh adds its monitor port, `-M`.
const SSH_VALUED: &str = "BbcDEeFIiJLlmOopQRSWw";
const AUTOSSH_VALUED: &str = "BbcDEeFIiJLlMmOopQRSWw";

/// What an ssh command line forwards, and to where.
#[derive(Default)]
struct Forwards<'c> {
    remote: Vec<&'c str>,
    local: Vec<&'c str>,
    socks: Vec<&'c str>,
    options: Vec<&'c str>,
    gateway: bool,
    destination: Option<&'c str>,
}

fn forwards(cmd: &Command) -> Forwards<'_> {
    let mut f = Forwards::default();
    let valued = if cmd.program == "autossh" {
        AUTOSSH_VALUED
    } else {
        SSH_VALUED
    };
    let mut i = 0;
    let args = &cmd.args;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if !arg.starts_with('-') || arg.len() < 2 {
            // Options may follow the destination (`ssh host -R ...`);
            // the first word after it that is none starts the command.
            if f.destination.is_some() {
                break;
            }
            f.destination = Some(arg);
            continue;
        }
        for (at, c) in arg.char_indices().skip(1) {
            if c == 'g' {
                f.gateway = true;
            }
            if valued.contains(c) {
                let rest = &arg[at + 1..];
                let value = if rest.is_empty() {
                    i += 1;
                    args.get(i - 1).map_or("", String::as_str)
                } else {
                    rest
                };
                match c {
                    'R' => f.remote.push(value),
                    'L' => f.local.push(value),
                    'D' => f.socks.push(value),
                    'o' => f.options.push(value),
                    _ => {}
                }
                break;
            }
        }
    }
    f
}

/// The host of an ssh destination (`user@host`, `ssh://user@host:22`).
fn ssh_host(destination: &str) -> &str {
    let rest = destination
        .strip_prefix("ssh://")
        .map_or(destination, |r| r.split(['/']).next().unwrap_or(r));
    let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    match host.rsplit_once(':') {
        Some((h, port)) if !h.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

/// Whether a forward's spec names a listening address other machines reach
/// (`0.0.0.0:8080:host:80`, `*:1080`, `:1080`); `parts` is how many
/// colon-separated fields it has without one.
fn forward_binds_all(spec: &str, parts: usize) -> bool {
    let fields: Vec<&str> = spec.split(':').collect();
    fields.len() > parts && !loopback_bind(fields[0]) && !fields[0].starts_with('/')
}

/// `ssh -R` to another machine (a public relay like serveo or
/// localhost.run, or any host), a forward other machines may use (`-g`,
/// `0.0.0.0:` bind addresses), or `RemoteForward` given as an option.
fn ssh_opens(cmd: &Command) -> bool {
    let f = forwards(cmd);
    let remote_option = f.options.iter().any(|o| {
        let o = o.trim_start().to_ascii_lowercase();
        o.starts_with("remoteforward") || o.starts_with("gatewayports") && o.contains("yes")
    });
    let elsewhere = f.destination.is_some_and(|d| !is_loopback(ssh_host(d)));
    ((!f.remote.is_empty() || remote_option) && elsewhere)
        || (f.gateway && !(f.local.is_empty() && f.socks.is_empty()))
        || f.local.iter().any(|s| forward_binds_all(s, 3))
        || f.socks.iter().any(|s| forward_binds_all(s, 1))
}

/// `code tunnel` runs a tunnel unless a subcommand manages one
/// (`status`, `user show`, `kill`); `service install` runs it for good.
fn code_tunnel(cmd: &Command) -> bool {
    const VALUED: &[&str] = &[
        "--name",
        "--cli-data-dir",
        "--log",
        "--server-data-dir",
        "--extensions-dir",
        "--parent-process-id",
        "--install-extension",
    ];
    if cmd.args.first().map(String::as_str) != Some("tunnel") {
        return false;
    }
    match operand_after(cmd, 1, VALUED) {
        None => !cmd.args.iter().any(|a| a == "--version"),
        Some("service") => cmd.args.iter().any(|a| a == "install"),
        Some(_) => false,
    }
}

/// `frpc`/`frps` run their proxies unless asked to check a config or
/// print completions.
fn frp_runs(cmd: &Command) -> bool {
    not_info(cmd)
        && !matches!(
            operand_after(cmd, 0, &["-c", "--config"]),
            Some("verify" | "completion" | "help" | "version")
        )
}

/// `tailscale funnel` publishes unless it reports or turns itself off.
fn funnel_opens(cmd: &Command) -> bool {
    !cmd.args
        .iter()
        .any(|a| matches!(a.as_str(), "status" | "reset" | "off"))
}

#[rustfmt::skip]
static TUNNEL: &[Verb] = &[
    verb("ngrok", r"^(?:--?[^ ]+ )*(?:http|tcp|tls|start|tunnel|service (?:install|start))(?-u:\b)"),
    verb("cloudflared", r"^(?:--?[^ ]+ )*tunnel(?: [^ ]+)*? (?:run|--url|--url=[^ ]+|--hello-world)(?: |$)|^(?:--?[^ ]+ )*tunnel$|^(?:--?[^ ]+ )*--url(?-u:\b)|^(?:--?[^ ]+ )*service install(?-u:\b)"),
    verb_if("tmate", "", not_info),
    verb_if("ssh", "", ssh_opens),
    verb_if("autossh", "", ssh_opens),
    verb_if("code", "", code_tunnel),
    verb_if("code-insiders", "", code_tunnel),
    verb_if("codium", "", code_tunnel),
    verb_if("code-tunnel", "", |c| not_info(c) && !matches!(c.args.first().map(String::as_str), Some("status" | "user" | "kill" | "prune" | "rename" | "unregister"))),
    verb_if("lt", "", not_info),
    verb_if("localtunnel", "", not_info),
    verb("bore", r"^(?:--?[^ ]+ )*(?:local|server)(?-u:\b)"),
    verb_if("frpc", "", frp_runs),
    verb_if("frps", "", frp_runs),
    verb("chisel", r"^(?:--?[^ ]+ )*server(?-u:\b)|^(?:--?[^ ]+ )*client(?-u:\b).*(?:^| )R:"),
    verb_if("pagekite", "", not_info),
    verb_if("pagekite.py", "", not_info),
    verb_if("tailscale", r"^(?:--?[^ ]+ )*funnel(?-u:\b)", funnel_opens),
    verb_if("gotty", "", not_info),
    verb_if("ttyd", "", |c| not_info(c) && !c.args.iter().any(|a| a == "-v")),
    verb("upterm", r"^(?:--?[^ ]+ )*host(?-u:\b)"),
    verb_if("sshx", "", not_info),
    verb("zrok", r"^(?:--?[^ ]+ )*share(?-u:\b)"),
    verb("devtunnel", r"^(?:--?[^ ]+ )*host(?-u:\b)"),
    verb("loclx", r"^(?:--?[^ ]+ )*tunnel(?-u:\b)"),
    verb_if("tunnelmole", "", not_info),
    verb_if("tmole", "", not_info),
    verb("untun", r"^tunnel(?-u:\b)"),
    verb_if("playit", "", not_info),
    verb_if("rathole", "", not_info),
    // A shell served over HTTP or WebSocket.
    verb_if("websocketd", "", not_info),
    verb_if("shellinaboxd", "", not_info),
    verb_if("wetty", "", not_info),
    verb("inlets", r"(?:^| )client(?-u:\b)"),
    verb("inlets-pro", r"(?:^| )client(?-u:\b)"),
    verb("telebit", r"^(?:http|tcp|ssh)(?-u:\b)"),
    verb("gh", r"^codespace ports visibility(?-u:\b).*:public(?-u:\b)"),
    // The tunnel clients' own images, run in a container.
    verb("docker", r"(?:^| )(?:\S+/)?(?:ngrok/ngrok|cloudflare/cloudflared)(?::\S+)? (?:--?\S+ )*(?:http|tcp|tls|start|tunnel)\b"),
    verb("podman", r"(?:^| )(?:[^ ]+/)?(?:ngrok/ngrok|cloudflare/cloudflared)(?::[^ ]+)? (?:--?[^ ]+ )*(?:http|tcp|tls|start|tunnel)(?-u:\b)"),
    // A cluster's service forwarded on every interface of this machine.
    verb("kubectl", r"^(?:--?[^ ]+ )*port-forward(?-u:\b).*--address[= ](?:[^ ]*,)?(?:0\.0\.0\.0|::)(?:,| |$)"),
    verb("oc", r"^(?:--?[^ ]+ )*port-forward(?-u:\b).*--address[= ](?:[^ ]*,)?(?:0\.0\.0\.0|::)(?:,| |$)"),
];

// ---------------------------------------------------------------------------
// Servers with their authentication off or bound to every interface.

/// The module a Python command runs (`-m http.server`, `-mhttp.server`).
/// Python commands are everywhere, so this reads the words rather than
/// compiling a regex for each of them.
fn python_module(cmd: &Command) -> Option<&str> {
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-m" {
            return iter.next().map(String::as_str);
        }
        if let Some(module) = arg.strip_prefix("-m").filter(|m| !m.is_empty()) {
            return Some(module);
        }
        if !arg.starts_with('-') {
            return None;
        }
    }
    None
}

/// A notebook server started as a module with its token or password emptied.
fn python_notebook_without_token(cmd: &Command) -> bool {
    matches!(
        python_module(cmd),
        Some("notebook" | "jupyter" | "jupyterlab" | "jupyter_server" | "nbclassic")
    ) && cmd.args.iter().any(|a| {
        a.strip_prefix("--")
            .and_then(|o| o.strip_suffix('='))
            .is_some_and(|o| o.ends_with(".token") || o.ends_with(".password"))
    })
}

/// Python's own file servers, judged by what they serve.
fn python_file_server(cmd: &Command) -> bool {
    matches!(
        python_module(cmd),
        Some("http.server" | "SimpleHTTPServer" | "CGIHTTPServer" | "pyftpdlib" | "uploadserver")
    ) && serves_sensitive(cmd)
}

/// Whether `cmd` names `--auth` (MongoDB's switch for access control).
fn without_auth(cmd: &Command) -> bool {
    !cmd.args.iter().any(|a| a == "--auth")
}

/// `dockerd -H tcp://ADDR` on an address other machines reach, without
/// `--tlsverify`: root on this machine for anyone who connects.
fn docker_api_open(cmd: &Command) -> bool {
    let mut hosts = Vec::new();
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        let value = match arg.as_str() {
            "-H" | "--host" => iter.next().map(String::as_str),
            a => a
                .strip_prefix("--host=")
                .or_else(|| a.strip_prefix("-H"))
                .filter(|v| !v.is_empty()),
        };
        hosts.extend(value);
    }
    let open = hosts.iter().any(|h| {
        h.strip_prefix("tcp://")
            .is_some_and(|addr| !loopback_bind(addr.split('/').next().unwrap_or(addr)))
    });
    open && !cmd
        .args
        .iter()
        .any(|a| a == "--tlsverify" || a.starts_with("--tlsverify="))
}

/// x11vnc shares the display unless it has a password or stays on
/// loopback; `-nopw` says it has none.
fn vnc_without_password(cmd: &Command) -> bool {
    const GUARDED: &[&str] = &[
        "rfbauth",
        "passwd",
        "passwdfile",
        "usepw",
        "unixpw",
        "unixpw_nis",
        "storepasswd",
        "localhost",
        "version",
        "help",
        "ssl",
        "viewpasswd",
    ];
    let opts: Vec<&str> = cmd.args.iter().map(|a| a.trim_start_matches('-')).collect();
    opts.contains(&"nopw") || !opts.iter().any(|o| GUARDED.contains(o))
}

#[rustfmt::skip]
static OPEN_SERVICE: &[Verb] = &[
    // Jupyter: a code-execution server with its token or password emptied.
    verb("jupyter*", r"(?:^| )--[A-Za-z0-9_]+\.(?:token|password)=(?: |$)"),
    verb_if("python*", "", python_notebook_without_token),
    verb("code-server", r"--auth[= ]none\b"),
    verb_if("dockerd", "", docker_api_open),
    verb("redis-server", r"(?:^| )--protected-mode[= ]no\b"),
    verb("redis-cli", r"(?i)(?:^| )config set protected-mode no(?-u:\b)"),
    verb_if("mongod", r"(?:^| )--bind_ip_all(?-u:\b)|(?:^| )--bind_ip[= ](?:[^ ]*,)?(?:0\.0\.0\.0|::|\*)(?:,| |$)", without_auth),
    verb("postgres", r#"listen_addresses[ \t]*=[ \t]*['"]?(?:\*|0\.0\.0\.0|::)|(?:^| )-h ['"]?(?:\*|0\.0\.0\.0)"#),
    verb("postmaster", r#"listen_addresses\s*=\s*['"]?(?:\*|0\.0\.0\.0|::)"#),
    verb("pg_ctl", r#"listen_addresses[ \t]*=[ \t]*['"]?(?:\*|0\.0\.0\.0|::)|-h ['"]?(?:\*|0\.0\.0\.0)"#),
    verb("mysqld", r"--bind-address[= ](?:0\.0\.0\.0|\*|::)(?: |$)|--skip-grant-tables(?-u:\b)"),
    verb("mysqld_safe", r"--bind-address[= ](?:0\.0\.0\.0|\*|::)(?: |$)|--skip-grant-tables(?-u:\b)"),
    verb("mariadbd", r"--bind-address[= ](?:0\.0\.0\.0|\*|::)(?: |$)|--skip-grant-tables(?-u:\b)"),
    verb("mariadbd-safe", r"--bind-address[= ](?:0\.0\.0\.0|\*|::)(?: |$)|--skip-grant-tables(?-u:\b)"),
    verb("memcached", r"(?:^| )(?:-l|--listen)[= ]?(?:0\.0\.0\.0|\*|::)(?:,| |$)"),
    verb_if("x11vnc", "", vnc_without_password),
    verb("vncserver", r"(?i)-securitytypes[= ](?:\S*,)?none\b|--i-know-this-is-insecure"),
    verb("tigervncserver", r"(?i)-securitytypes[= ](?:\S*,)?none\b|--i-know-this-is-insecure"),
    verb("xvnc", r"(?i)-securitytypes[= ](?:[^ ]*,)?none(?-u:\b)"),
    verb("xtigervnc", r"(?i)-securitytypes[= ](?:[^ ]*,)?none(?-u:\b)"),
    verb("x0vncserver", r"(?i)-securitytypes[= ](?:\S*,)?none\b"),
    verb("sshd", r"(?i)(?:^| )-o ?permit(?:rootlogin|emptypasswords)[= ]yes(?-u:\b)"),
    // macOS: remote login, remote Apple events and screen sharing turned on.
    verb("systemsetup", r"(?i)-setremote(?:login|appleevents) on(?-u:\b)"),
    verb("kickstart", r"(?:^| )-activate(?-u:\b)"),
    verb("launchctl", r"^(?:load|bootstrap|enable)(?-u:\b).*(?:/ssh\.plist|screensharing\.plist|system/com\.openssh\.sshd|system/com\.apple\.screensharing)(?-u:\b)"),
    // Cluster and service APIs with no authentication on every interface.
    verb("kubectl", r"^(?:--?[^ ]+ )*proxy(?-u:\b).*--address[= ](?:0\.0\.0\.0|::)(?: |$)"),
    verb("etcd", r"--listen-client-urls[= ][^ ]*https?://(?:0\.0\.0\.0|\[::\])"),
    verb("consul", r"^agent(?-u:\b).*(?:^| )-client[= ](?:0\.0\.0\.0|::)(?: |$)"),
    verb("vault", r"^server(?-u:\b).*-dev-listen-address[= ](?:0\.0\.0\.0|\[::\]|:)"),
    verb("nomad", r"^agent(?-u:\b).*-dev(?-u:\b).*(?:^| )-bind[= ](?:0\.0\.0\.0|::)(?: |$)"),
    verb("elasticsearch", r"network\.host=(?:0\.0\.0\.0|_site_|_global_).*xpack\.security\.enabled=false|xpack\.security\.enabled=false.*network\.host=(?:0\.0\.0\.0|_site_|_global_)"),
    // Android's debug bridge opened to the network.
    verb("adb", r"^(?:-[^ ]+ )*tcpip(?-u:\b)"),
    // NFS exports to every client.
    verb("exportfs", r"(?:^| )(?:\*|0\.0\.0\.0/0|::/0):/"),
    // The Docker socket relayed onto a TCP port.
    verb("socat", r"(?i)tcp[46]?-listen:.*unix-connect:[^ ]*docker\.sock"),
];

// ---------------------------------------------------------------------------
// File servers of a home or the system.

/// What a file server serves (`None`: its working directory) and whether
/// other machines reach it.
fn file_server(cmd: &Command) -> Option<(Option<&str>, bool)> {
    let all = |bind: Option<&str>| bind.is_none_or(|b| !loopback_bind(b));
    let program = cmd.program.as_str();
    Some(match program {
        p if p.starts_with("python") || p.starts_with("pypy") => {
            let bind = value_of(cmd, &["--bind", "-b", "-i", "--interface"]);
            (value_of(cmd, &["--directory", "-d"]), all(bind))
        }
        "php" | "php-cgi" => {
            let address = value_of(cmd, &["-S"])?;
            (value_of(cmd, &["-t"]), !loopback_bind(address))
        }
        "ruby" => {
            let at = cmd
                .args
                .iter()
                .position(|a| a == "httpd" || a == "-ehttpd")?;
            let dir = operand_after(cmd, at + 1, &["-p", "--port", "-b"]);
            (dir, all(value_of(cmd, &["--bind-address", "-b"])))
        }
        // BusyBox's httpd, as an applet (`busybox httpd`) or by its own name;
        // Apache's `httpd` takes no value after `-h`.
        "busybox" | "httpd" => {
            if program == "busybox" && cmd.args.first()? != "httpd" {
                return None;
            }
            let port = value_of(cmd, &["-p"]);
            let reached = port.is_none_or(|p| !p.contains(':') || !loopback_bind(p));
            (value_of(cmd, &["-h"]), reached)
        }
        "rclone" => return rclone_serves(cmd),
        "caddy" => {
            (cmd.args.first()? == "file-server").then_some(())?;
            let listen = value_of(cmd, &["--listen", "-l"]);
            (value_of(cmd, &["--root", "-r"]), all(listen))
        }
        "twistd" => (value_of(cmd, &["--path"]), true),
        "updog" => {
            let bind = value_of(cmd, &["-b", "--bind"]);
            (value_of(cmd, &["-d", "--directory"]), all(bind))
        }
        _ => {
            let bind = value_of(cmd, SERVER_BINDS);
            (operand_after(cmd, 0, SERVER_VALUED), all(bind))
        }
    })
}

/// The options static file servers (`http-server`, `serve`, `miniserve`,
/// `darkhttpd`, `dufs`) take an address in.
#[rustfmt::skip]
const SERVER_BINDS: &[&str] = &["-a", "--address", "-l", "--listen", "-i", "--interfaces", "--host", "-b", "--bind", "--addr"];
/// Their options that take a value, so the directory is the first other word.
#[rustfmt::skip]
const SERVER_VALUED: &[&str] = &["-p", "--port", "-a", "--address", "-l", "--listen", "-i", "--interfaces", "--host", "-b", "--bind", "--addr", "-c", "--cors", "-t", "-P", "--proxy", "-S", "-C", "-K"];

/// `rclone serve PROTOCOL PATH`: a local path, reached from the network
/// when `--addr` says so (`dlna` listens on every interface by default).
fn rclone_serves(cmd: &Command) -> Option<(Option<&str>, bool)> {
    (cmd.args.first()? == "serve").then_some(())?;
    let proto = operand_after(cmd, 1, &["--addr"])?;
    let at = cmd.args.iter().position(|a| a == proto)?;
    let valued = &["--addr", "--user", "--pass", "--htpasswd", "--config"];
    let path = operand_after(cmd, at + 1, valued)?;
    // A remote (`s3:bucket`) is not this machine's files.
    (!path.contains(':') || path.starts_with('/')).then_some(())?;
    let addr = value_of(cmd, &["--addr"]);
    let reached = addr.is_some_and(|a| !loopback_bind(a)) || proto == "dlna";
    Some((Some(path), reached))
}

/// Whether `path` is, or is inside, a hidden directory of a home
/// (`~/.ssh`, `/home/u/.aws`), where keys and credentials live.
fn in_home_dotdir(path: &str) -> bool {
    let rest = path
        .strip_prefix("~/")
        .or_else(|| path.strip_prefix("/root/"))
        .or_else(|| {
            ["/home/", "/Users/"]
                .iter()
                .find_map(|top| path.strip_prefix(top))
                .and_then(|r| r.split_once('/').map(|(_, r)| r))
        });
    rest.is_some_and(|r| r.starts_with('.') && !r.starts_with("./") && r != ".")
}

/// A file server, reached from the network, serving the root, a system
/// directory, a whole home, a home's hidden directories, or a place warden
/// cannot know (`-d "$DIR"`).
fn serves_sensitive(cmd: &Command) -> bool {
    let Some((dir, reached)) = file_server(cmd) else {
        return false;
    };
    if !reached {
        return false;
    }
    let cwd = cmd.cwd.as_deref();
    let dir = dir.unwrap_or(".");
    let joined;
    let full = match cwd {
        Some(c) if !dir.starts_with(['/', '~', '$']) => {
            joined = format!("{}/{dir}", c.trim_end_matches('/'));
            joined.as_str()
        }
        _ => dir,
    };
    matches!(
        classify(dir, cwd),
        Target::Root | Target::System | Target::Home | Target::Unknown
    ) || in_home_dotdir(full)
}

#[rustfmt::skip]
static SERVE_FILES: &[Verb] = &[
    verb_if("python*", "", python_file_server),
    verb_if("pypy*", "", python_file_server),
    verb_if("php", r"(?:^| )-S(?-u:\b)", serves_sensitive),
    verb_if("ruby", r"(?:^| )-run(?-u:\b)", serves_sensitive),
    verb_if("busybox", r"^httpd(?-u:\b)", serves_sensitive),
    verb_if("httpd", r"(?:^| )-h", serves_sensitive),
    verb_if("rclone", r"^serve(?-u:\b)", serves_sensitive),
    verb_if("caddy", r"^file-server(?-u:\b)", serves_sensitive),
    verb_if("twistd", r"(?-u:\b)web(?-u:\b)", serves_sensitive),
    verb_if("http-server", "", serves_sensitive),
    verb_if("serve", "", serves_sensitive),
    verb_if("live-server", "", serves_sensitive),
    verb_if("miniserve", "", serves_sensitive),
    verb_if("darkhttpd", "", serves_sensitive),
    verb_if("dufs", "", serves_sensitive),
    verb_if("updog", "", serves_sensitive),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "exposure.tunnel",
        category: "expose this machine through a tunnel or shared terminal",
        reason: "a tunnel or a shared terminal gives people on the internet a way into this machine, past its firewall, for as long as it runs",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(TUNNEL),
        hits: &["ngrok http 8080", "ngrok tcp 22", "cloudflared tunnel --url http://localhost:8000", "cloudflared tunnel run web", "tmate", "ssh -R 80:localhost:3000 serveo.net", "ssh -fNR 4444:127.0.0.1:22 u@203.0.113.9", "ssh -o RemoteForward='8080 localhost:80' u@host", "autossh -M 0 -f -N -R 2222:localhost:22 u@relay", "ssh -g -L 8080:internal:80 bastion", "ssh -D 0.0.0.0:1080 host", "code tunnel", "lt --port 8000", "bore local 8000 --to bore.pub", "frpc -c frpc.toml", "chisel client 203.0.113.9:8000 R:socks", "tailscale funnel 3000", "ttyd -W bash", "upterm host", "sshx", "kubectl port-forward --address 0.0.0.0 svc/db 5432"],
        misses: &["ssh -L 5432:localhost:5432 db", "ssh host", "ssh -D 1080 proxy", "ssh -R 8080:localhost:80 localhost", "ngrok version", "ngrok config check", "cloudflared --version", "cloudflared tunnel list", "cloudflared tunnel info web", "cloudflared access ssh --hostname ssh.example.com", "tailscale serve 3000", "tailscale funnel status", "code .", "code tunnel status", "tmate -V", "frpc verify -c frpc.toml", "chisel client server:8080 3000:localhost:3000", "kubectl port-forward svc/db 5432"],
    },
    Rule {
        id: "exposure.open-service",
        category: "start a service with its authentication off or open to the network",
        reason: "with no password or token, anyone who reaches the port runs code, reads the data or takes the desktop",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(OPEN_SERVICE),
        hits: &["jupyter notebook --ip=0.0.0.0 --NotebookApp.token=''", "jupyter lab --ServerApp.token= --ServerApp.password=", "dockerd -H tcp://0.0.0.0:2375", "redis-server --protected-mode no", "redis-cli CONFIG SET protected-mode no", "mongod --bind_ip_all", "postgres -c listen_addresses='*'", "mysqld --bind-address=0.0.0.0", "mysqld --skip-grant-tables", "memcached -l 0.0.0.0", "x11vnc -display :0", "vncserver -SecurityTypes None", "sshd -o PermitRootLogin=yes", "exportfs -o rw '*:/'", "socat TCP-LISTEN:2375,fork UNIX-CONNECT:/var/run/docker.sock"],
        misses: &["jupyter notebook", "jupyter notebook --ip=0.0.0.0 --no-browser", "dockerd -H unix:///var/run/docker.sock", "dockerd -H tcp://0.0.0.0:2376 --tlsverify", "redis-server", "redis-cli CONFIG GET protected-mode", "mongod --bind_ip 127.0.0.1", "mongod --bind_ip_all --auth", "mysqld --bind-address=127.0.0.1", "memcached -l 127.0.0.1", "x11vnc -storepasswd", "x11vnc -localhost -rfbauth ~/.vnc/passwd", "vncserver :1", "sshd -t"],
    },
    Rule {
        id: "exposure.serve-files",
        category: "serve a home or the system's files to the network",
        reason: "everyone who reaches the port can read what is served: keys, credentials and history in a home, the system's configuration from `/`",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SERVE_FILES),
        hits: &["python3 -m http.server --bind 0.0.0.0 --directory ~", "python3 -m http.server 8000 --directory /", "cd ~ && python3 -m http.server", "python3 -m http.server -d ~/.ssh", "php -S 0.0.0.0:8000 -t ~", "ruby -run -e httpd ~ -p 8000", "busybox httpd -f -p 8080 -h /", "rclone serve http / --addr :8080", "npx http-server ~ -a 0.0.0.0", "caddy file-server --root / --listen :8080", "python3 -m pyftpdlib -w -d /"],
        misses: &["python3 -m http.server 8000", "python3 -m http.server --bind 127.0.0.1 --directory ~", "python3 -m http.server -d build", "php -S localhost:8000 -t ~", "php -S 0.0.0.0:8000 -t public", "ruby -run -e httpd . -p 8000", "rclone serve webdav ~", "rclone serve http remote:bucket --addr :8080", "npx http-server ./dist", "caddy file-server --root ./site"],
    },
];

#[cfg(test)]
mod tests {
    use super::{forward_binds_all, in_home_dotdir, loopback_bind, ssh_host};

    #[test]
    fn only_loopback_addresses_keep_a_server_to_this_machine() {
        for a in [
            "127.0.0.1",
            "127.0.0.1:8080",
            "localhost:80",
            "[::1]:8080",
            "::1",
            "localhost",
        ] {
            assert!(loopback_bind(a), "{a}");
        }
        for a in [
            "0.0.0.0",
            "0.0.0.0:8000",
            ":8080",
            "*",
            "::",
            "[::]:80",
            "192.168.1.5:80",
            "",
        ] {
            assert!(!loopback_bind(a), "{a}");
        }
    }

    #[test]
    fn forwards_bound_to_every_interface() {
        assert!(forward_binds_all("0.0.0.0:8080:db:5432", 3));
        assert!(forward_binds_all("*:1080", 1));
        assert!(forward_binds_all(":1080", 1));
        assert!(!forward_binds_all("8080:db:5432", 3));
        assert!(!forward_binds_all("localhost:1080", 1));
        assert!(!forward_binds_all("1080", 1));
        assert!(!forward_binds_all("/tmp/s:db:5432", 3));
    }

    #[test]
    fn ssh_destinations_name_their_host() {
        assert_eq!(ssh_host("u@example.com"), "example.com");
        assert_eq!(ssh_host("ssh://u@example.com:2222/x"), "example.com");
        assert_eq!(ssh_host("localhost"), "localhost");
    }

    #[test]
    fn hidden_directories_of_a_home() {
        assert!(in_home_dotdir("~/.ssh"));
        assert!(in_home_dotdir("/home/u/.aws/credentials"));
        assert!(in_home_dotdir("/root/.gnupg"));
        assert!(!in_home_dotdir("~/site"));
        assert!(!in_home_dotdir("~/./x"));
        assert!(!in_home_dotdir("./.ssh"));
    }
}
