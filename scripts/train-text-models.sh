#!/usr/bin/env bash
# Trains the three shipped text models (seed 1: same data order and schedule for the
# three), then the same three with seeds 2 and 3 (only their trained checkpoints, under
# trainer/text-seeds/, which the page never downloads), then evaluates them all and
# writes the cards and eval.json under www/text-models/. About 1.5 h a seed on 2 cores;
# the results are committed, so nobody needs to rerun it. ONLY=seeds skips seed 1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
STEPS=${STEPS:-900}
SEEDS=${SEEDS:-"2 3"}
./scripts/fetch-corpus.sh
cargo build --release --locked -p difflens-trainer
./target/release/difflens-trainer text-corpus --out www/text-models
train() { # kind seed out [--final-only]
  ./target/release/difflens-trainer text-train --kind "$1" --steps "$STEPS" --batch 32 --lr 2e-3 --seed "$2" --out "$3" ${4:-}
}
if [[ "${ONLY:-}" != seeds ]]; then
  for kind in baseline diff_v1 diff_v2; do train "$kind" 1 www/text-models; done
fi
for seed in $SEEDS; do
  out=trainer/text-seeds/seed-$seed
  mkdir -p "$out"
  cp www/text-models/vocab.json "$out/"
  for kind in baseline diff_v1 diff_v2; do
    [[ -f "$out/$kind/card.json" ]] || train "$kind" "$seed" "$out" --final-only
  done
done
./target/release/difflens-trainer text-eval --models www/text-models
