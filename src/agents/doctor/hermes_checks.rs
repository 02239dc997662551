//! `warden doctor` for Hermes: warden's entry in config.yaml, the other files Hermes takes hooks from, the consent it records, and what the installed Hermes does with an approve and a crash.

use std::path::Path;

use serde_json::json;

use super::{install_fix, matches_tool, round_trip, Check, Status};
use crate::agents::{command_words, files, hermes, hermes_yaml, is_warden, Agent, Homes};

/// Hermes reads warden from its config.yaml: the entry must be there in the
/// list shape Hermes reads, cover the terminal tool, not be overridden by a
/// managed config, have consent, and suit what the installed Hermes does
/// with an approve and a crash; then the registered command is run.
pub(super) fn checks(homes: &Homes, checks: &mut Vec<Check>) {
    let agent = Some(Agent::Hermes);
    let Some(home) = &homes.hermes_home else {
        checks.push(Check::new(
            agent,
            Status::Fail,
            "HOME and HERMES_HOME are unset",
        ));
        return;
    };
    let config = hermes::config_file(home);
    let text = files::read_optional(&config)
        .ok()
        .flatten()
        .unwrap_or_default();
    let entry = match hermes_entry(&config, &text) {
        Ok(entry) => entry,
        Err(check) => {
            checks.push(check);
            return;
        }
    };
    let matcher = entry.matcher.as_deref().unwrap_or(".*");
    checks.push(if matches_tool(matcher, "terminal", true) {
        Check::new(
            agent,
            Status::Pass,
            format!(
                "registered in {} for `{matcher}`: {}",
                config.display(),
                entry.command
            ),
        )
    } else {
        Check::new(
            agent,
            Status::Fail,
            format!(
                "registered in {}, but its matcher `{matcher}` misses the terminal tool",
                config.display()
            ),
        )
        .fix(install_fix(Agent::Hermes))
    });
    hermes_elsewhere(homes, home, checks);
    checks.push(hermes_consent(home, &text, &entry.command));
    hermes_support(homes, &entry, checks);
    if homes.hermes_safe_mode {
        checks.push(Check::new(
            agent,
            Status::Warn,
            "HERMES_SAFE_MODE is set in this environment: Hermes started here runs no hook",
        ));
    }
    let payload = |command: &str| {
        json!({"hook_event_name": "pre_tool_call", "tool_name": "terminal",
               "tool_input": {"command": command}, "session_id": "doctor", "cwd": "/tmp"})
    };
    round_trip(
        homes,
        Agent::Hermes,
        &entry.command,
        &payload,
        |v| v["action"] == "block",
        |v| !matches!(v["action"].as_str(), Some("block" | "approve")),
        checks,
    );
}

/// warden's entry among the hooks of Hermes' `config` (its `text`), or the
/// check saying why Hermes runs none: a shape it skips, or no warden there.
fn hermes_entry(config: &Path, text: &str) -> Result<hermes_yaml::Found, Check> {
    let agent = Some(Agent::Hermes);
    match hermes_yaml::hooks(text) {
        Err(shape) => Err(Check::new(
            agent,
            Status::Fail,
            format!("{}: {shape}", config.display()),
        )
        .fix(format!(
            "{} (rewrites it as the list Hermes reads)",
            install_fix(Agent::Hermes)
        ))),
        Ok(hooks) => hooks
            .into_iter()
            .find(|h| is_warden(&h.command))
            .ok_or_else(|| {
                Check::new(
                    agent,
                    Status::Fail,
                    format!("warden is not registered in {}", config.display()),
                )
                .fix(install_fix(Agent::Hermes))
            }),
    }
}

/// The other files Hermes may take hooks from: a managed config.yaml whose
/// hooks replace the user's, and cli-config.yaml, which it never reads for
/// hooks.
fn hermes_elsewhere(homes: &Homes, home: &Path, checks: &mut Vec<Check>) {
    let agent = Some(Agent::Hermes);
    let managed = homes.hermes_managed.join("config.yaml");
    if let Ok(Some(text)) = files::read_optional(&managed) {
        if let Ok(hooks) = hermes_yaml::hooks(&text) {
            if !hooks.is_empty() && !hooks.iter().any(|h| is_warden(&h.command)) {
                checks.push(
                    Check::new(
                        agent,
                        Status::Fail,
                        format!(
                            "{} sets hooks.pre_tool_call without warden, and it replaces yours",
                            managed.display()
                        ),
                    )
                    .fix("ask the administrator to add warden's entry there"),
                );
            }
        }
    }
    let cli_config = home.join("cli-config.yaml");
    if let Ok(Some(text)) = files::read_optional(&cli_config) {
        if hermes_yaml::hooks(&text).is_ok_and(|h| !h.is_empty()) {
            checks.push(
                Check::new(
                    agent,
                    Status::Warn,
                    format!(
                        "{} has hooks, which Hermes never reads there",
                        cli_config.display()
                    ),
                )
                .fix(install_fix(Agent::Hermes)),
            );
        }
    }
}

/// Whether Hermes runs the hook without asking first: the consent it
/// records for `command`, or `hooks_auto_accept: true` in its config
/// (`text`).
fn hermes_consent(home: &Path, text: &str, command: &str) -> Check {
    let agent = Some(Agent::Hermes);
    let auto_accept = serde_yaml::from_str::<serde_yaml::Value>(text)
        .ok()
        .and_then(|doc| {
            doc.get("hooks_auto_accept")
                .and_then(serde_yaml::Value::as_bool)
        })
        == Some(true);
    if hermes::has_consent(home, command) || auto_accept {
        Check::new(agent, Status::Pass, "consent to run the hook is recorded")
    } else {
        Check::new(agent, Status::Fail, "no consent recorded: Hermes asks at its next start in a terminal, and skips the hook where no one can answer")
            .fix("answer yes when Hermes asks, or: warden install --agent hermes --accept-hooks")
    }
}

/// What the installed Hermes does with an approve and with `fail_closed`,
/// against how `entry` is registered: an ask must reach a person or be
/// blocked, and a crash must not let the call run where Hermes can help it.
fn hermes_support(homes: &Homes, entry: &hermes_yaml::Found, checks: &mut Vec<Check>) {
    let agent = Some(Agent::Hermes);
    let (program, support) = match hermes::probe(homes) {
        Ok(probed) => probed,
        Err(why) => {
            checks.push(Check::new(
                agent,
                Status::Warn,
                format!("could not ask Hermes what it supports: {why}"),
            ));
            return;
        }
    };
    let blocks_asks = on_ask(&command_words(&entry.command)) == Some("block");
    checks.push(Check::new(
        agent,
        Status::Pass,
        hermes::describe(&program, &support),
    ));
    if !support.approve && !blocks_asks {
        checks.push(Check::new(agent, Status::Fail, "this Hermes ignores approve, and the hook has no --on-ask block: what warden asks about runs unasked")
            .fix(install_fix(Agent::Hermes)));
    } else if support.approve && blocks_asks {
        checks.push(
            Check::new(
                agent,
                Status::Warn,
                "this Hermes can ask, but the hook runs with --on-ask block: asks are blocked",
            )
            .fix(install_fix(Agent::Hermes)),
        );
    }
    if support.fail_closed && entry.fail_closed != Some(true) {
        checks.push(Check::new(agent, Status::Fail, "this Hermes supports fail_closed, and the hook does not set it: a crash or timeout lets the call run")
            .fix(install_fix(Agent::Hermes)));
    }
}

/// The `--on-ask` value among a hook's command words. The hook's parser
/// lets a later flag win; so does this.
fn on_ask(words: &[String]) -> Option<&str> {
    let mut on_ask = None;
    for (i, word) in words.iter().enumerate() {
        if word == "--on-ask" {
            on_ask = words.get(i + 1).map(String::as_str);
        } else if let Some(value) = word.strip_prefix("--on-ask=") {
            on_ask = Some(value);
        }
    }
    on_ask
}
