"""The turn's view types: the dice, the yard and the district, the players'
skylines, the scoring and the turn panel, as the turn's HTML shows them."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.commands import Cmd
from skyline import Seat


@dataclass(frozen=True)
class Command:
    name: Cmd  # one of TURN_COMMANDS
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
    changed: bool = False  # completed in a rival's turn shown (LastTurn)


@dataclass(frozen=True)
class ColumnView:
    """An unfinished building."""

    index: int
    kind: str
    height: int
    label: str
    target: str | None  # "build", "demolish" or None
    target_label: str
    # what it scores where the final scoring counts it ("1 pt": a lone low-rise ground
    # floor), at every moment; else the skyline's caption says "unfinished"
    points_text: str | None = None
    changed: bool = False  # built on in a rival's turn shown (LastTurn)


@dataclass(frozen=True)
class LastTurn:
    """A rival's turn since the player to move last played (a person here, a computer,
    a friend's link), shown until the player to move acts: one line, and its buildings
    marked."""

    seat: int
    text: str
    columns: frozenset[int]
    tiles: frozenset[int]
    short: str = ""  # "Robo: +4 points": a phone shows this when several rivals moved


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
    show: str = ""  # the scoreboard chip's name as a button: the sentence, "show skyline"
    shown: bool = False  # the skyline a tap on its chip asked for (the phone's strip turns)
    place: int = 0  # the final ranking's place once the game is over (0 before)


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
