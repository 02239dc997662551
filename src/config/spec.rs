//! How one user rule is written: the per-tool syntax (`terminal(git:*)`, `write_file(src/**)`, `read_file`, `*`), the rule mapping and `rules:` sections of the YAML formats, and numbering their rules.
//!
//! The mapping reader is shared by warden's files, `.hermes/permissions.yaml`
//! and Hermes' `approvals.rules`; it checks each entry while serde_yaml still
//! knows where it is, so a bad entry is reported with its own line.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::model::{RuleSpec, Target, ToolSel, DEFAULT_PRIORITY};
use super::yaml::{config_error, lines, ListSeed};
use crate::verdict::Decision;

/// Whether `name` is one of the agents' shell tools (compared without case).
pub(crate) fn is_shell_tool(name: &str) -> bool {
    crate::payload::ToolKind::of(name) == crate::payload::ToolKind::Shell
}

/// Reads one rule in the per-tool syntax. The error is a sentence for a
/// person; callers add the file and line.
pub(crate) fn parse_spec(text: &str) -> Result<(ToolSel, Target), String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("empty rule: name a tool, e.g. `terminal(git:*)` or `read_file`".into());
    }
    let Some(open) = text.find('(') else {
        if text.contains(')') {
            return Err(format!("`{text}` has a `)` without a matching `(`"));
        }
        return Ok((tool_sel(text)?, Target::Any));
    };
    let (name, rest) = text.split_at(open);
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{text}` names no tool before `(`"));
    }
    // `rest` starts with the `(` found above.
    let inner_and_tail = rest.get(1..).unwrap_or_default();
    let Some(close) = inner_and_tail.find(')') else {
        return Err(format!("`{text}` has a `(` without a matching `)`"));
    };
    let (inner, tail) = inner_and_tail.split_at(close);
    if inner.contains('(') {
        return Err(format!(
            "`{text}` has nested parentheses; a specifier cannot contain `(` or `)`"
        ));
    }
    // `tail` starts with the `)` found above.
    let after = tail.get(1..).unwrap_or_default();
    if after.contains(')') {
        return Err(format!(
            "`{text}` has nested parentheses; a specifier cannot contain `(` or `)`"
        ));
    }
    if !after.trim().is_empty() {
        return Err(format!(
            "`{text}` has text after the closing `)`: `{}`",
            after.trim()
        ));
    }
    let tool = tool_sel(name)?;
    let target = target_for(&tool, inner)?;
    Ok((tool, target))
}

/// The tool selector for a bare tool name or tool glob: `*` is every tool,
/// any shell tool name is the shell, anything else is kept as written.
pub(crate) fn tool_sel(name: &str) -> Result<ToolSel, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("empty tool name".into());
    }
    // A tool name never holds spaces or shell punctuation; such a name is
    // almost always a command written without its tool (`rm -rf /` for
    // `terminal(rm -rf /)`), and would silently never match.
    if let Some(bad) = name
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || "\"'`$;|&<>()\\".contains(*c))
    {
        return Err(format!(
            "`{name}` is not a tool name (it contains {}); a command goes inside \
             a tool's parentheses, e.g. `terminal({name})`",
            describe_char(bad)
        ));
    }
    if name == "*" {
        Ok(ToolSel::Any)
    } else if is_shell_tool(name) {
        Ok(ToolSel::Shell)
    } else {
        Ok(ToolSel::Name(name.to_string()))
    }
}

/// What a specifier means for `tool`: a prefix, an exact command or a
/// command glob for the shell, a path glob for every other tool.
pub(crate) fn target_for(tool: &ToolSel, spec: &str) -> Result<Target, String> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(
            "empty specifier `()`: leave out the parentheses to name the whole tool".into(),
        );
    }
    if *tool != ToolSel::Shell {
        return Ok(Target::PathGlob(spec.to_string()));
    }
    if let Some(prefix) = spec.strip_suffix(":*") {
        let prefix = prefix.trim();
        if prefix.is_empty() {
            return Err("empty prefix before `:*`".into());
        }
        // The prefix is compared word by word as literal text; a wildcard in
        // it would silently match only itself.
        if prefix.contains(['*', '?', '[']) {
            return Err(format!(
                "the prefix `{prefix}:*` holds a wildcard; write a glob such as \
                 `{prefix} *` instead"
            ));
        }
        return Ok(Target::Prefix(prefix.to_string()));
    }
    if spec.contains(['*', '?', '[']) {
        Ok(Target::CommandGlob(spec.to_string()))
    } else {
        Ok(Target::Exact(spec.to_string()))
    }
}

fn describe_char(c: char) -> String {
    if c == ' ' {
        "a space".into()
    } else if c.is_whitespace() || c.is_control() {
        format!("the character U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

/// The three rule sections, in the order a tie resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Section {
    Deny,
    Ask,
    Allow,
}

impl Section {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Section::Deny => "deny",
            Section::Ask => "ask",
            Section::Allow => "allow",
        }
    }

    pub(crate) fn decision(self) -> Decision {
        match self {
            Section::Deny => Decision::Block,
            Section::Ask => Decision::Ask,
            Section::Allow => Decision::Allow,
        }
    }

    pub(crate) fn of(decision: Decision) -> Section {
        match decision {
            Decision::Block => Section::Deny,
            Decision::Ask => Section::Ask,
            Decision::Allow => Section::Allow,
        }
    }
}

/// A `rules:` value: sections `{deny, ask, allow}`, or one plain list whose
/// entries each carry a `decision` (then `section` is `None`).
pub(crate) struct RulesField(pub(crate) Vec<Group>);

pub(crate) struct Group {
    pub(crate) section: Option<Section>,
    pub(crate) entries: Vec<RawEntry>,
}

/// One rule entry, checked, still without its id and line.
pub(crate) struct RawEntry {
    pub(crate) id: Option<String>,
    pub(crate) tool: ToolSel,
    pub(crate) target: Target,
    pub(crate) decision: Decision,
    pub(crate) priority: i32,
    pub(crate) scope: Option<String>,
    pub(crate) description: String,
    pub(crate) suggest: Option<String>,
    pub(crate) protected: bool,
    pub(crate) case_insensitive: bool,
    pub(crate) hits: Vec<String>,
    pub(crate) misses: Vec<String>,
}

impl<'de> Deserialize<'de> for RulesField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(RulesVisitor)
    }
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = RulesField;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("`deny`, `ask` and `allow` lists, or a list of rules each with a `decision`")
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<RulesField, E> {
        Ok(RulesField(Vec::new()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<RulesField, A::Error> {
        let mut groups: Vec<Group> = Vec::new();
        while let Some(section) = map.next_key::<Section>()? {
            if groups.iter().any(|g| g.section == Some(section)) {
                return Err(de::Error::custom(format!(
                    "section `{}` appears twice",
                    section.name()
                )));
            }
            let entries = map.next_value_seed(section_seed(Some(section)))?;
            groups.push(Group {
                section: Some(section),
                entries,
            });
        }
        Ok(RulesField(groups))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<RulesField, A::Error> {
        let entries = section_seed(None).visit_seq(seq)?;
        Ok(RulesField(vec![Group {
            section: None,
            entries,
        }]))
    }
}

/// The entries of one section (or of a plain list, with no section).
fn section_seed(section: Option<Section>) -> ListSeed<impl FnMut(usize) -> EntrySeed> {
    ListSeed {
        expecting: "a list of rules".to_string(),
        element: move |_| EntrySeed(section),
    }
}

/// One entry; the section it sits in, if any, is what its decision must be.
struct EntrySeed(Option<Section>);

impl<'de> DeserializeSeed<'de> for EntrySeed {
    type Value = RawEntry;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<RawEntry, D::Error> {
        // deserialize_any, so that an error raised while checking the entry
        // carries the entry's own line.
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EntrySeed {
    type Value = RawEntry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a rule: a string such as `terminal(git:*)`, or a mapping with `tool`")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> std::result::Result<RawEntry, E> {
        let Some(section) = self.0 else {
            return Err(E::custom(format!(
                "`{text}`: in a plain `rules:` list every rule is a mapping with a \
                 `decision`; or put it under `deny:`, `ask:` or `allow:`"
            )));
        };
        let (tool, target) = parse_spec(text).map_err(E::custom)?;
        Ok(RawEntry {
            id: None,
            tool,
            target,
            decision: section.decision(),
            priority: DEFAULT_PRIORITY,
            scope: None,
            description: String::new(),
            suggest: None,
            protected: false,
            case_insensitive: false,
            hits: Vec::new(),
            misses: Vec::new(),
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<RawEntry, A::Error> {
        let raw = EntryMap::deserialize(de::value::MapAccessDeserializer::new(map))?;
        raw.check(self.0).map_err(de::Error::custom)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryMap {
    id: Option<String>,
    tool: Option<String>,
    pattern: Option<String>,
    glob: Option<String>,
    regex: Option<String>,
    scope: Option<String>,
    decision: Option<DecisionWord>,
    priority: Option<i32>,
    description: Option<String>,
    suggest: Option<String>,
    #[serde(default)]
    protected: bool,
    #[serde(default)]
    ignore_case: bool,
    examples: Option<Examples>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Examples {
    #[serde(default)]
    hits: Vec<String>,
    #[serde(default)]
    misses: Vec<String>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum DecisionWord {
    Allow,
    Ask,
    Deny,
    Block,
}

impl EntryMap {
    fn check(self, section: Option<Section>) -> std::result::Result<RawEntry, String> {
        let decision = match (self.decision, section) {
            (None, Some(section)) => section.decision(),
            (None, None) => {
                return Err("every rule in a plain `rules:` list needs a `decision` \
                            (allow, ask or deny)"
                    .into())
            }
            (Some(word), section) => {
                let decision = match word {
                    DecisionWord::Allow => Decision::Allow,
                    DecisionWord::Ask => Decision::Ask,
                    DecisionWord::Deny | DecisionWord::Block => Decision::Block,
                };
                if let Some(section) = section.filter(|s| s.decision() != decision) {
                    return Err(format!(
                        "`decision: {}` in the `{}` section; move the rule or drop the decision",
                        decision_word(word),
                        section.name()
                    ));
                }
                decision
            }
        };
        let (tool, target) = self.tool_and_target()?;
        let id = match self.id {
            Some(id) if id.trim().is_empty() => return Err("empty `id`".into()),
            id => id.map(|i| i.trim().to_string()),
        };
        let scope = self
            .scope
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s != "everywhere");
        let suggest = match self.suggest.map(|s| s.trim().to_string()) {
            Some(s) if s.is_empty() => {
                return Err("empty `suggest`: say the safer way, or leave the key out".into())
            }
            Some(_) if decision == Decision::Allow => {
                return Err("`suggest` is for deny and ask rules: an allow rule lets \
                            the call run"
                    .into())
            }
            suggest => suggest,
        };
        let examples = self.examples.unwrap_or_default();
        Ok(RawEntry {
            id,
            tool,
            target,
            decision,
            priority: self.priority.unwrap_or(DEFAULT_PRIORITY),
            scope,
            description: self.description.unwrap_or_default(),
            suggest,
            protected: self.protected,
            case_insensitive: self.ignore_case,
            hits: examples.hits,
            misses: examples.misses,
        })
    }

    fn tool_and_target(&self) -> std::result::Result<(ToolSel, Target), String> {
        let given: Vec<&str> = [
            ("pattern", &self.pattern),
            ("glob", &self.glob),
            ("regex", &self.regex),
        ]
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| *k)
        .collect();
        if given.len() > 1 {
            return Err(format!(
                "give at most one of `pattern`, `glob` and `regex` (this rule has `{}`)",
                given.join("`, `")
            ));
        }
        let Some(&kind) = given.first() else {
            let Some(tool) = &self.tool else {
                return Err(
                    "a rule needs `tool` (or `pattern`, `glob` or `regex` for a shell command)"
                        .into(),
                );
            };
            return parse_spec(tool);
        };
        let tool = match &self.tool {
            None => ToolSel::Shell,
            Some(t) if t.contains('(') => {
                return Err(format!(
                    "`tool: {t}` already holds a specifier; with `{kind}` name only the tool"
                ))
            }
            Some(t) => tool_sel(t)?,
        };
        let text = match kind {
            "pattern" => self.pattern.as_deref(),
            "glob" => self.glob.as_deref(),
            _ => self.regex.as_deref(),
        }
        .unwrap_or_default();
        if text.trim().is_empty() {
            return Err(format!("empty `{kind}`"));
        }
        let target = match kind {
            "pattern" => target_for(&tool, text)?,
            "glob" if tool == ToolSel::Shell => Target::CommandGlob(text.trim().to_string()),
            "glob" => Target::PathGlob(text.trim().to_string()),
            _ => {
                crate::config::pattern::check(text).map_err(|e| format!("invalid `regex`: {e}"))?;
                Target::Regex(text.to_string())
            }
        };
        Ok((tool, target))
    }
}

fn decision_word(word: DecisionWord) -> &'static str {
    match word {
        DecisionWord::Allow => "allow",
        DecisionWord::Ask => "ask",
        DecisionWord::Deny => "deny",
        DecisionWord::Block => "block",
    }
}

/// Where the rules of one file are being read, for lines and ids.
pub(crate) struct RuleCtx<'a> {
    pub(crate) path: &'a str,
    pub(crate) text: &'a str,
    /// The keys leading to the `rules` value (`["approvals", "rules"]`).
    pub(crate) keys: &'a [&'a str],
    /// Generated ids are `<id_prefix>.<section>-<n>`.
    pub(crate) id_prefix: &'a str,
    pub(crate) base: Option<&'a str>,
}

/// Turns a `rules:` value into rules, numbering entries without an `id`
/// per section from 1 in file order. `ids` holds every id already used in
/// the file: an id used twice is an error, as the ledger and `warden why`
/// name rules by id.
pub(crate) fn build_rules(
    ctx: &RuleCtx<'_>,
    field: RulesField,
    ids: &mut HashSet<String>,
    out: &mut Vec<RuleSpec>,
) -> crate::error::Result<()> {
    let mut counters = [0usize; 3];
    for group in field.0 {
        let mut keys = ctx.keys.to_vec();
        if let Some(section) = group.section {
            keys.push(section.name());
        }
        let entry_lines = lines::seq_lines(ctx.text, &keys, group.entries.len());
        for (entry, line) in group.entries.into_iter().zip(entry_lines) {
            let section = group.section.unwrap_or(Section::of(entry.decision));
            let counter = &mut counters[section as usize];
            *counter += 1;
            let id = match entry.id {
                Some(id) => id,
                None => format!("{}.{}-{}", ctx.id_prefix, section.name(), counter),
            };
            claim_id(ctx.path, ids, &id, line)?;
            out.push(RuleSpec {
                id,
                source: 0,
                line,
                tool: entry.tool,
                target: entry.target,
                case_insensitive: entry.case_insensitive,
                whole_command: false,
                scope: entry.scope,
                base: ctx.base.map(str::to_string),
                decision: entry.decision,
                dangerous: false,
                priority: entry.priority,
                description: entry.description,
                suggest: entry.suggest,
                protected: entry.protected,
                hits: entry.hits,
                misses: entry.misses,
            });
        }
    }
    Ok(())
}

/// Records `id` as used in the file at `path`; an id used twice is an
/// error at the second one's line.
pub(crate) fn claim_id(
    path: &str,
    ids: &mut HashSet<String>,
    id: &str,
    line: Option<u32>,
) -> crate::error::Result<()> {
    if ids.insert(id.to_string()) {
        return Ok(());
    }
    Err(config_error(
        path,
        line,
        format!("rule id `{id}` is used twice in this file; ids must be unique"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> (ToolSel, Target) {
        parse_spec(text).unwrap()
    }

    #[test]
    fn shell_names_without_parens_are_the_whole_shell() {
        for name in [
            "terminal",
            "Bash",
            "bash",
            "shell",
            "SHELL",
            "local_shell",
            "exec_command",
            "run_shell_command",
        ] {
            assert_eq!(ok(name), (ToolSel::Shell, Target::Any), "{name}");
        }
        assert!(is_shell_tool("Terminal"));
        assert!(!is_shell_tool("read_file"));
        assert!(!is_shell_tool("bash2"));
    }

    #[test]
    fn star_is_every_tool() {
        assert_eq!(ok("*"), (ToolSel::Any, Target::Any));
        assert_eq!(ok("  *  "), (ToolSel::Any, Target::Any));
    }

    #[test]
    fn other_names_and_tool_globs_are_kept_as_written() {
        assert_eq!(
            ok("read_file"),
            (ToolSel::Name("read_file".into()), Target::Any)
        );
        assert_eq!(
            ok("mcp__github__*"),
            (ToolSel::Name("mcp__github__*".into()), Target::Any)
        );
        assert_eq!(ok("Read"), (ToolSel::Name("Read".into()), Target::Any));
    }

    #[test]
    fn shell_prefix() {
        assert_eq!(
            ok("terminal(git:*)"),
            (ToolSel::Shell, Target::Prefix("git".into()))
        );
        assert_eq!(
            ok("Bash( npm run test :* )"),
            (ToolSel::Shell, Target::Prefix("npm run test".into()))
        );
    }

    #[test]
    fn shell_exact_and_glob() {
        assert_eq!(
            ok("terminal(npm test)"),
            (ToolSel::Shell, Target::Exact("npm test".into()))
        );
        assert_eq!(
            ok("terminal(git * main)"),
            (ToolSel::Shell, Target::CommandGlob("git * main".into()))
        );
        assert_eq!(
            ok("bash(ls ?)"),
            (ToolSel::Shell, Target::CommandGlob("ls ?".into()))
        );
        assert_eq!(
            ok("bash(rm [ab])"),
            (ToolSel::Shell, Target::CommandGlob("rm [ab]".into()))
        );
    }

    #[test]
    fn other_tools_take_path_globs() {
        assert_eq!(
            ok("write_file(src/**)"),
            (
                ToolSel::Name("write_file".into()),
                Target::PathGlob("src/**".into())
            )
        );
        assert_eq!(
            ok("Read(~/.ssh/**)"),
            (
                ToolSel::Name("Read".into()),
                Target::PathGlob("~/.ssh/**".into())
            )
        );
        // A path with no wildcard is still a path glob, not an exact command.
        assert_eq!(
            ok("read_file(.env)"),
            (
                ToolSel::Name("read_file".into()),
                Target::PathGlob(".env".into())
            )
        );
        assert_eq!(
            ok("*(~/.aws/**)"),
            (ToolSel::Any, Target::PathGlob("~/.aws/**".into()))
        );
    }

    #[test]
    fn malformed_specs_are_errors() {
        for bad in [
            "",
            "   ",
            "terminal()",
            "terminal(  )",
            "terminal(git",
            "terminal)",
            "terminal(echo (x))",
            "terminal(echo $(date))",
            "terminal(a) b",
            "terminal(a))",
            "(git:*)",
            "  (x)",
            "terminal(:*)",
            "terminal( :*)",
        ] {
            assert!(parse_spec(bad).is_err(), "{bad:?} should be an error");
        }
    }

    #[test]
    fn text_after_paren_is_named() {
        let err = parse_spec("terminal(a) extra").unwrap_err();
        assert!(err.contains("extra"), "{err}");
    }

    #[test]
    fn a_command_without_its_tool_is_refused() {
        let err = parse_spec("rm -rf /").unwrap_err();
        assert!(err.contains("terminal(rm -rf /)"), "{err}");
        assert!(parse_spec("git;ls").is_err());
    }

    #[test]
    fn wildcard_in_prefix_is_refused() {
        let err = parse_spec("terminal(git * :*)").unwrap_err();
        assert!(err.contains("glob"), "{err}");
    }

    #[test]
    fn trailing_spaces_inside_and_outside_are_trimmed() {
        assert_eq!(
            ok("  terminal ( npm test )  "),
            (ToolSel::Shell, Target::Exact("npm test".into()))
        );
    }

    #[test]
    fn target_for_other_tool_keeps_colon_star() {
        // `:*` only means a prefix for the shell.
        assert_eq!(
            target_for(&ToolSel::Name("read_file".into()), "a:*").unwrap(),
            Target::PathGlob("a:*".into())
        );
    }
}
