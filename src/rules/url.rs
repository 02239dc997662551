//! What a URL points at: hosts that are bare IP addresses or look-alike (non-ASCII) names.

/// Whether a word holds a URL fetched over plain HTTP or FTP from a bare IP
/// address (any spelling a resolver accepts: dotted, decimal, hex, octal,
/// IPv6), or from a host name with non-ASCII letters that can pass for a
/// familiar one (a Cyrillic `і` in `install`). Only the first URL of a word
/// counts: one in its query string (`?next=http://10.0.0.5/`) is not where
/// the download comes from.
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
    let host = url_host(&word[i + 3..]);
    !host.is_ascii() || matches!(scheme.as_str(), "http" | "ftp") && is_ip_literal(host)
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

/// Whether a URL host is an address rather than a name: `[2001:db8::1]`,
/// `203.0.113.7`, and the forms `inet_aton` also takes, which curl and wget
/// pass on: `3221225985`, `0xC0000201`, `0300.0250.0.1`, `10.1`.
fn is_ip_literal(host: &str) -> bool {
    if host.starts_with('[') {
        return true;
    }
    // A trailing dot is the root of the DNS tree: `10.0.0.5.` is the same host.
    let host = host.strip_suffix('.').unwrap_or(host);
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
