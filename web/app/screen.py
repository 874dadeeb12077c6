"""The screen model: everything the player sees and may do, as one frozen value.

``build_screen(page, board, texts, ...)`` is a pure function of the page state
(``page_state.PageState``), the engine's ``Board``, the seats (in the page state) and the
string table (``i18n.Texts``). It decides every question the page asks of the rules:
the prompt, each command with enabled/disabled and the reason, which dice are
selectable, build and demolition targets, whether the yard or the district can be
taken, the scoring lines, the notices and the open dialog. Every text is already in
the player's language. ``board_view`` turns a ``Screen`` into HTML and reads nothing
else. This module imports nothing from the browser, so it runs under CPython.

The engine is read in a few named places only: ``build_target_columns`` (which columns
are the same build target: ``skyline.action_class``), ``read_summary`` (the typed
end-of-game summary, ``skyline.game_summary``), ``scenario_view`` (the solo scenario's
standing, ``skyline.scenario_progress``), ``unbuildable_reasons`` (why no die can be built,
``skyline.build_blocker``), ``TYPE_LETTERS``/``FACE_LETTERS``
(``skyline.DIE_LETTERS``/``FACE_LETTERS``).

Names: a name the player never typed (a seat's default, "Player 2", or a computer
seat's level, "Expert", in any language of the tables) is shown as the default in the
player's language (``player_names``), wherever it came from: the dialog, a save, a link.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from app.core.i18n import Texts, translate
from app.core.names import default_name, is_default_name, player_names
from app.core.page_state import (
    PACES,
    BuildChoice,
    DemolishChoice,
    PageState,
    ReviewProgress,
    Seat,
)
from app.daily.ui import (
    DailyView,
    daily_view,
)
from app.dialogs.ui import (
    ConfirmLinkView,
    DialogContext,
    DialogView,
    ExportView,
    NewGameView,
    RulesView,
    ShareView,
    dialog_kind,
    dialog_view,
)
from app.games import ui as games_ui
from app.tutorial.coach import CoachView
from skyline import (
    DIE_LETTERS,
    FACE_LETTERS,
    Abandon,
    Board,
    Build,
    Demolish,
    EndTurn,
    GameState,
    GameSummary,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    action_class,
    apply_action,
    build_blocker,
    completed_count,
    game_summary,
    plan_build,
    scenario_progress,
    scores_as_tile,
)
from skyline.records.daily import daily_day
from skyline.rules import can_take_district as rule_can_take_district
from skyline.rules import describe

if TYPE_CHECKING:  # the review of 2-4 players is imported when first needed
    from skyline.players.table_review import TurnChange

TYPE_LETTERS = DIE_LETTERS
GAME_COMMANDS = ("roll", "build", "abandon", "demolish", "end", "undo")

# Static words of the page chrome the view shows as they are (no parameters).
LABEL_KEYS = (
    "app.title", "btn.games", "btn.new_game", "btn.share", "btn.rules", "btn.lang_label",
    "btn.learn",
    "btn.lang", "btn.menu", "scoreboard.label",
    "btn.dismiss", "btn.cancel_choice", "btn.close", "btn.cancel", "tray.label", "tray.empty",
    "actions.label", "yard.title", "district.title", "district.empty", "skyline.empty",
    "player.start", "player.to_move", "player.points_short", "score.title", "score.player",
    "score.buildings", "score.lowrise", "score.total", "score.note", "log.title", "log.empty",
    "bot.panel_title", "bot.skip", "hint.button", "hint.options", "hint.none", "review.title",
    "review.round", "review.chosen", "review.best", "review.lost", "review.costly",
    "review.no_costly", "review.rounds", "art.unfinished_cap",
    "newgame.count", "newgame.names", "newgame.start", "newgame.scenario", "newgame.nine",
    "newgame.seed", "newgame.seed_placeholder", "newgame.intro", "newgame.start_btn",
    "newgame.play_default", "link.question", "link.accept", "link.keep", "share.explain",
    "share.link", "export.text", "export.download", "btn.daily", "btn.stats", "daily.welcome",
)


# ---------------------------------------------------------------------------- value types


@dataclass(frozen=True)
class Labels:
    """Translated static words, by string-table key (only those in ``LABEL_KEYS``)."""

    lang: str
    texts: Mapping[str, str]

    def __getitem__(self, key: str) -> str:
        return self.texts[key]


@dataclass(frozen=True)
class Status:
    over: bool
    text: str  # "Game over" or the round
    turn: str  # whose turn ("" when over)


@dataclass(frozen=True)
class Command:
    name: str  # roll, build, abandon, demolish, end, undo
    label: str
    enabled: bool
    reason_key: str | None  # why it is disabled (string-table key)
    reason: str | None  # the same, translated
    primary: bool = False


@dataclass(frozen=True)
class DieView:
    """A die in the tray: a yard pick (``taken``), an unrolled die or a rolled one."""

    id: int  # the engine's die id (-1 for a yard pick not yet taken)
    index: int  # position in the tray
    type: str  # G, U, P
    face: str | None  # p, b, o, x (None before the roll)
    label: str
    short: str
    taken: bool = False  # a yard pick of this turn, not yet pushed
    button: bool = False  # a selectable die (a button); else a picture
    selectable: bool = False
    selected: bool = False
    focus: bool = False  # the die a pending choice is about
    put_back: str | None = None  # accessible label of its "put back" button, if any
    put_back_text: str = ""
    just_rolled: bool = False  # rolled by the action just taken (the roll animation)


@dataclass(frozen=True)
class YardRow:
    index: int  # DieType value
    type: str
    name: str
    faces: str
    picked: int
    picked_text: str


@dataclass(frozen=True)
class Yard:
    rows: tuple[YardRow, ...]
    enabled: bool


@dataclass(frozen=True)
class DistrictDie:
    type: str
    label: str


@dataclass(frozen=True)
class District:
    dice: tuple[DistrictDie, ...]
    enabled: bool
    take_label: str


@dataclass(frozen=True)
class TileView:
    """A completed building."""

    index: int
    kind: str
    height: int
    points: int
    label: str
    points_text: str
    target: bool  # a demolition target
    target_label: str
    changed: bool = False  # completed in the last turn shown (LastTurn)


@dataclass(frozen=True)
class ColumnView:
    """An unfinished building."""

    index: int
    kind: str
    height: int
    label: str
    target: str | None  # "build", "demolish" or None
    target_label: str
    # at the end, what it scores where it scores ("1 pt": a low-rise ground floor); else
    # the skyline's caption says "unfinished"
    points_text: str | None = None
    changed: bool = False  # built on in the last turn shown (LastTurn)


@dataclass(frozen=True)
class LastTurn:
    """The latest turn that was not the viewer's (a rival here, a computer, a friend's
    link), shown until the player to move acts: one line, and its buildings marked."""

    seat: int
    text: str
    columns: frozenset[int]
    tiles: frozenset[int]


def last_turn_view(page: PageState, board: Board, t, names) -> LastTurn | None:
    state = board.state
    if (state.solo or state.phase is not Phase.TAKE or page.takes or page.replay is not None
            or not page.seat_kind(state.seat).is_here):
        return None
    report = board.last_turn()
    if report is None or report.seat == state.seat:
        return None
    text = t("last.line", name=names[report.seat], parts=turn_words(t, report.events),
             points=t("last.points", n=report.points, signed=f"{report.points:+d}"))
    return LastTurn(report.seat, text, report.columns, report.tiles)


def turn_words(t, events) -> str:
    """What a turn did, from its engine events, in the player's words: "built 3 floors,
    completed a building 2 high (+4), built on a lone low-rise ground floor (-1),
    abandoned a die" (the last turn's line, the review's turning points). Every die
    placed counts as a floor, and the points in brackets add up to what the turn changed
    in the score (each event's ``score``): what it gained, and apart what it lost."""
    builds = [e for e in events if e["event"] == "build"]
    parts = [t("last.district")] if any(e["event"] == "take_district" for e in events) else []
    parts.append(t("last.floors", n=len(builds)) if builds else t("last.nothing"))
    parts.extend(_build_points(t, builds))
    parts.extend(_demolition_words(t, [e for e in events if e["event"] == "demolish"]))
    abandoned = sum(len(e["dice"].split()) for e in events if e["event"] == "abandon")
    if abandoned:
        parts.append(t("last.abandoned", n=abandoned))
    return ", ".join(parts)


def _build_points(t: Callable[..., str], builds: list[dict]) -> list[str]:
    """The points a turn's builds gained (each completion, lone low-rise ground floors
    started) and lost (lone low-rise ground floors built on: their point is gone)."""
    done = [e for e in builds if "completed" in e]
    # completions of one height in one phrase (a long turn's line stays short on a phone)
    heights: dict[int, list[int]] = {}
    for e in done:
        heights.setdefault(e["completed"], []).append(e["points"])
    words = [t("last.completed", n=len(points), height=height, gained=sum(points))
             for height, points in heights.items()]
    started = sum(e["score"] for e in builds if "completed" not in e)
    if started:
        words.append(t("last.lone_started", n=started))
    built_on = sum(e["points"] - e["score"] for e in done)
    if built_on:
        words.append(t("last.lone_built_on", n=built_on))
    return words


def _demolition_words(t: Callable[..., str], demolished: list[dict]) -> list[str]:
    """Each completed building demolished with the points it took, lone low-rise ground
    floors with theirs, then the other unfinished buildings (they scored nothing)."""
    words = [t("last.demolished_tile", height=e["height"], lost=-e["score"])
             for e in demolished if e["completed"]]
    lone = sum(-e["score"] for e in demolished if not e["completed"])
    if lone:
        words.append(t("last.demolished_lone", n=lone))
    others = sum(1 for e in demolished if not e["completed"] and not e["score"])
    if others:
        words.append(t("last.demolished", n=others))
    return words


@dataclass(frozen=True)
class PlayerView:
    seat: int
    name: str
    label: str
    kind: Seat
    active: bool
    start: bool  # start player's star (not solo)
    to_move: bool  # the "to move" badge (not solo)
    score: int
    score_label: str
    tiles: tuple[TileView, ...]
    columns: tuple[ColumnView, ...]
    computer: str | None = None  # "Computer (Expert)" for a computer seat
    elsewhere: str | None = None  # "plays elsewhere" for a friend elsewhere
    score_unit: str = ""  # "pts" / "pt" after the score
    buildings: int = 0  # completed, lone low-rise ground floors included (completed_count)
    summary: str = ""  # the scoreboard's sentence: "Ann: 12 points, 2 buildings, to move"


@dataclass(frozen=True)
class ScoreRow:
    seat: int
    rank: int
    name: str
    chips: tuple[tuple[str, str], ...]  # (kind letter, text)
    none_text: str | None  # no completed building
    converted: str  # "–" or the text
    discarded: str | None
    score: int
    completed: str


@dataclass(frozen=True)
class Scoring:
    headline: str
    lines: tuple[str, ...]
    rows: tuple[ScoreRow, ...]


@dataclass(frozen=True)
class NoticeView:
    key: str
    level: str
    text: str
    button: tuple[str, str, str] | None  # (action, arg, label)




@dataclass(frozen=True)
class BotBar:
    """A computer is playing this turn."""

    text: str
    skip_enabled: bool
    pace: tuple[tuple[str, str, bool], ...] = ()  # (value, label, chosen) of the pace select
    pace_label: str = ""


@dataclass(frozen=True)
class HintView:
    best: str | None  # None: no hint rows (the engine found nothing to advise)
    options: tuple[tuple[str, str], ...]  # (action text, value text)
    note: str | None = None  # without rows: what to do (e.g. "click End turn")
    # the options as the list shows them, one line each: "Take 3 ground floors –
    # expected final score 61.2"
    lines: tuple[str, ...] = ()
    # above the rows: what the values are (a scenario game: the chance of meeting it too)
    heading: str = ""
    # where the best action is on the board: the ids of the yard rows, dice, buildings and
    # command it uses (as board_view names them), marked there
    marks: frozenset[str] = frozenset()


def hint_marks(state: GameState, action: object) -> frozenset[str]:
    """The page elements the hinted action uses: what to take, which dice, which tower
    (the ids board_view gives them: yard-G, take-district, die-3, col-0-1, tile-0-2,
    act-build)."""
    seat = state.seat
    if isinstance(action, Take):
        return frozenset(f"yard-{t.letter}" for t in action.types)
    if isinstance(action, TakeDistrict):
        return frozenset({"take-district"})
    if isinstance(action, Roll) and state.phase is Phase.ROLL:
        return frozenset({"act-roll"})  # the first roll: every die, none to choose
    if isinstance(action, Roll | Abandon):
        command = "act-roll" if isinstance(action, Roll) else "act-abandon"
        return frozenset({f"die-{i}" for i in action.dice} | {command})
    if isinstance(action, Build):
        marks = {f"die-{action.die}", "act-build"}
        if action.column is not None:
            marks.add(f"col-{seat}-{action.column}")
        return frozenset(marks)
    if isinstance(action, Demolish):
        target = f"{'tile' if action.completed else 'col'}-{seat}-{action.index}"
        return frozenset({f"die-{action.die}", target, "act-demolish"})
    if isinstance(action, EndTurn):
        return frozenset({"act-end"})
    return frozenset()


@dataclass(frozen=True)
class ReviewRow:
    round: int
    chosen: str
    best: str
    loss: str
    lost: bool


@dataclass(frozen=True)
class RoundLoss:
    """One round of the solo review's per-round strip."""

    round: int
    loss: str  # expected points lost in the round, as a number
    label: str  # "Round 3: 1.2" (its accessible name)
    lost: bool


@dataclass(frozen=True)
class ReviewView:
    """The solo review: the accuracy, the few decisions that cost the most
    (``costly``, worst first), the loss per round and every decision (``rows``,
    in play order) for the list shown on demand (``all_label`` opens it)."""

    done: bool
    progress: str | None
    accuracy: str | None
    rows: tuple[ReviewRow, ...]
    costly: tuple[ReviewRow, ...] = ()
    rounds: tuple[RoundLoss, ...] = ()
    all_label: str = ""
    # the headings of the parts (a scenario game grades the chance of meeting it too)
    rounds_title: str = ""
    costly_title: str = ""
    no_costly: str = ""
    lost_head: str = ""
    # a scenario game: met or failed, and the decision that lost it (one line each)
    scenario: tuple[str, ...] = ()
    scenario_met: bool | None = None


@dataclass(frozen=True)
class TableReviewRow:
    """One decision of a game of 2-4 players that cost chance of winning."""

    round: int
    chosen: str
    best: str
    chances: str  # "58% → 51%": the chance of winning with the best choice, with the one made
    loss: str  # percentage points, as a number
    lost: bool


@dataclass(frozen=True)
class TableReviewSeat:
    """The review of one player at this device: a heading, one summary line and the
    decisions that cost the most chance of winning (worst first)."""

    seat: int
    name: str
    title: str
    summary: str
    rows: tuple[TableReviewRow, ...]
    none: str | None  # no decision cost chance of winning


@dataclass(frozen=True)
class TableReviewView:
    """The review of a finished game of 2-4 players (``skyline.players.table_review``):
    ``progress`` while it runs; then per player at this device the costly decisions, the
    game's turning points (one line each) and what was not reviewed."""

    done: bool
    progress: str | None
    title: str
    intro: str = ""  # what "chance of winning" and "percentage points" mean
    seats: tuple[TableReviewSeat, ...] = ()
    heads: tuple[str, ...] = ()  # the decisions table's column headings
    turning_title: str = ""
    turning: tuple[str, ...] = ()
    turning_none: str | None = None
    not_reviewed: str | None = None  # computer seats and friends elsewhere


@dataclass(frozen=True)
class LogEntry:
    round: int
    event: str
    text: str


@dataclass(frozen=True)
class LogView:
    entries: tuple[LogEntry, ...]  # newest first, at most 300


@dataclass(frozen=True)
class TurnView:
    title: str
    prompt: str
    phase: str  # data-phase: take, roll, resolve, continue, over, choose
    choosing: bool  # a tower or demolition target is being chosen (Cancel shown)
    over: bool
    tray: tuple[DieView, ...]
    open_slots: int  # empty yard-pick slots shown after the picks (take phase)
    commands: tuple[Command, ...]  # in the order shown
    just_rolled: tuple[int, ...] = ()  # ids of the dice the action just taken rolled
    # the disabled commands' reasons, shown (no hover needed): (command names, line)
    why: tuple[tuple[tuple[str, ...], str], ...] = ()


@dataclass(frozen=True)
class ScenarioView:
    """The chosen solo scenario, all game long (``skyline.scenario_progress``)."""

    name: str
    goal: str
    status: str  # "1 of 3 so far", "no demolition so far – goal reached" ...
    text: str  # the whole line
    met: bool
    settled: bool


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
    replay: games_ui.ReplayView | None = None  # a replay is shown (web/games_ui.py)
    corr: games_ui.CorrView | None = None  # a game with friends elsewhere
    last_turn: LastTurn | None = None  # what the latest turn that was not yours did
    table_review: TableReviewView | None = None  # a finished game of 2-4 players
    coach: CoachView | None = None  # the guided first game's step (web/tutorial.py)


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


def first_target(screen: Screen) -> str | None:
    """The element id of the first build or demolition target on the screen, if any."""
    for p in screen.players:
        for b in p.tiles:
            if b.target:
                return f"tile-{p.seat}-{b.index}"
        for col in p.columns:
            if col.target:
                return f"col-{p.seat}-{col.index}"
    return None


# ---------------------------------------------------------------------------- engine reads


def build_target_columns(state: GameState, choice: BuildChoice) -> set[int]:
    """The active player's columns ``choice.die`` may go onto: every column whose build
    is in the same class (``skyline.action_class``) as one of the engine's choices."""
    columns = state.players[state.seat].columns
    wanted = {action_class(state, Build(choice.die, c)) for c in choice.choices
              if c is not None and 0 <= c < len(columns)}
    return {i for i in range(len(columns))
            if action_class(state, Build(choice.die, i)) in wanted}


def build_choice_for(state: GameState, choice: BuildChoice, column: int) -> int | None:
    """The engine's choice (a column index) equivalent to building onto ``column``."""
    columns = state.players[state.seat].columns
    if not 0 <= column < len(columns):
        return None
    key = action_class(state, Build(choice.die, column))
    return next((c for c in choice.choices
                 if c is not None and action_class(state, Build(choice.die, c)) == key), None)


def read_summary(state: GameState) -> GameSummary:
    """The engine's end-of-game summary (the one place it is read)."""
    return game_summary(state)


def number(lang: str, value: float) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "de" else text


def percent(lang: str, p: float) -> str:
    """A probability (0..1) in percent, whole; one decimal near 0 and 100 so that a
    chance that is not certain never reads as 100 (nor a possible one as 0)."""
    v = 100.0 * min(1.0, max(0.0, p))
    text = f"{min(99.9, max(0.1, v)):.1f}" if 0.0 < v < 1.0 or 99.0 < v < 100.0 else f"{v:.0f}"
    return text.replace(".", ",") if lang == "de" else text


def _game_scenario(board: Board) -> str | None:
    """The solo scenario of the game (None: none, or not solo)."""
    return board.options.scenario if board.state.solo else None


def scenario_view(t: Callable[..., str], state: GameState) -> ScenarioView | None:
    """The solo scenario's name, goal and standing (``skyline.scenario_progress``)."""
    p = scenario_progress(state)
    if p is None:
        return None
    status = t("scenario_status." + p.scenario, n=p.count)
    if p.met and (p.at_least or p.settled):
        status = t("scenario_status.reached", status=status)
    elif not p.met and p.settled:
        status = t("scenario_status.missed", status=status)
    name, goal = t("scenario." + p.scenario), t("scenario_goal." + p.scenario)
    return ScenarioView(name, goal, status, t("scenario_status.line", name=name, goal=goal,
                                               status=status), p.met, p.settled)


def unbuildable_reasons(t: Callable[..., str], state: GameState) -> str:
    """Why each active die cannot be built (``skyline.build_blocker``), one clause per
    kind of die, joined; "" when some die can be built."""
    clauses = blocked_dice(t, state)
    if len(clauses) < len(state.dice):
        return ""
    return "; ".join(dict.fromkeys(clauses))


def blocked_dice(t: Callable[..., str], state: GameState) -> list[str]:
    """Why each active die that cannot be built cannot (one clause per die, in tray
    order), naming its colour: "the blue upper floor has no unfinished blue building
    to go on"; the normal game's prompt and Learn to play say the same."""
    clauses = []
    for die in state.dice:
        error = build_blocker(state, die.id)
        if error is None:
            continue
        code = TYPE_LETTERS[die.type] + ("" if die.face is None else FACE_LETTERS[die.face])
        key = "why_die." + error.code
        if error.code != "blank_penthouse":
            key += "." + code[1:]
        the = t("dieword_the." + code) if len(code) == 2 else code
        clauses.append(t(key, die=the) if key in _KEYS_WITH_DIE else t("error.action." + error.code,
                                                                       **error.params))
    return clauses


_KEYS_WITH_DIE = frozenset(
    ["why_die.blank_penthouse"]
    + [f"why_die.needs_column.{f}" for f in "pbo"]
    + [f"why_die.{c}.{f}" for c in ("too_high", "penthouse_height") for f in "bo"]
)


# ---------------------------------------------------------------------------- names


# ---------------------------------------------------------------------------- decisions


def computer_turn(page: PageState, board: Board | None) -> bool:
    """A computer seat is to move in a game not over (never during a replay)."""
    return (
        board is not None and board.state.phase is not Phase.OVER and page.replay is None
        and page.seat_kind(board.state.seat).is_computer
    )


def friend_turn(page: PageState, board: Board | None) -> bool:
    """A friend elsewhere is to move: this device refuses moves until a link comes."""
    return (
        board is not None and board.state.phase is not Phase.OVER
        and page.seat_kind(board.state.seat).is_friend
    )


def commands(page: PageState, board: Board) -> dict[str, tuple[bool, str | None]]:
    """Each game command: (enabled, reason key when disabled), from the legal actions."""
    state = board.state
    phase = state.phase
    if page.replay is not None:
        return {name: (False, "why.replay") for name in GAME_COMMANDS}
    if page.readonly and board.state.phase is not Phase.OVER:
        return {name: (False, "why.readonly") for name in GAME_COMMANDS}  # "Play here" moves
    if computer_turn(page, board):
        return {name: (False, "why.computer") for name in GAME_COMMANDS}
    if friend_turn(page, board):
        return {name: (False, "why.friend") for name in GAME_COMMANDS}
    alive = {d.id for d in state.dice}
    sel = tuple(sorted(page.selected & alive))
    out: dict[str, tuple[bool, str | None]] = {}
    if phase is Phase.OVER:
        return {name: (False, "why.over") for name in GAME_COMMANDS}
    if page.choice is not None:
        return {name: (False, "why.choosing") for name in GAME_COMMANDS}
    undo_ok = bool(page.takes and phase is Phase.TAKE) or board.can_undo()
    undo_why = "why.committed" if board.actions else "why.nothing_to_undo"
    out["undo"] = (undo_ok, None if undo_ok else undo_why)
    if phase is Phase.TAKE:
        # solo has no abandoned district to take
        take_first = "why.take_first_solo" if state.solo else "why.take_first"
        for name in ("roll", "build", "abandon", "demolish", "end"):
            out[name] = (False, take_first)
        return out
    if phase is Phase.ROLL:
        out["roll"] = (True, None)
        for name in ("build", "abandon", "demolish", "end"):
            out[name] = (False, "why.roll_first")
        return out
    kinds = {type(a) for a in board.legal_actions()}
    cannot = "why.cannot_build" if Build in kinds else "why.nothing_buildable"
    if not sel:
        out["build"] = out["abandon"] = out["demolish"] = (False, "why.select")
        if Build not in kinds:
            out["build"] = (False, cannot)
    else:
        feasible = plan_build(state, sel).feasible
        out["build"] = (True, None) if feasible else (False, cannot)
        out["abandon"] = (True, None) if Abandon in kinds else (False, "why.no_abandon_solo")
        out["demolish"] = (True, None) if Demolish in kinds else (False, "why.no_buildings")
    if phase is Phase.RESOLVE:
        out["roll"] = (False, "why.resolve_first")
        out["end"] = (False, "why.resolve_first")
    else:
        out["roll"] = (True, None) if sel and Roll in kinds else (False, "why.select_reroll")
        out["end"] = (True, None) if EndTurn in kinds else (False, "why.resolve_first")
    return out


def prompt_key(page: PageState, board: Board, t: Callable[..., str] | None = None,
               names=None) -> tuple[str, dict[str, Any]]:
    """The prompt's string-table key and parameters (``t`` fills in the reasons why
    nothing can be built; ``names``: the names as shown)."""
    state = board.state
    if page.replay is not None:
        return "replay.prompt", {}
    if state.phase is Phase.OVER:
        return "prompt.over", {}
    if isinstance(page.choice, BuildChoice):
        return "prompt.choose_tower", {}
    if isinstance(page.choice, DemolishChoice):
        return "prompt.choose_demolish", {}
    if page.seat_kind(state.seat).is_friend:
        return "prompt.friend", {"name": state.player.name}
    if page.seat_kind(state.seat).is_computer:
        return "prompt.waiting", {"name": names[state.seat] if names else state.player.name}
    if state.phase is Phase.TAKE:
        left = max(1, 3 - len(page.takes))
        return f"prompt.take{'_solo' if state.solo else ''}.{left}", {}
    if state.phase is Phase.ROLL:
        return "prompt.roll", {}
    if state.phase is Phase.RESOLVE:
        if not any(isinstance(a, Build) for a in board.legal_actions()):
            reasons = unbuildable_reasons(t, state) if t is not None else ""
            return ("prompt.must_demolish" if state.solo else "prompt.no_build"), {
                "reasons": reasons}
        return ("prompt.resolve_solo" if state.solo else "prompt.resolve"), {}
    return "prompt.continue", {}


def can_take_yard(page: PageState, board: Board) -> bool:
    state = board.state
    return (
        state.phase is Phase.TAKE and page.choice is None and len(page.takes) < 3
        and page.seat_kind(state.seat).is_here and page.replay is None and not page.readonly
    )


def can_take_district(page: PageState, board: Board) -> bool:
    state = board.state
    return (
        rule_can_take_district(state) and page.choice is None  # the rule: skyline.rules
        and page.seat_kind(state.seat).is_here and page.replay is None and not page.readonly
    )


def can_hint(page: PageState, board: Board | None) -> bool:
    return (
        board is not None and board.state.phase is not Phase.OVER
        and page.seat_kind(board.state.seat).is_here and page.choice is None
        and page.replay is None
    )


# ---------------------------------------------------------------------------- texts


def die_label(t: Callable[..., str], type_letter: str, face_letter: str | None) -> str:
    if face_letter is None:
        return t("die.label_unrolled", type=t("die.type." + type_letter))
    return t("die.label", type=t("die.type." + type_letter), face=t("die.face." + face_letter))


def die_word(t: Callable[..., str], code: str) -> str:
    return t("dieword." + code)


def event_text(t: Callable[..., str], e: dict, names) -> str:
    name = names[e["seat"]] if e["seat"] < len(names) else "?"
    kind = e["event"]
    if kind == "take":
        return t("log.take", name=name, dice=", ".join(t("log.type." + x) for x in e["dice"]))
    if kind == "take_district":
        return t("log.take_district", name=name, n=len(e["dice"]))
    if kind == "roll":
        dice = ", ".join(die_word(t, d) for d in e["dice"].split())
        return t("log.reroll" if e["reroll"] else "log.roll", name=name, dice=dice)
    if kind == "stuck":
        return t("log.stuck", name=name)
    if kind == "build":
        text = t("log.build", name=name, die=t("dieword_a." + e["die"]), height=e["height"])
        if "completed" in e:
            text += " " + t("log.completed", height=e["completed"], points=e["points"])
        return text
    if kind == "demolish":
        what = t("column.label" if not e["completed"] else "tile.label_short",
                 kind=t("kind.short." + e["kind"]), height=e["height"])
        return t("log.demolish", name=name, die=t("dieword_with." + e["die"]), what=what)
    if kind == "abandon":
        return t("log.abandon", name=name,
                 dice=", ".join(die_word(t, d) for d in e["dice"].split()))
    if kind == "end_turn":
        return t("log.end_turn", name=name, n=e["returned"])
    if kind == "round_end":
        return t("log.round_end", round=e["round"])
    if kind == "game_over":
        return t("log.game_over")
    return kind


def log_view(events: list[dict], names, texts: Texts) -> LogView:
    """The game log, newest first (the last 300 events)."""
    return LogView(tuple(
        LogEntry(e["round"], e["event"], event_text(texts.t, e, names))
        for e in reversed(events[-300:])
    ))


def action_text(t: Callable[..., str], state: GameState, action) -> str:
    """An action as an instruction in the player's language (no future faces shown)."""
    if isinstance(action, Take):
        return t("hint.take", dice=", ".join(t("log.type." + d.letter) for d in action.types))
    if isinstance(action, TakeDistrict):
        return t("hint.district", n=len(state.district))
    if isinstance(action, Roll):
        if state.phase is Phase.ROLL:
            return t("hint.roll")
        by_id = {d.id: d for d in state.dice}
        words = []
        for i in action.dice:
            die = by_id[i]
            assert die.face is not None  # a reroll is of rolled dice
            words.append(die_word(t, die.type.letter + die.face.letter))
        return t("hint.reroll", dice=", ".join(words))
    if isinstance(action, EndTurn):
        return t("hint.end")
    events = describe(state, action, apply_action(state, action))
    e = events[0] if events else {}
    if isinstance(action, Build):
        the_die = t("dieword_the." + e["die"])
        if "completed" in e:
            return t("hint.build_completes", die=the_die, height=e["height"],
                     completed=e["completed"], points=e["points"])
        return t("hint.build", die=the_die, height=e["height"])
    if isinstance(action, Demolish):
        what = t("column.label" if not e["completed"] else "tile.label_short",
                 kind=t("kind.short." + e["kind"]), height=e["height"])
        return t("hint.demolish", die=t("dieword_with." + e["die"]), what=what)
    if isinstance(action, Abandon):
        return t("hint.abandon", dice=", ".join(die_word(t, d) for d in e["dice"].split()))
    return str(action)


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


def _status(page: PageState, board: Board, t, names) -> Status:
    state = board.state
    if state.phase is Phase.OVER:
        return Status(True, t("status.over"), "")
    name = names[state.seat]
    seat = page.seat_kind(state.seat)
    key = ("status.turn_computer" if seat.is_computer
           else "status.turn_friend" if seat.is_friend else "status.turn")
    turn = t("status.solo_turn") if state.solo else t(key, name=name)
    return Status(False, t("status.round", round=state.round), turn)


def _notices(page: PageState, t, names=()) -> tuple[NoticeView, ...]:
    out = []
    for n in page.notices:
        button = None
        if n.button is not None:
            button = (n.button.action, n.button.arg, t(n.button.label_key))
        params = {k: translate(t, v) for k, v in n.params}
        seat = params.pop("seat", None)
        if isinstance(seat, int) and 0 <= seat < len(names):
            params["name"] = names[seat]  # the name as shown now, in this language
        out.append(NoticeView(n.key, n.level.value, t(n.key, **params), button))
    return tuple(out)


def _tray(page: PageState, board: Board, t) -> tuple[DieView, ...]:
    state = board.state
    choice = page.choice
    focus = choice.die if choice is not None else None
    items: list[DieView] = []
    if state.phase is Phase.TAKE:
        for i, dtype in enumerate(page.takes):
            letter = TYPE_LETTERS[dtype]
            label = die_label(t, letter, None)
            items.append(DieView(
                -1, i, letter, None, label, t("die.short." + letter), taken=True,
                put_back=None if page.readonly else t("btn.put_back_label", die=label),
                put_back_text=t("btn.put_back"),
            ))
        return tuple(items)
    last = board.actions[-1] if board.actions else None
    # a computer's dice cannot be put back by the player
    from_yard = (state.phase is Phase.ROLL and isinstance(last, Take)
                 and page.seat_kind(state.seat).is_here and not page.readonly)
    rolled = set(just_rolled(page, board))
    for i, die in enumerate(state.dice):
        letter = TYPE_LETTERS[die.type]
        face = None if die.face is None else FACE_LETTERS[die.face]
        label = die_label(t, letter, face)
        short = t("die.short." + letter)
        if state.phase is Phase.ROLL:
            put_back = t("btn.put_back_label", die=label) if from_yard else None
            items.append(DieView(die.id, i, letter, face, label, short, put_back=put_back,
                                 put_back_text=t("btn.put_back")))
            continue
        items.append(DieView(
            die.id, i, letter, face, label, short, button=True,
            selectable=choice is None and not page.readonly, selected=die.id in page.selected,
            focus=die.id == focus,
            just_rolled=die.id in rolled,
        ))
    return tuple(items)


COMMAND_LABELS = {
    "roll": "btn.roll", "build": "btn.build", "abandon": "btn.abandon",
    "demolish": "btn.demolish", "end": "btn.end_turn", "undo": "btn.undo",
}


def _why(t, cmds: tuple[Command, ...]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """One line per reason: the disabled commands it greys out, then the reason."""
    groups: dict[str, list[Command]] = {}
    for cmd in cmds:
        if not cmd.enabled and cmd.reason:
            groups.setdefault(cmd.reason, []).append(cmd)
    return tuple(
        (tuple(c.name for c in group),
         t("why.line", commands=", ".join(c.label for c in group), reason=reason))
        for reason, group in groups.items()
    )


def _commands(page: PageState, board: Board, t) -> tuple[Command, ...]:
    state = board.state
    table = commands(page, board)
    names = ["roll", "build"] + ([] if state.solo else ["abandon"]) + ["demolish", "end", "undo"]
    return tuple(
        Command(
            name, t(COMMAND_LABELS[name]), table[name][0], table[name][1],
            t(table[name][1]) if table[name][1] and not table[name][0] else None,
            primary=name == "roll" and state.phase is Phase.ROLL,
        )
        for name in names
    )


def just_rolled(page: PageState, board: Board) -> tuple[int, ...]:
    """The dice the last action rolled, while that roll is new (``page.rolled`` is set
    by the controller after a roll and cleared by the next event): the tray animates
    them once and the narration can announce their faces."""
    state = board.state
    if not page.rolled or state.phase not in (Phase.RESOLVE, Phase.CONTINUE):
        return ()
    alive = {d.id for d in state.dice if d.face is not None}
    return tuple(i for i in page.rolled if i in alive)


def _turn(page: PageState, board: Board, t, names) -> TurnView:
    state = board.state
    over = state.phase is Phase.OVER
    if over:
        title = t("turn.title_over")
    else:
        title = t("turn.title_solo") if state.solo else t("turn.title", name=names[state.seat])
    key, params = prompt_key(page, board, t, names)
    cmds = _commands(page, board, t)
    return TurnView(
        title=title,
        prompt=t(key, **params),
        phase="choose" if page.choice is not None else state.phase.name.lower(),
        choosing=page.choice is not None,
        over=over,
        tray=() if over else _tray(page, board, t),
        open_slots=3 - len(page.takes) if state.phase is Phase.TAKE else 0,
        commands=cmds,
        why=() if over else _why(t, cmds),
        just_rolled=() if over else just_rolled(page, board),
    )


def _yard(page: PageState, board: Board, t) -> Yard:
    rows = []
    for i, letter in enumerate(TYPE_LETTERS):
        picked = sum(1 for d in page.takes if d == i)
        rows.append(YardRow(i, letter, t("yard.row." + letter), t("yard.faces." + letter),
                            picked, t("yard.picked", n=picked) if picked else ""))
    return Yard(tuple(rows), can_take_yard(page, board))


def _district(page: PageState, board: Board, t) -> District | None:
    state = board.state
    if state.solo:
        return None
    dice = tuple(DistrictDie(TYPE_LETTERS[d], die_label(t, TYPE_LETTERS[d], None))
                 for d in state.district)
    return District(dice, can_take_district(page, board),
                    t("district.take", n=len(state.district)))


def _players(page: PageState, board: Board, t, names,
             last: LastTurn | None = None) -> tuple[PlayerView, ...]:
    state = board.state
    over = state.phase is Phase.OVER
    choice = page.choice
    scores = board.scores()
    out = []
    for seat, player in enumerate(state.players):
        active = seat == state.seat and not over
        demolish = active and isinstance(choice, DemolishChoice)
        build_targets: set[int] = set()
        if active and isinstance(choice, BuildChoice):
            build_targets = build_target_columns(state, choice)
        tiles = []
        for i, b in enumerate(player.buildings):
            kind = FACE_LETTERS[b.kind]
            label = t("tile.label", kind=t("kind.short." + kind), height=b.height,
                      points=b.points)
            tiles.append(TileView(i, kind, b.height, b.points, label,
                                  t("tile.points", points=b.points), demolish,
                                  t("target.demolish", what=label),
                                  last is not None and last.seat == seat and i in last.tiles))
        columns = []
        for i, col in enumerate(player.columns):
            kind = FACE_LETTERS[col.kind]
            label = t("column.label", kind=t("kind.short." + kind), height=col.height)
            target = "demolish" if demolish else ("build" if i in build_targets else None)
            what = "target.demolish" if target == "demolish" else "target.build"
            # the end's rule: an unfinished low-rise ground floor scores as a height-one tile
            as_tile = t("tile.points", points=1) if over and scores_as_tile(col) else None
            columns.append(ColumnView(i, kind, col.height, label, target, t(what, what=label),
                                      as_tile,
                                      last is not None and last.seat == seat and i in last.columns))
        score = scores[seat]
        # the final scoring's count (lone low-rise ground floors included), as the score is
        buildings = completed_count(player)
        seat_kind = page.seat_kind(seat)
        start = seat == state.start_seat and not state.solo
        score_label = t("player.score", score=score)
        summary = [t("scoreboard.seat", name=names[seat], score=score_label,
                     buildings=t("scoreboard.buildings", n=buildings))]
        if start:
            summary.append(t("player.start"))
        if active and not state.solo:
            summary.append(t("player.to_move"))
        out.append(PlayerView(
            seat=seat, name=names[seat], label=t("player.label", name=names[seat]),
            kind=seat_kind, active=active,
            start=start,
            to_move=active and not state.solo, score=score,
            score_label=score_label, tiles=tuple(tiles),
            columns=tuple(columns),
            computer=t("seat.bot." + seat_kind.level) if seat_kind.level is not None else None,
            elsewhere=t("player.elsewhere") if seat_kind.is_friend else None,
            score_unit=t("player.points_short", n=score),
            buildings=buildings, summary=", ".join(summary),
        ))
    return tuple(out)


def _scoring(page: PageState, board: Board, t, best: dict, names) -> Scoring:
    state = board.state
    info = read_summary(state)
    rows = []
    for r in info.players:
        chips = tuple((b.kind.letter, t("score.chip", height=b.height, points=b.points))
                      for b in r.buildings)
        rows.append(ScoreRow(
            seat=r.seat, rank=r.rank, name=names[r.seat], chips=chips,
            none_text=None if chips else t("score.none"),
            converted=t("score.converted", n=r.converted) if r.converted else "–",
            discarded=t("score.discarded", n=len(r.discarded)) if r.discarded else None,
            score=r.score, completed=t("score.completed_n", n=r.completed),
        ))
    shown = names
    names = [shown[s] for s in info.winners]
    lines = []
    if state.solo:
        r = info.players[0]
        level = info.level
        lines.append(t("result.solo_level", level=t("level." + level)) if level
                     else t("result.solo_no_level"))
        if info.scenario:
            key = "result.scenario_met" if info.scenario_met else "result.scenario_failed"
            lines.append(t(key, scenario=t("scenario." + info.scenario)))
        if page.beat is not None:
            key = "result.beat_yes" if r.score > page.beat else (
                "result.beat_tie" if r.score == page.beat else "result.beat_no")
            lines.append(t(key, score=page.beat))
        record = best.get(info.scenario or "-")
        if isinstance(record, int):
            lines.append(t("result.best", score=record))
        headline = t("result.solo_total", score=r.score)
    else:
        if len(names) == 1:
            headline = t("result.winner", name=names[0])
        else:
            headline = t("result.shared", names=", ".join(names))
        if info.tie_break:
            lines.append(t("result.tie_break"))
            if len(names) > 1:
                lines.append(t("result.still_tied"))
        else:  # the rule behind the ranks below, in the rules' words
            lines.append(t("result.ranking_rule"))
    # by rank (the tie-break is stated above), seat order among equals
    return Scoring(headline, tuple(lines), tuple(sorted(rows, key=lambda r: (r.rank, r.seat))))


def _hint(page: PageState, board: Board, t, lang: str) -> HintView | None:
    hint = page.hint
    if hint is None or hint.actions != len(board.actions):
        return None
    state = board.state
    if not hint.rows:
        legal = board.legal_actions()
        only_end = [type(a) for a in legal] == [EndTurn]
        if len(legal) == 1 and not only_end:  # e.g. the first roll (a scenario's hint has no
            # rows for it): the one thing to do is the best
            return HintView(t("hint.best", action=action_text(t, state, legal[0])), (),
                            marks=hint_marks(state, legal[0]))
        return HintView(None, (), t("hint.only_end" if only_end else "hint.none"),
                        marks=frozenset({"act-end"}) if only_end else frozenset())
    scenario = _game_scenario(board)
    if scenario and all("p_success" in r for r in hint.rows):
        name = t("scenario." + scenario)
        options = tuple(
            (action_text(t, state, r["action"]),
             t("hint.scenario_value", scenario=name, p=percent(lang, r["p_success"]),
               value=number(lang, r["expected_score"])))
            for r in hint.rows
        )
        heading = t("hint.scenario_options", scenario=name)
    else:
        options = tuple(
            (action_text(t, state, r["action"]), t("hint.value", value=number(lang, r["value"])))
            for r in hint.rows
        )
        heading = t("hint.options")
    best = t("hint.best", action=action_text(t, state, hint.rows[0]["action"]))
    lines = tuple(t("hint.option", action=action, value=value) for action, value in options)
    return HintView(best, options, heading=heading,
                    marks=hint_marks(state, hint.rows[0]["action"]), lines=lines)


LOSS_SHOWN = 0.05  # expected points: a decision losing less is as good as the best
COSTLY_SHOWN = 5  # the review lists at most this many costly decisions up front


def _review(page: PageState, board: Board, t, lang: str) -> ReviewView | None:
    r = page.review
    if r is None or not board.is_game_over() or not board.state.solo:
        return None
    if not r.done:
        return ReviewView(False, t("review.working", done=r.i, total=len(board.actions)),
                          None, ())
    if r.verdict is not None and _game_scenario(board):
        return _scenario_review(r, t, lang)
    rows = tuple(
        ReviewRow(d["round"], action_text(t, d["state"], d["chosen"]),
                  action_text(t, d["state"], d["best"]), number(lang, d["loss"]),
                  d["loss"] >= LOSS_SHOWN)
        for d in r.decisions
    )
    accuracy = t("review.accuracy", accuracy=number(lang, r.accuracy),
                 lost=number(lang, r.total), optimum=number(lang, r.start))
    worst = _costliest(r.decisions)
    per_round: dict[int, float] = {}
    for d in r.decisions:
        per_round[d["round"]] = per_round.get(d["round"], 0.0) + d["loss"]
    rounds = tuple(
        RoundLoss(n, number(lang, loss), t("review.round_cell", round=n, lost=number(lang, loss)),
                  loss >= LOSS_SHOWN)
        for n, loss in sorted(per_round.items())
    )
    return ReviewView(True, None, accuracy, rows, tuple(rows[i] for i in worst), rounds,
                      t("review.all", n=len(rows)), t("review.rounds"), t("review.costly"),
                      t("review.no_costly"), t("review.lost"))


def _costliest(decisions: list[dict]) -> list[int]:
    """The decisions that cost at least LOSS_SHOWN (on the game's objective), worst first."""
    return sorted((i for i, d in enumerate(decisions) if d["loss"] >= LOSS_SHOWN),
                  key=lambda i: (-decisions[i]["loss"], i))[:COSTLY_SHOWN]


def _scenario_review(r: ReviewProgress, t, lang: str) -> ReviewView:
    """The review of a scenario game: every decision graded on the scenario's objective
    (``skyline.expert.grade``: the chance of meeting it first, then the expected score),
    the chance and points each one gave away, whether the scenario was met and, if it
    failed, the decision that lost the most of its chance."""
    v = r.verdict or {}
    name = t("scenario." + v["scenario"])

    def points_lost(d: dict) -> float:  # negative: the choice expects more points
        lost = d["best_expected_score"] - d["chosen_expected_score"]
        return 0.0 if abs(lost) < 0.05 else lost

    def pp(p: float) -> str:  # percentage points
        return number(lang, 100.0 * p)

    rows = tuple(
        ReviewRow(d["round"], action_text(t, d["state"], d["chosen"]),
                  action_text(t, d["state"], d["best"]),
                  # a choice for the objective may give up chance and still gain points
                  t("review.scenario_loss" if points_lost(d) >= 0 else "review.scenario_gain",
                    p=pp(d["p_loss"]), points=number(lang, abs(points_lost(d)))),
                  d["loss"] >= LOSS_SHOWN)
        for d in r.decisions
    )
    accuracy = t("review.scenario_accuracy", scenario=name, accuracy=number(lang, r.accuracy),
                 lost=pp(v["p_loss_total"]), start=percent(lang, v["start_p_success"]),
                 optimum=number(lang, v["start_expected_score"]))
    per_round: dict[int, list[float]] = {}
    for d in r.decisions:
        acc = per_round.setdefault(d["round"], [0.0, 0.0, 0.0])
        acc[0] += d["p_loss"]
        acc[1] += points_lost(d)
        acc[2] += d["loss"]
    rounds = tuple(
        RoundLoss(n, pp(p), t("review.scenario_round_cell", round=n, p=pp(p),
                              points=number(lang, points)), loss >= LOSS_SHOWN)
        for n, (p, points, loss) in sorted(per_round.items())
    )
    met = v.get("scenario_met")
    lines = [t("review.scenario_met" if met else "review.scenario_failed", scenario=name)]
    culprit = v.get("failed_by")
    if v.get("failed_scenario") and culprit is not None:
        lines.append(t("review.scenario_lost_by", round=culprit["round"],
                       chosen=action_text(t, culprit["state"], culprit["chosen"]),
                       best=action_text(t, culprit["state"], culprit["best"]),
                       p=pp(culprit["p_loss"]),
                       before=percent(lang, culprit["best_p_success"]),
                       after=percent(lang, culprit["chosen_p_success"])))
    elif v.get("failed_scenario"):
        lines.append(t("review.scenario_dice"))
    return ReviewView(True, None, accuracy, rows,
                      tuple(rows[i] for i in _costliest(r.decisions)), rounds,
                      t("review.all", n=len(rows)),
                      t("review.scenario_rounds", scenario=name), t("review.scenario_costly"),
                      t("review.scenario_no_costly"), t("review.scenario_lost"),
                      tuple(lines), met)


TABLE_LOSS_SHOWN = 0.1  # percentage points: a decision losing less is as good as the best
TABLE_COSTLY_SHOWN = 5  # the costly decisions listed per player


def _table_review(page: PageState, board: Board, t, lang: str,
                  names) -> TableReviewView | None:
    """The review of a finished game of 2-4 players: for each person at this device the
    decisions that cost the most chance of winning (graded by the expert that plays), the
    game's turning points and a line on the seats not reviewed."""
    r = page.table_review
    state = board.state
    if (r is None or state.solo or not board.is_game_over()
            or r.key != (board.options, tuple(board.actions))):
        return None
    title = t("table_review.title")
    if r.result is None:
        return TableReviewView(False, t("table_review.working", done=r.i, total=r.total), title)
    review = r.result

    def pct(p: float) -> str:
        return percent(lang, p)

    seats = []
    for seat in review.seats:
        graded = review.of(seat)
        rows = tuple(
            TableReviewRow(d.round, action_text(t, d.state, d.chosen),
                           action_text(t, d.state, d.best),
                           t("table_review.chance_cell", before=pct(d.before), after=pct(d.after)),
                           number(lang, d.loss), True)
            for d in review.costly(seat, TABLE_COSTLY_SHOWN, TABLE_LOSS_SHOWN)
        )
        seats.append(TableReviewSeat(
            seat, names[seat], t("table_review.seat_title", name=names[seat]),
            t("table_review.seat_summary", n=len(graded),
              lost=number(lang, review.total_loss(seat))),
            rows, None if rows else t("table_review.seat_none")))
    # the turning points as the people here see them (their own chances), else the winner's
    readers = review.seats or review.winners[:1] or (0,)
    turning = [turning_line(t, turn, readers, bool(review.seats), names, pct)
               for turn in review.turning_points_for(readers)]
    others = len(review.seats) < len(state.players)
    return TableReviewView(
        True, None, title, t("table_review.intro"), tuple(seats),
        (t("review.round"), t("table_review.chosen"), t("review.best"),
         t("table_review.chances"), t("table_review.lost")),
        t("table_review.turning_title"), tuple(turning),
        None if turning else t("table_review.turning_none"),
        t("table_review.not_reviewed") if others else None,
    )


def turning_line(t: Callable[..., str], turn: TurnChange, readers: tuple[int, ...],
                 here: bool, names: Sequence[str], pct: Callable[[float], str]) -> str:
    """One turning point of the review of 2-4 players, from the readers' point of view:
    one person here reads "your chance" ("you" on their own turn), several read each
    one's chance by name; without anyone here, the chance of ``readers`` (the winner)."""
    lead = ""
    if turn.leader_after == turn.seat and turn.leader_before != turn.seat:
        lead = t("table_review.took_lead")
    elif turn.leader_before == turn.seat and turn.leader_after != turn.seat:
        lead = t("table_review.lost_lead", leader=names[turn.leader_after])
    words = {"round": turn.round, "name": names[turn.seat], "parts": turn_words(t, turn.events),
             "lead": lead}
    if not here:
        focus = readers[0]
        return t("table_review.turning", focus=names[focus], before=pct(turn.before[focus]),
                 after=pct(turn.after[focus]), **words)
    if len(readers) == 1:
        me = readers[0]
        key = "table_review.turning_own" if turn.seat == me else "table_review.turning_yours"
        return t(key, before=pct(turn.before[me]), after=pct(turn.after[me]), **words)
    chances = ", ".join(t("table_review.turning_chance", name=names[seat],
                          before=pct(turn.before[seat]), after=pct(turn.after[seat]))
                        for seat in readers)
    return t("table_review.turning_several", chances=chances, **words)


def _daily_best(daily: Mapping[str, Any] | None, board: Board) -> int | None:
    day = daily_day(board.options)
    row = (daily or {}).get(day.isoformat()) if day is not None else None
    best = row.get("best") if isinstance(row, dict) else None
    return best if isinstance(best, int) else None


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
    ``daily``: the records of the daily challenges (day -> {"best", "plays"}); ``base``:
    the page's address, for the daily challenge's link;
    ``log``: the translated game log if the caller keeps one cached, else it is made
    from ``events`` (the engine's ``Board.log()`` when not given); ``games``: the game
    list's entries in the order shown, ``current`` the open one's id (game-list dialog);
    ``can_share``: the browser has a share sheet. During a replay (``page.replay``)
    ``board`` is the replayed game at its step."""
    t = texts.t
    lang = texts.lang
    labels = Labels(lang, MappingProxyType({k: t(k) for k in LABEL_KEYS}))
    game = None
    announce = ""
    names: tuple[str, ...] = ()
    if board is not None:
        state = board.state
        over = state.phase is Phase.OVER
        names = player_names(page, [p.name for p in state.players], texts)
        if log is None:
            log = log_view(board.log() if events is None else events, names, texts)
        bot_bar = None
        if computer_turn(page, board):
            kind = page.seat_kind(state.seat)
            level = t("seat.level." + str(kind.level))
            name = names[state.seat]
            text = (t("bot.playing_level", level=level)
                    if is_default_name(texts, state.player.name, state.seat, kind)
                    else t("bot.playing", name=name, level=level))
            bot_bar = BotBar(text, not page.skipping and not page.readonly,
                             tuple((p, t("bot.pace." + p), p == page.pace) for p in PACES),
                             t("bot.pace"))
        hint_ok = can_hint(page, board)
        last = last_turn_view(page, board, t, names)
        game = Game(
            solo=state.solo,
            turn=_turn(page, board, t, names),
            yard=_yard(page, board, t),
            district=_district(page, board, t),
            players=_players(page, board, t, names, last),
            scoring=_scoring(page, board, t, dict(best or {}), names) if over else None,
            beat=t("beat.show", score=page.beat) if page.beat is not None and state.solo
            else None,
            log=log,
            bot_bar=bot_bar,
            hint_available=hint_ok,
            hint=_hint(page, board, t, lang) if hint_ok else None,
            review=_review(page, board, t, lang),
            scenario=scenario_view(t, state),
            daily=daily_view(page, board, t, base, _daily_best(daily, board)),
            replay=games_ui.replay_view(page.replay, board, texts) if page.replay else None,
            corr=games_ui.corr_view(page, board, texts),
            last_turn=last,
            table_review=_table_review(page, board, t, lang, names),
        )
        announce = _announce(page, board, t, names, game.scoring)
    return Screen(
        lang=lang,
        other_lang="de" if lang == "en" else "en",
        labels=labels,
        status=_status(page, board, t, names) if board is not None else None,
        notices=_notices(page, t, names),
        dialog=dialog_view(DialogContext(page, texts, board, games, current, can_share)),
        game=game,
        announce=announce,
        announce_seq=page.narration.seq if announce and page.narration is not None else 0,
        menu_open=page.menu_open,
    )


__all__ = [
    "Screen", "Game", "TurnView", "Command", "DieView", "Yard", "YardRow", "District",
    "PlayerView", "TileView", "ColumnView", "Scoring", "ScoreRow", "NoticeView", "BotBar",
    "HintView", "ReviewView", "ReviewRow", "RoundLoss", "TableReviewView", "TableReviewSeat",
    "TableReviewRow", "LogView", "LogEntry", "NewGameView",
    "RulesView",
    "ConfirmLinkView", "ShareView", "ExportView", "Labels", "Status", "ScenarioView",
    "build_screen", "scenario_view", "unbuildable_reasons", "player_names", "default_name",
    "is_default_name",
    "commands", "prompt_key", "computer_turn", "build_target_columns", "build_choice_for",
    "read_summary", "dialog_kind", "just_rolled", "first_target",
]
