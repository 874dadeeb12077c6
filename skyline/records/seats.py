"""Seat kinds: what each seat of a game is *for this device*.

A seat is played by a person on this device (:attr:`SeatKind.HERE`), by a friend
elsewhere who plays by game link (:attr:`SeatKind.FRIEND`), or by a computer player at
a level (:attr:`SeatKind.COMPUTER`). Game-list entries store a seat as its
:attr:`Seat.code` (``here``, ``friend`` or the level name); game links carry one
:attr:`Seat.letter` per seat (``h`` for a human seat, here or friend alike, else the
level's letter of :data:`LEVEL_LETTERS`).

>>> Seat.from_code("expert"), Seat.here().letter, Seat.computer("greedy").letter
(Seat(kind=<SeatKind.COMPUTER: 'computer'>, level='expert'), 'h', 'g')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: Computer-player levels in links (``bots=1e3g``, game links): letter -> level name.
LEVEL_LETTERS: dict[str, str] = {"b": "beginner", "g": "greedy", "e": "expert"}
#: The computer levels a seat may have, weakest first.
COMPUTER_LEVELS: tuple[str, ...] = tuple(LEVEL_LETTERS.values())
#: A human seat in a game link (here or a friend: a link never says which device plays it).
HUMAN_LETTER = "h"
_LETTER_OF = {level: letter for letter, level in LEVEL_LETTERS.items()}


class SeatKind(Enum):
    HERE = "here"  # a person on this device
    COMPUTER = "computer"  # a computer player at a level
    FRIEND = "friend"  # a friend elsewhere (plays by game link)


@dataclass(frozen=True)
class Seat:
    """One seat of a game as this device sees it; ``level`` is the computer level
    (one of :data:`COMPUTER_LEVELS`) for a computer seat, None otherwise."""

    kind: SeatKind
    level: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, SeatKind):
            raise ValueError(f"seat: kind must be a SeatKind, not {self.kind!r}")
        if self.kind is SeatKind.COMPUTER:
            if self.level not in COMPUTER_LEVELS:
                raise ValueError(
                    f"seat: a computer seat needs a level among {list(COMPUTER_LEVELS)}, "
                    f"got {str(self.level)[:20]!r}"
                )
        elif self.level is not None:
            raise ValueError(f"seat: a {self.kind.value} seat has no level")

    @classmethod
    def here(cls) -> Seat:
        return cls(SeatKind.HERE)

    @classmethod
    def friend(cls) -> Seat:
        return cls(SeatKind.FRIEND)

    @classmethod
    def computer(cls, level: str) -> Seat:
        return cls(SeatKind.COMPUTER, level)

    @property
    def is_here(self) -> bool:
        return self.kind is SeatKind.HERE

    @property
    def is_computer(self) -> bool:
        return self.kind is SeatKind.COMPUTER

    @property
    def is_friend(self) -> bool:
        return self.kind is SeatKind.FRIEND

    @property
    def code(self) -> str:
        """The stored text: ``here``, ``friend`` or the level name."""
        return self.level if self.level is not None else self.kind.value

    @classmethod
    def from_code(cls, text: str) -> Seat:
        """The seat stored as ``text`` (:attr:`code`); ValueError on unknown text.

        >>> Seat.from_code("friend").is_friend
        True
        """
        if text == SeatKind.HERE.value:
            return cls.here()
        if text == SeatKind.FRIEND.value:
            return cls.friend()
        if isinstance(text, str) and text in COMPUTER_LEVELS:
            return cls.computer(text)
        raise ValueError(
            f"seats: unknown seat kind {str(text)[:20]!r}: expected 'here', 'friend' or a "
            f"computer level ({', '.join(COMPUTER_LEVELS)})"
        )

    @property
    def letter(self) -> str:
        """The seat in a game link: ``h`` for a human seat (here or a friend), else the
        level's letter."""
        return HUMAN_LETTER if self.level is None else _LETTER_OF[self.level]
