#!/usr/bin/env bash
# fuzz/smoke.sh [SECONDS]: seeds the corpora and runs every fuzz target for SECONDS (default 20).
# Needs a nightly toolchain and cargo-fuzz (installed from crates.io when missing); without
# nightly it says so and succeeds, since the main crate builds and tests on stable.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "no nightly toolchain: fuzz smoke skipped"
    exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz"
    cargo install cargo-fuzz --locked --quiet
fi
python3 seed.py
for target in $(cargo +nightly fuzz list); do
    echo "fuzz $target for ${seconds}s"
    # A crash fails the step and leaves its input in fuzz/artifacts/<target>/.
    log="target/smoke-$target.log"
    mkdir -p target
    status=0
    # Optimised, without a sanitizer: a smoke run looks for panics and broken properties, and
    # compiling the AddressSanitizer build is most of its time (an unoptimised build compiles
    # fastest but takes minutes to replay a target's seeds). Long runs keep the sanitizer:
    # `cargo +nightly fuzz run -O TARGET` (docs/testing.md, Fuzzing).
    cargo +nightly fuzz run -O -s none "$target" -- \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1 || status=$?
    grep -E '^(Done|stat::number_of_executed_units)|SUMMARY|panicked' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -40 "$log"
        exit "$status"
    fi
done
