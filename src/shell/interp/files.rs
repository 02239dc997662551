//! What interpreter calls do to files and processes: delete, write, copy, move, open pipes and kill.

use once_cell::sync::Lazy;
use regex::Regex;

use super::calls::{compact, Reader};
use super::value::PLACEHOLDER;
use super::view::{Arg, Recv, Span};
use super::{Action, Concern, Lang};

impl Reader<'_, '_> {
    pub(super) fn recursive_option(&self, args: &[Arg]) -> bool {
        args.iter().skip(1).any(|a| {
            RECURSIVE.is_match(
                self.view
                    .text((a.key.map_or(a.value.0, |k| k.0), a.value.1)),
            )
        })
    }

    pub(super) fn delete(&mut self, args: &[Arg], recursive: bool, every: bool) {
        let v = self.view;
        let pos = self.positional(args);
        let targets: Vec<Span> = match pos.first() {
            Some(first) if v.is_list(first.value) => v.list_items(first.value).unwrap_or_default(),
            Some(_) if every => pos
                .iter()
                .filter(|a| v.byte(a.value.0) != b'{')
                .map(|a| a.value)
                .collect(),
            Some(first) => vec![first.value],
            None => Vec::new(),
        };
        for target in targets {
            if recursive {
                let (path, decoded) = match v.value(target, true) {
                    Some(val) => (
                        val.text.replace(PLACEHOLDER, "$(interpreter value)"),
                        val.decoded,
                    ),
                    None => (
                        format!("$(interpreter value {})", compact(v.text(target))),
                        false,
                    ),
                };
                self.deletes_unknown |= path.contains("$(interpreter value");
                self.push(rm(&path, true), decoded);
            } else if let Some(val) = v.value(target, false) {
                self.push(rm(&val.text, false), val.decoded);
            } else {
                self.deletes_unknown = true;
                self.push(Action::WriteUnknown, false);
            }
        }
    }

    /// Calls beyond deleting, writing and copying: Julia's `rm`, R's
    /// `source(URL)`, walks, kills, modes and owners.
    pub(super) fn more(
        &mut self,
        name: &str,
        recv: Option<Recv>,
        module: &str,
        args: &[Arg],
        at: Span,
    ) {
        let v = self.view;
        match name {
            "rm" if self.lang == Lang::Julia && recv.is_none() => self.julia_rm(args),
            // R's `source(URL)` runs what the server sends.
            "source" | "sys.source" if self.lang == Lang::R => {
                let url = self
                    .positional(args)
                    .first()
                    .and_then(|a| v.value(a.value, false));
                if url.is_some_and(|u| u.text.contains("://")) {
                    self.concern(Concern::EvalFetched, at);
                }
            }
            n if super::calls::WALK_CALLS.contains(&n) && n != "source" => {
                self.walk(name, recv, module, args)
            }
            "kill" | "posix_kill" | "killpg" => self.kill(name, module, args),
            "chmod" | "chmodSync" | "lchmod" | "lchmodSync" | "chmod_R" => {
                self.chmod(name == "chmod_R", recv, args)
            }
            "chown" | "chownSync" | "lchown" | "lchownSync" | "chown_R" => {
                self.chown(name == "chown_R", args)
            }
            _ => {}
        }
    }

    /// Julia's `rm(path; recursive=true)`: keywords after a `;` inside
    /// the first argument.
    pub(super) fn julia_rm(&mut self, args: &[Arg]) {
        let v = self.view;
        let mut args = args.to_vec();
        let mut recursive = self.recursive_option(&args);
        if let Some(first) = args.first_mut().filter(|a| a.key.is_none()) {
            let (value, keywords) = self.split_keywords(first.value);
            recursive |= RECURSIVE.is_match(v.text(keywords));
            first.value = value;
        }
        self.delete(&args, recursive, false);
    }

    /// A Julia argument before and after its `;` (`readdir(D; join=true)`).
    fn split_keywords(&self, span: Span) -> (Span, Span) {
        let v = self.view;
        let (start, end) = span;
        match v
            .text(span)
            .match_indices(';')
            .map(|(i, _)| start + i)
            .find(|&i| v.is_code(i))
        {
            Some(semi) => ((start, semi), (semi, end)),
            None => (span, (end, end)),
        }
    }

    pub(super) fn write_first(&mut self, args: &[Arg], append: bool) {
        let Some(first) = self.positional(args).first().copied() else {
            return;
        };
        match self.view.value(first.value, false) {
            Some(path) => self.push(write(path.text, append), path.decoded),
            None => self.push(Action::WriteUnknown, false),
        }
    }

    /// `open(P, 'w')`, `Path(P).open('w')`, Perl's `open(F, '>', P)` and
    /// `open(F, "| cmd")`.
    pub(super) fn open(&mut self, name: &str, recv: Option<Span>, recv_name: &str, args: &[Arg]) {
        let v = self.view;
        let mut pos = self.positional(args);
        let mode_kw = self.keyword(args, &["mode", "flags", "flag"]);
        // Julia's `open(f -> write(f, x), path, "w")`: the function comes first.
        if self.lang == super::Lang::Julia
            && pos.len() >= 3
            && v.value(pos[0].value, false).is_none()
        {
            pos.remove(0);
        }
        let path_recv = recv
            .filter(|_| {
                name == "open"
                    && !matches!(
                        recv_name,
                        "os" | "io" | "File" | "IO" | "codecs" | "fs" | "Kernel"
                    )
            })
            .and_then(|r| v.value(r, false));
        if let Some(path) = path_recv {
            if let Some(append) = self.mode(mode_kw.or(pos.first().copied())) {
                self.push(write(path.text, append), path.decoded);
            }
            return;
        }
        let first = pos.first().and_then(|a| v.value(a.value, false));
        // `open(p, 'w')` with `p` computed at run time.
        if first.is_none()
            && !pos.is_empty()
            && self.lang != super::Lang::Perl
            && self.mode(mode_kw.or(pos.get(1).copied())).is_some()
        {
            self.push(Action::WriteUnknown, false);
            return;
        }
        if let Some(path) = first {
            if name == "open" {
                if let Some(cmd) = path.text.strip_prefix('|') {
                    // Ruby's `open("|-")` forks: the child runs the rest.
                    if cmd.trim() == "-" {
                        self.concern(Concern::Indirection, pos[0].value);
                        return;
                    }
                    self.push(Action::Shell(cmd.to_string()), path.decoded);
                    return;
                }
            }
            if let Some(append) = self.mode(mode_kw.or(pos.get(1).copied())) {
                self.push(write(path.text, append), path.decoded);
            }
            return;
        }
        // Perl: the first argument is a file handle.
        if name != "open" || pos.len() < 2 {
            return;
        }
        self.perl_open(&pos);
    }

    /// Perl's `open(F, SPEC, ...)`, given at least a handle and a spec: a
    /// write (`>`, `>>`, `+<`), a pipe to or from a command (`|-`, `cmd |`),
    /// or a fork (`|-` alone).
    fn perl_open(&mut self, pos: &[&Arg]) {
        let v = self.view;
        let Some(spec) = v.value(pos[1].value, false) else {
            // `open(F, ">$file")`: a write to a path computed at run time.
            let raw = v.text(v.trim(pos[1].value));
            if raw.starts_with(['"', '\'']) && raw[1..].starts_with(['>', '+']) {
                self.push(Action::WriteUnknown, false);
            }
            return;
        };
        let spec_text = spec.text.trim();
        // `open(F, "|-")` forks: the child runs the rest of the program.
        if pos.len() == 2 && matches!(spec_text, "|-" | "-|") {
            let at = (pos[0].value.0, pos[1].value.1);
            self.concern(Concern::Indirection, at);
            return;
        }
        if pos.len() >= 3 {
            if spec_text.starts_with("-|") || spec_text.starts_with("|-") {
                let items: Vec<Span> = pos[2..].iter().map(|a| a.value).collect();
                if items.len() == 1 {
                    if let Some(cmd) = v.value(items[0], true) {
                        self.push(Action::Shell(cmd.text), cmd.decoded);
                    }
                } else {
                    self.run_words(&items);
                }
            } else if spec_text.contains('>') || spec_text.starts_with("+<") {
                match v.value(pos[2].value, false) {
                    Some(path) => {
                        self.push(write(path.text, spec_text.contains(">>")), path.decoded)
                    }
                    None => self.push(Action::WriteUnknown, false),
                }
            }
            return;
        }
        if let Some(rest) = spec_text.strip_prefix(">>") {
            self.push(write(rest.trim().to_string(), true), spec.decoded);
        } else if let Some(rest) = spec_text
            .strip_prefix("+>")
            .or_else(|| spec_text.strip_prefix("+<"))
            .or_else(|| spec_text.strip_prefix('>'))
        {
            self.push(write(rest.trim().to_string(), false), spec.decoded);
        } else if let Some(cmd) = spec_text
            .strip_suffix('|')
            .or_else(|| spec_text.strip_prefix('|'))
        {
            self.push(Action::Shell(cmd.trim().to_string()), spec.decoded);
        }
    }

    /// Whether a mode writes (`Some(false)`) or appends (`Some(true)`).
    fn mode(&self, arg: Option<&Arg>) -> Option<bool> {
        let arg = arg?;
        match self.view.value(arg.value, false) {
            Some(m) => {
                let m = m.text;
                if m.len() > 4 || !m.chars().all(|c| "rwaxbtcUse+".contains(c)) {
                    return None;
                }
                if m.contains('a') {
                    Some(true)
                } else {
                    (m.contains('w') || m.contains('+') || m.contains('x') || m.contains('c'))
                        .then_some(false)
                }
            }
            None => {
                let raw = self.view.text(arg.value);
                if raw.contains("APPEND") {
                    Some(true)
                } else {
                    ["WRONLY", "RDWR", "TRUNC", "CREAT"]
                        .iter()
                        .any(|f| raw.contains(f))
                        .then_some(false)
                }
            }
        }
    }

    pub(super) fn transfer(&mut self, program: &str, args: &[Arg]) {
        let v = self.view;
        let pos = self.positional(args);
        if pos.len() < 2 {
            return;
        }
        let Some(dest) = v.value(pos[1].value, false) else {
            self.push(Action::WriteUnknown, false);
            return;
        };
        let src = v
            .value(pos[0].value, false)
            .map_or("$(interpreter value)".to_string(), |s| s.text);
        self.push(
            Action::Run(vec![program.to_string(), src, dest.text]),
            dest.decoded,
        );
    }

    /// `os.walk(D)`, `Path(D).rglob(P)`, `glob.glob(P)`, `fs.readdirSync(D)`,
    /// Perl's `find(sub, D)`: the tree or directory whose entries the code
    /// may go on to delete.
    pub(super) fn walk(&mut self, name: &str, recv: Option<Recv>, module: &str, args: &[Arg]) {
        let v = self.view;
        let pos = self.positional(args);
        let value = |s: Span| {
            v.value(s, true)
                .filter(|val| !val.partial)
                .map(|val| val.text)
        };
        let (path, mut tree) = match name {
            // `Path(D).glob(P)`: the receiver is the directory.
            "rglob" | "glob" | "iterdir" | "each_child" | "children" | "entries"
                if recv.is_some() && !matches!(module, "glob" | "Dir" | "File") =>
            {
                let dir = recv.and_then(|r| value(r.span));
                let pattern = pos.first().and_then(|a| value(a.value)).unwrap_or_default();
                (dir.map(|d| format!("{d}/{pattern}")), name == "rglob")
            }
            "find" if !matches!(module, "File::Find" | "Find" | "") => return,
            // Perl's `find(\&wanted, @dirs)`: the directories come last.
            "find" => (pos.last().and_then(|a| value(a.value)), true),
            "walk" | "fwalk" => (pos.first().and_then(|a| value(a.value)), true),
            _ => (
                pos.first()
                    .and_then(|a| value(self.split_keywords(a.value).0)),
                false,
            ),
        };
        let Some(path) = path else {
            return;
        };
        // A pattern's directory: what comes before its first wildcard.
        let cut = path.find(['*', '?', '[', '{']).unwrap_or(path.len());
        tree |= path[cut..].contains("**") || self.recursive_option(args);
        let dir = match path[..cut].rfind('/') {
            _ if cut == path.len() => path.trim_end_matches('/').to_string(),
            Some(i) => path[..i].to_string(),
            None => ".".to_string(),
        };
        let dir = if dir.is_empty() { "/".to_string() } else { dir };
        self.walked.push((dir, tree));
    }

    /// Deletes at computed paths in code that walks a tree or lists a
    /// directory: the tree's removal (`rm -r -f D`) or the directory's
    /// files (`rm -f D/*`).
    pub(super) fn walked_deletes(&mut self) {
        if !self.deletes_unknown {
            return;
        }
        for (dir, tree) in std::mem::take(&mut self.walked) {
            let action = if tree {
                rm(&dir, true)
            } else {
                Action::Run(vec![
                    "rm".into(),
                    "-f".into(),
                    format!("{}/*", dir.trim_end_matches('/')),
                ])
            };
            self.push(action, false);
        }
    }

    /// `os.kill(1, 9)`, `os.killpg(g, 9)`, `process.kill(-1)`, `Process.kill(9, -1)`,
    /// Perl's `kill 9, -1`: `kill -SIGNAL PID...`, for the targets written
    /// as numbers (a pid the code computes, such as its own, says nothing).
    pub(super) fn kill(&mut self, name: &str, recv_name: &str, args: &[Arg]) {
        let v = self.view;
        let pos = self.positional(args);
        // Perl and Ruby name the signal first; the others, the target.
        let signal_first =
            recv_name == "Process" || (recv_name.is_empty() && self.lang == Lang::Perl);
        if !signal_first
            && !recv_name.is_empty()
            && !matches!(recv_name, "os" | "process" | "POSIX" | "posix" | "Deno")
        {
            return;
        }
        let (signal, targets) = match pos.split_first() {
            Some((first, rest)) if signal_first => (Some(*first), rest.to_vec()),
            Some((first, rest)) => (rest.first().copied(), vec![*first]),
            None => return,
        };
        let group = name == "killpg";
        let pids: Vec<String> = targets
            .iter()
            .filter_map(|a| {
                let t = compact(v.text(a.value));
                let digits = t.strip_prefix('-').unwrap_or(&t);
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| {
                    if group {
                        format!("-{t}")
                    } else {
                        t
                    }
                })
            })
            .collect();
        if pids.is_empty() {
            return;
        }
        let mut argv = vec!["kill".to_string()];
        // The default (`process.kill(pid)`) and a signal the code computes
        // are TERM: a pid written after `kill` alone reads as a signal.
        let signal = signal.and_then(|s| signal_name(v.text(s.value)));
        argv.push(format!("-{}", signal.as_deref().unwrap_or("TERM")));
        argv.extend(pids);
        self.push(Action::Run(argv), false);
    }
}

/// A signal as `kill` takes it: `9`, `signal.SIGKILL`, `"KILL"`, `:TERM`
/// become `9`, `KILL`, `KILL`, `TERM`.
fn signal_name(text: &str) -> Option<String> {
    let t = text
        .trim()
        .trim_matches(['\'', '"', ':'])
        .trim_start_matches('-');
    let t = t.rsplit(['.', ':']).next().unwrap_or(t);
    let t = t.strip_prefix("SIG").unwrap_or(t);
    let ok = !t.is_empty()
        && (t.bytes().all(|b| b.is_ascii_digit())
            || t.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()));
    ok.then(|| t.to_string())
}

static RECURSIVE: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"recursive[\t\n\x0B\x0C\r ]*[:=]>?[\t\n\x0B\x0C\r ]*(?:true|True|TRUE|T(?-u:\b)|1)")
        .expect("recursive regex is valid")
});

pub(super) static FLAG_APPEND: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r#"flags?[\t\n\x0B\x0C\r ]*:[\t\n\x0B\x0C\r ]*['"]a"#)
        .expect("append flag regex is valid")
});

pub(super) fn rm(path: &str, recursive: bool) -> Action {
    let mut argv = vec!["rm".to_string()];
    if recursive {
        argv.extend(["-r".to_string(), "-f".to_string()]);
    }
    if path.starts_with('-') {
        argv.push("--".into());
    }
    argv.push(path.to_string());
    Action::Run(argv)
}

pub(super) fn write(path: String, append: bool) -> Action {
    Action::Write { path, append }
}
