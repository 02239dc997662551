//! The one error type of the library; every variant says what it concerns.

/// Everything that can go wrong while reading a payload or deciding on it.
///
/// The hook turns every error into a block verdict (fail closed), so each
/// message must make sense to a person reading the agent's transcript.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("payload is larger than the {limit}-byte limit")]
    PayloadTooLarge { limit: usize },
    #[error("payload is not valid UTF-8 (invalid byte at offset {offset})")]
    PayloadNotUtf8 { offset: usize },
    #[error("payload is empty")]
    PayloadEmpty,
    #[error("payload is not valid JSON: {0}")]
    PayloadJson(String),
    #[error("payload field `{field}` is {problem}")]
    PayloadField {
        field: &'static str,
        problem: String,
    },
    #[error("could not read {what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("usage: {0}")]
    Usage(String),
    /// A policy source that cannot be used; `line` is 1-based when known.
    #[error("{path}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Config {
        path: String,
        line: Option<usize>,
        message: String,
    },
    /// The compiled-policy cache or the integrity ledger could not be used.
    #[error("{path}: {message}")]
    State { path: String, message: String },
}

impl Error {
    /// A stable id for the input-failure verdicts, in the same `group.name`
    /// form as rule ids, so logs and fixtures can name the failure.
    pub fn id(&self) -> &'static str {
        match self {
            Error::PayloadTooLarge { .. } => "input.too-large",
            Error::PayloadNotUtf8 { .. } => "input.not-utf8",
            Error::PayloadEmpty => "input.empty",
            Error::PayloadJson(_) => "input.malformed-json",
            Error::PayloadField { .. } => "input.bad-field",
            Error::Io { .. } => "input.unreadable",
            Error::Usage(_) => "cli.usage",
            Error::Config { .. } => "config.invalid",
            Error::State { .. } => "config.state",
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
