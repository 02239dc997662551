//! The guard's places: shell patterns, case, text against components, the walk through the file system, and places under a symlink's name.

use super::*;

#[test]
fn shell_patterns_name_guard_components() {
    let cases = [
        ("*.yaml", "config.yaml", true),
        ("*", "config.yaml", true),
        ("*", ".warden.yaml", false),
        (".*", ".warden.yaml", true),
        (".[a-z]*", ".hermes", true),
        (".[!a]*", ".hermes", true),
        (".[!h]*", ".hermes", false),
        ("?onfig.yaml", "config.yaml", true),
        ("C*", "config.yaml", true),
        ("[", "[", true),
        ("conf", "config.yaml", false),
        ("*.json", "config.yaml", false),
        ("**a*ml", "config.yaml", true),
    ];
    for (pattern, name, want) in cases {
        assert_eq!(same(pattern, name), want, "{pattern} ~ {name}");
    }
    assert!(same(".Warden.YAML", ".warden.yaml"));
    assert!(same("anything", "*"));
}

#[test]
fn the_places_are_folded_text_or_a_profile_pattern() {
    for &(_, place, _) in SPOTS {
        assert_eq!(plain(place), !place.starts_with("profiles/"), "{place}");
        assert!(!place.starts_with('/') && !place.ends_with('/'), "{place}");
    }
}

#[test]
fn text_and_components_relate_alike() {
    let paths = [
        "",
        "/",
        "/home",
        "/home/u",
        "/HOME/U/.Config",
        "/home/u/.config/warden",
        "/home/u/.config/warden/x",
        "/home/u/.configx",
        "/home/uv",
        ".config",
        ".config/warden/",
        "/home/u//.config",
        "/home/u/./.config",
        "/home/u/../u/.config",
        "/home/u/*",
        "config.yaml",
    ];
    let places = [
        "",
        "/",
        "/home/u/.config/warden",
        "/home/u/.config/warden/",
        ".config/warden",
        "config.yaml",
        "/home/u",
        "profiles/*/config.yaml",
    ];
    for path in paths {
        for place in places {
            for tree in [false, true] {
                assert_eq!(
                    relate(path, place, tree),
                    relate_parts(path, place, tree),
                    "{path:?} {place:?} {tree}"
                );
            }
        }
    }
}

/// A file system of absolute paths: a link's target, or `""` for a
/// plain entry; it counts what it is asked.
#[derive(Debug, Default)]
struct Fake(
    std::collections::HashMap<&'static str, &'static str>,
    std::sync::atomic::AtomicUsize,
);

impl Links for Fake {
    fn probe(&self, path: &str) -> Probe {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match self.0.get(path) {
            Some(&"") => Probe::Present,
            Some(target) => Probe::Link(target.to_string()),
            None => Probe::Missing,
        }
    }
}

#[test]
fn a_walk_asks_each_directory_once_and_answers_as_a_fresh_one() {
    let fs = Fake(
        [
            ("/h", ""),
            ("/h/.config", ""),
            ("/h/.config/warden", "/h/dots/warden"),
            ("/h/.hermes", ""),
            ("/h/.hermes/config.yaml", ""),
            ("/h/p", ""),
        ]
        .into_iter()
        .collect(),
        Default::default(),
    );
    let places = [
        "/h/.hermes",
        "/h/.hermes/config.yaml",
        "/h/.hermes/trust.json",
        "/h/.config/warden",
        "/h/.local/state/warden",
        "/h/.local/bin/warden",
        "/h/p/.warden.yaml",
        "/h/p/.claude/settings.json",
        "/h/p/.claude/settings.local.json",
        "/h/.config/warden",
    ];
    let kind = |w: Walk| match w {
        Walk::Exists => 0,
        Walk::Missing => 1,
        Walk::Crosses => 2,
        Walk::Unknown => 3,
    };
    let mut walker = Walker::default();
    for place in places {
        let fresh = kind(Walker::default().walk(place, 0, &fs));
        assert_eq!(kind(walker.walk(place, 0, &fs)), fresh, "{place}");
    }
    let before = fs.1.load(std::sync::atomic::Ordering::Relaxed);
    let mut walker = Walker::default();
    for place in places {
        walker.walk(place, 0, &fs);
    }
    let asked = fs.1.load(std::sync::atomic::Ordering::Relaxed) - before;
    assert!(asked <= 13, "{asked} probes");
    assert_eq!(shared_dirs("/h/.hermes/x", "/h/.hermes/y"), 10);
    assert_eq!(shared_dirs("/h/.hermes", "/h/.hermes2"), 2);
    assert_eq!(shared_dirs("/h/a", "/h/a"), 4);
}

#[test]
fn places_are_guarded_where_symlinks_put_them() {
    let fs = Fake(
        [
            ("/h", ""),
            ("/h/.config", ""),
            ("/h/.config/warden", "/h/dots/warden"),
            ("/h/dots", ""),
            ("/h/dots/warden", ""),
            ("/h/.hermes", ""),
            ("/h/.hermes/config.yaml", "/h/dots/hermes.yaml"),
            ("/h/dots/hermes.yaml", ""),
        ]
        .into_iter()
        .collect(),
        Default::default(),
    );
    let around = Around {
        home: Some("/h"),
        links: Some(&fs),
        ..Around::default()
    };
    let at = |path: &str| standing(&Place::new(path, &around));
    assert_eq!(at("/h/dots/warden/config.yaml"), Some(Standing::File));
    assert_eq!(at("/h/DOTS/Warden"), Some(Standing::File));
    assert_eq!(at("/h/dots/hermes.yaml"), Some(Standing::File));
    assert_eq!(at("/h/dots"), Some(Standing::Dir));
    assert_eq!(at("/h/dots/README.md"), None);
    assert_eq!(at("/h/dots/hermes.yaml.bak"), None);
    // Without a file system, only the names count.
    let plain = Around {
        home: Some("/h"),
        ..Around::default()
    };
    assert_eq!(
        standing(&Place::new("/h/dots/warden/config.yaml", &plain)),
        None
    );
    assert_eq!(
        standing(&Place::new("/h/.config/warden/config.yaml", &plain)),
        Some(Standing::File)
    );
}

#[test]
fn places_relate_as_inside_or_above() {
    let rel = relate;
    assert_eq!(rel(".config", ".config/warden", true), Some(Standing::Dir));
    assert_eq!(
        rel(".config/warden/x", ".config/warden", true),
        Some(Standing::File)
    );
    assert_eq!(rel("config.yaml/x", "config.yaml", false), None);
    assert_eq!(rel(".config/other", ".config/warden", true), None);
    let end = ends_with;
    assert_eq!(
        end("/p/.hermes", ".hermes/permissions.yaml"),
        Some(Standing::Dir)
    );
    assert_eq!(
        end("/p/.HERMES/permissions.yaml", ".hermes/permissions.yaml"),
        Some(Standing::File)
    );
    assert_eq!(end("/p/docs", ".hermes/permissions.yaml"), None);
    assert_eq!(end("/p/.warden.yaml", ".warden.yaml"), Some(Standing::File));
}

#[test]
fn hermes_home_where_hermes_home_says() {
    let around = Around {
        home: Some("/h"),
        hermes_home: Some("/srv/hermes"),
        ..Around::default()
    };
    let at = |path: &str| standing(&Place::new(path, &around));
    assert_eq!(at("/srv/hermes/config.yaml"), Some(Standing::File));
    assert_eq!(
        at("/srv/HERMES/profiles/w/config.yaml"),
        Some(Standing::File)
    );
    assert_eq!(at("/srv/hermes/memories/x"), None);
    assert_eq!(at("/srv/hermes"), Some(Standing::Dir));
    assert_eq!(at("/srv"), Some(Standing::Dir));
    assert_eq!(at("/srv/hermesx/config.yaml"), None);
    assert_eq!(at("/srv/hermes/./config.yaml"), Some(Standing::File));
    // The default home stays guarded too.
    assert_eq!(at("/h/.hermes/config.yaml"), Some(Standing::File));
}
