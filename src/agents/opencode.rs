//! OpenCode: warden's plugin file in OpenCode's configuration directory (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`), written with warden's absolute path, and what can switch it off.

use std::path::{Path, PathBuf};

use super::{files, Agent, Homes, Kind, Options, Report};

/// The plugin as shipped in `hooks/`: it runs the `warden` on PATH until
/// install writes warden's absolute path into it.
pub const PLUGIN: &str = include_str!("../../hooks/opencode-warden.js");

/// The line of [`PLUGIN`] that names the warden it runs.
const WARDEN_LINE: &str = "const WARDEN = \"warden\";";

/// Where OpenCode loads plugin files from in its configuration directory
/// (it also reads `plugins/`; install uses the first).
pub fn plugin_file(homes: &Homes) -> Option<PathBuf> {
    homes
        .dir(Agent::OpenCode)
        .map(|d| d.join("plugin/warden.js"))
}

/// The plugin for the warden at `warden`: its path as a JavaScript string
/// (a JSON string is one).
pub fn plugin_text(warden: &Path) -> String {
    let path = serde_json::Value::String(warden.display().to_string());
    PLUGIN.replacen(WARDEN_LINE, &format!("const WARDEN = {path};"), 1)
}

/// Whether `text` is warden's plugin, of any version: it opens with the
/// plugin's first line.
pub fn is_ours(text: &str) -> bool {
    PLUGIN
        .lines()
        .next()
        .is_some_and(|first| text.lines().next() == Some(first))
}

/// The warden program a plugin file runs, as written in it.
pub fn warden_in(text: &str) -> Option<String> {
    let value = text
        .lines()
        .find_map(|line| line.strip_prefix("const WARDEN = "))?
        .trim_end()
        .strip_suffix(';')?;
    serde_json::from_str::<String>(value).ok()
}

/// `OPENCODE_PURE` (or `--pure`) as OpenCode reads it: set to anything but
/// a false word, no plugin outside OpenCode's own is loaded. A value
/// OpenCode would not take as a boolean counts as set: better to say so
/// than to guess that the plugin runs.
pub fn pure(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim(), "" | "0" | "false" | "no" | "off" | "n"))
}

pub fn install(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::OpenCode;
    let Some(file) = plugin_file(homes) else {
        report.push(
            agent,
            Kind::Failed,
            "HOME and XDG_CONFIG_HOME are unset: no ~/.config/opencode to write",
        );
        return;
    };
    let shown = file.display();
    let old = match files::read_optional(&file) {
        Ok(old) => old,
        Err(err) => return report.push(agent, Kind::Failed, err.to_string()),
    };
    let new = plugin_text(&options.warden);
    match &old {
        Some(old) if !is_ours(old) => {
            return report.push(
                agent,
                Kind::Failed,
                format!("{shown} exists and is not warden's plugin; nothing was changed: move it away and run this again"),
            )
        }
        Some(old) if *old == new => {
            return report.push(agent, Kind::Info, format!("{shown}: nothing to change"))
        }
        _ => {}
    }
    let what = match old {
        Some(_) => "replaced warden's plugin with this warden's",
        None => "added warden's plugin",
    };
    let ran = format!(
        "{what}, which runs {} --agent opencode",
        options.warden.display()
    );
    if options.dry_run {
        report.push(agent, Kind::Changed, format!("would change {shown}: {ran}"));
    } else if let Err(err) = files::replace_own(&file, &new) {
        return report.push(agent, Kind::Failed, format!("could not write: {err}"));
    } else {
        report.push(agent, Kind::Changed, format!("{shown}: {ran}"));
    }
    if pure(homes.opencode_pure.as_deref()) {
        report.push(agent, Kind::Todo, PURE_NOTE);
    }
}

pub fn uninstall(homes: &Homes, options: &Options, report: &mut Report) {
    let agent = Agent::OpenCode;
    let Some(file) = plugin_file(homes) else {
        return;
    };
    let shown = file.display();
    match files::read_optional(&file) {
        Err(err) => report.push(agent, Kind::Failed, err.to_string()),
        Ok(None) => {}
        Ok(Some(text)) if !is_ours(&text) => report.push(
            agent,
            Kind::Info,
            format!("{shown} is not warden's plugin: left alone"),
        ),
        Ok(Some(_)) if options.dry_run => report.push(
            agent,
            Kind::Changed,
            format!("would remove {shown}: warden's plugin"),
        ),
        Ok(Some(_)) => match files::remove(&file) {
            Ok(_) => report.push(
                agent,
                Kind::Changed,
                format!("{shown}: removed warden's plugin"),
            ),
            Err(err) => report.push(agent, Kind::Failed, format!("could not remove: {err}")),
        },
    }
}

/// What install and doctor say when `OPENCODE_PURE` is set where they run.
pub const PURE_NOTE: &str = "OPENCODE_PURE is set here: OpenCode loads no plugin but its own under it (nor with --pure), so it runs without warden; unset it";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_names_warden_once_and_install_writes_its_path() {
        assert_eq!(PLUGIN.matches(WARDEN_LINE).count(), 1);
        assert_eq!(warden_in(PLUGIN).as_deref(), Some("warden"));
        let odd = Path::new("/opt/it's \"here\"/warden");
        let text = plugin_text(odd);
        assert_eq!(warden_in(&text).as_deref(), odd.to_str());
        assert!(is_ours(&text) && !text.contains(WARDEN_LINE));
        assert!(!is_ours("export const Other = async () => ({});\n"));
        assert_eq!(warden_in("const WARDEN = process.env.X;"), None);
    }

    #[test]
    fn the_plugin_has_one_export_and_it_is_a_function() {
        // OpenCode skips, silently, a plugin file with any other export.
        let exports: Vec<&str> = PLUGIN
            .lines()
            .filter(|l| l.starts_with("export "))
            .collect();
        assert_eq!(exports.len(), 1, "{exports:?}");
        assert!(exports[0].starts_with("export const WardenGuard = async ("));
    }

    #[test]
    fn pure_is_read_as_opencode_reads_it() {
        for on in ["1", "true", "TRUE", "yes", "y", "on"] {
            assert!(pure(Some(on)), "{on}");
        }
        for off in ["", "0", "false", "no", "off"] {
            assert!(!pure(Some(off)), "{off}");
        }
        assert!(!pure(None));
    }
}
