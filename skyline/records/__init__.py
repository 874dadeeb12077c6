"""Records and formats: what the page stores and sends, as pure data (no storage, no
clock, no network: the page passes times in and stores what these modules write).

Modules: :mod:`.seats` (seat kinds as a type), :mod:`.links` (share links,
``#play?``), :mod:`.saves` (the save envelope), :mod:`.game_links` (game links of
correspondence play, ``#game?``), :mod:`.live` (the messages of a live table),
:mod:`.live_table` (their synchronisation, a pure state machine), :mod:`.live_links`
(a live table's invitation, ``#live?``), :mod:`.daily` (the
daily challenge, ``#daily?``) and
:mod:`.game_list` (the game list's entries and index) and :mod:`.solo_records` (the
solo records the page keeps). The game's own record (options
and actions in notation, :meth:`skyline.Board.record`) is written and read by
:class:`skyline.rules.Board`.
"""

from .daily import (
    DAILY_PATH,
    DailyResult,
    daily_day,
    daily_fragment,
    daily_options,
    daily_result,
    daily_seed,
    parse_daily_fragment,
    parse_day,
)
from .game_links import (
    SEAT_FRIEND,
    SEAT_HERE,
    SEAT_HUMAN,
    GameLink,
    Relation,
    check_seats,
    claim_seats,
    compare,
    game_id,
    is_game_link,
    link_seats,
    make_game_link,
    may_move,
    parse_game_link,
    send_to,
    turn_kind,
)
from .game_list import (
    GameEntry,
    GameIndex,
    GameList,
    IndexRow,
    Reception,
    default_name,
    entry_to_json,
    make_entry,
    migrate_single_save,
    read_entry,
    read_index,
)
from .links import (
    LINK_PREFIX,
    MAX_BEAT,
    LinkError,
    ShareLink,
    check_bots_available,
    make_share_fragment,
    parse_share_bots,
    parse_share_fragment,
)
from .live_links import (
    SECRET_PATTERN,
    LiveLink,
    is_live_link,
    is_secret,
    make_live_link,
    parse_live_link,
)
from .saves import (
    SAVE_VERSION,
    SAVE_VERSIONS,
    SavedGame,
    SaveError,
    load_save,
    make_save,
    migrate_save,
    read_save,
)
from .seats import COMPUTER_LEVELS, LEVEL_LETTERS, Seat, SeatKind

__all__ = [
    "COMPUTER_LEVELS", "DAILY_PATH", "LEVEL_LETTERS", "LINK_PREFIX", "MAX_BEAT", "SAVE_VERSION",
    "SAVE_VERSIONS", "SEAT_FRIEND", "SEAT_HERE", "SEAT_HUMAN", "SECRET_PATTERN", "DailyResult",
    "GameEntry", "GameIndex", "GameLink", "GameList", "IndexRow", "LinkError", "LiveLink",
    "Reception", "Relation", "SaveError", "SavedGame", "Seat", "SeatKind", "ShareLink",
    "check_bots_available", "check_seats", "claim_seats", "compare", "daily_day", "daily_fragment",
    "daily_options", "daily_result", "daily_seed", "default_name", "entry_to_json", "game_id",
    "is_game_link", "is_live_link", "is_secret", "link_seats", "load_save", "make_entry",
    "make_game_link", "make_live_link", "make_save", "make_share_fragment", "may_move",
    "migrate_save", "migrate_single_save", "parse_daily_fragment", "parse_day", "parse_game_link",
    "parse_live_link", "parse_share_bots", "parse_share_fragment", "read_entry", "read_index",
    "read_save", "send_to", "turn_kind",
]
