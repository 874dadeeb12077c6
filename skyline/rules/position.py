"""Games that start from a described position, with chosen chance outcomes.

:func:`position_state` builds the :class:`GameState` at the start of a turn from a
short description (whose turn, the district, each player's unfinished columns and
completed tiles), validating it like the engine's own states (``ValueError`` for
anything the rules could not reach). :class:`PositionBoard` is a :class:`Board` that
starts from such a state; its rolls take their faces from a chance script when one is
given (:class:`ScriptedRolls`), else from the seed. A scripted roll is still a chance
outcome: :func:`outcome_for` picks it among :func:`roll_outcomes` of the dice rolled,
and :func:`apply_action` applies it as a search does.

>>> start = position_state(("Ann", "Bo"), round=2, district="GUP",
...                        skylines=("o2 b1 | p2", "| b3"))
>>> start.players[0].columns, start.players[1].buildings
((Column(kind=<Face.ORANGE: 2>, height=2), Column(kind=<Face.BLUE: 1>, height=1)), \
(Building(kind=<Face.BLUE: 1>, height=3),))
>>> board = PositionBoard(start, ScriptedRolls(("Ub Uo Uo",)))
>>> board.push_text("tUUU"); board.push_text("r0.1.2")
>>> [d.face.letter for d in board.state.dice]
['b', 'o', 'o']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from .actions import Action, EndTurn, Roll
from .board import Board
from .chance import roll_outcomes
from .options import validate_options
from .state import (
    DIE_LETTERS,
    FACE_LETTERS,
    MAX_PLAYERS,
    PENTHOUSE_RANGE,
    ROUNDS,
    UPPER_LIMIT,
    Building,
    Column,
    DieType,
    Face,
    GameState,
    Options,
    Phase,
    Player,
)
from .turns import apply_action

#: Heights a completed tile of each colour can have (low-rise 1–2, mid-rise 2–4,
#: high-rise 3–6), and an unfinished column (a purple column is its ground floor alone).
TILE_HEIGHTS = {Face.PURPLE: (1, 2), Face.BLUE: (2, 4), Face.ORANGE: (3, 6)}
COLUMN_HEIGHTS = {
    Face.PURPLE: (1, 1),
    Face.BLUE: (1, UPPER_LIMIT[Face.BLUE]),
    Face.ORANGE: (1, UPPER_LIMIT[Face.ORANGE]),
}
assert PENTHOUSE_RANGE[Face.BLUE][1] == COLUMN_HEIGHTS[Face.BLUE][1]

#: A chance script: given the state, the roll and how many rolls the board already
#: holds, the faces for the rolled dice (aligned with ``roll.dice``), or None for the seed.
Chance = Callable[[GameState, Roll, int], Sequence[Face] | None]


def parse_skyline(text: str) -> tuple[tuple[Column, ...], tuple[Building, ...]]:
    """A skyline as ``"<columns> | <tiles>"``: each part a list of colour letter and
    height (``p`` low-rise, ``b`` mid-rise, ``o`` high-rise), e.g. ``"o2 b1 | p2 b4"``
    is an unfinished high-rise of height 2 and mid-rise of height 1, and completed tiles
    of height 2 (low-rise) and 4 (mid-rise). Without ``|`` every item is a column.

    >>> parse_skyline("| p2 p2")
    ((), (Building(kind=<Face.PURPLE: 0>, height=2), Building(kind=<Face.PURPLE: 0>, height=2)))
    >>> parse_skyline("b5")
    Traceback (most recent call last):
    ValueError: an unfinished mid-rise is 1 to 3 high, not 5 ('b5')
    """
    if not isinstance(text, str):
        raise ValueError("a skyline must be text")
    columns_text, bar, tiles_text = text.partition("|")
    if "|" in tiles_text:
        raise ValueError(f"a skyline has one '|' at most: {text[:40]!r}")
    columns = tuple(Column(kind, height)
                    for kind, height in _items(columns_text, COLUMN_HEIGHTS, "an unfinished"))
    tiles = tuple(
        Building(kind, height) for kind, height in _items(tiles_text, TILE_HEIGHTS, "a completed")
    ) if bar else ()
    return columns, tiles


def _items(text: str, heights: dict[Face, tuple[int, int]], what: str) -> list[tuple[Face, int]]:
    out = []
    for token in text.split():
        if len(token) != 2 or token[0] not in FACE_LETTERS[:3] or not token[1].isdigit():
            raise ValueError(f"not a building: {token[:10]!r} (a colour p, b or o and a height)")
        kind, height = Face.from_letter(token[0]), int(token[1])
        low, high = heights[kind]
        if not low <= height <= high:
            raise ValueError(
                f"{what} {kind.kind_name} is {low} to {high} high, not {height} ({token!r})"
            )
        out.append((kind, height))
    return out


def position_state(
    names: Sequence[str],
    *,
    round: int,
    skylines: Sequence[str],
    seat: int | None = None,
    start_seat: int = 0,
    district: str = "GUP",
    seed: str = "position",
    all_nine: bool = False,
) -> GameState:
    """The state at the start of ``seat``'s turn in ``round`` (default: the start
    player's turn, the first of the round): dice to take, the district holding the die
    types ``district`` spells (``G``, ``U``, ``P``), each player's skyline as
    :func:`parse_skyline` reads it. Raises ``ValueError`` (``OptionsError`` for the
    options) for a position the rules cannot have."""
    options = validate_options(
        Options(tuple(names), seed, start_seat, all_nine, None)
    )
    count = len(options.names)
    if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= ROUNDS:
        raise ValueError(f"the round is 1 to {ROUNDS}, not {round!r}")
    turn_seat = start_seat if seat is None else seat
    if isinstance(turn_seat, bool) or not isinstance(turn_seat, int) or not 0 <= turn_seat < count:
        raise ValueError(f"the seat to move is 0 to {count - 1}, not {turn_seat!r}")
    if not isinstance(district, str) or any(c not in DIE_LETTERS for c in district):
        raise ValueError(f"the district is spelled with G, U and P: {str(district)[:20]!r}")
    if count == 1 and district:
        raise ValueError("the solo game has no district")
    if len(district) > 3 * MAX_PLAYERS * ROUNDS:
        raise ValueError("the district holds more dice than a game can abandon")
    if isinstance(skylines, str) or len(skylines) != count:
        raise ValueError(f"one skyline per player: {count} expected")
    players = []
    for name, text in zip(options.names, skylines, strict=True):
        columns, tiles = parse_skyline(text)
        players.append(Player(name, columns, tiles))
    return GameState(
        options, round, turn_seat, Phase.TAKE,
        tuple(sorted(DieType.from_letter(c) for c in district)), (), 0, False, tuple(players),
    )


def parse_outcome(text: str) -> dict[DieType, Counter[Face]]:
    """Faces per die type, e.g. ``"Gb Up Uo"``: a blue ground floor, a purple and an
    orange upper floor (die type letter, then face letter)."""
    wanted: dict[DieType, Counter[Face]] = {}
    for token in text.split():
        if len(token) != 2:
            raise ValueError(f"not a die face: {token[:10]!r} (a type G, U or P and a face)")
        kind, face = DieType.from_letter(token[0]), Face.from_letter(token[1])
        wanted.setdefault(kind, Counter())[face] += 1
    return wanted


def outcome_for(types: Sequence[DieType], faces: str) -> tuple[Face, ...]:
    """The chance outcome of rolling dice of ``types`` that shows ``faces`` (as
    :func:`parse_outcome` reads them), picked among :func:`roll_outcomes` and aligned
    with ``types``; ``ValueError`` if the dice cannot show them.

    >>> G, U = DieType.GROUND, DieType.UPPER
    >>> [f.letter for f in outcome_for((G, U, U), "Gb Uo Up")]
    ['b', 'p', 'o']
    """
    wanted = parse_outcome(faces)
    for outcome, _probability in roll_outcomes(types):
        shown: dict[DieType, Counter[Face]] = {}
        for kind, face in zip(types, outcome, strict=True):
            shown.setdefault(kind, Counter())[face] += 1
        if shown == wanted:
            return outcome
    raise ValueError(f"dice {''.join(t.letter for t in types)} cannot show {faces!r}")


class ScriptedRolls:
    """A chance script: the n-th roll of the board shows ``outcomes[n]`` (as
    :func:`outcome_for` reads it); rolls beyond the script come from the seed."""

    def __init__(self, outcomes: Sequence[str]) -> None:
        for text in outcomes:
            parse_outcome(text)  # fail early on a typo
        self.outcomes = tuple(outcomes)

    def __call__(self, state: GameState, roll: Roll, number: int) -> tuple[Face, ...] | None:
        if number >= len(self.outcomes):
            return None
        by_id = {d.id: d.type for d in state.dice}
        types = [by_id[i] for i in roll.dice if i in by_id]
        if len(types) != len(roll.dice):
            return None  # names a die that is not there: apply_action says why
        return outcome_for(types, self.outcomes[number])


class PositionBoard(Board):
    """A :class:`Board` that starts from ``start`` (e.g. :func:`position_state`); its
    rolls take their faces from ``chance`` where it gives them, else from the seed.
    Undo and the log work as on any board. Its :meth:`record` lists the actions from
    that position, which :meth:`Board.from_record` (replaying from the game's setup)
    cannot read: such a board is for a lesson, not for saving."""

    def __init__(self, start: GameState, chance: Chance | None = None) -> None:
        super().__init__(start.options)
        self._states = [start]
        self.chance = chance
        self.rolls = 0  # rolls pushed so far (the chance script's index)

    @property
    def start(self) -> GameState:
        """The position the board started from."""
        return self._states[0]

    def push(self, action: Action) -> None:
        faces = None
        if isinstance(action, Roll) and self.chance is not None:
            faces = self.chance(self.state, action, self.rolls)
        state = apply_action(self.state, action, faces)
        self._states.append(state)
        self._actions.append(action)
        if isinstance(action, Roll):
            self.rolls += 1
        if isinstance(action, Roll | EndTurn):
            self._floor = len(self._actions)

    def copy(self) -> PositionBoard:
        other = PositionBoard(self._states[0], self.chance)
        other._states = list(self._states)
        other._actions = list(self._actions)
        other._floor = self._floor
        other.rolls = self.rolls
        return other
