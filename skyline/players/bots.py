"""Computer players.

A bot is a function ``bot(state, rng) -> action``: given the current
:class:`~skyline.rules.GameState` (with the bot as the active player) and a
:class:`random.Random` it may draw from, it returns one legal action. Bots are
pure apart from ``rng``: the same state and the same ``rng`` state give the same
action, so a seeded game with bots replays exactly. They do no I/O, use only the
public engine functions (``legal_actions``, ``build_targets``, ``apply_action``…)
and never look at the seeded future rolls (:func:`~skyline.rules.seeded_faces`).

The registry (:mod:`skyline.players.registry`) maps a name to a bot and imports the module of a
shipped bot on first use; this module and :mod:`skyline.players.expert` do not import each
other. To add a bot, write the function and register it::

    @register("mine")
    def mine(state: GameState, rng: random.Random) -> Action:
        ...

Bots shipped here:

``random``
    Uniform over :func:`~skyline.rules.legal_actions` (about 0.4 points solo).
``beginner``
    Random legal play that never demolishes unless nothing else is allowed and
    never ends a turn while a die could still be built.
``expert`` (:mod:`skyline.players.expert`)
    Solo: optimal play from the offline value table plus the exact within-turn search.
    With more players it plays to win (:mod:`skyline.players.table_expert`: a search over its
    own turn valued by the chance of finishing first). ``expert1`` is its earlier 2-4
    player play, a benchmark baseline.
``greedy``
    Takes dice for the columns it has, completes what it can, keeps one ground
    die as insurance for the must-resolve rule and rerolls the rest. In games of
    several players it takes a rich district and abandons dice it cannot use
    rather than demolish.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import (
    DIE_FACES,
    PENTHOUSE_RANGE,
    UPPER_LIMIT,
    Abandon,
    Action,
    Build,
    Column,
    Demolish,
    Die,
    DieType,
    EndTurn,
    Face,
    GameState,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    build_targets,
    legal_actions,
)
from .registry import BOTS, DEFAULT_BOT, Bot, BotError, get_bot, register

# The registry's names, re-exported here for existing callers.
__all__ = ["BOTS", "DEFAULT_BOT", "Bot", "BotError", "beginner_bot", "get_bot", "greedy_bot",
           "random_bot", "register"]


# --------------------------------------------------------------------------- random / beginner


@register("random")
def random_bot(state: GameState, rng: random.Random) -> Action:
    """Uniformly random over the legal actions."""
    actions = legal_actions(state)
    return actions[rng.randrange(len(actions))]


@register("beginner")
def beginner_bot(state: GameState, rng: random.Random) -> Action:
    """Random legal play, but it demolishes only when forced and does not end a turn
    while some die could still be built."""
    actions = legal_actions(state)
    calm: list[Action] = [a for a in actions if not isinstance(a, Demolish)] or actions
    if any(isinstance(a, Build) for a in calm):
        calm = [a for a in calm if not isinstance(a, EndTurn)]
    return calm[rng.randrange(len(calm))]


# --------------------------------------------------------------------------- greedy

G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE
P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741
# which ground faces to build first (keyed by Die.face, None while unrolled)
_GROUND_PREFERENCE: dict[Face | None, int] = {O: 0, B: 1, P: 2}


def _upper_ready(columns: Sequence[Column], face: Face) -> bool:
    limit = UPPER_LIMIT[face]
    return any(c.kind is face and c.height < limit for c in columns)


def _penthouse_ready(columns: Sequence[Column], face: Face) -> bool:
    if face not in PENTHOUSE_RANGE:
        return False
    low, high = PENTHOUSE_RANGE[face]
    return any(c.kind is face and low <= c.height <= high for c in columns)


def _build_chance(columns: Sequence[Column], die_type: DieType) -> float:
    """Probability that a die of this type can be built on the skyline when rolled."""
    if die_type is G:
        return 1.0
    ready = _upper_ready if die_type is U else _penthouse_ready
    return sum(1 for f in DIE_FACES[die_type] if f is not X and ready(columns, f)) / 6


def _greedy_take(state: GameState) -> Action:
    columns = state.player.columns
    district = state.district
    if (
        not state.solo
        and len(district) >= 4
        and G in district
        and sum(_build_chance(columns, t) for t in district) >= 2.0
    ):
        return TakeDistrict()
    up = _build_chance(columns, U)
    pent = _build_chance(columns, PH)
    types = [G]
    for _ in range(2):
        if pent > 0 and PH not in types:
            types.append(PH)
        elif up > 0:
            types.append(U)
        else:
            types.append(G)
    return Take(tuple(types))


def _best_build(columns: Sequence[Column], dice: Sequence[Die], keep: int | None) -> Build | None:
    """The most useful build among ``dice`` (not ``keep``): upper floors first (so a
    penthouse lands on the taller building), then penthouses, then ground floors,
    always on the tallest possible column."""
    best: tuple[tuple[int, int], Build] | None = None
    for die in dice:
        if die.id == keep:
            continue
        targets = build_targets(columns, die)
        if not targets:
            continue
        if die.type is G:
            rank = (2, -_GROUND_PREFERENCE[die.face])
            target = None
        else:
            # only a ground die has the target None (a new building)
            on_columns = [i for i in targets if i is not None]
            column = max(on_columns, key=lambda i: columns[i].height)
            target = column
            rank = (0 if die.type is U else 1, -columns[column].height)
        candidate = (rank, Build(die.id, target))
        if best is None or candidate[0] < best[0]:
            best = candidate
    return None if best is None else best[1]


def _keeper(dice: Sequence[Die]) -> int | None:
    """The ground die kept back as insurance (the least useful face), if any."""
    grounds = [d for d in dice if d.type is G]
    if not grounds:
        return None
    return max(grounds, key=lambda d: (_GROUND_PREFERENCE[d.face], d.id)).id


def _useless(columns: Sequence[Column], dice: Sequence[Die]) -> Die:
    """The die least worth keeping (a blank penthouse, else one that cannot be built)."""
    return min(dice, key=lambda d: (d.face is not X, bool(build_targets(columns, d)), d.id))


def _cheapest_demolition(state: GameState, die: Die) -> Demolish:
    player = state.player

    def column_cost(c: Column) -> float:
        return 1.5 if c.kind is P else c.height * (1.0 if c.kind is B else 1.3)

    options: list[tuple[float, Demolish]] = [
        (column_cost(c), Demolish(die.id, i, False)) for i, c in enumerate(player.columns)
    ]
    options += [(b.points, Demolish(die.id, i, True)) for i, b in enumerate(player.buildings)]
    return min(options, key=lambda o: o[0])[1]


def _worth_rerolling(state: GameState, dice: Sequence[Die]) -> bool:
    """Solo without insurance: reroll only if something will very likely be buildable
    (otherwise a building must be demolished) or demolishing is cheap."""
    columns = state.player.columns
    none_buildable = 1.0
    for die in dice:
        none_buildable *= 1.0 - _build_chance(columns, die.type)
    cheap = any(c.kind is not P and c.height == 1 for c in columns)
    return none_buildable < (0.35 if cheap else 0.15)


@register("greedy")
def greedy_bot(state: GameState, rng: random.Random) -> Action:
    """Take dice for the columns it has, complete what it can, keep one ground die as
    insurance for the must-resolve rule, reroll the rest. Deterministic (``rng`` unused)."""
    phase = state.phase
    if phase is Phase.TAKE:
        return _greedy_take(state)
    if phase is Phase.ROLL:
        return Roll(tuple(d.id for d in state.dice))
    if phase is Phase.OVER:
        raise ValueError("the game is over")
    dice = state.dice
    if not dice:
        return EndTurn()
    columns = state.player.columns
    keep = _keeper(dice)
    build = _best_build(columns, dice, keep)
    if build is not None:
        return build
    rest = [d for d in dice if d.id != keep]
    if phase is Phase.RESOLVE:
        if keep is not None:
            return Build(keep, None)
        if not state.solo:
            return Abandon((_useless(columns, dice).id,))
        return _cheapest_demolition(state, _useless(columns, dice))
    # CONTINUE: something was resolved since the last roll
    if rest and (keep is not None or not state.solo or _worth_rerolling(state, rest)):
        return Roll(tuple(d.id for d in rest))
    if keep is not None:
        return Build(keep, None)
    return EndTurn()
