"""Cues: what the action just played did, for the page's motion and sound.

A feature records cues in the page state (``PageState.cues``) when it applies an
action; the next render hands them to the page's JS once (one ``cue`` DOM command,
sent before the regions' HTML so the JS can keep a picture of what is about to go)
and drops them. They are never saved: a reload shows the board still.

Each cue names the elements it concerns by CSS selectors the page's HTML carries
(``data-lot``, ``data-die``, ``data-testid``, ids): ``sources`` as they are before the
render (what leaves: a demolished building, abandoned dice), ``targets`` after it.

>>> Cue(CueKind.COMPLETE, targets=('[data-lot="tile-0-1"]',), points=9).as_json()
{'kind': 'complete', 'targets': ['[data-lot="tile-0-1"]'], 'sources': [], 'points': 9}
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class CueKind(StrEnum):
    """What happened; each kind has its motion and its sound (web/js/effects.js)."""

    TAKE = "take"  # dice leave the yard (or the district) for the tray
    ROLL = "roll"  # the dice roll
    FLOOR = "floor"  # a floor rises into place
    COMPLETE = "complete"  # a building is completed: its tile, its points float up
    DEMOLISH = "demolish"  # a building crumbles
    ABANDON = "abandon"  # dice slide to the district
    YOUR_TURN = "your_turn"  # a person here is to move after someone else's turn
    END = "end"  # the game is over: the ranking revealed, last place first
    WIN = "win"  # the winners' skylines light up
    SOUND_ON = "sound_on"  # the sound was just switched on: a short chime says so


@dataclass(frozen=True)
class Cue:
    kind: CueKind
    targets: tuple[str, ...] = ()  # the elements after the render
    sources: tuple[str, ...] = ()  # the elements before the render, kept as pictures
    points: int | None = None  # the points that float up (negative: lost)

    def as_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "targets": list(self.targets),
                "sources": list(self.sources), "points": self.points}


def lot(kind: str, seat: int, index: int) -> str:
    """A building on a skyline: ``kind`` "col" (unfinished) or "tile" (completed)."""
    return f'[data-lot="{kind}-{seat}-{index}"]'


def die(die_id: int) -> str:
    """A die in the tray (a button once rolled, a picture before)."""
    return f'[data-die="{die_id}"]'


def player(seat: int) -> str:
    """A player's card with the skyline."""
    return f'[data-testid="player-{seat}"]'


def score_row(seat: int) -> str:
    """A player's row in the final scoring."""
    return f'[data-testid="score-row-{seat}"]'


YARD_ROW = '#yard-{type}'
DISTRICT = '[data-testid="district"]'
TRAY_SLOT = '[data-testid="tray"] > .slot:nth-child({n})'
