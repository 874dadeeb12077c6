// @ts-check
// One delegated listener (click, keydown, change, submit on the document; hashchange
// and storage on the window) reduces each event to data for Python (a PageEvent:
// data-action/data-arg, a key, a form's values) and sends it (web/js/bridge.js).
// What must happen while the event is dispatched happens here: preventDefault for a
// form's submit and a dialog's cancel, the Tab trap inside the open dialog, and the
// start of the clipboard write for a command that copies.

import { connected, hostNames, send } from "./bridge.js";
import { startClickCopy } from "./clipboard.js";
import { readFile } from "./files.js";
import { trapTab } from "./focus.js";

/**
 * @param {HTMLFormElement | null} form
 * @returns {import("./bridge.js").FormValues}
 */
function formValues(form) {
  return form ? Object.fromEntries(new FormData(form)) : {};
}

/** @param {Event} event */
function onEvent(event) {
  const kind = event.type;
  const target = event.target instanceof Element ? event.target : null;
  if (kind === "submit") {
    event.preventDefault();
    const action = target?.getAttribute("data-submit");
    if (action !== null && action !== undefined) {
      const form = target instanceof HTMLFormElement ? target : null;
      send({ kind, action, form: formValues(form) }, event);
    }
    return;
  }
  if (kind === "keydown") {
    const key = /** @type {KeyboardEvent} */ (event);
    if (key.key === "Tab") {
      trapTab(key);
      return;
    }
    const tag = target?.tagName || "";
    send({ kind, key: key.key, in_field: ["INPUT", "SELECT", "TEXTAREA"].includes(tag) }, event);
    return;
  }
  if (kind !== "click" && kind !== "change") return;
  const el = target?.closest("[data-action]");
  if (!el) return;
  const action = el.getAttribute("data-action");
  const arg = el.getAttribute("data-arg");
  const names = hostNames();
  /** @type {import("./bridge.js").FormValues | null} */
  let form = null;
  if (action !== null && names.sendsForm.includes(action)) {
    form = formValues(el.closest("form"));
  } else if (el instanceof HTMLSelectElement) {
    if (kind !== "change") return;
    form = { value: el.value };
  } else if (el instanceof HTMLInputElement && el.type === "file") {
    if (kind === "change") readFile(el, event);
    return;
  }
  if (kind === "click" && action !== null && names.copies.includes(action)) startClickCopy();
  send({ kind, action, arg, form, target_id: el.id || null }, event);
}

/** The page's listeners, installed once. */
export function listen() {
  for (const kind of ["click", "keydown", "change", "submit"]) {
    document.addEventListener(kind, onEvent);
  }
  // Escape on a modal <dialog>: the keydown already handled it (cancel does not bubble).
  document.addEventListener("cancel", (event) => event.preventDefault(), true);
  // Before Python is ready neither is queued: its start reads the fragment and storage.
  window.addEventListener("hashchange", (event) => {
    if (connected()) send({ kind: "hashchange", hash: location.hash }, event);
  });
  // Another tab wrote to storage: main.py decides whether it was a game.
  window.addEventListener("storage", (event) => {
    if (connected() && event.key !== null) send({ kind: "storage", key: event.key }, event);
  });
}
