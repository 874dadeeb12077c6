// @ts-check
// The screens before the board answer without Python. A first visit paints the welcome
// the build prerendered; its own choices — the menu, the language, Learn to play,
// closing the dialog, New game, the number of players, Escape — lead to screens the
// build also rendered with the page's own Controller (scripts/preboard.py, the data
// block #preboard in index.html). A press on them before Python is ready shows its
// screen at once, in the same task as the press, and is queued as every early press
// is (web/js/early.js): Python plays the queue into its first render, so it shows the
// same screen and nothing jumps. What the player types stays in the fields (a screen
// redrawn keeps the typing, web/js/typing.js) and reaches Python with the presses or
// the next change. A press that leads anywhere else (Start, the daily challenge, a die)
// is only queued, shown pending; from then on the screens wait for Python.

import { DOM } from "./dom.js";
import { clearOfTheBar } from "./paint.js";
import { keepTyped, typedFields } from "./typing.js";
import { translateBootTexts } from "./strings.js";

/**
 * @typedef {object} Screen
 * @property {string} lang
 * @property {Record<string, number>} regions each region's HTML (an index into html)
 * @property {string | null} focus the id the render focused, if any
 */
/**
 * @typedef {object} Graph
 * @property {string[]} html
 * @property {Screen[]} screens
 * @property {Record<string, number>[]} moves per screen: press key -> screen
 * @property {Record<string, number>} start each language's welcome
 */

/** @type {Graph | null} */
let graph = null;
/** The screen on show, or null: not a prerendered one (Python will decide). */
let current = /** @type {number | null} */ (null);

/**
 * The painted page is the welcome of `lang`: its presses may lead to prerendered screens.
 * @param {string} lang
 */
export function startScreens(lang) {
  try {
    const data = document.getElementById("preboard")?.textContent;
    graph = data ? /** @type {Graph} */ (JSON.parse(data)) : null;
  } catch {
    graph = null; // a damaged page: every press simply waits for Python
  }
  current = graph?.start[lang] ?? null;
}

/**
 * The key scripts/preboard.py (press_key) gives the same press, "" for a change of a
 * form's field that is no move (a name, a seat: the field itself shows it), null for a
 * press the screens do not know.
 * @param {import("./bridge.js").PageEvent} data
 * @param {Event} event
 * @returns {string | null}
 */
function pressKey(data, event) {
  const target = event.target;
  if (data.kind === "click") {
    // a click into a field (to type in it) shows nothing new
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return "";
    return `click ${data.action ?? ""} ${data.arg ?? ""}`.trimEnd();
  }
  if (data.kind === "keydown") {
    if (data.key === "Escape") return "key Escape";
    return ""; // before the board no other key changes the screen (the rules open apart)
  }
  if (data.kind === "change") {
    if (target instanceof HTMLSelectElement && target.name === "count") {
      return `change count ${target.value}`;
    }
    return "";
  }
  return null;
}

/**
 * A press made before Python is ready: its screen, if the build rendered one.
 * "moved": its screen is shown; "edit": a change of a form's field (the field shows it);
 * "rules": the prerendered rules are open (web/js/rules.js); null: the screens do not
 * know it (it waits for Python, shown pending).
 * @param {import("./bridge.js").PageEvent} data
 * @param {Event} event
 * @param {() => void} openRules
 * @returns {"moved" | "edit" | "rules" | null}
 */
export function follow(data, event, openRules) {
  if (current === null || !graph) return null;
  if (data.kind === "click" && data.action === "rules") {
    openRules();
    return "rules";
  }
  const key = pressKey(data, event);
  if (key === "") return "edit";
  const next = key === null ? undefined : graph.moves[current]?.[key];
  if (next === undefined) {
    current = null; // Python decides what this press shows
    return null;
  }
  show(graph, graph.screens[current], graph.screens[next]);
  current = next;
  return "moved";
}

/**
 * @param {Graph} data
 * @param {Screen} was
 * @param {Screen} screen
 */
function show(data, was, screen) {
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const activeId = active?.id || null;
  for (const [name, index] of Object.entries(screen.regions)) {
    if (was.regions[name] === index) continue;
    const region = document.getElementById(name);
    if (!region) continue;
    if (name === DOM.dialog) showDialog(region, data.html[index]);
    else region.innerHTML = data.html[index];
  }
  if (screen.lang !== was.lang) {
    document.documentElement.lang = screen.lang;
    translateBootTexts(screen.lang); // the "Starting…" bar, and a failure's message
  }
  clearOfTheBar();
  const focusId = screen.focus || activeId;
  const target = focusId ? document.getElementById(focusId) : null;
  if (target && target !== document.activeElement) target.focus();
}

/**
 * The painted dialog becomes the screen's (the same dialog redrawn keeps the typing).
 * @param {HTMLElement} region
 * @param {string} html
 */
function showDialog(region, html) {
  const old = region.querySelector("dialog");
  const template = document.createElement("template");
  template.innerHTML = html;
  const fresh = template.content.firstElementChild;
  if (old && fresh && old.getAttribute("data-testid") === fresh.getAttribute("data-testid")) {
    const typed = typedFields(old);
    old.innerHTML = fresh.innerHTML;
    keepTyped(old, typed);
    return;
  }
  region.replaceChildren(template.content);
}
