"""Two tabs on one game: one tab at a time may move.

main.DomHost asks the browser for a lock (Web Locks, released when a tab closes):
granted at start, this tab plays; held elsewhere, it shows the stored game read-only
and follows the other tab's saves (storage events). "Play here" takes the lock over,
and the other tab becomes read-only. ``Session.save`` also refuses to overwrite a save
it has not seen (no lock support, or a race), so no tab silently overwrites another
one's moves.
"""

from __future__ import annotations

from app.core.commands import Cmd, Command, plain
from app.core.events import Emit, TabLock, TookControl
from app.core.page_state import Level
from app.core.session import Session
from app.core.store import KEY_GAME, KEY_SAVE, entry_key


class Tabs:
    """The game lock's answers and the storage events of other tabs."""

    def __init__(self, session: Session, emit: Emit) -> None:
        self.s = session
        self.emit = emit

    def commands(self) -> dict[Cmd, Command]:
        return {Cmd.TAKE_CONTROL: plain(self.take_control)}

    def other_tab_notice(self) -> None:
        self.s.notify("notice.other_tab", Level.WARN, sticky=True,
                      button=(Cmd.TAKE_CONTROL, "", "btn.play_here"))

    def take_control(self) -> None:
        """Take the game over from another tab ("Play here")."""
        self.s.lock.take(self._lock_result)

    def _lock_result(self, result: str) -> None:
        self.emit(TabLock(result))

    def event(self, event: str, key: str | None = None) -> None:
        """``busy`` / ``lost`` (another tab has the game), ``granted`` (this tab
        has it), ``saved`` (another tab wrote ``key``: a game of the list)."""
        s = self.s
        page = s.page
        if event in ("busy", "lost"):
            if not s.store.readable():
                return
            page.readonly = True
            page.choice = None
            self.other_tab_notice()
        elif event == "granted":
            was_readonly = page.readonly
            page.readonly = False
            s.drop_notices("notice.other_tab", "notice.save_conflict")
            if was_readonly:
                s.reload_saved()
                s.notify("notice.playing_here")
            self.emit(TookControl())
        elif event == "saved":
            if key is not None and key.startswith(KEY_GAME) and key != KEY_GAME.rstrip("."):
                entry_id = key[len(KEY_GAME):]
                if page.readonly or not s.is_open(entry_id):
                    s.library.reread(entry_id)  # the list shows the other tab's state
            if page.readonly and (key is None or s.entry is None
                                  or key in (KEY_SAVE, entry_key(s.entry.id))):
                s.reload_saved()
