//! A forgiving parser for POSIX/bash command lines: it never fails, ends unterminated constructs at end of input, and bounds nesting.
//!
//! The tree keeps only what decides what runs: pipelines of simple commands
//! and groups, words made of quoted and unquoted parts and expansions,
//! redirections with heredoc bodies, function definitions and `for` headers.
//! Control keywords (`if`, `then`, `do`, `done`, ...) are skipped: the
//! commands inside every branch and loop body are treated as run.

mod arith;
mod compound;
#[cfg(test)]
mod differential;
mod keywords;
mod plain;
mod redirects;
mod words;

use super::limits::MAX_NESTING;
use keywords::KEYWORDS_SKIPPED;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub stages: Vec<Node>,
    /// Ended by `&`: runs in the background.
    pub background: bool,
    /// What decides whether the next pipeline runs.
    pub then: Then,
}

/// How a pipeline is joined to the next one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Then {
    /// `&&`: the next runs only if this one succeeded.
    And,
    /// `||`: the next runs only if this one failed.
    Or,
    /// `;`, `&`, a newline or the end: the next runs regardless.
    #[default]
    Next,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Simple(Simple),
    /// `( ... )` or `{ ...; }`, with redirections applied to the whole group.
    Group {
        body: Script,
        redirs: Vec<Redir>,
        /// `( ... )`: a child process, so a `cd` inside it stays inside.
        subshell: bool,
    },
    Function {
        name: String,
        body: Script,
    },
    /// `(( ... ))` or a `for (( ...; ...; ... ))` header: arithmetic, whose
    /// expansions run; no command.
    Arith {
        parts: Vec<Part>,
        redirs: Vec<Redir>,
    },
    /// `for NAME in WORDS`: the loop body follows as ordinary commands.
    For {
        var: String,
        words: Vec<Word>,
    },
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Simple {
    pub words: Vec<Word>,
    pub redirs: Vec<Redir>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    pub parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Unquoted text (backslash escapes already applied to `Quoted` parts):
    /// globs, braces and `~` keep their meaning here.
    Lit(String),
    /// Text that no expansion touches: single quotes, `$'...'`, escaped characters.
    Quoted(String),
    /// A double-quoted string: expansions inside, but no splitting or globbing.
    Double(Vec<Part>),
    /// `$NAME`, `${NAME}`, `${NAME<op><arg>}`, `${NAME[index]...}`.
    Param {
        /// The name, with its subscript as written (`a[$i]`).
        name: String,
        op: String,
        arg: Option<Word>,
        /// The subscript's expansions (empty without one).
        index: Vec<Part>,
        src: String,
    },
    /// `$( ... )` or backticks.
    CommandSub { script: Script, src: String },
    /// `<( ... )` or `>( ... )`.
    ProcessSub { script: Script, src: String },
    /// `$(( ... ))` or `$[ ... ]`: the expansions inside, and the source.
    Arith { parts: Vec<Part>, src: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirKind {
    Write,
    Append,
    Read,
    /// `>&N` / `<&N`: duplicates a descriptor, writes no file.
    Dup,
    HereDoc,
    HereString,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redir {
    pub fd: Option<u32>,
    pub kind: RedirKind,
    /// The file, the here-string word, or the heredoc body.
    pub target: Word,
}

/// The parse result: the tree, and a note when a limit cut it short.
pub struct Parsed {
    pub script: Script,
    pub limit: Option<String>,
    /// The input ended inside a quote, substitution, group, heredoc or
    /// other construct, which the parser closed there.
    pub open: bool,
}

pub fn parse(text: &str) -> Parsed {
    if let Some(script) = plain::plain(text) {
        debug_assert_eq!(
            script,
            Parser::new(text, 0).script(Stop::Eof),
            "the plain reading of {text:?}"
        );
        return Parsed {
            script,
            limit: None,
            open: false,
        };
    }
    let mut parser = Parser::new(text, 0);
    let script = parser.script(Stop::Eof);
    Parsed {
        script,
        limit: parser.limit,
        open: parser.open,
    }
}

/// Whether a command's first word is `[[`, whose words are not split.
pub fn is_test_keyword(word: &Word) -> bool {
    matches!(word.parts.as_slice(), [Part::Lit(l)] if l == "[[")
}

/// `text` read as an unquoted heredoc body: literal text with the `$( )`,
/// backticks and `${ }` in it, and a note when a limit cut it short.
pub fn expansions(text: &str) -> (Word, Option<String>) {
    let mut parser = Parser::new(text, 0);
    let parts = parser.double_quoted_parts(false);
    (
        Word {
            parts: vec![Part::Double(parts)],
        },
        parser.limit,
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Eof,
    Paren,
    Brace,
    /// A `case` item body: ends at `;;`, `;&`, `;;&` or `esac`.
    CaseItem,
    /// The body of a loop or an `if`: ends at its closing keyword
    /// (`done`, `fi`), which is consumed.
    End(&'static str),
}

struct Parser<'a> {
    /// The input. Positions count characters; when the input is all ASCII
    /// (nearly always) they are its byte offsets, and runs of it are read
    /// and copied in place.
    text: &'a str,
    ascii: bool,
    /// The input's characters, made only when it is not all ASCII.
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    limit: Option<String>,
    /// The input ended inside a construct (see [`Parsed::open`]).
    open: bool,
    /// Where parsing resumes after the newline that ends the current line,
    /// past the heredoc bodies already read for it.
    resume_after_newline: Option<usize>,
    /// The newline ending the line of the last heredoc operator.
    line_end: Option<usize>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, depth: usize) -> Parser<'a> {
        let ascii = text.is_ascii();
        Parser {
            text,
            ascii,
            chars: if ascii {
                Vec::new()
            } else {
                text.chars().collect()
            },
            pos: 0,
            depth,
            limit: None,
            open: false,
            resume_after_newline: None,
            line_end: None,
        }
    }

    /// Appends the input from character `from` to `to`.
    fn push_span(&self, buf: &mut String, from: usize, to: usize) {
        if self.ascii {
            let span = &self.text[from..to];
            // Most spans start a buffer: one exact allocation, without
            // the growth path's arithmetic.
            if buf.capacity() == 0 {
                *buf = span.to_owned();
            } else {
                buf.push_str(span);
            }
        } else {
            buf.extend(&self.chars[from..to]);
        }
    }

    /// How many characters the input has.
    fn len(&self) -> usize {
        if self.ascii {
            self.text.len()
        } else {
            self.chars.len()
        }
    }

    fn char_at(&self, at: usize) -> Option<char> {
        if self.ascii {
            self.text.as_bytes().get(at).map(|&b| char::from(b))
        } else {
            self.chars.get(at).copied()
        }
    }

    /// The first position from `from` on whose character passes `test`.
    fn find_from(&self, from: usize, test: impl Fn(char) -> bool) -> Option<usize> {
        let found = if self.ascii {
            let rest = self.text.as_bytes().get(from..)?;
            rest.iter().position(|&b| test(char::from(b)))
        } else {
            self.chars.get(from..)?.iter().position(|&c| test(c))
        };
        found.map(|at| from + at)
    }

    fn peek(&self) -> Option<char> {
        self.char_at(self.pos)
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.char_at(self.pos + offset)
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn at_end(&self) -> bool {
        self.pos >= self.len()
    }

    /// Enters a nested construct; past the limit, records it and skips the
    /// rest of the input so every level unwinds at once.
    fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            if self.limit.is_none() {
                self.limit = Some(format!(
                    "the command nests quotes, groups or substitutions more than {MAX_NESTING} levels deep"
                ));
            }
            self.pos = self.len();
            return false;
        }
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' || c == '\r' {
                self.pos += 1;
            } else if c == '\\' && self.peek_at(1) == Some('\n') {
                self.pos += 2;
            } else {
                break;
            }
        }
    }

    fn skip_comment(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.pos += 1;
        }
    }

    fn newline(&mut self) {
        self.pos += 1;
        if let Some(resume) = self.resume_after_newline.take() {
            self.pos = resume.max(self.pos);
        }
    }

    fn script(&mut self, stop: Stop) -> Script {
        let mut script = Script::default();
        let mut pipeline = Pipeline::default();
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else {
                // A group, substitution or case body the input left open.
                self.open |= stop != Stop::Eof;
                break;
            };
            match c {
                '#' => self.skip_comment(),
                '\n' => {
                    self.newline();
                    finish(&mut script, &mut pipeline, false, Then::Next);
                }
                ';' => {
                    if self.semicolon_ends_arm(stop) {
                        break;
                    }
                    finish(&mut script, &mut pipeline, false, Then::Next);
                }
                '&' => {
                    self.pos += 1;
                    if self.peek() == Some('&') {
                        self.pos += 1;
                        finish(&mut script, &mut pipeline, false, Then::And);
                    } else if self.peek() == Some('>') {
                        // `&>file` at command start: a redirect-only command.
                        self.pos -= 1;
                        self.stage(&mut pipeline);
                    } else {
                        finish(&mut script, &mut pipeline, true, Then::Next);
                    }
                }
                '|' => {
                    self.pos += 1;
                    match self.peek() {
                        Some('|') => {
                            self.pos += 1;
                            finish(&mut script, &mut pipeline, false, Then::Or);
                        }
                        Some('&') => self.pos += 1,
                        _ => {}
                    }
                }
                ')' => {
                    if self.paren_ends(stop) {
                        break;
                    }
                }
                _ => {
                    if self.word_ends(stop) {
                        break;
                    }
                    self.stage(&mut pipeline);
                }
            }
        }
        finish(&mut script, &mut pipeline, false, Then::Next);
        script
    }

    /// Takes a `;`, `;;`, `;&` or `;;&` separator; true instead, taking
    /// nothing, when it ends a case arm (`;;` or `;&` falling through).
    #[inline]
    fn semicolon_ends_arm(&mut self, stop: Stop) -> bool {
        if stop == Stop::CaseItem && self.starts_with(";&") {
            // `;&` falls through to the next arm: the arm ends.
            return true;
        }
        if self.starts_with(";;") {
            if stop == Stop::CaseItem {
                return true;
            }
            self.pos += 1;
        }
        self.pos += 1;
        if self.peek() == Some('&') {
            self.pos += 1;
        }
        false
    }

    /// Whether the `)` here ends the script read up to `stop`; a stray one
    /// (a case pattern's end) is taken as a separator.
    #[inline]
    fn paren_ends(&mut self, stop: Stop) -> bool {
        if stop == Stop::Paren {
            self.pos += 1;
            return true;
        }
        if matches!(stop, Stop::End(_)) {
            // A loop or `if` left open inside `( )` or `$( )`:
            // the `)` closes the enclosing construct, as in bash.
            self.open = true;
            return true;
        }
        self.pos += 1;
        false
    }

    /// Whether the word here ends the script read up to `stop`: its closing
    /// keyword (taken), a `}` closing a group, or `esac` (left for the case
    /// parser).
    #[inline]
    fn word_ends(&mut self, stop: Stop) -> bool {
        if let Stop::End(end) = stop {
            if self.word_is(end) {
                self.pos += end.len();
                return true;
            }
            if self.word_is("}") {
                // Left open inside `{ }`: the `}` closes the group.
                self.open = true;
                return true;
            }
        }
        if self.word_is("}") && matches!(stop, Stop::Brace) {
            self.pos += 1;
            return true;
        }
        stop == Stop::CaseItem && self.word_is("esac")
    }

    /// Whether the next word is exactly `w` (followed by a metacharacter or end).
    fn word_is(&self, w: &str) -> bool {
        self.starts_with(w)
            && self
                .peek_at(w.chars().count())
                .is_none_or(|c| is_meta(c) || c == '}')
    }

    /// Parses one pipeline stage and appends it.
    fn stage(&mut self, pipeline: &mut Pipeline) {
        let start = self.pos;
        if let Some(node) = self.command() {
            if pipeline.stages.capacity() == 0 {
                // Room for a short pipeline at once: growing from nothing
                // goes through the allocator's slower path.
                pipeline.stages = Vec::with_capacity(4);
            }
            pipeline.stages.push(node);
        }
        // Always make progress, whatever the input.
        if self.pos == start {
            self.pos += 1;
        }
    }

    /// A `( )` subshell (`stop` is `Paren`) or a `{ }` group (`Brace`),
    /// from its opening character, with the redirections after it.
    fn group(&mut self, stop: Stop) -> Option<Node> {
        self.pos += 1;
        if !self.enter() {
            return None;
        }
        let body = self.script(stop);
        self.leave();
        let redirs = self.trailing_redirs();
        Some(Node::Group {
            body,
            redirs,
            subshell: stop == Stop::Paren,
        })
    }

    fn command(&mut self) -> Option<Node> {
        loop {
            self.skip_blanks();
            match self.peek()? {
                '(' => {
                    if let Some(node) = self.arith_command() {
                        return Some(node);
                    }
                    return self.group(Stop::Paren);
                }
                '{' if self.word_is("{") => return self.group(Stop::Brace),
                _ => {}
            }
            // Every keyword starts with one of these: most commands skip the lookups.
            if !matches!(
                self.peek(),
                Some('i' | 't' | 'e' | 'f' | 'd' | 'w' | 'u' | '!' | 's' | 'c')
            ) {
                return self.simple();
            }
            let here = self.short_word();
            let keyword = KEYWORDS_SKIPPED.iter().find(|k| here.is(k)).copied();
            if let Some(k) = keyword {
                self.pos += k.chars().count();
                continue;
            }
            if here.is("while") || here.is("until") || here.is("if") {
                let (len, end) = if here.is("if") {
                    (2, "fi")
                } else {
                    (5, "done")
                };
                self.pos += len;
                return self.compound(end, None);
            }
            if here.is("for") || here.is("select") {
                let header = self.for_header()?;
                return self.for_body(header);
            }
            if here.is("case") {
                return self.case();
            }
            if here.is("function") {
                self.pos += "function".len();
                self.skip_blanks();
                let name = self.word().map(|w| literal_text(&w)).unwrap_or_default();
                return self.function_body(name);
            }
            return self.simple();
        }
    }

    fn simple(&mut self) -> Option<Node> {
        let mut simple = Simple {
            words: Vec::with_capacity(4),
            redirs: Vec::new(),
        };
        let mut is_test = false;
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
            if c == '#' && !simple.words.is_empty() {
                self.skip_comment();
                break;
            }
            if let Some(redir) = self.redirect(is_test) {
                simple.redirs.push(redir);
                continue;
            }
            if c == '(' && simple.words.len() == 1 && simple.redirs.is_empty() {
                // `name ()` starts a function definition.
                let save = self.pos;
                self.pos += 1;
                self.skip_blanks();
                if self.peek() == Some(')') {
                    self.pos += 1;
                    let name = literal_text(&simple.words[0]);
                    return self.function_body(name);
                }
                self.pos = save;
            }
            let process_sub = matches!(c, '<' | '>') && self.peek_at(1) == Some('(');
            if is_test && matches!(c, '&' | '|' | '(' | ')' | '<' | '>') && !process_sub {
                // Inside `[[ ]]` these are the test's own operators
                // (`[[ -n $x && $x -gt 3 ]]`), not the end of the command.
                let len = if self.starts_with("&&") || self.starts_with("||") {
                    2
                } else {
                    1
                };
                let mut op = String::new();
                self.push_span(&mut op, self.pos, self.pos + len);
                self.pos += len;
                simple.words.push(Word {
                    parts: vec![Part::Lit(op)],
                });
                continue;
            }
            if is_meta(c) && !process_sub {
                break;
            }
            if is_test && self.word_is("]]") {
                self.pos += 2;
                simple.words.push(lit("]]"));
                is_test = false;
                continue;
            }
            match self.word() {
                Some(w) => {
                    if simple.words.is_empty() && is_test_keyword(&w) {
                        is_test = true;
                    }
                    simple.words.push(w);
                }
                None => break,
            }
        }
        if simple.words.is_empty() && simple.redirs.is_empty() {
            return None;
        }
        Some(Node::Simple(simple))
    }
}

fn finish(script: &mut Script, pipeline: &mut Pipeline, background: bool, then: Then) {
    if !pipeline.stages.is_empty() {
        let mut done = std::mem::take(pipeline);
        done.background = background;
        done.then = then;
        if script.pipelines.capacity() == 0 {
            script.pipelines = Vec::with_capacity(4);
        }
        script.pipelines.push(done);
    }
}

fn is_meta(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | ';' | '&' | '|' | '(' | ')' | '<' | '>'
    )
}

fn lit(s: &str) -> Word {
    Word {
        parts: vec![Part::Lit(s.to_string())],
    }
}

/// The text of a word with quotes removed and expansions left as written.
pub fn word_source_text(word: &Word) -> String {
    let mut out = String::new();
    for part in &word.parts {
        push_source(part, &mut out);
    }
    out
}

fn push_source(part: &Part, out: &mut String) {
    match part {
        Part::Lit(s) | Part::Quoted(s) => out.push_str(s),
        Part::Double(parts) => parts.iter().for_each(|p| push_source(p, out)),
        Part::Param { src, .. }
        | Part::CommandSub { src, .. }
        | Part::ProcessSub { src, .. }
        | Part::Arith { src, .. } => out.push_str(src),
    }
}

/// A word's text when it has no expansions (used for names and keywords).
fn literal_text(word: &Word) -> String {
    word_source_text(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &Script) -> Vec<Vec<String>> {
        script
            .pipelines
            .iter()
            .flat_map(|p| &p.stages)
            .filter_map(|n| match n {
                Node::Simple(s) => Some(s.words.iter().map(word_source_text).collect()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn splits_on_operators() {
        let p = parse("a 1; b 2 && c | d & e\nf || g");
        assert_eq!(
            words(&p.script),
            vec![
                vec!["a", "1"],
                vec!["b", "2"],
                vec!["c"],
                vec!["d"],
                vec!["e"],
                vec!["f"],
                vec!["g"]
            ]
        );
    }

    #[test]
    fn quotes_and_escapes() {
        let p = parse(r#"r''m "-rf" \/ $'\x72\x6d' $'\162'"#);
        assert_eq!(words(&p.script), vec![vec!["rm", "-rf", "/", "rm", "r"]]);
    }

    #[test]
    fn heredoc_bodies_are_not_commands() {
        let p = parse("cat <<'EOF' > notes.md\nrm -rf /\nEOF\necho done");
        assert_eq!(words(&p.script), vec![vec!["cat"], vec!["echo", "done"]]);
    }

    #[test]
    fn unclosed_constructs_end_at_eof() {
        let p = parse("echo \"unterminated $(rm -rf / ");
        assert!(p.limit.is_none());
        let p = parse(&"$(".repeat(10_000));
        assert!(p.limit.is_some());
    }

    #[test]
    fn constructs_left_open_are_reported() {
        for text in [
            "echo 'x",
            "echo \"x",
            "echo `x",
            "echo $(x",
            "echo ${x",
            "echo $'x",
            "(echo x",
            "{ echo x;",
            "cat <<EOF\nx",
            "cat <<EOF",
            "case x in a) echo",
            "echo $((1 + 2",
            "a=(1 2",
            "echo \"$(x)",
            "echo x\\",
        ] {
            assert!(parse(text).open, "{text:?}");
        }
        for text in [
            "echo 'x'",
            "echo \"$(x)\" `y` ${z} $'w' $((1 + 2))",
            "(echo x); { echo y; }",
            "cat <<EOF\nx\nEOF",
            "case x in a) echo;; esac",
            "a=(1 2)",
            "git status",
            "((a); (b))",
            "echo x\\\\",
        ] {
            assert!(!parse(text).open, "{text:?}");
        }
    }

    #[test]
    fn function_definition() {
        let p = parse(":(){ :|:& };:");
        assert!(matches!(
            p.script.pipelines[0].stages[0],
            Node::Function { .. }
        ));
    }
}
