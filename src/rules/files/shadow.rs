//! A file named like a common command written into a home's own `bin` directory, which shells search before the system's.

use super::{strip_dir, Place};

/// The directories in a home that installers put first on `PATH`.
const HOME_BINS: &[&str] = &[".local/bin", "bin", ".bin", ".local/sbin"];

/// Commands people and agents type every day: a file of that name early on
/// `PATH` runs in their place. A program built in the project and copied
/// there under its own name is not one of them.
#[rustfmt::skip]
const COMMON: &[&str] = &[
    "sudo", "su", "doas", "pkexec", "passwd", "login", "ssh", "scp", "sftp", "ssh-add", "ssh-agent",
    "gpg", "git", "gh", "ls", "cd", "cat", "cp", "mv", "rm", "ln", "chmod", "chown", "mkdir", "find",
    "grep", "sed", "awk", "head", "tail", "less", "more", "ps", "top", "kill", "pkill", "env",
    "which", "whoami", "id", "sh", "bash", "zsh", "fish", "dash", "python", "python3", "pip", "pip3",
    "node", "npm", "npx", "pnpm", "yarn", "bun", "deno", "ruby", "gem", "perl", "php", "java",
    "go", "cargo", "rustc", "rustup", "make", "cmake", "gcc", "cc", "clang", "curl", "wget", "tar",
    "unzip", "docker", "podman", "kubectl", "helm", "terraform", "aws", "gcloud", "az", "vim",
    "vi", "nvim", "nano", "emacs", "code", "open", "xdg-open", "systemctl", "launchctl", "apt",
    "apt-get", "brew", "dnf", "yum", "pacman", "openssl", "security", "claude", "codex", "hermes",
    "gemini", "aider", "uv", "uvx", "poetry", "pytest", "tmux", "screen", "date", "touch", "echo",
];

/// The name of `p` when it is directly in a home's `bin` directory.
fn home_bin_entry<'a>(p: &Place<'a>) -> Option<&'a str> {
    let rel = p.in_home()?;
    HOME_BINS
        .iter()
        .find_map(|bin| strip_dir(rel, bin).filter(|name| !name.is_empty() && !name.contains('/')))
}

/// Whether `p` is a file named like a common command directly in a
/// home's `bin` directory, or in Homebrew's on Apple silicon, which its
/// installer also puts before the system's.
pub(super) fn shadows_command(p: &Place<'_>) -> bool {
    let homebrew = strip_dir(p.path, "/opt/homebrew/bin").filter(|name| !name.contains('/'));
    home_bin_entry(p)
        .or(homebrew)
        .is_some_and(|name| COMMON.contains(&name))
}

/// Whether `p` is a program installed for the user under a name of its
/// own (`cp target/release/mytool ~/.local/bin/`): how a project's binary
/// is installed, not a change outside the project.
pub(super) fn installs_own_program(p: &Place<'_>) -> bool {
    home_bin_entry(p).is_some_and(|name| !COMMON.contains(&name))
}
