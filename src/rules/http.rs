//! An HTTP request as a command line sends it: the method, the URLs and the body of curl, wget, HTTPie, xh and the forges' `api` commands, and whether a URL stays on this machine.

use super::access::WGET;
use super::leak::hosts::{is_loopback, literal_host, split_url};
use super::leak::sinks::HTTPIE_VALUED;
use super::net::curl_options;
use super::opts::parse_opts;
use crate::shell::Command;

/// What a command asks of a server.
pub(super) struct Request {
    /// Uppercased, as the server reads it (`curl -X delete` sends `delete`,
    /// which servers take for `DELETE`).
    pub method: String,
    /// The URLs as written; none for the forges' `api` commands, which go to
    /// the forge.
    pub urls: Vec<String>,
    /// The request body as given on the command line.
    pub body: Vec<String>,
    /// The request goes to a forge's API (`gh api`, `glab api`).
    pub forge: bool,
}

impl Request {
    /// Whether every place the request goes is this machine. A URL warden
    /// cannot read (`$API/x`) may be anywhere, and a forge is elsewhere.
    pub fn stays_local(&self) -> bool {
        !self.forge && !self.urls.is_empty() && self.urls.iter().all(|u| is_local(u))
    }
}

/// Whether `url` names this machine: a loopback host, Docker's name for
/// its host, or HTTPie's `:PORT`.
pub(super) fn is_local(url: &str) -> bool {
    if url.starts_with(':') {
        return true;
    }
    // Docker's name for the machine it runs on, from inside a container.
    literal_host(&split_url(url)).is_some_and(|h| is_loopback(&h) || h == "host.docker.internal")
}

/// The port written in `url`, if any.
pub(super) fn port(url: &str) -> Option<u16> {
    let host = split_url(url).host;
    let host = host.rsplit(']').next().unwrap_or(host);
    host.rsplit_once(':')?.1.parse().ok()
}

/// The path of `url`, without query or fragment (`/_all` of `localhost:9200/_all?x`).
pub(super) fn path(url: &str) -> &str {
    let rest = split_url(url).rest;
    rest.split(['?', '#']).next().unwrap_or(rest)
}

/// The request `cmd` sends, if it is curl, wget, HTTPie (`http`, `https`),
/// xh (`xh`, `xhs`), or `gh api`/`glab api`.
pub(super) fn request(cmd: &Command) -> Option<Request> {
    match cmd.program.as_str() {
        "curl" => Some(curl(cmd)),
        "wget" => Some(wget(cmd)),
        "http" | "https" | "xh" | "xhs" => httpie(cmd),
        "gh" | "glab" => forge_api(cmd),
        _ => None,
    }
}

fn curl(cmd: &Command) -> Request {
    let opts = curl_options(cmd);
    let mut method = None;
    let mut body = Vec::new();
    let mut upload = false;
    let mut head = false;
    for (opt, value) in &opts {
        match opt.as_str() {
            "-X" | "--request" => method = Some(value.to_ascii_uppercase()),
            "-d" | "--data" | "--data-binary" | "--data-ascii" | "--data-raw"
            | "--data-urlencode" | "--json" | "-F" | "--form" => body.push(value.clone()),
            "-T" | "--upload-file" => upload = true,
            "-I" | "--head" => head = true,
            _ => {}
        }
    }
    let method = method.unwrap_or_else(|| {
        let implied = match () {
            _ if head => "HEAD",
            _ if upload => "PUT",
            _ if !body.is_empty() => "POST",
            _ => "GET",
        };
        implied.to_string()
    });
    // The values of options show up among the operands: they are not URLs.
    // Sorted and searched: a scan per operand is quadratic in a long call.
    let mut values: Vec<&str> = opts.iter().map(|(_, v)| v.as_str()).collect();
    values.sort_unstable();
    let mut urls: Vec<String> = cmd
        .operands()
        .into_iter()
        .filter(|w| values.binary_search(w).is_err())
        .map(String::from)
        .collect();
    urls.extend(
        opts.iter()
            .filter(|(o, _)| o == "--url")
            .map(|(_, v)| v.clone()),
    );
    Request {
        method,
        urls,
        body,
        forge: false,
    }
}

fn wget(cmd: &Command) -> Request {
    let o = parse_opts(&cmd.args, &WGET);
    let body = o
        .longs
        .iter()
        .filter(|(k, _)| matches!(*k, "post-data" | "body-data"))
        .filter_map(|(_, v)| v.map(String::from))
        .collect();
    let method = match o.long_value("method", 6) {
        Some(m) => m.to_ascii_uppercase(),
        None if o.long("post-data", 9) || o.long("post-file", 9) => "POST".into(),
        None => "GET".into(),
    };
    Request {
        method,
        urls: o.operands.iter().map(|u| u.to_string()).collect(),
        body,
        forge: false,
    }
}

/// HTTPie and xh: `[METHOD] URL [ITEM...]`.
fn httpie(cmd: &Command) -> Option<Request> {
    let mut words = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        let key = arg.split('=').next().unwrap_or(arg);
        if HTTPIE_VALUED.contains(&key) && !arg.contains('=') {
            args.next();
        } else if !arg.starts_with('-') || arg == "-" {
            words.push(arg.as_str());
        }
    }
    let is_method =
        |w: &str| !w.is_empty() && w.len() <= 7 && w.chars().all(|c| c.is_ascii_alphabetic());
    let method = words.first().filter(|w| is_method(w) && words.len() > 1);
    let (method, rest) = match method {
        Some(m) => (m.to_ascii_uppercase(), &words[1..]),
        None => {
            // Data items make HTTPie send a POST.
            let data = words.iter().skip(1).any(|w| w.contains('='));
            let implied = if data { "POST" } else { "GET" };
            (implied.to_string(), &words[..])
        }
    };
    let (url, items) = rest.split_first()?;
    Some(Request {
        method,
        urls: vec![url.to_string()],
        body: items.iter().map(|i| i.to_string()).collect(),
        forge: false,
    })
}

/// `gh api ENDPOINT -X METHOD` and `glab api`: the forge's REST API.
fn forge_api(cmd: &Command) -> Option<Request> {
    let ops = cmd.operands();
    if ops.first() != Some(&"api") {
        return None;
    }
    let mut method = None;
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "-X" | "--method" => args.next().map(String::as_str),
            a => a
                .strip_prefix("--method=")
                .or_else(|| a.strip_prefix("-X").filter(|v| !v.is_empty())),
        };
        if let Some(v) = value {
            method = Some(v.to_ascii_uppercase());
        }
    }
    let data = cmd.args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-f" | "-F" | "--field" | "--raw-field" | "--input"
        )
    });
    // A GraphQL mutation that deletes is a DELETE by another name.
    let deleting_mutation = ops.get(1) == Some(&"graphql")
        && cmd.args.iter().any(|a| {
            let a = a.to_ascii_lowercase();
            a.contains("mutation") && a.contains("delete")
        });
    let implied = if data { "POST" } else { "GET" };
    let method = match method {
        _ if deleting_mutation => "DELETE".into(),
        Some(m) => m,
        None => implied.into(),
    };
    Some(Request {
        method,
        urls: Vec::new(),
        body: Vec::new(),
        forge: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(line: &str) -> (String, Vec<String>, bool) {
        let cmd = crate::shell::analyze(line).commands.remove(0);
        let r = request(&cmd).expect("a request");
        let local = r.stays_local();
        (r.method, r.urls, local)
    }

    #[test]
    fn methods_and_urls() {
        let (m, u, local) = req("curl -sS -XDELETE https://api.example.com/x");
        assert_eq!(
            (m.as_str(), u, local),
            (
                "DELETE",
                vec!["https://api.example.com/x".to_string()],
                false
            )
        );
        let (m, _, local) = req("curl --request delete http://localhost:3000/x");
        assert_eq!((m.as_str(), local), ("DELETE", true));
        let (m, ..) = req("curl -d a=1 https://x.example");
        assert_eq!(m, "POST");
        let (m, u, local) = req("http DELETE :8080/items/1");
        assert_eq!(
            (m.as_str(), u, local),
            ("DELETE", vec![":8080/items/1".to_string()], true)
        );
        let (m, ..) = req("xh example.com/items name=x");
        assert_eq!(m, "POST");
        let (m, ..) = req("wget --method=DELETE https://x.example/a");
        assert_eq!(m, "DELETE");
        let (m, _, local) = req("gh api -X DELETE repos/o/r");
        assert_eq!((m.as_str(), local), ("DELETE", false));
        let (_, _, local) = req("curl -X DELETE $API/x");
        assert!(!local);
        let (m, ..) = req("gh api graphql -f query='mutation { deleteIssue(input:{issueId:\"x\"}) { clientMutationId } }'");
        assert_eq!(m, "DELETE");
        let (m, ..) = req("gh api graphql -f query='query { viewer { login } }'");
        assert_eq!(m, "POST");
    }

    #[test]
    fn ports_and_paths() {
        assert_eq!(port("http://localhost:9200/_all"), Some(9200));
        assert_eq!(port("localhost:9200"), Some(9200));
        assert_eq!(port("https://x.example/a"), None);
        assert_eq!(path("localhost:9200/_all?pretty"), "/_all");
        assert_eq!(path("http://[::1]:5984/shop"), "/shop");
    }
}
