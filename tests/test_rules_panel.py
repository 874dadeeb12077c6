"""The rules panel (web/rules_panel.py) rendered in CPython, in English and German:
the solo section carries the rulebook's solo rules (002: Solo Player Rules, Solo
Levels, Solo Scenarios) with the engine's levels and scenarios, and every text
the panel shows comes from the string table of the language shown."""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from skyline import SCENARIOS, SOLO_LEVELS

WEB = Path(__file__).resolve().parent.parent / "web"
# The rule texts: ../shared/seeds beside the checkout (as CI places them), else this
# workplace's copy.
SEEDS = next(
    (d for d in (Path(__file__).resolve().parents[2] / "shared" / "seeds",
                 Path("/work/shared/seeds")) if d.is_dir()),
    Path("/work/shared/seeds"),
)
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from app.core.i18n import LANGS, Texts  # noqa: E402
from app.dialogs import rules_panel  # noqa: E402  (lives in web/, imported as the page does)

TABLES = {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in LANGS}


class Recorder:
    """What rules_panel.render reads of a ``screen.RulesView``: ``.t`` and ``.lang``.
    Records every key asked for."""

    def __init__(self, lang: str) -> None:
        self.texts = Texts(TABLES, lang)
        self.lang = lang
        self.keys: list[str] = []

    def t(self, key: str, /, **params: object) -> str:
        self.keys.append(key)
        return self.texts.t(key, **params)


class Tree(HTMLParser):
    """Text of each element with an id, and the rows (cell texts) of each table."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str | None]] = []
        self.text: dict[str, list[str]] = {}
        self.tables: list[tuple[str | None, list[list[str]]]] = []
        self.cell: list[str] | None = None
        self.nav: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.stack.append((tag, a.get("id")))
        if a.get("id"):
            self.text[a["id"]] = []
        if tag == "table":
            self.tables.append((a.get("aria-labelledby"), []))
        elif tag == "tr":
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "button" and a.get("data-action") == "rules-goto":
            self.nav.append(a.get("data-arg") or "")

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            top, _ = self.stack.pop()
            if top == tag:
                break
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        for _, ident in self.stack:
            if ident:
                self.text[ident].append(data)
        if self.cell is not None:
            self.cell.append(data)

    def of(self, ident: str) -> str:
        return " ".join("".join(self.text[ident]).split())


def render(lang: str) -> tuple[Recorder, Tree]:
    c = Recorder(lang)
    tree = Tree()
    tree.feed(rules_panel.render(c))
    return c, tree


def table(tree: Tree, labelled_by: str) -> list[list[str]]:
    rows = [rows for label, rows in tree.tables if label == labelled_by]
    assert len(rows) == 1, f"expected one table labelled by {labelled_by}"
    return rows[0]


@pytest.mark.parametrize("lang", LANGS)
def test_solo_section_is_in_the_panel_and_its_navigation(lang: str) -> None:
    c, tree = render(lang)
    assert "solo" in tree.nav
    assert "rules-solo" in tree.text
    assert tree.of("rules-solo-h") == TABLES[lang]["rules.solo.title"]
    # between the standard rules and the app's own notes
    assert tree.nav.index("scoring") < tree.nav.index("solo") < tree.nav.index("app")


@pytest.mark.parametrize("lang", LANGS)
def test_solo_levels_table_lists_the_engine_levels_40_to_100(lang: str) -> None:
    _, tree = render(lang)
    rows = table(tree, "rules-solo-levels-h")
    head, body = rows[0], rows[1:]
    texts = TABLES[lang]
    assert head == [texts["rules.solo.levels.points"], texts["rules.solo.levels.level"]]
    assert [int(points) for points, _ in body] == list(range(40, 101, 10))
    titles = dict(SOLO_LEVELS)
    assert body == [[str(p), TABLES[lang][f"level.{titles[p]}"]] for p in range(40, 101, 10)]
    # the title strings are the end screen's, shown as distinct names
    assert len({title for _, title in body}) == 7


def test_solo_levels_are_the_rulebooks() -> None:
    """The engine's levels, under their English titles, are exactly the rulebook's list."""
    seeds = sorted(SEEDS.glob("002_*.txt"))
    if not seeds:
        pytest.skip("rulebook seed 002 not on this machine")
    text = seeds[0].read_text("utf-8").split("\nSolo Levels\n", 1)[1].split("\nSolo Scenarios\n")[0]
    book = [(int(p), name.strip()) for p, name in re.findall(r"^(\d+) Points = (.+)$", text, re.M)]
    _, tree = render("en")
    body = table(tree, "rules-solo-levels-h")[1:]
    assert [(int(p), title) for p, title in body] == book
    assert len(book) == 7


@pytest.mark.parametrize("lang", LANGS)
def test_all_seven_scenarios_with_their_goals(lang: str) -> None:
    _, tree = render(lang)
    rows = table(tree, "rules-solo-scenarios-h")
    head, body = rows[0], rows[1:]
    texts = TABLES[lang]
    assert head == [texts["rules.solo.scenarios.scenario"], texts["rules.solo.scenarios.goal"]]
    assert len(SCENARIOS) == 7
    assert body == [
        [TABLES[lang][f"scenario.{s}"], TABLES[lang][f"scenario_goal.{s}"]] for s in SCENARIOS
    ]
    section = tree.of("rules-solo")
    assert TABLES[lang]["rules.solo.scenarios.title"] in section


def test_scenario_names_are_the_rulebooks() -> None:
    seeds = sorted(SEEDS.glob("002_*.txt"))
    if not seeds:
        pytest.skip("rulebook seed 002 not on this machine")
    text = seeds[0].read_text("utf-8").split("\nSolo Scenarios\n", 1)[1]
    text = text.split("\nSample Round\n")[0]
    book = re.findall(r"^([A-Z][A-Za-z ]+): Finish", text, re.M)
    _, tree = render("en")
    assert [name for name, _ in table(tree, "rules-solo-scenarios-h")[1:]] == book


def test_no_abandon_in_solo_is_stated_in_both_languages() -> None:
    sections = {lang: render(lang)[1].of("rules-solo") for lang in LANGS}
    assert "the Abandon action is not available" in sections["en"]
    assert "the abandoned district is not used at all" in sections["en"]
    assert "die Aktion Verlassen nicht" in sections["de"]
    assert "Das verlassene Viertel wird im Solospiel also überhaupt nicht benutzt" in sections["de"]
    # the action is named as the panel's action heading and the command button name it
    for lang, phrase in (("en", "the {} action"), ("de", "die Aktion {} nicht")):
        for key in ("rules.actions.abandon.title", "btn.abandon"):
            assert phrase.format(TABLES[lang][key]) in sections[lang], (lang, key)
    # the German text uses the German table's terms, not English ones
    for key in ("yard.title", "btn.demolish", "rules.kind.high", "rules.legend.ground"):
        term = TABLES["de"][key]
        assert term.lower()[:-1] in sections["de"].lower(), key
    assert "Abandon" not in sections["de"] and "Demolish" not in sections["de"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_the_panel_shows_is_in_that_languages_table(lang: str) -> None:
    c, _ = render(lang)
    assert c.keys, "render asked for no text"
    missing = sorted(set(c.keys) - set(TABLES[lang]))
    assert not missing, missing
    wanted = {"rules.solo.title", "rules.solo.body", "level.urban-overseer", "scenario.tucson"}
    assert wanted <= set(c.keys)


def test_rules_keys_are_the_same_in_both_tables() -> None:
    keys = {lang: {k for k in table if k.startswith("rules.")} for lang, table in TABLES.items()}
    assert keys["en"] == keys["de"], keys["en"] ^ keys["de"]
    assert {k for k in keys["en"] if k.startswith("rules.solo.")}, "no solo rule texts"
    # German is translated, not copied
    for key in sorted(k for k in keys["en"] if k.startswith("rules.solo.")):
        assert TABLES["de"][key] != TABLES["en"][key], key
