//! Unit tests of `rules/mod.rs`.

use super::*;

#[test]
fn merged_candidates_are_the_sorted_union() {
    for set in [&*HARDLINE_SET, &*DANGEROUS_SET, &RuleSet::new(all())] {
        let mut programs: Vec<&str> = set
            .rules
            .iter()
            .flat_map(|r| r.matcher.programs())
            .map(|p| p.trim_end_matches('*'))
            .collect();
        programs.extend(["", "true", "mkfs.ext4", "newfs_msdos", "zzz", "git", "rm"]);
        for program in programs {
            // Release builds pass over the any-program rules the signs
            // rule out; debug builds keep them all, to check that.
            let mut want: Vec<usize> = if cfg!(debug_assertions) {
                set.any_program.clone()
            } else {
                set.any_by_signs[Signs::default().index()].clone()
            };
            want.extend(set.by_program.get(&set.rules, program));
            want.extend(set.rules.iter().enumerate().filter_map(|(i, rule)| {
                let mut prefixes = rule.matcher.programs().filter_map(|p| p.strip_suffix('*'));
                prefixes.any(|p| program.starts_with(p)).then_some(i)
            }));
            want.sort_unstable();
            want.dedup();
            assert_eq!(
                set.candidates(program, Signs::default())
                    .collect::<Vec<_>>(),
                want,
                "{program}"
            );
        }
    }
}

#[test]
fn has_prefix_is_starts_with() {
    for program in ["", "m", "mkfs", "mkfs.ext4", "python3", "pypy", "é", "ls"] {
        for prefix in ["", "m", "mkfs", "python", "py", "é", "x"] {
            assert_eq!(
                has_prefix(program, prefix),
                program.starts_with(prefix),
                "{program} {prefix}"
            );
        }
    }
}

#[test]
fn a_command_meets_the_rules_for_any_program_its_signs_allow() {
    let every = Signs::SETS.or(Signs::RUNS_CODE).or(Signs::PRIVILEGED);
    assert_eq!(every.index(), Signs::SETS_OF_SIGNS - 1);
    for set in [&*HARDLINE_SET, &*DANGEROUS_SET, &RuleSet::new(all())] {
        // Every sign shown: every rule is asked.
        assert_eq!(set.any_by_signs[every.index()], set.any_program);
        for (index, listed) in set.any_by_signs.iter().enumerate() {
            let shown = Signs::from_index(index);
            for &i in &set.any_program {
                let asked = match &set.rules[i].matcher {
                    Matcher::AnyProgram { signs, .. } => {
                        assert_ne!(
                            *signs,
                            Signs::default(),
                            "{} names no sign",
                            set.rules[i].id
                        );
                        shown.meets(*signs)
                    }
                    _ => true,
                };
                assert_eq!(
                    listed.contains(&i),
                    asked,
                    "{} with {shown:?}",
                    set.rules[i].id
                );
            }
        }
    }
}

#[test]
fn the_program_index_finds_exactly_the_rules_naming_a_program() {
    let rules: Vec<&'static Rule> = all().collect();
    let set = RuleSet::new(rules.iter().copied());
    let naming = |program: &str| -> Vec<usize> {
        let mut found = Vec::new();
        for (i, rule) in rules.iter().enumerate() {
            if rule.matcher.programs().any(|p| p == program) {
                found.push(i);
            }
        }
        found
    };
    let mut programs: Vec<&str> = set.by_program.all(&set.rules).collect();
    programs.extend(["", "x", "not-a-program", "gitt", "rmm"]);
    for program in programs {
        // A table naming a program twice lists it twice; candidates drop the repeat.
        let mut indexed: Vec<usize> = set.by_program.get(&set.rules, program).collect();
        indexed.dedup();
        assert_eq!(indexed, naming(program), "{program}");
        let named = set.candidates(program, Signs::default()).named;
        assert!(
            named.windows(2).all(|w| w[0] < w[1]),
            "{program}: {named:?}"
        );
    }
}

#[test]
fn help_is_passed_over_only_where_the_set_says() {
    let asking = RuleSet::new(dangerous()).help_is_harmless();
    let plain = RuleSet::new(dangerous());
    let help = crate::shell::analyze("git push --force --help");
    assert!(asking.first_match(&help).is_none());
    assert!(plain.first_match(&help).is_some());
    // After `--` the word is an operand, not a request for help.
    let operand = crate::shell::analyze("git reset --hard -- --help");
    assert!(asking.first_match(&operand).is_some());
    // `-h` is help only where the program reserves it.
    let short = crate::shell::analyze("kubectl delete ns prod -h");
    assert!(asking.first_match(&short).is_none());
    let hostname = crate::shell::analyze("docker run -h box --privileged alpine");
    assert!(asking.first_match(&hostname).is_some());
}

fn no_arguments(_: &Command) -> bool {
    false
}

static ROWS: &[Verb] = &[
    verb("zpool", r"^destroy\b"),
    verb("lvremove", ""),
    verb("mkfs*", ""),
    verb_if("zfs", r"^destroy\b", no_arguments),
    verb("zpool", r"^labelclear\b"),
];

static VERB_RULES: &[Rule] = &[Rule {
    id: "test.verbs",
    category: "test",
    reason: "test",
    decision: Decision::Ask,
    matcher: Matcher::Verbs(ROWS),
    hits: &[],
    misses: &[],
}];

#[test]
fn a_verbs_table_matches_a_row_by_program_arguments_and_check() {
    let set = RuleSet::new(VERB_RULES);
    let matched = |line: &str| set.first_match(&crate::shell::analyze(line)).is_some();
    for hit in [
        "zpool destroy tank",
        "zpool labelclear /dev/sdb",
        "sudo lvremove vg0/x",
        "mkfs.xfs /dev/sdb1",
    ] {
        assert!(matched(hit), "{hit}");
    }
    // Another subcommand, a check that fails, a program only named.
    for miss in [
        "zpool status",
        "zfs destroy tank",
        "echo lvremove",
        "zfs list",
    ] {
        assert!(!matched(miss), "{miss}");
    }
    // A program two rows name is a candidate once; a prefix row by its prefix.
    assert_eq!(set.candidates("zpool", Signs::default()).count(), 1);
    assert!(set.names_by_prefix("mkfs.ext4"));
}

#[test]
fn every_built_in_rule_past_the_floor_asks_or_blocks() {
    // The layers take the first rule that matches; none of them allows, so
    // a row added to any table can only make a decision stricter.
    for rule in all() {
        assert_ne!(rule.decision, Decision::Allow, "{}", rule.id);
    }
}

#[test]
fn the_aws_cli_help_word_is_help_only_at_the_end() {
    let asking = RuleSet::new(dangerous()).help_is_harmless();
    let help = crate::shell::analyze("aws ec2 terminate-instances help");
    assert!(asking.first_match(&help).is_none());
    let operand = crate::shell::analyze("aws ec2 terminate-instances --instance-ids help i-1");
    assert!(asking.first_match(&operand).is_some());
}

#[test]
fn the_indexes_built_at_compile_time_are_the_ones_built_now() {
    let floor: Vec<&'static Rule> = hardline().collect();
    assert!(HARDLINE_SET.by_program.same_as(&ProgramIndex::new(&floor)));
    let dangerous: Vec<&'static Rule> = dangerous().collect();
    assert!(DANGEROUS_SET
        .by_program
        .same_as(&ProgramIndex::new(&dangerous)));
}
