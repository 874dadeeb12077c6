"""Every command the page offers, named once: the views write these names into
``data-action`` / ``data-submit``, ``web/host.js`` sends them back with each event, and
the controller routes them through :data:`COMMANDS` (name -> part, method, argument and
guards), so no command name is a literal in more than one place.

>>> COMMANDS[Cmd.ROLL].guards == Guard.GAME
True
>>> f'data-action="{Cmd.END}"'
'data-action="end"'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Flag, StrEnum, auto


class Cmd(StrEnum):
    """A command's name, as the page's HTML carries it."""

    # turn commands (web/play.py)
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
    # computer players and hints (web/computer.py)
    BOT_SKIP = "bot-skip"
    BOT_PACE = "bot-pace"  # the computer's pace (a select: normal, fast, instant)
    BOT_HINT = "bot-hint"
    # games and dialogs
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
    CLOSE = "close"
    DISMISS = "dismiss"
    # tabs and faults (web/tabs.py, web/session.py)
    TAKE_CONTROL = "take-control"
    RELOAD_SAVED = "reload-saved"
    EXPORT_SAVE = "export-save"
    # the game list and the replay (web/library.py)
    GAMES = "games"
    GAME_OPEN = "game-open"
    GAME_REPLAY = "game-replay"
    GAME_RENAME = "game-rename"
    GAME_RENAME_CANCEL = "game-rename-cancel"
    GAME_RENAME_SAVE = "game-rename-save"
    GAME_DELETE = "game-delete"
    GAME_UNDELETE = "game-undelete"
    GAME_EXPORT = "game-export"
    GAME_IMPORT = "game-import"  # opens the file picker (web/host.js): no handler here
    GAME_IMPORT_TEXT = "game-import-text"
    REPLAY_FIRST = "replay-first"
    REPLAY_BACK = "replay-back"
    REPLAY_NEXT = "replay-next"
    REPLAY_LAST = "replay-last"
    REPLAY_ROUND = "replay-round"
    REPLAY_CLOSE = "replay-close"
    # correspondence play (web/friends.py)
    CORR_SEND = "corr-send"
    CORR_COPY = "corr-copy"
    CORR_SHARE = "corr-share"
    CORR_QR = "corr-qr"
    CORR_CLAIM = "corr-claim"
    # the guided first game (web/tutorial.py)
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


class Arg(StrEnum):
    """What the handler receives."""

    NONE = "none"  # handler()
    NUMBER = "number"  # handler(int(arg)), -1 if not a number
    TEXT = "text"  # handler(arg)
    FORM = "form"  # handler(form)
    NAME_FORM = "name_form"  # handler(command name, form)


@dataclass(frozen=True)
class Command:
    """``part.method`` of the controller handles the command; ``focus`` is where the
    focus goes after it (None: where the event left it)."""

    part: str
    method: str
    arg: Arg = Arg.NONE
    guards: Guard = Guard.NONE
    focus: str | None = None


def _table() -> dict[Cmd, Command]:
    game, n = Guard.GAME, Arg.NUMBER
    starts = Guard.STARTS | Guard.WRITES
    writes = Guard.WRITES
    replay = Command("library", "replay_step", Arg.NAME_FORM)
    return {
        Cmd.TAKE: Command("play", "take", n, game),
        Cmd.UNTAKE: Command("play", "put_back", n, game),
        Cmd.DISTRICT: Command("play", "take_district", guards=game),
        Cmd.DIE: Command("play", "toggle", n, game),
        Cmd.ROLL: Command("play", "roll", guards=game),
        Cmd.BUILD: Command("play", "build", guards=game),
        Cmd.DEMOLISH: Command("play", "demolish", guards=game),
        Cmd.ABANDON: Command("play", "abandon", guards=game),
        Cmd.END: Command("play", "end_turn", guards=game),
        Cmd.UNDO: Command("play", "undo", guards=game),
        Cmd.CANCEL: Command("play", "cancel", guards=game),
        Cmd.COLUMN: Command("play", "choose_column", n, game),
        Cmd.TILE: Command("play", "choose_tile", n, game),
        Cmd.BOT_SKIP: Command("computer", "skip"),
        Cmd.BOT_PACE: Command("computer", "set_pace", Arg.FORM, focus="bot-pace"),
        Cmd.BOT_HINT: Command("computer", "show_hint"),
        Cmd.NEW_GAME: Command("newgame", "open"),  # it sets the focus (the welcome, too)
        Cmd.NEW_GAME_CHANGE: Command("newgame", "change", Arg.FORM),
        Cmd.NEW_GAME_START: Command("newgame", "start", Arg.FORM, starts),
        Cmd.LINK_ACCEPT: Command("links", "accept", guards=starts),
        Cmd.DAILY: Command("daily", "start_today", guards=starts),
        Cmd.DAILY_ACCEPT: Command("daily", "accept", guards=starts),
        Cmd.DAILY_COPY: Command("daily", "copy"),
        Cmd.STATS: Command("daily", "open_stats", focus="dlg-close"),
        Cmd.SHARE: Command("links", "share", focus="share-link"),
        Cmd.RULES: Command("session", "open_rules", focus="dlg-first"),
        Cmd.RULES_GOTO: Command("session", "rules_goto", Arg.TEXT),
        Cmd.RULES_EXPORT: Command("library", "export_open"),
        Cmd.MENU: Command("session", "toggle_menu"),
        Cmd.LANG: Command("session", "set_lang", Arg.TEXT),
        Cmd.CLOSE: Command("session", "close_dialog"),
        Cmd.DISMISS: Command("session", "dismiss", n),
        Cmd.TAKE_CONTROL: Command("tabs", "take_control"),
        Cmd.RELOAD_SAVED: Command("session", "reload_after_crash"),
        Cmd.EXPORT_SAVE: Command("session", "export_save", Arg.TEXT, focus="export-text"),
        Cmd.GAMES: Command("library", "open", focus="dlg-first"),
        Cmd.GAME_OPEN: Command("library", "open_game", Arg.TEXT, writes, "btn-games"),
        Cmd.GAME_REPLAY: Command("library", "replay", Arg.TEXT, focus="replay-next"),
        Cmd.GAME_RENAME: Command("library", "rename_start", Arg.TEXT, focus="game-name"),
        Cmd.GAME_RENAME_CANCEL: Command("library", "rename_cancel"),
        Cmd.GAME_RENAME_SAVE: Command("library", "rename", Arg.FORM, writes),
        Cmd.GAME_DELETE: Command("library", "delete", Arg.TEXT, writes),
        Cmd.GAME_UNDELETE: Command("library", "undelete", Arg.TEXT, writes),
        Cmd.GAME_EXPORT: Command("library", "export", Arg.TEXT),
        Cmd.GAME_IMPORT_TEXT: Command("library", "import_text", Arg.FORM, writes),
        Cmd.REPLAY_FIRST: replay,
        Cmd.REPLAY_BACK: replay,
        Cmd.REPLAY_NEXT: replay,
        Cmd.REPLAY_LAST: replay,
        Cmd.REPLAY_ROUND: replay,
        Cmd.REPLAY_CLOSE: Command("library", "replay_close", focus="btn-games"),
        Cmd.CORR_SEND: Command("friends", "open_send_dialog"),
        Cmd.CORR_COPY: Command("friends", "copy"),
        Cmd.CORR_SHARE: Command("friends", "share"),
        Cmd.CORR_QR: Command("friends", "show_qr"),
        Cmd.CORR_CLAIM: Command("friends", "claim_seats", Arg.FORM, writes),
        Cmd.TUTORIAL: Command("tutorial", "start"),  # it sets the focus (the coach)
        Cmd.TUTORIAL_NEXT: Command("tutorial", "next"),
        Cmd.TUTORIAL_LEAVE: Command("tutorial", "leave"),  # back where it was started
        Cmd.TUTORIAL_PLAY: Command("tutorial", "play_real"),
    }


COMMANDS: dict[Cmd, Command] = _table()

#: The game commands the turn area lists (the screen model says whether each is offered).
TURN_COMMANDS = (Cmd.ROLL, Cmd.BUILD, Cmd.ABANDON, Cmd.DEMOLISH, Cmd.END, Cmd.UNDO)

#: The command names web/host.js needs itself (given to it by main.py on connect): the
#: die to focus after a render, the import of a chosen file, the commands whose element
#: sends its whole form.
HOST_COMMANDS = {"die": Cmd.DIE, "importText": Cmd.GAME_IMPORT_TEXT,
                 "sendsForm": [Cmd.NEW_GAME_CHANGE],
                 # a click on these starts the clipboard write (host.js, startClickCopy)
                 "copies": [Cmd.SHARE, Cmd.CORR_COPY, Cmd.DAILY_COPY]}

#: Keys that step a replay.
REPLAY_KEYS = {"ArrowLeft": Cmd.REPLAY_BACK, "ArrowRight": Cmd.REPLAY_NEXT,
               "Home": Cmd.REPLAY_FIRST, "End": Cmd.REPLAY_LAST}
