"""The 2-4 player expert (skyline.players.table_expert): win chances, the end-game race, the
district term, legality, and a seeded head-to-head against greedy."""

from __future__ import annotations

from importlib import resources

import pytest

from skyline import (
    Abandon,
    Build,
    Building,
    Column,
    Die,
    DieType,
    Face,
    Options,
    Phase,
    Player,
    Take,
    TakeDistrict,
    new_game,
    ranking,
)
from skyline.__main__ import play_bot_game
from skyline.players.expert import expert_options
from skyline.players.table_expert import table_options, win_chance

HAS_TABLE = resources.files("skyline").joinpath("data/solo_values.bin").is_file()
pytestmark = pytest.mark.skipif(not HAS_TABLE, reason="skyline/data/solo_values.bin not built")

G, U, PH = DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE
P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741


def duel(me: Player, other: Player, dice=(), round_=5, seat=1, phase=Phase.RESOLVE,
         district=(G, U, PH)):
    """Two players (seat 0 starts), ``seat`` to move with ``dice`` rolled."""
    state = new_game(Options(("a", "b"), "tex", 0))
    players = (me, other) if seat == 0 else (other, me)
    return state._replace(round=round_, seat=seat, phase=phase, dice=tuple(dice), rolls=1,
                          players=players, district=tuple(sorted(district)))


def test_win_chance_is_fair_and_monotone():
    assert win_chance(50.0, 10.0, [(50.0, 10.0)]) == pytest.approx(0.5)
    four = win_chance(50.0, 10.0, [(50.0, 10.0)] * 3)
    assert four == pytest.approx(0.25, abs=0.01)
    assert win_chance(60.0, 10.0, [(50.0, 10.0)] * 3) > four > win_chance(
        40.0, 10.0, [(50.0, 10.0)] * 3)
    # a final score against fixed scores: a step
    assert win_chance(40.0, 0.0, [(30.0, 0.0), (35.0, 0.0)]) > 0.99
    assert win_chance(30.0, 0.0, [(40.0, 0.0)]) < 0.01


def test_takes_a_winning_end_trigger():
    """Last to play in round 5, far ahead, an orange penthouse on an orange 5: completing
    the six ends the game with this round, a sure win, so the expert builds it."""
    me = Player("b", (Column(O, 5),), (Building(B, 4),) * 3)
    other = Player("a", (Column(O, 1),), (Building(P, 2),))
    state = duel(me, other, [Die(0, PH, O)])
    best = table_options(state)[0]
    assert best.action == Build(0, 0)
    assert best.win > 0.99


def test_avoids_a_losing_end_trigger():
    """Far behind in round 8: completing the six would end the game lost, so the expert
    keeps the game going (it abandons the penthouse), although the six is worth more
    points to its own skyline than the one turn it keeps."""
    me = Player("b", (Column(O, 5),), ())
    other = Player("a", (), (Building(O, 5),) * 2 + (Building(B, 4),) * 2)
    state = duel(me, other, [Die(0, PH, O)], round_=8)
    options = table_options(state)
    assert options[0].action == Abandon((0,))
    build = next(o for o in options if o.action == Build(0, 0))
    assert build.win < options[0].win and build.win < 1e-6
    assert build.value > options[0].value  # more points for its own skyline, still worse


def test_end_trigger_counts_the_opponent_still_to_play():
    """First to play (the opponent still has this round's turn): a small lead is not
    enough to end the game, while the same lead as last player is."""
    me = Player("b", (Column(O, 5),), (Building(B, 4),) * 2)
    other = Player("a", (Column(O, 5),), (Building(B, 4),) * 3)
    last = table_options(duel(me, other, [Die(0, PH, O)], seat=1))
    first = table_options(duel(me, other, [Die(0, PH, O)], seat=0))
    win_last = next(o.win for o in last if isinstance(o.action, Build))
    win_first = next(o.win for o in first if isinstance(o.action, Build))
    assert win_last > 0.99  # 68 against a final 48
    assert win_first < 0.9  # the opponent's orange 5 may still become a six


def test_does_not_feed_the_district_for_nothing():
    """A worthless build (a blue ground floor in the last turn) beats abandoning: the
    abandoned die would be an extra die for the next player, and its win chance says so."""
    me = Player("a", (), (Building(B, 4),) * 3)
    other = Player("b", (Column(O, 5),), (Building(B, 4),) * 3)
    state = duel(me, other, [Die(0, G, B)], round_=9, seat=0, district=(G, U, PH, PH))
    options = table_options(state)
    assert isinstance(options[0].action, Build)
    abandon = [o for o in options if isinstance(o.action, Abandon)]
    assert abandon and all(o.win < options[0].win for o in abandon)


def test_takes_a_rich_district_when_it_matters():
    """Seven dice in the district: leaving them gives the opponent four extra dice, taking
    them gives them to the expert: the district is the best take."""
    me = Player("b", (Column(O, 3), Column(B, 2)), (Building(B, 4),))
    other = Player("a", (Column(O, 4),), (Building(B, 4),))
    state = duel(me, other, phase=Phase.TAKE, district=(G, G, U, U, PH, PH, PH))
    options = table_options(state)
    assert options[0].action == TakeDistrict()
    # a yard take leaves the seven dice to the opponent: worse than with a plain district
    plain = table_options(state._replace(district=(G, U, PH)))
    ggg = Take((G, G, G))
    rich_ggg = next(o.win for o in options if o.action == ggg)
    assert rich_ggg < next(o.win for o in plain if o.action == ggg)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_plays_legal_games(players):
    """Whole games of the expert against the baseline; every action legal (the engine
    would raise), the game ends, the options are ranked by win chance."""
    names = tuple(f"p{i}" for i in range(players))
    bots = ["expert"] + ["expert1"] * (players - 1)
    state = play_bot_game(Options(names, f"tx{players}", 0), bots, "tx")
    assert state.phase is Phase.OVER
    mid = new_game(Options(names, "tx", 0))
    wins = [o.utility for o in expert_options(mid)]
    assert wins == sorted(wins, reverse=True) and all(0.0 <= w <= 1.0 for w in wins)


def test_seeded_head_to_head_beats_greedy():
    """24 seeded two-player games against greedy, 12 seeds with the seats swapped (common
    dice): the expert wins at least 20 (about 95 % is expected; random play wins none)."""
    wins = 0.0
    for i in range(24):
        seat = i % 2
        bots = ["greedy", "greedy"]
        bots[seat] = "expert"
        seed = f"h2h-{i // 2}"
        state = play_bot_game(Options(("a", "b"), seed, 0), bots, seed)
        ranks = ranking(state)
        if ranks[seat] == 1:
            wins += 1 / ranks.count(1)
    assert wins >= 20


def test_opponent_trend_from_its_solo_value():
    """An opponent whose skyline lost solo value since its start (it played worse than the
    solo expert) is expected to keep falling short per turn left; one at or above its start
    value is not (no bonus for luck)."""
    from skyline.players import solo_value as sv
    from skyline.players.expert import position
    from skyline.players.table_expert import TREND_PRIOR, _drift

    weak = Player("a", (Column(P, 1),) * 3, (Building(P, 2),) * 3)
    strong = Player("a", (Column(O, 4), Column(B, 3)), (Building(B, 4),) * 3)
    me = Player("b", (Column(O, 1),), ())
    for opp, expect_drift in ((weak, True), (strong, False)):
        state = duel(me, opp, phase=Phase.TAKE, round_=6)
        pos = position(state, 0)
        start = sv.value(sv.SoloPosition.from_columns(9, [("orange", 1)]))
        now = sv.value(pos)  # the start player has played round 6 too: six played, three left
        assert pos.turns_left == 3
        d = _drift(state, 0, pos)
        if expect_drift:
            assert now < start
            assert d == pytest.approx((start - now) / (6 + TREND_PRIOR))
        else:
            assert now > start and d == 0.0


def test_ahead_of_a_weak_opponent_takes_the_safe_dice(monkeypatch):
    """Last round, the expert to play first and ahead of an opponent whose play so far
    fell well short of the solo expert's: expecting it to keep doing so in its last turn,
    the expert takes three upper floors (fewer expected points, a surer lead). Modelling
    the opponent as a solo expert instead (no trend) it sees a closer race and takes a
    penthouse for more points at more risk."""
    from skyline.players import table_expert as te

    me = Player("a", (Column(P, 1),) * 4 + (Column(B, 2),),
                (Building(P, 2), Building(B, 4), Building(B, 3), Building(B, 4), Building(B, 3),
                 Building(O, 3), Building(P, 2)))
    other = Player("b", (Column(P, 1), Column(P, 1), Column(B, 1)),
                   (Building(P, 2), Building(B, 2), Building(B, 2), Building(P, 2),
                    Building(B, 3), Building(O, 5), Building(P, 2), Building(P, 2)))
    state = duel(me, other, phase=Phase.TAKE, round_=9, seat=0)
    def fresh() -> None:  # the searches and the options known, weighed again
        te._CACHE.clear()
        te._table_options.cache_clear()

    fresh()
    best = table_options(state)[0]
    assert best.action == Take((U, U, U))
    monkeypatch.setattr(te, "TREND_PRIOR", -1.0)
    fresh()
    naive = table_options(state)[0]
    fresh()
    assert naive.action == Take((U, U, PH))
    assert naive.value > best.value  # more points, taken only against a stronger opponent

def test_spread_grows_with_the_points_still_unbanked():
    """The final score of a skyline with much still to come is less certain, above all
    with one or two turns left; with zero gain there is little spread left."""
    from skyline.players.table_expert import _spread

    for mode in ("standard", "nine"):
        for turns in (1, 2):
            low, high = _spread(mode, turns, 8.0), _spread(mode, turns, 40.0)
            assert high > 1.5 * low > 0
        assert _spread(mode, 0, 30.0) == 0.0


def test_opponent_end_threat_two_players():
    """Two players, standard game: an opponent with an orange five-high may end the game in
    its next turn, which lowers the expert's chance while it trails on banked points; an
    opponent without one does not."""
    from skyline.players.table_expert import THREAT_Q, _Table

    me = Player("b", (Column(O, 4), Column(B, 3), Column(B, 2)), (Building(P, 2),))
    calm = Player("a", (Column(B, 3),), (Building(B, 4),) * 2)
    threat = Player("a", (Column(O, 5),), (Building(B, 4),) * 2)
    state_calm = duel(me, calm, phase=Phase.TAKE, round_=5, seat=0)
    state_threat = duel(me, threat, phase=Phase.TAKE, round_=5, seat=0)
    assert _Table(state_calm).threat is None
    q, theirs, after = _Table(state_threat).threat
    assert q == THREAT_Q and after == 0  # it plays after the expert in this round
    assert theirs > 32 + 30
    win_calm = table_options(state_calm)[0].win
    win_threat = table_options(state_threat)[0].win
    assert win_threat < win_calm
