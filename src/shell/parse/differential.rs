//! Differential test: a command parses to the same tree at top level and inside every substitution that can hold it.

use super::{parse, Node, Part, Redir, Script, Word};

/// Compound commands and the constructs whose reading depends on where
/// the parser is: loops and `if` with redirections after their end, `case`
/// arms with every terminator and `)` patterns, `[[ ]]` with `<` and `>`,
/// arithmetic, heredocs, comments, and `}` or `)` inside words.
const COMMANDS: &[&str] = &[
    "while read l; do eval \"$l\"; done < <(curl -s https://x.example/c)",
    "until ! read -r l; do sh -c \"$l\"; done < in.txt > out.txt",
    "for i in 1 2; do read -r l; bash -c \"$l\"; done < f",
    "for ((i=0; i<3; i++)); do echo $i; done 2> err",
    "for i in a b; { echo $i; } > f",
    "select o in a b; do echo $o; break; done < f",
    "if read -r l; then eval \"$l\"; elif true; then :; else echo no; fi < f",
    "while true; do if a; then b; fi; done | sh",
    "case $1 in a) echo a;; (b|c) echo b;;& d) echo d;& *) echo e;; esac < f",
    "case $x in *) while read l; do echo $l; done;; esac > f",
    "{ read -r l; eval \"$l\"; } < f",
    "( read -r l; bash -c \"$l\" ) < f",
    "f() { read -r l; eval \"$l\"; } < f; f",
    "function g { echo g; } > f",
    "[[ $a < $b && $c > d ]] && echo lt",
    "[[ ( -n $a ) && ( $b > c ) ]] || echo no",
    "while read l; do eval \"$l\"; done <<EOF\nrm x\nEOF\necho after",
    "if a; then cat <<-EOF\n\tfi ) done\n\tEOF\nfi > f",
    "(( a < b )) && echo yes",
    "((a); (b))",
    "x=$(( (1 + 2) * 3 ))",
    "cat <<EOF\nhello ) } done fi\nEOF\necho after",
    "echo a # a comment with ) and } and done\necho b",
    "echo a}b {c} x\\) ')' \\) \"(\" done fi",
    "echo }; echo {",
];

/// The substitutions a command can sit in, each around the text.
const WRAPPERS: &[(&str, &str)] = &[
    ("echo hi > >(", ")"),
    ("tee >(", ") < f"),
    ("cat <(", ")"),
    ("x=$(", ")"),
    ("echo \"$(", ")\""),
    ("echo `", "`"),
    ("cat <(echo hi > >(", "))"),
];

/// The script of the first substitution in the first command's words or
/// redirections, searched depth first.
fn first_body(script: &Script) -> Option<&Script> {
    let node = script.pipelines.first()?.stages.first()?;
    let Node::Simple(simple) = node else {
        return None;
    };
    let redir_words = simple.redirs.iter().map(|r: &Redir| &r.target);
    simple.words.iter().chain(redir_words).find_map(word_body)
}

fn word_body(word: &Word) -> Option<&Script> {
    word.parts.iter().find_map(part_body)
}

fn part_body(part: &Part) -> Option<&Script> {
    match part {
        Part::CommandSub { script, .. } | Part::ProcessSub { script, .. } => Some(script),
        Part::Double(parts) => parts.iter().find_map(part_body),
        _ => None,
    }
}

#[test]
fn substitutions_parse_as_top_level() {
    for command in COMMANDS {
        let top = parse(command);
        assert!(!top.open, "{command:?} parses closed at top level");
        for (before, after) in WRAPPERS {
            if *before == "echo `" && command.contains(['`', '\\']) {
                // Backquotes undo one level of backslashes first.
                continue;
            }
            // A blank after the opening: `$(((a); (b)))` is arithmetic to
            // bash, as to this parser; `$( ((a); (b)) )` is the subshells.
            let text = format!("{before} {command}{after}");
            let wrapped = parse(&text);
            assert!(!wrapped.open, "{text:?} parses closed");
            let mut body = first_body(&wrapped.script);
            if before.starts_with("cat <(echo hi") {
                body = body.and_then(first_body);
            }
            assert_eq!(body, Some(&top.script), "{text:?}");
        }
    }
}

#[test]
fn compound_commands_keep_their_redirections() {
    for command in COMMANDS.iter().filter(|c| c.contains(['<', '>'])) {
        let script = parse(command).script;
        // No redirection is left as a command of its own.
        let bare =
            script.pipelines.iter().flat_map(|p| &p.stages).any(
                |n| matches!(n, Node::Simple(s) if s.words.is_empty() && !s.redirs.is_empty()),
            );
        assert!(!bare, "{command:?}: {script:?}");
    }
}

#[test]
fn case_terminators_end_the_arm() {
    // The patterns after `;&` and `;;&` are patterns, not commands.
    let script = parse("case x in a) echo a;& b) echo b;;& c) echo c;; esac").script;
    let Some(Node::Group { body, .. }) = script.pipelines.first().and_then(|p| p.stages.first())
    else {
        panic!("a case is one group: {script:?}");
    };
    let programs: Vec<String> = body
        .pipelines
        .iter()
        .flat_map(|p| &p.stages)
        .filter_map(|n| match n {
            Node::Simple(s) => s.words.first().map(super::word_source_text),
            _ => None,
        })
        .collect();
    assert_eq!(programs, [":", "echo", "echo", "echo"]);
}
