"""The expert computer player, its hints and its review of a finished solo game.

The expert maps the engine's :class:`~skyline.rules.GameState` to the abstract position
of :mod:`skyline.players.solo_model` (turns left, unfinished columns by class, completed tiles),
asks the exact within-turn expectimax on the offline value table for the best choice,
and maps that choice back to a legal engine action:

* take phase: which three die types (solver ``("take", types)`` -> :class:`Take`);
* roll phase: the only action, rolling the dice taken;
* resolve / continue: build die ``i`` on a column class (-> :class:`Build` on the first
  column of that colour and height), demolish a column class or a tile of a height
  (-> :class:`Demolish`), reroll some dice (-> :class:`Roll`) or end the turn.

Solo, this *is* the optimal policy of the model (the solver's expected value is the
bot's expected score). With 2-4 players the expert plays to win: its options come from
:mod:`skyline.players.table_expert` (a search over its own turn valued by the chance of
finishing first). The earlier 2-4 player play stays as the benchmark baseline
``expert1`` (``expert_options(state, baseline=True)``): the same machinery values the
expert's own skyline (its remaining turns are known: one per round, only this one if a
6-high building was completed this round), and these heuristics are added:

* **district**: taking it is weighed against the best yard take; a district of at most
  three dice is never better than choosing those types from the yard; a bigger one is
  valued as its best three types (the same expectimax) plus ``EXTRA_DIE`` points for each
  further die;
* **abandoning**: wherever the solver would demolish, dropping the same die into the
  district is at least as good for its own skyline (values grow with every column), so
  the expert abandons instead, and it also may abandon a die it has no use for, valued as
  the position without that die minus ``ABANDON_COST`` (the die helps the next player);
* **end trigger** (standard game): completing a six-high building ends the game at the end
  of the round. The expert does it when it would then lead the best opponent (counting
  ``OPPONENT_TURN_GAIN`` for each opponent still to play this round), even though the lost
  turns cost it points (``END_BONUS``), and avoids it when it would trail (``END_PENALTY``);
* more than three dice in hand (after taking a big district): every distinct three-die
  subset is searched exactly and the best choice wins; dice outside it can be abandoned.

``hint(state, top)`` gives the best options with the expected final score of the active
player's skyline; ``review(board)`` (:mod:`skyline.players.review`) replays a finished
solo game and measures every decision against the optimum.

**Scenario games** (solo with ``Options.scenario``): the position carries the scenario's
counter (:mod:`skyline.players.scenario_model`), the values come from that scenario's table
(loaded on first use) and everything ranks by the objective ``expected final score +
SUCCESS_WEIGHT * P(scenario met)``. ``hint`` rows then also carry ``p_success``,
``expected_score`` (also in ``value``) and ``objective``; ``review`` grades each decision on
the objective, adds ``chosen_p_success``/``best_p_success``/``p_loss`` and the expected
scores per decision, and names a failed scenario (``failed_scenario``) with the decision
that gave away the most probability of meeting it (``failed_by``; None when no decision gave
any away and the dice failed it).

Everything is deterministic and does no I/O (the table is read once from the package).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ..rules import (
    Abandon,
    Action,
    Build,
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
    action_class,
    apply_action,
    new_game,
    scenario_met,
    score,
)
from . import solo_value as sv
from .adapter import column_index, die_kind, die_pair, promising, still_to_play
from .registry import register
from .scenario_model import SUCCESS_WEIGHT
from .solo_value import position
from .table_expert import table_options

__all__ = ["ABANDON_COST", "EXTRA_DIE", "ExpertOption", "expert_bot", "expert_options",
           "grade", "hint", "position", "scenario_details", "scenario_verdict"]

#: Points credited for each district die beyond three (see the module docstring).
EXTRA_DIE = 2.0
#: Points charged for abandoning a die (it feeds the next player's district).
ABANDON_COST = 0.5
#: End trigger: completing a six-high building while ahead wins the game (a bonus that
#: outweighs the turns given up); while behind it loses it (a penalty).
END_BONUS = 60.0
END_PENALTY = 60.0
#: Rough points an opponent still to play this round adds in its turn.
OPPONENT_TURN_GAIN = 8.0



@dataclass(frozen=True)
class ExpertOption:
    """One choice: the engine action, the expected final score of the active player's
    skyline after it, and the utility the expert ranks by (equal to ``value`` solo)."""

    action: Action
    value: float
    utility: float
    exact: bool = True


# --------------------------------------------------------------------------- mapping


def _to_engine(state: GameState, dice: Sequence[Die], action: tuple) -> Action:
    """The engine action for a solver action over ``dice`` (a subset of the active dice)."""
    verb = action[0]
    if verb == "take":
        return Take(tuple(DieType.from_letter(x) for x in action[1]))
    if verb == "end":
        return EndTurn()
    if verb == "reroll":
        return Roll(tuple(sorted(dice[i].id for i in action[1])))
    die = dice[action[1]]
    target = action[2]
    player = state.player
    if verb == "build":
        column = None if target is None else column_index(player.columns, target)
        return Build(die.id, column)
    if target[0] == "tile":
        same = [i for i, b in enumerate(player.buildings) if b.height == target[1]]
        # the solver's scenario counter assumes the tile the scenario wants gone goes first
        scenario = state.options.scenario
        want = {"shanghai": Face.PURPLE, "tucson": Face.ORANGE}.get(scenario or "")
        index = next((i for i in same if player.buildings[i].kind is want), same[0])
        return Demolish(die.id, index, True)
    return Demolish(die.id, column_index(player.columns, target), False)


def _end_value(pos: sv.SoloPosition) -> float:
    """Expected final score if the turn ended now (no dice left)."""
    if pos.turns_left <= 0 or pos.game_ends_after_turn:
        bonus = SUCCESS_WEIGHT if pos.scenario is not None and pos.met else 0.0
        return float(pos.final_score) + bonus
    return sv.value(replace(pos, turns_left=pos.turns_left - 1))


def _node_best(pos: sv.SoloPosition, dice: Sequence[Die], resolved: bool) -> float:
    """Value of a within-turn node with at most three dice (solver options; none: the turn
    ends)."""
    if not dice:
        return _end_value(pos)
    opts = sv.turn_options(pos, [die_pair(d) for d in dice], resolved)
    return opts[0].value if opts else _end_value(pos)


#: With more than three dice, only subsets of this many most promising dice are searched.
TOP_DICE = 6


def _subsets(state: GameState, dice: Sequence[Die]) -> list[tuple[Die, ...]]:
    """One three-die subset per distinct multiset of (type, face), among the TOP_DICE most
    promising dice (buildable now first, then penthouses with a colour, then by type)."""
    ranked = promising(state, dice)
    seen: dict[tuple, tuple[Die, ...]] = {}
    for sub in combinations(ranked[:TOP_DICE], 3):
        key = tuple(sorted(die_kind(d) for d in sub))
        seen.setdefault(key, tuple(sorted(sub, key=lambda d: d.id)))
    return list(seen.values())


# --------------------------------------------------------------------------- options


def expert_options(state: GameState, baseline: bool = False) -> list[ExpertOption]:
    """Every choice the expert considers at this decision, best (highest utility) first.

    Ties keep the solver's order. ``[]`` when the game is over. With 2-4 players the
    choices come from :mod:`skyline.players.table_expert` (utility: the chance of winning), unless
    ``baseline`` asks for the earlier heuristics (the ``expert1`` bot)."""
    phase = state.phase
    if phase is Phase.OVER:
        return []
    multi = not state.solo
    if multi and not baseline:
        return [ExpertOption(o.action, o.value, o.win, False) for o in table_options(state)]
    pos = position(state)
    if phase is Phase.TAKE:
        takes = [ExpertOption(_to_engine(state, (), o.action), o.value, o.value, o.exact)
                 for o in sv.turn_options(pos)]
        if multi and len(state.district) > 3:
            v = _district_value(state, pos, takes)
            takes.append(ExpertOption(TakeDistrict(), v, v, False))
        return _ranked(takes)
    if phase is Phase.ROLL:
        action = Roll(tuple(d.id for d in state.dice))
        v = _roll_value(pos, state.dice)
        return [ExpertOption(action, v, v)]
    dice = state.dice
    resolved = phase is Phase.CONTINUE
    out: list[ExpertOption] = []
    focus: tuple[Die, ...] = tuple(dice)
    if len(dice) <= 3:
        for o in sv.turn_options(pos, [die_pair(d) for d in dice], resolved):
            out.append(ExpertOption(_to_engine(state, dice, o.action), o.value, o.value, o.exact))
    else:
        # more than three dice (a big district): search each promising three-die subset;
        # the focus is the subset with the best option, the other dice are spare
        best = float("-inf")
        for sub in _subsets(state, dice):
            opts = [o for o in sv.turn_options(pos, [die_pair(d) for d in sub], resolved)
                    if not (multi and o.action[0] == "demolish")]
            for o in opts:
                out.append(ExpertOption(_to_engine(state, sub, o.action), o.value, o.value,
                                        False))
            if opts and opts[0].value > best:
                best, focus = opts[0].value, sub
        if len(focus) > 3:
            focus = _subsets(state, dice)[0]
    if multi:
        out = [o for o in out if not isinstance(o.action, Demolish)]
        out += _abandon_options(state, pos, focus)
        out = [_end_trigger(state, o) for o in out]
    if not out:  # solo, nothing resolvable: the engine ends the turn by itself
        return []
    return _ranked(_unique(state, out))


def _ranked(options: list[ExpertOption]) -> list[ExpertOption]:
    return sorted(options, key=lambda o: -o.utility)


def _unique(state: GameState, options: list[ExpertOption]) -> list[ExpertOption]:
    """One option per class of equivalent actions (the best utility)."""
    seen: dict[object, ExpertOption] = {}
    for o in options:
        key = action_class(state, o.action)
        if key not in seen or o.utility > seen[key].utility:
            seen[key] = o
    return list(seen.values())


def _roll_value(pos: sv.SoloPosition, dice: Sequence[Die]) -> float:
    """Expected value of rolling the dice just taken (more than three: as the district)."""
    types = tuple(t.letter for t in sorted(d.type for d in dice))
    takes = {o.action[1]: o.value for o in sv.turn_options(pos)}
    if len(types) == 3:
        return takes[types]
    if len(types) > 3:
        best = max(takes[sub] for sub in combinations(types, 3))
        return best + EXTRA_DIE * (len(types) - 3)
    from ..rules import roll_outcomes

    total = 0.0
    for faces, p in roll_outcomes([d.type for d in dice]):
        rolled = [Die(d.id, d.type, f) for d, f in zip(dice, faces, strict=True)]
        total += p * _node_best(pos, rolled, False)
    return total


def _district_value(state: GameState, pos: sv.SoloPosition, takes: list[ExpertOption]) -> float:
    """A district of four or more dice: its best three types, plus EXTRA_DIE per extra die."""
    by_types: dict[tuple[DieType, ...], float] = {}
    for o in takes:
        assert isinstance(o.action, Take)  # the solver's turn-start options are takes
        by_types[tuple(sorted(o.action.types))] = o.value
    district = state.district
    best = max(by_types.get(tuple(sorted(sub)), float("-inf"))
               for sub in combinations(district, 3))
    return best + EXTRA_DIE * (len(district) - 3)


def _abandon_options(
    state: GameState, pos: sv.SoloPosition, focus: Sequence[Die]
) -> list[ExpertOption]:
    """Abandoning one die of each kind: the value of the position without it (a die outside
    the focus subset leaves the focus dice, now resolved), minus ABANDON_COST."""
    out = []
    seen = set()
    focus_ids = {d.id for d in focus}
    for die in state.dice:
        k = (die_kind(die), die.id in focus_ids)
        if k in seen:
            continue
        seen.add(k)
        rest = [d for d in focus if d.id != die.id]
        v = _node_best(pos, rest, True)
        out.append(ExpertOption(Abandon((die.id,)), v, v - ABANDON_COST, False))
    return out


def _end_trigger(state: GameState, option: ExpertOption) -> ExpertOption:
    """Standard game: weigh completing a six-high building (it ends the game this round)."""
    action = option.action
    if state.options.all_nine or state.six_completed or not isinstance(action, Build):
        return option
    die = next(d for d in state.dice if d.id == action.die)
    if die.type is not DieType.PENTHOUSE or die.face is not Face.ORANGE or action.column is None:
        return option
    if state.player.columns[action.column].height != 5:
        return option
    mine = option.value
    best_other = 0.0
    for seat, player in enumerate(state.players):
        if seat == state.seat:
            continue
        later = seat != state.seat and still_to_play(state, seat)
        best_other = max(best_other, score(player) + (OPPONENT_TURN_GAIN if later else 0.0))
    bonus = END_BONUS if mine > best_other else -END_PENALTY
    return replace(option, utility=option.utility + bonus)


# --------------------------------------------------------------------------- the bot


@register("expert")
def expert_bot(state: GameState, rng: random.Random) -> Action:
    """Optimal solo play (value table + exact turn search); with more players a search
    over its own turn that maximises its chance of winning (:mod:`skyline.players.table_expert`).
    Deterministic (``rng`` unused)."""
    options = expert_options(state)
    if not options:
        if state.phase is Phase.OVER:
            raise ValueError("the game is over")
        # nothing to decide (should not happen: the engine skips such states)
        from ..rules import legal_actions

        return legal_actions(state)[0]
    return options[0].action


@register("expert1")
def expert1_bot(state: GameState, rng: random.Random) -> Action:
    """The expert's earlier play with 2-4 players (solo value search plus hand-set
    district, abandon and end-trigger heuristics), kept as a benchmark baseline; solo it
    is the expert. Not offered in the page."""
    options = expert_options(state, baseline=True)
    if not options:
        if state.phase is Phase.OVER:
            raise ValueError("the game is over")
        from ..rules import legal_actions

        return legal_actions(state)[0]
    return options[0].action


# --------------------------------------------------------------------------- hint


def hint(state: GameState, top: int = 3) -> list[dict[str, Any]]:
    """The expert's best options for the current decision, best first:
    ``[{"action": Action, "text": str(action), "value": expected final score, "exact": bool}]``.

    In a scenario game each row adds ``"p_success"`` (probability of meeting the scenario
    with optimal play on, 0..1), ``"expected_score"`` (the same as ``"value"``) and
    ``"objective"`` (``expected_score + SUCCESS_WEIGHT * p_success``, what the rows are
    ranked by).

    ``value`` is the expected final score of the active player's own skyline with the
    expert playing on (solo: under optimal play). With 2-4 players each row adds
    ``"win"``, the chance of finishing first (0..1) that the rows are ranked by, the same
    chance the table's chart and review use. Empty when there is nothing to decide.
    """
    if _scenario(state):
        return _scenario_hint(state, top)
    out = []
    for o in expert_options(state)[: max(0, top)]:
        row = {"action": o.action, "text": str(o.action), "value": o.value, "exact": o.exact}
        if not state.solo:
            row["win"] = o.utility
        out.append(row)
    return out


def _scenario(state: GameState) -> str | None:
    """The scenario of a solo game (None: no scenario, or not solo)."""
    return state.options.scenario if state.solo else None


def scenario_details(
    state: GameState, top: int | None = None
) -> list[tuple[Action, sv.ScenarioOption]]:
    """Every choice (the ``top`` best, all if None) of a scenario game's current decision
    with its probability of meeting the scenario and expected final score under optimal play
    on, best first (by the objective ``expected score + SUCCESS_WEIGHT * P(met)``).
    ``[]``: nothing to decide."""
    phase = state.phase
    if phase is Phase.OVER or phase is Phase.ROLL or not _scenario(state):
        return []
    pos = position(state)
    if phase is Phase.TAKE:
        opts = sv.scenario_options(pos, top=top)
        return [(_to_engine(state, (), o.action), o) for o in opts]
    dice = state.dice
    opts = sv.scenario_options(pos, [die_pair(d) for d in dice], phase is Phase.CONTINUE, top)
    return [(_to_engine(state, dice, o.action), o) for o in opts]


def _scenario_hint(state: GameState, top: int) -> list[dict[str, Any]]:
    out = []
    for action, o in scenario_details(state, max(0, top)):
        out.append({"action": action, "text": str(action), "value": o.expected_score,
                    "exact": o.exact, "p_success": min(1.0, max(0.0, o.p_success)),
                    "expected_score": o.expected_score, "objective": o.objective})
    return out


# --------------------------------------------------------------------------- review


def _solver_view(state: GameState, action: Action) -> Action:
    """``action`` as the solver sees it: it tells completed tiles apart only by height,
    so demolishing a tile is the same choice as demolishing the first tile of its height
    (the one :func:`expert_options` names)."""
    if isinstance(action, Demolish) and action.completed:
        tiles = state.player.buildings
        if 0 <= action.index < len(tiles):
            height = tiles[action.index].height
            first = next(i for i, b in enumerate(tiles) if b.height == height)
            return Demolish(action.die, first, True)
    return action


def grade(state: GameState, action: Action) -> dict[str, Any] | None:
    """One decision of a review: ``action`` taken at ``state`` against the expert's best.

    None when there was nothing to decide (the forced first roll, game over)."""
    if state.phase is Phase.ROLL or state.phase is Phase.OVER:
        return None
    if _scenario(state):
        return _scenario_grade(state, action)
    ranked = expert_options(state)
    if not ranked:
        return None
    want = action_class(state, _solver_view(state, action))
    chosen = next((o for o in ranked if action_class(state, o.action) == want), None)
    best = ranked[0]
    chosen_value = chosen.value if chosen is not None else best.value
    return {
        "round": state.round,
        "phase": state.phase.name.lower(),
        "state": state,
        "chosen": action,
        "best": best.action,
        "chosen_value": chosen_value,
        "best_value": best.value,
        "loss": max(0.0, best.value - chosen_value),
        "exact": best.exact and (chosen is None or chosen.exact),
    }


def _scenario_grade(state: GameState, action: Action) -> dict[str, Any] | None:
    """``grade`` in a scenario game: the objective, P(met) and expected score of the choice
    made and of the best choice."""
    details = scenario_details(state)
    if not details:
        return None
    want = action_class(state, _scenario_view(state, action))
    best_action, best = details[0]
    chosen = next((o for a, o in details if action_class(state, a) == want), None)
    if chosen is None:
        chosen = _value_after(state, action) or best
    p_best, p_chosen = _clip(best.p_success), _clip(chosen.p_success)
    return {
        "round": state.round,
        "phase": state.phase.name.lower(),
        "state": state,
        "chosen": action,
        "best": best_action,
        "chosen_value": chosen.objective,
        "best_value": best.objective,
        "loss": max(0.0, best.objective - chosen.objective),
        "exact": best.exact and chosen.exact,
        "chosen_p_success": p_chosen,
        "best_p_success": p_best,
        "p_loss": max(0.0, p_best - p_chosen),
        "chosen_expected_score": chosen.expected_score,
        "best_expected_score": best.expected_score,
    }


def _scenario_view(state: GameState, action: Action) -> Action:
    """``action`` as the scenario solver names it: a completed tile by its height, the kind
    the scenario wants gone first (see ``_to_engine``) if the tile is of that kind."""
    if isinstance(action, Demolish) and action.completed:
        tiles = state.player.buildings
        if 0 <= action.index < len(tiles):
            tile = tiles[action.index]
            same = [i for i, b in enumerate(tiles) if b.height == tile.height]
            want = {"shanghai": Face.PURPLE, "tucson": Face.ORANGE}.get(_scenario(state) or "")
            named = next((i for i in same if tiles[i].kind is want), same[0])
            if tiles[named].kind is tile.kind:
                return Demolish(action.die, named, True)
    return action


def _value_after(state: GameState, action: Action) -> sv.ScenarioOption | None:
    """The value of a build or demolition the solver does not list (a tile it tells apart
    only by height): the best option of the state it leads to."""
    if not isinstance(action, Build | Demolish):
        return None
    after = apply_action(state, action)
    if after.phase is Phase.OVER:
        met = 1.0 if scenario_met(state.options.scenario or "", after.players[0]) else 0.0
        points = float(score(after.players[0]))
        return sv.ScenarioOption(("over",), met, points, points + SUCCESS_WEIGHT * met)
    details = scenario_details(after)
    return details[0][1] if details else None


def _clip(p: float) -> float:
    return min(1.0, max(0.0, p))


def scenario_verdict(
    state: GameState, scenario: str, decisions: list[dict[str, Any]]
) -> dict[str, Any]:
    """The scenario part of a review: whether it was met, its probability at the start, and
    for a failed scenario the decision that lost it (the one that gave away the most
    probability of meeting it; None if no decision gave any away: the dice failed it).

    ``state`` is the final state of the game, ``decisions`` its :func:`grade` rows (a page
    that grades in slices calls this once every decision is graded)."""
    start = sv.scenario_value(position(new_game(state.options)))
    met = scenario_met(scenario, state.players[0])
    failed = state.phase is Phase.OVER and not met
    culprit = None
    if failed:
        worst = max(decisions, key=lambda d: d["p_loss"], default=None)
        if worst is not None and worst["p_loss"] > 1e-6:
            culprit = worst
    return {
        "scenario": scenario,
        "scenario_met": met if state.phase is Phase.OVER else None,
        "failed_scenario": scenario if failed else None,
        "failed_by": culprit,
        "start_p_success": _clip(start.p_success),
        "start_expected_score": start.expected_score,
        "p_loss_total": sum(d["p_loss"] for d in decisions),
    }
