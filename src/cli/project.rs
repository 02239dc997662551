//! Which project a call works in: Claude Code's `CLAUDE_PROJECT_DIR`, else the version-control root above the working directory.
//!
//! Writes inside the project are ordinary work; the path rules ask for the
//! rest. A root at `/`, at a system directory or at a whole home is no
//! project: a dotfiles repository in `~` must not make every file in it
//! ordinary. The engine says which directories can be one, of the root found
//! here as of any other; `CLAUDE_PROJECT_DIR` is asked here too, since when
//! it cannot be one the repository around the working directory is looked for.

use std::path::Path;

/// Markers of a repository's top directory.
const MARKERS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".pijul", "_darcs", ".fossil"];

/// Where the search for a project stops: `WARDEN_PROJECT_CEILING`, as for
/// policy files (directories at or above it are not looked at).
pub(super) struct Search<'a> {
    pub claude_project: Option<&'a str>,
    pub home: Option<&'a Path>,
    pub ceiling: Option<&'a Path>,
}

/// The project `cwd` is in, if any: `CLAUDE_PROJECT_DIR` when it can be
/// one, else the nearest repository root, which the engine judges in turn.
pub(super) fn find(cwd: Option<&str>, search: &Search<'_>) -> Option<String> {
    let Search {
        claude_project,
        home,
        ceiling,
    } = *search;
    let cwd = cwd.filter(|c| c.starts_with('/'))?;
    let cwd = crate::path::absolute(cwd, None, None);
    let inside = |dir: &str| crate::rules::files::strip_dir(&cwd, dir).is_some();
    let home = home.map(crate::path::text);
    let ordinary = |dir: &str| crate::engine::can_be_project(dir, home.as_deref());
    if let Some(project) = claude_project.map(|p| crate::path::absolute(p, None, None)) {
        if inside(&project) && ordinary(&project) {
            return Some(project);
        }
    }
    let mut dir = Path::new(&cwd);
    loop {
        if ceiling.is_some_and(|c| dir == c) {
            return None;
        }
        if MARKERS.iter().any(|m| dir.join(m).exists()) {
            return Some(crate::path::text(dir));
        }
        dir = dir.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_repository_root() {
        let root = std::env::temp_dir().join(format!("warden-project-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/src/deep")).unwrap();
        std::fs::create_dir_all(root.join("loose")).unwrap();
        let repo = root.join("repo").display().to_string();
        let deep = root.join("repo/src/deep").display().to_string();
        let search = |claude_project, home, ceiling| Search {
            claude_project,
            home,
            ceiling,
        };
        assert_eq!(
            find(Some(&deep), &search(None, None, None)),
            Some(repo.clone())
        );
        let claude = search(Some(repo.as_str()), None, None);
        assert_eq!(find(Some(&deep), &claude), Some(repo.clone()));
        // A home that is a repository is found, and is no project to the
        // engine: the working directory is then judged on its own.
        let home = search(None, Some(Path::new(&repo)), None);
        assert_eq!(find(Some(&deep), &home), Some(repo.clone()));
        assert!(!crate::engine::can_be_project(&repo, Some(&repo)));
        // CLAUDE_PROJECT_DIR at the home is passed over for the repository
        // around the working directory.
        let root_text = root.display().to_string();
        let claude_home = search(Some(root_text.as_str()), Some(root.as_path()), None);
        assert_eq!(find(Some(&deep), &claude_home), Some(repo.clone()));
        // Nor is one at or above the ceiling.
        let ceiling = search(None, None, Some(Path::new(&repo)));
        assert_eq!(find(Some(&deep), &ceiling), None);
        assert_eq!(find(None, &search(None, None, None)), None);
        assert_eq!(find(Some("relative"), &search(None, None, None)), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
