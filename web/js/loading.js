// @ts-check
// The loading screen: real progress on its bar and steps, and a start that always ends,
// in the playable page or in a message that says what failed (in the player's
// language) with Retry; the rules stay readable, storage is untouched.
//
// Bar: the runtime download 0-70 % (bytes, web/js/prefetch.js), Python's start
// 70-90 %, the game 90-100 %. What fails the start: an error on this page (a script or
// style that did not load), an error PyScript shows instead of throwing (its config,
// a failed download of the runtime: a .py-error element), or no progress for stallMs
// (the worker died without a word, e.g. where it cannot reach the page; a download that
// hangs; 8 s once a runtime download failed). Bytes arriving or a step passing count
// as progress: a slow connection is not cut off.

import { element, isReady } from "./dom.js";
import { win } from "./globals.js";
import { table } from "./strings.js";

/** @typedef {"runtime" | "python" | "game"} Step */

/** @type {Step} */
let step = "runtime";
let stallMs = Number(win.__skylineStallMs) || 45_000; // test hook: shorter
let stallKey = "loading.stalled";
let lastProgress = Date.now();
let failed = false;
/** @type {MutationObserver | null} */
let errorWatch = null;
let stallWatch = 0;

/** Something moved: the stall clock starts again. */
export function progressed() {
  lastProgress = Date.now();
}

/** The step the start is at. */
export function currentStep() {
  return step;
}

/** @param {number} percent */
export function setProgress(percent) {
  progressed();
  const bar = document.getElementById("loading-progress");
  if (bar instanceof HTMLProgressElement) {
    bar.value = Math.max(bar.value, Math.min(100, percent));
  }
}

/** @param {Step} name */
export function setStep(name) {
  progressed();
  step = name;
  let passed = true;
  for (const li of document.querySelectorAll("#loading [data-step]")) {
    if (!(li instanceof HTMLElement)) continue;
    const current = li.dataset.step === name;
    if (current) passed = false;
    li.classList.toggle("done", passed && !current);
    li.classList.toggle("active", current);
  }
}

/**
 * A runtime download of this page's failed: the worker's own likely did too, so a start
 * that then stops progressing failed on the download.
 */
export function downloadFailed() {
  stallMs = Math.min(stallMs, 8_000);
  stallKey = "loading.failed_runtime";
}

/** The start has ended either way: stop watching (not on every render after it). */
export function stopWatching() {
  clearInterval(stallWatch);
  errorWatch?.disconnect();
}

/**
 * Watch the start until it ends; a failure shows in `lang` once the loading screen's
 * words are there (`translated`).
 * @param {string} lang
 * @param {Promise<void>} translated
 */
export function watchStart(lang, translated) {
  /**
   * @param {unknown} reason
   * @param {string} [key] the message's key in the string table
   */
  const fail = (reason, key = "loading.failed") => {
    if (failed || isReady()) return;
    failed = true;
    stopWatching();
    console.error("Skyline failed to start:", reason);
    // why, for a report or a test's account of the page (the console is not always at hand)
    document.documentElement.dataset.startFailure = String(
      reason instanceof Error ? `${reason.name}: ${reason.message}` : reason,
    ).slice(0, 500);
    translated.then(async () => {
      const error = document.getElementById("loading-error");
      const strings = await table(lang);
      if (error) {
        error.textContent = strings[key] ?? error.textContent; // the table may be unreachable
        error.removeAttribute("hidden");
      }
      document.getElementById("loading-retry")?.removeAttribute("hidden");
      // over a painted picture too (it would otherwise say "Starting…" for ever)
      const loading = element("loading");
      loading.removeAttribute("hidden");
      element("boot-bar").hidden = true;
      loading.classList.add("failed");
    });
  };
  errorWatch = new MutationObserver(() => {
    const shown = document.querySelector(".py-error, py-error");
    if (shown) fail(shown.textContent, "loading.failed_runtime");
  });
  errorWatch.observe(document.body, { childList: true, subtree: true });
  stallWatch = setInterval(() => {
    if (isReady()) stopWatching();
    else if (Date.now() - lastProgress > stallMs) fail("stalled", stallKey);
  }, 1000);
  window.addEventListener("error", (e) => fail(e.error || e.message));
  window.addEventListener("unhandledrejection", (e) => fail(e.reason));
  // A script or style of the page that did not load (a download cut off, a file missing
  // on the host) fires a non-bubbling error on its element.
  window.addEventListener("error", (e) => {
    if (e.target instanceof HTMLScriptElement || e.target instanceof HTMLLinkElement) {
      const url = e.target instanceof HTMLScriptElement ? e.target.src : e.target.href;
      fail(`could not load ${url}`, "loading.failed_runtime");
    }
  }, true);
  document.getElementById("loading-retry")?.addEventListener("click", () => location.reload());
}
