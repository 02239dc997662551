//! Built-in rules: security controls switched off (mandatory access control, audit, firewalls, endpoint agents, Gatekeeper, quarantine, backups, disk encryption, immutable flags), one row per program and subcommand.
//!
//! `setenforce 0`, `aa-teardown`, `auditctl -D`, `spctl --master-disable`,
//! `csrutil disable` and the firewall flushes are `admin.security-disable`
//! and `admin.firewall-*`; this table holds the rest of the family, and the
//! helper every family uses to tell which service a call stops.

use super::opts::parse_opts;
use super::system::SYSTEMCTL;
use super::targets::{classify, Target};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs and arguments that switch a security control off, loosen it,
/// or stop the agent that enforces it. Status, listing and turning things
/// back on are their everyday neighbours.
#[rustfmt::skip]
static OFF: &[Verb] = &[
    // SELinux: a domain made permissive, booleans loosened, policy modules
    // disabled, removed or added, and the kernel told to boot without it.
    verb("semanage", r"(?:^| )permissive (?:.* )?(?:-a|--add)(?: |$)"),
    verb("semanage", r"(?:^| )boolean (?:.* )?(?:--on|-1)(?: |$)"),
    verb("setsebool", r"(?i)(?:^| )(?:\S+=)?(?:1|on|true)(?: |$)"),
    verb("togglesebool", ""),
    verb("semodule", r"(?:^| )(?:-[a-zA-Z]*[dri]\S*|--(?:disable|remove|install)\S*)(?: |$)"),
    verb("grubby", r"(?:^| )--args[= ](?:.* )?(?:(?:selinux|enforcing|apparmor|audit)=0|security=none)\b"),
    verb("kernelstub", r"(?:^| )(?:-a|--add-options)[= ](?:.* )?(?:(?:selinux|enforcing|apparmor|audit)=0|security=none)\b"),
    // macOS's audit daemon told to terminate.
    verb("audit", r"(?:^| )-t(?: |$)"),
    // Endpoint agents (EDR, antivirus, host monitoring) disabled, unloaded,
    // uninstalled or told to let things through.
    verb("falconctl", r"(?:^| )(?:-d\S*|--delete\S*|unload|uninstall|disable\S*)(?: |$)"),
    verb("mdatp", r"^(?:config (?:\S+ )+(?:--value )?(?:disabled|off|false|audit|passive)\b|config passive-mode (?:--value )?(?:enabled|on|true)\b|exclusion \S+ add\b|threat allowed add\b|uninstall\b)"),
    verb("sentinelctl", r"^(?:-\S+ )*(?:unload|unprotect|uninstall|protect off|control (?:stop|unload|shutdown|disable)|engines disable|agent (?:stop|disable))\b"),
    verb("osqueryctl", r"^(?:stop|disable)\b"),
    verb("wazuh-control", r"(?:^| )stop(?: |$)"),
    verb("ossec-control", r"(?:^| )stop(?: |$)"),
    verb("elastic-agent", r"^(?:-\S+ )*uninstall\b"),
    verb("elastic-endpoint", r"^(?:-\S+ )*(?:uninstall|stop)\b"),
    verb("savdctl", r"(?:^| )disable(?: |$)"),
    verb("sysmon", r"(?i)(?:^| )-u(?: |$)"),
    // Device management's agent and its profiles removed from a Mac, and
    // the system extensions endpoint agents run as.
    verb("jamf", r"(?i)^removeframework\b"),
    verb("profiles", r"(?i)(?:^| )(?:remove|-R)(?: |$)"),
    verb("systemextensionsctl", r"^(?:-\S+ )*(?:uninstall|reset|developer on)\b"),
    // The agents' and controls' packages uninstalled.
    verb_if("apt", "", removes_security_package),
    verb_if("apt-get", "", removes_security_package),
    verb_if("yum", "", removes_security_package),
    verb_if("dnf", "", removes_security_package),
    verb_if("zypper", "", removes_security_package),
    verb_if("apk", "", removes_security_package),
    verb_if("pacman", "", removes_security_package),
    verb_if("dpkg", "", removes_security_package),
    verb_if("rpm", "", removes_security_package),
    verb_if("brew", "", removes_security_package),
    verb_if("snap", "", removes_security_package),
    // macOS: Gatekeeper told to pass an app or unsigned kernel extensions,
    // SIP partly off, code-signing enforcement off at boot.
    verb("spctl", r"(?:^| )(?:--add(?: |$)|kext-consent disable\b)"),
    verb("csrutil", r"(?:^| )enable (?:.* )?--without\b"),
    verb("nvram", r"boot-args=.*(?:amfi_get_out_of_my_way|cs_enforcement_disable)"),
    // Quarantine stripped, so Gatekeeper never checks what was downloaded.
    verb("xattr", r"(?:^| )-[a-z]*d[a-z]*(?: -\S+)* com\.apple\.(?:quarantine|provenance)(?: |$)"),
    verb_if("xattr", r"(?:^| )-[a-z]*c", clears_outside_project),
    // Backups and their snapshots, and disk encryption.
    verb("tmutil", r"^(?:-\S+ )*(?:disable|disablelocal|delete|deletelocalsnapshots|thinlocalsnapshots|removedestination|deleteinprogress)\b"),
    verb("fdesetup", r"^(?:-\S+ )*disable\b"),
    // Preferences that turn off quarantine, the application firewall,
    // Gatekeeper's re-arming, security data updates or library validation.
    verb_if("defaults", "", writes_protection_off),
    verb("socketfilterfw", r"(?i)--set(?:globalstate|loggingmode)(?:=| )(?:off|0)\b"),
    // Remote login and remote management switched on.
    verb("systemsetup", r"(?i)-setremote(?:login|appleevents) (?:on|yes)\b"),
    verb("kickstart", r"(?:^| )-activate\b"),
    // Immutable and append-only flags taken off a file outside the project.
    verb_if("chattr", r"(?:^| )(?:-[a-zA-Z]*[ia][a-zA-Z]*|=\S*)(?: |$)", outside_project),
    // A read-only system filesystem made writable.
    verb_if("mount", "", remounts_system_writable),
    // The agents' and controls' services stopped, disabled, masked or killed.
    verb_if("systemctl", "", halts_security),
    verb_if("service", "", halts_security),
    verb_if("rc-service", "", halts_security),
    verb_if("invoke-rc.d", "", halts_security),
    verb_if("update-rc.d", "", halts_security),
    verb_if("chkconfig", "", halts_security),
    verb_if("rc-update", "", halts_security),
    verb_if("launchctl", "", halts_security),
    verb_if("pkill", "", halts_security),
    verb_if("killall", "", halts_security),
    verb_if("kill", "", halts_security),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "security.controls-off",
        category: "switch off or loosen a security control (SELinux policy, audit, endpoint agent, Gatekeeper, quarantine, backups, encryption)",
        reason: "protection that contains untrusted code, or the record and backups that would show and undo what it did, stops working",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(OFF),
        hits: &["semanage permissive -a httpd_t", "setsebool -P httpd_execmem 1", "semodule -d sepgsql", "sudo grubby --update-kernel=ALL --args=selinux=0", "mdatp config real-time-protection --value disabled", "sudo mdatp exclusion folder add --path /tmp", "sudo /opt/CrowdStrike/falconctl -d -f --cid", "sentinelctl unload -a", "osqueryctl stop", "sudo systemctl stop falcon-sensor", "systemctl disable --now apparmor", "sudo service auditd stop", "sudo launchctl bootout system/com.microsoft.wdav.daemon", "killall osqueryd", "kill -9 $(pidof auditd)", "launchctl unload /Library/LaunchDaemons/at.obdev.littlesnitchd.plist", "sudo apt-get purge -y falcon-sensor", "sudo dnf remove audit", "brew uninstall --cask lulu", "systemextensionsctl uninstall X9E956P446 com.crowdstrike.falcon.Agent", "sudo profiles remove -identifier com.corp.security", "xattr -d com.apple.quarantine ~/Downloads/Tool.app", "xattr -rd com.apple.quarantine App.app", "xattr -cr /Applications/Thing.app", "tmutil disable", "tmutil deletelocalsnapshots /", "fdesetup disable", "defaults write com.apple.LaunchServices LSQuarantine -bool false", "defaults write /Library/Preferences/com.apple.alf globalstate -int 0", "socketfilterfw --setglobalstate off", "systemsetup -setremotelogin on", "spctl --add /Applications/X.app", "csrutil enable --without fs", "chattr -i /etc/hosts", "chattr -a /var/log/auth.log", "mount -o remount,rw /", "mount -uw /"],
        misses: &["sestatus", "semanage port -l", "setsebool -P httpd_execmem 0", "semodule -l", "getsebool -a", "mdatp health", "mdatp config real-time-protection --value enabled", "falconctl -g --aid", "osqueryctl status", "systemctl status falcon-sensor", "systemctl restart auditd", "systemctl stop redis-sentinel", "pkill -f pytest", "apt-get remove nginx", "brew uninstall wget", "systemextensionsctl list", "profiles list", "kill -9 $(pidof node)", "xattr -l file.zip", "xattr -d com.example.tag notes.txt", "xattr -cr build/MyApp.app", "xattr -cr ~/Library/Developer/Xcode/DerivedData", "tmutil listbackups", "tmutil addexclusion node_modules", "fdesetup status", "defaults read com.apple.LaunchServices", "defaults write com.apple.dock autohide -bool true", "socketfilterfw --getglobalstate", "systemsetup -getremotelogin", "spctl --status", "csrutil status", "lsattr /etc/passwd", "chattr +i /etc/resolv.conf", "chattr -i build/lock", "mount -o remount,rw /mnt/usb", "mount"],
    },
];

/// Preference keys whose value turns a protection off, and that value:
/// downloads' quarantine, the application firewall (in `com.apple.alf`),
/// Gatekeeper's re-arming, security data updates, library validation.
#[rustfmt::skip]
const PROTECTION_KEYS: &[(&str, &[&str])] = &[
    ("lsquarantine", &["false", "no", "0"]),
    ("globalstate", &["0"]),
    ("gkautorearm", &["false", "no", "0"]),
    ("configdatainstall", &["false", "no", "0"]),
    ("criticalupdateinstall", &["false", "no", "0"]),
    ("disablelibraryvalidation", &["true", "yes", "1"]),
];

/// `defaults write DOMAIN KEY [-TYPE] VALUE` setting a key of
/// [`PROTECTION_KEYS`] to the value that turns its protection off.
fn writes_protection_off(cmd: &Command) -> bool {
    let ops = cmd.operands();
    let [verb, domain, key, ..] = ops.as_slice() else {
        return false;
    };
    let key = key.to_ascii_lowercase();
    let value = cmd.args.last().map(|v| v.to_ascii_lowercase());
    *verb == "write"
        && (key != "globalstate" || domain.contains("com.apple.alf"))
        && PROTECTION_KEYS
            .iter()
            .any(|(k, off)| *k == key && value.as_deref().is_some_and(|v| off.contains(&v)))
}

/// Whether `cmd` clears every attribute (quarantine with them) from a file
/// outside the project: clearing a build's own products for code signing
/// (the project, Xcode's `DerivedData`) is routine.
fn clears_outside_project(cmd: &Command) -> bool {
    cmd.operands().iter().any(|p| {
        !in_project(p, cmd)
            && classify(p, cmd.cwd.as_deref()) != Target::Cache
            && !p.contains("/DerivedData")
            && !p.contains("/Library/Developer/")
    })
}

fn in_project(path: &str, cmd: &Command) -> bool {
    matches!(
        classify(path, cmd.cwd.as_deref()),
        Target::Project | Target::WorkingDir
    )
}

/// Whether a file `cmd` names lies outside the project and the places
/// tools refill or throw away.
fn outside_project(cmd: &Command) -> bool {
    cmd.operands().iter().any(|p| {
        !p.starts_with('=')
            && !matches!(
                classify(p, cmd.cwd.as_deref()),
                Target::Project | Target::WorkingDir | Target::Temp | Target::Cache
            )
    })
}

/// `mount -o remount,rw /` (Linux) or `mount -uw /` (macOS): a system
/// filesystem kept read-only, to protect it, made writable.
fn remounts_system_writable(cmd: &Command) -> bool {
    let mut remount = false;
    let mut writable = false;
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        let options = match arg.as_str() {
            "-o" | "--options" => args.next().map(String::as_str),
            a => a.strip_prefix("--options=").or_else(|| {
                a.strip_prefix("-o")
                    .filter(|_| !a.starts_with("--"))
                    .filter(|v| !v.is_empty())
            }),
        };
        if let Some(options) = options {
            remount |= options.split(',').any(|o| o == "remount");
            writable |= options.split(',').any(|o| o == "rw");
        } else if let Some(flags) = arg.strip_prefix('-').filter(|f| !f.starts_with('-')) {
            remount |= flags.contains('u');
            writable |= flags.contains('w');
        }
    }
    remount
        && writable
        && cmd
            .operands()
            .last()
            .is_some_and(|p| matches!(classify(p, None), Target::Root | Target::System))
}

// ---------------------------------------------------------------------------
// Services stopped, shared with the other families' tables.

/// Verbs that leave a service stopped or kept from starting; a restart
/// leaves it running, so it is not one of them.
const HALT: &[&str] = &["stop", "disable", "mask", "kill"];

/// The services a call stops, disables, masks or kills by name, as written:
/// `systemctl stop X`, `service X stop`, `launchctl unload X.plist`,
/// `update-rc.d X disable`, `chkconfig X off`, `rc-update del X`,
/// `pkill X`, `killall X`. Empty for anything else.
pub(super) fn halted(cmd: &Command) -> Vec<&str> {
    let opts = parse_opts(&cmd.args, &SYSTEMCTL);
    let ops = opts.operands;
    let verb_then_units = |verbs: &[&str]| match ops.split_first() {
        Some((verb, units)) if verbs.contains(verb) => units.to_vec(),
        _ => Vec::new(),
    };
    let unit_then_verb = |verbs: &[&str]| match ops.as_slice() {
        [unit, verb, ..] if verbs.contains(verb) => vec![*unit],
        _ => Vec::new(),
    };
    match cmd.program.as_str() {
        "systemctl" => verb_then_units(HALT),
        "service" | "rc-service" | "invoke-rc.d" => {
            unit_then_verb(&["stop", "disable", "teardown"])
        }
        "update-rc.d" => unit_then_verb(&["disable", "remove"]),
        "chkconfig" if cmd.args.iter().any(|a| a == "--del") => ops,
        "chkconfig" => unit_then_verb(&["off"]),
        "rc-update" => verb_then_units(&["del", "delete"]),
        "launchctl" => verb_then_units(&["stop", "unload", "bootout", "remove", "disable", "kill"]),
        "pkill" | "killall" => ops,
        // `kill $(pidof auditd)`: the name is inside the substitution.
        "kill" => ops
            .into_iter()
            .filter(|a| a.contains("$(") || a.contains('`'))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a unit, label, plist or process name is one of `names`, whole
/// (`elastic-agent`) or as one of its words (`falcon` in `falcon-sensor`,
/// `wdav` in `com.microsoft.wdav.daemon`), ignoring its directory and its
/// `.service`/`.plist` ending. A word may also begin with a name of six
/// letters or more: daemons add a `d` or more (`falcond`, `osqueryd`,
/// `littlesnitchd`, `XprotectService`).
pub(super) fn names_one_of(unit: &str, names: &[&str]) -> bool {
    let base = unit.rsplit('/').next().unwrap_or(unit).to_ascii_lowercase();
    let base = [".service", ".socket", ".timer", ".plist", ".target"]
        .iter()
        .find_map(|s| base.strip_suffix(s))
        .unwrap_or(&base);
    names.contains(&base)
        || base
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .any(|w| {
                names
                    .iter()
                    .any(|n| w == *n || (n.len() >= 6 && w.starts_with(n)))
            })
}

/// Security controls and endpoint agents, by service, label or process name.
#[rustfmt::skip]
const SECURITY_SERVICES: &[&str] = &[
    "auditd", "apparmor", "firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter",
    "falcon", "falcond", "crowdstrike", "osqueryd", "osquery", "wazuh", "ossec", "clamav", "clamd",
    "freshclam", "sysmon", "sysmonforlinux", "mdatp", "wdav", "wdavdaemon", "sentinelone",
    "sentineld", "auditbeat", "fail2ban", "cbagentd", "carbonblack", "cbdaemon", "sophos", "savd",
    "mfetpd", "tanium", "taniumclient", "cylancesvc", "xprotect", "alf", "mrt", "littlesnitch",
    "lulu", "tripwire", "snort", "suricata", "zeek", "elastic-agent", "elastic-endpoint",
    "qualys-cloud-agent", "ir_agent", "ds_agent", "syspolicyd", "opendns", "umbrella", "fresno",
];

/// Packages of security controls whose name is not their service's.
#[rustfmt::skip]
const SECURITY_PACKAGES: &[&str] = &[
    "audit", "apparmor", "selinux-policy", "selinux-policy-targeted", "sentinelagent", "little-snitch",
    "blockblock", "malwarebytes", "aide", "rkhunter", "chkrootkit",
];

/// A package manager's removal naming a security control's package:
/// `apt-get purge falcon-sensor`, `dnf remove audit`, `dpkg -r mdatp`,
/// `pacman -Rns apparmor`, `brew uninstall --cask lulu`. (Installing and
/// everything else are left to the package rules.)
fn removes_security_package(cmd: &Command) -> bool {
    let first = cmd.operands().first().copied().unwrap_or("");
    let flag = |flags: &[&str]| {
        cmd.args.iter().any(|a| {
            flags.contains(&a.as_str())
                || (cmd.program == "pacman" && a.starts_with("-R"))
                || (cmd.program == "rpm" && a.starts_with("-e"))
        })
    };
    let removes = match cmd.program.as_str() {
        "apt" | "apt-get" => matches!(first, "remove" | "purge" | "autoremove"),
        "yum" | "dnf" => matches!(first, "remove" | "erase" | "autoremove"),
        "zypper" => matches!(first, "remove" | "rm"),
        "apk" => first == "del",
        "brew" => matches!(first, "uninstall" | "remove" | "rm"),
        "snap" => first == "remove",
        "pacman" => flag(&["--remove"]),
        "dpkg" => flag(&["-r", "-P", "--remove", "--purge"]),
        "rpm" => flag(&["--erase"]),
        _ => false,
    };
    removes && names_security_package(cmd)
}

fn names_security_package(cmd: &Command) -> bool {
    cmd.operands().iter().any(|p| {
        let name = p.split(['=', ':']).next().unwrap_or(p);
        names_one_of(name, SECURITY_SERVICES) || SECURITY_PACKAGES.contains(&name)
    })
}

fn halts_security(cmd: &Command) -> bool {
    halted(cmd)
        .iter()
        .any(|u| names_one_of(u, SECURITY_SERVICES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_names() {
        assert!(names_one_of("falcon-sensor.service", SECURITY_SERVICES));
        assert!(names_one_of(
            "/Library/LaunchDaemons/com.crowdstrike.falcond.plist",
            SECURITY_SERVICES
        ));
        assert!(names_one_of("elastic-agent", SECURITY_SERVICES));
        assert!(!names_one_of("redis-sentinel", SECURITY_SERVICES));
        assert!(!names_one_of("nginx.service", SECURITY_SERVICES));
    }

    #[test]
    fn halting_verbs() {
        let halts = |p: &str, a: &[&str]| halted(&Command::new(p, a)).len();
        assert_eq!(halts("systemctl", &["--now", "disable", "auditd"]), 1);
        assert_eq!(halts("systemctl", &["restart", "auditd"]), 0);
        assert_eq!(halts("service", &["auditd", "stop"]), 1);
        assert_eq!(halts("chkconfig", &["auditd", "off"]), 1);
        assert_eq!(halts("chkconfig", &["auditd", "on"]), 0);
        assert_eq!(halts("launchctl", &["unload", "-w", "x.plist"]), 1);
    }
}
