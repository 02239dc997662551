//! `warden install`, `uninstall` and `doctor` offline: what each agent's files hold afterwards, what survives of the person's own, and what the output and exit code say.
//!
//! Every test runs the real binary (`World::command`, environment cleared)
//! on a fake machine whose HOME, agent homes and PATH (empty, or holding fake
//! agent programs) all lie inside it: no real agent or configuration counts.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::World;

tests![
    install_all_on_a_fresh_home_registers_each_agent_with_safe_defaults,
    install_twice_changes_nothing_and_makes_no_second_backup,
    install_keeps_the_persons_files_and_uninstall_gives_them_back,
    install_writes_through_a_symlinked_config_and_keeps_the_link,
    dict_keyed_hermes_hooks_become_a_list_and_cli_config_hooks_are_moved,
    dry_run_changes_no_file_and_says_what_it_would_change,
    accept_hooks_records_consent_for_the_exact_command_and_uninstall_removes_it,
    hermes_that_honours_approve_gets_no_on_ask_block_and_no_fail_closed,
    hermes_that_ignores_approve_gets_on_ask_block_and_fail_closed,
    doctor_on_a_fresh_home_fails_and_names_the_install_for_each_agent,
    doctor_passes_for_claude_after_install,
    doctor_for_hermes_wants_consent_and_only_warns_when_no_hermes_can_be_asked,
    doctor_fails_a_claude_hook_that_answers_allow_to_git_status,
    bad_files_are_left_alone_and_the_other_agents_still_installed,
    install_with_an_unknown_agent_is_a_usage_error,
    install_help_prints_usage,
    install_with_no_agent_found_asks_to_name_one,
];

pub const HERMES_CONFIG: &str = "home/.hermes/config.yaml";
pub const CLAUDE_SETTINGS: &str = "home/.claude/settings.json";
const CODEX_HOOKS: &str = "home/.codex/hooks.json";
const ALLOWLIST: &str = "home/.hermes/shell-hooks-allowlist.json";
const AGENT_DIRS: [&str; 3] = ["home/.hermes", "home/.claude", "home/.codex"];

const HERMES_MATCHER: &str = "terminal|write_file|patch|read_file|search_files";
const CLAUDE_MATCHER: &str = "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Glob|Grep";
const CODEX_MATCHER: &str = "Bash|apply_patch";

/// The doctor's live round trips through the registered command line.
pub(crate) const REFUSED: &str = "`rm -rf /` through the registered command: refused";
pub(crate) const LET_THROUGH: &str = "`git status` through the registered command: let through";

/// What a fake Hermes answers when asked what it supports.
const CAN_ASK: &str = r#"{"version":"fake 1","approve":true,"fail_closed":false}"#;
const CANNOT_ASK: &str = r#"{"version":"fake 2","approve":false,"fail_closed":true}"#;

// ---------------------------------------------------------------- helpers

/// What one run of the binary gave.
#[derive(Debug)]
pub(crate) struct Run {
    code: i32,
    pub(crate) stdout: String,
    stderr: String,
}

impl Run {
    /// The output line of `who` ("ok hermes", "FAIL codex"...) whose text
    /// contains `needle`.
    #[track_caller]
    pub(crate) fn line(&self, who: &str, needle: &str) -> &str {
        let (label, agent) = who.split_once(' ').unwrap();
        let head = format!("{label:<4} {agent:<7} ");
        let mut lines = self.stdout.lines();
        let found = lines.find(|l| l.starts_with(&head) && l.contains(needle));
        found.unwrap_or_else(|| panic!("no `{head}…{needle}…` line in:\n{}", self.stdout))
    }

    /// The doctor's FAIL line of `agent` containing `needle`, which must be
    /// followed by a `fix:` line containing `fix`.
    #[track_caller]
    pub(crate) fn fails(&self, agent: &str, needle: &str, fix: &str) -> &str {
        let failed = self.line(&format!("FAIL {agent}"), needle);
        let mut after = self.stdout.lines().skip_while(|l| *l != failed).skip(1);
        let next = after.next().unwrap_or_default().trim_start();
        let fixed = next.starts_with("fix: ") && next.contains(fix);
        assert!(fixed, "no fix `{fix}` after `{failed}`:\n{}", self.stdout);
        failed
    }

    /// How many output lines carry `label`.
    pub(crate) fn count(&self, label: &str) -> usize {
        let head = format!("{label:<4} ");
        self.stdout.lines().filter(|l| l.starts_with(&head)).count()
    }
}

/// Asserts that `text` contains each of `needles`.
#[track_caller]
pub(crate) fn holds(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "no `{needle}` in:\n{text}");
    }
}

/// A machine with an empty PATH directory (`bin/`) and a managed Hermes
/// directory of its own, plus the directories `dirs` (relative to the root).
pub(crate) fn machine(name: &str, dirs: &[&str]) -> World {
    let w = World::new(&format!("setup/{name}"))
        .var_at("PATH", "bin")
        .var_at("HERMES_MANAGED_DIR", "etc-hermes");
    for dir in ["bin"].iter().chain(dirs) {
        fs::create_dir_all(w.path(dir)).unwrap();
    }
    w
}

/// The real binary with `args` (split at spaces) in the world, stdin
/// closed; its exit code must be `code`.
#[track_caller]
pub(crate) fn warden(w: &World, code: i32, args: &str) -> Run {
    let mut cmd = w.command();
    let out = cmd
        .args(args.split(' '))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code().expect("warden exited by a signal"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    assert_eq!(run.code, code, "warden {args}: {run:#?}");
    run
}

/// The path warden registers when not given `--warden`: its own.
pub(crate) fn exe() -> String {
    let exe = fs::canonicalize(env!("CARGO_BIN_EXE_warden")).unwrap();
    exe.display().to_string()
}

pub(crate) fn read(w: &World, rel: &str) -> String {
    let path = w.path(rel);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

pub(crate) fn exists(w: &World, rel: &str) -> bool {
    Path::new(&w.path(rel)).exists()
}

pub(crate) fn json_file(w: &World, rel: &str) -> Value {
    serde_json::from_str(&read(w, rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A YAML file's value, as JSON for easy comparison.
fn yaml_file(w: &World, rel: &str) -> Value {
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(&read(w, rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::to_value(yaml).unwrap()
}

/// `hooks.pre_tool_call` of a Hermes config.yaml.
fn hermes_hooks(w: &World, rel: &str) -> Value {
    yaml_file(w, rel)["hooks"]["pre_tool_call"].clone()
}

/// Every file in the world, by path relative to its root, with its bytes.
pub(crate) fn tree(w: &World) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    let root = PathBuf::from(w.root_text());
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The backups of `rel` beside it, as paths relative to the root.
pub(crate) fn backups(w: &World, rel: &str) -> Vec<String> {
    let prefix = format!("{rel}.warden-backup-");
    tree(w)
        .into_keys()
        .filter(|k| k.starts_with(&prefix))
        .collect()
}

/// `YYYYMMDDTHHMMSSZ`, the UTC stamp a backup's name ends with.
fn is_stamp(stamp: &str) -> bool {
    let char_ok = |(i, c): (usize, char)| match i {
        8 => c == 'T',
        15 => c == 'Z',
        _ => c.is_ascii_digit(),
    };
    stamp.len() == 16 && stamp.chars().enumerate().all(char_ok)
}

fn put_exec(w: &World, rel: &str, text: &str) {
    w.put(rel, text);
    fs::set_permissions(w.path(rel), fs::Permissions::from_mode(0o755)).unwrap();
}

/// Hermes' list entry for warden.
fn hermes_entry(command: &str, fail_closed: bool) -> Value {
    let mut entry = json!({"matcher": HERMES_MATCHER, "command": command, "timeout": 10});
    if fail_closed {
        entry["fail_closed"] = true.into();
    }
    entry
}

/// A Claude Code or Codex matcher group with one command handler.
fn json_group(matcher: &str, command: &str) -> Value {
    let handler = json!({"type": "command", "command": command, "timeout": 10});
    json!({"matcher": matcher, "hooks": [handler]})
}

/// A Claude Code or Codex hooks file holding only that group.
fn json_hooks(matcher: &str, command: &str) -> Value {
    json!({"hooks": {"PreToolUse": [json_group(matcher, command)]}})
}

/// Codex 0.169's trust hash of warden's hook: SHA-256 of the compact,
/// key-sorted JSON of the event, matcher and handler (written out here by
/// hand, not with warden's code).
fn codex_hash(command: &str) -> String {
    let doc = format!(
        r#"{{"event_name":"pre_tool_use","hooks":[{{"async":false,"command":{},"timeout":10,"type":"command"}}],"matcher":"{CODEX_MATCHER}"}}"#,
        Value::from(command)
    );
    let digest = Sha256::digest(doc.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// A fake Hermes console script in PATH whose `#!` names a fake Python, which
/// answers `answer` (and notes the call in `probe-calls`) only to `-c` with a
/// program asking Hermes' hook parser: a registration that follows `answer`
/// shows the probe ran. Shell builtins only: the world's PATH has no `cat`.
fn fake_hermes(w: &World, answer: &str) {
    let calls = w.path("probe-calls");
    let python = format!(
        "#!/bin/sh\n\
         [ \"$1\" = -c ] || exit 0\n\
         case \"$2\" in *shell_hooks*_parse_single_entry*_parse_response*) ;; *) exit 0 ;; esac\n\
         echo \"$1\" >> '{calls}'\n\
         echo '{answer}'\n"
    );
    put_exec(w, "python/bin/python", &python);
    let hermes = format!(
        "#!{}\nimport sys\nfrom hermes_cli.main import main\nsys.exit(main())\n",
        w.path("python/bin/python")
    );
    put_exec(w, "bin/hermes", &hermes);
}

// ---------------------------------------------------------------- install

fn install_all_on_a_fresh_home_registers_each_agent_with_safe_defaults() {
    let w = machine("fresh", &AGENT_DIRS);
    // Codex's trust is left to do, and a todo is not a failure: exit 0.
    let out = warden(&w, 0, "install --agent all");
    let fails = (out.count("FAIL"), out.stderr.as_str());
    assert_eq!(fails, (0, ""), "{out:#?}");
    let exe = exe();

    // No Hermes to ask: --on-ask block and fail_closed, safe on every release.
    out.line("ok hermes", "could not ask Hermes what it supports");
    out.line("done hermes", &w.path(HERMES_CONFIG));
    let entry = hermes_entry(&format!("{exe} --on-ask block"), true);
    let want = json!({"hooks": {"pre_tool_call": [entry]}});
    assert_eq!(yaml_file(&w, HERMES_CONFIG), want);
    out.line("todo hermes", "--accept-hooks");
    assert!(!exists(&w, ALLOWLIST), "consent recorded unasked");

    out.line("done claude", &w.path(CLAUDE_SETTINGS));
    let want = json_hooks(CLAUDE_MATCHER, &format!("{exe} --agent claude"));
    assert_eq!(json_file(&w, CLAUDE_SETTINGS), want);

    out.line("done codex", &w.path(CODEX_HOOKS));
    let codex = format!("{exe} --agent codex");
    let want = json_hooks(CODEX_MATCHER, &codex);
    assert_eq!(json_file(&w, CODEX_HOOKS), want);
    // No codex on PATH: the trust record to add by hand, exactly.
    out.line("todo codex", "Codex is not on PATH");
    let record = format!(
        "add to {}:\n    [hooks.state.\"{}:pre_tool_use:0:0\"]\n    trusted_hash = \"{}\"\n",
        w.path("home/.codex/config.toml"),
        w.path(CODEX_HOOKS),
        codex_hash(&codex)
    );
    holds(&out.stdout, &[&record]);
    let toml = "home/.codex/config.toml";
    assert!(!exists(&w, toml), "warden wrote {toml}");

    // The files install made hold nothing else, so uninstall takes them away.
    warden(&w, 0, "uninstall --agent all");
    for file in [HERMES_CONFIG, CLAUDE_SETTINGS, CODEX_HOOKS] {
        assert!(
            !exists(&w, file),
            "uninstall left {file}, which install made"
        );
    }
}

fn install_twice_changes_nothing_and_makes_no_second_backup() {
    let w = machine("twice", &AGENT_DIRS).file(CLAUDE_SETTINGS, "{\n  \"model\": \"opus\"\n}\n");
    // No --agent: every agent found here (all three directories exist).
    let first = warden(&w, 0, "install --accept-hooks");
    assert_eq!(first.count("done"), 4, "{}", first.stdout);
    let once = tree(&w);

    let second = warden(&w, 0, "install --accept-hooks");
    assert_eq!(second.count("done"), 0, "{}", second.stdout);
    assert_eq!(tree(&w), once, "the second run changed or added a file");
    let files = [HERMES_CONFIG, ALLOWLIST, CLAUDE_SETTINGS, CODEX_HOOKS];
    for (agent, file) in ["hermes", "hermes", "claude", "codex"].iter().zip(files) {
        let nothing = format!("{}: nothing to change", w.path(file));
        second.line(&format!("ok {agent}"), &nothing);
        assert_eq!(read(&w, file).matches(&exe()).count(), 1, "{file}");
    }
    assert_eq!(backups(&w, CLAUDE_SETTINGS).len(), 1);
    assert!(backups(&w, HERMES_CONFIG).is_empty(), "a backup of no file");
}

/// A Hermes config.yaml written by hand.
const HERMES_THEIRS: &str = "\
# Hermes configuration, edited by hand
model:
  default: anthropic/claude-sonnet   # the usual one
  provider: openrouter

hooks:
  # the auditor sees every tool call
  pre_tool_call:
    - matcher: \"terminal\"
      command: \"/usr/local/bin/audit-hook --strict\"   # keep this
      timeout: 5

  post_tool_call:
    - command: /usr/local/bin/logger

# last, the display
display:
  skin: mono
";

/// A Claude Code settings.json, keys in no alphabetical order, laid out as
/// Claude Code writes it.
const CLAUDE_THEIRS: &str = r#"{
  "theme": "dark",
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/audit-bash"
          }
        ]
      }
    ]
  },
  "apiKeyHelper": "/usr/local/bin/key"
}
"#;

fn install_keeps_the_persons_files_and_uninstall_gives_them_back() {
    let w = machine("theirs", &[])
        .file(HERMES_CONFIG, HERMES_THEIRS)
        .file(CLAUDE_SETTINGS, CLAUDE_THEIRS);
    let exe = exe();
    warden(&w, 0, "install --agent hermes");
    warden(&w, 0, "install --agent claude");

    // Hermes: every line of the old file is still there, in order (its
    // comments too); what was added is warden's entry, after the other hook.
    let new = read(&w, HERMES_CONFIG);
    let mut old = HERMES_THEIRS.lines().peekable();
    let added = new.lines().filter(|l| old.next_if_eq(l).is_none()).count();
    assert_eq!((old.next(), added), (None, 4), "{new}");
    let audit = "/usr/local/bin/audit-hook --strict";
    let audit = json!({"matcher": "terminal", "command": audit, "timeout": 5});
    let ours = hermes_entry(&format!("{exe} --on-ask block"), true);
    assert_eq!(hermes_hooks(&w, HERMES_CONFIG), json!([audit, ours]));

    // Claude: keys where they were, the other hook first, warden's after.
    let text = read(&w, CLAUDE_SETTINGS);
    let at = |key: &str| text.find(&format!("\n  \"{key}\": ")).unwrap_or(usize::MAX);
    let order = ["theme", "model", "hooks", "apiKeyHelper"].map(at);
    assert!(order.windows(2).all(|p| p[0] < p[1]), "{text}");
    let mut want: Value = serde_json::from_str(CLAUDE_THEIRS).unwrap();
    let ours = json_group(CLAUDE_MATCHER, &format!("{exe} --agent claude"));
    let groups = want["hooks"]["PreToolUse"].as_array_mut().unwrap();
    groups.push(ours);
    assert_eq!(json_file(&w, CLAUDE_SETTINGS), want);

    // One backup each, named by the UTC time, holding the old bytes.
    let theirs = [
        (HERMES_CONFIG, HERMES_THEIRS),
        (CLAUDE_SETTINGS, CLAUDE_THEIRS),
    ];
    for (file, original) in theirs {
        let saved = backups(&w, file);
        assert_eq!(saved.len(), 1, "{file}: {saved:?}");
        let stamp = &saved[0][file.len() + ".warden-backup-".len()..];
        assert!(is_stamp(stamp), "{}", saved[0]);
        assert_eq!(read(&w, &saved[0]), original);
    }

    warden(&w, 0, "uninstall --agent all");
    assert_eq!(read(&w, HERMES_CONFIG), HERMES_THEIRS);
    assert_eq!(read(&w, CLAUDE_SETTINGS), CLAUDE_THEIRS);
}

fn install_writes_through_a_symlinked_config_and_keeps_the_link() {
    // Dotfile managers (stow, chezmoi, home-manager) link these files to a
    // checkout: the edit belongs in the checkout, and the link must stay.
    let (yaml, json) = ("model: x\n", "{\n  \"model\": \"opus\"\n}\n");
    let links = [
        (HERMES_CONFIG, "dotfiles/config.yaml", yaml),
        (CLAUDE_SETTINGS, "dotfiles/settings.json", json),
    ];
    let w = machine("symlinked", &["home/.hermes", "home/.claude", "dotfiles"]);
    for (link, target, text) in links {
        w.put(target, text);
        std::os::unix::fs::symlink(w.path(target), w.path(link)).unwrap();
    }
    warden(&w, 0, "install --agent hermes");
    warden(&w, 0, "install --agent claude");
    let linked = |link: &str| fs::symlink_metadata(w.path(link)).unwrap().is_symlink();
    for (link, target, _) in links {
        assert!(
            linked(link),
            "{link} was replaced by a file: {target} is cut off"
        );
        assert!(read(&w, target).contains(&exe()), "{target} lacks warden");
    }
    warden(&w, 0, "uninstall --agent all");
    for (link, target, text) in links {
        assert!(linked(link) && read(&w, target) == text, "{target}");
    }
}

fn dict_keyed_hermes_hooks_become_a_list_and_cli_config_hooks_are_moved() {
    let (config, cli_config) = ("hermes-home/config.yaml", "hermes-home/cli-config.yaml");
    let dict = "hooks:\n  pre_tool_call:\n    terminal: [/some/warden, other-hook]\n";
    let cli = "# display settings\nhooks:\n  pre_tool_call:\n    \
               - command: /opt/bin/warden --on-ask block\n    \
               - command: /usr/bin/not-warden\nskin: mono\n";
    let w = machine("dict-shape", &[])
        .var_at("HERMES_HOME", "hermes-home")
        .file(config, dict)
        .file(cli_config, cli);
    // Hermes skips this shape: the doctor says so, and how to fix it.
    let keyed = "a mapping keyed by tool name";
    let doctor = warden(&w, 1, "doctor --agent hermes");
    doctor.fails("hermes", keyed, "warden install --agent hermes");

    let out = warden(&w, 0, "install --agent hermes");
    let fixed = out.line("done hermes", keyed);
    holds(fixed, &["rewrote it as the list Hermes reads"]);
    let other = json!({"matcher": "terminal", "command": "other-hook"});
    let ours = hermes_entry(&format!("{} --on-ask block", exe()), true);
    assert_eq!(hermes_hooks(&w, config), json!([other, ours]));

    // cli-config.yaml: warden's hook taken out, the other one named.
    let moved = out.line("done hermes", &w.path(cli_config));
    holds(moved, &["Hermes never reads hooks from cli-config.yaml"]);
    out.line("todo hermes", "holds 1 other hook(s)");
    assert!(read(&w, cli_config).starts_with("# display settings\n"));
    let rest = json!({"command": "/usr/bin/not-warden"});
    let want = json!({"hooks": {"pre_tool_call": [rest]}, "skin": "mono"});
    assert_eq!(yaml_file(&w, cli_config), want);
    assert!(!exists(&w, "home/.hermes"), "HERMES_HOME was not followed");
}

fn dry_run_changes_no_file_and_says_what_it_would_change() {
    let dirs = ["agents/hermes", "agents/claude", "agents/codex"];
    let cli = "hooks:\n  pre_tool_call:\n    - command: warden\n";
    let w = machine("dry-run", &dirs)
        .var_at("HERMES_HOME", "agents/hermes")
        .var_at("CLAUDE_CONFIG_DIR", "agents/claude")
        .var_at("CODEX_HOME", "agents/codex")
        .file("agents/claude/settings.json", CLAUDE_THEIRS)
        .file("agents/hermes/cli-config.yaml", cli);
    let before = tree(&w);
    let out = warden(&w, 0, "install --agent all --dry-run --accept-hooks");
    assert_eq!(tree(&w), before, "--dry-run changed files");
    for (agent, file) in [
        ("hermes", "hermes/config.yaml"),
        ("hermes", "hermes/cli-config.yaml"),
        ("hermes", "hermes/shell-hooks-allowlist.json"),
        ("claude", "claude/settings.json"),
        ("codex", "codex/hooks.json"),
    ] {
        let would = format!("would change {}", w.path(&format!("agents/{file}")));
        out.line(&format!("done {agent}"), &would);
    }
    out.line("done codex", "would record Codex's trust");

    // The same for taking it out again.
    warden(&w, 0, "install --agent all");
    assert!(!exists(&w, "home/.hermes") && !exists(&w, "home/.claude"));
    let installed = tree(&w);
    let out = warden(&w, 0, "uninstall --agent all --dry-run");
    assert_eq!(tree(&w), installed, "uninstall --dry-run changed files");
    let would = format!("would change {}", w.path("agents/claude/settings.json"));
    out.line("done claude", &would);
}

fn accept_hooks_records_consent_for_the_exact_command_and_uninstall_removes_it() {
    let w = machine("consent", &["hermes-home"]).var_at("HERMES_HOME", "hermes-home");
    let allowlist = "hermes-home/shell-hooks-allowlist.json";
    let out = warden(&w, 0, "install --agent hermes");
    holds(out.line("todo hermes", "--accept-hooks"), &["asks once"]);
    assert!(!exists(&w, allowlist), "consent recorded unasked");

    let out = warden(&w, 0, "install --agent hermes --accept-hooks");
    out.line("done hermes", "recorded your consent");
    assert_eq!(out.count("todo"), 0, "{}", out.stdout);
    let registered = &hermes_hooks(&w, "hermes-home/config.yaml")[0]["command"];
    let doc = json_file(&w, allowlist);
    let approvals = doc["approvals"].as_array().expect("an approvals list");
    assert_eq!(approvals.len(), 1, "{doc:#}");
    let record = approvals[0].as_object().unwrap();
    let keys: Vec<&str> = record.keys().map(String::as_str).collect();
    let want = "approved_at command event script_mtime_at_approval";
    assert_eq!(keys.join(" "), want);
    assert_eq!(&record["command"], registered);
    assert_eq!(record["event"], "pre_tool_call");
    for stamp in ["approved_at", "script_mtime_at_approval"] {
        let text = record[stamp].as_str().unwrap_or_default();
        assert!(text.len() >= 20 && text.ends_with('Z'), "{stamp}: {doc:#}");
    }

    // Recorded once, install without the flag has nothing left to ask.
    let out = warden(&w, 0, "install --agent hermes");
    out.line("ok hermes", "consent to this hook command is already");
    assert_eq!(out.count("todo"), 0, "{}", out.stdout);

    let out = warden(&w, 0, "uninstall --agent hermes");
    out.line("done hermes", "removed the consent record");
    // Nothing else was in it, so the file goes, as if install never ran.
    assert!(!exists(&w, allowlist), "an empty allowlist was left behind");
}

// ---------------------------------------------------------------- Hermes' capabilities

fn hermes_that_honours_approve_gets_no_on_ask_block_and_no_fail_closed() {
    let w = machine("probe-approve", &["home/.hermes"]);
    fake_hermes(&w, CAN_ASK);
    let out = warden(&w, 0, "install --agent hermes");
    let found = out.line("ok hermes", &w.path("bin/hermes"));
    holds(found, &["(fake 1)", "it honours approve"]);
    assert_eq!(read(&w, "probe-calls"), "-c\n", "one probe, with -c");
    let ours = hermes_entry(&exe(), false);
    assert_eq!(hermes_hooks(&w, HERMES_CONFIG), json!([ours]));
    let again = warden(&w, 0, "install --agent hermes");
    again.line("ok hermes", "config.yaml: nothing to change");

    // Hermes changes under the entry: the doctor says the flags no longer fit.
    fake_hermes(&w, CANNOT_ASK);
    let doctor = warden(&w, 1, "doctor --agent hermes");
    let fix = "warden install --agent hermes";
    doctor.fails("hermes", "and the hook has no --on-ask block", fix);
    doctor.fails("hermes", "supports fail_closed, and the hook does not", fix);
}

fn hermes_that_ignores_approve_gets_on_ask_block_and_fail_closed() {
    let w = machine("probe-block", &["home/.hermes"]);
    fake_hermes(&w, CANNOT_ASK);
    let out = warden(&w, 0, "install --agent hermes");
    let found = out.line("ok hermes", &w.path("bin/hermes"));
    let says = ["(fake 2)", "it ignores approve", "fail_closed is set"];
    holds(found, &says);
    assert_eq!(out.stdout.matches("could not ask").count(), 0);
    assert_eq!(read(&w, "probe-calls"), "-c\n");
    let ours = hermes_entry(&format!("{} --on-ask block", exe()), true);
    assert_eq!(hermes_hooks(&w, HERMES_CONFIG), json!([ours]));
}

// ---------------------------------------------------------------- doctor

fn doctor_on_a_fresh_home_fails_and_names_the_install_for_each_agent() {
    let w = machine("doctor-fresh", &AGENT_DIRS);
    let out = warden(&w, 1, "doctor");
    assert_eq!(out.count("FAIL"), 3, "{}", out.stdout);
    for agent in ["hermes", "claude", "codex"] {
        let fix = format!("warden install --agent {agent}");
        out.fails(agent, "warden is not registered", &fix);
    }
    // The one warning: warden is not on this machine's PATH.
    assert!(
        out.stdout.ends_with("\n3 checks failed (1 warning)\n"),
        "{}",
        out.stdout
    );
}

fn doctor_passes_for_claude_after_install() {
    let w = machine("doctor-claude", &["home/.claude"]);
    warden(&w, 0, "install --agent claude");
    // The round trips run the registered command: this very binary.
    let out = warden(&w, 0, "doctor --agent claude");
    out.line("ok claude", &format!("{} --agent claude", exe()));
    out.line("ok claude", REFUSED);
    out.line("ok claude", LET_THROUGH);
    let passed = "\nall checks passed (1 warning)\n";
    assert!(out.stdout.ends_with(passed), "{out:#?}");

    // The person's own allow rule for `git status` earns Claude Code an
    // `allow`, and that is no failure.
    let rule = "rules:\n  allow:\n    - \"terminal(git status:*)\"\n";
    w.put("home/.config/warden/config.yaml", rule);
    let out = warden(&w, 0, "doctor --agent claude");
    out.line("ok claude", LET_THROUGH);
    assert!(out.stdout.ends_with(passed), "{out:#?}");

    // One that covers a whole read tool is a warning, named by file and
    // line, with its fix; warden still guards, so doctor still passes.
    let rule = "rules:\n  allow:\n    - read_file\n";
    w.put("home/.config/warden/config.yaml", rule);
    let out = warden(&w, 0, "doctor --agent claude");
    let at = format!(
        "{}:3: allow rule `config.allow-1` (`read_file`) covers every file",
        w.path("home/.config/warden/config.yaml")
    );
    let warned = out.line("warn warden", &at);
    holds(
        warned,
        &[
            "`~/.aws/credentials`",
            "Claude Code runs Read with no permission prompt of its own",
        ],
    );
    let mut after = out.stdout.lines().skip_while(|l| *l != warned).skip(1);
    let fix = after.next().unwrap_or_default().trim_start();
    assert!(
        fix.starts_with("fix: narrow it to the project"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("\nall checks passed (2 warnings)\n"),
        "{out:#?}"
    );
}

fn doctor_for_hermes_wants_consent_and_only_warns_when_no_hermes_can_be_asked() {
    let w = machine("doctor-hermes", &["home/.hermes"]);
    warden(&w, 0, "install --agent hermes");
    let out = warden(&w, 1, "doctor --agent hermes");
    let fix = "warden install --agent hermes --accept-hooks";
    out.fails("hermes", "no consent recorded", fix);
    assert_eq!(out.count("FAIL"), 1, "{}", out.stdout);

    warden(&w, 0, "install --agent hermes --accept-hooks");
    let out = warden(&w, 0, "doctor --agent hermes");
    out.line("ok hermes", "consent to run the hook is recorded");
    out.line("warn hermes", "could not ask Hermes what it supports");
    out.line("ok hermes", REFUSED);
    out.line("ok hermes", LET_THROUGH);
    assert_eq!(out.count("FAIL"), 0, "{}", out.stdout);
}

fn doctor_fails_a_claude_hook_that_answers_allow_to_git_status() {
    // A hook named warden that refuses `rm -rf /` and says `allow` to all
    // else, as warden once did: Claude Code then skips its own permission
    // checks. Only the no-objection round trip may fail.
    let w = machine("doctor-allow", &[]);
    let answer = |decision: &str| {
        let out = json!({"hookEventName": "PreToolUse", "permissionDecision": decision});
        json!({ "hookSpecificOutput": out }).to_string()
    };
    let (deny, allow) = (answer("deny"), answer("allow"));
    let script = format!(
        "#!/bin/sh\nPATH=/usr/bin:/bin\ncase \"$(cat)\" in\n\
         *'rm -rf /'*) echo '{deny}' ;;\n*) echo '{allow}' ;;\nesac\n"
    );
    put_exec(&w, "fake/warden", &script);
    let command = format!("{} --agent claude", w.path("fake/warden"));
    let settings = json_hooks(CLAUDE_MATCHER, &command);
    w.put(CLAUDE_SETTINGS, settings.to_string());
    let out = warden(&w, 1, "doctor --agent claude");
    out.line("ok claude", &command);
    out.line("ok claude", REFUSED);
    let objected = "`git status` through the registered command should be let through";
    let failed = out.fails("claude", objected, "warden install --agent claude");
    let allowed = r#"should be let through, got {"hookSpecificOutput":{"#;
    holds(failed, &[allowed, r#""permissionDecision":"allow""#]);
    assert_eq!(out.count("FAIL"), 1, "{}", out.stdout);
}

// ---------------------------------------------------------------- bad files and usage

fn bad_files_are_left_alone_and_the_other_agents_still_installed() {
    let not_json = "{\"model\": \"opus\",\n";
    let not_yaml = "model: [unclosed\n  x: y\n";
    let w = machine("bad-files", &AGENT_DIRS)
        .file(CLAUDE_SETTINGS, not_json)
        .file(HERMES_CONFIG, not_yaml);
    let out = warden(&w, 1, "install --agent all");
    let hermes = out.line("FAIL hermes", &w.path(HERMES_CONFIG));
    holds(hermes, &["it is not valid YAML (", "nothing was changed"]);
    let claude = out.line("FAIL claude", &w.path(CLAUDE_SETTINGS));
    holds(claude, &["not valid JSON (", "nothing was changed there"]);
    assert_eq!(read(&w, CLAUDE_SETTINGS), not_json);
    assert_eq!(read(&w, HERMES_CONFIG), not_yaml);
    assert!(backups(&w, CLAUDE_SETTINGS).is_empty() && backups(&w, HERMES_CONFIG).is_empty());

    out.line("done codex", &w.path(CODEX_HOOKS));
    let command = format!("{} --agent codex", exe());
    let want = json_hooks(CODEX_MATCHER, &command);
    assert_eq!(json_file(&w, CODEX_HOOKS), want);
}

fn install_with_an_unknown_agent_is_a_usage_error() {
    let w = machine("usage-bogus", &AGENT_DIRS);
    let before = tree(&w);
    let out = warden(&w, 2, "install --agent bogus");
    assert_eq!(out.stdout, "");
    let says = ["unknown --agent value `bogus`", "USAGE: warden install"];
    holds(&out.stderr, &says);
    assert_eq!(tree(&w), before);
}

fn install_help_prints_usage() {
    let w = machine("usage-help", &AGENT_DIRS);
    let before = tree(&w);
    let out = warden(&w, 0, "install --help");
    let flags = [
        "USAGE:\n    warden install",
        "--agent",
        "--dry-run",
        "--accept-hooks",
    ];
    holds(&out.stdout, &flags);
    assert_eq!(tree(&w), before, "--help changed files");
}

fn install_with_no_agent_found_asks_to_name_one() {
    let w = machine("usage-none", &[]);
    let out = warden(&w, 1, "install");
    assert_eq!(out.stdout, "");
    let says = ["found no agent here", "name one with --agent"];
    holds(&out.stderr, &says);
    let written = fs::read_dir(w.path("home")).unwrap().count();
    assert_eq!(written, 0, "install wrote files");
}
