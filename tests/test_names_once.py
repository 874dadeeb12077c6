"""Every name the page's Python shares with another place is written once: a command's
name is a ``Cmd`` (never a literal in ``data-action``), a DOM id that more than one
module writes or looks for comes from ``app.core.dom``, and ``index.html`` holds the
regions ``app.core.dom.REGIONS`` lists, in that order.

The ids are read from the HTML the modules write (``id="…"``, up to the first
``{``: ``id="die-{n}"`` names the family ``die-``); a string literal in another module
that is such an id, or starts with such a family's prefix, is the same name written
twice.
"""

from __future__ import annotations

import ast
import functools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from app.core import dom
from app.core.commands import Cmd

WEB = Path(__file__).resolve().parent.parent / "web"
ID = re.compile(r'\bid="([A-Za-z][\w-]*)')
#: What follows a family's prefix in an id: a letter in capitals or a number.
FAMILY_MEMBER = re.compile(r"[A-Z0-9]\b|\d")
#: A family named after the commands: act-roll, act-end.
COMMAND_NAMES = frozenset(Cmd)
ACTION = re.compile(r'\bdata-(?:action|submit)="([^"{]+)"')


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, read once for all the checks."""
    return ast.parse(path.read_text(encoding="utf-8"))


def page_modules(web: Path = WEB) -> list[Path]:
    return sorted([*(web / "app").rglob("*.py"), *web.glob("*.py")])


def literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal of a module but its docstrings, the parts of
    an f-string one by one."""
    tree = parsed(path)
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def written_ids(modules: list[Path]) -> dict[str, set[Path]]:
    """Each id (or id family, ending in ``-``) the modules write into HTML, by module."""
    found: dict[str, set[Path]] = {}
    for path in modules:
        for _, text in literals(path):
            for name in ID.findall(text):
                found.setdefault(name, set()).add(path)
    return found


def ids_written_twice(web: Path = WEB) -> list[str]:
    """Literals naming an id that another module writes (or that two modules write)."""
    modules = page_modules(web)
    ids = written_ids(modules)
    found = []
    for path in modules:
        if path.name == "commands.py":
            continue  # the commands' names: a button's id may be its command's name
        for line, text in literals(path):
            for name, writers in ids.items():
                if name.endswith("-"):  # a family: die-3, yard-G, tile-0-2
                    member = text[len(name):]
                    named = text.startswith(name) and (
                        bool(FAMILY_MEMBER.match(member)) or member in COMMAND_NAMES)
                else:
                    named = text == name or f'id="{name}"' in text
                if named and writers - {path}:
                    found.append(f"{path.relative_to(web)}:{line}: {text!r} "
                                 f"(written by {sorted(p.name for p in writers)})")
    return found


def named_ids(modules: list[Path]) -> dict[str, str]:
    """The ids written through a constant (``id="{NAME}"``, and every constant of
    ``app.core.dom``): their value, by the constant's name."""
    used: set[str] = set()
    constants: dict[str, str] = {}
    for path in modules:
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                for before, value in zip(node.values, node.values[1:], strict=False):
                    if (isinstance(before, ast.Constant) and str(before.value).endswith('id="')
                            and isinstance(value, ast.FormattedValue)):
                        used.add(ast.unparse(value.value).rpartition(".")[2])
        for node in tree.body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper()
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
                name = node.targets[0].id
                if path.name == "dom.py" or name in used:
                    constants[name] = node.value.value
    return constants


def ids_written_out(web: Path = WEB) -> list[str]:
    """Literals spelling out an id that a constant names (one with a hyphen: a plain word
    such as ``turn`` is also a rules section, a key, a kind of DOM command)."""
    modules = page_modules(web)
    values = {value: name for name, value in named_ids(modules).items() if "-" in value}
    found = []
    for path in modules:
        tree = parsed(path)
        defining = {id(node.value) for node in tree.body if isinstance(node, ast.Assign)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and node.value in values
                    and id(node) not in defining and path.name not in ("commands.py", "dom.py")):
                found.append(f"{path.relative_to(web)}:{node.lineno}: {node.value!r} "
                             f"(that is {values[node.value]})")
    return found


def commands_written_out(web: Path = WEB) -> list[str]:
    """Command names written as text: in a ``data-action`` of HTML, or a literal that is
    a command's name with a hyphen (a shorter one, ``roll``, is also a plain word)."""
    found = []
    for path in page_modules(web):
        if path.name == "commands.py":
            continue
        for line, text in literals(path):
            found += [f"{path.relative_to(web)}:{line}: data-action {name!r}"
                      for name in ACTION.findall(text)]
            if "-" in text and text in COMMAND_NAMES:
                found.append(f"{path.relative_to(web)}:{line}: {text!r}")
    return found


def test_a_dom_id_shared_by_modules_comes_from_the_core() -> None:
    assert ids_written_twice() == []


def test_an_id_with_a_name_is_never_spelled_out() -> None:
    assert ids_written_out() == []


def test_an_id_spelled_out_beside_its_constant_is_caught(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "a.py").write_text(
        'BOX = "the-box"\nHTML = f\'<p id="{BOX}">\'\n', encoding="utf-8")
    (tmp_path / "app" / "b.py").write_text('def focus():\n    return "the-box"\n',
                                           encoding="utf-8")
    assert ids_written_out(tmp_path) == ["app/b.py:2: 'the-box' (that is BOX)"]


def test_no_command_name_is_written_out() -> None:
    assert commands_written_out() == []


class _Regions(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [value for key, value in attrs if key == "id" and value]


def test_index_html_holds_the_regions_the_core_lists() -> None:
    parser = _Regions()
    parser.feed((WEB / "index.html").read_text(encoding="utf-8"))
    regions = [name for name in parser.ids if name in dom.REGIONS]
    assert regions == list(dom.REGIONS)
    assert dom.ANNOUNCE in parser.ids


@pytest.mark.parametrize("plant", [
    ("app/a.py", 'X = \'<b id="btn-x">\'', "app/b.py", 'FOCUS = "btn-x"'),
    ("app/a.py", "X = f'<b id=\"die-{n}\">'", "app/b.py", 'MARK = "die-3"'),
    ("app/a.py", "X = '<p id=\"same\">'", "app/b.py", "Y = '<p id=\"same\">'"),
])
def test_an_id_written_in_two_modules_is_caught(tmp_path: Path, plant) -> None:
    (tmp_path / "app").mkdir()
    for name, source in (plant[:2], plant[2:]):
        (tmp_path / name).write_text(f'"""A module: id="{name}" here is a docstring."""\n'
                                     f"{source}\n", encoding="utf-8")
    assert len(ids_written_twice(tmp_path)) >= 1


def test_a_command_written_out_is_caught(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "a.py").write_text(
        "X = '<button data-action=\"roll\">'\nY = f'<button data-action=\"{CMD}\">'\n"
        "Z = ('take-control', '', 'btn.play_here')\n", encoding="utf-8")
    assert commands_written_out(tmp_path) == ["app/a.py:1: data-action 'roll'",
                                              "app/a.py:3: 'take-control'"]
