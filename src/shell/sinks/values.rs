//! Where each row of the code-sink table finds its code in a call: option values (in every spelling getopt takes), settings, subcommand words, operands, input and prompt lines.

use super::Given;
use crate::shell::eval::shell_quote;

/// The code each value of `given` holds in `args` (and `stdin`, the input
/// when warden knows it); `code_options` are the options through which the
/// program's other rows take code.
pub(super) fn values(
    given: Given,
    args: &[String],
    stdin: Option<&str>,
    code_options: &[&str],
) -> Vec<String> {
    match given {
        Given::Opt(names) => option_values(args, names),
        Given::SubOpt(sub, names) => match subcommand(args) {
            Some((s, rest)) if s == sub => option_values(rest, names),
            // npm's options may come before the subcommand too.
            _ if sub.is_empty() => option_values(args, names),
            _ => Vec::new(),
        },
        Given::Setting(opts, keys) => option_values(args_before_sub(args), opts)
            .into_iter()
            .filter_map(|s| setting(&s, keys))
            .collect(),
        Given::Keyed(opts, keys) => option_values(args, opts)
            .into_iter()
            .filter_map(|s| setting(&s, keys))
            .collect(),
        Given::Stored(sub, keys) => match subcommand(args) {
            Some((s, rest)) if s == sub => stored(rest, keys),
            _ => Vec::new(),
        },
        Given::SubArgs(sub, verb) => match subcommand(args) {
            Some((s, rest)) if s == sub => sub_args(rest, verb),
            _ => Vec::new(),
        },
        Given::Env(_) => Vec::new(),
        Given::Operand(valued) => operand(args, valued)
            .filter(|_| !args.iter().any(|a| a == "--test" || a == "--list"))
            .into_iter()
            .collect(),
        Given::Program(valued) => {
            let mut scripts = option_values(args, &["-e", "--expression", "--source"]);
            if scripts.is_empty() {
                scripts.extend(operand(args, valued));
            }
            scripts
        }
        Given::Rest(valued) => {
            let (_, rest) = crate::shell::programs::split_options(args, valued);
            let rest = rest.strip_prefix(&["--".to_string()][..]).unwrap_or(rest);
            (!rest.is_empty())
                .then(|| rest.join(" "))
                .into_iter()
                .collect()
        }
        Given::Stdin => stdin.map(str::to_string).into_iter().collect(),
        Given::Input(sub) => unscripted_input(sub, args, stdin, code_options),
        Given::Prompt(with_file) => {
            if with_file && operand(args, &[]).is_none() {
                return Vec::new();
            }
            prompt_escapes(stdin)
        }
    }
}

/// The value `SUB KEY VALUE` stores when KEY is one of `keys` (`git config
/// core.pager '!cmd'`), its leading `!` dropped.
fn stored(rest: &[String], keys: &[&str]) -> Vec<String> {
    let words: Vec<&String> = rest.iter().filter(|w| !w.starts_with('-')).collect();
    match words.as_slice() {
        [key, value] if matches_key(key, keys) => {
            vec![value.trim_start_matches('!').to_string()]
        }
        _ => Vec::new(),
    }
}

/// The input, when the program (after `sub`, if named) runs no script
/// file: no operand other than `/dev/stdin` (see [`Given::Input`]).
fn unscripted_input(
    sub: &str,
    args: &[String],
    stdin: Option<&str>,
    code_options: &[&str],
) -> Vec<String> {
    let args = match subcommand(args) {
        _ if sub.is_empty() => args,
        Some((s, rest)) if s == sub => rest,
        _ => return Vec::new(),
    };
    let script = operand(args, code_options)
        .is_some_and(|o| !matches!(o.as_str(), "/dev/stdin" | "/dev/fd/0" | "-"));
    (!script)
        .then(|| stdin.map(str::to_string))
        .flatten()
        .into_iter()
        .collect()
}

/// The lines of the input typed at a prompt as `!CMD`: each CMD.
fn prompt_escapes(stdin: Option<&str>) -> Vec<String> {
    stdin
        .iter()
        .flat_map(|s| s.lines())
        .filter_map(|l| l.trim_start().strip_prefix('!'))
        .map(str::to_string)
        .collect()
}

/// The words after `verb` (`git bisect run CMD...`): one command line.
fn sub_args(rest: &[String], verb: &str) -> Vec<String> {
    let start = if verb.is_empty() {
        0
    } else {
        match rest.iter().position(|w| w == verb) {
            Some(at) => at + 1,
            None => return Vec::new(),
        }
    };
    let words: Vec<&String> = rest[start..]
        .iter()
        .skip_while(|w| matches!(w.as_str(), "--recursive" | "-q" | "--quiet"))
        .collect();
    if words.is_empty() {
        Vec::new()
    } else if words.len() == 1 || verb == "foreach" {
        vec![words
            .iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join(" ")]
    } else {
        vec![words
            .iter()
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" ")]
    }
}

/// The first operand: a word that is not an option, nor the value of one
/// of the `valued` options, before `--` or the word after it.
fn operand(args: &[String], valued: &[&str]) -> Option<String> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            return iter.next().cloned();
        }
        if valued.contains(&arg.as_str()) {
            iter.next();
        } else if !arg.starts_with('-') || arg == "-" {
            return Some(arg.clone());
        }
    }
    None
}

/// Options before the subcommand (git's `-c` after it is the subcommand's).
fn args_before_sub(args: &[String]) -> &[String] {
    match subcommand(args) {
        Some((_, rest)) => &args[..args.len() - rest.len() - 1],
        None => args,
    }
}

/// The first word that is not an option or an option's value, and the
/// words after it.
fn subcommand(args: &[String]) -> Option<(&str, &[String])> {
    const VALUED: &[&str] = &[
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--config",
        "--prefix",
        "-Z",
    ];
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if VALUED.contains(&arg.as_str()) {
            i += 2;
        } else if arg.starts_with('-') {
            i += 1;
        } else {
            return Some((arg.as_str(), &args[i + 1..]));
        }
    }
    None
}

/// `KEY=VALUE` (or ssh's `KEY VALUE`) when KEY matches one of `keys`
/// (case-insensitive).
fn setting(text: &str, keys: &[&str]) -> Option<String> {
    let (key, value) = text.trim_start().split_once(['=', ' ', '\t'])?;
    // APT's list settings end in `::` (`APT::Update::Pre-Invoke::=CMD`).
    let key = key.trim_end_matches(':');
    let value = value
        .trim_matches(|c| c == '"' || c == '\'')
        .trim_start_matches('!');
    matches_key(key, keys).then(|| value.to_string())
}

pub(super) fn matches_key(key: &str, keys: &[&str]) -> bool {
    let key = key.trim().to_ascii_lowercase();
    keys.iter().any(|pattern| match pattern.split_once('*') {
        Some((head, tail)) => {
            key.len() > head.len() + tail.len() && key.starts_with(head) && key.ends_with(tail)
        }
        None => key == *pattern,
    })
}

/// Every value of the options `names` in `args`, up to `--`.
pub(in crate::shell) fn option_values(args: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        for name in names {
            if *name == "+" {
                // `+CMD`; `+N` is a line and `+/PAT` a search.
                if let Some(v) = arg.strip_prefix('+').filter(|v| {
                    !v.is_empty() && !v.starts_with('/') && !v.bytes().all(|b| b.is_ascii_digit())
                }) {
                    out.push(v.to_string());
                }
                continue;
            }
            if arg == name {
                // Another of the options next (`screen -L -Logfile F`):
                // this one is a flag here, and the next takes the value.
                if iter
                    .as_slice()
                    .first()
                    .is_some_and(|v| names.contains(&v.as_str()))
                {
                    break;
                }
                if let Some(v) = iter.next() {
                    out.push(v.clone());
                }
                break;
            }
            // nim spells a long option's value `--eval:CODE`.
            let separators: &[char] = if name.starts_with("--") {
                &['=', ':']
            } else {
                &['=']
            };
            if let Some(v) = arg
                .strip_prefix(name)
                .and_then(|v| v.strip_prefix(separators))
            {
                out.push(v.to_string());
                break;
            }
            if name.starts_with("--") {
                // GNU getopt takes an unambiguous prefix of a long name.
                let (given, value) = arg
                    .split_once('=')
                    .map_or((arg.as_str(), None), |(k, v)| (k, Some(v)));
                if given.len() >= 6 && given.len() < name.len() && name.starts_with(given) {
                    match value {
                        Some(v) => out.push(v.to_string()),
                        None => out.extend(iter.next().cloned()),
                    }
                    break;
                }
            } else if name.len() == 2
                && arg.len() > 2
                && !arg.starts_with("--")
                && arg.starts_with(name)
            {
                out.push(arg[2..].to_string());
                break;
            } else if name.len() == 2
                && arg.len() > 2
                && arg.starts_with('-')
                && !arg.starts_with("--")
                && arg.ends_with(&name[1..])
                && arg[1..].bytes().all(|b| b.is_ascii_alphabetic())
            {
                // `-qc CMD`: a cluster of flags ending in the option.
                out.extend(iter.next().cloned());
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{GIT_CONFIG, GIT_SHELL_KEYS};
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn option_spellings() {
        let names = &["-x", "--exec"];
        for words in [
            &["-x", "CMD"][..],
            &["-xCMD"],
            &["--exec", "CMD"],
            &["--exec=CMD"],
            &["-ix", "CMD"],
        ] {
            assert_eq!(option_values(&args(words), names), ["CMD"], "{words:?}");
        }
        assert!(option_values(&args(&["--", "-x", "CMD"]), names).is_empty());
        // An option followed by another of the names is a flag there.
        let screen = &["-Logfile", "-L"];
        assert_eq!(
            option_values(&args(&["-L", "-Logfile", "F", "cmd"]), screen),
            ["F"]
        );
        // A long name cut short, as GNU getopt takes it.
        let long = &["--compress-program"];
        assert_eq!(option_values(&args(&["--compress=gz"]), long), ["gz"]);
        assert!(option_values(&args(&["--comp"]), long).is_empty());
        // vim's `+CMD`, not `+N` or `+/pattern`.
        let vim = &["-c", "+"];
        assert_eq!(option_values(&args(&["+q", "+42", "+/x"]), vim), ["q"]);
    }

    #[test]
    fn settings_and_subcommands() {
        let git = args(&[
            "-c",
            "Core.Pager=less",
            "-c",
            "user.name=x",
            "log",
            "-c",
            "alias.a=!x",
        ]);
        assert_eq!(values(SINKS_GIT_SETTING, &git, None, &[]), ["less"]);
        let stored = args(&["config", "--global", "alias.st", "!make"]);
        assert_eq!(
            values(Given::Stored("config", GIT_SHELL_KEYS), &stored, None, &[]),
            ["make"]
        );
        let bisect = args(&["bisect", "run", "sh", "-c", "make test"]);
        assert_eq!(
            values(Given::SubArgs("bisect", "run"), &bisect, None, &[]),
            ["sh -c 'make test'"]
        );
        assert!(matches_key("mergetool.meld.cmd", GIT_SHELL_KEYS));
        assert!(!matches_key("mergetool.cmd", GIT_SHELL_KEYS));
    }

    const SINKS_GIT_SETTING: Given = Given::Setting(GIT_CONFIG, GIT_SHELL_KEYS);
}
