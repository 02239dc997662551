//! What interpreter calls do to permissions and ownership: `os.chmod`, `fs.chmodSync`, `File.chmod`, Perl's `chmod` and `chown`, read as the `chmod` and `chown` commands they amount to.
//!
//! Languages disagree on the order (Python and Node name the path first,
//! Perl and Ruby the mode), so the mode is the argument that reads as one
//! (a number, `stat` constants or a symbolic mode) and the paths are the
//! others.

use super::calls::Reader;
use super::view::{Arg, Recv, Span};
use super::Action;

/// `stat` constants and their bits.
#[rustfmt::skip]
const BITS: &[(&str, u32)] = &[
    ("S_ISUID", 0o4000), ("S_ISGID", 0o2000), ("S_ISVTX", 0o1000), ("S_IRWXU", 0o700),
    ("S_IRUSR", 0o400), ("S_IWUSR", 0o200), ("S_IXUSR", 0o100), ("S_IRWXG", 0o70),
    ("S_IRGRP", 0o40), ("S_IWGRP", 0o20), ("S_IXGRP", 0o10), ("S_IRWXO", 0o7),
    ("S_IROTH", 0o4), ("S_IWOTH", 0o2), ("S_IXOTH", 0o1),
];

impl Reader<'_, '_> {
    /// `os.chmod(P, 0o4755)`, `Path(P).chmod(M)`, `chmod 04755, P`,
    /// `FileUtils.chmod_R("o+w", D)`: `chmod [-R] MODE P...`.
    pub(super) fn chmod(&mut self, recursive: bool, recv: Option<Recv>, args: &[Arg]) {
        let v = self.view;
        let pos = self.positional(args);
        let Some((at, mode)) = pos
            .iter()
            .enumerate()
            .find_map(|(i, a)| self.chmod_mode(a.value).map(|m| (i, m)))
        else {
            return;
        };
        let mut paths: Vec<Span> = Vec::new();
        for (i, a) in pos.iter().enumerate() {
            if i == at {
                continue;
            }
            match v.list_items(a.value) {
                Some(items) => paths.extend(items),
                None => paths.push(a.value),
            }
        }
        // `Path("/usr/bin/x").chmod(0o4755)`: the receiver is the path.
        if paths.is_empty() {
            paths.extend(recv.map(|r| r.span));
        }
        let mut argv = vec!["chmod".to_string()];
        if recursive {
            argv.push("-R".into());
        }
        argv.push(mode);
        self.run_paths(argv, &paths);
    }

    /// `os.chown(P, 0, 0)`, Perl's `chown 0, 0, P`, `fs.chownSync(P, 0, 0)`:
    /// `chown [-R] UID:GID P...`.
    pub(super) fn chown(&mut self, recursive: bool, args: &[Arg]) {
        let v = self.view;
        let pos = self.positional(args);
        // Owners are numbers or names; paths hold a `/` or start with `.` or `~`.
        let (paths, ids): (Vec<&Arg>, Vec<&Arg>) = pos.iter().partition(|a| {
            v.value(a.value, true)
                .is_some_and(|p| p.home || p.text.contains('/') || p.text.starts_with(['.', '~']))
        });
        if paths.is_empty() {
            return;
        }
        let owner: Vec<String> = ids
            .iter()
            .take(2)
            .map(|a| {
                v.value(a.value, false)
                    .map_or_else(|| v.text(v.trim(a.value)).to_string(), |o| o.text)
            })
            .collect();
        let mut argv = vec!["chown".to_string()];
        if recursive {
            argv.push("-R".into());
        }
        argv.push(if owner.is_empty() {
            "$(interpreter value)".to_string()
        } else {
            owner.join(":")
        });
        let spans: Vec<Span> = paths.iter().map(|a| a.value).collect();
        self.run_paths(argv, &spans);
    }

    /// Runs `argv` on the paths the code names; an unknown path stands as
    /// a substitution, which the rules take for anywhere.
    fn run_paths(&mut self, mut argv: Vec<String>, paths: &[Span]) {
        let v = self.view;
        let mut decoded = false;
        let mut any = false;
        for &p in paths {
            let Some(val) = v.value(p, true) else {
                continue;
            };
            decoded |= val.decoded;
            any = true;
            argv.push(
                val.text
                    .replace(super::value::PLACEHOLDER, "$(interpreter value)"),
            );
        }
        if any {
            self.push(Action::Run(argv), decoded);
        }
    }

    /// The mode a chmod argument sets, as `chmod` takes it: `0o4755`,
    /// `04755`, `493`, `stat.S_ISUID | 0o755`, `"u+s"`, `'755'`.
    fn chmod_mode(&self, span: Span) -> Option<String> {
        let v = self.view;
        let raw = v.text(v.trim(span));
        if raw.starts_with(['\'', '"']) {
            let text = v.value(span, false)?.text;
            return symbolic(&text).then_some(text);
        }
        let mut bits = 0u32;
        let mut unknown = false;
        let mut any = false;
        for part in raw.split(['|', '+']) {
            let part = part.trim().trim_matches(['(', ')']).trim();
            let name = part.rsplit(['.', ':']).next().unwrap_or(part);
            if let Some(&(_, b)) = BITS.iter().find(|(n, _)| *n == name) {
                bits |= b;
                any = true;
            } else if let Some(n) = number(part) {
                bits |= n;
                any = true;
            } else {
                unknown = true;
            }
        }
        if !any {
            return None;
        }
        if !unknown {
            return Some(format!("{bits:03o}"));
        }
        // `os.stat(p).st_mode | stat.S_ISUID`: what is added is known.
        [(0o4000, "u+s"), (0o2000, "g+s"), (0o2, "o+w")]
            .iter()
            .find(|(b, _)| bits & b != 0)
            .map(|(_, m)| m.to_string())
    }
}

/// An integer literal as the languages write a mode: `0o755`, `0755`,
/// `0x1ed`, `493`.
fn number(text: &str) -> Option<u32> {
    let t = text.replace('_', "");
    if t.is_empty() || !t.bytes().next()?.is_ascii_digit() {
        return None;
    }
    let (digits, radix) = if let Some(r) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        (r, 8)
    } else if let Some(r) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (r, 16)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t.as_str(), 10)
    };
    u32::from_str_radix(digits, radix)
        .ok()
        .filter(|n| *n <= 0o7777)
}

/// `u+s`, `a+rwx,o-w`, `755`: a mode `chmod` reads.
fn symbolic(text: &str) -> bool {
    if (3..=4).contains(&text.len()) && text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return true;
    }
    !text.is_empty()
        && text.split(',').all(|clause| {
            let ops = clause.trim_start_matches(['u', 'g', 'o', 'a']);
            ops.len() >= 2
                && ops.starts_with(['+', '-', '='])
                && ops[1..].bytes().all(|b| b"rwxXstugo".contains(&b))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_as_written() {
        assert_eq!(number("0o4755"), Some(0o4755));
        assert_eq!(number("04755"), Some(0o4755));
        assert_eq!(number("493"), Some(0o755));
        assert_eq!(number("0x1ed"), Some(0o755));
        assert_eq!(number("path"), None);
        assert_eq!(number("99999"), None);
        assert!(symbolic("u+s"));
        assert!(symbolic("a+rwx,o-w"));
        assert!(symbolic("4755"));
        assert!(!symbolic("build"));
        assert!(!symbolic("+"));
    }
}
