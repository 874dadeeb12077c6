"""What the page tells the player: notices (one per cause, at most four), the
translated reason of an engine error, and the stores that could not be read in full
(kept aside, the player told). :class:`Notices` is a part of ``Session``.
"""

from __future__ import annotations

from app.core.commands import Cmd
from app.core.host_port import Host
from app.core.i18n import LANGS, Text, Texts, pick_language, translate
from app.core.names import game_record_error, names_error, record_names_error
from app.core.page_state import HELP_DEFAULTS, PACES, Level, Notice, NoticeButton, PageState
from app.core.refusal import Refusal
from app.core.store import History, Library, Records, Store
from skyline import LinkError, OptionsError, RecordError, SaveError

#: Notices of one cause under different keys: a new one replaces the one before (a link
#: refused says why, whichever kind of link it was); any other notice is its own cause.
NOTICE_CAUSES = dict.fromkeys(("notice.bad_link", "notice.bad_link_new", "corr.bad_link",
                               "notice.bad_daily", "corr.stale"), "link_refused")
# a live table: who came or went, and the network, each said once (the latest)
NOTICE_CAUSES |= dict.fromkeys(("live.joined", "live.left"), "live_presence")
NOTICE_CAUSES |= dict.fromkeys(("live.offline", "live.no_relay", "live.unavailable"),
                               "live_network")


class Notices:
    """The session's notices and its reading of the stores (a part of ``Session``)."""

    host: Host
    page: PageState
    texts: Texts
    library: Library
    store: Store
    records: Records
    history: History

    def t(self, key: str, /, **params: object) -> str:
        return self.texts.t(key, **params)

    def notify(
        self, message: str, level: str | Level = Level.INFO, sticky: bool = False,
        button: tuple[str, str, str] | None = None, **params: object,
    ) -> None:
        """Show a notice; ``button`` is (action, arg, label key) of a button inside it."""
        note = Notice(message, tuple(params.items()), Level(level), sticky,
                      NoticeButton(*button) if button else None)
        cause = NOTICE_CAUSES.get(message, message)
        notices = [n for n in self.page.notices if NOTICE_CAUSES.get(n.key, n.key) != cause]
        self.page.notices = (notices + [note])[-4:]

    def drop_notices(self, *keys: str) -> None:
        self.page.notices = [n for n in self.page.notices if n.key not in keys]

    def notify_conflict(self) -> None:
        self.notify("notice.save_conflict", Level.WARN, sticky=True)

    def notify_crash(self) -> None:
        self.notify("notice.crash", Level.ERROR, sticky=True,
                    button=(Cmd.RELOAD_SAVED, "", "btn.reload_saved"))

    def error(self, exc: Exception) -> Text:
        """An engine error (IllegalActionError, RecordError, LinkError, SaveError,
        OptionsError) as the text that explains it, with its params."""
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", {}) or {})
        # a refused name says why, wherever it came from (names.py)
        if code == "names" and isinstance(exc, OptionsError | LinkError):
            return names_error(params)
        if code == "game_record" and isinstance(exc, LinkError):
            return game_record_error(params)
        if code == "record_options" and isinstance(exc, SaveError | RecordError):
            refused = record_names_error(params)
            if refused is not None:
                return refused
        if isinstance(exc, LinkError) and code == "link":
            # a link that is no link of the page's says which way it is not
            reason = str(params.get("reason"))
            if reason == "malformed":
                return Text("error.option.malformed")
            if self.texts.has("error.option.link_" + reason):
                return Text("error.option.link_" + reason, tuple(params.items()))
        if isinstance(exc, LinkError | SaveError):
            prefix = "error.option." if isinstance(exc, LinkError) else "error.record."
            if code != "internal" and self.texts.has(prefix + str(code)):
                return Text(prefix + str(code), tuple(params.items()))
            return Text("error.unknown")
        prefix = "error.record." if isinstance(exc, RecordError) else "error.action."
        if code and self.texts.has(prefix + code):
            if "phase" in params:
                params["phase"] = Text("phase." + str(params["phase"]))
            if "face" in params:
                params["face"] = Text("kind." + str(params["face"]))
            return Text(prefix + code, tuple(params.items()))
        if isinstance(exc, OptionsError) and self.texts.has("error.option." + exc.field):
            return Text("error.option." + exc.field)
        return Text("error.unknown")

    def error_text(self, exc: Exception) -> str:
        """The error's explanation in the player's language now (for a dialog's line)."""
        return str(translate(self.t, self.error(exc)))


    def dismiss(self, index: int) -> None:
        """Close a notice (its × button; Escape closes the newest)."""
        if 0 <= index < len(self.page.notices):
            self.page.notices.pop(index)

    # ------------------------------------------------------------------ the stores

    def load_stores(self, browser_langs: tuple[str, ...]) -> None:
        """Read the settings, the solo records, the game list and the history at start
        (each one that cannot be read in full is kept aside and the player told)."""
        self.check_settings()  # unreadable settings: kept aside, the player told
        lang = self.store.load_lang()
        if lang not in LANGS:
            lang = pick_language(list(browser_langs))
        self.texts.lang = lang
        pace = self.store.load_pace()
        if pace in PACES:
            self.page.pace = pace
        self.page.sound = self.store.load_sound()
        for kind in HELP_DEFAULTS:  # the computer's help, on or off by game kind
            on = self.store.load_help(kind)
            if on is not None:
                self.page.help_on[kind] = on
        self.store.probe()  # tell at once if nothing can be saved
        self.load_records()
        self.page.tz_minutes = int(self.host.tz_minutes())
        self.library.load(self.host.now_iso())
        for copy, exc, kept in self.library.broken:
            key = "games.entry_broken" if kept else "notice.save_broken_lost"
            self.notify(key, Level.WARN, sticky=True, button=(Cmd.EXPORT_SAVE, copy,
                        "btn.export_save"), reason=self.error(exc), key=copy)
        self.load_history()

    def _storage_failed(self, why: Refusal) -> None:
        """Nothing is saved any more: said by its cause (a full store can be helped)."""
        key = "notice.storage_full" if why is Refusal.FULL else "notice.not_saved"
        self.notify(key, Level.WARN, sticky=True)

    def _storage_recovered(self) -> None:
        """A game was saved again: the notice that nothing is saved is no longer true."""
        self.drop_notices("notice.not_saved", "notice.storage_full")

    def keep_aside(self, raw: str, reason: Text) -> None:
        key, kept = self.store.keep_aside(raw)
        button = (Cmd.EXPORT_SAVE, key, "btn.export_save")
        if kept:
            self.notify("notice.save_broken", Level.WARN, sticky=True, button=button,
                        reason=reason, key=key)
        else:
            self.notify("notice.save_broken_lost", Level.WARN, sticky=True, button=button,
                        reason=reason)

    def load_records(self) -> None:
        """The solo records; ones that cannot be read in full are kept aside, ones of a
        newer version also left as they are (store.Records)."""
        records = self.records
        records.load(self.store)
        problem = records.problem
        if problem is None:
            return
        reason = Text("error.records." + problem.code, tuple(problem.params.items()))
        if not records.kept:
            self.notify("notice.records_broken_lost", Level.WARN, sticky=True, reason=reason)
        elif records.held:
            self.notify("notice.records_newer", Level.WARN, sticky=True, reason=reason,
                        key=records.broken_key)
        else:
            self.notify("notice.records_broken", Level.WARN, sticky=True, reason=reason,
                        key=records.broken_key)

    def check_settings(self) -> None:
        """Settings that cannot be read are kept aside and the player is told, as for the
        other stores; the defaults apply (the browser's language, the normal pace)."""
        problem = self.store.settings_problem()
        if problem is None:
            return
        code, params = problem
        reason = Text("error.settings." + code, tuple(params.items()))
        key, kept = self.store.keep_settings_aside()
        if kept:
            self.notify("notice.settings_broken", Level.WARN, sticky=True, reason=reason,
                        key=key)
        else:
            self.notify("notice.settings_broken_lost", Level.WARN, sticky=True, reason=reason)

    def load_history(self) -> None:
        """The game history; one that cannot be read in full is kept aside (store.History)."""
        history = self.history
        history.load(self.store)
        problem = history.problem
        if problem is None:
            return
        reason = Text("error.history." + problem.code, tuple(problem.params.items()))
        if history.held:
            self.notify("notice.history_broken_lost", Level.WARN, sticky=True, reason=reason)
        else:
            self.notify("notice.history_broken", Level.WARN, sticky=True, reason=reason,
                        key=history.broken_key)
