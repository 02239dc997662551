//! The compiled policy (every user rule, merged settings, the literal index) and matching a tool call against it.
//!
//! This is what the cache stores. Matching is built so that its cost depends
//! on the rules a call could hit, not on how many rules there are: every rule
//! with a literal it needs is indexed by that literal's first three bytes,
//! and only rules whose literal occurs in the call are compiled and run.

use std::fmt;
use std::sync::Arc;

use bincode::Options as _;
use serde::{Deserialize, Serialize};

use crate::config::model::{RuleSpec, Settings, SourceInfo, Target, Tier, ToolSel};
use crate::config::pattern::{self, GlobKind, MIN_LITERAL};
use crate::payload::{ToolCall, ToolKind};
use crate::shell::{Analysis, Command};
use crate::verdict::Decision;

/// Every user rule from every source, ready for the engine.
///
/// The rules are stored encoded, one after another, and decoded only when a
/// call could match them: loading the cache then costs a few allocations
/// however many rules there are.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Policy {
    pub sources: Vec<SourceInfo>,
    /// Settings merged across sources (the strongest tier that sets a value wins).
    pub settings: Settings,
    /// What is wrong with the policy (a broken file, a rule whose examples
    /// misbehave, a protected rule kept by the ledger); told on every call.
    pub problems: Vec<String>,
    /// A source could not be used, so `on_error` applies.
    pub broken: bool,
    table: Table,
    index: Index,
    /// For a policy read from the cache: where a fresh one comes from when
    /// a rule's bytes fail their check.
    #[serde(skip)]
    recovery: Option<Arc<dyn Recompile>>,
}

/// A way back to a cached policy's sources. When one of its rules fails
/// its check, the policy has the cache entry thrown away, gets itself
/// compiled afresh from the same sources and answers from that, so no
/// caller ever sees a corrupt policy.
pub(crate) trait Recompile: Send + Sync + fmt::Debug {
    /// The freshly compiled policy: compiled on the first call, the same
    /// one on every later call.
    fn fresh(&self) -> &Policy;
    /// The fresh policy, if [`Recompile::fresh`] has been called.
    fn recompiled(&self) -> Option<&Policy>;
}

/// Encoded rules: rule `n` is bytes `offsets[n]..offsets[n + 1]` of the
/// rule bytes, whose checksum's low 32 bits are `sums[n]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Table {
    offsets: Vec<u32>,
    sums: Vec<u32>,
    #[serde(skip)]
    rules: Rules,
}

/// Where the rule bytes are: in memory (just compiled), or still in the
/// cache file, read one rule at a time when a call could match it.
#[derive(Debug, Clone)]
enum Rules {
    Memory(Vec<u8>),
    File {
        file: Arc<std::fs::File>,
        offset: u64,
    },
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::Memory(Vec::new())
    }
}

/// Rule numbers by the first three bytes of the literal each one needs.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Index {
    /// `(key, rule)`, sorted by key.
    keyed: Vec<(u32, u32)>,
    /// Every rule's literal, lowercased, back to back (empty for none):
    /// rule `n`'s is `literals[literal_ends[n - 1]..literal_ends[n]]`.
    literals: String,
    literal_ends: Vec<u32>,
    /// Rules with no usable literal: always candidates.
    always: Vec<u32>,
}

fn key(bytes: &[u8]) -> u32 {
    u32::from(bytes[0]) << 16 | u32::from(bytes[1]) << 8 | u32::from(bytes[2])
}

impl Policy {
    /// Encodes `rules` and builds their index. Sources, settings and
    /// problems are the loader's to fill.
    pub(crate) fn new(
        sources: Vec<SourceInfo>,
        settings: Settings,
        rules: Vec<RuleSpec>,
    ) -> Policy {
        let mut index = Index::default();
        let mut table = Table::default();
        let mut blob = Vec::new();
        table.offsets.push(0);
        for (n, rule) in rules.iter().enumerate() {
            let n = n as u32;
            // Encoding a struct whose every length is known into memory
            // cannot fail; if it ever did, the empty entry would fail to
            // decode and the rule would be skipped, not misread.
            let bytes = bincode::DefaultOptions::new()
                .serialize(rule)
                .unwrap_or_default();
            table.sums.push(checksum32(&bytes));
            blob.extend_from_slice(&bytes);
            table.offsets.push(blob.len() as u32);
            match pattern::required_literal(&rule.target) {
                Some(literal) if literal.len() >= MIN_LITERAL => {
                    index.keyed.push((key(literal.as_bytes()), n));
                    index.literals.push_str(&literal);
                }
                _ => index.always.push(n),
            }
            index.literal_ends.push(index.literals.len() as u32);
        }
        index.keyed.sort_unstable();
        table.rules = Rules::Memory(blob);
        Policy {
            sources,
            settings,
            problems: Vec::new(),
            broken: false,
            table,
            index,
            recovery: None,
        }
    }

    /// This policy, read from the cache, with where a fresh compile comes
    /// from should one of its rules fail its check.
    pub(crate) fn with_recovery(self, recovery: Arc<dyn Recompile>) -> Policy {
        Policy {
            recovery: Some(recovery),
            ..self
        }
    }

    /// The cache's form, in two parts: the policy without its rules (read
    /// whole and checksummed), and the rules' bytes (read one rule at a
    /// time, each checked against its own sum).
    pub(crate) fn to_parts(&self) -> Option<(Vec<u8>, &[u8])> {
        let Rules::Memory(rules) = &self.table.rules else {
            return None;
        };
        let head = bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .serialize(self)
            .ok()?;
        Some((head, rules))
    }

    /// A policy whose rules stay in the cache file until they are needed.
    pub(crate) fn from_entry(entry: crate::config::cache::Entry) -> Option<Policy> {
        let mut policy = Policy::from_head(&entry.head, entry.tail_len)?;
        #[cfg(unix)]
        {
            policy.table.rules = Rules::File {
                file: Arc::new(entry.file),
                offset: entry.tail_offset,
            };
        }
        #[cfg(not(unix))]
        {
            use std::io::{Read, Seek, SeekFrom};
            let mut file = entry.file;
            file.seek(SeekFrom::Start(entry.tail_offset)).ok()?;
            let mut rules = Vec::new();
            file.take(entry.tail_len).read_to_end(&mut rules).ok()?;
            policy.table.rules = Rules::Memory(rules);
        }
        Some(policy)
    }

    fn from_head(head: &[u8], rules_len: u64) -> Option<Policy> {
        let policy: Policy = bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .with_limit(head.len() as u64)
            .deserialize(head)
            .ok()?;
        let offsets = &policy.table.offsets;
        let consistent = offsets
            .last()
            .is_some_and(|&end| u64::from(end) == rules_len)
            && offsets.windows(2).all(|w| w[0] <= w[1])
            && policy.table.sums.len() + 1 == offsets.len()
            && policy.index.literal_ends.len() + 1 == offsets.len();
        consistent.then_some(policy)
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        self.table.offsets.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fresh compile, once a rule of this policy failed its check.
    fn recompiled(&self) -> Option<&Policy> {
        self.recovery.as_deref().and_then(|r| r.recompiled())
    }

    /// Has this policy compiled afresh (a rule failed its check), if it
    /// knows its sources; `None` for a policy compiled in memory, whose
    /// rules cannot rot.
    fn recompile(&self) -> Option<&Policy> {
        self.recovery.as_deref().map(|r| r.fresh())
    }

    /// Rule `n`, decoded; `None` if its bytes cannot be read or fail
    /// their check.
    fn read_rule(&self, n: usize) -> Option<RuleSpec> {
        let start = *self.table.offsets.get(n)? as usize;
        let end = *self.table.offsets.get(n + 1)? as usize;
        let owned;
        let bytes: &[u8] = match &self.table.rules {
            Rules::Memory(rules) => rules.get(start..end)?,
            #[cfg(unix)]
            Rules::File { file, offset } => {
                use std::os::unix::fs::FileExt;
                let mut buf = vec![0u8; end.checked_sub(start)?];
                file.read_exact_at(&mut buf, offset.checked_add(start as u64)?)
                    .ok()?;
                owned = buf;
                &owned
            }
            #[cfg(not(unix))]
            Rules::File { .. } => return None,
        };
        if checksum32(bytes) != *self.table.sums.get(n)? {
            return None;
        }
        bincode::DefaultOptions::new().deserialize(bytes).ok()
    }

    /// Every rule, decoded (for `lint`, `why` and the ledger, not per call).
    pub fn rules(&self) -> Vec<RuleSpec> {
        if let Some(fresh) = self.recompiled() {
            return fresh.rules();
        }
        let mut rules = Vec::with_capacity(self.len());
        for n in 0..self.len() {
            match self.read_rule(n) {
                Some(rule) => rules.push(rule),
                None => {
                    if let Some(fresh) = self.recompile() {
                        return fresh.rules();
                    }
                }
            }
        }
        rules
    }

    fn literal(&self, n: u32) -> &str {
        let n = n as usize;
        let end = self.index.literal_ends.get(n).copied().unwrap_or(0) as usize;
        let start = match n {
            0 => 0,
            _ => self.index.literal_ends.get(n - 1).copied().unwrap_or(0) as usize,
        };
        self.index.literals.get(start..end).unwrap_or("")
    }

    /// The source a rule came from. Rules from a fresh compile name its
    /// sources, which are these unless a file changed in between.
    fn source_of(&self, rule: &RuleSpec) -> Option<&SourceInfo> {
        let sources = self.recompiled().map_or(&self.sources, |f| &f.sources);
        sources.get(rule.source as usize)
    }

    /// Where a rule comes from: `path:line`.
    pub fn origin(&self, rule: &RuleSpec) -> String {
        let path = self
            .source_of(rule)
            .map_or_else(|| "?".to_string(), |s| s.path.clone());
        match rule.line {
            Some(line) => format!("{path}:{line}"),
            None => path,
        }
    }

    /// The tier of a rule's source (rules of unknown origin count as user rules).
    pub fn tier_of(&self, rule: &RuleSpec) -> Tier {
        self.source_of(rule).map_or(Tier::User, |s| s.tier)
    }

    /// Every rule that matches `call`, with the parts of it each one matched.
    pub fn matches(&self, call: &Subjects) -> Vec<RuleMatch> {
        if let Some(fresh) = self.recompiled() {
            return fresh.matches(call);
        }
        let haystack = call.haystack();
        let mut candidates: Vec<u32> = self.index.always.clone();
        let bytes = haystack.as_bytes();
        for window in bytes.windows(MIN_LITERAL) {
            let k = key(window);
            let start = self.index.keyed.partition_point(|&(key, _)| key < k);
            for &(key, rule) in &self.index.keyed[start..] {
                if key != k {
                    break;
                }
                candidates.push(rule);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut found = Vec::new();
        for n in candidates {
            let literal = self.literal(n);
            if !literal.is_empty() && !haystack.contains(literal) {
                continue;
            }
            let Some(rule) = self.read_rule(n as usize) else {
                match self.recompile() {
                    Some(fresh) => return fresh.matches(call),
                    None => continue,
                }
            };
            if let Some(m) = match_rule(rule, n, call) {
                found.push(m);
            }
        }
        found
    }
}

fn checksum32(bytes: &[u8]) -> u32 {
    crate::config::cache::checksum(bytes) as u32
}

/// One rule that matched a call: on which segments, and whether on the
/// whole command text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleMatch {
    pub rule: u32,
    pub spec: RuleSpec,
    /// Indices into [`Subjects::segments`].
    pub segments: Vec<usize>,
    pub whole: bool,
}

/// One command of a command line, in the forms rules are matched against.
#[derive(Debug, Clone, Default)]
pub struct Segment {
    /// As it would be typed: wrappers, environment, program, arguments and
    /// redirections. The only form an allow rule sees, so `sudo git push`
    /// is not allowed by `terminal(git:*)`.
    pub full: String,
    /// Stripped forms (program and arguments without wrappers; the program
    /// by its bare name): deny and ask rules see these too, so wrappers
    /// and paths cannot hide a command from them.
    pub bare: Vec<String>,
}

// Hermes' test for "too compound for the allowlist": newlines, `&&`, `||`,
// any of `; & | < >` and backticks, and `$(`.
fn has_shell_operator(text: &str) -> bool {
    text.contains(['\n', ';', '&', '|', '<', '>', '`']) || text.contains("$(")
}

impl Segment {
    fn of(cmd: &Command) -> Segment {
        let words = |program: &str| {
            let mut line = program.to_string();
            for arg in &cmd.args {
                line.push(' ');
                line.push_str(arg);
            }
            line
        };
        let mut bare = Vec::new();
        if !cmd.path.is_empty() {
            bare.push(words(&cmd.path));
        }
        if cmd.program != cmd.path {
            bare.push(words(&cmd.program));
        }
        Segment {
            full: cmd.display(),
            bare,
        }
    }
}

/// A tool call, as the user rules see it.
#[derive(Debug, Clone, Default)]
pub struct Subjects {
    pub tool: String,
    pub kind: ToolKind,
    /// The whole command line (shell tools).
    pub text: Option<String>,
    /// The command line has no shell operator, so Hermes' allowlist entries
    /// may match it.
    pub operator_free: bool,
    pub segments: Vec<Segment>,
    /// The file the tool works on, absolute and without `.`/`..`.
    pub path: Option<String>,
    /// Every file the call reads or writes, resolved (symlinks followed);
    /// for a command line, with the command that touches it.
    pub files: Vec<FileSubject>,
    pub cwd: Option<String>,
    pub home: Option<String>,
}

/// A file a call touches, as the user's path rules see it.
#[derive(Debug, Clone, Default)]
pub struct FileSubject {
    /// Absolute, folded, symlinks followed.
    pub path: String,
    pub write: bool,
    /// The command of the line that touches it.
    pub segment: Option<usize>,
}

impl Subjects {
    /// The subjects of `call`, with its analysis for shell tools: paths made
    /// absolute against the call's working directory and `home`.
    pub fn of(call: &ToolCall, analysis: Option<&Analysis>, home: Option<&str>) -> Subjects {
        let cwd = call
            .cwd
            .as_deref()
            .map(|c| crate::path::absolute(c, None, home));
        let mut subjects = Subjects {
            tool: call.tool.clone(),
            kind: call.kind,
            path: call
                .path
                .as_deref()
                .map(|p| crate::path::absolute(p, cwd.as_deref(), home)),
            cwd,
            home: home.map(str::to_string),
            ..Subjects::default()
        };
        if let Some(analysis) = analysis {
            let text = analysis.text.trim().to_string();
            subjects.operator_free = !has_shell_operator(&text);
            subjects.text = Some(text);
            subjects.segments = analysis.commands.iter().map(Segment::of).collect();
        }
        subjects
    }

    fn haystack(&self) -> String {
        let mut all = String::new();
        let files = self.files.iter().map(|f| &f.path);
        for text in self.text.iter().chain(self.path.iter()).chain(files) {
            all.push_str(text);
            all.push('\n');
        }
        for segment in &self.segments {
            all.push_str(&segment.full);
            all.push('\n');
            for bare in &segment.bare {
                all.push_str(bare);
                all.push('\n');
            }
        }
        all.to_ascii_lowercase()
    }
}

/// Whether a rule's tool selector names this tool.
pub fn tool_matches(sel: &ToolSel, tool: &str, kind: ToolKind) -> bool {
    match sel {
        ToolSel::Any => true,
        ToolSel::Shell => kind == ToolKind::Shell,
        ToolSel::Name(name) => {
            if crate::config::spec::is_shell_tool(name) {
                return kind == ToolKind::Shell;
            }
            let canonical = |n: &str| -> String {
                let lower = n.to_ascii_lowercase();
                match lower.as_str() {
                    "write" => "write_file".into(),
                    "edit" | "multiedit" => "patch".into(),
                    "read" => "read_file".into(),
                    _ => lower,
                }
            };
            let (name, tool) = (canonical(name), canonical(tool));
            if name.contains(['*', '?', '[']) {
                pattern::compile(&pattern::glob_to_regex(&name, GlobKind::Command, true))
                    .is_ok_and(|re| re.is_match(&tool))
            } else {
                name == tool
            }
        }
    }
}

fn match_rule(rule: RuleSpec, n: u32, call: &Subjects) -> Option<RuleMatch> {
    // A file tool's path rule (`write_file(src/**)`) also judges the files a
    // command line writes (or reads), whatever spelling it uses.
    let shell_files = call.kind == ToolKind::Shell
        && matches!(rule.target, Target::PathGlob(_))
        && file_tool_access(&rule.tool).is_some();
    if !shell_files && !tool_matches(&rule.tool, &call.tool, call.kind) {
        return None;
    }
    let loosens = rule.decision == Decision::Allow && !rule.dangerous;
    if let Some(scope) = &rule.scope {
        let place = if call.kind == ToolKind::Shell {
            call.cwd.as_deref()
        } else {
            call.path.as_deref()
        };
        let scope = resolve(scope, rule.base.as_deref(), call);
        match place {
            Some(place) if under(place, &scope) => {}
            // Where the call happens is unknown: a rule that loosens
            // cannot vouch for it, one that tightens still applies.
            None if !loosens => {}
            _ => return None,
        }
    }
    let regex = match pattern::regex_source(&rule.target, rule.case_insensitive) {
        Some(source) => {
            let source = match (&rule.target, call.kind) {
                // Relative path globs are relative to the rule's project.
                // Folded like the call's path, so `../shared/**` can match.
                (Target::PathGlob(glob), _) => pattern::glob_to_regex(
                    &crate::path::absolute(
                        &resolve_glob(glob, rule.base.as_deref(), call),
                        None,
                        None,
                    ),
                    GlobKind::Path,
                    rule.case_insensitive,
                ),
                _ => source,
            };
            Some(pattern::compile(&source).ok()?)
        }
        None => None,
    };
    let hit = |subject: &str| {
        pattern::matches(&rule.target, rule.case_insensitive, regex.as_ref(), subject)
    };
    let mut found = RuleMatch {
        rule: n,
        spec: rule.clone(),
        segments: Vec::new(),
        whole: false,
    };
    if call.kind != ToolKind::Shell {
        let subject = match &rule.target {
            Target::Any => true,
            // An allow vouches for a call only when it covers every file.
            _ if loosens && !call.files.is_empty() => call.files.iter().all(|f| hit(&f.path)),
            _ if !call.files.is_empty() => call.files.iter().any(|f| hit(&f.path)),
            _ => call.path.as_deref().is_some_and(hit),
        };
        found.whole = subject;
        return subject.then_some(found);
    }
    if shell_files {
        let write = file_tool_access(&rule.tool) == Some(true);
        let touched: Vec<&FileSubject> = call.files.iter().filter(|f| f.write == write).collect();
        for f in &touched {
            let Some(i) = f.segment else { continue };
            // An allow covers a command only when it covers all it touches.
            let covered = !loosens
                || touched
                    .iter()
                    .filter(|g| g.segment == Some(i))
                    .all(|g| hit(&g.path));
            if hit(&f.path) && covered && !found.segments.contains(&i) {
                found.segments.push(i);
            }
        }
        found.whole = !loosens && !found.segments.is_empty();
        return (!found.segments.is_empty()).then_some(found);
    }
    if matches!(rule.target, Target::PathGlob(_)) {
        return None;
    }
    let text = call.text.as_deref().unwrap_or("");
    if rule.whole_command {
        found.whole = call.operator_free && hit(text.trim());
        found.segments = if found.whole {
            (0..call.segments.len()).collect()
        } else {
            Vec::new()
        };
        return found.whole.then_some(found);
    }
    for (i, segment) in call.segments.iter().enumerate() {
        let seen = hit(&segment.full) || (!loosens && segment.bare.iter().any(|b| hit(b)));
        if seen {
            found.segments.push(i);
        }
    }
    if !loosens {
        found.whole = hit(text);
    }
    (found.whole || !found.segments.is_empty()).then_some(found)
}

/// Whether a rule's tool is a file tool that writes (`Some(true)`) or
/// reads (`Some(false)`) the files its path glob names.
fn file_tool_access(sel: &ToolSel) -> Option<bool> {
    let ToolSel::Name(name) = sel else {
        return None;
    };
    match ToolKind::of(name) {
        ToolKind::Write => Some(true),
        ToolKind::Read => Some(false),
        _ => None,
    }
}

/// Makes a path glob absolute. A glob with no `/` in it names files at any
/// depth below the project, as in `.gitignore`: `write_file(*.env)` is
/// every `.env` file of the project, not only those at its top.
fn resolve_glob(glob: &str, base: Option<&str>, call: &Subjects) -> String {
    let plain = glob.strip_prefix("./").unwrap_or(glob);
    if plain.trim_end_matches('/').contains('/') || plain.starts_with('~') {
        return resolve(glob, base, call);
    }
    match base.or(call.cwd.as_deref()) {
        Some(dir) => format!("{}/**/{plain}", dir.trim_end_matches('/')),
        None => format!("**/{plain}"),
    }
}

/// Makes a rule's path (glob or scope) absolute: `~` is the home directory,
/// a relative one is relative to the rule's project (or the call's cwd).
fn resolve(path: &str, base: Option<&str>, call: &Subjects) -> String {
    if let Some(rest) = path.strip_prefix("~/") {
        if let Some(home) = &call.home {
            return format!("{}/{rest}", home.trim_end_matches('/'));
        }
    }
    if path.starts_with('/') || path.starts_with("**") {
        return path.to_string();
    }
    match base.or(call.cwd.as_deref()) {
        Some(dir) => format!(
            "{}/{}",
            dir.trim_end_matches('/'),
            path.trim_start_matches("./")
        ),
        None => path.to_string(),
    }
}

fn under(place: &str, prefix: &str) -> bool {
    let prefix = prefix.trim_end_matches('/');
    place == prefix
        || place
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/'))
        || prefix.is_empty()
}

#[cfg(test)]
mod tests {
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
}
