//! (being written by a helper; the lead's copy only has what policy.rs needs to build)
pub fn is_shell_tool(name: &str) -> bool {
    [
        "terminal",
        "bash",
        "shell",
        "local_shell",
        "exec_command",
        "run_shell_command",
    ]
    .iter()
    .any(|t| t.eq_ignore_ascii_case(name))
}
