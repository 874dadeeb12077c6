# ruff: noqa: E501 - HTML templates read better unwrapped
"""The computer's HTML: the bar of a computer's turn (Skip, the pace), Hint and its
answer, and the reviews of a finished game (``app.computer.view``)."""

from __future__ import annotations

from app.computer.view import BotBar, HintView, ReviewView, TableReviewView
from app.core.commands import Cmd
from app.core.html import attr_disabled, esc
from app.core.labels import Labels
from app.core.names import esc_names

LOST = ' class="lost"'


def turn_helpers(L: Labels, bot_bar: BotBar | None, hint_available: bool,
                 hint: HintView | None, names: tuple[str, ...]) -> str:
    """The computer-player bar (Skip), the Hint button and its answer: in the turn panel,
    beside the commands, so they stay in view."""
    parts = []
    if bot_bar is not None:
        skip = (
            f'<button type="button" id="bot-skip" data-action="{Cmd.BOT_SKIP}" data-testid="bot-skip"'
            f'{attr_disabled(bot_bar.skip_enabled)}>{esc(L["bot.skip"])}</button>'
        )
        options = "".join(f'<option value="{v}"{" selected" if chosen else ""}>{esc(label)}</option>'
                          for v, label, chosen in bot_bar.pace)
        pace = (f'<label class="pace"><span>{esc(bot_bar.pace_label)}</span>'
                f'<select id="{Cmd.BOT_PACE}" data-action="{Cmd.BOT_PACE}">{options}</select></label>')
        parts.append(f'<div class="bot-bar" data-testid="bot-bar"><p>{esc_names(bot_bar.text, names)}</p>{skip}{pace}</div>')
    if hint_available:
        parts.append(
            f'<button type="button" id="btn-hint" data-action="{Cmd.BOT_HINT}" data-testid="hint-btn">{esc(L["hint.button"])}</button>'
        )
        h = hint
        if h is not None and h.best is not None:
            items = "".join(f'<li data-testid="hint-option">{esc(line)}</li>' for line in h.lines)
            parts.append(
                f'<div class="hint" data-testid="hint" role="status" tabindex="0">'
                f'<p class="hint-best">{esc(h.best)}</p>'
                f'<p>{esc(h.heading or L["hint.options"])}</p><ol>{items}</ol></div>'
            )
        elif h is not None:
            parts.append(f'<div class="hint" data-testid="hint" role="status"><p>{esc(h.note or L["hint.none"])}</p></div>')
    return f'<div class="turn-helpers" data-testid="turn-helpers">{"".join(parts)}</div>' if parts else ""


def _review_table(L: Labels, rows, testid: str, lost_head: str = "") -> str:
    body = "".join(
        f'<tr{LOST if row.lost else ""} data-testid="{testid}"><td class="num">{row.round}</td>'
        f'<td>{esc(row.chosen)}</td><td>{esc(row.best)}</td><td class="num">{esc(row.loss)}</td></tr>'
        for row in rows
    )
    head = "".join(
        f'<th scope="col">{esc(text)}</th>'
        for text in (L["review.round"], L["review.chosen"], L["review.best"],
                     lost_head or L["review.lost"])
    )
    return (
        f'<div class="table-wrap"><table class="review-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def review(L: Labels, r: ReviewView) -> str:
    """The solo review: accuracy, the costly decisions, a strip of the loss per round and
    every decision behind a <details> (the full list is long: one row per decision)."""
    if not r.done:
        return f'<section class="review"><p data-testid="review-progress">{esc(r.progress)}</p></section>'
    if r.costly:
        costly = _review_table(L, r.costly, "review-costly", r.lost_head)
    else:
        costly = f'<p class="review-none" data-testid="review-none">{esc(r.no_costly or L["review.no_costly"])}</p>'
    verdict = ""
    if r.scenario:
        met = " met" if r.scenario_met else ""
        verdict = (f'<div class="review-scenario{met}" data-testid="review-scenario">'
                   + "".join(f"<p>{esc(line)}</p>" for line in r.scenario) + "</div>")
    cells = "".join(
        f'<li class="rl{" lost" if x.lost else ""}" aria-label="{esc(x.label)}">'
        f'<span class="rl-n" aria-hidden="true">{x.round}</span>'
        f'<span class="rl-v" aria-hidden="true">{esc(x.loss)}</span></li>'
        for x in r.rounds
    )
    return (
        f'<section class="review" data-testid="review" aria-labelledby="review-title">'
        f'<h2 id="review-title">{esc(L["review.title"])}</h2>'
        f'{verdict}<p data-testid="review-accuracy">{esc(r.accuracy)}</p>'
        f'<h3>{esc(r.rounds_title or L["review.rounds"])}</h3><ol class="review-rounds" data-testid="review-rounds">{cells}</ol>'
        f'<h3>{esc(r.costly_title or L["review.costly"])}</h3>{costly}'
        f'<details class="review-all" data-testid="review-all"><summary>{esc(r.all_label)}</summary>'
        f'{_review_table(L, r.rows, "review-row", r.lost_head)}</details></section>'
    )


def table_review(r: TableReviewView, names: tuple[str, ...] = ()) -> str:
    """The review of a game of 2-4 players, under the scoring: per player at this device
    a heading, a summary and a table of the costly decisions (numbers in text, never colour
    alone), then the turning points; while it runs, one progress line."""
    if not r.done:
        return (f'<section class="review table-review" data-testid="table-review" '
                f'aria-labelledby="table-review-title"><h2 id="table-review-title">{esc(r.title)}</h2>'
                f'<p data-testid="table-review-progress">{esc(r.progress)}</p></section>')
    head = "".join(f'<th scope="col">{esc(text)}</th>' for text in r.heads)
    seats = []
    for p in r.seats:
        if p.rows:
            body = "".join(
                f'<tr data-testid="table-review-row-{p.seat}"><td class="num">{row.round}</td>'
                f'<td>{esc(row.chosen)}</td><td>{esc(row.best)}</td>'
                f'<td class="num">{esc(row.chances)}</td><td class="num">{esc(row.loss)}</td></tr>'
                for row in p.rows
            )
            table = (f'<div class="table-wrap" tabindex="0"><table class="review-table" '
                     f'aria-labelledby="table-review-seat-{p.seat}"><thead><tr>{head}</tr></thead>'
                     f'<tbody>{body}</tbody></table></div>')
        else:
            table = f'<p class="review-none" data-testid="table-review-none-{p.seat}">{esc(p.none)}</p>'
        if len(r.seats) == 1:
            seats.append(
                f'<section class="review-seat" data-testid="table-review-seat-{p.seat}" '
                f'aria-labelledby="table-review-seat-{p.seat}"><h3 id="table-review-seat-{p.seat}">'
                f'{esc_names(p.title, names)}</h3><p>{esc_names(p.summary, names)}</p>{table}</section>'
            )
        else:  # several people here (pass-and-play): each one's decisions fold open
            seats.append(
                f'<details class="review-seat" data-testid="table-review-seat-{p.seat}">'
                f'<summary><h3 id="table-review-seat-{p.seat}">{esc_names(p.title, names)}</h3>'
                f'<span class="review-seat-sum">{esc_names(p.summary, names)}</span></summary>{table}</details>'
            )
    if r.turning:
        items = "".join(f'<li data-testid="table-review-turn">{esc_names(line, names)}</li>'
                        for line in r.turning)
        turning = f'<ol class="review-turns">{items}</ol>'
    else:
        turning = f'<p class="review-none">{esc(r.turning_none)}</p>'
    others = (f'<p data-testid="table-review-others">{esc_names(r.not_reviewed, names)}</p>'
              if r.not_reviewed else "")
    return (
        f'<section class="review table-review" data-testid="table-review" aria-labelledby="table-review-title">'
        f'<h2 id="table-review-title">{esc(r.title)}</h2><p class="review-intro">{esc(r.intro)}</p>'
        f'{"".join(seats)}{others}'
        f'<h3>{esc(r.turning_title)}</h3>{turning}</section>'
    )
