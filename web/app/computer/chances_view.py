# ruff: noqa: E501 - HTML templates read better unwrapped
"""The chances chart's part of the screen model and its HTML (``app.computer.chances``).

The chart is an SVG hidden from screen readers (``aria-hidden``) with a table beside it
that says the same: one row per turn, each row's first cell a button that replays the
game from that turn; the table is visually hidden until the keyboard reaches it. Each
turn's point in the SVG is a band a tap or click hits (the same command). The chart's box
keeps its size while values arrive (style.css, "The chances as the game goes")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.computer.state import chances_of
from app.core.commands import Cmd
from app.core.html import esc
from app.core.names import esc_names
from app.core.page_state import PageState
from app.core.whose_turn import game_kind, help_on
from app.core.words import number, percent
from skyline import SOLO_LEVELS, Board
from skyline.rules import ROUNDS

#: The SVG's user space: the box, and the plot inside it (room for the axes' words).
WIDTH, HEIGHT = 320, 150
CURRENT = ' aria-current="step"'  # the row of the turn the replay shows
LEFT, RIGHT, TOP, BOTTOM = 34, 312, 8, 131

#: The chart's On/Off switch (focused after it is pressed).
CHANCES_SWITCH = "chances-switch"


@dataclass(frozen=True)
class ChanceLine:
    """One player's line (or the solo value's): its name and its points in the plot."""

    seat: int
    name: str
    coords: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class ChanceDot:
    """A point of a line in the plot; ``now``: the turn the replay shows."""

    cx: float
    cy: float
    series: int
    now: bool


@dataclass(frozen=True)
class ChanceGuide:
    """A horizontal guide at ``height`` in the plot: its ``number`` on the left (a
    percentage, a solo level's threshold) and the level's title on the right, if any."""

    height: float
    number: str
    level: str


@dataclass(frozen=True)
class ChanceTarget:
    """A turn's point as a target: the replay ``step``, the band's ``x`` and width, its
    words (``label``: the turn; ``values``: each line's value at it), and whether the
    replay shows it now."""

    replay_at: int
    x: float
    width: float
    label: str
    values: tuple[str, ...]
    current: bool


@dataclass(frozen=True)
class ChanceChart:
    """The chart: lines, the turn targets, the y axis' guides (``(y, left text, right
    text)``: percentages, or the solo levels' thresholds with their titles), the round
    numbers on the x axis, and the table's words."""

    lines: tuple[ChanceLine, ...]
    targets: tuple[ChanceTarget, ...]
    guides: tuple[ChanceGuide, ...]
    round_marks: tuple[tuple[float, int], ...]  # each round's number under its turns
    dots: tuple[ChanceDot, ...]
    caption: str
    heads: tuple[str, ...]  # the turn column, then one per line
    axis: str  # the x axis' word ("Round")


@dataclass(frozen=True)
class ChancesView:
    """The chart's block beside the log: its title, the switch, a line of state and
    the chart itself (None while off)."""

    title: str
    switch: str
    shown: bool
    note: str  # what is going on ("" = nothing to say), in a box of fixed height
    chart: ChanceChart | None
    legend: tuple[str, ...] = ()  # the players' names, one line each (2-4 players)


def chances_view(page: PageState, board: Board, t: Callable[..., str], lang: str,
                 names: Sequence[str], current: str | None) -> ChancesView | None:
    """The chart's block, or None where it has no place (a replay of another game)."""
    if page.replay is not None and page.replay.entry_id != current:
        return None
    kind = "table" if not board.state.solo else "scenario" if board.options.scenario else "score"
    scenario = t("scenario." + board.options.scenario) if board.options.scenario else ""
    title = t("chances.title." + kind, scenario=scenario)
    shown = help_on(page, board)
    if not shown:
        note = t("chances.off_humans") if game_kind(page, board) == "humans" else ""
        return ChancesView(title, t("chances.switch"), False, note, None)
    progress = chances_of(page)
    points = progress.points if progress is not None and progress.key == board.options else ()
    if len(points) < 2:
        note = t("chances.waiting")
    elif (progress is not None and not progress.done and page.replay is None
          and points[-1].round < board.state.round - 1):
        # catching up (a game opened mid-way): said; a turn or two behind during play is not
        note = t("chances.working", turn=points[-1].turn)
    else:
        note = ""
    chart = _chart(page, board, t, lang, names, kind, title, points) if points else None
    legend = tuple(names) if kind == "table" else ()
    return ChancesView(title, t("chances.switch"), True, note, chart, legend)


def _chart(page: PageState, board: Board, t: Callable[..., str], lang: str,
           names: Sequence[str], kind: str, title: str, points: tuple) -> ChanceChart:
    seats = len(board.options.names)
    turns = ROUNDS * seats  # the longest game: the x axis never rescales as turns come
    dx = (RIGHT - LEFT) / turns
    if kind == "score":
        values = [p.values[0] for p in points]
        lo = min(30.0, 10.0 * (min(values) // 10))
        hi = max(110.0, 10.0 * -(-max(values) // 10))
        guides = tuple(ChanceGuide(y_of((threshold - lo) / (hi - lo)), str(threshold),
                                   t("level." + title_key))
                       for threshold, title_key in SOLO_LEVELS)
    else:
        lo, hi = 0.0, 1.0
        pct = " %" if lang == "de" else "%"
        guides = tuple(ChanceGuide(y_of(v), f"{round(100 * v)}{pct}", "") for v in (0.0, 0.5, 1.0))

    def fmt(v: float) -> str:
        return number(lang, v) if kind == "score" else percent(lang, v) + (" %" if lang == "de" else "%")

    replay = page.replay
    shown_at = max((p.step for p in points if p.step <= replay.step), default=-1) if replay else -1
    lines_n = seats if kind == "table" else 1
    lines = tuple(
        ChanceLine(i, names[i] if kind == "table" else title,
                   tuple((LEFT + p.turn * dx, y_of((p.values[i] - lo) / (hi - lo))) for p in points))
        for i in range(lines_n)
    )
    dots = tuple(ChanceDot(LEFT + p.turn * dx, y_of((p.values[i] - lo) / (hi - lo)), i,
                           p.step == shown_at)
                 for p in points for i in range(lines_n))
    targets = tuple(
        ChanceTarget(p.step, LEFT + p.turn * dx, dx, _turn_label(t, board, names, p),
                     tuple(fmt(v) for v in p.values[:lines_n]), p.step == shown_at)
        for p in points
    )
    rounds = tuple((LEFT + ((r - 1) * seats + (seats + 1) / 2) * dx, r)
                   for r in range(1, ROUNDS + 1))
    heads = (t("chances.turn_head"), *(lines[i].name for i in range(lines_n)))
    return ChanceChart(lines, targets, guides, rounds, dots, t("chances.caption", title=title),
                       heads, t("chances.axis"))


def y_of(fraction: float) -> float:
    """A value's height in the plot (0: the bottom, 1: the top), kept inside it."""
    return BOTTOM - max(0.0, min(1.0, fraction)) * (BOTTOM - TOP)


def _turn_label(t: Callable[..., str], board: Board, names: Sequence[str], p) -> str:
    if p.turn == 0:
        return t("chances.start")
    if board.state.solo:
        return t("chances.turn_solo", round=p.round)
    return t("chances.turn", round=p.round, name=names[p.seat])


# ---------------------------------------------------------------------------- HTML


def render_chances(v: ChancesView | None, names: tuple[str, ...]) -> str:
    """The chart's block (nothing where it has no place)."""
    if v is None:
        return ""
    switch = (
        f'<button type="button" class="chances-switch" id="{CHANCES_SWITCH}" role="switch" '
        f'aria-checked="{"true" if v.shown else "false"}" data-action="{Cmd.CHANCES_SHOW}" '
        f'data-arg="{"off" if v.shown else "on"}" data-testid="chances-switch">'
        f'<span class="knob" aria-hidden="true"></span>{esc(v.switch)}'
        f'<span class="vh">: {esc(v.title)}</span></button>'
    )
    head = (f'<div class="chances-head"><h3 class="chances-title" id="chances-title">{esc(v.title)}</h3>'
            f'{switch}</div>')
    note = f'<p class="chances-note" data-testid="chances-note">{esc(v.note)}</p>'
    if not v.shown:
        return (f'<section class="chances off" aria-labelledby="chances-title" data-testid="chances">'
                f'{head}{note if v.note else ""}</section>')
    body = _svg(v.chart) + _table(v.chart, names) if v.chart is not None else ""
    return (f'<section class="chances" aria-labelledby="chances-title" data-testid="chances">'
            f'{head}<div class="chances-box">{body}</div>{_legend(v.legend)}{note}</section>')


def _svg(c: ChanceChart) -> str:
    guides = "".join(
        f'<line class="ch-guide" x1="{LEFT}" x2="{RIGHT}" y1="{g.height:.1f}" y2="{g.height:.1f}"/>'
        f'<text class="ch-num" x="{LEFT - 4}" y="{g.height + 3:.1f}" text-anchor="end">{esc(g.number)}</text>'
        + (f'<text class="ch-level" x="{RIGHT - 2}" y="{g.height - 2:.1f}" text-anchor="end">{esc(g.level)}</text>' if g.level else "")
        for g in c.guides
    )
    rounds = "".join(f'<text class="ch-num" x="{at:.1f}" y="{BOTTOM + 13}" text-anchor="middle">{number:d}</text>'
                     for at, number in c.round_marks)
    lines = "".join(
        f'<polyline class="ch-line ch-s{line.seat}" points="{_coords(line.coords)}"/>' for line in c.lines)
    dots = "".join(
        f'<circle class="ch-dot ch-s{d.series}{" ch-now" if d.now else ""}" cx="{d.cx:.1f}" cy="{d.cy:.1f}" r="{4.5 if d.now else 2.5}"/>'
        for d in c.dots
    )
    hits = "".join(
        f'<rect class="ch-hit" x="{tg.x - tg.width / 2:.1f}" y="{TOP - 6}" width="{tg.width:.1f}" '
        f'height="{BOTTOM - TOP + 12}" data-action="{Cmd.CHANCES_OPEN}" data-arg="{tg.replay_at:d}" data-testid="chances-point">'
        f'<title>{esc(tg.label)}: {esc(", ".join(tg.values))}</title></rect>'
        for tg in c.targets
    )
    return (
        f'<svg class="ch-svg" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" focusable="false" data-testid="chances-chart">'
        f'{guides}<text class="ch-num ch-axis" x="{LEFT - 4}" y="{BOTTOM + 14}" text-anchor="end">{esc(c.axis)}</text>'
        f'{rounds}{lines}{dots}{hits}</svg>'
    )


def _coords(coords: tuple[tuple[float, float], ...]) -> str:
    """A polyline's points attribute: numbers only."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)


def _legend(legend: tuple[str, ...]) -> str:
    """Which line is whose (a game of 2-4 players): there from the start, before any value."""
    if not legend:
        return ""
    return '<ul class="ch-legend" aria-hidden="true">' + "".join(
        f'<li><svg viewBox="0 0 24 8" class="ch-key"><line class="ch-line ch-s{seat}" x1="1" x2="23" y1="4" y2="4"/></svg>'
        f'<bdi>{esc(name)}</bdi></li>' for seat, name in enumerate(legend)) + "</ul>"


def _table(c: ChanceChart, names: tuple[str, ...]) -> str:
    head = "".join(f'<th scope="col">{esc_names(h, names)}</th>' for h in c.heads)
    rows = "".join(
        f'<tr data-testid="chances-row"{CURRENT if tg.current else ""}>'
        f'<th scope="row"><button type="button" id="chances-open-{tg.replay_at:d}" data-action="{Cmd.CHANCES_OPEN}" '
        f'data-arg="{tg.replay_at:d}">{esc_names(tg.label, names)}</button></th>'
        + "".join(f'<td class="num">{esc(value)}</td>' for value in tg.values) + "</tr>"
        for tg in c.targets
    )
    # the table in a box of its own: a box (not a table) can be hidden and scroll
    return (f'<div class="chances-rows"><table class="chances-table" data-testid="chances-table">'
            f'<caption>{esc(c.caption)}</caption>'
            f'<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>')
