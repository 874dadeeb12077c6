"""Computer players: the registry (:mod:`.registry`: names, availability, loading a
bot's module on first use), the simple bots (:mod:`.bots`), the solo optimum
(:mod:`.solo_value`, the door to the solo model :mod:`.solo_model`, the tables
:mod:`.value_table` and :mod:`.scenario_tables` and the turn search :mod:`.turn_search`),
the solo expert (:mod:`.expert`), the 2-4 player expert (:mod:`.table_expert`), the
scenario model (:mod:`.scenario_model`), reviews (:mod:`.review`, :mod:`.table_review`),
the data files a host delivers (:mod:`.deferred`) and the one adapter between the
engine's states and the models' positions (:mod:`.adapter`).

Only the registry is imported here, so asking for ``greedy`` never loads the expert.
"""

from .registry import (
    BOT_MODULES,
    BOTS,
    DEFAULT_BOT,
    Bot,
    BotError,
    available_bots,
    bot_available,
    get_bot,
    register,
)

__all__ = [
    "BOTS", "BOT_MODULES", "DEFAULT_BOT", "Bot", "BotError", "available_bots",
    "bot_available", "get_bot", "register",
]
