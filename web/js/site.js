// @ts-check
// What scripts/build.py writes on <html> for the page's scripts (its data-* attributes,
// see render_index there), read once.

const data = document.documentElement.dataset;

export const site = {
  /** The languages with a string table (web/i18n/*.json). */
  langs: (data.langs || "en").split(" "),
  /** A content hash of this build: a picture of the last render is only shown by it. */
  build: data.build || "",
  /** The bytes of the two big runtime downloads, for the progress bar. */
  bootBytes: Number(data.bootBytes) || 0,
  /** The runtime files a first visit fetches at once (the standard library apart). */
  warm: (data.warm || "").split(" ").filter(Boolean),
  /** The standard library's archive (a first visit fetches it at once). */
  stdlib: data.stdlib || "",
  /** The PyScript config that boots from bytecode, when the build made one. */
  configPyc: data.configPyc || "",
  /** What the memory snapshot's worker needs (snapshot.json), when the build made one. */
  snapshotConfig: data.snapshot || "",
  /** JSON of the command names web/js/ needs (web/app/core/commands.py, HOST_COMMANDS). */
  hostCommands: data.hostCommands || "",
};

/**
 * Whether a service worker served this page, read once at load: a visit it serves has
 * the runtime cached (nothing to fetch ahead, the bytecode config), and on a first
 * visit a worker installing is the first install, no update (after its
 * clients.claim() WebKit already reports a controller in the installed handler).
 */
export const servedByWorker = Boolean(navigator.serviceWorker?.controller);
