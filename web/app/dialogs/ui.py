# ruff: noqa: E501 - HTML templates read better unwrapped
"""The page's own dialogs: the new-game form, the shared-link question, the share
box and the export of a broken save, each a view built from its page state (every
text translated) and the HTML of its body. ``app.dialog_table`` registers them beside
the other features' dialogs (the game list, the statistics, the rules panel).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from app.core.commands import Cmd
from app.core.dom import DIALOG_FIRST, NEW_GAME_LEARN, SHARE_LINK
from app.core.html import esc
from app.core.i18n import translate
from app.core.labels import Labels
from app.core.names import player_names
from app.core.page_state import (
    FRIEND,
    HUMAN,
    ConfirmLinkDialog,
    DialogContext,
    ExportDialog,
    NewGameDialog,
    PageState,
    RulesDialog,
    ShareDialog,
)
from skyline import COMPUTER_LEVELS, SCENARIOS, Seat

# The rules panel's texts: every key with one of these prefixes.
#: The export dialog's text (focused when it opens).
EXPORT_TEXT = "export-text"

RULES_PREFIXES = ("rules.", "level.", "scenario.", "scenario_goal.")


# ---------------------------------------------------------------------------- views


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class NameField:
    index: int
    label: str
    value: str
    seat_label: str
    seat_options: tuple[Option, ...]


@dataclass(frozen=True)
class NewGameView:
    kind = "newgame"
    title: str
    first: bool
    count_options: tuple[Option, ...]
    names: tuple[NameField, ...]
    start_options: tuple[Option, ...] | None  # 2-4 players
    scenario_options: tuple[Option, ...] | None  # solo
    nine: bool
    seed: str
    error: str | None
    notice: str | None = None  # why the link of this visit could not be opened
    help: bool = True  # the computer's help (Hint and the chances chart)
    help_note: str = ""  # why it is off by default where people play each other
    help_kind: str = ""  # the kind of game the box is drawn for
    live: bool | None = None  # a live table (None: not offered, no friend elsewhere)


@dataclass(frozen=True)
class RulesView:
    kind = "rules"
    title: str
    lang: str
    texts: Mapping[str, str]  # the rules.*, level.*, scenario*.* keys, translated

    def t(self, key: str, /) -> str:
        return self.texts[key]


@dataclass(frozen=True)
class ConfirmLinkView:
    kind = "confirm_link"
    title: str
    describe: str
    beat: str | None


@dataclass(frozen=True)
class ShareView:
    kind = "share"
    title: str
    link: str
    status: str | None
    ok: bool | None


@dataclass(frozen=True)
class ExportView:
    kind = "export"
    title: str
    explain: str
    key: str
    text: str
    url: str | None
    filename: str


# ---------------------------------------------------------------------------- builders


def _seat_options(t, current: str, friend: bool = False) -> tuple[Option, ...]:
    """The new-game form's choices for one seat (``current``: its form value)."""
    opts = [(HUMAN, t("seat.human"))] + [(lv, t("seat.bot." + lv)) for lv in COMPUTER_LEVELS]
    if friend:
        opts.append((FRIEND, t("seat.friend")))
    return tuple(Option(v, label, v == current) for v, label in opts)


def new_game_view(d: NewGameDialog, c: DialogContext) -> NewGameView:
    texts = c.texts
    t = texts.t
    count_options = tuple(
        Option(str(n), t("newgame.count_solo") if n == 1 else t("newgame.count_n", n=n),
               n == d.count)
        for n in range(1, 5)
    )
    shown = player_names(PageState(), d.names[:d.count], texts, d.seats[:d.count])
    names = tuple(
        NameField(i, t("newgame.name_label", n=i + 1), shown[i],
                  t("seat.label", n=i + 1), _seat_options(t, d.seats[i], d.count > 1))
        for i in range(d.count)
    )
    start = scenario = None
    if d.count > 1:  # the seats by the names in the form (they follow every change)
        start = (Option("r", t("newgame.start_random"), d.start == "r"),) + tuple(
            Option(str(i), shown[i], d.start == str(i)) for i in range(d.count)
        )
    else:
        scenario = (Option("", t("newgame.no_scenario"), False),) + tuple(
            Option(s, f"{t('scenario.' + s)} – {t('scenario_goal.' + s)}", d.scenario == s)
            for s in SCENARIOS
        )
    return NewGameView(t("newgame.title"), d.first, count_options, names, start, scenario,
                       d.nine, d.seed, d.error, translate(t, d.notice), d.help,
                       t("chances.off_humans") if d.help_kind == "humans" else "", d.help_kind,
                       d.live if d.count > 1 and FRIEND in d.seats[:d.count] else None)


def rules_view(d: RulesDialog, c: DialogContext) -> RulesView:
    texts = c.texts
    keys = sorted(k for k in texts.tables.get("en", {}) if k.startswith(RULES_PREFIXES))
    return RulesView(texts.t("rules.title"), texts.lang,
                     MappingProxyType({k: texts.t(k) for k in keys}))


def confirm_link_view(d: ConfirmLinkDialog, c: DialogContext) -> ConfirmLinkView:
    t = c.texts.t
    o = d.options
    beat = t("beat.show", score=d.beat) if d.beat is not None else None
    kinds = [d.seats[i] if i < len(d.seats) else Seat.here() for i in range(len(o.names))]
    shown = player_names(PageState(), o.names, c.texts, kinds)
    return ConfirmLinkView(t("link.title"),
                           t("link.describe", names=", ".join(shown), seed=o.seed), beat)


def share_view(d: ShareDialog, c: DialogContext) -> ShareView:
    t = c.texts.t
    status = None
    if d.copied is True:
        status = t("share.copied")
    elif d.copied is False:
        status = t("share.failed")
    return ShareView(t("share.title"), d.link, status, d.copied)


def export_view(d: ExportDialog, c: DialogContext) -> ExportView:
    t = c.texts.t
    return ExportView(t("export.title"), t("export.explain", key=d.key), d.key, d.text, d.url,
                      "skyline-" + d.key.rsplit(".", 1)[-1] + ".json")


# ---------------------------------------------------------------------------- bodies


def _options(options) -> str:
    return "".join(
        f'<option value="{esc(o.value)}"{" selected" if o.selected else ""}>{esc(o.label)}</option>'
        for o in options
    )


def new_game_form(labels: Labels, d: NewGameView) -> str:
    L = labels
    names = "".join(
        f'<label class="field"><span>{esc(f.label)}</span>'
        # a typed name or a changed seat is sent at once (on change): the start-player
        # menu below names the players as they are now
        f'<input name="name{f.index}" id="ng-name{f.index}" maxlength="24" autocomplete="off" dir="auto" '
        f'data-action="{Cmd.NEW_GAME_CHANGE}" value="{esc(f.value)}" required></label>'
        f'<label class="field seat"><span>{esc(f.seat_label)}</span>'
        f'<select name="seat{f.index}" id="ng-seat{f.index}" data-testid="seat-select" '
        f'data-action="{Cmd.NEW_GAME_CHANGE}">'
        f"{_options(f.seat_options)}</select></label>"
        for f in d.names
    )
    fields = [
        f'<label class="field"><span>{esc(L["newgame.count"])}</span>'
        f'<select name="count" id="{DIALOG_FIRST}" data-action="{Cmd.NEW_GAME_CHANGE}">{_options(d.count_options)}</select></label>',
        f'<fieldset class="names"><legend>{esc(L["newgame.names"])}</legend>{names}</fieldset>',
    ]
    if d.start_options is not None:
        fields.append(
            f'<label class="field"><span>{esc(L["newgame.start"])}</span>'
            f'<select name="start" id="ng-start">{_options(d.start_options)}</select></label>'
        )
    else:
        fields.append(
            f'<label class="field"><span>{esc(L["newgame.scenario"])}</span>'
            f'<select name="scenario" id="ng-scenario">{_options(d.scenario_options)}</select></label>'
        )
    fields.append(
        f'<label class="check"><input type="checkbox" name="nine" id="ng-nine"{" checked" if d.nine else ""}>'
        f'<span>{esc(L["newgame.nine"])}</span></label>'
    )
    # the help's box is sent on change: the form remembers it while the kind stays
    note = f'<small class="check-note">{esc(d.help_note)}</small>' if d.help_note else ""
    fields.append(
        f'<label class="check"><input type="hidden" name="help_box" value="{esc(d.help_kind)}">'
        f'<input type="checkbox" name="help" id="ng-help" '
        f'data-action="{Cmd.NEW_GAME_CHANGE}"{" checked" if d.help else ""}>'
        f'<span>{esc(L["newgame.help"])}{note}</span></label>'
    )
    if d.live is not None:
        fields.append(
            f'<label class="check"><input type="checkbox" name="live" id="ng-live" '
            f'data-action="{Cmd.NEW_GAME_CHANGE}"{" checked" if d.live else ""}>'
            f'<span>{esc(L["newgame.live"])}<small class="check-note">{esc(L["newgame.live_note"])}'
            '</small></span></label>'
        )
    fields.append(
        f'<label class="field"><span>{esc(L["newgame.seed"])}</span>'
        f'<input name="seed" id="ng-seed" maxlength="32" autocomplete="off" spellcheck="false" '
        f'placeholder="{esc(L["newgame.seed_placeholder"])}" value="{esc(d.seed)}"></label>'
    )
    error = f'<p class="form-error" role="alert" data-testid="form-error">{esc(d.error)}</p>' if d.error else ""
    if d.notice:
        error = f'<p class="form-error" role="alert" data-testid="dialog-notice">{esc(d.notice)}</p>' + error
    intro = f'<p class="intro">{esc(L["newgame.intro"])}</p>' if d.first else ""
    intro += (
        f'<p class="daily-offer"><button type="button" id="ng-daily" data-action="{Cmd.DAILY}">'
        f'{esc(L["daily.welcome"])}</button>'
        f'<button type="button" id="{NEW_GAME_LEARN}" data-action="{Cmd.TUTORIAL}">'
        f'{esc(L["btn.learn"])}</button></p>'
    )
    cancel = L["newgame.play_default"] if d.first else L["btn.cancel"]
    return (
        f'{intro}<form id="ng-form" class="newgame" data-submit="{Cmd.NEW_GAME_START}" novalidate>{"".join(fields)}{error}'
        f'<div class="dlg-actions"><button type="submit" class="primary" id="ng-start-btn">'
        f'{esc(L["newgame.start_btn"])}</button>'
        f'<button type="button" data-action="{Cmd.CLOSE}" id="ng-cancel">{esc(cancel)}</button>'
        "</div></form>"
    )


def confirm_link(labels: Labels, d) -> str:
    L = labels
    beat = f"<p>{esc(d.beat)}</p>" if d.beat is not None else ""
    return (
        f'<p>{esc(L["link.question"])}</p><p class="link-desc">{esc(d.describe)}</p>{beat}'
        f'<div class="dlg-actions"><button type="button" class="primary" id="{DIALOG_FIRST}" data-action="{Cmd.LINK_ACCEPT}">'
        f'{esc(L["link.accept"])}</button><button type="button" data-action="{Cmd.CLOSE}" id="link-keep">'
        f'{esc(L["link.keep"])}</button></div>'
    )


def share_box(labels: Labels, d) -> str:
    L = labels
    status = ""
    if d.status is not None:
        cls = "ok" if d.ok else "warn"
        status = f'<p class="{cls}" role="status" data-testid="share-status">{esc(d.status)}</p>'
    return (
        f'<p>{esc(L["share.explain"])}</p>'
        f'<label class="field"><span>{esc(L["share.link"])}</span>'
        f'<input id="{SHARE_LINK}" data-testid="share-link" readonly value="{esc(d.link)}"></label>{status}'
        f'<div class="dlg-actions"><button type="button" data-action="{Cmd.CLOSE}" id="{DIALOG_FIRST}">{esc(L["btn.close"])}'
        "</button></div>"
    )


def export_box(labels: Labels, d) -> str:
    """A save that could not be loaded, as text to copy and a file to download."""
    L = labels
    download = (
        f'<a class="button" id="export-download" data-testid="export-download" href="{esc(d.url)}" '
        f'download="{esc(d.filename)}">{esc(L["export.download"])}</a>'
        if d.url
        else ""
    )
    return (
        f"<p>{esc(d.explain)}</p>"
        f'<label class="field"><span>{esc(L["export.text"])}</span>'
        f'<textarea id="{EXPORT_TEXT}" data-testid="export-text" readonly rows="8" spellcheck="false">'
        f"{esc(d.text)}</textarea></label>"
        f'<div class="dlg-actions">{download}<button type="button" data-action="{Cmd.CLOSE}" id="{DIALOG_FIRST}">'
        f'{esc(L["btn.close"])}</button></div>'
    )
