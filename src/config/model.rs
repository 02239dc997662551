//! The data every policy source is read into, and the compiled policy that the cache stores.
//!
//! Each source format (warden's YAML, `.hermes/permissions.yaml`, the
//! custom-patterns plugin, Hermes' `config.yaml`, `trust.json`) is parsed into
//! one [`SourceDoc`]; the loader numbers the sources, merges their settings by
//! tier and keeps every rule, so a verdict can always name the file it came from.

use serde::{Deserialize, Serialize};

use crate::verdict::Decision;

/// Where a source sits in the layering. Later variants are stronger: a
/// managed rule beats everything below it, and a scalar setting (mode,
/// `on_error`) is taken from the strongest tier that sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// `WARDEN_CONFIG` and `HERMES_YOLO_MODE`.
    Environment,
    /// `~/.config/warden/config.yaml` and Hermes' own files in `~/.hermes/`.
    User,
    /// `.warden.yaml` and `.hermes/permissions.yaml` above the working directory.
    Project,
    /// `/etc/warden/`: an administrator's policy.
    Managed,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Environment => "environment",
            Tier::User => "user",
            Tier::Project => "project",
            Tier::Managed => "managed",
        }
    }
}

/// Which format a source file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// warden's own YAML (`config.yaml`, `.warden.yaml`, `/etc/warden/*.yaml`).
    Warden,
    /// `.hermes/permissions.yaml`: the per-tool rules proposal.
    Permissions,
    /// The custom-patterns plugin's YAML.
    Plugin,
    /// Hermes' `config.yaml` (`approvals.*`, `command_allowlist`).
    HermesConfig,
    /// Hermes' proposed `trust.json`.
    Trust,
}

impl SourceKind {
    /// The prefix of generated rule ids from this kind of source.
    pub(crate) fn id_prefix(self) -> &'static str {
        match self {
            SourceKind::Warden => "config",
            SourceKind::Permissions => "permissions",
            SourceKind::Plugin => "plugin",
            SourceKind::HermesConfig => "hermes",
            SourceKind::Trust => "trust",
        }
    }
}

/// The tools a rule applies to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToolSel {
    /// Every tool (`*`, or the plugin's and Hermes' command rules, which are
    /// about shell commands: those use [`ToolSel::Shell`]).
    Any,
    /// Every tool that runs a shell command line (`terminal`, `Bash`, ...).
    Shell,
    /// A tool name or a glob over tool names (`read_file`, `mcp__github__*`),
    /// compared case-insensitively; `terminal` and `Bash` name the same tool,
    /// as do `write_file`/`Write`, `patch`/`Edit`, `read_file`/`Read`.
    Name(String),
}

/// What a rule looks for inside the tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// The whole tool, whatever its input (`read_file`).
    Any,
    /// `terminal(git:*)`: the command's words are `git` or start with `git `.
    Prefix(String),
    /// `terminal(npm test)`: the command is exactly this.
    Exact(String),
    /// `terminal(git * main)`, Hermes' globs: fnmatch-style, `*` matches any
    /// run of characters (spaces and slashes included), `?` one, `[...]` a class.
    CommandGlob(String),
    /// A regular expression searched for in the command (the plugin's `pattern`).
    Regex(String),
    /// `write_file(src/**)`: a glob over the tool's path, where `*` stays
    /// inside one path component, `**` crosses them and `{a,b}` alternates.
    /// Relative globs are relative to [`RuleSpec::base`].
    PathGlob(String),
}

/// One user rule, as written in some source, ready to be matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSpec {
    /// Stable within its source: the entry's own `id` when it has one, else
    /// `<kind prefix>.<section>-<n>` (`plugin.deny-2`, `config.allow-1`), n from 1
    /// in file order.
    pub id: String,
    /// Index of the source in [`Policy::sources`]; the parsers leave it 0 and
    /// the loader fills it in.
    pub source: u32,
    /// 1-based line of the entry in its file, when the format gives one.
    pub line: Option<u32>,
    pub tool: ToolSel,
    pub target: Target,
    /// Match letters regardless of case (the plugin's regexes and globs,
    /// Hermes' `approvals.deny`).
    pub case_insensitive: bool,
    /// Hermes' `command_allowlist` semantics: match the whole command text
    /// only, and never a command that contains a shell operator.
    pub whole_command: bool,
    /// Only where the path (file tools) or the working directory (shell) is
    /// under this prefix; `None` is "everywhere".
    pub scope: Option<String>,
    /// The directory relative path globs and scopes are resolved against
    /// (the directory holding a project file); `None` means the call's cwd.
    pub base: Option<String>,
    /// What the rule decides when it wins.
    pub decision: Decision,
    /// The plugin's `patterns`: not a competing user rule but an addition to
    /// the built-in dangerous layer (asks; an allow or yolo lifts it).
    pub dangerous: bool,
    /// Highest wins; default 50.
    pub priority: i32,
    pub description: String,
    /// A safer way to reach the same goal, shown with the verdict (`suggest:`
    /// in the YAML; deny and ask rules only).
    #[serde(default)]
    pub suggest: Option<String>,
    /// Keep enforcing this rule from the ledger if it disappears or changes,
    /// until the user runs `warden bless`.
    pub protected: bool,
    /// Commands (or paths) the rule must match, checked at load.
    pub hits: Vec<String>,
    /// Commands (or paths) the rule must not match, checked at load.
    pub misses: Vec<String>,
}

impl RuleSpec {
    /// The rule in the syntax a user would write it in: `terminal(git:*)`.
    pub fn describe(&self) -> String {
        let tool = match &self.tool {
            ToolSel::Any => "*".to_string(),
            ToolSel::Shell => "terminal".to_string(),
            ToolSel::Name(name) => name.clone(),
        };
        let inner = match &self.target {
            Target::Any => return tool,
            Target::Prefix(p) => format!("{p}:*"),
            Target::Exact(t) => t.clone(),
            Target::CommandGlob(g) | Target::PathGlob(g) => g.clone(),
            Target::Regex(r) => format!("/{}/", r.strip_prefix("(?s)").unwrap_or(r)),
        };
        format!("{tool}({inner})")
    }

    /// A rule with every optional field at its default: priority 50, no
    /// scope, no examples, not protected, matched case-sensitively.
    pub(crate) fn new(
        id: impl Into<String>,
        tool: ToolSel,
        target: Target,
        decision: Decision,
    ) -> RuleSpec {
        RuleSpec {
            id: id.into(),
            source: 0,
            line: None,
            tool,
            target,
            case_insensitive: false,
            whole_command: false,
            scope: None,
            base: None,
            decision,
            dangerous: false,
            priority: DEFAULT_PRIORITY,
            description: String::new(),
            suggest: None,
            protected: false,
            hits: Vec::new(),
            misses: Vec::new(),
        }
    }
}

/// The default priority of a rule that names none.
pub(crate) const DEFAULT_PRIORITY: i32 = 50;

/// How tools that no rule names are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Allow.
    Autonomous,
    /// Ask for file writes and unknown tools.
    Cautious,
    /// Ask for everything an allow rule does not allow.
    Supervised,
    /// Only read-only tools run; everything else is blocked.
    Plan,
}

impl Mode {
    /// Whether this mode decides every call at least as strictly as
    /// `other` (block over ask over allow), as the engine's fallback
    /// applies them: supervised asks where plan lets a read run, and plan
    /// blocks where supervised asks, so neither is stricter than the other.
    pub fn at_least_as_strict_as(self, other: Mode) -> bool {
        use Mode::*;
        matches!(
            (self, other),
            (_, Autonomous) | (Supervised | Plan, Cautious)
        ) || self == other
    }
}

/// What to do when a policy source cannot be read or is invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnError {
    /// Block every call until the source is fixed (the default: a broken deny
    /// rule must not silently stop denying).
    Block,
    /// Ask for every call that would otherwise be allowed.
    Ask,
    /// Decide without the broken source.
    Allow,
}

/// What an ask becomes when no human is there to answer it (Hermes'
/// `cron_mode`, `single_query_mode`, `unattended_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unattended {
    Approve,
    Deny,
}

/// The trust engine's risk classes, in increasing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    None,
    /// Read-only tools, shell commands no rule flags.
    Low,
    /// File writes, unknown tools.
    Medium,
    /// Shell commands a dangerous rule flags.
    High,
}

/// Scalar settings. `None` is "this source does not say", so a weaker
/// source's value can show through.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub mode: Option<Mode>,
    pub on_error: Option<OnError>,
    /// Hermes' `approvals.mode: off` (yolo from config).
    pub approvals_off: Option<bool>,
    pub cron_mode: Option<Unattended>,
    pub single_query_mode: Option<Unattended>,
    pub unattended_mode: Option<Unattended>,
    pub auto_approve_up_to: Option<Risk>,
    /// `command_allowlist` entries that name a built-in category (Hermes'
    /// pattern keys, which are warden rules' descriptions): those built-in
    /// dangerous rules no longer ask.
    pub exempt_categories: Vec<String>,
    /// `audit:` in warden's own config (user, managed or `WARDEN_CONFIG`
    /// only: a project must not choose where a person's commands are written).
    pub audit: Option<AuditSettings>,
    /// Modes set by tighten-only sources: each decides a call no rule named
    /// only where it is stricter than `mode` (see `config::standing`).
    pub tightening_modes: Vec<Mode>,
}

/// Where decisions are logged, and how much of the log is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditSettings {
    /// The log file as written, made absolute against the config file's
    /// directory; `~/` is expanded when it is used. `None`: the default,
    /// `audit.jsonl` in warden's state directory.
    pub path: Option<String>,
    /// The log is rotated before a line would take it past this size.
    pub max_bytes: u64,
    /// Rotated files kept (`audit.jsonl.1` … `.N`); 0 keeps none.
    pub keep: u32,
    /// The JSONL file is written (`file: false` leaves only syslog).
    pub file: bool,
    /// Each decision is also sent to the system log.
    pub syslog: Option<SyslogSettings>,
}

/// Where decisions are sent to the system log, and as which facility.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyslogSettings {
    /// An absolute path: the local syslog daemon's datagram socket.
    pub socket: String,
    /// The facility's number (RFC 5424), from [`SyslogSettings::FACILITIES`].
    pub facility: u8,
}

impl SyslogSettings {
    pub(crate) const DEFAULT_SOCKET: &'static str = "/dev/log";
    /// `authpriv`: a decision is an authorization decision and names what a
    /// person ran; syslog daemons route this facility to the log only root
    /// reads (`auth.log` on Debian, `secure` on Red Hat) and keep it out of
    /// the general one.
    pub(crate) const DEFAULT_FACILITY: u8 = 10;
    /// The facilities a program may log as, by name. `kern` is the
    /// kernel's; the rest of RFC 5424's numbers have no common name.
    pub const FACILITIES: &'static [(&'static str, u8)] = &[
        ("user", 1),
        ("mail", 2),
        ("daemon", 3),
        ("auth", 4),
        ("syslog", 5),
        ("lpr", 6),
        ("news", 7),
        ("uucp", 8),
        ("cron", 9),
        ("authpriv", 10),
        ("ftp", 11),
        ("local0", 16),
        ("local1", 17),
        ("local2", 18),
        ("local3", 19),
        ("local4", 20),
        ("local5", 21),
        ("local6", 22),
        ("local7", 23),
    ];
}

impl AuditSettings {
    pub(crate) const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;
    pub(crate) const MIN_MAX_BYTES: u64 = 4096;
    pub(crate) const DEFAULT_KEEP: u32 = 3;
    pub(crate) const MAX_KEEP: u32 = 100;
}

/// What one source file says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SourceDoc {
    pub(crate) rules: Vec<RuleSpec>,
    pub(crate) settings: Settings,
    /// Things worth telling the user that do not stop the file from loading
    /// (an unknown key in a file warden reads leniently, a disabled entry...).
    pub(crate) warnings: Vec<String>,
}

/// How many rules of each kind a source holds (the ledger compares these).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub allow: u32,
    pub ask: u32,
    pub deny: u32,
    /// The plugin's `patterns`, which join the dangerous layer.
    pub dangerous: u32,
    pub protected: u32,
}

impl Counts {
    pub(crate) fn of(rules: &[RuleSpec]) -> Counts {
        let mut counts = Counts::default();
        for rule in rules {
            if rule.dangerous {
                counts.dangerous += 1;
            } else {
                match rule.decision {
                    Decision::Allow => counts.allow += 1,
                    Decision::Ask => counts.ask += 1,
                    Decision::Block => counts.deny += 1,
                }
            }
            if rule.protected {
                counts.protected += 1;
            }
        }
        counts
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} deny, {} ask, {} allow, {} dangerous patterns ({} protected)",
            self.deny, self.ask, self.allow, self.dangerous, self.protected
        )
    }
}

/// Whether what a source says may loosen the guard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    /// Everything it says applies: the person's own config, a managed
    /// directory only root can write, a project file the person trusted.
    Trusted,
    /// Only what tightens applies: its deny and ask rules (which never
    /// outrank a stricter rule) and settings stricter than the trusted
    /// ones. The text says why, and what would make it trusted.
    TightenOnly(String),
}

impl Standing {
    pub fn is_trusted(&self) -> bool {
        matches!(self, Standing::Trusted)
    }
}

/// One file that was looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceInfo {
    pub path: String,
    pub tier: Tier,
    pub kind: SourceKind,
    /// Hex SHA-256 of the file's bytes.
    pub sha256: String,
    pub counts: Counts,
    /// Why the file could not be used, if it could not.
    pub error: Option<String>,
    pub standing: Standing,
    /// For a tighten-only source: what it says that would loosen the guard
    /// and so does not apply (`allow rule config.allow-1 terminal(curl:*)`).
    pub withheld: Vec<String>,
}
