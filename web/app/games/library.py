"""The game list (open, rename, delete and undo, export, import) and the replay of a
game of the list. The list in storage is ``store.Library``; its entries are
``skyline.records.game_list`` values.
"""

from __future__ import annotations

from app.core.commands import (
    IMPORT_LIMIT_BYTES,
    Cmd,
    Command,
    Form,
    Guard,
    form_arg,
    plain,
    text_arg,
)
from app.core.dom import DIALOG_FIRST, GAMES_BUTTON
from app.core.page_state import GamesDialog, Level, ReplayState, seats_of_entry
from app.core.session import Session
from app.core.store import SaveWrite, entry_key
from app.games.ui import GAME_NAME, GAMES_UNDO, entry_title, open_refusal, replay_refusal
from skyline import (
    GameEntry,
    GameLink,
    SaveError,
    entry_to_json,
    link_seats,
    make_entry,
    read_entry,
)


class GameLibrary:
    """The game-list dialog's commands and the replay bar's."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.deleted: list[GameEntry] = []  # deleted games, for undo

    def commands(self) -> dict[Cmd, Command]:
        writes = Guard.WRITES
        return {
            Cmd.GAMES: plain(self.open, focus=DIALOG_FIRST),
            Cmd.GAME_OPEN: text_arg(self.open_game, writes, GAMES_BUTTON,
                                    rule=lambda page, board, entry_id: open_refusal(
                                        entry_id, self.s.entry.id if self.s.entry else None)),
            Cmd.GAME_REPLAY: text_arg(self.replay, focus=Cmd.REPLAY_NEXT),
            Cmd.GAME_RENAME: text_arg(self.rename_start, focus=GAME_NAME),
            Cmd.GAME_RENAME_CANCEL: plain(self.rename_cancel),
            Cmd.GAME_RENAME_SAVE: form_arg(self.rename, writes),
            Cmd.GAME_DELETE: text_arg(self.delete, writes),
            Cmd.GAME_UNDELETE: text_arg(self.undelete, writes),
            Cmd.GAME_EXPORT: text_arg(self.export),
            Cmd.GAME_IMPORT_TEXT: form_arg(self.import_text, writes),
            Cmd.RULES_EXPORT: plain(self.export_open),
            Cmd.REPLAY_FIRST: self._replay_command(Cmd.REPLAY_FIRST),
            Cmd.REPLAY_BACK: self._replay_command(Cmd.REPLAY_BACK),
            Cmd.REPLAY_NEXT: self._replay_command(Cmd.REPLAY_NEXT),
            Cmd.REPLAY_LAST: self._replay_command(Cmd.REPLAY_LAST),
            Cmd.REPLAY_ROUND: self._replay_command(Cmd.REPLAY_ROUND),
            Cmd.REPLAY_CLOSE: plain(self.replay_close, focus=GAMES_BUTTON),
        }

    def _replay_command(self, name: Cmd) -> Command[Form]:
        """A step of the replay bar (its round select sends the round in the form)."""
        return form_arg(lambda form: self.replay_step(name, form),
                        rule=lambda page, board, arg: replay_refusal(page.replay, name))

    def _title(self, entry: GameEntry) -> str:
        """The game's name as the list shows it (a solo game by what it is)."""
        return entry_title(self.s.t, entry)

    def _entry(self, entry_id: str | None) -> GameEntry | None:
        return self.s.library.games.get(entry_id) if entry_id is not None else None

    def open(self) -> None:
        self.s.page.dialog = GamesDialog()

    def open_game(self, entry_id: str | None) -> bool | None:
        entry = self._entry(entry_id)
        if entry is None:
            return False
        self.s.switch_to(entry)
        self.s.page.dialog = None
        return None

    def export(self, entry_id: str | None) -> None:
        s = self.s
        entry = self._entry(entry_id)
        if entry is None:
            return
        if s.is_open(entry.id) and not s.page.readonly:
            entry = s.entry_now()
        raw = s.store.get(entry_key(entry.id)) or entry_to_json(entry)
        s.host.download(f"skyline-{entry.id}.json", raw)

    def export_open(self) -> None:
        if self.s.entry is not None:
            self.export(self.s.entry.id)

    # ------------------------------------------------------------------ rename

    def rename_start(self, entry_id: str | None) -> bool | None:
        if not isinstance(self.s.page.dialog, GamesDialog):
            return False
        self.s.page.dialog.renaming = entry_id
        return None

    def rename_cancel(self) -> None:
        if isinstance(self.s.page.dialog, GamesDialog):
            self.s.page.dialog.renaming = None

    def rename(self, form: dict) -> None:
        s = self.s
        entry_id, name = str(form.get("id", "")), str(form.get("name", ""))
        entry = s.library.games.get(entry_id)
        if entry is None:
            return
        current = s.is_open(entry_id)
        if current:
            entry = s.entry_now()
        renamed = make_entry(entry.board, entry.seats, nonce=entry.nonce, name=name.strip(),
                             created=entry.created, updated=entry.updated,
                             diverged_from=entry.diverged_from, entry_id=entry.id,
                             beat=entry.beat, takes=entry.takes, live=entry.live)
        if s.library.write(renamed, current=current) is SaveWrite.CONFLICT:
            s.notify_conflict()
        elif current:
            s.entry = renamed
        if isinstance(s.page.dialog, GamesDialog):
            s.page.dialog.renaming = None
        s.focus_id = f"game-rename-{entry_id}"

    # ------------------------------------------------------------------ delete, undo

    def delete(self, entry_id: str | None) -> None:
        s = self.s
        found = self._entry(entry_id)
        if found is None:
            return
        entry_id = found.id
        current = s.is_open(entry_id)
        if current:
            s.save()
        entry = s.library.delete(entry_id)
        if entry is None:
            return
        if current:
            entry = s.entry_now() if s.board is not None else entry
        self.deleted = [e for e in self.deleted if e.id != entry_id][-9:] + [entry]
        s.notify("games.deleted", sticky=True, button=(Cmd.GAME_UNDELETE, entry_id,
                                                       "games.undo"), name=self._title(entry))
        if isinstance(s.page.dialog, GamesDialog):
            s.page.dialog.deleted = (entry_id, self._title(entry))
        if current:
            s.entry = None
            if not s.load_saved_game():
                s.board = None
                s.start(s.default_options())
        s.focus_id = GAMES_UNDO

    def undelete(self, entry_id: str | None) -> None:
        s = self.s
        entry = next((e for e in self.deleted if e.id == entry_id), None)
        if entry is None:
            return
        self.deleted.remove(entry)
        s.drop_notices("games.deleted")
        if isinstance(s.page.dialog, GamesDialog):
            s.page.dialog.deleted = None
        if s.library.restore(entry) is SaveWrite.CONFLICT:
            s.notify_conflict()
        else:
            s.notify("games.restored", name=self._title(entry))

    # ------------------------------------------------------------------ import

    def import_text(self, form: dict) -> None:
        """A game file (as exported): added, or updating its game only if it continues
        it; an older copy is refused, another continuation is kept beside it."""
        s = self.s
        if form.get("bytes"):  # too large to be read (web/js/files.js): refused by its size
            s.notify("games.import_too_large", Level.ERROR,
                     limit=f"{IMPORT_LIMIT_BYTES // 1_000_000} MB")
            return
        try:
            entry = read_entry(form.get("text"))
        except SaveError as exc:
            s.notify("games.import_failed", Level.ERROR, reason=s.error(exc))
            return
        games = s.library.games
        for copy in games.copies(entry.game):
            s.library.reread(copy.id)
        link = GameLink(entry.board, link_seats(entry.seats), entry.nonce, entry.game)
        reception = games.receive(link, s.host.now_iso())
        if reception.kind == "new":
            new = s.library.side_entry(entry) if entry.id in games else entry
            result, key = s.library.write(new, current=False), "games.imported"
        elif reception.kind == "same":
            s.notify("games.import_same", name=self._title(entry))
            return
        elif reception.kind == "stale":
            s.notify("games.import_stale", Level.ERROR, name=self._title(entry))
            return
        else:
            assert reception.entry is not None  # an update or a divergence carries one
            new = reception.entry
            key = "games.import_updated" if reception.kind == "update" else "games.import_diverged"
            result = s.library.write(new, current=False)
            if (reception.kind == "update" and s.is_open(new.id)
                    and result is not SaveWrite.CONFLICT):
                s.open_entry(new)
        if result is SaveWrite.CONFLICT:
            s.notify_conflict()
        else:
            s.notify(key, name=self._title(new))

    # ------------------------------------------------------------------ replay

    def replay(self, entry_id: str | None) -> bool | None:
        s = self.s
        entry = self._entry(entry_id)
        if entry is None:
            return False
        shown = s.entry_now() if s.is_open(entry.id) else entry  # the game as it is now
        s.page.replay = ReplayState(
            entry.id, self._title(shown), shown.board.record(), len(shown.board.actions), 0,
            seats_of_entry(shown.seats))
        s.page.dialog = None
        s.page.choice = None
        return None

    def replay_open_game(self, step: int) -> None:
        """The open game replayed from ``step`` actions in (a point of the chances chart)."""
        s = self.s
        if s.board is None or s.tutorial is not None:
            return
        shown = s.entry_now()
        total = len(shown.board.actions)
        s.page.replay = ReplayState(
            shown.id, self._title(shown), shown.board.record(), total,
            max(0, min(total, step)), seats_of_entry(shown.seats))
        s.page.dialog = None
        s.page.choice = None
        s.focus_id = Cmd.REPLAY_BACK if step >= total else Cmd.REPLAY_NEXT

    def replay_close(self) -> bool | None:
        if self.s.page.replay is None:
            return False
        self.s.page.replay = None
        return None

    def replay_step(self, command: str, form: dict) -> None:
        r = self.s.page.replay
        if r is None:
            return
        step = {Cmd.REPLAY_FIRST: 0, Cmd.REPLAY_BACK: r.step - 1, Cmd.REPLAY_NEXT: r.step + 1,
                Cmd.REPLAY_LAST: r.total}.get(Cmd(command))
        if command == Cmd.REPLAY_ROUND:
            value = str(form.get("value", ""))
            step = int(value) if value.isdigit() else None
        if step is not None:
            r.step = max(0, min(r.total, step))
            self.s.focus_id = self.s.focus_id or Cmd.REPLAY_NEXT
