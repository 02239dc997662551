//! Built-in rules: accounts and groups changed (Linux shadow tools, BSD `pw`, macOS Directory Services), groups that amount to root, and shells opened as root or another user.

use super::admin::adds_to_group;
use super::opts::{parse_opts, Spec};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs and subcommands that create, change or remove an account or a
/// group, or edit the account databases directly. Reading them (`id`,
/// `getent`, `dscl . -read`, `chage -l`) is their everyday neighbour.
#[rustfmt::skip]
static CHANGE: &[Verb] = &[
    // shadow-utils and Debian's adduser family.
    verb("useradd", ""),
    verb("adduser", ""),
    verb("usermod", r"\S"),
    verb("userdel", ""),
    verb("deluser", ""),
    verb("groupadd", ""),
    verb("addgroup", ""),
    verb("groupmod", ""),
    verb("groupdel", ""),
    verb("delgroup", ""),
    verb("groupmems", r"(?:^| )-(?:a|d|p|-add|-delete|-purge)(?: |$)"),
    verb("newusers", ""),
    verb("chpasswd", ""),
    verb("chgpasswd", ""),
    verb("gpasswd", r"\S"),
    verb("vipw", ""),
    verb("vigr", ""),
    verb_if("chsh", "", changes_more_than_listing),
    verb("chfn", ""),
    verb_if("chage", "", changes_more_than_listing),
    // libuser's tools and systemd-homed.
    verb("luseradd", ""),
    verb("lusermod", ""),
    verb("luserdel", ""),
    verb("lgroupadd", ""),
    verb("lgroupmod", ""),
    verb("lgroupdel", ""),
    verb("lchsh", ""),
    verb("homectl", r"^(?:-\S+ )*(?:create|remove|update|passwd|lock)\b"),
    // FreeBSD's pw: `pw useradd` and `pw user add` alike.
    verb("pw", r"(?:^| )(?:user|group)? ?(?:add|mod|del)(?: |$)|(?:^| )(?:useradd|usermod|userdel|groupadd|groupmod|groupdel|lock|unlock)(?: |$)"),
    // macOS Directory Services.
    verb("dscl", r"(?i)(?:^| )-(?:create|createpl|append|appendpl|merge|mergepl|passwd|change|changei|delete|deletepl)(?: |$)"),
    verb("sysadminctl", r"(?i)(?:^| )-(?:adduser|deleteuser|resetpasswordfor|securetokenon|securetokenoff)(?: |$)|(?i)(?:^| )-autologin (?:set|off)\b|(?i)(?:^| )-guestaccount on\b"),
    verb("dseditgroup", r"(?:^| )-o (?:edit|create|delete)(?: |$)"),
    verb("createhomedir", ""),
    verb("pwpolicy", r"(?i)(?:^| )-(?:setpolicy|setglobalpolicy|setaccountpolicies|clearaccountpolicies|disableuser|enableuser)(?: |$)"),
    // The rights database decides who may act as an administrator.
    verb("security", r"^authorizationdb write\b"),
    verb("dsimport", ""),
];

/// Groups whose members are root in all but name: the container daemons
/// (start a container with `/` mounted), raw disks and memory, password hashes.
const ROOT_EQUIVALENT: &[&str] = &[
    "docker",
    "lxd",
    "incus-admin",
    "incus",
    "libvirt",
    "disk",
    "shadow",
    "kmem",
    "podman",
];

fn is_root_equivalent(group: &str) -> bool {
    ROOT_EQUIVALENT.contains(&group.to_ascii_lowercase().as_str())
}

/// Programs that open a session as root or another user: `su` without a
/// command, a shell started by a privilege wrapper without code to run,
/// machinectl's shell and login.
#[rustfmt::skip]
static BECOME: &[Verb] = &[
    verb_if("su", "", su_session),
    verb_if("runuser", "", runuser_session),
    verb("machinectl", r"^(?:-\S+ )*(?:shell|login)\b"),
    verb_if("sh", "", privileged_shell), verb_if("bash", "", privileged_shell),
    verb_if("zsh", "", privileged_shell), verb_if("dash", "", privileged_shell),
    verb_if("ksh", "", privileged_shell), verb_if("mksh", "", privileged_shell),
    verb_if("ash", "", privileged_shell), verb_if("yash", "", privileged_shell),
    verb_if("fish", "", privileged_shell), verb_if("rbash", "", privileged_shell),
    verb_if("csh", "", privileged_shell), verb_if("tcsh", "", privileged_shell),
    verb_if("posh", "", privileged_shell), verb_if("busybox", r"^(?:sh|ash)?$", privileged_shell),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "accounts.root-equivalent-group",
        category: "add a user to a group that amounts to root (docker, lxd, libvirt, disk, shadow)",
        reason: "a member can start a container with the host's disk mounted, or read the raw disk or the password hashes: root without sudo",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["usermod", "useradd", "adduser", "addgroup", "gpasswd", "dseditgroup"], check: |c| adds_to_group(c, is_root_equivalent) },
        hits: &["sudo usermod -aG docker $USER", "usermod -a -G lxd bob", "gpasswd -a deploy docker", "adduser bob disk", "useradd -G shadow,users eve"],
        misses: &["usermod -aG developers bob", "gpasswd -d bob docker", "groups bob", "newgrp docker", "getent group docker"],
    },
    Rule {
        id: "accounts.change-account",
        category: "create, change or remove an account or group (useradd/usermod/chsh/gpasswd, pw, dscl, sysadminctl)",
        reason: "who can log in, with which shell, uid, groups or password is the machine's own security; a changed account outlives the session",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(CHANGE),
        hits: &["useradd -m -s /bin/bash deploy", "sudo usermod -s /bin/bash www-data", "usermod -L bob", "chsh -s /bin/sh", "chfn -f Admin bob", "groupadd -g 0 -o rootgrp", "groupmod -n staff2 staff", "newusers /tmp/users.txt", "vipw", "gpasswd -a bob adm", "pw useradd hacker -u 0 -o", "pw user mod alice -s /bin/sh", "dscl . -create /Users/backdoor UniqueID 0", "dscl . -append /Groups/admin GroupMembership bob", "sysadminctl -addUser helper -admin", "dseditgroup -o create rootlike", "createhomedir -c -u bob", "chage -E -1 bob", "homectl create alice", "security authorizationdb write system.privilege.admin allow", "pwpolicy -u bob -disableuser"],
        misses: &["id", "groups bob", "getent passwd bob", "chsh -l", "chage -l bob", "dscl . -list /Users", "dscl . -read /Users/bob", "dseditgroup -o checkmember -m bob admin", "sysadminctl -secureTokenStatus bob", "pw usershow alice", "pw groupshow wheel", "security authorizationdb read system.privilege.admin", "pwpolicy -u bob -getaccountpolicies", "usermod", "homectl list", "useradd --help", "echo useradd x"],
    },
    Rule {
        id: "accounts.shell-as-other-user",
        category: "open a shell as root or another user (su, sudo su, sudo bash, doas sh, pkexec, run0, machinectl shell)",
        reason: "everything typed in that shell runs with the other account's rights, out of sight of any check on single commands",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(BECOME),
        hits: &["su", "su -", "su - bob", "su -c bash", "su - root -c '/bin/sh -i'", "su -l postgres", "sudo su -", "sudo su", "sudo bash", "sudo /bin/bash -p", "sudo -u root zsh", "sudo -u bob bash", "sudo bash install.sh", "doas sh", "doas -u bob ksh", "pkexec /bin/sh", "pkexec", "run0", "run0 bash", "machinectl shell root@", "machinectl shell root@.host /bin/bash", "machinectl login", "env -i sudo /usr/bin/zsh", "sudo runuser deploy -l", "runuser - postgres"],
        misses: &["su -c 'ls /srv' deploy", "su --help", "sudo runuser deploy -c 'ls /srv'", "runuser -u bob -- make", "su -V", "sudo apt update", "bash", "bash build.sh", "sudo -u postgres psql", "machinectl list", "sudo bash -c 'true'", "echo su -", "newgrp docker"],
    },
];

/// Whether `cmd` does more than list (`chsh -l`, `chage -l bob`).
fn changes_more_than_listing(cmd: &Command) -> bool {
    !cmd.args
        .iter()
        .any(|a| matches!(a.as_str(), "-l" | "--list" | "--list-shells"))
}

/// The shells a privilege wrapper can open.
pub(super) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "csh", "tcsh",
    "posh", "busybox",
];

/// The wrappers that run a command as another user.
pub(super) const PRIVILEGE_WRAPPERS: &[&str] = &["sudo", "doas", "pkexec", "run0"];
/// Wrappers that start a shell as root or another user only in some forms
/// (`machinectl shell root@.host /bin/bash`, `runuser -u bob -- bash`,
/// `systemd-run --uid=0 -S`): a shell they start is a session all the same.
const SESSION_WRAPPERS: &[&str] = &["machinectl", "runuser", "systemd-run"];

#[rustfmt::skip]
const SU: Spec = Spec::gnu("cgGsw", &["command", "session-command", "group", "supp-group", "shell", "whitelist-environment"]);
#[rustfmt::skip]
const SHELL: Spec = Spec::gnu("cO", &["rcfile", "init-file"]);

/// `su` without `-c`: a session as the other user (`su -c CMD` runs one
/// command, which the analysis judges on its own).
fn su_session(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &SU);
    let code = opts
        .value('c')
        .or(opts.long_value("command", 3))
        .or(opts.long_value("session-command", 3));
    code.is_none_or(starts_a_shell)
}

#[rustfmt::skip]
const RUNUSER: Spec = Spec::gnu("cgGsuw", &["command", "session-command", "group", "supp-group", "shell", "user", "whitelist-environment"]);

/// `runuser USER` without `-c` or `-u`: a session as that user, as `su`
/// opens one (`runuser -u bob -- cmd` runs one command, judged on its own).
fn runuser_session(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &RUNUSER);
    if opts.value('u').or(opts.long_value("user", 2)).is_some() {
        return false;
    }
    let code = opts
        .value('c')
        .or(opts.long_value("command", 3))
        .or(opts.long_value("session-command", 3));
    code.is_none_or(starts_a_shell)
}

/// Code that only starts a shell (`bash`, `/bin/sh -i`): a session, not a command.
fn starts_a_shell(code: &str) -> bool {
    let mut words = code.split_whitespace();
    let first = words.next().unwrap_or("");
    let name = first.rsplit('/').next().unwrap_or(first);
    SHELLS.contains(&name) && words.all(|w| w.starts_with('-') && !w.contains('c'))
}

/// A shell started by a privilege wrapper with no code to run: a session
/// (or a script warden cannot read) as root or another user. A shell given
/// code (`sudo bash -c '…'`) is judged by what the code does.
fn privileged_shell(cmd: &Command) -> bool {
    let privileged = PRIVILEGE_WRAPPERS
        .iter()
        .chain(SESSION_WRAPPERS)
        .any(|w| cmd.wrapped_by(w));
    privileged && parse_opts(&cmd.args, &SHELL).value('c').is_none()
}
