// @ts-check
// The DOM ids that the page's Python, this JS and the build share. They are written
// once in web/app/core/dom.py, and scripts/build.py puts them on <html data-dom>, so
// the three sides cannot drift apart. Ids that only index.html and this JS use
// (#loading, #boot-bar, #update, ...) stay where they are used.

/**
 * @typedef {object} DomIds what web/app/core/dom.py's as_json() writes
 * @property {string[]} regions the page's regions, each an element a render fills
 * @property {string[]} snapshotRegions the regions painted from the last render's
 *   picture before Python is up
 * @property {string} announce the live region that reads out what happened
 * @property {string} dialogFirst the element a dialog focuses first
 * @property {string} rulesButton the top bar's Rules button
 * @property {string} dialog the region that holds the open dialog
 * @property {string[]} pictureTags the elements a painted picture may hold
 * @property {string[]} pictureAttrs their attributes besides data-* and aria-*
 */

/** @returns {DomIds} */
function read() {
  /** @type {Partial<DomIds> | null} */
  const ids = JSON.parse(document.documentElement.dataset.dom || "null");
  if (!ids || !Array.isArray(ids.regions) || !Array.isArray(ids.snapshotRegions) ||
      !ids.announce || !ids.dialogFirst || !ids.rulesButton || !ids.dialog ||
      !Array.isArray(ids.pictureTags) || !Array.isArray(ids.pictureAttrs)) {
    throw new Error("skyline: <html data-dom> is missing or incomplete (scripts/build.py)");
  }
  return /** @type {DomIds} */ (ids);
}

export const DOM = read();

/**
 * The id of one of the page's regions, checked against dom.py's REGIONS, so a region
 * renamed there fails here at once instead of matching nothing.
 * @param {string} name
 */
export function regionId(name) {
  if (!DOM.regions.includes(name)) throw new Error(`skyline: no region "${name}" in data-dom`);
  return name;
}

/**
 * The CSS selector of one of the page's regions (regionId).
 * @param {string} name
 */
export function region(name) {
  return `#${regionId(name)}`;
}

/**
 * An element of index.html the page cannot work without.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function element(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`skyline: no #${id} in the page`);
  return el;
}

/** The open dialog in the dialog region, if any. */
export function openDialog() {
  return /** @type {HTMLDialogElement | null} */ (
    document.querySelector(`#${DOM.dialog} dialog[open]`));
}

/** Whether the app is usable: main.py's "ready" command sets body[data-ready]. */
export function isReady() {
  return document.body?.dataset.ready === "1";
}
