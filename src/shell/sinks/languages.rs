//! How the code a sink takes is judged, language by language: shell text re-analysed, Python and Lua handed to the interpreter readers, Vim Ex, Elisp and debugger commands read for the calls that run or remove, scripts judged by where they are.

use super::{
    all_args, code_options, inert_program, is_shell_text, rows_of, values, Given, Lang, FIRST_ROW,
    SINKS,
};
use crate::shell::command::Command;
use crate::shell::eval::{file_key, shell_quote, Eval};

impl Eval<'_> {
    /// Judges the code every matching row finds in `cmd`, with the options
    /// of its option variable (`TAR_OPTIONS`) before its own.
    pub(in crate::shell) fn sinks(&mut self, cmd: &Command) {
        if !FIRST_ROW.contains(cmd.program.as_str()) {
            return;
        }
        let args = all_args(&cmd.program, &cmd.env, &cmd.args);
        self.sink_args(cmd, &args);
    }

    /// Judges the environment variables of `env` that carry code; the
    /// program `cmd` runs it, or passes it to one that does.
    pub(in crate::shell) fn env_sinks(&mut self, env: &[(String, String)], cmd: &Command) {
        for (name, value) in env {
            let row = SINKS
                .iter()
                .find(|s| matches!(s.given, Given::Env(v) if v == name));
            if let Some(row) = row {
                let value = value.trim_start_matches('|');
                self.judge_code(row.lang, value, cmd, None);
            }
        }
    }

    /// Judges the code the rows of `cmd`'s program find in `args`.
    pub(in crate::shell) fn sink_args(&mut self, cmd: &Command, args: &[String]) {
        let Some(rows) = rows_of(cmd.program.as_str()) else {
            return;
        };
        let code_options = code_options(&cmd.program);
        for sink in rows {
            for code in values(sink.given, args, cmd.stdin.as_deref(), &code_options) {
                self.judge_code(sink.lang, &code, cmd, cmd.stdin.clone());
            }
        }
    }

    /// Judges `code` of language `lang` given to `cmd`'s program.
    pub(in crate::shell) fn judge_code(
        &mut self,
        lang: Lang,
        code: &str,
        cmd: &Command,
        stdin: Option<String>,
    ) {
        let program = cmd.program.as_str();
        match lang {
            Lang::Shell | Lang::Argv => {
                // A shell with no command to run (`exec=sh`) is typed into.
                if is_shell_text(code) && stdin.is_none() {
                    self.sink_asks(program, lang, code);
                }
                self.reanalyze(code, "code sink", stdin);
                // A script from outside the project runs unseen.
                if let Some(first) = code.split_whitespace().next() {
                    if first.contains('/') {
                        self.script_path(first.trim_matches(['"', '\'']), program, Lang::Script);
                    }
                }
            }
            Lang::Program => {
                // A program other than a viewer, editor or compressor is
                // handed data (or a connection) to do with as it likes.
                if !inert_program(code) {
                    self.reanalyze(code, "code sink", None);
                    self.sink_asks(program, lang, code);
                }
                if let Some(first) = code.split_whitespace().next() {
                    self.script_path(first, program, lang);
                }
            }
            Lang::Script => {
                let path = code.trim();
                self.script_path(path, program, lang);
            }
            Lang::Python => self.python_code(code),
            Lang::Lua => {
                self.reanalyze(&format!("lua -e {}", shell_quote(code)), "code sink", None)
            }
            Lang::VimEx => {
                for line in code.lines() {
                    self.vim_ex(line, program);
                }
            }
            Lang::Elisp => self.elisp(code, program),
            Lang::Gdb => self.debugger_line(code, program, false),
            Lang::Lldb => self.debugger_line(code, program, true),
            Lang::Sed => self.sed(code, cmd),
            Lang::Awk => self.awk(code, cmd),
            Lang::M4 => self.m4(code),
            Lang::Tex => self.tex(code, program),
            Lang::Make => self.make_text(code, cmd),
            Lang::Dos => self.dos(code, program),
            Lang::Output => match code.strip_prefix('|').or_else(|| code.strip_prefix('!')) {
                // strace's `-o '|CMD'` hands its output to a command.
                Some(pipe) => self.shell_escape(pipe, program, lang),
                None => self.write_by(cmd, "output option", code.to_string(), false),
            },
            Lang::Loaded => {
                if self.loaded_unseen(code) {
                    self.sink_asks(program, lang, code);
                }
            }
            Lang::Remote => self.sink_asks(program, lang, code),
            Lang::Unread => self.unread(code, program),
        }
    }

    fn python_code(&mut self, code: &str) {
        self.reanalyze(
            &format!("python3 -c {}", shell_quote(code)),
            "code sink",
            None,
        )
    }

    /// Whether a configuration or library at `path` is one warden has not
    /// seen to be the system's: the call wrote it (or into it, for a
    /// directory), or it lies in a directory anyone can write, or climbs
    /// out of where it seems to be.
    fn loaded_unseen(&self, path: &str) -> bool {
        const SHARED: &[&str] = &["/tmp/", "/var/tmp/", "/dev/shm/", "/dev/fd/", "/proc/"];
        let dir = format!("{}/", path.trim_end_matches('/'));
        let written = self.files.contains_key(&file_key(path))
            || self.files.keys().any(|k| k.starts_with(&dir));
        written
            || SHARED.iter().any(|s| path.starts_with(s))
            || path.starts_with("<(")
            || path.starts_with("../")
            || path.contains("/../")
    }

    /// A script or program at `path`: the content the call itself wrote is
    /// run as shell text; one outside the project, unseen, asks.
    fn script_path(&mut self, path: &str, program: &str, lang: Lang) {
        if let Some(content) = self.known_text(path).cloned() {
            self.reanalyze(&content, "code sink", None);
            return;
        }
        if outside_project(path) {
            self.sink_asks(program, lang, path);
        }
    }

    /// A shell escape: its text is analysed; one that opens an interactive
    /// shell (`:!/bin/sh`, `:terminal`) asks, as nothing shows what it will run.
    fn shell_escape(&mut self, text: &str, program: &str, lang: Lang) {
        self.reanalyze(text, "editor shell escape", None);
        if text.trim().is_empty() || is_shell_text(text) {
            self.sink_asks(program, lang, text);
        }
    }

    pub(in crate::shell) fn sink_asks(&mut self, program: &str, lang: Lang, code: &str) {
        self.out.findings.push(crate::shell::Finding::CodeSink {
            program: program.to_string(),
            lang: lang.name(),
            code: code.chars().take(200).collect(),
        });
    }

    /// One Vim Ex command line (`:!CMD`, `:call system(…)`, `:py3 …`).
    fn vim_ex(&mut self, line: &str, program: &str) {
        let mut rest = line.trim().trim_start_matches(':').trim_start();
        for prefix in ["silent!", "silent", "sil!", "sil", "noautocmd", "keepjumps"] {
            if let Some(r) = rest
                .strip_prefix(prefix)
                .filter(|r| r.starts_with(' ') || r.starts_with('!'))
            {
                rest = r.trim_start();
            }
        }
        // A range before `!` makes a filter (`%!sort`): still shell text.
        let body = rest.trim_start_matches(|c: char| c.is_ascii_digit() || ",.$%'<>".contains(c));
        let word_end = body
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(body.len());
        let (word, arg) = body.split_at(word_end);
        let arg = arg.trim_start();
        match word {
            "" if arg.starts_with('!') => self.shell_escape(&arg[1..], program, Lang::VimEx),
            "r" | "read" | "w" | "write" if arg.starts_with('!') => {
                self.shell_escape(&arg[1..], program, Lang::VimEx)
            }
            "sh" | "shell" => self.sink_asks(program, Lang::VimEx, line),
            "terminal" | "term" => self.shell_escape(arg, program, Lang::VimEx),
            "py" | "py3" | "python" | "python3" | "pyx" | "pythonx" | "pydo" | "py3do" => {
                self.python_code(arg)
            }
            "lua" | "luado" => {
                self.reanalyze(&format!("lua -e {}", shell_quote(arg)), "code sink", None)
            }
            "perl" | "perldo" => {
                self.reanalyze(&format!("perl -e {}", shell_quote(arg)), "code sink", None)
            }
            "ruby" | "rubydo" => {
                self.reanalyze(&format!("ruby -e {}", shell_quote(arg)), "code sink", None)
            }
            "so" | "source" | "pyfile" | "py3file" | "luafile" | "rubyfile" | "perlfile" => {
                self.script_path(arg, program, Lang::Script)
            }
            "tcl" | "tcldo" | "mzscheme" | "mz" => self.sink_asks(program, Lang::VimEx, line),
            // The program `:shell` and `:!` start, when it is not a shell.
            "set" | "se" if vim_shell(arg).is_some_and(|v| !is_shell_text(v)) => {
                self.sink_asks(program, Lang::VimEx, line)
            }
            // `|` ends a command (`:set shell=CMD | shell`), except where the
            // rest of the line is the command's own (`:normal`, `:global`).
            _ if !matches!(word, "normal" | "norm" | "g" | "global" | "v" | "vglobal") => {
                match bar(arg) {
                    Some(at) => {
                        self.vim_ex(&format!("{word} {}", &arg[..at]), program);
                        self.vim_ex(&arg[at + 1..], program);
                    }
                    None => self.vim_calls(line, program),
                }
            }
            _ => self.vim_calls(line, program),
        }
    }

    /// Vim functions that run a process, in any Ex command or Lua/Vim
    /// expression: a literal command is analysed, any other asks.
    fn vim_calls(&mut self, line: &str, program: &str) {
        const SPAWNS: &[&str] = &[
            "system(",
            "systemlist(",
            "jobstart(",
            "job_start(",
            "termopen(",
            "term_start(",
            "libcall(",
            "libcallnr(",
            "os.execute(",
            "io.popen(",
            "vim.system(",
        ];
        let mut dynamic = line.contains("exe ") || line.contains("execute ");
        for name in SPAWNS {
            let mut from = 0;
            while let Some(at) = line[from..].find(name) {
                let start = from + at + name.len();
                from = start;
                let argument = &line[start..];
                match literal_command(argument) {
                    Some(text) => self.reanalyze(&text, "editor shell escape", None),
                    None => dynamic = true,
                }
            }
        }
        if let Some(at) = line.find("delete(") {
            // `delete(PATH, "rf")` removes a tree.
            let argument = &line[at + "delete(".len()..];
            match literal_command(argument) {
                Some(path) if argument.contains("\"rf\"") || argument.contains("'rf'") => {
                    self.reanalyze(&format!("rm -rf {path}"), "editor file removal", None)
                }
                Some(path) => self.reanalyze(&format!("rm -f {path}"), "editor file removal", None),
                None => dynamic = true,
            }
        }
        if dynamic {
            self.sink_asks(program, Lang::VimEx, line);
        }
    }

    /// Elisp: shell commands and tree removals are analysed as the shell
    /// commands they are; process, network and eval calls ask.
    fn elisp(&mut self, code: &str, program: &str) {
        const SHELL: &[&str] = &[
            "(shell-command",
            "(async-shell-command",
            "(call-process-shell-command",
            "(start-process-shell-command",
            "(shell-command-to-string",
            "(term",
            "(ansi-term",
        ];
        const ASKS: &[&str] = &[
            "(call-process",
            "(start-process",
            "(make-process",
            "(process-file",
            "(process-lines",
            "(url-",
            "(eval",
            "(load",
            "(f-delete",
            "(set-file-modes",
            "(signal-process",
            "(kill-process",
            "(make-network-process",
            "(open-network-stream",
            "(write-region",
            "(rename-file",
            "(copy-file",
            "(copy-directory",
            "(make-symbolic-link",
            "(funcall",
            "(apply",
            "(require",
        ];
        let mut asks = false;
        for head in SHELL {
            for (_, after) in code
                .match_indices(head)
                .map(|(i, h)| (i, &code[i + h.len()..]))
            {
                match literal_command(after.trim_start()) {
                    Some(text) if after.starts_with([' ', '\n', '\t']) => {
                        self.reanalyze(&text, "editor shell escape", None)
                    }
                    Some(_) => {}
                    None => asks = true,
                }
            }
        }
        for (head, flags) in [("(delete-directory", "-rf"), ("(delete-file", "-f")] {
            for (i, h) in code.match_indices(head) {
                match literal_command(code[i + h.len()..].trim_start()) {
                    Some(path) => {
                        let recursive = flags == "-rf"
                            && code[i..]
                                .split(')')
                                .next()
                                .is_some_and(|c| c.contains(" t"));
                        let flags = if recursive { "-rf" } else { "-f" };
                        self.reanalyze(
                            &format!("rm {flags} {}", shell_quote_home(&path)),
                            "editor file removal",
                            None,
                        )
                    }
                    None => asks = true,
                }
            }
        }
        let shell_started = |at: usize| SHELL.iter().any(|h| code[at..].starts_with(h));
        asks |= ASKS.iter().any(|head| {
            code.match_indices(head)
                .any(|(i, _)| !shell_started(i) && !benign_require(&code[i..]))
        });
        if asks {
            self.sink_asks(program, Lang::Elisp, code);
        }
    }

    /// A gdb or lldb command: shell escapes and Python are analysed; code
    /// run inside the debugged process asks.
    fn debugger_line(&mut self, line: &str, program: &str, lldb: bool) {
        let line = line.trim_start();
        let (word, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let arg = arg.trim_start();
        let lang = if lldb { Lang::Lldb } else { Lang::Gdb };
        if let Some(shell) = line.strip_prefix('!') {
            return self.shell_escape(shell, program, lang);
        }
        match word {
            "shell" => self.shell_escape(arg, program, lang),
            "platform" if lldb => {
                if let Some(shell) = arg.strip_prefix("shell") {
                    self.reanalyze(shell, "debugger shell", None)
                }
            }
            "pipe" | "|" => {
                if let Some((_, shell)) = arg.split_once('|') {
                    self.reanalyze(shell, "debugger shell", None)
                }
            }
            "python" | "py" | "python-interactive" | "pi" | "script" => {
                if arg.is_empty() {
                    self.sink_asks(program, if lldb { Lang::Lldb } else { Lang::Gdb }, line)
                } else {
                    self.python_code(arg.trim_start_matches("--"))
                }
            }
            "source" => self.script_path(arg, program, Lang::Script),
            "command" if lldb && arg.starts_with("script import") => {
                let file = arg.trim_start_matches("script import").trim();
                self.script_path(file, program, Lang::Script)
            }
            "call" | "print" | "p" | "output" | "expr" | "expression" | "po" | "set" => {
                const SPAWNS: &[&str] = &[
                    "system", "exec", "popen", "fork", "dlopen", "unlink", "kill", "remove",
                ];
                if SPAWNS.iter().any(|s| arg.contains(s)) {
                    self.sink_asks(program, if lldb { Lang::Lldb } else { Lang::Gdb }, line)
                }
            }
            _ => {}
        }
    }
}

/// The value `:set shell=` (or `sh=`) gives.
fn vim_shell(arg: &str) -> Option<&str> {
    arg.split_whitespace()
        .find_map(|w| w.strip_prefix("shell=").or_else(|| w.strip_prefix("sh=")))
        .map(|v| v.split('|').next().unwrap_or(v))
}

/// Where a `|` outside quotes ends a Vim Ex command.
fn bar(text: &str) -> Option<usize> {
    let mut quote = None;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '|') => return Some(at),
            _ => {}
        }
    }
    None
}

/// `(require 'ert)`: loading a named library, not code from elsewhere.
fn benign_require(text: &str) -> bool {
    text.starts_with("(require '") || text.starts_with("(require (quote ")
}

/// `~` keeps its meaning in the command warden analyses.
fn shell_quote_home(path: &str) -> String {
    match path.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("~{}", shell_quote(rest)),
        _ => shell_quote(path),
    }
}

/// The first argument when it is a string literal (or a list of them, as
/// separate quoted words); `None` when it is computed.
fn literal_command(argument: &str) -> Option<String> {
    let argument = argument.trim_start();
    if let Some(list) = argument
        .strip_prefix('[')
        .or_else(|| argument.strip_prefix('{'))
    {
        let end = list.find([']', '}'])?;
        let words: Vec<String> = list[..end]
            .split(',')
            .map(|w| unquote(w.trim()).map(|w| shell_quote(&w)))
            .collect::<Option<_>>()?;
        return Some(words.join(" "));
    }
    let quote = argument
        .chars()
        .next()
        .filter(|c| *c == '"' || *c == '\'')?;
    let body = &argument[1..];
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quote == '"' => out.push(chars.next()?),
            c if c == quote => return Some(out),
            c => out.push(c),
        }
    }
    None
}

fn unquote(word: &str) -> Option<String> {
    literal_command(word)
}

/// A path outside the project: absolute (other than the system's program
/// directories), under home, or a process substitution.
pub(in crate::shell) fn outside_project(path: &str) -> bool {
    const SYSTEM: &[&str] = &[
        "/usr/",
        "/bin/",
        "/sbin/",
        "/opt/homebrew/",
        "/nix/store/",
        "/etc/cron.",
    ];
    if path.starts_with("<(") || path.starts_with("/dev/fd/") || path.starts_with("/proc/") {
        return true;
    }
    (path.starts_with('/') && !SYSTEM.iter().any(|s| path.starts_with(s)))
        || path.starts_with('~')
        || path.starts_with("$HOME")
        || path.starts_with("..")
}
