//! Built-in rules: privilege given to a file (setuid and setgid bits, file capabilities) and permissions or ownership changed over a whole home, a system tree or the root.

use super::admin::SELF;
use super::opts::{parse_opts, Spec, GNU};
use super::targets::{classify, Target};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs that give a file the setuid or setgid bit: whoever runs it then
/// runs it as its owner (root, as a rule). Plain modes are the neighbours.
#[rustfmt::skip]
static SETUID: &[Verb] = &[
    verb_if("chmod", "", chmod_setuid),
    verb_if("install", "", install_setuid),
    // Interpreter code calling chmod with a mode that has 04000 or 02000.
    verb("python*", r"chmod\b[^;]*?\b0[oO]?[2467][0-7]{3}\b|S_IS[UG]ID"),
    verb("perl", r"chmod\b[^;]*?\b0?[2467][0-7]{3}\b|S_IS[UG]ID"),
    verb("ruby", r"chmod\b[^;]*?\b0[oO]?[2467][0-7]{3}\b"),
    verb("node", r"chmod(?:Sync)?\b[^;]*?\b0[oO]?[2467][0-7]{3}\b"),
];

/// Programs that give a file capabilities beyond the harmless few.
#[rustfmt::skip]
static CAPABILITIES: &[Verb] = &[
    verb_if("setcap", "", setcap_grants),
    verb_if("filecap", "", filecap_grants),
];

/// Programs that change modes, owners, ACLs or flags, judged by how wide
/// their operands reach (a whole home, a system tree, the root).
#[rustfmt::skip]
static AT_SCALE: &[Verb] = &[
    verb_if("chmod", "", chmod_wide),
    verb_if("chown", "", chown_wide),
    verb_if("chgrp", "", chown_wide),
    verb_if("setfacl", "", setfacl_wide),
    verb_if("chflags", "", chflags_wide),
    verb_if("chattr", "", chattr_wide),
    // `find ~ -exec chmod 000 {} +`: the tree is find's starting point.
    verb_if("find", r"-(?:exec|execdir|ok) (?:\S*/)?(?:chmod|chown|chgrp|setfacl|chattr|chflags) ", find_wide),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "perms.setuid",
        category: "make a file setuid or setgid (chmod u+s/4755, install -m 4755)",
        reason: "the file then runs with its owner's rights for whoever starts it: a copied shell made setuid root is a root shell for anyone",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SETUID),
        hits: &["chmod u+s /usr/bin/find", "sudo chmod u+s /bin/bash", "chmod +s /tmp/rootbash", "chmod 4755 /usr/local/bin/tool", "chmod 04755 ./helper", "chmod 6755 /tmp/sh", "chmod g+s /tmp/payload", "chmod 2755 /usr/local/bin/x", "chmod u=rwxs,go=rx ./tool", "install -m 4755 ./helper ./dist/helper", "install --mode=6755 su2 /opt/tools/bin/", "python3 -c \"import os; os.chmod('/tmp/sh', 0o4755)\"", "perl -e 'chmod 04755, \"/tmp/sh\"'"],
        misses: &["chmod +x run.sh", "chmod 755 deploy.sh", "chmod u-s /usr/local/bin/tool", "chmod -s ./a.out", "chmod 0755 tool", "chmod 2775 shared-dir", "chmod g+s /srv/projects/team", "chmod +t drop", "chmod 1755 dir", "install -m 755 tool ~/.local/bin/tool", "install -d -m 2775 /srv/share", "python3 -c \"import os; os.chmod('run.sh', 0o755)\"", "echo chmod u+s x"],
    },
    Rule {
        id: "perms.capabilities",
        category: "give a file root capabilities (setcap cap_setuid+ep, cap_sys_admin, =ep)",
        reason: "a capability such as cap_setuid, cap_sys_admin or cap_dac_override lets the program act as root whoever runs it",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(CAPABILITIES),
        hits: &["setcap cap_setuid+ep /usr/bin/python3", "setcap cap_setuid,cap_setgid+ep /tmp/py", "setcap 'cap_sys_admin+eip' ./tool", "setcap cap_dac_read_search=ep /usr/bin/tar", "setcap =ep /tmp/bin", "setcap all=eip /usr/bin/node", "setcap CAP_SYS_MODULE+ep ./loader", "filecap /tmp/py sys_admin"],
        misses: &["getcap /usr/bin/ping", "setcap -r /usr/bin/tool", "setcap -v cap_net_raw+ep /usr/bin/ping", "setcap cap_net_bind_service=+ep /usr/bin/node", "setcap cap_net_raw+ep /usr/bin/ping", "setcap cap_sys_admin-ep ./tool", "filecap /usr/bin", "filecap /tmp/py none"],
    },
    Rule {
        id: "perms.at-scale",
        category: "change modes, owners, ACLs or flags of a whole home, a system tree or the root (chmod -R 000 ~, chown -R nobody ~, setfacl -R /)",
        reason: "every file under it changes at once: the account or the machine stops working, or other users gain its files, with no record of the old modes to go back to",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(AT_SCALE),
        hits: &["chmod 000 /", "chmod -R 000 ~", "chmod --recursive 000 $HOME", "chmod 000 ~", "chmod -R 755 ~/", "chown -R nobody ~", "sudo chown nobody /", "chown -R 65534 /home/alice", "chgrp -R nogroup ~", "setfacl -R -m u:nobody:rwx /", "setfacl -m u:eve:rwx ~", "sudo setfacl -b /etc", "chmod -R +a 'everyone allow read' ~", "chmod -N ~", "chflags -R hidden ~", "chattr -R +i ~", "chmod 0 /etc", "find ~ -exec chmod 000 {} +"],
        misses: &["chmod -R u+w build", "chown -R $USER ./node_modules", "sudo chown -R $USER:$USER ~", "sudo chown -R $(whoami) ~/.npm", "chmod 700 ~/.ssh", "chmod 755 ~", "chmod 700 ~", "chgrp -R developers ./repo", "setfacl -m u:alice:rw report.txt", "setfacl -R -m g:devs:rwX ./shared", "setfacl -m u:www-data:rx /var/www/app", "chown www-data /var/www/html/uploads", "chflags hidden ~/Desktop/old", "chattr +i ./release.lock", "chmod -R 644 ~/Documents/notes", "find . -type d -exec chmod 755 {} +", "echo chmod -R 000 ~"],
    },
];

// ---------------------------------------------------------------------------
// Modes.

/// The special bits a chmod mode sets: (setuid, setgid). An octal mode sets
/// what its digits say; a symbolic one sets `s` for the classes named (none
/// named is all); `-s` clears and sets nothing.
fn special_bits(mode: &str) -> (bool, bool) {
    if !mode.is_empty() && mode.len() <= 5 && mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        let v = u32::from_str_radix(mode, 8).unwrap_or(0);
        return (v & 0o4000 != 0, v & 0o2000 != 0);
    }
    let (mut uid, mut gid) = (false, false);
    for clause in mode.split(',') {
        let who: &str = &clause[..clause.find(['+', '-', '=']).unwrap_or(clause.len())];
        let (u, g) = if who.is_empty() || who.contains('a') {
            (true, true)
        } else {
            (who.contains('u'), who.contains('g'))
        };
        // Each operator applies to the permission letters that follow it.
        let mut op = ' ';
        for c in clause[who.len()..].chars() {
            match c {
                '+' | '-' | '=' => op = c,
                's' if op != '-' => {
                    uid |= u;
                    gid |= g;
                }
                _ => {}
            }
        }
    }
    (uid, gid)
}

/// chmod's mode and the paths it changes. macOS `-N` (remove the ACL) takes
/// no mode: every operand is a path.
fn chmod_parts(cmd: &Command) -> Option<(Option<&str>, Vec<&str>)> {
    let opts = parse_opts(&cmd.args, &CHMOD);
    if opts.long("reference", 3) {
        return None;
    }
    // GNU reads `chmod -w file` and `chmod -s file` as modes.
    let dash_mode = cmd.args.iter().map(String::as_str).find(|a| {
        a.len() > 1
            && a.starts_with('-')
            && !a.starts_with("--")
            && a[1..].chars().all(|c| "rwxXstugo".contains(c))
    });
    if opts.flag('N') {
        return Some((None, opts.operands));
    }
    match (dash_mode, opts.operands.split_first()) {
        (Some(mode), _) => Some((Some(mode), opts.operands)),
        (None, Some((mode, paths))) => Some((Some(mode), paths.to_vec())),
        (None, None) => None,
    }
}

#[rustfmt::skip]
const CHMOD: Spec = Spec::gnu("", &["reference"]);

fn chmod_setuid(cmd: &Command) -> bool {
    let Some((Some(mode), paths)) = chmod_parts(cmd) else {
        return false;
    };
    match special_bits(mode) {
        (true, _) => true,
        // setgid on a directory makes new files inherit its group, which is
        // what shared directories are for; on a program it is privilege.
        (false, true) => paths
            .iter()
            .any(|p| looks_like_program(p, cmd.cwd.as_deref())),
        (false, false) => false,
    }
}

/// A path that names a program rather than a shared directory: in temp, in
/// a `bin` directory, a shell or interpreter, or a name with an extension.
fn looks_like_program(path: &str, cwd: Option<&str>) -> bool {
    let name = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path);
    classify(path, cwd) == Target::Temp
        || path.split('/').any(|c| c == "bin" || c == "sbin")
        || name.trim_start_matches('.').contains('.')
        || super::accounts::SHELLS.contains(&name)
        || name.starts_with("python")
}

#[rustfmt::skip]
const INSTALL: Spec = Spec::gnu("bgmoSt", &["backup", "group", "mode", "owner", "suffix", "target-directory", "strip-program"]);

fn install_setuid(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &INSTALL);
    let directories = opts.flag('d') || opts.long("directory", 3);
    let mode = opts.value('m').or(opts.long_value("mode", 3));
    !directories && mode.is_some_and(|m| special_bits(m) != (false, false))
}

// ---------------------------------------------------------------------------
// Capabilities.

/// Capabilities that give nothing of root's away: ports below 1024, raw
/// sockets for ping, locked memory, scheduling, alarms, audit writes.
const HARMLESS_CAPS: &[&str] = &[
    "net_bind_service",
    "net_raw",
    "net_broadcast",
    "ipc_lock",
    "sys_nice",
    "sys_resource",
    "wake_alarm",
    "block_suspend",
    "audit_write",
    "lease",
    "sys_tty_config",
];

/// Whether a capability text (`cap_setuid,cap_setgid+ep`, `=ep`, `all=eip`)
/// grants one outside [`HARMLESS_CAPS`].
fn grants_dangerous(text: &str) -> bool {
    text.split_whitespace().any(|clause| {
        let Some(at) = clause.find(['+', '=']) else {
            return false;
        };
        let (caps, rest) = clause.split_at(at);
        // `cap_x-ep` drops; `cap_x=` clears; only flags after + or = grant.
        let flags: String = rest
            .trim_start_matches(['+', '='])
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if flags.is_empty() {
            return false;
        }
        let caps = caps.to_ascii_lowercase();
        // An empty list before `=` names every capability.
        caps.is_empty()
            || caps.split(',').any(|c| {
                let c = c.strip_prefix("cap_").unwrap_or(c);
                c == "all" || !HARMLESS_CAPS.contains(&c)
            })
    })
}

#[rustfmt::skip]
const SETCAP: Spec = Spec::gnu("n", &[]);

fn setcap_grants(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &SETCAP);
    // `-r` removes, `-v` only verifies.
    !opts.flag('r') && !opts.flag('v') && opts.operands.iter().any(|o| grants_dangerous(o))
}

fn filecap_grants(cmd: &Command) -> bool {
    let ops = parse_opts(&cmd.args, &GNU).operands;
    ops.len() >= 2
        && ops[1..].iter().any(|c| {
            let c = c.to_ascii_lowercase();
            c != "none" && !HARMLESS_CAPS.contains(&c.strip_prefix("cap_").unwrap_or(&c))
        })
}

// ---------------------------------------------------------------------------
// Scope.

/// How far a path reaches, for the at-scale rule: the root, a system tree,
/// or a whole home (`~`, `$HOME`, `/home/alice`, `/home/$USER`).
fn reach(path: &str, cwd: Option<&str>) -> Option<Target> {
    match classify(path, cwd) {
        t @ (Target::Root | Target::System | Target::Home) => Some(t),
        Target::Unknown if is_own_home(path) => Some(Target::Home),
        _ => None,
    }
}

/// `/home/$USER` and `/Users/$USER`: the home written through a variable.
fn is_own_home(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    ["/home/", "/Users/"].iter().any(|top| {
        path.strip_prefix(top)
            .is_some_and(|user| SELF.contains(&user))
    })
}

fn recursive(cmd: &Command) -> bool {
    cmd.has_short('R') || cmd.has_long("--recursive")
}

/// A mode that leaves the owner nothing (`000`, `0`, `a-rwx`, `u=`), or
/// opens the tree to everyone (`777`, `o+w`): either breaks a home or a
/// system tree.
fn breaking_mode(mode: &str) -> bool {
    if mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) && !mode.is_empty() {
        let v = u32::from_str_radix(mode, 8).unwrap_or(0);
        return v & 0o700 == 0 || v & 0o002 != 0;
    }
    mode.split(',').any(|clause| {
        let who = &clause[..clause.find(['+', '-', '=']).unwrap_or(clause.len())];
        let owner = who.is_empty() || who.contains('a') || who.contains('u');
        let rest = &clause[who.len()..];
        (owner && (rest.starts_with("-rwx") || rest == "=" || rest.starts_with("-rw")))
            || ((who.contains('o') || who.contains('a'))
                && rest.starts_with('+')
                && rest.contains('w'))
    })
}

fn chmod_wide(cmd: &Command) -> bool {
    let Some((mode, paths)) = chmod_parts(cmd) else {
        return false;
    };
    let acl = mode.is_none_or(|m| m.starts_with(['+', '-', '=']) && m[1..].starts_with('a'));
    let deep = recursive(cmd);
    paths.iter().any(|p| match reach(p, cmd.cwd.as_deref()) {
        // The floor blocks recursive changes of a system tree; one
        // directory of it changed on its own still asks.
        Some(Target::Root | Target::System) => acl || deep || mode.is_some_and(breaking_mode),
        // A home's own mode is the owner's business (`chmod 700 ~`, `755 ~`)
        // unless it locks them out; the whole tree at once is not.
        Some(_) => deep || acl || mode.is_some_and(breaking_mode),
        None => false,
    })
}

fn is_self_owner(owner: &str) -> bool {
    const IDS: &[&str] = &[
        "$(id -u)",
        "$(id -g)",
        "$(id -gn)",
        "$UID",
        "${UID}",
        "staff",
    ];
    owner
        .split([':', '.'])
        .next()
        .is_some_and(|u| SELF.contains(&u) || IDS.contains(&u))
}

fn chown_wide(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &Spec::gnu("", &["reference", "from"]));
    let Some((owner, paths)) = opts
        .operands
        .split_first()
        .filter(|_| !opts.long("reference", 3))
    else {
        return false;
    };
    // A system tree given away recursively is the floor's to block; one
    // directory of it changed as root is the privileged rule's to judge.
    !is_self_owner(owner)
        && paths.iter().any(|p| {
            matches!(
                reach(p, cmd.cwd.as_deref()),
                Some(Target::Root | Target::Home)
            )
        })
}

#[rustfmt::skip]
const SETFACL: Spec = Spec::gnu("mMxX", &["modify", "modify-file", "remove", "remove-file", "set", "set-file"]);

fn setfacl_wide(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &SETFACL);
    let sweeping = recursive(cmd)
        || opts.flag('b')
        || opts.flag('k')
        || opts.long("remove-all", 8)
        || opts.long("remove-default", 8);
    opts.operands
        .iter()
        .any(|p| match reach(p, cmd.cwd.as_deref()) {
            Some(Target::System) => sweeping,
            Some(_) => true,
            None => false,
        })
}

fn chflags_wide(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &GNU);
    let deep = opts.flag('R');
    opts.operands
        .iter()
        .skip(1)
        .any(|p| match reach(p, cmd.cwd.as_deref()) {
            Some(Target::System) => deep,
            Some(_) => true,
            None => false,
        })
}

/// chattr's modes look like options (`-i`, `+i`, `=ai`); its own options
/// are `-R`, `-V`, `-f` and `-v`/`-p` with a value.
fn chattr_wide(cmd: &Command) -> bool {
    let mut deep = false;
    let mut paths = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "-v" | "-p" => {
                args.next();
            }
            o if o.starts_with('-') && o.len() > 1 && o[1..].chars().all(|c| "RVf".contains(c)) => {
                deep |= o.contains('R');
            }
            m if m.starts_with(['-', '+', '=']) => {}
            p => paths.push(p),
        }
    }
    deep && paths.iter().any(|p| reach(p, cmd.cwd.as_deref()).is_some())
}

/// find's starting points: the words before its first expression.
fn find_wide(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .take_while(|a| !a.starts_with(['-', '(', '!']))
        .any(|p| reach(p, cmd.cwd.as_deref()).is_some())
}
