//! Verdicts as data (decision, deciding layer and rule, subject, reason, safer way, later changes) and their one rendering per agent dialect.
//!
//! The engine never writes prose: it fills in a [`Verdict`], and the text a
//! person reads ("Blocked: …", "Needs approval: …") is made here, once, when
//! the verdict is rendered for an agent. A change made after the layers
//! (yolo, no human present, `--on-ask block`) is recorded as a [`Change`],
//! so the lead word always follows the final decision.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use line::Line;

mod finding;
mod line;

/// What should happen to the tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Ask,
    Block,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Block => "block",
        }
    }

    /// Claude Code's `permissionDecision` for it.
    fn as_claude(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Block => "deny",
        }
    }

    /// The word a message opens with.
    fn lead(self) -> &'static str {
        match self {
            Decision::Block => "Blocked",
            Decision::Ask => "Needs approval",
            Decision::Allow => "Allowed",
        }
    }
}

/// The evaluation layer that produced a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The payload itself could not be used (malformed, too large, over a limit).
    Input,
    /// The unbypassable floor.
    Hardline,
    /// `sudo -S` with no configured password: the agent would be guessing one.
    SudoGuard,
    /// A policy source could not be used, and `on_error` decided.
    Config,
    /// The user's deny, ask and allow rules (every source, and protected
    /// rules kept by the ledger).
    User,
    /// Built-in dangerous rules and the plugin's patterns, which ask.
    Dangerous,
    /// The configured mode, for calls no rule decided.
    Mode,
    /// `approvals.auto_approve_up_to`, for calls no rule decided.
    Threshold,
    /// Nothing matched.
    Default,
    /// The person approved this very call once with `warden allow-once`.
    AllowOnce,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Input => "input",
            Layer::Hardline => "hardline",
            Layer::SudoGuard => "sudo-guard",
            Layer::Config => "config",
            Layer::User => "user",
            Layer::Dangerous => "dangerous",
            Layer::Mode => "mode",
            Layer::Threshold => "threshold",
            Layer::Default => "default",
            Layer::AllowOnce => "allow-once",
        }
    }
}

/// Why the deciding layer decided, in the terms its message needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A built-in rule matched the subject.
    BuiltIn {
        category: &'static str,
        why: &'static str,
        /// The paths the rule judged where they lead through links: each
        /// as written, and where it leads.
        leads: Vec<(String, String)>,
    },
    /// A path rule matched a file the call reads or writes.
    Path {
        category: &'static str,
        why: &'static str,
        /// `writes` or `reads`.
        access: &'static str,
        /// The file, resolved (absolute, symlinks followed).
        path: String,
        /// Why it could not be resolved, when it could not.
        unresolved: Option<String>,
    },
    /// The analysis stopped at a limit, described in the string.
    Limit(String),
    /// A policy file could not be used, and `on_error: block` decided.
    PolicyUnreadable { problem: String },
    /// A policy file could not be used, and `on_error: ask` turned an allow
    /// into an ask.
    PolicyPartlyRead { problem: String },
    /// A user's deny, ask or allow rule, written as the user would write it.
    UserRule {
        kind: &'static str,
        rule: String,
        description: String,
        origin: String,
    },
    /// One of the custom-patterns plugin's `patterns` (they ask).
    Pattern {
        rule: String,
        description: String,
        origin: String,
    },
    /// The first built-in match is a category the user's
    /// `command_allowlist` approves.
    Exempted { category: &'static str },
    /// A dangerous match that yolo lifted; what matched.
    YoloLifted { what: String },
    /// The mode decided a call no rule named; the mode's own words.
    Unnamed { why: String },
    /// The call's risk is above `approvals.auto_approve_up_to`.
    Risk {
        risk: &'static str,
        limit: &'static str,
    },
    /// No rule matched; `tool` is set for calls that are not command lines.
    NoMatch { tool: Option<String> },
    /// An event other than "a tool is about to run".
    OtherEvent { event: String },
    /// The payload could not be read.
    Unreadable { error: String },
    /// warden was started with arguments it does not understand.
    BadStart { error: String },
    /// warden itself failed.
    Internal { detail: String },
    /// Reading and deciding took longer than warden's own deadline.
    Deadline { millis: u64 },
}

/// A change made to a verdict after the layers, in the order made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Yolo approved an ask from the dangerous, mode or threshold layer.
    Yolo,
    /// No human could answer the ask; `approvals.<setting>` approved or denied it.
    NoHuman {
        setting: &'static str,
        approve: bool,
    },
    /// `--on-ask block` turned the ask into a block.
    OnAskBlock,
    /// The person approved the call once (`warden allow-once CODE`).
    AllowedOnce { code: String },
}

impl Change {
    fn text(&self) -> String {
        match self {
            Change::Yolo => "Approved: yolo is on.".into(),
            Change::NoHuman { setting, approve } => format!(
                "No one is present to answer, and approvals.{setting} is {}.",
                if *approve { "approve" } else { "deny" }
            ),
            Change::OnAskBlock => format!("Blocked rather than asked: {ON_ASK_BLOCK}"),
            Change::AllowedOnce { code } => {
                format!("Allowed once: you approved this call with `warden allow-once {code}`.")
            }
        }
    }
}

/// The engine's answer for one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub decision: Decision,
    pub layer: Layer,
    pub rule_id: Option<String>,
    /// What the message quotes: the command (or the command in it) a rule
    /// matched, or the call.
    pub subject: String,
    pub reason: Reason,
    pub changes: Vec<Change>,
    /// How the person approves this call once, when an ask reached the
    /// agent as a block.
    pub once: Option<Offer>,
    /// A safer way to reach the same goal, when the deciding rule names one
    /// (a built-in rule's row in [`crate::rules::safer`], a user rule's
    /// `suggest`).
    pub safer: Option<Cow<'static, str>>,
}

/// The code `warden allow-once` approves one call with, and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub code: String,
    pub minutes: u64,
}

/// How much of a subject a message quotes.
const QUOTED_CHARS: usize = 160;
/// How much of a safer way a message says (a user's `suggest` has no
/// other limit; the built-in ones are shorter).
const SAFER_CHARS: usize = 300;

impl Verdict {
    /// A verdict with no changes yet.
    pub fn new(
        decision: Decision,
        layer: Layer,
        rule_id: Option<String>,
        subject: impl Into<String>,
        reason: Reason,
    ) -> Verdict {
        Verdict {
            decision,
            layer,
            rule_id,
            subject: subject.into(),
            reason,
            changes: Vec::new(),
            once: None,
            safer: None,
        }
    }

    /// This verdict, saying `safer` is the safer way to the same goal.
    pub fn with_safer(mut self, safer: Option<Cow<'static, str>>) -> Verdict {
        self.safer = safer;
        self
    }

    /// The fail-closed verdict for input warden could not judge.
    pub fn input_block(rule_id: &str, reason: Reason) -> Verdict {
        Verdict::new(
            Decision::Block,
            Layer::Input,
            Some(rule_id.to_string()),
            "",
            reason,
        )
    }

    /// Changes the decision after the layers, noting why.
    pub fn change(&mut self, decision: Decision, change: Change) {
        self.decision = decision;
        self.changes.push(change);
    }

    /// The text for the person reading the agent's transcript: what the
    /// deciding layer found, then each later change in parentheses.
    pub fn message(&self) -> String {
        let mut out = self.findings();
        out.push_str(&self.offer());
        out
    }

    /// What the deciding layer found, the safer way when there is one,
    /// and each later change.
    fn findings(&self) -> String {
        let mut out = self.finding();
        if let Some(safer) = self.safer_text() {
            out.push_str(" Safer: ");
            out.push_str(&safer);
        }
        for change in &self.changes {
            out.push_str(" (");
            out.push_str(&change.text());
            out.push(')');
        }
        out
    }

    /// The safer way as a message says it: on one line, clipped, and
    /// ending as a sentence does (a user's `suggest` may leave that out).
    pub fn safer_text(&self) -> Option<Cow<'_, str>> {
        let text = clip(self.safer.as_deref()?.trim(), SAFER_CHARS);
        if text.is_empty() {
            return None;
        }
        Some(if text.ends_with(['.', '!', '?']) {
            text
        } else {
            Cow::Owned(format!("{text}."))
        })
    }

    /// How the person approves this call once, when they can.
    fn offer(&self) -> String {
        match &self.once {
            Some(Offer { code, minutes }) => format!(
                " To let this one call run once, run `warden allow-once {code}` in your own terminal within {minutes} minutes, then tell the agent to retry it."
            ),
            None => String::new(),
        }
    }

    /// Whether an ask reaches `dialect` as a block: turned into one by
    /// `--on-ask block`, an ask Codex, Gemini CLI or OpenCode can only be
    /// sent as a deny, or an ask Copilot CLI turns into a deny wherever no one
    /// can answer it (`copilot -p`). The
    /// floor never asks, and only an ask is offered for approval.
    pub fn asked_as_block(&self, dialect: Dialect) -> bool {
        let asked = match self.decision {
            Decision::Ask => matches!(
                dialect,
                Dialect::Codex | Dialect::Gemini | Dialect::Copilot | Dialect::OpenCode
            ),
            Decision::Block => self.changes.last() == Some(&Change::OnAskBlock),
            Decision::Allow => false,
        };
        asked
            && !matches!(
                self.layer,
                Layer::Hardline | Layer::Input | Layer::SudoGuard
            )
    }

    /// Renders the verdict as one line of JSON in `dialect` (no trailing newline).
    ///
    /// An allow reaches an agent only as no opinion ([`NO_OPINION`]), except
    /// where [`Verdict::grants`] says the agent may be told to skip its own
    /// checks.
    pub fn render(&self, dialect: Dialect) -> String {
        let allow = self.decision == Decision::Allow;
        if allow && dialect != Dialect::Native && !self.grants(dialect) {
            return NO_OPINION.into();
        }
        let message = self.message();
        // Fields in alphabetical order: the order the contract tests and
        // golden fixtures were written in.
        match (dialect, self.decision) {
            (Dialect::Native, decision) => Line::new(message.len())
                .str("action", decision.as_str())
                .str("layer", self.layer.as_str())
                .str("message", &message)
                .str_or_null("rule_id", self.rule_id.as_deref())
                .finish(),
            // The only escalation Hermes honours is `approve`, keyed by a
            // rule so the user can approve it for the session.
            (Dialect::Hermes, Decision::Ask) => Line::new(message.len())
                .str("action", "approve")
                .str("message", &message)
                .str("rule_key", self.rule_id.as_deref().unwrap_or("warden"))
                .finish(),
            (Dialect::Hermes, _) => action_block(&message),
            // Codex rejects `ask` and then runs the command anyway, so an
            // ask must reach Codex as a deny that says how to let it through.
            // Codex shows the model "<reason>. Command: <command>": a reason
            // that ends in its own full stop would read "..".
            (Dialect::Codex, Decision::Ask) => claude(
                "deny",
                codex_reason(&format!("{} {CODEX_ASK}{}", self.findings(), self.offer())),
            ),
            (Dialect::Codex, decision) => claude(decision.as_claude(), codex_reason(&message)),
            // Gemini CLI's `ask` waits for a person forever in `gemini -p`,
            // and nothing in the payload says whether one is there: an ask
            // reaches it as a deny that says how to let the call through.
            // Gemini tells the model "Tool execution blocked: <reason>".
            (Dialect::Gemini, Decision::Ask) => {
                gemini_deny(&format!("{} {GEMINI_ASK}{}", self.findings(), self.offer()))
            }
            (Dialect::Gemini, _) => gemini_deny(&message),
            // Copilot CLI asks the person; with no one to ask (`copilot -p`)
            // it denies, telling the model "Denied by preToolUse hook
            // (unable to ask user for confirmation): <reason>", so the
            // reason also says how to let the call through.
            (Dialect::Copilot, Decision::Ask) => copilot(
                "ask",
                &format!("{} {COPILOT_ASK}{}", self.findings(), self.offer()),
            ),
            (Dialect::Copilot, decision) => copilot(decision.as_claude(), &message),
            // An OpenCode plugin cannot ask (OpenCode has no hook for its
            // own approval prompt): warden's plugin throws the message of a
            // block, and OpenCode hands it to the model as the tool's result.
            (Dialect::OpenCode, Decision::Ask) => action_block(&format!(
                "{} {OPENCODE_ASK}{}",
                self.findings(),
                self.offer()
            )),
            (Dialect::OpenCode, _) => action_block(&message),
            (Dialect::Claude, decision) => claude(decision.as_claude(), &message),
        }
    }

    /// Whether an allow may reach `dialect` as a grant. Claude Code and
    /// Copilot CLI skip their own permission checks for a hook's allow, so
    /// only the user's own allow rule may say it there; Hermes has no
    /// allow, Codex counts one as a failed hook, Gemini CLI's `allow`
    /// changes nothing (its own policy still decides), and warden's OpenCode
    /// plugin knows only a block and no opinion, so they get no opinion.
    fn grants(&self, dialect: Dialect) -> bool {
        match dialect {
            Dialect::Native => true,
            Dialect::Claude | Dialect::Copilot => {
                self.layer == Layer::User && self.changes.is_empty()
            }
            Dialect::Hermes | Dialect::Codex | Dialect::Gemini | Dialect::OpenCode => false,
        }
    }

    /// A block every agent understands, for when warden cannot tell which
    /// agent is calling (the payload was unreadable and no `--agent` was
    /// given): Hermes and Codex read the top-level `decision`, Claude Code
    /// reads `hookSpecificOutput`, Gemini CLI (and warden's OpenCode plugin)
    /// takes `decision: block` with
    /// its `reason`, and every field is in Codex's strict schema.
    pub fn render_for_any_agent(&self) -> String {
        let message = self.message();
        Line::new(2 * message.len())
            .str("decision", "block")
            .object("hookSpecificOutput", |inner| {
                pre_tool_use(inner, "deny", &message)
            })
            .str("reason", &message)
            .finish()
    }
}

fn codex_reason(message: &str) -> &str {
    message.strip_suffix('.').unwrap_or(message)
}

/// Claude Code's and Codex's shape of an answer.
fn claude(decision: &str, reason: &str) -> String {
    Line::new(reason.len())
        .object("hookSpecificOutput", |inner| {
            pre_tool_use(inner, decision, reason)
        })
        .finish()
}

/// Gemini CLI's block: `decision: deny` and the reason, on stdout with
/// exit 0 (an exit code blocks there only with text, so it is not relied on).
fn gemini_deny(reason: &str) -> String {
    Line::new(reason.len())
        .str("decision", "deny")
        .str("reason", reason)
        .finish()
}

/// Copilot CLI's answer to a `preToolUse` hook: its decision and reason at
/// the top level (it ignores Claude's `hookSpecificOutput` there).
fn copilot(decision: &str, reason: &str) -> String {
    Line::new(reason.len())
        .str("permissionDecision", decision)
        .str("permissionDecisionReason", reason)
        .finish()
}

/// Hermes' block, which warden's OpenCode plugin reads too (it throws the
/// message).
fn action_block(message: &str) -> String {
    Line::new(message.len())
        .str("action", "block")
        .str("message", message)
        .finish()
}

/// Claude Code's `hookSpecificOutput` for a `PreToolUse` hook.
fn pre_tool_use(line: Line, decision: &str, reason: &str) -> Line {
    line.str("hookEventName", "PreToolUse")
        .str("permissionDecision", decision)
        .str("permissionDecisionReason", reason)
}

const CODEX_ASK: &str = "Codex cannot ask for confirmation, so warden denied it: \
                         if you want it run, run it yourself in a terminal.";

const GEMINI_ASK: &str = "Gemini CLI cannot be asked from a hook without hanging a non-interactive \
                          run, so warden denied it: if you want it run, run it yourself in a terminal.";

const COPILOT_ASK: &str = "Where Copilot CLI cannot ask you (`copilot -p`), it denies the call: \
                           if you want it run, run it yourself in a terminal.";

const OPENCODE_ASK: &str =
    "OpenCode cannot ask for confirmation from a plugin, so warden blocked it: \
                            if you want it run, run it yourself in a terminal.";

/// What `--on-ask block` adds to a block that would have been an ask: the
/// person, not the agent, can still run the command.
const ON_ASK_BLOCK: &str =
    "this agent cannot ask for approval, so warden runs with --on-ask block; \
                            if you want it run, run it yourself in a terminal, or allow it with a \
                            rule in warden's config (see `warden why`).";

/// What an agent gets when warden has no objection: nothing it acts on, so
/// the agent's own permission checks decide as if there were no hook.
pub const NO_OPINION: &str = "{}";

/// One line of text: control characters become spaces, and past `max`
/// characters the rest is cut off with an ellipsis.
fn clip(text: &str, max: usize) -> Cow<'_, str> {
    // Most subjects are short printable ASCII: no byte to change, and no
    // more characters than bytes.
    if text.len() <= max && text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(max * 4));
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    Cow::Owned(out)
}

/// The output format an agent understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// warden's own contract: action, message, rule_id, layer.
    Native,
    Hermes,
    Claude,
    Codex,
    Gemini,
    Copilot,
    OpenCode,
}

impl Dialect {
    pub const ALL: [Dialect; 7] = [
        Dialect::Native,
        Dialect::Hermes,
        Dialect::Claude,
        Dialect::Codex,
        Dialect::Gemini,
        Dialect::Copilot,
        Dialect::OpenCode,
    ];

    pub fn parse(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Native => "native",
            Dialect::Hermes => "hermes",
            Dialect::Claude => "claude",
            Dialect::Codex => "codex",
            Dialect::Gemini => "gemini",
            Dialect::Copilot => "copilot",
            Dialect::OpenCode => "opencode",
        }
    }

    /// How a decision reaches this agent, for `warden why`.
    pub fn describe(self, decision: Decision) -> &'static str {
        match (self, decision) {
            (Dialect::Native, _) => "warden's own format: action, message, rule_id, layer",
            (Dialect::Hermes, Decision::Ask) => {
                "Hermes gets `approve` keyed by the rule id (Hermes 0.19 ignores it: `warden install` registers --on-ask block there, and the block carries a `warden allow-once` code)"
            }
            (Dialect::Hermes, Decision::Allow) => {
                "Hermes gets `{}`, no opinion: its own approval checks still run"
            }
            (Dialect::Hermes, Decision::Block) => "Hermes gets `block` with the message",
            (Dialect::Claude, Decision::Ask) => "Claude Code shows its permission prompt",
            (Dialect::Claude, Decision::Allow) => {
                "Claude Code gets `allow` only when your own allow rule decided (it skips Claude's prompt); otherwise `{}`, and Claude's own permission checks decide"
            }
            (Dialect::Claude, Decision::Block) => "Claude Code gets a deny with the reason",
            (Dialect::Codex, Decision::Ask) => {
                "Codex cannot ask: it gets a deny that says how to run the command by hand, or let it run once with `warden allow-once CODE`"
            }
            (Dialect::Codex, Decision::Allow) => {
                "Codex gets `{}`, no opinion (it counts `allow` as a failed hook)"
            }
            (Dialect::Codex, Decision::Block) => "Codex gets a deny with the reason",
            (Dialect::Gemini, Decision::Ask) => {
                "Gemini CLI's own ask would hang `gemini -p`: it gets a deny that says how to run the command by hand, or let it run once with `warden allow-once CODE`"
            }
            (Dialect::Gemini, Decision::Allow) => {
                "Gemini CLI gets `{}`, no opinion: its own policy decides"
            }
            (Dialect::Gemini, Decision::Block) => {
                "Gemini CLI gets `decision: deny` with the reason"
            }
            (Dialect::Copilot, Decision::Ask) => {
                "Copilot CLI asks you (`copilot -p`, where no one can answer, denies it); the reason says how to let it run once with `warden allow-once CODE`"
            }
            (Dialect::Copilot, Decision::Allow) => {
                "Copilot CLI gets `allow` only when your own allow rule decided (it skips Copilot's own approval); otherwise `{}`, and Copilot's own checks decide"
            }
            (Dialect::Copilot, Decision::Block) => {
                "Copilot CLI gets `permissionDecision: deny` with the reason"
            }
            (Dialect::OpenCode, Decision::Ask) => {
                "an OpenCode plugin cannot ask: OpenCode gets a block that says how to run the command by hand, or let it run once with `warden allow-once CODE`"
            }
            (Dialect::OpenCode, Decision::Allow) => {
                "OpenCode gets `{}`, no opinion: its own permissions decide"
            }
            (Dialect::OpenCode, Decision::Block) => {
                "OpenCode gets a block; warden's plugin throws its message, which the model reads as the tool's result"
            }
        }
    }
}

#[cfg(test)]
mod tests;
