"""Live tables in the page (app.games.live) under CPython: devices (a controller on a fake
host each) joined by a fake network that hands what one device sends to the others as
``live`` page events. The invitation, the seat claim, a whole game, reload and catch-up,
a device away, computer seats played by one device only, and bad messages refused; the
synchronisation itself is tested in test_live_sync.py, the real transport in e2e."""

from __future__ import annotations

import random

import pytest
from app.core.bridge import PageEvent
from app.core.commands import Cmd
from app.core.page_state import Level
from app.games.state import ClaimDialog, SendDialog
from web_fakes import make_page, start_game

from skyline import Phase, parse_live_link
from skyline.players.bots import get_bot
from skyline.records.live import make_actions

LANGS = ("en", "de")


class Net:
    """Devices at one live table, by peer id: what one sends reaches the others that are
    connected (and joined the same secret) when :meth:`pump` runs."""

    def __init__(self) -> None:
        self.devices: dict[str, tuple] = {}  # peer -> (controller, host)
        self.links: set[frozenset[str]] = set()

    def add(self, peer: str, page) -> None:
        self.devices[peer] = page

    def live(self, peer: str, what: str, other: str = "", text: str = "") -> None:
        c, _host = self.devices[peer]
        c.event(PageEvent("live", what=what, peer=other, text=text))

    def connect(self, a: str, b: str) -> None:
        """a's and b's data channel opens (both have joined the same table)."""
        assert self.devices[a][1].live_secret == self.devices[b][1].live_secret
        assert self.devices[a][1].live_secret
        self.links.add(frozenset((a, b)))
        self.live(a, "joined", b)
        self.live(b, "joined", a)
        self.pump()

    def cut(self, peer: str) -> None:
        """peer's device goes away: its channels close."""
        for link in [link for link in self.links if peer in link]:
            self.links.discard(link)
            (other,) = link - {peer}
            self.live(other, "left", peer)
        self.devices[peer][1].live_sent.clear()

    def pump(self, limit: int = 1000) -> int:
        """Deliver every message sent until none is left; how many were delivered."""
        delivered = 0
        for _ in range(limit):
            moved = False
            for peer, (_c, host) in list(self.devices.items()):
                sent, host.live_sent = host.live_sent, []
                for to, text in sent:
                    targets = [to] if to else [p for p in self.devices
                                               if frozenset((peer, p)) in self.links]
                    for target in targets:
                        if frozenset((peer, target)) in self.links:
                            self.live(target, "message", peer, text)
                            delivered += 1
                            moved = True
            if not moved:
                return delivered
        raise AssertionError("the devices never stop talking")


def invite(lang: str = "en", seats=("human", "friend"), names=("Ann", "Bo")):
    """Ann's device starts a live game from the new-game dialog: (controller, host, link)."""
    c, host, timer = make_page(langs=(lang,))
    c.handle("click", "newgame", None)
    form = {"count": str(len(names)), "seed": "live1", "start": "0", "live": "on"}
    for i, (name, seat) in enumerate(zip(names, seats, strict=True)):
        form[f"name{i}"], form[f"seat{i}"] = name, seat
    c.handle("submit", "ng-start", None, form=form)
    dialog = c.page.dialog
    assert isinstance(dialog, SendDialog) and dialog.live
    c.handle("keydown", None, None, key="Escape")  # the invitation sent, its dialog closes
    assert c.page.dialog is None
    return c, host, timer, dialog.link


def claim(link: str, seat: int, lang: str = "en"):
    """A friend's device opens the invitation and claims ``seat``."""
    c, host, timer = make_page(langs=(lang,), fragment="#" + link.split("#", 1)[1])
    assert isinstance(c.page.dialog, ClaimDialog), c.page.dialog
    assert c.page.dialog.suggested is None  # the seat to move is the host's, not a guess
    c.handle("submit", "corr-claim", None, form={f"seat{seat}": "on"})
    assert c.page.dialog is None
    return c, host, timer


def play_turn(c) -> None:
    """This device plays the turn to move with the greedy bot's choices (as clicks would:
    each action through the page, then the render)."""
    seat = c.board.state.seat
    while c.board.state.seat == seat and c.board.state.phase is not Phase.OVER:
        b = c.board
        assert c.play.dispatch(get_bot("greedy")(b.state, random.Random(len(b.actions))))
        c.session.render()


def table_of_two(lang: str = "en"):
    net = Net()
    ann, ann_host, _t, link = invite(lang)
    bo, bo_host, _t2 = claim(link, 1, lang)
    net.add("ann", (ann, ann_host))
    net.add("bo", (bo, bo_host))
    net.connect("ann", "bo")
    return net, ann, bo


@pytest.mark.parametrize("lang", LANGS)
def test_an_invitation_joins_both_devices_and_says_so(lang):
    ann, ann_host, _t, link = invite(lang)
    assert "#live?" in link
    secret = parse_live_link(link.split("#", 1)[1]).secret
    assert ann_host.live_secret == secret
    assert ann.session.entry.live == secret
    # alone at the table: Ann waits for Bo before the first move
    assert ann.page.live is not None and not ann.page.live.synced
    assert ann.refusal(Cmd.ROLL) == "why.live_sync"
    bo, bo_host, _t2 = claim(link, 1, lang)
    assert bo_host.live_secret == secret
    net = Net()
    net.add("ann", (ann, ann_host))
    net.add("bo", (bo, bo_host))
    net.connect("ann", "bo")
    assert ann.page.live.synced and bo.page.live.synced
    assert ann.page.live.away == frozenset() and bo.page.live.away == frozenset()
    joined = [n for n in ann.page.notices if n.key == "live.joined"]
    assert joined and dict(joined[0].params)["name"] == "Bo"
    text = ann.renderer.screen().game.corr.text
    assert text == ann.session.t("live.status_on")


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_two_player_game_live_ends_the_same_on_both_devices(lang):
    net, ann, bo = table_of_two(lang)
    turns = 0
    while ann.board.state.phase is not Phase.OVER:
        mover = ann if ann.board.state.seat == 0 else bo
        other = bo if mover is ann else ann
        # the other device refuses to move for the seat to move, saying why
        assert other.refusal(Cmd.ROLL) == "why.friend"
        play_turn(mover)
        net.pump()
        assert other.board.actions == mover.board.actions
        turns += 1
        assert turns < 200
    assert bo.board.is_game_over() and bo.board.record() == ann.board.record()
    for c in (ann, bo):  # saved on both devices, each with the table's secret
        stored, _raw = c.session.library.reread(c.session.entry.id)
        assert stored.board.record() == ann.board.record() and stored.live


def test_received_moves_are_played_on_the_board_and_not_sent_back():
    net, ann, bo = table_of_two()
    play_turn(ann)
    sent = net.pump()
    assert 1 <= sent <= 6  # Ann's turn goes in its committed bursts, not once per click
    assert bo.page.playback is not None  # Bo sees Ann's moves played one by one
    assert bo.page.playback.total == len(ann.board.actions)
    assert bo.board.actions == ann.board.actions


def test_a_reload_mid_turn_rejoins_and_catches_up():
    net, ann, bo = table_of_two()
    play_turn(ann)
    net.pump()
    # Bo reloads: a new page from Bo's storage, while Ann plays on
    bo_storage = dict(net.devices["bo"][1].storage)
    net.cut("bo")
    play_turn_partly = ann.board.state.seat == 0
    assert not play_turn_partly  # it is Bo's turn now
    bo2, bo2_host, _ = make_page(storage=bo_storage)
    assert bo2_host.live_secret == ann.session.entry.live
    assert not bo2.page.live.synced  # a reloaded device first catches up
    net.add("bo", (bo2, bo2_host))
    net.connect("ann", "bo")
    assert bo2.page.live.synced and bo2.board.actions == ann.board.actions
    play_turn(bo2)
    net.pump()
    assert ann.board.actions == bo2.board.actions


def test_a_device_away_for_a_turn_shows_as_away_and_catches_up():
    net, ann, bo = table_of_two()
    net.cut("bo")
    assert ann.page.live.away == frozenset({1})
    left = [n for n in ann.page.notices if n.key == "live.left"]
    assert left and dict(left[0].params)["name"] == "Bo"
    play_turn(ann)  # Ann's moves wait for Bo
    assert ann.renderer.screen().game.corr.text == ann.session.t("live.status_away", names="Bo")
    net.connect("ann", "bo")
    assert bo.board.actions == ann.board.actions
    assert ann.page.live.away == frozenset()


@pytest.mark.parametrize("kind", ["forged", "stale", "illegal", "garbage"])
def test_bad_messages_are_refused_and_the_games_stay_equal(kind):
    net, ann, bo = table_of_two()
    if kind != "forged":
        play_turn(ann)
        net.pump()
    n = len(ann.board.actions)
    legal = [str(a) for a in ann.board.legal_actions()]
    if kind == "forged":  # Bo sends a move for Ann's seat (Ann is to move)
        text = make_actions(1, [legal[0]])
    elif kind == "stale":  # an earlier move number with another action than the game's
        first = str(ann.board.actions[0])
        other = next(a for a in map(str, ann.board.at(0).legal_actions()) if a != first)
        text = make_actions(1, [other])
    elif kind == "illegal":  # Bo's turn, but a move the engine refuses
        text = make_actions(n + 1, ["e"])
    else:
        text = "L1 A not a message <script>"
    before = ann.board.record()
    net.live("ann", "message", "bo", text)
    net.pump()
    assert ann.board.record() == before
    assert not ann.page.crashed
    assert bo.board.record() == ann.board.record()
    if kind != "forged":  # and the game goes on: Bo moves, Ann sees it
        play_turn(bo)
        net.pump()
        assert ann.board.actions == bo.board.actions and len(ann.board.actions) > n


def test_computer_seats_are_played_by_the_first_human_device_only():
    net = Net()
    ann, ann_host, ann_timer, link = invite(seats=("human", "friend", "greedy"),
                                            names=("Ann", "Bo", "Robo"))
    bo, bo_host, bo_timer = claim(link, 1)
    net.add("ann", (ann, ann_host))
    net.add("bo", (bo, bo_host))
    net.connect("ann", "bo")
    for _round in range(6):
        seat = ann.board.state.seat
        if seat == 0:
            play_turn(ann)
        elif seat == 1:
            play_turn(bo)
        else:
            assert not bo.computer_turn()  # Bo's device never plays Robo
            ann_timer.run(until=lambda: ann.page.playback is None)  # Bo's turn shown first
            assert ann.computer_turn()
            ann_timer.run(until=lambda: ann.board.state.seat != 2)
            bo_timer.run(limit=50)
            ann.session.render()
        net.pump()
        bo_timer.run(limit=200)  # Bo's board plays the moves that came
        assert bo.board.actions == ann.board.actions


def test_offline_and_unreachable_relays_are_said_and_the_link_still_works():
    net, ann, bo = table_of_two()
    net.live("ann", "offline")
    assert ann.page.live.network == "offline"
    assert any(n.key == "live.offline" and n.level is Level.WARN for n in ann.page.notices)
    assert ann.renderer.screen().game.corr.text == ann.session.t("live.status_offline")
    net.live("ann", "online")
    assert not any(n.key == "live.offline" for n in ann.page.notices)
    net.live("ann", "relays", text="closed")
    assert ann.renderer.screen().game.corr.text == ann.session.t("live.status_closed")
    ann.handle("click", "corr-send", None)  # the correspondence link, at any moment
    assert isinstance(ann.page.dialog, SendDialog) and "#game?" in ann.page.dialog.link


def test_switching_games_leaves_the_table_and_coming_back_rejoins():
    net, ann, bo = table_of_two()
    ann_host = net.devices["ann"][1]
    secret = ann_host.live_secret
    entry_id = ann.session.entry.id
    start_game(ann, ("Cy",), ("human",), "solo1")
    assert ann_host.live_secret is None and ann.page.live is None
    ann.handle("click", "game-open", entry_id)
    assert ann_host.live_secret == secret and ann.page.live is not None


def test_a_correspondence_game_becomes_live_from_its_send_dialog():
    c, host, _ = make_page()
    start_game(c, ("Ann", "Bo"), ("human", "friend"), "corr9")
    assert host.live_secret is None
    c.handle("click", "live-invite", None)
    assert isinstance(c.page.dialog, SendDialog) and c.page.dialog.live
    assert host.live_secret == c.session.entry.live and len(host.live_secret) >= 22


def test_renaming_a_live_game_keeps_its_table():
    net, ann, bo = table_of_two()
    secret, entry_id = ann.session.entry.live, ann.session.entry.id
    ann.handle("click", "games", None)
    ann.handle("submit", "game-rename-save", None, form={"id": entry_id, "name": "Friday"})
    stored, _raw = ann.session.library.reread(entry_id)
    assert stored.name == "Friday" and stored.live == secret
    assert net.devices["ann"][1].live_secret == secret


def test_friends_arriving_are_said_in_one_notice_and_a_return_replaces_the_leave():
    net = Net()
    ann, ann_host, _t, link = invite(seats=("human", "friend", "friend"),
                                     names=("Ann", "Bo", "Cy"))
    net.add("ann", (ann, ann_host))
    for peer, seat in (("bo", 1), ("cy", 2)):
        c, host, _timer = claim(link, seat)
        net.add(peer, (c, host))
        net.connect("ann", peer)
    net.connect("bo", "cy")
    presence = [n for n in ann.page.notices if n.key in ("live.joined", "live.left")]
    assert [(n.key, dict(n.params)["name"]) for n in presence] == [("live.joined", "Bo, Cy")]
    net.cut("cy")
    presence = [n for n in ann.page.notices if n.key in ("live.joined", "live.left")]
    assert [(n.key, dict(n.params)["name"]) for n in presence] == [("live.left", "Cy")]
    net.connect("ann", "cy")
    presence = [n for n in ann.page.notices if n.key in ("live.joined", "live.left")]
    assert [(n.key, dict(n.params)["name"]) for n in presence] == [("live.joined", "Cy")]


def test_a_correspondence_link_during_a_live_game_is_taken_by_the_table():
    net, ann, bo = table_of_two()
    play_turn(ann)
    net.pump()
    net.cut("bo")  # Bo plays his turn away from the table and sends the link instead
    play_turn(bo)
    bo.handle("click", "corr-send", None)
    link = bo.page.dialog.link
    ann.handle("hashchange", None, "#" + link.split("#", 1)[1])
    assert ann.board.actions == bo.board.actions  # the link's moves stand at the table
    assert not any(n.key == "live.move_refused" for n in ann.page.notices)
    net.connect("ann", "bo")
    assert ann.board.actions == bo.board.actions and ann.page.live.synced
    play_turn(ann)
    net.pump()
    assert bo.board.actions == ann.board.actions


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_list_says_which_game_is_a_live_table(lang):
    net, ann, _bo = table_of_two(lang)
    entry_id = ann.session.entry.id
    start_game(ann, ("Cy",), ("human",), "solo2")
    ann.handle("click", "games", None)
    rows = {r.id: r for r in ann.renderer.screen().dialog.rows}
    assert rows[entry_id].note == ann.session.t("games.live")
    assert all(r.note is None for i, r in rows.items() if i != entry_id)
