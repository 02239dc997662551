//! Word expansion as the shell does it: braces, parameters, command substitution, field splitting on IFS, quote removal.

use std::borrow::Cow;

use super::eval::Eval;
use super::params::is_name;
use super::parse::{Part, Script, Word};

/// One word after expansion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Field {
    pub text: String,
    /// Holds an expansion warden could not resolve (kept as its source text).
    pub dynamic: bool,
    /// Some of it was quoted (so it is not an alias or keyword).
    pub quoted: bool,
}

/// Lets code that reads words take fields and strings alike.
impl AsRef<str> for Field {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl Field {
    pub fn plain(text: &str) -> Field {
        Field {
            text: text.to_string(),
            ..Field::default()
        }
    }
}

const QUOTED: u8 = 1;
const EXPANDED: u8 = 2;
/// Separates the values of a multi-valued (`for` loop) variable.
const SPLIT: u8 = 4;
/// Synthetic brace syntax around alternatives of one word (`${X:-d}` with
/// `X` unknown is `d` or anything): expanded like `{d,$X}`, never split.
const ALT: u8 = 8;
/// The source text of an expansion warden could not resolve, standing in
/// for its value (always with `QUOTED`).
const SOURCE: u8 = 16;

/// Characters of a word being expanded, each with how it came to be there.
#[derive(Default)]
struct Chars {
    chars: Vec<(char, u8)>,
    dynamic: bool,
    quoted: bool,
}

impl Chars {
    fn push_str(&mut self, s: &str, flags: u8) {
        self.chars.reserve(s.len());
        self.chars.extend(s.chars().map(|c| (c, flags)));
    }

    /// A multi-valued expansion's values, split apart whatever `IFS` is.
    fn push_values(&mut self, values: &[String], flags: u8) {
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.chars.push((' ', SPLIT));
            }
            self.push_str(v, flags);
        }
    }

    /// Values that are alternatives of one word, as `{a,b}` (see [`ALT`]).
    fn push_alternatives(&mut self, values: &[String], flags: u8) {
        self.chars.push(('{', ALT));
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.chars.push((',', ALT));
            }
            self.push_str(v, flags);
        }
        self.chars.push(('}', ALT));
    }

    /// The source text of an expansion warden could not resolve, standing
    /// for its value: one quoted word, and the word is dynamic.
    fn push_unresolved(&mut self, src: &str) {
        self.dynamic = true;
        self.push_str(src, QUOTED | SOURCE);
    }
}

/// Most unquoted `{` in one word: each may multiply the word.
const MAX_BRACES: usize = 64;
/// Longest word after expansion.
const MAX_WORD_CHARS: usize = 1 << 20;
/// Most characters all expansions of one call may produce together.
pub(super) const MAX_EXPANDED_CHARS: usize = 16 << 20;

/// Most fields one word may expand into (brace expansion multiplies).
const MAX_FIELDS: usize = 256;

impl Eval<'_> {
    /// Expands a word into fields: braces, expansions, splitting.
    pub(super) fn expand(&mut self, word: &Word) -> Vec<Field> {
        let mut fields = Vec::new();
        self.expand_onto(word, &mut fields);
        fields
    }

    /// [`Eval::expand`], its fields appended to `fields`: a command's words
    /// go straight into its list.
    pub(super) fn expand_onto(&mut self, word: &Word, fields: &mut Vec<Field>) {
        // Most words are one literal with no brace: splitting gives it back
        // whole (`literal_field`), so the per-character walk is skipped.
        if let [Part::Lit(text)] = word.parts.as_slice() {
            if !text.contains('{') {
                if !self.charge_expansion(0) {
                    return;
                }
                self.expanded_chars += text.chars().count();
                fields.extend(literal_field(text));
                return;
            }
        }
        // A word quoted whole (`'…'`, `"…"` without expansions) is one field
        // as written, even when empty: what the walk and split would give.
        if let Some(text) = quoted_text(&word.parts) {
            if !self.charge_expansion(0) {
                return;
            }
            let field = quoted_field(text);
            #[cfg(debug_assertions)]
            {
                let before = self.expanded_chars;
                let walked = self.expand_parts(word);
                self.expanded_chars = before;
                assert_eq!(
                    walked,
                    std::slice::from_ref(&field),
                    "quoted word {:?}",
                    word.parts
                );
            }
            self.expanded_chars += text.chars().count();
            fields.push(field);
            return;
        }
        fields.extend(self.expand_parts(word));
    }

    fn expand_parts(&mut self, word: &Word) -> Vec<Field> {
        let mut chars = Chars::default();
        self.parts(&word.parts, false, &mut chars);
        self.expanded_chars += chars.chars.len();
        let ifs = self.ifs();
        let mut fields = Vec::new();
        let braces = chars
            .chars
            .iter()
            .filter(|&&(c, f)| c == '{' && (f == 0 || f == ALT))
            .count();
        let alternatives = if braces > MAX_BRACES {
            self.set_limit(format!(
                "a word holds more than {MAX_BRACES} brace expansions"
            ));
            vec![std::mem::take(&mut chars.chars)]
        } else if braces == 0 {
            vec![std::mem::take(&mut chars.chars)]
        } else {
            brace_expand(&chars.chars)
        };
        for alternative in alternatives {
            split(&alternative, &ifs, chars.dynamic, chars.quoted, &mut fields);
            if fields.len() >= MAX_FIELDS {
                fields.truncate(MAX_FIELDS);
                break;
            }
        }
        fields
    }

    /// Expands a word into one field, without brace expansion or splitting
    /// (assignment values, redirection targets, heredoc bodies).
    pub(super) fn expand_single(&mut self, word: &Word) -> Field {
        let mut chars = Chars::default();
        self.parts(&word.parts, false, &mut chars);
        self.expanded_chars += chars.chars.len();
        Field {
            text: first_alternative(&chars.chars),
            dynamic: chars.dynamic,
            quoted: chars.quoted,
        }
    }

    /// `NAME=value` at the start of a simple command.
    pub(super) fn assignment(&mut self, word: &Word) -> Option<(String, String)> {
        let Some(Part::Lit(first)) = word.parts.first() else {
            return None;
        };
        let Some((name, value)) = super::arith::split_name_value(first) else {
            return self.subscripted_assignment(word);
        };
        // A name, then perhaps an index (`a[i+1]=2`).
        if !is_name(name.split_once('[').map_or(name, |(base, _)| base)) {
            return None;
        }
        let mut rest = word.clone();
        rest.parts[0] = Part::Lit(value.to_string());
        let value = self.expand_single(&rest);
        self.mark_unresolved(name, value.dynamic);
        Some((name.to_string(), value.text))
    }

    /// Records whether the value just given to `name` holds an expansion
    /// warden could not resolve.
    pub(super) fn mark_unresolved(&mut self, name: &str, dynamic: bool) {
        if dynamic {
            self.unresolved.insert(name.to_string());
        } else if !self.unresolved.is_empty() {
            self.unresolved.remove(name);
        }
    }

    /// `NAME[index]=value` whose index holds quotes or expansions
    /// (`a["$k"]=1`, `a[$(cmd)]=1`), so that the word's first part is only
    /// `NAME[`: the index is expanded and evaluated, then the value.
    fn subscripted_assignment(&mut self, word: &Word) -> Option<(String, String)> {
        let Some(Part::Lit(first)) = word.parts.first() else {
            return None;
        };
        let (base, opened) = first.split_once('[')?;
        if !is_name(base) {
            return None;
        }
        // The index runs to the literal `]=` (or `]+=`) that ends it.
        let (at, split) = word
            .parts
            .iter()
            .enumerate()
            .skip(1)
            .find_map(|(n, p)| match p {
                Part::Lit(s) => s.find("]=").or_else(|| s.find("]+=")).map(|i| (n, i)),
                _ => None,
            })?;
        let Part::Lit(closing) = &word.parts[at] else {
            return None;
        };
        let mut index = vec![Part::Lit(opened.to_string())];
        index.extend_from_slice(&word.parts[1..at]);
        index.push(Part::Lit(closing[..split].to_string()));
        let value_at = closing[split..].find('=').map_or(split, |e| split + e + 1);
        let mut rest = Word {
            parts: word.parts[at..].to_vec(),
        };
        rest.parts[0] = Part::Lit(closing[value_at..].to_string());
        let text = self.arith_expand(&index);
        self.arith_text(&text);
        let value = self.expand_single(&rest).text;
        Some((format!("{base}[{}]", text.trim()), value))
    }

    /// The elements of an array value `(a b c)`, expanded as the shell would.
    pub(super) fn array_elements(&mut self, value: &str) -> Option<Vec<String>> {
        let inner = value.strip_prefix('(')?.strip_suffix(')')?;
        let parsed = super::parse::parse(inner);
        let mut out = Vec::new();
        for pipeline in &parsed.script.pipelines {
            for node in &pipeline.stages {
                if let super::parse::Node::Simple(simple) = node {
                    for word in &simple.words {
                        out.extend(self.expand(word).into_iter().map(|f| f.text));
                    }
                }
            }
        }
        out.truncate(256);
        Some(out)
    }

    /// Counts a word's size against the per-call expansion budget; false
    /// (and a limit) once the word or the whole analysis is past it.
    fn charge_expansion(&mut self, word_len: usize) -> bool {
        if word_len > MAX_WORD_CHARS || self.expanded_chars > MAX_EXPANDED_CHARS {
            self.set_limit(format!(
                "the command's words expand past warden's limits ({MAX_WORD_CHARS} characters in one word, {MAX_EXPANDED_CHARS} in all)"
            ));
            return false;
        }
        true
    }

    fn ifs(&self) -> Cow<'static, str> {
        match self.vars.get("IFS") {
            Some(v) => Cow::Owned(v.first().cloned().unwrap_or_default()),
            None => Cow::Borrowed(" \t\n"),
        }
    }

    fn parts(&mut self, parts: &[Part], in_double: bool, out: &mut Chars) {
        let q = if in_double { QUOTED } else { 0 };
        for part in parts {
            // Variables can double a value per assignment (`x=$x$x`): past
            // the budget the word stops growing and the verdict is a block.
            if !self.charge_expansion(out.chars.len()) {
                return;
            }
            match part {
                Part::Lit(s) => out.push_str(s, q),
                Part::Quoted(s) => {
                    out.quoted = true;
                    out.push_str(s, QUOTED);
                }
                Part::Double(inner) => {
                    out.quoted = true;
                    self.parts(inner, true, out);
                }
                Part::Param {
                    name,
                    op,
                    arg,
                    index,
                    src,
                } => match self.subscripted_param(name, op, arg.as_ref(), index) {
                    Some(values) if std::mem::take(&mut self.param_alternatives) => {
                        out.push_alternatives(&values, EXPANDED | q);
                    }
                    // Stands for what warden could not resolve: one
                    // unknown word, as the expansion it holds would be.
                    Some(values)
                        if op.is_empty()
                            && !self.unresolved.is_empty()
                            && self.unresolved.contains(name.as_str()) =>
                    {
                        out.push_unresolved(&values.join(" "));
                    }
                    Some(values) => out.push_values(&values, EXPANDED | q),
                    None => out.push_unresolved(src),
                },
                Part::CommandSub { script, src } => {
                    match self.substitution_output("$( )", script) {
                        Some(text) => out.push_str(text.trim_end_matches('\n'), EXPANDED | q),
                        None => out.push_unresolved(src),
                    }
                }
                // `>(cmd)` reads what the command writes into it: run it once
                // that is known, after the command (see `flush_writers`).
                Part::ProcessSub { script, src } if src.starts_with(">(") => {
                    self.writers.push((script.clone(), src.clone()));
                    out.push_str(src, QUOTED | SOURCE);
                }
                Part::ProcessSub { script, src } => {
                    if let Some(text) = self.substitution_output("<( )", script) {
                        self.proc_outputs.insert(src.clone(), text);
                    }
                    out.push_str(src, QUOTED | SOURCE);
                }
                Part::Arith { parts, src } => {
                    self.arith(parts);
                    out.push_str(src, QUOTED | SOURCE);
                }
            }
        }
    }

    /// What a `$( )` or `<( )` substitution's script prints, when known;
    /// its commands are analysed as run from here, reached `via` it.
    fn substitution_output(&mut self, via: &'static str, script: &Script) -> Option<String> {
        self.via.push(via);
        let output = self.child(|eval| eval.script(script, None));
        self.via.pop();
        output
    }

    /// An arithmetic text's expansions done, as one string; what warden
    /// could not resolve is left out (see `arith`).
    pub(super) fn arith_expand(&mut self, parts: &[Part]) -> String {
        let mut chars = Chars::default();
        // Arithmetic text is neither split nor globbed, as in double quotes.
        self.parts(parts, true, &mut chars);
        self.expanded_chars += chars.chars.len();
        chars
            .chars
            .iter()
            .map(|&(c, f)| if f & SOURCE != 0 || f == ALT { ' ' } else { c })
            .collect()
    }
}

/// A word's text without splitting: multi-values joined by spaces, and of
/// alternatives only the first (the default of `${X:-d}`).
fn first_alternative(chars: &[(char, u8)]) -> String {
    let mut out = String::with_capacity(chars.len());
    let mut skipping = 0usize;
    let mut depth = 0usize;
    for &(c, f) in chars {
        if f == ALT {
            match c {
                '{' => depth += 1,
                ',' if skipping == 0 => skipping = depth,
                '}' => {
                    if skipping == depth {
                        skipping = 0;
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            continue;
        }
        if skipping == 0 {
            out.push(if f & SPLIT != 0 { ' ' } else { c });
        }
    }
    out
}

/// The text of a word that is one quoted string with nothing to expand.
fn quoted_text(parts: &[Part]) -> Option<&str> {
    match parts {
        [Part::Quoted(text)] => Some(text),
        [Part::Double(inner)] => match inner.as_slice() {
            [] => Some(""),
            [Part::Quoted(text)] => Some(text),
            _ => None,
        },
        _ => None,
    }
}

/// What [`split`] makes of a wholly quoted word: its text as one field,
/// even when empty, a leading `~` a file named `~` (not the home).
fn quoted_field(text: &str) -> Field {
    let text = if text.starts_with('~') {
        format!("./{text}")
    } else {
        text.to_string()
    };
    Field {
        text,
        dynamic: false,
        quoted: true,
    }
}

/// What [`split`] makes of an unquoted literal with no brace: the text as
/// one field, or nothing when it is empty.
fn literal_field(text: &str) -> Option<Field> {
    (!text.is_empty()).then(|| Field {
        text: text.to_string(),
        dynamic: false,
        quoted: false,
    })
}

/// Splits expanded characters into fields on unquoted IFS characters that
/// came from an expansion, and on multi-value separators.
fn split(chars: &[(char, u8)], ifs: &str, dynamic: bool, quoted: bool, out: &mut Vec<Field>) {
    let mut current = String::new();
    let mut has_content = false;
    // The default IFS is asked about with one comparison, not a search.
    let default_ifs = ifs == " \t\n";
    let is_ifs = |c: char| {
        if default_ifs {
            matches!(c, ' ' | '\t' | '\n')
        } else {
            ifs.contains(c)
        }
    };
    for &(c, flags) in chars {
        if flags == ALT {
            continue;
        }
        let splits =
            flags & SPLIT != 0 || (flags & EXPANDED != 0 && flags & QUOTED == 0 && is_ifs(c));
        if splits {
            if has_content {
                out.push(Field {
                    text: std::mem::take(&mut current),
                    dynamic,
                    quoted,
                });
            }
            has_content = false;
            continue;
        }
        // A quoted `~` is a file named `~`, not the home directory.
        if !has_content && c == '~' && flags == QUOTED {
            current.push_str("./");
        }
        current.push(c);
        has_content = true;
    }
    // A word that was quoted but empty (`""`) is still an argument.
    if has_content || (quoted && out.is_empty() && !chars.iter().any(|(_, f)| f & EXPANDED != 0)) {
        out.push(Field {
            text: current,
            dynamic,
            quoted,
        });
    }
}

/// Bash brace expansion on unquoted literal braces: `{a,b}` and `{1..3}`.
fn brace_expand(chars: &[(char, u8)]) -> Vec<Vec<(char, u8)>> {
    let mut results = Vec::new();
    expand_into(chars.to_vec(), &mut results);
    results
}

fn expand_into(chars: Vec<(char, u8)>, out: &mut Vec<Vec<(char, u8)>>) {
    if out.len() >= MAX_FIELDS {
        return;
    }
    let literal = |i: usize| chars[i].1 == 0 || chars[i].1 == ALT;
    let mut search_from = 0;
    while let Some(open) = (search_from..chars.len()).find(|&i| chars[i].0 == '{' && literal(i)) {
        // Find the matching close brace and the top-level commas.
        let mut depth = 0;
        let mut commas = Vec::new();
        let mut close = None;
        for (i, &(c, f)) in chars.iter().enumerate().skip(open) {
            if f != 0 && f != ALT {
                continue;
            }
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                ',' if depth == 1 => commas.push(i),
                _ => {}
            }
        }
        let Some(close) = close else { break };
        let prefix = &chars[..open];
        let suffix = &chars[close + 1..];
        let alternatives: Vec<Vec<(char, u8)>> = if !commas.is_empty() {
            let mut bounds = vec![open];
            bounds.extend(&commas);
            bounds.push(close);
            bounds
                .windows(2)
                .map(|w| chars[w[0] + 1..w[1]].to_vec())
                .collect()
        } else {
            let inner: String = chars[open + 1..close].iter().map(|(c, _)| c).collect();
            match sequence(&inner) {
                Some(items) => items
                    .into_iter()
                    .map(|s| s.chars().map(|c| (c, QUOTED)).collect())
                    .collect(),
                None => {
                    search_from = open + 1;
                    continue;
                }
            }
        };
        for alt in alternatives {
            let mut next = prefix.to_vec();
            next.extend(alt);
            next.extend_from_slice(suffix);
            expand_into(next, out);
            if out.len() >= MAX_FIELDS {
                return;
            }
        }
        return;
    }
    out.push(chars);
}

/// `a..e` or `1..5` (with an optional step), bounded.
fn sequence(inner: &str) -> Option<Vec<String>> {
    let mut parts = inner.split("..");
    let (a, b) = (parts.next()?, parts.next()?);
    // `unsigned_abs`: the step may be `i64::MIN`, which has no `abs`.
    let step = parts
        .next()
        .map_or(Some(1i64), |s| s.parse::<i64>().ok())?
        .unsigned_abs()
        .max(1);
    let step = usize::try_from(step).unwrap_or(usize::MAX);
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let items: Vec<String> = if x <= y {
            (x..=y)
                .step_by(step)
                .take(MAX_FIELDS)
                .map(|n| n.to_string())
                .collect()
        } else {
            (y..=x)
                .rev()
                .step_by(step)
                .take(MAX_FIELDS)
                .map(|n| n.to_string())
                .collect()
        };
        return Some(items);
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    let (x, y) = (ca.next()?, cb.next()?);
    if ca.next().is_some()
        || cb.next().is_some()
        || !x.is_ascii_alphabetic()
        || !y.is_ascii_alphabetic()
    {
        return None;
    }
    let (lo, hi) = (x.min(y) as u8, x.max(y) as u8);
    Some((lo..=hi).map(|c| (c as char).to_string()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_take_any_step() {
        let min = i64::MIN;
        assert_eq!(sequence(&format!("1..3..{min}")), Some(vec!["1".into()]));
        assert!(sequence(&format!("a..c..{min}")).is_some());
        assert_eq!(
            sequence("5..1..-2"),
            Some(vec!["5".into(), "3".into(), "1".into()])
        );
        assert_eq!(
            sequence(&format!("{min}..{}..{}", i64::MAX, u64::MAX)),
            None
        );
    }

    #[test]
    fn a_literal_without_braces_splits_into_itself() {
        for text in [
            "", "a", "rm", "-rf", "~", "~/x", "a b", "a\tb", "x=1", "*.txt", "é~ü", "a}b", ",",
        ] {
            for ifs in [" \t\n", "", ",", "~"] {
                let chars: Vec<(char, u8)> = text.chars().map(|c| (c, 0)).collect();
                let mut out = Vec::new();
                split(&chars, ifs, false, false, &mut out);
                assert_eq!(
                    out,
                    literal_field(text).into_iter().collect::<Vec<_>>(),
                    "{text:?} {ifs:?}"
                );
            }
        }
    }
}
