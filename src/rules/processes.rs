//! Built-in rules: PID 1, the machine's power state and every process at once (init signalled, power-off and reboot asked of logind or systemd over D-Bus, the kernel's SysRq trigger, run levels, sleep, other users' sessions ended).

use super::opts::{parse_opts, Spec};
use super::services::systemctl_words;
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::{Command, RedirectOp};
use crate::verdict::Decision;

/// A D-Bus call to logind, systemd or ConsoleKit that powers the machine
/// off, halts it or restarts it: the same request `systemctl poweroff`
/// makes, without the program the floor already knows.
const BUS_POWER: &str = r"(?:login1|systemd1|ConsoleKit)\b.*(?:^|[ .])(?:PowerOff|Reboot|Halt|KExec|SoftReboot|Stop|Restart)(?:WithFlags)?(?: |$)";

/// A D-Bus call that puts the machine to sleep.
const BUS_SLEEP: &str = r"(?:login1|systemd1)\b.*(?:^|[ .])(?:Suspend|Hibernate|HybridSleep|SuspendThenHibernate|Sleep)(?:WithFlags)?(?: |$)";

/// Programs and arguments that stop or restart the whole machine.
#[rustfmt::skip]
static POWER: &[Verb] = &[
    verb("busctl", BUS_POWER),
    verb("dbus-send", BUS_POWER),
    verb("gdbus", BUS_POWER),
    verb("qdbus", BUS_POWER),
    verb("qdbus6", BUS_POWER),
    verb("qdbus-qt5", BUS_POWER),
    // The staged kernel replaces the running one: a reboot without firmware.
    verb("kexec", r"(?:^| )(?:-e|--exec|-f|--force)(?: |$)"),
    verb("launchctl", r"^reboot\b"),
    verb("osascript", r#"(?i)(?:system events|finder|loginwindow)"?\s+to\s+(?:shut down|restart)\b|aevtrsdn|aevtrrst"#),
    // Desktop sessions' own power menus.
    verb("gnome-session-quit", r"(?:^| )--(?:power-off|reboot)\b"),
    verb("xfce4-session-logout", r"(?:^| )(?:--halt|--reboot|-h|-r)\b"),
    verb("mate-session-save", r"(?:^| )--shutdown-dialog\b"),
];

/// Run levels, rescue and emergency modes, and sleep.
#[rustfmt::skip]
static RUNLEVEL: &[Verb] = &[
    verb_if("systemctl", "", systemctl_leaves_state),
    verb("telinit", r"^(?:-[et] \S+ )*(?:[1-5sS]|single)$"),
    verb("init", r"^(?:[1-5sS]|single)$"),
    verb("busctl", BUS_SLEEP),
    verb("dbus-send", BUS_SLEEP),
    verb("gdbus", BUS_SLEEP),
    verb("qdbus", BUS_SLEEP),
    verb("pmset", r"^(?:sleepnow|restoredefaults)\b|(?:^| )(?:schedule|repeat) (?:shutdown|sleep|restart|wake|poweron|wakeorpoweron)\b"),
    verb("rtcwake", r"(?:^| )(?:-m|--mode)[ =]?(?:standby|freeze|mem|disk|off)\b"),
    verb("zzz", ""),
];

/// Sessions and every process of another user ended.
#[rustfmt::skip]
static SESSIONS: &[Verb] = &[
    verb("loginctl", r"^(?:-\S+ )*(?:kill-session|kill-user|terminate-session|terminate-user|terminate-seat)\b"),
    verb_if("pkill", "", kills_a_users_processes),
    verb_if("killall", "", kills_a_users_processes),
];

/// Part of the floor: PID 1 signalled, and the power requests that reach
/// the same end as `shutdown` and `reboot`.
#[rustfmt::skip]
pub static FLOOR: &[Rule] = &[
    Rule {
        id: "hardline.kill-init",
        category: "signal PID 1 (init, systemd, launchd)",
        reason: "init ends, reboots or powers off the machine on these signals, and every process goes with it",
        decision: Decision::Block,
        matcher: Matcher::Check { programs: &["kill", "pkill", "killall"], check: signals_init },
        hits: &["kill -9 1", "sudo kill -SIGKILL 1", "kill -63 1", "sudo kill -s TERM 1", "kill -KILL -- 1", "sudo kill -INT 1", "kill 1", "sudo killall -9 systemd", "sudo pkill -KILL init", "pkill -x launchd"],
        misses: &["kill -0 1", "kill -l 1", "kill 12345", "kill -9 11", "kill -TERM 4242 4243", "pkill systemd-resolve", "killall node", "echo kill -9 1"],
    },
    Rule {
        id: "hardline.power-request",
        category: "power off, halt or reboot through D-Bus, kexec, launchd or System Events",
        reason: "it stops or restarts the whole machine, as shutdown and reboot do",
        decision: Decision::Block,
        matcher: Matcher::Verbs(POWER),
        hits: &["busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager PowerOff b false", "busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager Reboot b true", "dbus-send --system --print-reply --dest=org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager.PowerOff boolean:true", "gdbus call --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1 --method org.freedesktop.login1.Manager.Reboot true", "dbus-send --system --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.Halt", "sudo kexec -e", "sudo launchctl reboot", "launchctl reboot userspace", "osascript -e 'tell app \"System Events\" to shut down'", "osascript -e 'tell application \"System Events\" to restart'", "osascript -e 'tell application \"Finder\" to shut down'", "gnome-session-quit --power-off --force", "xfce4-session-logout --reboot"],
        misses: &["busctl list", "busctl status", "busctl tree org.freedesktop.login1", "busctl introspect org.freedesktop.login1 /org/freedesktop/login1", "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager RestartUnit ss nginx.service replace", "gdbus introspect --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1", "kexec -l /boot/vmlinuz", "launchctl list", "osascript -e 'tell application \"Safari\" to quit'"],
    },
    Rule {
        id: "hardline.sysrq-trigger",
        category: "write to the kernel's SysRq trigger",
        reason: "the kernel acts at once: reboot, power off, crash, kill every process or remount every disk read-only",
        decision: Decision::Block,
        matcher: Matcher::Check { programs: &[], check: writes_sysrq },
        hits: &["echo b > /proc/sysrq-trigger", "echo o | sudo tee /proc/sysrq-trigger", "sudo sh -c 'echo c > /proc/sysrq-trigger'", "printf e >> /proc/sysrq-trigger"],
        misses: &["cat /proc/sys/kernel/sysrq", "ls -l /proc/sysrq-trigger", "echo b > sysrq-trigger.txt", "grep sysrq /etc/sysctl.conf"],
    },
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "processes.change-runlevel",
        category: "switch run level, rescue or emergency mode, or put the machine to sleep",
        reason: "services and sessions stop, this one included, until someone at the machine brings them back",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(RUNLEVEL),
        hits: &["systemctl isolate rescue.target", "sudo systemctl isolate multi-user.target", "systemctl rescue", "sudo systemctl emergency", "systemctl suspend", "systemctl hibernate", "sudo systemctl set-default rescue.target", "systemctl set-default reboot.target", "sudo telinit 1", "init S", "busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager Suspend b true", "pmset sleepnow", "sudo pmset schedule shutdown \"12/31/2026 23:00:00\"", "rtcwake -m mem -s 60"],
        misses: &["systemctl get-default", "sudo systemctl set-default multi-user.target", "systemctl list-dependencies rescue.target", "systemctl status", "telinit q", "git init", "pmset -g", "pmset -g batt", "pmset displaysleepnow", "pmset schedule cancelall", "rtcwake -m show", "runlevel"],
    },
];

/// After the `system` table, whose force-kill rules say more about a
/// `pkill -9 -u bob` than that it ends a user's processes.
#[rustfmt::skip]
pub static SESSION_RULES: &[Rule] = &[
    Rule {
        id: "processes.end-sessions",
        category: "end another user's sessions or every process of a user",
        reason: "everything that user is running stops at once, unsaved work included",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SESSIONS),
        hits: &["loginctl kill-session 2", "sudo loginctl terminate-user bob", "loginctl kill-user bob --signal=KILL", "sudo pkill -u bob", "killall -u bob"],
        misses: &["loginctl list-sessions", "loginctl session-status", "loginctl show-session 2 -p Type", "pkill -u bob node", "killall -u bob firefox", "pgrep -u bob"],
    },
];

// ---------------------------------------------------------------------------
// Signals.

/// `kill`'s signal, when one is given, and its operands: `None` for a
/// listing (`-l`, `-L`).
pub(super) fn kill_targets(args: &[String]) -> Option<(Option<&str>, &[String])> {
    let mut rest = args;
    let mut signal = None;
    match rest.first().map(String::as_str) {
        Some("-s" | "-n" | "--signal") => {
            signal = rest.get(1).map(String::as_str);
            rest = rest.get(2..).unwrap_or(&[]);
        }
        Some("-l" | "-L" | "--list" | "--table") => return None,
        Some(a) if a.starts_with("--signal=") => {
            signal = a.split_once('=').map(|(_, s)| s);
            rest = &rest[1..];
        }
        // With more arguments, a leading `-N` or `-NAME` is the signal.
        Some(a) if a.starts_with('-') && a != "--" && rest.len() > 1 => {
            signal = Some(&a[1..]);
            rest = &rest[1..];
        }
        _ => {}
    }
    if rest.first().is_some_and(|a| a == "--") {
        rest = &rest[1..];
    }
    Some((signal, rest))
}

/// Names PID 1 goes by, as a `pkill`/`killall` pattern.
#[rustfmt::skip]
const INIT_NAMES: &[&str] = &["init", "systemd", "launchd", "upstart", "openrc-init", "runit"];

#[rustfmt::skip]
const PKILL: Spec = Spec::gnu("sugUGPtFcn", &["signal", "euid", "uid", "group", "pgroup", "parent", "session", "terminal", "pidfile", "ns", "nslist", "cgroup"]);
#[rustfmt::skip]
const KILLALL: Spec = Spec::gnu("suoyZ", &["signal", "user", "older-than", "younger-than", "context"]);

fn pattern_opts(cmd: &Command) -> super::opts::Opts<'_> {
    let spec = if cmd.program == "pkill" {
        &PKILL
    } else {
        &KILLALL
    };
    parse_opts(&cmd.args, spec)
}

/// `kill SIGNAL 1` (any signal but 0), or `pkill`/`killall` of init by name.
fn signals_init(cmd: &Command) -> bool {
    if cmd.program == "kill" {
        return kill_targets(&cmd.args).is_some_and(|(signal, pids)| {
            let probe = signal.is_some_and(|s| matches!(s, "0" | "SIG0"));
            !probe && pids.iter().any(|p| p == "1")
        });
    }
    pattern_opts(cmd).operands.iter().any(|p| {
        let name = p.trim_start_matches('^').trim_end_matches('$');
        INIT_NAMES.contains(&name)
    })
}

/// A pattern every process name matches.
fn matches_every_name(pattern: &str) -> bool {
    let core = pattern.trim_start_matches('^').trim_end_matches('$');
    matches!(core, "" | "." | ".*" | ".+" | "*")
}

/// How the caller's own account is written when it is not resolved.
#[rustfmt::skip]
const SELF_OR_ROOT: &[&str] = &["root", "0", "$USER", "${USER}", "$LOGNAME", "${LOGNAME}", "$(whoami)", "`whoami`", "$(id -un)", "$(id -u)", "$UID", "${UID}"];

/// The user a `pkill -u`/`killall -u` with no name pattern selects: all of
/// that user's processes.
fn whole_user(cmd: &Command) -> Option<&str> {
    let opts = pattern_opts(cmd);
    if !opts.operands.is_empty() {
        return None;
    }
    opts.value('u')
        .or(opts.value('U'))
        .or(opts.long_value("euid", 4))
        .or(opts.long_value("uid", 3))
        .or(opts.long_value("user", 4))
}

/// `pkill`/`killall` of every process: a pattern that matches every name,
/// or every process of root or of the caller; `killall5`, which signals
/// every process outside its own session.
pub(super) fn kills_everything(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "killall5" => !cmd.args.iter().any(|a| a == "-0"),
        "pkill" | "killall" => {
            let opts = pattern_opts(cmd);
            let regex = cmd.program == "pkill" || opts.flag('r') || cmd.has_long("--regexp");
            let every = regex && opts.operands.iter().any(|p| matches_every_name(p));
            every || whole_user(cmd).is_some_and(|u| SELF_OR_ROOT.contains(&u))
        }
        _ => false,
    }
}

fn kills_a_users_processes(cmd: &Command) -> bool {
    whole_user(cmd).is_some_and(|u| !SELF_OR_ROOT.contains(&u))
}

// ---------------------------------------------------------------------------
// Power and run levels.

fn writes_sysrq(cmd: &Command) -> bool {
    const TRIGGER: &str = "/proc/sysrq-trigger";
    let redirected = cmd
        .redirects
        .iter()
        .any(|r| matches!(r.op, RedirectOp::Write | RedirectOp::Append) && r.target == TRIGGER);
    redirected || (cmd.program == "tee" && cmd.operands().contains(&TRIGGER))
}

/// `systemctl isolate`, `rescue`, `emergency`, `default` and the sleep
/// verbs.
fn systemctl_leaves_state(cmd: &Command) -> bool {
    systemctl_words(cmd).is_some_and(|(verb, units)| {
        // A default target the machine cannot be used in, or never stays up in.
        let bad_default = verb == "set-default"
            && units.first().is_some_and(|t| {
                let t = t.trim_end_matches(".target");
                matches!(
                    t,
                    "rescue" | "emergency" | "poweroff" | "reboot" | "halt" | "kexec"
                ) || t.starts_with("runlevel")
                    && matches!(t.as_bytes().last(), Some(b'0' | b'1' | b'6'))
            });
        bad_default
            || matches!(
                verb.as_str(),
                "isolate"
                    | "rescue"
                    | "emergency"
                    | "default"
                    | "suspend"
                    | "hibernate"
                    | "hybrid-sleep"
                    | "suspend-then-hibernate"
                    | "sleep"
                    | "switch-root"
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kill_arguments() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let a = args(&["-s", "KILL", "--", "1"]);
        let (signal, pids) = kill_targets(&a).expect("a kill");
        assert_eq!(signal, Some("KILL"));
        assert_eq!(pids, &a[3..]);
        assert!(kill_targets(&args(&["-l"])).is_none());
        let one = args(&["-9"]);
        assert_eq!(kill_targets(&one).map(|(s, _)| s), Some(None));
    }

    #[test]
    fn everything_patterns() {
        assert!(matches_every_name("^.*$") && matches_every_name(""));
        assert!(!matches_every_name("node") && !matches_every_name("^n.*"));
    }
}
