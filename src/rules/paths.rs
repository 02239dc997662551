//! Path predicates the deletion rules share: what kind of path a word names (home-sensitive, a harmless device), seen from the directory an earlier `cd` moved to.

use crate::shell::Command;

/// `path` as opened from the directory an earlier `cd` moved to.
pub(super) fn resolve(path: &str, cwd: Option<&str>) -> String {
    match cwd {
        Some(dir) if !path.starts_with(['/', '~', '$']) => {
            format!("{}/{}", dir.trim_end_matches('/'), path)
        }
        _ => path.to_string(),
    }
}

/// Components with `.` and empty ones dropped and `..` applied; `None`
/// when `..` climbs above the start.
pub(super) fn components(path: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts)
}

/// The path inside a home directory (`~/.ssh/config` gives `.ssh/config`,
/// `~` gives ``), however the home is written.
fn home_relative(path: &str, cwd: Option<&str>) -> Option<String> {
    let full = resolve(path, cwd);
    let (rest, under) = if let Some(r) = full.strip_prefix('~') {
        // `~user/x` is inside another user's home: just as sensitive.
        (r.find('/').map_or("", |i| &r[i..]), None)
    } else if let Some(r) = ["$HERMES_HOME", "${HERMES_HOME}"]
        .iter()
        .find_map(|p| full.strip_prefix(p))
    {
        (r, Some(".hermes"))
    } else if let Some(r) = ["$HOME", "${HOME}"]
        .iter()
        .find_map(|p| full.strip_prefix(p))
    {
        (r, None)
    } else if full.starts_with('/') {
        let parts = components(&full)?;
        let skip = match parts.first() {
            Some(&("home" | "Users")) if parts.len() >= 2 => 2,
            Some(&"root") => 1,
            _ => return None,
        };
        return Some(parts[skip..].join("/"));
    } else {
        return None;
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let mut parts = components(rest)?;
    if let Some(dir) = under {
        parts.insert(0, dir);
    }
    Some(parts.join("/"))
}

#[rustfmt::skip]
const SHELL_RC: &[&str] = &[
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
    ".zlogin", ".zlogout", ".cshrc", ".tcshrc", ".login", ".kshrc", ".mkshrc", ".xinitrc", ".xprofile",
    ".xsessionrc", ".inputrc",
];
#[rustfmt::skip]
const CREDENTIAL_FILES: &[&str] = &[
    ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".gitconfig", ".yarnrc", ".my.cnf",
    ".curlrc", ".wgetrc", ".cargo/credentials", ".cargo/credentials.toml",
];
/// The agents' own settings, which hold their hooks and permission rules. The
/// hardline blocks writes to them; this keeps an ask behind it.
const AGENT_CONFIG: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/config.toml",
];
/// Directories whose every file is a key, a credential, or code run at login.
#[rustfmt::skip]
const SENSITIVE_DIRS: &[&str] = &[
    ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config/gh", ".config/gcloud", ".config/fish",
    ".config/git", ".config/systemd/user", ".config/autostart", "Library/LaunchAgents", ".bashrc.d",
    ".zshrc.d", ".password-store",
];

/// Hermes' keys and settings under `~/.hermes` (memories and skills are the agent's own work).
fn hermes_config_rel(rel: &str) -> bool {
    let Some(inner) = rel.strip_prefix(".hermes/") else {
        return false;
    };
    let name = inner.rsplit('/').next().unwrap_or(inner);
    let top_or_profile = !inner.contains('/') || inner.starts_with("profiles/");
    name == ".env"
        || (top_or_profile
            && [".yaml", ".yml", ".json", ".custom-patterns-hash"]
                .iter()
                .any(|e| name.ends_with(e)))
}

fn sensitive_rel(rel: &str) -> bool {
    SHELL_RC.contains(&rel)
        || CREDENTIAL_FILES.contains(&rel)
        || AGENT_CONFIG.contains(&rel)
        || hermes_config_rel(rel)
        || SENSITIVE_DIRS.iter().any(|d| {
            rel.strip_prefix(d)
                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        })
}

pub(super) fn is_sensitive(path: &str, cwd: Option<&str>) -> bool {
    home_relative(path, cwd).is_some_and(|r| sensitive_rel(&r))
}

/// Devices that are safe to write: they discard, or are the terminal.
pub(super) fn harmless_device(path: &str) -> bool {
    HARMLESS_DEVICES.contains(&path)
        || ["/dev/fd/", "/dev/pts/", "/proc/self/fd/"]
            .iter()
            .any(|p| path.starts_with(p))
}

#[rustfmt::skip]
const HARMLESS_DEVICES: &[&str] = &[
    "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/stdout", "/dev/stderr",
    "/dev/tty", "/dev/console",
];

pub(super) fn basename(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
}

/// Whether an operand, seen from the command's directory, passes `pred`.
pub(super) fn any_operand(cmd: &Command, pred: fn(&str, Option<&str>) -> bool) -> bool {
    cmd.operands().iter().any(|p| pred(p, cmd.cwd.as_deref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_paths_however_written() {
        let cases = [
            ("~/.ssh/config", None, Some(".ssh/config")),
            ("~", None, Some("")),
            ("~bob/.bashrc", None, Some(".bashrc")),
            ("/home/alice/.zshrc", None, Some(".zshrc")),
            ("/root/.profile", None, Some(".profile")),
            ("$HERMES_HOME/.env", None, Some(".hermes/.env")),
            ("~/x/../.bashrc", None, Some(".bashrc")),
            (".bashrc", Some("~"), Some(".bashrc")),
            ("$HOMEDIR/.bashrc", None, None),
            ("/etc/hosts", None, None),
        ];
        for (path, cwd, rel) in cases {
            assert_eq!(home_relative(path, cwd).as_deref(), rel, "{path}");
        }
        let sensitive = ["~/.ssh", "~/.aws/config", "~/.hermes/.env", "/root/.bashrc"];
        assert!(sensitive.iter().all(|p| is_sensitive(p, None)));
        let plain = ["~/.sshx", "~/.ssh.bak", "~/notes.txt", ".bashrc"];
        assert!(!plain.iter().any(|p| is_sensitive(p, None)));
    }
}
