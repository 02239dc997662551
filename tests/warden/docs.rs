//! What the documentation promises about itself: a README a newcomer reads, a table of contents on every long page, and links that lead somewhere.

use std::collections::BTreeSet;
use std::fs;

use crate::support::{self, read_repo_file, repo_path};

tests![
    readme_is_a_short_read,
    long_pages_have_their_contents,
    links_lead_somewhere,
];

/// The README is read before anything else; the rest is in `docs/`.
const README_MAX_LINES: usize = 300;
/// A page longer than this (about a screen) opens with its contents.
const SCREEN_LINES: usize = 60;
/// Pages written by a program, whose generator owns their layout.
const GENERATED: &[&str] = &["docs/rules.md"];

/// README.md and every page under `docs/`, as paths in the checkout.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(repo_path("docs"))
        .expect("docs/ is readable")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of `text` outside fenced code blocks, with their numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((n + 1, line));
        }
    }
    out
}

/// A heading's level and text, for a line that is one.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let text = line.get(level..)?.strip_prefix(' ')?;
    (1..=6).contains(&level).then_some((level, text.trim()))
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped,
/// spaces made hyphens (a repeated heading gets `-1`, `-2`, … in order).
fn slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a page's headings give.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose(text) {
        if let Some((_, head)) = heading(line) {
            let base = slug(head);
            let mut anchor = base.clone();
            let mut n = 0;
            while seen.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            seen.insert(anchor);
        }
    }
    seen
}

fn readme_is_a_short_read() {
    let lines = read_repo_file("README.md").lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move reference material to docs/"
    );
}

/// The contents list of a page: its `##` and `###` headings, linked.
fn contents(text: &str) -> String {
    let mut out = String::new();
    let mut seen = BTreeSet::new();
    for (_, line) in prose(text) {
        let Some((level, head)) = heading(line) else {
            continue;
        };
        let base = slug(head);
        let mut anchor = base.clone();
        let mut n = 0;
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        if level == 2 || level == 3 {
            let indent = if level == 3 { "  " } else { "" };
            out.push_str(&format!("{indent}- [{head}](#{anchor})\n"));
        }
    }
    out
}

fn long_pages_have_their_contents() {
    for page in pages() {
        if GENERATED.contains(&page.as_str()) {
            continue;
        }
        let text = read_repo_file(&page);
        if text.lines().count() <= SCREEN_LINES {
            continue;
        }
        support::doc_block(
            &page,
            "<!-- contents:start -->\n",
            "<!-- contents:end -->",
            &contents(&text),
            "the page's headings",
        );
    }
}

/// The targets of a page's Markdown links, with the line each is on.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else {
                break;
            };
            out.push((n, rest[..end].to_string()));
            rest = &rest[end..];
        }
    }
    out
}

/// Every relative link in the README and `docs/` names a file of the
/// checkout, and every `#anchor` a heading of the page it points into.
fn links_lead_somewhere() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = read_repo_file(&page);
        let dir = repo_path(&page)
            .parent()
            .expect("a page is in a directory")
            .to_path_buf();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let file = if path.is_empty() {
                repo_path(&page)
            } else {
                dir.join(path)
            };
            if !file.exists() {
                broken.push(format!("{page}:{line}: {target}: no such file"));
                continue;
            }
            if anchor.is_empty() {
                continue;
            }
            let linked = fs::read_to_string(&file).unwrap_or_default();
            if !anchors(&linked).contains(anchor) {
                broken.push(format!("{page}:{line}: {target}: no such heading"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
}
