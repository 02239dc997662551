//! What calls in interpreter code do: run shell commands or programs, delete, write, copy, kill, or evaluate more code.

use once_cell::sync::Lazy;
use regex::Regex;

use super::aliases::Aliases;
use super::files::{rm, write, FLAG_APPEND};
use super::indirect;
use super::lex::{Dialect, Lexed};
use super::value::{Val, PLACEHOLDER};
use super::view::{Arg, Recv, Span, View};
use super::{patterns, Action, Concern, Lang, Reading};
use crate::shell::names::{self, NameSet};

/// Deepest nesting of code evaluated from strings (`exec("exec('...')")`).
const MAX_CODE_DEPTH: usize = 4;
/// Longest expression quoted in a path warden cannot compute.
const MAX_SNIPPET: usize = 80;

/// Calls that run a shell command line or a program with arguments.
#[rustfmt::skip]
const COMMAND_CALLS: &[&str] = &[
    "system", "popen", "popen2", "popen3", "popen2e", "getoutput", "getstatusoutput",
    "check_output", "check_call", "run", "call", "Popen", "execSync", "shell_exec", "passthru",
    "proc_open", "execute", "capture2", "capture2e", "capture3", "readpipe", "spawn",
    "spawnSync", "execFile", "execFileSync", "create_subprocess_shell",
    "create_subprocess_exec", "pcntl_exec", "system2", "Command", "exec", "CommandContext",
    "ProcessBuilder", "Exec", "StartProcess", "ForkExec", "shell",
];

/// Calls that load a native library into the interpreter, whatever their
/// receiver (`ctypes.CDLL`, `Fiddle.dlopen`, `package.loadlib`).
#[rustfmt::skip]
const NATIVE_CALLS: &[&str] = &[
    "CDLL", "PyDLL", "WinDLL", "OleDLL", "LoadLibrary", "dlopen", "dl_load_file", "loadlib",
    "loadLibrary", "ccall",
];

/// Calls that load a native library on some receivers only (PHP's `dl`
/// and `FFI::cdef`, Go's `plugin.Open`; `load` is among [`CODE_CALLS`]).
const NATIVE_MAYBE: &[&str] = &["dl", "cdef", "Open"];

/// Calls that open a network connection, judged with their receiver.
const NET_CALLS: &[&str] = &["Dial", "DialTCP", "DialTimeout", "socketConnection"];

/// Calls that evaluate more code of the same language.
#[rustfmt::skip]
const CODE_CALLS: &[&str] = &[
    "eval", "Function", "runInThisContext", "runInNewContext", "runInContext", "instance_eval",
    "class_eval", "module_eval", "loadstring", "load", "compile",
];

/// Calls that delete, write, copy, move or signal (judged by receiver below).
#[rustfmt::skip]
const FILE_CALLS: &[&str] = &[
    "rmtree", "rm_rf", "rm_r", "remove_dir", "remove_tree", "remove_entry",
    "remove_entry_secure", "removedirs", "remove_dir_all", "rimraf", "sync", "removeSync",
    "rmSync", "rm", "rmdirSync", "rmdir", "remove", "rm_f", "delete", "unlink", "unlinkSync",
    "open", "fopen", "openSync", "write_text", "write_bytes", "writeFileSync", "writeFile",
    "outputFileSync", "outputFile", "writeTextFile", "writeTextFileSync", "file_put_contents",
    "write_file", "binwrite", "write", "createWriteStream", "appendFileSync", "appendFile",
    "append_file", "copyfile", "copy2", "copy", "copyFileSync", "copyFile", "cpSync", "cp",
    "copy_file", "copytree", "install", "move", "mv", "rename", "renameSync", "replace", "kill",
    // Go's `os` package and Java's writers.
    "OpenFile", "Create", "WriteFile", "RemoveAll", "Remove", "FileWriter", "FileOutputStream",
    "posix_kill", "killpg", "chmod", "chmodSync", "lchmod", "lchmodSync", "chmod_R", "chown",
    "chownSync", "lchown", "lchownSync", "chown_R", "fork", "pcntl_fork", "socket", "fsockopen", "pfsockopen",
    "stream_socket_client", "TCPSocket", "Socket", "INET", "createConnection",
    "create_connection", "connect", "PeerAddr", "PeerHost", "accept", "tcp", "dup2", "dup",
    "reopen",
];

/// Calls that list a directory or walk a tree, whose entries a loop may
/// delete one by one (`for p in Path.home().rglob("*"): p.unlink()`).
#[rustfmt::skip]
pub(super) const WALK_CALLS: &[&str] = &[
    "walk", "fwalk", "rglob", "glob", "iglob", "iterdir", "scandir", "listdir", "readdirSync",
    "readdir", "find", "each_child", "children", "entries", "opendir",
    // R's `source(URL)`.
    "source",
];

/// Names worth a closer look; every other identifier is skipped.
pub(super) fn interesting(name: &str) -> bool {
    // Asked of every name in every snippet: one probe, not seven scans.
    static TABLES: NameSet = names::name_set!(
        COMMAND_CALLS,
        CODE_CALLS,
        FILE_CALLS,
        NATIVE_CALLS,
        NATIVE_MAYBE,
        NET_CALLS,
        WALK_CALLS,
        indirect::CALLERS,
    );
    TABLES.contains(name) || is_exec_family(name)
}

/// `execl`, `execvp`, `spawnlp`, `posix_spawnp` and the like: the program
/// comes first, then its argv, argv[0] included.
fn is_exec_family(name: &str) -> bool {
    let rest = name
        .strip_prefix("posix_spawn")
        .or_else(|| name.strip_prefix("exec"))
        .or_else(|| name.strip_prefix("spawn"));
    match rest {
        Some(rest) if name.starts_with("posix_spawn") => rest.is_empty() || rest == "p",
        Some(rest) => {
            (rest.starts_with('l') || rest.starts_with('v'))
                && rest.len() <= 3
                && rest[1..].chars().all(|c| c == 'p' || c == 'e')
        }
        None => false,
    }
}

pub(super) struct Reader<'v, 'a> {
    pub(super) view: &'v View<'a>,
    pub(super) lang: Lang,
    pub(super) aliases: &'v Aliases,
    out: &'v mut Reading,
    depth: usize,
    decoded: bool,
    /// Code was evaluated that the guard could not compute (`eval(x)`,
    /// `.then(eval)`): fetched code, if the snippet fetches any.
    evals_unknown: bool,
    /// Files deleted at paths the code computes as it runs.
    pub(super) deletes_unknown: bool,
    /// The trees the code walks (`true`) or directories it lists.
    pub(super) walked: Vec<(String, bool)>,
}

impl<'v, 'a> Reader<'v, 'a> {
    pub fn new(
        view: &'v View<'a>,
        lang: Lang,
        aliases: &'v Aliases,
        out: &'v mut Reading,
        depth: usize,
        decoded: bool,
    ) -> Self {
        Reader {
            view,
            lang,
            aliases,
            out,
            depth,
            decoded,
            evals_unknown: false,
            deletes_unknown: false,
            walked: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, action: Action, decoded: bool) {
        if let Action::Shell(text) = &action {
            if runs_unknown(text) {
                self.out.net.runs_unknown = true;
            }
            // A command whose program warden cannot compute (`os.system(tool +
            // ' x')`) says nothing the shell rules could judge; the caller
            // asks about it where the call surely runs a program.
            if text.trim_start().starts_with(PLACEHOLDER) {
                return;
            }
        }
        self.out.push(action, self.decoded || decoded);
    }

    /// Something the code hides, quoted by the code at `at`.
    pub(super) fn concern(&mut self, concern: Concern, at: Span) {
        if matches!(concern, Concern::Indirection | Concern::DynamicCommand) {
            self.out.net.runs_unknown = true;
        }
        let code = compact(self.view.text(at));
        self.out.concern(concern, code);
    }

    /// Reads every call named by `tokens`, the quoted shell commands, fork
    /// loops and reverse shells.
    pub fn read(&mut self, lexed: &Lexed, tokens: &[Span]) {
        let v = self.view;
        let code: Vec<Span> = tokens.iter().copied().filter(|t| v.is_code(t.0)).collect();
        for &(start, end) in &code {
            self.call(start, end);
        }
        indirect::calls(self, &code);
        for &body in &lexed.commands {
            if let Some(val) = v.body_value(body, true, false) {
                if val.text.trim_start().starts_with(PLACEHOLDER) {
                    self.concern(Concern::DynamicCommand, body);
                }
                self.push(Action::Shell(val.text), val.decoded);
            }
        }
        // The loader reads these when the code starts a program.
        let preload = (v.src.contains("LD_") || v.src.contains("DYLD_"))
            .then(|| PRELOAD.find(v.src))
            .flatten();
        if let Some(m) = preload {
            self.concern(
                Concern::NativeLibrary,
                (m.start(), (m.end() + 40).min(v.len())),
            );
        }
        self.walked_deletes();
        if self.evals_unknown && fetches(v.src) {
            self.concern(Concern::EvalFetched, (0, v.len()));
        }
        if let Some(snippet) = patterns::fork_loop(v, &code) {
            self.push(Action::ForkLoop(snippet), false);
        }
        if patterns::socket(v, &code) {
            self.out.net.socket = true;
            if patterns::shell_hookup(v, &code) {
                self.push(Action::ReverseShell, false);
            }
        }
    }

    fn call(&mut self, start: usize, end: usize) {
        let v = self.view;
        let recv = v.receiver(start);
        let Some((args, _)) = v.call_args(end) else {
            // `eval` handed on as a value (`.then(eval)`) runs what it is given.
            if v.text((start, end)) == "eval" {
                self.evals_unknown = true;
            }
            return;
        };
        let (name, module) = self.aliases.resolve(v, v.text((start, end)), recv);
        let last = args.last().map_or(end, |a| a.value.1 + 1).min(v.len());
        let at = (recv.map_or(start, |r| r.span.0), last);
        self.apply(&name, recv, &module, &args, at);
    }

    /// What a call of `name` on `module` (its receiver, or the module it
    /// was imported from) does with `args`; `at` is the call's code.
    pub(super) fn apply(
        &mut self,
        name: &str,
        recv: Option<Recv>,
        module: &str,
        args: &[Arg],
        at: Span,
    ) {
        let v = self.view;
        if self.native(name, module, recv.is_some()) {
            self.concern(Concern::NativeLibrary, at);
        }
        self.network(name, module, args);
        match name {
            // Python's `exec` runs Python; the others' run programs.
            "exec" if v.d == Dialect::Python => self.code_arg(name, args, at),
            // R's `shell` is Windows' `system`; elsewhere the name is common.
            "shell" if self.lang != Lang::R => {}
            n if is_exec_family(n) || COMMAND_CALLS.contains(&n) => {
                self.command(name, module, args, at)
            }
            n if CODE_CALLS.contains(&n) => self.code_arg(name, args, at),
            _ => {
                let done = self.deleting(name, recv, module, args)
                    || self.writing(name, recv, module, args);
                if !done {
                    self.more(name, recv, module, args, at);
                }
            }
        }
    }

    /// The calls that delete files and trees; whether `name` is one.
    fn deleting(&mut self, name: &str, recv: Option<Recv>, recv_name: &str, args: &[Arg]) -> bool {
        let v = self.view;
        match name {
            "rmtree"
            | "rm_rf"
            | "rm_r"
            | "remove_dir"
            | "remove_tree"
            | "remove_entry"
            | "remove_entry_secure"
            | "removedirs"
            | "remove_dir_all"
            | "rimraf" => self.delete(args, true, true),
            "sync" if recv_name == "rimraf" => self.delete(args, true, true),
            "removeSync" | "remove" if recv_name == "fs" || recv_name == "fse" => {
                self.delete(args, true, false)
            }
            "rm" | "rm_f" | "delete" if recv_name == "FileUtils" || recv_name == "File" => {
                self.delete(args, false, true)
            }
            "rmSync" | "rm" | "rmdirSync" | "rmdir" | "remove" | "removeSync"
                if recv.is_some() && !matches!(recv_name, "os" | "Dir" | "file" | "shutil") =>
            {
                if self.recursive_option(args) {
                    self.delete(args, true, false);
                } else if !name.starts_with("rmdir") {
                    self.delete(args, false, false);
                }
            }
            "remove" if matches!(recv_name, "os" | "file") => self.delete(args, false, false),
            "unlink" | "unlinkSync" => {
                let recursive = self.recursive_option(args);
                if args.is_empty() {
                    match recv.map(|r| v.value(r.span, false)) {
                        Some(Some(path)) => self.push(rm(&path.text, false), path.decoded),
                        // `p.unlink()` for each `p` of a walk.
                        Some(None) => {
                            self.deletes_unknown = true;
                            self.push(Action::WriteUnknown, false);
                        }
                        None => {}
                    }
                } else {
                    self.delete(args, recursive, recv.is_none());
                }
            }
            _ => return false,
        }
        true
    }

    /// The calls that open, write, copy or move files; whether `name` is one.
    fn writing(&mut self, name: &str, recv: Option<Recv>, recv_name: &str, args: &[Arg]) -> bool {
        let v = self.view;
        match name {
            "open" | "fopen" | "openSync" => self.open(name, recv.map(|r| r.span), recv_name, args),
            // Go: `os.OpenFile(P, flags, perm)` writes when its flags say so.
            "OpenFile" if recv_name == "os" => self.open(name, None, recv_name, args),
            "Create" | "WriteFile" if matches!(recv_name, "os" | "ioutil") => {
                self.write_first(args, false)
            }
            "RemoveAll" if recv_name == "os" => self.delete(args, true, false),
            "Remove" if recv_name == "os" => self.delete(args, false, false),
            // Java: `new FileWriter(P)`, `new FileOutputStream(P, true)`.
            "FileWriter" | "FileOutputStream" => {
                let append = args.len() > 1 && v.text(args[args.len() - 1].value).trim() == "true";
                self.write_first(args, append)
            }
            "write_text" | "write_bytes" => match recv.map(|r| v.value(r.span, false)) {
                Some(Some(path)) => self.push(write(path.text, false), path.decoded),
                Some(None) => self.push(Action::WriteUnknown, false),
                None => {}
            },
            "writeFileSync" | "writeFile" | "outputFileSync" | "outputFile" | "writeTextFile"
            | "writeTextFileSync" | "file_put_contents" | "write_file" | "binwrite"
            | "createWriteStream" => {
                let append = args.iter().skip(1).any(|a| {
                    let t = v.text(a.value);
                    t.contains("FILE_APPEND") || FLAG_APPEND.is_match(t)
                });
                self.write_first(args, append);
            }
            "write" if matches!(recv_name, "File" | "IO" | "Bun") => self.write_first(args, false),
            // Julia's `write(path, data)`; `write(io, data)` to a handle
            // names no path and is judged where the handle was opened.
            "write" if self.lang == super::Lang::Julia && recv.is_none() => {
                let literal = self.positional(args).first().copied();
                if literal.is_some_and(|a| v.value(a.value, false).is_some()) {
                    self.write_first(args, false);
                }
            }
            "appendFileSync" | "appendFile" | "append_file" => self.write_first(args, true),
            "copyfile" | "copy2" | "copyFileSync" | "copyFile" | "cpSync" | "copy_file"
            | "copytree" => self.transfer("cp", args),
            "copy" | "cp" | "install"
                if matches!(recv_name, "shutil" | "FileUtils" | "fs" | "fse" | "File") =>
            {
                self.transfer("cp", args)
            }
            "move" | "mv" if matches!(recv_name, "shutil" | "FileUtils" | "fs" | "fse") => {
                self.transfer("mv", args)
            }
            "rename" | "renameSync" => self.transfer("mv", args),
            "replace" if recv_name == "os" => self.transfer("mv", args),
            _ => return false,
        }
        true
    }

    pub(super) fn positional<'x>(&self, args: &'x [Arg]) -> Vec<&'x Arg> {
        args.iter().filter(|a| a.key.is_none()).collect()
    }

    pub(super) fn keyword<'x>(&self, args: &'x [Arg], names: &[&str]) -> Option<&'x Arg> {
        args.iter().find(|a| {
            a.key
                .is_some_and(|k| names.contains(&self.view.text(k).trim_start_matches(['$', '@'])))
        })
    }

    /// Whether a call loads a native library.
    fn native(&self, name: &str, module: &str, has_recv: bool) -> bool {
        match name {
            n if NATIVE_CALLS.contains(&n) => true,
            "load" => matches!(module, "dyn" | "System" | "FFI" | "getRuntime" | "Runtime"),
            "dl" => self.lang == Lang::Php && !has_recv,
            "cdef" => module == "FFI",
            "Open" => module == "plugin",
            _ => false,
        }
    }

    /// Notes a connection opened by a call that names its host.
    fn network(&mut self, name: &str, module: &str, args: &[Arg]) {
        let connects = match name {
            "connect" | "createConnection" => {
                matches!(module, "net" | "tls" | "socket")
                    || (self.lang == Lang::Julia && module.is_empty() && args.len() >= 2)
            }
            "Dial" | "DialTCP" | "DialTimeout" => module == "net",
            "socketConnection" => true,
            // Java's `new Socket(host, port)`, Ruby's `Socket.tcp(host, port)`.
            "Socket" => args.len() >= 2 && self.lang == Lang::Java,
            "tcp" => module == "Socket" && args.len() >= 2,
            _ => false,
        };
        self.out.net.socket |= connects;
    }

    /// A program with arguments, or a shell command line.
    fn command(&mut self, name: &str, module: &str, args: &[Arg], at: Span) {
        let v = self.view;
        let spawns = indirect::runs_commands(self.lang, module, name);
        let mut pos = self.positional(args);
        // Go's `exec.CommandContext(ctx, name, args...)`.
        if name == "CommandContext" && !pos.is_empty() {
            pos.remove(0);
        }
        if let Some(k) = self.keyword(args, &["args", "cmd", "command"]) {
            pos.insert(0, k);
        }
        // Leading options: `os.spawnl(os.P_WAIT, ...)`, Ruby's environment
        // hash, `Deno.run({cmd: [...]})`.
        while let Some(first) = pos.first() {
            if v.is_list(first.value) || v.value(first.value, false).is_some() {
                break;
            }
            if let Some(items) = self.object_list(first.value) {
                self.run_words(&items);
                return;
            }
            if name.starts_with("spawn") || v.byte(first.value.0) == b'{' {
                pos.remove(0);
                continue;
            }
            break;
        }
        let Some(first) = pos.first() else {
            return;
        };
        if let Some(items) = v.list_items(first.value) {
            if spawns && items.first().is_none_or(|&i| v.value(i, false).is_none()) {
                self.concern(Concern::DynamicCommand, at);
            }
            self.run_words(&items);
            return;
        }
        let program = v.value(first.value, true);
        let unknown = program
            .as_ref()
            .is_none_or(|p| p.text.trim_start().starts_with(PLACEHOLDER));
        if unknown && spawns {
            // The stronger finding alone: a fetched command is not merely unknown.
            if fetches(v.text(first.value)) {
                self.concern(Concern::EvalFetched, at);
            } else {
                self.concern(Concern::DynamicCommand, at);
            }
        }
        if let Some(program) = program {
            self.program_with_args(name, program, &pos[1..]);
        }
    }

    /// The command a call runs: `program`, then what `rest` (the call's
    /// other positional arguments) gives it as arguments.
    fn program_with_args(&mut self, name: &str, program: Val, rest: &[&Arg]) {
        let v = self.view;
        // `syscall.Exec(path, argv, env)`, `os.StartProcess(name, argv, attr)`:
        // the program, then its argv with argv[0].
        let vector = is_exec_family(name) && (name.contains('v') || name.starts_with("posix"))
            || matches!(name, "Exec" | "StartProcess" | "ForkExec");
        // Calls taking the program, then its arguments as a list; others
        // take lists of options (`proc_open(cmd, [], $pipes)`).
        let takes_list = vector
            || matches!(
                name,
                "spawn"
                    | "spawnSync"
                    | "execFile"
                    | "execFileSync"
                    | "pcntl_exec"
                    | "system2"
                    | "Command"
            );
        let list = rest
            .iter()
            .filter(|_| takes_list)
            .find_map(|a| v.list_items(a.value).or_else(|| self.object_list(a.value)));
        let multi = is_exec_family(name)
            || matches!(
                name,
                "system"
                    | "exec"
                    | "spawn"
                    | "capture2"
                    | "capture2e"
                    | "capture3"
                    | "create_subprocess_exec"
                    | "Command"
                    | "CommandContext"
                    | "ProcessBuilder"
            );
        if let Some(items) = list {
            // R's `system2` pastes its arguments into a shell command unquoted.
            let raw = name == "system2";
            let mut words = vec![if raw {
                program.text.clone()
            } else {
                shell_word(&program)
            }];
            let skip = usize::from(vector && !items.is_empty());
            words.extend(items[skip..].iter().map(|&i| match v.value(i, true) {
                Some(val) if raw => val.text,
                _ => self.word(i),
            }));
            self.push(Action::Shell(words.join(" ")), program.decoded);
        } else if multi
            && !rest.is_empty()
            && rest.iter().all(|a| v.value(a.value, false).is_some())
        {
            let skip = usize::from(is_exec_family(name) && !vector);
            let rest: Vec<Span> = rest[skip..].iter().map(|a| a.value).collect();
            let mut words = vec![shell_word(&program)];
            words.extend(rest.iter().map(|&s| self.word(s)));
            self.push(Action::Shell(words.join(" ")), program.decoded);
        } else {
            self.push(Action::Shell(program.text), program.decoded);
        }
    }

    /// `{cmd: [...]}` / `{args: [...]}`: the list.
    fn object_list(&self, span: Span) -> Option<Vec<Span>> {
        let v = self.view;
        let (a, b) = v.trim(span);
        if v.byte(a) != b'{' || v.partner(a) != Some(b.checked_sub(1)?) {
            return None;
        }
        let args = v.paren_args(a)?;
        args.iter().find_map(|arg| {
            let key = v.text(arg.key?).trim_matches(['\'', '"']);
            matches!(key, "cmd" | "args")
                .then(|| v.list_items(arg.value))
                .flatten()
        })
    }

    fn word(&self, span: Span) -> String {
        match self.view.value(span, true) {
            Some(v) => shell_word(&v),
            None => PLACEHOLDER.to_string(),
        }
    }

    pub(super) fn run_words(&mut self, items: &[Span]) {
        if items.is_empty() {
            return;
        }
        let decoded = items
            .iter()
            .any(|&i| self.view.value(i, true).is_some_and(|v| v.decoded));
        let words: Vec<String> = items.iter().map(|&i| self.word(i)).collect();
        self.push(Action::Shell(words.join(" ")), decoded);
    }

    /// `eval("...")`, `exec(b64decode(...))`: more code in the same language.
    fn code_arg(&mut self, name: &str, args: &[Arg], at: Span) {
        if self.depth >= MAX_CODE_DEPTH {
            return;
        }
        let Some(first) = self.positional(args).first().copied() else {
            return;
        };
        let code = self.parsed_text(first.value);
        match self.view.value(code, false) {
            Some(val) => {
                // `eval(d)`: text a variable gathered, fetched if the code fetches.
                if self
                    .view
                    .text(code)
                    .trim()
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    self.evals_unknown = true;
                }
                let nested = super::read_code(
                    &val.text,
                    self.lang,
                    self.depth + 1,
                    self.decoded || val.decoded,
                    self.view.given,
                );
                self.out.merge(nested);
            }
            // Code the guard cannot read may be anything a socket sent; but
            // `re.compile`, `json.load` and Ruby's `load FILE` take no code.
            None if name != "compile" && (name != "load" || self.lang == Lang::Lua) => {
                self.out.net.runs_unknown = true;
                self.evals_unknown = true;
                if fetches(self.view.text(code)) {
                    self.concern(Concern::EvalFetched, at);
                } else if DECODING.is_match(self.view.text(code)) {
                    self.concern(Concern::EvalDecoded, at);
                }
            }
            None => {}
        }
    }

    /// The text R's `parse(text = X)` and Julia's `Meta.parse(X)` turn
    /// into code: `X`.
    fn parsed_text(&self, span: Span) -> Span {
        let v = self.view;
        let (a, b) = v.trim(span);
        let text = v.text((a, b));
        let Some(open) = ["parse(", "Meta.parse(", "str2lang(", "parse_expr("]
            .iter()
            .find(|p| text.starts_with(*p))
            .map(|p| a + p.len() - 1)
        else {
            return span;
        };
        if v.partner(open) != Some(b - 1) {
            return span;
        }
        let args = v.paren_args(open).unwrap_or_default();
        self.keyword(&args, &["text"])
            .or_else(|| self.positional(&args).first().copied())
            .map_or(span, |a| a.value)
    }
}

/// The dynamic loader's injection variables set by the code.
static PRELOAD: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r#"(?-u:\b)(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)(?-u:\b)['"\]}]*[\t\n\x0B\x0C\r ]*(?:=[^=]|,|:)"#)
        .expect("preload regex is valid")
});

/// Code that decodes, decompresses or unpacks text at run time.
static DECODING: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?i-u)b64decode|base64|decode64|atob|decompress|inflate|gunzip|unzip|uncompress|zlib|rot13|rot_13|fromhex|unhexlify|hex2bin|a2b_|fromCharCode|unpack|(?-u:\b)chr\(|marshal|strrev|reverse|\[::-1\]|Buffer\.from|decode\(")
        .expect("decoding regex is valid")
});

/// Names of calls and modules that read from the network, and URL schemes,
/// one a line: code that evaluates text it cannot compute next to one of
/// these runs what the network sent. (One text: each word of a static
/// table costs the loader a relocation on every start.)
const FETCHES: &str = "://\n\
    urlopen\n\
    urlretrieve\n\
    requests.\n\
    httpx.\n\
    urllib3\n\
    aiohttp\n\
    fetch(\n\
    http.get\n\
    https.get\n\
    http.request\n\
    https.request\n\
    axios\n\
    URI.open\n\
    open-uri\n\
    Net::HTTP\n\
    HTTParty\n\
    LWP\n\
    HTTP::Tiny\n\
    Mojo::UserAgent\n\
    get(\"http\n\
    get('http\n\
    curl_exec\n\
    file_get_contents(\n\
    socket.http\n\
    HTTP.get\n\
    Downloads\n\
    download(\n\
    readLines(url\n\
    url(\n\
    WebClient\n\
    DownloadString\n\
    Invoke-WebRequest";

/// Whether `code` mentions reading from the network.
pub(crate) fn fetches(code: &str) -> bool {
    FETCHES.lines().any(|f| code.contains(f))
}

/// Whether a command line starts a shell with no command of its own (one
/// that reads its commands from a terminal, a pipe or a socket).
pub(crate) fn starts_shell(text: &str) -> bool {
    if text.contains(PLACEHOLDER) {
        return false;
    }
    shell_words(text).is_some_and(|rest| {
        !rest
            .iter()
            .any(|w| matches!(*w, "-c" | "/c" | "-Command") || !w.starts_with('-'))
    })
}

/// The words after the program of a command line that a shell starts, its
/// quotes trimmed; `None` when the program is not a shell.
fn shell_words(text: &str) -> Option<Vec<&str>> {
    let mut words = text.split_whitespace().map(|w| w.trim_matches(['\'', '"']));
    let program = words.next()?;
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    is_shell(base).then(|| words.collect())
}

fn is_shell(base: &str) -> bool {
    matches!(
        base.to_ascii_lowercase().as_str(),
        "sh" | "bash"
            | "zsh"
            | "dash"
            | "ksh"
            | "ash"
            | "csh"
            | "tcsh"
            | "fish"
            | "cmd"
            | "cmd.exe"
            | "powershell"
            | "powershell.exe"
            | "pwsh"
    )
}

/// Whether a command line starts a shell with no command of its own or
/// runs text the code could not compute.
pub(super) fn runs_unknown(text: &str) -> bool {
    if text.trim_start().starts_with(PLACEHOLDER) {
        return true;
    }
    // A shell given no command reads one; given one, it runs what the
    // code could not compute (an unknown argument of another program is
    // only data).
    shell_words(text).is_some_and(|rest| {
        let given = rest.iter().any(|w| matches!(*w, "-c" | "/c" | "-Command"));
        !given || text.contains(PLACEHOLDER)
    })
}

/// A value as one shell word: quoted, with unknown parts left as
/// substitutions, and the home directory as `~`.
fn shell_word(v: &Val) -> String {
    if v.home {
        if let Some(rest) = v.text.strip_prefix('~') {
            let rest = Val {
                text: rest.to_string(),
                home: false,
                ..v.clone()
            };
            return format!("~{}", shell_word(&rest));
        }
    }
    quote_known(&v.text)
}

/// `text` quoted for the shell piece by piece, the unknown parts
/// ([`PLACEHOLDER`]) left between the pieces as substitutions.
pub(super) fn quote_known(text: &str) -> String {
    text.split(PLACEHOLDER)
        .map(|piece| {
            if piece.is_empty() {
                String::new()
            } else {
                format!("'{}'", piece.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(PLACEHOLDER)
}

pub(super) fn compact(s: &str) -> String {
    // Only the start is quoted, so only the start is read: a call's text
    // may hold most of the code, and there may be a call per line.
    let end = s
        .char_indices()
        .nth(MAX_SNIPPET * 4)
        .map_or(s.len(), |(i, _)| i);
    let flat: String = s[..end].split_whitespace().collect::<Vec<_>>().join(" ");
    flat.chars().take(MAX_SNIPPET).collect()
}
