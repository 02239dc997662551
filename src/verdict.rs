//! Verdicts (decision, deciding layer and rule, message) and the JSON dialects that carry them to each agent.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

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
}

/// The evaluation layer that produced a verdict, in evaluation order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    /// The payload itself could not be used (malformed, too large, over a limit).
    Input,
    /// The unbypassable floor.
    Hardline,
    /// `sudo -S` with no configured password: the agent would be guessing one.
    SudoGuard,
    /// The user's deny, ask and allow rules (every source, and protected
    /// rules kept by the ledger).
    User,
    /// Built-in dangerous rules and the plugin's patterns, which ask.
    Dangerous,
    /// The configured mode, for calls no rule decided.
    Mode,
    /// `approvals.auto_approve_up_to`, for calls no rule decided.
    Threshold,
    /// A policy source could not be used, and `on_error` decided.
    Config,
    /// Nothing matched.
    Default,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Input => "input",
            Layer::Hardline => "hardline",
            Layer::SudoGuard => "sudo-guard",
            Layer::User => "user",
            Layer::Dangerous => "dangerous",
            Layer::Mode => "mode",
            Layer::Threshold => "threshold",
            Layer::Config => "config",
            Layer::Default => "default",
        }
    }
}

/// The engine's answer for one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    #[serde(rename = "action")]
    pub decision: Decision,
    pub message: String,
    pub rule_id: Option<String>,
    pub layer: Layer,
}

impl Verdict {
    /// The text for the person reading the agent's transcript.
    pub fn message(&self) -> String {
        self.message.clone()
    }

    pub fn allow(message: impl Into<String>) -> Verdict {
        Verdict {
            decision: Decision::Allow,
            message: message.into(),
            rule_id: None,
            layer: Layer::Default,
        }
    }

    /// The fail-closed verdict for input warden could not judge.
    pub fn input_block(rule_id: &str, message: impl Into<String>) -> Verdict {
        Verdict {
            decision: Decision::Block,
            message: message.into(),
            rule_id: Some(rule_id.to_string()),
            layer: Layer::Input,
        }
    }

    /// Renders the verdict as one line of JSON in `dialect` (no trailing newline).
    pub fn render(&self, dialect: Dialect) -> String {
        let value = match dialect {
            Dialect::Native => json!({
                "action": self.decision.as_str(),
                "message": self.message,
                "rule_id": self.rule_id,
                "layer": self.layer.as_str(),
            }),
            Dialect::Hermes => self.hermes(),
            Dialect::Claude => self.claude(false),
            Dialect::Codex => self.claude(true),
        };
        value.to_string()
    }

    /// A block every agent understands, for when warden cannot tell which
    /// agent is calling (the payload was unreadable and no `--agent` was
    /// given): Hermes and Codex read the top-level `decision`, Claude Code
    /// reads `hookSpecificOutput`, and every field is in Codex's strict schema.
    pub fn render_for_any_agent(&self) -> String {
        json!({
            "decision": "block",
            "reason": self.message,
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": self.message,
            }
        })
        .to_string()
    }

    // Hermes ignores "allow" and "ask"; the only escalation it honours is
    // `approve`, keyed by a rule so the user can approve it for the session.
    fn hermes(&self) -> Value {
        match self.decision {
            Decision::Block => json!({"action": "block", "message": self.message}),
            Decision::Ask => json!({
                "action": "approve",
                "message": self.message,
                "rule_key": self.rule_id.as_deref().unwrap_or("warden"),
            }),
            Decision::Allow => json!({"action": "allow"}),
        }
    }

    // Codex rejects `ask` and then runs the command anyway, so an ask must
    // reach Codex as a deny that tells the user how to let it through.
    fn claude(&self, codex: bool) -> Value {
        let (decision, reason) = match self.decision {
            Decision::Allow => ("allow", self.message.clone()),
            Decision::Block => ("deny", self.message.clone()),
            Decision::Ask if codex => (
                "deny",
                format!(
                    "{} Codex cannot ask for confirmation, so warden denied it: \
                     if you want it run, run it yourself in a terminal.",
                    self.message
                ),
            ),
            Decision::Ask => ("ask", self.message.clone()),
        };
        json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            }
        })
    }
}

/// The output format an agent understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// warden's own contract: action, message, rule_id, layer.
    Native,
    Hermes,
    Claude,
    Codex,
}

impl Dialect {
    pub fn parse(name: &str) -> Option<Dialect> {
        match name {
            "native" => Some(Dialect::Native),
            "hermes" => Some(Dialect::Hermes),
            "claude" => Some(Dialect::Claude),
            "codex" => Some(Dialect::Codex),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Native => "native",
            Dialect::Hermes => "hermes",
            Dialect::Claude => "claude",
            Dialect::Codex => "codex",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask() -> Verdict {
        Verdict {
            decision: Decision::Ask,
            message: "Asks before `git push -f`.".into(),
            rule_id: Some("git.force-push".into()),
            layer: Layer::Dangerous,
        }
    }

    #[test]
    fn hermes_ask_is_approve_with_rule_key() {
        let v: Value = serde_json::from_str(&ask().render(Dialect::Hermes)).unwrap();
        assert_eq!(v["action"], "approve");
        assert_eq!(v["rule_key"], "git.force-push");
    }

    #[test]
    fn codex_ask_becomes_deny_with_instructions() {
        let v: Value = serde_json::from_str(&ask().render(Dialect::Codex)).unwrap();
        let out = &v["hookSpecificOutput"];
        assert_eq!(out["permissionDecision"], "deny");
        let reason = out["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.starts_with("Asks before") && reason.contains("run it yourself"));
        assert_eq!(out.as_object().unwrap().len(), 3);
    }

    #[test]
    fn native_carries_layer_and_rule() {
        let v: Value = serde_json::from_str(&ask().render(Dialect::Native)).unwrap();
        assert_eq!(v["action"], "ask");
        assert_eq!(v["layer"], "dangerous");
        assert_eq!(v["rule_id"], "git.force-push");
    }
}
