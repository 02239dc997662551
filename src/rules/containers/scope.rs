//! Where a container or cluster command reaches: a production-named namespace, context, compose file or project, and whether a `kubectl delete` only removes pods a controller brings back.

/// Whether `name` reads as production: a word of it (split at anything
/// not a letter or digit) is `prod`, `production`, `prd` or `live`.
pub(super) fn production_named(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        ["prod", "production", "prd", "live"]
            .iter()
            .any(|p| w.eq_ignore_ascii_case(p))
    })
}

/// The values of the options spelled as one of `names` anywhere in
/// `args`: `-n V`, `--name V`, `--name=V`, `-nV`.
pub(super) fn values<'a>(args: &'a [String], names: &'a [&str]) -> impl Iterator<Item = &'a str> {
    args.iter().enumerate().filter_map(move |(i, a)| {
        if names.contains(&a.as_str()) {
            return args.get(i + 1).map(String::as_str);
        }
        if let Some((k, v)) = a.split_once('=').filter(|(k, _)| k.starts_with("--")) {
            return names.contains(&k).then_some(v);
        }
        let short = a
            .get(..2)
            .filter(|f| !a.starts_with("--") && names.contains(f));
        short.and_then(|_| a.get(2..)).filter(|v| !v.is_empty())
    })
}

/// Options of docker compose that name the project it acts on.
const COMPOSE_NAMING: &[&str] = &[
    "-f",
    "--file",
    "-p",
    "--project-name",
    "-c",
    "--context",
    "--env-file",
    "--profile",
    "--project-directory",
];

/// Whether a compose command names a production file, project or context
/// (`-f prod.yml`, `-p shop-prod`, `--context live`).
pub(super) fn compose_production(args: &[String]) -> bool {
    values(args, COMPOSE_NAMING).any(production_named)
}

/// Whether `docker stop|restart` names each container plainly, none of
/// them production's: a stopped container starts again as it was, while
/// `$(docker ps -q)` is every container running.
pub(super) fn names_containers_plainly(args: &[String]) -> bool {
    let names: Vec<&String> = args
        .iter()
        .skip_while(|a| !matches!(a.as_str(), "stop" | "restart"))
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    !names.is_empty()
        && !args.iter().any(|a| a.contains(['$', '`']))
        && !names.iter().any(|n| production_named(n))
}

/// Whether `docker system prune` also removes every unused image (`-a`)
/// or the volumes, where data and images built here live.
pub(super) fn prunes_data(args: &[String]) -> bool {
    args.iter().any(|a| {
        matches!(a.as_str(), "--all" | "--volumes")
            || a.starts_with("--all=") && a != "--all=false"
            || a.starts_with('-') && !a.starts_with("--") && a.contains('a')
    })
}

/// Namespaces the cluster's own components run in.
const SYSTEM_NAMESPACES: &[&str] = &["kube-system", "kube-public", "kube-node-lease"];

/// Whether `kubectl delete …` (its words after `delete`: `rest`) removes only
/// pods by name or label in a namespace that is neither production nor the
/// cluster's own: a controller makes them again, which is why deleting one is
/// how a pod is restarted. `--all`, every namespace, a forced deletion
/// without grace, or a production context still ask.
pub(super) fn deletes_pods_outside_production(args: &[String], rest: &[String]) -> bool {
    let kind = rest.first().map(String::as_str).unwrap_or("");
    let pods_by_kind = matches!(kind, "pod" | "pods" | "po");
    let pods_by_name = rest
        .iter()
        .filter(|a| !a.starts_with('-'))
        .all(|a| ["pod/", "pods/", "po/"].iter().any(|p| a.starts_with(p)));
    let everything = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--all" | "-A" | "--all-namespaces" | "--now" | "--grace-period=0"
        ) || a.starts_with("--all=") && a != "--all=false"
    }) || values(args, &["--grace-period"]).any(|v| v == "0");
    let mut scope = values(args, &["-n", "--namespace", "--context", "--cluster"]);
    let production = scope.any(|s| production_named(s) || SYSTEM_NAMESPACES.contains(&s));
    let named = rest.len() > 1 || values(args, &["-l", "--selector"]).next().is_some();
    (pods_by_kind && named || !pods_by_kind && pods_by_name && !rest.is_empty())
        && !everything
        && !production
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn production_names() {
        for n in [
            "prod",
            "production",
            "shop-prod",
            "prd-eu",
            "LIVE",
            "docker-compose.prod.yml",
        ] {
            assert!(production_named(n), "{n}");
        }
        for n in [
            "dev",
            "staging",
            "product-api",
            "delivery",
            "default",
            "compose.yml",
        ] {
            assert!(!production_named(n), "{n}");
        }
    }

    #[test]
    fn pods_outside_production() {
        let judge = |line: &str| {
            let args = words(line);
            let at = args.iter().position(|a| a == "delete").map_or(0, |i| i + 1);
            deletes_pods_outside_production(&args, &args[at..])
        };
        for line in [
            "delete pod web-123 -n dev",
            "-n dev delete pod web-123",
            "delete pods -l app=web",
            "delete pod/web-1 pod/web-2",
            "delete po api-0 --namespace=staging",
        ] {
            assert!(judge(line), "{line}");
        }
        for line in [
            "delete pod web-1 -n prod",
            "delete pod --all -n dev",
            "delete pods -A -l app=x",
            "delete pod x -n kube-system",
            "delete pod x --force --grace-period=0",
            "delete deploy web",
            "delete pod",
            "delete pod x --context prod-eu",
            "delete namespace dev",
            "delete pod/x svc/y",
        ] {
            assert!(!judge(line), "{line}");
        }
    }
}
