//! Command analysis: from a command line to the simple commands the shell would really run.
//!
//! The pipeline is `normalize` (strip what hides characters), `parse` (a
//! forgiving parser that never fails: unterminated quotes and substitutions
//! end at the end of input), then `eval` (walks the tree with the variables,
//! functions and aliases the line itself defines, expands words, peels
//! wrappers such as `sudo` and `timeout`, and recurses into `bash -c`,
//! `eval`, `$( )`, pipelines into shells and decodable payloads).

mod arith;
mod command;
pub mod convention;
mod cwd;
mod decode;
mod eval;
mod expand;
mod interp;
mod launchers;
mod make;
pub(crate) mod names;
mod normalize;
mod output;
mod params;
mod parse;
mod programs;
mod runners;
mod shells;
pub mod sinks;
mod wrappers;

pub use command::{
    has_whitespace, program_in, program_name, program_name_of, Command, Redirect, RedirectOp,
    Through, Wrapper,
};
pub use eval::shell_quote;
pub(crate) use eval::GROUP_REDIRECT;
pub use interp::Concern;
pub(crate) use interp::{
    argument_files, inline_code, interpreter_names, invocation as interpreter_invocation,
    language as interpreter_language, read as read_interpreter_code, Source as InterpreterSource,
};
pub(crate) use programs::{has_model, modelled_names, reads_code_as_shell, DECODED};
pub(crate) use runners::{find_options, find_skips_roots, PARALLEL_VALUED, XARGS_VALUED};

/// The patterns of the analyzer's gated regexes, for the gate's generated table.
#[cfg(test)]
pub(crate) const GATED: [&str; 3] = [
    interp::places::HOME,
    interp::places::CWD,
    interp::places::TEMP,
];

/// Limits past which the analysis stops and the verdict is block.
pub mod limits {
    /// Longest command line analysed, in bytes.
    pub const MAX_COMMAND_BYTES: usize = 1024 * 1024;
    /// Deepest nesting of `$( )`, backticks, groups and quotes in one parse.
    pub const MAX_NESTING: usize = 64;
    /// Deepest nested evaluation: strings re-analysed as shell (`bash -c`,
    /// `eval`, decoded pipes), function calls, commands run by `xargs`,
    /// `find -exec` and `parallel`.
    pub const MAX_REANALYSIS: usize = 12;
    /// Most simple commands collected from one command line.
    pub const MAX_COMMANDS: usize = 10_000;
}

/// Everything the analysis learned about one command line.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    /// The command line after normalization.
    pub text: String,
    /// Every simple command the line could run, in the order found.
    pub commands: Vec<Command>,
    pub findings: Vec<Finding>,
    /// Set when the input went past a limit; what was analysed up to then is
    /// still in `commands`.
    pub limit: Option<String>,
    /// Files the line writes with content warden knows (`echo 'x' > f`), by
    /// path as written: a program given one of them may run what is in it.
    pub files: Vec<(String, String)>,
    /// What the rules work out from the whole line and ask again.
    pub memo: LineMemo,
}

/// Facts the built-in rules derive from a whole line, kept for the next
/// rule that asks; like a command's [`command::Memo`], a copy starts empty
/// and it takes no part in what the analysis says.
#[derive(Default)]
pub struct LineMemo {
    /// Every leak of secrets on the line, with the rule that decides it:
    /// nine rules ask (`rules::leak`).
    pub(crate) leaks: std::cell::OnceCell<Vec<(&'static str, String)>>,
    /// What the line shows the agent, as `rules::reveal` finds it: two
    /// rules ask, one for secrets and one for the environment.
    pub(crate) shown: std::cell::OnceCell<Vec<(&'static str, String)>>,
    /// Whether a command of the line fetches from the network, as
    /// `rules::net` finds it: three rules ask before reading each stage.
    pub(crate) fetches: std::cell::OnceCell<bool>,
}

impl Clone for LineMemo {
    fn clone(&self) -> LineMemo {
        LineMemo::default()
    }
}

impl std::fmt::Debug for LineMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LineMemo")
    }
}

/// Structural observations no single command shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A function that calls itself in a pipeline or in the background.
    ForkBomb { name: String },
    /// Invisible or bidirectional-control characters were in the raw text.
    HiddenCharacters { codepoints: Vec<u32> },
    /// Interpreter code that forks in a loop that never ends
    /// (`while True: os.fork()`, `fork while fork`): the loop's source.
    ForkLoop { code: String },
    /// Interpreter code that connects a socket to a host and hands it a
    /// shell: the interpreter command, shortened.
    ReverseShell { command: String },
    /// Interpreter code that hides what it runs or loads: what it does
    /// (`concern`) and the code that does it, shortened.
    Interpreter { concern: Concern, code: String },
    /// Code handed to a program through a row of the code-sink table that
    /// warden cannot read or show harmless: the program, the language and
    /// the code (or the path of the script), shortened.
    CodeSink {
        program: String,
        lang: &'static str,
        code: String,
    },
}

/// Whether `command` ends inside a quote, substitution, group, heredoc or
/// other construct left open, which the analysis closes at the end: text
/// joined after such a line may become part of it.
pub fn leaves_open(command: &str) -> bool {
    let text = normalize::normalize(command).0;
    // Either reading of the line (see `analyze_in`) may leave it open.
    parse::parse(&text).open
        || normalize::shell_reading(command, &text).is_some_and(|raw| parse::parse(&raw).open)
}

/// Analyses one command line.
pub fn analyze(command: &str) -> Analysis {
    analyze_in(command, None)
}

/// Analyses one command line that starts in `dir`, as after `cd dir ||
/// exit` (an agent's `workdir`): every command runs there, or where a `cd`
/// of the line moves from there.
pub fn analyze_in(command: &str, dir: Option<&str>) -> Analysis {
    let (text, hidden) = normalize::normalize(command);
    let mut analysis = Analysis {
        text,
        ..Analysis::default()
    };
    if !hidden.is_empty() {
        analysis
            .findings
            .push(Finding::HiddenCharacters { codepoints: hidden });
    }
    if command.len() > limits::MAX_COMMAND_BYTES {
        analysis.limit = Some(format!(
            "the command is {} bytes long, over the {}-byte limit",
            command.len(),
            limits::MAX_COMMAND_BYTES
        ));
        return analysis;
    }
    eval::run(&mut analysis, dir);
    let quotes = normalize::ascii_quotes(&analysis.text);
    let shell = normalize::shell_reading(command, &analysis.text);
    for text in [quotes, shell].into_iter().flatten() {
        also_read(&mut analysis, text, dir);
    }
    analysis
}

/// Judges a second reading of the line beside the first (typographic quotes
/// made ASCII, or the line as the shell reads it where normalization
/// changed it): whatever either would run counts.
fn also_read(analysis: &mut Analysis, text: String, dir: Option<&str>) {
    let mut second = Analysis {
        text,
        ..Analysis::default()
    };
    eval::run(&mut second, dir);
    for cmd in second.commands {
        if !analysis.commands.contains(&cmd) {
            analysis.commands.push(cmd);
        }
    }
    for finding in second.findings {
        if !analysis.findings.contains(&finding) {
            analysis.findings.push(finding);
        }
    }
    for file in second.files {
        if !analysis.files.contains(&file) {
            analysis.files.push(file);
        }
    }
    analysis.limit = analysis.limit.take().or(second.limit);
}

/// The files `cmd` runs as code warden can read: an interpreter's script
/// (`python3 x.py`), or the makefiles `make` looks for.
pub fn files_run(cmd: &Command) -> Vec<String> {
    match cmd.program.as_str() {
        "make" | "gmake" => make::makefiles(cmd),
        _ => match interp::invocation(cmd) {
            Some(interp::Invocation {
                source: interp::Source::Files(files),
                ..
            }) => files,
            _ => Vec::new(),
        },
    }
}

/// What `cmd` runs when the file at `path` (one of [`files_run`]), which
/// the line did not write, holds `text`: the commands, as if the line had
/// written it just before, and whether `cmd` then writes its arguments in a
/// way warden cannot see (see [`Command::writes_arguments`]).
pub fn run_file(cmd: &Command, path: &str, text: &str) -> (Analysis, bool) {
    let mut analysis = Analysis::default();
    let mut copy = Command {
        writes_arguments: false,
        ..cmd.clone()
    };
    let mut eval = eval::Eval::new(&mut analysis);
    eval.files.insert(eval::file_key(path), text.to_string());
    eval.cwd = cmd.cwd.clone();
    match cmd.program.as_str() {
        "make" | "gmake" => eval.make(&copy),
        _ => eval.interpreter(&mut copy),
    }
    (analysis, copy.writes_arguments)
}
