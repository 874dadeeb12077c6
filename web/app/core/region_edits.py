"""A region's new HTML as a few edits of what the page shows, where that is cheaper.

The game log is a list of up to 300 lines, newest first. A click adds a line or two, so
writing the whole region again would make the page parse and lay out hundreds of
lines for each click (about a third of a click's work in a long game). When the new
log is the old one with lines added at the top (the oldest dropping off the bottom)
and perhaps a new chances chart above it, the page is sent only what changed, as
:class:`Splice` edits of the elements' children (``web/js/render.js``, ``patch``).
The skylines likewise: a click changes the skyline of the player to move (the end of a
turn the next player's too), so only the skylines that changed are sent
(:func:`players_edits`); the others stay as they are, scrolled where the player left them.

The edits are exact: applied to the old HTML's elements they give the new HTML's
(``tests/region_patch.py`` applies them as ``render.js`` does, through whole games).

>>> def log(*lines):
...     return '<h2 id="log-title">Log</h2><ol class="log-list" id="log-list">' + (
...         "".join(f"<li>{line}</li>" for line in lines) + "</ol>")
>>> edits = log_edits(log("b", "a"), log("c", "b", "a"))
>>> [(e.target, e.start, e.delete, e.html, e.count) for e in edits]
[('log-list', 0, 0, '<li>c</li>', 2)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.bridge import DomCommand
from app.core.dom import LOG, PLAYERS

#: The log's list (``app.turn.html.log_list``) and the region that holds it.
LOG_REGION = LOG
LOG_LIST = "log-list"
_LIST_OPEN = f'<ol class="log-list" id="{LOG_LIST}"'
_TITLE_END = "</h2>"
_ITEM_END = "</li>"
_LIST_END = "</ol>"
#: The skylines' list (``app.turn.html.player_list``), its skylines, and their region.
PLAYERS_REGION = PLAYERS
PLAYER_LIST = "player-list"
_PLAYERS_OPEN = '<div class="player-list'
_PLAYERS_END = "</div>"
_SKYLINE_TAG = re.compile(r"<section[\s>]|</section>")
#: Beyond this many new lines the whole region is written again (a game loaded, a
#: language changed): searching further would cost more than it saves.
MOST_NEW_LINES = 40


@dataclass(frozen=True)
class Splice:
    """Replace ``delete`` child elements of the element ``target`` from index ``start``
    by the elements of ``html``. ``count``: how many children ``target`` has before, so
    that the page can tell that it shows something else and write the region whole."""

    target: str
    start: int
    delete: int
    html: str
    count: int

    def as_list(self) -> list[str | int]:
        """The edit as ``web/js/render.js`` reads it."""
        return [self.target, self.start, self.delete, self.html, self.count]


@dataclass(frozen=True)
class LogParts:
    """The log region's HTML taken apart (:func:`log_parts`)."""

    title: str  # the <h2>
    beside: str  # what stands between the title and the list: one element or nothing
    opening: str  # the list's start tag
    lines: tuple[str, ...]  # the list's <li> elements, newest first


def log_parts(html: str) -> LogParts | None:
    """The parts of the log region's HTML as ``app.turn.html.log_panel`` writes it, or
    None for another shape."""
    start = html.find(_LIST_OPEN)
    title_end = html.find(_TITLE_END)
    if start < 0 or title_end < 0 or title_end > start or not html.endswith(_LIST_END):
        return None
    body_start = html.index(">", start) + 1
    lines = html[body_start:-len(_LIST_END)].split(_ITEM_END)
    if lines[-1]:  # something after the last line
        return None
    head = html[:start]
    cut = title_end + len(_TITLE_END)
    return LogParts(head[:cut], head[cut:], html[start:body_start],
                     tuple(line + _ITEM_END for line in lines[:-1]))


def _new_on_top(old: tuple[str, ...], new: tuple[str, ...]) -> int | None:
    """How many lines ``new`` has on top of the old ones it keeps (None: none kept)."""
    for added in range(max(0, len(new) - len(old)), min(len(new), MOST_NEW_LINES + 1)):
        kept = len(new) - added
        if kept and new[added:] == old[:kept]:
            return added
    return None


def log_edits(old: str, new: str) -> list[Splice] | None:
    """The edits that turn the log region ``old`` into ``new``, or None when it is
    cheaper (or only possible) to write it whole.

    >>> log_edits("<p>other</p>", "<p>else</p>") is None
    True
    >>> head = '<h2 id="log-title">Log</h2><section>{}</section><ol class="log-list" id="log-list">'
    >>> old = head.format(1) + "<li>b</li><li>a</li></ol>"
    >>> new = head.format(2) + "<li>c</li><li>b</li></ol>"
    >>> for edit in log_edits(old, new):
    ...     print(edit.as_list())
    ['log', 1, 1, '<section>2</section>', 3]
    ['log-list', 0, 0, '<li>c</li>', 2]
    ['log-list', 2, 1, '', 3]
    """
    before, after = log_parts(old), log_parts(new)
    if before is None or after is None or (before.title, before.opening) != (
            after.title, after.opening):
        return None
    if before.lines == after.lines:
        added = 0
    else:
        found = _new_on_top(before.lines, after.lines)
        if found is None:
            return None
        added = found
    edits = []
    if before.beside != after.beside:
        if _elements(before.beside) is None or _elements(after.beside) is None:
            return None
        had = 1 if before.beside else 0
        edits.append(Splice(LOG_REGION, 1, had, after.beside, 2 + had))
    if added:
        edits.append(Splice(LOG_LIST, 0, 0, "".join(after.lines[:added]), len(before.lines)))
    dropped = len(before.lines) + added - len(after.lines)
    if dropped:
        edits.append(Splice(LOG_LIST, len(after.lines), dropped, "", len(before.lines) + added))
    return edits


def _elements(html: str) -> int | None:
    """0 for nothing, 1 for what reads as one element (it opens with a tag and closes
    with that tag's end), else None."""
    if not html:
        return 0
    if not html.startswith("<"):
        return None
    name = html[1:].split(">", 1)[0].split(" ", 1)[0]
    return 1 if name and html.endswith(f"</{name}>") and html.count(f"<{name}") == 1 else None


def players_parts(html: str) -> tuple[str, tuple[str, ...]] | None:
    """(everything up to the list's children, the skylines), or None for another shape."""
    start = html.find(_PLAYERS_OPEN)
    if start < 0 or not html.endswith(_PLAYERS_END):
        return None
    body_start = html.index(">", start) + 1
    if f'id="{PLAYER_LIST}"' not in html[start:body_start]:
        return None
    body = html[body_start:-len(_PLAYERS_END)]
    skylines, depth, begun = [], 0, 0
    for tag in _SKYLINE_TAG.finditer(body):
        if tag.group().startswith("</"):
            depth -= 1
            if depth == 0:
                skylines.append(body[begun:tag.end()])
                begun = tag.end()
        else:
            if depth == 0 and tag.start() != begun:
                return None  # something between two skylines
            depth += 1
    if depth or begun != len(body):
        return None
    return html[:body_start], tuple(skylines)


def players_edits(old: str, new: str) -> list[Splice] | None:
    """The edits that turn the players region ``old`` into ``new``: the skylines that
    changed, as one splice of the list's children; None when something else changed
    (the scoring at the end, the number of players) and the region is written whole.

    >>> a, b, c = (f'<section id="s{n}">{n}</section>' for n in "abc")
    >>> def players(head, *skylines):
    ...     return f'{head}<div class="player-list n3" id="player-list">{"".join(skylines)}</div>'
    >>> old, new = players("", a, b, c), players("", a, b.replace("b<", "B<"), c)
    >>> [edit.as_list() for edit in players_edits(old, new)]
    [['player-list', 1, 1, '<section id="sb">B</section>', 3]]
    >>> players_edits(old, players("<section>scores</section>", a, b, c))
    """
    before, after = players_parts(old), players_parts(new)
    if before is None or after is None or before[0] != after[0]:
        return None
    (_, was), (_, now) = before, after
    same_start = 0
    while same_start < min(len(was), len(now)) and was[same_start] == now[same_start]:
        same_start += 1
    same_end = 0
    while (same_end < min(len(was), len(now)) - same_start
           and was[-1 - same_end] == now[-1 - same_end]):
        same_end += 1
    deleted = len(was) - same_start - same_end
    added = now[same_start:len(now) - same_end]
    if not deleted and not added:
        return []
    return [Splice(PLAYER_LIST, same_start, deleted, "".join(added), len(was))]


def latest_regions(commands: Sequence[DomCommand]) -> list[DomCommand]:
    """A batch of several renders (the first one, with the presses made before it) as
    the page needs it: a region's whole HTML makes its earlier HTML and edits in the
    batch moot, so the page draws each region once, as it ends (a dialog closed and
    opened again in between stays the same dialog, with what the player typed).

    >>> latest_regions([("html", "log", "a"), ("focus", None), ("html", "log", "b"),
    ...                 ("patch", "log", "c", []), ("html", "turn", "t")])
    [('focus', None), ('html', 'log', 'b'), ('patch', 'log', 'c', []), ('html', 'turn', 't')]
    """
    last = {command[1]: i for i, command in enumerate(commands) if command[0] == "html"}
    return [command for i, command in enumerate(commands)
            if not (command[0] == "html" or command[0] == "patch")
            or last.get(command[1], i) <= i]


#: The regions sent as edits where they can be, and how their edits are found.
EDITED_REGIONS = {LOG_REGION: log_edits, PLAYERS_REGION: players_edits}
