"""One test per ruling in /work/shared/RULINGS.md, written from the rule text.

Each test quotes the ruling it checks in its docstring. Rulings win over code.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations_with_replacement, product
from math import isclose

import pytest
from engine_helpers import (
    NAMES,
    can_place_all_brute,
    cols,
    completions,
    dice,
    make_state,
    pass_turn,
    place,
    raw_targets,
    tiles,
)

from skyline import (
    SCENARIOS,
    Abandon,
    Board,
    Build,
    Building,
    Column,
    Demolish,
    Die,
    DieType,
    EndTurn,
    Face,
    IllegalActionError,
    Options,
    Phase,
    Player,
    RecordError,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    build_targets,
    can_build_all,
    completed_count,
    final_buildings,
    game_summary,
    legal_actions,
    new_game,
    parse_action,
    parse_options,
    plan_build,
    ranking,
    roll_outcomes,
    scenario_met,
    score,
    seeded_faces,
    solo_level,
    validate_options,
)
from skyline.rules import DIE_FACES

G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE
P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741


def illegal(code: str, state, action, **kw):
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action, **kw)
    assert info.value.code == code, (info.value.code, str(info.value))
    return info.value


# =========================================================================== dice and supply


@pytest.mark.parametrize(
    "die_type, expected",
    [(G, {P: 3, B: 2, O: 1}), (U, {P: 3, B: 2, O: 1}), (PH, {X: 3, B: 2, O: 1})],
)
def test_die_faces(die_type, expected):
    """"Ground-floor die: 3 low-rise (purple), 2 mid-rise (blue), 1 high-rise (orange)
    faces. Upper-floor die: 3 purple, 2 blue, 1 orange faces. Penthouse die: 3 blank,
    2 blue penthouse, 1 orange penthouse faces." """
    assert Counter(DIE_FACES[die_type]) == expected
    probs = {faces[0]: p for faces, p in roll_outcomes([die_type])}
    assert probs == pytest.approx({f: n / 6 for f, n in expected.items()})


def test_supply_is_unlimited():
    """"Dice and building tiles are not limited by the physical supply." Every turn
    may take any three dice, however many are already built."""
    board = Board.new(["Ada"], seed="supply")
    for _ in range(9):
        assert {str(a) for a in board.legal_actions()} == {
            "tGGG", "tGGU", "tGGP", "tGUU", "tGUP", "tGPP", "tUUU", "tUUP", "tUPP", "tPPP",
        }
        if board.is_game_over():
            break
        pass_turn(board)
    assert board.is_game_over()
    assert len(board.state.players[0].columns) + len(board.state.players[0].buildings) >= 9


# =========================================================================== setup


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_setup_gifts_and_start_seat(n, start):
    """"Start player: a built high-rise ground floor; second: mid-rise ground floor;
    third: low-rise ground floor; fourth: nothing." and "1 to 4 players; 1 player is
    the solo game." """
    if start >= n:
        with pytest.raises(ValueError, match="^start_seat"):
            new_game(Options(NAMES[:n], "gift", start))
        return
    state = new_game(Options(NAMES[:n], "gift", start))
    assert state.solo == (n == 1)
    assert state.seat == start and state.start_seat == start and state.round == 1
    gifts = [(Column(O, 1),), (Column(B, 1),), (Column(P, 1),), ()]
    for order in range(n):
        player = state.players[(start + order) % n]
        assert player.columns == gifts[order]
        assert player.buildings == () and player.demolitions == 0


def test_start_seat_from_seed():
    """The start player may be chosen for the players (``start_seat`` None derives it
    from the seed): it is a valid seat, the same for the same seed."""
    seats = {validate_options(Options(NAMES, f"s{i}", None)).start_seat for i in range(40)}
    assert seats <= {0, 1, 2, 3} and len(seats) > 1
    assert validate_options(Options(NAMES, "same", None)) == validate_options(
        Options(NAMES, "same", None)
    )


def test_seats_play_in_order_from_start_player():
    """"Seats play in order from the start player, who starts every round." """
    board = Board.new(NAMES, seed="order", start_seat=2)
    seen = []
    for _ in range(9):
        seen.append((board.state.round, board.state.seat))
        pass_turn(board)
    assert seen == [(1, 2), (1, 3), (1, 0), (1, 1), (2, 2), (2, 3), (2, 0), (2, 1), (3, 2)]


def test_district_starts_with_one_die_of_each_type():
    """"The abandoned district starts with one unrolled die of each type." (Not in
    solo, where the district is not used at all.)"""
    for n in (2, 3, 4):
        assert Counter(new_game(Options(NAMES[:n], "d")).district) == {G: 1, U: 1, PH: 1}
    assert new_game(Options(("Solo",), "d")).district == ()


# =========================================================================== a turn


def test_take_exactly_three_any_mix():
    """"Take exactly three dice from the construction yard, any mix of types" """
    state = new_game(Options(NAMES[:2], "take"))
    takes = [a for a in legal_actions(state) if isinstance(a, Take)]
    assert len(takes) == 10
    assert {tuple(a.types) for a in takes} == set(combinations_with_replacement((G, U, PH), 3))
    for types in [(G, G), (G, G, U, PH), ()]:
        illegal("take_three", state, Take(types))
    after = apply_action(state, Take((PH, G, U)))
    assert [d.type for d in after.dice] == [G, U, PH]
    assert all(d.face is None for d in after.dice) and after.phase is Phase.ROLL


def test_take_district_refills_at_once_and_later_abandons_join():
    """"or take every die in the abandoned district. Taking the district refills it at
    once with one die of each type (so dice abandoned later in that turn join the fresh
    three)." """
    state = make_state(2, phase=Phase.TAKE)._replace(district=(G, G, U, PH, PH))
    taken = apply_action(state, TakeDistrict())
    assert [d.type for d in taken.dice] == [G, G, U, PH, PH]
    assert Counter(taken.district) == {G: 1, U: 1, PH: 1}
    rolled = apply_action(taken, Roll((0, 1, 2, 3, 4)), faces=[P, B, O, X, X])
    after = apply_action(rolled, Abandon((3, 4)))
    assert Counter(after.district) == {G: 1, U: 1, PH: 3}
    assert [d.id for d in after.dice] == [0, 1, 2]


def test_district_not_offered_when_empty():
    """Taking the district takes "every die in the abandoned district"; with none
    there it is neither listed nor accepted."""
    state = make_state(2, phase=Phase.TAKE)._replace(district=())
    assert TakeDistrict() not in legal_actions(state)
    illegal("empty_district", state, TakeDistrict())


def test_first_roll_rolls_all_taken_dice():
    """"Roll all taken dice." """
    state = apply_action(new_game(Options(("Solo",), "roll")), Take((G, U, PH)))
    assert legal_actions(state) == [Roll((0, 1, 2))]
    illegal("roll_all", state, Roll((0, 1)))
    illegal("wrong_phase", state, Build(0))
    illegal("wrong_phase", state, EndTurn())
    after = apply_action(state, Roll((0, 1, 2)))
    assert all(d.face is not None for d in after.dice) and after.rolls == 1


def test_resolve_at_least_one_before_reroll_or_end():
    """"Resolve at least one die" and "Ending the turn or rerolling needs at least one
    die resolved since the last roll." """
    state = make_state(1, columns="o1", dice_spec="Gp Ub Px", phase=Phase.RESOLVE)
    names = {type(a).__name__ for a in legal_actions(state)}
    assert "Roll" not in names and "EndTurn" not in names
    illegal("wrong_phase", state, Roll((1,)))
    illegal("wrong_phase", state, EndTurn())
    built = apply_action(state, Build(0))
    assert built.phase is Phase.CONTINUE
    rerolled = apply_action(built, Roll((1, 2)))
    assert rerolled.phase is Phase.RESOLVE
    illegal("wrong_phase", rerolled, Roll((1,)))
    illegal("wrong_phase", rerolled, EndTurn())


def test_reroll_selection_keeps_other_faces():
    """"Reroll a nonempty selection of the remaining dice (dice not rerolled keep their
    faces) and go to 3" """
    state = make_state(1, columns="o1", dice_spec="Gp Ub Px Po", phase=Phase.CONTINUE)
    after = apply_action(state, Roll((1, 3)), faces=[P, B])
    assert after.dice == (Die(0, G, P), Die(1, U, P), Die(2, PH, X), Die(3, PH, B))
    illegal("empty_selection", state, Roll(()))
    illegal("no_die", state, Roll((7,)))
    illegal("repeated_die", state, Roll((1, 1)))
    rerolls = [a for a in legal_actions(state) if isinstance(a, Roll)]
    # four distinct dice: every nonempty subset is a distinct selection
    assert len(rerolls) == 15


def test_end_turn_returns_remaining_dice():
    """"or end the turn, and the remaining dice go back to the yard." """
    state = make_state(2, dice_spec="Gp Ub Px", phase=Phase.CONTINUE)
    after = apply_action(state, EndTurn())
    assert after.dice == () and after.seat == 1 and after.phase is Phase.TAKE
    assert after.district == state.district  # not to the district


def test_no_dice_left_only_end_turn():
    """"With no dice left the turn ends." The engine keeps the last build undoable, so
    the only thing left to do is ending the turn."""
    state = make_state(1, dice_spec="Gp", phase=Phase.RESOLVE)
    after = apply_action(state, Build(0))
    assert after.dice == () and legal_actions(after) == [EndTurn()]


def _board_with_empty_skyline() -> Board:
    """Solo, round 2 start, after demolishing the setup gift in round 1."""
    board = Board.new(["Solo"], seed="stuck")
    board.push_text("tGGG")
    board.push_text("r0.1.2")
    board.push_text("x0@c0")
    board.push_text("e")
    state = board.state
    assert state.round == 2 and state.players[0].columns == () == state.players[0].buildings
    return board


def test_stuck_roll_ends_turn_and_log_says_so():
    """"If after a roll no die can be resolved at all (solo only: nothing buildable and no
    building to demolish), the turn ends and the dice go back to the yard; the log says
    so." """
    board = _board_with_empty_skyline()
    board.push_text("tUUP")
    board.push_text("r0.1.2")
    state = board.state
    assert state.round == 3 and state.phase is Phase.TAKE and state.dice == ()
    assert not board.can_undo()
    events = [e["event"] for e in board.log()]
    assert events[-3:] == ["roll", "stuck", "round_end"]
    # explicit faces: a blank penthouse with nothing to demolish is stuck as well
    state = apply_action(
        make_state(1, dice_spec="P?", phase=Phase.ROLL, round=9), Roll((0,)), faces=[X]
    )
    assert state.phase is Phase.OVER


def test_roll_with_something_to_resolve_is_not_stuck():
    """Stuck only when *no* die can be resolved: a ground die always builds, and in a
    game of several players abandoning is always possible."""
    board = _board_with_empty_skyline()
    board.push_text("tGUP")
    board.push_text("r0.1.2")
    assert board.state.phase is Phase.RESOLVE
    multi = apply_action(make_state(2, dice_spec="U? P?", phase=Phase.ROLL), Roll((0, 1)),
                         faces=[B, X])
    assert multi.phase is Phase.RESOLVE
    assert {type(a) for a in legal_actions(multi)} == {Abandon}


# =========================================================================== build


@pytest.mark.parametrize("face", [P, B, O])
def test_ground_floor_starts_new_building(face):
    """"A ground-floor die starts a new building of its colour." """
    state = make_state(1, columns="o1 b2", dice_spec=f"G{face.letter}")
    assert build_targets(state.player.columns, state.dice[0]) == [None]
    after = apply_action(state, Build(0))
    assert after.player.columns == cols(f"o1 b2 {face.letter}1")
    illegal("ground_on_top", state, Build(0, 0))


def test_upper_floor_needs_column_of_its_colour():
    """"An upper-floor die goes on top of an unfinished building of its colour." """
    state = make_state(1, columns="o1 b1", dice_spec="Ub Up")
    illegal("needs_column", state, Build(0))
    illegal("wrong_colour", state, Build(0, 0))
    illegal("no_column", state, Build(0, 5))
    assert apply_action(state, Build(0, 1)).player.columns == cols("o1 b2")
    assert build_targets(state.player.columns, state.dice[1]) == []


def test_purple_upper_floor_completes_at_two():
    """"Purple: completes it at height 2." """
    state = make_state(1, columns="p1", dice_spec="Up")
    after = apply_action(state, Build(0, 0))
    assert after.player.columns == () and after.player.buildings == tiles("p2")


def test_blue_upper_only_while_result_at_most_three():
    """"Blue: only while the result is at most 3 high (room for the penthouse within
    4)." A fourth upper floor on a mid-rise is illegal."""
    state = make_state(1, columns="b1 b2 b3", dice_spec="Ub")
    assert build_targets(state.player.columns, state.dice[0]) == [0, 1]
    assert apply_action(state, Build(0, 1)).player.columns == cols("b1 b3 b3")
    illegal("too_high", state, Build(0, 2))


def test_orange_upper_up_to_five():
    """"Orange: only while the result is at most 5 high." """
    state = make_state(1, columns="o1 o4 o5", dice_spec="Uo")
    assert build_targets(state.player.columns, state.dice[0]) == [0, 1]
    assert apply_action(state, Build(0, 1)).player.columns == cols("o1 o5 o5")
    illegal("too_high", state, Build(0, 2))


@pytest.mark.parametrize("height", [1, 2, 3])
def test_blue_penthouse_completes_mid_rise(height):
    """"A blue penthouse completes an unfinished mid-rise of height 1 to 3 (final height
    2 to 4)." Blue penthouse on blue height 1 is legal (final height 2)."""
    state = make_state(1, columns=f"b{height}", dice_spec="Pb")
    after = apply_action(state, Build(0, 0))
    assert after.player.columns == ()
    assert after.player.buildings == (Building(B, height + 1),)


@pytest.mark.parametrize("height", [1, 2, 3, 4, 5])
def test_orange_penthouse_needs_height_two_to_five(height):
    """"An orange penthouse completes an unfinished high-rise of height 2 to 5 (final
    height 3 to 6)." A penthouse on a lone high-rise ground floor is illegal."""
    state = make_state(1, columns=f"o{height}", dice_spec="Po")
    if height == 1:
        illegal("penthouse_height", state, Build(0, 0))
        assert build_targets(state.player.columns, state.dice[0]) == []
        return
    after = apply_action(state, Build(0, 0))
    assert after.player.buildings == (Building(O, height + 1),)


def test_penthouse_colour_must_match():
    """A penthouse completes "an unfinished mid-rise" (blue) or "high-rise" (orange) of its
    colour; there is no purple penthouse."""
    state = make_state(1, columns="p1 o3", dice_spec="Pb")
    illegal("wrong_colour", state, Build(0, 0))
    illegal("wrong_colour", state, Build(0, 1))


def test_blank_penthouse_cannot_be_built_but_can_demolish():
    """"A blank penthouse face cannot be built." and "Any die face may demolish, a blank
    penthouse included." """
    state = make_state(1, columns="b3 o5", dice_spec="Px")
    illegal("blank_penthouse", state, Build(0, 0))
    illegal("blank_penthouse", state, Build(0))
    assert not any(isinstance(a, Build) for a in legal_actions(state))
    after = apply_action(state, Demolish(0, 1))
    assert after.player.columns == cols("b3") and after.player.demolitions == 1


def test_completed_buildings_never_grow():
    """"A completed building becomes a tile of its height and never grows again." Once
    completed there is no column left to target."""
    state = make_state(1, columns="b2", dice_spec="Pb Ub Pb")
    done = apply_action(state, Build(0, 0))
    assert done.player.buildings == tiles("b3") and done.player.columns == ()
    illegal("no_column", done, Build(1, 0))
    illegal("no_column", done, Build(2, 0))
    assert not any(isinstance(a, Build) for a in legal_actions(done))


def test_no_limit_on_buildings():
    """"A player's skyline has no limit on buildings." """
    state = make_state(1, columns=" ".join(["p1"] * 30), buildings=" ".join(["b2"] * 30),
                       dice_spec="Gb")
    after = apply_action(state, Build(0))
    assert len(after.player.columns) == 31 and len(after.player.buildings) == 30


def test_building_several_dice_in_order():
    """"Building several selected dice at once is allowed when every selected die can be
    placed in some order (ground floors first, then upper floors, then penthouses)." """
    board = Board.new(["Solo"], seed="multi")
    board._states[-1] = make_state(1, columns="", dice_spec="Pb Ub Gb Po")
    plan = board.plan_build([0, 1, 2])
    assert plan.feasible and plan.choice_die is None
    assert plan.steps == (Build(2, None), Build(1, 0), Build(0, 0))
    board.build_selection([0, 1, 2])
    assert board.state.player.buildings == tiles("b3")
    assert not board.plan_build([3]).feasible
    with pytest.raises(IllegalActionError) as info:
        board.build_selection([3])
    assert info.value.code == "cannot_build_all"


# =========================================================================== abandon / demolish


def test_abandon_moves_dice_to_district():
    """"Abandon moves the chosen dice to the district." """
    state = make_state(3, dice_spec="Gp Ub Px", phase=Phase.RESOLVE)
    after = apply_action(state, Abandon((0, 2)))
    assert Counter(after.district) == Counter(state.district) + Counter([G, PH])
    assert after.dice == (Die(1, U, B),) and after.phase is Phase.CONTINUE
    assert after.players == state.players


def test_solo_has_no_abandon_and_no_district():
    """"Abandon ... Not available in the solo game, where the district is not used at all
    (it cannot be taken either)." """
    state = make_state(1, columns="o1", dice_spec="Gp Ub Px")
    illegal("solo_abandon", state, Abandon((0,)))
    assert not any(isinstance(a, Abandon) for a in legal_actions(state))
    start = new_game(Options(("Solo",), "solo"))
    illegal("solo_district", start._replace(district=(G, U, PH)), TakeDistrict())
    illegal("solo_district", start, TakeDistrict())
    assert TakeDistrict() not in legal_actions(start)


def test_demolish_completed_building_and_column():
    """"Demolish spends one die and removes one of the active player's buildings, finished
    or not; both go to the yard. Each demolishing die removes exactly one building." """
    state = make_state(2, columns="o3 b1", buildings="p2 b4", dice_spec="Gp Ub Px")
    other = state.players[1]
    a = apply_action(state, Demolish(0, 1, completed=True))
    assert a.player.buildings == tiles("p2") and a.player.columns == cols("o3 b1")
    assert a.player.demolitions == 1 and [d.id for d in a.dice] == [1, 2]
    assert a.district == state.district and a.players[1] == other
    b = apply_action(a, Demolish(2, 0))
    assert b.player.columns == cols("b1") and b.player.demolitions == 2
    assert [d.id for d in b.dice] == [1]
    illegal("no_target", b, Demolish(1, 1, completed=True))
    illegal("no_target", b, Demolish(1, 3))
    illegal("no_die", b, Demolish(0, 0))


def test_demolish_listed_for_every_die_face():
    """"Any die face may demolish" - every die is offered every building class."""
    state = make_state(1, columns="o3 o3 b1", buildings="p2", dice_spec="Gp Ub Px")
    demolitions = {(a.die, a.index, a.completed) for a in legal_actions(state)
                   if isinstance(a, Demolish)}
    assert demolitions == {(d, i, c) for d in range(3) for i, c in [(0, False), (2, False),
                                                                     (0, True)]}


# =========================================================================== end and scoring


def _finish_round(board: Board) -> None:
    start_round = board.state.round
    while not board.is_game_over() and board.state.round == start_round:
        pass_turn(board)


def test_standard_game_ends_after_round_nine():
    """"Standard game: ends after round 9" """
    board = Board.new(NAMES[:3], seed="nine")
    for _ in range(9 * 3):
        assert not board.is_game_over()
        pass_turn(board)
    assert board.is_game_over() and board.state.round == 9
    assert board.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        board.push_text("tGGG")
    assert info.value.code == "game_over"


def _six_high_board(all_nine: bool, players: int = 3) -> Board:
    board = Board.new(NAMES[:players], seed="six", start_seat=1, all_nine=all_nine)
    pass_turn(board)  # seat 1 (start player) in round 3 below
    state = board.state
    me = state.players[2]._replace(columns=cols("o5"))
    board._states[-1] = state._replace(
        round=3,
        players=state.players[:2] + (me,) + state.players[3:],
        dice=dice("Po Gp"),
        phase=Phase.RESOLVE,
    )
    board._floor = len(board._actions)
    board.push(Build(0, 0))
    assert board.state.player.buildings == tiles("o6")
    board.push(EndTurn())
    return board


def test_six_high_building_ends_standard_game_after_the_round():
    """"or at the end of the round in which any player completed a building 6 high (the
    round is finished)." """
    board = _six_high_board(all_nine=False)
    assert not board.is_game_over() and board.state.seat == 0 and board.state.round == 3
    pass_turn(board)  # seat 0, the last of the round (start player is 1)
    assert board.is_game_over() and board.state.round == 3
    assert board.log()[-1]["event"] == "game_over"


def test_six_high_building_in_all_nine_mode_continues():
    """"Option "play all nine rounds": a 6-high building does not end the game early." """
    board = _six_high_board(all_nine=True)
    pass_turn(board)
    assert not board.is_game_over() and board.state.round == 4
    while not board.is_game_over():
        pass_turn(board)
    assert board.state.round == 9


def test_six_high_building_in_solo_ends_after_the_turn():
    """In solo the round is one turn: completing 6 high ends the standard game after it."""
    state = make_state(1, columns="o5", dice_spec="Po Gp", round=2)
    state = apply_action(apply_action(state, Build(0, 0)), EndTurn())
    assert state.phase is Phase.OVER
    state9 = make_state(1, columns="o5", dice_spec="Po Gp", round=2, all_nine=True)
    state9 = apply_action(apply_action(state9, Build(0, 0)), EndTurn())
    assert state9.phase is Phase.TAKE and state9.round == 3


def test_scores_are_height_squared():
    """"Completed buildings score height squared: 1, 4, 9, 16, 25, 36." """
    for h in range(1, 7):
        assert Building(O, h).points == h * h
        assert score(Player("a", (), (Building(O, h),))) == h * h


def test_lone_low_rise_converts_others_discarded():
    """"An unfinished lone low-rise ground floor becomes a height-1 tile (1 point and one
    completed building). Other unfinished buildings score nothing." """
    player = Player("a", cols("p1 b3 o5 p1"), tiles("b4"))
    assert final_buildings(player) == tiles("b4 p1 p1")
    assert score(player) == 18 and completed_count(player) == 3


def test_displayed_score_includes_low_rise_ground_floors():
    """"The score shown during play includes low-rise ground floors." """
    board = Board.new(NAMES[:3], seed="shown")
    assert board.scores() == [0, 0, 1]


def test_rulebook_scoring_example():
    """Rulebook: "a skyline of seven completed buildings scoring 9, 1, 16, 16, 16, 4, and 1
    points totals 83 points. An unfinished mid-rise building in the same skyline did not
    score."

    The listed points add up to 63, not 83 (9+1+16+16+16+4+1 = 63): the rulebook's total
    is an arithmetic slip (83 would need a 36 in place of one 16). The engine scores the
    listed buildings and ignores the unfinished mid-rise, exactly as the rule text says.
    """
    # completed: 9 (b3), 16 (b4, o4, b4), 4 (p2); the two 1s are lone purple ground floors
    player = Player("Eileen", cols("p1 b2 p1"), tiles("b3 b4 o4 b4 p2"))
    final = final_buildings(player)
    assert sorted(b.points for b in final) == sorted([9, 1, 16, 16, 16, 4, 1])
    assert len(final) == 7 and completed_count(player) == 7
    assert score(player) == 9 + 1 + 16 + 16 + 16 + 4 + 1 == 63
    state = make_state(1)._replace(players=(player,), phase=Phase.OVER)
    row = game_summary(state).to_dict()["players"][0]
    assert row["score"] == 63 and row["converted"] == 2 and row["discarded"] == [["b", 2]]
    assert sorted(p for _, _, p in row["final"]) == [1, 1, 4, 9, 16, 16, 16]
    # with a 36 in place of one 16 the skyline would total the printed 83
    assert score(player._replace(buildings=tiles("b3 o6 o4 b4 p2"))) == 83


def _ranked(*players: Player):
    state = make_state(len(players))._replace(players=players, phase=Phase.OVER)
    return ranking(state), game_summary(state).to_dict()


def test_most_points_wins():
    """"Most points wins" """
    ranks, s = _ranked(Player("a", (), tiles("o3")), Player("b", (), tiles("b2 b2")))
    assert ranks == [1, 2] and s["winners"] == [0] and not s["tie_break"]


def test_tie_goes_to_more_completed_buildings():
    """"a tie goes to more completed buildings" (lone low-rise ground floors count)."""
    ranks, s = _ranked(Player("a", (), tiles("o3")), Player("b", cols("p1"), tiles("b2 b2")))
    assert ranks == [2, 1] and s["winners"] == [1] and s["tie_break"]


def test_full_tie_shares_the_win():
    """"still tied, the players share the win." """
    ranks, s = _ranked(
        Player("a", (), tiles("b2 p2")), Player("b", (), tiles("p2 b2")), Player("c", (), ())
    )
    assert ranks == [1, 1, 3] and s["winners"] == [0, 1]


# =========================================================================== solo


@pytest.mark.parametrize(
    "points, title",
    [(0, None), (39, None), (40, "project-manager"), (49, "project-manager"),
     (50, "junior-architect"), (60, "senior-architect"), (70, "principal-architect"),
     (80, "urban-planner"), (90, "master-planner"), (99, "master-planner"),
     (100, "urban-overseer"), (250, "urban-overseer")],
)
def test_solo_levels(points, title):
    """"Levels: 40 Project Manager, 50 Junior Architect, 60 Senior Architect, 70 Principal
    Architect, 80 Urban Planner, 90 Master Planner, 100 Urban Overseer." """
    assert solo_level(points) == title


@pytest.mark.parametrize(
    "scenario, met, unmet",
    [
        ("dubai", Player("a", (), tiles("b3 o3 b3")), Player("a", (), tiles("b3 o3 b4"))),
        ("essen", Player("a", (), tiles("b3")), Player("a", (), tiles("b3"), demolitions=1)),
        ("new-york", Player("a", (), tiles("o5 o6")), Player("a", cols("o5"), tiles("o6"))),
        ("sao-paolo", Player("a", (), tiles("b4 b4 o4 b4")), Player("a", (), tiles("b4 b4 b4"))),
        ("shanghai", Player("a", cols("b1"), tiles("b2")), Player("a", cols("p1"), tiles("b2"))),
        ("toronto", Player("a", cols("p1"), tiles("b2 " * 6)),
         Player("a", cols("p1 p1"), tiles("b2 " * 6))),
        ("tucson", Player("a", cols("o3"), tiles("b2 p1")), Player("a", (), tiles("o3"))),
    ],
)
def test_solo_scenarios(scenario, met, unmet):
    """"Scenarios, judged on the final scored skyline (after the low-rise conversion):
    Dubai at least three buildings of height 3; Essen Demolish never used; New York at
    least two buildings of height 5 or 6; Sao Paolo at least four buildings of height 4;
    Shanghai no low-rise building in the final skyline; Toronto at most 7 buildings in the
    final skyline; Tucson no high-rise building in the final skyline." """
    assert scenario in SCENARIOS
    assert scenario_met(scenario, met) and not scenario_met(scenario, unmet)


@pytest.mark.parametrize(
    "skyline, met",
    [
        (Player("a", (), ()), True),  # nothing built: at most 7
        (Player("a", (), tiles("b2 " * 6)), True),
        (Player("a", cols("p1 o4"), tiles("b2 " * 5)), True),  # 6 after the conversion
        (Player("a", (), tiles("b2 " * 7)), True),
        (Player("a", cols("p1"), tiles("b2 " * 6)), True),
        (Player("a", (), tiles("b2 " * 8)), False),
        (Player("a", cols("p1"), tiles("b2 " * 7)), False),  # 8 after the conversion
        (Player("a", (), tiles("b2 " * 12)), False),
    ],
)
def test_toronto_is_at_most_seven_buildings(skyline, met):
    """RULINGS: "Toronto at most 7 buildings in the final skyline" (it settles the
    rulebook's "Finish with only 7 total Buildings built"): fewer than 7 meets it as well
    as exactly 7; 8 or more does not."""
    assert len(final_buildings(skyline)) <= 7 if met else len(final_buildings(skyline)) > 7
    assert scenario_met("toronto", skyline) is met


def test_scenario_only_in_solo_and_reported():
    """Scenarios are solo challenges: the summary says whether it was met."""
    with pytest.raises(ValueError, match="^scenario"):
        validate_options(Options(NAMES[:2], "s", 0, False, "dubai"))
    state = new_game(Options(("S",), "s", 0, False, "tucson"))
    s = game_summary(state).to_dict()
    # the orange gift is unfinished, so it is discarded: no high-rise in the final skyline
    assert s["scenario"] == "tucson" and s["scenario_met"] is True
    done = state._replace(players=(state.players[0]._replace(buildings=tiles("o3")),))
    assert game_summary(done).scenario_met is False
    assert game_summary(new_game(Options(("S",), "s"))).scenario_met is None


# =========================================================================== not part of the game


def test_only_the_basic_actions_exist():
    """"Fast-track dice, events and landmarks are not offered." Only the seven basic
    action kinds exist and the notation knows nothing else."""
    kinds = {Take, TakeDistrict, Roll, Build, Demolish, Abandon, EndTurn}
    rng = random.Random(1)
    for seed in range(5):
        state = new_game(Options(NAMES, f"only{seed}"))
        while state.phase is not Phase.OVER:
            actions = legal_actions(state)
            assert {type(a) for a in actions} <= kinds
            state = apply_action(state, rng.choice(actions))
    for token in ["f0", "tF", "l1", "ev", "tGG", "b", "x1", "x1@2", "r", "a", "E", "r1.1"]:
        with pytest.raises(ValueError):
            parse_action(token)


# =========================================================================== undo (online help)


def test_undo_each_build_and_demolish_is_its_own_step():
    """Online help: "Each build and demolition has its own undo step; Roll and Abandon
    process the selection together. Rolling commits earlier decisions and cannot be
    undone." """
    board = Board.new(["Solo"], seed="undo")
    board._states[-1] = make_state(1, columns="o1 b1", dice_spec="Gp Ub Uo Px")
    board.build_selection([0, 1, 2])
    assert len(board.actions) == 3
    board.push(Demolish(3, 0, False))
    states = list(board._states)
    for expected in (Demolish(3, 0, False), Build(2, 0), Build(1, 1), Build(0, None)):
        assert board.can_undo()
        assert board.pop() == expected
    assert not board.can_undo() and board.state == states[0]
    with pytest.raises(IllegalActionError) as info:
        board.pop()
    assert info.value.code == "no_undo"


def test_undo_abandon_is_one_step():
    """"Roll and Abandon process the selection together." """
    board = Board.new(NAMES[:2], seed="undo")
    board.push_text("tGUP")
    board.push_text("r0.1.2")
    before = board.state
    board.push_text("a0.2")
    assert len(board.state.district) == 5
    assert board.pop() == Abandon((0, 2)) and board.state == before


def test_undo_take_until_roll_and_commits():
    """Taking can be undone until the roll; "Rolling commits earlier decisions and cannot
    be undone"; ending the turn commits too."""
    board = Board.new(NAMES[:2], seed="undo")
    assert not board.can_undo()
    board.push_text("tGGP")
    assert board.can_undo()
    board.pop()
    board.push_text("tD")
    assert board.can_undo()
    board.push_text("r0.1.2")
    assert not board.can_undo()
    board.push_text("b0")
    assert board.can_undo()
    board.push_text("e")
    assert not board.can_undo()
    board.push_text("tGGG")
    assert board.can_undo()


# =========================================================================== seeded chance


def _play_tokens(tokens, names=("Solo",), seed="seed-a") -> Board:
    board = Board.new(names, seed=seed)
    for t in tokens:
        board.push_text(t)
    return board


def test_same_seed_same_actions_same_faces():
    """The seed decides every roll: same seed and same actions give the same game."""
    tokens = ["tGUP", "r0.1.2"]
    a, b = _play_tokens(tokens), _play_tokens(tokens)
    assert a.state == b.state
    other = [_play_tokens(tokens, seed=f"seed-{i}").state.dice for i in range(12)]
    assert len(set(other)) > 1


def test_same_types_same_seat_round_same_faces():
    """Two players (in two games of the same seed) taking the same types in the same
    seat and round see the same faces, whatever happened before."""
    a = Board.new(NAMES[:2], seed="fair")
    b = Board.new(NAMES[:2], seed="fair")
    pass_turn(a)
    for t in ["tUUP", "r0.1.2", "a0", "e"]:
        b.push_text(t)
    for board in (a, b):
        board.push_text("tGUU")
        board.push_text("r0.1.2")
    assert a.state.seat == b.state.seat == 1
    assert a.state.dice == b.state.dice
    # the face depends on the die's type and rank within its type, not on its id
    state = a.state._replace(dice=(Die(5, U, None), Die(9, G, None)), rolls=0)
    faces = seeded_faces(state, state.dice)
    swapped = seeded_faces(state, (Die(0, G, None), Die(1, U, None)))
    assert faces == swapped[::-1]


def test_explicit_faces_are_validated():
    """A bot's search may choose the outcome of a roll; impossible faces are refused."""
    state = apply_action(new_game(Options(("Solo",), "f")), Take((G, U, PH)))
    with pytest.raises(ValueError, match="faces"):
        apply_action(state, Roll((0, 1, 2)), faces=[X, P, P])
    with pytest.raises(ValueError, match="faces"):
        apply_action(state, Roll((0, 1, 2)), faces=[P, P])
    after = apply_action(state, Roll((0, 1, 2)), faces=[0, 1, 3])
    assert [d.face for d in after.dice] == [P, B, X]
    assert all(type(d.face) is Face for d in after.dice)


def _brute_outcomes(types):
    counts: Counter = Counter()
    for combo in product(range(6), repeat=len(types)):
        faces = [DIE_FACES[t][i] for t, i in zip(types, combo, strict=True)]
        # sort faces within each type, keeping positions aligned with types
        for t in set(types):
            pos = [i for i, tt in enumerate(types) if tt == t]
            ordered = sorted(faces[i] for i in pos)
            for i, f in zip(pos, ordered, strict=True):
                faces[i] = f
        counts[tuple(faces)] += 1
    return {k: v / 6 ** len(types) for k, v in counts.items()}


@pytest.mark.parametrize(
    "types",
    [c for n in range(1, 5) for c in combinations_with_replacement((G, U, PH), n)]
    + [(PH, G, PH), (U, G, U, G)],
)
def test_roll_outcomes_match_face_counts(types):
    """Rolling is a chance event: ``roll_outcomes`` lists distinct outcomes whose
    probabilities sum to 1 and match the faces of the dice."""
    outcomes = roll_outcomes(list(types))
    assert isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
    got = dict(outcomes)
    assert len(got) == len(outcomes)
    expected = _brute_outcomes(list(types))
    assert got.keys() == expected.keys()
    for k, p in expected.items():
        assert isclose(got[k], p, abs_tol=1e-12)


def test_seeded_faces_are_roughly_fair():
    """The seeded roll gives each face about its share (3/6, 2/6, 1/6)."""
    counts: Counter = Counter()
    state = make_state(1, dice_spec="G? U? P?", phase=Phase.ROLL)
    for i in range(3000):
        s = state._replace(options=state.options._replace(seed=f"fair{i}"))
        counts.update(zip((G, U, PH), seeded_faces(s, s.dice), strict=True))
    for t, faces in DIE_FACES.items():
        for f in set(faces):
            share = counts[(t, f)] / 3000
            assert abs(share - faces.count(f) / 6) < 0.04


# =========================================================================== build planning


def _random_columns(rng: random.Random) -> tuple[Column, ...]:
    out = []
    for _ in range(rng.randint(0, 4)):
        kind = rng.choice([P, B, O])
        out.append(Column(kind, {P: 1, B: rng.randint(1, 3), O: rng.randint(1, 5)}[kind]))
    return tuple(out)


def _random_dice(rng: random.Random, n: int, rolled_only: bool = True) -> tuple[Die, ...]:
    out = []
    for i in range(n):
        t = rng.choice([G, U, PH])
        face = rng.choice(DIE_FACES[t])
        if not rolled_only and rng.random() < 0.1:
            face = None
        out.append(Die(i, t, face))
    return tuple(out)


def test_raw_targets_agree_with_engine_classes():
    """The brute-force reading of the build rules and ``build_targets`` agree (the
    engine lists one column per class of equal colour and height)."""
    rng = random.Random(7)
    for _ in range(2000):
        columns = _random_columns(rng)
        (die,) = _random_dice(rng, 1)
        raw = raw_targets(columns, die)
        listed = build_targets(columns, die)
        assert set(listed) <= set(raw)
        classes = {None if t is None else columns[t] for t in raw}
        assert {None if t is None else columns[t] for t in listed} == classes
        assert len(listed) == len(classes)


def test_can_build_all_matches_brute_force():
    """"Building several selected dice at once is allowed when every selected die can be
    placed in some order" - checked against trying every order and target."""
    rng = random.Random(11)
    for _ in range(3000):
        columns = _random_columns(rng)
        selected = _random_dice(rng, rng.randint(1, 4), rolled_only=False)
        assert can_build_all(columns, selected) == can_place_all_brute(columns, selected), (
            columns, selected)


def _check_plan(state, selection: set[int]) -> None:
    """Walk ``plan_build`` through every choice, comparing with brute force."""
    if not selection:
        return
    player = state.player
    chosen = [d for d in state.dice if d.id in selection]
    reachable = completions(player.columns, player.buildings, chosen)
    plan = plan_build(state, selection)
    assert plan.feasible == bool(reachable)
    if not plan.feasible:
        assert plan.steps == () and plan.choice_die is None
        return
    for step in plan.steps:
        die = next(d for d in state.dice if d.id == step.die)
        rest = [d for d in chosen if d.id != die.id]
        player = state.player
        good = {
            None if t is None else player.columns[t]
            for t in raw_targets(player.columns, die)
            if completions(*place(player.columns, player.buildings, die, t), rest)
        }
        # placed automatically: the target is unique or all good targets are equivalent
        assert good == {None if step.column is None else player.columns[step.column]}
        state = apply_action(state, step)
        selection = selection - {step.die}
        chosen = rest
    if plan.choice_die is None:
        assert not selection
        return
    die = next(d for d in state.dice if d.id == plan.choice_die)
    rest = [d for d in chosen if d.id != die.id]
    player = state.player
    good = {
        None if t is None else player.columns[t]
        for t in raw_targets(player.columns, die)
        if completions(*place(player.columns, player.buildings, die, t), rest)
    }
    offered = [None if t is None else player.columns[t] for t in plan.choices]
    assert len(offered) == len(set(offered)) >= 2  # a real choice, one per class
    assert set(offered) == good  # never a target that strands another selected die
    for choice in plan.choices:
        _check_plan(apply_action(state, Build(die.id, choice)), selection - {die.id})


def test_plan_build_matches_brute_force():
    """Online help: "Build requires that all selected dice can be placed. It automatically
    places dice with unique or equivalent targets; otherwise choose a tower for the
    highlighted die." Checked against a search over all placement orders."""
    rng = random.Random(5)
    choices_seen = feasible = 0
    for _ in range(6000):
        columns = _random_columns(rng)
        state = make_state(1, dice_spec="", phase=Phase.RESOLVE)
        state = state._replace(players=(Player("S", columns, ()),),
                               dice=_random_dice(rng, rng.randint(1, 4)))
        ids = [d.id for d in state.dice]
        selection = set(rng.sample(ids, rng.randint(1, len(ids))))
        _check_plan(state, selection)
        plan = plan_build(state, selection)
        choices_seen += plan.choice_die is not None
        feasible += plan.feasible
    assert choices_seen > 150 and feasible > 1500


def test_plan_build_examples():
    """Unique targets are placed; equal columns are equivalent; a real choice stops."""
    state = make_state(1, columns="o2 o2 b1", dice_spec="Uo Po Ub")
    plan = plan_build(state, [1])
    assert plan.steps == (Build(1, 0),) and plan.choice_die is None  # equivalent o2s
    plan = plan_build(state, [0, 1])
    # the upper floor goes on an o2 (equivalent), then the penthouse has a real choice
    assert plan.steps == (Build(0, 0),) and plan.choice_die == 1
    assert sorted(plan.choices) == [0, 1]
    state = make_state(1, columns="o1 o3", dice_spec="Uo Po")
    plan = plan_build(state, [0, 1])
    # the upper floor may go on o1 (then the penthouse completes o3 -> 16, or o2 -> 9)
    # or on o3 (penthouse on o4 -> 25); both keep the penthouse placeable: a choice
    assert plan.choice_die == 0 and set(plan.choices) == {0, 1}
    state = make_state(1, columns="o1 b3", dice_spec="Po")
    assert not plan_build(state, [0]).feasible
    assert not plan_build(state, [9]).feasible
    assert not plan_build(state, []).feasible


def _every_plan_path_builds_all(state, ids: set[int]) -> int:
    """Follow ``plan_build`` through every tower it offers; each path must build the
    whole selection. Returns the number of paths."""
    plan = plan_build(state, ids)
    assert plan.feasible, (state.player.columns, state.dice, ids)
    for step in plan.steps:
        state = apply_action(state, step)
        ids = ids - {step.die}
    if plan.choice_die is None:
        assert not ids
        return 1
    return sum(
        _every_plan_path_builds_all(apply_action(state, Build(plan.choice_die, c)),
                                    ids - {plan.choice_die})
        for c in plan.choices
    )


@pytest.mark.parametrize(
    "columns, dice_spec, upper, tower",
    [
        # the upper floor must go on the new ground floor (column 1): on o3 it would leave
        # one column (o4) for two penthouses
        ("o3", "Uo Go Po Po", 0, 1),
        # the upper floor must go on o1: on o2 the o1 stays too low for a penthouse
        ("o1 o2", "Uo Po Po", 0, 0),
        # three penthouses: only raising o1 keeps all three placeable
        ("o1 o2 o3", "Uo Po Po Po", 0, 0),
    ],
)
def test_plan_build_never_offers_a_stranding_target(columns, dice_spec, upper, tower):
    """RULINGS: building several selected dice "is allowed when every selected die can be
    placed". The upper floor below could go on several towers, but only one leaves every
    other selected die buildable: it is placed there without asking (a tower that would
    strand another selected die is never offered), and every tower the plan offers later
    still builds the whole selection."""
    state = make_state(1, columns=columns, dice_spec=dice_spec)
    ids = {d.id for d in state.dice}
    die = next(d for d in state.dice if d.id == upper)
    grounds = sum(1 for d in state.dice if d.type is G)
    # alone, the upper floor has several towers (counting the new ground floors)
    assert len(build_targets(state.player.columns, die)) + grounds >= 2
    plan = plan_build(state, ids)
    assert plan.feasible and plan.choice_die != upper
    assert Build(upper, tower) in plan.steps
    assert _every_plan_path_builds_all(state, ids) >= 1


# =========================================================================== notation and records


def test_action_notation_round_trip():
    """Actions in the notation (``tGGU``, ``tD``, ``r0.1.2``, ``b0``, ``b1@0``, ``x2@c0``,
    ``x2@b1``, ``a0.1``, ``e``) parse and format back to the same text."""
    for token in ["tGGU", "tD", "r0.1.2", "b0", "b1@0", "x2@c0", "x2@b1", "a0.1", "e", "r7"]:
        assert str(parse_action(token)) == token
    assert parse_action("tUGP") == Take((G, U, PH))
    assert str(parse_action("tPUG")) == "tGUP"
    with pytest.raises(ValueError, match="increasing"):
        parse_action("r2.1")
    with pytest.raises(ValueError, match="not an action"):
        parse_action("b0@")
    with pytest.raises(ValueError):
        parse_action(3)  # type: ignore[arg-type]


def _sample_board() -> Board:
    board = Board.new(["Ada", "Bo Li", "Zoë"], seed="rec", start_seat=1)
    rng = random.Random(3)
    for _ in range(120):
        actions = board.legal_actions()
        if not actions:
            break
        board.push(rng.choice(actions))
    return board


def test_record_round_trip():
    """The record notation lists options then actions; loading replays it."""
    board = _sample_board()
    text = board.record()
    assert text.startswith("skyline1 players=Ada,Bo%20Li,Zo%C3%AB seed=rec start=1 nine=0 ")
    again = Board.from_record(text)
    assert again.state == board.state and again.actions == board.actions
    assert again.can_undo() == board.can_undo() and again.record() == text
    assert parse_options(text.partition("|")[0]) == board.options
    j = Board.from_json(board.to_json())
    assert j.state == board.state and j.can_undo() == board.can_undo()


@pytest.mark.parametrize(
    "mutate, code, fragment",
    [
        (lambda t: t.replace(" | ", " "), "record_format", "no '|'"),
        (lambda t: t.replace("skyline1", "skyline2"), "record_magic", "must start"),
        (lambda t: t.replace("nine=0", "nine=0 colour=red"), "record_field", "unknown"),
        (lambda t: t.replace("nine=0", "nine=0 nine=1"), "record_field", "twice"),
        (lambda t: t.replace(" seed=rec", ""), "record_field", "'seed' is missing"),
        (lambda t: t.replace("start=1", "start=x"), "record_field", "small numbers"),
        (lambda t: t.replace("start=1", "start=7"), "record_options", "start_seat"),
        (lambda t: t.replace("seed=rec", "seed=r!c"), "record_options", "seed"),
        (lambda t: t.replace("players=Ada,", "players=,"), "record_options", "names"),
        (lambda t: 3, "record_type", "text"),
        (lambda t: t + " ?", "record_action", "not an action"),
    ],
)
def test_record_errors_are_precise(mutate, code, fragment):
    """A tampered record raises ``RecordError`` saying what is wrong."""
    with pytest.raises(RecordError) as info:
        Board.from_record(mutate(_sample_board().record()))
    assert info.value.code == code and fragment in str(info.value), str(info.value)


def test_record_tampered_action_names_its_number():
    """An illegal action in a record is reported with its number and the reason."""
    text = _sample_board().record()
    head, _, body = text.partition(" | ")
    tokens = body.split()
    # the first build: make it target a column that cannot exist
    n = next(i for i, t in enumerate(tokens) if t.startswith("r")) + 1
    tokens.insert(n, "b0@99")
    with pytest.raises(RecordError) as info:
        Board.from_record(head + " | " + " ".join(tokens))
    err = info.value
    assert err.code == "record_action" and err.params["number"] == n + 1
    assert f"action {n + 1} ('b0@99')" in str(err)
    # a roll before taking
    with pytest.raises(RecordError) as info:
        Board.from_record(head + " | r0.1.2")
    assert "action 1" in str(info.value) and "take dice first" in str(info.value)


def test_truncated_records():
    """A record cut short loads up to where it stops, or fails precisely if a token was
    cut in the middle."""
    text = _sample_board().record()
    head, _, body = text.partition(" | ")
    tokens = body.split()
    partial = Board.from_record(head + " | " + " ".join(tokens[:7]))
    assert partial.actions == tuple(parse_action(t) for t in tokens[:7])
    with pytest.raises(RecordError) as info:
        Board.from_record(text[: text.index("|") - 3])
    assert info.value.code == "record_format"
    cut = head + " | " + " ".join(tokens[:3]) + " r0."
    with pytest.raises(RecordError) as info:
        Board.from_record(cut)
    assert info.value.code == "record_action" and info.value.params["number"] == 4


def test_json_errors():
    """Saved games: broken, foreign, other versions and mismatched snapshots are refused."""
    board = _sample_board()
    data = json.loads(board.to_json())
    cases = [
        ("{", "json_syntax"),
        (json.dumps({"format": "other"}), "json_format"),
        (json.dumps({**data, "version": 99}), "json_version"),
        (json.dumps({**data, "state": {**data["state"], "round": 1}}), "json_mismatch"),
        (json.dumps({**data, "record": None}), "record_type"),
    ]
    for text, code in cases:
        with pytest.raises(RecordError) as info:
            Board.from_json(text)
        assert info.value.code == code


# =========================================================================== options


@pytest.mark.parametrize(
    "options, field",
    [
        (Options((), "s"), "names"),
        (Options(tuple("abcde"), "s"), "names"),
        (Options("Ada", "s"), "names"),  # type: ignore[arg-type]
        (Options(("",), "s"), "names"),
        (Options(("   ",), "s"), "names"),
        (Options(("x" * 25,), "s"), "names"),
        (Options(("a\x07b",), "s"), "names"),
        (Options((3,), "s"), "names"),  # type: ignore[arg-type]
        (Options(("Ada",), ""), "seed"),
        (Options(("Ada",), "a b"), "seed"),
        (Options(("Ada",), "x" * 33), "seed"),
        (Options(("Ada",), 5), "seed"),  # type: ignore[arg-type]
        (Options(("Ada",), "s", 1), "start_seat"),
        (Options(("Ada",), "s", -1), "start_seat"),
        (Options(("Ada",), "s", True), "start_seat"),  # type: ignore[arg-type]
        (Options(("Ada",), "s", "0"), "start_seat"),  # type: ignore[arg-type]
        (Options(("Ada",), "s", 0, 1), "all_nine"),  # type: ignore[arg-type]
        (Options(("Ada",), "s", 0, False, "paris"), "scenario"),
        (Options(("Ada", "Bo"), "s", 0, False, "dubai"), "scenario"),
    ],
)
def test_options_validation_names_the_field(options, field):
    """Bad options raise ``ValueError`` whose message starts with the field's name."""
    with pytest.raises(ValueError) as info:
        validate_options(options)
    assert str(info.value).startswith(field + ":"), str(info.value)
    with pytest.raises(ValueError):
        Board(options)


def test_options_normalised():
    """Names are trimmed and inner whitespace collapsed; valid options pass unchanged."""
    o = validate_options(Options(("  Ada   Lovelace ", "Bo"), "x-1_Y", 1, True))
    assert o == Options(("Ada Lovelace", "Bo"), "x-1_Y", 1, True, None)
    assert validate_options(o) == o
