//! What a shell started on the line runs: its `-c` code, a script or its stdin, and what it runs before its own commands (start-up files, prompts, exported functions).

use super::command::Command;
use super::eval::Eval;
use super::programs::{DECODED, DECODERS};

impl Eval<'_> {
    /// `sh -c CODE`, `sh FILE`, and shells reading code on stdin.
    pub(super) fn shell(&mut self, cmd: &Command) {
        self.startup_hooks(cmd);
        let mut iter = cmd.args.iter().enumerate();
        let mut inline = false;
        let mut reads_stdin = false;
        let mut operand = None;
        while let Some((i, arg)) = iter.next() {
            if arg == "--" || arg == "-" {
                reads_stdin |= arg == "-";
                operand = cmd.args.get(i + 1).map(|_| i + 1);
                break;
            }
            if let Some(long) = arg.strip_prefix("--") {
                if long == "command" || long.starts_with("command=") {
                    inline = true;
                    if let Some(code) = long.strip_prefix("command=") {
                        self.reanalyze(code, "sh -c", cmd.stdin.clone());
                        return;
                    }
                }
                if matches!(long, "rcfile" | "init-file") {
                    if let Some((_, file)) = iter.next() {
                        self.startup_file(file, "--rcfile");
                    }
                }
                continue;
            }
            if (arg.starts_with('-') || arg.starts_with('+')) && arg.len() > 1 {
                inline |= arg.contains('c');
                reads_stdin |= arg.contains('s');
                if arg.contains('o') || arg.contains('O') {
                    iter.next();
                }
                continue;
            }
            operand = Some(i);
            break;
        }
        match (inline, operand) {
            (true, Some(i)) => {
                let code = cmd.args[i].clone();
                let saved = std::mem::replace(&mut self.positional, cmd.args[i + 1..].to_vec());
                self.reanalyze(&code, "sh -c", cmd.stdin.clone());
                self.positional = saved;
            }
            (false, Some(i)) if !reads_stdin => {
                if let Some(code) = self.script_text(&cmd.args[i], cmd) {
                    self.reanalyze(&code, "shell script", None);
                }
            }
            _ => {
                if let Some(code) = cmd.stdin.clone() {
                    // Code that only exists after decoding was hidden on purpose.
                    let via = if cmd.fed_by(DECODERS) {
                        DECODED
                    } else {
                        "shell stdin"
                    };
                    self.reanalyze(&code, via, None);
                }
            }
        }
    }

    /// What a shell runs before its own commands, set in its environment:
    /// the file `BASH_ENV`/`ENV` names, `PS4` expanded for each traced line,
    /// and functions exported as `BASH_FUNC_name%%=() { ...; }`.
    fn startup_hooks(&mut self, cmd: &Command) {
        let interactive = interactive(&cmd.args);
        for (name, value) in &cmd.env {
            match name.as_str() {
                "BASH_ENV" | "ENV" => self.startup_file(value, "BASH_ENV"),
                "PS4" => self.reexpand(value, "PS4"),
                "PS0" | "PS1" | "PS2" if interactive => self.reexpand(value, "prompt"),
                _ if name.starts_with("BASH_FUNC_") => {
                    let body = value.trim_start_matches("()").trim();
                    self.reanalyze(body, "exported function", None);
                }
                _ => {}
            }
        }
    }

    /// `set -x` or `set -o xtrace` (on), `set +x` (off): while on, bash
    /// expands `PS4` before each command it runs.
    pub(super) fn set_options(&mut self, args: &[String]) {
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let Some(flags) = arg.strip_prefix(['-', '+']) else {
                break;
            };
            if flags == "-" || flags.is_empty() {
                break;
            }
            let xtrace = if flags == "o" {
                iter.next().is_some_and(|o| o == "xtrace")
            } else {
                flags.contains('x')
            };
            if xtrace {
                self.traced = arg.starts_with('-');
            }
        }
        if let Some(ps4) = self.vars.get("PS4").filter(|_| self.traced).cloned() {
            for value in ps4 {
                self.reexpand(&value, "PS4");
            }
        }
    }

    /// Variables set on the line (`PS4=…`, `export PS4=…`): a trace prompt
    /// set while tracing is on is expanded before the next command.
    pub(super) fn prompts_set(&mut self, pairs: &[(String, String)]) {
        if !self.traced {
            return;
        }
        for (name, value) in pairs {
            if name == "PS4" {
                self.reexpand(value, "PS4");
            }
        }
    }

    /// A start-up file whose content the line wrote (or a process
    /// substitution produced) is analysed as the shell would read it.
    fn startup_file(&mut self, file: &str, via: &'static str) {
        if let Some(code) = self.known_text(file).cloned() {
            self.reanalyze(&code, via, None);
        }
    }

    /// The text of the script `file` that `cmd` runs, when warden knows it:
    /// written earlier on the line, or `cmd`'s input for `/dev/stdin`.
    pub(super) fn script_text(&self, file: &str, cmd: &Command) -> Option<String> {
        let code = self.known_text(file).cloned();
        code.or_else(|| reads_fd0(file).then(|| cmd.stdin.clone()).flatten())
    }
}

/// Whether a shell's options make it interactive (`bash -i`): it then
/// expands `PS0`, `PS1` and `PS2` around each command it reads.
fn interactive(args: &[String]) -> bool {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--rcfile" | "--init-file" | "-o" | "+o" | "-O" | "+O" => {
                iter.next();
            }
            "--" | "-" => return false,
            a if a.starts_with("--") => {}
            a if a.starts_with('-') => {
                if a.contains('i') {
                    return true;
                }
            }
            _ => return false,
        }
    }
    false
}

/// A path that is the reading process's own stdin.
pub(super) fn reads_fd0(file: &str) -> bool {
    matches!(file, "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0")
}
