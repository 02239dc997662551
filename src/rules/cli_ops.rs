//! Operations of CLIs that nest command groups before their verb (aws, gcloud, az, kubectl), as tables: the words of the command path and what the options must show, matched by comparing words, so a table of many rows costs no regex.

use super::cloud::{path, AWS_VALUED, GCLOUD_VALUED, KUBECTL_VALUED};
use crate::shell::Command;

/// What the rest of the command line must show for an [`Op`] to match.
pub(super) enum When {
    Always,
    /// Some argument contains one of these texts, ASCII case ignored.
    Has(&'static [&'static str]),
    /// Option `NAME`'s value (`NAME V` or `NAME=V`, the last one given) is
    /// one of these, ASCII case ignored.
    Value(&'static str, &'static [&'static str]),
    /// What words cannot say.
    Check(fn(&Command) -> bool),
}

/// One operation: its command path, each word a set of alternatives
/// (`stop-logging|delete-trail`, `*` for any word), and what else must hold.
pub(super) struct Op {
    pub path: &'static [&'static str],
    pub when: When,
}

pub(super) const fn op(path: &'static [&'static str], when: When) -> Op {
    Op { path, when }
}

/// The value of option `name`, given as `NAME VALUE` or `NAME=VALUE`; the
/// last one given, as the CLIs read it.
pub(super) fn value<'a>(cmd: &'a Command, name: &str) -> Option<&'a str> {
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

/// Whether some argument contains one of `texts`, ASCII case ignored.
pub(super) fn has(cmd: &Command, texts: &[&str]) -> bool {
    cmd.args.iter().any(|a| {
        texts.iter().any(|t| {
            a.as_bytes()
                .windows(t.len())
                .any(|w| w.eq_ignore_ascii_case(t.as_bytes()))
        })
    })
}

impl When {
    fn holds(&self, cmd: &Command) -> bool {
        match self {
            When::Always => true,
            When::Has(texts) => has(cmd, texts),
            When::Value(name, values) => {
                value(cmd, name).is_some_and(|v| values.iter().any(|x| v.eq_ignore_ascii_case(x)))
            }
            When::Check(check) => check(cmd),
        }
    }
}

/// Whether `words` starts with the op's path.
fn starts(words: &[&str], pattern: &[&str]) -> bool {
    words.len() >= pattern.len()
        && pattern
            .iter()
            .zip(words)
            .all(|(p, w)| *p == "*" || p.split('|').any(|alt| alt == *w))
}

/// The first op of `ops` whose path starts `words` and whose condition holds.
pub(super) fn matches(cmd: &Command, words: &[&str], ops: &[Op]) -> bool {
    ops.iter()
        .any(|o| starts(words, o.path) && o.when.holds(cmd))
}

/// An AWS call's path (`cloudtrail stop-logging`), when it acts: not a dry
/// run, a skeleton or a manual page.
pub(super) fn aws_path(cmd: &Command) -> Option<Vec<&str>> {
    let p = path(&cmd.args, AWS_VALUED);
    let idle = p.get(2) == Some(&"help")
        || cmd
            .args
            .iter()
            .any(|a| a == "--dry-run" || a.starts_with("--generate-cli-skeleton"));
    (!idle).then_some(p)
}

/// A gcloud call's path without its release track (`alpha`, `beta`),
/// unless it is a manual page (`gcloud help …`).
pub(super) fn gcloud_path(cmd: &Command) -> Option<Vec<&str>> {
    let mut p = path(&cmd.args, GCLOUD_VALUED);
    if matches!(p.first(), Some(&("alpha" | "beta" | "preview"))) {
        p.remove(0);
    }
    (!matches!(p.first(), Some(&("help" | "topic")))).then_some(p)
}

/// An az call's path.
pub(super) fn az_path(cmd: &Command) -> Vec<&str> {
    path(&cmd.args, &["--subscription", "--output", "-o", "--query"])
}

/// A kubectl (or oc) call's path, unless it is a dry run, which only
/// prints what it would send.
pub(super) fn kubectl_path(cmd: &Command) -> Option<Vec<&str>> {
    let dry = cmd
        .args
        .iter()
        .any(|a| a == "--dry-run" || (a.starts_with("--dry-run=") && a != "--dry-run=none"));
    (!dry).then(|| path(&cmd.args, KUBECTL_VALUED))
}

/// `gsutil`'s command and its words, after its global options (`-m`, `-o KEY=VALUE`).
pub(super) fn gsutil_path(cmd: &Command) -> Vec<&str> {
    let mut words = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        if words.is_empty() && matches!(arg.as_str(), "-o" | "-h" | "-u" | "-i") {
            args.next();
        } else if !arg.starts_with('-') || !words.is_empty() {
            words.push(arg.as_str());
        }
    }
    words
}

/// The command path of a CLI without global options that take values
/// (`vault -address=X kv delete`, `consul kv delete`).
pub(super) fn plain_path(cmd: &Command) -> Vec<&str> {
    path(&cmd.args, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_word_by_word() {
        assert!(starts(
            &["cloudtrail", "stop-logging"],
            &["cloudtrail", "stop-logging|delete-trail"]
        ));
        assert!(starts(
            &["projects", "add-iam-policy-binding", "p"],
            &["*", "add-iam-policy-binding"]
        ));
        assert!(!starts(&["cloudtrail"], &["cloudtrail", "stop-logging"]));
        assert!(!starts(&["logs", "tail"], &["logs", "delete-log-group"]));
        let cmd = Command::from_words("aws s3 cp f s3://b --acl=PUBLIC-READ");
        assert!(When::Value("--acl", &["public-read"]).holds(&cmd));
        assert!(When::Has(&["public-read"]).holds(&cmd));
        assert!(!When::Has(&["private"]).holds(&cmd));
    }
}
