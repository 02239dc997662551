//! Unit tests of `config/policy.rs`.

use super::*;

pub(crate) fn rule(tool: ToolSel, target: Target, decision: Decision) -> RuleSpec {
    RuleSpec::new("t.rule", tool, target, decision)
}

fn shell(text: &str, segments: &[&str]) -> Subjects {
    Subjects {
        tool: "terminal".into(),
        kind: ToolKind::Shell,
        text: Some(text.into()),
        operator_free: !text.contains("&&"),
        segments: segments
            .iter()
            .map(|s| Segment {
                full: s.to_string(),
                bare: vec![],
                cwd: None,
            })
            .collect(),
        ..Subjects::default()
    }
}

#[test]
fn only_rules_whose_literal_appears_are_run() {
    let rules: Vec<RuleSpec> = (0..1000)
        .map(|i| {
            rule(
                ToolSel::Shell,
                Target::Prefix(format!("tool{i}")),
                Decision::Block,
            )
        })
        .collect();
    let policy = Policy::new(vec![], Settings::default(), rules);
    let found = policy.matches(&shell("tool42 --x", &["tool42 --x"]));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, 42);
    assert!(policy.matches(&shell("ls", &["ls"])).is_empty());
}

#[test]
fn allow_rules_see_each_segment_in_full_form_only() {
    let allow = rule(
        ToolSel::Shell,
        Target::Prefix("git".into()),
        Decision::Allow,
    );
    let deny = rule(
        ToolSel::Shell,
        Target::Prefix("git".into()),
        Decision::Block,
    );
    let policy = Policy::new(vec![], Settings::default(), vec![allow, deny]);
    let mut call = shell("sudo git push", &["sudo git push"]);
    call.segments[0].bare.push("git push".into());
    let found = policy.matches(&call);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, 1);
}

#[test]
fn allowlist_entries_need_an_operator_free_command() {
    let mut r = rule(
        ToolSel::Shell,
        Target::CommandGlob("git *".into()),
        Decision::Allow,
    );
    r.whole_command = true;
    let policy = Policy::new(vec![], Settings::default(), vec![r]);
    assert_eq!(
        policy.matches(&shell("git status", &["git status"])).len(),
        1
    );
    assert!(policy
        .matches(&shell(
            "git status && rm -rf x",
            &["git status", "rm -rf x"]
        ))
        .is_empty());
}

#[test]
fn path_globs_are_relative_to_the_project() {
    let mut r = rule(
        ToolSel::Name("write_file".into()),
        Target::PathGlob("src/**".into()),
        Decision::Allow,
    );
    r.base = Some("/p".into());
    let policy = Policy::new(vec![], Settings::default(), vec![r]);
    let call = |path: &str| Subjects {
        tool: "Write".into(),
        kind: ToolKind::Write,
        path: Some(crate::path::absolute(path, Some("/p"), None)),
        cwd: Some("/p".into()),
        ..Subjects::default()
    };
    assert_eq!(policy.matches(&call("src/a/b.rs")).len(), 1);
    assert_eq!(policy.matches(&call("/p/src/x")).len(), 1);
    assert!(policy.matches(&call("src/../../etc/passwd")).is_empty());
    assert!(policy.matches(&call("/q/src/x")).is_empty());
}

#[test]
fn slashless_path_globs_match_at_any_depth_of_the_project() {
    let mut r = rule(
        ToolSel::Name("write_file".into()),
        Target::PathGlob("*.env".into()),
        Decision::Block,
    );
    r.base = Some("/p".into());
    let policy = Policy::new(vec![], Settings::default(), vec![r]);
    let call = |path: &str| Subjects {
        tool: "write_file".into(),
        kind: ToolKind::Write,
        path: Some(path.into()),
        cwd: Some("/p".into()),
        ..Subjects::default()
    };
    assert_eq!(policy.matches(&call("/p/.env")).len(), 1);
    assert_eq!(policy.matches(&call("/p/a/b/prod.env")).len(), 1);
    assert!(policy.matches(&call("/q/.env")).is_empty());
    assert!(policy.matches(&call("/p/env.txt")).is_empty());
}

#[test]
fn star_globs_match_as_their_regex_does() {
    let globs = [
        "mcp__github__*",
        "*",
        "mcp__*__create*",
        "a*b*a",
        "*_file",
        "exact",
        "**",
    ];
    let tools = [
        "mcp__github__create_issue",
        "mcp__github__",
        "mcp__gitlab__create",
        "aba",
        "ab",
        "abba",
        "write_file",
        "exact",
        "exactly",
        "",
    ];
    for glob in globs {
        let re = pattern::compile(&pattern::glob_to_regex(glob, GlobKind::Command, true)).unwrap();
        for tool in tools {
            assert_eq!(
                star_glob_matches(glob, tool),
                re.is_match(tool),
                "{glob} against {tool}"
            );
        }
    }
}
