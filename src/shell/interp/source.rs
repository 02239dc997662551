//! Which code an interpreter command runs: its inline `-c`/`-e` code, its stdin, or the script files it names (`python3 x.py`, `go run x.go`, `tclsh x.tcl`).

use super::Lang;
use crate::shell::command::Command;

/// Where the code of an interpreter command comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Code given on the command line or on stdin.
    Inline(String),
    /// Script files, read only if the line itself wrote them.
    Files(Vec<String>),
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
    /// Options after which the program is not inline code (`-m module`).
    module: &'static str,
    /// Options whose value is the script file (`php -f x.php`, `R -f x.R`).
    file: &'static str,
    /// Long options that take the next argument.
    long_valued: &'static [&'static str],
    /// Long options whose value is code.
    long_code: &'static [&'static str],
}

const NONE: &[&str] = &[];

const PLAIN: Options = Options {
    code: "e",
    attached: true,
    valued: "",
    rest: "",
    digits: "",
    module: "",
    file: "",
    long_valued: NONE,
    long_code: &["--eval"],
};

/// Node's long options that take the next argument (`--require mod`).
const NODE_LONG_VALUED: &[&str] = &[
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--conditions",
    "--title",
    "--env-file",
];

/// jshell's long options that take the next argument (`--class-path dir`).
const JSHELL_LONG_VALUED: &[&str] = &[
    "--class-path",
    "--module-path",
    "--add-modules",
    "--add-exports",
    "--startup",
    "--feedback",
    "--execution",
    "--enable-preview",
];

fn options(lang: Lang) -> Options {
    match lang {
        Lang::Python => Options {
            code: "c",
            valued: "WX",
            module: "m",
            long_code: NONE,
            ..PLAIN
        },
        Lang::Perl => Options {
            code: "eE",
            valued: "I",
            rest: "MmxiCDdFV",
            digits: "l0",
            long_code: NONE,
            ..PLAIN
        },
        Lang::Ruby => Options {
            valued: "rICE",
            rest: "xFiKTW",
            digits: "0",
            long_code: NONE,
            ..PLAIN
        },
        Lang::Node => Options {
            code: "ep",
            attached: false,
            valued: "rC",
            long_valued: NODE_LONG_VALUED,
            long_code: &["--eval", "--print"],
            ..PLAIN
        },
        Lang::Php => Options {
            code: "rBRE",
            valued: "dctz",
            file: "f",
            long_code: NONE,
            ..PLAIN
        },
        Lang::Lua => Options {
            valued: "l",
            long_code: NONE,
            ..PLAIN
        },
        Lang::R => Options {
            file: "f",
            long_valued: &["--file"],
            ..PLAIN
        },
        // `-L FILE` loads a file before the program; `-E` evaluates and prints.
        Lang::Julia => Options {
            code: "eE",
            valued: "JptCL",
            long_valued: &["--project", "--load", "--sysimage", "--threads", "--procs"],
            long_code: &["--eval", "--print"],
            ..PLAIN
        },
        Lang::Tcl => Options {
            code: "c",
            valued: "D",
            file: "f",
            long_code: NONE,
            ..PLAIN
        },
        Lang::Java => Options {
            code: "",
            valued: "RJC",
            long_valued: JSHELL_LONG_VALUED,
            long_code: NONE,
            ..PLAIN
        },
        Lang::Go => PLAIN,
    }
}

/// The code `cmd` runs and its language, if `cmd` is an interpreter.
pub fn source(cmd: &Command) -> Option<(Lang, Source)> {
    invocation(cmd).map(|i| (i.lang, i.source))
}

/// An interpreter command read as the interpreter reads it: the language,
/// where its code comes from, and the arguments that code is given (the
/// words after the code or the script's name, which the code sees as
/// `sys.argv[1:]`, `@ARGV`, `ARGV`, `process.argv.slice(2)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    pub lang: Lang,
    pub source: Source,
    pub args: Vec<String>,
}

/// [`Invocation`] of `cmd`, if `cmd` is an interpreter.
pub fn invocation(cmd: &Command) -> Option<Invocation> {
    if cmd.program == "go" {
        let (files, args) = go_run(&cmd.args)?;
        return Some(Invocation {
            lang: Lang::Go,
            source: Source::Files(files),
            args,
        });
    }
    let lang = super::language(&cmd.program)?;
    let mut reader = Reader {
        opts: options(lang),
        // Python stops reading options at `-c`; what follows is the program's argv.
        stop_at_code: lang == Lang::Python,
        code: Vec::new(),
        script: None,
        iter: cmd.args.iter(),
    };
    reader.read(matches!(cmd.program.as_str(), "deno" | "bun"));
    let Reader {
        code, script, iter, ..
    } = reader;
    let rest = iter.cloned();
    if !code.is_empty() {
        // A word the loop took for a script is the code's first argument.
        let args = script.flatten().into_iter().chain(rest).collect();
        return Some(Invocation {
            lang,
            source: Source::Inline(code.join("\n")),
            args,
        });
    }
    let source = match script {
        Some(Some(file)) => Source::Files(vec![file]),
        Some(None) => return None,
        None => Source::Inline(cmd.stdin.clone()?),
    };
    Some(Invocation {
        lang,
        source,
        args: rest.collect(),
    })
}

/// An interpreter's arguments read up to where its program starts.
struct Reader<'a> {
    opts: Options,
    stop_at_code: bool,
    /// Inline code, from every code option.
    code: Vec<String>,
    /// The script: `Some(None)` when the program is not inline code nor a
    /// file (`python3 -m module`).
    script: Option<Option<String>>,
    iter: std::slice::Iter<'a, String>,
}

impl Reader<'_> {
    /// Reads options until the program's own arguments; `action_first`
    /// for Deno and Bun, which name their action first (`deno eval CODE`,
    /// `bun run x`).
    fn read(&mut self, action_first: bool) {
        let mut first = action_first;
        while let Some(arg) = self.iter.next() {
            if std::mem::take(&mut first) {
                match arg.as_str() {
                    "eval" => {
                        self.code.extend(self.iter.next().cloned());
                        continue;
                    }
                    "run" => continue,
                    a if !a.starts_with('-') => {
                        self.script = Some(Some(a.to_string()));
                        return;
                    }
                    _ => {}
                }
            }
            if arg == "-" {
                return;
            }
            if arg == "--" || !arg.starts_with('-') {
                let file = if arg == "--" {
                    self.iter.next()
                } else {
                    Some(arg)
                };
                self.script = Some(file.cloned());
                return;
            }
            let stop = match arg.strip_prefix("--") {
                Some(long) => self.long(arg, long),
                None => self.cluster(arg),
            };
            if stop {
                return;
            }
        }
    }

    /// A long option (`--eval CODE`, `--file=x`): whether the program starts after it.
    fn long(&mut self, arg: &str, long: &str) -> bool {
        let (key, value) = match long.split_once('=') {
            Some((k, v)) => (format!("--{k}"), Some(v)),
            None => (arg.to_string(), None),
        };
        if self.opts.long_code.contains(&key.as_str()) {
            let code = value
                .map(str::to_string)
                .or_else(|| self.iter.next().cloned());
            self.code.extend(code);
        } else if key == "--file" {
            self.script = Some(
                value
                    .map(str::to_string)
                    .or_else(|| self.iter.next().cloned()),
            );
            return true;
        } else if self.opts.long_valued.contains(&key.as_str()) && value.is_none() {
            self.iter.next();
        }
        false
    }

    /// A cluster of short options (`-pe`, `-W1`, `-0777`): whether the
    /// program starts after it.
    fn cluster(&mut self, arg: &str) -> bool {
        let cluster: Vec<char> = arg.chars().skip(1).collect();
        let opts = &self.opts;
        let mut k = 0;
        let mut wants_code = false;
        while k < cluster.len() {
            let c = cluster[k];
            let rest: String = cluster[k + 1..].iter().collect();
            let attached = (!rest.is_empty()).then_some(rest);
            if opts.code.contains(c) && !opts.attached {
                // `node -pe CODE`: the flags share the next argument.
                wants_code = true;
                k += 1;
            } else if opts.code.contains(c) {
                self.code
                    .extend(attached.or_else(|| self.iter.next().cloned()));
                return self.stop_at_code;
            } else if opts.module.contains(c) {
                self.script = Some(None);
                return true;
            } else if opts.file.contains(c) {
                self.script = Some(attached.or_else(|| self.iter.next().cloned()));
                return true;
            } else if opts.valued.contains(c) {
                if attached.is_none() {
                    self.iter.next();
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
            self.code.extend(self.iter.next().cloned());
        }
        false
    }
}

/// Build flags of `go run` that take a value.
const GO_VALUED: &[&str] = &[
    "-C",
    "-p",
    "-tags",
    "-ldflags",
    "-gcflags",
    "-asmflags",
    "-mod",
    "-modfile",
    "-overlay",
    "-pgo",
    "-exec",
    "-toolexec",
    "-o",
    "-pkgdir",
    "-installsuffix",
    "-buildmode",
    "-compiler",
    "-gccgoflags",
    "-covermode",
    "-coverpkg",
];

/// The `.go` files `go run` compiles and runs (`go run main.go util.go
/// args`), and the arguments after them.
fn go_run(args: &[String]) -> Option<(Vec<String>, Vec<String>)> {
    let mut iter = args.iter();
    if iter.next()? != "run" {
        return None;
    }
    let mut files = Vec::new();
    while let Some(arg) = iter.next() {
        let name = arg.split('=').next().unwrap_or(arg);
        let name = name.strip_prefix('-').unwrap_or(name);
        if arg.starts_with('-') && files.is_empty() {
            if !arg.contains('=') && GO_VALUED.contains(&format!("-{name}").as_str()) {
                iter.next();
            }
            continue;
        }
        if !arg.ends_with(".go") {
            let rest = std::iter::once(arg).chain(iter).cloned().collect();
            return (!files.is_empty()).then_some((files, rest));
        }
        files.push(arg.clone());
    }
    (!files.is_empty()).then_some((files, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(program: &str, args: &[&str]) -> Option<String> {
        match source(&Command::new(program, args)) {
            Some((_, Source::Inline(code))) => Some(code),
            _ => None,
        }
    }

    fn files_of(program: &str, args: &[&str]) -> Vec<String> {
        match source(&Command::new(program, args)) {
            Some((_, Source::Files(files))) => files,
            _ => Vec::new(),
        }
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
        assert_eq!(
            code_of("expect", &["-c", "spawn x"]).as_deref(),
            Some("spawn x")
        );
        assert_eq!(code_of("julia", &["-E", "1+1"]).as_deref(), Some("1+1"));
    }

    #[test]
    fn arguments_after_the_code_or_script() {
        let args_of =
            |program: &str, args: &[&str]| invocation(&Command::new(program, args)).map(|i| i.args);
        let words = |w: &[&str]| Some(w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            args_of("python3", &["-c", "x", "-o", "f"]),
            words(&["-o", "f"])
        );
        assert_eq!(args_of("python3", &["-u", "x.py", "a"]), words(&["a"]));
        assert_eq!(args_of("perl", &["-e", "x", "a", "b"]), words(&["a", "b"]));
        assert_eq!(args_of("perl", &["-e", "x", "--", "-a"]), words(&["-a"]));
        assert_eq!(args_of("node", &["-e", "x", "a"]), words(&["a"]));
        assert_eq!(args_of("ruby", &["x.rb", "a"]), words(&["a"]));
        assert_eq!(args_of("go", &["run", "a.go", "x"]), words(&["x"]));
        assert_eq!(args_of("python3", &["-m", "json.tool", "f"]), None);
    }

    #[test]
    fn script_files() {
        assert_eq!(files_of("python3", &["-u", "x.py", "arg"]), ["x.py"]);
        assert_eq!(files_of("node", &["--", "x.js"]), ["x.js"]);
        assert_eq!(files_of("php", &["-f", "x.php"]), ["x.php"]);
        assert_eq!(files_of("rscript", &["--file=x.R"]), ["x.R"]);
        assert_eq!(files_of("tclsh", &["x.tcl"]), ["x.tcl"]);
        assert_eq!(
            files_of("jshell", &["--feedback", "concise", "x.jsh"]),
            ["x.jsh"]
        );
        assert_eq!(
            files_of("go", &["run", "-tags", "dev", "a.go", "b.go", "arg.go2"]),
            ["a.go", "b.go"]
        );
        assert!(files_of("go", &["run", "./cmd/server"]).is_empty());
        assert!(files_of("go", &["build", "x.go"]).is_empty());
        assert!(files_of("python3", &["-m", "http.server"]).is_empty());
    }
}
