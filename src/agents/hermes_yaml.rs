//! Hermes' `config.yaml`: warden's entry under `hooks.pre_tool_call`, edited in the text so that a person's comments and layout survive.
//!
//! serde_yaml only reads the document: to learn its shape, and to check
//! every edit. Writing its value back would drop every comment, so the edit
//! is made on the lines. What the line editor cannot follow safely is
//! regenerated instead, as small as possible: the `hooks:` block, or (when
//! the top level is not in block style) the whole file, with a note.

use super::is_warden;

use serde_yaml::{Mapping, Value};

const HOOKS: &str = "hooks";
const EVENT: &str = "pre_tool_call";

/// warden's entry in Hermes' hook list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub matcher: String,
    pub command: String,
    pub timeout: u64,
    pub fail_closed: bool,
}

/// What an edit did: the new text (None when nothing changed) and one line
/// per change, for the person.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Edit {
    pub text: Option<String>,
    pub notes: Vec<String>,
}

/// A `pre_tool_call` hook as Hermes reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub matcher: Option<String>,
    pub command: String,
    pub timeout: Option<u64>,
    pub fail_closed: Option<bool>,
}

/// Registers `entry` under `hooks.pre_tool_call` in `text` (the whole
/// config.yaml; may be empty), replacing any earlier warden entry and
/// turning the shapes Hermes skips into its list.
pub fn register(text: &str, entry: &Entry) -> Result<Edit, String> {
    edit(text, Some(entry))
}

/// Removes every warden entry from `hooks.pre_tool_call`, and the keys that
/// are left empty, so that register-then-unregister gives the text back.
pub fn unregister(text: &str) -> Result<Edit, String> {
    edit(text, None)
}

/// The `pre_tool_call` hooks as Hermes would read them, or a sentence saying
/// which shape Hermes skips.
pub fn hooks(text: &str) -> Result<Vec<Found>, String> {
    let root = parse(text)?;
    match listed(hooks_map(&root)?.and_then(|h| h.get(EVENT)))? {
        (_, Some(wrong)) => Err(wrong),
        (items, None) => Ok(items.iter().filter_map(found).collect()),
    }
}

fn parse(text: &str) -> Result<Mapping, String> {
    match serde_yaml::from_str::<Value>(text) {
        // An empty file, or one of comments only.
        Ok(Value::Null) => Ok(Mapping::new()),
        Ok(Value::Mapping(root)) => Ok(root),
        Ok(_) => Err("its top level is not a mapping of settings".into()),
        Err(e) => Err(format!("it is not valid YAML ({e})")),
    }
}

/// The `hooks` mapping; None when the key is absent or empty.
fn hooks_map(root: &Mapping) -> Result<Option<&Mapping>, String> {
    match root.get(HOOKS) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Mapping(hooks)) => Ok(Some(hooks)),
        Some(_) => Err("hooks is not a mapping of events, which Hermes skips".into()),
    }
}

/// The hooks under `pre_tool_call` in the list form Hermes reads, and when
/// the file holds another shape, the sentence saying which.
fn listed(value: Option<&Value>) -> Result<(Vec<Value>, Option<String>), String> {
    let unreadable = || "hooks.pre_tool_call holds something that is no hook; fix it by hand";
    let wrong = |what: &str| Some(format!("hooks.pre_tool_call {what}, which Hermes skips"));
    let hook = |matcher: Option<&Value>, command: &str| {
        let matcher = matcher.map(|m| ("matcher".into(), m.clone()));
        let command = [("command".into(), command.into())];
        Value::Mapping(matcher.into_iter().chain(command).collect())
    };
    let mut items = Vec::new();
    let wrong = match value {
        None | Some(Value::Null) => None,
        Some(Value::Sequence(list)) => {
            for item in list {
                items.push(match item {
                    Value::Mapping(_) => item.clone(),
                    Value::String(command) => hook(None, command),
                    _ => return Err(unreadable().into()),
                });
            }
            let bare = list.iter().any(Value::is_string);
            bare.then(|| wrong("holds bare command strings")).flatten()
        }
        Some(Value::Mapping(by_tool)) => {
            for (tool, held) in by_tool {
                let held = match held {
                    Value::Sequence(list) => list.as_slice(),
                    Value::Null => &[],
                    one => std::slice::from_ref(one),
                };
                for h in held {
                    // A hook's own matcher wins over the tool it is filed under.
                    items.push(match h {
                        Value::String(command) => hook(Some(tool), command),
                        Value::Mapping(m) if tool.is_string() => {
                            let mut with = Mapping::from_iter([("matcher".into(), tool.clone())]);
                            with.extend(m.clone());
                            Value::Mapping(with)
                        }
                        _ => return Err(unreadable().into()),
                    });
                }
            }
            wrong("is a mapping keyed by tool name")
        }
        Some(Value::String(command)) => {
            items.push(hook(None, command));
            wrong("is a single command string")
        }
        Some(_) => return Err(unreadable().into()),
    };
    Ok((items, wrong))
}

/// warden's item, in the order it is written: matcher, command, timeout,
/// fail_closed.
fn entry_value(entry: &Entry) -> Value {
    // An empty matcher would match no tool; without one, Hermes matches all.
    let mut m = Mapping::new();
    if !entry.matcher.is_empty() {
        m.insert("matcher".into(), entry.matcher.as_str().into());
    }
    m.insert("command".into(), entry.command.as_str().into());
    m.insert("timeout".into(), entry.timeout.into());
    if entry.fail_closed {
        m.insert("fail_closed".into(), true.into());
    }
    Value::Mapping(m)
}

fn is_warden_item(item: &Value) -> bool {
    item.get("command")
        .and_then(Value::as_str)
        .is_some_and(is_warden)
}

fn found(item: &Value) -> Option<Found> {
    let text = |key: &str| item.get(key).and_then(Value::as_str).map(String::from);
    Some(Found {
        matcher: text("matcher"),
        command: text("command")?,
        timeout: item.get("timeout").and_then(Value::as_u64),
        fail_closed: item.get("fail_closed").and_then(Value::as_bool),
    })
}

/// Registers `entry`, or with None unregisters.
fn edit(text: &str, entry: Option<&Entry>) -> Result<Edit, String> {
    let root = parse(text)?;
    let read = |root| -> Result<_, String> {
        let hooks = hooks_map(root)?;
        Ok((hooks, listed(hooks.and_then(|h| h.get(EVENT)))?))
    };
    let (hooks, (listed, wrong)) = match read(&root) {
        Ok(read) => read,
        Err(why) if entry.is_some() => return Err(why),
        // Nothing there that Hermes reads, so no warden to remove.
        Err(_) => return Ok(Edit::default()),
    };
    let remove: Vec<bool> = listed.iter().map(is_warden_item).collect();
    let wardens = remove.iter().filter(|r| **r).count();
    let mut items = listed.clone();
    items.retain(|i| !is_warden_item(i));
    let mut notes = Vec::new();
    if let Some(wrong) = &wrong {
        let others = items.len();
        let kept = match others {
            0 => String::new(),
            n => format!(", keeping its {n} other hook(s)"),
        };
        notes.push(format!(
            "{wrong} (none of its hooks ran): rewrote it as the list Hermes reads{kept}"
        ));
    }
    match (entry, wardens) {
        (Some(entry), _) => {
            let value = entry_value(entry);
            if wrong.is_none() && wardens == 1 && listed.contains(&value) {
                return Ok(Edit::default());
            }
            items.push(value);
            let matcher = &entry.matcher;
            notes.push(match wardens {
                0 => format!("added warden to hooks.pre_tool_call for `{matcher}`"),
                _ => "replaced warden's earlier entry in hooks.pre_tool_call".into(),
            });
        }
        (None, 0) => return Ok(Edit::default()),
        (None, _) => notes.push("removed warden's entry from hooks.pre_tool_call".into()),
    }
    let list = (!items.is_empty()).then_some(Value::Sequence(items));
    let new_hooks = with_key(hooks.unwrap_or(&Mapping::new()), EVENT, list, true);
    let new_hooks = (!new_hooks.is_empty()).then_some(Value::Mapping(new_hooks));
    let expected = with_key(&root, HOOKS, new_hooks.clone(), false);
    // Every edit must read back as exactly the intended document.
    let reads_back = |new: &String| parse(new).ok().as_ref() == Some(&expected);

    let doc = Doc::new(text);
    let tops = doc.keys(0, doc.lines.len(), 0);
    let text = match tops.filter(|k| same_keys(k, &root)) {
        Some(tops) => {
            let edited = match wrong {
                None => doc.edit_list(&tops, hooks, &remove, entry),
                Some(_) => None,
            };
            match edited.filter(reads_back) {
                Some(new) => new,
                None => doc.regenerate(&tops, new_hooks, &mut notes)?,
            }
        }
        None => {
            notes.push("the file is not in block style, so it was rewritten whole: its comments could not be kept".into());
            doc.splice(&vec![true; doc.lines.len()], 0, &yaml(&expected)?)
        }
    };
    let ok = reads_back(&text);
    let text = Some(text);
    match ok {
        true => Ok(Edit { text, notes }),
        false => Err("warden could not write an edit that reads back as intended".into()),
    }
}

/// `map` with `key` set to `value` where it is (a new key goes first or
/// last), or removed when `value` is None.
fn with_key(map: &Mapping, key: &str, value: Option<Value>, first: bool) -> Mapping {
    let new = (!map.contains_key(key)).then_some(value.clone()).flatten();
    let mut out = Mapping::new();
    out.extend(new.clone().filter(|_| first).map(|v| (key.into(), v)));
    for (k, v) in map {
        match (k.as_str() == Some(key), &value) {
            (false, _) => out.insert(k.clone(), v.clone()),
            (true, Some(value)) => out.insert(k.clone(), value.clone()),
            (true, None) => None,
        };
    }
    out.extend(new.filter(|_| !first).map(|v| (key.into(), v)));
    out
}

/// A key line of a block mapping: its line, its key as YAML reads it, and
/// what follows the colon.
struct Key<'a> {
    row: usize,
    name: Value,
    rest: &'a str,
}

fn same_keys(keys: &[Key], map: &Mapping) -> bool {
    keys.len() == map.len() && keys.iter().zip(map.keys()).all(|(k, name)| k.name == *name)
}

/// Nothing but an optional comment after the colon: a block value follows.
fn block_value(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with('#')
}

fn is_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// Splits `key: rest` at the first colon before which YAML reads a key
/// (one in a quoted key leaves it unterminated); None when the line is no
/// simple key.
fn split_key(content: &str) -> Option<(Value, &str)> {
    content.match_indices(':').find_map(|(i, _)| {
        let rest = content.get(i + 1..)?;
        let colon = rest.is_empty() || rest.starts_with([' ', '\t']);
        let name: Value = serde_yaml::from_str(content.get(..i)?)
            .ok()
            .filter(|_| colon)?;
        Some((name, rest))
    })
}

/// An anchor or alias, which ties lines the editor would move or delete to
/// others; a command like `a && b` or `ls *.txt` is neither.
fn anchored(body: &str) -> bool {
    body.split_whitespace().any(|token| {
        let mut chars = token.trim_start_matches(['[', '{', ',']).chars();
        let (first, then) = (chars.next(), chars.next());
        matches!(first, Some('&' | '*')) && then.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The file as lines, with the line ending it uses.
struct Doc<'a> {
    lines: Vec<&'a str>,
    nl: &'static str,
}

impl<'a> Doc<'a> {
    fn new(text: &'a str) -> Doc<'a> {
        let lines = text.split_inclusive('\n').collect();
        let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
        Doc { lines, nl }
    }

    fn body(&self, i: usize) -> &'a str {
        let line = self.lines.get(i).copied().unwrap_or("");
        let line = line.strip_suffix('\n').unwrap_or(line);
        line.strip_suffix('\r').unwrap_or(line)
    }

    fn indent(&self, i: usize) -> usize {
        self.body(i).len() - self.content(i).len()
    }

    fn content(&self, i: usize) -> &'a str {
        self.body(i).trim_start_matches(' ')
    }

    /// A document marker or directive, which sits at the left edge.
    fn marker(&self, i: usize) -> bool {
        let body = self.body(i);
        let is = |m| {
            body.strip_prefix(m)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
        };
        is("---") || is("...") || body.starts_with('%')
    }

    fn is_content(&self, i: usize) -> bool {
        let c = self.body(i).trim_start();
        !c.is_empty() && !c.starts_with('#') && !self.marker(i)
    }

    fn first_content(&self, from: usize, to: usize) -> Option<usize> {
        (from..to).find(|&i| self.is_content(i))
    }

    fn last_content(&self, from: usize, to: usize) -> Option<usize> {
        (from..to).rev().find(|&i| self.is_content(i))
    }

    /// The key lines at `indent` in lines `from..to`; None when a line there
    /// is outdented, or comes before the first key.
    fn keys(&self, from: usize, to: usize, indent: usize) -> Option<Vec<Key<'a>>> {
        let mut keys = Vec::new();
        for i in (from..to).filter(|&i| self.is_content(i)) {
            let (at, content) = (self.indent(i), self.content(i));
            if at < indent || ((at > indent || is_item(content)) && keys.is_empty()) {
                return None;
            }
            // A line that reads as no key continues the value before it; the
            // caller's comparison with the parsed keys catches a misreading.
            let key = (at == indent && !is_item(content)).then(|| split_key(content));
            let key = key.flatten();
            keys.extend(key.map(|(name, rest)| Key { row: i, name, rest }));
        }
        Some(keys)
    }

    /// Where a new top-level block goes: at the end, but before a `...`.
    fn end(&self) -> usize {
        let n = self.lines.len();
        (0..n)
            .find(|&i| self.marker(i) && self.body(i).starts_with("..."))
            .unwrap_or(n)
    }

    /// The text without the `cut` lines and with `new` lines before line `at`.
    fn splice(&self, cut: &[bool], at: usize, new: &[String]) -> String {
        let mut out = String::new();
        for i in 0..=self.lines.len() {
            if i == at && !new.is_empty() {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push_str(self.nl);
                }
                new.iter().for_each(|line| out.extend([line, self.nl]));
            }
            let line = self.lines.get(i).filter(|_| cut.get(i) != Some(&true));
            out.extend(line.copied());
        }
        out
    }

    /// The line edit: warden's items removed from the block list, the new
    /// one added after its last item (creating the keys it needs), or the
    /// keys left empty removed. None when the text is not laid out as the
    /// editor expects.
    fn edit_list(
        &self,
        tops: &[Key],
        hooks: Option<&Mapping>,
        remove: &[bool],
        add: Option<&Entry>,
    ) -> Option<String> {
        let n = self.lines.len();
        let mut cut = vec![false; n];
        let mut cut_lines = |from: usize, to: usize| cut.get_mut(from..=to).map(|c| c.fill(true));
        let Some(t) = tops.iter().position(|k| k.name.as_str() == Some(HOOKS)) else {
            let block = [vec![format!("{HOOKS}:")], event_block(add?, 2)].concat();
            return Some(self.splice(&[], self.end(), &block));
        };
        let h = tops.get(t)?;
        let h_end = tops.get(t + 1).map_or(n, |k| k.row);
        let risky = |i| self.body(i).contains('\t') || anchored(self.body(i));
        if !block_value(h.rest) || (h.row..h_end).any(risky) {
            return None;
        }
        let first_kid = self.first_content(h.row + 1, h_end);
        let kid_indent = first_kid.map(|i| self.indent(i));
        let kids = match kid_indent {
            Some(0) => return None,
            Some(at) => self.keys(h.row + 1, h_end, at)?,
            None => Vec::new(),
        };
        let kid_indent = kid_indent.unwrap_or(2);
        if !same_keys(&kids, hooks.unwrap_or(&Mapping::new())) {
            return None;
        }
        let Some(k) = kids.iter().position(|k| k.name.as_str() == Some(EVENT)) else {
            return Some(self.splice(&[], h.row + 1, &event_block(add?, kid_indent)));
        };
        let p = kids.get(k)?;
        let p_end = kids.get(k + 1).map_or(h_end, |k| k.row);
        // Items sit at the key's own indentation (as serde_yaml writes them)
        // or deeper; nothing in the list may be less indented than they are.
        let first = self.first_content(p.row + 1, p_end);
        let item_indent = first.map_or(kid_indent + 2, |i| self.indent(i));
        let lines = (p.row + 1..p_end).filter(|&i| self.is_content(i));
        let lines: Vec<usize> = lines.collect();
        let is_start = |i: &usize| self.indent(*i) == item_indent && is_item(self.content(*i));
        let starts: Vec<usize> = lines.iter().copied().filter(is_start).collect();
        if !block_value(p.rest)
            || item_indent < kid_indent
            || lines.iter().any(|&i| self.indent(i) < item_indent)
            || starts.first() != first.as_ref()
            || starts.len() != remove.len()
        {
            return None;
        }
        let removed = starts
            .iter()
            .enumerate()
            .filter(|(j, _)| remove.get(*j) == Some(&true));
        for (j, &start) in removed {
            let next = starts.get(j + 1).copied().unwrap_or(p_end);
            cut_lines(start, self.last_content(start, next).unwrap_or(start));
        }
        // Comments and blank lines after the last item stay after it.
        let last = self.last_content(p.row + 1, p_end).unwrap_or(p.row);
        if let Some(entry) = add {
            return Some(self.splice(&cut, last + 1, &item_lines(entry, item_indent)));
        }
        if remove.iter().all(|r| *r) {
            match kids.len() {
                1 => cut_lines(h.row, self.last_content(h.row, h_end).unwrap_or(h.row)),
                _ => cut_lines(p.row, last),
            };
        }
        Some(self.splice(&cut, n, &[]))
    }

    /// The whole `hooks:` block written anew from `hooks` (removed when
    /// None), noting lost comments. Comment lines right before the next
    /// top-level key stay with that key.
    fn regenerate(
        &self,
        tops: &[Key],
        hooks: Option<Value>,
        notes: &mut Vec<String>,
    ) -> Result<String, String> {
        let block = yaml(&Mapping::from_iter(hooks.map(|h| (HOOKS.into(), h))))?;
        let n = self.lines.len();
        let Some(t) = tops.iter().position(|k| k.name.as_str() == Some(HOOKS)) else {
            return Ok(self.splice(&[], self.end(), &block));
        };
        let start = tops.get(t).map_or(0, |k| k.row);
        let mut end = tops.get(t + 1).map_or(n, |k| k.row);
        while end > start + 1 && !self.is_content(end - 1) && self.indent(end - 1) == 0 {
            end -= 1;
        }
        let commented = |i| {
            let body = self.body(i);
            body.trim_start().starts_with('#') || body.contains(" #")
        };
        if (start..end).any(commented) {
            let note = "rewrote the hooks block whole: the comments inside it could not be kept";
            notes.push(note.into());
        }
        let cut: Vec<bool> = (0..n).map(|i| (start..end).contains(&i)).collect();
        Ok(self.splice(&cut, start, &block))
    }
}

/// The lines serde_yaml writes for `map`; none for an empty one.
fn yaml(map: &Mapping) -> Result<Vec<String>, String> {
    match map.is_empty() {
        true => Ok(Vec::new()),
        false => match serde_yaml::to_string(map) {
            Ok(text) => Ok(text.lines().map(String::from).collect()),
            Err(e) => Err(format!("cannot write YAML ({e})")),
        },
    }
}

fn event_block(entry: &Entry, indent: usize) -> Vec<String> {
    let mut lines = vec![format!("{:indent$}{EVENT}:", "")];
    lines.extend(item_lines(entry, indent + 2));
    lines
}

/// warden's item, its strings double-quoted: JSON's escapes are YAML's.
fn item_lines(entry: &Entry, indent: usize) -> Vec<String> {
    let Value::Mapping(fields) = entry_value(entry) else {
        return Vec::new();
    };
    let text = |v: &Value| match v {
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Number(n) => n.to_string(),
        _ => v.as_bool().unwrap_or_default().to_string(),
    };
    let lead = |j| if j == 0 { "- " } else { "  " };
    let key = |k: &Value| k.as_str().unwrap_or_default().to_string();
    let line = |(j, (k, v))| format!("{:indent$}{}{}: {}", "", lead(j), key(k), text(v));
    fields.iter().enumerate().map(line).collect()
}

#[cfg(test)]
mod tests;
