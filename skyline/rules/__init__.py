"""The rules of Skyline: the game itself, pure functions of immutable values.

:func:`apply_action` takes a :class:`GameState` and an action and returns the next
state, and :func:`legal_actions` lists what may be done. Chance is explicit: rolling is
a chance event whose outcomes and probabilities :func:`roll_outcomes` lists; in play the
outcome is derived from the game's seed (:func:`seeded_faces`), so the same seed and the
same actions always give the same game. :class:`Board` keeps a game's history.

Modules: :mod:`.state` (values), :mod:`.errors`, :mod:`.actions` (actions, notation,
classes), :mod:`.options` (setup), :mod:`.chance`, :mod:`.building`, :mod:`.turns`
(:func:`apply_action`), :mod:`.legal` (:func:`legal_actions`), :mod:`.scoring`,
:mod:`.events` (the game log), :mod:`.board` (:class:`Board`, records, JSON) and
:mod:`.bounds` (the longest game the rules allow, which every reader's limit follows).

>>> state = new_game(Options(names=("Ada",), seed="demo"))
>>> state.phase is Phase.TAKE, len(legal_actions(state))
(True, 10)
"""

from .actions import (
    ACTION_TYPES,
    Abandon,
    Action,
    ActionClass,
    Build,
    Demolish,
    EndTurn,
    Roll,
    Take,
    TakeDistrict,
    action_class,
    parse_action,
)
from .board import Board, RecordError, parse_options, state_from_dict, state_to_dict
from .building import BuildPlan, build_blocker, build_targets, can_build_all, plan_build
from .chance import roll_outcomes, seeded_faces
from .errors import OPTION_FIELDS, IllegalActionError, OptionsError, SkylineError
from .events import TurnReport, describe
from .legal import MAX_LISTED_REROLLS, legal_actions
from .options import check_name, new_game, validate_options
from .scoring import (
    SCENARIO_GOALS,
    SOLO_LEVELS,
    GameSummary,
    PlayerSummary,
    ScenarioProgress,
    completed_count,
    final_buildings,
    game_summary,
    lone_low_rises,
    ranking,
    scenario_met,
    scenario_progress,
    score,
    scores_as_tile,
    solo_level,
)
from .state import (
    DIE_FACES,
    DIE_LETTERS,
    FACE_LETTERS,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    PENTHOUSE_RANGE,
    ROUNDS,
    SCENARIOS,
    SEED_PATTERN,
    UPPER_LIMIT,
    Building,
    Column,
    Die,
    DieType,
    Face,
    GameState,
    Options,
    Phase,
    Player,
    building_points,
    die_index,
)
from .turns import (
    apply_action,
    can_resolve_any,
    can_take_district,
    has_demolition_target,
    is_legal,
)

__all__ = [
    "ACTION_TYPES", "DIE_FACES", "DIE_LETTERS", "FACE_LETTERS", "MAX_LISTED_REROLLS",
    "MAX_NAME_LENGTH", "MAX_PLAYERS", "OPTION_FIELDS", "PENTHOUSE_RANGE", "ROUNDS", "SCENARIOS",
    "SCENARIO_GOALS",
    "SEED_PATTERN", "SOLO_LEVELS", "UPPER_LIMIT",
    "Abandon", "Action", "ActionClass", "Board", "Build", "BuildPlan", "Building", "Column",
    "Demolish", "Die", "DieType", "EndTurn", "Face", "GameState", "GameSummary",
    "IllegalActionError", "Options", "OptionsError", "Phase", "Player", "PlayerSummary",
    "RecordError", "Roll", "ScenarioProgress", "SkylineError", "Take", "TakeDistrict",
    "TurnReport",
    "action_class", "apply_action", "build_blocker", "build_targets", "building_points",
    "check_name",
    "can_build_all", "can_resolve_any", "can_take_district", "completed_count", "describe",
    "die_index", "final_buildings", "game_summary", "has_demolition_target", "is_legal",
    "legal_actions", "lone_low_rises", "scores_as_tile",
    "new_game", "parse_action", "parse_options", "plan_build", "ranking", "roll_outcomes",
    "scenario_met", "scenario_progress", "score", "seeded_faces", "solo_level",
    "state_from_dict", "state_to_dict", "validate_options",
]
