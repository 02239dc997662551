//! Renames by an expression: Perl's `rename 's/a/b/' FILES` (also `prename`, `perl-rename`, `file-rename`), util-linux's `rename FROM TO FILES`, and `mmv FROM TO`: each file moves to the name the expression gives it.

use super::produce::substitution_parts;
use super::{How, Uses};
use crate::rules::opts::{parse_opts, Spec, GNU};
use crate::shell::Command;

// Renames by an expression.

/// `rename`, `prename`, `perl-rename`, `file-rename` (Perl's: `rename
/// 's/a/b/' FILES`) and util-linux's (`rename FROM TO FILES`): each file
/// named moves to the name the expression gives it; where warden cannot
/// work that out, its directory gets a name it cannot see.
pub(super) fn rename<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    #[rustfmt::skip]
    let o = parse_opts(&cmd.args, &Spec::gnu("e", &["expr"]));
    if o.flag('n') || o.long("no-act", 3) || o.long("dry-run", 3) || o.long("just-print", 3) {
        return;
    }
    let expression = o.value('e').or(o.long_value("expr", 3));
    let (perl, files): (Option<&str>, &[&str]) = match (expression, o.operands.as_slice()) {
        (Some(e), files) => (Some(e), files),
        (None, [first, files @ ..]) if perl_expression(first) => (Some(first), files),
        (None, [from, to, files @ ..]) => {
            let (all, last) = (
                o.flag('a') || o.long("all", 3),
                o.flag('l') || o.long("last", 3),
            );
            for file in files {
                u.add(*file, How::Delete);
                u.add(replaced(file, from, to, all, last), How::Copy);
            }
            return;
        }
        _ => return,
    };
    let Some(expression) = perl else {
        return;
    };
    let substitution = compile(expression);
    for file in files {
        u.add(*file, How::Delete);
        match substitution.as_ref().map(|s| s.apply(file)) {
            Some(name) => u.add(name, How::Copy),
            None => u.add(parent(file), How::Produce),
        }
    }
}

/// `mmv FROM TO`: each file FROM matches moves to TO, its `#N` standing
/// for what a wildcard matched (`*`); copies, links and appends keep it.
pub(super) fn mmv<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let o = parse_opts(&cmd.args, &GNU);
    if o.flag('n') {
        return;
    }
    let [from, to, ..] = o.operands.as_slice() else {
        return;
    };
    let source = if o.flag('l') {
        How::Link
    } else if o.flag('c') || o.flag('o') || o.flag('a') || o.flag('s') {
        How::Read
    } else {
        How::Delete
    };
    u.add(*from, source);
    let mut target = String::with_capacity(to.len());
    let mut chars = to.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            target.push('*');
        } else {
            target.push(c);
        }
    }
    u.add(target, How::Copy);
}

fn parent(file: &str) -> String {
    match file.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/".into(),
        Some((dir, _)) => dir.into(),
        None => ".".into(),
    }
}

/// util-linux's replacement of `from` by `to` in `file`: the first
/// occurrence, every one (`-a`) or the last (`-l`).
fn replaced(file: &str, from: &str, to: &str, all: bool, last: bool) -> String {
    if from.is_empty() {
        return file.to_string();
    }
    if all {
        return file.replace(from, to);
    }
    let at = if last {
        file.rfind(from)
    } else {
        file.find(from)
    };
    match at {
        Some(at) => format!("{}{to}{}", &file[..at], &file[at + from.len()..]),
        None => file.to_string(),
    }
}

fn perl_expression(word: &str) -> bool {
    let code = word.trim_start();
    ["s", "y", "tr"].iter().any(|op| {
        code.strip_prefix(op)
            .and_then(|r| r.chars().next())
            .is_some_and(|c| !c.is_alphanumeric() && !c.is_whitespace())
    }) || code.contains("$_")
}

/// A Perl substitution warden can apply: `s/PATTERN/REPLACEMENT/FLAGS`
/// with a pattern the regex engine takes and no code in the replacement.
struct Substitution {
    regex: regex::Regex,
    replacement: String,
    all: bool,
}

impl Substitution {
    fn apply(&self, name: &str) -> String {
        let replacement = self.replacement.as_str();
        if self.all {
            self.regex.replace_all(name, replacement).into_owned()
        } else {
            self.regex.replace(name, replacement).into_owned()
        }
    }
}

fn compile(expression: &str) -> Option<Substitution> {
    let (pattern, replacement, flags) = substitution_parts(expression.trim())?;
    if !flags.chars().all(|f| "gimsxr".contains(f)) {
        return None;
    }
    let inline: String = flags.chars().filter(|f| "imsx".contains(*f)).collect();
    let regex = if inline.is_empty() {
        regex::Regex::new(pattern)
    } else {
        regex::Regex::new(&format!("(?{inline}){pattern}"))
    }
    .ok()?;
    // `$1`, `${1}`, `\1` and `$&` as the regex engine writes them; case
    // escapes dropped (names compare in any case); other code refused.
    let mut out = String::new();
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(d) if d.is_ascii_digit() => out.push_str(&format!("${{{d}}}")),
                Some('U' | 'L' | 'E' | 'u' | 'l') => {}
                Some(other) => out.push(other),
                None => {}
            },
            '$' => match chars.peek().copied() {
                Some('&') => {
                    chars.next();
                    out.push_str("${0}");
                }
                Some(d) if d.is_ascii_digit() => {
                    chars.next();
                    out.push_str(&format!("${{{d}}}"));
                }
                Some('{') => {
                    let digits: String = chars
                        .clone()
                        .skip(1)
                        .take_while(char::is_ascii_digit)
                        .collect();
                    if digits.is_empty() {
                        return None;
                    }
                    chars.nth(digits.len() + 1);
                    out.push_str(&format!("${{{digits}}}"));
                }
                _ => return None,
            },
            '@' => return None,
            _ => out.push(c),
        }
    }
    Some(Substitution {
        regex,
        replacement: out,
        all: flags.contains('g'),
    })
}
