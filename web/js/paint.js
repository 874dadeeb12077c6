// @ts-check
// Paint before Python: the picture of the last render, or on a first visit the welcome
// screen the build prerendered, at once (index.html makes this module render-blocking).
//
// After each render (debounced) and when the page is hidden, the regions' HTML, the
// page language and the attributes the styles read go to localStorage; the next visit
// of the same build paints them at once, aria-busy, with a "Starting…" bar, and
// Python's first render replaces them with the same layout. A cache only: every
// storage failure is ignored, a picture of another build or a broken one is dropped.
// The painted page is not inert: a press on it is queued (web/js/early.js) and played
// once Python is ready.

import { DOM, element } from "./dom.js";
import { site } from "./site.js";
import { pickLanguage, table } from "./strings.js";

/**
 * A picture to paint: the last render's (from storage) or the prerendered welcome.
 * @typedef {object} Picture
 * @property {string} lang
 * @property {Record<string, string>} html attributes of <html>
 * @property {Record<string, string>} body attributes of <body>
 * @property {{starting?: string, rules?: string}} labels the "Starting…" bar's words
 * @property {Record<string, string | Element>} regions each region's HTML, or (the
 *   welcome) an element whose nodes are moved in
 */
/** @typedef {Picture & {build: string}} StoredPicture the last render's, as stored */

const SNAPSHOT_KEY = "skyline.snapshot";
const SNAPSHOT_MAX = 400_000; // characters; a bigger render is not kept
const root = document.documentElement;
// Attributes of <html> and <body> that are the build's or the start's, never the
// page's own state: every data-* the build wrote on <html> (read before any paint).
const SKIP_ATTRS = new Set([
  ...[...root.attributes].map((a) => a.name).filter((name) => name.startsWith("data-")),
  "data-ready", "data-python-start", "aria-busy", "class",
]);

/** @returns {StoredPicture | null} */
function readStored() {
  try {
    /** @type {StoredPicture | null} */
    const snap = JSON.parse(localStorage.getItem(SNAPSHOT_KEY) || "null");
    if (snap && snap.build === site.build && site.build && snap.regions &&
        site.langs.includes(snap.lang)) {
      return snap;
    }
    if (snap) localStorage.removeItem(SNAPSHOT_KEY); // another build's: never shown
  } catch {
    // unreadable or blocked storage: no picture
  }
  return null;
}

/**
 * @param {Element} el
 * @returns {Record<string, string>}
 */
function attrs(el) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const a of el.attributes) if (!SKIP_ATTRS.has(a.name)) out[a.name] = a.value;
  return out;
}

/**
 * A new visitor: no key of the page's in storage and no fragment (a game link, the
 * daily challenge or any other fragment may open something else: the loading screen
 * stays). Python's first render is then the welcome dialog over a fresh solo game,
 * which scripts/build.py prerendered per language into <template data-first-paint>
 * (the page's own Controller under CPython; tests/test_prerender.py and
 * e2e/test_start_paint.py check it is what the page renders). Painted like a picture.
 * @param {string} code the page's language
 * @returns {Picture | null}
 */
function firstVisit(code) {
  try {
    if (location.hash) return null;
    for (let i = 0; i < localStorage.length; i++) {
      if (localStorage.key(i)?.startsWith("skyline.")) return null;
    }
  } catch {
    return null; // storage blocked: Python may say so first, keep the loading screen
  }
  const template = /** @type {HTMLTemplateElement | null} */ (
    document.querySelector(`template[data-first-paint="${code}"]`));
  if (!template) return null;
  /** @type {Record<string, Element>} */
  const regions = {};
  for (const el of template.content.querySelectorAll("[data-region]")) {
    // its nodes are moved into the page, no re-parsing
    if (el instanceof HTMLElement) regions[el.dataset.region || ""] = el;
  }
  const labels = { starting: template.dataset.starting, rules: template.dataset.rules };
  return { lang: code, html: {}, body: {}, labels, regions };
}

const app = element("app");
const startBar = element("boot-bar");
let painted = false;
let isLive = false;

/**
 * Paint the picture of the last render or the welcome, if there is one, and set the
 * page's language (the picture's, else the one main.py will pick).
 * @returns {{lang: string, painted: boolean, welcome: boolean}}
 */
export function paint() {
  const snapshot = readStored();
  const lang = snapshot?.lang || pickLanguage(site.langs);
  root.lang = lang;
  const shown = snapshot || firstVisit(lang);
  if (shown) {
    try {
      for (const [name, value] of Object.entries(shown.html || {})) root.setAttribute(name, value);
      for (const [name, value] of Object.entries(shown.body || {})) {
        document.body.setAttribute(name, value);
      }
      for (const name of DOM.snapshotRegions) {
        const region = document.getElementById(name);
        const content = shown.regions[name];
        if (!region) continue;
        if (content instanceof Element) region.replaceChildren(...content.childNodes);
        else region.innerHTML = content || "";
      }
      // A dialog the page had opened with showModal() comes back as a plain open
      // <dialog>: the styles place it like the modal one (.snapshot dialog[open]).
      app.setAttribute("aria-busy", "true");
      app.classList.add("snapshot");
      setText(startBar, "[data-i18n='loading.starting']", shown.labels?.starting);
      setText(startBar, "[data-i18n='btn.rules']", shown.labels?.rules);
      startBar.hidden = false;
      element("loading").hidden = true;
      painted = true;
    } catch (err) {
      console.warn("skyline: snapshot not shown", err);
    }
  }
  return { lang, painted, welcome: painted && !snapshot };
}

/**
 * @param {Element} parent
 * @param {string} selector
 * @param {string | undefined} text
 */
function setText(parent, selector, text) {
  const el = parent.querySelector(selector);
  if (el) el.textContent = text || "";
}

/**
 * The app becomes live: called by main.py right before its first render (so focus and
 * showModal() work there), and again on ready in case it was not.
 */
export function live() {
  if (isLive) return;
  isLive = true;
  app.inert = false;
  app.removeAttribute("aria-busy");
  // Python renders the dialog region afresh (a painted <dialog> is not modal).
  if (painted) document.getElementById(DOM.dialog)?.replaceChildren();
}

/** On ready: the painted look (.snapshot: shown before ready, cursor) and the bar go. */
export function showLive() {
  live();
  app.classList.remove("snapshot");
  startBar.hidden = true;
}

async function save() {
  try {
    if (document.body.dataset.ready !== "1") return;
    const strings = await table(root.lang);
    /** @type {Record<string, string>} */
    const regions = {};
    for (const name of DOM.snapshotRegions) {
      regions[name] = document.getElementById(name)?.innerHTML || "";
    }
    /** @type {StoredPicture} */
    const picture = {
      build: site.build,
      lang: root.lang,
      html: attrs(root),
      body: attrs(document.body),
      labels: { starting: strings["loading.starting"] || "", rules: strings["btn.rules"] || "" },
      regions,
    };
    const text = JSON.stringify(picture);
    if (text.length > SNAPSHOT_MAX) localStorage.removeItem(SNAPSHOT_KEY);
    else localStorage.setItem(SNAPSHOT_KEY, text);
  } catch {
    // full or blocked storage: the next visit shows the loading screen, nothing more
  }
}

let saveTimer = 0;
function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(save, 400);
}

/** From ready on: a picture after every render (debounced) and when the page goes. */
export function keepPicture() {
  new MutationObserver(saveSoon).observe(app, { childList: true, subtree: true,
    characterData: true, attributes: true });
  saveSoon();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") save();
  });
  window.addEventListener("pagehide", () => save());
}
