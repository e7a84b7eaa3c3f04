// The service worker (docs/web.md, "Installable and offline"): it keeps the app shell — the
// page's files, its catalogues, the WebAssembly engine, the rules' catalogue — so that a page
// visited once opens with no connection. Every request goes to the network first and the
// copy kept is refreshed from the answer, so an update of the page reaches the player at the
// next visit; the copy is used only when the network fails. The API other than the rules'
// catalogue is never kept here (the endgame tables are kept by pocket.js).
const SHELL = 'sowing-shell-1';

// The files to keep, as the server lists them (PAGE_FILES in crates/sowing-web/src/lib.rs).
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const list = await (await fetch('/offline-files.json', { cache: 'no-store' })).json();
    const cache = await caches.open(SHELL);
    // Revalidated against the browser's own cache: the files the page has just loaded come
    // back as 304s (their entity tags match), not a second download.
    await cache.addAll(list.map((path) => new Request(path, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('sowing-shell-') && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function kept(url) {
  return url.origin === location.origin && url.pathname !== '/offline-files.json'
    && (!url.pathname.startsWith('/api/') || url.pathname === '/api/rules');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !kept(url)) return;
  // The page's address with any hash or query opens the same shell.
  const key = request.mode === 'navigate' ? '/' : url.pathname;
  event.respondWith((async () => {
    const cache = await caches.open(SHELL);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(key, response.clone());
      return response;
    } catch (error) {
      const copy = await cache.match(key);
      if (copy) return copy;
      throw error;
    }
  })());
});
