//! User policy: where it comes from, what it says, how it is compiled, cached and guarded.
//!
//! * [`model`]: the types every source is read into and the cache stores;
//! * [`spec`]: the per-tool rule syntax (`terminal(git:*)`, `write_file(src/**)`);
//! * [`warden_file`], [`plugin`], [`hermes`]: one parser per source format,
//!   each depending on [`yaml`] (lines, `file:line` errors, shared serde
//!   readers) and [`spec`] (rule entries), never on another parser;
//! * [`cache`]: the bincode cache keyed by SHA-256; [`ledger`]: the integrity ledger.

pub mod cache;
pub mod fingerprint;
pub mod hermes;
pub mod ledger;
pub mod load;
pub mod model;
pub mod pattern;
pub mod plugin;
pub mod policy;
pub mod sources;
pub mod spec;
pub mod warden_file;
mod yaml;
