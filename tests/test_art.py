"""The pictures of web/art.py rendered in CPython: dice and skylines are well-formed
SVG/HTML without inline styles (the CSP forbids them), every die type has its own
outline and every face its own symbol, buildings are drawn to one scale, and every
text comes from the string tables of both languages."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from skyline import building_points

WEB = Path(__file__).resolve().parent.parent / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from app.core import art  # noqa: E402  (lives in web/, imported as the page does)
from app.core.i18n import LANGS, Texts  # noqa: E402

TABLES = {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in LANGS}
DICE = [(d, f) for d in "GUP" for f in ("xbo" if d == "P" else "pbo")]


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def no_style(markup: str) -> None:
    assert "style=" not in markup and "<style" not in markup


@pytest.mark.parametrize(("die", "face"), [*DICE, ("G", None), ("U", None), ("P", None)])
def test_die_svg_is_decorative_svg_without_styles(die: str, face: str | None) -> None:
    markup = art.die_svg(die, face)
    root = parse(markup)
    assert root.tag == "svg" and root.get("aria-hidden") == "true"
    assert f"t-{die}" in root.get("class", "") and f"f-{face or 'n'}" in root.get("class", "")
    no_style(markup)


def test_die_types_have_their_own_outline_and_faces_their_own_symbol() -> None:
    bodies = {d: art.die_svg(d, None).split("<g ")[0] for d in "GUP"}
    assert len(set(bodies.values())) == 3
    glyphs = {(d, f): art.die_svg(d, f).split("<g ")[1] for d, f in DICE}
    # within a type, every face draws something else (not only another colour class)
    for d in "GUP":
        own = [re.sub(r'class="[^"]*"', "", glyphs[(d, f)]) for d2, f in DICE if d2 == d]
        assert len(set(own)) == 3
    # the blank penthouse is no dashed square any more
    assert "dasharray" not in art.die_svg("P", "x")


def test_die_svg_refuses_impossible_faces() -> None:
    with pytest.raises(KeyError):
        art.die_svg("G", "x")
    with pytest.raises(KeyError):
        art.die_svg("Q", "p")


def test_buildings_share_one_scale_and_show_their_state() -> None:
    heights = {}
    for h in range(1, 7):
        svg = parse(art.building_svg("o", h, True))
        _x, _y, width, height = map(float, svg.get("viewBox").split())
        heights[h] = height
        # drawn 1 px a unit at the skyline's 16 px font size, scaled with it (em)
        assert svg.get("width") == f"{width / 16:g}em" and svg.get("height") == f"{height / 16:g}em"
    assert all(heights[h + 1] - heights[h] == art.FLOOR for h in range(1, 6))
    blue = art.building_svg("b", 3, True)
    orange = art.building_svg("o", 3, True)
    assert "roof" in blue and "roof" in orange and blue.count("roof") != orange.count("roof")
    assert "scaffold" in art.building_svg("b", 3, False)
    assert "scaffold" not in blue
    for kind in "pbo":
        for h in range(1, 7):
            for done in (True, False):
                markup = art.building_svg(kind, h, done)
                parse(markup)
                no_style(markup)
    with pytest.raises(ValueError, match="no building"):
        art.building_svg("x", 2, True)


def test_lot_points_are_the_engines() -> None:
    assert art.Lot("o", 5, True).points == building_points(5) == 25
    assert art.Lot("b", 2, False).points == 0


@pytest.mark.parametrize("lang", LANGS)
def test_street_labels_and_captions_come_from_the_tables(lang: str) -> None:
    texts = Texts(TABLES, lang)
    asked: list[str] = []

    def t(key: str, /, **params: object) -> str:
        asked.append(key)
        return texts.t(key, **params)

    def street(lots: list[art.Lot], label: str) -> str:
        return art.street_html(
            [(lot, art.lot_label(t, lot), t("tile.points", points=lot.points) if lot.completed
              else t("art.unfinished_cap")) for lot in lots], label, t("skyline.empty"))

    extra = art.Lot("b", 4, True, "demolish", "tile", "0", "tile-0-9")
    lots = [art.Lot("o", 1, False, None, "col", "0", "col-0-0"), extra]
    markup = street(lots, t("player.label", name="<Ada>"))
    root = parse(markup)
    no_style(markup)
    assert root.get("tabindex") == "0" and root.get("role") == "group"
    assert root.get("aria-label") == texts.t("player.label", name="<Ada>")
    assert all(key in TABLES[lang] for key in asked)
    pics = [el for el in root.iter() if "art-pic" in el.get("class", "")]
    assert len(pics) == len(lots)
    button = [el for el in pics if el.tag == "button"]
    assert len(button) == 1 and button[0].get("data-action") == "tile"
    label = texts.t("tile.label", kind=texts.t("kind.short.b"), height=4, points=16)
    assert button[0].get("aria-label") == texts.t("target.demolish", what=label)
    caps = [el.text for el in root.iter() if el.get("class") == "art-cap"]
    assert caps[-1] == texts.t("tile.points", points=16)
    empty = parse(street([], "x"))
    assert empty.find("p").text == texts.t("skyline.empty")
