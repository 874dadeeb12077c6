// @ts-check
// No dead click: presses made on the painted page before Python is ready are queued in
// order and played once it is (web/js/bridge.js, playEarly). The pressed control
// shows that it waits (.queued, aria-busy) until then; the first render replaces it.
// A key is queued as it is. Pressing a control that already waits counts once, and so
// does a press the same as the one queued just before it (two Rules presses open one
// Rules dialog). A start that begins again at once (web/js/loading.js: a failed restore
// of the interpreter's snapshot) takes the presses along through sessionStorage.

/** @typedef {{data: import("./bridge.js").PageEvent, event: Event}} Press */

/** sessionStorage: the presses a start that began again took along. */
const STASH = "skyline-start-presses";

/** The presses that are queued (and may be taken along). */
const PRESS_KINDS = ["click", "change", "submit", "keydown"];

/** @type {Press[]} */
let presses = [];

/**
 * @param {import("./bridge.js").PageEvent} data
 * @param {Event} event
 */
export function queuePress(data, event) {
  const target = event.target;
  const control = data.kind === "keydown" || !(target instanceof Element) ? null
    : target.closest("[data-action], [data-submit]");
  if (control?.classList.contains("queued")) return;
  const last = presses.at(-1);
  if (last && JSON.stringify(last.data) === JSON.stringify(data)) return;
  presses.push({ data, event });
  control?.classList.add("queued");
  control?.setAttribute("aria-busy", "true");
}

/** The queued presses, in order; their controls no longer show that they wait. */
export function takePresses() {
  const taken = presses;
  presses = [];
  for (const el of document.querySelectorAll(".queued")) {
    el.classList.remove("queued");
    el.removeAttribute("aria-busy");
  }
  return taken;
}

/** The page starts again: its queued presses wait in sessionStorage for that start. */
export function stashPresses() {
  try {
    if (presses.length) sessionStorage.setItem(STASH, JSON.stringify(presses.map((p) => p.data)));
  } catch {
    // blocked or full: the presses are lost with the page, as a reload loses them
  }
}

/** At the start: the presses a start that began again took along, queued first. */
export function unstashPresses() {
  try {
    const stashed = sessionStorage.getItem(STASH);
    sessionStorage.removeItem(STASH);
    const list = JSON.parse(stashed || "[]");
    if (!Array.isArray(list)) return;
    for (const data of list) {
      if (data && typeof data === "object" && PRESS_KINDS.includes(data.kind)) {
        presses.push({ data, event: new Event("skyline:replayed") });
      }
    }
  } catch {
    // unreadable: nothing to replay
  }
}
