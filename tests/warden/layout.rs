//! What the code promises about its own shape: the documented stage table is the engine's, dependencies point one way, and files and engine functions stay small enough to read.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{self, repo_path};

tests![
    stage_table_is_the_engines,
    files_table_is_the_path_rules,
    sinks_table_is_the_code_sinks,
    dependencies_point_one_way,
    files_stay_readable,
    engine_functions_stay_short,
];

const TABLE_START: &str = "<!-- stages:start -->\n";
const TABLE_END: &str = "<!-- stages:end -->";

/// The stage table of docs/decisions.md, written from `STAGES` exactly as the test expects it.
fn stage_table() -> String {
    let mut out = String::from("| # | stage | decides | what it catches |\n|---|---|---|---|\n");
    for (n, stage) in warden::engine::STAGES.iter().enumerate() {
        let number = if stage.after_layers {
            "then".to_string()
        } else {
            (n + 1).to_string()
        };
        out.push_str(&format!(
            "| {number} | {} | {} | {} |\n",
            stage.name, stage.decides, stage.catches
        ));
    }
    out
}

fn stage_table_is_the_engines() {
    support::doc_block(
        "docs/decisions.md",
        TABLE_START,
        TABLE_END,
        &stage_table(),
        "STAGES (src/engine/layers.rs)",
    );
}

/// The table of path rules in docs/files.md, written from `files::RULES`.
fn files_table() -> String {
    let decision = |d: Option<warden::verdict::Decision>| d.map_or("", |d| d.as_str());
    let mut out = String::from("| rule | write | read | where | why |\n|---|---|---|---|---|\n");
    for rule in warden::rules::files::RULES {
        let write = match (rule.write, rule.changes) {
            (Some(d), true) => format!("{} (also deleting, moving, chmod)", d.as_str()),
            (d, _) => decision(d).to_string(),
        };
        out.push_str(&format!(
            "| `{}` | {write} | {} | {} | {} |\n",
            rule.id,
            decision(rule.read),
            rule.places(),
            rule.reason
        ));
    }
    out
}

fn files_table_is_the_path_rules() {
    support::doc_block(
        "docs/files.md",
        "<!-- files:start -->\n",
        "<!-- files:end -->",
        &files_table(),
        "the path rules (src/rules/files.rs)",
    );
}

/// The code-sink table in docs/decisions.md is what `warden rules sinks` prints.
fn sinks_table_is_the_code_sinks() {
    support::doc_block(
        "docs/decisions.md",
        "<!-- sinks:start -->\n",
        "<!-- sinks:end -->",
        &warden::shell::sinks::markdown(),
        "the code-sink table (src/shell/sinks.rs)",
    );
}

/// The modules from the top of the program down: a module may use those
/// after it, and the leaves, never one before it.
const LAYERS: &[&str] = &[
    "cli", "agents", "once", "audit", "engine", "config", "rules", "shell",
];
const LEAVES: &[&str] = &[
    "payload",
    "verdict",
    "error",
    "path",
    "resolve",
    "patch",
    "subcommands",
    "gate",
];

fn dependencies_point_one_way() {
    let mut wrong = Vec::new();
    for file in rust_files(&repo_path("src")) {
        let rel = file
            .strip_prefix(repo_path("src"))
            .expect("under src")
            .to_string_lossy()
            .into_owned();
        let module = rel.split(['/', '.']).next().unwrap_or_default().to_string();
        let allowed: Vec<&str> = match LAYERS.iter().position(|m| *m == module) {
            Some(at) => LAYERS[at..].iter().chain(LEAVES).copied().collect(),
            // A leaf uses no layer; it may use another leaf.
            None if LEAVES.contains(&module.as_str()) => LEAVES.to_vec(),
            None => continue,
        };
        let text = fs::read_to_string(&file).expect("source is readable");
        for (n, line) in text.lines().enumerate() {
            for used in crate_paths(line) {
                if !allowed.contains(&used.as_str()) {
                    wrong.push(format!("src/{rel}:{}: {module} uses crate::{used}", n + 1));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies must point cli -> agents -> once -> audit -> engine -> config -> rules -> shell (and to the leaves {LEAVES:?}):\n{}",
        wrong.join("\n")
    );
}

/// The top-level modules a line names as `crate::x`.
fn crate_paths(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices("crate::")
        .map(|(at, _)| {
            code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// A file past this many lines is a file nobody reads whole.
const MAX_FILE_LINES: usize = 800;

fn files_stay_readable() {
    let mut long = Vec::new();
    for file in rust_files(&repo_path("src")) {
        let lines = fs::read_to_string(&file).expect("readable").lines().count();
        if lines > MAX_FILE_LINES {
            long.push(format!("{}: {lines} lines", file.display()));
        }
        let text = fs::read_to_string(&file).expect("readable");
        assert!(
            text.starts_with("//!"),
            "{} must open with a `//!` line saying what it owns",
            file.display()
        );
    }
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines; split them by job:\n{}",
        long.join("\n")
    );
}

/// The engine is where behaviour changes land; a function past this is one
/// a newcomer cannot change safely.
const MAX_ENGINE_FN_LINES: usize = 80;

fn engine_functions_stay_short() {
    let mut long = Vec::new();
    for file in rust_files(&repo_path("src/engine")) {
        let text = fs::read_to_string(&file).expect("readable");
        for (name, line, length) in functions(&text) {
            if length > MAX_ENGINE_FN_LINES {
                long.push(format!(
                    "{}:{line}: {name} is {length} lines",
                    file.display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "engine functions over {MAX_ENGINE_FN_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// Each `fn` outside test modules, with its line and length: from its
/// signature to the closing brace at the same indentation (rustfmt's layout).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("mod tests") {
            break;
        }
        let signature = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "]
            .iter()
            .find_map(|p| trimmed.strip_prefix(p));
        let Some(rest) = signature else { continue };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let indent = &line[..line.len() - trimmed.len()];
        let close = format!("{indent}}}");
        let end = lines[at..]
            .iter()
            .position(|l| *l == close)
            .map_or(lines.len(), |n| at + n);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        found.push((name, at + 1, end - at + 1));
    }
    found
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("source directory is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
