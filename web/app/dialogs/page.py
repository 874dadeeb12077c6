"""The page's own commands: the top bar's menu and language, the rules, closing a
dialog or a notice, and the way back after a crash or a save that could not be read."""

from __future__ import annotations

from app.core.commands import Cmd, Command, number_arg, plain, text_arg
from app.core.cues import Cue, CueKind
from app.core.dom import DIALOG_FIRST
from app.core.i18n import LANGS
from app.core.page_state import ExportDialog, RulesDialog
from app.core.session import Session
from app.dialogs.ui import EXPORT_TEXT


class PageCommands:
    """The commands of the page around the game."""

    def __init__(self, session: Session) -> None:
        self.s = session

    def commands(self) -> dict[Cmd, Command]:
        return {
            Cmd.RULES: plain(self.open_rules, focus=DIALOG_FIRST),
            Cmd.RULES_GOTO: text_arg(self.rules_goto),
            Cmd.MENU: plain(self.toggle_menu),
            Cmd.LANG: text_arg(self.set_lang),
            Cmd.SOUND: plain(self.toggle_sound),
            Cmd.CLOSE: plain(self.close_dialog),
            Cmd.DISMISS: number_arg(self.s.dismiss),
            Cmd.RELOAD_SAVED: plain(self.reload_after_crash),
            Cmd.EXPORT_SAVE: text_arg(self.export_save, focus=EXPORT_TEXT),
        }

    def toggle_menu(self) -> None:
        self.s.page.menu_open = not self.s.page.menu_open

    def open_rules(self) -> None:
        self.s.page.dialog = RulesDialog()

    def rules_goto(self, section: str | None) -> bool | None:
        if not section:
            return False
        self.s.host.scroll_to("rules-" + section)
        return None

    def set_lang(self, lang: str | None) -> None:
        texts = self.s.texts
        texts.lang = lang if lang in LANGS else "en"
        self.s.host.set_lang(texts.lang)
        self.s.store.save_lang(texts.lang)

    def toggle_sound(self) -> None:
        """The page's sounds on or off, remembered; switched on, a short chime says so
        (the click is the gesture that lets the page play sound)."""
        page = self.s.page
        page.sound = not page.sound
        self.s.store.save_sound(page.sound)
        if page.sound:
            page.cues.append(Cue(CueKind.SOUND_ON))

    def close_dialog(self) -> None:
        """The host gives the focus back to the dialog's opener."""
        self.s.page.dialog = None
        self.s.focus_id = None

    def reload_after_crash(self) -> None:
        s = self.s
        s.drop_notices("notice.crash")
        s.reload_saved()
        s.notify("notice.reloaded")

    def export_save(self, key: str | None) -> bool | None:
        """The raw text of a save kept aside, read-only, with a download."""
        if not key:
            return False
        s = self.s
        text = s.store.broken_text(key)
        s.page.dialog = ExportDialog(key, text, s.host.download_url(text))
        return None
