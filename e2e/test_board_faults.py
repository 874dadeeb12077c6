"""Attack and faults: markup in names, two tabs on one game, a crash inside Python.

Each test records its outcome for scripts/reliability_report.py (see fault_log.py).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import quote

from board_helpers import (
    close_first_dialog,
    dice,
    new_game,
    record,
    saved,
    select_only,
    stored_raw,
    take,
    write_saved,
)
from fault_log import scenario
from playwright.sync_api import BrowserContext, Page

from skyline import Board, make_save

if TYPE_CHECKING:
    from conftest import Guard

# Names of at most 24 characters (the game's limit) that would run f() if the page
# ever put them into the DOM as markup: element injection, attribute break-out
# (names also go into aria-label="..."), a closing tag for the <bdi> around names.
LINK_NAMES = (
    "<img src=x onerror=f()>",
    "<script>f()</script>",
    '"><svg onload=f()>',
    "'></bdi><b onclick=f()>",
)
SAVE_NAMES = ("<a href=javascript:f()>x", "<iframe srcdoc=<p>>", "&lt;b&gt;&amp;")
ARM = "window.__pwned = undefined; window.f = () => { window.__pwned = 1; }; void 0;"
# (void 0: page.evaluate would call a function the expression ends with)


def notice(page: Page, key: str):
    return page.locator(f"[data-testid=notice][data-key='{key}']")


def ground_die(page: Page) -> int:
    """A ground-floor die: it can always be built alone (a new building)."""
    return next(d["id"] for d in dice(page) if d["type"] == "G")


def moves(page: Page) -> list[str]:
    return record(page).split("|", 1)[1].split()


def shown_names(page: Page) -> list[str]:
    """The names in seat order (the player to move is drawn first on the board)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid^=player-]')]
            .filter((p) => p.querySelector('.pname bdi'))
            .sort((a, b) => a.dataset.testid.split('-')[1] - b.dataset.testid.split('-')[1])
            .map((p) => p.querySelector('.pname bdi').textContent)"""
    )


def assert_not_run(page: Page, dialogs: list[str]) -> None:
    page.locator(".pname").first.hover()
    page.locator(".pname").first.click()
    assert page.evaluate("window.__pwned") is None
    assert dialogs == []
    # nothing but the <bdi> itself inside the name headings: no injected element
    assert page.evaluate("document.querySelectorAll('.pname *:not(bdi), .pname bdi *').length") == 0


def test_names_from_links_and_saves_are_text(app_page: Page, guard: Guard, wait_ready) -> None:
    """Names carrying <img onerror>, <script>, attribute break-outs and a </bdi>
    arrive by a share link (and its confirm dialog) and by a crafted save: they show
    literally (textContent equals the name), no element is injected, f() never runs
    and no dialog opens. Without escaping, textContent would differ, the injected
    elements would be found, and the CSP would report the blocked inline handlers
    (the guard fails the test on any CSP violation)."""
    page = app_page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    with scenario("markup in player names (link, confirm dialog, save)") as s:
        close_first_dialog(page)
        page.add_init_script(ARM)  # also after the reload below
        page.evaluate(ARM)
        fragment = "#play?p=" + ",".join(quote(n, safe="") for n in LINK_NAMES) + "&seed=xss1"
        page.goto(page.url.split("#")[0] + fragment)
        page.locator("[data-key='notice.link_started']").wait_for()
        assert shown_names(page) == list(LINK_NAMES)
        labels = [page.locator(f"[data-testid=player-{i}]").get_attribute("aria-label")
                  for i in range(4)]
        assert all(name in label for name, label in zip(LINK_NAMES, labels, strict=True))
        assert "f()" in page.locator("[data-testid=turn]").inner_text()
        assert_not_run(page, dialogs)

        take(page, "G")  # a game in progress: the same link now asks first
        page.goto(page.url.split("#")[0] + fragment)
        desc = page.locator(".link-desc")
        desc.wait_for()
        assert all(name in desc.text_content() for name in LINK_NAMES)
        assert page.evaluate("document.querySelectorAll('.link-desc *').length") == 0
        page.click("#link-keep")

        board = Board.new(list(SAVE_NAMES), seed="xss2")
        page.evaluate("s => localStorage.setItem('skyline.save', s)", make_save(board))
        page.reload(wait_until="commit")
        wait_ready(page)
        assert shown_names(page) == list(SAVE_NAMES)
        assert_not_run(page, dialogs)
        guard.assert_clean()  # no CSP violation: nothing even tried to run
        s.kept("7 hostile names shown literally via link, dialog and save; nothing ran")


def test_two_tabs_one_game(
    app_page: Page, app_context: BrowserContext, site_url: str, guard: Guard, open_app
) -> None:
    """A second tab on the same game watches read-only (a clear notice, its moves
    refused, the save untouched) and follows the first tab's moves; "Play here"
    moves the game to it and turns the first tab read-only, which then follows.
    Also the safety net: a tab whose stored save was changed behind its back does
    not overwrite it. Catches the second tab silently overwriting the first one's
    moves (the classic lost update), both tabs moving at once, or a stale view."""
    a = app_page
    with scenario("two tabs on one game") as s:
        close_first_dialog(a)
        new_game(a, ("Ann", "Bob"), seed="tabs1", start="0")
        take(a, "GUP")
        b = app_context.new_page()
        try:
            guard.attach(b)
            open_app(b, site_url)
            other = notice(b, "notice.other_tab")
            assert "open in another tab" in other.inner_text()
            assert notice(a, "notice.other_tab").count() == 0
            assert record(b) == record(a)

            a.click("#act-roll")  # A moves, B follows (storage event)
            # B already shows the three taken dice: wait until they show their faces
            b.wait_for_function(
                "[...document.querySelectorAll('#turn [data-testid=die]')]"
                ".filter((d) => d.dataset.face && d.dataset.face !== 'None').length == 3")
            assert dice(b) == [dict(d, pressed=False) for d in dice(a)]
            before = stored_raw(a)
            # B may not move: its dice and commands are greyed, with the reason
            assert b.locator(f"#die-{dice(b)[0]['id']}").is_disabled()
            assert b.locator("#act-end").is_disabled() and b.locator("#act-undo").is_disabled()
            assert len(dice(b)) == 3 and not dice(b)[0]["pressed"]
            assert stored_raw(b) == before

            b.click("#notice-take-control")  # "Play here"
            notice(a, "notice.other_tab").wait_for()
            # B hears "granted" from Web Locks on its own schedule, possibly after A hears
            # "lost": wait for B's notice rather than racing it
            notice(b, "notice.playing_here").wait_for()
            assert notice(b, "notice.other_tab").count() == 0
            first = ground_die(b)
            select_only(b, [first])
            b.click("#act-build")
            assert len(dice(b)) == 2
            a.wait_for_function("document.querySelectorAll('#turn [data-testid=die]').length == 2")
            assert a.locator(f"#die-{dice(a)[0]['id']}").is_disabled()  # A is read-only now
            assert not dice(a)[0]["pressed"]
            assert moves(b) == moves(a) == ["tGUP", "r0.1.2", f"b{first}"]

            # safety net: B's stored save changes behind its back (e.g. no lock support)
            changed = saved(b)
            changed["saved_at"] = "2000-01-01T00:00:00.000Z"
            write_saved(b, changed)
            b.click("#act-undo")
            notice(b, "notice.save_conflict").wait_for()
            assert saved(b) == changed  # not overwritten
            b.click("#notice-take-control")  # shown and continued from the stored game
            assert len(dice(b)) == 2 and record(b) == changed["game"]["record"]
            s.kept("moves of both tabs kept in order; read-only tab refused moves; "
                   "unseen save not overwritten")
        finally:
            b.close()


def _locks(page: Page) -> dict:
    """navigator.locks.query() of ``page``: the held and the pending requests."""
    return page.evaluate("async () => await navigator.locks.query()")


def _wait_locks(page: Page, test, what: str, seconds: float = 60) -> None:
    for _ in range(int(seconds * 20)):
        if test(_locks(page)):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{what}: {_locks(page)}")


def test_reload_waits_for_the_lock_of_the_page_it_replaces(
    app_page: Page, app_context: BrowserContext, site_url: str, wait_ready
) -> None:
    """On a reload the previous page's worker may still hold the game lock for a moment
    while it is torn down: the new page waits for it (a queued Web Locks request)
    instead of opening the game read-only at once with "open in another tab".
    A static page of this origin stands in for the departing page: it queues for the
    lock behind the page, gets it when the page reloads, and lets go only once the
    reloaded page's request waits behind it."""
    a = app_page
    close_first_dialog(a)
    new_game(a, ("Ann", "Bob"), seed="relock1", start="0")
    take(a, "GUP")
    holder = app_context.new_page()
    try:
        holder.goto(site_url.rstrip("/") + "/rules/en.html")
        holder.evaluate(
            "() => { window.__held = new Promise((r) => { window.__release = r; });"
            " navigator.locks.request('skyline.game',"
            " () => { window.__got = true; return window.__held; }); }")

        def game_lock(kind):
            return lambda locks: any(lock["name"] == "skyline.game" for lock in locks[kind])

        _wait_locks(holder, game_lock("pending"), "the holder queued behind the page")
        a.reload(wait_until="commit")
        holder.wait_for_function("window.__got === true")
        # the reloaded page asks and waits: its request is queued behind the holder
        _wait_locks(holder, game_lock("pending"), "the reloaded page waits for the lock")
        holder.evaluate("() => window.__release()")
        wait_ready(a)
        assert notice(a, "notice.other_tab").count() == 0
        assert moves(a) == ["tGUP"]
        a.click("#act-roll")  # it may move
        assert moves(a) == ["tGUP", "r0.1.2"]
    finally:
        holder.close()


def test_crash_in_an_action_keeps_the_last_save(app_page: Page, guard: Guard) -> None:
    """An exception inside Python in the middle of a move (test hook
    window.__skylineFault = "action", see main.DomHost.fault): the half-done move is
    not saved, further moves are refused, the player is told (in German here) and
    "Reload last saved game" restores the save, after which play goes on.
    Catches saving a half-updated game, a dead page, or no way back."""
    page = app_page
    guard.allow_console(r"simulated fault \(action\)")
    with scenario("exception inside Python during a move") as s:
        close_first_dialog(page)
        page.click("#btn-lang")
        take(page, "GUP")
        page.click("#act-roll")
        stored = stored_raw(page)
        page.evaluate("window.__skylineFault = 'action'")
        select_only(page, [ground_die(page)])
        page.click("#act-build")
        crash = notice(page, "notice.crash")
        assert "Etwas ist schiefgegangen" in crash.inner_text()
        assert stored_raw(page) == stored
        page.click("#act-undo")  # refused: the game in memory is not trusted
        assert stored_raw(page) == stored

        page.click("#notice-reload-saved")
        assert crash.count() == 0
        assert len(dice(page)) == 3
        assert record(page) == json.loads(stored)["save"]["game"]["record"]
        select_only(page, [ground_die(page)])
        page.click("#act-build")
        assert len(dice(page)) == 2
        assert record(page) != json.loads(stored)["save"]["game"]["record"]  # saving again
        s.kept("save unchanged by the crashed move and the refused one; reload restored it")
