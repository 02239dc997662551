//! The warden executable: reads the environment and stdin, runs the library, prints what it returns.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by whichever of the run, the deadline and the panic hook answers
/// first: exactly one verdict line is ever printed.
static ANSWERED: AtomicBool = AtomicBool::new(false);

fn main() {
    // With panic = "abort" nothing unwinds: a bug must still leave a block
    // verdict on stdout, because agents treat a crashed hook as "no opinion".
    std::panic::set_hook(Box::new(|info| {
        if !ANSWERED.swap(true, Ordering::SeqCst) {
            let line = warden::cli::panic_verdict(&info.to_string());
            let _ = std::io::stdout().write_all(line.as_bytes());
        }
        let _ = writeln!(std::io::stderr(), "warden: internal error: {info}");
        std::process::exit(0);
    }));
    // An argument that is not UTF-8 is a usage error, not a crash.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let env = warden::cli::Env::from_process();
    if let Some(deadline) = warden::cli::deadline(&args, &env) {
        // A payload that never ends, or a decision that never does, must
        // still end in a block before the agent's own timeout lets it run.
        std::thread::spawn(move || {
            std::thread::sleep(deadline.after);
            if !ANSWERED.swap(true, Ordering::SeqCst) {
                let _ = std::io::stdout().write_all(deadline.stdout.as_bytes());
                let _ = std::io::stderr().write_all(deadline.stderr.as_bytes());
                std::process::exit(0);
            }
        });
    }
    // Not `stdout.lock()`: the deadline's thread must be able to print
    // while this one is still waiting for stdin.
    let mut stdout = std::io::stdout();
    let outcome =
        warden::cli::run_streaming(&args, &mut std::io::stdin().lock(), &mut stdout, &env);
    if ANSWERED.swap(true, Ordering::SeqCst) {
        // The deadline is printing its block and exiting.
        loop {
            std::thread::park();
        }
    }
    // Nothing useful can be done if the agent closed our pipes.
    let _ = stdout
        .write_all(outcome.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    let late = outcome.after_verdict();
    let _ = std::io::stderr().write_all(format!("{}{late}", outcome.stderr).as_bytes());
    std::process::exit(outcome.code);
}
