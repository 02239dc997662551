//! Built-in rules: the machine's resources exhausted on purpose (disks filled from endless sources or with huge files, processes started without bound, memory and CPU stressed), one row per program; and the shell loops that start processes without end, which the floor's fork-bomb rule blocks.

use once_cell::sync::Lazy;
use regex::Regex;

use super::opts::{parse_opts, Spec};
use super::{verb_if, Matcher, Rule, Verb};
use crate::shell::{Analysis, Command, RedirectOp};
use crate::verdict::Decision;

/// Files at least this large fill a disk rather than test one: bigger than
/// any swap file or test image people make (those stay at 32 GiB or less),
/// smaller than the sizes that fill a disk.
const HUGE: u128 = 40 << 30;

/// Devices that never run out of bytes.
const ENDLESS: &[&str] = &["/dev/zero", "/dev/urandom", "/dev/random"];

/// Programs that write a disk full or reserve a huge file.
#[rustfmt::skip]
static FILL: &[Verb] = &[
    verb_if("fallocate", "", |c| size_at_least(c, 'l', "length")),
    verb_if("truncate", "", |c| size_at_least(c, 's', "size")),
    verb_if("mkfile", "", mkfile_huge),
    verb_if("xfs_mkfile", "", mkfile_huge),
    // `openssl rand [-out FILE] NUM`: NUM random bytes.
    verb_if("openssl", r"^rand\b", |c| c.operands().last().and_then(|n| parse_size(n)).is_some_and(|n| n >= HUGE)),
    verb_if("dd", "", dd_fills),
    verb_if("head", "", |c| endless_input(c) && size_at_least(c, 'c', "bytes")),
    verb_if("cat", "", fills_from_endless),
    verb_if("yes", "", fills_from_endless),
    verb_if("tr", "", fills_from_endless),
    verb_if("base64", "", fills_from_endless),
    verb_if("base32", "", fills_from_endless),
    verb_if("od", "", fills_from_endless),
    verb_if("xxd", "", fills_from_endless),
    verb_if("hexdump", "", fills_from_endless),
    verb_if("pv", "", fills_from_endless),
    verb_if("tee", "", fills_from_endless),
    verb_if("cp", "", fills_from_endless),
    verb_if("gzip", "", fills_from_endless),
    verb_if("sed", "", fills_from_endless),
    verb_if("awk", "", fills_from_endless),
];

/// Programs told to run as many processes at once as they can.
#[rustfmt::skip]
static FLOOD: &[Verb] = &[
    verb_if("xargs", "", |c| unbounded_jobs(c, &XARGS, 'P', "max-procs")),
    verb_if("parallel", "", |c| (unbounded_jobs(c, &PARALLEL, 'j', "jobs") || unbounded_jobs(c, &PARALLEL, 'P', "max-procs")) && !few_inputs(c)),
];

/// Load generators, and programs that read an endless source into memory.
#[rustfmt::skip]
static LOAD: &[Verb] = &[
    verb_if("stress", "", not_help),
    verb_if("memtester", "", not_help),
    verb_if("stress-ng", "", |c| not_help(c) && !c.args.iter().any(|a| a.starts_with("--class") || a == "--stressors")),
    verb_if("tail", "", endless_input),
    verb_if("sort", "", endless_input),
    verb_if("tac", "", endless_input),
    verb_if("shuf", "", endless_input),
    verb_if("rev", "", endless_input),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "exhaustion.fill-disk",
        category: "fill a disk from an endless source or with a huge file",
        reason: "a full disk stops databases, logs, builds and logins until someone frees space",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(FILL),
        hits: &["fallocate -l 500G /tmp/fill", "fallocate --length 100GiB big.img", "truncate -s 1T huge.img", "mkfile 200g /tmp/x", "openssl rand -out big.bin 100000000000", "dd if=/dev/zero of=/tmp/fill bs=1M", "dd if=/dev/urandom of=big bs=1G count=1000", "cat /dev/zero > /tmp/fill", "cat /dev/urandom >> noise", "yes > /tmp/y.txt", "head -c 100G /dev/urandom > big.bin", "tr -dc A-Za-z < /dev/urandom > letters.txt", "base64 /dev/urandom > noise.txt", "yes | tee fill.txt", "cat /dev/zero | gzip > z.gz", "cp /dev/zero /tmp/fill"],
        misses: &["fallocate -l 1G swapfile", "sudo fallocate -l 8G /swapfile", "truncate -s 0 app.log", "truncate -s 100M sparse.img", "mkfile 1m test", "openssl rand -hex 32", "dd if=/dev/zero of=test.img bs=1M count=100", "dd if=/dev/zero of=/dev/null bs=1M", "dd if=disk.img of=copy.img", "head -c 1M /dev/urandom > sample.bin", "head -c 32 /dev/urandom | base64", "tr -dc A-Za-z0-9 < /dev/urandom | head -c 24 > pw.txt", "yes | head -n 5 > y.txt", "cat /dev/null > app.log", "yes > /dev/null", "cat notes.txt > copy.txt"],
    },
    Rule {
        id: "exhaustion.process-flood",
        category: "run as many processes at once as there is input (xargs -P 0, parallel -j 0)",
        reason: "with no limit on jobs, the process table and memory run out and the machine stops answering",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(FLOOD),
        hits: &["yes | xargs -P0 -n1 sleep 100", "seq 1 1000000 | xargs -P 0 -I{} curl -s localhost", "find / -type f | xargs --max-procs=0 -n1 md5sum", "parallel -j0 sleep ::: $(seq 100000)", "xargs -P 5000 -n1 ping -c1 < hosts.txt"],
        misses: &["xargs -P4 -n1 gzip < files.txt", "find . -name '*.log' | xargs -P 8 gzip", "seq 1 10 | xargs -n1 echo", "parallel -j4 gzip ::: *.log", "xargs -P $(nproc) -n1 gzip < files.txt", "parallel -j0 gzip ::: a.log b.log"],
    },
    Rule {
        id: "exhaustion.load",
        category: "stress memory, CPU or I/O on purpose, or read an endless source into memory",
        reason: "the machine slows to a halt or the kernel starts killing processes to free memory",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(LOAD),
        hits: &["stress --vm 8 --vm-bytes 90% --timeout 600", "stress-ng --fork 0 --timeout 60", "stress --cpu 64 --io 16", "memtester 100G 1", "tail /dev/zero", "sort /dev/urandom", "cat /dev/zero | sort"],
        misses: &["stress --help", "stress-ng --class cpu?", "tail -f app.log", "sort names.txt", "head -c 16 /dev/urandom | xxd"],
    },
    Rule {
        id: "exhaustion.runaway-loop",
        category: "a loop that starts thousands of background processes at once, or appends to a file without end",
        reason: "every turn leaves a process running or the file larger, until the process table, memory or disk runs out",
        decision: Decision::Ask,
        matcher: Matcher::Analysis(runaway_loop),
        hits: &["for i in $(seq 1 100000); do sleep 1000 & done", "for i in {1..50000}; do python3 worker.py & done", "for ((i=0; i<20000; i++)); do curl -s localhost & done", "while :; do echo AAAAAAAAAAAA >> big.log; done"],
        misses: &["for f in *.png; do optipng \"$f\" & done; wait", "for i in $(seq 1 10); do echo $i; done", "for i in {1..5}; do curl -s localhost & done; wait", "for i in {1..5000}; do echo $i; done", "echo 'for i in {1..50000}; do python3 w.py & done' > notes.txt", "while true; do date >> load.log; sleep 60; done", "for i in {1..10000}; do echo $i >> nums.txt; done"],
    },
];

// ---------------------------------------------------------------------------
// Sizes.

/// A size as `fallocate`, `truncate`, `head` and `dd` read it: a number and
/// a unit (`500G`, `100GiB`, `2t`, `1TB`), in bytes; `None` for what is not
/// a size.
fn parse_size(text: &str) -> Option<u128> {
    let text = text.trim_start_matches('+');
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number: u128 = text[..digits].parse().ok()?;
    let unit = text[digits..].to_ascii_lowercase();
    // The unit's first character, whatever its width: any text reaches here.
    let mut chars = unit.chars();
    let letter = chars.next();
    let rest = chars.as_str();
    let power = match letter {
        None | Some('c') => return Some(number),
        Some('b') if rest.is_empty() => return number.checked_mul(512),
        Some('w') if rest.is_empty() => return number.checked_mul(2),
        Some('k') => 1,
        Some('m') => 2,
        Some('g') => 3,
        Some('t') => 4,
        Some('p') => 5,
        Some('e') => 6,
        _ => return None,
    };
    let base: u128 = match rest {
        "" | "ib" => 1024,
        "b" => 1000,
        _ => return None,
    };
    number.checked_mul(base.checked_pow(power)?)
}

#[rustfmt::skip]
const SIZES: Spec = Spec::gnu("lsocnr", &["length", "size", "offset", "bytes", "lines", "reference"]);

/// The size option (`-l 500G`, `--length=500G`) asks for a huge file.
fn size_at_least(cmd: &Command, short: char, long: &str) -> bool {
    let opts = parse_opts(&cmd.args, &SIZES);
    opts.value(short)
        .or(opts.long_value(long, long.len()))
        .and_then(parse_size)
        .is_some_and(|n| n >= HUGE)
}

/// `mkfile [-nv] SIZE FILE...` (macOS).
fn mkfile_huge(cmd: &Command) -> bool {
    cmd.operands()
        .first()
        .and_then(|s| parse_size(s))
        .is_some_and(|n| n >= HUGE)
}

// ---------------------------------------------------------------------------
// Endless sources.

fn is_endless(path: &str) -> bool {
    // Every endless device is under `/dev/`: one comparison for most words.
    path.starts_with("/dev/") && ENDLESS.contains(&path)
}

/// Where output can go without filling anything.
fn is_sink(path: &str) -> bool {
    path.starts_with("/dev/") && !path.starts_with("/dev/shm/") || path.starts_with("/proc/")
}

/// A stage that stops reading after a bounded amount.
fn limits(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "head" => true,
        "dd" => cmd.args.iter().any(|a| a.starts_with("count=")),
        _ => cmd.wrapped_by("timeout"),
    }
}

/// The command itself reads an endless source: `yes`, an endless device as
/// an operand or on stdin, or an earlier stage of its pipeline doing so
/// with nothing in between that stops.
fn endless_input(cmd: &Command) -> bool {
    // An endless device is never an option word, so an argument naming
    // one is an operand: the arguments are read as they are, with no list
    // of operands made for every stage before every `head` and `tee`.
    let own = cmd.program == "yes"
        || cmd
            .args
            .iter()
            .any(|a| is_endless(a) || a.strip_prefix("if=").is_some_and(is_endless))
        || cmd
            .redirects
            .iter()
            .any(|r| r.op == RedirectOp::Read && is_endless(&r.target));
    if own {
        return !cmd.wrapped_by("timeout");
    }
    let upstream = cmd
        .upstream
        .iter()
        .rposition(|u| endless_input(u) || limits(u));
    upstream.is_some_and(|at| !limits(&cmd.upstream[at])) && !cmd.wrapped_by("timeout")
}

/// The files the command writes its output into.
fn writes_file(cmd: &Command) -> bool {
    let redirected = cmd.redirects.iter().any(|r| {
        matches!(r.op, RedirectOp::Write | RedirectOp::Append)
            && r.fd.is_none_or(|fd| fd == 1)
            && !is_sink(&r.target)
    });
    let named = match cmd.program.as_str() {
        "tee" => cmd.operands().iter().any(|o| !is_sink(o)),
        "cp" => cmd
            .operands()
            .last()
            .is_some_and(|o| !is_sink(o) && !is_endless(o)),
        _ => false,
    };
    redirected || named
}

fn fills_from_endless(cmd: &Command) -> bool {
    writes_file(cmd) && endless_input(cmd)
}

/// `dd` from an endless device (or an endless pipe) into a file, with no
/// count or a count that makes a huge file.
fn dd_fills(cmd: &Command) -> bool {
    let value = |key: &str| {
        cmd.args
            .iter()
            .find_map(|a| a.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
    };
    let into_file = match value("of") {
        Some(of) => !is_sink(of),
        None => writes_file(cmd),
    };
    if !into_file || !endless_input(cmd) {
        return false;
    }
    let block = value("bs")
        .or(value("obs"))
        .and_then(parse_size)
        .unwrap_or(512);
    match value("count") {
        None => true,
        Some(count) => parse_size(count)
            .and_then(|n| n.checked_mul(block))
            .is_none_or(|n| n >= HUGE),
    }
}

// ---------------------------------------------------------------------------
// Processes.

#[rustfmt::skip]
const XARGS: Spec = Spec::gnu("PnLsdEIeia", &["max-procs", "max-args", "max-lines", "max-chars", "delimiter", "eof", "replace", "arg-file", "process-slot-var"]);
#[rustfmt::skip]
const PARALLEL: Spec = Spec::gnu("jPnLsdEIaS", &["jobs", "max-procs", "max-args", "max-lines", "delimiter", "arg-file", "sshlogin", "timeout", "load", "memfree", "delay", "results", "joblog", "tagstring", "colsep"]);

/// Job limits above this are no limit on any machine people work on.
const MANY_JOBS: u64 = 256;

/// `-P 0` (as many as possible) or a limit in the thousands.
fn unbounded_jobs(cmd: &Command, spec: &Spec, short: char, long: &str) -> bool {
    let opts = parse_opts(&cmd.args, spec);
    opts.value(short)
        .or(opts.long_value(long, long.len()))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n == 0 || n > MANY_JOBS)
}

/// `parallel ... ::: a b c`: inputs written out, fewer than a job limit
/// would matter for, and none expanded at run time.
fn few_inputs(cmd: &Command) -> bool {
    let Some(at) = cmd.args.iter().position(|a| a == ":::") else {
        return false;
    };
    let inputs = &cmd.args[at + 1..];
    cmd.upstream.is_empty()
        && inputs.len() < MANY_JOBS as usize
        && !inputs
            .iter()
            .any(|a| a.contains("$(") || a.contains('`') || a == "::::" || a.contains(":::"))
}

fn not_help(cmd: &Command) -> bool {
    !cmd.args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-h" | "-?" | "--help" | "-V" | "--version" | "--dry-run" | "-n"
        )
    })
}

// ---------------------------------------------------------------------------
// Shell loops that start background processes.

/// A loop's keyword, the words between it and `do`, and its body.
static LOOP: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?s)\b(while|until|for)\b(.*?)\bdo\b(.*?)\bdone\b").expect("valid regex")
});
static KEYWORD: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"\b(?:while|until|for)\b").expect("valid regex"));
/// Loops looked at on one line; past this, a line is a flood of keywords,
/// not a command anyone types.
const MAX_LOOPS: usize = 64;
static BRACE_RANGE: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"\{(-?\d+)\.\.(-?\d+)").expect("valid regex"));
static C_STYLE: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"\(\(\s*\w+\s*=\s*(\d+)\s*;\s*\w+\s*<=?\s*(\d+)").expect("valid regex")
});

/// A loop counted in at least this many turns, each leaving a process
/// behind, starts more at once than a machine runs well.
const MANY_TURNS: u64 = 1000;

/// How long a loop runs.
enum Turns {
    Endless,
    Counted(u64),
}

/// Conditions that never change: `while true`, `until false`.
fn never_ends(keyword: &str, header: &str) -> Option<Turns> {
    let cond = header.trim().trim_end_matches([';', '\n']).trim();
    let always = match keyword {
        "while" => matches!(
            cond,
            "true"
                | ":"
                | "/bin/true"
                | "/usr/bin/true"
                | "[ 1 ]"
                | "[[ 1 ]]"
                | "((1))"
                | "(( 1 ))"
        ),
        "until" => matches!(cond, "false" | "/bin/false" | "/usr/bin/false" | "! true"),
        _ => cond.replace(' ', "") == "((;;))",
    };
    always.then_some(Turns::Endless)
}

/// The turns of a `for` loop over a range: `{1..N}`, `$(seq ...)`,
/// `((i=0; i<N; i++))`.
fn counted(header: &str) -> Option<Turns> {
    let span = |a: &str, b: &str| -> Option<u64> {
        let (a, b): (i64, i64) = (a.parse().ok()?, b.parse().ok()?);
        Some(b.abs_diff(a) + 1)
    };
    if let Some(c) = BRACE_RANGE.captures(header) {
        return span(&c[1], &c[2]).map(Turns::Counted);
    }
    if let Some(c) = C_STYLE.captures(header) {
        return span(&c[1], &c[2]).map(Turns::Counted);
    }
    let (_, seq) = header.split_once("seq ")?;
    let numbers: Vec<&str> = seq
        .split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter(|n| !n.is_empty() && *n != "-")
        .take(3)
        .collect();
    match numbers.as_slice() {
        [end] => span("1", end),
        [start, end] | [start, _, end] => span(start, end),
        _ => None,
    }
    .map(Turns::Counted)
}

/// The body's simple commands split at `;`, newlines and a lone `&`, each
/// with whether it runs in the background.
fn segments(body: &str) -> Vec<(&str, bool)> {
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let next = bytes.get(i + 1).copied();
        let background = b == b'&'
            && !matches!(prev, Some(b'>' | b'<' | b'&' | b'|'))
            && !matches!(next, Some(b'&' | b'>'));
        if background || b == b';' || b == b'\n' {
            out.push((&body[start..i], background));
            start = i + 1;
        }
    }
    out.push((&body[start..], false));
    out
}

/// A background command in `body` that the analysis saw run (not text an
/// `echo` prints), with no `sleep` or `wait` in the body to pace it.
fn unpaced_background(body: &str, analysis: &Analysis) -> bool {
    let first_word = |s: &str| {
        s.split_whitespace()
            .map(|w| w.trim_matches(|c| matches!(c, '(' | ')' | '{' | '}' | '"' | '\'')))
            .find(|w| !w.is_empty() && !w.contains('='))
            .unwrap_or("")
            .to_string()
    };
    let parts = segments(body);
    let paced = parts
        .iter()
        .any(|(s, bg)| !bg && matches!(first_word(s).as_str(), "sleep" | "wait" | "read"));
    let ran = |s: &str| {
        s.split_whitespace().any(|w| {
            let w = w.trim_matches(|c| matches!(c, '(' | ')' | '{' | '}' | '"' | '\''));
            let name = crate::shell::program_name(w);
            (w.starts_with('$') && analysis.commands.iter().any(|c| c.dynamic))
                || (!name.is_empty() && analysis.commands.iter().any(|c| c.program == name))
        })
    };
    !paced && parts.iter().any(|(s, bg)| *bg && ran(s))
}

/// Each loop on the line that runs unpaced, with how long it runs and its
/// body: the loop's text, shortened, for each.
fn loops<'a>(analysis: &'a Analysis) -> impl Iterator<Item = (Turns, &'a str, String)> + 'a {
    let text = &analysis.text;
    let worth = text.contains("done") && (text.contains('&') || text.contains(">>"));
    // Every keyword starts a search of its own: a loop nested in another's
    // header (`for x in $(while true; do bash & done)`) is a loop too.
    // The regexes are compiled only for a line worth reading: compiling
    // them costs more than a whole ordinary hook call.
    worth
        .then(|| KEYWORD.find_iter(text))
        .into_iter()
        .flatten()
        .take(MAX_LOOPS)
        .filter_map(|k| LOOP.captures_at(text, k.start()))
        .filter_map(|c| {
            let (keyword, header) = (c.get(1)?.as_str(), c.get(2)?.as_str());
            let body = c.get(3)?.as_str();
            let turns = never_ends(keyword, header)
                .or_else(|| (keyword == "for").then(|| counted(header)).flatten())?;
            let whole = c
                .get(0)
                .map_or("", |m| m.as_str())
                .chars()
                .take(80)
                .collect();
            Some((turns, body, whole))
        })
}

/// A body that appends to a file at every turn, unpaced: `>> big.log`.
fn unpaced_append(body: &str, analysis: &Analysis) -> bool {
    let appends = analysis.commands.iter().any(|c| {
        c.redirects
            .iter()
            .any(|r| r.op == RedirectOp::Append && !is_sink(&r.target))
    });
    let paced = segments(body).iter().any(|(s, bg)| {
        !bg && matches!(
            s.split_whitespace().next().unwrap_or(""),
            "sleep" | "wait" | "read"
        )
    });
    body.contains(">>") && appends && !paced
}

/// A loop that never ends and leaves a process running at every turn: a
/// fork bomb written as a loop (`while true; do bash & done`).
pub(super) fn endless_background_loop(analysis: &Analysis) -> Option<String> {
    loops(analysis).find_map(|(turns, body, whole)| {
        (matches!(turns, Turns::Endless) && unpaced_background(body, analysis)).then_some(whole)
    })
}

/// Thousands of background processes started at once by a counted loop, or
/// a file appended to without end.
fn runaway_loop(analysis: &Analysis) -> Option<String> {
    loops(analysis).find_map(|(turns, body, whole)| {
        let runaway = match turns {
            Turns::Counted(n) => n >= MANY_TURNS && unpaced_background(body, analysis),
            Turns::Endless => unpaced_append(body, analysis),
        };
        runaway.then_some(whole)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("500G"), Some(500 << 30));
        assert_eq!(parse_size("1TB"), Some(1_000_000_000_000));
        assert_eq!(parse_size("100GiB"), Some(100 << 30));
        assert_eq!(parse_size("2b"), Some(1024));
        assert_eq!(parse_size("+1t"), Some(1 << 40));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size("99999999999999999999999E"), None);
        // A unit that starts with a character wider than a byte (the fuzzer's
        // `bs=1\u{fffd}count=0`), and a count of blocks past u128.
        assert_eq!(parse_size("1\u{fffd}count=0"), None);
        assert_eq!(parse_size("1ék"), None);
        assert_eq!(parse_size(&format!("{}b", u128::MAX)), None);
        assert_eq!(parse_size(&format!("{}w", u128::MAX)), None);
    }

    #[test]
    fn loop_segments() {
        let s = segments(" bash & ");
        assert_eq!(s, vec![(" bash ", true), (" ", false)]);
        let s = segments(" cmd >/dev/null 2>&1 & sleep 1; ");
        assert_eq!(s[0], (" cmd >/dev/null 2>&1 ", true));
        assert!(matches!(
            counted(" i in $(seq 1 100000); "),
            Some(Turns::Counted(100000))
        ));
        assert!(matches!(counted(" i in {1..5}; "), Some(Turns::Counted(5))));
        assert!(counted(" f in *.png; ").is_none());
    }
}
