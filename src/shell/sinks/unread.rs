//! Code in a language warden does not read (Lisp, Elixir, Erlang, Groovy, Scala, Kotlin, AppleScript, .NET script, Haskell, DOS commands, Expect's Tcl, …): plain code passes, anything else asks.
//!
//! Such code can do anything its language can, so it is asked about unless
//! it is shown to be plain: made only of printing, version and arithmetic
//! words, with no command quoting of its own.

use super::Lang;
use crate::shell::eval::Eval;

impl Eval<'_> {
    /// Code in a language warden does not read, given to `program`.
    pub(super) fn unread(&mut self, code: &str, program: &str) {
        let asks = if program == "expect" {
            // Tcl reaches processes, files and the network through a few
            // commands; `spawn ssh host` is automation, a spawned shell is
            // typed into.
            const REACH: &[&str] = &[
                "exec ",
                "open \"|",
                "open |",
                "file delete",
                "socket ",
                "eval ",
                "source ",
                "spawn sh",
                "spawn bash",
                "spawn zsh",
                "spawn /bin/",
            ];
            REACH.iter().any(|w| code.contains(w))
        } else {
            !plain(code)
        };
        if asks {
            self.sink_asks(program, Lang::Unread, code);
        }
    }
}

/// Words plain code is made of: printing, versions, arithmetic, the
/// interpreters' ways to stop, and AppleScript's everyday vocabulary. One
/// text, not a table of words: each word of a static table costs the
/// loader a relocation on every start.
const PLAIN: &str =
    "print println printf printfn puts put display displayln say echo write writeln write-line \
    format pr prn IO io inspect Console WriteLine console log cat paste message version \
    VERSION Version versions System erlang system_info otp_release \
    lisp-implementation-version lisp-implementation-type software-version machine-type \
    GroovySystem KotlinVersion CURRENT Environment RuntimeInformation FrameworkDescription \
    Properties getProperty property scala util versionString versionNumberString R string \
    halt quit exit stop init main end do fn def let var val for in if then else return true \
    false nil null sqrt sin cos tan pi exp log abs max min sum range Enum map reduce length \
    size count x y n i it s t Math math lists seq ARGS args argv tell application app to get \
    set name of front window id activate notification dialog with title subtitle volume \
    settings output input alert buttons default answer beep the path frontmost current date \
    time clipboard a an Application currentApplication includeStandardAdditions \
    displayNotification displayDialog withTitle ObjC Hello world";

/// Whether `word` is one of [`PLAIN`]'s.
fn is_plain_word(word: &str) -> bool {
    PLAIN.split(' ').any(|w| w == word)
}

/// Whether code holds nothing but [`PLAIN`] words, numbers, operators and
/// quoted text (a quoted word is data unless an unplain word uses it).
fn plain(code: &str) -> bool {
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in code.chars().chain(std::iter::once(' ')) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '-' && !word.is_empty() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            let w = word.trim_end_matches('-');
            let number = w.chars().next().is_some_and(|f| f.is_ascii_digit());
            if !number && !is_plain_word(w) {
                return false;
            }
            word.clear();
        }
        match c {
            '"' | '\'' => quote = Some(c),
            // A backtick runs a command in several of these languages, `$`
            // interpolates, `!` and `|` hand text to a shell in others.
            '`' | '$' | '!' | '|' | '\\' => return false,
            _ => {}
        }
    }
    quote.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_code() {
        assert!(plain("(print (+ 1 2))"));
        assert!(plain("IO.puts(System.version())"));
        assert!(plain(
            "io:format(\"~s~n\", [erlang:system_info(otp_release)]), halt()."
        ));
        assert!(plain("say \"rm -rf ~\""));
        assert!(plain("exit"));
        assert!(!plain("System.cmd(\"rm\", [])"));
        assert!(!plain("do shell script \"id\""));
        assert!(!plain("run(`id`)"));
        assert!(!plain("print \"unterminated"));
        assert!(!plain("mount c /"));
    }
}
