//! The wrapper table for privilege, environment, scheduling, sandbox and resource-limit programs (`sudo`, `env`, `timeout`, `bwrap`, `prlimit`, ...).

use super::{plain, WrapperSpec};

pub(super) const WRAPPERS: &[WrapperSpec] = &[
    WrapperSpec {
        valued: &[
            "-u",
            "-g",
            "-h",
            "-p",
            "-C",
            "-D",
            "-r",
            "-t",
            "-T",
            "-U",
            "--user",
            "--group",
            "--host",
            "--prompt",
            "--chdir",
            "--role",
            "--type",
            "--other-user",
            "--close-from",
            "--command-timeout",
            "-a",
            "-c",
            "-R",
            "--auth-type",
            "--login-class",
            "--chroot",
        ],
        assignments: true,
        ..plain("sudo")
    },
    WrapperSpec {
        valued: &["-u", "-C"],
        ..plain("doas")
    },
    WrapperSpec {
        valued: &["-u", "-C", "-S", "--unset", "--chdir", "--split-string"],
        assignments: true,
        ..plain("env")
    },
    WrapperSpec {
        valued: &["-a"],
        ..plain("exec")
    },
    WrapperSpec {
        valued: &["-n", "--adjustment"],
        ..plain("nice")
    },
    plain("nohup"),
    plain("setsid"),
    WrapperSpec {
        valued: &["-f", "-o", "--format", "--output"],
        ..plain("time")
    },
    plain("command"),
    plain("builtin"),
    WrapperSpec {
        valued: &["-i", "-o", "-e", "--input", "--output", "--error"],
        ..plain("stdbuf")
    },
    WrapperSpec {
        valued: &["-s", "-k", "--signal", "--kill-after"],
        positionals: 1,
        ..plain("timeout")
    },
    WrapperSpec {
        valued: &["-c", "-n", "--class", "--classdata"],
        ..plain("ionice")
    },
    WrapperSpec {
        valued: &["-T", "-P", "-D"],
        positionals: 1,
        ..plain("chrt")
    },
    WrapperSpec {
        positionals: 1,
        ..plain("taskset")
    },
    WrapperSpec {
        valued: &[
            "-w",
            "-E",
            "-c",
            "--timeout",
            "--conflict-exit-code",
            "--command",
        ],
        positionals: 1,
        ..plain("flock")
    },
    WrapperSpec {
        valued: &["--user"],
        ..plain("pkexec")
    },
    WrapperSpec {
        valued: &["--userspec", "--groups"],
        positionals: 1,
        ..plain("chroot")
    },
    plain("busybox"),
    plain("toybox"),
    plain("unbuffer"),
    WrapperSpec {
        valued: &["-t", "-w"],
        ..plain("caffeinate")
    },
    plain("torsocks"),
    WrapperSpec {
        valued: &["-f"],
        ..plain("proxychains")
    },
    WrapperSpec {
        valued: &["-f"],
        ..plain("proxychains4")
    },
    plain("dbus-run-session"),
    WrapperSpec {
        valued: &["-n", "-s", "-e", "-f", "-p"],
        ..plain("xvfb-run")
    },
    plain("catchsegv"),
    // Sandboxes and namespaces.
    WrapperSpec {
        valued: &[
            "-S",
            "-G",
            "-R",
            "-w",
            "--setuid",
            "--setgid",
            "--root",
            "--wd",
            "--map-user",
            "--map-group",
            "--map-users",
            "--map-groups",
            "--propagation",
            "--setgroups",
            "--monotonic",
            "--boottime",
        ],
        ..plain("unshare")
    },
    // firejail's options all carry their value (`--private=DIR`).
    plain("firejail"),
    WrapperSpec {
        valued: &[
            "--args",
            "--argv0",
            "--userns",
            "--userns2",
            "--pidns",
            "--uid",
            "--gid",
            "--hostname",
            "--chdir",
            "--unsetenv",
            "--lock-file",
            "--sync-fd",
            "--remount-ro",
            "--exec-label",
            "--file-label",
            "--proc",
            "--dev",
            "--tmpfs",
            "--mqueue",
            "--dir",
            "--seccomp",
            "--add-seccomp-fd",
            "--block-fd",
            "--userns-block-fd",
            "--info-fd",
            "--json-status-fd",
            "--cap-add",
            "--cap-drop",
            "--perms",
            "--size",
            "--overlay-src",
            "--tmp-overlay",
            "--ro-overlay",
        ],
        multi: &[
            ("--bind", 2),
            ("--bind-try", 2),
            ("--ro-bind", 2),
            ("--ro-bind-try", 2),
            ("--dev-bind", 2),
            ("--dev-bind-try", 2),
            ("--symlink", 2),
            ("--setenv", 2),
            ("--chmod", 2),
            ("--file", 2),
            ("--bind-data", 2),
            ("--ro-bind-data", 2),
            ("--overlay", 3),
        ],
        ..plain("bwrap")
    },
    WrapperSpec {
        valued: &["-l", "-s", "-i", "-b", "--lib", "--faked"],
        ..plain("fakeroot")
    },
    WrapperSpec {
        valued: &[
            "-r",
            "-R",
            "-S",
            "-b",
            "-m",
            "-w",
            "-q",
            "-k",
            "-v",
            "-i",
            "--rootfs",
            "--bind",
            "--mount",
            "--pwd",
            "--cwd",
            "--qemu",
            "--kernel-release",
            "--verbose",
            "--change-id",
        ],
        ..plain("proot")
    },
    WrapperSpec {
        valued: &[
            "--ruid",
            "--euid",
            "--rgid",
            "--egid",
            "--reuid",
            "--regid",
            "--groups",
            "--inh-caps",
            "--ambient-caps",
            "--bounding-set",
            "--securebits",
            "--pdeathsig",
            "--selinux-label",
            "--apparmor-profile",
            "--landlock-access",
            "--landlock-rule",
        ],
        ..plain("setpriv")
    },
    // capsh's options carry their value (`--caps=...`).
    WrapperSpec {
        shell_args: true,
        ..plain("capsh")
    },
    WrapperSpec {
        valued: &[
            "-n", "-b", "-f", "-l", "-rc", "-netns", "-batch", "-family", "-loops",
        ],
        positionals: 1,
        subcommands: &["netns exec"],
        ..plain("ip")
    },
    // Resource limiters.
    WrapperSpec {
        valued: &[
            "-l", "-p", "-e", "-P", "-c", "-s", "--limit", "--pid", "--exe", "--path", "--cpu",
            "--signal",
        ],
        ..plain("cpulimit")
    },
    // Resource options carry their value (`--nofile=1024`, `-n1024`).
    WrapperSpec {
        valued: &["-p", "-o", "--pid", "--output"],
        ..plain("prlimit")
    },
    WrapperSpec {
        valued: &[
            "-i",
            "-m",
            "-N",
            "-C",
            "-p",
            "-P",
            "-w",
            "--interleave",
            "--membind",
            "--cpunodebind",
            "--physcpubind",
            "--preferred",
            "--preferred-many",
            "--weighted-interleave",
            "--cpubind",
        ],
        ..plain("numactl")
    },
    WrapperSpec {
        valued: &["--date-prog"],
        positionals: 1,
        ..plain("faketime")
    },
];
