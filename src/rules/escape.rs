//! Built-in rules: containers as a way out to the host (the daemon's API spoken to over its socket, confinement switched off, PID 1's namespaces entered, pods and containers with the host's namespaces or root).

use super::containers::{
    bind_sources, host_root_mount, is_daemon_socket, privileged, run_options, socket_mount,
};
use super::opts::{parse_opts, Spec};
use super::targets::is_block_device;
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs that reach the host through a container runtime: the daemon's
/// API written to over its socket, a run with confinement off, PID 1's
/// namespaces, a pod or container given the host. Listing, logs, exec into
/// an ordinary container and the API's reads are the neighbours.
#[rustfmt::skip]
static ESCAPE: &[Verb] = &[
    // The daemon's API: anything but a read creates, starts or removes.
    verb_if("curl", r"--unix-socket", curl_writes_to_daemon),
    verb("socat", r"(?i)unix(?:-connect|-client)?:\S*(?:docker|podman|containerd|crio)\.sock"),
    verb("nc", r"(?:^| )-U \S*(?:docker|podman|containerd|crio)\.sock"),
    verb("ncat", r"(?:^| )(?:-U|--unixsock) \S*(?:docker|podman|containerd|crio)\.sock"),
    // Runs with the host's namespaces, root or devices, or confinement off.
    verb_if("docker", "", unconfined_run),
    verb_if("podman", "", unconfined_run),
    verb_if("nerdctl", "", |c| privileged(c) || host_root_mount(c) || socket_mount(c) || unconfined_run(c)),
    // PID 1's namespaces are the host's.
    verb("nsenter", r"(?:^| )(?:-t ?1|--target[= ]1|-[a-zA-Z]*t ?1)(?: |$)|/proc/1/ns/"),
    // Pods with the host's namespaces or a privileged container; a
    // debugging pod on a node has the node's root mounted.
    verb("kubectl", r"^(?:\S+ )*?(?:run|create|apply|debug|patch)\b.*(?:host(?:PID|Network|IPC)\W*\s*:\s*true|privileged\W*\s*:\s*true|hostPath)"),
    verb("kubectl", r"^(?:\S+ )*?debug (?:\S+ )*?node/"),
    verb("kubectl", r"^(?:\S+ )*?debug\b.*--profile[= ]sysadmin"),
    // containerd and CRI clients go round the orchestrator.
    verb("ctr", r"(?:^| )run\b.*(?:--privileged|--net-host|--mount \S*src=/[,:]|--mount \S*source=/[,:])"),
    verb("ctr", r"(?:^| )(?:t|task|tasks) exec\b"),
    verb("crictl", r"(?:^| )exec\b"),
    // LXD and Incus: privileged containers and the host's root as a disk.
    verb("lxc", r"^(?:-\S+ )*config set \S+ security\.privileged[= ]true\b"),
    verb("lxc", r"^(?:-\S+ )*config device add \S+ \S+ disk\b.*\bsource=/(?: |$)"),
    verb("incus", r"^(?:-\S+ )*config set \S+ security\.privileged[= ]true\b"),
    verb("incus", r"^(?:-\S+ )*config device add \S+ \S+ disk\b.*\bsource=/(?: |$)"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "containers.escape-to-host",
        category: "reach the host through a container runtime (daemon socket API writes, unconfined runs, nsenter -t 1, host pods, ctr/crictl exec)",
        reason: "whoever controls the container daemon or PID 1's namespaces controls the host: a container with / mounted or confinement off is root on the machine",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(ESCAPE),
        hits: &["curl --unix-socket /var/run/docker.sock -X POST http://localhost/containers/create -d '{}'", "curl -s --unix-socket /var/run/docker.sock -XPOST http://localhost/containers/x/start", "curl --unix-socket=/run/docker.sock --data '{}' http://d/exec/a/start", "socat - UNIX-CONNECT:/var/run/docker.sock", "nc -U /var/run/docker.sock", "docker run --security-opt seccomp=unconfined alpine", "docker run --security-opt apparmor=unconfined alpine", "docker run --device=/dev/sda alpine", "podman run --userns=host alpine", "docker run --net=host --cap-add=NET_ADMIN alpine", "docker run -v /etc/shadow:/tmp/shadow:ro alpine", "docker run -v /dev/sda:/dev/sda:ro alpine", "nerdctl run --privileged alpine", "nerdctl run -v /:/mnt alpine", "nsenter -t 1 -m -u -i -n sh", "nsenter --target=1 -a", "nsenter --mount=/proc/1/ns/mnt -- /bin/bash", "ctr run --privileged --rm docker.io/library/alpine:latest x sh", "crictl exec -it 1f2e3d sh", "ctr task exec --exec-id sh1 -t web sh", "lxc config set c1 security.privileged true", "lxc config device add c1 host disk source=/ path=/mnt/root"],
        misses: &["curl --unix-socket /var/run/docker.sock http://localhost/containers/json", "curl --unix-socket /var/run/docker.sock -X GET http://localhost/images/json", "nsenter --help", "nsenter -t 4242 -n ip addr", "docker run --rm -it --net=host nicolaka/netshoot", "docker run --cap-add=NET_ADMIN alpine ip link", "docker run --security-opt no-new-privileges alpine", "docker run --device /dev/fuse alpine", "kubectl exec -it deploy/api -- sh", "kubectl debug -it pod/api --image=busybox --target=api", "crictl ps", "ctr images ls", "lxc config set c1 limits.memory 2GB", "nerdctl run --rm -p 80:80 nginx", "nc -zv localhost 5432"],
    },
];

#[rustfmt::skip]
const CURL: Spec = Spec::gnu("XdHFTuoAeEKrwyYzbcC", &["unix-socket", "abstract-unix-socket", "request", "data", "data-raw", "data-binary", "data-urlencode", "json", "form", "form-string", "upload-file", "header", "output", "user", "user-agent", "referer", "max-time", "connect-timeout", "cookie", "cookie-jar", "config"]);

/// `curl --unix-socket …/docker.sock` with a method or a body that writes:
/// the daemon's API creates, starts, execs in and removes containers.
fn curl_writes_to_daemon(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &CURL);
    let socket = opts
        .long_value("unix-socket", 6)
        .or(opts.long_value("abstract-unix-socket", 6));
    if !socket.is_some_and(is_daemon_socket) {
        return false;
    }
    let method = opts
        .value('X')
        .or(opts.long_value("request", 4))
        .unwrap_or("");
    let body = opts.value('d').is_some()
        || opts.value('F').is_some()
        || opts.value('T').is_some()
        || [
            "data",
            "data-raw",
            "data-binary",
            "data-urlencode",
            "json",
            "form",
            "upload-file",
        ]
        .iter()
        .any(|l| opts.long(l, l.len()));
    body || !(method.is_empty()
        || method.eq_ignore_ascii_case("GET")
        || method.eq_ignore_ascii_case("HEAD"))
}

/// Capabilities that open the host, beyond `containers.privileged`'s own.
const HOST_CAPS: &[&str] = &[
    "sys_rawio",
    "dac_read_search",
    "dac_override",
    "sys_boot",
    "mac_admin",
    "mac_override",
    "bpf",
    "sys_time",
    "syslog",
];

/// A run or create with confinement off, host namespaces, raw devices or
/// host-opening capabilities (`containers.privileged` judges
/// `--privileged`, `--pid=host` and SYS_ADMIN for docker and podman).
fn unconfined_run(cmd: &Command) -> bool {
    let Some(opts) = run_options(cmd, &["run", "create"]) else {
        return false;
    };
    let value = |keys: &[&str]| -> Vec<String> {
        opts.iter()
            .filter(|(k, _)| keys.contains(&k.as_str()))
            .map(|(_, v)| v.as_deref().unwrap_or("").to_ascii_lowercase())
            .collect()
    };
    let host_net = value(&["--net", "--network"]).iter().any(|v| v == "host");
    let security_off = value(&["--security-opt"]).iter().any(|v| {
        v.ends_with("=unconfined")
            || v.ends_with(":unconfined")
            || v == "label=disable"
            || v == "label:disable"
    });
    let host_ns = value(&["--userns", "--uts", "--cgroupns"])
        .iter()
        .any(|v| v == "host");
    let caps = value(&["--cap-add"]).iter().any(|v| {
        v.split(',').any(|c| {
            let c = c.strip_prefix("cap_").unwrap_or(c);
            HOST_CAPS.contains(&c) || (host_net && c == "net_admin")
        })
    });
    let device = value(&["--device"]).iter().any(|v| {
        let host = v.split(':').next().unwrap_or("");
        is_block_device(host) || matches!(host, "/dev/mem" | "/dev/kmem" | "/dev/port")
    });
    security_off || host_ns || caps || device || secret_mount(cmd)
}

/// A bind mount of the host's password hashes, sudo rules, root's home,
/// its devices, its boot files or the daemon's own state, read-only or not.
fn secret_mount(cmd: &Command) -> bool {
    const SOURCES: &[&str] = &[
        "/etc/shadow",
        "/etc/gshadow",
        "/etc/sudoers",
        "/etc/sudoers.d",
        "/root",
        "/dev",
        "/boot",
        "/var/lib/docker",
        "/etc/ssh",
    ];
    bind_sources(cmd).iter().any(|(src, _)| {
        let src = src.trim_end_matches('/');
        SOURCES
            .iter()
            .any(|s| src == *s || src.strip_prefix(s).is_some_and(|r| r.starts_with('/')))
    })
}
