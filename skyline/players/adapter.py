"""The one adapter between the engine and the computer players' models.

The models (:mod:`.solo_value`, :mod:`.table_expert`, :mod:`.scenario_model`) see dice
and skylines abstractly: a die is a *kind* ``type * 3 + face`` (faces by type in
:data:`FACES`, a blank penthouse is face 0), columns and tiles are colour names and
heights, a roll is a distribution over sorted hands (:func:`outcomes`; the choices a
hand offers: :func:`distinct`, :func:`rerolls`, :func:`reroll_dist`). This module
turns the engine's :class:`~skyline.rules.GameState`, dice and columns into those terms
and back (:func:`column_index`), and holds what every player shares: whose turn is still
to come this round (:func:`still_to_play`), the turns a seat has left
(:func:`turns_left`) and the order in which dice look most promising
(:func:`promising`). Written once here; the bots and the experts all use it.

>>> from skyline.rules import Die, DieType, Face
>>> die_kind(Die(0, DieType.PENTHOUSE, Face.BLUE)), pair_kind(("P", "blue"))
(7, 7)
>>> [(hand, round(p, 3)) for hand, p in outcomes((0,))]
[((0,), 0.5), ((1,), 0.333), ((2,), 0.167)]
>>> distinct((0, 0, 7)), rerolls((0, 7))
(((0, (0, 7)), (7, (0, 0))), (((), (0, 2)), ((0,), (2,)), ((7,), (0,))))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

from ..rules import Building, Column, Die, Face, GameState, Phase, build_targets

#: Die types as the models name them (index: :class:`~skyline.rules.DieType`).
TYPES = ("G", "U", "P")
#: The three faces of each die type, by face index (a die of type ``t`` showing face ``f``
#: is kind ``t * 3 + f``).
FACES = {
    "G": ("purple", "blue", "orange"),
    "U": ("purple", "blue", "orange"),
    "P": ("blank", "blue", "orange"),
}
#: The probability of each face index (3, 2 and 1 of the six sides).
FACE_P = (3 / 6, 2 / 6, 1 / 6)
#: The engine's faces as colour names, and back.
FACE_NAME = {Face.PURPLE: "purple", Face.BLUE: "blue", Face.ORANGE: "orange", Face.BLANK: "blank"}
NAME_FACE = {name: face for face, name in FACE_NAME.items()}
_FACE_INDEX = {Face.PURPLE: 0, Face.BLANK: 0, Face.BLUE: 1, Face.ORANGE: 2}


# --------------------------------------------------------------------------- dice


def pair_kind(die: tuple[str, str]) -> int:
    """The kind of a die given as (type letter, colour name), e.g. ``("U", "blue")``."""
    type_letter, face = die
    return TYPES.index(type_letter) * 3 + FACES[type_letter].index(face)


def die_pair(die: Die) -> tuple[str, str]:
    """A rolled engine die as (type letter, colour name)."""
    assert die.face is not None
    return (die.type.letter, FACE_NAME[die.face])


def die_kind(die: Die) -> int:
    """The kind of a rolled engine die (equal to ``pair_kind(die_pair(die))``)."""
    assert die.face is not None
    return int(die.type) * 3 + _FACE_INDEX[die.face]


@cache
def outcomes(types: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The distinct hands (sorted kinds) of rolling dice of ``types`` (type indices),
    with their probabilities, hands in increasing order."""
    dist: dict[tuple[int, ...], float] = {}
    for faces in product(range(3), repeat=len(types)):
        p = 1.0
        for f in faces:
            p *= FACE_P[f]
        key = tuple(sorted(t * 3 + f for t, f in zip(types, faces, strict=True)))
        dist[key] = dist.get(key, 0.0) + p
    return tuple(sorted(dist.items()))


@cache
def distinct(hand: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each distinct kind in ``hand`` (sorted kinds) with the rest of the hand."""
    out = []
    for kind in sorted(set(hand)):
        i = hand.index(kind)
        out.append((kind, hand[:i] + hand[i + 1 :]))
    return tuple(out)


@cache
def rerolls(hand: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The distinct nonempty rerolls of ``hand``: (kinds kept, types rerolled), sorted."""
    opts = set()
    n = len(hand)
    for r in range(1, n + 1):
        for sub in combinations(range(n), r):
            kept = tuple(hand[i] for i in range(n) if i not in sub)
            opts.add((kept, tuple(sorted(hand[i] // 3 for i in sub))))
    return tuple(sorted(opts))


@cache
def reroll_dist(
    kept: tuple[int, ...], types: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The hands after rerolling dice of ``types`` while keeping ``kept``, with their
    probabilities (:func:`outcomes`)."""
    return tuple((tuple(sorted(kept + o)), p) for o, p in outcomes(types))


def promising(state: GameState, dice: Sequence[Die]) -> list[Die]:
    """``dice`` ranked by use: buildable now first, then penthouses with a colour, then by
    type (higher first), then by id."""
    columns = state.players[state.seat].columns
    return sorted(dice, key=lambda d: (not build_targets(columns, d), d.face is Face.BLANK,
                                       -int(d.type), d.id))


# --------------------------------------------------------------------------- skylines


def colour_columns(columns: Sequence[Column | Building]) -> list[tuple[str, int]]:
    """Unfinished columns (or tiles) as (colour name, height)."""
    return [(FACE_NAME[c.kind], c.height) for c in columns]


def column_index(columns: Sequence[Column], target: tuple[str, int]) -> int:
    """The index of the first column of colour and height ``target`` (a model's column
    class, e.g. ``("blue", 2)``)."""
    want = Column(NAME_FACE[target[0]], target[1])
    return next(i for i, c in enumerate(columns) if c == want)


# --------------------------------------------------------------------------- turns


def still_to_play(state: GameState, seat: int) -> bool:
    """Whether ``seat`` still has its turn of this round (the active seat counts)."""
    n = len(state.players)
    start = state.start_seat
    return (seat - start) % n >= (state.seat - start) % n


def turns_left(state: GameState, seat: int) -> int:
    """The turns ``seat`` has left, counting the one in progress for the active seat: the
    rounds to come, fewer when a six-high building ends a standard game with this round."""
    turns = max(0, 10 - state.round)
    if state.phase is Phase.OVER:
        return 0
    if not state.options.all_nine and state.six_completed and not state.solo:
        # someone completed a six-high building this round: the game ends with it
        return 1 if still_to_play(state, seat) else 0
    if seat != state.seat and not still_to_play(state, seat):
        return max(0, turns - 1)
    return turns
