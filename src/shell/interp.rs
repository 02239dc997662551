//! Inline interpreter code (`python -c`, `node -e`, `perl -e`, heredocs into `python3 -`): the shell commands and tree deletions it would perform.

use once_cell::sync::Lazy;
use regex::Regex;

use super::command::Command;

/// What the code would do that the shell rules can judge.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Shell command lines handed to `os.system`, `subprocess`, `execSync`, backticks...
    pub shell: Vec<String>,
    /// Paths deleted recursively (`shutil.rmtree`, `FileUtils.rm_rf`, `fs.rmSync`...).
    pub deletes: Vec<String>,
}

/// The interpreter family of a program name, if it is one.
pub fn language(program: &str) -> Option<&'static str> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "python" | "pypy" => Some("python"),
        "perl" => Some("perl"),
        "ruby" => Some("ruby"),
        "node" | "nodejs" | "deno" | "bun" => Some("node"),
        "php" => Some("php"),
        "lua" | "luajit" => Some("lua"),
        "rscript" => Some("r"),
        _ => None,
    }
}

/// The code an interpreter command runs inline: its `-c`/`-e`/`-r` argument,
/// or its stdin when it reads the program from stdin.
pub fn inline_code(cmd: &Command) -> Option<String> {
    let flags: &[&str] = match language(&cmd.program)? {
        "python" => &["-c"],
        "perl" => &["-e", "-E"],
        "ruby" | "lua" | "r" => &["-e"],
        "node" => &["-e", "--eval", "-p", "--print", "eval"],
        "php" => &["-r"],
        _ => &[],
    };
    let mut code = Vec::new();
    let mut iter = cmd.args.iter();
    let mut has_script = false;
    while let Some(arg) = iter.next() {
        let flag_at_end = flags.iter().any(|f| {
            arg == f
                || (f.len() == 2
                    && arg.starts_with('-')
                    && !arg.starts_with("--")
                    && arg.ends_with(&f[1..]))
        });
        if flag_at_end {
            if let Some(c) = iter.next() {
                code.push(c.clone());
            }
            // Python stops option parsing at -c; what follows is argv.
            if cmd.program.starts_with("py") {
                break;
            }
        } else if let Some(c) = arg.strip_prefix("--eval=") {
            code.push(c.to_string());
        } else if !arg.starts_with('-') {
            has_script = true;
            break;
        } else if arg == "-" {
            break;
        }
    }
    if code.is_empty() && !has_script {
        return cmd.stdin.clone();
    }
    (!code.is_empty()).then(|| code.join("\n"))
}

const STRING: &str = r#"(?:[rbuf]{0,2}"((?:[^"\\]|\\.)*)"|[rbuf]{0,2}'((?:[^'\\]|\\.)*)')"#;

static SHELL_CALL: Lazy<Regex> = Lazy::new(|| {
    Regex::new(&format!(
        r"(?:\bsystem|\bpopen|\bgetoutput|\bgetstatusoutput|\bcheck_output|\bcheck_call|\brun|\bcall|\bPopen|\bexecSync|\bexec|\bshell_exec|\bpassthru|\bproc_open|\bexecute|%x)\s*[\(\{{]?\s*{STRING}"
    ))
    .expect("shell call regex is valid")
});

static LIST_CALL: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?:\brun|\bcall|\bPopen|\bcheck_output|\bcheck_call|\bspawnSync|\bspawn|\bexecFileSync|\bexecFile|\bexecv[pe]*|\bsystem)\s*\(\s*(?:(['\x22])([^'\x22]*)['\x22]\s*,\s*)?\[([^\]]*)\]")
        .expect("list call regex is valid")
});

static BACKTICK: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"`([^`]+)`").expect("backtick regex is valid"));

static DELETE_CALL: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?:\brmtree|\brm_rf|\brm_r|\bremove_dir|\bremove_tree|\brmSync|\brmdirSync|\brimraf(?:\.sync)?|\bremovedirs|\bremove_dir_all|\bunlinkSync)\s*\(\s*([^,)]*\)?)")
        .expect("delete call regex is valid")
});

static LITERAL: Lazy<Regex> = Lazy::new(|| Regex::new(STRING).expect("literal regex is valid"));

/// Scans interpreter code for shell commands and recursive deletions.
pub fn scan(code: &str) -> Found {
    let mut found = Found::default();
    for caps in SHELL_CALL.captures_iter(code) {
        if let Some(m) = caps.get(1).or_else(|| caps.get(2)) {
            found.shell.push(unescape(m.as_str()));
        }
    }
    for caps in LIST_CALL.captures_iter(code) {
        let mut words: Vec<String> = Vec::new();
        if let Some(program) = caps.get(2) {
            words.push(program.as_str().to_string());
        }
        if let Some(list) = caps.get(3) {
            for lit in LITERAL.captures_iter(list.as_str()) {
                if let Some(m) = lit.get(1).or_else(|| lit.get(2)) {
                    words.push(quote(&unescape(m.as_str())));
                }
            }
        }
        if !words.is_empty() {
            found.shell.push(words.join(" "));
        }
    }
    for caps in BACKTICK.captures_iter(code) {
        found.shell.push(caps[1].to_string());
    }
    for caps in DELETE_CALL.captures_iter(code) {
        found.deletes.push(path_expression(caps[1].trim()));
    }
    found
}

/// A path from an interpreter expression: a literal, the home directory,
/// or an unknown value.
fn path_expression(expr: &str) -> String {
    let home = [
        "expanduser('~')",
        "expanduser(\"~\")",
        "Path.home()",
        "homedir()",
        "Dir.home",
        "['HOME']",
        "[\"HOME\"]",
        "$ENV{HOME}",
        "ENV['HOME']",
    ];
    if home.iter().any(|h| expr.contains(h)) && !expr.contains('+') {
        return "~".into();
    }
    match LITERAL.captures(expr) {
        Some(caps) => caps
            .get(1)
            .or_else(|| caps.get(2))
            .map(|m| unescape(m.as_str()))
            .unwrap_or_default(),
        None => format!("$(interpreter value {expr})"),
    }
}

fn unescape(s: &str) -> String {
    s.replace("\\\"", "\"")
        .replace("\\'", "'")
        .replace("\\\\", "\\")
}

fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_shell_and_deletes() {
        let f = scan("__import__('os').system('rm -rf /')");
        assert_eq!(f.shell, vec!["rm -rf /"]);
        let f = scan("import subprocess; subprocess.run(['rm','-rf','/'])");
        assert!(f.shell.contains(&"'rm' '-rf' '/'".to_string()));
        let f = scan("import shutil; shutil.rmtree('/home/user')");
        assert_eq!(f.deletes, vec!["/home/user"]);
        let f = scan("fs.rmSync('/', {recursive:true})");
        assert_eq!(f.deletes, vec!["/"]);
        let f = scan("import json,sys; print(json.load(sys.stdin)['a'])");
        assert_eq!(f, Found::default());
    }
}
