// @ts-check
// No dead click: presses made on the painted page before Python is ready are queued in
// order and played once it is (web/js/bridge.js, playEarly). The pressed control
// shows that it waits (.queued, aria-busy) until then; the first render replaces it.
// A key is queued as it is. Pressing a control that already waits counts once.

/** @typedef {{data: import("./bridge.js").PageEvent, event: Event}} Press */

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
