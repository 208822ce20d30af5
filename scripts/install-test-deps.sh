#!/usr/bin/env bash
# Installs what the tests need beyond the build tools, idempotently: Debian's Chromium
# (the browser tests drive it through playwright-core; never `npx playwright install`),
# chromium-driver (wasm-bindgen-test), and Mesa's software Vulkan driver (lavapipe), on
# which the native GPU tests run wgpu.
set -euo pipefail
PACKAGES=(chromium chromium-driver mesa-vulkan-drivers)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[install-test-deps] installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
