//! Reading the policy files whole: a file caught in the middle of a save is read again until it settles, and is never believed half-written.
//!
//! Many editors save in place: they truncate the file and write it again,
//! in one write or several. A hook that reads it in between sees it empty
//! or cut short, and a prefix of a policy file is often a valid policy:
//! fewer rules, or an allow rule whose regex or glob was cut short and now
//! matches more. Nothing in a prefix tells it from a finished file, so a
//! file is doubted by what its `stat` says and by what warden last saw of
//! it whole (the ledger's hash of its bytes):
//!
//! - its size, times or inode changed while it was read (a write or a
//!   rename in the middle of the read);
//! - it changed in the last two seconds (`fingerprint::SETTLE_NS`, the
//!   coarsest timestamp tick in use) and its bytes are not the version
//!   the ledger last recorded;
//! - the ledger records it, it is gone, and its directory changed in the
//!   last two seconds (an editor that moves the old file aside and writes
//!   a new one).
//!
//! A doubted file is believed once two reads [`STEADY`] apart find every
//! file the same (bytes, size, times, inode). An in-place save writes its
//! pieces a tenth of a millisecond apart; [`STEADY`] is a quarter of a
//! second, above the longest pause measured inside one save on a machine
//! loaded far past its cores (see docs/configuration.md, Cache and integrity). A file that
//! does not settle within [`PATIENCE`] is left to the caller, which decides
//! by the last complete version. Files that no one is saving are never
//! doubted: the check costs a second `stat` per file read, and nothing on a
//! call the cache answers from the files' fingerprints.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::config::fingerprint::{self, Fingerprint};
use crate::config::ledger::{self, Ledger};
use crate::config::sources::Inputs;

/// How long every file must stay the same for a doubted file to be believed.
pub(crate) const STEADY: Duration = Duration::from_millis(250);

/// The longest a call waits for its files to settle.
pub(crate) const PATIENCE: Duration = Duration::from_millis(500);

/// Why a file is not believed yet. Each reads after the file's path.
pub(crate) const READ_WHILE_CHANGING: &str = "changed while it was read";
pub(crate) const CHANGED_JUST_NOW: &str =
    "changed less than 2 s ago and is not the version warden last saw whole";
pub(crate) const GONE_JUST_NOW: &str = "disappeared less than 2 s ago";

/// A file not believed yet, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Doubt {
    pub(crate) path: String,
    pub(crate) why: &'static str,
}

/// The sources as they stood once they settled, or when patience ran out.
pub(crate) struct Settled {
    pub(crate) inputs: Inputs,
    /// The files still in doubt: empty when every file settled.
    pub(crate) doubts: Vec<Doubt>,
    /// What waiting there was; `None` when no file was doubted.
    pub(crate) waited: Option<Waited>,
}

/// The wait for doubted files to settle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Waited {
    pub(crate) elapsed: Duration,
    /// How many times the files were read.
    pub(crate) reads: u32,
    /// What was doubted at first.
    pub(crate) doubts: Vec<Doubt>,
}

impl Waited {
    /// One line for `warden why`.
    pub(crate) fn describe(&self) -> String {
        format!(
            "waited {} ms and read the files {} times: {}",
            self.elapsed.as_millis(),
            self.reads,
            list(&self.doubts)
        )
    }
}

/// `path why, path why`, for a message.
pub(crate) fn list(doubts: &[Doubt]) -> String {
    let items: Vec<String> = doubts
        .iter()
        .map(|d| format!("{} {}", d.path, d.why))
        .collect();
    items.join("; ")
}

/// Waits, if a file of `inputs` is doubted, until every file has stayed the
/// same for [`STEADY`], reading them again with `again`; gives up after
/// [`PATIENCE`]. `book` is the ledger (what was last seen whole), and
/// `watched` lists for a reading every path the ledger may know of.
pub(crate) fn settle(
    mut inputs: Inputs,
    book: &Ledger,
    watched: impl Fn(&Inputs) -> Vec<String>,
    again: &mut dyn FnMut() -> Inputs,
) -> Settled {
    let start = Instant::now();
    let mut slept = Duration::ZERO;
    let mut first: Option<Vec<Doubt>> = None;
    let mut before: Option<Inputs> = None;
    let mut reads = 1;
    loop {
        let doubts = doubts(&inputs, book, &watched(&inputs), fingerprint::now_ns());
        let settled = doubts.is_empty() || before.as_ref().is_some_and(|b| b.same_as(&inputs));
        if settled || slept + STEADY > PATIENCE {
            return Settled {
                inputs,
                doubts: if settled { Vec::new() } else { doubts },
                waited: first.map(|doubts| Waited {
                    elapsed: start.elapsed(),
                    reads,
                    doubts,
                }),
            };
        }
        if first.is_none() {
            first = Some(doubts);
        }
        std::thread::sleep(STEADY);
        slept += STEADY;
        before = Some(std::mem::replace(&mut inputs, again()));
        reads += 1;
    }
}

/// The files of `inputs` that cannot be believed yet (see the module's
/// text), at wall-clock time `now_ns`.
pub(crate) fn doubts(
    inputs: &Inputs,
    book: &Ledger,
    watched: &[String],
    now_ns: i128,
) -> Vec<Doubt> {
    let recorded = |path: &str| book.sources.get(path).map(|e| e.sha256.as_str());
    let mut out = Vec::new();
    let mut present = BTreeSet::new();
    for ((candidate, content), seen) in inputs
        .candidates
        .iter()
        .zip(&inputs.contents)
        .zip(&inputs.seen)
    {
        let path = crate::path::text(&candidate.path);
        let why = match content {
            _ if !seen.whole => Some(READ_WHILE_CHANGING),
            Some(Ok(bytes))
                if seen.stat.is_fresh(now_ns)
                    && recorded(&path) != Some(ledger::sha256_hex(bytes).as_str()) =>
            {
                Some(CHANGED_JUST_NOW)
            }
            _ => None,
        };
        if content.is_some() || why.is_some() {
            present.insert(path.clone());
        }
        if let Some(why) = why {
            out.push(Doubt { path, why });
        }
    }
    for path in watched {
        if present.contains(path) || recorded(path).is_none() {
            continue;
        }
        let dir = Path::new(path).parent().map(Fingerprint::of);
        if dir.is_some_and(|d| d.is_fresh(now_ns)) {
            out.push(Doubt {
                path: path.clone(),
                why: GONE_JUST_NOW,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::load::Locations;
    use crate::config::sources::discover;
    use std::fs;
    use std::path::PathBuf;

    fn dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warden-settle-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("config/warden")).unwrap();
        dir
    }

    fn locations(root: &Path) -> Locations {
        Locations {
            config_home: Some(root.join("config")),
            ..Locations::default()
        }
    }

    fn read(locations: &Locations) -> Inputs {
        let mut inputs = discover(locations, None);
        inputs.read();
        inputs
    }

    fn config(root: &Path) -> String {
        crate::path::text(&root.join("config/warden/config.yaml"))
    }

    /// A ledger that saw `path` whole as `bytes`.
    fn seen_whole(path: &str, bytes: &[u8]) -> Ledger {
        let mut book = Ledger::default();
        book.sources.insert(
            path.to_string(),
            ledger::Entry {
                sha256: ledger::sha256_hex(bytes),
                counts: Default::default(),
                protected: Vec::new(),
            },
        );
        book
    }

    #[test]
    fn a_file_just_written_is_doubted_until_the_ledger_has_seen_it() {
        let root = dir("fresh");
        let locations = locations(&root);
        let path = config(&root);
        fs::write(&path, "mode: cautious\n").unwrap();
        let inputs = read(&locations);
        let now = fingerprint::now_ns();
        let none = doubts(&inputs, &Ledger::default(), &[], now);
        assert_eq!(
            none,
            vec![Doubt {
                path: path.clone(),
                why: CHANGED_JUST_NOW
            }]
        );
        let book = seen_whole(&path, b"mode: cautious\n");
        assert!(doubts(&inputs, &book, &[], now).is_empty());
        // Two seconds later the same bytes are believed without a record.
        let later = now + fingerprint::SETTLE_NS + 1;
        assert!(doubts(&inputs, &Ledger::default(), &[], later).is_empty());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_changed_while_it_was_read_is_doubted_whatever_its_age() {
        let root = dir("torn");
        let locations = locations(&root);
        let path = config(&root);
        fs::write(&path, "mode: cautious\n").unwrap();
        let mut inputs = read(&locations);
        inputs.seen[0].whole = false;
        let book = seen_whole(&path, b"mode: cautious\n");
        let later = fingerprint::now_ns() + fingerprint::SETTLE_NS + 1;
        assert_eq!(
            doubts(&inputs, &book, &[], later),
            vec![Doubt {
                path,
                why: READ_WHILE_CHANGING
            }]
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_recorded_file_gone_from_a_directory_just_changed_is_doubted() {
        let root = dir("gone");
        let locations = locations(&root);
        let path = config(&root);
        let inputs = read(&locations);
        let book = seen_whole(&path, b"mode: cautious\n");
        let now = fingerprint::now_ns();
        let watched = vec![path.clone()];
        assert_eq!(
            doubts(&inputs, &book, &watched, now),
            vec![Doubt {
                path: path.clone(),
                why: GONE_JUST_NOW
            }]
        );
        // Gone long ago, or never recorded: nothing to wait for.
        let later = now + fingerprint::SETTLE_NS + 1;
        assert!(doubts(&inputs, &book, &watched, later).is_empty());
        assert!(doubts(&inputs, &Ledger::default(), &watched, now).is_empty());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_doubted_file_that_stays_the_same_is_believed_after_one_steady_wait() {
        let root = dir("steady");
        let locations = locations(&root);
        let path = config(&root);
        fs::write(&path, "").unwrap();
        let settled = settle(
            read(&locations),
            &Ledger::default(),
            |_| Vec::new(),
            &mut || read(&locations),
        );
        assert!(settled.doubts.is_empty());
        let waited = settled.waited.expect("it waited");
        assert_eq!(waited.reads, 2);
        assert!(waited.elapsed >= STEADY, "{waited:?}");
        assert_eq!(waited.doubts[0].why, CHANGED_JUST_NOW);
        assert_eq!(settled.inputs.contents[0], Some(Ok(Vec::new())));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_that_keeps_changing_is_given_up_on_after_patience() {
        let root = dir("restless");
        let locations = locations(&root);
        let path = config(&root);
        fs::write(&path, "# save 0\n").unwrap();
        let mut n = 0u32;
        let settled = settle(
            read(&locations),
            &Ledger::default(),
            |_| Vec::new(),
            &mut || {
                n += 1;
                fs::write(&path, format!("# save {n}\n")).unwrap();
                read(&locations)
            },
        );
        assert_eq!(settled.doubts.len(), 1, "{:?}", settled.doubts);
        let rounds = (PATIENCE.as_millis() / STEADY.as_millis()) as u32;
        assert_eq!(n, rounds, "read again every {STEADY:?} for {PATIENCE:?}");
        let waited = settled.waited.expect("it waited");
        assert_eq!(waited.reads, rounds + 1);
        assert!(waited.elapsed >= PATIENCE, "{waited:?}");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn files_no_one_is_saving_are_read_once() {
        let root = dir("quiet");
        let locations = locations(&root);
        let path = config(&root);
        fs::write(&path, "mode: cautious\n").unwrap();
        let book = seen_whole(&path, b"mode: cautious\n");
        let settled = settle(read(&locations), &book, |_| Vec::new(), &mut || {
            panic!("read again")
        });
        assert!(settled.doubts.is_empty() && settled.waited.is_none());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_same_stat_with_other_bytes_is_not_steady() {
        // A write within one timestamp tick that keeps the size leaves the
        // `stat` as it was: the bytes tell.
        let root = dir("tick");
        let locations = locations(&root);
        let path = config(&root);
        fs::write(&path, "mode: cautious\n").unwrap();
        let a = read(&locations);
        let mut b = read(&locations);
        assert!(a.same_as(&b));
        b.contents[0] = Some(Ok(b"mode: planning\n".to_vec()));
        assert!(!a.same_as(&b));
        let mut torn = read(&locations);
        torn.seen[0].whole = false;
        assert!(!torn.same_as(&torn.clone()));
        fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_whose_size_is_not_what_is_read_is_not_whole() {
        // A /proc file says it is empty and reads as more: the check a
        // write in the middle of a read trips, here on every read.
        let root = dir("proc");
        let path = config(&root);
        std::os::unix::fs::symlink("/proc/self/status", &path).unwrap();
        let inputs = read(&locations(&root));
        assert!(matches!(&inputs.contents[0], Some(Ok(b)) if !b.is_empty()));
        assert!(!inputs.seen[0].whole);
        fs::remove_dir_all(&root).unwrap();
    }

    // ------------------------------------------------- through the loader

    use crate::config::load::{self, CacheStatus, Loaded};
    use crate::config::policy::Subjects;
    use crate::payload::ToolCall;

    /// Denies `git push` (protected, so the ledger keeps it) and `dropdb`.
    const WHOLE: &str = "rules:\n  allow:\n    - \"terminal(make:*)\"\n  deny:\n    - \"terminal(dropdb:*)\"\n    - id: no-push\n      pattern: \"git push:*\"\n      protected: true\n";
    /// The same with one more rule, as a person would save it next.
    const NEXT: &str = "rules:\n  allow:\n    - \"terminal(make:*)\"\n  deny:\n    - \"terminal(dropdb:*)\"\n    - \"terminal(terraform destroy:*)\"\n    - id: no-push\n      pattern: \"git push:*\"\n      protected: true\n";

    /// A machine with a cache and a ledger, and `WHOLE` loaded once.
    fn machine(tag: &str) -> (PathBuf, Locations, String) {
        let root = dir(tag);
        let locations = Locations {
            cache_dir: Some(root.join("cache")),
            state_dir: Some(root.join("state")),
            ..locations(&root)
        };
        let path = config(&root);
        fs::write(&path, WHOLE).unwrap();
        let first = load::load(&locations, None);
        assert_eq!(first.cache, CacheStatus::Rebuilt);
        assert!(first.settling.is_some(), "a file never seen is waited for");
        assert!(denies(&first, "dropdb x"));
        (root, locations, path)
    }

    fn denies(loaded: &Loaded, command: &str) -> bool {
        let analysis = crate::shell::analyze(command);
        let subjects = Subjects::of(&ToolCall::shell(command, None), Some(&analysis), None);
        loaded
            .policy
            .matches(&subjects)
            .iter()
            .any(|m| m.spec.decision == crate::verdict::Decision::Block)
    }

    fn ledger_of(locations: &Locations) -> Vec<u8> {
        fs::read(locations.ledger_path().unwrap()).unwrap()
    }

    #[test]
    fn a_half_written_file_is_read_again_until_it_is_whole() {
        let (root, locations, path) = machine("half");
        for torn in ["", &NEXT[..NEXT.len() / 2], &NEXT[..NEXT.len() - 20]] {
            fs::write(&path, torn).unwrap();
            let mut finished = false;
            let loaded = load::load_while(&locations, || {
                if !finished {
                    fs::write(&path, NEXT).unwrap();
                    finished = true;
                }
            });
            assert!(denies(&loaded, "terraform destroy"), "{torn:?}");
            assert!(denies(&loaded, "git push") && denies(&loaded, "dropdb x"));
            assert!(loaded.settling.is_some(), "{torn:?}");
            assert!(loaded.notes.iter().all(|n| !n.contains("-> 0 deny")));
            fs::write(&path, WHOLE).unwrap();
            assert!(!denies(&load::load(&locations, None), "terraform destroy"));
        }
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_the_person_empties_is_honoured_once_it_stays_empty() {
        let (root, locations, path) = machine("emptied");
        fs::write(&path, "").unwrap();
        let loaded = load::load(&locations, None);
        let waited = loaded.settling.clone().expect("it waited");
        assert!(waited.contains(CHANGED_JUST_NOW), "{waited}");
        assert_eq!(loaded.cache, CacheStatus::Rebuilt);
        assert!(!denies(&loaded, "dropdb x"), "the emptied file decides");
        // The protected rule stays, from the ledger, until `warden bless`.
        assert!(denies(&loaded, "git push"));
        assert!(loaded.notes.iter().any(|n| n.contains("-> 0 deny")));
        // Seen whole now: the next call does not wait.
        let again = load::load(&locations, None);
        assert_eq!(again.settling, None);
        assert!(!denies(&again, "dropdb x"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_save_that_never_settles_is_decided_by_the_last_complete_version() {
        let (root, locations, path) = machine("restless-cached");
        let ledger = ledger_of(&locations);
        let cache = fs::read(load::load(&locations, None).cache_file.unwrap()).unwrap();
        let mut n = 0;
        let mut save = || {
            n += 1;
            fs::write(
                &path,
                format!("rules:\n  deny:\n    - \"terminal(ls:*)\"\n# {n}\n"),
            )
            .unwrap();
        };
        save();
        let loaded = load::load_while(&locations, save);
        assert_eq!(loaded.cache, CacheStatus::Kept);
        assert!(denies(&loaded, "dropdb x") && denies(&loaded, "git push"));
        assert!(!denies(&loaded, "ls"), "the half-saved file is not used");
        let said: Vec<&String> = loaded.notes.iter().collect();
        assert_eq!(said.len(), 1, "{said:?}");
        let patience = format!("did not settle within {} ms", PATIENCE.as_millis());
        assert!(said[0].contains(&patience), "{said:?}");
        assert_eq!(ledger_of(&locations), ledger, "the ledger saw nothing");
        let file = loaded.cache_file.clone().unwrap();
        assert_eq!(fs::read(file).unwrap(), cache, "nothing was stored");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_older_entry_put_back_does_not_decide_a_save_that_never_settles() {
        // The entry compiled from `WHOLE`, saved and put back after `NEXT`
        // was compiled: sealed and of the same files, but not the version
        // the ledger last saw whole, so it is not the last complete policy.
        let (root, locations, path) = machine("restless-old-entry");
        let file = load::load(&locations, None).cache_file.unwrap();
        let old = fs::read(&file).unwrap();
        fs::write(&path, NEXT).unwrap();
        assert!(denies(&load::load(&locations, None), "terraform destroy x"));
        fs::write(&file, &old).unwrap();
        let mut n = 0;
        let mut save = || {
            n += 1;
            fs::write(&path, format!("{NEXT}# {n}\n")).unwrap();
        };
        save();
        let loaded = load::load_while(&locations, save);
        assert_eq!(loaded.cache, CacheStatus::Unsettled);
        assert!(loaded.policy.broken, "on_error decides: block by default");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn without_a_complete_version_cached_a_file_that_never_settles_is_unusable() {
        let (root, locations, path) = machine("restless-cold");
        fs::remove_dir_all(root.join("cache")).unwrap();
        let ledger = ledger_of(&locations);
        let mut n = 0;
        let mut save = || {
            n += 1;
            fs::write(&path, format!("rules: {{}}\n# {n}\n")).unwrap();
        };
        save();
        let loaded = load::load_while(&locations, save);
        assert_eq!(loaded.cache, CacheStatus::Unsettled);
        assert!(loaded.policy.broken, "on_error decides: block by default");
        let problems = loaded.policy.problems.join("\n");
        assert!(
            problems.contains(&format!(
                "did not settle within {} ms",
                PATIENCE.as_millis()
            )),
            "{problems}"
        );
        assert!(problems.contains("no complete version of it is cached"));
        assert!(
            denies(&loaded, "git push"),
            "the ledger keeps protected rules"
        );
        assert_eq!(ledger_of(&locations), ledger);
        assert!(!root.join("cache").exists(), "nothing was stored");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_moved_aside_and_written_anew_is_waited_for() {
        let (root, locations, path) = machine("replaced");
        let aside = format!("{path}~");
        fs::rename(&path, &aside).unwrap();
        let loaded = load::load_while(&locations, || {
            if !Path::new(&path).exists() {
                fs::write(&path, WHOLE).unwrap();
                fs::remove_file(&aside).unwrap();
            }
        });
        let waited = loaded.settling.clone().expect("it waited");
        assert!(waited.contains(GONE_JUST_NOW), "{waited}");
        assert!(denies(&loaded, "dropdb x"));
        assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn bless_waits_for_a_save_and_blesses_nothing_if_it_never_settles() {
        let (root, locations, path) = machine("bless");
        let ledger = ledger_of(&locations);
        let mut n = 0;
        let mut save = || {
            n += 1;
            fs::write(&path, format!("rules: {{}}\n# {n}\n")).unwrap();
        };
        save();
        let err = load::bless_while(&locations, save).unwrap_err().to_string();
        assert!(err.contains("nothing was blessed"), "{err}");
        assert_eq!(ledger_of(&locations), ledger);
        // Cut short, then finished: what is blessed is the whole file.
        fs::write(&path, &NEXT[..NEXT.len() / 2]).unwrap();
        let mut finished = false;
        let lines = load::bless_while(&locations, || {
            if !std::mem::replace(&mut finished, true) {
                fs::write(&path, NEXT).unwrap();
            }
        })
        .unwrap();
        assert!(
            lines.iter().any(|l| l.contains("1 protected rule")),
            "{lines:?}"
        );
        fs::remove_dir_all(&root).unwrap();
    }
}
