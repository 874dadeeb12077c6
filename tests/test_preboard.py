"""The screens before the board (scripts/preboard.py, shown by web/js/preboard.js while
Python starts) are what the live page renders after the same presses, in English and
German, on any day and in any time zone; the welcome's own choices all lead somewhere,
and nothing that needs the engine's decision (Start, the daily challenge) is among them."""

from __future__ import annotations

import json
import re
import sys
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from test_prerender import load_build  # scripts/build.py, loaded under its own name
from web_fakes import FakeHost, make_page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import preboard  # noqa: E402 - scripts/preboard.py


@pytest.fixture(scope="module")
def graph() -> dict[str, Any]:
    script = load_build().preboard_script()
    match = re.fullmatch(r'<script type="application/json" id="preboard">(.*)</script>', script,
                         re.S)
    assert match, script[:80]
    assert "</" not in match.group(1), "a text in the data block could end it"
    return json.loads(match.group(1).replace("<\\/", "</"))


def parse_key(key: str) -> preboard.Press:
    kind, name, *arg = key.split(" ")
    return (kind, name, arg[0] if arg else "")


def paths(graph: dict[str, Any]) -> dict[int, tuple[str, list[str]]]:
    """A shortest path of press keys from a welcome to every screen."""
    found: dict[int, tuple[str, list[str]]] = {}
    todo = deque((start, lang, []) for lang, start in graph["start"].items())
    while todo:
        screen, lang, path = todo.popleft()
        if screen in found:
            continue
        found[screen] = (lang, path)
        for key, there in graph["moves"][screen].items():
            todo.append((there, lang, [*path, key]))
    return found


def test_every_screen_is_what_the_live_page_renders_after_the_same_presses(graph) -> None:
    """Each screen, reached by its presses from the welcome of a browser language, against
    the page's Controller with the computer players installed (as main.py has them), on
    another day, in another time zone, with a share sheet."""
    reached = paths(graph)
    assert set(reached) == set(range(len(graph["screens"]))), "a screen no press reaches"
    for index, (lang, path) in reached.items():
        host = FakeHost()
        host.today, host.tz, host.share_ok, host.clock = "2031-07-15", -300, True, 50
        controller, host, _ = make_page(langs=(lang,), host=host)
        for key in path:
            preboard.apply_press(controller, parse_key(key))
        screen = graph["screens"][index]
        assert screen["lang"] == controller.texts.lang, path
        for region, html_index in screen["regions"].items():
            live = host.html.get(region, "")
            if region == "dialog":
                live = preboard.painted_dialog(live)
            assert graph["html"][html_index] == live, (path, region)


def test_the_welcome_choices_lead_to_their_screens(graph) -> None:
    """From each welcome: the number of players redraws the form, Learn to play opens the
    tutorial, "Play solo now" and Escape close the dialog; from the closed welcome the
    menu opens, the language changes and New game opens the form again."""
    html, screens, moves = graph["html"], graph["screens"], graph["moves"]
    for lang, start in graph["start"].items():
        other = next(code for code in graph["start"] if code != lang)
        welcome = moves[start]
        for count in (2, 3, 4):
            dialog = html[screens[welcome[f"change count {count}"]]["regions"]["dialog"]]
            assert len(re.findall(r'<input name="name\d"', dialog)) == count
        tutorial = screens[welcome["click tutorial"]]
        assert 'data-testid="coach"' in "".join(html[i] for i in tutorial["regions"].values())
        closed = welcome["click close"]
        assert welcome["key Escape"] == closed
        assert html[screens[closed]["regions"]["dialog"]] == ""
        menu = moves[closed]["click menu"]
        assert 'aria-expanded="true"' in html[screens[menu]["regions"]["topbar"]]
        switched = moves[menu][f"click lang {other}"]
        assert screens[switched]["lang"] == other
        form = moves[closed]["click newgame"]
        assert 'data-testid="dialog-newgame"' in html[screens[form]["regions"]["dialog"]]


def test_nothing_the_engine_decides_is_a_screen(graph) -> None:
    """Start, the daily challenge, a die: never a move (they wait for Python, pending);
    every screen holds a fresh solo game or the tutorial's, nothing played."""
    keys = {key for moves in graph["moves"] for key in moves}
    assert keys <= {preboard.press_key(p) for p in preboard.candidate_presses(graph["start"])}
    assert not any(key.startswith(("click daily", "click ng-start", "click roll", "submit"))
                   for key in keys)
    assert len(graph["screens"]) <= preboard.MAX_SCREENS


def test_both_languages_have_the_same_screens(graph) -> None:
    """The walk from German is the walk from English in other words: as many screens,
    the same presses from each."""
    by_lang: dict[str, list[set[str]]] = {}
    for screen, moves in zip(graph["screens"], graph["moves"], strict=True):
        by_lang.setdefault(screen["lang"], []).append(
            {re.sub(r"^click lang \w+$", "click lang", key) for key in moves})
    en, de = by_lang["en"], by_lang["de"]
    assert len(en) == len(de)
    assert sorted(map(sorted, en)) == sorted(map(sorted, de))


def test_press_keys_are_the_ones_the_page_builds() -> None:
    """web/js/preboard.js builds the same keys: "click <action> <arg>" trimmed,
    "change count <n>", "key Escape"."""
    source = (ROOT / "web" / "js" / "preboard.js").read_text(encoding="utf-8")
    assert '`click ${data.action ?? ""} ${data.arg ?? ""}`.trimEnd()' in source
    assert "`change count ${target.value}`" in source and '"key Escape"' in source
    assert preboard.COUNT_FIELD == "count"
    for press in preboard.candidate_presses(["en", "de"]):
        key = preboard.press_key(press)
        assert key == key.strip() and "  " not in key
