//! The compiled policy (every user rule, merged settings, the literal index) and matching a tool call against it.
//!
//! This is what the cache stores. Matching is built so that its cost depends
//! on the rules a call could hit, not on how many rules there are: every rule
//! with a literal it needs is indexed by the rarest four bytes of that
//! literal (see `table`), and only rules whose literal occurs in the call
//! are decoded, compiled and run.

use std::fmt;
use std::sync::Arc;

use bincode::Options as _;
use serde::{Deserialize, Serialize};

use crate::config::cache::Tail;
pub(crate) use crate::config::haystack::haystack;
use crate::config::haystack::{bare_programs, write_words, Lines};
use crate::config::model::{RuleSpec, Settings, SourceInfo, Target, Tier, ToolSel};
use crate::config::pattern::{self, GlobKind};
use crate::config::table::{Record, RuleTable, Store};
use crate::payload::{ToolCall, ToolKind};
use crate::shell::{Analysis, Command};
use crate::verdict::Decision;

/// Every user rule from every source, ready for the engine.
///
/// The rules stay encoded in a [`RuleTable`] and are decoded only when a
/// call could match them: loading the cache then costs a few allocations
/// however many rules there are.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub sources: Vec<SourceInfo>,
    /// Settings merged across sources (the strongest tier that sets a value wins).
    pub settings: Settings,
    /// What is wrong with the policy (a broken file, a rule whose examples
    /// misbehave, a protected rule kept by the ledger); told on every call.
    pub problems: Vec<String>,
    /// A source could not be used, so `on_error` applies.
    pub broken: bool,
    table: RuleTable,
    /// For a policy read from the cache: where a fresh one comes from when
    /// a rule's bytes fail their check.
    recovery: Option<Arc<dyn Recompile>>,
}

/// What the cache keeps of a policy besides its rules (bincode).
#[derive(Serialize, Deserialize)]
struct Meta {
    sources: Vec<SourceInfo>,
    settings: Settings,
    problems: Vec<String>,
    broken: bool,
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

impl Policy {
    /// Encodes `rules` and builds their index. Sources, settings and
    /// problems are the loader's to fill.
    pub(crate) fn new(
        sources: Vec<SourceInfo>,
        settings: Settings,
        rules: Vec<RuleSpec>,
    ) -> Policy {
        Policy {
            sources,
            settings,
            problems: Vec::new(),
            broken: false,
            table: RuleTable::build(&rules),
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

    /// The cache's form, in two parts: the head (read whole and
    /// checksummed: the length of the bincode-encoded sources, settings and
    /// problems, them, then the rule index's directory), and the tail (the
    /// index's body and the rule records, read a block or a record at a
    /// time, each checked against its own sum: see `table`).
    pub(crate) fn to_parts(&self) -> Option<(Vec<u8>, &[u8])> {
        let (index, tail) = self.table.parts()?;
        let meta = bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .serialize(&Meta {
                sources: self.sources.clone(),
                settings: self.settings.clone(),
                problems: self.problems.clone(),
                broken: self.broken,
            })
            .ok()?;
        let mut head = Vec::with_capacity(8 + meta.len() + index.len());
        head.extend_from_slice(&(meta.len() as u64).to_le_bytes());
        head.extend_from_slice(&meta);
        head.extend_from_slice(index);
        Some((head, tail))
    }

    /// A policy whose rules stay in the cache file until they are needed.
    pub(crate) fn from_entry(entry: crate::config::cache::Entry) -> Option<Policy> {
        let meta_len =
            usize::try_from(u64::from_le_bytes(entry.head.get(..8)?.try_into().ok()?)).ok()?;
        let base = meta_len.checked_add(8)?;
        let meta: Meta = bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .with_limit(meta_len as u64)
            .deserialize(entry.head.get(8..base)?)
            .ok()?;
        let store = match entry.tail {
            Tail::Memory(tail) => Store::Memory(tail),
            #[cfg(unix)]
            Tail::File {
                file,
                offset,
                len,
                print,
            } => Store::File {
                file: Arc::new(file),
                offset,
                len,
                print,
            },
            #[cfg(not(unix))]
            Tail::File {
                mut file,
                offset,
                len,
                print,
            } => {
                use std::io::{Read, Seek, SeekFrom};
                file.seek(SeekFrom::Start(offset)).ok()?;
                let mut tail = Vec::new();
                (&mut file).take(len).read_to_end(&mut tail).ok()?;
                if !file.metadata().is_ok_and(|m| print.is_of(&m)) {
                    return None;
                }
                Store::Memory(tail)
            }
        };
        Some(Policy {
            sources: meta.sources,
            settings: meta.settings,
            problems: meta.problems,
            broken: meta.broken,
            table: RuleTable::from_parts(entry.head, base, store)?,
            recovery: None,
        })
    }

    /// Keeps the rules' records in memory, up to 4 MiB of them, for a
    /// process that judges many calls with this policy (see
    /// [`RuleTable::hold_records`]).
    pub(crate) fn hold_rules(&mut self) {
        #[cfg(unix)]
        self.table.hold_records(4 << 20);
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        self.table.len()
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
        self.table.record(n)?.rule()
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
        if !self.table.unchanged() {
            if let Some(fresh) = self.recompile() {
                return fresh.rules();
            }
        }
        rules
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

    /// Whether a rule's source may only tighten the guard: its allow rules
    /// do not apply, and its deny and ask rules never outrank another.
    pub fn tightens_only(&self, rule: &RuleSpec) -> bool {
        self.source_of(rule)
            .is_some_and(|s| !s.standing.is_trusted())
    }

    /// Whether a rule may match a call whose [`haystack`] is `haystack`:
    /// false only when [`Policy::matches`] would find nothing, as no rule's
    /// literal occurs in it.
    pub(crate) fn may_match(&self, haystack: &str) -> bool {
        if let Some(fresh) = self.recompiled() {
            return fresh.may_match(haystack);
        }
        if self.is_empty() {
            return false;
        }
        // An index block or a record that cannot be read is left to
        // `matches`, which recompiles.
        let Some(candidates) = self.table.candidates(haystack.as_bytes()) else {
            return true;
        };
        let may = candidates.iter().any(|&n| {
            !self
                .table
                .record(n as usize)
                .is_some_and(|record| ruled_out(&record, haystack))
        });
        // An index or a record read from a cache file changed since it was
        // vouched for might have ruled a rule out: `matches` recompiles.
        may || (self.table.read_from_file() && !self.table.unchanged())
    }

    /// Every rule that matches `call`, with the parts of it each one matched.
    pub fn matches(&self, call: &Subjects) -> Vec<RuleMatch> {
        if let Some(fresh) = self.recompiled() {
            return fresh.matches(call);
        }
        if self.is_empty() {
            return Vec::new();
        }
        let haystack = call.haystack();
        let mut found = Vec::new();
        let Some(candidates) = self.table.candidates(haystack.as_bytes()) else {
            return self
                .recompile()
                .map_or_else(Vec::new, |fresh| fresh.matches(call));
        };
        for &n in &candidates {
            let record = self.table.record(n as usize);
            if record.as_ref().is_some_and(|r| ruled_out(r, &haystack)) {
                continue;
            }
            let readable = record.filter(|r| std::str::from_utf8(r.literal()).is_ok());
            let Some(rule) = readable.and_then(|r| r.rule()) else {
                match self.recompile() {
                    Some(fresh) => return fresh.matches(call),
                    None => continue,
                }
            };
            if let Some(m) = match_rule(rule, n, call) {
                found.push(m);
            }
        }
        // An index or records read from a cache file changed since it was
        // vouched for decide nothing: the policy is compiled afresh.
        if self.table.read_from_file() && !self.table.unchanged() {
            if let Some(fresh) = self.recompile() {
                return fresh.matches(call);
            }
        }
        found
    }
}

/// Whether a rule's record says it cannot match a call whose haystack is
/// `haystack`: its literal is not in it. A literal that is not text rules
/// nothing out (the rule is read, fails, and the policy recompiles).
fn ruled_out(record: &Record<'_>, haystack: &str) -> bool {
    std::str::from_utf8(record.literal())
        .is_ok_and(|literal| !literal.is_empty() && !haystack.contains(literal))
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
    /// Where an earlier `cd` (or the tool's `workdir`) moved the command,
    /// as the analysis left it; `None`: the session's directory.
    pub cwd: Option<String>,
}

// Hermes' test for "too compound for the allowlist": newlines, `&&`, `||`,
// any of `; & | < >` and backticks, and `$(`.
fn has_shell_operator(text: &str) -> bool {
    text.contains(['\n', ';', '&', '|', '<', '>', '`']) || text.contains("$(")
}

impl Segment {
    fn of(cmd: &Command) -> Segment {
        let bare = bare_programs(cmd)
            .map(|program| {
                let mut line = String::new();
                write_words(&mut line, program, &cmd.args);
                line
            })
            .collect();
        Segment {
            full: cmd.display(),
            bare,
            cwd: cmd.cwd.clone(),
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
        let cwd = call.session_dir(home);
        let mut subjects = Subjects {
            tool: call.tool.clone(),
            kind: call.kind,
            path: call
                .path
                .as_deref()
                .map(|p| crate::path::absolute(p, call.tool_dir(home).as_deref(), home)),
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

    /// The directory command `i` of the line runs in, absolute; `None`
    /// where warden cannot follow (a `cd` to an unknown place, or no
    /// session directory to start from).
    pub(crate) fn segment_dir(&self, i: usize) -> Option<String> {
        let Some(dir) = self.segments.get(i).and_then(|s| s.cwd.as_deref()) else {
            return self.cwd.clone();
        };
        if dir.contains('$') {
            return None;
        }
        let dir = crate::path::absolute(dir, self.cwd.as_deref(), self.home.as_deref());
        dir.starts_with('/').then_some(dir)
    }

    pub(crate) fn haystack(&self) -> String {
        let mut lines = Lines::default();
        let files = self.files.iter().map(|f| &f.path);
        for text in self.text.iter().chain(self.path.iter()).chain(files) {
            lines.line(text);
        }
        for segment in &self.segments {
            lines.line(&segment.full);
            for bare in &segment.bare {
                lines.line(bare);
            }
        }
        lines.finish()
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
            if name.contains(['?', '[', '{']) {
                pattern::compile(&pattern::glob_to_regex(&name, GlobKind::Command, true))
                    .is_ok_and(|re| re.is_match(&tool))
            } else {
                star_glob_matches(&name, &tool)
            }
        }
    }
}

/// Whether `text` matches `glob` whose only wildcard is `*` (any run of
/// characters): the common tool selector (`mcp__github__*`) matched on every
/// call without compiling a regex.
fn star_glob_matches(glob: &str, text: &str) -> bool {
    let mut parts = glob.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
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
    let (places, line_in_scope) = scope_places(&rule, loosens, call)?;
    let placed = |i: usize| places.get(i).copied().unwrap_or(line_in_scope);
    let regex = match rule_regex(&rule, call) {
        Ok(regex) => regex,
        // Read when its file loaded, but too large to build: an allow
        // vouches for nothing, and a rule that tightens holds for the
        // whole call rather than silently for none of it.
        Err(_) if loosens => return None,
        Err(_) => {
            let segments = (0..call.segments.len()).filter(|&i| placed(i)).collect();
            return Some(RuleMatch {
                rule: n,
                spec: rule,
                segments,
                whole: line_in_scope,
            });
        }
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
        found.whole = file_tool_hit(&rule.target, loosens, call, &hit);
        return found.whole.then_some(found);
    }
    if shell_files {
        let write = file_tool_access(&rule.tool) == Some(true);
        found.segments = files_hit(write, loosens, call, &hit, &placed);
        found.whole = !loosens && !found.segments.is_empty();
        return (!found.segments.is_empty()).then_some(found);
    }
    if matches!(rule.target, Target::PathGlob(_)) {
        return None;
    }
    let text = call.text.as_deref().unwrap_or("");
    if rule.whole_command {
        found.whole = line_in_scope && call.operator_free && hit(text.trim());
        found.segments = if found.whole {
            (0..call.segments.len()).collect()
        } else {
            Vec::new()
        };
        return found.whole.then_some(found);
    }
    for (i, segment) in call.segments.iter().enumerate() {
        let seen = hit(&segment.full) || (!loosens && segment.bare.iter().any(|b| hit(b)));
        if seen && placed(i) {
            found.segments.push(i);
        }
    }
    if !loosens {
        found.whole = line_in_scope && hit(text);
    }
    (found.whole || !found.segments.is_empty()).then_some(found)
}

/// The regex a rule's target is matched with (`None`: its target needs
/// none), a path glob made absolute against the rule's project; `Err` for
/// one too large to build.
fn rule_regex(rule: &RuleSpec, call: &Subjects) -> Result<Option<regex::Regex>, String> {
    let Some(source) = pattern::regex_source(&rule.target, rule.case_insensitive) else {
        return Ok(None);
    };
    let source = match &rule.target {
        // Relative path globs are relative to the rule's project. Folded
        // like the call's path, so `../shared/**` can match.
        Target::PathGlob(glob) => pattern::glob_to_regex(
            &crate::path::absolute(&resolve_glob(glob, rule.base.as_deref(), call), None, None),
            GlobKind::Path,
            rule.case_insensitive,
        ),
        _ => source,
    };
    pattern::compile(&source).map(Some)
}

/// Whether a rule whose target `hit` tests matches a file tool's call: on
/// the files it touches (all of them, for an allow) or its path.
fn file_tool_hit(
    target: &Target,
    loosens: bool,
    call: &Subjects,
    hit: &dyn Fn(&str) -> bool,
) -> bool {
    match target {
        Target::Any => true,
        // An allow vouches for a call only when it covers every file.
        _ if loosens && !call.files.is_empty() => call.files.iter().all(|f| hit(&f.path)),
        _ if !call.files.is_empty() => call.files.iter().any(|f| hit(&f.path)),
        _ => call.path.as_deref().is_some_and(hit),
    }
}

/// The commands of a line whose files (written, or read) a file tool's
/// path rule matches, where the rule's scope lets it apply.
fn files_hit(
    write: bool,
    loosens: bool,
    call: &Subjects,
    hit: &dyn Fn(&str) -> bool,
    placed: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let touched: Vec<&FileSubject> = call.files.iter().filter(|f| f.write == write).collect();
    let mut segments = Vec::new();
    for f in &touched {
        let Some(i) = f.segment else { continue };
        // An allow covers a command only when it covers all it touches.
        let covered = !loosens
            || touched
                .iter()
                .filter(|g| g.segment == Some(i))
                .all(|g| hit(&g.path));
        if hit(&f.path) && covered && placed(i) && !segments.contains(&i) {
            segments.push(i);
        }
    }
    segments
}

/// Where a rule's `scope` lets it apply to `call`: to each command of a
/// line (none: to the call), and to the line as a whole; `None`: nowhere.
fn scope_places(rule: &RuleSpec, loosens: bool, call: &Subjects) -> Option<(Vec<bool>, bool)> {
    let scope = rule
        .scope
        .as_deref()
        .map(|scope| resolve(scope, rule.base.as_deref(), call));
    // Where the call happens is unknown: a rule that loosens cannot vouch
    // for it, one that tightens still applies.
    let in_scope = |place: Option<&str>| match (&scope, place) {
        (None, _) => true,
        (Some(scope), Some(place)) => under(place, scope),
        (Some(_), None) => !loosens,
    };
    // A command line's commands each run where the line's `cd`s (and the
    // tool's `workdir`) moved them: a loosening rule covers a command that
    // runs in its scope, and the whole line only when all of it does. A
    // tightening one also holds for every command of a session in its
    // scope, wherever a `cd` took it.
    let (places, line) = match (&scope, call.kind) {
        (None, _) => (Vec::new(), true),
        (Some(_), ToolKind::Shell) => {
            let session = !loosens && in_scope(call.cwd.as_deref());
            let places: Vec<bool> = (0..call.segments.len())
                .map(|i| session || in_scope(call.segment_dir(i).as_deref()))
                .collect();
            let line = match places.is_empty() {
                true => in_scope(call.cwd.as_deref()),
                false if loosens => places.iter().all(|&p| p),
                false => places.iter().any(|&p| p),
            };
            (places, line)
        }
        (Some(_), _) => (Vec::new(), in_scope(call.path.as_deref())),
    };
    (line || places.contains(&true)).then_some((places, line))
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
pub(super) fn resolve_glob(glob: &str, base: Option<&str>, call: &Subjects) -> String {
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
pub(super) fn resolve(path: &str, base: Option<&str>, call: &Subjects) -> String {
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

pub(super) fn under(place: &str, prefix: &str) -> bool {
    let prefix = prefix.trim_end_matches('/');
    place == prefix
        || place
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/'))
        || prefix.is_empty()
}

#[cfg(test)]
mod tests;
