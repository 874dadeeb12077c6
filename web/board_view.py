# ruff: noqa: E501 - HTML templates read better unwrapped
"""HTML for the game screen, built as strings (one innerHTML per region).

Every dynamic text goes through ``esc`` (html.escape): player names are text,
never markup. Interactive elements are real <button>s carrying ``data-action``
(and ``data-arg``) for the one delegated listener in main.py.
"""

from __future__ import annotations

from html import escape

import rules_panel

from skyline import SCENARIOS, Phase, summary

TYPE_LETTERS = "GUP"
FACE_LETTERS = "pbox"
KIND_CLASS = {"p": "k-p", "b": "k-b", "o": "k-o"}


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def attr_disabled(enabled: bool) -> str:
    return "" if enabled else " disabled"


# ---------------------------------------------------------------------------- dice

_GLYPHS = {
    # low-rise: short and wide, one row of windows
    "p": '<rect class="g" x="12" y="25" width="24" height="13" rx="1"/>'
    '<rect class="w" x="16" y="29" width="4" height="4"/><rect class="w" x="28" y="29" width="4" height="4"/>',
    # mid-rise: narrow tower, two columns of windows
    "b": '<rect class="g" x="16" y="13" width="16" height="25" rx="1"/>'
    '<rect class="w" x="19" y="17" width="3" height="4"/><rect class="w" x="26" y="17" width="3" height="4"/>'
    '<rect class="w" x="19" y="25" width="3" height="4"/><rect class="w" x="26" y="25" width="3" height="4"/>',
    # high-rise: tall and wide with an antenna
    "o": '<rect class="g" x="11" y="9" width="26" height="29" rx="1"/><rect class="g" x="23" y="4" width="2" height="6"/>'
    '<rect class="w" x="15" y="13" width="4" height="4"/><rect class="w" x="22" y="13" width="4" height="4"/>'
    '<rect class="w" x="29" y="13" width="4" height="4"/><rect class="w" x="15" y="21" width="4" height="4"/>'
    '<rect class="w" x="22" y="21" width="4" height="4"/><rect class="w" x="29" y="21" width="4" height="4"/>',
}
_PENT_GLYPHS = {
    # blue penthouse: a pitched roof
    "b": '<path class="g" d="M11 33 L24 17 L37 33 Z"/><rect class="g" x="14" y="34" width="20" height="4"/>',
    # orange penthouse: a crown with a spire
    "o": '<path class="g" d="M9 37 V21 L16 27 L24 9 L32 27 L39 21 V37 Z"/>',
    # blank: an empty dashed frame
    "x": '<rect class="blank" x="12" y="12" width="24" height="24" rx="3"/>',
}
# die type marks: ground floor = ground line, upper floor = floor slab, penthouse = roof corner
_TYPE_MARK = {
    "G": '<rect class="m" x="7" y="40" width="34" height="3" rx="1"/>',
    "U": '<rect class="m" x="7" y="40" width="6" height="3"/><rect class="m" x="21" y="40" width="6" height="3"/>'
    '<rect class="m" x="35" y="40" width="6" height="3"/>',
    "P": '<path class="m" d="M6 11 L11 5 L16 11 Z"/>',
}


def die_svg(type_letter: str, face_letter: str | None) -> str:
    if face_letter is None:
        glyph = '<text class="q" x="24" y="32" text-anchor="middle">?</text>'
    elif type_letter == "P":
        glyph = _PENT_GLYPHS[face_letter]
    else:
        glyph = _GLYPHS[face_letter]
    return (
        '<svg class="die-svg" viewBox="0 0 48 48" aria-hidden="true" focusable="false">'
        '<rect class="bg" x="2" y="2" width="44" height="44" rx="8"/>'
        f"{glyph}{_TYPE_MARK[type_letter]}</svg>"
    )


def die_label(c, type_letter: str, face_letter: str | None) -> str:
    t = c.t
    if face_letter is None:
        return t("die.label_unrolled", type=t("die.type." + type_letter))
    return t("die.label", type=t("die.type." + type_letter), face=t("die.face." + face_letter))


def die_classes(type_letter: str, face_letter: str | None) -> str:
    return f"die die-{type_letter} f-{face_letter or 'n'}"


# ---------------------------------------------------------------------------- regions


def render(c) -> dict[str, str]:
    out = {
        "topbar": topbar(c),
        "notices": notices(c),
        "dialog": dialog(c),
    }
    if c.board is None:
        return out
    out["turn"] = turn_panel(c)
    out["supply"] = supply(c)
    out["players"] = players(c)
    out["log"] = log_panel(c)
    return out


def topbar(c) -> str:
    t = c.t
    other = "de" if c.texts.lang == "en" else "en"
    status = ""
    if c.board is not None:
        state = c.board.state
        if state.phase is Phase.OVER:
            status = f'<span class="st-round">{esc(t("status.over"))}</span>'
        else:
            name = state.players[state.seat].name
            turn = t("status.solo_turn") if state.solo else t("status.turn", name=name)
            status = (
                f'<span class="st-round" data-testid="round">{esc(t("status.round", round=state.round))}</span>'
                f'<span class="st-turn" data-testid="turn">{esc(turn)}</span>'
            )
    return (
        f'<h1 class="brand">{esc(t("app.title"))}</h1>'
        f'<div class="status" aria-live="polite">{status}</div>'
        '<nav class="tools">'
        f'<button type="button" id="btn-new" data-action="newgame">{esc(t("btn.new_game"))}</button>'
        f'<button type="button" id="btn-share" data-action="share">{esc(t("btn.share"))}</button>'
        f'<button type="button" id="btn-rules" data-action="rules" aria-keyshortcuts="?">'
        f'{esc(t("btn.rules"))}</button>'
        f'<button type="button" id="btn-lang" class="lang" data-action="lang" data-arg="{other}" '
        f'lang="{other}" aria-label="{esc(t("btn.lang_label"))}">{esc(t("btn.lang"))}</button>'
        "</nav>"
    )


def notices(c) -> str:
    if not c.notices:
        return ""
    items = []
    for i, n in enumerate(c.notices):
        items.append(
            f'<div class="notice n-{n["level"]}" data-testid="notice" data-key="{esc(n["key"])}">'
            f'<p>{esc(c.t(n["key"], **n["params"]))}</p>{notice_button(c, n.get("button"))}'
            f'<button type="button" class="x" data-action="dismiss" data-arg="{i}" '
            f'aria-label="{esc(c.t("btn.dismiss"))}">×</button></div>'
        )
    return "".join(items)


def notice_button(c, button) -> str:
    """The notice's own command, e.g. "Play here" or "Export": (action, arg, label key)."""
    if not button:
        return ""
    action, arg, label = button
    return (
        f'<button type="button" class="notice-act" id="notice-{esc(action)}" data-action="{esc(action)}" '
        f'data-arg="{esc(arg)}">{esc(c.t(label))}</button>'
    )


# ---------------------------------------------------------------------------- turn panel


def prompt_text(c) -> str:
    t = c.t
    state = c.board.state
    if state.phase is Phase.OVER:
        return t("prompt.over")
    if c.mode and c.mode[0] == "build":
        return t("prompt.choose_tower")
    if c.mode and c.mode[0] == "demolish":
        return t("prompt.choose_demolish")
    if not c.is_human(state.seat):
        return t("prompt.waiting", name=state.player.name)
    if state.phase is Phase.TAKE:
        left = max(1, 3 - len(c.takes))
        return t(f"prompt.take{'_solo' if state.solo else ''}.{left}")
    if state.phase is Phase.ROLL:
        return t("prompt.roll")
    if state.phase is Phase.RESOLVE:
        return t("prompt.resolve")
    return t("prompt.continue")


def turn_panel(c) -> str:
    t = c.t
    state = c.board.state
    cmds = c.commands()
    parts = ['<h2 class="panel-title">']
    if state.phase is Phase.OVER:
        parts.append(esc(t("turn.title_over")))
    else:
        parts.append(esc(t("turn.title_solo") if state.solo else t("turn.title", name=state.player.name)))
    parts.append("</h2>")
    phase = "choose" if c.mode else state.phase.name.lower()
    parts.append(
        f'<p class="prompt" id="prompt" data-testid="prompt" data-phase="{phase}">{esc(prompt_text(c))}</p>'
    )
    if c.mode:
        parts.append(
            f'<button type="button" id="act-cancel" class="cancel" data-action="cancel" '
            f'aria-keyshortcuts="Escape">{esc(t("btn.cancel_choice"))}</button>'
        )
    if state.phase is not Phase.OVER:
        parts.append(tray(c))
        parts.append(action_bar(c, cmds))
    else:
        parts.append(
            f'<div class="over-actions"><button type="button" id="act-newgame" class="primary" '
            f'data-action="newgame">{esc(t("btn.new_game"))}</button>'
            f'<button type="button" id="act-share" data-action="share">{esc(t("btn.share"))}</button></div>'
        )
    return "".join(parts)


def tray(c) -> str:
    t = c.t
    state = c.board.state
    items = []
    highlight = c.mode[1] if c.mode and c.mode[0] == "build" else (
        c.mode[1][0] if c.mode and c.mode[0] == "demolish" else None
    )
    if state.phase is Phase.TAKE:
        for i, dtype in enumerate(c.takes):
            letter = TYPE_LETTERS[dtype]
            label = die_label(c, letter, None)
            items.append(
                f'<div class="slot taken" data-testid="taken">'
                f'<div class="{die_classes(letter, None)}" role="img" aria-label="{esc(label)}">'
                f'{die_svg(letter, None)}</div>'
                f'<span class="die-cap">{esc(t("die.short." + letter))}</span>'
                f'<button type="button" class="putback" id="untake-{i}" data-action="untake" data-arg="{i}" '
                f'aria-label="{esc(t("btn.put_back_label", die=label))}">{esc(t("btn.put_back"))}</button></div>'
            )
        for _ in range(3 - len(c.takes)):
            items.append('<div class="slot empty" aria-hidden="true"><div class="die ghost"></div></div>')
    else:
        last = c.board.actions[-1] if c.board.actions else None
        from_yard = state.phase is Phase.ROLL and type(last).__name__ == "Take"
        for i, die in enumerate(state.dice):
            letter = TYPE_LETTERS[die.type]
            face = None if die.face is None else FACE_LETTERS[die.face]
            label = die_label(c, letter, face)
            if state.phase is Phase.ROLL:
                putback = ""
                if from_yard:
                    putback = (
                        f'<button type="button" class="putback" id="untake-{i}" data-action="untake" '
                        f'data-arg="{i}" aria-label="{esc(t("btn.put_back_label", die=label))}">'
                        f'{esc(t("btn.put_back"))}</button>'
                    )
                items.append(
                    f'<div class="slot" data-testid="die" data-die="{die.id}">'
                    f'<div class="{die_classes(letter, face)}" role="img" aria-label="{esc(label)}">'
                    f'{die_svg(letter, face)}</div>'
                    f'<span class="die-cap">{esc(t("die.short." + letter))}</span>{putback}</div>'
                )
                continue
            pressed = die.id in c.selected
            cls = die_classes(letter, face) + (" sel" if pressed else "")
            if die.id == highlight:
                cls += " focus-die"
            items.append(
                f'<div class="slot"><button type="button" class="{cls}" id="die-{die.id}" '
                f'data-testid="die" data-die="{die.id}" data-face="{face}" data-type="{letter}" '
                f'data-action="die" data-arg="{die.id}" aria-pressed="{"true" if pressed else "false"}" '
                f'aria-label="{esc(label)}"{attr_disabled(not c.mode)}>{die_svg(letter, face)}</button>'
                f'<span class="die-cap">{esc(t("die.short." + letter))}</span></div>'
            )
    if not items:
        items.append(f'<p class="tray-empty">{esc(t("tray.empty"))}</p>')
    return (
        f'<div class="tray" role="group" aria-label="{esc(t("tray.label"))}" data-testid="tray">'
        + "".join(items)
        + "</div>"
    )


def _cmd(c, cmds, name: str, label_key: str, cls: str = "", shortcut: str = "") -> str:
    enabled, why = cmds[name]
    desc = ""
    title = ""
    if not enabled and why:
        reason = c.t(why)
        title = f' title="{esc(reason)}"'
        desc = f' aria-describedby="why-{name}"'
        hint = f'<span id="why-{name}" class="vh">{esc(reason)}</span>'
    else:
        hint = ""
    return (
        f'<button type="button" id="act-{name}" class="cmd {cls}" data-action="{name}"{title}{desc}'
        f'{attr_disabled(enabled)}>{esc(c.t(label_key))}</button>{hint}'
    )


def action_bar(c, cmds) -> str:
    state = c.board.state
    buttons = [
        _cmd(c, cmds, "roll", "btn.roll", "primary" if state.phase is Phase.ROLL else ""),
        _cmd(c, cmds, "build", "btn.build"),
    ]
    if not state.solo:
        buttons.append(_cmd(c, cmds, "abandon", "btn.abandon"))
    buttons.append(_cmd(c, cmds, "demolish", "btn.demolish"))
    buttons.append(_cmd(c, cmds, "end", "btn.end_turn", "finish"))
    buttons.append(_cmd(c, cmds, "undo", "btn.undo", "undo"))
    return (
        f'<div class="actions" role="group" aria-label="{esc(c.t("actions.label"))}">'
        + "".join(buttons)
        + "</div>"
    )


# ---------------------------------------------------------------------------- supply


def supply(c) -> str:
    t = c.t
    state = c.board.state
    can_take = state.phase is Phase.TAKE and not c.mode and len(c.takes) < 3 and c.is_human(state.seat)
    rows = []
    for i, letter in enumerate(TYPE_LETTERS):
        picked = sum(1 for d in c.takes if d == i)
        badge = f'<span class="picked">{esc(t("yard.picked", n=picked))}</span>' if picked else ""
        rows.append(
            f'<li><button type="button" class="yard-row" id="yard-{letter}" data-action="take" data-arg="{i}" '
            f'data-testid="yard-{letter}"{attr_disabled(can_take)}>'
            f'<span class="{die_classes(letter, None)} mini">{die_svg(letter, None)}</span>'
            f'<span class="yard-name">{esc(t("yard.row." + letter))}</span>{badge}'
            f'<span class="yard-faces">{esc(t("yard.faces." + letter))}</span></button></li>'
        )
    html = [
        f'<section class="yard" aria-labelledby="yard-title"><h2 class="panel-title" id="yard-title">'
        f'{esc(t("yard.title"))}</h2><ul class="yard-rows">{"".join(rows)}</ul></section>'
    ]
    if not state.solo:
        dice = "".join(
            f'<span class="{die_classes(TYPE_LETTERS[d], None)} mini" role="img" '
            f'aria-label="{esc(die_label(c, TYPE_LETTERS[d], None))}">{die_svg(TYPE_LETTERS[d], None)}</span>'
            for d in state.district
        )
        can_district = state.phase is Phase.TAKE and not c.mode and bool(state.district) and c.is_human(
            state.seat
        )
        html.append(
            f'<section class="district" aria-labelledby="district-title"><h2 class="panel-title" '
            f'id="district-title">{esc(t("district.title"))}</h2>'
            f'<div class="district-dice" data-testid="district">{dice or esc(t("district.empty"))}</div>'
            f'<button type="button" id="take-district" data-action="district" data-testid="take-district"'
            f'{attr_disabled(can_district)}>{esc(t("district.take", n=len(state.district)))}</button></section>'
        )
    return "".join(html)


# ---------------------------------------------------------------------------- players


def floors(kind: str, height: int) -> str:
    return "".join(f'<span class="floor {KIND_CLASS[kind]}"></span>' for _ in range(height))


def players(c) -> str:
    t = c.t
    state = c.board.state
    over = state.phase is Phase.OVER
    parts = []
    if over:
        parts.append(scoring(c))
    if c.beat is not None and state.solo:
        parts.append(f'<p class="beat" data-testid="beat">{esc(t("beat.show", score=c.beat))}</p>')
    mode = c.mode
    cards = []
    for seat, player in enumerate(state.players):
        active = seat == state.seat and not over
        star = seat == state.start_seat and not state.solo
        score = c.board.scores()[seat]
        demolish_mode = active and mode and mode[0] == "demolish"
        build_cands: set[int] = set()
        if active and mode and mode[0] == "build":
            targets = {player.columns[i] for i in mode[2] if i is not None}
            build_cands = {i for i, col in enumerate(player.columns) if col in targets}
        tiles = []
        for i, b in enumerate(player.buildings):
            kind = FACE_LETTERS[b.kind]
            label = t("tile.label", kind=t("kind.short." + kind), height=b.height, points=b.points)
            inner = (
                f'<span class="tile-h">{floors(kind, b.height)}</span>'
                f'<span class="tile-num"><b>{b.height}</b><small>{esc(t("tile.points", points=b.points))}'
                "</small></span>"
            )
            if demolish_mode:
                tiles.append(
                    f'<button type="button" class="tile {KIND_CLASS[kind]} target" id="tile-{seat}-{i}" '
                    f'data-action="tile" data-arg="{i}" data-testid="tile" '
                    f'aria-label="{esc(t("target.demolish", what=label))}">{inner}</button>'
                )
            else:
                tiles.append(
                    f'<div class="tile {KIND_CLASS[kind]}" role="img" data-testid="tile" '
                    f'aria-label="{esc(label)}">{inner}</div>'
                )
        cols = []
        for i, col in enumerate(player.columns):
            kind = FACE_LETTERS[col.kind]
            label = t("column.label", kind=t("kind.short." + kind), height=col.height)
            inner = f'<span class="stack">{floors(kind, col.height)}</span><span class="col-h">{col.height}</span>'
            if demolish_mode or i in build_cands:
                what = "target.demolish" if demolish_mode else "target.build"
                cols.append(
                    f'<button type="button" class="column {KIND_CLASS[kind]} target" id="col-{seat}-{i}" '
                    f'data-action="col" data-arg="{i}" data-testid="column" '
                    f'aria-label="{esc(t(what, what=label))}">{inner}</button>'
                )
            else:
                cols.append(
                    f'<div class="column {KIND_CLASS[kind]}" role="img" data-testid="column" '
                    f'aria-label="{esc(label)}">{inner}</div>'
                )
        if not tiles and not cols:
            cols.append(f'<p class="no-buildings">{esc(t("skyline.empty"))}</p>')
        star_html = (
            f'<span class="star" title="{esc(t("player.start"))}" aria-label="{esc(t("player.start"))}" '
            'role="img">★</span>'
            if star
            else ""
        )
        badge = f'<span class="turn-badge">{esc(t("player.to_move"))}</span>' if active and not state.solo else ""
        cards.append(
            f'<section class="player{" active" if active else ""}" data-testid="player-{seat}" '
            f'aria-label="{esc(t("player.label", name=player.name))}">'
            f'<header class="player-head">{star_html}<h3 class="pname"><bdi>{esc(player.name)}</bdi></h3>{badge}'
            f'<span class="pscore" data-testid="score-{seat}" aria-label="{esc(t("player.score", score=score))}">'
            f"{score}<small>{esc(t('player.points_short'))}</small></span></header>"
            f'<div class="skyline"><div class="tiles">{"".join(tiles)}</div>'
            f'<div class="columns">{"".join(cols)}</div><div class="ground"></div></div></section>'
        )
    parts.append(f'<div class="player-list n{len(state.players)}">{"".join(cards)}</div>')
    return "".join(parts)


def scoring(c) -> str:
    t = c.t
    state = c.board.state
    info = summary(state)
    rows = []
    for r in info["players"]:
        chips = " ".join(
            f'<span class="chip {KIND_CLASS[k]}">{esc(t("score.chip", height=h, points=p))}</span>'
            for k, h, p in r["buildings"]
        ) or esc(t("score.none"))
        conv = esc(t("score.converted", n=r["converted"])) if r["converted"] else "–"
        if r["discarded"]:
            conv += "<br><small>" + esc(t("score.discarded", n=len(r["discarded"]))) + "</small>"
        rows.append(
            f'<tr data-testid="score-row-{r["seat"]}"><th scope="row"><span class="rank" '
            f'data-testid="rank-{r["seat"]}">{r["rank"]}.</span> <bdi>{esc(r["name"])}</bdi></th>'
            f'<td class="chips">{chips}</td><td class="conv">{conv}</td>'
            f'<td class="num"><span data-testid="total-{r["seat"]}">{r["score"]}</span>'
            f'<small>{esc(t("score.completed_n", n=r["completed"]))}</small></td></tr>'
        )
    names = [info["players"][s]["name"] for s in info["winners"]]
    lines = []
    if state.solo:
        r = info["players"][0]
        level = info.get("level")
        lines.append(
            t("result.solo_level", level=t("level." + level)) if level else t("result.solo_no_level")
        )
        if info.get("scenario"):
            key = "result.scenario_met" if info["scenario_met"] else "result.scenario_failed"
            lines.append(t(key, scenario=t("scenario." + info["scenario"])))
        if c.beat is not None:
            key = "result.beat_yes" if r["score"] > c.beat else (
                "result.beat_tie" if r["score"] == c.beat else "result.beat_no"
            )
            lines.append(t(key, score=c.beat))
        best = c.records["best"].get(info.get("scenario") or "-")
        if isinstance(best, int):
            lines.append(t("result.best", score=best))
        headline = t("result.solo_total", score=r["score"])
    else:
        if len(names) == 1:
            headline = t("result.winner", name=names[0])
        else:
            headline = t("result.shared", names=", ".join(names))
        if info["tie_break"]:
            lines.append(t("result.tie_break"))
            if len(names) > 1:
                lines.append(t("result.still_tied"))
    extra = "".join(f"<p>{esc(line)}</p>" for line in lines)
    return (
        f'<section class="scoring" data-testid="scoring" aria-labelledby="scoring-title">'
        f'<h2 id="scoring-title">{esc(t("score.title"))}</h2>'
        f'<p class="headline" data-testid="result">{esc(headline)}</p>{extra}'
        f'<div class="table-wrap"><table><thead><tr><th scope="col">{esc(t("score.player"))}</th>'
        f'<th scope="col">{esc(t("score.buildings"))}</th><th scope="col">{esc(t("score.lowrise"))}</th>'
        f'<th scope="col">{esc(t("score.total"))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
        f'</div><p class="score-note">{esc(t("score.note"))}</p></section>'
    )


# ---------------------------------------------------------------------------- log


def die_word(c, code: str) -> str:
    return c.t("dieword." + code)


def event_text(c, e: dict, names) -> str:
    t = c.t
    name = names[e["seat"]] if e["seat"] < len(names) else "?"
    kind = e["event"]
    if kind == "take":
        return t("log.take", name=name, dice=", ".join(t("log.type." + x) for x in e["dice"]))
    if kind == "take_district":
        return t("log.take_district", name=name, n=len(e["dice"]))
    if kind == "roll":
        dice = ", ".join(die_word(c, d) for d in e["dice"].split())
        return t("log.reroll" if e["reroll"] else "log.roll", name=name, dice=dice)
    if kind == "stuck":
        return t("log.stuck", name=name)
    if kind == "build":
        text = t("log.build", name=name, die=die_word(c, e["die"]), height=e["height"])
        if "completed" in e:
            text += " " + t("log.completed", height=e["completed"], points=e["points"])
        return text
    if kind == "demolish":
        what = t("column.label" if not e["completed"] else "tile.label_short",
                 kind=t("kind.short." + e["kind"]), height=e["height"])
        return t("log.demolish", name=name, die=die_word(c, e["die"]), what=what)
    if kind == "abandon":
        return t("log.abandon", name=name, dice=", ".join(die_word(c, d) for d in e["dice"].split()))
    if kind == "end_turn":
        return t("log.end_turn", name=name, n=e["returned"])
    if kind == "round_end":
        return t("log.round_end", round=e["round"])
    if kind == "game_over":
        return t("log.game_over")
    return kind


def log_panel(c) -> str:
    key = (c.log_version, c.texts.lang, len(c.panels))
    if c.log_html is None or c.log_html[0] != key or c.panels:
        c.log_html = (key, _log_panel(c))
    return c.log_html[1]


def _log_panel(c) -> str:
    t = c.t
    names = [p.name for p in c.board.state.players]
    events = c.log_events()
    items = []
    for e in reversed(events[-300:]):
        cls = e["event"]
        items.append(
            f'<li class="ev ev-{cls}"><span class="ev-round">{e["round"]}</span>'
            f"{esc(event_text(c, e, names))}</li>"
        )
    if not items:
        items.append(f'<li class="ev">{esc(t("log.empty"))}</li>')
    extra = "".join(f'<section class="panel extra">{panel(c)}</section>' for panel in c.panels)
    return (
        f'<h2 class="panel-title">{esc(t("log.title"))}</h2>'
        f'<ol class="log-list" data-testid="log" reversed>{"".join(items)}</ol>{extra}'
    )


# ---------------------------------------------------------------------------- dialogs


def dialog(c) -> str:
    d = c.dialog
    if not d:
        return ""
    kind = d["kind"]
    if kind == "rules":
        body, title = rules_panel.render(c), c.t("rules.title")
    elif kind == "newgame":
        body, title = new_game_form(c, d), c.t("newgame.title")
    elif kind == "confirm_link":
        body, title = confirm_link(c, d), c.t("link.title")
    elif kind == "share":
        body, title = share_box(c, d), c.t("share.title")
    elif kind == "export":
        body, title = export_box(c, d), c.t("export.title")
    else:
        return ""
    closable = not (kind == "newgame" and d.get("first"))
    close = (
        f'<button type="button" class="x" id="dlg-close" data-action="close" '
        f'aria-label="{esc(c.t("btn.close"))}">×</button>'
        if closable
        else ""
    )
    return (
        f'<div class="overlay"><div class="dialog dlg-{kind}" role="dialog" aria-modal="true" '
        f'aria-labelledby="dlg-title" data-testid="dialog-{kind}">'
        f'<header class="dlg-head"><h2 id="dlg-title">{esc(title)}</h2>{close}</header>'
        f'<div class="dlg-body">{body}</div></div></div>'
    )


def new_game_form(c, d) -> str:
    t = c.t
    count = d["count"]
    opts = "".join(
        f'<option value="{n}"{" selected" if n == count else ""}>'
        f'{esc(t("newgame.count_solo") if n == 1 else t("newgame.count_n", n=n))}</option>'
        for n in range(1, 5)
    )
    names = "".join(
        f'<label class="field"><span>{esc(t("newgame.name_label", n=i + 1))}</span>'
        f'<input name="name{i}" id="ng-name{i}" maxlength="24" autocomplete="off" '
        f'value="{esc(d["names"][i])}" required></label>'
        # computer players (web/bots_ui.py): a "Human / Computer (level)" select per seat
        + (c.seat_field(d, i) if hasattr(c, "seat_field") else "")
        for i in range(count)
    )
    fields = [
        f'<label class="field"><span>{esc(t("newgame.count"))}</span>'
        f'<select name="count" id="dlg-first" data-action="ng-change">{opts}</select></label>',
        f'<fieldset class="names"><legend>{esc(t("newgame.names"))}</legend>{names}</fieldset>',
    ]
    if count > 1:
        starts = [f'<option value="r"{" selected" if d["start"] == "r" else ""}>{esc(t("newgame.start_random"))}'
                  "</option>"]
        for i in range(count):
            sel = " selected" if d["start"] == str(i) else ""
            starts.append(f'<option value="{i}"{sel}>{esc(t("newgame.start_seat", n=i + 1))}</option>')
        fields.append(
            f'<label class="field"><span>{esc(t("newgame.start"))}</span>'
            f'<select name="start" id="ng-start">{"".join(starts)}</select></label>'
        )
    else:
        scen = [f'<option value="">{esc(t("newgame.no_scenario"))}</option>']
        for s in SCENARIOS:
            sel = " selected" if d["scenario"] == s else ""
            scen.append(f'<option value="{s}"{sel}>{esc(t("scenario." + s))} – {esc(t("scenario_goal." + s))}</option>')
        fields.append(
            f'<label class="field"><span>{esc(t("newgame.scenario"))}</span>'
            f'<select name="scenario" id="ng-scenario">{"".join(scen)}</select></label>'
        )
    fields.append(
        f'<label class="check"><input type="checkbox" name="nine" id="ng-nine"{" checked" if d["nine"] else ""}>'
        f'<span>{esc(t("newgame.nine"))}</span></label>'
    )
    fields.append(
        f'<label class="field"><span>{esc(t("newgame.seed"))}</span>'
        f'<input name="seed" id="ng-seed" maxlength="32" autocomplete="off" spellcheck="false" '
        f'placeholder="{esc(t("newgame.seed_placeholder"))}" value="{esc(d["seed"])}"></label>'
    )
    error = f'<p class="form-error" role="alert" data-testid="form-error">{esc(d["error"])}</p>' if d["error"] else ""
    intro = f'<p class="intro">{esc(t("newgame.intro"))}</p>' if d.get("first") else ""
    return (
        f'{intro}<form id="ng-form" class="newgame" data-submit="ng-start" novalidate>{"".join(fields)}{error}'
        f'<div class="dlg-actions"><button type="submit" class="primary" id="ng-start-btn">'
        f'{esc(t("newgame.start_btn"))}</button>'
        + (
            f'<button type="button" data-action="close" id="ng-cancel">{esc(t("btn.cancel"))}</button>'
            if not d.get("first")
            else f'<button type="button" data-action="close" id="ng-cancel">{esc(t("newgame.play_default"))}</button>'
        )
        + "</div></form>"
    )


def confirm_link(c, d) -> str:
    t = c.t
    o = d["options"]
    desc = t("link.describe", names=", ".join(o.names), seed=o.seed)
    beat = f'<p>{esc(t("beat.show", score=d["beat"]))}</p>' if d.get("beat") is not None else ""
    return (
        f'<p>{esc(t("link.question"))}</p><p class="link-desc">{esc(desc)}</p>{beat}'
        f'<div class="dlg-actions"><button type="button" class="primary" id="dlg-first" data-action="link-accept">'
        f'{esc(t("link.accept"))}</button><button type="button" data-action="close" id="link-keep">'
        f'{esc(t("link.keep"))}</button></div>'
    )


def share_box(c, d) -> str:
    t = c.t
    copied = d.get("copied")
    if copied is True:
        status = f'<p class="ok" role="status" data-testid="share-status">{esc(t("share.copied"))}</p>'
    elif copied is False:
        status = f'<p class="warn" role="status" data-testid="share-status">{esc(t("share.failed"))}</p>'
    else:
        status = ""
    return (
        f'<p>{esc(t("share.explain"))}</p>'
        f'<label class="field"><span>{esc(t("share.link"))}</span>'
        f'<input id="share-link" data-testid="share-link" readonly value="{esc(d["link"])}"></label>{status}'
        f'<div class="dlg-actions"><button type="button" data-action="close" id="dlg-first">{esc(t("btn.close"))}'
        "</button></div>"
    )


def export_box(c, d) -> str:
    """A save that could not be loaded, as text to copy and a file to download."""
    t = c.t
    name = "skyline-" + d["key"].rsplit(".", 1)[-1] + ".json"
    download = (
        f'<a class="button" id="export-download" data-testid="export-download" href="{esc(d["url"])}" '
        f'download="{esc(name)}">{esc(t("export.download"))}</a>'
        if d.get("url")
        else ""
    )
    return (
        f'<p>{esc(t("export.explain", key=d["key"]))}</p>'
        f'<label class="field"><span>{esc(t("export.text"))}</span>'
        f'<textarea id="export-text" data-testid="export-text" readonly rows="8" spellcheck="false">'
        f'{esc(d["text"])}</textarea></label>'
        f'<div class="dlg-actions">{download}<button type="button" data-action="close" id="dlg-first">'
        f'{esc(t("btn.close"))}</button></div>'
    )
