"""Scenario-exact solo play: the scenario counters against the engine's judge, the shipped
scenario tables (lazy, within budget), Hint and review in scenario games, and the
simulated success rate against the solver's value."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from importlib import resources

import pytest

from skyline import (
    Build,
    Building,
    Column,
    Demolish,
    Die,
    DieType,
    Face,
    Options,
    Phase,
    Player,
    apply_action,
    legal_actions,
    new_game,
)
from skyline.__main__ import simulate
from skyline.players import solo_value as sv
from skyline.players.expert import expert_bot, expert_options, hint
from skyline.players.review import review
from skyline.players.scenario_model import SCENARIO_MODELS, SUCCESS_WEIGHT
from skyline.rules import SCENARIOS, scenario_met

G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE
P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741
NAMES = {P: "purple", B: "blue", O: "orange"}
MODES = ("standard", "nine")


def _has(scenario: str, mode: str) -> bool:
    return resources.files("skyline").joinpath(sv.scenario_table_path(scenario, mode)).is_file()


def _header(scenario: str, mode: str) -> dict:
    return sv.load_scenario_table(scenario, mode).meta


needs_essen = pytest.mark.skipif(not _has("essen", "standard"), reason="essen table not built")


def _random_player(rng: random.Random) -> Player:
    buildings = []
    for _ in range(rng.randrange(12)):
        kind = rng.choice((P, B, O))
        height = {P: 2, B: rng.randint(2, 4), O: rng.randint(3, 6)}[kind]
        buildings.append(Building(kind, height))
    columns = [Column(rng.choice((P, B, O)), 1) for _ in range(rng.randrange(4))]
    return Player("a", tuple(columns), tuple(buildings), rng.choice((0, 0, 1, 3)))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_counter_judges_like_the_engine(scenario):
    """The solver's counter, built up from a skyline, meets the scenario exactly when the
    engine's judge says so (lone low-rise ground floors counted as the engine counts them)."""
    model = SCENARIO_MODELS[scenario]
    rng = random.Random(scenario)
    outcomes = set()
    for _ in range(3000):
        player = _random_player(rng)
        x = model.count([(NAMES[b.kind], b.height) for b in player.buildings], player.demolitions)
        lone = sum(1 for c in player.columns if c.kind is P)
        want = scenario_met(scenario, player)
        assert model.met(x, lone) is want
        assert model.met(model.capped(x), lone) is want  # the cap never changes the verdict
        outcomes.add(want)
    assert outcomes == {True, False}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_counter_transitions_follow_the_skyline(scenario):
    """Completing or demolishing one building changes the counter as recounting does."""
    model = SCENARIO_MODELS[scenario]
    rng = random.Random(scenario + "/t")
    for _ in range(500):
        player = _random_player(rng)
        tiles = [(NAMES[b.kind], b.height) for b in player.buildings]
        x = model.count(tiles, 0)
        colour, height = rng.choice([("purple", 2), ("blue", 3), ("blue", 4), ("orange", 5),
                                     ("orange", 6), ("orange", 3), ("blue", 2)])
        assert model.complete(x, colour, height) == model.count([*tiles, (colour, height)], 0)
        if tiles:
            gone = rng.randrange(len(tiles))
            rest = tiles[:gone] + tiles[gone + 1 :]
            assert model.demolish_tile(x, *tiles[gone]) == model.count(rest, 1)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("mode", MODES)
def test_tables_shipped_within_budget(scenario, mode):
    path = resources.files("skyline").joinpath(sv.scenario_table_path(scenario, mode))
    if not path.is_file():
        pytest.skip(f"{scenario}-{mode} table not built")
    data = path.read_bytes()
    assert len(data) <= 150_000
    table = sv.ScenarioTable.from_bytes(data)
    assert (table.scenario, table.mode) == (scenario, mode)
    opt, pol = table.meta["optimum"], table.meta["policy"]
    assert 0.0 <= opt["p_success"] <= 1.0 and 0.0 <= pol["p_success"] <= 1.0 + 1e-6
    # the shipped policy (exact turn search on the real position) is never worse than the
    # model's optimum by more than the quantisation and the roll-ups of rare positions
    assert pol["p_success"] >= opt["p_success"] - 0.01
    start = (0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    s, p, exact = table.lookup_pair(9, start)
    assert exact
    assert abs(p - opt["p_success"]) < 1e-4 and abs(s - opt["expected_score"]) < 0.01


def test_table_bytes_round_trip():
    header = {"scenario": "dubai", "mode": "nine", "caps": [1] * 10 + [3], "scale": 256,
              "p_scale": 1 << 20, "turns": 1,
              "linear": [[], [[1.0] + [0.0] * 11, [0.5] + [0.0] * 11]]}
    x3 = 3 << 10  # the counter is the most significant digit (ten binary solo counts)
    entries = [{}, {0: (256 * 7, 1 << 19), x3: (256 * 3, 1 << 20)}]
    table = sv.ScenarioTable.from_bytes(sv.ScenarioTable.to_bytes(header, entries))
    assert table.index([0] * 10 + [3]) == x3 and table.index([1] * 10 + [0]) == 1023
    assert table.lookup_pair(1, [0] * 11) == (7.0, 0.5, True)
    assert table.lookup_pair(1, [0] * 10 + [5]) == (3.0, 1.0, True)  # x = 5 capped at 3
    assert table.lookup_pair(1, [0] * 9 + [1, 0]) == (1.0, 0.5, False)  # linear fallback
    assert table.lookup("nine", 1, [0] * 11) == (7.0 + SUCCESS_WEIGHT * 0.5, True)
    with pytest.raises(ValueError):
        sv.ScenarioTable.from_bytes(b"SKYSOLO1" + bytes(8))


def test_tables_are_not_loaded_outside_scenarios():
    """A plain solo game (and importing the package) never reads a scenario table."""
    code = (
        "import random\n"
        "from skyline import Options, new_game, apply_action, Phase\n"
        "from skyline.players import scenario_tables\n"
        "from skyline.players.expert import expert_bot, hint\n"
        "s = new_game(Options(('a',), 'lazy', 0))\n"
        "for _ in range(12):\n"
        "    hint(s)\n"
        "    s = apply_action(s, expert_bot(s, random.Random(0)))\n"
        "print(len(scenario_tables._SCENARIO_TABLES))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "0"


def _essen_position(scenario: str | None):
    """Round 2 of a solo game: two purple upper floors and a blank penthouse rolled; an
    unfinished low-rise, a mid-rise and two high-rises, nothing completed, no demolition."""
    state = new_game(Options(("a",), "essen", 0, False, scenario))
    columns = (Column(O, 1), Column(P, 1), Column(B, 1), Column(O, 1))
    dice = (Die(0, U, P), Die(1, U, P), Die(2, PH, X))
    return state._replace(round=2, phase=Phase.RESOLVE, dice=dice, rolls=1,
                          players=(Player("a", columns, ()),))


@needs_essen
def test_essen_hint_avoids_a_needless_demolition():
    """Without the scenario the expert spends the blank penthouse on the lone low-rise; in
    Essen, Hint builds the upper floor on it instead (no demolition needed), and says so
    with the probabilities."""
    plain = expert_options(_essen_position(None))
    assert isinstance(plain[0].action, Demolish)
    state = _essen_position("essen")
    top = hint(state, 3)
    assert isinstance(top[0]["action"], Build)
    assert top[0]["p_success"] == pytest.approx(1.0, abs=1e-6)
    assert top[0]["expected_score"] == pytest.approx(top[0]["value"])
    assert 30 < top[0]["expected_score"] < 100
    for row in hint(state, 50):
        if isinstance(row["action"], Demolish):
            assert row["p_success"] == 0.0
    assert expert_bot(state, random.Random(0)) == top[0]["action"]
    # a demolition rates lower on the objective even though it scores more
    demolish = next(r for r in hint(state, 50) if isinstance(r["action"], Demolish))
    assert demolish["expected_score"] > top[0]["expected_score"]
    assert demolish["objective"] < top[0]["objective"]


@needs_essen
def test_plain_hint_is_unchanged_outside_scenarios():
    rows = hint(_essen_position(None), 3)
    assert rows and all("p_success" not in r for r in rows)


def _expert_game(scenario: str, seed: str, deviate=None):
    """Actions of a solo game the expert plays; ``deviate(state)`` may return another action."""
    state = new_game(Options(("a",), seed, 0, False, scenario))
    actions = []
    rng = random.Random(seed)
    while state.phase is not Phase.OVER:
        action = (deviate(state) if deviate else None) or expert_bot(state, rng)
        actions.append(action)
        state = apply_action(state, action)
    return state, actions


@needs_essen
def test_review_names_the_decision_that_failed_essen():
    """A needless demolition in round 2 fails Essen; the review names Essen and that
    decision, and grades it on the objective (a lost scenario costs SUCCESS_WEIGHT)."""
    done = []

    def deviate(state):
        if done or state.round < 2 or state.phase is not Phase.RESOLVE:
            return None
        others = [a for a in legal_actions(state) if not isinstance(a, Demolish)]
        demolitions = [a for a in legal_actions(state) if isinstance(a, Demolish)]
        if others and demolitions:
            done.append(demolitions[0])
            return demolitions[0]
        return None

    state, actions = _expert_game("essen", "rev1", deviate)
    assert not scenario_met("essen", state.players[0])
    result = review((Options(("a",), "rev1", 0, False, "essen"), actions))
    assert result["failed_scenario"] == "essen"
    assert result["scenario_met"] is False
    culprit = result["failed_by"]
    assert culprit is not None and culprit["chosen"] == done[0]
    assert culprit["p_loss"] == pytest.approx(1.0, abs=1e-3)
    assert culprit["best_p_success"] == pytest.approx(1.0, abs=1e-3)
    assert culprit["loss"] > SUCCESS_WEIGHT / 2
    assert result["accuracy"] < 60
    # the expert's own game meets Essen and reviews clean
    state, actions = _expert_game("essen", "rev1")
    result = review((Options(("a",), "rev1", 0, False, "essen"), actions))
    assert result["scenario_met"] is True and result["failed_scenario"] is None
    assert result["failed_by"] is None
    assert result["accuracy"] == pytest.approx(100.0)
    assert result["start_p_success"] == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("scenario,mode,games", [("essen", "standard", 40),
                                                 ("dubai", "standard", 40),
                                                 ("new-york", "nine", 60),
                                                 ("tucson", "nine", 40)])
def test_simulated_expert_agrees_with_the_solver(scenario, mode, games):
    """A small seeded run: success rate and mean score within 4.5 standard errors (plus the
    table's quantisation) of the shipped policy's exact values."""
    if not _has(scenario, mode):
        pytest.skip("table not built")
    pol = _header(scenario, mode)["policy"]
    res = simulate(1, games, f"t-{scenario}", ["expert"], mode == "nine", scenario=scenario)
    p = pol["p_success"]
    se_p = max((p * (1 - p) / games) ** 0.5, 1 / games)
    assert abs(res["success_rate"] - p) <= 4.5 * se_p + 0.01
    assert abs(res["mean"] - pol["expected_score"]) <= 4.5 * res["mean_se"] + 0.5
    assert res["scenario"] == scenario
    assert json.dumps(res)


@needs_essen
def test_install_scenario_table_checks_what_it_gets():
    """The page hands fetched bytes to the runtime; a table of another scenario or mode, or
    bytes that are no table, are refused and nothing changes."""
    path = sv.scenario_table_path("essen", "standard")
    assert path == "data/scenarios/essen-standard.bin"
    data = resources.files("skyline").joinpath(path).read_bytes()
    with pytest.raises(ValueError):
        sv.install_scenario_table("dubai", "standard", data)
    with pytest.raises(ValueError):
        sv.install_scenario_table("essen", "standard", b"not a table")
    with pytest.raises(ValueError):
        sv.scenario_table_path("atlantis", "standard")
    sv.install_scenario_table("essen", "standard", data)
    assert sv.has_scenario_table("essen", "standard")
    assert sv.load_scenario_table("essen", "standard").meta["scenario"] == "essen"
    missing = sv.MissingScenarioTable("essen", "nine", "data/scenarios/essen-nine.bin")
    assert isinstance(missing, sv.MissingTable) and missing.path.endswith("essen-nine.bin")
    assert (missing.scenario, missing.mode) == ("essen", "nine")


@needs_essen
def test_simulate_cli_prints_the_success_rate(capsys):
    from skyline.__main__ import main

    code = main(["simulate", "--players", "1", "--bot", "expert", "--scenario", "essen",
                 "--games", "3", "--seed", "cli", "--json", "--no-progress"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    result = json.loads(out[-1])
    assert result["scenario"] == "essen" and result["games"] == 3
    assert result["success_rate"] == 1.0 and result["success_se"] == 0.0
    assert any("scenario essen: met in 100.00% of games" in line for line in out)
    code = main(["simulate", "--players", "2", "--scenario", "essen", "--games", "2",
                 "--no-progress"])
    assert code == 2
    assert "scenario" in capsys.readouterr().out
