//! Built-in rules: deleting, re-permissioning, re-owning, formatting and raw-copying files and disks.
//!
//! Where a rule judges a path it uses [`classify`] with the command's `cwd`
//! (`cd .. && rm -rf build` deletes `../build`), so deleting build output in
//! the project or a temporary directory passes while the same command aimed
//! elsewhere asks. Whole root, system and home trees are the hardline's.

use std::borrow::Cow;

use super::opts::{parse_opts, Spec, GNU, MODE, RSYNC};
use super::paths::{any_operand, basename, components, is_sensitive, resolve};
use super::targets::{classify, is_block_device, Target};
use super::{Matcher, Rule};
use crate::shell::{program_name, Command};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    // Deletion through another program first, so the verdict names how the
    // targets are chosen rather than the `rm` it starts.
    Rule {
        id: "fs.xargs-rm",
        category: "xargs with rm",
        reason: "the files to delete come from input warden cannot see",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["xargs", "parallel", "rm"], check: xargs_rm },
        hits: &["xargs -a list.txt rm -rf", "find ~ -name '*.tmp' | xargs rm -f", "cat files.txt | xargs -I{} rm {}", "find . -print0 | xargs -0 sudo rm"],
        misses: &["find . -name '*.o' | xargs rm -f", "xargs -a list.txt echo rm", "xargs grep -l rm", "find . | xargs ls", "echo xargs rm", "rm -rf node_modules"],
    },
    Rule {
        id: "fs.find-exec-rm",
        category: "find -exec/-execdir rm",
        reason: "it deletes every file the search matches, which is easy to get wrong and cannot be undone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["find"], check: find_exec_rm },
        hits: &["find . -name '*.log' -exec rm {} \\;", "find build -type f -execdir /bin/rm -f {} +", "find . -name '*.bak' -ok rm {} \\;"],
        misses: &["find . -name '*.log' -exec ls -l {} \\;", "find . -name rm", "find . -exec echo rm {} \\;", "find /tmp/build -exec rm {} +", "find . -name __pycache__ -prune -exec rm -rf {} +"],
    },
    Rule {
        id: "fs.find-delete",
        category: "find -delete",
        reason: "it deletes every file the search matches, which is easy to get wrong and cannot be undone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["find"], check: find_delete },
        hits: &["find . -name '*.pyc' -delete", "find build -type f -delete", "find . -name '*.pyc' -o -name '*.py' -delete", "find . -{delete,print}", "find . \"-$(echo delete)\"", "find ../cache -mtime +7 -delete"],
        misses: &["find . -name '*.pyc'", "find /tmp/build -delete", "find . -name -delete", "echo find . -delete", "grep -r -- -delete ."],
    },
    Rule {
        id: "fs.find-dynamic-flag",
        category: "find dynamic shell word may expand to destructive flag",
        reason: "a word only known at run time can become -delete or -exec",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["find"], check: find_dynamic_flag },
        hits: &["find . -$ACTION", "find . \"-$(cat action.txt)\"", "find src -name '*.tmp' $CLEANUP"],
        misses: &["find . -name \"$PATTERN\"", "find \"$DIR\" -type f", "find . -newer \"$REF\" -print"],
    },
    Rule {
        id: "fs.delete-root-path",
        category: "delete in root path",
        reason: "it removes a file the operating system or installed software relies on",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm", "unlink"], check: delete_root_path },
        hits: &["rm /etc/hosts", "rm -f /usr/local/bin/node", "sudo rm /var/log/syslog", "unlink /etc/localtime"],
        misses: &["rm -f /tmp/x.lock", "rm notes.txt", "rm -rf /tmp/foo 2>/dev/null", "echo rm /etc/hosts", "ls /etc/hosts", "rm ~/notes.txt"],
    },
    Rule {
        id: "fs.recursive-delete",
        category: "recursive delete",
        reason: "it deletes whole directory trees outside the project (or the project's git history) for good",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: |c| recursive_delete(c, Recursion::Short) },
        hits: &["cd .. && rm -rf build", "rm -rf ../other-project", "rm -r ~/Downloads/old", "rm -rf $BUILD_DIR", "rm -rf *", "rm -fr /opt/myapp", "rm -rf .git"],
        misses: &["rm -rf node_modules dist .next", "rm -rf /tmp/build-cache", "rm -rf \"$TMPDIR/test-dir\"", "rm -rf /tmp/foo 2>/dev/null", "rm -f ../notes.txt", "rm --recursive ../x", "rm ../x -rf", "echo rm -rf ../x", "rm -rf .git/hooks", "rm -rf ~/.cache/pip", "rm -rf ~/.npm/_cacache", "rm -rf ~/Library/Developer/Xcode/DerivedData", "rm -rf /var/lib/apt/lists/*"],
    },
    Rule {
        id: "fs.recursive-delete-long",
        category: "recursive delete (long flag)",
        reason: "it deletes whole directory trees outside the project (or the project's git history) for good",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: |c| recursive_delete(c, Recursion::Long) },
        hits: &["rm --recursive ../x", "rm --recursive --force ~/old-checkout", "rm --rec -f $OUT"],
        misses: &["rm --recursive node_modules", "rm -rf ../x", "rm --force ../x.txt"],
    },
    Rule {
        id: "fs.recursive-delete-after",
        category: "recursive delete (flags after operands)",
        reason: "it deletes whole directory trees outside the project (or the project's git history) for good",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: |c| recursive_delete(c, Recursion::After) },
        hits: &["rm ../build -rf", "rm ~/scratch/old -r -f"],
        misses: &["rm build/ -rf", "rm -rf ../x", "rm ../x -f"],
    },
    Rule {
        id: "fs.recursive-delete-in-project",
        category: "recursive delete inside the project",
        reason: "it deletes a directory of the project for good; build outputs and caches, which come back by themselves, are not asked about",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: deletes_project_tree },
        hits: &["rm -rf src", "rm -r docs/api", "rm --recursive --force migrations", "rm lib -rf", "ln -s build/out latest; rm -rf latest/"],
        misses: &["rm -rf node_modules dist .next", "rm -rf target", "rm -rf build/ coverage .pytest_cache", "rm -rf coverage htmlcov DerivedData Pods .terraform test-results", "rm -rf web/node_modules", "rm -rf /tmp/build-cache", "rm -f notes.txt", "rm -rf __pycache__ .venv", "rm -rf packages/app/dist", "rm -r -f target/debug", "cd build && rm -rf *", "ln -sfn /tmp/build out && rm -rf out/"],
    },
    Rule {
        id: "fs.delete-toolchain",
        category: "delete a toolchain under /usr/local",
        reason: "it removes an installed compiler or runtime that other software may use; replacing it in the same command, as install guides do, is not asked about",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(deletes_toolchain),
        hits: &["sudo rm -rf /usr/local/go", "rm -rf /usr/local/node-v18.17.0-linux-x64", "sudo rm -rf /usr/local/cuda-11.8 && echo done"],
        misses: &["sudo rm -rf /usr/local/go && sudo tar -C /usr/local -xzf go1.22.5.linux-amd64.tar.gz", "rm -rf /usr/local/julia && tar -xzf julia.tar.gz --directory=/usr/local", "rm -rf /usr/local/zig && mv zig-linux-x86_64 /usr/local/zig", "ls /usr/local/go"],
    },
    Rule {
        id: "fs.delete-sensitive-file",
        category: "delete sensitive credential/SSH/shell-rc file",
        reason: "keys, credentials and shell start-up files are hard or impossible to recreate",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm", "unlink", "shred", "srm"], check: |c| any_operand(c, is_sensitive) },
        hits: &["rm ~/.ssh/id_ed25519", "rm -f ~/.aws/credentials", "shred -u ~/.gnupg/private-keys-v1.d/key.key"],
        misses: &["rm ~/notes.txt", "rm .bashrc.bak", "cat ~/.ssh/id_ed25519.pub", "rm ./dotfiles/.bashrc"],
    },
    Rule {
        id: "fs.rsync-delete",
        category: "rsync --delete outside the project",
        reason: "files at the destination that are not in the source are deleted",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rsync"], check: rsync_delete },
        hits: &["rsync -a --delete src/ ../backup/", "rsync -av --delete ./site/ /srv/www/", "rsync -a --delete-after dist/ deploy@web:/srv/app/"],
        misses: &["rsync -a --delete src/ build/", "rsync -av src/ ../backup/", "rsync -a --delete /tmp/a/ /tmp/b/"],
    },
    Rule {
        id: "fs.world-writable-long",
        category: "recursive world/other-writable (long flag)",
        reason: "any user or process on the machine could then change these files",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chmod"], check: world_writable_long },
        hits: &["chmod --recursive 777 dir", "chmod --recursive a+w shared/"],
        misses: &["chmod --recursive 755 dir", "chmod --recursive u+w build/", "chmod 755 x"],
    },
    Rule {
        id: "fs.world-writable",
        category: "world/other-writable permissions",
        reason: "any user or process on the machine could then change these files",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chmod", "mkdir", "install"], check: world_writable },
        hits: &["chmod 777 x", "chmod -R 777 shared/", "chmod o+w /srv/data", "chmod 0666 app.sock", "chmod a+rwx,o-x f", "chmod o=u secrets.txt", "mkdir -m 777 /srv/shared"],
        misses: &["chmod -R u+w build/", "chmod 755 deploy.sh", "chmod +x run.sh", "chmod g+w file", "chmod o-w file", "chmod a=rx dir", "chmod 1755 dir", "mkdir -m 755 out", "echo chmod 777 x"],
    },
    Rule {
        id: "fs.chown-root-long",
        category: "recursive chown to root (long flag)",
        reason: "the files become root's, and the user can no longer change or delete them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chown"], check: |c| chown_to_root(c) == Some(true) },
        hits: &["chown --recursive root /srv/app", "chown --recursive root:root ./dist"],
        misses: &["chown --recursive www-data /srv/app", "chown root file.txt"],
    },
    Rule {
        id: "fs.chown-root",
        category: "recursive chown to root",
        reason: "the files become root's, and the user can no longer change or delete them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chown"], check: |c| chown_to_root(c) == Some(false) },
        hits: &["chown -R root:root ./dist", "sudo chown -R 0:0 /opt/app", "chown root:root build -R"],
        misses: &["chown -R $USER:staff build", "chown root file.txt", "chown -R rootless x", "chown -R :root shared"],
    },
    Rule {
        id: "fs.format-filesystem",
        category: "format filesystem",
        reason: "formatting erases whatever the target holds",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["mkfs*", "mke2fs", "mkswap", "mkdosfs", "newfs*"], check: format_filesystem },
        hits: &["mkfs.ext4 /srv/images/disk.img", "mkfs.xfs $DEV", "mke2fs -F ~/vm.img", "mkswap /swapfile"],
        misses: &["mkfs.ext4 -F ./disk.img", "mkfs.ext4 disk.img", "command -v mkfs", "echo mkfs.ext4 /srv/x", "man mkfs"],
    },
    Rule {
        id: "fs.partition-editor",
        category: "interactive partition editor on a disk",
        reason: "fdisk, gdisk and cfdisk rewrite the partition table when told to; a person at the terminal should drive them, not an agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["fdisk", "gdisk", "cfdisk", "cgdisk"], check: edits_partitions },
        hits: &["fdisk /dev/sda", "sudo gdisk /dev/nvme0n1", "cfdisk /dev/sdb"],
        misses: &["fdisk -l", "fdisk -l /dev/sda", "gdisk -l /dev/sda", "fdisk disk.img"],
    },
    Rule {
        id: "fs.bootloader-install",
        category: "install a boot loader or change boot entries",
        reason: "it writes a boot loader to a disk or changes what the firmware boots; a mistake leaves the machine unable to start",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["grub-install", "grub2-install", "efibootmgr", "bootctl", "lilo", "syslinux", "extlinux"], check: installs_bootloader },
        hits: &["grub-install /dev/sda", "sudo grub2-install --target=i386-pc /dev/sdb", "efibootmgr -B -b 0003", "bootctl install", "efibootmgr -o 0001,0002"],
        misses: &["grub-install --version", "efibootmgr", "efibootmgr -v", "bootctl status"],
    },
    Rule {
        id: "fs.disk-copy",
        category: "disk copy",
        reason: "it reads a whole raw disk, which can expose every file on it and fill the destination",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["dd"], check: disk_copy },
        hits: &["dd if=/dev/sda of=backup.img", "dd if=/dev/nvme0n1 of=~/disk.img bs=4M status=progress", "sudo dd if=/dev/disk2 of=usb.img"],
        misses: &["dd if=/dev/zero of=./image.bin bs=1M count=10", "dd if=./image.bin of=./copy.bin", "echo if=/dev/sda", "dd if=/dev/urandom of=key.bin bs=32 count=1"],
    },
    Rule {
        id: "fs.move-away",
        category: "move a directory outside the project to temp or /dev/null",
        reason: "the files leave their place for somewhere that is cleaned or discards them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["mv"], check: move_away },
        hits: &["mv ~/project /tmp/gone", "mv ../other /dev/null", "mv /opt/app /var/tmp/x"],
        misses: &["mv build /tmp/old-build", "mv notes.txt docs/", "mv /tmp/a /tmp/b"],
    },
];

/// `mv` of something outside the project (or a whole tree) into a temp
/// directory or `/dev/null`.
fn move_away(cmd: &Command) -> bool {
    let operands = cmd.operands();
    let Some((dest, sources)) = operands.split_last() else {
        return false;
    };
    let cwd = cmd.cwd.as_deref();
    let discarding = *dest == "/dev/null" || classify(dest, cwd) == Target::Temp;
    // Shell history files have their own, more specific rule (`admin.history-wipe`).
    discarding
        && sources.iter().any(|s| {
            !s.ends_with("_history")
                && matches!(
                    classify(s, cwd),
                    Target::Outside | Target::Unknown | Target::WorkingDir
                )
        })
}

// ---------------------------------------------------------------------------
// Deleting.

/// The program a word runs, past `sudo` and similar (`xargs sudo rm`).
fn runs_rm(words: &[&str]) -> bool {
    const WRAPPERS: &[&str] = &["sudo", "doas", "env", "command", "nice", "nohup", "time"];
    let word = words.iter().find(|w| !WRAPPERS.contains(w));
    word.is_some_and(|w| matches!(basename(w), "rm" | "unlink" | "shred"))
}

#[rustfmt::skip]
const XARGS: Spec = Spec { values: "adEILnPs", attached: "eil", long_values: &["arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"], permute: false };

const PARALLEL: Spec = Spec {
    values: "jaISNnL",
    ..XARGS
};

fn xargs_rm(cmd: &Command) -> bool {
    // Whether it removes at all first: most `xargs` lines run no `rm`, and
    // the exemption reads every stage before them.
    let removes = match cmd.program.as_str() {
        "rm" => cmd.via.iter().any(|v| matches!(*v, "xargs" | "parallel")),
        "parallel" => runs_rm(&parse_opts(&cmd.args, &PARALLEL).operands),
        _ => runs_rm(&parse_opts(&cmd.args, &XARGS).operands),
    };
    removes && !names_from_project_find(cmd)
}

/// `find . -name '*.o' | xargs rm -f`: the names are chosen by a filtered
/// `find` inside the project and removed one by one, not recursively.
fn names_from_project_find(cmd: &Command) -> bool {
    const FILTERS: &[&str] = &[
        "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-mtime", "-mmin",
        "-size", "-empty",
    ];
    let rm_args: Vec<&str> = match cmd.program.as_str() {
        "rm" => cmd.args.iter().map(String::as_str).collect(),
        _ => cmd
            .args
            .iter()
            .map(String::as_str)
            .skip_while(|a| program_name(a) != "rm")
            .skip(1)
            .collect(),
    };
    let recursive = rm_args.iter().any(|a| {
        *a == "--recursive"
            || (a.starts_with('-') && !a.starts_with("--") && (a.contains('r') || a.contains('R')))
    });
    !recursive
        && cmd.upstream.iter().any(|u| {
            if u.program != "find" {
                return false;
            }
            let find = parse_find(&u.args);
            u.args.iter().any(|w| FILTERS.contains(&w.as_str()))
                && find.roots.iter().all(|r| {
                    matches!(
                        classify(r, u.cwd.as_deref()),
                        Target::Project | Target::WorkingDir | Target::Temp
                    )
                })
        })
}

/// A `find` command line: start points, expression words, and the commands of `-exec`-like actions.
struct Find<'a> {
    roots: Vec<&'a str>,
    words: Vec<&'a str>,
    /// The values of `-name`, `-path` and their variants.
    names: Vec<&'a str>,
    execs: Vec<Vec<&'a str>>,
    /// `-mindepth 1` or more: the roots' contents, not the roots.
    skips_roots: bool,
    /// Every name filter is a `-name` (a glob over the last component).
    by_name_only: bool,
}

#[rustfmt::skip]
const FIND_VALUED: &[&str] = &[
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname",
    "-ilname", "-type", "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-atime",
    "-ctime", "-mmin", "-amin", "-cmin", "-used", "-inum", "-samefile", "-links", "-maxdepth", "-mindepth",
    "-fstype", "-context", "-printf", "-fprint", "-fprint0", "-fls", "-regextype", "-files0-from",
];

fn parse_find(args: &[String]) -> Find<'_> {
    let (start, _) = crate::shell::find_options(args);
    let mut iter = args[start..].iter().map(String::as_str).peekable();
    let mut find = Find {
        roots: Vec::new(),
        words: Vec::new(),
        names: Vec::new(),
        execs: Vec::new(),
        skips_roots: crate::shell::find_skips_roots(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        ),
        by_name_only: true,
    };
    while let Some(a) =
        iter.next_if(|a| !a.starts_with('-') && !matches!(*a, "(" | "!" | ")" | ","))
    {
        find.roots.push(a);
    }
    while let Some(a) = iter.next() {
        if matches!(a, "-exec" | "-execdir" | "-ok" | "-okdir") {
            find.execs.push(
                iter.by_ref()
                    .take_while(|w| !matches!(*w, ";" | "+"))
                    .collect(),
            );
        } else if matches!(
            a,
            "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename"
        ) {
            find.by_name_only &= a == "-name";
            find.names.extend(iter.next());
        } else if FIND_VALUED.contains(&a) || a.starts_with("-newer") {
            iter.next();
        } else if a == "-fprintf" {
            iter.nth(1);
        } else {
            find.words.push(a);
        }
    }
    find
}

impl Find<'_> {
    /// Temporary directories and caches are scratch space; everywhere else
    /// deleting matches is worth a look.
    fn only_temp(&self, cwd: Option<&str>) -> bool {
        !self.roots.is_empty()
            && self.roots.iter().all(|r| {
                let walked = if self.skips_roots {
                    Cow::Owned(format!("{}/*", r.trim_end_matches('/')))
                } else {
                    Cow::Borrowed(*r)
                };
                matches!(classify(&walked, cwd), Target::Temp | Target::Cache)
            })
    }

    /// Whether every name filter picks a directory tools regenerate
    /// (`-name __pycache__`, `-path '*/node_modules'`) under the project:
    /// deleting what it finds is `rm -rf __pycache__` in every directory.
    fn only_regenerable(&self, cwd: Option<&str>) -> bool {
        // Either side of an `-o` may match anything, and `-not` turns a name around.
        if self
            .words
            .iter()
            .any(|w| matches!(*w, "-o" | "-or" | "-not" | "!"))
        {
            return false;
        }
        let names = &self.names;
        let in_project = self.roots.iter().all(|r| {
            matches!(
                classify(r, cwd),
                Target::Project | Target::WorkingDir | Target::Temp | Target::Cache
            )
        });
        in_project
            && !names.is_empty()
            && names.iter().all(|n| {
                let last = n.trim_end_matches('/').rsplit('/').next().unwrap_or(n);
                REGENERABLE.contains(&last) || last.ends_with(".egg-info")
            })
    }
}

/// What a delete inside the project that a rule asks about removes, for a
/// caller that can read the repository's ignore files: deleting only what
/// git ignores is tidying, as deleting what tools regenerate is.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Deleted<'c> {
    /// The trees `rm -r` deletes that made the rule ask (as written).
    Trees(Vec<&'c str>),
    /// What `find ROOTS -name NAME … -delete` (or `-exec rm`) finds under
    /// each root: files, or directories with `-type d`.
    Found {
        roots: Vec<&'c str>,
        names: Vec<&'c str>,
        dirs: bool,
    },
}

/// What `cmd` deletes, when `rule` is one of the project deletes that git's
/// ignore rules can excuse and the command's words say exactly what it
/// deletes (a `find` with only `-name` filters, no `-o` or `-not`).
pub(crate) fn deleted_in_project<'c>(rule: &Rule, cmd: &'c Command) -> Option<Deleted<'c>> {
    let cwd = cmd.cwd.as_deref();
    match rule.id {
        "fs.recursive-delete-in-project" => {
            let trees: Vec<&str> = cmd
                .operands()
                .into_iter()
                .filter(|p| in_project_tree(p, cwd))
                .collect();
            (!trees.is_empty()).then_some(Deleted::Trees(trees))
        }
        "fs.find-delete" | "fs.find-exec-rm" => {
            let f = parse_find(&cmd.args);
            let plain = f.by_name_only
                && !f.names.is_empty()
                && !f.roots.is_empty()
                && !f
                    .words
                    .iter()
                    .any(|w| matches!(*w, "-o" | "-or" | "-not" | "!" | "," | "-L" | "-follow"));
            let in_project = f
                .roots
                .iter()
                .all(|r| matches!(classify(r, cwd), Target::Project | Target::WorkingDir));
            let dirs = cmd.args.windows(2).any(|w| w[0] == "-type" && w[1] == "d");
            (plain && in_project).then_some(Deleted::Found {
                roots: f.roots,
                names: f.names,
                dirs,
            })
        }
        _ => None,
    }
}

fn find_exec_rm(cmd: &Command) -> bool {
    let f = parse_find(&cmd.args);
    let cwd = cmd.cwd.as_deref();
    !f.only_temp(cwd) && !f.only_regenerable(cwd) && f.execs.iter().any(|e| runs_rm(e))
}

fn find_delete(cmd: &Command) -> bool {
    let f = parse_find(&cmd.args);
    let cwd = cmd.cwd.as_deref();
    !f.only_temp(cwd) && !f.only_regenerable(cwd) && f.words.contains(&"-delete")
}

fn find_dynamic_flag(cmd: &Command) -> bool {
    parse_find(&cmd.args)
        .words
        .iter()
        .any(|w| w.contains(['$', '`']) && w.starts_with(['-', '$', '`']))
}

#[derive(Debug, PartialEq, Eq)]
enum Recursion {
    No,
    /// `-r` before the operands.
    Short,
    /// `--recursive`.
    Long,
    /// `-r` after an operand (GNU rm permutes).
    After,
}

fn rm_recursion(cmd: &Command) -> Recursion {
    let (mut short, mut long, mut after, mut seen_operand) = (false, false, false, false);
    for a in cmd.args.iter().take_while(|a| *a != "--") {
        if let Some(l) = a.strip_prefix("--") {
            let key = l.split('=').next().unwrap_or(l);
            long |= !key.is_empty() && "recursive".starts_with(key);
        } else if a.len() > 1 && a.starts_with('-') {
            if a.contains(['r', 'R']) {
                *(if seen_operand { &mut after } else { &mut short }) = true;
            }
        } else {
            seen_operand = true;
        }
    }
    match (short, long, after) {
        (true, _, _) => Recursion::Short,
        (_, true, _) => Recursion::Long,
        (_, _, true) => Recursion::After,
        _ => Recursion::No,
    }
}

/// Whether deleting `path` recursively leaves the project and temp space, or
/// takes the project's whole git history.
fn risky_tree(path: &str, cwd: Option<&str>) -> bool {
    let whole_git = components(&resolve(path, cwd)).is_some_and(|p| p == [".git"]);
    // A toolchain under /usr/local has a rule of its own (`fs.delete-toolchain`).
    whole_git
        || !matches!(
            classify(path, cwd),
            Target::Project | Target::Temp | Target::Cache | Target::Toolchain
        )
}

/// Directories that tools regenerate: build outputs, dependency trees,
/// virtualenvs and caches.
#[rustfmt::skip]
const REGENERABLE: &[&str] = &[
    "node_modules", "target", "dist", "build", "out", ".next", ".nuxt", ".svelte-kit", ".turbo",
    ".parcel-cache", ".venv", "venv", "__pycache__", ".cache", "coverage", ".nyc_output",
    ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox", ".gradle", ".angular",
    "storybook-static", ".eggs", "htmlcov", ".sass-cache", "tmp", ".tmp", "bin", "obj",
    "DerivedData", "Pods", ".terraform", "test-results", "playwright-report", "_build", "cdk.out",
    ".dart_tool", ".expo", ".serverless", ".aws-sam", ".docusaurus", ".hypothesis", ".vite",
];

/// An `rm -r` of a toolchain under `/usr/local` that nothing on the line
/// puts back (`tar -C /usr/local`, `unzip -d /usr/local`, `mv x /usr/local/y`).
fn deletes_toolchain(analysis: &crate::shell::Analysis) -> Option<String> {
    let deleted = analysis
        .commands
        .iter()
        .find(|c| deletes_toolchain_dir(c))?;
    let reinstalls = analysis.commands.iter().any(installs_into_usr_local);
    (!reinstalls).then(|| deleted.display())
}

/// `rm -r` of a toolchain's directory under `/usr/local`.
pub(super) fn deletes_toolchain_dir(c: &Command) -> bool {
    c.program == "rm"
        && rm_recursion(c) != Recursion::No
        && any_operand(c, |p, cwd| classify(p, cwd) == Target::Toolchain)
}

/// Whether `c` unpacks, moves or copies something into `/usr/local`.
pub(super) fn installs_into_usr_local(c: &Command) -> bool {
    let into = |p: &str| p.trim_end_matches('/').starts_with("/usr/local");
    match c.program.as_str() {
        "tar" | "gtar" | "bsdtar" | "unzip" => super::access::unpacking(c).is_some_and(|u| {
            u.dirs
                .iter()
                .filter_map(|&(index, prefix)| c.args.get(index)?.get(prefix..))
                .any(into)
        }),
        "mv" | "cp" | "ln" | "install" | "rsync" => c.operands().last().is_some_and(|d| into(d)),
        _ => false,
    }
}

/// `rm -r` of a directory inside the project that no tool would bring back.
fn deletes_project_tree(cmd: &Command) -> bool {
    let cwd = cmd.cwd.as_deref();
    rm_recursion(cmd) != Recursion::No && cmd.operands().iter().any(|p| in_project_tree(p, cwd))
}

/// Whether `path` is in the project and not under a directory tools
/// regenerate: anything under one is regenerable too (`target/debug`,
/// `cd build && rm -rf *`).
fn in_project_tree(path: &str, cwd: Option<&str>) -> bool {
    let regenerable = || {
        components(&resolve(path, cwd)).is_some_and(|parts| {
            parts
                .iter()
                .any(|c| REGENERABLE.contains(c) || c.ends_with(".egg-info"))
        })
    };
    classify(path, cwd) == Target::Project && !regenerable()
}

fn recursive_delete(cmd: &Command, kind: Recursion) -> bool {
    rm_recursion(cmd) == kind && any_operand(cmd, risky_tree)
}

fn delete_root_path(cmd: &Command) -> bool {
    let system =
        |p: &str, cwd: Option<&str>| matches!(classify(p, cwd), Target::Root | Target::System);
    rm_recursion(cmd) == Recursion::No && any_operand(cmd, system)
}

fn rsync_delete(cmd: &Command) -> bool {
    let o = parse_opts(&cmd.args, &RSYNC);
    let deletes = o.longs.iter().any(|(k, _)| k.starts_with("del"));
    let Some(dest) = o.operands.last().filter(|_| o.operands.len() >= 2) else {
        return false;
    };
    let remote = dest.starts_with("rsync://")
        || dest
            .split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'));
    deletes
        && (remote
            || !matches!(
                classify(dest, cmd.cwd.as_deref()),
                Target::Project | Target::Temp
            ))
}

// ---------------------------------------------------------------------------
// Permissions and formatting.

/// Whether a chmod mode lets others write: octal with the others' `w` bit,
/// or a symbolic clause for `o`/`a` that adds or sets `w` (or copies `u`/`g`).
fn mode_world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.len() <= 5 && mode.chars().all(|c| c.is_digit(8)) {
        return mode
            .chars()
            .last()
            .and_then(|c| c.to_digit(8))
            .is_some_and(|d| d & 2 != 0);
    }
    mode.split(',').any(|clause| {
        let who_end = clause
            .find(|c: char| !"ugoa".contains(c))
            .unwrap_or(clause.len());
        let others = clause[..who_end].contains(['o', 'a']);
        let mut op = ' ';
        others
            && clause[who_end..].chars().any(|c| {
                if "+-=".contains(c) {
                    op = c;
                    return false;
                }
                op != '-' && (c == 'w' || c == 'u' || c == 'g')
            })
    })
}

fn world_writable(cmd: &Command) -> bool {
    if cmd.program == "chmod" {
        let o = parse_opts(&cmd.args, &GNU);
        return !o.long("reference", 3)
            && o.operands.first().is_some_and(|m| mode_world_writable(m));
    }
    let o = parse_opts(&cmd.args, &MODE);
    o.value('m')
        .or(o.long_value("mode", 2))
        .is_some_and(mode_world_writable)
}

fn world_writable_long(cmd: &Command) -> bool {
    world_writable(cmd) && parse_opts(&cmd.args, &GNU).long("recursive", 3)
}

/// `Some(long)` when chown gives files to root recursively; `long` when by `--recursive`.
fn chown_to_root(cmd: &Command) -> Option<bool> {
    let o = parse_opts(&cmd.args, &GNU);
    let owner = o.operands.first().filter(|_| !o.long("reference", 3))?;
    let user = owner.split([':', '.']).next().unwrap_or(owner);
    if !matches!(user, "root" | "0") {
        return None;
    }
    if o.long("recursive", 3) {
        Some(true)
    } else {
        o.flag('R').then_some(false)
    }
}

fn edits_partitions(cmd: &Command) -> bool {
    let lists = cmd.has_short('l') || cmd.has_long("--list");
    !lists
        && cmd
            .operands()
            .iter()
            .any(|p| super::targets::is_device_path(p))
}

fn installs_bootloader(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "efibootmgr" => cmd.options().any(|o| {
            matches!(o, "-B" | "-c" | "-o" | "-n" | "-a" | "-A" | "-C")
                || [
                    "--delete-bootnum",
                    "--create",
                    "--bootorder",
                    "--bootnext",
                    "--active",
                    "--inactive",
                ]
                .iter()
                .any(|l| o.starts_with(l))
        }),
        "bootctl" => cmd
            .operands()
            .first()
            .is_some_and(|v| matches!(*v, "install" | "update" | "remove")),
        _ => {
            let info = cmd
                .options()
                .any(|o| matches!(o, "--version" | "-V" | "--help" | "-h"));
            !info
                && (cmd.program != "grub-install" && cmd.program != "grub2-install"
                    || !cmd.operands().is_empty())
        }
    }
}

fn format_filesystem(cmd: &Command) -> bool {
    let spec = Spec::gnu("t", &["type"]);
    // A plain file in the project is a disk image being built; a block device is the hardline's.
    parse_opts(&cmd.args, &spec)
        .operands
        .iter()
        .any(|p| classify(p, cmd.cwd.as_deref()) != Target::Project)
}

fn disk_copy(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .filter_map(|a| a.strip_prefix("if="))
        .any(is_block_device)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rm_recursion_and_targets() {
        assert_eq!(
            rm_recursion(&Command::from_words("rm -rf x")),
            Recursion::Short
        );
        assert_eq!(
            rm_recursion(&Command::from_words("rm --rec x")),
            Recursion::Long
        );
        assert_eq!(
            rm_recursion(&Command::from_words("rm x -fR")),
            Recursion::After
        );
        assert_eq!(
            rm_recursion(&Command::from_words("rm -f -- -r")),
            Recursion::No
        );
        let up = Command {
            cwd: Some("..".into()),
            ..Command::from_words("rm -rf build")
        };
        assert!(recursive_delete(&up, Recursion::Short));
        assert!(!recursive_delete(
            &Command::from_words("rm -rf build /tmp/x $TMPDIR/y"),
            Recursion::Short
        ));
        assert!(recursive_delete(
            &Command::from_words("rm -rf ./.git/"),
            Recursion::Short
        ));
        assert!(!delete_root_path(&Command::from_words("rm -r /etc/x")));
    }

    #[test]
    fn find_expression() {
        let line = "-L . src -name -delete -exec rm {} ; -newermt x -fprintf f %p -print";
        let args: Vec<String> = line.split(' ').map(str::to_string).collect();
        let f = parse_find(&args);
        assert_eq!(f.roots, vec![".", "src"]);
        assert_eq!(f.words, vec!["-print"]);
        assert_eq!(f.execs, vec![vec!["rm", "{}"]]);
    }

    #[test]
    fn modes() {
        for m in [
            "777", "0666", "2", "o+w", "a+rw", "go=rwx", "u+x,o+w", "o=u",
        ] {
            assert!(mode_world_writable(m), "{m}");
        }
        for m in ["755", "1775", "u+w", "+w", "o-w", "a=rx", "g+w", "o+rx", ""] {
            assert!(!mode_world_writable(m), "{m}");
        }
    }
}
