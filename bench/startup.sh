#!/usr/bin/env bash
# bench/startup.sh: times warden's whole run (start, read payload, decide, print) against a do-nothing binary.
#
# Agents start warden once per tool call, so process start-up is most of
# its cost; the noop example (examples/noop.rs) is the floor no Rust binary
# can beat on this machine. Results: target/bench/*.json (hyperfine's format).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out="$root/target/bench"
tools="$root/target/bench-tools"
# The newest hyperfine that builds with the toolchain this project pins (1.82+).
hyperfine_version=1.20.0

die() {
    printf 'bench/startup.sh: %s\n' "$*" >&2
    exit 1
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo -n "$@"
    else
        return 1
    fi
}

# `--input FILE` (hyperfine 1.16+) feeds stdin without a shell in between,
# so -N measures warden alone; older versions cannot do that.
has_input() { "$1" --help 2>/dev/null | grep -q -- '--input'; }

find_hyperfine() {
    local h
    for h in "${HYPERFINE:-}" "$(command -v hyperfine || true)" "$tools/bin/hyperfine"; do
        if [ -n "$h" ] && [ -x "$h" ] && has_input "$h"; then
            echo "$h"
            return 0
        fi
    done
    return 1
}

if ! command -v hyperfine >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    echo "==> hyperfine is missing: apt-get install -y hyperfine"
    as_root apt-get install -y hyperfine >/dev/null 2>&1 ||
        { as_root apt-get update -qq >/dev/null 2>&1 && as_root apt-get install -y hyperfine >/dev/null 2>&1; } ||
        echo "    apt-get could not install it"
fi
if ! hyperfine=$(find_hyperfine); then
    echo "==> no hyperfine with --input (needs 1.16+); building hyperfine $hyperfine_version into $tools"
    cargo install --quiet --locked --root "$tools" --version "$hyperfine_version" hyperfine ||
        die "could not get hyperfine 1.16 or newer: install it (apt-get install hyperfine on Debian 13+, or cargo install hyperfine) or set HYPERFINE=/path/to/hyperfine"
    hyperfine=$(find_hyperfine) || die "$tools/bin/hyperfine was built but does not accept --input"
fi
echo "==> Using $hyperfine ($("$hyperfine" --version))"

if command -v python3 >/dev/null 2>&1; then
    json_tool=python3
elif command -v jq >/dev/null 2>&1; then
    json_tool=jq
else
    die "python3 or jq is needed to read hyperfine's JSON"
fi

echo "==> Building release warden and the noop example"
cargo build --release --locked --quiet --bin warden --example noop
target="${CARGO_TARGET_DIR:-$root/target}/release"
warden="$target/warden"
noop="$target/examples/noop"

mkdir -p "$out"
# Commands are written without double quotes or backslashes so they can go
# into the JSON payload as they are.
payload() {
    printf '{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"%s"},"session_id":"bench","cwd":"/tmp"}\n' "$2" >"$out/$1.json"
}
segment="cd /tmp/project && git fetch origin && git status --short | grep -v '^??' | awk '{print \$2}' | xargs -r wc -l && for f in src/*.rs tests/*.rs; do grep -n TODO \$f || true; done && cargo build --release 2>&1 | tail -n 20 && ls -la target/release | head -n 5"
compound=$segment
for _ in $(seq 9); do compound="$compound; $segment"; done
payload allowed "git status"
payload hardline "rm -rf /"
payload compound "$compound"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to write the large payloads"
# The analysis limits' worst cases: a 1 MiB command line, and 10,000
# unclosed `$(` (blocked at the nesting limit; it must stay cheap).
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for name, command in [("megabyte", "echo " + "a" * ((1 << 20) - 9) + "; ls"), ("nested", "$(" * 10000)]:
    payload = {"hook_event_name": "pre_tool_call", "tool_name": "terminal",
               "tool_input": {"command": command}, "session_id": "bench", "cwd": "/tmp"}
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(payload, f)
PY

echo "==> Verdicts (native dialect)"
for name in allowed hardline compound megabyte nested; do
    verdict=$("$warden" --agent native <"$out/$name.json")
    printf '    %-9s %s bytes of payload -> %.110s\n' "$name" "$(wc -c <"$out/$name.json")" "$verdict"
    if [ "$name" = hardline ] && [[ $verdict != *'"action":"block"'* ]]; then
        echo "    note: this build does not block \`rm -rf /\`, so the hardline timing is not that of a block"
    fi
done

run() {
    local name=$1 input=$2
    shift 2
    echo "==> $name"
    "$hyperfine" -N --warmup 50 --min-runs 300 --input "$input" \
        --export-json "$out/$name.result.json" --command-name "$name" "$*"
}
run noop "$out/allowed.json" "$noop"
run allowed "$out/allowed.json" "$warden"
run hardline "$out/hardline.json" "$warden"
run compound "$out/compound.json" "$warden"
run megabyte "$out/megabyte.json" "$warden"
run nested "$out/nested.json" "$warden"

echo
echo "==> Medians"
names=(noop allowed hardline compound megabyte nested)
if [ "$json_tool" = python3 ]; then
    python3 - "$out" "${names[@]}" <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
medians = {n: json.load(open(f"{out}/{n}.result.json"))["results"][0]["median"] for n in names}
floor = medians["noop"]
for n in names:
    print(f"    {n:<9} {medians[n] * 1000:8.3f} ms   {medians[n] / floor:5.2f} x noop")
PY
else
    floor=$(jq '.results[0].median' "$out/noop.result.json")
    for n in "${names[@]}"; do
        jq -r --arg n "$n" --argjson floor "$floor" \
            '.results[0].median as $m | "    \($n)\t\($m * 1000 * 1000 | round / 1000) ms\t\($m / $floor * 100 | round / 100) x noop"' \
            "$out/$n.result.json"
    done
fi
