//! warden decides whether an AI agent's tool call may run.
//!
//! A hook payload goes through [`payload::parse`] into a [`payload::ToolCall`].
//! [`engine::evaluate`] walks [`engine::STAGES`] in order (the hardline
//! floor, input limits, the sudo guard, a broken policy, the user's rules,
//! the built-in dangerous rules, the mode, the risk threshold, the default,
//! then post-processing) over the [`shell`] analysis of the command and the
//! user's compiled policy, and returns a [`verdict::Verdict`]: data, which
//! [`verdict::Verdict::render`] writes once in the agent's dialect.
//! [`cli::run`] ties these to arguments, the environment, stdin and stdout;
//! nothing in the library prints or exits. [`agents`] registers the hook in
//! each agent's own configuration and checks that it runs there.
//!
//! [`audit`] appends a redacted line per decision, after the verdict is out,
//! when the user's config asks for it.
//!
//! [`once`] keeps the calls a person approved once (`warden allow-once`),
//! for the agents that get an ask as a block.
//!
//! Dependencies point one way: `cli` → `agents` → `once` → `audit` → `engine` → `config` →
//! `rules` → `shell`, with `payload`, `verdict`, `error`, `path`, `resolve`, `patch` and
//! `subcommands` (warden's own command line, which the floor judges too) as leaves any of
//! them may use. The policy machinery (`config`) is internal; the rest is
//! public so tests and tools can drive each step.

pub mod agents;
pub mod audit;
pub mod cli;
pub(crate) mod config;
pub mod engine;
pub mod error;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub(crate) mod gate;
pub mod heap;
pub mod once;
pub mod patch;
pub(crate) mod path;
pub mod payload;
pub mod resolve;
pub mod rules;
pub mod shell;
pub mod subcommands;
pub mod verdict;

pub use error::{Error, Result};
