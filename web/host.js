// The page's half of the host. main.py runs in a Web Worker (PyScript worker mode), so
// the page's main thread never runs Python: it only turns DOM events into plain data
// for the worker and applies the worker's commands to the DOM. Every access the worker
// makes to the page (pyscript.window/document) is a synchronous round trip through
// Atomics, costing 0.1-5 ms (more on a busy machine), so the worker makes few: one
// message per event (this file reduces the event to JSON) answered with the render's
// DOM commands in one batch, and one call per localStorage write (kept synchronous, as
// the Controller's save after every move needs; failures reach Python as exceptions).
//
// Everything that must happen while the event is dispatched happens here: preventDefault
// for a form's submit and a dialog's cancel, and the Tab trap inside the open dialog.
// The focus rules (where the focus goes after a render, a dialog's opener, the fallbacks)
// live here too, since they read the DOM after each render.
//
// Contract with main.py (DomHost): skylineHost.connect(dispatch, stats, bots) once
// Python is ready; dispatch(json) handles one event and answers with its render's DOM
// commands (applied here as the answer arrives); apply(json) is the worker's call for
// renders of its own (timers, downloads that arrived). Contract with the tests and benches:
// skylineHost.settled() resolves once every event dispatched so far has been handled;
// "skyline:handled" (on window, detail.event = the DOM event) follows each one;
// window.skylineStats() / window.skylineBots(command, arg) return promises.
(() => {
// The standard library as bytecode (no compiling at start-up) when the service worker
// controls the page (it has the archive precached): pyscript-pyc.json names the loader
// that asks for it. The worker that runs the loader cannot see the service worker, so
// the choice is made here, before PyScript reads the attribute (boot.js fetches the
// same archive). A first visit loads the smaller sources.
{
  const pyc = document.documentElement.dataset.configPyc;
  const script = document.querySelector("script[type=py]");
  if (pyc && script && navigator.serviceWorker?.controller) {
    script.setAttribute("config", `./${pyc}`);
  }
  // PyScript's worker reaches the page through SharedArrayBuffer, which needs a
  // cross-origin isolated page (the COOP/COEP headers) and an engine that offers it
  // there (WebKitGTK does not). Without it Python runs on the main thread: the same
  // main.py and host port, the calls are direct instead of round trips.
  const worker = self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  if (script && !worker) {
    script.removeAttribute("worker");
    document.querySelector("py-config")?.remove(); // the script's config is the main one now
  }
  document.documentElement.dataset.python = worker ? "worker" : "main";
}

// Where the focus goes when the element that had it is gone or disabled, best first:
// a pending target, a die to choose, the main command, the yard, any command.
const fallbackSelectors = () => [
  "#players button.target",
  `#turn button[data-action=${commands.die}]:not([disabled])`,
  "#turn .cmd.primary:not([disabled])",
  "#supply button:not([disabled])",
  "#turn button:not([disabled])",
  "#log button:not([disabled])",
  "#btn-new",
];
const FOCUSABLE =
  "button:not([disabled]), input:not([disabled]), select:not([disabled]), " +
  "textarea:not([disabled]), a[href], [tabindex]:not([tabindex='-1'])";
const IMPORT_LIMIT = 2_000_000; // characters; far beyond any saved game

// --- DOM commands from the worker ---------------------------------------------
// The dialog region holds at most one <dialog>, opened with showModal() (the page
// behind is inert; Escape arrives as a keydown for the controller, the dialog's own
// cancel is prevented so the page state stays the truth); Tab is kept inside it; when
// it goes, the focus returns to the element that had it before (found again by id,
// since regions are re-rendered). A render that replaces the focused element puts the
// focus back on the element with the same id, or on the best of fallbackSelectors().
const focusState = {
  lost: false, // a re-render replaced the focused element
  lostId: null, // its id
  openerId: null, // id of the element focused when the dialog opened
  restore: null, // the dialog closed: "" or the opener's id
};

function activeId() {
  const active = document.activeElement;
  if (!active || active.tagName === "BODY" || !active.id) return null;
  return active.id;
}
const openDialog = () => document.querySelector("#dialog dialog[open]");
function usable(el, inside = null) {
  return Boolean(el) && !el.disabled && el.getClientRects().length > 0 &&
    (!inside || inside.contains(el));
}

function setHtml(name, html) {
  const el = document.getElementById(name);
  if (!focusState.lost) {
    const active = document.activeElement;
    if (active && el.contains(active)) {
      focusState.lost = true;
      focusState.lostId = activeId();
    }
  }
  if (name === "dialog") setDialog(el, html);
  else el.innerHTML = html;
  if (name === "players") showActiveSeat(el);
}

// On a phone the skylines are one sideways strip in seat order (style.css, "the table
// on a phone"): a new render of it shows the player to move. Seats never move; only
// the strip's view does. Elsewhere the strip does not scroll and this does nothing.
// A new turn on a phone starts at the top: the table (style.css) fits one screen there.
const phone = matchMedia("(max-width: 480px)");
let shownTurn = "";
function showActiveSeat(region) {
  const seat = region.querySelector(".player.active");
  const strip = seat?.parentElement;
  if (!strip) return;
  const turn = `${seat.dataset.testid} ${document.querySelector("[data-testid=round]")?.textContent}`;
  if (turn !== shownTurn && phone.matches) scrollTo({ top: 0, behavior: "instant" });
  shownTurn = turn;
  if (strip.scrollWidth <= strip.clientWidth) return;
  const left = seat.getBoundingClientRect().left - strip.getBoundingClientRect().left;
  strip.scrollTo({ left: strip.scrollLeft + left, behavior: "instant" });
}

function setDialog(region, html) {
  const old = region.querySelector("dialog");
  if (!old) {
    if (html) {
      focusState.openerId = focusState.lostId || activeId();
      region.innerHTML = html;
      region.querySelector("dialog").showModal();
    }
    return;
  }
  if (!html) {
    if (old.open) old.close();
    region.innerHTML = "";
    focusState.restore = focusState.openerId || "";
    focusState.openerId = null;
    return;
  }
  const template = document.createElement("template");
  template.innerHTML = html;
  const fresh = template.content.firstElementChild;
  const same = old.getAttribute("data-testid") === fresh.getAttribute("data-testid");
  if (same && old.open) {
    old.innerHTML = fresh.innerHTML; // the same dialog: it stays open and modal
  } else {
    if (old.open) old.close();
    region.replaceChildren(fresh);
    fresh.showModal();
  }
}

// Settle the focus after a render: elementId (the event's target or the controller's
// choice) if usable; after a dialog closed, its opener first; if the render took the
// focus, the element with the same id; else a sensible fallback. Without any of these
// the focus stays where it is (computer moves never steal it).
function focus(elementId) {
  const restore = focusState.restore;
  focusState.restore = null;
  const lost = focusState.lostId;
  const lostAny = focusState.lost;
  focusState.lostId = null;
  focusState.lost = false;
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

function focusFallback(dialog = null) {
  if (dialog) {
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => usable(el));
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

// A dialog opened before the page was shown could not take the focus: give it.
function settleDialogFocus() {
  const dialog = openDialog();
  if (dialog && !dialog.contains(document.activeElement)) {
    const first = document.getElementById("dlg-first");
    if (usable(first, dialog)) first.focus();
    else focusFallback(dialog);
  }
}

// Tab and Shift+Tab cycle inside the open dialog.
function trapTab(event) {
  const dialog = openDialog();
  if (!dialog) return;
  const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => usable(el));
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

// Save text as a file: a blob: URL on a temporary <a download>.
function blobURL(text) {
  return URL.createObjectURL(new Blob([text], { type: "application/json" }));
}
function download(filename, text) {
  const link = document.createElement("a");
  link.href = blobURL(text);
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

const COMMANDS = {
  html: setHtml,
  // The one polite live region (#announce): only its text changes (main.py words it).
  announce: (text) => {
    document.getElementById("announce").textContent = text;
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
  // Contract with boot.js and the e2e tests: the app is usable from here on.
  ready: (start) => {
    // how Python started (main.DomHost.ready): "restored" from the memory snapshot or not
    document.documentElement.dataset.pythonStart = start;
    document.body.dataset.ready = "1";
    // for scripts/bench_web.py --engines: when, since the navigation, in any engine
    performance.mark("skyline:ready");
    setTimeout(playEarly);
  },
};

// One batch of commands, [[name, ...args], ...], in order.
function apply(json) {
  for (const [name, ...args] of JSON.parse(json)) COMMANDS[name](...args);
  markSkylineOverflow();
}

// A skyline wider than its box scrolls sideways: the side where buildings are out of
// sight says so (data-more="left right", a fade and an arrow in style.css), after
// every render, scroll and resize, so no building is hidden without a cue.
function markSkylineOverflow(streets = document.querySelectorAll(".art-street")) {
  for (const street of streets) {
    const hidden = street.scrollWidth - street.clientWidth;
    const more = [];
    if (hidden > 1 && street.scrollLeft > 1) more.push("left");
    if (hidden > 1 && street.scrollLeft < hidden - 1) more.push("right");
    const value = more.join(" ");
    if ((street.dataset.more || "") !== value) {
      if (value) street.dataset.more = value;
      else delete street.dataset.more;
    }
  }
}
document.addEventListener("scroll", (event) => {
  if (event.target instanceof Element && event.target.matches(".art-street")) {
    markSkylineOverflow([event.target]);
  }
}, { capture: true, passive: true });
window.addEventListener("resize", () => markSkylineOverflow());

// --- events to the worker -------------------------------------------------------
let py = null; // { dispatch, stats, bots }: the worker's entry points, once connected
// The command names this file sends or looks for (web/commands.py, HOST_COMMANDS):
// written into the page by scripts/build.py, so they are there before Python is (a
// render before connect() needs them for its focus fallbacks).
let commands = JSON.parse(document.documentElement.dataset.hostCommands || "{}");
let pending = 0; // events sent and not yet handled
let waiters = [];
// Presses made before Python was ready, in order: played once it is (no click lost).
// Their controls show that they wait (.queued); the first render replaces them.
let early = [];

function send(data, event) {
  if (!py) {
    // a key is queued as it is; a press marks its control, and pressing a control
    // that already waits again is still one press
    const control = data.kind === "keydown" ? null
      : event?.target?.closest?.("[data-action], [data-submit]");
    if (control?.classList.contains("queued")) return;
    early.push({ data, event });
    control?.classList.add("queued");
    control?.setAttribute("aria-busy", "true");
    return;
  }
  // Test-only fault hook (main.DomHost.fault): only a hint; Python reads and clears
  // window.__skylineFault itself when it reaches the fault point.
  if (Reflect.has(window, "__skylineFault")) data.fault = true;
  pending += 1;
  Promise.resolve(py.dispatch(JSON.stringify(data)))
    .then((batch) => {
      if (batch) apply(String(batch)); // the render's DOM commands
    })
    .catch((err) => console.error("skyline:", err))
    .finally(() => {
      pending -= 1;
      window.dispatchEvent(new CustomEvent("skyline:handled", { detail: { event } }));
      if (!pending) for (const resolve of waiters.splice(0)) resolve();
    });
}

function formValues(form) {
  return form ? Object.fromEntries(new FormData(form)) : {};
}

async function readFile(el, event) {
  // A game file chosen for import: its text goes to the controller.
  const file = el.files?.[0];
  if (!file) return;
  pending += 1; // settled() waits for the file too
  try {
    const text = file.size > IMPORT_LIMIT ? "" : await file.text();
    el.value = "";
    send({ kind: "click", action: commands.importText, arg: null, form: { text } }, event);
  } finally {
    pending -= 1;
  }
}

// One delegated listener (click, keydown, change, submit on the document) reduces each
// event to its data-action/data-arg (or key, or form) for the Controller.
function onEvent(event) {
  const kind = event.type;
  const target = event.target;
  if (kind === "submit") {
    event.preventDefault();
    const action = target.getAttribute("data-submit");
    if (action !== null) send({ kind, action, form: formValues(target) }, event);
    return;
  }
  if (kind === "keydown") {
    if (event.key === "Tab") {
      trapTab(event);
      return;
    }
    const tag = target?.tagName || "";
    send({ kind, key: event.key, in_field: ["INPUT", "SELECT", "TEXTAREA"].includes(tag) }, event);
    return;
  }
  if (!target?.closest) return;
  const el = target.closest("[data-action]");
  if (!el) return;
  const action = el.getAttribute("data-action");
  const arg = el.getAttribute("data-arg");
  let form = null;
  if (commands.sendsForm.includes(action)) {
    form = formValues(el.closest("form"));
  } else if (el.tagName === "SELECT") {
    if (kind !== "change") return;
    form = { value: el.value };
  } else if (el.tagName === "INPUT" && el.type === "file") {
    if (kind === "change") readFile(el, event);
    return;
  }
  if (kind === "click" && commands.copies.includes(action)) startClickCopy();
  send({ kind, action, arg, form, target_id: el.id || null }, event);
}

for (const kind of ["click", "keydown", "change", "submit"]) {
  document.addEventListener(kind, onEvent);
}
// Escape on a modal <dialog>: the keydown already handled it (cancel does not bubble).
document.addEventListener("cancel", (event) => event.preventDefault(), true);
// Before Python is ready neither is queued: its start reads the fragment and storage.
window.addEventListener("hashchange", (event) => {
  if (py) send({ kind: "hashchange", hash: location.hash }, event);
});
// Another tab wrote to storage: main.py decides whether it was a game.
window.addEventListener("storage", (event) => {
  if (py && event.key !== null) send({ kind: "storage", key: event.key }, event);
});

// names: the command names this file needs (web/commands.py, HOST_COMMANDS), as JSON.
function connect(dispatch, stats, bots, names) {
  py = { dispatch, stats, bots };
  commands = JSON.parse(names);
}

// Once the page is ready (the "ready" command), the presses made while it started,
// in order, after the call that brought it (Python may still be in it).
function playEarly() {
  const presses = early;
  early = [];
  for (const el of document.querySelectorAll(".queued")) {
    el.classList.remove("queued");
    el.removeAttribute("aria-busy");
  }
  for (const { data, event } of presses) send(data, event);
}

function settled() {
  return pending ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
}

// Clipboard and share sheet: the worker has neither; true when done.
// A copy must start during the player's click: WebKit refuses a clipboard write that
// arrives afterwards from the worker (through PyScript's handler). So a click on a
// command that copies (commands.copies) starts the write at once with the text still
// to come (a ClipboardItem of a promise, as Safari recommends); copy(text) from Python
// then supplies it. Where that is not offered or fails, copy writes the text itself.
let clickCopy = null; // { supply(text), cancel(), result } of the latest such click
function startClickCopy() {
  clickCopy?.cancel();
  clickCopy = null;
  if (typeof ClipboardItem !== "function" || !navigator.clipboard?.write) return;
  let supply;
  let cancel;
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
async function copy(text) {
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
async function share(url, title) {
  try {
    await navigator.share({ url, title });
    return true;
  } catch {
    return false; // cancelled, refused
  }
}

window.skylineHost = {
  apply,
  connect,
  settled,
  blobURL,
  copy,
  share,
  canShare: () => typeof navigator.share === "function",
  // Keep this site's storage when space runs low (a browser may ask the player; the
  // answer may never come, e.g. a prompt left open): "granted", "denied", "unsupported".
  persistStorage: async () => {
    const storage = navigator.storage;
    if (!storage?.persist) return "unsupported";
    try {
      if (await storage.persisted()) return "granted";
      return (await storage.persist()) ? "granted" : "denied";
    } catch {
      return "denied";
    }
  },
  storageGet: (key) => localStorage.getItem(key),
  storageSet: (key, value) => localStorage.setItem(key, value),
  // Compare and write in one call (store.Store.write_save): false if another tab wrote.
  storageWriteIf: (key, expected, value) => {
    const stored = localStorage.getItem(key);
    if (stored !== null && stored !== expected) return false;
    localStorage.setItem(key, value);
    return true;
  },
  storageRemove: (key) => localStorage.removeItem(key),
  storageKeys: () => JSON.stringify(Object.keys(localStorage)),
  // The player's calendar day and time zone come from the page's clock (the one the
  // device shows, and the one a test sets with Playwright's page.clock), not the worker's.
  localDate: () => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  },
  tzMinutes: () => new Date().getTimezoneOffset(),
  // Test-only fault hook: true (once) if window.__skylineFault === where.
  fault: (where) => {
    if (window.__skylineFault !== where) return false;
    delete window.__skylineFault;
    return true;
  },
};
// For the e2e tests and scripts: promises (the worker answers asynchronously).
window.skylineStats = async () => (py ? JSON.parse(await py.stats()) : []);
window.skylineBots = async (command, arg = "") => (py ? String(await py.bots(command, arg)) : "");
})();
