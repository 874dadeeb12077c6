"""Where dice can be built: targets, the checks, planning a selection
(:func:`plan_build`) and why a die cannot be built (:func:`build_blocker`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .actions import Build
from .errors import IllegalActionError
from .state import (
    PENTHOUSE_RANGE,
    UPPER_LIMIT,
    B,
    Building,
    Column,
    Die,
    DieType,
    GameState,
    O,
    P,
    Player,
    X,
    die_index,
)


def build_targets(columns: Sequence[Column], die: Die) -> list[int | None]:
    """Where ``die`` could be built now: None for a new building, else column
    indices, one per class of equivalent columns (same colour and height)."""
    face = die.face
    if face is None or face is X:
        return []
    if die.type is DieType.GROUND:
        return [None]
    seen: set[int] = set()
    targets: list[int | None] = []
    if die.type is DieType.UPPER:
        limit = UPPER_LIMIT[face]
        for index, column in enumerate(columns):
            if column.kind is face and column.height < limit and column.height not in seen:
                seen.add(column.height)
                targets.append(index)
        return targets
    low, high = PENTHOUSE_RANGE[face]
    for index, column in enumerate(columns):
        if column.kind is face and low <= column.height <= high and column.height not in seen:
            seen.add(column.height)
            targets.append(index)
    return targets


def check_build(columns: Sequence[Column], die: Die, column: int | None) -> None:
    face = die.face
    if face is None:
        raise IllegalActionError("not_rolled", "roll the dice before building")
    if face is X:
        raise IllegalActionError("blank_penthouse", "a blank penthouse cannot be built")
    if die.type is DieType.GROUND:
        if column is not None:
            raise IllegalActionError(
                "ground_on_top", "a ground floor starts a new building; it cannot go on top"
            )
        return
    if column is None:
        raise IllegalActionError(
            "needs_column", "an upper floor or penthouse must go on an unfinished building"
        )
    if not 0 <= column < len(columns):
        raise IllegalActionError(
            "no_column", f"there is no unfinished building {column}", index=column
        )
    target = columns[column]
    if target.kind is not face:
        raise IllegalActionError(
            "wrong_colour", "the die's colour does not match the building", face=face.kind_name
        )
    if die.type is DieType.UPPER:
        if target.height >= UPPER_LIMIT[face]:
            raise IllegalActionError(
                "too_high", "this building has no room for another upper floor",
                height=target.height,
            )
    else:
        low, high = PENTHOUSE_RANGE[face]
        if not low <= target.height <= high:
            raise IllegalActionError(
                "penthouse_height", "a penthouse cannot complete a building of this height",
                height=target.height,
            )


def place_die(player: Player, die: Die, column: int | None) -> tuple[Player, Building | None]:
    """Return the player after building and the building completed, if any."""
    face = die.face
    assert face is not None
    name, columns, buildings, demolitions = player
    if column is None:
        return Player(name, columns + (Column(face, 1),), buildings, demolitions), None
    height = columns[column].height + 1
    if die.type is DieType.PENTHOUSE or face is P:
        done = Building(face, height)
        rest = columns[:column] + columns[column + 1 :]
        return Player(name, rest, buildings + (done,), demolitions), done
    new_columns = columns[:column] + (Column(face, height),) + columns[column + 1 :]
    return Player(name, new_columns, buildings, demolitions), None


def can_build_all(columns: Sequence[Column], dice: Iterable[Die]) -> bool:
    """Whether every die can be placed in some order (grounds, uppers, penthouses)."""
    uppers = [0, 0, 0]
    pents = [0, 0, 0]
    heights: list[list[int]] = [[], [], []]
    for column in columns:
        heights[column.kind].append(column.height)
    for die in dice:
        face = die.face
        if face is None or face is X:
            return False
        if die.type is DieType.GROUND:
            heights[face].append(1)
        elif die.type is DieType.UPPER:
            uppers[face] += 1
        else:
            pents[face] += 1
    if uppers[P] > len(heights[P]):
        return False
    for kind in (B, O):
        hs = heights[kind]
        limit = UPPER_LIMIT[kind]
        if uppers[kind] > sum(limit - h for h in hs) or pents[kind] > len(hs):
            return False
        if kind is O:
            # a penthouse on an orange ground floor needs an upper floor under it first
            raises = max(0, pents[O] - sum(1 for h in hs if h >= 2))
            if raises > uppers[O]:
                return False
    return True


_BUILD_ORDER = {DieType.GROUND: 0, DieType.UPPER: 1, DieType.PENTHOUSE: 2}


class BuildPlan(NamedTuple):
    """How a selection would be built.

    ``feasible`` says whether all selected dice can be placed. ``steps`` are the
    builds that need no decision, in order. If ``choice_die`` is set, the player
    must pick its tower among ``choices`` (one column per equivalence class)
    before the rest can be planned.
    """

    feasible: bool
    steps: tuple[Build, ...]
    choice_die: int | None
    choices: tuple[int | None, ...]


def plan_build(state: GameState, die_ids: Iterable[int]) -> BuildPlan:
    """Plan building the selected dice: place automatically where the target is
    unique or equivalent, stop at the first die whose target is a real choice.
    Targets that would strand another selected die are never offered."""
    by_id = {d.id: d for d in state.dice}
    try:
        selected = sorted(
            (by_id[i] for i in set(die_ids)), key=lambda d: (_BUILD_ORDER[d.type], d.id)
        )
    except KeyError:
        return BuildPlan(False, (), None, ())
    columns = state.player.columns
    if not selected or not can_build_all(columns, selected):
        return BuildPlan(False, (), None, ())
    player = state.player
    steps: list[Build] = []
    for position, die in enumerate(selected):
        rest = selected[position + 1 :]
        options = []
        for target in build_targets(player.columns, die):
            after, _ = place_die(player, die, target)
            if can_build_all(after.columns, rest):
                options.append(target)
        if len(options) != 1:
            return BuildPlan(True, tuple(steps), die.id, tuple(options))
        steps.append(Build(die.id, options[0]))
        player, _ = place_die(player, die, options[0])
    return BuildPlan(True, tuple(steps), None, ())


def build_blocker(state: GameState, die_id: int) -> IllegalActionError | None:
    """Why the active die ``die_id`` cannot be built anywhere now, as the engine's own
    error (``not_rolled``, ``blank_penthouse``, ``needs_column`` with ``params["face"]``
    when no unfinished building has its colour, ``too_high``, ``penthouse_height``);
    None when it can be built. Raises :class:`IllegalActionError` ``no_die`` for a die
    that is not active."""
    die = state.dice[die_index(state.dice, die_id)]
    columns = state.player.columns
    if build_targets(columns, die):
        return None
    face = die.face
    if face is None or face is X or die.type is DieType.GROUND:
        column = None
    else:
        same = [i for i, c in enumerate(columns) if c.kind is face]
        if not same:
            return IllegalActionError(
                "needs_column", f"no unfinished {face.kind_name} building to go on",
                face=face.kind_name,
            )
        column = same[0]
    try:
        check_build(columns, die, column)
    except IllegalActionError as exc:
        return exc
    return None  # pragma: no cover - build_targets found none, check_build agrees
