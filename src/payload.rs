//! Hook payloads of each agent (Hermes, Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode), read into one internal `ToolCall`.

mod json;

use json::{Json, Object};

use crate::error::{Error, Result};
use crate::verdict::Dialect;

/// An agent: the one that sent a payload (it decides the default output
/// dialect), or one warden is registered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Hermes,
    Claude,
    Codex,
    Gemini,
    Copilot,
    OpenCode,
}

impl Agent {
    pub const ALL: [Agent; 6] = [
        Agent::Hermes,
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Copilot,
        Agent::OpenCode,
    ];

    /// Its name on the command line (`--agent`), which is also its program's.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Hermes => "hermes",
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
            Agent::OpenCode => "opencode",
        }
    }

    pub fn dialect(self) -> Dialect {
        match self {
            Agent::Hermes => Dialect::Hermes,
            Agent::Claude => Dialect::Claude,
            Agent::Codex => Dialect::Codex,
            Agent::Gemini => Dialect::Gemini,
            Agent::Copilot => Dialect::Copilot,
            Agent::OpenCode => Dialect::OpenCode,
        }
    }
}

/// One tool call, whatever agent it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    pub agent: Agent,
    /// `pre_tool_call`, `PreToolUse`, `BeforeTool`, `tool.execute.before`,
    /// `preToolUse` (Copilot CLI's payload names none: it is the event
    /// Copilot runs the hook on),
    /// or another event name.
    pub event: String,
    /// The tool's name as the agent spells it (`terminal`, `Bash`, `write_file`, ...).
    pub tool: String,
    pub input: ToolInput,
    /// The session's directory, the payload's `cwd`: what the project and
    /// the project's policy are found from.
    pub cwd: Option<String>,
    /// `tool_input.workdir` (Gemini's shell tool: `dir_path`), as the model
    /// wrote it: the tool runs there, as
    /// after `cd` from `cwd`. The model chooses it, so it moves where paths
    /// lead, never which project or which policy applies.
    pub workdir: Option<String>,
    /// What sort of tool it is, for the mode and risk fallbacks.
    pub kind: ToolKind,
    /// The file a file tool works on (`path`, or Claude's `file_path`), as given.
    pub path: Option<String>,
    /// Every file a tool other than a shell would read or write: the path
    /// arguments, and each file a patch touches.
    pub files: Vec<FileRef>,
    /// The Hermes profile the call runs in (newer Hermes sends `profile`).
    pub profile: Option<String>,
    /// `tool_input.cross_profile: true`: a write into another Hermes profile is meant.
    pub cross_profile: bool,
    /// What a file tool writes, by path as given: a write's content, an
    /// edit's new text, a patch's added lines (the engine judges the code
    /// in files a tool runs by convention).
    pub written: Vec<(String, String)>,
    /// The agent's session id (`session_id`), for the audit log.
    pub session: Option<String>,
}

/// A file a tool would read or write, as its input names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef {
    pub path: String,
    pub write: bool,
}

/// What a tool does, as far as modes and risk classes care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolKind {
    /// Runs a shell command line.
    Shell,
    /// Only reads (files, searches, listings).
    Read,
    /// Writes or edits files.
    Write,
    /// Anything else: MCP and plugin tools, code execution, processes.
    #[default]
    Other,
}

impl ToolKind {
    /// Classifies a tool by name (case-insensitively), across agents.
    pub fn of(tool: &str) -> ToolKind {
        // Most agents name their tools in lowercase already: no copy then.
        let lower: std::borrow::Cow<'_, str> = if tool.bytes().any(|b| b.is_ascii_uppercase()) {
            tool.to_ascii_lowercase().into()
        } else {
            tool.into()
        };
        if SHELL_TOOLS.contains(&lower.as_ref()) {
            return ToolKind::Shell;
        }
        match lower.as_ref() {
            "read_file" | "read" | "search_files" | "grep" | "glob" | "ls" | "list_directory"
            | "notebookread" | "web_search" | "websearch" | "webfetch" | "todoread"
            | "view_image" | "vision_analyze" | "read_many_files" | "grep_search"
            | "google_web_search" | "web_fetch" | "view" => ToolKind::Read,
            "write_file" | "write" | "patch" | "edit" | "multiedit" | "notebookedit"
            | "apply_patch" | "replace" | "create" | "str_replace_editor" => ToolKind::Write,
            _ => ToolKind::Other,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ToolKind::Shell => "shell",
            ToolKind::Read => "read-only",
            ToolKind::Write => "file-write",
            ToolKind::Other => "other",
        }
    }
}

/// What the tool call would do, as far as the engine cares today.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolInput {
    /// A shell command line.
    Shell { command: String },
    /// Any other tool (file tools, MCP tools, ...): judged by the files it names ([`ToolCall::files`]).
    Other,
}

impl ToolCall {
    /// Whether this is a before-the-tool-runs event; other events carry
    /// nothing to decide.
    /// A payload without an event name is judged as one: refusing to judge
    /// it would let anything through.
    pub fn is_pre_tool(&self) -> bool {
        is_pre_tool_event(&self.event)
    }

    /// A call of `tool` about to run, sent by Hermes, with no input yet:
    /// the one place a `ToolCall` is made, so the tool's kind is always
    /// derived from its name the same way.
    pub fn new(tool: impl Into<String>) -> ToolCall {
        let tool = tool.into();
        ToolCall {
            agent: Agent::Hermes,
            event: "pre_tool_call".into(),
            kind: ToolKind::of(&tool),
            tool,
            input: ToolInput::Other,
            cwd: None,
            workdir: None,
            path: None,
            files: Vec::new(),
            profile: None,
            cross_profile: false,
            written: Vec::new(),
            session: None,
        }
    }

    /// A Hermes terminal call of `command` in `cwd`, for callers that judge
    /// a command line without a payload (`evaluate_command`, rule examples).
    pub fn shell(command: &str, cwd: Option<String>) -> ToolCall {
        ToolCall::new("terminal")
            .with_command(command)
            .with_cwd(cwd)
    }

    pub fn with_command(mut self, command: impl Into<String>) -> ToolCall {
        self.input = ToolInput::Shell {
            command: command.into(),
        };
        self
    }

    pub fn with_cwd(mut self, cwd: Option<String>) -> ToolCall {
        self.cwd = cwd;
        self
    }

    pub fn with_workdir(mut self, workdir: Option<String>) -> ToolCall {
        self.workdir = workdir;
        self
    }

    /// The session's directory, absolute (`~` is `home`): `None` when the
    /// payload names none, or one that is relative.
    pub fn session_dir(&self, home: Option<&str>) -> Option<String> {
        let dir = crate::path::absolute(self.cwd.as_deref()?, None, home);
        dir.starts_with('/').then_some(dir)
    }

    /// Where the tool runs, as its words name it (no link followed): the
    /// session's directory after `cd workdir`. `None` when that cannot be
    /// known: no session directory for a relative `workdir`, or a `$` in
    /// it, which warden does not expand.
    pub fn tool_dir(&self, home: Option<&str>) -> Option<String> {
        let session = self.session_dir(home);
        let Some(workdir) = self.workdir.as_deref() else {
            return session;
        };
        if workdir.contains('$') {
            return None;
        }
        let dir = crate::path::absolute(workdir, session.as_deref(), home);
        dir.starts_with('/').then_some(dir)
    }

    /// The one file a file tool works on: read by a read-only tool, else written.
    pub fn with_path(mut self, path: Option<String>) -> ToolCall {
        self.files = path
            .iter()
            .map(|p| FileRef {
                path: p.clone(),
                write: self.kind != ToolKind::Read,
            })
            .collect();
        self.path = path;
        self
    }

    /// Every file the tool touches (the first is also [`ToolCall::path`]).
    pub fn with_files(mut self, files: Vec<FileRef>) -> ToolCall {
        self.path = files.first().map(|f| f.path.clone());
        self.files = files;
        self
    }

    pub fn from(mut self, agent: Agent, event: impl Into<String>) -> ToolCall {
        self.agent = agent;
        self.event = event.into();
        self
    }

    pub fn command(&self) -> Option<&str> {
        match &self.input {
            ToolInput::Shell { command } => Some(command),
            ToolInput::Other => None,
        }
    }
}

fn is_pre_tool_event(event: &str) -> bool {
    matches!(
        event,
        "pre_tool_call" | "PreToolUse" | "BeforeTool" | "tool.execute.before" | "preToolUse" | ""
    )
}

/// Tool names that run a shell command line, compared case-insensitively.
/// Hermes calls it `terminal`, Claude Code and Codex `Bash`; the others are
/// names Codex and other clients have used for the same tool. Copilot CLI's
/// `write_bash` types its `input` into a shell its `bash` tool left
/// running: what it types is a command line like any other.
const SHELL_TOOLS: &[&str] = &[
    "terminal",
    "bash",
    "shell",
    "local_shell",
    "exec_command",
    "run_shell_command",
    "write_bash",
];

/// Parses one payload. Unknown fields are ignored; a missing or mistyped field
/// that the decision needs is an error (and so a block).
pub fn parse(text: &str) -> Result<ToolCall> {
    if text.trim().is_empty() {
        return Err(Error::PayloadEmpty);
    }
    let value = json::from_str(text).map_err(|e| Error::PayloadJson(e.to_string()))?;
    let Json::Object(root) = value else {
        return Err(Error::PayloadJson(
            "the payload is not a JSON object".into(),
        ));
    };
    let mut event = optional_str(&root, "hook_event_name")?.unwrap_or_default();
    let mut fields = &SNAKE_CASE;
    // Only Copilot CLI names no event (every other agent names one, so
    // their payloads never get here): it spells its fields in camelCase.
    if event.is_empty() && root.get("tool_name").is_none() && root.get("toolName").is_some() {
        (event, fields) = ("preToolUse", &CAMEL_CASE);
    }
    // Other events (Hermes' on_session_start sends a null tool_name) carry
    // nothing to judge; only a call about to run needs its tool named.
    let tool = match optional_str(&root, fields.tool)? {
        Some(tool) => tool.to_string(),
        None if is_pre_tool_event(event) => return Err(missing(fields.tool)),
        None => String::new(),
    };
    let agent = detect_agent(&root, event, &tool);
    let mut parsed = None;
    let input = arguments(&root, fields.input, &mut parsed)?;
    let text = |s: &str| (!s.is_empty()).then(|| s.to_string());
    // Gemini's shell tool names its working directory `dir_path`
    // (relative to the session's directory, as `workdir` may be).
    let workdir_field = match agent {
        Agent::Gemini if ToolKind::of(&tool) == ToolKind::Shell => "dir_path",
        _ => "workdir",
    };
    let workdir = match input {
        Some(map) => optional_str(map, workdir_field)?.and_then(text),
        None => None,
    };
    let cwd = optional_str(&root, "cwd")?.and_then(text);
    let mut call = ToolCall::new(tool)
        .from(agent, event)
        .with_cwd(cwd)
        .with_workdir(workdir);
    if call.kind != ToolKind::Shell {
        let files = match input {
            Some(map) => tool_files(&call.tool, call.kind, map),
            None => Vec::new(),
        };
        if let (ToolKind::Write, Some(map)) = (call.kind, input) {
            call.written = written_code(map, &files);
        }
        call = call.with_files(files);
    }
    call.profile = optional_str(&root, "profile")
        .ok()
        .flatten()
        .filter(|p| !p.is_empty())
        .map(str::to_string);
    call.session = optional_str(&root, fields.session)
        .ok()
        .flatten()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    call.cross_profile =
        input.is_some_and(|m| matches!(m.get("cross_profile"), Some(Json::Bool(true))));
    if is_pre_tool_event(event) && call.kind == ToolKind::Shell {
        let map = input.ok_or_else(|| missing(fields.input))?;
        return Ok(call.with_command(shell_command(map)?));
    }
    Ok(call)
}

/// The names a payload gives what warden reads of it.
struct Fields {
    tool: &'static str,
    input: &'static str,
    session: &'static str,
}

/// Hermes', Claude Code's, Codex's and Gemini CLI's names.
const SNAKE_CASE: Fields = Fields {
    tool: "tool_name",
    input: "tool_input",
    session: "session_id",
};

/// Copilot CLI's names (its `preToolUse` payload).
const CAMEL_CASE: Fields = Fields {
    tool: "toolName",
    input: "toolArgs",
    session: "sessionId",
};

/// The tool's arguments, an object. Copilot CLI may send them as the JSON
/// text of one, which is read into `parsed`; any other text, or any other
/// kind of value, is an error (and so a block).
fn arguments<'r>(
    root: &'r Object<'_>,
    field: &'static str,
    parsed: &'r mut Option<Json<'r>>,
) -> Result<Option<&'r Object<'r>>> {
    let not_object = |problem: &str| Error::PayloadField {
        field,
        problem: problem.into(),
    };
    match root.get(field) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Object(map)) => Ok(Some(map)),
        Some(Json::Str(text)) if field == CAMEL_CASE.input => {
            let value = json::from_str(text).map_err(|e| not_object(&format!("not JSON ({e})")))?;
            match parsed.insert(value) {
                Json::Object(map) => Ok(Some(map)),
                _ => Err(not_object(
                    "the JSON text of something other than an object",
                )),
            }
        }
        Some(_) => Err(not_object("not an object")),
    }
}

/// The tool's arguments in the payload `text` as a JSON value (`tool_input`,
/// or Copilot CLI's `toolArgs`, read from its JSON text when it is one):
/// what `warden allow-once` tells one call from another by.
pub fn arguments_value(text: &str) -> Option<serde_json::Value> {
    let mut root = serde_json::from_str::<serde_json::Value>(text).ok()?;
    let value = match root.get_mut(SNAKE_CASE.input) {
        Some(input) => input.take(),
        None => root.get_mut(CAMEL_CASE.input)?.take(),
    };
    match value {
        serde_json::Value::String(text) => serde_json::from_str(&text).ok(),
        value => Some(value),
    }
}

/// Arguments that name a file, across agents and tools.
const PATH_FIELDS: &[&str] = &[
    "path",
    "file_path",
    // OpenCode spells its file arguments in camelCase.
    "filePath",
    "notebook_path",
    "filepath",
    "filename",
    "file",
    "target_file",
    "source",
    "destination",
    "dest",
    "target",
    "directory",
    "dir",
];
/// Arguments that name several files at once (Gemini's `read_many_files`
/// takes its paths and globs as `include`).
const PATH_LIST_FIELDS: &[&str] = &["include", "paths"];
/// Arguments that hold a patch whose headers name files.
const PATCH_FIELDS: &[&str] = &["patch", "command", "input", "diff", "patchText"];

/// The files a non-shell tool touches. Only string arguments count: a
/// mistyped one is the tool's problem, and judging the rest is still right.
fn tool_files(tool: &str, kind: ToolKind, map: &Object<'_>) -> Vec<FileRef> {
    let write = match kind {
        ToolKind::Read => false,
        ToolKind::Write => true,
        // An unknown tool writes unless its name says it only looks.
        _ => !reads_only(tool),
    };
    let text = |field: &str| match map.get(field) {
        Some(Json::Str(s)) if !s.trim().is_empty() => Some(&**s),
        _ => None,
    };
    let mut files: Vec<FileRef> = Vec::new();
    let mut add = |path: &str, write: bool| {
        let path = path.trim().to_string();
        if !files.iter().any(|f| f.path == path && f.write == write) {
            files.push(FileRef { path, write });
        }
    };
    for field in PATH_FIELDS {
        if let Some(path) = text(field) {
            add(path, write);
        }
    }
    for field in PATH_LIST_FIELDS {
        if let Some(Json::Array(items)) = map.get(field) {
            for item in items {
                match item {
                    Json::Str(path) if !path.trim().is_empty() => add(path, write),
                    _ => {}
                }
            }
        }
    }
    if kind == ToolKind::Write {
        for field in PATCH_FIELDS {
            if let Some(patch) = text(field) {
                for file in crate::patch::files(patch) {
                    add(&file.path, true);
                }
            }
        }
    }
    files
}

/// Arguments that hold a file's new text: a write's content, an edit's
/// replacement (Claude's, Hermes', OpenCode's and the editor tool's spellings).
const TEXT_FIELDS: &[&str] = &[
    "content",
    "file_text",
    "new_string",
    "newString",
    "new_str",
    "new_text",
    "text",
];

/// The text a file tool writes, by file.
fn written_code(map: &Object<'_>, files: &[FileRef]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut text = String::new();
    for field in TEXT_FIELDS {
        if let Some(Json::Str(s)) = map.get(field) {
            text.push_str(s);
            text.push('\n');
        }
    }
    // Claude's MultiEdit: each edit's new text.
    if let Some(Json::Array(edits)) = map.get("edits") {
        for edit in edits {
            if let Json::Object(edit) = edit {
                if let Some(Json::Str(s)) = edit.get("new_string") {
                    text.push_str(s);
                    text.push('\n');
                }
            }
        }
    }
    if !text.is_empty() {
        for file in files.iter().filter(|f| f.write) {
            out.push((file.path.clone(), text.clone()));
        }
    }
    for field in PATCH_FIELDS {
        if let Some(Json::Str(patch)) = map.get(field) {
            out.extend(crate::patch::added_lines(patch));
        }
    }
    out
}

/// Whether an unknown tool's name starts with a verb that only looks
/// (`read_text_file`, `mcp__fs__list_directory`, `get_file_info`).
fn reads_only(tool: &str) -> bool {
    let lower = tool.to_ascii_lowercase();
    let name = lower.rsplit("__").next().unwrap_or(&lower);
    let verb = name.split(['_', '-', '.']).next().unwrap_or(name);
    matches!(
        verb,
        "read"
            | "get"
            | "list"
            | "search"
            | "find"
            | "view"
            | "show"
            | "stat"
            | "glob"
            | "grep"
            | "ls"
            | "cat"
            | "head"
            | "tail"
            | "info"
            | "describe"
            | "fetch"
    )
}

fn detect_agent(root: &Object<'_>, event: &str, tool: &str) -> Agent {
    let has_turn_id = matches!(root.get("turn_id"), Some(Json::Str(s)) if !s.is_empty());
    match event {
        "pre_tool_call" => Agent::Hermes,
        "BeforeTool" => Agent::Gemini,
        "preToolUse" => Agent::Copilot,
        // The event name warden's OpenCode plugin sends (OpenCode's own
        // name for the hook).
        "tool.execute.before" => Agent::OpenCode,
        "PreToolUse" if has_turn_id => Agent::Codex,
        "PreToolUse" => Agent::Claude,
        // No event name: guess from the tool's spelling.
        _ if tool == "Bash" || tool.starts_with("mcp__") => Agent::Claude,
        _ => Agent::Hermes,
    }
}

// Codex has sent the command as an argv array; a shell line is rebuilt from
// it with quoting so the analysis sees the same words.
fn shell_command(map: &Object<'_>) -> Result<String> {
    let command = shell_command_text(map)?;
    // No shell can be given a NUL; a program that passed the line on as a C
    // string would cut it there and run only what came before, which is
    // not what the rest of the line would be judged as.
    if command.contains('\0') {
        return Err(Error::PayloadField {
            field: "tool_input.command",
            problem: "a string with a NUL byte, which no shell can be given".into(),
        });
    }
    Ok(command)
}

fn shell_command_text(map: &Object<'_>) -> Result<String> {
    // Codex has named it `cmd`; Copilot's `write_bash` names what it types `input`.
    let line = map.get("command").or_else(|| map.get("cmd"));
    match line.or_else(|| map.get("input")) {
        Some(Json::Str(s)) => Ok(s.to_string()),
        Some(Json::Array(items)) => {
            let mut words = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    Json::Str(s) => words.push(quote(s)),
                    _ => {
                        return Err(Error::PayloadField {
                            field: "tool_input.command",
                            problem: "an array with a non-string element".into(),
                        })
                    }
                }
            }
            Ok(words.join(" "))
        }
        None | Some(Json::Null) => Err(missing("tool_input.command")),
        Some(_) => Err(Error::PayloadField {
            field: "tool_input.command",
            problem: "neither a string nor an array of strings".into(),
        }),
    }
}

fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn optional_str<'a>(map: &'a Object<'_>, field: &'static str) -> Result<Option<&'a str>> {
    match map.get(field) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Str(s)) => Ok(Some(s)),
        Some(_) => Err(Error::PayloadField {
            field,
            problem: "not a string".into(),
        }),
    }
}

fn missing(field: &'static str) -> Error {
    Error::PayloadField {
        field,
        problem: "missing".into(),
    }
}

#[cfg(test)]
mod tests;
