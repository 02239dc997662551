//! Runs several programs in turn, round after round, and reports each one's median wall time, peak RSS and page faults.
//!
//! Usage: warden-measure PLAN ROUNDS
//!
//! PLAN holds one case per paragraph:
//!
//! ```text
//! case git-status/floor
//! stdin /tmp/payload.json
//! env HOME=/tmp/home
//! remove /tmp/cache/warden/policy.bin
//! run /path/to/program<TAB>arg<TAB>arg
//! ```
//!
//! `remove` names a file deleted before every run (not timed), to measure a
//! cold cache. Children see only the `env` lines. In each round every case
//! runs once, in an order shuffled per round, so a slow spell of a noisy
//! machine falls on all cases alike. One tab-separated line per case is
//! printed: name, runs, median, 10th and 90th percentile wall time (µs),
//! median peak RSS (KiB), median minor and major page faults.

use std::fs::File;
use std::process::{Command, Stdio};
use std::time::Instant;

#[repr(C)]
#[derive(Default)]
struct Timeval {
    sec: i64,
    usec: i64,
}

/// `struct rusage` on 64-bit Linux: every field after the two times is a `long`.
#[repr(C)]
#[derive(Default)]
struct Rusage {
    utime: Timeval,
    stime: Timeval,
    maxrss: i64,
    ixrss: i64,
    idrss: i64,
    isrss: i64,
    minflt: i64,
    majflt: i64,
    rest: [i64; 8],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

#[derive(Default)]
struct Case {
    name: String,
    stdin: String,
    env: Vec<(String, String)>,
    remove: Vec<String>,
    argv: Vec<String>,
    wall: Vec<f64>,
    rss: Vec<i64>,
    minflt: Vec<i64>,
    majflt: Vec<i64>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (plan, rounds) = match args.as_slice() {
        [plan, rounds] => (plan, rounds.parse::<usize>().unwrap_or(0)),
        _ => fail("usage: warden-measure PLAN ROUNDS"),
    };
    if rounds == 0 {
        fail("ROUNDS must be a positive number");
    }
    let text = std::fs::read_to_string(plan).unwrap_or_else(|e| fail(&format!("{plan}: {e}")));
    let mut cases = parse(&text);
    if cases.is_empty() {
        fail("the plan has no cases");
    }
    // One unmeasured run of each warms the page cache and writes caches.
    for case in &mut cases {
        run(case);
    }
    for case in &mut cases {
        case.wall.clear();
        case.rss.clear();
        case.minflt.clear();
        case.majflt.clear();
    }
    let mut order: Vec<usize> = (0..cases.len()).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..rounds {
        shuffle(&mut order, &mut seed);
        for &i in &order {
            run(&mut cases[i]);
        }
    }
    for case in &mut cases {
        let wall = sorted(&case.wall);
        println!(
            "{}\t{}\t{:.1}\t{:.1}\t{:.1}\t{}\t{}\t{}",
            case.name,
            wall.len(),
            pick(&wall, 0.5),
            pick(&wall, 0.1),
            pick(&wall, 0.9),
            median_int(&mut case.rss),
            median_int(&mut case.minflt),
            median_int(&mut case.majflt),
        );
    }
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut case = Case::default();
    for line in text.lines().chain(std::iter::once("")) {
        if line.trim().is_empty() {
            if !case.name.is_empty() {
                if case.argv.is_empty() || case.stdin.is_empty() {
                    fail(&format!("case {} needs `stdin` and `run`", case.name));
                }
                cases.push(std::mem::take(&mut case));
            }
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "case" => case.name = value.to_string(),
            "stdin" => case.stdin = value.to_string(),
            "env" => match value.split_once('=') {
                Some((k, v)) => case.env.push((k.to_string(), v.to_string())),
                None => fail(&format!("`env {value}` is not NAME=value")),
            },
            "remove" => case.remove.push(value.to_string()),
            "run" => case.argv = value.split('\t').map(str::to_string).collect(),
            _ => fail(&format!("unknown plan line: {line}")),
        }
    }
    cases
}

fn run(case: &mut Case) {
    for path in &case.remove {
        let _ = std::fs::remove_file(path);
    }
    let stdin = File::open(&case.stdin).unwrap_or_else(|e| fail(&format!("{}: {e}", case.stdin)));
    let mut command = Command::new(&case.argv[0]);
    command
        .args(&case.argv[1..])
        .env_clear()
        .envs(case.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let started = Instant::now();
    let child = command
        .spawn()
        .unwrap_or_else(|e| fail(&format!("{}: {e}", case.argv[0])));
    let mut status = 0;
    let mut usage = Rusage::default();
    // SAFETY: the pid is our own unreaped child; both pointers are valid for the call.
    let reaped = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    if reaped < 0 {
        fail(&format!("wait4 failed for {}", case.name));
    }
    case.wall.push(elapsed.as_secs_f64() * 1e6);
    case.rss.push(usage.maxrss);
    case.minflt.push(usage.minflt);
    case.majflt.push(usage.majflt);
}

/// Fisher–Yates with a xorshift generator: reproducible, no dependency.
fn shuffle(order: &mut [usize], seed: &mut u64) {
    for i in (1..order.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        order.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

fn pick(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn median_int(values: &mut [i64]) -> i64 {
    values.sort_unstable();
    values[values.len() / 2]
}

fn fail(message: &str) -> ! {
    eprintln!("warden-measure: {message}");
    std::process::exit(2)
}
