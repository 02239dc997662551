//! Bad and hostile input: nothing panics, limits hold, and analysis time stays linear.

use warden::engine::{evaluate_command, Options};
use warden::verdict::{Decision, Layer};

tests![
    random_shell_fragments_never_panic,
    deep_nesting_is_blocked_not_overflowed,
    nested_quotes_and_backticks_are_bounded,
    eval_fan_out_is_bounded,
    megabyte_command_is_analysed,
    too_many_commands_is_blocked,
    over_the_length_limit_is_blocked,
    adversarial_shapes_finish,
    deep_chains_are_blocked_not_overflowed,
    nesting_within_limits_still_sees_the_command,
    fuzz_findings_stay_fixed,
];

/// A small deterministic generator, so failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

const PIECES: &[&str] = &[
    "rm",
    " -rf ",
    "/",
    "~",
    "$",
    "(",
    ")",
    "{",
    "}",
    "`",
    "'",
    "\"",
    "\\",
    "\n",
    ";",
    "&",
    "|",
    "<",
    ">",
    "<<",
    "EOF",
    "<<<",
    "$(",
    "${",
    ":-",
    "#",
    "=",
    "X",
    "eval ",
    "bash -c ",
    "sudo ",
    "find . -exec ",
    "{}",
    "\\;",
    "*",
    ",",
    "..",
    "$'\\x72'",
    "ｒｍ",
    "\u{200b}",
    "\u{1b}[31m",
    "\0",
    "for x in a; do ",
    "done",
    "f(){ ",
    "}",
    "xargs ",
    "base64 -d",
    "printf '%s' ",
    "IFS=,",
    "alias a=",
    "$((1+2))",
    "<(",
    ">(",
];

fn random_shell_fragments_never_panic() {
    let mut rng = Lcg(0x5eed);
    for _ in 0..20_000 {
        let n = (rng.next() % 40) as usize;
        let text: String = (0..n)
            .map(|_| PIECES[(rng.next() as usize) % PIECES.len()])
            .collect();
        let _ = evaluate_command(&text, &Options::default());
    }
}

fn deep_nesting_is_blocked_not_overflowed() {
    let text = "$(".repeat(10_000);
    let verdict = evaluate_command(&text, &Options::default());
    assert_eq!(verdict.decision, Decision::Block);
    assert_eq!(verdict.layer, Layer::Input);
    assert!(
        verdict.message().contains("levels deep"),
        "{}",
        verdict.message()
    );
}

fn nested_quotes_and_backticks_are_bounded() {
    for text in [
        "\"$(".repeat(5_000),
        "(".repeat(10_000),
        "{ ".repeat(10_000),
        "${x:-".repeat(10_000),
    ] {
        let verdict = evaluate_command(&text, &Options::default());
        assert_ne!(verdict.decision, Decision::Allow, "{}", &text[..20]);
    }
}

fn eval_fan_out_is_bounded() {
    let verdict = evaluate_command("x='eval $x $x $x $x'; eval $x", &Options::default());
    assert_eq!(verdict.decision, Decision::Block);
}

fn megabyte_command_is_analysed() {
    let mut text = format!("echo {}; ", "a".repeat(1_000_000));
    text.push_str("rm -rf /");
    let verdict = evaluate_command(&text, &Options::default());
    assert_eq!(verdict.rule_id.as_deref(), Some("hardline.rm-root"));
}

fn too_many_commands_is_blocked() {
    let text = "true; ".repeat(20_000);
    let verdict = evaluate_command(&text, &Options::default());
    assert_eq!(verdict.rule_id.as_deref(), Some("input.limit-exceeded"));
    assert!(
        verdict.message().contains("commands"),
        "{}",
        verdict.message()
    );
}

fn over_the_length_limit_is_blocked() {
    let text = "a".repeat(warden::shell::limits::MAX_COMMAND_BYTES + 1);
    let verdict = evaluate_command(&text, &Options::default());
    assert_eq!(verdict.decision, Decision::Block);
    assert_eq!(verdict.rule_id.as_deref(), Some("input.limit-exceeded"));
}

/// Shapes that once made the analysis quadratic or worse. The bound is a
/// tripwire for a blow-up (minutes, not milliseconds), not a timing target:
/// the real figures are in `bench/`.
fn adversarial_shapes_finish() {
    let shapes = [
        ("long pipeline", vec!["echo a"; 9000].join(" | ")),
        (
            "many quoted pieces",
            format!("echo {}", "'a'".repeat(300_000)),
        ),
        (
            "doubling variables",
            (0..40)
                .map(|i| format!("X{}=$X{i}$X{i}", i + 1))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        (
            "big value used often",
            format!(
                "X={}; echo {}",
                "a".repeat(500_000),
                vec!["$X"; 2000].join(" ")
            ),
        ),
        (
            "many heredocs",
            format!(
                "cat {}\n{}",
                (0..3000)
                    .map(|i| format!("<<E{i}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                (0..3000)
                    .map(|i| format!("x\nE{i}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        ),
        (
            "functions calling twice",
            (0..30)
                .map(|i| format!("f{i}(){{ f{}; f{}; }}; ", i + 1, i + 1))
                .collect::<String>()
                + "f0",
        ),
        ("huge brace sequence", "echo {1..1000000000}".to_string()),
        (
            // 256 files, each named in a command as long as the line: the
            // command is written once for all of them, not once each.
            "many long files in one command",
            format!("touch {}{}", "{a,b}".repeat(8), "é".repeat(4000)),
        ),
        (
            "1 MiB command",
            format!("echo {}; ls", "a".repeat((1 << 20) - 9)),
        ),
        ("10,000 nested $(", "$(".repeat(10_000)),
        (
            "interpreter calls by computed name",
            format!("python3 -c '{}'", "x[1](2)".repeat(60_000)),
        ),
        (
            "nested getattr calls",
            format!(
                "python3 -c '{}{}'",
                "getattr(os,n)(".repeat(20_000),
                ")".repeat(20_000)
            ),
        ),
        (
            "interpreter assignment chain",
            format!("python3 -c '{}getattr(os,n)'", "a=".repeat(100_000)),
        ),
        (
            "Tcl doubling variables",
            format!(
                "tclsh <<'E'\nset a x\n{}exec $a\nE",
                "set a $a$a\n".repeat(40)
            ),
        ),
        (
            "PHP variable calls",
            format!("php -r '{}'", "$f(1);".repeat(60_000)),
        ),
        (
            "Ruby sends",
            format!("ruby -e '{}'", "Kernel.send(x, 1);".repeat(30_000)),
        ),
        // Each file once quoted the whole line, or was searched for in a list
        // as long as the line.
        (
            "mv of 50,000 files",
            format!("mv {}d/", "a ".repeat(50_000)),
        ),
        (
            "rsync of 50,000 files",
            format!("rsync {}d/", "a ".repeat(50_000)),
        ),
        (
            "curl of 50,000 URLs",
            format!("curl {}", "-d x a ".repeat(25_000)),
        ),
    ];
    for (name, text) in shapes {
        let start = std::time::Instant::now();
        let _ = evaluate_command(&text, &Options::default());
        assert!(
            start.elapsed().as_secs() < 20,
            "{name} took {:?}",
            start.elapsed()
        );
    }
}

/// Chains that recurse in the analysis: each must end in a limit block, not
/// a stack overflow (which would print no verdict at all).
fn deep_chains_are_blocked_not_overflowed() {
    let chains = [
        (
            "functions",
            (0..20_000)
                .map(|i| format!("f{i}(){{ f{}; }}; ", i + 1))
                .collect::<String>()
                + "f0",
        ),
        (
            "find -exec",
            format!("find . {}-delete", "-exec find . ".repeat(5_000)),
        ),
        ("xargs", format!("{}ls", "xargs ".repeat(5_000))),
        ("parallel", format!("{}ls", "parallel ".repeat(5_000))),
        ("sudo", format!("{}ls", "sudo ".repeat(50_000))),
        ("braces", format!("echo {}", "{a,b}".repeat(50_000))),
    ];
    for (name, text) in chains {
        let verdict = evaluate_command(&text, &Options::default());
        assert_eq!(
            verdict.rule_id.as_deref(),
            Some("input.limit-exceeded"),
            "{name}: {}",
            verdict.message()
        );
    }
}

fn nesting_within_limits_still_sees_the_command() {
    for text in [
        "f(){ g; }; g(){ rm -rf /; }; f",
        "echo / | xargs rm -rf",
        "sudo env timeout 5 nice rm -rf /",
    ] {
        let verdict = evaluate_command(text, &Options::default());
        assert_eq!(
            verdict.rule_id.as_deref(),
            Some("hardline.rm-root"),
            "{text}"
        );
    }
}

/// Every input a fuzz target once failed on (`fuzz/regressions/<target>/`,
/// as the target reads it: a selector byte, then the rest) still meets that
/// target's properties here: `command` inputs are decided without a panic
/// and `rm -rf /` on a line before one is blocked; `hook` inputs give one
/// JSON verdict line in the selected dialect.
fn fuzz_findings_stay_fixed() {
    let mut seen = 0;
    for target in ["command", "hook"] {
        let dir = crate::support::repo_path(&format!("fuzz/regressions/{target}"));
        for entry in std::fs::read_dir(&dir).expect("fuzz/regressions") {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let (pick, rest) = bytes.split_first().expect("a selector byte");
            if target == "hook" {
                let agent = ["native", "hermes", "claude", "codex"][usize::from(*pick) % 4];
                let args = ["--agent".to_string(), agent.to_string()];
                let out = warden::cli::run(&args, &mut &rest[..], &warden::cli::Env::default());
                let line = out.stdout.strip_suffix('\n').expect("one line");
                assert!(!line.contains('\n'), "{}", path.display());
                serde_json::from_str::<serde_json::Value>(line).expect("JSON");
                continue;
            }
            let text = String::from_utf8_lossy(rest).into_owned();
            let _ = evaluate_command(&text, &Options::default());
            let line = format!("rm -rf /\n{text}");
            assert_eq!(
                evaluate_command(&line, &Options::default()).decision,
                Decision::Block,
                "{}",
                path.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 0, "no regression inputs in fuzz/regressions");
}
