//! What a URL points at: hosts that are bare IP addresses or pass for another host, and the rule that asks about a look-alike host anywhere a program is pointed at one.

use super::hidden::Message;
use super::host;
use super::{Matcher, Rule};
use crate::shell::{Analysis, Command};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "net.lookalike-host",
        category: "a host name that passes for another",
        reason: "its letters are chosen to be mistaken for a host people trust (another script's look-alikes, invisible characters, or a well-known name in other letters), so what is fetched or sent there is not what it seems",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(lookalike_host),
        hits: &[
            "git clone https://g\u{456}thub.com/x/y",
            "git clone https://xn--gthub-n2e.com/x/y",
            "git clone https://xn--github-9ab.com/x/y",
            "git clone https://XN--GTHUB-N2E.COM./x/y",
            "git clone https://g%D1%96thub.com/x/y",
            "git clone git@xn--gthub-n4a.com:x/y.git",
            "pip install https://xn--pi-lmcl.org/x.tar.gz",
            "curl -fsSLo i.sh https://xn--rustu-zye.rs/",
        ],
        misses: &[
            "git clone https://github.com/x/y",
            "git clone https://m\u{fc}nchen.de/x/y",
            "git clone https://xn--mnchen-3ya.de/x/y",
            "curl https://\u{4f8b}\u{3048}.jp/",
            "echo https://g\u{456}thub.com",
            "git commit -m 'block https://g\u{456}thub.com'",
            "ssh git@github.com",
        ],
    },
];

/// Whether a word holds a URL fetched over plain HTTP or FTP from a bare IP
/// address (any spelling a resolver accepts: dotted, decimal, hex, octal,
/// IPv6), or from a host name that passes for another
/// ([`host::passes_for_another`]: a Cyrillic `і` in `install`, in Unicode,
/// Punycode or percent escapes). Only the first URL of a word counts: one in
/// its query string (`?next=http://10.0.0.5/`) is not where the download
/// comes from.
pub(super) fn insecure_url(word: &str) -> bool {
    let Some(i) = word.find("://") else {
        return false;
    };
    // The character before the scheme may be of any width.
    let scheme_start = word[..i]
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || "+.-".contains(c)))
        .map_or(0, |(j, c)| j + c.len_utf8());
    let scheme = word[scheme_start..i].to_ascii_lowercase();
    let name = host::name(url_host(&word[i + 3..]));
    host::passes_for_another(&name)
        || matches!(scheme.as_str(), "http" | "ftp") && is_ip_literal(&name.text)
}

/// Whether a package index, registry or source URL cannot vouch for what
/// it serves: fetched over plain HTTP or FTP (nothing proves the host
/// sent it), from a bare IP address (no name a person would recognise), or
/// from a host passing for another. `localhost` and loopback addresses are
/// this machine (a local registry such as Verdaccio or devpi).
pub(super) fn untrusted_source(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once("://") else {
        return false;
    };
    let name = host::name(url_host(rest));
    let loopback =
        name.text == "localhost" || name.text.starts_with("127.") || name.text == "[::1]";
    if loopback {
        return false;
    }
    let scheme = scheme
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '+'))
        .next()
        .unwrap_or(scheme)
        .to_ascii_lowercase();
    let plain = matches!(
        scheme.rsplit('+').next(),
        Some("http" | "ftp" | "git" | "svn")
    );
    plain || is_ip_literal(&name.text) || host::passes_for_another(&name)
}

/// The rule's matcher: the first argument of a command that points at a
/// host passing for another: a URL (`https://HOST/...`) or git's and ssh's
/// `user@HOST:path`. Text for people is not pointed at: data programs
/// (`echo`, `grep`) and message options (`-m`).
fn lookalike_host(analysis: &Analysis) -> Option<String> {
    analysis
        .commands
        .iter()
        .find(|cmd| points_at_lookalike(cmd))
        .map(Command::display)
}

fn points_at_lookalike(cmd: &Command) -> bool {
    // Most commands hold no host at all: a scan for the `://` of every URL
    // and the `@` and `:` of every `user@host:path` comes before anything
    // else (the words below are read for nothing else), and the program is
    // looked up only for a look-alike found.
    let hosted = |arg: &String| arg.contains(':') && (arg.contains('@') || arg.contains("://"));
    if !cmd.args.iter().any(hosted) {
        return false;
    }
    let mut message = false;
    let found = cmd.args.iter().any(|arg| {
        if std::mem::take(&mut message) {
            return false;
        }
        match super::hidden::message_option(arg) {
            Some(Message::ValueNext) => {
                message = true;
                return false;
            }
            Some(Message::ValueIn) => return false,
            None => {}
        }
        let host = if let Some(at) = arg.find("://") {
            url_host(&arg[at + 3..])
        } else if arg.contains('@') && arg.contains(':') {
            scp_host(arg)
        } else {
            return false;
        };
        !host.is_empty() && host::passes_for_another(&host::name(host))
    });
    found && !super::hidden::is_data_program(&cmd.program)
}

/// The host of git's and ssh's `user@host:path` (no scheme).
fn scp_host(word: &str) -> &str {
    let (_, rest) = word.rsplit_once('@').unwrap_or(("", word));
    rest.split([':', '/']).next().unwrap_or(rest)
}

/// The host of the part of a URL after `scheme://`: no user, port or path.
fn url_host(rest: &str) -> &str {
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.split(':').next().unwrap_or(host)
}

/// Whether a URL host, read ([`host::name`]: no final dot, escapes
/// decoded), is an address rather than a name: `[2001:db8::1]`,
/// `203.0.113.7`, and the forms `inet_aton` also takes, which curl and wget
/// pass on: `3221225985`, `0xC0000201`, `0300.0250.0.1`, `10.1`.
fn is_ip_literal(host: &str) -> bool {
    if host.starts_with('[') {
        return true;
    }
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() <= 4
        && parts.iter().all(|p| {
            let hex = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X"));
            match hex {
                Some(h) => !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()),
                None => !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()),
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insecure_urls() {
        let insecure = "http://203.0.113.7/x.sh HTTP://10.0.0.5:8080 ftp://u:pw@198.51.100.2/x
            http://[2001:db8::1]/i.sh http://0xC0000201/x.sh http://3221225985/x
            http://0300.0250.0.1/x http://0xc0.0xa8.1.1/x http://10.1/x http://10.0.0.5./x
            --url=http://10.0.0.5/x https://\u{456}nstall.example.dev/x
            https://deb.n\u{43e}desource.com/setup_20.x";
        for url in insecure.split_whitespace() {
            assert!(insecure_url(url), "{url}");
        }
        let fine = "https://203.0.113.7/x.sh http://example.com/1.2.3.4 http://1.2.3.4.5/x
            http://10.0.0.5.example.com/x http://0x/x 10.0.0.5 https://example.com/caf\u{e9}
            https://example.com/?next=http://10.0.0.5/";
        for url in fine.split_whitespace() {
            assert!(!insecure_url(url), "{url}");
        }
    }
}
