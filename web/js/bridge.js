// @ts-check
// The bridge to Python (web/main.py). main.py runs in a Web Worker (PyScript's worker
// mode) where the page offers one, else on the main thread (web/js/python-path.js).
// In the worker every access it makes to the page (pyscript.window/document) is a
// synchronous round trip through Atomics, costing 0.1-5 ms (more on a busy machine),
// so the two sides talk little: one call per event (the event reduced to a PageEvent,
// as JSON) answered with the render's DOM commands in one batch (DomCommand[], as
// JSON, applied by web/js/render.js), and one call per localStorage access (kept
// synchronous, as the controller's save after every move needs; web/js/storage.js).
//
// Contract with main.py (DomHost, dispatch): skylineHost.connect(dispatch, stats, bots,
// names) once Python is ready; dispatch(json) handles one event and answers with its
// render's commands; skylineHost.apply(json) is Python's call for renders of its own
// (timers, downloads that arrived). Contract with the tests and benches:
// skylineHost.settled() resolves once every event dispatched so far has been handled;
// "skyline:handled" (on window, detail.event = the DOM event) follows each one.

import { queuePress, takePresses } from "./early.js";
import { win } from "./globals.js";
import { site } from "./site.js";

/**
 * A form's values, as main.py's controller reads them.
 * @typedef {Record<string, FormDataEntryValue>} FormValues
 */
/**
 * A click or a change on a control with data-action (main.py: Controller.handle).
 * @typedef {object} CommandEvent
 * @property {"click" | "change"} kind
 * @property {string | null} action the control's data-action (web/app/core/commands.py)
 * @property {string | null} arg its data-arg
 * @property {FormValues | null} form the form's values for commands that send one, a
 *   select's {value}, or an imported file's {text}
 * @property {string | null} [target_id] the control's id (the focus goes back there)
 */
/**
 * A form submitted: a control with data-submit.
 * @typedef {{kind: "submit", action: string, form: FormValues}} SubmitEvent
 */
/**
 * A key pressed (Tab is the page's own: the trap in a dialog).
 * @typedef {{kind: "keydown", key: string, in_field: boolean}} KeyEvent
 */
/**
 * The fragment changed (a link followed) or another tab wrote to storage.
 * @typedef {{kind: "hashchange", hash: string} | {kind: "storage", key: string}} WindowEvent
 */
/**
 * The answer to a save sent with a render that was not written (web/js/render.js).
 * @typedef {{kind: "saved", id: number, outcome: string}} SaveEvent
 */
/**
 * What happened on the live table (web/js/live-page.js): a device joined or left, a
 * message, the tick, the relays, offline/online, an error.
 * @typedef {import("./live-page.js").LiveEvent} LiveEvent
 */
/**
 * One page event as main.py's dispatch() reads it (JSON). `fault` is the test-only
 * hint that window.__skylineFault is set (main.DomHost.fault).
 * @typedef {(CommandEvent | SubmitEvent | KeyEvent | WindowEvent | SaveEvent | LiveEvent)
 *   & {fault?: true}} PageEvent
 */
/**
 * main.py's entry points (PyScript proxies; from the worker their answers are promises).
 * @typedef {object} PythonSide
 * @property {(event: string) => unknown} dispatch a PageEvent as JSON in; the render's
 *   DomCommand[] as JSON out (or None when nothing changed)
 * @property {() => unknown} stats the controller's timings as JSON
 * @property {(command: string, arg: string) => unknown} bots the computer players' test
 *   hooks (main.py bots_api: web/app/computer/pacer.py js_api, the worker's Resource Timing)
 */
/**
 * The command names the page's JS needs (web/app/core/commands.py, HOST_COMMANDS).
 * @typedef {object} HostCommandNames
 * @property {string} die a die to choose (a focus fallback)
 * @property {string} importText the imported file's text goes to this command
 * @property {number} importLimit the largest file an import reads, in bytes
 * @property {string[]} sendsForm clicks that send their form's values
 * @property {string[]} copies clicks that copy (the clipboard write starts at once)
 */

/** @type {PythonSide | null} */
let py = null;
// Written into the page by scripts/build.py, so they are there before Python is (a
// render before connect() needs them for its focus fallbacks); connect() passes them
// again from Python.
/** @type {HostCommandNames} */
let names = parseNames(site.hostCommands || "{}");
let pending = 0; // events sent and not yet handled
/** @type {Array<() => void>} */
const waiters = [];
/** @type {(batch: string) => void} */
let render = () => {};

/**
 * @param {string} json
 * @returns {HostCommandNames}
 */
function parseNames(json) {
  const parsed = JSON.parse(json);
  return { die: "", importText: "", importLimit: 0, sendsForm: [], copies: [], ...parsed };
}

/** The command names the page's JS needs. */
export function hostNames() {
  return names;
}

/** Whether Python is connected (ready): before then presses are queued. */
export function connected() {
  return py !== null;
}

/**
 * Where the answers go: web/js/render.js's apply.
 * @param {(batch: string) => void} apply
 */
export function setRenderer(apply) {
  render = apply;
}

/**
 * Python is ready (main.py): its entry points and the command names as JSON.
 * @param {PythonSide["dispatch"]} dispatch
 * @param {PythonSide["stats"]} stats
 * @param {PythonSide["bots"]} bots
 * @param {string} namesJson
 */
export function connect(dispatch, stats, bots, namesJson) {
  py = { dispatch, stats, bots };
  names = parseNames(namesJson);
}

function wake() {
  if (!pending) for (const resolve of waiters.splice(0)) resolve();
}

/** Something settled() must wait for (a file being read); call the result when done. */
export function hold() {
  pending += 1;
  return () => {
    pending -= 1;
    wake();
  };
}

/**
 * Send one event to Python, or queue it while Python is not ready (web/js/early.js).
 * @param {PageEvent} data
 * @param {Event} event the DOM event (for "skyline:handled")
 */
export function send(data, event) {
  if (!py) {
    queuePress(data, event);
    return;
  }
  // Test-only fault hook (main.DomHost.fault): only a hint; Python reads and clears
  // window.__skylineFault itself when it reaches the fault point.
  if (Reflect.has(win, "__skylineFault")) data.fault = true;
  pending += 1;
  Promise.resolve(py.dispatch(JSON.stringify(data)))
    .then((batch) => {
      if (batch) render(String(batch)); // the render's DOM commands
    })
    .catch((err) => console.error("skyline:", err))
    .finally(() => {
      pending -= 1;
      win.dispatchEvent(new CustomEvent("skyline:handled", { detail: { event } }));
      wake();
    });
}

/**
 * Once the page is ready (the "ready" command), the presses made while it started, in
 * order, after the call that brought it (Python may still be in it).
 */
export function playEarly() {
  for (const { data, event } of takePresses()) send(data, event);
}

/** Resolves once every event sent so far has been handled. */
export function settled() {
  return pending ? new Promise((resolve) => waiters.push(() => resolve(undefined)))
    : Promise.resolve(undefined);
}

/** The controller's timings (for the tests and benches); [] before Python is ready. */
export async function stats() {
  return py ? /** @type {unknown[]} */ (JSON.parse(String(await py.stats()))) : [];
}

/**
 * The computer players' test hooks; "" before Python is ready.
 * @param {string} command
 * @param {string} [arg]
 */
export async function bots(command, arg = "") {
  return py ? String(await py.bots(command, arg)) : "";
}
