//! Programs that edit a file they are named in place, most of them configuration editors: `git config --file F`, `crudini --set F`, `dasel put -f F`, `npm config set --userconfig F`, `sponge F`, `sd`, `dos2unix`, `xmlstarlet ed -L`, `json -I -f F`, `plutil -replace`, `PlistBuddy -c Set…`, `kwriteconfig5 --file F`.
//!
//! Each is one more spelling of a write: the path rules judge the file it
//! edits as they judge `sed -i` on it.

use super::{FileOption, How, Uses};
use crate::rules::opts::{parse_opts, Spec, GNU};
use crate::shell::Command;

/// The files `cmd` edits or reads, when it is one of these editors; `false`
/// when it is none (the caller tries its other spellings).
pub(super) fn uses<'c>(cmd: &'c Command, u: &mut Uses<'c>) -> bool {
    let args = &cmd.args;
    match cmd.program.as_str() {
        "git" => git_config(cmd, u),
        "crudini" => crudini(args, u),
        "dasel" => dasel(args, u),
        "npm" | "pnpm" => npm_config(args, u),
        "sponge" => {
            let o = parse_opts(args, &GNU);
            u.adds(&o.operands[..o.operands.len().min(1)], How::Redirect);
        }
        "sd" => {
            #[rustfmt::skip]
            let o = parse_opts(args, &Spec::gnu("fn", &["flags", "max-replacements"]));
            // `sd FIND REPLACE FILE...`: without files it filters stdin.
            if !(o.flag('p') || o.long("preview", 3)) {
                u.adds(o.operands.get(2..).unwrap_or_default(), How::EditShort);
            }
        }
        "dos2unix" | "unix2dos" | "mac2unix" | "unix2mac" => newline_converter(args, u),
        "xmlstarlet" | "xml" => xmlstarlet(args, u),
        "json" => {
            // trentm's `json -I -f FILE -e CODE`.
            let o = parse_opts(args, &Spec::gnu("fedcaAkDjo", &[]));
            let how = if o.flag('I') || o.long("in-place", 3) {
                How::EditShort
            } else {
                How::Read
            };
            if let Some(file) = o.value('f') {
                u.add(file, how);
            }
        }
        "plutil" => plutil(args, u),
        "plistbuddy" => plist_buddy(args, u),
        "kwriteconfig5" | "kwriteconfig6" => {
            if let Some(file) = option_value(args, &["--file"]) {
                u.add(file, How::EditShort);
            }
        }
        _ => return false,
    }
    true
}

/// dos2unix and its kin: each file converted in place, or with `-n IN OUT`
/// IN read and OUT written.
fn newline_converter<'c>(args: &'c [String], u: &mut Uses<'c>) {
    let o = parse_opts(args, &Spec::gnu("c", &["convmode"]));
    if o.flag('n') || o.long("newfile", 3) {
        for pair in o.operands.chunks(2) {
            u.add(pair[0], How::Read);
            if let Some(out) = pair.get(1) {
                u.add(*out, How::Redirect);
            }
        }
    } else {
        u.adds(&o.operands, How::EditShort);
    }
}

/// `xmlstarlet ed -L ... FILE` edits the file, which comes last.
fn xmlstarlet<'c>(args: &'c [String], u: &mut Uses<'c>) {
    let editing = args
        .first()
        .is_some_and(|a| matches!(a.as_str(), "ed" | "edit"));
    let in_place = args.iter().any(|a| a == "-L" || a == "--inplace");
    if let (true, true, Some(file)) = (editing, in_place, args.last()) {
        u.add(file.as_str(), How::EditShort);
    }
}

/// macOS `plutil`: an edit (`-replace KEY -string V FILE`) edits the file
/// named last; `-o OUT` writes OUT instead.
fn plutil<'c>(args: &'c [String], u: &mut Uses<'c>) {
    const EDITS: &[&str] = &["-insert", "-replace", "-remove", "-convert"];
    let edits = args.iter().any(|a| EDITS.contains(&a.as_str()));
    let out = option_value(args, &["-o"]);
    match (edits, out, args.last()) {
        (_, Some(out), _) => u.add(out, How::Redirect),
        (true, None, Some(file)) => u.add(file.as_str(), How::EditShort),
        _ => {}
    }
}

/// `PlistBuddy -c 'Set :k v' FILE`: the file is edited when a command
/// given with `-c` edits, and read otherwise.
fn plist_buddy<'c>(args: &'c [String], u: &mut Uses<'c>) {
    const EDITS: &[&str] = &["set", "add", "delete", "merge", "import", "clear", "save"];
    let edits = option_values(args, "-c").any(|c| {
        let verb = c.split_whitespace().next().unwrap_or("");
        EDITS.contains(&verb.to_ascii_lowercase().as_str())
    });
    if let Some(file) = args.last().filter(|f| !f.starts_with('-')) {
        u.add(
            file.as_str(),
            if edits { How::EditShort } else { How::Read },
        );
    }
}

/// The value of the first option spelled one of `names` (`--name V`,
/// `--name=V`).
fn option_value<'c>(args: &'c [String], names: &[&str]) -> Option<&'c str> {
    args.iter().enumerate().find_map(|(i, a)| {
        if names.contains(&a.as_str()) {
            return args.get(i + 1).map(String::as_str);
        }
        let (name, value) = a.split_once('=')?;
        names.contains(&name).then_some(value)
    })
}

/// Every value given to the option `name` (`-c V`).
fn option_values<'c>(args: &'c [String], name: &'c str) -> impl Iterator<Item = &'c str> {
    args.windows(2)
        .filter(move |w| w[0] == name)
        .map(|w| w[1].as_str())
}

#[rustfmt::skip]
const GIT_CONFIG: Spec = Spec::gnu("f", &["file", "blob", "type", "default", "comment", "value", "url", "fixed-value"]);

/// `git config --file F` (or `-f F`): F is written unless the call only
/// reads (`--get`, `--list`, `get`, one key and no value).
fn git_config<'c>(cmd: &'c Command, u: &mut Uses<'c>) {
    let Some(("config", args)) = crate::rules::git::subcommand(cmd) else {
        return;
    };
    let o = parse_opts(args, &GIT_CONFIG);
    let Some(file) = o.value('f').or(o.long_value("file", 3)) else {
        return;
    };
    // A repository's own config is what `git config` writes anyway, and
    // git runs the commands stored there judged as they are set.
    if file == ".git/config" || file.ends_with("/.git/config") {
        return;
    }
    #[rustfmt::skip]
    const WRITES: &[&str] = &["unset", "unset-all", "add", "replace-all", "rename-section", "remove-section", "edit"];
    #[rustfmt::skip]
    const READS: &[&str] = &["get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "list", "show-origin", "show-scope", "name-only"];
    let write_option = o.longs.iter().any(|(k, _)| WRITES.contains(k)) || o.flag('e');
    let read_option = o.flag('l') || o.longs.iter().any(|(k, _)| READS.contains(k));
    let writes = match o.operands.first() {
        // The subcommands of git 2.46.
        Some(&("set" | "unset" | "rename-section" | "remove-section" | "edit")) => true,
        Some(&("get" | "list")) => false,
        _ => write_option || !read_option && o.operands.len() >= 2,
    };
    u.add(file, if writes { How::EditShort } else { How::Read });
}

/// `crudini --set|--del|--merge FILE ...`; `--get` reads it, and `--output`
/// writes another file instead.
fn crudini<'c>(args: &'c [String], u: &mut Uses<'c>) {
    const FILES: &[FileOption] = &[(' ', "output", How::Redirect)];
    let o = parse_opts(
        args,
        &Spec::gnu("", &["output", "format", "existing", "ini-options"]),
    );
    u.option_files(&o, FILES);
    let edits = ["set", "del", "merge"].iter().any(|k| o.long(k, 3));
    let how = if edits && !o.long("output", 3) {
        How::EditShort
    } else {
        How::Read
    };
    u.adds(&o.operands[..o.operands.len().min(1)], how);
}

/// `dasel put|delete -f FILE` edits FILE unless `-o`/`--out` names another;
/// other subcommands read it.
fn dasel<'c>(args: &'c [String], u: &mut Uses<'c>) {
    #[rustfmt::skip]
    let o = parse_opts(args, &Spec::gnu("fortvsdwr", &["file", "out", "read", "write", "type", "value", "selector", "parser"]));
    let edits = o
        .operands
        .first()
        .is_some_and(|s| matches!(*s, "put" | "delete"));
    let out = o.value('o').or(o.long_value("out", 3));
    if let Some(out) = out.filter(|o| *o != "-") {
        u.add(out, How::Redirect);
    }
    if let Some(file) = o.value('f').or(o.long_value("file", 3)) {
        u.add(
            file,
            if edits && out.is_none() {
                How::EditShort
            } else {
                How::Read
            },
        );
    }
}

/// `npm config set|delete|edit --userconfig F` (or `--globalconfig F`).
fn npm_config<'c>(args: &'c [String], u: &mut Uses<'c>) {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let writes = words.windows(2).any(|w| {
        matches!(w[0], "config" | "c") && matches!(w[1], "set" | "delete" | "edit" | "rm")
    });
    if !writes {
        return;
    }
    for name in ["--userconfig", "--globalconfig"] {
        if let Some(file) = option_value(args, &[name]) {
            u.add(file, How::EditShort);
        }
    }
}
