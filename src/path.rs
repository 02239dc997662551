//! Lexical paths: `.` and `..` folded and `~` expanded without asking the file system.
//!
//! The one normaliser for paths in commands, payloads and rules, so a rule
//! and the call it judges always agree on what `a/../b` is.

/// A path with its `.` and `..` components applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded<'a> {
    pub absolute: bool,
    /// The components left, without empty ones; a relative path keeps the
    /// `..` that climb above its start.
    pub parts: Vec<&'a str>,
    /// A `..` climbed above the start: out of the directory a relative path
    /// starts in, or above `/` (where it stays, as the kernel does).
    pub escaped: bool,
}

/// Folds `path` lexically.
pub fn fold(path: &str) -> Folded<'_> {
    let absolute = path.starts_with('/');
    // Room for a usual path's pieces at once.
    let mut parts: Vec<&str> = Vec::with_capacity(8);
    let mut escaped = false;
    for part in slash_separated(path) {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ => {
                    escaped = true;
                    if !absolute {
                        parts.push("..");
                    }
                }
            },
            _ => parts.push(part),
        }
    }
    Folded {
        absolute,
        parts,
        escaped,
    }
}

/// The pieces of `path` between slashes, as `path.split('/')` gives them:
/// found over bytes, as a path's pieces are short and a character search
/// sets up a `memchr` call for each.
pub(crate) fn slash_separated(path: &str) -> impl Iterator<Item = &str> {
    let mut start = Some(0);
    let bytes = path.as_bytes();
    std::iter::from_fn(move || {
        let from = start?;
        match bytes[from..].iter().position(|&b| b == b'/') {
            Some(n) => {
                start = Some(from + n + 1);
                Some(&path[from..from + n])
            }
            None => {
                start = None;
                Some(&path[from..])
            }
        }
    })
}

/// `path` made absolute and folded: `~` and `~/x` are under `home`, a
/// relative path is joined to `cwd`. Without the directory it needs, the
/// path stays relative (folded all the same).
pub fn absolute(path: &str, cwd: Option<&str>, home: Option<&str>) -> String {
    let joined = match path.strip_prefix("~/").or((path == "~").then_some("")) {
        Some(rest) => match home {
            Some(home) => format!("{home}/{rest}"),
            None => path.to_string(),
        },
        None if path.starts_with('/') => path.to_string(),
        None => match cwd {
            Some(cwd) => format!("{cwd}/{path}"),
            None => path.to_string(),
        },
    };
    // Most paths are already folded: then folding would rebuild the same text.
    if is_folded(&joined) {
        return joined;
    }
    let folded = fold(&joined);
    let body = folded.parts.join("/");
    if folded.absolute {
        format!("/{body}")
    } else {
        body
    }
}

/// `path` inside `dir` (itself included, as `""`). Inlined: asked some
/// twenty times a call, and the call cost half of the answer.
#[inline(always)]
pub fn strip_dir<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    // Asked of every path against every directory the file rules name:
    // the byte where `dir` would end in `path` rejects most pairs before
    // the texts are compared.
    let dir = if dir.ends_with('/') {
        dir.trim_end_matches('/')
    } else {
        dir
    };
    if dir.is_empty() {
        return path.strip_prefix('/');
    }
    match path.as_bytes().get(dir.len()) {
        None if path.len() == dir.len() => (path == dir).then_some(""),
        Some(b'/') if path.as_bytes().starts_with(dir.as_bytes()) => Some(&path[dir.len() + 1..]),
        _ => None,
    }
}

/// A file-system path as text, as `Path::display` shows it (each byte
/// sequence that is not UTF-8 becomes U+FFFD). Asked of every config file a
/// hook call looks for: a UTF-8 path, nearly every one, is checked with the
/// fast validator and copied, where `display` and `to_string_lossy` walk it
/// chunk by chunk (some 400 instructions a path).
pub fn text(path: &std::path::Path) -> String {
    match path.to_str() {
        Some(text) => text.to_string(),
        None => path.to_string_lossy().into_owned(),
    }
}

/// Whether `fold` would leave `path` as it is: `/`, or components that are
/// neither empty, `.` nor `..`, after one leading `/` if absolute.
fn is_folded(path: &str) -> bool {
    if path == "/" {
        return true;
    }
    let body = path.strip_prefix('/').unwrap_or(path).as_bytes();
    // Bytes, not `split('/')`: asked of every path a call names, and a
    // character searcher costs more than the walk for short components.
    !body.is_empty()
        && body
            .split(|&b| b == b'/')
            .all(|part| !matches!(part, b"" | b"." | b".."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_what_display_shows() {
        use std::os::unix::ffi::OsStrExt;
        let paths: [&[u8]; 6] = [
            b"/home/u/.config/warden/config.yaml",
            b"",
            "/tmp/caf\u{e9}/\u{1f600}".as_bytes(),
            b"/tmp/bad\xff\xfe/name",
            b"/tmp/cut\xe2\x82",
            b"\xc3(\xa0\xa1/x",
        ];
        for bytes in paths {
            let path = std::path::Path::new(std::ffi::OsStr::from_bytes(bytes));
            assert_eq!(text(path), path.display().to_string(), "{bytes:?}");
        }
    }

    #[test]
    fn slash_separated_is_split() {
        for path in ["", "/", "//", "a", "/a/b/", "a//b", "/é/ü/", "x/"] {
            let ours: Vec<&str> = slash_separated(path).collect();
            let split: Vec<&str> = path.split('/').collect();
            assert_eq!(ours, split, "{path:?}");
        }
    }

    #[test]
    fn folds_dots() {
        assert_eq!(absolute("a/../b/./c", Some("/w"), None), "/w/b/c");
        assert_eq!(absolute("~/x", None, Some("/home/u")), "/home/u/x");
        assert_eq!(absolute("~", None, Some("/home/u")), "/home/u");
        assert_eq!(absolute("/../..", None, None), "/");
        assert_eq!(absolute("../x", None, None), "../x");
        assert_eq!(absolute("a/../../x", None, None), "../x");
    }

    #[test]
    fn the_shortcut_agrees_with_folding() {
        let paths = [
            "/",
            "//",
            "/a",
            "/a/",
            "/a//b",
            "/a/./b",
            "/a/../b",
            "/a/b/..",
            "/.",
            "a",
            "a/",
            "./a",
            "../a",
            "a/b",
            "a/.",
            "",
            ".",
            "..",
            "/a.b/c..d/.e",
            "~",
            "a/../../x",
        ];
        for path in paths {
            let folded = fold(path);
            let body = folded.parts.join("/");
            let slow = if folded.absolute {
                format!("/{body}")
            } else {
                body
            };
            if is_folded(path) {
                assert_eq!(slow, path, "{path:?}");
            }
            assert_eq!(absolute(path, None, None), slow, "{path:?}");
        }
    }

    #[test]
    fn reports_escapes() {
        assert!(fold("/tmp/../..").escaped);
        assert!(fold("../x").escaped);
        assert!(!fold("a/../b").escaped);
        assert_eq!(fold("//a/./b/").parts, vec!["a", "b"]);
    }
}
