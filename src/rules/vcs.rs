//! Built-in rules: version control beyond git's porcelain: plumbing that overwrites the working tree or a remote, history deleted in git, Mercurial, Subversion, Bazaar and darcs, and a forge's protections bypassed or removed.
//!
//! Each rule is one effect with a row per program; the rows for git find
//! the subcommand past git's own options as `git.rs` does, so `git log
//! --grep='rm -rf .'` is not a removal.

use super::git::git;
use super::opts::{first_operand, parse_opts, Opts, Spec};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::{Analysis, Command};
use crate::verdict::Decision;

/// Tracked files overwritten or deleted with the uncommitted changes in
/// them, or untracked files deleted, by plumbing or another system's tools.
#[rustfmt::skip]
static DISCARD: &[Verb] = &[
    verb_if("git", "", git_discards),
    verb_if("hg", "", hg_discards),
    verb_if("chg", "", hg_discards),
    verb_if("svn", "", svn_discards),
    verb("bzr", r"^(?:-\S+ )*(?:clean-tree\b(?:.* )?--force\b|revert\b.* --no-backup\b)"),
    verb("brz", r"^(?:-\S+ )*(?:clean-tree\b(?:.* )?--force\b|revert\b.* --no-backup\b)"),
];

/// Commits, changesets and patches removed from a repository, or its
/// whole history rewritten.
#[rustfmt::skip]
static DELETE_HISTORY: &[Verb] = &[
    verb_if("git", "", git_rewrites),
    verb("git-lfs", r"^migrate (?:import|export)\b"),
    verb("bfg", r"(?:^| )--?(?:delete-files|delete-folders|strip-blobs-bigger-than|strip-biggest-blobs|strip-blobs-with-ids|replace-text|convert-to-git-lfs|b|D|B|rt)(?: |$)"),
    verb("java", r"(?:^| )-jar \S*bfg\S*\.jar\b"),
    verb_if("hg", "", hg_strips),
    verb_if("chg", "", hg_strips),
    verb_if("svn", "", svn_deletes_in_repository),
    verb("svnmucc", r"(?:^| )rm(?: |$)"),
    verb("bzr", r"^(?:-\S+ )*uncommit\b"),
    verb("brz", r"^(?:-\S+ )*uncommit\b"),
    verb("darcs", r"^(?:obliterate|unrecord|unpull)\b"),
];

/// A remote's refs replaced or deleted by force, beyond `git push`.
#[rustfmt::skip]
static REWRITE_REMOTE: &[Verb] = &[
    verb_if("git", "", send_pack_forces),
    verb("bzr", r"^(?:-\S+ )*push\b.* --overwrite(?:-tags)?\b"),
    verb("brz", r"^(?:-\S+ )*push\b.* --overwrite(?:-tags)?\b"),
    verb("gh", r"^(?:-\S+ \S+ )*repo sync\b.* (?:--force|-f)\b"),
];

/// A forge's protections bypassed or removed, access granted, a private
/// repository made public, or anything deleted through its API.
#[rustfmt::skip]
static FORGE_ADMIN: &[Verb] = &[
    verb("gh", r"^(?:-\S+ \S+ )*pr merge\b.* --admin\b"),
    verb("gh", r"^(?:-\S+ \S+ )*repo edit\b.* --visibility(?:=| )public\b"),
    verb_if("gh", r"(?:^| )api(?: |$)", api_changes_protection),
    verb_if("glab", r"(?:^| )api(?: |$)", api_changes_protection),
    verb("glab", r"^(?:-\S+ \S+ )*repo edit\b.* --visibility(?:=| )public\b"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "vcs.discard-worktree",
        category: "overwrite or delete working-tree files with their uncommitted changes (git plumbing, hg, svn, bzr)",
        reason: "uncommitted changes and untracked files are gone; no commit holds them",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(DISCARD),
        hits: &["git rm -rf .", "git rm -r :/", "git -C app rm -rf src", "git read-tree -u --reset HEAD~5", "git checkout-index -a -f", "git worktree remove --force ../wt", "git submodule deinit -f --all", "hg update -C default", "hg revert --all --no-backup", "hg purge --all", "hg --cwd repo clean", "svn revert -R .", "svn cleanup --remove-unversioned", "svn rm --force src", "bzr clean-tree --unknown --force", "brz revert --no-backup"],
        misses: &["git rm old.txt", "git rm --cached .env", "git rm -r --cached .", "git rm -r docs/old", "git read-tree -m -u HEAD", "git checkout-index -a --prefix=export/", "git worktree remove ../wt", "git worktree prune", "git submodule deinit vendor/lib", "git log --grep='rm -rf .'", "hg update default", "hg revert --all", "hg purge --print", "hg commit -m purge", "svn revert src/main.c", "svn cleanup", "svn delete old.c", "bzr revert", "bzr clean-tree --dry-run"],
    },
    Rule {
        id: "vcs.delete-history",
        category: "delete commits or changesets, or rewrite a repository's history (hg strip, bfg, lfs migrate, svn rm URL)",
        reason: "the commits removed are gone for everyone who uses the repository, and rewritten history diverges from every clone",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(DELETE_HISTORY),
        hits: &["git lfs migrate import --everything --include='*.psd'", "bfg --delete-files id_rsa", "java -jar bfg.jar --strip-blobs-bigger-than 50M repo.git", "hg strip -r 120", "hg --config extensions.strip= strip tip", "hg rollback", "hg shelve --cleanup", "svn delete -m x https://svn.example.com/r/trunk", "svn rm ^/branches/old -m gone", "bzr uncommit --force", "darcs obliterate -p fix"],
        misses: &["git lfs migrate info", "git lfs pull", "bfg --help", "java -jar app.jar", "hg log -l 5", "hg commit -m rollback", "hg shelve", "svn delete old.c", "svn copy ^/trunk ^/branches/x -m b", "bzr log", "darcs whatsnew"],
    },
    Rule {
        id: "vcs.rewrite-remote",
        category: "replace or delete a remote's branches by force beyond git push (send-pack, bzr push --overwrite, gh repo sync --force)",
        reason: "the remote's history is replaced, and commits others pushed there are lost",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(REWRITE_REMOTE),
        hits: &["git send-pack --force origin refs/heads/main", "git send-pack --mirror git@example.com:o/r.git", "git send-pack origin +main", "bzr push --overwrite lp:project", "gh repo sync owner/fork --force"],
        misses: &["git send-pack origin refs/heads/feature", "bzr push lp:project", "gh repo sync", "git push origin feature"],
    },
    Rule {
        id: "vcs.svn-delete-commit",
        category: "svn delete committed on the same line",
        reason: "the deletion is committed to the shared repository at once, for everyone who checks it out",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(svn_delete_committed),
        hits: &["svn delete src && svn commit -m 'remove src'", "svn rm a b; svn ci -m gone"],
        misses: &["svn delete old.c", "svn commit -m 'fix'", "svn add x && svn commit -m x"],
    },
    Rule {
        id: "vcs.forge-admin",
        category: "bypass or remove a forge's protections, grant access, publish a private repository, or delete through its API",
        reason: "branch protection, rulesets and access lists are what keep a repository safe from one mistaken or malicious push; a private repository made public cannot be unpublished",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(FORGE_ADMIN),
        hits: &["gh pr merge 42 --admin --squash", "gh api -X PATCH repos/acme/app -F private=false"],
        misses: &["gh pr merge 12 --squash", "gh api repos/acme/app", "gh api repos/acme/app/branches/main/protection", "gh api -X POST repos/acme/app/issues -f title=Bug", "gh api graphql -f query='{ viewer { login } }'", "gh repo edit --visibility private", "gh repo edit --description x", "glab api projects/42"],
    },
];

/// git's plumbing and porcelain that overwrite or delete tracked files
/// with their changes: `rm` of the whole tree or by force, `read-tree -u
/// --reset`, `checkout-index --force`, `worktree remove --force`,
/// `submodule deinit --force`.
fn git_discards(cmd: &Command) -> bool {
    let Some(g) = git(cmd) else { return false };
    // The subcommand before its options are read: most are none of these.
    if !matches!(
        g.sub,
        "rm" | "read-tree" | "checkout-index" | "worktree" | "submodule"
    ) {
        return false;
    }
    let spec = Spec::gnu("", &["prefix", "pathspec-from-file", "index-output"]);
    let o = parse_opts(g.args, &spec);
    let force = o.flag('f') || o.long("force", 3);
    match g.sub {
        "rm" => {
            let whole = o.operands.iter().any(|p| {
                matches!(
                    *p,
                    "." | "./" | "*" | "./*" | ":/" | ":/*" | ":/." | ":(top)"
                )
            });
            let kept = o.long("cached", 2) || o.flag('n') || o.long("dry-run", 2);
            !kept && (whole || force && (o.flag('r') || o.long("recursive", 3)))
        }
        "read-tree" => o.flag('u') && (o.long("reset", 3) || o.long("empty", 2)),
        "checkout-index" => {
            force
                && o.long_value("prefix", 2)
                    .is_none_or(|p| matches!(p, "" | "." | "./"))
        }
        "worktree" => o.operands.first() == Some(&"remove") && force,
        "submodule" => o.operands.first() == Some(&"deinit") && force,
        _ => false,
    }
}

/// `git lfs migrate import|export`, which rewrites the history of every
/// branch it is pointed at.
fn git_rewrites(cmd: &Command) -> bool {
    git(cmd).is_some_and(|g| {
        g.sub == "lfs"
            && matches!(
                g.args
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice(),
                ["migrate", "import" | "export", ..]
            )
    })
}

/// `git send-pack` by force: `--force`, `--mirror`, or a `+` refspec.
fn send_pack_forces(cmd: &Command) -> bool {
    let Some(g) = git(cmd).filter(|g| g.sub == "send-pack") else {
        return false;
    };
    let o = parse_opts(g.args, &Spec::gnu("", &["receive-pack", "exec", "signed"]));
    o.long("force", 3) || o.long("mirror", 2) || o.operands.iter().any(|r| r.starts_with('+'))
}

/// Mercurial's options before the command that take a value.
const HG: Spec = Spec {
    values: "R",
    attached: "",
    long_values: &[
        "repository",
        "cwd",
        "config",
        "encoding",
        "encodingmode",
        "color",
        "pager",
    ],
    permute: false,
};

/// The Mercurial command and its options.
fn hg(cmd: &Command) -> Option<(&str, Opts<'_>)> {
    let at = first_operand(&cmd.args, &HG)?;
    let (sub, rest) = cmd.args[at..].split_first()?;
    let spec = Spec::gnu(
        "rIXm",
        &["rev", "include", "exclude", "message", "date", "name"],
    );
    Some((sub.as_str(), parse_opts(rest, &spec)))
}

/// `hg update --clean`, `hg revert --no-backup`, `hg purge`/`clean`.
fn hg_discards(cmd: &Command) -> bool {
    let Some((sub, o)) = hg(cmd) else {
        return false;
    };
    match sub {
        "update" | "up" | "checkout" | "co" => o.flag('C') || o.long("clean", 2),
        "revert" => o.flag('C') || o.long("no-backup", 4),
        "purge" | "clean" => !(o.flag('p') || o.long("print", 2) || o.long("dry-run", 2)),
        _ => false,
    }
}

/// `hg strip`, `hg rollback`, every shelf deleted.
fn hg_strips(cmd: &Command) -> bool {
    let Some((sub, o)) = hg(cmd) else {
        return false;
    };
    match sub {
        "strip" | "debugstrip" | "rollback" => true,
        "shelve" => o.long("cleanup", 2) || o.long("delete", 2) || o.flag('d'),
        _ => false,
    }
}

/// Subversion's options that take a value.
const SVN: Spec = Spec::gnu(
    "rmFcN",
    &[
        "revision",
        "message",
        "file",
        "depth",
        "username",
        "password",
        "config-dir",
        "config-option",
        "change",
        "targets",
        "encoding",
        "with-revprop",
        "editor-cmd",
    ],
);

/// The svn command and its options.
fn svn(cmd: &Command) -> Option<(&str, Opts<'_>)> {
    let o = parse_opts(&cmd.args, &SVN);
    let sub = o.operands.first().copied()?;
    Some((sub, o))
}

fn svn_removes(sub: &str) -> bool {
    matches!(sub, "delete" | "del" | "remove" | "rm")
}

/// `svn revert -R`, `svn cleanup --remove-unversioned`, `svn rm --force`.
fn svn_discards(cmd: &Command) -> bool {
    let Some((sub, o)) = svn(cmd) else {
        return false;
    };
    match sub {
        "revert" => {
            o.flag('R') || o.long("recursive", 3) || o.long_value("depth", 3) == Some("infinity")
        }
        "cleanup" => o.long("remove-unversioned", 8) || o.long("remove-ignored", 8),
        s if svn_removes(s) => o.long("force", 3),
        _ => false,
    }
}

/// `svn delete URL`: deleted in the repository, committed at once.
fn svn_deletes_in_repository(cmd: &Command) -> bool {
    let Some((sub, o)) = svn(cmd) else {
        return false;
    };
    svn_removes(sub)
        && o.operands[1..]
            .iter()
            .any(|p| p.contains("://") || p.starts_with("^/"))
}

/// An `svn delete` and a later `svn commit` on the same line.
fn svn_delete_committed(analysis: &Analysis) -> Option<String> {
    let mut calls = analysis.commands.iter().filter(|c| c.program == "svn");
    let delete = calls.find(|c| svn(c).is_some_and(|(sub, _)| svn_removes(sub)))?;
    let commits = calls.any(|c| svn(c).is_some_and(|(sub, _)| matches!(sub, "commit" | "ci")));
    commits.then(|| delete.display())
}

/// Endpoints of GitHub's and GitLab's APIs that hold a repository's
/// protections and its access list.
const PROTECTED_ENDPOINTS: &[&str] = &[
    "/protection",
    "/rulesets",
    "/collaborators",
    "/keys",
    "/hooks",
    "/actions/secrets",
    "/actions/permissions",
    "/environments",
    "/members",
    "/memberships",
    "/outside_collaborators",
    "/invitations",
    "/transfer",
    "/vulnerability-alerts",
    "/protected_branches",
    "/protected_tags",
    "/deploy_keys",
    "/variables",
];

/// `gh api`/`glab api` that deletes anything, writes to a protection or
/// access endpoint, makes a repository public, or a GraphQL mutation that
/// deletes. Reads and ordinary writes (opening an issue) are not.
fn api_changes_protection(cmd: &Command) -> bool {
    let spec = Spec::gnu(
        "RXHfFpqt",
        &[
            "repo",
            "method",
            "header",
            "field",
            "raw-field",
            "jq",
            "template",
            "input",
            "hostname",
            "cache",
            "preview",
        ],
    );
    let o = parse_opts(&cmd.args, &spec);
    let Some(at) = o.operands.iter().position(|w| *w == "api") else {
        return false;
    };
    let endpoint = o.operands.get(at + 1).copied().unwrap_or("");
    let fields: Vec<&str> = o
        .values
        .iter()
        .filter(|(c, _)| matches!(c, 'f' | 'F'))
        .map(|(_, v)| *v)
        .chain(
            o.longs
                .iter()
                .filter(|(k, _)| matches!(*k, "field" | "raw-field"))
                .filter_map(|(_, v)| *v),
        )
        .collect();
    let method = o
        .value('X')
        .or(o.long_value("method", 3))
        .map(str::to_ascii_uppercase);
    let writes = match method.as_deref() {
        Some("GET" | "HEAD") => false,
        Some(_) => true,
        None => !fields.is_empty() || o.long("input", 3),
    };
    if endpoint == "graphql" {
        return fields.iter().any(|f| {
            let f = f.to_ascii_lowercase();
            f.contains("mutation") && (f.contains("delete") || f.contains("visibility"))
        });
    }
    let repo_root = {
        let parts: Vec<&str> = endpoint.trim_matches('/').split('/').collect();
        parts.len() == 3 && parts[0] == "repos" || parts.len() == 2 && parts[0] == "projects"
    };
    let publishes = fields
        .iter()
        .any(|f| matches!(*f, "private=false" | "visibility=public"));
    method.as_deref() == Some("DELETE")
        || writes && PROTECTED_ENDPOINTS.iter().any(|e| endpoint.contains(e))
        || writes && repo_root && publishes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_rm_scope() {
        let asks = |l: &str| git_discards(&Command::from_words(l));
        assert!(asks("git rm -r ."));
        assert!(asks("git rm -rf src"));
        assert!(asks("git rm --force -r src"));
        assert!(!asks("git rm -r --cached ."));
        assert!(!asks("git rm -f one.txt"));
        assert!(!asks("git rm -n -r ."));
        assert!(!asks("git -C rm status"));
    }

    #[test]
    fn svn_and_hg_words_in_messages_are_not_commands() {
        assert!(!hg_strips(&Command::from_words("hg commit -m strip")));
        assert!(!hg_discards(&Command::from_words("hg commit -m purge")));
        assert!(!svn_deletes_in_repository(&Command::from_words(
            "svn commit -m 'rm https://x'"
        )));
        assert!(!svn_discards(&Command::from_words("svn")));
    }
}
