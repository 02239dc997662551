//! What particular programs do with their arguments: wrappers that run another command, shells and `eval` that run text, `find`/`xargs` that run commands on files.

use super::command::{program_name, program_name_of, Command, Wrapper};
use super::eval::{file_key, Eval};
use super::expand::Field;
use super::interp;
use super::names::{self, NameSet};
use super::wrappers::{self, split_assignment};

/// Most wrappers peeled off one command (`sudo env timeout nice ... cmd`).
const MAX_WRAPPERS: usize = 32;

/// Most other readings of wrappers' options judged on one line (an option
/// warden does not know, a word known only at run time, each make one).
const MAX_OTHER_READINGS: usize = 64;

/// Programs that turn hidden text into code when piped into a shell.
pub(super) const DECODERS: &[&str] = &[
    "base64", "base32", "xxd", "tr", "rev", "openssl", "printf", "gunzip", "gzip", "zcat",
    "uudecode", "basenc",
];

/// The `via` marker of commands that came out of a decoded payload.
pub const DECODED: &str = "decoded payload";

const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "csh", "tcsh",
    "posh", "elvish",
];

/// Whether warden reads `program`'s inline code (`bash -c TEXT`, `eval
/// WORDS`) as shell, as the program will: substitutions written in that text
/// are judged where the inner shell runs them.
pub fn reads_code_as_shell(program: &str) -> bool {
    program == "eval" || SHELLS.contains(&program)
}

/// The programs `Eval::special` gives a model of their own (besides shells,
/// interpreters, wrappers and decoders): what they run is analysed there, so
/// their arguments are not searched for hidden commands.
#[rustfmt::skip]
const MODELLED: &[&str] = &[
    "su", "eval", "source", ".", "trap", "alias", "cd", "pushd", "export", "declare", "typeset",
    "local", "readonly", "unset", "printf", "read", "xargs", "find", "parallel", "watch", "script",
    "flock", "ssh", "scp", "sftp", "sshfs", "rsync", "tar", "gtar", "bsdtar", "at", "batch", "awk",
    "gawk", "mawk", "nawk", "sed", "gsed", "m4", "ed", "red", "emacs", "tmux", "nix-shell",
    "runuser", "sg", "npx", "npm", "pnpm", "sem", "screen", "gdb", "ip", "vim", "vi", "nvim", "ex",
    "view", "vimdiff", "git", "less", "more", "pssh", "parallel-ssh", "pdsh", "clush", "ansible",
    "salt", "salt-ssh", "fab", "knife", "mussh",
];

/// Whether warden models what `program` runs (a shell, an interpreter, a
/// wrapper, a decoder, or one of the programs `Eval::special` knows).
pub fn has_model(program: &str) -> bool {
    // Asked of every command, several times: one probe of the lists.
    static NAMED: NameSet = names::name_set!(MODELLED, SHELLS, DECODERS);
    NAMED.contains(program)
        || wrappers::find(program).is_some()
        || interp::language(program).is_some()
}

/// The names [`has_model`] knows by name; interpreters (`python3.11`) are
/// known by [`interp::language`] as well.
pub(crate) fn modelled_names() -> impl Iterator<Item = &'static str> {
    [MODELLED, SHELLS, DECODERS]
        .into_iter()
        .flat_map(|list| list.iter().copied())
        .chain(wrappers::names())
}

/// Whether `path` names an installed program (`/bin/rm`, `/usr/local/bin/x`).
fn is_program_path(path: &str) -> bool {
    path.starts_with('/')
        && path.rsplit_once('/').is_some_and(|(dir, name)| {
            !name.is_empty() && (dir.ends_with("/bin") || dir.ends_with("/sbin"))
        })
}

impl Eval<'_> {
    /// Peels wrappers off `fields`, applies what special programs do, and
    /// returns the resulting command for the caller to emit (the caller may
    /// still need to read it, and a copy of every command cost more than
    /// the reading).
    pub(super) fn dispatch(&mut self, mut cmd: Command, mut fields: Vec<Field>) -> Option<Command> {
        let mut peeled = 0;
        // The name of the program word, when the loop worked it out last:
        // `finish` needs it too.
        let mut named = None;
        loop {
            let name = program_name_of(&fields[0].text);
            let Some(spec) = wrappers::find(&name) else {
                named = Some(name.into_owned());
                break;
            };
            // Most commands are no wrapper: only a wrapper's name is kept.
            let name = name.into_owned();
            peeled += 1;
            if peeled > MAX_WRAPPERS {
                self.set_limit(format!(
                    "the command stacks more than {MAX_WRAPPERS} wrappers (sudo, env, timeout, ...)"
                ));
                break;
            }
            if fields[0].dynamic {
                break;
            }
            let Some(mut peeled) = wrappers::peel(spec, &fields[1..]) else {
                break;
            };
            // Where the options leave the command's start open, every other
            // reading is judged too, as a command of its own.
            let others = std::mem::take(&mut peeled.others);
            if peeled.too_many || self.other_readings + others.len() > MAX_OTHER_READINGS {
                self.set_limit(format!(
                    "wrappers' options can be read more ways than warden follows ({} for one wrapper, {MAX_OTHER_READINGS} on a line): options it does not know, words known only at run time",
                    wrappers::MAX_READINGS_PER_WRAPPER
                ));
            } else {
                self.other_readings += others.len();
                for (own, rest) in others {
                    self.other_reading(&cmd, &name, own, rest);
                }
            }
            if !wrappers::runs_command(spec, &peeled) {
                break;
            }
            self.wrapper_options(&cmd, &name, &peeled);
            let dir = peeled.value(spec.chdir).map(str::to_string);
            let env = std::mem::take(&mut peeled.env);
            let own_args = std::mem::take(&mut peeled.own);
            let rest = wrappers::command(spec, peeled);
            if rest.is_empty() && env.is_empty() {
                break;
            }
            if let Some(dir) = dir {
                cmd.cwd = super::cwd::moved(&cmd.cwd, &dir);
            }
            cmd.env.extend(env);
            cmd.wrappers.push(Wrapper {
                name,
                args: own_args,
            });
            if rest.is_empty() {
                // Only assignments (`env A=1`): env prints the environment.
                fields.truncate(1);
                return self.finish(cmd, fields, None);
            }
            fields = rest;
        }
        self.finish(cmd, fields, named)
    }

    /// Judges `rest` as the command a wrapper runs when its options are read
    /// another way (`own` its own words then): an option the table does not
    /// know that may take a value, a word known only when the line runs.
    fn other_reading(&mut self, cmd: &Command, name: &str, own: Vec<String>, rest: Vec<Field>) {
        let mut base = Command {
            env: cmd.env.clone(),
            wrappers: cmd.wrappers.clone(),
            redirects: cmd.redirects.clone(),
            stdin: cmd.stdin.clone(),
            upstream: cmd.upstream.clone(),
            cwd: cmd.cwd.clone(),
            via: with(&cmd.via, "another reading of a wrapper's options"),
            ..Command::default()
        };
        base.wrappers.push(Wrapper {
            name: name.to_string(),
            args: own,
        });
        if !self.descend() {
            return;
        }
        if let Some(other) = self.dispatch(base, rest) {
            self.emit(other);
        }
        self.ascend();
    }

    /// `named` is the program word's name when the caller has it.
    fn finish(
        &mut self,
        mut cmd: Command,
        mut fields: Vec<Field>,
        named: Option<String>,
    ) -> Option<Command> {
        cmd.path = std::mem::take(&mut fields[0].text);
        cmd.dynamic = fields[0].dynamic;
        // An unresolved word (`$(curl -s http://x/a.sh)`) has no basename to
        // speak of: keep it whole so no program rule matches a fragment.
        cmd.program = if cmd.dynamic {
            cmd.path.to_lowercase()
        } else {
            debug_assert!(named.as_ref().is_none_or(|n| *n == program_name(&cmd.path)));
            named.unwrap_or_else(|| program_name(&cmd.path))
        };
        // Most lines copy no program: no key to make.
        if !self.copies.is_empty() {
            if let Some(real) = self.copies.get(&file_key(&cmd.path)) {
                cmd.program = real.clone();
            }
        }
        // Only the programs that run their arguments read the fields again
        // (quoted or not); the others' words move into the command.
        cmd.args_dynamic = fields[1..].iter().any(|f| f.dynamic);
        cmd.args = if matches!(cmd.program.as_str(), "xargs" | "find" | "parallel") {
            fields[1..].iter().map(|f| f.text.clone()).collect()
        } else {
            fields.drain(1..).map(|f| f.text).collect()
        };
        if !cmd.env.is_empty() {
            let env = std::mem::take(&mut cmd.env);
            self.env_sinks(&env, &cmd);
            cmd.env = env;
        }
        if wrappers::binds_directories(&cmd) {
            self.special_sandboxed(&mut cmd, &fields);
        } else {
            self.special(&mut cmd, &fields);
        }
        Some(cmd)
    }

    /// What a program does beyond running itself.
    pub(in crate::shell) fn special(&mut self, cmd: &mut Command, fields: &[Field]) {
        let args = &fields[1..];
        self.arith_builtin(cmd);
        self.sinks(cmd);
        match cmd.program.as_str() {
            p if SHELLS.contains(&p) => self.shell(cmd),
            "eval" => {
                let text = cmd.args.join(" ");
                self.reanalyze(&text, "eval", cmd.stdin.clone());
            }
            "source" | "." => self.sourced(cmd),
            "trap" => {
                if let Some(code) = cmd.args.first().filter(|a| !a.starts_with('-')) {
                    self.reanalyze(&code.clone(), "trap", None);
                }
            }
            "alias" => {
                for arg in &cmd.args {
                    if let Some((name, value)) = arg.split_once('=') {
                        self.aliases.insert(name.to_string(), value.to_string());
                    }
                }
            }
            "cd" | "pushd" => {
                let dir = cmd
                    .operands()
                    .first()
                    .map(|d| d.to_string())
                    .unwrap_or_else(|| "~".into());
                self.change_dir(&dir);
            }
            "export" | "declare" | "typeset" | "local" | "readonly" => self.declares(cmd),
            "set" => self.set_options(&cmd.args),
            "unset" => {
                for arg in &cmd.args {
                    self.vars.remove(arg);
                }
            }
            "printf" if cmd.args.first().is_some_and(|a| a == "-v") => self.printf_to_var(cmd),
            "read" => self.read(cmd),
            "less" | "more" => self.pager_commands(cmd),
            "cp" | "ln" | "install" | "mv" => self.copied(cmd),
            // `hash -p /bin/rm ls` makes `ls` run rm.
            "hash" => {
                if let [flag, path, name, ..] = &cmd.args[..] {
                    if flag == "-p" {
                        self.copies.insert(file_key(name), program_name(path));
                    }
                }
            }
            "xargs" => self.xargs(cmd, args),
            "find" => self.find(cmd, args),
            "parallel" => self.parallel(args),
            "ssh" => self.ssh(cmd),
            "tmux" | "npx" | "npm" | "pnpm" | "screen" | "ip" | "pssh" | "parallel-ssh"
            | "pdsh" | "clush" | "ansible" | "salt" | "salt-ssh" | "fab" | "knife" | "mussh" => {
                self.launcher(cmd)
            }
            "make" | "gmake" => self.make(cmd),
            p if interp::runs_code(p, &cmd.args) => self.interpreter(cmd),
            _ => {}
        }
    }

    /// `source FILE` / `. FILE` runs the text warden saw written to FILE (or
    /// handed over as a process substitution, or piped in for `/dev/stdin`).
    fn sourced(&mut self, cmd: &Command) {
        let code = cmd
            .args
            .first()
            .and_then(|file| self.script_text(file, cmd));
        if let Some(code) = code {
            self.reanalyze(&code, "source", None);
        }
    }

    /// `export`, `declare` and kin set each `NAME=VALUE` they are given.
    fn declares(&mut self, cmd: &Command) {
        let pairs: Vec<(String, String)> = cmd
            .args
            .iter()
            .filter_map(|a| split_assignment(a))
            .collect();
        self.prompts_set(&pairs);
        for (k, v) in pairs {
            self.mark_unresolved(&k, cmd.args_dynamic);
            // `declare -a x=(…)`: each element is expanded.
            let values = self.array_elements(&v).unwrap_or_else(|| vec![v]);
            self.vars.insert(k, values);
        }
    }

    /// `printf -v NAME FORMAT ARGS` stores the output in NAME.
    fn printf_to_var(&mut self, cmd: &Command) {
        if let (Some(name), Some(value)) = (
            cmd.args.get(1),
            super::decode::printf(&cmd.args[2.min(cmd.args.len())..]),
        ) {
            self.vars.insert(name.clone(), vec![value]);
        }
    }

    /// `less '+!CMD' file` runs CMD as its first command.
    fn pager_commands(&mut self, cmd: &Command) {
        let escapes: Vec<String> = cmd
            .args
            .iter()
            .filter_map(|a| a.strip_prefix('+')?.strip_prefix('!').map(str::to_string))
            .collect();
        for text in escapes {
            self.reanalyze(&text, "pager !", None);
        }
    }

    /// A program copied or linked under a new name still runs as itself:
    /// `cp /bin/rm x && ./x -rf ~` is `rm -rf ~`.
    fn copied(&mut self, cmd: &Command) {
        if let [.., source, dest] = cmd.operands()[..] {
            if is_program_path(source) {
                self.copies.insert(file_key(dest), program_name(source));
            }
            self.copied_into_convention(&cmd.program, source, dest);
        }
    }

    pub(super) fn interp_findings(&mut self, cmd: &Command, reading: interp::Reading) {
        use super::Finding;
        if let Some(why) = reading.limit {
            self.set_limit(why.to_string());
        }
        for effect in reading.effects {
            let via = if effect.decoded {
                DECODED
            } else {
                "interpreter"
            };
            let base = Command {
                cwd: cmd.cwd.clone(),
                via: with(&cmd.via, via),
                wrappers: cmd.wrappers.clone(),
                ..Command::default()
            };
            match effect.action {
                interp::Action::Shell(text) => self.reanalyze(&text, via, None),
                interp::Action::Run(argv) => {
                    let Some((path, args)) = argv.split_first() else {
                        continue;
                    };
                    self.emit(Command {
                        program: program_name(path),
                        path: path.clone(),
                        args: args.to_vec(),
                        ..base
                    });
                }
                // Like a group's redirection, the file receives what the
                // program writes; it is not truncated to nothing.
                interp::Action::Write { path, append } => self.write_by(cmd, via, path, append),
                interp::Action::ForkLoop(code) => {
                    let finding = Finding::ForkLoop { code };
                    if !self.out.findings.contains(&finding) {
                        self.out.findings.push(finding);
                    }
                }
                interp::Action::ReverseShell => self.reverse_shell(cmd),
                // The interpreter command itself carries what it may write.
                interp::Action::WriteUnknown => {}
            }
        }
    }

    /// Records that `cmd` hands a shell to a network peer.
    pub(super) fn reverse_shell(&mut self, cmd: &Command) {
        let shown = cmd.display();
        let mut command: String = shown.chars().take(120).collect();
        if command.len() < shown.len() {
            command.push('…');
        }
        let finding = super::Finding::ReverseShell { command };
        if !self.out.findings.contains(&finding) {
            self.out.findings.push(finding);
        }
    }

    /// Records that `cmd` writes `path` from inside its own script (awk's
    /// `print > "f"`, an interpreter's `open(f, "w")`): a redirect-only
    /// command, which the file rules judge like `> f`.
    pub(super) fn write_by(
        &mut self,
        cmd: &Command,
        via: &'static str,
        path: String,
        append: bool,
    ) {
        use super::command::{Redirect, RedirectOp};
        self.emit(Command {
            cwd: cmd.cwd.clone(),
            via: [cmd.via.as_slice(), &[via, super::GROUP_REDIRECT]].concat(),
            wrappers: cmd.wrappers.clone(),
            redirects: vec![Redirect {
                op: if append {
                    RedirectOp::Append
                } else {
                    RedirectOp::Write
                },
                fd: None,
                target: path,
            }],
            ..Command::default()
        });
    }

    /// `read [-r] [-a ARRAY] NAME...` from known input sets variables.
    fn read(&mut self, cmd: &Command) {
        const VALUED: &[&str] = &["-p", "-d", "-n", "-N", "-t", "-u", "-a"];
        let mut names = Vec::new();
        let mut array = None;
        let mut iter = cmd.args.iter();
        while let Some(arg) = iter.next() {
            if arg == "-a" {
                array = iter.next().cloned();
            } else if VALUED.contains(&arg.as_str()) {
                iter.next();
            } else if !arg.starts_with('-') {
                names.push(arg.clone());
            }
        }
        let Some(text) = &cmd.stdin else { return };
        let line = text.lines().next().unwrap_or("");
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        if let Some(array) = array {
            self.vars.insert(array, words);
            return;
        }
        if names.is_empty() {
            names.push("REPLY".into());
        }
        for (i, name) in names.iter().enumerate() {
            // The last name takes the rest of the line.
            let value = if i + 1 == names.len() {
                words.get(i..).map(|w| w.join(" ")).unwrap_or_default()
            } else {
                words.get(i).cloned().unwrap_or_default()
            };
            self.vars.insert(name.clone(), vec![value]);
        }
    }
}

pub(super) fn with(via: &[&'static str], more: &'static str) -> Vec<&'static str> {
    let mut v = via.to_vec();
    v.push(more);
    v
}

pub(super) fn option_value(args: &[String], names: &[&str]) -> Option<String> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        for name in names {
            if arg == name {
                return iter.next().cloned();
            }
            if let Some(v) = arg.strip_prefix(&format!("{name}=")) {
                return Some(v.to_string());
            }
        }
        // `-lc CODE`: a short cluster containing the flag.
        if let Some(short) = names.iter().find(|n| n.len() == 2) {
            let flag = &short[1..];
            if arg.starts_with('-')
                && !arg.starts_with("--")
                && arg.len() > 2
                && arg.ends_with(flag)
            {
                return iter.next().cloned();
            }
        }
    }
    None
}

/// Skips options (and the values of `valued` ones); returns the rest.
pub(super) fn split_options<'a>(
    args: &'a [String],
    valued: &[&str],
) -> (&'a [String], &'a [String]) {
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        i += if valued.contains(&args[i].as_str()) {
            2
        } else {
            1
        };
    }
    let i = i.min(args.len());
    args.split_at(i)
}
