// Starts the compute worker (src/bin/difflens_worker.rs). A failed download or a broken
// module rejects a promise inside the worker, which the page would never hear of: say it
// in a message the pool understands, so the page runs the work itself instead. The same
// for a trap while a job runs (memory exhausted aborts the instance without a panic):
// it surfaces here as a rejected promise, not as an error the page sees.
importScripts('./difflens-worker.js');
var reason = function (e) { return (e && e.message) || String(e); };
self.addEventListener('unhandledrejection', function (e) {
  postMessage('panic=the worker\'s WebAssembly stopped (' + reason(e.reason) + ')');
});
wasm_bindgen('./difflens-worker_bg.wasm').catch(function (e) {
  postMessage('panic=the worker could not load its WebAssembly: ' + reason(e));
});
