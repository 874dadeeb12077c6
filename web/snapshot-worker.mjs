// @ts-check
// Makes the interpreter's memory snapshot for web/snapshot.mjs, in a worker of its own:
// a clean Pyodide that never touches the page or any JS object (a snapshot must not
// hold one), the page's bytecode unpacked where PyScript unpacks it, every module the
// page can import imported and the string tables read (sys.skyline_tables, which
// main.py takes instead of fetching them), then pyodide.makeMemorySnapshot(). web/js/snapshot-maker.js starts it in
// idle time after a good start and stores what it answers.
//
// Message in: the build's snapshot config (snapshot.json, written by scripts/build.py).
// Message out: { ok: true, packed, size, bootMs, importMs, snapshotMs } (packed: the
// snapshot as web/snapshot.mjs stores it, transferred) or { ok: false, reason }.

/** @typedef {{ key: string, pyodide: string, stdlib: string, lock: object, app: string,
 *   sitePackages: string, modules: string[], tables: Record<string, string> }} SnapshotConfig */

/** This worker's own postMessage (the type checking knows the window's only). */
const post = /** @type {(message: unknown, transfer?: Transferable[]) => void} */ (
  /** @type {unknown} */ (self.postMessage.bind(self)));

self.addEventListener("message", async (event) => {
  /** @type {SnapshotConfig} */
  const config = event.data;
  try {
    const { MAX_SNAPSHOT_BYTES, pack } = await import("./snapshot.mjs");
    const base = new URL(config.pyodide, self.location.href);
    const { loadPyodide } = await import(base.href);
    const started = performance.now();
    const pyodide = await loadPyodide({
      indexURL: new URL("./", base).href,
      stdLibURL: new URL(config.stdlib, self.location.href).href,
      lockFileContents: config.lock,
      _makeSnapshot: true,
    });
    const booted = performance.now();
    const app = await fetch(new URL(config.app, self.location.href));
    if (!app.ok) throw new Error(`HTTP ${app.status} for ${config.app}`);
    pyodide.unpackArchive(await app.arrayBuffer(), "zip", { extractDir: config.sitePackages });
    // The string tables main.py loads at start, as Python data (a file of the in-memory
    // file system would not be in the snapshot: only the heap is).
    const tables = await Promise.all(Object.entries(config.tables || {}).map(async ([lang, path]) => {
      const response = await fetch(new URL(path, self.location.href));
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${path}`);
      return [lang, await response.text()];
    }));
    pyodide.FS.writeFile("/tmp/skyline-tables.json", JSON.stringify(Object.fromEntries(tables)));
    // Every module the page can import (not main.py, which is PyScript's to run), the
    // string tables, and the build's key, which the restoring side checks.
    pyodide.runPython(`
import importlib, json, os, sys
for name in ${JSON.stringify(config.modules)}:
    importlib.import_module(name)
with open("/tmp/skyline-tables.json", encoding="utf-8") as tables:
    sys.skyline_tables = {lang: json.loads(text) for lang, text in json.load(tables).items()}
os.remove("/tmp/skyline-tables.json")
sys.skyline_snapshot = ${JSON.stringify(config.key)}
`);
    const imported = performance.now();
    const heap = pyodide._module.HEAP8.length;
    if (heap > MAX_SNAPSHOT_BYTES) throw new Error(`the heap grew to ${heap} bytes`);
    const bytes = pyodide.makeMemorySnapshot();
    const packed = pack(bytes);
    const done = performance.now();
    post(
      {
        ok: true,
        packed,
        size: bytes.length,
        bootMs: booted - started,
        importMs: imported - booted,
        snapshotMs: done - imported,
      },
      [packed.buffer],
    );
  } catch (err) {
    post({ ok: false, reason: String(err) });
  }
});
