//! Tests of Hermes' config.yaml editor: exact round trips, wrong shapes, regenerated blocks, and generated combinations.

use super::*;

fn entry() -> Entry {
    let command = "/home/u/.local/bin/warden --on-ask block".into();
    let matcher = "terminal|write_file|patch|read_file|search_files".into();
    Entry {
        matcher,
        command,
        timeout: 10,
        fail_closed: true,
    }
}

/// What register writes in an empty file.
const NEW: &str = r#"hooks:
  pre_tool_call:
    - matcher: "terminal|write_file|patch|read_file|search_files"
      command: "/home/u/.local/bin/warden --on-ask block"
      timeout: 10
      fail_closed: true
"#;

fn reg(text: &str) -> String {
    let edit = register(text, &entry()).unwrap();
    edit.text.unwrap_or_else(|| text.into())
}

fn unreg(text: &str) -> String {
    let edit = unregister(text).unwrap();
    edit.text.unwrap_or_else(|| text.into())
}

fn noted(edit: &Edit, says: &str) -> bool {
    edit.notes.iter().any(|n| n.contains(says))
}

/// Each hook as `matcher: command` or the command alone; warden's as `W`
/// when it is exactly `entry()`.
fn listing(text: &str) -> Vec<String> {
    hooks(text).unwrap().iter().map(show).collect()
}

fn show(h: &Found) -> String {
    match (&h.matcher, h.timeout, h.fail_closed) {
        (Some(_), Some(10), Some(true)) if h.command == entry().command => "W".into(),
        (Some(m), ..) => format!("{m}: {}", h.command),
        (None, ..) => h.command.clone(),
    }
}

/// The other hooks as Hermes should read them, whatever their shape.
fn others(text: &str) -> Vec<String> {
    let root = parse(text).unwrap();
    let (items, _) = listed(root.get(HOOKS).and_then(|h| h.get(EVENT))).unwrap();
    let items = items.iter().filter(|i| !is_warden_item(i));
    items.filter_map(found).map(|h| show(&h)).collect()
}

/// (a config, what register makes of it, `@` standing for `NEW`).
    #[rustfmt::skip]
    const ROUND_TRIPS: &[(&str, &str)] = &[
        ("", NEW),
        ("# Hermes\nmodel: x  # m\n\n# end\n", "# Hermes\nmodel: x  # m\n\n# end\n@"),
        ("model: x\r\n", "model: x\r\n@"),
        ("---\nmodel: x\n...\n", "---\nmodel: x\n@...\n"),
        ("hooks:\n  # logs\n  post_tool_call:\n    - command: log\nmodel: x\n",
         "hooks:\n  pre_tool_call:\n    - matcher: \"terminal|write_file|patch|read_file|search_files\"\n      command: \"/home/u/.local/bin/warden --on-ask block\"\n      timeout: 10\n      fail_closed: true\n  # logs\n  post_tool_call:\n    - command: log\nmodel: x\n"),
        ("# top\nhooks:\n  pre_tool_call:\n    # first\n    - matcher: terminal\n      command: audit  # why\n\n    # second\n    - command: 'other --flag'\n  # trailing\n  post_tool_call: []\n",
         "# top\nhooks:\n  pre_tool_call:\n    # first\n    - matcher: terminal\n      command: audit  # why\n\n    # second\n    - command: 'other --flag'\n    - matcher: \"terminal|write_file|patch|read_file|search_files\"\n      command: \"/home/u/.local/bin/warden --on-ask block\"\n      timeout: 10\n      fail_closed: true\n  # trailing\n  post_tool_call: []\n"),
        ("hooks:\n  pre_tool_call:\n  - command: a && ls *.txt\n  post_tool_call:\n  - command: log\n",
         "hooks:\n  pre_tool_call:\n  - command: a && ls *.txt\n  - matcher: \"terminal|write_file|patch|read_file|search_files\"\n    command: \"/home/u/.local/bin/warden --on-ask block\"\n    timeout: 10\n    fail_closed: true\n  post_tool_call:\n  - command: log\n"),
    ];

/// Registering edits in place, twice changes nothing more, and
/// unregister gives the file back byte for byte.
#[test]
fn round_trips() {
    for (before, after) in ROUND_TRIPS {
        let nl = if before.contains('\r') { "\r\n" } else { "\n" };
        let after = after.replace('@', NEW).replace('\n', nl);
        let after = after.replace("\r\r", "\r");
        let edit = register(before, &entry()).unwrap();
        assert_eq!(edit.text.as_deref(), Some(after.as_str()), "{before}");
        assert!(!noted(&edit, "comments"), "{before}");
        assert_eq!(register(&after, &entry()), Ok(Edit::default()));
        assert_eq!(unreg(&after), *before);
        assert_eq!(listing(&after).last().map(String::as_str), Some("W"));
    }
    // A missing final newline is added first; there is no taking it back.
    assert_eq!(reg("model: x"), format!("model: x\n{NEW}"));
}

#[test]
fn earlier_warden_entries_are_replaced() {
    let list = "hooks:\n  pre_tool_call:\n    # keep\n    - command: other\n";
    let old = list.replace(
        "    # keep",
        "    - command: warden\n      timeout: 60\n    # keep",
    );
    let edit = register(&old, &entry()).unwrap();
    assert!(noted(&edit, "replaced"), "{:?}", edit.notes);
    let once = edit.text.unwrap();
    assert_eq!(once, format!("{list}{}", &NEW[24..]));
    assert_eq!((reg(&once), unreg(&once)), (once.clone(), list.into()));
    let two =
        "hooks:\n  pre_tool_call:\n    - command: \"'/a b/warden'\"\n    - command: warden x\n";
    assert_eq!((reg(two), unreg(two)), (NEW.into(), String::new()));
}

#[test]
fn wrong_shapes_become_the_list_with_a_note() {
    #[rustfmt::skip]
        let cases = [
            ("terminal: [warden, other]", "keyed by tool name", vec!["terminal: other"]),
            ("terminal: warden\n    patch: {command: audit}", "keyed by tool name", vec!["patch: audit"]),
            ("[/usr/bin/audit, warden]", "bare command strings", vec!["/usr/bin/audit"]),
            ("- other\n    - {matcher: patch, command: audit}", "bare command strings", vec!["other", "patch: audit"]),
            ("warden --x", "single command string", vec![]),
        ];
    for (shape, says, others) in cases {
        let text = format!("hooks:\n  pre_tool_call:\n    {shape}\nmodel: x\n");
        assert!(hooks(&text).unwrap_err().contains(says), "{text}");
        let edit = register(&text, &entry()).unwrap();
        assert!(edit.notes.first().is_some_and(|n| n.contains(says)));
        let once = edit.text.unwrap();
        assert!(once.ends_with("\nmodel: x\n"), "{once}");
        assert_eq!(listing(&once), [others.clone(), vec!["W"]].concat());
        assert_eq!(reg(&once), once);
        assert_eq!(listing(&unreg(&once)), others);
        // Unregistering fixes the shape too, where it held warden.
        let gone = unreg(&text);
        assert!(gone == text || listing(&gone) == others, "{text}");
    }
}

#[test]
fn what_the_line_editor_cannot_follow_is_regenerated() {
    let flow = "# top\nhooks: {pre_tool_call: [{command: a}]}\n# model\nmodel: x\n";
    let once = reg(flow);
    assert!(once.starts_with("# top\nhooks:\n") && once.ends_with("\n# model\nmodel: x\n"));
    assert_eq!(
        (listing(&once), reg(&once)),
        (vec!["a".into(), "W".into()], once.clone())
    );
    assert_eq!(listing(&unreg(&once)), ["a"]);
    #[rustfmt::skip]
        let cases = [
            "base: &cmd a\nhooks:\n  pre_tool_call:\n    - command: *cmd\n",
            "hooks:\n  pre_tool_call:\n    - command:\ta\n",
            "hooks:\n  pre_tool_call:\n    - command: \"a\n  b\"\n",
            "hooks:\n  pre_tool_call: [a]  # none\n  # inner\n\n# next\nx: 1\n",
        ];
    for text in cases {
        assert_eq!(listing(&reg(text)).len(), 2, "{text}");
        assert_eq!(listing(&reg(text)).last().map(String::as_str), Some("W"));
    }
    let edit = register(cases[3], &entry()).unwrap();
    assert!(noted(&edit, "comments"), "{:?}", edit.notes);
    assert!(edit.text.unwrap().ends_with("true\n\n# next\nx: 1\n"));
    // A whole document in flow style is rewritten whole.
    let edit = register("{model: x}", &entry()).unwrap();
    assert!(noted(&edit, "rewritten whole"), "{:?}", edit.notes);
    let whole = edit.text.unwrap();
    assert!(whole.starts_with("model: x\nhooks:\n"), "{whole}");
    assert_eq!(
        (listing(&whole), unreg(&whole)),
        (vec!["W".into()], "model: x\n".into())
    );
}

#[test]
fn unregister_leaves_other_hooks() {
    let left =
        "hooks:\n  pre_tool_call:\n    - command: a\n  post_tool_call:\n    - command: warden\n";
    let text = left.replace("a\n", "a\n    - command: warden\n");
    assert_eq!(
        (unreg(&text), unregister(left)),
        (left.into(), Ok(Edit::default()))
    );
    let only = "hooks:\n  pre_tool_call:\n    - command: warden\n  post_tool_call: []\n";
    assert_eq!(unreg(only), "hooks:\n  post_tool_call: []\n");
    assert_eq!(unregister("hooks: [a]\n"), Ok(Edit::default()));
}

#[test]
fn hooks_says_which_shape_hermes_skips() {
    #[rustfmt::skip]
        let cases = [
            ("hooks:\n  pre_tool_call:\n    terminal: [a, b]\n", "is a mapping keyed by tool name"),
            ("hooks:\n  pre_tool_call:\n    terminal: a\n", "is a mapping keyed by tool name"),
            ("hooks:\n  pre_tool_call: [a]\n", "holds bare command strings"),
            ("hooks:\n  pre_tool_call: a\n", "is a single command string"),
            ("hooks: [a]\n", "hooks is not a mapping of events"),
        ];
    for (text, says) in cases {
        let why = hooks(text).unwrap_err();
        assert!(
            why.contains(says) && why.ends_with("which Hermes skips"),
            "{why}"
        );
    }
    for empty in [
        "",
        "# c\n",
        "a: 1\n",
        "hooks:\n",
        "hooks:\n  post_tool_call: [{command: a}]\n",
    ] {
        assert_eq!(hooks(empty), Ok(vec![]));
    }
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    #[rustfmt::skip]
        let bad = ["{{{", "a: [", "- a\n- b\n", "text", "a: 1\na: 2\n", "x: *no\n", "hooks:\n  pre_tool_call: [3]\n"];
    for text in bad {
        assert!(
            register(text, &entry()).is_err() && hooks(text).is_err(),
            "{text:?}"
        );
    }
    assert!(unregister("- a\n").unwrap_err().contains("not a mapping"));
    #[rustfmt::skip]
        let odd = ["\u{feff}a: 1\nb: 2\n", ":", "- ", "'", "? a\n: b\n", "---\n", "a: |\n  x\n", "\t", "&a", "hooks:\n\tx: 1"];
    for text in odd {
        let _ = (register(text, &entry()), unregister(text), hooks(text));
    }
}

#[test]
fn is_warden_reads_the_program() {
    for yes in [
        "warden",
        "~/bin/warden --x",
        "'/a b/warden' x",
        "\"warden\"",
        "war\\den",
    ] {
        assert!(is_warden(yes), "{yes}");
    }
    for no in [
        "",
        "echo warden",
        "/bin/wardenctl",
        "warden.sh",
        "'warden x'",
    ] {
        assert!(!is_warden(no), "{no}");
    }
}

/// Every combination of the cases above: register leaves exactly one
/// warden entry and unregister none, the rest of the file as it was.
#[test]
fn generated_configs() {
    let heads = ["", "# Hermes\n", "model: x  # m\n\n"];
    // With whether unregister(register(text)) is text byte for byte.
    #[rustfmt::skip]
        let hookses = [
            ("", true),
            ("hooks:\n", false),
            ("hooks:\n  post_tool_call:\n    - command: log\n", true),
            ("hooks:\n  pre_tool_call:\n    - command: a  # c\n    # b\n    - {matcher: p, command: b}\n", true),
            ("hooks:\n    pre_tool_call:\n    - command: a\n    post_tool_call: []\n", true),
            ("hooks:\n  pre_tool_call:\n    - command: warden\n    - command: a\n", false),
            ("hooks:\n  pre_tool_call:\n    terminal: [warden, a]\n    patch: b\n", false),
            ("hooks:\n  pre_tool_call:\n    - a\n", false),
            ("hooks: {pre_tool_call: [{command: a}]}\n", false),
            ("hooks:\n  pre_tool_call: []\n", false),
        ];
    let tails = ["", "# next\nmemory:\n  size: 3\n", "\n\ndisplay: {a: 1}\n"];
    // The document without warden's entry nor the keys it leaves empty.
    let rest = |text: &str| {
        let mut root = parse(text).unwrap();
        if let Some(Value::Mapping(h)) = root.get_mut(HOOKS) {
            h.shift_remove(EVENT);
        }
        let empty = |v: &Value| v.is_null() || v.as_mapping().is_some_and(Mapping::is_empty);
        root.retain(|k, v| k.as_str() != Some(HOOKS) || !empty(v));
        root
    };
    let mut count = 0;
    for head in heads {
        for (middle, identical) in hookses {
            for tail in tails {
                let text = format!("{head}{middle}{tail}");
                let (before, once) = (others(&text), reg(&text));
                let with = [before.clone(), vec!["W".into()]].concat();
                assert_eq!((listing(&once), rest(&once)), (with, rest(&text)), "{once}");
                assert_eq!(reg(&once), once);
                let gone = unreg(&once);
                assert_eq!(
                    (listing(&gone), rest(&gone)),
                    (before, rest(&text)),
                    "{gone}"
                );
                assert!(!identical || gone == text, "{text}=>\n{once}=>\n{gone}");
                count += 1;
            }
        }
    }
    assert_eq!(count, 90);
}
