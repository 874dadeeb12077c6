"""scenario_progress (a solo scenario's standing during play) and build_blocker (why a
die cannot be built): the engine's judgement the page shows."""

from __future__ import annotations

import random

import pytest

from skyline import (
    SCENARIOS,
    Board,
    Build,
    Building,
    Column,
    Die,
    DieType,
    Face,
    GameState,
    Options,
    Phase,
    Player,
    build_blocker,
    build_targets,
    game_summary,
    is_legal,
    new_game,
    scenario_met,
    scenario_progress,
)
from skyline.players.bots import BOTS


def states_of(scenario: str, seed: int, bot: str = "random"):
    board = Board(Options(("Ann",), f"sp{seed}", 0, False, scenario))
    rng = random.Random(seed)
    yield board.state
    while board.state.phase is not Phase.OVER:
        board.push(BOTS[bot](board.state, rng))
        yield board.state


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_progress_agrees_with_the_final_judgement_at_every_state(scenario):
    for seed, bot in ((1, "random"), (2, "greedy"), (3, "beginner")):
        last = None
        for state in states_of(scenario, seed, bot):
            p = scenario_progress(state)
            assert p is not None and p.scenario == scenario
            assert p.met == scenario_met(scenario, state.players[0])
            assert p.met == (p.count >= p.bound if p.at_least else p.count <= p.bound)
            assert p.settled == (state.phase is Phase.OVER
                                 or (scenario == "essen" and not p.met))
            last = state
        assert p.settled and p.met == game_summary(last).scenario_met


def test_no_progress_without_a_scenario_or_with_several_players():
    assert scenario_progress(new_game(Options(("A",), "x"))) is None
    assert scenario_progress(new_game(Options(("A", "B"), "x"))) is None


def solo_state(columns=(), buildings=(), dice=(), demolitions=0, scenario="dubai"):
    s = new_game(Options(("A",), "x", 0, False, scenario))
    player = Player("A", tuple(columns), tuple(buildings), demolitions)
    return GameState(s.options, 1, 0, Phase.RESOLVE, (), tuple(dice), 1, False, (player,))


P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741


def test_counts_follow_the_scored_skyline():
    cols = (Column(P, 1), Column(B, 2))  # the lone low-rise counts, the blue column does not
    tiles = (Building(B, 3), Building(O, 3), Building(O, 6))
    expect = {"dubai": 2, "essen": 1, "new-york": 1, "sao-paolo": 0, "shanghai": 1,
              "toronto": 4, "tucson": 2}
    for scenario, count in expect.items():
        p = scenario_progress(solo_state(cols, tiles, demolitions=1, scenario=scenario))
        assert p.count == count, scenario
    essen = scenario_progress(solo_state(scenario="essen"))
    assert (essen.count, essen.met, essen.settled) == (0, True, False)


def test_build_blocker_names_the_engines_reason():
    dice = (Die(0, DieType.PENTHOUSE, X), Die(1, DieType.UPPER, B),
            Die(2, DieType.PENTHOUSE, O), Die(3, DieType.UPPER, O), Die(4, DieType.GROUND, P))
    state = solo_state((Column(O, 1), Column(O, 5), Column(P, 1)), dice=dice)
    codes = {d.id: getattr(build_blocker(state, d.id), "code", None) for d in dice}
    # the orange upper floor fits on the orange ground floor (height 1)
    assert codes == {0: "blank_penthouse", 1: "needs_column", 2: None, 3: None, 4: None}
    assert build_blocker(state, 1).params == {"face": "mid-rise"}
    state = solo_state((Column(O, 1),), dice=dice[2:3])
    assert build_blocker(state, 2).code == "penthouse_height"
    state = solo_state((Column(O, 5),), dice=dice[3:4])
    assert build_blocker(state, 3).code == "too_high"


def test_build_blocker_is_none_exactly_when_a_build_exists():
    for seed in range(6):
        for state in states_of("dubai", seed):
            if state.phase not in (Phase.RESOLVE, Phase.CONTINUE):
                continue
            for die in state.dice:
                blocker = build_blocker(state, die.id)
                targets = build_targets(state.player.columns, die)
                assert (blocker is None) == bool(targets)
                if blocker is not None:
                    assert blocker.code in ("blank_penthouse", "needs_column", "too_high",
                                            "penthouse_height")
                    columns = range(len(state.player.columns))
                    assert not any(is_legal(state, Build(die.id, c)) for c in [None, *columns])
