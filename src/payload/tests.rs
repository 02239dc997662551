//! Tests of payload reading: each agent's shape, where a tool runs, the files a tool names, and what fails closed.

use super::*;

#[test]
fn hermes_terminal() {
    let call = parse(r#"{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"ls","workdir":"/src"},"session_id":"s","cwd":"/tmp","extra":{"x":1}}"#).unwrap();
    assert_eq!(call.agent, Agent::Hermes);
    assert_eq!(call.command(), Some("ls"));
    assert_eq!(call.cwd.as_deref(), Some("/tmp"));
    assert_eq!(call.workdir.as_deref(), Some("/src"));
}

#[test]
fn the_tool_runs_in_the_workdir_as_after_a_cd() {
    let call = |cwd: Option<&str>, workdir: Option<&str>| {
        ToolCall::shell("ls", cwd.map(str::to_string)).with_workdir(workdir.map(str::to_string))
    };
    let home = Some("/home/u");
    let dir = |cwd, workdir| call(cwd, workdir).tool_dir(home);
    assert_eq!(dir(Some("/p"), None).as_deref(), Some("/p"));
    assert_eq!(dir(Some("/p"), Some("src")).as_deref(), Some("/p/src"));
    assert_eq!(dir(Some("/p"), Some("../q")).as_deref(), Some("/q"));
    assert_eq!(
        dir(Some("/p"), Some("~/.local")).as_deref(),
        Some("/home/u/.local")
    );
    assert_eq!(dir(Some("~/p"), Some("x")).as_deref(), Some("/home/u/p/x"));
    assert_eq!(dir(Some("/p"), Some("/etc")).as_deref(), Some("/etc"));
    // Where warden cannot follow.
    assert_eq!(dir(None, Some("src")), None);
    assert_eq!(dir(Some("rel"), Some("src")), None);
    assert_eq!(dir(Some("/p"), Some("$HOME")), None);
    assert_eq!(call(Some("/p"), Some("~")).tool_dir(None), None);
    // The session's directory is never the workdir.
    assert_eq!(
        call(Some("/p"), Some("/etc")).session_dir(home).as_deref(),
        Some("/p")
    );
}

#[test]
fn codex_is_claude_shaped_with_turn_id() {
    let call = parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["rm","-rf","a b"]},"turn_id":"t1"}"#).unwrap();
    assert_eq!(call.agent, Agent::Codex);
    assert_eq!(call.command(), Some("rm -rf 'a b'"));
}

#[test]
fn gemini_is_before_tool_with_its_own_tool_names() {
    let call = parse(r#"{"session_id":"s","transcript_path":"","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-27T11:20:12.150Z","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"src","workdir":"/etc"}}"#).unwrap();
    assert_eq!(call.agent, Agent::Gemini);
    assert!(call.is_pre_tool());
    assert_eq!(call.command(), Some("ls"));
    assert_eq!(call.workdir.as_deref(), Some("src"));
    let edit = parse(r#"{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"/p/a.txt","old_string":"x","new_string":"y","instruction":"i"}}"#).unwrap();
    assert_eq!(edit.kind, ToolKind::Write);
    assert_eq!(
        edit.files,
        [FileRef {
            path: "/p/a.txt".into(),
            write: true
        }]
    );
    assert_eq!(edit.written, [("/p/a.txt".to_string(), "y\n".to_string())]);
    let read = parse(r#"{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"/p/a"}}"#).unwrap();
    assert_eq!(
        read.files,
        [FileRef {
            path: "/p/a".into(),
            write: false
        }]
    );
    let many = parse(r#"{"hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"include":["src/**","/h/.aws/credentials",1,""]}}"#).unwrap();
    let paths: Vec<&str> = many.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["src/**", "/h/.aws/credentials"]);
    assert!(many.files.iter().all(|f| !f.write));
    // A shell call with no command fails closed, as for every agent.
    let err = parse(r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"dir_path":"x"}}"#).unwrap_err();
    assert_eq!(err.id(), "input.bad-field");
}

#[test]
fn copilot_is_camel_case_with_no_event_and_arguments_as_object_or_text() {
    let call = parse(r#"{"sessionId":"s1","timestamp":1795778606524,"cwd":"/p","toolName":"bash","toolArgs":{"command":"ls","description":"list"}}"#).unwrap();
    assert_eq!(call.agent, Agent::Copilot);
    assert!(call.is_pre_tool());
    assert_eq!(call.command(), Some("ls"));
    assert_eq!(call.cwd.as_deref(), Some("/p"));
    assert_eq!(call.session.as_deref(), Some("s1"));
    // The arguments as the JSON text of an object read the same.
    let text =
        parse(r#"{"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#).unwrap();
    assert_eq!((text.agent, text.command()), (Agent::Copilot, Some("ls")));
    let create = parse(r#"{"cwd":"/p","toolName":"create","toolArgs":{"path":"/h/.ssh/authorized_keys","file_text":"ssh-ed25519 A"}}"#).unwrap();
    assert_eq!(create.kind, ToolKind::Write);
    assert_eq!(create.path.as_deref(), Some("/h/.ssh/authorized_keys"));
    assert_eq!(create.written[0].1, "ssh-ed25519 A\n");
    let edit =
        parse(r#"{"toolName":"edit","toolArgs":{"path":"/p/a","old_str":"x","new_str":"y"}}"#)
            .unwrap();
    assert_eq!(
        (edit.kind, edit.written[0].1.as_str()),
        (ToolKind::Write, "y\n")
    );
    let view = parse(r#"{"toolName":"view","toolArgs":{"path":"/h/.aws/credentials"}}"#).unwrap();
    assert_eq!(view.kind, ToolKind::Read);
    assert!(!view.files[0].write);
    // What write_bash types into a running shell is judged as a command line.
    let typed = parse(r#"{"toolName":"write_bash","toolArgs":{"shellId":"1","input":"rm -rf ~"}}"#)
        .unwrap();
    assert_eq!(typed.command(), Some("rm -rf ~"));
    for bad in [
        r#"{"toolName":"bash","toolArgs":"not json"}"#,
        r#"{"toolName":"bash","toolArgs":"[1]"}"#,
        r#"{"toolName":"create","toolArgs":7}"#,
        r#"{"toolName":"bash","toolArgs":{}}"#,
        r#"{"toolName":"bash"}"#,
        r#"{"toolName":7,"toolArgs":{}}"#,
    ] {
        assert_eq!(parse(bad).unwrap_err().id(), "input.bad-field", "{bad}");
    }
    // Another agent's payload never reads as Copilot's.
    let claude = parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"toolName":"x"}"#).unwrap();
    assert_eq!(claude.agent, Agent::Claude);
}

#[test]
fn the_arguments_are_found_under_either_name() {
    let value = |text| arguments_value(text).map(|v| v.to_string());
    let object = r#"{"toolName":"create","toolArgs":{"path":"a"}}"#;
    let string = r#"{"toolName":"create","toolArgs":"{\"path\":\"a\"}"}"#;
    assert_eq!(value(object), value(string));
    assert_eq!(value(object).as_deref(), Some(r#"{"path":"a"}"#));
    assert_eq!(
        value(r#"{"tool_name":"Write","tool_input":{"path":"a"}}"#).as_deref(),
        Some(r#"{"path":"a"}"#)
    );
    assert_eq!(value("{}"), None);
}

#[test]
fn shell_tool_without_command_is_an_error() {
    let err = parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#)
        .unwrap_err();
    assert_eq!(err.id(), "input.bad-field");
}

#[test]
fn other_tools_parse_without_input() {
    let call = parse(r#"{"tool_name":"read_file","tool_input":null}"#).unwrap();
    assert_eq!(call.input, ToolInput::Other);
}

#[test]
fn opencode_is_tool_execute_before_with_camel_case_fields() {
    let base = r#"{"hook_event_name":"tool.execute.before","session_id":"ses_1","call_id":"call_1","cwd":"/p","#;
    let call = |rest: &str| parse(&format!("{base}{rest}}}"));
    let bash = call(
        r#""tool_name":"bash","tool_input":{"command":"ls","workdir":"src","description":"d"}"#,
    )
    .unwrap();
    assert_eq!(bash.agent, Agent::OpenCode);
    assert!(bash.is_pre_tool());
    assert_eq!(bash.command(), Some("ls"));
    assert_eq!(bash.workdir.as_deref(), Some("src"));
    assert_eq!(bash.session.as_deref(), Some("ses_1"));
    let edit = call(r#""tool_name":"edit","tool_input":{"filePath":"/p/a.txt","oldString":"x","newString":"y"}"#).unwrap();
    assert_eq!(edit.kind, ToolKind::Write);
    assert_eq!(edit.path.as_deref(), Some("/p/a.txt"));
    assert_eq!(edit.written, [("/p/a.txt".to_string(), "y\n".to_string())]);
    let read =
        call(r#""tool_name":"read","tool_input":{"filePath":"/h/.aws/credentials"}"#).unwrap();
    assert_eq!(read.kind, ToolKind::Read);
    assert!(read.files.iter().all(|f| !f.write));
    let patch = "*** Begin Patch\n*** Update File: /p/a.py\n*** Move to: /p/b.py\n@@\n-x\n+y\n*** End Patch";
    let text = serde_json::to_string(patch).unwrap();
    let patched = call(&format!(
        r#""tool_name":"apply_patch","tool_input":{{"patchText":{text}}}"#
    ))
    .unwrap();
    let paths: Vec<&str> = patched.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["/p/a.py", "/p/b.py"]);
    assert!(patched.files.iter().all(|f| f.write));
    let err = call(r#""tool_name":"bash","tool_input":{"workdir":"x"}"#).unwrap_err();
    assert_eq!(err.id(), "input.bad-field");
}
