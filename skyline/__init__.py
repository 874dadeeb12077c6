"""Skyline: the rules engine of the dice game, pure Python.

>>> from skyline import Board
>>> board = Board.new(["Ada"], seed="demo")
>>> sorted(str(a) for a in board.legal_actions())[:3]
['tGGG', 'tGGP', 'tGGU']
"""

from .board import Board, RecordError, parse_options, state_from_dict, state_to_dict, summary
from .core import (
    SCENARIOS,
    SOLO_LEVELS,
    Abandon,
    Action,
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
    IllegalActionError,
    Options,
    Phase,
    Player,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    build_targets,
    can_build_all,
    can_resolve_any,
    completed_count,
    final_buildings,
    legal_actions,
    new_game,
    parse_action,
    plan_build,
    ranking,
    roll_outcomes,
    scenario_met,
    score,
    seeded_faces,
    solo_level,
    validate_options,
)
from .links import (
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
    "SCENARIOS", "SOLO_LEVELS", "Abandon", "Action", "Board", "Build", "BuildPlan", "Building",
    "Column", "Demolish", "Die", "DieType", "EndTurn", "Face", "GameState", "IllegalActionError",
    "Options", "Phase", "Player", "RecordError", "Roll", "Take", "TakeDistrict", "apply_action",
    "build_targets", "can_build_all", "can_resolve_any", "completed_count", "final_buildings",
    "legal_actions", "new_game", "parse_action", "parse_options", "plan_build", "ranking",
    "roll_outcomes", "scenario_met", "score", "seeded_faces", "solo_level", "state_from_dict",
    "state_to_dict", "summary", "validate_options", "__version__",
    # share links and saves (skyline.links)
    "SAVE_VERSION", "LinkError", "SaveError", "SavedGame", "ShareLink", "load_save", "make_save",
    "make_share_fragment", "migrate_save", "parse_share_fragment", "read_save",
]
