// @ts-check
// No dead click: presses made on the painted page before Python is ready are queued in
// order, and Python plays them into its first render (takeEarly, from main.py); those
// made while it renders are played right after (web/js/bridge.js, playEarly). The
// welcome's own choices show their screen at once (web/js/preboard.js); any other
// pressed control shows that it waits (.queued, aria-busy) until then. A key is queued
// as it is. Pressing a control that already waits counts once, and so does a press the
// same as the one queued just before it (two Rules presses open one Rules dialog). A
// start that begins again at once (web/js/loading.js: a failed restore of the
// interpreter's snapshot) takes the presses along through sessionStorage.

import { follow } from "./preboard.js";
import { openRules } from "./rules.js";
import { caretOf, putCaret } from "./typing.js";

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
  // the welcome's own choices show their screen at once (web/js/preboard.js): queued
  // as made, each one counts (Menu twice opens and closes it), nothing is pending
  const followed = follow(data, event, openRules);
  if (followed === "rules") return; // the prerendered rules; Python's take over if open
  if (followed) {
    presses.push({ data, event });
    return;
  }
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

/**
 * The presses queued so far, for Python to play into its first render (main.py), as
 * JSON of PageEvent[]; their controls no longer show that they wait.
 */
export function takeEarly() {
  resume = focusedField();
  return JSON.stringify(takePresses().map((press) => press.data));
}

/**
 * The field the player is in, and its caret.
 * @typedef {{id: string, start: number | null, end: number | null}} FocusedField
 */
/** @type {FocusedField | null} */
let resume = null;

/** @returns {FocusedField | null} */
function focusedField() {
  const el = document.activeElement;
  const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement;
  if (!field || !el.id) return null;
  const [start, end] = caretOf(el);
  return { id: el.id, start, end };
}

/** Once the page is ready: the field the player was in when Python took the presses
 * keeps the focus and the caret (the first render would have put it elsewhere). */
export function resumeFocus() {
  const kept = resume;
  resume = null;
  const el = kept ? document.getElementById(kept.id) : null;
  if (!kept || !(el instanceof HTMLElement) || el === document.activeElement) return;
  if (el.closest("[inert]")) return;
  el.focus();
  putCaret(el, kept.start, kept.end);
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
