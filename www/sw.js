// DiffLens's service worker: after the first visit the site opens without a network (a
// classroom's Wi-Fi fails), and a new deploy replaces the saved copy (no stale page).
// The build's post_build hook (scripts/offline-manifest.mjs) fills in VERSION, a digest
// of every file the build produced, and FILES, their paths; a new deploy therefore has
// a new worker, which saves the new files under a new name and deletes the old ones.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `difflens-${VERSION}`;
// Trunk puts a content hash in the names of the app's script, wasm and stylesheet: such a
// file never changes, so the saved copy is served first. Everything else (the page, the
// models) asks the network first, so an update shows at once.
const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;
// How long a request for the page or a model waits for a network that does not answer
// (a captive portal, a dead access point) before the saved copy is served.
const PATIENCE_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the browser's HTTP cache for files without a hash: it may hold an older deploy's.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: HASHED.test(f) ? 'default' : 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('difflens-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(HASHED.test(url.pathname) ? savedFirst(request) : networkFirst(request));
});

async function savedFirst(request) {
  const cache = await caches.open(CACHE);
  const saved = await cache.match(request);
  if (saved) return saved;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  // The page is saved as the site's root; a link's hash never reaches the worker.
  const saved = await cache.match(request, { ignoreSearch: true })
    || (request.mode === 'navigate' ? await cache.match(new URL('./', self.registration.scope).href) : undefined);
  const network = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(request, response.clone());
    return response;
  });
  if (!saved) return network;
  const patience = new Promise((resolve) => setTimeout(() => resolve(saved), PATIENCE_MS));
  return Promise.race([network.catch(() => saved), patience]);
}
