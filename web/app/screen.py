"""The screen model: everything the player sees and may do, as one frozen value.

``build_screen(page, board, texts, ...)`` is a pure function of the page state
(``page_state.PageState``), the engine's ``Board``, the seats (in the page state) and the
string table (``i18n.Texts``). It decides every question the page asks of the rules:
the prompt, each command with enabled/disabled and the reason, which dice are
selectable, build and demolition targets, whether the yard or the district can be
taken, the scoring lines, the notices and the open dialog. Every text is already in
the player's language. ``app.render`` turns a ``Screen`` into HTML and reads nothing
else. This module imports nothing from the browser, so it runs under CPython.

It composes the features' views: the turn's (``app.turn.view``), the computer's bar,
Hint and reviews (``app.computer.view``), the top bar's status (``app.topbar.view``),
the games', the daily challenge's and the open dialog's (``app.dialog_table``).

The views read the engine in a few named places only: ``turn.view.build_target_columns``
(which columns are the same build target: ``skyline.action_class``),
``words.read_summary`` (the typed end-of-game summary, ``skyline.game_summary``),
``turn.view.scenario_view`` (the solo scenario's standing, ``skyline.scenario_progress``),
``words.unbuildable_reasons`` (why no die can be built, ``skyline.build_blocker``),
``skyline.DIE_LETTERS``/``FACE_LETTERS``.

Names: a name the player never typed (a seat's default, "Player 2", or a computer
seat's level, "Expert", in any language of the tables) is shown as the default in the
player's language (``player_names``), wherever it came from: the dialog, a save, a link.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from app.computer.chances_view import ChancesView, chances_view
from app.computer.view import (
    BotBar,
    HintView,
    ReviewView,
    TableReviewView,
    bot_bar_view,
    hint_view,
    review_view,
    table_review_view,
)
from app.core.i18n import Texts, translate
from app.core.labels import LABEL_KEYS, Labels
from app.core.names import player_names
from app.core.page_state import DialogContext, PageState
from app.core.whose_turn import hint_offered
from app.core.words import LogView, event_text, log_view
from app.daily.ui import DailyView, daily_view
from app.dialog_table import DialogView, dialog_view
from app.games import ui as games_ui
from app.topbar.view import Status, status_view
from app.turn.view import (
    district_view,
    players_view,
    scenario_view,
    scoring_view,
    since_last_turn_view,
    turn_view,
    yard_view,
)
from app.turn.views import (
    Command,
    DieView,
    District,
    LastTurn,
    PlayerView,
    ScenarioView,
    Scoring,
    TurnView,
    Yard,
)
from app.tutorial.coach import CoachView
from skyline import (
    Board,
    Phase,
)
from skyline.records.daily import daily_day


@dataclass(frozen=True)
class NoticeView:
    key: str
    level: str
    text: str
    button: tuple[str, str, str] | None  # (action, arg, label)


@dataclass(frozen=True)
class Game:
    """The game regions (absent before a game exists)."""

    solo: bool
    turn: TurnView
    yard: Yard
    district: District | None  # None in solo games
    players: tuple[PlayerView, ...]
    scoring: Scoring | None
    beat: str | None
    log: LogView
    bot_bar: BotBar | None
    hint_available: bool
    hint: HintView | None
    review: ReviewView | None
    scenario: ScenarioView | None = None
    daily: DailyView | None = None  # a daily challenge (skyline.daily): banner, result line
    replay: games_ui.ReplayView | None = None  # a replay is shown (app.games.ui)
    corr: games_ui.CorrView | None = None  # a game with friends elsewhere
    # what each rival's turn did since the player to move here last played, oldest first
    last_turns: tuple[LastTurn, ...] = ()
    table_review: TableReviewView | None = None  # a finished game of 2-4 players
    coach: CoachView | None = None  # the guided first game's step (web/tutorial.py)
    chances: ChancesView | None = None  # the chances as the game goes, beside the log


@dataclass(frozen=True)
class Screen:
    lang: str
    other_lang: str
    labels: Labels
    status: Status | None
    notices: tuple[NoticeView, ...]
    dialog: DialogView | None
    game: Game | None
    announce: str = ""  # the live region's news about the latest action ("" = none)
    announce_seq: int = 0  # grows with each new announcement (page_state.Narration.seq)
    menu_open: bool = False  # the top bar's menu, on a narrow screen
    sound: bool = False  # the page's sounds are on (the top bar's Sound switch)

    def command(self, name: str) -> Command:
        """The command called ``name`` (KeyError if the screen does not show it)."""
        for cmd in self.game.turn.commands if self.game else ():
            if cmd.name == name:
                return cmd
        raise KeyError(name)

    # shortcuts (the same data as inside ``game``)
    @property
    def prompt(self) -> str | None:
        return self.game.turn.prompt if self.game else None

    @property
    def commands(self) -> tuple[Command, ...]:
        return self.game.turn.commands if self.game else ()

    @property
    def dice(self) -> tuple[DieView, ...]:
        return self.game.turn.tray if self.game else ()

    @property
    def yard(self) -> Yard | None:
        return self.game.yard if self.game else None

    @property
    def district(self) -> District | None:
        return self.game.district if self.game else None

    @property
    def players(self) -> tuple[PlayerView, ...]:
        return self.game.players if self.game else ()

    @property
    def scoring(self) -> Scoring | None:
        return self.game.scoring if self.game else None

    @property
    def bot_bar(self) -> BotBar | None:
        return self.game.bot_bar if self.game else None

    @property
    def hint(self) -> HintView | None:
        return self.game.hint if self.game else None

    @property
    def review(self) -> ReviewView | None:
        return self.game.review if self.game else None

    @property
    def log(self) -> LogView | None:
        return self.game.log if self.game else None

    @property
    def table_review(self) -> TableReviewView | None:
        return self.game.table_review if self.game else None


# ---------------------------------------------------------------------------- builders


def _announce(page: PageState, board: Board, t, names, scoring: Scoring | None) -> str:
    """The latest action for the polite live region: its events (each roll's faces, each
    computer move), then whose turn it is now, or the result once the game is over."""
    news = page.narration
    if news is None:
        return ""
    state = board.state
    parts = [event_text(t, e, names) for e in news.events]
    if news.new_game:
        parts.insert(0, t("announce.new_game"))
    if state.phase is Phase.OVER:
        if scoring is not None and any(e["event"] == "game_over" for e in news.events):
            parts.append(scoring.headline)
    elif news.turn_changed:
        if state.solo:
            parts.append(t("announce.round", round=state.round))
        else:
            parts.append(t("announce.turn", name=names[state.seat], round=state.round))
    return " ".join(parts)


def _notices(page: PageState, t, names=()) -> tuple[NoticeView, ...]:
    out = []
    for n in page.notices:
        button = None
        if n.button is not None:
            button = (n.button.action, n.button.arg, t(n.button.label_key))
        params = {k: translate(t, v) for k, v in n.params}
        if page.playback is not None and "state" in params:
            # whose turn it is comes when the friend's turn has been shown on the board
            params["state"] = t("corr.state_playback")
        seat = params.pop("seat", None)
        if isinstance(seat, int) and 0 <= seat < len(names):
            params["name"] = names[seat]  # the name as shown now, in this language
        out.append(NoticeView(n.key, n.level.value, t(n.key, **params), button))
    return tuple(out)


def _daily_figure(daily: Mapping[str, Any] | None, board: Board, name: str) -> int | None:
    """A figure of the day's record of a daily challenge: ``best``, or ``expert`` (the
    expert's score on the day's dice)."""
    day = daily_day(board.options)
    row = (daily or {}).get(day.isoformat()) if day is not None else None
    figure = row.get(name) if isinstance(row, dict) else None
    return figure if type(figure) is int and figure >= 0 else None


#: the static words per string table and language: the same after every click
_labels: dict[tuple[int, str], tuple[dict, Labels]] = {}


def labels_of(texts: Texts) -> Labels:
    """The static words (``LABEL_KEYS``) in the language of ``texts``."""
    key = (id(texts.tables), texts.lang)
    known = _labels.get(key)
    if known is None or known[0] is not texts.tables:  # the id of a table gone
        t = texts.t
        known = _labels[key] = (texts.tables,
                                Labels(texts.lang, MappingProxyType({k: t(k) for k in LABEL_KEYS})))
    return known[1]


def build_screen(
    page: PageState,
    board: Board | None,
    texts: Texts,
    best: Mapping[str, Any] | None = None,
    log: LogView | None = None,
    events: list[dict] | None = None,
    daily: Mapping[str, Any] | None = None,
    base: str = "",
    games: tuple = (),
    current: str | None = None,
    can_share: bool = False,
) -> Screen:
    """Everything the player sees and may do.

    ``best``: the solo records' best score per scenario slot (``"-"`` = none);
    ``daily``: the records of the daily challenges (day -> {"best", "plays", "expert"}); ``base``:
    the page's address, for the daily challenge's link;
    ``log``: the translated game log if the caller keeps one cached, else it is made
    from ``events`` (the engine's ``Board.log()`` when not given); ``games``: the game
    list's entries in the order shown, ``current`` the open one's id (game-list dialog);
    ``can_share``: the browser has a share sheet. During a replay (``page.replay``)
    ``board`` is the replayed game at its step."""
    t = texts.t
    lang = texts.lang
    labels = labels_of(texts)
    game = None
    announce = ""
    names: tuple[str, ...] = ()
    if board is not None:
        state = board.state
        over = state.phase is Phase.OVER
        names = player_names(page, [p.name for p in state.players], texts)
        if log is None:
            log = log_view(board.log() if events is None else events, names, texts)
        bot_bar = bot_bar_view(page, board, texts, names)
        hint_ok = hint_offered(page, board)
        since = since_last_turn_view(page, board, t, names)
        game = Game(
            solo=state.solo,
            turn=turn_view(page, board, t, names),
            yard=yard_view(page, board, t),
            district=district_view(page, board, t),
            players=players_view(page, board, t, names, since),
            scoring=scoring_view(page, board, t, dict(best or {}), names) if over else None,
            beat=t("beat.show", score=page.beat) if page.beat is not None and state.solo
            else None,
            log=log,
            bot_bar=bot_bar,
            hint_available=hint_ok,
            hint=hint_view(page, board, t, lang) if hint_ok else None,
            review=review_view(page, board, t, lang),
            scenario=scenario_view(t, state),
            daily=daily_view(page, board, t, base, _daily_figure(daily, board, "best"),
                             _daily_figure(daily, board, "expert")),
            replay=games_ui.replay_view(page.replay, board, texts) if page.replay else None,
            # a live table's state stays while a friend's moves play (the board keeps still)
            corr=(games_ui.corr_view(page, board, texts)
                  if page.playback is None or page.live is not None else None),
            last_turns=since,
            table_review=table_review_view(page, board, t, lang, names),
            chances=chances_view(page, board, t, lang, names, current),
        )
        announce = _announce(page, board, t, names, game.scoring)
    return Screen(
        lang=lang,
        other_lang="de" if lang == "en" else "en",
        labels=labels,
        status=status_view(page, board, t, names) if board is not None else None,
        notices=_notices(page, t, names),
        dialog=dialog_view(DialogContext(page, texts, board, games, current, can_share)),
        game=game,
        announce=announce,
        announce_seq=page.narration.seq if announce and page.narration is not None else 0,
        menu_open=page.menu_open,
        sound=page.sound,
    )

