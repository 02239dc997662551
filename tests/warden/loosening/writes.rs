//! Routes that write a guard file by what a command produces rather than the destination it names: archives unpacked over it, hard links to it, clones and moves into place, renames and patches, other letter cases, its real place behind a dotfiles symlink, and its parent directory removed, moved or re-permissioned.

use std::fs;

use super::{guarded, refuses, route, Step};
use crate::support::World;

tests!(
    archives_unpacked_over_guard_files_are_refused,
    hard_links_to_guard_files_are_refused,
    guard_directories_made_by_clones_moves_and_copies_are_refused,
    project_policy_files_made_by_renames_links_and_patches_are_refused,
    guard_files_behind_a_dotfiles_symlink_are_guarded_at_both_names,
    removing_moving_or_re_permissioning_a_parent_blocks_even_with_yolo,
    everyday_unpacking_cloning_linking_and_patching_stay_silent,
);

/// A Hermes verdict that is neither a block nor an ask.
#[track_caller]
fn silent(world: &World, cmd: &str) {
    let (v, err) = world.hook(cmd);
    assert!(
        !refuses(&v),
        "`{cmd}` is everyday work and must pass, got {v:#}\nstderr: {err}"
    );
}

/// A Hermes verdict that blocks, by `rule`.
#[track_caller]
fn blocked_by(world: &World, cmd: &str, rule: &str) {
    let (v, err) = world.hook(cmd);
    assert!(
        v["action"] == "block" && v["rule_id"] == rule,
        "`{cmd}` must be blocked by {rule}, got {v:#}\nstderr: {err}"
    );
}

fn archives_unpacked_over_guard_files_are_refused() {
    route(
        "writes/archives",
        &[
            Step::Refused("tar -xf /tmp/dots.tar -C ~/.config"),
            Step::Refused("tar -xzf /tmp/dots.tgz --directory=$HOME"),
            Step::Refused("tar xf /tmp/dots.tar -C ~/.config/warden"),
            Step::Refused("unzip -o /tmp/dots.zip -d ~/.config"),
            Step::Refused("cd ~/.config && tar -xf /tmp/dots.tar"),
            Step::Refused("tar -xf /tmp/dots.tar --transform 's,^,.config/warden/,' -C ~"),
            Step::Refused("tar -xPf /tmp/dots.tar"),
            Step::Refused("tar -xf /tmp/x.tar --xform 's,notes.yaml,.warden.yaml,'"),
        ],
    );
}

fn hard_links_to_guard_files_are_refused() {
    route(
        "writes/hard-links",
        &[
            Step::Refused("ln ~/.config/warden/config.yaml notes.txt"),
            Step::Refused("cp -l ~/.config/warden/config.yaml notes.txt"),
            Step::Refused("link ~/.config/warden/config.yaml notes.txt"),
            Step::Refused("cp -al ~/.config/warden snapshot"),
            Step::Refused("ln ../etc-warden/policy.yaml managed.yaml"),
        ],
    );
}

fn guard_directories_made_by_clones_moves_and_copies_are_refused() {
    let world = route(
        "writes/new-guard-dirs",
        &[
            Step::Refused("git clone https://example.com/dots.git ~/.hermes"),
            Step::Refused("git clone https://example.com/dots.git ~/.config/warden"),
            Step::Refused("mv /tmp/prepared ~/.hermes"),
            Step::Refused("cp -r /tmp/prepared ~/.hermes"),
            Step::Refused("rsync -a /tmp/prepared/ ~/.hermes/"),
            // Hermes has no home yet: making one is allowed, and every
            // way of filling it is judged then.
            Step::Effect(&|w| {
                silent(w, "mkdir -p ~/.hermes");
                fs::create_dir_all(w.path("home/.hermes")).unwrap();
            }),
            Step::Refused("echo 'approvals: {mode: \"off\"}' > ~/.hermes/config.yaml"),
            Step::Refused("cd ~/.hermes && tar -xf /tmp/dots.tar"),
            Step::Refused("cp -r /tmp/prepared/. ~/.hermes"),
            Step::Refused("cp /tmp/prepared/* ~/.hermes/"),
        ],
    );
    blocked_by(
        &world,
        "git clone https://example.com/x ~/.claude",
        "files.guard-dir",
    );
}

fn project_policy_files_made_by_renames_links_and_patches_are_refused() {
    let evil = "diff --git a/notes.yaml b/.warden.yaml\nsimilarity index 100%\nrename from notes.yaml\nrename to .warden.yaml\n";
    let world = guarded("writes/project-files")
        .file("project/notes.yaml", "rules: {}\n")
        .file("project/evil.diff", evil)
        .file("project/docs/permissions.yaml", "approvals: {}\n");
    for cmd in [
        "git mv notes.yaml .warden.yaml",
        "mv notes.yaml .Warden.yaml",
        "ln -s docs .hermes",
        "ln -s docs .HERMES",
        "patch -p1 < evil.diff",
        "git apply evil.diff",
        "cat evil.diff | git apply",
        "rename 's/notes/.warden/' notes.yaml",
        "rename notes .warden notes.yaml",
        "mmv 'notes.*' '.warden.#1'",
        "echo 'rules: {}' > .Warden.yaml",
        "git clone https://example.com/policy .hermes",
    ] {
        let (v, err) = world.hook(cmd);
        assert!(refuses(&v), "`{cmd}` must be refused, got {v:#}\n{err}");
    }
    super::assert_held(&world, "after the project-file routes");
}

/// The person keeps warden's config in a dotfiles repository and links it
/// into place, as GNU stow and most dotfiles managers do.
fn guard_files_behind_a_dotfiles_symlink_are_guarded_at_both_names() {
    let world = route(
        "writes/dotfiles",
        &[
            Step::Effect(&|w| {
                let dots = w.path("home/dotfiles/warden");
                fs::create_dir_all(w.path("home/dotfiles/.git")).unwrap();
                fs::rename(w.path("home/.config/warden"), &dots).unwrap();
                std::os::unix::fs::symlink(&dots, w.path("home/.config/warden")).unwrap();
                // The link still leads warden to the same policy.
                super::assert_held(w, "after linking the config into place");
            }),
            Step::Refused("cd ~/dotfiles && echo 'rules: {}' > warden/config.yaml"),
            Step::Refused("echo 'rules: {}' > ~/dotfiles/warden/config.yaml"),
            Step::Refused("cd ~/dotfiles && git checkout HEAD~1 -- warden"),
            Step::Refused("cd ~/dotfiles && tar -xf /tmp/x.tar"),
            Step::Refused("rm -rf ~/dotfiles"),
            Step::Refused("mv ~/dotfiles ~/dots.old"),
            Step::Refused("ln ~/dotfiles/warden/config.yaml notes.txt"),
        ],
    );
    // Ordinary work in the repository, in a session there, stays ordinary
    // (from another project's session it is a write outside that project).
    let (v, err) = world.call(&serde_json::json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": "echo '# notes' > README.md"},
        "cwd": world.path("home/dotfiles"),
    }));
    assert!(
        !refuses(&v),
        "a write in the dotfiles session: {v:#}\n{err}"
    );
    let (v, _) = world.hook("cd ~/dotfiles && echo 'rules: {}' > warden/config.yaml");
    assert_eq!(v["action"], "block", "{v:#}");
}

fn removing_moving_or_re_permissioning_a_parent_blocks_even_with_yolo() {
    let world = guarded("writes/parents")
        .var("HERMES_YOLO_MODE", "1")
        .file("home/.hermes/config.yaml", "approvals:\n  mode: manual\n")
        .file("home/.claude/settings.json", "{}\n");
    let state = world.path("state");
    let cache = world.path("cache");
    for (cmd, rule) in [
        ("rm -rf ~/.config", "files.guard-dir"),
        ("mv ~/.config ~/config.old", "files.guard-dir"),
        ("chmod 000 ~/.config", "files.guard-dir"),
        ("chown -R nobody ~/.config", "files.guard-dir"),
        ("rm -rf ~/.hermes", "files.guard-dir"),
        ("mv ~/.hermes ~/x", "files.guard-dir"),
        ("rm -rf ~/.local/state", "files.guard-dir"),
        ("rm -rf ~/.claude", "files.guard-dir"),
        ("rm -rf ~/.config/warden", "files.guard"),
        ("rm ~/.hermes/*.yaml", "files.guard"),
        (&format!("rm -rf {state}"), "files.guard-dir"),
        (&format!("chmod -R 000 {cache}"), "files.guard-dir"),
    ] {
        blocked_by(&world, cmd, rule);
    }
    // Other programs' files under ~/.config keep the verdict they had.
    let (v, _) = world.hook("rm -rf ~/.config/someapp/cache");
    assert_ne!(v["action"], "block", "{v:#}");
    super::assert_held(&world, "after the parent routes");
}

fn everyday_unpacking_cloning_linking_and_patching_stay_silent() {
    let fix = "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1 +1 @@\n-a\n+b\n";
    let world = guarded("writes/everyday")
        .file("project/src/main.rs", "a\n")
        .file("project/fix.diff", fix)
        .file("project/build/.keep", "");
    for cmd in [
        "tar -xf x.tar",
        "tar -xf x.tar -C build/",
        "unzip x.zip -d vendor",
        "git clone https://example.com/x.git",
        "ln -s ../x y",
        "git mv a b",
        "patch -p1 < fix.diff",
        "git apply fix.diff",
        "mkdir -p .claude/commands",
        "rename 's/\\.txt$/.md/' notes.txt",
    ] {
        silent(&world, cmd);
    }
}
