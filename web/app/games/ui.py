# ruff: noqa: E501 - HTML templates read better unwrapped
"""The game list, the replay and correspondence play on the page: view values and HTML.

Pure functions like ``screen.py`` and ``board_view.py`` (no browser, runs under CPython):

- ``games_view``: the game list dialog (in progress and finished, players, round, whose
  turn, last change; open, replay, rename, export, delete, import);
- ``replay_view``: the replay bar (step forward and back, jump to a round);
- ``corr_view``: whose turn it is in a game with friends elsewhere and to whom the link goes;
- ``send_view`` / ``claim_view``: the "Send your move" dialog (share, copy, QR code) and the
  question which seat(s) this device plays for a game that arrived by link;
- ``render_*``: their HTML (every dynamic text escaped);
- ``qr_svg``: the QR code of a link, drawn by segno (loaded on demand, see main.DomHost).

``screen.build_screen`` calls the view builders, ``board_view`` the renderers.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.commands import Cmd
from app.core.dom import DIALOG_FIRST
from app.core.html import esc
from app.core.i18n import Texts
from app.core.names import esc_names
from app.core.page_state import GamesDialog, PageState, ReplayState
from app.games.state import ClaimDialog, SendDialog
from skyline import COMPUTER_LEVELS, Board, Phase, Seat, apply_action, game_summary
from skyline.records.daily import daily_day
from skyline.records.game_list import GameEntry, default_name

# segno (pure Python, made for QR codes) draws the QR code. scripts/build.py fetches this
# pinned wheel with pip, checks this sha256 and copies it to dist/qr/; the page loads
# it only when a QR code is asked for (main.DomHost.load_qr).
QR_WHEEL_NAME = "segno-1.6.6-py3-none-any.whl"
QR_WHEEL_SHA256 = "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7"
# The QR code's error correction: "m" survives a smudged screen; a 2-player game's
# link (about 400 characters) gives a version 15-20 symbol.
QR_ERROR = "m"


# ---------------------------------------------------------------------------- views


@dataclass(frozen=True)
class GameRow:
    id: str
    name: str
    players: str
    progress: str  # the round, or "Finished"
    turn: str  # whose turn, or the winner(s)
    updated: str
    finished: bool
    current: bool
    note: str | None  # kept beside another copy of the game
    renaming: bool
    labels: tuple[tuple[str, str], ...]  # (action, accessible label) of the row's buttons
    names: tuple[str, ...] = ()  # the players' names, isolated where the lines show them


@dataclass(frozen=True)
class GamesView:
    kind = "games"
    title: str
    explain: str
    empty: str | None
    rows: tuple[GameRow, ...]
    words: tuple[tuple[str, str], ...]  # button texts by key
    deleted: tuple[str, str] | None = None  # (id, "X was deleted.") with its Undo
    kept: str | None = None  # whether the browser agreed to keep the games (None: not asked)

    def w(self, key: str) -> str:
        return dict(self.words)[key]


@dataclass(frozen=True)
class ReplayView:
    title: str
    name: str  # the game's name in the title (a player's text: isolated in <bdi>)
    position: str
    at_start: bool
    at_end: bool
    rounds: tuple[tuple[int, str, bool], ...]  # (step, label, selected)
    words: tuple[tuple[str, str], ...]

    def w(self, key: str) -> str:
        return dict(self.words)[key]


@dataclass(frozen=True)
class CorrView:
    text: str
    button: str | None  # "Send your move" / "Send the result"
    live: str | None = None  # "Play live" / "Invite" (the live table's invitation)
    status: bool = False  # a live table's state: announced when it changes


@dataclass(frozen=True)
class SendView:
    kind = "send"
    title: str
    explain: str
    link: str
    note: str  # what the link is and how to send it whole
    status: str | None
    ok: bool | None
    can_share: bool
    qr: str | None  # SVG markup (made by segno from our own link), or None
    qr_status: str | None
    words: tuple[tuple[str, str], ...]
    live: str | None = None  # "Play live instead" (a correspondence game's send dialog)

    def w(self, key: str) -> str:
        return dict(self.words)[key]


@dataclass(frozen=True)
class ClaimView:
    kind = "claim"
    title: str
    explain: str
    seats: tuple[tuple[int, str, bool], ...]  # (seat, label, checked) of the human seats
    error: str | None
    words: tuple[tuple[str, str], ...]

    def w(self, key: str) -> str:
        return dict(self.words)[key]


#: The game list's Undo (after a delete) and the name field of a game being renamed.
GAMES_UNDO = "games-undo"
GAME_NAME = "game-name"


def _words(t, *keys: str) -> tuple[tuple[str, str], ...]:
    return tuple((k, t(k)) for k in keys)


def local_time(stamp: str | None, tz_minutes: int, lang: str) -> str:
    """An ISO time (UTC) as the player's local date and time; "" if unreadable.
    ``tz_minutes``: JavaScript's getTimezoneOffset (UTC minus local, in minutes)."""
    if not stamp:
        return ""
    try:
        when = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return ""
    when = when - datetime.timedelta(minutes=tz_minutes)
    if lang == "de":
        return when.strftime("%d.%m.%Y, %H:%M")
    return when.strftime("%Y-%m-%d %H:%M")


def seat_word(t, code: str) -> str:
    """Who plays a seat of a game-list entry (its ``Seat.code``), in words."""
    seat = Seat.from_code(code)
    if seat.is_friend:
        return t("games.seat.friend")
    if seat.level is not None:
        return t("seat.bot." + seat.level)
    return t("games.seat.here")


def entry_title(t, entry: GameEntry) -> str:
    """The name the list shows: the one the player gave; else a solo game by what it is
    (the daily challenge of its day, a scenario, a solo game), a game of several by its
    players' names."""
    options = entry.options
    if entry.name != default_name(options) or len(options.names) > 1:
        return entry.name
    day = daily_day(options)
    if day is not None:
        return t("daily.title_day", day=day.isoformat())
    if options.scenario:
        return t("games.solo_scenario", scenario=t("scenario." + options.scenario))
    return t("games.solo")


def _solo_text(t, entry: GameEntry) -> str:
    """A solo game's standing: the score so far; at the end the score, the level
    reached and whether the scenario was met."""
    summary = game_summary(entry.board.state)
    score = summary.players[0].score
    if not entry.finished:
        return t("games.solo_so_far", score=score)
    level = (t("games.level", level=t("level." + summary.level)) if summary.level
             else t("games.no_level"))
    if summary.scenario is None:
        return t("games.solo_over", score=score, level=level)
    key = "games.solo_over_met" if summary.scenario_met else "games.solo_over_failed"
    return t(key, score=score, level=level, scenario=t("scenario." + summary.scenario))


def _turn_text(t, entry: GameEntry) -> str:
    board = entry.board
    if board.state.solo:
        return _solo_text(t, entry)
    if entry.finished:
        scores = board.scores()
        best = max(scores)
        names = [n for n, s in zip(board.options.names, scores, strict=True) if s == best]
        return t("games.won", names=", ".join(names), score=best)
    name = board.options.names[entry.seat]
    return t("games.to_move", name=name, who=seat_word(t, entry.seats[entry.seat]))


def open_refusal(entry_id: str | None, current: str | None) -> str | None:
    """Why a game of the list may not be opened: it is the one open (its badge says so)."""
    return "games.current" if entry_id is not None and entry_id == current else None


def games_view(page: PageState, dialog: GamesDialog, games: Sequence[GameEntry],
               current: str | None, texts: Texts) -> GamesView:
    t = texts.t
    rows = []
    for e in games:
        players = ", ".join(
            f"{name} ({seat_word(t, kind)})" for name, kind in zip(e.options.names, e.seats, strict=True)
        )
        progress = t("games.finished") if e.finished else t("games.round", round=e.round)
        title = entry_title(t, e)
        note = (t("games.diverged", name=title) if e.diverged_from
                else t("games.live") if e.live else None)
        labels = tuple((a, t(f"games.{a}_label", name=title))
                       for a in ("open", "replay", "rename", "export", "delete"))
        rows.append(GameRow(e.id, title, players, progress, _turn_text(t, e),
                            t("games.updated", when=local_time(e.updated, page.tz_minutes, texts.lang)),
                            e.finished, open_refusal(e.id, current) is not None, note,
                            dialog.renaming == e.id, labels, e.options.names))
    return GamesView(
        t("games.title"), t("games.explain"), None if rows else t("games.empty"), tuple(rows),
        _words(t, "games.open", "games.replay", "games.rename", "games.export", "games.delete",
               "games.current", "games.import", "games.new", "games.name", "games.save",
               "btn.cancel", "btn.close", "games.undo"),
        (dialog.deleted[0], t("games.deleted", name=dialog.deleted[1]))
        if dialog.deleted else None,
        None if page.storage_kept is None
        else t("games.kept" if page.storage_kept == "granted" else "games.not_kept"),
    )


@functools.lru_cache(maxsize=4)  # the replay asks on every step of the game it shows
def _recorded(record: str) -> Board:
    return Board.from_record(record)


@functools.lru_cache(maxsize=4)
def round_starts(record: str) -> tuple[tuple[int, int], ...]:
    """(round, first step of it) for every round of a recorded game."""
    board = _recorded(record)
    state = board.at(0).state
    starts = [(state.round, 0)]
    for i, action in enumerate(board.actions, 1):
        state = apply_action(state, action)
        if state.round != starts[-1][0] and state.phase is not Phase.OVER:
            starts.append((state.round, i))
    return tuple(starts)


def board_at(record: str, step: int) -> Board:
    """The game after its first ``step`` actions (a new Board: the game is untouched)."""
    return _recorded(record).at(step)


def replay_refusal(replay: ReplayState | None, name: Cmd) -> str | None:
    """Why a step of the replay bar may not be taken: no replay, or the replay is at the
    start (first, back) or at the end (next, last) already."""
    if replay is None:
        return "not-now"
    if name in (Cmd.REPLAY_FIRST, Cmd.REPLAY_BACK) and replay.step <= 0:
        return "replay.at_start"
    if name in (Cmd.REPLAY_NEXT, Cmd.REPLAY_LAST) and replay.step >= replay.total:
        return "replay.at_end"
    return None


def replay_view(replay: ReplayState, board: Board, texts: Texts) -> ReplayView:
    t = texts.t
    state = board.state
    starts = round_starts(replay.record)
    current_round = max((r for r, s in starts if s <= replay.step), default=1)
    where = t("status.over") if state.phase is Phase.OVER else t("status.round", round=state.round)
    rounds = tuple((s, t("replay.round_option", round=r), r == current_round) for r, s in starts)
    return ReplayView(
        t("replay.title", name=replay.name), replay.name,
        t("replay.position", step=replay.step, total=replay.total, where=where),
        replay_refusal(replay, Cmd.REPLAY_FIRST) is not None,
        replay_refusal(replay, Cmd.REPLAY_LAST) is not None, rounds,
        _words(t, "replay.first", "replay.back", "replay.next", "replay.last",
               "replay.jump", "replay.close", "replay.bar"),
    )


def corr_view(page: PageState, board: Board, texts: Texts) -> CorrView | None:
    """In a game with friends elsewhere: whose turn, and to whom the link goes."""
    t = texts.t
    friends = page.friend_seats
    if page.live is not None and page.replay is None:
        return live_view(page, board, texts)
    if not friends or page.replay is not None:
        return None
    state = board.state
    names = board.options.names
    if state.phase is Phase.OVER:
        return CorrView(t("corr.over", names=", ".join(names[i] for i in friends)),
                        t("corr.send_result"))
    kind = page.seat_kind(state.seat)
    if kind.is_friend:
        name = names[state.seat]
        return CorrView(t("corr.their_turn", name=name), t("corr.send"), t("live.play"))
    if kind.is_computer:
        return None
    return CorrView(t("corr.your_turn", name=names[state.seat]), None, t("live.play"))


def live_view(page: PageState, board: Board, texts: Texts) -> CorrView:
    """At a live table: its state (the network, who is away, whether this device has
    caught up), the invitation, and the link to send instead (it works at any moment)."""
    t, live = texts.t, page.live
    assert live is not None
    names = board.options.names
    away = ", ".join(names[i] for i in sorted(live.away))
    if live.network in ("offline", "closed", "unavailable"):
        text = t(f"live.status_{live.network}")
    elif away and not live.synced:
        text = t("live.status_waiting", names=away)
    elif away:
        text = t("live.status_away", names=away)
    elif not live.synced:
        text = t("live.status_catching_up")
    else:
        text = t("live.status_on")
    over = board.state.phase is Phase.OVER
    return CorrView(text, t("corr.send_result" if over else "live.send_link"),
                    None if over else t("live.invite"), status=True)


def send_view(dialog: SendDialog, board: Board, texts: Texts, can_share: bool,
              friends: tuple[int, ...] = ()) -> SendView:
    t = texts.t
    names = board.options.names
    if dialog.seat is not None:
        explain = t("corr.send_explain", name=names[dialog.seat])
    else:
        explain = t("corr.send_explain_over")
    status = None
    if dialog.shared is True:
        status = t("corr.shared")
    elif dialog.copied is True:
        status = t("share.copied")
    elif dialog.copied is False:
        status = t("share.failed")
    qr_status = None
    qr = None
    if dialog.qr == "loading":
        qr_status = t("corr.qr_loading")
    elif dialog.qr == "failed":
        qr_status = t("corr.qr_failed")
    elif dialog.qr:
        qr = dialog.qr
    words = _words(t, "corr.share", "corr.copy", "corr.qr", "share.link", "btn.close",
                   "corr.qr_label")
    if dialog.live:
        invited = ", ".join(names[i] for i in friends)
        return SendView(t("live.invite_title"), t("live.invite_explain", names=invited),
                        dialog.link, t("live.invite_note"), status,
                        dialog.copied or dialog.shared, can_share, qr, qr_status, words)
    return SendView(
        t("corr.send_title"), explain, dialog.link, t("corr.whole"),
        status, dialog.copied or dialog.shared, can_share, qr, qr_status, words,
        t("live.play_instead") if board.state.phase is not Phase.OVER else None,
    )


def claim_view(dialog: ClaimDialog, texts: Texts) -> ClaimView:
    t = texts.t
    seats = tuple(
        (i, dialog.names[i], i == dialog.suggested)
        for i, kind in enumerate(dialog.seats) if kind not in COMPUTER_LEVELS
    )
    return ClaimView(t("corr.claim_title"),
                     t("corr.claim_explain", names=", ".join(dialog.names)), seats, dialog.error,
                     _words(t, "corr.claim_legend", "corr.claim_accept", "btn.cancel"))


# ---------------------------------------------------------------------------- QR code


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as inline SVG (segno; black on white, any theme)."""
    import segno

    code = segno.make(text, error=QR_ERROR, micro=False)
    return code.svg_inline(scale=4, dark="#000", light="#fff", svgclass="qr", lineclass=None,
                           omitsize=True)


# ---------------------------------------------------------------------------- HTML


def render_games(v: GamesView) -> str:
    rows = []
    for r in v.rows:
        lab = dict(r.labels)
        cls = "game-row" + (" current" if r.current else "") + (" finished" if r.finished else "")
        if r.renaming:
            name = (
                f'<form class="rename" data-submit="{Cmd.GAME_RENAME_SAVE}" data-testid="rename-form">'
                f'<input type="hidden" name="id" value="{esc(r.id)}">'
                f'<label class="field"><span>{esc(v.w("games.name"))}</span>'
                f'<input name="name" id="{GAME_NAME}" maxlength="60" autocomplete="off" dir="auto" value="{esc(r.name)}"></label>'
                f'<button type="submit" class="primary" id="game-rename-save">{esc(v.w("games.save"))}</button>'
                f'<button type="button" data-action="{Cmd.GAME_RENAME_CANCEL}">{esc(v.w("btn.cancel"))}</button></form>'
            )
        else:
            name = f'<h3 class="game-name"><bdi>{esc(r.name)}</bdi></h3>'
        badge = f'<span class="badge">{esc(v.w("games.current"))}</span>' if r.current else ""
        note = (f'<p class="game-note" data-testid="game-note">{esc_names(r.note, (r.name,))}</p>'
                if r.note else "")
        buttons = "".join(
            f'<button type="button" data-action="{cmd}" data-arg="{esc(r.id)}" id="game-{a}-{esc(r.id)}" '
            f'aria-label="{esc(lab[a])}"{" disabled" if a == "open" and r.current else ""}>{esc(v.w("games." + a))}</button>'
            for a, cmd in (("open", Cmd.GAME_OPEN), ("replay", Cmd.GAME_REPLAY),
                           ("rename", Cmd.GAME_RENAME), ("export", Cmd.GAME_EXPORT),
                           ("delete", Cmd.GAME_DELETE))
        )
        rows.append(
            f'<li class="{cls}" data-testid="game-row" data-id="{esc(r.id)}">{name}{badge}'
            f'<p class="game-players">{esc_names(r.players, r.names)}</p>'
            f'<p class="game-state"><span data-testid="game-progress">{esc(r.progress)}</span> · '
            f'<span data-testid="game-turn">{esc_names(r.turn, r.names)}</span></p>'
            f'<p class="game-time">{esc(r.updated)}</p>{note}'
            f'<div class="game-acts">{buttons}</div></li>'
        )
    body = f'<ul class="game-list" data-testid="game-list">{"".join(rows)}</ul>' if rows else (
        f'<p data-testid="games-empty">{esc(v.empty)}</p>')
    undo = ""
    if v.deleted is not None:
        undo = (
            f'<p class="undo-line" role="status" data-testid="games-deleted">{esc(v.deleted[1])} '
            f'<button type="button" id="{GAMES_UNDO}" data-action="{Cmd.GAME_UNDELETE}" data-arg="{esc(v.deleted[0])}">'
            f'{esc(v.w("games.undo"))}</button></p>'
        )
    kept = f'<p class="small" data-testid="games-kept">{esc(v.kept)}</p>' if v.kept else ""
    return (
        f'<p>{esc(v.explain)}</p>{undo}{body}{kept}'
        '<div class="dlg-actions">'
        f'<button type="button" class="primary" data-action="{Cmd.NEW_GAME}" id="{DIALOG_FIRST}">{esc(v.w("games.new"))}</button>'
        f'<label class="button file-button" for="game-import">{esc(v.w("games.import"))}</label>'
        f'<input type="file" id="game-import" class="vh" accept=".json,application/json" data-action="{Cmd.GAME_IMPORT}">'
        f'<button type="button" data-action="{Cmd.CLOSE}" id="games-close">{esc(v.w("btn.close"))}</button></div>'
    )


def render_replay(v: ReplayView) -> str:
    def button(command: Cmd, key: str, disabled: bool) -> str:
        # its id is its command's name (focused as the player steps)
        return (f'<button type="button" id="{command}" data-action="{command}"'
                f'{" disabled" if disabled else ""}>{esc(v.w(key))}</button>')

    options = "".join(
        f'<option value="{step}"{" selected" if sel else ""}>{esc(label)}</option>'
        for step, label, sel in v.rounds
    )
    return (
        f'<section class="replay-bar" data-testid="replay" aria-label="{esc(v.w("replay.bar"))}">'
        f'<h2 class="panel-title">{esc_names(v.title, (v.name,))}</h2>'
        f'<p class="replay-pos" data-testid="replay-position" aria-live="polite">{esc(v.position)}</p>'
        '<div class="actions">'
        + button(Cmd.REPLAY_FIRST, "replay.first", v.at_start)
        + button(Cmd.REPLAY_BACK, "replay.back", v.at_start)
        + button(Cmd.REPLAY_NEXT, "replay.next", v.at_end)
        + button(Cmd.REPLAY_LAST, "replay.last", v.at_end)
        + '</div>'
        f'<label class="field"><span>{esc(v.w("replay.jump"))}</span>'
        f'<select id="{Cmd.REPLAY_ROUND}" data-action="{Cmd.REPLAY_ROUND}">{options}</select></label>'
        f'<button type="button" class="primary" id="{Cmd.REPLAY_CLOSE}" data-action="{Cmd.REPLAY_CLOSE}">{esc(v.w("replay.close"))}</button>'
        '</section>'
    )


def render_corr(v: CorrView, names: Sequence[str] = ()) -> str:
    # the link is the way a correspondence game goes on; at a live table, the fallback
    primary = "" if v.status else ' class="primary"'
    button = (
        f'<button type="button"{primary} id="corr-send" data-action="{Cmd.CORR_SEND}">{esc(v.button)}</button>'
        if v.button else ""
    )
    if v.live:
        button = (f'<button type="button" id="{Cmd.LIVE_INVITE}" data-action="{Cmd.LIVE_INVITE}">'
                  f'{esc(v.live)}</button>') + button
    role = ' role="status"' if v.status else ""
    return (f'<div class="corr" data-testid="corr"><p data-testid="corr-text"{role}>'
            f'{esc_names(v.text, names)}</p>{button}</div>')


def render_send(v: SendView) -> str:
    status = ""
    if v.status is not None:
        cls = "ok" if v.ok else "warn"
        status = f'<p class="{cls}" role="status" data-testid="send-status">{esc(v.status)}</p>'
    copy_cls = "" if v.can_share else ' class="primary"'
    share = (f'<button type="button" class="primary" id="{Cmd.CORR_SHARE}" data-action="{Cmd.CORR_SHARE}">{esc(v.w("corr.share"))}</button>'
             if v.can_share else "")
    qr = ""
    if v.qr is not None:
        qr = f'<figure class="qr-box" data-testid="qr" role="img" aria-label="{esc(v.w("corr.qr_label"))}">{v.qr}</figure>'
    elif v.qr_status is not None:
        qr = f'<p role="status" data-testid="qr-status">{esc(v.qr_status)}</p>'
    return (
        f'<p data-testid="send-explain">{esc(v.explain)}</p>'
        f'<label class="field"><span>{esc(v.w("share.link"))}</span>'
        f'<input id="send-link" data-testid="send-link" readonly value="{esc(v.link)}"></label>'
        f'<p class="small">{esc(v.note)}</p>{status}'
        '<div class="dlg-actions">'
        f'{share}<button type="button" id="{Cmd.CORR_COPY}" data-action="{Cmd.CORR_COPY}"{copy_cls}>{esc(v.w("corr.copy"))}</button>'
        f'<button type="button" id="corr-qr" data-action="{Cmd.CORR_QR}"{" disabled" if v.qr else ""}>{esc(v.w("corr.qr"))}</button>'
        f'<button type="button" data-action="{Cmd.CLOSE}" id="{DIALOG_FIRST}">{esc(v.w("btn.close"))}</button></div>{qr}'
        + (f'<p class="live-offer"><button type="button" id="send-live" data-action="{Cmd.LIVE_INVITE}">'
           f'{esc(v.live)}</button></p>' if v.live else "")
    )


def render_claim(v: ClaimView) -> str:
    boxes = "".join(
        f'<label class="check"><input type="checkbox" name="seat{i}" id="claim-seat{i}"{" checked" if checked else ""}>'
        f'<span><bdi>{esc(label)}</bdi></span></label>'
        for i, label, checked in v.seats
    )
    error = f'<p class="form-error" role="alert" data-testid="form-error">{esc(v.error)}</p>' if v.error else ""
    return (
        f'<p>{esc_names(v.explain, [label for _, label, _ in v.seats])}</p>'
        f'<form class="claim" data-submit="{Cmd.CORR_CLAIM}" data-testid="claim-form">'
        f'<fieldset><legend>{esc(v.w("corr.claim_legend"))}</legend>{boxes}</fieldset>{error}'
        '<div class="dlg-actions">'
        f'<button type="submit" class="primary" id="{DIALOG_FIRST}">{esc(v.w("corr.claim_accept"))}</button>'
        f'<button type="button" data-action="{Cmd.CLOSE}" id="claim-cancel">{esc(v.w("btn.cancel"))}</button></div></form>'
    )
