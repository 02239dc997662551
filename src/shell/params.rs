//! Parameter expansion: the value of `$x`, `${x[i]}` and `${x<op>word}` for each operator, as far as the line itself tells it.

use super::eval::Eval;
use super::parse::{Part, Word};

impl Eval<'_> {
    /// A parameter expansion whose subscript (`${a[i]}`, `${#a[i]}`) bash
    /// evaluates first, as arithmetic.
    pub(super) fn subscripted_param(
        &mut self,
        name: &str,
        op: &str,
        arg: Option<&Word>,
        index: &[Part],
    ) -> Option<Vec<String>> {
        if !index.is_empty() {
            self.arith(index);
        }
        self.param(name, op, arg)
    }

    /// An operator's word, expanded (its substitutions run); empty when there is none.
    fn word_text(&mut self, arg: Option<&Word>) -> String {
        arg.map(|w| self.expand_single(w).text).unwrap_or_default()
    }

    /// The values of a parameter expansion, `None` when unknown.
    fn param(&mut self, name: &str, op: &str, arg: Option<&Word>) -> Option<Vec<String>> {
        let value = self.lookup(name);
        match (op, arg) {
            ("", _) => value,
            ("#", None) => value.map(|v| vec![v.join(" ").chars().count().to_string()]),
            (":-" | "-" | ":=" | "=" | ":+" | "+" | ":?" | "?", _) => {
                self.with_default(name, op, value, arg)
            }
            ("@", Some(_)) => {
                let transform = self.word_text(arg);
                // `${x@P}` expands the value as a prompt string: its
                // substitutions run.
                if transform == "P" {
                    for text in &value? {
                        self.reexpand(text, "${x@P}");
                    }
                }
                None
            }
            ("^^", _) | ("^", _) | (",,", _) | (",", _) => {
                // The pattern is expanded, substitutions and all.
                self.word_text(arg);
                value.map(|v| case_changed(v, op.starts_with('^')))
            }
            ("#" | "##" | "%" | "%%", Some(_)) => {
                let pattern = self.word_text(arg);
                // Trimming `$HOME` or `$PWD` reaches their parents (`${HOME%/*}`
                // is `/home`): trim a typical absolute value instead of `~`.
                let v = match name {
                    "HOME" => vec!["/home/user".to_string()],
                    "PWD" if self.cwd.is_none() => vec!["/home/user/project".to_string()],
                    _ => value?,
                };
                v.into_iter().map(|s| trim(&s, &pattern, op)).collect()
            }
            ("/" | "//", Some(_)) => {
                let spec = self.word_text(arg);
                replaced(value?, &spec, op == "//")
            }
            (":", Some(_)) => {
                let spec = self.word_text(arg);
                // Offset and length are arithmetic.
                self.arith_text(&spec);
                sliced(value?, &spec)
            }
            ("!", None) => {
                let target = value?.first().cloned()?;
                // `${!x}` with x holding `a[i]`: the subscript is evaluated.
                self.name_evaluated(&target);
                self.lookup(&target)
            }
            _ => {
                // An operator warden does not model (`/#`, `/%`, `@Q`):
                // its word is still expanded.
                self.word_text(arg);
                None
            }
        }
    }

    /// `${x:-w}`, `${x:=w}`, `${x:+w}`, `${x:?w}` and their forms without
    /// `:`: the value, or what the word makes of an unset (or, with `:`,
    /// empty) one.
    fn with_default(
        &mut self,
        name: &str,
        op: &str,
        value: Option<Vec<String>>,
        arg: Option<&Word>,
    ) -> Option<Vec<String>> {
        // A value set from what warden could not resolve (`x=$(foo)`) may
        // be empty: the word counts too, beside the value.
        let maybe_empty = !self.unresolved.is_empty() && self.unresolved.contains(name);
        let set_nonempty = !maybe_empty
            && value
                .as_ref()
                .is_some_and(|v| v.iter().any(|s| !s.is_empty()));
        match op {
            ":-" | "-" => {
                if set_nonempty || (op == "-" && value.is_some()) {
                    value
                } else {
                    let default = self.word_text(arg);
                    Some(self.default_or_unknown(name, value, default))
                }
            }
            ":=" | "=" => {
                if set_nonempty {
                    value
                } else {
                    let v = self.word_text(arg);
                    let values = self.default_or_unknown(name, value, v);
                    self.vars.insert(name.to_string(), values.clone());
                    Some(values)
                }
            }
            ":+" | "+" => {
                // Evaluate the alternative either way: it may hold a substitution.
                let alt = self.word_text(arg);
                value.map(|_| vec![alt])
            }
            _ => {
                // The message is expanded, substitutions and all, when the
                // shell stops on an unset (or, with `:`, empty) variable.
                if !set_nonempty {
                    self.word_text(arg);
                }
                value
            }
        }
    }

    /// The values of `${NAME:-default}` when NAME is unset or empty, or may
    /// be: when it was not set on this line it may still come from the
    /// environment, so both the default and an unknown value are analysed
    /// (`rm -rf "${DIR:-build}"` may delete anything); when it was set from
    /// what warden could not resolve, both the default and that value.
    fn default_or_unknown(
        &mut self,
        name: &str,
        value: Option<Vec<String>>,
        default: String,
    ) -> Vec<String> {
        match value {
            None if !matches!(name, "@" | "*" | "#" | "?" | "$" | "!" | "-")
                && name.parse::<usize>().is_err() =>
            {
                self.param_alternatives = true;
                vec![default, format!("${{{name}}}")]
            }
            Some(value) if value.iter().any(|s| !s.is_empty()) => {
                self.param_alternatives = true;
                let mut values = vec![default];
                values.extend(value);
                values
            }
            _ => vec![default],
        }
    }

    fn lookup(&self, name: &str) -> Option<Vec<String>> {
        if let Some(v) = self.vars.get(name) {
            return Some(v.clone());
        }
        // `a[@]`, `a[*]`, `a[N]` of an array set on this line.
        if let Some((base, index)) = name.strip_suffix(']').and_then(|n| n.split_once('[')) {
            let values = self.vars.get(base)?;
            return match index {
                "@" | "*" => Some(values.clone()),
                i => i
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| values.get(i))
                    .map(|v| vec![v.clone()]),
            };
        }
        if let Ok(n) = name.parse::<usize>() {
            return self.positional.get(n).map(|s| vec![s.clone()]);
        }
        match name {
            // The home directory is `~` to the rules, however it is written.
            "HOME" => Some(vec!["~".into()]),
            "PWD" => self.cwd.clone().map(|d| vec![d]),
            "IFS" => Some(vec![" \t\n".into()]),
            "@" | "*" if self.positional.len() > 1 => Some(self.positional[1..].to_vec()),
            _ => None,
        }
    }
}

/// `${v#p}`, `${v##p}`, `${v%p}`, `${v%%p}` with `*` and `?` in the pattern;
/// `None` for bracket patterns or long values.
/// `${x^^}`, `${x,,}` and their one-letter forms, on every value.
fn case_changed(values: Vec<String>, upper: bool) -> Vec<String> {
    let change = |s: &String| {
        if upper {
            s.to_uppercase()
        } else {
            s.to_lowercase()
        }
    };
    values.iter().map(change).collect()
}

/// `${x/from/to}` (`${x//from/to}` with `all`) with a plain `from`; a
/// pattern or an empty `from` is not worked out.
fn replaced(values: Vec<String>, spec: &str, all: bool) -> Option<Vec<String>> {
    let (from, to) = spec.split_once('/').unwrap_or((spec, ""));
    if from.contains(['*', '?', '[']) || from.is_empty() {
        return None;
    }
    let replace = |s: String| {
        if all {
            s.replace(from, to)
        } else {
            s.replacen(from, to, 1)
        }
    };
    Some(values.into_iter().map(replace).collect())
}

/// `${x:offset}` and `${x:offset:length}` with numbers, counted in
/// characters; a negative offset counts from the end, a negative length
/// stops that far from it.
fn sliced(values: Vec<String>, spec: &str) -> Option<Vec<String>> {
    let mut nums = spec.split(':').map(|n| n.trim().parse::<i64>().ok());
    let offset = nums.next().flatten()?;
    let length = nums.next().flatten();
    let slice = |s: String| {
        let chars: Vec<char> = s.chars().collect();
        let start = if offset < 0 {
            chars.len().saturating_sub(offset.unsigned_abs() as usize)
        } else {
            (offset as usize).min(chars.len())
        };
        let end = match length {
            Some(l) if l >= 0 => start.saturating_add(l as usize).min(chars.len()),
            Some(l) => chars
                .len()
                .saturating_sub(l.unsigned_abs() as usize)
                .max(start),
            None => chars.len(),
        };
        chars[start..end].iter().collect()
    };
    Some(values.into_iter().map(slice).collect())
}

fn trim(value: &str, pattern: &str, op: &str) -> Option<String> {
    if pattern.contains('[') || value.len() > 4096 {
        return None;
    }
    let chars: Vec<char> = value.chars().collect();
    let pat: Vec<char> = pattern.chars().collect();
    let n = chars.len();
    let cut = match op {
        "#" => (0..=n).find(|&i| glob(&pat, &chars[..i])).map(|i| (i, n)),
        "##" => (0..=n)
            .rev()
            .find(|&i| glob(&pat, &chars[..i]))
            .map(|i| (i, n)),
        "%" => (0..=n)
            .rev()
            .find(|&i| glob(&pat, &chars[i..]))
            .map(|i| (0, i)),
        _ => (0..=n).find(|&i| glob(&pat, &chars[i..])).map(|i| (0, i)),
    };
    let (from, to) = cut.unwrap_or((0, n));
    Some(chars[from..to].iter().collect())
}

/// Shell pattern match with `*` and `?`.
fn glob(pat: &[char], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pat.len() && (pat[p] == '?' || pat[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pat.len() && pat[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pat[p..].iter().all(|&c| c == '*')
}

/// Whether `text` is a shell variable name: a letter or `_`, then letters,
/// digits and `_`.
pub(super) fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
