#!/usr/bin/env bash
# The GPU benchmarks (issue 17) on whatever Vulkan adapter this machine has: a hardware
# GPU where there is one, else Mesa's lavapipe (installed by install-test-deps.sh).
# Prints Markdown tables headed by the adapter's name: the noise lab (N = 256 … 4096),
# a model forward (T = 128 … 2048), both row layouts, and the softmax and combine
# passes' memory bandwidth (as a fraction of the device's peak where it is known; set
# DIFFLENS_PEAK_GBPS for a GPU the table does not name).
#   ./scripts/bench-gpu.sh                      # everything
#   ./scripts/bench-gpu.sh --max-n 2048 --max-t 512 --runs 3   # quicker (software adapters)
#   ./scripts/bench-gpu.sh --tables model,passes                # some of the tables
# Nothing else depends on it; run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-tools.sh
./scripts/install-test-deps.sh
source scripts/env.sh
cargo run --release --locked --example bench_gpu -- "$@"
