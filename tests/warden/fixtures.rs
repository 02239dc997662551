//! Golden fixtures: every `fixtures/<group>/<case>.json` payload, run through `cli::run`, must print its `<case>.expected.json` verdict.
//!
//! Each case is its own test named `fixtures::<group>/<case>`, so `cargo test
//! --test warden -- fixtures::hardline/` runs one group and a failure names
//! the file to look at. With `WARDEN_UPDATE_EXPECTED=1` the expected files
//! are rewritten from what warden prints now; read every changed file before
//! committing it, because a golden file is a claim that the verdict is right.

use std::fs;
use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use crate::support::{self, World, UPDATE_COMMAND, WORLD_TOKEN};

const PAYLOAD_EXT: &str = ".json";
const EXPECTED_EXT: &str = ".expected.json";
const ARGS_EXT: &str = ".args";
/// A directory standing in for the machine a case runs on (see
/// `fixtures/README.md`); copied into a `World`.
const WORLD_EXT: &str = ".world";

/// One payload file and the files that travel with it.
struct Case {
    /// `group/case`.
    name: String,
    payload: PathBuf,
    expected: PathBuf,
    args: PathBuf,
    world: PathBuf,
}

pub fn tests() -> Vec<Trial> {
    let root = support::repo_path("fixtures");
    let update = support::updating();
    let cases = match discover(&root) {
        Ok(cases) => cases,
        Err(message) => {
            return vec![Trial::test("fixtures::discover", move || {
                Err(message.into())
            })]
        }
    };
    let batch: Vec<(String, PathBuf, PathBuf, PathBuf)> = cases
        .iter()
        .filter(|c| !c.world.is_dir())
        .map(|c| {
            (
                c.name.clone(),
                c.payload.clone(),
                c.expected.clone(),
                c.args.clone(),
            )
        })
        .collect();
    let mut trials: Vec<Trial> = cases
        .into_iter()
        .map(|case| {
            let name = format!("fixtures::{}", case.name);
            Trial::test(name, move || run_case(&case, update))
        })
        .collect();
    if !update {
        trials.push(Trial::test("fixtures::in_one_batch", move || {
            in_one_batch(&batch)
        }));
    }
    // Stray files are reported as a test of their own so a renamed payload
    // cannot leave its expected file or world silently unused.
    trials.push(Trial::test("fixtures::no_stray_files", move || {
        stray_files(&root)
    }));
    trials
}

/// Finds every case under `root`, sorted by name so runs are stable.
fn discover(root: &Path) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for group in read_dir_sorted(root)? {
        if !group.is_dir() {
            continue;
        }
        let group_name = file_name(&group);
        for file in read_dir_sorted(&group)? {
            let name = file_name(&file);
            if !name.ends_with(PAYLOAD_EXT) || name.ends_with(EXPECTED_EXT) {
                continue;
            }
            let stem = &name[..name.len() - PAYLOAD_EXT.len()];
            cases.push(Case {
                name: format!("{group_name}/{stem}"),
                payload: file.clone(),
                expected: group.join(format!("{stem}{EXPECTED_EXT}")),
                args: group.join(format!("{stem}{ARGS_EXT}")),
                world: group.join(format!("{stem}{WORLD_EXT}")),
            });
        }
    }
    if cases.is_empty() {
        return Err(format!("no fixture cases found under {}", root.display()));
    }
    Ok(cases)
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        paths.push(
            entry
                .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
                .path(),
        );
    }
    paths.sort();
    Ok(paths)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Expected, args and world entries with no payload beside them, and files
/// of any other kind (except the top-level README), which the harness would
/// otherwise ignore.
fn stray_files(root: &Path) -> Result<(), Failed> {
    let mut strays = Vec::new();
    for group in read_dir_sorted(root)? {
        if !group.is_dir() {
            if file_name(&group) != "README.md" {
                strays.push(group.display().to_string());
            }
            continue;
        }
        for file in read_dir_sorted(&group)? {
            let name = file_name(&file);
            let stem = [EXPECTED_EXT, ARGS_EXT, WORLD_EXT]
                .iter()
                .find_map(|ext| name.strip_suffix(ext));
            let ok = match stem {
                Some(stem) => group.join(format!("{stem}{PAYLOAD_EXT}")).is_file(),
                None => name.ends_with(PAYLOAD_EXT),
            };
            if !ok {
                strays.push(file.display().to_string());
            }
        }
    }
    if strays.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "files under fixtures/ that belong to no case:\n  {}",
            strays.join("\n  ")
        )
        .into())
    }
}

fn run_case(case: &Case, update: bool) -> Result<(), Failed> {
    let payload = fs::read(&case.payload)
        .map_err(|e| format!("cannot read {}: {e}", case.payload.display()))?;
    let args = read_args(&case.args)?;
    // No world: no variables at all, so only the built-in rules decide.
    let world = case
        .world
        .is_dir()
        .then(|| World::new(&format!("fixtures/{}", case.name)).copy_of(&case.world));
    let env = match &world {
        Some(world) => world.env(false),
        None => warden::cli::Env::default(),
    };
    let root = world.as_ref().map(World::root_text);
    let payload = match &root {
        Some(root) => String::from_utf8_lossy(&payload)
            .replace(WORLD_TOKEN, root)
            .into_bytes(),
        None => payload,
    };
    let mut outcome = warden::cli::run(&args, &mut payload.as_slice(), &env);
    if let Some(root) = &root {
        // The second run reads the compiled cache the first one wrote: both
        // must say the same, or the cache changed a decision.
        let again = warden::cli::run(&args, &mut payload.as_slice(), &env);
        if again.stdout != outcome.stdout {
            return Err(format!(
                "the cached policy decided differently:\nfirst:  {}second: {}",
                outcome.stdout, again.stdout
            )
            .into());
        }
        outcome.stdout = any_code(&outcome.stdout.replace(root.as_str(), WORLD_TOKEN));
    }
    if outcome.code != 0 {
        return Err(format!(
            "exit code {} (want 0)\nstdout: {}\nstderr: {}",
            outcome.code, outcome.stdout, outcome.stderr
        )
        .into());
    }
    let line = one_line(&outcome.stdout)?;
    let actual: Value =
        serde_json::from_str(line).map_err(|e| format!("stdout is not JSON ({e}): {line}"))?;
    if !actual.is_object() {
        return Err(format!("stdout is not a JSON object: {line}").into());
    }

    if update {
        return Ok(support::write_expected(
            &case.expected,
            &format!("{}\n", pretty(&actual)),
        )?);
    }
    let text = match fs::read_to_string(&case.expected) {
        Ok(text) => text,
        Err(e) => {
            return Err(format!(
                "cannot read {} ({e}); warden printed:\n{}\n\
                 (create it with {UPDATE_COMMAND} -- fixtures::{}, then read it)",
                case.expected.display(),
                pretty(&actual),
                case.name
            )
            .into())
        }
    };
    let expected: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not JSON: {e}", case.expected.display()))?;
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "verdict differs from {}\n--- expected\n{}\n--- actual\n{}",
            case.expected.display(),
            pretty(&expected),
            pretty(&actual)
        )
        .into())
    }
}

/// Every fixture without a world, run again through `warden check --batch`
/// (one process per set of arguments, each payload on one line): each line
/// it prints must be the verdict the hook prints for that payload alone.
fn in_one_batch(cases: &[(String, PathBuf, PathBuf, PathBuf)]) -> Result<(), Failed> {
    let mut groups: std::collections::BTreeMap<Vec<String>, Vec<(&str, String, &Path)>> =
        Default::default();
    for (name, payload, expected, args) in cases {
        let text = fs::read_to_string(payload).unwrap_or_default();
        // A payload that is not JSON cannot be put on one line unchanged.
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        groups
            .entry(read_args(args)?)
            .or_default()
            .push((name, value.to_string(), expected));
    }
    let mut failures = Vec::new();
    let mut judged = 0;
    for (args, group) in &groups {
        // Cases run through another subcommand are not hook calls.
        let args: &[String] = match args.first().map(String::as_str) {
            Some("hook") => &args[1..],
            Some(first) if !first.starts_with("--") => continue,
            _ => args,
        };
        let input: String = group
            .iter()
            .map(|(_, line, _)| format!("{line}\n"))
            .collect();
        let argv: Vec<String> = ["check", "--batch"]
            .iter()
            .map(|s| s.to_string())
            .chain(args.iter().cloned())
            .collect();
        let outcome = warden::cli::run(&argv, &mut input.as_bytes(), &warden::cli::Env::default());
        let lines: Vec<&str> = outcome.stdout.lines().collect();
        if lines.len() != group.len() {
            return Err(format!(
                "args {args:?}: {} payloads in, {} lines out\nstderr: {}",
                group.len(),
                lines.len(),
                outcome.stderr
            )
            .into());
        }
        for ((name, _, expected), line) in group.iter().zip(lines) {
            judged += 1;
            let want: Value = fs::read_to_string(expected)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .ok_or_else(|| format!("{}: no expected verdict", expected.display()))?;
            let got: Value = serde_json::from_str(line)
                .map_err(|e| format!("{name}: batch line is not JSON ({e}): {line}"))?;
            if got != want {
                failures.push(format!("{name}: batch says {got}, alone {want}"));
            }
        }
    }
    if judged < 100 {
        return Err(format!("only {judged} fixtures were judged in batch").into());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// The extra command-line arguments of a case; no file means none.
/// `text` with each allow-once code, which is random, written `CODE`.
fn any_code(text: &str) -> String {
    const OFFER: &str = "`warden allow-once ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(OFFER) {
        let (before, after) = rest.split_at(at + OFFER.len());
        out.push_str(before);
        out.push_str("CODE");
        rest = after.get(warden::once::CODE_LEN..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

fn read_args(path: &Path) -> Result<Vec<String>, Failed> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(text.split_whitespace().map(str::to_string).collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display()).into()),
    }
}

/// The hook contract: exactly one line, newline-terminated, on stdout.
fn one_line(stdout: &str) -> Result<&str, Failed> {
    match stdout.strip_suffix('\n') {
        Some(line) if !line.is_empty() && !line.contains('\n') => Ok(line),
        _ => Err(format!("stdout is not exactly one line: {stdout:?}").into()),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
