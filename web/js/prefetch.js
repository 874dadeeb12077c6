// @ts-check
// The runtime downloads of a first visit. Python runs in a worker (main.py, PyScript's
// worker mode), whose downloads this page cannot watch and whose requests a <link
// rel=preload> would not serve. On a first visit this page fetches the runtime files
// itself, in parallel (data-warm, written by scripts/build.py, plus the standard
// library web/js/python-path.js's config will ask for), so the worker finds them in the
// HTTP cache instead of discovering one after the other; the bytes of the two big ones
// move the bar as they stream in. A visit the service worker controls has them all in
// its cache: nothing to fetch, the bar goes by steps.

import { currentStep, downloadFailed, progressed, setProgress, setStep } from "./loading.js";
import { servedByWorker, site } from "./site.js";

// The two big downloads before Python can start; the build writes their total size
// into the page (data-boot-bytes).
const TRACKED = /(pyodide\.asm\.wasm|stdlib[-.\w]*\.zip)(\?|$)/;
let loadedBytes = 0;

/** @param {ReadableStream<Uint8Array>} body */
async function countBytes(body) {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loadedBytes += value.byteLength;
    progressed();
    if (currentStep() === "runtime") setProgress((70 * loadedBytes) / site.bootBytes);
  }
  // All runtime bytes are in: Python is now compiling and initialising.
  if (currentStep() === "runtime" && loadedBytes >= site.bootBytes) {
    setStep("python");
    setProgress(70);
  }
}

/**
 * Fetch one runtime file to the end (so it is cached whole), counting the big ones'
 * bytes on the bar.
 * @param {string} url
 */
async function warm(url) {
  try {
    // After the first paint (afterFirstPaint below) and at low priority: the styles,
    // the page's scripts, a picture or the prerendered welcome come first
    // (docs/architecture.md, "Start-up").
    const response = await fetch(`./${url}`, { priority: "low" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (site.bootBytes && response.body && TRACKED.test(url)) await countBytes(response.body);
    else await response.arrayBuffer();
  } catch {
    // The worker asks for the same files itself, but if this download failed, its
    // likely did too: a start that then stops progressing failed on the download.
    downloadFailed();
  }
}

function warmRuntime() {
  for (const url of [...site.warm, site.stdlib].filter(Boolean)) warm(url);
}

// Started once the first paint is on screen (its first-contentful-paint entry has
// arrived; the picture, the prerendered welcome or the loading screen), not before: a
// download that ends before the largest paint counts as one that paint waited for in
// Lighthouse's simulation (Lantern), and on a fast link the small runtime files ended
// during the first frame's layout, so the mobile preset's slow 4G priced the
// prerendered welcome at 7.7 s (largest contentful paint) instead of 1.6 s. The wait
// is the first frame's style and layout (about 0.1 s here), on a link that is idle by
// then. A hidden page paints nothing: it fetches at once, or when it is hidden before
// its paint; without paint timing it fetches at once; a timer covers a paint that never
// comes (long enough for a loaded machine's first frame, which took over 1 s here).
const PAINT_WAIT_MS = 5000;

/** @param {() => void} start */
function afterFirstPaint(start) {
  let started = false;
  /** @type {PerformanceObserver | null} */
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

/** A first visit fetches the runtime right after its first paint. */
export function prefetchRuntime() {
  if (!servedByWorker) afterFirstPaint(warmRuntime);
}
