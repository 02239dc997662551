//! The wrapper table for sandboxes, namespaces and resource limiters (`unshare`, `bwrap`, `firejail`, `capsh`, `ip netns exec`, `prlimit`, ...), each entry with the manual its options come from.

use super::{plain, Syntax, WrapperSpec};
use crate::shell::command::{Command, Wrapper};
use crate::shell::eval::Eval;
use crate::shell::expand::Field;

/// Sandboxes whose binds show other directories inside them (`bwrap --bind
/// / /x`; see `rules::links::binds`): what their command runs, runs in them
/// too, and carries them as wrappers of its own.
const BINDING: &[&str] = &["bwrap", "proot", "firejail"];

/// Whether `cmd` runs in a sandbox that binds directories.
pub(in crate::shell) fn binds_directories(cmd: &Command) -> bool {
    cmd.wrappers
        .iter()
        .any(|w| BINDING.contains(&w.name.as_str()))
}

impl Eval<'_> {
    /// `special` for a command run in such a sandbox.
    #[cold]
    pub(in crate::shell) fn special_sandboxed(&mut self, cmd: &mut Command, fields: &[Field]) {
        let outer = self.sandboxes.len();
        let binding = cmd
            .wrappers
            .iter()
            .filter(|w| BINDING.contains(&w.name.as_str()));
        self.sandboxes.extend(binding.cloned());
        self.special(cmd, fields);
        self.sandboxes.truncate(outer);
    }

    /// Puts the sandboxes a command nested in one runs in around it.
    #[cold]
    pub(in crate::shell) fn sandboxed(&self, cmd: &mut Command) {
        let outer: Vec<Wrapper> = self
            .sandboxes
            .iter()
            .filter(|s| !cmd.wrappers.contains(s))
            .cloned()
            .collect();
        cmd.wrappers.splice(0..0, outer);
    }
}

#[rustfmt::skip]
pub(super) const WRAPPERS: &[WrapperSpec] = &[
    // unshare(1) (util-linux 2.38-2.40): getopt `+fhVm::u::i::n::p::U::C::
    // T::rR:w:S:G:cl:` — the namespace options take only an attached file
    // (`-m/tmp/ns`, `--mount=/tmp/ns`); -R/--root, -w/--wd, -S/--setuid,
    // -G/--setgid, --map-user(s), --map-group(s), --propagation,
    // --setgroups, --monotonic, --boottime, --load-interp take values.
    // -w runs the command in a directory; with no command it runs the
    // user's shell.
    WrapperSpec {
        short: "fhVm::u::i::n::p::U::C::T::rR:w:S:G:cl:",
        long: &[
            "mount?", "uts?", "ipc?", "net?", "pid?", "user?", "cgroup?", "time?", "fork",
            "map-user=", "map-group=", "map-root-user", "map-current-user", "map-auto",
            "map-users=", "map-groups=", "kill-child?", "mount-proc?", "mount-binfmt?",
            "load-interp=", "propagation=", "setgroups=", "keep-caps", "root=", "wd=",
            "setuid=", "setgid=", "monotonic=", "boottime=", "help", "version",
        ],
        chdir: &["-w", "--wd"],
        bare_shell: true,
        ..plain("unshare")
    },
    // firejail(1): every option is one word, its value after `=`
    // (`--private=DIR`); with no program it runs the user's shell.
    WrapperSpec {
        syntax: Syntax::Attached,
        bare_shell: true,
        ..plain("firejail")
    },
    // bwrap(1) (bubblewrap 0.8): whole words, values in the words after
    // (`--bind SRC DEST` two, `--overlay RWSRC WORKDIR DEST` three).
    // --chdir runs the command in a directory.
    WrapperSpec {
        syntax: Syntax::Words,
        long: &[
            "help", "version", "level-prefix", "args=", "argv0=", "unshare-all", "share-net",
            "unshare-user", "unshare-user-try", "unshare-ipc", "unshare-pid", "unshare-net",
            "unshare-uts", "unshare-cgroup", "unshare-cgroup-try", "userns=", "userns2=",
            "disable-userns", "assert-userns-disabled", "pidns=", "uid=", "gid=", "hostname=",
            "chdir=", "clearenv", "setenv=2", "unsetenv=", "lock-file=", "sync-fd=", "perms=",
            "size=", "bind=2", "bind-try=2", "dev-bind=2", "dev-bind-try=2", "ro-bind=2",
            "ro-bind-try=2", "bind-fd=2", "ro-bind-fd=2", "remount-ro=", "overlay-src=",
            "overlay=3", "tmp-overlay=", "ro-overlay=", "exec-label=", "file-label=", "proc=",
            "dev=", "tmpfs=", "mqueue=", "dir=", "file=2", "bind-data=2", "ro-bind-data=2",
            "symlink=2", "chmod=2", "seccomp=", "add-seccomp-fd=", "block-fd=",
            "userns-block-fd=", "info-fd=", "json-status-fd=", "new-session",
            "die-with-parent", "as-pid-1", "cap-add=", "cap-drop=",
        ],
        chdir: &["--chdir"],
        ..plain("bwrap")
    },
    // fakeroot(1) (a script over getopt(1) `+l:f:i:s:ub:vh`: -l/--lib,
    // -f/--faked, -i, -s, -b/--fd-base take values). With no command it
    // runs the user's shell.
    WrapperSpec {
        short: "l:f:i:s:ub:vh",
        long: &["lib=", "faked=", "unknown-is-real", "fd-base=", "version", "help"],
        bare_shell: true,
        ..plain("fakeroot")
    },
    // proot(1): `-r PATH` or `--rootfs=PATH` style, whole names; -r, -b/-m,
    // -q, -w, -v, -k, -i, -R, -S take values. -w/--pwd/--cwd runs the
    // command in a directory; with no command it runs /bin/sh.
    WrapperSpec {
        syntax: Syntax::Whole,
        short: "r:b:m:q:w:v:Vhk:0i:R:S:",
        long: &[
            "rootfs=", "bind=", "mount=", "qemu=", "pwd=", "cwd=", "verbose=", "version",
            "about", "help", "usage", "kernel-release=", "root-id", "change-id=",
            "link2symlink", "kill-on-exit",
        ],
        chdir: &["-w", "--pwd", "--cwd"],
        bare_shell: true,
        ..plain("proot")
    },
    // setpriv(1) (util-linux): getopt `+dhV`; every long option but
    // --nnp/--no-new-privs, --clear-groups, --keep-groups, --init-groups,
    // --reset-env takes a value. -d/--dump prints and runs nothing.
    WrapperSpec {
        short: "dhV",
        long: &[
            "dump", "nnp", "no-new-privs", "inh-caps=", "ambient-caps=", "bounding-set=",
            "ruid=", "euid=", "rgid=", "egid=", "reuid=", "regid=", "clear-groups",
            "keep-groups", "init-groups", "groups=", "securebits=", "pdeathsig=",
            "selinux-label=", "apparmor-profile=", "landlock-access=", "landlock-rule=",
            "reset-env", "help", "version",
        ],
        inert: &["-d", "--dump"],
        ..plain("setpriv")
    },
    // capsh(1) (libcap): every option one word (`--caps=...`). `--` and
    // `-+` run a shell (bash, or --shell's) on the words after them; `==`
    // and `=+` run capsh again on them (see `runs_command`, `command`).
    WrapperSpec {
        syntax: Syntax::Attached,
        shell_args: true,
        ..plain("capsh")
    },
    // ip(8) (iproute2): its own reader, in this order: a word of one dash
    // or two is the first of these it begins (`-n` is -netns, `-b` -batch,
    // `-r` -resolve, `-rc` -rcvbuf). -loops, -family, -batch, -rcvbuf and
    // -netns take values; -color an optional `=WHEN`. `ip netns exec NAME`
    // then runs the command; `-all` leaves out NAME.
    WrapperSpec {
        syntax: Syntax::Prefix,
        long: &[
            "loops=", "family=", "4", "6", "0", "M", "B", "human", "human-readable", "iec",
            "stats", "statistics", "details", "resolve", "oneline", "timestamp", "tshort",
            "Version", "force", "batch=", "brief", "json", "pretty", "rcvbuf=", "color?",
            "help", "netns=", "Numeric", "all", "echo",
        ],
        positionals: 1,
        subcommands: &["netns exec"],
        ..plain("ip")
    },
    // cpulimit(1): getopt `p:e:P:l:c:s:bfqkmrvzh` (and opsengine's `i`);
    // the program after `--` or after the options.
    WrapperSpec {
        short: "p:e:P:l:c:s:bfqkmrvzhi",
        long: &[
            "pid=", "exe=", "path=", "limit=", "cpu=", "signal=", "background", "foreground",
            "quiet", "kill", "monitor-forks", "restore", "verbose", "lazy", "help",
            "include-children",
        ],
        ..plain("cpulimit")
    },
    // prlimit(1) (util-linux): -p/--pid and -o/--output take values; the
    // resource options take only an attached limit (`-n1024`,
    // `--nofile=1024`). With --pid it changes a running process.
    WrapperSpec {
        short: "c::d::e::f::hi::l::m::n::o:p:q::r::s::t::u::v::x::y::V",
        long: &[
            "core?", "data?", "nice?", "fsize?", "sigpending?", "memlock?", "rss?", "nofile?",
            "msgqueue?", "rtprio?", "stack?", "cpu?", "nproc?", "as?", "locks?", "rttime?",
            "pid=", "output=", "noheadings", "raw", "verbose", "help", "version",
        ],
        inert: &["-p", "--pid"],
        ..plain("prlimit")
    },
    // numactl(8) 2.0: -i -m -N -C -p -P -w -c (policies) and -L -o -M -I -S
    // -f (shared memory) take values; -s/--show and -H/--hardware print.
    WrapperSpec {
        short: "abc:C:dDf:HI:i:lL:M:m:N:o:P:p:sS:tTuw:",
        long: &[
            "all", "balancing", "interleave=", "weighted-interleave=", "preferred=",
            "preferred-many=", "physcpubind=", "cpunodebind=", "cpubind=", "membind=",
            "localalloc", "show", "hardware", "length=", "offset=", "shmmode=", "strict",
            "shmid=", "shm=", "file=", "huge", "touch", "dump", "dump-nodes",
        ],
        inert: &["-s", "--show", "-H", "--hardware"],
        ..plain("numactl")
    },
    // faketime(1) (libfaketime): whole words: -m, -f, --exclude-monotonic
    // flags; -p PID and --date-prog PROG take values; then the timestamp.
    WrapperSpec {
        syntax: Syntax::Words,
        short: "mfp:",
        long: &["help", "version", "exclude-monotonic", "date-prog="],
        positionals: 1,
        ..plain("faketime")
    },
];
