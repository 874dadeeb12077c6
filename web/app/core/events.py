"""What one feature asks of another, as a value the controller routes.

A feature never calls another: it emits one of these through the ``emit`` it was
given, and ``app.controller`` decides which feature acts (``Controller.route``).

>>> PlayAction.__name__, TabLock("granted").result
('PlayAction', 'granted')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skyline import Action


@dataclass(frozen=True)
class PlayAction:
    """Push ``action`` as the player to move (a computer seat's choice): the turn's
    own path, with its news, save and send dialog. The route answers whether it was
    played."""

    action: Action


@dataclass(frozen=True)
class TurnToFriend:
    """The turn went to a friend elsewhere, or the game ended: offer the link."""


@dataclass(frozen=True)
class TabLock:
    """The game lock answered (``busy``, ``lost``, ``granted``): handled as an event
    of the page, like a click."""

    result: str


@dataclass(frozen=True)
class TookControl:
    """This tab now has the game: a link that waited for it opens now."""


@dataclass(frozen=True)
class OpenGameLink:
    """A friend's ``#game?`` link (already read) opens its game."""

    fragment: str
    link: Any  # skyline.records.game_links.GameLink


@dataclass(frozen=True)
class InviteLive:
    """Make the open game a live table and show its invitation."""


@dataclass(frozen=True)
class StartDaily:
    """A ``#daily?`` link: the challenge of ``day`` (ISO date)."""

    day: str


@dataclass(frozen=True)
class OpenNewGame:
    """Open the new-game dialog."""


@dataclass(frozen=True)
class ShowHint:
    """Show the hint for the player to move."""


@dataclass(frozen=True)
class OpenReplay:
    """Replay the open game from ``step`` actions in (a point of the chances chart)."""

    step: int


Event = (PlayAction | TurnToFriend | TabLock | TookControl | OpenGameLink | InviteLive
         | StartDaily | OpenNewGame | ShowHint | OpenReplay)

#: How a feature emits an event; the answer is the route's (only PlayAction has one).
Emit = Callable[[Event], object]
