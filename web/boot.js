// Boot helper, a classic script at the end of <body> (it runs before the first paint and
// before PyScript): paints the last render's snapshot, or on a first visit the welcome
// screen the build prerendered (see "snapshot" below), opens the
// prerendered rules before Python is ready, translates the loading screen, shows real
// progress (bytes of the big runtime downloads, which it fetches itself on a first
// visit so they start right after the first paint, then PyScript's py:ready, then the app's ready flag), shows a failure message, and registers the service worker only
// once the app is ready (so the first visit does not download everything twice).
// Contract with main.py: window.skylineBoot.live() right before the first render (the
// painted page stops being busy), document.body.dataset.ready = "1" when the app is
// usable. A press on the painted page before then is queued by web/host.js.
// Updates: a new deploy's service worker waits; the bar "A new version is ready" lets
// the player switch now (the game is saved after every move, so it carries over) or
// keep playing this version until the next cold start.
(() => {
const root = document.documentElement;
const langs = (root.dataset.langs || "en").split(" ");
const BUILD = root.dataset.build || "";

// --- snapshot ------------------------------------------------------------------
// After each render (debounced) and when the page is hidden, the regions' HTML, the
// page language and the attributes the styles read go to localStorage; the next visit
// of the same build paints them at once, aria-busy, with a "Starting…" bar,
// and Python's first render replaces them with the same layout. A cache only: every
// storage failure is ignored, a snapshot of another build or a broken one is dropped.
const SNAPSHOT_KEY = "skyline.snapshot";
const SNAPSHOT_MAX = 400_000; // characters; a bigger render is not kept
// Not kept: notices are transient (a stale one would move the board when it goes).
const SNAPSHOT_REGIONS = ["topbar", "turn", "supply", "players", "log", "dialog"];
// Attributes of <html> and <body> that are the page's own state, never the build's.
const SKIP_ATTRS = new Set(["data-langs", "data-boot-bytes", "data-build", "data-ready",
  "data-stdlib", "data-stdlib-pyc", "data-config-pyc", "data-warm", "data-snapshot",
  "data-python-start", "data-host-commands", "aria-busy", "class"]);

function readSnapshot() {
  try {
    const snap = JSON.parse(localStorage.getItem(SNAPSHOT_KEY) || "null");
    if (snap && snap.build === BUILD && BUILD && snap.regions && langs.includes(snap.lang)) {
      return snap;
    }
    if (snap) localStorage.removeItem(SNAPSHOT_KEY); // another build's: never shown
  } catch {
    // unreadable or blocked storage: no snapshot
  }
  return null;
}

function attrs(el) {
  const out = {};
  for (const a of el.attributes) if (!SKIP_ATTRS.has(a.name)) out[a.name] = a.value;
  return out;
}

// A new visitor: no key of the page's in storage and no fragment (a game link, the
// daily challenge or any other fragment may open something else: the loading screen
// stays). Python's first render is then the welcome dialog over a fresh solo game,
// which scripts/build.py prerendered per language into <template data-first-paint>
// (the page's own Controller under CPython; tests/test_prerender.py and
// e2e/test_start_paint.py check it is what the page renders). Painted like a snapshot.
function firstVisitSnapshot(code) {
  try {
    if (location.hash) return null;
    for (let i = 0; i < localStorage.length; i++) {
      if (localStorage.key(i)?.startsWith("skyline.")) return null;
    }
  } catch {
    return null; // storage blocked: Python may say so first, keep the loading screen
  }
  const template = document.querySelector(`template[data-first-paint="${code}"]`);
  if (!template) return null;
  const regions = {};
  for (const el of template.content.querySelectorAll("[data-region]")) {
    regions[el.dataset.region] = el; // its nodes are moved into the page, no re-parsing
  }
  const labels = { starting: template.dataset.starting, rules: template.dataset.rules };
  return { lang: code, html: {}, body: {}, labels, regions };
}

const snapshot = readSnapshot();
// The language main.py (i18n.pick_language) picks when none is stored (an empty
// navigator.languages counts as missing there too).
const lang =
  snapshot?.lang ||
  (navigator.languages?.length ? navigator.languages : [navigator.language])
    .map((l) => l.toLowerCase().split("-")[0])
    .find((l) => langs.includes(l)) ||
  "en";
root.lang = lang;
const welcome = snapshot ? null : firstVisitSnapshot(lang);

const app = document.getElementById("app");
const startBar = document.getElementById("boot-bar");
let painted = false;
const shown = snapshot || welcome;
if (shown) {
  try {
    for (const [name, value] of Object.entries(shown.html || {})) root.setAttribute(name, value);
    for (const [name, value] of Object.entries(shown.body || {})) {
      document.body.setAttribute(name, value);
    }
    for (const name of SNAPSHOT_REGIONS) {
      const region = document.getElementById(name);
      const content = shown.regions[name];
      if (!region) continue;
      if (content instanceof Element) region.replaceChildren(...content.childNodes);
      else region.innerHTML = content || "";
    }
    // A dialog the page had opened with showModal() comes back as a plain open
    // <dialog>: the styles place it like the modal one (.snapshot dialog[open]).
    // Not inert: a press on it is queued by web/host.js and played once Python is ready.
    app.setAttribute("aria-busy", "true");
    app.classList.add("snapshot");
    startBar.querySelector("[data-i18n='loading.starting']").textContent =
      shown.labels?.starting || "";
    startBar.querySelector("[data-i18n='btn.rules']").textContent = shown.labels?.rules || "";
    startBar.hidden = false;
    document.getElementById("loading").hidden = true;
    painted = true;
  } catch (err) {
    console.warn("skyline: snapshot not shown", err);
  }
}
// painted: a snapshot or the prerendered welcome is on screen ("welcome": the latter).
window.skylineBoot = { painted, welcome: painted && !snapshot, live };

const tables = {};
function table(code) {
  tables[code] ??= fetch(`./i18n/${code}.json`)
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  return tables[code];
}
const BOOT_TEXTS = "#loading [data-i18n], #update [data-i18n], #boot-bar [data-i18n]";
const i18n = table(lang).then((strings) => {
  for (const el of document.querySelectorAll(BOOT_TEXTS)) {
    el.textContent = strings[el.dataset.i18n] ?? "";
  }
});

async function saveSnapshot() {
  try {
    if (document.body.dataset.ready !== "1") return;
    const strings = await table(root.lang);
    const regions = {};
    for (const name of SNAPSHOT_REGIONS) {
      regions[name] = document.getElementById(name)?.innerHTML || "";
    }
    const text = JSON.stringify({
      build: BUILD,
      lang: root.lang,
      html: attrs(root),
      body: attrs(document.body),
      labels: { starting: strings["loading.starting"] || "", rules: strings["btn.rules"] || "" },
      regions,
    });
    if (text.length > SNAPSHOT_MAX) localStorage.removeItem(SNAPSHOT_KEY);
    else localStorage.setItem(SNAPSHOT_KEY, text);
  } catch {
    // full or blocked storage: the next visit shows the loading screen, nothing more
  }
}
let saveTimer = 0;
function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveSnapshot, 400);
}

// The app becomes live: called by main.py right before its first render (so focus and
// showModal() work there), and again on ready in case it was not.
// The snapshot's look (.snapshot: shown before ready, cursor) and the bar go on ready.
let isLive = false;
function live() {
  if (isLive) return;
  isLive = true;
  app.inert = false;
  app.removeAttribute("aria-busy");
  // Python renders the dialog region afresh (a snapshot's <dialog> is not modal).
  if (painted) document.getElementById("dialog")?.replaceChildren();
}
function showLive() {
  live();
  app.classList.remove("snapshot");
  startBar.hidden = true;
}

// --- rules before Python --------------------------------------------------------
// The build prerenders the rules dialog (rules/<lang>.html, the same HTML the page
// renders); the Rules buttons of the loading screen and the "Starting…" bar open it.
// When Python is ready it takes over: an open prerendered panel is swapped for the
// live one (same place in the text), unless a live dialog is open (then it stays on
// top until closed).
const rulesHost = document.getElementById("boot-rules");
function closeRules() {
  rulesHost.querySelector("dialog")?.close();
  rulesHost.replaceChildren();
  rulesHost.hidden = true;
  // back to the live dialog under them (the welcome dialog), if any
  const under = document.querySelector("#dialog dialog[open]");
  if (under && !under.contains(document.activeElement)) {
    under.querySelector("#dlg-first, input, select, button")?.focus();
  }
}
async function openRules() {
  let html = "";
  try {
    const response = await fetch(`./rules/${root.lang}.html`);
    if (response.ok) html = await response.text();
  } catch {
    // offline and not cached: the button does nothing
  }
  if (!html || isReady()) {
    if (html && isReady()) document.getElementById("btn-rules")?.click();
    return;
  }
  rulesHost.innerHTML = html;
  rulesHost.hidden = false;
  const native = rulesHost.querySelector("dialog");
  if (native) native.showModal();
  rulesHost.querySelector("#dlg-first, button")?.focus();
}
function rulesScroller() {
  return rulesHost.querySelector(".dialog");
}
// The panel's own buttons; nothing here reaches the page's listeners (after ready
// they would act on the live dialog).
for (const kind of ["click", "keydown"]) {
  rulesHost.addEventListener(kind, (event) => {
    event.stopPropagation();
    if (kind === "keydown") {
      if (event.key === "Escape") {
        event.preventDefault();
        closeRules();
      }
      return;
    }
    const el = event.target.closest("[data-action]");
    if (!el) return;
    if (el.dataset.action === "close") closeRules();
    else if (el.dataset.action === "rules-goto") {
      rulesHost.querySelector(`#rules-${el.dataset.arg}`)?.scrollIntoView();
    }
  });
}
rulesHost.addEventListener("cancel", (event) => {
  event.preventDefault(); // closed by the keydown handler (the state stays in one place)
});
for (const button of document.querySelectorAll("[data-boot-rules]")) {
  button.addEventListener("click", () => openRules());
}
function handOverRules() {
  if (rulesHost.hidden) return;
  if (document.getElementById("dialog")?.childElementCount) {
    // A live dialog opened (showModal) over them: put the rules back on top, where the
    // player was reading; the live dialog is there when they are closed.
    const native = rulesHost.querySelector("dialog");
    if (native?.open) {
      const top = native.scrollTop;
      native.close();
      native.showModal();
      native.scrollTop = top;
    }
    return;
  }
  const top = rulesScroller()?.scrollTop || 0;
  closeRules();
  document.getElementById("btn-rules")?.click();
  const liveDialog = document.querySelector("#dialog .dialog");
  if (liveDialog) liveDialog.scrollTop = top;
}
const isReady = () => document.body?.dataset.ready === "1";

// --- progress ----------------------------------------------------------------
// Step weights on the bar: runtime download 0-70 %, Python start 70-90 %, game 90-100 %.
const totalBytes = Number(root.dataset.bootBytes) || 0;
// The two big downloads before Python can start (see "runtime downloads" below); the
// build writes their total size into the page.
const TRACKED = /(pyodide\.asm\.wasm|stdlib[-.\w]*\.zip)(\?|$)/;
let loadedBytes = 0;
let step = "runtime";

const bar = () => document.getElementById("loading-progress");
function setProgress(percent) {
  progressed();
  const el = bar();
  if (el) el.value = Math.max(el.value, Math.min(100, percent));
}
function setStep(name) {
  progressed();
  step = name;
  let passed = true;
  for (const li of document.querySelectorAll("#loading [data-step]")) {
    const current = li.dataset.step === name;
    if (current) passed = false;
    li.classList.toggle("done", passed && !current);
    li.classList.toggle("active", current);
  }
}

// --- runtime downloads -----------------------------------------------------------
// Python runs in a worker (main.py, PyScript's worker mode), whose downloads this page
// cannot watch and whose requests a <link rel=preload> would not serve. On a first
// visit this page fetches the runtime files itself, in parallel (data-warm, written by
// scripts/build.py, plus the standard library web/host.js's config will ask for), so
// the worker finds them in the HTTP cache instead of discovering one after the other;
// the bytes of the two big ones move the bar as they stream in. A visit the service
// worker controls has them all in its cache: nothing to fetch, the bar goes by steps.
async function countBytes(response) {
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loadedBytes += value.byteLength;
    progressed();
    if (step === "runtime") setProgress((70 * loadedBytes) / totalBytes);
  }
  // All runtime bytes are in: Python is now compiling and initialising.
  if (step === "runtime" && loadedBytes >= totalBytes) {
    setStep("python");
    setProgress(70);
  }
}
function warmRuntime() {
  const stdlib = root.dataset.stdlib;
  const urls = [...(root.dataset.warm || "").split(" "), stdlib].filter(Boolean);
  for (const url of urls) {
    // After the first paint (afterFirstPaint below) and at low priority: the styles,
    // boot.js, a snapshot or the prerendered welcome come first (docs/architecture.md, "Start-up").
    fetch(`./${url}`, { priority: "low" })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        if (totalBytes && response.body && TRACKED.test(url)) {
          return countBytes(response);
        }
        return response.arrayBuffer(); // read to the end: cached whole
      })
      // The worker asks for the same files itself, but if this download failed, its
      // likely did too: a start that then stops progressing failed on the download.
      .catch(() => downloadFailed());
  }
}
// Started once the first paint is on screen (its first-contentful-paint entry has
// arrived; the snapshot, the prerendered welcome or the loading screen), not
// before: a download that ends before the largest paint counts as one that paint waited
// for in Lighthouse's simulation (Lantern), and on a fast link the small runtime files
// ended during the first frame's layout, so the mobile preset's slow 4G priced the
// prerendered welcome at 7.7 s (largest contentful paint) instead of 1.6 s. The
// wait is the first frame's style and layout (about 0.1 s here), on a link that is idle
// by then. A hidden page paints nothing: it fetches at once, or when it is hidden before
// its paint; without paint timing it fetches at once; a timer covers a paint that never
// comes (long enough for a loaded machine's first frame, which took over 1 s here).
const PAINT_WAIT_MS = 5000;
function afterFirstPaint(start) {
  let started = false;
  let observer = null;
  let timer = 0;
  const onHidden = () => {
    if (document.visibilityState === "hidden") go();
  };
  const go = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    clearTimeout(timer);
    document.removeEventListener("visibilitychange", onHidden);
    start();
  };
  if (document.visibilityState === "hidden" ||
      !window.PerformanceObserver?.supportedEntryTypes?.includes("paint")) {
    go();
    return;
  }
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName("first-contentful-paint").length) go();
    });
    observer.observe({ type: "paint", buffered: true });
  } catch {
    go();
    return;
  }
  document.addEventListener("visibilitychange", onHidden);
  timer = setTimeout(go, PAINT_WAIT_MS);
}
// Whether a service worker served this page, read once at load: a visit it serves has
// the runtime cached (no warming), and on a first visit a worker installing is the first
// install, no update (after its clients.claim() WebKit already reports a controller in
// the installed handler, so offerUpdate asks this instead).
const servedByWorker = Boolean(navigator.serviceWorker?.controller);
if (!servedByWorker) afterFirstPaint(warmRuntime);

document.addEventListener("DOMContentLoaded", () => setStep("runtime"));
// PyScript fires py:ready on the <script type="py"> (bubbling) once the interpreter
// and [files] are in place, right before main.py runs.
document.addEventListener("py:ready", () => {
  setStep("game");
  setProgress(90);
});

// --- failure -----------------------------------------------------------------
// Start-up always ends: in the playable page, or in a message that says what failed
// (in the player's language) with Retry; the rules stay readable, storage is untouched.
// What fails: an error on this page (a script that did not load), an error PyScript
// shows instead of throwing (its config, a failed download of the runtime: a .py-error
// element), or no progress for stallMs (the worker died without a word, e.g. where it
// cannot reach the page; a download that hangs; 8 s once a runtime download failed).
// Bytes arriving or a step passing count as progress: a slow connection is not cut off.
let stallMs = Number(window.__skylineStallMs) || 45_000; // test hook: shorter
let stallKey = "loading.stalled";
let lastProgress = Date.now();
function downloadFailed() {
  stallMs = Math.min(stallMs, 8_000);
  stallKey = "loading.failed_runtime";
}
function progressed() {
  lastProgress = Date.now();
}
// Watched until the start has ended either way (not on every render after it).
const errorWatch = new MutationObserver(() => {
  const shown = document.querySelector(".py-error, py-error");
  if (shown) fail(shown.textContent, "loading.failed_runtime");
});
errorWatch.observe(document.body, { childList: true, subtree: true });
function stopWatching() {
  clearInterval(stallWatch);
  errorWatch.disconnect();
}
const stallWatch = setInterval(() => {
  if (isReady()) stopWatching();
  else if (Date.now() - lastProgress > stallMs) fail("stalled", stallKey);
}, 1000);

let failed = false;
function fail(reason, key = "loading.failed") {
  if (failed || document.body?.dataset.ready === "1") return;
  failed = true;
  stopWatching();
  console.error("Skyline failed to start:", reason);
  i18n.then(async () => {
    const error = document.getElementById("loading-error");
    const strings = await table(lang);
    if (error) {
      error.textContent = strings[key] ?? error.textContent; // the table may be unreachable
      error.removeAttribute("hidden");
    }
    document.getElementById("loading-retry")?.removeAttribute("hidden");
    // over a painted snapshot too (it would otherwise say "Starting…" for ever)
    document.getElementById("loading")?.removeAttribute("hidden");
    startBar.hidden = true;
    document.getElementById("loading")?.classList.add("failed");
  });
}
window.addEventListener("error", (e) => fail(e.error || e.message));
window.addEventListener("unhandledrejection", (e) => fail(e.reason));
// A script or style of the page that did not load (a download cut off, a file missing
// on the host) fires a non-bubbling error on its element.
window.addEventListener("error", (e) => {
  if (e.target instanceof HTMLScriptElement || e.target instanceof HTMLLinkElement) {
    fail(`could not load ${e.target.src || e.target.href}`, "loading.failed_runtime");
  }
}, true);
document.getElementById("loading-retry")?.addEventListener("click", () => location.reload());

// --- ready -------------------------------------------------------------------
function onReady() {
  stopWatching();
  showLive();
  handOverRules();
  // Snapshot after every render (debounced) and when the page goes away.
  new MutationObserver(saveSoon).observe(app, { childList: true, subtree: true,
    characterData: true, attributes: true });
  saveSoon();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") saveSnapshot();
  });
  window.addEventListener("pagehide", () => saveSnapshot());
  setProgress(100);
  document.getElementById("loading")?.setAttribute("hidden", "");
  if ("serviceWorker" in navigator && window.isSecureContext) {
    // Registered only now: everything the SW precaches is already in the HTTP cache.
    window.skylineSW = navigator.serviceWorker
      .register("./sw.js", { scope: "./" })
      .then(watchUpdates)
      .catch((err) => console.warn("service worker registration failed", err));
  }
  makeSnapshotLater();
}

// --- the interpreter's memory snapshot ---------------------------------------------
// After a good start that did not restore one (web/snapshot.mjs), once the service
// worker has the runtime (so nothing is downloaded twice) and the page is idle: a worker
// of its own (web/snapshot-worker.mjs) makes the snapshot of this build, stored here.
// Any failure leaves things as they are: the next visit starts normally and tries again.
// window.skylineSnapshotMade: the figures, for the tests and scripts/bench_web.py.
const SNAPSHOT_IDLE_MS = 3000; // after ready, so the first moves never compete with it
function makeSnapshotLater() {
  const configUrl = root.dataset.snapshot;
  if (!configUrl || root.dataset.pythonStart === "restored" || typeof Worker !== "function" ||
      typeof caches === "undefined") return;
  const swReady = navigator.serviceWorker && window.isSecureContext
    ? Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(r, 30_000))])
    : Promise.resolve();
  swReady
    .then(() => new Promise((resolve) => setTimeout(resolve, SNAPSHOT_IDLE_MS)))
    .then(() => new Promise((resolve) =>
      window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: 5000 }) : resolve()))
    .then(makeSnapshot)
    .catch((err) => {
      window.skylineSnapshotMade = { ok: false, reason: String(err) };
    });
}
async function makeSnapshot() {
  const snapshots = await import("./snapshot.mjs");
  const config = await (await fetch(`./${root.dataset.snapshot}`)).json();
  if (await snapshots.hasSnapshot(config.key)) {
    window.skylineSnapshotMade = { ok: true, existing: true };
    return;
  }
  const worker = new Worker("./snapshot-worker.mjs", { type: "module" });
  const answer = await new Promise((resolve) => {
    worker.addEventListener("message", (event) => resolve(event.data));
    worker.addEventListener("error", (event) => resolve({ ok: false, reason: event.message }));
    worker.postMessage(config);
  });
  worker.terminate();
  if (!answer.ok) throw new Error(answer.reason);
  const started = performance.now();
  const stored = await snapshots.storeSnapshot(config.key, answer.packed, answer.size);
  window.skylineSnapshotMade = {
    ok: true, size: answer.size, stored, bootMs: answer.bootMs,
    importMs: answer.importMs, snapshotMs: answer.snapshotMs,
    storeMs: performance.now() - started,
  };
}

// --- updates -----------------------------------------------------------------
function offerUpdate(worker) {
  const bar = document.getElementById("update");
  if (!bar || !servedByWorker) return; // a first install is no update
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
})();
