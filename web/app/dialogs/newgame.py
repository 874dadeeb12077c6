"""The new-game dialog: the form as the player left it, and the game it starts."""

from __future__ import annotations

from app.core.commands import Cmd, Command, Guard, form_arg, plain
from app.core.dom import DIALOG_FIRST, command_id
from app.core.events import Emit, InviteLive
from app.core.names import is_default_name, player_names
from app.core.page_state import HUMAN, NewGameDialog, PageState, form_value, seat_of_form
from app.core.session import Session, random_seed
from app.core.whose_turn import help_for, kind_of
from skyline import SCENARIOS, Options, validate_options


class NewGame:
    """Opening, editing and submitting the new-game dialog."""

    def __init__(self, session: Session, emit: Emit) -> None:
        self.s = session
        self.emit = emit

    def commands(self) -> dict[Cmd, Command]:
        starts = Guard.STARTS | Guard.WRITES
        return {
            Cmd.NEW_GAME: plain(self.open),  # it sets the focus (the welcome, too)
            Cmd.NEW_GAME_CHANGE: form_arg(self.change),
            Cmd.NEW_GAME_START: form_arg(self.start, starts),
        }

    def open(self, first: bool = False) -> None:
        s = self.s
        opts = s.board.options if s.board else None
        seats: list[str] = []
        if opts and not first:
            seats = [form_value(s.page.seat_kind(i)) for i in range(len(opts.names))]
        kinds = (seats + [HUMAN] * 4)[:4]
        # a name the player never typed stays unset (None): shown in the player's language
        names: list[str | None] = [
            None if is_default_name(s.texts, n, i, seat_of_form(kinds[i])) else n
            for i, n in enumerate(opts.names if opts else ())
        ]
        names += [None] * (4 - len(names))
        s.page.dialog = NewGameDialog(
            first=first,
            count=len(opts.names) if opts and not first else 1,
            names=names,
            seats=kinds,
            nine=bool(opts.all_nine) if opts else False,
            scenario=(opts.scenario or "") if opts else "",
        )
        self._follow_kind(s.page.dialog, None)
        s.focus_id = DIALOG_FIRST

    @staticmethod
    def _kind(d: NewGameDialog) -> str:
        return kind_of([seat_of_form(v) for v in d.seats[:d.count]])

    def _follow_kind(self, d: NewGameDialog, typed: bool | None) -> None:
        """The help's box: the setting of the kind of game the form now makes, when the
        kind changed (or the form opened); else what the player left it at (``typed``)."""
        kind = self._kind(d)
        if kind != d.help_kind:
            d.help, d.help_kind = help_for(self.s.page, kind), kind
        elif typed is not None:
            d.help = typed

    def change(self, form: dict) -> None:
        """The form as the player left it (a name, a seat, the count changed). The focus
        stays where the player took it (Tab out of a name field goes on)."""
        d = self.s.page.dialog
        if not isinstance(d, NewGameDialog):
            return
        self.s.focus_id = None
        try:
            d.count = max(1, min(4, int(form.get("count", d.count))))
        except (TypeError, ValueError):
            pass
        shown = player_names(PageState(), d.names[:4], self.s.texts, d.seats[:4])
        for i in range(4):
            if f"name{i}" in form:
                value = str(form[f"name{i}"])
                # the default shown, sent back unchanged, stays unset
                if not (d.names[i] is None and value.strip() == shown[i]):
                    d.names[i] = value
            seat = form.get(f"seat{i}")
            if seat is not None:
                d.seats[i] = form_value(seat_of_form(seat))
        d.start = str(form.get("start", d.start))
        d.nine = form.get("nine") in ("on", "1", True)
        d.live = form.get("live") in ("on", "1", True)
        d.scenario = str(form.get("scenario", d.scenario) or "")
        d.seed = str(form.get("seed", d.seed) or "")
        # an unticked box sends nothing: the field beside it says the box was there, and
        # for which kind of game it was drawn (a seat changed before Python was ready
        # sends the box as drawn for the kind before)
        typed = (form.get("help") in ("on", "1", True)
                 if form.get("help_box") == self._kind(d) else None)
        self._follow_kind(d, typed)

    def start(self, form: dict) -> None:
        s = self.s
        if not isinstance(s.page.dialog, NewGameDialog):
            return
        self.change(form)
        d = s.page.dialog
        count = d.count
        names = player_names(PageState(), d.names[:count], s.texts,
                                          d.seats[:count])
        start: int | None = None
        try:
            if d.start != "r" and count > 1:
                start = int(d.start)
                if not 0 <= start < count:
                    start = 0
            scenario = d.scenario if count == 1 and d.scenario in SCENARIOS else None
            seed = d.seed.strip() or random_seed()
            options = validate_options(Options(names, seed, start, d.nine, scenario))
        except ValueError as exc:
            d.error = s.error_text(exc)
            return
        s.page.help_on[d.help_kind] = d.help  # the computer's help for games of this kind
        s.store.save_help(d.help_kind, d.help)
        s.start(options, None, tuple(seat_of_form(v) for v in d.seats[:count]))
        self.s.narrate_new_game()
        s.page.dialog = None
        s.focus_id = command_id(Cmd.ROLL)
        if d.live and s.page.friend_seats:
            self.emit(InviteLive())  # the table's invitation, for the friends elsewhere
