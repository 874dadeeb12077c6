"""Cues (app.core.cues): every action tells the page's motion and sound what it did,
once, naming elements the render draws; a reload shows the table still. And the Sound
switch: off until turned on, remembered, a corrupt setting told like the others."""

from __future__ import annotations

import json
import random
import re

import pytest
from app.core.cues import CueKind
from app.core.store import KEY_SETTINGS, KEY_SETTINGS_BROKEN
from page_html import attrs
from web_fakes import FakeHost, make_page, start_game, tables

from skyline import Abandon, Build, Demolish, Take

TABLES = tables()


class CueHost(FakeHost):
    """A fake host that also keeps the page as it was when each cue batch came (the
    cues' sources are elements of that page, their targets of the next one)."""

    def __init__(self, storage: dict[str, str] | None = None) -> None:
        super().__init__(storage)
        self.before: list[dict[str, str]] = []

    def cue(self, cues_json: str) -> None:
        super().cue(cues_json)
        self.before.append(dict(self.html))


def drawn(selector: str, html: dict[str, str]) -> bool:
    """Whether the regions' HTML has the element a cue's selector names (the selectors
    app.core.cues writes: an id, one attribute, or a tray slot by its place)."""
    page = "".join(html.values())
    if m := re.fullmatch(r"#([\w-]+)", selector):
        return f'id="{m[1]}"' in page
    if m := re.fullmatch(r'\[data-testid="tray"\] > \.slot:nth-child\((\d+)\)', selector):
        return page.count('class="slot') >= int(m[1]) and 'data-testid="tray"' in page
    m = re.fullmatch(r'\[([\w-]+)="([^"]+)"\]', selector)
    assert m, f"a selector the test does not know: {selector}"
    return f'{m[1]}="{m[2]}"' in page


def kinds(batch: dict) -> list[str]:
    return [c["kind"] for c in batch["cues"]]


def check_new_batches(host: CueHost, seen: int) -> int:
    """Every cue batch since ``seen`` names sources drawn before it and targets drawn now."""
    for batch, before in zip(host.cues[seen:], host.before[seen:], strict=True):
        for cue in batch["cues"]:
            for source in cue["sources"]:
                assert drawn(source, before), (cue, source)
            for target in cue["targets"]:
                assert drawn(target, host.html), (cue, target)
    return len(host.cues)


# ---------------------------------------------------------------------------- a person's clicks


def test_a_solo_turn_by_clicks_cues_each_step_once():
    host = CueHost()
    c, _, _ = make_page(host=host, bots=False)
    start_game(c, ("Ada",), ("human",), "cues1")
    assert host.cues == []  # a new game: nothing moved
    c.handle("click", "take", "0")
    (batch,) = host.cues
    assert batch == {"sound": False, "cues": [{
        "kind": "take", "targets": ['[data-testid="tray"] > .slot:nth-child(1)'],
        "sources": ["#yard-G"], "points": None}]}
    seen = check_new_batches(host, 0)
    c.handle("click", "take", "1")
    c.handle("click", "take", "2")  # the third pick takes the dice: its die flies
    assert [kinds(b) for b in host.cues[seen:]] == [["take"], ["take"]]
    assert host.cues[-1]["cues"][0]["sources"] == ["#yard-P"]
    seen = check_new_batches(host, seen)
    c.render()  # a render with nothing new sends nothing
    assert len(host.cues) == seen
    c.handle("click", "roll", None)
    assert kinds(host.cues[-1])[0] == "roll"
    seen = check_new_batches(host, seen)
    # a selection is no action: nothing moves
    die = c.board.state.dice[0].id
    c.handle("click", "die", str(die))
    assert len(host.cues) == seen


def test_cues_are_never_saved_nor_replayed_after_a_reload():
    host = CueHost()
    c, _, _ = make_page(host=host, bots=False)
    start_game(c, ("Ada",), ("human",), "cues2")
    for arg in ("0", "1", "2"):
        c.handle("click", "take", arg)
    c.handle("click", "roll", None)
    assert host.cues
    assert not any('"targets"' in value for value in host.storage.values())
    again = CueHost(host.storage)
    c2, _, _ = make_page(host=again, bots=False)
    c2.render()
    assert again.cues == [] and c2.page.cues == []
    assert c2.board is not None and len(c2.board.actions) == len(c.board.actions)


# ---------------------------------------------------------------------------- whole games


def act(c, rng: random.Random) -> None:
    """A random engine action of the person to move (a demolition or an abandon often
    when the rules allow one, builds mostly, so every kind happens), then the render, as
    after a click; the yard taken by clicks."""
    actions = c.board.legal_actions()
    rare = [a for a in actions if isinstance(a, Demolish | Abandon)]
    builds = [a for a in actions if isinstance(a, Build)]
    if rare and rng.random() < 0.3:
        action = rng.choice(rare)
    elif builds and rng.random() < 0.9:
        action = rng.choice(builds)
    else:
        action = rng.choice(actions)
    if isinstance(action, Take):  # the yard by clicks, as a person takes
        for t in action.types:
            c.handle("click", "take", str(t.value))
        return
    c.play.dispatch(action)
    c.computer.wake()
    c.render()


def play_out(c, host: CueHost, timer, rng: random.Random, here: set[int]) -> list[dict]:
    """Play the game to its end: the seats ``here`` by :func:`act`, the computer by its
    timer; every batch checked against the page. Returns every batch."""
    seen = 0
    while not c.board.is_game_over():
        if c.board.state.seat in here:
            act(c, rng)
        else:
            assert timer.step(), "the computer's timer stopped during its turn"
        seen = check_new_batches(host, seen)
    return host.cues


def test_a_solo_game_cues_every_kind_of_action_and_the_end():
    found: set[str] = set()
    for seed in ("s1", "s2", "s3"):
        host = CueHost()
        c, _, timer = make_page(host=host, bots=False)
        start_game(c, ("Ada",), ("human",), seed)
        batches = play_out(c, host, timer, random.Random(seed), {0})
        found |= {k for b in batches for k in kinds(b)}
        # solo: the turn never passes to someone else
        assert "your_turn" not in found
        end = [cue for b in batches for cue in b["cues"] if cue["kind"] in ("end", "win")]
        assert [cue["kind"] for cue in end] == ["end", "win"]
        assert end[0]["targets"] == ['[data-testid="score-row-0"]']
        assert end[1]["targets"] == ['[data-testid="player-0"]']
    assert {"take", "roll", "floor", "complete", "demolish", "end", "win"} <= found


def test_two_players_with_a_computer_cue_its_steps_and_the_persons_turn():
    found: dict[int, set[str]] = {0: set(), 1: set()}
    for seed in ("t1", "t2"):
        host = CueHost()
        c, _, timer = make_page(host=host)
        start_game(c, ("Ada", "Robo"), ("human", "greedy"), seed)
        seen = 0
        rng = random.Random(seed)
        while not c.board.is_game_over():
            seat = c.board.state.seat
            if seat == 0:
                act(c, rng)
            else:
                assert timer.step()
            for batch in host.cues[seen:]:
                found[seat] |= set(kinds(batch))
                for cue in batch["cues"]:
                    if cue["kind"] == "your_turn":  # only ever the person here
                        assert cue["targets"] == ['[data-testid="player-0"]']
            seen = check_new_batches(host, seen)
        (end,) = [b for b in host.cues if "end" in kinds(b)]
        ranks = end["cues"][kinds(end).index("end")]["targets"]
        assert sorted(ranks) == ['[data-testid="score-row-0"]', '[data-testid="score-row-1"]']
    # the computer's steps are cued one by one, as a person's
    assert {"take", "roll", "floor"} <= found[1]
    assert "your_turn" in found[1]  # its last step hands the turn back: a chime for Ada
    assert {"take", "roll", "floor", "abandon"} <= found[0] | found[1]


def test_a_computer_take_flies_all_three_dice_and_a_completion_carries_its_points():
    host = CueHost()
    c, _, timer = make_page(host=host)
    start_game(c, ("Robo", "Ada"), ("greedy", "human"), "t3")
    assert timer.step()
    (cue,) = host.cues[-1]["cues"]
    assert cue["kind"] == "take" and len(cue["targets"]) == len(cue["sources"]) == 3
    batches = play_out(c, host, timer, random.Random(3), {1})
    completions = [cue for b in batches for cue in b["cues"] if cue["kind"] == "complete"]
    assert completions and all(cue["points"] >= 1 for cue in completions)


# ---------------------------------------------------------------------------- the Sound switch


def sound_switch(topbar: str) -> dict[str, str]:
    (tag,) = re.findall(r'<button ([^>]*id="btn-sound"[^>]*)>', topbar)
    return attrs(tag)


def settings(host: FakeHost) -> dict:
    return json.loads(host.storage[KEY_SETTINGS])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_sound_switch_is_off_until_turned_on_and_remembered(lang):
    host = CueHost()
    c, _, _ = make_page(host=host, langs=(lang,), bots=False)
    switch = sound_switch(host.html["topbar"])
    assert switch["aria-pressed"] == "false" and switch["data-action"] == "sound"
    assert TABLES[lang]["btn.sound"] in host.html["topbar"]
    c.handle("click", "menu", None)
    c.handle("click", "sound", None)
    assert c.page.sound and settings(host)["sound"] == "on"
    assert c.page.menu_open  # the switch's new state stays in view on a phone
    assert host.cues[-1] == {"sound": True, "cues": [
        {"kind": "sound_on", "targets": [], "sources": [], "points": None}]}
    switch = sound_switch(host.html["topbar"])
    assert switch["aria-pressed"] == "true"
    # the next visit: still on, nothing sounds by itself
    again = CueHost(host.storage)
    c2, _, _ = make_page(host=again, langs=(lang,), bots=False)
    assert c2.page.sound and again.cues == []
    switch = sound_switch(again.html["topbar"])
    assert switch["aria-pressed"] == "true"
    c2.handle("click", "sound", None)
    assert not c2.page.sound and settings(again)["sound"] == "off"
    assert len(again.cues) == 0  # switched off: no chime
    third, _, _ = make_page(storage=again.storage, bots=False)
    assert not third.page.sound


def test_cue_batches_say_whether_the_sound_is_on():
    host = CueHost()
    c, _, _ = make_page(host=host, bots=False)
    start_game(c, ("Ada",), ("human",), "snd")
    c.handle("click", "take", "0")
    assert host.cues[-1]["sound"] is False
    c.handle("click", "sound", None)
    c.handle("click", "take", "1")
    assert host.cues[-1]["sound"] is True


@pytest.mark.parametrize("value", ['"loud"', "7", "null"])
def test_a_sound_setting_that_cannot_be_read_is_kept_aside_and_told(value):
    stored = '{"v": 1, "lang": "de", "sound": ' + value + "}"
    c, host, _ = make_page(storage={KEY_SETTINGS: stored}, bots=False)
    if value == "null":  # no value: the default, nothing to tell
        assert not c.page.sound and not c.page.notices
        return
    assert not c.page.sound
    (note,) = [n for n in c.renderer.screen().notices if n.key == "notice.settings_broken"]
    copies = [k for k in host.storage if k.startswith(KEY_SETTINGS_BROKEN)]
    assert len(copies) == 1 and host.storage[copies[0]] == stored
    reason = TABLES["en"]["error.settings.settings_sound"].format(sound=json.loads(value))
    assert note.text == TABLES["en"]["notice.settings_broken"].format(reason=reason,
                                                                     key=copies[0])


def test_cue_kinds_match_the_page_scripts_motions_and_sounds():
    """Every kind Python sends has a motion or a sound in web/js (a typo would go
    silently still)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "web" / "js"
    script = (root / "effects.js").read_text() + (root / "sound.js").read_text()
    for kind in CueKind:
        assert re.search(rf"^\s+{kind.value}: \(", script, re.M), kind


# ------------------------------------------------------------------ a friend's turn by link


def play_turn(c, rng: random.Random) -> str:
    """The person to move plays their turn out (random engine actions); returns the
    link the send dialog offers once the turn went to the friend."""
    seat = c.board.state.seat
    while c.board.state.seat == seat and not c.board.is_game_over():
        c.play.dispatch(rng.choice(c.board.legal_actions()))
    c.render()
    link = c.page.dialog.link
    c.handle("click", "close", None)
    return "#" + link.split("#", 1)[1]


def friends_turn_arrives(lang: str = "en"):
    """Ada (here, with the pacer) and Bo (a friend elsewhere) have played a turn each;
    Bo's link has just been opened on Ada's page. Returns (page, host, timer, Bo's page)."""
    host = CueHost()
    c, _, timer = make_page(host=host, langs=(lang,))
    start_game(c, ("Ada", "Bo"), ("human", "friend"), "link-turn")
    rng = random.Random(5)
    link = play_turn(c, rng)
    bo, _, _ = make_page(bots=False)
    bo.handle("hashchange", None, link)
    bo.handle("submit", "corr-claim", None, form={"seat1": "on"})
    reply = play_turn(bo, rng)
    c.handle("hashchange", None, reply)
    return c, host, timer, bo


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_friends_turn_by_link_plays_on_the_board_action_by_action(lang):
    c, host, timer, bo = friends_turn_arrives(lang)
    assert c.board.actions == bo.board.actions  # the game is already the updated one
    playback = c.page.playback
    assert playback is not None and playback.total == len(bo.board.actions)
    shown_from = playback.step
    assert 0 < shown_from < playback.total
    name = "Bo"
    seen = len(host.cues)
    screen = c.renderer.screen()
    # the board shows the game as this device last saw it, with the friend's bar
    assert screen.status.turn == TABLES[lang]["status.turn_friend"].format(name=name)
    bar = screen.game.bot_bar
    assert bar is not None and bar.text == TABLES[lang]["corr.playback"].format(name=name)
    assert bar.skip_enabled and screen.game.corr is None
    # the link's notice says whose turn it is once the board has shown the friend's turn
    your_turn = TABLES[lang]["corr.state_you"].format(name="Ada")
    notice = screen.notices[-1].text
    assert your_turn not in notice and TABLES[lang]["corr.state_playback"] in notice
    assert your_turn not in re.sub("<[^>]+>", "", host.html["notices"])
    steps, first = 0, seen
    while c.page.playback is not None:
        step = c.page.playback.step
        assert timer.step()
        now = c.page.playback.step if c.page.playback is not None else playback.total
        assert now - step <= 1, "one action per tick"
        steps += now - step
        assert len(host.cues) <= seen + 1
        seen = check_new_batches(host, seen)
    assert steps == len(bo.board.actions) - shown_from
    played = [k for b in host.cues[first:] for k in kinds(b)]
    assert "take" in played and "roll" in played
    assert host.cues[-1]["cues"][-1]["kind"] == "your_turn"  # Ada's turn again: a chime
    screen = c.renderer.screen()
    assert screen.status.turn == TABLES[lang]["status.turn"].format(name="Ada")
    assert screen.game.bot_bar is None
    assert screen.notices[-1].text == TABLES[lang]["corr.updated"].format(state=your_turn)
    assert your_turn in re.sub("<[^>]+>", "", host.html["notices"])
    c.handle("click", "take", "0")  # Ada plays on
    assert len(c.page.takes) == 1


@pytest.mark.parametrize("how", ["skip", "click", "escape"])
def test_a_click_or_skip_shows_a_friends_turn_as_it_is_at_once(how):
    c, host, timer, bo = friends_turn_arrives()
    assert c.page.playback is not None
    seen = len(host.cues)
    if how == "skip":
        c.handle("click", "bot-skip", None)
        assert not c.page.skipping  # Skip ended the playback and did nothing else
    elif how == "click":
        c.handle("click", "menu", None)
        assert c.page.menu_open  # the click did what it does, on the game as it is
    else:
        c.handle("keydown", None, None, key="Escape")
    assert c.page.playback is None
    assert c.renderer.screen().status.turn == TABLES["en"]["status.turn"].format(name="Ada")
    timer.run(limit=50)
    assert len(host.cues) == seen, "nothing plays after the click"


def test_the_pace_may_change_while_a_friends_turn_plays_and_a_reload_shows_it_still():
    c, host, timer, bo = friends_turn_arrives()
    c.handle("change", "bot-pace", None, form={"value": "fast"})
    assert c.page.playback is not None and c.page.pace == "fast"
    shown_at = []  # when each action was shown
    while c.page.playback is not None:
        step = c.page.playback.step
        timer.step()
        if c.page.playback is None or c.page.playback.step != step:
            shown_at.append(timer.now)
    gaps = {b - a for a, b in zip(shown_at, shown_at[1:], strict=False)}
    assert gaps == {200}, "the actions after the first come at the fast pace"
    reloaded, _, _ = make_page(storage=dict(c.host.storage))
    assert reloaded.page.playback is None
    assert reloaded.board.actions == bo.board.actions
