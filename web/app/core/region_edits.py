"""A region's new HTML as a few edits of what the page shows, where that is cheaper.

The game log is a list of up to 300 lines, newest first. A click adds a line or two, so
writing the whole region again would make the page parse and lay out hundreds of
lines for each click (about a third of a click's work in a long game). When the new
log is the old one with lines added at the top (the oldest dropping off the bottom)
and perhaps a new chances chart above it, the page is sent only what changed, as
:class:`Splice` edits of the elements' children (``web/js/render.js``, ``patch``).

The edits are exact: applied to the old HTML's elements they give the new HTML's.

>>> old = log_panel_html("Log", "", ["<li>b</li>", "<li>a</li>"])
>>> new = log_panel_html("Log", "", ["<li>c</li>", "<li>b</li>", "<li>a</li>"])
>>> edits = log_edits(old, new)
>>> [(e.target, e.start, e.delete, e.html, e.count) for e in edits]
[('log-list', 0, 0, '<li>c</li>', 2)]
>>> apply_edits(old, edits) == new
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The log's list (``app.turn.html.log_list``) and the region that holds it.
LOG_REGION = "log"
LOG_LIST = "log-list"
_LIST_OPEN = f'<ol class="log-list" id="{LOG_LIST}"'
_TITLE_END = "</h2>"
_ITEM_END = "</li>"
_LIST_END = "</ol>"
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
class _LogParts:
    title: str  # the <h2>
    beside: str  # what stands between the title and the list: one element or nothing
    opening: str  # the list's start tag
    lines: tuple[str, ...]  # the list's <li> elements, newest first


def log_panel_html(title: str, beside: str, lines: Sequence[str]) -> str:
    """The log region's HTML in the shape ``app.turn.html.log_panel`` writes (for tests
    and doctests: the real one has more attributes)."""
    return (f'<h2 id="log-title">{title}{_TITLE_END}{beside}{_LIST_OPEN}>'
            f'{"".join(lines)}{_LIST_END}')


def _log_parts(html: str) -> _LogParts | None:
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
    return _LogParts(head[:cut], head[cut:], html[start:body_start],
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
    >>> old = log_panel_html("Log", "<section>1</section>", ["<li>b</li>", "<li>a</li>"])
    >>> new = log_panel_html("Log", "<section>2</section>", ["<li>c</li>", "<li>b</li>"])
    >>> for edit in log_edits(old, new):
    ...     print(edit.as_list())
    ['log', 1, 1, '<section>2</section>', 3]
    ['log-list', 0, 0, '<li>c</li>', 2]
    ['log-list', 2, 1, '', 3]
    """
    before, after = _log_parts(old), _log_parts(new)
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


def apply_edits(old: str, edits: Sequence[Splice]) -> str:
    """What the page shows after ``edits`` of the log region ``old`` (as
    ``web/js/render.js`` applies them), for the tests."""
    parts = _log_parts(old)
    if parts is None:
        raise ValueError("not the log region's HTML")
    beside, lines = parts.beside, list(parts.lines)
    for edit in edits:
        if edit.target == LOG_REGION:
            region = [parts.title, *([beside] if beside else []), "list"]
            if len(region) != edit.count:
                raise ValueError(f"the region has {len(region)} children, not {edit.count}")
            region[edit.start:edit.start + edit.delete] = [edit.html] if edit.html else []
            beside = "".join(region[1:-1])
        elif edit.target == LOG_LIST:
            if len(lines) != edit.count:
                raise ValueError(f"the list has {len(lines)} lines, not {edit.count}")
            fresh = [line + _ITEM_END for line in edit.html.split(_ITEM_END)[:-1]]
            lines[edit.start:edit.start + edit.delete] = fresh
        else:
            raise ValueError(f"no element {edit.target!r} in the log region")
    return f"{parts.title}{beside}{parts.opening}{''.join(lines)}{_LIST_END}"
