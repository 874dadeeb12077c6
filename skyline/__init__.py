"""Skyline: the rules engine of the dice game, pure Python.

>>> from skyline import Board
>>> board = Board.new(["Ada"], seed="demo")
>>> sorted(str(a) for a in board.legal_actions())[:3]
['tGGG', 'tGGP', 'tGGU']
"""

from .board import Board, RecordError, parse_options, state_from_dict, state_to_dict, summary
from .core import (
    DIE_LETTERS,
    FACE_LETTERS,
    OPTION_FIELDS,
    SCENARIO_GOALS,
    SCENARIOS,
    SOLO_LEVELS,
    Abandon,
    Action,
    ActionClass,
    Build,
    Building,
    BuildPlan,
    Column,
    Demolish,
    Die,
    DieType,
    EndTurn,
    Face,
    GameState,
    GameSummary,
    IllegalActionError,
    Options,
    OptionsError,
    Phase,
    Player,
    PlayerSummary,
    Roll,
    ScenarioProgress,
    SkylineError,
    Take,
    TakeDistrict,
    action_class,
    apply_action,
    build_blocker,
    build_targets,
    can_build_all,
    can_resolve_any,
    completed_count,
    final_buildings,
    game_summary,
    is_legal,
    legal_actions,
    lone_low_rises,
    new_game,
    parse_action,
    plan_build,
    ranking,
    roll_outcomes,
    scenario_met,
    scenario_progress,
    score,
    seeded_faces,
    solo_level,
    validate_options,
)
from .links import (
    LINK_PREFIX,
    SAVE_VERSION,
    LinkError,
    SavedGame,
    SaveError,
    ShareLink,
    load_save,
    make_save,
    make_share_fragment,
    migrate_save,
    parse_share_fragment,
    read_save,
)

__version__ = "0.1.0"

__all__ = [
    "DIE_LETTERS", "FACE_LETTERS", "OPTION_FIELDS", "SCENARIO_GOALS", "SCENARIOS", "SOLO_LEVELS",
    "Abandon", "Action", "ActionClass", "Board", "Build", "BuildPlan", "Building", "Column",
    "Demolish", "Die", "DieType", "EndTurn", "Face", "GameState", "GameSummary",
    "IllegalActionError", "Options", "OptionsError", "Phase", "Player", "PlayerSummary",
    "RecordError", "Roll", "ScenarioProgress", "SkylineError", "Take", "TakeDistrict",
    "action_class", "apply_action", "build_blocker", "build_targets", "can_build_all",
    "can_resolve_any", "completed_count", "final_buildings", "game_summary", "is_legal",
    "legal_actions", "lone_low_rises", "new_game", "parse_action", "parse_options", "plan_build",
    "ranking", "roll_outcomes", "scenario_met", "scenario_progress", "score", "seeded_faces",
    "solo_level", "state_from_dict", "state_to_dict", "summary", "validate_options",
    "__version__",
    # share links and saves (skyline.links)
    "LINK_PREFIX", "SAVE_VERSION", "LinkError", "SaveError", "SavedGame", "ShareLink",
    "load_save", "make_save", "make_share_fragment", "migrate_save", "parse_share_fragment",
    "read_save",
]
