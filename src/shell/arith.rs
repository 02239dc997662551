//! Where bash evaluates text as arithmetic, and the command substitutions that evaluation can run.
//!
//! Bash expands an arithmetic text's parameters and substitutions first, as
//! in double quotes (`$(( $(cmd) + 1 ))`). It then evaluates the result, and
//! evaluating reaches further: the subscript of an array element is expanded
//! again when it is read (`(( 'a[$(cmd)]' ))` runs `cmd`), and a variable
//! named in the text is evaluated as arithmetic text in its turn
//! (`x='a[$(cmd)]'; echo $((x))` runs `cmd`). The same evaluation happens
//! wherever bash takes a number or a variable name: `let`, `declare -i`,
//! `[[ A -eq B ]]`, `${s:OFFSET:LENGTH}`, and the names `read`, `printf -v`,
//! `unset`, `test -v`, `declare` and their kin are given. This module finds
//! those texts and analyses the substitutions they would run.

use super::command::Command;
use super::eval::Eval;
use super::parse::Part;

/// Most variables one arithmetic text leads to, values of values included.
const MAX_NAMES: usize = 64;

/// The comparison operators of `[[ ]]` whose operands are arithmetic.
const TEST_ARITH_OPS: &[&str] = &["-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

impl Eval<'_> {
    /// Evaluates an arithmetic text from the tree (`$(( ))`, `$[ ]`,
    /// `(( ))`, `for (( ))`, a subscript): its expansions, then what
    /// evaluating their result reaches.
    pub(super) fn arith(&mut self, parts: &[Part]) {
        let text = self.arith_expand(parts);
        self.arith_text(&text);
    }

    /// Evaluates `text`, already expanded once, as bash evaluates arithmetic:
    /// the substitutions in it (an array subscript is expanded again) and in
    /// the values of the variables it names, recursively.
    pub(super) fn arith_text(&mut self, text: &str) {
        let mut seen = Vec::new();
        self.arith_value(text, &mut seen);
    }

    fn arith_value(&mut self, text: &str, seen: &mut Vec<String>) {
        self.reexpand(text, "arithmetic");
        for name in identifiers(text) {
            if seen.len() >= MAX_NAMES || seen.iter().any(|s| s == name) {
                continue;
            }
            seen.push(name.to_string());
            let Some(values) = self.vars.get(name).cloned() else {
                continue;
            };
            for value in values {
                self.arith_value(&value, seen);
            }
        }
    }

    /// Assignments with no command (`x=1`, `a[i]=v`): a subscript is
    /// arithmetic, and so is the value of an integer variable.
    pub(super) fn assigned(&mut self, env: &[(String, String)]) {
        for (name, value) in env {
            let base = self.name_evaluated(name);
            if self.integers.contains(base) {
                self.arith_text(value);
            }
        }
    }

    /// The builtins that evaluate arithmetic or take a variable name that
    /// may carry a subscript.
    pub(super) fn arith_builtin(&mut self, cmd: &Command) {
        let args = &cmd.args;
        match cmd.program.as_str() {
            "let" => {
                for arg in args {
                    self.arith_text(arg);
                }
            }
            "[[" => {
                for (n, arg) in args.iter().enumerate() {
                    if TEST_ARITH_OPS.contains(&arg.as_str()) {
                        for operand in [n.checked_sub(1), Some(n + 1)].into_iter().flatten() {
                            if let Some(operand) = args.get(operand) {
                                self.arith_text(operand);
                            }
                        }
                    }
                }
                self.tested_names(args);
            }
            "test" | "[" => self.tested_names(args),
            "declare" | "typeset" | "local" | "export" | "readonly" => self.declared(args),
            "printf" | "wait" => {
                let names = args.windows(2).filter(|w| w[0] == "-v" || w[0] == "-p");
                for pair in names.map(|w| w[1].clone()).collect::<Vec<_>>() {
                    self.name_evaluated(&pair);
                }
            }
            "read" | "unset" => {
                // Option values are never subscripted names, so every word
                // with a subscript is one of the names.
                for arg in args
                    .iter()
                    .filter(|a| a.contains('['))
                    .cloned()
                    .collect::<Vec<_>>()
                {
                    self.name_evaluated(&arg);
                }
            }
            _ => {}
        }
    }

    /// `-v NAME` in `test`, `[` and `[[`.
    fn tested_names(&mut self, args: &[String]) {
        let names: Vec<String> = args
            .windows(2)
            .filter(|w| w[0] == "-v")
            .map(|w| w[1].clone())
            .collect();
        for name in names {
            self.name_evaluated(&name);
        }
    }

    /// `declare [-i] [-n] NAME[=VALUE]...` and its kin.
    fn declared(&mut self, args: &[String]) {
        let options: String = args
            .iter()
            .filter(|a| a.starts_with('-'))
            .map(|a| a.as_str())
            .collect();
        for arg in args.iter().filter(|a| !a.starts_with(['-', '+'])) {
            let (name, value) = match split_name_value(arg) {
                Some((name, value)) => (name, Some(value)),
                None => (arg.as_str(), None),
            };
            let base = self.name_evaluated(name).to_string();
            if options.contains('i') {
                self.integers.insert(base);
                if let Some(value) = value {
                    self.arith_text(value);
                }
            } else if options.contains('n') {
                // A name reference's value is a name, evaluated wherever
                // the reference is used.
                if let Some(value) = value {
                    self.name_evaluated(value);
                }
            }
        }
    }

    /// A variable name as a builtin or an assignment takes it: the subscript
    /// of `a[i]` is evaluated. Returns the name without its subscript.
    pub(super) fn name_evaluated<'n>(&mut self, name: &'n str) -> &'n str {
        match name.split_once('[') {
            Some((base, rest)) => {
                let index = rest.strip_suffix(']').unwrap_or(rest);
                self.arith_text(index);
                base
            }
            None => name,
        }
    }
}

/// `NAME=VALUE`, `NAME+=VALUE` or `NAME[INDEX]=VALUE` split at the `=`
/// that ends the name (an index may hold `=` of its own); `None` without one.
pub(super) fn split_name_value(word: &str) -> Option<(&str, &str)> {
    let name_end = match word.find(['[', '=']) {
        Some(at) if word[at..].starts_with('[') => {
            let mut depth = 0usize;
            let close = word[at..].char_indices().find_map(|(i, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(at + i + 1)
            })?;
            close
        }
        Some(at) => at,
        None => return None,
    };
    let rest = &word[name_end..];
    let value = rest.strip_prefix('=').or_else(|| rest.strip_prefix("+="))?;
    let name = &word[..name_end];
    Some((name.trim_end_matches('+'), value))
}

/// The names of variables in an arithmetic text: words that start with a
/// letter or `_` (a number's digits and `0x` prefixes are not names).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            let c = bytes[at];
            if c.is_ascii_alphanumeric() || c == b'_' {
                while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                    at += 1;
                }
                if !c.is_ascii_digit() {
                    return Some(&text[start..at]);
                }
            } else {
                at += 1;
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::{identifiers, split_name_value};

    #[test]
    fn names_end_where_their_index_does() {
        assert_eq!(split_name_value("x=1"), Some(("x", "1")));
        assert_eq!(split_name_value("x+=1"), Some(("x", "1")));
        assert_eq!(
            split_name_value("a[$(dd if=x)]=1"),
            Some(("a[$(dd if=x)]", "1"))
        );
        assert_eq!(split_name_value("a[b[1]]+=v=w"), Some(("a[b[1]]", "v=w")));
        assert_eq!(split_name_value("a[x"), None);
        assert_eq!(split_name_value("plain"), None);
    }

    #[test]
    fn identifiers_are_names_not_numbers() {
        let found: Vec<&str> = identifiers("a[x+1] * 0x1f + _y2 - 3e").collect();
        assert_eq!(found, ["a", "x", "_y2"]);
        assert_eq!(identifiers("é+b").collect::<Vec<_>>(), ["b"]);
    }
}
