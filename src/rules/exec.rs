//! Built-in rules: code reaching an interpreter by a side door (stdin, chmod-then-run, program-running options, run-time command words, hidden characters, environment hijacks).

use super::{Matcher, Rule, Signs};
use crate::shell::{Analysis, Command, Finding};
use crate::verdict::Decision;

/// POSIX-family shells: all read a script from stdin when given no operand.
pub(super) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish",
];

/// Shells and script interpreters that run whatever arrives on stdin when
/// told to (or when given nothing else to run).
pub(super) const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "yash",
    "fish",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "php",
    "pwsh",
    "powershell",
];

pub static RULES: &[Rule] = &[
    Rule {
        id: "exec.shell-heredoc",
        category: "shell execution via heredoc",
        reason: "the shell runs text from its standard input as commands, out of sight of a quick review",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: SHELLS, check: shell_runs_stdin_text },
        hits: &[
            "bash -c 'sh' <<'EOF'\nrm -rf /tmp/x\nEOF",
            "sh <<'EOF'\necho hi\nEOF",
            "bash -s <<< 'make build'",
        ],
        misses: &[
            "bash script.sh <<< 'yes'",
            "cat <<'EOF' > notes.txt\nhello\nEOF",
            "bash -c 'echo hello'",
            "python3 - <<'PY'\nprint(1)\nPY",
        ],
    },
    Rule {
        id: "exec.chmod-then-run",
        category: "chmod +x followed by immediate execution",
        reason: "it runs a script whose contents the guard has not seen",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(chmod_then_run),
        hits: &[
            "chmod +x ./deploy.sh && ./deploy.sh",
            "chmod 755 run.sh; ./run.sh --prod",
            "chmod u+x bin/tool && bin/tool",
        ],
        misses: &["chmod +x run.sh", "chmod -x run.sh && ./run.sh", "./run.sh && chmod +x run.sh", "chmod 644 a.sh && ./a.sh", "chmod +x gradlew && ./gradlew build", "chmod +x ./mvnw; ./mvnw -q package"],
    },
    Rule {
        id: "exec.dynamic-exec-flag",
        category: "dynamic shell word may expand to arbitrary program execution flag",
        reason: "an option spelled with a glob or variable can turn into one that runs another program",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: &["rg", "sort", "ag", "man", "git", "tar", "rsync", "zip", "less", "ssh", "scp"],
            check: dynamic_option,
        },
        hits: &["rg --pre* x", "sort --comp* data.txt", "tar -c --to-$X f"],
        misses: &["rg --pre-glob '*.gz' x", "rg -n pattern src/", "sort -u data.txt"],
    },
    Rule {
        id: "exec.git-config-program",
        category: "arbitrary program execution via git -c (pager, ssh command, editor, hooks, aliases)",
        reason: "git runs the program named by that configuration key",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: git_config_program },
        hits: &[
            "git -c core.pager='sh -c id' log",
            "git -c core.sshCommand='ssh -o ProxyCommand=x' fetch",
            "git --config-env=core.editor=EDITOR commit",
            "git -c alias.b='!make' b",
        ],
        misses: &[
            "git -c core.editor=true rebase --continue",
            "git -c core.pager=cat log",
            "git -c user.name=bot commit -m x",
            "git log -c",
            "git -c color.ui=never diff",
        ],
    },
    Rule {
        id: "exec.dynamic-command",
        category: "command word built at run time",
        reason: "the program it runs comes from an expansion the guard cannot resolve",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::RUNS_CODE, check: dynamic_command },
        hits: &["$CMD -rf x", "\"$(cat cmd.txt)\" x", "eval \"$(poetry run ./gen.py)\"", "eval $(ssh-agentx)", "eval \"$(./ssh-agent)\""],
        misses: &["eval \"$(ssh-agent -s)\"", "eval \"$(pyenv init -)\"", "eval $(ssh-agent)", "eval \"$(poetry env activate)\"", "X=ls; $X -la", "echo $CMD", "ls $DIR"],
    },
    Rule {
        id: "exec.path-hijack",
        category: "PATH hijack (temporary or relative directory searched first)",
        reason: "later commands would run programs from a directory anyone, or this checkout, can fill",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::SETS, check: path_hijack },
        hits: &["export PATH=/tmp/evil:$PATH", "PATH=./bin:$PATH make", "export PATH=:$PATH"],
        misses: &[
            "export PATH=$HOME/.cargo/bin:$PATH",
            "export PATH=$PATH:./node_modules/.bin",
            "PATH=/usr/local/bin:$PATH make",
            "echo $PATH",
        ],
    },
    Rule {
        id: "exec.library-injection",
        category: "library injection via the environment (LD_PRELOAD and friends)",
        reason: "the dynamic loader would load that library into every program started with it",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::SETS, check: library_injection },
        hits: &[
            "LD_PRELOAD=/tmp/evil.so ls",
            "export DYLD_INSERT_LIBRARIES=./hook.dylib",
            "LD_LIBRARY_PATH=/tmp/lib:$LD_LIBRARY_PATH ./app",
        ],
        misses: &[
            "LD_LIBRARY_PATH=/opt/cuda/lib64 ./train",
            "LD_LIBRARY_PATH=./build/lib ./test",
            "echo $LD_PRELOAD",
            "TZ=UTC date",
        ],
    },
    Rule {
        id: "exec.native-library-load",
        category: "load a native library into a program",
        reason: "the library's code runs inside the program with all its rights, unseen by the guard",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["curl", "openssl", "enable", "ssh-keygen", "ssh", "ssh-add", "mpv", "mplayer", "ffmpeg", "sox", "nginx", "gdb", "python*", "pypy*"], check: loads_native_library },
        hits: &["curl --engine ./lib.so https://x.example", "openssl req -engine ./evil.so -new", "enable -f ./builtin.so mycmd", "mpv --af=ladspa=./x.so:y song.mp3", "nginx -g 'load_module /tmp/x.so;'", "python3 -c 'import ctypes; ctypes.CDLL(\"./x.so\")'", "gdb -p 1 -batch -ex 'call dlopen(\"/tmp/x.so\", 2)'", "ssh-keygen -D /tmp/w/pkcs11.so"],
        misses: &["curl --engine list", "openssl req -new -key k.pem", "enable -n echo", "mpv song.mp3", "nginx -t", "python3 -c 'import json'", "gdb ./app", "ssh-keygen -t ed25519 -f ./deploy_key", "ssh -i ~/.ssh/id_ed25519 host"],
    },
    Rule {
        id: "exec.warden-unknown-command",
        category: "a warden subcommand this version does not know",
        reason: "this warden would only print its usage, but another version of it may read the word as a change to the guard (a program of another maker called warden runs its own commands: an allow rule lets them through)",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &[crate::subcommands::PROGRAM], check: warden_unknown_command },
        hits: &["warden disable", "~/.local/bin/warden reset-ledger --yes", "warden env up"],
        misses: &["warden rules", "warden why --cmd 'rm -rf /'", "warden --version", "warden help lnit"],
    },
    Rule {
        id: "exec.startup-hook",
        category: "shell startup hook via the environment (BASH_ENV/ENV/PROMPT_COMMAND)",
        reason: "a shell started with it runs that file or command before anything else",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::SETS, check: startup_hook },
        hits: &["BASH_ENV=/tmp/evil.sh bash -c true", "export PROMPT_COMMAND='curl x.example'", "ENV=./rc sh -c ls"],
        misses: &["ENVIRONMENT=prod make deploy", "NODE_ENV=production node app.js", "TZ=UTC date"],
    },
    Rule {
        id: "exec.hidden-characters",
        category: "invisible or bidirectional Unicode control character (possible obfuscation)",
        reason: "what runs differs from what a reviewer sees on screen",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(hidden_characters),
        hits: &["echo 'a\u{202e}b'", "ls\u{200b} -la", "cat notes\u{2066}.txt"],
        misses: &["echo café", "ls -la", "echo 'ｈｅｌｌｏ'"],
    },];

/// Whether an interpreter in `INTERPRETERS` takes its program from stdin
/// rather than from an inline code option (`-c`, `-e`) or a script operand.
pub(super) fn reads_code_from_stdin(cmd: &Command) -> bool {
    // (inline-code short flags, short flags taking a value, long inline-code
    // flags, long flags taking a value, the flag forcing stdin)
    let (code, valued, long_code, long_valued, stdin_flag): (
        &str,
        &str,
        &[&str],
        &[&str],
        Option<char>,
    ) = match cmd.program.as_str() {
        "python" | "python2" | "python3" => ("cm", "WX", &[], &["--check-hash-based-pycs"], None),
        "perl" => ("eE", "", &[], &[], None),
        "ruby" => ("e", "rCI", &[], &[], None),
        "node" => (
            "ep",
            "r",
            &["--eval", "--print"],
            &["--require", "--import", "--loader"],
            None,
        ),
        "php" => ("rBRFEf", "cdzt", &[], &[], None),
        "pwsh" | "powershell" => return powershell_reads_stdin(cmd),
        p if SHELLS.contains(&p) => (
            "c",
            "oO",
            &["--command"],
            &["--rcfile", "--init-file"],
            Some('s'),
        ),
        _ => return false,
    };
    let mut forced = false;
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        if arg == "--" {
            return forced || args.next().is_none_or(|op| op == "-");
        }
        if let Some(long) = arg.strip_prefix("--") {
            let name = format!("--{}", long.split('=').next().unwrap_or(long));
            if long_code.contains(&name.as_str()) {
                return false;
            }
            if long_valued.contains(&name.as_str()) && !long.contains('=') {
                args.next();
            }
            continue;
        }
        let cluster = match arg.strip_prefix('-').or_else(|| arg.strip_prefix('+')) {
            Some(c) if !c.is_empty() => c,
            _ => return forced || arg == "-",
        };
        for (i, flag) in cluster.char_indices() {
            if code.contains(flag) {
                return false;
            }
            if Some(flag) == stdin_flag {
                forced = true;
            }
            if valued.contains(flag) {
                if i + flag.len_utf8() == cluster.len() {
                    args.next();
                }
                break;
            }
        }
    }
    true
}

fn powershell_reads_stdin(cmd: &Command) -> bool {
    match cmd.args.as_slice() {
        [] => true,
        args => args.iter().any(|a| a == "-"),
    }
}

fn shell_runs_stdin_text(cmd: &Command) -> bool {
    cmd.stdin.is_some() && reads_code_from_stdin(cmd)
}

/// Whether a chmod mode adds execute permission for the owner.
fn grants_execute(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_ascii_digit()) {
        let digits: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        return digits.len() >= 3 && digits[digits.len() - 3] & 1 == 1;
    }
    mode.split(',').any(|clause| {
        let who_ok = clause
            .split(['+', '='])
            .next()
            .is_some_and(|who| who.is_empty() || who.contains('u') || who.contains('a'));
        who_ok
            && clause
                .find(['+', '='])
                .is_some_and(|i| clause[i + 1..].contains('x'))
    })
}

pub(super) fn same_file(a: &str, b: &str) -> bool {
    fn strip(p: &str) -> &str {
        let mut p = p;
        while let Some(rest) = p.strip_prefix("./") {
            p = rest;
        }
        p
    }
    !a.is_empty() && strip(a) == strip(b)
}

fn chmod_then_run(analysis: &Analysis) -> Option<String> {
    for (i, chmod) in analysis.commands.iter().enumerate() {
        if chmod.program != "chmod" {
            continue;
        }
        let operands = chmod.operands();
        let Some((mode, files)) = operands.split_first() else {
            continue;
        };
        if !grants_execute(mode) {
            continue;
        }
        // Build-tool wrappers checked into the project lose their execute
        // bit in zips and some checkouts; the README of every such project
        // says to `chmod +x` and run them.
        let files: Vec<&str> = files
            .iter()
            .copied()
            .filter(|f| {
                !matches!(
                    super::paths::basename(f),
                    "gradlew" | "mvnw" | "sbtw" | "pantsw"
                )
            })
            .collect();
        let run = analysis.commands[i + 1..]
            .iter()
            .find(|later| files.iter().any(|f| same_file(f, &later.path)));
        if let Some(run) = run {
            return Some(format!("{} && {}", chmod.display(), run.display()));
        }
    }
    None
}

/// A native library handed to a program that will load it: curl's and
/// openssl's `--engine`/`-engine FILE`, bash's `enable -f`, a LADSPA filter
/// by path, nginx's `load_module`, ctypes in Python one-liners, `dlopen` in gdb.
fn loads_native_library(cmd: &Command) -> bool {
    let library = |v: &str| {
        v.contains('/') || v.contains(".so") || v.contains(".dylib") || v.contains(".dll")
    };
    let mut args = cmd.args.iter().map(String::as_str);
    let program = cmd.program.as_str();
    match program {
        "curl" | "openssl" => {
            while let Some(a) = args.next() {
                let value = match a {
                    "--engine" | "-engine" => args.next(),
                    _ => a
                        .strip_prefix("--engine=")
                        .or_else(|| a.strip_prefix("-engine=")),
                };
                if value.is_some_and(library) {
                    return true;
                }
            }
            false
        }
        "enable" => cmd.has_short('f'),
        // PKCS#11 providers: `ssh-keygen -D lib.so`, `ssh -I lib.so`, `ssh-add -s lib.so`.
        "ssh-keygen" | "ssh" | "ssh-add" => {
            let flag = match program {
                "ssh-keygen" => "-D",
                "ssh" => "-I",
                _ => "-s",
            };
            cmd.args.windows(2).any(|w| w[0] == flag && library(&w[1]))
        }
        "nginx" => cmd.args.iter().any(|a| a.contains("load_module")),
        "gdb" => cmd.args.iter().any(|a| a.contains("dlopen")),
        _ if program.starts_with("python") || program.starts_with("pypy") => {
            cmd.args.iter().any(|a| {
                a.contains("ctypes")
                    && ["CDLL", "cdll", "LoadLibrary", "PyDLL", "WinDLL"]
                        .iter()
                        .any(|f| a.contains(f))
            })
        }
        // A LADSPA plugin by path: `ladspa=./x.so`, `ladspa=file=x.so`,
        // `ladspa=f=x.so`, or sox's effect `ladspa x.so`.
        _ => {
            cmd.args
                .windows(2)
                .any(|w| w[0] == "ladspa" && library(&w[1]))
                || cmd.args.iter().any(|a| {
                    a.split_once("ladspa=").is_some_and(|(_, rest)| {
                        rest.split([',', ':', '='])
                            .take_while(|p| !p.is_empty())
                            .take(2)
                            .any(library)
                    })
                })
        }
    }
}

/// An option whose name still holds a glob or an unresolved expansion.
fn dynamic_option(cmd: &Command) -> bool {
    cmd.options().any(|o| {
        let name = o.split('=').next().unwrap_or(o);
        name.contains(['*', '?', '[', '$', '`', '{'])
    })
}

/// Configuration keys whose value git runs as a program (or that point git
/// at programs to run).
pub(super) fn runs_program(key: &str) -> bool {
    crate::shell::sinks::git_key_runs(key)
}

fn git_config_program(cmd: &Command) -> bool {
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        let setting = if arg == "-c" {
            args.next().map(String::as_str)
        } else if let Some(v) = arg.strip_prefix("--config-env=") {
            Some(v)
        } else if arg == "--config-env" {
            args.next().map(String::as_str)
        } else if arg.starts_with("-c") && arg.len() > 2 && !arg.starts_with("--") {
            Some(&arg[2..])
        } else if arg.starts_with('-') {
            // Global options before the subcommand; `-C dir` takes a value.
            if matches!(
                arg.as_str(),
                "-C" | "--git-dir" | "--work-tree" | "--namespace"
            ) {
                args.next();
            }
            continue;
        } else {
            // The subcommand: `-c` after it belongs to the subcommand.
            return false;
        };
        let Some((key, value)) = setting.map(|s| s.split_once('=').unwrap_or((s, ""))) else {
            continue;
        };
        // `-c core.editor=true` and `-c core.pager=cat` are how scripts keep
        // git from opening an editor or a pager: nothing else runs.
        let inert = crate::shell::sinks::inert_program(value);
        if runs_program(key) && !inert {
            return true;
        }
    }
    false
}

fn dynamic_command(cmd: &Command) -> bool {
    cmd.dynamic && !shell_setup_output(&cmd.path)
}

/// Tools whose output is shell code meant to be evaluated (`eval "$(ssh-agent -s)"`):
/// running their output is the documented way to use them.
const SHELL_SETUP_TOOLS: &[&str] = &[
    "ssh-agent",
    "gpg-agent",
    "keychain",
    "pyenv",
    "rbenv",
    "nodenv",
    "goenv",
    "jenv",
    "direnv",
    "starship",
    "zoxide",
    "fnm",
    "mise",
    "rtx",
    "asdf",
    "opam",
    "dircolors",
    "brew",
    "conda",
    "mamba",
    "micromamba",
    "thefuck",
    "atuin",
    "oh-my-posh",
    "register-python-argcomplete",
    // A subcommand of a tool that does more: only this one prints setup code.
    "poetry env activate",
];

/// Whether `word` is the output of a tool in [`SHELL_SETUP_TOOLS`]: its
/// first words (the program by its name, or installed: `/usr/bin/ssh-agent`)
/// are an entry's words.
fn shell_setup_output(word: &str) -> bool {
    let inner = word
        .strip_prefix("$(")
        .or_else(|| word.strip_prefix('`'))
        .unwrap_or("");
    let mut words = inner
        .split(|c: char| c.is_whitespace() || c == ')' || c == '`')
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    // The installed tool, not a file of the project's or a temporary one named like it.
    if !super::installed_program(first) {
        return false;
    }
    let program = crate::shell::program_name(first);
    let rest: Vec<&str> = words.collect();
    SHELL_SETUP_TOOLS.iter().any(|entry| {
        let mut want = entry.split(' ');
        want.next() == Some(program.as_str())
            && want.enumerate().all(|(i, w)| rest.get(i) == Some(&w))
    })
}

/// Every `NAME=value` this command sets: prefixes, and `export`-style builtins.
pub(super) fn assignments(cmd: &Command) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = cmd
        .env
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    if matches!(
        cmd.program.as_str(),
        "export" | "declare" | "typeset" | "readonly" | "local" | "setenv"
    ) {
        out.extend(
            cmd.args
                .iter()
                .filter(|a| !a.starts_with('-'))
                .filter_map(|a| a.split_once('=')),
        );
        // csh-style `setenv NAME value`.
        if cmd.program == "setenv" && cmd.args.len() >= 2 {
            out.push((cmd.args[0].as_str(), cmd.args[1].as_str()));
        }
    }
    out
}

/// A search-path entry anyone or the current checkout can fill: empty
/// (means the working directory), relative, or under a temporary directory.
fn untrusted_dir(entry: &str) -> bool {
    if entry.is_empty() || entry == "." {
        return true;
    }
    if entry.starts_with('$') || entry.starts_with('~') {
        return false;
    }
    if !entry.starts_with('/') {
        return true;
    }
    super::targets::classify(entry, None) == super::targets::Target::Temp
        || ["/tmp", "/var/tmp", "/dev/shm", "/private/tmp"].contains(&entry.trim_end_matches('/'))
}

/// Entries searched before the inherited value (all of them when the
/// variable is replaced outright).
fn leading_entries<'a>(value: &'a str, var: &str) -> impl Iterator<Item = &'a str> {
    let inherited = [format!("${var}"), format!("${{{var}}}")];
    value
        .split(':')
        .take_while(move |e| !inherited.iter().any(|i| i == e))
}

fn path_hijack(cmd: &Command) -> bool {
    assignments(cmd)
        .into_iter()
        .any(|(k, v)| k == "PATH" && leading_entries(v, "PATH").any(untrusted_dir))
}

fn library_injection(cmd: &Command) -> bool {
    assignments(cmd).into_iter().any(|(k, v)| match k {
        "LD_PRELOAD" | "LD_AUDIT" | "DYLD_INSERT_LIBRARIES" => !v.is_empty(),
        // Project-relative library directories are how local builds are run
        // (`LD_LIBRARY_PATH=./build ./test`); temporary ones are anyone's.
        "LD_LIBRARY_PATH" | "DYLD_LIBRARY_PATH" | "DYLD_FRAMEWORK_PATH" => {
            leading_entries(v, k).any(|e| e.starts_with('/') && untrusted_dir(e))
        }
        _ => false,
    })
}

fn warden_unknown_command(cmd: &Command) -> bool {
    crate::subcommands::read(&cmd.args).unknown_word().is_some()
}

fn startup_hook(cmd: &Command) -> bool {
    assignments(cmd)
        .into_iter()
        .any(|(k, v)| matches!(k, "BASH_ENV" | "ENV" | "PROMPT_COMMAND") && !v.is_empty())
}

fn hidden_characters(analysis: &Analysis) -> Option<String> {
    analysis.findings.iter().find_map(|f| match f {
        Finding::HiddenCharacters { codepoints } => {
            let list: Vec<String> = codepoints.iter().map(|c| format!("U+{c:04X}")).collect();
            Some(format!("{} (hidden {})", analysis.text, list.join(", ")))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_code_detection() {
        assert!(reads_code_from_stdin(&Command::new("sh", &[])));
        assert!(reads_code_from_stdin(&Command::new(
            "bash",
            &["-s", "--", "--yes"]
        )));
        assert!(reads_code_from_stdin(&Command::new("bash", &["-x"])));
        assert!(reads_code_from_stdin(&Command::new(
            "bash",
            &["-o", "pipefail"]
        )));
        assert!(reads_code_from_stdin(&Command::new("python3", &["-"])));
        assert!(reads_code_from_stdin(&Command::new("node", &[])));
        assert!(!reads_code_from_stdin(&Command::new("bash", &["-c", "sh"])));
        assert!(!reads_code_from_stdin(&Command::new("bash", &["-ec", "x"])));
        assert!(!reads_code_from_stdin(&Command::new(
            "bash",
            &["script.sh"]
        )));
        assert!(!reads_code_from_stdin(&Command::new(
            "python3",
            &["-c", "import json"]
        )));
        assert!(!reads_code_from_stdin(&Command::new(
            "python3",
            &["-m", "json.tool"]
        )));
        assert!(!reads_code_from_stdin(&Command::new(
            "perl",
            &["-ne", "print"]
        )));
        assert!(!reads_code_from_stdin(&Command::new("node", &["--eval=1"])));
        assert!(!reads_code_from_stdin(&Command::new("jq", &[])));
    }

    #[test]
    fn heredoc_needs_stdin() {
        let mut sh = Command::new("sh", &[]);
        assert!(!shell_runs_stdin_text(&sh));
        sh.stdin = Some("rm -rf /tmp/x\n".into());
        assert!(shell_runs_stdin_text(&sh));
        let mut outer = Command::new("bash", &["-c", "sh"]);
        outer.stdin = Some("x".into());
        assert!(!shell_runs_stdin_text(&outer));
    }

    #[test]
    fn execute_modes() {
        for m in ["+x", "u+x", "a+rx", "755", "0700", "u=rwx,go=rx", "ug+x"] {
            assert!(grants_execute(m), "{m}");
        }
        for m in ["-x", "644", "go+x", "u-x", "o+w"] {
            assert!(!grants_execute(m), "{m}");
        }
    }

    #[test]
    fn chmod_then_run_over_commands() {
        let mut chmod = Command::new("chmod", &["+x", "./deploy.sh"]);
        chmod.path = "chmod".into();
        let mut run = Command::new("deploy.sh", &[]);
        run.path = "./deploy.sh".into();
        let analysis = Analysis {
            commands: vec![chmod.clone(), run.clone()],
            ..Analysis::default()
        };
        assert!(chmod_then_run(&analysis).is_some());
        let reversed = Analysis {
            commands: vec![run, chmod],
            ..Analysis::default()
        };
        assert!(chmod_then_run(&reversed).is_none());
    }

    #[test]
    fn git_keys() {
        assert!(git_config_program(&Command::new(
            "git",
            &["-c", "core.pager=./pager.sh", "log"]
        )));
        assert!(git_config_program(&Command::new(
            "git",
            &["-C", "repo", "-c", "Core.SSHCommand=x", "fetch"]
        )));
        assert!(!git_config_program(&Command::new(
            "git",
            &["log", "-c", "core.pager=x"]
        )));
        assert!(!git_config_program(&Command::new(
            "git",
            &["-c", "user.name=x", "commit"]
        )));
    }

    #[test]
    fn env_hijacks() {
        let export = Command::new("export", &["PATH=/tmp/evil:$PATH"]);
        assert!(path_hijack(&export));
        assert!(!path_hijack(&Command::new("export", &["PATH=$PATH:./bin"])));
        assert!(!path_hijack(&Command::new(
            "export",
            &["PATH=~/.cargo/bin:$PATH"]
        )));
        let mut ls = Command::new("ls", &[]);
        ls.env = vec![("LD_PRELOAD".into(), "/tmp/evil.so".into())];
        assert!(library_injection(&ls));
        ls.env = vec![("LD_LIBRARY_PATH".into(), "/opt/cuda/lib64".into())];
        assert!(!library_injection(&ls));
        ls.env = vec![("BASH_ENV".into(), "/tmp/e".into())];
        assert!(startup_hook(&ls));
    }

    #[test]
    fn dynamic_options() {
        assert!(dynamic_option(&Command::new("rg", &["--pre*", "x"])));
        assert!(!dynamic_option(&Command::new(
            "rg",
            &["--pre-glob=*.gz", "x"]
        )));
    }
}
