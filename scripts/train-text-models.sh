#!/usr/bin/env bash
# Trains the three shipped text models (same seed, data order and schedule), then
# evaluates every checkpoint on the held-out plays and writes the cards and eval.json
# under www/text-models/. About an hour on 2 cores; the result is committed, so
# nobody needs to rerun it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
STEPS=${STEPS:-900}
./scripts/fetch-corpus.sh
cargo build --release --locked -p difflens-trainer
./target/release/difflens-trainer text-corpus --out www/text-models
for kind in baseline diff_v1 diff_v2; do
  ./target/release/difflens-trainer text-train --kind "$kind" --steps "$STEPS" --batch 32 --lr 2e-3 --seed 1 --out www/text-models
done
./target/release/difflens-trainer text-eval --models www/text-models
