//! Every route by which an agent could loosen its own guard, tried as the agent would: the route's own commands must be refused, and after its effect the person's deny, a managed deny and a protected rule must still block.
//!
//! A route is a list of steps. A step is either a command the agent sends
//! through the hook (which must be blocked or asked) or the effect a
//! command would have had if it had run (the test makes that change to the
//! throwaway machine itself, as an agent that found another way would).
//! The three rules that must hold are `HELD`; each part of the suite adds
//! its routes in a module of its own.

use serde_json::Value;

use crate::support::World;

mod basics;
mod cache;
mod environment;
mod programs;
mod project;
mod workdir;
mod writes;

pub fn tests() -> Vec<libtest_mimic::Trial> {
    basics::tests()
        .into_iter()
        .chain(cache::tests())
        .chain(environment::tests())
        .chain(programs::tests())
        .chain(project::tests())
        .chain(workdir::tests())
        .chain(writes::tests())
        .collect()
}

/// The person's deny, a managed deny and a protected rule: the commands
/// they name, and the rule each must still block with.
pub const HELD: [(&str, &str); 3] = [
    ("git push origin main", "person-deny"),
    ("kubectl delete ns prod", "managed-deny"),
    ("terraform destroy -auto-approve", "protected-deny"),
];

const PERSON: &str = r#"rules:
  deny:
    - tool: terminal
      pattern: "git push:*"
      id: person-deny
    - tool: terminal
      regex: '\bterraform\s+destroy\b'
      id: protected-deny
      protected: true
"#;

const MANAGED: &str = r#"rules:
  deny:
    - tool: terminal
      pattern: "kubectl delete:*"
      id: managed-deny
"#;

/// A machine with the person's config, a managed policy and a git project,
/// on which the three `HELD` rules block before any route is tried (which
/// also records the protected rule in the ledger).
pub fn guarded(name: &str) -> World {
    let world = World::new(&format!("loosening/{name}"))
        .file("home/.config/warden/config.yaml", PERSON)
        .file("etc-warden/policy.yaml", MANAGED)
        .file("project/.git/HEAD", "ref: refs/heads/main\n");
    assert_held(&world, "before the route");
    world
}

/// Asserts each `HELD` command is still blocked by its rule.
#[track_caller]
pub fn assert_held(world: &World, when: &str) {
    for (cmd, rule) in HELD {
        let (v, err) = world.hook(cmd);
        assert!(
            v["action"] == "block" && v["rule_id"].as_str() == Some(rule),
            "{when}: `{cmd}` must stay blocked by {rule}, got {v:#}\nstderr: {err}"
        );
    }
}

/// One step of a route.
pub enum Step<'a> {
    /// A command the agent sends through the hook: it must not be allowed.
    Refused(&'a str),
    /// The same, sent with a `workdir` (the first text) the model chose.
    RefusedIn(&'a str, &'a str),
    /// What a command would have done, made directly to the machine.
    Effect(&'a dyn Fn(&World)),
}

/// Tries a route on a fresh guarded machine: every `Refused` step must be
/// blocked or asked; after all of them the `HELD` rules must still block.
#[track_caller]
pub fn route(name: &str, steps: &[Step<'_>]) -> World {
    walk(guarded(name), name, steps)
}

/// [`route`] on a guarded machine the caller made (`guarded(name)` with
/// variables of its own, say).
#[track_caller]
pub fn walk(world: World, name: &str, steps: &[Step<'_>]) -> World {
    for step in steps {
        match step {
            Step::Refused(cmd) => {
                let (v, err) = world.hook(cmd);
                assert!(
                    refuses(&v),
                    "route {name}: `{cmd}` must be blocked or asked, got {v:#}\nstderr: {err}"
                );
            }
            Step::RefusedIn(workdir, cmd) => {
                let (v, err) = world.hook_in(workdir, cmd);
                assert!(
                    refuses(&v),
                    "route {name}: `{cmd}` in workdir `{workdir}` must be blocked or asked, \
                     got {v:#}\nstderr: {err}"
                );
            }
            Step::Effect(change) => change(&world),
        }
    }
    assert_held(&world, &format!("after route {name}"));
    world
}

/// Whether a verdict blocks or asks (`ask` in warden's own dialect, which
/// the hook answers in, `approve` in Hermes').
pub fn refuses(v: &Value) -> bool {
    matches!(v["action"].as_str(), Some("block" | "ask" | "approve"))
}
