"""The game list and the replay in the browser, in English and German; correspondence
play between two devices (two browser contexts) by passing game links to the end,
with a tampered, a stale and a diverging link."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from board_helpers import (
    POLICY_STEP,
    close_first_dialog,
    new_game,
    play_policy,
    record,
    stored_raw,
    take,
)
from playwright.sync_api import Browser, BrowserContext, Page

from skyline import Board
from skyline.records.game_links import make_game_link, parse_game_link

WORDS = {
    "en": {"games": "Games", "title": "Your games", "deleted": "was deleted", "round": "Round",
           "replay": "Replay", "move": "Move 3 of", "finished": "Finished"},
    "de": {"games": "Spiele", "title": "Deine Spiele", "deleted": "wurde gelöscht",
           "round": "Runde", "replay": "Wiederholung", "move": "Zug 3 von",
           "finished": "Beendet"},
}


def rows(page: Page) -> list[str]:
    return page.locator("[data-testid=game-row]").all_inner_texts()


def storage(page: Page) -> dict[str, str]:
    """What the page keeps, but the picture of its last render (web/boot.js writes it
    400 ms after a render: a cache, no game)."""
    return page.evaluate("Object.fromEntries(Object.entries(localStorage)"
                         ".filter(([key]) => key !== 'skyline.snapshot'))")


def set_lang(page: Page, lang: str) -> None:
    if lang == "de":
        page.click("#btn-lang")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_game_list(app_page: Page, lang: str, tmp_path: Path) -> None:
    page = app_page
    w = WORDS[lang]
    close_first_dialog(page)
    set_lang(page, lang)
    new_game(page, ("Ann", "Bob"), seed="list1")
    take(page, "GUP")
    page.click("#act-roll")
    first = json.loads(stored_raw(page))["id"]
    new_game(page, ("Cy",), seed="list2")
    assert page.locator("#btn-games").inner_text() == w["games"]
    page.click("#btn-games")
    assert page.locator("#dlg-title").inner_text() == w["title"]
    texts = rows(page)
    assert len(texts) == 2 and "Cy" in texts[0] and "Ann" in texts[1]
    assert f"{w['round']} 1" in texts[1]
    # open the first game again
    page.click(f"#game-open-{first}")
    assert page.locator("#dialog dialog").count() == 0
    assert page.locator("[data-testid=player-1]").count() == 1  # Ann and Bob
    assert len(page.locator("#turn [data-testid=die]").all()) == 3
    # rename it (markup stays text)
    page.click("#btn-games")
    page.click(f"#game-rename-{first}")
    page.fill("#game-name", "<i>Friday</i>")
    page.click("#game-rename-save")
    assert "<i>Friday</i>" in rows(page)[0] + rows(page)[1]
    # export it, delete it, undo, delete again and import the file
    with page.expect_download() as download:
        page.click(f"#game-export-{first}")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert json.loads(path.read_text(encoding="utf-8"))["id"] == first
    page.click(f"#game-delete-{first}")
    assert w["deleted"] in page.locator("[data-testid=games-deleted]").inner_text()
    assert f"skyline.game.{first}" not in storage(page) and len(rows(page)) == 1
    page.click("#games-undo")
    assert f"skyline.game.{first}" in storage(page)
    assert len(rows(page)) == 2
    page.click(f"#game-delete-{first}")
    assert len(rows(page)) == 1
    page.set_input_files("#game-import", str(path))
    page.locator("[data-key='games.imported']").wait_for()
    assert len(rows(page)) == 2
    # a damaged file changes nothing
    before = storage(page)
    bad = tmp_path / "bad.json"
    bad.write_text(path.read_text(encoding="utf-8")[:-20], encoding="utf-8")
    page.set_input_files("#game-import", str(bad))
    page.locator("[data-key='games.import_failed']").wait_for()
    assert storage(page) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_replay(app_page: Page, lang: str) -> None:
    page = app_page
    w = WORDS[lang]
    close_first_dialog(page)
    set_lang(page, lang)
    new_game(page, ("Ann",), seed="replay1")
    play_policy(page)
    stored = stored_raw(page)
    played = record(page)
    gid = json.loads(stored)["id"]
    page.click("#btn-games")
    assert w["finished"] in rows(page)[0]
    page.click(f"#game-replay-{gid}")
    bar = page.locator("[data-testid=replay]")
    assert w["replay"] in bar.inner_text()
    assert page.locator("#replay-back").is_disabled()
    assert page.locator("[data-testid=log] li").count() == 1  # the empty log's line
    for _ in range(3):
        page.click("#replay-next")
    assert w["move"] in page.locator("[data-testid=replay-position]").inner_text()
    assert page.locator("[data-testid=log] li").count() >= 3
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert w["move"] in page.locator("[data-testid=replay-position]").inner_text()
    page.select_option("#replay-round", index=2)
    assert page.locator("[data-testid=round]").inner_text().startswith(f"{w['round']} 3")
    tiles = page.locator("[data-testid=player-0] [data-testid=tile]").count()
    page.click("#replay-last")
    assert page.locator("#replay-next").is_disabled()
    assert page.locator("[data-testid=scoring]").count() == 1
    assert page.locator("[data-testid=player-0] [data-testid=tile]").count() >= tiles
    page.click("#replay-close")
    assert bar.count() == 0
    assert stored_raw(page) == stored and record(page) == played


# ---------------------------------------------------------------------------- two devices


def play_turn(page: Page) -> str:
    """Play this device's turn (the e2e policy) until "Send your move" opens; the link."""
    for _ in range(400):
        if page.locator("[data-testid=dialog-send]").count():
            return page.locator("#send-link").input_value()
        step = page.evaluate(POLICY_STEP)
        assert step not in ("stuck", "over"), step
    raise AssertionError("the turn never went to the friend")


def open_link(page: Page, link: str) -> None:
    page.goto(link)  # same document: a hashchange


def friend_device(ctx: BrowserContext, site_url: str, guard, open_app) -> Page:
    """The friend's device: a booted page of its own context, welcome dialog closed."""
    b = ctx.new_page()
    guard.attach(b)
    open_app(b, site_url)
    close_first_dialog(b)
    return b


def start_with_a_friend(a: Page, seed: str, friend: str | None = None) -> None:
    """On device A: a new 2-player game, Ann here and seat 2 a friend elsewhere."""
    close_first_dialog(a)
    a.click("#btn-new")
    a.select_option("#dlg-first", "2")
    a.fill("#ng-name0", "Ann")
    if friend is not None:
        a.fill("#ng-name1", friend)
    a.select_option("#ng-seat1", "friend")
    a.fill("#ng-seed", seed)
    a.click("#ng-start-btn")


def test_two_devices_play_a_correspondence_game_by_links(
    app_page: Page, browser: Browser, site_url: str, guard, open_app
) -> None:
    a = app_page
    ctx = browser.new_context(locale="de-DE")
    try:
        b = friend_device(ctx, site_url, guard, open_app)
        start_with_a_friend(a, "corr-e2e", "Bo")
        lengths = []
        link = play_turn(a)
        lengths.append(len(link))
        a.click("#dlg-first")  # close
        assert "Bo" in a.locator("[data-testid=corr-text]").inner_text()
        assert a.locator("#yard-G").is_disabled() and a.locator("#act-roll").is_disabled()

        # B: a tampered link is refused (in German), nothing stored changes
        data = link.split(".")[-1]
        tampered = link[: -len(data)] + data[:30] + ("A" if data[30] != "A" else "B") + data[31:]
        before = storage(b)
        open_link(b, tampered)
        bad = b.locator("[data-key='corr.bad_link']")
        assert "Prüfsumme" in bad.inner_text()
        assert storage(b) == before
        b.click("[data-key='corr.bad_link'] .x")
        # B: the real link; it asks which seat it plays (Bo, suggested)
        open_link(b, link)
        b.locator("[data-testid=dialog-claim]").wait_for()
        assert b.locator("#claim-seat1").is_checked()
        b.click("[data-testid=dialog-claim] #dlg-first")
        assert "Bo" in b.locator("[data-testid=turn]").inner_text()
        first_link = link

        devices = [(b, a), (a, b)]
        turns = 0
        while True:
            me, other = devices[turns % 2]
            link = play_turn(me)
            lengths.append(len(link))
            over = me.locator("[data-testid=scoring]").count() == 1
            me.click("#dlg-first")
            open_link(other, link)
            other.locator("[data-key='corr.updated']").wait_for()
            assert record(other) == record(me)
            if turns == 2:  # A opens the first, older link again: refused
                before = storage(a)
                open_link(a, first_link)
                stale = a.locator("[data-key='corr.stale']")
                assert "earlier point of your game" in stale.inner_text()
                assert storage(a) == before
                a.click("[data-key='corr.stale'] .x")
            turns += 1
            if over:
                break
        assert a.locator("[data-testid=scoring]").count() == 1
        assert b.locator("[data-testid=scoring]").count() == 1
        assert a.locator("[data-testid=total-0]").inner_text() == \
            b.locator("[data-testid=total-0]").inner_text()

        # a diverging link: another continuation of the first position
        game = parse_game_link(first_link)
        played = Board.from_record(record(b)).actions
        alt = None
        for action in game.board.legal_actions():
            trial = game.board.copy()
            trial.push(action)
            if trial.actions != played[: len(trial.actions)]:
                alt = trial
                break
        assert alt is not None
        alt_link = site_url.rstrip("/") + "/#" + make_game_link(alt, game.seats, game.nonce)
        count = len(storage(b))
        open_link(b, alt_link)
        b.locator("[data-key='corr.diverged']").wait_for()
        assert b.locator("[data-testid=scoring]").count() == 1  # the open game stays
        b.click("#btn-games")
        assert b.locator("[data-testid=game-note]").count() == 1
        assert len(storage(b)) == count + 1
        print(f"game link lengths (chars, whole URL): {lengths} "
              f"min {min(lengths)} max {max(lengths)} turns {len(lengths)}")
    finally:
        ctx.close()


def test_friend_seat_is_named_shared_and_its_link_applies_in_a_new_tab(
    app_page: Page, browser: Browser, site_url: str, guard, open_app
) -> None:
    """A seat "a friend elsewhere": named as a person (never a computer, never a string
    key), Share works and carries no computer seat; the friend's move, opened in a new
    tab while the game is open in another one, applies in the new tab at once."""
    a = app_page
    ctx = browser.new_context(locale="de-DE")
    try:
        b = friend_device(ctx, site_url, guard, open_app)
        start_with_a_friend(a, "corr-tab")
        link = play_turn(a)
        a.click("#dlg-first")  # close "Send your move"
        player = a.locator("[data-testid=player-1]").inner_text()
        assert "Player 2" in player and "plays elsewhere" in player
        assert "seat." not in a.locator("body").inner_text()
        assert a.locator("[data-testid=turn]").inner_text() == "Player 2's turn (plays elsewhere)"
        # Share: the same seeded game for someone else, with no computer seat in it
        a.click("#btn-share")
        share = a.locator("[data-testid=share-link]").input_value()
        assert share.startswith(site_url) and "#play?" in share and "bots=" not in share
        a.keyboard.press("Escape")
        # the friend (device B, German) plays and sends the move back
        open_link(b, link)
        b.locator("[data-testid=dialog-claim]").wait_for()
        b.click("[data-testid=dialog-claim] #dlg-first")
        assert "Computer" not in b.locator("#players").inner_text()
        reply = play_turn(b)
        b.click("#dlg-first")
        # device A opens the reply in a new tab while its first tab has the game open
        tab = a.context.new_page()
        guard.attach(tab)
        tab.goto(reply, wait_until="commit")
        tab.locator("[data-key='corr.updated']").wait_for()
        assert record(tab) == record(b)
        assert tab.locator("[data-key='notice.other_tab']").count() == 0
        assert not tab.locator("#yard-G").is_disabled()  # Ann's turn, played here
        # the first tab steps aside: read-only, showing the same game
        a.locator("[data-key='notice.other_tab']").wait_for()
        turn = tab.locator("[data-testid=turn]").inner_text()
        a.locator("[data-testid=turn]", has_text=turn).wait_for()
        tab.close()
    finally:
        ctx.close()
