// Boot helper, loaded before PyScript: translates the loading screen, shows real
// progress (bytes of the big runtime downloads, then PyScript's py:ready, then the
// app's ready flag), shows a failure message, and registers the service worker only
// once the app is ready (so the first visit does not download everything twice).
// Contract with main.py: set document.body.dataset.ready = "1" when the app is usable.
// Updates: a new deploy's service worker waits; the bar "A new version is ready" lets
// the player switch now (the game is saved after every move, so it carries over) or
// keep playing this version until the next cold start.

const root = document.documentElement;
const langs = (root.dataset.langs || "en").split(" ");
const lang =
  (navigator.languages || [navigator.language])
    .map((l) => l.toLowerCase().split("-")[0])
    .find((l) => langs.includes(l)) || "en";
root.lang = lang;

const i18n = fetch(`./i18n/${lang}.json`)
  .then((r) => (r.ok ? r.json() : {}))
  .catch(() => ({}))
  .then((strings) => {
    for (const el of document.querySelectorAll("#loading [data-i18n], #update [data-i18n]")) {
      el.textContent = strings[el.dataset.i18n] ?? "";
    }
  });

// --- progress ----------------------------------------------------------------
// Step weights on the bar: runtime download 0-70 %, Python start 70-90 %, game 90-100 %.
const totalBytes = Number(root.dataset.bootBytes) || 0;
// The two big fetch() downloads before Python can start (pyodide.asm.mjs is an import,
// the wheel comes after start-up); the build writes their total size into the page.
const TRACKED = /(pyodide\.asm\.wasm|stdlib[-.\w]*\.zip)(\?|$)/;
let loadedBytes = 0;
let step = "runtime";

const bar = () => document.getElementById("loading-progress");
function setProgress(percent) {
  const el = bar();
  if (el) el.value = Math.max(el.value, Math.min(100, percent));
}
function setStep(name) {
  step = name;
  let passed = true;
  for (const li of document.querySelectorAll("#loading [data-step]")) {
    const current = li.dataset.step === name;
    if (current) passed = false;
    li.classList.toggle("done", passed && !current);
    li.classList.toggle("active", current);
  }
}

// Count the bytes of the large runtime downloads as they stream in, by reading a
// clone: the original Response goes to Pyodide untouched (keeps streaming compilation
// and Chromium's wasm code cache). The wrapper is removed once the app is ready, so
// the game code sees the native fetch.
const nativeFetch = window.fetch;
async function countBytes(response) {
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loadedBytes += value.byteLength;
    if (step === "runtime") setProgress((70 * loadedBytes) / totalBytes);
  }
  // All runtime bytes are in: Python is now compiling and initialising.
  if (step === "runtime" && loadedBytes >= totalBytes) {
    setStep("python");
    setProgress(70);
  }
}
window.fetch = async function (input, init) {
  const response = await nativeFetch.call(this, input, init);
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (totalBytes && response.ok && response.body && TRACKED.test(url)) {
    countBytes(response.clone()).catch(() => {}); // progress is best effort
  }
  return response;
};

document.addEventListener("DOMContentLoaded", () => setStep("runtime"));
// PyScript fires py:ready on the <script type="py"> (bubbling) once the interpreter
// and [files] are in place, right before main.py runs.
document.addEventListener("py:ready", () => {
  setStep("game");
  setProgress(90);
});

// --- failure -----------------------------------------------------------------
let failed = false;
function fail(reason) {
  if (failed || document.body?.dataset.ready === "1") return;
  failed = true;
  console.error("Skyline failed to start:", reason);
  i18n.then(() => {
    document.getElementById("loading-error")?.removeAttribute("hidden");
    document.getElementById("loading")?.classList.add("failed");
  });
}
window.addEventListener("error", (e) => fail(e.error || e.message));
window.addEventListener("unhandledrejection", (e) => fail(e.reason));

// --- ready -------------------------------------------------------------------
function onReady() {
  window.fetch = nativeFetch;
  setProgress(100);
  document.getElementById("loading")?.setAttribute("hidden", "");
  if ("serviceWorker" in navigator && window.isSecureContext) {
    // Registered only now: everything the SW precaches is already in the HTTP cache.
    window.skylineSW = navigator.serviceWorker
      .register("./sw.js", { scope: "./" })
      .then(watchUpdates)
      .catch((err) => console.warn("service worker registration failed", err));
  }
}

// --- updates -----------------------------------------------------------------
function offerUpdate(worker) {
  const bar = document.getElementById("update");
  if (!bar || !navigator.serviceWorker.controller) return; // a first install is no update
  i18n.then(() => bar.removeAttribute("hidden"));
  document.getElementById("update-reload").onclick = () => {
    let reloading = false;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (!reloading) location.reload();
      reloading = true;
    });
    worker.postMessage({ type: "skipWaiting" });
  };
  document.getElementById("update-later").onclick = () => bar.setAttribute("hidden", "");
}
function watchUpdates(reg) {
  if (reg.waiting) offerUpdate(reg.waiting);
  reg.addEventListener("updatefound", () => {
    const worker = reg.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offerUpdate(worker);
    });
  });
  return reg;
}
new MutationObserver((_, observer) => {
  if (document.body.dataset.ready === "1") {
    observer.disconnect();
    onReady();
  }
}).observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
