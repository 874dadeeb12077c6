# ruff: noqa: E501 - SVG and HTML templates read better unwrapped
"""Pictures of the game: SVG for the dice and for each player's skyline.

Pure Python (no PyScript import), so CPython renders the same markup in tests and
scripts (``scripts/cvd_check.py`` renders a sheet of every die face from it).

Colours come from CSS (classes in web/style.css, block "art"), never from inline
styles: the site's CSP has no ``'unsafe-inline'`` for styles. SVG presentation
attributes (geometry, ``transform``) are not styles and are fine.

Design, so a die and a building read without colour:

* **Die types by outline.** Ground floor: a die standing on a wide dark plinth
  (an upside-down T). Upper floor: a die between two dark floor slabs that stick
  out on both sides (an I-beam, one storey of a stack). Penthouse: a die with its
  top corners cut off like a roof.
* **Faces by symbol and pattern**, besides their colour. Purple: a low, wide block
  with diagonal hatching. Blue: a narrow tower with round windows (dots). Orange: a
  tall, wide high-rise with an antenna and horizontal bands. Blue penthouse: a
  pitched (gable) roof on a storey with dots. Orange penthouse: a crown with a spire
  and bands. Blank penthouse: a light face with only the hollow outline of a roof
  over an empty floor line (nothing to build).
* **Buildings** use the same patterns: every storey is one die, bottom-up ground
  floor (dark plinth and a door), upper floors (a slab line under each), and on a
  completed blue or orange building its penthouse (gable or crown with spire); a
  completed low-rise gets a flat roof with a parapet. An unfinished building has an
  open top inside scaffolding. All buildings share one scale (one storey is
  ``FLOOR`` px) and stand on one street line; a wide skyline scrolls sideways.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import NamedTuple

from app.core.html import esc as _esc
from skyline import building_points

Translate = Callable[..., str]

TYPE_LETTERS = "GUP"
FACE_LETTERS = "pbox"
KIND_LETTERS = "pbo"

# ---------------------------------------------------------------------------- dice

#: The die's body (class ``bg body``) and its type marks (class ``edge``), per type,
#: in a 48 x 48 box; ``glyph`` is where the 28 x 28 face symbol goes.
_BODY = {
    # ground floor: the die stands on a wide plinth
    "G": '<rect class="bg body" x="6" y="3" width="36" height="36" rx="6"/>'
    '<rect class="edge" x="2" y="38" width="44" height="8" rx="2"/>',
    # upper floor: a storey between two floor slabs
    "U": '<rect class="bg body" x="7" y="6" width="34" height="36" rx="3"/>'
    '<rect class="edge" x="2" y="2" width="44" height="6" rx="2"/>'
    '<rect class="edge" x="2" y="40" width="44" height="6" rx="2"/>',
    # penthouse: top corners cut like a roof
    "P": '<path class="bg body" d="M3 45 V19 L17 3 H31 L45 19 V45 Z"/>',
}
_GLYPH_AT = {"G": (10, 6), "U": (10, 10), "P": (10, 15)}

_FACE_GLYPHS = {
    # low-rise: a low, wide block with diagonal hatching
    "p": '<rect class="g" x="1" y="13" width="26" height="15" rx="1"/>'
    '<path class="hatch" d="M3 26 L11 15 M9 26 L17 15 M15 26 L23 15 M21 26 L25.5 19.8"/>',
    # mid-rise: a narrow tower with round windows
    "b": '<rect class="g" x="7" y="2" width="14" height="26" rx="1"/>'
    '<circle class="dot" cx="11" cy="7" r="2"/><circle class="dot" cx="17" cy="7" r="2"/>'
    '<circle class="dot" cx="11" cy="14" r="2"/><circle class="dot" cx="17" cy="14" r="2"/>'
    '<circle class="dot" cx="11" cy="21" r="2"/><circle class="dot" cx="17" cy="21" r="2"/>',
    # high-rise: tall and wide, antenna, horizontal bands
    "o": '<rect class="g" x="0" y="4" width="28" height="24" rx="1"/>'
    '<rect class="g" x="12.5" y="-3" width="3" height="8"/>'
    '<rect class="band" x="3" y="8" width="22" height="3"/><rect class="band" x="3" y="14" width="22" height="3"/>'
    '<rect class="band" x="3" y="20" width="22" height="3"/>',
}
_PENT_GLYPHS = {
    # blue penthouse: a gable roof over a storey with round windows
    "b": '<path class="g" d="M0 14 L14 1 L28 14 Z"/><rect class="g" x="4" y="14" width="20" height="13"/>'
    '<circle class="dot" cx="10" cy="20.5" r="2.2"/><circle class="dot" cx="18" cy="20.5" r="2.2"/>',
    # orange penthouse: a crown with a spire, banded
    "o": '<path class="g" d="M0 28 V9 L7 15 L14 0 L21 15 L28 9 V28 Z"/>'
    '<rect class="band" x="3" y="18" width="22" height="3"/><rect class="band" x="3" y="23" width="22" height="3"/>',
    # blank: the hollow outline of a roof over an empty floor line
    "x": '<path class="empty" d="M2 15 L14 4 L26 15"/><path class="empty" d="M5 25 H23"/>'
    '<path class="empty thin" d="M6 15 V25 M22 15 V25"/>',
}
_UNROLLED = '<text class="q" x="14" y="22" text-anchor="middle">?</text>'


def die_svg(type_letter: str, face_letter: str | None) -> str:
    """One die as an inline SVG (decorative: the caller puts the label on its element).

    ``type_letter`` is G, U or P; ``face_letter`` one of ``pbox`` or None for a die
    not rolled yet. Raises KeyError for letters that are no die or face of that die.
    """
    if face_letter is None:
        glyph = _UNROLLED
    elif type_letter == "P":
        glyph = _PENT_GLYPHS[face_letter]
    else:
        glyph = _FACE_GLYPHS[face_letter]
    x, y = _GLYPH_AT[type_letter]
    return (
        f'<svg class="die-svg art-die t-{type_letter} f-{face_letter or "n"}" viewBox="0 0 48 48" '
        f'aria-hidden="true" focusable="false">{_BODY[type_letter]}'
        f'<g transform="translate({x} {y})">{glyph}</g></svg>'
    )


# ---------------------------------------------------------------------------- buildings

FLOOR = 14  # px per storey, the same for every building: heights are to scale
ROOM = 16  # px above the tallest storey for roofs, spires and scaffolding
SIDE = 5  # px on each side for the scaffolding
WIDTH = {"p": 34, "b": 26, "o": 38}  # the low-rise is wide, the high-rise wider still


def _storey_pattern(kind: str, x: int, y: int, w: int) -> str:
    """The kind's pattern on one storey whose top-left corner is (x, y)."""
    if kind == "p":
        step = 7
        lines = " ".join(
            f"M{x + i:g} {y + FLOOR - 3} L{x + i + 6:g} {y + 3}" for i in range(3, w - 7, step)
        )
        return f'<path class="hatch" d="{lines}"/>'
    if kind == "b":
        return "".join(
            f'<circle class="dot" cx="{x + i}" cy="{y + FLOOR / 2:g}" r="2.2"/>'
            for i in range(6, w - 3, 7)
        )
    return f'<rect class="band" x="{x + 3}" y="{y + 5}" width="{w - 6}" height="3.5"/>'


@functools.lru_cache(maxsize=256)  # a few dozen shapes, drawn after every click
def building_svg(kind: str, height: int, completed: bool) -> str:
    """One building to scale: ``height`` storeys of ``kind`` (p, b or o).

    Bottom-up: the ground floor (plinth and door), the upper floors, and on a
    completed mid- or high-rise the penthouse as its top storey (gable roof or crown
    with spire); a completed low-rise gets a flat roof with a parapet; an unfinished
    building stands open-topped in scaffolding.
    """
    if kind not in WIDTH or height < 1:
        raise ValueError(f"no building of kind {kind!r} and height {height!r}")
    w = WIDTH[kind]
    total_w = w + 2 * SIDE
    total_h = height * FLOOR + ROOM
    x = SIDE
    penthouse = completed and kind in "bo"
    body_floors = height - 1 if penthouse else height
    parts = []
    for i in range(body_floors):
        y = total_h - (i + 1) * FLOOR
        parts.append(f'<rect class="storey" x="{x}" y="{y}" width="{w}" height="{FLOOR}"/>')
        parts.append(_storey_pattern(kind, x, y, w))
        if i == 0:  # ground floor: a door and the plinth, as on the ground-floor die
            parts.append(
                f'<rect class="door" x="{x + w // 2 - 3}" y="{y + 4}" width="6" height="{FLOOR - 4}"/>'
                f'<rect class="edge" x="{x - 2}" y="{total_h - 3}" width="{w + 4}" height="3"/>'
            )
        else:  # upper floor: its slab, as on the upper-floor die
            parts.append(
                f'<rect class="edge" x="{x - 1}" y="{y + FLOOR - 1.5:g}" width="{w + 2}" height="2"/>'
            )
    top = total_h - body_floors * FLOOR  # y of the highest storey's top edge
    if penthouse and kind == "b":
        # gable roof: a storey with round windows under a pitched roof
        base = top - FLOOR
        mid = x + w / 2
        parts.append(
            f'<path class="storey roof" d="M{x - 2} {base + 7} L{mid:g} {base - 5} L{x + w + 2} {base + 7} Z"/>'
            f'<rect class="storey" x="{x + 2}" y="{base + 7}" width="{w - 4}" height="{FLOOR - 7}"/>'
            f'<circle class="dot" cx="{mid - 5:g}" cy="{base + 10.5:g}" r="2"/>'
            f'<circle class="dot" cx="{mid + 5:g}" cy="{base + 10.5:g}" r="2"/>'
        )
    elif penthouse:
        # crown with a spire, banded like the orange penthouse face
        base = top - FLOOR
        mid = x + w / 2
        parts.append(
            f'<path class="storey roof" d="M{x} {top} V{base + 2} L{x + 8} {base + 7} L{mid:g} {base - 2} '
            f'L{x + w - 8} {base + 7} L{x + w} {base + 2} V{top} Z"/>'
            f'<rect class="storey roof" x="{mid - 1.5:g}" y="{base - 12}" width="3" height="11"/>'
            f'<rect class="band" x="{x + 3}" y="{base + 9}" width="{w - 6}" height="3"/>'
        )
    elif completed:
        # flat roof with a parapet
        parts.append(f'<rect class="edge" x="{x - 2}" y="{top - 3}" width="{w + 4}" height="4"/>')
    else:
        # open top in scaffolding: poles, a plank at every storey, a braced top bay
        left, right = x - 3, x + w + 3
        high = top - 11
        planks = " ".join(
            f"M{left} {total_h - i * FLOOR} H{right}" for i in range(1, body_floors + 1)
        )
        parts.append(
            f'<path class="scaffold" d="M{left} {total_h} V{high} M{right} {total_h} V{high} '
            f'M{left} {high} H{right} {planks} M{left} {top} L{right} {high} M{left} {high} L{right} {top}"/>'
        )
    return (
        # sized in em of the skyline's font size (16 px drawn at 1 px a unit), which
        # scales the whole row (style.css, --art)
        f'<svg class="art-bldg-svg k-{kind}{"" if completed else " open"}" width="{total_w / 16:g}em" '
        f'height="{total_h / 16:g}em" viewBox="0 0 {total_w} {total_h}" aria-hidden="true" focusable="false">'
        + "".join(parts)
        + "</svg>"
    )


# ---------------------------------------------------------------------------- skyline


class Lot(NamedTuple):
    """One building on a skyline, as the skyline draws it.

    ``target`` None draws a picture; "build" or "demolish" draws a button with
    ``action``/``arg``/``dom_id`` (data-action, data-arg, id) for the page's one
    delegated click listener.
    """

    kind: str  # p, b or o
    height: int
    completed: bool
    target: str | None = None
    action: str = ""
    arg: str = ""
    dom_id: str = ""
    changed: bool = False  # marked: the last turn shown built it (board_view)
    hinted: bool = False  # marked: the hint's best action uses it

    @property
    def points(self) -> int:
        return building_points(self.height) if self.completed else 0


def lot_label(t: Translate, lot: Lot) -> str:
    """The lot's accessible name, e.g. "completed mid-rise, 4 high, 16 points"."""
    kind = t("kind.short." + lot.kind)
    if lot.completed:
        label = t("tile.label", kind=kind, height=lot.height, points=lot.points)
    else:
        label = t("column.label", kind=kind, height=lot.height)
    return t("target." + lot.target, what=label) if lot.target else label


def street_html(items: Iterable[tuple[Lot, str, str]], label: str, empty: str) -> str:
    """A player's skyline: every lot side by side on one street, scrolling sideways.

    ``items`` are (lot, accessible name, caption) per lot (see :func:`lot_label`),
    ``label`` names the scrolling group and ``empty`` is shown for an empty street. Each
    lot is a picture (role img) or a button with its full label; the caption under it
    repeats what the label says and is hidden from screen readers. The board
    (web/board_view.py) calls this with the texts of its ``Screen``."""
    out = []
    for lot, name, cap in items:
        name = _esc(name)
        svg = building_svg(lot.kind, lot.height, lot.completed)
        testid = "tile" if lot.completed else "column"
        state = "done" if lot.completed else "open"
        data = f'data-testid="{testid}" data-height="{lot.height}" data-kind="{lot.kind}"'
        if lot.target:
            pic = (
                f'<button type="button" class="art-pic target t-{lot.target}" id="{_esc(lot.dom_id)}" '
                f'data-action="{_esc(lot.action)}" data-arg="{_esc(lot.arg)}" {data} '
                f'aria-label="{name}">{svg}</button>'
            )
        else:
            pic = f'<div class="art-pic" role="img" {data} aria-label="{name}">{svg}</div>'
        # data-lot: the page's motion finds the lot by it (app.core.cues)
        where = f' data-lot="{_esc(lot.dom_id)}"' if lot.dom_id else ""
        out.append(
            f'<li class="art-lot k-{lot.kind} {state}{" changed" if lot.changed else ""}'
            f'{" hinted" if lot.hinted else ""}"{where}>{pic}'
            f'<span class="art-cap" aria-hidden="true">{_esc(cap)}</span></li>'
        )
    if not out:
        body = f'<p class="art-empty">{_esc(empty)}</p>'
    else:
        body = f'<ul class="art-row">{"".join(out)}</ul>'
    return (
        f'<div class="art-street" role="group" tabindex="0" aria-label="{_esc(label)}">{body}</div>'
    )
