// @ts-check
// The page's start before Python: an entry module that index.html makes render-blocking,
// so the first frame is its paint. It paints the last render's picture, or on a first
// visit the welcome screen the build prerendered (web/js/paint.js) whose own choices
// show the screens the build rendered for them (web/js/preboard.js), opens the
// prerendered rules before Python is ready (web/js/rules.js), translates the loading
// screen (web/js/strings.js), shows real progress and a failure with Retry
// (web/js/loading.js), fetches the runtime of a first visit right after the first
// paint (web/js/prefetch.js), and once the app is ready registers the service worker
// (web/js/updates.js) and makes the interpreter's memory snapshot in idle time
// (web/js/snapshot-maker.js); a restored snapshot has proved itself once the page is
// ready (web/snapshot.mjs).
//
// Contract with main.py: window.skylineBoot.live() right before the first render (the
// painted page stops being busy), document.body.dataset.ready = "1" when the app is
// usable (web/js/render.js, the "ready" command). A press on the painted page before
// then is queued by web/js/early.js.

import { resumeFocus } from "./early.js";
import { win } from "./globals.js";
import { setProgress, setStep, startSucceeded, stopWatching, watchStart } from "./loading.js";
import { keepPicture, live, paint, showLive } from "./paint.js";
import { startScreens } from "./preboard.js";
import { prefetchRuntime } from "./prefetch.js";
import { handOverRules, offerRules } from "./rules.js";
import { makeSnapshotLater } from "./snapshot-maker.js";
import { translateBootTexts } from "./strings.js";
import { registerServiceWorker } from "./updates.js";

/**
 * What main.py and the tests see of the start (window.skylineBoot).
 * @typedef {object} SkylineBoot
 * @property {boolean} painted a picture of the last render or the prerendered welcome
 *   is on screen
 * @property {boolean} welcome it is the prerendered welcome
 * @property {() => void} live the app becomes live (main.py, before its first render)
 */

const { lang, painted, welcome } = paint();
/** @type {SkylineBoot} */
const boot = { painted, welcome, live };
win.skylineBoot = boot;

if (welcome) startScreens(lang); // its own choices answer before Python (web/js/preboard.js)
const translated = translateBootTexts(lang);
offerRules();
prefetchRuntime();
document.addEventListener("DOMContentLoaded", () => setStep("runtime"));
// PyScript fires py:ready on the <script type="py"> (bubbling) once the interpreter
// and [files] are in place, right before main.py runs.
document.addEventListener("py:ready", () => {
  setStep("game");
  setProgress(90);
});
watchStart(lang, translated);

function onReady() {
  stopWatching();
  startSucceeded();
  if (document.documentElement.dataset.pythonStart === "restored") {
    // the page rendered from the restored interpreter: the snapshot has proved itself
    import("../snapshot.mjs")
      .then((snapshots) => snapshots.proveSnapshot())
      .then(() => {
        document.documentElement.dataset.pythonProven = "1"; // (for the tests)
      });
  }
  showLive();
  resumeFocus();
  handOverRules();
  keepPicture();
  setProgress(100);
  document.getElementById("loading")?.setAttribute("hidden", "");
  registerServiceWorker(translated);
  makeSnapshotLater();
}

new MutationObserver((_, observer) => {
  if (document.body.dataset.ready === "1") {
    observer.disconnect();
    onReady();
  }
}).observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
