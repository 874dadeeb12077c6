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

#: Characters that change the direction of the text after them (embeddings, overrides,
#: isolates, marks): in a name they would reorder what the page shows around it.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
#: Letters and marks that draw nothing (Hangul fillers, Khmer inherent vowels, the
#: combining grapheme joiner, the blank Braille pattern).
BLANK_CHARACTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")


def is_visible(char: str) -> bool:
    """Whether a character draws something: not a space, not a control, format
    (zero-width), separator, private-use or unassigned character (what
    :meth:`str.isprintable` refuses, by the Unicode version of the Python running it)
    and not one of :data:`BLANK_CHARACTERS`.

    >>> is_visible("a"), is_visible("\\u00e9"), is_visible(" "), is_visible("\\u200b")
    (True, True, False, False)
    """
    return char.isprintable() and not char.isspace() and char not in BLANK_CHARACTERS


def check_name(name: object, seat: int = 0) -> str:
    """A player's name as the game keeps it (spaces trimmed, inner runs of spaces made
    one), or :class:`OptionsError` ``names`` whose ``params["reason"]`` says why not
    and ``params["seat"]`` whose name it is. The one check of every name, whether it
    comes from the new-game dialog, a link, a record or a save:

    - ``not_text``; ``length``: empty, or more than 24 characters (``params["limit"]``);
    - ``control``: a control character (NUL, escape, …) or a lone surrogate (line
      breaks and tabs are spaces: runs of them become one space);
    - ``bidi``: a character of :data:`BIDI_CONTROLS`, which would reverse the text
      shown after the name;
    - ``invisible``: no character that draws something (only spaces, zero-width or
      other format characters: the player would be invisible).

    >>> check_name("  Ada   Lovelace ")
    'Ada Lovelace'
    >>> for bad in ("Bob\\u202egnp.exe", "\\u200b\\u200b", "Bo\\x00"):
    ...     try:
    ...         check_name(bad, seat=1)
    ...     except OptionsError as exc:
    ...         print(exc.params["reason"], exc.params["seat"], "-", exc)
    bidi 1 - names: a name may not contain characters that change the text direction
    invisible 1 - names: a name needs at least one visible character
    control 1 - names: control characters are not allowed
    """
    if not isinstance(name, str):
        raise OptionsError("names", "names: every name must be text", reason="not_text",
                           seat=seat)
    clean = " ".join(name.split())
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000 for c in clean):
        # lone surrogates cannot be encoded (records, links, the browser)
        raise OptionsError("names", "names: control characters are not allowed",
                           reason="control", seat=seat)
    if any(c in BIDI_CONTROLS for c in clean):
        raise OptionsError(
            "names", "names: a name may not contain characters that change the text direction",
            reason="bidi", seat=seat,
        )
    if name and not any(is_visible(c) for c in clean):
        raise OptionsError("names", "names: a name needs at least one visible character",
                           reason="invisible", seat=seat)
    if not clean or len(clean) > MAX_NAME_LENGTH:
        raise OptionsError(
            "names", f"names: each name must have 1 to {MAX_NAME_LENGTH} characters",
            reason="length", limit=MAX_NAME_LENGTH, seat=seat,
        )
    return clean


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
    clean = [check_name(name, seat) for seat, name in enumerate(names)]
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
