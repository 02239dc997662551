//! Which files a patch touches: Codex's and Hermes' `*** Begin Patch` envelope (V4A) and unified diffs.
//!
//! A guard must see every path a patch tool could write, so each grammar is
//! read as the union of what its lenient parsers accept, every header line
//! counts wherever it stands, and doubtful names are reported rather than
//! dropped. Nothing here resolves a path or reads the file system.

use std::collections::HashSet;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchFile {
    pub path: String,
    pub change: Change,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Change {
    Add,
    Update,
    Delete,
    /// the old name of a renamed/moved file
    MoveFrom,
    /// the new name
    MoveTo,
}

/// Every file the patch text touches, in order of appearance, each (path, change) once.
/// Recognises the envelope when the text has a `*** Begin Patch` line (or any `*** Add File:` /
/// `*** Update File:` / `*** Delete File:` header), else unified diff; both kinds if both appear.
///
/// Both readers always run: GNU `patch` skips leading garbage such as a
/// `*** Begin Patch` line, so an envelope marker must not hide a diff.
pub fn files(text: &str) -> Vec<PatchFile> {
    scan(text, true, true)
}

/// The lines a patch adds, by the file it adds them to: the envelope's
/// `*** Add File:`/`*** Update File:` sections and unified diffs' `+++`
/// files (their `b/` dropped), each `+` line without its `+`.
pub fn added_lines(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let header = line
            .strip_prefix("*** Add File:")
            .or_else(|| line.strip_prefix("*** Update File:"))
            .or_else(|| line.strip_prefix("+++ "));
        if let Some(path) = header {
            let path = path.split('\t').next().unwrap_or(path).trim();
            let path = path.strip_prefix("b/").unwrap_or(path);
            out.push((path.to_string(), String::new()));
        } else if let (Some(added), Some((_, text))) = (line.strip_prefix('+'), out.last_mut()) {
            text.push_str(added);
            text.push('\n');
        }
    }
    out
}

/// Only the envelope headers.
pub fn envelope_files(text: &str) -> Vec<PatchFile> {
    scan(text, true, false)
}

/// Only unified-diff headers.
pub fn unified_diff_files(text: &str) -> Vec<PatchFile> {
    scan(text, false, true)
}

/// A shell command that IS an apply_patch invocation carries its patch as its argument or stdin
/// (Codex runs `apply_patch '<patch>'` or `apply_patch <<'EOF' ... EOF`); helper that, given a program
/// name, returns whether it is an apply_patch program (`apply_patch`, `applypatch`).
///
/// Codex compares the bare name exactly; a path, a `.exe` or another case is
/// accepted too, since reading a non-patch as a patch costs nothing.
pub fn is_apply_patch_program(program: &str) -> bool {
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let cut = base.len().saturating_sub(4);
    let base = match base.get(cut..) {
        Some(ext) if ext.eq_ignore_ascii_case(".exe") => base.get(..cut).unwrap_or(base),
        _ => base,
    };
    base.eq_ignore_ascii_case("apply_patch") || base.eq_ignore_ascii_case("applypatch")
}

const DEV_NULL: &str = "/dev/null";

fn scan(text: &str, envelope: bool, unified: bool) -> Vec<PatchFile> {
    let mut out = Vec::new();
    let mut update = None;
    let mut diff = Diff {
        git_style: unified && text.split('\n').any(|l| l.starts_with("diff --git ")),
        ..Diff::default()
    };
    // Codex (`str::lines`), Hermes (`split('\n')`), git and patch all break lines at `\n` only.
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if envelope {
            envelope_line(line, &mut update, &mut out);
        }
        if unified {
            diff.line(line, &mut out);
        }
    }
    if unified {
        diff.flush(&mut out);
    }
    let mut seen = HashSet::new();
    out.into_iter()
        .filter(|f| seen.insert((f.path.clone(), f.change)))
        .collect()
}

fn push(out: &mut Vec<PatchFile>, path: &str, change: Change) {
    if !path.is_empty() {
        out.push(PatchFile {
            path: path.to_string(),
            change,
        });
    }
}

/// Python's `str.strip()` also strips U+001C..U+001F, which Rust's `trim` keeps;
/// trimming the union keeps `x\x1f` from hiding the `x` Hermes writes.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Codex trims the line and wants `*** Add File: `; Hermes wants `***` at the
/// line start but any spacing (`***\s*Add\s+File:\s*`). Both are case-sensitive.
/// `update` is where the open `*** Update File:` sits in `out`, so Codex's
/// `*** Move to:` after it can turn it into the old name of the move.
fn envelope_line(line: &str, update: &mut Option<usize>, out: &mut Vec<PatchFile>) {
    let Some(rest) = trim(line).strip_prefix("***") else {
        return;
    };
    let rest = rest.trim_start_matches(is_space);
    let kinds = [
        ("Add", Change::Add),
        ("Update", Change::Update),
        ("Delete", Change::Delete),
    ];
    let plain = kinds
        .into_iter()
        .find_map(|(k, c)| Some((c, field(rest, k, "File:")?)));
    if let Some((change, path)) = plain {
        *update = (change == Change::Update && !path.is_empty()).then_some(out.len());
        push(out, path, change);
    } else if let Some((from, to)) = field(rest, "Move", "File:").and_then(arrow) {
        *update = None;
        push(out, from, Change::MoveFrom);
        push(out, to, Change::MoveTo);
    } else if let Some(to) = field(rest, "Move", "to:").filter(|to| !to.is_empty()) {
        if let Some(f) = update.take().and_then(|i| out.get_mut(i)) {
            f.change = Change::MoveFrom;
        }
        push(out, to, Change::MoveTo);
    }
}

fn field<'a>(s: &'a str, keyword: &str, noun: &str) -> Option<&'a str> {
    let after = s.strip_prefix(keyword)?;
    let spaced = after.trim_start_matches(is_space);
    if spaced.len() == after.len() {
        return None;
    }
    Some(trim(spaced.strip_prefix(noun)?))
}

/// Hermes' `*** Move File: src -> dst`: its lazy `(.+?)\s*->` splits at the
/// first `->` after the first character.
fn arrow(both: &str) -> Option<(&str, &str)> {
    let first = both.chars().next()?.len_utf8();
    let at = both.get(first..)?.find("->")? + first;
    Some((trim(both.get(..at)?), trim(both.get(at + 2..)?)))
}

/// A unified diff read line by line.
#[derive(Default)]
struct Diff<'a> {
    /// A `diff --git` line somewhere: `a/` and `b/` are prefixes, not directories.
    git_style: bool,
    /// A `--- ` line waiting for its `+++ `.
    old: Option<&'a str>,
    /// Old and new lines left in the current hunk; inside it `--- x` is content.
    hunk: Option<(u64, u64)>,
    /// Just after a header or a hunk, where git and patch take `@@ -` as a hunk.
    expect_hunk: bool,
    section: Option<Section>,
}

/// The extended header of one `diff --git` file.
#[derive(Default)]
struct Section {
    names: Option<(String, String)>,
    created: bool,
    deleted: bool,
    /// A copy: its source is only read, whatever its `---` line says.
    copied: bool,
    /// A `---`/`+++` pair or a rename/copy line named the file already.
    reported: bool,
}

impl<'a> Diff<'a> {
    fn line(&mut self, raw: &'a str, out: &mut Vec<PatchFile>) {
        if let Some((old, new)) = self.hunk {
            let left = match raw.as_bytes().first() {
                // git and GNU patch read an empty line in a hunk as empty context.
                None | Some(b' ') if old > 0 && new > 0 => Some((old - 1, new - 1)),
                Some(b'-') if old > 0 => Some((old - 1, new)),
                Some(b'+') if new > 0 => Some((old, new - 1)),
                Some(b'\\') => Some((old, new)),
                _ => None,
            };
            self.hunk = left.filter(|&l| l != (0, 0));
            self.expect_hunk = true;
            if left.is_some() {
                return;
            }
            // A hunk shorter than its header claims: the tools reject it, so the
            // line is read as a possible header rather than risk hiding one.
        }
        // GNU patch finds headers and hunks of an indented (quoted) diff too;
        // inside a hunk an indented line only ever ends it sooner than patch would.
        let line = raw.trim_start_matches([' ', '\t']);
        if let (Some(old), Some(new)) = (self.old.take(), line.strip_prefix("+++ ")) {
            self.pair(old, new, out);
            self.expect_hunk = true;
            return;
        }
        if self.expect_hunk {
            if let Some(counts) = hunk_counts(line) {
                self.hunk = Some(counts).filter(|&c| c != (0, 0));
                return;
            }
            if line.starts_with('\\') {
                return;
            }
            self.expect_hunk = false;
        }
        if let Some(old) = line.strip_prefix("--- ") {
            self.old = Some(old);
        } else if let Some(rest) = line.strip_prefix("diff --git ") {
            self.flush(out);
            self.section = Some(Section {
                names: git_names(rest),
                ..Section::default()
            });
        } else if let Some(section) = self.section.as_mut() {
            section.header(line, out);
        }
    }

    fn pair(&mut self, old: &str, new: &str, out: &mut Vec<PatchFile>) {
        let (old, new) = (name(old), name(new));
        let git = self.git_style || self.section.is_some() || side(&old, "a/") && side(&new, "b/");
        let strip = |n: Option<String>, prefix: &str| match n {
            Some(n) if git && n.starts_with(prefix) => n.get(prefix.len()..).map(str::to_string),
            n => n,
        };
        let (old, new) = (strip(old, "a/"), strip(new, "b/"));
        let mut copied = false;
        if let Some(section) = self.section.as_mut() {
            section.reported = true;
            copied = section.copied;
        }
        match (old.as_deref(), new.as_deref()) {
            (Some(DEV_NULL), Some(DEV_NULL)) | (None, None) => {}
            (Some(DEV_NULL), Some(n)) => push(out, n, Change::Add),
            (Some(o), Some(DEV_NULL)) => push(out, o, Change::Delete),
            (Some(o), Some(n)) if o == n => push(out, o, Change::Update),
            (Some(_), Some(n)) if copied => push(out, n, Change::Add),
            (Some(o), Some(n)) => {
                push(out, o, Change::MoveFrom);
                push(out, n, Change::MoveTo);
            }
            (Some(p), None) | (None, Some(p)) if p != DEV_NULL => push(out, p, Change::Update),
            _ => {}
        }
    }

    /// A git file with no `---`/`+++` pair (mode change, empty new file,
    /// binary patch) is named only by its `diff --git` line.
    fn flush(&mut self, out: &mut Vec<PatchFile>) {
        let Some(s) = self.section.take().filter(|s| !s.reported) else {
            return;
        };
        match s.names {
            Some((_, b)) if s.created => push(out, &b, Change::Add),
            Some((a, _)) if s.deleted => push(out, &a, Change::Delete),
            Some((a, b)) if a == b => push(out, &a, Change::Update),
            Some((a, b)) => {
                push(out, &a, Change::MoveFrom);
                push(out, &b, Change::MoveTo);
            }
            None => {}
        }
    }
}

impl Section {
    fn header(&mut self, line: &str, out: &mut Vec<PatchFile>) {
        // git apply still accepts the old `rename old`/`rename new` spelling.
        let named = [
            ("rename from ", Some(Change::MoveFrom)),
            ("rename old ", Some(Change::MoveFrom)),
            ("rename to ", Some(Change::MoveTo)),
            ("rename new ", Some(Change::MoveTo)),
            // The copy's source is only read.
            ("copy from ", None),
            ("copy to ", Some(Change::Add)),
        ];
        for (prefix, change) in named {
            if let Some(raw) = line.strip_prefix(prefix) {
                self.reported = true;
                self.copied |= prefix.starts_with("copy");
                if let (Some(change), Some(path)) = (change, name(raw)) {
                    push(out, &path, change);
                }
                return;
            }
        }
        self.created |= line.starts_with("new file mode");
        self.deleted |= line.starts_with("deleted file mode");
    }
}

/// A git diff's old name is `a/…` or `/dev/null`, its new one `b/…` or `/dev/null`.
fn side(name: &Option<String>, prefix: &str) -> bool {
    name.as_deref()
        .is_some_and(|n| n == DEV_NULL || n.starts_with(prefix))
}

/// A header name: a C-quoted git name, else the text before a tab (a timestamp follows it).
fn name(raw: &str) -> Option<String> {
    let raw = trim(raw);
    let quoted = raw.starts_with('"').then(|| unquote(raw)).flatten();
    let name = match quoted {
        Some((name, _)) => trim(&name).to_string(),
        None => trim(raw.split('\t').next().unwrap_or(raw)).to_string(),
    };
    (!name.is_empty()).then_some(name)
}

/// Undoes git's C quoting; `None` when the quote is malformed (git rejects those).
fn unquote(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), body.get(i..)?)),
            b'\\' => {
                let escape = *bytes.get(i)?;
                i += 1;
                out.push(match escape {
                    // Octal `\303\251`: git spells non-ASCII bytes this way.
                    b'0'..=b'3' => {
                        let high = (escape - b'0') * 64;
                        let mid = octal(bytes.get(i))? * 8;
                        let low = octal(bytes.get(i + 1))?;
                        i += 2;
                        high + mid + low
                    }
                    _ => *MEANT.get(ESCAPED.iter().position(|&e| e == escape)?)?,
                });
            }
            _ => out.push(b),
        }
    }
    None
}

/// git's one-letter escapes and the bytes they stand for; any other is malformed.
const ESCAPED: &[u8] = b"abtnvfr\"\\";
const MEANT: &[u8] = b"\x07\x08\t\n\x0b\x0c\r\"\\";

fn octal(b: Option<&u8>) -> Option<u8> {
    match b {
        Some(&d @ b'0'..=b'7') => Some(d - b'0'),
        _ => None,
    }
}

/// The two names of `diff --git A B`, prefixes stripped.
fn git_names(rest: &str) -> Option<(String, String)> {
    let rest = trim(rest);
    let (a, b) = if rest.starts_with('"') {
        let (a, tail) = unquote(rest)?;
        (a, name(tail)?)
    } else if let Some(i) = rest.find(" \"") {
        // git quotes any name holding `"`, so an unquoted first name has none.
        (trim(rest.get(..i)?).to_string(), name(rest.get(i..)?)?)
    } else {
        let (a, b) = split_unquoted(rest)?;
        (a.to_string(), b.to_string())
    };
    let strip = |n: &str, p: &str| n.strip_prefix(p).unwrap_or(n).to_string();
    Some((strip(&a, "a/"), strip(&b, "b/")))
}

/// Unquoted names may hold spaces; like git, prefer the split where both
/// sides name the same file below their first directory.
fn split_unquoted(rest: &str) -> Option<(&str, &str)> {
    let mid = rest.len() / 2;
    if rest.len() % 2 == 1 && rest.as_bytes().get(mid) == Some(&b' ') {
        if let (Some(a), Some(b)) = (rest.get(..mid), rest.get(mid + 1..)) {
            if below(a).is_some() && below(a) == below(b) {
                return Some((a, b));
            }
        }
    }
    let i = rest.find(" b/").or_else(|| rest.find(' '))?;
    Some((rest.get(..i)?, trim(rest.get(i + 1..)?)))
}

fn below(name: &str) -> Option<&str> {
    name.split_once('/').map(|(_, rest)| rest)
}

/// The old and new line counts of `@@ -a[,b] +c[,d] @@`; a missing count is 1.
fn hunk_counts(line: &str) -> Option<(u64, u64)> {
    let (old, rest) = range(line.strip_prefix("@@ -")?)?;
    let (new, _) = range(rest.trim_start_matches(' ').strip_prefix('+')?)?;
    Some((old, new))
}

fn range(s: &str) -> Option<(u64, &str)> {
    let (_, rest) = number(s)?;
    match rest.strip_prefix(',') {
        Some(count) => number(count),
        None => Some((1, rest)),
    }
}

fn number(s: &str) -> Option<(u64, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let digits = s.get(..end).filter(|d| !d.is_empty())?;
    let n = digits.bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    Some((n, s.get(end..)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `+` add, `~` update, `-` delete, `<` moved from, `>` moved to.
    fn show(found: Vec<PatchFile>) -> String {
        let marks = ["+", "~", "-", "<", ">"];
        let shown: Vec<String> = found
            .iter()
            .map(|f| format!("{}{}", marks[f.change as usize], f.path))
            .collect();
        shown.join(", ")
    }

    fn all(text: &str) -> String {
        show(files(text))
    }

    #[test]
    fn envelope_with_every_operation() {
        let text = "*** Begin Patch\n*** Add File: a.txt\n+hello\n+*** Update File: not/a/header\n\
            *** Update File: src/b.rs\n@@ fn main\n-x\n+y\n*** Delete File: c.md\n\
            *** Update File: d.py\n*** Move to: e/d.py\n@@\n-1\n+2\n*** End of File\n*** End Patch\n";
        let expected = "+a.txt, ~src/b.rs, -c.md, <d.py, >e/d.py";
        assert_eq!(all(text), expected);
        assert_eq!(show(envelope_files(text)), expected);
        assert_eq!(show(unified_diff_files(text)), "");
    }

    #[test]
    fn hermes_spellings() {
        let text = "*** Begin Patch\n***Update File:tight.py\n*** Add \t File:   padded.txt  \n\
            *** Move File: old/x.py -> new/y.py\n*** Move File:->x -> /etc/passwd\n\
            *** Move File: a-b->c\n*** Move File: no arrow here\n*** End Patch";
        let expected = "~tight.py, +padded.txt, <old/x.py, >new/y.py, <->x, >/etc/passwd, <a-b, >c";
        assert_eq!(all(text), expected);
    }

    #[test]
    fn envelope_edges() {
        // Headers count without `*** Begin Patch`, padded, and after `*** End Patch`.
        let text = "  *** Delete File: /etc/hosts  \n*** End Patch\n*** Add File: late\n";
        assert_eq!(all(text), "-/etc/hosts, +late");
        // Keywords are case-sensitive; empty paths name nothing.
        assert_eq!(all("*** update file: x\n*** ADD FILE: y\n*** Add File:\n*** Add File:   \n*** Move to: \n"), "");
        assert_eq!(all("*** Begin Patch\n*** End Patch\n"), "");
        // A `Move to` with no update before it still names its target.
        assert_eq!(all("*** Move to: q"), ">q");
        // Python's strip() removes U+001F, so Hermes writes `x`.
        assert_eq!(all("*** Add File: x\u{1f}"), "+x");
        // Each (path, change) once; an update and a later move of the same file both stay.
        let text = "*** Update File: p\n*** Update File: p\n*** Update File: p\n*** Move to: q\n";
        assert_eq!(all(text), "~p, <p, >q");
    }

    #[test]
    fn crlf() {
        let text = "*** Begin Patch\r\n*** Update File: a.txt\r\n*** Move to: b.txt\r\n@@\r\n-x\r\n+y\r\n*** End Patch\r\n";
        assert_eq!(all(text), "<a.txt, >b.txt");
        let text = "--- a/x\r\n+++ b/x\r\n@@ -1,2 +1,2 @@\r\n\r\n---- gone\r\n+++ b/y\r\n";
        assert_eq!(all(text), "~x");
    }

    #[test]
    fn git_diffs() {
        let text = "From 1 Mon\nSubject: x\n---\n src/x.rs | 2 +-\n\n\
            diff --git a/src/x.rs b/src/x.rs\nindex 1..2 100644\n--- a/src/x.rs\n+++ b/src/x.rs\n\
            @@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n\
            diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to new.txt\n\
            diff --git a/gone b/gone\ndeleted file mode 100644\nindex 1..0\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n\
            diff --git a/empty b/empty\nnew file mode 100644\nindex 0..0\n\
            diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n\
            diff --git a/img.png b/img.png\nGIT binary patch\nliteral 5\nMcmZ?wbY\n\n\
            diff --git a/src.c b/dst.c\nsimilarity index 90%\ncopy from src.c\ncopy to dst.c\n\
            --- a/src.c\n+++ b/dst.c\n@@ -1 +1 @@\n-x\n+y\n-- \n2.40.0\n";
        let expected = "~src/x.rs, <old.txt, >new.txt, -gone, +empty, ~run.sh, ~img.png, +dst.c";
        assert_eq!(show(unified_diff_files(text)), expected);
        assert_eq!(show(envelope_files(text)), "");
    }

    #[test]
    fn plain_diffs() {
        let text = "--- x.orig\t2024-01-01 00:00:00.000 +0000\n+++ x\t2024-01-01 00:00:01.000 +0000\n\
            @@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ new.txt\n@@ -0,0 +1 @@\n+n\n\
            --- old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-o\n--- a/kept\n+++ a/kept\n--- a/p\n+++ b/p\n";
        assert_eq!(all(text), "<x.orig, >x, +new.txt, -old.txt, ~a/kept, ~p");
        // Without git's a/ and b/ on both sides, a/ is a directory.
        assert_eq!(all("--- a/x\n+++ x\n"), "<a/x, >x");
        // A `---` with no `+++` right after it is no header.
        assert_eq!(all("--- a/x\nsome text\n+++ b/x\n"), "");
    }

    #[test]
    fn quoted_and_spaced_git_names() {
        let text = "diff --git \"a/sp ace\" \"b/sp ace\"\n--- \"a/sp ace\"\n+++ \"b/sp ace\"\n\
            diff --git a/caf\\303\\251 \"b/t\\tq\\\"\\\\\"\nrename from \"caf\\303\\251\"\nrename to \"t\\tq\\\"\\\\\"\n\
            diff --git a/x y b/x y\nnew file mode 100644\n\
            diff --git a/bad \"b/unterminated\n--- \"a/bad\\q\"\n+++ \"b/bad\\q\"\n";
        assert_eq!(
            all(text),
            "~sp ace, <café, >t\tq\"\\, +x y, <\"a/bad\\q\", >\"b/bad\\q\""
        );
    }

    #[test]
    fn header_lookalikes_inside_hunks_are_content() {
        let text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n--- a/evil\n+++ b/evil\n\
            \n@@ -9 +9,2 @@\n x\n+diff --git a/e b/e\n\\ No newline at end of file\n@@ -20,2 +21 @@\n--- c\n-+++ d\n\
            --- a/next\n+++ b/next\n";
        assert_eq!(all(text), "~x, ~next");
    }

    #[test]
    fn hunks_never_hide_what_the_tools_would_read() {
        // A hunk header before any file header is garbage to git and patch.
        assert_eq!(all("@@ -1,10 +1,10 @@\n--- a/x\n+++ b/x\n"), "~x");
        // A hunk cut short by a foreign line ends there.
        let text =
            "--- a/x\n+++ b/x\n@@ -1,50 +1,50 @@\n a\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n";
        assert_eq!(all(text), "~x, ~y");
        // Old lines run out: the next `---` starts a header.
        assert_eq!(
            all("--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-a\n+b\n--- a/z\n+++ b/z\n"),
            "~x, ~z"
        );
        // GNU patch reads an indented diff; its indented hunk lines end the hunk early here.
        let text = "  --- a/x\n  +++ b/x\n  @@ -1,2 +1,2 @@\n  -a\n  +b\n  --- a/z\n  +++ b/z\n";
        assert_eq!(all(text), "~x, ~z");
    }

    #[test]
    fn both_kinds_in_order() {
        let text = "*** Begin Patch\n*** Add File: env.txt\n+x\n*** End Patch\n\
            --- a/diff.txt\n+++ b/diff.txt\n@@ -1 +1 @@\n-a\n+b\n*** Delete File: env2.txt\n";
        assert_eq!(all(text), "+env.txt, ~diff.txt, -env2.txt");
        assert_eq!(show(envelope_files(text)), "+env.txt, -env2.txt");
        assert_eq!(show(unified_diff_files(text)), "~diff.txt");
    }

    #[test]
    fn garbage_and_empty() {
        for text in ["", "\n\n\r\n", "hello world\n+++ b/x\n@@ -1 +1 @@\n"] {
            assert_eq!(all(text), "");
        }
        let odd: Vec<&str> = "@@ -99999999999999999999999999,9999999999999999999999 +1,18446744073709551615 @@|\
            diff --git \"|diff --git \"\\|diff --git \"\\3|diff --git a\\377 \"b\\777\"|diff --git |\
            diff --git é ü|diff --git aé bé|--- |+++ |--- \"\\|*** Move File: é->ü|*** Move File: ->|\
            *** Move File:|***|rename from |copy to \"|@@ -|@@ -1,|@@ -1 +|\\|\u{1f}\u{85}"
            .split('|')
            .collect();
        // Random orders of odd lines, from a tiny deterministic generator.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..6 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(odd[(seed % odd.len() as u64) as usize]);
                text.push(if seed & 64 == 0 { '\n' } else { ' ' });
            }
            let _ = files(&text);
        }
        assert_eq!(all("*** Move File: é->ü"), "<é, >ü");
    }

    #[test]
    fn large_inputs_finish_fast() {
        let start = std::time::Instant::now();
        let block =
            "*** Update File: a\n@@ x\n-y\n+z\n--- a/d\n+++ b/d\n@@ -1,2 +1,2 @@\n--- c\n++++ d\n";
        assert_eq!(all(&block.repeat(1_000_000 / block.len())), "~a, ~d");
        let _ = files(&format!("diff --git {}\n", "a \"->".repeat(200_000)));
        let _ = files(&format!("*** Move File: {}", "-".repeat(1_000_000)));
        let _ = files(&format!("@@ -1,{} +1 @@\n", "9".repeat(1_000_000)));
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn apply_patch_programs() {
        let yes = "apply_patch applypatch /usr/local/bin/apply_patch Apply_Patch.EXE C:\\bin\\applypatch.exe";
        assert!(yes.split(' ').all(is_apply_patch_program));
        let no = " apply_patches git patch apply_patch/ .exe apply-patch";
        assert!(!no.split(' ').any(is_apply_patch_program));
    }
}
