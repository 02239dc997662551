//! warden's own YAML policy (`config.yaml`, `.warden.yaml`, `/etc/warden/*.yaml`) and `.hermes/permissions.yaml`, read strictly.
//!
//! Unknown keys are errors with file and line: a misspelt `deny:` must not
//! silently stop denying.

use std::collections::HashSet;

use serde::Deserialize;

use super::audit_doc::AuditDoc;
use super::model::{Mode, OnError, Risk, Settings, SourceDoc, SourceKind, Unattended};
use super::spec::{build_rules, RuleCtx, RulesField};
use super::yaml::lines::{self, Step};
use super::yaml::{config_error, yaml_error};
use crate::error::{Error, Result};

/// Reads a warden policy file (`kind` is [`SourceKind::Warden`] or
/// [`SourceKind::Permissions`]); `base` is the directory relative globs and
/// scopes are resolved against, copied into every rule.
pub(crate) fn parse(
    path: &str,
    text: &str,
    kind: SourceKind,
    base: Option<&str>,
) -> Result<SourceDoc> {
    if lines::is_blank(text) {
        return Ok(SourceDoc::default());
    }
    let body = if kind == SourceKind::Permissions {
        let doc: Option<PermissionsDoc> =
            serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
        match doc {
            Some(doc) => doc.into_body(path, text)?,
            None => return Ok(SourceDoc::default()),
        }
    } else {
        let doc: Option<WardenDoc> =
            serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
        match doc {
            Some(doc) => doc.into_body(),
            None => return Ok(SourceDoc::default()),
        }
    };
    let mut settings = Settings {
        mode: body.mode,
        on_error: body.on_error,
        auto_approve_up_to: body.auto_approve_up_to,
        cron_mode: body.unattended,
        single_query_mode: body.unattended,
        unattended_mode: body.unattended,
        audit: match body.audit {
            Some(audit) => Some(audit.settings(path, text)?),
            None => None,
        },
        ..Settings::default()
    };
    settings.exempt_categories = body
        .exempt
        .unwrap_or_default()
        .iter()
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    let mut rules = Vec::new();
    if let Some(field) = body.rules {
        let mut ids = HashSet::new();
        let ctx = RuleCtx {
            path,
            text,
            keys: &body.rules_keys,
            id_prefix: kind.id_prefix(),
            base,
        };
        build_rules(&ctx, field, &mut ids, &mut rules)?;
    }
    let warnings = unsupported(&mut settings);
    Ok(SourceDoc {
        rules,
        settings,
        warnings,
    })
}

/// Settings this system cannot carry out, taken out, each with a warning:
/// syslog is reached through a Unix socket, and elsewhere the option is
/// said to do nothing rather than failing on every call.
#[cfg(unix)]
fn unsupported(_: &mut Settings) -> Vec<String> {
    Vec::new()
}

#[cfg(not(unix))]
fn unsupported(settings: &mut Settings) -> Vec<String> {
    match settings.audit.as_mut().and_then(|a| a.syslog.take()) {
        Some(_) => vec![
            "`audit.syslog` is not supported on this system: no decision is sent to a system log"
                .to_string(),
        ],
        None => Vec::new(),
    }
}

/// What a warden or permissions file says, before it becomes a [`SourceDoc`].
struct Body {
    mode: Option<Mode>,
    on_error: Option<OnError>,
    auto_approve_up_to: Option<Risk>,
    unattended: Option<Unattended>,
    exempt: Option<Vec<String>>,
    audit: Option<AuditDoc>,
    rules: Option<RulesField>,
    /// Where `rules` sits, for finding entry lines.
    rules_keys: Vec<&'static str>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WardenDoc {
    mode: Option<Mode>,
    on_error: Option<OnError>,
    auto_approve_up_to: Option<Risk>,
    unattended: Option<Unattended>,
    exempt: Option<Vec<String>>,
    audit: Option<AuditDoc>,
    rules: Option<RulesField>,
}

impl WardenDoc {
    fn into_body(self) -> Body {
        Body {
            mode: self.mode,
            on_error: self.on_error,
            auto_approve_up_to: self.auto_approve_up_to,
            unattended: self.unattended,
            exempt: self.exempt,
            audit: self.audit,
            rules: self.rules,
            rules_keys: vec!["rules"],
        }
    }
}

/// `.hermes/permissions.yaml`: warden's schema, plus Hermes' `tool_mode`
/// and the whole document optionally wrapped in `approvals:`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionsDoc {
    mode: Option<Mode>,
    tool_mode: Option<Mode>,
    on_error: Option<OnError>,
    auto_approve_up_to: Option<Risk>,
    unattended: Option<Unattended>,
    exempt: Option<Vec<String>>,
    rules: Option<RulesField>,
    approvals: Option<PermissionsApprovals>,
}

/// `approvals.mode` means yolo in Hermes' own config, so only `tool_mode`
/// names the mode here.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionsApprovals {
    tool_mode: Option<Mode>,
    on_error: Option<OnError>,
    auto_approve_up_to: Option<Risk>,
    unattended: Option<Unattended>,
    exempt: Option<Vec<String>>,
    rules: Option<RulesField>,
}

impl PermissionsDoc {
    fn into_body(self, path: &str, text: &str) -> Result<Body> {
        let top_mode = one_of(path, text, "mode", self.mode, "tool_mode", self.tool_mode)?;
        let mut body = Body {
            mode: top_mode,
            on_error: self.on_error,
            auto_approve_up_to: self.auto_approve_up_to,
            unattended: self.unattended,
            exempt: self.exempt,
            audit: None,
            rules: self.rules,
            rules_keys: vec!["rules"],
        };
        let Some(inner) = self.approvals else {
            return Ok(body);
        };
        // Each setting may be given at the top or under `approvals`, not both:
        // silently preferring one would hide the other from its author.
        let top_has_mode = body.mode.is_some();
        let clash = |key: &str| {
            let line = lines::key_line(text, &[Step::Key("approvals"), Step::Key(key)]);
            let top = if key == "tool_mode" && top_has_mode {
                "`mode`/`tool_mode`".to_string()
            } else {
                format!("`{key}`")
            };
            config_error(
                path,
                line,
                format!("{top} is set both at the top level and under `approvals`; keep one"),
            )
        };
        body.mode = merge(body.mode, inner.tool_mode, || clash("tool_mode"))?;
        body.on_error = merge(body.on_error, inner.on_error, || clash("on_error"))?;
        body.auto_approve_up_to = merge(body.auto_approve_up_to, inner.auto_approve_up_to, || {
            clash("auto_approve_up_to")
        })?;
        body.unattended = merge(body.unattended, inner.unattended, || clash("unattended"))?;
        body.exempt = merge(body.exempt, inner.exempt, || clash("exempt"))?;
        if inner.rules.is_some() {
            body.rules = merge(body.rules, inner.rules, || clash("rules"))?;
            body.rules_keys = vec!["approvals", "rules"];
        }
        Ok(body)
    }
}

fn merge<T>(top: Option<T>, inner: Option<T>, clash: impl FnOnce() -> Error) -> Result<Option<T>> {
    match (top, inner) {
        (Some(_), Some(_)) => Err(clash()),
        (top, inner) => Ok(top.or(inner)),
    }
}

fn one_of<T>(
    path: &str,
    text: &str,
    a: &str,
    va: Option<T>,
    b: &str,
    vb: Option<T>,
) -> Result<Option<T>> {
    merge(va, vb, || {
        config_error(
            path,
            lines::key_line(text, &[Step::Key(b)]),
            format!("both `{a}` and `{b}` are set; they mean the same, keep one"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::{Target, ToolSel, DEFAULT_PRIORITY};
    use crate::verdict::Decision;

    fn warden(text: &str) -> Result<SourceDoc> {
        parse("/p/.warden.yaml", text, SourceKind::Warden, Some("/p"))
    }

    fn perms(text: &str) -> Result<SourceDoc> {
        parse(
            "/p/.hermes/permissions.yaml",
            text,
            SourceKind::Permissions,
            None,
        )
    }

    fn err(result: Result<SourceDoc>) -> (Option<usize>, String) {
        match result {
            Err(Error::Config {
                line,
                message,
                path,
            }) => {
                assert!(path.ends_with(".yaml"), "{path}");
                (line, message)
            }
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn empty_and_comment_only_files_are_empty() {
        for text in ["", "\n\n", "# nothing yet\n  # really\n", "---\n", "~\n"] {
            assert_eq!(warden(text).unwrap(), SourceDoc::default(), "{text:?}");
            assert_eq!(perms(text).unwrap(), SourceDoc::default(), "{text:?}");
        }
    }

    #[test]
    fn top_level_must_be_a_mapping() {
        let (line, message) = err(warden("- terminal(ls)\n"));
        assert_eq!(line, Some(1));
        assert!(message.contains("mapping"), "{message}");
        assert!(err(warden("just text\n")).1.contains("mapping"));
    }

    #[test]
    fn settings() {
        let doc = warden(
            "mode: cautious\non_error: ask\nauto_approve_up_to: medium\n\
             unattended: approve\nexempt: [\"recursive delete\", \" \", \"git force push\"]\n",
        )
        .unwrap();
        let s = doc.settings;
        assert_eq!(s.mode, Some(Mode::Cautious));
        assert_eq!(s.on_error, Some(OnError::Ask));
        assert_eq!(s.auto_approve_up_to, Some(Risk::Medium));
        assert_eq!(s.cron_mode, Some(Unattended::Approve));
        assert_eq!(s.single_query_mode, Some(Unattended::Approve));
        assert_eq!(s.unattended_mode, Some(Unattended::Approve));
        assert_eq!(
            s.exempt_categories,
            vec!["recursive delete", "git force push"]
        );
        assert_eq!(s.approvals_off, None);
        assert!(doc.rules.is_empty());
    }

    #[test]
    fn unset_settings_stay_unset() {
        let s = warden("rules: {}\n").unwrap().settings;
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn bad_setting_values_name_the_key_and_line() {
        let (line, message) = err(warden("# c\nmode: off\n"));
        assert_eq!(line, Some(2));
        assert!(
            message.contains("mode") && message.contains("off"),
            "{message}"
        );
        let (line, _) = err(warden("on_error: maybe\n"));
        assert_eq!(line, Some(1));
        assert!(err(warden("auto_approve_up_to: extreme\n"))
            .1
            .contains("extreme"));
    }

    #[test]
    fn unknown_keys_are_errors_naming_key_and_line() {
        for (text, line, key) in [
            ("mode: plan\n\nrulez:\n  deny: []\n", 3, "`rulez`"),
            (
                "rules:\n  deny:\n    - tool: read_file\n      descripton: typo\n",
                4,
                "`descripton`",
            ),
            ("rules:\n  allow: []\n  block: []\n", 3, "`block`"),
            (
                "rules:\n  deny:\n    - regex: x\n      examples: {hits: [a], mises: [b]}\n",
                4,
                "`mises`",
            ),
        ] {
            let (got, message) = err(warden(text));
            assert_eq!(got, Some(line), "{message}");
            assert!(message.contains(key), "{message}");
        }
    }

    #[test]
    fn string_entries_in_each_section() {
        let doc = warden(
            "rules:\n  deny:\n    - terminal(rm -rf *)\n    - Read(~/.ssh/**)\n  \
             ask:\n    - terminal(git push:*)\n  allow:\n    - read_file\n    - terminal(npm test)\n",
        )
        .unwrap();
        let got: Vec<(&str, Decision, Option<u32>)> = doc
            .rules
            .iter()
            .map(|r| (r.id.as_str(), r.decision, r.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("config.deny-1", Decision::Block, Some(3)),
                ("config.deny-2", Decision::Block, Some(4)),
                ("config.ask-1", Decision::Ask, Some(6)),
                ("config.allow-1", Decision::Allow, Some(8)),
                ("config.allow-2", Decision::Allow, Some(9)),
            ]
        );
        assert_eq!(doc.rules[0].target, Target::CommandGlob("rm -rf *".into()));
        assert_eq!(doc.rules[1].target, Target::PathGlob("~/.ssh/**".into()));
        assert_eq!(doc.rules[2].target, Target::Prefix("git push".into()));
        assert_eq!(doc.rules[3].tool, ToolSel::Name("read_file".into()));
        assert_eq!(doc.rules[4].target, Target::Exact("npm test".into()));
        for rule in &doc.rules {
            assert_eq!(rule.base.as_deref(), Some("/p"));
            assert_eq!(rule.source, 0);
            assert_eq!(rule.priority, 50);
            assert!(!rule.dangerous && !rule.whole_command && !rule.protected);
            assert_eq!(rule.scope, None);
        }
    }

    #[test]
    fn bad_spec_string_is_an_error_with_its_line() {
        let (line, message) = err(warden(
            "rules:\n  ask:\n    - ok_tool\n    - terminal(git\n",
        ));
        assert_eq!(line, Some(4));
        assert!(message.contains("terminal(git"), "{message}");
    }

    #[test]
    fn mapping_entry_with_every_field() {
        let text = "\
rules:
  deny:
    - id: no-prod-push
      tool: terminal
      pattern: git push * prod
      scope: /srv/app
      decision: deny
      priority: 90
      description: never push to prod
      suggest: push to staging and let CI promote it
      protected: true
      ignore_case: true
      examples:
        hits: [git push origin prod]
        misses: [git push origin dev]
";
        let rule = warden(text).unwrap().rules.remove(0);
        assert_eq!(rule.id, "no-prod-push");
        assert_eq!(rule.line, Some(3));
        assert_eq!(rule.tool, ToolSel::Shell);
        assert_eq!(rule.target, Target::CommandGlob("git push * prod".into()));
        assert_eq!(rule.scope.as_deref(), Some("/srv/app"));
        assert_eq!(rule.decision, Decision::Block);
        assert_eq!(rule.priority, 90);
        assert_eq!(rule.description, "never push to prod");
        assert_eq!(
            rule.suggest.as_deref(),
            Some("push to staging and let CI promote it")
        );
        assert!(rule.protected && rule.case_insensitive);
        assert_eq!(rule.hits, vec!["git push origin prod"]);
        assert_eq!(rule.misses, vec!["git push origin dev"]);
    }

    #[test]
    fn mapping_defaults() {
        let rule = warden("rules:\n  ask:\n    - pattern: \"npm:*\"\n")
            .unwrap()
            .rules
            .remove(0);
        assert_eq!(rule.id, "config.ask-1");
        assert_eq!(rule.tool, ToolSel::Shell);
        assert_eq!(rule.target, Target::Prefix("npm".into()));
        assert_eq!(rule.priority, DEFAULT_PRIORITY);
        assert_eq!(rule.scope, None);
        assert!(rule.description.is_empty() && !rule.protected && !rule.case_insensitive);
        assert!(rule.hits.is_empty() && rule.misses.is_empty() && rule.suggest.is_none());
    }

    #[test]
    fn pattern_glob_regex_and_tool_forms() {
        let text = "\
rules:
  allow:
    - {tool: write_file, pattern: src/**}
    - {tool: Bash, glob: cargo *}
    - {tool: write_file, glob: docs/*.md}
    - {regex: '^make( |$)'}
    - {tool: 'terminal(git:*)'}
    - {tool: mcp__github__*}
    - {tool: '*', scope: everywhere}
";
        let rules = warden(text).unwrap().rules;
        let got: Vec<(ToolSel, Target)> = rules
            .iter()
            .map(|r| (r.tool.clone(), r.target.clone()))
            .collect();
        let name = |n: &str| ToolSel::Name(n.into());
        assert_eq!(
            got,
            vec![
                (name("write_file"), Target::PathGlob("src/**".into())),
                (ToolSel::Shell, Target::CommandGlob("cargo *".into())),
                (name("write_file"), Target::PathGlob("docs/*.md".into())),
                (ToolSel::Shell, Target::Regex("^make( |$)".into())),
                (ToolSel::Shell, Target::Prefix("git".into())),
                (name("mcp__github__*"), Target::Any),
                (ToolSel::Any, Target::Any),
            ]
        );
        assert_eq!(rules[6].scope, None);
        // Flow entries written one per line keep their own lines.
        assert_eq!(rules[0].line, Some(3));
        assert_eq!(rules[6].line, Some(9));
    }

    #[test]
    fn entry_errors_carry_the_entry_line() {
        let cases = [
            ("    - {glob: a, regex: b}\n", "at most one"),
            ("    - {regex: '(unclosed'}\n", "regex"),
            ("    - {description: no tool}\n", "needs `tool`"),
            ("    - {tool: 'terminal(git:*)', pattern: x}\n", "specifier"),
            ("    - {tool: terminal, pattern: ''}\n", "empty"),
            (
                "    - {tool: x, decision: allow}\n",
                "`decision: allow` in the `deny` section",
            ),
            ("    - {tool: x, id: ' '}\n", "empty `id`"),
            ("    - {tool: x, decision: maybe}\n", "maybe"),
            ("    - {tool: x, priority: high}\n", "priority"),
            ("    - {tool: x, suggest: ''}\n", "empty `suggest`"),
            ("    - {tool: x, suggest: '  '}\n", "empty `suggest`"),
            ("    - {tool: x, suggest: [a, b]}\n", "invalid type"),
            (
                "    - {tool: x, decision: allow, suggest: y}\n",
                "`decision: allow` in the `deny` section",
            ),
            ("    - 42\n", "invalid type"),
        ];
        for (entry, needle) in cases {
            let text = format!("mode: plan\nrules:\n  deny:\n    - terminal\n{entry}");
            let (line, message) = err(warden(&text));
            assert_eq!(line, Some(5), "{entry}: {message}");
            assert!(message.contains(needle), "{entry}: {message}");
        }
    }

    #[test]
    fn deny_and_block_agree_with_the_deny_section() {
        let rules = warden(
            "rules:\n  deny:\n    - {tool: x, decision: block}\n    - {tool: y, decision: deny}\n",
        )
        .unwrap()
        .rules;
        assert!(rules.iter().all(|r| r.decision == Decision::Block));
    }

    #[test]
    fn plain_list_form_needs_decisions_and_numbers_per_decision() {
        let text = "\
rules:
  - {tool: read_file, decision: allow}
  - {tool: 'terminal(rm:*)', decision: deny}
  - {tool: write_file, decision: block}
  - {tool: terminal, decision: ask}
  - {tool: edit, decision: allow, id: mine}
";
        let rules = warden(text).unwrap().rules;
        let ids: Vec<&str> = rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            vec![
                "config.allow-1",
                "config.deny-1",
                "config.deny-2",
                "config.ask-1",
                "mine"
            ]
        );
        assert_eq!(rules[2].line, Some(4));
        let (line, message) = err(warden("rules:\n  - {tool: read_file}\n"));
        assert_eq!(line, Some(2));
        assert!(message.contains("decision"), "{message}");
        let (line, message) = err(warden("rules:\n  - read_file\n"));
        assert_eq!(line, Some(2));
        assert!(message.contains("decision"), "{message}");
    }

    #[test]
    fn an_allow_rule_has_no_safer_way_to_suggest() {
        let (line, message) = err(warden(
            "rules:\n  allow:\n    - terminal\n    - {tool: x, suggest: y}\n",
        ));
        assert_eq!(line, Some(4));
        assert!(
            message.contains("`suggest` is for deny and ask"),
            "{message}"
        );
        let rules = warden("rules:\n  - {tool: x, decision: ask, suggest: ' y '}\n")
            .unwrap()
            .rules;
        assert_eq!(rules[0].suggest.as_deref(), Some("y"));
    }

    #[test]
    fn duplicate_ids_are_errors() {
        let text = "rules:\n  deny:\n    - {tool: a, id: x}\n  allow:\n    - {tool: b, id: x}\n";
        let (line, message) = err(warden(text));
        assert_eq!(line, Some(5));
        assert!(message.contains("`x`"), "{message}");
        // A chosen id may not take a generated one either.
        let text = "rules:\n  deny:\n    - a\n    - {tool: b, id: config.deny-1}\n";
        assert!(err(warden(text)).1.contains("config.deny-1"));
    }

    #[test]
    fn duplicate_section_is_an_error() {
        let (_, message) = err(warden("rules:\n  deny: [a]\n  deny: [b]\n"));
        assert!(message.contains("deny"), "{message}");
    }

    #[test]
    fn sections_may_be_empty_or_null() {
        let doc = warden("rules:\n  deny:\n  ask: []\n  allow: ~\n").unwrap();
        assert!(doc.rules.is_empty());
        let (_, message) = err(warden("rules:\n  deny: 5\n"));
        assert!(message.contains("list"), "{message}");
    }

    #[test]
    fn warden_files_refuse_hermes_only_keys() {
        let (line, message) = err(warden("tool_mode: plan\n"));
        assert_eq!(line, Some(1));
        assert!(message.contains("`tool_mode`"), "{message}");
        assert!(err(warden("approvals:\n  rules: {}\n"))
            .1
            .contains("`approvals`"));
    }

    #[test]
    fn permissions_ids_and_tool_mode() {
        let doc =
            perms("tool_mode: supervised\nrules:\n  allow: [\"terminal(git:*)\", read_file]\n")
                .unwrap();
        assert_eq!(doc.settings.mode, Some(Mode::Supervised));
        let ids: Vec<&str> = doc.rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, vec!["permissions.allow-1", "permissions.allow-2"]);
        assert_eq!(doc.rules[1].line, Some(3));
        assert_eq!(doc.rules[0].base, None);
    }

    #[test]
    fn permissions_wrapped_in_approvals() {
        let text = "\
approvals:
  tool_mode: plan
  rules:
    deny:
      - write_file(/etc/**)
    ask:
      - terminal
";
        let doc = perms(text).unwrap();
        assert_eq!(doc.settings.mode, Some(Mode::Plan));
        let got: Vec<(&str, Option<u32>)> =
            doc.rules.iter().map(|r| (r.id.as_str(), r.line)).collect();
        assert_eq!(
            got,
            vec![
                ("permissions.deny-1", Some(5)),
                ("permissions.ask-1", Some(7))
            ]
        );
    }

    #[test]
    fn permissions_refuse_the_same_setting_twice() {
        let (line, message) = err(perms("mode: plan\ntool_mode: cautious\n"));
        assert_eq!(line, Some(2));
        assert!(message.contains("tool_mode"), "{message}");
        let (line, message) = err(perms("rules: {}\napprovals:\n  rules: {}\n"));
        assert_eq!(line, Some(3));
        assert!(message.contains("`rules`"), "{message}");
        assert!(err(perms("mode: plan\napprovals:\n  tool_mode: plan\n"))
            .1
            .contains("mode"));
    }

    #[test]
    fn nested_type_errors_do_not_name_rust_types() {
        let (line, message) = err(perms("# x\napprovals: 5\n"));
        assert_eq!(line, Some(2));
        assert!(message.ends_with("expected a mapping"), "{message}");
        let (_, message) = err(warden("rules:\n  deny:\n    - {regex: a, examples: [x]}\n"));
        assert!(message.ends_with("expected a mapping"), "{message}");
    }

    #[test]
    fn permissions_unknown_keys_under_approvals_are_errors() {
        // `approvals.mode` is Hermes' yolo switch, not a tool mode.
        let (line, message) = err(perms("approvals:\n  rules: {}\n  mode: off\n"));
        assert_eq!(line, Some(3));
        assert!(message.contains("`mode`"), "{message}");
    }

    #[test]
    fn yaml_syntax_errors_have_lines() {
        let (line, message) = err(warden("mode: plan\nrules:\n  deny: [a\n"));
        // The problem's position moves into `line`; libyaml's context
        // (where the list began) stays in the sentence.
        assert_eq!(line, Some(4), "{message}");
        assert!(!message.contains("line 4"), "{message}");
        assert!(message.contains("flow sequence at line 3"), "{message}");
    }

    #[test]
    fn crlf_files_get_lines_too() {
        let rules = warden("rules:\r\n  deny:\r\n    - a\r\n    - b\r\n")
            .unwrap()
            .rules;
        assert_eq!(rules[1].line, Some(4));
    }
}
