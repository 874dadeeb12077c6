// @ts-check
// Where and from what Python starts, chosen before PyScript reads the <script type=py>
// (this module runs before PyScript's core.js: index.html loads it first).

import { servedByWorker, site } from "./site.js";

/**
 * PyScript's worker reaches the page through SharedArrayBuffer, which needs a
 * cross-origin isolated page (the COOP/COEP headers) and an engine that offers it there
 * (WebKitGTK does not). Without it Python runs on the main thread: the same main.py and
 * host port, the calls are direct instead of round trips. html[data-python] says which.
 *
 * The standard library comes as bytecode on every visit. The app comes as bytecode
 * when the service worker controls the page (it has the archive precached): the bytecode
 * config names the interpreter module that asks for it, and restores the memory
 * snapshot. The worker that runs that module cannot see the service worker, so the
 * choice is made here. A first visit loads the app's smaller sources (one text file).
 */
export function choosePythonPath() {
  const script = document.querySelector("script[type=py]");
  if (site.configPyc && script && servedByWorker) {
    script.setAttribute("config", `./${site.configPyc}`);
  }
  const worker = self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  if (script && !worker) {
    script.removeAttribute("worker");
    document.querySelector("py-config")?.remove(); // the script's config is the main one now
  }
  document.documentElement.dataset.python = worker ? "worker" : "main";
}
