"""The expert bot (skyline.players.expert): legal play, determinism, the solo adapter against the
solver, hints and reviews on hand-checkable positions, and simulate --bot expert."""

from __future__ import annotations

import random
from importlib import resources

import pytest

from skyline import (
    Abandon,
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
    Take,
    apply_action,
    legal_actions,
    new_game,
)
from skyline.__main__ import play_bot_game, simulate
from skyline.players import solo_value as sv
from skyline.players.bots import BOTS
from skyline.players.expert import expert_options, grade, hint, position
from skyline.players.review import review

HAS_TABLE = resources.files("skyline").joinpath("data/solo_values.bin").is_file()
pytestmark = pytest.mark.skipif(not HAS_TABLE, reason="skyline/data/solo_values.bin not built")

G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE
P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741


def last_turn(columns=(), buildings=(), dice=(), phase=Phase.RESOLVE, round_=9, names=("a",)):
    """A solo (or n-player) state in ``round_`` with the active player's skyline given."""
    state = new_game(Options(names, "tiny", 0))
    players = (Player(names[0], tuple(columns), tuple(buildings)),) + state.players[1:]
    return state._replace(round=round_, phase=phase, dice=tuple(dice), rolls=1, players=players)


def test_expert_is_registered():
    assert "expert" in BOTS
    assert {"random", "beginner", "greedy", "expert"} <= set(BOTS)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_bots_only_play_legal_actions(players):
    """Mixed tables of every bot; every action is accepted by the engine."""
    names = sorted(BOTS)
    rng = random.Random(players)
    for game in range(3 if players > 1 else 4):
        bots = [names[(game + s) % len(names)] for s in range(players)]
        if players == 1:
            bots = [names[game % len(names)]]
        state = new_game(Options(tuple(f"p{i}" for i in range(players)), f"legal-{game}", 0))
        rngs = [random.Random(f"{game}/{s}") for s in range(players)]
        steps = 0
        while state.phase is not Phase.OVER:
            action = BOTS[bots[state.seat]](state, rngs[state.seat])
            try:
                state = apply_action(state, action)
            except IllegalActionError as exc:  # pragma: no cover - the failure message
                pytest.fail(f"{bots[state.seat]} played illegal {action}: {exc}")
            steps += 1
            assert steps < 2000
        assert rng is not None


def test_expert_legal_in_random_states():
    """Random legal play to reach odd states (district piles, many columns), then ask the
    expert; its action must be legal there. 1-4 players."""
    for players in (1, 2, 3, 4):
        for game in range(4):
            rng = random.Random(f"{players}-{game}")
            state = new_game(Options(tuple(f"p{i}" for i in range(players)), f"r{game}", 0))
            while state.phase is not Phase.OVER:
                if rng.random() < 0.3:
                    action = BOTS["expert"](state, rng)
                    apply_action(state, action)  # raises if illegal
                acts = legal_actions(state)
                state = apply_action(state, acts[rng.randrange(len(acts))])


def test_expert_is_deterministic():
    a = play_bot_game(Options(("x", "y"), "det", 0), ["expert", "greedy"], "det")
    b = play_bot_game(Options(("x", "y"), "det", 0), ["expert", "greedy"], "det")
    assert a == b
    c = play_bot_game(Options(("x",), "det1", 0), ["expert"], "det1")
    d = play_bot_game(Options(("x",), "det1", 0), ["expert"], "det1")
    assert c == d


def test_solo_adapter_matches_solver():
    state = new_game(Options(("a",), "adapter", 0))
    pos = position(state)
    assert pos == sv.SoloPosition.start("standard")
    opts = expert_options(state)
    solver = sv.turn_options(pos)
    assert [o.value for o in opts] == pytest.approx([o.value for o in solver])
    assert isinstance(opts[0].action, Take)
    assert "".join(t.letter for t in opts[0].action.types) == "".join(solver[0].action[1])
    nine = new_game(Options(("a",), "adapter", 0, True))
    assert position(nine).mode == "nine"


def test_tiny_last_turn_penthouse():
    """Last turn, an orange column 5 high and an orange penthouse: completing it is worth
    36 points, demolishing the column 0."""
    state = last_turn([Column(O, 5)], dice=[Die(0, PH, O)])
    rows = hint(state, top=3)
    assert rows[0]["action"] == Build(0, 0)
    assert rows[0]["value"] == pytest.approx(36.0)
    assert rows[1]["value"] == pytest.approx(0.0)
    assert isinstance(rows[1]["action"], Demolish)


def test_tiny_last_turn_purple_ground():
    """Last turn, nothing built yet, one purple ground floor rolled: 1 point."""
    state = last_turn(dice=[Die(0, G, P)])
    rows = hint(state)
    assert rows == [{"action": Build(0, None), "text": "b0", "value": pytest.approx(1.0),
                     "exact": True}]


def test_tiny_continue_end_vs_reroll():
    """Last turn, after resolving, with a blank penthouse left and nothing it could ever
    complete: ending and rerolling are both worth the banked points (9 + 1)."""
    state = last_turn([Column(P, 1)], [Building(O, 3)], dice=[Die(1, PH, X)],
                      phase=Phase.CONTINUE)
    rows = hint(state, top=5)
    assert rows[0]["value"] == pytest.approx(10.0)
    kinds = {type(r["action"]) for r in rows}
    assert EndTurn in kinds


def test_grade_and_review_of_a_tiny_mistake():
    state = last_turn([Column(O, 5)], dice=[Die(0, PH, O)])
    bad = grade(state, Demolish(0, 0, False))
    assert bad["loss"] == pytest.approx(36.0)
    assert bad["best"] == Build(0, 0)
    good = grade(state, Build(0, 0))
    assert good["loss"] == pytest.approx(0.0)
    assert grade(state._replace(phase=Phase.ROLL), Build(0, 0)) is None


def test_review_expert_game_is_perfect_and_greedy_loses():
    opts = Options(("a",), "review1", 0)
    expert_game = play_bot_game(opts, ["expert"], "r")
    from skyline import Board

    board = Board(opts)
    # replay the expert's game on a Board to review it
    state = new_game(opts)
    rng = random.Random("r/0")
    while state.phase is not Phase.OVER:
        action = BOTS["expert"](state, rng)
        board.push(action)
        state = apply_action(state, action)
    assert board.state == expert_game
    r = review(board)
    assert r["over"] and r["decisions"]
    assert r["total_loss"] == pytest.approx(0.0, abs=1e-9)
    assert r["accuracy"] == pytest.approx(100.0)
    assert r["start_value"] == pytest.approx(sv.value(sv.SoloPosition.start()))
    state = new_game(opts)
    actions = []
    rng = random.Random(1)
    while state.phase is not Phase.OVER:
        action = BOTS["greedy"](state, rng)
        actions.append(action)
        state = apply_action(state, action)
    g = review((opts, actions))
    assert all(d["loss"] >= 0 for d in g["decisions"])
    assert g["total_loss"] > 0
    assert 0 < g["accuracy"] < 100
    assert g["accuracy"] == pytest.approx(
        100 * g["start_value"] / (g["start_value"] + g["total_loss"]))
    keys = {"round", "chosen", "best", "chosen_value", "best_value", "loss"}
    assert keys <= set(g["decisions"][0])


def test_review_rejects_multiplayer():
    with pytest.raises(ValueError):
        review((Options(("a", "b"), "x", 0), []))


def test_multiplayer_abandons_instead_of_demolishing():
    """Two players, a blank penthouse and no use for it: the expert abandons it rather
    than demolish its own column (solo it would have to demolish)."""
    state = last_turn([Column(B, 2)], dice=[Die(0, PH, X)], names=("a", "b"), round_=5)
    action = BOTS["expert"](state, random.Random(0))
    assert action == Abandon((0,))


def _play_turn(state):
    seat, round_ = state.seat, state.round
    while state.phase is not Phase.OVER and (state.seat, state.round) == (seat, round_):
        state = apply_action(state, BOTS["expert"](state, random.Random(0)))
    return state


def test_end_trigger_avoided_when_behind():
    """Two players, standard game: completing a six-high tower ends the game this round. The
    expert, trailing far behind, leaves it; ahead, it completes it."""
    state = last_turn([Column(O, 5), Column(B, 1)], dice=[Die(0, PH, O), Die(1, U, B)],
                      names=("a", "b"), round_=3)
    rich = Player("b", (), (Building(O, 6), Building(O, 6), Building(B, 4)))
    behind = _play_turn(state._replace(players=(state.players[0], rich)))
    assert not behind.six_completed
    assert Building(O, 6) not in behind.players[0].buildings
    ahead = _play_turn(state._replace(players=(state.players[0], Player("b", (), ()))))
    assert Building(O, 6) in ahead.players[0].buildings and ahead.six_completed


def test_simulate_expert_json_fields():
    solo = simulate(1, 3, "ex", ["expert"])
    assert {"games", "mean", "sd", "levels"} <= set(solo)
    duo = simulate(2, 2, "ex", ["expert", "greedy"])
    assert len(duo["win_rate"]) == 2
