//! The code-sink table: every option, setting, subcommand and operand through which a program runs code, with the language of that code, and how each is judged.
//!
//! Code in a language warden reads is analysed in that language (shell
//! text as `bash -c` would run it, Python/Perl/Ruby/Lua as the interpreter
//! readers do); a program or script path is judged as the program it names
//! (the content, when the same call wrote it); code warden cannot read asks
//! when it can reach processes, files or the network.

use super::eval::shell_quote;

mod languages;
mod rows;
mod scripts;

use rows::{rows_of, FIRST_ROW};

pub(super) use languages::outside_project;
pub(super) use scripts::unescape;

/// The language of the code a sink takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// A shell command line, run as `sh -c` runs it.
    Shell,
    /// A command given as separate words (no shell in between).
    Argv,
    /// A program, possibly with arguments, that the tool starts.
    Program,
    /// A script file or a directory of scripts the tool runs.
    Script,
    Python,
    Lua,
    VimEx,
    Elisp,
    Gdb,
    Lldb,
    /// A sed script (`e`, `s///e`, `w FILE`).
    Sed,
    /// An awk program (`system()`, pipes to and from commands, `print > FILE`).
    Awk,
    /// m4 macros (`syscmd`, `esyscmd`).
    M4,
    /// TeX source (`\write18{...}`, `\openout`).
    Tex,
    /// Makefile text (`$(shell ...)`, `$(file >F,...)`, recipes).
    Make,
    /// A file the program writes (a log, a trace, a report); `|CMD` pipes to a command.
    Output,
    /// A configuration or library the program loads, which can run
    /// commands or code of its own (`nginx -c`, `ldconfig -f`, a plugin).
    Loaded,
    /// Commands sent by whoever reaches a port the program listens on.
    Remote,
    /// Languages warden does not read (Tcl, NSE scripts).
    Unread,
}

impl Lang {
    fn name(self) -> &'static str {
        match self {
            Lang::Shell => "shell text",
            Lang::Argv => "argv",
            Lang::Program => "program",
            Lang::Script => "script file",
            Lang::Python => "Python",
            Lang::Lua => "Lua",
            Lang::VimEx => "Vim Ex",
            Lang::Elisp => "Elisp",
            Lang::Gdb => "gdb commands",
            Lang::Lldb => "lldb commands",
            Lang::Sed => "sed script",
            Lang::Awk => "awk program",
            Lang::M4 => "m4 macros",
            Lang::Tex => "TeX",
            Lang::Make => "makefile text",
            Lang::Output => "file written",
            Lang::Loaded => "config or library loaded",
            Lang::Remote => "commands from the network",
            Lang::Unread => "unread",
        }
    }
}

/// How the code reaches the program.
#[derive(Clone, Copy, Debug)]
pub enum Given {
    /// An option's value: `-x V`, `-xV`, `--name V`, `--name=V`, or a long
    /// name cut short (`--compress` for `--compress-program`); `+` is vim's
    /// `+CMD`.
    Opt(&'static [&'static str]),
    /// An option of a subcommand (`npm run --script-shell=P`).
    SubOpt(&'static str, &'static [&'static str]),
    /// A `KEY=VALUE` setting given by one of the options, for keys matching
    /// a pattern (`*` stands for one or more name parts).
    Setting(&'static [&'static str], &'static [&'static str]),
    /// A `KEY=VALUE` (or `KEY VALUE`) value of one of the options,
    /// anywhere among the arguments (`ssh -o ProxyCommand=CMD`).
    Keyed(&'static [&'static str], &'static [&'static str]),
    /// A setting stored by `SUB KEY VALUE` (`git config core.pager P`).
    Stored(&'static str, &'static [&'static str]),
    /// The words after a subcommand and its verb (`git bisect run CMD...`).
    SubArgs(&'static str, &'static str),
    /// The program's first operand (`run-parts DIR`); the options listed
    /// take a value.
    Operand(&'static [&'static str]),
    /// A sed or awk program: the `-e` (`--expression`, `--source`) values,
    /// or else the first operand; the options listed take a value.
    Program(&'static [&'static str]),
    /// The words after its own options (those listed take a value), run as
    /// one command line (`watch CMD`, `sem CMD`).
    Rest(&'static [&'static str]),
    /// The whole of its input (`at`, `batch`: the job).
    Stdin,
    /// Lines of its input typed at its prompt that start with `!`; `true`:
    /// only with a file operand (a pager's input is otherwise the text shown).
    Prompt(bool),
    /// An environment variable, whatever program it is given to.
    Env(&'static str),
}

/// One row of the table.
pub struct Sink {
    pub programs: &'static [&'static str],
    pub given: Given,
    pub lang: Lang,
}

/// Rows of environment variables: any program passes them on.
const ANY: &[&str] = &["(any)"];
const VIMS: &[&str] = &[
    "vim", "vi", "nvim", "ex", "view", "vimdiff", "gvim", "rvim", "nvi",
];
const EMACS: &[&str] = &["emacs", "emacsclient"];
const SSHES: &[&str] = &["scp", "sftp", "rsync"];
const SSH_CLIENTS: &[&str] = &["ssh", "scp", "sftp", "sshfs"];
const TARS: &[&str] = &["tar", "gtar", "bsdtar"];
const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk"];
const TEXES: &[&str] = &[
    "tex", "latex", "pdflatex", "xelatex", "lualatex", "pdftex", "xetex", "luatex", "etex",
];
/// TeX's options that take a value as the next word.
const TEX_VALUED: &[&str] = &[
    "-output-directory",
    "-aux-directory",
    "-jobname",
    "-interaction",
    "-output-format",
    "-fmt",
    "-progname",
    "-include-directory",
];
/// APT settings whose value is a command run around an update or an
/// install (`apt-get -o APT::Update::Pre-Invoke::=CMD update`).
const APT_HOOK_KEYS: &[&str] = &[
    "apt::update::pre-invoke",
    "apt::update::post-invoke",
    "apt::update::post-invoke-success",
    "dpkg::pre-invoke",
    "dpkg::post-invoke",
    "dpkg::pre-install-pkgs",
];
/// ssh settings (`-o Name=value`, `-o "Name value"`) whose value a local shell runs.
const SSH_COMMAND_KEYS: &[&str] = &[
    "proxycommand",
    "localcommand",
    "knownhostscommand",
    "ssh_command",
];
const GIT_CONFIG: &[&str] = &["-c", "--config-env"];
/// git settings whose value git runs: shell text, or a program.
const GIT_SHELL_KEYS: &[&str] = &[
    "alias.*",
    "core.pager",
    "pager.*",
    "core.sshcommand",
    "core.editor",
    "sequence.editor",
    "core.fsmonitor",
    "core.gitproxy",
    "core.askpass",
    "diff.external",
    "diff.*.textconv",
    "diff.*.command",
    "difftool.*.cmd",
    "mergetool.*.cmd",
    "merge.*.driver",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "credential.helper",
    "credential.*.helper",
    "gpg.program",
    "gpg.*.program",
    "uploadpack.packobjectshook",
    "sendemail.sendmailcmd",
    "web.browser",
    "browser.*.cmd",
];

/// Every option, setting and subcommand warden knows to run code.
#[rustfmt::skip]
pub static SINKS: &[Sink] = &[
    Sink { programs: ANY, given: Given::Env("GIT_SSH_COMMAND"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("GIT_EDITOR"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("GIT_SEQUENCE_EDITOR"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("GIT_PAGER"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("GIT_EXTERNAL_DIFF"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("GIT_PROXY_COMMAND"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("GIT_ASKPASS"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("SSH_ASKPASS"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("SUDO_ASKPASS"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("PAGER"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("MANPAGER"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("EDITOR"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("VISUAL"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("LESSOPEN"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("LESSCLOSE"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("PROMPT_COMMAND"), lang: Lang::Shell },
    Sink { programs: ANY, given: Given::Env("BASH_ENV"), lang: Lang::Script },
    Sink { programs: ANY, given: Given::Env("ENV"), lang: Lang::Script },
    Sink { programs: VIMS, given: Given::Opt(&["-c", "--cmd", "+"]), lang: Lang::VimEx },
    Sink { programs: VIMS, given: Given::Opt(&["-S"]), lang: Lang::Script },
    Sink { programs: EMACS, given: Given::Opt(&["--eval", "-eval"]), lang: Lang::Elisp },
    Sink { programs: EMACS, given: Given::Opt(&["-l", "--load", "--script", "-script", "-x"]), lang: Lang::Script },
    Sink { programs: &["gdb"], given: Given::Opt(&["-ex", "--ex", "-iex", "--iex", "-eval-command", "--eval-command", "-init-eval-command", "--init-eval-command"]), lang: Lang::Gdb },
    Sink { programs: &["gdb"], given: Given::Opt(&["-x", "--x", "-command", "--command", "-ix", "--init-command"]), lang: Lang::Script },
    Sink { programs: &["lldb"], given: Given::Opt(&["-o", "--one-line", "-O", "--one-line-before-file", "-k", "--one-line-on-crash"]), lang: Lang::Lldb },
    Sink { programs: &["lldb"], given: Given::Opt(&["-s", "--source", "-S", "--source-before-file"]), lang: Lang::Script },
    Sink { programs: &["git"], given: Given::Setting(GIT_CONFIG, GIT_SHELL_KEYS), lang: Lang::Shell },
    Sink { programs: &["git"], given: Given::Setting(GIT_CONFIG, &["core.hookspath"]), lang: Lang::Script },
    Sink { programs: &["git"], given: Given::Stored("config", GIT_SHELL_KEYS), lang: Lang::Shell },
    Sink { programs: &["git"], given: Given::Stored("config", &["core.hookspath"]), lang: Lang::Script },
    Sink { programs: &["git"], given: Given::SubOpt("rebase", &["-x", "--exec"]), lang: Lang::Shell },
    Sink { programs: &["git"], given: Given::SubArgs("bisect", "run"), lang: Lang::Argv },
    Sink { programs: &["git"], given: Given::SubArgs("submodule", "foreach"), lang: Lang::Shell },
    Sink { programs: &["git"], given: Given::SubOpt("difftool", &["-x", "--extcmd"]), lang: Lang::Shell },
    Sink { programs: &["git"], given: Given::SubOpt("grep", &["-O", "--open-files-in-pager"]), lang: Lang::Shell },
    Sink { programs: &["su", "runuser", "sg", "script", "flock"], given: Given::Opt(&["-c", "--command"]), lang: Lang::Shell },
    Sink { programs: &["nix-shell"], given: Given::Opt(&["--run", "--command"]), lang: Lang::Shell },
    Sink { programs: SSHES, given: Given::Opt(&["-S"]), lang: Lang::Program },
    Sink { programs: &["rsync"], given: Given::Opt(&["-e", "--rsh", "--rsync-path"]), lang: Lang::Shell },
    Sink { programs: TARS, given: Given::Opt(&["-I", "--use-compress-program", "--to-command", "--rsh-command", "--info-script", "--new-volume-script", "-F"]), lang: Lang::Program },
    Sink { programs: &["cargo"], given: Given::Setting(&["--config"], &["build.rustc-wrapper", "build.rustc-workspace-wrapper", "build.rustc", "build.rustdoc", "target.*.runner", "target.*.linker", "host.linker", "credential-provider", "registry.credential-provider"]), lang: Lang::Program },
    Sink { programs: &["npm", "pnpm", "yarn"], given: Given::Opt(&["--script-shell"]), lang: Lang::Program },
    Sink { programs: &["rg"], given: Given::Opt(&["--pre"]), lang: Lang::Program },
    Sink { programs: &["sort"], given: Given::Opt(&["--compress-program"]), lang: Lang::Program },
    Sink { programs: &["ag"], given: Given::Opt(&["--pager"]), lang: Lang::Program },
    Sink { programs: &["man"], given: Given::Opt(&["-P", "--pager", "-H", "--html"]), lang: Lang::Program },
    Sink { programs: &["nmap"], given: Given::Opt(&["--script"]), lang: Lang::Script },
    Sink { programs: &["run-parts"], given: Given::Operand(&["-u", "--umask", "-a", "--arg", "--regex"]), lang: Lang::Script },
    Sink { programs: &["zip"], given: Given::Opt(&["-TT", "--unzip-command"]), lang: Lang::Program },
    Sink { programs: &["strace", "ltrace"], given: Given::Opt(&["-o", "--output"]), lang: Lang::Output },
    Sink { programs: &["tcpdump"], given: Given::Opt(&["-z"]), lang: Lang::Program },
    Sink { programs: &["expect"], given: Given::Opt(&["-c"]), lang: Lang::Unread },
    Sink { programs: &["expect"], given: Given::Operand(&["-f"]), lang: Lang::Script },
    Sink { programs: SSH_CLIENTS, given: Given::Keyed(&["-o"], SSH_COMMAND_KEYS), lang: Lang::Shell },
    Sink { programs: &["sftp", "ftp", "lftp", "smbclient", "gnuplot", "ed", "red"], given: Given::Prompt(false), lang: Lang::Shell },
    Sink { programs: &["less", "more"], given: Given::Prompt(true), lang: Lang::Shell },
    Sink { programs: &["at", "batch"], given: Given::Stdin, lang: Lang::Shell },
    Sink { programs: &["watch"], given: Given::Rest(&["-n", "--interval", "-q", "--equexit"]), lang: Lang::Shell },
    Sink { programs: &["sem"], given: Given::Rest(super::runners::PARALLEL_VALUED), lang: Lang::Shell },
    Sink { programs: &["apt", "apt-get", "apt-cache", "aptitude"], given: Given::Keyed(&["-o", "--option"], APT_HOOK_KEYS), lang: Lang::Shell },
    Sink { programs: &["dpkg"], given: Given::Opt(&["--pre-invoke", "--post-invoke"]), lang: Lang::Shell },
    Sink { programs: &["at", "batch"], given: Given::Opt(&["-f"]), lang: Lang::Script },
    Sink { programs: TARS, given: Given::Keyed(&["--checkpoint-action"], &["exec"]), lang: Lang::Shell },
    Sink { programs: &["sed", "gsed"], given: Given::Program(&["-f", "-l", "--file", "--line-length"]), lang: Lang::Sed },
    Sink { programs: AWKS, given: Given::Program(&["-f", "-v", "-F", "--file", "--assign", "--field-separator"]), lang: Lang::Awk },
    Sink { programs: &["m4"], given: Given::Stdin, lang: Lang::M4 },
    Sink { programs: &["m4"], given: Given::Operand(&["-D", "-U", "-I", "-o", "--define", "--undefine", "--include"]), lang: Lang::M4 },
    Sink { programs: &["make", "gmake"], given: Given::Opt(&["-E", "--eval"]), lang: Lang::Make },
    Sink { programs: TEXES, given: Given::Operand(TEX_VALUED), lang: Lang::Tex },
    Sink { programs: &["aria2c"], given: Given::Opt(&["--on-download-complete", "--on-download-start", "--on-download-error", "--on-download-pause", "--on-download-stop", "--on-bt-download-complete"]), lang: Lang::Program },
    Sink { programs: &["socket"], given: Given::Opt(&["-p"]), lang: Lang::Program },
    Sink { programs: &["service"], given: Given::Operand(&[]), lang: Lang::Script },
    Sink { programs: &["fzf"], given: Given::Opt(&["--listen", "--listen-unsafe"]), lang: Lang::Remote },
    Sink { programs: &["find"], given: Given::Opt(&["-fprintf", "-fprint", "-fprint0", "-fls"]), lang: Lang::Output },
    Sink { programs: &["screen"], given: Given::Opt(&["-Logfile"]), lang: Lang::Output },
    Sink { programs: &["script"], given: Given::Operand(&["-c", "--command", "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format", "-o", "--output-limit", "-t"]), lang: Lang::Output },
    Sink { programs: &["nginx"], given: Given::Opt(&["-c"]), lang: Lang::Loaded },
    Sink { programs: &["ldconfig"], given: Given::Opt(&["-f"]), lang: Lang::Loaded },
    Sink { programs: &["procmail"], given: Given::Operand(&["-f", "-a"]), lang: Lang::Loaded },
    Sink { programs: &["fail2ban-client", "fail2ban-server"], given: Given::Opt(&["-c"]), lang: Lang::Loaded },
    Sink { programs: &["mysql", "mariadb", "mysqldump", "mysqladmin"], given: Given::Opt(&["--default-auth", "--plugin-dir"]), lang: Lang::Loaded },
];

/// Environment variables that hold more options for one program, read
/// before its own (GNU tar's `TAR_OPTIONS`).
const OPTION_VARIABLES: &[(&[&str], &str)] = &[(TARS, "TAR_OPTIONS")];

/// The options `cmd` runs with: those of its option variable, then its own.
pub(super) fn all_args(program: &str, env: &[(String, String)], args: &[String]) -> Vec<String> {
    let mut all: Vec<String> = OPTION_VARIABLES
        .iter()
        .filter(|(programs, _)| programs.contains(&program))
        .flat_map(|(_, var)| env.iter().filter(move |(name, _)| name == var))
        .flat_map(|(_, value)| value.split_whitespace().map(str::to_string))
        .collect();
    all.extend(args.iter().cloned());
    all
}

/// Whether any row names `program`.
pub fn is_sink_program(program: &str) -> bool {
    FIRST_ROW.contains(program)
}

/// Programs a program-valued option may name that only show, edit or
/// transform data (a pager, an editor, a compressor, a document converter).
const INERT_PROGRAMS: &[&str] = &[
    "cat",
    "less",
    "more",
    "most",
    "bat",
    "delta",
    "diff-so-fancy",
    "true",
    "false",
    ":",
    "gzip",
    "gunzip",
    "pigz",
    "zstd",
    "unzstd",
    "xz",
    "unxz",
    "bzip2",
    "lbzip2",
    "pbzip2",
    "lz4",
    "lzip",
    "lzop",
    "brotli",
    "unzip",
    "sccache",
    "ccache",
    "pdftotext",
    "pandoc",
    "vim",
    "vi",
    "nvim",
    "nano",
    "emacs",
    "micro",
    "code",
    "subl",
    "mate",
    "w3m",
    "lynx",
];

/// Whether a program-valued option's `value` names a program that only
/// shows, edits or transforms data (`cat`, `gzip`, `pdftotext`, `vim`),
/// with no shell syntax that could run another.
pub fn inert_program(value: &str) -> bool {
    let first = value.split_whitespace().next().unwrap_or("");
    let name = first.rsplit('/').next().unwrap_or(first);
    let system = !first.contains('/') || first.starts_with("/usr/") || first.starts_with("/bin/");
    system && INERT_PROGRAMS.contains(&name) && !value.contains(['$', '`', ';', '|', '&', '<', '>'])
}

/// The program-valued options of `program` in `args` that name a program
/// other than an inert one: what a rule asks about.
pub fn unknown_programs(program: &str, args: &[String]) -> bool {
    rows_of(program).is_some_and(|mut rows| {
        rows.any(|row| {
            row.lang == Lang::Program
                && values(row.given, args, None)
                    .iter()
                    .any(|value| !inert_program(value))
        })
    })
}

/// Whether git runs the value of configuration `key` (a command, a
/// program, or a directory of hooks).
pub fn git_key_runs(key: &str) -> bool {
    matches_key(key, GIT_SHELL_KEYS) || matches_key(key, &["core.hookspath", "protocol.ext.allow"])
}

/// The code each value of `given` holds in `args` (and `stdin`, the input
/// when warden knows it).
fn values(given: Given, args: &[String], stdin: Option<&str>) -> Vec<String> {
    match given {
        Given::Opt(names) => option_values(args, names),
        Given::SubOpt(sub, names) => match subcommand(args) {
            Some((s, rest)) if s == sub => option_values(rest, names),
            // npm's options may come before the subcommand too.
            _ if sub.is_empty() => option_values(args, names),
            _ => Vec::new(),
        },
        Given::Setting(opts, keys) => option_values(args_before_sub(args), opts)
            .into_iter()
            .filter_map(|s| setting(&s, keys))
            .collect(),
        Given::Keyed(opts, keys) => option_values(args, opts)
            .into_iter()
            .filter_map(|s| setting(&s, keys))
            .collect(),
        Given::Stored(sub, keys) => match subcommand(args) {
            Some((s, rest)) if s == sub => {
                let words: Vec<&String> = rest.iter().filter(|w| !w.starts_with('-')).collect();
                match words.as_slice() {
                    [key, value] if matches_key(key, keys) => {
                        vec![value.trim_start_matches('!').to_string()]
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        },
        Given::SubArgs(sub, verb) => match subcommand(args) {
            Some((s, rest)) if s == sub => sub_args(rest, verb),
            _ => Vec::new(),
        },
        Given::Env(_) => Vec::new(),
        Given::Operand(valued) => operand(args, valued)
            .filter(|_| !args.iter().any(|a| a == "--test" || a == "--list"))
            .into_iter()
            .collect(),
        Given::Program(valued) => {
            let mut scripts = option_values(args, &["-e", "--expression", "--source"]);
            if scripts.is_empty() {
                scripts.extend(operand(args, valued));
            }
            scripts
        }
        Given::Rest(valued) => {
            let (_, rest) = super::programs::split_options(args, valued);
            let rest = rest.strip_prefix(&["--".to_string()][..]).unwrap_or(rest);
            (!rest.is_empty())
                .then(|| rest.join(" "))
                .into_iter()
                .collect()
        }
        Given::Stdin => stdin.map(str::to_string).into_iter().collect(),
        Given::Prompt(with_file) => {
            if with_file && operand(args, &[]).is_none() {
                return Vec::new();
            }
            stdin
                .iter()
                .flat_map(|s| s.lines())
                .filter_map(|l| l.trim_start().strip_prefix('!'))
                .map(str::to_string)
                .collect()
        }
    }
}

/// The words after `verb` (`git bisect run CMD...`): one command line.
fn sub_args(rest: &[String], verb: &str) -> Vec<String> {
    let Some(at) = rest.iter().position(|w| w == verb) else {
        return Vec::new();
    };
    let words: Vec<&String> = rest[at + 1..]
        .iter()
        .skip_while(|w| matches!(w.as_str(), "--recursive" | "-q" | "--quiet"))
        .collect();
    if words.is_empty() {
        Vec::new()
    } else if words.len() == 1 || verb == "foreach" {
        vec![words
            .iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join(" ")]
    } else {
        vec![words
            .iter()
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" ")]
    }
}

/// The first operand: a word that is not an option, nor the value of one
/// of the `valued` options, before `--` or the word after it.
fn operand(args: &[String], valued: &[&str]) -> Option<String> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            return iter.next().cloned();
        }
        if valued.contains(&arg.as_str()) {
            iter.next();
        } else if !arg.starts_with('-') || arg == "-" {
            return Some(arg.clone());
        }
    }
    None
}

/// Options before the subcommand (git's `-c` after it is the subcommand's).
fn args_before_sub(args: &[String]) -> &[String] {
    match subcommand(args) {
        Some((_, rest)) => &args[..args.len() - rest.len() - 1],
        None => args,
    }
}

/// The first word that is not an option or an option's value, and the
/// words after it.
fn subcommand(args: &[String]) -> Option<(&str, &[String])> {
    const VALUED: &[&str] = &[
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--config",
        "--prefix",
        "-Z",
    ];
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if VALUED.contains(&arg.as_str()) {
            i += 2;
        } else if arg.starts_with('-') {
            i += 1;
        } else {
            return Some((arg.as_str(), &args[i + 1..]));
        }
    }
    None
}

/// `KEY=VALUE` (or ssh's `KEY VALUE`) when KEY matches one of `keys`
/// (case-insensitive).
fn setting(text: &str, keys: &[&str]) -> Option<String> {
    let (key, value) = text.trim_start().split_once(['=', ' ', '\t'])?;
    // APT's list settings end in `::` (`APT::Update::Pre-Invoke::=CMD`).
    let key = key.trim_end_matches(':');
    let value = value
        .trim_matches(|c| c == '"' || c == '\'')
        .trim_start_matches('!');
    matches_key(key, keys).then(|| value.to_string())
}

fn matches_key(key: &str, keys: &[&str]) -> bool {
    let key = key.trim().to_ascii_lowercase();
    keys.iter().any(|pattern| match pattern.split_once('*') {
        Some((head, tail)) => {
            key.len() > head.len() + tail.len() && key.starts_with(head) && key.ends_with(tail)
        }
        None => key == *pattern,
    })
}

/// Every value of the options `names` in `args`, up to `--`.
pub(super) fn option_values(args: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        for name in names {
            if *name == "+" {
                // `+CMD`; `+N` is a line and `+/PAT` a search.
                if let Some(v) = arg.strip_prefix('+').filter(|v| {
                    !v.is_empty() && !v.starts_with('/') && !v.bytes().all(|b| b.is_ascii_digit())
                }) {
                    out.push(v.to_string());
                }
                continue;
            }
            if arg == name {
                if let Some(v) = iter.next() {
                    out.push(v.clone());
                }
                break;
            }
            if let Some(v) = arg.strip_prefix(name).and_then(|v| v.strip_prefix('=')) {
                out.push(v.to_string());
                break;
            }
            if name.starts_with("--") {
                // GNU getopt takes an unambiguous prefix of a long name.
                let (given, value) = arg
                    .split_once('=')
                    .map_or((arg.as_str(), None), |(k, v)| (k, Some(v)));
                if given.len() >= 6 && given.len() < name.len() && name.starts_with(given) {
                    match value {
                        Some(v) => out.push(v.to_string()),
                        None => out.extend(iter.next().cloned()),
                    }
                    break;
                }
            } else if name.len() == 2
                && arg.len() > 2
                && !arg.starts_with("--")
                && arg.starts_with(name)
            {
                out.push(arg[2..].to_string());
                break;
            } else if name.len() == 2
                && arg.len() > 2
                && arg.starts_with('-')
                && !arg.starts_with("--")
                && arg.ends_with(&name[1..])
                && arg[1..].bytes().all(|b| b.is_ascii_alphabetic())
            {
                // `-qc CMD`: a cluster of flags ending in the option.
                out.extend(iter.next().cloned());
                break;
            }
        }
    }
    out
}

/// The table as a Markdown table, for the README.
pub fn markdown() -> String {
    let mut out = String::from("| Program | Code given by | Language |\n|---|---|---|\n");
    for sink in SINKS {
        let programs: Vec<String> = if sink.programs == ANY {
            vec!["any program".to_string()]
        } else {
            sink.programs.iter().map(|p| format!("`{p}`")).collect()
        };
        let spell = |names: &[&str]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let given = match sink.given {
            Given::Opt(names) => format!("option {}", spell(names)),
            Given::SubOpt(sub, names) => format!("`{sub}` option {}", spell(names)),
            Given::Setting(opts, keys) | Given::Keyed(opts, keys) => {
                format!("setting {} of {}", spell(keys), spell(opts))
            }
            Given::Stored(sub, keys) => format!("`{sub}` stores {}", spell(keys)),
            Given::SubArgs(sub, verb) => format!("`{sub} {verb}` words"),
            Given::Operand(_) => "first operand".to_string(),
            Given::Program(_) => "`-e` or first operand".to_string(),
            Given::Rest(_) => "words after its options".to_string(),
            Given::Stdin => "its input".to_string(),
            Given::Prompt(_) => "`!` lines of its input".to_string(),
            Given::Env(var) => format!("environment `{var}`"),
        };
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            programs.join(", "),
            given,
            sink.lang.name()
        ));
    }
    out
}

/// Whether shell text starts a shell that reads its commands from stdin
/// (`sh`, `/bin/bash -s`).
pub(in crate::shell) fn is_shell_text(text: &str) -> bool {
    const SHELLS: &[&str] = &[
        "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "busybox",
    ];
    let first = text.split_whitespace().next().unwrap_or("");
    let name = first.rsplit('/').next().unwrap_or(first);
    SHELLS.contains(&name) && !text.split_whitespace().any(|w| w == "-c")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn option_spellings() {
        let names = &["-x", "--exec"];
        for words in [
            &["-x", "CMD"][..],
            &["-xCMD"],
            &["--exec", "CMD"],
            &["--exec=CMD"],
            &["-ix", "CMD"],
        ] {
            assert_eq!(option_values(&args(words), names), ["CMD"], "{words:?}");
        }
        assert!(option_values(&args(&["--", "-x", "CMD"]), names).is_empty());
        // A long name cut short, as GNU getopt takes it.
        let long = &["--compress-program"];
        assert_eq!(option_values(&args(&["--compress=gz"]), long), ["gz"]);
        assert!(option_values(&args(&["--comp"]), long).is_empty());
        // vim's `+CMD`, not `+N` or `+/pattern`.
        let vim = &["-c", "+"];
        assert_eq!(option_values(&args(&["+q", "+42", "+/x"]), vim), ["q"]);
    }

    #[test]
    fn settings_and_subcommands() {
        let git = args(&[
            "-c",
            "Core.Pager=less",
            "-c",
            "user.name=x",
            "log",
            "-c",
            "alias.a=!x",
        ]);
        assert_eq!(values(SINKS_GIT_SETTING, &git, None), ["less"]);
        let stored = args(&["config", "--global", "alias.st", "!make"]);
        assert_eq!(
            values(Given::Stored("config", GIT_SHELL_KEYS), &stored, None),
            ["make"]
        );
        let bisect = args(&["bisect", "run", "sh", "-c", "make test"]);
        assert_eq!(
            values(Given::SubArgs("bisect", "run"), &bisect, None),
            ["sh -c 'make test'"]
        );
        assert!(matches_key("mergetool.meld.cmd", GIT_SHELL_KEYS));
        assert!(!matches_key("mergetool.cmd", GIT_SHELL_KEYS));
    }

    const SINKS_GIT_SETTING: Given = Given::Setting(GIT_CONFIG, GIT_SHELL_KEYS);

    #[test]
    fn inert_programs() {
        assert!(inert_program("gzip -9"));
        assert!(inert_program("/usr/bin/less -R"));
        assert!(!inert_program("less; rm -rf ~"));
        assert!(!inert_program("/tmp/cat"));
        assert!(!inert_program("sh -c id"));
    }

    #[test]
    fn every_row_renders() {
        let table = markdown();
        assert_eq!(table.lines().count(), SINKS.len() + 2);
    }
}
