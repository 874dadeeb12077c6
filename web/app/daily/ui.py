# ruff: noqa: E501 - HTML templates read better unwrapped
"""The daily challenge's panel and the statistics page: screen-model values (built from
the page state and the engine, every text translated) and their HTML.

``daily_view`` / ``stats_view`` / ``confirm_daily_view`` are pure (``screen.build_screen``
calls them); ``render_daily`` / ``render_stats`` / ``render_confirm_daily`` turn the
values into HTML (``board_view`` calls them) and read nothing else. The score chart is
an inline SVG drawn here (no library, no inline style: colours come from style.css),
with a text summary and the same figures as a table for screen readers.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.commands import Cmd
from app.core.dom import DIALOG_FIRST
from app.core.game_stats import GameResult, summarize
from app.core.html import esc
from app.core.page_state import StatsDialog
from app.core.rating import LEVEL_RATINGS, rating
from app.core.rating import START as RATING_START
from app.core.rating import K as RATING_K
from app.daily.state import ConfirmDailyDialog
from skyline import Board
from skyline.records.daily import daily_day, daily_fragment, daily_result

CHART_W = 600
CHART_H = 200
CHART_PAD = (46, 12, 14, 30)  # left, top, right, bottom
CHART_GAMES = 30  # the last games drawn; the table lists them all
MODE_KEYS = {"solo": "stats.mode.solo", "daily": "stats.mode.daily", "multi": "stats.mode.multi"}


# ---------------------------------------------------------------------------- daily


@dataclass(frozen=True)
class DailyView:
    """The daily challenge being played or just finished."""

    day: str
    title: str
    line: str | None  # the result line, once the game is over
    link: str  # the address that opens the same challenge
    link_label: str
    best: str | None  # the best score of this challenge on this device
    copy_label: str
    status: str | None  # copied / clipboard refused
    ok: bool | None
    # "Expert scored 88 points on today's dice" once the expert has played the day's
    # dice, its progress while it plays them (the pacer), else None
    expert: str | None = None
    expert_done: bool = False


def result_line(t, board: Board) -> str:
    """"Skyline daily 2026-12-01: 84 points — Urban Planner" (the player's language)."""
    r = daily_result(board)
    points = points_text(t, r.score)
    if r.level is None:
        return t("daily.line_no_level", day=r.day.isoformat(), points=points)
    return t("daily.line", day=r.day.isoformat(), points=points, level=t("level." + r.level))


def points_text(t, n: int) -> str:
    return t("daily.points_one") if n == 1 else t("daily.points", n=n)


def expert_text(page, t, iso: str, expert: int | None) -> str | None:
    """The expert's score on the day's dice, or its progress while it plays them."""
    if expert is not None:
        return t("daily.expert", points=points_text(t, expert))
    bench = page.daily_bench
    if bench is not None and bench.day == iso:
        return t("daily.expert_playing", round=bench.round)
    return None


def daily_view(page, board: Board, t, base: str, best: int | None,
               expert: int | None = None) -> DailyView | None:
    """The daily panel, if ``board`` is a daily challenge (``skyline.daily.daily_day``);
    ``expert``: the expert's score on the day's dice (the day's record), if known."""
    day = daily_day(board.options)
    if day is None:
        return None
    iso = day.isoformat()
    over = board.is_game_over()
    status = None
    if over and page.daily_copied is True:
        status = t("daily.copied")
    elif over and page.daily_copied is False:
        status = t("daily.copy_failed")
    return DailyView(
        day=iso,
        title=t("daily.title_day", day=iso),
        line=result_line(t, board) if over else None,
        link=base + "#" + daily_fragment(day),
        link_label=t("daily.link"),
        best=t("daily.best", score=best) if best is not None else None,
        copy_label=t("daily.copy"),
        status=status,
        ok=page.daily_copied if over else None,
        expert=expert_text(page, t, iso, expert) if over else None,
        expert_done=over and expert is not None,
    )


def copy_text(view: DailyView, t) -> str:
    """What "Copy result" puts on the clipboard: the line (with the expert's score on the
    same dice, once it is known) and the challenge's link."""
    line = view.line
    if view.expert is not None and view.expert_done:
        line = t("daily.share_line", line=line, expert=view.expert)
    return f"{line}\n{view.link}"


@dataclass(frozen=True)
class ConfirmDailyView:
    kind = "confirm_daily"
    title: str
    question: str
    accept: str
    keep: str


def confirm_daily_view(d: ConfirmDailyDialog, t) -> ConfirmDailyView:
    return ConfirmDailyView(t("daily.confirm_title"), t("daily.confirm_question", day=d.day),
                            t("daily.confirm_accept"), t("link.keep"))


# ---------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class ChartDot:
    x: float
    y: float
    label: str  # "Game 3, 2026-12-01: 84 points"


@dataclass(frozen=True)
class Chart:
    title: str
    summary: str  # the text alternative: what the chart shows in words
    path: str  # the polyline's points
    dots: tuple[ChartDot, ...]
    grid: tuple[tuple[float, str], ...]  # (y, label) of the horizontal lines
    x_first: str
    x_last: str


@dataclass(frozen=True)
class StatsView:
    kind = "stats"
    title: str
    labels: dict[str, str]  # headings and column names, translated
    totals: str
    empty: str | None
    chart: Chart | None
    games: tuple[tuple[str, ...], ...]  # solo games, newest first: no., day, mode, scenario, score, level
    scenarios: tuple[tuple[str, str, str, str], ...]  # name, best, games, met
    levels: tuple[tuple[str, str], ...]  # level, times
    scenarios_met: tuple[tuple[str, str], ...]
    daily: tuple[tuple[str, str, str], ...]  # day, best, plays
    humans_only: str | None
    export_url: str | None
    export_name: str
    rating: RatingView | None = None


@dataclass(frozen=True)
class RatingView:
    """The rating against the computer levels (``app.core.rating``)."""

    title: str
    value: str | None  # "Your rating: 1214"; None before the first result
    none: str | None  # the words instead of a number
    how: str  # how it is computed, in one sentence
    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, str, str, str], ...]  # level, won, drawn, lost (levels played)


def rating_view(t, results, daily) -> RatingView:
    found = rating(results, daily)
    levels = ", ".join(t("stats.rating.level", level=t("seat.level." + name), rating=value)
                       for name, value in LEVEL_RATINGS.items())
    rows = tuple(
        (t("seat.level." + name), *(str(n) for n in found.tally(name)))
        for name in LEVEL_RATINGS if found is not None and any(found.tally(name))
    )
    return RatingView(
        title=t("stats.rating.title"),
        value=t("stats.rating.value", rating=found.shown) if found is not None else None,
        none=t("stats.rating.none") if found is None else None,
        how=t("stats.rating.how", start=RATING_START, k=RATING_K, levels=levels),
        caption=t("stats.rating.caption"),
        head=(t("stats.col.opponent"), t("stats.col.won"), t("stats.col.drawn"),
              t("stats.col.lost")),
        rows=rows,
    )


STATS_LABELS = (
    "stats.chart.title", "stats.games.caption", "stats.col.number", "stats.col.day",
    "stats.col.mode", "stats.col.scenario", "stats.col.score", "stats.col.level",
    "stats.scenarios.title", "stats.col.best", "stats.col.games", "stats.col.met",
    "stats.levels.title", "stats.col.times", "stats.met.title", "stats.daily.title",
    "stats.col.plays", "stats.export", "stats.export_explain", "stats.show_table",
)


def _chart(t, solo: tuple[GameResult, ...]) -> Chart | None:
    if not solo:
        return None
    first_number = max(1, len(solo) - CHART_GAMES + 1)
    shown = solo[first_number - 1:]
    top = max(100, max(r.score for r in shown))
    top = (top + 19) // 20 * 20
    left, pad_top, right, bottom = CHART_PAD
    width, height = CHART_W - left - right, CHART_H - pad_top - bottom

    def y_of(score: int) -> float:
        return round(pad_top + height - score / top * height, 1)

    n = len(shown)
    dots = []
    for i, r in enumerate(shown):
        x = round(left + (width * i / (n - 1) if n > 1 else width / 2), 1)
        label = t("stats.chart.dot", n=first_number + i, day=r.day, score=r.score)
        dots.append(ChartDot(x, y_of(r.score), label))
    grid = tuple((y_of(v), str(v)) for v in range(0, top + 1, top // 4 if top >= 80 else 20))
    scores = [r.score for r in shown]
    if n == 1:
        summary = t("stats.chart.summary_one", latest=scores[-1])
    else:
        summary = t("stats.chart.summary", n=n, first=first_number, last=first_number + n - 1,
                    low=min(scores), high=max(scores), latest=scores[-1])
    return Chart(t("stats.chart.title"), summary, " ".join(f"{d.x},{d.y}" for d in dots),
                 tuple(dots), grid, t("stats.chart.game", n=first_number),
                 # one game: one label (at the start), not "game 1" at both ends
                 t("stats.chart.game", n=first_number + n - 1) if n > 1 else "")


def stats_view(d: StatsDialog, t) -> StatsView:
    results = list(d.results)
    s = summarize(results, d.records)

    def scenario_name(name: str | None) -> str:
        return t("stats.no_scenario") if name is None else t("scenario." + name)

    games = tuple(
        (str(i), r.day, t(MODE_KEYS[r.mode]), scenario_name(r.scenario), str(r.score),
         t("level." + r.level) if r.level else "–")
        for i, r in reversed(list(enumerate(s.solo, start=1)))
    )
    multi = s.games - len(s.solo)
    return StatsView(
        title=t("stats.title"),
        labels={k: t(k) for k in STATS_LABELS},
        totals=t("stats.totals", n=s.games, solo=len(s.solo), multi=multi),
        empty=None if s.games or s.scenarios else t("stats.empty"),
        chart=_chart(t, s.solo),
        games=games,
        scenarios=tuple((scenario_name(b.scenario), str(b.best), str(b.games),
                         "–" if b.scenario is None else str(b.met)) for b in s.scenarios),
        levels=tuple((t("level." + name), str(n)) for name, n in s.levels),
        scenarios_met=tuple((t("scenario." + name), str(n)) for name, n in s.scenarios_met),
        daily=tuple((b.day, str(b.best), str(b.plays)) for b in s.daily[:14]),
        humans_only=t("stats.humans_only", n=s.multi_humans_only) if s.multi_humans_only
        else None,
        export_url=d.export_url,
        export_name=d.export_name,
        rating=rating_view(t, results, d.records.get("daily")),
    )


# ---------------------------------------------------------------------------- HTML


def render_daily(v: DailyView, labels) -> str:
    """The daily panel above the players (a banner in play, the result when over)."""
    best = f'<p data-testid="daily-best">{esc(v.best)}</p>' if v.best else ""
    if v.line is None:
        return f'<section class="daily" data-testid="daily"><h2>{esc(v.title)}</h2>{best}</section>'
    status = ""
    if v.status is not None:
        cls = "ok" if v.ok else "warn"
        status = f'<p class="{cls}" role="status" data-testid="daily-status">{esc(v.status)}</p>'
    return (
        f'<section class="daily over" data-testid="daily" aria-labelledby="daily-title">'
        f'<h2 id="daily-title">{esc(v.title)}</h2>'
        f'<p class="daily-line" data-testid="daily-line">{esc(v.line)}</p>{_expert_line(v)}{best}'
        f'<label class="field"><span>{esc(v.link_label)}</span>'
        f'<input id="daily-link" data-testid="daily-link" readonly value="{esc(v.link)}"></label>'
        f'<div class="dlg-actions"><button type="button" class="primary" id="daily-copy" data-action="{Cmd.DAILY_COPY}">'
        f"{esc(v.copy_label)}</button></div>{status}</section>"
    )


def _expert_line(v: DailyView) -> str:
    """The expert's score beside the player's (announced politely when it arrives)."""
    if v.expert is None:
        return ""
    cls = "daily-expert" if v.expert_done else "daily-expert busy"
    return f'<p class="{cls}" role="status" data-testid="daily-expert">{esc(v.expert)}</p>'


def render_confirm_daily(v: ConfirmDailyView) -> str:
    return (
        f"<p>{esc(v.question)}</p>"
        f'<div class="dlg-actions"><button type="button" class="primary" id="{DIALOG_FIRST}" data-action="{Cmd.DAILY_ACCEPT}">'
        f'{esc(v.accept)}</button><button type="button" data-action="{Cmd.CLOSE}" id="daily-keep">{esc(v.keep)}</button></div>'
    )


def _table(caption: str, head: tuple[str, ...], rows, testid: str) -> str:
    """A table whose first column names the row; columns of numbers are right-aligned."""
    rows = list(rows)
    numeric = [i > 0 and all(row[i].isdigit() or row[i] == "–" for row in rows)
               for i in range(len(head))]
    num = ' class="num"'
    cells = []
    for row in rows:
        lead = f'<th scope="row">{esc(row[0])}</th>'
        rest = "".join(f"<td{num if numeric[i] else ''}>{esc(c)}</td>"
                       for i, c in enumerate(row) if i > 0)
        cells.append(f"<tr>{lead}{rest}</tr>")
    heads = "".join(f'<th scope="col"{num if numeric[i] else ""}>{esc(h)}</th>'
                    for i, h in enumerate(head))
    return (
        f'<div class="table-wrap"><table class="stats-table" data-testid="{testid}">'
        f'<caption class="vh">{esc(caption)}</caption><thead><tr>{heads}</tr></thead>'
        f'<tbody>{"".join(cells)}</tbody></table></div>'
    )


def _chart_svg(c: Chart) -> str:
    left, _, right, bottom = CHART_PAD
    grid = "".join(
        f'<line class="grid" x1="{left}" x2="{CHART_W - right}" y1="{y}" y2="{y}"/>'
        f'<text class="axis" x="{left - 4}" y="{y + 4}" text-anchor="end">{esc(label)}</text>'
        for y, label in c.grid
    )
    dots = "".join(
        f'<circle class="dot" cx="{d.x}" cy="{d.y}" r="4"><title>{esc(d.label)}</title></circle>'
        for d in c.dots
    )
    line = f'<polyline class="line" points="{c.path}"/>' if len(c.dots) > 1 else ""
    base = CHART_H - bottom + 18
    return (
        f'<svg class="stats-chart" data-testid="stats-chart" viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
        f'aria-labelledby="chart-title chart-desc" preserveAspectRatio="xMidYMid meet">'
        f'<title id="chart-title">{esc(c.title)}</title><desc id="chart-desc">{esc(c.summary)}</desc>'
        f"{grid}{line}{dots}"
        f'<text class="axis" x="{left}" y="{base}">{esc(c.x_first)}</text>'
        + (f'<text class="axis" x="{CHART_W - right}" y="{base}" text-anchor="end">{esc(c.x_last)}</text>'
           if c.x_last else "")
        + "</svg>"
    )


def _rating_html(r: RatingView, humans_only: str | None) -> str:
    figure = (f'<p class="stats-rating" data-testid="stats-rating">{esc(r.value)}</p>'
              if r.value is not None else
              f'<p data-testid="stats-rating-none">{esc(r.none or "")}</p>')
    table = _table(r.caption, r.head, r.rows, "stats-rating-levels") if r.rows else ""
    humans = f"<p>{esc(humans_only)}</p>" if humans_only else ""
    return (f'<section class="stats-sec"><h3>{esc(r.title)}</h3>{figure}{table}'
            f'<p class="score-note" data-testid="stats-rating-how">{esc(r.how)}</p>{humans}'
            "</section>")


def render_stats(v: StatsView) -> str:
    L = v.labels
    parts = [f'<p data-testid="stats-totals">{esc(v.totals)}</p>']
    if v.empty:
        parts.append(f'<p data-testid="stats-empty">{esc(v.empty)}</p>')
    if v.chart is not None:
        parts.append(
            f'<section class="stats-sec"><h3>{esc(v.chart.title)}</h3>{_chart_svg(v.chart)}'
            f'<p class="chart-summary" data-testid="chart-summary">{esc(v.chart.summary)}</p>'
            f"<details><summary>{esc(L['stats.show_table'])}</summary>"
            + _table(L["stats.games.caption"],
                     tuple(L[k] for k in ("stats.col.number", "stats.col.day", "stats.col.mode",
                                          "stats.col.scenario", "stats.col.score", "stats.col.level")),
                     v.games, "stats-games")
            + "</details></section>"
        )
    if v.scenarios:
        parts.append(
            f'<section class="stats-sec"><h3>{esc(L["stats.scenarios.title"])}</h3>'
            + _table(L["stats.scenarios.title"],
                     (L["stats.col.scenario"], L["stats.col.best"], L["stats.col.games"], L["stats.col.met"]),
                     v.scenarios, "stats-scenarios")
            + "</section>"
        )
    if v.levels or v.scenarios_met:
        inner = ""
        if v.levels:
            inner += _table(L["stats.levels.title"], (L["stats.col.level"], L["stats.col.times"]),
                            v.levels, "stats-levels")
        if v.scenarios_met:
            inner += _table(L["stats.met.title"], (L["stats.col.scenario"], L["stats.col.times"]),
                            v.scenarios_met, "stats-met")
        parts.append(f'<section class="stats-sec"><h3>{esc(L["stats.levels.title"])}</h3>{inner}</section>')
    if v.daily:
        parts.append(
            f'<section class="stats-sec"><h3>{esc(L["stats.daily.title"])}</h3>'
            + _table(L["stats.daily.title"], (L["stats.col.day"], L["stats.col.best"], L["stats.col.plays"]),
                     v.daily, "stats-daily")
            + "</section>"
        )
    if v.rating is not None:  # the one table of results against the computer
        parts.append(_rating_html(v.rating, v.humans_only))
    if v.export_url:  # last: the figures come first, their download after them
        parts.append(
            f'<div class="stats-export"><a class="button" id="stats-export" data-testid="stats-export" '
            f'href="{esc(v.export_url)}" download="{esc(v.export_name)}">{esc(L["stats.export"])}</a>'
            f'<p class="score-note">{esc(L["stats.export_explain"])}</p></div>'
        )
    return "".join(parts)
