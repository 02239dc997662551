//! Built-in rules: machine administration (firewalls, users and passwords, shell history, security controls).

use super::opts::{parse_opts, Spec, GNU};
use super::windows_script::{any_stmt, Stmt};
use super::{Matcher, Rule, Signs};
use crate::shell::{Command, RedirectOp};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "admin.firewall-flush",
        category: "flush firewall rules or open the default policy (iptables/nft/pfctl)",
        reason: "every port the rules kept closed is reachable from the network until they are restored",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft", "ebtables", "arptables", "nft", "pfctl"], check: firewall_flush },
        hits: &["iptables -A INPUT -j ACCEPT", "iptables -I INPUT 1 -j ACCEPT", "iptables -F", "sudo iptables -P INPUT ACCEPT", "iptables -t nat --flush", "ip6tables -X", "nft flush ruleset", "nft delete table inet filter", "pfctl -F all"],
        misses: &["iptables -L", "iptables -nvL INPUT", "iptables -S", "iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "iptables -P INPUT DROP", "nft list ruleset", "nft -c flush ruleset", "pfctl -sr", "echo iptables -F"],
    },
    Rule {
        id: "admin.firewall-disable",
        category: "disable or reset the firewall (ufw/pf/netsh/Windows Defender Firewall)",
        reason: "the machine is left with no packet filter, open to whatever the network sends",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["ufw", "pfctl", "firewall-cmd", "netsh", "set-netfirewallprofile", "powershell", "pwsh", "cmd", "socketfilterfw", "defaults"], check: firewall_disable },
        hits: &["ufw allow from any to any", "ufw allow 1:65535/tcp", "firewall-cmd --add-port=1-65535/tcp", "ufw disable", "ufw logging off", "sudo ufw --force reset", "ufw default allow incoming", "pfctl -d", "firewall-cmd --set-default-zone=trusted", "netsh advfirewall set allprofiles state off", "powershell Set-NetFirewallProfile -Profile Domain,Public -Enabled False"],
        misses: &["ufw allow from 10.0.0.0/8 to any port 22", "socketfilterfw --getglobalstate", "defaults read com.apple.alf", "ufw status verbose", "ufw enable", "ufw logging on", "ufw allow 22/tcp", "ufw --dry-run disable", "pfctl -e", "netsh advfirewall show allprofiles", "firewall-cmd --list-all"],
    },
    Rule {
        id: "admin.user-delete",
        category: "delete a user account (userdel/deluser)",
        reason: "the account is removed, and with it often its home directory and files",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["userdel", "deluser", "dscl", "sysadminctl", "net"], check: user_delete },
        hits: &["userdel -r bob", "sudo deluser --remove-home bob", "dscl . -delete /Users/bob", "sysadminctl -deleteUser bob", "net user bob /delete"],
        misses: &["userdel --help", "id bob", "getent passwd bob", "dscl . -read /Users/bob", "net user bob"],
    },
    Rule {
        id: "admin.password-change",
        category: "change another user's or root's password (passwd/chpasswd)",
        reason: "someone else's login secret is replaced or removed, locking them out or opening the account",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["passwd", "chpasswd", "chgpasswd", "usermod", "sysadminctl", "dscl", "net"], check: password_change },
        hits: &["passwd root", "sudo passwd bob", "sudo passwd", "passwd -d bob", "echo 'bob:hunter2' | chpasswd", "usermod -p '$6$x' bob", "sysadminctl -resetPasswordFor bob -newPassword x", "net user administrator *"],
        misses: &["passwd", "passwd -S bob", "passwd --status root", "passwd $USER", "echo passwd root", "man chpasswd", "usermod -aG docker bob", "net user bob"],
    },
    Rule {
        id: "admin.grant-admin",
        category: "add a user to an administrator group (sudo/wheel/admin) or give it uid 0",
        reason: "that account can then run anything as root",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["usermod", "useradd", "adduser", "addgroup", "gpasswd", "dseditgroup", "net"], check: grant_admin },
        hits: &["usermod -aG sudo bob", "usermod -a -G wheel bob", "usermod --append --groups=docker,sudo bob", "useradd -o -u 0 toor", "adduser bob sudo", "gpasswd -a bob wheel", "dseditgroup -o edit -a bob -t user admin", "net localgroup administrators bob /add"],
        misses: &["usermod -aG docker bob", "useradd -m -G developers alice", "adduser bob", "gpasswd -d bob sudo", "groups bob", "usermod -u 1001 bob", "net localgroup administrators"],
    },
    Rule {
        id: "admin.history-disable",
        category: "disable or clear shell history (history -c, unset HISTFILE, HISTSIZE=0)",
        reason: "the record of what was run is erased or never written, hiding it from review",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::SETS, check: disables_history },
        hits: &["history -c", "history -cw", "unset HISTFILE", "export HISTFILE=/dev/null", "HISTSIZE=0", "export HISTIGNORE='*'", "export HISTCONTROL=ignorespace", "export HISTSIZE=0 HISTFILESIZE=0", "set +o history", "HISTFILE= bash -i", "ls; HISTFILE=/dev/null"],
        misses: &["history | tail", "history 20", "echo $HISTFILE", "export HISTSIZE=10000", "export HISTCONTROL=ignoredups", "unset GOPATH", "HISTSIZE=0 ls", "echo 'HISTSIZE=0'", "grep HISTSIZE=0 ~/.bashrc", "set -o history"],
    },
    Rule {
        id: "admin.history-wipe",
        category: "delete or blank a shell history file",
        reason: "the record of commands run on this account is destroyed, hiding them from review",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &[], check: history_wipe },
        hits: &["rm ~/.bash_history", "rm -f ~/.zsh_history", "shred -u ~/.bash_history", "ln -sf /dev/null ~/.bash_history", "cat /dev/null > ~/.bash_history", "cp /dev/null ~/.zsh_history", "mv ~/.bash_history /tmp/h", "sed -i '/curl/d' ~/.bash_history", "echo | tee ~/.bash_history", "shred -u $HISTFILE"],
        misses: &["cat ~/.bash_history", "grep ssh ~/.bash_history", "cp ~/.bash_history ~/history-backup.txt", "history >> notes.txt", "rm ~/.bash_history.bak", "ln -s ~/.bash_history h.txt", "sed -n '/curl/p' ~/.bash_history", "echo $HISTFILE", "history | tee -a ~/.bash_history"],
    },
    Rule {
        id: "admin.security-disable",
        category: "disable a security control (SELinux, AppArmor, Gatekeeper, SIP, auditd, Defender)",
        reason: "it switches off protection that contains compromised or untrusted code, or the audit trail that records it",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: &["setenforce", "spctl", "csrutil", "aa-teardown", "aa-disable", "aa-complain", "apparmor_parser", "auditctl", "set-mppreference", "add-mppreference", "powershell", "pwsh", "cmd"],
            check: security_disable,
        },
        hits: &["setenforce 0", "sudo setenforce Permissive", "spctl --master-disable", "csrutil disable", "aa-teardown", "aa-disable /etc/apparmor.d/usr.sbin.cupsd", "auditctl -e 0", "auditctl -D", "auditctl -a never,task", "powershell Set-MpPreference -DisableRealtimeMonitoring $true", "pwsh -c \"Add-MpPreference -ExclusionPath C:\\tmp\""],
        misses: &["getenforce", "sestatus", "setenforce 1", "csrutil status", "spctl --status", "spctl --assess -v My.app", "aa-status", "auditctl -l", "powershell Get-MpPreference", "powershell Set-MpPreference -DisableRealtimeMonitoring $false"],
    },
];

// ---------------------------------------------------------------------------
// Firewalls.

fn firewall_flush(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "nft" => nft_flush(cmd),
        "pfctl" => parse_opts(&cmd.args, &PFCTL).value('F').is_some(),
        _ => iptables_flush(cmd),
    }
}

fn iptables_flush(cmd: &Command) -> bool {
    let args = &cmd.args;
    args.iter().enumerate().any(|(i, arg)| {
        let short = arg.strip_prefix('-').filter(|s| {
            !s.starts_with('-') && !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic())
        });
        let flush = matches!(arg.as_str(), "--flush" | "--delete-chain")
            || short.is_some_and(|s| s.contains(['F', 'X']));
        // `-P CHAIN ACCEPT`: whatever no rule matches is let in.
        let policy = (arg == "-P" || arg == "--policy")
            && args
                .get(i + 2)
                .is_some_and(|t| t.eq_ignore_ascii_case("accept"));
        flush || policy
    }) || accepts_everything(args)
}

/// `-A INPUT -j ACCEPT` with nothing to match on: a rule that lets in
/// whatever arrives, as an open default policy does.
fn accepts_everything(args: &[String]) -> bool {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let rest = match words.as_slice() {
        ["-t", "filter", rest @ ..] => rest,
        rest => rest,
    };
    let rest = match rest {
        ["-A" | "-I" | "--append" | "--insert", "INPUT" | "FORWARD", rest @ ..] => rest,
        _ => return false,
    };
    // `-I INPUT 1 -j ACCEPT`: a position before the target.
    let rest = match rest {
        [n, rest @ ..] if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest,
        rest => rest,
    };
    matches!(rest, ["-j" | "--jump", "ACCEPT"])
}

#[rustfmt::skip]
const NFT: Spec = Spec::gnu("fID", &["file", "includepath", "define"]);

fn nft_flush(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &NFT);
    if opts.flag('c') || opts.long("check", 3) {
        return false;
    }
    // `nft flush ruleset` and `nft 'flush ruleset'` are the same command.
    let words: Vec<&str> = opts
        .operands
        .iter()
        .flat_map(|o| o.split_whitespace())
        .collect();
    match words.as_slice() {
        ["flush", ..] => true,
        ["delete" | "destroy", kind, ..] => matches!(*kind, "table" | "chain" | "ruleset"),
        _ => false,
    }
}

#[rustfmt::skip]
const PFCTL: Spec = Spec::gnu("aDfFiKkpsStTx", &[]);

fn firewall_disable(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "ufw" => {
            let opts = parse_opts(&cmd.args, &GNU);
            // `allow from any [to any]` with no port, and every port
            // (`allow 1:65535`), let in all the network sends.
            let everything = |rest: &[&str]| {
                matches!(rest, ["from", "any"] | ["from", "any", "to", "any"])
                    || matches!(rest, [ports] if ports.starts_with("1:65535") || ports.starts_with("0:65535"))
            };
            !opts.long("dry-run", 3)
                && match opts.operands.as_slice() {
                    ["disable" | "reset", ..]
                    | ["default", "allow", ..]
                    | ["logging", "off", ..] => true,
                    ["allow", "in", rest @ ..] | ["allow", rest @ ..] => everything(rest),
                    _ => false,
                }
        }
        // macOS: the application firewall turned off, by its own tool or
        // its preference.
        "socketfilterfw" => option_is(&cmd.args, "--setglobalstate", "off"),
        "defaults" => {
            let line = cmd.arg_line();
            line.contains("com.apple.alf") && line.contains("globalstate -int 0")
        }
        "pfctl" => parse_opts(&cmd.args, &PFCTL).flag('d'),
        "firewall-cmd" => {
            let zone = parse_opts(&cmd.args, &Spec::gnu("", &["set-default-zone"]))
                .long_value("set-default-zone", 16);
            let every_port = cmd.args.iter().any(|a| {
                let port = a.strip_prefix("--add-port=").unwrap_or("");
                port.starts_with("1-65535/") || port.starts_with("0-65535/")
            });
            zone == Some("trusted") || every_port
        }
        _ => any_stmt(
            cmd,
            &["netsh", "set-netfirewallprofile"],
            windows_firewall_off,
        ),
    }
}

/// `NAME VALUE` or `NAME=VALUE` among `args`.
fn option_is(args: &[String], name: &str, value: &str) -> bool {
    args.iter().enumerate().any(|(i, a)| {
        (a == name && args.get(i + 1).is_some_and(|v| v == value))
            || a.strip_prefix(name).and_then(|r| r.strip_prefix('=')) == Some(value)
    })
}

fn windows_firewall_off(s: &Stmt) -> bool {
    if s.name == "set-netfirewallprofile" {
        return ps_value(&s.words, "-enabled").is_some_and(is_false);
    }
    let line = s.words.join(" ").to_ascii_lowercase();
    (line.starts_with("advfirewall") && line.contains("state off"))
        || (line.starts_with("firewall") && line.contains("opmode") && line.contains("disable"))
}

/// The value of a PowerShell parameter, written `-Name value` or `-Name:value`.
fn ps_value<'a>(words: &'a [String], name: &str) -> Option<&'a str> {
    words.iter().enumerate().find_map(|(i, w)| {
        let lower = w.to_ascii_lowercase();
        if lower == name {
            Some(words.get(i + 1).map_or("", String::as_str))
        } else {
            lower
                .strip_prefix(name)
                .and_then(|r| r.strip_prefix(':'))
                .map(|_| &w[name.len() + 1..])
        }
    })
}

fn is_false(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "false" | "$false" | "0")
}

// ---------------------------------------------------------------------------
// Users, passwords and groups.

/// Groups whose members can become root (or Administrator).
const ADMIN_GROUPS: &[&str] = &["sudo", "wheel", "admin", "root", "administrators"];

fn is_admin_group(g: &str) -> bool {
    ADMIN_GROUPS.contains(&g.to_ascii_lowercase().as_str())
}

fn is_help(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-V" | "--version"))
}

/// `net user NAME ...` and `net localgroup GROUP ...`, Windows' account tool.
fn net_words(cmd: &Command, verb: &str) -> Option<Vec<String>> {
    let words: Vec<String> = cmd.args.iter().map(|a| a.to_ascii_lowercase()).collect();
    (cmd.program == "net" && words.first().is_some_and(|w| w == verb)).then_some(words)
}

fn user_delete(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "userdel" | "deluser" => {
            !is_help(cmd) && !parse_opts(&cmd.args, &USERDEL).operands.is_empty()
        }
        "dscl" => {
            cmd.args.iter().any(|a| a.eq_ignore_ascii_case("-delete"))
                && cmd.args.iter().any(|a| a.starts_with("/Users/"))
        }
        "sysadminctl" => cmd
            .args
            .iter()
            .any(|a| a.eq_ignore_ascii_case("-deleteUser")),
        _ => {
            net_words(cmd, "user").is_some_and(|w| w.iter().any(|a| a == "/delete" || a == "/del"))
        }
    }
}

#[rustfmt::skip]
const USERDEL: Spec = Spec::gnu("RPZ", &["root", "prefix", "backup-to", "exclude"]);
#[rustfmt::skip]
const PASSWD: Spec = Spec::gnu("nxwirRP", &["mindays", "maxdays", "warndays", "inactive", "repository", "root", "prefix"]);
#[rustfmt::skip]
const USERMOD: Spec = Spec::gnu("cdefgGlpPRsuZ", &["comment", "home", "expiredate", "inactive", "gid", "groups", "login", "password", "prefix", "root", "shell", "uid", "selinux-user", "add-subuids", "del-subuids", "add-subgids", "del-subgids"]);
#[rustfmt::skip]
const USERADD: Spec = Spec::gnu("bcdefgGkKpPRsuZ", &["base-dir", "comment", "home-dir", "expiredate", "inactive", "gid", "groups", "skel", "key", "password", "prefix", "root", "shell", "uid", "selinux-user"]);

/// How the agent's own account is written when it is not resolved.
pub(super) const SELF: &[&str] = &[
    "$USER",
    "${USER}",
    "$LOGNAME",
    "${LOGNAME}",
    "$(whoami)",
    "`whoami`",
    "$(id -un)",
];

fn password_change(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "passwd" => {
            let opts = parse_opts(&cmd.args, &PASSWD);
            if opts.flag('S') || opts.long("status", 3) || is_help(cmd) {
                return false;
            }
            match opts.operands.first() {
                Some(user) => !SELF.contains(user),
                // With no user, `sudo passwd` changes root's password.
                None => ["sudo", "doas", "run0", "pkexec"]
                    .iter()
                    .any(|w| cmd.wrapped_by(w)),
            }
        }
        "chpasswd" | "chgpasswd" => !is_help(cmd),
        "usermod" => {
            let opts = parse_opts(&cmd.args, &USERMOD);
            opts.value('p').is_some() || opts.long("password", 4)
        }
        "sysadminctl" => cmd
            .args
            .iter()
            .any(|a| a.eq_ignore_ascii_case("-resetPasswordFor")),
        "dscl" => cmd.args.iter().any(|a| a.eq_ignore_ascii_case("-passwd")),
        // `net user NAME PASSWORD` or `net user NAME *` (prompt).
        _ => net_words(cmd, "user").is_some_and(|w| w.len() >= 3 && !w[2].starts_with('/')),
    }
}

fn grant_admin(cmd: &Command) -> bool {
    adds_to_group(cmd, is_admin_group) || gives_uid0(cmd)
}

/// `useradd`/`usermod` with `-u 0`: root under another name.
fn gives_uid0(cmd: &Command) -> bool {
    let spec = match cmd.program.as_str() {
        "usermod" => &USERMOD,
        "useradd" => &USERADD,
        _ => return false,
    };
    let opts = parse_opts(&cmd.args, spec);
    opts.value('u').or(opts.long_value("uid", 3)) == Some("0")
}

/// Whether `cmd` puts a user into a group `wanted` accepts, as its primary
/// or a supplementary group, by any of the account tools.
pub(super) fn adds_to_group(cmd: &Command, wanted: fn(&str) -> bool) -> bool {
    let groups_admin = |list: &str| list.split(',').any(wanted);
    match cmd.program.as_str() {
        "usermod" | "useradd" => {
            let spec = if cmd.program == "usermod" {
                &USERMOD
            } else {
                &USERADD
            };
            let opts = parse_opts(&cmd.args, spec);
            let groups = opts
                .value('G')
                .or(opts.long_value("groups", 3))
                .is_some_and(groups_admin);
            let primary = opts
                .value('g')
                .or(opts.long_value("gid", 3))
                .is_some_and(wanted);
            groups || primary
        }
        // Debian's `adduser USER GROUP`.
        "adduser" | "addgroup" => {
            let ops = parse_opts(
                &cmd.args,
                &Spec::gnu(
                    "",
                    &["gid", "uid", "home", "shell", "ingroup", "conf", "gecos"],
                ),
            )
            .operands;
            ops.len() == 2 && wanted(ops[1])
        }
        "gpasswd" => {
            let opts = parse_opts(
                &cmd.args,
                &Spec::gnu(
                    "adMAQR",
                    &["add", "delete", "members", "administrators", "root"],
                ),
            );
            let adds = opts.value('a').is_some()
                || opts.value('M').is_some()
                || opts.long("add", 3)
                || opts.long("members", 3);
            adds && opts.operands.first().is_some_and(|g| wanted(g))
        }
        "dseditgroup" => {
            cmd.args.iter().any(|a| a == "-a") && cmd.args.last().is_some_and(|g| wanted(g))
        }
        _ => net_words(cmd, "localgroup")
            .is_some_and(|w| w.len() >= 3 && wanted(&w[1]) && w.iter().any(|a| a == "/add")),
    }
}

// ---------------------------------------------------------------------------
// Shell history.

const HISTORY_VARS: &[&str] = &["HISTFILE", "HISTSIZE", "HISTFILESIZE", "SAVEHIST"];

/// An assignment that stops history being kept: no file, or a size of zero.
fn kills_history(name: &str, value: &str) -> bool {
    match name {
        "HISTFILE" => value.is_empty() || value == "/dev/null",
        "HISTSIZE" | "HISTFILESIZE" | "SAVEHIST" => value.is_empty() || value == "0",
        // Every command left out, or any typed after a space.
        "HISTIGNORE" => value.split(':').any(|p| p == "*" || p == "*:*"),
        "HISTCONTROL" => value
            .split(':')
            .any(|p| p == "ignorespace" || p == "ignoreboth"),
        _ => false,
    }
}

fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((name, value))
}

fn disables_history(cmd: &Command) -> bool {
    let args = &cmd.args;
    match cmd.program.as_str() {
        "history" => {
            let opts = parse_opts(args, &Spec::gnu("d", &[]));
            opts.flag('c') || opts.value('d').is_some()
        }
        "unset" => args.iter().any(|a| HISTORY_VARS.contains(&a.as_str())),
        "export" | "declare" | "typeset" | "readonly" | "local" => args
            .iter()
            .filter_map(|a| assignment(a))
            .any(|(k, v)| kills_history(k, v)),
        "set" => args.windows(2).any(|w| w[0] == "+o" && w[1] == "history"),
        // `HISTSIZE=0` alone changes this shell; `HISTFILE= bash -i`
        // starts a shell with its history off.
        p => cmd.env.iter().any(|(k, v)| kills_history(k, v)) && (p.is_empty() || is_shell(p)),
    }
}

fn is_shell(program: &str) -> bool {
    matches!(
        program,
        "bash" | "sh" | "zsh" | "ksh" | "dash" | "mksh" | "fish" | "exec"
    )
}

/// Shell history files, by name.
const HISTORY_FILES: &[&str] = &[
    ".bash_history",
    ".zsh_history",
    ".zhistory",
    ".sh_history",
    ".history",
    ".ash_history",
    ".mksh_history",
    "fish_history",
    "consolehost_history.txt",
];

fn is_history_file(path: &str) -> bool {
    // The shell's own name for the file it keeps history in.
    if matches!(path, "$HISTFILE" | "${HISTFILE}") {
        return true;
    }
    let base = path
        .trim_end_matches('/')
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path);
    HISTORY_FILES.contains(&base.to_ascii_lowercase().as_str())
}

fn history_wipe(cmd: &Command) -> bool {
    let truncated = cmd
        .redirects
        .iter()
        .any(|r| r.op == RedirectOp::Write && is_history_file(&r.target));
    // Asked of every command: the operands only of the programs that need them.
    let by_program = match cmd.program.as_str() {
        "rm" | "unlink" | "shred" | "srm" | "wipe" | "mv" => {
            cmd.operands().iter().any(|p| is_history_file(p))
        }
        // Lines taken out in place: what was run, edited out of the record.
        "sed" | "perl" | "ruby" => {
            cmd.args
                .iter()
                .any(|a| a.starts_with("-i") || a.starts_with("--in-place") || a.starts_with("-pi"))
                && cmd.operands().iter().any(|p| is_history_file(p))
        }
        // `… | tee ~/.bash_history` overwrites it (`-a` only adds to it).
        "tee" => {
            !cmd.args.iter().any(|a| a == "-a" || a == "--append")
                && cmd.operands().iter().any(|p| is_history_file(p))
        }
        // The last operand is what `cp`, `ln` and `install` (over)write.
        "cp" | "ln" | "install" => {
            let ops = cmd.operands();
            ops.len() >= 2 && ops.last().is_some_and(|p| is_history_file(p))
        }
        _ => false,
    };
    truncated || by_program
}

// ---------------------------------------------------------------------------
// Security controls.

fn security_disable(cmd: &Command) -> bool {
    let ops = cmd.operands();
    match cmd.program.as_str() {
        "setenforce" => ops
            .first()
            .is_some_and(|m| *m == "0" || m.eq_ignore_ascii_case("permissive")),
        "spctl" => cmd
            .args
            .iter()
            .any(|a| a == "--master-disable" || a == "--global-disable"),
        "csrutil" => ops.contains(&"disable"),
        "aa-teardown" => !is_help(cmd),
        "aa-disable" | "aa-complain" => !ops.is_empty() && !is_help(cmd),
        "apparmor_parser" => parse_opts(&cmd.args, &GNU).flag('R') || cmd.has_long("--remove"),
        "auditctl" => {
            let opts = parse_opts(&cmd.args, &Spec::gnu("aAbCdefFkmpqrRSwW", &[]));
            // `-a never,task` (or `exit,never`) keeps what it matches out of the record.
            let never = opts
                .value('a')
                .or(opts.value('A'))
                .is_some_and(|list| list.split(',').any(|w| w == "never"));
            opts.value('e') == Some("0") || opts.flag('D') || never
        }
        _ => any_stmt(cmd, &["set-mppreference", "add-mppreference"], defender_off),
    }
}

/// `Set-MpPreference -Disable...` not set to false, or `Add-MpPreference -Exclusion...`.
fn defender_off(s: &Stmt) -> bool {
    s.words.iter().any(|w| {
        let lower = w.to_ascii_lowercase();
        let key = lower.split(':').next().unwrap_or(&lower);
        if s.name == "add-mppreference" {
            return key.starts_with("-exclusion");
        }
        key.starts_with("-disable") && !ps_value(&s.words, key).is_some_and(is_false)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iptables_words() {
        assert!(iptables_flush(&Command::new(
            "iptables",
            &["-t", "nat", "-vF"]
        )));
        assert!(iptables_flush(&Command::new(
            "iptables",
            &["--policy", "FORWARD", "accept"]
        )));
        // A rule that accepts everything opens the chain as a policy does;
        // one that matches something (an interface, a port) does not.
        assert!(iptables_flush(&Command::new(
            "iptables",
            &["-A", "INPUT", "-j", "ACCEPT"]
        )));
        assert!(!iptables_flush(&Command::new(
            "iptables",
            &["-A", "INPUT", "-i", "lo", "-j", "ACCEPT"]
        )));
        assert!(!iptables_flush(&Command::new(
            "iptables",
            &["-I", "INPUT", "-p", "tcp", "--dport", "22", "-j", "ACCEPT"]
        )));
        assert!(!iptables_flush(&Command::new(
            "iptables",
            &["-nvL", "--line-numbers"]
        )));
        assert!(nft_flush(&Command::new("nft", &["flush ruleset"])));
        assert!(!nft_flush(&Command::new(
            "nft",
            &["delete", "rule", "inet", "f", "input", "handle", "4"]
        )));
    }

    #[test]
    fn powershell_values() {
        let w = |v: &str| v.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            ps_value(&w("-Profile Any -Enabled False"), "-enabled"),
            Some("False")
        );
        assert_eq!(ps_value(&w("-Enabled:$false"), "-enabled"), Some("$false"));
        assert_eq!(ps_value(&w("-Profile Any"), "-enabled"), None);
    }

    #[test]
    fn history_files() {
        assert!(
            is_history_file("~/.bash_history")
                && is_history_file("/root/.local/share/fish/fish_history")
        );
        assert!(!is_history_file("~/.bash_history.bak") && !is_history_file("history.txt"));
    }

    #[test]
    fn accounts() {
        assert!(grant_admin(&Command::new(
            "usermod",
            &["-a", "-Gdocker,wheel", "bob"]
        )));
        assert!(!grant_admin(&Command::new(
            "usermod",
            &["-c", "sudo", "bob"]
        )));
        assert!(password_change(&Command::new("passwd", &["-l", "bob"])));
        assert!(!password_change(&Command::new("passwd", &["-n", "1"])));
        assert!(user_delete(&Command::new(
            "net",
            &["USER", "bob", "/DELETE"]
        )));
    }
}
