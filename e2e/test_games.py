"""The game list, the replay and correspondence play in the browser: what needs one.

The page's decisions are proven under CPython in both languages
(``tests/test_games_page.py``: the list's open, rename, delete, undo, export and import,
``test_game_list_open_rename_delete_undo_export_import``; the replay's steps and jumps,
``test_replay_steps_and_jumps_and_never_changes_the_game``; two devices passing game
links to the end of a game with a stale, a tampered and a diverging link,
``test_two_devices_play_a_correspondence_game_to_the_end``; a friend's link in a new tab,
``test_a_friends_link_in_a_new_tab_applies_there_while_another_tab_has_the_game``).
Here, in English (German for the second device): a real download and a file picked for
import, the replay's keys and round menu, and two browser contexts passing links through
the address bar for the first turns, with a tampered and a stale link and the lock handed
to a new tab."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from board_helpers import (
    close_first_dialog,
    new_game,
    play_turn,
    record,
    start_with_a_friend,
    stored_raw,
    take,
)
from playwright.sync_api import BrowserContext, Page

from skyline import Board, Options
from skyline.players.bots import BOTS

WORDS = {"games": "Games", "title": "Your games", "deleted": "was deleted", "round": "Round",
         "replay": "Replay", "move": "Move 3 of", "finished": "Finished"}


def rows(page: Page) -> list[str]:
    return page.locator("[data-testid=game-row]").all_inner_texts()


def storage(page: Page) -> dict[str, str]:
    """What the page keeps, but the picture of its last render (web/boot.js writes it
    400 ms after a render: a cache, no game)."""
    return page.evaluate("Object.fromEntries(Object.entries(localStorage)"
                         ".filter(([key]) => key !== 'skyline.snapshot'))")


def load_finished(page: Page, wait_ready) -> None:
    """A solo game played to its end by the engine's greedy bot, stored as the single save
    of an older version (the page moves it into its game list) and opened."""
    board = Board(Options(("Ann",), "replay1", 0, False, None))
    rng = random.Random(1)
    while not board.is_game_over():
        board.push(BOTS["greedy"](board.state, rng))
    envelope = {"v": 1, "game": json.loads(board.to_json()), "saved_at": "2026-01-01T00:00:00Z"}
    page.evaluate("s => localStorage.setItem('skyline.save', s)", json.dumps(envelope))
    page.reload(wait_until="commit")
    wait_ready(page)
    page.locator("[data-testid=scoring]").wait_for()


def test_game_list(app_page: Page, tmp_path: Path) -> None:
    """Open, rename, export (a real download), delete, undo and import (a file picked in
    the file input); German and the rest: tests/test_games_page.py."""
    page = app_page
    w = WORDS
    close_first_dialog(page)
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
    # a file too large to be a game is refused by its size, unread, and said so
    page.set_input_files("#game-import", files=[{
        "name": "huge.json", "mimeType": "application/json", "buffer": b" " * 2_000_001}])
    page.locator("[data-key='games.import_too_large']").wait_for()
    assert storage(page) == before


def test_replay(app_page: Page, wait_ready) -> None:
    """A finished game (played by the engine's greedy bot, opened as a save) replayed by
    clicks, the arrow keys and the round menu; German and every step:
    tests/test_games_page.py."""
    page = app_page
    w = WORDS
    load_finished(page, wait_ready)
    stored = stored_raw(page)
    played = record(page)
    gid = json.loads(stored)["id"]
    page.click("#btn-games")
    row = page.locator("[data-testid=game-row]", has=page.locator(f"#game-replay-{gid}"))
    assert w["finished"] in row.inner_text()
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


def open_link(page: Page, link: str) -> None:
    page.goto(link)  # same document: a hashchange


def friend_device(ctx: BrowserContext, site_url: str, guard, open_app) -> Page:
    """The friend's device: a booted page of its own context, welcome dialog closed."""
    b = ctx.new_page()
    guard.attach(b)
    open_app(b, site_url)
    close_first_dialog(b)
    return b


def test_two_devices_pass_game_links(
    app_page: Page, warm_context: Callable[..., BrowserContext], site_url: str, guard, open_app
) -> None:
    """Device A (English) and device B (German, a browser context of its own) pass the
    first turns by links opened in the address bar: a friend's seat named as a person,
    Share without a computer seat, a tampered link refused, the claim, the reply opened
    in a new tab of A while the first tab has the game (the lock goes to the new tab),
    and the first, older link refused there. The rest of a game to its end, with a
    diverging link: tests/test_games_page.py
    (``test_two_devices_play_a_correspondence_game_to_the_end``)."""
    a = app_page
    ctx = warm_context(locale="de-DE")
    try:
        b = friend_device(ctx, site_url, guard, open_app)
        start_with_a_friend(a, "corr-e2e")
        first_link = play_turn(a)
        a.click("#dlg-first")  # close "Send your move"
        player = a.locator("[data-testid=player-1]").inner_text()
        assert "Player 2" in player and "plays elsewhere" in player
        assert "seat." not in a.locator("body").inner_text()
        assert a.locator("[data-testid=turn]").inner_text() == "Player 2's turn (plays elsewhere)"
        assert a.locator("#yard-G").is_disabled() and a.locator("#act-roll").is_disabled()
        # Share: the same seeded game for someone else, with no computer seat in it
        a.click("#btn-share")
        share = a.locator("[data-testid=share-link]").input_value()
        assert share.startswith(site_url) and "#play?" in share and "bots=" not in share
        a.keyboard.press("Escape")

        # B: a tampered link is refused (in German), nothing stored changes
        data = first_link.split(".")[-1]
        tampered = (first_link[: -len(data)] + data[:30]
                    + ("A" if data[30] != "A" else "B") + data[31:])
        before = storage(b)
        open_link(b, tampered)
        bad = b.locator("[data-key='corr.bad_link']")
        assert "Prüfsumme" in bad.inner_text()
        assert storage(b) == before
        b.click("[data-key='corr.bad_link'] .x")
        # B: the real link; it asks which seat it plays (the friend's, suggested)
        open_link(b, first_link)
        b.locator("[data-testid=dialog-claim]").wait_for()
        assert b.locator("#claim-seat1").is_checked()
        b.click("[data-testid=dialog-claim] #dlg-first")
        assert "Computer" not in b.locator("#players").inner_text()
        reply = play_turn(b)
        b.click("#dlg-first")

        # A opens the reply in a new tab while its first tab has the game open
        tab = a.context.new_page()
        guard.attach(tab)
        tab.goto(reply, wait_until="commit")
        tab.locator("[data-key='corr.updated']").wait_for()
        assert record(tab) == record(b)
        assert tab.locator("[data-key='notice.other_tab']").count() == 0
        # B's turn plays on the board (tests/test_screen_cues.py), then it is Ann's, here
        tab.locator("[data-testid=bot-bar]").wait_for(state="detached")
        assert not tab.locator("#yard-G").is_disabled()
        # the first tab steps aside: read-only, showing the same game
        a.locator("[data-key='notice.other_tab']").wait_for()
        turn = tab.locator("[data-testid=turn]").inner_text()
        a.locator("[data-testid=turn]", has_text=turn).wait_for()
        # the first, older link is refused where the game is now, which stays as it is
        before = storage(tab)
        open_link(tab, first_link)
        stale = tab.locator("[data-key='corr.stale']")
        assert "earlier point of your game" in stale.inner_text()
        assert storage(tab) == before
        tab.close()
    finally:
        ctx.close()
