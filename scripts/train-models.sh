#!/usr/bin/env bash
# Trains the three shipped models (fixed seeds), then evaluates them and updates the
# model cards, www/models/eval.json and the README's results table.
# About 15 minutes on 2 cores; the result is committed, so nobody needs to rerun it.
# Each model: a copy warm-up of WARMUP steps, then STEPS retrieval steps (batch 32).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
WARMUP=${WARMUP:-2500}
STEPS=${STEPS:-700}
cargo build --release --locked -p difflens-trainer
for kind in baseline diff_v1 diff_v2; do
  ./target/release/difflens-trainer train --kind "$kind" --warmup "$WARMUP" --steps "$STEPS" --seed 1 --out www/models
done
./target/release/difflens-trainer eval --models www/models --readme docs/models.md
