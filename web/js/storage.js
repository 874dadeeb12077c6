// @ts-check
// localStorage for main.py (web/app/core/store.py behind the host port): one
// synchronous call per access, so a full or blocked store fails where the controller
// expects it (the exception reaches Python).

/** @param {string} key */
export const storageGet = (key) => localStorage.getItem(key);

/**
 * @param {string} key
 * @param {string} value
 */
export const storageSet = (key, value) => localStorage.setItem(key, value);

/**
 * Per key, the last write the store refused, and what was stored (expected) then: saves
 * go with the render, so the next may be sent expecting the refused one.
 * @type {Map<string, {value: string, expected: string | null}>}
 */
const unwritten = new Map();

/**
 * Compare and write in one call (store.Store.write_save), then the other pairs (the game
 * list's index): one crossing from the worker for a whole save. "conflict": another tab
 * wrote, nothing is written; "partial": `key` is written but another pair was refused
 * (the store is full); a refused `key` throws, as storageSet does.
 * @param {string} key
 * @param {string | null} expected the text this tab last saw (null: none)
 * @param {string} value
 * @param {string} [also] JSON of [key, value] pairs written after `key`
 * @returns {"written" | "conflict" | "partial"}
 */
export function storageWriteIf(key, expected, value, also = "[]") {
  const stored = localStorage.getItem(key);
  // a save sent before Python heard that the one before it was refused expects that one
  const refused = unwritten.get(key);
  const base = refused && expected === refused.value ? refused.expected : expected;
  if (stored !== null && stored !== base) return "conflict";
  try {
    localStorage.setItem(key, value);
  } catch (err) {
    unwritten.set(key, { value, expected: base });
    throw err;
  }
  unwritten.delete(key);
  try {
    for (const [other, text] of /** @type {[string, string][]} */ (JSON.parse(also))) {
      localStorage.setItem(other, text);
    }
  } catch {
    return "partial";
  }
  return "written";
}

/**
 * How a refused save is answered (app.core.store.refusal reads it): "full" when the
 * store's space is used up (QuotaExceededError; older Firefox's code), else "failed".
 * @param {unknown} err
 * @returns {"full" | "failed"}
 */
export function refusedOutcome(err) {
  const name = err instanceof DOMException ? err.name : "";
  return name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED" ? "full" : "failed";
}

/** @param {string} key */
export const storageRemove = (key) => localStorage.removeItem(key);

/** Every key, as JSON. */
export const storageKeys = () => JSON.stringify(Object.keys(localStorage));

/**
 * Keep this site's storage when space runs low (a browser may ask the player; the
 * answer may never come, e.g. a prompt left open).
 * @returns {Promise<"granted" | "denied" | "unsupported">}
 */
export async function persistStorage() {
  const storage = navigator.storage;
  if (!storage?.persist) return "unsupported";
  try {
    if (await storage.persisted()) return "granted";
    return (await storage.persist()) ? "granted" : "denied";
  } catch {
    return "denied";
  }
}
