# Sourced by the other scripts: the PATH order that makes Trunk pick our tools.
# ~/.cargo/bin first (trunk, wasm-bindgen), then the project's npm binaries (wasm-opt).
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$_root/node_modules/.bin:$PATH"
# Trunk must never try to download its tools: there is no network beyond the registries.
export TRUNK_OFFLINE=true
unset _root
# Mesa's Vulkan loader complains on every adapter request without a runtime dir.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  export XDG_RUNTIME_DIR=/tmp/difflens-xdg-runtime
  mkdir -p -m 700 "$XDG_RUNTIME_DIR"
fi
