//! The expressions of interpreter code that stand for the home, working or temporary directory (`os.path.expanduser('~')`, `process.cwd()`, `tempfile.gettempdir()`).

use once_cell::sync::Lazy;
use regex::Regex;

static HOME: Lazy<Regex> = Lazy::new(|| {
    Regex::new(
        r"^(?:~|(?:[[0-9A-Za-z_]$]+(?:\('[[0-9A-Za-z_]/]*'\))?(?:\.|::|->))*(?:homedir\(\)|home\(\)|homeDir\(\)|expanduser\('~'\)|expand_path\('~'\)|expand\('~'\))|Dir\.home(?:\(\))?|(?:os\.)?environ(?:\['HOME'\]|\.get\('HOME'(?:,[^)]*)?\))|(?:os\.)?getenv\('HOME'\)|(?:process|Bun)\.env(?:\.HOME|\['HOME'\])|ENV(?:\['HOME'\]|\.fetch\('HOME'\))|\$ENV\{'?HOME'?\}|\$_(?:SERVER|ENV)\['HOME'\]|Sys\.getenv\('HOME'\)|Deno\.env\.get\('HOME'\))$",
    )
    .expect("home regex is valid")
});

static CWD: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"^(?:(?:os\.)?getcwd\(\)|process\.cwd\(\)|Dir\.pwd|(?:pathlib\.)?Path\.cwd\(\)|__dirname|getwd\(\))$")
        .expect("cwd regex is valid")
});

static TEMP: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"^(?:(?:tempfile\.)?gettempdir\(\)|(?:require\('os'\)\.|os\.)?tmpdir\(\)|Dir\.tmpdir|sys_get_temp_dir\(\))$")
        .expect("temp regex is valid")
});

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
/// none of the literals every one of its alternatives contains: the regex
/// is built only for those that do.
pub(super) fn names_place(compact: &str, place: Place) -> bool {
    let regex = place.regex();
    // Once built (a batch that met the spelling) the regex is cheaper than
    // the literal test; until then the test saves building it.
    if let Some(compiled) = Lazy::get(regex) {
        return compiled.is_match(compact);
    }
    if !has_place_literal(compact, place) {
        debug_assert!(
            !regex.is_match(compact),
            "{compact}: a place without its literals"
        );
        return false;
    }
    regex.is_match(compact)
}

impl Place {
    fn regex(self) -> &'static Lazy<Regex> {
        match self {
            Place::Home => &HOME,
            Place::Cwd => &CWD,
            Place::Temp => &TEMP,
        }
    }
}

/// Whether `compact` holds a literal that each of `place`'s spellings
/// contains (or is `~` itself).
fn has_place_literal(compact: &str, place: Place) -> bool {
    let needles: &[&str] = match place {
        Place::Home if compact == "~" => return true,
        Place::Home => &["home", "HOME", "('~')"],
        Place::Cwd => &["cwd()", "Dir.pwd", "__dirname", "getwd()"],
        Place::Temp => &["tempdir()", "tmpdir", "temp_dir()"],
    };
    needles.iter().any(|n| compact.contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    for (regex, place) in [
                        (&HOME, Place::Home),
                        (&CWD, Place::Cwd),
                        (&TEMP, Place::Temp),
                    ] {
                        seen += usize::from(regex.is_match(&text));
                        assert!(
                            has_place_literal(&text, place) || !regex.is_match(&text),
                            "{text}"
                        );
                    }
                }
            }
        }
        assert!(seen > 100, "{seen}");
    }
}
