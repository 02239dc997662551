//! The one integration-test binary: each module lists its tests, and libtest-mimic runs them all.
//!
//! Tests are named `module::name` (fixtures `fixtures::<group>/<case>`), so
//! `cargo test --test warden -- policy::` or `-- fixtures::hardline/` runs a
//! subset. A test is a plain function that panics on failure; a module's
//! `tests!` line lists it, and a function left off that list is dead code,
//! which clippy rejects, so no test can be written and silently never run.

use libtest_mimic::{Arguments, Trial};

/// Lists a module's test functions as `pub fn tests() -> Vec<Trial>`, each
/// named `module::function`; after a `;`, functions that return more trials
/// (one per data file) are added to the list.
macro_rules! tests {
    ($($name:ident),* $(,)? $(; $($more:ident),+ $(,)?)?) => {
        pub fn tests() -> Vec<libtest_mimic::Trial> {
            let module = crate::support::module_name(module_path!());
            let plain = [$(
                libtest_mimic::Trial::test(
                    format!("{module}::{}", stringify!($name)),
                    || {
                        $name();
                        Ok(())
                    },
                )
            ),*];
            plain.into_iter()$($(.chain($more()))+)?.collect()
        }
    };
}

mod analyze;
mod arguments;
mod audit;
mod bad_input;
mod cli;
mod concurrency;
mod contexts;
mod copilot;
mod corpus;
mod docs;
mod expansions;
mod files;
mod fixtures;
mod gemini;
mod grants;
mod hooks;
mod json_schema;
mod layout;
mod ledger;
mod loosening;
mod once;
mod opencode;
mod policy;
mod robustness;
mod rules;
mod safer;
mod schemas;
mod setup;
mod soak;
mod support;
mod syslog;
mod uninstall;

fn main() {
    let mut args = Arguments::from_args();
    // Some tests wait (for a file to settle, for a cache entry to age): with
    // one thread per core they would hold a core idle, so twice as many
    // threads run, unless `--test-threads` says otherwise.
    if args.test_threads.is_none() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        args.test_threads = Some(2 * cores);
    }
    let trials: Vec<Trial> = [
        analyze::tests(),
        arguments::tests(),
        audit::tests(),
        bad_input::tests(),
        cli::tests(),
        concurrency::tests(),
        copilot::tests(),
        corpus::tests(),
        docs::tests(),
        expansions::tests(),
        files::tests(),
        fixtures::tests(),
        gemini::tests(),
        grants::tests(),
        hooks::tests(),
        json_schema::tests(),
        layout::tests(),
        ledger::tests(),
        loosening::tests(),
        once::tests(),
        opencode::tests(),
        policy::tests(),
        robustness::tests(),
        rules::tests(),
        safer::tests(),
        schemas::tests(),
        setup::tests(),
        soak::tests(),
        syslog::tests(),
        uninstall::tests(),
    ]
    .into_iter()
    .flatten()
    .collect();
    libtest_mimic::run(&args, trials).exit();
}
