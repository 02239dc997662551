//! The safer way to reach the same goal, for the rules where one exists: one row per rule id, shown in the verdict, by `warden why` and by `warden rules list`.
//!
//! Kept beside the rule tables rather than in each `Rule`, so a rule with
//! no safer way says nothing and the tables stay as they are. A rule has a
//! row only where a short, concrete alternative does the same job with less
//! to lose; exfiltration, reverse shells and the like have none, as the
//! safer way there is not doing it.

/// Writes [`safer`] as one `match` over the ids, and (for the tests) the
/// rows as a table. A `match` of string literals, not a static table of
/// them: a table of pointers needs a relocation per string when a
/// position-independent warden starts, on every call, while a `match`
/// costs nothing until a rule has matched.
macro_rules! safer_ways {
    ($(($id:literal, $text:literal),)*) => {
        /// The safer way for the rule `id`, when there is one.
        pub fn safer(id: &str) -> Option<&'static str> {
            match id {
                $($id => Some($text),)*
                _ => None,
            }
        }

        /// Every row, in the order written.
        #[cfg(test)]
        static SAFER: &[(&str, &str)] = &[$(($id, $text)),*];
    };
}

// `(rule id, what to do instead)`, sorted by id (a test keeps it so, and
// checks every id names a rule). Each text is one imperative sentence or
// two, in the command's own terms, ending with a full stop.
#[rustfmt::skip]
safer_ways! {
    ("accounts.root-equivalent-group", "Use rootless Docker or Podman, or a sudoers rule for the few commands needed, instead of a group that amounts to root."),
    ("accounts.shell-as-other-user", "Run the one command with `sudo CMD` (or `sudo -u USER CMD`) instead of opening a whole shell."),
    ("admin.firewall-disable", "Add the one rule you need (`ufw allow 8080/tcp`) instead of turning the firewall off."),
    ("admin.firewall-flush", "Insert the one rule you need (`iptables -I INPUT -p tcp --dport 8080 -j ACCEPT`) and save the rules first (`iptables-save > rules.bak`)."),
    ("admin.grant-admin", "Give the user a sudoers rule for the commands it needs instead of an administrator group."),
    ("admin.security-disable", "Make a targeted exception for the one program (an SELinux boolean, an AppArmor profile in complain mode) instead of turning the control off."),
    ("admin.user-delete", "Lock the account instead (`usermod -L USER` and `usermod -s /usr/sbin/nologin USER`); it can be unlocked later."),
    ("cloud.admin-grant", "Grant a narrower role for the job (one managed policy, `roles/viewer`, a namespaced Role) instead of administrator rights."),
    ("cloud.credential-create", "Use short-lived credentials (`aws sts assume-role`, `gcloud auth print-access-token`, workload identity) instead of minting long-lived keys."),
    ("cloud.helmfile-destroy", "Review with `helmfile diff`, then remove one release with a selector (`helmfile -l name=RELEASE destroy`)."),
    ("cloud.infra-replace", "Review the replacement first with `terraform plan -replace=ADDRESS` (`pulumi preview --replace URN`), then apply that plan."),
    ("cloud.kubectl-drain", "Cordon the node first (`kubectl cordon NODE`) and drain without `--force` or `--delete-emptydir-data`, so pods that would lose data stop the drain."),
    ("cloud.kubectl-side-delete", "Run `kubectl diff` (or the same command with `--dry-run=server`) first to see what would be pruned or replaced."),
    ("cloud.public-access", "Share with a time-limited signed URL (`aws s3 presign`, `gcloud storage sign-url`) instead of making the data public."),
    ("cloud.remote-purge", "Run it with `--dry-run` first (`rclone purge --dry-run`, `restic forget --dry-run`, `borg delete --dry-run`) and check what goes."),
    ("cloud.scale-to-zero", "Scale the one workload by name (`kubectl scale deployment/NAME --replicas=0`) instead of a whole namespace or selection."),
    ("cloud.state-delete", "Back the state up first (`terraform state pull > state.backup.json`), and prefer `terraform state mv` to removing it."),
    ("cloud.world-open", "Open the port to your own address or network (`/32` of your IP, the office range) instead of 0.0.0.0/0."),
    ("containers.bucket-delete", "List what would go first (`aws s3 rm ... --recursive --dryrun`, `gcloud storage ls -r`), and keep object versioning on so deletes can be undone."),
    ("containers.docker-prune", "Prune by filter (`docker image prune --filter until=24h`) without `-a` or `--volumes`, or remove the named containers, images or volumes."),
    ("containers.host-root-mount", "Mount only the directory the container needs, read-only where it can be (`-v \"$PWD/data:/data:ro\"`)."),
    ("containers.infra-destroy", "Review it first with `terraform plan -destroy` (`tofu plan -destroy`, `pulumi destroy --preview-only`), and name one resource with `-target` where that is the goal."),
    ("containers.kubectl-delete", "Run it with `--dry-run=server` first to see what would go, and name the resources instead of `--all`."),
    ("containers.mass-remove", "Remove by filter (`docker container prune --filter until=24h`) or by name instead of every container or image."),
    ("containers.privileged", "Give the container only what it needs (`--cap-add NET_ADMIN`, `--device /dev/X`) instead of `--privileged` or the host's namespaces."),
    ("containers.repo-delete", "Archive the repository instead (`gh repo archive`): it becomes read-only and can be unarchived."),
    ("db.dropdb", "Dump the database first (`pg_dump -Fc DB > DB.dump`, `mysqldump DB > DB.sql`) so it can be restored."),
    ("db.framework-reset", "Dump the database first (`pg_dump`, `mysqldump`, `sqlite3 DB .dump`) and run the reset against a development database."),
    ("db.index-delete", "Snapshot first (`PUT _snapshot/REPO/SNAPSHOT`) and delete one index by name, never `_all` or a wildcard."),
    ("db.mongo-drop", "Dump it first with `mongodump --db DB` (add `--collection NAME`) so `mongorestore` can bring it back."),
    ("db.orm-delete-all", "Filter the rows you mean (`.where(...)`, `.filter(...)`) and dump the table first."),
    ("db.redis-flush", "Snapshot first (`redis-cli BGSAVE`), or delete only your keys (`redis-cli --scan --pattern 'PREFIX*'`, then `UNLINK` them)."),
    ("db.role-grant", "Grant only the privileges the job needs on the one database (`GRANT SELECT, INSERT ON db.* TO ...`), not superuser or `ALL ON *.*`."),
    ("db.sql-delete-all", "Add a `WHERE` clause, or run it inside `BEGIN; ... ROLLBACK;` first to count the rows; dump the table before (`pg_dump -t TABLE`)."),
    ("db.sql-drop", "Dump the table or database first (`pg_dump -t TABLE`, `mysqldump DB TABLE`) so it can be restored."),
    ("db.sql-truncate", "Dump the table first (`pg_dump -t TABLE`, `mysqldump DB TABLE`), or delete the rows you mean with a `WHERE` clause."),
    ("db.sql-update-all", "Add a `WHERE` clause, or run it inside `BEGIN; ... ROLLBACK;` first to count the rows; dump the table before (`pg_dump -t TABLE`)."),
    ("exec.interpreter-eval-fetched", "Download the code to a file, read it and check its checksum, then run the file."),
    ("exec.path-hijack", "Call the program by its path (`./bin/tool`) instead of putting a temporary or relative directory first in PATH."),
    ("exhaustion.process-flood", "Cap the parallelism (`xargs -P \"$(nproc)\"`, `parallel -j 8`) instead of one process per input."),
    ("exposure.open-service", "Bind it to `127.0.0.1` and keep its authentication on; reach it through `ssh -L` from elsewhere."),
    ("exposure.serve-files", "Serve only the directory you mean to share, on loopback (`python3 -m http.server --directory DIR --bind 127.0.0.1`)."),
    ("files.system-config", "Where the program also reads a per-user file (under `~/.config` or `~/.local`), write that instead: it needs no root and changes no one else's setup."),
    ("fs.delete-sensitive-file", "Move it aside instead (`mv FILE FILE.bak`, or to the trash with `gio trash`/`trash-put`, `trash` on macOS) so it can be restored."),
    ("fs.extract-over-system", "Extract into an empty directory first (`tar -xf ARCHIVE -C /tmp/unpacked`), check it, then copy what is needed into place."),
    ("fs.find-delete", "Run the same `find` with `-print` in place of `-delete` first and check the list."),
    ("fs.find-exec-rm", "Run the same `find` with `-print` first and check the list, or hand the matches to `gio trash`/`trash-put` (`trash` on macOS) instead of `rm`."),
    ("fs.move-away", "Move it to the trash instead (`gio trash`/`trash-put` on Linux, `trash` on macOS), where it can be restored."),
    ("fs.recursive-delete", "Move the directory to the trash instead (`gio trash`/`trash-put` on Linux, `trash` on macOS) so it can be restored."),
    ("fs.recursive-delete-after", "Move the directory to the trash instead (`gio trash`/`trash-put` on Linux, `trash` on macOS) so it can be restored."),
    ("fs.recursive-delete-in-project", "Move the directory to the trash instead (`gio trash`/`trash-put` on Linux, `trash` on macOS), or `git rm -r` it so git keeps a copy."),
    ("fs.recursive-delete-long", "Move the directory to the trash instead (`gio trash`/`trash-put` on Linux, `trash` on macOS) so it can be restored."),
    ("fs.redirect-truncate", "Keep a copy first (`cp FILE FILE.bak`) before emptying the file."),
    ("fs.rsync-delete", "Run the same `rsync` with `--dry-run` first, or add `--backup --backup-dir=DIR` so deleted files are kept."),
    ("fs.truncate", "Keep a copy first (`cp FILE FILE.bak`) before truncating the file."),
    ("fs.world-writable", "Grant only what is needed: `chmod -R u+rwX` for yourself, `g+w` for a group, `755` or `644` for others to read."),
    ("fs.world-writable-long", "Grant only what is needed: `chmod -R u+rwX` for yourself, `g+w` for a group, `755` or `644` for others to read."),
    ("git.branch-force-delete", "Use `git branch -d`, which refuses to delete unmerged commits, or tag the tip first (`git tag backup/BRANCH BRANCH`)."),
    ("git.branch-force-delete-force-first", "Use `git branch -d`, which refuses to delete unmerged commits, or tag the tip first (`git tag backup/BRANCH BRANCH`)."),
    ("git.branch-force-delete-long", "Use `git branch -d`, which refuses to delete unmerged commits, or tag the tip first (`git tag backup/BRANCH BRANCH`)."),
    ("git.clean-force", "Run `git clean -n` with the same flags first to list what would go, or `git stash -u` to set untracked files aside."),
    ("git.discard-worktree", "Run `git stash` first, so the changes can be brought back with `git stash pop`."),
    ("git.force-push", "Push your own topic branch by name with `git push --force-with-lease --force-if-includes origin BRANCH`; on a shared branch, push a revert commit instead."),
    ("git.force-push-short", "Use `git push --force-with-lease --force-if-includes origin BRANCH` in place of `-f` or `+refspec`: it fails if someone else pushed meanwhile."),
    ("git.history-rewrite", "Rewrite a fresh clone (`git clone --mirror`) and keep the original until the result is checked."),
    ("git.prune-now", "Run `git gc` without `--prune=now`: only unreachable objects older than two weeks go, and recent work stays recoverable."),
    ("git.push-delete", "Run the same push with `--dry-run` first, and tag the tip (`git tag archive/BRANCH origin/BRANCH`) so it can be pushed back."),
    ("git.reset-hard", "Run `git stash` first (bring the changes back with `git stash pop`), or use `git reset --keep`, which refuses to overwrite uncommitted changes."),
    ("git.stash-drop", "Turn the stash into a branch instead (`git stash branch NAME stash@{N}`), or read it with `git stash show -p` before dropping it."),
    ("git.update-ref-delete", "Use `git branch -d BRANCH`, which refuses to delete unmerged commits."),
    ("hardline.insecure-remote-code", "Download over `https://` from the real host to a file, read it and check its checksum, then run the file."),
    ("net.build-fetched-code", "Clone in one call, read its build files (`setup.py`, `build.rs`, `package.json` scripts, `Makefile`), then build in another."),
    ("net.command-substitution", "Download the script to a file, read it and check its checksum or signature, then run the file."),
    ("net.decoded-to-shell", "Decode into a file and read it, then run that file."),
    ("net.decrypted-to-shell", "Decrypt into a file and read it, then run that file."),
    ("net.download-then-run", "Download in one call, read the file and check its checksum or signature, then run it in another."),
    ("net.openssl-to-shell", "Decode into a file and read it, then run that file."),
    ("net.pipe-to-shell", "Download the script to a file, read it and check its checksum or signature, then run the file."),
    ("net.process-substitution", "Download the script to a file, read it and check its checksum or signature, then run the file."),
    ("net.push-secret", "Take the secret out of the commit (`git rm --cached FILE`, list it in `.gitignore`, amend) before pushing."),
    ("net.remote-to-program", "Download to a file and read it first, then hand the file to the program."),
    ("net.tr-to-shell", "Write the transformed text into a file and read it, then run that file."),
    ("net.xxd-to-shell", "Decode into a file and read it, then run that file."),
    ("packages.force-remove", "Remove it through the package manager without forcing (`apt remove PKG`, `dnf remove PKG`), which says what depends on it."),
    ("packages.untrusted-source", "Install from the registry by name and version, or download the file, check its checksum and read it before installing."),
    ("perms.at-scale", "Change only the files that need it (name them, or select them with `find DIR -name ...`) instead of a whole home or system tree."),
    ("perms.setuid", "Give the one capability the program needs (`setcap cap_net_bind_service=+ep FILE`) or a sudoers rule instead of setuid."),
    ("privileged.unmodelled", "Do it without root where you can, in user scope (`~/.local/bin`, `pip install --user`, `systemctl --user`)."),
    ("reveal.environment-printed", "Print only the variables you need by name (`printenv PATH HOME`), or the names alone (`env | cut -d= -f1`)."),
    ("reveal.secret-printed", "Pass the secret to the command that needs it without printing it (`\"$TOKEN\"`, a file path); check it is set with `test -n \"$TOKEN\"`."),
    ("system.crontab-remove", "Save the table first (`crontab -l > crontab.bak`), or remove single lines with `crontab -e`."),
    ("system.hermes-gateway-run", "Start the gateway through its service: `systemctl --user restart hermes-gateway`."),
    ("system.killall-force", "Send TERM first (`killall NAME`) and force only what does not exit; check the matches with `pgrep -a NAME`."),
    ("system.killall-regex", "List what the pattern matches with `pgrep -a PATTERN` first, then kill those PIDs by number."),
    ("system.killall-signal-kill", "Send TERM first (`killall NAME`) and force only what does not exit; check the matches with `pgrep -a NAME`."),
    ("system.package-publish", "Check what would be published first (`npm publish --dry-run`, `cargo publish --dry-run`, `npm pack`)."),
    ("system.pkill-force", "Send TERM first (`pkill NAME`) and force only what does not exit; check the matches with `pgrep -a NAME`."),
    ("system.service-stop", "If only its configuration changed, `systemctl reload UNIT` applies it without stopping the service."),
    ("tooling.trust-directory", "Read the directory's `.envrc` or `mise.toml` first, then allow it."),
    ("trust.ca-added", "Trust the CA for the one tool that needs it (`curl --cacert FILE`, `NODE_EXTRA_CA_CERTS`, `REQUESTS_CA_BUNDLE`) instead of the system store."),
    ("trust.tls-verify-env", "Point the tool at the right CA instead (`NODE_EXTRA_CA_CERTS=FILE`, `GIT_SSL_CAINFO=FILE`, `REQUESTS_CA_BUNDLE=FILE`)."),
    ("trust.tls-verify-off", "Point the tool at the right CA instead (`git config http.sslCAInfo FILE`, `npm config set cafile FILE`)."),
    ("vcs.delete-history", "Work on a fresh clone (`git clone --mirror`, `hg clone`) and keep the original until the result is checked."),
    ("vcs.discard-worktree", "Set the changes aside first (`git stash`, `hg shelve`, `svn diff > changes.patch`)."),
    ("vcs.rewrite-remote", "Use `git push --force-with-lease --force-if-includes origin BRANCH` on your own branch: it fails if someone else pushed meanwhile."),
    ("windows.icacls-everyone", "Grant the one user or group that needs access (`icacls DIR /grant USER:(M)`) instead of Everyone."),
    ("windows.iex-remote", "Save the script with `Invoke-WebRequest -OutFile FILE`, read it and check `Get-FileHash FILE`, then run the file."),
    ("windows.iwr-iex", "Save the script with `Invoke-WebRequest -OutFile FILE`, read it and check `Get-FileHash FILE`, then run the file."),
    ("windows.powershell-encoded", "Pass the script as readable text (`-File script.ps1` or `-Command`) so it can be checked."),
    ("windows.reg-delete", "Export the key first (`reg export KEY backup.reg`) so it can be restored."),
    ("windows.taskkill-force", "Ask it to exit first (`taskkill /PID N` without `/F`), and force only what stays."),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every id a built-in rule has: command rules and path rules.
    fn rule_ids() -> Vec<&'static str> {
        let commands = super::super::all().map(|r| r.id);
        commands
            .chain(super::super::files::RULES.iter().map(|r| r.id))
            .collect()
    }

    #[test]
    fn every_row_names_a_rule_once_in_order() {
        let ids = rule_ids();
        for (id, _) in SAFER {
            assert!(ids.contains(id), "{id} is in SAFER but names no rule");
        }
        for pair in SAFER.windows(2) {
            assert!(
                pair[0].0 < pair[1].0,
                "SAFER must be sorted by id with each id once: {} before {}",
                pair[0].0,
                pair[1].0
            );
        }
    }

    #[test]
    fn every_text_is_one_short_line_ending_in_a_full_stop() {
        for (id, text) in SAFER {
            assert!(text.len() <= 200, "{id}: {} characters", text.len());
            assert!(text.ends_with('.'), "{id}: {text}");
            assert!(
                text.starts_with(|c: char| c.is_ascii_uppercase()),
                "{id}: {text}"
            );
            assert!(
                text.bytes().all(|b| (0x20..0x7f).contains(&b)),
                "{id}: {text}"
            );
            assert_eq!(
                text.matches('`').count() % 2,
                0,
                "{id}: unbalanced backticks"
            );
        }
    }

    #[test]
    fn the_lookup_finds_every_row_and_nothing_else() {
        for (id, text) in SAFER {
            assert_eq!(safer(id), Some(*text));
        }
        assert_eq!(
            safer("git.reset-hard").map(|t| t.contains("git stash")),
            Some(true)
        );
        assert_eq!(
            safer("git.force-push-short").map(|t| t.contains("--force-with-lease")),
            Some(true)
        );
        // No safer way to send secrets away or open a reverse shell.
        for id in [
            "hardline.reverse-shell",
            "net.send-environment",
            "net.upload-secret",
            "",
            "git",
            "zzz",
        ] {
            assert_eq!(safer(id), None, "{id}");
        }
    }
}
