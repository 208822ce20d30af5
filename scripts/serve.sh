#!/usr/bin/env bash
# Builds DiffLens and serves it at http://127.0.0.1:8080, installing whatever is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-tools.sh
source scripts/env.sh
cargo fetch --locked
echo "[serve] building (release; the first build takes a few minutes) and serving at http://127.0.0.1:8080"
exec trunk serve --release --offline "$@"
