//! Tests of wrapper peeling and of launchers that run shell text.

use crate::shell::analyze;

/// Every command the line runs, as `program args...`.
fn ran(line: &str) -> Vec<String> {
    analyze(line)
        .commands
        .iter()
        .map(|c| {
            let mut words = vec![c.program.clone()];
            words.extend(c.args.iter().cloned());
            words.join(" ")
        })
        .collect()
}

/// Asserts that `line` runs `expected` (program and arguments).
#[track_caller]
fn runs(line: &str, expected: &str) {
    let got = ran(line);
    assert!(
        got.iter().any(|c| c == expected),
        "{line:?} should run {expected:?}; it runs {got:?}"
    );
}

/// Asserts that `line` runs only its own program (nothing is peeled).
#[track_caller]
fn runs_itself(line: &str, program: &str) {
    let got = ran(line);
    assert!(
        got.len() == 1 && got[0].split(' ').next() == Some(program),
        "{line:?} should run only {program}; it runs {got:?}"
    );
}

#[test]
fn short_clusters_take_values_like_getopt() {
    runs("sudo -nu root rm -rf /", "rm -rf /");
    runs("nice -n10 rm -rf /", "rm -rf /");
    runs("screen -dmS dev rm -rf /", "rm -rf /");
}

#[test]
fn tracers() {
    runs("strace -f -o /tmp/t rm -rf /", "rm -rf /");
    runs("strace -e trace=file -s 200 rm -rf /", "rm -rf /");
    runs("strace -etrace=file -o/tmp/t rm -rf /", "rm -rf /");
    runs("strace --output out.txt -- rm -rf /", "rm -rf /");
    runs("strace -c ls", "ls");
    runs("ltrace -l libc.so.6 -o log rm -rf /", "rm -rf /");
    runs(
        "valgrind --leak-check=full --log-file=v.log ./app -x",
        "app -x",
    );
    runs("perf record -g -o perf.data -- rm -rf /", "rm -rf /");
    runs("perf stat -e cycles -r 3 rm -rf /", "rm -rf /");
    runs_itself("perf report -i perf.data", "perf");
    runs("gdb -q -ex run --args rm -rf /", "rm -rf /");
    runs_itself("gdb ./app core", "gdb");
}

#[test]
fn sandboxes() {
    runs("unshare -r -n -w /tmp rm -rf /", "rm -rf /");
    runs("firejail --noprofile --private=/tmp rm -rf /", "rm -rf /");
    runs(
        "bwrap --ro-bind /usr /usr --bind / / --setenv A b --chdir / --tmpfs /tmp --unshare-all rm -rf /",
        "rm -rf /",
    );
    runs(
        "bwrap --overlay /rw /work /mnt --dev /dev rm -rf /",
        "rm -rf /",
    );
    runs("fakeroot -- rm -rf /", "rm -rf /");
    runs("proot -r /srv/root -b /proc -w / rm -rf /", "rm -rf /");
    runs(
        "setpriv --reuid 1000 --regid 1000 --init-groups rm -rf /",
        "rm -rf /",
    );
    runs("ip netns exec blue rm -rf /", "rm -rf /");
    runs_itself("ip netns list", "ip");
}

#[test]
fn capsh_runs_a_shell_after_dashes() {
    runs(
        "capsh --caps=cap_sys_admin+eip -- -c 'rm -rf /'",
        "rm -rf /",
    );
    runs_itself("capsh --print", "capsh");
}

#[test]
fn limiters() {
    runs("cpulimit -l 50 -- rm -rf /", "rm -rf /");
    runs("cpulimit --limit=50 rm -rf /", "rm -rf /");
    runs("prlimit --nofile=1024 --as=1000000 rm -rf /", "rm -rf /");
    runs("numactl --interleave all -C 0-3 rm -rf /", "rm -rf /");
    runs("faketime '2020-01-01 00:00:00' rm -rf /", "rm -rf /");
}

#[test]
fn tmux_shell_strings() {
    runs("tmux new-session -d -s x 'rm -rf ~'", "rm -rf ~");
    runs("tmux -L sock new -d 'sleep 1; rm -rf /'", "rm -rf /");
    runs("tmux split-window -h -t dev 'rm -rf /'", "rm -rf /");
    runs("tmux run-shell -b 'rm -rf /'", "rm -rf /");
    runs("tmux send-keys -t dev 'rm -rf /' Enter", "rm -rf /");
    runs("tmux new -d \\; send-keys 'rm -rf /' C-m", "rm -rf /");
    runs_itself("tmux new-session -d -s dev", "tmux");
    runs_itself("tmux ls", "tmux");
}

#[test]
fn sessions_and_services() {
    runs("screen -dm rm -rf /", "rm -rf /");
    runs("screen -S build -dm make -j4", "make -j4");
    runs("screen -S dev -X stuff 'rm -rf /^M'", "rm -rf /");
    runs_itself("screen -ls", "screen");
    runs(
        "systemd-run --user --scope -p MemoryMax=1G --unit job rm -rf /",
        "rm -rf /",
    );
    runs("machinectl shell root@box /bin/rm -rf /", "rm -rf /");
    runs("runuser -u bob -- rm -rf /", "rm -rf /");
    runs("runuser -l bob -c 'rm -rf /'", "rm -rf /");
    runs("sg docker -c 'rm -rf /'", "rm -rf /");
    runs("sg docker rm -rf /", "rm -rf /");
}

#[test]
fn package_runners() {
    runs("npx --yes -p cowsay rm -rf /", "rm -rf /");
    runs("npx prettier --write .", "prettier --write .");
    runs("npx -c 'rm -rf /'", "rm -rf /");
    runs("npm exec -- rm -rf /", "rm -rf /");
    runs("pnpm dlx rm -rf /", "rm -rf /");
    runs("pnpm exec -c 'rm -rf /'", "rm -rf /");
    runs("yarn dlx -p x rm -rf /", "rm -rf /");
    runs("bunx rm -rf /", "rm -rf /");
    runs("bundle exec rspec spec/a_spec.rb", "rspec spec/a_spec.rb");
    runs("uv run --with requests --python 3.12 rm -rf /", "rm -rf /");
    runs("uv tool run ruff check", "ruff check");
    runs("uvx --from black black .", "black .");
    runs("poetry run python -m app", "python -m app");
    runs("pipx run --spec x rm -rf /", "rm -rf /");
    runs("pdm run rm -rf /", "rm -rf /");
    runs("hatch run rm -rf /", "rm -rf /");
    runs("conda run -n base rm -rf /", "rm -rf /");
    runs("nix-shell -p jq --run 'rm -rf /'", "rm -rf /");
    runs("nix-shell -p jq --command 'jq . x.json'", "jq . x.json");
    runs("nix develop .#dev -c rm -rf /", "rm -rf /");
    runs("direnv exec . rm -rf /", "rm -rf /");
    runs_itself("npm install", "npm");
    runs_itself("uv pip install x", "uv");
}

#[test]
fn moreutils() {
    runs("chronic rm -rf /", "rm -rf /");
    runs("ifne rm -rf /", "rm -rf /");
    runs("sem -j 2 'rm -rf /'", "rm -rf /");
}

#[test]
fn wrappers_stack() {
    runs("sudo strace -f timeout 5 npx -y rm -rf /", "rm -rf /");
    runs("tmux new -d 'sudo uv run rm -rf /'", "rm -rf /");
}

#[test]
fn shell_text_in_options_and_screen_commands() {
    runs("gdb -batch -ex 'shell rm -rf /' ./app", "rm -rf /");
    runs("gdb --eval-command='!rm -rf /' --args true", "rm -rf /");
    runs("gdb -ex 'pipe info frame | rm -rf /' ./app", "rm -rf /");
    runs("screen -S dev -X exec rm -rf /", "rm -rf /");
    runs("ip -all netns exec rm -rf /", "rm -rf /");
    runs("ip -all netns exec bash -c 'rm -rf ~'", "rm -rf ~");
    runs("tmux -c 'rm -rf /'", "rm -rf /");
    runs("tmux if-shell 'rm -rf /' 'display hi'", "rm -rf /");
    runs_itself("tmux send-keys -t dev -X cancel", "tmux");
}

#[test]
fn sudo_chroot_and_login_class_take_values() {
    runs("sudo -R /srv/jail rm -rf /", "rm -rf /");
    runs("sudo -c staff rm -rf /", "rm -rf /");
}

#[test]
fn finding_a_wrapper_by_name_is_the_first_in_table_order() {
    use super::{all, find};
    let scan = |name: &str| all().find(|w| w.name == name).map(|w| w as *const _);
    let mut names: Vec<&str> = all().map(|w| w.name).collect();
    names.extend(["", "x", "sud", "sudoo", "not-a-wrapper"]);
    for name in names {
        assert_eq!(find(name).map(|w| w as *const _), scan(name), "{name}");
    }
}
