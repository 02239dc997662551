//! Links a command makes (`ln`, `cp -s`, `cp -P`, `mv`, `mount --bind`, `bindfs`) or runs under (a sandbox's binds), and how a program treats a link in the paths it acts on: what the engine needs to see where those paths lead.
//!
//! Facts about words only: where the links land and what they point to is
//! worked out by the engine, which knows the directories and the disk.

use std::borrow::Cow;

use super::access::landings;
use super::opts::{parse_opts, Opts, Spec, MODE};
use crate::resolve::Last;
use crate::shell::names::{self, NameMap};
use crate::shell::Command;

/// A link a command makes, as its words name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Making<'c> {
    /// Where it is made, from the command's directory.
    pub at: Cow<'c, str>,
    /// When only the file system can tell whether `at` is a directory: the
    /// name made inside it if it is one (`ln -s /etc e` where `e` exists).
    pub inside: Option<&'c str>,
    pub kind: Kind<'c>,
}

/// What the link shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind<'c> {
    /// A symbolic link storing this text (a relative one counts from the
    /// link's directory).
    Symlink(&'c str),
    /// A symbolic link to this path as counted from the command's directory
    /// (`ln -sr`, `ln -L`).
    LinkTo(&'c str),
    /// A copy or move of what is at this path, which stays a symlink if it
    /// is one (`cp -P`, `cp -r`, `mv`); a hard link (`hard`) also reaches a
    /// file there through the new name.
    Same { path: &'c str, hard: bool },
    /// A bind mount of this path, from the command's directory.
    Mount(&'c str),
    /// A tree of symlinks to the files under this directory (`cp -rs`).
    Mirror(&'c str),
}

/// Whether `cmd` may make a link or run under binds: the one test every
/// command meets, so a line that makes none costs nothing more.
pub fn may_make(cmd: &Command) -> bool {
    matches!(
        cmd.program.as_str(),
        "ln" | "cp" | "mv" | "mount" | "bindfs"
    ) || cmd
        .wrappers
        .iter()
        .any(|w| matches!(w.name.as_str(), "bwrap" | "proot" | "firejail"))
}

#[rustfmt::skip]
const MOUNT: Spec = Spec::gnu("toOLUNT", &["types", "options", "test-opts", "label", "uuid", "source", "target", "namespace", "fstab", "options-mode", "options-source", "target-prefix", "map-users", "map-groups"]);
/// bindfs(1): `-u`, `-g`, `-p`, `-m`, `-M` and `-o` take values.
const BINDFS: Spec = Spec::gnu("ugpmMo", &[]);

/// The links `cmd` makes.
pub fn makes(cmd: &Command) -> Vec<Making<'_>> {
    let program = cmd.program.as_str();
    match program {
        "ln" | "cp" | "mv" => copies(cmd),
        "mount" => {
            let o = parse_opts(&cmd.args, &MOUNT);
            let options = o
                .values
                .iter()
                .filter(|(c, _)| *c == 'o')
                .map(|(_, v)| *v)
                .chain(o.long_value("options", 3));
            let bind = o.flag('B')
                || o.flag('R')
                || o.long("bind", 4)
                || o.long("rbind", 5)
                || options
                    .flat_map(|v| v.split(','))
                    .any(|v| matches!(v, "bind" | "rbind"));
            let source = o.long_value("source", 3);
            let target = o.long_value("target", 3);
            let (source, target) = match (source, target, o.operands.as_slice()) {
                (Some(s), Some(t), _) => (s, t),
                (Some(s), None, [t, ..]) => (s, *t),
                (None, Some(t), [s, ..]) => (*s, t),
                (None, None, [s, t, ..]) => (*s, *t),
                _ => return Vec::new(),
            };
            if !bind {
                return Vec::new();
            }
            vec![mount(source, target)]
        }
        "bindfs" => match parse_opts(&cmd.args, &BINDFS).operands.as_slice() {
            [source, target, ..] => vec![mount(source, target)],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn mount<'c>(source: &'c str, target: &'c str) -> Making<'c> {
    Making {
        at: target.into(),
        inside: None,
        kind: Kind::Mount(source),
    }
}

/// `ln`, `cp` and `mv`: each source's landing, with what it shows there.
fn copies(cmd: &Command) -> Vec<Making<'_>> {
    let program = cmd.program.as_str();
    let o = parse_opts(&cmd.args, &MODE);
    let kind: KindOf = match program {
        "ln" => ln_kind(&o),
        "cp" => cp_kind(&o),
        _ => |s| {
            Some(Kind::Same {
                path: s,
                hard: false,
            })
        },
    };
    let (_, landings) = landings(program, &o);
    landings
        .into_iter()
        .filter_map(|l| {
            let kind = kind(l.source)?;
            // A whole tree copied (`cp -rs / r`, `cp -rs src/. r`) lands as
            // the destination directory, not as what is in it.
            let at = match (kind, &l.path) {
                (Kind::Mirror(_), Cow::Owned(p)) if p.ends_with("/*") => {
                    Cow::Owned(p[..p.len() - 2].to_string())
                }
                _ => l.path,
            };
            Some(Making {
                kind,
                at,
                inside: l.inside,
            })
        })
        .collect()
}

/// What a source's landing shows of the source; `None` where it is a plain
/// copy of the content, which is no link.
type KindOf = for<'s> fn(&'s str) -> Option<Kind<'s>>;

/// What `ln` makes: a symlink as written (`-s`), one resolved first (`-r`,
/// `-L`), or a hard link.
fn ln_kind(o: &Opts<'_>) -> KindOf {
    let symbolic = o.flag('s') || o.long("symbolic", 2);
    let relative = o.flag('r') || o.long("relative", 2);
    let logical = o.flag('L') || o.long("logical", 2);
    match (symbolic, relative || logical) {
        (true, false) => |s| Some(Kind::Symlink(s)),
        (true, true) => |s| Some(Kind::LinkTo(s)),
        (false, true) => |s| Some(Kind::LinkTo(s)),
        (false, false) => |s| {
            Some(Kind::Same {
                path: s,
                hard: true,
            })
        },
    }
}

/// What `cp` makes: with `-s` or `-l`, links (a tree of them when
/// recursive); otherwise a copy that is a symlink only where cp keeps one.
fn cp_kind(o: &Opts<'_>) -> KindOf {
    let recursive =
        o.flag('r') || o.flag('R') || o.flag('a') || o.long("recursive", 3) || o.long("archive", 2);
    let symbolic = o.flag('s') || o.long("symbolic-link", 2);
    let hard = o.flag('l') || o.long("link", 3);
    let follows = o.flag('L') || o.flag('H') || o.long("dereference", 4);
    // GNU cp copies a symlink as one with -P, -d, -a, and when
    // copying recursively unless told to follow.
    let keeps = o.flag('P')
        || o.flag('d')
        || o.flag('a')
        || o.long("no-dereference", 4)
        || o.long("archive", 2)
        || recursive && !follows;
    match (symbolic || hard, recursive, keeps) {
        (true, true, _) => |s| Some(Kind::Mirror(s)),
        (true, false, _) if symbolic => |s| Some(Kind::Symlink(s)),
        (true, false, _) => |s| {
            Some(Kind::Same {
                path: s,
                hard: true,
            })
        },
        (false, _, true) => |s| {
            Some(Kind::Same {
                path: s,
                hard: false,
            })
        },
        (false, _, false) => |_| None,
    }
}

/// What the sandbox a command runs in binds: `bwrap --bind SRC DEST` (and
/// `--dev-bind`, their `-try` forms, `--symlink`), `proot -b SRC:DEST`,
/// `firejail --bind=SRC,DEST`. Read-only binds are left out: nothing is
/// deleted or written through them.
pub fn binds(cmd: &Command) -> Vec<Making<'_>> {
    let mut out = Vec::new();
    for w in &cmd.wrappers {
        let args = &w.args;
        match w.name.as_str() {
            "bwrap" => {
                for (i, a) in args.iter().enumerate() {
                    let (Some(source), Some(dest)) = (args.get(i + 1), args.get(i + 2)) else {
                        continue;
                    };
                    match a.as_str() {
                        "--bind" | "--bind-try" | "--dev-bind" | "--dev-bind-try" => {
                            out.push(mount(source, dest))
                        }
                        "--symlink" => out.push(Making {
                            at: dest.into(),
                            inside: None,
                            kind: Kind::Symlink(source),
                        }),
                        _ => {}
                    }
                }
            }
            "proot" => {
                for (i, a) in args.iter().enumerate() {
                    let pair = match a.as_str() {
                        "-b" | "-m" | "--bind" | "--mount" => args.get(i + 1).map(String::as_str),
                        _ => a
                            .strip_prefix("--bind=")
                            .or_else(|| a.strip_prefix("--mount=")),
                    };
                    if let Some((source, dest)) = pair.and_then(|p| p.split_once(':')) {
                        out.push(mount(source, dest));
                    }
                }
            }
            "firejail" => {
                for a in args {
                    if let Some((source, dest)) =
                        a.strip_prefix("--bind=").and_then(|p| p.split_once(','))
                    {
                        out.push(mount(source, dest));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// One argument a program acts on: `args[index][prefix..]` is the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acted {
    pub index: usize,
    pub prefix: usize,
}

/// Programs that open what they are given wherever it leads: `chmod`, the
/// copy tools whose destination is entered, and the disk and file-system
/// tools (with every `mkfs*` and `newfs*`).
#[rustfmt::skip]
const FOLLOWERS: &[&str] = &[
    "chmod", "dd", "dcfldd", "rsync", "tar", "gtar", "bsdtar", "unzip",
    "shred", "truncate", "wipefs", "blkdiscard", "sgdisk", "sfdisk", "parted", "fdisk", "gdisk",
    "cfdisk", "cgdisk", "cryptsetup", "hdparm", "badblocks", "scrub", "nvme", "ddrescue",
    "mke2fs", "mkswap", "mkdosfs", "mkntfs",
];

/// What `cmd` does with a symlink named last in a path it acts on, for the
/// programs of [`acts_on`]. Verified against GNU coreutils 9.1 and findutils
/// 4.9: `rm`, `mv` and `find` act on the link itself (a trailing `/`
/// follows it), `chmod` follows it, `chown -R` keeps it unless `-H` or `-L`
/// says otherwise, and what opens a file or device follows it.
pub fn last_named(cmd: &Command) -> Option<Last> {
    // Asked of every command of every line: one probe of a table.
    static TREATS: NameMap<Treats> = names::name_map!(Treats;
        &["rm", "srm", "unlink", "rmdir", "mv"] => Treats::Keep,
        FOLLOWERS => Treats::Follow,
        &["chown", "chgrp"] => Treats::Chown,
        &["find"] => Treats::Find,
    );
    let program = cmd.program.as_str();
    let treats = match TREATS.get(program) {
        Some(treats) => *treats,
        None if program.starts_with("mkfs") || program.starts_with("newfs") => Treats::Follow,
        None => return None,
    };
    Some(match treats {
        Treats::Keep => Last::Keep,
        Treats::Follow => Last::Follow,
        Treats::Find => match crate::shell::find_options(&cmd.args) {
            (_, true) => Last::Follow,
            (_, false) => Last::Keep,
        },
        Treats::Chown => {
            let mut traversal = 'P';
            let mut no_dereference = false;
            for o in cmd.options() {
                match o {
                    "--no-dereference" => no_dereference = true,
                    "--dereference" => no_dereference = false,
                    _ if !o.starts_with("--") => {
                        for c in o[1..].chars() {
                            match c {
                                'H' | 'L' | 'P' => traversal = c,
                                'h' => no_dereference = true,
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            let recursive = cmd.has_short('R') || cmd.has_long("--recursive");
            if no_dereference || recursive && traversal == 'P' {
                Last::Keep
            } else {
                Last::Follow
            }
        }
    })
}

/// How a program of [`last_named`] treats a link named last.
#[derive(Debug, Clone, Copy)]
enum Treats {
    Keep,
    Follow,
    /// As its options say.
    Chown,
    Find,
}

/// The paths `cmd` deletes, moves, re-permissions, wipes, formats or
/// unpacks into, and what it does with a symlink named last in one
/// ([`last_named`]); `None` for any other program.
pub fn acts_on(cmd: &Command) -> Option<(Vec<Acted>, Last)> {
    let last = last_named(cmd)?;
    let whole = |index| Acted { index, prefix: 0 };
    let program = cmd.program.as_str();
    let acted = match program {
        "find" => find_roots(&cmd.args),
        "dd" | "dcfldd" => cmd
            .args
            .iter()
            .enumerate()
            .filter(|(_, a)| a.starts_with("of=") || a.starts_with("if="))
            .map(|(index, _)| Acted { index, prefix: 3 })
            .collect(),
        // A destination that is a link to a directory is entered, wherever
        // it leads; only `--delete` makes that a deletion.
        "rsync" if cmd.options().any(|o| o.starts_with("--del")) => operand_indices(&cmd.args)
            .last()
            .map(whole)
            .into_iter()
            .collect(),
        "rsync" => return None,
        "tar" | "gtar" | "bsdtar" | "unzip" => super::access::unpacking(cmd)
            .map(|u| {
                u.dirs
                    .into_iter()
                    .map(|(index, prefix)| Acted { index, prefix })
                    .collect()
            })
            .unwrap_or_default(),
        _ => operand_indices(&cmd.args).map(whole).collect(),
    };
    Some((acted, last))
}

/// Indices of the arguments that are not options: those not starting with
/// `-`, and everything after `--` (as [`Command::operands`] sorts them).
fn operand_indices(args: &[String]) -> impl Iterator<Item = usize> + '_ {
    let dashes = args.iter().position(|a| a == "--");
    args.iter()
        .enumerate()
        .filter_map(move |(i, a)| match dashes {
            Some(d) if i > d => Some(i),
            Some(d) if i == d => None,
            _ => (!(a.starts_with('-') && a.len() > 1)).then_some(i),
        })
}

/// find's start points, after its own options.
fn find_roots(args: &[String]) -> Vec<Acted> {
    let (start, _) = crate::shell::find_options(args);
    args.iter()
        .enumerate()
        .skip(start)
        .take_while(|(_, a)| !a.starts_with('-') && !matches!(a.as_str(), "(" | "!" | ")" | ","))
        .map(|(index, _)| Acted { index, prefix: 0 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(line: &str) -> Vec<(String, Option<String>, String)> {
        let analysis = crate::shell::analyze(line);
        let cmd = analysis.commands.last().expect("a command");
        makes(cmd)
            .into_iter()
            .chain(binds(cmd))
            .map(|m| {
                (
                    m.at.into_owned(),
                    m.inside.map(str::to_string),
                    format!("{:?}", m.kind),
                )
            })
            .collect()
    }

    #[test]
    fn links_made_by_each_spelling() {
        let one = |line: &str| {
            let all = made(line);
            assert_eq!(all.len(), 1, "{line}: {all:?}");
            all.into_iter().next().expect("one")
        };
        assert_eq!(
            one("ln -s / /tmp/r"),
            ("/tmp/r".into(), None, "Symlink(\"/\")".into())
        );
        assert_eq!(one("ln -sfn /etc e").2, "Symlink(\"/etc\")");
        assert_eq!(one("ln -sfn /etc e").1, None);
        assert_eq!(one("ln -sT /etc e").1, None);
        assert_eq!(one("ln -s /etc dir/").0, "dir/etc");
        assert_eq!(one("ln -s /etc").0, "etc");
        assert_eq!(one("ln -st d /etc").0, "d/etc");
        assert_eq!(one("ln -sr ../x y").2, "LinkTo(\"../x\")");
        assert_eq!(
            one("ln /etc/passwd p").2,
            "Same { path: \"/etc/passwd\", hard: true }"
        );
        assert_eq!(one("cp -s /etc/passwd p").2, "Symlink(\"/etc/passwd\")");
        assert_eq!(one("cp -rs / /tmp/r").2, "Mirror(\"/\")");
        assert_eq!(
            one("cp -a link copy").2,
            "Same { path: \"link\", hard: false }"
        );
        assert_eq!(
            one("cp -r link copy").2,
            "Same { path: \"link\", hard: false }"
        );
        assert_eq!(
            one("mv link other").2,
            "Same { path: \"link\", hard: false }"
        );
        assert_eq!(one("sudo mount --bind / /tmp/r").2, "Mount(\"/\")");
        assert_eq!(one("mount -o ro,bind / /tmp/r").0, "/tmp/r");
        assert_eq!(one("mount -B /home /mnt").2, "Mount(\"/home\")");
        assert_eq!(
            one("mount --rbind --source / --target /mnt").2,
            "Mount(\"/\")"
        );
        assert_eq!(one("bindfs -u 1000 / /mnt/x").2, "Mount(\"/\")");
        assert_eq!(one("bwrap --bind / /x rm -rf /x/etc").0, "/x");
        assert_eq!(one("proot -b /:/x rm -rf /x/etc").2, "Mount(\"/\")");
        assert_eq!(one("firejail --bind=/,/x rm -rf /x/etc").0, "/x");
        assert_eq!(made("ln -s a b c d").len(), 3);
        for none in [
            "cp a b",
            "cp -L -r a b",
            "mount /dev/sdb1 /mnt",
            "mount -t tmpfs none /mnt",
            "bwrap --ro-bind / / sh",
            "ls",
        ] {
            assert!(made(none).is_empty(), "{none}");
        }
    }

    fn acted(line: &str) -> (Vec<String>, Last) {
        let analysis = crate::shell::analyze(line);
        let cmd = analysis.commands.last().expect("a command");
        let (args, last) = acts_on(cmd).expect("acts on paths");
        let paths = args
            .iter()
            .map(|a| cmd.args[a.index][a.prefix..].to_string())
            .collect();
        (paths, last)
    }

    #[test]
    fn what_each_program_does_with_a_link() {
        assert_eq!(
            acted("rm -rf a b/ -- -c"),
            (vec!["a".into(), "b/".into(), "-c".into()], Last::Keep)
        );
        assert_eq!(acted("chmod -R 777 x").1, Last::Follow);
        assert_eq!(acted("chown -R u x").1, Last::Keep);
        assert_eq!(acted("chown -RL u x").1, Last::Follow);
        assert_eq!(acted("chown -R -H -P u x").1, Last::Keep);
        assert_eq!(acted("chown u x").1, Last::Follow);
        assert_eq!(acted("chown -h u x").1, Last::Keep);
        assert_eq!(
            acted("find -L a b -name x -delete"),
            (vec!["a".into(), "b".into()], Last::Follow)
        );
        assert_eq!(
            acted("find -D tree -O2 a -delete"),
            (vec!["a".into()], Last::Keep)
        );
        assert_eq!(
            acted("dd if=/dev/zero of=d bs=1M"),
            (vec!["/dev/zero".into(), "d".into()], Last::Follow)
        );
        assert_eq!(acted("rsync -a --delete src/ dest").0, ["dest"]);
        assert_eq!(acted("tar -xf a.tar -C out").0, ["out"]);
        assert_eq!(acted("tar -xf a.tar --directory=out").0, ["out"]);
        assert_eq!(acted("unzip a.zip -d out").0, ["out"]);
        assert_eq!(acted("mkfs.ext4 -F d"), (vec!["d".into()], Last::Follow));
        assert_eq!(acted("shred -u f").1, Last::Follow);
        let analysis = crate::shell::analyze("rsync -a src/ dest");
        assert!(acts_on(&analysis.commands[0]).is_none());
        assert!(acts_on(&crate::shell::analyze("ls x").commands[0]).is_none());
    }
}
