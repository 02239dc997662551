//! Bad and hostile input: nothing panics, limits hold, and analysis time stays linear.

use warden::engine::{evaluate_command, Options};
use warden::verdict::{Decision, Layer};

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

#[test]
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

#[test]
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

#[test]
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

#[test]
fn eval_fan_out_is_bounded() {
    let verdict = evaluate_command("x='eval $x $x $x $x'; eval $x", &Options::default());
    assert_eq!(verdict.decision, Decision::Block);
}

#[test]
fn megabyte_command_is_analysed() {
    let mut text = format!("echo {}; ", "a".repeat(1_000_000));
    text.push_str("rm -rf /");
    let verdict = evaluate_command(&text, &Options::default());
    assert_eq!(verdict.rule_id.as_deref(), Some("hardline.rm-root"));
}

#[test]
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

#[test]
fn over_the_length_limit_is_blocked() {
    let text = "a".repeat(warden::shell::limits::MAX_COMMAND_BYTES + 1);
    let verdict = evaluate_command(&text, &Options::default());
    assert_eq!(verdict.decision, Decision::Block);
    assert_eq!(verdict.rule_id.as_deref(), Some("input.limit-exceeded"));
}

/// Shapes that once made the analysis quadratic or worse. The bound is a
/// tripwire for a blow-up (minutes, not milliseconds), not a timing target:
/// the real figures are in `bench/`.
#[test]
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
            "1 MiB command",
            format!("echo {}; ls", "a".repeat((1 << 20) - 9)),
        ),
        ("10,000 nested $(", "$(".repeat(10_000)),
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
#[test]
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

#[test]
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

/// Policy files are bytes anyone can write: every parser takes mangled
/// copies of valid files and random bytes without panicking.
#[test]
fn mangled_policy_files_never_panic() {
    use warden::config::model::SourceKind;
    use warden::config::{hermes, plugin, warden_file};
    let valid = [
        include_str!("../examples/config.yaml"),
        "patterns:\n  - pattern: 'a\\s+b'\n    description: x\n    examples: [a b]\nallow_patterns:\n  - glob: 'git {push,pull} *'\ndeny_patterns: []\n",
        "approvals:\n  mode: off\n  deny: ['git push*']\n  cron_mode: approve\n  auto_approve_up_to: low\ncommand_allowlist: ['ls *', 'recursive delete']\n",
        r#"[{"id":"a","tool":"terminal","pattern":"*--prod*","decision":"deny","priority":90},{"id":2,"decision":"allow"}]"#,
    ];
    let mut rng = Lcg(7);
    let parse_all = |text: &str| {
        let _ = warden_file::parse("x.yaml", text, SourceKind::Warden, Some("/p"));
        let _ = warden_file::parse("x.yaml", text, SourceKind::Permissions, None);
        let _ = plugin::parse("p.yaml", text);
        let _ = hermes::parse_config("c.yaml", text);
        let _ = hermes::parse_trust("t.json", text);
    };
    for text in valid {
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..300 {
            let mut mangled = chars.clone();
            for _ in 0..1 + rng.next() % 4 {
                if mangled.is_empty() {
                    break;
                }
                let at = (rng.next() as usize) % mangled.len();
                match rng.next() % 4 {
                    0 => {
                        mangled.remove(at);
                    }
                    1 => mangled.insert(
                        at,
                        [
                            '\n', ' ', ':', '-', '[', '{', '\'', '"', '*', '(', ')', '\\',
                        ][(rng.next() % 12) as usize],
                    ),
                    2 => mangled.truncate(at),
                    _ => {
                        let from = (rng.next() as usize) % mangled.len();
                        let c = mangled[from];
                        mangled.insert(at, c);
                    }
                }
            }
            parse_all(&mangled.iter().collect::<String>());
        }
    }
    for _ in 0..300 {
        let len = (rng.next() % 200) as usize;
        let text: String = (0..len)
            .map(|_| char::from_u32((rng.next() % 0x250) as u32).unwrap_or('?'))
            .collect();
        parse_all(&text);
    }
}

/// A cache file is bytes too: `Policy::from_bytes` refuses what does not
/// hold together instead of panicking or decoding half a policy.
#[test]
fn mangled_cache_payloads_are_refused_without_panicking() {
    use warden::config::model::{RuleSpec, Settings, Target, ToolSel};
    use warden::config::policy::Policy;
    let rules: Vec<RuleSpec> = (0..20)
        .map(|i| RuleSpec {
            line: Some(i),
            description: "d".into(),
            ..RuleSpec::new(
                format!("t.rule-{i}"),
                ToolSel::Shell,
                Target::Prefix(format!("tool{i}")),
                Decision::Block,
            )
        })
        .collect();
    let bytes = Policy::new(vec![], Settings::default(), rules)
        .to_bytes()
        .expect("encodes");
    assert_eq!(Policy::from_bytes(bytes.clone()).map(|p| p.len()), Some(20));
    let mut rng = Lcg(11);
    for cut in 0..bytes.len() {
        let _ = Policy::from_bytes(bytes[..cut].to_vec());
    }
    for _ in 0..2000 {
        let mut mangled = bytes.clone();
        let at = (rng.next() as usize) % mangled.len();
        mangled[at] ^= 1 << (rng.next() % 8);
        if let Some(policy) = Policy::from_bytes(mangled) {
            // A flip inside a rule's bytes may still decode; it must not panic.
            let _ = policy.rules();
        }
    }
}
