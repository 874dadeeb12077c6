"""Rules the page used to derive itself, now the engine's (skyline.rules, skyline.records,
skyline.players.review), and the adapter the computer players share."""

from __future__ import annotations

import random

import pytest

from skyline import (
    Board,
    Building,
    Column,
    Face,
    LinkError,
    Options,
    Phase,
    TakeDistrict,
    building_points,
    can_take_district,
    check_bots_available,
    has_demolition_target,
    is_legal,
    new_game,
    parse_share_bots,
    score,
)
from skyline.players import adapter
from skyline.players.bots import BOTS
from skyline.players.review import ReviewRun, review


def test_building_points_are_the_height_squared() -> None:
    assert [building_points(h) for h in range(1, 7)] == [1, 4, 9, 16, 25, 36]
    assert Building(Face.BLUE, 4).points == 16


def test_has_demolition_target() -> None:
    state = new_game(Options(("Ada", "Bo"), "dem"))
    player = state.player
    assert has_demolition_target(state)  # the start gift column
    bare = state._replace(players=(player._replace(columns=()), state.players[1]))
    assert not has_demolition_target(bare)
    tiles = state._replace(players=(player._replace(columns=(), buildings=(
        Building(Face.PURPLE, 2),)), state.players[1]))
    assert has_demolition_target(tiles)
    assert not has_demolition_target(tiles._replace(phase=Phase.OVER))


def test_can_take_district_is_the_rule_of_take_district() -> None:
    board = Board.new(["Ada", "Bo"], seed="district")
    rng = random.Random(3)
    for _ in range(200):
        state = board.state
        assert can_take_district(state) == is_legal(state, TakeDistrict())
        if board.is_game_over():
            break
        board.push(BOTS["random"](state, rng))
    assert not can_take_district(new_game(Options(("Solo",), "s")))


def test_availability_is_the_callers_check() -> None:
    bots = dict(parse_share_bots("#play?p=A,B,C&seed=x&bots=1g2e"))
    assert bots == {1: "greedy", 2: "expert"}
    check_bots_available(bots, lambda level: True)
    with pytest.raises(LinkError) as info:
        check_bots_available(bots, lambda level: level != "expert")
    assert info.value.code == "bots" and info.value.params == {"reason": "unavailable",
                                                               "level": "expert"}


def test_review_run_in_chunks_equals_the_whole_review() -> None:
    board = Board.new(["Solo"], seed="review")
    rng = random.Random(5)
    while not board.is_game_over():
        board.push(BOTS["greedy"](board.state, rng))
    whole = review(board)
    run = ReviewRun(board.options, board.actions)
    ticks = 0
    ticking = iter(range(10**6))
    # a fake clock, half a second per reading: two actions fit a 1.2 s chunk
    while not run.advance(1200, clock=lambda: next(ticking) * 0.5):
        ticks += 1
        assert not run.done and run.i == 2 * ticks
    assert run.done and run.result() == whole
    assert run.accuracy == whole["accuracy"] and run.total == whole["total_loss"]
    assert score(run.state.players[0]) == whole["score"]
    with pytest.raises(ValueError):
        ReviewRun(Options(("A", "B"), "x"), ())


def test_adapter_kinds_agree() -> None:
    from skyline.rules import Die, DieType

    for t, faces in ((DieType.GROUND, (Face.PURPLE, Face.BLUE, Face.ORANGE)),
                     (DieType.UPPER, (Face.PURPLE, Face.BLUE, Face.ORANGE)),
                     (DieType.PENTHOUSE, (Face.BLANK, Face.BLUE, Face.ORANGE))):
        for face in faces:
            die = Die(0, t, face)
            assert adapter.die_kind(die) == adapter.pair_kind(adapter.die_pair(die))
    for types in ((0,), (1, 2), (0, 0, 2)):
        assert abs(sum(p for _, p in adapter.outcomes(types)) - 1.0) < 1e-12
    columns = (Column(Face.BLUE, 2), Column(Face.ORANGE, 1), Column(Face.BLUE, 2))
    assert adapter.column_index(columns, ("orange", 1)) == 1
    assert adapter.colour_columns(columns)[0] == ("blue", 2)
