"""The DOM ids the page's Python, its JS and the build share, written once.

The build writes :func:`as_json` into ``index.html`` (``<html data-dom>``), where
``web/js`` reads it, so the three sides cannot drift apart.

>>> REGIONS[0], SNAPSHOT_REGIONS[-1]
('topbar', 'dialog')
>>> set(SNAPSHOT_REGIONS) <= set(REGIONS)
True
"""

from __future__ import annotations

import json

#: The page's regions: the top bar, the notices, the turn panel, the yard and district.
TOPBAR = "topbar"
NOTICES = "notices"
TURN = "turn"
SUPPLY = "supply"
#: The regions a click mostly changes a little of: sent as edits (app.core.region_edits).
PLAYERS = "players"
LOG = "log"
#: The region that holds the open dialog.
DIALOG = "dialog"

#: The page's regions, each an element with this id that a render fills, in order.
REGIONS = (TOPBAR, NOTICES, TURN, SUPPLY, PLAYERS, LOG, DIALOG)

#: The regions the page paints from the last render's picture before Python is up
#: (notices are about that moment only, so they are not kept).
SNAPSHOT_REGIONS = (TOPBAR, TURN, SUPPLY, PLAYERS, LOG, DIALOG)

#: What a picture of those regions may hold (web/js/paint.js paints it from storage,
#: where anything could have written it): the elements the page renders, and their
#: attributes besides ``data-*`` and ``aria-*``. A picture with anything else is
#: dropped whole. Never ``style``, ``src``, an event handler or ``inert``; ``href``
#: only a blob: URL of the page's own origin, ``lang`` only a language of the page,
#: ``dir`` only ``ltr`` or ``auto``, no value that points at a ``url(`` elsewhere
#: (paint.js checks the values). tests/test_screen_walk.py checks every region it
#: renders against them.
PICTURE_TAGS = frozenset("""
    a b bdi br button caption circle code desc details dialog div em fieldset figcaption
    figure form g h1 h2 h3 h4 header i input kbd label legend li line nav ol option p
    path polyline rect section select small span strong summary svg table tbody td
    text textarea tfoot th thead time title tr ul
""".split())
PICTURE_ATTRS = frozenset("""
    accept autocomplete checked class cols colspan cx cy d datetime dir disabled download
    fill focusable for height hidden href id inputmode lang max maxlength min minlength
    name novalidate open pattern placeholder points preserveaspectratio r readonly
    required reversed role rows rowspan rx ry scope selected spellcheck start step stroke
    stroke-width tabindex text-anchor title transform type value viewbox width x x1 x2 y
    y1 y2
""".split())

#: The live region that reads out what happened.
ANNOUNCE = "announce"
#: The element a dialog focuses first when it opens.
DIALOG_FIRST = "dlg-first"
#: The top bar's Rules button (the rules open from it before Python is ready).
RULES_BUTTON = "btn-rules"

# Controls one room draws and another focuses or points at (a Hint, a tutorial step).
#: The top bar's buttons: the menu (narrow screens), the game list, Learn to play.
MENU_BUTTON = "btn-menu"
GAMES_BUTTON = "btn-games"
LEARN_BUTTON = "btn-learn"
#: A dialog's close button (×), and Learn to play inside the new-game dialog.
DIALOG_CLOSE = "dlg-close"
NEW_GAME_LEARN = "ng-learn"
#: The share dialog's link.
SHARE_LINK = "share-link"
#: The district's Take button.
TAKE_DISTRICT = "take-district"


def command_id(command: str) -> str:
    """The turn panel's button for a game command (``app.core.commands.Cmd``).

    >>> command_id("roll")
    'act-roll'
    """
    return f"act-{command}"


def yard_id(letter: str) -> str:
    """The yard's row of one die type (its letter: ``U``, ``G``...)."""
    return f"yard-{letter}"


def die_id(die: int | str) -> str:
    """A die in the tray."""
    return f"die-{die}"


def tile_id(seat: int, index: int) -> str:
    """A building a player may demolish."""
    return f"tile-{seat}-{index}"


def column_id(seat: int, index: int) -> str:
    """A column of a player's skyline to build in."""
    return f"col-{seat}-{index}"


def as_json() -> str:
    """The ids for the JS side, as ``<html data-dom>`` carries them.

    >>> json.loads(as_json())["announce"]
    'announce'
    """
    return json.dumps({
        "regions": list(REGIONS), "snapshotRegions": list(SNAPSHOT_REGIONS),
        "announce": ANNOUNCE, "dialogFirst": DIALOG_FIRST,
        "rulesButton": RULES_BUTTON, "dialog": DIALOG,
        "pictureTags": sorted(PICTURE_TAGS), "pictureAttrs": sorted(PICTURE_ATTRS),
    }, separators=(",", ":"))
