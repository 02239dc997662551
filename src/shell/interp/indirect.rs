//! Calls reached by another name: aliases (`import os as o`, `from os import system as s`, `const {execSync: x} = require(...)`, `local e = os.execute`) and calls by a name computed at run time (`getattr(os, n)`, `cp['ex'+'ecSync']`, `Kernel.send(:system)`, `method(:system).call`, PHP's `$f()` and `call_user_func`, Perl's `&$f()`), resolved where the name is constant and asked about where it is not.

use std::collections::{HashMap, HashSet};

use once_cell::sync::Lazy;
use regex::Regex;

use super::calls::{interesting, Reader};
use super::lex::Dialect;
use super::view::{Arg, Recv, Span, View};
use super::{Concern, Lang};

/// Modules (and global objects) whose functions run commands or evaluate
/// code: one of their functions reached by a computed name may be any of
/// them.
#[rustfmt::skip]
const PROCESS_MODULES: &[&str] = &[
    "os", "posix", "nt", "subprocess", "pty", "commands", "popen2", "child_process", "Kernel",
    "Object", "Open3", "IO", "Process", "PTY", "builtins", "__builtins__",
    "globalThis", "global", "window", "_G", "io", "exec", "syscall", "Runtime", "getRuntime",
];

/// Whether a call of `name` on `module` surely starts a program, so that
/// one whose program is unknown is worth asking about. Common names
/// (`run`, `call`, `exec`, `spawn`) count only on the modules that own them.
pub(super) fn runs_commands(lang: Lang, module: &str, name: &str) -> bool {
    let bare = module.is_empty();
    match name {
        "run" | "call" => module == "subprocess" || (lang == Lang::Julia && bare),
        "exec" => {
            matches!(module, "child_process" | "getRuntime" | "Runtime")
                || (bare || matches!(module, "Kernel" | "Process"))
                    && matches!(lang, Lang::Perl | Lang::Ruby | Lang::Php)
        }
        "spawn" => {
            matches!(
                module,
                "child_process" | "Process" | "Kernel" | "pty" | "Bun"
            ) || (bare && lang == Lang::Ruby)
        }
        "execute" => module == "os",
        "Command" | "CommandContext" => matches!(module, "exec" | "Deno"),
        "Exec" | "StartProcess" | "ForkExec" => matches!(module, "syscall" | "os"),
        "shell" => lang == Lang::R,
        "system" => !(lang == Lang::Python && bare),
        "open" => false,
        _ => true,
    }
}

/// Longest expression read as a module or function reference: a longer
/// one names neither, and reading it again for every assignment of a chain
/// (`a = b = c = ...`) would cost the square of its length.
const MAX_REFERENCE: usize = 256;
/// Most links (`.x`, `(...)`, `[...]`) followed back from a call.
const MAX_LINKS: usize = 16;

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
    fn module_expr(&self, text: &str) -> Option<String> {
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
    fn picked(&self, v: &View, (a, b): Span) -> Option<(String, Option<String>)> {
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

/// The module an expression loads: `require('x')`, `__import__('x')`,
/// `importlib.import_module('x')`, `sys.modules['x']`, `_G.x`, `_G['x']`
/// (written without spaces).
fn loaded_module(compact: &str) -> Option<&str> {
    fn quoted(rest: &str, close: char) -> Option<&str> {
        let q = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
        let inner = rest[1..].strip_suffix(close)?.strip_suffix(q)?;
        let inner = inner.strip_prefix("node:").unwrap_or(inner);
        let plain = |c: u8| c.is_ascii_alphanumeric() || b"_.-/".contains(&c);
        (!inner.is_empty() && inner.bytes().all(plain)).then_some(inner)
    }
    for call in ["__import__(", "import_module(", "require(", "import("] {
        if let Some(at) = compact.find(call) {
            let prefix = &compact[..at];
            let chain = prefix.bytes().all(|c| is_word(c) || c == b'.');
            if chain && (prefix.is_empty() || prefix.ends_with('.')) {
                return quoted(&compact[at + call.len()..], ')');
            }
        }
    }
    if let Some(rest) = compact.strip_prefix("sys.modules[") {
        return quoted(rest, ']');
    }
    let rest = compact.strip_prefix("_G")?;
    if let Some(name) = rest.strip_prefix('.') {
        return name.bytes().all(is_word).then_some(name);
    }
    quoted(rest.strip_prefix('[')?, ']')
}

/// The function name an expression computes: a string, or a Ruby symbol.
fn name_value(v: &View, span: Span) -> Option<String> {
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
fn perl_name(name: &str) -> String {
    name.rsplit("::").next().unwrap_or(name).to_string()
}

/// PHP `$f(...)`, Perl `&$f(...)` and `$f->(...)`: a call through a variable.
static VARIABLE_CALL: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(&?)\$([0-9A-Za-z_]+)[\t\n\x0B\x0C\r ]*(->[\t\n\x0B\x0C\r ]*)?\(")
        .expect("variable call regex is valid")
});

/// Functions that call the function named by their first argument, and
/// Node's `process.binding`.
#[rustfmt::skip]
pub(super) const CALLERS: &[&str] = &[
    "call_user_func", "call_user_func_array", "array_map", "register_shutdown_function",
    "forward_static_call", "forward_static_call_array", "send", "public_send", "__send__",
    "method", "public_method", "binding", "_linkedBinding",
];

/// Reads the calls the code makes by computed names; `tokens` are the
/// names in code worth a look.
pub(super) fn calls(r: &mut Reader, tokens: &[Span]) {
    let v = r.view;
    // `getattr(M, N)(...)`, `M[N](...)`, `(expr)(...)`, `&{expr}(...)`.
    let mut sites = Vec::new();
    for (j, _) in v.src.match_indices('(') {
        let mut k = j;
        while k > 0 && v.byte(k - 1) == b' ' {
            k -= 1;
        }
        if k > 0 && matches!(v.byte(k - 1), b')' | b']' | b'}') && v.is_code(j) {
            sites.push((k - 1, j));
        }
    }
    for (close, open) in sites {
        picked_call(r, close, open);
    }
    if matches!(v.d, Dialect::Php | Dialect::Perl) && v.src.contains('$') {
        for caps in VARIABLE_CALL.captures_iter(v.src) {
            let (Some(all), Some(var)) = (caps.get(0), caps.get(2)) else {
                continue;
            };
            let amp = caps.get(1).is_some_and(|m| !m.as_str().is_empty());
            let arrow = caps.get(3).is_some();
            let start = all.start();
            let before = if start > 0 { v.byte(start - 1) } else { 0 };
            let perl_call = v.d == Dialect::Perl && (amp || arrow);
            let php_call =
                v.d == Dialect::Php && !amp && !arrow && !matches!(before, b'>' | b':' | b'$');
            if !v.is_code(start) || !(perl_call || php_call) {
                continue;
            }
            variable_call(r, var.start() - 1, var.end(), all.end() - 1);
        }
    }
    for &(start, end) in tokens {
        let recv = v.receiver(start);
        let recv_name = recv.map_or("", |rv| v.text(rv.name));
        match v.text((start, end)) {
            // Node's internal bindings reach its process spawner under no
            // name warden could follow.
            "binding" | "_linkedBinding" if recv_name == "process" && v.d == Dialect::Js => {
                if let Some((args, true)) = v.call_args(end) {
                    let last = args.last().map_or(end, |a| a.value.1 + 1);
                    r.concern(
                        Concern::Indirection,
                        (start.min(recv.map_or(start, |rv| rv.span.0)), last + 1),
                    );
                }
            }
            "call" if recv_name == "do" => {
                caller(r, recv.map_or(start, |rv| rv.span.0), end);
            }
            name if CALLERS.contains(&name) => caller(r, start, end),
            _ => {}
        }
    }
    // Names given a function picked by a computed name, then called.
    let names: Vec<Span> = super::IDENT
        .find_iter(v.src)
        .filter(|m| r.aliases.computed.contains(m.as_str()) && v.is_code(m.start()))
        .map(|m| (m.start(), m.end()))
        .collect();
    for (start, end) in names {
        let mut k = end;
        while v.byte(k) == b' ' {
            k += 1;
        }
        if v.byte(k) == b'(' && v.receiver(start).is_none() {
            let close = v.partner(k).unwrap_or(k);
            r.concern(Concern::Indirection, (start, close + 1));
        }
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// `X(...)` where `X` ends at `close` (`)`, `]` or `}`) and the arguments
/// open at `open`.
fn picked_call(r: &mut Reader, close: usize, open: usize) {
    let v = r.view;
    let Some(args) = v.paren_args(open) else {
        return;
    };
    let Some(first) = v.partner(close) else {
        return;
    };
    let start = chain_start(v, first);
    let at = (start, v.partner(open).map_or(open, |c| c + 1));
    let callee = (start, close + 1);
    let picked = match v.byte(close) {
        // Perl `&{"name"}(...)`, PHP `('name')(...)`.
        b'}' | b')' if start == first && first > 0 && v.byte(first - 1) == b'&' => {
            Some((String::new(), name_value(v, (first + 1, close))))
        }
        b')' if start == first && v.d == Dialect::Php => {
            Some((String::new(), name_value(v, (first + 1, close))))
        }
        b'}' => None,
        _ => r.aliases.picked(v, callee),
    };
    // PHP `$argv[1](...)`: a function named by data.
    if v.d == Dialect::Php && v.byte(close) == b']' && v.byte(start) == b'$' {
        r.concern(Concern::Indirection, at);
        return;
    }
    let Some((module, name)) = picked else {
        return;
    };
    let perl_or_php = matches!(v.d, Dialect::Perl | Dialect::Php) && module.is_empty();
    match name {
        Some(name) => r.apply(&name, None, &module, &args, at),
        None if perl_or_php || PROCESS_MODULES.contains(&module.as_str()) => {
            r.concern(Concern::Indirection, at)
        }
        None => {}
    }
}

/// Where an expression ending with the bracket opening at `first` starts:
/// back over `a.b`, `a::b`, `a->b`, calls and subscripts.
fn chain_start(v: &View, first: usize) -> usize {
    let mut k = first;
    for _ in 0..MAX_LINKS {
        if k > 0 && matches!(v.byte(k - 1), b')' | b']') {
            match v.partner(k - 1) {
                Some(p) if p < k - 1 => {
                    k = p;
                    continue;
                }
                _ => return k,
            }
        }
        while k > 0 && is_word(v.byte(k - 1)) {
            k -= 1;
        }
        if k >= 1 && v.byte(k - 1) == b'.' {
            k -= 1;
        } else if k >= 2 && matches!(&v.src.as_bytes()[k - 2..k], b"::" | b"->") {
            k -= 2;
        } else {
            return k;
        }
    }
    k
}

/// `$f(...)` (PHP), `&$f(...)` or `$f->(...)` (Perl): `$f` at `var`.
fn variable_call(r: &mut Reader, var: usize, end: usize, open: usize) {
    let v = r.view;
    let Some(args) = v.paren_args(open) else {
        return;
    };
    let at = (var, v.partner(open).map_or(open, |c| c + 1));
    if let Some(name) = name_value(v, (var, end)) {
        r.apply(&name, None, "", &args, at);
        return;
    }
    let rhs = v.lookup(v.text((var, end)), var).map(|s| v.text(v.trim(s)));
    if let Some(name) = rhs.and_then(|t| t.strip_prefix("\\&")) {
        r.apply(&perl_name(name), None, "", &args, at);
        return;
    }
    // A closure the code wrote itself is code warden reads where it stands.
    let closure = rhs.is_some_and(|t| {
        ["function", "fn", "static", "sub", "\\&", "Closure::"]
            .iter()
            .any(|p| t.starts_with(p))
            || t.starts_with('[')
    });
    if !closure {
        r.concern(Concern::Indirection, at);
    }
}

/// `call_user_func('system', ...)`, `Kernel.send(:system, ...)`,
/// `method(:system).call(...)`, R's `do.call("system", list(...))`.
fn caller(r: &mut Reader, start: usize, end: usize) {
    let v = r.view;
    let word = v.text((start, end));
    let method = matches!(word, "method" | "public_method");
    let ruby = matches!(word, "send" | "public_send" | "__send__") || method;
    if ruby && v.d != Dialect::Ruby {
        return;
    }
    let Some((args, _)) = v.call_args(end) else {
        return;
    };
    let Some(target) = args.first() else {
        return;
    };
    let recv = v.receiver(start);
    let module = recv
        .and_then(|rv| r.aliases.module_expr(v.text(rv.span)))
        .unwrap_or_default();
    let last = args.last().map_or(end, |a| a.value.1 + 1).min(v.len());
    let mut at = (recv.map_or(start, |rv| rv.span.0), last);
    let name = name_value(v, target.value);
    let rest: Vec<Arg> = if method {
        // `method(:system).call(ARGS)`, `.(ARGS)`, `.[ARGS]`.
        let mut k = last;
        while v.byte(k) == b' ' {
            k += 1;
        }
        let tail = v.text((k, v.len()));
        let open = if tail.starts_with(".call") {
            k + ".call".len()
        } else if tail.starts_with(".(") || tail.starts_with(".[") {
            k + 1
        } else {
            return;
        };
        let args = match v.byte(open) {
            b'(' | b'[' => v.paren_args(open).or_else(|| Some(brackets(v, open))),
            _ => v.call_args(open).map(|(a, _)| a),
        };
        at.1 = v.partner(open).map_or(at.1, |c| c + 1);
        args.unwrap_or_default()
    } else {
        args[1..].to_vec()
    };
    let Some(name) = name else {
        let closure = ["function", "fn", "static", "lambda", "proc", "->"]
            .iter()
            .any(|p| v.text(target.value).starts_with(p));
        let suspicious = match word {
            "send" | "public_send" | "__send__" | "method" | "public_method" => {
                matches!(module.as_str(), "" | "self" | "main")
                    || PROCESS_MODULES.contains(&module.as_str())
            }
            _ => !closure,
        };
        if suspicious {
            r.concern(Concern::Indirection, at);
        }
        return;
    };
    match word {
        // The arguments come as one list.
        "call_user_func_array" | "forward_static_call_array" | "do.call" => {
            let items = rest
                .first()
                .and_then(|a| v.list_items(a.value))
                .unwrap_or_default();
            let args: Vec<Arg> = items.into_iter().map(|s| v.arg(s)).collect();
            r.apply(&name, None, "", &args, at);
        }
        // `array_map('system', ['a', 'b'])` calls it on each item.
        "array_map" => {
            for list in &rest {
                for item in v.list_items(list.value).unwrap_or_default() {
                    r.apply(&name, None, "", &[v.arg(item)], at);
                }
            }
        }
        _ => r.apply(&name, None, &module, &rest, at),
    }
}

/// The items between `[` and its partner, for `m.[x]`.
fn brackets(v: &View, open: usize) -> Vec<Arg> {
    let close = v.partner(open).unwrap_or(open);
    v.list_items((open, close + 1))
        .unwrap_or_default()
        .into_iter()
        .map(|s| v.arg(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{read, Action, Concern, Lang, Reading};

    fn shell(reading: &Reading) -> Vec<String> {
        reading
            .effects
            .iter()
            .filter_map(|e| match &e.action {
                Action::Shell(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    fn concerns(reading: &Reading) -> Vec<Concern> {
        reading.concerns.iter().map(|(c, _)| *c).collect()
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
            assert_eq!(shell(&read(code, lang)), ["reboot"], "{code}");
        }
    }

    #[test]
    fn constant_names_resolve() {
        for (lang, code) in [
            (
                Lang::Python,
                "import os; getattr(os, 'sys'+'tem')('reboot')",
            ),
            (
                Lang::Python,
                "getattr(__import__('os'), 'system')('reboot')",
            ),
            (Lang::Python, "f = getattr(os, 'system'); f('reboot')"),
            (
                Lang::Node,
                "require('child_process')['ex'+'ecSync']('reboot')",
            ),
            (Lang::Ruby, "Kernel.send(:system, 'reboot')"),
            (Lang::Ruby, "Kernel.public_send('system', 'reboot')"),
            (Lang::Ruby, "method(:system).call('reboot')"),
            (Lang::Php, "$f = 'sys' . 'tem'; $f('reboot');"),
            (Lang::Php, "call_user_func('system', 'reboot');"),
            (Lang::Php, "call_user_func_array('system', ['reboot']);"),
            (Lang::Php, "('sys'.'tem')('reboot');"),
            (Lang::Perl, "my $f = 'sys' . 'tem'; &$f('reboot')"),
            (Lang::Perl, "&{'CORE::system'}('reboot')"),
            (Lang::Lua, "os['exe'..'cute']('reboot')"),
            (Lang::R, "do.call('system', list('reboot'))"),
        ] {
            assert_eq!(shell(&read(code, lang)), ["reboot"], "{code}");
        }
    }

    #[test]
    fn computed_names_ask() {
        for (lang, code) in [
            (Lang::Python, "import os; n = input(); getattr(os, n)('x')"),
            (Lang::Python, "f = getattr(os, sys.argv[1]); f('x')"),
            (
                Lang::Node,
                "const cp = require('child_process'); cp[process.argv[1]]('x')",
            ),
            (Lang::Node, "process.binding('spawn_sync').spawn({})"),
            (Lang::Ruby, "Kernel.send(ARGV[0], 'x')"),
            (Lang::Php, "$f = $argv[1]; $f('x');"),
            (Lang::Php, "$argv[1]('x');"),
            (Lang::Php, "call_user_func($argv[1], 'x');"),
            (Lang::Perl, "&{$ARGV[0]}('x')"),
            (Lang::Perl, "my $f = shift; $f->('x')"),
        ] {
            assert!(
                concerns(&read(code, lang)).contains(&Concern::Indirection),
                "{code}"
            );
        }
    }

    #[test]
    fn ordinary_indirection_is_left_alone() {
        for (lang, code) in [
            (Lang::Python, "print(getattr(obj, name))"),
            (Lang::Python, "getattr(self, 'handle_' + kind)(event)"),
            (Lang::Node, "handlers[name](event)"),
            (Lang::Ruby, "obj.send(name, 1)"),
            (
                Lang::Php,
                "$f = function($x) { return $x * 2; }; echo $f(2);",
            ),
            (Lang::Php, "echo array_map(fn($x) => $x * 2, [1, 2])[0];"),
            (Lang::Perl, "my $f = sub { print @_ }; $f->('x')"),
            (Lang::Ruby, "[1, 2].map(&method(:puts))"),
        ] {
            let reading = read(code, lang);
            assert!(
                reading.concerns.is_empty(),
                "{code}: {:?}",
                reading.concerns
            );
            assert!(shell(&reading).is_empty(), "{code}");
        }
    }
}
