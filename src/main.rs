//! The warden executable: reads the environment and stdin, runs the library, prints what it returns.

use std::io::Write;

fn main() {
    // With panic = "abort" nothing unwinds: a bug must still leave a block
    // verdict on stdout, because agents treat a crashed hook as "no opinion".
    std::panic::set_hook(Box::new(|info| {
        let line = warden::cli::panic_verdict(&info.to_string());
        let _ = std::io::stdout().write_all(line.as_bytes());
        let _ = writeln!(std::io::stderr(), "warden: internal error: {info}");
        std::process::exit(0);
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let env = warden::cli::Env::from_process();
    let outcome = warden::cli::run(&args, &mut std::io::stdin().lock(), &env);
    // Nothing useful can be done if the agent closed our pipes.
    let mut stdout = std::io::stdout();
    let _ = stdout
        .write_all(outcome.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    let late = outcome.after_verdict();
    let _ = std::io::stderr().write_all(format!("{}{late}", outcome.stderr).as_bytes());
    std::process::exit(outcome.code);
}
