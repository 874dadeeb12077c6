"""The page's shell: host events (clicks, keys, link changes, the tab lock, timer
ticks) become commands, routed through the command table the features give
(``commands()`` of each) to the handler; then the page renders (``app.render``).

The page never decides a rule: legality, build planning, undo limits, scoring and the
log come from the engine; what the player sees and may do is decided by
``screen.build_screen`` from the typed page state (``app.core.page_state``).

The rooms: ``app.core`` (the session: the open game, its entry in the game list,
storage, notices; the command names; the host port) and one package per feature:

- ``app.turn``: the turn's commands, views and HTML;
- ``app.computer``: computer seats, Hint, data fetches, the reviews, the pacing timer;
- ``app.games``: links (``#play?``, ``#game?``, ``#live?``, ``#daily?``) and sharing,
  friends elsewhere (by link, or live), the game list and the replay, the game lock between tabs;
- ``app.daily``: the daily challenge and the statistics;
- ``app.dialogs``: the new-game dialog, the small dialogs, the page's own commands;
- ``app.tutorial``: the guided first game;
- ``app.topbar``: the top bar and the scoreboard.

Features import only the core and the engine; where one must make another act it
emits an event (``app.core.events``) that :meth:`Controller.route` hands on. The
controller talks to the browser only through the host port (``host_port.Host``), so it
runs unchanged in CPython with a fake host (``tests/web_fakes.py``).

One crash path: every entry from the browser (a page event, ``event``; a timer's tick
and a host's late answer, ``run``) runs through it; a bug keeps the last good save, marks
the page crashed and says so (``_crash``). Hooks for the code that paces computer play
(``app.computer.pacer``): ``attach(driver)`` (``driver.wake(delay)`` runs after every
handled event and every computer step), ``run(callback)`` and ``step_computer()``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.computer.chances import Chances
from app.computer.seats import Computer, ComputerDriver
from app.core.bridge import PageEvent
from app.core.commands import REPLAY_KEYS, Cmd, Command, Guard
from app.core.dom import MENU_BUTTON
from app.core.events import (
    Event,
    InviteLive,
    OpenGameLink,
    OpenNewGame,
    OpenReplay,
    PlayAction,
    ShowHint,
    StartDaily,
    TabLock,
    TookControl,
    TurnToFriend,
)
from app.core.host_port import GuardedHost, Host
from app.core.page_state import Level, NewGameDialog
from app.core.session import Session, random_seed
from app.core.store import KEY_GAME, KEY_SAVE
from app.daily.challenge import DailyChallenge
from app.dialogs.newgame import NewGame
from app.dialogs.page import PageCommands
from app.games.friends import Friends
from app.games.library import GameLibrary
from app.games.links import LinkRouter, link_kind
from app.games.live import Live
from app.games.tabs import Tabs
from app.render import Renderer
from app.turn.play import Play
from app.turn.playback import PlaybackSteps
from app.turn.table import Table
from app.tutorial.guide import Tutorial
from app.tutorial.view import TutorialView
from skyline import Board

__all__ = ["KEY_SAVE", "Controller", "random_seed"]

# Why a command is refused, besides its rule's reasons: the ones the refusal acts on (a
# notice), and the page-wide states no rule greys for (the crash notice and an open
# dialog say it themselves).
FRIEND_TURN = "why.friend"
READONLY = "why.readonly"
CRASHED = "notice.crash"
DIALOG_OPEN = "dialog-open"


class Controller:
    """One game page: the session and its parts, and the event entry point."""

    def __init__(self, host: Host, tables: dict[str, dict[str, str]],
                 browser_langs: tuple[str, ...] | list[str] = ("en",)) -> None:
        self.host = host
        self.browser_langs = tuple(browser_langs)
        self._entries = 0  # entries running (one inside another is that one's to catch)
        # the features see the host with its late answers run through the crash path
        self.session = s = Session(GuardedHost(host, self.run), tables)
        emit = self.route
        self.play = Play(s, emit)
        self.playback = PlaybackSteps(s)
        self.computer = Computer(s, emit)
        self.chances = Chances(s, emit)
        self.friends = Friends(s)
        self.tabs = Tabs(s, emit)
        self.links = LinkRouter(s, emit, self.tabs, self.friends)
        self.library_ui = GameLibrary(s)
        self.daily = DailyChallenge(s)
        self.newgame = NewGame(s, emit)
        self.live = Live(s)  # it follows the game before each render
        self.page_commands = PageCommands(s)
        self.table = Table(s)
        self.tutorial = Tutorial(s, emit)
        self.renderer = Renderer(s, TutorialView(s))
        s.renderer = self.renderer.render
        self.commands: dict[Cmd, Command] = {}  # every command the page offers, by feature
        for feature in (self.play, self.computer, self.chances, self.links, self.friends,
                        self.library_ui, self.daily, self.newgame, self.page_commands,
                        self.tabs, self.tutorial, self.table, self.live):
            self.commands.update(feature.commands())
        self.timings: list[float] = []

    # ------------------------------------------------------------------ the session's state

    @property
    def board(self) -> Board | None:
        return self.session.board

    # the session's parts, as the features' ports name them
    page = property(lambda self: self.session.page)
    texts = property(lambda self: self.session.texts)
    think_ms = property(lambda self: self.computer.think_ms)

    def render(self) -> None:
        self.session.render()

    # ------------------------------------------------------------------ events between features

    def route(self, event: Event) -> object:
        """What one feature asks of another (``app.core.events``), handed on here."""
        match event:
            case PlayAction(action):
                return self.play.dispatch(action)
            case TurnToFriend():
                self.friends.open_send_dialog()
            case TabLock(result):
                self.handle("tab", result, None)
            case TookControl():
                self.links.open_pending()
            case OpenGameLink(fragment, link):
                self.friends.open_game_link(fragment, link)
            case InviteLive():
                self.live.invite()
            case StartDaily(day):
                self.daily.start(day)
            case OpenNewGame():
                self.newgame.open()
            case ShowHint():
                self.computer.show_hint()
            case OpenReplay(step):
                self.library_ui.replay_open_game(step)
        return None

    # ------------------------------------------------------------------ computer seats

    def attach(self, driver: ComputerDriver) -> None:
        self.computer.attach(driver)

    def computer_turn(self) -> bool:
        return self.computer.turn()

    def step_computer(self) -> float | None:
        return self.computer.step()

    step_playback = property(lambda self: self.playback.step)  # a friend's turn from a link

    def need_data(self, path: str, then: Callable[[], None]) -> None:
        self.computer.need_data(path, then)

    def daily_expert(self, day: str) -> int | None:
        """The expert's score on the daily challenge of ``day``, if it has been played."""
        return self.session.records.daily_expert(day)

    def keep_daily_expert(self, day: str, points: int) -> None:
        """Keep it with the day's record (in memory only in a tab that only watches)."""
        s = self.session
        s.records.keep_daily_expert(day, points, s.store, write=not s.page.readonly)

    def chances_wanted(self) -> bool:
        return self.chances.wanted()

    # ------------------------------------------------------------------ boot

    def boot(self, fragment: str = "") -> None:
        s = self.session
        s.load_stores(self.browser_langs)
        had_save = s.load_saved_game()
        link_error = self.links.open(fragment, quiet=s.board is None)
        if s.board is None:
            s.start(s.default_options())
            if s.page.dialog is None:
                self.newgame.open(first=True)
                welcome = s.page.dialog
                assert isinstance(welcome, NewGameDialog)
                # shown inside the welcome dialog (a notice would be hidden behind it)
                welcome.notice = link_error
        if link_error is not None and not isinstance(s.page.dialog, NewGameDialog):
            s.notify("notice.bad_link_new", Level.ERROR, reason=link_error)
        elif not had_save:
            s.save()
        s.keep_games()
        self.tutorial.resume()
        s.render()

    # ------------------------------------------------------------------ events

    def event(self, event: PageEvent) -> None:
        """One page event from the browser (``main.dispatch``), through the crash path."""
        self.run(lambda: self._event(event))

    def _event(self, event: PageEvent) -> None:
        match event.kind:
            case "hashchange":
                self.handle("hashchange", None, event.hash)
            case "storage":  # another tab wrote a game: a read-only tab shows it, the list too
                if event.key == KEY_SAVE or event.key.startswith(KEY_GAME):
                    self.handle("tab", "saved", event.key)
            case "live":  # the live table: a message, a device came or went, a tick
                self.live.event(event)
                self.computer.wake()
                self.session.render()
            case "saved":  # the page's answer about a save (refused: another tab wrote, full)
                self.host.saved(event.save_id, event.outcome)
                self.session.render()
            case "submit":
                self.handle("submit", event.action, None, form=event.form or {})
            case "keydown":
                self.handle("keydown", None, None, key=event.key, in_field=event.in_field)
            case _:
                self.handle(event.kind, event.action, event.arg, form=event.form,
                            target_id=event.target_id)

    def handle(
        self,
        kind: str,
        action: str | None,
        arg: str | None,
        key: str = "",
        form: dict[str, str] | None = None,
        target_id: str | None = None,
        in_field: bool = False,
    ) -> None:
        """One DOM event, already reduced to its data-action / data-arg (``event``)."""
        started = time.perf_counter()
        s = self.session
        s.focus_id = target_id
        s.page.rolled = ()  # a roll animates (and is announced) once, not on every render
        self._entries += 1
        try:
            if kind == "keydown":
                if not self._key(key, in_field):
                    return
            elif kind == "hashchange":
                if arg and link_kind(arg) is not None:
                    self.links.open(arg)
            elif kind == "tab" and action:  # about the game: the one waiting in a tutorial
                self.tutorial.aside(lambda: self.tabs.event(action, arg))
            elif kind in ("click", "change", "submit") and action:
                if action == Cmd.NEW_GAME_CHANGE and kind != "change":
                    return
                if action not in (Cmd.MENU, Cmd.SOUND):
                    # a command from the menu (or beside it) closes it; the Sound switch
                    # keeps it open, showing the switch's new state
                    s.page.menu_open = False
                if not self.playback.stopped_by(action):
                    self.command(action, arg, form or {})
            else:
                return
        except Exception as exc:  # a bug must not cost the saved game
            self._crash(exc)
        finally:
            self._entries -= 1
        self.computer.wake()
        s.render()
        self.timings.append((time.perf_counter() - started) * 1000)
        del self.timings[:-500]

    def run(self, callback: Callable[[], object]) -> None:
        """The crash path of every entry from the browser: a page event as a whole, a
        timer's tick, a host's late answer (``GuardedHost``); inside another, that one's."""
        if self._entries:
            callback()
            return
        self._entries += 1
        try:
            callback()
        except Exception as exc:  # a bug must not cost the saved game
            self.session.page.skipping = False
            self._crash(exc)
            self.session.render()
        finally:
            self._entries -= 1

    def _crash(self, exc: Exception) -> None:
        """An unexpected exception inside an action: the game in memory may be half
        updated, so it is not saved; the player may reload the last save."""
        self.host.report(f"skyline: {type(exc).__name__}: {exc}")
        page = self.session.page
        page.crashed = True
        page.choice = None
        self.session.notify_crash()

    def _key(self, key: str, in_field: bool) -> bool:
        page = self.session.page
        if key == "Escape":
            if page.menu_open:
                page.menu_open = False
                self.session.focus_id = MENU_BUTTON
                return True
            if page.dialog is not None:
                self.page_commands.close_dialog()
                return True
            if page.replay is not None or page.playback is not None:
                page.replay = page.playback = None  # a friend's turn: the game as it is
                return True
            if page.choice:
                page.choice = None
                return True
            if page.notices:  # the newest notice goes (each one also has its × button)
                self.session.dismiss(len(page.notices) - 1)
                return True
            return False
        if in_field or page.dialog is not None:
            return False
        if page.replay is not None and key in REPLAY_KEYS:
            self.command(REPLAY_KEYS[key], None, {})  # by its rule, like its button
            return True
        if key in ("?", "h", "H"):
            self.command(Cmd.RULES, None, {})
            return True
        return False

    def refusal(self, name: Cmd, arg: str | None = None) -> str | None:
        """Why the command ``name`` (on a control whose ``data-arg`` is ``arg``) would be
        refused now (None: it would run); changes nothing. First its rule, the view's (not
        asked under a dialog), then the guards: another tab, a crash, a dialog open."""
        page, board, cmd = self.session.page, self.session.board, self.commands[name]
        game = cmd.guards & Guard.GAME
        if cmd.rule is not None and board is not None and not (game and page.dialog is not None):
            reason = cmd.rule(page, board, arg)
            if reason is not None:
                return reason
        if cmd.guards & (Guard.GAME | Guard.WRITES) and page.readonly:
            return READONLY
        if cmd.guards & (Guard.GAME | Guard.STARTS) and page.crashed:
            return CRASHED
        if game and (page.dialog is not None or board is None):
            return DIALOG_OPEN
        return None

    def refused(self, name: Cmd, arg: str | None = None) -> bool:
        """Whether the command ``name`` is refused now (:meth:`refusal`), saying why where
        a player would wonder; a game command that runs clears the passing notices."""
        reason, s = self.refusal(name, arg), self.session
        page = s.page
        if reason == FRIEND_TURN:
            s.notify("corr.not_yours", Level.WARN, name=s.game.state.player.name)
        elif reason == READONLY:
            self.tabs.other_tab_notice()
            page.dialog = None
        elif reason == CRASHED:
            s.notify_crash()
        elif reason is None and self.commands[name].guards & Guard.GAME:
            page.notices = [n for n in page.notices if n.sticky]
        return reason is not None

    def command(self, name: str, arg: str | None, form: dict) -> None:
        """Run the command ``name`` (a ``Cmd``) unless it is refused."""
        try:
            cmd = self.commands[Cmd(name)]
        except (ValueError, KeyError):
            return  # not a command the controller handles
        if self.refused(Cmd(name), arg) or not self.tutorial.allows(name, arg):
            return
        result = cmd.run(arg, form)
        if cmd.focus is not None and result is not False:
            self.session.focus_id = cmd.focus
        self.tutorial.after(name)
