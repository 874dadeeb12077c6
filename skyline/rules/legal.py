"""The legal actions of a state, one representative per class of equivalent actions."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from .actions import Abandon, Action, Build, Demolish, EndTurn, Roll, Take, TakeDistrict
from .building import build_targets
from .state import (
    Die,
    DieType,
    Face,
    GameState,
    Phase,
)

_TAKES = tuple(
    Take((DieType(a), DieType(b), DieType(c)))
    for a in range(3)
    for b in range(a, 3)
    for c in range(b, 3)
)
_END = EndTurn()
_TAKE_DISTRICT = TakeDistrict()


def _selections(groups: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """One selection per distinct nonempty multiset of dice."""
    # the order of itertools.product over the counts (first group slowest), built
    # prefix by prefix: the empty selection comes first and is skipped
    selections: list[tuple[int, ...]] = [()]
    for group in groups:
        prefixes = [tuple(group[:count]) for count in range(len(group) + 1)]
        selections = [s + p for s in selections for p in prefixes]
    for chosen in selections[1:]:
        yield tuple(sorted(chosen))


#: Above this many distinct reroll selections only the structured ones are listed.
MAX_LISTED_REROLLS = 128


def _rerolls(groups: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Distinct reroll selections. A pool swollen by abandoning (a district of
    thirty dice, say) has millions of them, so above MAX_LISTED_REROLLS the list
    keeps one die of each group, whole groups, all dice, and all but one die of
    each group."""
    total = 1
    for group in groups:
        total *= len(group) + 1
    if total - 1 <= MAX_LISTED_REROLLS:
        yield from _selections(groups)
        return
    everything = tuple(sorted(chain.from_iterable(groups)))
    n = len(everything)
    if any(len(g) >= n - 1 for g in groups):
        yield from _rerolls_by_set(groups, everything)
        return
    # Here (n >= 8) the short selections (single dice, whole groups shorter than
    # n - 1) cannot equal the long ones (all but one die, all dice), so only the
    # short ones need sorting. Dropping a larger id gives a smaller tuple, so the
    # all-but-one selections come in order of decreasing dropped id.
    short: set[tuple[int, ...]] = set()
    for group in groups:
        short.add((group[0],))
        short.add(tuple(group))
    yield from sorted(short, key=lambda sel: (len(sel), sel))
    for dropped in sorted((g[-1] for g in groups), reverse=True):
        k = everything.index(dropped)
        yield everything[:k] + everything[k + 1 :]
    yield everything


def _rerolls_by_set(
    groups: list[list[int]], everything: tuple[int, ...]
) -> Iterator[tuple[int, ...]]:
    """The structured selections of :func:`_rerolls`, deduplicated by a set."""
    seen: set[tuple[int, ...]] = set()
    for group in groups:
        seen.add((group[0],))
        seen.add(tuple(group))
        k = everything.index(group[-1])  # ids are unique: drop this one die
        seen.add(everything[:k] + everything[k + 1 :])
    seen.add(everything)
    yield from sorted(seen, key=lambda sel: (len(sel), sel))


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action, one representative for each class of equivalent
    actions (interchangeable dice, columns of the same colour and height).

    Rerolls are listed for every distinct selection (a structured subset when
    there are more than MAX_LISTED_REROLLS, see :func:`_rerolls`). Abandoning is listed one
    die at a time plus all dice at once, since a selection abandoned together
    gives the same state as its dice abandoned one by one (building likewise:
    see :func:`plan_build`). :func:`apply_action` accepts any legal action.
    """
    phase = state.phase
    if phase is Phase.TAKE:
        return [*_TAKES, _TAKE_DISTRICT] if state.district else list(_TAKES)
    if phase is Phase.ROLL:
        return [Roll(tuple(d.id for d in state.dice))]
    if phase is Phase.OVER:
        return []
    actions: list[Action] = []
    dice = state.dice
    player = state.players[state.seat]
    columns = player.columns
    # interchangeable dice (same type and face): one representative per group
    groups: dict[tuple[DieType, Face | None], list[int]] = {}
    reps: list[Die] = []
    for die in dice:
        die_id, die_type, face = die
        key = (die_type, face)
        group = groups.get(key)
        if group is None:
            groups[key] = [die_id]
            reps.append(die)
        else:
            group.append(die_id)
    # interchangeable targets (same colour and height): the first of each
    column_targets = list({c: i for i, c in reversed(tuple(enumerate(columns)))}.values())
    column_targets.sort()
    building_targets = list(
        {b: i for i, b in reversed(tuple(enumerate(player.buildings)))}.values()
    )
    building_targets.sort()
    if len(_ACTION_CACHE) > _ACTION_CACHE_LIMIT:
        _ACTION_CACHE.clear()
    cache = _ACTION_CACHE
    for die in reps:
        die_id = die.id
        for target in build_targets(columns, die):
            key_b = ("b", die_id, target)
            action = cache.get(key_b)
            if action is None:
                action = cache[key_b] = Build(die_id, target)
            actions.append(action)
        for index in column_targets:
            key_c = ("c", die_id, index)
            action = cache.get(key_c)
            if action is None:
                action = cache[key_c] = Demolish(die_id, index, False)
            actions.append(action)
        for index in building_targets:
            key_d = ("d", die_id, index)
            action = cache.get(key_d)
            if action is None:
                action = cache[key_d] = Demolish(die_id, index, True)
            actions.append(action)
    if dice:
        if len(state.players) > 1:
            # Abandoning a selection ends where abandoning its dice one by one
            # ends, so the list offers one die at a time, and all dice at once.
            for die in reps:
                key_a = ("a", die.id)
                action = cache.get(key_a)
                if action is None:
                    action = cache[key_a] = Abandon((die.id,))
                actions.append(action)
            if len(dice) > 1:
                actions.append(Abandon(tuple([d[0] for d in dice])))
        if phase is Phase.CONTINUE:
            if len(dice) <= _REROLL_CACHE_DICE:
                key_r = tuple(map(tuple, groups.values()))
                rolls = _REROLL_CACHE.get(key_r)
                if rolls is None:
                    if len(_REROLL_CACHE) > _ACTION_CACHE_LIMIT:
                        _REROLL_CACHE.clear()
                    rolls = _REROLL_CACHE[key_r] = tuple(
                        _roll(sel) for sel in _rerolls(list(groups.values()))
                    )
                actions.extend(rolls)
            else:
                actions.extend(Roll(sel) for sel in _rerolls(list(groups.values())))
    if phase is Phase.CONTINUE:
        actions.append(_END)
    return actions


#: Actions are immutable, so legal_actions hands out shared instances (bounded caches).
_ACTION_CACHE: dict[tuple[object, ...], Action] = {}
_REROLL_CACHE: dict[tuple[tuple[int, ...], ...], tuple[Roll, ...]] = {}
_ROLL_CACHE: dict[tuple[int, ...], Roll] = {}
_ACTION_CACHE_LIMIT = 4096
_REROLL_CACHE_DICE = 12  # pools up to this size have their reroll lists cached


def _roll(selection: tuple[int, ...]) -> Roll:
    action = _ROLL_CACHE.get(selection)
    if action is None:
        if len(_ROLL_CACHE) > 4 * _ACTION_CACHE_LIMIT:
            _ROLL_CACHE.clear()
        action = _ROLL_CACHE[selection] = Roll(selection)
    return action
