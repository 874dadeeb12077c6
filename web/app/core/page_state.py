"""The page's own state around the engine's ``Board``: typed, no tuples read by index.

Only what is not a rule lives here: the yard picks not yet pushed, the selected dice, a
pending tower or demolition choice, the open dialog, the notices, the computer seats and
the computer helpers' results (hint, review). ``app.screen`` reads it (with the board)
to decide what the player sees; the features' commands change it.

A type lives here when the core reads it or several features do: the hint (the
computer and the tutorial), the demolition choice (the turn and the tutorial), the
day's benchmark (the computer plays it, the daily panel shows it), a replay (the game
list and the chances chart), a friend's turn played back (the game links start it, the
turn plays it). A type one feature alone reads lives in that feature
(``<feature>/state.py``); the core imports no feature, so the field of ``PageState``
that holds it is typed by an empty base named here, which the feature's type extends,
and the feature reads the field back through one typed accessor that narrows it by
``isinstance``. So mypy still checks every value put into a field and every read of
it, the core needs no feature, and a field holds only its own kind:

- ``PageState.dialog``: ``DialogState`` (the daily challenge's question in
  ``app.daily.state``, the game link's Send and Claim in ``app.games.state``);
- ``Session.tutorial``: ``Lesson`` (``app.tutorial.guide.TutorialState``);
- ``review``, ``table_review``, ``chances``: ``ReviewState``, ``TableReviewState``,
  ``ChancesState`` (``app.computer.state``: ``review_of``, ``table_review_of``,
  ``chances_of``);
- ``choice``: ``Choice`` (the demolition's is shared, below; the tower's is
  ``app.turn.state.BuildChoice``); ``shown_seat``: ``ShownSeatState``
  (``app.turn.state``: ``shown_seat_of``).

A base is an empty class rather than a ``Protocol`` of the feature's fields: what a
feature's state holds is the feature's business, and the core only asks whether a
field is set. A feature reads its own back with :func:`held_as`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from app.core.cues import Cue
from app.core.i18n import Text, Texts
from skyline import Board, DieType, Options
from skyline.records.seats import COMPUTER_LEVELS, Seat

# The new-game form's seat values: a person here, a friend elsewhere (correspondence
# play by link) or a computer level (in the order offered, ``COMPUTER_LEVELS``).
HUMAN = "human"
FRIEND = "friend"
HERE = Seat.here()


def seat_of_form(value: object) -> Seat:
    """The seat a new-game form value means (anything unknown: a person here)."""
    if value in COMPUTER_LEVELS:
        return Seat.computer(str(value))
    return Seat.friend() if value == FRIEND else HERE


def form_value(seat: Seat) -> str:
    """The new-game form's value of ``seat``."""
    return HUMAN if seat.is_here else seat.code


def seats_of_entry(codes: tuple[str, ...]) -> dict[int, Seat]:
    """The seats a game-list entry stores (``Seat.code``) that are not a person here."""
    return {i: seat for i, seat in enumerate(map(Seat.from_code, codes)) if not seat.is_here}


class Level(StrEnum):
    """How a notice looks (and how urgent it is)."""

    INFO = "info"
    WARN = "warn"
    ERROR = "error"


@dataclass(frozen=True)
class NoticeButton:
    """A command inside a notice, e.g. "Play here" (``take-control``)."""

    action: str
    arg: str
    label_key: str


@dataclass(frozen=True)
class Notice:
    """A message to the player: string-table key, its parameters, look, stickiness."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()
    level: Level = Level.INFO
    sticky: bool = False
    button: NoticeButton | None = None


# ---------------------------------------------------------------------------- choices


class Choice:
    """A tower or demolition choice waits for its target (``PageState.choice``): the
    demolition's below (the tutorial reads it besides the turn), the tower's is the
    turn's own (``app.turn.state.BuildChoice``)."""


@dataclass(frozen=True)
class DemolishChoice(Choice):
    """A demolition waits for its target; ``queue``: the dice still to use, first next."""

    queue: tuple[int, ...]

    @property
    def die(self) -> int:
        return self.queue[0]



# ---------------------------------------------------------------------------- dialogs


class DialogState:
    """The open dialog's page state (``PageState.dialog``). The dialogs the core names
    are below; a feature's own dialog lives in the feature, on this base (the daily
    challenge's question, the game link's Send and Claim)."""



@dataclass
class NewGameDialog(DialogState):
    """The new-game form as the player left it (edited in place on every change)."""

    first: bool = False
    count: int = 1
    names: list[str | None] = field(default_factory=list)  # None: the seat's default name
    seats: list[str] = field(default_factory=lambda: [HUMAN] * 4)
    start: str = "0"  # a seat number or "r" (random)
    nine: bool = False
    scenario: str = ""
    seed: str = ""
    error: str | None = None
    notice: Text | None = None  # e.g. why the link this visit came with cannot be opened
    # the computer's help for the game, and the kind of game (solo, computers, humans) it
    # was set for: a change of kind shows that kind's own setting again
    help: bool = True
    help_kind: str = ""
    live: bool = False  # a live table for the friends elsewhere (offered when there are some)


@dataclass(frozen=True)
class RulesDialog(DialogState):
    pass


@dataclass(frozen=True)
class ConfirmLinkDialog(DialogState):
    """A link arrived while a game was in progress: start it only if the player says so."""

    options: Options
    beat: int | None = None
    seats: tuple[Seat, ...] = ()


@dataclass(frozen=True)
class StatsDialog(DialogState):
    """The statistics page: a snapshot of the history and records when it was opened,
    and the blob URL of their JSON export."""

    results: tuple[Any, ...]  # game_stats.GameResult, oldest first
    records: dict[str, Any]
    export_url: str | None
    export_name: str


@dataclass
class ShareDialog(DialogState):
    link: str
    copied: bool | None = None  # None: the clipboard has not answered yet


@dataclass(frozen=True)
class ExportDialog(DialogState):
    """A save that could not be loaded, shown as text with a download link."""

    key: str
    text: str
    url: str | None


@dataclass
class GamesDialog(DialogState):
    """The game list; ``renaming``: the entry whose name is being edited;
    ``deleted``: (id, name) of the game just deleted (its Undo is shown in the list)."""

    renaming: str | None = None
    deleted: tuple[str, str] | None = None


@dataclass(frozen=True)
class DialogContext:
    """What a dialog's view may read besides its own state."""

    page: PageState
    texts: Texts
    board: Board | None = None
    games: tuple[Any, ...] = ()  # the game list, newest first
    current: str | None = None  # the open game's id
    can_share: bool = False  # the browser has a share sheet


# ---------------------------------------------------------------------------- computer helpers


@dataclass(frozen=True)
class HintResult:
    """The expert's best actions for the position after ``actions`` actions."""

    actions: int
    rows: tuple[dict[str, Any], ...]  # skyline.expert.hint rows: {"action", "value", ...}


class ReviewState:
    """The review of a finished solo game while the computer grades it
    (``PageState.review``): the computer's ``ReviewProgress`` (``app.computer.state``)."""


class TableReviewState:
    """The review of a finished game of 2-4 players while the computer grades it
    (``PageState.table_review``): the computer's ``TableReviewProgress``
    (``app.computer.state``)."""


class ChancesState:
    """The chances chart's values as the game goes (``PageState.chances``): the
    computer's ``ChancesProgress`` (``app.computer.state``)."""


@dataclass(frozen=True)
class DailyBench:
    """The expert playing the dice of the daily challenge of ``day`` in idle ticks
    (``app.computer.pacer``), ``round`` reached; its score is kept with the day's record
    (``store.Records.keep_daily_expert``) and this progress goes."""

    day: str
    round: int = 1


# ---------------------------------------------------------------------------- narration


@dataclass(frozen=True)
class Narration:
    """What the live region says about the latest game action (``screen`` translates it).

    ``seq`` grows with every new narration, so the page speaks again even when two
    actions read the same."""

    seq: int
    events: tuple[dict[str, Any], ...]  # skyline.board.describe() events of the latest action
    turn_changed: bool  # another seat (or round) is to move now
    new_game: bool = False  # a game was just started


@dataclass
class Playback:
    """A friend's turn that came by link, played on the board one action at a time at
    the computer's pace (``app.turn.playback``): ``step`` actions of ``record`` are
    shown, of ``total``. The game itself is already the updated one; a click or Skip
    shows it at once. Page state only, never saved: a reload shows the board still."""

    record: str
    step: int
    total: int


@dataclass(frozen=True)
class LiveStatus:
    """The open game is at a live table (``app.games.live``): what the rest of the page
    reads of it. ``moves_here``: the seats this device moves for (its own and, on the
    device of the game's first human seat, the computers'); ``away``: the seats whose
    device is not connected now; ``synced``: this device has compared its game with a
    peer's since it joined, so it may move; ``network``: "connecting", "open" (a relay
    is reachable), "closed" (none is), "offline" (the device has no network) or
    "unavailable" (live play could not start in this browser)."""

    moves_here: frozenset[int]
    away: frozenset[int] = frozenset()
    synced: bool = False
    network: str = "connecting"


@dataclass
class ReplayState:
    """A game of the list replayed move by move: ``step`` actions of ``record`` are
    shown. The replay holds its own copy of the record; the game is never changed."""

    entry_id: str
    name: str
    record: str
    total: int
    step: int
    seats: dict[int, Seat] = field(default_factory=dict)


class ShownSeatState:
    """The skyline a tap on a scoreboard chip asked for (``PageState.shown_seat``): the
    turn's ``ShownSeat`` (``app.turn.state``)."""


Held = TypeVar("Held")


def held_as(value: object, kind: type[Held]) -> Held | None:
    """A feature's own state from a field typed by its core base: ``value`` if it is the
    feature's ``kind``, else None.

    >>> held_as(ShownSeatState(), ShownSeatState) is not None, held_as(None, ShownSeatState)
    (True, None)
    """
    return value if isinstance(value, kind) else None


# ---------------------------------------------------------------------------- page state


#: The computer's pace: the pause before each of its actions, in ms (web/bots_ui.py).
PACES = {"normal": 600, "fast": 200, "instant": 15}

#: The computer's help (Hint and the chances chart) by game kind: on unless the player
#: turned it off (solo, a game with a computer), off unless turned on where only people
#: play each other (there it would advise one player against another).
HELP_DEFAULTS = {"solo": True, "computers": True, "humans": False}


class Lesson:
    """A guided lesson's state while it runs (``Session.tutorial``): its board is never
    saved nor counted. The tutorial's own state (``app.tutorial.guide``) is one."""


@dataclass
class PageState:
    """Everything of the page that is not the game itself."""

    takes: list[DieType] = field(default_factory=list)  # yard picks not yet pushed
    selected: set[int] = field(default_factory=set)
    choice: Choice | None = None
    dialog: DialogState | None = None
    notices: list[Notice] = field(default_factory=list)
    beat: int | None = None  # a score to beat (solo links)
    seats: dict[int, Seat] = field(default_factory=dict)  # the seats not a person here
    readonly: bool = False  # another tab has the game: this one only watches
    crashed: bool = False  # an action failed half-way: nothing is saved until reloaded
    skipping: bool = False  # the computer plays its turn out without the pace
    pace: str = "normal"  # the computer's pace: normal, fast, instant (PACES; remembered)
    hint: HintResult | None = None
    review: ReviewState | None = None
    table_review: TableReviewState | None = None  # a game of 2-4 players
    rolled: tuple[int, ...] = ()  # dice the last action rolled, until the next event
    daily_copied: bool | None = None  # the daily result line: copied, failed, not yet
    daily_bench: DailyBench | None = None  # the expert playing a daily challenge's dice
    replay: ReplayState | None = None
    playback: Playback | None = None  # a friend's turn from a link, played on the board
    live: LiveStatus | None = None  # the open game is at a live table
    tz_minutes: int = 0  # the player's offset from UTC, for the list's times
    # the browser's answer to "keep this site's storage": None (not asked), "asked" (no
    # answer yet, e.g. a prompt left open), "granted", "denied", "unsupported"
    storage_kept: str | None = None
    menu_open: bool = False  # the top bar's menu on a narrow screen
    narration: Narration | None = None  # the live region's latest news
    # what the latest actions did, for motion and sound: the next render sends them
    # once and drops them (app.core.cues); never saved
    cues: list[Cue] = field(default_factory=list)
    sound: bool = False  # the page's sounds (off until the player turns them on; remembered)
    shown_seat: ShownSeatState | None = None  # the skyline a scoreboard chip asked for
    chances: ChancesState | None = None  # the chart beside the log (app.computer.chances)
    # the computer's help on or off, by game kind (solo, computers, humans; remembered)
    help_on: dict[str, bool] = field(default_factory=dict)

    @property
    def friend_seats(self) -> tuple[int, ...]:
        return tuple(sorted(i for i, seat in self.seats.items() if seat.is_friend))

    def seat_kind(self, seat: int) -> Seat:
        return self.seats.get(seat, HERE)
