//! The layered decision: payload and policy in, verdict out, no I/O.
//!
//! Layers run in a fixed order and the first one with an opinion decides:
//!
//! 1. **hardline**: the unbypassable floor (`rm -rf /`, `mkfs /dev/sda`, ...);
//! 2. **input limits**: a command past the analysis limits is blocked;
//! 3. **sudo guard**: `sudo -S` with no configured password;
//! 4. **config**: a policy file that cannot be read blocks everything when
//!    `on_error: block` (the default);
//! 5. **user rules**: deny, ask and allow rules from every source compete
//!    (priority, then deny > ask > allow; managed rules first); a winning
//!    allow skips layer 6;
//! 6. **dangerous**: built-in rules and the plugin's patterns, which ask
//!    (yolo lifts them);
//! 7. **mode**, then 8. **threshold**, for what no rule named;
//! 9. **default**: allow.
//!
//! Then, whoever decided: under yolo an ask from layers 6–8 becomes an
//! allow; with no human present (a cron job) an ask becomes what the
//! matching Hermes setting says (deny by default); `on_error: ask` turns an
//! allow into an ask while a source is broken.

mod fallback;
pub mod user;

use std::sync::Arc;

use once_cell::sync::Lazy;

use crate::config::model::{Mode, OnError, RuleSpec, Unattended};
use crate::config::policy::{Policy, Subjects};
use crate::payload::ToolCall;
use crate::rules::{self, Hit, RuleSet};
use crate::shell::{self, Analysis};
use crate::verdict::{Decision, Layer, Verdict};

/// Facts from outside the payload that a decision depends on. The caller
/// reads them (environment, policy files); the engine does no I/O.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `SUDO_PASSWORD` is set, so `sudo -S` is fed by the agent's host, not guessed.
    pub sudo_password_set: bool,
    /// `HERMES_YOLO_MODE` in warden's own environment.
    pub yolo: bool,
    /// No human will answer an ask; which Hermes setting says what to do.
    pub unattended: Option<NoHuman>,
    /// The home directory, for `~` in rules and paths.
    pub home: Option<String>,
    /// The user's compiled policy (empty: built-in layers only).
    pub policy: Arc<Policy>,
}

/// Why no human is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoHuman {
    /// A Hermes cron job (`HERMES_CRON_SESSION`): `approvals.cron_mode`.
    Cron,
    /// A one-shot query: `approvals.single_query_mode`.
    SingleQuery,
    /// Any other unattended run: `approvals.unattended_mode`.
    Unattended,
}

/// What each layer saw, for `warden why`.
#[derive(Debug, Clone)]
pub struct Explanation {
    pub layers: Vec<(Layer, Vec<String>)>,
    pub verdict: Verdict,
}

static HARDLINE: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::hardline()));
static SUDO_GUARD: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::sudo_guard()));
static DANGEROUS: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::dangerous()));

/// Decides one tool call.
pub fn evaluate(call: &ToolCall, options: &Options) -> Verdict {
    Run::new(options, false).call(call)
}

/// Decides one tool call and reports what every layer saw.
pub fn explain(call: &ToolCall, options: &Options) -> Explanation {
    let mut run = Run::new(options, true);
    let verdict = run.call(call);
    Explanation {
        layers: run.report,
        verdict,
    }
}

/// Decides one shell command line with the built-in layers and `options`.
pub fn evaluate_command(command: &str, options: &Options) -> Verdict {
    let call = ToolCall::shell(command, None);
    evaluate(&call, options)
}

/// One evaluation; in explaining mode every layer runs and reports.
struct Run<'a> {
    options: &'a Options,
    explaining: bool,
    report: Vec<(Layer, Vec<String>)>,
}

impl<'a> Run<'a> {
    fn new(options: &'a Options, explaining: bool) -> Run<'a> {
        Run {
            options,
            explaining,
            report: Vec::new(),
        }
    }

    fn note(&mut self, layer: Layer, line: impl Into<String>) {
        if !self.explaining {
            return;
        }
        let line = line.into();
        match self.report.iter_mut().find(|(l, _)| *l == layer) {
            Some((_, lines)) => lines.push(line),
            None => self.report.push((layer, vec![line])),
        }
    }

    fn call(&mut self, call: &ToolCall) -> Verdict {
        if !call.is_pre_tool() {
            return Verdict::allow(format!(
                "warden only judges calls before a tool runs; `{}` events pass.",
                call.event
            ));
        }
        let analysis = call.command().map(shell::analyze);
        let verdict = self.layers(call, analysis.as_ref());
        self.finish(verdict)
    }

    fn layers(&mut self, call: &ToolCall, analysis: Option<&Analysis>) -> Verdict {
        let policy = Arc::clone(&self.options.policy);
        let mut decided: Option<Verdict> = None;
        macro_rules! decide {
            ($verdict:expr) => {{
                if decided.is_none() {
                    decided = Some($verdict);
                }
                if !self.explaining {
                    return decided.unwrap_or_else(|| Verdict::allow(""));
                }
            }};
        }
        if let Some(analysis) = analysis {
            if let Some(hit) = HARDLINE.first_match(analysis) {
                self.note(
                    Layer::Hardline,
                    format!("{} matches `{}`", hit.rule.id, hit.text),
                );
                decide!(verdict(&hit, Layer::Hardline));
            } else {
                self.note(Layer::Hardline, "no match");
            }
            if let Some(limit) = &analysis.limit {
                self.note(Layer::Input, limit.clone());
                decide!(Verdict::input_block(
                    "input.limit-exceeded",
                    format!("Blocked: {limit}, so warden cannot tell what it would run."),
                ));
            }
            if self.options.sudo_password_set {
                self.note(Layer::SudoGuard, "off: SUDO_PASSWORD is set");
            } else if let Some(hit) = SUDO_GUARD.first_match(analysis) {
                self.note(
                    Layer::SudoGuard,
                    format!("{} matches `{}`", hit.rule.id, hit.text),
                );
                decide!(verdict(&hit, Layer::SudoGuard));
            }
        }
        let on_error = policy.settings.on_error.unwrap_or(OnError::Block);
        if policy.broken {
            for problem in &policy.problems {
                self.note(Layer::Config, problem.clone());
            }
            self.note(
                Layer::Config,
                format!("on_error: {on_error:?}").to_lowercase(),
            );
            if on_error == OnError::Block {
                decide!(config_block(&policy));
            }
        }

        // User rules.
        // With no user rules there is nothing to match, and building the
        // subjects copies the command several times (a megabyte, at worst).
        let outcome = if policy.is_empty() {
            user::UserOutcome::default()
        } else {
            let subjects = Subjects::of(call, analysis, self.options.home.as_deref());
            user::decide(&policy, subjects)
        };
        // Formatting every match is for `warden why` only, not every call.
        if self.explaining {
            for m in &outcome.matches {
                let rule = &m.spec;
                let parts: Vec<String> = m
                    .segments
                    .iter()
                    .filter_map(|s| outcome.subjects.segments.get(*s))
                    .map(|s| format!("`{}`", s.full))
                    .collect();
                let place = match (parts.is_empty(), m.whole) {
                    (true, _) => "the whole call".to_string(),
                    (false, true) => format!("the whole call and {}", parts.join(", ")),
                    (false, false) => parts.join(", "),
                };
                self.note(
                    Layer::User,
                    format!(
                        "{} {} {} (priority {}, {} tier, {}) matches {}",
                        rule.decision.as_str(),
                        rule.id,
                        rule.describe(),
                        rule.priority,
                        policy.tier_of(rule).as_str(),
                        policy.origin(rule),
                        place
                    ),
                );
            }
        }
        if outcome.matches.is_empty() {
            self.note(Layer::User, "no user rule matches");
        }
        let mut allowed_by_user = false;
        if let Some(d) = &outcome.decision {
            self.note(
                Layer::User,
                format!("winner: {} ({})", d.rule.id, d.decision.as_str()),
            );
            allowed_by_user = d.decision == Decision::Allow;
            decide!(user_verdict(&policy, &d.rule, d.decision, &d.text));
        } else if !outcome.matches.is_empty() {
            self.note(Layer::User, "no winner: not every segment is allowed");
        }

        // Dangerous layer: built-ins and the plugin's patterns.
        let yolo = self.yolo();
        let mut flagged = false;
        // Why an allow that no rule made is an allow, when something asked.
        let mut allow_note: Option<String> = None;
        if let Some(analysis) = analysis {
            let exempt = &policy.settings.exempt_categories;
            let hit = if exempt.is_empty() && !self.explaining {
                DANGEROUS.first_match(analysis)
            } else {
                let all = DANGEROUS.all_matches(analysis);
                for hit in &all {
                    let exempted = exempt.iter().any(|c| c == hit.rule.category);
                    self.note(
                        Layer::Dangerous,
                        format!(
                            "{} matches `{}`{}",
                            hit.rule.id,
                            hit.text,
                            if exempted {
                                " (exempted by command_allowlist)"
                            } else {
                                ""
                            }
                        ),
                    );
                }
                if let Some(first) = all.first() {
                    if exempt.iter().any(|c| c == first.rule.category) {
                        allow_note = Some(format!(
                            "Allowed: `{}` is {}, a category your command_allowlist approves.",
                            clip(&first.text, 160),
                            first.rule.category
                        ));
                    }
                }
                all.into_iter()
                    .find(|hit| !exempt.iter().any(|c| c == hit.rule.category))
            };
            let plugin: Vec<&RuleSpec> = outcome.patterns.iter().collect();
            for rule in plugin.iter().copied() {
                self.note(
                    Layer::Dangerous,
                    format!(
                        "{} {} ({}) matches",
                        rule.id,
                        rule.describe(),
                        policy.origin(rule)
                    ),
                );
            }
            flagged = hit.is_some() || !plugin.is_empty();
            if flagged && allowed_by_user {
                self.note(Layer::Dangerous, "skipped: a user allow rule won");
            } else if flagged && yolo {
                self.note(
                    Layer::Dangerous,
                    "skipped: yolo (HERMES_YOLO_MODE or approvals.mode: off)",
                );
                let what = match (&hit, plugin.first()) {
                    (Some(hit), _) => format!("{} ({})", hit.rule.category, hit.rule.id),
                    (None, Some(rule)) => format!("your pattern {}", rule.id),
                    (None, None) => "a dangerous pattern".into(),
                };
                allow_note = Some(format!(
                    "Allowed: `{}` matches {what}, but yolo is on (HERMES_YOLO_MODE or approvals.mode: off).",
                    clip(call.command().unwrap_or(""), 160)
                ));
            } else if let Some(hit) = hit {
                decide!(verdict(&hit, Layer::Dangerous));
            } else if let Some(rule) = plugin.first() {
                let text = call.command().unwrap_or_default();
                decide!(Verdict {
                    decision: Decision::Ask,
                    message: format!(
                        "Needs approval: `{}` matches your pattern {} ({}): {} (from {}).",
                        clip(text, 160),
                        rule.id,
                        rule.describe(),
                        if rule.description.is_empty() {
                            "no description"
                        } else {
                            &rule.description
                        },
                        policy.origin(rule)
                    ),
                    rule_id: Some(rule.id.clone()),
                    layer: Layer::Dangerous,
                });
            }
            if !flagged {
                self.note(Layer::Dangerous, "no match");
            }
        }

        // Mode, then threshold.
        let mode = policy.settings.mode.unwrap_or(Mode::Autonomous);
        let (decision, why) = fallback::mode_decision(mode, call.kind, analysis);
        self.note(Layer::Mode, format!("{why} ({} tool)", call.kind.as_str()));
        if decision != Decision::Allow {
            decide!(Verdict {
                decision,
                message: format!(
                    "{}: `{}` is not named by any rule, and {why}.",
                    lead(decision),
                    clip(&call_text(call), 160)
                ),
                rule_id: Some(format!("mode.{}", format!("{mode:?}").to_lowercase())),
                layer: Layer::Mode,
            });
        }
        if let Some(limit) = policy.settings.auto_approve_up_to {
            let risk = fallback::risk(call.kind, flagged);
            self.note(
                Layer::Threshold,
                format!("risk {risk:?}, auto-approved up to {limit:?}").to_lowercase(),
            );
            if risk > limit {
                decide!(Verdict {
                    decision: Decision::Ask,
                    message: format!(
                        "Needs approval: `{}` is {} risk, above approvals.auto_approve_up_to ({}).",
                        clip(&call_text(call), 160),
                        format!("{risk:?}").to_lowercase(),
                        format!("{limit:?}").to_lowercase()
                    ),
                    rule_id: Some("threshold.auto-approve".into()),
                    layer: Layer::Threshold,
                });
            }
        }
        decided.unwrap_or_else(|| match (allow_note, call.command()) {
            (Some(note), _) => Verdict::allow(note),
            (None, Some(_)) => Verdict::allow("No warden rule matched this command."),
            (None, None) => {
                Verdict::allow(format!("No warden rule matched this `{}` call.", call.tool))
            }
        })
    }

    fn yolo(&self) -> bool {
        self.options.yolo || self.options.policy.settings.approvals_off == Some(true)
    }

    /// What yolo, an absent human and `on_error: ask` do to the verdict.
    fn finish(&mut self, mut verdict: Verdict) -> Verdict {
        let policy = Arc::clone(&self.options.policy);
        if verdict.decision == Decision::Ask
            && self.yolo()
            && matches!(
                verdict.layer,
                Layer::Dangerous | Layer::Mode | Layer::Threshold
            )
        {
            self.note(verdict.layer, "yolo approves this ask");
            verdict.decision = Decision::Allow;
            verdict.message = format!(
                "{} (Approved: yolo is on.)",
                verdict.message.replacen("Needs approval:", "Allowed:", 1)
            );
        }
        if verdict.decision == Decision::Allow
            && policy.broken
            && policy.settings.on_error == Some(OnError::Ask)
        {
            verdict = Verdict {
                decision: Decision::Ask,
                message: format!(
                    "Needs approval: warden's policy could not be fully read ({}), and on_error is ask.",
                    policy.problems.first().map_or("see stderr", String::as_str)
                ),
                rule_id: Some("config.invalid".into()),
                layer: Layer::Config,
            };
        }
        if verdict.decision == Decision::Ask {
            if let Some(why) = self.options.unattended {
                let settings = &policy.settings;
                let (setting, name) = match why {
                    NoHuman::Cron => (settings.cron_mode, "cron_mode"),
                    NoHuman::SingleQuery => (settings.single_query_mode, "single_query_mode"),
                    NoHuman::Unattended => (settings.unattended_mode, "unattended_mode"),
                };
                // A user's ask rule means "a person decides": with nobody
                // there it cannot become an approval.
                let approve = setting == Some(Unattended::Approve) && verdict.layer != Layer::User;
                verdict.decision = if approve {
                    Decision::Allow
                } else {
                    Decision::Block
                };
                verdict.message = format!(
                    "{} (No one is present to answer, and approvals.{name} is {}.)",
                    verdict.message.replacen(
                        "Needs approval:",
                        if approve { "Allowed:" } else { "Blocked:" },
                        1
                    ),
                    if approve { "approve" } else { "deny" }
                );
                self.note(
                    verdict.layer,
                    format!("no human present: approvals.{name} decides"),
                );
            }
        }
        verdict
    }
}

fn call_text(call: &ToolCall) -> String {
    match (call.command(), &call.path) {
        (Some(command), _) => command.to_string(),
        (None, Some(path)) => format!("{} {path}", call.tool),
        (None, None) => call.tool.clone(),
    }
}

fn config_block(policy: &Policy) -> Verdict {
    Verdict {
        decision: Decision::Block,
        message: format!(
            "Blocked: warden's policy could not be read ({}), and on_error is block; fix the file (see `warden why`) or set on_error.",
            policy.problems.first().map_or("see stderr", String::as_str)
        ),
        rule_id: Some("config.invalid".into()),
        layer: Layer::Config,
    }
}

fn user_verdict(policy: &Policy, rule: &RuleSpec, decision: Decision, text: &str) -> Verdict {
    let kind = match decision {
        Decision::Block => "deny",
        Decision::Ask => "ask",
        Decision::Allow => "allow",
    };
    let about = if rule.description.is_empty() {
        String::new()
    } else {
        format!(": {}", rule.description)
    };
    Verdict {
        decision,
        message: format!(
            "{}: `{}` matches your {kind} rule {} {}{about} (from {}).",
            lead(decision),
            clip(text, 160),
            rule.id,
            rule.describe(),
            policy.origin(rule)
        ),
        rule_id: Some(rule.id.clone()),
        layer: Layer::User,
    }
}

fn lead(decision: Decision) -> &'static str {
    match decision {
        Decision::Block => "Blocked",
        Decision::Ask => "Needs approval",
        Decision::Allow => "Allowed",
    }
}

fn verdict(hit: &Hit<'static>, layer: Layer) -> Verdict {
    let rule = hit.rule;
    Verdict {
        decision: rule.decision,
        message: format!(
            "{}: `{}` is {}: {} (warden rule {}).",
            lead(rule.decision),
            clip(&hit.text, 160),
            rule.category,
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
