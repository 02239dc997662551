//! The expressions of interpreter code that stand for the home, working or temporary directory (`os.path.expanduser('~')`, `process.cwd()`, `tempfile.gettempdir()`).

use crate::gate::Gated;

/// The spellings of the home directory (besides `~` itself).
pub(in crate::shell) const HOME: &str = r"^(?:(?:[[0-9A-Za-z_]$]+(?:\('[[0-9A-Za-z_]/]*'\))?(?:\.|::|->))*(?:homedir\(\)|home\(\)|homeDir\(\)|expanduser\('~'\)|expand_path\('~'\)|expand\('~'\))|Dir\.home(?:\(\))?|(?:os\.)?environ(?:\['HOME'\]|\.get\('HOME'(?:,[^)]*)?\))|(?:os\.)?getenv\('HOME'\)|(?:process|Bun)\.env(?:\.HOME|\['HOME'\])|ENV(?:\['HOME'\]|\.fetch\('HOME'\))|\$ENV\{'?HOME'?\}|\$_(?:SERVER|ENV)\['HOME'\]|Sys\.getenv\('HOME'\)|Deno\.env\.get\('HOME'\))$";

/// The spellings of the working directory.
pub(in crate::shell) const CWD: &str = r"^(?:(?:os\.)?getcwd\(\)|process\.cwd\(\)|Dir\.pwd|(?:pathlib\.)?Path\.cwd\(\)|__dirname|getwd\(\))$";

/// The spellings of the temporary directory.
pub(in crate::shell) const TEMP: &str = r"^(?:(?:tempfile\.)?gettempdir\(\)|(?:require\('os'\)\.|os\.)?tmpdir\(\)|Dir\.tmpdir|sys_get_temp_dir\(\))$";

/// A directory an expression may stand for.
#[derive(Clone, Copy)]
pub(super) enum Place {
    Home,
    Cwd,
    Temp,
}

/// Whether `compact` (an expression without blanks) is one of the
/// spellings of `place`. Each regex costs 300,000–500,000 instructions to
/// compile, more than judging a whole command, and most expressions hold
/// none of its literals: the gate builds it only for those that do.
pub(super) fn names_place(compact: &str, place: Place) -> bool {
    static GATES: [Gated; 3] = [Gated::new(HOME), Gated::new(CWD), Gated::new(TEMP)];
    matches!(place, Place::Home) && compact == "~" || GATES[place as usize].is_match(compact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn places_need_their_literals() {
        let spellings = [
            "~",
            "os.path.expanduser('~')",
            "os.environ['HOME']",
            "Dir.home",
            "$ENV{HOME}",
            "require('os').homedir()",
            "os.getcwd()",
            "process.cwd()",
            "__dirname",
            "Dir.pwd",
            "tempfile.gettempdir()",
            "os.tmpdir()",
            "sys_get_temp_dir()",
            "Sys.getenv('HOME')",
        ];
        let mut seen = 0;
        for word in spellings {
            for cut in 0..=word.len() {
                let Some((a, b)) = word.get(..cut).zip(word.get(cut..)) else {
                    continue;
                };
                for text in [word.to_string(), format!("{a}{}", b.get(1..).unwrap_or(""))] {
                    for pattern in [HOME, CWD, TEMP] {
                        if text == "~" {
                            continue;
                        }
                        let (gate, regex) = (Gated::new(pattern), Regex::new(pattern).unwrap());
                        seen += usize::from(regex.is_match(&text));
                        assert!(gate.passes(&text) || !regex.is_match(&text), "{text}");
                    }
                }
            }
        }
        assert!(seen > 100, "{seen}");
    }
}
