//! What an allow rule grants beyond the project: a whole tool that reads or writes files, paths outside the project, or everything below wherever the agent works; with an example of what it lets through and what that means in each agent.
//!
//! An allow is the one answer warden gives that loosens: Claude Code skips
//! its own permission prompt for it, and in every agent it lifts warden's own
//! asks about credentials, keys and start-up files. `warden lint` and
//! `warden doctor` both report these, from here.

use super::model::{RuleSpec, Target, ToolSel};
use super::policy::{self, FileSubject, Policy, Subjects};
use crate::payload::ToolKind;
use crate::rules::files;
use crate::verdict::Decision;

/// One agent's tools, as its hook payloads name them, and what a call
/// gets when warden answers with a user allow.
struct AgentTools {
    name: &'static str,
    shell: &'static str,
    files: &'static [&'static str],
    effect: &'static str,
}

/// The tools warden is registered for in each agent (`warden install`).
const AGENTS: &[AgentTools] = &[
    AgentTools {
        name: "Claude Code",
        shell: "Bash",
        files: &[
            "Read",
            "Glob",
            "Grep",
            "Write",
            "Edit",
            "MultiEdit",
            "NotebookEdit",
        ],
        effect: "with no permission prompt of its own",
    },
    AgentTools {
        name: "Hermes",
        shell: "terminal",
        files: &["read_file", "search_files", "write_file", "patch"],
        effect: "with no objection from warden where it would ask (its own checks still run)",
    },
    AgentTools {
        name: "Codex",
        shell: "Bash",
        files: &["apply_patch"],
        effect: "with no objection from warden where it would refuse (its sandbox still applies)",
    },
];

/// Stands for the project of a rule that has none of its own (a user
/// rule's relative globs are relative to the call's working directory).
const PROJECT: &str = "/warden-probe/project";
/// The home directory when none is known.
const HOME: &str = "/home/user";
/// Most example paths named per rule.
const MAX_EXAMPLES: usize = 2;

/// How to narrow such a rule, for `warden doctor`'s fix line.
pub const FIX: &str = "narrow it to the project (e.g. `read_file(src/**)`) or remove it; `warden why --tool read_file --path ~/.aws/credentials` shows what decides a read";

/// An allow rule that reaches past the project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// `file:line` of the rule.
    pub origin: String,
    /// What it lets through, in each agent.
    pub text: String,
}

/// How far a rule's files reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Every call to the tool (every command, for the shell).
    Everything,
    /// Paths outside the project.
    Outside,
    /// A relative glob of a user rule: wherever the agent works, a home
    /// directory included.
    BelowWorkdir,
}

/// Every allow rule of `policy` that covers a whole tool that reads or
/// writes, or files outside the project. `home` is the user's, for `~`.
pub fn grants(policy: &Policy, home: Option<&str>) -> Vec<Grant> {
    let home = home.unwrap_or(HOME).trim_end_matches('/');
    policy
        .rules()
        .iter()
        .filter(|r| r.decision == Decision::Allow && !r.dangerous)
        .filter_map(|rule| {
            let (reach, examples) = reach(rule, home)?;
            let tools = covered(rule);
            if tools.is_empty() {
                return None;
            }
            Some(Grant {
                origin: policy.origin(rule),
                text: describe(rule, reach, &examples, &tools),
            })
        })
        .collect()
}

/// Whether the rule covers every command of the shell.
fn whole_shell(rule: &RuleSpec) -> bool {
    rule.target == Target::Any && policy::tool_matches(&rule.tool, "terminal", ToolKind::Shell)
}

/// How far `rule` reaches, with examples of guarded files it lets through;
/// `None` when it stays inside the project.
fn reach(rule: &RuleSpec, home: &str) -> Option<(Reach, Vec<String>)> {
    if whole_shell(rule) {
        return Some((Reach::Everything, Vec::new()));
    }
    let access = access(rule)?;
    let project = rule.base.as_deref().unwrap_or(PROJECT);
    let here = Subjects {
        cwd: Some(project.to_string()),
        home: Some(home.to_string()),
        ..Subjects::default()
    };
    let confined = rule
        .scope
        .as_deref()
        .is_some_and(|s| policy::under(&policy::resolve(s, rule.base.as_deref(), &here), project));
    if confined {
        return None;
    }
    let reach = match &rule.target {
        Target::Any if rule.scope.is_none() => Reach::Everything,
        Target::Any => Reach::Outside,
        Target::PathGlob(glob) if leaves(glob, rule.base.as_deref(), &here) => Reach::Outside,
        Target::PathGlob(_) if rule.base.is_some() => return None,
        Target::PathGlob(_) => Reach::BelowWorkdir,
        _ => Reach::Outside,
    };
    let cwd = if reach == Reach::BelowWorkdir {
        home
    } else {
        project
    };
    let examples = examples(rule, access, cwd, home);
    // A pattern that is not a glob (a regex, a trust.json pattern) and a
    // relative glob count only when they reach a guarded file.
    let shown =
        matches!(rule.target, Target::Any | Target::PathGlob(_)) && reach != Reach::BelowWorkdir;
    (shown || !examples.is_empty()).then_some((reach, examples))
}

/// Which file accesses the rule's tool makes: (reads, writes); `None`
/// when it names no file tool of any agent.
fn access(rule: &RuleSpec) -> Option<(bool, bool)> {
    let mut reads = false;
    let mut writes = false;
    for tool in AGENTS.iter().flat_map(|a| a.files) {
        let kind = ToolKind::of(tool);
        if policy::tool_matches(&rule.tool, tool, kind) {
            reads |= kind == ToolKind::Read;
            writes |= kind == ToolKind::Write;
        }
    }
    (reads || writes).then_some((reads, writes))
}

/// Whether a path glob, made absolute as the matcher makes it, can match
/// a path outside `base` (else the placeholder project).
fn leaves(glob: &str, base: Option<&str>, call: &Subjects) -> bool {
    let project = base.unwrap_or(PROJECT);
    let resolved = crate::path::absolute(&policy::resolve_glob(glob, base, call), None, None);
    let fixed = resolved
        .find(['*', '?', '[', '{'])
        .map_or(resolved.as_str(), |i| &resolved[..i]);
    let dir = fixed.rfind('/').map_or("", |i| &fixed[..i]);
    dir.is_empty() || !policy::under(dir, project)
}

/// The files warden's path rules ask about (an allow lifts an ask, never a
/// block) that `rule` alone lets through, for a call working in `cwd`.
fn examples(rule: &RuleSpec, (reads, writes): (bool, bool), cwd: &str, home: &str) -> Vec<String> {
    let alone = super::review::single(rule);
    let mut found = Vec::new();
    for path_rule in files::RULES {
        for hit in path_rule.hits {
            let Some((verb, path)) = hit.split_once(' ') else {
                continue;
            };
            let write = match verb {
                "read" if reads => false,
                "write" if writes => true,
                _ => continue,
            };
            let decision = if write {
                path_rule.write
            } else {
                path_rule.read
            };
            if decision != Some(Decision::Ask) || !(path.starts_with('~') || path.starts_with('/'))
            {
                continue;
            }
            let absolute = crate::path::absolute(path, None, Some(home));
            let kind = if write {
                ToolKind::Write
            } else {
                ToolKind::Read
            };
            let Some(tool) = AGENTS
                .iter()
                .flat_map(|a| a.files)
                .find(|t| ToolKind::of(t) == kind && policy::tool_matches(&rule.tool, t, kind))
            else {
                continue;
            };
            let call = Subjects {
                tool: (*tool).into(),
                kind,
                path: Some(absolute.clone()),
                files: vec![FileSubject {
                    path: absolute,
                    write,
                    segment: None,
                }],
                cwd: Some(cwd.to_string()),
                home: Some(home.to_string()),
                ..Subjects::default()
            };
            if !alone.matches(&call).is_empty() {
                found.push(format!("{verb} `{path}` ({})", path_rule.id));
                break;
            }
        }
        if found.len() == MAX_EXAMPLES {
            break;
        }
    }
    found
}

/// Each agent's tools the rule covers, as (agent, tool labels).
fn covered(rule: &RuleSpec) -> Vec<(&'static AgentTools, Vec<String>)> {
    // A path glob of a file tool also judges what shell commands read or
    // write; a whole-tool rule of the shell covers every command.
    let shell = if whole_shell(rule) {
        Some("every command")
    } else {
        match (&rule.target, &rule.tool) {
            (Target::PathGlob(_), ToolSel::Name(name)) => match ToolKind::of(name) {
                ToolKind::Read => Some("reads"),
                ToolKind::Write => Some("writes"),
                _ => None,
            },
            _ => None,
        }
    };
    AGENTS
        .iter()
        .filter_map(|agent| {
            let mut tools: Vec<String> = agent
                .files
                .iter()
                .filter(|t| policy::tool_matches(&rule.tool, t, ToolKind::of(t)))
                .map(|t| (*t).to_string())
                .collect();
            if let Some(what) = shell {
                tools.push(match what {
                    "every command" => format!("every {} command", agent.shell),
                    _ => format!("{} {what}", agent.shell),
                });
            }
            (!tools.is_empty()).then_some((agent, tools))
        })
        .collect()
}

fn describe(
    rule: &RuleSpec,
    reach: Reach,
    examples: &[String],
    tools: &[(&AgentTools, Vec<String>)],
) -> String {
    let verb = match access(rule) {
        Some((true, true)) => "reads or writes",
        Some((false, true)) => "writes",
        _ => "reads",
    };
    let whole = format!("covers every file its tool {verb}, inside the project or not");
    let what = match reach {
        Reach::Everything if whole_shell(rule) => {
            "covers every call, whatever command it runs or file it touches"
        }
        Reach::Everything => &whole,
        Reach::Outside => "covers files outside the project",
        Reach::BelowWorkdir => {
            "is relative to wherever the agent works, so it covers files in your home directory when the agent works there"
        }
    };
    let mut text = format!("allow rule `{}` (`{}`) {what}", rule.id, rule.describe());
    if !examples.is_empty() {
        text.push_str(&format!(", e.g. {}", examples.join(", ")));
    }
    let agents: Vec<String> = tools
        .iter()
        .map(|(agent, tools)| format!("{} runs {} {}", agent.name, list(tools), agent.effect))
        .collect();
    text.push_str(&format!(": {}", agents.join("; ")));
    text
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
