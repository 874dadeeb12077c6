"""The rulebook's sample round as data: the position, the dice it rolls and the moves
its players make, for the page's guided first game ("Learn to play").

The rulebook (``../shared/seeds/002_…``, "Sample Round"): round 3 of a 3-player game,
three dice in the abandoned district. Eileen takes three upper floors, rolls two
high-rise and one mid-rise and builds all three. Tim takes a ground floor and two upper
floors, rolls mid-rise, high-rise and low-rise, builds the mid-rise, rerolls two low-rises,
abandons one, rerolls the last die to a mid-rise and builds it. David takes the whole
district (a ground floor, a penthouse and two upper floors), rolls mid-rise, two low-rises
and a blank penthouse, builds the mid-rise, rerolls to two low-rises and a mid-rise
penthouse, demolishes a height-2 tile with a low-rise die, rerolls the other to a
mid-rise and builds it and the penthouse: a height-3 mid-rise tile. The skylines
"before" are this project's reading of the text (docs/rulings.md).

A move names dice by kind (type and face letters, ``"Ub"``: a blue upper floor), not by
id, so any of two equal dice will do; :func:`resolve_move` turns it into the engine's
actions in a state. Every move of :data:`SAMPLE_MOVES` is legal in turn
(``tests/test_tutorial_engine.py`` plays them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from ..rules.actions import Abandon, Action, Demolish, EndTurn, Roll, Take, TakeDistrict
from ..rules.building import plan_build
from ..rules.errors import IllegalActionError
from ..rules.position import PositionBoard, ScriptedRolls, position_state
from ..rules.state import Die, DieType, Face, GameState

SAMPLE_NAMES = ("Eileen", "Tim", "David")
SAMPLE_SEED = "sample-round"
#: The skylines before the round: unfinished columns | completed tiles.
SAMPLE_SKYLINES = (
    "o2 b1 | p2",  # Eileen: her high-rise ground floor with one upper floor, a mid-rise
    "| b3 p2",  # Tim: no unfinished building (so the upper floors he rolls do not fit)
    "| p2 p2 b4",  # David: height-2 tiles to demolish, no unfinished building
)
#: The district at the start of round 3: one die of each type.
SAMPLE_DISTRICT = "GUP"
#: The faces of every roll of the round, in order (die type and face letters).
SAMPLE_ROLLS = (
    "Uo Uo Ub",  # Eileen: two high-rise and a mid-rise upper floor
    "Gb Uo Up",  # Tim: a mid-rise (the ground floor), a high-rise and a low-rise
    "Up Up",  # Tim's reroll: two low-rises
    "Ub",  # Tim's last die: a mid-rise
    "Gb Up Up Px",  # David: mid-rise, two low-rises and a blank penthouse
    "Up Up Pb",  # David's reroll: two low-rises and a mid-rise penthouse
    "Ub",  # David's last reroll: a mid-rise
)


class Move(NamedTuple):
    """One step of the script: ``verb`` (take, district, roll, build, abandon,
    demolish, end), the dice it uses by kind (``"Ub"``; for take the yard types
    ``"U"``; for the first roll none: all dice) and, for demolish, the tile it removes
    (colour and height, ``"p2"``)."""

    seat: int
    verb: str
    dice: tuple[str, ...] = ()
    target: str = ""

    @property
    def token(self) -> str:
        return " ".join((self.verb, *self.dice, *([self.target] if self.target else [])))


def _moves(seat: int, text: str) -> tuple[Move, ...]:
    out = []
    for part in text.split(";"):
        verb, *rest = part.split()
        target = rest.pop() if verb == "demolish" else ""
        out.append(Move(seat, verb, tuple(rest), target))
    return tuple(out)


#: The round as the rulebook tells it.
SAMPLE_MOVES = (
    _moves(0, "take U U U; roll; build Ub Uo Uo; end")
    + _moves(1, "take G U U; roll; build Gb; roll Uo Up; abandon Up; roll Up; build Ub; end")
    + _moves(2, "district; roll; build Gb; roll Up Up Px; demolish Up p2; roll Up;"
                " build Ub Pb; end")
)


def sample_round_start() -> GameState:
    """The position at the start of the sample round (Eileen to move)."""
    return position_state(SAMPLE_NAMES, round=3, skylines=SAMPLE_SKYLINES,
                          district=SAMPLE_DISTRICT, seed=SAMPLE_SEED)


def sample_round_board() -> PositionBoard:
    """A board at the start of the sample round whose rolls show the rulebook's dice."""
    return PositionBoard(sample_round_start(), ScriptedRolls(SAMPLE_ROLLS))


def die_kind(die: Die) -> str:
    """A die's kind as moves name it: type letter and face letter (``"Ub"``)."""
    return die.type.letter + (die.face.letter if die.face is not None else "")


def pick_dice(dice: Iterable[Die], kinds: Iterable[str]) -> tuple[int, ...]:
    """Ids of dice showing ``kinds`` (the lowest ids first); ``IllegalActionError``
    ``no_die`` if the dice do not show them."""
    wanted = Counter(kinds)
    picked = []
    for die in sorted(dice, key=lambda d: d.id):
        if wanted[die_kind(die)] > 0:
            wanted[die_kind(die)] -= 1
            picked.append(die.id)
    if +wanted:
        missing = next(iter(+wanted))
        raise IllegalActionError("no_die", f"no active die shows {missing}", die=missing)
    return tuple(sorted(picked))


def resolve_move(state: GameState, move: Move) -> tuple[Action, ...]:
    """The engine actions ``move`` stands for in ``state`` (a build of several dice is
    one action per die, in the order :func:`plan_build` places them)."""
    verb = move.verb
    if move.seat != state.seat:
        raise IllegalActionError("wrong_seat", f"it is seat {state.seat}'s turn", seat=state.seat)
    if verb == "take":
        return (Take(tuple(DieType.from_letter(t) for t in move.dice)),)
    if verb == "district":
        return (TakeDistrict(),)
    if verb == "end":
        return (EndTurn(),)
    if verb == "roll" and not move.dice:
        return (Roll(tuple(d.id for d in state.dice)),)
    ids = pick_dice(state.dice, move.dice)
    if verb == "roll":
        return (Roll(ids),)
    if verb == "abandon":
        return (Abandon(ids),)
    if verb == "build":
        plan = plan_build(state, ids)
        if not plan.feasible or plan.choice_die is not None:
            raise IllegalActionError("cannot_build_all", "the dice cannot all be placed")
        return tuple(plan.steps)
    if verb == "demolish":
        return (Demolish(ids[0], tile_index(state, move.target), True),)
    raise ValueError(f"unknown move {verb!r}")


def tile_index(state: GameState, target: str) -> int:
    """The first completed tile of the player to move that ``target`` (``"p2"``) names."""
    kind, height = Face.from_letter(target[0]), int(target[1:])
    for index, tile in enumerate(state.player.buildings):
        if (tile.kind, tile.height) == (kind, height):
            return index
    raise IllegalActionError("no_target", f"no {target} tile", index=target)


def move_action_counts(moves: Iterable[Move] = SAMPLE_MOVES) -> tuple[int, ...]:
    """How many engine actions the board holds once each move is done (cumulative),
    played from the sample round's start."""
    board = sample_round_board()
    counts = []
    for move in moves:
        for action in resolve_move(board.state, move):
            board.push(action)
        counts.append(len(board.actions))
    return tuple(counts)
