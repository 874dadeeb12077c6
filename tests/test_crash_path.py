"""One crash path: a bug in any entry from the browser keeps the last good save, marks
the page crashed and says so in the player's language.

Each entry is driven as the browser drives it: a page event through
``Controller.event`` (what ``main.dispatch`` calls with the ``PageEvent`` it read), a
tick of the computer players' timers (``app.computer.pacer``), a late answer of the
host (the fake host holds them until ``answer_all``, as the browser answers after the
event). The failure injected changes the game in memory, then raises: the half-updated
game must never reach storage, not then and not after.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from app.computer import pacer
from app.computer.pacer import BotsUI
from app.controller import Controller
from app.core.bridge import PageEvent
from app.core.commands import Cmd
from app.core.dom import RULES_BUTTON
from app.core.store import KEY_SAVE, entry_key
from web_fakes import FakeHost, FakeTimer, make_page, start_game


class Injected(RuntimeError):
    """The bug planted in an entry."""


Boom = Callable[..., None]
Fire = Callable[[], object]


@dataclass
class Page:
    c: Controller
    host: FakeHost
    timer: FakeTimer
    ui: BotsUI


def fail_command(c: Controller, name: Cmd, boom: Boom) -> None:
    c.commands[name] = dataclasses.replace(c.commands[name], handler=boom)


def click(page: Page, boom: Boom) -> Fire:
    c = page.c
    fail_command(c, Cmd.RULES, boom)  # a command the page always accepts
    return lambda: c.event(PageEvent("click", action=Cmd.RULES, target_id=RULES_BUTTON))


def change(page: Page, boom: Boom) -> Fire:
    c = page.c
    c.event(PageEvent("click", action=Cmd.NEW_GAME))
    fail_command(c, Cmd.NEW_GAME_CHANGE, boom)
    return lambda: c.event(PageEvent("change", action=Cmd.NEW_GAME_CHANGE, form={"count": "3"}))


def submit(page: Page, boom: Boom) -> Fire:
    c = page.c
    c.event(PageEvent("click", action=Cmd.NEW_GAME))
    fail_command(c, Cmd.NEW_GAME_START, boom)
    return lambda: c.event(PageEvent("submit", action=Cmd.NEW_GAME_START, form={"count": "1"}))


def key(page: Page, boom: Boom) -> Fire:
    c = page.c
    fail_command(c, Cmd.RULES, boom)  # "?" opens the rules
    return lambda: c.event(PageEvent("keydown", key="?"))


def link_change(page: Page, boom: Boom) -> Fire:
    c = page.c
    c.links.open = boom
    return lambda: c.event(PageEvent("hashchange", hash="#play?broken"))


def storage_event(page: Page, boom: Boom) -> Fire:
    c = page.c
    c.tabs.event = boom  # another tab wrote the game
    return lambda: c.event(PageEvent("storage", key=KEY_SAVE))


def save_refused(page: Page, boom: Boom) -> Fire:
    c, host = page.c, page.host
    assert c.session.entry is not None
    game = entry_key(c.session.entry.id)
    host.storage[game] += " "  # another tab saved the game meanwhile: this save conflicts
    c.session.save_refused = boom
    board = c.session.game
    assert c.play.dispatch(next(iter(board.legal_actions())))  # a move: its save goes
    (save_id, outcome), = host.unsaved  # with the render, and the page says it failed
    assert outcome == "conflict"
    return lambda: c.event(PageEvent("saved", save_id=save_id, outcome=outcome))


def tick(page: Page, boom: Boom) -> Fire:
    page.ui.schedule(0, boom)  # the computer players' timer
    return page.timer.run


def idle_tick(page: Page, boom: Boom) -> Fire:
    page.ui.idle(0, boom)  # the idle work's timer (reviews, the chart, the table)
    return page.timer.run


def answer(call: Callable[[Controller, Boom], None]) -> Callable[[Page, Boom], Fire]:
    """A host's late answer to ``call`` (made through the host the features use)."""

    def arm(page: Page, boom: Boom) -> Fire:
        call(page.c, boom)
        assert page.host.answers, "the answer waits for the browser"
        return page.host.answer_all

    return arm


ENTRIES = {
    "click": click,
    "change": change,
    "submit": submit,
    "key": key,
    "link change": link_change,
    "storage event": storage_event,
    "save refused": save_refused,
    "timer tick": tick,
    "idle tick": idle_tick,
    "copy": answer(lambda c, boom: c.session.host.copy("text", boom)),
    "share": answer(lambda c, boom: c.session.host.share("text", "title", boom)),
    "QR": answer(lambda c, boom: c.session.host.load_qr(boom)),
    "data fetch": answer(lambda c, boom: c.session.host.fetch_data("data/x.bin", boom)),
    "storage kept": answer(lambda c, boom: c.session.host.persist_storage(boom)),
    "game lock": answer(lambda c, boom: c.session.lock.take(boom)),
}

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("entry", list(ENTRIES))
def test_a_bug_in_any_entry_keeps_the_save_and_says_so(entry: str, lang: str) -> None:
    host = FakeHost()
    host.answers = []  # the browser answers later, outside the event that asked
    host.share_ok = True
    c, host, timer = make_page(host=host, langs=(lang,), bots=False)
    ui = pacer.install(c, timer)
    start_game(c, ("Ann", "Robo"), ("human", "greedy"), "crash-path")
    c.event(PageEvent("click", action=Cmd.ROLL))  # a move, saved
    host.answer_all()
    timer.run()

    def boom(*_args: object) -> None:
        board = c.session.game
        board.push(next(iter(board.legal_actions())))  # the game in memory changes ...
        raise Injected(f"{entry} failed half-way")  # ... and a bug stops the entry there

    fire = ENTRIES[entry](Page(c, host, timer, ui), boom)
    last_good = dict(host.storage)
    assert not c.page.crashed
    fire()

    assert c.page.crashed
    assert any("Injected" in report for report in host.reports)
    crash = html.escape(c.texts.t("notice.crash"), quote=False)
    assert crash in host.html["notices"]
    assert host.storage == last_good  # byte for byte: the half-updated game is not saved
    c.event(PageEvent("click", action=Cmd.ROLL))  # nor by a move after it
    host.answer_all()
    assert host.storage == last_good
