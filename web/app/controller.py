"""The page's facade: host events (clicks, keys, link changes, the tab lock) become
commands, routed through the one command table (``web/commands.py``) to the part that
handles them; then the page renders and saves.

The page never decides a rule: legality, build planning, undo limits, scoring and the
log come from the engine; what the player sees and may do is decided by
``screen.build_screen`` from the typed page state (``page_state.PageState``).

The parts, each one responsibility:

- ``session`` (``web/session.py``): the open game, its entry in the game list,
  storage, notices, the render;
- ``play``: turn commands; ``computer``: computer seats, Hint, data fetches;
- ``links`` (``web/router.py``): ``#play?``, ``#game?`` and ``#daily?`` links, sharing;
- ``friends``: correspondence play; ``library``: the game list and the replay;
- ``daily`` (``web/challenge.py``): the daily challenge and the statistics;
- ``newgame``: the new-game dialog; ``tabs``: the game lock between tabs.

It talks to the browser only through the host port (``host_port.Host``), so it runs
unchanged in CPython with a fake host (``tests/web_fakes.py``). Hooks for the code
that paces computer play (``bots_ui``): ``attach(driver)`` (``driver.wake(delay)`` runs
after every handled event and every computer step), ``step_computer()`` and
``listeners`` (``f(controller, action)`` after every successful action).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app import screen as screen_model
from app.computer.seats import Computer, ComputerDriver
from app.core.commands import COMMANDS, REPLAY_KEYS, Arg, Cmd, Guard
from app.core.host_port import Host
from app.core.i18n import LANGS, pick_language
from app.core.page_state import PACES, Level, NewGameDialog
from app.core.session import Session, random_seed
from app.core.store import KEY_SAVE
from app.core.tabs import Tabs
from app.daily.challenge import DailyChallenge
from app.dialogs.newgame import NewGame
from app.games.friends import Friends
from app.games.library import GameLibrary
from app.games.links import LinkRouter, link_kind
from app.turn.play import Play
from app.tutorial.guide import Tutorial
from skyline import Action, Board

__all__ = ["KEY_SAVE", "Controller", "random_seed"]


class Controller:
    """One game page: the session and its parts, and the event entry point."""

    def __init__(self, host: Host, tables: dict[str, dict[str, str]],
                 browser_langs: tuple[str, ...] | list[str] = ("en",)) -> None:
        self.host = host
        self.browser_langs = tuple(browser_langs)
        self.session = Session(self, host, tables)
        self.play = Play(self)
        self.computer = Computer(self)
        self.links = LinkRouter(self)
        self.friends = Friends(self)
        self.library_ui = GameLibrary(self)
        self.daily = DailyChallenge(self)
        self.newgame = NewGame(self)
        self.tabs = Tabs(self)
        self.tutorial = Tutorial(self)
        self.parts: dict[str, Any] = {
            "session": self.session, "play": self.play, "computer": self.computer,
            "links": self.links, "friends": self.friends, "library": self.library_ui,
            "daily": self.daily, "newgame": self.newgame, "tabs": self.tabs,
            "tutorial": self.tutorial,
        }
        self.listeners: list[Callable[[Controller, Action], None]] = []
        self.timings: list[float] = []

    # ------------------------------------------------------------------ the session's state

    @property
    def board(self) -> Board | None:
        return self.session.board

    @property
    def page(self):
        return self.session.page

    @property
    def entry(self):
        return self.session.entry

    @property
    def texts(self):
        return self.session.texts

    @property
    def store(self):
        return self.session.store

    @property
    def library(self):
        return self.session.library

    @property
    def history(self):
        return self.session.history

    @property
    def think_ms(self) -> list[float]:
        return self.computer.think_ms

    def t(self, key: str, /, **params: object) -> str:
        return self.session.t(key, **params)

    def screen(self) -> screen_model.Screen:
        return self.session.screen()

    def render(self) -> None:
        self.session.render()

    def notify(self, message: str, level: str | Level = Level.INFO, **kwargs: Any) -> None:
        self.session.notify(message, level, **kwargs)

    def dispatch(self, action: Action) -> bool:
        return self.play.dispatch(action)

    def share_link(self) -> str:
        return self.links.share_link()

    # ------------------------------------------------------------------ computer seats

    def attach(self, driver: ComputerDriver) -> None:
        self.computer.attach(driver)

    def wake_driver(self, delay: int | None = None) -> None:
        self.computer.wake(delay)

    def computer_turn(self) -> bool:
        return self.computer.turn()

    def step_computer(self) -> float | None:
        return self.computer.step()

    def need_data(self, path: str, then: Callable[[], None]) -> None:
        self.computer.need_data(path, then)

    # ------------------------------------------------------------------ boot

    def boot(self, fragment: str = "") -> None:
        s = self.session
        s.check_settings()  # unreadable settings: kept aside, the player told
        lang = s.store.load_lang()
        if lang not in LANGS:
            lang = pick_language(list(self.browser_langs))
        s.texts.lang = lang
        pace = s.store.load_pace()
        if pace in PACES:
            s.page.pace = pace
        s.store.probe()  # tell at once if nothing can be saved
        s.load_records()
        s.page.tz_minutes = int(self.host.tz_minutes())
        s.library.load(self.host.now_iso())
        for copy, exc, kept in s.library.broken:
            key = "games.entry_broken" if kept else "notice.save_broken_lost"
            s.notify(key, Level.WARN, sticky=True, button=("export-save", copy,
                     "btn.export_save"), reason=s.error(exc), key=copy)
        s.load_history()
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

    def handle(
        self,
        kind: str,
        action: str | None,
        arg: str | None,
        key: str = "",
        form: dict | None = None,
        target_id: str | None = None,
        in_field: bool = False,
    ) -> None:
        """One DOM event, already reduced to its data-action / data-arg (see main.py)."""
        started = time.perf_counter()
        s = self.session
        s.focus_id = target_id
        s.page.rolled = ()  # a roll animates (and is announced) once, not on every render
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
                if action != Cmd.MENU:
                    s.page.menu_open = False  # a command from the menu (or beside it) closes it
                self.command(action, arg, form or {})
            else:
                return
        except Exception as exc:  # a bug must not cost the saved game
            self._crash(exc)
        self.computer.wake()
        s.render()
        self.timings.append((time.perf_counter() - started) * 1000)
        del self.timings[:-500]

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
                self.session.focus_id = "btn-menu"
                return True
            if page.dialog is not None:
                self.session.close_dialog()
                return True
            if page.replay is not None:
                page.replay = None
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
            self.library_ui.replay_step(REPLAY_KEYS[key], {})
            return True
        if key in ("?", "h", "H"):
            self.command(Cmd.RULES, None, {})
            return True
        return False

    def refused(self, guards: Guard) -> bool:
        """Whether the guards of a command refuse it now (saying why where a player
        would wonder)."""
        s = self.session
        page = s.page
        if guards & Guard.GAME:
            if page.dialog is None and self.computer.turn():
                return True  # the computer is playing this seat
            if page.replay is not None:
                return True  # a replay never changes the game
            if page.dialog is None and screen_model.friend_turn(page, s.board):
                s.notify("corr.not_yours", Level.WARN, name=s.game.state.player.name)
                return True
        if guards & (Guard.GAME | Guard.WRITES) and page.readonly:
            self.tabs.other_tab_notice()
            page.dialog = None
            return True
        if guards & (Guard.GAME | Guard.STARTS) and page.crashed:
            s.notify_crash()
            return True
        if guards & Guard.GAME:
            if page.dialog is not None or s.board is None:
                return True
            page.notices = [n for n in page.notices if n.sticky]
        return False

    def command(self, name: str, arg: str | None, form: dict) -> None:
        """Run the command ``name`` (a ``Cmd``) unless its guards refuse it."""
        try:
            cmd = COMMANDS[Cmd(name)]
        except (ValueError, KeyError):
            return  # not a command the controller handles
        if self.refused(cmd.guards) or not self.tutorial.allows(name, arg):
            return
        handler = getattr(self.parts[cmd.part], cmd.method)
        if cmd.arg is Arg.NUMBER:
            number = int(arg) if arg and arg.lstrip("-").isdigit() else -1
            result = handler(number)
        elif cmd.arg is Arg.TEXT:
            result = handler(arg)
        elif cmd.arg is Arg.FORM:
            result = handler(form)
        elif cmd.arg is Arg.NAME_FORM:
            result = handler(name, form)
        else:
            result = handler()
        if cmd.focus is not None and result is not False:
            self.session.focus_id = cmd.focus
        self.tutorial.after(name)
