//! The code-sink table: every option, setting, subcommand and operand through which a program runs code, with the language of that code, and how each is judged.
//!
//! Code in a language warden reads is analysed in that language (shell
//! text as `bash -c` would run it, Python/Perl/Ruby/Lua as the interpreter
//! readers do); a program or script path is judged as the program it names
//! (the content, when the same call wrote it); code warden cannot read asks
//! when it can reach processes, files or the network.

mod languages;
mod rows;
mod scripts;
mod unread;
mod values;

use rows::{rows_of, FIRST_ROW};

pub(super) use languages::outside_project;
pub(super) use scripts::unescape;
pub(in crate::shell) use values::option_values;
use values::{matches_key, values};

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
    /// DOS commands in an emulator, which reach the host only through the
    /// directories `MOUNT` gives it.
    Dos,
    /// A file the program writes (a log, a trace, a report); `|CMD` pipes to a command.
    Output,
    /// A configuration or library the program loads, which can run
    /// commands or code of its own (`nginx -c`, `ldconfig -f`, a plugin).
    Loaded,
    /// Commands sent by whoever reaches a port the program listens on.
    Remote,
    /// Languages warden does not read (Lisp, Elixir, Erlang, the JVM's and
    /// .NET's script languages, AppleScript, Haskell, DOS commands, …):
    /// asked about unless made only of printing, version and arithmetic words.
    Unread,
}

impl Lang {
    pub fn name(self) -> &'static str {
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
            Lang::Dos => "DOS commands",
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
    /// The words after a subcommand and its verb (`git bisect run CMD...`),
    /// or right after the subcommand when the verb is empty (`crystal eval CODE`).
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
    /// Its input, when it runs no script file: no operand other than
    /// `/dev/stdin`, after the subcommand if one is named (`dotnet fsi`).
    /// An option's value counts as an operand unless another row of the
    /// program takes the option.
    Input(&'static str),
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
    Sink { programs: &["screen"], given: Given::Opt(&["-Logfile", "-L"]), lang: Lang::Output },
    Sink { programs: &["less"], given: Given::Opt(&["-o", "-O", "--log-file", "--LOG-FILE"]), lang: Lang::Output },
    Sink { programs: &["dosbox", "dosbox-x"], given: Given::Opt(&["-c"]), lang: Lang::Dos },
    Sink { programs: &["acr"], given: Given::Opt(&["-r"]), lang: Lang::Script },
    Sink { programs: &["script"], given: Given::Operand(&["-c", "--command", "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format", "-o", "--output-limit", "-t"]), lang: Lang::Output },
    Sink { programs: &["nginx"], given: Given::Opt(&["-c"]), lang: Lang::Loaded },
    Sink { programs: &["ldconfig"], given: Given::Opt(&["-f"]), lang: Lang::Loaded },
    Sink { programs: &["procmail"], given: Given::Operand(&["-f", "-a"]), lang: Lang::Loaded },
    Sink { programs: &["fail2ban-client", "fail2ban-server"], given: Given::Opt(&["-c"]), lang: Lang::Loaded },
    Sink { programs: &["mysql", "mariadb", "mysqldump", "mysqladmin"], given: Given::Opt(&["--default-auth", "--plugin-dir"]), lang: Lang::Loaded },
    // Interpreters of languages warden does not read: an eval option, a
    // subcommand's code, or the program on their input.
    Sink { programs: &["sbcl", "octave"], given: Given::Opt(&["--eval"]), lang: Lang::Unread },
    Sink { programs: &["clisp"], given: Given::Opt(&["-x"]), lang: Lang::Unread },
    Sink { programs: &["ecl"], given: Given::Opt(&["-eval", "--eval"]), lang: Lang::Unread },
    Sink { programs: &["erl"], given: Given::Opt(&["-eval"]), lang: Lang::Unread },
    Sink { programs: &["csi"], given: Given::Opt(&["-eval", "-e", "-p"]), lang: Lang::Unread },
    Sink { programs: &["kotlin", "kotlinc", "kotlinc-jvm"], given: Given::Opt(&["-expression", "-e"]), lang: Lang::Unread },
    Sink { programs: &["scala-cli"], given: Given::Opt(&["--execute-scala", "--execute-script", "-e"]), lang: Lang::Unread },
    Sink { programs: &["ccl", "ccl64", "elixir", "iex", "racket", "clojure", "clj", "bb", "qjs", "fennel"], given: Given::Opt(&["--eval", "-e"]), lang: Lang::Unread },
    Sink { programs: &["osascript", "swift", "ghc", "groovy", "scala", "gosh", "raku", "perl6", "rakudo", "janet", "gforth", "pike", "rhino", "jrunscript", "gst"], given: Given::Opt(&["-e"]), lang: Lang::Unread },
    Sink { programs: &["guile", "hy"], given: Given::Opt(&["-c"]), lang: Lang::Unread },
    Sink { programs: &["mix"], given: Given::SubOpt("run", &["-e", "--eval"]), lang: Lang::Unread },
    Sink { programs: &["nim"], given: Given::SubOpt("e", &["--eval"]), lang: Lang::Unread },
    Sink { programs: &["crystal"], given: Given::SubArgs("eval", ""), lang: Lang::Unread },
    Sink { programs: &["dotnet"], given: Given::SubArgs("script", "eval"), lang: Lang::Unread },
    Sink { programs: &["dotnet"], given: Given::Input("fsi"), lang: Lang::Unread },
    Sink { programs: &["sbcl", "clisp", "ecl", "ccl", "ccl64", "iex", "erl", "groovysh", "scala", "osascript", "ghci", "guile", "jrunscript", "jjs", "dotnet-script"], given: Given::Input(""), lang: Lang::Unread },
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

/// The options through which `program`'s rows take code: their values are
/// code, not a script file the program runs instead of its input.
fn code_options(program: &str) -> Vec<&'static str> {
    rows_of(program)
        .into_iter()
        .flatten()
        .flat_map(|row| match row.given {
            Given::Opt(names) | Given::SubOpt(_, names) => names,
            _ => &[],
        })
        .copied()
        .collect()
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

/// Whether git runs the value of configuration `key` (a command, a
/// program, or a directory of hooks).
pub fn git_key_runs(key: &str) -> bool {
    matches_key(key, GIT_SHELL_KEYS) || matches_key(key, &["core.hookspath", "protocol.ext.allow"])
}

/// The table as a Markdown table, for docs/decisions.md.
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
            Given::SubArgs(sub, "") => format!("`{sub}` words"),
            Given::SubArgs(sub, verb) => format!("`{sub} {verb}` words"),
            Given::Operand(_) => "first operand".to_string(),
            Given::Program(_) => "`-e` or first operand".to_string(),
            Given::Rest(_) => "words after its options".to_string(),
            Given::Stdin => "its input".to_string(),
            Given::Input("") => "its input, with no script named".to_string(),
            Given::Input(sub) => format!("`{sub}`'s input, with no script named"),
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
    fn input_is_code_only_without_a_script() {
        let sbcl = code_options("sbcl");
        assert!(sbcl.contains(&"--eval"));
        let input = |words: &[&str]| values(Given::Input(""), &args(words), Some("(x)"), &sbcl);
        assert_eq!(input(&["--noinform"]), ["(x)"]);
        assert_eq!(input(&["--eval", "(print 1)"]), ["(x)"]);
        assert_eq!(input(&["--script", "/dev/stdin"]), ["(x)"]);
        assert!(input(&["--load", "x.lisp"]).is_empty());
        assert!(input(&["build.lisp"]).is_empty());
        let fsi = |words: &[&str]| values(Given::Input("fsi"), &args(words), Some("x"), &[]);
        assert_eq!(fsi(&["fsi"]), ["x"]);
        assert!(fsi(&["fsi", "script.fsx"]).is_empty());
        assert!(fsi(&["run"]).is_empty());
    }

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
