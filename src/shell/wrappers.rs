//! Programs that run the rest of their arguments as a command (`sudo`, `env`, `timeout`, ...), and how to split their own options from it.

use super::expand::Field;

/// A program that runs the rest of its arguments as a command.
pub(super) struct WrapperSpec {
    pub(super) name: &'static str,
    /// Options that take a separate value (`-u root`).
    pub(super) valued: &'static [&'static str],
    /// Positional arguments between the options and the command (`timeout 5 cmd`).
    pub(super) positionals: usize,
    /// `NAME=value` words may come before the command (`env A=1 cmd`).
    pub(super) assignments: bool,
}

pub(super) const WRAPPERS: &[WrapperSpec] = &[
    WrapperSpec {
        name: "sudo",
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
        ],
        positionals: 0,
        assignments: true,
    },
    WrapperSpec {
        name: "doas",
        valued: &["-u", "-C"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "env",
        valued: &["-u", "-C", "-S", "--unset", "--chdir", "--split-string"],
        positionals: 0,
        assignments: true,
    },
    WrapperSpec {
        name: "exec",
        valued: &["-a"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "nice",
        valued: &["-n", "--adjustment"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "nohup",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "setsid",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "time",
        valued: &["-f", "-o", "--format", "--output"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "command",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "builtin",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "stdbuf",
        valued: &["-i", "-o", "-e", "--input", "--output", "--error"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "timeout",
        valued: &["-s", "-k", "--signal", "--kill-after"],
        positionals: 1,
        assignments: false,
    },
    WrapperSpec {
        name: "ionice",
        valued: &["-c", "-n", "--class", "--classdata"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "chrt",
        valued: &["-T", "-P", "-D"],
        positionals: 1,
        assignments: false,
    },
    WrapperSpec {
        name: "taskset",
        valued: &[],
        positionals: 1,
        assignments: false,
    },
    WrapperSpec {
        name: "flock",
        valued: &[
            "-w",
            "-E",
            "-c",
            "--timeout",
            "--conflict-exit-code",
            "--command",
        ],
        positionals: 1,
        assignments: false,
    },
    WrapperSpec {
        name: "pkexec",
        valued: &["--user"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "chroot",
        valued: &["--userspec", "--groups"],
        positionals: 1,
        assignments: false,
    },
    WrapperSpec {
        name: "busybox",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "toybox",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "unbuffer",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "caffeinate",
        valued: &["-t", "-w"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "torsocks",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "proxychains",
        valued: &["-f"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "proxychains4",
        valued: &["-f"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "dbus-run-session",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "xvfb-run",
        valued: &["-n", "-s", "-e", "-f", "-p"],
        positionals: 0,
        assignments: false,
    },
    WrapperSpec {
        name: "catchsegv",
        valued: &[],
        positionals: 0,
        assignments: false,
    },
];

/// Splits a wrapper's own options (and positionals) from the command it runs.
pub(super) fn split_wrapper<'f>(
    spec: &WrapperSpec,
    fields: &'f [Field],
) -> (&'f [Field], &'f [Field]) {
    let mut i = 0;
    while i < fields.len() {
        let a = fields[i].text.as_str();
        if a == "--" {
            i += 1;
            break;
        }
        if !(a.starts_with('-') && a.len() > 1) {
            break;
        }
        let key = a.split('=').next().unwrap_or(a);
        let takes_value = spec.valued.contains(&key) && !a.contains('=');
        // A short cluster ending in a valued flag (`-nu root`) takes one too.
        let cluster_value = !a.starts_with("--")
            && a.len() > 2
            && spec
                .valued
                .contains(&&a[a.len() - 2..])
                .then_some(())
                .is_some()
            && spec
                .valued
                .iter()
                .any(|v| v.len() == 2 && a.ends_with(&v[1..]));
        i += if takes_value || cluster_value { 2 } else { 1 };
    }
    let i = (i + spec.positionals).min(fields.len());
    fields.split_at(i)
}

pub(super) fn split_assignment(word: &str) -> Option<(String, String)> {
    let (name, value) = word.split_once('=')?;
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| (name.to_string(), value.to_string()))
}
