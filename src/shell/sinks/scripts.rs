//! The little languages of ordinary programs, read for the commands they run and the files they write: sed's `e` and `w`, awk's `system()`, pipes and `print >`, m4's `syscmd`, TeX's `\write18`, make's `$(shell)` and `$(file)`, DOS's `MOUNT`.

use super::Lang;
use crate::shell::command::Command;
use crate::shell::eval::Eval;
use crate::shell::make::make_recipes;

impl Eval<'_> {
    /// DOS commands run in an emulator: they reach the host only through
    /// the directories `MOUNT` (or `IMGMOUNT`) maps to a drive, so a
    /// mapping of a directory outside the project asks.
    pub(super) fn dos(&mut self, code: &str, program: &str) {
        for line in code.split(['\n', '&']) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((verb, rest)) = words.split_first() else {
                continue;
            };
            if !verb.eq_ignore_ascii_case("mount") && !verb.eq_ignore_ascii_case("imgmount") {
                continue;
            }
            // `MOUNT C DIR`; `MOUNT` alone lists, `MOUNT -u C` unmounts.
            let path = rest.iter().skip(1).find(|w| !w.starts_with('-'));
            if path.is_some_and(|p| super::outside_project(p.trim_matches(['"', '\'']))) {
                self.sink_asks(program, Lang::Dos, line.trim());
            }
        }
    }

    /// A sed script: its `e` commands and `s///e` replacements run as
    /// shell text; its `w FILE` commands and flags write files.
    pub(super) fn sed(&mut self, code: &str, cmd: &Command) {
        for text in sed_commands(code) {
            self.reanalyze(&text, "sed e", None);
        }
        for path in sed_writes(code) {
            self.write_by(cmd, "sed w", path, false);
        }
    }

    /// An awk program: the commands it runs, a command it computes (which
    /// asks), a socket fed to commands (a remote shell), the files it writes.
    pub(super) fn awk(&mut self, code: &str, cmd: &Command) {
        let (commands, computed) = awk_commands(code);
        for text in &commands {
            self.reanalyze(text, "awk system", None);
        }
        self.awk_shell(&commands);
        if computed {
            self.sink_asks(&cmd.program, Lang::Awk, code);
        }
        // gawk's `/inet/tcp/...` special files are sockets; read with `|&
        // getline` and fed to commands, a remote shell.
        if code.contains("/inet") && code.contains("|&") && code.contains("getline") {
            self.reverse_shell(cmd);
        }
        for (path, append) in awk_writes(code) {
            if !path.starts_with("/inet") && !path.starts_with("/dev/std") {
                self.write_by(cmd, "awk print >", path, append);
            }
        }
    }

    /// m4's `syscmd(CMD)` and `esyscmd(CMD)`.
    pub(super) fn m4(&mut self, code: &str) {
        let mut rest = code;
        while let Some(at) = rest.find("syscmd") {
            let after = rest[at + "syscmd".len()..].trim_start();
            rest = &rest[at + "syscmd".len()..];
            if let Some(args) = after.strip_prefix('(') {
                let text = &args[..args.find(')').unwrap_or(args.len())];
                self.reanalyze(text, "m4 syscmd", None);
            }
        }
    }

    /// TeX given as an argument (`latex '\documentclass...'`): what
    /// `\write18{...}` runs is shell text; a file it opens for writing, or
    /// a command it reads from (`\input|"CMD"`), asks.
    pub(super) fn tex(&mut self, code: &str, program: &str) {
        if !code.trim_start().starts_with('\\') {
            return;
        }
        for (at, name) in code.match_indices("\\write18") {
            let after = code[at + name.len()..].trim_start();
            if let Some(group) = after.strip_prefix('{').and_then(balanced) {
                self.reanalyze(group, "TeX write18", None);
            }
        }
        if ["\\openout", "\\input|", "\\input{|", "\\input \"|"]
            .iter()
            .any(|w| code.contains(w))
        {
            self.sink_asks(program, Lang::Tex, code);
        }
    }

    /// Makefile text given on the command line (`make --eval=TEXT`): its
    /// recipes, `$(shell CMD)` calls, and the files `$(file >F,TEXT)` writes.
    pub(super) fn make_text(&mut self, code: &str, cmd: &Command) {
        for recipe in make_recipes(code) {
            self.reanalyze(&recipe, "make --eval", None);
        }
        for open in ["$(", "${"] {
            for (at, _) in code.match_indices(open) {
                let Some(inner) = balanced(&code[at + 2..]) else {
                    continue;
                };
                if let Some(text) = inner.strip_prefix("shell ") {
                    self.reanalyze(text, "make $(shell)", None);
                } else if let Some(spec) = inner.strip_prefix("file ") {
                    let spec = spec.trim_start();
                    let (append, path) = match spec.strip_prefix(">>") {
                        Some(p) => (true, p),
                        None => (false, spec.strip_prefix('>').unwrap_or("")),
                    };
                    let path = path.split(',').next().unwrap_or("").trim();
                    if !path.is_empty() {
                        self.write_by(cmd, "make $(file)", path.to_string(), append);
                    }
                }
            }
        }
    }
}

/// The text up to the bracket that closes one opened just before `text`
/// (`(`, `{`), counting nested ones; `None` when it is never closed.
fn balanced(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' if depth == 0 => return Some(&text[..at]),
            ')' | '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// sed's `e COMMAND` commands (after an optional address) and the text of a
/// substitution with the `e` flag, which runs the pattern space as a command.
fn sed_commands(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in script.split(['\n', ';']) {
        let part = part.trim_start();
        // Skip an address: line numbers, `$`, `/regex/`, ranges.
        let rest = part
            .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '$' | ',' | '!' | ' '));
        if let Some(command) = rest.strip_prefix('e') {
            let command = command.trim();
            if !command.is_empty() {
                out.push(command.to_string());
            }
        } else if let Some(body) = rest.strip_prefix('s') {
            // `s/PAT/REPL/FLAGS` with any delimiter: the replacement runs
            // when the flags hold `e`.
            let mut chars = body.chars();
            let Some(delim) = chars.next().filter(|c| !c.is_alphanumeric() && *c != '\\') else {
                continue;
            };
            let fields: Vec<&str> = body[delim.len_utf8()..].splitn(3, delim).collect();
            if let [_, repl, flags] = fields.as_slice() {
                if flags.contains('e') {
                    out.push(repl.to_string());
                }
            }
        }
    }
    out
}

/// The double-quoted strings of awk code, as (start of the opening quote,
/// end after the closing one, text with escapes undone).
fn awk_strings(code: &str) -> Vec<(usize, usize, String)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < bytes.len() && bytes[j] != b'"' {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        let end = j.min(bytes.len());
        out.push((i, (end + 1).min(bytes.len()), unescape(&code[i + 1..end])));
        i = end + 1;
    }
    out
}

/// The commands awk code runs: `system("CMD")`, `print | "CMD"` and
/// `"CMD" | getline`. Scanned by hand: regexes for them cost more to
/// compile than the whole analysis of a line.
fn awk_commands(code: &str) -> (Vec<String>, bool) {
    let strings = awk_strings(code);
    let mut out = Vec::new();
    for &(start, end, ref text) in &strings {
        let before = code[..start].trim_end();
        let after = code[end..].trim_start();
        let system = before
            .strip_suffix('(')
            .is_some_and(|b| b.trim_end().ends_with("system"));
        let piped_to = before.ends_with('|') && !before.ends_with("||");
        let piped_from = after
            .strip_prefix('|')
            .is_some_and(|a| a.trim_start().starts_with("getline"));
        if system || piped_to || piped_from {
            out.push(text.clone());
        }
        // `print "CMD" | "sh"`: what the statement prints is shell text.
        if piped_to && super::is_shell_text(text) {
            let statement = before[..before.len() - 1]
                .rfind([';', '{', '\n'])
                .map_or(0, |at| at + 1);
            out.extend(
                strings
                    .iter()
                    .filter(|(s, e, _)| *s >= statement && *e < start)
                    .map(|(_, _, t)| t.clone()),
            );
        }
    }
    (out, computes_code(code))
}

/// Whether awk code hands a computed string to a shell: `system(x)` with
/// no literal command, or printing into a shell (`print | "sh"`), whose
/// lines are then the program's input, not text warden can see.
fn computes_code(code: &str) -> bool {
    let system = code.match_indices("system(").any(|(at, name)| {
        !code[at + name.len()..].trim_start().starts_with('"')
            || code[at + name.len()..].contains("\" $")
    });
    let into_shell = awk_strings(code).iter().any(|(start, _, text)| {
        let before = code[..*start].trim_end();
        before.ends_with('|') && !before.ends_with("||") && super::is_shell_text(text)
    });
    system || into_shell
}

/// awk's output redirections to a named file, `print x > "FILE"` and
/// `>> "FILE"`, with whether they append. Scanned by hand: a regex for it
/// costs more to compile than the whole analysis of a line.
fn awk_writes(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while let Some(found) = code[at..].find('>') {
        let start = at + found;
        let append = bytes.get(start + 1) == Some(&b'>');
        let after = start + 1 + usize::from(append);
        at = after;
        // Only in a print statement: `a > "b"` elsewhere is a comparison.
        let statement = code[..start]
            .rsplit([';', '{', '}', '\n'])
            .next()
            .unwrap_or("");
        if !statement.trim_start().starts_with("print") {
            continue;
        }
        let rest = code[after..].trim_start();
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            out.push((unescape(&quoted[..end]), append));
        }
    }
    out
}

/// The files sed's `w FILE` commands and `s///w FILE` flags write.
fn sed_writes(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in script.split(['\n', ';']) {
        let mut part = part.trim_start();
        // A `/regex/` address.
        if let Some(after) = part.strip_prefix('/') {
            part = after.split_once('/').map_or("", |(_, rest)| rest);
        }
        let rest = part
            .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '$' | ',' | '!' | ' '));
        if let Some(file) = rest.strip_prefix('w').filter(|f| f.starts_with(' ')) {
            out.push(file.trim().to_string());
        } else if let Some(body) = rest.strip_prefix('s') {
            let mut chars = body.chars();
            let Some(delim) = chars.next().filter(|c| !c.is_alphanumeric() && *c != '\\') else {
                continue;
            };
            let fields: Vec<&str> = body[delim.len_utf8()..].splitn(3, delim).collect();
            if let [_, _, flags] = fields.as_slice() {
                if let Some((_, file)) = flags.split_once('w') {
                    if !file.trim().is_empty() {
                        out.push(file.trim().to_string());
                    }
                }
            }
        }
    }
    out
}

/// The text of a double-quoted string in awk or elisp, escapes undone.
pub(in crate::shell) fn unescape(text: &str) -> String {
    text.replace("\\\"", "\"").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_and_languages() {
        assert_eq!(balanced("shell id) x"), Some("shell id"));
        assert_eq!(balanced("a{b}c} x"), Some("a{b}c"));
        assert_eq!(balanced("open"), None);
    }

    #[test]
    fn sed_e_commands_and_flags() {
        assert_eq!(sed_commands("1e rm -rf ~"), ["rm -rf ~"]);
        assert_eq!(sed_commands("s|a|touch x|e"), ["touch x"]);
        assert_eq!(sed_commands("$e echo hi; s/a/b/g"), ["echo hi"]);
        assert!(sed_commands("s/a/b/g").is_empty());
        assert!(sed_commands("/start/,/end/p").is_empty());
        assert_eq!(sed_writes("1s/.*/key/w /tmp/k"), ["/tmp/k"]);
        assert_eq!(
            awk_commands(
                r#"BEGIN { system("rm -rf ~"); print "x" | "sh"; "date" | getline d; print "a" || "b" }"#
            ),
            (
                vec![
                    "rm -rf ~".to_string(),
                    "sh".into(),
                    "x".into(),
                    "date".into()
                ],
                true
            )
        );
        assert_eq!(
            awk_commands(r#"{ system("make " $1) }"#),
            (vec!["make ".to_string()], true)
        );
        assert_eq!(
            awk_commands(r#"{ print $1 | "sort -u" }"#),
            (vec!["sort -u".to_string()], false)
        );
        assert_eq!(
            awk_writes(r#"BEGIN { print "k" > "/tmp/a"; printf "x" >> "b" } $1 > "m" { print }"#),
            [("/tmp/a".to_string(), false), ("b".to_string(), true)]
        );
        assert_eq!(sed_writes("/x/w out.txt"), ["out.txt"]);
        assert!(sed_writes("s/a/b/g").is_empty());
    }
}
