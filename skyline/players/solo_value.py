"""Optimal solo play for Skyline: the offline value table plus the exact within-turn search.

Stdlib only (runs in Pyodide). This is the players' one door to the solo optimum; behind
it:

* :mod:`.solo_model`: the abstract position (:class:`SoloPosition`, turns left, column
  counts by class, completed tiles, the mode, a scenario's counter) and what a die builds;
* :mod:`.value_table`: the solo table's file format (:class:`ValueTable`);
* :mod:`.scenario_tables`: the scenario tables' format and the ones in use;
* :mod:`.turn_search`: the exact expectimax over one turn.

``value(pos)`` is the expected final score at the start of a turn under optimal play.
Completed tiles' points are included ("banked"), and so is the final point of each lone
purple ground floor.

The table ``skyline/data/solo_values.bin`` (``scripts/solve_solo.py``, loaded once with
``importlib.resources``) holds ``W[t](counts)``: the expected points still to come with ``t``
turns left, from the column counts (capped, see ``CAPS``; columns beyond a cap are ignored)
and the number of completed 4-point tiles (height 2; the optimum sometimes sacrifices one
when a demolition is forced, e.g. to keep an orange 5).  It ships the entries the exact
turn search needs from every turn-start position that optimal play reaches with
probability >= 1e-5 (about 12,500 positions per mode, 99.7 % of the probability mass at
every turn).  Where a lookup is missing (positions far off the optimal path, e.g. after
weak human play) a fitted linear value is used and the result is flagged ``exact=False``.
Within a turn the search is exact with ``W[t-1]`` at the turn end, memoised per (mode,
turns left). Call ``prepare(mode)`` once at game start (decodes the table for the mode,
~40 ms).

Decision API (for the adapter)
------------------------------
Dice are ``(type, face)`` pairs: type ``"G"`` (ground), ``"U"`` (upper), ``"P"``
(penthouse); face ``"purple" | "blue" | "orange"`` for G and U, ``"blank" | "blue" |
"orange"`` for P (P's blue/orange are the blue/orange penthouses).

``turn_options(pos, dice=None, resolved=False)`` lists every distinct choice with the
expected final score, best first (``Option(action, value, exact)``).  Actions:

* ``("take", ("G", "U", "P"))``: at the turn start (``dice is None``): the three die types to
  take (sorted G < U < P);
* ``("build", i, target)``: build die ``dice[i]``; ``target`` is ``None`` for a ground floor
  (a new column of the die's colour), otherwise the class of the unfinished column the die is
  put on, e.g. ``("blue", 2)`` (an upper floor makes it ``("blue", 3)``, a penthouse
  completes it as a 3-high tile);
* ``("demolish", i, target)``: spend die ``dice[i]`` to remove a column of class ``target``
  (e.g. ``("purple", 1)``) or a completed tile ``("tile", height)``;
* ``("reroll", (i, j, ...))``: reroll those dice (only when ``resolved``);
* ``("end",)``: end the turn (only when ``resolved``; remaining dice go back).

``pos`` is always the *current* position (columns and tiles after what has already been
resolved this turn; ``turns_left`` still counts the current turn).  ``resolved`` says whether
at least one die has been resolved since the last roll.  In the standard game a 6-high tile
in ``pos.tiles`` means it was completed this turn, so the game ends after this turn.
``best_turn_choice(...)`` returns the first option.  Identical dice are interchangeable: the
lowest index with that face is reported.  On exact ties the order is builds, end, rerolls,
demolitions (then generation order), so the bot never demolishes for nothing.

Mapping rules for the adapter: a column's class is its colour and current height (an
unfinished purple is always ``("purple", 1)``); any column of the class may be used.  A
ground floor always starts a new column.  A tile's height is its number of floors (purple
tiles are 2 high).  After each resolution, pass the updated position; after a reroll, pass
``resolved=False`` with the new faces.  If ``turn_options`` returns ``[]`` after a roll,
nothing can be resolved and the turn ends.

Scenarios
---------
``SoloPosition(..., scenario="dubai", counter=x)`` plays one of the seven solo scenarios:
``counter`` is the exact scenario counter of ``skyline.players.scenario_model`` (e.g. the number of
completed 3-high buildings for Dubai), kept by the turn search through every build and
demolition.  Values are then the objective ``expected final score + SUCCESS_WEIGHT *
P(met)`` (``Option.value``), from the scenario's own table
``data/scenarios/<scenario>-<mode>.bin`` (``scripts/solve_scenarios.py``), read only when
that scenario is played (``load_scenario_table``; where the file is not in the package, e.g.
on the web page, it raises ``MissingScenarioTable``, a ``MissingTable`` carrying the path the
host fetches before asking again).  ``scenario_options`` adds to each option the
probability of meeting the scenario and the expected final score (``ScenarioOption``).

Example
-------
>>> prepare("standard")
>>> pos = SoloPosition.start("standard")   # turn 1: one orange column of height 1
>>> best_turn_choice(pos)
Option(action=('take', ('G', 'G', 'G')), value=82.21..., exact=True)
>>> dice = [("G", "purple"), ("G", "orange"), ("G", "purple")]
>>> [(o.action, round(o.value, 3)) for o in turn_options(pos, dice, resolved=False)[:2]]
[(('build', 0, None), 81.47), (('build', 1, None), 80.905)]
>>> pos = SoloPosition(9, (1, 0, 0, 0, 1, 0, 0, 0, 0))   # after building die 0
>>> best_turn_choice(pos, [("G", "orange"), ("G", "purple")], resolved=True).action
('reroll', (0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from . import deferred as _deferred
from .adapter import FACE_P, FACES, TYPES, pair_kind
from .deferred import MissingTable
from .scenario_model import SCENARIO_MODELS, SUCCESS_WEIGHT
from .scenario_tables import (
    MissingScenarioTable,
    ScenarioTable,
    has_scenario_table,
    install_scenario_table,
    load_scenario_table,
    prepare_scenario,
    scenario_table_path,
    set_scenario_table,
)
from .solo_model import (
    BUILDS,
    CAPS,
    COLUMN_CLASSES,
    T2,
    Option,
    SoloPosition,
    ext_counts,
    min_big_tile,
    position,
)
from .turn_search import TAKES, TurnSolver, node_options, p_after, public_action
from .value_table import ValueTable

__all__ = [
    "BUILDS",
    "CAPS",
    "COLUMN_CLASSES",
    "FACES",
    "FACE_P",
    "T2",
    "TYPES",
    "MissingScenarioTable",
    "MissingTable",
    "Option",
    "ScenarioOption",
    "ScenarioTable",
    "has_scenario_table",
    "install_scenario_table",
    "load_scenario_table",
    "prepare_scenario",
    "scenario_options",
    "scenario_table_path",
    "scenario_value",
    "set_scenario_table",
    "SoloPosition",
    "best_turn_choice",
    "defer_table",
    "ext_counts",
    "position",
    "ValueTable",
    "load_table",
    "prepare",
    "set_table",
    "table_available",
    "table_loaded",
    "turn_options",
    "value",
    "value_info",
]

# --------------------------------------------------------------------------------------
# The solo table in use
# --------------------------------------------------------------------------------------

_TABLE: ValueTable | None = None

#: The shipped table, inside the ``skyline`` package.
TABLE_RESOURCE = _deferred.TABLE_RESOURCE

#: Package data files (paths inside ``skyline``) that a host delivers on request instead of
#: shipping them in the package (:mod:`skyline.players.deferred`).
_DEFERRED = _deferred.DEFERRED
defer_table = _deferred.defer_table


def _resource(path: str):
    from importlib import resources

    return resources.files("skyline").joinpath(path)


def table_available() -> bool:
    """Whether a table is loaded, the shipped one is there to load, or the host delivers
    it on request (the expert bot needs it; :mod:`skyline.players.registry` asks)."""
    if _TABLE is not None or TABLE_RESOURCE in _DEFERRED:
        return True
    try:
        return _resource(TABLE_RESOURCE).is_file()
    except (OSError, ValueError):
        return False


def table_loaded() -> bool:
    """Whether a table is loaded (shipped, delivered or set)."""
    return _TABLE is not None


def load_table() -> ValueTable:
    """The shipped table (loaded once); :class:`MissingTable` while a deferred table has
    not been delivered yet."""
    global _TABLE
    if _TABLE is None:
        resource = _resource(TABLE_RESOURCE)
        if TABLE_RESOURCE in _DEFERRED and not resource.is_file():
            raise MissingTable(TABLE_RESOURCE)
        _TABLE = ValueTable.from_bytes(resource.read_bytes())
    return _TABLE


def prepare(mode: str, t: int | None = None) -> None:
    """Load the table and decode ``mode`` (or only its level ``t``) now, e.g. while the page
    is idle, so that the first decision does not pay for it."""
    load_table().prepare(mode, t)


def set_table(table: ValueTable | None) -> None:
    """Replace the table used by the module functions (tests, offline tools)."""
    global _TABLE
    _TABLE = table
    _SOLVERS.clear()


# --------------------------------------------------------------------------------------
# The turn solvers on the tables in use
# --------------------------------------------------------------------------------------

_SOLVERS: dict[tuple[str, int, str | None], TurnSolver] = {}
_MEMO_LIMIT = 50_000


def _solver(mode: str, t: int, scenario: str | None = None) -> TurnSolver:
    """The memoised search of a turn; a new one when its table was replaced (a scenario
    table installed or set) or its memo grew past ``_MEMO_LIMIT``."""
    table = load_table() if scenario is None else load_scenario_table(scenario, mode)
    key = (mode, t, scenario)
    s = _SOLVERS.get(key)
    if s is None or s.table is not table or s.size() > _MEMO_LIMIT:
        model = None if scenario is None else SCENARIO_MODELS[scenario]
        s = _SOLVERS[key] = TurnSolver(table, mode, t, model)
    return s


# --------------------------------------------------------------------------------------
# Values and decisions
# --------------------------------------------------------------------------------------


def value(pos: SoloPosition) -> float:
    """Expected final score at the start of a turn, under optimal play (banked included)."""
    return value_info(pos)[0]


def value_info(pos: SoloPosition) -> tuple[float, bool]:
    """(value, exact): the table entry if shipped, else the best dice choice of the exact turn
    search (exact if every lookup it needed was shipped; otherwise fallback values were used)."""
    if pos.turns_left <= 0:
        return float(pos.final_score) + (SUCCESS_WEIGHT if pos.met and pos.scenario else 0), True
    table = load_table() if pos.scenario is None else load_scenario_table(pos.scenario, pos.mode)
    v, exact = table.lookup(pos.mode, pos.turns_left, ext_counts(pos))
    if exact:
        return pos.banked + v, True
    best = turn_options(pos)[0]
    return best.value, best.exact


class _Choices(NamedTuple):
    """The options at a decision point, best first, each with the raw action the search
    names it by (``("take", types)`` or one of :func:`~.turn_search.node_options`), and
    where the search stands: its solver, the count vector, whether the game ends after
    this turn and the smallest tile of height >= 3."""

    options: list[tuple[Option, tuple]]
    solver: TurnSolver
    cols: tuple[int, ...]
    ended: bool
    m: int


def _choices(
    pos: SoloPosition, dice: Sequence[tuple[str, str]] | None, resolved: bool
) -> _Choices | None:
    """Every choice at this decision point (see :func:`turn_options`); None when there is
    nothing to decide (the game is over, no dice)."""
    if pos.turns_left <= 0 or (dice is not None and not dice):
        return None
    s = _solver(pos.mode, pos.turns_left, pos.scenario)
    cols = ext_counts(pos)
    ended = pos.mode == "standard" and 6 in pos.tiles
    m = min_big_tile(pos.tiles)
    banked = pos.banked
    out: list[tuple[Option, tuple]] = []
    if dice is None:
        for tys in TAKES:
            s.inexact = False
            v = s.take_value(cols, tys, m)
            take = Option(("take", tuple(TYPES[i] for i in tys)), banked + v, not s.inexact)
            out.append((take, ("take", tys)))
    else:
        kinds = [pair_kind(d) for d in dice]
        hand = tuple(sorted(kinds))
        big = sorted(h for h in pos.tiles if h >= 3)
        for raw, v, exact in node_options(s, cols, hand, resolved, ended, m, big[1:2]):
            out.append((Option(public_action(raw, kinds), banked + v, exact), raw))
    out.sort(key=lambda choice: -choice[0].value)
    return _Choices(out, s, cols, ended, m)


def turn_options(
    pos: SoloPosition,
    dice: Sequence[tuple[str, str]] | None = None,
    resolved: bool = False,
) -> list[Option]:
    """All distinct choices at this decision point with their expected final score, best first.

    ``dice is None``: turn start, choose the die types.  Otherwise ``dice`` are the remaining
    rolled dice and ``resolved`` tells whether a die was resolved since the last roll.
    Returns ``[]`` when there is nothing to decide (no dice, or nothing resolvable after a
    roll: the turn ends).
    """
    choices = _choices(pos, dice, resolved)
    return [] if choices is None else [option for option, _raw in choices.options]


def best_turn_choice(
    pos: SoloPosition,
    dice: Sequence[tuple[str, str]] | None = None,
    resolved: bool = False,
) -> Option | None:
    """The optimal choice (see ``turn_options``); ``None`` if there is nothing to decide."""
    opts = turn_options(pos, dice, resolved)
    return opts[0] if opts else None


# --------------------------------------------------------------------------------------
# The probability of meeting a scenario
# --------------------------------------------------------------------------------------


class ScenarioOption(NamedTuple):
    """A choice in a scenario game: the solver's action, the probability of meeting the
    scenario and the expected final score when the optimal policy plays on, the objective
    ``expected_score + SUCCESS_WEIGHT * p_success`` and whether only shipped values were
    used."""

    action: tuple
    p_success: float
    expected_score: float
    objective: float
    exact: bool = True


def scenario_options(
    pos: SoloPosition,
    dice: Sequence[tuple[str, str]] | None = None,
    resolved: bool = False,
    top: int | None = None,
) -> list[ScenarioOption]:
    """``turn_options`` of a scenario position with the probability of meeting the scenario
    and the expected final score of each option (the ``top`` best, all if None)."""
    if pos.scenario is None:
        raise ValueError("scenario_options needs a position with a scenario")
    choices = _choices(pos, dice, resolved)
    if choices is None:
        return []
    options = choices.options if top is None else choices.options[: max(0, top)]
    out = []
    for o, raw in options:
        p = p_after(choices.solver, choices.cols, choices.ended, choices.m, raw)
        out.append(ScenarioOption(o.action, p, o.value - SUCCESS_WEIGHT * p, o.value, o.exact))
    return out


def scenario_value(pos: SoloPosition) -> ScenarioOption:
    """At the start of a turn: P(met) and expected final score under optimal play (the best
    take's option)."""
    if pos.turns_left <= 0:
        met = 1.0 if pos.met else 0.0
        score_ = float(pos.final_score)
        return ScenarioOption(("over",), met, score_, score_ + SUCCESS_WEIGHT * met)
    return scenario_options(pos, top=1)[0]
