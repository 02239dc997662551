//! `xargs`, `find -exec` and `parallel`: programs that run a command once per file or input line.

use super::command::{program_name, Command};
use super::eval::Eval;
use super::expand::Field;
use super::programs::with;

/// xargs' options that take the next word.
pub(crate) const XARGS_VALUED: &[&str] = &[
    "-a",
    "-d",
    "-E",
    "-I",
    "-L",
    "-n",
    "-P",
    "-s",
    "--arg-file",
    "--delimiter",
    "--eof",
    "--max-lines",
    "--max-args",
    "--max-procs",
    "--max-chars",
    "--process-slot-var",
];

/// GNU parallel's (and `sem`'s) options that take the next word.
pub(crate) const PARALLEL_VALUED: &[&str] = &[
    "-j",
    "-P",
    "-S",
    "-n",
    "-N",
    "-a",
    "-d",
    "-I",
    "-C",
    "--jobs",
    "--sshlogin",
    "--delay",
    "--timeout",
    "--joblog",
    "--results",
    "--arg-file",
    "--colsep",
    "--delimiter",
    "--tmpdir",
    "--block",
    "-E",
    "-L",
    "-s",
    "--max-args",
    "--max-procs",
    "--max-chars",
    "--max-lines",
    "--id",
    "--semaphorename",
];

impl Eval<'_> {
    pub(super) fn xargs(&mut self, cmd: &Command, args: &[Field]) {
        let mut i = 0;
        let mut replace = None;
        while i < args.len() {
            let a = args[i].text.as_str();
            if !a.starts_with('-') || a == "-" {
                break;
            }
            if a == "--" {
                i += 1;
                break;
            }
            if a == "-I" {
                replace = args.get(i + 1).map(|f| f.text.clone());
            } else if let Some(r) = a
                .strip_prefix("-I")
                .or_else(|| a.strip_prefix("--replace="))
            {
                replace = Some(r.to_string());
            } else if a == "-i" || a == "--replace" {
                replace = Some("{}".into());
            }
            i += if XARGS_VALUED.contains(&a) { 2 } else { 1 };
        }
        let rest = args.get(i..).unwrap_or(&[]);
        if rest.is_empty() {
            return;
        }
        // Items come from stdin (or -a FILE): known text when we have it.
        let items: Vec<String> = match &cmd.stdin {
            Some(text) => text
                .split_whitespace()
                .map(str::to_string)
                .take(64)
                .collect(),
            None => vec!["$(xargs input)".to_string()],
        };
        let mut fields: Vec<Field> = rest.to_vec();
        match replace {
            Some(r) => {
                for f in fields.iter_mut() {
                    f.text = f.text.replace(&r, &items.join(" "));
                }
            }
            None => fields.extend(items.iter().map(|s| Field::plain(s))),
        }
        self.nested(cmd, fields, "xargs");
    }

    /// `find ROOTS ... -exec CMD {} ;` / `-delete`: the command runs on what
    /// find walks, so `{}` stands for the roots (and their contents).
    pub(super) fn find(&mut self, cmd: &Command, args: &[Field]) {
        let texts: Vec<&str> = args.iter().map(|f| f.text.as_str()).collect();
        // `-fprintf FILE FORMAT` writes FORMAT's text (once per file found)
        // into FILE: a later `sh FILE` runs it.
        for w in texts.windows(3).filter(|w| w[0] == "-fprintf") {
            let text = super::sinks::unescape(w[2]).replace("\\n", "\n");
            self.files.insert(super::eval::file_key(w[1]), text);
        }
        let (start, follows) = find_options(&texts);
        let given: Vec<&str> = texts[start..]
            .iter()
            .take_while(|t| !t.starts_with('-') && **t != "(" && **t != "!")
            .copied()
            .collect();
        // `-H` and `-L` follow a start point that is a symlink: what is
        // removed is what it leads to, as `rm -r LINK/` removes.
        let roots: Vec<String> = match (given.is_empty(), follows) {
            (true, _) => vec![".".to_string()],
            (false, false) => given.iter().map(|r| r.to_string()).collect(),
            (false, true) => given
                .iter()
                .map(|r| format!("{}/", r.trim_end_matches('/')))
                .collect(),
        };
        let walked: Vec<String> = if find_skips_roots(&texts) {
            roots
                .iter()
                .map(|r| format!("{}/*", r.trim_end_matches('/')))
                .collect()
        } else {
            roots.clone()
        };
        // Only a name/path/time filter narrows what is removed; `-type f`
        // under a root still removes every file in it.
        let filtered = texts.iter().any(|t| NARROWING.contains(t));
        let found = named_under(&texts, &roots).unwrap_or_else(|| walked.join(" "));
        self.find_actions(cmd, &args[start + given.len()..], &found, &walked, filtered);
    }

    /// `-exec CMD {} ;` (and `-execdir`, `-ok`, `-okdir`) run CMD with `{}`
    /// standing for `found`; `-delete` removes what is `walked`. Without a
    /// narrowing filter, a removal covers whole trees.
    fn find_actions(
        &mut self,
        cmd: &Command,
        args: &[Field],
        found: &str,
        walked: &[String],
        filtered: bool,
    ) {
        let mut i = 0;
        while i < args.len() {
            let a = args[i].text.as_str();
            if matches!(a, "-exec" | "-execdir" | "-ok" | "-okdir") {
                let end = args[i + 1..]
                    .iter()
                    .position(|f| f.text == ";" || f.text == "+")
                    .map_or(args.len(), |p| i + 1 + p);
                let mut fields: Vec<Field> = args[i + 1..end].to_vec();
                if !fields.is_empty() {
                    for f in fields.iter_mut() {
                        if f.text.contains("{}") {
                            f.text = f.text.replace("{}", found);
                        }
                    }
                    let name = program_name(&fields[0].text);
                    if matches!(name.as_str(), "rm" | "shred" | "unlink") && !filtered {
                        fields.insert(1, Field::plain("-r"));
                    }
                    self.nested(cmd, fields, "find -exec");
                }
                i = end + 1;
            } else if a == "-delete" {
                let mut fields = vec![Field::plain("rm")];
                if !filtered {
                    fields.push(Field::plain("-r"));
                }
                fields.extend(walked.iter().map(|r| Field::plain(r)));
                self.nested(cmd, fields, "find -delete");
                i += 1;
            } else {
                i += 1;
            }
        }
    }

    /// `parallel CMD ::: inputs`: CMD is a shell template run once per
    /// input, with `{}` (and `{.}`, `{/}`, ...) replaced or the input appended.
    pub(super) fn parallel(&mut self, args: &[Field]) {
        let mut i = 0;
        while i < args.len() && args[i].text.starts_with('-') && !args[i].text.starts_with(":::") {
            i += if PARALLEL_VALUED.contains(&args[i].text.as_str()) {
                2
            } else {
                1
            };
        }
        let rest = args.get(i..).unwrap_or(&[]);
        let sep = rest.iter().position(|f| f.text.starts_with(":::"));
        let (template, inputs) = match sep {
            Some(p) => (&rest[..p], &rest[p + 1..]),
            None => (rest, &[][..]),
        };
        let template = template
            .iter()
            .map(|f| f.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let mut inputs: Vec<&str> = inputs
            .iter()
            .map(|f| f.text.as_str())
            .filter(|t| !t.starts_with(":::"))
            .take(16)
            .collect();
        // Without `:::` the inputs come from stdin, which warden cannot see.
        if inputs.is_empty() && !template.is_empty() {
            // (a substitution of `cat`: output unknown, and no parallel
            // inside to read again).
            inputs.push("$(cat)");
        }
        for input in inputs {
            let line = if template.is_empty() {
                input.to_string()
            } else if template.contains('{') {
                ["{}", "{.}", "{/}", "{//}", "{/.}", "{1}"]
                    .iter()
                    .fold(template.clone(), |t, r| t.replace(r, input))
            } else {
                format!("{template} {input}")
            };
            self.reanalyze(&line, "parallel", None);
        }
    }

    /// Runs `fields` as a command started by `parent` (xargs, find, parallel).
    fn nested(&mut self, parent: &Command, fields: Vec<Field>, via: &'static str) {
        if fields.is_empty() {
            return;
        }
        let base = Command {
            cwd: parent.cwd.clone(),
            // What fed the parent (xargs' input) feeds what it starts.
            upstream: parent.upstream.clone(),
            stdin: parent.stdin.clone(),
            via: with(&parent.via, via),
            wrappers: parent.wrappers.clone(),
            env: parent.env.clone(),
            ..Command::default()
        };
        if !self.descend() {
            return;
        }
        self.via.push(via);
        if let Some(cmd) = self.dispatch(base, fields) {
            self.emit(cmd);
        }
        self.via.pop();
        self.ascend();
    }
}

/// find's tests that narrow what it finds to some of the files under
/// its roots (`-type f` does not: every file is still found).
const NARROWING: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-regex",
    "-iregex",
    "-newer",
    "-mtime",
    "-mmin",
    "-size",
    "-user",
    "-empty",
    "-perm",
    "-wholename",
    "-links",
    "-inum",
    "-atime",
    "-ctime",
];

/// One literal `-name` and nothing to widen it (`-name __pycache__`):
/// what find finds is that name somewhere under each root.
fn named_under(words: &[&str], roots: &[String]) -> Option<String> {
    let names: Vec<&str> = words
        .windows(2)
        .filter(|w| matches!(w[0], "-name" | "-iname"))
        .map(|w| w[1])
        .collect();
    let widened = words.iter().any(|w| {
        matches!(
            *w,
            "-o" | "-or" | "!" | "-not" | "-path" | "-ipath" | "-regex"
        )
    });
    match names.as_slice() {
        [name] if !widened && !name.contains(['*', '?', '[', '/']) && !name.is_empty() => Some(
            roots
                .iter()
                .map(|r| format!("{}/{name}", r.trim_end_matches('/')))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

/// Where find's own options end (`-H`, `-L`, `-P`, `-D DEBUG`, `-Olevel`
/// come before the start points), and whether they follow a start point
/// that is a symlink (`-H` or `-L`, the last of the three deciding).
pub(crate) fn find_options<S: AsRef<str>>(words: &[S]) -> (usize, bool) {
    let mut follows = false;
    let mut i = 0;
    while let Some(word) = words.get(i).map(AsRef::as_ref) {
        match word {
            "-H" | "-L" => follows = true,
            "-P" => follows = false,
            "-D" => i += 1,
            _ if word.starts_with("-O") => {}
            _ => break,
        }
        i += 1;
    }
    (i.min(words.len()), follows)
}

/// Whether `find` with these words never acts on its start points
/// themselves: with `-mindepth 1` or more what it removes is their contents
/// (`find /tmp -mindepth 1 -delete` empties /tmp, as `rm -r /tmp/*` does,
/// and leaves the directory).
pub(crate) fn find_skips_roots(words: &[&str]) -> bool {
    words
        .windows(2)
        .any(|w| w[0] == "-mindepth" && w[1].parse::<u32>().is_ok_and(|depth| depth >= 1))
}
