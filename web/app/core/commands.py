"""Every command the page offers, named once: the views write these names into
``data-action`` / ``data-submit``, ``web/js/events.js`` sends them back with each event, and
each feature maps the names it handles to a :class:`Command` (its handler, how the
handler's argument is read from the event, its guards and its availability rule), so no
command name is a literal in more than one place.

>>> number_arg(print).run("7", {})
7
>>> plain(lambda: "done").run("ignored", {})
'done'
>>> f'data-action="{Cmd.END}"'
'data-action="end"'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Flag, StrEnum, auto
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from app.core.page_state import PageState
    from skyline import Board


class Cmd(StrEnum):
    """A command's name, as the page's HTML carries it."""

    # turn commands (app.turn)
    TAKE = "take"
    UNTAKE = "untake"
    DISTRICT = "district"
    DIE = "die"
    ROLL = "roll"
    BUILD = "build"
    DEMOLISH = "demolish"
    ABANDON = "abandon"
    END = "end"
    UNDO = "undo"
    CANCEL = "cancel"
    COLUMN = "col"
    TILE = "tile"
    SHOW_SEAT = "show-seat"  # a scoreboard chip: that player's skyline into view
    # computer players and hints (app.computer)
    BOT_SKIP = "bot-skip"
    BOT_PACE = "bot-pace"  # the computer's pace (a select: normal, fast, instant)
    BOT_HINT = "bot-hint"
    CHANCES_SHOW = "chances-show"  # the chances chart beside the log: on or off
    CHANCES_OPEN = "chances-open"  # a point of the chart: the replay at that turn
    # games and dialogs (app.dialogs, app.daily, app.games.links)
    NEW_GAME = "newgame"
    NEW_GAME_CHANGE = "ng-change"
    NEW_GAME_START = "ng-start"
    LINK_ACCEPT = "link-accept"
    DAILY = "daily"
    DAILY_ACCEPT = "daily-accept"
    DAILY_COPY = "daily-copy"
    STATS = "stats"
    SHARE = "share"
    RULES = "rules"
    RULES_GOTO = "rules-goto"
    RULES_EXPORT = "rules-export"  # the open game's export, offered in the rules
    MENU = "menu"  # the top bar's menu on a narrow screen: open or close
    LANG = "lang"
    SOUND = "sound"  # the page's sounds: on or off (remembered)
    CLOSE = "close"
    DISMISS = "dismiss"
    # tabs and faults (app.games.tabs, app.dialogs.page)
    TAKE_CONTROL = "take-control"
    RELOAD_SAVED = "reload-saved"
    EXPORT_SAVE = "export-save"
    # the game list and the replay (app.games)
    GAMES = "games"
    GAME_OPEN = "game-open"
    GAME_REPLAY = "game-replay"
    GAME_RENAME = "game-rename"
    GAME_RENAME_CANCEL = "game-rename-cancel"
    GAME_RENAME_SAVE = "game-rename-save"
    GAME_DELETE = "game-delete"
    GAME_UNDELETE = "game-undelete"
    GAME_EXPORT = "game-export"
    GAME_IMPORT = "game-import"  # opens the file picker (web/js/files.js): no handler here
    GAME_IMPORT_TEXT = "game-import-text"
    REPLAY_FIRST = "replay-first"
    REPLAY_BACK = "replay-back"
    REPLAY_NEXT = "replay-next"
    REPLAY_LAST = "replay-last"
    REPLAY_ROUND = "replay-round"
    REPLAY_CLOSE = "replay-close"
    # correspondence play (app.games.friends)
    CORR_SEND = "corr-send"
    CORR_COPY = "corr-copy"
    CORR_SHARE = "corr-share"
    CORR_QR = "corr-qr"
    CORR_CLAIM = "corr-claim"
    # live tables (app.games.live)
    LIVE_INVITE = "live-invite"
    # the guided first game (app.tutorial)
    TUTORIAL = "tutorial"  # Learn to play: start it
    TUTORIAL_NEXT = "tutorial-next"
    TUTORIAL_LEAVE = "tutorial-leave"
    TUTORIAL_PLAY = "tutorial-play"  # leave it and open the new-game dialog


class Guard(Flag):
    """When a command is refused (checked by the controller before its handler runs)."""

    NONE = 0
    #: changes the game: refused during a computer's or a friend's turn, in a replay,
    #: with a dialog open, in a read-only tab and after a crash
    GAME = auto()
    #: starts a game or changes the list: refused in a read-only tab (and after a crash
    #: for starts)
    WRITES = auto()
    STARTS = auto()


#: A command's availability rule: None when it may run on this page state and board (and
#: the control's ``data-arg``, for a control of one row of a list), else the reason it may
#: not (a string-table key: the turn panel shows it beside the button).
Rule = Callable[["PageState", "Board", "str | None"], "str | None"]

#: The form an event sends (the new-game dialog's fields, a select's value).
Form = dict[str, str]

A = TypeVar("A")


def _nothing(arg: str | None, form: Form) -> None:
    return None


def _number(arg: str | None, form: Form) -> int:
    return int(arg) if arg and arg.lstrip("-").isdigit() else -1


def _text(arg: str | None, form: Form) -> str | None:
    return arg


def _form(arg: str | None, form: Form) -> Form:
    return form


@dataclass(frozen=True)
class Command(Generic[A]):
    """What runs a command: ``handler`` (a feature's bound method) given what ``read``
    makes of the event's ``data-arg`` and form, refused when ``guards`` say so or when
    ``rule`` (a function of the page state and the board, the same one the view greys
    the control by) gives a reason; ``focus`` is where the focus goes after it (None:
    where the event left it). Each feature lists its own
    (``commands() -> dict[Cmd, Command]``), made with :func:`plain`, :func:`number_arg`,
    :func:`text_arg` or :func:`form_arg`, whose parameter types let mypy check the
    handler against what it is given; the controller joins them."""

    handler: Callable[[A], object]
    read: Callable[[str | None, Form], A]
    guards: Guard = Guard.NONE
    focus: str | None = None
    rule: Rule | None = None

    def run(self, arg: str | None, form: Form) -> object:
        """Run the handler on the event's argument (what it returns: False if it did not
        act, so the focus stays)."""
        return self.handler(self.read(arg, form))


def plain(handler: Callable[[], object], guards: Guard = Guard.NONE, focus: str | None = None,
          rule: Rule | None = None) -> Command[None]:
    """A command whose handler takes nothing."""
    return Command(lambda _nothing: handler(), _nothing, guards, focus, rule)


def number_arg(handler: Callable[[int], object], guards: Guard = Guard.NONE,
               focus: str | None = None, rule: Rule | None = None) -> Command[int]:
    """A command whose handler takes ``data-arg`` as a whole number (-1 if it is none)."""
    return Command(handler, _number, guards, focus, rule)


def text_arg(handler: Callable[[str | None], object], guards: Guard = Guard.NONE,
             focus: str | None = None, rule: Rule | None = None) -> Command[str | None]:
    """A command whose handler takes ``data-arg`` as it came (None if there is none)."""
    return Command(handler, _text, guards, focus, rule)


def form_arg(handler: Callable[[Form], object], guards: Guard = Guard.NONE,
             focus: str | None = None, rule: Rule | None = None) -> Command[Form]:
    """A command whose handler takes the form the event sent."""
    return Command(handler, _form, guards, focus, rule)


#: The game commands the turn panel lists, in its order (``app.turn.rules`` says whether
#: each may run, and why not).
TURN_COMMANDS = (Cmd.ROLL, Cmd.BUILD, Cmd.ABANDON, Cmd.DEMOLISH, Cmd.END, Cmd.UNDO)

#: The largest game file an import reads, in bytes (web/js/files.js; a bigger one is
#: refused by its size unread): far beyond any game the engine writes (tests/test_bounds.py).
IMPORT_LIMIT_BYTES = 2_000_000

#: What web/js/ needs of the commands itself (given to it by the build and by main.py on
#: connect): the die to focus after a render, the import of a chosen file and the
#: largest it reads, the commands whose element sends its whole form.
HOST_COMMANDS = {"die": Cmd.DIE, "importText": Cmd.GAME_IMPORT_TEXT,
                 "importLimit": IMPORT_LIMIT_BYTES,
                 "sendsForm": [Cmd.NEW_GAME_CHANGE],
                 # a click on these starts the clipboard write (js/clipboard.js)
                 "copies": [Cmd.SHARE, Cmd.CORR_COPY, Cmd.DAILY_COPY]}

#: Keys that step a replay.
REPLAY_KEYS = {"ArrowLeft": Cmd.REPLAY_BACK, "ArrowRight": Cmd.REPLAY_NEXT,
               "Home": Cmd.REPLAY_FIRST, "End": Cmd.REPLAY_LAST}
