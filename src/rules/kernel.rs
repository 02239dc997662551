//! Built-in rules: the kernel and the boot (modules and kernel extensions loaded or removed, kernel tunables written, boot menus, entries, firmware variables and initramfs changed), one row per program.

use super::opts::{parse_opts, Spec, GNU};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs that load code into the running kernel or take it out.
#[rustfmt::skip]
static MODULES: &[Verb] = &[
    verb_if("modprobe", "", modprobe_changes),
    verb_if("insmod", "", has_operand),
    verb_if("rmmod", "", has_operand),
    verb_if("kextload", "", has_operand),
    verb_if("kextunload", "", has_operand),
    // `kextutil -n` checks a kext without loading it.
    verb_if("kextutil", "", |c| has_operand(c) && !c.has_short('n') && !c.has_long("--no-load")),
    verb("kmutil", r"^(?:load|unload|install)\b"),
];

/// Programs that write the kernel's run-time settings.
#[rustfmt::skip]
static TUNABLES: &[Verb] = &[
    verb_if("sysctl", "", sysctl_writes),
];

/// Programs that change what the machine boots, and how.
#[rustfmt::skip]
static BOOT: &[Verb] = &[
    // GRUB: the menu regenerated, the default or next entry chosen.
    verb_if("update-grub", "", not_help),
    verb_if("update-grub2", "", not_help),
    verb("grub-mkconfig", r"(?:^| )(?:-o|--output)[ =]?(?:[^/ ]|/[^d]|/d[^e]|/de[^v])"),
    verb("grub2-mkconfig", r"(?:^| )(?:-o|--output)[ =]?(?:[^/ ]|/[^d]|/d[^e]|/de[^v])"),
    verb_if("grub-reboot", "", has_operand),
    verb_if("grub2-reboot", "", has_operand),
    verb_if("grub-set-default", "", has_operand),
    verb_if("grub2-set-default", "", has_operand),
    verb("grub-editenv", r"(?:^| )(?:set|unset|create)(?: |$)"),
    verb("grubby", r"(?:^| )--(?:set-default|update-kernel|args|remove-args|add-kernel|remove-kernel|make-default)\b"),
    verb("kernel-install", r"^(?:-\S+ )*(?:add|remove|add-all)\b"),
    verb("bootctl", r"^(?:-\S+ )*(?:set-default|set-oneshot|unlink|cleanup)\b"),
    // A staged kernel replaces the running one at the next `kexec -e`.
    verb("kexec", r"(?:^| )(?:-l|-p|--load|--load-panic|-s|--kexec-file-syscall)(?: |$)"),
    // The initramfs every boot starts from, rebuilt.
    verb_if("dracut", "", |c| not_help(c) && !c.args.iter().any(|a| matches!(a.as_str(), "--list-modules" | "--print-cmdline"))),
    verb_if("mkinitcpio", "", |c| not_help(c) && !c.args.iter().any(|a| matches!(a.as_str(), "-L" | "--listhooks" | "-H" | "--hookhelp" | "-M" | "--automods"))),
    verb("update-initramfs", r"(?:^| )-[a-z]*[ucd]"),
    // macOS: firmware variables and the startup disk.
    verb_if("nvram", "", nvram_writes),
    verb("bless", r"(?:^| )--(?:setBoot|nextonly|bootefi|bootinfo)\b"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "kernel.load-module",
        category: "load or unload a kernel module or kernel extension",
        reason: "kernel code runs with full control of the machine, below every security control, and unloading one can cut off disks or the network",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(MODULES),
        hits: &["insmod rootkit.ko", "sudo modprobe rootkit", "modprobe -v nbd max_part=8", "sudo modprobe -a dummy veth", "sudo rmmod nf_tables", "modprobe -r kvm", "modprobe --remove usb_storage", "kextload /tmp/x.kext", "sudo kextutil -v /Library/Extensions/x.kext", "kextunload -b com.example.driver", "kmutil load -p /tmp/x.kext"],
        misses: &["lsmod", "modinfo ext4", "modprobe -n -r kvm", "modprobe --dry-run nbd", "modprobe -c", "modprobe --show-depends ext4", "kmutil showloaded", "kextstat", "kextutil -n -t x.kext", "rmmod --help", "echo modprobe nbd"],
    },
    Rule {
        id: "kernel.tunable-write",
        category: "change kernel parameters at run time (sysctl)",
        reason: "kernel settings such as address randomisation, ptrace limits, kernel pointer exposure or packet forwarding change for the whole machine",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(TUNABLES),
        hits: &["sysctl -w kernel.randomize_va_space=0", "sudo sysctl net.ipv4.ip_forward=1", "sysctl -w kernel.yama.ptrace_scope=0", "sysctl -w fs.protected_symlinks=0", "sysctl -p /tmp/evil.conf", "sysctl --load=/tmp/x.conf", "sysctl -w kern.securelevel=0"],
        misses: &["sysctl -a", "sysctl kernel.randomize_va_space", "sysctl -n vm.swappiness", "sysctl -n hw.ncpu", "sudo sysctl -w fs.inotify.max_user_watches=524288", "sudo sysctl -w vm.max_map_count=262144", "sudo sysctl -p", "sudo sysctl --system", "sysctl -a | grep vm.swappiness"],
    },
    Rule {
        id: "kernel.boot-change",
        category: "change what the machine boots (boot menu, default entry, initramfs, firmware variables, startup disk)",
        reason: "the next boot runs what the change says; a mistake leaves the machine unable to start, and a boot argument can switch protections off",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(BOOT),
        hits: &["sudo update-grub", "sudo grub-mkconfig -o /boot/grub/grub.cfg", "grub2-mkconfig -o /boot/grub2/grub.cfg", "sudo grub-reboot 2", "sudo grub-set-default 1", "kexec -l /boot/vmlinuz --initrd=/boot/initrd.img --reuse-cmdline", "sudo dracut -f", "sudo mkinitcpio -P", "sudo update-initramfs -u -k all", "nvram -d boot-args", "sudo bless --mount /Volumes/X --setBoot", "bootctl set-default arch.conf"],
        misses: &["grub-mkconfig", "grub-mkconfig -o /dev/stdout", "grub-editenv list", "grubby --info=ALL", "kexec --help", "lsinitrd", "mkinitcpio -L", "update-initramfs -h", "nvram -p", "nvram boot-args", "bless --info", "bootctl status", "update-grub --help"],
    },
];

fn not_help(cmd: &Command) -> bool {
    !cmd.args
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-V" | "--version" | "-?"))
}

/// Given something to act on (a module, a kext, `-b BUNDLE`), not help.
fn has_operand(cmd: &Command) -> bool {
    not_help(cmd) && !cmd.args.is_empty()
}

#[rustfmt::skip]
const MODPROBE: Spec = Spec::gnu("Cdo", &["config", "dirname", "set-version"]);

/// `modprobe NAME` loads and `-r` removes; a dry run, the configuration,
/// the dependencies or an alias only print.
fn modprobe_changes(cmd: &Command) -> bool {
    if !not_help(cmd) {
        return false;
    }
    let opts = parse_opts(&cmd.args, &MODPROBE);
    let prints = ['n', 'c', 'D', 'R'].iter().any(|f| opts.flag(*f))
        || [
            "dry-run",
            "show",
            "showconfig",
            "show-config",
            "show-depends",
            "resolve-alias",
            "dump-modversions",
            "show-modversions",
            "show-exports",
        ]
        .iter()
        .any(|l| opts.long(l, l.len()));
    !prints && !opts.operands.is_empty()
}

/// Capacity limits that setup guides raise for everyday software (file
/// watchers, search engines, many connections); none of them weakens a
/// protection.
#[rustfmt::skip]
const CAPACITY: &[&str] = &[
    "fs.inotify.",
    "fs.file-max",
    "fs.nr_open",
    "fs.aio-max-nr",
    "vm.max_map_count",
    "vm.swappiness",
    "vm.overcommit_memory",
    "vm.dirty_",
    "vm.vfs_cache_pressure",
    "net.core.somaxconn",
    "net.core.rmem_",
    "net.core.wmem_",
    "net.core.netdev_max_backlog",
    "net.ipv4.tcp_rmem",
    "net.ipv4.tcp_wmem",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_max_syn_backlog",
    "kernel.pid_max",
    "kern.maxfiles",
    "kern.maxfilesperproc",
    "kern.ipc.somaxconn",
];

/// `sysctl KEY=VALUE` (with or without `-w`) of anything but a capacity
/// limit, or settings loaded from a file other than the system's own.
fn sysctl_writes(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &Spec::gnu("", &["pattern"]));
    let sets = opts.operands.iter().any(|o| {
        o.split_once('=').is_some_and(|(key, _)| {
            let key = key.trim().replace('/', ".");
            !CAPACITY.iter().any(|c| key.starts_with(c))
        })
    });
    // `-p FILE`/`--load=FILE`: `-p` alone reads /etc/sysctl.conf.
    let from_file = (opts.flag('p') || opts.long("load", 3))
        && opts
            .long_value("load", 3)
            .into_iter()
            .chain(opts.operands.iter().copied().filter(|o| !o.contains('=')))
            .any(|f| !f.starts_with("/etc/sysctl"));
    sets || from_file
}

/// `nvram NAME=VALUE`, `-d NAME`, `-c` (clear all) or `-f FILE`; `-p`,
/// `-x` and a bare name only print.
fn nvram_writes(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &GNU);
    opts.flag('d')
        || opts.flag('c')
        || opts.flag('f')
        || opts.operands.iter().any(|o| o.contains('='))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysctl_keys() {
        let w = |a: &[&str]| sysctl_writes(&Command::new("sysctl", a));
        assert!(w(&["-w", "kernel.kptr_restrict=0"]));
        assert!(w(&["kernel/yama/ptrace_scope=0"]));
        assert!(!w(&["-w", "fs.inotify.max_user_instances=512"]));
        assert!(!w(&["-p", "/etc/sysctl.d/99-x.conf"]));
        assert!(w(&["-p", "./x.conf"]));
        assert!(!w(&["-n", "kernel.ostype"]));
    }
}
