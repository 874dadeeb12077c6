"""The game list, the replay and correspondence play on the page, under CPython with a
fake host (tests/web_fakes.py): storage layout, migration of every shipped save version,
broken entries, two tabs per game, storage full; open, rename, delete with undo,
export and import; replay steps; two devices passing game links to the end, with a
stale, a diverging and a tampered link. English and German."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from app import render as board_view
from app import screen as sm
from app.core.bridge import PageEvent
from app.core.commands import IMPORT_LIMIT_BYTES
from app.core.html import esc
from app.core.store import KEY_INDEX, KEY_SAVE
from app.core.store import entry_key as game_key
from app.core.words import log_view
from app.games import ui as games_ui
from app.games.state import ClaimDialog, SendDialog
from web_fakes import FakeHost, QuotaExceededError, make_page, start_game, tables

from skyline import Phase
from skyline.players.bots import get_bot
from skyline.records import SAVE_VERSIONS, read_save
from skyline.records.game_links import MAX_GAME_LINK_CHARS, make_game_link, parse_game_link
from skyline.records.game_list import entry_to_json, read_entry, read_index
from skyline.records.links import MAX_LINK_CHARS

FIXTURES = Path(__file__).parent / "fixtures" / "saves"
TABLES_EN, TABLES_DE = tables()["en"], tables()["de"]
LANGS = ("en", "de")


def entries(host: FakeHost) -> dict[str, str]:
    return {k: v for k, v in host.storage.items() if k.startswith("skyline.game.")}


def start(c, names=("Ann", "Bo"), seats=("human", "human"), seed="corr1") -> None:
    start_game(c, names, seats, seed)


def play_here(c, bot="greedy", limit=200) -> None:
    """Play this device's turns (with a bot's choices) until the turn leaves it."""
    for _ in range(limit):
        b = c.board
        if b.state.phase is Phase.OVER or not c.page.seat_kind(b.state.seat).is_here:
            return
        rng = random.Random(len(b.actions))
        assert c.play.dispatch(get_bot(bot)(b.state, rng))
    raise AssertionError("turn never ended")


def fragment(link: str) -> str:
    return "#" + link.split("#", 1)[1]


# ---------------------------------------------------------------------------- storage


@pytest.mark.parametrize("version", SAVE_VERSIONS)
def test_each_shipped_single_save_migrates_into_the_list_on_start(version):
    raw = (FIXTURES / f"v{version}.json").read_text(encoding="utf-8")
    saved = read_save(raw)
    c, host, _ = make_page(storage={KEY_SAVE: raw}, bots=False)
    assert KEY_SAVE not in host.storage
    (key, text), = entries(host).items()
    entry = read_entry(text)
    assert key == game_key(entry.id) and c.session.entry.id == entry.id
    assert entry.board.state == saved.board.state == c.board.state
    assert read_index(host.storage[KEY_INDEX]).current == entry.id
    c2, host2, _ = make_page(storage=dict(host.storage), bots=False)  # a second start
    assert c2.board.state == saved.board.state and entries(host2) == entries(host)


def test_new_games_are_entries_and_an_untouched_one_is_replaced():
    c, host, _ = make_page(bots=False)
    assert len(entries(host)) == 1  # the first visit's default game
    start(c)
    assert len(entries(host)) == 1  # the untouched default game made room
    play_here(c)
    start(c, ("Cy",), ("human",), seed="solo1")
    assert len(entries(host)) == 2
    index = read_index(host.storage[KEY_INDEX])
    assert index.current == c.session.entry.id
    assert {r.id for r in index.rows} == set(c.session.library.games.entries)


def test_broken_entry_is_kept_aside_and_exportable_and_others_load():
    c, host, _ = make_page(bots=False)
    start(c)
    play_here(c)
    good = dict(host.storage)
    good[game_key("aaaaaaaaaaaa")] = '{"v":1,"kind":"skyline-entry"'
    c2, host2, _ = make_page(storage=good, bots=False)
    broken = [k for k in host2.storage if k.startswith("skyline.games.broken.")]
    assert len(broken) == 1 and host2.storage[broken[0]] == '{"v":1,"kind":"skyline-entry"'
    assert game_key("aaaaaaaaaaaa") not in host2.storage
    assert c2.board.state == c.board.state
    note = next(n for n in c2.page.notices if n.key == "games.entry_broken")
    c2.handle("click", note.button.action, note.button.arg)
    assert c2.page.dialog.text == '{"v":1,"kind":"skyline-entry"'


def test_two_tabs_never_overwrite_a_game_the_other_changed():
    c, host, _ = make_page(bots=False)
    start(c)
    key = game_key(c.session.entry.id)
    other = FakeHost(host.storage)  # the same storage, another tab
    c2, _, _ = make_page(host=other, bots=False)
    assert c2.session.entry.id == c.session.entry.id
    play_here(c)
    stored = host.storage[key]
    b = c2.board
    c2.play.dispatch(get_bot("greedy")(b.state, random.Random(1)))  # a move on the old state
    assert host.storage[key] == stored and c2.page.readonly
    assert c2.board.state == c.board.state  # it shows the other tab's game now


@pytest.mark.parametrize("refused, notice", [
    (QuotaExceededError, "notice.storage_full"),  # space used up: said, with what to do
    (OSError, "notice.not_saved"),  # refused for another reason (a blocked store)
])
def test_storage_full_keeps_playing_in_memory_and_changes_nothing_stored(refused, notice):
    c, host, _ = make_page(bots=False)
    start(c)
    before = dict(host.storage)
    host.fail_set = refused
    play_here(c)
    assert host.storage == before and c.board.actions
    keys = [n.key for n in c.page.notices]
    other = ({"notice.storage_full", "notice.not_saved"} - {notice}).pop()
    assert notice in keys and other not in keys


@pytest.mark.parametrize("lang", LANGS)
def test_a_full_store_says_so_and_goes_once_space_is_freed(lang):
    """The save of a move that a full store refused (the page's answer "full"): the
    player is told space is the problem and what to do; freed, the notice goes."""
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c)
    host.fail_set = QuotaExceededError
    c.handle("click", "take", "0")
    text = c.texts.t("notice.storage_full")
    assert c.texts.t("btn.games") in text and esc(text) in host.html["notices"]
    host.fail_set = None
    c.handle("click", "take", "0")
    assert "notice.storage_full" not in [n.key for n in c.page.notices]


@pytest.mark.parametrize("lang", LANGS)
def test_the_not_saved_notice_goes_once_a_save_succeeds_again(lang):
    """Storage full, then space freed: the next move is saved and the notice that
    nothing is saved goes; full again, it is said again."""
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c)
    host.fail_set = OSError
    c.handle("click", "take", "0")
    assert "notice.not_saved" in [n.key for n in c.page.notices]
    host.fail_set = None
    c.handle("click", "take", "0")
    assert "notice.not_saved" not in [n.key for n in c.page.notices]
    assert "notice.not_saved" not in host.html["notices"]
    stored = read_entry(host.storage[game_key(c.session.entry.id)])
    assert stored.takes == "GG"
    host.fail_set = OSError
    c.handle("click", "take", "1")
    assert "notice.not_saved" in [n.key for n in c.page.notices]


def test_storage_blocked_still_plays():
    host = FakeHost()
    host.fail_get = OSError
    c, _, _ = make_page(host=host, bots=False)
    start(c)
    play_here(c)
    assert c.board.actions and any(n.key == "notice.not_saved" for n in c.page.notices)


# ---------------------------------------------------------------------------- the list


@pytest.mark.parametrize("lang", LANGS)
def test_game_list_open_rename_delete_undo_export_import(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c, ("Ann", "Bo"))
    play_here(c)
    first = c.session.entry.id
    start(c, ("Cy",), ("human",), seed="solo1")
    second = c.session.entry.id
    c.handle("click", "games", None)
    screen = c.renderer.screen()
    assert isinstance(screen.dialog, games_ui.GamesView)
    rows = {r.id: r for r in screen.dialog.rows}
    assert rows[second].current and not rows[first].current
    assert rows[first].players.startswith("Ann (")
    html = board_view.render(screen)["dialog"]
    assert html.count('data-testid="game-row"') == 2
    # open the other game
    c.handle("click", "game-open", first)
    assert c.session.entry.id == first and c.board.options.names == ("Ann", "Bo")
    # rename it
    c.handle("click", "games", None)
    c.handle("click", "game-rename", first)
    assert 'id="game-name"' in board_view.render(c.renderer.screen())["dialog"]
    c.handle("submit", "game-rename-save", None, form={"id": first, "name": "<b>Friday</b>"})
    assert read_entry(host.storage[game_key(first)]).name == "<b>Friday</b>"
    assert "&lt;b&gt;Friday" in board_view.render(c.renderer.screen())["dialog"]
    # export, delete, undo
    c.handle("click", "game-export", second)
    name, text = host.files[-1]
    assert name == f"skyline-{second}.json" and read_entry(text).id == second
    c.handle("click", "game-delete", second)
    assert game_key(second) not in host.storage
    note = next(n for n in c.page.notices if n.key == "games.deleted")
    c.handle("click", "game-undelete", note.button.arg)
    assert read_entry(host.storage[game_key(second)]).id == second
    # import: the same file again, then after deleting it
    c.handle("click", "game-import-text", None, form={"text": text})
    assert c.page.notices[-1].key == "games.import_same"
    c.handle("click", "game-delete", second)
    c.handle("click", "game-import-text", None, form={"text": text})
    assert c.page.notices[-1].key == "games.imported" and game_key(second) in host.storage
    before = dict(host.storage)
    c.handle("click", "game-import-text", None, form={"text": text[:-9]})
    assert c.page.notices[-1].key == "games.import_failed" and host.storage == before
    sm_text = c.renderer.screen().notices[-1].text
    assert ("cannot be imported" if lang == "en" else "lässt sich nicht importieren") in sm_text
    # a file over the limit arrives unread, with its size (web/js/files.js): named as
    # too large, with the limit, never as a file that is not valid JSON
    c.handle("click", "game-import-text", None,
             form={"text": "", "bytes": str(IMPORT_LIMIT_BYTES + 1)})
    assert c.page.notices[-1].key == "games.import_too_large" and host.storage == before
    sm_text = c.renderer.screen().notices[-1].text
    assert "2 MB" in sm_text and ("too large" if lang == "en" else "zu groß") in sm_text
    assert "JSON" not in sm_text


def test_import_updates_only_a_continuation_and_keeps_a_divergence():
    c, host, _ = make_page(bots=False)
    start(c)
    play_here_both(c, 1)  # Ann's first turn
    early = entry_to_json(c.session.entry_now())
    play_here_both(c, turns=2)
    late = entry_to_json(c.session.entry_now())
    gid = c.session.entry.id
    c.handle("click", "game-import-text", None, form={"text": early})
    assert c.page.notices[-1].key == "games.import_stale"
    assert read_entry(host.storage[game_key(gid)]).board.actions == c.board.actions
    # an older copy of the game on this device is continued by the file
    c.handle("click", "game-delete", gid)
    c.handle("click", "game-import-text", None, form={"text": early})
    c.handle("click", "game-import-text", None, form={"text": late})
    assert c.page.notices[-1].key == "games.import_updated"
    # another continuation of "early": kept beside it
    other = read_entry(early)
    board = other.board
    alternatives = [a for a in board.legal_actions()]
    rng = random.Random(5)
    board.push(rng.choice(alternatives))
    c.handle("click", "game-import-text", None,
             form={"text": entry_to_json(other._replace(board=board))})
    assert c.page.notices[-1].key in ("games.import_diverged", "games.import_stale")


def play_here_both(c, turns: int) -> None:
    """Play ``turns`` turns whoever's they are (a local 2-player game)."""
    for _ in range(turns):
        seat = c.board.state.seat
        while c.board.state.seat == seat and c.board.state.phase is not Phase.OVER:
            b = c.board
            assert c.play.dispatch(get_bot("greedy")(b.state, random.Random(len(b.actions))))


# ---------------------------------------------------------------------------- replay


@pytest.mark.parametrize("lang", LANGS)
def test_replay_steps_and_jumps_and_never_changes_the_game(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c)
    play_here_both(c, 5)
    gid = c.session.entry.id
    stored = host.storage[game_key(gid)]
    actions = c.board.actions
    c.handle("click", "games", None)
    c.handle("click", "game-replay", gid)
    s = c.renderer.screen()
    assert s.game.replay is not None and s.game.replay.at_start
    assert all(not cmd.enabled and cmd.reason_key == "why.replay" for cmd in s.commands)
    assert s.status.text == c.session.t("status.round", round=1)
    for _ in range(4):
        c.handle("click", "replay-next", None)
    assert c.page.replay.step == 4
    shown = games_ui.board_at(c.page.replay.record, 4)
    assert c.renderer.screen().players[0].tiles == sm.build_screen(
        c.page.__class__(), shown, c.texts).players[0].tiles
    assert len(c.renderer.screen().log.entries) == len(log_view(shown.log(), ["Ann", "Bo"],
                                                           c.texts).entries)
    c.handle("keydown", None, None, key="ArrowLeft")
    assert c.page.replay.step == 3
    rounds = c.renderer.screen().game.replay.rounds
    assert [r[1] for r in rounds][:2] == [c.session.t("replay.round_option", round=1),
                                          c.session.t("replay.round_option", round=2)]
    c.handle("change", "replay-round", None, form={"value": str(rounds[1][0])})
    assert c.renderer.screen().status.text == c.session.t("status.round", round=2)
    c.handle("click", "take", "0")  # refused: a replay never changes the game
    c.handle("click", "replay-last", None)
    assert c.page.replay.step == len(actions) and c.renderer.screen().game.replay.at_end
    html = board_view.render(c.renderer.screen())["turn"]
    assert 'data-testid="replay"' in html and 'id="act-roll"' not in html
    c.handle("click", "replay-close", None)
    assert c.page.replay is None and c.board.actions == actions
    assert host.storage[game_key(gid)] == stored


# ---------------------------------------------------------------------------- two devices


def test_two_devices_play_a_correspondence_game_to_the_end():
    a, host_a, _ = make_page(bots=False)
    b, host_b, _ = make_page(langs=("de",), bots=False)
    start(a, ("Ann", "Bo"), ("human", "friend"))
    play_here(a)
    assert isinstance(a.page.dialog, SendDialog) and a.page.dialog.seat == 1
    link = a.page.dialog.link
    lengths = [len(link)]
    # A refuses moves for Bo
    a.handle("click", "close", None)
    assert all(not cmd.enabled for cmd in a.renderer.screen().commands)
    a.handle("click", "take", "0")
    assert a.page.notices[-1].key == "corr.not_yours" and a.page.takes == []
    assert "Bo" in a.renderer.screen().game.corr.text
    # B opens it: an unknown game, it asks for the seat (Bo suggested)
    b.handle("hashchange", None, fragment(link))
    assert isinstance(b.page.dialog, ClaimDialog) and b.page.dialog.suggested == 1
    b.handle("submit", "corr-claim", None, form={"seat1": "on"})
    assert b.session.entry.seats == ("friend", "here") and b.board.actions == a.board.actions
    old_link = link
    turns = 0
    stale_done = tampered_done = False
    while not a.board.is_game_over():
        for me, other in ((b, a), (a, b)):
            if me.board.is_game_over():
                break
            play_here(me)
            d = me.page.dialog
            assert isinstance(d, SendDialog), (turns, me.board.state)
            link = d.link
            lengths.append(len(link))
            me.handle("click", "close", None)
            if not tampered_done:
                body = link.rsplit(".", 1)
                bad = body[0] + "." + body[1][:20] + ("A" if body[1][20] != "A" else "B") + \
                    body[1][21:]
                before = dict(other.host.storage)
                other.handle("hashchange", None, fragment(bad))
                assert other.page.notices[-1].key == "corr.bad_link"
                assert other.host.storage == before
                tampered_done = True
            other.handle("hashchange", None, fragment(link))
            assert other.board.actions == me.board.actions, "update"
            if not stale_done and other is a:
                before = dict(host_a.storage)
                a.handle("hashchange", None, fragment(old_link))
                assert a.page.notices[-1].key == "corr.stale"
                assert host_a.storage == before
                stale_done = True
            turns += 1
    assert b.board.is_game_over() and a.board.state == b.board.state
    # a diverging link: an alternative continuation of an earlier position
    early = parse_game_link(fragment(old_link)).board
    rng = random.Random(3)
    while True:
        alt = early.copy()
        alt.push(rng.choice(alt.legal_actions()))
        if alt.actions != b.board.actions[: len(alt.actions)]:
            break
    div = make_game_link(alt, ("human", "human"), a.session.entry.nonce)
    count = len(a.session.library.games)
    a.handle("hashchange", None, "#" + div)
    assert a.page.notices[-1].key == "corr.diverged"
    assert len(a.session.library.games) == count + 1
    kept = [e for e in a.session.library.games.entries.values() if e.diverged_from]
    assert kept and kept[0].board.actions == alt.actions
    assert a.board.is_game_over()  # the open game was not overwritten
    assert stale_done and tampered_done
    assert max(lengths) < 2000, lengths


def test_a_friends_link_in_a_new_tab_applies_there_while_another_tab_has_the_game():
    """A friend's move arrives by link in a new tab while this device has the game open
    in another tab (which holds the lock): the new tab takes the game over at once and
    shows the move (and says whose turn it is); the old tab becomes read-only."""
    a, host_a, _ = make_page(bots=False)
    friend, _, _ = make_page(bots=False)
    start(a, ("Ann", "Bo"), ("human", "friend"))
    play_here(a)
    link = a.page.dialog.link
    friend.handle("hashchange", None, fragment(link))
    friend.handle("submit", "corr-claim", None, form={"seat1": "on"})
    play_here(friend)
    reply = friend.page.dialog.link
    # a new tab of device A opens the reply; tab a still has the game (lock busy)
    tab = FakeHost(host_a.storage)
    tab.lock_answer = "granted"  # taking the lock over succeeds
    b, _, _ = make_page(host=tab, bots=False)
    b.handle("tab", "busy", None)
    assert b.page.readonly
    b.handle("hashchange", None, fragment(reply))
    assert not b.page.readonly
    assert b.board.actions == friend.board.actions
    assert b.page.notices[-1].key == "corr.updated"
    assert "notice.other_tab" not in [n.key for n in b.page.notices]
    # the stored game is the continued one; tab a, told it lost the lock, follows it
    a.handle("tab", "lost", None)
    a.handle("tab", "saved", game_key(b.session.entry.id))
    assert a.page.readonly and a.board.actions == friend.board.actions


@pytest.mark.parametrize("lang", LANGS)
def test_send_dialog_share_copy_and_qr(lang):
    a, host, _ = make_page(langs=(lang,), bots=False)
    start(a, ("Ann", "Bo"), ("human", "friend"))
    play_here(a)
    s = a.renderer.screen()
    assert isinstance(s.dialog, games_ui.SendView) and not s.dialog.can_share
    a.handle("click", "corr-copy", None)
    assert host.copied[-1] == a.page.dialog.link and a.page.dialog.copied
    host.share_ok = True
    assert a.renderer.screen().dialog.can_share
    a.handle("click", "corr-share", None)
    assert host.shared[-1] == a.page.dialog.link and a.page.dialog.shared
    a.handle("click", "corr-qr", None)
    svg = a.page.dialog.qr
    assert svg.startswith("<svg") and 'class="qr"' in svg
    html = board_view.render(a.renderer.screen())["dialog"]
    assert 'data-testid="qr"' in html and a.session.t("corr.qr_label") in html
    host.qr_ok = False
    a.page.dialog.qr = None
    a.handle("click", "corr-qr", None)
    assert a.page.dialog.qr == "failed"
    assert a.renderer.screen().dialog.qr_status == a.session.t("corr.qr_failed")


def test_notices_follow_a_change_of_language():
    """A notice's parts (why a link was refused, whose turn it is) are translated when
    shown, like the notice: after a switch to German no English is left in it."""
    a, _, _ = make_page(bots=False)
    start(a, ("Ann", "Bo"), ("human", "friend"))
    play_here(a)
    link = a.page.dialog.link
    b, _, _ = make_page(bots=False)
    b.handle("hashchange", None, fragment(link))
    b.handle("submit", "corr-claim", None, form={"seat1": "on"})
    b.handle("hashchange", None, "#play?p=Ann&seed=x&start=9")  # a bad start seat
    keys = [n.key for n in b.page.notices]
    assert keys[-2:] == ["corr.added", "notice.bad_link"]
    b.handle("click", "lang", "de")
    shown = {n.key: n.text for n in b.renderer.screen().notices}
    assert "Bo" in shown["corr.added"]
    assert b.session.t("corr.state_you", name="Bo") in shown["corr.added"]
    en = TABLES_EN["corr.state_you"].replace("{name}", "Bo")
    assert en not in shown["corr.added"]
    reason = shown["notice.bad_link"]
    assert TABLES_EN["error.option.start_seat"] not in reason
    assert TABLES_DE["error.option.start_seat"].split("{")[0] in reason


def test_claim_needs_a_seat():
    a, _, _ = make_page(bots=False)
    b, _, _ = make_page(bots=False)
    start(a, ("Ann", "Bo"), ("human", "friend"))
    play_here(a)
    b.handle("hashchange", None, fragment(a.page.dialog.link))
    b.handle("submit", "corr-claim", None, form={})
    assert b.page.dialog.error == b.session.t("corr.claim_none")
    assert len(b.session.library.games) == 1  # only its own default game


def test_every_new_string_is_in_both_tables():
    i18n = Path(__file__).resolve().parent.parent / "web" / "i18n"
    tables = {lang: json.loads((i18n / f"{lang}.json")
                               .read_text(encoding="utf-8")) for lang in LANGS}
    keys = {k for k in tables["en"] if k.startswith(("games.", "replay.", "corr."))}
    assert len(keys) > 60 and keys <= set(tables["de"])
    for key in keys:
        assert tables["de"][key] != "" and tables["en"][key] != ""


def test_options_of_seats_offer_a_friend_only_with_several_players():
    c, _, _ = make_page(bots=False)
    c.handle("click", "newgame", None)
    c.handle("change", "ng-change", None, form={"count": "1"})
    assert "friend" not in [o.value for o in c.renderer.screen().dialog.names[0].seat_options]
    c.handle("change", "ng-change", None, form={"count": "2"})
    assert "friend" in [o.value for o in c.renderer.screen().dialog.names[1].seat_options]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("answer", ["granted", "denied", "unsupported", None])
def test_the_browser_is_asked_once_to_keep_the_games_and_the_list_says_its_answer(lang, answer):
    host = FakeHost()
    host.persist_answer = answer
    c, host, _ = make_page(host=host, langs=(lang,), bots=False)
    assert host.persist_asked == 0  # a first visit's untouched game is no reason to ask
    start(c)
    assert host.persist_asked == 0
    c.handle("click", "games", None)
    assert 'data-testid="games-kept"' not in host.html["dialog"]
    c.handle("click", "close", None)
    play_here(c)  # the first move puts a game in the list: ask, once
    assert host.persist_asked == 1
    c.handle("click", "games", None)
    table = tables()[lang]
    shown = host.html["dialog"]
    # no answer yet (a prompt the player left open) is no promise to keep them either
    key = "games.kept" if answer == "granted" else "games.not_kept"
    assert f'data-testid="games-kept">{board_view.esc(table[key])}</p>' in shown
    # a later visit with games in the list asks at once, and again only once
    c2, host2, _ = make_page(storage=host.storage, langs=(lang,), bots=False)
    assert host2.persist_asked == 1


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_say_where_games_are_kept_and_export_the_open_game(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c)
    play_here(c)
    c.handle("click", "rules", None)
    table = tables()[lang]
    shown = host.html["dialog"]
    assert board_view.esc(table["rules.app.storage"]) in shown
    export = board_view.esc(table["rules.app.export"])
    assert f'id="rules-export" data-action="rules-export">{export}' in shown
    c.handle("click", "rules-export", None)
    name, text = host.files[-1]
    assert name == f"skyline-{c.session.entry.id}.json"
    assert read_entry(text).id == c.session.entry.id


def test_the_replay_title_isolates_the_game_name():
    """A game's name is the player's text: in the replay's title it sits in <bdi>, so a
    right-to-left name keeps the title's words in their order."""
    c, _, _ = make_page(bots=False)
    start(c)
    play_here_both(c, 2)
    gid = c.session.entry.id
    c.handle("click", "games", None)
    c.handle("click", "game-rename", gid)
    c.handle("submit", "game-rename-save", None, form={"id": gid, "name": "משחק 2"})
    c.handle("click", "games", None)
    c.handle("click", "game-replay", gid)
    html = board_view.render(c.renderer.screen())["turn"]
    assert "<bdi>משחק 2</bdi>" in html


def test_a_move_is_saved_with_its_render_and_no_crossing():
    """A move's save goes to the page with the render's batch (the entry compared and
    written, then the list's index): the worker waits for no round trip."""
    c, host, _ = make_page(bots=False)
    start(c)
    before = host.crossings
    c.handle("click", "take", "0")
    assert host.crossings == before
    index = read_index(host.storage[KEY_INDEX])
    assert index.current == c.session.entry.id
    stored = read_entry(host.storage[game_key(c.session.entry.id)])
    assert stored.takes == "G" and stored.board.actions == c.board.actions


def test_a_save_another_tab_refused_is_heard_after_the_render():
    """Another tab moved in the same game: this tab's move is drawn, then the page's
    answer (nothing written) makes this tab show the other tab's game, read-only, with
    the notice and its button; the stored game is the other tab's."""
    host = FakeHost()
    host.answers = []  # the page answers a save after the render, as an event
    c, host, _ = make_page(host=host, bots=False)
    start(c)
    key = game_key(c.session.entry.id)
    board = read_entry(host.storage[key]).board
    board.push(board.legal_actions()[-1])  # the other tab took other dice
    theirs = entry_to_json(read_entry(host.storage[key])._replace(board=board))
    host.storage[key] = theirs  # the other tab's save
    c.handle("click", "take", "0")
    assert not c.page.readonly and host.unsaved  # drawn; the answer is on its way
    (save_id, outcome), = host.unsaved
    assert outcome == "conflict"
    c.event(PageEvent("saved", save_id=save_id, outcome=outcome))
    assert c.page.readonly
    assert "notice.save_conflict" in [n.key for n in c.page.notices]
    assert host.storage[key] == theirs
    assert 'data-action="take-control"' in host.html["notices"]


def test_an_index_refused_after_its_game_was_saved_is_said_and_nothing_is_lost():
    """The store fills between the game and the index: the game is saved, the player is
    told nothing more can be saved, and the next save is no false conflict with
    another tab (this tab knows what it wrote)."""
    c, host, _ = make_page(bots=False)
    start(c)
    host.refuse = {KEY_INDEX}
    c.handle("click", "take", "0")
    gid = c.session.entry.id
    assert read_entry(host.storage[game_key(gid)]).takes == "G"
    assert "notice.storage_full" in [n.key for n in c.page.notices]
    host.refuse = set()
    c.handle("click", "take", "0")
    assert read_entry(host.storage[game_key(gid)]).takes == "GG"
    assert read_index(host.storage[KEY_INDEX]).current == gid
    keys = [n.key for n in c.page.notices]
    assert "notice.not_saved" not in keys and not any("conflict" in k or "other_tab" in k
                                                          for k in keys)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("link", "key", "part"), [
    ("#game?", "error.option.link_empty", "?"),  # not "another version of the app (?)"
    ("#game?1", "error.option.link_incomplete", ""),
    ("#game?1." + "A" * MAX_GAME_LINK_CHARS, "error.option.link_too_long",
     str(MAX_GAME_LINK_CHARS)),
    ("#play?p=Ann&seed=" + "x" * MAX_LINK_CHARS, "error.option.link_too_long",
     str(MAX_LINK_CHARS)),
    ("#foo?bar=1", "error.option.link_unknown", "#foo?"),  # was ignored, left in the bar
])
def test_each_broken_link_is_named_by_its_own_cause(lang, link, key, part):
    """At start (over the welcome, or as a notice over a game) and on hashchange: the
    reason is the link's own (empty, incomplete, too long, an unknown kind), in the
    player's language, the fragment leaves the address bar, the game is unchanged."""
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c)
    play_here(c)
    before = dict(host.storage)
    host.fragment_cleared = False
    c.handle("hashchange", None, link)
    assert host.fragment_cleared and host.storage == before
    text = c.renderer.screen().notices[-1].text
    expected = c.session.t(key, limit=part, kind="foo")
    assert expected in text and part in text, text
    assert c.session.t("error.option.link") not in text and "(?)" not in text
    # the same link opening the page: said over the welcome or over the game
    fresh, fresh_host, _ = make_page(langs=(lang,), fragment=link, bots=False)
    shown = fresh.renderer.screen()
    said = " ".join([n.text for n in shown.notices] + [getattr(shown.dialog, "notice", "") or ""])
    assert fresh_host.fragment_cleared and expected in said, said
