//! `net.cloud-metadata`: whether a command names a cloud metadata endpoint, with the regex compiled only for a line that could match it.

use crate::gate::Gated;
use crate::shell::Command;

/// The metadata endpoints, in their spellings: the regex is exact (a
/// digit may not follow `169.254.170.2`, nor surround the decimal form).
pub(in crate::rules) const CLOUD_METADATA: &str = r"(?i)169\.254\.169\.254|169\.254\.170\.2(?:[^\d]|$)|metadata\.google\.internal|100\.100\.100\.200|fd00:ec2::254|(?:^|[^\d])2852039166(?:[^\d]|$)|0xa9fea9fe|0251\.0376\.0251\.0376";

/// `net.cloud-metadata`. Compiling the regex costs some 1.7 million
/// instructions, more than the rest of a hook call, and nearly every
/// `curl`, `python3` or `node` line names no endpoint: the gate builds it
/// only for a line holding one of its literals.
pub(super) fn names_cloud_metadata(cmd: &Command) -> bool {
    static REGEX: Gated = Gated::new(CLOUD_METADATA);
    REGEX.is_match(&cmd.arg_line())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_literals_are_what_the_regex_needs() {
        let gate = Gated::new(CLOUD_METADATA);
        let Ok(re) = regex::Regex::new(CLOUD_METADATA) else {
            panic!("the metadata regex compiles");
        };
        // Every literal with each of its characters replaced in turn by
        // characters case folding or `\d` could treat alike, and with
        // something before and after.
        let swaps = [
            'A', 'E', 'X', 'F', 'K', '\u{212a}', '\u{17f}', '\u{663}', '0', '1', '2', '4', '5',
            '6', '9', '.', ':', ' ',
        ];
        // Spelled out again here, not taken from the regex under test.
        let endpoints = [
            "169.254.169.254",
            "169.254.170.2",
            "metadata.google.internal",
            "100.100.100.200",
            "fd00:ec2::254",
            "2852039166",
            "0xa9fea9fe",
            "0251.0376.0251.0376",
        ];
        let mut lines = Vec::new();
        for literal in endpoints {
            let chars: Vec<char> = literal.chars().collect();
            lines.push(literal.to_string());
            lines.push(literal.to_ascii_uppercase());
            for at in 0..chars.len() {
                for swap in swaps {
                    let mut changed = chars.clone();
                    changed[at] = swap;
                    lines.push(changed.into_iter().collect());
                }
            }
        }
        for line in lines.clone() {
            for (before, after) in [
                ("", "1"),
                ("1", ""),
                ("http://", "/x"),
                ("\u{663}", "\u{663}"),
                ("x", ""),
            ] {
                lines.push(format!("{before}{line}{after}"));
            }
        }
        let mut matched = 0;
        for line in &lines {
            if re.is_match(line) {
                matched += 1;
                assert!(gate.passes(line), "{line:?}");
            }
        }
        // The grid reaches the regex's matches, not only its misses.
        assert!(matched > 100, "{matched}");
    }
}
