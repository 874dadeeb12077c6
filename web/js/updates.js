// @ts-check
// The service worker (web/sw.js) and its updates. Registered only once the app is
// ready, so a first visit does not download everything twice (everything the service
// worker precaches is in the HTTP cache by then). A new deploy's service worker
// installs and waits; the bar "A new version is ready" lets the player switch now (the
// game is saved after every move, so it carries over) or keep playing this version
// until the next cold start.

import { win } from "./globals.js";
import { servedByWorker } from "./site.js";

/**
 * @param {ServiceWorker} worker the new version's, waiting
 * @param {Promise<void>} translated the bar's words are there
 */
function offerUpdate(worker, translated) {
  const bar = document.getElementById("update");
  if (!bar || !servedByWorker) return; // a first install is no update
  translated.then(() => bar.removeAttribute("hidden"));
  const reload = document.getElementById("update-reload");
  const later = document.getElementById("update-later");
  if (reload) {
    reload.onclick = () => {
      let reloading = false;
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        if (!reloading) location.reload();
        reloading = true;
      });
      worker.postMessage({ type: "skipWaiting" });
    };
  }
  if (later) later.onclick = () => bar.setAttribute("hidden", "");
}

/**
 * @param {ServiceWorkerRegistration} reg
 * @param {Promise<void>} translated
 */
function watchUpdates(reg, translated) {
  if (reg.waiting) offerUpdate(reg.waiting, translated);
  reg.addEventListener("updatefound", () => {
    const worker = reg.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offerUpdate(worker, translated);
    });
  });
  return reg;
}

/**
 * Register the service worker (on ready) and offer its updates.
 * @param {Promise<void>} translated the update bar's words are there
 */
export function registerServiceWorker(translated) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  win.skylineSW = navigator.serviceWorker
    .register("./sw.js", { scope: "./" })
    .then((reg) => watchUpdates(reg, translated))
    .catch((err) => {
      console.warn("service worker registration failed", err);
      return undefined;
    });
}
