// @ts-check
// Service worker template: scripts/build.py fills in CACHE_NAME (a content hash of
// every precached file) and PRECACHE (exactly the files of dist/, plus "./").
// A new version installs in the background and then waits: the page says so and the
// player chooses when to switch (web/js/updates.js posts "skipWaiting"); otherwise it takes over
// at the next cold start, once no tab runs the old version.

/** @typedef {Event & {waitUntil(promise: Promise<unknown>): void}} ExtendableEvent */
/** @typedef {ExtendableEvent & {request: Request, respondWith(response: Promise<Response>): void}} FetchEvent */
/** @typedef {ExtendableEvent & {data: unknown}} ExtendableMessageEvent */
/**
 * The service worker's global scope, as far as this file uses it (the project's type
 * checking has the window's types, not the worker's).
 * @typedef {object} ServiceWorkerScope
 * @property {() => Promise<void>} skipWaiting
 * @property {{claim(): Promise<void>}} clients
 * @property {Location} location
 * @property {{(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
 *   (type: "fetch", listener: (event: FetchEvent) => void): void;
 *   (type: "message", listener: (event: ExtendableMessageEvent) => void): void}} addEventListener
 */
const sw = /** @type {ServiceWorkerScope} */ (/** @type {unknown} */ (self));

const CACHE_NAME = "@CACHE_NAME@";
const PRECACHE = ["@PRECACHE@"];

sw.addEventListener("install", (event) => {
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

sw.addEventListener("message", (event) => {
  const data = /** @type {{type?: string} | null} */ (event.data);
  if (data && data.type === "skipWaiting") sw.skipWaiting();
});

sw.addEventListener("activate", (event) => {
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
      .then(() => sw.clients.claim()),
  );
});

// Cache-first for same-origin GETs; anything not precached goes to the network.
sw.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== sw.location.origin) {
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
