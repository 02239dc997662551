//! Built-in rules: code given inline to an interpreter of a language warden does not read (Lisp, Elixir, Erlang, Groovy, Scala, Kotlin, AppleScript, .NET script, Haskell, Clojure, …).
//!
//! Such code can do anything its language can, so it is asked about unless
//! it is shown to be plain: made only of printing, version and arithmetic
//! words, with no command quoting of its own.

use super::{Matcher, Rule};
use crate::shell::Command;
use crate::verdict::Decision;

/// How a program takes code: after a subcommand (`mix run`, `dotnet
/// script`) if any, as the value of one of `options` (`--eval X`,
/// `--eval=X`, nim's `--eval:X`), as the word after `word` (`crystal eval
/// X`), or on stdin when `stdin` and nothing else names the code.
struct Sink {
    program: &'static str,
    sub: Option<&'static str>,
    options: &'static [&'static str],
    word: Option<&'static str>,
    stdin: bool,
}

const fn opts(program: &'static str, options: &'static [&'static str], stdin: bool) -> Sink {
    Sink {
        program,
        sub: None,
        options,
        word: None,
        stdin,
    }
}

#[rustfmt::skip]
const SINKS: &[Sink] = &[
    opts("sbcl", &["--eval"], true),
    opts("clisp", &["-x"], true),
    opts("ecl", &["-eval", "--eval"], true),
    opts("ccl", &["--eval", "-e"], true),
    opts("ccl64", &["--eval", "-e"], true),
    opts("elixir", &["-e", "--eval"], false),
    opts("iex", &["-e", "--eval"], true),
    Sink { program: "mix", sub: Some("run"), options: &["-e", "--eval"], word: None, stdin: false },
    opts("erl", &["-eval"], true),
    Sink { program: "dotnet", sub: Some("script"), options: &[], word: Some("eval"), stdin: true },
    Sink { program: "dotnet", sub: Some("fsi"), options: &[], word: None, stdin: true },
    opts("dotnet-script", &[], true),
    opts("groovy", &["-e"], false),
    opts("groovysh", &[], true),
    opts("scala", &["-e"], true),
    opts("scala-cli", &["-e", "--execute-scala", "--execute-script"], false),
    opts("kotlin", &["-e", "-expression"], false),
    opts("kotlinc", &["-e", "-expression"], false),
    opts("kotlinc-jvm", &["-e", "-expression"], false),
    opts("osascript", &["-e"], true),
    opts("swift", &["-e"], false),
    opts("ghc", &["-e"], false),
    opts("ghci", &[], true),
    opts("guile", &["-c"], true),
    opts("racket", &["-e", "--eval"], false),
    opts("gosh", &["-e"], false),
    opts("csi", &["-e", "-eval", "-p"], false),
    opts("clojure", &["-e", "--eval"], false),
    opts("clj", &["-e", "--eval"], false),
    opts("bb", &["-e", "--eval"], false),
    opts("raku", &["-e"], false),
    opts("perl6", &["-e"], false),
    opts("rakudo", &["-e"], false),
    Sink { program: "crystal", sub: None, options: &[], word: Some("eval"), stdin: false },
    Sink { program: "nim", sub: Some("e"), options: &["--eval"], word: None, stdin: false },
    opts("janet", &["-e"], false),
    opts("fennel", &["-e", "--eval"], false),
    opts("gforth", &["-e"], false),
    opts("octave", &["--eval"], false),
    opts("pike", &["-e"], false),
    opts("qjs", &["-e", "--eval"], false),
    opts("rhino", &["-e"], false),
    opts("jrunscript", &["-e"], true),
    opts("jjs", &[], true),
    opts("hy", &["-c"], false),
    opts("gst", &["-e"], false),
];

pub static RULES: &[Rule] = &[Rule {
    id: "exec.unread-language-code",
    category: "code given to an interpreter of a language warden does not read",
    reason: "the code may run programs, change files anywhere or reach the network, and the guard cannot read it to tell",
    decision: Decision::Ask,
    matcher: Matcher::Check {
        programs: &[
            "sbcl", "clisp", "ecl", "ccl", "ccl64", "elixir", "iex", "mix", "erl", "dotnet",
            "dotnet-script", "groovy", "groovysh", "scala", "scala-cli", "kotlin", "kotlinc",
            "kotlinc-jvm", "osascript", "swift", "ghc", "ghci", "guile", "racket", "gosh", "csi",
            "clojure", "clj", "bb", "raku", "perl6", "rakudo", "crystal", "nim", "janet", "fennel",
            "gforth", "octave", "pike", "qjs", "rhino", "hy", "gst", "jrunscript", "jjs",
        ],
        check: runs_unread_code,
    },
    hits: &[
        "sbcl --non-interactive --eval '(uiop:run-program \"reboot\")'",
        "clisp -x '(ext:shell \"id\")'",
        "elixir -e 'File.rm_rf!(\"/etc\")'",
        "erl -noshell -eval 'file:del_dir_r(\"/var/lib\"), init:stop().'",
        "dotnet script eval 'System.Diagnostics.Process.Start(\"sh\");'",
        "echo 'System.IO.Directory.Delete(\"/etc\", true);;' | dotnet fsi",
        "groovy -e 'new File(\"/etc\").deleteDir()'",
        "kotlin -e 'java.io.File(\"/etc\").deleteRecursively()'",
        "osascript -e 'do shell script \"id\"'",
        "osascript -l JavaScript -e 'app.doShellScript(\"id\")'",
        "swift -e 'import Foundation; try? FileManager.default.removeItem(atPath: NSHomeDirectory())'",
        "nim e --eval:'import os; removeDir(getHomeDir())'",
        "clojure -e '(clojure.java.shell/sh \"id\")'",
        "mix run -e 'System.cmd(\"id\", [])'",
        "crystal eval 'Process.run(\"id\")'",
    ],
    misses: &[
        "sbcl --eval '(print (+ 1 2))' --quit",
        "elixir -e 'IO.puts(System.version())'",
        "erl -noshell -eval 'io:format(\"~s~n\", [erlang:system_info(otp_release)]), halt().'",
        "osascript -e 'display notification \"done\" with title \"Build\"'",
        "osascript -e 'tell application \"Safari\" to quit'",
        "groovy -e 'println GroovySystem.version'",
        "elixir script.exs",
        "dotnet run",
        "mix test",
        "sbcl --script build.lisp",
    ],
}];

/// Words plain code is made of: printing, versions, arithmetic, the
/// interpreters' ways to stop, and AppleScript's everyday vocabulary. One
/// text, not a table of words: each word of a static table costs the
/// loader a relocation on every start.
const PLAIN: &str =
    "print println printf printfn puts put display displayln say echo write writeln write-line \
    format pr prn IO io inspect Console WriteLine console log cat paste message version \
    VERSION Version versions System erlang system_info otp_release \
    lisp-implementation-version lisp-implementation-type software-version machine-type \
    GroovySystem KotlinVersion CURRENT Environment RuntimeInformation FrameworkDescription \
    Properties getProperty property scala util versionString versionNumberString R string \
    halt quit exit stop init main end do fn def let var val for in if then else return true \
    false nil null sqrt sin cos tan pi exp log abs max min sum range Enum map reduce length \
    size count x y n i it s t Math math lists seq ARGS args argv tell application app to get \
    set name of front window id activate notification dialog with title subtitle volume \
    settings output input alert buttons default answer beep the path frontmost current date \
    time clipboard a an Application currentApplication includeStandardAdditions \
    displayNotification displayDialog withTitle ObjC Hello world";

/// Whether `word` is one of [`PLAIN`]'s.
fn is_plain_word(word: &str) -> bool {
    PLAIN.split(' ').any(|w| w == word)
}

fn runs_unread_code(cmd: &Command) -> bool {
    code_of(cmd).is_some_and(|code| !plain(&code))
}

/// The code `cmd` hands its interpreter, if any.
fn code_of(cmd: &Command) -> Option<String> {
    let args = &cmd.args;
    let sink = SINKS.iter().find(|s| {
        s.program == cmd.program
            && s.sub
                .is_none_or(|sub| args.first().is_some_and(|a| a == sub))
    })?;
    let args = &args[usize::from(sink.sub.is_some())..];
    let mut code: Vec<&str> = Vec::new();
    let mut named_file = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if sink.word.is_some_and(|w| w == arg) {
            code.extend(iter.next().map(String::as_str));
            continue;
        }
        let attached = sink.options.iter().find_map(|o| {
            arg.strip_prefix(o)
                .and_then(|rest| rest.strip_prefix(['=', ':']))
        });
        if let Some(value) = attached {
            code.push(value);
        } else if sink.options.contains(&arg.as_str()) {
            code.extend(iter.next().map(String::as_str));
        } else if !arg.starts_with('-') && !matches!(arg.as_str(), "/dev/stdin" | "/dev/fd/0") {
            named_file = true;
        }
    }
    if !code.is_empty() {
        return Some(code.join("\n"));
    }
    (sink.stdin && !named_file)
        .then(|| cmd.stdin.clone())
        .flatten()
}

/// Whether code holds nothing but [`PLAIN`] words, numbers, operators and
/// quoted text (a quoted word is data unless an unplain word uses it).
fn plain(code: &str) -> bool {
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in code.chars().chain(std::iter::once(' ')) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '-' && !word.is_empty() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            let w = word.trim_end_matches('-');
            let number = w.chars().next().is_some_and(|f| f.is_ascii_digit());
            if !number && !is_plain_word(w) {
                return false;
            }
            word.clear();
        }
        match c {
            '"' | '\'' => quote = Some(c),
            // A backtick runs a command in several of these languages, `$`
            // interpolates, `!` and `|` hand text to a shell in others.
            '`' | '$' | '!' | '|' | '\\' => return false,
            _ => {}
        }
    }
    quote.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_code() {
        assert!(plain("(print (+ 1 2))"));
        assert!(plain("IO.puts(System.version())"));
        assert!(plain(
            "io:format(\"~s~n\", [erlang:system_info(otp_release)]), halt()."
        ));
        assert!(plain("say \"rm -rf ~\""));
        assert!(!plain("System.cmd(\"rm\", [])"));
        assert!(!plain("do shell script \"id\""));
        assert!(!plain("run(`id`)"));
        assert!(!plain("print \"unterminated"));
    }

    #[test]
    fn code_from_options_words_and_stdin() {
        let code = |p: &str, a: &[&str]| code_of(&Command::new(p, a));
        assert_eq!(code("nim", &["e", "--eval:x"]).as_deref(), Some("x"));
        assert_eq!(
            code("sbcl", &["--eval", "x", "--quit"]).as_deref(),
            Some("x")
        );
        assert_eq!(code("crystal", &["eval", "x"]).as_deref(), Some("x"));
        assert_eq!(
            code("dotnet", &["script", "eval", "x"]).as_deref(),
            Some("x")
        );
        assert_eq!(code("dotnet", &["run"]), None);
        assert_eq!(code("elixir", &["x.exs"]), None);
        let mut script = Command::new("sbcl", &["--script", "/dev/stdin"]);
        script.stdin = Some("x".into());
        assert_eq!(code_of(&script).as_deref(), Some("x"));
        let mut piped = Command::new("dotnet", &["fsi"]);
        piped.stdin = Some("x".into());
        assert_eq!(code_of(&piped).as_deref(), Some("x"));
    }
}
