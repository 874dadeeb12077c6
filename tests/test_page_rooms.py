"""The page's Python keeps its rooms (``web/``: ``main.py`` and the package ``app``):

- the core (``app.core``) imports no feature, and its modules import each other
  without a cycle;
- a feature (``app.<folder>``) imports only itself, the core and the engine;
- the shell (``SHELL``: the controller, the composers and the dialog table) and the host
  adapters (``HOST_ADAPTERS``: ``web/main.py``) compose the page: they alone import
  features; nothing of ``app`` imports a host adapter;
- any other module (a new one at the top of ``app/`` or of ``web/``) imports only the
  core and the engine until it is named in one of those lists;
- only a host adapter imports the browser (``js``, ``pyodide``, ``pyscript``): the rest
  reaches it through the host port and runs under CPython.

Every import counts, at the top, inside a function or under ``TYPE_CHECKING``: a reader
follows a type-level import as far as a run-time one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parent.parent / "web"

#: Modules of app/ that compose the features: with the host adapters, they alone may
#: import them.
SHELL = {"app.controller", "app.screen", "app.render", "app.dialog_table"}

#: Modules of web/ that talk to the browser: the only ones that may import it.
HOST_ADAPTERS = {"main"}

#: The browser's modules (Pyodide's ``js`` and ``pyodide``, PyScript's ``pyscript``).
BROWSER = {"js", "pyodide", "pyscript"}


def module_name(path: Path, root: Path = WEB) -> str:
    rel = path.relative_to(root).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def page_modules(root: Path = WEB) -> list[Path]:
    """The page's Python: the modules at the top of web/ and every module of app/."""
    return sorted([*root.glob("*.py"), *(root / "app").rglob("*.py")])


def imports(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, module) of every import of ``path`` (module ``name``), relative ones
    resolved."""
    found = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            # `from app.games import ui` imports the module app.games.ui
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def room(module: str, root: Path = WEB) -> str:
    """``core``, a feature's name, ``shell``, ``host`` (a host adapter), ``browser``,
    ``other`` (a page module in none of those rooms) or ``""`` (not the page's: the
    standard library, the engine)."""
    parts = module.split(".")
    if parts[0] in BROWSER:
        return "browser"
    for end in range(len(parts), 0, -1):  # `app.controller.Controller` is the controller's
        if ".".join(parts[:end]) in HOST_ADAPTERS:
            return "host"
        if ".".join(parts[:end]) in SHELL:
            return "shell"
    if parts[0] != "app":
        return "other" if (root / f"{parts[0]}.py").is_file() else ""
    if len(parts) >= 2 and (root / "app" / parts[1]).is_dir():
        return parts[1]
    return "other"  # app itself or a module at its top that no list names


def allowed(mine: str, theirs: str) -> bool:
    """May a module of room ``mine`` import one of room ``theirs``?"""
    if not theirs or theirs == mine:
        return True
    if theirs == "browser":
        return mine == "host"
    if theirs == "host":
        return False  # the page reaches the browser through the host port only
    if mine in ("shell", "host"):
        return True
    return theirs == "core" and mine != "core"  # every feature builds on the core


def violations(root: Path = WEB, browser: bool = True) -> list[str]:
    """Every import that breaks the rooms (``browser``: the imports of the browser too)."""
    found = []
    for path in page_modules(root):
        name = module_name(path, root)
        mine = room(name, root)
        for line, target in imports(path, name):
            theirs = room(target, root)
            if not allowed(mine, theirs) and (browser or theirs != "browser"):
                found.append(f"{path.relative_to(root)}:{line}: {mine} imports {target}")
    return found


def core_cycles(root: Path = WEB) -> list[list[str]]:
    """Cycles among the core's modules (each once, from its least module)."""
    paths = {module_name(path, root): path
             for path in sorted((root / "app" / "core").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        graph[name] = set()
        for _, target in imports(path, name):
            # `from app.core.session import Session` names the module app.core.session
            while target and target not in paths and target.count(".") > 1:
                target = target.rpartition(".")[0]
            if target in paths and target != name:
                graph[name].add(target)
    cycles = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(graph[path[-1]]):
            if nxt == path[0]:
                cycles.append(path[:])
            elif nxt not in path and nxt > path[0]:
                walk([*path, nxt])

    for start in sorted(graph):
        walk([start])
    return cycles


def test_every_page_module_keeps_to_its_room() -> None:
    assert violations(browser=False) == []  # the browser's imports: module by module below


def test_the_core_has_no_import_cycle() -> None:
    assert core_cycles() == []


def each_page_module() -> list[str]:
    return [path.relative_to(WEB).as_posix() for path in page_modules()]


@pytest.mark.parametrize("module", each_page_module())
def test_only_a_host_adapter_imports_the_browser(module: str) -> None:
    name = module_name(WEB / module)
    if room(name) == "host":
        return
    assert [target for _, target in imports(WEB / module, name)
            if room(target) == "browser"] == []


# ---------------------------------------------------------------------------- planted


def plant(tmp_path: Path, files: dict[str, str]) -> Path:
    """A web/ tree of a core, two features, the shell's controller and main.py, with
    ``files`` (path: source) added; every module clean but those."""
    web = tmp_path / "web"
    tree = {
        "main.py": "import js\nfrom pyodide.ffi import create_proxy\n"
                   "from app.controller import Controller\nfrom app.turn import play\n",
        "app/__init__.py": "",
        "app/controller.py": "from app.turn import play\nfrom app.games import ui\n",
        "app/core/__init__.py": "",
        "app/core/i18n.py": "",
        "app/core/session.py": "from app.core.i18n import Texts\n",
        "app/core/selection.py": "import json\n",
        "app/turn/__init__.py": "",
        "app/turn/play.py": "from app.core import session\nfrom skyline import Board\n"
                            "from . import views\n",
        "app/turn/views.py": "",
        "app/games/__init__.py": "",
        "app/games/ui.py": "from .. import core\nfrom app.core.i18n import Texts\n",
        **files,
    }
    for rel, text in tree.items():
        (web / rel).parent.mkdir(parents=True, exist_ok=True)
        (web / rel).write_text(text)
    return web


def test_the_planted_tree_is_clean(tmp_path: Path) -> None:
    web = plant(tmp_path, {})
    assert violations(web) == [] and core_cycles(web) == []


@pytest.mark.parametrize("rel, source, caught", [
    ("app/core/session.py",
     "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.turn.play import Play\n",
     "app/core/session.py:3: core imports app.turn.play.Play"),
    ("app/turn/play.py", "def f():\n    from ..games import ui\n",
     "app/turn/play.py:2: turn imports app.games.ui"),
    ("app/games/ui.py", "from app import controller\n",
     "app/games/ui.py:1: games imports app.controller"),
    ("app/helpers.py", "from app.games.ui import render\n",
     "app/helpers.py:1: other imports app.games.ui.render"),
    ("app/helpers.py", "from app.controller import Controller\n",
     "app/helpers.py:1: other imports app.controller.Controller"),
    ("workers.py", "import app.turn.play\n",
     "workers.py:1: other imports app.turn.play"),
    ("app/turn/play.py", "def f():\n    import js\n",
     "app/turn/play.py:2: turn imports js"),
    ("app/games/ui.py", "from pyodide.ffi import create_proxy\n",
     "app/games/ui.py:1: games imports pyodide.ffi.create_proxy"),
    ("app/core/session.py", "import pyscript\n",
     "app/core/session.py:1: core imports pyscript"),
    ("app/controller.py", "from js import setTimeout\n",
     "app/controller.py:1: shell imports js.setTimeout"),
    ("workers.py", "import js\n",
     "workers.py:1: other imports js"),
    ("app/controller.py", "import main\n",
     "app/controller.py:1: shell imports main"),
    ("app/core/i18n.py", "from main import host\n",
     "app/core/i18n.py:1: core imports main.host"),
])
def test_each_planted_violation_is_caught(tmp_path: Path, rel: str, source: str,
                                          caught: str) -> None:
    assert violations(plant(tmp_path, {rel: source})) == [caught]


def test_a_planted_cycle_in_the_core_is_caught(tmp_path: Path) -> None:
    web = plant(tmp_path, {
        "app/core/selection.py": "from typing import TYPE_CHECKING\n"
                                 "if TYPE_CHECKING:\n    from app.core.session import Session\n",
        "app/core/session.py": "from app.core.selection import Selection\n",
    })
    assert violations(web) == []
    assert core_cycles(web) == [["app.core.selection", "app.core.session"]]


@pytest.mark.parametrize("module, expected", [
    ("app.core.session", "core"), ("app.turn.play", "turn"), ("app.controller", "shell"),
    ("app.dialog_table", "shell"), ("main", "host"), ("js", "browser"),
    ("pyodide.ffi", "browser"), ("pyscript", "browser"), ("app", "other"),
    ("skyline.rules", ""), ("json", ""),
])
def test_rooms_are_named_by_their_folder_or_their_list(module: str, expected: str) -> None:
    assert room(module) == expected
