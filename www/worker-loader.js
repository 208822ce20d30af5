// Starts a compute worker (a module worker): the page's own JS glue and wasm, named in
// this script's link by the page (`?js=…&wasm=…`, the files it loaded itself, so the
// browser's cache serves them). The wasm sees no window and runs src/ui/worker.rs. A
// failed download or a broken module rejects a promise inside the worker, which the page
// would never hear of: say it in a message the pool understands, so the page runs the
// work itself instead. The same for a trap while a job runs (memory exhausted aborts the
// instance without a panic): it surfaces here as a rejected promise.
const reason = (e) => (e && e.message) || String(e);
self.addEventListener('unhandledrejection', (e) => {
  postMessage("panic=the worker's WebAssembly stopped (" + reason(e.reason) + ')');
});
const asked = new URL(self.location.href).searchParams;
try {
  const glue = await import(asked.get('js'));
  await glue.default({ module_or_path: asked.get('wasm') });
} catch (e) {
  postMessage('panic=the worker could not load its WebAssembly: ' + reason(e));
}
