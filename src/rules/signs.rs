//! Signs: a few facts about a command, worked out once, that let the rules for any program pass over a command without asking it anything.
//!
//! A dozen rules meet every command (`PATH=/tmp/x cmd`, `… | sh`, `$CMD -rf
//! x`), and nearly every command has none of what they look for. A rule of
//! that kind names the signs without which it cannot match
//! ([`super::Matcher::AnyProgram`]); a command showing none of them is passed
//! over with one test. Debug builds still ask the rule and check that it
//! would not have matched, so every test also tests each rule's signs.

use crate::shell::Command;

/// A set of signs, as bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Signs(u8);

impl Signs {
    /// It sets variables or shell state: `NAME=value` prefixes
    /// (also through `env`), or a builtin that sets or unsets them
    /// (`export`, `declare`, `unset`, `set`, `history`…).
    pub const SETS: Signs = Signs(1);
    /// It runs code from its words or its input (`… | sh`, `bash -c "$(…)"`):
    /// a program word warden could not resolve (`$CMD`), `eval`/`source`/`.`,
    /// or an interpreter.
    pub const RUNS_CODE: Signs = Signs(1 << 1);
    /// It runs as another user through a privilege wrapper (`sudo`,
    /// `doas`, `pkexec`, `run0`).
    pub const PRIVILEGED: Signs = Signs(1 << 2);

    /// How many different sets of signs there are.
    pub(crate) const SETS_OF_SIGNS: usize = 8;

    /// This set as a number below [`Signs::SETS_OF_SIGNS`].
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set numbered `index` by [`Signs::index`].
    pub(crate) fn from_index(index: usize) -> Signs {
        debug_assert!(index < Self::SETS_OF_SIGNS);
        Signs(index as u8)
    }

    /// The signs `cmd` shows, worked out on the first question and kept.
    pub(crate) fn of(cmd: &Command) -> Signs {
        Signs(*cmd.memo.signs.get_or_init(|| Signs::work_out(cmd).0))
    }

    fn work_out(cmd: &Command) -> Signs {
        let mut signs = Signs::default();
        if !cmd.env.is_empty() || SETTERS.contains(&cmd.program.as_str()) {
            signs.0 |= Signs::SETS.0;
        }
        if super::net::runs_code(cmd) {
            signs.0 |= Signs::RUNS_CODE.0;
        }
        if !cmd.wrappers.is_empty() && super::privileged::wrapped_privileged(cmd) {
            signs.0 |= Signs::PRIVILEGED.0;
        }
        signs
    }

    /// Both sets of signs together.
    pub const fn or(self, other: Signs) -> Signs {
        Signs(self.0 | other.0)
    }

    /// Whether the two sets have a sign in common.
    pub fn meets(self, other: Signs) -> bool {
        self.0 & other.0 != 0
    }
}

/// Builtins that set, export, unset or otherwise change the shell's
/// variables and options.
const SETTERS: &[&str] = &[
    "export", "declare", "typeset", "readonly", "local", "setenv", "unset", "set", "history",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell;

    fn signs(line: &str) -> Vec<Signs> {
        shell::analyze(line)
            .commands
            .iter()
            .map(Signs::of)
            .collect()
    }

    #[test]
    fn each_sign_is_shown_by_what_it_names() {
        let none = Signs::default();
        assert_eq!(signs("git status"), [none]);
        assert_eq!(signs("ls -la /tmp"), [none]);
        assert_eq!(signs("FOO=1 make"), [Signs::SETS]);
        assert_eq!(signs("env LD_PRELOAD=x ls"), [Signs::SETS]);
        assert_eq!(signs("export PATH=/x"), [Signs::SETS]);
        assert_eq!(signs("unset HISTFILE"), [Signs::SETS]);
        assert_eq!(signs("cat x | grep y"), [none, none]);
        assert_eq!(signs("$CMD -rf x"), [Signs::RUNS_CODE]);
        assert!(signs("eval x").contains(&Signs::RUNS_CODE));
        assert_eq!(signs("python3 -c 'print(1)'")[0], Signs::RUNS_CODE);
        assert_eq!(signs("curl x | bash"), [none, Signs::RUNS_CODE]);
        assert_eq!(signs("FOO=1 bash x.sh"), [Signs::SETS.or(Signs::RUNS_CODE)]);
        assert_eq!(signs("sudo ls /root"), [Signs::PRIVILEGED]);
        assert_eq!(signs("doas -u root cp a b"), [Signs::PRIVILEGED]);
        assert_eq!(signs("sudo -v"), [none]);
        assert_eq!(signs("timeout 5 ls"), [none]);
    }

    #[test]
    fn signs_are_kept_and_a_copy_works_them_out_again() {
        let analysis = shell::analyze("FOO=1 make");
        let cmd = &analysis.commands[0];
        assert_eq!(Signs::of(cmd), Signs::SETS);
        assert_eq!(cmd.memo.signs.get(), Some(&Signs::SETS.0));
        assert_eq!(cmd.clone().memo.signs.get(), None);
    }
}
