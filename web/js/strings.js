// @ts-check
// The words of the page before Python: the loading screen, the "Starting…" bar and the
// update bar, from the same string tables (web/i18n/<lang>.json) as the page.

/** @typedef {Record<string, string>} StringTable */

/** @type {Record<string, Promise<StringTable>>} */
const tables = {};

/**
 * The string table of a language, fetched once ({} when it cannot be had).
 * @param {string} code
 * @returns {Promise<StringTable>}
 */
export function table(code) {
  tables[code] ??= fetch(`./i18n/${code}.json`)
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  return tables[code];
}

/**
 * The language main.py (i18n.pick_language) picks when none is stored: the first of
 * the browser's with a string table (an empty navigator.languages counts as missing
 * there too), else English.
 * @param {string[]} langs the languages with a string table
 */
export function pickLanguage(langs) {
  return (navigator.languages?.length ? navigator.languages : [navigator.language])
    .map((l) => l.toLowerCase().split("-")[0])
    .find((l) => langs.includes(l)) || "en";
}

const BOOT_TEXTS = "#loading [data-i18n], #update [data-i18n], #boot-bar [data-i18n]";

/**
 * Put the words into the loading screen, the "Starting…" bar and the update bar.
 * @param {string} lang
 * @returns {Promise<void>} once they are there
 */
export function translateBootTexts(lang) {
  return table(lang).then((strings) => {
    for (const el of document.querySelectorAll(BOOT_TEXTS)) {
      if (el instanceof HTMLElement) el.textContent = strings[el.dataset.i18n || ""] ?? "";
    }
  });
}
