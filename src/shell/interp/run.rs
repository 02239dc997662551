//! The shell analysis meeting an interpreter command: the code it runs, found inline, on stdin or in script files written earlier on the line, is read and what it does is judged.

use super::Source;
use crate::shell::command::Command;
use crate::shell::eval::{file_key, Eval};
use crate::shell::Finding;

/// Longest code quoted in a finding.
const MAX_QUOTED: usize = 120;

impl Eval<'_> {
    /// Reads the code `cmd` runs, if warden can know it, and judges it.
    pub(in crate::shell) fn interpreter(&mut self, cmd: &mut Command) {
        let Some(run) = super::invocation(cmd) else {
            return;
        };
        let (code, script) = match &run.source {
            Source::Inline(code) => (code.clone(), None),
            // Only files this line wrote are known; `go run` compiles them
            // into one program.
            Source::Files(files) => {
                let known: Vec<&String> = files
                    .iter()
                    .filter_map(|f| self.files.get(&file_key(f)))
                    .collect();
                if known.is_empty() {
                    // A script warden cannot read may do anything with the
                    // files it is given.
                    cmd.writes_arguments = true;
                    return;
                }
                let code = known
                    .into_iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join("\n");
                (code, files.first().map(String::as_str))
            }
        };
        let given = super::Given::new(run.lang, script, &run.args, &cmd.env);
        let reading = super::read(&code, run.lang, Some(&given));
        for (concern, code) in &reading.concerns {
            let finding = Finding::Interpreter {
                concern: *concern,
                code: shorten(code),
            };
            if !self.out.findings.contains(&finding) {
                self.out.findings.push(finding);
            }
        }
        let unknown = reading
            .effects
            .iter()
            .any(|e| e.action == super::Action::WriteUnknown);
        cmd.writes_arguments |= unknown;
        self.interp_findings(cmd, reading);
    }
}

impl Eval<'_> {
    /// What the commands of awk code (`system(X)`, `print | X`, `X | getline`)
    /// add up to beyond each on its own: a shell started with no command
    /// runs what awk prints to it, and what a fetch before it printed.
    pub(in crate::shell) fn awk_shell(&mut self, texts: &[String]) {
        let Some(shell) = texts.iter().find(|t| super::calls::starts_shell(t)) else {
            return;
        };
        let fetched = texts.iter().any(|t| super::calls::fetches(t));
        let finding = Finding::Interpreter {
            concern: if fetched {
                super::Concern::EvalFetched
            } else {
                super::Concern::Shell
            },
            code: shorten(shell),
        };
        if !self.out.findings.contains(&finding) {
            self.out.findings.push(finding);
        }
    }
}

/// The words an interpreter command that [`Command::writes_arguments`] may
/// take for a file's name: its code's operands, the values of their
/// `--name=value` options, and the values of its environment.
pub fn argument_files(cmd: &Command) -> Vec<String> {
    let args = super::invocation(cmd)
        .map(|run| run.args)
        .unwrap_or_default();
    let env = &cmd.env;
    let values = args
        .iter()
        .filter_map(|a| match a.strip_prefix('-') {
            Some(option) => option.split_once('=').map(|(_, v)| v),
            None => Some(a.as_str()),
        })
        .chain(env.iter().map(|(_, v)| v.as_str()));
    let mut out: Vec<String> = Vec::new();
    // A word with no `/` that does not start with `.` or `~` (`data.csv`,
    // `migrate`) is most often data; the files worth a question are named
    // by a path (`~/.hermes/config.yaml`) or are dotfiles (`.warden.yaml`).
    // A public key is meant to be handed out.
    let named = |v: &&str| (v.contains('/') || v.starts_with(['.', '~'])) && !v.ends_with(".pub");
    for value in values.filter(named) {
        if !out.iter().any(|o| o == value) {
            out.push(value.to_string());
        }
    }
    out
}

fn shorten(code: &str) -> String {
    let flat = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > MAX_QUOTED {
        let cut: String = flat.chars().take(MAX_QUOTED).collect();
        format!("{cut}…")
    } else {
        flat
    }
}
