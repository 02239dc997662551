//! Temporary: splits on whitespace until the real evaluator lands.
use super::{Analysis, Command};
pub fn run(analysis: &mut Analysis) {
    for seg in analysis.text.clone().split([';', '|', '&', '\n']) {
        let words: Vec<String> = seg.split_whitespace().map(str::to_string).collect();
        if let Some((first, rest)) = words.split_first() {
            analysis.commands.push(Command {
                program: first.rsplit('/').next().unwrap_or(first).to_lowercase(),
                path: first.clone(),
                args: rest.to_vec(),
                ..Command::default()
            });
        }
    }
}
