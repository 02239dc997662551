//! Commands hidden in ordinary programs' options and scripts: ssh's `ProxyCommand`, `sshfs -o ssh_command`, `rsync -e`, tar's checkpoint actions and filters, `at`/`batch` jobs, awk's `system()` and pipes, sed's `e`, m4's `syscmd`, ed's `!`, sftp's `!`.
//!
//! Each of these hands a string to a shell (or runs a program named by it),
//! so the string is analysed as a command line, as `bash -c` would be.

use once_cell::sync::Lazy;
use regex::Regex;

use super::command::Command;
use super::eval::Eval;

/// ssh options (`-o Name=value` or `-oName value`) whose value a shell runs.
const SSH_COMMAND_OPTIONS: &[&str] = &["proxycommand", "localcommand", "knownhostscommand"];

static M4_SYSCMD: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"e?syscmd\s*\(([^)]*)\)").expect("m4 syscmd regex is valid"));

impl Eval<'_> {
    /// Analyses the command lines hidden in `cmd`'s options or script.
    pub(super) fn embedded(&mut self, cmd: &Command) {
        let args = &cmd.args;
        match cmd.program.as_str() {
            "ssh" | "scp" | "sftp" | "sshfs" => {
                for value in ssh_options(args) {
                    let (name, text) = value.split_once(['=', ' ']).unwrap_or((&value, ""));
                    let name = name.trim().to_ascii_lowercase();
                    if SSH_COMMAND_OPTIONS.contains(&name.as_str()) || name == "ssh_command" {
                        self.reanalyze(text.trim(), "ssh -o command", None);
                    }
                    // `RemoteCommand` is the line the other machine runs, as
                    // the words after the host are.
                    if name == "remotecommand" && cmd.program == "ssh" {
                        self.reanalyze(text.trim(), "ssh", cmd.stdin.clone());
                    }
                }
                // sftp runs `!CMD` lines of its batch input locally.
                if cmd.program == "sftp" {
                    let escapes: Vec<String> = cmd
                        .stdin
                        .iter()
                        .flat_map(|s| s.lines())
                        .filter_map(|l| l.trim_start().strip_prefix('!'))
                        .map(str::to_string)
                        .collect();
                    for text in escapes {
                        self.reanalyze(&text, "sftp !", None);
                    }
                }
            }
            // GNU tar reads the options in TAR_OPTIONS before its own.
            "tar" | "gtar" | "bsdtar" => {
                let mut all: Vec<String> = cmd
                    .env
                    .iter()
                    .filter(|(name, _)| name == "TAR_OPTIONS")
                    .flat_map(|(_, value)| value.split_whitespace().map(str::to_string))
                    .collect();
                all.extend(args.iter().cloned());
                self.tar(&all)
            }
            // An at or batch job is a shell script read from stdin.
            "at" | "batch" => {
                if let Some(script) = cmd.stdin.clone() {
                    self.reanalyze(&script, "at job", None);
                }
            }
            "awk" | "gawk" | "mawk" | "nawk" => {
                for code in script_texts(cmd, &["-f", "-v", "-F", "--file", "--assign"]) {
                    let (commands, computed) = awk_commands(&code);
                    for text in &commands {
                        self.reanalyze(text, "awk system", None);
                    }
                    self.awk_shell(&commands);
                    if computed {
                        self.judge_code(super::sinks::Lang::Unread, &code, &cmd.program, None);
                    }
                    // gawk's `/inet/tcp/...` special files are sockets; read
                    // with `|& getline` and fed to commands, a remote shell.
                    if code.contains("/inet") && code.contains("|&") && code.contains("getline") {
                        self.reverse_shell(cmd);
                    }
                    let writes: Vec<(String, bool)> = awk_writes(&code)
                        .into_iter()
                        .filter(|(path, _)| {
                            !path.starts_with("/inet") && !path.starts_with("/dev/std")
                        })
                        .collect();
                    for (path, append) in writes {
                        self.write_by(cmd, "awk print >", path, append);
                    }
                }
            }
            "sed" | "gsed" => {
                for code in script_texts(cmd, &["-f", "-l", "--file", "--line-length"]) {
                    for text in sed_commands(&code) {
                        self.reanalyze(&text, "sed e", None);
                    }
                    for path in sed_writes(&code) {
                        self.write_by(cmd, "sed w", path, false);
                    }
                }
            }
            "m4" => {
                let texts = cmd.stdin.iter().cloned().chain(args.iter().cloned());
                let found: Vec<String> = texts
                    .flat_map(|t| {
                        M4_SYSCMD
                            .captures_iter(&t)
                            .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                for text in found {
                    self.reanalyze(&text, "m4 syscmd", None);
                }
            }
            // ed and ex run `!CMD` lines read from stdin.
            "ed" | "red" => {
                let lines: Vec<String> = cmd
                    .stdin
                    .iter()
                    .flat_map(|s| s.lines().map(str::to_string).collect::<Vec<_>>())
                    .filter_map(|l| l.trim_start().strip_prefix('!').map(str::to_string))
                    .collect();
                for text in lines {
                    self.reanalyze(&text, "ed !", None);
                }
            }
            _ => {}
        }
    }

    /// tar's `--checkpoint-action=exec=CMD` (the program-valued options
    /// are rows of the code-sink table).
    fn tar(&mut self, args: &[String]) {
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let text = if let Some(action) = arg.strip_prefix("--checkpoint-action=") {
                action.strip_prefix("exec=").map(str::to_string)
            } else if arg == "--checkpoint-action" {
                iter.next()
                    .and_then(|v| v.strip_prefix("exec="))
                    .map(str::to_string)
            } else {
                None
            };
            if let Some(text) = text {
                self.reanalyze(&text, "tar command option", None);
            }
        }
    }
}

/// The values of ssh's `-o` options (`-o X=y`, `-oX=y`).
fn ssh_options(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-o" {
            out.extend(iter.next().cloned());
        } else if let Some(v) = arg.strip_prefix("-o").filter(|v| !v.is_empty()) {
            out.push(v.to_string());
        } else if arg.starts_with('-')
            && !arg.starts_with("--")
            && arg.ends_with('o')
            && arg.len() > 2
        {
            // A short cluster ending in `o` takes the next word (`-Co X=y`).
            out.extend(iter.next().cloned());
        }
    }
    out
}

/// The script of a sed or awk command: the `-e` values, or else the first
/// operand (options in `valued` take a value that is not script).
fn script_texts(cmd: &Command, valued: &[&str]) -> Vec<String> {
    let mut scripts = Vec::new();
    let mut first_operand = None;
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-e" || arg == "--expression" || arg == "--source" {
            scripts.extend(iter.next().cloned());
        } else if let Some(v) = arg.strip_prefix("--expression=") {
            scripts.push(v.to_string());
        } else if valued.contains(&arg.as_str()) {
            iter.next();
        } else if !(arg.starts_with('-') && arg.len() > 1) && first_operand.is_none() {
            first_operand = Some(arg.clone());
        }
    }
    if scripts.is_empty() {
        scripts.extend(first_operand);
    }
    scripts
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
        if piped_to && super::sinks::is_shell_text(text) {
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
        before.ends_with('|') && !before.ends_with("||") && super::sinks::is_shell_text(text)
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
pub(super) fn unescape(text: &str) -> String {
    text.replace("\\\"", "\"").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn ssh_option_values() {
        let args: Vec<String> = [
            "-o",
            "ProxyCommand=nc %h",
            "-oUser=x",
            "-Co",
            "LocalCommand=ls",
            "host",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            ssh_options(&args),
            ["ProxyCommand=nc %h", "User=x", "LocalCommand=ls"]
        );
    }
}
