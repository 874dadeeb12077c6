"""Correspondence play: game links that carry a whole game, and how a device
relates an incoming game to the one it has.

Seats
-----

Each device keeps, per game, what every seat is *for this device*
(:data:`SEAT_HERE` played on this device, :data:`SEAT_FRIEND` a friend
elsewhere, or a computer level: ``beginner``,
``greedy``, ``expert``). Ownership is local: a link never says which device
plays which human seat, only which seats are computers (``h`` for a human seat,
else the level letter of :data:`skyline.records.seats.LEVEL_LETTERS`; see
:class:`~skyline.records.seats.Seat`). The device that
opens a link for an unknown game asks which seat(s) it plays
(:func:`claim_seats`).

Game links
----------

A game link is the page address plus the fragment ``game?1.<data>``:
``1`` is the format version (:data:`GAME_LINK_VERSION`) and ``<data>`` is
base64url (no padding) of::

    CRC-32 of the rest (4 bytes, big-endian) + raw DEFLATE of the payload

The payload is UTF-8 text of two lines: ``<seats> <nonce>`` (seats one letter
per seat, ``h`` or a level letter; the nonce 0 to 16 of ``A-Z a-z 0-9 - _``,
possibly empty) and the game's record (:meth:`~skyline.Board.record`: options,
``|``, every action). The record is replayed and checked action by action on
opening, so a link gives the game it describes or nothing. Rolls carry no faces:
the seed decides them, both devices compute the same ones.

The CRC-32 catches accidental damage (a truncated or mangled paste); it is *not*
a signature: anyone can edit a game and recompute it. Correspondence games rest
on trust (see docs/formats.md: the seed fixes every die).

A live table's invitation (:mod:`skyline.records.live_links`) carries the same data,
read by :func:`parse_game_data`.

:func:`parse_game_link` is total: it returns a :class:`GameLink` or raises
:class:`~skyline.records.links.LinkError`. Checks in order, each with its ``code``:

==================  =====================================================================
``link``            not text (``reason`` ``not_text``), longer than
                    :data:`MAX_GAME_LINK_CHARS` (``too_long``, with ``limit``, checked
                    before anything else), not a game link (``not_game``), nothing
                    after its ``?`` (``empty``), a version without data (``incomplete``),
                    no version number (``malformed``)
``game_version``    a format version this engine does not know (``params["version"]``)
``game_encoding``   the data is not base64url
``game_checksum``   the checksum does not match: the link was damaged on the way
``game_size``       the data inflates beyond :data:`MAX_PAYLOAD_BYTES` (a bomb)
``game_data``       not a DEFLATE stream, not UTF-8, or not the two lines above
``game_seats``      the seat letters are invalid or do not match the number of players
``game_record``     the record inside is broken: ``params["record_code"]`` is the
                    :class:`~skyline.RecordError` code, ``params["number"]`` the move
                    for ``record_action``
==================  =====================================================================

>>> from skyline import Board
>>> board = Board.new(["Ann", "Bo"], seed="demo")
>>> board.push_text("tGGU"); board.push_text("r0.1.2")
>>> link = parse_game_link("https://x.example/#" + make_game_link(board, ("here", "friend")))
>>> link.board.state == board.state, link.seats, link.game_id == game_id(board, link.seats)
(True, ('human', 'human'), True)

Relations
---------

:func:`compare` tells how an incoming game relates to the local one, on replayed
games (so ``tUGG`` and ``tGGU`` are the same action): :attr:`Relation.SAME`,
:attr:`Relation.CONTINUES` (the local record is a strict prefix of the incoming
one: update), :attr:`Relation.STALE` (the incoming record is a strict prefix of the
local one: an old link, refuse), :attr:`Relation.DIVERGES` (same game, two
different continuations: keep both) or :attr:`Relation.OTHER` (another game).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import zlib
from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple

from ..rules import Board, Options, Phase, RecordError
from ..rules.bounds import MAX_RECORD_CHARS
from ..rules.errors import coded_only
from .links import LinkError, after_hash, link_text
from .seats import COMPUTER_LEVELS, HUMAN_LETTER, LEVEL_LETTERS, Seat, SeatKind

GAME_LINK_PATH = "game"
GAME_LINK_VERSION = 1
NONCE_CHARS = 16
#: The payload may inflate to at most this many bytes (a decompression bomb stops here):
#: the seat letters, a space, the nonce and a line break, then the longest record of any
#: game (:data:`~skyline.rules.bounds.MAX_RECORD_CHARS`; a record is ASCII).
MAX_PAYLOAD_BYTES = len("hhhh \n") + NONCE_CHARS + MAX_RECORD_CHARS
#: The page's address before the ``#`` that a whole pasted link may carry.
MAX_ADDRESS_CHARS = 2_000


def deflate_bound(size: int) -> int:
    """Most bytes raw DEFLATE (zlib, window 15 and memory level 8, the defaults
    :func:`make_game_link` uses) makes of ``size`` bytes: zlib's own ``deflateBound``
    for these settings (stored blocks cost 5 bytes per 16 KiB and a few at the end).

    >>> deflate_bound(100_000)
    100037
    """
    return size + (size >> 12) + (size >> 14) + (size >> 25) + 7


def _base64_chars(size: int) -> int:
    return (4 * size + 2) // 3  # base64 without padding


#: A game link longer than this is refused unread: the address, ``#game?1.`` and the
#: base64 of the checksum and the DEFLATE of the longest payload. Every link of a legal
#: game is shorter (the longest game's link has about 13,000 characters).
MAX_GAME_LINK_CHARS = (MAX_ADDRESS_CHARS + len(f"#{GAME_LINK_PATH}?{GAME_LINK_VERSION}.")
                       + _base64_chars(4 + deflate_bound(MAX_PAYLOAD_BYTES)))

SEAT_HERE = SeatKind.HERE.value
SEAT_FRIEND = SeatKind.FRIEND.value
#: A human seat as a link carries it (which device plays it is not in the link).
SEAT_HUMAN = "human"
NONCE_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{0,{NONCE_CHARS}}}")
_B64URL = re.compile(r"[A-Za-z0-9_-]*")


class GameLink(NamedTuple):
    """What a game link carries: the game, its seats as the link gives them
    (:data:`SEAT_HUMAN` or a computer level), the creation nonce and the game id."""

    board: Board
    seats: tuple[str, ...]
    nonce: str
    game_id: str


class Relation(Enum):
    SAME = "same"
    CONTINUES = "continues"
    STALE = "stale"
    DIVERGES = "diverges"
    OTHER = "other"


# --------------------------------------------------------------------------- seats


def check_seats(seats: object, players: int, *, local: bool = True) -> tuple[str, ...]:
    """``seats`` as a tuple, one kind per seat; ``ValueError`` if it is not valid.

    ``local`` seats are a device's (here, friend or a computer level); otherwise
    a link's (human or a computer level).
    """
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise ValueError("seats: expected one kind per seat")
    out = tuple(kind.code if isinstance(kind, Seat) else kind for kind in seats)
    if len(out) != players:
        raise ValueError(f"seats: expected {players} seats, got {len(out)}")
    for kind in out:
        if local:
            Seat.from_code(kind)  # ValueError for an unknown kind
        elif kind != SEAT_HUMAN and kind not in COMPUTER_LEVELS:
            raise ValueError(f"seats: unknown seat kind {str(kind)[:20]!r}")
    return out


def link_seats(seats: Sequence[str]) -> tuple[str, ...]:
    """A device's seats as a link carries them: every human seat is :data:`SEAT_HUMAN`."""
    codes = (kind.code if isinstance(kind, Seat) else kind for kind in seats)
    return tuple(SEAT_HUMAN if kind in (SEAT_HERE, SEAT_FRIEND, SEAT_HUMAN) else kind
                 for kind in codes)


def claim_seats(seats: Sequence[str], mine: Sequence[int]) -> tuple[str, ...]:
    """This device's seats for a game from a link: the human seats in ``mine`` are
    played here, the other human seats by friends elsewhere, computers stay.

    >>> claim_seats(("human", "expert", "human"), [2])
    ('friend', 'expert', 'here')
    """
    chosen = set(mine)
    for seat in chosen:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats) \
                or link_seats(seats)[seat] != SEAT_HUMAN:
            raise ValueError(f"seats: seat {seat!r} is not a human seat of this game")
    return tuple(
        ((Seat.here() if i in chosen else Seat.friend()).code if kind == SEAT_HUMAN else kind)
        for i, kind in enumerate(link_seats(seats))
    )


def game_id(board: Board | Options, seats: Sequence[str], nonce: str = "") -> str:
    """The game's id: 12 characters ``a-z 2-7`` from its options, its computer seats
    and the creation nonce, so every device that holds the game agrees on it.

    >>> game_id(Board.new(["Ann", "Bo"], seed="demo"), ("here", "friend"))
    'q6v366hwzqws'
    """
    options = board.options if isinstance(board, Board) else Board(board).options
    head = Board(options).record().partition("|")[0].strip()
    text = "\n".join(["skyline-game-id", head, "".join(_letters(link_seats(seats))), nonce])
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return base64.b32encode(digest[:10]).decode("ascii").lower()[:12]


def _letters(seats: Sequence[str]) -> list[str]:
    return [HUMAN_LETTER if kind == SEAT_HUMAN else Seat.computer(kind).letter for kind in seats]


# --------------------------------------------------------------------------- links


def make_game_link(board: Board, seats: Sequence[str], nonce: str = "") -> str:
    """The fragment (without ``#``) of a link that carries the whole game.

    ``seats`` are a device's or a link's seat kinds (only computer levels go into
    the link). Raises ``ValueError`` for seats that do not fit the game or a bad nonce.
    """
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise ValueError("seats: expected one kind per seat")
    kinds = check_seats(link_seats(seats), len(board.options.names), local=False)
    if not isinstance(nonce, str) or not NONCE_PATTERN.fullmatch(nonce):
        raise ValueError("nonce: expected 0 to 16 letters, digits, '-' or '_'")
    payload = ("".join(_letters(kinds)) + " " + nonce + "\n" + board.record()).encode("utf-8")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = packer.compress(payload) + packer.flush()
    data = zlib.crc32(deflated).to_bytes(4, "big") + deflated
    text = base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")
    link = f"{GAME_LINK_PATH}?{GAME_LINK_VERSION}.{text}"
    if len(payload) > MAX_PAYLOAD_BYTES or len(link) > MAX_GAME_LINK_CHARS - MAX_ADDRESS_CHARS:
        # cannot happen for a legal game (skyline.rules.bounds): never hand out a link
        # that parse_game_link would refuse
        raise ValueError("game link: the game is longer than a link may carry")
    return link


def is_game_link(text: object) -> bool:
    """Whether ``text`` looks like a game link (its path is ``game``), so the page
    sends it to :func:`parse_game_link` rather than the share-link reader."""
    if not isinstance(text, str):
        return False
    return after_hash(text).startswith(GAME_LINK_PATH + "?")


def parse_game_link(text: object) -> GameLink:
    """Read a game link (see the module doc); raises :class:`LinkError` only."""
    return coded_only(LinkError, "the game link could not be read", _parse_game_link, text)


def _parse_game_link(text: object) -> GameLink:
    data = versioned_body(text, GAME_LINK_PATH, GAME_LINK_VERSION, MAX_GAME_LINK_CHARS,
                          "game link", "game")
    return parse_game_data(data)


def versioned_body(text: object, path: str, version: int, limit: int, name: str,
                   body: str) -> str:
    """What follows ``<path>?<version>.`` in a link of that path and version (a game link,
    a live link): a :class:`LinkError` (``link`` with its reason, or ``game_version``)
    when ``text`` is not one; ``name`` and ``body`` word the messages ("game link",
    "game")."""
    text = link_text(text, limit)
    found, question, rest = text.partition("?")
    if found != path or not question:
        raise LinkError("link", f"this is not a {name}", reason=f"not_{path}")
    if not rest:
        raise LinkError("link", f"the {name} is empty", reason="empty")
    given, dot, after = rest.partition(".")
    if given == str(version) and not (dot and after):
        raise LinkError("link", f"the {name} has no {body}", reason="incomplete")
    if not re.fullmatch(r"[0-9]{1,8}", given):
        raise LinkError("link", f"the {name} has no version", reason="malformed")
    if given != str(version):
        raise LinkError("game_version", f"{name} version {given} is not supported",
                        version=given)
    return after


def parse_game_data(data: str) -> GameLink:
    """The game of a game link's data part (what follows ``game?1.``); raises
    :class:`LinkError` with the codes from ``game_encoding`` on (see the module doc).
    Callers bound the length of ``data`` first (:func:`parse_game_link` and
    :func:`skyline.records.live_links.parse_live_link` read at most their links' limits)."""
    if not _B64URL.fullmatch(data) or len(data) % 4 == 1:
        raise LinkError("game_encoding", "the game link's data is not base64url")
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("game_encoding", "the game link's data is not base64url") from None
    if len(raw) < 5 or zlib.crc32(raw[4:]).to_bytes(4, "big") != raw[:4]:
        raise LinkError("game_checksum", "the game link is damaged (its checksum does not match)")
    unpacker = zlib.decompressobj(-15)
    try:
        payload = unpacker.decompress(raw[4:], MAX_PAYLOAD_BYTES)
        if unpacker.unconsumed_tail:
            raise LinkError("game_size", "the game link's data is too large")
        if not unpacker.eof or unpacker.unused_data:
            raise LinkError("game_data", "the game link's data is incomplete")
    except zlib.error:
        raise LinkError("game_data", "the game link's data is not readable") from None
    try:
        lines = payload.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        raise LinkError("game_data", "the game link's data is not text") from None
    if len(lines) != 2:
        raise LinkError("game_data", "the game link's data is malformed")
    letters, space, nonce = lines[0].partition(" ")
    if not space or not NONCE_PATTERN.fullmatch(nonce):
        raise LinkError("game_data", "the game link's data is malformed")
    try:
        board = Board.from_record(lines[1])
    except RecordError as exc:
        raise LinkError("game_record", f"the game in the link is broken: {exc}",
                        record_code=exc.code, **exc.params) from None
    levels = {HUMAN_LETTER: SEAT_HUMAN, **LEVEL_LETTERS}
    if len(letters) != len(board.options.names) or any(c not in levels for c in letters):
        raise LinkError("game_seats", "the link's seats do not fit the game")
    seats = tuple(levels[c] for c in letters)
    return GameLink(board, seats, nonce, game_id(board, seats, nonce))


# --------------------------------------------------------------------------- relations


def compare(local: Board | str, incoming: Board | str) -> Relation:
    """How ``incoming`` relates to ``local`` (boards, or records that are replayed
    first; a record that does not replay raises :class:`~skyline.RecordError`).

    >>> a = Board.new(["Ann", "Bo"], seed="demo"); b = a.copy(); b.push_text("tUGG")
    >>> compare(a, b), compare(b, a), compare(b, b.record())
    (<Relation.CONTINUES: 'continues'>, <Relation.STALE: 'stale'>, <Relation.SAME: 'same'>)
    """
    mine = local if isinstance(local, Board) else Board.from_record(local)
    theirs = incoming if isinstance(incoming, Board) else Board.from_record(incoming)
    if mine.options != theirs.options:
        return Relation.OTHER
    a, b = mine.actions, theirs.actions
    if a == b:
        return Relation.SAME
    if b[: len(a)] == a:
        return Relation.CONTINUES
    if a[: len(b)] == b:
        return Relation.STALE
    return Relation.DIVERGES


# --------------------------------------------------------------------------- turns


def turn_kind(board: Board, seats: Sequence[str]) -> str:
    """Who moves now on this device: ``"over"`` when the game is over, else the
    kind of the active seat (:data:`SEAT_HERE`, :data:`SEAT_FRIEND` or a level)."""
    if board.state.phase is Phase.OVER:
        return "over"
    return check_seats(seats, len(board.options.names))[board.state.seat]


def may_move(board: Board, seats: Sequence[str]) -> bool:
    """Whether this device may move now: the active seat is played here. (A
    computer seat's turn is played by the device that holds the game; the page's
    computer driver does that, never a human command.)"""
    kind = turn_kind(board, seats)
    return kind != "over" and Seat.from_code(kind).is_here


def send_to(board: Board, seats: Sequence[str]) -> int | None:
    """The seat to send the link to: the active seat when a friend elsewhere plays
    it, else ``None`` (nothing to send yet, or the game is over)."""
    kind = turn_kind(board, seats)
    if kind == "over" or not Seat.from_code(kind).is_friend:
        return None
    return board.state.seat
