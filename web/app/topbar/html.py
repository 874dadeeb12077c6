# ruff: noqa: E501 - HTML templates read better unwrapped
"""The top bar's HTML: the title, the game's status, the tools (folded into a menu on a
narrow screen), the Sound switch and the scoreboard."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.commands import Cmd
from app.core.dom import GAMES_BUTTON, LEARN_BUTTON, MENU_BUTTON, RULES_BUTTON
from app.core.html import esc
from app.core.labels import Labels
from app.core.names import esc_names
from app.topbar.view import ScoreboardSeat, TopBar


def topbar(v: TopBar) -> str:
    L = v.labels
    other = v.other_lang
    status = v.status
    names = tuple(p.name for p in v.seats) if v.seats is not None else ()
    status_html = ""
    if status is not None:
        if status.over:
            status_html = f'<span class="st-round">{esc(status.text)}</span>'
        else:
            status_html = (
                f'<span class="st-round" data-testid="round">{esc(status.text)}</span>'
                f'<span class="st-turn" data-testid="turn">{esc_names(status.turn, names)}</span>'
            )
            if status.help:
                status_html += f'<span class="st-help" data-testid="help-on">{esc(status.help)}</span>'
    open_ = "true" if v.menu_open else "false"
    return (
        f'<h1 class="brand">{esc(L["app.title"])}</h1>'
        f'<div class="status">{status_html}</div>'
        # a narrow screen folds the tools into this menu (style.css, .topbar)
        f'<button type="button" id="{MENU_BUTTON}" class="menu-button" data-action="{Cmd.MENU}" '
        f'aria-expanded="{open_}" aria-controls="tools">{esc(L["btn.menu"])}</button>'
        f'<nav class="tools{" open" if v.menu_open else ""}" id="tools">'
        f'<button type="button" id="{GAMES_BUTTON}" data-action="{Cmd.GAMES}">{esc(L["btn.games"])}</button>'
        f'<button type="button" id="btn-new" data-action="{Cmd.NEW_GAME}">{esc(L["btn.new_game"])}</button>'
        f'<button type="button" id="btn-share" data-action="{Cmd.SHARE}">{esc(L["btn.share"])}</button>'
        f'<button type="button" id="btn-daily" data-action="{Cmd.DAILY}">{esc(L["btn.daily"])}</button>'
        f'<button type="button" id="btn-stats" data-action="{Cmd.STATS}">{esc(L["btn.stats"])}</button>'
        f'<button type="button" id="{LEARN_BUTTON}" data-action="{Cmd.TUTORIAL}">{esc(L["btn.learn"])}</button>'
        f'<button type="button" id="{RULES_BUTTON}" data-action="{Cmd.RULES}" aria-keyshortcuts="?">'
        f'{esc(L["btn.rules"])}</button>'
        + sound_switch(L, v.sound) +
        f'<button type="button" id="btn-lang" class="lang" data-action="{Cmd.LANG}" data-arg="{other}">'
        f'<span lang="{other}">{esc(L["btn.lang"])}</span>'
        f'<span class="vh"> – {esc(L["btn.lang_label"])}</span></button>'
        "</nav>" + scoreboard(L, v.seats)
    )


#: the Sound switch's speaker: sound waves when on, a cross when off (besides the colour)
SPEAKER = ('<svg class="sound-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" '
           'focusable="false"><path class="cone" d="M1.5 5.5h3l4-3.5v12l-4-3.5h-3z"/>{}</svg>')
SPEAKER_ON = '<path class="mark" d="M10.5 5.2a4 4 0 0 1 0 5.6M12.6 3.2a7 7 0 0 1 0 9.6"/>'
SPEAKER_OFF = '<path class="mark" d="M10.5 5.5l4.5 5M15 5.5l-4.5 5"/>'


def sound_switch(labels: Labels, sound: bool) -> str:
    """The Sound switch: a toggle button (aria-pressed) named "Sound"; its speaker shows
    the state to the eye (screen readers hear "pressed")."""
    on = "true" if sound else "false"
    icon = SPEAKER.format(SPEAKER_ON if sound else SPEAKER_OFF)
    return (f'<button type="button" id="btn-sound" class="sound" data-action="{Cmd.SOUND}" '
            f'aria-pressed="{on}">{icon}<span class="sound-word">{esc(labels["btn.sound"])}'
            '</span></button>')


def scoreboard(labels: Labels, seats: Sequence[ScoreboardSeat] | None) -> str:
    """Every player in seat order, always on screen (the top bar stays at the top):
    the seat's colour and mark, the start player's star, the name, the score and the
    completed buildings; the player to move marked. One sentence per seat for screen
    readers. With rivals each chip is a button that brings that skyline into view."""
    if seats is None:
        return ""
    table = len(seats) > 1
    items = []
    for p in seats:
        mark = '<span class="seat-mark"></span>' if table else ""
        face = (f'<span aria-hidden="true">{mark}'
                f'{"<span class=sb-star>★</span>" if p.start else ""}'
                f'<bdi class="sb-name">{esc(p.name)}</bdi><b class="sb-score">{p.score}</b>'
                f'<span class="sb-bldg">{p.buildings}</span></span>')
        if table:
            face = (f'<button type="button" class="sb-show" id="show-seat-{p.seat}" '
                    f'data-action="{Cmd.SHOW_SEAT}" data-arg="{p.seat}" '
                    f'aria-controls="skyline-{p.seat}">{face}'
                    f'<span class="vh">{esc_names(p.show, (p.name,))}</span></button>')
        else:
            face += f'<span class="vh">{esc_names(p.summary, (p.name,))}</span>'
        seat = f" seat-{p.seat}" if table else ""
        items.append(f'<li class="sb{seat}{" active" if p.active else ""}" '
                     f'data-testid="sb-{p.seat}">{face}</li>')
    return (f'<ol class="scoreboard" data-testid="scoreboard" '
            f'aria-label="{esc(labels["scoreboard.label"])}">{"".join(items)}</ol>')
