// @ts-check
// The loading screen: real progress on its bar and steps, and a start that always ends,
// in the playable page or in a message that says what failed (in the player's
// language) with Retry; the rules stay readable, storage is untouched.
//
// Bar: the runtime download 0-70 % (bytes, web/js/prefetch.js), Python's start
// 70-90 %, the game 90-100 %. What fails the start: an error on this page (a script or
// style that did not load), an error PyScript shows instead of throwing (its config,
// a failed download of the runtime, Python's error on the main thread: a .py-error
// element), the error that ends Python's start in the worker (PyScript's worker
// rejects its `ready` at once), or no progress for stallMs (the worker died without
// a word, e.g. where it cannot reach the page; a download that hangs; 8 s once a
// runtime download failed). Bytes arriving or a step passing count as progress: a
// slow connection is not cut off. Each failure is named by its cause: the connection
// only for what the network did, else a failure of the app.
//
// A start that fails while a restore of the interpreter's memory snapshot is in trial
// (web/snapshot.mjs) starts again at once, once per tab session: that start drops the
// snapshot and boots normally; the presses made so far wait for it (web/js/early.js).

import { element, isReady } from "./dom.js";
import { stashPresses } from "./early.js";
import { win } from "./globals.js";
import { table } from "./strings.js";

// What the engines say when a download failed (Chromium, Firefox, WebKit), a fetch that
// answered with an error status (main.py, the interpreter module), or a file that did
// not load (below).
const NETWORK_CAUSE = new RegExp([
  "Failed to fetch", "NetworkError", "network error", "Load failed", "HTTP \\d{3}",
  "could not load", "dynamically imported module", "Importing a module script failed",
  "ERR_[A-Z_]+",
].join("|"), "i");
/** sessionStorage: this tab already started again after a failed restore. */
const RESTARTED = "skyline-start-restarted";

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

/** The start reached the page: a later failed restore may start again once more. */
export function startSucceeded() {
  try {
    sessionStorage.removeItem(RESTARTED);
  } catch {
    // blocked: nothing was stored either
  }
}

/**
 * What failed a start, as the key of its message: the connection only for what the
 * network did (a download, a fetch), else a failure of the app.
 * @param {unknown} reason
 */
function failureKey(reason) {
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  return NETWORK_CAUSE.test(text)
    ? "loading.failed_runtime" : "loading.failed_app";
}

/**
 * A restore of the interpreter's snapshot is in trial (its mark is stored): start again
 * at once (that start drops the snapshot), unless this tab already did.
 * @returns {Promise<boolean>} whether the page is reloading
 */
async function restartIfRestoreInTrial() {
  try {
    const { failTrial, inTrial } = await import("../snapshot.mjs");
    if (!(await inTrial()) || sessionStorage.getItem(RESTARTED)) return false;
    sessionStorage.setItem(RESTARTED, "1");
    await failTrial();
  } catch {
    return false; // no snapshot module, or sessionStorage blocked: no loop either way
  }
  stashPresses();
  location.reload();
  return true;
}

/** Drop the stored copies the start reads (the interpreter's snapshot, the last
 * render's picture) and start again; the saved games stay. */
async function startFresh() {
  try {
    const { dropSnapshot } = await import("../snapshot.mjs");
    await dropSnapshot();
  } catch {
    // the reload still starts; the next failure offers this again
  }
  try {
    localStorage.removeItem("skyline.snapshot");
  } catch {
    // blocked: there was no picture either
  }
  location.reload();
}

/**
 * PyScript's worker rejects its `ready` with the error that ended Python's start there
 * (the import of main.py, the interpreter's start): watched as soon as PyScript has
 * made the worker (script.xworker).
 * @param {(reason: unknown) => void} onError
 */
function watchWorker(onError) {
  const script = document.querySelector("script[type=py]");
  if (!script?.hasAttribute("worker")) return; // Python on the main thread: .py-error
  const look = () => {
    /** @type {{ready?: Promise<unknown>, onerror?: (event: {error?: unknown}) => void} | undefined} */
    const xworker = /** @type {any} */ (script).xworker;
    if (xworker?.ready) {
      xworker.ready.catch(onError);
      // (PyScript's own handler only logs the event object)
      xworker.onerror = (event) => onError(event?.error ?? event);
    } else if (!isReady() && !failed) {
      setTimeout(look, 50);
    }
  };
  look();
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
  const fail = async (reason, key = failureKey(reason)) => {
    if (failed || isReady()) return;
    failed = true;
    stopWatching();
    console.error("Skyline failed to start:", reason);
    // why, for a report or a test's account of the page (the console is not always at hand)
    document.documentElement.dataset.startFailure = String(
      reason instanceof Error ? `${reason.name}: ${reason.message}` : reason,
    ).slice(0, 500);
    if (await restartIfRestoreInTrial()) return;
    translated.then(async () => {
      const error = document.getElementById("loading-error");
      // the page's language now (the player may have switched it before Python)
      const strings = await table(document.documentElement.lang || lang);
      if (error) {
        error.textContent = strings[key] ?? error.textContent; // the table may be unreachable
        error.removeAttribute("hidden");
      }
      document.getElementById("loading-retry")?.removeAttribute("hidden");
      document.getElementById("loading-fresh")?.removeAttribute("hidden");
      // over a painted picture too (it would otherwise say "Starting…" for ever)
      const loading = element("loading");
      loading.removeAttribute("hidden");
      element("boot-bar").hidden = true;
      element("app").inert = true; // the painted picture is no page: Retry is the way on
      loading.classList.add("failed");
    });
  };
  errorWatch = new MutationObserver(() => {
    const shown = document.querySelector(".py-error, py-error");
    if (shown) fail(shown.textContent);
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
  watchWorker((reason) => fail(reason));
  document.getElementById("loading-retry")?.addEventListener("click", () => location.reload());
  document.getElementById("loading-fresh")?.addEventListener("click", () => startFresh());
}
