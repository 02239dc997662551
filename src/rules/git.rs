//! Built-in rules: git commands that throw away uncommitted work, stashes, recovery points, history or remote refs, or write outside the work tree.
//!
//! Every check first finds the real subcommand past git's global options
//! (`git -C repo -c k=v --no-pager reset --hard`), so the words `reset --hard`
//! as pathspecs or inside a message (`git add reset --hard`) are not a reset.
//! git accepts unambiguous prefixes of long options (`--ha` is `--hard`); the
//! minimum lengths below are where a prefix stops being ambiguous.

use super::opts::{first_operand, parse_opts, Opts, Spec, GNU};
use super::{Matcher, Rule};
use crate::shell::Command;
use crate::verdict::Decision;

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "git.reset-hard",
        category: "git reset --hard (destroys uncommitted changes)",
        reason: "it throws away every uncommitted change in the working tree and index",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: reset_hard },
        hits: &["git reset --hard", "git reset --hard HEAD~1", "git reset --ha", "git -C repo reset --hard origin/main", "git --no-pager -c core.quotepath=off reset --hard", "git --git-dir .git --work-tree . reset -q --hard"],
        misses: &["git reset --soft HEAD~1", "git add reset --hard", "git log --grep='reset --hard'", "echo git reset --hard", "git reset -- --hard", "git reset HEAD file.txt", "git commit -m 'git reset --hard'", "git checkout -b feature/reset-hard-docs"],
    },
    Rule {
        id: "git.discard-worktree",
        category: "git checkout/restore overwriting the working tree (discards uncommitted changes)",
        reason: "files in the working tree are replaced from a commit, and their uncommitted changes are lost",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: discard_worktree },
        hits: &["git checkout HEAD -- src/", "git checkout -- .", "git checkout .", "git checkout main config.yaml", "git checkout -f main", "git restore --source=HEAD~3 src/", "git restore .", "git switch --discard-changes main"],
        misses: &["git checkout -b feature/reset-hard-docs", "git checkout main", "git checkout feature/reset-hard", "git checkout -b hotfix origin/main", "git checkout -", "git diff HEAD~1 -- src/", "git restore --staged src/lib.rs", "git restore -S .", "git switch -c new-branch"],
    },
    Rule {
        id: "git.force-push",
        category: "git force push (rewrites remote history)",
        reason: "it replaces history on the remote, and commits others pushed there can be lost",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: force_push_long },
        hits: &["git push --force origin main", "git push --force origin feature-x", "git push --force-with-lease", "git push --force-with-lease origin", "git push --force-with-lease origin main", "git push --force-with-lease origin feature:master", "git push --force-with-lease origin HEAD", "git push --force-with-lease origin release/2.4", "git push --force-with-lease --all origin", "git push origin main --force", "git push --mirror backup"],
        misses: &["git push origin feature-branch", "git push -u origin main", "git push --force-if-includes origin main", "git push --dry-run --force origin main", "git commit -m 'git push --force'", "git push -f", "git push --force-with-lease origin feature/login-form", "git push --force-with-lease=fix origin fix", "git push -u --force-with-lease origin HEAD:refs/heads/wip/x"],
    },
    Rule {
        id: "git.force-push-short",
        category: "git force push short flag (rewrites remote history)",
        reason: "it replaces history on the remote, and commits others pushed there can be lost",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: force_push_short },
        hits: &["git push -f", "git push -fu origin main", "git push origin +main", "git push origin +HEAD:release"],
        misses: &["git push origin feature-branch", "git push -u origin main", "git push -o ci.skip origin main", "git push -nf origin main", "git log -f"],
    },
    Rule {
        id: "git.push-delete",
        category: "git push deleting remote branches or tags",
        reason: "the branch or tag disappears from the remote for everyone who uses it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: push_delete },
        hits: &["git push origin --delete old-feature", "git push origin :old-feature", "git push -d origin v1.0", "git push --prune origin 'refs/heads/*:refs/heads/*'", "git push --prune backup refs/remotes/origin/*:refs/heads/*"],
        misses: &["git push origin feature-branch", "git push origin :", "git push --dry-run origin --delete x", "git branch -d merged-feature", "git push --prune origin"],
    },
    Rule {
        id: "git.clean-force",
        category: "git clean with force (deletes untracked files)",
        reason: "untracked files are deleted for good; git has no copy of them",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: clean_force },
        hits: &["git clean -fd", "git clean -f", "git clean -ffdx", "git clean --force -d", "git -c clean.requireForce=false clean -d"],
        misses: &["git clean -n", "git clean -fdn", "git clean --dry-run -fd", "git clean -e -f", "git status"],
    },
    Rule {
        id: "git.branch-force-delete",
        category: "git branch force delete",
        reason: "the branch is deleted even if its commits were never merged anywhere",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: branch_force_delete_short },
        hits: &["git branch -D feature", "git branch -df feature", "git branch -d --force feature", "git branch -Dr origin/old"],
        misses: &["git branch -d merged-feature", "git branch -f main origin/main", "git branch --delete --force feature", "git branch --list", "git checkout -D"],
    },
    Rule {
        id: "git.branch-force-delete-long",
        category: "git branch force delete (long flags)",
        reason: "the branch is deleted even if its commits were never merged anywhere",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: branch_force_delete_long },
        hits: &["git branch --delete --force feature", "git branch --del --forc feature"],
        misses: &["git branch --delete merged", "git branch --force --delete feature", "git branch --delete --format=x feature", "git branch -D x"],
    },
    Rule {
        id: "git.branch-force-delete-force-first",
        category: "git branch force delete (long flags, force-first)",
        reason: "the branch is deleted even if its commits were never merged anywhere",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: branch_force_delete_force_first },
        hits: &["git branch --force --delete feature", "git -C repo branch --force --delete old"],
        misses: &["git branch --force main origin/main", "git branch --delete --force feature", "git branch --delete merged"],
    },
    Rule {
        id: "git.stash-drop",
        category: "git stash clear/drop (destroys stashed changes)",
        reason: "stashed changes are removed and only dangling-object forensics can bring them back",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: stash_drop },
        hits: &["git stash clear", "git stash drop", "git stash drop stash@{2}"],
        misses: &["git stash", "git stash list", "git stash pop", "git stash push -m clear", "git log --grep='stash clear'"],
    },
    Rule {
        id: "git.reflog-expire",
        category: "git reflog expire (destroys recovery points)",
        reason: "the reflog is how lost commits are found again; expiring it now removes that safety net",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: reflog_expire },
        hits: &["git reflog expire --expire=now --all", "git reflog expire --expire-unreachable=now --all && git gc --prune=now", "git reflog delete HEAD@{1}"],
        misses: &["git reflog", "git reflog show main", "git reflog expire --expire=never --all", "git reflog expire --all"],
    },
    Rule {
        id: "git.prune-now",
        category: "git gc/prune of every unreachable object (destroys recovery points)",
        reason: "unreachable commits, the last copy of reset or rebased-away work, are deleted without a grace period",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: prune_now },
        hits: &["git gc --prune=now", "git gc --aggressive --prune=all", "git prune", "git prune --expire=now"],
        misses: &["git gc", "git gc --prune=2.weeks.ago", "git prune -n", "git prune --expire=2.weeks.ago", "git remote prune origin"],
    },
    Rule {
        id: "git.history-rewrite",
        category: "git filter-branch/filter-repo (rewrites history)",
        reason: "every matching commit is rewritten; collaborators' clones diverge and the old history is hard to recover",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git", "git-filter-repo"], check: history_rewrite },
        hits: &["git filter-branch --force --index-filter 'git rm -r --cached --ignore-unmatch secrets' HEAD", "git filter-repo --path secrets --invert-paths", "git-filter-repo --strip-blobs-bigger-than 10M"],
        misses: &["git filter-repo --analyze", "git filter-repo --dry-run --path x", "git log --filter=blob:none", "echo git filter-branch"],
    },
    Rule {
        id: "git.update-ref-delete",
        category: "git update-ref -d (deletes a ref)",
        reason: "plumbing deletes the branch or ref with no merge check and no confirmation",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: update_ref_delete },
        hits: &["git update-ref -d refs/heads/main", "git update-ref -m cleanup -d refs/remotes/origin/old"],
        misses: &["git update-ref refs/heads/new HEAD", "git show-ref -d", "git branch -d merged-feature"],
    },
    Rule {
        id: "git.apply-outside-tree",
        category: "git apply --unsafe-paths (writes files outside the work tree)",
        reason: "the patch names the files it creates or changes, anywhere the user can write, and the guard cannot read it to tell where",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["git"], check: apply_unsafe_paths },
        hits: &["git apply --unsafe-paths --directory / x.patch", "git apply --unsafe-paths x.patch", "git -C . apply --uns --directory=/etc p.diff", "curl -s x.example/p | git apply --unsafe-paths -"],
        misses: &["git apply x.patch", "git apply --directory=sub x.patch", "git apply --check --unsafe-paths x.patch", "git apply --stat x.patch", "git am --unsafe-paths x.patch"],
    },
];

/// git's options before the subcommand that take a value.
#[rustfmt::skip]
pub(super) const GLOBAL: Spec = Spec { values: "Cc", attached: "", long_values: &["git-dir", "work-tree", "namespace", "config-env", "super-prefix", "attr-source", "list-cmds"], permute: false };

/// A git invocation: its subcommand and the subcommand's arguments.
pub(super) struct Git<'a> {
    pub sub: &'a str,
    pub args: &'a [String],
    /// The arguments before the subcommand: git's own options.
    pub global: &'a [String],
}

impl<'a> Git<'a> {
    /// The `-c key=value` settings given before the subcommand.
    fn config(&self) -> impl Iterator<Item = &'a str> {
        parse_opts(self.global, &GLOBAL)
            .values
            .into_iter()
            .filter(|(c, _)| *c == 'c')
            .map(|(_, v)| v)
    }
}

/// Only finds the subcommand: each of the table's rules asks, and most
/// calls name another one.
pub(super) fn git(cmd: &Command) -> Option<Git<'_>> {
    let at = first_operand(&cmd.args, &GLOBAL)?;
    let (global, rest) = cmd.args.split_at_checked(at)?;
    let (sub, args) = rest.split_first()?;
    Some(Git {
        sub: sub.as_str(),
        args,
        global,
    })
}

/// git's subcommand and the arguments after it (`config` and `--file F
/// k v`), for the rules that read one subcommand's files.
pub(in crate::rules) fn subcommand(cmd: &Command) -> Option<(&str, &[String])> {
    git(cmd).map(|g| (g.sub, g.args))
}

/// The subcommand's options when it is `sub`.
fn sub_opts<'a>(cmd: &'a Command, sub: &str, spec: &Spec) -> Option<Opts<'a>> {
    let g = git(cmd)?;
    (g.sub == sub).then(|| parse_opts(g.args, spec))
}

/// `git apply --unsafe-paths` lets the patch reach outside the work tree;
/// `--check`, `--stat`, `--numstat` and `--summary` only read it.
fn apply_unsafe_paths(cmd: &Command) -> bool {
    sub_opts(
        cmd,
        "apply",
        &Spec::gnu(
            "Cp",
            &[
                "directory",
                "exclude",
                "include",
                "whitespace",
                "build-fake-ancestor",
            ],
        ),
    )
    .is_some_and(|o| {
        o.long("unsafe-paths", 3)
            && !o.long("check", 2)
            && !o.long("stat", 2)
            && !o.long("numstat", 1)
            && !o.long("summary", 2)
    })
}

fn reset_hard(cmd: &Command) -> bool {
    sub_opts(cmd, "reset", &GNU).is_some_and(|o| o.long("hard", 2))
}

const CHECKOUT: Spec = Spec::gnu("bB", &["orphan"]);
const RESTORE: Spec = Spec::gnu("s", &["source"]);
const SWITCH: Spec = Spec::gnu("cC", &["create", "force-create", "orphan"]);

fn discard_worktree(cmd: &Command) -> bool {
    let Some(g) = git(cmd) else { return false };
    match g.sub {
        "checkout" => {
            let o = parse_opts(g.args, &CHECKOUT);
            let dashdash_paths = g
                .args
                .iter()
                .position(|a| a == "--")
                .is_some_and(|p| p + 1 < g.args.len());
            let pathish = |p: &&str| {
                matches!(*p, "." | ".." | ":/" | "*")
                    || p.starts_with("./")
                    || p.starts_with("../")
                    || p.starts_with(":(")
                    || p.ends_with('/')
            };
            o.flag('f')
                || o.long("force", 2)
                || o.long("pathspec-from-file", 2)
                || dashdash_paths
                // `checkout <tree-ish> <path>`: a second operand can only be a path.
                || o.operands.len() >= 2
                || o.operands.iter().any(pathish)
        }
        "restore" => {
            let o = parse_opts(g.args, &RESTORE);
            let staged = o.flag('S') || o.long("staged", 2);
            let worktree = o.flag('W') || o.long("worktree", 1);
            (!staged || worktree) && (!o.operands.is_empty() || o.long("pathspec-from-file", 2))
        }
        "switch" => {
            let o = parse_opts(g.args, &SWITCH);
            o.flag('f') || o.long("force", 2) || o.long("discard-changes", 2)
        }
        _ => false,
    }
}

const PUSH: Spec = Spec::gnu("o", &["push-option", "repo", "receive-pack", "exec"]);

/// `git push` options, unless it is a dry run.
fn push_opts(cmd: &Command) -> Option<Opts<'_>> {
    sub_opts(cmd, "push", &PUSH).filter(|o| !(o.flag('n') || o.long("dry-run", 2)))
}

/// `--force` and `--mirror` always; `--force-with-lease` unless every
/// branch it updates is named and none is a shared one: the lease checks
/// that nobody else pushed, and rewriting one's own topic branch after a
/// rebase is everyday. Without a refspec the branch is the current one,
/// which the command does not name.
fn force_push_long(cmd: &Command) -> bool {
    push_opts(cmd).is_some_and(|o| {
        let lease = o.long("force-with-lease", 7);
        let every = o.long("all", 2) || o.long("branches", 2) || o.long("tags", 2);
        let named = o.operands.get(1..).unwrap_or(&[]);
        o.long("force", 5)
            || o.long("mirror", 2)
            || lease && (every || named.is_empty() || named.iter().any(|r| shared_branch(r)))
    })
}

/// Whether a refspec updates a branch others share, or one it does not
/// name (`HEAD`): the default names, `develop`, release and production
/// branches.
fn shared_branch(refspec: &str) -> bool {
    let dst = refspec.rsplit(':').next().unwrap_or(refspec);
    let dst = dst.trim_start_matches('+');
    let name = dst
        .strip_prefix("refs/heads/")
        .unwrap_or(dst)
        .to_ascii_lowercase();
    const SHARED: &[&str] = &[
        "",
        "head",
        "main",
        "master",
        "trunk",
        "develop",
        "development",
        "dev",
        "default",
        "stable",
        "staging",
        "prod",
        "production",
        "live",
    ];
    SHARED.contains(&name.as_str())
        || ["release", "production", "prod/"]
            .iter()
            .any(|p| name.starts_with(p))
        || name.starts_with("refs/")
        || name.contains('*')
}

fn force_push_short(cmd: &Command) -> bool {
    // `+refspec` forces that one update, with no flag at all.
    push_opts(cmd).is_some_and(|o| o.flag('f') || o.operands.iter().any(|r| r.starts_with('+')))
}

fn push_delete(cmd: &Command) -> bool {
    // `:` alone pushes matching branches; `:name` deletes name. `--prune`
    // with a refspec deletes every remote ref it maps to that has no
    // local source.
    push_opts(cmd).is_some_and(|o| {
        let refspecs = o.operands.get(1..).unwrap_or(&[]);
        o.flag('d')
            || o.long("delete", 2)
            || o.operands.iter().any(|r| r.len() > 1 && r.starts_with(':'))
            || o.long("prune", 3) && !refspecs.is_empty()
    })
}

const CLEAN: Spec = Spec::gnu("e", &["exclude"]);

fn clean_force(cmd: &Command) -> bool {
    let Some(g) = git(cmd) else { return false };
    if g.sub != "clean" {
        return false;
    }
    let o = parse_opts(g.args, &CLEAN);
    let unforced = g.config().any(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        k.eq_ignore_ascii_case("clean.requireforce")
            && matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "no" | "off" | "0"
            )
    });
    let dry = o.flag('n') || o.long("dry-run", 1);
    !dry && (o.flag('f') || o.long("force", 1) || unforced)
}

const BRANCH: Spec = Spec::gnu("u", &["set-upstream-to", "format", "sort", "points-at"]);

/// How a `git branch` call asks for a forced delete.
#[derive(Debug, PartialEq, Eq)]
enum ForceDelete {
    /// `-D`, `-df`, or a mix of short and long flags.
    Short,
    /// `--delete --force`.
    Long,
    /// `--force --delete`.
    ForceFirst,
}

fn branch_force_delete(cmd: &Command) -> Option<ForceDelete> {
    let o = sub_opts(cmd, "branch", &BRANCH)?;
    // `--for` is ambiguous between --force and --format.
    let (del_long, force_long) = (o.long_at("delete", 1), o.long_at("force", 4));
    let (del, force) = (
        o.flag('d') || del_long.is_some(),
        o.flag('f') || force_long.is_some(),
    );
    if o.flag('D') || (del && force && (o.flag('d') || o.flag('f'))) {
        return Some(ForceDelete::Short);
    }
    match (del_long, force_long) {
        (Some(d), Some(f)) if d < f => Some(ForceDelete::Long),
        (Some(_), Some(_)) => Some(ForceDelete::ForceFirst),
        _ => None,
    }
}

fn branch_force_delete_short(cmd: &Command) -> bool {
    branch_force_delete(cmd) == Some(ForceDelete::Short)
}

fn branch_force_delete_long(cmd: &Command) -> bool {
    branch_force_delete(cmd) == Some(ForceDelete::Long)
}

fn branch_force_delete_force_first(cmd: &Command) -> bool {
    branch_force_delete(cmd) == Some(ForceDelete::ForceFirst)
}

fn stash_drop(cmd: &Command) -> bool {
    sub_opts(cmd, "stash", &GNU)
        .is_some_and(|o| matches!(o.operands.first(), Some(&("clear" | "drop"))))
}

fn reflog_expire(cmd: &Command) -> bool {
    let Some(o) = sub_opts(cmd, "reflog", &GNU) else {
        return false;
    };
    match o.operands.first() {
        Some(&"delete") => true,
        Some(&"expire") => ["expire", "expire-unreachable"].iter().any(|name| {
            o.longs
                .iter()
                .any(|(k, v)| k == name && v.is_some_and(|v| !matches!(v, "never" | "false")))
        }),
        _ => false,
    }
}

/// An expiry that keeps nothing: `now`, `all`.
fn immediate(date: &str) -> bool {
    matches!(date, "now" | "all")
}

fn prune_now(cmd: &Command) -> bool {
    let Some(g) = git(cmd).filter(|g| matches!(g.sub, "gc" | "prune")) else {
        return false;
    };
    let spec = Spec::gnu("", &["expire"]);
    let o = parse_opts(g.args, &spec);
    match g.sub {
        "gc" => o.long_value("prune", 2).is_some_and(immediate),
        "prune" => {
            !(o.flag('n') || o.long("dry-run", 1))
                && o.long_value("expire", 1).is_none_or(immediate)
        }
        _ => false,
    }
}

fn history_rewrite(cmd: &Command) -> bool {
    let (sub, args) = if cmd.program == "git-filter-repo" {
        ("filter-repo", cmd.args.as_slice())
    } else {
        match git(cmd) {
            Some(g) => (g.sub, g.args),
            None => return false,
        }
    };
    match sub {
        "filter-branch" => true,
        "filter-repo" => {
            let o = parse_opts(args, &GNU);
            !(o.long("analyze", 2) || o.long("dry-run", 2) || o.long("help", 2) || o.flag('h'))
        }
        _ => false,
    }
}

fn update_ref_delete(cmd: &Command) -> bool {
    let spec = Spec::gnu("m", &[]);
    sub_opts(cmd, "update-ref", &spec).is_some_and(|o| o.flag('d'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_options_are_skipped() {
        let c = Command::from_words(
            "git -C repo -c a=b --git-dir x --work-tree=y --no-pager -p reset --hard",
        );
        let g = git(&c).map(|g| (g.sub, g.args.len(), g.config().collect::<Vec<_>>()));
        assert_eq!(g, Some(("reset", 1, vec!["a=b"])));
        assert!(reset_hard(&c));
        // `-C reset` is a directory named reset.
        assert!(!reset_hard(&Command::from_words(
            "git -C reset status --hard"
        )));
        assert!(!reset_hard(&Command::from_words("git add reset --hard")));
        assert!(!reset_hard(&Command::from_words("git reset -- --hard")));
        assert!(reset_hard(&Command::from_words("git reset --har")));
        assert!(!reset_hard(&Command::from_words("git reset --h")));
    }

    #[test]
    fn a_trailing_dashdash_names_no_subcommand() {
        for line in ["git --", "git -C repo --", "git -c a=b --", "git --git-dir"] {
            assert!(git(&Command::from_words(line)).is_none(), "{line}");
        }
        let c = Command::from_words("git -- status");
        assert_eq!(
            git(&c).map(|g| (g.sub, g.global.len())),
            Some(("status", 1))
        );
    }

    #[test]
    fn checkout_paths_versus_branches() {
        assert!(discard_worktree(&Command::from_words(
            "git checkout HEAD -- src/"
        )));
        assert!(discard_worktree(&Command::from_words(
            "git checkout v1.0 README.md"
        )));
        assert!(!discard_worktree(&Command::from_words(
            "git checkout -b new origin/main"
        )));
        assert!(!discard_worktree(&Command::from_words(
            "git checkout --orphan gh-pages"
        )));
        assert!(!discard_worktree(&Command::from_words(
            "git checkout feature/x"
        )));
        assert!(discard_worktree(&Command::from_words(
            "git restore --staged --worktree f"
        )));
        assert!(!discard_worktree(&Command::from_words(
            "git restore --staged f"
        )));
    }

    #[test]
    fn push_forms() {
        assert!(force_push_long(&Command::from_words(
            "git push --force-with-lease=main:abc"
        )));
        assert!(!force_push_long(&Command::from_words(
            "git push --force-if-includes"
        )));
        assert!(force_push_short(&Command::from_words(
            "git push -uf origin main"
        )));
        assert!(!force_push_short(&Command::from_words(
            "git push -o +x origin main"
        )));
        assert!(!force_push_short(&Command::from_words("git push -n -f")));
        assert!(push_delete(&Command::from_words("git push origin :gone")));
        assert!(!push_delete(&Command::from_words("git push origin :")));
    }

    #[test]
    fn branch_delete_kinds() {
        let kind = |l: &str| branch_force_delete(&Command::from_words(l));
        assert_eq!(kind("git branch -D x"), Some(ForceDelete::Short));
        assert_eq!(kind("git branch --delete -f x"), Some(ForceDelete::Short));
        assert_eq!(
            kind("git branch --delete --force x"),
            Some(ForceDelete::Long)
        );
        assert_eq!(
            kind("git branch --force --delete x"),
            Some(ForceDelete::ForceFirst)
        );
        assert_eq!(kind("git branch --delete --for x"), None);
        assert_eq!(kind("git branch -d x"), None);
        assert_eq!(kind("git branch -u -D main"), None);
    }

    #[test]
    fn clean_and_prune() {
        assert!(clean_force(&Command::from_words("git clean -xdf")));
        assert!(!clean_force(&Command::from_words("git clean -fn")));
        assert!(!clean_force(&Command::from_words("git clean -e -f")));
        assert!(clean_force(&Command::from_words(
            "git -c clean.requireForce=false clean -d"
        )));
        assert!(prune_now(&Command::from_words("git gc --prune=now")));
        assert!(!prune_now(&Command::from_words("git gc --prune")));
        assert!(!prune_now(&Command::from_words("git remote prune origin")));
    }
}
