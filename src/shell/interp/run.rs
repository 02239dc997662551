//! The shell analysis meeting an interpreter command: the code it runs, found inline, on stdin or in script files written earlier on the line, is read and what it does is judged.

use super::Source;
use crate::shell::command::Command;
use crate::shell::eval::{file_key, Eval};
use crate::shell::Finding;

/// Longest code quoted in a finding.
const MAX_QUOTED: usize = 120;

impl Eval<'_> {
    /// Reads the code `cmd` runs, if warden can know it, and judges it.
    pub(in crate::shell) fn interpreter(&mut self, cmd: &Command) {
        let Some((lang, source)) = super::source(cmd) else {
            return;
        };
        let code = match source {
            Source::Inline(code) => code,
            // Only files this line wrote are known; `go run` compiles them
            // into one program.
            Source::Files(files) => {
                let known: Vec<&String> = files
                    .iter()
                    .filter_map(|f| self.files.get(&file_key(f)))
                    .collect();
                if known.is_empty() {
                    return;
                }
                known
                    .into_iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        let reading = super::read(&code, lang);
        for (concern, code) in &reading.concerns {
            let finding = Finding::Interpreter {
                concern: *concern,
                code: shorten(code),
            };
            if !self.out.findings.contains(&finding) {
                self.out.findings.push(finding);
            }
        }
        self.interp_findings(cmd, reading);
    }
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
