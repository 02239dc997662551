//! The environment variables that move where warden finds its policy, cache and state (`XDG_*`, `HERMES_HOME`, `HERMES_CUSTOM_PATTERNS_PATH`), honoured only where an agent could not have chosen the place, and what each variable that could loosen the guard did this time.
//!
//! An agent writes in its project and in temporary directories without
//! being asked, so a variable pointing there could be the agent's way of
//! swapping the person's config for its own: warden ignores it, says so on
//! stderr and uses the default place; the policy files at the place it named
//! still tighten. So too for a place someone other than the person or root
//! owns, or could change (see [`standing::foreign`]).
//! Where a variable is honoured, the files at the default place it moved
//! away from still apply, tighten-only (`sources`); the managed directory
//! and `WARDEN_CONFIG` get their standing file by file (`standing`).

use std::path::{Path, PathBuf};

use crate::config::sources::Locations;
use crate::config::standing::{self, DEFAULT_MANAGED_DIR};
use crate::rules::targets::{classify, is_temp_dir, Target};

/// A variable that could loosen the guard, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: &'static str,
    pub value: String,
    pub honoured: Honour,
    /// What it did, or why it was ignored.
    pub note: String,
}

/// How far a variable took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Honour {
    /// As set.
    Yes,
    /// What it points at applies, but only what tightens.
    TightenOnly,
    /// Not at all: the default applies.
    No,
}

impl Honour {
    pub fn as_str(self) -> &'static str {
        match self {
            Honour::Yes => "honoured",
            Honour::TightenOnly => "honoured, tighten-only",
            Honour::No => "IGNORED",
        }
    }
}

/// The locations to use for one call, and every location variable set.
#[derive(Debug, Clone)]
pub struct Vetted {
    pub locations: Locations,
    pub variables: Vec<Variable>,
}

impl Vetted {
    /// One stderr line for each variable that was ignored.
    pub fn notes(&self) -> Vec<String> {
        self.variables
            .iter()
            .filter(|v| v.honoured == Honour::No)
            .map(|v| format!("warden: {}={} is ignored: {}", v.name, v.value, v.note))
            .collect()
    }
}

/// The variables that move a location, with the field each one sets.
const MOVERS: [&str; 5] = [
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "HERMES_HOME",
    "HERMES_CUSTOM_PATTERNS_PATH",
];

/// `raw` (read from the environment) with every location variable that
/// points where an agent could have chosen it replaced by the default
/// place; `project` is the directory the call works in, when known.
pub fn vet(raw: &Locations, project: Option<&Path>) -> Vetted {
    let person = standing::person();
    let mut locations = raw.clone();
    let mut variables = Vec::new();
    for (name, value) in &raw.variables {
        let name = *name;
        if !MOVERS.contains(&name) {
            variables.push(report(name, value, person));
            continue;
        }
        let path = PathBuf::from(value);
        let (default, shown) = default_of(raw, name);
        // Where it would be anyway needs no look.
        let problem = match default.as_ref().is_some_and(|d| *d == path) {
            true => None,
            false => misplaced(&path, project, person),
        };
        let note = match &problem {
            Some(why) => format!("{why}; warden uses {shown}"),
            None => format!("warden uses it (the files at {shown} still apply, tighten-only)"),
        };
        if problem.is_some() {
            set(&mut locations, name, default);
            locations.ignored.push((name, path));
        }
        variables.push(Variable {
            name,
            value: value.clone(),
            honoured: match problem {
                None => Honour::Yes,
                Some(_) => Honour::No,
            },
            note,
        });
    }
    Vetted {
        locations,
        variables,
    }
}

/// The default place of what `name` moves, and how to show it.
fn default_of(raw: &Locations, name: &str) -> (Option<PathBuf>, String) {
    let under = |rel: &str| raw.home.as_ref().map(|h| h.join(rel));
    let default = match name {
        "XDG_CONFIG_HOME" => under(".config"),
        "XDG_CACHE_HOME" => under(".cache").map(|d| d.join("warden")),
        "XDG_STATE_HOME" => under(".local/state").map(|d| d.join("warden")),
        "HERMES_HOME" => under(".hermes"),
        _ => None,
    };
    let shown = match (&default, name) {
        (Some(path), _) => path.display().to_string(),
        (None, "HERMES_CUSTOM_PATTERNS_PATH") => "the plugin's files in Hermes' home".into(),
        (None, _) => "no such place (HOME is unset)".into(),
    };
    (default, shown)
}

fn set(locations: &mut Locations, name: &str, to: Option<PathBuf>) {
    match name {
        "XDG_CONFIG_HOME" => locations.config_home = to,
        "XDG_CACHE_HOME" => locations.cache_dir = to,
        "XDG_STATE_HOME" => locations.state_dir = to,
        "HERMES_HOME" => locations.hermes_home = to,
        _ => locations.custom_patterns = to,
    }
}

/// Why `path` is a place an agent could have chosen for itself: not an
/// absolute path (the XDG specification ignores those too), in a
/// temporary directory or the project, where it writes without asking, or
/// somewhere someone else owns or can change.
pub(crate) fn misplaced(path: &Path, project: Option<&Path>, person: u32) -> Option<String> {
    if !path.is_absolute() {
        return Some("it is not an absolute path".into());
    }
    let real = resolved(path);
    let whole = real.as_ref().map(|(whole, _)| whole.as_path());
    for place in [Some(path), whole].into_iter().flatten() {
        let text = crate::path::text(place);
        if is_temp_dir(&text) || classify(&text, None) == Target::Temp {
            return Some(format!(
                "{text} is in a temporary directory, where an agent writes without asking"
            ));
        }
        if let Some(project) = project {
            let project = crate::path::text(project);
            if crate::path::strip_dir(&text, &project).is_some() {
                return Some(format!(
                    "{text} is inside the project ({project}), where an agent writes without asking"
                ));
            }
        }
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => standing::foreign(path, person),
        _ => match real {
            Some((_, existing)) => standing::foreign_chain(&existing, person),
            None => Some(format!("{} cannot be resolved", path.display())),
        },
    }
}

/// `path` with the symlinks of its nearest existing part resolved, and
/// that part resolved.
fn resolved(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let existing = path.ancestors().find(|p| p.exists())?;
    let real = std::fs::canonicalize(existing).ok()?;
    let rest = path.strip_prefix(existing).ok()?;
    Some((real.join(rest), real))
}

/// What a variable that does not move a location did.
fn report(name: &'static str, value: &str, person: u32) -> Variable {
    let path = Path::new(value);
    let (honoured, note) = match name {
        "WARDEN_MANAGED_DIR" if path == Path::new(DEFAULT_MANAGED_DIR) => {
            (Honour::Yes, "the default managed directory".into())
        }
        "WARDEN_MANAGED_DIR" | "WARDEN_CONFIG" if !path.exists() => (
            Honour::TightenOnly,
            format!("{} does not exist, so it says nothing", path.display()),
        ),
        "WARDEN_MANAGED_DIR" | "WARDEN_CONFIG" => {
            match standing::root_only_claim(path, Some(name), person) {
                standing::Claim::Trusted => {
                    (Honour::Yes, "only root can write it: all it says applies".into())
                }
                claim => {
                    let why = match claim {
                        standing::Claim::TightenOnly(why) => why,
                        _ => String::new(),
                    };
                    let also = if name == "WARDEN_MANAGED_DIR" {
                        format!("; {DEFAULT_MANAGED_DIR} still applies")
                    } else {
                        String::new()
                    };
                    (Honour::TightenOnly, format!("{why}{also}"))
                }
            }
        }
        "WARDEN_PROJECT_CEILING" => (
            Honour::TightenOnly,
            "the search for the project stops below it; project files at and above it still apply, but only what tightens".into(),
        ),
        _ => (Honour::Yes, String::new()),
    };
    Variable {
        name,
        value: value.to_string(),
        honoured,
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(home: &Path, vars: &[(&str, &str)]) -> Locations {
        let home = home.display().to_string();
        Locations::from_vars(|name| {
            if name == "HOME" {
                return Some(home.clone());
            }
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn places_an_agent_writes_freely_are_ignored() {
        let home = Path::new("/nonexistent-home");
        let locations = raw(
            home,
            &[
                ("XDG_CONFIG_HOME", "/tmp/x"),
                ("XDG_STATE_HOME", "/nonexistent-project/cfg"),
                ("HERMES_HOME", "relative/hermes"),
                ("HERMES_CUSTOM_PATTERNS_PATH", "/dev/shm/p.yaml"),
            ],
        );
        let vetted = vet(&locations, Some(Path::new("/nonexistent-project")));
        let l = &vetted.locations;
        assert_eq!(l.config_home, Some(home.join(".config")));
        assert_eq!(l.state_dir, Some(home.join(".local/state/warden")));
        assert_eq!(l.hermes_home, Some(home.join(".hermes")));
        assert_eq!(l.custom_patterns, None);
        let notes = vetted.notes();
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(
            notes[0].contains("XDG_CONFIG_HOME=/tmp/x is ignored")
                && notes[0].contains("temporary"),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("inside the project")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("not an absolute path")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_place_outside_project_and_temp_is_honoured() {
        // Not the checkout's own directory: a checkout under /tmp is a temporary place.
        let target = PathBuf::from("/srv/warden-cache");
        let locations = raw(
            Path::new("/nonexistent-home"),
            &[("XDG_CACHE_HOME", &target.display().to_string())],
        );
        let vetted = vet(&locations, None);
        assert_eq!(vetted.locations.cache_dir, Some(target.join("warden")));
        assert_eq!(
            vetted.variables[0].honoured,
            Honour::Yes,
            "{:?}",
            vetted.variables
        );
        assert!(vetted.notes().is_empty());
    }
}
