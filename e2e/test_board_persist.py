"""Saves, reloads, share links and bad input: nothing is lost, every problem is said."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from board_helpers import (
    close_first_dialog,
    dice,
    enabled,
    new_game,
    record,
    saved,
    select_only,
    stored_raw,
    take,
)
from fault_log import scenario
from playwright.sync_api import BrowserContext, Page

from skyline import Board

if TYPE_CHECKING:
    from conftest import Guard


def notice(page: Page, key: str):
    return page.locator(f"[data-testid=notice][data-key='{key}'] p")


def test_reload_resumes_with_undo_limits(app_page: Page, wait_ready) -> None:
    page = app_page
    close_first_dialog(page)
    new_game(page, ("Rita", "Ray"), seed="reload7", start="1")
    take(page, "GGU")
    page.click("#act-roll")
    first = dice(page)[0]["id"]
    select_only(page, [first])
    page.click("#act-build")
    shown = dice(page)
    envelope = saved(page)
    assert envelope["v"] == 2 and envelope["kind"] == "skyline-save" and envelope["saved_at"]
    assert envelope["game"]["format"] == "skyline-game"
    html_before = page.locator("#players").inner_html()
    # the log, sent as the lines each click added, is what a whole render writes
    log_before = page.locator("#log").inner_html()

    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.locator("[data-testid=dialog-newgame]").count() == 0
    assert dice(page) == [dict(d, pressed=False) for d in shown]
    assert page.locator("#players").inner_html() == html_before
    assert page.locator("#log").inner_html() == log_before
    assert "Ray's turn" in page.locator("[data-testid=turn]").inner_text()
    assert enabled(page, "undo")  # the build after the roll can still be undone
    page.click("#act-undo")
    assert len(dice(page)) == 3
    assert not enabled(page, "undo")  # ... but not the roll, after a reload too
    # a pending pick of the yard survives a reload as well
    board = Board.from_record(record(page))
    assert str(board.actions[-1]).startswith("r")


def test_share_link_reproduces_the_first_roll(
    app_page: Page, warm_context: Callable[..., BrowserContext], site_url: str, guard: Guard,
    open_app,
) -> None:
    page = app_page
    close_first_dialog(page)
    new_game(page, ("Ann", "Bo, Jr."), seed="shareX9", start="1")
    page.click("#btn-share")
    link = page.locator("[data-testid=share-link]").input_value()
    page.locator("[data-testid=share-status]").wait_for()  # copied, or the field is the fallback
    assert link.startswith(site_url) and "#play?" in link
    assert "p=Ann,Bo%2C%20Jr." in link and "seed=shareX9" in link and "start=1" in link
    page.keyboard.press("Escape")
    take(page, "GUP")
    page.click("#act-roll")
    faces = [(d["type"], d["face"]) for d in dice(page)]

    ctx = warm_context(locale="de-DE")
    try:
        guard.attach(ctx)
        other = ctx.new_page()
        open_app(other, link)
        # no game there yet: the link starts at once (in German, the browser's language)
        assert other.locator("[data-testid=dialog-newgame]").count() == 0
        assert other.locator("[data-testid=notice][data-key='notice.link_started']").count() == 1
        assert "#play" not in other.url
        assert other.locator("[data-testid=player-1] .pname").inner_text() == "Bo, Jr."
        assert "Bo, Jr. ist am Zug" in other.locator("[data-testid=turn]").inner_text()
        take(other, "GUP")
        other.click("#act-roll")
        assert [(d["type"], d["face"]) for d in dice(other)] == faces
        assert "Würfel" in dice(other)[0]["label"]
    finally:
        ctx.close()


def test_solo_link_carries_the_score_to_beat(app_page: Page, site_url: str) -> None:
    page = app_page
    close_first_dialog(page)
    take(page, "G")  # a game in progress: the link must ask first
    page.goto(site_url + "#play?p=Sol&seed=beatMe&start=0&nine=0&sc=dubai&beat=83")
    dialog = page.locator("[data-testid=dialog-confirm_link]")
    dialog.wait_for()
    assert "#play" not in page.url
    page.click("#link-keep")
    assert page.locator("[data-testid=taken]").count() == 1  # untouched
    page.goto(site_url + "#play?p=Sol&seed=beatMe&start=0&nine=0&sc=dubai&beat=83")
    dialog.wait_for()
    page.click("#dlg-first")
    assert page.locator("[data-testid=beat]").inner_text() == "Score to beat: 83 points"
    opts = saved(page)["game"]["state"]["options"]
    assert opts == {"names": ["Sol"], "seed": "beatMe", "start_seat": 0, "all_nine": False,
                    "scenario": "dubai"}
    assert saved(page)["beat"] == 83


def test_broken_links_leave_the_game_alone(app_page: Page, site_url: str) -> None:
    page = app_page
    with scenario("broken share links (7 kinds, EN and DE)") as s:
        close_first_dialog(page)
        take(page, "GUP")
        page.click("#act-roll")
        before = record(page)
        for fragment, reason in (
            ("#play?p=&seed=abc", "The name of player 1 is not allowed: it needs 1 to 24"),
            ("#play?p=Ann&seed=bad!seed", "The seed may only use"),
            ("#play?p=Ann,Bob&seed=ok&start=7", "The start player is not one of the players."),
            ("#play?p=Ann,Bob&seed=ok&sc=dubai", "Unknown scenario"),
            ("#play?p=Ann&seed=ok&evil=1", "The link is incomplete or has unknown parts."),
            ("#play?p=%FF&seed=ok", "A name in the link is not valid text"),
        ):
            page.goto(site_url + fragment)
            message = notice(page, "notice.bad_link")
            message.wait_for()
            text = message.inner_text()
            assert "This game link cannot be opened" in text and reason in text, text
            assert "Your current game is unchanged." in text
            assert record(page) == before
            assert "#play" not in page.url
            page.click("[data-testid=notice] .x")
        # in the player's language
        page.click("#btn-lang")
        page.goto(site_url + "#play?p=Ann&seed=ok&evil=1")
        text = notice(page, "notice.bad_link").inner_text()
        assert "Dieser Spiel-Link lässt sich nicht öffnen" in text
        assert "Dein aktuelles Spiel bleibt unverändert." in text
        assert record(page) == before
        s.kept("each refused with its reason in the player's language; game untouched")


def test_corrupt_and_foreign_saves_are_kept_aside(app_page: Page, wait_ready) -> None:
    """Each unloadable save is copied to its own key, removed from the game's key,
    said in the player's words (SaveError codes, incl. save_size) and can be
    exported as it was: the textarea and the downloaded file equal the stored text."""
    page = app_page
    with scenario("unloadable save kept aside and exported") as s:
        for raw, reason in (
            ('{"v":2,"game":"' + "x" * 500_001 + '"}', "it is too long to be a saved game"),
            ("{not json", "it is not valid JSON"),
            (json.dumps({"v": 7, "game": {}}), "another version of the app (7)"),
            (json.dumps({"v": 1, "game": {"format": "skyline-game", "version": 1, "record": "x"}}),
             "the record is malformed"),
        ):
            check_kept_aside(page, wait_ready, raw, reason)
        # the last one is exported (the new-game dialog first goes out of the way)
        close_first_dialog(page)
        page.click("#notice-export-save")
        assert page.locator("[data-testid=export-text]").input_value() == raw
        assert page.locator("#export-text").get_attribute("readonly") is not None
        with page.expect_download() as download:
            page.click("[data-testid=export-download]")
        path = download.value.path()
        assert download.value.suggested_filename.startswith("skyline-")
        assert Path(path).read_text(encoding="utf-8") == raw
        s.kept("4 broken saves kept aside byte for byte; export textarea and download equal")


def check_kept_aside(page: Page, wait_ready, raw: str, reason: str) -> None:
    page.evaluate("localStorage.clear()")
    page.evaluate("s => localStorage.setItem('skyline.save', s)", raw)
    page.reload(wait_until="commit")
    wait_ready(page)
    message = notice(page, "notice.save_broken")
    assert reason in message.inner_text()
    kept = page.evaluate(
        "Object.keys(localStorage).filter((k) => k.startsWith('skyline.save.broken.'))"
    )
    assert len(kept) == 1 and kept[0] in message.inner_text()
    assert page.evaluate("k => localStorage.getItem(k)", kept[0]) == raw
    # a fresh game is there (and saved), with the new-game dialog in front
    assert page.locator("[data-testid=dialog-newgame]").count() == 1
    assert saved(page)["v"] == 2
    assert notice(page, "notice.save_broken").locator("xpath=..").locator(
        "#notice-export-save").count() == 1


# Installed before the page's own scripts (Playwright init scripts), like a browser
# whose storage is full or switched off from the start.
QUOTA_FULL = """
Storage.prototype.setItem = function () {
  throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
};
"""
STORAGE_BLOCKED = """
Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});
"""


def play_a_little(page: Page) -> None:
    take(page, "GGU")
    page.click("#act-roll")
    select_only(page, [dice(page)[0]["id"]])
    page.click("#act-build")
    assert len(dice(page)) == 2


def test_storage_full_keeps_playing_and_keeps_the_save(app_page: Page, wait_ready) -> None:
    """localStorage.setItem throws QuotaExceededError from the start: the saved game
    still loads, moves go on in memory, the player is told in German at once (not
    only on the first move), and the stored save is never changed or removed.
    Catches: an uncaught storage error (no ready page / dead buttons), a silent
    failure (no notice), or a save removed/half-written on the way."""
    page = app_page
    with scenario("storage full (QuotaExceededError on every write)") as s:
        close_first_dialog(page)
        page.click("#btn-lang")
        new_game(page, ("Ida", "Jo"), seed="quota1")
        take(page, "GUP")
        stored = stored_raw(page)
        assert stored and "tGUP" in stored
        page.add_init_script(QUOTA_FULL)
        page.reload(wait_until="commit")
        wait_ready(page)
        # a full store is named as full, with what to do
        text = notice(page, "notice.storage_full").inner_text()
        assert "voll" in text and "wird aber nicht gesichert." in text, text
        page.click("#act-roll")
        select_only(page, [dice(page)[0]["id"]])
        page.click("#act-build")
        assert len(dice(page)) == 2  # the game went on in memory
        page.click("#act-undo")
        assert len(dice(page)) == 3
        assert notice(page, "notice.storage_full").count() == 1
        assert notice(page, "notice.not_saved").count() == 0
        assert stored_raw(page) == stored
        s.kept("saved game loaded, 3 moves in memory, German notice, stored save unchanged")


def test_storage_blocked_plays_in_memory(
    app_page: Page, app_context, site_url: str, guard: Guard, open_app
) -> None:
    """Reading window.localStorage throws (storage blocked for the site) in a second
    tab: that tab starts, plays in memory with the notice in English, does not wait
    for the first tab's lock (it has no shared save), and the first tab's save
    stays as it was. Catches an exception at boot (page never ready) or a tab that
    turns read-only although it cannot share anything."""
    first = app_page
    with scenario("storage blocked (SecurityError on access)") as s:
        close_first_dialog(first)
        take(first, "GUP")
        stored = stored_raw(first)
        page = app_context.new_page()
        try:
            guard.attach(page)
            page.add_init_script(STORAGE_BLOCKED)
            open_app(page, site_url)
            text = notice(page, "notice.not_saved").inner_text()
            assert text.endswith("it is not being saved."), text
            assert page.locator("[data-key='notice.other_tab']").count() == 0
            close_first_dialog(page)
            play_a_little(page)
            assert stored_raw(first) == stored
            s.kept("in-memory game played (take, roll, build); other tab's save unchanged")
        finally:
            page.close()
