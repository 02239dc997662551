//! The files a patch names, for `patch`, `git apply` and `git am`: where its text is (given on the line, or in a file the caller reads), the directory its paths count from, and each path with the leading components `-p` may strip.

use super::How;
use crate::rules::git::{git, GLOBAL};
use crate::rules::opts::{parse_opts, Spec, GNU};
use crate::shell::Command;

// Patches.

/// Where a patch's text is and where its paths count from, for `patch`,
/// `git apply` and `git am`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PatchInput<'c> {
    /// The text handed to the command: a heredoc, a here-string, the output
    /// of `echo` or `printf`.
    pub text: Option<&'c str>,
    /// The files the patch is read from (none and no text: stdin, unknown).
    pub files: Vec<&'c str>,
    /// The directory its paths count from (`patch -d DIR`, `git -C DIR`).
    pub dir: Option<&'c str>,
    /// Put before every path (`git apply --directory=ROOT`).
    pub root: Option<&'c str>,
}

#[rustfmt::skip]
const PATCH: Spec = Spec::gnu("BdDFioprVYzg", &["prefix", "directory", "ifdef", "fuzz", "input", "output", "strip", "reject-file", "version-control", "basename-prefix", "suffix", "get", "quoting-style"]);
#[rustfmt::skip]
const APPLY: Spec = Spec::gnu("pC", &["directory", "exclude", "include", "whitespace", "build-fake-ancestor"]);

/// Where the patch `cmd` applies is, when it applies one to the files the
/// patch names (not to an original named on its command line).
pub fn patch_input(cmd: &Command) -> Option<PatchInput<'_>> {
    let stdin_file = || {
        cmd.redirects
            .iter()
            .rev()
            .find(|r| r.op == crate::shell::RedirectOp::Read)
            .map(|r| r.target.as_str())
            .or_else(|| {
                // `cat fix.diff | patch -p1`.
                let last = cmd.upstream.last()?;
                (last.program == "cat" && last.args.len() == 1).then(|| last.args[0].as_str())
            })
    };
    match cmd.program.as_str() {
        "patch" | "gpatch" => {
            let o = parse_opts(&cmd.args, &PATCH);
            let dry = o.long("dry-run", 3);
            let output = o.value('o').is_some() || o.long("output", 3);
            if dry || output || !o.operands.is_empty() {
                return None;
            }
            let file = o
                .value('i')
                .or(o.long_value("input", 3))
                .or_else(stdin_file);
            Some(PatchInput {
                text: cmd.stdin.as_deref().filter(|_| file.is_none()),
                files: file.into_iter().collect(),
                dir: o.value('d').or(o.long_value("directory", 3)),
                root: None,
            })
        }
        "git" => {
            let g = git(cmd)?;
            let globals = parse_opts(g.global, &GLOBAL);
            let dir = globals.value('C');
            let (spec, only_reads) = match g.sub {
                "apply" => (
                    &APPLY,
                    &["check", "stat", "numstat", "summary", "cached"][..],
                ),
                "am" => (&GNU, &["show-current-patch", "abort", "quit", "skip"][..]),
                _ => return None,
            };
            let o = parse_opts(g.args, spec);
            let applies = o.long("apply", 3) || !only_reads.iter().any(|r| o.long(r, 3));
            if !applies {
                return None;
            }
            let files: Vec<&str> = o.operands.iter().copied().filter(|f| *f != "-").collect();
            let files = if files.is_empty() {
                stdin_file().into_iter().collect()
            } else {
                files
            };
            Some(PatchInput {
                text: cmd.stdin.as_deref().filter(|_| files.is_empty()),
                files,
                dir,
                root: o.long_value("directory", 3),
            })
        }
        _ => None,
    }
}

/// The paths a patch's text names, each with the components `-p` may
/// strip taken off in turn (warden does not know which count the tool
/// will use), from `input`'s directory; `None` for a deleted or moved-away
/// file is [`How::Delete`].
pub fn patch_targets(input: &PatchInput<'_>, text: &str) -> Vec<(String, How)> {
    let mut out: Vec<(String, How)> = Vec::new();
    for file in crate::patch::files(text) {
        let how = match file.change {
            crate::patch::Change::Delete | crate::patch::Change::MoveFrom => How::Delete,
            _ => How::Patch,
        };
        let parts: Vec<&str> = file.path.split('/').filter(|p| !p.is_empty()).collect();
        for skip in 0..parts.len() {
            let rest = parts[skip..].join("/");
            let mut path = match input.root {
                Some(root) => format!("{}/{rest}", root.trim_end_matches('/')),
                None => rest,
            };
            if let Some(dir) = input.dir.filter(|_| !path.starts_with('/')) {
                path = format!("{}/{path}", dir.trim_end_matches('/'));
            }
            if !out.iter().any(|(p, h)| *p == path && *h == how) {
                out.push((path, how));
            }
            if file.path.starts_with('/') {
                break;
            }
        }
    }
    out
}

/// The directory a patch whose text warden cannot read puts files into.
pub fn patch_dir<'c>(input: &PatchInput<'c>) -> &'c str {
    input.dir.unwrap_or(".")
}
