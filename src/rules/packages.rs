//! Built-in rules: the system's own packages removed (the C library, the shell, the init system, the kernel, the package manager, the way in), or any package removed past the package manager's dependency and essential checks.
//!
//! Removing an application's package (`apt remove nginx`, `dnf remove
//! httpd`, `pacman -Rns firefox`) is everyday administration: the package
//! manager removes what depends on it and the package can be installed
//! again. What these rules ask about is what leaves a machine that cannot
//! boot, log in, reach the network or install its way back.

use super::opts::{parse_opts, Spec};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Packages a machine cannot lose: the base system, its init, kernel,
/// boot loader and package manager, the ways to become root or to reach
/// the machine, and its security controls. Names from Debian, Fedora,
/// Arch, SUSE, Alpine and snap; one list serves every manager, since a
/// name another distribution does not use matches nothing there.
#[rustfmt::skip]
const CRITICAL: &[&str] = &[
    // The C library, the shell and the base userland.
    "libc6", "libc-bin", "glibc", "glibc-common", "musl", "coreutils", "bash", "dash", "util-linux",
    "util-linux-core", "findutils", "grep", "sed", "tar", "gzip", "diffutils", "debianutils",
    "hostname", "mount", "login", "passwd", "shadow", "shadow-utils", "base-files", "base-passwd",
    "filesystem", "setup", "base", "ncurses-base", "ncurses-bin", "perl-base", "zlib1g", "zlib",
    "e2fsprogs", "busybox", "alpine-base", "alpine-baselayout",
    // Package managers.
    "dpkg", "apt", "rpm", "dnf", "yum", "pacman", "zypper", "libzypp", "apk-tools", "snapd", "pkg",
    "xbps", "portage",
    // Init, devices, the system bus, authentication.
    "init", "systemd", "systemd-sysv", "systemd-libs", "libsystemd0", "sysvinit-utils", "openrc",
    "udev", "dbus", "pam", "libpam0g", "libpam-modules", "libpam-runtime", "sudo", "doas",
    // Kernel, boot loader, initramfs.
    "linux", "linux-lts", "linux-zen", "linux-hardened", "linux-generic", "linux-image-generic",
    "linux-virtual", "linux-image-virtual", "linux-firmware", "kernel", "kernel-core",
    "kernel-modules", "grub", "grub2", "grub-pc", "grub-common", "grub2-common", "grub-efi-amd64",
    "shim", "shim-signed", "mkinitcpio", "initramfs-tools", "dracut",
    // The way in: remote login and the network.
    "openssh-server", "openssh", "ssh", "network-manager", "networkmanager", "netplan.io",
    "ifupdown", "iproute2", "systemd-networkd",
    // Libraries nearly everything links, and the system's own interpreters.
    "openssl", "openssl-libs", "libssl3", "libssl1.1", "ca-certificates", "python", "python3",
    "python3-minimal", "python3-libs", "python-libs", "platform-python",
    // Security controls.
    "apparmor", "selinux-policy", "selinux-policy-targeted", "libselinux", "auditd", "audit", "ufw",
    "firewalld", "iptables", "nftables", "fail2ban", "falcon-sensor", "sentinelagent", "mdatp",
    "osquery", "wazuh-agent",
    // Snap bases other snaps run on.
    "core", "core18", "core20", "core22", "core24", "bare",
];

/// Removing packages by name: every system package manager's removal verb.
#[rustfmt::skip]
static REMOVE_CRITICAL: &[Verb] = &[
    verb_if("apt", r"(?:^| )(?:remove|purge|autoremove|autopurge)(?: |$)", names_critical),
    verb_if("apt-get", r"(?:^| )(?:remove|purge|autoremove|autopurge)(?: |$)", names_critical),
    verb_if("aptitude", r"(?:^| )(?:remove|purge)(?: |$)", names_critical),
    verb_if("dpkg", r"(?:^| )(?:-[A-Za-z]*[rP][A-Za-z]*|--remove|--purge)(?: |$)", names_critical),
    verb_if("rpm", r"(?:^| )(?:-[A-Za-z]*e[A-Za-z]*|--erase)(?: |$)", names_critical),
    verb_if("dnf", r"(?:^| )(?:remove|erase|rm|autoremove)(?: |$)", names_critical),
    verb_if("yum", r"(?:^| )(?:remove|erase|autoremove)(?: |$)", names_critical),
    verb_if("zypper", r"(?:^| )(?:remove|rm)(?: |$)", names_critical),
    verb_if("pacman", r"(?:^| )(?:-R[A-Za-z]*|--remove)(?: |$)", names_critical),
    verb_if("apk", r"(?:^| )del(?: |$)", names_critical),
    verb_if("snap", r"(?:^| )remove(?: |$)", names_critical),
    verb_if("emerge", r"(?:^| )(?:-[A-Za-z]*C[A-Za-z]*|--unmerge|--rage-clean)(?: |$)", names_critical),
    verb_if("pkg", r"(?:^| )(?:delete|remove)(?: |$)", names_critical),
    verb_if("xbps-remove", "", names_critical),
];

/// Removals past the checks that keep the rest of the system working:
/// dpkg's `--force-*`, apt's essential override, `rpm --nodeps`, `pacman
/// -Rdd` and `-Rc`, dnf's protected list cleared, brew's
/// `--ignore-dependencies`, MacPorts removing everything by force.
#[rustfmt::skip]
static FORCE_REMOVE: &[Verb] = &[
    verb("dpkg", r"(?:^| )--force-(?:all|remove-essential|remove-protected|depends|remove-reinstreq)\b"),
    verb("apt", r"(?i)allow-remove-essential"),
    verb("apt-get", r"(?i)allow-remove-essential"),
    verb("rpm", r"(?:^| )(?:-[A-Za-z]*e[A-Za-z]*|--erase) (?:.* )?--nodeps\b|--nodeps (?:.* )?(?:-[A-Za-z]*e[A-Za-z]*|--erase)(?: |$)"),
    verb("dnf", r"protected_packages="),
    verb("yum", r"protected_packages="),
    verb("zypper", r"(?:^| )(?:remove|rm) (?:.* )?--force-resolution\b|--force-resolution (?:.* )?(?:remove|rm)(?: |$)"),
    verb_if("pacman", "", pacman_skips_dependents),
    verb("apk", r"(?:^| )--force-broken-world\b"),
    verb("brew", r"(?:^| )(?:uninstall|remove|rm) (?:.* )?--ignore-dependencies\b|--ignore-dependencies (?:.* )?(?:uninstall|remove|rm)(?: |$)"),
    verb("pkg", r"(?:^| )(?:delete|remove) (?:.* )?-[A-Za-z]*[af][A-Za-z]*(?: |$)"),
    verb("xbps-remove", r"(?:^| )(?:-[A-Za-z]*F[A-Za-z]*|--force)(?: |$)"),
        verb("port", r"(?:^| )-[A-Za-z]*f[A-Za-z]* (?:.* )?uninstall\b|(?:^| )uninstall (?:.* )?\b(?:installed|active|requested|all)(?: |$)"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "packages.remove-essential",
        category: "remove the system's essential packages (C library, shell, init, kernel, package manager, sudo, ssh, network, security controls)",
        reason: "the machine may no longer boot, log anyone in, reach the network or install its way back",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(REMOVE_CRITICAL),
        hits: &["sudo apt remove -y systemd", "aptitude purge ~i~prequired", "apt-get purge -y libc6:amd64", "sudo apt remove --purge 'python3*'", "sudo apt purge \"linux-image-$(uname -r)\"", "yum remove -y glibc", "dnf erase kernel-core", "pacman -Rns linux", "zypper rm sudo", "apk del busybox", "snap remove core22", "emerge --unmerge sys-libs/glibc", "pkg delete pkg", "xbps-remove glibc", "apt purge python3.10", "dpkg -P openssh-server", "rpm -e glibc-2.34-60.el9.x86_64", "sudo apt-get remove network-manager"],
        misses: &["sudo apt remove nginx", "sudo apt purge 'nvidia-*'", "sudo apt remove linux-image-5.15.0-50-generic", "sudo apt autoremove -y", "apt install systemd", "dnf remove httpd", "pacman -Rns firefox", "apk del curl", "snap remove firefox", "dpkg -L coreutils", "rpm -qi glibc", "apt-cache policy libc6", "apt remove bash-completion"],
    },
    Rule {
        id: "packages.force-remove",
        category: "remove packages past the package manager's dependency or essential checks",
        reason: "what depends on the removed package is left broken, and the checks skipped are the ones that keep the system working",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(FORCE_REMOVE),
        hits: &["dpkg --purge --force-all nginx", "dpkg -r --force-depends libxml2", "apt-get remove --allow-remove-essential bsdutils", "rpm -e --nodeps nginx", "rpm --nodeps -e x", "dnf remove --setopt=protected_packages= x", "pacman -Rdd libxml2", "pacman -R --nodeps --nodeps curl", "pacman -Rc gtk3", "apk del --force-broken-world libcurl", "zypper rm --force-resolution x", "brew uninstall --force --ignore-dependencies openssl@3", "pkg delete -a", "pkg delete -f curl", "xbps-remove -F curl", "port -f uninstall installed", "port uninstall installed"],
        misses: &["dpkg -r nginx", "dpkg --force-confnew -i x.deb", "rpm -qa --nodeps", "pacman -Rd x", "pacman -Rns firefox", "pacman -Rs x", "brew uninstall wget", "brew uninstall --force node", "port uninstall inactive", "port uninstall leaves", "apk del curl", "pkg delete curl", "xbps-remove -R vim"],
    },
];

/// Long options of the package managers that take a value, so the value
/// is not read as a package name.
#[rustfmt::skip]
const LONG_VALUES: &[&str] = &["option", "target-release", "config-file", "root", "releasever", "setopt", "repo", "enablerepo", "disablerepo", "exclude", "installroot", "dbpath", "cachedir", "arch", "config"];
/// apt's `-o`, `-t`, `-c`; dnf's and yum's `-x`, `-c`.
const APT: Spec = Spec::gnu("otc", LONG_VALUES);
const DNF: Spec = Spec::gnu("xc", LONG_VALUES);
const OTHER: Spec = Spec::gnu("", LONG_VALUES);

/// Whether a package named (past the verb) is one of [`CRITICAL`], a
/// pattern that matches one (`'python3*'`, `'^lib.*'`), or a name computed
/// at run time that could be anything (`linux-image-$(uname -r)`).
fn names_critical(cmd: &Command) -> bool {
    let spec = match cmd.program.as_str() {
        "apt" | "apt-get" | "aptitude" => &APT,
        "dnf" | "yum" => &DNF,
        _ => &OTHER,
    };
    parse_opts(&cmd.args, spec)
        .operands
        .iter()
        .any(|name| is_critical(name))
}

fn is_critical(name: &str) -> bool {
    // A name built around a substitution (`linux-image-$(uname -r)`)
    // names one package warden cannot see; a whole word that is one
    // (`$(pacman -Qdtq)`) is a list a query made, such as the orphans.
    if name.contains(['$', '`']) {
        return !name.starts_with(['$', '`']);
    }
    // apt's and aptitude's search patterns (`~prequired`, `?essential`)
    // select packages by property, the required ones as easily as any.
    if name.starts_with(['~', '?']) {
        return true;
    }
    // `libc6:amd64`, `bash=5.1-6`, `glibc-2.34-60.el9.x86_64`, `bash.x86_64`,
    // Gentoo's `sys-libs/glibc`.
    let name = name.split([':', '=']).next().unwrap_or(name);
    let name = name.rsplit('/').next().unwrap_or(name);
    if name.contains(['*', '?', '[']) || name.starts_with('^') || name.ends_with('$') {
        let pattern = name
            .trim_start_matches('^')
            .trim_end_matches('$')
            .replace(".*", "*");
        return CRITICAL
            .iter()
            .any(|c| glob(pattern.as_bytes(), c.as_bytes()));
    }
    CRITICAL.iter().any(|c| {
        // A kernel named with its version is one old kernel among several,
        // removed to free `/boot`; the unversioned name is every kernel.
        let versioned_ok = c.starts_with("linux") || c.starts_with("kernel");
        name == *c
            || name.strip_prefix(c).is_some_and(|rest| {
                // A version (`-2.34-60.el9`) or an architecture (`.x86_64`)
                // after the name, not another package (`bash-completion`).
                let version = rest
                    .strip_prefix('-')
                    .is_some_and(|v| v.starts_with(|ch: char| ch.is_ascii_digit()));
                // `python3.10`: the system's python under its versioned name.
                let minor = rest
                    .strip_prefix('.')
                    .is_some_and(|v| v.starts_with(|ch: char| ch.is_ascii_digit()));
                (version || minor) && !versioned_ok
                    || matches!(rest, ".x86_64" | ".aarch64" | ".i686" | ".noarch")
            })
    })
}

/// A shell glob (`*`, `?`, a `[...]` class taken as any one character)
/// against `text`, without backtracking blow-up: the classic two-pointer
/// walk that remembers the last `*`.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(b'[') => {
                let close = pattern[p..].iter().position(|&b| b == b']');
                p += close.map_or(1, |c| c + 1);
                t += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

/// `pacman -R` with `-dd` (no dependency checks at all) or `-c` (cascade:
/// every package that depends on the target goes too).
fn pacman_skips_dependents(cmd: &Command) -> bool {
    let o = parse_opts(
        &cmd.args,
        &Spec::gnu("br", &["dbpath", "root", "config", "cachedir"]),
    );
    let removes = o.flag('R') || o.long("remove", 3);
    let nodeps = o.clusters.iter().flatten().filter(|&&c| c == 'd').count()
        + o.longs.iter().filter(|(k, _)| *k == "nodeps").count();
    removes && (nodeps >= 2 || o.flag('c') || o.long("cascade", 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_versions_and_patterns() {
        for name in [
            "libc6",
            "libc6:amd64",
            "bash=5.1-6",
            "glibc-2.34-60.el9.x86_64",
            "python3*",
            "^lib.*",
            "lib?6",
            "linux-image-$(uname -r)",
            "[s]udo",
        ] {
            assert!(is_critical(name), "{name}");
        }
        for name in [
            "nginx",
            "bash-completion",
            "nvidia-*",
            "linux-image-5.15.0-50-generic",
            "python3-requests",
            "libfoo-dev",
            "core-utils-extra",
            "kernel-core-5.14.0-70.el9",
        ] {
            assert!(!is_critical(name), "{name}");
        }
    }

    #[test]
    fn glob_edges() {
        assert!(glob(b"*", b""));
        assert!(glob(b"a*b*c", b"aXbYc"));
        assert!(!glob(b"a*b", b"aXc"));
        assert!(!glob(b"[abc", b"xyz"));
        assert!(glob(b"**", b"x"));
    }
}
