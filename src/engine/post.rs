//! Post-processing: what yolo, `on_error: ask`, an absent human and `--on-ask block` do to the verdict the layers gave.

use std::borrow::Cow;

use super::{layers, Context, NoHuman, Note, OnAsk, Step};
use crate::config::model::{OnError, Unattended};
use crate::verdict::{Change, Decision, Layer, Reason, Verdict};

/// A change post-processing may make; it says what it did, or `None`.
type Adjustment = fn(&Context<'_>, &mut Cow<'_, Verdict>) -> Option<Note>;

/// The changes, in the order they apply: each sees what the one before did.
const ADJUSTMENTS: [Adjustment; 4] = [yolo, on_error_ask, no_human, on_ask_block];

/// Applies [`ADJUSTMENTS`]; a verdict comes back only when one of them
/// changed it.
pub(super) fn finish(cx: &mut Context<'_>) -> Step {
    let Some(given) = &cx.verdict else {
        return layers::pass(cx, "no verdict to change");
    };
    let mut verdict = Cow::Borrowed(given);
    let mut notes: Vec<Note> = ADJUSTMENTS
        .iter()
        .filter_map(|adjust| adjust(cx, &mut verdict))
        .collect();
    if notes.is_empty() && cx.explaining {
        notes.push(cx.note(|| {
            format!(
                "nothing to change (yolo {}, {}, --on-ask {})",
                if cx.yolo() { "on" } else { "off" },
                if cx.options.unattended.is_some() {
                    "no human present"
                } else {
                    "a human may answer"
                },
                match cx.options.on_ask {
                    OnAsk::Ask => "ask",
                    OnAsk::Block => "block",
                }
            )
        }));
    }
    Step {
        verdict: match verdict {
            Cow::Owned(changed) => Some(changed),
            Cow::Borrowed(_) => None,
        },
        notes,
    }
}

/// Yolo approves an ask from a layer of built-in or fallback judgement,
/// never a block or the user's own ask rule.
fn yolo(cx: &Context<'_>, verdict: &mut Cow<'_, Verdict>) -> Option<Note> {
    let lifted = matches!(
        verdict.layer,
        Layer::Dangerous | Layer::Mode | Layer::Threshold
    );
    if verdict.decision != Decision::Ask || !lifted || !cx.yolo() {
        return None;
    }
    verdict.to_mut().change(Decision::Allow, Change::Yolo);
    Some("yolo approves this ask".into())
}

/// `on_error: ask`: while a policy file is broken, nothing is allowed
/// without a person.
fn on_error_ask(cx: &Context<'_>, verdict: &mut Cow<'_, Verdict>) -> Option<Note> {
    let settings = &cx.policy.settings;
    if verdict.decision != Decision::Allow
        || !cx.policy.broken
        || settings.on_error != Some(OnError::Ask)
    {
        return None;
    }
    *verdict = Cow::Owned(Verdict::new(
        Decision::Ask,
        Layer::Config,
        Some("config.invalid".into()),
        "",
        Reason::PolicyPartlyRead {
            problem: layers::first_problem(cx),
        },
    ));
    Some("on_error: ask turns this allow into an ask".into())
}

/// With no human to answer, an ask becomes what the matching Hermes
/// setting says (deny by default).
fn no_human(cx: &Context<'_>, verdict: &mut Cow<'_, Verdict>) -> Option<Note> {
    let why = cx
        .options
        .unattended
        .filter(|_| verdict.decision == Decision::Ask)?;
    let settings = &cx.policy.settings;
    let (setting, name) = match why {
        NoHuman::Cron => (settings.cron_mode, "cron_mode"),
        NoHuman::SingleQuery => (settings.single_query_mode, "single_query_mode"),
        NoHuman::Unattended => (settings.unattended_mode, "unattended_mode"),
    };
    // A user's ask rule means "a person decides": with nobody there it
    // cannot become an approval.
    let approve = setting == Some(Unattended::Approve) && verdict.layer != Layer::User;
    let to = if approve {
        Decision::Allow
    } else {
        Decision::Block
    };
    let change = Change::NoHuman {
        setting: name,
        approve,
    };
    verdict.to_mut().change(to, change);
    Some(cx.note(|| {
        let verb = if approve { "approves" } else { "denies" };
        format!("no human present: approvals.{name} {verb} this ask")
    }))
}

/// `--on-ask block`, for agents that would let an ask through.
fn on_ask_block(cx: &Context<'_>, verdict: &mut Cow<'_, Verdict>) -> Option<Note> {
    if verdict.decision != Decision::Ask || cx.options.on_ask != OnAsk::Block {
        return None;
    }
    verdict.to_mut().change(Decision::Block, Change::OnAskBlock);
    Some("--on-ask block turns this ask into a block".into())
}
