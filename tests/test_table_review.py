"""The review of games of 2-4 players (skyline/players/table_review.py): every decision of
the seats asked for graded by the table expert in percentage points of the chance of
winning, the turning points and the final ranking with its tie-break."""

from __future__ import annotations

import random
from functools import cache

import pytest

from skyline import (
    Abandon,
    Board,
    Build,
    Building,
    Column,
    Demolish,
    EndTurn,
    Face,
    GameState,
    Options,
    Phase,
    apply_action,
    game_summary,
    legal_actions,
    new_game,
)
from skyline.players.bots import BOTS
from skyline.players.table_expert import table_chances, table_options
from skyline.players.table_review import (
    TURNING_POINTS,
    TableReviewRun,
    grade_decision,
    table_review,
)


def play(players: int, seed: str, bots: tuple[str, ...]) -> Board:
    """A finished seeded game, seat ``i`` played by ``bots[i]``."""
    board = Board(Options(tuple("ABCD"[:players]), seed, 0, False, None))
    rng = random.Random(seed)
    while not board.is_game_over():
        board.push(BOTS[bots[board.state.seat]](board.state, rng))
    return board


def states(board: Board) -> list[GameState]:
    """Every position of ``board``'s game, the first one included."""
    out = [new_game(board.options)]
    for action in board.actions:
        out.append(apply_action(out[-1], action))
    return out


@cache
def game2() -> Board:
    return play(2, "trev2", ("expert", "random"))


@cache
def game3() -> Board:
    return play(3, "trev3", ("greedy", "expert", "random"))


@pytest.mark.parametrize("make", [game2, game3])
def test_a_scripted_game_reviewed_to_the_end(make):
    board = make()
    n = len(board.state.players)
    review = table_review(board)
    assert review.over and review.seats == tuple(range(n))
    assert review.decisions and all(d.loss >= 0.0 for d in review.decisions)
    for d in review.decisions:
        assert 0.0 <= d.after <= d.before <= 1.0 + 1e-9
        assert d.loss == pytest.approx(100.0 * (d.before - d.after))
        assert d.state.seat == d.seat and len(legal_actions(d.state)) > 1
        assert d.state.phase is not Phase.ROLL  # the first roll is forced: not a decision
    # every turn is there, each seat's chances sum to 1, the end is the result
    played = {(s.round, s.seat) for s in states(board)[:-1]}
    assert [(t.round, t.seat) for t in review.turns] == sorted(
        played, key=lambda rs: (rs[0], (rs[1] - board.options.start_seat) % n))
    assert review.turns[-1].after == table_chances(board.state)
    for turn in review.turns:
        assert sum(turn.before) == pytest.approx(1.0) and sum(turn.after) == pytest.approx(1.0)
    winner = review.winners[0]
    assert review.turns[-1].after[winner] == pytest.approx(1.0 / len(review.winners))
    assert 1 <= len(review.turning_points) <= TURNING_POINTS
    indices = [review.turns.index(t) for t in review.turning_points]
    assert indices == sorted(indices)  # in play order
    smallest = min(abs(t.change(winner)) for t in review.turning_points)
    assert all(abs(t.change(winner)) <= smallest + 1e-12 for t in review.turns
               if t not in review.turning_points)
    # the expert's own decisions lose nothing: its choice is the best option
    expert = 0 if n == 2 else 1
    assert review.total_loss(expert) == pytest.approx(0.0, abs=1e-9)
    assert review.of(expert) and all(d.matched for d in review.of(expert))
    # the random player loses chance of winning, some of it on actions the expert's
    # list does not name (graded by the value of the position they lead to)
    weak = n - 1
    assert review.total_loss(weak) > 5.0 and review.costly(weak)
    assert any(not d.matched for d in review.of(weak))
    costly = review.costly(weak, 4)
    assert [d.loss for d in costly] == sorted((d.loss for d in costly), reverse=True)


def test_ranks_follow_the_engine_ranking():
    board = game3()
    review = table_review(board)
    summary = game_summary(board.state)
    assert [(p.seat, p.rank, p.score) for p in review.ranking] == sorted(
        ((p.seat, p.rank, p.score) for p in summary.players), key=lambda x: (x[1], x[0]))
    assert [p.rank for p in review.ranking] == sorted(p.rank for p in review.ranking)
    assert review.winners == summary.winners and review.tie_break == summary.tie_break


def test_only_the_seats_asked_for_are_graded_and_chunks_give_the_same_review():
    board = game2()
    whole = table_review(board, seats=[1])
    assert whole.seats == (1,) and {d.seat for d in whole.decisions} == {1}
    run = TableReviewRun(board.options, board.actions, [1])
    ticks = [0.0]

    def clock() -> float:  # every call a millisecond later: a chunk of 5 actions
        ticks[0] += 0.001
        return ticks[0]

    chunks = 0
    while not run.advance(5, clock):
        chunks += 1
    assert chunks > 5 and run.i == len(board.actions)
    assert run.result() == whole
    assert table_review((board.options, list(board.actions)), [1]) == whole


def test_the_best_choice_loses_nothing_and_a_bad_choice_shows_a_loss():
    board = game2()
    state = next(s for s in states(board) if s.phase is Phase.TAKE and s.round == 2)
    best = table_options(state)[0]
    graded = grade_decision(state, best.action)
    assert graded is not None and graded.loss == 0.0 and graded.matched
    assert graded.before == graded.after == best.win
    worst = table_options(state)[-1]
    bad = grade_decision(state, worst.action)
    assert bad is not None and bad.loss == pytest.approx(100 * (best.win - worst.win))
    assert bad.loss > 0.5 and bad.best == best.action


def _twin_build(state: GameState) -> Build | None:
    """The expert's best action if it builds a die that has a twin (same type and face),
    as a build of the twin onto the same column; else None."""
    top = table_options(state)[0].action
    if not isinstance(top, Build):
        return None
    die = next(d for d in state.dice if d.id == top.die)
    twin = next((d for d in state.dice
                 if d.id != die.id and (d.type, d.face) == (die.type, die.face)), None)
    return None if twin is None else Build(twin.id, top.column)


def test_an_equivalent_die_is_the_same_choice_and_an_unlisted_action_is_valued():
    board = play(2, "trev-twins", ("expert", "expert"))
    state = next(s for s in states(board) if s.phase in (Phase.RESOLVE, Phase.CONTINUE)
                 and _twin_build(s) is not None)
    twin = _twin_build(state)
    assert twin is not None and twin != table_options(state)[0].action
    graded = grade_decision(state, twin)
    assert graded is not None and graded.matched and graded.loss == 0.0
    # abandoning every die at once is not in the expert's list: valued, not refused
    resolve = next(s for s in states(board) if s.phase is Phase.RESOLVE and len(s.dice) >= 2)
    graded = grade_decision(resolve, Abandon(tuple(d.id for d in resolve.dice)))
    assert graded is not None and not graded.matched and graded.loss >= 0.0


def test_a_demolition_is_graded_as_a_loss():
    # a skyline with a completed building: demolishing it throws points away
    board = game2()
    state = next(s for s in states(board) if s.phase is Phase.RESOLVE and s.seat == 0
                 and s.players[0].buildings)
    demolish = Demolish(state.dice[0].id, 0, True)
    graded = grade_decision(state, demolish)
    assert graded is not None and not graded.matched and graded.loss > 0.0


def test_forced_actions_are_not_decisions():
    board = game2()
    state = next(s for s in states(board) if s.phase is Phase.ROLL)
    assert len(legal_actions(state)) == 1
    assert grade_decision(state, legal_actions(state)[0]) is None
    with pytest.raises(ValueError):
        TableReviewRun(Options(("solo",), "x", 0, False, None), [])


def _over(players: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> GameState:
    """A finished game whose players have these (tile heights, lone purple columns)."""
    state = Board(Options(tuple("ABCD"[:len(players)]), "tie", 0, False, None)).state
    people = tuple(
        p._replace(buildings=tuple(Building(Face.PURPLE if h <= 2 else Face.ORANGE, h)
                                   for h in tiles),
                   columns=tuple(Column(Face.PURPLE, 1) for _ in lone))
        for p, (tiles, lone) in zip(state.players, players, strict=True))
    return state._replace(players=people, phase=Phase.OVER)


def test_a_constructed_tie_ranks_by_completed_buildings_and_shares_only_a_full_tie():
    # A and C: tiles 3, 2, 1 (9 + 4 + 1 = 14 points, 3 buildings); B: tiles 3, 2 and a lone
    # purple ground floor (scored as a height-1 tile: 14 points, 3 buildings); D: tiles
    # 2, 2, 2, 1, 1 (14 points, 5 buildings): D wins the tie-break, A, B, C share 2nd place
    state = _over([((3, 2, 1), ()), ((3, 2), (1,)), ((3, 2, 1), ()), ((2, 2, 2, 1, 1), ())])
    summary = game_summary(state)
    assert [p.score for p in summary.players] == [14, 14, 14, 14]
    assert [p.completed for p in summary.players] == [3, 3, 3, 5]
    assert [p.rank for p in summary.players] == [2, 2, 2, 1]
    assert summary.winners == (3,) and summary.tie_break
    assert table_chances(state) == (0.0, 0.0, 0.0, 1.0)
    # equal points and equal building counts: the win is shared
    shared = _over([((3, 2), ()), ((3, 2), ()), ((2,), ())])
    summary = game_summary(shared)
    assert [p.rank for p in summary.players] == [1, 1, 3] and summary.winners == (0, 1)
    assert table_chances(shared) == (0.5, 0.5, 0.0)


def test_end_turn_and_abandon_are_listed_choices():
    board = game2()
    state = next(s for s in states(board) if s.phase is Phase.CONTINUE and s.seat == 1)
    graded = grade_decision(state, EndTurn())
    assert graded is not None and graded.matched
