//! Built-in rules: services, process killing, Hermes' own gateway, sudo's flags, package removal and publishing; and the option parser the fs, git and system tables share.

use once_cell::sync::Lazy;
use regex::Regex;

use super::opts::{parse_opts, Opts, Spec, GNU};
use super::{Matcher, Rule};
use crate::shell::{Analysis, Command};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    // Self-termination first: killing the agent's own host is worse than a
    // plain force kill, and the message should say so.
    Rule {
        id: "system.kill-pgrep",
        category: "kill process via pgrep/pidof expansion (self-termination)",
        reason: "the process list is looked up at run time and may include the agent or its gateway",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["kill", "xargs"], check: kill_by_lookup },
        hits: &["kill $(pgrep hermes)", "kill -9 $(pidof node)", "kill -TERM \"$(pgrep -f gateway)\"", "pgrep -f hermes | xargs kill -9"],
        misses: &["kill 12345", "kill -9 12345", "echo $(pgrep hermes)", "kill %1", "kill `pgrep hermes`"],
    },
    Rule {
        id: "system.kill-pgrep-backtick",
        category: "kill process via backtick pgrep/pidof expansion (self-termination)",
        reason: "the process list is looked up at run time and may include the agent or its gateway",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["kill"], check: kill_by_backtick_lookup },
        hits: &["kill `pgrep hermes`", "kill -9 `pidof python3`"],
        misses: &["kill 4242", "echo `pgrep hermes`", "kill $(pgrep hermes)"],
    },
    Rule {
        id: "system.kill-hermes",
        category: "kill hermes/gateway process (self-termination)",
        reason: "it would kill the agent itself or the gateway every running agent depends on",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["pkill", "killall", "kill"], check: kills_agent },
        hits: &["pkill -f hermes", "killall hermes", "pkill -9 -f 'hermes gateway'", "pkill claude", "kill $(cat ~/.hermes/gateway.pid)"],
        misses: &["pgrep hermes", "pkill -f webpack", "killall node", "echo pkill hermes", "kill 12345"],
    },
    Rule {
        id: "system.hermes-gateway-stop",
        category: "stop/restart hermes gateway (kills running agents)",
        reason: "every agent running through the gateway, this one included, would be cut off",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["hermes", "systemctl", "service"], check: hermes_gateway_stop },
        hits: &["hermes gateway stop", "hermes gateway restart", "systemctl --user restart hermes-gateway", "systemctl --user stop hermes-gateway.service"],
        misses: &["hermes gateway status", "hermes gateway start", "systemctl --user status hermes-gateway", "echo hermes gateway stop"],
    },
    Rule {
        id: "system.hermes-update",
        category: "hermes update (restarts gateway, kills running agents)",
        reason: "updating restarts the gateway, which cuts off every running agent, this one included",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["hermes"], check: hermes_update },
        hits: &["hermes update", "cd ~/.hermes && hermes update"],
        misses: &["hermes --version", "hermes chat -q 'run update'", "apt update", "echo hermes update"],
    },
    Rule {
        id: "system.hermes-gateway-run",
        category: "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
        reason: "a second gateway outside the service manager fights the managed one and outlives the session",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["hermes"], check: hermes_gateway_run },
        hits: &["nohup hermes gateway run &", "setsid hermes gateway run > /tmp/gw.log 2>&1 &", "hermes gateway run"],
        misses: &["hermes gateway status", "hermes run gateway-tests", "echo hermes gateway run"],
    },
    Rule {
        id: "system.hermes-launchd",
        category: "stop/restart hermes launchd service (kills running agents)",
        reason: "every agent running through the gateway, this one included, would be cut off",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["launchctl"], check: hermes_launchd },
        hits: &["launchctl stop ai.hermes.gateway", "launchctl kickstart -k gui/501/ai.hermes.gateway", "launchctl unload ~/Library/LaunchAgents/ai.hermes.gateway.plist"],
        misses: &["launchctl list", "launchctl print gui/501/ai.hermes.gateway", "launchctl kickstart gui/501/ai.hermes.gateway", "launchctl stop com.example.web"],
    },
    Rule {
        id: "system.service-stop",
        category: "stop/restart system service",
        reason: "whatever depends on the service goes down until someone starts it again",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &[], check: service_stop },
        hits: &["systemctl stop nginx", "sudo systemctl stop postgresql", "systemctl disable --now sshd", "systemctl mask docker.socket", "service nginx stop", "/etc/init.d/mysql stop", "launchctl bootout system/com.example.web", "systemctl kill nginx"],
        misses: &["sudo systemctl restart postgresql", "systemctl reload nginx", "service nginx restart", "/etc/init.d/mysql restart", "systemctl status nginx", "systemctl start nginx", "systemctl list-units --type=service", "systemctl is-active stop", "service nginx status", "journalctl -u nginx", "echo systemctl stop nginx"],
    },
    Rule {
        id: "system.pkill-force",
        category: "force kill processes",
        reason: "SIGKILL gives every matching process no chance to save its work or clean up",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["pkill"], check: pkill_force },
        hits: &["pkill -9 node", "pkill -KILL -u bob", "pkill --signal SIGKILL python", "pkill --signal=9 java"],
        misses: &["pkill node", "pkill -HUP nginx", "kill -9 12345", "pkill -s 9 node"],
    },
    Rule {
        id: "system.killall-force",
        category: "force kill processes (killall -KILL)",
        reason: "SIGKILL gives every process of that name no chance to save its work or clean up",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["killall"], check: killall_force },
        hits: &["killall -9 node", "killall -KILL firefox", "killall -SIGKILL python3"],
        misses: &["killall node", "killall -HUP nginx", "killall -s TERM node"],
    },
    Rule {
        id: "system.killall-signal-kill",
        category: "force kill processes (killall -s KILL)",
        reason: "SIGKILL gives every process of that name no chance to save its work or clean up",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["killall"], check: killall_signal_kill },
        hits: &["killall -s KILL firefox", "killall --signal 9 node", "killall -sSIGKILL java", "killall --signal=kill ruby"],
        misses: &["killall -s HUP nginx", "killall -u kill node", "killall node"],
    },
    Rule {
        id: "system.killall-regex",
        category: "kill processes by regex (killall -r)",
        reason: "a pattern can match far more processes than intended, the agent's own included",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["killall"], check: killall_regex },
        hits: &["killall -r 'py.*'", "killall --regexp '^node'", "killall -ir worker"],
        misses: &["killall -SIGTERM node", "killall -HUP nginx", "killall -u root httpd", "echo killall -r x"],
    },
    Rule {
        id: "system.crontab-remove",
        category: "crontab -r (removes every scheduled job)",
        reason: "the whole crontab is deleted at once, with no copy kept",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["crontab"], check: |c| parse_opts(&c.args, &Spec::gnu("u", &[])).flag('r') },
        hits: &["crontab -r", "crontab -u bob -r", "crontab -ri"],
        misses: &["crontab -l", "crontab -e", "crontab -u r -l", "echo crontab -r"],
    },
    Rule {
        id: "system.sudo-privilege-flag",
        category: "sudo with privilege flag (stdin/askpass/shell/list)",
        reason: "it opens a root shell, probes sudo rights, or feeds sudo a password the user never typed",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| with_sudo(a, sudo_privilege_flag)),
        hits: &["sudo -A apt-get update", "sudo -s", "sudo -i", "sudo -l", "sudo --askpass make install", "sudo -u postgres -i psql"],
        misses: &["sudo apt update", "sudo iotop -a", "sudo smartctl -a /dev/sda", "sudo -u postgres psql", "sudo -ulisa id", "sudo -Es", "echo sudo -s", "sudo ls -la /root"],
    },
    Rule {
        id: "system.sudo-combined-flag",
        category: "sudo with combined-flag privilege escalation",
        reason: "a privilege flag hidden in a combined cluster opens a root shell, probes sudo rights or reads a password",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| with_sudo(a, sudo_combined_flag)),
        hits: &["sudo -Es", "sudo -nA id", "sudo -nl", "sudo -Hi bash"],
        misses: &["sudo -n true", "sudo -E make install", "sudo -ulisa id", "sudo iotop -ao", "sudo -s"],
    },
    Rule {
        id: "system.package-uninstall",
        category: "package manager uninstall (npm, pnpm, yarn, pip, brew)",
        reason: "a package removed for the whole user or system (a global tool, the system's python) can break other software on the machine; removing a project's own dependency is routine",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["npm", "pnpm", "yarn", "bun", "pip", "pip3", "pipx", "uv", "gem", "cargo", "python*"], check: package_uninstall },
        hits: &["npm uninstall -g typescript", "sudo pip uninstall -y requests", "pip3 uninstall --break-system-packages urllib3", "/usr/bin/pip3 uninstall six", "yarn global remove create-react-app", "sudo python3 -m pip uninstall numpy", "pnpm rm --global lodash", "npm rm --location=global npm", "uv pip uninstall --system flask", "pipx uninstall-all", "cargo uninstall ripgrep", "gem uninstall rails"],
        misses: &["npm install typescript", "npm run uninstall", "yarn add remove", "pip install -r requirements.txt", "echo npm uninstall x", "python3 -m venv uninstall", "npm uninstall lodash", "pip uninstall -y requests", ".venv/bin/pip uninstall numpy", "python3 -m pip uninstall numpy", "pnpm rm lodash", "yarn remove react", "uv remove httpx", "cargo remove serde", "brew uninstall wget"],
    },
    Rule {
        id: "system.package-publish",
        category: "publish a package to a public registry",
        reason: "a published version is public at once and often cannot be taken back",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["npm", "pnpm", "yarn", "bun", "cargo", "twine", "gem", "poetry", "uv", "flit", "hatch", "dotnet"], check: package_publish },
        hits: &["npm publish", "npm unpublish my-pkg@1.0.0", "cargo publish --allow-dirty", "twine upload dist/*", "gem push mygem-1.0.gem", "yarn npm publish", "dotnet nuget push pkg.nupkg"],
        misses: &["npm publish --dry-run", "cargo publish --dry-run", "cargo publish -n", "npm pack", "twine check dist/*", "echo npm publish", "npm install publish"],
    },
    Rule {
        id: "system.install-local-package",
        category: "install a package file from disk",
        reason: "installing a package runs its maintainer scripts as root, and a file on disk comes with no repository's signature to vouch for it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["dpkg", "apt", "apt-get", "rpm", "dnf", "yum", "zypper", "pkg", "snap", "pacman", "apk", "installer"], check: installs_local_package },
        hits: &["sudo dpkg -i ./tool_1.0_amd64.deb", "sudo apt install ./tool.deb", "rpm -ivh x-1.0-1.noarch.rpm", "sudo dnf install -y ./x-1.0.rpm", "yum localinstall -y x.rpm", "sudo snap install ./x_1.0.snap --dangerous", "pacman -U ./x-1.0-1-x86_64.pkg.tar.zst", "apk add --allow-untrusted ./x.apk", "pkg install -y ./x-1.0.txz", "sudo installer -pkg ./x.pkg -target /"],
        misses: &["sudo apt install -y curl", "dnf install git", "snap install code --classic", "rpm -qa", "dpkg -l", "rpm -qpl x.rpm", "pacman -S ripgrep", "apk add git", "pacman -Uh"],
    },
];

#[rustfmt::skip]
pub static SUDO_GUARD: &[Rule] = &[Rule {
    id: "sudo.stdin-password",
    category: "sudo reading a password from stdin",
    reason: "no SUDO_PASSWORD is configured, so the agent would be supplying or guessing one",
    decision: Decision::Block,
    matcher: Matcher::Analysis(|a| with_sudo(a, sudo_stdin)),
    hits: &["sudo -S apt-get install pkg <<< 'hunter2'", "echo hunter2 | sudo -S whoami", "sudo -nS id", "sudo --stdin true", "sudo -k -S ls"],
    misses: &["sudo -s", "sudo apt-get install pkg", "sudo -uSam id", "sudo -A true", "smartctl -S on /dev/sda", "echo sudo -S"],
}];

// ---------------------------------------------------------------------------
// Killing processes.

static PID_LOOKUP: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"\$\(\s*(?:sudo\s+)?(?:pgrep|pidof)\b").expect("valid regex"));
static PID_LOOKUP_BACKTICK: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"`\s*(?:sudo\s+)?(?:pgrep|pidof)\b").expect("valid regex"));
static AGENT_NAME: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"(?i)hermes|gateway|claude|codex").expect("valid regex"));

/// Whether `arg` could hold a match of [`PID_LOOKUP`] (opened by `$(`) or
/// [`PID_LOOKUP_BACKTICK`] (by a backquote): both need the opener and the
/// name of a lookup. Compiling the two costs some 650,000 instructions,
/// half of a `kill -9 1234` hook call, for the arguments of nearly every
/// `kill` that look nothing up.
fn could_look_up(arg: &str, opener: &str) -> bool {
    arg.contains(opener) && (arg.contains("pgrep") || arg.contains("pidof"))
}

fn kill_by_lookup(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "kill" => {
            cmd.args
                .iter()
                .any(|a| could_look_up(a, "$(") && PID_LOOKUP.is_match(a))
                || (cmd.via.contains(&"xargs") && piped_pids(cmd))
        }
        // `pgrep x | xargs kill`: the xargs command itself, whatever became of its child.
        "xargs" => cmd.args.iter().any(|a| a == "kill") && piped_pids(cmd),
        _ => false,
    }
}

fn piped_pids(cmd: &Command) -> bool {
    cmd.fed_by(&["pgrep", "pidof"])
}

fn kill_by_backtick_lookup(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .any(|a| could_look_up(a, "`") && PID_LOOKUP_BACKTICK.is_match(a))
}

fn kills_agent(cmd: &Command) -> bool {
    if cmd.program == "kill" {
        // A pid read from the agent's own files (`$(cat ~/.hermes/gateway.pid)`).
        return cmd
            .args
            .iter()
            .any(|a| a.contains('$') && a.contains("hermes"));
    }
    let opts = parse_opts(&cmd.args, &KILLER);
    opts.operands.iter().any(|o| AGENT_NAME.is_match(o))
}

/// pkill/killall options that take a value (user, group, parent, session, terminal, ...).
#[rustfmt::skip]
pub(super) const KILLER: Spec = Spec::gnu("ugGPtFsoyZn", &["signal", "user", "group", "parent", "session", "terminal", "pidfile", "older-than", "younger-than", "context", "ns"]);

const SIGNALS: &[&str] = &[
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "IOT", "BUS", "EMT", "FPE", "KILL", "USR1",
    "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CLD", "CONT", "STOP", "TSTP",
    "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "POLL", "IO", "PWR", "SYS",
    "INFO", "LOST",
];

/// A signal given by name or number, with or without `SIG`.
fn signal(word: &str) -> Option<String> {
    let up = word.to_ascii_uppercase();
    let name = up.strip_prefix("SIG").unwrap_or(&up);
    let known =
        SIGNALS.contains(&name) || (!name.is_empty() && name.chars().all(|c| c.is_ascii_digit()));
    known.then(|| name.to_string())
}

fn is_sigkill(word: &str) -> bool {
    signal(word).is_some_and(|s| s == "KILL" || s == "9")
}

/// `-9`, `-KILL`, `-SIGKILL`: a signal written as an option word.
fn signal_words(cmd: &Command) -> impl Iterator<Item = String> + '_ {
    cmd.args.iter().take_while(|a| *a != "--").filter_map(|a| {
        a.strip_prefix('-')
            .filter(|s| !s.starts_with('-'))
            .and_then(signal)
    })
}

fn pkill_force(cmd: &Command) -> bool {
    let signal_option = parse_opts(&cmd.args, &KILLER)
        .long_value("signal", 3)
        .is_some_and(is_sigkill);
    signal_option || signal_words(cmd).any(|s| s == "KILL" || s == "9")
}

fn killall_force(cmd: &Command) -> bool {
    signal_words(cmd).any(|s| s == "KILL" || s == "9")
}

fn killall_signal_kill(cmd: &Command) -> bool {
    let opts = parse_opts(&killall_args(cmd), &KILLER)
        .values
        .iter()
        .any(|(c, v)| *c == 's' && is_sigkill(v));
    opts || parse_opts(&cmd.args, &KILLER)
        .long_value("signal", 3)
        .is_some_and(is_sigkill)
}

fn killall_regex(cmd: &Command) -> bool {
    let args = killall_args(cmd);
    let opts = parse_opts(&args, &KILLER);
    opts.flag('r') || opts.long("regexp", 3)
}

/// killall's arguments without the signal words (`-SIGTERM` is not `-S -I -G ...`).
fn killall_args(cmd: &Command) -> Vec<String> {
    cmd.args
        .iter()
        .filter(|a| {
            !a.strip_prefix('-')
                .is_some_and(|s| !s.starts_with('-') && signal(s).is_some())
        })
        .cloned()
        .collect()
}

// ---------------------------------------------------------------------------
// Services and Hermes' gateway.

#[rustfmt::skip]
pub(super) const SYSTEMCTL: Spec = Spec::gnu("tpsnoHMP", &["type", "property", "signal", "lines", "output", "host", "machine", "root", "kill-whom", "kill-value", "what", "job-mode", "state", "image", "drop-in", "when", "message", "timestamp", "reboot-argument", "boot-loader-entry", "boot-loader-menu"]);

/// Verbs that stop a running service or keep it from starting.
const STOP_VERBS: &[&str] = &[
    "stop",
    "restart",
    "try-restart",
    "reload-or-restart",
    "try-reload-or-restart",
    "condrestart",
    "force-reload",
    "disable",
    "mask",
    "kill",
    "isolate",
    "clean",
    "freeze",
    "rescue",
    "emergency",
    "suspend",
    "hibernate",
    "hybrid-sleep",
    "suspend-then-hibernate",
    "soft-reboot",
];

/// The verb and units of a service-manager call that stops something.
fn stopped_units(cmd: &Command) -> Option<Vec<&str>> {
    // Asked of every command: most program words hold no `/` at all.
    let init_script =
        cmd.path.contains('/') && (cmd.path.contains("/init.d/") || cmd.path.contains("/rc.d/"));
    if !init_script
        && !matches!(
            cmd.program.as_str(),
            "systemctl" | "service" | "rc-service" | "invoke-rc.d" | "launchctl"
        )
    {
        return None;
    }
    let opts = parse_opts(&cmd.args, &SYSTEMCTL);
    let ops = &opts.operands;
    let stops = |v: &str| STOP_VERBS.contains(&v);
    match cmd.program.as_str() {
        "systemctl" => ops.first().filter(|v| stops(v)).map(|_| ops[1..].to_vec()),
        "service" | "rc-service" | "invoke-rc.d" => {
            (ops.len() >= 2 && stops(ops[1])).then(|| vec![ops[0]])
        }
        "launchctl" => {
            let kills = matches!(
                ops.first(),
                Some(&("stop" | "unload" | "bootout" | "remove" | "kill" | "disable"))
            ) || (ops.first() == Some(&"kickstart") && opts.flag('k'));
            kills.then(|| ops[1..].to_vec())
        }
        _ => ops
            .first()
            .filter(|v| stops(v))
            .map(|_| vec![cmd.path.as_str()]),
    }
}

/// Verbs that stop a service only to start it again at once, or have it
/// re-read its configuration: the routine way to apply a change.
const RESTART_VERBS: &[&str] = &[
    "restart",
    "try-restart",
    "reload-or-restart",
    "try-reload-or-restart",
    "condrestart",
    "force-reload",
];

fn service_stop(cmd: &Command) -> bool {
    stopped_units(cmd).is_some() && !restarts(cmd)
}

/// Whether a service-manager call restarts its units (`systemctl restart
/// nginx`, `service nginx restart`, `/etc/init.d/x restart`).
fn restarts(cmd: &Command) -> bool {
    let ops = parse_opts(&cmd.args, &SYSTEMCTL).operands;
    let verb = match cmd.program.as_str() {
        "launchctl" => None,
        "service" | "rc-service" | "invoke-rc.d" => ops.get(1),
        _ => ops.first(),
    };
    verb.is_some_and(|v| RESTART_VERBS.contains(v))
}

fn hermes_gateway_stop(cmd: &Command) -> bool {
    if cmd.program == "hermes" {
        let ops = parse_opts(&cmd.args, &GNU).operands;
        return ops.first() == Some(&"gateway")
            && matches!(
                ops.get(1),
                Some(&("stop" | "restart" | "uninstall" | "kill"))
            );
    }
    stopped_units(cmd).is_some_and(|units| units.iter().any(|u| u.contains("hermes")))
}

fn hermes_update(cmd: &Command) -> bool {
    parse_opts(&cmd.args, &GNU).operands.first() == Some(&"update")
}

fn hermes_gateway_run(cmd: &Command) -> bool {
    let ops = parse_opts(&cmd.args, &GNU).operands;
    ops.first() == Some(&"gateway") && ops.get(1) == Some(&"run")
}

fn hermes_launchd(cmd: &Command) -> bool {
    stopped_units(cmd).is_some_and(|units| units.iter().any(|u| u.contains("hermes")))
}

// ---------------------------------------------------------------------------
// sudo's own flags.

/// sudo's short options that take a value; `-h` alone is help, `-hHOST` a host.
#[rustfmt::skip]
const SUDO: Spec = Spec { values: "aCcDgpRrTtUu", attached: "h", long_values: &["auth-type", "close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user", "login-class"], permute: false };

/// sudo's own options, one parse per `sudo` on the command (a wrapper, or
/// the command itself when nothing follows its flags).
/// Whether `cmd` goes through sudo, as its program or a wrapper: the
/// commands [`sudo_opts`] reads options from, and so the only ones the sudo
/// guard's rules can match.
pub(crate) fn runs_sudo(cmd: &Command) -> bool {
    cmd.program == "sudo" || cmd.wrapped_by("sudo")
}

fn sudo_opts(cmd: &Command) -> Vec<Opts<'_>> {
    let mut out: Vec<Opts<'_>> = cmd
        .wrappers
        .iter()
        .filter(|w| w.name == "sudo")
        .map(|w| parse_opts(&w.args, &SUDO))
        .collect();
    if cmd.program == "sudo" {
        out.push(parse_opts(&cmd.args, &SUDO));
    }
    out
}

/// stdin, askpass, shell, list, login.
/// The first command that passes `pred`, quoted with its `sudo` and sudo's flags.
fn with_sudo(analysis: &Analysis, pred: fn(&Command) -> bool) -> Option<String> {
    // `display` already shows the wrappers, sudo's flags included.
    analysis
        .commands
        .iter()
        .find(|c| pred(c))
        .map(Command::display)
}

const PRIVILEGE_FLAGS: &[char] = &['S', 'A', 's', 'l', 'i'];
const PRIVILEGE_LONGS: &[(&str, usize)] = &[
    ("stdin", 2),
    ("askpass", 2),
    ("shell", 2),
    ("list", 3),
    ("login", 5),
];

fn sudo_privilege_flag(cmd: &Command) -> bool {
    sudo_opts(cmd).iter().any(|o| {
        o.clusters
            .iter()
            .any(|cl| cl.len() == 1 && PRIVILEGE_FLAGS.contains(&cl[0]))
            || PRIVILEGE_LONGS.iter().any(|(name, min)| o.long(name, *min))
    })
}

fn sudo_combined_flag(cmd: &Command) -> bool {
    sudo_opts(cmd).iter().any(|o| {
        o.clusters
            .iter()
            .any(|cl| cl.len() > 1 && cl.iter().any(|c| PRIVILEGE_FLAGS.contains(c)))
    })
}

fn sudo_stdin(cmd: &Command) -> bool {
    sudo_opts(cmd)
        .iter()
        .any(|o| o.flag('S') || o.long("stdin", 2))
}

// ---------------------------------------------------------------------------
// Package managers.

/// Options of package managers that take a value and come before the verb.
#[rustfmt::skip]
const PACKAGE: Spec = Spec::gnu("CwF", &["prefix", "dir", "cwd", "workspace", "filter", "registry", "userconfig", "python", "directory", "manifest-path", "config"]);

/// The package manager's verb and what follows it (`yarn global remove x`
/// gives `remove`; `python3 -m pip uninstall x` gives `uninstall`).
fn package_verb(cmd: &Command) -> Option<(&str, Vec<&str>)> {
    let ops = if cmd.program.starts_with("python") {
        let module = cmd.args.iter().position(|a| a == "-m")?;
        let name = cmd.args.get(module + 1)?;
        if !matches!(name.as_str(), "pip" | "pip3") {
            return None;
        }
        parse_opts(&cmd.args[module + 2..], &PACKAGE).operands
    } else {
        parse_opts(&cmd.args, &PACKAGE).operands
    };
    let skip = match (cmd.program.as_str(), ops.first()) {
        ("yarn", Some(&"global"))
        | ("yarn", Some(&"npm"))
        | ("uv", Some(&"pip"))
        | ("uv", Some(&"tool"))
        | ("dotnet", Some(&"nuget")) => 1,
        _ => 0,
    };
    let verb = *ops.get(skip)?;
    Some((verb, ops[skip + 1..].to_vec()))
}

/// A removal whose scope is the user's or the system's, not a project's:
/// npm, pnpm and bun with `-g`, `yarn global`, pip as root, through the
/// system's own pip or past the distribution's `--break-system-packages`
/// guard (without those, pip on a distribution's python refuses, so a bare
/// `pip uninstall` works in an environment of its user's), `uv pip
/// --system`, and the tools that only install globally (`cargo uninstall`,
/// `pipx`, `gem`, `uv tool`).
fn package_uninstall(cmd: &Command) -> bool {
    let Some((verb, _)) = package_verb(cmd) else {
        return false;
    };
    let o = parse_opts(&cmd.args, &PACKAGE);
    let global =
        o.flag('g') || o.long("global", 3) || o.long_value("location", 3) == Some("global");
    let removes = |verbs: &[&str]| verbs.contains(&verb);
    match cmd.program.as_str() {
        "npm" => global && removes(&["uninstall", "unlink", "remove", "rm", "r", "un"]),
        "pnpm" | "bun" => global && removes(&["remove", "rm", "uninstall", "un"]),
        "yarn" => o.operands.first() == Some(&"global") && removes(&["remove", "uninstall"]),
        "uv" => {
            let scope = match o.operands.first() {
                Some(&"pip") => o.long("system", 3) || o.long("break-system-packages", 3),
                Some(&"tool") => true,
                _ => false,
            };
            scope && removes(&["uninstall"])
        }
        "pipx" => removes(&["uninstall", "uninstall-all"]),
        "cargo" | "gem" => removes(&["uninstall"]),
        _ => removes(&["uninstall"]) && system_pip(cmd),
    }
}

/// pip run on the system's python: as root, by the system's path, or past
/// the distribution's guard.
fn system_pip(cmd: &Command) -> bool {
    let system_path = ["/usr/bin/", "/bin/", "/usr/sbin/"]
        .iter()
        .any(|dir| cmd.path.starts_with(dir));
    runs_sudo(cmd)
        || cmd.wrapped_by("doas")
        || system_path
        || cmd.has_long("--break-system-packages")
}

fn package_publish(cmd: &Command) -> bool {
    // A dry run (cargo's `-n` is its short form) builds and checks, and uploads nothing.
    let cargo_dry = cmd.program == "cargo" && cmd.args.iter().any(|a| a == "-n");
    if cargo_dry || parse_opts(&cmd.args, &PACKAGE).long("dry-run", 3) {
        return false;
    }
    let Some((verb, _)) = package_verb(cmd) else {
        return false;
    };
    match cmd.program.as_str() {
        "npm" | "pnpm" | "yarn" | "bun" => matches!(verb, "publish" | "unpublish"),
        "twine" => verb == "upload",
        "gem" | "dotnet" => verb == "push",
        _ => verb == "publish",
    }
}

/// A package installed from a file rather than a repository.
fn installs_local_package(cmd: &Command) -> bool {
    const SUFFIXES: &[&str] = &[
        ".deb",
        ".rpm",
        ".snap",
        ".apk",
        ".txz",
        ".pkg",
        ".pkg.tar.zst",
        ".pkg.tar.xz",
        ".pkg.tar.gz",
    ];
    let file = || {
        cmd.operands()
            .iter()
            .any(|o| SUFFIXES.iter().any(|s| o.ends_with(s)))
    };
    let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    let first_operand = cmd.operands().first().copied().unwrap_or("");
    match cmd.program.as_str() {
        "dpkg" => args.iter().any(|a| {
            *a == "--install" || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
        }),
        "rpm" => {
            args.iter().any(|a| {
                matches!(*a, "--install" | "--upgrade" | "--freshen" | "--reinstall")
                    || a.starts_with('-') && !a.starts_with("--") && a.contains(['i', 'U', 'F'])
            }) && !args.iter().any(|a| a.starts_with("-q") || *a == "--query")
        }
        // `-Uh` asks pacman for help, not to install.
        "pacman" => args.iter().any(|a| {
            *a == "--upgrade"
                || (a.starts_with('-')
                    && !a.starts_with("--")
                    && a.contains('U')
                    && !a.contains('h'))
        }),
        "installer" => args.contains(&"-pkg"),
        "apt" | "apt-get" | "dnf" | "yum" | "zypper" | "pkg" | "snap" | "apk" => {
            matches!(
                first_operand,
                "install" | "localinstall" | "reinstall" | "in" | "add" | "upgrade"
            ) && file()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Wrapper;

    fn sudo(flags: &[&str], line: &str) -> Command {
        let mut c = Command::from_words(line);
        c.wrappers.push(Wrapper {
            name: "sudo".into(),
            args: flags.iter().map(|s| s.to_string()).collect(),
        });
        c
    }

    #[test]
    fn parser_sorts_values_from_flags() {
        let args: Vec<String> = [
            "-nu",
            "root",
            "-p",
            "x",
            "--user=bob",
            "--host",
            "h",
            "cmd",
            "-S",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let o = parse_opts(&args, &SUDO);
        assert_eq!(o.clusters, vec![vec!['n'], vec![]]);
        assert_eq!(o.values, vec![('u', "root"), ('p', "x")]);
        assert_eq!(o.longs, vec![("user", Some("bob")), ("host", Some("h"))]);
        // Not permuting: `-S` belongs to the command, not to sudo.
        assert_eq!(o.operands, vec!["cmd", "-S"]);
        assert_eq!(o.first_operand, Some(7));
    }

    #[test]
    fn sudo_flags_are_sudos_own() {
        assert!(sudo_stdin(&sudo(&["-S"], "apt-get install x")));
        assert!(sudo_stdin(&sudo(&["-nS"], "id")));
        assert!(sudo_stdin(&sudo(&["--stdin"], "id")));
        assert!(sudo_stdin(&Command::from_words("sudo -k -S")));
        assert!(!sudo_stdin(&sudo(&["-uSam"], "id")));
        assert!(!sudo_stdin(&sudo(&[], "smartctl -S on /dev/sda")));
        assert!(!sudo_privilege_flag(&sudo(&[], "iotop -a")));
        assert!(!sudo_combined_flag(&sudo(&[], "smartctl -al /dev/sda")));
        assert!(sudo_privilege_flag(&Command::from_words("sudo -i")));
        assert!(sudo_privilege_flag(&sudo(
            &["-u", "postgres", "-i"],
            "psql"
        )));
        assert!(!sudo_privilege_flag(&sudo(&["-ulisa"], "id")));
        assert!(sudo_combined_flag(&sudo(&["-Es"], "make")));
        assert!(!sudo_combined_flag(&sudo(&["-s"], "make")));
    }

    #[test]
    fn signals_are_not_flag_clusters() {
        assert!(killall_force(&Command::from_words("killall -SIGKILL x")));
        assert!(!killall_regex(&Command::from_words("killall -SIGTERM x")));
        assert!(!killall_regex(&Command::from_words("killall -HUP x")));
        assert!(killall_regex(&Command::from_words("killall -ir x")));
        assert!(killall_signal_kill(&Command::from_words(
            "killall -s KILL x"
        )));
        assert!(!killall_signal_kill(&Command::from_words(
            "killall -u kill x"
        )));
        assert!(!pkill_force(&Command::from_words("pkill -s 9 node")));
    }

    #[test]
    fn pid_lookup_literals_are_what_the_regexes_need() {
        let pieces = ["$(", "`", " ", "sudo", "pgrep", "pidof", "x", "\u{a0}", "("];
        // Every string of up to four pieces (some more than once).
        let mut args = vec![String::new()];
        for _ in 0..4 {
            let longer = args
                .iter()
                .flat_map(|a| pieces.iter().map(move |p| format!("{a}{p}")));
            args = longer.chain(args.iter().cloned()).collect();
        }
        let mut matched = 0;
        for arg in args {
            for (re, opener) in [(&*PID_LOOKUP, "$("), (&*PID_LOOKUP_BACKTICK, "`")] {
                if re.is_match(&arg) {
                    matched += 1;
                    assert!(could_look_up(&arg, opener), "{arg:?}");
                }
            }
        }
        assert!(matched > 100, "{matched}");
    }

    #[test]
    fn services_and_packages() {
        assert!(service_stop(&Command::from_words(
            "systemctl -H host stop nginx"
        )));
        assert!(!service_stop(&Command::from_words(
            "systemctl is-active stop"
        )));
        assert!(!service_stop(&Command::from_words(
            "systemctl -p stop show nginx"
        )));
        assert!(hermes_gateway_stop(&Command::from_words(
            "systemctl --user restart hermes-gateway"
        )));
        // The verb is found past options with values; a project's own
        // dependency is routine, a global one is not.
        assert!(package_uninstall(&Command::from_words(
            "npm --prefix ./app uninstall -g left-pad"
        )));
        assert!(!package_uninstall(&Command::from_words(
            "npm --prefix ./app uninstall left-pad"
        )));
        assert!(!package_uninstall(&Command::from_words(
            "npm run uninstall"
        )));
        assert!(!package_uninstall(&Command::from_words(
            "python3 -m pip uninstall x"
        )));
        assert!(package_uninstall(&Command::from_words(
            "python3 -m pip uninstall --break-system-packages x"
        )));
        assert!(package_uninstall(&Command::from_words(
            "/usr/bin/python3 -m pip uninstall x"
        )));
        assert!(!package_publish(&Command::from_words("npm publish --dry")));
    }
}
