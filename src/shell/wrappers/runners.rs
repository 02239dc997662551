//! The wrapper table for tracers, session and service launchers, and package or environment runners (`strace`, `screen`, `systemd-run`, `npx`, `uv run`, ...), each entry with the manual or documentation its options come from.

use super::{plain, Syntax, WrapperSpec};

/// `uv run` and `uvx` (clap, whole long names): the options that take a
/// value, and the common flags (uv's reference, "uv run" and "uvx").
#[rustfmt::skip]
const UV_LONG: &[&str] = &[
    "with=", "with-editable=", "with-requirements=", "python=", "package=", "extra=", "group=",
    "only-group=", "no-group=", "env-file=", "directory=", "project=", "from=", "index=",
    "default-index=", "index-url=", "extra-index-url=", "find-links=", "config-file=",
    "config-setting=", "cache-dir=", "color=", "python-preference=", "prerelease=",
    "resolution=", "exclude-newer=", "link-mode=", "index-strategy=", "keyring-provider=",
    "allow-insecure-host=", "refresh-package=", "upgrade-package=", "reinstall-package=",
    "no-build-package=", "no-binary-package=", "module", "script", "gui-script", "frozen",
    "locked", "no-sync", "isolated", "no-project", "all-extras", "all-packages", "no-dev",
    "dev", "exact", "active", "no-editable", "offline", "no-cache", "quiet", "verbose",
    "no-config", "native-tls", "preview", "refresh", "upgrade", "reinstall", "no-env-file",
    "help", "version",
];

/// `npx` and `npm exec` (npm's nopt reader, which takes prefixes of long
/// names): the options that take a value and the common flags (npm-exec(1)).
/// `-c`/`--call` is shell text, handled apart.
#[rustfmt::skip]
const NPM_LONG: &[&str] = &[
    "package=", "call=", "workspace=", "workspaces", "include-workspace-root", "cache=",
    "registry=", "prefix=", "userconfig=", "loglevel=", "yes", "no", "quiet", "silent",
];

/// `conda run` (argparse, which takes prefixes of long names), and mamba's
/// and micromamba's: -n/--name, -p/--prefix, --cwd take values; --cwd runs
/// the command in a directory.
#[rustfmt::skip]
const CONDA_LONG: &[&str] = &[
    "name=", "prefix=", "cwd=", "live-stream", "no-capture-output", "verbose",
    "debug-wrapper-scripts", "dev", "help",
];

/// `NAME run` of conda and of the programs that take its options.
const fn conda_run(name: &'static str) -> WrapperSpec {
    WrapperSpec {
        short: "n:p:v",
        long: CONDA_LONG,
        subcommands: &["run"],
        chdir: &["--cwd"],
        ..plain(name)
    }
}

#[rustfmt::skip]
pub(super) const WRAPPERS: &[WrapperSpec] = &[
    // strace(1) 6.x: getopt `+a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ`
    // (read from the binary), long options as its --help lists them. `-o`
    // with `|CMD` or `!CMD` pipes the trace into CMD (see `wrapper_options`).
    WrapperSpec {
        short: "a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ",
        long: &[
            "abbrev=", "absolute-timestamps?", "always-show-pid", "attach=", "columns=",
            "const-print-style=", "daemonize?", "debug", "decode-fds?", "decode-pids=",
            "detach-on=", "env=", "failed-only", "fault=", "follow-forks", "help", "inject=",
            "instruction-pointer", "interruptible=", "kvm=", "no-abbrev", "output=",
            "output-append-mode", "output-separately", "quiet?", "raw=", "read=",
            "relative-timestamps?", "seccomp-bpf", "signal=", "stack-traces", "status=",
            "string-limit=", "strings-in-hex?", "successful-only", "summary",
            "summary-columns=", "summary-only", "summary-sort-by=", "summary-syscall-overhead=",
            "summary-wall-clock", "syscall-limit=", "syscall-number", "syscall-times?",
            "timestamps?", "tips?", "trace=", "trace-fds=", "trace-path=", "user=", "verbose=",
            "version", "write=",
        ],
        ..plain("strace")
    },
    // ltrace(1) 0.7: getopt `+cfhiLrStTVbCa:A:D:e:F:l:n:o:p:s:u:x:X:w:`.
    WrapperSpec {
        short: "cfhiLrStTVbCa:A:D:e:F:l:n:o:p:s:u:x:X:w:",
        long: &[
            "align=", "config=", "demangle", "debug=", "help", "indent=", "library=",
            "no-signals", "output=", "version", "where=",
        ],
        ..plain("ltrace")
    },
    // valgrind(1): every option is one word (`--log-file=x`).
    WrapperSpec {
        syntax: Syntax::Attached,
        ..plain("valgrind")
    },
    // perf-record(1), perf-stat(1), perf-trace(1): perf's own reader takes
    // clusters, `--name=value` or `--name value`, and prefixes of long
    // names. The letters the three read differently (-i, -b, -F, -I: a flag
    // in one, a value in another) are left out, so both readings are judged.
    WrapperSpec {
        short: "aAc:C:dD:e:fgG:j:k:m:M:no:p:PqRr:sSt:TBNu:vWx:z::",
        long: &[
            "event=", "expr=", "filter=", "exclude-perf", "all-cpus", "pid=", "tid=", "uid=",
            "realtime=", "no-buffering", "count=", "output=", "no-inherit", "freq=",
            "strict-freq", "mmap-pages=", "group", "call-graph=", "quiet", "verbose", "stat",
            "data", "phys-data", "timestamp", "period", "sample-cpu", "no-samples",
            "raw-samples", "cpu=", "no-buildid", "no-buildid-cache", "cgroup=", "branch-any",
            "branch-filter=", "weight", "namespaces", "all-cgroups", "transaction",
            "per-thread", "delay=", "running-time", "clockid=", "snapshot?", "aux-sample?",
            "switch-events", "vmlinux=", "aio?", "affinity=", "mmap-flush=",
            "compression-level?", "all-kernel", "all-user", "switch-output?", "dry-run",
            "overwrite", "kcore", "max-size=", "control=", "threads?", "off-cpu",
            "bpf-prog=", "bpf-counters", "no-scale", "detailed", "repeat=", "big-num",
            "no-aggr", "null", "field-separator=", "table", "for-each-cgroup=", "append",
            "log-fd=", "pre=", "post=", "interval-print=", "interval-count=", "interval-clear",
            "timeout=", "metric-only", "per-socket", "per-die", "per-core", "per-node",
            "metrics=", "topdown", "summary", "duration=", "sched", "failure", "time", "comm",
            "with-summary", "errno-summary", "force", "pf=", "syscalls", "max-events=",
            "max-stack=", "min-stack=", "input=",
        ],
        subcommands: &["record", "stat", "trace"],
        ..plain("perf")
    },
    // gdb(1): the program and its arguments follow --args; gdb reads long
    // options with one dash or two, and any unambiguous prefix of them
    // (`-ar` is -args; `-a` could be -annotate).
    WrapperSpec {
        after: &["--args", "-args", "--arg", "-arg", "--ar", "-ar"],
        ..plain("gdb")
    },
    // Sessions, services and other users.
    // screen(1) 4.9: letters read one by one; -c, -e, -h, -p, -s, -S, -t,
    // -T take the rest of the word or the next word (`-dmS name`). -X sends
    // its words to a session (see `runs_command`).
    WrapperSpec {
        short: "aAc:dDe:fh:iLlmOp:qQrRs:S:t:T:UvwxX46",
        ..plain("screen")
    },
    // systemd-run(1) 252-256: getopt `+hrC:H:M:E:p:tPqGdSu:v`; -S/--shell
    // starts the user's shell; --working-directory runs the command there.
    WrapperSpec {
        short: "hrC:H:M:E:p:tPqGdSu:v",
        long: &[
            "no-ask-password", "scope", "unit=", "property=", "description=", "slice=",
            "slice-inherit", "remain-after-exit", "send-sighup", "service-type=", "uid=", "gid=",
            "nice=", "working-directory=", "same-dir", "setenv=", "pty", "pipe", "shell",
            "quiet", "verbose", "on-active=", "on-boot=", "on-startup=", "on-unit-active=",
            "on-unit-inactive=", "on-calendar=", "on-clock-change", "on-timezone-change",
            "path-property=", "socket-property=", "timer-property=", "no-block", "wait",
            "collect", "user", "system", "host=", "machine=", "capsule=",
            "expand-environment=", "json=", "ignore-failure", "background=", "job-mode=",
            "help", "version",
        ],
        chdir: &["--working-directory"],
        shell: &["-S", "--shell"],
        ..plain("systemd-run")
    },
    // machinectl(1): `shell [USER@]MACHINE [COMMAND...]`; -p, -H, -M, -n,
    // -o, -s, -E take values.
    WrapperSpec {
        short: "hp:alqH:M:n:o:s:E:",
        long: &[
            "property=", "all", "value", "full", "kill-whom=", "signal=", "uid=", "setenv=",
            "mkdir", "read-only", "lines=", "output=", "verify=", "force", "format=",
            "max-addresses=", "quiet", "host=", "machine=", "no-pager", "no-legend",
            "no-ask-password", "help", "version",
        ],
        positionals: 1,
        subcommands: &["shell"],
        ..plain("machinectl")
    },
    // runuser(1) (util-linux): getopt `+c:fg:G:lmpPs:u:hVw:`; a lone `-` is
    // -l. It runs its command words only with -u (see `runs_command`).
    WrapperSpec {
        short: "c:fg:G:lmpPs:u:hVw:",
        long: &[
            "command=", "session-command=", "fast", "group=", "supp-group=", "login",
            "preserve-environment", "pty", "shell=", "user=", "whitelist-environment=", "help",
            "version",
        ],
        dash: true,
        ..plain("runuser")
    },
    // sg(1) (shadow): `sg [-] [GROUP [-c] COMMAND]`.
    WrapperSpec {
        dash: true,
        positionals: 1,
        ..plain("sg")
    },
    // Package and environment runners.
    WrapperSpec {
        short: "c:p:w:yq",
        long: NPM_LONG,
        ..plain("npx")
    },
    WrapperSpec {
        short: "c:p:w:yq",
        long: NPM_LONG,
        subcommands: &["exec", "x"],
        ..plain("npm")
    },
    // pnpm(1) `dlx`/`exec`: -C/--dir, -F/--filter, --package, --reporter
    // take values; -c/--shell-mode is shell text. --dir runs it there.
    WrapperSpec {
        short: "C:F:rcsw",
        long: &[
            "dir=", "filter=", "package=", "reporter=", "recursive", "parallel", "shell-mode",
            "silent", "workspace-root", "resume-from=", "report-summary",
        ],
        subcommands: &["dlx", "exec"],
        chdir: &["-C", "--dir"],
        ..plain("pnpm")
    },
    // yarn `dlx`/`exec`: -p/--package take values; --cwd runs it there.
    WrapperSpec {
        short: "p:q",
        long: &["package=", "quiet", "cwd="],
        subcommands: &["dlx", "exec"],
        chdir: &["--cwd"],
        ..plain("yarn")
    },
    // bunx / `bun x`: -p/--package take values; --bun is a flag.
    WrapperSpec {
        short: "p:",
        long: &["package=", "bun", "silent", "verbose"],
        ..plain("bunx")
    },
    WrapperSpec {
        short: "p:",
        long: &["package=", "bun", "silent", "verbose"],
        subcommands: &["x"],
        ..plain("bun")
    },
    // `bundle exec` (Thor, whole names): --gemfile takes a value.
    WrapperSpec {
        syntax: Syntax::Whole,
        long: &["gemfile=", "keep-file-descriptors"],
        subcommands: &["exec"],
        ..plain("bundle")
    },
    // `uv run`, `uv tool run`, `uvx`: -p/--python, -f/--find-links,
    // -C/--config-setting, -w/--with take values; -m/--module is a flag.
    // --directory runs the command there.
    WrapperSpec {
        syntax: Syntax::Whole,
        short: "p:f:C:w:mqvn",
        long: UV_LONG,
        subcommands: &["run", "tool run"],
        chdir: &["--directory"],
        ..plain("uv")
    },
    WrapperSpec {
        syntax: Syntax::Whole,
        short: "p:f:C:w:mqvn",
        long: UV_LONG,
        chdir: &["--directory"],
        ..plain("uvx")
    },
    // `poetry run` (cleo): -C/--directory and -P/--project take values.
    WrapperSpec {
        syntax: Syntax::Whole,
        short: "C:P:qvnV",
        long: &[
            "directory=", "project=", "quiet", "verbose", "no-interaction", "ansi", "no-ansi",
            "no-plugins", "no-cache", "version", "help",
        ],
        subcommands: &["run"],
        ..plain("poetry")
    },
    // `pipx run` (argparse): --spec, --python, --index-url, --pip-args take
    // values.
    WrapperSpec {
        short: "qv",
        long: &[
            "spec=", "python=", "index-url=", "pip-args=", "editable", "no-cache", "pypackages",
            "path", "system-site-packages", "verbose", "quiet", "help",
        ],
        subcommands: &["run"],
        ..plain("pipx")
    },
    // `pdm run` (argparse): -p/--project takes a value.
    WrapperSpec {
        short: "p:gqvs",
        long: &[
            "project=", "global", "quiet", "verbose", "site-packages", "recreate", "skip=",
            "help",
        ],
        subcommands: &["run"],
        ..plain("pdm")
    },
    // `hatch run` (click, whole names): -e/--env, -p/--project, --data-dir,
    // --cache-dir, --config take values.
    WrapperSpec {
        syntax: Syntax::Whole,
        short: "e:p:qv",
        long: &[
            "env=", "project=", "data-dir=", "cache-dir=", "config=", "quiet", "verbose",
            "interactive", "no-interactive", "color", "no-color", "help",
        ],
        subcommands: &["run"],
        ..plain("hatch")
    },
    conda_run("conda"),
    conda_run("mamba"),
    conda_run("micromamba"),
    // `nix develop` / `nix shell`: the command follows -c/--command.
    WrapperSpec {
        subcommands: &["develop", "shell"],
        after: &["-c", "--command"],
        ..plain("nix")
    },
    // `direnv exec DIR COMMAND`: DIR's environment, this directory.
    WrapperSpec {
        positionals: 1,
        subcommands: &["exec"],
        ..plain("direnv")
    },
    // moreutils: chronic(1) `-e`, `-v`; ifne(1) `-n`.
    WrapperSpec {
        short: "ev",
        ..plain("chronic")
    },
    WrapperSpec {
        short: "n",
        ..plain("ifne")
    },
];
