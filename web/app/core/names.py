"""Player names as shown: a name the player never typed ("Player 2", a computer seat's
level "Expert") is shown in the player's language wherever it comes from (the new-game
dialog, a save, a link); a typed name is shown as typed. A name the engine refuses
(``skyline.check_name``) is explained by its own reason wherever it came from
(``names_error``, ``game_record_error``, ``record_names_error``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape

from app.core.i18n import Text, Texts
from app.core.page_state import PageState, seat_of_form
from skyline import COMPUTER_LEVELS, Seat


def default_name(t: Callable[..., str], seat: int, kind: Seat, kinds: Sequence[Seat]) -> str:
    """The name of a seat whose player typed none: "Player 2" (a person here or a
    friend elsewhere), or a computer seat's level ("Expert"; "Expert 3" when several
    seats play that level)."""
    if kind.level is None:
        return t("newgame.default_name", n=seat + 1)
    word = t("seat.level." + kind.level)
    if sum(1 for k in kinds if k == kind) > 1:
        return t("seat.bot_name", level=word, n=seat + 1)
    return word


def is_default_name(texts: Texts, name: str | None, seat: int, kind: Seat) -> bool:
    """``name`` is a default the player never typed, in any language of the tables:
    "Player 2"/"Spieler 2" for seat 1; for a computer seat also any level's name."""
    if name is None:
        return True
    name = name.strip()
    for lang in texts.tables:
        t = Texts(texts.tables, lang).t
        if name == t("newgame.default_name", n=seat + 1):
            return True
        if kind.is_computer:
            for level in COMPUTER_LEVELS:
                word = t("seat.level." + level)
                if name in (word, t("seat.bot_name", level=word, n=seat + 1)):
                    return True
    return False


def esc_names(text: object, names: Iterable[str]) -> str:
    """``text`` as HTML (escaped), every player name in it isolated in ``<bdi>``: a
    right-to-left name (or one ending in digits or punctuation) keeps the sentence
    around it in its order. A name counts where it stands as a whole (no letter or digit
    glued to it); the longest name wins where two overlap.

    >>> esc_names("Ann's turn <Ann>", ["Ann", "An"])
    '<bdi>Ann</bdi>&#x27;s turn &lt;<bdi>Ann</bdi>&gt;'
    """
    text = str(text)
    found = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    if not found:
        return escape(text, quote=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, found)) + r")(?!\w)")
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[last:match.start()], quote=True))
        out.append(f"<bdi>{escape(match.group(), quote=True)}</bdi>")
        last = match.end()
    out.append(escape(text[last:], quote=True))
    return "".join(out)


def player_names(page: PageState, names: Sequence[str | None], texts: Texts,
                 kinds: Sequence[Seat | str] | None = None) -> tuple[str, ...]:
    """The names as shown: defaults in the player's language, typed names as typed.
    ``kinds``: the seats (default: the page's), or the new-game form's values."""
    if kinds is None:
        kinds = [page.seat_kind(i) for i in range(len(names))]
    seats = [k if isinstance(k, Seat) else seat_of_form(k) for k in kinds]
    return tuple(
        default_name(texts.t, i, seats[i], seats)
        if n is None or is_default_name(texts, n, i, seats[i]) else n
        for i, n in enumerate(names)
    )


#: ``skyline.check_name``'s reasons: each has its words, ``error.name.<reason>``.
NAME_REASONS = ("not_text", "length", "control", "bidi", "invisible")
#: The other reasons of an ``OptionsError``/``LinkError`` ``names``: the list of names.
NAMES_REASONS = ("count", "missing", "encoding")


def refused_name(params: Mapping[str, object], key: str) -> Text | None:
    """Why one player's name is refused, as the text ``key`` with ``n`` (the player,
    from 1) and ``why`` (``error.name.<reason>``); None when ``params`` (an engine
    error's) are not a name's refusal.

    >>> refused_name({"reason": "control", "seat": 1}, "error.option.name")
    Text(key='error.option.name', params=(('n', 2), ('why', Text(key='error.name.control', \
params=()))))
    """
    reason, seat = params.get("reason"), params.get("seat")
    if reason not in NAME_REASONS or isinstance(seat, bool) or not isinstance(seat, int):
        return None
    return Text(key, (("n", seat + 1), ("why", Text(f"error.name.{reason}"))))


def names_error(params: Mapping[str, object]) -> Text:
    """The words of an ``OptionsError`` or a share link's ``LinkError`` ``names`` (the
    new-game dialog, ``#play?``): the refused name and why, or what is wrong with the
    list of names."""
    refused = refused_name(params, "error.option.name")
    if refused is not None:
        return refused
    reason = params.get("reason")
    return Text(f"error.option.names.{reason}" if reason in NAMES_REASONS
                else "error.option.names")


def game_record_error(params: Mapping[str, object]) -> Text:
    """The words of a game link's ``LinkError`` ``game_record`` by the record's own
    failure (``params["record_code"]``): a refused name, other invalid options, an
    illegal move or a record that cannot be read."""
    code = params.get("record_code")
    if code == "record_options":
        if params.get("field") == "names":
            refused = refused_name(params, "error.option.game_name")
            if refused is not None:
                return refused
        return Text("error.option.game_options")
    if code in ("record_size", "record_format", "record_magic", "record_field", "record_type"):
        return Text("error.option.game_unreadable", (("why", Text(f"error.record.{code}")),))
    return Text("error.option.game_record")


def record_names_error(params: Mapping[str, object]) -> Text | None:
    """The words of a save's or a record's ``record_options`` error when a name is the
    cause (a fragment, like the other ``error.record.*``); None otherwise."""
    if params.get("field") != "names":
        return None
    return refused_name(params, "error.record.name")
