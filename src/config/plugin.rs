//! The Hermes custom-patterns plugin's YAML (`patterns`, `allow_patterns`, `deny_patterns`), read as leniently as the plugin reads it.
//!
//! Users already have these files and the plugin accepts keys it does not
//! know, so warden warns about them instead of refusing the file; only what
//! would change a decision (a wrong type, an invalid regex, an entry with no
//! pattern) is an error.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use super::model::{RuleSpec, SourceDoc, Target, ToolSel, DEFAULT_PRIORITY};
use super::yaml::lines::{self, Step};
use super::yaml::{key_text, warning, yaml_error, Flag, ListSeed, OneOrMany};
use crate::error::Result;
use crate::verdict::Decision;

/// Reads one plugin file. Disabled entries are left out, with a warning.
pub(crate) fn parse(path: &str, text: &str) -> Result<SourceDoc> {
    if lines::is_blank(text) {
        return Ok(SourceDoc::default());
    }
    let doc: Option<PluginDoc> = serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
    let Some(doc) = doc else {
        return Ok(SourceDoc::default());
    };
    let mut out = SourceDoc::default();
    let warn = |line: Option<u32>, message: String| warning(path, line, message);
    for key in &doc.unknown {
        let line = lines::key_line(text, &[Step::Key(key)]);
        out.warnings.push(warn(
            line,
            format!("unknown key `{key}` ignored (the plugin reads `patterns`, `allow_patterns` and `deny_patterns`)"),
        ));
    }
    for (section, entries, repeated) in doc.sections {
        if repeated {
            out.warnings.push(warn(
                None,
                format!(
                    "`{}` appears more than once; the last one is used",
                    section.key()
                ),
            ));
        }
        // A repeated section defeats the line finder, which sees the first.
        let entry_lines = if repeated {
            vec![None; entries.len()]
        } else {
            lines::seq_lines(text, &[section.key()], entries.len())
        };
        for (i, (entry, line)) in entries.into_iter().zip(entry_lines).enumerate() {
            // Numbered among all entries, disabled ones too, so that turning
            // one off does not rename the others (the ledger keys on ids).
            let id = format!("plugin.{}-{}", section.id_word(), i + 1);
            for key in &entry.unknown {
                let steps = [Step::Key(section.key()), Step::Item(i), Step::Key(key)];
                let key_line = lines::key_line(text, &steps).filter(|_| !repeated).or(line);
                out.warnings
                    .push(warn(key_line, format!("{id}: unknown key `{key}` ignored")));
            }
            if !entry.enabled {
                out.warnings.push(warn(
                    line,
                    format!("{id} is disabled (`enabled: false`), so warden skips it"),
                ));
                continue;
            }
            out.rules.push(entry.into_rule(id, line, section));
        }
    }
    Ok(out)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Patterns,
    Allow,
    Deny,
}

impl Section {
    fn key(self) -> &'static str {
        match self {
            Section::Patterns => "patterns",
            Section::Allow => "allow_patterns",
            Section::Deny => "deny_patterns",
        }
    }

    fn id_word(self) -> &'static str {
        match self {
            Section::Patterns => "pattern",
            Section::Allow => "allow",
            Section::Deny => "deny",
        }
    }
}

/// The sections in file order (a repeated one replaces the earlier, as
/// PyYAML does, and is flagged) and the top-level keys no one reads.
struct PluginDoc {
    sections: Vec<(Section, Vec<Entry>, bool)>,
    unknown: Vec<String>,
}

impl<'de> Deserialize<'de> for PluginDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_map(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = PluginDoc;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping with `patterns`, `allow_patterns` or `deny_patterns`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<PluginDoc, A::Error> {
        let mut doc = PluginDoc {
            sections: Vec::new(),
            unknown: Vec::new(),
        };
        while let Some(key) = map.next_key::<serde_yaml::Value>()? {
            let key = key_text(key);
            let section = match key.as_str() {
                "patterns" => Section::Patterns,
                "allow_patterns" => Section::Allow,
                "deny_patterns" => Section::Deny,
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                    doc.unknown.push(key);
                    continue;
                }
            };
            let entries = map.next_value_seed(ListSeed {
                expecting: format!("a list of patterns under `{}`", section.key()),
                element: |i| EntrySeed(section, i),
            })?;
            match doc.sections.iter_mut().find(|(s, _, _)| *s == section) {
                Some(slot) => *slot = (section, entries, true),
                None => doc.sections.push((section, entries, false)),
            }
        }
        Ok(doc)
    }
}

/// One checked entry.
struct Entry {
    target: Target,
    description: String,
    examples: Vec<String>,
    enabled: bool,
    protected: bool,
    unknown: Vec<String>,
}

impl Entry {
    fn into_rule(self, id: String, line: Option<u32>, section: Section) -> RuleSpec {
        let decision = match section {
            Section::Patterns => Decision::Ask,
            Section::Allow => Decision::Allow,
            Section::Deny => Decision::Block,
        };
        RuleSpec {
            id,
            source: 0,
            line,
            tool: ToolSel::Shell,
            target: self.target,
            case_insensitive: true,
            whole_command: false,
            scope: None,
            base: None,
            decision,
            dangerous: section == Section::Patterns,
            priority: DEFAULT_PRIORITY,
            description: self.description,
            suggest: None,
            protected: self.protected,
            hits: self.examples,
            misses: Vec::new(),
        }
    }
}

/// The section and index of the entry, to name it in errors.
struct EntrySeed(Section, usize);

impl EntrySeed {
    fn name(&self) -> String {
        format!("plugin.{}-{}", self.0.id_word(), self.1 + 1)
    }
}

impl<'de> DeserializeSeed<'de> for EntrySeed {
    type Value = Entry;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Entry, D::Error> {
        // Through deserialize_any, so a check failing below is reported at
        // the entry's own line.
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EntrySeed {
    type Value = Entry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a pattern: a regex string, or a mapping with `pattern` or `glob`")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Entry, E> {
        Ok(Entry {
            target: regex_target(v).map_err(|m| E::custom(format!("{}: {m}", self.name())))?,
            description: String::new(),
            examples: Vec::new(),
            enabled: true,
            protected: false,
            unknown: Vec::new(),
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Entry, A::Error> {
        let mut pattern: Option<String> = None;
        let mut glob: Option<String> = None;
        let mut description: Option<String> = None;
        let mut group: Option<String> = None;
        let mut examples = Vec::new();
        let mut enabled = true;
        let mut protected = false;
        let mut unknown = Vec::new();
        while let Some(key) = map.next_key::<serde_yaml::Value>()? {
            let key = key_text(key);
            // A key given twice: the last wins, as in PyYAML.
            match key.as_str() {
                "pattern" => pattern = map.next_value()?,
                "glob" => glob = map.next_value()?,
                "description" => description = map.next_value()?,
                "group" => group = map.next_value()?,
                "examples" => examples = map.next_value::<OneOrMany>()?.0,
                "enabled" => enabled = map.next_value::<Option<Flag>>()?.is_none_or(|f| f.0),
                "protected" => protected = map.next_value::<Option<Flag>>()?.is_some_and(|f| f.0),
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                    unknown.push(key);
                }
            }
        }
        let name = self.name();
        // A disabled entry is never matched, so nothing in it can break the
        // file (the plugin skips it before compiling it, too).
        let checked = if enabled {
            (pattern, glob)
        } else {
            (None, Some("*".into()))
        };
        let target = match checked {
            (Some(_), Some(_)) => {
                return Err(de::Error::custom(format!(
                    "{name}: has both `pattern` and `glob`; keep one"
                )))
            }
            (None, None) => {
                return Err(de::Error::custom(format!(
                    "{name}: has neither `pattern` nor `glob`"
                )))
            }
            (Some(p), None) => {
                regex_target(&p).map_err(|m| de::Error::custom(format!("{name}: {m}")))?
            }
            (None, Some(g)) if g.trim().is_empty() => {
                return Err(de::Error::custom(format!("{name}: empty `glob`")))
            }
            (None, Some(g)) => Target::CommandGlob(g),
        };
        let description = match (group, description) {
            (Some(g), Some(d)) => format!("[{g}] {d}"),
            (Some(g), None) => format!("[{g}]"),
            (None, d) => d.unwrap_or_default(),
        };
        Ok(Entry {
            target,
            description,
            examples,
            enabled,
            protected,
            unknown,
        })
    }
}

/// The plugin's regexes match without case and with `.` crossing newlines.
fn regex_target(pattern: &str) -> std::result::Result<Target, String> {
    if pattern.trim().is_empty() {
        return Err("empty `pattern`".into());
    }
    let full = format!("(?s){pattern}");
    // Read exactly as it will be compiled when a call meets it.
    crate::config::pattern::check(&format!("(?i){full}"))
        .map_err(|e| format!("invalid regex `{pattern}`: {e}"))?;
    Ok(Target::Regex(full))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    const PATH: &str = "/h/.hermes/custom-dangerous-patterns.yaml";

    fn doc(text: &str) -> SourceDoc {
        parse(PATH, text).unwrap()
    }

    fn first(text: &str) -> RuleSpec {
        doc(text).rules.remove(0)
    }

    fn err(text: &str) -> (Option<usize>, String) {
        match parse(PATH, text) {
            Err(Error::Config {
                path,
                line,
                message,
            }) if path == PATH => (line, message),
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    /// Whether some warning starts with `PATH:` and then `start`.
    fn warned(d: &SourceDoc, start: &str) -> bool {
        d.warnings
            .iter()
            .any(|w| w.starts_with(&format!("{PATH}:{start}")))
    }

    const SAMPLE: &str = r"# my patterns
patterns:
  - pattern: 'terraform\s+destroy'
    description: destroys infrastructure
    group: infra
    examples: [terraform destroy -auto-approve]
    protected: true
  - 'kubectl\s+delete'
allow_patterns:
  - glob: 'git status*'
deny_patterns:
  - glob: '**/prod/{db,cache}/**'
    description: prod data
  - pattern: 'drop\s+database'
";

    #[test]
    fn sections_map_to_decisions() {
        let rules = doc(SAMPLE).rules;
        let got: Vec<(&str, Decision, bool, Option<u32>)> = rules
            .iter()
            .map(|r| (r.id.as_str(), r.decision, r.dangerous, r.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("plugin.pattern-1", Decision::Ask, true, Some(3)),
                ("plugin.pattern-2", Decision::Ask, true, Some(8)),
                ("plugin.allow-1", Decision::Allow, false, Some(10)),
                ("plugin.deny-1", Decision::Block, false, Some(12)),
                ("plugin.deny-2", Decision::Block, false, Some(14)),
            ]
        );
        for rule in &rules {
            assert!(rule.tool == ToolSel::Shell && rule.case_insensitive && rule.priority == 50);
            assert!(!rule.whole_command && rule.scope.is_none() && rule.base.is_none());
        }
    }

    #[test]
    fn fields_are_carried_over() {
        let rules = doc(SAMPLE).rules;
        let terraform = Target::Regex(r"(?s)terraform\s+destroy".into());
        assert_eq!(rules[0].target, terraform);
        assert_eq!(rules[0].description, "[infra] destroys infrastructure");
        assert_eq!(rules[0].hits, vec!["terraform destroy -auto-approve"]);
        assert!(rules[0].protected && !rules[1].protected);
        assert_eq!(
            rules[1].target,
            Target::Regex(r"(?s)kubectl\s+delete".into())
        );
        let glob = Target::CommandGlob("**/prod/{db,cache}/**".into());
        assert_eq!(
            (&rules[3].target, rules[3].description.as_str()),
            (&glob, "prod data")
        );
        assert_eq!(
            first("patterns:\n  - {pattern: x, group: misc}\n").description,
            "[misc]"
        );
        // `examples` may be a single command.
        assert_eq!(
            first("patterns:\n  - {pattern: a, examples: a b}\n").hits,
            vec!["a b"]
        );
    }

    #[test]
    fn disabled_entries_are_skipped_with_a_warning_and_keep_numbering() {
        let d = doc("deny_patterns:\n  - pattern: a\n    enabled: false\n  - pattern: b\n  - pattern: c\n    enabled: no\n");
        let ids: Vec<&str> = d.rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, vec!["plugin.deny-2"]);
        assert_eq!(d.warnings.len(), 2, "{:?}", d.warnings);
        assert!(
            warned(&d, "2: plugin.deny-1 is disabled") && warned(&d, "5: plugin.deny-3"),
            "{:?}",
            d.warnings
        );
        // What a disabled entry holds is not checked.
        let d = doc("patterns:\n  - {pattern: '(bad', enabled: false}\n  - {enabled: false}\n");
        assert!(d.rules.is_empty());
        assert_eq!(d.warnings.len(), 2);
    }

    #[test]
    fn enabled_true_and_yaml11_booleans() {
        let text = "patterns:\n  - {pattern: a, enabled: true, protected: yes}\n  - {pattern: b, enabled: On, protected: off}\n";
        let rules = doc(text).rules;
        assert_eq!(rules.len(), 2);
        assert!(rules[0].protected && !rules[1].protected);
        let (line, message) = err("patterns:\n  - {pattern: a, enabled: maybe}\n");
        assert_eq!(line, Some(2));
        assert!(message.contains("maybe"), "{message}");
    }

    #[test]
    fn unknown_keys_warn_with_lines() {
        let d =
            doc("version: 2\npatterns:\n  - pattern: x\n    severity: high\nallow_patterns: []\n");
        assert_eq!(d.rules.len(), 1);
        assert_eq!(d.warnings.len(), 2, "{:?}", d.warnings);
        assert!(warned(&d, "1: unknown key `version`"), "{:?}", d.warnings);
        assert!(
            warned(&d, "4: plugin.pattern-1: unknown key `severity`"),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn wrong_types_are_errors() {
        let (line, message) = err("# x\npatterns: 5\n");
        assert_eq!(line, Some(2));
        assert!(message.contains("list of patterns"), "{message}");
        assert!(err("deny_patterns:\n  - [a]\n").1.contains("invalid type"));
        assert_eq!(err("patterns:\n  - {pattern: [a]}\n").0, Some(2));
        assert!(err("- a\n").1.contains("mapping"));
        assert_eq!(
            err("patterns:\n  - {pattern: a, examples: {a: b}}\n").0,
            Some(2)
        );
    }

    #[test]
    fn entry_errors_name_the_entry_and_line() {
        for (text, line, needles) in [
            (
                "patterns:\n  - a\n  - pattern: '(oops'\n",
                3,
                ["plugin.pattern-2", "invalid regex"],
            ),
            (
                "allow_patterns:\n  - {pattern: a, glob: b}\n",
                2,
                ["plugin.allow-1", "both"],
            ),
            (
                "deny_patterns:\n  - {description: nothing}\n",
                2,
                ["plugin.deny-1", "neither"],
            ),
            ("patterns:\n  - ''\n", 2, ["plugin.pattern-1", "empty"]),
            (
                "patterns:\n  - {glob: ' '}\n",
                2,
                ["plugin.pattern-1", "empty"],
            ),
            // Python-only syntax (look-around) is not accepted.
            (
                "deny_patterns:\n  - pattern: 'rm(?!\\s+-i)'\n",
                2,
                ["plugin.deny-1", "invalid regex"],
            ),
        ] {
            let (got, message) = err(text);
            assert_eq!(got, Some(line), "{message}");
            assert!(needles.iter().all(|n| message.contains(n)), "{message}");
        }
    }

    #[test]
    fn regex_is_case_insensitive_and_dot_all() {
        let Target::Regex(re) = first("patterns:\n  - 'a.b'\n").target else {
            panic!("not a regex");
        };
        let compiled = regex::RegexBuilder::new(&re)
            .case_insensitive(true)
            .build()
            .unwrap();
        assert!(compiled.is_match("A\nB"));
    }

    #[test]
    fn empty_files_and_sections() {
        for text in ["", "# nothing\n", "patterns:\nallow_patterns: []\n", "~\n"] {
            assert_eq!(doc(text), SourceDoc::default(), "{text:?}");
        }
    }

    #[test]
    fn repeated_keys_take_the_last_and_warn() {
        let d = doc("patterns: [a]\npatterns: [b, c]\n");
        assert_eq!(d.rules.len(), 2);
        assert_eq!(
            (&d.rules[0].target, d.rules[0].line),
            (&Target::Regex("(?s)b".into()), None)
        );
        assert_eq!(d.warnings.len(), 1);
        let rule = first("patterns:\n  - {pattern: a, pattern: b}\n");
        assert_eq!(rule.target, Target::Regex("(?s)b".into()));
    }
}
