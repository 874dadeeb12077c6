// @ts-check
// The render batch applied to the DOM: main.py's DomHost queues a render's DOM commands
// and sends them as one batch (JSON of DomCommand[]), as the answer to an event
// (web/js/bridge.js) or by its own call (skylineHost.apply). They are applied in order;
// then the skyline cues are updated (web/js/layout.js) and what the actions did moves
// and sounds (web/js/effects.js: the `cue` command comes before the regions' HTML).

import { playEarly, send } from "./bridge.js";
import { DOM, regionId } from "./dom.js";
import { noteCues, playCues } from "./effects.js";
import { download } from "./files.js";
import { focus, noteDialogClosed, noteDialogOpened, noteRegionReplaced, settleDialogFocus }
  from "./focus.js";
import { fitSkylines, markSkylineOverflow, showActiveSeat } from "./layout.js";
import { connectLive } from "./live-page.js";
import { refusedOutcome, storageRemove, storageSet, storageWriteIf } from "./storage.js";
import { keepTyped, typedFields } from "./typing.js";

/**
 * One DOM command from main.py's DomHost (its `command(...)` calls), by name.
 * @typedef {["html", string, string] | ["announce", string] | ["focus", string | null]
 *   | ["settle"] | ["lang", string] | ["scroll", string] | ["reveal", string]
 *   | ["clearFragment"] | ["download", string, string] | ["ready", string, string]
 *   | ["cue", string] | ["store", string, string | null]
 *   | ["save", number, string, string | null, string, string]
 *   | ["patch", string, string, Splice[]] | ["liveJoin", string] | ["liveSend", string, string]
 *   | ["liveLeave"]} DomCommand
 */
/**
 * One edit of an element's children (web/app/core/region_edits.py, Splice): the id of
 * the element, the first child replaced, how many, the HTML put there, and how many
 * children the element has before.
 * @typedef {[string, number, number, string, number]} Splice
 */
/**
 * A handler per command name, taking the command's arguments.
 * @typedef {{[C in DomCommand as C[0]]: (...args: Tail<C>) => void}} CommandTable
 */
/**
 * @template {unknown[]} T
 * @typedef {T extends [unknown, ...infer R] ? R : never} Tail
 */

const PLAYERS = regionId("players");
/**
 * The live table (web/js/live-page.js): nothing loads or connects before Python's first
 * liveJoin, which imports the transport (the build's own js/live.js, with its npm
 * library: no page entry holds a copy). What happens on it goes to Python as LiveEvents.
 */
const live = connectLive(
  () => import("./live.js"),
  (event) => send(event, new Event("skyline:live")),
);
/**
 * The players' region once a batch replaced it: its strip is turned to the seat to show
 * after the batch's last region, so the layout is worked out once, not once mid-batch.
 * @type {Element | null}
 */
let seatsToShow = null;
/** Whether this render drew the skylines again: only then are they fitted (a read of
 * their layout, not to be paid on every click). */
let skylinesDrawn = false;

/**
 * A region's new HTML (made by the Python views, which escape every text).
 * @param {string} name the region's id (web/app/core/dom.py, REGIONS)
 * @param {string} html
 */
function setHtml(name, html) {
  const el = document.getElementById(name);
  if (!el) throw new Error(`skyline: no region #${name}`);
  noteRegionReplaced(el);
  if (name === DOM.dialog) setDialog(el, html);
  else el.innerHTML = html;
  if (name === PLAYERS) {
    seatsToShow = el;
    skylinesDrawn = true;
  }
}

/**
 * A region's new HTML as edits of what it shows (the game log: the lines added on top;
 * the skylines: those that changed), or whole where the region shows something else
 * than the edits expect.
 * @param {string} name the region's id
 * @param {string} html the region's whole new HTML
 * @param {Splice[]} splices
 */
function patchHtml(name, html, splices) {
  for (const [id, start, deleted, added, count] of splices) {
    const el = document.getElementById(id);
    if (!el || el.children.length !== count) {
      setHtml(name, html);
      return;
    }
    for (const child of [...el.children].slice(start, start + deleted)) {
      noteRegionReplaced(child);
      child.remove();
    }
    const template = document.createElement("template");
    template.innerHTML = added;
    el.insertBefore(template.content, el.children[start] ?? null);
  }
  if (name === PLAYERS) {
    seatsToShow = document.getElementById(name);
    skylinesDrawn = true;
  }
}

/** The phone's strip of skylines turned to the seat to show (web/js/layout.js). */
function showSeatOnce() {
  if (seatsToShow) showActiveSeat(seatsToShow);
  seatsToShow = null;
}

/**
 * The dialog region holds at most one <dialog>, opened with showModal(): the page
 * behind is inert; Escape arrives as a keydown for the controller (the dialog's own
 * cancel is prevented, web/js/events.js, so the page state stays the truth).
 * @param {HTMLElement} region
 * @param {string} html
 */
function setDialog(region, html) {
  const old = region.querySelector("dialog");
  if (!old) {
    if (html) {
      noteDialogOpened();
      region.innerHTML = html;
      region.querySelector("dialog")?.showModal();
    }
    return;
  }
  if (!html) {
    if (old.open) old.close();
    region.innerHTML = "";
    noteDialogClosed();
    return;
  }
  const template = document.createElement("template");
  template.innerHTML = html;
  const fresh = /** @type {HTMLDialogElement} */ (template.content.firstElementChild);
  const same = old.getAttribute("data-testid") === fresh.getAttribute("data-testid");
  if (same && old.open) {
    // the same dialog: it stays open and modal, and what the player is typing stays
    const typed = typedFields(old);
    old.innerHTML = fresh.innerHTML;
    keepTyped(old, typed);
  } else {
    if (old.open) old.close();
    region.replaceChildren(fresh);
    fresh.showModal();
  }
}

/** @type {CommandTable} */
const COMMANDS = {
  html: setHtml,
  patch: patchHtml,
  // The one polite live region: only its text changes (main.py words it).
  announce: (text) => {
    const live = document.getElementById(DOM.announce);
    if (live) live.textContent = text;
  },
  focus,
  settle: settleDialogFocus,
  lang: (lang) => {
    document.documentElement.lang = lang;
  },
  scroll: (id) => document.getElementById(id)?.scrollIntoView(),
  // Just enough that the element is on screen (a build target below the fold on a
  // phone, or beyond the edge of a sideways-scrolling skyline).
  reveal: (id) => document.getElementById(id)?.scrollIntoView({ block: "nearest", inline: "nearest" }),
  clearFragment: () => history.replaceState(null, "", location.pathname + location.search),
  download,
  // The move's save (main.DomHost.storage_write_soon): compare and write as a round trip
  // would, and tell Python only what was not written (another tab wrote; store full).
  save: (id, key, expected, value, also) => {
    /** @type {string} */
    let outcome;
    try {
      outcome = storageWriteIf(key, expected, value, also);
    } catch (err) {
      outcome = refusedOutcome(err);
    }
    if (outcome !== "written") send({ kind: "saved", id, outcome }, new Event("skyline:saved"));
  },
  // What may be lost without harm (the dice selected), kept with the render: no round
  // trip from the worker; a full or blocked store only loses it.
  store: (key, value) => {
    try {
      if (value === null) storageRemove(key);
      else storageSet(key, value);
    } catch {
      // nothing to say: the game's own save reports a store that fails
    }
  },
  // A live table (web/js/live-page.js): join the room of a secret (leaving another),
  // send to a device or to every one (""), leave.
  liveJoin: live.join,
  liveSend: live.send,
  liveLeave: live.leave,
  // What the latest actions did (JSON, app.core.cues): pictures of what is about to go
  // now, the motion and the sounds once the batch is applied.
  cue: noteCues,
  // Contract with web/js/boot.js and the e2e tests: the app is usable from here on.
  ready: (start, marks) => {
    // how Python started (main.DomHost.ready): "restored" from the memory snapshot or not
    document.documentElement.dataset.pythonStart = start;
    // the moments of Python's start (main.start_mark: ms since the epoch), on this
    // page's timeline for scripts/bench_phone.py
    try {
      for (const [name, at] of /** @type {[string, number][]} */ (JSON.parse(marks))) {
        performance.mark(`skyline:${name}`, { startTime: Math.max(0, at - performance.timeOrigin) });
      }
    } catch {
      // figures only
    }
    document.body.dataset.ready = "1";
    // for scripts/bench_web.py --engines: when, since the navigation, in any engine
    performance.mark("skyline:ready");
    setTimeout(playEarly);
  },
};

/**
 * One batch of commands, in order.
 * @param {string} json DomCommand[] as JSON
 */
export function apply(json) {
  for (const command of /** @type {DomCommand[]} */ (JSON.parse(json))) {
    const [name, ...args] = command;
    if (name !== "html") showSeatOnce(); // before the focus, as when it ran with the html
    const handler = /** @type {(...args: unknown[]) => void} */ (COMMANDS[name]);
    handler(...args);
  }
  if (skylinesDrawn) fitSkylines();
  skylinesDrawn = false;
  showSeatOnce();
  markSkylineOverflow();
  playCues();
}
