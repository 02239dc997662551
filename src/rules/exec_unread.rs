//! Built-in rules: code given inline to an interpreter of a language warden does not read (Lisp, Elixir, Erlang, Groovy, Scala, Kotlin, AppleScript, .NET script, Haskell, Clojure, …).
//!
//! The programs and the ways they take code are rows of the code-sink table
//! (`src/shell/sinks.rs`, language "unread"); such code can do anything its
//! language can, so it is asked about unless it is shown to be plain: made
//! only of printing, version and arithmetic words, with no command quoting
//! of its own.

use super::{Matcher, Rule};
use crate::shell::sinks::Lang;
use crate::shell::{Analysis, Finding};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[Rule {
    id: "exec.unread-language-code",
    category: "code given to an interpreter of a language warden does not read",
    reason: "the code may run programs, change files anywhere or reach the network, and the guard cannot read it to tell",
    decision: Decision::Ask,
    matcher: Matcher::Analysis(unread_code),
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
        "racket -e '(system \"id\")'",
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
        "expect -c 'spawn ssh host; expect \"$ \"'",
    ],
}];

/// Code a row of the code-sink table (`src/shell/sinks.rs`) found in a
/// language warden does not read, and could not show to be plain.
fn unread_code(analysis: &Analysis) -> Option<String> {
    analysis.findings.iter().find_map(|f| match f {
        Finding::CodeSink {
            program,
            lang,
            code,
        } if *lang == Lang::Unread.name() => Some(format!("{program}: {code}")),
        _ => None,
    })
}
