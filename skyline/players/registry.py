"""The registry of computer players: names, link letters, availability.

A bot is a function ``bot(state, rng) -> action`` (see :mod:`skyline.players.bots`). The
shipped bots live in two modules that do not import each other: ``random``,
``beginner`` and ``greedy`` in :mod:`skyline.players.bots`, ``expert`` in
:mod:`skyline.players.expert`. This module knows where each one lives and imports it on first
use, so asking for ``greedy`` never loads the expert's value table code.

The expert needs its value table (``skyline/data/solo_values.bin``). Whether it is
there is explicit: :func:`bot_available` says so, :func:`available_bots` leaves it
out, :func:`get_bot` raises :class:`BotError` with code ``bot_unavailable``, and share
links naming an expert seat are refused by the page
(:func:`skyline.records.links.check_bots_available` with :func:`bot_available`, reason
``unavailable``) instead of silently playing without it.

>>> get_bot("greedy").__name__, "random" in BOTS
('greedy_bot', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, MutableMapping
from importlib import import_module

from ..rules import Action, GameState, SkylineError
from . import deferred

Bot = Callable[[GameState, random.Random], Action]

#: The shipped bots, weakest first, and the module (in ``skyline.players``) defining each.
#: (The computer levels of links, :data:`LEVEL_LETTERS`, are in :mod:`skyline.records.seats`.)
BOT_MODULES: dict[str, str] = {
    "random": "bots",
    "beginner": "bots",
    "greedy": "bots",
    "expert": "expert",
    # the expert's earlier 2-4 player play, a benchmark baseline (not offered in the page)
    "expert1": "expert",
}
#: The default opponent and simulation bot.
DEFAULT_BOT = "greedy"

_REGISTERED: dict[str, Bot] = {}


class BotError(SkylineError):
    """A bot that cannot be had: ``unknown_bot`` (no such name) or ``bot_unavailable``
    (shipped, but missing here: the expert without its value table);
    ``params["name"]`` is the name asked for."""


def register(name: str) -> Callable[[Bot], Bot]:
    """Decorator adding a bot to the registry under ``name``."""

    def add(bot: Bot) -> Bot:
        _REGISTERED[name] = bot
        return bot

    return add


def bot_available(name: str) -> bool:
    """Whether :func:`get_bot` would give the bot called ``name``."""
    if name in BOT_MODULES:
        return _shipped_available(name)
    return name in _REGISTERED


def available_bots() -> tuple[str, ...]:
    """The names of every bot that can play here: shipped ones in :data:`BOT_MODULES`
    order (the expert only with its table), then any registered later."""
    shipped = tuple(name for name in BOT_MODULES if _shipped_available(name))
    return shipped + tuple(name for name in _REGISTERED if name not in BOT_MODULES)


def get_bot(name: str) -> Bot:
    """The bot called ``name``; :class:`BotError` if it is unknown or unavailable."""
    if name in BOT_MODULES:
        if not _shipped_available(name):
            raise BotError(
                "bot_unavailable",
                f"bot: {name!r} is not available (its value table is missing)",
                name=name,
            )
        if name not in _REGISTERED:
            import_module(f"{__package__}.{BOT_MODULES[name]}")  # registers itself
    bot = _REGISTERED.get(name) if isinstance(name, str) else None
    if bot is None:
        raise BotError(
            "unknown_bot",
            f"bot: unknown bot {str(name)[:30]!r}, expected one of {list(available_bots())}",
            name=str(name)[:30],
        )
    return bot


def _shipped_available(name: str) -> bool:
    if BOT_MODULES[name] != "expert":
        return True
    if deferred.TABLE_RESOURCE in deferred.DEFERRED:
        return True  # the host delivers it on request (the solver need not load yet)
    try:
        from . import solo_value
    except ModuleNotFoundError:  # a build without the solver
        return False
    return solo_value.table_available()


class _Bots(MutableMapping[str, Bot]):
    """:data:`BOTS`: the registry as a mapping name -> bot (available bots only)."""

    def __getitem__(self, name: str) -> Bot:
        try:
            return get_bot(name)
        except BotError:
            raise KeyError(name) from None

    def __setitem__(self, name: str, bot: Bot) -> None:
        _REGISTERED[name] = bot

    def __delitem__(self, name: str) -> None:
        del _REGISTERED[name]

    def __iter__(self) -> Iterator[str]:
        return iter(available_bots())

    def __len__(self) -> int:
        return len(available_bots())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and bot_available(name)

    def __repr__(self) -> str:
        return f"BOTS({list(available_bots())})"


#: Every available bot by name (a live view: ``name in BOTS``, ``BOTS[name]``).
BOTS: MutableMapping[str, Bot] = _Bots()
