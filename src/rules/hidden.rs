//! Commands hidden where no model looks: the arguments, environment and input of programs warden knows nothing about, and the files such a program is pointed at.
//!
//! Hundreds of ordinary programs run a command they are handed: a hook
//! option (`certbot --pre-hook`), a `key=value` setting (`apt-get -o
//! APT::Update::Pre-Invoke::=CMD`), the rest of their arguments (`aa-exec
//! CMD`), a script in a little language (`bpftrace -e 'system("CMD")'`),
//! `!CMD` typed at their prompt, or a file written a moment earlier. warden
//! models some of them; for the rest, text that reads as a dangerous command
//! is not waved through: when the text alone would be refused by the floor,
//! the call asks, naming that rule. Known data positions (`echo`, `printf`, `grep` patterns,
//! messages) stay allowed.

use std::borrow::Cow;

use crate::shell::names::{self, NameSet};
use crate::shell::{
    self, has_model, has_whitespace, program_name_of, shell_quote, Analysis, Command, Finding,
};

use super::{Matcher, Rule, DANGEROUS_SET, HARDLINE_SET};
use crate::verdict::Decision;

/// The last of the dangerous rules: every other rule has had its say.
#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "exec.command-in-argument",
        category: "a dangerous command handed to a program warden has no model of",
        reason: "many programs run a command they are given (hook options, `key=CMD` settings, the rest of their arguments, `!CMD` at their prompt, a file written just before); warden cannot tell whether this one does, and the text alone would be refused outright",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(command_in_argument),
        hits: &["aa-exec rm -rf ~", "csvtool call 'rm -rf ~;false' /etc/hosts", "certbot certonly --pre-hook 'rm -rf ~'", "bpftrace -e 'BEGIN {system(\"rm -rf ~\")}'", "cadaver https://dav.example <<'EOF'\n!rm -rf ~\nEOF", "echo 'rm -rf ~' > /tmp/t; AUTOM4TE=/tmp/t autoconf", "printf 'clean:\\n\\trm -rf ~\\n' > Cakefile && cake clean", "aa-exec warden uninstall"],
        misses: &["hg commit -m 'rm -rf ~ is gone'", "notify-send 'rm -rf finished'", "mytool --exec 'ls -la'", "ee preflight check --cmd \"git reset --hard HEAD~5\"", "psql -c \"SELECT * FROM t WHERE a = 'DROP TABLE'\"", "cargo build --release", "aa-exec ls", "echo 'rm -rf ~' > notes.txt && mytool notes.md", "apt-get install -y rm-improved", "warden why --cmd 'rm -rf ~'", "warden --agent claude why --cmd 'rm -rf /'"],
    },
    Rule {
        id: "exec.code-sink",
        category: "code handed to a program that warden cannot read or show harmless",
        reason: "the program runs code (an editor command, a debugger command, a script from outside the project) that can reach processes, files or the network",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(code_sink),
        hits: &[
            "emacs --batch --eval '(call-process \"/bin/sh\")'",
            "gdb -batch -ex 'call system(\"id\")' -p 1",
            "nmap --script /tmp/x.nse localhost",
            "vim -c 'tcl exec id'",
            "vim -c 'exe g:cmd'",
            "aria2c --on-download-complete=/tmp/h.sh https://x.example/f",
            "socket -svp '/bin/sh -i' 12345",
            "fzf --listen=12345",
            "nginx -t -c /tmp/n.conf",
            "cp /tmp/x.py conftest.py && pytest",
            "TAR_OPTIONS=--to-command=sh tar xf x.tar",
            "dosbox -c 'mount c /' -c 'echo x > c:\\etc\\hosts' -c exit",
            "dosbox-x -c \"MOUNT D ~\"",
            "rg --pre ./decode.sh secret", "rg --pre=sh pattern .",
            "sort --compress-program=sh data.txt", "sort --compress-prog ./x big.txt", "sort --compress data.txt",
            "ag --pager 'sh -c id' foo", "ag --pager=./x foo",
            "man -P 'sh -c id' ls", "man -Hfirefox ls", "man --pager=./x ls",
        ],
        misses: &[
            "vim -c ':wq' notes.txt",
            "emacs --batch -l ert -l tests.el -f ert-run-tests-batch-and-exit",
            "nmap --script default localhost",
            "git config core.hooksPath .githooks",
            "gdb -batch -ex run -ex bt ./a.out",
            "aria2c -o f.iso https://example.com/f.iso",
            "nginx -c /etc/nginx/nginx.conf",
            "cp tests/fixtures/conftest.py tests/conftest.py",
            "tar -I zstd -xf x.tar.zst",
            "dosbox game.exe -c \"MOUNT C games\"",
            "dosbox game.exe -c exit",
            "rg --pre-glob '*.gz' x", "rg --no-pre x", "rg -- --pre x", "rg --pre pdftotext foo docs/",
            "sort -u data.txt", "sort -c data.txt", "sort -k2 -t, data.csv", "sort --compress-program=gzip big.txt",
            "ag --nopager foo", "ag foo src/",
            "man rm", "man 5 crontab", "man -k shutdown", "man -P cat ls",
        ],
    },
];

/// Programs whose arguments are text to show, search for or store, never run.
#[rustfmt::skip]
const DATA_PROGRAMS: &[&str] = &[
    "echo", "printf", "print", "grep", "egrep", "fgrep", "rg", "ag", "ack", "pt", "ugrep", "jq",
    "yq", "gojq", "jaq", "test", "[", "[[", "expr", "man", "info", "tldr", "whatis", "apropos",
    "help", "which", "whereis", "type", "hash", "command", "logger", "notify-send", "wall", "cowsay",
    "figlet", "toilet", "say", "espeak", "banner", "true", "false", ":", "basename", "dirname",
    "realpath", "readlink", "stat", "file", "wc", "head", "tail", "cat", "tee", "less", "more",
    "most", "bat", "touch",
    "mkdir", "date", "sleep", "seq", "printenv", "getopts", "complete", "compgen", "pwd", "let",
    "shift", "return", "exit", "set", "shopt", "history", "ls", "cut", "sort", "uniq", "tr",
    "column", "fold", "fmt", "nl", "pr", "paste", "join", "comm", "diff", "cmp", "md5sum",
    "sha256sum", "sha1sum",
];

/// Whether `program` is one of [`DATA_PROGRAMS`], asked of every command.
pub(super) fn is_data_program(program: &str) -> bool {
    static SET: NameSet = names::name_set!(DATA_PROGRAMS);
    SET.contains(program)
}

/// Program names that are also everyday subcommands of other tools (`adb
/// reboot`, `vagrant halt`, `getent passwd`, `sqlx database drop`): as the
/// rest of another program's arguments they name an action of that program.
#[rustfmt::skip]
const COMMON_VERBS: &[&str] = &[
    "reboot", "shutdown", "halt", "poweroff", "suspend", "hibernate", "logout", "init", "passwd",
    "userdel", "useradd", "usermod", "deluser", "adduser", "groupdel", "kill", "drop", "delete",
    "truncate", "alter", "format", "reset", "destroy", "remove", "uninstall", "clean", "prune",
    "stop", "restart", "reload", "reg",
];

/// Options whose value is a message for people (commit messages, titles,
/// bodies of issues and notifications).
#[rustfmt::skip]
const MESSAGE_OPTIONS: &[&str] = &[
    "-m", "--message", "--msg", "--title", "--body", "--description", "--desc", "--comment",
    "--subject", "--summary", "--note", "--notes", "--text", "--label", "--reason", "--help",
];

/// A message option among a command's arguments, and where its text is.
pub(super) enum Message {
    /// `-m TEXT`: the next argument.
    ValueNext,
    /// `--message=TEXT`: this one.
    ValueIn,
}

/// Whether `arg` is one of [`MESSAGE_OPTIONS`], alone or with its value.
pub(super) fn message_option(arg: &str) -> Option<Message> {
    // Every message option starts with `-`: most words need no lookup.
    if !arg.starts_with('-') {
        return None;
    }
    if MESSAGE_OPTIONS.contains(&arg) {
        return Some(Message::ValueNext);
    }
    arg.split_once('=')
        .is_some_and(|(name, _)| MESSAGE_OPTIONS.contains(&name))
        .then_some(Message::ValueIn)
}

/// Characters after which a program's own syntax often starts a command:
/// `key=CMD`, `!CMD`, `|CMD`, `exec:CMD`, `(CMD`.
const LEADS: &[char] = &['=', '!', '|', ':', ';', '(', '{', '`', '^'];

/// Most texts judged on one line, so a line with thousands of arguments
/// costs no more than a few analyses.
const MAX_JUDGED: usize = 48;
/// Longest text judged as a hidden command.
const MAX_TEXT: usize = 8 * 1024;
/// Most texts gathered from one command. Every suffix after a lead
/// character is a text, so a long argument full of `=` would otherwise
/// make a number of copies quadratic in its length (80 KB of `k=v` once
/// took 0.8 GB); at most [`MAX_JUDGED`] of them are judged anyway.
const MAX_TEXTS: usize = 512;

/// The rule's matcher: the first text handed to an unmodelled program that
/// the floor would refuse as a command of its own, quoted with the program
/// and the floor rule's id.
pub(super) fn command_in_argument(analysis: &Analysis) -> Option<String> {
    let mut budget = MAX_JUDGED;
    for cmd in &analysis.commands {
        for text in texts(cmd, analysis) {
            if budget == 0 {
                return None;
            }
            if let Some(found) = judge(&text, &mut budget) {
                return Some(format!(
                    "{text}` given to `{}`, which alone is `{found}",
                    cmd.program
                ));
            }
        }
    }
    None
}

/// Whether `cmd`'s arguments are searched: programs whose shell model does
/// not say what they run. Rules may know other things about a program
/// (`apt-get` installs, `mysql` reaches a database) and still not see the
/// command in its `-o Pre-Invoke=` or its `\\!` line, so they are searched.
/// warden itself runs nothing it is given: its table of subcommands says
/// what each reads, and the floor blocks the ones that change its state.
pub(crate) fn searched(cmd: &Command) -> bool {
    *cmd.memo.searched.get_or_init(|| {
        !cmd.program.is_empty()
            && !cmd.dynamic
            && !cmd.program.contains(['$', '(', '`'])
            && !is_data_program(&cmd.program)
            && !has_model(&cmd.program)
            && cmd.program != crate::subcommands::PROGRAM
    })
}

/// The arguments of `cmd` that name a file (`~/x`, `/etc/x`, `dir/x`), alone,
/// as an option's value (`--out=F`) or quoted inside a script (`"~/.ssh/x"`).
pub(crate) fn path_arguments(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // The cheap test of the start first: most words fail it.
    let looks_like_path = |t: &str| {
        let t = t.trim();
        (t.starts_with('~') || t.starts_with('/') || t.starts_with("./") || t.starts_with("../"))
            && !has_whitespace(t)
            && !t.contains("://")
            // A public key is meant to be handed out.
            && !t.ends_with(".pub")
    };
    let mut keep = |text: &str| {
        if looks_like_path(text) && !out.iter().any(|o| o == text) {
            out.push(text.to_string());
        }
    };
    for arg in &cmd.args {
        keep(arg);
        // Most arguments are one plain ASCII word, with nothing inside to
        // split out: that one pass spares the three searches below.
        if arg
            .bytes()
            .all(|b| b.is_ascii() && !matches!(b, b'\t'..=b'\r' | b' ' | b'=' | b'"' | b'\''))
        {
            continue;
        }
        // `.output FILE`, `-o FILE` inside one argument.
        arg.split_whitespace().skip(1).for_each(&mut keep);
        if let Some((_, value)) = arg.split_once('=') {
            keep(value);
        }
        for quote in ['"', '\''] {
            arg.split(quote).skip(1).step_by(2).for_each(&mut keep);
        }
    }
    out
}

/// Whether a model or a built-in rule knows `name`: [`has_model`], or a
/// floor or dangerous rule names it. Asked of most arguments (a tldr command
/// asks it about twice): the rule sets' own program indexes answer, which
/// every call builds anyway, rather than a table of their names built again.
fn known_command(name: &str) -> bool {
    has_model(name)
        || name == crate::subcommands::PROGRAM
        || HARDLINE_SET.names(name)
        || DANGEROUS_SET.names(name)
}

/// Whether `text` starts with a word that names a program a rule or a model
/// knows, so it is worth analysing.
fn starts_a_command(text: &str) -> bool {
    /// What ends the first word among ASCII bytes (whitespace, the shell's
    /// operators, quotes), and what makes a word no bare lowercase name
    /// (`/`, `\\`, capitals), looked up once per byte of each argument.
    const ENDS: u8 = 1;
    const NOT_BARE: u8 = 2;
    static CLASS: [u8; 128] = {
        let mut class = [0u8; 128];
        let mut b = 0;
        while b < 128 {
            let c = b as u8;
            if c.is_ascii_whitespace()
                || c == 0x0b
                || matches!(
                    c,
                    b';' | b'|' | b'&' | b'(' | b')' | b'<' | b'>' | b'"' | b'\''
                )
            {
                class[b] = ENDS;
            } else if c == b'/' || c == b'\\' || c.is_ascii_uppercase() {
                class[b] = NOT_BARE;
            }
            b += 1;
        }
        class
    };
    let text = text.trim_start();
    let ends = |c: char| {
        c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '<' | '>' | '"' | '\'')
    };
    // Bytes, as long as they are ASCII (a byte below 0x80 is a whole
    // character); the characters' own test from the first that is not.
    let mut bare = true;
    let mut end = text.len();
    for (at, &b) in text.as_bytes().iter().enumerate() {
        let Some(&class) = CLASS.get(usize::from(b)) else {
            bare = false;
            end = text[at..].find(ends).map_or(text.len(), |more| at + more);
            break;
        };
        if class == ENDS {
            end = at;
            break;
        }
        bare &= class != NOT_BARE;
    }
    let word = &text[..end];
    if word.is_empty() || word.starts_with('-') || word.len() > 200 {
        return false;
    }
    // A bare lowercase ASCII word is its own name, as `program_name_of`
    // would say without a second pass over it.
    let name = if bare {
        Cow::Borrowed(word.strip_suffix(".exe").unwrap_or(word))
    } else {
        program_name_of(word)
    };
    debug_assert_eq!(name, program_name_of(word));
    // Most words name no known command: that probe first.
    known_command(&name) && !is_data_program(&name)
}

/// Whether `arg` may be a program run with the arguments after it (`aa-exec
/// rm -rf ~`, `choom -n 0 /bin/rm -rf ~`): a program's name or its path in a
/// `bin` directory, not a common verb, not a data file path (`/etc/passwd`).
fn runs_rest(arg: &str) -> bool {
    let plain = !arg.starts_with('-') && !has_whitespace(arg);
    let path_ok = !arg.contains('/')
        || arg
            .rsplit_once('/')
            .is_some_and(|(dir, _)| dir.ends_with("bin"));
    // Most words start no command: that test first spares the verb lookup.
    plain
        && path_ok
        && starts_a_command(arg)
        && !COMMON_VERBS.contains(&program_name_of(arg).as_ref())
}

/// The rule that would stop `text` as a command line of its own, if any.
fn judge(text: &str, budget: &mut usize) -> Option<&'static str> {
    if text.len() > MAX_TEXT || !starts_a_command(text) {
        return None;
    }
    *budget -= 1;
    let inner = shell::analyze(text);
    // Only what the floor would refuse: a tool handed `git reset --hard` or
    // a SQL string naming `DROP TABLE` is most often inspecting it.
    let hit = HARDLINE_SET.first_match(&inner);
    hit.map(|h| h.rule.id)
}

/// The texts in `cmd` that could be a command it runs: the rest of its
/// arguments from a program name on, each argument and what follows a lead
/// character or sits in quotes inside it, its environment values, the lines
/// of its input, and the lines of files the line wrote and hands to it.
fn texts(cmd: &Command, analysis: &Analysis) -> Vec<String> {
    let mut out = Vec::new();
    if is_data_program(&cmd.program) {
        return out;
    }
    let whole = searched(cmd);
    let mut skip_next = false;
    let mut rests = 0;
    // A model of the program says what its arguments run; the environment
    // (`PERL5DB=`, `SYSTEMD_EDITOR=`) and build files are still searched.
    let args = if whole { &cmd.args[..] } else { &[] };
    for (i, arg) in args.iter().enumerate() {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        match message_option(arg) {
            Some(Message::ValueNext) => {
                skip_next = true;
                continue;
            }
            Some(Message::ValueIn) => continue,
            None => {}
        }
        if rests < 3 && runs_rest(arg) {
            rests += 1;
            let rest: Vec<String> = args[i..].iter().map(|a| shell_quote(a)).collect();
            out.push(rest.join(" "));
        }
        pieces(arg, &mut out);
    }
    for (_, value) in &cmd.env {
        pieces(value, &mut out);
    }
    if let Some(stdin) = cmd.stdin.as_ref().filter(|_| whole) {
        lines(stdin, &mut out);
    }
    for (path, content) in &analysis.files {
        // Every argument (a message is text for people, but it may still
        // name a file) and every environment value.
        let named = args
            .iter()
            .map(String::as_str)
            .chain(cmd.env.iter().map(|(_, value)| value.as_str()))
            .any(|a| names_file(a, path));
        let by_convention = crate::shell::convention::read_by(path, &cmd.program);
        if named || by_convention {
            lines(content, &mut out);
        }
    }
    out.dedup();
    out
}

/// Whether an argument names the file `path`, alone or as an option's value.
fn names_file(arg: &str, path: &str) -> bool {
    let clean = |p: &str| p.strip_prefix("./").unwrap_or(p).to_string();
    let path = clean(path);
    clean(arg) == path
        || arg
            .split_once('=')
            .is_some_and(|(_, value)| clean(value) == path)
}

/// An argument, what follows each lead character in it, and its quoted parts.
fn pieces(arg: &str, out: &mut Vec<String>) {
    // One word alone is most often a subcommand or a value (`adb reboot`,
    // `--action=reboot`); a command line has words after its program.
    // Texts too long to be judged are not copied.
    // Every piece is a part of `arg`: with no space in it, none would be
    // kept, and most arguments are single words.
    if !has_whitespace(arg) {
        return;
    }
    let mut push = |text: &str| {
        if out.len() < MAX_TEXTS && text.len() <= MAX_TEXT && has_whitespace(text.trim()) {
            out.push(text.to_string());
        }
    };
    push(arg);
    // `spawn CMD`, `ProxyCommand CMD`, `.shell CMD`: a keyword, then the command.
    if let Some((_, rest)) = arg.trim().split_once(char::is_whitespace) {
        push(rest.trim_start());
    }
    for (at, c) in arg.char_indices() {
        if LEADS.contains(&c) {
            let rest = &arg[at + c.len_utf8()..];
            push(rest);
        }
    }
    for quote in ['"', '\''] {
        let mut parts = arg.split(quote);
        parts.next();
        // Every other part is inside the quotes.
        for (i, part) in parts.enumerate() {
            if i % 2 == 0 {
                push(part);
            }
        }
    }
}

/// Each line of text a program reads, as written and without the prompt
/// escape in front (`!CMD`, `\!CMD`, `.shell CMD`, `@exec CMD`).
fn lines(text: &str, out: &mut Vec<String>) {
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        pieces(line, out);
        if let Some(rest) = line.strip_prefix("\\!") {
            out.push(rest.to_string());
        }
    }
}

/// Code a row of the code-sink table (`src/shell/sinks.rs`) found that
/// warden cannot read or show harmless; code in a language warden does not
/// read is `exec.unread-language-code`'s.
fn code_sink(analysis: &Analysis) -> Option<String> {
    analysis.findings.iter().find_map(|f| match f {
        Finding::CodeSink {
            program,
            lang,
            code,
        } if *lang != crate::shell::sinks::Lang::Unread.name() => {
            Some(format!("{program} ({lang}): {code}"))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts_of(line: &str) -> Vec<String> {
        let analysis = shell::analyze(line);
        analysis
            .commands
            .iter()
            .filter(|c| searched(c))
            .flat_map(|c| texts(c, &analysis))
            .collect()
    }

    #[test]
    fn the_first_word_ends_where_a_character_test_would_end_it() {
        // The byte scan must agree with a scan of characters, whose
        // whitespace includes non-ASCII spaces.
        let by_chars = |text: &str| {
            let text = text.trim_start();
            let end = text
                .find(|c: char| {
                    c.is_whitespace()
                        || matches!(c, ';' | '|' | '&' | '(' | ')' | '<' | '>' | '"' | '\'')
                })
                .unwrap_or(text.len());
            let word = &text[..end];
            !word.is_empty()
                && !word.starts_with('-')
                && word.len() <= 200
                && !is_data_program(&program_name_of(word))
                && known_command(&program_name_of(word))
        };
        for text in [
            "rm -rf ~",
            "rm\u{a0}-rf ~",
            "rm\u{3000}x",
            "rm\u{85}x",
            "rm\x0bx",
            "rm;x",
            "rm",
            "/bin/rm",
            "échoué rm",
            "rmé x",
            "  mkfs.ext4 /dev/sda",
            "python3.11 -c x",
            "echo rm",
            "-rf",
            "",
            "\u{a0}rm",
            "RM.EXE x",
            "rm\"x\"",
            "dd(if=x)",
        ] {
            assert_eq!(starts_a_command(text), by_chars(text), "{text:?}");
        }
    }

    #[test]
    fn every_message_option_starts_with_a_dash() {
        // `texts` looks message options up only for words starting with `-`.
        assert!(MESSAGE_OPTIONS.iter().all(|o| o.starts_with('-')));
    }

    #[test]
    fn pieces_follow_leads_and_quotes() {
        let mut out = Vec::new();
        pieces("--hook=system(\"rm -rf ~\")", &mut out);
        assert!(out.contains(&"system(\"rm -rf ~\")".to_string()));
        assert!(out.contains(&"rm -rf ~".to_string()));
    }

    #[test]
    fn the_rest_of_the_arguments_from_a_program_on() {
        assert!(texts_of("aa-exec -p x rm -rf ~").contains(&"rm -rf ~".to_string()));
    }

    #[test]
    fn data_programs_and_messages_are_not_searched() {
        assert!(texts_of("echo rm -rf ~").is_empty());
        let hg = texts_of("hg commit -m 'rm -rf ~ is gone'");
        assert!(!hg.iter().any(|t| t.contains("rm -rf")));
    }

    #[test]
    fn files_written_on_the_line_are_read_when_named_or_by_convention() {
        let named = texts_of("echo 'rm -rf ~' > /tmp/t; AUTOM4TE=/tmp/t autoconf");
        assert!(named.contains(&"rm -rf ~".to_string()));
        let make = texts_of("printf 'all:\\n\\trm -rf ~\\n' > Makefile && make");
        assert!(make.iter().any(|t| t == "rm -rf ~"));
    }

    #[test]
    fn a_single_word_has_no_pieces() {
        // The early return in `pieces` against the walk it skips.
        for arg in [
            "--hook=system(x)",
            "a=b",
            "'x'",
            "!rm",
            "|sh",
            "x\"y\"z",
            "é=ü",
        ] {
            let mut out = Vec::new();
            pieces(arg, &mut out);
            assert!(out.is_empty(), "{arg}");
        }
        let mut out = Vec::new();
        pieces("k=rm\t-rf", &mut out);
        assert!(out.contains(&"rm\t-rf".to_string()), "{out:?}");
    }

    #[test]
    fn a_command_is_known_by_a_model_or_a_rule() {
        // A model, an interpreter, a floor rule, a family's row, a prefix
        // row, warden itself.
        for name in ["git", "python3.11", "rm", "lvremove", "mkfs.ext4", "warden"] {
            assert!(known_command(name), "{name}");
        }
        for name in ["", "x", "not-a-program", "gitt"] {
            assert!(!known_command(name), "{name}");
        }
    }

    #[test]
    fn only_what_the_floor_refuses_is_judged() {
        let mut budget = 4;
        assert_eq!(judge("rm -rf ~", &mut budget), Some("hardline.rm-home"));
        assert_eq!(budget, 3);
        assert_eq!(judge("ls -la", &mut budget), None);
        assert_eq!(judge("git reset --hard", &mut budget), None);
        assert_eq!(judge("not a command at all", &mut budget), None);
    }
}
