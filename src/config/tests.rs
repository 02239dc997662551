//! Tests across config's modules: the tripwire on the cached policy's layout, mangled policy files and cache entries, and recovering from a cached rule that rots.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::config::cache::{self, Want, FORMAT_VERSION};
use crate::config::fingerprint::Fingerprint;
use crate::config::load::{self, CacheStatus, Locations};
use crate::config::model::{
    Counts, Mode, OnError, Risk, RuleSpec, Settings, SourceInfo, SourceKind, Standing, Target,
    Tier, ToolSel, Unattended,
};
use crate::config::policy::{haystack, FileSubject, Policy, Subjects};
use crate::config::seal::Seal;
use crate::config::{hermes, plugin, warden_file};
use crate::payload::ToolCall;
use crate::verdict::Decision;

/// A small deterministic generator, so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-config-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

// ------------------------------------------------------------- the layout

/// `FORMAT_VERSION` and the SHA-256 of the representative policies' cached
/// bytes when it was last bumped.
const RECORDED_LAYOUT: (u32, &str) = (
    17,
    "e9905ef234ca0fc22faa364191480e3c34590485f678d60cc679d86021448302",
);

fn representative_sources() -> Vec<SourceInfo> {
    let places = [
        (Tier::Managed, SourceKind::Warden, "/etc/warden/policy.yaml"),
        (
            Tier::Project,
            SourceKind::Permissions,
            "/p/.hermes/permissions.yaml",
        ),
        (
            Tier::User,
            SourceKind::Plugin,
            "/h/.hermes/custom-dangerous-patterns.yaml",
        ),
        (
            Tier::User,
            SourceKind::HermesConfig,
            "/h/.hermes/config.yaml",
        ),
        (
            Tier::Environment,
            SourceKind::Trust,
            "/h/.hermes/trust.json",
        ),
    ];
    places
        .iter()
        .zip(1u32..)
        .map(|(&(tier, kind, path), n)| SourceInfo {
            path: path.to_string(),
            tier,
            kind,
            sha256: format!("{n:064x}"),
            counts: Counts {
                allow: n,
                ask: n + 1,
                deny: n + 2,
                dangerous: n + 3,
                protected: n + 4,
            },
            error: Some(format!("{path} is broken in way {n}")),
            standing: if n % 2 == 0 {
                Standing::Trusted
            } else {
                Standing::TightenOnly(format!("reason {n}"))
            },
            withheld: vec![format!("allow rule withheld-{n}")],
        })
        .collect()
}

fn representative_rules() -> Vec<RuleSpec> {
    let targets = [
        Target::Any,
        Target::Prefix("git push".into()),
        Target::Exact("npm test".into()),
        Target::CommandGlob("terraform * destroy".into()),
        Target::Regex(r"(?s)kubectl\s+delete".into()),
        Target::PathGlob("src/**/*.rs".into()),
    ];
    let tools = [
        ToolSel::Any,
        ToolSel::Shell,
        ToolSel::Name("mcp__github__*".into()),
    ];
    let decisions = [Decision::Allow, Decision::Ask, Decision::Block];
    targets
        .into_iter()
        .enumerate()
        .map(|(n, target)| RuleSpec {
            id: format!("layout.rule-{n}"),
            source: n as u32 % 5,
            line: Some(10 + n as u32),
            tool: tools[n % tools.len()].clone(),
            target,
            case_insensitive: true,
            whole_command: true,
            scope: Some(format!("/srv/app-{n}")),
            base: Some("/p".into()),
            decision: decisions[n % decisions.len()],
            dangerous: true,
            priority: 90 - n as i32,
            description: format!("rule {n} of the layout tripwire"),
            suggest: (n % 2 == 0).then(|| format!("safer way {n}")),
            protected: true,
            hits: vec![format!("hit {n}")],
            misses: vec![format!("miss {n}"), "another miss".into()],
        })
        .collect()
}

/// Four policies, so that every variant of every setting is stored once.
fn representative_policies() -> Vec<Policy> {
    let modes = [
        Mode::Autonomous,
        Mode::Cautious,
        Mode::Supervised,
        Mode::Plan,
    ];
    let on_error = [OnError::Block, OnError::Ask, OnError::Allow];
    let risks = [Risk::None, Risk::Low, Risk::Medium, Risk::High];
    let unattended = [Unattended::Approve, Unattended::Deny];
    (0..4)
        .map(|i| {
            let settings = Settings {
                mode: Some(modes[i]),
                on_error: Some(on_error[i % 3]),
                approvals_off: Some(i % 2 == 0),
                cron_mode: Some(unattended[i % 2]),
                single_query_mode: Some(unattended[(i + 1) % 2]),
                unattended_mode: Some(unattended[i % 2]),
                auto_approve_up_to: Some(risks[i]),
                exempt_categories: vec!["recursive delete".into(), format!("category {i}")],
                audit: Some(crate::config::model::AuditSettings {
                    path: (i % 2 == 0).then(|| format!("/var/log/warden-{i}.jsonl")),
                    max_bytes: 4096 << i,
                    keep: i as u32,
                    file: i != 1,
                    syslog: (i % 2 == 1).then(|| crate::config::model::SyslogSettings {
                        socket: format!("/run/log-{i}.sock"),
                        facility: 16 + i as u8,
                    }),
                }),
                tightening_modes: modes[..i].to_vec(),
            };
            let mut policy =
                Policy::new(representative_sources(), settings, representative_rules());
            policy.problems = vec![format!("warden: problem {i}")];
            policy.broken = true;
            policy
        })
        .collect()
}

/// Bincode carries no field names: a cache written before a type reachable
/// from the policy changed would decode into garbage. The cache key holds
/// `FORMAT_VERSION`, and this test makes sure it moves with the layout.
#[test]
fn the_cached_layout_changes_only_with_the_format_version() {
    let mut hasher = Sha256::new();
    for policy in representative_policies() {
        // Exactly the two parts the loader hands to `cache::write`.
        let (head, rules) = policy.to_parts().expect("a compiled policy encodes");
        for part in [head.as_slice(), rules] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
    }
    let digest: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let (version, recorded) = RECORDED_LAYOUT;
    let record = format!("RECORDED_LAYOUT = ({FORMAT_VERSION}, \"{digest}\")");
    assert!(
        digest != recorded || FORMAT_VERSION == version,
        "FORMAT_VERSION moved to {FORMAT_VERSION} with the same layout: record {record} in {}",
        file!()
    );
    assert!(
        digest == recorded || FORMAT_VERSION != version,
        "The encoded layout of the cached policy changed: bump FORMAT_VERSION in \
         src/config/cache.rs (now {version}) and record the new digest in {}: \
         RECORDED_LAYOUT = ({}, \"{digest}\")",
        file!(),
        version + 1
    );
    assert_eq!(
        (FORMAT_VERSION, digest.as_str()),
        RECORDED_LAYOUT,
        "The layout of the cached policy changed and FORMAT_VERSION was bumped: record \
         {record} in {}",
        file!()
    );
}

// ------------------------------------------------------- mangled input

/// Policy files are bytes anyone can write: every parser takes mangled
/// copies of valid files and random text without panicking.
#[test]
fn mangled_policy_files_never_panic() {
    let valid = [
        include_str!("../../examples/config.yaml"),
        "patterns:\n  - pattern: 'a\\s+b'\n    description: x\n    examples: [a b]\nallow_patterns:\n  - glob: 'git {push,pull} *'\ndeny_patterns: []\n",
        "approvals:\n  mode: off\n  deny: ['git push*']\n  cron_mode: approve\n  auto_approve_up_to: low\ncommand_allowlist: ['ls *', 'recursive delete']\n",
        r#"[{"id":"a","tool":"terminal","pattern":"*--prod*","decision":"deny","priority":90},{"id":2,"decision":"allow"}]"#,
    ];
    let mut rng = Lcg(7);
    let parse_all = |text: &str| {
        let _ = warden_file::parse("x.yaml", text, SourceKind::Warden, Some("/p"));
        let _ = warden_file::parse("x.yaml", text, SourceKind::Permissions, None);
        let _ = plugin::parse("p.yaml", text);
        let _ = hermes::parse_config("c.yaml", text);
        let _ = hermes::parse_trust("t.json", text);
    };
    const INSERTED: [char; 12] = [
        '\n', ' ', ':', '-', '[', '{', '\'', '"', '*', '(', ')', '\\',
    ];
    for text in valid {
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..300 {
            let mut mangled = chars.clone();
            for _ in 0..1 + rng.below(4) {
                if mangled.is_empty() {
                    break;
                }
                let at = rng.below(mangled.len());
                match rng.below(4) {
                    0 => {
                        mangled.remove(at);
                    }
                    1 => mangled.insert(at, INSERTED[rng.below(INSERTED.len())]),
                    2 => mangled.truncate(at),
                    _ => {
                        let c = mangled[rng.below(mangled.len())];
                        mangled.insert(at, c);
                    }
                }
            }
            parse_all(&mangled.iter().collect::<String>());
        }
    }
    for _ in 0..300 {
        let len = rng.below(200);
        let text: String = (0..len)
            .map(|_| char::from_u32(rng.below(0x250) as u32).unwrap_or('?'))
            .collect();
        parse_all(&text);
    }
}

fn twenty_rules() -> Vec<RuleSpec> {
    (0..20)
        .map(|i| RuleSpec {
            line: Some(i),
            description: "d".into(),
            ..RuleSpec::new(
                format!("t.rule-{i}"),
                ToolSel::Shell,
                Target::Prefix(format!("tool{i}")),
                Decision::Block,
            )
        })
        .collect()
}

/// The policy in the cache file at `path`, read as a call reads it: checked
/// against its tag, or (`vouched`) as a stamp vouches for the file as it is
/// now, which is how bit rot under an unchanged fingerprint reaches it.
fn read_cached(path: &Path, seal: &Seal, key: &cache::Key, vouched: bool) -> Option<Policy> {
    let print = vouched.then(|| Fingerprint::of(path));
    cache::open(path, seal, Want::Key(key), print.as_ref()).and_then(Policy::from_entry)
}

/// A cache file is bytes too: what the cache writes, cut short or with
/// bits flipped, is refused or read without panicking, and a rule whose
/// bytes were flipped is refused rather than misread.
#[test]
fn mangled_cache_entries_are_refused_without_panicking() {
    let dir = temp_dir("mangled-cache");
    let path = dir.join("policy-x.bin");
    let key = cache::key(&[cache::KeyInput {
        path: "/p/.warden.yaml",
        bytes: Some(b"rules: {}"),
    }]);
    let seal = Seal::from_bytes([1; 16]);
    let set = cache::set_id(&seal, &["/p/.warden.yaml"]);
    let policy = Policy::new(Vec::new(), Settings::default(), twenty_rules());
    let (head, rules) = policy.to_parts().expect("a compiled policy encodes");
    cache::write(&path, &seal, &set, &key, &head, rules).unwrap();
    let good = fs::read(&path).unwrap();
    for vouched in [false, true] {
        let read = read_cached(&path, &seal, &key, vouched).map(|p| p.rules());
        assert_eq!(read, Some(twenty_rules()));
    }
    let tail_start = good.len() - rules.len();
    // The tail is the index's body, then the records, the first rule's
    // (`tool0`, after its length) first.
    let rules_start = good
        .windows(7)
        .position(|w| w == b"\x05\x00tool0")
        .expect("the first record");
    assert!(rules_start > tail_start);

    let mangled = dir.join("mangled.bin");
    for cut in 0..good.len() {
        fs::write(&mangled, &good[..cut]).unwrap();
        assert!(
            read_cached(&mangled, &seal, &key, true).is_none(),
            "cut to {cut} bytes"
        );
    }
    let mut rng = Lcg(11);
    for _ in 0..2000 {
        let mut bytes = good.clone();
        let at = rng.below(bytes.len());
        bytes[at] ^= 1 << rng.below(8);
        fs::write(&mangled, &bytes).unwrap();
        // Changed, it is another file than the one vouched for: refused.
        assert!(read_cached(&mangled, &seal, &key, false).is_none());
        if let Some(policy) = read_cached(&mangled, &seal, &key, true) {
            // The header and head are checked on every read (but for the
            // tag, checked only when no stamp vouches); the tail is checked
            // a block or a rule at a time as it is read: a rule is lost
            // with its block, never misread.
            let read = policy.rules();
            if at < tail_start {
                assert_eq!(read.len(), 20, "byte {at}");
            }
            assert!(read.iter().all(|r| twenty_rules().contains(r)));
        }
    }
    // Every bit of every rule, rotten where the fingerprint cannot see:
    // that rule alone is refused.
    for at in rules_start..good.len() {
        for bit in 0..8 {
            let mut bytes = good.clone();
            bytes[at] ^= 1 << bit;
            fs::write(&mangled, &bytes).unwrap();
            let policy = read_cached(&mangled, &seal, &key, true).expect("the head is intact");
            let read = policy.rules();
            assert_eq!(read.len(), 19, "byte {at} bit {bit}");
            assert!(read.iter().all(|r| twenty_rules().contains(r)));
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------------ recovery

const NO_PUSH: &str =
    "rules:\n  deny:\n    - \"terminal(git push:*)\"\n  ask:\n    - \"terminal(kubectl:*)\"\n";

/// A machine of its own: a user config, a cache and a state directory.
fn world(tag: &str) -> (PathBuf, Locations) {
    let root = temp_dir(tag);
    let config = root.join("config");
    fs::create_dir_all(config.join("warden")).unwrap();
    fs::write(config.join("warden").join("config.yaml"), NO_PUSH).unwrap();
    let locations = Locations {
        config_home: Some(config),
        cache_dir: Some(root.join("cache")),
        state_dir: Some(root.join("state")),
        ..Locations::default()
    };
    (root, locations)
}

fn shell(command: &str) -> Subjects {
    let analysis = crate::shell::analyze(command);
    Subjects::of(&ToolCall::shell(command, None), Some(&analysis), None)
}

/// Flips a letter of `text` inside a rule's bytes in the cache file: a
/// change bincode still decodes, which only the rule's checksum can tell
/// once a stamp vouches for the file as it is (as for bit rot, which
/// leaves the file's times alone).
fn rot(file: &Path, text: &[u8]) {
    let mut bytes = fs::read(file).unwrap();
    let at = bytes
        .windows(text.len())
        .rposition(|w| w == text)
        .expect("the rule is cached");
    bytes[at] ^= 0x20;
    fs::write(file, bytes).unwrap();
}

#[test]
fn a_rotten_cached_rule_is_recompiled_for_matching() {
    let (root, locations) = world("recover-matches");
    let first = load::load(&locations, None);
    assert_eq!(first.cache, CacheStatus::Rebuilt);
    let file = first.cache_file.clone().expect("a cache file");
    let good = fs::read(&file).unwrap();

    rot(&file, b"git push");
    load::vouch_for_the_cache_as_it_is(&locations);
    let mut loaded = load::load(&locations, None);
    assert_eq!(loaded.cache, CacheStatus::Hit);
    // A call that does not touch the rotten rule reads no other rule.
    let found = loaded.policy.matches(&shell("kubectl get pods"));
    assert_eq!(found.len(), 1);
    loaded.refresh_cache_status();
    assert_eq!(loaded.cache, CacheStatus::Hit);
    assert_ne!(fs::read(&file).unwrap(), good, "nothing noticed yet");

    let found = loaded.policy.matches(&shell("git push origin main"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].spec.id, "config.deny-1");
    assert_eq!(
        loaded.policy.origin(&found[0].spec).rsplit('/').next(),
        Some("config.yaml:3")
    );
    loaded.refresh_cache_status();
    assert_eq!(loaded.cache, CacheStatus::Rebuilt);
    assert_eq!(fs::read(&file).unwrap(), good, "the cache is rewritten");
    // The head's settings and problems are still the ones answered with.
    assert!(loaded.policy.problems.is_empty());
    assert_eq!(load::load(&locations, None).cache, CacheStatus::Hit);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_rotten_block_of_the_cached_index_is_recompiled_for_matching() {
    let (root, locations) = world("recover-index");
    let file = load::load(&locations, None)
        .cache_file
        .expect("a cache file");
    let good = fs::read(&file).unwrap();
    // The index's body ends where the first record (its literal's length,
    // then `git push`) starts.
    let mut bytes = good.clone();
    let records = bytes
        .windows(10)
        .position(|w| w == b"\x08\x00git push")
        .expect("the rule is cached");
    bytes[records - 1] ^= 1;
    fs::write(&file, &bytes).unwrap();
    load::vouch_for_the_cache_as_it_is(&locations);
    let mut loaded = load::load(&locations, None);
    assert_eq!(loaded.cache, CacheStatus::Hit);
    // A call no rule's gram occurs in reads nothing of the body.
    assert!(loaded.policy.matches(&shell("ls")).is_empty());
    loaded.refresh_cache_status();
    assert_eq!(loaded.cache, CacheStatus::Hit);
    let found = loaded.policy.matches(&shell("git push origin main"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].spec.id, "config.deny-1");
    loaded.refresh_cache_status();
    assert_eq!(loaded.cache, CacheStatus::Rebuilt);
    assert_eq!(fs::read(&file).unwrap(), good, "the cache is rewritten");
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_rotten_cached_rule_is_recompiled_for_listing() {
    let (root, locations) = world("recover-rules");
    let file = load::load(&locations, None)
        .cache_file
        .expect("a cache file");
    let good = fs::read(&file).unwrap();
    rot(&file, b"kubectl");
    load::vouch_for_the_cache_as_it_is(&locations);
    let loaded = load::load(&locations, None);
    let ids: Vec<String> = loaded.policy.rules().into_iter().map(|r| r.id).collect();
    assert_eq!(ids, vec!["config.deny-1", "config.ask-1"]);
    assert_eq!(fs::read(&file).unwrap(), good);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_cache_file_changed_since_it_was_vouched_for_is_checked_and_rebuilt() {
    let (root, locations) = world("changed-entry");
    let file = load::load(&locations, None)
        .cache_file
        .expect("a cache file");
    let good = fs::read(&file).unwrap();
    load::vouch_for_the_cache_as_it_is(&locations);
    rot(&file, b"git push");
    let loaded = load::load(&locations, None);
    assert_eq!(loaded.cache, CacheStatus::Rebuilt);
    let said = loaded.notes.join("\n");
    assert!(said.contains("not sealed with this user's key"), "{said}");
    assert_eq!(loaded.policy.matches(&shell("git push")).len(), 1);
    assert_eq!(fs::read(&file).unwrap(), good);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn rules_read_from_a_file_changed_while_in_use_decide_nothing() {
    // Vouched for when the call opened it, changed before its rules were
    // read: what was read is not believed, the policy is compiled afresh.
    let (root, locations) = world("changed-in-use");
    let file = load::load(&locations, None)
        .cache_file
        .expect("a cache file");
    load::vouch_for_the_cache_as_it_is(&locations);
    let mut loaded = load::load(&locations, None);
    assert_eq!(loaded.cache, CacheStatus::Hit);
    let mut bytes = fs::read(&file).unwrap();
    let at = bytes
        .windows(8)
        .rposition(|w| w == b"git push")
        .expect("the rule is cached");
    bytes[at..at + 8].copy_from_slice(b"git pusx");
    let mut same_file = fs::OpenOptions::new().write(true).open(&file).unwrap();
    std::io::Write::write_all(&mut same_file, &bytes).unwrap();
    drop(same_file);
    let found = loaded.policy.matches(&shell("git push origin main"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(loaded
        .policy
        .may_match(&shell("git push origin main").haystack()));
    loaded.refresh_cache_status();
    assert_eq!(loaded.cache, CacheStatus::Rebuilt);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_hook_that_read_the_ledger_before_another_updated_it_leaves_a_cache_that_hits() {
    // A config change meets many hooks at once: one reads the ledger, a
    // second brings the ledger up to date and stores its cache, then the
    // first stores its own. The entry left must be keyed by the ledger
    // both applied, or every later call compiles again.
    let (root, locations) = world("ledger-race");
    assert_eq!(load::load(&locations, None).cache, CacheStatus::Rebuilt);
    let ledger = locations.ledger_path().expect("a ledger path");
    let before = fs::read(&ledger).ok();
    assert!(before.is_some(), "the first load records the ledger");
    let config = locations
        .config_home
        .as_ref()
        .expect("a config home")
        .join("warden")
        .join("config.yaml");
    fs::write(
        &config,
        format!("{NO_PUSH}  allow:\n    - \"terminal(make:*)\"\n"),
    )
    .unwrap();
    assert_eq!(load::load(&locations, None).cache, CacheStatus::Rebuilt);
    assert_ne!(
        fs::read(&ledger).ok(),
        before,
        "the ledger follows the change"
    );
    let late = load::load_with_ledger_read_before(&locations, before);
    assert_eq!(late.cache, CacheStatus::Rebuilt);
    // Fingerprints of a file just written are not trusted, so the next
    // load hashes the sources and the ledger to find its key.
    assert_eq!(load::load(&locations, None).cache, CacheStatus::Hit);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn without_a_cache_directory_every_load_compiles() {
    // Nothing to recover from, and nothing that can rot.
    let (root, mut locations) = world("recover-memory");
    locations.cache_dir = None;
    let loaded = load::load(&locations, None);
    assert_eq!(loaded.cache, CacheStatus::Disabled);
    assert_eq!(loaded.policy.rules().len(), 2);
    assert_eq!(loaded.policy.matches(&shell("git push")).len(), 1);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_haystack_written_from_a_call_is_the_subjects_and_may_match_only_ever_spares_work() {
    let rule = |n: usize, tool: ToolSel, target: Target| {
        RuleSpec::new(format!("t.rule-{n}"), tool, target, Decision::Ask)
    };
    let policy = Policy::new(
        Vec::new(),
        Settings::default(),
        vec![
            rule(1, ToolSel::Shell, Target::Prefix("git push".into())),
            rule(2, ToolSel::Shell, Target::Regex(r"rm\s+-rf".into())),
            rule(3, ToolSel::Shell, Target::Exact("npm test".into())),
            rule(
                4,
                ToolSel::Shell,
                Target::CommandGlob("docker * prune".into()),
            ),
            rule(
                5,
                ToolSel::Name("write_file".into()),
                Target::PathGlob("/home/u/proj/src/**".into()),
            ),
            rule(6, ToolSel::Shell, Target::Prefix("/usr/bin/env".into())),
            rule(7, ToolSel::Shell, Target::Prefix("Kubectl Delete".into())),
        ],
    );
    let home = Some("/home/u");
    let files = [
        vec![],
        vec!["/home/u/proj/src/main.rs", "/home/u/proj/link"],
        vec!["/tmp/x"],
    ];
    let commands = [
        "git push origin main",
        "GIT PUSH",
        "sudo -u root git push",
        "/usr/bin/env FOO=1 git status > out.txt 2>&1",
        "rm  -rf build && npm test",
        "npm test",
        "docker system prune -af",
        "> only-a-redirect",
        "X=1",
        "kubectl delete ns prod",
        "cat <<EOF\nrm -rf ~\nEOF",
        "echo 'a b' \"\" | /bin/Sh -c 'ls ~'",
        "ls -la",
    ];
    let (mut spared, mut matched) = (0, 0);
    for (i, command) in commands.iter().enumerate() {
        let call = ToolCall::shell(command, Some("/home/u/proj".into()));
        let analysis = crate::shell::analyze(command);
        let mut subjects = Subjects::of(&call, Some(&analysis), home);
        subjects.files = files[i % files.len()]
            .iter()
            .map(|path| FileSubject {
                path: path.to_string(),
                ..FileSubject::default()
            })
            .collect();
        let paths = subjects.files.iter().map(|f| f.path.as_str());
        let direct = haystack(&call, Some(&analysis), home, paths);
        assert_eq!(direct, subjects.haystack(), "{command}");
        if policy.may_match(&direct) {
            matched += !policy.matches(&subjects).is_empty() as usize;
        } else {
            spared += 1;
            assert!(policy.matches(&subjects).is_empty(), "{command}");
        }
    }
    // A file tool: its path made absolute against the call's directory.
    let call = ToolCall::new("write_file")
        .with_path(Some("src/lib.rs".into()))
        .with_cwd(Some("~/proj".into()));
    let subjects = Subjects::of(&call, None, home);
    let direct = haystack(&call, None, home, std::iter::empty());
    assert_eq!(direct, subjects.haystack());
    assert!(policy.may_match(&direct));
    assert_eq!(policy.matches(&subjects).len(), 1);
    assert!(
        spared >= 3 && matched >= 5,
        "spared {spared}, matched {matched}"
    );
}
