// @ts-check
// Making the interpreter's memory snapshot. After a good start that did not restore one
// (web/snapshot.mjs), once the service worker has the runtime (so nothing is downloaded
// twice) and the page is idle: a worker of its own (web/snapshot-worker.mjs) makes the
// snapshot of this build, stored here in Cache Storage. Any failure leaves things as
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

const SNAPSHOT_IDLE_MS = 3000; // after ready, so the first moves never compete with it

/** After ready: make the snapshot later, in idle time, where it can be made at all. */
export function makeSnapshotLater() {
  const root = document.documentElement;
  if (!site.snapshotConfig || root.dataset.pythonStart === "restored" ||
      typeof Worker !== "function" || typeof caches === "undefined") return;
  const swReady = navigator.serviceWorker && window.isSecureContext
    ? Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(r, 30_000))])
    : Promise.resolve();
  swReady
    .then(() => new Promise((resolve) => setTimeout(resolve, SNAPSHOT_IDLE_MS)))
    .then(() => new Promise((resolve) =>
      typeof requestIdleCallback === "function" ? requestIdleCallback(resolve, { timeout: 5000 }) : resolve(undefined)))
    .then(makeSnapshot)
    .catch((err) => {
      win.skylineSnapshotMade = { ok: false, reason: String(err) };
    });
}

async function makeSnapshot() {
  const snapshots = await import("../snapshot.mjs");
  /** @type {{key: string}} the rest is the worker's (snapshot-worker.mjs, SnapshotConfig) */
  const config = await (await fetch(`./${site.snapshotConfig}`)).json();
  if (await snapshots.hasSnapshot(config.key)) {
    win.skylineSnapshotMade = { ok: true, existing: true };
    return;
  }
  if (await snapshots.snapshotRefused(config.key)) {
    // one of this build's failed its restore here: the next would fail too
    win.skylineSnapshotMade = { ok: false, reason: "refused" };
    return;
  }
  const worker = new Worker(new URL("../snapshot-worker.mjs", import.meta.url), { type: "module" });
  /** @type {WorkerAnswer} */
  const answer = await new Promise((resolve) => {
    worker.addEventListener("message", (event) => resolve(event.data));
    worker.addEventListener("error", (event) => resolve({ ok: false, reason: event.message }));
    worker.postMessage(config);
  });
  worker.terminate();
  if (!answer.ok) throw new Error(answer.reason);
  const started = performance.now();
  const stored = await snapshots.storeSnapshot(config.key, answer.packed, answer.size);
  win.skylineSnapshotMade = {
    ok: true, size: answer.size, stored, bootMs: answer.bootMs,
    importMs: answer.importMs, snapshotMs: answer.snapshotMs,
    storeMs: performance.now() - started,
  };
}
