#!/usr/bin/env bash
# bench/startup.sh: times warden's whole run (start, read payload, decide, print) against a do-nothing binary.
#
# Agents start warden once per tool call, so process start-up is most of
# its cost; the noop example (examples/noop.rs) is the floor no Rust binary
# can beat on this machine. Results: target/bench/*.json (hyperfine's format).
#
# Usage: bench/startup.sh [--baseline PATH] [--rounds N]
#   --baseline PATH  also time another warden binary (say, one built from the
#                    commit before a change) on every case, in the same run
#   --rounds N       split each case's 300 runs into N rounds (default 5); the
#                    cases and binaries take turns round by round, so a slow
#                    spell of the machine falls on all of them alike
set -euo pipefail

baseline=""
rounds=5
while [ $# -gt 0 ]; do
    case $1 in
        --baseline) baseline=${2:?--baseline needs a path}; shift 2 ;;
        --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
        -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
        *) printf 'bench/startup.sh: unknown argument %s\n' "$1" >&2; exit 2 ;;
    esac
done
if [ -n "$baseline" ]; then
    baseline=$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")
    [ -x "$baseline" ] || { printf 'bench/startup.sh: %s is not an executable\n' "$baseline" >&2; exit 2; }
fi
case $rounds in '' | *[!0-9]* | 0) printf 'bench/startup.sh: --rounds needs a positive number\n' >&2; exit 2 ;; esac

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

command -v python3 >/dev/null 2>&1 || die "python3 is needed to write the payloads and read hyperfine's JSON"

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

# User policy: a home with no policy files (what every case above runs
# in, so a developer's own config cannot skew them), and homes whose
# custom-patterns file holds 1,000 and 10,000 patterns (a third each of
# ask, deny and allow, each with its own literal). The first call compiles
# the cache; hyperfine's warm-up and runs then measure the cached path.
python3 - "$out" <<'PY'
import os, sys
out = sys.argv[1]
for name, n in [("empty", 0), ("p1k", 1000), ("p10k", 10000)]:
    hermes = f"{out}/homes/{name}/home/.hermes"
    os.makedirs(hermes, exist_ok=True)
    path = f"{hermes}/custom-dangerous-patterns.yaml"
    if n == 0:
        if os.path.exists(path):
            os.remove(path)
        continue
    lines = ["# generated by bench/startup.sh"]
    for section, rest in [("patterns", 0), ("deny_patterns", 1), ("allow_patterns", 2)]:
        lines.append(f"{section}:")
        for i in range(rest, n, 3):
            lines.append(f"  - pattern: '\\bdeploytool{i}\\s+--(force|prod)\\b'")
            lines.append(f"    description: generated rule {i}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
PY
in_home() {
    local name=$1
    shift
    HOME="$out/homes/$name/home" XDG_CONFIG_HOME="$out/homes/$name/home/.config" \
        XDG_CACHE_HOME="$out/homes/$name/cache" XDG_STATE_HOME="$out/homes/$name/state" \
        HERMES_HOME="$out/homes/$name/home/.hermes" "$@"
}
for name in p1k p10k; do
    rm -rf "$out/homes/$name/cache" "$out/homes/$name/state"
    in_home "$name" "$warden" <"$out/allowed.json" >/dev/null
done
# Fingerprints of files changed in the last two seconds are not trusted
# (see src/config/fingerprint.rs); let the generated files settle.
sleep 2

echo "==> Verdicts (native dialect)"
for name in allowed hardline compound megabyte nested; do
    verdict=$(in_home empty "$warden" --agent native <"$out/$name.json")
    printf '    %-9s %s bytes of payload -> %.110s\n' "$name" "$(wc -c <"$out/$name.json")" "$verdict"
    if [ "$name" = hardline ] && [[ $verdict != *'"action":"block"'* ]]; then
        echo "    note: this build does not block \`rm -rf /\`, so the hardline timing is not that of a block"
    fi
done

runs=$(( (300 + rounds - 1) / rounds ))
# One round: every case once, each with the baseline right after warden.
run() {
    local round=$1 home=$2 name=$3 input=$4 binary=$5
    local commands=(--command-name "$name" "$binary")
    if [ -n "$baseline" ] && [ "$name" != noop ]; then
        commands+=(--command-name "$name@baseline" "$baseline")
    fi
    in_home "$home" "$hyperfine" -N --warmup 10 --runs "$runs" --style none --input "$input" \
        --export-json "$out/$name.round$round.json" "${commands[@]}" \
        >/dev/null 2>"$out/$name.log" || { cat "$out/$name.log" >&2; die "hyperfine failed on $name"; }
}
names=(noop allowed hardline compound megabyte nested policy-1k policy-10k)
for round in $(seq "$rounds"); do
    echo "==> Round $round of $rounds ($runs runs of each case${baseline:+, and of the baseline})"
    run "$round" empty noop "$out/allowed.json" "$noop"
    run "$round" empty allowed "$out/allowed.json" "$warden"
    run "$round" empty hardline "$out/hardline.json" "$warden"
    run "$round" empty compound "$out/compound.json" "$warden"
    run "$round" empty megabyte "$out/megabyte.json" "$warden"
    run "$round" empty nested "$out/nested.json" "$warden"
    run "$round" p1k policy-1k "$out/allowed.json" "$warden"
    run "$round" p10k policy-10k "$out/allowed.json" "$warden"
done

echo
echo "==> Medians over all rounds"
python3 - "$out" "$rounds" "${names[@]}" <<'PY'
import json, statistics, sys
out, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
times = {}
for name in names:
    for r in range(1, rounds + 1):
        for result in json.load(open(f"{out}/{name}.round{r}.json"))["results"]:
            times.setdefault(result["command"], []).extend(result["times"])
median = {command: statistics.median(t) for command, t in times.items()}
json.dump({"median_seconds": median, "runs": {c: len(t) for c, t in times.items()}},
          open(f"{out}/medians.json", "w"), indent=1)
floor = median["noop"]
has_baseline = any(c.endswith("@baseline") for c in median)
header = f"    {'case':<11} {'median':>10} {'x noop':>7}"
if has_baseline:
    header += f" {'baseline':>10} {'x noop':>7} {'new/old':>8}"
print(header)
for name in names:
    m = median[name]
    line = f"    {name:<11} {m * 1000:7.3f} ms {m / floor:7.2f}"
    base = median.get(f"{name}@baseline")
    if base:
        line += f" {base * 1000:7.3f} ms {base / floor:7.2f} {m / base:8.3f}"
    print(line)
PY
