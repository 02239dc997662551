//! Built-in rules: tool configuration that runs or fetches code later — package indexes and registries pointed elsewhere, git settings that run a program or redirect fetches, direnv told to trust a directory, build scripts warden cannot read that reach processes or the network — and the places such configuration is written by hand (`files.tool-config`).
//!
//! None of these runs anything now; each decides what a later, ordinary
//! command (`pip install`, `git status`, `cd`) fetches or runs, which is
//! why they are asked before that command is.

use once_cell::sync::Lazy;
use regex::Regex;

use super::files::{strip_dir, Place};
use super::paths::basename;
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::convention::{format, Format};
use crate::shell::{Analysis, Command};
use crate::verdict::Decision;

/// Settings that move where packages come from, turn off the checks on
/// what arrives, or name a program the package manager runs.
#[rustfmt::skip]
static SOURCES: &[Verb] = &[
    verb_if("pip*", PIP, points_elsewhere),
    verb_if("python*", r"(?:^| )-m pip (?:-\S+ )*config (?:-\S+ )*set (?:\S+\.)?(?:index-url|extra-index-url|trusted-host|find-links)\b", pip_points_elsewhere),
    verb_if("npm", NPM, points_elsewhere),
    verb_if("pnpm", NPM, points_elsewhere),
    verb_if("yarn", NPM, points_elsewhere),
    verb_if("bun", NPM, points_elsewhere),
    verb_if("gem", r"^sources (?:.* )?(?:--add|-a)\b", points_elsewhere),
    verb("bundle", r"^config (?:set )?(?:--\S+ )*mirror\."),
    verb_if("go", r"^env (?:.* )?-w\b", sets_source_variable),
    // Exported, the same variables reach every later command of the session.
    verb_if("export", "=", sets_source_variable),
    verb_if("declare", "=", sets_source_variable),
    verb_if("typeset", "=", sets_source_variable),
    verb_if("setenv", "", setenv_source),
    verb("conda", CONDA), verb("mamba", CONDA), verb("micromamba", CONDA),
    verb("poetry", r"^source add\b(?:.* )?(?:--priority[= ](?:primary|default)|--default)\b"),
    verb_if("pdm", r"^config (?:-\S+ )*pypi\.(?:\S+\.)?url\b", points_elsewhere),
];

const PIP: &str = r"(?:^| )config (?:-\S+ )*set (?:\S+\.)?(?:index-url|extra-index-url|trusted-host|find-links)\b";
const NPM: &str = r"^(?:-\S+ )*(?:config |c )?set (?:-\S+ )*(?:@?[\w.-]*:)?(?:registry|script-shell|shell|node-options|onload-script|git|npmRegistryServer|unsafeHttpWhitelist|npmScopes\.\S+|(?:strict-ssl|enableStrictSsl|ignore-scripts)[= ]false)\b";
const CONDA: &str = r"(?:^| )config (?:.* )?--(?:add|append|prepend|set) (?:channels \S*://|default_channels|channel_alias|custom_channels)";

/// Programs that make a directory's code run on entering it.
#[rustfmt::skip]
static TRUST: &[Verb] = &[
    verb("direnv", r"^(?:allow|permit|grant)\b"),
    verb("mise", r"^trust\b"),
    verb("rtx", r"^trust\b"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "tooling.package-source",
        category: "point a package manager at another index or registry, or turn its checks off",
        reason: "every later install fetches from there, or accepts what arrives unchecked: code that runs on the next routine install",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SOURCES),
        hits: &["pip config set global.index-url http://x.example/simple", "python3 -m pip config set global.trusted-host x.example", "npm config set registry http://x.example/", "npm set @acme:registry https://x.example", "npm config set script-shell /tmp/sh", "yarn config set npmRegistryServer https://x.example", "gem sources --add http://x.example/", "go env -w GOPROXY=http://x.example", "go env -w GOSUMDB=off", "go env -w GOFLAGS=-insecure", "export PIP_INDEX_URL=http://x.example/simple", "export GOSUMDB=off", "conda config --add channels http://x.example", "poetry source add --priority=primary x https://x.example/simple"],
        misses: &["pip config list", "pip config set global.timeout 60", "npm config get registry", "npm config set init-author-name a", "npm config set registry https://registry.npmjs.org/", "gem sources --list", "go env GOPATH", "go env -w GOPRIVATE=github.com/acme/*", "go env -w GOPROXY=https://proxy.golang.org,direct", "export PATH=$HOME/bin:$PATH", "export NPM_CONFIG_REGISTRY=https://registry.npmjs.org/", "conda config --add channels conda-forge", "poetry source add --priority=explicit torch https://download.pytorch.org/whl/cpu"],
    },
    Rule {
        id: "tooling.git-runs-code",
        category: "git configured to run a program, force, or fetch from elsewhere",
        reason: "git runs that program, alias or hook directory, or fetches from that host, on a later routine command",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: git_sets_code },
        hits: &["git config --global url.https://x.example/.insteadOf https://github.com/", "git config --global core.hooksPath /tmp/hooks", "git config core.fsmonitor 'sh -c ./x'", "git config --global core.sshCommand 'ssh -o ProxyCommand=/tmp/p'", "git config --global alias.st '!sh -c id'", "git config --global alias.pushf 'push --force'", "git config --global credential.helper '!f() { cat > /tmp/c; }; f'", "git config --global include.path /tmp/x.gitconfig", "git config set --global core.pager 'less; id'"],
        misses: &["git config user.name a", "git config --global alias.st status", "git config --global alias.lg 'log --oneline'", "git config core.autocrlf false", "git config --global core.editor vim", "git config --global core.editor 'code --wait'", "git config core.hooksPath .githooks", "git config --get core.hooksPath", "git config --global url.git@github.com:.insteadOf https://github.com/", "git config --global credential.helper osxkeychain", "git config --global credential.helper '!gh auth git-credential'", "git config --global core.pager 'diff-so-fancy | less --tabs=4 -RFX'", "git config --global core.fsmonitor true"],
    },
    Rule {
        id: "tooling.trust-directory",
        category: "let direnv or mise run a directory's configuration",
        reason: "the directory's `.envrc` or tool config then runs, unseen, every time a shell enters it",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(TRUST),
        hits: &["direnv allow", "direnv allow .", "direnv permit /tmp/proj", "mise trust"],
        misses: &["direnv status", "direnv deny", "direnv reload", "mise install", "mise ls"],
    },
    Rule {
        id: "tooling.build-script-runs-code",
        category: "a build script warden cannot read, written to start programs, open connections or delete files",
        reason: "the build tool runs it on its next routine build (`cargo build`, `./gradlew`, `mvn`), and what it then reaches cannot be shown harmless",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(unread_build_script),
        hits: &[
            "echo 'fn main() { std::process::Command::new(\"sh\").status().ok(); }' > build.rs && cargo build",
            "printf 'task x { doLast { exec { commandLine \"sh\", \"-c\", \"id\" } } }' > build.gradle",
            "echo '<project><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId></plugin></plugins></build></project>' > pom.xml && mvn package",
            "echo 'fn main() { let s = std::net::TcpStream::connect(\"x.example:80\"); }' > build.rs",
        ],
        misses: &[
            "echo 'fn main() { println!(\"cargo:rerun-if-changed=src/x.c\"); }' > build.rs && cargo build",
            "printf 'plugins { id \"java\" }\\n' > build.gradle && ./gradlew build",
            "echo '<project><modelVersion>4.0.0</modelVersion></project>' > pom.xml",
            "cargo build",
        ],
    },
];

/// What each unread language's code says when it can start a program,
/// open a connection or delete a tree.
#[rustfmt::skip]
const REACHES: &[&str] = &[
    // Rust
    "Command::new", "process::", "TcpStream", "UdpSocket", "remove_dir_all", "set_permissions", "reqwest", "ureq::",
    // Gradle (Groovy and Kotlin)
    "exec {", "exec(", "commandLine", ".execute()", "ProcessBuilder", "Runtime.getRuntime", "URL(", "deleteRecursively", "delete(",
    // Maven and Ant
    "exec-maven-plugin", "maven-antrun-plugin", "groovy-maven-plugin", "<executable>", "<exec ", "<get ", "<delete ",
    // CMake and Meson
    "execute_process", "file(DOWNLOAD", "run_command(",
    // IDE run configurations
    "ShConfigurationType", "SCRIPT_TEXT",
];

fn unread_build_script(analysis: &Analysis) -> Option<String> {
    analysis.files.iter().find_map(|(path, text)| {
        (format(path) == Some(Format::Unread) && REACHES.iter().any(|m| text.contains(m)))
            .then(|| path.clone())
    })
}

/// Hosts whose index or registry is the tool's own default.
const OFFICIAL: &[&str] = &[
    "pypi.org",
    "pypi.python.org",
    "files.pythonhosted.org",
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "rubygems.org",
    "proxy.golang.org",
    "sum.golang.org",
];

/// The host of a URL or of git's `user@host:path` (`None` for a bare word).
fn host(url: &str) -> Option<&str> {
    let rest = match url.split_once("://") {
        Some((_, rest)) => rest,
        None if url.contains('@') && url.contains(':') => url,
        None => return None,
    };
    let rest = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    rest.split(['/', ':']).next().filter(|h| !h.is_empty())
}

/// A setting whose URLs are not the tool's default (or that has none, such
/// as `strict-ssl false` or a trusted host).
/// `python3 -m pip` with a setting that points elsewhere: the module asked
/// first, so other interpreter calls never reach the row's regex.
fn pip_points_elsewhere(cmd: &Command) -> bool {
    let module = cmd
        .args
        .iter()
        .zip(cmd.args.iter().skip(1))
        .any(|(a, b)| a == "-m" && b == "pip")
        || cmd.args.iter().any(|a| a == "-mpip");
    module && points_elsewhere(cmd)
}

fn points_elsewhere(cmd: &Command) -> bool {
    let words = cmd.args.iter().flat_map(|a| a.split_whitespace());
    let mut urls = words.filter_map(|w| host(w.rsplit('=').next().unwrap_or(w)));
    let mut any = false;
    let elsewhere = urls.any(|h| {
        any = true;
        !OFFICIAL.contains(&h)
    });
    elsewhere || !any
}

/// `go env -w NAME=VALUE`, `export NAME=VALUE`: a variable that moves a
/// package manager's index, registry or module proxy, or switches off its
/// checks, for every later command.
fn sets_source_variable(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .filter_map(|a| a.split_once('='))
        .any(|(name, value)| source_variable(name, value))
}

/// Whether setting variable `name` to `value` changes where packages come
/// from (to a place other than the default) or what is checked on arrival.
fn source_variable(name: &str, value: &str) -> bool {
    let elsewhere = || host(value).is_none_or(|h| !OFFICIAL.contains(&h));
    match name.to_ascii_uppercase().as_str() {
        "GOPROXY" => value
            .split([',', '|'])
            .any(|p| !matches!(p, "direct" | "off" | "https://proxy.golang.org")),
        "GOSUMDB" => value != "sum.golang.org",
        "GONOSUMDB" | "GONOSUMCHECK" | "GOINSECURE" => !value.is_empty(),
        "GOFLAGS" => value.contains("-insecure"),
        "PIP_INDEX_URL"
        | "PIP_EXTRA_INDEX_URL"
        | "PIP_FIND_LINKS"
        | "UV_INDEX_URL"
        | "UV_EXTRA_INDEX_URL"
        | "UV_DEFAULT_INDEX"
        | "UV_INDEX"
        | "UV_FIND_LINKS"
        | "NPM_CONFIG_REGISTRY"
        | "YARN_NPM_REGISTRY_SERVER"
        | "YARN_REGISTRY"
        | "BUN_CONFIG_REGISTRY" => elsewhere(),
        "PIP_TRUSTED_HOST" | "UV_INSECURE_HOST" => !value.is_empty(),
        "NPM_CONFIG_STRICT_SSL" | "YARN_ENABLE_STRICT_SSL" => value == "false",
        "NPM_CONFIG_SCRIPT_SHELL" | "NPM_CONFIG_NODE_OPTIONS" => !value.is_empty(),
        _ => false,
    }
}

/// csh's `setenv NAME VALUE`.
fn setenv_source(cmd: &Command) -> bool {
    match &cmd.args[..] {
        [name, value, ..] => source_variable(name, value),
        _ => false,
    }
}

/// `git config [scope] KEY VALUE` (or `git config set KEY VALUE`) that
/// names a program, an alias that runs shell or forces, a hook directory
/// outside the repository, or a fetch URL moved to another host.
fn git_sets_code(cmd: &Command) -> bool {
    let Some(("config", args)) = super::git::subcommand(cmd) else {
        return false;
    };
    let mut global = false;
    let mut operands: Vec<&str> = Vec::new();
    let mut it = args.iter().map(String::as_str);
    while let Some(a) = it.next() {
        match a {
            "--global" | "--system" => global = true,
            "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment" | "--value" => {
                it.next();
            }
            "-l" | "--list" | "-e" | "--edit" => return false,
            _ if a.starts_with("--get") || a.starts_with("--unset") || a.ends_with("-section") => {
                return false
            }
            _ if a.starts_with('-') => {}
            _ => operands.push(a),
        }
    }
    if operands.first() == Some(&"set") {
        operands.remove(0);
    }
    match operands[..] {
        [key, value, ..] => code_setting(key, value, global),
        _ => false,
    }
}

/// Whether setting `key` to `value` makes git run or fetch something else.
fn code_setting(key: &str, value: &str, global: bool) -> bool {
    let lower = key.to_ascii_lowercase();
    if lower.starts_with("alias.") {
        return value.starts_with('!') || FORCES.is_match(value);
    }
    if let Some(base) = lower
        .strip_suffix(".insteadof")
        .or_else(|| lower.strip_suffix(".pushinsteadof"))
        .and_then(|k| k.strip_prefix("url."))
    {
        return host(base) != host(value) || host(value).is_none();
    }
    match lower.as_str() {
        "core.hookspath" => {
            global || value.starts_with(['/', '~', '$']) || value.split('/').any(|p| p == "..")
        }
        // Settings read from another file: one in a temporary directory
        // or the checkout can say anything.
        "include.path" => runs_code(value),
        _ if lower.starts_with("includeif.") && lower.ends_with(".path") => runs_code(value),
        "core.fsmonitor" => !matches!(
            value,
            "true" | "false" | "yes" | "no" | "on" | "off" | "0" | "1"
        ),
        "credential.helper" => !known_helper(value) && runs_code(value),
        _ if lower.starts_with("credential.") && lower.ends_with(".helper") => {
            !known_helper(value) && runs_code(value)
        }
        _ => super::exec::runs_program(&lower) && runs_code(value) && !pager_pipeline(value),
    }
}

/// The credential helpers vendors document as shell commands (`gh auth
/// setup-git`, AWS CodeCommit, Google Cloud), with nothing added.
fn known_helper(value: &str) -> bool {
    let command = value.trim_start_matches('!').trim_end_matches("$@").trim();
    let program = command.split_whitespace().next().map_or("", basename);
    let known = [
        "gh",
        "glab",
        "git-credential-manager",
        "git-credential-manager-core",
        "aws",
        "gcloud",
        "git-credential-gcloud.sh",
    ];
    known.contains(&program)
        && !command.contains([';', '|', '&', '`', '<', '>', '('])
        && !command.contains("$(")
}

/// A pager made of formatters and pagers piped together
/// (`diff-so-fancy | less --tabs=4 -RFX`), as their documentation sets it.
fn pager_pipeline(value: &str) -> bool {
    const VIEWERS: &[&str] = &[
        "less",
        "more",
        "most",
        "cat",
        "delta",
        "diff-so-fancy",
        "diff-highlight",
        "bat",
        "ydiff",
        "riff",
    ];
    !value.contains([';', '&', '$', '`', '<', '>', '('])
        && value.split('|').all(|stage| {
            stage
                .split_whitespace()
                .next()
                .is_some_and(|p| VIEWERS.contains(&basename(p)))
        })
}

/// An alias's git command that forces or destroys.
static FORCES: Lazy<Regex> = Lazy::new(|| {
    Regex::new(
        r"(?:^|\s)(?:--force|-f|--hard|--mirror|-D|-fd|-df|-fdx|-xdf)(?:\s|$)|\spush\s.*\s\+\S",
    )
    .expect("alias force regex is valid")
});

/// A configured command that is more than a program and its options: shell
/// syntax, an interpreter's `-c`, ssh's command options, or a program in a
/// temporary or relative directory.
fn runs_code(value: &str) -> bool {
    static CODE: Lazy<Regex> = Lazy::new(|| {
        Regex::new(r"(?i)\b(?:sh|bash|zsh|dash|ksh|python\d*|perl|ruby|node|php)\s+-c\b|proxycommand|localcommand|(?:^|\s)(?:/tmp/|/var/tmp/|/dev/shm/|\./)")
            .expect("configured command regex is valid")
    });
    value.starts_with('!')
        || value.contains([';', '|', '&', '$', '`', '<', '>', '('])
        || CODE.is_match(value)
}

/// Places in a home whose content a tool runs or fetches by later:
/// package managers' source settings, editors' plugins and start-up files,
/// direnv's own allow list and library.
#[rustfmt::skip]
const HOME_TOOL_CONFIG: &[&str] = &[
    ".config/pip", ".pip", "Library/Application Support/pip", ".pydistutils.cfg", ".config/uv",
    ".cargo/config.toml", ".cargo/config", ".yarnrc", ".yarnrc.yml", ".gemrc", ".condarc",
    ".config/go/env", "Library/Application Support/go/env", ".bundle/config", ".m2/settings.xml",
    ".gradle/init.d", ".gradle/init.gradle", ".bunfig.toml", ".vimrc", ".vim/plugin",
    ".vim/autoload", ".vim/pack", ".vim/ftplugin", ".vim/after", ".config/nvim",
    ".local/share/nvim/site", ".vscode/extensions", ".vscode-server/extensions",
    ".cursor/extensions", ".emacs", ".emacs.d/init.el", ".emacs.d/early-init.el",
    ".config/emacs/init.el", ".ipython/profile_default/startup", ".gdbinit", ".direnvrc",
    ".config/direnv", ".local/share/direnv/allow",
];

/// A file whose content a tool runs or fetches by later (the place test of
/// `files.tool-config`).
pub(super) fn is_tool_config(p: &Place<'_>) -> bool {
    let path = p.path;
    let base = basename(path);
    if matches!(base, "sitecustomize.py" | "usercustomize.py") {
        return true;
    }
    let packages = path.contains("/site-packages/") || path.contains("/dist-packages/");
    if packages && base.ends_with(".pth") {
        return true;
    }
    // A common command's name early on `PATH` is `files.command-shadow`'s.
    p.in_home()
        .is_some_and(|rel| HOME_TOOL_CONFIG.iter().any(|d| strip_dir(rel, d).is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_urls() {
        assert_eq!(host("https://x.example/simple"), Some("x.example"));
        assert_eq!(host("git@github.com:"), Some("github.com"));
        assert_eq!(host("https://tok@github.com/"), Some("github.com"));
        assert_eq!(host("conda-forge"), None);
    }

    #[test]
    fn configured_commands() {
        for v in [
            "!sh -c id",
            "vim; id",
            "ssh -o ProxyCommand=x",
            "sh -c 'x'",
            "/tmp/x",
        ] {
            assert!(runs_code(v), "{v}");
        }
        for v in [
            "vim",
            "code --wait",
            "less -FRX",
            "osxkeychain",
            "store --file ~/.git-credentials",
        ] {
            assert!(!runs_code(v), "{v}");
        }
    }
}
