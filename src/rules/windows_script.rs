//! The cmd and PowerShell script reader the Windows rules share: host parameters, statements, switches.
//!
//! The scripts of `cmd /c` and `powershell -Command` are not POSIX shell, so
//! they are split here into statements with a small tokenizer of their own.
//! cmdlet names and switches are case-insensitive, as on Windows.

use crate::shell::Command;

/// Deepest nesting of hosts followed (`cmd /c powershell -c "..."`).
const MAX_DEPTH: usize = 3;

/// One statement: command name (lowercased, directory and `.exe` removed),
/// its words, and whether it came from inside a host's script.
pub(super) struct Stmt {
    pub name: String,
    pub words: Vec<String>,
    pub nested: bool,
}

fn base_name(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let base = lower.rsplit(['\\', '/']).next().unwrap_or(&lower);
    base.strip_suffix(".exe").unwrap_or(base).to_string()
}

/// The statements of one command line and the host scripts they came from.
#[derive(Default)]
pub(super) struct Parsed {
    pub stmts: Vec<Stmt>,
    /// Host script texts, for the rules that read a pipeline whole.
    pub scripts: Vec<String>,
}

/// The command itself and every statement of the host scripts it carries.
pub(super) fn statements(cmd: &Command) -> Parsed {
    let mut parsed = Parsed::default();
    parsed.expand(cmd.program.clone(), cmd.args.clone(), false, 0);
    parsed
}

impl Parsed {
    fn expand(&mut self, name: String, words: Vec<String>, nested: bool, depth: usize) {
        let script = match name.as_str() {
            "cmd" => cmd_script(&words),
            "powershell" | "pwsh" | "powershell_ise" => powershell_args(&words).1,
            _ => None,
        };
        self.stmts.push(Stmt {
            name,
            words,
            nested,
        });
        let Some(script) = script.filter(|_| depth < MAX_DEPTH) else {
            return;
        };
        for mut inner in split_statements(&script) {
            let rest = inner.split_off(1);
            self.expand(base_name(&inner[0]), rest, true, depth + 1);
        }
        self.scripts.push(script);
    }
}

/// The command line `cmd /c` or `/k` runs.
fn cmd_script(words: &[String]) -> Option<String> {
    for (i, word) in words.iter().enumerate() {
        if matches!(word.to_ascii_lowercase().as_str(), "/c" | "/k" | "/r") {
            return Some(words[i + 1..].join(" "));
        }
        if !word.starts_with('/') {
            return None;
        }
    }
    None
}

/// A powershell parameter name as written (`-Command`, `/enc`, `--ec:x`), lowercased.
fn ps_key(word: &str) -> Option<String> {
    let key = word.strip_prefix('-').or_else(|| word.strip_prefix('/'))?;
    let key = key.trim_start_matches('-');
    Some(key.split(':').next().unwrap_or(key).to_ascii_lowercase())
}

/// Whether a host parameter name (possibly abbreviated) is `full`.
fn abbreviates(key: &str, full: &str, aliases: &[&str], min: usize) -> bool {
    aliases.contains(&key) || (key.len() >= min && full.starts_with(key))
}

/// Reads powershell's own parameters: whether an encoded command is
/// given, and the script text (`-Command ...` or the first non-parameter on).
pub(super) fn powershell_args(words: &[String]) -> (bool, Option<String>) {
    let valued: &[(&str, &[&str])] = &[
        ("executionpolicy", &["ep", "ex", "exec"]),
        ("windowstyle", &["w", "win"]),
        ("version", &["v"]),
        ("inputformat", &["if", "inp"]),
        ("outputformat", &["of", "o", "out"]),
        ("configurationname", &["config"]),
        ("workingdirectory", &["wd", "wo"]),
        ("psconsolefile", &[]),
        ("custompipename", &[]),
        ("settingsfile", &["settings"]),
    ];
    let mut i = 0;
    while i < words.len() {
        let Some(key) = ps_key(&words[i]) else {
            return (false, Some(words[i..].join(" ")));
        };
        // `-e` is documented as EncodedCommand even though other names start with e.
        if key == "e" || key == "ec" || abbreviates(&key, "encodedcommand", &[], 2) {
            return (true, None);
        }
        if key == "c" || abbreviates(&key, "command", &[], 3) {
            return (false, Some(words[i + 1..].join(" ")));
        }
        if key == "f" || abbreviates(&key, "file", &[], 2) || key.is_empty() {
            return (false, None);
        }
        if valued
            .iter()
            .any(|(full, aliases)| abbreviates(&key, full, aliases, 3))
        {
            i += 1;
        }
        i += 1;
    }
    (false, None)
}

/// Splits a cmd or PowerShell script into statements of unquoted words.
fn split_statements(script: &str) -> Vec<Vec<String>> {
    let mut stmts = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut chars = script.chars();
    let end_word = |word: &mut String, quoted: &mut bool, words: &mut Vec<String>| {
        if !word.is_empty() || *quoted {
            words.push(std::mem::take(word));
        }
        *quoted = false;
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                quoted = true;
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    word.push(d);
                }
            }
            ';' | '|' | '&' | '(' | ')' | '{' | '}' | '\n' => {
                end_word(&mut word, &mut quoted, &mut words);
                if !words.is_empty() {
                    stmts.push(std::mem::take(&mut words));
                }
            }
            c if c.is_whitespace() => end_word(&mut word, &mut quoted, &mut words),
            c => word.push(c),
        }
    }
    end_word(&mut word, &mut quoted, &mut words);
    if !words.is_empty() {
        stmts.push(words);
    }
    stmts
}

/// Whether some statement named one of `names` passes `pred`.
pub(super) fn any_stmt(cmd: &Command, names: &[&str], pred: impl Fn(&Stmt) -> bool) -> bool {
    statements(cmd)
        .stmts
        .iter()
        .any(|s| names.contains(&s.name.as_str()) && pred(s))
}

/// A PowerShell switch, abbreviated to at least `min` letters (`-r`, `-Rec`),
/// and not explicitly turned off (`-Force:$false`).
pub(super) fn ps_switch(words: &[String], full: &str, min: usize) -> bool {
    words.iter().any(|w| {
        let off = w.to_ascii_lowercase().ends_with(":$false");
        !off && ps_key(w)
            .is_some_and(|k| w.starts_with('-') && k.len() >= min && full.starts_with(k.as_str()))
    })
}

/// A cmd-style switch (`/S`, `/w:c`, `/s/q`); with `dash`, `-S` too.
pub(super) fn switch(words: &[String], name: &str, dash: bool) -> bool {
    words.iter().any(|w| {
        let slash = w.strip_prefix('/');
        let Some(body) = slash.or_else(|| w.strip_prefix('-').filter(|_| dash)) else {
            return false;
        };
        let pieces: Vec<&str> = body.split('/').collect();
        if pieces.len() > 1 && pieces.iter().any(|p| p.len() > 2) {
            return false;
        }
        pieces.iter().any(|p| {
            p.split(':')
                .next()
                .is_some_and(|k| k.eq_ignore_ascii_case(name))
        })
    })
}

pub(super) fn first_word_is(words: &[String], verb: &str) -> bool {
    words
        .iter()
        .find(|w| !w.starts_with('\\'))
        .is_some_and(|w| w.eq_ignore_ascii_case(verb))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command from comma-separated words, program first: arguments
    /// here hold spaces.
    fn c(words: &str) -> Command {
        let words: Vec<&str> = words.split(',').collect();
        Command::new(words[0], &words[1..])
    }

    #[test]
    fn host_scripts_become_statements() {
        let c1 = c(
            "powershell,-NoP,-ExecutionPolicy,Bypass,-Command,Get-Process x | Stop-Process -Force",
        );
        let names: Vec<String> = statements(&c1).stmts.into_iter().map(|s| s.name).collect();
        assert_eq!(names, vec!["powershell", "get-process", "stop-process"]);
        let nested = statements(&c("cmd,/c,powershell,-c,\"Remove-Item -Recurse x\""));
        assert!(nested
            .stmts
            .iter()
            .any(|s| s.name == "remove-item" && s.nested));
    }

    #[test]
    fn switches() {
        let w = |v: &str| v.split(',').map(String::from).collect::<Vec<_>>();
        assert!(switch(&w("/S/Q,x"), "q", false) && switch(&w("/w:C:"), "w", false));
        assert!(!switch(&w("/tmp/q"), "q", false));
        assert!(
            ps_switch(&w("-Rec"), "recurse", 1) && !ps_switch(&w("-Recurse:$false"), "recurse", 1)
        );
        assert!(!ps_switch(&w("-f"), "force", 2));
    }
}
