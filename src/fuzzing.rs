//! Entry points for the fuzz targets in `fuzz/` (built only with the `fuzzing` feature): the parsers, the compiled policy and its cache, reached without the loader's file search, and command lines built from a program and its arguments.

use std::sync::Arc;

use crate::config::model::{Settings, SourceKind};
pub use crate::config::policy::Policy;
use crate::config::seal::Seal;
use crate::config::{cache, hermes, plugin, spec, warden_file};
use crate::engine::{self, Options};
use crate::payload::ToolCall;
use crate::verdict::Decision;

/// The policy formats, chosen by the fuzzer's first byte.
pub const FORMATS: usize = 6;

/// Parses `text` as format `which % FORMATS` (warden YAML, permissions.yaml,
/// the plugin's YAML, Hermes' config.yaml, trust.json, one rule spec); the
/// rules it holds, compiled, or the parser's error.
pub fn parse(which: u8, text: &str) -> Result<Policy, String> {
    let doc = match usize::from(which) % FORMATS {
        0 => warden_file::parse("/p/.warden.yaml", text, SourceKind::Warden, Some("/p")),
        1 => warden_file::parse(
            "/p/.hermes/permissions.yaml",
            text,
            SourceKind::Permissions,
            Some("/p"),
        ),
        2 => plugin::parse("/h/custom.yaml", text),
        3 => hermes::parse_config("/h/config.yaml", text),
        4 => hermes::parse_trust("/h/trust.json", text),
        _ => {
            return spec::parse_spec(text)
                .map(|_| Policy::new(Vec::new(), Settings::default(), Vec::new()));
        }
    }
    .map_err(|e| e.to_string())?;
    Ok(Policy::new(Vec::new(), doc.settings, doc.rules))
}

/// Decides a terminal call of `command` under `policy`.
pub fn decide(policy: &Arc<Policy>, command: &str) -> Decision {
    let options = Options {
        policy: policy.clone(),
        ..Options::default()
    };
    engine::evaluate(&ToolCall::shell(command, Some("/p".into())), &options).decision
}

/// `policy` written as a cache file in `dir` and read back as a hook reads
/// it; `None` if either step refuses.
pub fn through_cache(policy: &Policy, dir: &std::path::Path) -> Option<Policy> {
    let (head, rules) = policy.to_parts()?;
    let (seal, set, key) = fuzz_slot();
    let file = dir.join("policy-fuzz.bin");
    cache::write(&file, &seal, &set, &key, &head, rules).ok()?;
    cache::read(&file, &seal, &key).and_then(Policy::from_entry)
}

/// The seal, set and key the fuzz targets' cache entries are written for.
fn fuzz_slot() -> (Seal, cache::SetId, cache::Key) {
    let seal = Seal::from_bytes([0x5a; 16]);
    let set = cache::set_id(&seal, &[]);
    (seal, set, cache::key(&[]))
}

/// Reads `bytes` as a cache entry's contents, as a hook would: the first
/// byte says where the checked head ends and the rules' bytes begin; the
/// entry is written with a valid header, checksum and seal, so the fuzzer
/// reaches the decoder itself. Refused or decoded, never a panic; a decoded policy
/// decides `command`.
pub fn decode_cache(bytes: &[u8], dir: &std::path::Path, command: &str) -> Option<Decision> {
    let (&split, rest) = bytes.split_first()?;
    let at = rest.len() * usize::from(split) / 255;
    let (head, tail) = rest.split_at(at);
    let (seal, set, key) = fuzz_slot();
    let file = dir.join("policy-raw.bin");
    cache::write(&file, &seal, &set, &key, head, tail).ok()?;
    let policy = cache::read(&file, &seal, &key).and_then(Policy::from_entry)?;
    let policy = Arc::new(policy);
    // Reading every rule walks the offsets and sums the head claims.
    let _ = policy.rules();
    Some(decide(&policy, command))
}

/// The floor's examples that the floor blocks on their own, with no
/// policy: whatever a policy or a following line says, these stay blocked.
pub fn floor_examples() -> Vec<&'static str> {
    let none = Arc::new(Policy::new(Vec::new(), Settings::default(), Vec::new()));
    crate::rules::hardline()
        .flat_map(|r| r.hits.iter().copied())
        .filter(|h| decide(&none, h) == Decision::Block)
        .collect()
}

/// The ways [`argv_line`] runs a program (`{}` is the program and its
/// arguments): as it is, behind the wrappers the analysis peels, and as
/// shell text the analysis reads again (`{q}`: the same, quoted as a word).
pub const FORMS: &[&str] = &[
    "{}",
    "sudo {}",
    "sudo -u root {}",
    "env X=1 {}",
    "timeout 5 {}",
    "nice -n 5 {}",
    "nohup {}",
    "xargs {}",
    "find . -exec {} ;",
    "bash -c {q}",
    "sh -c {q}",
    "eval {q}",
    "echo {q} | sh",
    "x=$({})",
];

/// A command line from fuzz input: two bytes pick a program among
/// [`crate::rules::program_names`], one a [`FORMS`] entry, and the rest,
/// split at NUL bytes, are its arguments (none when there is no rest).
pub fn argv_line(data: &[u8]) -> Option<String> {
    static PROGRAMS: once_cell::sync::Lazy<Vec<&'static str>> =
        once_cell::sync::Lazy::new(crate::rules::program_names);
    let [high, low, form, rest @ ..] = data else {
        return None;
    };
    let program = PROGRAMS[usize::from(u16::from_be_bytes([*high, *low])) % PROGRAMS.len()];
    let args = rest
        .split(|&b| b == 0)
        .filter(|_| !rest.is_empty())
        .map(String::from_utf8_lossy);
    let words: Vec<String> = std::iter::once(program.into())
        .chain(args)
        .map(|w| crate::shell::shell_quote(&w))
        .collect();
    let line = words.join(" ");
    let form = FORMS[usize::from(*form) % FORMS.len()];
    Some(
        form.replace("{q}", &crate::shell::shell_quote(&line))
            .replace("{}", &line),
    )
}
