//! Golden fixtures: every `fixtures/<group>/<case>.json` payload, run through `cli::run`, must print its `<case>.expected.json` verdict.
//!
//! Each case is its own test named `<group>/<case>`, so `cargo test --test
//! fixtures -- hardline/` runs one group and a failure names the file to look
//! at. `WARDEN_BLESS=1` rewrites the expected files from what warden prints
//! now; read every changed file before committing it, because a blessed
//! golden file is a claim that the verdict is right.

use std::fs;
use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

const PAYLOAD_EXT: &str = ".json";
const EXPECTED_EXT: &str = ".expected.json";
const ARGS_EXT: &str = ".args";
/// A directory standing in for the machine a case runs on: `home/` is
/// HOME, `etc-warden/` the managed policy directory, `vars` extra
/// environment variables (`NAME=value` lines), anything else a project.
const WORLD_EXT: &str = ".env";
/// Stands for the world directory's absolute path in payloads, `vars` and
/// expected verdicts, so golden files do not depend on the checkout's path.
const WORLD_TOKEN: &str = "@ENV@";

/// One payload file and the files that travel with it.
struct Case {
    /// `group/case`, the test name.
    name: String,
    payload: PathBuf,
    expected: PathBuf,
    args: PathBuf,
    world: PathBuf,
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let bless = std::env::var_os("WARDEN_BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let trials = match discover(&root) {
        Ok(cases) => {
            let mut trials: Vec<Trial> = cases
                .into_iter()
                .map(|case| {
                    let name = case.name.clone();
                    Trial::test(name, move || run_case(&case, bless))
                })
                .collect();
            // Stray files are reported as a test of their own so a renamed
            // payload cannot leave its expected file silently unused.
            let strays = stray_files(&root);
            trials.push(Trial::test("layout/no-stray-files", move || strays));
            trials
        }
        Err(message) => vec![Trial::test("layout/discover", move || Err(message.into()))],
    };
    libtest_mimic::run(&args, trials).exit();
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

/// Expected and args files with no payload beside them, and files of any
/// other kind (except the top-level README), which the harness would
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

fn run_case(case: &Case, bless: bool) -> Result<(), Failed> {
    let payload = fs::read(&case.payload)
        .map_err(|e| format!("cannot read {}: {e}", case.payload.display()))?;
    let args = read_args(&case.args)?;
    let (env, world) = world_env(case)?;
    let payload = match &world {
        Some(world) => String::from_utf8_lossy(&payload)
            .replace(WORLD_TOKEN, world)
            .into_bytes(),
        None => payload,
    };
    let mut outcome = warden::cli::run(&args, &mut payload.as_slice(), &env);
    if world.is_some() {
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
    }
    if let Some(world) = &world {
        outcome.stdout = outcome.stdout.replace(world.as_str(), WORLD_TOKEN);
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

    if bless {
        return bless_case(case, &actual);
    }
    let text = match fs::read_to_string(&case.expected) {
        Ok(text) => text,
        Err(e) => {
            return Err(format!(
                "cannot read {} ({e}); warden printed:\n{}\n\
                 (create it with WARDEN_BLESS=1 cargo test --test fixtures, then read it)",
                case.expected.display(),
                pretty(&actual)
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

/// The environment a case runs in: none at all (built-in rules only), or
/// its world directory's, with a fresh cache and ledger.
fn world_env(case: &Case) -> Result<(warden::cli::Env, Option<String>), Failed> {
    if !case.world.is_dir() {
        return Ok((warden::cli::Env::default(), None));
    }
    let state = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fixture-state")
        .join(case.name.replace('/', "-"));
    let _ = fs::remove_dir_all(&state);
    // The world is copied, with its token replaced in every file, so its
    // files can name absolute paths inside it.
    let copy = state.join("world");
    fs::create_dir_all(&copy).map_err(|e| format!("cannot create {}: {e}", copy.display()))?;
    let copy =
        fs::canonicalize(&copy).map_err(|e| format!("cannot resolve {}: {e}", copy.display()))?;
    let world = copy.display().to_string();
    copy_world(&case.world, &copy, &world)?;
    let mut vars: Vec<(String, String)> = vec![
        ("WARDEN_PROJECT_CEILING".into(), state.display().to_string()),
        ("HOME".into(), format!("{world}/home")),
        ("WARDEN_MANAGED_DIR".into(), format!("{world}/etc-warden")),
        (
            "XDG_CACHE_HOME".into(),
            state.join("cache").display().to_string(),
        ),
        (
            "XDG_STATE_HOME".into(),
            state.join("state").display().to_string(),
        ),
    ];
    let listed = copy.join("vars");
    if listed.is_file() {
        let text = fs::read_to_string(&listed)
            .map_err(|e| format!("cannot read {}: {e}", listed.display()))?;
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (name, value) = line
                .split_once('=')
                .ok_or_else(|| format!("{}: `{line}` is not NAME=value", listed.display()))?;
            vars.retain(|(n, _)| n != name);
            vars.push((name.to_string(), value.replace(WORLD_TOKEN, &world)));
        }
    }
    let env = warden::cli::Env::from_vars(
        |name| vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()),
        false,
    );
    Ok((env, Some(world)))
}

fn copy_world(from: &Path, to: &Path, world: &str) -> Result<(), Failed> {
    for entry in read_dir_sorted(from)? {
        let target = to.join(file_name(&entry));
        if entry.is_dir() {
            fs::create_dir_all(&target)
                .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
            copy_world(&entry, &target, world)?;
        } else {
            let bytes =
                fs::read(&entry).map_err(|e| format!("cannot read {}: {e}", entry.display()))?;
            let bytes = match String::from_utf8(bytes) {
                Ok(text) => text.replace(WORLD_TOKEN, world).into_bytes(),
                Err(e) => e.into_bytes(),
            };
            fs::write(&target, bytes)
                .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        }
    }
    Ok(())
}

/// The extra command-line arguments of a case; no file means none.
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

// Blessing in CI would turn every regression into a passing run, so it is
// refused there rather than ignored.
fn bless_case(case: &Case, actual: &Value) -> Result<(), Failed> {
    if std::env::var_os("CI").is_some() {
        return Err("WARDEN_BLESS is refused when CI is set: bless locally and commit".into());
    }
    let text = format!("{}\n", pretty(actual));
    fs::write(&case.expected, text)
        .map_err(|e| format!("cannot write {}: {e}", case.expected.display()))?;
    Ok(())
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
