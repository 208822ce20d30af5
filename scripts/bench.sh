#!/usr/bin/env bash
# The benchmarks the README reports: native (release, one thread) and in headless
# Chromium (wasm). Each prints medians; run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-tools.sh
./scripts/install-test-deps.sh
source scripts/env.sh
cargo run --release --locked --example bench_attention
[ -f dist/index.html ] || trunk build --release --offline --public-url /difflens/
node tests/e2e/bench.mjs cpu
node tests/e2e/bench-compare.mjs cpu
node tests/e2e/bench-workers.mjs cpu 3
node tests/e2e/bench-compare.mjs gpu
node tests/e2e/bench-compare.mjs gpu gpu
node tests/e2e/bench-lesson.mjs cpu
node tests/e2e/bench-lesson.mjs gpu
