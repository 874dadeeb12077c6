// @ts-check
// The focus rules, applied after each render (they read the DOM it left). The dialog
// region holds at most one <dialog>, opened with showModal() (web/js/render.js); Tab
// stays inside it; when it goes, the focus returns to the element that had it before
// (found again by id, since regions are re-rendered). A render that replaces the
// focused element puts the focus back on the element with the same id, or on the best
// of fallbackSelectors(). A computer's move never steals the focus; it never lands on
// <body>.

import { hostNames } from "./bridge.js";
import { DOM, openDialog, region } from "./dom.js";

// Where the focus goes when the element that had it is gone or disabled, best first:
// a pending target, a die to choose, the main command, the yard, any command.
const fallbackSelectors = () => [
  `${region("players")} button.target`,
  `${region("turn")} button[data-action=${hostNames().die}]:not([disabled])`,
  `${region("turn")} .cmd.primary:not([disabled])`,
  `${region("supply")} button:not([disabled])`,
  `${region("turn")} button:not([disabled])`,
  // the log's own commands (not the chances chart's switch or points, further down)
  `${region("log")} button:not([disabled]):not(.chances-switch):not([data-action^=chances])`,
  "#btn-new",
];
const FOCUSABLE =
  "button:not([disabled]), input:not([disabled]), select:not([disabled]), " +
  "textarea:not([disabled]), a[href], [tabindex]:not([tabindex='-1'])";

const state = {
  lost: false, // a re-render replaced the focused element
  /** @type {string | null} its id */
  lostId: null,
  /** @type {string | null} id of the element focused when the dialog opened */
  openerId: null,
  /** @type {string | null} the dialog closed: "" or the opener's id */
  restore: null,
};

function activeId() {
  const active = document.activeElement;
  if (!active || active.tagName === "BODY" || !active.id) return null;
  return active.id;
}

/**
 * Whether the element can take the focus (inside `inside`, if given).
 * @param {Element | null} el
 * @param {Element | null} [inside]
 * @returns {el is HTMLElement | SVGElement}
 */
function usable(el, inside = null) {
  return (el instanceof HTMLElement || el instanceof SVGElement) &&
    !(/** @type {HTMLButtonElement} */ (el).disabled) &&
    el.getClientRects().length > 0 && (!inside || inside.contains(el));
}

/**
 * The elements inside `container` that can take the focus, in document order.
 * @param {Element} container
 */
function focusable(container) {
  return [...container.querySelectorAll(FOCUSABLE)].filter(
    /** @returns {el is HTMLElement | SVGElement} */ (el) => usable(el));
}

/**
 * A region is about to be replaced: note whether it holds the focus.
 * @param {Element} el
 */
export function noteRegionReplaced(el) {
  if (state.lost) return;
  const active = document.activeElement;
  if (active && el.contains(active)) {
    state.lost = true;
    state.lostId = activeId();
  }
}

/** A dialog opens: the element that had the focus gets it back when it closes. */
export function noteDialogOpened() {
  state.openerId = state.lostId || activeId();
}

/** The dialog closed: its opener gets the focus back. */
export function noteDialogClosed() {
  state.restore = state.openerId || "";
  state.openerId = null;
}

/**
 * Settle the focus after a render: elementId (the event's target or the controller's
 * choice) if usable; after a dialog closed, its opener first; if the render took the
 * focus, the element with the same id; else a sensible fallback. Without any of these
 * the focus stays where it is (computer moves never steal it).
 * @param {string | null} elementId
 */
export function focus(elementId) {
  const restore = state.restore;
  state.restore = null;
  const lost = state.lostId;
  const lostAny = state.lost;
  state.lostId = null;
  state.lost = false;
  const dialog = openDialog();
  const wanted = [];
  if (restore && !dialog) wanted.push(restore);
  if (elementId) wanted.push(elementId);
  if (lost) wanted.push(lost);
  const active = document.activeElement;
  const atBody = !active || active.tagName === "BODY";
  const settled = !atBody && (!dialog || dialog.contains(active));
  if (!wanted.length && restore === null && settled) return;
  if (!wanted.length && restore === null && atBody && !dialog && !lostAny) return;
  for (const name of wanted) {
    const el = document.getElementById(name);
    if (usable(el, dialog)) {
      el.focus();
      return;
    }
  }
  focusFallback(dialog);
}

/** @param {Element | null} [dialog] */
function focusFallback(dialog = null) {
  if (dialog) {
    const items = focusable(dialog);
    if (items.length) items[0].focus();
    return;
  }
  for (const selector of fallbackSelectors()) {
    for (const el of document.querySelectorAll(selector)) {
      if (usable(el)) {
        el.focus();
        return;
      }
    }
  }
}

/** A dialog opened before the page was shown could not take the focus: give it. */
export function settleDialogFocus() {
  const dialog = openDialog();
  if (dialog && !dialog.contains(document.activeElement)) {
    const first = document.getElementById(DOM.dialogFirst);
    if (usable(first, dialog)) first.focus();
    else focusFallback(dialog);
  }
}

/**
 * Tab and Shift+Tab cycle inside the open dialog.
 * @param {KeyboardEvent} event
 */
export function trapTab(event) {
  const dialog = openDialog();
  if (!dialog) return;
  const items = focusable(dialog);
  if (!items.length) return;
  const active = document.activeElement;
  const first = items[0];
  const last = items[items.length - 1];
  const back = event.shiftKey;
  const inside = Boolean(active) && dialog.contains(active);
  if (!inside || (back && active === first) || (!back && active === last)) {
    event.preventDefault();
    (back ? last : first).focus();
  }
}
