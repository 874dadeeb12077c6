"""The abstract solo position the value tables and the turn search share.

A solo position is described by

* ``turns_left``: turns still to be played *including the current one* (9 at the start of
  the game, 1 during the last turn, 0 when the game is over);
* ``columns``: the counts of unfinished columns per class, in :data:`COLUMN_CLASSES`
  order::

      ("purple", 1)                         lone purple ground floor
      ("blue", 1), ("blue", 2), ("blue", 3)  unfinished mid-rise of that height
      ("orange", 1) ... ("orange", 5)         unfinished high-rise of that height

  (unfinished columns of the same class are interchangeable);
* ``tiles``: the heights of the completed buildings (their points, height squared, are
  banked; they matter for the future only as possible victims of a demolition);
* ``mode``: ``"standard"`` (completing a 6-high building ends the game after that turn) or
  ``"nine"`` (always nine rounds);
* in a scenario game, ``scenario`` and its exact ``counter``
  (:mod:`skyline.players.scenario_model`).

The tables and the search see a position as a count vector (:func:`ext_counts`): the nine
column counts, the number of completed 4-point tiles (index :data:`T2`) and, in a scenario,
the counter. A die is a kind ``type * 3 + face`` (:mod:`skyline.players.adapter`);
:data:`BUILDS` says what each kind can build and :func:`build_moves` applies it to a
count vector.

>>> pos = SoloPosition.start()
>>> pos.columns, pos.turns_left, pos.final_score
((0, 0, 0, 0, 1, 0, 0, 0, 0), 9, 0)
>>> ext_counts(SoloPosition(3, (1,) + (0,) * 8, (2, 2, 5)))
(1, 0, 0, 0, 0, 0, 0, 0, 0, 2)
>>> build_moves(ext_counts(pos))[8]  # an orange penthouse: nothing to complete yet
()
>>> SoloPosition(9, (0,) * 8)
Traceback (most recent call last):
...
ValueError: columns must be 9 non-negative counts
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from .adapter import colour_columns, turns_left
from .scenario_model import SCENARIO_MODELS, ScenarioModel

if TYPE_CHECKING:
    from ..rules import GameState

__all__ = [
    "BUILDS", "CAPS", "COLUMN_CLASSES", "T2", "TILE_COLOUR", "Option", "SoloPosition",
    "build_moves", "ext_counts", "min_big_tile", "position",
]

COLUMN_CLASSES: tuple[tuple[str, int], ...] = (
    ("purple", 1),
    ("blue", 1),
    ("blue", 2),
    ("blue", 3),
    ("orange", 1),
    ("orange", 2),
    ("orange", 3),
    ("orange", 4),
    ("orange", 5),
)
_CLASS_INDEX: dict[tuple[object, ...], int] = {c: i for i, c in enumerate(COLUMN_CLASSES)}
# Default caps of the model: 9 column classes, then the number of 4-point tiles.
CAPS: tuple[int, ...] = (8, 5, 3, 5, 4, 3, 2, 2, 2, 2)
T2 = 9  # index of the 4-point tile count in the extended count vector
#: Colour of the tile completed by a die kind (upper purple, blue and orange penthouses).
TILE_COLOUR = {3: "purple", 7: "blue", 8: "orange"}

#: Builds per die kind (type * 3 + face): (remove class, add class, points, tile height).
#: Class 9 is the count of 4-point tiles; -1 = none.
BUILDS: tuple[tuple[tuple[int, int, int, int], ...], ...] = (
    ((-1, 0, 0, 0),),
    ((-1, 1, 0, 0),),
    ((-1, 4, 0, 0),),
    ((0, T2, 4, 2),),
    ((1, 2, 0, 0), (2, 3, 0, 0)),
    ((4, 5, 0, 0), (5, 6, 0, 0), (6, 7, 0, 0), (7, 8, 0, 0)),
    (),
    ((1, T2, 4, 2), (2, -1, 9, 3), (3, -1, 16, 4)),
    ((5, -1, 9, 3), (6, -1, 16, 4), (7, -1, 25, 5), (8, -1, 36, 6)),
)

#: What :func:`build_moves` lists per kind: (points, counts after, tile height, from class).
Build = tuple[int, tuple[int, ...], int, int]


def build_moves(
    cols: tuple[int, ...], model: ScenarioModel | None = None
) -> tuple[tuple[Build, ...], ...]:
    """Every build per die kind at the count vector ``cols``: ``(points, counts after,
    tile height (0: none completed), the class built on (-1: a new ground floor))``.
    With a scenario ``model`` the counter (``cols[10]``) follows each completed tile."""
    out = []
    for kind in range(9):
        lst = []
        for rem, add, pts, th in BUILDS[kind]:
            if rem >= 0 and cols[rem] == 0:
                continue
            c2 = list(cols)
            if rem >= 0:
                c2[rem] -= 1
            if add >= 0:
                c2[add] += 1
            if model is not None and th:
                c2[10] = model.complete(c2[10], TILE_COLOUR[kind], th)
            lst.append((pts, tuple(c2), th, rem))
        out.append(tuple(lst))
    return tuple(out)


class Option(NamedTuple):
    action: tuple
    #: expected final score (all points, banked included); in a scenario game the objective
    #: expected final score + SUCCESS_WEIGHT * P(scenario met)
    value: float
    exact: bool = True  # False if a fallback (non-table) value was involved


@dataclass(frozen=True)
class SoloPosition:
    """Abstract solo position (see the module docstring)."""

    turns_left: int
    columns: tuple[int, ...] = (0,) * 9
    tiles: tuple[int, ...] = ()
    mode: str = "standard"
    #: the solo scenario played (None: none) and its exact counter (``scenario_model``)
    scenario: str | None = None
    counter: int = 0

    def __post_init__(self) -> None:
        if len(self.columns) != 9 or min(self.columns) < 0:
            raise ValueError("columns must be 9 non-negative counts")
        if self.mode not in ("standard", "nine"):
            raise ValueError("mode must be 'standard' or 'nine'")
        if any(h < 1 or h > 6 for h in self.tiles):
            raise ValueError("tile heights are 1..6")
        if self.scenario is not None and self.scenario not in SCENARIO_MODELS:
            raise ValueError(f"unknown scenario {self.scenario!r}")
        if self.counter < 0:
            raise ValueError("the scenario counter is a non-negative count")
        object.__setattr__(self, "columns", tuple(int(c) for c in self.columns))
        object.__setattr__(self, "tiles", tuple(sorted(int(h) for h in self.tiles)))

    @classmethod
    def from_columns(
        cls,
        turns_left: int,
        columns: Iterable[tuple[str, int]] = (),
        tiles: Iterable[int] = (),
        mode: str = "standard",
    ) -> SoloPosition:
        """Build from a list of unfinished column classes, e.g. ``[("orange", 1)]``."""
        counts = [0] * 9
        for c in columns:
            counts[_CLASS_INDEX[tuple(c)]] += 1
        return cls(turns_left, tuple(counts), tuple(tiles), mode)

    @classmethod
    def start(cls, mode: str = "standard") -> SoloPosition:
        """The solo start: one orange column of height 1, nine turns."""
        return cls.from_columns(9, [("orange", 1)], (), mode)

    @property
    def banked(self) -> int:
        return sum(h * h for h in self.tiles)

    @property
    def final_score(self) -> int:
        """Score if the game ended now (lone purple ground floors count 1)."""
        return self.banked + self.columns[0]

    @property
    def met(self) -> bool:
        """Whether the scenario would be met if the game ended now (True without one)."""
        if self.scenario is None:
            return True
        return SCENARIO_MODELS[self.scenario].met(self.counter, self.columns[0])

    @property
    def game_ends_after_turn(self) -> bool:
        return self.turns_left <= 1 or (self.mode == "standard" and 6 in self.tiles)


def position(state: GameState, seat: int | None = None) -> SoloPosition:
    """The abstract position of ``seat`` (default: the active player) in the engine's
    ``state`` at this moment (see :mod:`.adapter`)."""
    seat = state.seat if seat is None else seat
    player = state.players[seat]
    mode = "nine" if state.options.all_nine else "standard"
    pos = SoloPosition.from_columns(
        turns_left(state, seat), colour_columns(player.columns),
        [b.height for b in player.buildings], mode,
    )
    scenario = state.options.scenario if state.solo else None
    if scenario is None:
        return pos
    counter = SCENARIO_MODELS[scenario].count(colour_columns(player.buildings),
                                              player.demolitions)
    return replace(pos, scenario=scenario, counter=counter)


def ext_counts(pos: SoloPosition) -> tuple[int, ...]:
    """The table's count vector of ``pos``: the column classes, the 4-point tiles and, in a
    scenario, its counter."""
    cols = pos.columns + (sum(1 for h in pos.tiles if h == 2),)
    return cols if pos.scenario is None else cols + (pos.counter,)


def min_big_tile(tiles: Iterable[int]) -> int:
    """The height of the smallest completed tile of height 3 or more (0: none): the one
    the turn search may sacrifice to a demolition."""
    return min((h for h in tiles if h >= 3), default=0)
