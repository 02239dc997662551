//! Built-in rules: writes whose harm is not where they land but what they do — truncation, and archives extracted over system directories.
//!
//! Where a write lands (keys, system files, start-up files, env files) is
//! judged by the path rules of [`super::files`], for every spelling at once.

use super::opts::{parse_opts, Spec};
use super::paths::harmless_device;
use super::targets::{classify, Target};
use super::{Matcher, Rule};
use crate::shell::{Analysis, Command, RedirectOp};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "fs.truncate",
        category: "truncate a file (empties or shortens it)",
        reason: "the data cut off the end of the file is gone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["truncate"], check: truncate_shrinks },
        hits: &["truncate -s 0 data/app.db", "truncate --size=0 data/cache.bin", "truncate -s -1M data.bin", "truncate -s0 notes.txt"],
        misses: &["truncate -s 0 logs/app.log", "truncate -s 1G disk.img", "truncate -s +10M f.bin", "truncate -s 0 /tmp/x.log", "truncate -s 0 /dev/null", "echo truncate -s 0 x"],
    },
    Rule {
        id: "fs.redirect-truncate",
        category: "truncate a file via a bare redirection",
        reason: "a redirection with no command empties the file it names",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(bare_truncation),
        hits: &["> src/main.rs", ": > data/app.db", "cd src && > main.rs", "true > package-lock.json"],
        misses: &[": > logs/server.log", "> /tmp/x.log", "echo hi > out.txt", ">> notes.txt", "> /dev/null", "{ echo a; echo b; } > out.txt", "(make) > build.log"],
    },
    Rule {
        id: "fs.extract-over-system",
        category: "extract archive over a system directory",
        reason: "files from the archive would overwrite system files wherever their names land",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(extracts_over_system),
        hits: &["tar xzf node.tgz -C /usr/local", "tar --extract --file=x.tar --directory=/usr/lib", "cd /usr && tar -xf backup.tar", "unzip -o payload.zip -d /var/lib", "ln -s /usr/lib conf && tar -xf bundle.tar -C conf"],
        misses: &["tar -xzf release.tar.gz -C ./vendor", "tar -czf backup.tgz -C / etc", "tar -tf bundle.tar", "tar -xf x.tar -C /tmp/x", "tar -xf x.tar -C ~/tools", "unzip x.zip -d out", "sudo rm -rf /usr/local/go && sudo tar -C /usr/local -xzf go1.22.5.linux-amd64.tar.gz"],
    },
];

fn bare_truncation(analysis: &Analysis) -> Option<String> {
    analysis.commands.iter().find_map(|c| {
        // A group's redirection (`{ ...; } > f`) writes the group's output.
        let grouped = c.via.contains(&crate::shell::GROUP_REDIRECT);
        let bare = (c.program.is_empty() && !grouped)
            || (matches!(c.program.as_str(), ":" | "true") && c.args.is_empty());
        if !bare {
            return None;
        }
        c.redirects.iter().find(|r| {
            r.op == RedirectOp::Write
                && r.fd.is_none_or(|fd| fd == 1)
                && !harmless_device(&r.target)
                && !project_log(&r.target, c.cwd.as_deref())
                && classify(&r.target, c.cwd.as_deref()) != Target::Temp
        })?;
        Some(c.display())
    })
}

fn truncate_shrinks(cmd: &Command) -> bool {
    let spec = Spec::gnu("sr", &["size", "reference"]);
    let o = parse_opts(&cmd.args, &spec);
    let shrinks = o.value('r').is_some()
        || o.long("reference", 3)
        || o.value('s').or(o.long_value("size", 2)).is_some_and(|s| {
            let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
            s.starts_with(['-', '<', '/'])
                || (!digits.is_empty() && digits.chars().all(|c| c == '0'))
        });
    let scratch = |p: &str, cwd: Option<&str>| {
        harmless_device(p) || classify(p, cwd) == Target::Temp || project_log(p, cwd)
    };
    shrinks && !o.operands.is_empty() && !o.operands.iter().all(|p| scratch(p, cmd.cwd.as_deref()))
}

/// A log file of the project (`logs/app.log`, `server.log.1`): emptying it
/// is routine housekeeping, and the program that writes it keeps going.
fn project_log(path: &str, cwd: Option<&str>) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let log = name.ends_with(".log")
        || name
            .rsplit_once(".log.")
            .is_some_and(|(_, n)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    log && classify(path, cwd) == Target::Project
}

/// An archive unpacked over root, home or a system directory; unpacking
/// into `/usr/local` is what replacing a toolchain there means (`rm -rf
/// /usr/local/go && tar -C /usr/local -xzf go.tar.gz`, as Go's guide says).
fn extracts_over_system(analysis: &crate::shell::Analysis) -> Option<String> {
    let replacing = analysis
        .commands
        .iter()
        .any(super::fs::deletes_toolchain_dir);
    analysis
        .commands
        .iter()
        .filter(|c| matches!(c.program.as_str(), "tar" | "gtar" | "bsdtar" | "unzip"))
        .find(|c| extract_over_system(c) && !(replacing && super::fs::installs_into_usr_local(c)))
        .map(Command::display)
}

fn extract_over_system(cmd: &Command) -> bool {
    let Some(unpacking) = super::access::unpacking(cmd) else {
        return false;
    };
    let cwd = cmd.cwd.as_deref();
    let over = |dir: &str| {
        matches!(
            classify(dir, cwd),
            Target::Root | Target::System | Target::Home
        )
    };
    let dirs = &unpacking.dirs;
    unpacking.absolute
        || dirs.is_empty() && over(".")
        || dirs
            .iter()
            .filter_map(|&(index, prefix)| cmd.args.get(index)?.get(prefix..))
            .any(over)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Redirect;

    #[test]
    fn bare_redirects() {
        let analysis = |text: &str, program: &str| {
            let redirect = Redirect {
                op: RedirectOp::Write,
                fd: None,
                target: "out.txt".into(),
            };
            let command = Command {
                program: program.into(),
                redirects: vec![redirect],
                ..Command::default()
            };
            Analysis {
                text: text.into(),
                commands: vec![command],
                ..Analysis::default()
            }
        };
        assert!(bare_truncation(&analysis("> out.txt", "")).is_some());
        assert!(bare_truncation(&crate::shell::analyze("{ echo a; } > out.txt")).is_none());
        assert!(bare_truncation(&crate::shell::analyze("> out.txt")).is_some());
        assert!(bare_truncation(&analysis("echo > out.txt", "echo")).is_none());
    }
}
