#!/usr/bin/env python3
"""List the standard-library modules the page and the engine use in Pyodide.

Builds the site with Pyodide's whole standard library (``build.py --full-stdlib``) into
a temporary folder, opens it in headless Chromium, loads the value table, then asks the
page (``window.skylineBots("modules", ...)``, web/bots_ui.py ``exercise_imports``) to
import every module that web/*.py and skyline/*.py name anywhere (found by reading
their source: imports inside functions count) and to run the paths that import lazily.
Every module then loaded that is in Pyodide's ``python_stdlib.zip`` is written to
``scripts/stdlib_modules.txt``, which scripts/build.py uses to cut the archive.
``e2e/test_runtime.py`` boots the cut runtime and checks the same imports still work.

Usage: ``python scripts/stdlib_modules.py [--check]`` (``--check``: print the
difference with the committed list, change nothing).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import serve  # noqa: E402 - scripts/serve.py
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

OUT = ROOT / "scripts" / "stdlib_modules.txt"
# Not used in the page: the command line (argparse, tqdm) and the solvers.
SKIPPED_SOURCES = {"__main__.py"}


ON_DEMAND = {"segno"}


def qr_extra_modules() -> set[str]:
    build = serve.load_script("build")
    return build.read_stdlib_modules(build.STDLIB_MODULES_QR) - build.read_stdlib_modules()


def page_imports() -> list[str]:
    """Every module web/main.py, web/app/**/*.py and skyline/**/*.py import (absolute
    names), plus the page's and the engine's own modules, read from their source."""
    names: set[str] = set()
    sources = ([ROOT / "web" / "main.py"] + sorted((ROOT / "web" / "app").rglob("*.py"))
               + sorted((ROOT / "skyline").rglob("*.py")))
    for path in sources:
        if path.name in SKIPPED_SOURCES:
            continue
        package = None  # web/main.py; else the (sub)package of the page or the engine
        if path.is_relative_to(ROOT / "skyline"):
            package = ".".join(path.relative_to(ROOT).parent.parts)
        elif path.is_relative_to(ROOT / "web" / "app"):
            package = ".".join(path.relative_to(ROOT / "web").parent.parts)
        if path.name != "main.py":  # main.py runs the page; it is not imported
            stem = path.stem if package is None else f"{package}.{path.stem}"
            names.add(package if path.stem == "__init__" else stem)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    # "from . import x" in skyline/players/expert.py is skyline.players;
                    # each further dot goes one package up
                    parts = (package or "").split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1])
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module or ""
                # "from importlib import resources" imports a submodule: try each name
                # (the page skips those that are attributes, not modules)
                names.add(module)
                names.update(f"{module}.{alias.name}" for alias in node.names)
    names.discard("__future__")
    names.discard("main")
    # Loaded on demand with the QR code library, never at start-up (build.py ships
    # them in dist/qr/): segno itself and the modules of stdlib_modules_qr.txt.
    names -= ON_DEMAND | qr_extra_modules()
    return sorted(n for n in names if n)


def page_modules(url: str, names: list[str]) -> dict:
    """Open the page at ``url``, load the value table, run exercise_imports(names)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']", timeout=180_000)
            for _ in range(600):  # fetched on first need: ask until it is here
                table = json.loads(page.evaluate("window.skylineBots('table', '')"))
                if "missing" not in table:
                    break
                page.wait_for_timeout(100)
            return json.loads(
                page.evaluate("(a) => window.skylineBots('modules', a)", ",".join(names))
            )
        finally:
            browser.close()


def stdlib_names(archive: Path) -> set[str]:
    """Module names the standard-library archive holds."""
    out = set()
    with zipfile.ZipFile(archive) as zf:
        for name in zf.namelist():
            if name.endswith("/__init__.py"):
                out.add(name[: -len("/__init__.py")].replace("/", "."))
            elif name.endswith(".py"):
                out.add(name[:-3].replace("/", "."))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    build = serve.load_script("build")
    with tempfile.TemporaryDirectory(prefix="skyline-stdlib-") as tmp:
        site = Path(tmp) / "site"
        build.build(site, full_stdlib=True)
        server = serve.make_server(site)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        host, port = server.server_address[:2]
        try:
            result = page_modules(f"http://{host}:{port}/", page_imports())
        finally:
            server.shutdown()
        archive = next(site.glob("runtime/pyodide-*/python_stdlib.zip"))
        in_zip = stdlib_names(archive)
    failed = {k: v for k, v in result["failed"].items() if k.split(".")[0] in in_zip}
    if failed or "<exercise>" in result["failed"]:
        sys.exit(f"imports failed even with the whole standard library: {result['failed']}")
    used = sorted(m for m in result["modules"] if m in in_zip)
    text = (
        "# Standard-library modules the page and the engine use in Pyodide, written by\n"
        "# scripts/stdlib_modules.py; scripts/build.py ships only these.\n"
        + "".join(f"{m}\n" for m in used)
    )
    if args.check:
        old = set(serve.load_script("build").read_stdlib_modules()) if OUT.is_file() else set()
        print(json.dumps({"added": sorted(set(used) - old), "removed": sorted(old - set(used))}))
        return
    OUT.write_text(text)
    print(f"{len(used)} modules of {len(in_zip)} written to {OUT.relative_to(ROOT)}; "
          f"not found outside the archive: {sorted(result['failed'])}")


if __name__ == "__main__":
    main()
