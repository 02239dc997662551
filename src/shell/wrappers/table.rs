//! The wrapper table for privilege, environment and scheduling programs (`sudo`, `env`, `nice`, `timeout`, `flock`, ...), each entry with the manual its options come from.
//!
//! Short options are written as getopt strings and long ones as names (see
//! [`WrapperSpec`]). Where the GNU, BSD and macOS programs of one name
//! differ, an entry holds the options of all of them: a build that lacks
//! one fails on it and runs nothing, so reading it as the others do never
//! hides a command.

use super::{plain, Assign, Syntax, WrapperSpec};

#[rustfmt::skip]
pub(super) const WRAPPERS: &[WrapperSpec] = &[
    // sudo(8) 1.9 and its parse_args.c: all options before the command,
    // with NAME=value words allowed among them (any word with `=` not
    // starting with `/` or `=`). Values: -C -D -g -h -p -R -r -t -T -U -u
    // (and BSD builds' -a auth type, -c login class); --preserve-env takes
    // an optional `=list`. A bare -h asks for help unless the next word is
    // no option and no assignment: then that word is the remote host, so
    // the word after -h is never the command. -D/--chdir runs the command
    // in a directory; -s/--shell and -i/--login hand it to a shell as
    // escaped `-c` text (with none, the shell reads stdin); -e/--edit edits
    // the files named, as sudoedit; -l/--list only says whether the command
    // would be allowed.
    WrapperSpec {
        short: "Aa:BbC:c:D:Eeg:Hh:iKklNnPp:R:r:SsT:t:U:u:Vv",
        long: &[
            "askpass", "auth-type=", "background", "bell", "close-from=", "login-class=",
            "chdir=", "preserve-env?", "edit", "group=", "set-home", "help", "host=", "login",
            "remove-timestamp", "reset-timestamp", "list", "no-update", "non-interactive",
            "preserve-groups", "prompt=", "chroot=", "role=", "stdin", "shell",
            "command-timeout=", "type=", "other-user=", "user=", "validate", "version",
        ],
        assignments: Assign::Among,
        chdir: &["-D", "--chdir"],
        inert: &["-l", "--list"],
        shell: &["-s", "--shell", "-i", "--login"],
        program: &[("-e", "sudoedit"), ("--edit", "sudoedit")],
        ..plain("sudo")
    },
    // doas(1) (OpenBSD, and OpenDoas on Linux): getopt `C:Lnsu:`. -C checks
    // a config file (and a command against it) without running anything;
    // -L clears the remembered authentication; -s runs the user's shell.
    WrapperSpec {
        short: "C:Lnsu:",
        inert: &["-C", "-L"],
        shell: &["-s"],
        ..plain("doas")
    },
    // pkexec(1) (polkit): whole words only: --user/-u take the next word;
    // --disable-internal-agent, --keep-cwd, --help, --version are flags.
    // With no program it runs the target user's shell.
    WrapperSpec {
        syntax: Syntax::Words,
        short: "u:",
        long: &["user=", "disable-internal-agent", "keep-cwd", "help", "version"],
        bare_shell: true,
        ..plain("pkexec")
    },
    // run0(1) (systemd 256 and later): getopt `+hVu:g:D:i` before the
    // command; --user/--group/--chdir/--nice/--setenv/--property/--unit/
    // --description/--slice/--machine/--background/--shell-prompt-prefix
    // take values. With no command it runs the target user's shell.
    WrapperSpec {
        short: "hVu:g:D:i",
        long: &[
            "help", "version", "no-ask-password", "machine=", "unit=", "property=", "description=",
            "slice=", "slice-inherit", "user=", "group=", "nice=", "chdir=", "setenv=",
            "background=", "pty", "pipe", "shell-prompt-prefix=", "via-shell", "lightweight=",
        ],
        chdir: &["-D", "--chdir"],
        bare_shell: true,
        ..plain("run0")
    },
    // env(1): GNU coreutils (getopt `+a:C:iS:u:v0`; long --argv0, --unset,
    // --chdir, --split-string with values, --block-signal,
    // --default-signal, --ignore-signal with optional `=SIG`), FreeBSD
    // (`0iL:P:S:U:u:v`: -P a search path for the program, -L/-U a login
    // class's environment), macOS (`0C:iP:S:u:v`) and NetBSD (`0C:iu:`).
    // A lone `-` is -i. NAME=value words follow the options (GNU and BSD
    // take any word with `=`), then NetBSD skips a `--`. -C/--chdir runs
    // the command in a directory. -S splits its string into words that take
    // its place, options and assignments included (see `split_string`).
    WrapperSpec {
        short: "0a:C:iL:P:S:U:u:v",
        long: &[
            "argv0=", "ignore-environment", "null", "unset=", "chdir=", "split-string=",
            "block-signal?", "default-signal?", "ignore-signal?", "list-signal-handling", "debug",
            "help", "version",
        ],
        dash: true,
        assignments: Assign::After,
        chdir: &["-C", "--chdir"],
        splits: &["-S", "--split-string"],
        ..plain("env")
    },
    // exec (bash and zsh builtin): `-c` empty environment, `-l` login
    // dash, `-a NAME` the zeroth argument.
    WrapperSpec {
        short: "cla:",
        ..plain("exec")
    },
    // command (POSIX, bash): `-p` default PATH; `-v` and `-V` only say what
    // the name is, running nothing.
    WrapperSpec {
        short: "pvV",
        inert: &["-v", "-V"],
        ..plain("command")
    },
    // builtin (bash): no options.
    plain("builtin"),
    // nice(1): GNU (getopt `+n:`, --adjustment=N) and BSD (`-n N`); both
    // also read the old `-N` (GNU `--N` and `-+N` too) as an adjustment.
    // `-n -5` is -n with the value -5.
    WrapperSpec {
        short: "n:",
        long: &["adjustment=", "help", "version"],
        numbers: true,
        ..plain("nice")
    },
    // nohup(1): GNU has only --help and --version; BSD none.
    WrapperSpec {
        long: &["help", "version"],
        ..plain("nohup")
    },
    // setsid(1) (util-linux): getopt `+cfwhV`, all flags.
    WrapperSpec {
        short: "cfwhV",
        long: &["ctty", "fork", "wait", "help", "version"],
        ..plain("setsid")
    },
    // time: GNU time(1) (getopt `+af:o:pqvV`: -f/--format and -o/--output
    // take values), FreeBSD (`ahlo:p`), macOS (`lp`), and bash's keyword
    // (`-p`).
    WrapperSpec {
        short: "af:hlo:pqvV",
        long: &[
            "append", "format=", "output=", "portability", "quiet", "verbose", "help",
            "version",
        ],
        ..plain("time")
    },
    // stdbuf(1): GNU (getopt `+i:o:e:`) and FreeBSD alike: each takes a mode.
    WrapperSpec {
        short: "i:o:e:",
        long: &["input=", "output=", "error=", "help", "version"],
        ..plain("stdbuf")
    },
    // timeout(1): GNU (getopt `+fk:ps:v`: -k/--kill-after and -s/--signal
    // take values) and FreeBSD (same letters); then the DURATION.
    WrapperSpec {
        short: "fk:ps:v",
        long: &[
            "foreground", "kill-after=", "preserve-status", "signal=", "verbose", "help",
            "version",
        ],
        positionals: 1,
        ..plain("timeout")
    },
    // ionice(1) (util-linux): getopt `+c:n:p:P:tu:hV`. -p/-P/-u act on
    // running processes (every word after them is an ID): nothing runs.
    WrapperSpec {
        short: "c:n:p:P:tu:hV",
        long: &["class=", "classdata=", "pid=", "pgid=", "ignore", "uid=", "help", "version"],
        inert: &["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
        ..plain("ionice")
    },
    // chrt(1) (util-linux): getopt `+abdD:fiphmoP:T:rRvV` (-D, -P, -T the
    // deadline parameters; newer builds add -G/--reclaim-grub and the
    // deadline and clamp options); then a priority, which chrt since 2025
    // lets the policies without one leave out, then the command. -p changes a
    // running process and -m prints limits: nothing runs.
    WrapperSpec {
        short: "abdD:fGihmoP:pT:rRvV",
        long: &[
            "all-tasks", "batch", "deadline", "idle", "fifo", "other", "rr", "reset-on-fork",
            "sched-runtime=", "sched-period=", "sched-deadline=", "reclaim-grub",
            "deadline-overrun", "clamp-min=", "clamp-max=", "pid", "max", "verbose", "help",
            "version",
        ],
        positionals: 1,
        numeric_positional: true,
        inert: &["-p", "--pid", "-m", "--max"],
        ..plain("chrt")
    },
    // taskset(1) (util-linux): getopt `+apchV`, all flags; then the mask
    // (or list with -c). -p changes a running process: nothing runs.
    WrapperSpec {
        short: "apchV",
        long: &["all-tasks", "pid", "cpu-list", "help", "version"],
        positionals: 1,
        inert: &["-p", "--pid"],
        ..plain("taskset")
    },
    // flock(1) (util-linux): getopt `+sexnoFuw:E:hV` (-w/--wait/--timeout
    // and -E/--conflict-exit-code take values), then the lock file. `-c`
    // and `--command` are no getopt options: only as the word after the
    // file do they make the next word shell text (see `runs_command`).
    WrapperSpec {
        short: "sexnoFuw:E:hV",
        long: &[
            "shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "timeout=",
            "wait=", "conflict-exit-code=", "verbose", "help", "version",
        ],
        positionals: 1,
        ..plain("flock")
    },
    // chroot: GNU chroot(8) (long only: --userspec, --groups take values;
    // --skip-chdir), FreeBSD and macOS (`G:g:u:`, FreeBSD also -n); then
    // NEWROOT. With no command it runs the user's shell.
    WrapperSpec {
        short: "G:g:nu:",
        long: &["userspec=", "groups=", "skip-chdir", "help", "version"],
        positionals: 1,
        bare_shell: true,
        ..plain("chroot")
    },
    // busybox(1), toybox(1): the first word is the applet, which is read
    // again as a program (`busybox env -i ...` is env's). --list and
    // --install run none.
    WrapperSpec {
        long: &["list", "list-full", "install", "help"],
        inert: &["--list", "--list-full", "--install"],
        ..plain("busybox")
    },
    WrapperSpec {
        long: &["long", "help", "version"],
        ..plain("toybox")
    },
    // unbuffer(1) (expect): only `-p`, as the first word.
    WrapperSpec {
        syntax: Syntax::Words,
        short: "p",
        ..plain("unbuffer")
    },
    // caffeinate(8) (macOS): getopt `dimsut:w:`.
    WrapperSpec {
        short: "dimsut:w:",
        ..plain("caffeinate")
    },
    // torsocks(1): a shell script comparing whole words: -u/--user,
    // -p/--pass, -a/--address, -P/--port take the next word; -i, -6, -d,
    // -q flags; --shell starts a torified shell. `on`, `off`, `show`, `sh`
    // as the first word edit or print LD_PRELOAD (see `runs_command`).
    WrapperSpec {
        syntax: Syntax::Words,
        short: "u:p:a:P:i6dqh",
        long: &[
            "user=", "pass=", "address=", "port=", "isolate", "ipv6", "debug", "quiet", "help",
            "version", "shell",
        ],
        inert: &["-h", "--help", "--version"],
        shell: &["--shell"],
        ..plain("torsocks")
    },
    // proxychains4(1) (proxychains-ng, also installed as proxychains): at
    // most two leading words, told apart by their second letter: `-q`
    // quiet, `-f FILE` the config. proxychains 3 takes no options at all.
    WrapperSpec {
        syntax: Syntax::Words,
        short: "qf:",
        ..plain("proxychains")
    },
    WrapperSpec {
        syntax: Syntax::Words,
        short: "qf:",
        ..plain("proxychains4")
    },
    // dbus-run-session(1): --config-file and --dbus-daemon take a value,
    // attached with `=` or in the next word; whole names only.
    WrapperSpec {
        syntax: Syntax::Whole,
        long: &["config-file=", "dbus-daemon=", "help", "version"],
        ..plain("dbus-run-session")
    },
    // xvfb-run(1) (Debian): getopt(1) `+ade:f:hn:lp:s:w:` with long
    // --error-file, --auth-file, --server-num, --xauth-protocol,
    // --server-args, --wait taking values.
    WrapperSpec {
        short: "ade:f:hn:lp:s:w:",
        long: &[
            "auto-servernum", "auto-display", "error-file=", "auth-file=", "help", "server-num=",
            "listen-tcp", "xauth-protocol=", "server-args=", "wait=",
        ],
        ..plain("xvfb-run")
    },
    // catchsegv (glibc): no options.
    plain("catchsegv"),
];
