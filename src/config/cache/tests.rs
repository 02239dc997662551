//! The cache file: what is read back, and every way a file that warden did not write for these sources is refused.

use super::*;
use crate::config::model::{RuleSpec, Settings, Target, ToolSel};
use crate::config::policy::Policy;
use crate::verdict::Decision;
use std::path::PathBuf;
use std::time::Instant;

/// A policy's head and rule bytes, as the loader stores them.
type Parts = (Vec<u8>, Vec<u8>);

fn parts(rules: Vec<RuleSpec>) -> Parts {
    let policy = Policy::new(Vec::new(), Settings::default(), rules);
    let (head, tail) = policy.to_parts().expect("a compiled policy encodes");
    (head, tail.to_vec())
}

fn sample() -> Parts {
    parts(vec![
        RuleSpec::new(
            "t.push",
            ToolSel::Shell,
            Target::Prefix("git push".into()),
            Decision::Block,
        ),
        RuleSpec::new(
            "t.ssh",
            ToolSel::Name("read_file".into()),
            Target::PathGlob("~/.ssh/**".into()),
            Decision::Ask,
        ),
    ])
}

fn allow_all() -> Parts {
    parts(vec![RuleSpec::new(
        "t.all",
        ToolSel::Any,
        Target::Any,
        Decision::Allow,
    )])
}

fn seal() -> Seal {
    Seal::from_bytes([3; 16])
}

fn other_seal() -> Seal {
    Seal::from_bytes([4; 16])
}

fn set() -> SetId {
    set_id(&seal(), &["/p/.warden.yaml"])
}

fn store(path: &Path, key: &Key, (head, tail): &Parts) -> Result<()> {
    write(path, &seal(), &set(), key, head, tail)
}

/// The rules of an entry, wherever they are.
fn tail_of(entry: Entry) -> Option<Vec<u8>> {
    match entry.tail {
        Tail::Memory(tail) => Some(tail),
        Tail::File {
            mut file,
            offset,
            len,
            ..
        } => {
            use std::io::{Seek, SeekFrom};
            file.seek(SeekFrom::Start(offset)).ok()?;
            let mut tail = Vec::new();
            (&mut file).take(len).read_to_end(&mut tail).ok()?;
            Some(tail)
        }
    }
}

/// What a reader gets back: the checked head, and the rules.
fn read_back(path: &Path, key: &Key) -> Option<Parts> {
    let entry = read(path, &seal(), key)?;
    let head = entry.head.clone();
    Some((head, tail_of(entry)?))
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "warden-cache-test-{tag}-{}-{nanos}",
        std::process::id()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample_key() -> Key {
    key(&[KeyInput {
        path: "/p/.warden.yaml",
        bytes: Some(b"deny: [x]"),
    }])
}

#[test]
fn round_trip() {
    let dir = temp_dir("round");
    let path = dir.join("state").join("policy-x.bin");
    let k = sample_key();
    store(&path, &k, &sample()).unwrap();
    assert_eq!(read_back(&path, &k), Some(sample()));
    let entry = read(&path, &seal(), &k).unwrap();
    assert!(entry.verified && entry.print.is_some());
    // Overwriting replaces the entry.
    store(&path, &k, &allow_all()).unwrap();
    assert_eq!(read_back(&path, &k), Some(allow_all()));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_vouched_file_is_read_in_place_and_any_other_file_is_checked() {
    let dir = temp_dir("vouched");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    store(&path, &k, &sample()).unwrap();
    let print = Fingerprint::of(&path);
    let entry = open(&path, &seal(), Want::Key(&k), Some(&print)).unwrap();
    assert!(!entry.verified);
    assert!(matches!(entry.tail, Tail::File { .. }));
    assert_eq!(tail_of(entry), Some(sample().1));
    // Replaced by a sealed entry of the same key: another file, so its tag
    // is checked (and holds).
    store(&path, &k, &allow_all()).unwrap();
    let entry = open(&path, &seal(), Want::Key(&k), Some(&print)).unwrap();
    assert!(entry.verified);
    // Replaced by an unsealed one: refused, though a stale stamp vouched
    // for the name.
    write(
        &path,
        &other_seal(),
        &set(),
        &k,
        &allow_all().0,
        &allow_all().1,
    )
    .unwrap();
    assert!(open(&path, &seal(), Want::Key(&k), Some(&print)).is_none());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_file_is_a_miss() {
    let dir = temp_dir("missing");
    assert!(read(&dir.join("nope.bin"), &seal(), &sample_key()).is_none());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrong_key_is_a_miss() {
    let dir = temp_dir("key");
    let path = dir.join("policy-x.bin");
    store(&path, &sample_key(), &sample()).unwrap();
    let other = key(&[KeyInput {
        path: "/p/.warden.yaml",
        bytes: Some(b"deny: [y]"),
    }]);
    assert!(read(&path, &seal(), &other).is_none());
    // An old entry of the same files is not a damaged one: no note.
    assert_eq!(damage(&path, &seal(), &set()), None);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_format_version_is_a_miss() {
    let dir = temp_dir("version");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    store(&path, &k, &sample()).unwrap();
    let mut bytes = fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    assert!(read(&path, &seal(), &k).is_none());
    let said = damage(&path, &seal(), &set()).unwrap();
    assert!(said.contains("another warden version"), "{said}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_entry_sealed_with_another_key_is_refused_and_said() {
    // What a warden run with another HOME writes: a well-formed entry, for
    // the very key this call computes, sealed with that home's key.
    let dir = temp_dir("foreign");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    let (head, tail) = allow_all();
    write(&path, &other_seal(), &set(), &k, &head, &tail).unwrap();
    assert!(read(&path, &seal(), &k).is_none());
    assert!(read_latest(&path, &seal(), &set()).is_none());
    let said = damage(&path, &seal(), &set()).unwrap();
    assert!(said.contains("not sealed with this user's key"), "{said}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edited_entry_with_its_checksum_recomputed_is_refused() {
    // The person's own entry, its rules swapped for allow-all, and the
    // head's checksum and every length put right: only the tag can tell.
    let dir = temp_dir("edited");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    store(&path, &k, &sample()).unwrap();
    let good = fs::read(&path).unwrap();
    let (head, tail) = allow_all();
    let mut forged = good[..HEADER_LEN].to_vec();
    forged[HEAD_LEN_AT..SUM_AT].copy_from_slice(&(head.len() as u64).to_le_bytes());
    forged[SUM_AT..TAIL_LEN_AT].copy_from_slice(&checksum(&head).to_le_bytes());
    forged[TAIL_LEN_AT..TAG_AT].copy_from_slice(&(tail.len() as u64).to_le_bytes());
    forged.extend_from_slice(&head);
    forged.extend_from_slice(&tail);
    fs::write(&path, &forged).unwrap();
    assert!(read(&path, &seal(), &k).is_none());
    assert!(read_latest(&path, &seal(), &set()).is_none());
    let said = damage(&path, &seal(), &set()).unwrap();
    assert!(said.contains("not sealed"), "{said}");
    // Every single byte of the file is covered, the rules' too.
    for at in 0..good.len() {
        let mut flipped = good.clone();
        flipped[at] ^= 0x01;
        fs::write(&path, &flipped).unwrap();
        assert!(read(&path, &seal(), &k).is_none(), "byte {at}");
        assert!(read_latest(&path, &seal(), &set()).is_none(), "byte {at}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_entry_of_another_set_of_files_is_refused_under_this_name() {
    // Another project's entry, renamed or copied to this set's file name:
    // sealed, but for other files.
    let dir = temp_dir("swapped");
    let path = dir.join("policy-x.bin");
    let other_set = set_id(&seal(), &["/q/.warden.yaml"]);
    let other_key = key(&[KeyInput {
        path: "/q/.warden.yaml",
        bytes: Some(b"allow: ['*']"),
    }]);
    let (head, tail) = allow_all();
    write(&path, &seal(), &other_set, &other_key, &head, &tail).unwrap();
    assert!(read(&path, &seal(), &sample_key()).is_none());
    assert!(read_latest(&path, &seal(), &set()).is_none());
    let said = damage(&path, &seal(), &set()).unwrap();
    assert!(said.contains("other files"), "{said}");
    // Its own key relabelled to this call's (bytes 12..44): the tag covers it.
    let mut relabelled = fs::read(&path).unwrap();
    relabelled[KEY_AT..SET_AT].copy_from_slice(sample_key().as_bytes());
    relabelled[SET_AT..HEAD_LEN_AT].copy_from_slice(&set().0);
    fs::write(&path, &relabelled).unwrap();
    assert!(read(&path, &seal(), &sample_key()).is_none());
    assert!(read_latest(&path, &seal(), &set()).is_none());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keys_separate_inputs() {
    let k = |inputs: &[KeyInput<'_>]| key(inputs).to_string();
    let missing = k(&[KeyInput {
        path: "a",
        bytes: None,
    }]);
    let empty = k(&[KeyInput {
        path: "a",
        bytes: Some(b""),
    }]);
    assert_ne!(missing, empty);
    // Moving bytes between the path and the content must change the key.
    let one = k(&[KeyInput {
        path: "ab",
        bytes: Some(b"c"),
    }]);
    let two = k(&[KeyInput {
        path: "a",
        bytes: Some(b"bc"),
    }]);
    assert_ne!(one, two);
    // As must moving them between inputs.
    let split = k(&[
        KeyInput {
            path: "a",
            bytes: Some(b"b"),
        },
        KeyInput {
            path: "c",
            bytes: None,
        },
    ]);
    let joined = k(&[KeyInput {
        path: "a",
        bytes: Some(b"b\0\0\0\0\0\0\0\x01c\0"),
    }]);
    assert_ne!(split, joined);
    assert_ne!(k(&[]), missing);
    assert_eq!(
        empty,
        k(&[KeyInput {
            path: "a",
            bytes: Some(b""),
        }])
    );
    assert_eq!(empty.len(), 64);
    assert!(empty.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')));
}

#[test]
fn file_names_are_stable_distinct_and_this_users_own() {
    let name = |seal: &Seal, paths: &[&str]| file_name(&set_id(seal, paths));
    let paths = ["/home/u/.config/warden/config.yaml", "/p/.warden.yaml"];
    let a = name(&seal(), &paths);
    assert_eq!(a, name(&seal(), &paths));
    assert_ne!(
        a,
        name(
            &seal(),
            &["/home/u/.config/warden/config.yaml", "/q/.warden.yaml"]
        )
    );
    assert_ne!(name(&seal(), &["ab", "c"]), name(&seal(), &["a", "bc"]));
    assert_ne!(name(&seal(), &["a"]), name(&seal(), &["a", ""]));
    // Another key (another HOME's warden) names the same files otherwise.
    assert_ne!(a, name(&other_seal(), &paths));
    assert!(a.starts_with("policy-") && a.ends_with(".bin"));
    assert_eq!(a.len(), "policy-".len() + 16 + ".bin".len());
}

#[test]
fn every_truncation_is_a_miss() {
    let dir = temp_dir("trunc");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    store(&path, &k, &sample()).unwrap();
    let bytes = fs::read(&path).unwrap();
    assert!(bytes.len() > HEADER_LEN);
    let cut = dir.join("cut.bin");
    for len in 0..bytes.len() {
        fs::write(&cut, &bytes[..len]).unwrap();
        assert!(
            read(&cut, &seal(), &k).is_none(),
            "truncated to {len} bytes"
        );
        assert!(damage(&cut, &seal(), &set()).is_some(), "{len} bytes");
    }
    // Trailing garbage is as bad as missing bytes.
    let mut longer = bytes.clone();
    longer.push(0);
    fs::write(&cut, &longer).unwrap();
    assert!(read(&cut, &seal(), &k).is_none());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_vouched_file_still_checks_its_header_and_head() {
    // Bit rot under an unchanged fingerprint: the stamp vouches for the
    // file, but the head is still checked whole (and each rule as it is
    // read, by the policy).
    let dir = temp_dir("rot");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    let (head, tail) = sample();
    store(&path, &k, &(head.clone(), tail.clone())).unwrap();
    let bytes = fs::read(&path).unwrap();
    assert_eq!(bytes.len(), HEADER_LEN + head.len() + tail.len());
    let bad = dir.join("bad.bin");
    // (The set is read only by `read_latest`, which never takes a stamp's
    // word, and the tag only when no stamp vouches.)
    let checked = (0..SET_AT).chain(HEAD_LEN_AT..TAG_AT);
    for at in checked.chain(HEADER_LEN..HEADER_LEN + head.len()) {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut flipped = bytes.clone();
            flipped[at] ^= mask;
            fs::write(&bad, &flipped).unwrap();
            let print = Fingerprint::of(&bad);
            let entry = open(&bad, &seal(), Want::Key(&k), Some(&print));
            assert!(entry.is_none(), "byte {at} ^ {mask:#x}");
        }
    }
    let mut flipped = bytes.clone();
    flipped[HEADER_LEN + head.len()] ^= 0x01;
    fs::write(&bad, &flipped).unwrap();
    let print = Fingerprint::of(&bad);
    assert!(open(&bad, &seal(), Want::Key(&k), Some(&print)).is_some());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn checksum_sees_single_word_changes() {
    let base: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
    let sum = checksum(&base);
    for at in 0..base.len() {
        let mut changed = base.clone();
        changed[at] = changed[at].wrapping_add(1);
        assert_ne!(checksum(&changed), sum, "byte {at}");
    }
    assert_ne!(checksum(&base[..999]), sum);
    assert_ne!(checksum(b""), checksum(b"\0"));
}

#[test]
fn giant_length_prefix_is_a_quick_miss() {
    let dir = temp_dir("giant");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    store(&path, &k, &sample()).unwrap();
    let mut bytes = fs::read(&path).unwrap();
    bytes[HEAD_LEN_AT..SUM_AT].copy_from_slice(&u64::MAX.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let start = Instant::now();
    assert!(read(&path, &seal(), &k).is_none());
    assert!(damage(&path, &seal(), &set()).is_some());
    assert!(start.elapsed() < Duration::from_secs(1));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn giant_inner_length_is_a_quick_miss() {
    // A well-formed, sealed header around a head whose first Vec (the
    // sources) says 2^60 elements, then whose first string says 2^60
    // bytes. (bincode's slice reader and serde's cautious preallocation
    // already refuse this; the byte limit is a second guard that this test
    // cannot tell apart from the first.)
    let dir = temp_dir("inner");
    let path = dir.join("policy-x.bin");
    let k = sample_key();
    let start = Instant::now();
    for prefix in [vec![1u64 << 60], vec![1, 1 << 60]] {
        let mut head: Vec<u8> = prefix.iter().flat_map(|n| n.to_le_bytes()).collect();
        head.extend_from_slice(b"xxxxxxxx");
        write(&path, &seal(), &set(), &k, &head, &[]).unwrap();
        let entry = read(&path, &seal(), &k).expect("the entry itself is intact");
        assert!(Policy::from_entry(entry).is_none());
    }
    assert!(start.elapsed() < Duration::from_secs(1));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unwritable_directory_is_an_error_naming_the_path() {
    let dir = temp_dir("unwritable");
    let blocker = dir.join("a-file");
    fs::write(&blocker, b"not a directory").unwrap();
    let path = blocker.join("sub").join("policy-x.bin");
    let err = store(&path, &sample_key(), &sample()).unwrap_err();
    assert!(matches!(err, Error::State { .. }), "{err:?}");
    assert!(
        err.to_string().contains(&path.display().to_string()),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failed_rename_leaves_no_temp_file() {
    // The target is an existing non-empty directory: the rename fails
    // after the temp file was written, and the temp file must go.
    let dir = temp_dir("rename");
    let path = dir.join("policy-x.bin");
    fs::create_dir(&path).unwrap();
    fs::write(path.join("keep"), b"x").unwrap();
    assert!(store(&path, &sample_key(), &sample()).is_err());
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["policy-x.bin".to_string()]);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn write_leaves_only_the_target() {
    let dir = temp_dir("atomic");
    let path = dir.join("policy-x.bin");
    for _ in 0..3 {
        store(&path, &sample_key(), &sample()).unwrap();
    }
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["policy-x.bin".to_string()]);
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn created_directories_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("mode");
    let state = dir.join("state");
    store(&state.join("policy-x.bin"), &sample_key(), &sample()).unwrap();
    let mode = fs::metadata(&state).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    fs::remove_dir_all(&dir).unwrap();
}

/// Cache files `policy-0.bin`.. in a fresh directory, each with a stamp,
/// last written `ages[i]` seconds ago (the stamps an hour before that).
fn caches_aged(name: &str, ages: &[u64]) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let now = SystemTime::now();
    for (i, age) in ages.iter().enumerate() {
        let path = dir.join(format!("policy-{i}.bin"));
        fs::write(&path, b"x").unwrap();
        fs::write(path.with_extension("stamp"), b"s").unwrap();
        set_age(&path, now, *age);
        set_age(&path.with_extension("stamp"), now, age + 3600);
    }
    fs::write(dir.join("ledger.json"), b"{}").unwrap();
    dir
}

fn set_age(path: &Path, now: SystemTime, age: u64) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(now - Duration::from_secs(age)).unwrap();
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn prune_keeps_the_most_recently_used_and_their_stamps() {
    let dir = caches_aged("prune", &[500, 400, 300, 200, 100]);
    prune(&dir, 2, UNUSED_AFTER);
    let kept = [
        "ledger.json",
        "policy-3.bin",
        "policy-3.stamp",
        "policy-4.bin",
        "policy-4.stamp",
    ];
    assert_eq!(names(&dir), kept);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn prune_removes_what_was_not_used_for_thirty_days() {
    let day = 24 * 3600;
    let dir = caches_aged("prune-unused", &[31 * day, 29 * day, 40 * day, 60]);
    // Entry 2 was written long ago, but a call used it yesterday (its
    // stamp's time was set then): it stays.
    set_age(&dir.join("policy-2.stamp"), SystemTime::now(), day);
    prune(&dir, KEEP, UNUSED_AFTER);
    let kept = [
        "ledger.json",
        "policy-1.bin",
        "policy-1.stamp",
        "policy-2.bin",
        "policy-2.stamp",
        "policy-3.bin",
        "policy-3.stamp",
    ];
    assert_eq!(names(&dir), kept);
    fs::remove_dir_all(&dir).unwrap();
}
