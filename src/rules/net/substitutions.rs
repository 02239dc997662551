//! The commands inside a word's substitutions (`$( )`, `<( )`, backquotes), analysed once per body and shared with every rule that asks.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::shell::{self, Command};

/// The bodies of `$( )`, `<( )`, `>( )` and backquote substitutions in a word.
pub(super) fn substitution_bodies(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = word.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let end = word[i + 1..].find('`').map_or(word.len(), |e| i + 1 + e);
            out.push(&word[i + 1..end]);
            i = end + 1;
        } else if matches!(bytes[i], b'$' | b'<' | b'>') && bytes.get(i + 1) == Some(&b'(') {
            let start = i + 2;
            let mut depth = 1;
            let mut j = start;
            while j < bytes.len() && depth > 0 {
                match bytes[j] {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            let end = if depth == 0 { j - 1 } else { bytes.len() };
            out.push(&word[start..end]);
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The commands inside the substitutions of `word`, as the analyzer sees them.
/// Several rules ask about the same words, and deeply nested input repeats
/// one body inside another, so each body is analysed once per process (an
/// analysis depends on the text alone), up to a few thousand bodies: a
/// batch of many lines must not grow the memo without end.
pub(in crate::rules) fn substituted(word: &str) -> Substituted {
    const MAX_REMEMBERED: usize = 4096;
    // Asked of every word of many commands, and most words substitute
    // nothing: every body opens with a backquote or a parenthesis.
    if memchr::memchr2(b'`', b'(', word.as_bytes()).is_none() {
        debug_assert!(substitution_bodies(word).is_empty());
        return Substituted::default();
    }
    thread_local! {
        static SEEN: RefCell<HashMap<String, Rc<Vec<Command>>>> = RefCell::new(HashMap::new());
    }
    let bodies = substitution_bodies(word)
        .into_iter()
        .map(|body| {
            let known = SEEN.with(|seen| seen.borrow().get(body).cloned());
            known.unwrap_or_else(|| {
                let commands = Rc::new(shell::analyze(body).commands);
                SEEN.with(|seen| {
                    let mut seen = seen.borrow_mut();
                    if seen.len() >= MAX_REMEMBERED {
                        seen.clear();
                    }
                    seen.insert(body.to_string(), commands.clone());
                });
                commands
            })
        })
        .collect();
    Substituted(bodies)
}

/// The commands found inside substitutions, each body's as its analysis
/// holds them: asked of many commands, and copies would cost more than
/// the questions.
#[derive(Default)]
pub(in crate::rules) struct Substituted(Vec<Rc<Vec<Command>>>);

impl Substituted {
    pub(in crate::rules) fn iter(&self) -> impl Iterator<Item = &Command> {
        self.0.iter().flat_map(|commands| commands.iter())
    }

    pub(super) fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// The substitutions of several words, one after another.
impl FromIterator<Substituted> for Substituted {
    fn from_iter<I: IntoIterator<Item = Substituted>>(parts: I) -> Substituted {
        Substituted(parts.into_iter().flat_map(|part| part.0).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies() {
        assert_eq!(substitution_bodies("$(curl -s x)"), vec!["curl -s x"]);
        assert_eq!(
            substitution_bodies("<(wget -qO- $(echo u))"),
            vec!["wget -qO- $(echo u)"]
        );
        assert_eq!(substitution_bodies("a`b`c$(d"), vec!["b", "d"]);
    }
}
