//! The agents' own ways of lowering their guard, as data: settings commands (`hermes config set`, `claude config set`, `codex features`), options that start an agent with approvals or hooks off, and environment variables that switch the guard off or move the files it reads.
//!
//! Hermes' `config set` writes `config.yaml`, or `.env` for keys shaped like
//! credentials; its gateway copies every top-level scalar of `config.yaml`
//! into its environment, and `terminal.*` keys into `TERMINAL_*` variables
//! mirrored in `.env`. So a key is harmless only when it is named below as
//! one: a top-level key (no dot) that is not, and every key under a section
//! that reaches approvals, hooks, allow lists, security or the terminal,
//! lowers the guard. The agents' hooks inherit the agent's environment, so a
//! variable that moves warden's config (`XDG_CONFIG_HOME`) or the agent's
//! home (`HERMES_HOME`, `CODEX_HOME`) given to an agent leaves the person's
//! policy behind.

use crate::shell::Command;

/// Variables that switch Hermes' guards off for the rest of a session: yolo,
/// safe mode (no plugins or hooks), and accepting hooks unseen. Set for any
/// command, they are refused.
const GUARD_OFF_VARS: &[&str] = &[
    "HERMES_YOLO_MODE",
    "HERMES_SAFE_MODE",
    "HERMES_ACCEPT_HOOKS",
];

/// Variables that move the files warden or an agent reads its policy, hooks,
/// cache or ledger from, or change how warden decides: given to an agent,
/// whose hooks inherit them (or exported for the agents started later), the
/// person's policy is left behind.
#[rustfmt::skip]
const GUARD_PLACE_VARS: &[&str] = &[
    "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "WARDEN_CONFIG",
    "WARDEN_MANAGED_DIR", "WARDEN_UNATTENDED", "WARDEN_PROJECT_CEILING", "WARDEN_DEADLINE_MS",
    "HERMES_HOME", "HERMES_MANAGED_DIR", "HERMES_CUSTOM_PATTERNS_PATH", "HERMES_WRITE_SAFE_ROOT",
    "HERMES_CRON_SESSION", "CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR", "CODEX_HOME",
];

/// The agents: their hooks inherit the environment they are started with.
/// (warden's own subcommands that change what it guards by are refused
/// whatever their environment; the others only read.)
const GUARDED: &[&str] = &["hermes", "claude", "codex"];

/// Options that start an agent with its approvals or hooks off.
#[rustfmt::skip]
const LAUNCH_FLAGS: &[(&str, &[&str])] = &[
    ("hermes", &["--yolo", "--accept-hooks", "--ignore-user-config", "--safe-mode"]),
    ("codex", &["--dangerously-bypass-approvals-and-sandbox", "--yolo", "--dangerously-bypass-hook-trust", "--ignore-user-config", "--ignore-rules"]),
    ("claude", &["--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--bare", "--safe-mode"]),
];

/// Options whose value starts an agent with its approvals or hooks off:
/// the program, the option's spellings, and the values that do (compared
/// without case).
#[rustfmt::skip]
const LAUNCH_VALUES: &[(&str, &[&str], &[&str])] = &[
    ("codex", &["-a", "--ask-for-approval"], &["never", "on-failure"]),
    ("codex", &["-s", "--sandbox"], &["danger-full-access"]),
    ("codex", &["--disable"], &["hooks"]),
    ("claude", &["--permission-mode"], &["bypasspermissions"]),
];

/// Hermes keys that are settings of no consequence to the guard, at the
/// top of `config.yaml` (every other top-level key reaches the gateway's
/// environment, and credential-shaped ones go to `.env`).
#[rustfmt::skip]
const HERMES_HARMLESS_TOP: &[&str] = &[
    "model", "timezone", "file_read_max_chars", "context_file_max_chars", "mcp_discovery_timeout",
    "max_concurrent_sessions", "max_live_sessions", "paste_collapse_threshold",
    "paste_collapse_threshold_fallback", "paste_collapse_char_threshold",
];

/// Hermes keys (and the keys under them) that reach approvals, hooks, allow
/// lists, security, the terminal and its environment, code execution or the
/// model that judges approvals.
#[rustfmt::skip]
const HERMES_GUARD_KEYS: &[&str] = &[
    "approvals", "command_allowlist", "hooks", "hooks_auto_accept", "security", "terminal",
    "code_execution", "quick_commands", "auxiliary.approval", "skills.inline_shell",
    "skills.guard_agent_created", "skills.write_approval", "memory.write_approval",
    "delegation.subagent_auto_approve", "browser.allow_unsafe_evaluate",
    "browser.allow_private_urls", "browser.restrict_evaluate", "plugins",
];

/// Claude Code settings (`claude config set|add|remove KEY`) that reach its
/// permissions, hooks, environment or the commands it runs by itself.
#[rustfmt::skip]
const CLAUDE_GUARD_KEYS: &[&str] = &[
    "allowedtools", "permissions", "hooks", "disableallhooks", "apikeyhelper", "env", "defaultmode",
    "additionaldirectories", "enableallprojectmcpservers", "skipdangerousmodepermissionprompt",
    "awsauthrefresh", "awscredentialexport", "otelheadershelper", "statusline", "sandbox",
];

/// Claude Code settings in a `--settings '{…}'` text that do the same.
const CLAUDE_SETTINGS_WORDS: &[&str] = &[
    "\"hooks\"",
    "\"disableAllHooks\"",
    "\"permissions\"",
    "\"defaultMode\"",
    "\"env\"",
    "\"apiKeyHelper\"",
];

/// Codex settings (`-c KEY=VALUE`) that reach approvals, the sandbox, hooks
/// or the commands it runs by itself, with the values that keep the guard
/// (empty: none does).
#[rustfmt::skip]
const CODEX_GUARD_KEYS: &[(&str, &[&str])] = &[
    ("approval_policy", &["untrusted", "on-request"]),
    ("sandbox_mode", &["read-only", "workspace-write"]),
    ("sandbox_workspace_write", &[]), ("hooks", &[]), ("notify", &[]),
    ("shell_environment_policy", &[]), ("trust_level", &[]),
];

/// Whether `cmd` lowers an agent's guard: a variable that switches it off or
/// moves its files, an agent's settings command that loosens it, or an
/// agent started with its approvals or hooks off. Asked of every command:
/// each part first tests the program or whether variables are set.
pub(super) fn loosens(cmd: &Command) -> bool {
    let program = cmd.program.as_str();
    let exported = exported_names(cmd);
    if (!exported.is_empty() || !cmd.env.is_empty()) && sets_guard_var(cmd, &exported) {
        return true;
    }
    match program {
        "hermes" => hermes(cmd),
        "codex" => launched_loose(cmd) || codex(cmd),
        "claude" => launched_loose(cmd) || claude(cmd),
        _ => false,
    }
}

/// The variables `cmd` sets for the commands run after it: `export NAME[=V]`,
/// `declare -x NAME`, `declare NAME=V`, `setenv NAME V`, `launchctl setenv
/// NAME V`, `systemctl [--user] set-environment NAME=V`.
fn exported_names(cmd: &Command) -> Vec<&str> {
    let args = &cmd.args;
    fn name(a: &str) -> &str {
        a.split('=').next().unwrap_or("")
    }
    let operands = || args.iter().filter(|a| !a.starts_with(['-', '+']));
    match cmd.program.as_str() {
        "export" => operands().map(|a| name(a)).collect(),
        // Without `-x`, only an assignment sets anything (`declare -p HOME` prints).
        "declare" | "typeset" => {
            let exports = args.iter().any(|a| a.starts_with('-') && a.contains('x'));
            operands()
                .filter(|a| exports || a.contains('='))
                .map(|a| name(a))
                .collect()
        }
        "setenv" => args.first().map(|a| name(a)).into_iter().collect(),
        "launchctl" if args.first().is_some_and(|a| a == "setenv") => {
            args.get(1).map(|a| name(a)).into_iter().collect()
        }
        "systemctl" if args.iter().any(|a| a == "set-environment") => operands()
            .filter(|a| a.contains('='))
            .map(|a| name(a))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `cmd` sets a guard variable: one that switches a guard off, for
/// any command or exported; one that moves the guard's files, exported or
/// given to an agent.
fn sets_guard_var(cmd: &Command, exported: &[&str]) -> bool {
    let given = |name: &str| cmd.env.iter().any(|(k, _)| k == name);
    let guarded = GUARDED.contains(&cmd.program.as_str());
    GUARD_OFF_VARS
        .iter()
        .any(|v| given(v) || exported.contains(v))
        || GUARD_PLACE_VARS
            .iter()
            .any(|v| exported.contains(v) || guarded && given(v))
}

/// The words of `cmd` that are not options, in order.
fn words(cmd: &Command) -> Vec<&str> {
    cmd.args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect()
}

/// `hermes config set|unset KEY` for a key that reaches the guard,
/// `hermes config edit`, `hermes hooks revoke`, or Hermes started with its
/// guard off.
fn hermes(cmd: &Command) -> bool {
    if launched_loose(cmd) {
        return true;
    }
    let words = words(cmd);
    let after = |w: &str| words.iter().position(|x| *x == w).map(|i| &words[i + 1..]);
    if let Some(rest) = after("config") {
        return match rest {
            ["set" | "unset", key, ..] => hermes_key_loosens(key),
            ["edit", ..] => true,
            _ => false,
        };
    }
    matches!(after("hooks"), Some(["revoke" | "remove" | "rm", ..]))
}

/// Whether setting Hermes' `key` reaches the guard.
fn hermes_key_loosens(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    if !key.contains('.') {
        return !HERMES_HARMLESS_TOP.contains(&key.as_str());
    }
    HERMES_GUARD_KEYS.iter().any(|k| under(&key, k))
}

/// Whether the dotted `key` is `section` or a key under it.
fn under(key: &str, section: &str) -> bool {
    key.strip_prefix(section)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// An agent started with an option of [`LAUNCH_FLAGS`] or [`LAUNCH_VALUES`].
fn launched_loose(cmd: &Command) -> bool {
    let program = cmd.program.as_str();
    let flags = LAUNCH_FLAGS
        .iter()
        .filter(|(p, _)| *p == program)
        .flat_map(|(_, f)| f.iter());
    for flag in flags {
        if cmd.args.iter().any(|a| a == flag) {
            return true;
        }
    }
    LAUNCH_VALUES
        .iter()
        .filter(|(p, _, _)| *p == program)
        .any(|(_, names, loose)| {
            option_values(&cmd.args, names).any(|v| loose.iter().any(|l| v.eq_ignore_ascii_case(l)))
        })
}

/// The values given to the option spelled as one of `names`: `-a V`,
/// `--name V`, `--name=V`.
fn option_values<'a>(args: &'a [String], names: &'a [&str]) -> impl Iterator<Item = &'a str> {
    args.iter().enumerate().filter_map(move |(i, a)| {
        if names.contains(&a.as_str()) {
            return args.get(i + 1).map(String::as_str);
        }
        let (name, value) = a.split_once('=')?;
        (name.starts_with("--") && names.contains(&name)).then_some(value)
    })
}

/// `codex -c KEY=VALUE` that reaches the guard, or `codex features
/// enable|disable`, which rewrites `config.toml`.
fn codex(cmd: &Command) -> bool {
    let loose_override = option_values(&cmd.args, &["-c", "--config"]).any(|setting| {
        let Some((key, value)) = setting.split_once('=') else {
            return false;
        };
        let value = value.trim().trim_matches(['"', '\'']);
        let key = key.trim().to_ascii_lowercase();
        let hooks_off = key == "features.hooks" && !value.eq_ignore_ascii_case("true");
        hooks_off
            || key.split('.').any(|part| {
                CODEX_GUARD_KEYS.iter().any(|(name, keeps)| {
                    part == *name && !keeps.iter().any(|k| value.eq_ignore_ascii_case(k))
                })
            })
    });
    let words = words(cmd);
    let features = words
        .windows(2)
        .any(|w| w[0] == "features" && matches!(w[1], "enable" | "disable"));
    loose_override || features
}

/// `claude config set|add|remove KEY` for a key that reaches the guard,
/// `--settings` text that sets hooks or permissions, or `--setting-sources`
/// that leaves out the person's own settings.
fn claude(cmd: &Command) -> bool {
    let words = words(cmd);
    if let Some(at) = words.iter().position(|w| *w == "config") {
        if let [verb, key, ..] = &words[at + 1..] {
            if matches!(*verb, "set" | "add" | "remove") {
                let key = key.to_ascii_lowercase();
                return CLAUDE_GUARD_KEYS.iter().any(|k| under(&key, k));
            }
        }
    }
    let settings = option_values(&cmd.args, &["--settings"])
        .any(|text| CLAUDE_SETTINGS_WORDS.iter().any(|w| text.contains(w)));
    let sources = option_values(&cmd.args, &["--setting-sources"])
        .any(|list| !list.split(',').any(|s| s.trim() == "user"));
    settings || sources
}

/// Shell start-up files in a home (by name), which every later shell
/// reads: a guard variable written there is set for every agent started
/// from one.
#[rustfmt::skip]
const STARTUP_NAMES: &[&str] = &[
    ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
    ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".pam_environment",
];

/// The system's start-up files, read by every login shell.
const SYSTEM_STARTUP: &[&str] = &[
    "/etc/profile",
    "/etc/profile.d/",
    "/etc/environment",
    "/etc/bash.bashrc",
    "/etc/zsh/",
];

/// Whether `path`, as the line writes it, is a start-up file: a shell's
/// in a home (or an `environment.d` or fish file there), the system's, or
/// a directory's `.envrc`, which direnv loads on entering it.
fn startup_file(path: &str) -> bool {
    let name = super::paths::basename(path);
    let in_home = ["~/", "$HOME/", "${HOME}/", "/home/", "/root/", "/Users/"]
        .iter()
        .any(|h| path.starts_with(h));
    name == ".envrc"
        || SYSTEM_STARTUP.iter().any(|s| path.starts_with(s))
        || in_home
            && (STARTUP_NAMES.contains(&name)
                || path.contains("/environment.d/")
                || path.contains("/fish/"))
}

/// The first file the line writes that is a start-up file setting a guard
/// variable, as `path`.
pub(super) fn startup_file_sets_guard_var(files: &[(String, String)]) -> Option<&str> {
    files
        .iter()
        .find(|(path, content)| startup_file(path) && sets_in_text(content))
        .map(|(path, _)| path.as_str())
}

/// Whether shell text assigns or exports a guard variable (`export
/// XDG_CONFIG_HOME=…`, `HERMES_HOME=…`, `setenv CODEX_HOME …`, fish's `set
/// -gx HERMES_HOME …`).
fn sets_in_text(text: &str) -> bool {
    let guard = |name: &str| GUARD_OFF_VARS.contains(&name) || GUARD_PLACE_VARS.contains(&name);
    let mut code = text.lines().filter(|l| !l.trim_start().starts_with('#'));
    code.any(|line| {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        // `NAME=value`, `export NAME=value`.
        let assigns = words
            .iter()
            .any(|w| w.split_once('=').is_some_and(|(k, _)| guard(k)));
        // csh's `setenv NAME value`, fish's `set -gx NAME value`, `unset NAME`.
        let sets = words.windows(2).any(|w| {
            matches!(w[0], "setenv" | "-gx" | "-x" | "-Ux" | "unset" | "unsetenv") && guard(w[1])
        });
        assigns || sets
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hermes_keys_by_what_they_reach() {
        for key in [
            "approvals.mode",
            "command_allowlist.0",
            "command_allowlist",
            "hooks.pre_tool_call",
            "hooks_auto_accept",
            "security.redact_secrets",
            "terminal.backend",
            "terminal.env_passthrough",
            "HERMES_YOLO_MODE",
            "OPENAI_API_KEY",
            "SUDO_PASSWORD",
            "display",
            "Approvals.Mode",
            "auxiliary.approval.model",
            "delegation.subagent_auto_approve",
        ] {
            assert!(hermes_key_loosens(key), "{key}");
        }
        for key in [
            "model",
            "model.default",
            "display.skin",
            "dashboard.theme",
            "tts.provider",
            "compression.enabled",
            "timezone",
            "hooksx.y",
        ] {
            assert!(!hermes_key_loosens(key), "{key}");
        }
    }

    #[test]
    fn variables_in_startup_text() {
        for text in [
            "export XDG_CONFIG_HOME=/tmp/x",
            "HERMES_HOME=/tmp/h",
            "setenv CODEX_HOME /tmp/c",
            "set -gx HERMES_HOME /tmp/h",
            "alias x=y; export HERMES_YOLO_MODE=1",
        ] {
            assert!(sets_in_text(text), "{text}");
        }
        for text in [
            "export PATH=$PATH:~/bin",
            "echo $HERMES_HOME",
            "# XDG_CONFIG_HOME is unset",
            "export EDITOR=vim",
        ] {
            assert!(!sets_in_text(text), "{text}");
        }
    }
}
