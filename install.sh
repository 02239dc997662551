#!/bin/sh
# install.sh: builds warden, installs the binary, proves the installed copy blocks and allows,
# writes the starter config, registers the hook with every agent found (`warden install`), and
# ends with `warden doctor`.
set -eu

usage() {
    cat <<'EOF'
Usage: ./install.sh [--to DIR] [--no-config] [--no-register] [--accept-hooks]
                    [--dynamic] [--no-pgo] [--no-bolt] [--build-only]
                    [--binary FILE]

Builds warden (cargo build --release --locked; on Linux with glibc, a static,
non-position-independent binary: it starts in about half the time; where an
llvm-profdata of rustc's own LLVM major version is found, optimised with a
profile of warden judging its own test corpus, and where an llvm-bolt is
found, its hot code laid out together; whether it can profile is decided
before anything is built, so it builds once), copies the binary to DIR
(default: ~/.local/bin), then runs two test payloads through the installed
binary: `rm -rf /` must be blocked and `git status` allowed. If you have no
~/.config/warden/config.yaml yet, it writes the commented example from
examples/config.yaml there (it denies and asks, and allows nothing: its
allow rules are commented out) and checks it with `warden lint`. Then it
registers the installed binary with every agent it finds (Hermes Agent,
Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode: `warden install`) and runs `warden doctor`. Any failure
before the registration stops the install with a message.

It takes about 5 minutes on 2 cores (a plain release build from scratch;
the profiled build about twice that), and prints the time to expect before
it starts. It ends with a summary: which agents are guarded
now, the one step left if there is one (Hermes asks for your consent to run
the hook: on a terminal the script offers to record it there and then), and
how to undo (`warden uninstall`, `warden uninstall --purge`).

Exit status:
  0  installed, and every agent found here is guarded (or none was found,
     or --no-register / --build-only said not to register: the summary
     says so)
  1  nothing was installed, or the install stopped with an error (the
     message says where)
  2  installed, but an agent found here is not guarded yet: the summary
     names it and the command that finishes the job

Options:
  --to DIR        install into DIR instead of ~/.local/bin
  --no-config     do not write a config file
  --no-register   do not touch any agent's configuration
  --accept-hooks  record your consent to Hermes running warden's hook
                  (otherwise Hermes asks you once, at its next start)
  --dynamic       build the usual dynamically linked, position-independent
                  binary (slower to start; its code's addresses are randomised)
  --no-pgo        build once, without profile-guided optimisation (a faster
                  install; the binary judges the same, about a fifth slower)
  --no-bolt       keep the compiler's code layout (BOLT lays out the
                  profiled binary when an llvm-bolt is found; a faster install)
  --build-only    build and check the binary, print its path, and stop
  --binary FILE   install FILE, a warden built before, instead of building
                  (it is checked the same way; cargo is not needed)
  -h, --help      show this help
EOF
}

die() {
    printf 'install.sh: error: %s\n' "$*" >&2
    exit 1
}

to="${HOME:?HOME is not set}/.local/bin"
write_config=yes
register=yes
accept_hooks=""
link=static
pgo=yes
bolt=yes
build_only=no
binary=""
while [ $# -gt 0 ]; do
    case $1 in
        --no-register)
            register=no
            shift
            ;;
        --accept-hooks)
            accept_hooks=--accept-hooks
            shift
            ;;
        --no-config)
            write_config=no
            shift
            ;;
        --dynamic)
            link=dynamic
            shift
            ;;
        --no-pgo)
            pgo=no
            shift
            ;;
        --no-bolt)
            bolt=no
            shift
            ;;
        --build-only)
            build_only=yes
            shift
            ;;
        --binary)
            [ $# -ge 2 ] || die "--binary needs a file"
            binary=$2
            shift 2
            ;;
        --binary=*)
            binary=${1#--binary=}
            shift
            ;;
        --to)
            [ $# -ge 2 ] || die "--to needs a directory"
            to=$2
            shift 2
            ;;
        --to=*)
            to=${1#--to=}
            shift
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *)
            usage >&2
            die "unknown argument: $1"
            ;;
    esac
done
[ -n "$to" ] || die "--to needs a directory"
if [ -n "$binary" ]; then
    # Made absolute before the directory changes.
    if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
        die "--binary $binary is not an executable file"
    fi
    binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
fi

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ -n "$binary" ] || command -v cargo >/dev/null 2>&1 ||
    die "cargo not found: install Rust from https://rustup.rs and run this again"

# A hook starts once per tool call, so start-up is most of its cost. Linked
# statically and at a fixed address, the binary needs no dynamic loader and no
# relocations: README "Performance" has the numbers and the trade-off. The
# flags need an explicit --target (they must not reach build scripts and proc
# macros), hence the target-named output directory.
host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in
    /*) absolute_target=$target_dir ;;
    *) absolute_target=$here/$target_dir ;;
esac

# Builds warden into the target directory $2 with the extra rustc flags $1;
# sets $built to the binary's path.
build() {
    case $link:$host in
        static:*-linux-gnu)
            RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=static $1" \
                CARGO_TARGET_DIR=$2 cargo build --release --locked --target "$host"
            built="$2/$host/release/warden"
            ;;
        *)
            RUSTFLAGS="${RUSTFLAGS:-} $1" CARGO_TARGET_DIR=$2 cargo build --release --locked
            built="$2/release/warden"
            ;;
    esac
}

describe_build() {
    case $link:$host in
        static:*-linux-gnu) echo "static, not position-independent: cargo build --release --locked --target $host" ;;
        *) echo "cargo build --release --locked" ;;
    esac
}

# Profile-guided optimisation: an instrumented build judges warden's own
# corpus and fixtures once, and the final build lays out and inlines its
# code for the paths that run. Verdicts are the same; README "Performance"
# has the numbers. Merging the profiles needs an llvm-profdata that reads
# this rustc's format: rustup's llvm-tools component, or a system LLVM.
pgo_dir=$absolute_target/pgo
profiles=$pgo_dir/profiles
profdata=$pgo_dir/warden.profdata

# Writes one payload per line for the corpus commands (run from /).
corpus_payloads() {
    for file in "$here"/tests/corpus/*.jsonl; do
        sed -e 's|^{"command": |{"hook_event_name":"pre_tool_call","tool_name":"terminal","cwd":"/","tool_input":{"command": |' \
            -e 's|$|}|' "$file"
    done
}

# The corpus payloads, then the fixtures' payloads (pretty-printed JSON holds
# no raw newline in a string). A fixture that is not UTF-8 is left out: it
# would train only the refusal of an unreadable line.
training_payloads() {
    corpus_payloads
    for file in "$here"/fixtures/*/*.json; do
        case $file in *.expected.json) continue ;; esac
        iconv -f UTF-8 -t UTF-8 "$file" >/dev/null 2>&1 || continue
        tr -d '\n' <"$file"
        echo
    done
}

# Makes $1 a home for a training run, holding the starter config and nothing
# else, so that no cache, ledger or log of the user's is touched.
training_home() {
    rm -rf "${1:?}"
    mkdir -p "$1/.config/warden"
    cp "$here/examples/config.yaml" "$1/.config/warden/config.yaml"
}

# Runs the command after $1 with the home $1 and PATH as its whole environment.
# The home is a temporary directory: warden ignores XDG_* homes there (an
# agent could have chosen them), so the config, cache and state are at their
# default places under it.
in_home() {
    home_dir=$1
    shift
    env -i PATH="$PATH" HOME="$home_dir" WARDEN_MANAGED_DIR="$home_dir/etc-warden" "$@"
}

# Runs the instrumented binary $1 as a hook and in a batch, with the starter
# config, in a training home. The hook calls matter: code that runs once a
# process (start-up, loading the policy) would otherwise look cold and be
# optimised for size.
# With %m in its name, each process merges into the one profile file.
train() {
    home=$(mktemp -d)
    training_home "$home"
    rm -rf "$profiles"
    mkdir -p "$profiles"
    set -- "$1" env LLVM_PROFILE_FILE="$profiles/warden-%m.profraw"
    bin=$1
    shift
    training_payloads 2>/dev/null | head -n 200 | while IFS= read -r payload; do
        printf '%s\n' "$payload" | in_home "$home" "$@" "$bin" --agent native >/dev/null 2>&1 || true
    done
    training_payloads | in_home "$home" "$@" "$bin" check --batch --agent native >/dev/null 2>&1 || true
    rm -rf "$home"
}

# The LLVM major version rustc is built on (its profiles' format follows it).
rustc_llvm() {
    rustc -vV 2>/dev/null | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p'
}

# Prints the path of an llvm-profdata that reads this rustc's profiles:
# rustup's llvm-tools (made with this rustc), else a system one of the same
# LLVM major version. Decided before building: without one, the profiled
# build would be thrown away.
find_profdata() {
    llvm=$(rustc_llvm)
    [ -n "$llvm" ] || return 1
    for tool in "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/$host/bin/llvm-profdata" \
        "llvm-profdata-$llvm" "/usr/lib/llvm-$llvm/bin/llvm-profdata" llvm-profdata; do
        path=$(command -v "$tool" 2>/dev/null) || continue
        major=$("$path" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -n 1)
        if [ "$major" = "$llvm" ]; then
            echo "$path"
            return 0
        fi
    done
    return 1
}

# Post-link layout: BOLT, from LLVM (Debian's bolt-NN), counts which
# branches and calls the profiled binary takes while judging the training
# payloads and lays the hot code out together, the cold parts of each
# function elsewhere. The code itself is the compiler's: the laid-out binary
# must print byte for byte the same verdicts for every training payload, or
# the unmodified one is kept. README "Performance" has the numbers.
find_bolt() {
    llvm=$(rustc -vV 2>/dev/null | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
    n=${llvm:-0}
    set --
    while [ "$n" -ge 16 ]; do
        set -- "$@" "/usr/lib/llvm-$n/bin/llvm-bolt" "llvm-bolt-$n"
        n=$((n - 1))
    done
    for tool in "$@" llvm-bolt; do
        # Resolved, because BOLT finds its instrumentation runtime beside
        # its real path (Debian's /usr/bin/llvm-bolt-NN is a link).
        if path=$(command -v "$tool" 2>/dev/null) && path=$(readlink -f "$path"); then
            echo "$path"
            return 0
        fi
    done
    return 1
}

# Judges every training payload with $1 in a batch, in a fresh home at $2
# (the same for every binary compared: messages name the config's path);
# the verdict lines go to stdout.
judge_training() {
    training_home "$2"
    training_payloads | in_home "$2" "$1" check --batch --agent native 2>/dev/null || true
}

# Runs the instrumented binary $1 on the corpus, over and over, for six
# seconds, and copies its profile to $2. A static binary's counters are
# written by a timer (every second), not at exit, and the file is rewritten
# in place each time: the copy is taken between two writes, once two reads a
# tenth of a second apart agree and end in a whole line.
bolt_train() {
    home=$(mktemp -d)
    training_home "$home"
    fdata=$1.fdata
    {
        while :; do corpus_payloads || break; done 2>/dev/null |
            in_home "$home" timeout 6 "$1" check --batch --agent native >/dev/null 2>&1 || true
    } &
    trainer=$!
    sleep 3
    tries=0
    while [ "$tries" -lt 20 ]; do
        tries=$((tries + 1))
        if cp "$fdata" "$2.a" 2>/dev/null && sleep 0.1 && cp "$fdata" "$2.b" 2>/dev/null &&
            [ -s "$2.a" ] && cmp -s "$2.a" "$2.b" &&
            [ "$(tail -c 1 "$2.a" | od -An -tx1 | tr -d ' \n')" = 0a ]; then
            mv "$2.a" "$2"
            break
        fi
        sleep 0.1
    done
    wait "$trainer" || true
    rm -rf "$home" "$2.a" "$2.b"
    [ -s "$2" ]
}

# Lays out $built with the BOLT at $1, then strips it; sets $built to the
# result. Any step that fails leaves the compiler's binary, stripped.
lay_out() {
    bolt_out=$absolute_target/bolt
    rm -rf "$bolt_out"
    mkdir -p "$bolt_out"
    echo "==> Laying out the hot code with $1 (--no-bolt skips this)"
    if "$1" "$built" -o "$bolt_out/instrumented" -instrument -instrumentation-sleep-time=1 \
        -instrumentation-file="$bolt_out/instrumented.fdata" >"$bolt_out/log" 2>&1 &&
        bolt_train "$bolt_out/instrumented" "$bolt_out/warden.fdata" &&
        "$1" "$built" -o "$bolt_out/warden" -data="$bolt_out/warden.fdata" \
            -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions \
            -split-all-cold -split-eh -icf=1 -use-gnu-stack >>"$bolt_out/log" 2>&1 &&
        strip "$bolt_out/warden" 2>>"$bolt_out/log" &&
        judge_training "$built" "$bolt_out/home" >"$bolt_out/expected" &&
        judge_training "$bolt_out/warden" "$bolt_out/home" >"$bolt_out/actual" &&
        [ -s "$bolt_out/expected" ] && cmp -s "$bolt_out/expected" "$bolt_out/actual"; then
        built=$bolt_out/warden
    else
        echo "    the layout step failed or changed a verdict ($bolt_out/log): keeping the compiler's layout"
        cp "$built" "$bolt_out/warden"
        strip "$bolt_out/warden" 2>/dev/null || true
        built=$bolt_out/warden
    fi
    rm -rf "${bolt_out:?}/instrumented" "${bolt_out:?}/instrumented.fdata" "${bolt_out:?}/home"
}

# Only the static build passes --target, which keeps the profiling flags
# away from build scripts and proc macros.
case $link:$host in
    static:*-linux-gnu) ;;
    *) pgo=no ;;
esac
# A plain release build from a cold target directory on 2 cores takes some
# 290 s of CPU time, most of it warden's own crate (one codegen unit, LTO),
# which runs on one core; the profiled build is two such builds and a
# training run.
plain_minutes=5
profiled_minutes=$((plain_minutes * 2 + 1))
if [ -z "$binary" ] && [ "$pgo" = yes ] && ! tool=$(find_profdata); then
    echo "==> No llvm-profdata for LLVM $(rustc_llvm) here (rustup component add llvm-tools): building once, without profile-guided optimisation"
    pgo=no
fi
if [ -n "$binary" ]; then
    echo "==> Installing $binary (--binary): nothing is built"
    built=$binary
elif [ "$pgo" = yes ]; then
    echo "==> Building warden with profile-guided optimisation ($tool): about $profiled_minutes minutes on 2 cores, less with more (--no-pgo: about $plain_minutes)"
    echo "==> Building warden instrumented for profiling ($(describe_build))"
    build "-C profile-generate=$profiles" "$target_dir/pgo"
    train "$built"
    "$tool" merge -o "$profdata" "$profiles"/*.profraw >/dev/null 2>&1 ||
        die "$tool could not merge the profiles in $profiles; run this again with --no-pgo"
    echo "==> Building warden with the profile ($(describe_build))"
    if [ "$bolt" = yes ] && bolt_tool=$(find_bolt); then
        # BOLT rewrites the linked binary, so it needs the relocations
        # and symbols; the binary is stripped once BOLT is done.
        build "-C profile-use=$profdata -C strip=none -C link-arg=-Wl,--emit-relocs" "$target_dir"
        lay_out "$bolt_tool"
    else
        [ "$bolt" = no ] || echo "    (no llvm-bolt here: the code keeps the compiler's layout)"
        build "-C profile-use=$profdata" "$target_dir"
    fi
else
    echo "==> Building warden ($(describe_build)): about $plain_minutes minutes on 2 cores, less with more"
    build "" "$target_dir"
fi
[ -x "$built" ] || die "the build finished but $built is missing (is the cargo target directory elsewhere?)"

# Runs one Hermes-style payload through $1 and checks the native verdict.
# Prints the verdict line; fails the install if the action is not $3.
check() {
    bin=$1
    command=$2
    want=$3
    payload=$(printf '{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"%s"},"session_id":"install-check","cwd":"/tmp"}' "$command")
    err=$(mktemp)
    status=0
    out=$(printf '%s\n' "$payload" | "$bin" --agent native 2>"$err") || status=$?
    case $out in
        *"\"action\":\"$want\""*) ok=yes ;;
        *) ok=no ;;
    esac
    if [ "$status" -ne 0 ] || [ "$ok" != yes ]; then
        {
            echo "install.sh: FAILED: $bin did not $want \`$command\`"
            echo "  exit status: $status"
            echo "  stdout: ${out:-<empty>}"
            echo "  stderr: $(cat "$err")"
        } >&2
        rm -f "$err"
        return 1
    fi
    rm -f "$err"
    printf '    %-8s %s\n' "$want" "$command"
}

verify() {
    check "$1" "rm -rf /" block && check "$1" "git status" allow
}

# Check the fresh build first, so a broken build never replaces a working install.
echo "==> Checking the new build"
verify "$built" || die "the new build does not decide correctly; nothing was installed"
if [ "$build_only" = yes ]; then
    echo "$built"
    exit 0
fi

mkdir -p "$to"
to=$(cd "$to" && pwd)
target="$to/warden"
echo "==> Installing $target"
# Copy then rename: an agent starting warden mid-install sees the old binary or the new one, never half of one.
tmp="$to/.warden.install.$$"
cp "$built" "$tmp"
chmod 755 "$tmp"
mv -f "$tmp" "$target"

echo "==> Checking the installed binary"
verify "$target" || die "$target does not decide correctly (a noexec mount or a stale file?); remove it or fix the problem and run this again"
echo "    $("$target" --version)"

case ":${PATH:-}:" in
    *":$to:"*) ;;
    *) echo "warning: $to is not on your PATH: the hooks name the full path and work, but typing 'warden' in a shell will not" >&2 ;;
esac

config_dir="${XDG_CONFIG_HOME:-$HOME/.config}/warden"
config="$config_dir/config.yaml"
if [ "$write_config" = no ]; then
    config_note="No config file was written (--no-config)."
elif [ -e "$config" ]; then
    config_note="Your config $config was left as it is."
else
    echo "==> Writing the default config $config"
    mkdir -p "$config_dir"
    cp "$here/examples/config.yaml" "$config.tmp.$$"
    mv -f "$config.tmp.$$" "$config"
    config_note="The default config is $config: read its comments, then edit it."
fi
if [ "$write_config" = yes ]; then
    # The config names its schema on its first line, for editors that complete it.
    mkdir -p "$config_dir"
    cp "$here/examples/config.schema.json" "$config_dir/config.schema.json.tmp.$$"
    mv -f "$config_dir/config.schema.json.tmp.$$" "$config_dir/config.schema.json"
fi
if [ "$write_config" = yes ]; then
    echo "==> Checking the config with warden lint"
    "$target" lint || die "warden lint found problems in the config (above); fix them, or remove $config and run this again"
fi

if [ "$register" = no ]; then
    cat <<EOF

warden is installed. $config_note
No agent was registered (--no-register): run \`$target install\` when you want it.
EOF
    exit 0
fi

echo "==> Registering warden with the agents found here ($target install)"
registered=yes
# shellcheck disable=SC2086 # empty or one word
if ! "$target" install $accept_hooks; then
    registered=no
fi

# Runs `warden doctor`, printing its report; keeps it in $doctor_out.
run_doctor() {
    echo "==> Checking the setup ($target doctor)"
    doctor_out=$("$target" doctor 2>&1) || true
    printf '%s\n' "$doctor_out"
}
run_doctor

# The agents doctor checked (those found here), one a line.
found_agents() {
    printf '%s\n' "$doctor_out" | awk '$2 == "hermes" || $2 == "claude" || $2 == "codex" || $2 == "gemini" || $2 == "copilot" || $2 == "opencode" { print $2 }' | sort -u
}

# The first FAIL line doctor printed for $1 (an agent, or warden), without its labels.
first_failure() {
    printf '%s\n' "$doctor_out" | awk -v who="$1" '$1 == "FAIL" && $2 == who { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }'
}

consent_command="$target install --agent hermes --accept-hooks"
hermes_waits() {
    printf '%s\n' "$doctor_out" | grep -q '^FAIL hermes  *no consent recorded'
}
# Hermes runs a new hook command only once the person has said yes to it:
# at its next start in a terminal, or here and now.
if hermes_waits && [ -t 0 ]; then
    echo
    echo "Hermes runs warden's hook only once you consent to it. Until then, wherever no one"
    echo "can answer Hermes' question (scripts, cron, a gateway), it runs without warden."
    printf 'Record your consent now (%s)? [y/N] ' "$consent_command"
    answer=
    read -r answer || true
    case $answer in
        [yY] | [yY][eE][sS])
            "$target" install --agent hermes --accept-hooks || true
            run_doctor
            ;;
    esac
fi

echo
echo "warden is installed: $target ($("$target" --version)). $config_note"
agents=$(found_agents)
unguarded=""
if [ -z "$agents" ]; then
    echo "No agent was found here (no hermes, claude, codex, gemini, copilot or opencode on PATH, and none of $HOME/.hermes,"
    echo "$HOME/.claude, $HOME/.codex, $HOME/.gemini, ${COPILOT_HOME:-$HOME/.copilot}, ${XDG_CONFIG_HOME:-$HOME/.config}/opencode): nothing is guarded yet."
    echo "Once you install one, run: $target install"
else
    echo "Guarded now:"
    for agent in $agents; do
        why=$(first_failure "$agent")
        if [ -z "$why" ]; then
            printf '  %-8s yes\n' "$agent"
            if [ "$agent" = gemini ]; then
                echo "          (in the folders Gemini CLI trusts: it runs no hook elsewhere; see \`$target doctor\`)"
            fi
        else
            printf '  %-8s NO: %s\n' "$agent" "$why"
            unguarded="$unguarded $agent"
        fi
    done
fi
why=$(first_failure warden)
if [ -n "$why" ]; then
    echo "  warden's own check failed, and every agent depends on it: $why"
    unguarded="$unguarded warden"
fi
if [ "$registered" = no ] && [ -z "$unguarded" ]; then
    echo "  (registration reported a problem above)"
fi
if hermes_waits; then
    echo
    echo "One step left: Hermes runs warden's hook once you consent. Answer yes at Hermes' next"
    echo "start in a terminal, or record it now (the same record):"
    echo "  $consent_command"
elif [ -n "$unguarded" ]; then
    echo
    echo "Left to do: the FAIL lines above, each with its fix; then run \`$target doctor\` again."
fi
cat <<EOF

To undo:
  $target uninstall            takes warden's hooks out of every agent
  $target uninstall --purge    also removes its config, cache, ledger, audit log and backups
  rm $target
EOF
if [ -n "$unguarded" ]; then
    echo "install.sh: not guarded yet:$unguarded (exit 2)" >&2
    exit 2
fi
