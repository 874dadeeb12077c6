"""Share links and saved games: the text formats the page reads, as pure functions.

Both readers are *total*: whatever they are given (any type, any length, any
text), they either return a complete, valid game or raise their one documented
error type, a ``ValueError`` subclass with a stable ``code`` (the page translates
it), ``params`` for the message and a plain English message. Nothing else escapes.

Share links
-----------

A link is the page address plus a fragment::

    #play?p=Ann,Bo%20Li&seed=Xy12ab&start=0&nine=0&sc=dubai&beat=83

=========  ========  ===================================================================
key        needed    value
=========  ========  ===================================================================
``p``      yes       1 to 4 names, comma separated, each percent-encoded (UTF-8)
``seed``   yes       1 to 32 of ``A-Z a-z 0-9 - _``
``start``  no        start seat ``0``..``3``; ``r`` or absent: derived from the seed
``nine``   no        ``1`` plays all nine rounds; ``0`` or absent: the normal end
``sc``     no        a solo scenario (one player only); ``-``, empty or absent: none
``beat``   no        a score to beat, ``0``..``1000`` (one player only)
``bots``   no        computer seats: seat digit + level letter (``b`` beginner, ``g`` greedy,
                     ``e`` expert), seats increasing, e.g. ``1e3g``; absent: all human
=========  ========  ===================================================================

Keys may come in any order, each at most once; unknown keys are errors (a link
from a newer page should not silently drop what it asks for). ``start=r`` is
resolved with :func:`skyline.validate_options`, a pure function of the seed and the
number of players, so everyone opening the same link gets the same start player;
:func:`make_share_fragment` always writes the resolved seat. The reader accepts
the fragment with or without its ``#`` and a whole address (the part after the
first ``#`` is read). Links longer than :data:`MAX_LINK_CHARS` are refused unread.

:func:`parse_share_fragment` raises :class:`LinkError`; its ``code`` names the part
at fault (``link`` for the link as a whole, else ``names``, ``seed``,
``start_seat``, ``all_nine``, ``scenario`` or ``beat``) and ``params["reason"]``
says what is wrong with it (``not_text``, ``too_long``, ``not_play``, ``bad_part``,
``unknown_key``, ``repeated_key``, ``missing``, ``encoding``, ``invalid``,
``solo_only``, and for ``names`` the reasons of :func:`skyline.check_name` with
``params["seat"]``, or ``count``). ``code == "internal"`` would mean a bug in this
module. The reader only parses: whether a computer level named by ``bots`` can play
here (the expert needs its value table) is the caller's check,
:func:`check_bots_available` (reason ``unavailable``). A game link's fragment starts
with :data:`LINK_PREFIX` (``#play?``).

>>> link = parse_share_fragment("#play?p=Ann,Bo%20Li&seed=Xy12ab&nine=1")
>>> link.options.names, link.options.start_seat, link.options.all_nine, link.beat
(('Ann', 'Bo Li'), 1, True, None)
>>> make_share_fragment(link.options)
'play?p=Ann,Bo%20Li&seed=Xy12ab&start=1&nine=1'
>>> try:
...     parse_share_fragment("play?p=Ann&p=Bob&seed=x")
... except LinkError as exc:
...     print(exc.code, exc.params["reason"], "-", exc)
link repeated_key - the link gives 'p' twice
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import NamedTuple
from urllib.parse import quote, unquote

from ..rules import SCENARIOS, Options, OptionsError, SkylineError, validate_options
from ..rules.errors import coded_only
from .seats import LEVEL_LETTERS

LINK_PATH = "play"
#: What a game link's fragment starts with (the page tells game links by it).
LINK_PREFIX = "#" + LINK_PATH + "?"
LINK_KEYS = ("p", "seed", "start", "nine", "sc", "beat", "bots")
MAX_LINK_CHARS = 2000
MAX_BEAT = 1000

_BOTS_VALUE = re.compile("(?:[0-3][" + "".join(LEVEL_LETTERS) + "]){1,4}")



class LinkError(SkylineError):
    """A share link that cannot be opened; ``code`` names the part at fault."""


class ShareLink(NamedTuple):
    options: Options  # validated: start_seat is always a seat number
    beat: int | None


# --------------------------------------------------------------------------- links


def after_hash(text: str) -> str:
    """``text`` stripped and, if it holds a ``#``, only what follows the first one: a
    whole pasted address and its fragment alone read alike."""
    text = text.strip()
    if "#" in text:
        text = text.split("#", 1)[1]
    return text


def link_text(text: object, max_chars: int) -> str:
    """The fragment a link reader parses (:func:`after_hash`); :class:`LinkError`
    (``link``) if ``text`` is not a string (reason ``not_text``) or is longer than
    ``max_chars`` characters (``too_long``)."""
    if not isinstance(text, str):
        raise LinkError("link", "a link must be text", reason="not_text")
    if len(text) > max_chars:
        raise LinkError("link", f"the link is longer than {max_chars} characters",
                        reason="too_long", limit=max_chars)
    return after_hash(text)


def _shown(text: str, limit: int = 20) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _check_options(options: Options) -> Options:
    try:
        return validate_options(options)
    except OptionsError as exc:
        # the options' own reason (a name's ``control``, ``bidi``, ``invisible`` …)
        raise LinkError(exc.field, str(exc), **{"reason": "invalid", **exc.params}) from None


def _check_beat(beat: object, players: int) -> int | None:
    if beat is None:
        return None
    if isinstance(beat, bool) or not isinstance(beat, int) or not 0 <= beat <= MAX_BEAT:
        raise LinkError("beat", f"beat: expected a score from 0 to {MAX_BEAT}", reason="invalid")
    if players != 1:
        raise LinkError("beat", "beat: a score to beat exists only in the solo game",
                        reason="solo_only")
    return beat


def _check_bots(bots: object, players: int) -> tuple[tuple[int, str], ...]:
    """Computer seats as sorted (seat, level) pairs; LinkError ``bots`` if not valid."""
    names = {v: k for k, v in LEVEL_LETTERS.items()}
    try:
        # bots is unchecked input: whatever dict() rejects is caught below
        pairs = tuple(sorted(dict(bots or {}).items()))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        pairs = ((-1, ""),)
    for seat, level in pairs:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players \
                or level not in names:
            raise LinkError("bots", "bots: expected computer seats like 1e3g", reason="invalid")
    return pairs


def check_bots_available(bots: Mapping[int, str], available: Callable[[str], bool]) -> None:
    """Refuse computer seats (as :func:`parse_share_bots` gives them) that cannot play
    here: :class:`LinkError` ``bots`` with reason ``unavailable`` and ``params["level"]``
    for the first level ``available`` (e.g. ``skyline.players.bot_available``) refuses.
    The link reader only parses; the caller decides availability with this.

    >>> check_bots_available({1: "greedy"}, lambda level: level != "expert")
    >>> check_bots_available({1: "expert"}, lambda level: level != "expert")
    Traceback (most recent call last):
    ...
    skyline.records.links.LinkError: bots: the expert computer player is not available here
    """
    for _, level in sorted(dict(bots).items()):
        if not available(level):
            raise LinkError("bots", f"bots: the {level} computer player is not available here",
                            reason="unavailable", level=level)


def make_share_fragment(
    options: Options, beat: int | None = None, bots: object = None
) -> str:
    """The fragment (without ``#``) of a link that starts this game for anyone.

    Raises :class:`LinkError` for options or a beat that no link may carry.

    >>> make_share_fragment(Options(("Ann", "Bo, Jr."), "Xy12ab"))
    'play?p=Ann,Bo%2C%20Jr.&seed=Xy12ab&start=0&nine=0'
    """
    options = _check_options(options)
    beat = _check_beat(beat, len(options.names))
    parts = [
        "p=" + ",".join(quote(name, safe="") for name in options.names),
        "seed=" + options.seed,
        f"start={options.start_seat}",
        f"nine={int(options.all_nine)}",
    ]
    if options.scenario is not None:
        parts.append("sc=" + options.scenario)
    if beat is not None:
        parts.append(f"beat={beat}")
    pairs = _check_bots(bots, len(options.names))
    if pairs:
        letters = {v: k for k, v in LEVEL_LETTERS.items()}
        parts.append("bots=" + "".join(f"{seat}{letters[level]}" for seat, level in pairs))
    return LINK_PATH + "?" + "&".join(parts)


def parse_share_fragment(text: object) -> ShareLink:
    """Read a share link (see the module doc); raises :class:`LinkError` only."""
    return _parse_total(text)[0]


def parse_share_bots(text: object) -> tuple[tuple[int, str], ...]:
    """The computer seats a share link names, as (seat, level) pairs, seats increasing
    (``()`` for none); raises :class:`LinkError` like :func:`parse_share_fragment`.

    >>> parse_share_bots("play?p=Ann,Robo&seed=x&bots=1e")
    ((1, 'expert'),)
    """
    return _parse_total(text)[1]


def _parse_total(text: object) -> tuple[ShareLink, tuple[tuple[int, str], ...]]:
    return coded_only(LinkError, "the link could not be read", _parse_fragment, text)


def _parse_fragment(text: object) -> tuple[ShareLink, tuple[tuple[int, str], ...]]:
    text = link_text(text, MAX_LINK_CHARS)
    path, question, query = text.partition("?")
    if path != LINK_PATH or not question:
        raise LinkError("link", "this is not a game link", reason="not_play")
    values: dict[str, str] = {}
    for part in query.split("&"):
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise LinkError("link", f"the link part {_shown(part)} has no '='", reason="bad_part")
        if key not in LINK_KEYS:
            raise LinkError("link", f"the link has an unknown setting {_shown(key)}",
                            reason="unknown_key", key=key[:20])
        if key in values:
            raise LinkError("link", f"the link gives {key!r} twice", reason="repeated_key",
                            key=key)
        values[key] = value
    if "p" not in values:
        raise LinkError("names", "names: the link names no players", reason="missing")
    if "seed" not in values:
        raise LinkError("seed", "seed: the link has no seed", reason="missing")
    try:
        names = tuple(unquote(n, errors="strict") for n in values["p"].split(","))
    except UnicodeDecodeError:
        raise LinkError("names", "names: a name is not valid UTF-8",
                        reason="encoding") from None
    try:
        seed = unquote(values["seed"], errors="strict")
    except UnicodeDecodeError:
        raise LinkError("seed", "seed: the seed is not valid UTF-8", reason="encoding") from None
    start_text = values.get("start", "r")
    start: int | None
    if start_text == "r":
        start = None
    elif len(start_text) == 1 and "0" <= start_text <= "9":
        start = int(start_text)
    else:
        raise LinkError("start_seat", "start_seat: expected a seat number or 'r'",
                        reason="invalid")
    nine_text = values.get("nine", "0")
    if nine_text not in ("0", "1"):
        raise LinkError("all_nine", "all_nine: expected 0 or 1", reason="invalid")
    scenario_text = values.get("sc", "")
    scenario = None if scenario_text in ("", "-") else scenario_text
    if scenario is not None and scenario not in SCENARIOS:
        raise LinkError("scenario", f"scenario: unknown scenario {_shown(scenario)}",
                        reason="invalid")
    beat_text = values.get("beat")
    beat: int | None = None
    if beat_text is not None:
        if not re.fullmatch(r"[0-9]{1,4}", beat_text):
            raise LinkError("beat", f"beat: expected a score from 0 to {MAX_BEAT}",
                            reason="invalid")
        beat = int(beat_text)
    options = _check_options(Options(names, seed, start, nine_text == "1", scenario))
    bots: dict[int, str] = {}
    bots_text = values.get("bots")
    if bots_text is not None:
        if not _BOTS_VALUE.fullmatch(bots_text):
            raise LinkError("bots", "bots: expected computer seats like 1e3g", reason="invalid")
        seats = [int(bots_text[i]) for i in range(0, len(bots_text), 2)]
        if seats != sorted(set(seats)):
            raise LinkError("bots", "bots: each seat once, in increasing order",
                            reason="invalid")
        bots = {int(bots_text[i]): LEVEL_LETTERS[bots_text[i + 1]]
                for i in range(0, len(bots_text), 2)}
    link = ShareLink(options, _check_beat(beat, len(options.names)))
    return link, _check_bots(bots, len(options.names))
