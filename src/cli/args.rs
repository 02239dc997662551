//! Help for a subcommand's flags, laid out from the table in `crate::subcommands`, which also parses them.

pub(crate) use crate::subcommands::{Flag, Parsed};

/// The flags' lines for help, `    --name VALUE   help`, followed by
/// `extra` lines given as (label, help), all aligned.
pub(crate) fn describe(flags: &[Flag], extra: &[(&str, &str)]) -> String {
    let mut rows: Vec<(String, &str)> = flags
        .iter()
        .map(|f| {
            let label = match f.value {
                Some(value) => format!("{} {value}", f.long),
                None => f.long.to_string(),
            };
            (label, f.help)
        })
        .collect();
    rows.extend(extra.iter().map(|(label, help)| (label.to_string(), *help)));
    let width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (label, help) in rows {
        let mut lines = help.lines();
        out.push_str(&format!(
            "    {label:<width$}  {}\n",
            lines.next().unwrap_or("")
        ));
        for more in lines {
            out.push_str(&format!("    {:<width$}  {more}\n", ""));
        }
    }
    out
}
