//! Walks the parsed tree like a shell would, with the variables, functions, aliases and files the line itself defines, and collects every command it would run.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::command::{Command, Redirect, RedirectOp, Wrapper};
use super::limits::{MAX_COMMANDS, MAX_REANALYSIS};
use super::parse::{self, Node, Pipeline, RedirKind, Script, Simple};
use super::{normalize, Analysis, Finding};

/// Most bytes of shell text re-analysed in one call (`bash -c`, `eval`,
/// decoded payloads, aliases): bounds fan-out such as `x='eval $x $x'`.
const MAX_REANALYSIS_BYTES: usize = 4 * 1024 * 1024;
/// Most earlier pipeline stages a command remembers as its `upstream`.
const MAX_UPSTREAM: usize = 16;
/// Most simple commands evaluated (function calls re-evaluate bodies).
const MAX_STEPS: usize = 100_000;

pub fn run(analysis: &mut Analysis, dir: Option<&str>) {
    let parsed = parse::parse(&analysis.text);
    if analysis.commands.capacity() == 0 {
        // Room for a short line's commands at once, not grown from nothing.
        analysis.commands = Vec::with_capacity(4);
    }
    let mut eval = Eval::new(analysis);
    eval.cwd = dir.map(str::to_string);
    if let Some(limit) = parsed.limit {
        eval.set_limit(limit);
    }
    eval.script(&parsed.script, None);
    eval.uncalled_functions();
    eval.convention_files();
    eval.out.files = eval.files.drain().collect();
    eval.out.files.sort();
}

/// The `via` marker of the redirect-only command standing for a group's
/// redirections (`{ a; b; } > log`), which writes the group's output rather
/// than truncating the file with nothing.
pub const GROUP_REDIRECT: &str = "group redirect";

/// A variable's value; a `for` loop variable holds every value it takes.
pub(super) type Value = Vec<String>;

pub(super) struct Eval<'a> {
    pub(super) out: &'a mut Analysis,
    pub(super) vars: HashMap<String, Value>,
    /// Variables whose value holds an expansion warden could not resolve,
    /// kept as its source text (`x=$(curl -s URL)`): `$x` is as unknown as
    /// that expansion, not the text standing in for it.
    pub(super) unresolved: HashSet<String>,
    /// Variables given the integer attribute (`declare -i`): what is
    /// assigned to them is evaluated as arithmetic.
    pub(super) integers: HashSet<String>,
    /// `set -x` is on: `PS4` is expanded before each later command.
    pub(super) traced: bool,
    pub(super) functions: HashMap<String, Rc<Script>>,
    called: HashSet<String>,
    pub(super) aliases: HashMap<String, String>,
    pub(super) expanding_aliases: Vec<String>,
    /// Files written earlier on the line whose content is known
    /// (`echo 'rm -rf /' > x.sh && bash x.sh`).
    pub(super) files: HashMap<String, String>,
    /// Programs copied or linked under another name earlier on the line
    /// (`cp /bin/rm x && ./x -rf ~`): the new path and the program's name.
    pub(super) copies: HashMap<String, String>,
    /// `>( )` substitutions of the command being evaluated, run after it.
    pub(super) writers: Vec<(Script, String)>,
    /// Output of process substitutions whose output is known, by source text.
    pub(super) proc_outputs: HashMap<String, String>,
    pub(super) positional: Vec<String>,
    /// Where the commands run: an earlier `cd` on the line moved there
    /// (`None`: the call's own directory).
    pub(super) cwd: Option<String>,
    /// Other directories the line may be in, had a `cd` failed or been
    /// skipped (see `cwd.rs`).
    pub(super) other_cwds: Vec<Option<String>>,
    /// Where the line was before each `cd` of the current `&&` chain.
    pub(super) left_cwds: Vec<(Option<String>, Vec<Option<String>>)>,
    depth: usize,
    budget: usize,
    steps: usize,
    /// Other readings of wrappers' options judged so far (see `programs`).
    pub(super) other_readings: usize,
    /// Set by a parameter expansion whose values are alternatives of one
    /// word rather than several words (see `expand`).
    pub(super) param_alternatives: bool,
    /// Characters produced by word expansion so far (see `expand`).
    pub(super) expanded_chars: usize,
    /// The bodies of the functions being run: a function calls itself when
    /// it calls its own body (a name defined again is another function).
    stack: Vec<Rc<Script>>,
    pub(super) via: Vec<&'static str>,
    /// Sandboxes whose binds show other directories inside them (`bwrap
    /// --bind / /x sh -c '...'`), around the command whose nested commands
    /// are being evaluated: those run inside them too.
    pub(super) sandboxes: Vec<Wrapper>,
    /// The pipeline being evaluated has several stages or runs in the background.
    forking: bool,
    /// The stages before a group that is a pipeline stage: its commands read that pipe.
    piped: Vec<Rc<Command>>,
}

impl<'a> Eval<'a> {
    pub(super) fn new(out: &'a mut Analysis) -> Eval<'a> {
        Eval {
            out,
            vars: HashMap::new(),
            unresolved: HashSet::new(),
            integers: HashSet::new(),
            traced: false,
            functions: HashMap::new(),
            called: HashSet::new(),
            aliases: HashMap::new(),
            expanding_aliases: Vec::new(),
            files: HashMap::new(),
            copies: HashMap::new(),
            proc_outputs: HashMap::new(),
            writers: Vec::new(),
            positional: Vec::new(),
            cwd: None,
            other_cwds: Vec::new(),
            left_cwds: Vec::new(),
            depth: 0,
            budget: MAX_REANALYSIS_BYTES,
            steps: 0,
            other_readings: 0,
            expanded_chars: 0,
            param_alternatives: false,
            stack: Vec::new(),
            via: Vec::new(),
            sandboxes: Vec::new(),
            forking: false,
            piped: Vec::new(),
        }
    }

    pub(super) fn set_limit(&mut self, message: String) {
        if self.out.limit.is_none() {
            self.out.limit = Some(message);
        }
    }

    fn stopped(&mut self) -> bool {
        if self.out.commands.len() >= MAX_COMMANDS {
            self.set_limit(format!(
                "the command runs more than {MAX_COMMANDS} commands"
            ));
            return true;
        }
        self.steps > MAX_STEPS
    }

    /// Evaluates a script; returns the output of its last pipeline when known.
    pub(super) fn script(&mut self, script: &Script, stdin: Option<String>) -> Option<String> {
        let mut stdin = stdin;
        let mut output = None;
        // A chain of `&&` is the script's own: one inside a group ends with it.
        let outer_chain = std::mem::take(&mut self.left_cwds);
        for (n, pipeline) in script.pipelines.iter().enumerate() {
            if self.stopped() {
                break;
            }
            // Only the first pipeline reads the inherited stdin.
            output = self.pipeline(pipeline, stdin.take());
            self.chain_step(pipeline.then, script.pipelines.get(n + 1));
        }
        self.end_chain();
        self.left_cwds = outer_chain;
        output
    }

    fn pipeline(&mut self, pipeline: &Pipeline, stdin: Option<String>) -> Option<String> {
        let outer = self.forking;
        self.forking = pipeline.stages.len() > 1 || pipeline.background;
        let mut upstream: Vec<Rc<Command>> = Vec::new();
        let mut input = stdin;
        // Every stage of a real pipeline, and a command put in the
        // background, runs in a child process of its own.
        let forked = self.forking;
        for (n, node) in pipeline.stages.iter().enumerate() {
            // Only a stage with stages after it is kept as their upstream.
            let keep = n + 1 < pipeline.stages.len();
            let (cmd, output) = if forked {
                self.child(|eval| eval.node(node, input.take(), &upstream, keep))
            } else {
                self.node(node, input.take(), &upstream, keep)
            };
            input = output;
            if let Some(cmd) = cmd {
                // Each stage shares the stages before it; stages without
                // their own history (a stage copy has none), and only the
                // nearest few, keep a long pipeline linear.
                debug_assert!(cmd.upstream.is_empty() && cmd.stdin.is_none());
                if upstream.len() == MAX_UPSTREAM {
                    upstream.remove(0);
                }
                upstream.push(Rc::new(cmd));
            }
        }
        self.forking = outer;
        input
    }

    /// Evaluates one stage of a pipeline: the command it ran when `keep` asks
    /// for it (a copy, as the command itself is recorded), and its output.
    fn node(
        &mut self,
        node: &Node,
        stdin: Option<String>,
        upstream: &[Rc<Command>],
        keep: bool,
    ) -> (Option<Command>, Option<String>) {
        match node {
            Node::Simple(simple) => self.simple(simple, stdin, upstream, keep),
            Node::Group {
                body,
                redirs,
                subshell,
            } => {
                let (redirects, here) = self.redirects(redirs);
                let input = here.unwrap_or(stdin);
                let piped = [&self.piped[..], upstream].concat();
                let outer = std::mem::replace(&mut self.piped, piped);
                let output = if *subshell {
                    self.child(|eval| eval.script(body, input))
                } else {
                    self.script(body, input)
                };
                self.piped = outer;
                if !redirects.is_empty() {
                    self.record_writes(&redirects, output.as_deref());
                    let mut via = self.via.clone();
                    via.push(GROUP_REDIRECT);
                    self.emit(Command {
                        redirects,
                        cwd: self.cwd.clone(),
                        via,
                        ..Command::default()
                    });
                }
                (None, output)
            }
            Node::Function { name, body } => {
                self.functions.insert(name.clone(), Rc::new(body.clone()));
                (None, None)
            }
            Node::Arith { parts, redirs } => {
                self.arith(parts);
                if redirs.is_empty() {
                    return (None, None);
                }
                // `(( x )) > f` still opens f, as any command's redirection does.
                let group = Node::Group {
                    body: Script::default(),
                    redirs: redirs.clone(),
                    subshell: false,
                };
                self.node(&group, stdin, upstream, keep)
            }
            Node::For { var, words } => {
                let mut values: Vec<String> = Vec::new();
                let mut dynamic = false;
                for word in words {
                    for field in self.expand(word) {
                        dynamic |= field.dynamic;
                        values.push(field.text);
                    }
                    values.truncate(64);
                }
                self.mark_unresolved(var, dynamic);
                self.vars.insert(var.clone(), values);
                (None, None)
            }
        }
    }

    fn simple(
        &mut self,
        simple: &Simple,
        stdin: Option<String>,
        upstream: &[Rc<Command>],
        keep: bool,
    ) -> (Option<Command>, Option<String>) {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.set_limit(format!(
                "the command expands into more than {MAX_STEPS} simple commands"
            ));
            return (None, None);
        }
        let (env, words) = self.leading_assignments(&simple.words);
        let fields = self.command_fields(words);
        let (redirects, here) = self.redirects(&simple.redirs);
        let stdin = here.unwrap_or(stdin);
        if fields.is_empty() {
            self.assignments_only(env, redirects);
            return (None, None);
        }
        let first = &fields[0];
        if !first.quoted && !first.dynamic {
            if let Some(text) = self.alias_expansion(&fields) {
                self.reanalyze(&text, "alias", stdin);
                self.flush_writers(None, None);
                return (None, None);
            }
            if let Some(body) = self.functions.get(&first.text).cloned() {
                self.call_function(&first.text.clone(), &body, &fields, stdin);
                self.flush_writers(None, None);
                return (None, None);
            }
        }
        let base = Command {
            env,
            redirects,
            stdin,
            upstream: [&self.piped[..], upstream].concat(),
            cwd: self.cwd.clone(),
            via: self.via.clone(),
            ..Command::default()
        };
        let Some(cmd) = self.dispatch(base, fields) else {
            self.flush_writers(None, None);
            return (None, None);
        };
        self.written_in_place(&cmd);
        let output = self.output(&cmd);
        self.record_writes(&cmd.redirects, output.as_deref());
        // The command is recorded before what its `>( )` substitutions run,
        // and they are fed from it: their inputs are taken first.
        let writers = self.writer_inputs(Some(&cmd), output.as_deref());
        let kept = keep.then(|| cmd.stage_copy());
        self.emit(cmd);
        self.run_writers(writers);
        (kept, output)
    }

    /// The `NAME=VALUE` words a simple command starts with, and the words
    /// after them.
    fn leading_assignments<'w>(
        &mut self,
        words: &'w [parse::Word],
    ) -> (Vec<(String, String)>, &'w [parse::Word]) {
        let mut env = Vec::new();
        let mut idx = 0;
        while let Some(word) = words.get(idx) {
            match self.assignment(word) {
                Some(pair) => env.push(pair),
                None => break,
            }
            idx += 1;
        }
        (env, &words[idx..])
    }

    /// A command's words expanded into its fields.
    fn command_fields(&mut self, words: &[parse::Word]) -> Vec<super::expand::Field> {
        let mut fields = Vec::with_capacity(words.len());
        if words.first().is_some_and(parse::is_test_keyword) {
            // Inside `[[ ]]` words are neither split nor globbed.
            fields.extend(words.iter().map(|w| self.expand_single(w)));
        } else {
            for word in words {
                self.expand_onto(word, &mut fields);
            }
        }
        fields
    }

    /// A simple command with no program: its assignments set the shell's
    /// variables.
    fn assignments_only(&mut self, env: Vec<(String, String)>, redirects: Vec<Redirect>) {
        self.assigned(&env);
        self.prompts_set(&env);
        for (name, value) in &env {
            let values = self
                .array_elements(value)
                .unwrap_or_else(|| vec![value.clone()]);
            self.vars.insert(name.clone(), values);
        }
        // Assignments and redirections with no program still change
        // something (the shell's variables, a file): rules see them as a
        // command with an empty program.
        self.emit(Command {
            env,
            redirects,
            cwd: self.cwd.clone(),
            via: self.via.clone(),
            ..Command::default()
        });
        self.flush_writers(None, None);
    }

    fn alias_expansion(&self, fields: &[super::expand::Field]) -> Option<String> {
        let name = &fields[0].text;
        if self.expanding_aliases.contains(name) {
            return None;
        }
        let value = self.aliases.get(name)?;
        let mut text = value.clone();
        for f in &fields[1..] {
            text.push(' ');
            text.push_str(&shell_quote(&f.text));
        }
        Some(text)
    }

    fn call_function(
        &mut self,
        name: &str,
        body: &Rc<Script>,
        fields: &[super::expand::Field],
        stdin: Option<String>,
    ) {
        self.called.insert(name.to_string());
        if self.stack.iter().any(|b| Rc::ptr_eq(b, body)) {
            // A function that calls itself in a pipeline or in the background
            // multiplies processes until the machine stops: a fork bomb.
            if self.forking {
                let finding = Finding::ForkBomb {
                    name: name.to_string(),
                };
                if !self.out.findings.contains(&finding) {
                    self.out.findings.push(finding);
                }
            }
            return;
        }
        let saved = std::mem::replace(
            &mut self.positional,
            std::iter::once(name.to_string())
                .chain(fields[1..].iter().map(|f| f.text.clone()))
                .collect(),
        );
        if self.descend() {
            self.stack.push(body.clone());
            self.script(body, stdin);
            self.stack.pop();
            self.ascend();
        }
        self.positional = saved;
    }

    /// Runs the `>( )` substitutions of a command with what it writes into
    /// them: `tee` copies its input there, `> >(sh)` sends its output.
    fn flush_writers(&mut self, cmd: Option<&Command>, output: Option<&str>) {
        let writers = self.writer_inputs(cmd, output);
        self.run_writers(writers);
    }

    /// The pending `>( )` substitutions, each with what `cmd` writes into it.
    fn writer_inputs(
        &mut self,
        cmd: Option<&Command>,
        output: Option<&str>,
    ) -> Vec<(Script, Option<String>)> {
        let writers = std::mem::take(&mut self.writers);
        let mut fed = Vec::with_capacity(writers.len());
        for (script, src) in writers {
            let input = cmd.and_then(|c| {
                if c.program == "tee" && c.args.contains(&src) {
                    c.stdin.clone()
                } else if c.redirects.iter().any(|r| r.target == src) {
                    output.map(str::to_string)
                } else {
                    None
                }
            });
            fed.push((script, input));
        }
        fed
    }

    fn run_writers(&mut self, writers: Vec<(Script, Option<String>)>) {
        for (script, input) in writers {
            self.via.push(">( )");
            self.child(|eval| eval.script(&script, input));
            self.via.pop();
        }
    }

    /// Bodies of functions defined but never called on the line are still
    /// analysed: they may be exported and run by a child shell.
    fn uncalled_functions(&mut self) {
        let mut names: Vec<String> = self
            .functions
            .keys()
            .filter(|n| !self.called.contains(*n))
            .cloned()
            .collect();
        names.sort();
        for name in names {
            if let Some(body) = self.functions.get(&name).cloned() {
                self.via.push("function body");
                self.call_function(&name, &body, &[super::expand::Field::plain(&name)], None);
                self.via.pop();
            }
        }
    }

    /// Records a command (and stops collecting past the limit).
    pub(super) fn emit(&mut self, mut cmd: Command) {
        if !self.sandboxes.is_empty() {
            self.sandboxed(&mut cmd);
        }
        // A command run here may also run wherever else the line may be.
        let elsewhere: Vec<Command> = if cmd.cwd == self.cwd && !self.other_cwds.is_empty() {
            self.other_cwds
                .iter()
                .filter(|other| **other != cmd.cwd)
                .map(|other| Command {
                    cwd: other.clone(),
                    ..cmd.clone()
                })
                .collect()
        } else {
            Vec::new()
        };
        if !self.record(cmd) {
            return;
        }
        for cmd in elsewhere {
            if !self.record(cmd) {
                return;
            }
        }
    }

    /// Adds one command to the analysis; past the limit, says so instead.
    fn record(&mut self, cmd: Command) -> bool {
        if self.out.commands.len() >= MAX_COMMANDS {
            self.set_limit(format!(
                "the command runs more than {MAX_COMMANDS} commands"
            ));
            return false;
        }
        self.out.commands.push(cmd);
        true
    }

    /// Enters one level of nested evaluation (a function body, a command
    /// started by `xargs`/`find`/`parallel`, a re-analysed string). Past the
    /// limit it records why and refuses, so no input can exhaust the stack.
    pub(super) fn descend(&mut self) -> bool {
        if self.depth >= MAX_REANALYSIS {
            self.set_limit(format!(
                "the command nests shells, eval, functions or command runners more than {MAX_REANALYSIS} levels deep"
            ));
            return false;
        }
        self.depth += 1;
        true
    }

    pub(super) fn ascend(&mut self) {
        self.depth -= 1;
    }

    /// Analyses `text` as shell code run from here (`bash -c`, `eval`, a
    /// decoded payload), with `stdin` as its input.
    pub(super) fn reanalyze(&mut self, text: &str, via: &'static str, stdin: Option<String>) {
        if !self.enter_nested(text.len()) {
            return;
        }
        let (clean, hidden) = normalize::normalize(text);
        if !hidden.is_empty() {
            self.out
                .findings
                .push(Finding::HiddenCharacters { codepoints: hidden });
        }
        self.read_nested(&clean, via, stdin.clone());
        // As on the line itself, a text normalization changed is also read
        // as the shell reads it (see `normalize::shell_reading`).
        if let Some(raw) = normalize::shell_reading(text, &clean) {
            if self.enter_nested(text.len()) {
                self.read_nested(&raw, via, stdin);
            }
        }
    }

    /// Parses and runs `text` as the child analysis `enter_nested` entered.
    fn read_nested(&mut self, text: &str, via: &'static str, stdin: Option<String>) {
        let parsed = parse::parse(text);
        if let Some(limit) = parsed.limit {
            self.set_limit(limit);
        }
        self.run_nested(via, |eval| eval.script(&parsed.script, stdin));
    }

    /// Expands `text` as bash expands a heredoc body (its `$( )`, backticks
    /// and `${ }`, nothing else), as the shell does to a value it reads
    /// again: a prompt string, an array subscript met in arithmetic.
    pub(super) fn reexpand(&mut self, text: &str, via: &'static str) {
        if !text.contains(['$', '`']) {
            return;
        }
        if !self.enter_nested(text.len()) {
            return;
        }
        let (word, limit) = parse::expansions(text);
        if let Some(limit) = limit {
            self.set_limit(limit);
        }
        self.run_nested(via, |eval| eval.expand_single(&word));
    }

    /// Whether `len` more bytes of nested shell code fit the line's budget
    /// and the nesting depth; if so they are taken from the budget and a
    /// level is entered, which `run_nested` leaves.
    fn enter_nested(&mut self, len: usize) -> bool {
        if len > self.budget {
            self.set_limit(format!(
                "the command expands into more than {MAX_REANALYSIS_BYTES} bytes of nested shell code"
            ));
            return false;
        }
        if !self.descend() {
            return false;
        }
        self.budget -= len;
        true
    }

    /// Runs `f` as a child analysis reached `via`, then leaves the level
    /// `enter_nested` entered.
    fn run_nested<T>(&mut self, via: &'static str, f: impl FnOnce(&mut Self) -> T) {
        self.via.push(via);
        self.child(f);
        self.via.pop();
        self.ascend();
    }

    /// Expands redirections; returns them and, when they replace stdin, its
    /// text when known (a heredoc, a here-string, a known file or `<( )`).
    fn redirects(&mut self, redirs: &[parse::Redir]) -> (Vec<Redirect>, Option<Option<String>>) {
        let mut out = Vec::new();
        let mut stdin = None;
        for r in redirs {
            let target = self.expand_single(&r.target).text;
            let op = match r.kind {
                RedirKind::Write => RedirectOp::Write,
                RedirKind::Append => RedirectOp::Append,
                RedirKind::Read => {
                    if r.fd.is_none_or(|fd| fd == 0) {
                        // A known file, or the output of `<( )` (`bash < <(echo ...)`).
                        stdin = Some(self.known_text(&target).cloned());
                    }
                    RedirectOp::Read
                }
                RedirKind::Dup => continue,
                RedirKind::HereDoc => {
                    stdin = Some(Some(target.clone()));
                    RedirectOp::Here
                }
                RedirKind::HereString => {
                    stdin = Some(Some(format!("{target}\n")));
                    RedirectOp::Here
                }
            };
            out.push(Redirect {
                op,
                fd: r.fd,
                target,
            });
        }
        (out, stdin)
    }

    /// What the line put at `path` before this point, when warden knows it:
    /// a file it wrote, or the output of a `<( )` given by that name.
    pub(super) fn known_text(&self, path: &str) -> Option<&String> {
        self.files
            .get(&file_key(path))
            .or_else(|| self.proc_outputs.get(path))
    }

    fn record_writes(&mut self, redirects: &[Redirect], output: Option<&str>) {
        // Redirections apply in order: only the last one for stdout gets the output.
        let last = redirects.iter().rev().find(|r| {
            matches!(r.op, RedirectOp::Write | RedirectOp::Append) && r.fd.is_none_or(|fd| fd == 1)
        });
        let (Some(r), Some(text)) = (last, output) else {
            return;
        };
        let file = self.files.entry(file_key(&r.target)).or_default();
        if r.op == RedirectOp::Write {
            file.clear();
        }
        file.push_str(text);
    }
}

/// The key under which a file written on the line is remembered.
pub(super) fn file_key(path: &str) -> String {
    path.strip_prefix("./").unwrap_or(path).to_string()
}

/// Quotes a word so re-parsing gives it back unchanged.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%~".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
