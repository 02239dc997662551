//! Built-in rules: a package installed from where no registry vouches for it — an index or registry over plain HTTP or at a bare IP, TLS checks turned off for a host, or the package itself named by an archive or repository URL.
//!
//! An install runs the package's own code (`setup.py`, lifecycle
//! scripts, gem extensions), so where it comes from is what decides
//! whether that code is what its name promises. A registry package by
//! name (`pip install requests`, `npm install`, `cargo add serde`, `go
//! install mod@version`, which the Go checksum database vouches for) and
//! a named index over HTTPS (a company's own, PyTorch's wheel index) are
//! everyday work and run. The settings that move every later install
//! are `tooling.package-source`.

use super::url::untrusted_source;
use super::{Matcher, Rule};
use crate::shell::Command;
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "packages.untrusted-source",
        category: "install a package from a URL or an index no registry vouches for",
        reason: "the install runs the package's own code, and nothing but the URL says what that code is: no registry name, no signature, or a host reached without TLS or by bare address",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: &["pip", "pip3", "pipx", "python", "python3", "uv", "npm", "pnpm", "yarn", "bun",
                "gem", "cargo", "brew", "poetry", "conda", "mamba", "micromamba", "pdm"],
            check: installs_untrusted,
        },
        hits: &[
            "pip install http://203.0.113.9/pkg-1.0.tar.gz",
            "pip install --index-url http://10.0.0.5/simple requests",
            "pip3 install -i http://pypi.example.net/simple flask",
            "pip install --trusted-host pypi.example.net flask",
            "pip install git+http://git.example.net/x/y.git",
            "python3 -m pip install https://x.example/pkg.tar.gz",
            "npm i --registry http://10.0.0.5:4873 left-pad",
            "npm install https://x.example/pkg.tgz",
            "gem install --source http://gems.example.net rails",
            "cargo install --git http://10.0.0.5/x/y",
            "uv pip install --index-url http://10.0.0.5/simple x",
            "brew install https://x.example/tool.rb",
            "yarn add git://git.example.net/user/repo",
            "poetry source add internal http://10.0.0.5/simple",
        ],
        misses: &[
            "pip install -r requirements.txt",
            "pip install requests",
            "pip install -e .",
            "pip install torch --index-url https://download.pytorch.org/whl/cu121",
            "npm install",
            "npm ci",
            "npm i --registry http://localhost:4873 my-pkg",
            "npm install @types/node",
            "cargo add serde",
            "cargo install ripgrep",
            "gem install rails",
            "brew install wget",
            "pip install git+https://github.com/x/y.git",
            "cargo install --git https://github.com/x/y",
            "yarn add github:user/repo",
        ],
    },
];

/// Whether `cmd` installs a package from an untrusted index or by URL.
fn installs_untrusted(cmd: &Command) -> bool {
    let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    let Some(rest) = install_args(&cmd.program, &args) else {
        return false;
    };
    let env_index = cmd.env.iter().any(|(name, value)| {
        name.ends_with("INDEX_URL") || name.ends_with("REGISTRY") || name.ends_with("FIND_LINKS")
    } && untrusted_source(value));
    // `poetry source add NAME URL` names an index, not a package.
    if cmd.program == "poetry" && args.contains(&"source") {
        return rest
            .iter()
            .any(|w| untrusted_source(w.rsplit('=').next().unwrap_or(w)));
    }
    env_index || untrusted_words(rest)
}

/// The words after the install verb of a package manager, or `None` when
/// the command installs nothing.
fn install_args<'a>(program: &str, args: &'a [&'a str]) -> Option<&'a [&'a str]> {
    let verb_at = |verbs: &[&str]| args.iter().position(|a| verbs.contains(a));
    let at = match program {
        "python" | "python3" => {
            let m = args
                .windows(2)
                .position(|w| w[0] == "-m" && w[1].starts_with("pip"))?;
            let rest = &args[m + 2..];
            return rest
                .iter()
                .position(|a| *a == "install")
                .map(|i| &rest[i + 1..]);
        }
        p if p.starts_with("pip") => verb_at(&["install", "download", "wheel"])?,
        "uv" => verb_at(&["install", "add", "sync"])?,
        "npm" | "pnpm" | "bun" => verb_at(&["install", "i", "add", "in", "isntall", "update"])?,
        "yarn" => verb_at(&["add", "install", "global"])?,
        "gem" => verb_at(&["install", "update"])?,
        "cargo" => verb_at(&["install", "add"])?,
        "brew" => verb_at(&["install", "reinstall", "upgrade"])?,
        "poetry" => verb_at(&["add", "source"])?,
        "conda" | "mamba" | "micromamba" => verb_at(&["install", "create", "update"])?,
        "pdm" => verb_at(&["add", "install"])?,
        _ => return None,
    };
    Some(&args[at + 1..])
}

/// Options naming an index, registry, channel or source.
const INDEX_OPTIONS: &[&str] = &[
    "-i",
    "--index-url",
    "--extra-index-url",
    "--index",
    "--default-index",
    "-f",
    "--find-links",
    "--registry",
    "--source",
    "-s",
    "--channel",
    "-c",
    "--extra-index",
];

/// Index options whose value is trusted on its own (a TLS check off).
const TRUST_OPTIONS: &[&str] = &["--trusted-host", "--allow-insecure-host", "--insecure"];

/// Options whose value is a repository the package is built from, judged
/// like an index.
const GIT_OPTIONS: &[&str] = &["--git"];

fn untrusted_words(words: &[&str]) -> bool {
    let mut it = words.iter().copied();
    while let Some(word) = it.next() {
        let (name, value) = match word.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v.to_string())),
            _ => (word, None),
        };
        if TRUST_OPTIONS.contains(&name) {
            return true;
        }
        let index = INDEX_OPTIONS.contains(&name);
        if index || GIT_OPTIONS.contains(&name) {
            let value = value
                .or_else(|| it.next().map(str::to_string))
                .unwrap_or_default();
            if untrusted_source(&value) {
                return true;
            }
            continue;
        }
        if !word.starts_with('-') && is_url_package(word) {
            return true;
        }
    }
    false
}

/// A package named by where it is rather than by its registry name: an
/// archive by URL (`https://x/p.tgz`, `name @ https://x/p.zip`), whatever
/// the server sends at that moment, or a repository reached without TLS
/// or at an address (`git+http://`, `git://`). A repository over HTTPS or
/// ssh (`git+https://github.com/...`, `github:user/repo`) is named and
/// versioned as a registry package is, and runs.
fn is_url_package(word: &str) -> bool {
    let spec = word.rsplit_once(" @ ").map_or(word, |(_, url)| url).trim();
    let spec = spec
        .split_once('@')
        .filter(|(name, _)| !name.contains(':') && !name.is_empty() && spec.contains("://"))
        .map_or(spec, |(_, url)| url.trim());
    let lower = spec.to_ascii_lowercase();
    let vcs = ["git+", "hg+", "svn+", "bzr+", "git://"]
        .iter()
        .any(|p| lower.starts_with(p));
    if vcs {
        return untrusted_source(spec);
    }
    ["http://", "https://", "ftp://"]
        .iter()
        .any(|p| lower.starts_with(p))
}
