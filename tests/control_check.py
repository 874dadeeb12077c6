"""One availability rule per command: what the page greys is what the controller refuses.

The screen walker (``tests/test_screen_walk.py``: every game shape, both languages, a
friend's device playing its turns from links) hands every state it sweeps, in each
language, and every dialog, list, replay or page its view commands open, to
:meth:`ControlCheck.look`: every control of the page as shown (the open dialog's only: it
covers the rest) that carries a ``data-action`` is set against the controller's
:meth:`~app.controller.Controller.refusal`:

* an enabled control must be accepted (no refusal);
* a greyed one must be refused, and where the page explains it (the line under the
  turn panel the button points to with ``aria-describedby``) the line must say the
  reason the controller gives.

The one difference that stays: the tray keeps a die (and a pick's "put back") pressable
while a replay is shown or another player is to move, and the controller refuses it
(for a friend's turn with the notice that says why); greying them would change the page.
"""

from __future__ import annotations

import html as htmlmod
import re
from collections import Counter
from collections.abc import Callable

from app.controller import Controller
from app.core.commands import TURN_COMMANDS, Cmd, Guard
from page_html import OPEN, TAG, attrs
from web_fakes import FakeHost, tables

# the tray's controls stay pressable on a screen where the game is not the player's
TRAY = {Cmd.DIE, Cmd.UNTAKE}
TRAY_REASONS = {"why.replay", "why.computer", "why.friend"}
# the game commands (refused by their rules), from the command table the features give
GAME = {name for name, cmd in Controller(FakeHost(), tables()).commands.items()
        if cmd.guards & Guard.GAME}
_WHY = re.compile(r'<li id="(why-\d+)">(.*?)</li>', re.S)


class ControlCheck:
    """Every control of a screen against the controller; counts what it checked."""

    def __init__(self, fail: Callable[[str, str], None]) -> None:
        self.fail = fail
        self.checked: Counter[str] = Counter()

    def look(self, c: Controller, shown: dict[str, str], where: str) -> None:
        """Every control of the screen ``shown`` (the host's regions) against the
        controller ``c``'s refusal."""
        if c.page.crashed:  # the crash notice speaks for the whole page
            return
        # while a friend's turn plays back, the page shows the game as it was; a click
        # first shows it as it is (the controller ends the playback), then the rules decide:
        # only the turn panel, greyed meanwhile, is asked about
        playback = c.page.playback is not None
        self.checked["screens"] += 1
        regions = [shown["dialog"]] if shown.get("dialog") else list(shown.values())
        for html in regions:
            why = {i: htmlmod.unescape(TAG.sub("", text)) for i, text in _WHY.findall(html)}
            for m in OPEN.finditer(html):
                if "data-action" not in m.group(2):
                    continue
                a = attrs(m.group(2))
                action = a.get("data-action")
                if action is None or action not in c.commands:
                    continue  # not a control, or one the browser handles (the file picker)
                name = Cmd(action)
                if playback and name in GAME and name not in TURN_COMMANDS:
                    self.checked["game controls during a playback"] += 1
                    continue
                enabled = "disabled" not in a and a.get("aria-disabled") != "true"
                reason = c.refusal(name, a.get("data-arg"))
                self.checked["commands"] += 1
                control = f"{'enabled' if enabled else 'greyed'} {action} {a.get('data-arg', '')}"
                if enabled and reason is not None:
                    if name in TRAY and reason in TRAY_REASONS:
                        self.checked["tray controls pressable, refused"] += 1
                        continue
                    self.fail(where, f"{control}: the controller refuses it ({reason})")
                elif not enabled and reason is None:
                    self.fail(where, f"{control}: the controller accepts it")
                elif not enabled and "aria-describedby" in a:
                    line = why.get(a["aria-describedby"], "")
                    if c.session.t(reason) not in line:
                        self.fail(where, f"{control}: the page says {line!r}, the controller "
                                         f"refuses it for {c.session.t(reason)!r}")
