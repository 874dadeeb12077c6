# ruff: noqa: E501 - HTML templates read better unwrapped
"""The page drawn from the screen model: each region's HTML, composed from the
features' HTML (``app.turn.html``, ``app.computer.html``, the games', the daily
challenge's, the tutorial's coach and the dialogs), and :class:`Renderer`, which writes
the regions that changed, tells the live region the news and settles the focus.

``render(screen)`` reads nothing but the ``Screen`` (every decision and every text
already made). Every dynamic text goes through ``esc``: player names are text, never
markup. Interactive elements are real <button>s carrying ``data-action`` (and
``data-arg``) for the page's one delegated listener.
"""

from __future__ import annotations

import dataclasses
import json

from app import screen as screen_model
from app.computer import html as computer_html
from app.computer.chances_view import render_chances
from app.core.commands import Cmd
from app.core.dom import (
    DIALOG,
    DIALOG_CLOSE,
    LOG,
    NOTICES,
    PLAYERS,
    REGIONS,
    SUPPLY,
    TOPBAR,
    TURN,
)
from app.core.html import esc
from app.core.names import esc_names, player_names
from app.core.session import Session
from app.core.words import LogView, log_view
from app.daily import ui as stats_ui
from app.dialog_table import render_body
from app.games import ui as games_ui
from app.screen import Game, Screen
from app.topbar import html as topbar_html
from app.topbar.view import TopBar
from app.turn import html as turn_html
from app.turn.view import first_target
from app.tutorial import coach
from app.tutorial.view import TutorialView
from skyline import Board


def names_of(s: Screen) -> tuple[str, ...]:
    """The players' names as shown: the sentences that name them isolate them
    (``esc_names``), as the name fields do with <bdi>."""
    return tuple(p.name for p in s.game.players) if s.game is not None else ()


def marks_of(g: Game) -> frozenset[str]:
    """The elements the hint's best action uses (computer.view.hint_marks) or the tutorial's
    step wants touched (coach.CoachView.marks)."""
    marks: frozenset[str] = frozenset()
    if g.hint is not None:
        marks |= g.hint.marks
    if g.coach is not None:
        marks |= g.coach.marks
    return marks


# ---------------------------------------------------------------------------- regions


def render(s: Screen) -> dict[str, str]:
    out = {
        TOPBAR: topbar_html.topbar(TopBar(s.labels, s.other_lang, s.status, s.menu_open,
                                            s.sound, s.game.players if s.game else None)),
        NOTICES: notices(s),
        DIALOG: dialog(s),
    }
    if s.game is None:
        return out
    out[TURN] = turn_panel(s, s.game)
    out[SUPPLY] = turn_html.supply(s.labels, s.game.yard, s.game.district, marks_of(s.game))
    out[PLAYERS] = players(s, s.game)
    out[LOG] = turn_html.log_panel(s.labels, s.game.log, names_of(s),
                                     render_chances(s.game.chances, names_of(s)))
    return out


def notices(s: Screen) -> str:
    items = []
    for i, n in enumerate(s.notices):
        items.append(
            f'<div class="notice n-{n.level}" data-testid="notice" data-key="{esc(n.key)}">'
            f'<p>{esc_names(n.text, names_of(s))}</p>{notice_button(n.button)}'
            f'<button type="button" class="x" id="dismiss-{i}" data-action="{Cmd.DISMISS}" data-arg="{i}" '
            f'aria-label="{esc(s.labels["btn.dismiss"])}">×</button></div>'
        )
    return "".join(items)


def notice_button(button) -> str:
    """The notice's own command, e.g. "Play here" or "Export": (action, arg, label)."""
    if not button:
        return ""
    action, arg, label = button
    return (
        f'<button type="button" class="notice-act" id="notice-{esc(action)}" data-action="{esc(action)}" '
        f'data-arg="{esc(arg)}">{esc(label)}</button>'
    )


def turn_panel(s: Screen, g: Game) -> str:
    L = s.labels
    turn = g.turn
    names = names_of(s)
    marks = marks_of(g)
    parts = [turn_html.turn_head(L, turn, names)]
    if g.coach is not None:
        parts.append(coach.render_coach(g.coach))
    parts += turn_html.turn_lines(L, turn, names, g.last_turns, g.scenario)
    if g.replay is not None:
        parts.insert(0, games_ui.render_replay(g.replay))
        if not turn.over:
            parts.append(turn_html.tray(L, turn.tray, turn.open_slots, marks))
        return "".join(parts)
    if g.corr is not None:
        parts.append(games_ui.render_corr(g.corr, names))
    if not turn.over:
        parts.append(turn_html.tray(L, turn.tray, turn.open_slots, marks))
        parts.append(turn_html.action_bar(L, turn, marks))
        parts.append(computer_html.turn_helpers(L, g.bot_bar, g.hint_available, g.hint, names))
    else:
        parts.append(turn_html.over_actions(L))
    return "".join(parts)


def players(s: Screen, g: Game) -> str:
    """The skylines; at the end of the game the scoring above them and the reviews below
    (the ranking and the winner's skyline come together, the long reviews after)."""
    L = s.labels
    names = names_of(s)
    parts = []
    if g.daily is not None:
        parts.append(stats_ui.render_daily(g.daily, L))
    if g.scoring is not None:
        parts.append(turn_html.scoring(L, g.scoring, names))
    if g.beat is not None:
        parts.append(turn_html.beat(g.beat))
    parts.append(turn_html.player_list(L, g.players, g.scoring is not None, marks_of(g)))
    if g.review is not None:
        parts.append(computer_html.review(L, g.review))
    if g.table_review is not None:
        parts.append(computer_html.table_review(g.table_review, names))
    return "".join(parts)


def dialog(s: Screen) -> str:
    d = s.dialog
    if d is None:
        return ""
    kind = d.kind
    body, closable = render_body(s.labels, d)
    close = (
        f'<button type="button" class="x" id="{DIALOG_CLOSE}" data-action="{Cmd.CLOSE}" '
        f'aria-label="{esc(s.labels["btn.close"])}">×</button>'
        if closable
        else ""
    )
    # A <dialog>: the page's JS opens it with showModal() (focus moves in and is trapped,
    # the page behind is inert) and gives focus back to the opener when it goes.
    return (
        f'<dialog class="dialog dlg-{kind}" aria-labelledby="dlg-title" data-testid="dialog-{kind}">'
        f'<div class="dlg-head"><h2 id="dlg-title">{esc(d.title)}</h2>{close}</div>'
        f'<div class="dlg-body">{body}</div></dialog>'
    )


# ---------------------------------------------------------------------------- the renderer


class Renderer:
    """Draws the session's state: the screen model, then the regions that changed."""

    def __init__(self, session: Session, tutorial: TutorialView) -> None:
        self.s = session
        self.tutorial = tutorial
        self.last_html: dict[str, str] = {}
        self._revealed: object = None  # the choice whose target render() scrolled to
        self._shown: object = None  # the scoreboard chip's request render() scrolled to
        self._replay_cache: tuple[tuple[str, int], Board] | None = None
        self._log_view: tuple[tuple, LogView] | None = None

    def _log_cached(self) -> LogView:
        assert self.s.board is not None
        key = (self.s.log_version, len(self.s.board.actions), self.s.texts.lang, id(self.s.board),
               tuple(sorted(self.s.page.seats.items())))
        if self._log_view is None or self._log_view[0] != key:
            names = player_names(
                self.s.page, [p.name for p in self.s.board.state.players], self.s.texts)
            view = log_view(self.s.log_events(), names, self.s.texts)
            self._log_view = (key, view)
        return self._log_view[1]

    def screen(self) -> screen_model.Screen:
        """What the player sees and may do now (see app.screen). During a replay the
        board shown is the replayed game at its step, and while a friend's turn from a
        link plays back the game at that step (the game itself is untouched)."""
        games = tuple(self.s.library.games.ordered())
        current = self.s.entry.id if self.s.entry is not None else None
        r = self.s.page.replay
        if r is not None:
            page = dataclasses.replace(self.s.page, seats=dict(r.seats), takes=[],
                                       selected=set(), choice=None, hint=None, review=None,
                                       beat=None)
            return screen_model.build_screen(page, self._board_at(r.record, r.step),
                                             self.s.texts, self.s.records.best,
                                             games=games, current=current,
                                             can_share=self.s.can_share())
        page, log = self.s.page, None
        board: Board | None = self.s.board
        playback = page.playback
        if playback is not None:  # the game as far as the friend's turn has been shown
            board = self._board_at(playback.record, playback.step)
            page = dataclasses.replace(page, takes=[], selected=set(), choice=None, hint=None)
        elif board is not None:
            log = self._log_cached()
        screen = screen_model.build_screen(page, board, self.s.texts,
                                           self.s.records.best, log=log, games=games,
                                           current=current, can_share=self.s.can_share(),
                                           daily=self.s.records.data["daily"],
                                           base=self.s.host.page_base())
        if self.s.tutorial is not None and screen.game is not None:
            coach = self.tutorial.view()
            text, seq = self.tutorial.announce(screen.announce, screen.announce_seq)
            game = dataclasses.replace(screen.game, coach=coach, chances=None,
                                       log=self.tutorial.log(screen.game.log))
            screen = dataclasses.replace(screen, game=game, announce=text, announce_seq=seq)
        return screen

    def render(self) -> None:
        """Write the regions that changed, tell the live region any news, then settle
        the focus: ``host.focus(id)`` after an event (None: keep it where it is; the
        host never leaves it on <body> when a region re-render or a dialog took it)."""
        screen = self.screen()
        regions = render(screen)
        self._send_cues()
        for name in REGIONS:
            html = regions.get(name, "")
            if self.last_html.get(name) != html:
                self.s.host.set_html(name, html)
                self.last_html[name] = html
        if screen.announce:
            self.s.host.announce(screen.announce_seq, screen.announce)
        self.s.host.focus(self.s.focus_id)
        self.s.focus_id = None
        self._reveal_choice(screen)
        self._reveal_shown_seat(screen)

    def _board_at(self, record: str, step: int) -> Board:
        """A recorded game after ``step`` actions (a replay's, a playback's), kept while
        the same one is shown."""
        key = (record, step)
        if self._replay_cache is None or self._replay_cache[0] != key:
            self._replay_cache = (key, games_ui.board_at(record, step))
        return self._replay_cache[1]

    def _reveal_shown_seat(self, screen: screen_model.Screen) -> None:
        """A tap on a scoreboard chip: that skyline into view once (on a phone the
        strip turns to it; web/js/layout.js keeps it there while the page redraws)."""
        shown = self.s.page.shown_seat
        if shown is self._shown:
            return
        self._shown = shown
        if any(p.shown for p in screen.players):
            self.s.host.reveal(f"skyline-{next(p.seat for p in screen.players if p.shown)}")

    def _send_cues(self) -> None:
        """What the latest actions did, once, before the regions change (the page's JS
        keeps a picture of what is about to go, then animates and sounds it); none
        during a replay."""
        page = self.s.page
        cues, page.cues = page.cues, []
        if cues and page.replay is None:
            self.s.host.cue(json.dumps({"sound": page.sound,
                                        "cues": [c.as_json() for c in cues]},
                                       separators=(",", ":")))

    def _reveal_choice(self, screen: screen_model.Screen) -> None:
        """A new tower or demolition choice: scroll its first target into view once."""
        choice = self.s.page.choice
        if choice is None or choice is self._revealed:
            self._revealed = choice
            return
        self._revealed = choice
        target = first_target(screen.players)
        if target is not None:
            self.s.host.reveal(target)
