//! The layered decision: payload in, verdict out, no I/O.
//!
//! Layers run in a fixed order and the first one with an opinion decides:
//!
//! 1. **hardline**: the unbypassable floor (`rm -rf /`, `mkfs /dev/sda`, ...);
//! 2. **input limits**: a command past the analysis limits is blocked;
//! 3. **sudo guard**: `sudo -S` with no configured password;
//! 4. (user deny, ask and allow rules come here with the configuration work;
//!    nothing a user writes can lift layers 1–3, and a user allow will skip 5)
//! 5. **dangerous**: built-in rules that ask;
//! 6. **default**: allow.

use once_cell::sync::Lazy;

use crate::payload::{ToolCall, ToolInput};
use crate::rules::{self, Hit, RuleSet};
use crate::shell::{self, Analysis};
use crate::verdict::{Decision, Layer, Verdict};

/// Facts from outside the payload that a decision depends on. The caller
/// reads them (from the environment); the engine does no I/O.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `SUDO_PASSWORD` is set, so `sudo -S` is fed by the agent's host, not guessed.
    pub sudo_password_set: bool,
}

static HARDLINE: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::hardline()));
static SUDO_GUARD: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::sudo_guard()));
static DANGEROUS: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::dangerous()));

/// Decides one tool call.
pub fn evaluate(call: &ToolCall, options: &Options) -> Verdict {
    if !call.is_pre_tool() {
        return Verdict::allow(format!(
            "warden only judges calls before a tool runs; `{}` events pass.",
            call.event
        ));
    }
    match &call.input {
        ToolInput::Shell { command } => evaluate_command(command, options),
        ToolInput::Other => Verdict::allow(format!(
            "warden does not judge the `{}` tool yet; it runs as the agent decides.",
            call.tool
        )),
    }
}

/// Decides one shell command line.
pub fn evaluate_command(command: &str, options: &Options) -> Verdict {
    let analysis = shell::analyze(command);
    decide(&analysis, options)
}

fn decide(analysis: &Analysis, options: &Options) -> Verdict {
    if let Some(hit) = HARDLINE.first_match(analysis) {
        return verdict(hit, Layer::Hardline);
    }
    if let Some(limit) = &analysis.limit {
        return Verdict::input_block(
            "input.limit-exceeded",
            format!("Blocked: {limit}, so warden cannot tell what it would run."),
        );
    }
    if !options.sudo_password_set {
        if let Some(hit) = SUDO_GUARD.first_match(analysis) {
            return verdict(hit, Layer::SudoGuard);
        }
    }
    if let Some(hit) = DANGEROUS.first_match(analysis) {
        return verdict(hit, Layer::Dangerous);
    }
    Verdict::allow("No warden rule matched this command.")
}

fn verdict(hit: Hit<'static>, layer: Layer) -> Verdict {
    let rule = hit.rule;
    let lead = match rule.decision {
        Decision::Block => "Blocked",
        Decision::Ask => "Needs approval",
        Decision::Allow => "Allowed",
    };
    Verdict {
        decision: rule.decision,
        message: format!(
            "{lead}: `{}` is {}: {} (warden rule {}).",
            clip(&hit.text, 160),
            rule.description,
            rule.reason,
            rule.id
        ),
        rule_id: Some(rule.id.to_string()),
        layer,
    }
}

fn clip(text: &str, max: usize) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut out: String = one_line.chars().take(max).collect();
    out.push('…');
    out
}
