//! `warden allow-once CODE`: the person, at a terminal, approves the one call a block's code names.

use super::args::Parsed;
use super::{Env, Io, Outcome};
use crate::error::Error;
use crate::once::{self, Store};

pub(super) fn run(parsed: &Parsed, env: &Env, _: &mut Io<'_>) -> Result<Outcome, Error> {
    let [code] = parsed.operands.as_slice() else {
        return Err(Error::Usage(
            "give the one code the block message showed".into(),
        ));
    };
    // An agent's tool call has no terminal, a person at a prompt does; the
    // floor refuses `warden allow-once` in an agent's command line too.
    if !env.stdin_is_terminal {
        return Ok(refused(
            "`warden allow-once` must be run by a person from a terminal (stdin is not one); nothing was approved",
            2,
        ));
    }
    let cwd = super::policy::current_dir(parsed);
    let vetted = env.vetted(cwd.as_deref());
    let Some(state) = vetted.locations.state_dir.as_deref() else {
        return Ok(refused(
            "there is no state directory (HOME and XDG_STATE_HOME are unset); nothing was approved",
            1,
        ));
    };
    let now = once::unix_now();
    Ok(match Store::new(state).approve(code, now) {
        Ok(record) => {
            let until = record.approved_until.unwrap_or(now);
            let mut out = format!("approved once: `{}`\n", record.subject);
            out.push_str(&format!(
                "  in        {}\n",
                record.dir.as_deref().unwrap_or("(no directory given)")
            ));
            out.push_str(&format!(
                "  agent     {} (tool {})",
                record.agent, record.tool
            ));
            if let Some(session) = &record.session {
                out.push_str(&format!(", session {session}"));
            }
            out.push('\n');
            out.push_str(&format!(
                "  until     {} ({} minutes): the agent's next try of this same call runs, once\n",
                once::clock(until),
                once::APPROVED_FOR.as_secs() / 60
            ));
            Outcome {
                stdout: out,
                stderr: String::new(),
                code: 0,
                audit: None,
            }
        }
        Err(refusal) => refused(&format!("{refusal}; nothing was approved"), 1),
    })
}

fn refused(why: &str, code: i32) -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: format!("warden: {why}\n"),
        code,
        audit: None,
    }
}
