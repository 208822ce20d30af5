#!/usr/bin/env bash
# Installs the tools that building the web app needs, idempotently and without any
# network beyond the package registries: the wasm32 target, Trunk, wasm-bindgen-cli at
# exactly the version of the wasm-bindgen crate in Cargo.lock, and wasm-opt (binaryen
# from npm: Debian's binaryen 108 emits broken wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

TRUNK_VERSION=0.22.1

log() { printf '\033[1;34m[install-tools]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The test command checks formatting and lints; a minimal rustup profile lacks both.
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    log "adding the $component component"
    rustup component add "$component"
  fi
done

# Both tools compile from source: no registry this machine reaches has them prebuilt.
# The two builds run side by side, each into its own log: a build's last crates and
# its link use one core, and the other build fills the second.
pids=(); logs=()
build_tool() { # name, what to say, the command that builds and installs it
  local name=$1 say=$2; shift 2
  local out; out=$(mktemp -t "difflens-install-$name.XXXXXX.log")
  log "installing $say (once; its output: $out)"
  "$@" >"$out" 2>&1 &
  pids+=($!); logs+=("$out")
}

# The CLI must equal the crate version or the generated JS glue will not match the wasm.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ]; then
  # Without --locked: with it the CLI's own lock file pins crates that no longer build.
  build_tool wasm-bindgen "wasm-bindgen-cli $WB_VERSION" cargo install wasm-bindgen-cli --version "=$WB_VERSION" --force
fi

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  # Trunk 0.22 declares rustc >= 1.96.1 but builds with 1.95; the update check is the
  # only default feature that would reach beyond the registries, so it is left out.
  # A debug build without debug info: the tool only runs cargo, wasm-bindgen and
  # wasm-opt and copies files, so its own speed hardly matters, its build time does.
  build_tool trunk "trunk $TRUNK_VERSION" env CARGO_PROFILE_DEV_DEBUG=0 cargo install trunk --version "=$TRUNK_VERSION" --locked --debug --ignore-rust-version \
    --no-default-features --features rustls
fi

# npm fetches while the two builds compile.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/playwright-core ] || [ ! -f node_modules/axe-core/axe.min.js ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages (binaryen's wasm-opt, playwright-core, axe-core)"
  npm ci --no-audit --no-fund
fi

failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    tail -n 40 "${logs[$i]}" >&2
    log "failed: ${logs[$i]}"
    failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1

log "tools ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version)"
