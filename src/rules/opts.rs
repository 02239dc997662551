//! Option parsing for the rule checks: how a program takes its options, its arguments sorted
//! into options and operands, and the option specs more than one rule table uses.

/// How a program takes its options, for [`parse_opts`].
pub(super) struct Spec {
    /// Short options that take a value: the rest of the cluster, else the next argument.
    pub values: &'static str,
    /// Short options whose optional value can only be attached (`-i.bak`).
    pub attached: &'static str,
    /// Long options (without `--`) that take the next argument when no `=` is given.
    pub long_values: &'static [&'static str],
    /// GNU style: options may follow operands. Otherwise the first operand ends them.
    pub permute: bool,
}

impl Spec {
    /// GNU style (options anywhere), with these short and long options taking a value.
    pub const fn gnu(values: &'static str, long_values: &'static [&'static str]) -> Spec {
        Spec {
            values,
            attached: "",
            long_values,
            permute: true,
        }
    }
}

/// A program with only flags, GNU style.
pub(super) const GNU: Spec = Spec::gnu("", &[]);

/// A command's arguments sorted into options and operands.
#[derive(Debug, Default)]
pub(super) struct Opts<'a> {
    /// The flags of each short cluster, in order (`-rf` gives `['r', 'f']`).
    pub clusters: Vec<Vec<char>>,
    /// Short options that took a value, with it.
    pub values: Vec<(char, &'a str)>,
    /// Long options without `--`, with their value when they have one.
    pub longs: Vec<(&'a str, Option<&'a str>)>,
    pub operands: Vec<&'a str>,
    /// Index in the arguments of the first operand, always one of them (for
    /// non-permuting specs, everything from there on is an operand).
    pub first_operand: Option<usize>,
}

impl<'a> Opts<'a> {
    pub fn flag(&self, c: char) -> bool {
        self.clusters.iter().any(|cl| cl.contains(&c))
    }

    /// Whether a long option given is `name` or a prefix of it at least `min` characters long
    /// (GNU and git accept unambiguous prefixes; `min` is where it stops being ambiguous).
    pub fn long(&self, name: &str, min: usize) -> bool {
        self.long_at(name, min).is_some()
    }

    /// Position among the long options of the first one that is `name` (see [`Opts::long`]).
    pub fn long_at(&self, name: &str, min: usize) -> Option<usize> {
        self.longs
            .iter()
            .position(|(k, _)| long_matches(k, name, min))
    }

    /// The value of long option `name` (see [`Opts::long`]).
    pub fn long_value(&self, name: &str, min: usize) -> Option<&'a str> {
        self.longs
            .iter()
            .find(|(k, _)| long_matches(k, name, min))
            .and_then(|(_, v)| *v)
    }

    pub fn value(&self, c: char) -> Option<&'a str> {
        self.values.iter().find(|(k, _)| *k == c).map(|(_, v)| *v)
    }
}

fn long_matches(given: &str, name: &str, min: usize) -> bool {
    given == name || (given.len() >= min && name.starts_with(given))
}

/// Sorts `args` into options and operands as `spec` describes.
pub(super) fn parse_opts<'a>(args: &'a [String], spec: &Spec) -> Opts<'a> {
    let mut out = Opts {
        // Made to measure: most arguments of most commands are operands.
        operands: Vec::with_capacity(args.len()),
        ..Opts::default()
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--" {
            if i < args.len() {
                out.first_operand.get_or_insert(i);
            }
            out.operands.extend(args[i..].iter().map(String::as_str));
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (key, value) = match long.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None if takes_long_value(long, spec) => {
                    let v = args.get(i).map(String::as_str);
                    i += 1;
                    (long, v)
                }
                None => (long, None),
            };
            out.longs.push((key, value));
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            let mut flags = Vec::with_capacity(arg.len() - 1);
            for (at, c) in arg.char_indices().skip(1) {
                let rest = &arg[at + c.len_utf8()..];
                if spec.values.contains(c) {
                    let v = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).map(String::as_str).unwrap_or("")
                    } else {
                        rest
                    };
                    out.values.push((c, v));
                    break;
                }
                if spec.attached.contains(c) {
                    out.values.push((c, rest));
                    break;
                }
                flags.push(c);
            }
            out.clusters.push(flags);
            continue;
        }
        out.first_operand.get_or_insert(i - 1);
        if !spec.permute {
            out.operands
                .extend(args[i - 1..].iter().map(String::as_str));
            break;
        }
        out.operands.push(arg);
    }
    out
}

/// Where [`parse_opts`] would find the first operand, without sorting the
/// rest: a subcommand's position (`git -C repo status`) asked by many rules
/// of every call, most of which name another subcommand. Always an index
/// into `args` (`git --` has no subcommand).
pub(super) fn first_operand(args: &[String], spec: &Spec) -> Option<usize> {
    let mut i = 0;
    let found = loop {
        let Some(arg) = args.get(i).map(String::as_str) else {
            break None;
        };
        i += 1;
        if arg == "--" {
            // A `--` that ends the arguments has no operand after it.
            break (i < args.len()).then_some(i);
        }
        if let Some(long) = arg.strip_prefix("--") {
            if !long.contains('=') && takes_long_value(long, spec) {
                i += 1;
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            for (at, c) in arg.char_indices().skip(1) {
                if spec.values.contains(c) {
                    if at + c.len_utf8() == arg.len() {
                        i += 1;
                    }
                    break;
                }
                if spec.attached.contains(c) {
                    break;
                }
            }
            continue;
        }
        break Some(i - 1);
    };
    debug_assert_eq!(found, parse_opts(args, spec).first_operand, "{args:?}");
    found
}

fn takes_long_value(long: &str, spec: &Spec) -> bool {
    spec.long_values.iter().any(|v| long_matches(long, v, 3))
}

// ---------------------------------------------------------------------------
// Specs shared by more than one table.

/// `-m MODE` and `-t DIR` of chmod, mkdir, install, cp, mv and ln: the permission rules and the
/// copy rules both read them.
#[rustfmt::skip]
pub(super) const MODE: Spec = Spec::gnu("mogSt", &["mode", "owner", "group", "suffix", "target-directory", "context"]);

/// rsync: `fs.rsync-delete` and the copy rules both read it.
#[rustfmt::skip]
pub(super) const RSYNC: Spec = Spec::gnu("efBTM", &["exclude", "include", "filter", "files-from", "rsh", "rsync-path", "temp-dir", "compare-dest", "copy-dest", "link-dest", "partial-dir", "backup-dir", "suffix", "chmod", "chown", "usermap", "groupmap", "log-file", "password-file", "exclude-from", "include-from", "max-size", "min-size", "timeout", "bwlimit", "port", "out-format", "info", "debug"]);

/// scp: the copy rules and the remote-target rules both read it.
pub(super) const SCP: Spec = Spec::gnu("cFiJloPSDX", &[]);
