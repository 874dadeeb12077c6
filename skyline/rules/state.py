"""The game's values: dice, faces, columns, buildings, players, options and the
immutable :class:`GameState`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from .errors import IllegalActionError

MAX_PLAYERS = 4
ROUNDS = 9
MAX_NAME_LENGTH = 24
SEED_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
SCENARIOS = ("dubai", "essen", "new-york", "sao-paolo", "shanghai", "toronto", "tucson")
#: Letters of the die types (G ground, U upper, P penthouse), indexed by :class:`DieType`;
#: records, links, saves and the page all spell dice with these.
DIE_LETTERS = "GUP"
#: Letters of the faces (p purple, b blue, o orange, x blank), indexed by :class:`Face`.
FACE_LETTERS = "pbox"

class DieType(IntEnum):
    """The three kinds of dice in the construction yard."""

    GROUND = 0
    UPPER = 1
    PENTHOUSE = 2

    @property
    def letter(self) -> str:
        return DIE_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> DieType:
        index = DIE_LETTERS.find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(f"unknown die type {letter!r}: expected G, U or P")
        return cls(index)


class Face(IntEnum):
    """A rolled face. Purple, blue and orange are also the building kinds
    (low-rise, mid-rise, high-rise); BLANK only appears on penthouse dice."""

    PURPLE = 0
    BLUE = 1
    ORANGE = 2
    BLANK = 3

    @property
    def letter(self) -> str:
        return FACE_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Face:
        index = FACE_LETTERS.find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(f"unknown face {letter!r}: expected p, b, o or x")
        return cls(index)

    @property
    def kind_name(self) -> str:
        return ("low-rise", "mid-rise", "high-rise", "blank")[self]


P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741
#: The six faces of each die type, as the rulings give them.
DIE_FACES: dict[DieType, tuple[Face, ...]] = {
    DieType.GROUND: (P, P, P, B, B, O),
    DieType.UPPER: (P, P, P, B, B, O),
    DieType.PENTHOUSE: (X, X, X, B, B, O),
}
#: The faces of each die type, indexed by :class:`DieType` (the hot path of rolling).
FACE_TABLE = tuple(DIE_FACES[t] for t in DieType)
#: Highest a column of each kind may reach with an upper floor (purple: the
#: upper floor completes it at height 2).
UPPER_LIMIT = {P: 2, B: 3, O: 5}
#: Heights a column must have for a penthouse of its colour to complete it.
PENTHOUSE_RANGE = {B: (1, 3), O: (2, 5)}


class Phase(IntEnum):
    """Where the active player is within a turn."""

    TAKE = 0  # choose three yard dice or take the district
    ROLL = 1  # dice taken, roll them all (taking can still be undone)
    RESOLVE = 2  # must resolve at least one die
    CONTINUE = 3  # may resolve more, reroll a selection, or end the turn
    OVER = 4  # game over


class Die(NamedTuple):
    """An active die: ``id`` is stable for the whole turn; ``face`` is None until rolled."""

    id: int
    type: DieType
    face: Face | None


class Column(NamedTuple):
    """An unfinished building: a column of dice of one colour."""

    kind: Face
    height: int


class Building(NamedTuple):
    """A completed building tile; it never grows again."""

    kind: Face
    height: int

    @property
    def points(self) -> int:
        return building_points(self.height)


class Player(NamedTuple):
    name: str
    columns: tuple[Column, ...]
    buildings: tuple[Building, ...]
    demolitions: int = 0


class Options(NamedTuple):
    """Game options. ``start_seat`` None means "derive it from the seed"."""

    names: tuple[str, ...]
    seed: str
    start_seat: int | None = 0
    all_nine: bool = False
    scenario: str | None = None


class GameState(NamedTuple):
    options: Options
    round: int
    seat: int
    phase: Phase
    district: tuple[DieType, ...]
    dice: tuple[Die, ...]
    rolls: int
    six_completed: bool
    players: tuple[Player, ...]

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def start_seat(self) -> int:
        return self.options.start_seat or 0

    @property
    def player(self) -> Player:
        return self.players[self.seat]


def building_points(height: int) -> int:
    """The points of a completed building of ``height`` floors: its height squared.

    >>> building_points(3)
    9
    """
    return height * height


def die_index(dice: Sequence[Die], die_id: int) -> int:
    """Index of the active die ``die_id`` in ``dice`` (IllegalActionError ``no_die`` if
    there is none)."""
    for index, die in enumerate(dice):
        if die.id == die_id:
            return index
    raise IllegalActionError("no_die", f"there is no active die {die_id}", die=die_id)
