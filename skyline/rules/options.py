"""Setting up a game: :func:`validate_options` and :func:`new_game`."""

from __future__ import annotations

from collections.abc import Sequence

from .chance import mix64, seed_hash
from .errors import OptionsError
from .state import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    SCENARIOS,
    SEED_PATTERN,
    B,
    Column,
    DieType,
    GameState,
    O,
    Options,
    P,
    Phase,
    Player,
)


def validate_options(options: Options) -> Options:
    """Return normalised options or raise :class:`OptionsError` naming the bad field.

    Names are trimmed and inner whitespace collapsed; ``start_seat`` None is resolved
    from the seed (a pure function of the seed and the number of players).
    """
    names = options.names
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise OptionsError(
            "names", "names: expected a list of 1 to 4 player names", reason="not_list"
        )
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise OptionsError(
            "names", f"names: expected 1 to 4 players, got {len(names)}",
            reason="count", count=len(names),
        )
    clean: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise OptionsError("names", "names: every name must be text", reason="not_text")
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME_LENGTH:
            raise OptionsError(
                "names", f"names: each name must have 1 to {MAX_NAME_LENGTH} characters",
                reason="length", limit=MAX_NAME_LENGTH,
            )
        if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000 for c in name):
            # lone surrogates cannot be encoded (records, links, the browser)
            raise OptionsError(
                "names", "names: control characters are not allowed", reason="control"
            )
        clean.append(name)
    seed = options.seed
    if not isinstance(seed, str) or not SEED_PATTERN.fullmatch(seed):
        raise OptionsError(
            "seed", "seed: expected 1 to 32 letters, digits, '-' or '_'", reason="invalid"
        )
    start = options.start_seat
    if start is None:
        start = mix64(seed_hash(seed) ^ 0x5EA7) % len(clean)
    elif isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(clean):
        raise OptionsError(
            "start_seat", f"start_seat: expected a seat from 0 to {len(clean) - 1}",
            reason="invalid", players=len(clean),
        )
    if not isinstance(options.all_nine, bool):
        raise OptionsError("all_nine", "all_nine: expected true or false", reason="invalid")
    scenario = options.scenario
    if scenario is not None:
        if len(clean) != 1:
            raise OptionsError(
                "scenario", "scenario: scenarios exist only in the solo game",
                reason="solo_only",
            )
        if scenario not in SCENARIOS:
            raise OptionsError(
                "scenario", f"scenario: unknown scenario {str(scenario)[:30]!r}",
                reason="invalid",
            )
    return Options(tuple(clean), seed, start, options.all_nine, scenario)


def new_game(options: Options) -> GameState:
    """The state before round 1: start gifts handed out, district filled."""
    options = validate_options(options)
    start_seat = options.start_seat
    assert start_seat is not None  # validate_options resolves None to a seat
    n = len(options.names)
    gifts = (O, B, P)
    players = []
    for seat, name in enumerate(options.names):
        order = (seat - start_seat) % n
        columns = (Column(gifts[order], 1),) if order < 3 else ()
        players.append(Player(name, columns, ()))
    district = () if n == 1 else (DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE)
    return GameState(
        options, 1, start_seat, Phase.TAKE, district, (), 0, False, tuple(players)
    )
