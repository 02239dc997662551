//! A host name as a person would read it (percent escapes, case, the final dot and Punycode undone), and whether it passes for a host it is not.
//!
//! `gіthub.com` with a Cyrillic `і`, its Punycode `xn--gthub-n2e.com`, its
//! percent-escaped `g%D1%96thub.com` and `XN--GTHUB-N2E.COM.` are one host:
//! every rule that compares or judges a host reads [`name`] of it.

mod punycode;

use std::borrow::Cow;

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use super::leak::hosts::PROVIDERS;

/// A URL's host, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::rules) struct Name {
    /// Lowercased, with percent escapes and `xn--` labels decoded, and
    /// without the final dot; an address in brackets as it was.
    pub text: String,
    /// Part of it could not be read: a bad percent escape, bytes that are
    /// not UTF-8, or an `xn--` label that is no Punycode for a non-ASCII
    /// name. A resolver still looks such a name up as it is spelled.
    pub unreadable: bool,
}

/// The longest DNS label; a longer one is not decoded.
const MAX_LABEL: usize = 63;

/// Reads a host as written in a URL (no user, no port).
pub(in crate::rules) fn name(host: &str) -> Name {
    // Nearly every host is plain lowercase ASCII with no escape or A-label.
    let plain = host
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'_'));
    if plain && !host.as_bytes().windows(4).any(|w| w == b"xn--") {
        return Name {
            text: host.strip_suffix('.').unwrap_or(host).to_string(),
            unreadable: false,
        };
    }
    if host.starts_with('[') {
        return Name {
            text: host.to_ascii_lowercase(),
            unreadable: false,
        };
    }
    let (text, mut unreadable) = unescape(host);
    // The dots UTS 46 maps to `.`: a resolver given one sees a label break.
    let text = text
        .to_lowercase()
        .replace(['\u{3002}', '\u{ff0e}', '\u{ff61}'], ".");
    let text = text.strip_suffix('.').unwrap_or(&text);
    let labels: Vec<Cow<'_, str>> = text
        .split('.')
        .map(|label| match label.strip_prefix("xn--") {
            Some(code) if label.len() <= MAX_LABEL => match punycode::decode(code) {
                // An A-label must stand for a name with a non-ASCII
                // character: `xn--github-` decodes to `github` but is
                // another label.
                Some(decoded) if !decoded.is_ascii() => Cow::Owned(decoded),
                _ => {
                    unreadable = true;
                    Cow::Borrowed(label)
                }
            },
            Some(_) => {
                unreadable = true;
                Cow::Borrowed(label)
            }
            None => Cow::Borrowed(label),
        })
        .collect();
    Name {
        text: labels.join("."),
        unreadable,
    }
}

/// `host` with `%XX` escapes decoded, and whether one was bad or the bytes
/// are not UTF-8.
fn unescape(host: &str) -> (Cow<'_, str>, bool) {
    if !host.contains('%') {
        return (Cow::Borrowed(host), false);
    }
    let bytes = host.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut bad = false;
    let mut at = 0;
    while at < bytes.len() {
        let hex = |i: usize| bytes.get(i).and_then(|b| (*b as char).to_digit(16));
        match (bytes[at], hex(at + 1), hex(at + 2)) {
            (b'%', Some(high), Some(low)) => {
                // Two hex digits: at most 0xff.
                out.push((high * 16 + low) as u8);
                at += 3;
            }
            (byte, ..) => {
                bad |= byte == b'%';
                out.push(byte);
                at += 1;
            }
        }
    }
    match String::from_utf8(out) {
        Ok(text) => (Cow::Owned(text), bad),
        Err(err) => (
            Cow::Owned(String::from_utf8_lossy(err.as_bytes()).into_owned()),
            true,
        ),
    }
}

/// Hosts people are fooled into trusting: where code, packages and images
/// are fetched from, besides the services whose tokens warden knows
/// ([`PROVIDERS`]). A name spelled like one of these in other letters is a
/// look-alike even when each of its labels is in one script (`gíthub.com`).
#[rustfmt::skip]
const WELL_KNOWN: &[&str] = &[
    "gitlab.com", "bitbucket.org", "codeberg.org", "sourceforge.net", "sr.ht", "crates.io",
    "rustup.rs", "rust-lang.org", "pythonhosted.org", "python.org", "yarnpkg.com", "nodejs.org",
    "nodesource.com", "deno.land", "deno.com", "bun.sh", "jsdelivr.net", "unpkg.com",
    "rubygems.org", "golang.org", "go.dev", "docker.com", "docker.io", "quay.io", "brew.sh",
    "nixos.org", "debian.org", "ubuntu.com", "fedoraproject.org", "archlinux.org", "kernel.org",
    "gnu.org", "apache.org", "astral.sh", "helm.sh", "hashicorp.com", "k8s.io", "kubernetes.io",
    "apple.com", "paypal.com",
];

/// Whether a host passes for one it is not: a name warden cannot read; an
/// invisible or control character in it; a label that mixes Latin letters
/// with Cyrillic, Greek, Armenian or Cherokee ones (`gіthub`), or is made
/// only of such letters that look Latin (`аррӏе`, unless the top-level
/// label is in that script too: `сор.рф` is Russian); or a spelling of a
/// well-known host in other letters (`gíthub.com`, `gıthub.com`).
pub(in crate::rules) fn passes_for_another(name: &Name) -> bool {
    if name.unreadable {
        return true;
    }
    let text = name.text.as_str();
    if text.is_ascii() {
        return false;
    }
    let top = text.rsplit('.').next().unwrap_or(text);
    text.split('.').any(|label| deceptive_label(label, top)) || spells_well_known(text)
}

/// The scripts whose letters can pass for Latin ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Cyrillic,
    Greek,
    Armenian,
    Cherokee,
    /// Any other: Han, Arabic, Devanagari, ... (no Latin look-alikes here).
    Other,
}

fn script(c: char) -> Script {
    match u32::from(c) {
        0x41..=0x5a
        | 0x61..=0x7a
        | 0xc0..=0x24f
        | 0x250..=0x2af
        | 0x1d00..=0x1dbf
        | 0x1e00..=0x1eff
        | 0x2c60..=0x2c7f
        | 0xa720..=0xa7ff
        | 0xab30..=0xab6f
        | 0xff21..=0xff3a
        | 0xff41..=0xff5a => Script::Latin,
        0x400..=0x52f | 0x1c80..=0x1c8f | 0x2de0..=0x2dff | 0xa640..=0xa69f => Script::Cyrillic,
        0x370..=0x3ff | 0x1f00..=0x1fff => Script::Greek,
        0x530..=0x58f => Script::Armenian,
        0x13a0..=0x13ff | 0xab70..=0xabbf => Script::Cherokee,
        _ => Script::Other,
    }
}

/// Letters of other scripts that look like a Latin letter in common fonts,
/// and Latin letters that look like another (`ı`, `ɑ`, `ɡ`).
#[rustfmt::skip]
const LOOKS_LATIN: &[(char, char)] = &[
    // Cyrillic
    ('а', 'a'), ('с', 'c'), ('ԁ', 'd'), ('е', 'e'), ('ҽ', 'e'), ('һ', 'h'), ('і', 'i'),
    ('ј', 'j'), ('ӏ', 'l'), ('о', 'o'), ('р', 'p'), ('ԛ', 'q'), ('ѕ', 's'), ('ԝ', 'w'),
    ('х', 'x'), ('у', 'y'), ('ү', 'y'), ('ѵ', 'v'),
    // Greek
    ('α', 'a'), ('ϲ', 'c'), ('ι', 'i'), ('ϳ', 'j'), ('κ', 'k'), ('ν', 'v'), ('ο', 'o'),
    ('ρ', 'p'), ('υ', 'u'), ('χ', 'x'), ('γ', 'y'),
    // Armenian
    ('ց', 'g'), ('հ', 'h'), ('ո', 'n'), ('օ', 'o'), ('զ', 'q'), ('ս', 'u'),
    // Latin letters read as others
    ('ı', 'i'), ('ɩ', 'i'), ('ɑ', 'a'), ('ɡ', 'g'), ('ʟ', 'l'), ('ɴ', 'n'), ('ʀ', 'r'),
];

fn looks_latin(c: char) -> Option<char> {
    LOOKS_LATIN
        .iter()
        .find(|(from, _)| *from == c)
        .map(|(_, to)| *to)
}

/// Characters a reader does not see: controls, format characters (zero
/// widths, direction marks, the soft hyphen) and the blank fillers.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(u32::from(c),
            0xad | 0x34f | 0x61c | 0x115f | 0x1160 | 0x17b4 | 0x17b5 | 0x180b..=0x180f
            | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x206f | 0x3164 | 0xfe00..=0xfe0f
            | 0xfeff | 0xffa0 | 0x1d173..=0x1d17a | 0xe0000..=0xe0fff)
}

/// Whether one label mixes scripts or wears another script's letters.
fn deceptive_label(label: &str, top: &str) -> bool {
    if label.is_ascii() {
        return false;
    }
    let mut seen = [false; 6];
    let mut all_look_latin = true;
    for c in label.chars() {
        if invisible(c) {
            return true;
        }
        if !c.is_alphabetic() {
            continue;
        }
        let s = script(c);
        seen[s as usize] = true;
        all_look_latin &= looks_latin(c).is_some();
    }
    let lookalike_scripts = [
        Script::Cyrillic,
        Script::Greek,
        Script::Armenian,
        Script::Cherokee,
    ];
    let others = lookalike_scripts
        .iter()
        .filter(|s| seen[**s as usize])
        .count();
    let latin = seen[Script::Latin as usize];
    if others > 1 || latin && others == 1 {
        return true;
    }
    // One script that is not Latin, every letter of it a Latin look-alike.
    let whole = others == 1 && !seen[Script::Other as usize] && all_look_latin;
    whole && !in_script_of(top, label)
}

/// Whether the top-level label `top` is written in the script of `label`
/// (a national top-level domain such as `рф`).
fn in_script_of(top: &str, label: &str) -> bool {
    let Some(first) = label.chars().find(|c| c.is_alphabetic()).map(script) else {
        return false;
    };
    top.chars().any(|c| c.is_alphabetic()) && top.chars().all(|c| script(c) == first)
}

/// Whether the name, read as the Latin letters it looks like, is a
/// well-known host or under one, while it is not spelled that way.
fn spells_well_known(text: &str) -> bool {
    let skeleton: String = text
        .nfkd()
        .filter(|c| !is_combining_mark(*c) && !invisible(*c))
        .flat_map(char::to_lowercase)
        .map(|c| looks_latin(c).unwrap_or(c))
        .collect();
    if skeleton == text || !skeleton.is_ascii() {
        return false;
    }
    let under = |domain: &str| {
        skeleton == domain
            || skeleton
                .strip_suffix(domain)
                .is_some_and(|rest| rest.ends_with('.'))
    };
    WELL_KNOWN.iter().any(|d| under(d))
        || PROVIDERS.iter().flat_map(|p| p.domains).any(|d| under(d))
}

#[cfg(test)]
mod tests;
