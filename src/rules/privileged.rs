//! Built-in rules: commands run as root through `sudo`, `doas`, `pkexec` or `run0` that no other rule models, judged against a table of programs known to only read or to do routine work.
//!
//! The table is the model: a program in it, used the way its row allows,
//! only reads (logs, sockets, disks, processes), or does routine work whose
//! dangerous forms other rules judge (package installs from the configured
//! repositories, service restarts, container and process tools). Anything
//! else run as root changes the machine in a way warden cannot show to be
//! harmless, and asks.

use super::accounts::{PRIVILEGE_WRAPPERS, SHELLS};
use super::opts::{parse_opts, Spec, GNU};
use super::targets::{classify, Target};
use super::{Matcher, Rule, Signs};
use crate::shell::{Command, Wrapper};
use crate::verdict::Decision;

mod words;
use words::{changes_by_its_words, installed, interpreter, reads_by_its_words};

/// How a known program's row judges a call.
enum Use {
    /// Every use reads or is routine.
    Any,
    /// The first operand is one of these verbs (none at all also reads).
    Verbs(&'static [&'static str]),
    /// No argument is one of these options or verbs (`--vacuum-size`, `set`).
    Without(&'static [&'static str]),
    /// What a word list cannot say.
    Check(fn(&Command) -> bool),
}

/// One row of the model: a program and the uses that are known to be safe as root.
struct Known {
    program: &'static str,
    uses: Use,
}

const fn any(program: &'static str) -> Known {
    Known {
        program,
        uses: Use::Any,
    }
}
const fn verbs(program: &'static str, list: &'static [&'static str]) -> Known {
    Known {
        program,
        uses: Use::Verbs(list),
    }
}
const fn without(program: &'static str, list: &'static [&'static str]) -> Known {
    Known {
        program,
        uses: Use::Without(list),
    }
}
const fn check(program: &'static str, f: fn(&Command) -> bool) -> Known {
    Known {
        program,
        uses: Use::Check(f),
    }
}

/// Verbs of language package managers that install from their registry or only read.
const PACKAGE_VERBS: &[&str] = &[
    "install",
    "i",
    "add",
    "list",
    "ls",
    "show",
    "info",
    "freeze",
    "search",
    "outdated",
    "update",
    "upgrade",
    "check",
    "view",
    "doctor",
    // Removals: `packages.*` and `system.package-uninstall` judge them first.
    "uninstall",
    "remove",
    "rm",
];
/// systemctl's reading verbs and the restarts that apply a change.
const SYSTEMCTL_VERBS: &[&str] = &[
    // Starting or enabling a unit: `services.*` asks first for a unit no
    // package ships, so what reaches here is a packaged service.
    "start",
    "enable",
    "status",
    "show",
    "cat",
    "help",
    "list-units",
    "list-unit-files",
    "list-sockets",
    "list-timers",
    "list-jobs",
    "list-dependencies",
    "list-machines",
    "list-automounts",
    "list-paths",
    "is-active",
    "is-enabled",
    "is-failed",
    "is-system-running",
    "show-environment",
    "get-default",
    "restart",
    "reload",
    "try-restart",
    "reload-or-restart",
    "try-reload-or-restart",
    "condrestart",
    "force-reload",
    "daemon-reload",
    "reset-failed",
];

/// The model: programs that, used as their row says, only read or do
/// routine work as root. Other rules still judge every call first.
#[rustfmt::skip]
static KNOWN: &[Known] = &[
    // Reading files, logs and metadata.
    any("cat"), any("tac"), any("less"), any("more"), any("head"), any("tail"), any("zcat"), any("zless"),
    any("bzcat"), any("xzcat"), any("zstdcat"), any("ls"), any("dir"), any("tree"), any("stat"), any("file"),
    any("wc"), any("du"), any("df"), any("grep"), any("egrep"), any("fgrep"), any("zgrep"), any("rg"), any("ag"),
    any("locate"), any("which"), any("whereis"), any("readlink"), any("realpath"), any("namei"), any("getfacl"),
    any("getcap"), any("lsattr"), any("md5sum"), any("sha1sum"), any("sha256sum"), any("sha512sum"), any("b2sum"),
    any("cksum"), any("diff"), any("cmp"), any("strings"), any("hexdump"), any("xxd"), any("od"), any("jq"),
    any("uniq"), any("cut"), any("tr"), any("column"), any("nl"), any("echo"), any("printf"), any("true"),
    any("false"), any("test"), any("["), any("sleep"), any("printenv"), any("id"), any("whoami"), any("groups"),
    any("last"), any("lastlog"), any("lastb"), any("who"), any("w"), any("uname"), any("uptime"), any("free"),
    without("find", &["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"]),
    check("sed", |c| !c.args.iter().any(|a| a.starts_with("--in-place") || (a.starts_with('-') && !a.starts_with("--") && a.contains('i')))),
    without("sort", &["-o", "--output"]),
    check("date", |c| c.args.iter().all(|a| a.starts_with('+') || matches!(a.as_str(), "-u" | "--utc" | "-R" | "-I" | "--iso-8601"))),
    check("hostname", |c| c.args.iter().all(|a| a.starts_with('-') && !matches!(a.as_str(), "-F" | "--file" | "-b" | "--boot"))),
    // Processes, sockets, devices and hardware.
    any("ps"), any("pgrep"), any("top"), any("htop"), any("btop"), any("atop"), any("iotop"), any("iftop"),
    any("nethogs"), any("nload"), any("vmstat"), any("iostat"), any("mpstat"), any("pidstat"), any("sar"),
    any("lsof"), any("ss"), any("netstat"), any("pmap"), any("py-spy"), any("perf"), any("powermetrics"),
    any("fs_usage"), any("opensnoop"), any("execsnoop"), any("lsblk"), any("blkid"), any("findmnt"), any("lscpu"),
    any("lshw"), any("lspci"), any("lsusb"), any("lsmod"), any("modinfo"), any("dmidecode"), any("hwinfo"),
    any("inxi"), any("sensors"), any("smartctl"), any("nvidia-smi"), any("lvs"), any("vgs"), any("pvs"),
    any("lvdisplay"), any("vgdisplay"), any("pvdisplay"), any("ping"), any("traceroute"), any("mtr"),
    any("dig"), any("nslookup"), any("host"), any("conntrack"), any("iptables-save"), any("ip6tables-save"),
    without("fuser", &["-k", "--kill"]),
    check("strace", strace_attaches), without("bpftrace", &["--unsafe"]), without("dtrace", &["-w"]),
    check("dmesg", |c| !c.args.iter().any(|a| matches!(a.as_str(), "-c" | "-C" | "--clear" | "--read-clear" | "-D" | "-E" | "--console-off" | "--console-on" | "-n" | "--console-level"))),
    check("fdisk", |c| c.args.iter().any(|a| a == "-l" || a == "--list")),
    check("sfdisk", |c| c.args.iter().any(|a| matches!(a.as_str(), "-l" | "--list" | "-d" | "--dump"))),
    check("parted", |c| c.args.iter().any(|a| a == "-l" || a == "--list") || c.args.last().is_some_and(|a| a == "print")),
    check("hdparm", |c| only_these_or_devices(c, &["-I", "-i", "-C", "-g", "-H", "-t", "-T", "-tT", "-B", "-M", "-W", "-A", "-a", "-r"])),
    check("sgdisk", |c| only_these_or_devices(c, &["-p", "--print", "-v", "--verify", "-O", "--print-mbr"])),
    check("xfs_admin", |c| only_these_or_devices(c, &["-l", "-u"])),
    check("ventoy", |c| only_these_or_devices(c, &["-l"])),
    check("wipefs", |c| !c.args.iter().any(|a| a.starts_with("--all") || a.starts_with("--offset") || (a.starts_with('-') && !a.starts_with("--") && (a.contains('a') || a.contains('o'))))),
    check("pvck", |c| c.args.iter().any(|a| a == "--dump") && !c.args.iter().any(|a| a.starts_with("--repair"))),
    check("rpmkeys", |c| c.args.iter().all(|a| matches!(a.as_str(), "--list" | "-K" | "--checksig") || !a.starts_with('-'))),
    check("rtcwake", |c| c.args.windows(2).any(|w| matches!(w[0].as_str(), "-m" | "--mode") && w[1] == "show") || c.args.iter().any(|a| a == "--mode=show")),
    check("rkhunter", |c| c.args.iter().all(|a| matches!(a.as_str(), "-c" | "--check" | "--list" | "--versioncheck" | "--sk" | "--skip-keypress" | "--rwo" | "--report-warnings-only"))),
    any("repquota"), any("fatrace"), any("linux-boot-prober"), any("fstrim"),
    // A disk read into an image file: read-only scans and rescues; writing
    // tests (`-w`, `-n`) and a device or forced output change a disk.
    check("badblocks", |c| !c.args.iter().any(|a| a.starts_with('-') && !a.starts_with("--") && (a.contains('w') || a.contains('n')))),
    check("ddrescue", |c| !c.args.iter().any(|a| a == "--force" || (a.starts_with('-') && !a.starts_with("--") && a.contains('f'))) && parse_opts(&c.args, &GNU).operands.get(1).is_some_and(|o| !o.starts_with("/dev/"))),
    check("blockdev", |c| c.args.iter().all(|a| a.starts_with("--get") || a == "--report" || !a.starts_with('-'))),
    verbs("diskutil", &["list", "info", "activity"]),
    verbs("nvme", &["list", "smart-log", "id-ctrl", "id-ns", "error-log", "list-subsys"]),
    verbs("wg", &["show", "showconf"]),
    check("ip", ip_reads),
    check("ethtool", |c| !c.args.iter().any(|a| matches!(a.as_str(), "-s" | "--change" | "-K" | "--features" | "-G" | "-A" | "-C" | "-L" | "-E" | "-r" | "-f" | "--flash"))),
    check("arp", |c| c.args.iter().all(|a| matches!(a.as_str(), "-a" | "-n" | "-an" | "-e" | "-v"))),
    check("route", |c| !c.args.iter().any(|a| matches!(a.as_str(), "add" | "del" | "delete" | "change" | "flush"))),
    // Logs and the clock, read.
    // `logs.erased` judges vacuums and erasing first.
    any("journalctl"),
    verbs("log", &["show", "stream", "stats", "collect"]),
    verbs("timedatectl", &["status", "show", "list-timezones", "timesync-status", "show-timesync", "set-timezone", "set-ntp"]),
    verbs("hostnamectl", &["status"]),
    verbs("localectl", &["status", "list-locales", "list-keymaps", "set-locale", "set-keymap", "set-x11-keymap"]),
    any("locale-gen"), any("update-locale"),
    verbs("loginctl", &["list-sessions", "list-users", "list-seats", "show-session", "show-user", "session-status", "user-status", "seat-status"]),
    // Firewalls, read.
    
    verbs("nft", &["list", "monitor"]),
    // Turning the firewall on and opening a service's port are its
    // everyday use; admin.firewall-disable judges turning it off.
    verbs("ufw", &["status", "show", "app", "enable", "reload", "allow", "deny", "reject", "limit"]),
    check("firewall-cmd", |c| c.args.iter().all(|a| a.starts_with("--list") || a.starts_with("--get") || a.starts_with("--query") || matches!(a.as_str(), "--state" | "--reload" | "--permanent") || a.starts_with("--zone"))),
    check("pfctl", |c| c.args.iter().all(|a| a.starts_with("-s") || a == "-v" || a == "-vv")),
    // Services: reading them, restarting and reloading them to apply a change.
    verbs("systemctl", SYSTEMCTL_VERBS),
    check("service", |c| c.args.iter().any(|a| a == "--status-all") || matches!(c.args.get(1).map(String::as_str), Some("status" | "start" | "restart" | "reload" | "force-reload" | "try-restart" | "condrestart"))),
    check("rc-service", |c| c.args.iter().any(|a| matches!(a.as_str(), "-l" | "--list" | "-e" | "--exists" | "-r" | "--resolve")) || matches!(c.args.get(1).map(String::as_str), Some("status" | "start" | "restart" | "reload" | "zap"))),
    check("sv", |c| matches!(c.args.first().map(String::as_str), Some("status" | "s" | "up" | "u" | "restart" | "t" | "reload" | "h" | "hup" | "check" | "c" | "once" | "o"))),
    verbs("gitlab-ctl", &["status", "restart", "reconfigure", "tail", "show-config", "service-list", "hup", "start"]),
    verbs("postfix", &["status", "check", "start", "reload", "flush"]),
    verbs("machinectl", &["list", "status", "show", "start", "list-images", "image-status", "show-image"]),
    any("lxc-start"), any("lxc-stop"), any("lxc-ls"), any("lxc-info"),
    verbs("launchctl", &["list", "print", "print-disabled", "blame", "kickstart", "dumpstate", "version", "procinfo", "hostinfo"]),
    check("nginx", |c| c.args.iter().all(|a| matches!(a.as_str(), "-t" | "-T" | "-v" | "-V" | "-q" | "-s" | "reload" | "reopen"))),
    check("apachectl", |c| c.args.iter().all(|a| matches!(a.as_str(), "configtest" | "-t" | "-S" | "-M" | "graceful" | "restart" | "start" | "status" | "-v" | "-V"))),
    check("apache2ctl", |c| c.args.iter().all(|a| matches!(a.as_str(), "configtest" | "-t" | "-S" | "-M" | "graceful" | "restart" | "start" | "status" | "-v" | "-V"))),
    check("sshd", |c| c.args.iter().all(|a| matches!(a.as_str(), "-t" | "-T"))),
    check("visudo", |c| c.args.iter().any(|a| a == "-c" || a == "--check")),
    any("certbot"),
    check("crontab", |c| c.args.iter().any(|a| a == "-l")),
    // One command run as another user: the analysis judges the command
    // itself (`accounts.shell-as-other-user` asks for a session).
    check("runuser", gives_a_command), check("su", gives_a_command),
    // Process signals: the process rules judge which and how.
    any("kill"), any("killall"), any("pkill"),
    // Kernel settings: admin.sysctl-write judges writes.
    any("sysctl"),
    // Packages from the configured repositories; the package rules judge
    // removals and files from disk.
    any("apt"), any("apt-get"), any("aptitude"), any("apt-cache"), any("apt-file"),
    without("dnf", &["config-manager", "copr"]), without("yum", &["config-manager", "copr"]), without("microdnf", &[]),
    without("zypper", &["ar", "addrepo", "mr", "modifyrepo"]),
    // Front ends of the same package managers, installing and upgrading
    // from the configured repositories (removals ask: no package rule
    // knows these names).
    verbs("dnf4", &["install", "in", "update", "upgrade", "list", "info", "search", "repoquery", "makecache", "check-update"]),
    verbs("dnf5", &["install", "in", "update", "upgrade", "list", "info", "search", "repoquery", "makecache", "check-upgrade"]),
    verbs("nala", &["install", "update", "upgrade", "full-upgrade", "list", "search", "show", "history"]),
    verbs("oma", &["install", "upgrade", "refresh", "list", "search", "show"]),
    verbs("eopkg", &["install", "it", "upgrade", "up", "list-installed", "li", "search", "sr", "info"]),
    verbs("swupd", &["update", "bundle-add", "bundle-list", "info", "check-update", "search"]),
    check("swupd", |c| c.args.first().is_some_and(|a| a == "verify") && !c.args.iter().any(|a| a == "--fix" || a == "-f")),
    without("pacman", &["--overwrite"]), any("apk"), any("xbps-install"), any("emerge"),
    verbs("snap", &["install", "remove", "refresh", "list", "info", "find", "version", "services", "logs", "changes", "change", "connections", "restart"]),
    verbs("flatpak", &["install", "update", "list", "info", "run", "search", "uninstall"]),
    any("brew"), any("port"), any("mas"), any("softwareupdate"), any("fwupdmgr"),
    verbs("pkg", &["install", "update", "upgrade", "info", "search", "audit", "version", "query"]),
    check("dpkg", dpkg_routine),
    check("rpm", rpm_routine),
    verbs("pip", PACKAGE_VERBS), verbs("pip3", PACKAGE_VERBS), verbs("npm", PACKAGE_VERBS), verbs("pnpm", PACKAGE_VERBS),
    verbs("yarn", PACKAGE_VERBS), verbs("gem", PACKAGE_VERBS), verbs("cargo", PACKAGE_VERBS), verbs("pipx", PACKAGE_VERBS),
    check("ldconfig", |c| c.args.iter().all(|a| a.starts_with('-') && a != "-f" && a != "-C" && a != "-r")),
    any("updatedb"),
    // The build's own install step (`./configure && make && sudo make install`).
    any("make"), any("gmake"), any("ninja"), any("cmake"), any("meson"),
    // Container and cluster clients: the container rules judge their calls.
    any("docker"), any("docker-compose"), any("podman"), any("nerdctl"), any("kubectl"), any("crictl"), any("ctr"), any("helm"),
    // warden's own reading commands.
    verbs("warden", &["why", "rules", "test", "lint", "audit", "check", "doctor", "hook"]),
    // Creating a directory destroys nothing.
    any("mkdir"),
    // macOS.
    any("dscacheutil"), any("purge"), any("xcode-select"), any("xcodebuild"),
    verbs("defaults", &["read", "read-type", "domains", "find", "export"]),
    check("pmset", |c| c.args.first().is_some_and(|a| a == "-g")),
    check("scutil", |c| c.args.iter().any(|a| a.starts_with("--get") || a == "--dns" || a == "--proxy" || a == "--nwi")),
    verbs("tmutil", &["listbackups", "status", "latestbackup", "listlocalsnapshots", "destinationinfo", "compare", "startbackup"]),
    check("spctl", |c| c.args.iter().any(|a| a == "--status" || a == "--assess" || a == "-a")),
    verbs("csrutil", &["status"]),
    // File tools, when no path they touch is in the system's own trees
    // (root-owned build output, a container's files handed back, a web
    // root or `/opt/app` set up). The file, deletion and permission rules
    // judge homes, keys, start-up files and the rest first.
    check("cp", outside_core), check("mv", outside_core), check("rm", outside_core), check("rmdir", outside_core),
    check("ln", outside_core), check("touch", outside_core), check("tee", outside_core), check("truncate", outside_core),
    // Editors opened on a file outside the system's trees; an option
    // (`vim -c ':!sh'`) can run anything.
    check("nano", plain_outside_core), check("vim", plain_outside_core), check("vi", plain_outside_core),
    check("nvim", plain_outside_core), check("emacs", plain_outside_core), check("micro", plain_outside_core),
    // git in a checkout root owns (`sudo git -C /opt/app pull`); its rules
    // judge the rest, but config and pagers given here run programs.
    check("git", |c| !c.args.iter().any(|a| matches!(a.as_str(), "-c" | "-p" | "--paginate" | "help" | "--exec-path" | "difftool" | "mergetool") || a.starts_with("--config") || a.starts_with("--exec-path="))),
    check("install", |c| parse_opts(&c.args, &GNU).flag('d') || outside_core(c)),
    check("tar", |c| tar_only_reads(c) || outside_core(c)), check("unzip", outside_core), check("rsync", outside_core),
    check("chmod", after_first_outside_core), check("chown", after_first_outside_core), check("chgrp", after_first_outside_core),
    check("setfacl", outside_core), check("chattr", outside_core), check("chflags", after_first_outside_core),
    // Capabilities: perms.capabilities judges what is granted.
    any("setcap"), any("filecap"),
    // Programs whose every use a family table judges by its verbs before
    // this rule: storage (pools, volumes, file systems, mounts), security
    // controls and firewalls, the clock, disk fills. What those tables let
    // through they judged harmless; privilege alone does not undo that.
    any("zpool"), any("zfs"), any("btrfs"), any("mdadm"), any("mount"), any("umount"),
    any("swapon"), any("swapoff"), any("lvcreate"), any("lvextend"), any("vgcreate"),
    any("vgextend"), any("pvcreate"), any("resize2fs"), any("xfs_growfs"), any("e2fsck"),
    any("fsck"), any("tune2fs"), any("timeshift"), any("cryptsetup"),
    any("setenforce"), any("aa-enforce"), any("auditctl"), any("semanage"), any("semodule"),
    any("iptables"), any("ip6tables"), any("firewall-cmd"), any("pfctl"), any("freshclam"),
    any("ntpdate"), any("sntp"), any("hwclock"), any("chronyc"), any("fallocate"),
    any("systemsetup"), any("trust"), any("falconctl"), any("mdatp"), any("tcpdump"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "privileged.unmodelled",
        category: "run a command as root that no rule models and that is not known to only read or do routine work",
        reason: "as root a command can change anything on the machine, and warden has no model showing this one is harmless",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::PRIVILEGED, check: unmodelled_as_root },
                hits: &["sudo ./install.sh", "sudo python3 setup_system.py", "sudo add-apt-repository -y ppa:someone/tool", "sudo dnf config-manager --add-repo https://x.example/x.repo", "sudo ip link set eth0 down", "sudo hostnamectl set-hostname box", "doas ./setup", "pkexec /opt/x/bin/tool --apply", "run0 ./setup.sh", "sudo -u root /opt/vendor/bin/agent --apply", "sudo sh -c './setup.sh'", "sudo ldconfig /tmp/lib", "sudo chmod 640 $KEY", "sudo vim -c ':!/bin/sh'", "sudo git -p help config", "sudo -u#-1 ./x", "sudo tlmgr install pkg", "sudo hdparm -B 1 /dev/sda", "sudo xfs_admin -L data /dev/sdc1", "sudo installpkg ./x.tgz", "sudo ./setup --dry-run"],
        misses: &["sudo journalctl -u nginx", "sudo ss -lntp", "sudo cat /var/log/auth.log", "sudo lsof -i :8080", "sudo systemctl restart nginx", "sudo systemctl status nginx", "sudo apt install -y build-essential", "sudo dnf install -y git", "sudo make install", "sudo mkdir -p /opt/app", "sudo iptables -L -n", "sudo rm -rf ./build", "sudo chown -R $USER:$USER ./dist", "sudo chmod 2770 /var/www/project", "sudo cp -r dist/. /srv/site/", "sudo -u postgres createdb app", "sudo -v", "sudo sh -c 'apt-get update && apt-get install -y curl'", "sudo ip addr show", "sudo docker ps", "sudo nano /opt/app/.env", "sudo git -C /opt/app pull", "sudo ufw allow 80/tcp", "sudo swapoff -a", "sudo zpool scrub tank", "sudo systemctl enable --now docker", "sudo btrfs filesystem show", "sudo semanage port -l", "sudo aa-status", "sudo ausearch -m avc", "sudo tlmgr info pkg", "sudo install -m 0755 -d /etc/apt/keyrings", "cp a /etc/x", "sudo strace --attach 4242 -c", "sudo runuser deploy -c 'ls /srv'", "sudo hdparm -I /dev/sda", "sudo nft monitor", "sudo rc-service nginx restart", "sudo ufw --dry-run disable"],
    },
];

/// Whether a privilege wrapper runs `cmd` (as anyone): its sign.
pub(super) fn wrapped_privileged(cmd: &Command) -> bool {
    cmd.wrappers
        .iter()
        .any(|w| PRIVILEGE_WRAPPERS.contains(&w.name.as_str()))
}

/// The user a privilege wrapper runs its command as, when one is named.
fn target_user(w: &Wrapper) -> Option<&str> {
    let mut args = w.args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "-u" | "--user" => return args.next().map(String::as_str),
            _ => {
                if let Some(u) = a.strip_prefix("--user=") {
                    return Some(u);
                }
                if let Some(u) = a.strip_prefix("-u").filter(|u| !u.is_empty()) {
                    return Some(u);
                }
            }
        }
    }
    None
}

/// A privilege wrapper that runs its command as root (no user named, or root).
fn as_root(cmd: &Command) -> bool {
    cmd.wrappers
        .iter()
        .filter(|w| PRIVILEGE_WRAPPERS.contains(&w.name.as_str()))
        .any(|w| {
            target_user(w).is_none_or(|u| matches!(u, "root" | "0" | "#0" | "#-1" | "#4294967295"))
        })
}

fn unmodelled_as_root(cmd: &Command) -> bool {
    wrapped_privileged(cmd) && as_root(cmd) && !routine(cmd, 0)
}

/// Whether `cmd`, run as root, is a use the model knows to be safe. A
/// shell given code (`sudo sh -c '…'`) is as safe as every command in it.
fn routine(cmd: &Command, depth: usize) -> bool {
    if SHELLS.contains(&cmd.program.as_str()) {
        let code = parse_opts(&cmd.args, &Spec::gnu("cO", &[])).value('c');
        return depth == 0
            && code.is_some_and(|code| {
                let inner = crate::shell::analyze(code);
                !inner.commands.is_empty() && inner.commands.iter().all(|c| routine(c, depth + 1))
            });
    }
    if dry_run(cmd) {
        return true;
    }
    let mut rows = KNOWN.iter().filter(|k| k.program == cmd.program).peekable();
    if rows.peek().is_none() {
        return reads_by_its_words(cmd) || !changes_by_its_words(cmd);
    }
    rows.any(|k| match &k.uses {
        Use::Any => true,
        Use::Verbs(list) => parse_opts(&cmd.args, &GNU)
            .operands
            .first()
            .is_none_or(|v| list.contains(v)),
        Use::Without(list) => !cmd.args.iter().any(|a| {
            let key = a.split('=').next().unwrap_or(a);
            list.contains(&key)
        }),
        Use::Check(f) => f(cmd),
    })
}

/// An installed program asked for a dry run (`--dry-run`, `--simulate`):
/// it says what it would change and changes nothing. Scripts and
/// interpreters have no such promise to go by.
fn dry_run(cmd: &Command) -> bool {
    installed(cmd)
        && !interpreter(cmd)
        && cmd
            .args
            .iter()
            .take_while(|a| *a != "--")
            .any(|a| matches!(a.as_str(), "--dry-run" | "--simulate"))
}

/// `strace -p PID` (`--attach`): a running process watched, its trace
/// written nowhere or to a file outside the system's trees (`-o
/// /etc/ld.so.preload` as root would be a system file written).
fn strace_attaches(cmd: &Command) -> bool {
    let attaches = cmd
        .args
        .iter()
        .any(|a| a == "-p" || a == "--attach" || a.starts_with("--attach="));
    let mut outputs = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(a) = args.next() {
        if a == "-o" || a == "--output" {
            outputs.extend(args.next().map(String::as_str));
        } else if let Some(v) = a.strip_prefix("--output=").or(a.strip_prefix("-o")) {
            outputs.push(v);
        }
    }
    attaches && (outputs.is_empty() || clear_of_core(cmd, &outputs))
}

/// `-c CODE` (`--command CODE`) run as a user named and not root: the
/// command runs with less than root's rights (`sudo runuser deploy -c
/// 'ls /srv'`); as root it is a root command warden has not modelled.
fn gives_a_command(cmd: &Command) -> bool {
    const SPEC: Spec = Spec::gnu(
        "cgGsw",
        &[
            "command",
            "session-command",
            "group",
            "supp-group",
            "shell",
            "whitelist-environment",
        ],
    );
    let opts = parse_opts(&cmd.args, &SPEC);
    let code = opts
        .value('c')
        .or(opts.long_value("command", 3))
        .or(opts.long_value("session-command", 3));
    let user = opts.operands.iter().copied().find(|o| *o != "-");
    code.is_some() && user.is_some_and(|u| !matches!(u, "root" | "0"))
}

/// Whether every argument is one of `options` or a device (`hdparm -I /dev/sda`).
fn only_these_or_devices(cmd: &Command, options: &[&str]) -> bool {
    cmd.args
        .iter()
        .all(|a| options.contains(&a.as_str()) || a.starts_with("/dev/"))
}

fn ip_reads(cmd: &Command) -> bool {
    const WRITES: &[&str] = &[
        "add", "del", "delete", "set", "change", "replace", "flush", "append", "prepend", "exec",
        "attach", "detach", "save", "restore", "update",
    ];
    !cmd.args.iter().any(|a| WRITES.contains(&a.as_str()))
}

/// `tar c`/`tar t`: an archive made or listed, which reads the files it
/// names (the archive itself is the one write, judged by the path rules).
fn tar_only_reads(cmd: &Command) -> bool {
    let mode = cmd.args.first().map_or("", |a| a.trim_start_matches('-'));
    (mode.contains('c') || mode.contains('t'))
        && !mode.contains('x')
        && !cmd
            .args
            .iter()
            .any(|a| a.starts_with("--to-command") || a.starts_with("--checkpoint-action"))
}

fn dpkg_routine(cmd: &Command) -> bool {
    const CHANGES: &[&str] = &[
        "-P",
        "--purge",
        "-r",
        "--remove",
        "--set-selections",
        "--clear-selections",
        "--add-architecture",
        "--remove-architecture",
        "--clear-avail",
    ];
    !cmd.args
        .iter()
        .any(|a| a.starts_with("--force") || CHANGES.contains(&a.as_str()))
}

fn rpm_routine(cmd: &Command) -> bool {
    let first = cmd.args.first().map_or("", String::as_str);
    let reads = first.starts_with("-q")
        || first.starts_with("-V")
        || first.starts_with("-K")
        || matches!(first, "--query" | "--verify" | "--checksig");
    // Removals: `packages.*` asks first for the system's own packages.
    let removes = first.starts_with("-e") || first == "--erase";
    let installs = removes
        || first.starts_with("-i")
        || first.starts_with("-U")
        || first.starts_with("-F")
        || matches!(first, "--install" | "--upgrade" | "--freshen");
    let forced = cmd.args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--nodeps" | "--force" | "--nosignature" | "--nodigest"
        )
    });
    (reads || installs) && !forced
}

/// Every path operand outside the system's own trees and the root.
fn outside_core(cmd: &Command) -> bool {
    let ops: Vec<&str> = parse_opts(&cmd.args, &GNU).operands;
    clear_of_core(cmd, &ops)
}

/// As [`outside_core`], with no option at all.
fn plain_outside_core(cmd: &Command) -> bool {
    !cmd.args.iter().any(|a| a.starts_with(['-', '+'])) && outside_core(cmd)
}

/// As [`outside_core`], after the mode, owner or flags the program takes first.
fn after_first_outside_core(cmd: &Command) -> bool {
    let ops: Vec<&str> = parse_opts(&cmd.args, &GNU).operands;
    ops.split_first()
        .is_some_and(|(_, paths)| clear_of_core(cmd, paths))
}

/// The system's own trees: programs, libraries, configuration, boot, the
/// kernel's views, root's home, and the parts of `/var` the system keeps
/// (logs, spools, package and service state). `/opt`, `/srv`, `/var/www`,
/// `/usr/local` and the like hold what an administrator set up; the file
/// rules judge the programs and configuration in them.
fn is_core(path: &str, cwd: Option<&str>) -> bool {
    const TREES: &[&str] = &[
        "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "sys",
        "usr", "root", "System", "Library", "private", "cores",
    ];
    const VAR: &[&str] = &[
        "log", "spool", "lib", "db", "backups", "mail", "audit", "cache",
    ];
    let full = super::paths::resolve(path, cwd);
    let Some(parts) = super::paths::components(&full).filter(|_| full.starts_with('/')) else {
        return false;
    };
    match parts.as_slice() {
        // `/usr/local` is the administrator's own, where `make install` writes.
        ["usr", "local", ..] => false,
        [first, ..] if TREES.contains(first) => true,
        ["var", second, ..] => VAR.contains(second),
        _ => false,
    }
}

fn clear_of_core(cmd: &Command, paths: &[&str]) -> bool {
    !paths.is_empty()
        && paths.iter().all(|p| match classify(p, cmd.cwd.as_deref()) {
            Target::Root => false,
            // `/home/$USER/x` is placed by its first components; `$DIR/x` is not.
            Target::Unknown if !p.starts_with('/') => false,
            _ => !is_core(p, cmd.cwd.as_deref()),
        })
}
