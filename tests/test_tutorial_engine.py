"""The guided first game's engine side: positions from a description, scripted chance
outcomes picked through ``roll_outcomes``, and the rulebook's sample round played move
by move with its own dice (skyline/rules/position.py, skyline/records/tutorial.py)."""

from __future__ import annotations

import pytest

from skyline import (
    Building,
    Column,
    DieType,
    Face,
    IllegalActionError,
    OptionsError,
    Phase,
    Roll,
    apply_action,
    is_legal,
    legal_actions,
    roll_outcomes,
    score,
)
from skyline.records.tutorial import (
    SAMPLE_MOVES,
    SAMPLE_ROLLS,
    die_kind,
    move_action_counts,
    pick_dice,
    resolve_move,
    sample_round_board,
    sample_round_start,
)
from skyline.rules.position import (
    PositionBoard,
    ScriptedRolls,
    outcome_for,
    parse_skyline,
    position_state,
)

P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741
G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE


def test_position_state_builds_the_start_of_a_turn() -> None:
    state = position_state(("Ann", "Bo", "Cy"), round=4, seat=1, district="PUG",
                           skylines=("o3 | p1", "b2 p1", "| o6 b4"))
    assert (state.round, state.seat, state.phase, state.dice, state.rolls) == (
        4, 1, Phase.TAKE, (), 0)
    assert state.district == (G, U, PH)
    assert state.players[0].columns == (Column(O, 3),)
    assert state.players[0].buildings == (Building(P, 1),)
    assert state.players[1].columns == (Column(B, 2), Column(P, 1))
    assert state.players[2].buildings == (Building(O, 6), Building(B, 4))
    assert score(state.players[2]) == 52
    assert legal_actions(state)  # the engine plays on from it


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"round": 0}, "round"),
    ({"round": 10}, "round"),
    ({"seat": 2}, "seat"),
    ({"district": "GXU"}, "district"),
    ({"skylines": ("o2",)}, "one skyline per player"),
    ({"skylines": ("p2", "")}, "unfinished low-rise is 1 to 1"),
    ({"skylines": ("b4", "")}, "unfinished mid-rise is 1 to 3"),
    ({"skylines": ("o6", "")}, "unfinished high-rise is 1 to 5"),
    ({"skylines": ("| b1", "")}, "completed mid-rise is 2 to 4"),
    ({"skylines": ("| o2", "")}, "completed high-rise is 3 to 6"),
    ({"skylines": ("| p3", "")}, "completed low-rise is 1 to 2"),
    ({"skylines": ("x1", "")}, "not a building"),
    ({"skylines": ("o12", "")}, "not a building"),
    ({"skylines": ("o1 | p1 | p1", "")}, "one '|'"),
])
def test_position_state_refuses_what_the_rules_cannot_reach(kwargs, message) -> None:
    args = {"round": 3, "skylines": ("", ""), **kwargs}
    with pytest.raises(ValueError, match=message):
        position_state(("Ann", "Bo"), **args)


def test_position_state_checks_the_options_and_the_solo_district() -> None:
    with pytest.raises(OptionsError):
        position_state((), round=1, skylines=())
    with pytest.raises(ValueError, match="solo"):
        position_state(("Ann",), round=1, skylines=("",), district="G")
    assert position_state(("Ann",), round=1, skylines=("",), district="").solo


def test_parse_skyline_reads_columns_and_tiles() -> None:
    assert parse_skyline("") == ((), ())
    assert parse_skyline("o5 b3 p1 | o6") == (
        (Column(O, 5), Column(B, 3), Column(P, 1)), (Building(O, 6),))


def test_outcome_for_picks_one_of_the_engines_outcomes() -> None:
    types = (G, U, U, PH)
    faces = outcome_for(types, "Gb Up Up Px")
    assert faces in [f for f, _p in roll_outcomes(types)]
    assert faces == (B, P, P, X)
    assert outcome_for((U, G), "Gp Uo") == (O, P)  # aligned with the types asked
    with pytest.raises(ValueError, match="cannot show"):
        outcome_for((G,), "Gx")  # a ground floor has no blank face
    with pytest.raises(ValueError, match="cannot show"):
        outcome_for((G, G), "Gb")  # two dice, one face
    with pytest.raises(ValueError):
        ScriptedRolls(("Qb",))


def test_a_position_board_rolls_the_script_then_the_seed() -> None:
    start = position_state(("Ann",), round=1, skylines=("",), district="", seed="s1")
    board = PositionBoard(start, ScriptedRolls(("Go Go Go",)))
    board.push_text("tGGG")
    board.push_text("r0.1.2")
    assert [d.face for d in board.state.dice] == [O, O, O]
    assert not board.can_undo()  # a roll commits, as on every board
    copy = board.copy()
    assert isinstance(copy, PositionBoard) and copy.state == board.state
    board.push_text("b0")
    before = board.state
    board.push_text("r1.2")  # beyond the script: the seed decides, as on a plain board
    assert board.state == apply_action(before, Roll((1, 2)))


def test_the_sample_round_plays_as_the_rulebook_tells_it() -> None:
    board = sample_round_board()
    start = board.state
    assert (start.round, start.seat, len(start.players)) == (3, 0, 3)
    assert [t.letter for t in start.district] == ["G", "U", "P"]  # "3 dice at the district"
    rolls = []
    for move in SAMPLE_MOVES:
        before = board.state
        actions = resolve_move(before, move)
        for action in actions:
            assert is_legal(board.state, action), (move, action)
            board.push(action)
        if move.verb == "roll":
            rolls.append(" ".join(sorted(die_kind(d) for d in board.state.dice
                                         if d.id in actions[0].dice)))  # type: ignore[union-attr]
    assert rolls == [" ".join(sorted(r.split())) for r in SAMPLE_ROLLS]
    eileen, tim, david = board.state.players
    # Eileen: both high-rise upper floors on her high-rise, the mid-rise one on her mid-rise
    assert eileen.columns == (Column(O, 4), Column(B, 2))
    # Tim: a new mid-rise, ground floor plus the rerolled upper floor
    assert tim.columns == (Column(B, 2),)
    assert tim.buildings == (Building(B, 3), Building(P, 2))
    # David: one height-2 tile demolished, a height-3 mid-rise tile completed
    assert david.columns == ()
    assert david.buildings == (Building(P, 2), Building(B, 4), Building(B, 3))
    assert david.demolitions == 1
    # the district was restocked (one die of each type), and round 4 begins with Eileen
    assert [t.letter for t in board.state.district] == ["G", "U", "P"]
    assert (board.state.round, board.state.seat, board.state.phase) == (4, 0, Phase.TAKE)


def test_tim_abandons_one_die_so_david_finds_four() -> None:
    board = sample_round_board()
    counts = move_action_counts()
    tim_end = SAMPLE_MOVES.index(next(m for m in SAMPLE_MOVES if m.seat == 1 and m.verb == "end"))
    for move in SAMPLE_MOVES[: tim_end + 1]:
        for action in resolve_move(board.state, move):
            board.push(action)
    assert len(board.actions) == counts[tim_end]
    assert sorted(t.letter for t in board.state.district) == ["G", "P", "U", "U"]


def test_moves_name_dice_by_kind_and_refuse_what_is_not_there() -> None:
    board = sample_round_board()
    for move in SAMPLE_MOVES[:2]:
        for action in resolve_move(board.state, move):
            board.push(action)
    dice = board.state.dice
    assert pick_dice(dice, ["Uo", "Uo"]) == tuple(d.id for d in dice if d.face is O)
    with pytest.raises(IllegalActionError):
        pick_dice(dice, ["Up"])
    with pytest.raises(IllegalActionError):
        resolve_move(board.state, SAMPLE_MOVES[6])  # Tim's move in Eileen's turn
    assert sample_round_start() == sample_round_board().state
