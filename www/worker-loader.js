// Starts the compute worker (src/bin/difflens_worker.rs). A failed download or a broken
// module rejects a promise inside the worker, which the page would never hear of: say it
// in a message the pool understands, so the page runs the work itself instead.
importScripts('./difflens-worker.js');
wasm_bindgen('./difflens-worker_bg.wasm').catch(function (e) {
  postMessage('panic=the worker could not load its WebAssembly: ' + (e && e.message || e));
});
