"""The daily challenge (today's by the player's own calendar, or a day's link) and the
statistics page (the history and records of this device, and their export)."""

from __future__ import annotations

from app.core.commands import Cmd, Command, Guard, plain
from app.core.dom import DIALOG_CLOSE, DIALOG_FIRST, yard_id
from app.core.game_stats import export_json
from app.core.names import is_default_name
from app.core.page_state import HERE, Level, StatsDialog
from app.core.session import Session
from app.daily.state import ConfirmDailyDialog
from app.daily.ui import copy_text, daily_view
from skyline import DieType, daily_day, daily_options, parse_day


def own_name(s: Session) -> str:
    """The name the player plays the challenge under: the first name they typed for a
    seat of this device in the open game, else in their finished solo games, newest
    first (a finished game of several may have been a friend's seat); "Player 1" if they
    never typed one."""
    seen: list[tuple[str, int]] = []
    if s.board is not None:
        seen += [(name, seat) for seat, name in enumerate(s.board.options.names)
                 if s.page.seat_kind(seat).is_here]
    for result in reversed(s.history.results):
        if result.mode != "multi":
            seen += [(seat.name, 0) for seat in result.seats[:1]]
    for name, seat in seen:
        if not is_default_name(s.texts, name, seat, HERE):
            return name
    return s.t("newgame.default_name", n=1)


class DailyChallenge:
    """Starting and copying the daily challenge; the statistics page."""

    def __init__(self, session: Session) -> None:
        self.s = session

    def commands(self) -> dict[Cmd, Command]:
        starts = Guard.STARTS | Guard.WRITES
        return {
            Cmd.DAILY: plain(self.start_today, guards=starts),
            Cmd.DAILY_ACCEPT: plain(self.accept, guards=starts),
            Cmd.DAILY_COPY: plain(self.copy),
            Cmd.STATS: plain(self.open_stats, focus=DIALOG_CLOSE),
        }

    def today(self) -> str | None:
        """The player's local calendar day from the host, or None if it gives none."""
        try:
            return parse_day(str(self.s.host.local_date())).isoformat()
        except ValueError:
            return None

    def start_today(self) -> None:
        self.start(None)

    def accept(self) -> None:
        d = self.s.page.dialog
        if isinstance(d, ConfirmDailyDialog):
            self.start(d.day, confirmed=True)

    def start(self, day: str | None, confirmed: bool = False) -> None:
        """Start the daily challenge of ``day`` (default: today); a game in progress is
        replaced only after the player confirms."""
        s = self.s
        day = day or self.today()
        if day is None:
            s.notify("notice.daily_no_date", Level.ERROR)
            return
        board = s.board
        current = daily_day(board.options) if board is not None else None
        if (board is not None and current is not None and current.isoformat() == day
                and not board.is_game_over()):
            s.page.dialog = None
            s.notify("notice.daily_already", day=day)
            return
        if s.game_in_progress() and not confirmed:
            s.page.dialog = ConfirmDailyDialog(day)
            s.focus_id = DIALOG_FIRST
            return
        s.start(daily_options(day, own_name(s)))
        s.narrate_new_game()
        s.page.dialog = None
        s.focus_id = yard_id(DieType.GROUND.letter)
        s.notify("notice.daily_started", day=day)

    def copy(self) -> None:
        s = self.s
        board = s.board
        day = daily_day(board.options) if board is not None else None
        expert = s.records.daily_expert(day.isoformat()) if day is not None else None
        daily = (daily_view(s.page, board, s.t, s.host.page_base(), None, expert)
                 if board is not None else None)
        if daily is None or daily.line is None:
            return
        self.s.host.copy(copy_text(daily, s.t), self._copied)

    def _copied(self, ok: bool) -> None:
        self.s.page.daily_copied = ok
        self.s.render()

    def open_stats(self) -> None:
        """The statistics page: the history and records as they are now, and their export."""
        s = self.s
        results = tuple(s.history.results)
        records = {k: v for k, v in s.records.data.items() if k != "seen"}
        text = export_json(list(results), records, s.host.now_iso())
        day = self.today() or "export"
        s.page.dialog = StatsDialog(results, records, s.host.download_url(text),
                                    f"skyline-statistics-{day}.json")
