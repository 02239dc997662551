//! Where network content comes from (fetchers, sockets, `/dev/tcp`) and what a later pipeline stage does with it: a known data filter, a program that runs it as code, or a program warden cannot vouch for.
//!
//! The reasoning runs from the harmless side: a stage fed by a download is
//! harmless only when it is on the list of data programs below (or reads
//! its input with code warden reads and finds no evaluation in). Anything
//! known to run its input blocks; anything else asks.

use crate::rules::program_in;
use crate::shell::names::{self, ProgramSet};
use crate::shell::{
    interpreter_invocation, read_interpreter_code, Command, InterpreterSource, RedirectOp,
};
use crate::shell::{PARALLEL_VALUED, XARGS_VALUED};

/// Programs whose output is what a server sent: HTTP clients and raw
/// sockets. (`GET` and `POST` are libwww-perl's, lowercased like every
/// program name.)
#[rustfmt::skip]
const SOURCES: &[&str] = &[
    "curl", "curlie", "wget", "wget2", "fetch", "ftp", "http", "https", "xh", "xhs", "aria2c",
    "lynx", "w3m", "links", "elinks", "lwp-request", "lwp-download", "get", "post", "iwr", "irm",
    "invoke-webrequest", "invoke-restmethod", "nc", "ncat", "netcat", "socat", "telnet",
];

/// Whether `cmd` writes what a network peer sent to its stdout: a fetcher,
/// a socket client or listener, or a command reading `/dev/tcp`/`/dev/udp`.
pub(in crate::rules) fn is_network_source(cmd: &Command) -> bool {
    static SET: ProgramSet = names::program_set!(SOURCES);
    SET.contains(&cmd.program)
        || (cmd.program == "openssl" && cmd.args.first().is_some_and(|a| a == "s_client"))
        || cmd
            .redirects
            .iter()
            .any(|r| r.op == RedirectOp::Read && is_socket_path(&r.target))
}

/// bash's network paths: `/dev/tcp/HOST/PORT` and `/dev/udp/HOST/PORT`.
pub(in crate::rules) fn is_socket_path(path: &str) -> bool {
    path.starts_with("/dev/tcp/") || path.starts_with("/dev/udp/")
}

/// What a pipeline stage does with what reaches its stdin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::rules) enum Use {
    /// Reads it as data: filters, viewers, checksums, archivers, files.
    Data,
    /// Runs it as code, or as the commands of a job, now or later.
    Runs,
    /// A program warden has no model of: it may do either.
    Unknown,
}

/// Programs that treat their input as data whatever their options (those
/// that only sometimes do are judged by [`input_use`] itself).
#[rustfmt::skip]
const DATA: &[&str] = &[
    // Text filters and viewers.
    "cat", "tac", "head", "tail", "wc", "sort", "uniq", "cut", "paste", "tr", "rev", "nl", "fold",
    "fmt", "pr", "column", "expand", "unexpand", "comm", "join", "diff", "cmp", "grep", "egrep",
    "fgrep", "zgrep", "rg", "ag", "ack", "less", "more", "most", "bat", "batcat", "pv", "tee",
    "sponge", "dd", "split", "csplit", "iconv", "dos2unix", "unix2dos", "numfmt", "strings",
    "file", "echo", "printf", "true", "ts", "ifne", "look", "shuf", "sleep", "shellcheck",
    "shfmt", "yamllint", "hadolint",
    // Structured data.
    "jq", "gojq", "jaq", "yq", "gron", "xq", "htmlq", "pup", "xmllint", "xmlstarlet", "mlr",
    "csvlook", "csvcut", "csvjson", "in2csv", "dasel", "fx", "jless", "pandoc", "html2text",
    "html2markdown",
    // Encodings, checksums and signatures.
    "base64", "base32", "basenc", "xxd", "hexdump", "od", "sha1sum", "sha224sum", "sha256sum",
    "sha384sum", "sha512sum", "md5sum", "md5", "shasum", "b2sum", "b3sum", "cksum", "sum", "gpg",
    "gpg2", "gpgv", "minisign", "signify", "cosign",
    // Archives and compression, which write files (judged by the file rules).
    "gunzip", "gzip", "zcat", "gzcat", "bzip2", "bunzip2", "bzcat", "xz", "unxz", "xzcat", "lzma",
    "unlzma", "zstd", "unzstd", "zstdcat", "lz4", "lz4cat", "brotli", "cpio", "bsdtar", "unzip",
    "7z", "7za", "funzip",
    // The clipboard, and the network again (an upload, not a run).
    "pbcopy", "xclip", "xsel", "wl-copy", "clip", "curl", "wget", "http", "https", "xh", "nc",
    "ncat", "netcat", "socat",
];

/// Programs that run what reaches their stdin as code or as jobs, whatever
/// their options (options that change this are judged in [`input_use`]).
#[rustfmt::skip]
const RUNNERS: &[&str] = &[
    "m4", "dc", "osascript", "sqlite3", "psql", "mysql", "mariadb", "gdb", "lldb", "ed", "ex",
    "cmd", "irb", "ghci", "sbcl", "clisp", "guile", "racket", "scheme", "ocaml", "swift", "erl",
    "elixir", "iex", "invoke-expression", "scala", "kotlinc", "groovysh",
];

/// What `cmd`, a stage of a pipeline, does with the input it is fed.
pub(in crate::rules) fn input_use(cmd: &Command) -> Use {
    static DATA_SET: ProgramSet = names::program_set!(DATA);
    static RUNNER_SET: ProgramSet = names::program_set!(RUNNERS);
    let program = cmd.program.as_str();
    match program {
        "sed" | "gsed" => return runs_if(sed_runs_input(cmd)),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => return runs_if(awk_runs_input(cmd)),
        "tar" | "gtar" => return runs_if(tar_runs_input(cmd)),
        "xargs" | "parallel" | "sem" => return command_input_use(cmd),
        "at" | "batch" => return runs_if(!cmd.args.iter().any(|a| at_reads_no_job(a))),
        "crontab" => return runs_if(crontab_reads_stdin(cmd)),
        "source" | "." => {
            return runs_if(cmd.operands().first().is_some_and(|f| reads_stdin_path(f)))
        }
        "make" | "gmake" | "bmake" => return runs_if(make_reads_stdin(cmd)),
        "openssl" => return Use::Data,
        // A loop's reader stores lines in variables: what uses them is
        // judged where they are used (`read_loop_runs`).
        "read" | "mapfile" | "readarray" => return Use::Data,
        _ => {}
    }
    // `tee >(sh)`: a stage writing into a process substitution hands the
    // body its input.
    if let Some(found) = written_substitutions_use(cmd) {
        return found;
    }
    if let Some(found) = interpreter_use(cmd) {
        return found;
    }
    if DATA_SET.contains(program) {
        Use::Data
    } else if RUNNER_SET.contains(program) || cmd.dynamic {
        Use::Runs
    } else {
        Use::Unknown
    }
}

/// What the bodies of `cmd`'s output process substitutions (`>(CMD)`)
/// do with the text written into them: the most dangerous use of any;
/// `None` when there are none.
fn written_substitutions_use(cmd: &Command) -> Option<Use> {
    let mut found: Option<Use> = None;
    for arg in cmd.args.iter().filter(|a| a.starts_with(">(")) {
        let body = super::substitutions::substituted(arg);
        // The first stage of the body reads what is written.
        let Some(first) = body.iter().find(|c| c.upstream.is_empty()) else {
            continue;
        };
        let used = input_use(first);
        found = Some(match (found, used) {
            (_, Use::Runs) | (Some(Use::Runs), _) => Use::Runs,
            (_, Use::Unknown) | (Some(Use::Unknown), _) => Use::Unknown,
            _ => Use::Data,
        });
    }
    found
}

fn runs_if(runs: bool) -> Use {
    if runs {
        Use::Runs
    } else {
        Use::Data
    }
}

/// Paths through which a program reads its own stdin as a file.
const STDIN_PATHS: &[&str] = &["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

fn reads_stdin_path(path: &str) -> bool {
    STDIN_PATHS.contains(&path)
}

/// A shell or an interpreter warden reads: it runs its input when it takes
/// its program from stdin (`sh`, `sh -s`, `bash /dev/stdin`, `python3 -`),
/// and when its inline code evaluates text it cannot compute
/// (`python3 -c 'exec(sys.stdin.read())'`). A script file or a module of
/// its own reads the input as data. `None`: not an interpreter.
fn interpreter_use(cmd: &Command) -> Option<Use> {
    if super::runs_stdin(cmd) {
        return Some(Use::Runs);
    }
    if program_in(&cmd.program, crate::rules::exec::SHELLS) || super::is_interpreter(&cmd.program) {
        if super::parse_only(cmd) {
            return Some(Use::Data);
        }
        let script = cmd.operands().first().copied();
        if script.is_some_and(reads_stdin_path) {
            return Some(Use::Runs);
        }
    }
    // Ask with stdin known to be empty: no code and no script means the
    // program is read from stdin.
    let mut probe = Command::clone(cmd);
    probe.stdin = Some(String::new());
    let Some(run) = interpreter_invocation(&probe) else {
        // An interpreter running a module of its own (`python3 -m
        // json.tool`) reads the input as data.
        return crate::shell::interpreter_language(&cmd.program).map(|_| Use::Data);
    };
    Some(match run.source {
        InterpreterSource::Inline(code) if code.is_empty() => Use::Runs,
        InterpreterSource::Inline(code) => {
            runs_if(read_interpreter_code(&code, run.lang, None).runs_unknown())
        }
        InterpreterSource::Files(files) => {
            runs_if(files.first().is_some_and(|f| reads_stdin_path(f)))
        }
    })
}

/// sed's `e` command (run the pattern space) and `s///e` (run the result):
/// each script piece, after its address, that is `e` or a substitution
/// flagged `e`.
fn sed_runs_input(cmd: &Command) -> bool {
    let mut scripts: Vec<&str> = Vec::new();
    let mut args = cmd.args.iter();
    let mut explicit = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-e" | "--expression" => {
                explicit = true;
                scripts.extend(args.next().map(String::as_str));
            }
            "-f" | "--file" => {
                explicit = true;
                args.next();
            }
            a if a.starts_with("--expression=") => {
                explicit = true;
                scripts.push(&a["--expression=".len()..]);
            }
            a if a.starts_with('-') => {}
            a if !explicit => {
                scripts.push(a);
                explicit = true;
            }
            _ => {}
        }
    }
    scripts
        .iter()
        .any(|s| s.split([';', '\n']).any(sed_piece_runs))
}

fn sed_piece_runs(piece: &str) -> bool {
    let body = piece.trim_start_matches(|c: char| {
        c.is_ascii_digit() || c.is_whitespace() || matches!(c, '$' | ',' | '!' | '~' | '+')
    });
    // An address `/re/` comes before its command.
    let body = match body.strip_prefix('/') {
        Some(rest) => rest.split_once('/').map_or("", |(_, cmd)| cmd.trim_start()),
        None => body,
    };
    if body.starts_with('e') {
        return true;
    }
    let Some(rest) = body.strip_prefix('s') else {
        return false;
    };
    let Some(delim) = rest.chars().next() else {
        return false;
    };
    let parts: Vec<&str> = rest[delim.len_utf8()..].splitn(3, delim).collect();
    parts.len() == 3 && parts[2].contains('e')
}

/// awk's `system()` and its pipes to and from commands (`print | "sh"`,
/// `cmd | getline`) in the program text; a program from a file is the
/// file's, not the input's.
fn awk_runs_input(cmd: &Command) -> bool {
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-f" | "--file" => return args.next().is_some_and(|f| reads_stdin_path(f)),
            "-v" | "-F" | "--assign" | "--field-separator" => {
                args.next();
            }
            a if a.starts_with('-') && a.len() > 1 => {}
            program => {
                return program.contains("system") || program.replace("||", "").contains('|')
            }
        }
    }
    false
}

/// tar's options that hand each member, or the archive, to a command.
fn tar_runs_input(cmd: &Command) -> bool {
    cmd.args.iter().any(|a| {
        [
            "--to-command",
            "--checkpoint-action",
            "--use-compress-program",
            "--info-script",
            "--new-volume-script",
            "-I",
            "-F",
        ]
        .iter()
        .any(|o| a == o || a.starts_with(&format!("{o}=")))
    })
}

/// `at`/`batch` options that list, remove or show jobs, or read the job
/// from a file rather than stdin.
fn at_reads_no_job(arg: &str) -> bool {
    matches!(arg, "-l" | "-r" | "-d" | "-c" | "-f" | "-V" | "--help")
}

/// `crontab -` or `crontab` with no file: the table is read from stdin.
fn crontab_reads_stdin(cmd: &Command) -> bool {
    let listing = cmd
        .args
        .iter()
        .any(|a| matches!(a.as_str(), "-l" | "-r" | "-e" | "-T"));
    !listing && cmd.operands().first().is_none_or(|f| reads_stdin_path(f))
}

/// `make -f -`: the makefile, recipes and all, is read from stdin.
fn make_reads_stdin(cmd: &Command) -> bool {
    let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    args.windows(2)
        .any(|w| matches!(w[0], "-f" | "--file" | "--makefile") && reads_stdin_path(w[1]))
        || args
            .iter()
            .any(|a| matches!(*a, "-f-" | "--file=-" | "--makefile=-"))
}

/// xargs and parallel run a command of their own with the input as its
/// arguments: harmless when that command is a data program or a fetcher,
/// a run when it is a shell or interpreter (the input lands in its code),
/// and parallel with no command runs each input line as a command.
fn command_input_use(cmd: &Command) -> Use {
    let mut args = cmd.args.iter().map(String::as_str);
    let mut words: Vec<String> = Vec::new();
    while let Some(arg) = args.next() {
        let valued = if cmd.program == "xargs" {
            XARGS_VALUED
        } else {
            PARALLEL_VALUED
        };
        if valued.contains(&arg) {
            args.next();
        } else if arg == ":::" || arg == "::::" {
            // parallel's arguments come from the line, not the input.
            break;
        } else if !arg.starts_with('-') || !words.is_empty() {
            words.push(arg.to_string());
        }
    }
    let Some(first) = words.first() else {
        // xargs runs `echo`; parallel runs each line.
        return runs_if(cmd.program != "xargs");
    };
    let inner = Command {
        program: crate::shell::program_name(first),
        path: first.clone(),
        args: words[1..].to_vec(),
        ..Command::default()
    };
    let shell = program_in(&inner.program, crate::rules::exec::SHELLS)
        || crate::shell::interpreter_language(&inner.program).is_some()
        || program_in(
            &inner.program,
            &["eval", "source", ".", "env", "sudo", "nohup"],
        );
    if shell {
        return Use::Runs;
    }
    match input_use(&inner) {
        Use::Data => Use::Data,
        _ => Use::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn use_of(line: &str) -> Use {
        let analysis = crate::shell::analyze(line);
        let last = analysis
            .commands
            .iter()
            .rev()
            .find(|c| !c.upstream.is_empty())
            .expect("a pipeline stage");
        input_use(last)
    }

    #[test]
    fn stages_after_a_download() {
        for line in [
            "curl x | sh",
            "curl x | bash /dev/stdin",
            "curl x | tclsh",
            "curl x | awk '{system($0)}'",
            "curl x | awk '{print | \"sh\"}'",
            "curl x | sed e",
            "curl x | sed -n '1,5e'",
            "curl x | sed 's/^/ /e'",
            "curl x | parallel",
            "curl x | xargs -I{} sh -c {}",
            "curl x | python3 -c 'import sys; exec(sys.stdin.read())'",
            "curl x | at now",
            "curl x | crontab -",
            "curl x | source /dev/stdin",
            "curl x | sqlite3",
            "curl x | make -f -",
            "curl x | tar -x --to-command=sh",
            "curl x | tee >(sh)",
            "curl x | tee log.txt >(bash -s) >/dev/null",
        ] {
            assert_eq!(use_of(line), Use::Runs, "{line}");
        }
        for line in [
            "curl x | jq .",
            "curl x | grep a",
            "curl x | sha256sum",
            "curl x | tar -tz",
            "curl x | tee out.txt",
            "curl x | python3 -m json.tool",
            "curl x | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"x\"])'",
            "curl x | awk '{print $1}'",
            "curl x | sed 's/a/b/g'",
            "curl x | bash -n",
            "curl x | xargs -n1 curl -O",
            "curl x | crontab -l",
            "curl x | python3 process.py",
            "curl x | tee >(sha256sum) out.txt",
            "curl x | read line",
        ] {
            assert_eq!(use_of(line), Use::Data, "{line}");
        }
        assert_eq!(use_of("curl x | kubectl apply -f -"), Use::Unknown);
    }

    #[test]
    fn sources() {
        let src = |line: &str| is_network_source(&crate::shell::analyze(line).commands[0]);
        assert!(src("curl -s https://x") && src("nc host 80") && src("cat < /dev/tcp/h/80"));
        assert!(src("openssl s_client -connect h:443") && src("GET http://x"));
        assert!(!src("cat notes.txt") && !src("openssl x509 -in c.pem"));
    }
}
