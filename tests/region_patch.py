"""What ``web/js/render.js`` makes of a region's edits (``app.core.region_edits``),
modelled for the tests: the edits applied to the HTML the page shows, and the shapes of
the two regions' HTML that ``app.turn.html`` writes (with fewer attributes)."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.region_edits import (
    LOG_LIST,
    LOG_REGION,
    PLAYER_LIST,
    Splice,
    log_parts,
    players_parts,
)

_ITEM_END = "</li>"


def log_panel_html(title: str, beside: str, lines: Sequence[str]) -> str:
    """The log region: its title, what stands beside the list, the list's lines."""
    return (f'<h2 id="log-title">{title}</h2>{beside}<ol class="log-list" id="{LOG_LIST}">'
            f'{"".join(lines)}</ol>')


def players_html(head: str, opening: str, skylines: Sequence[str]) -> str:
    """The players region: ``head`` (the scoring and the like), then the skylines' list
    (``opening``: its further classes)."""
    return (f'{head}<div class="player-list{opening}" id="{PLAYER_LIST}">'
            f'{"".join(skylines)}</div>')


def apply_edits(old: str, edits: Sequence[Splice]) -> str:
    """The log region ``old`` after ``edits``."""
    parts = log_parts(old)
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
    return f"{parts.title}{beside}{parts.opening}{''.join(lines)}</ol>"


def apply_players_edits(old: str, edits: Sequence[Splice]) -> str:
    """The players region ``old`` after ``edits``."""
    parts = players_parts(old)
    if parts is None:
        raise ValueError("not the players region's HTML")
    head, skylines = parts[0], list(parts[1])
    for edit in edits:
        if edit.target != PLAYER_LIST:
            raise ValueError(f"no element {edit.target!r} in the players region")
        if len(skylines) != edit.count:
            raise ValueError(f"the list has {len(skylines)} skylines, not {edit.count}")
        fresh = players_parts(players_html("", "", [edit.html]))
        if fresh is None:
            raise ValueError("the edit's HTML is not skylines")
        skylines[edit.start:edit.start + edit.delete] = fresh[1]
    return f"{head}{''.join(skylines)}</div>"
