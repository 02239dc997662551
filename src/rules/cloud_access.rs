//! Built-in rules: who may reach a cloud account and what it records (credentials minted, administrator rights granted, firewalls opened to the internet, data made public, audit logging turned off, a cluster's secrets printed), one row per CLI and operation.

use serde_json::Value;

use super::cloud::{path, AWS_VALUED, GCLOUD_VALUED};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// A row for `aws SERVICE OP`, where OP matches `ops` (a regex
/// alternation) and the rest of the line then matches `then` (`""`: any).
/// Global options may stand between the service and the operation.
macro_rules! aws {
    ($service:literal, $ops:literal) => {
        aws!($service, $ops, "")
    };
    ($service:literal, $ops:literal, $then:literal) => {
        verb_if(
            "aws",
            concat!(r"(?:^| )(?:", $service, r") (?:-\S+ (?:\S+ )?)*?(?:", $ops, r")(?: |$)", $then),
            aws_acts,
        )
    };
}

/// A row for `gcloud [alpha|beta] GROUPS...`, `path` being the words of the
/// command group and verb as a regex (`logging sinks delete`).
macro_rules! gcloud {
    ($path:literal) => {
        gcloud!($path, "")
    };
    ($path:literal, $then:literal) => {
        verb_if(
            "gcloud",
            concat!(r"(?:^| )(?:alpha |beta |preview )?(?:", $path, r")(?: |$)", $then),
            gcloud_acts,
        )
    };
}

/// Credentials minted, logins given, and accounts made: each is a new way in
/// that outlives the session and that nobody else sees being made.
#[rustfmt::skip]
static CREDENTIALS: &[Verb] = &[
    aws!("iam", "create-access-key|create-login-profile|update-login-profile|create-user|create-service-specific-credential|upload-ssh-public-key|deactivate-mfa-device"),
    aws!("iam", "update-access-key", r".*--status(?:=| )Active\b"),
    aws!("cognito-idp", "admin-create-user|admin-set-user-password"),
    aws!("sts", "get-federation-token"),
    aws!("rolesanywhere", "create-trust-anchor|create-profile"),
    gcloud!(r"sql users set-password"),
    verb("az", r"(?i)(?:^| )(?:sql server|postgres server|postgres flexible-server|mysql server|mysql flexible-server) update .*--admin-password(?:=| )"),
    gcloud!(r"iam service-accounts keys (?:create|upload)"),
    gcloud!(r"compute (?:instances|project-info) add-metadata", r".*\b(?:ssh-keys|sshKeys|startup-script|startup-script-url)="),
    verb("az", r"(?:^| )ad (?:app|sp) credential reset(?: |$)"),
    verb("az", r"(?:^| )ad sp create-for-rbac(?: |$)"),
    verb("az", r"(?:^| )ad user create(?: |$)"),
    verb("az", r"(?:^| )ad user update .*--password(?:=| )"),
    verb("az", r"(?:^| )vm user (?:update|create)(?: |$)"),
    verb("kubectl", r"(?:^| )create token(?: |$)"),
    verb("kubectl", r"(?:^| )certificate approve(?: |$)"),
    verb("oc", r"(?:^| )create token(?: |$)"),
    verb("mc", r"^(?:-\S+ )*admin (?:user (?:add|svcacct add)|accesskey create)(?: |$)"),
    verb("vault", r"^(?:-\S+ )*token create .*-policy(?:=| )root\b"),
    verb("vault", r"^(?:-\S+ )*operator generate-root(?: |$)"),
];

/// Administrator rights, or the right to grant them, handed to an identity.
#[rustfmt::skip]
static ADMIN_GRANTS: &[Verb] = &[
    aws!("iam", "attach-(?:user|role|group)-policy", r".*\b(?:AdministratorAccess|IAMFullAccess|PowerUserAccess)\b"),
    verb_if("aws", r"(?:^| )iam (?:-\S+ (?:\S+ )?)*?(?:put-(?:user|role|group)-policy|create-policy-version)(?: |$)", allows_every_action),
    aws!("iam", "update-assume-role-policy"),
    aws!("iam", "add-user-to-group", r"(?i).*--group-name(?:=| )\S*admin"),
    gcloud!(r"\S+(?: \S+)? add-iam-policy-binding", r".*--role(?:=| )(?:roles/)?(?:owner|editor|iam\.securityAdmin|iam\.serviceAccountTokenCreator|iam\.serviceAccountKeyAdmin|iam\.roleAdmin|iam\.organizationRoleAdmin|resourcemanager\.projectIamAdmin|resourcemanager\.folderAdmin|resourcemanager\.folderIamAdmin|resourcemanager\.organizationAdmin|billing\.admin)\b"),
    gcloud!(r"\S+(?: \S+)? set-iam-policy"),
    verb("az", r"(?i)(?:^| )role assignment create .*--role(?:=| )(?:owner|contributor|user access administrator|role based access control administrator|8e3af657-a8ff-443c-a75c-2fe8c4bcb635|b24988ac-6180-42a0-ab88-20f7382dd24c|18d7d88d-d35e-4fb5-a5c3-7773c20a72d9)(?: |$)"),
    verb("az", r"(?:^| )ad app permission (?:grant|admin-consent)(?: |$)"),
    verb_if("kubectl", r"(?:^| )create clusterrolebinding .*--clusterrole(?:=| )(?:cluster-admin|admin|edit)(?: |$)", not_dry_run),
    verb_if("kubectl", r"(?:^| )create rolebinding .*--clusterrole(?:=| )cluster-admin(?: |$)", not_dry_run),
    verb_if("oc", r"(?:^| )create (?:cluster)?rolebinding .*--clusterrole(?:=| )cluster-admin(?: |$)", not_dry_run),
    verb("oc", r"(?:^| )adm policy add-(?:cluster-role-to-(?:user|group) cluster-admin|scc-to-(?:user|group) (?:privileged|anyuid|hostaccess))(?: |$)"),
    verb("mc", r"^(?:-\S+ )*admin policy (?:attach|set) \S+ consoleAdmin(?: |$)"),
    verb_if("kubectl", r"(?:^| )create clusterrole (?:.* )?--verb(?:=| )(?:\S*,)?\*", not_dry_run),
    verb("gh", r"(?i)(?:^| )api .*(?:collaborators|memberships)/\S+.*\b(?:permission|role)=admin\b|(?:^| )api .*\b(?:permission|role)=admin\b.*(?:collaborators|memberships)/"),
];

/// Firewalls and security groups opened to every address on the internet.
#[rustfmt::skip]
static WORLD_OPEN: &[Verb] = &[
    aws!("ec2", "authorize-security-group-ingress", r".*(?:0\.0\.0\.0/0|::/0)"),
    aws!("lightsail", "open-instance-public-ports|put-instance-public-ports", r".*(?:0\.0\.0\.0/0|::/0)"),
    verb_if("gcloud", r"(?:^| )compute firewall-rules (?:create|update)(?: |$)", firewall_from_anywhere),
    verb_if("az", r"(?:^| )network nsg rule (?:create|update)(?: |$)", nsg_from_anywhere),
    verb("az", r"(?:^| )vm open-port(?: |$)"),
    verb("doctl", r"(?:^| )compute firewall (?:create|update|add-rules) .*address:(?:0\.0\.0\.0/0|::/0)"),
    verb("hcloud", r"(?:^| )firewall add-rule .*--direction(?:=| )in\b.*(?:0\.0\.0\.0/0|::/0)"),
    verb("openstack", r"(?:^| )security group rule create .*--remote-ip(?:=| )(?:0\.0\.0\.0/0|::/0)"),
];

/// Data or services made readable, writable or callable by anyone.
#[rustfmt::skip]
static PUBLIC: &[Verb] = &[
    aws!("s3api|s3", r"put-bucket-acl|put-object-acl|put-object|create-bucket|copy-object|cp|sync|mv", r".*--acl(?:=| )(?:public-read|public-read-write|authenticated-read)\b"),
    aws!("s3api|s3", r"put-bucket-acl|put-object-acl|put-object|create-bucket|copy-object|cp|sync|mv", r".*(?:acs\.amazonaws\.com/groups/global/(?:AllUsers|AuthenticatedUsers))"),
    aws!("s3api|s3control", "put-public-access-block", r"(?i).*=false\b"),
    aws!("ec2", "modify-snapshot-attribute|modify-image-attribute", r"(?i).*(?:--group-names(?:=| )all\b|group=all\b)"),
    aws!("rds", "modify-db-snapshot-attribute|modify-db-cluster-snapshot-attribute", r".*--values-to-add(?:=| )(?:\S+ )*?all(?: |$)"),
    aws!("rds", "modify-db-instance|create-db-instance|modify-db-cluster|create-db-cluster", r".*--publicly-accessible(?: |$)"),
    aws!("lambda", "create-function-url-config|update-function-url-config", r".*--auth-type(?:=| )NONE\b"),
    aws!("lambda", "add-permission", r#".*--principal(?:=| )["']?\*"#),
    verb("az", r"(?:^| )(?:disk|snapshot) grant-access(?: |$)"),
    verb_if("aws", r#"Principal|"AWS""#, allows_everyone),
    verb("gcloud", r"--member(?:=| )(?:allUsers|allAuthenticatedUsers)\b"),
    verb("gcloud", r"--(?:predefined-acl|predefined-default-object-acl)(?:=| )(?:publicRead|publicReadWrite|authenticatedRead)\b"),
    verb("gsutil", r"(?:^| )iam ch (?:-\S+ )*(?:\S+ )*?(?:allUsers|allAuthenticatedUsers):"),
    verb("gsutil", r"(?i)(?:^| )(?:acl|defacl) ch .*(?:allusers|allauthenticatedusers):"),
    verb("gsutil", r"(?:^| )(?:acl|defacl) set (?:-\S+ )*(?:public-read|public-read-write|authenticated-read)\b"),
    verb("gsutil", r"(?:^| )(?:cp|rsync|mv) .*-a (?:public-read|public-read-write|authenticated-read)\b"),
    verb("az", r"(?:^| )storage container (?:set-permission|create) .*--public-access(?:=| )(?:blob|container)\b"),
    verb("az", r"(?i)(?:^| )storage account (?:update|create) .*--allow-blob-public-access(?:(?:=| )true\b|(?: -|$))"),
    verb("mc", r"^(?:-\S+ )*(?:anonymous|policy) set (?:public|download|upload)\b"),
    verb("s3cmd", r"(?:^| )(?:--acl-public|-P)(?: |$)"),
    verb("gh", r"(?:^| )repo edit .*--visibility(?:=| )public\b"),
];

/// Audit trails, threat detection and logs turned off or deleted: what
/// would show afterwards what happened.
#[rustfmt::skip]
static AUDIT: &[Verb] = &[
    aws!("cloudtrail", "stop-logging|delete-trail|remove-tags"),
    aws!("cloudtrail", "update-trail", r".*--(?:no-\S+|s3-bucket-name|cloud-watch-logs-\S+)"),
    aws!("cloudtrail", "put-event-selectors|put-insight-selectors", r#".*(?:IncludeManagementEvents\W+false|ExcludeManagementEventSources|"ReadWriteType"\W+"ReadOnly")"#),
    aws!("guardduty", "delete-detector|disassociate-from-master-account|disassociate-from-administrator-account|disassociate-members|stop-monitoring-members|delete-members|delete-publishing-destination|create-ip-set|update-ip-set"),
    aws!("guardduty", "update-detector", r".*--no-enable\b"),
    aws!("guardduty", "create-filter|update-filter", r"(?i).*--action(?:=| )archive\b"),
    aws!("configservice|config", "stop-configuration-recorder|delete-configuration-recorder|delete-delivery-channel|delete-config-rule|delete-conformance-pack"),
    aws!("securityhub", "disable-security-hub|batch-disable-standards|disable-import-findings-for-product|disassociate-from-administrator-account|disassociate-from-master-account"),
    aws!("macie2", "disable-macie|disable-organization-admin-account"),
    aws!("inspector2", "disable"),
    aws!("detective", "delete-graph|disassociate-membership"),
    aws!("access-analyzer", "delete-analyzer"),
    aws!("logs", "delete-log-group|delete-log-stream|delete-subscription-filter|delete-destination"),
    aws!("ec2", "delete-flow-logs|disable-ebs-encryption-by-default"),
    aws!("kms", "disable-key|disable-key-rotation"),
    aws!("cloudwatch", "disable-alarm-actions|delete-alarms"),
    aws!("s3api", "put-bucket-logging", r"(?:.* )?--bucket-logging-status(?:=| )'?\{\s*\}"),
    aws!("s3api", "put-bucket-versioning", r"(?i).*status=suspended\b"),
    aws!("organizations", "disable-aws-service-access", r".*(?:cloudtrail|guardduty|config|securityhub|access-analyzer)\S*\.amazonaws\.com"),
    aws!("eks", "update-cluster-config", r#"(?i).*"enabled"\W*false"#),
    aws!("rds", "modify-db-instance|modify-db-cluster", r".*DisableLogTypes="),
    aws!("elbv2|elb", "modify-load-balancer-attributes", r"(?i).*access_logs\.s3\.enabled,Value=false"),
    gcloud!(r"logging (?:sinks|buckets|logs|views|links) delete"),
    gcloud!(r"logging sinks update", r".*--disabled\b"),
    gcloud!(r"logging settings update", r".*--disable-default-sink\b"),
    gcloud!(r"services disable"),
    gcloud!(r"scc (?:muteconfigs|mute-configs) create"),
    verb("az", r"(?:^| )monitor (?:diagnostic-settings|log-profiles|log-analytics workspace) delete(?: |$)"),
    verb("az", r"(?i)(?:^| )network watcher flow-log (?:update .*--enabled(?:=| )false\b|delete(?: |$))"),
    verb("az", r"(?i)(?:^| )security pricing create .*--tier(?:=| )free\b"),
    verb("az", r"(?i)(?:^| )security auto-provisioning-setting update .*--auto-provision(?:=| )off\b"),
    verb("az", r"(?i)(?:^| )sql (?:server|db) audit-policy update .*--state(?:=| )disabled\b"),
    verb("vault", r"^(?:-\S+ )*audit disable(?: |$)"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "cloud.credential-create",
        category: "mint a cloud credential or login (IAM access keys, service-account keys, app secrets, console passwords, new cloud accounts)",
        reason: "a key, password or token made now is a way into the account that outlives this session, and nobody reviews it the way they review a change of code",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(CREDENTIALS),
        hits: &["aws iam create-access-key --user-name bob", "aws --profile prod iam create-login-profile --user-name eve --password x", "aws iam create-user --user-name svc", "gcloud iam service-accounts keys create k.json --iam-account=sa@p.iam.gserviceaccount.com", "az ad app credential reset --id 1", "az ad sp create-for-rbac --name ci", "kubectl create token admin -n kube-system", "gcloud compute instances add-metadata vm --metadata=ssh-keys='me:ssh-ed25519 AAAA'", "vault token create -policy=root"],
        misses: &["aws iam list-access-keys", "aws iam create-access-key help", "gcloud iam service-accounts keys list --iam-account=sa@p.iam.gserviceaccount.com", "az ad app credential list --id 1", "kubectl create secret generic x --from-literal=a=b", "vault token lookup", "gcloud compute instances add-metadata vm --metadata=enable-oslogin=TRUE"],
    },
    Rule {
        id: "cloud.admin-grant",
        category: "grant administrator rights in a cloud account or cluster (AdministratorAccess, roles/owner, Owner, cluster-admin, trust policies)",
        reason: "whoever receives the grant can do anything in the account or cluster, including granting themselves more and removing everyone else",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(ADMIN_GRANTS),
        hits: &["aws iam attach-user-policy --user-name eve --policy-arn arn:aws:iam::aws:policy/AdministratorAccess", "aws iam update-assume-role-policy --role-name r --policy-document file://t.json", "aws iam put-user-policy --user-name e --policy-name p --policy-document '{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}'", "gcloud projects add-iam-policy-binding p --member=user:e@x.com --role=roles/owner", "gcloud projects set-iam-policy p policy.json", "az role assignment create --assignee e --role Owner", "kubectl create clusterrolebinding x --clusterrole=cluster-admin --serviceaccount=default:default", "oc adm policy add-scc-to-user privileged -z default", "gh api -X PUT repos/o/r/collaborators/eve -f permission=admin"],
        misses: &["aws iam attach-role-policy --role-name r --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess", "aws iam put-user-policy --user-name e --policy-name quarantine --policy-document '{\"Statement\":[{\"Effect\":\"Deny\",\"Action\":\"*\",\"Resource\":\"*\"}]}'", "gcloud projects get-iam-policy p", "gcloud projects add-iam-policy-binding p --member=serviceAccount:s@p.iam.gserviceaccount.com --role=roles/storage.objectViewer", "az role assignment create --assignee e --role Reader", "kubectl create clusterrolebinding v --clusterrole=view --user=dev", "kubectl create clusterrolebinding x --clusterrole=cluster-admin --user=e --dry-run=client -o yaml", "gh api -X PUT repos/o/r/collaborators/eve -f permission=pull"],
    },
    Rule {
        id: "cloud.world-open",
        category: "open a firewall or security group to the whole internet (0.0.0.0/0, ::/0, any source)",
        reason: "every address on the internet can reach the port, and scanners find an open SSH, RDP or database port within minutes",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(WORLD_OPEN),
        hits: &["aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0", "gcloud compute firewall-rules create open --allow=tcp:22 --source-ranges=0.0.0.0/0", "gcloud compute firewall-rules create open --allow=tcp:22", "az network nsg rule create -g rg --nsg-name n -n r --priority 100 --source-address-prefixes '*' --destination-port-ranges 22", "az vm open-port -g rg -n vm --port 22"],
        misses: &["aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 10.0.0.0/8", "gcloud compute firewall-rules create internal --allow=tcp --source-ranges=10.0.0.0/8", "gcloud compute firewall-rules create out --direction=EGRESS --allow=tcp --destination-ranges=0.0.0.0/0", "az network nsg rule create -g rg --nsg-name n -n deny --priority 100 --source-address-prefixes '*' --access Deny", "aws ec2 describe-security-groups"],
    },
    Rule {
        id: "cloud.public-access",
        category: "make cloud data or a service public (public-read ACLs, allUsers, Principal \"*\", public snapshots and images, public containers)",
        reason: "anyone on the internet can then read, and sometimes write, what was private; crawlers look for exactly these buckets, snapshots and images",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(PUBLIC),
        hits: &["aws s3api put-bucket-acl --bucket b --acl public-read", "aws s3 cp f s3://b/ --acl public-read", "aws s3api put-bucket-policy --bucket b --policy '{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"*\"}]}'", "gsutil iam ch allUsers:objectViewer gs://b", "gcloud storage buckets add-iam-policy-binding gs://b --member=allUsers --role=roles/storage.objectViewer", "az storage container set-permission -n c --public-access blob", "aws ec2 modify-snapshot-attribute --snapshot-id s --attribute createVolumePermission --operation-type add --group-names all", "mc anonymous set public m/b", "gh repo edit o/r --visibility public"],
        misses: &["aws s3 cp f s3://b/", "aws s3api put-bucket-acl --bucket b --acl private", "aws s3api put-bucket-policy --bucket b --policy '{\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3:*\",\"Resource\":\"*\",\"Condition\":{\"Bool\":{\"aws:SecureTransport\":\"false\"}}}]}'", "gsutil iam ch user:a@x.com:objectViewer gs://b", "az storage container set-permission -n c --public-access off", "mc anonymous set none m/b", "gh repo edit o/r --visibility private", "aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicAcls=true"],
    },
    Rule {
        id: "cloud.audit-off",
        category: "turn off or delete cloud audit logging and threat detection (CloudTrail, GuardDuty, Config, log sinks, diagnostic settings)",
        reason: "what happens afterwards leaves no record, and what was recorded may be gone: it is the first step of covering tracks",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(AUDIT),
        hits: &["aws cloudtrail stop-logging --name main", "aws --region us-east-1 cloudtrail update-trail --name main --no-is-multi-region-trail", "aws guardduty update-detector --detector-id d --no-enable", "aws configservice stop-configuration-recorder --configuration-recorder-name default", "aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Suspended", "gcloud logging sinks update _Default --disabled", "gcloud services disable cloudaudit.googleapis.com", "az network watcher flow-log update -g rg -n fl --enabled false", "vault audit disable file/"],
        misses: &["aws cloudtrail describe-trails", "aws cloudtrail start-logging --name main", "aws cloudtrail update-trail --name main --enable-log-file-validation", "aws guardduty update-detector --detector-id d --enable", "aws cloudtrail stop-logging help", "gcloud logging sinks list", "gcloud help logging sinks delete", "gcloud services enable logging.googleapis.com", "vault audit list"],
    },
];

/// An AWS call that acts: not a dry run, a skeleton or a manual page.
fn aws_acts(cmd: &Command) -> bool {
    let p = path(&cmd.args, AWS_VALUED);
    p.get(2) != Some(&"help")
        && !cmd
            .args
            .iter()
            .any(|a| a == "--dry-run" || a.starts_with("--generate-cli-skeleton"))
}

/// A gcloud call that acts: not the manual of one (`gcloud help logging …`).
fn gcloud_acts(cmd: &Command) -> bool {
    let p = path(&cmd.args, GCLOUD_VALUED);
    !matches!(p.first(), Some(&("help" | "topic")))
}

fn not_dry_run(cmd: &Command) -> bool {
    !cmd.args
        .iter()
        .any(|a| a == "--dry-run" || (a.starts_with("--dry-run=") && a != "--dry-run=none"))
}

/// The value of option `name`, given as `NAME VALUE` or `NAME=VALUE`; the
/// last one given, as the CLIs read it.
fn value<'a>(cmd: &'a Command, name: &str) -> Option<&'a str> {
    let mut found = None;
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        if arg == name {
            found = args.next().map(String::as_str);
        } else if let Some(v) = arg.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
            found = Some(v);
        }
    }
    found
}

/// Whether an address range is every address.
fn anywhere(range: &str) -> bool {
    let range = range.trim_matches(|c| c == '\'' || c == '"');
    matches!(
        range.to_ascii_lowercase().as_str(),
        "0.0.0.0/0" | "::/0" | "*" | "internet" | "any" | "0.0.0.0"
    )
}

/// `gcloud compute firewall-rules create|update` letting in every address:
/// a source range of 0.0.0.0/0, or, on create, no source at all (gcloud's
/// default is then 0.0.0.0/0). Egress and deny rules let nothing in.
fn firewall_from_anywhere(cmd: &Command) -> bool {
    if !gcloud_acts(cmd) {
        return false;
    }
    let egress = value(cmd, "--direction").is_some_and(|d| d.eq_ignore_ascii_case("egress"));
    let deny = value(cmd, "--action").is_some_and(|a| a.eq_ignore_ascii_case("deny"))
        || value(cmd, "--rules").is_none() && cmd.args.iter().any(|a| a.starts_with("--deny"));
    if egress || deny {
        return false;
    }
    match value(cmd, "--source-ranges") {
        Some(ranges) => ranges.split(',').any(anywhere),
        None => {
            let creates = path(&cmd.args, GCLOUD_VALUED).contains(&"create");
            let sourced = cmd.args.iter().any(|a| {
                a.starts_with("--source-tags") || a.starts_with("--source-service-accounts")
            });
            creates && !sourced
        }
    }
}

/// `az network nsg rule create|update` allowing inbound traffic from any
/// source: `*`, `Internet`, `0.0.0.0/0`, or, on create, no source (the
/// CLI's default is `*`).
fn nsg_from_anywhere(cmd: &Command) -> bool {
    let deny = value(cmd, "--access").is_some_and(|a| a.eq_ignore_ascii_case("deny"));
    let outbound = value(cmd, "--direction").is_some_and(|d| d.eq_ignore_ascii_case("outbound"));
    if deny || outbound {
        return false;
    }
    // `--source-address-prefixes` takes several words; any of them may be `*`.
    let mut sources = Vec::new();
    let mut args = cmd.args.iter();
    let mut named = false;
    while let Some(arg) = args.next() {
        if let Some(v) = arg.strip_prefix("--source-address-prefixes=") {
            named = true;
            sources.push(v);
        } else if arg == "--source-address-prefixes" {
            named = true;
            for v in args.by_ref() {
                if v.starts_with("--") {
                    break;
                }
                sources.push(v.as_str());
            }
        }
    }
    let creates = path(&cmd.args, &["--subscription", "-o", "--output", "--query"])
        .contains(&"create");
    if named {
        sources.iter().any(|s| s.split([',', ' ']).any(anywhere))
    } else {
        creates && !cmd.args.iter().any(|a| a.starts_with("--source-asgs"))
    }
}

/// The JSON documents among `cmd`'s arguments, and the policies nested in
/// them as strings (an SQS queue's `Policy` attribute).
fn documents(cmd: &Command) -> Vec<Value> {
    let mut out = Vec::new();
    for arg in &cmd.args {
        let text = arg.split_once('=').map_or(arg.as_str(), |(k, v)| {
            if k.starts_with('-') || !k.contains('{') {
                v
            } else {
                arg.as_str()
            }
        });
        if let Ok(doc) = serde_json::from_str::<Value>(text.trim_matches('\'')) {
            nested(doc, &mut out, 0);
        }
    }
    out
}

fn nested(doc: Value, out: &mut Vec<Value>, depth: usize) {
    // A policy inside a string inside a policy is as deep as these go.
    if depth > 3 {
        return;
    }
    let mut inner = Vec::new();
    match &doc {
        Value::Object(map) => inner.extend(map.values().filter_map(|v| v.as_str())),
        Value::Array(items) => inner.extend(items.iter().filter_map(|v| v.as_str())),
        _ => {}
    }
    for text in inner {
        if let Ok(v) = serde_json::from_str::<Value>(text) {
            if v.is_object() || v.is_array() {
                nested(v, out, depth + 1);
            }
        }
    }
    out.push(doc);
}

/// The statements that allow something, with no condition narrowing them.
fn allowing(doc: &Value) -> Vec<&Value> {
    let statements: Vec<&Value> = match doc.get("Statement") {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(one @ Value::Object(_)) => vec![one],
        _ => Vec::new(),
    };
    statements
        .into_iter()
        .filter(|s| {
            let effect = s.get("Effect").and_then(Value::as_str);
            effect.is_some_and(|e| e.eq_ignore_ascii_case("allow"))
        })
        .collect()
}

/// Whether a value is `"*"` or a list or map holding it.
fn is_star(v: &Value) -> bool {
    match v {
        Value::String(s) => s == "*",
        Value::Array(items) => items.iter().any(is_star),
        Value::Object(map) => map.values().any(is_star),
        _ => false,
    }
}

/// A resource policy whose allowing statement names every principal, or
/// every principal but some (`NotPrincipal`), with no condition.
fn allows_everyone(cmd: &Command) -> bool {
    aws_acts(cmd)
        && documents(cmd).iter().any(|doc| {
            allowing(doc).iter().any(|s| {
                s.get("Condition").is_none()
                    && (s.get("Principal").is_some_and(is_star) || s.get("NotPrincipal").is_some())
            })
        })
}

/// An identity policy allowing every action, or every IAM action.
fn allows_every_action(cmd: &Command) -> bool {
    let every = |v: &Value| match v {
        Value::String(s) => matches!(s.as_str(), "*" | "*:*" | "iam:*"),
        Value::Array(items) => items
            .iter()
            .any(|i| matches!(i.as_str(), Some("*" | "*:*" | "iam:*"))),
        _ => false,
    };
    aws_acts(cmd)
        && documents(cmd).iter().any(|doc| {
            allowing(doc)
                .iter()
                .any(|s| s.get("Action").is_some_and(every) || s.get("NotAction").is_some())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        crate::shell::analyze(line).commands.remove(0)
    }

    #[test]
    fn policies_allowing_everyone() {
        let public = r#"aws s3api put-bucket-policy --bucket b --policy '{"Statement":{"Effect":"Allow","Principal":{"AWS":["*"]},"Action":"s3:GetObject","Resource":"*"}}'"#;
        assert!(allows_everyone(&cmd(public)));
        let narrowed = r#"aws s3api put-bucket-policy --bucket b --policy '{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*","Condition":{"IpAddress":{"aws:SourceIp":"10.0.0.0/8"}}}]}'"#;
        assert!(!allows_everyone(&cmd(narrowed)));
        let queue = r#"aws sqs set-queue-attributes --queue-url q --attributes '{"Policy":"{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}]}"}'"#;
        assert!(allows_everyone(&cmd(queue)));
        assert!(!allows_everyone(&cmd("aws s3api put-bucket-policy --bucket b --policy file://p.json")));
    }

    #[test]
    fn firewalls() {
        assert!(firewall_from_anywhere(&cmd("gcloud compute firewall-rules create x --allow tcp:22")));
        assert!(!firewall_from_anywhere(&cmd("gcloud compute firewall-rules create x --allow tcp:22 --source-tags=bastion")));
        assert!(!firewall_from_anywhere(&cmd("gcloud compute firewall-rules update x --description d")));
        assert!(nsg_from_anywhere(&cmd("az network nsg rule create -g rg --nsg-name n -n r --priority 1 --source-address-prefixes 10.0.0.0/8 Internet")));
        assert!(!nsg_from_anywhere(&cmd("az network nsg rule update -g rg --nsg-name n -n r --priority 2")));
    }
}
