//! The wrapper table for tracers, session and service launchers, and package or environment runners (`strace`, `screen`, `systemd-run`, `npx`, `uv run`, ...).

use super::{plain, WrapperSpec};

/// Options of `uv run` and `uvx` that take a separate value.
const UV_VALUED: &[&str] = &[
    "-p",
    "-f",
    "-C",
    "-m",
    "--with",
    "--with-editable",
    "--with-requirements",
    "--python",
    "--package",
    "--extra",
    "--group",
    "--only-group",
    "--no-group",
    "--env-file",
    "--directory",
    "--project",
    "--from",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "--config-file",
    "--config-setting",
    "--cache-dir",
    "--color",
    "--python-preference",
    "--prerelease",
    "--resolution",
    "--exclude-newer",
    "--link-mode",
    "--index-strategy",
    "--keyring-provider",
    "--allow-insecure-host",
    "--refresh-package",
    "--upgrade-package",
    "--reinstall-package",
];

/// Options of `npx` and `npm exec` that take a separate value (`-c` is a
/// shell string, handled apart).
const NPM_VALUED: &[&str] = &[
    "-p",
    "-c",
    "-w",
    "--package",
    "--call",
    "--workspace",
    "--cache",
    "--registry",
    "--prefix",
    "--userconfig",
    "--loglevel",
];

pub(super) const WRAPPERS: &[WrapperSpec] = &[
    // Tracers and debuggers.
    WrapperSpec {
        valued: &[
            "-a",
            "-b",
            "-e",
            "-E",
            "-I",
            "-o",
            "-O",
            "-p",
            "-P",
            "-s",
            "-S",
            "-u",
            "-U",
            "-X",
            "--trace",
            "--trace-path",
            "--trace-fds",
            "--signal",
            "--status",
            "--abbrev",
            "--verbose",
            "--raw",
            "--read",
            "--write",
            "--fault",
            "--inject",
            "--kvm",
            "--output",
            "--user",
            "--env",
            "--attach",
            "--detach-on",
            "--columns",
            "--summary-sort-by",
            "--string-limit",
            "--summary-columns",
        ],
        ..plain("strace")
    },
    WrapperSpec {
        valued: &[
            "-a",
            "-A",
            "-D",
            "-e",
            "-F",
            "-l",
            "-n",
            "-o",
            "-p",
            "-s",
            "-u",
            "-w",
            "-x",
            "--align",
            "--config",
            "--indent",
            "--library",
            "--output",
            "--where",
        ],
        ..plain("ltrace")
    },
    // valgrind's options all carry their value (`--log-file=x`).
    plain("valgrind"),
    WrapperSpec {
        valued: &[
            "-e",
            "-o",
            "-F",
            "-c",
            "-p",
            "-t",
            "-C",
            "-m",
            "-G",
            "-j",
            "-u",
            "-r",
            "-x",
            "-I",
            "-M",
            "-D",
            "--event",
            "--output",
            "--freq",
            "--count",
            "--pid",
            "--tid",
            "--cpu",
            "--mmap-pages",
            "--cgroup",
            "--branch-filter",
            "--uid",
            "--call-graph",
            "--repeat",
            "--field-separator",
            "--interval-print",
            "--metrics",
            "--delay",
            "--expr",
            "--duration",
        ],
        subcommands: &["record", "stat", "trace"],
        ..plain("perf")
    },
    WrapperSpec {
        after: &["--args", "-args"],
        ..plain("gdb")
    },
    // Sessions, services and other users.
    WrapperSpec {
        valued: &["-S", "-c", "-e", "-h", "-p", "-T", "-t", "-s", "-Logfile"],
        ..plain("screen")
    },
    WrapperSpec {
        valued: &[
            "-p",
            "-u",
            "-E",
            "-M",
            "-H",
            "--property",
            "--unit",
            "--description",
            "--slice",
            "--setenv",
            "--machine",
            "--host",
            "--uid",
            "--gid",
            "--nice",
            "--working-directory",
            "--on-active",
            "--on-boot",
            "--on-startup",
            "--on-unit-active",
            "--on-unit-inactive",
            "--on-calendar",
            "--timer-property",
            "--path-property",
            "--socket-property",
            "--service-type",
        ],
        ..plain("systemd-run")
    },
    WrapperSpec {
        valued: &[
            "-M",
            "-H",
            "-p",
            "-E",
            "-o",
            "-n",
            "-s",
            "--machine",
            "--host",
            "--property",
            "--setenv",
            "--uid",
            "--output",
            "--lines",
            "--signal",
            "--kill-whom",
        ],
        positionals: 1,
        subcommands: &["shell"],
        ..plain("machinectl")
    },
    WrapperSpec {
        valued: &[
            "-u",
            "-g",
            "-G",
            "-s",
            "-w",
            "--user",
            "--group",
            "--supp-group",
            "--shell",
            "--whitelist-environment",
        ],
        ..plain("runuser")
    },
    WrapperSpec {
        positionals: 1,
        ..plain("sg")
    },
    // Package and environment runners.
    WrapperSpec {
        valued: NPM_VALUED,
        ..plain("npx")
    },
    WrapperSpec {
        valued: NPM_VALUED,
        subcommands: &["exec", "x"],
        ..plain("npm")
    },
    WrapperSpec {
        valued: &["-C", "-F", "--dir", "--filter", "--package", "--reporter"],
        subcommands: &["dlx", "exec"],
        ..plain("pnpm")
    },
    WrapperSpec {
        valued: &["-p", "--package", "--cwd"],
        subcommands: &["dlx", "exec"],
        ..plain("yarn")
    },
    WrapperSpec {
        valued: &["-p", "--package"],
        ..plain("bunx")
    },
    WrapperSpec {
        valued: &["-p", "--package"],
        subcommands: &["x"],
        ..plain("bun")
    },
    WrapperSpec {
        valued: &["--gemfile"],
        subcommands: &["exec"],
        ..plain("bundle")
    },
    WrapperSpec {
        valued: UV_VALUED,
        subcommands: &["run", "tool run"],
        ..plain("uv")
    },
    WrapperSpec {
        valued: UV_VALUED,
        ..plain("uvx")
    },
    WrapperSpec {
        valued: &["-C", "-P", "--directory", "--project"],
        subcommands: &["run"],
        ..plain("poetry")
    },
    WrapperSpec {
        valued: &["--spec", "--python", "--index-url", "--pip-args"],
        subcommands: &["run"],
        ..plain("pipx")
    },
    WrapperSpec {
        valued: &["-p", "--project"],
        subcommands: &["run"],
        ..plain("pdm")
    },
    WrapperSpec {
        valued: &[
            "-e",
            "-p",
            "--env",
            "--project",
            "--data-dir",
            "--cache-dir",
            "--config",
        ],
        subcommands: &["run"],
        ..plain("hatch")
    },
    WrapperSpec {
        valued: CONDA_VALUED,
        subcommands: &["run"],
        ..plain("conda")
    },
    WrapperSpec {
        valued: CONDA_VALUED,
        subcommands: &["run"],
        ..plain("mamba")
    },
    WrapperSpec {
        valued: CONDA_VALUED,
        subcommands: &["run"],
        ..plain("micromamba")
    },
    WrapperSpec {
        subcommands: &["develop", "shell"],
        after: &["-c", "--command"],
        ..plain("nix")
    },
    WrapperSpec {
        positionals: 1,
        subcommands: &["exec"],
        ..plain("direnv")
    },
    // moreutils.
    plain("chronic"),
    plain("ifne"),
];

/// Options of `conda run` (and mamba's) that take a separate value.
const CONDA_VALUED: &[&str] = &["-n", "-p", "--name", "--prefix", "--cwd"];
