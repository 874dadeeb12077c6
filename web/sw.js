// Service worker template: scripts/build.py fills in CACHE_NAME (a content hash of
// every precached file) and PRECACHE (exactly the files of dist/, plus "./").
// A new version installs in the background and then waits: the page says so and the
// player chooses when to switch (boot.js posts "skipWaiting"); otherwise it takes over
// at the next cold start, once no tab runs the old version.
const CACHE_NAME = "@CACHE_NAME@";
const PRECACHE = ["@PRECACHE@"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE_NAME)
      // Revalidate our unversioned files (a stale HTTP-cache copy would poison this
      // version's cache); the runtime/ folders are versioned and immutable.
      .then((cache) =>
        cache.addAll(
          PRECACHE.map(
            (url) => new Request(url, { cache: url.startsWith("./runtime/") ? "default" : "no-cache" }),
          ),
        ),
      ),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skipWaiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith("skyline-") && key !== CACHE_NAME)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// Cache-first for same-origin GETs; anything not precached goes to the network.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith(
    caches
      .open(CACHE_NAME)
      // Navigations (e.g. "./?seed=3") are answered with the cached page.
      .then((cache) => cache.match(request, { ignoreSearch: request.mode === "navigate" }))
      .then((cached) => cached || fetch(request)),
  );
});
