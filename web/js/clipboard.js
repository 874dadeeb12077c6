// @ts-check
// Clipboard and share sheet, for main.py (the worker has neither); each answers true
// when done.
//
// A copy must start during the player's click: WebKit refuses a clipboard write that
// arrives afterwards from the worker (through PyScript's handler). So a click on a
// command that copies (HOST_COMMANDS "copies") starts the write at once with the text
// still to come (a ClipboardItem of a promise, as Safari recommends); copy(text) from
// Python then supplies it. Where that is not offered or fails, copy writes the text.

/** @typedef {{supply: (text: string) => void, cancel: () => void, result: Promise<boolean>}} ClickCopy */

/** @type {ClickCopy | null} the latest click's write, waiting for its text */
let clickCopy = null;

/** A click on a command that copies: start the clipboard write now. */
export function startClickCopy() {
  clickCopy?.cancel();
  clickCopy = null;
  if (typeof ClipboardItem !== "function" || !navigator.clipboard?.write) return;
  /** @type {(text: string) => void} */
  let supply = () => {};
  /** @type {() => void} */
  let cancel = () => {};
  /** @type {Promise<string>} */
  const text = new Promise((resolve, reject) => {
    supply = resolve;
    cancel = () => reject(new Error("nothing to copy"));
  });
  try {
    const item = new ClipboardItem({
      "text/plain": text.then((value) => new Blob([value], { type: "text/plain" })),
    });
    const result = navigator.clipboard.write([item]).then(() => true, () => false);
    const started = { supply, cancel, result };
    clickCopy = started;
    // The command may copy nothing (no game open): the write must not wait for ever.
    setTimeout(() => started.cancel(), 10_000);
  } catch {
    // no ClipboardItem of a promise here: copy() writes the text itself
  }
}

/**
 * Copy `text`: into the write the click started, else directly.
 * @param {string} text
 */
export async function copy(text) {
  const started = clickCopy;
  clickCopy = null;
  if (started) {
    started.supply(text);
    if (await started.result) return true;
  }
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // refused, no permission, insecure context
  }
}

/**
 * The system share sheet (Web Share API).
 * @param {string} url
 * @param {string} title
 */
export async function share(url, title) {
  try {
    await navigator.share({ url, title });
    return true;
  } catch {
    return false; // cancelled, refused
  }
}

export const canShare = () => typeof navigator.share === "function";
