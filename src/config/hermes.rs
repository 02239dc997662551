//! Hermes' own policy files: the approval keys of `~/.hermes/config.yaml` and the proposed `~/.hermes/trust.json`.
//!
//! `config.yaml` is Hermes' file with many keys warden has no business with,
//! so unknown keys are ignored; the keys warden does read are checked
//! strictly, since a deny list that silently fails to load stops denying.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value as Json;

use super::model::{
    Mode, Risk, RuleSpec, SourceDoc, SourceKind, Target, ToolSel, Unattended, DEFAULT_PRIORITY,
};
use super::spec::{self, build_rules, claim_id, RuleCtx, RulesField};
use super::yaml::{config_error, lines, warning, yaml_error, Loose, MapOnly, Text};
use crate::error::Result;
use crate::verdict::Decision;

/// Reads the approval keys of Hermes' `config.yaml`.
pub(crate) fn parse_config(path: &str, text: &str) -> Result<SourceDoc> {
    let mut out = SourceDoc::default();
    if lines::is_blank(text) {
        return Ok(out);
    }
    let doc: Option<MapOnly<HermesConfig>> =
        serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
    let Some(MapOnly(doc)) = doc else {
        return Ok(out);
    };
    let mut file = ConfigFile {
        path,
        text,
        ids: HashSet::new(),
        out: &mut out,
    };
    if let Some(MapOnly(approvals)) = doc.approvals {
        file.approvals(approvals)?;
    }
    file.allowlist(doc.command_allowlist.unwrap_or_default())?;
    Ok(out)
}

/// A `config.yaml` being read: where it is, and what it has said so far.
struct ConfigFile<'a> {
    path: &'a str,
    text: &'a str,
    /// Every rule id used in the file so far.
    ids: HashSet<String>,
    out: &'a mut SourceDoc,
}

impl ConfigFile<'_> {
    fn warn(&mut self, line: Option<u32>, message: String) {
        self.out.warnings.push(warning(self.path, line, message));
    }

    fn push(&mut self, rule: RuleSpec) -> Result<()> {
        claim_id(self.path, &mut self.ids, &rule.id, rule.line)?;
        self.out.rules.push(rule);
        Ok(())
    }

    /// The `approvals` settings, its `deny` globs and its per-tool `rules`.
    fn approvals(&mut self, approvals: Approvals) -> Result<()> {
        let s = &mut self.out.settings;
        s.approvals_off = approvals.mode.as_ref().map(is_off);
        s.cron_mode = approvals.cron_mode.as_ref().map(unattended);
        s.single_query_mode = approvals.single_query_mode.as_ref().map(unattended);
        s.unattended_mode = approvals.unattended_mode.as_ref().map(unattended);
        s.auto_approve_up_to = approvals.auto_approve_up_to;
        s.mode = approvals.tool_mode;

        let globs = approvals.deny.unwrap_or_default();
        let entry_lines = lines::seq_lines(self.text, &["approvals", "deny"], globs.len());
        for (i, (Text(glob), line)) in globs.into_iter().zip(entry_lines).enumerate() {
            let id = format!("{}.deny-{}", SourceKind::HermesConfig.id_prefix(), i + 1);
            if glob.trim().is_empty() {
                self.warn(
                    line,
                    format!("{id}: empty entry in `approvals.deny` ignored"),
                );
                continue;
            }
            let rule = shell_rule(id, line, Target::CommandGlob(glob), Decision::Block);
            self.push(RuleSpec {
                case_insensitive: true,
                ..rule
            })?;
        }

        if let Some(rules) = approvals.rules {
            let ctx = RuleCtx {
                path: self.path,
                text: self.text,
                keys: &["approvals", "rules"],
                // `hermes.deny-N` already names the `approvals.deny` globs.
                id_prefix: "hermes.rules",
                base: None,
            };
            build_rules(&ctx, rules, &mut self.ids, &mut self.out.rules)?;
        }
        Ok(())
    }

    /// `command_allowlist`: whole-command allow rules, and exemptions.
    fn allowlist(&mut self, allowlist: Vec<Text>) -> Result<()> {
        let entry_lines = lines::seq_lines(self.text, &["command_allowlist"], allowlist.len());
        for (i, (Text(entry), line)) in allowlist.into_iter().zip(entry_lines).enumerate() {
            let id = format!(
                "{}.allowlist-{}",
                SourceKind::HermesConfig.id_prefix(),
                i + 1
            );
            let entry = entry.trim();
            if entry.is_empty() {
                self.warn(
                    line,
                    format!("{id}: empty entry in `command_allowlist` ignored"),
                );
                continue;
            }
            // Hermes lets an entry name a built-in pattern key; the engine
            // uses the entries that equal a category and ignores the rest.
            self.out.settings.exempt_categories.push(entry.to_string());
            let target = if entry.contains(['*', '?', '[']) {
                Target::CommandGlob(entry.to_string())
            } else {
                Target::Exact(entry.to_string())
            };
            let rule = shell_rule(id, line, target, Decision::Allow);
            self.push(RuleSpec {
                whole_command: true,
                ..rule
            })?;
        }
        Ok(())
    }
}

/// Reads Hermes' proposed `trust.json`: a JSON array of trust rules.
pub(crate) fn parse_trust(path: &str, text: &str) -> Result<SourceDoc> {
    let mut out = SourceDoc::default();
    if text.trim().is_empty() {
        return Ok(out);
    }
    let entries: Vec<Json> = serde_json::from_str(text).map_err(|e| {
        let mut message = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        if let Some(pos) = message.find(&suffix) {
            message.replace_range(pos..pos + suffix.len(), "");
        }
        if e.classify() == serde_json::error::Category::Data
            && e.line() == 1
            && message.contains("expected a sequence")
        {
            message = "expected a JSON array of trust rules at the top level".into();
        }
        config_error(
            path,
            u32::try_from(e.line()).ok().filter(|l| *l > 0),
            message,
        )
    })?;
    let entry_lines = json_entry_lines(text, entries.len());
    let mut ids = HashSet::new();
    for (i, (entry, line)) in entries.iter().zip(entry_lines).enumerate() {
        let rule = trust_rule(entry, line)
            .map_err(|m| config_error(path, line, format!("trust rule {}: {m}", i + 1)))?;
        claim_id(path, &mut ids, &rule.id, rule.line)?;
        out.rules.push(rule);
    }
    Ok(out)
}

fn shell_rule(id: String, line: Option<u32>, target: Target, decision: Decision) -> RuleSpec {
    RuleSpec {
        line,
        ..RuleSpec::new(id, ToolSel::Shell, target, decision)
    }
}

fn trust_rule(entry: &Json, line: Option<u32>) -> std::result::Result<RuleSpec, String> {
    let Some(obj) = entry.as_object() else {
        return Err("is not a JSON object".into());
    };
    let text = |key: &str| -> std::result::Result<Option<&str>, String> {
        match obj.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("`{key}` must be a string, not {other}")),
        }
    };
    let id = match obj.get("id") {
        Some(Json::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        Some(Json::Number(n)) => n.to_string(),
        None | Some(Json::Null) => return Err("has no `id`".into()),
        Some(other) => return Err(format!("`id` must be a string or a number, not {other}")),
    };
    let tool = spec::tool_sel(text("tool")?.unwrap_or("*")).map_err(|m| format!("`tool`: {m}"))?;
    let target = match text("pattern")?.unwrap_or("*") {
        "*" => Target::Any,
        "" => return Err("empty `pattern`; write \"*\" for everything".into()),
        p => Target::CommandGlob(p.to_string()),
    };
    let scope = text("scope")?
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "everywhere")
        .map(str::to_string);
    let decision = match text("decision")?.map(str::to_ascii_lowercase).as_deref() {
        Some("allow") => Decision::Allow,
        Some("ask") => Decision::Ask,
        Some("deny" | "block") => Decision::Block,
        Some(other) => {
            return Err(format!(
                "`decision` must be allow, ask or deny, not `{other}`"
            ))
        }
        None => return Err("has no `decision` (allow, ask or deny)".into()),
    };
    let priority = match obj.get("priority") {
        None | Some(Json::Null) => DEFAULT_PRIORITY,
        Some(Json::Number(n)) => n
            .as_i64()
            .and_then(|p| i32::try_from(p).ok())
            .ok_or_else(|| format!("`priority` must be a whole number, not {n}"))?,
        Some(other) => return Err(format!("`priority` must be a number, not {other}")),
    };
    Ok(RuleSpec {
        id: format!("trust.{id}"),
        source: 0,
        line,
        tool,
        target,
        case_insensitive: false,
        whole_command: false,
        scope,
        base: None,
        decision,
        dangerous: false,
        priority,
        description: String::new(),
        suggest: None,
        protected: false,
        hits: Vec::new(),
        misses: Vec::new(),
    })
}

/// The line on which each element of the top-level JSON array starts, or
/// all `None` if the count disagrees with what serde_json read.
fn json_entry_lines(text: &str, count: usize) -> Vec<Option<u32>> {
    let mut found = Vec::new();
    let (mut line, mut depth) = (1u32, 0usize);
    let (mut in_string, mut escaped, mut expecting) = (false, false, false);
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if !c.is_whitespace() {
            if expecting && c != ']' {
                found.push(Some(line));
            }
            expecting = false;
            match c {
                '"' => in_string = true,
                '{' | '[' => {
                    expecting = c == '[' && depth == 0;
                    depth += 1;
                }
                '}' | ']' => depth = depth.saturating_sub(1),
                ',' => expecting = depth == 1,
                _ => {}
            }
        }
        if c == '\n' {
            line = line.saturating_add(1);
        }
    }
    if found.len() == count {
        found
    } else {
        vec![None; count]
    }
}

#[derive(Deserialize)]
struct HermesConfig {
    approvals: Option<MapOnly<Approvals>>,
    command_allowlist: Option<Vec<Text>>,
}

#[derive(Deserialize)]
struct Approvals {
    mode: Option<Loose>,
    cron_mode: Option<Loose>,
    single_query_mode: Option<Loose>,
    unattended_mode: Option<Loose>,
    auto_approve_up_to: Option<Risk>,
    deny: Option<Vec<Text>>,
    rules: Option<RulesField>,
    tool_mode: Option<Mode>,
}

/// `approvals.mode`: `off` is yolo from config. PyYAML turns unquoted `off`
/// and `no` into false, which serde_yaml leaves as strings.
fn is_off(mode: &Loose) -> bool {
    match mode {
        Loose::Bool(b) => !b,
        Loose::Str(s) => ["off", "no"]
            .iter()
            .any(|w| s.trim().eq_ignore_ascii_case(w)),
    }
}

/// `cron_mode` and its newer siblings: approve, or deny by default.
fn unattended(mode: &Loose) -> Unattended {
    let approve = match mode {
        Loose::Bool(b) => *b,
        Loose::Str(s) => ["approve", "off", "allow", "yes", "true"]
            .iter()
            .any(|w| s.trim().eq_ignore_ascii_case(w)),
    };
    if approve {
        Unattended::Approve
    } else {
        Unattended::Deny
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::Settings;
    use crate::error::Error;

    const CONFIG: &str = "/h/.hermes/config.yaml";
    const TRUST: &str = "/h/.hermes/trust.json";

    fn config(text: &str) -> SourceDoc {
        parse_config(CONFIG, text).unwrap()
    }

    fn trust(text: &str) -> SourceDoc {
        parse_trust(TRUST, text).unwrap()
    }

    fn err(result: Result<SourceDoc>) -> (Option<usize>, String) {
        match result {
            Err(Error::Config { line, message, .. }) => (line, message),
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn unrelated_keys_are_ignored() {
        let d = config(
            "model: gpt\ntoolsets: [a, b]\ndisplay:\n  theme: dark\napprovals:\n  timeout: 60\n",
        );
        assert_eq!(d, SourceDoc::default());
        assert_eq!(config(""), SourceDoc::default());
        assert_eq!(config("# just a comment\n"), SourceDoc::default());
        assert_eq!(config("approvals:\n"), SourceDoc::default());
    }

    #[test]
    fn approvals_deny_globs_block_case_insensitively() {
        let d = config("approvals:\n  deny:\n    - 'git push * main'\n    - terraform destroy\n");
        let got: Vec<(&str, &Target, Decision, Option<u32>)> = d
            .rules
            .iter()
            .map(|r| (r.id.as_str(), &r.target, r.decision, r.line))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "hermes.deny-1",
                    &Target::CommandGlob("git push * main".into()),
                    Decision::Block,
                    Some(3)
                ),
                (
                    "hermes.deny-2",
                    &Target::CommandGlob("terraform destroy".into()),
                    Decision::Block,
                    Some(4)
                ),
            ]
        );
        assert!(d
            .rules
            .iter()
            .all(|r| r.case_insensitive && r.tool == ToolSel::Shell && !r.whole_command));
    }

    #[test]
    fn command_allowlist_entries_are_whole_command_allows_and_exemptions() {
        let d = config(
            "command_allowlist:\n  - npm test\n  - 'git log *'\n  - ' recursive delete '\n  - ''\n",
        );
        let got: Vec<(&str, &Target, Option<u32>)> = d
            .rules
            .iter()
            .map(|r| (r.id.as_str(), &r.target, r.line))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "hermes.allowlist-1",
                    &Target::Exact("npm test".into()),
                    Some(2)
                ),
                (
                    "hermes.allowlist-2",
                    &Target::CommandGlob("git log *".into()),
                    Some(3)
                ),
                (
                    "hermes.allowlist-3",
                    &Target::Exact("recursive delete".into()),
                    Some(4)
                ),
            ]
        );
        assert!(d
            .rules
            .iter()
            .all(|r| r.whole_command && r.decision == Decision::Allow && !r.case_insensitive));
        assert_eq!(
            d.settings.exempt_categories,
            vec!["npm test", "git log *", "recursive delete"]
        );
        assert_eq!(d.warnings.len(), 1);
        assert!(
            d.warnings[0].starts_with(&format!("{CONFIG}:5: hermes.allowlist-4")),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn allowlist_glob_characters() {
        for (entry, glob) in [("ls ?", true), ("rm [ab]", true), ("make all", false)] {
            let d = config(&format!("command_allowlist: ['{entry}']\n"));
            assert_eq!(
                matches!(d.rules[0].target, Target::CommandGlob(_)),
                glob,
                "{entry}"
            );
        }
    }

    #[test]
    fn approvals_mode_off_in_every_spelling() {
        for (value, off) in [
            ("off", Some(true)),
            ("'off'", Some(true)),
            ("OFF", Some(true)),
            ("false", Some(true)),
            ("no", Some(true)),
            ("manual", Some(false)),
            ("smart", Some(false)),
            ("true", Some(false)),
            ("~", None),
        ] {
            let d = config(&format!("approvals:\n  mode: {value}\n"));
            assert_eq!(d.settings.approvals_off, off, "mode: {value}");
        }
    }

    #[test]
    fn unattended_modes() {
        for (value, expected) in [
            ("approve", Unattended::Approve),
            ("APPROVE", Unattended::Approve),
            ("off", Unattended::Approve),
            ("allow", Unattended::Approve),
            ("yes", Unattended::Approve),
            ("true", Unattended::Approve),
            ("'True'", Unattended::Approve),
            ("deny", Unattended::Deny),
            ("false", Unattended::Deny),
            ("whatever", Unattended::Deny),
            ("1", Unattended::Deny),
        ] {
            let text = format!("approvals:\n  cron_mode: {value}\n  single_query_mode: {value}\n  unattended_mode: {value}\n");
            let s = config(&text).settings;
            assert_eq!(s.cron_mode, Some(expected), "{value}");
            assert_eq!(s.single_query_mode, Some(expected), "{value}");
            assert_eq!(s.unattended_mode, Some(expected), "{value}");
        }
        let s = config("approvals:\n  cron_mode: approve\n").settings;
        assert_eq!(s.single_query_mode, None);
        assert_eq!(s.unattended_mode, None);
    }

    #[test]
    fn auto_approve_up_to_and_tool_mode() {
        let s = config("approvals:\n  auto_approve_up_to: high\n  tool_mode: cautious\n").settings;
        assert_eq!(s.auto_approve_up_to, Some(Risk::High));
        assert_eq!(s.mode, Some(Mode::Cautious));
        assert_eq!(
            config("approvals: {auto_approve_up_to: none}\n")
                .settings
                .auto_approve_up_to,
            Some(Risk::None)
        );
        let (line, message) = err(parse_config(
            CONFIG,
            "x: 1\napprovals:\n  auto_approve_up_to: extreme\n",
        ));
        assert_eq!(line, Some(3));
        assert!(message.contains("extreme"), "{message}");
    }

    #[test]
    fn per_tool_rules_reuse_the_warden_entries() {
        let text = "\
approvals:
  deny:
    - 'rm -rf *'
  rules:
    deny:
      - write_file(/etc/**)
    ask:
      - {tool: terminal, pattern: 'git push:*', priority: 70}
    allow:
      - read_file
";
        let d = config(text);
        let got: Vec<(&str, Option<u32>)> =
            d.rules.iter().map(|r| (r.id.as_str(), r.line)).collect();
        assert_eq!(
            got,
            vec![
                ("hermes.deny-1", Some(3)),
                ("hermes.rules.deny-1", Some(6)),
                ("hermes.rules.ask-1", Some(8)),
                ("hermes.rules.allow-1", Some(10)),
            ]
        );
        assert_eq!(d.rules[2].target, Target::Prefix("git push".into()));
        assert_eq!(d.rules[2].priority, 70);
        assert!(!d.rules[1].case_insensitive);
    }

    #[test]
    fn per_tool_rule_entries_stay_strict() {
        let text = "approvals:\n  rules:\n    deny:\n      - {tool: x, patern: y}\n";
        let (line, message) = err(parse_config(CONFIG, text));
        assert_eq!(line, Some(4));
        assert!(message.contains("`patern`"), "{message}");
    }

    #[test]
    fn wrong_types_are_errors_with_lines() {
        let cases = [
            (
                "approvals:\n  deny:\n    - ok\n    - 5\n",
                Some(4),
                "string",
            ),
            ("approvals: 5\n", Some(1), "mapping"),
            ("approvals: [a]\n", Some(1), "mapping"),
            ("approvals:\n  deny: 'rm *'\n", Some(2), "sequence"),
            ("command_allowlist:\n  - [a]\n", Some(2), "string"),
            ("command_allowlist: {a: b}\n", Some(1), "sequence"),
            ("approvals:\n  mode: [off]\n", Some(2), "word or a boolean"),
            ("- a\n", Some(1), "mapping"),
        ];
        for (text, line, needle) in cases {
            let (got, message) = err(parse_config(CONFIG, text));
            assert_eq!(got, line, "{text:?}: {message}");
            assert!(message.contains(needle), "{text:?}: {message}");
        }
    }

    #[test]
    fn trust_rules() {
        let text = r#"[
  {"id": "git-ro", "tool": "terminal", "pattern": "git status*", "decision": "allow"},
  {"id": 7, "tool": "write_file", "pattern": "/etc/*", "scope": "/srv", "decision": "deny", "priority": 90},
  {"id": "all", "decision": "ask", "note": "unknown fields are fine"},
  {"id": "mcp", "tool": "mcp__github__*", "scope": "everywhere", "decision": "ALLOW"}
]"#;
        let rules = trust(text).rules;
        let got: Vec<String> = rules
            .iter()
            .map(|r| {
                let (tool, target, scope) = (&r.tool, &r.target, &r.scope);
                let (decision, priority, line) = (r.decision, r.priority, r.line);
                format!(
                    "{} {tool:?} {target:?} {decision:?} {priority} {scope:?} {line:?}",
                    r.id
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                r#"trust.git-ro Shell CommandGlob("git status*") Allow 50 None Some(2)"#,
                r#"trust.7 Name("write_file") CommandGlob("/etc/*") Block 90 Some("/srv") Some(3)"#,
                "trust.all Any Any Ask 50 None Some(4)",
                r#"trust.mcp Name("mcp__github__*") Any Allow 50 None Some(5)"#,
            ]
        );
        assert!(rules
            .iter()
            .all(|r| !r.case_insensitive && !r.whole_command && !r.dangerous));
    }

    #[test]
    fn trust_empty_and_not_an_array() {
        assert_eq!(trust(""), SourceDoc::default());
        assert_eq!(trust("[]"), SourceDoc::default());
        let (line, message) = err(parse_trust(TRUST, "{\"id\": 1}"));
        assert_eq!(line, Some(1));
        assert!(message.contains("JSON array"), "{message}");
    }

    #[test]
    fn trust_malformed_json_has_a_line() {
        let (line, message) = err(parse_trust(
            TRUST,
            "[\n  {\"id\": 1,\n   \"decision\": \"allow\"\n  \n",
        ));
        assert_eq!(line, Some(5), "{message}");
        assert!(!message.contains(" at line "), "{message}");
        let (line, _) = err(parse_trust(
            TRUST,
            "[\n  {\"id\": 1 \"decision\": \"allow\"}\n]",
        ));
        assert_eq!(line, Some(2));
    }

    #[test]
    fn trust_entry_errors_name_the_entry_and_line() {
        let cases = [
            (r#"{"decision": "allow"}"#, "no `id`"),
            (r#"{"id": "a"}"#, "no `decision`"),
            (r#"{"id": "a", "decision": "maybe"}"#, "maybe"),
            (
                r#"{"id": "a", "decision": "allow", "priority": "high"}"#,
                "priority",
            ),
            (
                r#"{"id": "a", "decision": "allow", "priority": 1.5}"#,
                "priority",
            ),
            (r#"{"id": "a", "decision": "allow", "tool": 3}"#, "`tool`"),
            (
                r#"{"id": "a", "decision": "allow", "pattern": ""}"#,
                "pattern",
            ),
            (r#"{"id": true, "decision": "allow"}"#, "`id`"),
            (r#""text""#, "object"),
        ];
        for (entry, needle) in cases {
            let text = format!("[\n  {{\"id\": \"ok\", \"decision\": \"allow\"}},\n  {entry}\n]");
            let (line, message) = err(parse_trust(TRUST, &text));
            assert_eq!(line, Some(3), "{entry}: {message}");
            assert!(
                message.contains("trust rule 2") && message.contains(needle),
                "{entry}: {message}"
            );
        }
    }

    #[test]
    fn trust_duplicate_ids_are_errors() {
        let (line, message) = err(parse_trust(
            TRUST,
            "[{\"id\": 1, \"decision\": \"ask\"},\n {\"id\": \"1\", \"decision\": \"ask\"}]",
        ));
        assert_eq!(line, Some(2));
        assert!(message.contains("trust.1"), "{message}");
    }

    #[test]
    fn json_lines_ignore_braces_in_strings() {
        let text = "[\n {\"id\": \"{[\\\"\", \"decision\": \"ask\"},\n {\"id\": \"b\", \"decision\": \"ask\", \"x\": {\"y\": [{}]}}\n]";
        let lines: Vec<Option<u32>> = trust(text).rules.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![Some(2), Some(3)]);
    }

    #[test]
    fn settings_default_when_absent() {
        assert_eq!(
            config("approvals:\n  deny: []\n").settings,
            Settings::default()
        );
    }
}
