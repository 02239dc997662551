//! Built-in rules: what lives in clusters, secret stores and remote storage destroyed or taken over (resources replaced, workloads scaled to nothing, pods given the node, vault/consul/etcd deletes, remote backups and buckets purged, DELETE sent to a hosted API), one row per program.

use super::cli_ops::{
    az_path, gcloud_path, gsutil_path, has, kubectl_path, matches, op, plain_path, value, Op, When,
};
use super::cloud::path;
use super::http::request;
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Options before a subcommand, each perhaps with a value: `-address=x`,
/// `--endpoints x`, `-v`.
macro_rules! after_options {
    ($sub:literal) => {
        concat!(r"^(?:-\S+ (?:[^-\s]\S* )?)*?(?:", $sub, r")(?: |$)")
    };
}

/// Resources destroyed and made again by an apply: what lived on them goes.
#[rustfmt::skip]
static REPLACE: &[Verb] = &[
    verb_if("terraform", "", terraform_replaces),
    verb_if("tofu", "", terraform_replaces),
    verb_if("terragrunt", "", terraform_replaces),
    verb_if("pulumi", "", |c| {
        let ops = c.operands();
        (ops.contains(&"up") || ops.contains(&"update"))
            && c.args.iter().any(|a| a.starts_with("--replace") || a.starts_with("--target-replace"))
    }),
];

/// Pods given the node: its processes, network, devices or root file system.
#[rustfmt::skip]
static HOST_POD: &[Verb] = &[
    verb_if("kubectl", "", host_pod),
    verb_if("oc", "", host_pod),
];

/// Every workload of a namespace or selection scaled to no replicas.
#[rustfmt::skip]
static SCALE_TO_ZERO: &[Verb] = &[
    verb_if("kubectl", "", scales_to_zero),
    verb_if("oc", "", scales_to_zero),
];

/// Secrets, policies, keys and configuration deleted or cut off in the
/// stores a fleet reads them from.
#[rustfmt::skip]
static VAULT_DELETE: &[Op] = &[
    op(&["kv", "delete|destroy"], When::Always),
    op(&["kv", "metadata", "delete"], When::Always),
    op(&["delete"], When::Always),
    op(&["secrets|auth", "disable"], When::Always),
    op(&["policy|namespace", "delete"], When::Always),
    op(&["operator", "seal"], When::Always),
    op(&["operator", "raft", "remove-peer"], When::Always),
    // `-self` is a logout.
    op(&["token", "revoke"], When::Check(|c| !c.args.iter().any(|a| a == "-self" || a == "--self"))),
    op(&["lease", "revoke"], When::Has(&["-prefix", "-force"])),
];

#[rustfmt::skip]
static CONSUL_DELETE: &[Op] = &[
    op(&["kv", "delete"], When::Always),
    op(&["snapshot", "restore"], When::Always),
    op(&["acl", "*", "delete"], When::Always),
    op(&["force-leave"], When::Always),
    op(&["operator", "raft", "remove-peer"], When::Always),
];

/// etcdctl's global options that take the next word.
#[rustfmt::skip]
const ETCDCTL_VALUED: &[&str] = &["--endpoints", "--cacert", "--cert", "--key", "--user", "--password", "--dial-timeout", "--command-timeout", "--keepalive-time", "--keepalive-timeout", "-w", "--write-out", "--discovery-srv"];

#[rustfmt::skip]
static ETCDCTL_DELETE: &[Op] = &[
    op(&["del|delete"], When::Always),
    op(&["member", "remove"], When::Always),
    op(&["auth", "disable"], When::Always),
    op(&["user|role", "delete"], When::Always),
];

#[rustfmt::skip]
static STORE_DELETE: &[Verb] = &[
    verb_if("vault", "", |c| matches(c, &plain_path(c), VAULT_DELETE)),
    verb_if("consul", "", |c| matches(c, &plain_path(c), CONSUL_DELETE)),
    verb_if("etcdctl", "", |c| matches(c, &path(&c.args, ETCDCTL_VALUED), ETCDCTL_DELETE)),
    verb("zkcli.sh", r"(?:^| )(?:deleteall|rmr|delete)(?: |$)"),
    verb("zookeeper-shell", r"(?:^| )(?:deleteall|rmr|delete)(?: |$)"),
];

/// Remote storage and backups emptied: purges, recursive deletes, syncs
/// that delete what the source lacks, snapshots forgotten.
#[rustfmt::skip]
static REMOTE_PURGE: &[Verb] = &[
    verb_if("rclone", r"(?:^| )(?:purge|delete|deletefile|cleanup)(?: |$)", rclone_deletes),
    verb_if("rclone", r"(?:^| )sync(?: |$)", rclone_sync_to_remote),
    verb_if("restic", r"(?:^| )forget(?: |$)", restic_forgets_all),
    verb_if("borg", after_options!(r"delete|rdelete|repo-delete"), no_dry_run),
    verb("tarsnap", r"(?:^| )(?:-[a-zA-Z]*d[a-zA-Z]*|--nuke)(?: |$)"),
    verb("kopia", r"(?:^| )snapshot (?:delete|rm) (?:.* )?--delete\b"),
    verb_if("s3cmd", r"(?:^| )(?:del|rm) (?:.* )?(?:-r|--recursive)(?: |$)", no_dry_run),
    verb_if("s3cmd", r"(?:^| )rb(?: |$)", no_dry_run),
    verb_if("s3cmd", r"(?:^| )sync (?:.* )?--delete-(?:removed|after)\b", no_dry_run),
    verb("mc", after_options!(r"rb")),
    verb("mc", after_options!(r"rm (?:.* )?(?:-r|--recursive|--versions)")),
    verb_if("mc", after_options!(r"mirror (?:.* )?--remove"), no_dry_run),
    verb_if("gsutil", "", |c| matches(c, &gsutil_path(c), GSUTIL_PURGE)),
    verb_if("gcloud", "", |c| gcloud_path(c).is_some_and(|p| matches(c, &p, GCLOUD_PURGE))),
    verb("b2", r"(?:^| )(?:rm (?:.* )?(?:-r|--recursive)|delete-bucket|bucket delete)(?: |$)"),
    verb_if("b2", r"(?:^| )sync (?:.* )?--delete(?: |$)", no_dry_run),
    verb_if("az", "", |c| matches(c, &az_path(c), AZ_PURGE)),
    verb_if("s5cmd", r"(?:^| )(?:rm (?:.* )?\S*\*|rb|sync (?:.* )?--delete)(?: |$)", no_dry_run),
    verb_if("swift", "", |c| plain_path(c).first() == Some(&"delete")),
];

/// Every version of an object, or every object a wildcard names; a sync
/// that deletes what the source lacks.
#[rustfmt::skip]
static GSUTIL_PURGE: &[Op] = &[
    op(&["rm"], When::Check(|c| short_flag(c, 'a') || has(c, &["--all-versions"]) || wildcard(c))),
    op(&["rsync"], When::Check(|c| short_flag(c, 'd') && no_dry_run(c))),
];

#[rustfmt::skip]
static GCLOUD_PURGE: &[Op] = &[
    op(&["storage", "rm"], When::Check(|c| c.args.iter().any(|a| a == "-a" || a == "--all-versions") || wildcard(c))),
    op(&["storage", "rsync"], When::Check(|c| has(c, &["--delete-unmatched-destination-objects"]) && no_dry_run(c))),
];

#[rustfmt::skip]
static AZ_PURGE: &[Op] = &[
    op(&["storage", "blob", "sync"], When::Value("--delete-destination", &["true"])),
    op(&["storage", "remove"], When::Has(&["--recursive"])),
];

/// Every HTTP client [`request`] reads, for the rows that judge the request it sends.
#[rustfmt::skip]
static HTTP_DELETE: &[Verb] = &[
    verb_if("curl", "", deletes_remote),
    verb_if("wget", "", deletes_remote),
    verb_if("http", "", deletes_remote),
    verb_if("https", "", deletes_remote),
    verb_if("xh", "", deletes_remote),
    verb_if("xhs", "", deletes_remote),
    verb_if("gh", "", deletes_remote),
    verb_if("glab", "", deletes_remote),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "cloud.infra-replace",
        category: "replace infrastructure on apply (terraform apply -replace, pulumi up --replace)",
        reason: "the resource is destroyed and created again: a database, disk or machine comes back empty, with a new address",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(REPLACE),
        hits: &["terraform apply -auto-approve -replace=aws_instance.web", "tofu apply -replace aws_db_instance.main", "terraform taint aws_instance.web", "terragrunt apply -replace=module.db", "pulumi up --yes --replace urn:pulumi:prod::app::aws:rds/instance:Instance::db"],
        misses: &["terraform apply -auto-approve", "terraform plan -replace=aws_instance.web", "pulumi up --yes", "pulumi preview --replace urn:x", "terraform untaint aws_instance.web"],
    },
    Rule {
        id: "cloud.host-pod",
        category: "run a pod with the node's privileges (hostPID, hostNetwork, privileged, kubectl debug node/)",
        reason: "a pod in the node's namespaces, or privileged, is root on the node: it can read every other pod's secrets and the kubelet's credentials",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(HOST_POD),
        hits: &["kubectl run x --image=alpine --overrides='{\"spec\":{\"hostPID\":true}}'", "kubectl debug node/worker-1 -it --image=ubuntu", "kubectl debug -it node/n1 --image=busybox", "kubectl debug pod/web -it --image=busybox --profile=sysadmin", "oc debug node/worker-0"],
        misses: &["kubectl run tmp --rm -it --image=busybox -- sh", "kubectl debug pod/web -it --image=busybox --target=web", "kubectl run x --image=a --overrides='{\"spec\":{\"hostPID\":false}}'", "kubectl get nodes"],
    },
    Rule {
        id: "cloud.scale-to-zero",
        category: "scale every workload of a namespace or selection to zero, or evict every pod (kubectl scale --all --replicas=0, taint --all NoExecute)",
        reason: "everything selected stops serving at once: an outage for all of it, however quickly it is scaled back",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SCALE_TO_ZERO),
        hits: &["kubectl scale deploy --all --replicas=0 -n prod", "kubectl scale statefulset -l app=db --replicas 0", "oc scale dc --all --replicas=0", "kubectl taint nodes --all maintenance=true:NoExecute"],
        misses: &["kubectl scale deploy web --replicas=0", "kubectl scale deploy --all --replicas=2", "kubectl scale deploy --all --replicas=0 --dry-run=client", "kubectl taint nodes node-1 gpu=true:NoSchedule", "kubectl taint nodes --all node-role.kubernetes.io/control-plane-"],
    },
    Rule {
        id: "cloud.store-delete",
        category: "delete or cut off secrets, policies or keys in vault, consul or etcd",
        reason: "every service reading them fails at once, a destroyed secret version or a disabled engine cannot be restored, and a restored snapshot overwrites the whole cluster's state",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(STORE_DELETE),
        hits: &["vault kv delete secret/app", "vault kv metadata delete secret/app", "vault -address=https://v:8200 secrets disable kv/", "vault token revoke -mode=path auth/github", "consul kv delete -recurse app/", "etcdctl del --prefix /registry", "etcdctl --endpoints http://e:2379 del /a", "zkCli.sh -server zk:2181 deleteall /kafka"],
        misses: &["vault kv get secret/app", "vault kv put secret/app k=v", "vault token revoke -self", "consul kv get -recurse app/", "etcdctl get --prefix /registry", "etcdctl put /a b", "etcdctl snapshot restore snap.db --data-dir /var/lib/etcd-new"],
    },
    Rule {
        id: "cloud.remote-purge",
        category: "purge remote storage or backups (rclone purge/sync, restic forget, borg delete, s3cmd/mc/gsutil/b2 recursive deletes)",
        reason: "the files go on the remote side, where there is no trash; a sync deletes whatever the source lacks, and forgotten or deleted backups are the copy that was meant to survive",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(REMOTE_PURGE),
        hits: &["rclone purge remote:backups", "rclone -v delete gdrive:x", "rclone sync ./site s3:bucket/site", "restic forget latest --prune", "restic forget --keep-last 0", "borg delete /mnt/repo", "s3cmd del -r s3://b/", "mc rb --force m/b", "gsutil rm -a gs://b/**", "gsutil -m rsync -d -r . gs://b"],
        misses: &["rclone copy ./site s3:bucket/site", "rclone sync remote:photos ./photos", "rclone sync ./site s3:b --dry-run", "restic forget --keep-daily 7 --prune", "borg prune --keep-daily=7 /mnt/repo", "borg delete --dry-run /mnt/repo", "s3cmd del s3://b/one.txt", "mc rm m/b/one.txt", "gsutil rm gs://b/one.txt", "gsutil rsync -r . gs://b"],
    },
    Rule {
        id: "cloud.http-delete",
        category: "send DELETE to a hosted API (curl -X DELETE, http DELETE, gh api -X DELETE)",
        reason: "the service deletes what the URL names, for everyone who uses it, and an API has no trash; only someone who knows the service can tell a test record from production data",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(HTTP_DELETE),
        hits: &["curl -X DELETE https://api.example.com/v1/users/1", "curl --request delete https://api.example.com/x", "http DELETE api.example.com/items/1", "xh delete https://api.example.com/items/1", "wget --method=DELETE https://api.example.com/x", "gh api -X DELETE /orgs/acme/members/bob", "curl -X DELETE \"$API/items/1\""],
        misses: &["curl -X DELETE http://localhost:3000/api/todos/1", "http DELETE :8080/items/1", "curl -d action=delete https://api.example.com/x", "curl https://api.example.com/delete", "gh api repos/o/r/pulls", "curl -H 'X-Mode: delete' https://api.example.com/x"],
    },
];

/// `terraform apply -replace=…`, and `taint`, a replacement the next apply
/// carries out.
fn terraform_replaces(cmd: &Command) -> bool {
    let ops = cmd.operands();
    let replace = cmd
        .args
        .iter()
        .any(|a| a.starts_with("-replace") || a.starts_with("--replace"));
    (ops.contains(&"apply") && replace) || ops.first() == Some(&"taint")
}

/// `kubectl run` of a pod in the node's namespaces or privileged, and
/// `kubectl debug` of a node or with the sysadmin profile.
fn host_pod(cmd: &Command) -> bool {
    let Some(p) = kubectl_path(cmd) else {
        return false;
    };
    match p.first() {
        Some(&"run") => {
            let overrides = value(cmd, "--overrides").is_some_and(|o| {
                let o: String = o.chars().filter(|c| !c.is_whitespace()).collect();
                [
                    "\"hostPID\":true",
                    "\"hostNetwork\":true",
                    "\"hostIPC\":true",
                    "\"privileged\":true",
                    "\"allowPrivilegeEscalation\":true",
                    "\"hostPath\":",
                ]
                .iter()
                .any(|k| o.contains(k))
            });
            overrides
                || cmd
                    .args
                    .iter()
                    .any(|a| a == "--privileged" || a == "--privileged=true")
        }
        Some(&"debug") => {
            let node = cmd.operands().iter().any(|w| {
                ["node/", "nodes/", "no/"]
                    .iter()
                    .any(|k| w.starts_with(k) && w.len() > k.len())
            });
            let profile =
                value(cmd, "--profile").is_some_and(|v| matches!(v, "sysadmin" | "netadmin"));
            node || profile
        }
        _ => false,
    }
}

/// `kubectl scale … --replicas=0` of many workloads, and a NoExecute taint
/// on many nodes, which evicts every pod that does not tolerate it.
fn scales_to_zero(cmd: &Command) -> bool {
    let Some(p) = kubectl_path(cmd) else {
        return false;
    };
    let stops = match p.first() {
        Some(&"scale") => value(cmd, "--replicas") == Some("0"),
        Some(&"taint") => cmd.args.iter().any(|a| a.ends_with(":NoExecute")),
        _ => false,
    };
    stops && scales_many(cmd)
}

/// A short option given alone or in a cluster (`-a`, `-ra`).
fn short_flag(cmd: &Command, flag: char) -> bool {
    cmd.args
        .iter()
        .any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a[1..].contains(flag))
}

/// An object URL with a wildcard (`gs://b/*`).
fn wildcard(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .any(|a| a.contains("://") && a.contains('*'))
}

/// Not a dry run, in the spellings storage tools use (`-n`, `--dry-run`, `--dryrun`).
fn no_dry_run(cmd: &Command) -> bool {
    !cmd.args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-n" | "--dry-run" | "--dryrun" | "--dry-run=true"
        )
    })
}

/// `kubectl scale` of every object of a kind, of a selection, or across
/// namespaces; one named deployment paused is routine.
fn scales_many(cmd: &Command) -> bool {
    let many = cmd.args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--all" | "-A" | "--all-namespaces" | "-l" | "--selector"
        ) || a.starts_with("--selector=")
            || a.starts_with("--all=true")
            || (a.starts_with("-l") && a.len() > 2 && !a.starts_with("--"))
    });
    many
}

/// rclone's subcommands: the first word among them is the one run (the
/// options before it may take values).
#[rustfmt::skip]
const RCLONE_COMMANDS: &[&str] = &["about", "authorize", "backend", "bisync", "cat", "check", "checksum", "cleanup", "config", "copy", "copyto", "copyurl", "cryptcheck", "cryptdecode", "dedupe", "delete", "deletefile", "gendocs", "hashsum", "link", "listremotes", "ls", "lsd", "lsf", "lsjson", "lsl", "md5sum", "mkdir", "mount", "move", "moveto", "ncdu", "nfsmount", "obscure", "purge", "rc", "rcat", "rcd", "rmdir", "rmdirs", "selfupdate", "serve", "settier", "sha1sum", "size", "sync", "test", "touch", "tree", "version"];

/// The subcommand and the words after it.
fn rclone_command(cmd: &Command) -> Option<(&str, &[String])> {
    let at = cmd
        .args
        .iter()
        .position(|a| RCLONE_COMMANDS.contains(&a.as_str()))?;
    Some((cmd.args[at].as_str(), &cmd.args[at + 1..]))
}

fn rclone_deletes(cmd: &Command) -> bool {
    let deletes = rclone_command(cmd)
        .is_some_and(|(sub, _)| matches!(sub, "purge" | "delete" | "deletefile" | "cleanup"));
    deletes && no_dry_run(cmd)
}

/// Whether a word names a place on an rclone remote (`name:path`, `:s3:b`),
/// not a local path (`./x`, `/x`, `C:\x`).
fn rclone_remote(word: &str) -> bool {
    if word.starts_with(':') {
        return true;
    }
    match word.split_once(':') {
        Some((name, _)) => {
            name.len() > 1
                && !name.contains('/')
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '))
        }
        None => false,
    }
}

/// `rclone sync SRC DST` onto a remote: it deletes there whatever SRC lacks.
fn rclone_sync_to_remote(cmd: &Command) -> bool {
    let Some(("sync", rest)) = rclone_command(cmd) else {
        return false;
    };
    // Operands, leaving out what looks like an option's value (`--transfers 8`).
    let mut operands = Vec::new();
    let mut prev_option = false;
    for word in rest {
        if word.starts_with('-') && word.len() > 1 {
            prev_option = !word.contains('=');
            continue;
        }
        let value_like = !word.contains([':', '/', '.', '~']);
        if !(prev_option && value_like) {
            operands.push(word.as_str());
        }
        prev_option = false;
    }
    operands.get(1).is_some_and(|dst| rclone_remote(dst)) && no_dry_run(cmd)
}

/// restic's options that take a value, besides every `--keep-*`.
#[rustfmt::skip]
const RESTIC_VALUED: &[&str] = &["-r", "--repo", "--repository-file", "-p", "--password-file", "--password-command", "--cache-dir", "--host", "--tag", "--path", "-g", "--group-by", "-o", "--option", "--limit-upload", "--limit-download", "--compression", "--pack-size", "--tls-client-cert", "--cacert", "--max-unused", "--max-repack-size", "-l", "-H", "-d", "-w", "-m", "-y"];

/// `restic forget` of named snapshots, of every snapshot, or keeping none.
/// A forget that keeps a schedule of snapshots is routine rotation.
fn restic_forgets_all(cmd: &Command) -> bool {
    let Some(at) = cmd.args.iter().position(|a| a == "forget") else {
        return false;
    };
    if !no_dry_run(cmd) {
        return false;
    }
    let mut named = false;
    let mut keeps = Vec::new();
    let mut args = cmd.args[at + 1..].iter();
    while let Some(arg) = args.next() {
        if arg == "--unsafe-allow-remove-all" {
            return true;
        }
        let keep = arg.starts_with("--keep-")
            || matches!(arg.as_str(), "-l" | "-H" | "-d" | "-w" | "-m" | "-y");
        if let Some((_, v)) = arg.split_once('=').filter(|_| arg.starts_with("--")) {
            if keep {
                keeps.push(v);
            }
        } else if keep || RESTIC_VALUED.contains(&arg.as_str()) {
            let v = args.next().map(String::as_str);
            if keep {
                keeps.extend(v);
            }
        } else if !arg.starts_with('-') {
            named = true;
        }
    }
    let keeps_none =
        !keeps.is_empty() && keeps.iter().all(|v| v.trim_start_matches('0').is_empty());
    named || keeps_none
}

/// A DELETE sent anywhere but this machine (or to a URL warden cannot read).
fn deletes_remote(cmd: &Command) -> bool {
    has(cmd, &["delete"]) && request(cmd).is_some_and(|r| r.method == "DELETE" && !r.stays_local())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        crate::shell::analyze(line).commands.remove(0)
    }

    #[test]
    fn rclone_destinations() {
        assert!(rclone_remote("s3:bucket"));
        assert!(rclone_remote(":s3:bucket"));
        assert!(!rclone_remote("./site"));
        assert!(!rclone_remote("C:\\data"));
        assert!(rclone_sync_to_remote(&cmd(
            "rclone sync --transfers 8 ./a b2:x"
        )));
        assert!(!rclone_sync_to_remote(&cmd(
            "rclone sync b2:x ./a --transfers 8"
        )));
    }

    #[test]
    fn restic_rotation_is_not_forgetting_all() {
        assert!(!restic_forgets_all(&cmd(
            "restic -r /r forget --keep-last 5 --prune"
        )));
        assert!(restic_forgets_all(&cmd("restic forget 4bba301e")));
        assert!(restic_forgets_all(&cmd("restic forget --keep-last=0")));
        assert!(!restic_forgets_all(&cmd(
            "restic forget 4bba301e --dry-run"
        )));
    }
}
