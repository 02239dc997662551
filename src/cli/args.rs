//! One argument parser for every subcommand: each declares its flags in a table, and they are parsed, checked and documented from it.

use crate::error::Error;

/// One flag a subcommand takes.
pub(crate) struct Flag {
    /// `--name`.
    pub long: &'static str,
    /// The value's placeholder in help (`DIR`); `None` for a switch.
    pub value: Option<&'static str>,
    /// The values it accepts, when it is a choice.
    pub choices: &'static [&'static str],
    pub help: &'static str,
}

/// The flags given, in the order given (a later one wins).
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    values: Vec<(&'static str, String)>,
    /// `-h` or `--help` was given: print help and do nothing else.
    pub help: bool,
    /// The action word a command with actions was given (`list`).
    pub action: Option<String>,
    /// Words that are not flags, for a command that takes them.
    pub operands: Vec<String>,
}

impl Parsed {
    /// The last value given for `long`.
    pub fn value(&self, long: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(name, _)| *name == long)
            .map(|(_, value)| value.as_str())
    }
}

/// Parses `args` against `flags`: `--name VALUE`, `--name=VALUE`, switches,
/// and `-h`/`--help`. Anything else is a usage error naming the argument.
pub(crate) fn parse(
    flags: &'static [Flag],
    args: &[String],
    operands: bool,
) -> Result<Parsed, Error> {
    let mut parsed = Parsed::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if matches!(arg.as_str(), "-h" | "--help") {
            parsed.help = true;
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (arg.as_str(), None),
        };
        if operands && !arg.starts_with('-') {
            parsed.operands.push(arg.clone());
            continue;
        }
        let Some(flag) = flags.iter().find(|f| f.long == name) else {
            return Err(Error::Usage(format!("unknown argument `{arg}`")));
        };
        let value = match (flag.value, inline) {
            (None, None) => String::new(),
            (None, Some(_)) => {
                return Err(Error::Usage(format!("{name} does not take a value")));
            }
            (Some(_), Some(value)) => value.to_string(),
            (Some(_), None) => iter
                .next()
                .cloned()
                .ok_or_else(|| Error::Usage(format!("{name} needs a value")))?,
        };
        if !flag.choices.is_empty() && !flag.choices.contains(&value.as_str()) {
            return Err(Error::Usage(format!(
                "unknown {name} value `{value}` (expected {})",
                flag.choices.join(", ")
            )));
        }
        parsed.values.push((flag.long, value));
    }
    Ok(parsed)
}

/// The flags' lines for help, `    --name VALUE   help`, followed by
/// `extra` lines given as (label, help), all aligned.
pub(crate) fn describe(flags: &[Flag], extra: &[(&str, &str)]) -> String {
    let mut rows: Vec<(String, &str)> = flags
        .iter()
        .map(|f| {
            let label = match f.value {
                Some(value) => format!("{} {value}", f.long),
                None => f.long.to_string(),
            };
            (label, f.help)
        })
        .collect();
    rows.extend(extra.iter().map(|(label, help)| (label.to_string(), *help)));
    let width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (label, help) in rows {
        let mut lines = help.lines();
        out.push_str(&format!(
            "    {label:<width$}  {}\n",
            lines.next().unwrap_or("")
        ));
        for more in lines {
            out.push_str(&format!("    {:<width$}  {more}\n", ""));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    static FLAGS: &[Flag] = &[
        Flag {
            long: "--cwd",
            value: Some("DIR"),
            choices: &[],
            help: "where",
        },
        Flag {
            long: "--agent",
            value: Some("NAME"),
            choices: &["hermes", "claude"],
            help: "who",
        },
    ];

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn values_both_ways_and_the_last_wins() {
        let p = parse(
            FLAGS,
            &args(&["--cwd", "/a", "--cwd=/b", "--agent=claude"]),
            false,
        )
        .unwrap();
        assert_eq!(p.value("--cwd"), Some("/b"));
        assert_eq!(p.value("--agent"), Some("claude"));
        assert!(!p.help);
    }

    #[test]
    fn usage_errors_name_the_argument() {
        let err = |list: &[&str]| parse(FLAGS, &args(list), false).unwrap_err().to_string();
        assert!(err(&["--bogus"]).contains("`--bogus`"));
        assert!(err(&["--cwd"]).contains("--cwd needs a value"));
        assert!(err(&["--agent", "x"]).contains("unknown --agent value `x`"));
        assert!(err(&["positional"]).contains("`positional`"));
    }

    #[test]
    fn help_is_a_flag_of_every_command() {
        assert!(parse(FLAGS, &args(&["--help"]), false).unwrap().help);
        assert!(parse(&[], &args(&["-h"]), false).unwrap().help);
    }
}
