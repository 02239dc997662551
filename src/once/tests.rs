//! The allow-once store's own tests: codes, digests, approval, expiry, forged and damaged records, the limit, concurrent use.

use std::fs;
use std::path::PathBuf;

use super::*;

fn dir(tag: &str) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir =
        std::env::temp_dir().join(format!("warden-once-{tag}-{}-{nanos}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn shell(command: &str, cwd: &str, session: Option<&str>) -> ToolCall {
    let mut call = ToolCall::shell(command, Some(cwd.into()));
    call.session = session.map(str::to_string);
    call
}

fn call(command: &str) -> Call {
    Call::of(&shell(command, "/p", Some("s1")), None, None)
}

const T0: u64 = 1_800_000_000;

fn offered(store: &Store, call: &Call, now: u64) -> String {
    match store.settle(call, now, &mut Vec::new()).unwrap() {
        Settled::Offered(code) => code,
        other => panic!("expected an offer, got {other:?}"),
    }
}

fn files(store: &Store) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(&store.dir)
        .map(|e| {
            e.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn codes_are_random_and_easy_to_type() {
    let codes: Vec<String> = (0..50).map(|_| new_code().unwrap()).collect();
    for code in &codes {
        assert_eq!(code.len(), CODE_LEN);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        assert_eq!(normal_code(code).as_deref(), Some(code.as_str()));
    }
    let mut unique = codes.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        codes.len(),
        "50 codes from 31^6 repeat: {codes:?}"
    );
    assert_eq!(normal_code("k7m-2qx").as_deref(), Some("K7M2QX"));
    assert_eq!(normal_code(" K7M 2QX ").as_deref(), Some("K7M2QX"));
    for bad in [
        "",
        "K7M2Q",
        "K7M2QXX",
        "K7M2Q0",
        "K7M2QI",
        "K7M2Q/",
        "../../x",
        "ＫＫＫＫＫＫ",
    ] {
        assert_eq!(normal_code(bad), None, "{bad:?}");
    }
}

#[test]
fn one_call_is_offered_one_code_until_it_is_approved() {
    let state = dir("offer");
    let store = Store::new(&state);
    let code = offered(&store, &call("git reset --hard"), T0);
    assert_eq!(offered(&store, &call("git reset --hard"), T0 + 60), code);
    let other = offered(&store, &call("git clean -fdx"), T0 + 60);
    assert_ne!(other, code);
    assert_eq!(files(&store).len(), 2);
    // The record is private.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(store.path(&code))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let mode = fs::metadata(&store.dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn an_approved_call_runs_once_then_needs_a_new_code() {
    let state = dir("approve");
    let store = Store::new(&state);
    let it = call("git reset --hard");
    let code = offered(&store, &it, T0);
    let record = store.approve(&code.to_lowercase(), T0 + 30).unwrap();
    assert_eq!(record.subject, "git reset --hard");
    assert_eq!(record.dir.as_deref(), Some("/p"));
    assert_eq!(
        record.approved_until,
        Some(T0 + 30 + APPROVED_FOR.as_secs())
    );
    // Another call is not this one.
    assert!(matches!(
        store
            .settle(&call("git clean -fdx"), T0 + 40, &mut Vec::new())
            .unwrap(),
        Settled::Offered(_)
    ));
    match store.settle(&it, T0 + 60, &mut Vec::new()).unwrap() {
        Settled::Allowed(used) => assert_eq!(used.code, code),
        other => panic!("{other:?}"),
    }
    // Spent: the next try is offered a fresh code, and the old one is gone.
    assert_ne!(offered(&store, &it, T0 + 61), code);
    assert_eq!(store.approve(&code, T0 + 62), Err(Refusal::Unknown(code)));
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn the_same_call_elsewhere_or_in_another_session_is_another_call() {
    let base = call("rm -r build");
    let variants = [
        Call::of(&shell("rm -r build", "/q", Some("s1")), None, None),
        Call::of(&shell("rm -r build", "/p", Some("s2")), None, None),
        Call::of(&shell("rm -r build", "/p", None), None, None),
        Call::of(&shell("rm -r build ", "/p", Some("s1")), None, None),
        Call::of(
            &shell("rm -r build", "/p", Some("s1")).with_workdir(Some("sub".into())),
            None,
            None,
        ),
        Call::of(
            &shell("rm -r build", "/p", Some("s1"))
                .from(crate::payload::Agent::Codex, "PreToolUse"),
            None,
            None,
        ),
    ];
    for v in &variants {
        assert_ne!(v.digest, base.digest, "{v:?}");
    }
    // The same command in the same place and session is the same call,
    // whatever else the agent adds to a shell call's input.
    let described = serde_json::json!({"command": "rm -r build", "description": "clean"});
    assert_eq!(
        Call::of(
            &shell("rm -r build", "/p", Some("s1")),
            Some(&described),
            None
        )
        .digest,
        base.digest
    );
    // Another tool's whole input is the call: other content, another call.
    let write = |content: &str| {
        let input = serde_json::json!({"path": "/p/x", "content": content});
        let call = ToolCall::new("write_file").with_path(Some("/p/x".into()));
        Call::of(&call, Some(&input), None)
    };
    assert_eq!(write("a").digest, write("a").digest);
    let reordered: serde_json::Value =
        serde_json::from_str(r#"{"content": "a", "path": "/p/x"}"#).unwrap();
    let call = ToolCall::new("write_file").with_path(Some("/p/x".into()));
    assert_eq!(
        Call::of(&call, Some(&reordered), None).digest,
        write("a").digest
    );
    assert_ne!(write("a").digest, write("b").digest);
    assert_eq!(write("a").subject, "/p/x");
}

#[test]
fn approvals_and_offers_expire() {
    let state = dir("expire");
    let store = Store::new(&state);
    let it = call("git reset --hard");
    let code = offered(&store, &it, T0);
    let late = T0 + OFFERED_FOR.as_secs() + 1;
    assert_eq!(
        store.approve(&code, late),
        Err(Refusal::Expired(code.clone()))
    );
    let code = offered(&store, &it, late);
    store.approve(&code, late).unwrap();
    let after = late + APPROVED_FOR.as_secs() + 1;
    assert!(matches!(
        store.settle(&it, after, &mut Vec::new()).unwrap(),
        Settled::Offered(fresh) if fresh != code
    ));
    // The expired approval was pruned when the fresh offer was written.
    assert!(!files(&store).contains(&format!("{code}.json")));
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn a_record_the_key_did_not_seal_approves_nothing() {
    let state = dir("tamper");
    let store = Store::new(&state);
    let it = call("git reset --hard");
    let code = offered(&store, &it, T0);
    let path = store.path(&code);
    // Marked approved by hand: the tag no longer matches.
    let text = fs::read_to_string(&path).unwrap();
    let forged = text.replace("\"approved_until\": null", "\"approved_until\": 1900000000");
    assert_ne!(forged, text);
    fs::write(&path, &forged).unwrap();
    let mut notes = Vec::new();
    assert!(matches!(
        store.settle(&it, T0 + 1, &mut notes).unwrap(),
        Settled::Offered(fresh) if fresh != code
    ));
    assert!(
        notes.iter().any(|n| n.contains("integrity check")),
        "{notes:?}"
    );
    assert!(!path.exists(), "the forged record is pruned");
    // Approved properly, then pointed at another call: refused too.
    let code = offered(&store, &it, T0 + 2);
    store.approve(&code, T0 + 3).unwrap();
    let other = call("rm -rf ~/work");
    let text = fs::read_to_string(store.path(&code)).unwrap();
    fs::write(store.path(&code), text.replace(&it.digest, &other.digest)).unwrap();
    assert!(matches!(
        store.settle(&other, T0 + 4, &mut Vec::new()).unwrap(),
        Settled::Offered(_)
    ));
    // A record sealed with another home's key (copied in) is refused.
    let elsewhere = dir("tamper-other");
    let foreign = Store::new(&elsewhere);
    let code = offered(&foreign, &it, T0);
    foreign.approve(&code, T0 + 1).unwrap();
    fs::copy(foreign.path(&code), store.path(&code)).unwrap();
    assert!(matches!(
        store.approve(&code, T0 + 2),
        Err(Refusal::Damaged(..))
    ));
    assert!(matches!(
        store.settle(&it, T0 + 2, &mut Vec::new()).unwrap(),
        Settled::Offered(_)
    ));
    // A record renamed to another code is refused.
    let code = offered(&store, &call("make clean"), T0 + 5);
    fs::rename(store.path(&code), store.path("ABCDEF")).unwrap();
    assert!(matches!(
        store.approve("ABCDEF", T0 + 6),
        Err(Refusal::Damaged(..))
    ));
    fs::remove_dir_all(&state).unwrap();
    fs::remove_dir_all(&elsewhere).unwrap();
}

#[test]
fn a_damaged_store_approves_nothing_and_is_cleaned_up() {
    let state = dir("damaged");
    let store = Store::new(&state);
    fs::create_dir_all(&store.dir).unwrap();
    fs::write(store.path("ABCDEF"), b"{not json").unwrap();
    fs::write(store.path("GHJKMN"), vec![b' '; 100 * 1024]).unwrap();
    fs::write(store.dir.join("stray"), b"x").unwrap();
    fs::create_dir(store.dir.join("PQRSTU.json")).unwrap();
    let young = store.dir.join(".K7M2QX.json.1.2.tmp");
    fs::write(&young, b"half").unwrap();
    let mut notes = Vec::new();
    let code = match store
        .settle(&call("git reset --hard"), T0, &mut notes)
        .unwrap()
    {
        Settled::Offered(code) => code,
        other => panic!("{other:?}"),
    };
    assert!(notes.iter().any(|n| n.contains("unreadable")), "{notes:?}");
    assert_eq!(
        files(&store),
        vec![
            ".K7M2QX.json.1.2.tmp".to_string(),
            format!("{code}.json"),
            "PQRSTU.json".into()
        ]
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>(),
        "damaged and stray files are gone; a write under way and a directory stay"
    );
    assert!(matches!(
        store.approve("ABCDEF", T0),
        Err(Refusal::Unknown(_))
    ));
    assert_eq!(store.approve("no", T0), Err(Refusal::NotACode));
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn an_unusable_state_directory_is_an_error_not_a_panic() {
    let state = dir("unusable");
    let blocker = state.join("file");
    fs::write(&blocker, b"x").unwrap();
    let store = Store::new(&blocker.join("state"));
    assert!(store
        .settle(&call("git reset --hard"), T0, &mut Vec::new())
        .is_err());
    assert!(matches!(
        store.approve("ABCDEF", T0),
        Err(Refusal::Store(_))
    ));
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn the_store_keeps_at_most_its_limit() {
    let state = dir("limit");
    let store = Store::new(&state);
    for n in 0..MAX_RECORDS + 5 {
        offered(&store, &call(&format!("rm -r build{n}")), T0 + n as u64);
    }
    assert_eq!(files(&store).len(), MAX_RECORDS);
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn hooks_retrying_at_once_use_an_approval_once() {
    let state = dir("race");
    let store = Store::new(&state);
    let it = call("git reset --hard");
    let code = offered(&store, &it, T0);
    store.approve(&code, T0 + 1).unwrap();
    let allowed: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| store.settle(&it, T0 + 2, &mut Vec::new())))
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join().unwrap().unwrap() {
                Settled::Allowed(_) => 1,
                Settled::Offered(_) => 0,
            })
            .sum()
    });
    assert_eq!(allowed, 1);
    fs::remove_dir_all(&state).unwrap();
}

#[test]
fn clock_is_utc_time_of_day() {
    assert_eq!(clock(0), "00:00:00 UTC");
    assert_eq!(clock(86_400 + 3_661), "01:01:01 UTC");
}
