//! Calls by a name computed at run time (`getattr(os, n)`, `cp['ex'+'ecSync']`, `Kernel.send(:system)`, `method(:system).call`, PHP's `$f()` and `call_user_func`, Perl's `&$f()`), resolved where the name is constant and asked about where it is not; and which calls surely start a program.

use once_cell::sync::Lazy;
use regex::Regex;

use super::aliases::{name_value, perl_name};
use super::calls::Reader;
use super::lex::Dialect;
use super::view::{Arg, Span, View};
use super::{Concern, Lang};

/// Modules (and global objects) whose functions run commands or evaluate
/// code: one of their functions reached by a computed name may be any of
/// them.
#[rustfmt::skip]
pub(super) const PROCESS_MODULES: &[&str] = &[
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
    let names: Vec<Span> = super::idents::JS
        .find(v.src)
        .filter(|&(start, end)| r.aliases.computed(&v.src[start..end]) && v.is_code(start))
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

pub(super) fn is_word(c: u8) -> bool {
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

/// Most links (`.x`, `(...)`, `[...]`) followed back from a call.
const MAX_LINKS: usize = 16;

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
        let Some((args, close)) = method_call(v, last) else {
            return;
        };
        at.1 = close.map_or(at.1, |c| c + 1);
        args
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

/// `method(:system).call(ARGS)`, `.(ARGS)`, `.[ARGS]` after `last`: the
/// arguments the method object is called with, and the call's closing
/// bracket when found; `None` when the object is not called there.
fn method_call(v: &View, last: usize) -> Option<(Vec<Arg>, Option<usize>)> {
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
        return None;
    };
    let args = match v.byte(open) {
        b'(' | b'[' => v.paren_args(open).or_else(|| Some(brackets(v, open))),
        _ => v.call_args(open).map(|(a, _)| a),
    };
    Some((args.unwrap_or_default(), v.partner(open)))
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
            assert_eq!(shell(&read(code, lang, None)), ["reboot"], "{code}");
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
                concerns(&read(code, lang, None)).contains(&Concern::Indirection),
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
            let reading = read(code, lang, None);
            assert!(
                reading.concerns.is_empty(),
                "{code}: {:?}",
                reading.concerns
            );
            assert!(shell(&reading).is_empty(), "{code}");
        }
    }
}
