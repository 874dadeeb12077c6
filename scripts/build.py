#!/usr/bin/env python3
"""Assemble the static site in ``dist/`` (the Netlify publish folder).

Steps:
1. build the ``skyline`` wheel from this repo (reproducibly: fixed zip timestamps), not
   served itself: its modules go to ``dist/engine/`` as sources for a first visit (those
   the page imports at start in pyscript.json, the rest in later.json) and into the
   bytecode archive of the service worker's visits,
2. ``npm ci`` when ``node_modules`` is missing or older than ``package-lock.json``,
3. copy the ``web/`` tree (minus tests), the PyScript files the page imports and the
   Pyodide core files into ``dist/``; the package's data files
   (``skyline/data/``: value tables) are left out of the wheel and served as
   ``dist/data/...``, fetched by the page when first needed,
4. cut Pyodide's standard library down to the modules the page and the engine import
   (``scripts/stdlib_modules.txt``, made by ``scripts/stdlib_modules.py``) and write a
   small interpreter module (``loader-<hash>.mjs``) that boots Pyodide with it and with
   an inline lock file listing no packages (no ``pyodide-lock.json`` download); the cut
   library is compiled to bytecode by Pyodide itself under Node (``compile_pyc.mjs``;
   ``--no-bytecode`` ships the sources); the QR code library's extra modules go to
   ``dist/qr/stdlib.zip`` (fetched on demand),
5. prerender the rules dialog per language (``dist/rules/<lang>.html``, the page's own
   web/ modules run under CPython) for web/js/rules.js to open before Python is ready,
   and a new visitor's first render (the welcome dialog over a fresh solo game, the
   page's own Controller on an in-memory host) per language, put into ``index.html``
   as ``<template>`` elements that web/js/paint.js paints at once on a first visit,
6. write ``dist/pyscript.json`` (``web/pyscript.json`` plus that interpreter and
   the interpreter module of a first visit, the app as sources; ``pyscript-pyc.json``
   the same with the app's bytecode and the memory snapshot),
   ``dist/index.html`` (the runtime files web/js/prefetch.js fetches at once,
   a build id for the snapshot of the last render, the DOM ids of
   web/app/core/dom.py, the page's modules to preload) and ``dist/sw.js`` (``web/sw.js``
   with the precache list and a cache name derived from a content hash of every
   precached file).

Only Python + pip + npm (Node) are needed; nothing is fetched from a CDN, ever.
Usage: ``python scripts/build.py [--out DIST] [--full-stdlib] [--no-bytecode]``
(``--full-stdlib``: Pyodide's whole standard library, for ``scripts/stdlib_modules.py``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from html import escape
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
NODE_MODULES = ROOT / "node_modules"
LOCK = ROOT / "package-lock.json"
# npm ci writes this stamp; a different lock hash means node_modules is stale.
NPM_STAMP = NODE_MODULES / ".skyline-lock-sha256"

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
# The full standard library and lock file: shipped only with --full-stdlib.
PYODIDE_FULL = ("python_stdlib.zip", "pyodide-lock.json")
# The standard-library modules the page and the engine import, one per line (written by
# scripts/stdlib_modules.py from a real page; e2e/test_runtime.py checks it is complete).
STDLIB_MODULES = ROOT / "scripts" / "stdlib_modules.txt"
# Package data (the solo value table, the scenario tables in data/scenarios/): not in the
# wheel, served as dist/data/... (same path as inside the skyline package) and fetched by
# the page on first need (main.DomHost.fetch_data); the service worker, registered after
# start-up, precaches them in the background for offline play.
PACKAGE_DATA = ROOT / "skyline" / "data"
# PyScript loads every plugin chunk unless pyscript.json disables it with "!name";
# web/pyscript.json (and <mpy-config> in index.html) disable all but "error". Pyodide
# unpacks the [files] wheel itself (no "zip-" chunk); a JSON config spares "toml-".
PYSCRIPT_CHUNK_PREFIXES = ("core-", "error-")
# Fixed zip timestamps make the wheel byte-identical for identical sources, so an
# unchanged rebuild keeps the same service-worker cache name.
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date a zip can hold

# Not part of the Python package: skipped when copying the source to build the wheel.
WHEEL_SOURCE_IGNORE = (
    ".git",
    "node_modules",
    "dist",
    "build",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".cache",
    "web",
    "e2e",
    "tests",
    "test-results",
)
TEMPLATE_FILES = {"index.html", "pyscript.json", "sw.js"}  # rendered, not copied


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def npm_package_version(name: str) -> str:
    lock = json.loads(LOCK.read_text())
    return lock["packages"][f"node_modules/{name}"]["version"]


def ensure_node_modules() -> None:
    """Run ``npm ci`` only when node_modules does not match the committed lock."""
    want = sha256(LOCK.read_bytes())
    if NPM_STAMP.is_file() and NPM_STAMP.read_text().strip() == want:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("[build] npm not found: install Node.js (Debian: apt-get install -y nodejs npm)")
    log("npm ci (node_modules missing or stale)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True)
    NPM_STAMP.write_text(want + "\n")


def short_readme(text: str) -> str:
    """The README's title and first paragraph: the wheel's long description."""
    blocks = [block.strip() for block in text.split("\n\n") if block.strip()]
    return "\n\n".join(blocks[:2]) + "\n"


def build_wheel(tmp: Path) -> Path:
    """Build the repo's wheel with pip (always present), fully reproducibly.

    Built from a clean copy of the source: setuptools' in-tree build/ folder would
    leave stale modules in the wheel and litter the work tree. The copy's README.md
    (the wheel's long description, pyproject's ``readme``) is cut to its title and
    first paragraph: the whole README in METADATA was 28 KB of the page's own start-up
    bytes, and nothing in the browser reads it.
    """
    src = tmp / "src"
    patterns = shutil.ignore_patterns(*WHEEL_SOURCE_IGNORE)

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set(patterns(folder, names))
        if Path(folder).resolve() == PACKAGE_DATA.parent:
            skipped.add(PACKAGE_DATA.name)  # served beside the page instead
        return skipped

    shutil.copytree(ROOT, src, ignore=ignore)
    readme = src / "README.md"
    readme.write_text(short_readme(readme.read_text(encoding="utf-8")), encoding="utf-8")
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "PIP_NO_INPUT": "1"}
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(tmp)]
    # Reuse the local setuptools/wheel when both are importable: no PyPI round trip.
    # Otherwise pip's build isolation fetches them (fresh machines).
    probe = subprocess.run([sys.executable, "-c", "import setuptools, wheel"], capture_output=True)
    if probe.returncode == 0:
        cmd.append("--no-build-isolation")
    log("building wheel")
    subprocess.run(cmd, cwd=tmp, env=env, check=True)
    wheels = sorted(tmp.glob("skyline-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"[build] expected one skyline wheel, got {wheels}")
    return wheels[0]


# The QR code library (segno): a pinned wheel named with its sha256 in web/app/games/ui.py,
# fetched once by pip into this cache and copied to dist/qr/ (loaded on demand).
WHEEL_CACHE = ROOT / ".cache" / "wheels"


def qr_wheel_pin() -> tuple[str, str]:
    source = (WEB / "app" / "games" / "ui.py").read_text()
    name = re.search(r'^QR_WHEEL_NAME = "([^"]+)"', source, re.M)
    digest = re.search(r'^QR_WHEEL_SHA256 = "([0-9a-f]{64})"', source, re.M)
    if not name or not digest:
        sys.exit("[build] web/app/games/ui.py lacks QR_WHEEL_NAME / QR_WHEEL_SHA256")
    return name.group(1), digest.group(1)


def copy_qr_wheel(out: Path) -> None:
    """The pinned segno wheel into dist/qr/ (downloaded by pip once, checked by sha256)."""
    name, digest = qr_wheel_pin()
    cached = WHEEL_CACHE / name
    if not cached.is_file() or sha256(cached.read_bytes()) != digest:
        project, version = name.split("-")[:2]
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        log(f"pip download {project}=={version}")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", f"{project}=={version}", "--no-deps",
             "--only-binary", ":all:", "-q", "-d", str(WHEEL_CACHE)],
            check=True,
        )
    if sha256(cached.read_bytes()) != digest:
        sys.exit(f"[build] {name}: sha256 does not match the pin in web/app/games/ui.py")
    (out / "qr").mkdir(parents=True, exist_ok=True)
    shutil.copy2(cached, out / "qr" / name)


def is_web_test(rel: Path) -> bool:
    parts = rel.parts
    return (
        any(p in {"tests", "test", "__pycache__"} for p in parts)
        or rel.name.startswith("test_")
        or rel.name.endswith("_test.py")
        or rel.suffix == ".pyc"
    )


# Where a first visit fetches the engine's modules from (dist/engine/skyline/...).
ENGINE_DIR = "engine"


def page_modules() -> list[str]:
    """The dotted names of the page's Python modules (web/app/, not main.py), the
    packages included."""
    return sorted(
        ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        for rel in (p.relative_to(WEB) for p in (WEB / "app").rglob("*.py"))
        if not is_web_test(rel))


def copy_engine(out: Path, wheel: Path) -> tuple[list[str], list[str]]:
    """The wheel's modules (not the command line's ``__main__``) split into those the
    page's modules import when they load (the start path, for write_app_sources) and the
    rest, as sources under dist/engine/ (later.json: the experts and the reviews, which
    main.py writes into site-packages in idle time after ready, or at once when one is
    imported before then). Returns (start, later) as paths inside the wheel."""
    with zipfile.ZipFile(wheel) as archive:
        members = [name for name in archive.namelist()
                   if name.endswith(".py") and not name.endswith("/__main__.py")]
        sources = {name: archive.read(name) for name in members}
    glue = page_modules()
    # main.py itself cannot run here (it needs the browser): its engine imports can.
    for node in ast.parse((WEB / "main.py").read_text()).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("skyline"):
            glue += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            glue += [alias.name for alias in node.names if alias.name.startswith("skyline")]
    probe = ("import importlib, importlib.util, json, sys; sys.path[:0] = sys.argv[1:3]; "
             "[importlib.util.find_spec(m) and importlib.import_module(m) "
             "for m in sys.argv[3:]]; "
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'skyline')))")
    result = subprocess.run([sys.executable, "-c", probe, str(WEB), str(ROOT), *glue],
                            capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        sys.exit(f"[build] importing the page's modules failed:\n{result.stderr[-2000:]}")
    loaded = set(json.loads(result.stdout))

    def module(name: str) -> str:
        return name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")

    start = [name for name in members if module(name) in loaded]
    later = [name for name in members if module(name) not in loaded]
    for name in later:  # the start path's are in the app's sources (write_app_sources)
        target = out / ENGINE_DIR / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(sources[name])
    return start, later


def copy_web(out: Path) -> list[Path]:
    """Copy web/ (except templates, tests, the page's scripts, which are bundled, and the
    glue modules, which go into the app's archives; main.py is copied: PyScript runs it
    from its <script src>); return the glue modules (paths inside web/)."""
    py_files: list[Path] = []
    for src in sorted(WEB.rglob("*")):
        rel = src.relative_to(WEB)
        if src.is_dir() or is_web_test(rel) or str(rel) in TEMPLATE_FILES:
            continue
        if src.suffix == ".py" and rel.as_posix() != "main.py":
            py_files.append(rel)
            continue
        if rel.parts[0] == "js":  # bundled (bundle_scripts)
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    return py_files


def write_app_sources(out: Path, wheel: Path, engine: list[str], py_files: list[Path]) -> str:
    """dist/app-<hash>.json: what a first visit loads before main.py runs, as sources in
    one text file (the host compresses text, and one response compresses better than
    sixty): the engine's modules on the start path and the glue modules, by their path
    inside site-packages. The interpreter module writes them there (LOADER_TEMPLATE).
    Returns the file name."""
    files: dict[str, str] = {}
    with zipfile.ZipFile(wheel) as archive:
        for member in engine:
            files[member] = archive.read(member).decode("utf-8")
    for rel in py_files:
        files[rel.as_posix()] = (WEB / rel).read_text(encoding="utf-8")
    data = json.dumps({"files": files}, ensure_ascii=False, separators=(",", ":")).encode()
    name = f"app-{sha256(data)[:12]}.json"
    (out / name).write_bytes(data)
    return name


def copy_pyscript(out: Path, version: str) -> str:
    """Copy core.js/core.css and the chunks the page imports; return the folder."""
    src = NODE_MODULES / "@pyscript" / "core" / "dist"
    rel = f"runtime/pyscript-{version}"
    dst = out / rel
    dst.mkdir(parents=True)
    names = ["core.js", "core.css"] + [
        p.name for p in sorted(src.glob("*.js")) if p.name.startswith(PYSCRIPT_CHUNK_PREFIXES)
    ]
    for name in names:
        text = (src / name).read_text()
        # Drop sourceMappingURL comments: maps are not shipped.
        text = re.sub(r"\n?//# sourceMappingURL=\S+\s*$", "\n", text)
        (dst / name).write_text(text)
    # Every static/dynamic import of a shipped chunk must be shipped or deliberately
    # left out (a disabled plugin); catch a PyScript upgrade that adds a hard import.
    for name in names:
        for dep in re.findall(r'from"\./([^"]+)"', (dst / name).read_text()):
            if not (dst / dep).is_file():
                sys.exit(f"[build] {name} statically imports missing chunk {dep}")
    return rel


def copy_pyodide(
    out: Path, version: str, full_stdlib: bool = False, bytecode: bool = True
) -> tuple[str, str, str, str]:
    """Copy the Pyodide core and a cut standard library (bytecode unless ``bytecode`` is
    false, then sources); return (folder, python major.minor, the standard-library
    archive's name, the lock file's JSON) for write_loaders. Every visit loads the same
    archive: on a phone, compiling the sources at start cost more than the bytecode's
    extra bytes (docs/performance.md)."""
    src = NODE_MODULES / "pyodide"
    rel = f"runtime/pyodide-{version}"
    dst = out / rel
    dst.mkdir(parents=True)
    for name in PYODIDE_FILES + (PYODIDE_FULL if full_stdlib else ()):
        shutil.copy2(src / name, dst / name)
    lock = json.loads((src / "pyodide-lock.json").read_text())
    py_mm = ".".join(lock["info"]["python"].split(".")[:2])
    lock_json = json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":"))
    if full_stdlib:
        return rel, py_mm, "python_stdlib.zip", lock_json
    stdlib = trim_stdlib(src / "python_stdlib.zip", read_stdlib_modules())
    if not bytecode:
        stdlib_name = f"stdlib-{sha256(stdlib)[:12]}.zip"
        (dst / stdlib_name).write_bytes(stdlib)
        return rel, py_mm, stdlib_name, lock_json
    log("compiling the standard library to bytecode (Pyodide in Node)")
    pyc = compile_bytecode(stdlib, STDLIB_RUNTIME_PATH)
    pyc_name = f"stdlib-{sha256(pyc)[:12]}-pyc.zip"
    (dst / pyc_name).write_bytes(pyc)
    return rel, py_mm, pyc_name, lock_json


def write_loaders(out: Path, pyodide_dir: str, stdlib: str, lock_json: str,
                  snapshot_key: str, apps: tuple[str, str], py_mm: str,
                  pyscript_pyc: str = "") -> list[str]:
    """The interpreter modules (LOADER_TEMPLATE), both with the standard library
    ``stdlib``: a first visit's writes the app's sources ``apps[0]`` (write_app_sources)
    into site-packages, the service worker's (when there is bytecode) unpacks ``apps[1]``
    (write_app_bytecode) there and restores the memory snapshot of ``snapshot_key`` when
    there is one. Both unpack PyScript's package's bytecode ``pyscript_pyc``
    (scripts/pyscript_bytecode.py), if any. Returns their file names."""
    loaders = []
    for app_name in filter(None, apps):
        bytecode = app_name.endswith(".zip")
        app = {"url": f"../../{app_name}", "dir": f"/lib/python{py_mm}/site-packages"}
        loader = (LOADER_TEMPLATE.replace("@STDLIB@", stdlib).replace("@LOCK@", lock_json)
                  .replace("@SNAPSHOT_KEY@", json.dumps(snapshot_key if bytecode else ""))
                  .replace("@APP@", json.dumps(app))
                  .replace("@PYSCRIPT_PYC@", json.dumps(
                      f"../../{pyscript_pyc}" if pyscript_pyc else "")))
        loader_name = f"loader-{sha256(loader.encode())[:12]}.mjs"
        (out / pyodide_dir / loader_name).write_text(loader)
        loaders.append(loader_name)
    return loaders


# PyScript's `interpreter` may be any module exporting what pyodide.mjs exports; this one
# adds the options PyScript does not pass (see BROWSER-STACK.md): the cut standard library
# and a lock file listing no packages (the page loads none; saves a 119 KB fetch). Two of
# them when there is bytecode, both with the library's bytecode: the app's sources for a
# first visit, its bytecode once the service worker has it (pyscript.json /
# pyscript-pyc.json; web/js/python-path.js picks
# the config: the worker that runs the loader cannot see the service worker). Each writes
# the app's modules into site-packages itself (sources as one JSON file, bytecode as one
# archive) before Python runs; the bytecode one restores the interpreter's memory snapshot
# when the browser has one of this build (web/snapshot.mjs; a first visit never waits for
# one), and then writes the app in idle time (its modules are imported already; the files
# are there for anything read later).
LOADER_TEMPLATE = """// Written by scripts/build.py: Pyodide with the page's own standard library.
import { loadPyodide as load } from "./pyodide.mjs";
import { bootWithSnapshot, readSnapshot } from "../../snapshot.mjs";
export * from "./pyodide.mjs";
// the start's moments in this thread (scripts/bench_phone.py reads them)
const mark = (name) => performance.mark(`skyline:${name}`);
mark("loader");
const base = new URL("./", import.meta.url).href;
const SNAPSHOT_KEY = @SNAPSHOT_KEY@;
const APP = @APP@;
// PyScript's own package compiled (scripts/pyscript_bytecode.py): put where Python looks
// for it before PyScript writes and imports the sources; optional, any failure only
// means PyScript's package is compiled as before
const PYSCRIPT_PYC = @PYSCRIPT_PYC@;
const pyscriptPyc = PYSCRIPT_PYC && fetch(new URL(PYSCRIPT_PYC, import.meta.url))
  .then((response) => (response.ok ? response.arrayBuffer() : null)).catch(() => null);
// read and fetched while PyScript gets ready to call loadPyodide
const snapshot = SNAPSHOT_KEY ? readSnapshot(SNAPSHOT_KEY) : null;
const app = APP && fetch(new URL(APP.url, import.meta.url)).then((response) => {
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${response.url}`);
  return response.arrayBuffer();
});
app?.catch(() => {}); // reported where it is awaited
const APP_LATER_MS = 5000;
export async function loadPyodide(options = {}) {
  const settings = {
    ...options,
    indexURL: base,
    stdLibURL: base + "@STDLIB@",
    lockFileContents: @LOCK@,
  };
  mark("load");
  const pyodide = await (snapshot ? bootWithSnapshot(load, settings, SNAPSHOT_KEY, snapshot)
                                  : load(settings));
  mark("loaded");
  const compiled = pyscriptPyc && await pyscriptPyc;
  if (compiled) {
    try {
      const cache = `${pyodide.FS.cwd()}/pyscript/__pycache__`;
      pyodide.FS.mkdirTree(cache);
      pyodide.unpackArchive(compiled, "zip", { extractDir: cache });
    } catch (err) {
      console.warn("skyline: PyScript's bytecode not used", err);
    }
  }
  // Each Python run PyScript starts (its own set-up, then main.py) is marked for the
  // timeline. PyScript's worker only logs an error of main.py's run (an import that
  // fails after a restore, a fatal error): in a worker it is posted as an Error, which
  // rejects the page's xworker.ready at once (web/js/loading.js). On the main thread
  // PyScript shows it on the page itself.
  const postErrors = typeof WorkerGlobalScope !== "undefined";
  for (const name of ["runPython", "runPythonAsync"]) {
    const run = pyodide[name].bind(pyodide);
    pyodide[name] = (code, ...rest) => {
      const what = `${name}:${String(code).trim().slice(0, 24)}`;
      mark(what);
      const result = run(code, ...rest);
      Promise.resolve(result).then(() => mark(`${what} done`), (err) => {
        mark(`${what} done`);
        if (postErrors && name === "runPythonAsync") {
          self.postMessage(new Error(String(err?.message ?? err).slice(-2000)));
        }
      });
      return result;
    };
  }
  if (app) {
    const unpack = async () => {
      if (APP.url.endsWith(".zip")) {
        pyodide.unpackArchive(await app, "zip", { extractDir: APP.dir });
        return;
      }
      // the sources of a first visit: one JSON file of path -> text
      const { files } = JSON.parse(new TextDecoder().decode(await app));
      for (const [path, text] of Object.entries(files)) {
        const target = `${APP.dir}/${path}`;
        pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
        pyodide.FS.writeFile(target, text);
      }
    };
    if (globalThis.skylineSnapshotStatus === "restored") {
      setTimeout(() => unpack().catch((err) => console.warn("skyline:", err)), APP_LATER_MS);
    } else {
      await unpack();
      mark("unpacked");
    }
  }
  return pyodide;
}
"""


def write_snapshot_config(out: Path, pyodide_dir: str, stdlib: str, lock_json: str,
                          app_pyc: str, wheel: Path, py_files: list[Path], py_mm: str) -> str:
    """dist/snapshot.json: what web/snapshot-worker.mjs needs to make the memory snapshot
    the bytecode loader restores (the runtime, the bytecode standard library and app, and
    every module the page can import: the engine's and the page's web/app/; the string
    tables). Returns the snapshot key: a hash of all of these, so a new build never
    restores an old snapshot."""
    with zipfile.ZipFile(wheel) as archive:
        engine = sorted(
            name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for name in archive.namelist()
            if name.endswith(".py") and not name.endswith("__main__.py")
        )
    glue = page_modules()
    # The string tables main.py loads at start: read into the snapshot (sys.skyline_tables),
    # so a restored start fetches and parses none.
    tables = {path.stem: f"i18n/{path.name}" for path in sorted((out / "i18n").glob("*.json"))}
    config = {
        "pyodide": f"{pyodide_dir}/pyodide.mjs",
        "stdlib": f"{pyodide_dir}/{stdlib}",
        "lock": json.loads(lock_json),
        "app": app_pyc,
        "sitePackages": f"/lib/python{py_mm}/site-packages",
        "modules": engine + glue,
        "tables": tables,
    }
    key = sha256(json.dumps(config, sort_keys=True).encode()
                 + (out / app_pyc).read_bytes()
                 + (out / pyodide_dir / stdlib).read_bytes()
                 + b"".join((out / path).read_bytes() for path in tables.values()))[:16]
    (out / "snapshot.json").write_text(json.dumps({"key": key, **config}, indent=2) + "\n")
    return key


# Where the archives' files live inside Pyodide (for the code objects' file names).
STDLIB_RUNTIME_PATH = "/lib/python314.zip"
COMPILE_PYC = ROOT / "scripts" / "compile_pyc.mjs"


def compile_bytecode(archive: bytes, runtime_path: str, checked: bool = False) -> bytes:
    """``archive`` with every ``.py`` compiled to ``.pyc`` by the Pyodide the page runs
    (CPython 3.14 under Node, scripts/compile_pyc.mjs): unchecked-hash pycs (PEP 552),
    fixed member dates and order, so identical input gives identical output. Pyodide
    never writes bytecode (sys.dont_write_bytecode), so without this every visit
    compiles every module it imports."""
    node = shutil.which("node")
    if node is None:
        sys.exit("[build] node not found: install Node.js (Debian: apt-get install -y nodejs)")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.zip", Path(tmp) / "out.zip"
        src.write_bytes(archive)
        flags = ["--checked"] if checked else []
        result = subprocess.run([node, str(COMPILE_PYC), *flags, str(src), str(dst),
                                 runtime_path], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"[build] compile_pyc.mjs failed:\n{result.stderr[-2000:]}")
        return dst.read_bytes()


def read_stdlib_modules(path: Path = STDLIB_MODULES) -> set[str]:
    names = {
        line.strip()
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    if not names:
        sys.exit(f"[build] {path} lists no modules")
    return names


# The QR code library's extra standard-library modules (dist/qr/stdlib.zip, fetched on
# demand with its wheel and put on sys.path at QR_STDLIB_PATH by main.DomHost.load_qr).
STDLIB_MODULES_QR = ROOT / "scripts" / "stdlib_modules_qr.txt"
QR_STDLIB_PATH = "/lib/skyline-qr-stdlib.zip"


def write_qr_stdlib(out: Path) -> None:
    """dist/qr/stdlib.zip (sources: fetched and compiled only when a QR code is drawn)."""
    extra = read_stdlib_modules(STDLIB_MODULES_QR) - read_stdlib_modules()
    archive = trim_stdlib(NODE_MODULES / "pyodide" / "python_stdlib.zip", extra)
    (out / "qr").mkdir(parents=True, exist_ok=True)
    (out / "qr" / "stdlib.zip").write_bytes(archive)


def trim_stdlib(source: Path, modules: set[str]) -> bytes:
    """The standard-library archive with only ``modules`` (and their packages' data
    files), compressed at DEFLATE level 9, with fixed timestamps (reproducible)."""
    with zipfile.ZipFile(source) as zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
        names = {i.filename for i in infos}
        keep: set[str] = set()
        packages: set[str] = set()
        for module in modules:
            path = module.replace(".", "/")
            if f"{path}/__init__.py" in names:
                keep.add(f"{path}/__init__.py")
                packages.add(path + "/")
            elif f"{path}.py" in names:
                keep.add(f"{path}.py")
        # data files beside a kept package's __init__ (py.typed, ...), never subfolders
        for name in names:
            folder, _, base = name.rpartition("/")
            if folder + "/" in packages and not base.endswith(".py"):
                keep.add(name)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
            for name in sorted(keep):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, zf.read(name), compresslevel=9)
    return buffer.getvalue()


def copy_package_data(out: Path) -> list[str]:
    """dist/data/...: the package's data files (value tables), fetched on first need."""
    copied = []
    for src in sorted(PACKAGE_DATA.rglob("*")):
        if src.is_file() and "__pycache__" not in src.parts:
            rel = src.relative_to(PACKAGE_DATA.parent)
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out / rel)
            copied.append(rel.as_posix())
    return copied


def write_pyscript_config(out: Path, interpreters: list[str]) -> list[str]:
    """web/pyscript.json + the local interpreter module: ``pyscript.json`` with the first
    (the app as sources), ``pyscript-pyc.json`` with the second (the app as bytecode and
    the memory snapshot), if any. No [files]: each interpreter module writes the app's modules into
    site-packages itself (LOADER_TEMPLATE). Returns the file names."""
    config = json.loads((WEB / "pyscript.json").read_text())
    names = []
    for name, interpreter in zip(("pyscript.json", "pyscript-pyc.json"), interpreters,
                                 strict=False):
        # Resolved against the page URL (not this file's), see BROWSER-STACK.md.
        config["interpreter"] = f"./{interpreter}"
        (out / name).write_text(json.dumps(config, indent=2) + "\n")
        names.append(name)
    return names


def write_app_bytecode(out: Path, wheel: Path, py_files: list[Path], py_mm: str) -> str:
    """dist/app-<hash>-pyc.zip: the wheel's members and the glue modules (web/app/, not
    main.py, which PyScript runs from its <script src>) compiled to unchecked-hash .pyc
    by the Pyodide the page runs, unpacked into site-packages by pyscript-pyc.json (the
    service worker's visits; a first visit loads the wheel and the sources). Pyodide
    never writes bytecode, so with sources every visit compiled ~14,000 lines of the
    app on start-up (docs/architecture.md, "Start-up"). Returns the file name."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zout, \
            zipfile.ZipFile(wheel) as zin:
        for info in zin.infolist():
            if not info.is_dir():
                zout.writestr(info.filename, zin.read(info))
        for rel in py_files:
            zout.writestr(rel.as_posix(), (WEB / rel).read_bytes())
    pyc = compile_bytecode(buffer.getvalue(), f"/lib/python{py_mm}/site-packages")
    name = f"app-{sha256(pyc)[:12]}-pyc.zip"
    (out / name).write_bytes(pyc)
    return name


def warm_urls(pyodide_dir: str, interpreter: str, app: str, pyscript_pyc: str = "") -> str:
    """What web/js/prefetch.js fetches at once on a first visit, in parallel, so that the worker
    that runs Python finds it in the HTTP cache instead of discovering one file after
    the other (PyScript, its config, Pyodide's loader, the wasm, the standard library,
    the app's sources).
    <link rel=preload> cannot do this: a preload serves only its own document, never a
    worker, and a modulepreload would compile Pyodide's 1 MB of JavaScript on the main
    thread for nothing. The standard library is added by prefetch.js."""
    urls = [interpreter, f"{pyodide_dir}/pyodide.mjs", f"{pyodide_dir}/pyodide.asm.mjs",
            f"{pyodide_dir}/pyodide.asm.wasm", "pyscript.json", app, pyscript_pyc]
    return " ".join(dict.fromkeys(url for url in urls if url))


def prerender_rules(out: Path) -> list[str]:
    """dist/rules/<lang>.html: the rules dialog exactly as the page renders it (the
    page's own web/ modules, run here under CPython), so web/js/rules.js can open it before
    Python is ready in the browser."""
    added = [str(WEB), str(ROOT)]
    sys.path[:0] = added
    try:
        from app import render as board_view
        from app.core.i18n import LANGS, Texts
        from app.core.page_state import PageState, RulesDialog
        from app.screen import build_screen

        tables = {
            lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in LANGS
        }
        (out / "rules").mkdir(exist_ok=True)
        written = []
        for lang in LANGS:
            page = PageState()
            page.dialog = RulesDialog()
            html = board_view.dialog(build_screen(page, None, Texts(tables, lang)))
            (out / "rules" / f"{lang}.html").write_text(html + "\n", encoding="utf-8")
            written.append(f"rules/{lang}.html")
        return written
    finally:
        for path in added:
            sys.path.remove(path)


class PrerenderHost:
    """The browser host port of web/main.DomHost, in memory, for a new visitor: empty
    storage, no fragment. Only what ``Controller.boot`` and ``render`` call; the clock and
    the date are fixed (nothing on the welcome screen shows them: tests/test_prerender.py
    renders with other ones and compares)."""

    def __init__(self, today: str = "2026-01-01", tz: int = 0) -> None:
        self.html: dict[str, str] = {}
        self.storage: dict[str, str] = {}
        self.lang = "en"
        self.today = today
        self.tz = tz
        self.focused: str | None = None  # the last render's focus (scripts/preboard.py)

    def set_html(self, name: str, html: str) -> None:
        self.html[name] = html

    def focus(self, element_id: str | None) -> None:
        self.focused = element_id  # the welcome's: the live page's showModal() decides

    def announce(self, seq: int, text: str) -> None:
        pass  # the live region is never part of a snapshot

    def storage_get(self, key: str) -> str | None:
        return self.storage.get(key)

    def storage_set(self, key: str, value: str) -> None:
        self.storage[key] = value

    def storage_remove(self, key: str) -> None:
        self.storage.pop(key, None)

    def storage_write_if(self, key: str, expected: str | None, value: str,
                         also: tuple[tuple[str, str], ...] = ()) -> str:
        stored = self.storage.get(key)
        if stored is not None and stored != expected:
            return "conflict"
        self.storage[key] = value
        self.storage.update(also)
        return "written"

    def storage_write_soon(self, key: str, expected: str | None, value: str,
                           also: tuple[tuple[str, str], ...],
                           trouble: Callable[[str], None]) -> None:
        outcome = self.storage_write_if(key, expected, value, also)
        if outcome != "written":
            trouble(outcome)

    def storage_later(self, key: str, value: str | None) -> None:
        if value is None:
            self.storage.pop(key, None)
        else:
            self.storage[key] = value

    def storage_keys(self) -> list[str]:
        return list(self.storage)

    def now_iso(self) -> str:
        return f"{self.today}T00:00:00.000Z"

    def local_date(self) -> str:
        return self.today

    def tz_minutes(self) -> int:
        return self.tz

    def page_base(self) -> str:
        return "https://skyline.invalid/"

    def clear_fragment(self) -> None:
        pass

    def set_lang(self, lang: str) -> None:
        self.lang = lang

    def cue(self, cues_json: str) -> None:
        pass  # a first visit has played nothing: nothing moves

    def report(self, text: str) -> None:
        raise RuntimeError(f"the page reported a fault while prerendering: {text}")

    def can_share(self) -> bool:
        return False  # the welcome screen offers no share sheet

    def fault(self, where: str) -> bool:
        return False


def load_dom() -> ModuleType:
    """web/app/core/dom.py: the DOM ids the page's Python, its JS and this build share
    (standard library only, so it is loaded on its own, without the page's package)."""
    spec = importlib.util.spec_from_file_location("skyline_page_dom",
                                                  WEB / "app" / "core" / "dom.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DOM = load_dom()
# The regions web/js/paint.js paints from a picture of the last render: notices are
# transient and never part of one.
WELCOME_REGIONS: tuple[str, ...] = DOM.SNAPSHOT_REGIONS


def welcome_regions(lang: str, host: PrerenderHost | None = None) -> dict[str, str]:
    """The regions' HTML of the page's first render for a new visitor (empty storage, no
    fragment, browser language ``lang``): the welcome dialog over a fresh solo game, run
    by the page's own Controller under CPython, exactly as main.py renders it."""
    added = [str(WEB), str(ROOT)]
    sys.path[:0] = added
    try:
        from app.controller import Controller

        host = host or PrerenderHost()
        controller = Controller(host, read_tables(), (lang,))
        controller.boot("")
        return {name: host.html.get(name, "") for name in WELCOME_REGIONS}
    finally:
        for path in added:
            sys.path.remove(path)


def host_commands() -> dict[str, object]:
    """web/app/core/commands.py's HOST_COMMANDS (the names web/js/ needs), for the page."""
    added = [str(WEB), str(ROOT)]
    sys.path[:0] = added
    try:
        from app.core.commands import HOST_COMMANDS

        return json.loads(json.dumps(HOST_COMMANDS))
    finally:
        for path in added:
            sys.path.remove(path)


def read_tables() -> dict[str, dict[str, str]]:
    return {path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted((WEB / "i18n").glob("*.json"))}


def welcome_template(lang: str) -> str:
    """A ``<template>`` holding the first render of a new visitor in ``lang`` for
    web/js/paint.js to paint at once, like the snapshot of a repeat visit (no inline
    script: the CSP allows none). The welcome dialog is opened with showModal() by the
    page; here it is a plain open <dialog>, placed like the modal one by the styles
    (.snapshot dialog[open]); the live page renders its own."""
    regions = welcome_regions(lang)
    dialog = regions["dialog"]
    if not dialog.startswith("<dialog "):
        sys.exit(f"[build] the first render ({lang}) has no welcome dialog: {dialog[:80]!r}")
    regions["dialog"] = "<dialog open " + dialog[len("<dialog "):]
    texts = read_tables()[lang]
    starting, rules = escape(texts["loading.starting"]), escape(texts["btn.rules"])
    body = "".join(f'<div data-region="{name}">{html}</div>' for name, html in regions.items())
    return (f'<template data-first-paint="{lang}" data-starting="{starting}"'
            f' data-rules="{rules}">{body}</template>')


def preboard_script() -> str:
    """The screens a new visitor's presses lead to before Python is ready, as a data
    block for web/js/preboard.js (scripts/preboard.py; index.html's ``@PREBOARD@``)."""
    import preboard  # scripts/preboard.py

    tables = read_tables()
    added = [str(WEB), str(ROOT)]
    sys.path[:0] = added
    try:
        from app.controller import Controller

        def start(lang: str) -> tuple[PrerenderHost, Controller]:
            host = PrerenderHost()
            controller = Controller(host, tables, (lang,))
            controller.boot("")
            return host, controller

        labels = {lang: {"starting": t["loading.starting"], "rules": t["btn.rules"]}
                  for lang, t in tables.items()}
        return preboard.as_script(preboard.walk(start, sorted(tables), WELCOME_REGIONS,
                                                labels))
    finally:
        for path in added:
            sys.path.remove(path)


def first_paint_templates() -> str:
    """One welcome template per language (index.html's ``@FIRST_PAINT@``)."""
    return "\n  ".join(welcome_template(path.stem)
                       for path in sorted((WEB / "i18n").glob("*.json")))


# The page's scripts: ES modules in web/js/; index.html loads these two (boot.js
# render-blocking, host.js before PyScript).
PAGE_ENTRIES = ("js/boot.js", "js/host.js")
# js/paint.js is an entry of its own too, so that its check of a stored picture can be
# imported by itself (e2e/test_start_paint.py); so is js/live.js, the live tables'
# transport with its npm library (@trystero-p2p/nostr) bundled in: no entry imports it
# statically, so no visit loads it until a player opens a live table; the page's
# import("./live.js") (web/js/live-page.js, at the first liveJoin) resolves to this
# entry, not to a copy in a chunk (e2e/test_live_transport.py checks dist).
JS_ENTRIES = (*PAGE_ENTRIES, "js/paint.js", "js/live.js")
# Loaded by URL, not bundled: the page imports it after a restored start and the
# interpreter module imports it in the worker (the same file, so one cache entry).
JS_EXTERNAL = ("../snapshot.mjs",)


def bundle_scripts(out: Path) -> str:
    """Bundle the page's modules with esbuild into out/js/: the entries and the chunks
    they share (one instance of each module, as unbundled), instead of 26 files. A phone
    on one slow link paints sooner: the render-blocking graph is boot.js and its chunks,
    not 26 modules, and a return visit asks the service worker for a few files instead
    of 28. Identifiers are kept, so a console error still names the function. Returns
    index.html's ``<link rel=modulepreload>`` for the chunks the page's entries import,
    fetched with them."""
    esbuild = NODE_MODULES / ".bin" / "esbuild"
    meta = out / "js" / "meta.json"
    # run in out/: the metafile names the outputs relative to it ("js/boot.js")
    subprocess.run(
        [str(esbuild), *(str(WEB / rel) for rel in JS_ENTRIES), "--bundle", "--splitting",
         "--format=esm", "--outdir=js", "--minify-whitespace", "--minify-syntax",
         "--log-level=warning", f"--metafile={meta}", "--chunk-names=[name]-[hash]",
         *(f"--external:{name}" for name in JS_EXTERNAL)],
        check=True, cwd=out)
    outputs = json.loads(meta.read_text())["outputs"]
    meta.unlink()
    shared: list[str] = []
    for entry in PAGE_ENTRIES:
        for imported in outputs[entry].get("imports", []):
            if imported["kind"] == "import-statement" and imported["path"] not in shared:
                shared.append(imported["path"])
    return "\n  ".join(f'<link rel="modulepreload" href="./{rel}">' for rel in shared)


def build_id(out: Path) -> str:
    """A content hash of everything in ``out`` so far (the page itself is not written
    yet): the page's snapshot of its last render is shown only by the same build."""
    digest = hashlib.sha256()
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        digest.update(path.relative_to(out).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def render_index(out: Path, pyscript_dir: str, pyodide_dir: str, stdlib: str,
                 warm: str, preloads: str) -> None:
    """Fill index.html's placeholders: runtime folder, languages, boot download size,
    build id, the first-visit welcome templates."""
    langs = sorted(p.stem for p in (out / "i18n").glob("*.json")) or ["en"]
    build = build_id(out)
    # Bytes web/js/prefetch.js counts for the progress bar (see TRACKED there).
    runtime = out / pyodide_dir
    boot_bytes = (runtime / "pyodide.asm.wasm").stat().st_size + (runtime / stdlib).stat().st_size
    html = (WEB / "index.html").read_text()
    for key, value in {
        "@PYSCRIPT_DIR@": pyscript_dir,
        "@I18N_LANGS@": " ".join(langs),
        "@BOOT_BYTES@": str(boot_bytes),
        "@WARM@": warm,
        # the bytecode config web/js/python-path.js picks when the service worker controls
        # the page
        "@CONFIG_PYC@": "pyscript-pyc.json" if (out / "pyscript-pyc.json").exists() else "",
        # a new visitor's welcome screen, painted by web/js/paint.js before Python
        "@FIRST_PAINT@": first_paint_templates(),
        # where the welcome's own presses lead before Python (web/js/preboard.js)
        "@PREBOARD@": preboard_script(),
        "@BUILD@": build,
        # the standard library web/js/prefetch.js warms on a first visit
        "@STDLIB@": f"{pyodide_dir}/{stdlib}",
        # what web/js/snapshot-maker.js hands web/snapshot-worker.mjs to make the snapshot
        "@SNAPSHOT@": "snapshot.json" if (out / "snapshot.json").exists() else "",
        # the command names web/js/ needs before Python is ready
        "@HOST_COMMANDS@": escape(json.dumps(host_commands(), separators=(",", ":"))),
        # the DOM ids web/js/ reads (web/app/core/dom.py)
        "@DOM@": escape(DOM.as_json()),
        # the chunks the page's entry modules import, fetched at once
        "@MODULE_PRELOADS@": preloads,
    }.items():
        html = html.replace(key, value)
    if re.search(r"@[A-Z_]+@", html) or "cdn" in html.lower():
        sys.exit("[build] index.html still has a placeholder or mentions a CDN")
    (out / "index.html").write_text(html)


def write_service_worker(out: Path) -> tuple[str, list[str]]:
    """Render sw.js with every file in dist (plus "./") and a content-hash cache name."""
    files = sorted(
        rel
        for rel in (p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        if rel != "sw.js"  # the SW script is not precached: the browser updates it itself
    )
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes() + b"\0")
    cache = f"skyline-{digest.hexdigest()[:16]}"
    urls = ["./"] + [f"./{rel}" for rel in files]
    sw = (WEB / "sw.js").read_text()
    sw = sw.replace('"@CACHE_NAME@"', json.dumps(cache))
    sw = sw.replace('["@PRECACHE@"]', json.dumps(urls, indent=2))
    (out / "sw.js").write_text(sw)
    return cache, urls


def build(out: Path, full_stdlib: bool = False, bytecode: bool = True) -> str:
    ensure_node_modules()
    pyodide_version = npm_package_version("pyodide")
    pyscript_version = npm_package_version("@pyscript/core")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        return _build(out, Path(tmp), full_stdlib, bytecode, pyodide_version, pyscript_version)


def _build(out: Path, tmp: Path, full_stdlib: bool, bytecode: bool, pyodide_version: str,
           pyscript_version: str) -> str:
    # The wheel is not served: a first visit loads the engine's modules on the start path
    # and the glue modules as sources in one text file (write_app_sources; the host
    # compresses text, not zip archives), the service worker's visits as bytecode
    # (write_app_bytecode); the engine's other modules come later (copy_engine).
    wheel = build_wheel(tmp)
    data = copy_package_data(out)
    engine_start, engine_later = copy_engine(out, wheel)
    py_files = copy_web(out)
    preloads = bundle_scripts(out)
    copy_qr_wheel(out)
    pyscript_dir = copy_pyscript(out, pyscript_version)
    pyodide_dir, py_mm, stdlib, lock_json = copy_pyodide(out, pyodide_version,
                                                         full_stdlib, bytecode)
    if not full_stdlib:
        write_qr_stdlib(out)
    app_sources = write_app_sources(out, wheel, engine_start, py_files)
    app_pyc = ""
    snapshot_key = ""
    if bytecode and not full_stdlib:
        app_pyc = write_app_bytecode(out, wheel, py_files, py_mm)
        snapshot_key = write_snapshot_config(out, pyodide_dir, stdlib, lock_json, app_pyc,
                                             wheel, py_files, py_mm)
    pyscript_pyc = ""
    if bytecode:
        import pyscript_bytecode  # scripts/pyscript_bytecode.py

        pyscript_pyc = pyscript_bytecode.write_pyscript_bytecode(
            out, pyscript_dir, py_mm, lambda data, path: compile_bytecode(data, path, True))
    loaders = write_loaders(out, pyodide_dir, stdlib, lock_json, snapshot_key,
                            (app_sources, app_pyc), py_mm, pyscript_pyc)
    interpreters = [f"{pyodide_dir}/{loader}" for loader in loaders]
    write_pyscript_config(out, interpreters)
    (out / "later.json").write_text(json.dumps({"files": engine_later}, indent=2) + "\n")
    prerender_rules(out)
    render_index(out, pyscript_dir, pyodide_dir, stdlib,
                 warm_urls(pyodide_dir, interpreters[0], app_sources, pyscript_pyc), preloads)
    cache, urls = write_service_worker(out)
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    runtime = sum(p.stat().st_size for p in (out / "runtime").rglob("*") if p.is_file())
    data_bytes = sum((out / rel).stat().st_size for rel in data)
    log(
        f"dist ready: {len(urls)} precached URLs, {total / 1e6:.2f} MB total, "
        f"{(total - runtime - data_bytes) / 1e3:.1f} kB own + {data_bytes / 1e3:.1f} kB "
        f"data fetched on first need, cache {cache}"
    )
    return cache


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder")
    parser.add_argument("--full-stdlib", action="store_true",
                        help="ship Pyodide's whole standard library and lock file")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="ship Python sources instead of compiled bytecode")
    args = parser.parse_args()
    build(args.out.resolve(), args.full_stdlib, not args.no_bytecode)


if __name__ == "__main__":
    main()
