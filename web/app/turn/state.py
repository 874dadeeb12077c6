"""The turn's own page state: a tower's pending choice of column and the skyline a
scoreboard chip asked for.

The page state holds each on a base named in the core (``Choice``, whose demolition
choice the tutorial reads too and so stays in the core; ``ShownSeatState``).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.page_state import Choice, PageState, ShownSeatState, held_as


@dataclass(frozen=True)
class BuildChoice(Choice):
    """A build waits for the player to pick the column ``die`` goes onto.

    ``choices``: the engine's representative targets (column index, ``None`` = a new
    building); ``remaining``: the selected dice still to build, ``die`` among them."""

    die: int
    choices: tuple[int | None, ...]
    remaining: tuple[int, ...]


@dataclass(frozen=True)
class ShownSeat(ShownSeatState):
    """A tap on a scoreboard chip: show ``seat``'s skyline (the phone's strip turns to
    it) during the turn ``turn`` (round, seat to move). Page state only, never saved:
    the next turn shows the player to move again."""

    seat: int
    turn: tuple[int, int]


def shown_seat_of(page: PageState) -> ShownSeat | None:
    """The skyline a scoreboard chip asked for (``PageState.shown_seat``), if any."""
    return held_as(page.shown_seat, ShownSeat)
