"""Player names that cannot hide or corrupt the page: one check in the engine
(``skyline.check_name``) refuses names with no visible character and names with
characters that change the text direction, wherever a name comes from (the new-game
dialog, a ``#play?`` link, a ``#game?`` link, an imported or stored save); every refusal
says its own reason in the player's language; and every name the views show is
isolated (``<bdi>``, or ``dir="auto"`` in a field), so a right-to-left name keeps the
sentence around it in order."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

import pytest
from app.core.page_state import NewGameDialog
from fuzz_cases import pack
from web_fakes import make_page, start_game

from skyline import (
    Board,
    LinkError,
    Options,
    OptionsError,
    RecordError,
    SaveError,
    check_name,
    make_save,
    parse_share_fragment,
    read_save,
    validate_options,
)
from skyline.players.bots import get_bot
from skyline.records.game_links import make_game_link, parse_game_link
from skyline.records.game_list import entry_to_json, make_entry

LANGS = ("en", "de")
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
        "\u2069", "\u200e", "\u200f", "\u061c"]
INVISIBLE = [" ", "\u200b", "\u200b\u200c\u200d", "\u2060\ufeff", "\u00ad", "\u3164",
             "\u115f\u1160", "\u2800", "\u034f", " \u200b ", "\ue000"]


# ---------------------------------------------------------------------------- the check


@pytest.mark.parametrize("char", BIDI)
def test_a_name_with_a_direction_control_is_refused(char):
    with pytest.raises(OptionsError) as info:
        check_name(f"Bob{char}gnp.exe", seat=2)
    assert info.value.field == "names"
    assert info.value.params == {"reason": "bidi", "seat": 2}


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_no_visible_character_is_refused(name):
    with pytest.raises(OptionsError) as info:
        check_name(name)
    assert info.value.params["reason"] == "invisible"


@pytest.mark.parametrize(("name", "reason"), [
    ("Bo\x00b", "control"), ("\x00", "control"), ("\x1b[31mA", "control"), ("A\x9b", "control"),
    ("\ud800", "control"), ("", "length"), ("A" * 25, "length"), (7, "not_text"),
])
def test_every_other_refusal_names_its_reason(name, reason):
    with pytest.raises(OptionsError) as info:
        check_name(name, seat=0)
    assert info.value.params["reason"] == reason and info.value.params["seat"] == 0


@pytest.mark.parametrize("name", [
    "Ann", "  Bo   Li ", "Zoë", "李明", "مريم", "דוד", "\U0001f3d9\ufe0f",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467", "d\u0301", "a\u200bb", "\u0301x",
])
def test_names_that_show_something_are_kept(name):
    assert check_name(name) == " ".join(name.split())


def test_validate_options_uses_the_one_check_and_says_which_seat():
    with pytest.raises(OptionsError) as info:
        validate_options(Options(("Ann", "\u200b"), "s"))
    assert info.value.params == {"reason": "invisible", "seat": 1}


def test_every_reader_refuses_the_same_names():
    """The share link, the record, the save and the game link all refuse them, each
    with the check's reason."""
    good = Board.new(["Ann", "Bo"], seed="names")
    record = good.record().replace("players=Ann,Bo", "players=Ann,Bo%E2%80%AEx")
    with pytest.raises(LinkError) as link:
        parse_share_fragment("#play?p=Ann,Bo%E2%80%AEx&seed=names")
    assert (link.value.code, link.value.params["reason"]) == ("names", "bidi")
    with pytest.raises(RecordError) as rec:
        Board.from_record(record)
    assert (rec.value.code, rec.value.params["reason"]) == ("record_options", "bidi")
    save = json.loads(make_save(good))
    save["game"]["record"] = record
    del save["game"]["state"]
    with pytest.raises(SaveError) as sav:
        read_save(json.dumps(save))
    assert (sav.value.code, sav.value.params["reason"]) == ("record_options", "bidi")
    with pytest.raises(LinkError) as game:
        parse_game_link(pack(("hh \n" + record).encode()))
    assert game.value.code == "game_record"
    assert (game.value.params["record_code"], game.value.params["reason"]) == (
        "record_options", "bidi")
    assert parse_game_link(make_game_link(good, ("here", "friend"))).board.state == good.state


# ---------------------------------------------------------------------------- the page says why


def last_notice(c) -> str:
    return c.renderer.screen().notices[-1].text


@pytest.mark.parametrize("lang", LANGS)
def test_the_dialog_says_a_nul_is_refused_for_its_own_reason(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    c.handle("click", "newgame", None)
    c.handle("submit", "ng-start", None, form={"count": "2", "name0": "Ann",
                                               "name1": "Bo\x00", "seed": "s"})
    d = c.page.dialog
    assert isinstance(d, NewGameDialog)
    why = c.session.t("error.name.control")
    assert d.error == c.session.t("error.option.name", n=2, why=why)
    assert c.session.t("error.option.names") not in d.error
    assert why in host.html["dialog"]


@pytest.mark.parametrize(("name", "key"), [("\u200b\u200b", "error.name.invisible"),
                                           ("Bob\u202egnp.exe", "error.name.bidi")])
def test_the_dialog_refuses_hidden_and_reversing_names(name, key):
    c, _, _ = make_page(bots=False)
    c.handle("click", "newgame", None)
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": name, "seed": "s"})
    assert isinstance(c.page.dialog, NewGameDialog)
    assert c.page.dialog.error == c.session.t("error.option.name", n=1, why=c.session.t(key))


@pytest.mark.parametrize("lang", LANGS)
def test_a_share_link_with_a_refused_name_says_so(lang):
    c, _, _ = make_page(langs=(lang,), bots=False)
    start_game(c, ("Ann",), ("human",), "keep")
    before = c.board.record()
    c.handle("hashchange", None, "#play?p=Ann,Bob%E2%80%AEgnp.exe&seed=x")
    assert c.page.notices[-1].key == "notice.bad_link" and c.board.record() == before
    t = c.session.t
    assert t("error.option.name", n=2, why=t("error.name.bidi")) in last_notice(c)


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_link_whose_name_is_refused_says_the_name_is_refused(lang):
    good = Board.new(["Ann", "Bo"], seed="gl")
    record = good.record().replace("players=Ann,Bo", "players=Ann,%E2%80%8B")
    c, _, _ = make_page(langs=(lang,), bots=False)
    c.handle("hashchange", None, "#" + pack(("hh \n" + record).encode()))
    text = last_notice(c)
    assert c.session.t("error.option.game_record") not in text
    t = c.session.t
    assert t("error.option.game_name", n=2, why=t("error.name.invisible")) in text


@pytest.mark.parametrize("lang", LANGS)
def test_an_imported_game_whose_name_is_refused_says_so(lang):
    good = Board.new(["Ann", "Bo"], seed="imp")
    data = json.loads(entry_to_json(make_entry(good, ("here", "here"))))
    data["save"]["game"]["record"] = good.record().replace("players=Ann,Bo", "players=Ann,B%00")
    del data["save"]["game"]["state"]
    c, host, _ = make_page(langs=(lang,), bots=False)
    before = dict(host.storage)
    c.handle("click", "game-import-text", None, form={"text": json.dumps(data)})
    assert c.page.notices[-1].key == "games.import_failed" and host.storage == before
    why = c.session.t("error.record.name", n=2, why=c.session.t("error.name.control"))
    assert why in last_notice(c)
    assert c.session.t("error.record.record_options") not in last_notice(c)


# ---------------------------------------------------------------------------- isolation

RTL = ("אבג", "مريم")


class Unisolated(HTMLParser):
    """Text of ``names`` shown outside a <bdi> and outside an element with dir="auto";
    a field holding a name must have dir="auto"."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "col", "source", "wbr", "path",
            "circle", "rect", "line", "polygon", "use"}

    def __init__(self, names) -> None:
        super().__init__()
        self.names = names
        self.stack: list[tuple[str, dict]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input":
            if any(n in (a.get("value") or "") for n in self.names) and a.get("dir") != "auto" \
                    and a.get("type") != "hidden" and "%" not in (a.get("value") or "%"):
                self.found.append(f"<input id={a.get('id')}>")
            return
        if tag not in self.VOID:
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not any(n in data for n in self.names):
            return
        if any(t in ("bdi", "option") or a.get("dir") == "auto" for t, a in self.stack):
            return
        self.found.append(f"<{self.stack[-1][0] if self.stack else '?'}> {data[:80]}")


def unisolated(host, names=RTL) -> list[str]:
    found = []
    for region, html in host.html.items():
        parser = Unisolated(names)
        parser.feed(html)
        found += [f"{region}: {f}" for f in parser.found]
    return found


def test_every_name_the_page_shows_is_isolated():
    """Right-to-left names through a whole game of a person here, a computer and a
    friend elsewhere: the top bar, the scoreboard, the prompt, the last turn, the log,
    notices, the computer's bar, the friend's panel, the scoring, the game list (and its
    rename field), the new-game dialog: every name inside <bdi> or a dir="auto" field."""
    c, host, _ = make_page()
    start_game(c, (RTL[0], RTL[1], "Zed"), ("human", "greedy", "friend"), "isolate")
    rng = random.Random(5)
    found: set[str] = set()
    for _ in range(400):
        board = c.board
        if board.is_game_over():
            break
        kind = c.page.seat_kind(board.state.seat)
        if kind.is_computer:
            c.step_computer()
            c.session.render()
        elif kind.is_friend:
            c.session.board.push(get_bot("greedy")(board.state, rng))
            c.session.render()
        else:
            c.play.dispatch(get_bot("greedy")(board.state, rng))
        found.update(unisolated(host))
    assert c.board.is_game_over()
    c.session.notify("notice.stuck", name=RTL[1])
    c.session.render()
    for command, arg in (("games", None), ("game-rename", c.session.entry.id), ("newgame", None)):
        c.handle("click", command, arg)
        found.update(unisolated(host))
    assert RTL[0] in host.html["dialog"] and found == set()
