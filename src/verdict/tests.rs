//! Tests of verdicts: each dialect's rendering, the lead word after changes, clipping, grants, offers and the safer way.

use super::*;
use serde_json::Value;

fn ask() -> Verdict {
    Verdict::new(
        Decision::Ask,
        Layer::Dangerous,
        Some("git.force-push".into()),
        "git push -f",
        Reason::BuiltIn {
            category: "git force push short flag (rewrites remote history)",
            why: "it replaces history on the remote",
            leads: Vec::new(),
        },
    )
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
    assert!(reason.starts_with("Needs approval:") && reason.contains("run it yourself"));
    assert_eq!(out.as_object().unwrap().len(), 3);
}

#[test]
fn gemini_gets_a_deny_for_a_block_and_for_an_ask() {
    let v: Value = serde_json::from_str(&ask().render(Dialect::Gemini)).unwrap();
    assert_eq!(v["decision"], "deny");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.starts_with("Needs approval:") && reason.contains("run it yourself"));
    assert_eq!(v.as_object().unwrap().len(), 2);
    let mut blocked = ask();
    blocked.change(Decision::Block, Change::OnAskBlock);
    let v: Value = serde_json::from_str(&blocked.render(Dialect::Gemini)).unwrap();
    assert_eq!(v["decision"], "deny");
    assert!(v["reason"].as_str().unwrap().starts_with("Blocked:"));
}

#[test]
fn copilot_gets_a_deny_a_real_ask_saying_what_copilot_p_does_and_allow_only_from_the_user() {
    let v: Value = serde_json::from_str(&ask().render(Dialect::Copilot)).unwrap();
    assert_eq!(v["permissionDecision"], "ask");
    let reason = v["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.starts_with("Needs approval:") && reason.contains("`copilot -p`"));
    assert_eq!(v.as_object().unwrap().len(), 2);
    let mut blocked = ask();
    blocked.change(Decision::Block, Change::OnAskBlock);
    let v: Value = serde_json::from_str(&blocked.render(Dialect::Copilot)).unwrap();
    assert_eq!(v["permissionDecision"], "deny");
    assert!(v["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .starts_with("Blocked:"));
    let granted: Value =
        serde_json::from_str(&allow(Layer::User).render(Dialect::Copilot)).unwrap();
    assert_eq!(granted["permissionDecision"], "allow");
    assert_eq!(allow(Layer::Mode).render(Dialect::Copilot), "{}");
}

#[test]
fn opencode_gets_a_block_for_a_block_and_for_an_ask() {
    let v: Value = serde_json::from_str(&ask().render(Dialect::OpenCode)).unwrap();
    assert_eq!(v["action"], "block");
    let message = v["message"].as_str().unwrap();
    assert!(message.starts_with("Needs approval:") && message.contains("run it yourself"));
    assert!(message.contains("OpenCode cannot ask"), "{message}");
    assert_eq!(v.as_object().unwrap().len(), 2);
    let mut blocked = ask();
    blocked.change(Decision::Block, Change::OnAskBlock);
    let v: Value = serde_json::from_str(&blocked.render(Dialect::OpenCode)).unwrap();
    assert_eq!(v["action"], "block");
    assert!(v["message"].as_str().unwrap().starts_with("Blocked:"));
}

#[test]
fn native_carries_layer_and_rule() {
    let v: Value = serde_json::from_str(&ask().render(Dialect::Native)).unwrap();
    assert_eq!(v["action"], "ask");
    assert_eq!(v["layer"], "dangerous");
    assert_eq!(v["rule_id"], "git.force-push");
}

#[test]
fn the_lead_follows_the_final_decision() {
    let mut v = ask();
    assert!(v
        .message()
        .starts_with("Needs approval: `git push -f` is git force push"));
    v.change(Decision::Block, Change::OnAskBlock);
    let text = v.message();
    assert!(text.starts_with("Blocked: `git push -f`"), "{text}");
    assert!(
        text.contains("(warden rule git.force-push). (Blocked rather than asked: "),
        "{text}"
    );
}

#[test]
fn long_subjects_are_clipped_to_one_line() {
    assert_eq!(clip("a\nb", 10), "a b");
    assert_eq!(clip(&"x".repeat(200), 160).chars().count(), 161);
    assert_eq!(clip("ab", 2), "ab");
    // The borrowed shortcut agrees with the character walk it skips.
    for text in ["ab", "a\u{7f}b", "a\tb", "é", "abc", "ab~", ""] {
        for max in 0..4 {
            let walked: String = text
                .chars()
                .enumerate()
                .take_while(|(n, _)| *n <= max)
                .map(|(n, c)| match (n == max, c.is_control()) {
                    (true, _) => '…',
                    (false, true) => ' ',
                    (false, false) => c,
                })
                .collect();
            assert_eq!(clip(text, max), walked, "{text:?} {max}");
        }
    }
}

#[test]
fn other_events_are_no_opinion_for_claude_and_codex() {
    let v = Verdict::new(
        Decision::Allow,
        Layer::Default,
        None,
        "",
        Reason::OtherEvent {
            event: "PostToolUse".into(),
        },
    );
    for dialect in [
        Dialect::Hermes,
        Dialect::Claude,
        Dialect::Codex,
        Dialect::Gemini,
        Dialect::Copilot,
        Dialect::OpenCode,
    ] {
        assert_eq!(v.render(dialect), "{}", "{dialect:?}");
    }
}

fn allow(layer: Layer) -> Verdict {
    Verdict::new(
        Decision::Allow,
        layer,
        Some("user.allow-1".into()),
        "git status",
        Reason::NoMatch { tool: None },
    )
}

#[test]
fn no_objection_is_no_opinion() {
    for layer in [Layer::Default, Layer::Mode, Layer::Config] {
        for dialect in [
            Dialect::Hermes,
            Dialect::Claude,
            Dialect::Codex,
            Dialect::Gemini,
            Dialect::Copilot,
            Dialect::OpenCode,
        ] {
            assert_eq!(allow(layer).render(dialect), "{}", "{layer:?} {dialect:?}");
        }
    }
    assert!(allow(Layer::Default)
        .render(Dialect::Native)
        .contains(r#""action":"allow""#));
}

#[test]
fn only_the_users_allow_rule_grants_and_only_to_claude_and_copilot() {
    let granted = allow(Layer::User).render(Dialect::Claude);
    assert!(
        granted.contains(r#""permissionDecision":"allow""#),
        "{granted}"
    );
    assert_eq!(allow(Layer::User).render(Dialect::Codex), "{}");
    assert_eq!(allow(Layer::User).render(Dialect::Hermes), "{}");
    assert_eq!(allow(Layer::User).render(Dialect::Gemini), "{}");
    assert_eq!(allow(Layer::User).render(Dialect::OpenCode), "{}");
    // An ask approved by post-processing (yolo, no human) is not the
    // user's rule: Claude's own checks still run.
    let mut approved = ask();
    approved.layer = Layer::User;
    approved.change(Decision::Allow, Change::Yolo);
    assert_eq!(approved.render(Dialect::Claude), "{}");
    assert_eq!(approved.render(Dialect::Copilot), "{}");
}

#[test]
fn only_an_ask_that_reaches_the_agent_as_a_block_is_offered() {
    let mut blocked = ask();
    blocked.change(Decision::Block, Change::OnAskBlock);
    assert!(blocked.asked_as_block(Dialect::Hermes));
    assert!(ask().asked_as_block(Dialect::Codex));
    assert!(ask().asked_as_block(Dialect::Gemini));
    assert!(ask().asked_as_block(Dialect::Copilot));
    assert!(ask().asked_as_block(Dialect::OpenCode));
    for d in [Dialect::Hermes, Dialect::Claude, Dialect::Native] {
        assert!(!ask().asked_as_block(d), "{d:?}");
    }
    let mut floor = ask();
    (floor.decision, floor.layer) = (Decision::Block, Layer::Hardline);
    assert!(!floor.asked_as_block(Dialect::Codex));
    floor.changes.push(Change::OnAskBlock);
    assert!(!floor.asked_as_block(Dialect::Hermes));
    let mut offered = ask();
    offered.once = Some(Offer {
        code: "K7M2QX".into(),
        minutes: 10,
    });
    let v: Value = serde_json::from_str(&offered.render(Dialect::Codex)).unwrap();
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains(
            "yourself in a terminal. To let this one call run once, run `warden allow-once K7M2QX`"
        ),
        "{reason}"
    );
}

#[test]
fn on_ask_block_says_how_to_run_it() {
    let mut v = ask();
    v.change(Decision::Block, Change::OnAskBlock);
    let out: Value = serde_json::from_str(&v.render(Dialect::Hermes)).unwrap();
    assert_eq!(out["action"], "block");
    assert!(out["message"].as_str().unwrap().contains("run it yourself"));
}

#[test]
fn the_safer_way_follows_the_finding_in_every_dialect() {
    let mut v = ask().with_safer(Some(Cow::Borrowed("Use `git push --force-with-lease`.")));
    v.change(Decision::Block, Change::OnAskBlock);
    let text = v.message();
    assert!(
        text.contains("(warden rule git.force-push). Safer: Use `git push --force-with-lease`. (Blocked rather than asked: "),
        "{text}"
    );
    for dialect in Dialect::ALL {
        let line = ask()
            .with_safer(Some(Cow::Borrowed("Use `--force-with-lease`.")))
            .render(dialect);
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.contains("(warden rule git.force-push). Safer: Use `--force-with-lease`"),
            "{dialect:?}: {line}"
        );
    }
    assert!(!ask().message().contains("Safer:"));
}

#[test]
fn a_users_safer_way_is_one_line_and_a_sentence() {
    let said = |text: &str| {
        ask()
            .with_safer(Some(Cow::Owned(text.to_string())))
            .safer_text()
            .map(|t| t.into_owned())
    };
    assert_eq!(
        said("use staging\nfirst").as_deref(),
        Some("use staging first.")
    );
    assert_eq!(said("  Ask Ana!  ").as_deref(), Some("Ask Ana!"));
    assert_eq!(said("   "), None);
    assert_eq!(said(&"x".repeat(400)).map(|t| t.chars().count()), Some(302));
}
