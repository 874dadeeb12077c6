// @ts-check
// The page's half of the host, on the main thread: main.py (web/main.py, DomHost)
// decides everything; this side turns the page's events into data for it
// (web/js/events.js), applies its render batches (web/js/render.js) with the focus
// rules (web/js/focus.js), queues the presses made before it is ready
// (web/js/early.js), and offers it what only the page has: localStorage, the
// clipboard and share sheet, files, the page's clock. An entry module that index.html
// loads before PyScript, so the Python path is chosen before PyScript reads it.

import { bots, connect, settled, setRenderer, stats } from "./bridge.js";
import { canShare, copy, share } from "./clipboard.js";
import { takeEarly, unstashPresses } from "./early.js";
import { installEffects } from "./effects.js";
import { listen } from "./events.js";
import { blobURL } from "./files.js";
import { win } from "./globals.js";
import { watchSkylines } from "./layout.js";
import { choosePythonPath } from "./python-path.js";
import { apply } from "./render.js";
import {
  persistStorage, storageGet, storageKeys, storageRemove, storageSet, storageWriteIf,
} from "./storage.js";

/**
 * What main.py's DomHost calls on `window.skylineHost` (from the worker each call is a
 * round trip; promises come back as awaitables).
 * @typedef {object} SkylineHost
 * @property {(json: string) => void} apply a render of Python's own (DomCommand[] JSON)
 * @property {typeof connect} connect Python is ready: its entry points and command names
 * @property {() => string} takeEarly the presses made before Python was ready (PageEvent[]
 *   JSON), for its first render
 * @property {() => Promise<unknown>} settled every event dispatched so far is handled
 * @property {(text: string) => string} blobURL a blob: URL of a text, for <a download>
 * @property {(text: string) => Promise<boolean>} copy copy to the clipboard
 * @property {(url: string, title: string) => Promise<boolean>} share the share sheet
 * @property {() => boolean} canShare whether there is a share sheet
 * @property {() => Promise<"granted" | "denied" | "unsupported">} persistStorage
 * @property {(key: string) => string | null} storageGet
 * @property {(key: string, value: string) => void} storageSet
 * @property {(key: string, expected: string | null, value: string, also?: string)
 *   => "written" | "conflict" | "partial"} storageWriteIf
 *   compare and write: false if another tab wrote
 * @property {(key: string) => void} storageRemove
 * @property {() => string} storageKeys every key, as JSON
 * @property {() => string} localDate the player's calendar day, YYYY-MM-DD
 * @property {() => number} tzMinutes the page's time-zone offset
 * @property {() => string} pageAddress the page's address without its fragment
 * @property {(where: string) => boolean} fault test-only: true (once) if
 *   window.__skylineFault === where
 */

choosePythonPath();
unstashPresses(); // a start that began again at once: the presses made before it
setRenderer(apply);
watchSkylines();
installEffects(); // before listen(): a press finishes the motion before the page sees it
listen();

/** @type {SkylineHost} */
const host = {
  apply,
  connect,
  takeEarly,
  settled,
  blobURL,
  copy,
  share,
  canShare,
  persistStorage,
  storageGet,
  storageSet,
  storageWriteIf,
  storageRemove,
  storageKeys,
  // The player's calendar day and time zone come from the page's clock (the one the
  // device shows, and the one a test sets with Playwright's page.clock), not the worker's.
  localDate: () => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  },
  tzMinutes: () => new Date().getTimezoneOffset(),
  pageAddress: () => `${location.origin}${location.pathname}${location.search}`,
  fault: (where) => {
    if (win.__skylineFault !== where) return false;
    delete win.__skylineFault;
    return true;
  },
};
win.skylineHost = host;
// For the e2e tests and scripts: promises (the worker answers asynchronously).
win.skylineStats = stats;
win.skylineBots = bots;
