//! Which project a call works in: Claude Code's `CLAUDE_PROJECT_DIR`, else the version-control root above the working directory.
//!
//! Writes inside the project are ordinary work; the path rules ask for the
//! rest. A root at `/` or at a whole home is no project: a dotfiles
//! repository in `~` must not make every file in it ordinary.

use std::path::Path;

/// Markers of a repository's top directory.
const MARKERS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".pijul", "_darcs", ".fossil"];

/// The project `cwd` is in, if any.
pub(super) fn find(
    cwd: Option<&str>,
    claude_project: Option<&str>,
    home: Option<&Path>,
) -> Option<String> {
    let cwd = cwd.filter(|c| c.starts_with('/'))?;
    let cwd = crate::path::absolute(cwd, None, None);
    let inside = |dir: &str| crate::rules::files::strip_dir(&cwd, dir).is_some();
    let ordinary = |dir: &str| dir != "/" && home.is_none_or(|h| Path::new(dir) != h);
    if let Some(project) = claude_project.map(|p| crate::path::absolute(p, None, None)) {
        if inside(&project) && ordinary(&project) {
            return Some(project);
        }
    }
    let mut dir = Path::new(&cwd);
    loop {
        if MARKERS.iter().any(|m| dir.join(m).exists()) {
            let found = dir.display().to_string();
            return ordinary(&found).then_some(found);
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
        assert_eq!(find(Some(&deep), None, None), Some(repo.clone()));
        assert_eq!(find(Some(&deep), Some(&repo), None), Some(repo.clone()));
        // A home that is a repository is no project.
        assert_eq!(find(Some(&deep), None, Some(Path::new(&repo))), None);
        assert_eq!(find(None, None, None), None);
        assert_eq!(find(Some("relative"), None, None), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
