//! The other names code gives modules and functions: `import os as o`, `from os import system as s`, `const {execSync: x} = require(...)`, `local e = os.execute`, `f = getattr(os, 'system')`, `m = method(:system)`.

use std::collections::{HashMap, HashSet};

use once_cell::sync::Lazy;
use regex::Regex;

use super::calls::interesting;
use super::indirect::{is_word, PROCESS_MODULES};
use super::view::{Recv, Span, View};
use super::Lang;

/// Longest expression read as a module or function reference: a longer
/// one names neither, and reading it again for every assignment of a chain
/// (`a = b = c = ...`) would cost the square of its length.
const MAX_REFERENCE: usize = 256;
/// What a name was given: a module, a function of one, or a function of
/// one whose name is computed at run time.
enum Ref {
    Module(String),
    Function(String, String),
    Computed,
}

/// The other names the code gives modules and functions.
#[derive(Default)]
pub(super) struct Aliases {
    /// Local names of functions: `s` for `os.system`, as (module, name).
    functions: HashMap<String, (String, String)>,
    /// Local names of modules: `o` for `os`, `cp` for `child_process`.
    modules: HashMap<String, String>,
    /// Names given a function picked by a computed name (`f = getattr(os, n)`).
    computed: HashSet<String>,
}

/// Go's `import name "path/pkg"`.
static GO_IMPORT: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r#"(?m)^[\t\n\x0B\x0C\r ]*(?:import[\t\n\x0B\x0C\r ]+)?([0-9A-Za-z_]+)[\t\n\x0B\x0C\r ]+"(?:[[0-9A-Za-z_].-]+/)*([0-9A-Za-z_]+)""#)
        .expect("go import regex is valid")
});

impl Aliases {
    pub fn find(v: &View, lang: Lang) -> Aliases {
        let mut out = Aliases::default();
        match lang {
            Lang::Python => python_imports(v, &mut out),
            Lang::Node => js_imports(v, &mut out),
            Lang::Go => {
                for caps in GO_IMPORT.captures_iter(v.src) {
                    if let (Some(local), Some(package)) = (caps.get(1), caps.get(2)) {
                        if local.as_str() != "import" {
                            out.modules
                                .insert(local.as_str().into(), package.as_str().into());
                        }
                    }
                }
            }
            _ => {}
        }
        // Assignments that name a module or a function of one.
        for (name, rhs) in v.assigned() {
            let name = name.trim_start_matches('$');
            match out.reference(v, rhs) {
                Some(Ref::Module(m)) => {
                    out.modules.insert(name.to_string(), m);
                }
                Some(Ref::Function(m, f)) => {
                    out.functions.insert(name.to_string(), (m, f));
                }
                Some(Ref::Computed) => {
                    out.computed.insert(name.to_string());
                }
                None => {}
            }
        }
        out
    }

    /// Whether `name` was given a function picked by a computed name.
    pub fn computed(&self, name: &str) -> bool {
        self.computed.contains(name)
    }

    /// Whether `name` is a local name worth reading calls of.
    pub fn renames(&self, name: &str) -> bool {
        self.functions.contains_key(name) || self.computed.contains(name)
    }

    /// The name a call really calls and the module it belongs to.
    pub fn resolve(&self, v: &View, name: &str, recv: Option<Recv>) -> (String, String) {
        // R's `do.call(f, args)` is read with the other callers.
        if name == "call" && recv.is_some_and(|r| v.text(r.name) == "do") {
            return ("do.call".into(), String::new());
        }
        match recv {
            None => match self.functions.get(name) {
                Some((module, function)) => (function.clone(), self.module_name(module)),
                None => (name.to_string(), String::new()),
            },
            Some(r) => {
                let module = self
                    .module_expr(v.text(r.span))
                    .unwrap_or_else(|| self.module_name(v.text(r.name)));
                (name.to_string(), module)
            }
        }
    }

    fn module_name(&self, name: &str) -> String {
        let name = name.trim_start_matches('$');
        let name = self.modules.get(name).map_or(name, String::as_str);
        // `os/exec` is Go's `exec`; `node:child_process` is `child_process`.
        name.rsplit(['/', ':']).next().unwrap_or(name).to_string()
    }

    /// The module an expression stands for: `require('child_process')`,
    /// `__import__('os')`, `sys.modules['os']`, `_G.os`, or a local name.
    pub(super) fn module_expr(&self, text: &str) -> Option<String> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let ident = compact.trim_start_matches('$');
        if !ident.is_empty()
            && ident
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            return Some(self.module_name(ident));
        }
        if let Some(name) = loaded_module(&compact) {
            return Some(self.module_name(name));
        }
        let inner = compact
            .strip_prefix("vars(")
            .and_then(|r| r.strip_suffix(')'))
            .or_else(|| compact.strip_suffix(".__dict__"))?;
        self.module_expr(inner)
    }

    /// What an assigned expression names, if a module or a function.
    fn reference(&self, v: &View, rhs: Span) -> Option<Ref> {
        let (a, b) = v.trim(rhs);
        if b - a > MAX_REFERENCE {
            return None;
        }
        let text = v.text((a, b));
        let compact = text.replace(char::is_whitespace, "");
        if let Some(name) = loaded_module(&compact) {
            return Some(Ref::Module(self.module_name(name)));
        }
        // `getattr(M, N)`, `M[N]`, `method(:n)`, `\&name`.
        if let Some((module, name)) = self.picked(v, (a, b)) {
            return match name {
                Some(name) => Some(Ref::Function(module, name)),
                None => PROCESS_MODULES
                    .contains(&module.as_str())
                    .then_some(Ref::Computed),
            };
        }
        if let Some(name) = text.strip_prefix("\\&") {
            return Some(Ref::Function(String::new(), perl_name(name)));
        }
        // `M.attr`: a function taken without calling it.
        let dot = text.rfind(['.', ':'])?;
        let (module, attr) = (&text[..dot].trim_end_matches(':'), &text[dot + 1..]);
        let plain =
            |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
        if !plain(attr) || !interesting(attr) {
            return None;
        }
        let module = self.module_expr(module)?;
        Some(Ref::Function(module, attr.to_string()))
    }

    /// A function picked by name from a module: `getattr(M, N)`, `M[N]`,
    /// Ruby's `method(:n)`; the module and the name, if constant.
    pub(super) fn picked(&self, v: &View, (a, b): Span) -> Option<(String, Option<String>)> {
        if b == 0 {
            return None;
        }
        match v.byte(b - 1) {
            b')' => {
                let open = v.partner(b - 1)?;
                let callee = v.text(v.trim((a, open)));
                let args = v.paren_args(open)?;
                let (recv, word) = match callee.rsplit_once('.') {
                    Some((r, w)) => (r, w),
                    None => ("", callee),
                };
                match word {
                    "getattr" if args.len() >= 2 => Some((
                        self.module_expr(v.text(args[0].value)).unwrap_or_default(),
                        name_value(v, args[1].value),
                    )),
                    "method" | "public_method" if !args.is_empty() => Some((
                        self.module_expr(recv).unwrap_or_default(),
                        name_value(v, args[0].value),
                    )),
                    "fun" if recv == "match" && !args.is_empty() => {
                        Some((String::new(), name_value(v, args[0].value)))
                    }
                    _ => None,
                }
            }
            b']' => {
                let open = v.partner(b - 1)?;
                let module = self.module_expr(v.text(v.trim((a, open))))?;
                Some((module, name_value(v, (open + 1, b - 1))))
            }
            _ => None,
        }
    }
}

/// Python's `import a, b as c` and `from m import f as g`: the local names
/// of modules and functions.
fn python_imports(v: &View, out: &mut Aliases) {
    for (at, _) in v.src.match_indices("import") {
        let end = at + "import".len();
        let bounded = (at == 0 || !is_word(v.byte(at - 1))) && !is_word(v.byte(end));
        if !bounded || !v.is_code(at) {
            continue;
        }
        let before = window(v.src, at.saturating_sub(MAX_STATEMENT), at);
        let head = match before.rfind([';', '\n']) {
            Some(p) => &before[p + 1..],
            None if before.len() == at => before,
            None => continue,
        }
        .trim();
        let tail = window(v.src, end, end + MAX_STATEMENT);
        let tail = &tail[..tail.find([';', '\n']).unwrap_or(tail.len())];
        let from = match head.strip_prefix("from ") {
            Some(module) => Some(module.trim()),
            None if head.is_empty() => None,
            None => continue,
        };
        let names = tail.trim().trim_matches(['(', ')']);
        for item in names.split(',') {
            let mut words = item.split_whitespace();
            let (Some(name), alias) = (words.next(), words.nth(1)) else {
                continue;
            };
            let local = alias.unwrap_or(name).to_string();
            match from {
                Some(module) => {
                    let entry = (module.to_string(), name.to_string());
                    out.functions.insert(local, entry);
                }
                None => {
                    out.modules.insert(local, name.to_string());
                }
            }
        }
    }
}

/// Most of a statement read around an import: import statements are short,
/// and reading to the end of each of many on one line would cost the square
/// of its length.
const MAX_STATEMENT: usize = 512;

/// `s[from..to]`, clamped to its length and to character boundaries.
fn window(s: &str, from: usize, to: usize) -> &str {
    let mut from = from.min(s.len());
    let mut to = to.min(s.len());
    while !s.is_char_boundary(from) {
        from += 1;
    }
    while to > from && !s.is_char_boundary(to) {
        to -= 1;
    }
    &s[from..to.max(from)]
}

/// JavaScript's `const {a: b, c} = require('m')`, `import {a as b} from
/// 'm'`, `import * as m from 'm'` and `import m from 'm'`.
fn js_imports(v: &View, out: &mut Aliases) {
    for (close, _) in v.src.match_indices('}') {
        let Some(open) = v.partner(close).filter(|&o| o < close && v.is_code(o)) else {
            continue;
        };
        let after = v.src[close + 1..].trim_start();
        let module = if let Some(rest) = after.strip_prefix('=') {
            let rest = rest.trim_start();
            let rest = rest.strip_prefix("await ").unwrap_or(rest).trim_start();
            let rest = window(rest, 0, MAX_STATEMENT);
            let end = rest.find(')').map_or(rest.len(), |e| e + 1);
            loaded_module(&rest[..end].replace(char::is_whitespace, "")).map(str::to_string)
        } else if let Some(rest) = after.strip_prefix("from") {
            literal_prefix(rest.trim_start())
        } else {
            None
        };
        let Some(module) = module else {
            continue;
        };
        for item in v.src[open + 1..close].split(',') {
            let item = item.split('=').next().unwrap_or("");
            let (name, local) = match item.split_once(':') {
                Some((n, l)) => (n.trim(), l.trim()),
                None => match item.split_once(" as ") {
                    Some((n, l)) => (n.trim(), l.trim()),
                    None => (item.trim(), item.trim()),
                },
            };
            if !name.is_empty() && !local.is_empty() {
                let entry = (module.clone(), name.to_string());
                out.functions.insert(local.to_string(), entry);
            }
        }
    }
    for (at, _) in v.src.match_indices("import ") {
        if !v.is_code(at) || (at > 0 && is_word(v.byte(at - 1))) {
            continue;
        }
        let rest = v.src[at + "import ".len()..].trim_start();
        let rest = rest.strip_prefix("* as ").unwrap_or(rest).trim_start();
        let len = rest.bytes().take_while(|&c| is_word(c)).count();
        let (local, tail) = rest.split_at(len);
        let Some(tail) = tail.trim_start().strip_prefix("from") else {
            continue;
        };
        if let (false, Some(module)) = (local.is_empty(), literal_prefix(tail.trim_start())) {
            out.modules.insert(local.to_string(), module);
        }
    }
}

/// The module name quoted at the start of `text` (`'node:fs'` is `fs`).
fn literal_prefix(text: &str) -> Option<String> {
    let q = text.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let end = window(text, 1, MAX_STATEMENT).find(q)? + 1;
    let inner = &text[1..end];
    Some(inner.strip_prefix("node:").unwrap_or(inner).to_string())
}

/// The module named by a quoted string that `rest` starts with and `close`
/// ends (`'os')`, `"node:fs"]`), when it is a plain module name.
fn quoted_module(rest: &str, close: char) -> Option<&str> {
    let q = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let inner = rest[1..].strip_suffix(close)?.strip_suffix(q)?;
    let inner = inner.strip_prefix("node:").unwrap_or(inner);
    let plain = |c: u8| c.is_ascii_alphanumeric() || b"_.-/".contains(&c);
    (!inner.is_empty() && inner.bytes().all(plain)).then_some(inner)
}

/// The calls that load a module by name, each with its `(`.
const LOADING_CALLS: [&str; 4] = ["__import__(", "import_module(", "require(", "import("];

/// The module an expression loads: `require('x')`, `__import__('x')`,
/// `importlib.import_module('x')`, `sys.modules['x']`, `_G.x`, `_G['x']`
/// (written without spaces).
fn loaded_module(compact: &str) -> Option<&str> {
    // A loading call is a chain of names ending in one of these and `(`:
    // with no `(` before it, it ends at the text's first `(`, so that is
    // the only place to look (a later one has a `(` in its chain).
    if let Some(open) = compact.find('(') {
        let head = &compact[..=open];
        for call in LOADING_CALLS {
            if let Some(prefix) = head.strip_suffix(call) {
                let chain = prefix.bytes().all(|c| is_word(c) || c == b'.');
                if chain && (prefix.is_empty() || prefix.ends_with('.')) {
                    return quoted_module(&compact[open + 1..], ')');
                }
            }
        }
    }
    if let Some(rest) = compact.strip_prefix("sys.modules[") {
        return quoted_module(rest, ']');
    }
    let rest = compact.strip_prefix("_G")?;
    if let Some(name) = rest.strip_prefix('.') {
        return name.bytes().all(is_word).then_some(name);
    }
    quoted_module(rest.strip_prefix('[')?, ']')
}

/// The function name an expression computes: a string, or a Ruby symbol.
pub(super) fn name_value(v: &View, span: Span) -> Option<String> {
    let text = v.text(v.trim(span));
    if let Some(symbol) = text.strip_prefix(':') {
        if symbol
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            return Some(symbol.to_string());
        }
    }
    let value = v.value(span, false)?.text;
    let value = value.trim_start_matches(':');
    let name = perl_name(value.trim_start_matches("\\&"));
    (!name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
        .then_some(name)
}

/// `CORE::system`, `main::f`, `::f` as the function they name.
pub(super) fn perl_name(name: &str) -> String {
    name.rsplit("::").next().unwrap_or(name).to_string()
}

#[cfg(test)]
mod tests {
    use super::super::{read, Action, Lang};

    #[test]
    fn a_loading_call_is_found_where_a_search_for_each_call_found_it() {
        // What it answered when it searched for each call in turn.
        let by_search = |compact: &str| -> Option<String> {
            for call in super::LOADING_CALLS {
                if let Some(at) = compact.find(call) {
                    let prefix = &compact[..at];
                    let chain = prefix.bytes().all(|c| super::is_word(c) || c == b'.');
                    if chain && (prefix.is_empty() || prefix.ends_with('.')) {
                        return super::quoted_module(&compact[at + call.len()..], ')')
                            .map(str::to_string);
                    }
                }
            }
            None
        };
        let parts = [
            "require(",
            "import(",
            "__import__(",
            "importlib.import_module(",
            "x.",
            "f(",
            "'os'",
            "\"os\"",
            ")",
            "node:",
            "a",
            "(",
        ];
        for text in super::super::tests::every_string(&parts, 3) {
            // No `sys.modules[` or `_G` among the parts: only calls load.
            let found = super::loaded_module(&text).map(str::to_string);
            assert_eq!(found, by_search(&text), "{text}");
        }
    }

    fn shell(code: &str, lang: Lang) -> Vec<String> {
        read(code, lang, None)
            .effects
            .into_iter()
            .filter_map(|e| match e.action {
                Action::Shell(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn aliases_resolve() {
        for (lang, code) in [
            (Lang::Python, "from os import system as s; s('reboot')"),
            (Lang::Python, "import os as o; o.system('reboot')"),
            (
                Lang::Python,
                "import subprocess as sp\nsp.run('reboot', shell=True)",
            ),
            (Lang::Python, "f = os.system\nf('reboot')"),
            (
                Lang::Node,
                "const {execSync: x} = require('child_process'); x('reboot')",
            ),
            (
                Lang::Node,
                "import { execSync as run } from 'node:child_process'; run('reboot')",
            ),
            (
                Lang::Node,
                "const x = require('child_process').execSync; x('reboot')",
            ),
            (Lang::Lua, "local e = os.execute; e('reboot')"),
        ] {
            assert_eq!(shell(code, lang), ["reboot"], "{code}");
        }
    }
}
