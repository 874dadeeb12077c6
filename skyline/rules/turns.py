"""The turn flow: :func:`apply_action` (the rules of every action) and
:func:`is_legal`, plus the rules the page asks about a turn.

>>> from skyline.rules import Options, legal_actions, new_game
>>> state = new_game(Options(names=("Ada",), seed="demo"))
>>> state.phase is Phase.TAKE, len(legal_actions(state))
(True, 10)
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import (
    ACTION_TYPES,
    Abandon,
    Action,
    Build,
    Demolish,
    EndTurn,
    Roll,
    Take,
    TakeDistrict,
)
from .building import build_targets, check_build, place_die
from .chance import seeded_faces
from .errors import IllegalActionError
from .state import (
    DIE_FACES,
    ROUNDS,
    Die,
    DieType,
    Face,
    GameState,
    Phase,
    Player,
    die_index,
)


def _advance(state: GameState) -> GameState:
    """End the active player's turn and move to the next seat or round."""
    options, round_, seat, _, district, _, _, six, players = state
    seat = (seat + 1) % len(players)
    if seat != (options.start_seat or 0):
        return GameState(options, round_, seat, Phase.TAKE, district, (), 0, six, players)
    if round_ >= ROUNDS or (six and not options.all_nine):
        return GameState(options, round_, seat, Phase.OVER, district, (), 0, six, players)
    return GameState(options, round_ + 1, seat, Phase.TAKE, district, (), 0, False, players)


def can_resolve_any(state: GameState) -> bool:
    """Whether some active die can be built, abandoned or used to demolish."""
    if not state.dice:
        return False
    if not state.solo:
        return True
    player = state.player
    if player.columns or player.buildings:
        return True
    return any(build_targets(player.columns, die) for die in state.dice)


def _dice_by_ids(state: GameState, ids: Sequence[int]) -> tuple[Die, ...]:
    if not ids:
        raise IllegalActionError("empty_selection", "select at least one die")
    by_id = {d.id: d for d in state.dice}
    picked: list[Die] = []
    for i in ids:
        die = by_id.pop(i, None)
        if die is None:
            if any(d.id == i for d in picked):
                raise IllegalActionError("repeated_die", f"die {i} is selected twice", die=i)
            raise IllegalActionError("no_die", f"there is no active die {i}", die=i)
        picked.append(die)
    return tuple(picked)


def _require_phase(state: GameState, *phases: Phase) -> None:
    if state.phase not in phases:
        if state.phase is Phase.OVER:
            raise IllegalActionError("game_over", "the game is over")
        wanted = {
            Phase.TAKE: "take dice first",
            Phase.ROLL: "roll the dice you took first",
            Phase.RESOLVE: "resolve at least one die first",
            Phase.CONTINUE: "resolve at least one die first",
        }[state.phase]
        raise IllegalActionError(
            "wrong_phase", f"not now: {wanted}", phase=state.phase.name.lower()
        )


def _resolved(state: GameState, index: int, player: Player, six: bool) -> GameState:
    """``state`` after the active seat resolved its die ``index`` (a build or a
    demolition) into the skyline ``player``; ``six``: a six-high building is complete."""
    options, round_, seat, _phase, district, dice, rolls, _six, players = state
    return GameState(
        options, round_, seat, Phase.CONTINUE, district, dice[:index] + dice[index + 1 :],
        rolls, six, players[:seat] + (player,) + players[seat + 1 :],
    )


_TAKE_DICE: dict[tuple[DieType, ...], tuple[Die, ...]] = {}


def apply_action(
    state: GameState, action: Action, faces: Sequence[Face] | None = None
) -> GameState:
    """Return the state after ``action``; raise :class:`IllegalActionError` if illegal.

    For a :class:`Roll`, ``faces`` (aligned with ``action.dice``) chooses the chance
    outcome, as a bot's search does; without it the seed decides.
    """
    # States are built field by field rather than with _replace: this is the hot path
    # of every bot and search (see scripts/bench_engine.py).
    options, round_, seat, phase, district, dice, rolls, six, players = state
    if isinstance(action, Build):
        if phase is not Phase.RESOLVE and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.RESOLVE, Phase.CONTINUE)
        index = die_index(dice, action.die)
        die = dice[index]
        player = players[seat]
        check_build(player.columns, die, action.column)
        player, done = place_die(player, die, action.column)
        return _resolved(state, index, player, six or (done is not None and done.height == 6))
    if isinstance(action, Roll):
        if phase is not Phase.ROLL and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.ROLL, Phase.CONTINUE)
        chosen = _dice_by_ids(state, action.dice)
        if phase is Phase.ROLL and len(chosen) != len(dice):
            raise IllegalActionError(
                "roll_all", "the first roll of a turn rolls all the dice taken"
            )
        if faces is None:
            faces = seeded_faces(state, chosen)
        else:
            faces = tuple(faces)
            if len(faces) != len(chosen) or any(
                f not in DIE_FACES[d.type] for d, f in zip(chosen, faces, strict=True)
            ):
                raise ValueError("faces: one possible face per rolled die expected")
            faces = tuple(map(Face, faces))
        new_face = {d.id: f for d, f in zip(chosen, faces, strict=True)}
        new_dice = tuple(
            Die(d.id, d.type, new_face[d.id]) if d.id in new_face else d for d in dice
        )
        rolled = GameState(
            options, round_, seat, Phase.RESOLVE, district, new_dice, rolls + 1, six, players
        )
        return rolled if can_resolve_any(rolled) else _advance(rolled)
    if isinstance(action, Demolish):
        if phase is not Phase.RESOLVE and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.RESOLVE, Phase.CONTINUE)
        index = die_index(dice, action.die)
        name, columns, buildings, demolitions = players[seat]
        target = action.index
        size = len(buildings) if action.completed else len(columns)
        if not 0 <= target < size:
            what = "completed building" if action.completed else "unfinished building"
            raise IllegalActionError(
                "no_target", f"there is no {what} {target}", index=target
            )
        player = (
            Player(name, columns, buildings[:target] + buildings[target + 1 :], demolitions + 1)
            if action.completed
            else Player(name, columns[:target] + columns[target + 1 :], buildings, demolitions + 1)
        )
        return _resolved(state, index, player, six)
    if isinstance(action, Abandon):
        if phase is not Phase.RESOLVE and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.RESOLVE, Phase.CONTINUE)
        if len(players) == 1:
            raise IllegalActionError("solo_abandon", "there is no abandoning in the solo game")
        chosen = _dice_by_ids(state, action.dice)
        ids = set(action.dice)
        return GameState(
            options, round_, seat, Phase.CONTINUE,
            tuple(sorted(district + tuple(d.type for d in chosen))),
            tuple(d for d in dice if d.id not in ids), rolls, six, players,
        )
    if isinstance(action, EndTurn):
        if phase is not Phase.CONTINUE:
            _require_phase(state, Phase.CONTINUE)
        return _advance(state)
    if isinstance(action, Take):
        if phase is not Phase.TAKE:
            _require_phase(state, Phase.TAKE)
        types = action.types
        if len(types) != 3 or not all(isinstance(t, DieType) for t in types):
            raise IllegalActionError("take_three", "take exactly three dice from the yard")
        key = tuple(types)
        taken = _TAKE_DICE.get(key)
        if taken is None:
            taken = tuple(Die(i, t, None) for i, t in enumerate(sorted(types)))
            _TAKE_DICE[key] = taken
        return GameState(options, round_, seat, Phase.ROLL, district, taken, rolls, six, players)
    if isinstance(action, TakeDistrict):
        if phase is not Phase.TAKE:
            _require_phase(state, Phase.TAKE)
        if len(players) == 1:
            raise IllegalActionError("solo_district", "the solo game does not use the district")
        if not district:
            raise IllegalActionError("empty_district", "the abandoned district is empty")
        taken = tuple(Die(i, t, None) for i, t in enumerate(district))
        refill = (DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE)
        return GameState(options, round_, seat, Phase.ROLL, refill, taken, rolls, six, players)
    raise ValueError(f"not an action: {action!r}")


def is_legal(state: GameState, action: object) -> bool:
    """Whether the rules allow ``action`` in ``state`` (:func:`apply_action` would accept
    it). Anything that is not an action is not legal.

    >>> state = new_game(Options(("Ada",), seed="demo"))
    >>> is_legal(state, Take((DieType.GROUND,) * 3)), is_legal(state, EndTurn())
    (True, False)
    """
    if not isinstance(action, ACTION_TYPES):
        return False
    try:
        apply_action(state, action)
    except IllegalActionError:
        return False
    return True


def has_demolition_target(state: GameState) -> bool:
    """Whether the active player still has something to demolish: an unfinished column
    or a completed building, in a game that is not over (with an active die, a
    :class:`Demolish` of it is then legal).

    >>> from skyline.rules import Options, new_game
    >>> state = new_game(Options(("Ada",), seed="demo"))
    >>> has_demolition_target(state), has_demolition_target(state._replace(players=(
    ...     state.player._replace(columns=()),)))
    (True, False)
    """
    player = state.players[state.seat]
    return state.phase is not Phase.OVER and bool(player.columns or player.buildings)


def can_take_district(state: GameState) -> bool:
    """Whether the rules let the active player take the abandoned district now: not in
    the solo game, at the start of a turn, with dice in the district (exactly when
    :class:`TakeDistrict` is legal).

    >>> from skyline.rules import Options, new_game
    >>> can_take_district(new_game(Options(("Ada", "Bo"), seed="demo")))
    True
    """
    return not state.solo and state.phase is Phase.TAKE and bool(state.district)
