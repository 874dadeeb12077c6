"""Shared helpers for the engine tests: compact state construction and brute force.

Imported by the test modules as ``engine_helpers`` (pytest puts ``tests/`` on
``sys.path``); not a conftest, so it can be imported explicitly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations

from skyline import (
    Board,
    Building,
    Column,
    Die,
    DieType,
    Face,
    GameState,
    Options,
    Phase,
    Player,
    new_game,
)
from skyline.rules import PENTHOUSE_RANGE, UPPER_LIMIT

NAMES = ("Ada", "Bo", "Cy", "Di")
FACE_OF = {f.letter: f for f in Face}
KIND = {"p": Face.PURPLE, "b": Face.BLUE, "o": Face.ORANGE}


def dice(spec: str) -> tuple[Die, ...]:
    """``"Gp Ub Px G?"`` -> dice 0.. with those types and faces (``?`` = unrolled)."""
    out = []
    for i, token in enumerate(spec.split()):
        face = None if token[1] == "?" else FACE_OF[token[1]]
        out.append(Die(i, DieType.from_letter(token[0]), face))
    return tuple(out)


def cols(spec: str) -> tuple[Column, ...]:
    """``"o1 b3"`` -> unfinished columns."""
    return tuple(Column(KIND[t[0]], int(t[1:])) for t in spec.split())


def tiles(spec: str) -> tuple[Building, ...]:
    """``"o6 p2"`` -> completed buildings."""
    return tuple(Building(KIND[t[0]], int(t[1:])) for t in spec.split())


def make_state(
    players: int = 1,
    *,
    columns: str = "",
    buildings: str = "",
    dice_spec: str = "",
    phase: Phase = Phase.RESOLVE,
    seat: int = 0,
    round: int = 1,
    all_nine: bool = False,
    seed: str = "test",
) -> GameState:
    """A state with the active player's skyline and active dice set as given;
    the other players keep their setup gifts."""
    state = new_game(Options(NAMES[:players], seed, 0, all_nine))
    me = Player(state.players[seat].name, cols(columns), tiles(buildings))
    others = list(state.players)
    others[seat] = me
    return state._replace(
        players=tuple(others), dice=dice(dice_spec), phase=phase, seat=seat, round=round
    )


def pass_turn(board: Board) -> None:
    """Play a harmless turn: take three ground dice, roll, build die 0, end."""
    board.push_text("tGGG")
    board.push_text("r0.1.2")
    board.push_text("b0")
    board.push_text("e")


# --------------------------------------------------------------------------- brute force


def raw_targets(columns: Sequence[Column], die: Die) -> list[int | None]:
    """Every place the rules let ``die`` go, written straight from the rule text
    (no equivalence classes): None = a new building."""
    face = die.face
    if face is None or face is Face.BLANK:
        return []
    if die.type is DieType.GROUND:
        return [None]
    out: list[int | None] = []
    for i, c in enumerate(columns):
        if c.kind is not face:
            continue
        if die.type is DieType.UPPER:
            result = c.height + 1
            if (face is Face.PURPLE and result == 2) or (
                face is not Face.PURPLE and result <= UPPER_LIMIT[face]
            ):
                out.append(i)
        elif face in PENTHOUSE_RANGE:
            low, high = PENTHOUSE_RANGE[face]
            if low <= c.height <= high:
                out.append(i)
    return out


def place(
    columns: tuple[Column, ...], buildings: tuple[Building, ...], die: Die, target: int | None
) -> tuple[tuple[Column, ...], tuple[Building, ...]]:
    """The skyline after building ``die`` at ``target`` (assumed legal)."""
    assert die.face is not None
    if target is None:
        return columns + (Column(die.face, 1),), buildings
    height = columns[target].height + 1
    rest = columns[:target] + columns[target + 1 :]
    if die.type is DieType.PENTHOUSE or die.face is Face.PURPLE:
        return rest, buildings + (Building(die.face, height),)
    return columns[:target] + (Column(die.face, height),) + columns[target + 1 :], buildings


def completions(
    columns: tuple[Column, ...], buildings: tuple[Building, ...], todo: Sequence[Die]
) -> set[tuple[tuple[Column, ...], tuple[Building, ...]]]:
    """All final skylines (sorted) reachable by placing every die of ``todo`` in any
    order at any legal target; empty if the dice cannot all be placed."""
    if not todo:
        return {(tuple(sorted(columns)), tuple(sorted(buildings)))}
    out: set = set()
    for i, die in enumerate(todo):
        rest = [*todo[:i], *todo[i + 1 :]]
        for target in raw_targets(columns, die):
            c2, b2 = place(columns, buildings, die, target)
            out |= completions(c2, b2, rest)
    return out


def can_place_all_brute(columns: Sequence[Column], todo: Iterable[Die]) -> bool:
    todo = list(todo)
    for order in permutations(todo):
        if _sequential(tuple(columns), order):
            return True
    return False


def _sequential(columns: tuple[Column, ...], order: Sequence[Die]) -> bool:
    if not order:
        return True
    die, rest = order[0], order[1:]
    for target in raw_targets(columns, die):
        c2, _ = place(columns, (), die, target)
        if _sequential(c2, rest):
            return True
    return False
