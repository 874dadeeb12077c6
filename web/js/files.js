// @ts-check
// Games as files: an export is saved through a blob: URL on a temporary <a download>;
// a game file chosen for import is read here and its text goes to the controller.

import { hold, hostNames, send } from "./bridge.js";

/**
 * A blob: URL of `text` (main.DomHost.download_url).
 * @param {string} text
 */
export function blobURL(text) {
  return URL.createObjectURL(new Blob([text], { type: "application/json" }));
}

/**
 * Save `text` as a file (main.DomHost.download).
 * @param {string} filename
 * @param {string} text
 */
export function download(filename, text) {
  const link = document.createElement("a");
  link.href = blobURL(text);
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * A game file chosen for import (a change on an <input type=file>): its text goes to
 * the controller as the import command's form; a file over the limit
 * (app.core.commands.IMPORT_LIMIT_BYTES) unread, with its size, which the controller
 * names.
 * @param {HTMLInputElement} input
 * @param {Event} event
 */
export async function readFile(input, event) {
  const file = input.files?.[0];
  if (!file) return;
  const release = hold(); // settled() waits for the file too
  try {
    const { importText, importLimit } = hostNames();
    /** @type {import("./bridge.js").FormValues} */
    const form = file.size > importLimit ? { text: "", bytes: String(file.size) }
      : { text: await file.text() };
    input.value = "";
    send({ kind: "click", action: importText, arg: null, form }, event);
  } finally {
    release();
  }
}
