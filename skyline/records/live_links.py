"""The invitation link of a live table: the game and the room to meet in.

A live link is the page address plus the fragment ``live?1.<secret>.<data>``:

- ``1`` is the format version (:data:`LIVE_LINK_VERSION`);
- ``<secret>`` is the room secret, 22 to 64 of ``A-Z a-z 0-9 - _``
  (:data:`SECRET_PATTERN`, :func:`is_secret`). The devices that hold it meet in the
  same room; the page makes one with ``secrets.token_urlsafe(16)`` (22 characters, 128
  random bits) when a live table opens. Whoever has the link can join the table: it is
  shared like a key;
- ``<data>`` is exactly the data part of the game link ``game?1.<data>`` that
  :func:`~skyline.records.game_links.make_game_link` gives for the same game, seats and
  nonce (checksum, DEFLATE, base64url; see :mod:`skyline.records.game_links`), so a
  device that opens the invitation has the whole game and its id before it meets anyone.

:func:`parse_live_link` is total: it returns a :class:`LiveLink` or raises
:class:`~skyline.records.links.LinkError`. Checks in order, each with its ``code``:

==================  =====================================================================
``link``            not text (``reason`` ``not_text``), longer than
                    :data:`MAX_LIVE_LINK_CHARS` (``too_long``, with ``limit``, checked
                    before anything else), not a live link (``not_live``), nothing
                    after its ``?`` (``empty``), a version without a secret or without
                    data (``incomplete``), no version number (``malformed``)
``game_version``    a format version this engine does not know (``params["version"]``)
``live_secret``     the room secret is missing or is not 22 to 64 of ``A-Z a-z 0-9 - _``
``game_*``          the data part, with the codes and params of
                    :func:`~skyline.records.game_links.parse_game_link` (``game_encoding``,
                    ``game_checksum``, ``game_size``, ``game_data``, ``game_seats``,
                    ``game_record``)
==================  =====================================================================

>>> from skyline import Board, is_game_link, make_game_link
>>> board = Board.new(["Ann", "Bo"], seed="demo"); board.push_text("tGGU")
>>> secret = "Q2hhbmdlIHRoaXMgc2VjcmV0"
>>> text = make_live_link(board, ("here", "friend"), "k3Xq9a", secret)
>>> text.startswith("live?1." + secret + ".")
True
>>> live = parse_live_link("https://x.example/#" + text)
>>> live.secret == secret, live.game.board.state == board.state, live.game.nonce
(True, True, 'k3Xq9a')
>>> make_game_link(board, ("here", "friend"), "k3Xq9a").partition(".")[2] == \\
...     text.rpartition(".")[2]
True
>>> is_live_link(text), is_live_link("#game?1.abc"), is_game_link(text)
(True, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ..rules import Board
from ..rules.errors import coded_only
from .game_links import (
    GAME_LINK_PATH,
    MAX_ADDRESS_CHARS,
    MAX_GAME_LINK_CHARS,
    GameLink,
    make_game_link,
    parse_game_data,
    versioned_body,
)
from .links import LinkError, after_hash

LIVE_LINK_PATH = "live"
LIVE_LINK_VERSION = 1
#: A room secret's length: ``secrets.token_urlsafe(16)`` gives the shortest.
MIN_SECRET_CHARS = 22
MAX_SECRET_CHARS = 64
SECRET_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{{MIN_SECRET_CHARS},{MAX_SECRET_CHARS}}}")
#: A live link longer than this is refused unread: a game link's limit
#: (:data:`~skyline.records.game_links.MAX_GAME_LINK_CHARS`, the page's address and the
#: longest game's data) with ``live`` for ``game`` and the longest secret and its dot added,
#: so the live link of every legal game is read.
MAX_LIVE_LINK_CHARS = (MAX_GAME_LINK_CHARS - len(GAME_LINK_PATH) + len(LIVE_LINK_PATH)
                       + MAX_SECRET_CHARS + len("."))


class LiveLink(NamedTuple):
    """What a live link carries: the game, as a game link gives it, and the room secret."""

    game: GameLink
    secret: str


def is_secret(text: object) -> bool:
    """Whether ``text`` is a room secret: 22 to 64 of ``A-Z a-z 0-9 - _``.

    >>> import secrets
    >>> is_secret(secrets.token_urlsafe(16)), is_secret("short"), is_secret(None)
    (True, False, False)
    """
    return isinstance(text, str) and SECRET_PATTERN.fullmatch(text) is not None


def make_live_link(board: Board, seats: Sequence[str], nonce: str, secret: str) -> str:
    """The fragment (without ``#``) of the invitation to the live table of ``board``.

    Raises ``ValueError`` for seats that do not fit the game or a bad nonce (as
    :func:`~skyline.records.game_links.make_game_link`) and for a secret that is not one
    (:func:`is_secret`).
    """
    if not is_secret(secret):
        raise ValueError("secret: expected 22 to 64 letters, digits, '-' or '_'")
    data = make_game_link(board, seats, nonce).partition(".")[2]
    link = f"{LIVE_LINK_PATH}?{LIVE_LINK_VERSION}.{secret}.{data}"
    if len(link) > MAX_LIVE_LINK_CHARS - MAX_ADDRESS_CHARS:
        # cannot happen (make_game_link refuses such a game first): never hand out a
        # link that parse_live_link would refuse
        raise ValueError("live link: the game is longer than a link may carry")
    return link


def is_live_link(text: object) -> bool:
    """Whether ``text`` (a whole address or its fragment) looks like a live link (its
    path is ``live``), so the page sends it to :func:`parse_live_link`."""
    if not isinstance(text, str):
        return False
    return after_hash(text).startswith(LIVE_LINK_PATH + "?")


def parse_live_link(text: object) -> LiveLink:
    """Read a live link (see the module doc); raises :class:`LinkError` only."""
    return coded_only(LinkError, "the live link could not be read", _parse_live_link, text)


def _parse_live_link(text: object) -> LiveLink:
    after = versioned_body(text, LIVE_LINK_PATH, LIVE_LINK_VERSION, MAX_LIVE_LINK_CHARS,
                           "live link", "table")
    secret, dot, data = after.partition(".")
    if not is_secret(secret):
        raise LinkError("live_secret", "the live link's room secret is missing or damaged")
    if not (dot and data):
        raise LinkError("link", "the live link has no game", reason="incomplete")
    return LiveLink(parse_game_data(data), secret)
