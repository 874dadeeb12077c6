// @ts-check
// The interpreter's memory snapshot: a return visit restores Python with the engine and
// the page's modules already imported (about 0.6 s) instead of booting it (about 4 s).
//
// Made in the player's own browser, once per build: after a good start, in idle time,
// web/snapshot-worker.mjs boots a clean interpreter in a worker of its own (one that
// never touches the page), imports every module the page can import, and hands the
// snapshot to web/js/snapshot-maker.js, which stores it in Cache Storage: its non-zero 4 KiB pages
// (about half of the 30 MiB heap) behind a bitmap, with a checksum. The interpreter
// module that scripts/build.py writes for PyScript (its `interpreter` setting) restores
// it through bootWithSnapshot below, on both paths (the worker and the main thread).
//
// Never worse than a normal start: whatever goes wrong (no entry, another build's, a
// truncated or corrupt body, a restore error or one that does not end, storage blocked
// or full) ends in a normal boot with the same options, the bad entry dropped, nothing
// said to the player. A checksum only proves the bytes are the ones stored, so an entry
// is trusted by its last restore alone: before each restore a trial mark is stored
// beside it, and the page removes the mark once it has rendered from the restored
// interpreter (proveSnapshot, web/js/boot.js). A start that failed after the restore
// leaves the mark: the page starts again at once (web/js/loading.js), saying on the mark
// that it failed, and that start, like any later one that finds the mark, drops the
// entry and boots normally; one that failed makes no other of this build.
// docs/performance.md has the figures and why the snapshot is made in the browser.

/** Cache Storage: one entry, the snapshot of the build that wrote it. Not named
 * "skyline-…": the service worker deletes those of other versions; a build that finds
 * another build's snapshot here drops it itself (readEntry). */
export const SNAPSHOT_CACHE = "python-snapshot";
/** The entry's key in that cache (never fetched: the URL only names the entry). */
export const SNAPSHOT_URL = new URL("./python-snapshot.bin", import.meta.url).href;
/** The trial mark: stored right before a restore, removed once the page has rendered
 * from it; an entry found with its mark failed its last restore. */
const TRIAL_URL = new URL("./python-snapshot-trial", import.meta.url).href;
/** Stored in place of an entry of this build that failed its restore: this build makes
 * no other (a browser that cannot restore it would fail every other visit). */
const REFUSED_URL = new URL("./python-snapshot-refused", import.meta.url).href;
/** Response headers of the entry: which build made it, its size unpacked, checksum. */
export const KEY_HEADER = "x-skyline-snapshot";
const SIZE_HEADER = "x-skyline-size";
/** On the trial mark: the page saw the start fail during the trial (failTrial). */
const FAILED_HEADER = "x-skyline-failed";
const CHECK_HEADER = "x-skyline-check";
const PAGE = 4096;
/**
 * Pyodide restores a snapshot into a heap of the snapshot's size, and a heap that had
 * grown past the 30 MiB default does not restore in the Pyodide the page pins: such a snapshot
 * is never stored. 30 MiB plus Pyodide's header.
 */
export const MAX_SNAPSHOT_BYTES = 30 * 1024 * 1024 + 4096;
// Reading the entry must not hold up a start: a store that does not answer counts as
// no snapshot (seen in WebKit: an entry that is gone on the next visit).
const READ_TIMEOUT_MS = 4000;
const DROP_TIMEOUT_MS = 2000;
// A restore takes 0.4-0.9 s on a desktop and a few seconds on a slow phone; one that has
// not ended by then never will (a test may shorten it: __skylineRestoreTimeoutMs).
const RESTORE_TIMEOUT_MS = Number(/** @type {any} */ (globalThis).__skylineRestoreTimeoutMs) || 20_000;

// Python run right after a restore: the interpreter's random state is the snapshot's,
// the same on every visit, so it is reseeded from the platform's randomness; and the
// snapshot must be the one this build made (its key in sys).
const AFTER_RESTORE = (/** @type {string} */ key) => `
import random, sys
random.seed()
if getattr(sys, "skyline_snapshot", None) != ${JSON.stringify(key)}:
    raise RuntimeError("the snapshot is not this build's")
`;

/**
 * Why the last start did or did not restore: "restored", "none" (no entry), "other-build",
 * "unreadable" (truncated, corrupt, blocked, timed out), "untried" (its last restore
 * never reached the page's first render), "unmarked" (the trial mark could not be
 * stored: never restored without it), "restore-failed" (an error or no end). Read by
 * main.py (the worker's or the page's globals, where this module ran) for the page's
 * data-python-start, which the tests and scripts/bench_web.py read.
 * @param {string} status
 */
function report(status) {
  /** @type {any} */ (globalThis).skylineSnapshotStatus = status;
}

/** @param {number} ms */
function timeout(ms) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), ms));
}

/**
 * Drop the stored snapshot (every failure does); never throws, and never holds up a
 * start for long: a store that does not answer a read may not answer this either.
 */
export async function dropSnapshot() {
  try {
    await Promise.race([caches.delete(SNAPSHOT_CACHE), timeout(DROP_TIMEOUT_MS)]);
  } catch {
    // storage blocked or not answering: the entry stays, and the next read drops it
  }
}

/**
 * `use` run on the snapshot's cache, given up (rejected) when the store does not answer
 * within DROP_TIMEOUT_MS: a start never waits long for these small writes and reads.
 * @template T
 * @param {(cache: Cache) => Promise<T>} use
 * @returns {Promise<T>}
 */
function withCache(use) {
  return Promise.race([caches.open(SNAPSHOT_CACHE).then(use), timeout(DROP_TIMEOUT_MS)]);
}

/**
 * Drop the stored entry of build `key`, which failed its restore, and remember that
 * this build's snapshots do not restore here. Never throws.
 * @param {string} key
 */
async function refuseSnapshot(key) {
  await dropSnapshot();
  try {
    await withCache((cache) =>
      cache.put(REFUSED_URL, new Response("", { headers: { [KEY_HEADER]: key } })));
  } catch {
    // not stored: the next good start makes another snapshot, trial decides again
  }
}

/**
 * Whether a snapshot of build `key` failed its restore in this browser (then no other
 * is made for this build). Never throws.
 * @param {string} key
 */
export function snapshotRefused(key) {
  return storedFor(REFUSED_URL, key);
}

/**
 * Whether the entry at `url` of the snapshot's cache is build `key`'s (a look at its
 * headers). Never throws.
 * @param {string} url
 * @param {string} key
 */
async function storedFor(url, key) {
  try {
    const response = await (await caches.open(SNAPSHOT_CACHE)).match(url);
    return response?.headers.get(KEY_HEADER) === key;
  } catch {
    return false;
  }
}

/**
 * The stored snapshot's bytes if it is this build's and whole, else null (a bad entry
 * is dropped). Throws nothing.
 * @param {string} key
 * @returns {Promise<Uint8Array | null>}
 */
export async function readSnapshot(key) {
  try {
    return await Promise.race([readEntry(key), timeout(READ_TIMEOUT_MS)]);
  } catch {
    report("unreadable");
    await dropSnapshot();
    return null;
  }
}

/** @param {string} key */
async function readEntry(key) {
  if (typeof caches === "undefined") {
    report("none");
    return null;
  }
  const cache = await caches.open(SNAPSHOT_CACHE);
  const response = await cache.match(SNAPSHOT_URL);
  if (!response) {
    report("none");
    return null;
  }
  if (response.headers.get(KEY_HEADER) !== key) {
    report("other-build");
    await dropSnapshot();
    return null;
  }
  const trial = await cache.match(TRIAL_URL);
  if (trial) {
    // its last restore failed, or died without a word (or its tab closed at once),
    // before the page rendered from it: dropped, and no other made of this build if
    // the page saw it fail
    report("untried");
    if (trial.headers.get(FAILED_HEADER)) await refuseSnapshot(key);
    else await dropSnapshot();
    return null;
  }
  const size = Number(response.headers.get(SIZE_HEADER));
  if (!(size > 0 && size <= MAX_SNAPSHOT_BYTES)) throw new Error("bad size");
  const packed = new Uint8Array(await response.arrayBuffer());
  if (String(checksum(packed)) !== response.headers.get(CHECK_HEADER)) {
    throw new Error("checksum");
  }
  return unpack(packed, size);
}

/**
 * FNV-1a over the 32-bit words (and the last bytes): catches a truncated or damaged
 * entry in about 15 ms for 16 MB, where gzip's check took 200-400 ms to unpack.
 * @param {Uint8Array} bytes
 */
export function checksum(bytes) {
  let hash = 0x811c9dc5;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i], 16777619);
  for (let i = words.length * 4; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 16777619);
  return hash >>> 0;
}

/**
 * The snapshot without its zero pages: a bitmap of the pages kept, then those pages.
 * Runs in the making worker (bytes.byteOffset is 0 and its length a whole heap).
 * @param {Uint8Array} bytes
 */
export function pack(bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  const kept = [];
  for (let page = 0; page < pages; page++) {
    const chunk = bytes.subarray(page * PAGE, Math.min(bytes.length, (page + 1) * PAGE));
    if (chunk.some((byte) => byte !== 0)) {
      bitmap[page >> 3] |= 1 << (page & 7);
      kept.push(chunk);
    }
  }
  const packed = new Uint8Array(bitmap.length + kept.reduce((n, c) => n + c.length, 0));
  packed.set(bitmap);
  let at = bitmap.length;
  for (const chunk of kept) {
    packed.set(chunk, at);
    at += chunk.length;
  }
  return packed;
}

/**
 * The snapshot of `size` bytes back from pack's output; throws if it does not add up.
 * @param {Uint8Array} packed
 * @param {number} size
 */
export function unpack(packed, size) {
  const pages = Math.ceil(size / PAGE);
  const bitmapLength = Math.ceil(pages / 8);
  const bytes = new Uint8Array(size);
  let at = bitmapLength;
  for (let page = 0; page < pages; page++) {
    if (!(packed[page >> 3] & (1 << (page & 7)))) continue;
    const length = Math.min(PAGE, size - page * PAGE);
    if (at + length > packed.length) throw new Error("truncated");
    bytes.set(packed.subarray(at, at + length), page * PAGE);
    at += length;
  }
  if (at !== packed.length) throw new Error("bad length");
  return bytes;
}

/**
 * Store a packed snapshot for the build `key` with its size and checksum; throws when
 * the storage refuses it (blocked, full: the caller ignores that).
 * @param {string} key
 * @param {Uint8Array<ArrayBuffer>} packed pack's output
 * @param {number} size the snapshot's size unpacked
 * @returns {Promise<number>} the bytes stored
 */
export async function storeSnapshot(key, packed, size) {
  if (size > MAX_SNAPSHOT_BYTES) throw new Error("snapshot too large to restore");
  await dropSnapshot(); // one entry only: another build's goes
  const cache = await caches.open(SNAPSHOT_CACHE);
  await cache.put(
    SNAPSHOT_URL,
    new Response(packed, {
      headers: {
        "content-type": "application/octet-stream",
        [KEY_HEADER]: key,
        [SIZE_HEADER]: String(size),
        [CHECK_HEADER]: String(checksum(packed)),
      },
    }),
  );
  return packed.byteLength;
}

/**
 * Whether a snapshot of this build is stored (a cheap look at its headers).
 * @param {string} key
 */
export function hasSnapshot(key) {
  return storedFor(SNAPSHOT_URL, key);
}

/**
 * Store the trial mark: a restore is about to start, or (`failed`) the start failed
 * while one was in trial; throws when the mark cannot be stored.
 * @param {boolean} failed
 */
function markTrial(failed) {
  const headers = { "content-type": "text/plain", ...(failed ? { [FAILED_HEADER]: "1" } : {}) };
  return withCache((cache) => cache.put(TRIAL_URL, new Response("", { headers })));
}

/**
 * The start failed while a restore was in trial: its mark says so, and the next read
 * drops the snapshot and makes no other of this build. Never throws.
 */
export async function failTrial() {
  try {
    await markTrial(true);
  } catch {
    // not stored: the mark stays as it was, and the next read drops the snapshot
  }
}

/**
 * The page rendered from a restored interpreter: the entry has proved itself and its
 * trial mark goes. Never throws.
 */
export async function proveSnapshot() {
  try {
    await withCache((cache) => cache.delete(TRIAL_URL));
  } catch {
    // not answering: the next start finds the mark and boots normally once
  }
}

/**
 * Whether a restore of this origin's snapshot is in trial (its mark is stored); false
 * when the store does not answer. Never throws.
 */
export async function inTrial() {
  try {
    return Boolean(await withCache((cache) => cache.match(TRIAL_URL)));
  } catch {
    return false;
  }
}

/**
 * Test-only: what a restore does when a test set __skylineRestoreFault on the page (the
 * main-thread path; a worker never sees it): "hang" never ends.
 * @param {Promise<unknown>} restoring
 */
function withTestFault(restoring) {
  if (/** @type {any} */ (globalThis).__skylineRestoreFault === "hang") {
    restoring.catch(() => {});
    return new Promise(() => {});
  }
  return restoring;
}

/**
 * PyScript's loadPyodide: the stored snapshot restored if there is a good one, else a
 * normal boot with the same options.
 * @template T
 * @param {(options: object) => Promise<T & {runPython: (code: string) => unknown}>} load
 *   Pyodide's loadPyodide
 * @param {object} options what PyScript passes, plus the build's own options
 * @param {string} key the build's snapshot key (scripts/build.py)
 * @param {Promise<Uint8Array | null>} [reading] readSnapshot(key) if already started (the
 *   interpreter module starts it when PyScript imports it, before PyScript calls this)
 * @returns {Promise<T>}
 */
export async function bootWithSnapshot(load, options, key, reading = readSnapshot(key)) {
  const bytes = await reading;
  if (bytes) {
    let marked = false;
    try {
      await markTrial(false);
      marked = true;
    } catch {
      report("unmarked"); // a restore no later start could tell from a proven one: none
    }
    if (marked) {
      try {
        const restoring = load({ ...options, _loadSnapshot: bytes });
        const pyodide = await Promise.race([withTestFault(restoring), timeout(RESTORE_TIMEOUT_MS)]);
        pyodide.runPython(AFTER_RESTORE(key));
        report("restored");
        return pyodide;
      } catch (err) {
        console.warn("skyline: the Python snapshot did not restore; starting normally", err);
        report("restore-failed");
        await refuseSnapshot(key);
      }
    }
  }
  return load(options);
}
