#!/bin/sh
# install.sh: builds warden, installs the binary, proves the installed copy blocks and allows,
# writes the starter config, registers the hook with every agent found (`warden install`), and
# ends with `warden doctor`.
set -eu

usage() {
    cat <<'EOF'
Usage: ./install.sh [--to DIR] [--no-config] [--no-register] [--accept-hooks]
                    [--dynamic] [--build-only]

Builds warden (cargo build --release --locked; on Linux with glibc, a static,
non-position-independent binary: it starts in about half the time), copies the binary to DIR
(default: ~/.local/bin), then runs two test payloads through the installed
binary: `rm -rf /` must be blocked and `git status` allowed. If you have no
~/.config/warden/config.yaml yet, it writes the commented example from
examples/config.yaml there and checks it with `warden lint`. Then it
registers the installed binary with every agent it finds (Hermes Agent,
Claude Code, Codex: `warden install`) and runs `warden doctor`. Any failure
before the registration stops the install with a message.

Options:
  --to DIR        install into DIR instead of ~/.local/bin
  --no-config     do not write a config file
  --no-register   do not touch any agent's configuration
  --accept-hooks  record your consent to Hermes running warden's hook
                  (otherwise Hermes asks you once, at its next start)
  --dynamic       build the usual dynamically linked, position-independent
                  binary (slower to start; its code's addresses are randomised)
  --build-only    build and check the binary, print its path, and stop
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
build_only=no
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
        --build-only)
            build_only=yes
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

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust from https://rustup.rs and run this again"

# A hook starts once per tool call, so start-up is most of its cost. Linked
# statically and at a fixed address, the binary needs no dynamic loader and no
# relocations: README "Performance" has the numbers and the trade-off. The
# flags need an explicit --target (they must not reach build scripts and proc
# macros), hence the target-named output directory.
host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
case $link:$host in
    static:*-linux-gnu)
        echo "==> Building warden (static, not position-independent: cargo build --release --locked --target $host)"
        RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=static" \
            cargo build --release --locked --target "$host"
        built="${CARGO_TARGET_DIR:-target}/$host/release/warden"
        ;;
    *)
        echo "==> Building warden (cargo build --release --locked)"
        cargo build --release --locked
        built="${CARGO_TARGET_DIR:-target}/release/warden"
        ;;
esac
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
# shellcheck disable=SC2086 # empty or one word
if ! "$target" install $accept_hooks; then
    echo "warning: registration did not finish (above); fix what it says and run \`$target install\` again" >&2
fi

echo "==> Checking the setup ($target doctor)"
if "$target" doctor; then
    doctor_note="warden doctor found nothing wrong."
else
    doctor_note="warden doctor found problems (above): each FAIL line says how to fix it."
fi

cat <<EOF

warden is installed. $config_note
$doctor_note

Try it by hand:
  echo '{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"rm -rf /"}}' | $target
EOF
