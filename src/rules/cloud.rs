//! Built-in rules: cloud and infrastructure CLIs that delete or terminate what they manage (aws, gcloud, az, doctl, app platforms, infrastructure state, kubectl side effects).
//!
//! `containers.rs` already asks for `kubectl delete`, `helm uninstall`,
//! `terraform`/`pulumi destroy`, bucket deletes and `gh repo delete`; these
//! rules cover the rest, and those tables come first, so their ids win.

use super::{Matcher, Rule};
use crate::shell::Command;
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "cloud.account-delete",
        category: "delete a cloud account, organization, project, resource group or whole app",
        reason: "everything inside goes at once: every machine, database, bucket and backup in it, and getting any of it back, where the provider allows that at all, takes a support request within days",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["aws", "gcloud", "az", "heroku", "fly", "flyctl", "vercel", "netlify", "supabase"], check: whole },
        hits: &["aws organizations close-account --account-id 123456789012", "aws --profile root organizations remove-account-from-organization --account-id 1", "gcloud projects delete my-proj --quiet", "gcloud --project x beta projects delete x", "az group delete -n rg --yes", "az account subscription cancel --id 0000", "heroku apps:destroy --app shop --confirm shop", "fly apps destroy shop -y", "vercel project rm web", "netlify sites:delete 1234", "supabase projects delete abcd"],
        misses: &["aws organizations list-accounts", "gcloud projects describe my-proj", "gcloud projects list", "az group list", "az group show -n rg", "heroku apps:info --app shop", "fly apps list", "vercel project ls", "supabase projects list", "az group lock delete -n l -g rg"],
    },
    Rule {
        id: "cloud.state-delete",
        category: "remove, overwrite or unlock infrastructure state (terraform state rm/push, force-unlock, workspace delete, pulumi stack rm, state delete)",
        reason: "the state is how terraform or pulumi knows what it manages: what is dropped from it keeps running and billing but is never updated or destroyed by it again, a state overwritten or deleted loses track of a whole environment, with no undo unless the backend keeps versions, and a lock broken under a running apply lets two writers corrupt it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["terraform", "tofu", "terragrunt", "pulumi"], check: state_delete },
        hits: &["terraform state rm aws_instance.web", "terraform -chdir=infra state push -force old.tfstate", "tofu workspace delete -force staging", "terragrunt state rm module.db", "pulumi stack rm prod --force --yes", "pulumi state delete 'urn:pulumi:prod::app::aws:s3/bucket:Bucket::b'", "pulumi -C infra stack rm dev", "terraform force-unlock -force 6638a8b0"],
        misses: &["terraform state list", "terraform state show aws_instance.web", "terraform workspace list", "terraform workspace select staging", "pulumi stack ls", "pulumi stack select prod", "terraform state rm --help", "pulumi state delete -h"],
    },
    Rule {
        id: "cloud.aws-delete",
        category: "aws delete/terminate/deregister/remove (deletes AWS resources)",
        reason: "it deletes or terminates live AWS resources (instances, volumes, databases, stacks with everything they created, users, keys), and most have no undo: what lived only on them is lost",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["aws"], check: part },
        hits: &["aws ec2 terminate-instances --instance-ids i-0abc", "aws --profile p --region r ec2 terminate-instances --instance-ids i-1", "aws cloudformation delete-stack --stack-name prod", "aws rds delete-db-instance --db-instance-identifier db --skip-final-snapshot", "aws iam delete-user --user-name bob", "aws ecr batch-delete-image --repository-name r --image-ids imageTag=v1", "aws ec2 deregister-image --image-id ami-1", "aws sqs purge-queue --queue-url https://q", "aws kms schedule-key-deletion --key-id k", "aws ec2 --region eu-west-1 delete-volume --volume-id vol-1"],
        misses: &["aws ec2 describe-instances", "aws s3 ls s3://b", "aws s3 rm s3://b/one.txt", "aws ec2 terminate-instances --instance-ids i-1 --dry-run", "aws ec2 terminate-instances help", "aws cloudformation delete-stack --generate-cli-skeleton", "aws logs tail /aws/lambda/f --follow", "aws kms cancel-key-deletion --key-id k", "aws sts get-caller-identity"],
    },
    Rule {
        id: "cloud.gcloud-delete",
        category: "gcloud ... delete (deletes Google Cloud resources)",
        reason: "it deletes live Google Cloud resources (instances, disks, clusters, databases, service accounts, key versions), and most have no undo: what lived only on them is lost",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["gcloud"], check: part },
        hits: &["gcloud compute instances delete vm-1 --zone us-central1-a", "gcloud --project x compute instances delete vm", "gcloud container clusters delete prod --region r --quiet", "gcloud sql instances delete db", "gcloud beta run services delete api", "gcloud kms keys versions destroy 1 --key k --keyring r --location global", "gcloud firestore bulk-delete --collection-ids=users"],
        misses: &["gcloud compute instances list", "gcloud compute instances describe delete", "gcloud config configurations delete old", "gcloud help compute instances delete", "gcloud compute instances delete --help", "gcloud pubsub topics publish t --message delete", "gcloud components remove kubectl"],
    },
    Rule {
        id: "cloud.az-delete",
        category: "az ... delete/purge (deletes Azure resources)",
        reason: "it deletes live Azure resources (VMs, disks, clusters, storage accounts, databases, key vaults), and purge removes even the soft-deleted copy Azure keeps for recovery",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["az"], check: part },
        hits: &["az vm delete -g rg -n vm --yes", "az storage account delete -n acct -g rg", "az aks delete --name k --resource-group rg", "az keyvault purge --name kv", "az storage blob delete-batch --source c --account-name a", "az --subscription s sql db delete -n db -g rg -s srv", "az rest --method delete --url https://management.azure.com/x"],
        misses: &["az vm list", "az vm show -g rg -n vm", "az extension remove --name x", "az config unset defaults.group", "az rest --method get --url https://management.azure.com/x", "az vm delete -h", "az storage blob list --container-name delete"],
    },
    Rule {
        id: "cloud.doctl-delete",
        category: "doctl ... delete/rm (deletes DigitalOcean resources)",
        reason: "it deletes live DigitalOcean resources (droplets, volumes, databases, clusters, registries), which DigitalOcean calls irreversible",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["doctl"], check: part },
        hits: &["doctl compute droplet delete web-1 --force", "doctl compute droplet rm 123", "doctl databases delete 1234 -f", "doctl kubernetes cluster delete prod", "doctl registry repository delete-manifest repo sha256:x", "doctl --context team compute volume delete v"],
        misses: &["doctl compute droplet list", "doctl auth remove --context old", "doctl compute droplet delete -h", "doctl databases db list 1234", "doctl compute ssh d"],
    },
    Rule {
        id: "cloud.platform-delete",
        category: "delete deployments, machines, volumes, databases or functions on an app platform (heroku, fly, vercel, netlify, firebase, wrangler, supabase)",
        reason: "the platform deletes it for good: an add-on or volume takes its data with it, a reset database is emptied, and removed functions or deployments stop serving",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "wrangler", "supabase"], check: part },
        hits: &["heroku addons:destroy heroku-postgresql -a shop --confirm shop", "heroku pg:reset DATABASE_URL --confirm shop", "fly volumes destroy vol_123 -y", "flyctl machine rm 1234 --force", "vercel rm my-app-abc123.vercel.app --yes", "firebase firestore:delete --all-collections -P prod", "firebase database:remove /users", "firebase hosting:disable", "wrangler delete", "wrangler r2 bucket delete assets", "supabase db reset --linked", "fly -t ci destroy-pipeline -p app"],
        misses: &["heroku logs --tail -a shop", "heroku pg:info", "fly deploy", "fly ssh console -C 'rm -rf /tmp/x'", "vercel ls", "firebase deploy --only hosting", "wrangler kv key delete k --binding B --local", "supabase db reset", "netlify deploy --prod", "firebase functions:delete -h"],
    },
    Rule {
        id: "cloud.kubectl-drain",
        category: "kubectl drain --force/--delete-emptydir-data (evicts a node and loses data)",
        reason: "draining evicts every pod on the node; with --force pods no controller owns are deleted and never come back, and with --delete-emptydir-data their local data goes with them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["kubectl", "oc"], check: kubectl_drain },
        hits: &["kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data", "kubectl drain node-1 --force", "kubectl --context prod drain n --delete-local-data"],
        misses: &["kubectl drain node-1 --ignore-daemonsets", "kubectl cordon node-1", "kubectl drain node-1 --force --dry-run=client", "kubectl drain node-1 --force=false"],
    },
    Rule {
        id: "cloud.kubectl-side-delete",
        category: "kubectl apply --prune or replace --force (deletes resources as a side effect)",
        reason: "apply --prune deletes every matching object missing from the manifests, and replace --force deletes the object before creating it again, with whatever lived only in it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["kubectl", "oc"], check: kubectl_side_delete },
        hits: &["kubectl apply -f k8s/ --prune -l app=web", "kubectl replace --force -f pod.yaml", "kubectl -n prod apply --prune --all -f dir"],
        misses: &["kubectl apply -f k8s/", "kubectl replace -f pod.yaml", "kubectl apply -f k8s/ --prune -l app=web --dry-run=server"],
    },
    Rule {
        id: "cloud.helmfile-destroy",
        category: "helmfile destroy/delete (uninstalls every release)",
        reason: "it uninstalls every release the helmfile names, and the cluster resources they created",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["helmfile"], check: helmfile_destroy },
        hits: &["helmfile destroy", "helmfile -e prod destroy", "helmfile --file h.yaml delete --purge"],
        misses: &["helmfile diff", "helmfile -e prod apply", "helmfile destroy --help"],
    },
    Rule {
        id: "cloud.forge-delete",
        category: "delete issues, releases, gists, projects or codespaces on a forge (gh/glab ... delete)",
        reason: "the forge deletes them for everyone: a deleted issue or release cannot be restored, and a codespace takes its unpushed work along",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["gh", "glab"], check: forge_delete },
        hits: &["gh issue delete 42 --yes", "gh release delete v1.0 --cleanup-tag -y", "gh cs delete --all", "gh gist delete abc123", "glab mr delete 7", "gh -R o/r release delete-asset v1 app.zip"],
        misses: &["gh issue list", "gh release view v1.0", "gh issue close 42", "gh label list", "gh release delete --help"],
    },
    Rule {
        id: "cloud.other-delete",
        category: "delete or terminate with another cloud CLI (eksctl, hcloud, openstack, oci, linode-cli, azcopy, sam, serverless, sst, amplify, eb, copilot, ...)",
        reason: "it deletes or terminates live cloud resources, or a whole deployed stack, and most have no undo",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: OTHER_CLIS, check: part },
        hits: &["eksctl delete cluster --name prod", "hcloud server delete web", "openstack server delete vm1", "oci compute instance terminate --instance-id ocid1", "linode-cli linodes delete 123", "sls remove --stage prod", "sam delete --stack-name app --no-prompts", "eb terminate prod-env", "copilot app delete --yes", "ibmcloud is instance-delete vsi", "azcopy sync . https://a.blob.core.windows.net/c --delete-destination true", "azcopy rm https://a.blob.core.windows.net/c/dir --recursive", "sst remove --stage production", "amplify delete --force"],
        misses: &["eksctl get cluster", "hcloud server list", "openstack server show vm1", "hcloud context delete old", "sls deploy", "eb status", "openstack server list --name delete", "azcopy sync . https://a.blob.core.windows.net/c --delete-destination=false", "azcopy copy a.txt https://a.blob.core.windows.net/c"],
    },
];

#[rustfmt::skip]
const OTHER_CLIS: &[&str] = &["eksctl", "hcloud", "linode-cli", "openstack", "oci", "ibmcloud", "scw", "vultr-cli", "exo", "azcopy", "sam", "serverless", "sls", "eb", "copilot", "sst", "amplify"];

/// How much a delete takes: one resource, or everything an account, project
/// or resource group holds.
#[derive(Clone, Copy, PartialEq)]
enum Scope {
    Part,
    Whole,
}

fn whole(cmd: &Command) -> bool {
    scope(cmd) == Some(Scope::Whole)
}

fn part(cmd: &Command) -> bool {
    scope(cmd) == Some(Scope::Part)
}

fn scope(cmd: &Command) -> Option<Scope> {
    match cmd.program.as_str() {
        "aws" => aws(cmd),
        "gcloud" => gcloud(cmd),
        "az" => az(cmd),
        "doctl" => doctl(cmd),
        "heroku" => heroku(cmd),
        "fly" | "flyctl" => fly(cmd),
        "vercel" => vercel(cmd),
        "netlify" => netlify(cmd),
        "firebase" => firebase(cmd),
        "wrangler" => wrangler(cmd),
        "supabase" => supabase(cmd),
        p if OTHER_CLIS.contains(&p) => other_cli(cmd),
        _ => None,
    }
}

/// The command path of a CLI that nests groups before its verb
/// (`gcloud compute instances delete vm`): the words up to the first option
/// after them. Options before the first word are global ones and are passed
/// over; those in `valued` (spelled with their dashes) take the next word,
/// and may stand anywhere in the path.
pub(super) fn path<'a>(args: &'a [String], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        i += 1;
        if arg == "--" {
            break;
        }
        if arg.len() < 2 || !arg.starts_with('-') {
            out.push(arg.as_str());
            continue;
        }
        let (key, attached) = match arg.split_once('=') {
            Some((k, _)) => (k, true),
            None => (arg.as_str(), false),
        };
        if valued.contains(&key) {
            i += usize::from(!attached);
        } else if !out.is_empty() {
            // The verb's own options start here; what follows are its values.
            break;
        }
    }
    out
}

/// Words that name an action that deletes nothing: a delete word after one of
/// them is a name or an argument (`gcloud compute instances describe delete`).
/// Words that are also group names (`run`, `deploy`, `logs` in gcloud) are left out.
#[rustfmt::skip]
const OTHER_VERBS: &[&str] = &["list", "ls", "describe", "show", "get", "view", "create", "update", "set", "add", "ssh", "scp", "console", "tail", "read", "exec", "call", "browse", "open", "info", "status", "inspect", "wait", "start", "stop", "restart", "resize", "login", "logout", "help", "init", "invoke", "submit", "publish", "import", "export", "diff", "plan", "copy", "cp", "mv", "sync", "proxy", "port-forward", "connect", "query", "execute", "save", "kubeconfig"];

fn other_verb(word: &str) -> bool {
    #[rustfmt::skip]
    const PREFIXES: &[&str] = &["get-", "list-", "describe-", "show-", "set-", "add-", "create-", "update-"];
    OTHER_VERBS.contains(&word) || PREFIXES.iter().any(|p| word.starts_with(p))
}

/// Where the first word that `is_verb` accepts stands in `path`, looking at
/// no more than `depth` words and stopping at any other verb.
fn verb_at(path: &[&str], depth: usize, is_verb: impl Fn(&str) -> bool) -> Option<usize> {
    for (i, word) in path.iter().enumerate().take(depth) {
        if is_verb(word) {
            return Some(i);
        }
        if other_verb(word) {
            return None;
        }
    }
    None
}

/// Whether `path` starts with one of `prefixes`.
fn starts(path: &[&str], prefixes: &[&[&str]]) -> bool {
    prefixes.iter().any(|p| path.starts_with(p))
}

fn flag(cmd: &Command, names: &[&str]) -> bool {
    cmd.args.iter().any(|a| names.contains(&a.as_str()))
}

/// The value of option `name`, given as `NAME VALUE` or `NAME=VALUE`.
fn value<'a>(cmd: &'a Command, name: &str) -> Option<&'a str> {
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        if arg == name {
            return args.next().map(String::as_str);
        }
        if let Some(v) = arg.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
            return Some(v);
        }
    }
    None
}

/// A boolean option given bare or with a value other than `false` (`--force`, `--force=true`).
fn switch(cmd: &Command, name: &str) -> bool {
    cmd.args.iter().any(|a| {
        a.strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || (rest.starts_with('=') && rest != "=false"))
    })
}

// ---------------------------------------------------------------------------
// The big three and DigitalOcean.

#[rustfmt::skip]
pub(super) const AWS_VALUED: &[&str] = &["--profile", "--region", "--endpoint-url", "--output", "--query", "--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"];

fn aws(cmd: &Command) -> Option<Scope> {
    let p = path(&cmd.args, AWS_VALUED);
    let (service, op) = (*p.first()?, *p.get(1)?);
    // `--dry-run` only checks permissions, the skeleton is a template, and
    // `help` after the operation prints its manual.
    if p.get(2) == Some(&"help") || flag(cmd, &["--dry-run", "--generate-cli-skeleton"]) {
        return None;
    }
    #[rustfmt::skip]
    const ORGS: &[&str] = &["close-account", "remove-account-from-organization", "delete-organization", "leave-organization"];
    if service == "organizations" && ORGS.contains(&op) {
        return Some(Scope::Whole);
    }
    // `s3 rm`/`rb`/`sync --delete` belong to `containers.bucket-delete`.
    let verb = op.split('-').next().unwrap_or(op);
    let deletes = matches!(
        verb,
        "delete" | "terminate" | "deregister" | "remove" | "purge"
    ) || op.starts_with("batch-delete-")
        || op.starts_with("admin-delete-")
        || matches!(
            op,
            "release-address" | "release-hosts" | "schedule-key-deletion"
        );
    (service != "s3" && deletes).then_some(Scope::Part)
}

#[rustfmt::skip]
pub(super) const GCLOUD_VALUED: &[&str] = &["--project", "--account", "--configuration", "--verbosity", "--format", "--flatten", "--billing-project", "--impersonate-service-account", "--trace-token"];

fn gcloud(cmd: &Command) -> Option<Scope> {
    let mut p = path(&cmd.args, GCLOUD_VALUED);
    if matches!(p.first(), Some(&("alpha" | "beta" | "preview"))) {
        p.remove(0);
    }
    // Local settings and the SDK's own components, not cloud resources.
    if matches!(
        p.first(),
        None | Some(&("config" | "auth" | "components" | "help" | "topic"))
    ) {
        return None;
    }
    let at = verb_at(&p[1..], 4, |w| {
        matches!(w, "delete" | "bulk-delete" | "destroy")
    })?;
    if at == 0 && p[0] == "projects" {
        return Some(Scope::Whole);
    }
    Some(Scope::Part)
}

fn az(cmd: &Command) -> Option<Scope> {
    let p = path(&cmd.args, &["--subscription", "--output", "-o", "--query"]);
    if starts(
        &p,
        &[
            &["group", "delete"],
            &["account", "subscription", "cancel"],
            &["devops", "project", "delete"],
        ],
    ) {
        return Some(Scope::Whole);
    }
    if p.first() == Some(&"rest") {
        let method = value(cmd, "--method").or_else(|| value(cmd, "-m"));
        return method
            .filter(|m| m.eq_ignore_ascii_case("delete"))
            .map(|_| Scope::Part);
    }
    // The CLI's own extensions, settings and caches.
    if matches!(
        p.first(),
        None | Some(&("config" | "extension" | "bicep" | "cache" | "cloud"))
    ) {
        return None;
    }
    verb_at(&p[1..], 5, |w| {
        matches!(w, "delete" | "delete-batch" | "purge")
    })
    .map(|_| Scope::Part)
}

fn doctl(cmd: &Command) -> Option<Scope> {
    #[rustfmt::skip]
    const VALUED: &[&str] = &["-t", "--access-token", "-u", "--api-url", "-c", "--config", "--context", "-o", "--output"];
    let p = path(&cmd.args, VALUED);
    if matches!(p.first(), None | Some(&("auth" | "completion"))) {
        return None;
    }
    let delete = |w: &str| {
        matches!(w, "delete" | "d" | "del" | "rm" | "undeploy") || w.starts_with("delete-")
    };
    verb_at(&p[1..], 3, delete).map(|_| Scope::Part)
}

// ---------------------------------------------------------------------------
// App platforms.

/// A path whose words may join topics with colons (`heroku apps:destroy`,
/// `firebase firestore:delete`), split into single words.
fn segments<'a>(p: &[&'a str]) -> Vec<&'a str> {
    p.iter().flat_map(|w| w.split(':')).collect()
}

fn heroku(cmd: &Command) -> Option<Scope> {
    #[rustfmt::skip]
    const VALUED: &[&str] = &["-a", "--app", "-r", "--remote", "-c", "--confirm", "-t", "--team"];
    let s = segments(&path(&cmd.args, VALUED));
    if starts(
        &s,
        &[&["destroy"], &["apps", "destroy"], &["apps", "delete"]],
    ) {
        return Some(Scope::Whole);
    }
    #[rustfmt::skip]
    let parts: &[&[&str]] = &[&["addons", "destroy"], &["addons", "remove"], &["addons", "delete"], &["pg", "reset"], &["pg", "backups", "delete"], &["pg", "backups", "destroy"], &["pipelines", "destroy"], &["spaces", "destroy"]];
    starts(&s, parts).then_some(Scope::Part)
}

fn fly(cmd: &Command) -> Option<Scope> {
    // `fly` is also Concourse CI's CLI, whose `-t` names a target.
    #[rustfmt::skip]
    const VALUED: &[&str] = &["-a", "--app", "-c", "--config", "-t", "--access-token", "--target", "-o", "--org"];
    let p = path(&cmd.args, VALUED);
    let destroy = |w: &str| matches!(w, "destroy" | "delete" | "remove" | "rm");
    if p.first() == Some(&"destroy")
        || (p.first() == Some(&"apps") && p.get(1).is_some_and(|w| destroy(w)))
    {
        return Some(Scope::Whole);
    }
    if matches!(p.first(), Some(&("destroy-pipeline" | "destroy-team"))) {
        return Some(Scope::Part);
    }
    verb_at(p.get(1..)?, 3, destroy).map(|_| Scope::Part)
}

fn vercel(cmd: &Command) -> Option<Scope> {
    #[rustfmt::skip]
    let p = path(&cmd.args, &["-t", "--token", "-S", "--scope", "-T", "--team", "--cwd", "-A", "--local-config", "-Q", "--global-config"]);
    let rm = |i: usize| matches!(p.get(i), Some(&("rm" | "remove")));
    match p.first() {
        Some(&("project" | "projects")) if rm(1) => Some(Scope::Whole),
        // `vercel rm NAME` takes deployments, or every deployment of a project.
        Some(&("rm" | "remove")) => Some(Scope::Part),
        Some(&("domains" | "domain" | "dns")) if rm(1) => Some(Scope::Part),
        _ => None,
    }
}

fn netlify(cmd: &Command) -> Option<Scope> {
    let s = segments(&path(&cmd.args, &["--auth", "--site", "--filter"]));
    if starts(&s, &[&["sites", "delete"]]) {
        return Some(Scope::Whole);
    }
    starts(&s, &[&["blobs", "delete"]]).then_some(Scope::Part)
}

fn firebase(cmd: &Command) -> Option<Scope> {
    let p = path(
        &cmd.args,
        &["-P", "--project", "--account", "--token", "-c", "--config"],
    );
    let s = segments(&p[..p.len().min(1)]);
    let last = *s.last()?;
    let deletes = last == "delete"
        || starts(
            &s,
            &[
                &["database", "remove"],
                &["hosting", "disable"],
                &["ext", "uninstall"],
            ],
        );
    deletes.then_some(Scope::Part)
}

fn wrangler(cmd: &Command) -> Option<Scope> {
    // Local development storage, not the deployed one.
    if flag(cmd, &["--local"]) {
        return None;
    }
    let s = segments(&path(
        &cmd.args,
        &["-c", "--config", "-e", "--env", "--cwd"],
    ));
    verb_at(&s, 4, |w| w == "delete").map(|_| Scope::Part)
}

fn supabase(cmd: &Command) -> Option<Scope> {
    let p = path(&cmd.args, &["--workdir", "--profile"]);
    if starts(&p, &[&["projects", "delete"]]) {
        return Some(Scope::Whole);
    }
    // `db reset` alone resets the local development database.
    let remote_reset = starts(&p, &[&["db", "reset"]])
        && (switch(cmd, "--linked") || cmd.args.iter().any(|a| a.starts_with("--db-url")));
    let deletes = starts(
        &p,
        &[
            &["functions", "delete"],
            &["branches", "delete"],
            &["storage", "rm"],
        ],
    );
    (remote_reset || deletes).then_some(Scope::Part)
}

fn other_cli(cmd: &Command) -> Option<Scope> {
    let p = path(&cmd.args, &[]);
    // `sync --delete-destination true` deletes what the source lacks.
    if cmd.program == "azcopy" && p.first() == Some(&"sync") {
        let delete = value(cmd, "--delete-destination");
        return delete
            .filter(|v| v.eq_ignore_ascii_case("true"))
            .map(|_| Scope::Part);
    }
    // Local contexts and profiles of the CLI itself.
    if matches!(
        p.first(),
        None | Some(&("context" | "config" | "auth" | "completion" | "profile"))
    ) {
        return None;
    }
    let delete = |w: &str| {
        matches!(
            w,
            "delete" | "destroy" | "terminate" | "remove" | "rm" | "purge"
        ) || w.ends_with("-delete")
    };
    verb_at(&p, 4, delete).map(|_| Scope::Part)
}

// ---------------------------------------------------------------------------
// Infrastructure state, kubectl, helmfile, forges.

fn state_delete(cmd: &Command) -> bool {
    let args: &[String] = match cmd.program.as_str() {
        // `terragrunt run -- state rm x` hands terraform what follows `--`.
        "terragrunt" => match cmd.args.iter().position(|a| a == "--") {
            Some(at) => &cmd.args[at + 1..],
            None => &cmd.args,
        },
        _ => &cmd.args,
    };
    #[rustfmt::skip]
    const VALUED: &[&str] = &["-C", "--cwd", "-s", "--stack", "--working-dir", "--terragrunt-working-dir"];
    let mut p = path(args, VALUED);
    if matches!(p.first(), Some(&("run" | "run-all"))) {
        p.remove(0);
    }
    if cmd.program == "pulumi" {
        return starts(&p, &[&["stack", "rm"], &["state", "delete"]]);
    }
    starts(
        &p,
        &[
            &["state", "rm"],
            &["state", "push"],
            &["workspace", "delete"],
            &["force-unlock"],
        ],
    )
}

#[rustfmt::skip]
pub(super) const KUBECTL_VALUED: &[&str] = &["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "--as", "--as-group", "--request-timeout", "-v", "--cache-dir"];

/// `--dry-run` alone meant client-side in older kubectl; `=none` really acts.
fn kubectl_dry_run(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .any(|a| a == "--dry-run" || (a.starts_with("--dry-run=") && a != "--dry-run=none"))
}

fn kubectl_drain(cmd: &Command) -> bool {
    let p = path(&cmd.args, KUBECTL_VALUED);
    let loses = ["--force", "--delete-emptydir-data", "--delete-local-data"];
    p.first() == Some(&"drain") && loses.iter().any(|f| switch(cmd, f)) && !kubectl_dry_run(cmd)
}

fn kubectl_side_delete(cmd: &Command) -> bool {
    let p = path(&cmd.args, KUBECTL_VALUED);
    let side = match p.first() {
        Some(&"apply") => switch(cmd, "--prune"),
        Some(&"replace") => switch(cmd, "--force"),
        _ => false,
    };
    side && !kubectl_dry_run(cmd)
}

fn helmfile_destroy(cmd: &Command) -> bool {
    #[rustfmt::skip]
    let p = path(&cmd.args, &["-e", "--environment", "-f", "--file", "-n", "--namespace", "--kube-context", "-l", "--selector", "-b", "--helm-binary", "--state-values-set", "--state-values-file"]);
    matches!(p.first(), Some(&("destroy" | "delete")))
}

fn forge_delete(cmd: &Command) -> bool {
    let p = path(&cmd.args, &["-R", "--repo"]);
    let delete = matches!(p.get(1), Some(&("delete" | "delete-asset")));
    let what: &[&str] = match cmd.program.as_str() {
        "gh" => &["issue", "release", "gist", "project", "codespace", "cs"],
        _ => &["issue", "release", "mr", "snippet"],
    };
    delete && p.first().is_some_and(|w| what.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn path_passes_over_global_options_and_ends_at_the_verbs_own() {
        let args =
            words("--profile p --debug ec2 --region r terminate-instances --instance-ids i-1");
        assert_eq!(path(&args, AWS_VALUED), vec!["ec2", "terminate-instances"]);
        let args = words("--project=x compute instances delete vm --zone z");
        assert_eq!(
            path(&args, GCLOUD_VALUED),
            vec!["compute", "instances", "delete", "vm"]
        );
        let args = words("exec pod -- rm -rf /");
        assert_eq!(path(&args, KUBECTL_VALUED), vec!["exec", "pod"]);
    }

    #[test]
    fn a_delete_word_after_another_verb_is_an_argument() {
        assert_eq!(
            verb_at(&["instances", "delete"], 4, |w| w == "delete"),
            Some(1)
        );
        assert_eq!(
            verb_at(&["instances", "describe", "delete"], 4, |w| w == "delete"),
            None
        );
        assert_eq!(
            verb_at(&["a", "b", "c", "delete"], 3, |w| w == "delete"),
            None
        );
    }

    #[test]
    fn scopes() {
        let s = |line: &str| scope(&Command::from_words(line));
        assert!(s("gcloud projects delete p") == Some(Scope::Whole));
        assert!(s("gcloud compute instances delete p") == Some(Scope::Part));
        assert!(s("az group delete -n rg") == Some(Scope::Whole));
        assert!(s("az group lock delete -n l") == Some(Scope::Part));
        assert!(s("aws ec2 describe-volumes").is_none());
        assert!(s("heroku pg:backups:delete b001 -a shop") == Some(Scope::Part));
        assert!(s("heroku run rake destroy").is_none());
        assert!(s("firebase use delete").is_none());
        assert!(switch(
            &Command::from_words("kubectl drain n --force=true"),
            "--force"
        ));
        assert!(!switch(
            &Command::from_words("kubectl drain n --forceful"),
            "--force"
        ));
    }
}
