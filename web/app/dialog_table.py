"""The table of dialogs: each kind's page state, view builder and body, from the
features that own them (the new-game form and the small dialogs, the game list, the
statistics), so the screen and the render find a dialog's view and HTML in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from app.core.labels import Labels
from app.core.page_state import (
    ConfirmLinkDialog,
    DialogContext,
    DialogState,
    ExportDialog,
    GamesDialog,
    NewGameDialog,
    RulesDialog,
    ShareDialog,
    StatsDialog,
)
from app.daily import ui as stats_ui
from app.daily.state import ConfirmDailyDialog
from app.dialogs import rules_panel
from app.dialogs.ui import (
    ConfirmLinkView,
    ExportView,
    NewGameView,
    RulesView,
    ShareView,
    confirm_link,
    confirm_link_view,
    export_box,
    export_view,
    new_game_form,
    new_game_view,
    rules_view,
    share_box,
    share_view,
)
from app.games import ui as games_ui
from app.games.state import ClaimDialog, SendDialog

DialogView = (NewGameView | RulesView | ConfirmLinkView | stats_ui.ConfirmDailyView | ShareView
              | ExportView | stats_ui.StatsView | games_ui.GamesView | games_ui.SendView
              | games_ui.ClaimView)



def _send_view(d: SendDialog, c: DialogContext) -> games_ui.SendView | None:
    if c.board is None:
        return None
    return games_ui.send_view(d, c.board, c.texts, c.can_share, c.page.friend_seats)



@dataclass(frozen=True)
class DialogSpec:
    """One dialog: ``build(state, context)`` gives its view (None: not shown now),
    ``render(labels, view)`` its body's HTML; the first-visit welcome form cannot be
    closed (``closable``)."""

    kind: str
    state: type
    build: Callable[[Any, DialogContext], Any]
    render: Callable[[Labels, Any], str]
    closable: Callable[[Any], bool] = lambda view: True


DIALOGS: tuple[DialogSpec, ...] = (
    DialogSpec("newgame", NewGameDialog, new_game_view, lambda s, v: new_game_form(s, v),
               closable=lambda view: not view.first),
    DialogSpec("rules", RulesDialog, rules_view, lambda s, v: rules_panel.render(v)),
    DialogSpec("confirm_link", ConfirmLinkDialog, confirm_link_view,
               lambda s, v: confirm_link(s, v)),
    DialogSpec("confirm_daily", ConfirmDailyDialog,
               lambda d, c: stats_ui.confirm_daily_view(d, c.texts.t),
               lambda s, v: stats_ui.render_confirm_daily(v)),
    DialogSpec("stats", StatsDialog, lambda d, c: stats_ui.stats_view(d, c.texts.t),
               lambda s, v: stats_ui.render_stats(v)),
    DialogSpec("share", ShareDialog, share_view, lambda s, v: share_box(s, v)),
    DialogSpec("export", ExportDialog, export_view, lambda s, v: export_box(s, v)),
    DialogSpec("games", GamesDialog,
               lambda d, c: games_ui.games_view(c.page, d, c.games, c.current, c.texts),
               lambda s, v: games_ui.render_games(v)),
    DialogSpec("send", SendDialog, _send_view, lambda s, v: games_ui.render_send(v)),
    DialogSpec("claim", ClaimDialog, lambda d, c: games_ui.claim_view(d, c.texts),
               lambda s, v: games_ui.render_claim(v)),
)
_BY_STATE: Mapping[type, DialogSpec] = MappingProxyType({d.state: d for d in DIALOGS})
_BY_KIND: Mapping[str, DialogSpec] = MappingProxyType({d.kind: d for d in DIALOGS})


def dialog_kind(dialog: DialogState | None) -> str | None:
    """The kind of an open dialog's state (None: no dialog)."""
    return None if dialog is None else _BY_STATE[type(dialog)].kind


def dialog_view(c: DialogContext) -> Any:
    """The view of the page's open dialog (None: none, or none to show now)."""
    d = c.page.dialog
    return None if d is None else _BY_STATE[type(d)].build(d, c)


def render_body(labels: Labels, view: Any) -> tuple[str, bool]:
    """The HTML body of a dialog's view, and whether it may be closed."""
    spec = _BY_KIND[view.kind]
    return spec.render(labels, view), spec.closable(view)
