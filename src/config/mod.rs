//! User policy: where it comes from, what it says, how it is compiled, cached and guarded.
//!
//! * [`sources`]: which files hold policy for a call, and reading them;
//!   [`settle`]: reading them again while one is in the middle of a save;
//! * [`model`]: the types every source is read into and the cache stores;
//! * [`spec`]: the per-tool rule syntax (`terminal(git:*)`, `write_file(src/**)`)
//!   and the `rules:` sections of the YAML formats;
//! * [`warden_file`], [`plugin`], [`hermes`]: one parser per source format,
//!   each depending on [`yaml`] (lines, `file:line` errors, shared serde
//!   readers) and [`spec`] (rule entries), never on another parser;
//! * [`policy`]: the compiled policy and matching a call against it, with
//!   [`pattern`] for globs, regexes and the literals rules are indexed by,
//!   and [`table`] for the encoded rules and their index as the cache holds them;
//! * [`review`] and [`grants`]: what `warden lint` and `warden doctor` say
//!   about rules beyond their syntax;
//! * [`standing`]: whether a source may loosen the guard or only tighten it,
//!   and [`trusted`]: the project files the person trusted;
//! * [`environment`]: the variables that move a policy location, honoured
//!   only where an agent could not have chosen the place;
//! * [`compile`]: the sources read for a call parsed and merged into one policy;
//! * [`load`]: from sources to one policy through the [`cache`] (bincode,
//!   keyed by SHA-256, sealed with this user's key by [`seal`], trusted
//!   between edits by [`fingerprint`]s) and the [`ledger`].

mod audit_doc;
pub(crate) mod cache;
mod compile;
pub mod environment;
mod fingerprint;
pub mod grants;
mod haystack;
pub(crate) mod hermes;
mod ledger;
pub mod load;
pub mod model;
mod pattern;
pub(crate) mod plugin;
pub mod policy;
pub mod review;
pub(crate) mod seal;
mod settle;
mod sources;
pub(crate) mod spec;
pub mod standing;
mod table;
pub mod trusted;
pub(crate) mod warden_file;
mod yaml;

#[cfg(test)]
mod tests;
