//! Built-in path rules: which files may be written or read — keys and credentials, accounts, boot and system files, start-up files, env files, the guard's own files — one table that file tools and every shell spelling of a write are judged by.
//!
//! A rule names places, not commands: `write_file ~/.ssh/authorized_keys`,
//! `echo key >> ~/.ssh/authorized_keys` and a symlink in the project that
//! leads there all meet `files.ssh`, with the same decision and message.
//! Paths arrive resolved (see [`crate::resolve`]): absolute, folded, links
//! followed.

use super::access::How;
use super::targets::{is_device_path, Target};
pub(crate) use crate::path::strip_dir;
use crate::resolve::Links;
use crate::verdict::Decision;

mod guard;
mod shadow;

/// One path rule, with the examples that prove it.
pub struct PathRule {
    /// Stable id, `files.kebab-name`.
    pub id: &'static str,
    /// What the place is, in a few words.
    pub category: &'static str,
    /// Why touching it matters, for the person reading the verdict.
    pub reason: &'static str,
    /// What a write there gets; `None`: writes pass this rule.
    pub write: Option<Decision>,
    /// What a read there gets.
    pub read: Option<Decision>,
    /// Deleting, moving, creating or changing the permissions of a file here
    /// counts as writing it (for the guard's own files and the accounts).
    pub changes: bool,
    pub places: Places,
    /// `write PATH` or `read PATH` (relative paths start in the project
    /// `/home/user/project`; `~` is `/home/user`), after any
    /// `HERMES_WRITE_SAFE_ROOT=DIR[:DIR]` it needs, that this rule must
    /// decide through the whole engine, as each agent's file tool and as
    /// each shell spelling of a write; or `delete`, `chmod`, `unpack` or
    /// `create PATH`, in each shell spelling of that.
    pub hits: &'static [&'static str],
    /// Accesses this rule must not decide.
    pub misses: &'static [&'static str],
}

/// Where a rule applies.
pub enum Places {
    /// These paths and everything under them. `~/x` is in every home
    /// (`/home/*`, `/Users/*`, `/root`, and the user's own).
    Under(&'static [&'static str]),
    /// A test no list of paths can state, and what it says in words (for
    /// the table in docs/files.md).
    Check {
        test: fn(&Place<'_>) -> bool,
        says: &'static str,
    },
}

/// What a rule sees of one file access.
#[derive(Debug, Clone)]
pub struct Place<'a> {
    /// Absolute, folded, symlinks followed (relative only when the working
    /// directory is unknown).
    pub path: &'a str,
    pub around: &'a Around<'a>,
    /// The shell spelling of the access; `None` for a file tool.
    pub how: Option<How>,
    /// [`Place::in_home`], worked out once: rule after rule asks it.
    home: Option<&'a str>,
    /// How it stands to the guard's files, worked out once for the two
    /// rules that ask.
    pub(super) standing: once_cell::unsync::OnceCell<Option<guard::Standing>>,
}

/// Facts about the machine and the call that path rules need. The machine's
/// facts are borrowed from the engine's options: one is made for every call.
#[derive(Debug, Clone, Default)]
pub struct Around<'a> {
    pub home: Option<&'a str>,
    /// The call's own directory, absolute (`None`: not known), worked out
    /// once for everything that resolves the call's paths.
    pub dir: Option<String>,
    /// The project the call works in: writes inside it are ordinary work.
    pub project: Option<String>,
    /// `$HERMES_HOME` (else `~/.hermes`), absolute and folded.
    pub hermes_home: Option<&'a str>,
    /// `HERMES_WRITE_SAFE_ROOT`: when set, writes outside these block.
    pub safe_roots: &'a [String],
    /// The Hermes profile the call runs in (`None`: the default profile).
    pub profile: Option<&'a str>,
    /// The tool was told `cross_profile: true`.
    pub cross_profile: bool,
    /// Where the running warden binary is, so it cannot be replaced.
    pub warden_exe: Option<&'a str>,
    /// Where this machine keeps the guard's files when not in the usual
    /// places (`XDG_*`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `WARDEN_CONFIG`,
    /// the plugin's path): each path and what is under it, absolute and
    /// folded.
    pub guard_paths: &'a [String],
    /// The file system, to find the guard's places under other names and
    /// the project policy files a directory holds (none: by their names).
    pub links: Option<&'a dyn Links>,
    /// The guard's places under the names symlinks give them, worked out
    /// when a write is first judged.
    pub guard_aliases: guard::Aliases,
}

impl<'a> Place<'a> {
    /// The access of `path`, with `around`.
    pub fn new(path: &'a str, around: &'a Around<'a>) -> Place<'a> {
        Place {
            path,
            around,
            how: None,
            home: home_part(path, around),
            standing: once_cell::unsync::OnceCell::new(),
        }
    }

    /// The same access, by the shell spelling `how`.
    pub fn by(self, how: Option<How>) -> Place<'a> {
        Place { how, ..self }
    }

    /// The path inside a home directory (`.ssh/config`), whoever's it is.
    pub fn in_home(&self) -> Option<&'a str> {
        self.home
    }
}

/// The part of `path` inside a home directory, whoever's it is.
fn home_part<'a>(path: &'a str, around: &Around<'_>) -> Option<&'a str> {
    // A home warden was not told of stays as written.
    for prefix in ["~", "$HOME", "${HOME}"] {
        if let Some(rest) = strip_dir(path, prefix) {
            return Some(rest);
        }
    }
    if let Some(home) = around.home {
        if let Some(rest) = strip_dir(path, home) {
            return Some(rest);
        }
    }
    if let Some(rest) = strip_dir(path, "/root") {
        return Some(rest);
    }
    for top in ["/home/", "/Users/"] {
        if let Some(rest) = path.strip_prefix(top) {
            return Some(rest.split_once('/').map_or("", |(_, r)| r));
        }
    }
    None
}

impl Place<'_> {
    /// The path inside Hermes' home (`config.yaml`, `profiles/w/.env`).
    pub fn in_hermes_home(&self) -> Option<&str> {
        if let Some(dir) = self.around.hermes_home {
            if let Some(rest) = strip_dir(self.path, dir) {
                return Some(rest);
            }
        }
        for prefix in ["$HERMES_HOME", "${HERMES_HOME}"] {
            if let Some(rest) = strip_dir(self.path, prefix) {
                return Some(rest);
            }
        }
        self.in_home().and_then(|r| strip_dir(r, ".hermes"))
    }

    /// The path inside a Hermes profile, the default one (Hermes' home) or
    /// a named one (`profiles/<name>/`): `config.yaml`, `.env`, `memories/x`.
    pub fn in_profile(&self) -> Option<&str> {
        let rel = self.in_hermes_home()?;
        Some(
            rel.strip_prefix("profiles/")
                .and_then(|r| r.split_once('/').map(|(_, r)| r))
                .unwrap_or(rel),
        )
    }

    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }

    pub fn in_temp(&self) -> bool {
        super::targets::classify(self.path, None) == Target::Temp
    }

    pub fn in_project(&self) -> bool {
        match self.around.project.as_deref() {
            Some(project) => strip_dir(self.path, project).is_some(),
            None => !self.path.starts_with('/'),
        }
    }

    /// Under `entry` as [`Places::Under`] reads it.
    fn under(&self, entry: &str) -> bool {
        match entry.strip_prefix("~/") {
            Some(rel) => self.in_home().is_some_and(|r| strip_dir(r, rel).is_some()),
            None => strip_dir(self.path, entry).is_some(),
        }
    }
}

impl PathRule {
    /// Where the rule applies, in words.
    pub fn places(&self) -> String {
        match &self.places {
            Places::Under(entries) => {
                let quoted: Vec<String> = entries.iter().map(|e| format!("`{e}`")).collect();
                quoted.join(", ")
            }
            Places::Check { says, .. } => says.to_string(),
        }
    }

    pub fn matches(&self, place: &Place<'_>) -> bool {
        match &self.places {
            Places::Under(entries) => entries.iter().any(|e| place.under(e)),
            Places::Check { test, .. } => test(place),
        }
    }

    /// What this rule says of an access, if anything.
    pub fn decides(&self, how: Option<How>, write: bool) -> Option<Decision> {
        if !write {
            return self.read;
        }
        match how {
            // Not known to be a write: where a write is refused outright,
            // the program's unknown use of the file asks instead.
            // Devices and boot files are what disk tools are for, and
            // those have rules of their own.
            Some(How::Unknown) => UNKNOWN_USE_ASKS.contains(&self.id).then_some(Decision::Ask),
            Some(how) if !content_write(how) && !self.changes => None,
            _ => self.write,
        }
    }
}

/// The rules whose files a program warden has no model of may not be given
/// without a question: keys, credentials, sudoers, the account files and the
/// guard's own files. A write there is refused; an unknown use asks.
const UNKNOWN_USE_ASKS: &[&str] = &[
    "files.guard",
    "files.ssh",
    "files.cloud-credentials",
    "files.tool-credentials",
    "files.gnupg",
    "files.hermes-secrets",
    "files.sudoers",
    "files.accounts",
];

/// The spellings that put content into a file; the others (deleting,
/// creating, changing permissions) only count for rules with `changes`.
fn content_write(how: How) -> bool {
    !matches!(
        how,
        How::Delete | How::Touch | How::Chmod | How::Read | How::Unknown
    )
}

const GUARD_REASON: &str = "an agent must not change the policy, hooks or binary that guard it; to change policy, edit the file yourself, then run `warden bless`";
const GUARD_DIR_REASON: &str = "the policy, hooks or binary that guard the agent are in it, or would be: removing, moving, re-permissioning or refilling it changes them as surely as editing them; do it yourself, then run `warden bless`";
const KEY_REASON: &str = "keys and credentials give whoever holds them access to machines and accounts; an agent adding or replacing one opens a door";

#[rustfmt::skip]
pub static RULES: &[PathRule] = &[
    PathRule {
        id: "files.guard",
        category: "the guard's own policy, hooks or binary",
        reason: GUARD_REASON,
        write: Some(Decision::Block), read: None, changes: true,
        places: Places::Check { test: guard::is_guard_file, says: "warden's config, cache, ledger and binary, `/etc/warden/`, every `.warden.yaml` and `.hermes/permissions.yaml`, Hermes' `config.yaml`, `cli-config.yaml`, `shell-hooks-allowlist.json`, `trust.json` and the plugin's pattern files (in every profile), Claude Code's `settings.json` and `settings.local.json` (`~/.claude/`, any project's `.claude/`, `CLAUDE_CONFIG_DIR`), Codex's `hooks.json` and `config.toml` (`CODEX_HOME`); in any letter case, under a symlink's name and where a symlink puts them (`~/.config/warden -> ~/dotfiles/warden`), matched by a shell pattern (`~/.hermes/*.yaml`), and given a new name by a hard link" },
        hits: &["write ~/.HERMES/Config.yaml", "write ~/.hermes/*.yaml", "write .Warden.yaml", "write .hermes/Permissions.yaml", "delete ~/.config/*", "unpack ~/.config/warden", "write ~/.hermes/config.yaml", "write ~/.claude/settings.json", "write .claude/settings.local.json", "write ~/.codex/hooks.json", "write ~/.config/warden/config.yaml", "write /etc/warden/policy.yaml", "write .warden.yaml", "write ~/.hermes/shell-hooks-allowlist.json", "write ~/.hermes/custom-dangerous-patterns.yaml", "write ~/.local/bin/warden"],
        misses: &["write ~/.hermes/memories/MEMORY.md", "read ~/.hermes/config.yaml", "write docs/warden.yaml", "write src/claude/settings.json"],
    },
    PathRule {
        id: "files.guard-dir",
        category: "a directory that holds the guard's own files",
        reason: GUARD_DIR_REASON,
        write: Some(Decision::Block), read: None, changes: true,
        places: Places::Check { test: guard::is_guard_dir, says: "the directories above those files (`~/.config`, `~/.local`, `~/.local/state`, `~/.cache`, Hermes' home and `profiles/*`, ...), every `.hermes`, `.claude` and `.codex`, where a symlink puts them (a dotfiles repository), and a directory holding a project policy file on disk; deleting, moving, re-permissioning or replacing one, and unpacking, cloning or copying unknown files into one, the home and `/` included; creating an empty one is not" },
        hits: &["delete ~/.config", "delete ~/.local/state", "delete ~/.hermes", "delete ~/.hermes/profiles/work", "chmod ~/.config", "chmod ~/.claude", "unpack ~", "unpack ~/.config", "unpack ~/.hermes", "unpack /", "unpack /etc", "delete .claude", "unpack .hermes", "write .hermes", "delete .Codex"],
        misses: &["delete ~/.config/someapp/cache", "create ~/.local/bin", "create .claude", "unpack build", "unpack ~/src/app", "delete build", "delete ~", "chmod ~", "write ~/.config/app/settings.json", "delete ~/.config/warden"],
    },
    PathRule {
        id: "files.cache-key",
        category: "the key warden seals its policy cache with",
        reason: "whoever holds it can seal a cache entry of their own making, which warden would then believe in place of the policy",
        write: None, read: Some(Decision::Block), changes: false,
        places: Places::Check { test: is_cache_key, says: "`cache.key` in warden's state directory (`~/.local/state/warden/` or `$XDG_STATE_HOME/warden/`)" },
        hits: &["read ~/.local/state/warden/cache.key", "read /home/bob/.local/state/warden/cache.key"],
        misses: &["read ~/.local/state/warden/ledger.json", "read cache.key", "read ~/src/cache.key"],
    },
    PathRule {
        id: "files.ssh",
        category: "SSH keys and config",
        reason: KEY_REASON,
        write: Some(Decision::Block), read: None, changes: false,
        places: Places::Check { test: is_ssh_file, says: "`~/.ssh` and everything in it but `known_hosts`" },
        hits: &["write ~/.ssh/authorized_keys", "write ~/.ssh/config", "write ../.ssh/authorized_keys", "write /root/.ssh/authorized_keys", "write /home/bob/.ssh/id_ed25519"],
        misses: &["read ~/.ssh/config", "write ~/.sshx", "write ssh/config", "write ~/.ssh/known_hosts"],
    },
    PathRule {
        id: "files.ssh-known-hosts",
        category: "SSH's list of trusted hosts",
        reason: "a host key added there is trusted from then on: one for the wrong server lets it pose as the right one",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Under(&["~/.ssh/known_hosts", "~/.ssh/known_hosts2", "~/.ssh/known_hosts.old"]),
        hits: &["write ~/.ssh/known_hosts", "write /root/.ssh/known_hosts"],
        misses: &["read ~/.ssh/known_hosts", "write known_hosts"],
    },
    PathRule {
        id: "files.private-key",
        category: "an SSH private key",
        reason: "a private key read into the agent's context can be sent anywhere",
        write: None, read: Some(Decision::Ask), changes: false,
        places: Places::Check { test: is_ssh_private_key, says: "files in `~/.ssh` other than `*.pub`, `known_hosts*`, `config` and `authorized_keys`, and a search of `~/.ssh` itself" },
        hits: &["read ~/.ssh/id_rsa", "read ~/.ssh/id_ed25519", "read ~/.ssh/deploy_key", "read ~/.ssh"],
        misses: &["read ~/.ssh/id_rsa.pub", "read ~/.ssh/known_hosts", "read ~/.ssh/config", "read keys/id_rsa"],
    },
    PathRule {
        id: "files.cloud-credentials",
        category: "cloud credentials",
        reason: KEY_REASON,
        write: Some(Decision::Block), read: Some(Decision::Ask), changes: false,
        places: Places::Under(&["~/.aws", "~/.azure", "~/.config/gcloud", "~/.kube", "~/.docker/config.json", "~/.oci", "~/.config/doctl"]),
        hits: &["write ~/.aws/credentials", "read ~/.aws/credentials", "write ~/.kube/config", "write ~/.docker/config.json", "read ~/.config/gcloud/application_default_credentials.json"],
        misses: &["write ~/.docker/daemon-notes.txt", "write aws/credentials", "read ~/.awsrc"],
    },
    PathRule {
        id: "files.tool-credentials",
        category: "a tool's stored credentials",
        reason: KEY_REASON,
        write: Some(Decision::Block), read: Some(Decision::Ask), changes: false,
        places: Places::Under(&["~/.netrc", "~/.pgpass", "~/.npmrc", "~/.pypirc", "~/.git-credentials", "~/.config/gh", "~/.config/hub", "~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.vault-token", "~/.terraform.d/credentials.tfrc.json", "~/.gem/credentials", "~/.password-store", "~/.local/share/keyrings", "~/.my.cnf", "~/Library/Keychains", "/Library/Keychains", "~/.local/share/kwalletd"]),
        hits: &["write ~/.netrc", "write ~/.npmrc", "write ~/.git-credentials", "read ~/.config/gh/hosts.yml", "write ~/.pypirc", "read ~/.pgpass"],
        misses: &["write ~/.npmrc.bak", "read ~/.gitconfig", "write ~/.config/ghostty/config"],
    },
    PathRule {
        id: "files.gnupg",
        category: "GnuPG keys",
        reason: KEY_REASON,
        write: Some(Decision::Block), read: Some(Decision::Ask), changes: false,
        places: Places::Under(&["~/.gnupg"]),
        hits: &["write ~/.gnupg/gpg.conf", "read ~/.gnupg/private-keys-v1.d/x.key"],
        misses: &["write gnupg/gpg.conf"],
    },
    PathRule {
        id: "files.hermes-secrets",
        category: "Hermes' keys and tokens",
        reason: "Hermes keeps its API keys and OAuth tokens there",
        write: Some(Decision::Block), read: Some(Decision::Ask), changes: false,
        places: Places::Check { test: is_hermes_secret, says: "`.env`, `auth.json` and OAuth token files in Hermes' home and its profiles" },
        hits: &["write ~/.hermes/.env", "read ~/.hermes/auth.json", "write ~/.hermes/profiles/work/.env"],
        misses: &["read ~/.hermes/memories/MEMORY.md", "write ~/.hermes/skills/x/.env.example"],
    },
    PathRule {
        id: "files.browser-profile",
        category: "a web browser's profile",
        reason: "browser profiles keep saved passwords and session cookies that sign in as the user on every site",
        write: None, read: Some(Decision::Ask), changes: false,
        places: Places::Under(&["~/.mozilla/firefox", "~/snap/firefox/common/.mozilla/firefox", "~/.var/app/org.mozilla.firefox", "~/.config/google-chrome", "~/.config/chromium", "~/snap/chromium/common/chromium", "~/.config/BraveSoftware", "~/.config/microsoft-edge", "~/.config/vivaldi", "~/.config/opera", "~/Library/Application Support/Google/Chrome", "~/Library/Application Support/Firefox", "~/Library/Application Support/BraveSoftware", "~/Library/Application Support/Microsoft Edge", "~/Library/Cookies", "~/Library/Safari", "~/AppData/Local/Google/Chrome/User Data", "~/AppData/Roaming/Mozilla/Firefox"]),
        hits: &["read ~/.mozilla/firefox/abc.default-release/logins.json", "read ~/.config/google-chrome/Default/Cookies", "read ~/.config/BraveSoftware/Brave-Browser/Default/Cookies"],
        misses: &["read ~/.mozilla/extensions/x.xpi", "read chrome/Default/Cookies", "read ~/.config/chromium-flags.conf"],
    },
    PathRule {
        id: "files.sudoers",
        category: "the sudoers policy",
        reason: "editing sudoers can grant passwordless root to anyone",
        write: Some(Decision::Block), read: None, changes: true,
        places: Places::Under(&["/etc/sudoers", "/etc/sudoers.d", "/private/etc/sudoers", "/private/etc/sudoers.d"]),
        hits: &["write /etc/sudoers", "write /etc/sudoers.d/dev", "write /private/etc/sudoers"],
        misses: &["read /etc/sudoers", "write /etc/sudoers.bak.d/x"],
    },
    PathRule {
        id: "files.accounts",
        category: "the system's user accounts",
        reason: "the account files decide who can log in and as whom",
        write: Some(Decision::Block), read: None, changes: true,
        places: Places::Under(&["/etc/passwd", "/etc/shadow", "/etc/group", "/etc/gshadow", "/etc/master.passwd", "/private/etc/master.passwd"]),
        hits: &["write /etc/passwd", "write /etc/shadow"],
        misses: &["read /etc/passwd", "write /etc/passwd.d/x"],
    },
    PathRule {
        id: "files.password-hashes",
        category: "the system's password hashes",
        reason: "password hashes can be cracked offline once read",
        write: None, read: Some(Decision::Ask), changes: false,
        places: Places::Under(&["/etc/shadow", "/etc/gshadow", "/etc/master.passwd", "/private/etc/master.passwd"]),
        hits: &["read /etc/shadow", "read /etc/gshadow"],
        misses: &["read /etc/passwd"],
    },
    PathRule {
        id: "files.boot",
        category: "boot and service manager files",
        reason: "what is there runs as root at the next boot or service start",
        write: Some(Decision::Block), read: None, changes: true,
        places: Places::Under(&["/boot", "/efi", "/etc/systemd", "/usr/lib/systemd", "/lib/systemd", "/etc/init.d", "/etc/rc.local", "/etc/default/grub", "/Library/LaunchDaemons", "/Library/LaunchAgents"]),
        hits: &["write /etc/systemd/system/evil.service", "write /boot/grub/grub.cfg", "write /usr/lib/systemd/system/x.service"],
        misses: &["read /etc/systemd/system.conf", "write systemd/x.service"],
    },
    PathRule {
        id: "files.docker-socket",
        category: "the Docker socket",
        reason: "whoever writes to the Docker socket controls the host as root",
        write: Some(Decision::Block), read: None, changes: false,
        places: Places::Under(&["/var/run/docker.sock", "/run/docker.sock"]),
        hits: &["write /var/run/docker.sock", "write /run/docker.sock"],
        misses: &["write docker.sock"],
    },
    PathRule {
        id: "files.block-device",
        category: "a disk or other device",
        reason: "writing a disk or device node directly destroys the file systems on it or drives the hardware",
        write: Some(Decision::Block), read: None, changes: false,
        places: Places::Check { test: |p| is_device_path(p.path), says: "anything under `/dev` (`/dev/sda`, `/dev/nvme0n1p2`, `/dev/vg0/data`, `/dev/mapper/*`, ...) but the terminal, `/dev/null`, `/dev/zero`, the random devices, `/dev/shm`, `/dev/fd/*` and bash's `/dev/tcp`" },
        hits: &["write /dev/sda", "write /dev/nvme0n1p2", "write /dev/vg0/data", "write /dev/sdX"],
        misses: &["write /dev/null", "write dev/sda", "write /dev/stderr", "write /dev/shm/x"],
    },
    PathRule {
        id: "files.outside-safe-root",
        category: "outside HERMES_WRITE_SAFE_ROOT",
        reason: "HERMES_WRITE_SAFE_ROOT confines file writes to the directories it lists",
        write: Some(Decision::Block), read: None, changes: false,
        places: Places::Check { test: outside_safe_roots, says: "anything outside the directories `HERMES_WRITE_SAFE_ROOT` lists, when it is set" },
        hits: &["HERMES_WRITE_SAFE_ROOT=/home/user/project write ~/notes.txt", "HERMES_WRITE_SAFE_ROOT=/srv/app:/home/user/project write /opt/app/x"],
        misses: &["HERMES_WRITE_SAFE_ROOT=/home/user/project write src/main.rs", "write /opt/app/x", "HERMES_WRITE_SAFE_ROOT=/srv/app read /etc/hosts"],
    },
    PathRule {
        id: "files.shell-startup",
        category: "a shell start-up file",
        reason: "what is written there runs in every new shell",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Under(&["~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile", "~/.zshrc", "~/.zshenv", "~/.zprofile", "~/.zlogin", "~/.zlogout", "~/.cshrc", "~/.tcshrc", "~/.login", "~/.kshrc", "~/.mkshrc", "~/.xinitrc", "~/.xprofile", "~/.xsessionrc", "~/.inputrc", "~/.bashrc.d", "~/.zshrc.d", "~/.config/fish", "~/.config/environment.d", "~/.pam_environment", "~/.bash_aliases", "~/.zsh_aliases", "~/.aliases", "~/.oh-my-zsh/custom"]),
        hits: &["write ~/.bashrc", "write ~/.zshrc", "write /home/alice/.profile", "write ~/.config/fish/config.fish"],
        misses: &["read ~/.bashrc", "write bashrc.txt", "write dotfiles/.bashrc"],
    },
    PathRule {
        id: "files.autostart",
        category: "a program started at login",
        reason: "what is written there runs by itself at the next login",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Under(&["~/.config/autostart", "~/.config/systemd/user", "~/.local/share/systemd/user", "~/Library/LaunchAgents"]),
        hits: &["write ~/.config/autostart/x.desktop", "write ~/.config/systemd/user/x.service"],
        misses: &["write config/autostart/x.desktop"],
    },
    PathRule {
        id: "files.crontab",
        category: "a crontab",
        reason: "what is written there runs by itself on a schedule",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Under(&["/var/spool/cron", "/var/cron/tabs", "/usr/lib/cron/tabs", "/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily", "/etc/cron.weekly", "/etc/cron.monthly", "/etc/anacrontab"]),
        hits: &["write /etc/cron.d/job", "write /var/spool/cron/crontabs/root"],
        misses: &["write cron.d/job"],
    },
    PathRule {
        id: "files.git-hooks",
        category: "git hooks and config",
        reason: "git runs hooks and configured commands (pager, ssh, filters) later, unseen",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: is_git_code, says: "`.git/hooks/*` and `.git/config` in any repository, `~/.gitconfig`, `~/.config/git/`" },
        hits: &["write .git/hooks/pre-commit", "write .git/config", "write ~/.gitconfig", "write vendor/lib/.git/hooks/post-checkout"],
        misses: &["write .gitignore", "write src/git/config", "read .git/config", "write .github/workflows/ci.yml"],
    },
    PathRule {
        id: "files.shell-history",
        category: "a shell or REPL history",
        reason: "histories keep every command typed, with the passwords and tokens given on command lines",
        write: None, read: Some(Decision::Ask), changes: false,
        places: Places::Under(&["~/.bash_history", "~/.zsh_history", "~/.zhistory", "~/.histfile", "~/.sh_history", "~/.local/share/fish/fish_history", "~/.python_history", "~/.mysql_history", "~/.psql_history", "~/.sqlite_history", "~/.node_repl_history", "~/.rediscli_history", "~/.irb_history", "~/.local/share/powershell/PSReadLine"]),
        hits: &["read ~/.bash_history", "read /root/.zsh_history", "read ~/.local/share/fish/fish_history"],
        misses: &["read history.txt", "read ~/.bashrc"],
    },
    PathRule {
        id: "files.project-env",
        category: "an env or credentials file",
        reason: "env and credential files hold secrets and settings that are not in version control",
        write: Some(Decision::Ask), read: Some(Decision::Ask), changes: false,
        places: Places::Check { test: is_env_file, says: "`.env`, `.env.*` (not `.example`, `.sample`, `.template`, ...), `.envrc`, and project copies of `.npmrc`, `.pypirc`, `.netrc`, `.pgpass`, `.git-credentials`; not in temp directories" },
        hits: &["write .env", "read .env", "write app/.env.production", "write .envrc", "write .npmrc", "read config/.env.local"],
        misses: &["write .env.example", "read .env.sample", "write /tmp/x/.env", "write my.env", "write .environment"],
    },
    PathRule {
        id: "files.hermes-config",
        category: "Hermes' settings",
        reason: "Hermes' own settings would change under the running agent",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: is_hermes_setting, says: "other `*.yaml`/`*.json` at the top of Hermes' home or of a profile" },
        hits: &["write ~/.hermes/gateway.json", "write ~/.hermes/profiles/work/settings.yaml"],
        misses: &["write ~/.hermes/memories/MEMORY.md", "write ~/.hermes/skills/x/skill.yaml"],
    },
    PathRule {
        id: "files.cross-profile",
        category: "another Hermes profile",
        reason: "it changes what another profile's agent remembers or runs; pass cross_profile: true when that is meant",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: is_other_profile, says: "`skills/`, `plugins/`, `cron/`, `memories/` of a Hermes profile other than the call's, unless the tool was given `cross_profile: true`" },
        hits: &["write ~/.hermes/profiles/work/memories/MEMORY.md", "write ~/.hermes/profiles/work/skills/x/SKILL.md"],
        misses: &["write ~/.hermes/memories/MEMORY.md", "write ~/.hermes/profiles/work/notes.txt"],
    },
    PathRule {
        id: "files.system-config",
        category: "a system or installed program's file",
        reason: "it rewrites a file the operating system or installed software reads its configuration from",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: is_system_file, says: "`/`, and everything under `/etc`, `/usr`, `/bin`, `/sbin`, `/lib*`, `/boot`, `/var`, `/proc`, `/sys`, `/System`, `/Library`, ... and the temp directories themselves (`/tmp`, not what is in it), except `/dev/null`, the terminal and other harmless devices" },
        hits: &["write /etc/hosts", "write /etc/nginx/nginx.conf", "write /usr/local/bin/git", "write /proc/sys/vm/drop_caches"],
        misses: &["write /dev/null", "write /tmp/etc/hosts", "write etc/hosts", "read /etc/hosts", "write /dev/stderr", "write /var/tmp/x", "write /private/var/tmp/x"],
    },
    PathRule {
        id: "files.command-shadow",
        category: "a file named like a common command in a home's own bin directory",
        reason: "shells search `~/.local/bin` and `~/bin` before the system's directories, so it would run whenever that command is typed, `sudo` and `git` included",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: shadow::shadows_command, says: "`~/.local/bin`, `~/bin`, `~/.bin`, `~/.local/sbin` and `/opt/homebrew/bin` entries named like a common command (`sudo`, `ls`, `git`, `python`, `ssh`, ...); a program copied there under its own name is not one" },
        hits: &["write ~/.local/bin/sudo", "write /opt/homebrew/bin/git", "write ~/bin/git", "write ~/.local/bin/python3", "write /home/alice/.local/bin/ls"],
        misses: &["write ~/.local/bin/mytool", "write ~/bin/deploy-helper", "write bin/git", "write ~/.local/bin/sub/git", "read ~/.local/bin/git"],
    },
    PathRule {
        id: "files.outside-project",
        category: "outside the project",
        reason: "it changes a file outside the project the agent works in and outside temporary directories",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: is_outside_project, says: "any absolute path outside the project (its version-control root, `CLAUDE_PROJECT_DIR`, else the working directory) and outside temp directories, when the project is known" },
        hits: &["write ~/notes.txt", "write /opt/app/config.json", "write ../other/x.py"],
        misses: &["write src/main.rs", "write /tmp/build.log", "write /dev/null", "read /opt/app/config.json", "write /home/user/project/README.md", "write ~/.local/bin/mytool", "write ~/bin/deploy-helper"],
    },
    PathRule {
        id: "files.tool-config",
        category: "configuration a tool runs or fetches code by later",
        reason: "what is written there runs at a later start of python, an editor or a common command, or decides where packages come from",
        write: Some(Decision::Ask), read: None, changes: false,
        places: Places::Check { test: super::tooling::is_tool_config, says: "`sitecustomize.py`, `usercustomize.py`, `*.pth` in `site-packages`; package-source settings in a home (`pip.conf`, `.cargo/config.toml`, `.yarnrc`, `.gemrc`, `.condarc`, `go/env`, ...); editor plugins and start-up files (`.vim/plugin`, `.config/nvim`, `.vscode/extensions`, `.emacs`); direnv's allow list" },
        // Outside the project `files.outside-project` speaks first (both
        // ask); the project's own Python start-up hooks are this rule's.
        hits: &["write lib/sitecustomize.py", "write .venv/lib/python3.12/site-packages/x.pth", "write usercustomize.py"],
        misses: &["write ~/.local/bin/mytool", "write src/site.py", "read ~/.config/pip/pip.conf", "write x.pth"],
    },
];

/// warden's cache key, wherever the state directory is: the file name
/// under a `warden` directory is specific enough.
fn is_cache_key(p: &Place<'_>) -> bool {
    p.path.ends_with("/warden/cache.key")
}

fn is_ssh_file(p: &Place<'_>) -> bool {
    p.in_home().is_some_and(|rel| {
        strip_dir(rel, ".ssh").is_some_and(|inner| !inner.starts_with("known_hosts"))
    })
}

fn is_ssh_private_key(p: &Place<'_>) -> bool {
    let Some(rel) = p.in_home() else {
        return false;
    };
    // A search of the whole directory reads every key in it.
    if rel == ".ssh" {
        return true;
    }
    let Some(name) = rel.strip_prefix(".ssh/") else {
        return false;
    };
    !name.contains('/')
        && !name.ends_with(".pub")
        && !name.starts_with("known_hosts")
        && !matches!(
            name,
            "config" | "authorized_keys" | "authorized_keys2" | "environment"
        )
}

fn is_hermes_secret(p: &Place<'_>) -> bool {
    let Some(inner) = p.in_profile() else {
        return false;
    };
    matches!(inner, ".env" | "auth.json" | ".anthropic_oauth.json")
}

fn is_hermes_setting(p: &Place<'_>) -> bool {
    let Some(inner) = p.in_profile() else {
        return false;
    };
    !inner.contains('/')
        && [".yaml", ".yml", ".json"]
            .iter()
            .any(|e| inner.ends_with(e))
}

/// Areas of a profile an agent writes as it works.
const PROFILE_AREAS: &[&str] = &["skills", "plugins", "cron", "memories"];

fn is_other_profile(p: &Place<'_>) -> bool {
    if p.around.cross_profile {
        return false;
    }
    let Some(rest) = p.in_hermes_home().and_then(|r| r.strip_prefix("profiles/")) else {
        return false;
    };
    let mut parts = rest.split('/');
    let (Some(profile), Some(area)) = (parts.next(), parts.next()) else {
        return false;
    };
    p.around.profile != Some(profile) && PROFILE_AREAS.contains(&area)
}

/// Devices that are safe to write: they discard, or are the terminal.
fn harmless_device(path: &str) -> bool {
    super::paths::harmless_device(path)
}

fn is_system_file(p: &Place<'_>) -> bool {
    // What an archive puts into a system directory is
    // `fs.extract-over-system`'s to judge: it knows a toolchain replaced.
    p.how != Some(How::Produce)
        && p.path.starts_with('/')
        && !harmless_device(p.path)
        && matches!(
            super::targets::classify(p.path, None),
            Target::Root | Target::System
        )
}

fn is_git_code(p: &Place<'_>) -> bool {
    let path = p.path;
    let git_dir = |s: &str| s == ".git" || s.ends_with("/.git");
    let in_hooks = path.split_once("/.git/hooks/").is_some() || path.starts_with(".git/hooks/");
    let config = path
        .strip_suffix("/config")
        .or_else(|| (path == "config").then_some(""))
        .is_some_and(git_dir);
    in_hooks
        || config
        || p.in_home()
            .is_some_and(|rel| rel == ".gitconfig" || strip_dir(rel, ".config/git").is_some())
}

/// `.env` suffixes for files that hold no secrets.
const ENV_NOT_SECRET: &[&str] = &[
    "example", "sample", "template", "dist", "bak", "backup", "orig", "old", "tmpl", "tpl",
];

/// An env file that holds no secrets (`.env.example`, `.env.sample`, ...).
pub fn is_env_template(name: &str) -> bool {
    name.strip_prefix(".env.").is_some_and(|rest| {
        rest.split('.')
            .any(|s| ENV_NOT_SECRET.contains(&s.to_ascii_lowercase().as_str()))
    })
}

fn is_env_file(p: &Place<'_>) -> bool {
    if p.in_temp() {
        return false;
    }
    let name = p.name();
    let env = name == ".env"
        || name.strip_prefix(".env.").is_some_and(|rest| {
            !rest
                .split('.')
                .any(|s| ENV_NOT_SECRET.contains(&s.to_ascii_lowercase().as_str()))
        });
    env || matches!(
        name,
        ".envrc"
            | ".npmrc"
            | ".yarnrc"
            | ".yarnrc.yml"
            | ".pypirc"
            | ".netrc"
            | ".pgpass"
            | ".git-credentials"
    )
}

fn is_outside_project(p: &Place<'_>) -> bool {
    p.around.project.is_some()
        && p.path.starts_with('/')
        && !p.in_project()
        && !p.in_temp()
        && !harmless_device(p.path)
        && !shadow::installs_own_program(p)
}

fn outside_safe_roots(p: &Place<'_>) -> bool {
    let roots = p.around.safe_roots;
    !roots.is_empty()
        && p.path.starts_with('/')
        && !harmless_device(p.path)
        && !roots.iter().any(|r| strip_dir(p.path, r).is_some())
}

/// The first rule that has something to say of an access, among those that
/// decide `decision`.
pub fn first_match(
    place: &Place<'_>,
    how: Option<How>,
    write: bool,
    decision: Decision,
) -> Option<&'static PathRule> {
    // What a rule decides depends on the access only through its kind
    // (a read, an unknown use, a change of the file, a write of its
    // content), so the rules that can decide each kind each way are listed
    // once: every touched file asks each way, and most rules cannot.
    static DECIDING: once_cell::sync::Lazy<[[Vec<&'static PathRule>; 3]; 4]> =
        once_cell::sync::Lazy::new(|| {
            let representative = [
                (None, false),
                (Some(How::Unknown), true),
                (Some(How::Delete), true),
                (None, true),
            ];
            representative.map(|(how, write)| {
                [Decision::Allow, Decision::Ask, Decision::Block].map(|decision| {
                    RULES
                        .iter()
                        .filter(|rule| rule.decides(how, write) == Some(decision))
                        .collect()
                })
            })
        });
    let kind = match (write, how) {
        (false, _) => 0,
        (true, Some(How::Unknown)) => 1,
        (true, Some(how)) if !content_write(how) => 2,
        (true, _) => 3,
    };
    let way = match decision {
        Decision::Allow => 0,
        Decision::Ask => 1,
        Decision::Block => 2,
    };
    let found = DECIDING[kind][way]
        .iter()
        .copied()
        .find(|rule| rule.matches(place));
    debug_assert_eq!(
        found.map(|r| r.id),
        RULES
            .iter()
            .find(|rule| rule.decides(how, write) == Some(decision) && rule.matches(place))
            .map(|r| r.id)
    );
    found
}

#[cfg(test)]
mod tests {
    use super::strip_dir;

    #[test]
    fn strip_dir_is_a_prefix_of_whole_components() {
        // What it answered when it stripped the prefix as text first.
        let by_text = |path: &'static str, dir: &str| -> Option<&'static str> {
            let dir = dir.trim_end_matches('/');
            if dir.is_empty() {
                return path.strip_prefix('/');
            }
            let rest = path.strip_prefix(dir)?;
            if rest.is_empty() {
                Some("")
            } else {
                rest.strip_prefix('/')
            }
        };
        let paths = [
            "",
            "/",
            "//",
            "/etc",
            "/etc/",
            "/etc//x",
            "/etcx",
            "/etc/shadow",
            "/et",
            "etc",
            "~",
            "~/",
            "~/.ssh/id_rsa",
            "/home/u/.ssh",
            "/é/x",
            "/é",
        ];
        let dirs = [
            "", "/", "//", "/etc", "/etc/", "/etc//", "etc", "~", "/home/u", "/é", "é",
        ];
        for path in paths {
            for dir in dirs {
                assert_eq!(
                    strip_dir(path, dir),
                    by_text(path, dir),
                    "{path:?} in {dir:?}"
                );
            }
        }
    }
}
