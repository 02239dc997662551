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

/// Whether `line` runs `inner` (program and arguments) among its commands.
fn judges(line: &str, inner: &str) -> bool {
    ran(line).iter().any(|c| c == inner)
}

/// Spellings of one option with a value `V`: every way its wrapper's
/// parser reads it (separate, attached, `=`, an abbreviation, a cluster).
fn spellings(spec: &super::WrapperSpec) -> Vec<String> {
    use super::Syntax;
    let mut out = vec![String::new()];
    if !spec.shell_args {
        out.push("--".to_string());
    }
    if spec.syntax == Syntax::Attached {
        out.extend(["--zzz".to_string(), "--zzz=V".to_string()]);
        return out;
    }
    let skipped = |key: &str| {
        spec.inert.contains(&key)
            || spec.program.iter().any(|(k, _)| *k == key)
            || spec.splits.contains(&key)
            || spec.chdir.contains(&key)
            || matches!((spec.name, key), (_, "--help" | "--version" | "-h" | "-V"))
            || matches!(
                (spec.name, key),
                ("npx" | "npm", "-c" | "--call")
                    | ("pnpm", "-c" | "--shell-mode")
                    | ("screen", "-X")
                    | ("ip", "--all" | "--batch" | "--Version" | "--help")
                    | ("busybox", _)
            )
    };
    let letters: Vec<(char, usize)> = short_letters(spec.short);
    let flag = letters
        .iter()
        .find(|(c, n)| *n == 0 && !skipped(&format!("-{c}")));
    for &(c, colons) in &letters {
        if skipped(&format!("-{c}")) {
            continue;
        }
        match (spec.syntax, colons) {
            (Syntax::Words, 0) => out.push(format!("-{c}")),
            (Syntax::Words, _) => out.push(format!("-{c} V")),
            (_, 0) => out.push(format!("-{c}")),
            (_, 1) => {
                out.extend([format!("-{c} V"), format!("-{c}V")]);
                if let Some((f, _)) = flag {
                    out.extend([format!("-{f}{c} V"), format!("-{f}{c}V")]);
                }
            }
            _ => out.extend([format!("-{c}"), format!("-{c}V")]),
        }
    }
    for entry in spec.long {
        let (name, values) = long_shape(entry);
        let key = format!("--{name}");
        if skipped(&key) {
            continue;
        }
        let mut names = vec![name.to_string()];
        match spec.syntax {
            Syntax::Getopt => names.extend(abbreviation(spec, name)),
            Syntax::Prefix => names.extend(ip_prefix(spec, name)),
            _ => {}
        }
        for n in names {
            let dashes = if spec.syntax == Syntax::Prefix {
                "-"
            } else {
                "--"
            };
            match values {
                Some(0) => out.extend([format!("{dashes}{n}"), format!("{dashes}{n}=V")]),
                None => out.push(format!("{dashes}{n}")),
                Some(k) => {
                    out.push(format!("{dashes}{n}{}", " V".repeat(k)));
                    if spec.syntax != Syntax::Words {
                        out.push(format!("{dashes}{n}=V{}", " V".repeat(k - 1)));
                    }
                }
            }
        }
    }
    if spec.dash {
        out.push("-".to_string());
    }
    if spec.numbers {
        out.extend(["-5", "--5", "-+5", "-n -5"].map(str::to_string));
    }
    out
}

/// The letters of a getopt string, each with its count of colons.
fn short_letters(short: &str) -> Vec<(char, usize)> {
    let chars: Vec<char> = short.chars().collect();
    let mut out = Vec::new();
    for (k, &c) in chars.iter().enumerate() {
        if c != ':' {
            let colons = chars[k + 1..].iter().take_while(|&&x| x == ':').count();
            out.push((c, colons));
        }
    }
    out
}

/// A long entry's name and values: `None` a flag, `Some(0)` optional.
fn long_shape(entry: &'static str) -> (&'static str, Option<usize>) {
    if let Some(name) = entry.strip_suffix('?') {
        return (name, Some(0));
    }
    match entry.split_once('=') {
        Some((name, "")) => (name, Some(1)),
        Some((name, n)) => (name, n.parse().ok()),
        None => (entry, None),
    }
}

/// The shortest prefix of `name` getopt reads as `name`, when shorter: one
/// no other long option begins.
fn abbreviation(spec: &super::WrapperSpec, name: &str) -> Option<String> {
    (1..name.len()).find_map(|len| {
        let prefix = &name[..len];
        let mut begun = spec
            .long
            .iter()
            .map(|e| long_shape(e).0)
            .filter(|n| n.starts_with(prefix));
        (begun.next() == Some(name) && begun.next().is_none()).then(|| prefix.to_string())
    })
}

/// The shortest prefix iproute2 reads as `name` (the first entry it begins).
fn ip_prefix(spec: &super::WrapperSpec, name: &str) -> Option<String> {
    (1..name.len()).find_map(|len| {
        let prefix = &name[..len];
        let first = spec
            .long
            .iter()
            .map(|e| long_shape(e).0)
            .find(|n| n.starts_with(prefix))?;
        (first == name).then(|| prefix.to_string())
    })
}

/// The words before a wrapper's options and between them and the command.
fn frame(spec: &super::WrapperSpec) -> (String, String) {
    let mut head = spec.name.to_string();
    if spec.name == "runuser" {
        head.push_str(" -u bob");
    }
    if let Some(sub) = spec.subcommands.first() {
        if spec.name == "ip" {
            return (head, format!("{sub} blue"));
        }
        head = format!("{head} {sub}");
    }
    let tail = vec!["5"; spec.positionals].join(" ");
    (head, tail)
}

/// Every option spelling of every wrapper's table, with a dangerous
/// command behind it: the command must be among those judged.
#[test]
fn every_option_spelling_of_every_wrapper_reaches_the_command() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for spec in super::all() {
        if !spec.after.is_empty() {
            continue;
        }
        let (head, tail) = frame(spec);
        for spelling in spellings(spec) {
            for (inner, text) in [
                ("git reset --hard", "git reset --hard"),
                ("rm -rf /", "rm -rf /"),
            ] {
                let (line, want) = if spec.shell_args {
                    (
                        format!("{head} {spelling} -- -c '{text}'"),
                        format!("bash -c {text}"),
                    )
                } else {
                    (
                        format!("{head} {spelling} {tail} {text}"),
                        inner.to_string(),
                    )
                };
                checked += 1;
                if !judges(&line, &want) {
                    failures.push(format!("{line:?} runs {:?}", ran(&line)));
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} spellings");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An option no table knows, with a value or without, and a word known
/// only when the line runs: the command is judged in every reading.
#[test]
fn unknown_options_and_unknown_words_leave_every_reading_judged() {
    let mut failures = Vec::new();
    for spec in super::all() {
        if !spec.after.is_empty() || spec.shell_args {
            continue;
        }
        let (head, tail) = frame(spec);
        let mut forms = vec!["--zzz-unknown", "\"$OPTS\"", "$OPTS"];
        if spec.syntax != super::Syntax::Attached {
            forms.extend(["--zzz-unknown VALUE", "-Q VALUE", "-Q", "\"$OPTS\" VALUE"]);
        }
        for form in forms {
            if spec.short.contains('Q') && form.starts_with("-Q") {
                continue;
            }
            let line = format!("{head} {form} {tail} git reset --hard");
            if !judges(&line, "git reset --hard") {
                failures.push(format!("{line:?} runs {:?}", ran(&line)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Spellings the manuals allow that read differently from the table's
/// plain forms (each checked against the real program where installed).
#[test]
fn manual_spellings_reach_the_command() {
    for line in [
        "env - git reset --hard",
        "env -i - A=1 git reset --hard",
        "env -P /usr/bin git reset --hard",
        "env -iu FOO git reset --hard",
        "env --unse FOO git reset --hard",
        "env --unset=FOO git reset --hard",
        "env -C /tmp git reset --hard",
        "env -S 'git reset --hard'",
        "env -S'git reset --hard'",
        "env --split-string='git reset --hard'",
        "env --spl 'git reset --hard'",
        "env -iS 'git reset --hard'",
        "env -S '-u FOO git reset --hard'",
        "env -S 'A=1 git \\_reset --hard'",
        "env -a foo git reset --hard",
        "env --argv0 foo git reset --hard",
        "env -L root git reset --hard",
        "env 'a b=1' git reset --hard",
        "env /x=1 git reset --hard",
        "env A=1 -- git reset --hard",
        "sudo A=1 -u root B=2 git reset --hard",
        "sudo --us root git reset --hard",
        "sudo -h host git reset --hard",
        "sudo -hhost git reset --hard",
        "sudo --preserve-env=PATH git reset --hard",
        "sudo -s git reset --hard",
        "nice -n -5 git reset --hard",
        "nice -5 git reset --hard",
        "nice --5 git reset --hard",
        "nice --adj 5 git reset --hard",
        "nice -n5 -3 git reset --hard",
        "timeout --sig KILL 5 git reset --hard",
        "timeout -k1 -sKILL 1.5m git reset --hard",
        "stdbuf --out L git reset --hard",
        "chrt -o 0 git reset --hard",
        "chrt --other git reset --hard",
        "chrt --sched-runtime 100 --sched-deadline 1000 -d 0 git reset --hard",
        "flock --time 5 /tmp/l git reset --hard",
        "prlimit --nof=1024 git reset --hard",
        "unshare -w /tmp git reset --hard",
        "unshare --mount=/tmp/ns git reset --hard",
        "chroot -u bob / git reset --hard",
        "torsocks -u bob -p pw git reset --hard",
        "xvfb-run --server-num 5 git reset --hard",
        "dbus-run-session --config-file x -- git reset --hard",
        "ip -n blue netns exec red git reset --hard",
        "ip -net blue netns exec red git reset --hard",
        "capsh --shell=/usr/bin/git -- reset --hard",
        "capsh == -- -c 'git reset --hard'",
        "gdb -q -ar git reset --hard",
    ] {
        assert!(
            judges(line, "git reset --hard") || judges(line, "bash -c git reset --hard"),
            "{line:?} runs {:?}",
            ran(line)
        );
    }
}

#[test]
fn env_chdir_moves_the_command() {
    let cwd = |line: &str| {
        analyze(line)
            .commands
            .into_iter()
            .find(|c| c.program == "rm")
            .and_then(|c| c.cwd)
    };
    assert_eq!(cwd("env -C / rm -rf *").as_deref(), Some("/"));
    assert_eq!(cwd("sudo -D /etc rm -rf *").as_deref(), Some("/etc"));
    assert_eq!(
        cwd("cd /a && env --chdir=b rm -rf *").as_deref(),
        Some("/a/b")
    );
}

#[test]
fn sudo_shells_read_what_their_shell_would() {
    // Only `$` is left unescaped: `$IFS` splits the word in the shell.
    runs("sudo -s 'rm$IFS-rf$IFS/'", "rm -rf /");
    runs("echo 'rm -rf /' | sudo -i", "rm -rf /");
    runs("echo 'rm -rf /' | chroot /srv/jail", "rm -rf /");
    runs("sudo -e /etc/sudoers", "sudoedit /etc/sudoers");
    runs("strace -o '|rm -rf /' ls", "rm -rf /");
}

#[test]
fn options_that_run_nothing_leave_the_wrapper_itself() {
    runs_itself("command -v git", "command");
    runs_itself("command -pV git", "command");
    runs_itself("ionice -p 1 2 3", "ionice");
    runs_itself("taskset -p 0x1 1234", "taskset");
    runs_itself("chrt -p 1234", "chrt");
    runs_itself("sudo -l rm -rf /", "sudo");
    runs_itself("doas -C /etc/doas.conf rm -rf /", "doas");
    runs_itself("torsocks on", "torsocks");
}

#[test]
fn reading_options_never_panics() {
    let words = [
        "-",
        "--",
        "-=",
        "--=",
        "=",
        "-S",
        "-S''",
        "--split-string",
        "--=x",
        "-é",
        "--é=1",
        "$X",
    ];
    for spec in super::all() {
        super::options::check_entries(spec).unwrap_or_else(|e| panic!("{e}"));
        for a in words {
            for b in words {
                let line = format!("{} {a} {b} {a}", spec.name);
                let _ = analyze(&line);
            }
        }
    }
}

/// Past the number of readings warden follows, the line is past a limit
/// (and blocked), not judged in the first few readings only; a hostile
/// run of unknown options stays fast.
#[test]
fn too_many_readings_are_a_limit() {
    let few = format!("env {}rm -rf /", "--zz x ".repeat(3));
    assert!(analyze(&few).limit.is_none());
    assert!(judges(&few, "rm -rf /"));
    let many = format!(
        "env {}rm -rf /",
        "--zz x ".repeat(super::MAX_READINGS_PER_WRAPPER + 2)
    );
    assert!(analyze(&many).limit.is_some());
    let started = std::time::Instant::now();
    let hostile = format!("sudo {}ls", "--zz $x ".repeat(20_000));
    assert!(analyze(&hostile).limit.is_some());
    // Readings inside readings: the line's budget bounds them all.
    let nested = format!("{}rm -rf /", "sudo $a ".repeat(30));
    assert!(analyze(&nested).limit.is_some());
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// A `NAME=value` word made at run time: quoted, or with its name written
/// out, it stays one assignment; `$VAR=1` unquoted may split into options
/// and a command, so it is read as the command too.
#[test]
fn assignments_made_at_run_time() {
    runs("env \"$VAR=1\" make", "make");
    runs("env FOO=$BAR make", "make");
    runs("sudo FOO=$BAR make", "make");
    for line in ["env $VAR=1 make", "sudo $VAR=1 make"] {
        assert!(
            analyze(line).commands.iter().any(|c| c.dynamic),
            "{line:?} runs {:?}",
            ran(line)
        );
    }
}
