use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let env = warden::cli::Env::from_process();
    let outcome = warden::cli::run(&args, &mut std::io::stdin().lock(), &env);
    // Nothing useful can be done if the agent closed our pipes.
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    std::process::exit(outcome.code);
}
