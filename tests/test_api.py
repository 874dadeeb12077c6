"""The engine's API for the page and the bots: legality and action classes, the typed
end-of-game summary, coded errors, the bot registry, shared letters and link prefix."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest
from engine_helpers import cols, make_state, tiles

import skyline
from skyline import (
    DIE_LETTERS,
    FACE_LETTERS,
    LINK_PREFIX,
    OPTION_FIELDS,
    Abandon,
    Board,
    Build,
    Demolish,
    DieType,
    EndTurn,
    Face,
    GameSummary,
    IllegalActionError,
    LinkError,
    Options,
    OptionsError,
    Phase,
    Player,
    RecordError,
    Roll,
    SaveError,
    SkylineError,
    Take,
    TakeDistrict,
    action_class,
    apply_action,
    game_summary,
    is_legal,
    legal_actions,
    lone_low_rises,
    make_share_fragment,
    new_game,
    parse_share_fragment,
    read_save,
    validate_options,
)
from skyline.players import registry
from skyline.players.registry import BOTS, BotError, available_bots, bot_available, get_bot
from skyline.records.links import check_bots_available, parse_share_bots
from skyline.records.seats import LEVEL_LETTERS

G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE
SKYLINE_DIR = Path(skyline.__file__).parent

# --------------------------------------------------------------------------- legality, classes


def test_is_legal_agrees_with_apply_action():
    state = make_state(2, columns="o2 o2 b1", dice_spec="Uo Uo Pb Gp")
    for action in [*legal_actions(state), Build(0, 2), Build(2, None), Demolish(9, 0),
                   Roll((0,)), Abandon((0, 0)), Take((G, G, G)), TakeDistrict()]:
        try:
            apply_action(state, action)
        except IllegalActionError:
            assert not is_legal(state, action), action
        else:
            assert is_legal(state, action), action
    assert not is_legal(state, "b0") and not is_legal(state, None)


def test_action_class_groups_interchangeable_dice_and_targets():
    state = make_state(2, columns="o2 o2 o3", buildings="b4 b4 o4", dice_spec="Uo Uo Pb Go")
    k = action_class
    # the two orange upper floors are interchangeable, and so are the two o2 columns
    assert k(state, Build(0, 0)) == k(state, Build(1, 1)) != k(state, Build(0, 2))
    assert k(state, Demolish(0, 0, True)) == k(state, Demolish(1, 1, True))
    assert k(state, Demolish(0, 0, True)) != k(state, Demolish(0, 2, True))  # b4 vs o4
    assert k(state, Demolish(0, 0, False)) != k(state, Demolish(0, 0, True))
    assert k(state, Roll((0, 2))) == k(state, Roll((1, 2))) != k(state, Roll((0, 1)))
    assert k(state, Abandon((0,))) == k(state, Abandon((1,))) != k(state, Roll((0,)))
    assert k(state, Take((PH, G, U))) == k(state, Take((G, U, PH)))
    assert k(state, EndTurn()) == ("e",) and k(state, TakeDistrict()) == ("tD",)
    # names something that is not there, or a die twice: no class
    for action in (Build(9), Build(0, 5), Demolish(0, 3), Demolish(0, 9, True),
                   Roll((0, 0)), Abandon((7,))):
        assert k(state, action) is None, action
    # legal_actions lists exactly one action per class
    listed = legal_actions(state)
    assert len({k(state, a) for a in listed}) == len(listed)


def test_take_sorts_its_types():
    assert Take((PH, G, U)).types == (G, U, PH)
    assert Take((PH, G, U)) == Take((G, U, PH)) and str(Take((U, PH, G))) == "tGUP"
    assert hash(Take((U, G, G))) == hash(Take((G, G, U)))
    # anything but die types is kept as given, and refused when applied
    bad = Take((2, 0, 1))  # type: ignore[arg-type]
    assert bad.types == (2, 0, 1)
    state = new_game(Options(("A",), "s"))
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, bad)
    assert info.value.code == "take_three"


# --------------------------------------------------------------------------- summary


def test_game_summary_is_typed_and_matches_the_legacy_dict():
    state = make_state(3, columns="p1 p1 o3", buildings="b4 o3")
    players = list(state.players)
    players[1] = Player(players[1].name, cols("p1"), tiles("b4 o3 p2"))
    state = state._replace(players=tuple(players))
    s = game_summary(state)
    assert isinstance(s, GameSummary) and not s.over and not s.solo
    me = s.players[0]
    assert (me.converted, me.score, me.completed) == (2, 16 + 9 + 2, 4)
    assert me.discarded == cols("o3") and me.final == tiles("b4 o3 p1 p1")
    assert [p.rank for p in s.players] == [2, 1, 3] and s.winners == (1,)
    assert s.level is None and s.scenario is None and s.scenario_met is None
    assert s.to_dict()["players"][0]["score"] == me.score and s.to_dict()["winners"] == [1]
    with pytest.raises(AttributeError):
        s.over = True  # type: ignore[misc]
    solo = game_summary(new_game(Options(("S",), "s", 0, False, "tucson")))
    assert solo.solo and solo.scenario == "tucson" and solo.scenario_met is True
    assert solo.level is None and "level" in game_summary(new_game(Options(("S",), "s"))).to_dict()


def test_lone_low_rises_is_the_one_conversion_rule():
    player = Player("a", cols("p1 p1 b1 o2"), tiles("p2"))
    assert lone_low_rises(player) == 2
    assert skyline.score(player) == 4 + 2 and skyline.completed_count(player) == 3
    assert skyline.final_buildings(player) == tiles("p2 p1 p1")


# --------------------------------------------------------------------------- errors


def test_coded_errors_share_one_base():
    for cls in (IllegalActionError, OptionsError, RecordError, LinkError, SaveError, BotError):
        assert issubclass(cls, SkylineError) and issubclass(cls, ValueError)
    raised = []
    state = new_game(Options(("A",), "s"))
    for call in (
        lambda: apply_action(state, EndTurn()),
        lambda: validate_options(Options(("A",), "bad seed")),
        lambda: Board.from_record("nope"),
        lambda: parse_share_fragment("#play?p=A"),
        lambda: read_save("{"),
        lambda: get_bot("nobody"),
    ):
        with pytest.raises(SkylineError) as info:
            call()
        raised.append(info.value)
    for exc in raised:
        assert isinstance(exc.code, str) and exc.code and isinstance(exc.params, dict)
        assert str(exc)  # a plain English message
    assert [e.code for e in raised] == ["wrong_phase", "seed", "record_format", "seed",
                                        "json_syntax", "unknown_bot"]


@pytest.mark.parametrize(
    "options, field, reason",
    [
        (Options(("A",) * 5, "s"), "names", "count"),
        (Options(("a\x07",), "s"), "names", "control"),
        (Options(("x" * 30,), "s"), "names", "length"),
        (Options(("A",), "a b"), "seed", "invalid"),
        (Options(("A", "B"), "s", 2), "start_seat", "invalid"),
        (Options(("A",), "s", 0, "yes"), "all_nine", "invalid"),  # type: ignore[arg-type]
        (Options(("A",), "s", 0, False, "paris"), "scenario", "invalid"),
        (Options(("A", "B"), "s", 0, False, "dubai"), "scenario", "solo_only"),
    ],
)
def test_options_error_names_the_field_by_code(options, field, reason):
    """The page reads the field from ``code``, not from the message."""
    with pytest.raises(OptionsError) as info:
        validate_options(options)
    assert info.value.code == info.value.field == field and field in OPTION_FIELDS
    assert info.value.params["reason"] == reason
    # a record with such options names the field too; a link's error code is the field
    with pytest.raises(LinkError) as link:
        make_share_fragment(options)
    assert link.value.code == field


def test_record_with_bad_options_names_the_field():
    with pytest.raises(RecordError) as info:
        Board.from_record("skyline1 players=A seed=a%20b start=0 nine=0 scenario=- | ")
    assert info.value.code == "record_options" and info.value.params["field"] == "seed"


# --------------------------------------------------------------------------- bot registry


def _imports(module: str) -> set[str]:
    tree = ast.parse((SKYLINE_DIR / "players" / f"{module}.py").read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level and not base:  # from . import x
                out.update(alias.name for alias in node.names)
            else:
                out.add(base.split(".")[-1])
        elif isinstance(node, ast.Import):
            out.update(alias.name.split(".")[-1] for alias in node.names)
    return out


def test_bots_and_expert_do_not_import_each_other():
    assert "expert" not in _imports("bots") and "bots" not in _imports("expert")
    code = ("import sys, skyline.players.bots as b; b.get_bot('greedy');"
            "assert 'skyline.players.expert' not in sys.modules;"
            "from skyline.players.registry import get_bot; get_bot('expert');"
            "assert 'skyline.players.expert' in sys.modules"
            " and 'skyline.players.bots' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=SKYLINE_DIR.parent)


def test_registry_lists_the_shipped_bots():
    assert available_bots()[:4] == ("random", "beginner", "greedy", "expert")
    assert {"random", "beginner", "greedy", "expert"} <= set(BOTS)
    assert set(LEVEL_LETTERS.values()) <= set(registry.BOT_MODULES)
    assert get_bot("expert") is BOTS["expert"] and bot_available("expert")
    with pytest.raises(BotError) as info:
        get_bot("nobody")
    assert info.value.code == "unknown_bot" and info.value.params["name"] == "nobody"
    assert "nobody" not in BOTS


def test_expert_without_its_table_is_explicitly_unavailable(monkeypatch):
    """A missing value table is said, not silently dropped: the registry refuses the
    expert with a code, and links naming an expert seat are refused."""
    from skyline.players import solo_value

    monkeypatch.setattr(solo_value, "table_available", lambda: False)
    assert not bot_available("expert") and "expert" not in available_bots()
    assert "expert" not in BOTS and "greedy" in BOTS
    with pytest.raises(BotError) as info:
        get_bot("expert")
    assert info.value.code == "bot_unavailable"
    with pytest.raises(KeyError):
        BOTS["expert"]
    # the link reader only parses; the caller checks the levels against the registry
    bots = dict(parse_share_bots("#play?p=A,B&seed=x&bots=1e"))
    assert bots == {1: "expert"}
    assert make_share_fragment(Options(("A", "B"), "x"), None, bots).endswith("&bots=1e")
    with pytest.raises(LinkError) as link:
        check_bots_available(bots, bot_available)
    assert link.value.code == "bots" and link.value.params["reason"] == "unavailable"
    assert link.value.params["level"] == "expert"
    check_bots_available(dict(parse_share_bots("#play?p=A,B&seed=x&bots=1g")), bot_available)


def test_table_available_follows_the_resource(monkeypatch):
    from skyline.players import solo_value

    monkeypatch.setattr(solo_value, "_TABLE", None)
    monkeypatch.setattr(solo_value, "TABLE_RESOURCE", "data/no_such_table.bin")
    assert not solo_value.table_available() and not bot_available("expert")
    monkeypatch.setattr(solo_value, "TABLE_RESOURCE", "data/solo_values.bin")
    assert solo_value.table_available()


# --------------------------------------------------------------------------- letters, link, push


def test_letters_and_link_prefix_are_defined_once():
    assert [t.letter for t in DieType] == list(DIE_LETTERS) == list("GUP")
    assert [f.letter for f in Face] == list(FACE_LETTERS) == list("pbox")
    assert all(DieType.from_letter(c).letter == c for c in DIE_LETTERS)
    assert all(Face.from_letter(c).letter == c for c in FACE_LETTERS)
    with pytest.raises(ValueError):
        Face.from_letter("q")
    fragment = "#" + make_share_fragment(Options(("A",), "x"))
    assert fragment.startswith(LINK_PREFIX) and LINK_PREFIX == "#play?"
    assert parse_share_fragment(fragment).options.seed == "x"


def test_board_push_takes_no_faces():
    """A record has no faces, so the board cannot take them: every roll it records comes
    from the seed and replays the same."""
    assert list(inspect.signature(Board.push).parameters) == ["self", "action"]
    board = Board.new(["A"], "s")
    board.push_text("tGUP")
    with pytest.raises(TypeError):
        board.push(Roll((0, 1, 2)), [Face.PURPLE] * 3)  # type: ignore[call-arg]
    board.push(Roll((0, 1, 2)))
    assert Board.from_record(board.record()).state == board.state
    assert board.state.phase in (Phase.RESOLVE, Phase.TAKE)
