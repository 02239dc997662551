//! The warden executable: reads the environment and stdin, runs the library, prints what it returns.
//!
//! On Unix it starts without std's runtime set-up (`no_main`): that set-up
//! reads `/proc/self/maps` and installs stack-overflow handlers, a tenth of
//! what a hook call costs. What of it matters is done here: stdin, stdout
//! and stderr are made to exist and SIGPIPE is ignored. A stack overflow is
//! then a plain SIGSEGV instead of a message; docs/performance.md says so.
#![cfg_attr(unix, no_main)]

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by whichever of the run, the deadline and the panic hook answers
/// first: exactly one verdict line is ever printed.
static ANSWERED: AtomicBool = AtomicBool::new(false);

#[global_allocator]
static HEAP: warden::heap::Heap = warden::heap::Heap;

#[cfg(unix)]
#[no_mangle]
pub extern "C" fn main(_argc: std::os::raw::c_int, _argv: *const *const u8) -> std::os::raw::c_int {
    unix::set_up();
    run()
}

#[cfg(not(unix))]
fn main() {
    run();
}

fn run() -> ! {
    // A bug must still leave a block verdict on stdout, because agents treat
    // a crashed hook as "no opinion": the hook prints it and ends the run.
    // Only `check --batch` catches a panic, to block that one payload and go
    // on; a build that aborts on panic cannot, and ends the run here too.
    std::panic::set_hook(Box::new(|info| {
        if cfg!(panic = "unwind") && warden::cli::batch_catches(&info.to_string()) {
            // The batch says so on stderr, with the payload's line number.
            return;
        }
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
        arm(deadline);
    }
    // Not `stdout.lock()`: on platforms where the deadline is a thread, it
    // must be able to print while this one is still waiting for stdin.
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

/// The deadline as a timer signal: no thread to start on every call.
#[cfg(unix)]
fn arm(deadline: warden::cli::Deadline) {
    unix::arm(deadline);
}

#[cfg(not(unix))]
fn arm(deadline: warden::cli::Deadline) {
    std::thread::spawn(move || {
        std::thread::sleep(deadline.after);
        if !ANSWERED.swap(true, Ordering::SeqCst) {
            let _ = std::io::stdout().write_all(deadline.stdout.as_bytes());
            let _ = std::io::stderr().write_all(deadline.stderr.as_bytes());
            std::process::exit(0);
        }
    });
}

/// The few C calls the start-up and the deadline need (64-bit Linux and
/// macOS agree on every number and layout used here).
#[cfg(unix)]
mod unix {
    use std::os::raw::{c_char, c_int, c_long, c_short, c_void};
    use std::sync::atomic::Ordering;
    use std::sync::OnceLock;

    use super::ANSWERED;

    #[repr(C)]
    struct PollFd {
        fd: c_int,
        events: c_short,
        revents: c_short,
    }

    #[repr(C)]
    struct Timeval {
        sec: c_long,
        usec: c_long,
    }

    #[repr(C)]
    struct Itimerval {
        interval: Timeval,
        value: Timeval,
    }

    extern "C" {
        fn poll(fds: *mut PollFd, count: u64, timeout: c_int) -> c_int;
        fn open(path: *const c_char, flags: c_int, ...) -> c_int;
        fn signal(signum: c_int, handler: usize) -> usize;
        fn setitimer(which: c_int, new: *const Itimerval, old: *mut Itimerval) -> c_int;
        fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
        fn _exit(status: c_int) -> !;
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }

    const POLLNVAL: c_short = 0x20;
    const O_RDWR: c_int = 2;
    const SIGPIPE: c_int = 13;
    const SIGALRM: c_int = 14;
    const SIG_IGN: usize = 1;
    const ITIMER_REAL: c_int = 0;

    /// The verdict and message the timer prints, rendered before it is armed:
    /// a signal handler must not allocate.
    static DEADLINE: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();

    /// What std's runtime would have done that warden relies on.
    pub fn set_up() {
        let mut fds = [0, 1, 2].map(|fd| PollFd {
            fd,
            events: 0,
            revents: 0,
        });
        // SAFETY: plain system calls on our own descriptors and a valid array.
        unsafe {
            // A closed stdout must not be reused by the first file warden
            // opens (the cache, the audit log): the verdict would land there.
            if poll(fds.as_mut_ptr(), 3, 0) >= 0 {
                for fd in &fds {
                    if fd.revents & POLLNVAL != 0 {
                        open(c"/dev/null".as_ptr(), O_RDWR);
                    }
                }
            }
            // An agent that stops reading gets a write error, not a killed hook
            // that skipped its audit line.
            signal(SIGPIPE, SIG_IGN);
            // glibc gives memory back to the system whenever the top of the
            // heap is 128 KiB free and takes it again on the next large
            // allocation: in `check --batch` that was a brk(2) every third
            // payload. A process this short-lived has nothing to give back.
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            {
                const M_TRIM_THRESHOLD: c_int = -1;
                const M_MMAP_THRESHOLD: c_int = -3;
                mallopt(M_TRIM_THRESHOLD, 64 << 20);
                // Setting one threshold stops glibc from raising the other as
                // it sees large blocks freed: every large buffer would then
                // be a fresh mmap(2), faulted in page by page.
                mallopt(M_MMAP_THRESHOLD, 32 << 20);
            }
        }
    }

    pub fn arm(deadline: warden::cli::Deadline) {
        let _ = DEADLINE.set((deadline.stdout.into_bytes(), deadline.stderr.into_bytes()));
        let micros = deadline.after.as_micros();
        let timer = Itimerval {
            interval: Timeval { sec: 0, usec: 0 },
            value: Timeval {
                sec: (micros / 1_000_000) as c_long,
                // Never zero: a zero timer is a disarmed one.
                usec: ((micros % 1_000_000) as c_long).max(1),
            },
        };
        // SAFETY: `on_alarm` only does async-signal-safe work (an atomic swap,
        // write(2), _exit(2)) on data set before the timer starts.
        unsafe {
            signal(SIGALRM, on_alarm as extern "C" fn(c_int) as usize);
            setitimer(ITIMER_REAL, &timer, std::ptr::null_mut());
        }
    }

    extern "C" fn on_alarm(_: c_int) {
        if ANSWERED.swap(true, Ordering::SeqCst) {
            // The verdict is already out; let the run finish.
            return;
        }
        if let Some((stdout, stderr)) = DEADLINE.get() {
            // SAFETY: valid buffers; write(2) and _exit(2) are async-signal-safe.
            unsafe {
                write(1, stdout.as_ptr().cast(), stdout.len());
                write(2, stderr.as_ptr().cast(), stderr.len());
            }
        }
        // SAFETY: ends the process without running anything else.
        unsafe { _exit(0) }
    }
}
