// @ts-check
// Making the interpreter's memory snapshot. After a good start that did not restore one
// (web/snapshot.mjs), once the service worker has the runtime (so nothing is downloaded
// twice) and the player has pressed nothing for a while (or the page is hidden): a
// worker of its own (web/snapshot-worker.mjs) makes the snapshot of this build, stored
// here in Cache Storage. It takes about 2.5 s of a phone's half core, so a press while
// it is made stops it (the player's tap comes first) and it starts again at the next
// quiet moment. Any failure leaves things as
// they are: the next visit starts normally and tries again. None is made for a build
// one of whose snapshots failed its restore in this browser (web/snapshot.mjs).

import { win } from "./globals.js";
import { site } from "./site.js";

/**
 * How it went (window.skylineSnapshotMade, for the tests and scripts/bench_web.py).
 * @typedef {{ok: false, reason: string} | {ok: true, existing: true} | {ok: true,
 *   size: number, stored: number, bootMs: number, importMs: number, snapshotMs: number,
 *   storeMs: number}} SnapshotMade
 */
/**
 * The making worker's answer (web/snapshot-worker.mjs).
 * @typedef {{ok: false, reason: string} | {ok: true, packed: Uint8Array<ArrayBuffer>, size: number,
 *   bootMs: number, importMs: number, snapshotMs: number}} WorkerAnswer
 */

const QUIET_MS = 5000; // no press for this long: the player reads or thinks
const PRESSES = ["pointerdown", "keydown"];

/** Resolves once nothing was pressed for QUIET_MS, or the page is hidden. */
function quiet() {
  return new Promise((resolve) => {
    let last = performance.now();
    const note = () => {
      last = performance.now();
    };
    for (const kind of PRESSES) document.addEventListener(kind, note, { capture: true, passive: true });
    const check = () => {
      const waited = performance.now() - last;
      if (document.visibilityState !== "hidden" && waited < QUIET_MS) {
        setTimeout(check, QUIET_MS - waited);
        return;
      }
      for (const kind of PRESSES) document.removeEventListener(kind, note, { capture: true });
      resolve(undefined);
    };
    setTimeout(check, QUIET_MS);
  });
}

/** After ready: make the snapshot later, in idle time, where it can be made at all. */
export function makeSnapshotLater() {
  const root = document.documentElement;
  if (!site.snapshotConfig || root.dataset.pythonStart === "restored" ||
      typeof Worker !== "function" || typeof caches === "undefined") return;
  const swReady = navigator.serviceWorker && window.isSecureContext
    ? Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(r, 30_000))])
    : Promise.resolve();
  swReady
    .then(makeWhenQuiet)
    .catch((err) => {
      win.skylineSnapshotMade = { ok: false, reason: String(err) };
    });
}

/** Made at a quiet moment; a press while the worker makes it: again at the next one. */
async function makeWhenQuiet() {
  for (;;) {
    await quiet();
    await new Promise((resolve) =>
      typeof requestIdleCallback === "function" ? requestIdleCallback(resolve, { timeout: 5000 }) : resolve(undefined));
    if (await makeSnapshot()) return;
  }
}

/** @returns {Promise<boolean>} false when a press stopped it (to be made again) */
async function makeSnapshot() {
  const snapshots = await import("../snapshot.mjs");
  /** @type {{key: string}} the rest is the worker's (snapshot-worker.mjs, SnapshotConfig) */
  const config = await (await fetch(`./${site.snapshotConfig}`)).json();
  if (await snapshots.hasSnapshot(config.key)) {
    win.skylineSnapshotMade = { ok: true, existing: true };
    return true;
  }
  if (await snapshots.snapshotRefused(config.key)) {
    // one of this build's failed its restore here: the next would fail too
    win.skylineSnapshotMade = { ok: false, reason: "refused" };
    return true;
  }
  const worker = new Worker(new URL("../snapshot-worker.mjs", import.meta.url), { type: "module" });
  const pressed = new AbortController();
  /** @type {WorkerAnswer | null} null: stopped by a press */
  const answer = await new Promise((resolve) => {
    const stop = () => resolve(null);
    for (const kind of PRESSES) {
      document.addEventListener(kind, stop, { capture: true, signal: pressed.signal });
    }
    worker.addEventListener("message", (event) => resolve(event.data));
    worker.addEventListener("error", (event) => resolve({ ok: false, reason: event.message }));
    worker.postMessage(config);
  });
  pressed.abort();
  worker.terminate();
  if (!answer) return false;
  if (!answer.ok) throw new Error(answer.reason);
  const started = performance.now();
  const stored = await snapshots.storeSnapshot(config.key, answer.packed, answer.size);
  win.skylineSnapshotMade = {
    ok: true, size: answer.size, stored, bootMs: answer.bootMs,
    importMs: answer.importMs, snapshotMs: answer.snapshotMs,
    storeMs: performance.now() - started,
  };
  return true;
}
