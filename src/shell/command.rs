//! `Command`: one simple command the shell would run, after expansion and unwrapping, with the queries rules ask of it.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::rc::Rc;

/// One simple command as the shell would run it: wrappers peeled off,
/// quotes removed, variables and braces expanded where warden can know them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    /// The program's basename, lowercased, `.exe` removed (`/bin/RM` -> `rm`).
    /// Empty for a statement made only of assignments and redirections
    /// (`> file`, `HISTSIZE=0`).
    /// Lowercased because macOS and Windows resolve program names without case.
    pub program: String,
    /// The program word as expanded (`/bin/rm`).
    pub path: String,
    /// Arguments after expansion and quote removal. A substitution warden
    /// cannot resolve keeps its source text (`$(pgrep hermes)`, `<(curl x)`).
    pub args: Vec<String>,
    /// `NAME=value` prefixes, including those given through `env`.
    pub env: Vec<(String, String)>,
    /// Wrappers peeled off to reach this command, outermost first (`sudo -S`, `timeout 5`).
    pub wrappers: Vec<Wrapper>,
    pub redirects: Vec<Redirect>,
    /// Text that reaches stdin when warden can know it: a heredoc, a
    /// here-string, or the output of `echo`/`printf`/a decoder earlier in the pipeline.
    pub stdin: Option<String>,
    /// Commands earlier in the same pipeline, in order (`curl x` for `curl x | sh`).
    /// Shared: every later stage of a pipeline holds the same earlier
    /// stages, so a copy per stage would make a long pipeline quadratic.
    pub upstream: Vec<Rc<Command>>,
    /// The directory an earlier `cd` on the same line moved to, as written.
    pub cwd: Option<String>,
    /// The program word came from an expansion warden could not resolve.
    pub dynamic: bool,
    /// Some argument holds an expansion warden could not resolve (kept as
    /// its source text): a `$(…)` in an argument may be the outer shell's,
    /// not text the program itself reads.
    pub args_dynamic: bool,
    /// How this command was reached, outermost first (`bash -c`, `$( )`, `find -exec`).
    pub via: Vec<&'static str>,
    /// The program may write, delete or move over the files its arguments
    /// name in a way warden cannot see: interpreter code that writes a path
    /// it computes at run time, or a script warden cannot read. The path
    /// rules judge those files ([`crate::shell::argument_files`]) as files
    /// given to a program warden has no model of. (A flag, not the list: it
    /// fits where the command has room, and commands are moved often.)
    pub writes_arguments: bool,
    /// Set on the copy of a command whose paths lead elsewhere through a
    /// link, which the engine adds so that the rules judge where they lead:
    /// the command as written, and each path with where it leads.
    pub through: Option<Rc<Through>>,
    /// What the rules work out from the fields above and ask again.
    pub memo: Memo,
}

/// A command as written, and where the paths in it lead (see [`Command::through`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Through {
    pub written: String,
    /// Each path as written, and where it leads.
    pub leads: Vec<(String, String)>,
}

/// Facts the built-in rules derive from a command, kept for the next rule
/// that asks. The fields of a command do not change once rules look at it;
/// a copy starts empty, as a copy may be changed before it is judged. It
/// takes no part in comparisons.
#[derive(Default)]
pub struct Memo {
    /// The command runs no code from substitutions (`bash -c "$(curl x)"`
    /// does), as `rules::net` finds: half a dozen rules ask of every
    /// command, and almost none does. A flag, not the commands found:
    /// keeping those would keep every level of nested substitutions alive.
    pub(crate) runs_no_substitution: std::cell::OnceCell<bool>,
    /// The hidden-command search and the files the call touches both ask
    /// whether the command's arguments are searched (`rules::hidden`).
    pub(crate) searched: std::cell::OnceCell<bool>,
    /// What the rules for any program look for first, as the bits of
    /// `rules::Signs` (kept as bits: the shell knows nothing of rules).
    pub(crate) signs: std::cell::OnceCell<u8>,
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo::default()
    }
}

impl PartialEq for Memo {
    fn eq(&self, _: &Memo) -> bool {
        true
    }
}

impl Eq for Memo {}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapper {
    pub name: String,
    /// The wrapper's own arguments (not the wrapped command's).
    pub args: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectOp {
    /// `>`, `>|`, `&>`, `>&` with a file.
    Write,
    /// `>>`, `&>>`.
    Append,
    /// `<`, `<>`.
    Read,
    /// `<<`, `<<-`, `<<<`.
    Here,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub op: RedirectOp,
    /// The file descriptor written before the operator, if any (`2>`).
    pub fd: Option<u32>,
    /// The target path after expansion (for `Here`, the delimiter).
    pub target: String,
}

/// The name rules know a program by: its basename, lowercased, `.exe`
/// removed (`/bin/RM` and `C:\\x\\rm.exe` are both `rm`). Lowercased because
/// macOS and Windows resolve program names without regard to case.
pub fn program_name(word: &str) -> String {
    program_name_of(word).into_owned()
}

/// [`program_name`] without a copy when the name is part of the word as
/// written (`rm`, `/usr/bin/git`): asked of every command and of many
/// arguments, most of which need no change.
pub fn program_name_of(word: &str) -> Cow<'_, str> {
    // Most words are a bare lowercase ASCII name: one pass says so.
    if word
        .bytes()
        .all(|b| !matches!(b, b'/' | b'\\' | b'A'..=b'Z' | 0x80..))
    {
        return Cow::Borrowed(word.strip_suffix(".exe").unwrap_or(word));
    }
    let start = word
        .bytes()
        .rposition(|b| b == b'/' || b == b'\\')
        .map_or(0, |i| i + 1);
    let base = &word[start..];
    if !base.is_ascii() {
        let mut lower = base.to_lowercase();
        if lower.ends_with(".exe") {
            lower.truncate(lower.len() - ".exe".len());
        }
        return Cow::Owned(lower);
    }
    // ASCII lowercasing keeps every byte where it is, so `.exe` can be
    // cut first, in any case.
    let cut = base.len().saturating_sub(".exe".len());
    let base = match base.get(cut..) {
        Some(ext) if ext.eq_ignore_ascii_case(".exe") => &base[..cut],
        _ => base,
    };
    if base.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(base.to_ascii_lowercase())
    } else {
        Cow::Borrowed(base)
    }
}

/// `text.contains(char::is_whitespace)`, over bytes while they are ASCII:
/// asked of every argument (displays, the hidden-command search), most of
/// them short ASCII words, and decoding each character cost more than the
/// question.
pub fn has_whitespace(text: &str) -> bool {
    for (at, b) in text.bytes().enumerate() {
        if !b.is_ascii() {
            // A byte after ASCII ones starts a character.
            return text[at..].contains(char::is_whitespace);
        }
        // Unicode's White_Space among ASCII: tab to carriage return, space.
        if matches!(b, b'\t'..=b'\r' | b' ') {
            return true;
        }
    }
    false
}

/// Whether `program` is in `programs`, where an entry ending in `*` is a
/// prefix (`mkfs*`); the same test the rule matchers' program lists use.
pub fn program_in(program: &str, programs: &[&str]) -> bool {
    programs.iter().any(|p| match p.strip_suffix('*') {
        Some(prefix) => program.starts_with(prefix),
        None => program == *p,
    })
}

impl Command {
    /// A copy without its pipeline history and its input (`upstream`,
    /// `stdin`): what a pipeline keeps of a stage for the stages after it,
    /// which would drop both from a whole copy.
    pub(crate) fn stage_copy(&self) -> Command {
        Command {
            program: self.program.clone(),
            path: self.path.clone(),
            args: self.args.clone(),
            env: self.env.clone(),
            wrappers: self.wrappers.clone(),
            redirects: self.redirects.clone(),
            stdin: None,
            upstream: Vec::new(),
            cwd: self.cwd.clone(),
            dynamic: self.dynamic,
            args_dynamic: self.args_dynamic,
            via: self.via.clone(),
            writes_arguments: self.writes_arguments,
            // Only the engine's copies carry one, and they are no stage.
            through: None,
            memo: Memo::default(),
        }
    }

    /// A command with just a program word and arguments, as tests and tools
    /// build one without the shell analysis (`/bin/rm` gives program `rm`).
    pub fn new(path: &str, args: &[&str]) -> Command {
        Command {
            program: program_name(path),
            path: path.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            ..Command::default()
        }
    }

    /// [`Command::new`] from whitespace-separated words (no quoting).
    pub fn from_words(line: &str) -> Command {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.split_first() {
            Some((path, args)) => Command::new(path, args),
            None => Command::default(),
        }
    }

    /// The command as a person would read it: wrappers, program word,
    /// arguments and redirections (`sudo -S tee -a /etc/sudoers`, `echo x > f`).
    pub fn display(&self) -> String {
        // Sized for the usual command, so the text is not copied as it grows.
        let words: usize = self.args.iter().map(|a| a.len() + 3).sum();
        let mut out = String::with_capacity(self.path.len() + words + 16);
        self.display_into(&mut out);
        out
    }

    /// [`Command::display`], written at the end of `out`.
    pub fn display_into(&self, out: &mut String) {
        let start = out.len();
        // Room for the program and its arguments at once (a quote pair and
        // a space each): the string grows once, not per word.
        out.reserve(self.path.len() + self.args.iter().map(|a| a.len() + 3).sum::<usize>());
        for w in &self.wrappers {
            out.push_str(&w.name);
            for arg in &w.args {
                out.push(' ');
                out.push_str(arg);
            }
            out.push(' ');
        }
        for (name, value) in &self.env {
            out.push_str(name);
            out.push('=');
            out.push_str(value);
            out.push(' ');
        }
        out.push_str(&self.path);
        for arg in &self.args {
            out.push(' ');
            if arg.is_empty() || has_whitespace(arg) {
                out.push('\'');
                out.push_str(arg);
                out.push('\'');
            } else {
                out.push_str(arg);
            }
        }
        for r in &self.redirects {
            let op = match r.op {
                RedirectOp::Write => ">",
                RedirectOp::Append => ">>",
                RedirectOp::Read => "<",
                // The body can be long; the operator says where input comes from.
                RedirectOp::Here => {
                    out.push_str(" <<…");
                    continue;
                }
            };
            out.push(' ');
            if let Some(fd) = r.fd {
                // Writing to a String cannot fail.
                let _ = write!(out, "{fd}");
            }
            out.push_str(op);
            out.push(' ');
            out.push_str(&r.target);
        }
        // A line of only redirections (`> f`) starts with a space.
        let lead = out[start..].len() - out[start..].trim_start().len();
        out.drain(start..start + lead);
    }

    /// Arguments joined by single spaces: what an `args` regex of a rule sees.
    pub fn arg_line(&self) -> String {
        self.args.join(" ")
    }

    /// Arguments that are options: everything starting with `-` before a `--`.
    pub fn options(&self) -> impl Iterator<Item = &str> {
        self.args
            .iter()
            .map(String::as_str)
            .take_while(|a| *a != "--")
            .filter(|a| a.starts_with('-') && a.len() > 1)
    }

    /// Whether a short option cluster (`-rf`, `-r`) contains `flag`.
    /// Clusters that are numbers (`-9`, `-1`) count too: `kill -9` has flag `9`.
    pub fn has_short(&self, flag: char) -> bool {
        self.options()
            .any(|o| !o.starts_with("--") && o[1..].contains(flag))
    }

    /// Whether a long option is present, bare or as `--name=value`. GNU tools
    /// accept unambiguous prefixes, so `--recur` counts for `--recursive` when
    /// at least `min` characters are given.
    pub fn has_long(&self, name: &str) -> bool {
        self.options().any(|o| {
            let key = o.split('=').next().unwrap_or(o);
            key == name || (key.len() >= 4 && key.starts_with("--") && name.starts_with(key))
        })
    }

    /// Arguments that are not options: those not starting with `-`, and
    /// everything after `--`.
    pub fn operands(&self) -> Vec<&str> {
        let mut out = Vec::with_capacity(self.args.len());
        let mut after_dashes = false;
        for arg in &self.args {
            if after_dashes {
                out.push(arg.as_str());
            } else if arg == "--" {
                after_dashes = true;
            } else if !(arg.starts_with('-') && arg.len() > 1) {
                out.push(arg.as_str());
            }
        }
        out
    }

    /// Whether a command earlier in the pipeline runs one of `programs`.
    pub fn fed_by(&self, programs: &[&str]) -> bool {
        self.upstream
            .iter()
            .any(|u| program_in(&u.program, programs))
    }

    /// Whether a wrapper of this name (`sudo`, `doas`) was peeled off.
    pub fn wrapped_by(&self, name: &str) -> bool {
        self.wrappers.iter().any(|w| w.name == name)
    }

    /// Whether an environment assignment to `name` precedes the command.
    pub fn env_var(&self, name: &str) -> Option<&str> {
        self.env
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(args: &[&str]) -> Command {
        Command {
            program: "rm".into(),
            path: "rm".into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            ..Command::default()
        }
    }

    #[test]
    fn flags_and_operands() {
        let c = cmd(&["-rf", "--no-preserve-root", "a", "--", "-b"]);
        assert!(c.has_short('r') && c.has_short('f') && !c.has_short('v'));
        assert!(c.has_long("--no-preserve-root"));
        assert_eq!(c.operands(), vec!["a", "-b"]);
    }

    #[test]
    fn whitespace_over_bytes_is_the_character_test() {
        let mut texts: Vec<String> = (0..=0x3000u32)
            .filter_map(char::from_u32)
            .map(|c| format!("ab{c}é"))
            .collect();
        texts.extend(["", "plain", "é", "éa b", "a\u{85}", "x\u{3000}", "\u{b}"].map(String::from));
        for text in &texts {
            assert_eq!(
                has_whitespace(text),
                text.contains(char::is_whitespace),
                "{text:?}"
            );
        }
    }

    #[test]
    fn program_names_as_the_plain_computation() {
        let plain = |word: &str| {
            let base = word
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or(word)
                .to_lowercase();
            base.strip_suffix(".exe")
                .map(str::to_string)
                .unwrap_or(base)
        };
        for word in [
            "",
            "rm",
            "/bin/RM",
            "C:\\x\\Rm.EXE",
            "rm.exe",
            ".exe",
            "a/.EXE",
            "Ünïcode/ÄBC.exe",
            "İstanbul",
            "x.exe.exe",
            "dir/",
            "ΣΑΣ",
            "Ä/rm",
            "ÄBC\\Git.exe",
            "UP/low",
            "up/LOW.ExE",
            "x/ÄB/rm.EXE",
            "rm/Ä",
        ] {
            assert_eq!(program_name(word), plain(word), "{word}");
            assert_eq!(program_name_of(word), plain(word), "{word}");
        }
    }

    #[test]
    fn long_option_prefixes() {
        assert!(cmd(&["--recur"]).has_long("--recursive"));
        assert!(!cmd(&["--r"]).has_long("--recursive"));
    }
}
