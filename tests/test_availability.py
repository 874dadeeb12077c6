"""One availability rule per command: what the page greys is what the controller refuses.

The screen walker's games (``tests/test_screen_walk.py``: every game shape, both
languages, a friend's device playing its turns from links) are played again on its
main line; at each state the walker looks at, in each language, and on every dialog,
list, replay or page the state's view commands open, every control of the page as shown
(the open dialog's only: it covers the rest) that carries a ``data-action`` is set
against the controller's :meth:`~app.controller.Controller.refusal`:

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
import time
from collections import Counter

import pytest
import test_screen_walk as walker
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


class AvailabilityWalk(walker.Walk):
    """The walker's main line; at each screen, the controls against the controller."""

    def __init__(self) -> None:
        super().__init__()
        self.checked: Counter[str] = Counter()
        self.opened: set[tuple[str, str, str]] = set()  # (device, language, view command)

    def check(self, dev, where, reports_before=0, errors_before=frozenset()) -> None:
        """The walker's checks of the page's words are its own test's: here, none."""

    def sweep(self, dev, state: int, full: bool) -> None:
        """The state in the page's language; at the walker's full sweeps (and while a
        friend's turn plays back: the click on the language ends it, as the walker's does)
        also in the other one, where the main line goes on, and what its view commands
        open."""
        both = full or dev.c.page.playback is not None
        for switch in (False, True) if both else (False,):
            if switch:
                other = next(lang for lang in walker.LANGS if lang != dev.c.texts.lang)
                self.main(dev, walker.Command("click", "lang", other),
                          self.where(dev, state, "lang"))
            self.look(dev, self.where(dev, state, "-"))
            if not full or dev.host.html.get("dialog"):
                continue
            for cmd in walker.offered(dev.host.html):
                # what a view command opens (a dialog, the list, a replay) looks the same
                # from one state to the next: once per device, language and command
                seen = (dev.name, dev.c.texts.lang, cmd.action)
                if cmd.action in walker.VIEW_ACTIONS and seen not in self.opened:
                    self.opened.add(seen)
                    label = str(cmd)
                    ok = self.run(dev, cmd, self.where(dev, state, label))
                    self.look(dev, self.where(dev, state, label))
                    self.restore(dev, state, label, ok)

    def look(self, dev, where: str) -> None:
        """Every control of the screen against the controller's refusal."""
        c, shown = dev.c, dev.host.html
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


@pytest.mark.parametrize("shape", walker.SHAPES, ids=[shape.label for shape in walker.SHAPES])
def test_an_enabled_control_is_accepted_and_a_greyed_one_refused_for_the_reason_shown(shape):
    started = time.perf_counter()
    walk = AvailabilityWalk()
    walk.game(shape)
    n = walk.checked
    print(f"[{shape.label}] {n['screens']} screens, {n['commands']} controls checked, "
          f"{n['tray controls pressable, refused']} of them the tray's pressable on "
          f"another's turn, {time.perf_counter() - started:.1f} s")
    assert not walk.failures, "\n".join(f"{where}: {what}" for _, where, what in
                                        walk.failures[:40])
    assert n["screens"] > 20 and n["commands"] > 200
