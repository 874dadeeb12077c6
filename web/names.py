"""Player names as shown: a name the player never typed ("Player 2", a computer seat's
level "Expert") is shown in the player's language wherever it comes from (the new-game
dialog, a save, a link); a typed name is shown as typed."""

from __future__ import annotations

from collections.abc import Callable

from i18n import Texts
from page_state import PageState, Seat, seat_of_form

from skyline import COMPUTER_LEVELS


def default_name(t: Callable[..., str], seat: int, kind: Seat, kinds) -> str:
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


def player_names(page: PageState, names, texts: Texts, kinds=None) -> tuple[str, ...]:
    """The names as shown: defaults in the player's language, typed names as typed.
    ``kinds``: the seats (default: the page's), or the new-game form's values."""
    if kinds is None:
        kinds = [page.seat_kind(i) for i in range(len(names))]
    kinds = [k if isinstance(k, Seat) else seat_of_form(k) for k in kinds]
    return tuple(
        default_name(texts.t, i, kinds[i], kinds) if is_default_name(texts, n, i, kinds[i])
        else n
        for i, n in enumerate(names)
    )
