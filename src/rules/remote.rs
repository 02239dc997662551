//! Built-in rules: another machine changed from here (`scp`/`rsync`/`sftp` writes to its system files, start-up files and keys, fleet tools' modules that delete, stop or reboot), judged by the same places as a local write.
//!
//! The shell text a remote machine runs (`ssh host CMD`, `pdsh -w h CMD`,
//! `ansible all -m shell -a CMD`) is analysed as a local line is, by the
//! shell analysis; these rules judge what the copy tools and the fleet
//! tools' modules change there.

use super::access::{is_remote, How};
use super::files::{first_match, Around, Place};
use super::opts::{parse_opts, RSYNC, SCP};
use super::paths::basename;
use super::targets::{classify, Target};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Places under a system directory that are where sites and applications
/// are deployed: writing there is a deploy, not a change to the system.
const DEPLOY_ROOTS: &[&str] = &[
    "/srv",
    "/opt",
    "/var/www",
    "/usr/share/nginx/html",
    "/usr/local/www",
];

/// Path rules whose places only mean something on this machine: the
/// project, the agent's own settings, the safe root.
const LOCAL_ONLY: &[&str] = &[
    "files.outside-project",
    "files.outside-safe-root",
    "files.project-env",
    "files.system-config",
    "files.hermes-config",
    "files.cross-profile",
    "files.guard-dir",
];

/// The path part of a remote operand as a path warden's places read: the
/// remote home is `~` (`host:` and `host:x` are in it), `/x` stays.
fn remote_path(operand: &str) -> Option<String> {
    let path = match operand.split_once("://") {
        // `scp://user@host:22/path`: the path after the host.
        Some((_, rest)) => rest.split_once('/').map_or("", |(_, p)| p),
        None => {
            let (host, path) = operand.split_once(':')?;
            // `host::module` is an rsync daemon's module, not a path.
            if host.is_empty() || path.starts_with(':') {
                return None;
            }
            path
        }
    };
    Some(if path.is_empty() {
        "~".to_string()
    } else if path.starts_with('/') || path.starts_with('~') {
        path.to_string()
    } else {
        format!("~/{path}")
    })
}

/// Whether a write of `path` on another machine changes its system, a
/// whole home, or a file its path rules guard (keys, start-up files,
/// crontabs, sudoers, boot files).
fn sensitive_remote(path: &str) -> bool {
    let scope = match classify(path, None) {
        Target::Root | Target::Home => true,
        Target::System => !DEPLOY_ROOTS
            .iter()
            .any(|root| crate::path::strip_dir(path, root).is_some()),
        _ => false,
    };
    scope || {
        let around = Around::default();
        let place = Place::new(path, &around);
        [Decision::Block, Decision::Ask]
            .into_iter()
            .any(|decision| {
                first_match(&place, Some(How::Copy), true, decision)
                    .is_some_and(|rule| !LOCAL_ONLY.contains(&rule.id))
            })
    }
}

/// Where the sources of a copy to another machine land there: inside the
/// destination when its words say it is a directory, else at it or inside
/// it (only the remote file system can tell).
fn landings(sources: &[&str], dest: &str, contents: bool) -> Vec<String> {
    let into_dir = sources.len() > 1 || dest.ends_with('/') || dest == "~";
    let mut out = Vec::new();
    for source in sources {
        let source = source.split_once(':').map_or(*source, |(_, p)| p);
        let name = match basename(source) {
            _ if contents && source.ends_with('/') => "*",
            "" | "." | ".." | "~" => "*",
            name => name,
        };
        if !into_dir {
            out.push(dest.to_string());
        }
        out.push(format!("{}/{name}", dest.trim_end_matches('/')));
    }
    out
}

/// `scp`/`rsync` whose destination on another machine is a sensitive place.
fn copies_to_sensitive(cmd: &Command) -> bool {
    let rsync = cmd.program == "rsync";
    let o = parse_opts(&cmd.args, if rsync { &RSYNC } else { &SCP });
    let Some((dest, sources)) = o.operands.split_last() else {
        return false;
    };
    if sources.is_empty() || !is_remote(dest) {
        return false;
    }
    let Some(dest) = remote_path(dest) else {
        return false;
    };
    landings(sources, &dest, rsync)
        .iter()
        .any(|p| sensitive_remote(p))
}

/// `sftp HOST <<< 'put LOCAL REMOTE'`: the batch read from stdin, with
/// remote paths relative to the directory the operand names.
fn sftp_puts_sensitive(cmd: &Command) -> bool {
    let Some(batch) = cmd.stdin.as_deref() else {
        return false;
    };
    let start = cmd
        .args
        .iter()
        .rfind(|a| !a.starts_with('-'))
        .and_then(|a| remote_path(a))
        .unwrap_or_else(|| "~".to_string());
    batch.lines().any(|line| {
        let words: Vec<&str> = line
            .split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .collect();
        let (local, remote) = match words.as_slice() {
            [verb, local, remote, ..] if matches!(*verb, "put" | "mput" | "reput") => {
                (*local, Some(*remote))
            }
            [verb, local] if matches!(*verb, "put" | "mput" | "reput") => (*local, None),
            _ => return false,
        };
        let dest = match remote {
            Some(r) if r.starts_with('/') || r.starts_with('~') => r.to_string(),
            Some(r) => format!("{}/{r}", start.trim_end_matches('/')),
            None => format!("{}/", start.trim_end_matches('/')),
        };
        landings(&[local], &dest, false)
            .iter()
            .any(|p| sensitive_remote(p))
    })
}

/// A fleet copy (`pdcp -w hosts SRC DEST`, `pscp -h hosts SRC DEST`,
/// `salt-cp TARGET SRC DEST`) whose destination on every machine is a
/// sensitive place; the destination is a path there, not `host:path`.
fn fleet_copies_to_sensitive(cmd: &Command) -> bool {
    const VALUED: &[&str] = &[
        "-w",
        "-x",
        "-g",
        "-l",
        "-R",
        "-f",
        "-t",
        "-u",
        "-h",
        "-H",
        "-p",
        "-o",
        "-e",
        "-O",
        "-X",
        "--hosts",
        "--host",
        "--user",
        "--par",
        "--timeout",
        "--option",
    ];
    let mut operands = Vec::new();
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        if VALUED.contains(&arg.as_str()) {
            iter.next();
        } else if !arg.starts_with('-') {
            operands.push(arg.as_str());
        }
    }
    // salt-cp's first operand is the target, not a file.
    if cmd.program == "salt-cp" && !operands.is_empty() {
        operands.remove(0);
    }
    let Some((dest, sources)) = operands.split_last() else {
        return false;
    };
    if sources.is_empty() {
        return false;
    }
    let dest = if dest.starts_with('/') || dest.starts_with('~') {
        dest.to_string()
    } else {
        format!("~/{dest}")
    };
    let contents = matches!(cmd.program.as_str(), "prsync" | "parallel-rsync");
    landings(sources, &dest, contents)
        .iter()
        .any(|p| sensitive_remote(p))
}

/// The `key=value` words of an ansible module's arguments.
fn module_args(cmd: &Command) -> Vec<(&str, &str)> {
    let mut iter = cmd.args.iter();
    let mut text = None;
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "-a" | "--args" => text = iter.next(),
            a if a.starts_with("--args=") => text = Some(arg),
            _ => {}
        }
    }
    text.map(|t| t.trim_start_matches("--args="))
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k, v.trim_matches(['\'', '"'])))
        .collect()
}

/// An ad-hoc ansible module that deletes a sensitive path, removes an
/// account, stops a service, plants a key, schedules a job, reboots, or
/// writes a sensitive file on the hosts it reaches.
fn ansible_module_changes(cmd: &Command) -> bool {
    let mut module = None;
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "-m" | "--module-name" => module = iter.next().map(String::as_str),
            a => {
                if let Some(m) = a.strip_prefix("--module-name=") {
                    module = Some(m);
                }
            }
        }
    }
    let Some(module) = module else {
        return false;
    };
    let module = module.rsplit('.').next().unwrap_or(module);
    let args = module_args(cmd);
    let get = |key: &[&str]| args.iter().find(|(k, _)| key.contains(k)).map(|(_, v)| *v);
    let state = get(&["state"]).unwrap_or("");
    let path = get(&["path", "dest", "name"]).unwrap_or("");
    match module {
        "reboot" | "authorized_key" | "cron" | "iptables" | "mount" => true,
        "user" | "group" => state == "absent",
        "service" | "systemd" | "systemd_service" | "sysvinit" => state == "stopped",
        "file" => state == "absent" && sensitive_remote(path),
        "copy" | "template" | "lineinfile" | "blockinfile" | "replace" | "fetch" => {
            module != "fetch" && sensitive_remote(path)
        }
        _ => false,
    }
}

#[rustfmt::skip]
static WRITE_REMOTE: &[Verb] = &[
    verb_if("scp", "", copies_to_sensitive),
    verb_if("rsync", "", copies_to_sensitive),
    verb_if("sftp", "", sftp_puts_sensitive),
    verb_if("pdcp", "", fleet_copies_to_sensitive),
    verb_if("pscp", "", fleet_copies_to_sensitive),
    verb_if("pscp.pssh", "", fleet_copies_to_sensitive),
    verb_if("parallel-scp", "", fleet_copies_to_sensitive),
    verb_if("prsync", "", fleet_copies_to_sensitive),
    verb_if("parallel-rsync", "", fleet_copies_to_sensitive),
    verb_if("salt-cp", "", fleet_copies_to_sensitive),
    verb_if("ansible", "", ansible_module_changes),
    verb("salt", r"(?:^| )(?:system\.(?:reboot|shutdown|poweroff|halt)|user\.delete|service\.stop|file\.remove (?:/|~)[^ ]*)(?: |$)"),
    verb("salt-ssh", r"(?:^| )(?:system\.(?:reboot|shutdown|poweroff|halt)|user\.delete|service\.stop)(?: |$)"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "remote.write-sensitive",
        category: "change another machine's system, keys or start-up files",
        reason: "the other machine's system files, login keys, start-up files or accounts change as a local write there would change them here",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(WRITE_REMOTE),
        hits: &["scp hosts.txt host:/etc/hosts", "scp id.pub root@host:~/.ssh/authorized_keys", "scp id.pub u@host:.ssh/authorized_keys", "scp bashrc host:.bashrc", "scp -r conf admin@10.0.0.5:/etc/nginx/", "rsync -a ./etc/ host:/etc/", "rsync -avz ./ root@host:/", "rsync -a keys/ host:.ssh/", "rsync -av bin/ root@h:/usr/local/bin/", "sftp root@host <<< 'put sudoers /etc/sudoers'", "ansible all -m file -a 'path=/etc state=absent' -b", "ansible all -m user -a 'name=alice state=absent'", "ansible all -m authorized_key -a 'user=root key=x'", "salt '*' system.reboot", "pdcp -w web[1-4] sshd_config /etc/ssh/", "parallel-scp -h hosts.txt rc .bashrc", "salt-cp '*' evil.conf /etc/sudoers.d/x"],
        misses: &["scp host:/var/log/app.log .", "scp build.tar.gz host:/tmp/", "scp -r dist/ deploy@web:/srv/app/", "scp README.md host:~/notes/", "scp index.html host:/var/www/html/", "rsync -a ./dist/ host:/srv/app/", "rsync -a build/ deploy@h:/var/www/app/", "rsync -a ./ host:~/projects/app/", "rsync -a host:/etc/ ./etc-backup/", "sftp host", "ansible all -m ping", "ansible all -m service -a 'name=nginx state=restarted'", "ansible all -m file -a 'path=/srv/app/tmp state=absent'", "salt '*' test.ping", "pdcp -w web[1-4] app.jar /opt/app/", "parallel-scp -h hosts.txt build.tgz /tmp/"],
    },
];

#[cfg(test)]
mod tests {
    use super::{landings, remote_path, sensitive_remote};

    #[test]
    fn remote_paths_start_in_the_remote_home() {
        assert_eq!(remote_path("host:").as_deref(), Some("~"));
        assert_eq!(remote_path("u@host:.ssh/x").as_deref(), Some("~/.ssh/x"));
        assert_eq!(remote_path("host:~/a").as_deref(), Some("~/a"));
        assert_eq!(remote_path("host:/etc/x").as_deref(), Some("/etc/x"));
        // OpenSSH reads the path of an `scp://` URI from the remote home.
        assert_eq!(
            remote_path("scp://u@host:22/etc/x").as_deref(),
            Some("~/etc/x")
        );
        assert_eq!(remote_path("host::module/x"), None);
        assert_eq!(remote_path(":x"), None);
    }

    #[test]
    fn sources_land_inside_a_directory_or_at_the_destination() {
        assert_eq!(landings(&["a.txt"], "~/", false), ["~/a.txt"]);
        assert_eq!(
            landings(&["a.txt"], "/etc/x", false),
            ["/etc/x", "/etc/x/a.txt"]
        );
        assert_eq!(landings(&["src/"], "/etc/", true), ["/etc/*"]);
        assert_eq!(landings(&["src/"], "/etc/", false), ["/etc/src"]);
        assert_eq!(landings(&["a", "b"], "/srv", false), ["/srv/a", "/srv/b"]);
    }

    #[test]
    fn remote_places_are_judged_by_scope_and_path_rules() {
        for path in [
            "/",
            "/*",
            "~",
            "~/*",
            "/etc/hosts",
            "/usr/lib/x.so",
            "~/.ssh/authorized_keys",
            "~/.bashrc",
            "/home/u/.profile",
            "/root/.ssh/x",
            "/etc/cron.d/job",
        ] {
            assert!(sensitive_remote(path), "{path}");
        }
        for path in [
            "/srv/app/x",
            "/opt/app/a.jar",
            "/var/www/html/i.html",
            "/tmp/x",
            "~/notes/a.md",
            "~/projects/app/*",
            "/home/u/app/x",
        ] {
            assert!(!sensitive_remote(path), "{path}");
        }
    }
}
