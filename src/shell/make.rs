//! `make` and its makefiles: the recipes of a makefile are shell command lines that make runs, with make's own expansions done first.

use super::command::Command;
use super::eval::{file_key, Eval};
use super::programs::option_value;

impl Eval<'_> {
    /// `make` with a makefile this line wrote: each recipe is a shell
    /// command line make runs (`printf 'all:\n\tCMD\n' > Makefile && make`).
    pub(super) fn make(&mut self, cmd: &Command) {
        let text = makefiles(cmd)
            .iter()
            .find_map(|path| self.files.get(&file_key(path)).cloned());
        for recipe in text.as_deref().map(make_recipes).unwrap_or_default() {
            self.reanalyze(&recipe, "make recipe", None);
        }
    }
}

/// The makefiles `make` reads, as it looks for them: the one `-f` names,
/// else `GNUmakefile`, `makefile` and `Makefile`, in the directory `-C` names.
pub fn makefiles(cmd: &Command) -> Vec<String> {
    let named = option_value(&cmd.args, &["-f", "--file", "--makefile"]);
    let names: Vec<&str> = match &named {
        Some(file) => vec![file.as_str()],
        None => vec!["GNUmakefile", "makefile", "Makefile"],
    };
    let dir = option_value(&cmd.args, &["-C", "--directory"]);
    names
        .into_iter()
        .map(|name| match &dir {
            Some(d) if !name.starts_with('/') => format!("{}/{name}", d.trim_end_matches('/')),
            _ => name.to_string(),
        })
        .collect()
}

/// Variables make defines itself, as GNU make's manual lists them.
#[rustfmt::skip]
const MAKE_DEFAULTS: &[(&str, &str)] = &[
    ("CC", "cc"), ("CXX", "g++"), ("CPP", "cc -E"), ("AR", "ar"), ("AS", "as"), ("LD", "ld"),
    ("RM", "rm -f"), ("MAKE", "make"), ("FC", "f77"), ("LEX", "lex"), ("YACC", "yacc"),
];

/// The recipe lines of a makefile as the shell commands make runs: lines
/// that start with a tab (joined where they end in `\\`) and the text
/// after `;` on a rule's line, without make's `@`, `-` and `+` prefixes;
/// `$$` is the shell's `$`, `$(shell CMD)` a command substitution and
/// `$(NAME)` the makefile's or make's own value of NAME, else a variable
/// the shell does not know.
pub(super) fn make_recipes(text: &str) -> Vec<String> {
    let mut vars: Vec<(String, String)> = MAKE_DEFAULTS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut recipes: Vec<String> = Vec::new();
    let mut continued = false;
    for line in text.lines() {
        let recipe = if continued {
            // make drops a continued line's leading tab too.
            Some(line.strip_prefix('\t').unwrap_or(line))
        } else if let Some(body) = line.strip_prefix('\t') {
            Some(body)
        } else if let Some((name, value)) = make_assignment(line) {
            vars.push((name.to_string(), value.to_string()));
            None
        } else if !line.starts_with([' ', '#']) && line.contains(':') {
            line.split_once(';').map(|(_, body)| body)
        } else {
            None
        };
        let Some(recipe) = recipe else {
            continue;
        };
        let body = recipe.trim_end_matches('\\');
        if continued {
            if let Some(last) = recipes.last_mut() {
                last.push(' ');
                last.push_str(body);
            }
        } else {
            recipes.push(
                body.trim_start_matches(['@', '-', '+', ' ', '\t'])
                    .to_string(),
            );
        }
        continued = recipe.ends_with('\\');
    }
    recipes.iter().map(|r| make_to_shell(r, &vars, 0)).collect()
}

/// `NAME = value` (or `:=`, `::=`, `?=`, `+=`): a makefile's variable.
fn make_assignment(line: &str) -> Option<(&str, &str)> {
    let (left, value) = line.split_once('=')?;
    let name = left.trim_end().trim_end_matches([':', '?', '+']).trim();
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
    (plain && !line.starts_with('\t')).then(|| (name, value.trim()))
}

/// Make's expansions in a recipe as the shell would see what make hands it.
fn make_to_shell(recipe: &str, vars: &[(String, String)], depth: usize) -> String {
    let mut out = String::with_capacity(recipe.len());
    let mut rest = recipe;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(more) = after.strip_prefix('$') {
            out.push('$');
            rest = more;
        } else if let Some(more) = after.strip_prefix("(shell ") {
            out.push_str("$(");
            rest = more;
        } else if let Some((name, more)) = after
            .strip_prefix(['(', '{'])
            .and_then(|a| a.split_once([')', '}']))
            .filter(|(n, _)| n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        {
            // The last definition wins; one defined in terms of others is
            // expanded a few levels deep.
            match vars.iter().rev().find(|(k, _)| k == name) {
                Some((_, value)) if depth < 4 => {
                    out.push_str(&make_to_shell(value, vars, depth + 1))
                }
                _ => out.push_str(&format!("${{{name}}}")),
            }
            rest = more;
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_as_the_shell_sees_them() {
        let text = "CC := gcc\nOUT = ~/x\n# note\nall: dep ; echo $(OUT)\n\t@$(CC) -o a a.c \\\n\t  -O2\n\t-rm -f $$TMP $(UNSET)\n\t$(shell id)\n";
        assert_eq!(
            make_recipes(text),
            [
                "echo ~/x",
                "gcc -o a a.c    -O2",
                "rm -f $TMP ${UNSET}",
                "$(id)",
            ]
        );
    }
}
