"""Nothing of the page runs or parses as markup a string from a link, a save or a name,
other than through the escaping views.

1. **The page's JavaScript** (web/*.js, web/*.mjs, comments left out): no ``eval(``,
   ``new Function(`` / ``Function(``, ``setTimeout`` / ``setInterval`` with a string,
   ``.innerHTML =`` / ``.outerHTML =``, ``insertAdjacentHTML``, ``document.write``,
   ``createContextualFragment``, ``parseFromString``, ``srcdoc``, ``import()`` /
   ``importScripts()`` of a computed address — except the lines of :data:`ALLOWED_JS`,
   each with the reason it is safe (and the list is exact: a line that is gone must
   leave it). The HTML that
   web/js/render.js puts into the page (``setHtml``, ``setDialog``) is made by the
   Python views below, nothing else.
2. **The Python views** (web/*.py): in every f-string that builds HTML (its fixed part
   has a tag or an attribute), every interpolated value that can hold a player's text
   goes through an escaping function (``esc`` of web/board_view.py, web/dialogs.py,
   web/games_ui.py …, ``_esc`` of web/art.py, both ``html.escape``; ``esc_names`` of
   web/names.py, which escapes and isolates names in ``<bdi>``). What can hold a
   player's text: a field of the page's view types (dataclasses and named tuples of
   web/*.py and skyline/, annotated ``str``: names, game names, links, seeds, saved
   texts, and the sentences that quote them) read directly or through a local variable,
   a loop over it or a string method; fields that only ever hold the page's own words
   or the engine's letters and numbers are listed in :data:`NOT_PLAYER_TEXT`, the few
   interpolations that read like text but are not in :data:`ALLOWED_PY`, each with its
   reason. HTML put together with ``+`` or ``.format`` is held to the same rule.
3. **Rendered**: the page's Controller under CPython (tests/web_fakes.py) with hostile
   names (``<img src=x onerror=…>``, ``"><script>``, ``{{7*7}}``, a right-to-left
   override …) in the new-game dialog, a ``#play?`` link, a ``#game?`` link, an imported
   game, a single save of an older version, a game's new name and a broken entry shown
   for export; every region's HTML, parsed, has no element or attribute a name brought
   (no ``<img>``, ``<script>``, no ``on…=``), no raw ``"><script>``, and the names that
   were accepted are shown as text, literally.
4. The scanners catch a deliberate violation: copies of web/ with one bad line each.
5. A game's name (its new name, or the name in an imported file) may not turn the text
   around either: refused or isolated wherever it is shown, as players' names are (the
   replay's title and the notices of a deletion and a restore show it without <bdi>).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from app import render as board_view
from app.controller import Controller
from web_fakes import make_page, start_game

from skyline import Board, make_save
from skyline.records.game_links import make_game_link
from skyline.records.game_list import entry_to_json, make_entry

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
SKYLINE = ROOT / "skyline"

# ---------------------------------------------------------------------------- JavaScript

# Sinks that run a string as code or parse it as markup.
JS_SINKS = {
    "eval": re.compile(r"(?<![\w$.])eval\s*\("),
    "Function": re.compile(r"(?<![\w$.])(?:new\s+)?Function\s*\("),
    "timer with a string": re.compile(r"(?<![\w$])set(?:Timeout|Interval)\s*\(\s*['\"`]"),
    "innerHTML/outerHTML": re.compile(r"\.(?:inner|outer)HTML\s*\+?=(?!=)"),
    "insertAdjacentHTML": re.compile(r"\binsertAdjacentHTML\s*\("),
    "document.write": re.compile(r"\bdocument\s*\.\s*write(?:ln)?\s*\("),
    "createContextualFragment": re.compile(r"\bcreateContextualFragment\s*\("),
    "parseFromString": re.compile(r"\bparseFromString\s*\("),
    "srcdoc": re.compile(r"\bsrcdoc\b"),
    "computed import": re.compile(r"(?<![\w$.])(?:import|importScripts)\s*\(\s*(?!['\"`)])"),
}
# Markup that is certainly no data: emptying an element.
EMPTYING = re.compile(r"\.(?:inner|outer)HTML\s*=\s*(?:\"\"|''|``)\s*;?$")

# (file, the line's code: comments left out, spaces trimmed) -> why it is safe.
ALLOWED_JS = {
    ("js/render.js", "else el.innerHTML = html;"):
        "setHtml: a region's HTML from the Python views (web/board_view.py and the views "
        "it calls), which escape every text with esc/esc_names (part 2 of this test)",
    ("js/render.js", "region.innerHTML = html;"):
        "setDialog, a new dialog: HTML of the Python views, as for setHtml",
    ("js/render.js", "template.innerHTML = html;"):
        "setDialog, a dialog replacing another: HTML of the Python views, parsed in an "
        "inert <template> first",
    ("js/render.js", "template.innerHTML = added;"):
        "patchHtml: the game log's new lines, HTML of the Python views cut by "
        "web/app/core/region_edits.py, parsed in an inert <template> first",
    ("js/render.js", "old.innerHTML = fresh.innerHTML;"):
        "setDialog: the same dialog's new content, already parsed from the views' HTML",
    ("js/paint.js", 'const parsed = new DOMParser().parseFromString(html, "text/html").body;'):
        "the paint snapshot: a region's HTML read back from this origin's storage, parsed "
        "in a DOMParser's document (nothing loads or runs there) and painted only if every "
        "element and attribute is one the page renders (web/app/core/dom.py's allow-list: "
        "no images, styles, handlers, inert, links elsewhere), else dropped whole",
    ("js/rules.js", "rulesHost.innerHTML = html;"):
        "the rules before Python: rules/<lang>.html of this site, rendered at build time "
        "by web/rules_panel.py (no player data)",
    ("js/preboard.js", "else region.innerHTML = data.html[index];"):
        "a screen before the board: a region's HTML from index.html's #preboard block, "
        "rendered at build time by the page's own Controller for a new visitor "
        "(scripts/preboard.py; no player data)",
    ("js/preboard.js", "template.innerHTML = html;"):
        "a screen before the board's dialog, as above, parsed in an inert <template> first",
    ("js/preboard.js", "old.innerHTML = fresh.innerHTML;"):
        "the same dialog's content on a screen before the board, as above",
    ("snapshot-worker.mjs", "const { loadPyodide } = await import(base.href);"):
        "the interpreter module named by the site's own snapshot.json (scripts/build.py), "
        "resolved against the worker's address",
}


def strip_js_comments(source: str) -> str:
    """``source`` with its comments blanked (strings, templates and regular expressions
    kept; line numbers unchanged)."""
    out: list[str] = []
    i, n = 0, len(source)
    last = ""  # the last character of code that is not a space (regex or division?)
    while i < n:
        c = source[i]
        nxt = source[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        if c == "/" and nxt == "*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in source[i:end]))
            i = end
            continue
        if c in "'\"`" or (c == "/" and (not last or last in "(,=:[!&|?{};+-*%<>~^")):
            j = i + 1
            in_class = False
            while j < n:
                if source[j] == "\\":
                    j += 2
                    continue
                if c == "/" and source[j] == "[":
                    in_class = True
                elif c == "/" and source[j] == "]":
                    in_class = False
                elif source[j] == c and not in_class:
                    break
                elif source[j] == "\n" and c != "`":
                    break  # not a string or regex after all
                j += 1
            out.append(source[i:j + 1])
            last = c
            i = j + 1
            continue
        out.append(c)
        if not c.isspace():
            last = c
        i += 1
    return "".join(out)


def js_findings(folder: Path) -> list[tuple[str, int, str, str]]:
    """(file, line number, the line's code, sink) for every sink found in folder/*.js
    and *.mjs, in every folder below."""
    found = []
    for path in sorted([*folder.rglob("*.js"), *folder.rglob("*.mjs")]):
        code = strip_js_comments(path.read_text(encoding="utf-8")).splitlines()
        for number, line in enumerate(code, start=1):
            for sink, pattern in JS_SINKS.items():
                if pattern.search(line) and not EMPTYING.search(line.strip()):
                    found.append((path.relative_to(folder).as_posix(), number, line.strip(),
                                  sink))
    return found


def js_violations(folder: Path) -> list[str]:
    return [f"web/{name}:{number}: {sink}: {line}"
            for name, number, line, sink in js_findings(folder)
            if (name, line) not in ALLOWED_JS]


def test_javascript_passes_no_string_to_code_or_markup() -> None:
    assert not js_violations(WEB), (
        "a string reaches a code or markup sink; pass data as text (textContent, "
        "setAttribute) or justify the line in ALLOWED_JS:\n" + "\n".join(js_violations(WEB)))
    present = {(name, line) for name, _, line, _ in js_findings(WEB)}
    stale = sorted(set(ALLOWED_JS) - present)
    assert not stale, f"ALLOWED_JS names lines that are gone: {stale}"


@pytest.mark.parametrize("line, kept", [
    ("const s = 1; /* eval( // */ const t = '// eval(';", "const s = 1; const t = '// eval(';"),
    ("const re = /\\/\\/[^/]*/g; // eval(", "const re = /\\/\\/[^/]*/g;"),
    ("const u = `http://x/${a}`; x = a / b; // eval(", "const u = `http://x/${a}`; x = a / b;"),
])
def test_comment_stripping_keeps_code_and_strings(line: str, kept: str) -> None:
    stripped = strip_js_comments(line)
    assert len(stripped) == len(line)
    assert " ".join(stripped.split()) == kept


# ---------------------------------------------------------------------------- Python views

ESCAPERS = {"esc", "esc_names", "escape", "_esc"}
# String methods and functions that keep a text what it was (tainted stays tainted).
KEEPS_TEXT = {"str", "format", "format_map", "join", "strip", "lstrip", "rstrip", "upper",
              "lower", "title", "capitalize", "replace", "repr", "casefold"}
# Fields annotated ``str`` that only ever hold the page's words or the engine's letters
# and numbers, never a player's text -> why.
NOT_PLAYER_TEXT = {
    "id": "ids the engine and the page make: game ids ([a-z0-9-]), die numbers, element ids",
    "game": "a game id ([a-z0-9]) the engine derives from the options",
    "type": "a die's type letter (G, U, P, D) from the engine",
    "face": "a die's face letter from the engine",
    "kind": "a building kind, seat kind or dialog kind: the page's fixed words",
    "phase": "the turn's phase name (engine enum)",
    "level": "a notice's level (info, warn, error) or a computer level's fixed name",
    "event": "a log entry's event kind: fixed words",
    "action": "a command's name (commands.Cmd)",
    "path": "the statistics chart's polyline points: numbers",
    "qr": "SVG markup segno draws from the page's own link (modules only, no text)",
    "target": "a build target's kind (a CSS class suffix from the engine)",
    "nonce": "a game's nonce ([A-Za-z0-9_-]{0,16}, checked by the engine)",
}
# (file, interpolated expression) -> why it is no player's text.
ALLOWED_PY = {
    ("app/topbar/html.py", "other"): "the other page language (i18n.LANGS)",
    ("app/turn/html.py", "cmd.name"): "a turn command's name (commands.Cmd)",
    ("app/computer/html.py", "v"): "the computer's pace value (normal, fast, instant)",
    ("app/games/ui.py", "step"): "a replay round's step number",
    ("app/games/ui.py", "i"): "a seat number",
    ("app/daily/ui.py", "y"): "a chart coordinate (a number)",
    ("app/daily/ui.py", "y + 4"): "a chart coordinate (a number)",
}


def text_fields(*folders: Path) -> set[str]:
    """Names of the fields annotated with ``str`` (or ``Text``) in the classes of these
    folders' modules: the page's view types and the engine's records."""
    names = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef):
                    continue
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        annotation = ast.unparse(item.annotation)
                        if re.search(r"\b(?:str|Text)\b", annotation):
                            names.add(item.target.id)
    return names


def builds_html(text: str) -> bool:
    return bool(re.search(r"<[a-zA-Z/!]|\b[\w-]+=[\"']", text))


@dataclass
class Taint:
    """Which values in one function can hold a player's text (flow-insensitive)."""

    fields: set[str]
    names: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, function: ast.AST | None, fields: set[str]) -> Taint:
        taint = cls(fields)
        if function is None:
            return taint
        for _ in range(4):  # until no new name is tainted (assignments in any order)
            before = len(taint.names)
            for node in ast.walk(function):
                targets: list[ast.AST] = []
                value: ast.AST | None = None
                if isinstance(node, ast.Assign):
                    targets, value = list(node.targets), node.value
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                    targets, value = [node.target], node.value
                elif isinstance(node, (ast.For, ast.comprehension)):
                    targets, value = [node.target], node.iter
                if value is not None and taint.holds_text(value):
                    for target in targets:
                        taint.names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            if len(taint.names) == before:
                break
        return taint

    def holds_text(self, e: ast.AST) -> bool:
        if isinstance(e, ast.Name):
            return e.id in self.names
        if isinstance(e, ast.Attribute):
            return e.attr in self.fields
        if isinstance(e, ast.Call):
            func = e.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ESCAPERS or name not in KEEPS_TEXT:
                return False  # escaped, or a view function (its own f-strings are checked)
            parts = [*e.args, *(kw.value for kw in e.keywords)]
            if isinstance(func, ast.Attribute):
                parts.append(func.value)
            return any(self.holds_text(p) for p in parts)
        if isinstance(e, ast.JoinedStr):
            if builds_html(literal(e)):
                return False  # HTML: checked where it is built
            return any(self.holds_text(v.value) for v in e.values
                       if isinstance(v, ast.FormattedValue))
        if isinstance(e, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            return self.holds_text(e.elt)
        if isinstance(e, ast.Subscript):
            return self.holds_text(e.value)
        if isinstance(e, ast.IfExp):
            return self.holds_text(e.body) or self.holds_text(e.orelse)
        if isinstance(e, ast.BoolOp):
            return any(self.holds_text(v) for v in e.values)
        if isinstance(e, ast.BinOp):
            return self.holds_text(e.left) or self.holds_text(e.right)
        if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
            return any(self.holds_text(v) for v in e.elts)
        return False


def literal(node: ast.JoinedStr) -> str:
    return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))


def innermost_functions(tree: ast.AST) -> dict[int, ast.AST]:
    """id(node) -> the innermost function around it."""
    owner: dict[int, ast.AST] = {}

    def visit(node: ast.AST, function: ast.AST | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            function = node
        if function is not None:
            owner[id(node)] = function
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return owner


class Taints:
    """The ``Taint`` of the function around each node of one module (made once each)."""

    def __init__(self, tree: ast.AST, fields: set[str]) -> None:
        self.owner = innermost_functions(tree)
        self.fields = fields
        self.made: dict[int, Taint] = {}

    def at(self, node: ast.AST) -> Taint:
        function = self.owner.get(id(node))
        if id(function) not in self.made:
            self.made[id(function)] = Taint.of(function, self.fields)
        return self.made[id(function)]


def py_findings(folder: Path, fields: set[str]) -> list[tuple[str, int, str]]:
    """(file, line, expression) of every value that can hold a player's text and is put
    into HTML unescaped, in folder/**/*.py."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        taints = Taints(tree, fields)
        for node in ast.walk(tree):
            values: list[ast.AST] = []
            if isinstance(node, ast.JoinedStr) and builds_html(literal(node)):
                values = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
            elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
                parts = operands(node)
                if any((isinstance(p, ast.Constant) and builds_html(str(p.value)))
                       or (isinstance(p, ast.JoinedStr) and builds_html(literal(p)))
                       for p in parts):
                    values = [p for p in parts if not is_html_format(p)]
            elif is_html_format(node):
                assert isinstance(node, ast.Call)
                values = [*node.args, *(kw.value for kw in node.keywords)]
            for value in values:
                if isinstance(value, ast.Constant):
                    continue
                finding = (path.relative_to(folder).as_posix(), getattr(node, "lineno", 0),
                           ast.unparse(value))
                if finding not in found and taints.at(node).holds_text(value):
                    found.append(finding)
    return found


def operands(node: ast.AST) -> list[ast.AST]:
    """The parts of a chain of ``+`` / ``%``: ``a + '<b>' + c`` -> [a, '<b>', c]."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return operands(node.left) + operands(node.right)
    if isinstance(node, ast.Tuple):  # '<b>%s</b>' % (a, b)
        return list(node.elts)
    return [node]


def is_html_format(node: ast.AST) -> bool:
    """``'<b>{}</b>'.format(...)``: checked as a whole (its arguments)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format" and isinstance(node.func.value, ast.Constant)
            and builds_html(str(node.func.value.value)))


def py_violations(folder: Path) -> list[str]:
    fields = text_fields(folder, SKYLINE) - set(NOT_PLAYER_TEXT)
    return [f"web/{name}:{line}: {{{expr}}}" for name, line, expr in py_findings(folder, fields)
            if (name, expr) not in ALLOWED_PY]


def test_views_escape_every_player_text_they_put_into_html() -> None:
    violations = py_violations(WEB)
    assert not violations, (
        "a value that can hold a player's text goes into HTML unescaped; wrap it in esc() "
        "(or esc_names() for a sentence with names) or justify it in ALLOWED_PY:\n"
        + "\n".join(violations))
    fields = text_fields(WEB, SKYLINE) - set(NOT_PLAYER_TEXT)
    present = {(name, expr) for name, _, expr in py_findings(WEB, fields)}
    stale = sorted(set(ALLOWED_PY) - present)
    assert not stale, f"ALLOWED_PY names interpolations that are gone: {stale}"


# ---------------------------------------------------------------------------- the scanners


@pytest.mark.parametrize("where, line", [
    ("js/render.js", "document.getElementById('log').innerHTML = location.hash;"),
    ("js/host.js", "eval(localStorage.getItem('x'));"),
    ("js/boot.js", "setTimeout('go()', 10);"),
    ("js/paint.js", "const f = new Function('return ' + name);"),
    ("js/rules.js", "document.body.insertAdjacentHTML('beforeend', name);"),
    ("js/events.js", "document.write(name);"),
    ("sw.js", "importScripts(self.location.hash.slice(1));"),
])
def test_the_javascript_scan_fails_on_a_violation(tmp_path: Path, where: str, line: str) -> None:
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy, ignore=shutil.ignore_patterns("*.py", "i18n", "icons"))
    path = copy / where
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n// {line}\n",
                    encoding="utf-8")
    found = js_violations(copy)
    assert len(found) == 1 and line in found[0], found  # the comment is not counted


@pytest.mark.parametrize("where, before, after", [
    ("app/topbar/html.py", "{esc(L[\"btn.games\"])}", "{L[\"btn.games\"]}{v.seats[0].name}"),
    ("app/games/ui.py", "esc(r.name)", "r.name"),
    ("app/render.py", "{esc_names(n.text, names_of(s))}", "{n.text}"),
])
def test_the_view_scan_fails_on_a_violation(tmp_path: Path, where: str, before: str,
                                            after: str) -> None:
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy, ignore=shutil.ignore_patterns("i18n", "icons", "*.js", "*.mjs"))
    path = copy / where
    source = path.read_text(encoding="utf-8")
    assert before in source, f"{before} is no longer in web/{where}: update this test"
    path.write_text(source.replace(before, after, 1), encoding="utf-8")
    found = py_violations(copy)
    assert found and all(where in f for f in found), found


def test_the_view_scan_follows_a_name_through_a_variable(tmp_path: Path) -> None:
    copy = tmp_path / "web"
    copy.mkdir()
    (copy / "view.py").write_text(
        "from html import escape as esc\n\n\n"
        "def row(r):\n"
        "    who = r.name.strip()\n"
        "    fine = esc(r.name)\n"
        "    parts = [n for n in r.names]\n"
        "    return (f'<li title=\"{who}\">{fine}</li>' + '<b>' + parts[0] + '</b>'\n"
        "            + '<i>{}</i>'.format(r.seed))\n",
        encoding="utf-8")
    found = py_violations(copy)
    assert sorted(found) == sorted([
        "web/view.py:8: {who}", "web/view.py:8: {parts[0]}", "web/view.py:9: {r.seed}"]), found


# ---------------------------------------------------------------------------- rendered

# The brief's own payloads (the longest are refused as names: more than 24 characters),
# the same attacks short enough to be accepted, a template and a right-to-left override.
HOSTILE = (
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "<img src=x onerror=f()>",
    '"><script>f()</script>',
    "{{7*7}}",
    "Bob\u202egnp.exe",
)
SHORT = ("<img src=x onerror=f()>", '"><script>f()</script>', "{{7*7}}", "'><b onclick=f()>")
# Elements the page never renders itself (a name that made one would be markup).
FOREIGN_TAGS = {"img", "script", "iframe", "object", "embed", "frame", "style", "link",
                "meta", "base"}
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f]")
ISOLATING = {"bdi", "option", "textarea"}


class Page(HTMLParser):
    """The tags, attributes and text of some HTML, each text with its open elements."""

    VOID = {"input", "br", "img", "hr", "meta", "link", "area", "base", "col", "source",
            "wbr", "path", "line", "circle", "rect", "polyline", "use"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[tuple[str, tuple[tuple[str, dict[str, str | None]], ...]]] = []
        self.stack: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.texts.append((data, tuple(self.stack)))


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


def check_regions(c: Controller, where: str, shown: set[str]) -> None:
    """Every region as the page would render it now: nothing a name brought is markup;
    the accepted names seen as text are added to ``shown``."""
    for region, html in board_view.render(c.renderer.screen()).items():
        context = f"{where}, {region}"
        for raw in ('"><script>', "<script", "<img", "<iframe"):
            assert raw not in html, f"{context}: raw {raw!r} in {html[:300]!r}"
        page = parse(html)
        for tag, attrs in page.tags:
            assert tag not in FOREIGN_TAGS, f"{context}: a <{tag}> element"
            bad = [a for a in attrs if a.startswith("on") or a in ("src", "srcdoc")]
            assert not bad, f"{context}: <{tag}> with {bad}"
        text = "".join(data for data, _ in page.texts)
        shown |= {name for name in HOSTILE + SHORT if name in text}
        assert "{7*7}" not in text.replace("{{7*7}}", ""), f"{context}: a name was formatted"
        for data, open_elements in page.texts:
            if BIDI.search(data):  # isolated: a <bdi>, dir=auto, or a box of its own
                assert any(tag in ISOLATING or attrs.get("dir") == "auto"
                           for tag, attrs in open_elements), f"{context}: {data!r} not isolated"


def hostile_export(names: tuple[str, ...], seed: str) -> str:
    """A game file (an exported entry) with ``names`` put in by hand (the engine would
    refuse some of them: the page must say so without showing them as markup)."""
    placeholders = [f"Zq{i}" for i in range(len(names))]
    text = entry_to_json(make_entry(Board.new(placeholders, seed=seed), ["here"] * len(names)))
    for placeholder, name in zip(placeholders, names, strict=True):
        text = text.replace(placeholder, json.dumps(name)[1:-1])
    return text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_hostile_names_render_as_text(lang: str) -> None:
    shown: set[str] = set()
    langs = (lang,)
    # a single save of an older version, and a broken game entry with markup in it
    legacy = make_save(Board.new(list(SHORT[:2]), seed="xss-legacy"))
    broken = '{"v": 1, "kind": "skyline-entry", "name": "</textarea><script>f()</script>"'
    c, host, _ = make_page({"skyline.save": legacy, "skyline.game.zzzz": broken},
                           langs=langs, bots=False)
    check_regions(c, "a single save with hostile names", shown)
    export = next(n for n in c.page.notices if n.button and n.button.action == "export-save")
    c.handle("click", "export-save", export.button.arg)
    check_regions(c, "a broken entry shown for export", shown)
    c.handle("click", "close", None)

    # the new-game dialog: every name, accepted or refused, in all four seats
    for i in range(0, len(HOSTILE), 2):
        names = HOSTILE[i:i + 2] + SHORT[2:4]
        c.handle("click", "newgame", None)
        form = {"count": "4", "seed": "xss-dialog", "start": "0"}
        for seat, name in enumerate(names):
            form[f"name{seat}"] = name
            form[f"seat{seat}"] = "human"
        c.handle("submit", "ng-start", None, form=form)
        check_regions(c, f"new-game dialog with {names}", shown)
        c.handle("click", "close", None)
    start_game(c, SHORT, ("human",) * 4, "xss-game")
    c.handle("click", "take", "0")
    check_regions(c, "a game of hostile names", shown)
    for opener in ("games", "share", "stats", "newgame", "rules"):
        c.handle("click", opener, None)
        check_regions(c, f"the {opener} dialog over it", shown)
        c.handle("click", "close", None)

    # links: #play? with every payload (each alone and all four short ones), #game?
    for names in [(name,) for name in HOSTILE] + [SHORT]:
        fragment = "#play?p=" + ",".join(quote(n, safe="") for n in names) + "&seed=xss-link"
        c.handle("hashchange", None, fragment)
        check_regions(c, f"a #play? link with {names}", shown)
        c.handle("click", "close", None)
    friend = Board.new(list(SHORT[:2]), seed="xss-corr")
    c.handle("hashchange", None, "#" + make_game_link(friend, ("human", "human"), "n1")
             .split("#", 1)[-1])
    check_regions(c, "a #game? link with hostile names", shown)
    c.handle("click", "close", None)

    # imported games: accepted names, and every payload put in by hand
    for names in [SHORT[:2], HOSTILE[:2], HOSTILE[4:]]:
        c.handle("click", "games", None)
        c.handle("click", "game-import-text", None,
                 form={"text": hostile_export(names, "xss-import")})
        check_regions(c, f"an imported game with {names}", shown)
    # a game's new name (up to 60 characters: the longest payload fits; the override
    # is the next test's), deleted and back, replayed
    gid = c.session.entry.id
    for name in [n for n in HOSTILE if not BIDI.search(n)]:
        c.handle("click", "games", None)
        c.handle("click", "game-rename", gid)
        c.handle("submit", "game-rename-save", None, form={"id": gid, "name": name})
        check_regions(c, f"a game renamed {name!r}", shown)
        c.handle("click", "game-delete", gid)
        check_regions(c, f"the game {name!r} deleted", shown)
        c.handle("click", "game-undelete", gid)
    c.handle("click", "close", None)
    c.handle("click", "game-replay", gid)
    check_regions(c, "the replay of it", shown)

    # the test reached the views: every short payload was shown, as text
    assert set(SHORT) <= shown, f"never shown as text: {set(SHORT) - shown}"
    assert host.storage  # the page kept going


def test_a_game_name_never_turns_the_text_around() -> None:
    """A game's name with a right-to-left override (typed as its new name, or in an
    imported file) is refused or isolated wherever it is shown, as players' names are:
    the list, the replay's title, the notices of a deletion and of an import."""
    c, _, _ = make_page(bots=False)
    start_game(c, ("Ann", "Bo"), ("human", "human"), "bidi-game")
    gid = c.session.entry.id
    name = "Bob\u202egnp.exe"
    c.handle("click", "games", None)
    c.handle("click", "game-rename", gid)
    c.handle("submit", "game-rename-save", None, form={"id": gid, "name": name})
    check_regions(c, "the list", set())
    c.handle("click", "game-delete", gid)
    check_regions(c, "the game deleted", set())
    c.handle("click", "game-undelete", gid)
    c.handle("click", "close", None)
    c.handle("click", "game-replay", gid)
    check_regions(c, "its replay", set())
    c.handle("click", "replay-close", None)
    text = hostile_export(("Cy", "Di"), "bidi-import").replace('"name":"Cy, Di"',
                                                               f'"name":{json.dumps(name)}')
    c.handle("click", "games", None)
    c.handle("click", "game-import-text", None, form={"text": text})
    check_regions(c, "an imported game of that name", set())
