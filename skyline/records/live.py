"""Live tables: the messages devices send each other while they play one game live.

Each message is one line of ASCII text: the version ``L1``, a kind letter, then its
fields, separated by single spaces. Actions are the engine's notation and a whole game
is its record (:meth:`skyline.Board.record`), exactly as in game links and saves.

==========================================  =================================================
``L1 H <seats> <count> <record>``           hello: the seats the sender plays, its number of
                                            committed actions and its game's record; the
                                            receiver answers with its own state
``L1 S <seats> <count> <record>``           state: the same, as an answer or a resync
``L1 A <number> <action> [<action> ...]``   actions: the first one is move ``number`` of the
                                            game (1-based, as ``record_action`` counts)
``L1 N <count> <crc>``                      have: the sender holds ``count`` actions and its
                                            record's CRC-32 (8 lowercase hex digits); a device
                                            that holds more answers with its state
==========================================  =================================================

``<seats>`` are the seat digits in increasing order (``0``, ``13``) or ``-`` for none.
``count`` must be the number of actions in the record. Every reader is strict:
:func:`parse_live_message` gives a :class:`LiveMessage` or raises :class:`LiveError` (a
``ValueError``) whose ``code`` names what is wrong: ``live_type`` (not text),
``live_size`` (longer than :data:`MAX_LIVE_CHARS`), ``live_format`` (not ``L<n> <kind>
...``), ``live_version`` (``params["version"]``), ``live_kind`` (``params["kind"]``),
``live_field`` (``params["field"]``: ``seats``, ``count``, ``number``, ``crc``,
``actions``), ``live_action`` (``params["number"]``: not an action in notation) and
``live_record`` (``params["record_code"]``, the :class:`~skyline.RecordError`'s code).

>>> from skyline import Board
>>> board = Board.new(["Ann", "Bo"], seed="demo"); board.push_text("tGGU")
>>> text = make_actions(1, ["tGGU", "r0.1.2"]); text
'L1 A 1 tGGU r0.1.2'
>>> parse_live_message(text).tokens
('tGGU', 'r0.1.2')
>>> hello = parse_live_message(make_state(board, (1,), hello=True))
>>> hello.kind, hello.seats, hello.length, hello.board.record() == board.record()
('H', (1,), 1, True)
>>> parse_live_message("L1 A 0 e")
Traceback (most recent call last):
...
skyline.records.live.LiveError: live message: number must be 1 to 4068, not '0'
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from typing import NamedTuple

from ..rules import Action, Board, RecordError, parse_action
from ..rules.bounds import MAX_ACTIONS, MAX_RECORD_CHARS
from ..rules.errors import SkylineError
from ..rules.state import MAX_PLAYERS

LIVE_VERSION = 1
LIVE_PREFIX = f"L{LIVE_VERSION}"
HELLO, STATE, ACTIONS, HAVE = "H", "S", "A", "N"
KINDS = (HELLO, STATE, ACTIONS, HAVE)
#: The longest message: a state with every seat and the longest record any game writes.
MAX_LIVE_CHARS = len(f"{LIVE_PREFIX} S 0123 {MAX_ACTIONS} ") + MAX_RECORD_CHARS
_NUMBER = re.compile(r"[1-9][0-9]{0,3}|0")
_CRC = re.compile(r"[0-9a-f]{8}")
_SEATS = re.compile(rf"-|[0-{MAX_PLAYERS - 1}]{{1,{MAX_PLAYERS}}}")


class LiveError(SkylineError):
    """A live message that cannot be read; ``code`` says why (``live_*``)."""


class LiveMessage(NamedTuple):
    """One message read: ``kind`` is one of :data:`KINDS`; the other fields are those of
    its kind (``seats``, ``length`` (the ``count``), ``board`` for hello and state;
    ``number``, ``tokens`` and ``actions`` for actions; ``length`` and ``crc`` for have)."""

    kind: str
    seats: tuple[int, ...] = ()
    length: int = 0
    board: Board | None = None
    number: int = 0
    tokens: tuple[str, ...] = ()
    actions: tuple[Action, ...] = ()
    crc: str = ""


def record_crc(record: str) -> str:
    """The CRC-32 of a record as 8 lowercase hex digits (for :func:`make_have`).

    >>> record_crc("skyline1 players=Ann seed=s start=0 nine=0 scenario=- | ")
    'e6ce8687'
    """
    return f"{zlib.crc32(record.encode('utf-8')):08x}"


# --------------------------------------------------------------------------- writing


def _seat_text(seats: Iterable[int]) -> str:
    ordered = sorted(set(seats))
    if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < MAX_PLAYERS
           for s in ordered):
        raise ValueError(f"seats: expected seat numbers 0 to {MAX_PLAYERS - 1}, got {ordered}")
    return "".join(str(s) for s in ordered) or "-"


def make_state(board: Board, seats: Iterable[int], *, hello: bool = False) -> str:
    """A hello (``hello=True``) or state message: the seats the sender plays and its game."""
    return (f"{LIVE_PREFIX} {HELLO if hello else STATE} {_seat_text(seats)} "
            f"{len(board.actions)} {board.record()}")


def make_actions(number: int, tokens: Iterable[Action | str]) -> str:
    """An actions message: ``tokens`` (actions or their notation) from move ``number`` on."""
    texts = [str(token) for token in tokens]
    if not texts:
        raise ValueError("actions: at least one action")
    if isinstance(number, bool) or not isinstance(number, int) \
            or not 1 <= number <= MAX_ACTIONS - len(texts) + 1:
        raise ValueError(f"number: expected 1 to {MAX_ACTIONS}, not {number!r}")
    for text in texts:
        parse_action(text)  # ValueError for a token that is not an action
    return f"{LIVE_PREFIX} {ACTIONS} {number} " + " ".join(texts)


def make_have(board: Board) -> str:
    """A have message: how many actions the sender holds and its record's checksum."""
    return f"{LIVE_PREFIX} {HAVE} {len(board.actions)} {record_crc(board.record())}"


# --------------------------------------------------------------------------- reading


def _field(name: str, text: str) -> LiveError:
    shown = text if len(text) <= 20 else text[:20] + "…"
    return LiveError("live_field", f"live message: bad {name} {shown!r}", field=name)


def _count(name: str, text: str, low: int) -> int:
    if not _NUMBER.fullmatch(text) or not low <= int(text) <= MAX_ACTIONS:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise LiveError("live_field", f"live message: {name} must be {low} to {MAX_ACTIONS}, "
                        f"not {shown!r}", field=name)
    return int(text)


def parse_live_message(text: object) -> LiveMessage:
    """Read one live message (see the module doc); raises :class:`LiveError` only."""
    if not isinstance(text, str):
        raise LiveError("live_type", "live message: not text")
    if len(text) > MAX_LIVE_CHARS:
        raise LiveError("live_size", f"live message: longer than {MAX_LIVE_CHARS} characters",
                        limit=MAX_LIVE_CHARS)
    version, _, rest = text.partition(" ")
    kind, _, body = rest.partition(" ")
    if not re.fullmatch(r"L[0-9]{1,4}", version) or not kind:
        raise LiveError("live_format", "live message: expected 'L<version> <kind> ...'")
    if version != LIVE_PREFIX:
        raise LiveError("live_version", f"live message version {version[1:]} is not supported",
                        version=version[1:])
    if kind not in KINDS:
        raise LiveError("live_kind", f"live message: unknown kind {kind[:8]!r}", kind=kind[:8])
    if kind in (HELLO, STATE):
        return _parse_state(kind, body)
    if kind == HAVE:
        count, space, crc = body.partition(" ")
        if not space or not _CRC.fullmatch(crc):
            raise _field("crc", crc)
        return LiveMessage(kind, length=_count("count", count, 0), crc=crc)
    number, _, rest = body.partition(" ")
    first = _count("number", number, 1)
    tokens = tuple(rest.split(" ")) if rest else ()
    if not tokens or first + len(tokens) - 1 > MAX_ACTIONS:
        raise _field("actions", rest)
    actions = []
    for offset, token in enumerate(tokens):
        try:
            actions.append(parse_action(token))
        except ValueError as exc:
            raise LiveError("live_action", f"live message: move {first + offset}: {exc}",
                            number=first + offset) from None
    return LiveMessage(kind, number=first, tokens=tokens, actions=tuple(actions))


def _parse_state(kind: str, body: str) -> LiveMessage:
    seats_text, _, rest = body.partition(" ")
    count_text, _, record = rest.partition(" ")
    if not _SEATS.fullmatch(seats_text) or len(set(seats_text)) != len(seats_text) \
            or (seats_text != "-" and list(seats_text) != sorted(seats_text)):
        raise _field("seats", seats_text)
    count = _count("count", count_text, 0)
    try:
        board = Board.from_record(record)
    except RecordError as exc:
        raise LiveError("live_record", f"live message: the game is broken: {exc}",
                        record_code=exc.code, **exc.params) from None
    seats = () if seats_text == "-" else tuple(int(c) for c in seats_text)
    if any(seat >= len(board.options.names) for seat in seats):
        raise _field("seats", seats_text)
    if count != len(board.actions):
        raise LiveError("live_field", f"live message: count {count} but the game has "
                        f"{len(board.actions)} actions", field="count")
    return LiveMessage(kind, seats=seats, length=count, board=board)
