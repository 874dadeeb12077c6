# ruff: noqa: E501 - HTML templates read better unwrapped
"""HTML for the game screen, built as strings (one innerHTML per region).

``render(screen)`` turns a ``screen.Screen`` (web/screen.py: every decision and every
text already made) into region HTML and reads nothing else. Every dynamic text goes
through ``esc`` (html.escape): player names are text, never markup. Interactive
elements are real <button>s carrying ``data-action`` (and ``data-arg``) for the one
delegated listener in main.py.
"""

from __future__ import annotations

from html import escape

from app.core import art
from app.core.commands import Cmd
from app.core.names import esc_names
from app.daily import ui as stats_ui
from app.dialogs import ui as dialogs
from app.games import ui as games_ui
from app.screen import DieView, Game, PlayerView, ReviewView, Screen, TableReviewView
from app.tutorial import coach

KIND_CLASS = {"p": "k-p", "b": "k-b", "o": "k-o"}


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def names_of(s: Screen) -> tuple[str, ...]:
    """The players' names as shown: the sentences that name them isolate them
    (``esc_names``), as the name fields do with <bdi>."""
    return tuple(p.name for p in s.game.players) if s.game is not None else ()


def attr_disabled(enabled: bool) -> str:
    return "" if enabled else " disabled"


# ---------------------------------------------------------------------------- dice

# The drawings (dice, buildings) live in web/art.py, shared with scripts/cvd_check.py.
die_svg = art.die_svg


def die_classes(type_letter: str, face_letter: str | None) -> str:
    return f"die die-{type_letter} f-{face_letter or 'n'}"


# ---------------------------------------------------------------------------- regions


def render(s: Screen) -> dict[str, str]:
    out = {
        "topbar": topbar(s),
        "notices": notices(s),
        "dialog": dialog(s),
    }
    if s.game is None:
        return out
    out["turn"] = turn_panel(s, s.game)
    out["supply"] = supply(s, s.game)
    out["players"] = players(s, s.game)
    out["log"] = log_panel(s, s.game)
    return out


def topbar(s: Screen) -> str:
    L = s.labels
    other = s.other_lang
    status = ""
    if s.status is not None:
        if s.status.over:
            status = f'<span class="st-round">{esc(s.status.text)}</span>'
        else:
            status = (
                f'<span class="st-round" data-testid="round">{esc(s.status.text)}</span>'
                f'<span class="st-turn" data-testid="turn">{esc_names(s.status.turn, names_of(s))}</span>'
            )
    open_ = "true" if s.menu_open else "false"
    return (
        f'<h1 class="brand">{esc(L["app.title"])}</h1>'
        f'<div class="status">{status}</div>'
        # a narrow screen folds the tools into this menu (style.css, .topbar)
        f'<button type="button" id="btn-menu" class="menu-button" data-action="{Cmd.MENU}" '
        f'aria-expanded="{open_}" aria-controls="tools">{esc(L["btn.menu"])}</button>'
        f'<nav class="tools{" open" if s.menu_open else ""}" id="tools">'
        f'<button type="button" id="btn-games" data-action="{Cmd.GAMES}">{esc(L["btn.games"])}</button>'
        f'<button type="button" id="btn-new" data-action="{Cmd.NEW_GAME}">{esc(L["btn.new_game"])}</button>'
        f'<button type="button" id="btn-share" data-action="{Cmd.SHARE}">{esc(L["btn.share"])}</button>'
        f'<button type="button" id="btn-daily" data-action="{Cmd.DAILY}">{esc(L["btn.daily"])}</button>'
        f'<button type="button" id="btn-stats" data-action="{Cmd.STATS}">{esc(L["btn.stats"])}</button>'
        f'<button type="button" id="btn-learn" data-action="{Cmd.TUTORIAL}">{esc(L["btn.learn"])}</button>'
        f'<button type="button" id="btn-rules" data-action="{Cmd.RULES}" aria-keyshortcuts="?">'
        f'{esc(L["btn.rules"])}</button>'
        f'<button type="button" id="btn-lang" class="lang" data-action="{Cmd.LANG}" data-arg="{other}">'
        f'<span lang="{other}">{esc(L["btn.lang"])}</span>'
        f'<span class="vh"> – {esc(L["btn.lang_label"])}</span></button>'
        "</nav>" + scoreboard(s)
    )


def scoreboard(s: Screen) -> str:
    """Every player in seat order, always on screen (the top bar stays at the top):
    the start player's star, the name, the score and the completed buildings; the player
    to move marked. One sentence per seat for screen readers."""
    if s.game is None:
        return ""
    items = "".join(
        f'<li class="sb{" active" if p.active else ""}" data-testid="sb-{p.seat}">'
        f'<span aria-hidden="true">{"<span class=sb-star>★</span>" if p.start else ""}'
        f'<bdi class="sb-name">{esc(p.name)}</bdi><b class="sb-score">{p.score}</b>'
        f'<span class="sb-bldg">{p.buildings}</span></span>'
        f'<span class="vh">{esc_names(p.summary, (p.name,))}</span></li>'
        for p in s.game.players
    )
    return (f'<ol class="scoreboard" data-testid="scoreboard" '
            f'aria-label="{esc(s.labels["scoreboard.label"])}">{items}</ol>')


def notices(s: Screen) -> str:
    items = []
    for i, n in enumerate(s.notices):
        items.append(
            f'<div class="notice n-{n.level}" data-testid="notice" data-key="{esc(n.key)}">'
            f'<p>{esc_names(n.text, names_of(s))}</p>{notice_button(n.button)}'
            f'<button type="button" class="x" id="dismiss-{i}" data-action="{Cmd.DISMISS}" data-arg="{i}" '
            f'aria-label="{esc(s.labels["btn.dismiss"])}">×</button></div>'
        )
    return "".join(items)


def notice_button(button) -> str:
    """The notice's own command, e.g. "Play here" or "Export": (action, arg, label)."""
    if not button:
        return ""
    action, arg, label = button
    return (
        f'<button type="button" class="notice-act" id="notice-{esc(action)}" data-action="{esc(action)}" '
        f'data-arg="{esc(arg)}">{esc(label)}</button>'
    )


# ---------------------------------------------------------------------------- turn panel


def turn_panel(s: Screen, g: Game) -> str:
    turn = g.turn
    names = names_of(s)
    parts = [f'<h2 class="panel-title">{esc_names(turn.title, names)}</h2>']
    if g.coach is not None:
        parts.append(coach.render_coach(g.coach))
    parts.append(
        f'<p class="prompt" id="prompt" data-testid="prompt" data-phase="{turn.phase}">{esc_names(turn.prompt, names)}</p>'
    )
    if g.last_turn is not None:
        parts.append(f'<p class="last-turn" data-testid="last-turn">{esc_names(g.last_turn.text, names)}</p>')
    if g.scenario is not None:
        met = " met" if g.scenario.met else ""
        parts.append(f'<p class="scenario{met}" data-testid="scenario">{esc(g.scenario.text)}</p>')
    if turn.choosing:
        parts.append(
            f'<button type="button" id="act-cancel" class="cancel" data-action="{Cmd.CANCEL}" '
            f'aria-keyshortcuts="Escape">{esc(s.labels["btn.cancel_choice"])}</button>'
        )
    if g.replay is not None:
        parts.insert(0, games_ui.render_replay(g.replay))
        if not turn.over:
            parts.append(tray(s, turn.tray, turn.open_slots))
        return "".join(parts)
    if g.corr is not None:
        parts.append(games_ui.render_corr(g.corr, names))
    if not turn.over:
        parts.append(tray(s, turn.tray, turn.open_slots))
        parts.append(action_bar(s, g))
        parts.append(turn_helpers(s, g))
    else:
        parts.append(
            f'<div class="over-actions"><button type="button" id="act-newgame" class="primary" '
            f'data-action="{Cmd.NEW_GAME}">{esc(s.labels["btn.new_game"])}</button>'
            f'<button type="button" id="act-share" data-action="{Cmd.SHARE}">{esc(s.labels["btn.share"])}</button>'
            f'<button type="button" id="act-stats" data-action="{Cmd.STATS}">{esc(s.labels["btn.stats"])}</button></div>'
        )
    return "".join(parts)


def _put_back(d: DieView) -> str:
    if d.put_back is None:
        return ""
    return (
        f'<button type="button" class="putback" id="untake-{d.index}" data-action="{Cmd.UNTAKE}" '
        f'data-arg="{d.index}" aria-label="{esc(d.put_back)}">{esc(d.put_back_text)}</button>'
    )


def tray(s: Screen, dice: tuple[DieView, ...], open_slots: int) -> str:
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
            cls += hinted(s.game, f"die-{d.id}")
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
        items.append(f'<p class="tray-empty">{esc(s.labels["tray.empty"])}</p>')
    return (
        f'<div class="tray" role="group" aria-label="{esc(s.labels["tray.label"])}" data-testid="tray">'
        + "".join(items)
        + "</div>"
    )


def action_bar(s: Screen, g: Game) -> str:
    buttons = []
    line_of = {name: i for i, (names, _) in enumerate(g.turn.why) for name in names}
    for cmd in g.turn.commands:
        cls = {"end": "finish", "undo": "undo"}.get(cmd.name, "")
        if cmd.primary:
            cls = "primary"
        title = desc = ""
        if not cmd.enabled and cmd.reason:
            title = f' title="{esc(cmd.reason)}"'
            if cmd.name in line_of:
                desc = f' aria-describedby="why-{line_of[cmd.name]}"'
        cls += hinted(g, f"act-{cmd.name}")
        buttons.append(
            f'<button type="button" id="act-{cmd.name}" class="cmd {cls}" data-action="{cmd.name}"{title}{desc}'
            f'{attr_disabled(cmd.enabled)}>{esc(cmd.label)}</button>'
        )
    # the reasons for greyed commands, readable without hover (touch screens have none)
    why = "".join(f'<li id="why-{i}">{esc(text)}</li>' for i, (_, text) in enumerate(g.turn.why))
    return (
        f'<div class="actions" role="group" aria-label="{esc(s.labels["actions.label"])}">'
        + "".join(buttons)
        + "</div>"
        + (f'<ul class="why" data-testid="why">{why}</ul>' if why else "")
    )


# ---------------------------------------------------------------------------- supply


def hint_marked(g: Game | None, dom_id: str) -> bool:
    """The hint's best action uses this element (screen.hint_marks), or the tutorial's
    step wants it touched (coach.CoachView.marks)."""
    return g is not None and (
        (g.hint is not None and dom_id in g.hint.marks)
        or (g.coach is not None and dom_id in g.coach.marks))


def hinted(g: Game | None, dom_id: str) -> str:
    """The class of an element the hint marks."""
    return " hinted" if hint_marked(g, dom_id) else ""


def supply(s: Screen, g: Game) -> str:
    L = s.labels
    rows = []
    for r in g.yard.rows:
        badge = f'<span class="picked">{esc(r.picked_text)}</span>' if r.picked else ""
        rows.append(
            f'<li><button type="button" class="yard-row{hinted(g, "yard-" + r.type)}" id="yard-{r.type}" data-action="{Cmd.TAKE}" data-arg="{r.index}" '
            f'data-testid="yard-{r.type}"{attr_disabled(g.yard.enabled)}>'
            f'<span class="{die_classes(r.type, None)} mini">{die_svg(r.type, None)}</span>'
            f'<span class="yard-name">{esc(r.name)}</span>{badge}'
            f'<span class="yard-faces">{esc(r.faces)}</span></button></li>'
        )
    html = [
        f'<section class="yard" aria-labelledby="yard-title"><h2 class="panel-title" id="yard-title">'
        f'{esc(L["yard.title"])}</h2><ul class="yard-rows">{"".join(rows)}</ul></section>'
    ]
    district = g.district
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
            f'<button type="button" id="take-district" class="take-district{hinted(g, "take-district")}" '
            f'data-action="{Cmd.DISTRICT}" data-testid="take-district"'
            f'{attr_disabled(district.enabled)}>{esc(district.take_label)}</button></section>'
        )
    return "".join(html)


# ---------------------------------------------------------------------------- players


def lots(s: Screen, p: PlayerView) -> list[tuple[art.Lot, str, str]]:
    """The player's buildings as art lots with their texts: completed ones, then the
    unfinished ones (ids, data-actions and testids ``tile``/``column`` as before)."""
    out = []
    for b in p.tiles:
        target = "demolish" if b.target else None
        dom_id = f"tile-{p.seat}-{b.index}"
        lot = art.Lot(b.kind, b.height, True, target, Cmd.TILE, str(b.index), dom_id,
                      b.changed, hint_marked(s.game, dom_id))
        out.append((lot, b.target_label if b.target else b.label, b.points_text))
    for col in p.columns:
        dom_id = f"col-{p.seat}-{col.index}"
        lot = art.Lot(col.kind, col.height, False, col.target, Cmd.COLUMN, str(col.index),
                      dom_id, col.changed, hint_marked(s.game, dom_id))
        out.append((lot, col.target_label if col.target else col.label,
                    col.points_text or s.labels["art.unfinished_cap"]))
    return out


def player_card(s: Screen, p: PlayerView) -> str:
    L = s.labels
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
    return (
        f'<section class="player{" active" if p.active else ""}" data-testid="player-{p.seat}" '
        f'aria-label="{esc(p.label)}">'
        f'<header class="player-head">{star_html}<h3 class="pname"><bdi>{esc(p.name)}</bdi></h3>{badge}'
        f'<span class="pscore" data-testid="score-{p.seat}" aria-label="{esc(p.score_label)}">'
        f"{p.score}\u202f<small>{esc(p.score_unit)}</small></span></header>"
        f'{art.street_html(lots(s, p), p.label, L["skyline.empty"])}</section>'
    )


def players(s: Screen, g: Game) -> str:
    """The skylines in seat order, every one at the same scale: seats never move (the
    player to move is marked); at the end of the game the scoring (and a solo game's
    review) above them."""
    parts = []
    if g.daily is not None:
        parts.append(stats_ui.render_daily(g.daily, s.labels))
    if g.scoring is not None:
        parts.append(scoring(s, g))
    if g.review is not None:
        parts.append(review(s, g.review))
    if g.table_review is not None:
        parts.append(table_review(g.table_review, names_of(s)))
    if g.beat is not None:
        parts.append(f'<p class="beat" data-testid="beat">{esc(g.beat)}</p>')
    cards = "".join(player_card(s, p) for p in g.players)
    over = " over" if g.scoring is not None else ""
    parts.append(f'<div class="player-list n{len(g.players)}{over}">{cards}</div>')
    return "".join(parts)


def scoring(s: Screen, g: Game) -> str:
    L = s.labels
    sc = g.scoring
    assert sc is not None  # drawn only for a game that is over
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
    names = names_of(s)
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


# ---------------------------------------------------------------------------- log and helpers

LOST = ' class="lost"'
_log_cache: list = [None, ""]  # (LogView, labels language) -> HTML of the log list


def log_list(s: Screen, g: Game) -> str:
    key = (g.log, s.lang, names_of(s))
    if _log_cache[0] is not None and _log_cache[0][0] is key[0] and _log_cache[0][1:] == key[1:]:
        return _log_cache[1]
    items = [
        # one span for the words: the line is a flex row, and a name isolated in <bdi>
        # would otherwise be an item of its own, apart from the rest of the sentence
        f'<li class="ev ev-{e.event}"><span class="ev-round">{e.round}</span>'
        f'<span class="ev-text">{esc_names(e.text, key[2])}</span></li>'
        for e in g.log.entries
    ]
    if not items:
        items.append(f'<li class="ev">{esc(s.labels["log.empty"])}</li>')
    # The list scrolls: tabindex lets keyboard users reach it and scroll it with the arrows.
    html = (
        f'<ol class="log-list" id="log-list" data-testid="log" reversed tabindex="0" aria-labelledby="log-title">'
        f'{"".join(items)}</ol>'
    )
    _log_cache[0], _log_cache[1] = key, html
    return html


def log_panel(s: Screen, g: Game) -> str:
    return (
        f'<h2 class="panel-title" id="log-title">{esc(s.labels["log.title"])}</h2>{log_list(s, g)}'
    )


def turn_helpers(s: Screen, g: Game) -> str:
    """The computer-player bar (Skip), the Hint button and its answer: in the turn panel,
    beside the commands, so they stay in view."""
    L = s.labels
    parts = []
    if g.bot_bar is not None:
        skip = (
            f'<button type="button" id="bot-skip" data-action="{Cmd.BOT_SKIP}" data-testid="bot-skip"'
            f'{attr_disabled(g.bot_bar.skip_enabled)}>{esc(L["bot.skip"])}</button>'
        )
        options = "".join(f'<option value="{v}"{" selected" if chosen else ""}>{esc(label)}</option>'
                          for v, label, chosen in g.bot_bar.pace)
        pace = (f'<label class="pace"><span>{esc(g.bot_bar.pace_label)}</span>'
                f'<select id="bot-pace" data-action="{Cmd.BOT_PACE}">{options}</select></label>')
        parts.append(f'<div class="bot-bar" data-testid="bot-bar"><p>{esc_names(g.bot_bar.text, names_of(s))}</p>{skip}{pace}</div>')
    if g.hint_available:
        parts.append(
            f'<button type="button" id="btn-hint" data-action="{Cmd.BOT_HINT}" data-testid="hint-btn">{esc(L["hint.button"])}</button>'
        )
        h = g.hint
        if h is not None and h.best is not None:
            items = "".join(f'<li data-testid="hint-option">{esc(line)}</li>' for line in h.lines)
            parts.append(
                f'<div class="hint" data-testid="hint" role="status"><p class="hint-best">{esc(h.best)}</p>'
                f'<p>{esc(h.heading or L["hint.options"])}</p><ol>{items}</ol></div>'
            )
        elif h is not None:
            parts.append(f'<div class="hint" data-testid="hint" role="status"><p>{esc(h.note or L["hint.none"])}</p></div>')
    return f'<div class="turn-helpers" data-testid="turn-helpers">{"".join(parts)}</div>' if parts else ""


def _review_table(s: Screen, rows, testid: str, lost_head: str = "") -> str:
    L = s.labels
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


def review(s: Screen, r: ReviewView) -> str:
    """The solo review: accuracy, the costly decisions, a strip of the loss per round and
    every decision behind a <details> (the full list is long: one row per decision)."""
    L = s.labels
    if not r.done:
        return f'<section class="review"><p data-testid="review-progress">{esc(r.progress)}</p></section>'
    if r.costly:
        costly = _review_table(s, r.costly, "review-costly", r.lost_head)
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
        f'{_review_table(s, r.rows, "review-row", r.lost_head)}</details></section>'
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


# ---------------------------------------------------------------------------- dialogs


def dialog(s: Screen) -> str:
    d = s.dialog
    if d is None:
        return ""
    kind = d.kind
    body, closable = dialogs.render_body(s, d)
    close = (
        f'<button type="button" class="x" id="dlg-close" data-action="{Cmd.CLOSE}" '
        f'aria-label="{esc(s.labels["btn.close"])}">×</button>'
        if closable
        else ""
    )
    # A <dialog>: web/host.js (for main.DomHost) opens it with showModal() (focus moves in and is trapped,
    # the page behind is inert) and gives focus back to the opener when it goes.
    return (
        f'<dialog class="dialog dlg-{kind}" aria-labelledby="dlg-title" data-testid="dialog-{kind}">'
        f'<div class="dlg-head"><h2 id="dlg-title">{esc(d.title)}</h2>{close}</div>'
        f'<div class="dlg-body">{body}</div></dialog>'
    )


