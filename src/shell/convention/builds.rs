//! Files a build reads that hold or name code: a Dockerfile's `RUN` lines (run in the image, not here) and a `pyproject.toml`'s in-tree build backend.

use super::{basename, file_key, Eval};

impl Eval<'_> {
    /// The modules a `pyproject.toml` the line wrote names as its build
    /// backend inside the project (`build-backend = "x"` with
    /// `backend-path = ["."]`), when the line wrote them too: pip and
    /// every other front-end import them to build.
    pub(super) fn build_backends(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (path, text) in self
            .files
            .iter()
            .filter(|(p, _)| basename(p) == "pyproject.toml")
        {
            let dir = path.strip_suffix("pyproject.toml").unwrap_or("");
            let Some(module) = toml_value(text, "build-backend") else {
                continue;
            };
            let module = module.split(':').next().unwrap_or("").replace('.', "/");
            let paths = toml_value(text, "backend-path").unwrap_or_default();
            for sub in paths
                .split(',')
                .map(|p| p.trim().trim_matches(['"', '\'', ' ']))
            {
                let sub = sub.trim_start_matches("./").trim_end_matches('/');
                let base = if sub.is_empty() || sub == "." {
                    dir.to_string()
                } else {
                    format!("{dir}{sub}/")
                };
                for file in [
                    format!("{base}{module}.py"),
                    format!("{base}{module}/__init__.py"),
                ] {
                    out.extend(self.files.get(&file_key(&file)).cloned());
                }
            }
        }
        out
    }

    /// A Dockerfile's `RUN` lines that pipe a download into a shell: code
    /// from the network run in the build, which asks. Other lines act on
    /// the image, not this machine (`RUN rm -rf /var/lib/apt/lists/*`).
    pub(super) fn docker_runs(&mut self, text: &str) {
        /// Programs whose output is what a server sent.
        const FETCHERS: &[&str] = &["curl", "wget", "fetch", "aria2c", "http", "xh"];
        for line in docker_run_lines(text) {
            let inner = crate::shell::analyze(&line);
            let runs = inner.commands.iter().any(|c| {
                crate::shell::sinks::is_shell_text(&c.display())
                    && c.upstream
                        .iter()
                        .any(|u| FETCHERS.contains(&u.program.as_str()))
            });
            if runs {
                self.sink_asks("docker build", crate::shell::sinks::Lang::Shell, &line);
            }
        }
    }
}

/// A Dockerfile's `RUN` instructions in shell form, continuation lines joined.
fn docker_run_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if current.is_none() {
            let Some(rest) = trimmed
                .split_once(char::is_whitespace)
                .filter(|(word, _)| word.eq_ignore_ascii_case("RUN"))
                .map(|(_, rest)| rest.trim_start())
            else {
                continue;
            };
            current = Some(String::new());
            if let Some(text) = current.as_mut() {
                text.push_str(rest);
            }
        } else if let Some(text) = current.as_mut() {
            text.push(' ');
            text.push_str(trimmed);
        }
        match current.as_mut() {
            Some(text) if text.ends_with('\\') => {
                text.pop();
            }
            _ => out.extend(current.take()),
        }
    }
    out.extend(current);
    out
}

/// The value of `key = VALUE` in TOML text, without quotes or brackets.
fn toml_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches(['"', '\'', '[', ']']).to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_and_toml() {
        assert_eq!(
            docker_run_lines(
                "FROM a\nRUN apt-get update && \\\n  apt-get install -y x\nrun echo hi\nCMD x\n"
            ),
            vec!["apt-get update &&  apt-get install -y x", "echo hi"]
        );
        let toml = "[build-system]\nbuild-backend = \"backend\"\nbackend-path = [\".\"]\n";
        assert_eq!(
            toml_value(toml, "build-backend").as_deref(),
            Some("backend")
        );
        assert_eq!(toml_value(toml, "backend-path").as_deref(), Some("."));
    }
}
