# ruff: noqa: E501 - HTML templates read better unwrapped
"""The turn's HTML: the turn panel's own lines, the tray and the commands, the yard and
the district, the skylines, the final scoring and the log, from the turn's views
(``app.turn.views``). ``marks`` are the element ids a hint or the tutorial's step
marks; ``names`` the players' names as shown (sentences isolate them in ``<bdi>``).
"""

from __future__ import annotations

import functools

from app.core import art
from app.core.commands import Cmd
from app.core.dom import TAKE_DISTRICT
from app.core.html import attr_disabled, esc
from app.core.labels import Labels
from app.core.names import esc_names
from app.core.region_edits import LOG_LIST, PLAYER_LIST
from app.core.words import LogEntry, LogView
from app.turn.views import (
    DieView,
    District,
    LastTurn,
    PlayerView,
    ScenarioView,
    Scoring,
    TurnView,
    Yard,
)

#: the ids of the elements a hint or the tutorial's step marks
Marks = frozenset[str]

KIND_CLASS = {"p": "k-p", "b": "k-b", "o": "k-o"}

# The drawings (dice, buildings) live in app.core.art, shared with scripts/cvd_check.py.
die_svg = art.die_svg


def die_classes(type_letter: str, face_letter: str | None) -> str:
    return f"die die-{type_letter} f-{face_letter or 'n'}"


def turn_head(L: Labels, turn: TurnView, names: tuple[str, ...]) -> str:
    """The turn panel's title."""
    return f'<h2 class="panel-title">{esc_names(turn.title, names)}</h2>'


def turn_lines(L: Labels, turn: TurnView, names: tuple[str, ...],
               last_turns: tuple[LastTurn, ...], scenario: ScenarioView | None) -> list[str]:
    """The prompt, what the rivals' turns did since the player to move last played (a
    line each, in the seat's colour), the scenario's standing and Cancel."""
    parts = [
        f'<p class="prompt" id="prompt" data-testid="prompt" data-phase="{turn.phase}">{esc_names(turn.prompt, names)}</p>'
    ]
    if last_turns:
        # several rivals: a phone shows the short forms (the long ones stay for screen
        # readers; the ringed buildings and the log tell the rest)
        lines = "".join(
            f'<li class="seat-{last.seat}" data-seat="{last.seat}"><span class="seat-mark" aria-hidden="true"></span>'
            f'<span class="last-long">{esc_names(last.text, names)}</span>'
            f'<span class="last-short" aria-hidden="true">{esc_names(last.short, names)}</span></li>'
            for last in last_turns
        )
        many = " many" if len(last_turns) > 1 else ""
        parts.append(f'<ul class="last-turn{many}" data-testid="last-turn">{lines}</ul>')
    if scenario is not None:
        met = " met" if scenario.met else ""
        parts.append(f'<p class="scenario{met}" data-testid="scenario">{esc(scenario.text)}</p>')
    if turn.choosing:
        parts.append(
            f'<button type="button" id="act-cancel" class="cancel" data-action="{Cmd.CANCEL}" '
            f'aria-keyshortcuts="Escape">{esc(L["btn.cancel_choice"])}</button>'
        )
    return parts


def over_actions(L: Labels) -> str:
    """What a finished game offers in the turn panel."""
    return (
        f'<div class="over-actions"><button type="button" id="act-newgame" class="primary" '
        f'data-action="{Cmd.NEW_GAME}">{esc(L["btn.new_game"])}</button>'
        f'<button type="button" id="act-share" data-action="{Cmd.SHARE}">{esc(L["btn.share"])}</button>'
        f'<button type="button" id="act-stats" data-action="{Cmd.STATS}">{esc(L["btn.stats"])}</button></div>'
    )


def beat(text: str) -> str:
    """The score a solo game set out to beat."""
    return f'<p class="beat" data-testid="beat">{esc(text)}</p>'


def player_list(L: Labels, players: tuple[PlayerView, ...], over: bool, marks: Marks) -> str:
    """The skylines in seat order, every one at the same scale: seats never move (the
    player to move is marked)."""
    cards = "".join(player_card(L, p, marks, len(players) > 1) for p in players)
    return (f'<div class="player-list n{len(players)}{" over" if over else ""}" '
            f'id="{PLAYER_LIST}">{cards}</div>')


def _put_back(d: DieView) -> str:
    if d.put_back is None:
        return ""
    return (
        f'<button type="button" class="putback" id="untake-{d.index}" data-action="{Cmd.UNTAKE}" '
        f'data-arg="{d.index}" aria-label="{esc(d.put_back)}">{esc(d.put_back_text)}</button>'
    )


def tray(L: Labels, dice: tuple[DieView, ...], open_slots: int, marks: Marks) -> str:
    items = []
    for d in dice:
        cap = f'<span class="die-cap">{esc(d.short)}</span>'
        if d.taken:
            items.append(
                f'<div class="slot taken" data-testid="taken">'
                f'<div class="{die_classes(d.type, None)}" role="img" aria-label="{esc(d.label)}">'
                f'{die_svg(d.type, None)}</div>{cap}{_put_back(d)}</div>'
            )
        elif not d.button:
            items.append(
                f'<div class="slot" data-testid="die" data-die="{d.id}">'
                f'<div class="{die_classes(d.type, d.face)}" role="img" aria-label="{esc(d.label)}">'
                f'{die_svg(d.type, d.face)}</div>{cap}{_put_back(d)}</div>'
            )
        else:
            cls = die_classes(d.type, d.face) + (" sel" if d.selected else "")
            cls += hinted(marks, f"die-{d.id}")
            if d.focus:
                cls += " focus-die"
            rolling = " art-rolling" if d.just_rolled else ""
            items.append(
                f'<div class="slot{rolling}"><button type="button" class="{cls}" id="die-{d.id}" '
                f'data-testid="die" data-die="{d.id}" data-face="{d.face}" data-type="{d.type}" '
                f'data-action="{Cmd.DIE}" data-arg="{d.id}" aria-pressed="{"true" if d.selected else "false"}" '
                f'aria-label="{esc(d.label)}"{attr_disabled(d.selectable)}>{die_svg(d.type, d.face)}</button>{cap}</div>'
            )
    for _ in range(open_slots):
        items.append('<div class="slot empty" aria-hidden="true"><div class="die ghost"></div></div>')
    if not items:
        items.append(f'<p class="tray-empty">{esc(L["tray.empty"])}</p>')
    return (
        f'<div class="tray" role="group" aria-label="{esc(L["tray.label"])}" data-testid="tray">'
        + "".join(items)
        + "</div>"
    )


def action_bar(L: Labels, turn: TurnView, marks: Marks) -> str:
    buttons = []
    line_of = {name: i for i, (names, _) in enumerate(turn.why) for name in names}
    for cmd in turn.commands:
        cls = {Cmd.END: "finish", Cmd.UNDO: "undo"}.get(cmd.name, "")
        if cmd.primary:
            cls = "primary"
        title = desc = ""
        if not cmd.enabled and cmd.reason:
            title = f' title="{esc(cmd.reason)}"'
            if cmd.name in line_of:
                desc = f' aria-describedby="why-{line_of[cmd.name]}"'
        cls += hinted(marks, f"act-{cmd.name}")
        buttons.append(
            f'<button type="button" id="act-{cmd.name}" class="cmd {cls}" data-action="{cmd.name}"{title}{desc}'
            f'{attr_disabled(cmd.enabled)}>{esc(cmd.label)}</button>'
        )
    # the reasons for greyed commands, readable without hover (touch screens have none)
    why = "".join(f'<li id="why-{i}">{esc(text)}</li>' for i, (_, text) in enumerate(turn.why))
    return (
        f'<div class="actions" role="group" aria-label="{esc(L["actions.label"])}">'
        + "".join(buttons)
        + "</div>"
        + (f'<ul class="why" data-testid="why">{why}</ul>' if why else "")
    )


def hinted(marks: Marks, dom_id: str) -> str:
    """The class of an element the hint or the tutorial's step marks."""
    return " hinted" if dom_id in marks else ""


def supply(L: Labels, yard: Yard, district: District | None, marks: Marks) -> str:
    rows = []
    for r in yard.rows:
        badge = f'<span class="picked">{esc(r.picked_text)}</span>' if r.picked else ""
        rows.append(
            f'<li><button type="button" class="yard-row{hinted(marks, "yard-" + r.type)}" id="yard-{r.type}" data-action="{Cmd.TAKE}" data-arg="{r.index}" '
            f'data-testid="yard-{r.type}"{attr_disabled(yard.enabled)}>'
            f'<span class="{die_classes(r.type, None)} mini">{die_svg(r.type, None)}</span>'
            f'<span class="yard-name">{esc(r.name)}</span>{badge}'
            f'<span class="yard-faces">{esc(r.faces)}</span></button></li>'
        )
    html = [
        f'<section class="yard" aria-labelledby="yard-title"><h2 class="panel-title" id="yard-title">'
        f'{esc(L["yard.title"])}</h2><ul class="yard-rows">{"".join(rows)}</ul></section>'
    ]
    if district is not None:
        dice = "".join(
            f'<span class="{die_classes(d.type, None)} mini" role="img" '
            f'aria-label="{esc(d.label)}">{die_svg(d.type, None)}</span>'
            for d in district.dice
        )
        html.append(
            f'<section class="district" aria-labelledby="district-title"><h2 class="panel-title" '
            f'id="district-title">{esc(L["district.title"])}</h2>'
            f'<div class="district-dice" data-testid="district">{dice or esc(L["district.empty"])}</div>'
            f'<button type="button" id="{TAKE_DISTRICT}" '
            f'class="take-district{hinted(marks, TAKE_DISTRICT)}" '
            f'data-action="{Cmd.DISTRICT}" data-testid="take-district"'
            f'{attr_disabled(district.enabled)}>{esc(district.take_label)}</button></section>'
        )
    return "".join(html)


def lots(L: Labels, p: PlayerView, marks: Marks) -> list[tuple[art.Lot, str, str]]:
    """The player's buildings as art lots with their texts: completed ones, then the
    unfinished ones (ids, data-actions and testids ``tile``/``column`` as before)."""
    out = []
    for b in p.tiles:
        target = "demolish" if b.target else None
        dom_id = f"tile-{p.seat}-{b.index}"
        lot = art.Lot(b.kind, b.height, True, target, Cmd.TILE, str(b.index), dom_id,
                      b.changed, dom_id in marks)
        out.append((lot, b.target_label if b.target else b.label, b.points_text))
    for col in p.columns:
        dom_id = f"col-{p.seat}-{col.index}"
        lot = art.Lot(col.kind, col.height, False, col.target, Cmd.COLUMN, str(col.index),
                      dom_id, col.changed, dom_id in marks)
        out.append((lot, col.target_label if col.target else col.label,
                    col.points_text or L["art.unfinished_cap"]))
    return out


def player_card(L: Labels, p: PlayerView, marks: Marks, table: bool = True) -> str:
    """A player's skyline; with rivals in the seat's colour and mark."""
    star_html = (
        f'<span class="star" title="{esc(L["player.start"])}" aria-label="{esc(L["player.start"])}" '
        'role="img">★</span>'
        if p.start
        else ""
    )
    badge = f'<span class="turn-badge">{esc(L["player.to_move"])}</span>' if p.to_move else ""
    if p.computer:
        badge += f'<span class="bot-badge" data-testid="bot-badge">{esc(p.computer)}</span>'
    if p.elsewhere:
        badge += f'<span class="bot-badge friend-badge" data-testid="friend-badge">{esc(p.elsewhere)}</span>'
    seat = f" seat-{p.seat}" if table else ""
    mark = '<span class="seat-mark" aria-hidden="true"></span>' if table else ""
    shown = " shown" if p.shown else ""
    # at the game's end the skylines stand in the ranking's order (style.css), the
    # winner's first, under the final scoring
    place = f" place-{p.place}" if p.place else ""
    return (
        f'<section class="player{seat}{" active" if p.active else ""}{shown}{place}" '
        f'id="skyline-{p.seat}" '
        f'data-testid="player-{p.seat}" aria-label="{esc(p.label)}">'
        f'<header class="player-head">{mark}{star_html}'
        f'<h3 class="pname"><bdi>{esc(p.name)}</bdi></h3>{badge}'
        f'<span class="pscore" data-testid="score-{p.seat}" aria-label="{esc(p.score_label)}">'
        f"{p.score}\u202f<small>{esc(p.score_unit)}</small></span></header>"
        f'{art.street_html(lots(L, p, marks), p.label, L["skyline.empty"])}</section>'
    )


def scoring(L: Labels, sc: Scoring, names: tuple[str, ...]) -> str:
    rows = []
    for r in sc.rows:
        chips = " ".join(
            f'<span class="chip {KIND_CLASS[k]}">{esc(text)}</span>' for k, text in r.chips
        ) or esc(r.none_text)
        conv = esc(r.converted)
        if r.discarded:
            conv += "<br><small>" + esc(r.discarded) + "</small>"
        rows.append(
            f'<tr data-testid="score-row-{r.seat}"><th scope="row"><span class="rank" '
            f'data-testid="rank-{r.seat}">{r.rank}.</span> <bdi>{esc(r.name)}</bdi></th>'
            f'<td class="chips">{chips}</td><td class="conv">{conv}</td>'
            f'<td class="num"><span data-testid="total-{r.seat}">{r.score}</span>'
            f'<small>{esc(r.completed)}</small></td></tr>'
        )
    extra = "".join(f"<p>{esc_names(line, names)}</p>" for line in sc.lines)
    return (
        f'<section class="scoring" data-testid="scoring" aria-labelledby="scoring-title">'
        f'<h2 id="scoring-title">{esc(L["score.title"])}</h2>'
        f'<p class="headline" data-testid="result">{esc_names(sc.headline, names)}</p>{extra}'
        f'<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{esc(L["score.player"])}</th>'
        f'<th scope="col">{esc(L["score.buildings"])}</th><th scope="col">{esc(L["score.lowrise"])}</th>'
        f'<th scope="col">{esc(L["score.total"])}</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
        f'</div><p class="score-note">{esc(L["score.note"])}</p></section>'
    )


_log_cache: list = [None, ""]  # (LogView, language, names) -> HTML of the log list


@functools.lru_cache(maxsize=2048)
def _log_line(e: LogEntry, names: tuple[str, ...]) -> str:
    """One line of the log (a click adds a line or two to hundreds)."""
    # one span for the words: the line is a flex row, and a name isolated in <bdi>
    # would otherwise be an item of its own, apart from the rest of the sentence
    seat = "" if e.seat is None else f" seat-{e.seat}"
    return (f'<li class="ev ev-{e.event}{seat}"><span class="ev-round">{e.round}</span>'
            f'<span class="ev-text">{esc_names(e.text, names)}</span></li>')


def log_list(L: Labels, log: LogView, names: tuple[str, ...]) -> str:
    key = (log, L.lang, names)
    if _log_cache[0] is not None and _log_cache[0][0] is key[0] and _log_cache[0][1:] == key[1:]:
        return _log_cache[1]
    items = [_log_line(e, names) for e in log.entries]
    if not items:
        items.append(f'<li class="ev">{esc(L["log.empty"])}</li>')
    # The list scrolls: tabindex lets keyboard users reach it and scroll it with the arrows.
    html = (
        f'<ol class="log-list" id="{LOG_LIST}" data-testid="log" reversed tabindex="0" '
        'aria-labelledby="log-title">'
        f'{"".join(items)}</ol>'
    )
    _log_cache[0], _log_cache[1] = key, html
    return html


def log_panel(L: Labels, log: LogView, names: tuple[str, ...], beside: str = "") -> str:
    """The game log; ``beside``: what goes above its list (the chances chart's block)."""
    return (
        f'<h2 class="panel-title" id="log-title">{esc(L["log.title"])}</h2>{beside}{log_list(L, log, names)}'
    )
