//! Built-in rules: containers and infrastructure (daemon redirects, container lifecycle, prunes, cluster and cloud deletions).

use super::opts::{parse_opts, Spec};
use super::paths::components;
use super::targets::{classify, Target};
use super::{Matcher, Rule, Signs};
use crate::shell::Command;
use crate::verdict::Decision;

mod scope;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "containers.docker-host",
        category: "docker with remote daemon redirect (-H/--host)",
        reason: "the command runs against another machine's docker daemon",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "docker-compose"], check: docker_host },
        hits: &["docker -H ssh://prod ps", "docker --host=tcp://10.0.0.5:2375 rm -f app", "docker -Htcp://build:2376 images"],
        misses: &["docker ps", "docker run --hostname web nginx", "docker exec app curl -H 'X: y' http://x.example"],
    },
    Rule {
        id: "containers.docker-context-flag",
        category: "docker with daemon redirect (--context: alternate daemon)",
        reason: "the command runs against the daemon of another docker context",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "docker-compose"], check: docker_context_flag },
        hits: &["docker --context prod ps", "docker -c staging compose up -d", "docker --context=prod rm web"],
        misses: &["docker context ls", "docker buildx build --build-context a=. .", "docker ps -a"],
    },
    Rule {
        id: "containers.docker-context-use",
        category: "docker context use (switches default daemon for future commands)",
        reason: "every later docker command would go to that context's daemon",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker"], check: docker_context_use },
        hits: &["docker context use prod", "docker --debug context use remote-builder"],
        misses: &["docker context ls", "docker context inspect prod"],
    },
    Rule {
        id: "containers.podman-remote-url",
        category: "podman with remote daemon redirect (--url/--connection/--identity)",
        reason: "the command runs against another machine's podman service",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["podman"], check: podman_remote_url },
        hits: &["podman --url ssh://x ps", "podman --connection prod rm -f app", "podman --identity ~/.ssh/k --url ssh://h ps"],
        misses: &["podman ps", "podman run --url-file x img", "podman system connection list"],
    },
    Rule {
        id: "containers.podman-remote",
        category: "podman remote mode (-r/--remote: remote daemon)",
        reason: "the command runs against a remote podman service",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["podman", "podman-remote"], check: podman_remote },
        hits: &["podman -r ps", "podman --remote images", "podman-remote ps"],
        misses: &["podman ps", "podman run -rm img", "podman rm -f app"],
    },
    Rule {
        id: "containers.daemon-env",
        category: "docker/podman daemon redirect via environment (DOCKER_HOST/CONTAINER_HOST)",
        reason: "the commands it governs go to another container daemon",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::SETS, check: daemon_env },
        hits: &["DOCKER_HOST=tcp://x.example:2375 docker ps", "export DOCKER_HOST=ssh://prod", "CONTAINER_HOST=ssh://core@h/run/podman/podman.sock podman ps"],
        misses: &["DOCKER_BUILDKIT=1 docker build .", "DOCKER_HOST=unix:///run/user/1000/podman/podman.sock docker ps", "echo $DOCKER_HOST"],
    },
    Rule {
        id: "containers.compose-lifecycle",
        category: "docker compose restart/stop/kill/down (container lifecycle)",
        reason: "it stops or removes the project's running containers (and with -v their volumes)",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "docker-compose", "podman", "podman-compose"], check: compose_lifecycle },
        hits: &["docker compose down -v", "docker-compose -f prod.yml stop", "docker compose -p shop-prod restart web", "podman-compose kill", "docker compose down --rmi all"],
        misses: &["docker compose restart api", "docker compose stop", "docker compose -p shop restart web", "docker compose up -d", "docker compose ps", "docker compose exec app kill 1", "docker compose logs -f", "docker compose down", "docker-compose down --remove-orphans"],
    },
    Rule {
        id: "containers.docker-lifecycle",
        category: "docker restart/stop/kill (container lifecycle)",
        reason: "it stops or restarts running containers",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "podman"], check: docker_lifecycle },
        hits: &["docker stop $(docker ps -q)", "docker container kill -s KILL web", "podman restart prod-db", "docker kill app"],
        misses: &["docker stop app", "podman restart db", "docker container stop web worker", "docker start app", "docker ps", "docker exec app kill 1", "docker logs stop"],
    },
    Rule {
        id: "containers.docker-prune",
        category: "docker prune or volume removal (deletes containers, images or volumes)",
        reason: "it deletes stopped containers, images or volumes, and volume data cannot be recovered",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "podman"], check: docker_prune },
        hits: &["docker system prune -af --volumes", "docker volume rm pgdata", "podman volume prune -f", "docker system prune -a"],
        misses: &["docker container prune -f", "docker system prune", "docker system prune -f --filter until=24h", "podman container prune", "docker image prune", "docker system df", "docker volume ls", "docker image ls"],
    },
    Rule {
        id: "containers.kubectl-delete",
        category: "kubectl delete (removes cluster resources)",
        reason: "it deletes live cluster resources, and a namespace takes everything in it along",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["kubectl", "oc"], check: kubectl_delete },
        hits: &["kubectl delete namespace production", "kubectl delete all --all -A", "kubectl -n prod delete deploy web", "kubectl delete pod web-abc -n prod --dry-run=none", "kubectl delete pod web-1 -n production", "kubectl delete pods --all -n dev", "kubectl delete pod db-0 --force --grace-period=0"],
        misses: &["kubectl delete pod web-123 -n dev", "kubectl delete pod web-abc", "kubectl delete pods -l app=web -n staging", "kubectl delete pod web-abc --dry-run=client -o yaml", "kubectl get pods -A", "kubectl logs delete"],
    },
    Rule {
        id: "containers.infra-destroy",
        category: "infrastructure destroy (terraform/tofu/pulumi/cdk destroy)",
        reason: "it destroys every resource the configuration manages",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"], check: infra_destroy },
        hits: &["terraform destroy -auto-approve", "terraform -chdir=infra apply -destroy", "tofu destroy", "terragrunt run-all destroy", "pulumi destroy --yes -s prod", "terragrunt destroy-all", "pulumi down -s dev", "pulumi destroy --preview-only=false -s prod"],
        misses: &["terraform plan -destroy", "terraform apply -auto-approve", "terraform plan", "pulumi preview", "terraform help destroy", "pulumi destroy --preview-only -s prod", "pulumi down --preview-only=true"],
    },
    Rule {
        id: "containers.helm-uninstall",
        category: "helm uninstall (removes a release)",
        reason: "it deletes the release and the cluster resources it created",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["helm"], check: helm_uninstall },
        hits: &["helm uninstall prod-release", "helm -n prod delete web", "helm un api --keep-history"],
        misses: &["helm list", "helm upgrade --install web ./chart", "helm uninstall web --dry-run"],
    },
    Rule {
        id: "containers.bucket-delete",
        category: "cloud storage bucket or recursive delete (aws s3, gsutil, gcloud storage)",
        reason: "it deletes a bucket or every object under a prefix, and object storage has no undo",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["aws", "gsutil", "gcloud"], check: bucket_delete },
        hits: &["aws s3 rb s3://prod-bucket --force", "aws s3 rm s3://prod-bucket/data --recursive", "aws --profile prod s3 sync ./site s3://www --delete", "aws s3api delete-bucket --bucket prod", "gsutil -m rm -r gs://prod-assets", "gcloud storage rm --recursive gs://prod-assets/data"],
        misses: &["aws s3 ls s3://bucket", "aws s3 cp a.txt s3://bucket/a.txt", "aws s3 rm s3://bucket/one.txt", "aws s3 rm s3://bucket/data --recursive --dryrun", "gsutil ls gs://prod-assets", "gcloud storage cp a.txt gs://b/"],
    },
    Rule {
        id: "containers.privileged",
        category: "privileged container or host namespace (docker run --privileged, --pid=host, --cap-add SYS_ADMIN)",
        reason: "a process in that container can take over the host: load kernel modules, mount its disks, signal its processes",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "podman"], check: privileged },
        hits: &["docker run --privileged -v /:/host alpine", "docker run --rm -it --pid=host --net=host --privileged alpine nsenter -t 1 -m sh", "podman run --cap-add=SYS_ADMIN fedora", "docker exec --privileged web sh", "docker container create --pid host alpine"],
        misses: &["docker run --rm alpine ls", "docker run --net=host nginx", "docker run alpine echo --privileged", "docker ps --filter name=privileged", "docker run --privileged=false alpine", "docker run --cap-add NET_ADMIN alpine"],
    },
    Rule {
        id: "containers.docker-socket-mount",
        category: "mount the container daemon socket into a container (-v /var/run/docker.sock)",
        reason: "whatever runs in the container can start privileged containers on the host, which is the same as root on it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "podman"], check: socket_mount },
        hits: &["docker run -v /var/run/docker.sock:/var/run/docker.sock alpine", "docker run --rm --mount type=bind,source=/run/docker.sock,target=/var/run/docker.sock docker:cli docker ps", "podman run -v /run/podman/podman.sock:/run/docker.sock:ro img"],
        misses: &["docker run --rm alpine ls /var/run/docker.sock", "docker run -v $PWD:/app -w /app node npm test", "docker run -v docker-data:/var/lib/docker docker:dind"],
    },
    Rule {
        id: "containers.host-root-mount",
        category: "mount the host's root, a system directory or a home into a container (-v /:/host)",
        reason: "the container can read or rewrite the host's files, its credentials and configuration included",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "podman"], check: host_root_mount },
        hits: &["docker run -v /:/host alpine chroot /host", "docker run --rm -v /etc:/host-etc alpine", "podman run --mount type=bind,src=/,dst=/host,ro img", "docker run -v $HOME:/root alpine", "docker run --volume=/:/host:ro alpine ls /host"],
        misses: &["docker run -v $PWD:/app node", "docker run -v /etc/localtime:/etc/localtime:ro app", "docker run -v /proc:/host/proc:ro prom/node-exporter", "docker run -v /var/lib/mysql:/var/lib/mysql mysql", "docker run -v ~/.cache/pip:/root/.cache/pip python", "docker run alpine ls -v /:/x"],
    },
    Rule {
        id: "containers.mass-remove",
        category: "remove every container or image (docker rm -f $(docker ps -aq))",
        reason: "all containers or images go at once, with whatever data lived only inside a container",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["docker", "podman"], check: mass_remove },
        hits: &["docker rm -f $(docker ps -aq)", "docker rmi -f $(docker images -q)", "docker ps -aq | xargs docker rm -f", "podman container rm -f `podman ps -aq`", "docker image rm $(docker image ls -q)"],
        misses: &["docker rm web", "docker rm -f $(cat ids.txt)", "docker ps -aq", "docker images -q | wc -l", "docker rmi myimage:old"],
    },
    Rule {
        id: "containers.repo-delete",
        category: "delete a hosted repository (gh repo delete)",
        reason: "the repository is deleted on the forge for everyone, with its issues, pull requests and releases",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["gh", "glab"], check: repo_delete },
        hits: &["gh repo delete owner/repo --yes", "gh repo delete", "gh api -X DELETE repos/owner/repo", "glab repo delete group/project"],
        misses: &["gh repo view owner/repo", "gh repo clone owner/repo", "gh api repos/owner/repo", "gh api -X DELETE repos/o/r/issues/comments/1", "echo gh repo delete"],
    },
];

/// A program's global options (name, value) and the words from its subcommand on.
struct Globals<'a> {
    opts: Vec<(&'a str, Option<&'a str>)>,
    rest: &'a [String],
}

/// Splits `args` at the first operand; `valued` lists options that take
/// the next word as their value when not written `--opt=value` or `-Xvalue`.
fn globals<'a>(args: &'a [String], valued: &[&str]) -> Globals<'a> {
    let mut opts = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        if let Some((k, v)) = arg
            .split_once('=')
            .filter(|_| arg.starts_with("--") || arg.len() > 2)
        {
            opts.push((k, Some(v)));
        } else if valued.contains(&arg) {
            opts.push((arg, args.get(i + 1).map(String::as_str)));
            i += 1;
        } else if let Some((flag, value)) =
            arg.get(..2).zip(arg.get(2..)).filter(|(flag, value)| {
                !arg.starts_with("--") && !value.is_empty() && valued.contains(flag)
            })
        {
            // `get`, not indexing: a second character may be any width.
            opts.push((flag, Some(value)));
        } else {
            opts.push((arg, None));
        }
        i += 1;
    }
    Globals {
        opts,
        rest: &args[i.min(args.len())..],
    }
}

impl<'a> Globals<'a> {
    fn has(&self, names: &[&str]) -> bool {
        self.opts.iter().any(|(k, _)| names.contains(k))
    }

    fn sub(&self, n: usize) -> Option<&'a str> {
        self.rest.get(n).map(String::as_str)
    }
}

const DOCKER_VALUED: &[&str] = &[
    "-H",
    "--host",
    "-c",
    "--context",
    "--config",
    "-l",
    "--log-level",
    "--tlscacert",
    "--tlscert",
    "--tlskey",
    "-f",
    "--file",
    "-p",
    "--project-name",
    "--profile",
    "--env-file",
    "--project-directory",
    "--ansi",
    "--progress",
    "--parallel",
];

const PODMAN_VALUED: &[&str] = &[
    "--url",
    "-H",
    "--host",
    "--connection",
    "-c",
    "--identity",
    "--root",
    "--runroot",
    "--storage-driver",
    "--log-level",
    "--cgroup-manager",
    "--events-backend",
    "--module",
    "--ssh",
    "--tmpdir",
    "--config",
];

fn docker_host(cmd: &Command) -> bool {
    globals(&cmd.args, DOCKER_VALUED).has(&["-H", "--host"])
}

fn docker_context_flag(cmd: &Command) -> bool {
    globals(&cmd.args, DOCKER_VALUED).has(&["-c", "--context"])
}

fn docker_context_use(cmd: &Command) -> bool {
    let g = globals(&cmd.args, DOCKER_VALUED);
    g.sub(0) == Some("context") && g.sub(1) == Some("use")
}

fn podman_remote_url(cmd: &Command) -> bool {
    globals(&cmd.args, PODMAN_VALUED).has(&[
        "--url",
        "-H",
        "--host",
        "--connection",
        "-c",
        "--identity",
    ])
}

fn podman_remote(cmd: &Command) -> bool {
    cmd.program == "podman-remote" || globals(&cmd.args, PODMAN_VALUED).has(&["-r", "--remote"])
}

fn daemon_env(cmd: &Command) -> bool {
    const VARS: &[&str] = &[
        "DOCKER_HOST",
        "CONTAINER_HOST",
        "DOCKER_CONTEXT",
        "CONTAINER_CONNECTION",
    ];
    // A local unix socket (rootless podman, colima) is the usual reason to set these.
    let remote = |v: &str| !v.is_empty() && !v.starts_with("unix://");
    let prefixed = VARS.iter().any(|var| cmd.env_var(var).is_some_and(remote));
    let exported = matches!(cmd.program.as_str(), "export" | "declare" | "typeset")
        && cmd
            .args
            .iter()
            .filter_map(|a| a.split_once('='))
            .any(|(k, v)| VARS.contains(&k) && remote(v));
    prefixed || exported
}

/// The compose subcommand of `docker compose ...`, `docker-compose ...`, `podman-compose ...`.
fn compose_subcommand(cmd: &Command) -> Option<&str> {
    let args: &[String] = match cmd.program.as_str() {
        "docker-compose" | "podman-compose" => &cmd.args,
        _ => {
            let g = globals(&cmd.args, DOCKER_VALUED);
            if g.sub(0) != Some("compose") {
                return None;
            }
            &g.rest[1..]
        }
    };
    globals(args, DOCKER_VALUED).sub(0)
}

fn compose_lifecycle(cmd: &Command) -> bool {
    match compose_subcommand(cmd) {
        // `down` stops and removes the containers `up` made, which `up`
        // makes again; with `-v` or `--rmi` it also deletes data or images.
        Some("down") => cmd
            .args
            .iter()
            .any(|a| a == "-v" || a == "--volumes" || a.starts_with("--rmi")),
        // Stopped or restarted services come back with `up`/`start`, unless
        // the project is production's.
        Some("kill") => true,
        Some("stop" | "restart") => scope::compose_production(&cmd.args),
        _ => false,
    }
}

/// `docker VERB` or `docker container VERB`.
fn docker_verb(cmd: &Command) -> Option<(&str, &str)> {
    let g = globals(&cmd.args, DOCKER_VALUED);
    let first = g.sub(0)?;
    Some((first, g.sub(1).unwrap_or("")))
}

fn docker_lifecycle(cmd: &Command) -> bool {
    match docker_verb(cmd) {
        Some(("kill", _) | ("container", "kill")) => true,
        Some(("stop" | "restart", _) | ("container", "stop" | "restart")) => {
            !scope::names_containers_plainly(&cmd.args)
        }
        _ => false,
    }
}

fn docker_prune(cmd: &Command) -> bool {
    matches!(docker_verb(cmd), Some(("volume", "prune" | "rm")))
        || docker_verb(cmd) == Some(("system", "prune")) && scope::prunes_data(&cmd.args)
}

fn kubectl_delete(cmd: &Command) -> bool {
    const VALUED: &[&str] = &[
        "-n",
        "--namespace",
        "--context",
        "--kubeconfig",
        "--cluster",
        "--user",
        "-s",
        "--server",
        "--token",
        "--as",
        "--as-group",
        "--request-timeout",
        "-v",
        "--cache-dir",
    ];
    let g = globals(&cmd.args, VALUED);
    if g.sub(0) != Some("delete") {
        return false;
    }
    // `--dry-run` alone meant client-side in older kubectl; `=none` really deletes.
    !cmd.args
        .iter()
        .any(|a| a == "--dry-run" || (a.starts_with("--dry-run=") && a != "--dry-run=none"))
        && !scope::deletes_pods_outside_production(&cmd.args, &g.rest[1..])
}

fn infra_destroy(cmd: &Command) -> bool {
    let ops = cmd.operands();
    // `terraform help destroy` prints the manual; `pulumi destroy
    // --preview-only` shows what would go and stops there.
    let preview = |a: &String| a == "--preview-only" || a == "--preview-only=true";
    if ops.first() == Some(&"help") || (cmd.program == "pulumi" && cmd.args.iter().any(preview)) {
        return false;
    }
    let apply_destroy =
        ops.contains(&"apply") && cmd.args.iter().any(|a| a == "-destroy" || a == "--destroy");
    // `destroy-all` is terragrunt's older spelling of `run-all destroy`; `down` is pulumi's alias.
    let alias = ops.contains(&"destroy-all") || (cmd.program == "pulumi" && ops.contains(&"down"));
    ops.contains(&"destroy") || apply_destroy || alias
}

fn helm_uninstall(cmd: &Command) -> bool {
    const VALUED: &[&str] = &[
        "-n",
        "--namespace",
        "--kube-context",
        "--kubeconfig",
        "--registry-config",
        "--repository-config",
    ];
    let g = globals(&cmd.args, VALUED);
    matches!(g.sub(0), Some("uninstall" | "delete" | "del" | "un"))
        && !cmd.args.iter().any(|a| a == "--dry-run")
}

fn bucket_delete(cmd: &Command) -> bool {
    let flag = |f: &str| cmd.args.iter().any(|a| a == f);
    let ops = cmd.operands();
    match cmd.program.as_str() {
        "gsutil" => {
            return ops.first() == Some(&"rb")
                || (ops.first() == Some(&"rm")
                    && (cmd.has_short('r') || cmd.has_short('R') || flag("--recursive")))
        }
        "gcloud" => {
            return match (ops.first(), ops.get(1), ops.get(2)) {
                (Some(&"storage"), Some(&"rm"), _) => flag("-r") || flag("--recursive"),
                (Some(&"storage"), Some(&"buckets"), Some(&"delete")) => true,
                _ => false,
            }
        }
        _ => {}
    }
    aws_s3_delete(cmd)
}

fn aws_s3_delete(cmd: &Command) -> bool {
    const VALUED: &[&str] = &[
        "--profile",
        "--region",
        "--endpoint-url",
        "--output",
        "--query",
        "--color",
        "--ca-bundle",
        "--cli-read-timeout",
        "--cli-connect-timeout",
    ];
    let g = globals(&cmd.args, VALUED);
    if cmd.args.iter().any(|a| a == "--dryrun") {
        return false;
    }
    let flag = |f: &str| cmd.args.iter().any(|a| a == f);
    match (g.sub(0), g.sub(1)) {
        (Some("s3"), Some("rb")) => true,
        (Some("s3"), Some("rm")) => flag("--recursive"),
        (Some("s3"), Some("sync")) => flag("--delete"),
        (Some("s3api"), Some(op)) => matches!(op, "delete-bucket" | "delete-objects"),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// What `docker run` gives a container.

/// `docker run`/`create`/`exec` short options that take a value.
const RUN_VALUED: &str = "acehlmpuvw";
/// Their long options that are plain switches; any other long option
/// without `=` takes the next word, unless that is an option itself.
#[rustfmt::skip]
const RUN_SWITCHES: &[&str] = &["--rm", "--privileged", "--init", "--interactive", "--tty", "--detach", "--read-only", "--publish-all", "--no-healthcheck", "--oom-kill-disable", "--disable-content-trust", "--quiet", "--help", "--replace"];

/// The options of `run`, `create` or `exec` (one of `verbs`), up to the image or container name.
pub(super) fn run_options(cmd: &Command, verbs: &[&str]) -> Option<Vec<(String, Option<String>)>> {
    let valued = if cmd.program == "podman" {
        PODMAN_VALUED
    } else {
        DOCKER_VALUED
    };
    let g = globals(&cmd.args, valued);
    let rest = match (g.sub(0), g.sub(1)) {
        (Some("container"), Some(v)) if verbs.contains(&v) => &g.rest[2..],
        (Some(v), _) if verbs.contains(&v) => &g.rest[1..],
        _ => return None,
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(arg) = rest.get(i) {
        i += 1;
        if arg == "--" || arg == "-" || !arg.starts_with('-') {
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (key, value) = match long.split_once('=') {
                Some((k, v)) => (format!("--{k}"), Some(v.to_string())),
                None if RUN_SWITCHES.contains(&arg.as_str()) => (arg.clone(), None),
                None => {
                    let value = rest.get(i).filter(|v| !v.starts_with('-')).cloned();
                    i += usize::from(value.is_some());
                    (arg.clone(), value)
                }
            };
            out.push((key, value));
            continue;
        }
        for (at, c) in arg.char_indices().skip(1) {
            if RUN_VALUED.contains(c) {
                let attached = &arg[at + 1..];
                let value = if attached.is_empty() {
                    i += 1;
                    rest.get(i - 1).cloned()
                } else {
                    Some(attached.to_string())
                };
                out.push((format!("-{c}"), value));
                break;
            }
            out.push((format!("-{c}"), None));
        }
    }
    Some(out)
}

pub(super) fn privileged(cmd: &Command) -> bool {
    const CAPS: &[&str] = &["all", "sys_admin", "sys_module"];
    let Some(opts) = run_options(cmd, &["run", "create", "exec"]) else {
        return false;
    };
    opts.iter().any(|(k, v)| {
        let v = v.as_deref().unwrap_or("").to_ascii_lowercase();
        match k.as_str() {
            "--privileged" => v != "false",
            "--pid" => v == "host",
            "--cap-add" => v
                .split(',')
                .any(|c| CAPS.contains(&c.strip_prefix("cap_").unwrap_or(c))),
            _ => false,
        }
    })
}

/// Host paths bind-mounted by a run (`-v SRC:DST[:OPTS]`, `--mount type=bind,src=SRC`), and whether read-only.
pub(super) fn bind_sources(cmd: &Command) -> Vec<(String, bool)> {
    let Some(opts) = run_options(cmd, &["run", "create"]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in opts {
        let Some(v) = v else { continue };
        match k.as_str() {
            "-v" | "--volume" => {
                let mut parts = v.split(':');
                let src = parts.next().unwrap_or("");
                let ro = parts
                    .nth(1)
                    .is_some_and(|o| o.split(',').any(|f| f == "ro"));
                // A name, not a path, is a volume the daemon manages.
                if src.starts_with(['/', '~', '$', '.']) {
                    out.push((src.to_string(), ro));
                }
            }
            "--mount" => {
                let fields: Vec<(&str, &str)> = v
                    .split(',')
                    .map(|f| f.split_once('=').unwrap_or((f, "true")))
                    .collect();
                let field = |names: &[&str]| {
                    fields
                        .iter()
                        .find(|(k, _)| names.contains(k))
                        .map(|(_, v)| *v)
                };
                let ro = field(&["readonly", "ro"]).is_some_and(|v| v != "false");
                if let (Some("bind"), Some(src)) = (field(&["type"]), field(&["source", "src"])) {
                    out.push((src.to_string(), ro));
                }
            }
            _ => {}
        }
    }
    out
}

pub(super) fn is_daemon_socket(path: &str) -> bool {
    const SOCKETS: &[&str] = &["docker.sock", "podman.sock", "containerd.sock", "crio.sock"];
    SOCKETS.contains(&path.rsplit('/').next().unwrap_or(path))
}

pub(super) fn socket_mount(cmd: &Command) -> bool {
    bind_sources(cmd)
        .iter()
        .any(|(src, _)| is_daemon_socket(src))
}

pub(super) fn host_root_mount(cmd: &Command) -> bool {
    bind_sources(cmd).iter().any(|(src, ro)| {
        let target = classify(src, cmd.cwd.as_deref());
        // A whole system tree (`/etc`, `/usr`); single files and data
        // directories under one (`/etc/localtime`, `/var/lib/mysql`) are routine.
        let top_level = src.starts_with('/') && components(src).is_some_and(|c| c.len() == 1);
        target == Target::Root
            || (!ro && (target == Target::Home || (target == Target::System && top_level)))
    })
}

fn mass_remove(cmd: &Command) -> bool {
    let removes = matches!(
        docker_verb(cmd),
        Some(("rm" | "rmi", _) | ("container" | "image", "rm" | "remove"))
    );
    let listed = |a: &String| {
        let substituted = a.starts_with("$(") || a.starts_with('`');
        substituted && (a.contains("docker") || a.contains("podman"))
    };
    // `docker ps -q | xargs docker rm`: the ids arrive through xargs.
    let piped = cmd.via.contains(&"xargs") && cmd.fed_by(&["docker", "podman"]);
    removes && (piped || cmd.args.iter().any(listed))
}

#[rustfmt::skip]
const GH: Spec = Spec::gnu("RXHfFpqt", &["repo", "method", "header", "field", "raw-field", "jq", "template", "input", "hostname", "cache", "preview"]);

fn repo_delete(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &GH);
    match opts.operands.as_slice() {
        ["repo", "delete", ..] => true,
        ["api", path, ..] if cmd.program == "gh" => {
            let method = opts.value('X').or(opts.long_value("method", 3));
            let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
            method.is_some_and(|m| m.eq_ignore_ascii_case("delete"))
                && parts.len() == 3
                && parts[0] == "repos"
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_options_stop_at_subcommand() {
        assert!(docker_host(&Command::new(
            "docker",
            &["-H", "ssh://x", "ps"]
        )));
        assert!(docker_host(&Command::new("docker", &["-Hssh://x", "ps"])));
        assert!(!docker_host(&Command::new(
            "docker",
            &["exec", "a", "curl", "-H", "x"]
        )));
        assert!(docker_context_flag(&Command::new(
            "docker",
            &["--context=prod", "ps"]
        )));
        assert!(!docker_context_flag(&Command::new(
            "docker",
            &["build", "-c", "512", "."]
        )));
    }

    #[test]
    fn compose_verbs() {
        assert!(compose_lifecycle(&Command::new(
            "docker",
            &["compose", "-f", "x.yml", "down", "-v"]
        )));
        assert!(compose_lifecycle(&Command::new(
            "docker-compose",
            &["--project-name=x-prod", "stop"]
        )));
        assert!(!compose_lifecycle(&Command::new(
            "docker",
            &["compose", "exec", "app", "kill", "1"]
        )));
        assert!(!compose_lifecycle(&Command::new(
            "docker",
            &["compose", "-p", "down", "up"]
        )));
    }

    #[test]
    fn environment_redirect() {
        let mut ps = Command::new("docker", &["ps"]);
        ps.env = vec![("DOCKER_HOST".into(), "tcp://x:2375".into())];
        assert!(daemon_env(&ps));
        ps.env = vec![("DOCKER_HOST".into(), "unix:///var/run/docker.sock".into())];
        assert!(!daemon_env(&ps));
        assert!(daemon_env(&Command::new(
            "export",
            &["CONTAINER_HOST=ssh://h"]
        )));
    }

    #[test]
    fn cluster_and_cloud() {
        assert!(kubectl_delete(&Command::new(
            "kubectl",
            &["--context", "prod", "delete", "ns", "x"]
        )));
        assert!(!kubectl_delete(&Command::new(
            "kubectl",
            &["delete", "pod", "x", "--dry-run=server"]
        )));
        assert!(!kubectl_delete(&Command::new(
            "kubectl",
            &["-n", "delete", "get", "pods"]
        )));
        assert!(aws_s3_delete(&Command::new(
            "aws",
            &["--region", "eu-west-1", "s3", "rb", "s3://b"]
        )));
        assert!(!aws_s3_delete(&Command::new(
            "aws",
            &["s3", "ls", "s3://b"]
        )));
        assert!(infra_destroy(&Command::new(
            "terraform",
            &["-chdir=x", "destroy"]
        )));
    }

    #[test]
    fn run_flags_stop_at_the_image() {
        let run =
            |a: &[&str]| run_options(&Command::new("docker", a), &["run"]).unwrap_or_default();
        let opts = run(&[
            "run",
            "-itv",
            "/:/h",
            "--name",
            "x",
            "--rm",
            "img",
            "--privileged",
        ]);
        let keys: Vec<&str> = opts.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["-i", "-t", "-v", "--name", "--rm"]);
        assert_eq!(opts[2].1.as_deref(), Some("/:/h"));
        assert!(privileged(&Command::new(
            "docker",
            &[
                "-H",
                "unix:///x",
                "run",
                "--cap-add",
                "CAP_SYS_ADMIN",
                "img"
            ]
        )));
        assert!(!privileged(&Command::new(
            "docker",
            &["build", "--privileged", "."]
        )));
    }

    #[test]
    fn bind_mounts() {
        let b = |a: &[&str]| bind_sources(&Command::new("docker", a));
        assert_eq!(
            b(&["run", "-v", "/etc:/x:ro,z", "i"]),
            vec![("/etc".to_string(), true)]
        );
        assert_eq!(
            b(&["run", "--mount", "type=bind,src=/,dst=/h,readonly", "i"]),
            vec![("/".to_string(), true)]
        );
        assert!(b(&[
            "run",
            "-v",
            "data:/x",
            "--mount",
            "type=volume,src=/v,dst=/x",
            "i"
        ])
        .is_empty());
        assert!(!host_root_mount(&Command::new(
            "docker",
            &["run", "-v", "/home/me/src:/src", "i"]
        )));
    }
}
