//! Finding the lines of keys and list items in block-style YAML by indentation, since serde_yaml gives no positions for values.
//!
//! Every answer is a best effort: callers check it against the parsed
//! structure (a count that disagrees gives no lines rather than wrong ones).

#[derive(Clone, Copy)]
struct Line<'a> {
    no: u32,
    indent: usize,
    body: &'a str,
}

/// One step into the document: a mapping key or the n-th list item.
#[derive(Clone, Copy)]
pub(crate) enum Step<'a> {
    Key(&'a str),
    Item(usize),
}

/// Whether the text holds nothing but blank lines, comments and
/// document markers.
pub(crate) fn is_blank(text: &str) -> bool {
    content(text).is_empty()
}

/// The line of what `steps` lead to.
pub(crate) fn key_line(text: &str, steps: &[Step<'_>]) -> Option<u32> {
    walk(text, steps).map(|(no, _)| no)
}

/// The line of each of the `count` items of the list under `keys`, or
/// all `None` when they cannot be told apart reliably.
pub(crate) fn seq_lines(text: &str, keys: &[&str], count: usize) -> Vec<Option<u32>> {
    let steps: Vec<Step<'_>> = keys.iter().map(|k| Step::Key(k)).collect();
    items(text, &steps, count).unwrap_or_else(|| vec![None; count])
}

fn items(text: &str, steps: &[Step<'_>], count: usize) -> Option<Vec<Option<u32>>> {
    let (key_no, value) = walk(text, steps)?;
    let first = value.first()?;
    if first.no == key_no && first.body.starts_with('[') {
        // A flow list written on the key's own line: every entry is there.
        return flow_closes(first.body).then(|| vec![Some(first.no); count]);
    }
    let found: Vec<Option<u32>> = value
        .iter()
        .filter(|l| l.indent == first.indent && dash_rest(l.body).is_some())
        .map(|l| Some(l.no))
        .collect();
    (found.len() == count).then_some(found)
}

fn walk<'a>(text: &'a str, steps: &[Step<'_>]) -> Option<(u32, Vec<Line<'a>>)> {
    let mut cur = content(text);
    let mut no = 0;
    for step in steps {
        let (n, next) = descend(&cur, *step)?;
        no = n;
        cur = next;
    }
    Some((no, cur))
}

fn content(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let body = raw.trim_start_matches(' ');
            let indent = raw.len() - body.len();
            let body = body.trim_end();
            let marker = body == "---" || body.starts_with("--- ") || body == "...";
            if body.is_empty() || body.starts_with('#') || body.starts_with('%') || marker {
                return None;
            }
            Some(Line {
                no: u32::try_from(i + 1).ok()?,
                indent,
                body,
            })
        })
        .collect()
}

/// The lines that make up the value of one key or list item of `lines`
/// (whose first line sets the level). An inline value becomes a line of
/// its own, indented where it starts.
fn descend<'a>(lines: &[Line<'a>], step: Step<'_>) -> Option<(u32, Vec<Line<'a>>)> {
    let level = lines.first()?.indent;
    let mut item = 0;
    for (j, line) in lines.iter().enumerate() {
        if line.indent != level {
            continue;
        }
        let (offset, inline) = match step {
            Step::Key(key) => match key_rest(line.body, key) {
                Some(found) => found,
                None => continue,
            },
            Step::Item(n) => match dash_rest(line.body) {
                Some(found) if item == n => found,
                Some(_) => {
                    item += 1;
                    continue;
                }
                None => continue,
            },
        };
        let mut value = Vec::new();
        if !inline.is_empty() {
            value.push(Line {
                no: line.no,
                indent: line.indent + offset,
                body: inline,
            });
        }
        // A block list may sit at its key's own indentation.
        let same_level_list = inline.is_empty() && matches!(step, Step::Key(_));
        for next in lines.get(j + 1..).unwrap_or_default() {
            let deeper = next.indent > line.indent;
            let list =
                same_level_list && next.indent == line.indent && dash_rest(next.body).is_some();
            if !(deeper || list) {
                break;
            }
            value.push(*next);
        }
        return Some((line.no, value));
    }
    None
}

/// For `key: value`, the offset of the value in `body` and the value
/// (empty when it is on the following lines).
fn key_rest<'a>(body: &'a str, key: &str) -> Option<(usize, &'a str)> {
    let after = [format!("\"{key}\""), format!("'{key}'"), key.to_string()]
        .iter()
        .find_map(|k| body.strip_prefix(k.as_str()))?;
    let value = after.trim_start_matches(' ').strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with([' ', '\t'])) {
        return None;
    }
    let value = value.trim_start();
    let offset = body.len() - value.len();
    Some((offset, if value.starts_with('#') { "" } else { value }))
}

/// For a list item `- value`, the offset of the value and the value.
fn dash_rest(body: &str) -> Option<(usize, &str)> {
    let rest = body.strip_prefix('-')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let value = rest.trim_start();
    let offset = body.len() - value.len();
    Some((offset, if value.starts_with('#') { "" } else { value }))
}

fn flow_closes(body: &str) -> bool {
    body.rfind(']').is_some_and(|pos| {
        let after = body.get(pos + 1..).unwrap_or_default().trim();
        after.is_empty() || after.starts_with('#')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
# policy
rules:
  deny:
    - terminal(rm:*)   # one
    - tool: read_file
      description: |
        - not an item
    -
      tool: x
  allow: [a, b]
other:
- p
- q
";

    #[test]
    fn items_of_block_lists() {
        assert_eq!(
            seq_lines(DOC, &["rules", "deny"], 3),
            vec![Some(4), Some(5), Some(8)]
        );
        assert_eq!(seq_lines(DOC, &["other"], 2), vec![Some(12), Some(13)]);
    }

    #[test]
    fn flow_list_on_one_line() {
        assert_eq!(
            seq_lines(DOC, &["rules", "allow"], 2),
            vec![Some(10), Some(10)]
        );
        assert_eq!(seq_lines("a: [x,\n  y]\n", &["a"], 2), vec![None, None]);
    }

    #[test]
    fn disagreeing_count_gives_no_lines() {
        assert_eq!(seq_lines(DOC, &["rules", "deny"], 2), vec![None, None]);
        assert_eq!(seq_lines(DOC, &["rules", "ask"], 1), vec![None]);
    }

    #[test]
    fn keys_inside_items() {
        let steps = [
            Step::Key("rules"),
            Step::Key("deny"),
            Step::Item(1),
            Step::Key("description"),
        ];
        assert_eq!(key_line(DOC, &steps), Some(6));
        let steps = [
            Step::Key("rules"),
            Step::Key("deny"),
            Step::Item(2),
            Step::Key("tool"),
        ];
        assert_eq!(key_line(DOC, &steps), Some(9));
        assert_eq!(key_line(DOC, &[Step::Key("\"other\"")]), None);
        assert_eq!(key_line("\"other\": 1\n", &[Step::Key("other")]), Some(1));
    }

    #[test]
    fn blank_documents() {
        assert!(is_blank(""));
        assert!(is_blank("# only\n\n---\n  # indented\n"));
        assert!(!is_blank("a: 1"));
    }
}
