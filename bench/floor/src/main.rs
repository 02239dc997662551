//! The floor: the least a hook can do (read the payload, parse it, print a verdict), built like warden.

use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    let _ = std::io::stdin().read_to_string(&mut input);
    // Parsed into a tree as warden does, and used, so none of it is optimised away.
    let action = match serde_json::from_str::<serde_json::Value>(&input) {
        Ok(payload) if payload.get("tool_name").is_some() => "allow",
        _ => "block",
    };
    let _ = writeln!(std::io::stdout(), "{{\"action\":\"{action}\"}}");
}
