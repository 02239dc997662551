//! Turning a rule's target (prefix, exact text, glob, regex, path glob) into a matcher, and the literal each match needs.

use regex::Regex;

use crate::config::model::Target;

/// Which glob dialect a pattern is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GlobKind {
    /// fnmatch over a command line: `*` matches any run of characters,
    /// slashes and spaces included (Hermes' `approvals.deny`, trust rules).
    Command,
    /// Over a path: `*` stays inside one component, `**` crosses them.
    Path,
}

/// Translates a glob into an anchored regular expression.
///
/// Both dialects know `?`, `[...]` (with `[!...]` negation) and `{a,b}`
/// alternatives; an unbalanced `[` or `{` is taken literally, as shells do.
pub(crate) fn glob_to_regex(glob: &str, kind: GlobKind, case_insensitive: bool) -> String {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = String::with_capacity(glob.len() * 2 + 8);
    out.push_str(if case_insensitive { "(?is)^" } else { "(?s)^" });
    let mut i = 0;
    let mut brace_depth = 0usize;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' => {
                let mut stars = 1;
                while chars.get(i + stars) == Some(&'*') {
                    stars += 1;
                }
                i += stars;
                if kind == GlobKind::Command {
                    out.push_str(".*");
                } else if stars >= 2 {
                    // `**/` also matches no directory at all: `src/**/x` hits `src/x`.
                    if chars.get(i) == Some(&'/') {
                        out.push_str("(?:.*/)?");
                        i += 1;
                    } else {
                        out.push_str(".*");
                    }
                } else {
                    out.push_str("[^/]*");
                }
                continue;
            }
            '?' => out.push_str(if kind == GlobKind::Path { "[^/]" } else { "." }),
            '[' => match class_end(&chars, i) {
                Some(end) => {
                    out.push('[');
                    let mut j = i + 1;
                    if matches!(chars.get(j), Some('!') | Some('^')) {
                        out.push('^');
                        j += 1;
                    }
                    while j < end {
                        let d = chars[j];
                        if matches!(d, '\\' | '[' | ']' | '&' | '~' | '^') {
                            out.push('\\');
                        }
                        out.push(d);
                        j += 1;
                    }
                    out.push(']');
                    i = end + 1;
                    continue;
                }
                None => out.push_str(r"\["),
            },
            '{' if brace_close(&chars, i).is_some() => {
                brace_depth += 1;
                out.push_str("(?:");
            }
            ',' if brace_depth > 0 => out.push('|'),
            '}' if brace_depth > 0 => {
                brace_depth -= 1;
                out.push(')');
            }
            '\\' if i + 1 < chars.len() => {
                i += 1;
                out.push_str(&regex::escape(&chars[i].to_string()));
            }
            _ => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    out.push('$');
    out
}

/// The index of the `]` closing a class opened at `start`, if any.
fn class_end(chars: &[char], start: usize) -> Option<usize> {
    let mut j = start + 1;
    if matches!(chars.get(j), Some('!') | Some('^')) {
        j += 1;
    }
    // A `]` right after the opening is a member, not the end.
    if chars.get(j) == Some(&']') {
        j += 1;
    }
    while j < chars.len() {
        if chars[j] == ']' {
            return Some(j);
        }
        j += 1;
    }
    None
}

/// Whether the `{` at `start` has a matching `}` with a comma inside, the
/// only form that alternates (`{a}` is literal in shells too).
fn brace_close(chars: &[char], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut comma = false;
    for (j, &c) in chars.iter().enumerate().skip(start) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return comma.then_some(j);
                }
            }
            ',' if depth == 1 => comma = true,
            _ => {}
        }
    }
    None
}

/// The regular expression a target compiles to, or `None` for targets
/// matched without one (any, prefix, exact).
pub(crate) fn regex_source(target: &Target, case_insensitive: bool) -> Option<String> {
    match target {
        Target::Any | Target::Prefix(_) | Target::Exact(_) => None,
        Target::CommandGlob(glob) => Some(glob_to_regex(glob, GlobKind::Command, case_insensitive)),
        Target::PathGlob(glob) => Some(glob_to_regex(glob, GlobKind::Path, case_insensitive)),
        Target::Regex(re) if case_insensitive => Some(format!("(?i){re}")),
        Target::Regex(re) => Some(re.clone()),
    }
}

/// Compiles a target's regex, with a size limit so one user pattern cannot
/// make every call slow.
pub(crate) fn compile(source: &str) -> Result<Regex, String> {
    regex::RegexBuilder::new(source)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build()
        .map_err(|e| one_line(&e))
}

/// Whether a user's regex is one the regex crate reads, as it reads it:
/// what a policy file is checked for when it loads. Building every regex
/// there cost a policy of 10,000 regexes seconds, more than a hook call is
/// given; one that reads but is too large to build when a call meets it
/// holds for the whole call if it tightens, and for nothing if it allows
/// (see `policy::match_rule`).
pub(crate) fn check(source: &str) -> Result<(), String> {
    regex_syntax::ParserBuilder::new()
        .build()
        .parse(source)
        .map(drop)
        .map_err(|e| syntax_line(&e.to_string()))
}

/// The regex crate's error in one line: its syntax errors span three
/// (the pattern, a caret, the problem), and stderr gets one line per problem.
fn one_line(err: &regex::Error) -> String {
    match err {
        regex::Error::Syntax(text) => syntax_line(text),
        other => other.to_string().replace('\n', " "),
    }
}

fn syntax_line(text: &str) -> String {
    let problem = text
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or("invalid syntax");
    format!("regex parse error: {problem}")
}

/// Whether `subject` (one command line, or one path) matches a target whose
/// regex, if it has one, is `regex`.
pub(crate) fn matches(
    target: &Target,
    case_insensitive: bool,
    regex: Option<&Regex>,
    subject: &str,
) -> bool {
    let eq = |a: &str, b: &str| {
        if case_insensitive {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    match target {
        Target::Any => true,
        Target::Exact(text) => eq(subject.trim(), text.trim()),
        Target::Prefix(prefix) => {
            let subject = subject.trim_start();
            let prefix = prefix.trim();
            // On a word boundary: `git:*` is `git` and `git status`, never `gitk`.
            subject.len() >= prefix.len()
                && subject.is_char_boundary(prefix.len())
                && eq(&subject[..prefix.len()], prefix)
                && subject[prefix.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace())
        }
        Target::CommandGlob(_) | Target::PathGlob(_) | Target::Regex(_) => {
            regex.is_some_and(|re| re.is_match(subject))
        }
    }
}

/// The shortest text that is lowercased and present in every subject the
/// target matches, for the prefilter; `None` when there is no such literal of
/// at least [`MIN_LITERAL`] ASCII characters.
pub(crate) fn required_literal(target: &Target) -> Option<String> {
    let literal = match target {
        Target::Any => return None,
        Target::Exact(text) => text.trim().to_string(),
        Target::Prefix(text) => text.trim().to_string(),
        Target::CommandGlob(glob) => longest_glob_literal(glob),
        // A path glob is matched after `~`, `./` and `../` are resolved
        // against the home or project directory, so those cannot be part
        // of the literal the resolved path must contain.
        Target::PathGlob(glob) => {
            let mut literal = longest_glob_literal(glob);
            while let Some(rest) = ["~/", "./", "../", "~"]
                .iter()
                .find_map(|p| literal.strip_prefix(p))
            {
                literal = rest.to_string();
            }
            literal
        }
        Target::Regex(re) => regex_literal(re)?,
    };
    best_ascii_run(&literal.to_ascii_lowercase())
}

/// Literals shorter than this are not worth indexing.
pub(crate) const MIN_LITERAL: usize = 3;

fn best_ascii_run(text: &str) -> Option<String> {
    text.split(|c: char| !c.is_ascii())
        .max_by_key(|run| run.len())
        .filter(|run| run.len() >= MIN_LITERAL)
        .map(str::to_string)
}

fn longest_glob_literal(glob: &str) -> String {
    let mut best = String::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = glob.chars();
    while let Some(c) = chars.next() {
        let special = match c {
            '[' if !in_class => {
                in_class = true;
                true
            }
            ']' if in_class => {
                in_class = false;
                true
            }
            '{' => {
                depth += 1;
                true
            }
            '}' if depth > 0 => {
                depth -= 1;
                true
            }
            '*' | '?' => true,
            _ => in_class || depth > 0,
        };
        if c == '\\' && !in_class && depth == 0 {
            if let Some(next) = chars.next() {
                current.push(next);
            }
            continue;
        }
        if special {
            if current.len() > best.len() {
                best = std::mem::take(&mut current);
            }
            current.clear();
        } else {
            current.push(c);
        }
    }
    if current.len() > best.len() {
        best = current;
    }
    best
}

/// The longest literal that every match of `pattern` contains, read from
/// the top-level concatenation of its syntax tree. Parsed case-sensitively
/// so `(?i)`-free letters stay literals; the caller lowercases both sides.
fn regex_literal(pattern: &str) -> Option<String> {
    use regex_syntax::hir::{Hir, HirKind};
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    fn walk(hir: &Hir) -> Option<String> {
        match hir.kind() {
            HirKind::Literal(lit) => std::str::from_utf8(&lit.0).ok().map(str::to_string),
            HirKind::Capture(cap) => walk(&cap.sub),
            HirKind::Repetition(rep) if rep.min >= 1 => walk(&rep.sub),
            HirKind::Concat(parts) => {
                // Adjacent literals are one run; keep the longest run.
                let mut best: Option<String> = None;
                let mut run = String::new();
                for part in parts {
                    if let HirKind::Literal(lit) = part.kind() {
                        if let Ok(text) = std::str::from_utf8(&lit.0) {
                            run.push_str(text);
                            continue;
                        }
                    }
                    let inner = walk(part);
                    for candidate in [std::mem::take(&mut run)].into_iter().chain(inner) {
                        if best.as_ref().is_none_or(|b| candidate.len() > b.len()) {
                            best = Some(candidate);
                        }
                    }
                }
                if best.as_ref().is_none_or(|b| run.len() > b.len()) && !run.is_empty() {
                    best = Some(run);
                }
                best.filter(|b| !b.is_empty())
            }
            _ => None,
        }
    }
    walk(&hir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(g: &str, kind: GlobKind, subject: &str) -> bool {
        let re = compile(&glob_to_regex(g, kind, false)).unwrap();
        re.is_match(subject)
    }

    #[test]
    fn command_globs_cross_slashes_and_spaces() {
        assert!(glob(
            "git * main",
            GlobKind::Command,
            "git push origin main"
        ));
        assert!(glob("rm -rf /tmp/*", GlobKind::Command, "rm -rf /tmp/a/b"));
        assert!(!glob(
            "git * main",
            GlobKind::Command,
            "git push origin dev"
        ));
        assert!(glob(
            "docker {stop,kill} *",
            GlobKind::Command,
            "docker kill app"
        ));
        assert!(glob("ls [!x]", GlobKind::Command, "ls a"));
        assert!(!glob("ls [!x]", GlobKind::Command, "ls x"));
        assert!(glob("echo {a}", GlobKind::Command, "echo {a}"));
        assert!(glob("a.b", GlobKind::Command, "a.b"));
        assert!(!glob("a.b", GlobKind::Command, "axb"));
    }

    #[test]
    fn path_globs_keep_stars_inside_a_component() {
        assert!(glob("src/**", GlobKind::Path, "src/a/b.rs"));
        assert!(glob("src/*.rs", GlobKind::Path, "src/main.rs"));
        assert!(!glob("src/*.rs", GlobKind::Path, "src/a/main.rs"));
        assert!(glob("src/**/*.rs", GlobKind::Path, "src/main.rs"));
        assert!(glob("src/**/*.rs", GlobKind::Path, "src/a/b/main.rs"));
        assert!(glob("**/.env", GlobKind::Path, "/home/u/p/.env"));
        assert!(!glob("src/**", GlobKind::Path, "srcx/a"));
    }

    #[test]
    fn prefixes_stop_at_word_boundaries() {
        let t = Target::Prefix("git".into());
        assert!(matches(&t, false, None, "git"));
        assert!(matches(&t, false, None, "git status"));
        assert!(!matches(&t, false, None, "gitk"));
        assert!(!matches(&t, false, None, "echo git"));
        let t = Target::Prefix("npm run test".into());
        assert!(matches(&t, false, None, "npm run test --watch"));
        assert!(!matches(&t, false, None, "npm run test:unit"));
    }

    #[test]
    fn exact_is_whole_text() {
        let t = Target::Exact("npm test".into());
        assert!(matches(&t, false, None, "npm test"));
        assert!(!matches(&t, false, None, "npm test && rm x"));
        assert!(matches(&t, true, None, "NPM test"));
    }

    #[test]
    fn literals_are_required_text() {
        let lit = |t: Target| required_literal(&t);
        assert_eq!(lit(Target::Prefix("git".into())), Some("git".into()));
        assert_eq!(
            lit(Target::CommandGlob("terraform * destroy*".into())),
            Some("terraform ".into())
        );
        assert_eq!(
            lit(Target::Regex(r"\bkubectl\s+delete\b".into())),
            Some("kubectl".into())
        );
        assert_eq!(
            lit(Target::Regex(r"(?s)DROP\s+DATABASE".into())),
            Some("database".into())
        );
        assert_eq!(lit(Target::Regex("a|b".into())), None);
        assert_eq!(
            lit(Target::Regex("(foo|bar)baz".into())),
            Some("baz".into())
        );
        assert_eq!(lit(Target::Regex("(?:foo)+bar".into())), Some("foo".into()));
        assert_eq!(lit(Target::Any), None);
        assert_eq!(lit(Target::PathGlob("src/**".into())), Some("src/".into()));
        assert_eq!(
            lit(Target::PathGlob("~/.ssh/**".into())),
            Some(".ssh/".into())
        );
        assert_eq!(
            lit(Target::PathGlob("./src/**".into())),
            Some("src/".into())
        );
        assert_eq!(
            lit(Target::PathGlob("../shared/*".into())),
            Some("shared/".into())
        );
    }
}
