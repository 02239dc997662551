//! The words of a command run as root that no row of the model knows: whether they say it only reads, or that it changes the system.

use crate::rules::opts::{parse_opts, GNU};
use crate::rules::targets::{classify, Target};
use crate::shell::Command;

/// A program from the system's own directories, named or found on `PATH`,
/// not a script or a program of the project's.
pub(super) fn installed(cmd: &Command) -> bool {
    crate::rules::installed_program(&cmd.path)
}

/// An interpreter by its name with any version (`python3.12`, `Rscript`),
/// not every program whose name begins like one (`rkhunter`, `phpquery`).
pub(super) fn interpreter(cmd: &Command) -> bool {
    crate::shell::interpreter_language(&cmd.program.to_ascii_lowercase()).is_some()
}

/// A program whose name begins like an interpreter's: the word-reading
/// judgements below do not trust such a name (`rkhunter` and `resolvectl`
/// are caught with `R`, which asks more than it must, never less).
fn named_like_interpreter(cmd: &Command) -> bool {
    crate::shell::interpreter_names().any(|i| cmd.program.starts_with(i))
}

/// Subcommands that read: `btrfs filesystem show`, `semanage boolean
/// --list`, `tlmgr info x`. Looked for among the first two operands.
const READ_VERBS: &[&str] = &[
    "show",
    "list",
    "ls",
    "status",
    "info",
    "get",
    "print",
    "display",
    "query",
    "search",
    "stats",
    "stat",
    "top",
    "monitor",
    "describe",
    "inspect",
    "version",
    "help",
    "history",
    "report",
    "lookup",
    "view",
    "verify",
    "find",
    "usage",
    "df",
    "du",
    "summary",
    "dump-config",
    "tail",
    "logs",
];
/// Words that change something, wherever they stand among the operands.
const WRITE_VERBS: &[&str] = &[
    "add",
    "del",
    "delete",
    "set",
    "remove",
    "rm",
    "create",
    "destroy",
    "apply",
    "install",
    "uninstall",
    "enable",
    "disable",
    "start",
    "stop",
    "restart",
    "reset",
    "format",
    "wipe",
    "write",
    "load",
    "unload",
    "update",
    "upgrade",
    "purge",
    "erase",
    "clear",
    "flush",
    "kill",
    "mount",
    "umount",
    "unmount",
    "attach",
    "detach",
    "modify",
    "mod",
    "change",
    "replace",
    "import",
    "resize",
    "rename",
    "move",
    "mv",
    "cp",
    "copy",
    "sync",
    "push",
    "pull",
    "run",
    "exec",
    "fix",
    "repair",
    "edit",
    "new",
    "up",
    "down",
    "on",
    "off",
    "commit",
    "restore",
    "rollback",
    "activate",
    "deactivate",
    "lock",
    "unlock",
    "grant",
    "revoke",
    "allow",
    "deny",
    "trust",
    "join",
    "leave",
    "connect",
    "disconnect",
    "send",
    "prune",
    "clean",
    "balance",
    "convert",
    "rebuild",
    "generate",
    "register",
    "unregister",
    "save",
    "switch",
    "use",
];
/// Options that only ask for a listing, a status or a dry run.
const READ_FLAGS: &[&str] = &[
    "-l",
    "--list",
    "-L",
    "--status",
    "--show",
    "-V",
    "--version",
    "--info",
    "--query",
    "--dry-run",
    "--list-all",
    "--print",
    "--check",
    "--stats",
    "--summary",
    "--verbose",
    "-v",
];
/// Parts of a program's name that say it reports (`aa-status`,
/// `ausearch`, `slabtop`, `tlp-stat`, `a2query`, `grub-probe`, `lxc-ls`).
const READ_NAMES: &[&str] = &[
    "stat", "status", "top", "info", "search", "report", "query", "ls", "list", "show", "probe",
    "checker", "monitor",
];
const READ_SUFFIXES: &[&str] = &["stat", "top", "search", "report", "query", "info", "status"];

/// Whether a program the model has no row for reads, by what its words
/// say: a reading subcommand, only listing options, or a name that says it
/// reports, and no word that changes anything. Scripts (`./x`, `/tmp/x`)
/// and interpreters have no such words to go by.
pub(super) fn reads_by_its_words(cmd: &Command) -> bool {
    if !installed(cmd) || named_like_interpreter(cmd) {
        return false;
    }
    let opts = parse_opts(&cmd.args, &GNU);
    let writes = opts
        .operands
        .iter()
        .any(|o| WRITE_VERBS.contains(&o.to_ascii_lowercase().as_str()));
    if writes {
        return false;
    }
    let verb = opts.operands.iter().take(2).any(|o| {
        let o = o.to_ascii_lowercase();
        READ_VERBS.contains(&o.as_str())
            || ["list-", "show-", "get-", "is-"]
                .iter()
                .any(|p| o.starts_with(p))
    });
    let options: Vec<&str> = cmd
        .args
        .iter()
        .map(String::as_str)
        .filter(|a| a.starts_with('-'))
        .collect();
    // `semanage port -l` lists; `umount -l /home` is lazy about a path.
    let listing = !options.is_empty()
        && options
            .iter()
            .all(|o| READ_FLAGS.contains(&o.split('=').next().unwrap_or(o)))
        && !opts.operands.iter().any(|o| o.contains('/'));
    let name = cmd.program.as_str();
    let named = name
        .split(['-', '_', '.'])
        .any(|part| READ_NAMES.contains(&part))
        || (READ_SUFFIXES.iter().any(|s| name.ends_with(s)) && !name.ends_with("stop"));
    verb || listing
        || (named
            && options
                .iter()
                .all(|o| !o.contains("write") && !o.contains("delete")))
}

/// Whether a program no row knows says by its words that it changes the
/// system: it is not an installed program (a script, a path of its own,
/// an interpreter), a subcommand or option names a change, or an operand
/// is a device, `/` or a system directory. A tool that shows none of these
/// (`sudo trace-cmd record`, `sudo netselect host…`) is a diagnostic run
/// as root, and asking for each would bury the asks that matter.
pub(super) fn changes_by_its_words(cmd: &Command) -> bool {
    if !installed(cmd) || cmd.dynamic || named_like_interpreter(cmd) {
        return true;
    }
    let opts = parse_opts(&cmd.args, &GNU);
    let verb = |w: &str| WRITE_VERBS.contains(&w.to_ascii_lowercase().as_str());
    let names_change = cmd.args.iter().any(|a| match a.strip_prefix("--") {
        Some(long) => long
            .split(['-', '=', '_'])
            .any(|part| verb(part) || matches!(part, "force" | "yes" | "auto" | "autonuke")),
        None => !a.starts_with('-') && verb(a),
    });
    let reaches_system = opts.operands.iter().any(|o| {
        o.starts_with("/dev/")
            || matches!(
                classify(o, cmd.cwd.as_deref()),
                Target::Root | Target::System | Target::Unknown
            )
    });
    // `add-apt-repository`, `update-alternatives`: the verb in the name;
    // `removepkg`, `restorecond`: a long verb the name begins with.
    let named_change = cmd.program.split(['-', '_']).any(verb)
        || WRITE_VERBS
            .iter()
            .any(|v| v.len() >= 6 && cmd.program.starts_with(v));
    names_change || named_change || reaches_system
}
