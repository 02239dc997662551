//! `sed -i` on a file run by convention: the text its commands put in, judged as a piece of that file.

use super::{format, Eval};
use crate::shell::command::Command;

impl Eval<'_> {
    /// `sed -i` on a file run by convention: the text its `s` commands put
    /// in and its `a`, `i` and `c` commands add, judged as a piece of that
    /// file.
    pub(super) fn sed_in_place(&mut self, cmd: &Command) {
        let Some((scripts, files)) = sed_in_place_args(&cmd.args) else {
            return;
        };
        let added: Vec<String> = scripts.iter().flat_map(|s| sed_added(s)).collect();
        if added.is_empty() {
            return;
        }
        let text = added.join("\n") + "\n";
        for format in files.iter().filter_map(|f| format(f)) {
            self.judge_piece(format, &text);
        }
    }
}

/// `sed`'s scripts and files when it edits in place (`-i`, `-i.bak`,
/// `--in-place`, macOS's `-i ''`); `None` otherwise.
fn sed_in_place_args(args: &[String]) -> Option<(Vec<String>, Vec<String>)> {
    let mut in_place = false;
    let mut scripts = Vec::new();
    let mut operands = Vec::new();
    let mut iter = args.iter().peekable();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "-e" | "--expression" => scripts.extend(iter.next().cloned()),
            "-f" | "--file" | "-l" | "--line-length" => {
                iter.next();
            }
            "-i" | "-I" => {
                in_place = true;
                // macOS's `-i ''`: the suffix is the next, empty, word.
                if iter.peek().is_some_and(|a| a.is_empty()) {
                    iter.next();
                }
            }
            "--" => operands.extend(iter.by_ref().cloned()),
            a if a.starts_with("--expression=") => {
                scripts.push(a["--expression=".len()..].to_string());
            }
            a if a.starts_with("--in-place") => in_place = true,
            a if a.starts_with("--") => {}
            a if a.starts_with('-') && a.len() > 1 => {
                let flags = &a[1..];
                // `-ni.bak`: in place, the rest of the word its suffix.
                if flags.contains(['i', 'I']) {
                    in_place = true;
                } else if flags.ends_with('e') {
                    scripts.extend(iter.next().cloned());
                }
            }
            _ => operands.push(arg.clone()),
        }
    }
    if !in_place {
        return None;
    }
    if scripts.is_empty() && !operands.is_empty() {
        scripts.push(operands.remove(0));
    }
    Some((scripts, operands))
}

/// The text a sed script puts into the file: each `s` command's
/// replacement and each `a`, `i`, `c` command's text.
fn sed_added(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    for command in script.split('\n') {
        let body = skip_address(command.trim_start());
        let mut chars = body.chars();
        match chars.next() {
            Some('s') => {
                let Some(delim) = chars.next().filter(|c| !c.is_alphanumeric() && *c != '\\')
                else {
                    continue;
                };
                let parts = split_unescaped(chars.as_str(), delim);
                if let Some(replacement) = parts.get(1) {
                    out.push(replacement.clone());
                }
            }
            Some('a' | 'i' | 'c') => {
                let text = chars.as_str().trim_start_matches('\\').trim_start();
                if !text.is_empty() {
                    out.push(text.to_string());
                }
            }
            _ => {}
        }
    }
    out
}

/// A sed command without its address (`1`, `$`, `/re/`, `1,5`).
fn skip_address(command: &str) -> &str {
    let mut rest = command;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || "$,~+! ".contains(c));
        match rest.strip_prefix('/') {
            Some(re) => match re.find('/') {
                Some(end) => rest = &re[end + 1..],
                None => return "",
            },
            None => return rest,
        }
    }
}

/// `text` cut at each `delim` not escaped by a backslash, with `\delim`
/// unescaped.
fn split_unescaped(text: &str, delim: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let current = parts.last_mut().expect("parts is never empty");
        match c {
            '\\' => match chars.next() {
                Some(n) if n == delim => current.push(n),
                Some(n) => {
                    current.push('\\');
                    current.push(n);
                }
                None => current.push('\\'),
            },
            c if c == delim => parts.push(String::new()),
            c => current.push(c),
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_sed_adds() {
        assert_eq!(sed_added(r"s/a\/b/c\/d/g"), vec!["c/d"]);
        assert_eq!(sed_added("1i import os"), vec!["import os"]);
        assert_eq!(sed_added("/^x/a\\ y"), vec!["y"]);
        assert!(sed_added("1d").is_empty());
        let args: Vec<String> = ["-i", "", "-e", "s/a/b/", "f"].map(String::from).to_vec();
        assert_eq!(
            sed_in_place_args(&args),
            Some((vec!["s/a/b/".to_string()], vec!["f".to_string()]))
        );
        let args: Vec<String> = ["s/a/b/", "f"].map(String::from).to_vec();
        assert_eq!(sed_in_place_args(&args), None);
    }
}
