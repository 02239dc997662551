//! Hook mode: one payload on stdin, one verdict line on stdout, and a block for anything that cannot be read.

use std::io::Read;

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::engine::{self, OnAsk, Options};
use crate::error::Error;
use crate::payload;
use crate::verdict::{Change, Decision, Dialect, Layer, Offer, Reason, Verdict};

/// The most stdin warden reads in hook mode. Real payloads are a few KiB;
/// anything past this is refused (blocked) rather than buffered.
pub const MAX_PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

/// The dialect and the ask policy the flags ask for.
pub(super) fn settings(parsed: &Parsed) -> (Option<Dialect>, OnAsk) {
    let dialect = parsed.value("--agent").and_then(Dialect::parse);
    let on_ask = match parsed.value("--on-ask") {
        Some("block") => OnAsk::Block,
        _ => OnAsk::Ask,
    };
    (dialect, on_ask)
}

pub(super) fn run(parsed: &Parsed, env: &Env, io: &mut Io<'_>) -> Result<Outcome, Error> {
    Ok(judge(parsed, env, io.stdin))
}

fn judge(parsed: &Parsed, env: &Env, stdin: &mut dyn Read) -> Outcome {
    let (dialect, on_ask) = settings(parsed);
    let read = read_payload(stdin).and_then(|text| Ok((payload::parse(&text)?, text)));
    let (call, text) = match read {
        Ok(read) => read,
        Err(err) => {
            return Outcome {
                stdout: unreadable(&err, dialect),
                stderr: format!("warden: {err}\n"),
                code: 0,
                audit: None,
            };
        }
    };
    let mut stderr = String::new();
    // Other events carry nothing to judge: no policy to load.
    let (options, locations) = if call.is_pre_tool() {
        let (options, _, locations) = env.options(env.session_dir(&call).as_deref(), &mut stderr);
        (options, Some(locations))
    } else {
        (Options::default(), None)
    };
    let options = Options { on_ask, ..options };
    env.provoke(&call);
    let mut verdict = engine::evaluate(&call, &options);
    let dialect = dialect.unwrap_or(call.agent.dialect());
    if let (true, Some(state)) = (
        verdict.asked_as_block(dialect),
        locations.as_ref().and_then(|l| l.state_dir.as_deref()),
    ) {
        let home = options.home.as_deref();
        once(&mut verdict, &call, &text, home, state, &mut stderr);
    }
    let line = verdict.render(dialect);
    let audit = locations.and_then(|locations| {
        env.audit_pending(&options.policy.settings, &locations, || {
            crate::audit::Entry::new(&call, &verdict, std::time::SystemTime::now())
        })
    });
    Outcome {
        stdout: format!("{line}\n"),
        stderr,
        code: 0,
        audit,
    }
}

/// An ask the agent gets as a block: allowed, when the person approved
/// this very call with `warden allow-once` (the approval is spent), else
/// offered for approval with a code. A store that cannot be used approves
/// nothing and offers nothing; the block stands.
fn once(
    verdict: &mut Verdict,
    call: &payload::ToolCall,
    text: &str,
    home: Option<&str>,
    state: &std::path::Path,
    stderr: &mut String,
) {
    let input = Some(text)
        .filter(|_| call.command().is_none())
        .and_then(payload::arguments_value);
    let once = crate::once::Call::of(call, input.as_ref(), home);
    let mut notes = Vec::new();
    let settled = crate::once::Store::new(state).settle(&once, crate::once::unix_now(), &mut notes);
    for note in notes {
        stderr.push_str(&note);
        stderr.push('\n');
    }
    match settled {
        Ok(crate::once::Settled::Allowed(record)) => {
            verdict.change(Decision::Allow, Change::AllowedOnce { code: record.code });
            verdict.layer = Layer::AllowOnce;
        }
        Ok(crate::once::Settled::Offered(code)) => {
            verdict.once = Some(Offer {
                code,
                minutes: crate::once::OFFERED_FOR.as_secs() / 60,
            });
        }
        Err(err) => {
            stderr.push_str(&format!(
                "warden: allow-once cannot be offered ({err}); the call stays blocked\n"
            ));
        }
    }
}

/// The block line for a payload that cannot be read. It names no agent:
/// without --agent, the block is written in a form every agent reads.
pub(super) fn unreadable(err: &Error, dialect: Option<Dialect>) -> String {
    let verdict = Verdict::input_block(
        err.id(),
        Reason::Unreadable {
            error: err.to_string(),
        },
    );
    let line = match dialect {
        Some(dialect) => verdict.render(dialect),
        None => verdict.render_for_any_agent(),
    };
    format!("{line}\n")
}

/// The block for a hook started with arguments warden does not understand:
/// a registered hook with a typo must still protect, so the call is
/// refused, in a form every agent reads.
pub(super) fn bad_start(err: &Error) -> String {
    let verdict = Verdict::input_block(
        err.id(),
        Reason::BadStart {
            error: err.to_string(),
        },
    );
    format!("{}\n", verdict.render_for_any_agent())
}

fn read_payload(stdin: &mut dyn Read) -> Result<String, Error> {
    let mut bytes = Vec::new();
    stdin
        .take(MAX_PAYLOAD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            what: "stdin".into(),
            source,
        })?;
    if bytes.len() > MAX_PAYLOAD_BYTES {
        return Err(Error::PayloadTooLarge {
            limit: MAX_PAYLOAD_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| Error::PayloadNotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}
