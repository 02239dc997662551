//! Perl's indirect-object calls, `exec {PROGRAM} ARGV0, ARGS` and `system {PROGRAM} ARGV0, ARGS`, rewritten as the plain calls they amount to.
//!
//! The block names the program to run and the list's first item is only
//! the name it is shown under, so `exec {"/bin/sh"} "sh", "-c", CMD` runs
//! `/bin/sh -c CMD`, as `exec("/bin/sh", "-c", CMD)` would.

/// `code` with every indirect-object `exec` and `system` rewritten, or
/// `None` when it has none.
pub(super) fn indirect_calls(code: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = code;
    let mut changed = false;
    while let Some((start, name, block_at)) = next_call(rest) {
        let after_block = &rest[block_at + 1..];
        let Some(close) = closing_brace(after_block) else {
            break;
        };
        let program = after_block[..close].trim();
        let list_text = &after_block[close + 1..];
        let end = statement_end(list_text);
        let items = split_items(&list_text[..end]);
        out.push_str(&rest[..start]);
        out.push_str(name);
        out.push('(');
        out.push_str(program);
        for item in items.iter().skip(1) {
            out.push_str(", ");
            out.push_str(item.trim());
        }
        out.push(')');
        changed = true;
        rest = &list_text[end..];
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// The next `exec {` or `system {` as a word: where it starts, its name,
/// and where its `{` is.
fn next_call(text: &str) -> Option<(usize, &'static str, usize)> {
    let mut best: Option<(usize, &'static str, usize)> = None;
    for name in ["exec", "system"] {
        for (at, _) in text.match_indices(name) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '@' | '&')) {
                continue;
            }
            let after = &text[at + name.len()..];
            let gap = after.len() - after.trim_start().len();
            if after.trim_start().starts_with('{') && best.is_none_or(|(b, _, _)| at < b) {
                best = Some((at, name, at + name.len() + gap));
                break;
            }
        }
    }
    best
}

/// Where the `}` closing a block opened just before `text` is.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote = None;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '{') => depth += 1,
            (None, '}') if depth == 0 => return Some(at),
            (None, '}') => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Where the statement a list belongs to ends: its `;`, or the end.
fn statement_end(text: &str) -> usize {
    let mut quote = None;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ';' | '}') => return at,
            _ => {}
        }
    }
    text.len()
}

/// The items of a list, split at commas outside quotes and brackets.
fn split_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut quote = None;
    let mut depth = 0usize;
    let mut from = 0;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                items.push(&text[from..at]);
                from = at + 1;
            }
            _ => {}
        }
    }
    if !text[from..].trim().is_empty() {
        items.push(&text[from..]);
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indirect_objects() {
        assert_eq!(
            indirect_calls(r#"exec {"/bin/sh"} "sh", "-c", "rm -rf ~""#).as_deref(),
            Some(r#"exec("/bin/sh", "-c", "rm -rf ~")"#)
        );
        assert_eq!(
            indirect_calls(r#"system { 'sh' } 'sh'; print 1"#).as_deref(),
            Some(r#"system('sh'); print 1"#)
        );
        assert_eq!(indirect_calls(r#"system("ls")"#), None);
        assert_eq!(indirect_calls(r#"my %exec = (); $exec{x} = 1"#), None);
        // Unclosed: left as it is, no panic.
        assert_eq!(indirect_calls("exec {"), None);
    }
}
