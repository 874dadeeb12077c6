// @ts-check
// Paint before Python: the picture of the last render, or on a first visit the welcome
// screen the build prerendered, at once (index.html makes this module render-blocking).
//
// After each render (debounced) and when the page is hidden, the regions' HTML, the
// page language and the attributes the styles read go to localStorage; the next visit
// of the same build paints them at once, aria-busy, with a "Starting…" bar, and
// Python's first render replaces them with the same layout. A cache only: every
// storage failure is ignored, a picture of another build or a broken one is dropped.
// Storage is not trusted: a picture is painted only if it holds nothing but the page's
// own elements and attributes (web/app/core/dom.py, PICTURE_TAGS and PICTURE_ATTRS: no
// images, styles, handlers, inert, links elsewhere), checked in a DOMParser document
// before its nodes are brought in; anything else drops it whole and the page starts
// without it. The page's language is
// the one attribute outside the regions it takes from the picture.
// The painted page is not inert: a press on it is queued (web/js/early.js) and played
// once Python is ready.

import { DOM, element } from "./dom.js";
import { site } from "./site.js";
import { pickLanguage, table } from "./strings.js";
import { caretOf, putCaret } from "./typing.js";

/**
 * A picture to paint: the last render's (from storage, checked) or the prerendered welcome.
 * @typedef {object} Picture
 * @property {string} lang
 * @property {{starting?: string, rules?: string}} labels the "Starting…" bar's words
 * @property {Record<string, Node>} regions each region's nodes (a checked fragment, or
 *   the welcome's element whose nodes are moved in)
 */
/**
 * The last render's picture as stored.
 * @typedef {object} StoredPicture
 * @property {string} build
 * @property {string} lang
 * @property {{starting?: string, rules?: string}} labels
 * @property {Record<string, string>} regions each region's HTML
 */

const SNAPSHOT_KEY = "skyline.snapshot";
const SNAPSHOT_MAX = 400_000; // characters; a bigger render is not kept
const LABEL_MAX = 200;
const root = document.documentElement;
const TAGS = new Set(DOM.pictureTags);
const ATTRS = new Set(DOM.pictureAttrs);
const SHAPED_NAME = /^(data|aria)-[a-z0-9-]+$/;
// an attribute that would hold a style or a handler, as markup (=, its quote or a space)
const INLINE_CODE = /[\s/"'](?:style|on[a-z]+)\s*=/i;
// a url( that points anywhere but into the page (url(#id))
const URL_ELSEWHERE = /url\(\s*['"]?(?!#)/i;

/**
 * Whether an element of a stored picture is one the page renders (dom.py's allow-list).
 * @param {Element} el
 */
function isPageElement(el) {
  const tag = el.localName.toLowerCase();
  if (!TAGS.has(tag)) return false;
  for (const { name: rawName, value } of el.attributes) {
    const name = rawName.toLowerCase();
    if (!ATTRS.has(name) && !SHAPED_NAME.test(name)) return false;
    if (URL_ELSEWHERE.test(value)) return false;
    if (name === "href" && !(tag === "a" && value.startsWith(`blob:${location.origin}/`))) return false;
    if (name === "lang" && !site.langs.includes(value)) return false;
    if (name === "dir" && value !== "ltr" && value !== "auto") return false;
  }
  return true;
}

/**
 * A region's stored HTML as nodes of the page, or null if it holds anything the page
 * does not render. Parsed in a document of its own (a DOMParser's: it loads and runs
 * nothing, and the page's CSP has nothing to refuse there), checked, then brought in.
 * @param {unknown} html
 * @returns {DocumentFragment | null}
 */
function checkedRegion(html) {
  if (html === undefined) html = "";
  if (typeof html !== "string") return null;
  // a style or a handler is never the page's: refused unparsed (the CSP would say it
  // refused them; a name that reads like one only costs its picture)
  if (INLINE_CODE.test(html)) return null;
  const parsed = new DOMParser().parseFromString(html, "text/html").body;
  for (const el of parsed.querySelectorAll("*")) {
    if (!isPageElement(el)) return null;
  }
  const nodes = document.createDocumentFragment();
  for (const node of parsed.childNodes) nodes.append(document.importNode(node, true));
  return nodes;
}

/**
 * A stored picture as it may be painted, or null if any part of it is not what this
 * page writes (save below).
 * @param {unknown} stored
 * @returns {Picture | null}
 */
export function checkedPicture(stored) {
  if (!stored || typeof stored !== "object") return null;
  const snap = /** @type {Partial<StoredPicture> & Record<string, unknown>} */ (stored);
  if (snap.build !== site.build || !site.build || typeof snap.lang !== "string" ||
      !site.langs.includes(snap.lang)) return null;
  const known = new Set(["build", "lang", "labels", "regions"]);
  if (Object.keys(snap).some((key) => !known.has(key))) return null;
  const labels = snap.labels ?? {};
  if (typeof labels !== "object" || Object.entries(labels).some(([key, text]) =>
    !["starting", "rules"].includes(key) || typeof text !== "string" || text.length > LABEL_MAX)) {
    return null;
  }
  const storedRegions = snap.regions;
  if (!storedRegions || typeof storedRegions !== "object" ||
      Object.keys(storedRegions).some((name) => !DOM.snapshotRegions.includes(name))) return null;
  /** @type {Record<string, Node>} */
  const regions = {};
  for (const name of DOM.snapshotRegions) {
    const nodes = checkedRegion(storedRegions[name]);
    if (!nodes) return null;
    regions[name] = nodes;
  }
  return { lang: snap.lang, labels, regions };
}

/** @returns {Picture | null} */
function readStored() {
  try {
    const stored = localStorage.getItem(SNAPSHOT_KEY);
    if (!stored) return null;
    const picture = checkedPicture(JSON.parse(stored));
    // another build's, or not what this page writes: never shown, and gone
    if (!picture) localStorage.removeItem(SNAPSHOT_KEY);
    return picture;
  } catch {
    // unreadable (then dropped if storage lets us) or blocked storage: no picture
    try {
      localStorage.removeItem(SNAPSHOT_KEY);
    } catch {
      // blocked: there is nothing to paint either
    }
  }
  return null;
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
  return { lang: code, labels, regions };
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
      for (const name of DOM.snapshotRegions) {
        const region = document.getElementById(name);
        const content = shown.regions[name];
        if (!region) continue;
        if (content instanceof Element) region.replaceChildren(...content.childNodes);
        else if (content) region.replaceChildren(content);
        else region.replaceChildren();
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
      clearOfTheBar();
    } catch (err) {
      console.warn("skyline: snapshot not shown", err);
    }
  }
  return { lang, painted, welcome: painted && !snapshot };
}

/**
 * A painted dialog taller than the screen scrolls its last buttons clear of the
 * "Starting…" bar (a spacer at its end, .above-bar); one that fits keeps its size, so
 * nothing moves when the live page takes it over.
 */
export function clearOfTheBar() {
  const dialog = document.querySelector(`#${DOM.dialog} dialog[open]`);
  if (!dialog) return;
  dialog.classList.remove("above-bar");
  if (!startBar.hidden && dialog.scrollHeight > dialog.clientHeight) {
    dialog.classList.add("above-bar");
  }
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
  // A painted <dialog> is open but not modal: it becomes modal where it is, so Python's
  // first render redraws it as the same dialog and keeps what the player typed
  // (web/js/render.js); the focus and the caret stay where the player left them.
  const dialog = painted ? document.querySelector(`#${DOM.dialog} dialog[open]`) : null;
  if (!(dialog instanceof HTMLDialogElement)) return;
  const active = document.activeElement;
  const [start, end] = caretOf(active);
  dialog.classList.remove("above-bar");
  dialog.close();
  dialog.showModal();
  if (active instanceof HTMLElement && active !== document.body && dialog.contains(active)) {
    active.focus();
    putCaret(active, start, end);
  }
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
