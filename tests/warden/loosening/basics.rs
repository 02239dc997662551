//! The direct routes: writing, removing or switching off a guard file with the plain spelling.

use super::{route, Step};

tests!(
    direct_writes_to_guard_files_are_refused,
    plain_loosening_commands_are_refused
);

fn direct_writes_to_guard_files_are_refused() {
    route(
        "direct-writes",
        &[
            Step::Refused("echo 'rules: {}' > ~/.config/warden/config.yaml"),
            Step::Refused("rm ~/.config/warden/config.yaml"),
            Step::Refused("cp /dev/null ~/.config/warden/config.yaml"),
        ],
    );
}

fn plain_loosening_commands_are_refused() {
    route(
        "plain-commands",
        &[
            Step::Refused("hermes config set approvals.mode off"),
            Step::Refused("export HERMES_YOLO_MODE=1"),
        ],
    );
}
