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

#: The region that holds the open dialog.
DIALOG = "dialog"
#: The regions a click mostly changes a little of: sent as edits (app.core.region_edits).
PLAYERS = "players"
LOG = "log"

#: The page's regions, each an element with this id that a render fills, in order.
REGIONS = ("topbar", "notices", "turn", "supply", PLAYERS, LOG, DIALOG)

#: The regions the page paints from the last render's picture before Python is up
#: (notices are about that moment only, so they are not kept).
SNAPSHOT_REGIONS = ("topbar", "turn", "supply", PLAYERS, LOG, DIALOG)

#: The live region that reads out what happened.
ANNOUNCE = "announce"
#: The element a dialog focuses first when it opens.
DIALOG_FIRST = "dlg-first"
#: The top bar's Rules button (the rules open from it before Python is ready).
RULES_BUTTON = "btn-rules"


def as_json() -> str:
    """The ids for the JS side, as ``<html data-dom>`` carries them.

    >>> json.loads(as_json())["announce"]
    'announce'
    """
    return json.dumps({
        "regions": list(REGIONS), "snapshotRegions": list(SNAPSHOT_REGIONS),
        "announce": ANNOUNCE, "dialogFirst": DIALOG_FIRST,
        "rulesButton": RULES_BUTTON, "dialog": DIALOG,
    }, separators=(",", ":"))
