//! Compound commands: function definitions, `for`/`select` headers, `case` and `(( ))`.

use super::arith::Closer;
use super::{is_meta, lit, literal_text, Node, Parser, Part, Pipeline, Script, Simple, Stop, Word};

impl Parser<'_> {
    pub(super) fn function_body(&mut self, name: String) -> Option<Node> {
        self.skip_blanks();
        while self.peek() == Some('\n') {
            self.newline();
            self.skip_blanks();
        }
        let node = self.command()?;
        let body = match node {
            // `f() { ...; }`: the group is the body. A subshell body, or
            // redirections after the group, apply on every call: kept.
            Node::Group {
                body,
                redirs,
                subshell: false,
            } if redirs.is_empty() => body,
            other => Script {
                pipelines: vec![Pipeline {
                    stages: vec![other],
                    ..Pipeline::default()
                }],
            },
        };
        Some(Node::Function { name, body })
    }

    pub(super) fn for_header(&mut self) -> Option<Node> {
        let kw = if self.word_is("for") { 3 } else { 6 };
        self.pos += kw;
        self.skip_blanks();
        if self.starts_with("((") {
            self.pos += 2;
            let (parts, _) = self.arith(Closer::Parens).unwrap_or_default();
            return Some(Node::Arith {
                parts,
                redirs: Vec::new(),
            });
        }
        let var = self.word().map(|w| literal_text(&w)).unwrap_or_default();
        self.skip_blanks();
        let mut words = Vec::new();
        if self.word_is("in") {
            self.pos += 2;
            loop {
                self.skip_blanks();
                match self.peek() {
                    None | Some(';') | Some('\n') | Some('&') | Some('|') => break,
                    _ if self.word_is("do") => break,
                    Some(c) if is_meta(c) => break,
                    _ => match self.word() {
                        Some(w) => words.push(w),
                        None => break,
                    },
                }
            }
        } else {
            // `for x; do` loops over the positional parameters.
            words.push(Word {
                parts: vec![Part::Param {
                    name: "@".into(),
                    op: String::new(),
                    arg: None,
                    index: Vec::new(),
                    src: "$@".into(),
                }],
            });
        }
        Some(Node::For { var, words })
    }

    /// A `while`, `until` or `if` (the keyword read) up to its `end`
    /// keyword, after `head` (a `for` header): one group, with the
    /// redirections after `end` applied to all of it, as at any depth.
    pub(super) fn compound(&mut self, end: &'static str, head: Option<Node>) -> Option<Node> {
        if !self.enter() {
            return None;
        }
        let mut body = self.script(Stop::End(end));
        self.leave();
        if let Some(head) = head {
            body.pipelines.insert(
                0,
                Pipeline {
                    stages: vec![head],
                    ..Pipeline::default()
                },
            );
        }
        let redirs = self.trailing_redirs();
        Some(Node::Group {
            body,
            redirs,
            subshell: false,
        })
    }

    /// The body of a `for` or `select` after its header: `do ... done`,
    /// or bash's `{ ...; }` form.
    pub(super) fn for_body(&mut self, header: Node) -> Option<Node> {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(';') => self.pos += 1,
                Some('\n') => self.newline(),
                _ => break,
            }
        }
        if !self.word_is("{") {
            return self.compound("done", Some(header));
        }
        let group = self.command();
        let stages = std::iter::once(header).chain(group);
        Some(Node::Group {
            body: Script {
                pipelines: stages
                    .map(|node| Pipeline {
                        stages: vec![node],
                        ..Pipeline::default()
                    })
                    .collect(),
            },
            redirs: Vec::new(),
            subshell: false,
        })
    }

    /// `case WORD in PATTERN) BODY ;; ... esac`: every body is analysed.
    pub(super) fn case(&mut self) -> Option<Node> {
        self.pos += 4;
        self.skip_blanks();
        let subject = self.word();
        self.skip_blanks();
        if self.word_is("in") {
            self.pos += 2;
        }
        let mut bodies = Script::default();
        // The subject and the patterns are expanded, substitutions and all:
        // they are kept as the words of a `:` command.
        let mut expanded = vec![lit(":")];
        expanded.extend(subject);
        if !self.enter() {
            return None;
        }
        loop {
            // Read the pattern list.
            loop {
                self.skip_blanks();
                match self.peek() {
                    None => break,
                    Some('\n') => self.newline(),
                    Some(')') => {
                        self.pos += 1;
                        break;
                    }
                    _ if self.word_is("esac") => break,
                    Some(c) if c == '(' || c == '|' => self.pos += 1,
                    Some(_) => match self.word() {
                        Some(pattern) => expanded.push(pattern),
                        None => self.pos += 1,
                    },
                }
            }
            if self.at_end() {
                // No `esac`.
                self.open = true;
                break;
            }
            if self.word_is("esac") {
                self.pos += 4;
                break;
            }
            let body = self.script(Stop::CaseItem);
            bodies.pipelines.extend(body.pipelines);
            if self.starts_with(";;") || self.starts_with(";&") {
                // `;;`, `;;&` or `;&`: the next arm's patterns follow.
                self.pos += 2;
                if matches!(self.peek(), Some('&')) {
                    self.pos += 1;
                }
            } else if self.word_is("esac") {
                self.pos += 4;
                break;
            }
        }
        self.leave();
        if expanded.len() > 1 {
            bodies.pipelines.insert(
                0,
                Pipeline {
                    stages: vec![Node::Simple(Simple {
                        words: expanded,
                        redirs: Vec::new(),
                    })],
                    ..Pipeline::default()
                },
            );
        }
        let redirs = self.trailing_redirs();
        Some(Node::Group {
            body: bodies,
            redirs,
            subshell: false,
        })
    }

    /// `(( ... ))` at the cursor, when it closes with `))`: bash reads
    /// `((a); (b))` as nested subshells.
    pub(super) fn arith_command(&mut self) -> Option<Node> {
        if self.peek_at(1) != Some('(') {
            return None;
        }
        let start = self.pos;
        self.pos += 2;
        let Some((parts, true)) = self.arith(Closer::Parens) else {
            // Not closed by `))`: nested groups, as bash reads them.
            self.pos = start;
            return None;
        };
        let redirs = self.trailing_redirs();
        Some(Node::Arith { parts, redirs })
    }
}
