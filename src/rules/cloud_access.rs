//! Built-in rules: who may reach a cloud account and what it records (credentials minted, administrator rights granted, firewalls opened to the internet, data made public, audit logging turned off, a cluster's secrets printed), one row per CLI and operation.

use serde_json::Value;

use super::cli_ops::{
    aws_path, az_path, gcloud_path, gsutil_path, has, kubectl_path, matches, op, plain_path, value,
    Op, When,
};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

// Each rule is a table of rows, one per program. The big CLIs' rows read an
// operations table ([`Op`]), compared word by word: a row per operation as a
// regex would cost every `aws` or `kubectl` call dozens of compilations.

/// Credentials minted, logins given, and accounts made: each is a new way in
/// that outlives the session and that nobody else sees being made.
#[rustfmt::skip]
static AWS_CREDENTIALS: &[Op] = &[
    op(&["iam", "create-access-key|create-login-profile|update-login-profile|create-user|create-service-specific-credential|upload-ssh-public-key|deactivate-mfa-device"], When::Always),
    op(&["iam", "update-access-key"], When::Value("--status", &["Active"])),
    op(&["cognito-idp", "admin-create-user|admin-set-user-password"], When::Always),
    op(&["sts", "get-federation-token"], When::Always),
    op(&["rolesanywhere", "create-trust-anchor|create-profile"], When::Always),
];

#[rustfmt::skip]
static GCLOUD_CREDENTIALS: &[Op] = &[
    op(&["iam", "service-accounts", "keys", "create|upload"], When::Always),
    op(&["compute", "instances|project-info", "add-metadata"], When::Has(&["ssh-keys=", "sshKeys=", "startup-script=", "startup-script-url="])),
    op(&["sql", "users", "set-password"], When::Always),
];

#[rustfmt::skip]
static AZ_CREDENTIALS: &[Op] = &[
    op(&["ad", "app|sp", "credential", "reset"], When::Always),
    op(&["ad", "sp", "create-for-rbac"], When::Always),
    op(&["ad", "user", "create"], When::Always),
    op(&["ad", "user", "update"], When::Has(&["--password"])),
    op(&["vm", "user", "update|create"], When::Always),
    op(&["sql|postgres|mysql", "server|flexible-server", "update"], When::Has(&["--admin-password"])),
];

#[rustfmt::skip]
static KUBECTL_CREDENTIALS: &[Op] = &[
    op(&["create", "token"], When::Always),
    op(&["certificate", "approve"], When::Always),
];

#[rustfmt::skip]
static VAULT_CREDENTIALS: &[Op] = &[
    op(&["token", "create"], When::Value("-policy", &["root"])),
    op(&["operator", "generate-root"], When::Always),
];

#[rustfmt::skip]
static CREDENTIALS: &[Verb] = &[
    verb_if("aws", "", |c| aws_path(c).is_some_and(|p| matches(c, &p, AWS_CREDENTIALS))),
    verb_if("gcloud", "", |c| gcloud_path(c).is_some_and(|p| matches(c, &p, GCLOUD_CREDENTIALS))),
    verb_if("az", "", |c| matches(c, &az_path(c), AZ_CREDENTIALS)),
    verb_if("kubectl", "", |c| kubectl_path(c).is_some_and(|p| matches(c, &p, KUBECTL_CREDENTIALS))),
    verb_if("oc", "", |c| kubectl_path(c).is_some_and(|p| matches(c, &p, KUBECTL_CREDENTIALS))),
    verb("mc", r"^(?:-\S+ )*admin (?:user (?:add|svcacct add)|accesskey create)(?: |$)"),
    verb_if("vault", "", |c| matches(c, &plain_path(c), VAULT_CREDENTIALS)),
];

/// Administrator rights, or the right to grant them, handed to an identity.
#[rustfmt::skip]
static AWS_ADMIN: &[Op] = &[
    op(&["iam", "attach-user-policy|attach-role-policy|attach-group-policy"], When::Has(&["/AdministratorAccess", "/IAMFullAccess", "/PowerUserAccess"])),
    op(&["iam", "put-user-policy|put-role-policy|put-group-policy|create-policy-version"], When::Check(allows_every_action)),
    op(&["iam", "update-assume-role-policy"], When::Always),
    op(&["iam", "add-user-to-group"], When::Check(|c| value(c, "--group-name").is_some_and(|g| g.to_ascii_lowercase().contains("admin")))),
];

/// Google Cloud's roles that administer a project, folder or organization,
/// or let their holder act as or mint keys for another identity.
#[rustfmt::skip]
const GCP_ADMIN_ROLES: &[&str] = &["roles/owner", "roles/editor", "roles/iam.securityAdmin", "roles/iam.serviceAccountTokenCreator", "roles/iam.serviceAccountKeyAdmin", "roles/iam.roleAdmin", "roles/iam.organizationRoleAdmin", "roles/resourcemanager.projectIamAdmin", "roles/resourcemanager.folderAdmin", "roles/resourcemanager.folderIamAdmin", "roles/resourcemanager.organizationAdmin", "roles/billing.admin"];

#[rustfmt::skip]
static GCLOUD_ADMIN: &[Op] = &[
    op(&["*", "add-iam-policy-binding"], When::Value("--role", GCP_ADMIN_ROLES)),
    op(&["*", "*", "add-iam-policy-binding"], When::Value("--role", GCP_ADMIN_ROLES)),
    op(&["*", "*", "*", "add-iam-policy-binding"], When::Value("--role", GCP_ADMIN_ROLES)),
    op(&["*", "set-iam-policy"], When::Always),
    op(&["*", "*", "set-iam-policy"], When::Always),
    op(&["*", "*", "*", "set-iam-policy"], When::Always),
];

/// Azure's built-in roles that can change everything or grant any role
/// (by name or by their fixed ids).
#[rustfmt::skip]
const AZ_ADMIN_ROLES: &[&str] = &["Owner", "Contributor", "User Access Administrator", "Role Based Access Control Administrator", "8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "b24988ac-6180-42a0-ab88-20f7382dd24c", "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9"];

#[rustfmt::skip]
static AZ_ADMIN: &[Op] = &[
    op(&["role", "assignment", "create"], When::Value("--role", AZ_ADMIN_ROLES)),
    op(&["ad", "app", "permission", "grant|admin-consent"], When::Always),
];

#[rustfmt::skip]
static KUBECTL_ADMIN: &[Op] = &[
    op(&["create", "clusterrolebinding"], When::Value("--clusterrole", &["cluster-admin", "admin", "edit"])),
    op(&["create", "rolebinding"], When::Value("--clusterrole", &["cluster-admin"])),
    op(&["create", "clusterrole"], When::Check(|c| value(c, "--verb").is_some_and(|v| v.split(',').any(|w| w == "*")))),
    // OpenShift: cluster-admin and the privileged security context constraints.
    op(&["adm", "policy", "add-cluster-role-to-user|add-cluster-role-to-group", "cluster-admin"], When::Always),
    op(&["adm", "policy", "add-scc-to-user|add-scc-to-group", "privileged|anyuid|hostaccess"], When::Always),
];

#[rustfmt::skip]
static ADMIN_GRANTS: &[Verb] = &[
    verb_if("aws", "", |c| aws_path(c).is_some_and(|p| matches(c, &p, AWS_ADMIN))),
    verb_if("gcloud", "", |c| gcloud_path(c).is_some_and(|p| matches(c, &p, GCLOUD_ADMIN))),
    verb_if("az", "", |c| matches(c, &az_path(c), AZ_ADMIN)),
    verb_if("kubectl", "", |c| kubectl_path(c).is_some_and(|p| matches(c, &p, KUBECTL_ADMIN))),
    verb_if("oc", "", |c| kubectl_path(c).is_some_and(|p| matches(c, &p, KUBECTL_ADMIN))),
    verb("mc", r"^(?:-\S+ )*admin policy (?:attach|set) \S+ consoleAdmin(?: |$)"),
    verb_if("gh", "", gh_admin_grant),
];

/// Firewalls and security groups opened to every address on the internet.
#[rustfmt::skip]
static AWS_WORLD_OPEN: &[Op] = &[
    op(&["ec2", "authorize-security-group-ingress"], When::Has(&["0.0.0.0/0", "::/0"])),
    op(&["lightsail", "open-instance-public-ports|put-instance-public-ports"], When::Has(&["0.0.0.0/0", "::/0"])),
];

#[rustfmt::skip]
static WORLD_OPEN: &[Verb] = &[
    verb_if("aws", "", |c| aws_path(c).is_some_and(|p| matches(c, &p, AWS_WORLD_OPEN))),
    verb_if("gcloud", "", firewall_from_anywhere),
    verb_if("az", "", |c| {
        let p = az_path(c);
        p.starts_with(&["vm", "open-port"]) || nsg_from_anywhere(c, &p)
    }),
    verb("doctl", r"(?:^| )compute firewall (?:create|update|add-rules) .*address:(?:0\.0\.0\.0/0|::/0)"),
    verb("hcloud", r"(?:^| )firewall add-rule .*--direction(?:=| )in\b.*(?:0\.0\.0\.0/0|::/0)"),
    verb("openstack", r"(?:^| )security group rule create .*--remote-ip(?:=| )(?:0\.0\.0\.0/0|::/0)"),
];

/// Data or services made readable, writable or callable by anyone.
#[rustfmt::skip]
static AWS_PUBLIC: &[Op] = &[
    op(&["s3api|s3", "put-bucket-acl|put-object-acl|put-object|create-bucket|copy-object|cp|sync|mv"], When::Check(public_acl)),
    op(&["s3api|s3control", "put-public-access-block"], When::Has(&["=false"])),
    op(&["ec2", "modify-snapshot-attribute|modify-image-attribute"], When::Check(|c| value(c, "--group-names") == Some("all") || has(c, &["group=all"]))),
    op(&["rds", "modify-db-snapshot-attribute|modify-db-cluster-snapshot-attribute"], When::Check(|c| values_of(c, "--values-to-add").any(|v| v == "all"))),
    op(&["rds", "modify-db-instance|create-db-instance|modify-db-cluster|create-db-cluster"], When::Check(|c| c.args.iter().any(|a| a == "--publicly-accessible"))),
    op(&["lambda", "create-function-url-config|update-function-url-config"], When::Value("--auth-type", &["NONE"])),
    op(&["lambda", "add-permission"], When::Value("--principal", &["*"])),
    // Any resource policy (bucket, queue, topic, key, registry, role trust).
    op(&["*", "*"], When::Check(allows_everyone)),
];

#[rustfmt::skip]
static GCLOUD_PUBLIC: &[Op] = &[
    op(&["*"], When::Value("--member", &["allUsers", "allAuthenticatedUsers"])),
    op(&["*"], When::Value("--predefined-acl", &["publicRead", "publicReadWrite", "authenticatedRead"])),
    op(&["*"], When::Value("--predefined-default-object-acl", &["publicRead", "publicReadWrite", "authenticatedRead"])),
];

#[rustfmt::skip]
static AZ_PUBLIC: &[Op] = &[
    op(&["storage", "container", "set-permission|create"], When::Value("--public-access", &["blob", "container"])),
    op(&["storage", "account", "update|create"], When::Check(blob_public_access)),
    op(&["disk|snapshot", "grant-access"], When::Always),
];

#[rustfmt::skip]
static GSUTIL_PUBLIC: &[Op] = &[
    op(&["iam|acl|defacl", "ch"], When::Check(grants_all_users)),
    op(&["acl|defacl", "set"], When::Has(&["public-read", "authenticated-read"])),
    op(&["cp|rsync|mv"], When::Value("-a", &["public-read", "public-read-write", "authenticated-read"])),
];

#[rustfmt::skip]
static PUBLIC: &[Verb] = &[
    verb_if("aws", "", |c| aws_path(c).is_some_and(|p| matches(c, &p, AWS_PUBLIC))),
    verb_if("gcloud", "", |c| gcloud_path(c).is_some_and(|p| matches(c, &p, GCLOUD_PUBLIC))),
    verb_if("az", "", |c| matches(c, &az_path(c), AZ_PUBLIC)),
    verb_if("gsutil", "", |c| matches(c, &gsutil_path(c), GSUTIL_PUBLIC)),
    verb("mc", r"^(?:-\S+ )*(?:anonymous|policy) set (?:public|download|upload)\b"),
    verb("s3cmd", r"(?:^| )(?:--acl-public|-P)(?: |$)"),
    verb_if("gh", "", |c| c.operands().starts_with(&["repo", "edit"]) && value(c, "--visibility") == Some("public")),
];

/// Audit trails, threat detection and logs turned off or deleted: what
/// would show afterwards what happened.
#[rustfmt::skip]
static AWS_AUDIT: &[Op] = &[
    op(&["cloudtrail", "stop-logging|delete-trail"], When::Always),
    op(&["cloudtrail", "update-trail"], When::Has(&["--no-", "--s3-bucket-name", "--cloud-watch-logs-"])),
    op(&["cloudtrail", "put-event-selectors|put-insight-selectors"], When::Check(narrows_selectors)),
    op(&["guardduty", "delete-detector|disassociate-from-master-account|disassociate-from-administrator-account|disassociate-members|stop-monitoring-members|delete-members|delete-publishing-destination|create-ip-set|update-ip-set"], When::Always),
    op(&["guardduty", "update-detector"], When::Has(&["--no-enable"])),
    op(&["guardduty", "create-filter|update-filter"], When::Value("--action", &["ARCHIVE"])),
    op(&["configservice|config", "stop-configuration-recorder|delete-configuration-recorder|delete-delivery-channel|delete-config-rule|delete-conformance-pack"], When::Always),
    op(&["securityhub", "disable-security-hub|batch-disable-standards|disable-import-findings-for-product|disassociate-from-administrator-account|disassociate-from-master-account"], When::Always),
    op(&["macie2", "disable-macie|disable-organization-admin-account"], When::Always),
    op(&["inspector2", "disable"], When::Always),
    op(&["detective", "delete-graph|disassociate-membership"], When::Always),
    op(&["access-analyzer", "delete-analyzer"], When::Always),
    op(&["logs", "delete-log-group|delete-log-stream|delete-subscription-filter|delete-destination"], When::Always),
    op(&["ec2", "delete-flow-logs|disable-ebs-encryption-by-default"], When::Always),
    op(&["kms", "disable-key|disable-key-rotation"], When::Always),
    op(&["cloudwatch", "disable-alarm-actions|delete-alarms"], When::Always),
    op(&["s3api", "put-bucket-logging"], When::Check(|c| value(c, "--bucket-logging-status").is_some_and(|v| v.split_whitespace().collect::<String>() == "{}"))),
    op(&["s3api", "put-bucket-versioning"], When::Has(&["Status=Suspended", "\"Suspended\""])),
    op(&["organizations", "disable-aws-service-access"], When::Has(&["cloudtrail", "guardduty", "config.amazonaws", "securityhub", "access-analyzer"])),
    op(&["eks", "update-cluster-config"], When::Check(|c| squeezed(c).any(|a| a.contains("\"enabled\":false") || a.contains("enabled=false")))),
    op(&["rds", "modify-db-instance|modify-db-cluster"], When::Has(&["DisableLogTypes"])),
    op(&["elbv2|elb", "modify-load-balancer-attributes"], When::Has(&["access_logs.s3.enabled,Value=false"])),
];

#[rustfmt::skip]
static GCLOUD_AUDIT: &[Op] = &[
    op(&["logging", "sinks|buckets|logs|views|links", "delete"], When::Always),
    op(&["logging", "sinks", "update"], When::Has(&["--disabled"])),
    op(&["logging", "settings", "update"], When::Has(&["--disable-default-sink"])),
    op(&["services", "disable"], When::Always),
    op(&["scc", "muteconfigs|mute-configs", "create"], When::Always),
];

#[rustfmt::skip]
static AZ_AUDIT: &[Op] = &[
    op(&["monitor", "diagnostic-settings|log-profiles", "delete"], When::Always),
    op(&["monitor", "log-analytics", "workspace", "delete"], When::Always),
    op(&["network", "watcher", "flow-log", "delete"], When::Always),
    op(&["network", "watcher", "flow-log", "update"], When::Value("--enabled", &["false"])),
    op(&["security", "pricing", "create"], When::Value("--tier", &["free"])),
    op(&["security", "auto-provisioning-setting", "update"], When::Value("--auto-provision", &["off"])),
    op(&["sql", "server|db", "audit-policy", "update"], When::Value("--state", &["disabled"])),
];

#[rustfmt::skip]
static AUDIT: &[Verb] = &[
    verb_if("aws", "", |c| aws_path(c).is_some_and(|p| matches(c, &p, AWS_AUDIT))),
    verb_if("gcloud", "", |c| gcloud_path(c).is_some_and(|p| matches(c, &p, GCLOUD_AUDIT))),
    verb_if("az", "", |c| matches(c, &az_path(c), AZ_AUDIT)),
    verb_if("vault", "", |c| plain_path(c).starts_with(&["audit", "disable"])),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "cloud.credential-create",
        category: "mint a cloud credential or login (IAM access keys, service-account keys, app secrets, console passwords, new cloud accounts)",
        reason: "a key, password or token made now is a way into the account that outlives the task at hand, and nobody reviews it the way they review a change of code",
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

/// The words after option `name`, up to the next option (`--values-to-add a b`).
fn values_of<'a>(cmd: &'a Command, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let at = cmd.args.iter().position(|a| a == name);
    let inline = cmd
        .args
        .iter()
        .filter_map(move |a| a.strip_prefix(name).and_then(|r| r.strip_prefix('=')));
    let after = at
        .map(|i| &cmd.args[i + 1..])
        .unwrap_or(&[])
        .iter()
        .take_while(|a| !a.starts_with('-'))
        .map(String::as_str);
    inline.chain(after).flat_map(|v| v.split([',', ' ']))
}

/// The arguments with their white space taken out, lowercased.
fn squeezed(cmd: &Command) -> impl Iterator<Item = String> + '_ {
    cmd.args.iter().map(|a| {
        a.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase()
    })
}

/// CloudTrail event selectors that leave out management events or writes.
fn narrows_selectors(cmd: &Command) -> bool {
    squeezed(cmd).any(|a| {
        a.contains("\"includemanagementevents\":false")
            || a.contains("includemanagementevents=false")
            || a.contains("excludemanagementeventsources")
            || a.contains("\"readwritetype\":\"readonly\"")
    })
}

/// A canned ACL, or a grant, that lets everyone (or every AWS account) in.
fn public_acl(cmd: &Command) -> bool {
    const CANNED: &[&str] = &["public-read", "public-read-write", "authenticated-read"];
    let canned =
        value(cmd, "--acl").is_some_and(|v| CANNED.iter().any(|c| v.eq_ignore_ascii_case(c)));
    canned
        || has(
            cmd,
            &[
                "acs.amazonaws.com/groups/global/AllUsers",
                "acs.amazonaws.com/groups/global/AuthenticatedUsers",
            ],
        )
}

/// `--allow-blob-public-access`, bare or `true`.
fn blob_public_access(cmd: &Command) -> bool {
    let at = cmd
        .args
        .iter()
        .position(|a| a == "--allow-blob-public-access");
    let bare = at.is_some_and(|i| cmd.args.get(i + 1).is_none_or(|v| v.starts_with('-')));
    bare || value(cmd, "--allow-blob-public-access").is_some_and(|v| v.eq_ignore_ascii_case("true"))
}

/// `gsutil iam ch` / `acl ch` granting allUsers or allAuthenticatedUsers
/// (`-d` takes them away).
fn grants_all_users(cmd: &Command) -> bool {
    !cmd.args.iter().any(|a| a == "-d") && has(cmd, &["allUsers:", "allAuthenticatedUsers:"])
}

/// `gh api` making someone an administrator of a repository or organization.
fn gh_admin_grant(cmd: &Command) -> bool {
    cmd.operands().first() == Some(&"api")
        && has(cmd, &["collaborators/", "memberships/"])
        && has(cmd, &["permission=admin", "role=admin"])
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
    let Some(p) = gcloud_path(cmd) else {
        return false;
    };
    if !(p.starts_with(&["compute", "firewall-rules"])
        && matches!(p.get(2), Some(&("create" | "update"))))
    {
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
            let creates = p.get(2) == Some(&"create");
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
fn nsg_from_anywhere(cmd: &Command, p: &[&str]) -> bool {
    if !(p.starts_with(&["network", "nsg", "rule"])
        && matches!(p.get(3), Some(&("create" | "update"))))
    {
        return false;
    }
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
    let creates = p.get(3) == Some(&"create");
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
    has(cmd, &["Principal"])
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
    documents(cmd).iter().any(|doc| {
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
        assert!(!allows_everyone(&cmd(
            "aws s3api put-bucket-policy --bucket b --policy file://p.json"
        )));
    }

    #[test]
    fn firewalls() {
        assert!(firewall_from_anywhere(&cmd(
            "gcloud compute firewall-rules create x --allow tcp:22"
        )));
        assert!(!firewall_from_anywhere(&cmd(
            "gcloud compute firewall-rules create x --allow tcp:22 --source-tags=bastion"
        )));
        assert!(!firewall_from_anywhere(&cmd(
            "gcloud compute firewall-rules update x --description d"
        )));
        let nsg = |line: &str| {
            let c = cmd(line);
            nsg_from_anywhere(&c, &az_path(&c))
        };
        assert!(nsg("az network nsg rule create -g rg --nsg-name n -n r --priority 1 --source-address-prefixes 10.0.0.0/8 Internet"));
        assert!(!nsg(
            "az network nsg rule update -g rg --nsg-name n -n r --priority 2"
        ));
    }
}
