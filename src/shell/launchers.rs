//! Programs that take shell text rather than a command as arguments: tmux session commands, `npx -c`, `pnpm exec -c`, `screen -X stuff`, `ssh HOST CMD`, and the fleet tools that run a line on many machines (`pssh`, `pdsh`, `clush`, `ansible -m shell -a`, `salt cmd.run`, `fab --`, `knife ssh`).

use super::command::Command;
use super::eval::{shell_quote, Eval};
use super::programs::{option_value, split_options};
use super::sinks::option_values;
use super::wrappers::Peeled;

/// tmux commands whose trailing arguments are a shell command, with their
/// options that take a value (`new-session -s NAME 'CMD'`).
const TMUX_COMMANDS: &[(&[&str], &[&str])] = &[
    (
        &["new-session", "new"],
        &["-c", "-e", "-f", "-F", "-n", "-s", "-t", "-x", "-y"],
    ),
    (&["new-window", "neww"], &["-c", "-e", "-F", "-n", "-t"]),
    (
        &["split-window", "splitw"],
        &["-c", "-e", "-l", "-F", "-t", "-p"],
    ),
    (
        &["respawn-pane", "respawnp", "respawn-window", "respawnw"],
        &["-c", "-e", "-t"],
    ),
    (&["run-shell", "run"], &["-c", "-d", "-t"]),
];

/// tmux's own options that take a value (`-L socket`); `-c` is a shell command.
const TMUX_GLOBAL_VALUED: &[&str] = &["-f", "-L", "-S", "-T", "-c"];

/// Key names `send-keys` turns into a line end or a space.
const ENTER_KEYS: &[&str] = &["Enter", "C-m", "KPEnter", "C-j"];

impl Eval<'_> {
    /// Re-analyses the shell text a launcher program runs.
    pub(super) fn launcher(&mut self, cmd: &Command) {
        let args = &cmd.args;
        match cmd.program.as_str() {
            "tmux" => self.tmux(args),
            // `ip -all netns exec CMD` runs CMD in every namespace; quoting
            // each word keeps the command as it was given.
            "ip" => {
                let at = args
                    .windows(2)
                    .position(|w| w[0] == "netns" && w[1] == "exec");
                if let Some(at) = at.filter(|_| args.iter().any(|a| a == "-all" || a == "-a")) {
                    let words: Vec<String> =
                        args[at + 2..].iter().map(|a| shell_quote(a)).collect();
                    if !words.is_empty() {
                        self.reanalyze(&words.join(" "), "ip netns exec", None);
                    }
                }
            }
            "npx" | "npm" => {
                let args = match args.first().map(String::as_str) {
                    Some("exec" | "x") => &args[1..],
                    _ if cmd.program == "npm" => return,
                    _ => &args[..],
                };
                // Only npx's own options: a later `-c` belongs to the command.
                let (own, _) = split_options(args, &["-c", "--call", "-p", "--package"]);
                if let Some(code) = option_value(own, &["-c", "--call"]) {
                    self.reanalyze(&code, "npm exec -c", None);
                }
            }
            // `pnpm exec -c CMD...`: the arguments are joined and run by a shell.
            "pnpm" if matches!(args.first().map(String::as_str), Some("exec" | "dlx")) => {
                let (own, rest) = split_options(&args[1..], &["--package", "-C", "--dir"]);
                if own.iter().any(|a| a == "-c" || a == "--shell-mode") && !rest.is_empty() {
                    self.reanalyze(&rest.join(" "), "pnpm exec -c", None);
                }
            }
            // `screen -X COMMAND ARGS` sends a screen command to a session.
            "screen" => {
                let Some(at) = args.iter().position(|a| a == "-X") else {
                    return;
                };
                let rest = &args[at + 1..];
                match rest.first().map(String::as_str) {
                    // `stuff TEXT` types TEXT; screen reads `^M` and `\n` in it as line ends.
                    Some("stuff") => {
                        if let Some(text) = rest.get(1) {
                            let text = text
                                .replace("^M", "\n")
                                .replace("\\n", "\n")
                                .replace("\\r", "\n");
                            self.reanalyze(&text, "screen stuff", None);
                        }
                    }
                    // `exec CMD` and `screen CMD` run CMD in a window.
                    Some("exec" | "screen") if rest.len() > 1 => {
                        let words: Vec<String> = rest[1..].iter().map(|a| shell_quote(a)).collect();
                        self.reanalyze(&words.join(" "), "screen -X", None);
                    }
                    _ => {}
                }
            }
            "pssh" | "parallel-ssh" | "pdsh" | "clush" | "ansible" | "salt" | "salt-ssh"
            | "fab" | "knife" | "mussh" => self.fleet(cmd),
            _ => {}
        }
    }

    /// The line a fleet tool has each machine's shell run, analysed as a
    /// local line is: `pdsh -w web[1-9] 'rm -rf /srv'` is `rm -rf /srv`
    /// on nine machines.
    fn fleet(&mut self, cmd: &Command) {
        let text = fleet_line(&cmd.program, &cmd.args);
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            self.reanalyze(&text, "ssh", cmd.stdin.clone());
        }
    }

    /// Code in a wrapper's own options (gdb's `-ex`, strace's `-o '|CMD'`):
    /// the code-sink table's rows for the wrapper, over those options and
    /// the command's first word, which an option read as a flag by one
    /// version takes as its value in another (screen 4.5's `-L FILE`).
    pub(super) fn wrapper_options(&mut self, cmd: &Command, name: &str, peeled: &Peeled) {
        let wrapper = Command {
            program: name.to_string(),
            cwd: cmd.cwd.clone(),
            via: cmd.via.clone(),
            wrappers: cmd.wrappers.clone(),
            ..Command::default()
        };
        let mut words = peeled.own.clone();
        words.extend(peeled.rest.first().map(|f| f.text.clone()));
        self.sink_args(&wrapper, &words);
    }

    /// `tmux [options] COMMAND [args] [; COMMAND ...]`: the shell commands
    /// that new sessions, windows and panes run, and keys typed into them.
    fn tmux(&mut self, args: &[String]) {
        let mut i = 0;
        while i < args.len() && args[i].starts_with('-') && args[i] != "--" {
            if args[i] == "-c" {
                if let Some(code) = args.get(i + 1) {
                    self.reanalyze(code, "tmux", None);
                }
            }
            i += if TMUX_GLOBAL_VALUED.contains(&args[i].as_str()) {
                2
            } else {
                1
            };
        }
        let rest = args.get(i..).unwrap_or(&[]);
        // Commands chain with a `;` word (`tmux new -d \; send-keys ...`).
        for part in rest.split(|a| a == ";" || a == "\\;") {
            let Some((name, part_args)) = part.split_first() else {
                continue;
            };
            if matches!(name.as_str(), "send-keys" | "send") {
                self.tmux_keys(part_args);
                continue;
            }
            if matches!(name.as_str(), "if-shell" | "if") {
                let (own, rest) = split_options(part_args, &["-t"]);
                if !own.iter().any(|a| a.starts_with('-') && a.contains('F')) {
                    if let Some(code) = rest.first() {
                        self.reanalyze(code, "tmux", None);
                    }
                }
                continue;
            }
            let Some((_, valued)) = TMUX_COMMANDS
                .iter()
                .find(|(n, _)| n.contains(&name.as_str()))
            else {
                continue;
            };
            let (_, text) = split_options(part_args, valued);
            if !text.is_empty() {
                self.reanalyze(&text.join(" "), "tmux", None);
            }
        }
    }

    /// `send-keys [-lR] [-t pane] KEY...`: keys are typed in order; with a
    /// line end, what they spell runs in the pane's shell.
    fn tmux_keys(&mut self, args: &[String]) {
        let (own, keys) = split_options(args, &["-t", "-N", "-c"]);
        // Option letters only, not the values of `-t` and `-N`.
        let flags: String = own
            .iter()
            .filter(|a| a.starts_with('-') && !matches!(a.as_str(), "-t" | "-N" | "-c"))
            .map(|a| a.as_str())
            .collect();
        // `-X` sends copy-mode commands, not keys.
        if flags.contains('X') {
            return;
        }
        let literal = flags.contains('l');
        let mut text = String::new();
        for key in keys {
            match key.as_str() {
                k if !literal && ENTER_KEYS.contains(&k) => text.push('\n'),
                "Space" if !literal => text.push(' '),
                k => text.push_str(k),
            }
        }
        if !text.trim().is_empty() {
            self.reanalyze(&text, "tmux send-keys", None);
        }
    }

    /// `ssh HOST CMD`: the words after the host are a command line the
    /// remote shell runs.
    pub(super) fn ssh(&mut self, cmd: &Command) {
        const VALUED: &str = "bcDEeFIiJLlmOopQRSWw";
        let mut i = 0;
        let args = &cmd.args;
        while i < args.len() {
            let a = &args[i];
            if a.starts_with('-') && a.len() > 1 {
                let last = a.chars().last().unwrap_or('-');
                if a.len() == 2 && VALUED.contains(last) {
                    i += 1;
                }
                i += 1;
                continue;
            }
            break;
        }
        // args[i] is the host; the rest is the remote command line.
        if i + 1 < args.len() {
            let text = args[i + 1..].join(" ");
            self.reanalyze(&text, "ssh", cmd.stdin.clone());
        }
        // `-o RemoteCommand=CMD` is the line the other machine runs, as the
        // words after the host are.
        for value in option_values(args, &["-o"]) {
            let value = value.trim_start();
            let (name, text) = value.split_once(['=', ' ']).unwrap_or((value, ""));
            if name.eq_ignore_ascii_case("remotecommand") {
                self.reanalyze(text.trim(), "ssh", cmd.stdin.clone());
            }
        }
    }
}

/// Fleet tools whose words after their own options are the line each
/// machine runs, with the options that take a value.
#[rustfmt::skip]
const FLEET_TRAILING: &[(&[&str], &[&str])] = &[
    (&["pssh", "parallel-ssh"], &["-h", "-H", "-l", "-p", "-o", "-e", "-t", "-O", "-x", "-X", "--hosts", "--host", "--user", "--par", "--outdir", "--errdir", "--timeout", "--option", "--extra-args"]),
    (&["pdsh"], &["-w", "-x", "-l", "-R", "-f", "-g", "-X", "-t", "-u", "-F", "-m"]),
    (&["clush"], &["-w", "-x", "-g", "-X", "-l", "-o", "-f", "-t", "-u", "-R", "--nodes", "--exclude", "--group", "--user", "--options", "--fanout", "--connect_timeout", "--command_timeout", "--worker"]),
];

/// salt's execution functions whose argument is a shell line.
const SALT_SHELL: &[&str] = &[
    "cmd.run",
    "cmd.run_all",
    "cmd.run_stdout",
    "cmd.shell",
    "cmd.exec_code_all",
];

/// The shell line a fleet tool runs on each machine it reaches.
fn fleet_line(program: &str, args: &[String]) -> Option<String> {
    if let Some((_, valued)) = FLEET_TRAILING
        .iter()
        .find(|(names, _)| names.contains(&program))
    {
        return Some(split_options(args, valued).1.join(" "));
    }
    match program {
        // `-m shell|command|raw -a TEXT`; `command` is the default module.
        "ansible" => {
            let module = option_value(args, &["-m", "--module-name"]);
            let shell = module.as_deref().is_none_or(|m| {
                let m = m.rsplit('.').next().unwrap_or(m);
                matches!(m, "shell" | "command" | "raw")
            });
            option_value(args, &["-a", "--args"]).filter(|_| shell)
        }
        // `salt TARGET cmd.run TEXT`
        "salt" | "salt-ssh" => {
            let at = args.iter().position(|a| SALT_SHELL.contains(&a.as_str()))?;
            args.get(at + 1).cloned()
        }
        // `fab -H hosts -- TEXT`
        "fab" => {
            let at = args.iter().position(|a| a == "--")?;
            Some(args[at + 1..].join(" "))
        }
        // `knife ssh QUERY TEXT`
        "knife" if args.first().is_some_and(|a| a == "ssh") => {
            let (_, rest) = split_options(&args[1..], &["-x", "-a", "-p", "-i", "-G", "-m", "-C"]);
            rest.get(1).cloned()
        }
        "mussh" => option_value(args, &["-c"]),
        _ => None,
    }
}
