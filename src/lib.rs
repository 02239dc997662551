//! warden decides whether an AI agent's tool call may run.
//!
//! A hook payload goes through [`payload::parse`] into a [`payload::ToolCall`];
//! [`engine::evaluate`] runs the layers (hardline floor, sudo guard, built-in
//! dangerous rules, default) over the [`shell`] analysis of the command and
//! returns a [`verdict::Verdict`], which [`verdict::Verdict::render`] writes in
//! the agent's dialect. [`cli::run`] ties these to stdin and stdout; nothing
//! in the library prints or exits.

pub mod cli;
pub mod config;
pub mod engine;
pub mod error;
pub mod path;
pub mod payload;
pub mod rules;
pub mod shell;
pub mod verdict;

pub use error::{Error, Result};
