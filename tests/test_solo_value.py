"""Tests of the solo optimum: solver, shipped table and the exact within-turn search."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from skyline.players import solo_value as sv

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

Z = (0,) * 9


def pos(t, counts=Z, tiles=(), mode="standard"):
    return sv.SoloPosition(t, tuple(counts), tuple(tiles), mode)


def options(p, dice=None, resolved=False):
    return {o.action: o.value for o in sv.turn_options(p, dice, resolved)}


@pytest.fixture
def no_table():
    """A table with no entries: every lookup falls back (t = 1 never looks anything up)."""
    modes = ("standard", "nine")
    table = sv.ValueTable(
        sv.CAPS,
        {m: [((), ())] * 10 for m in modes},
        {m: [[0.0] * 11] * 10 for m in modes},
        {"scale": 256, "turns": 9},
    )
    sv.set_table(table)
    yield table
    sv.set_table(None)


# ---------------------------------------------------------------------------------------
# Hand-checkable cases (last turn: the end value is known exactly, no table involved)
# ---------------------------------------------------------------------------------------


def test_game_over_is_banked_plus_lone_purples():
    p = pos(0, (2, 1, 0, 0, 0, 0, 0, 0, 1), tiles=(2, 6, 3))
    assert sv.value(p) == 4 + 36 + 9 + 2
    assert sv.turn_options(p) == []


def test_last_turn_three_upper_dice_on_a_lone_purple(no_table):
    # One lone purple, nothing else, last turn, dice U U U.  At least one purple face (7/8):
    # complete it (4 points) and stop (rerolling with no column left would force demolishing
    # the tile).  No purple (1/8): nothing buildable, the column must be demolished: 0.
    p = pos(1, (1,) + (0,) * 8)
    assert options(p)[("take", ("U", "U", "U"))] == pytest.approx(7 / 8 * 4)


def test_last_turn_three_ground_dice_on_a_lone_purple(no_table):
    # Dice G G G, last turn: each purple face built is a lone purple (1 point at the end);
    # other faces are worthless columns.  Subtlety: a rolled purple may be kept unbuilt as a
    # "token" - building it after the next roll satisfies "resolve at least one die", so the
    # other dice can be rerolled again.
    #   A[m]: m dice just rolled, no token;  T[m]: a kept purple plus m dice just rolled.
    #   (values: expected purples built from here on)
    from math import comb

    A = {0: 0.0}
    T = {0: 1.0}
    for m in range(1, 4):
        A[m] = T[m] = 0.0
        for j in range(m + 1):  # A[m] needs A, T below m
            if j == 0:  # must build a worthless die, reroll the rest
                a = A[m - 1]
            else:
                a = j + A[m - j]  # build all purples, reroll the rest
                if j >= 2:
                    a = max(a, j - 1 + T[m - j])  # keep one purple as the token
                if j == 1 and m >= 2:
                    a = max(a, T[m - 2])  # build a worthless die, keep the purple
            A[m] += comb(m, j) / 2**m * a
        for j in range(m + 1):  # T[m] needs A[m]
            if j == 0:  # build the token and reroll all, or a worthless die and keep it
                t = max(1 + A[m], T[m - 1])
            else:
                t = max(j + 1 + A[m - j], j + T[m - j])
            T[m] += comb(m, j) / 2**m * t
    assert A[3] == pytest.approx(79 / 32)  # (3 + 3*2.75 + 3*2.375 + 1.375) / 8
    p = pos(1, (1,) + (0,) * 8)
    assert options(p)[("take", ("G", "G", "G"))] == pytest.approx(1 + A[3])


def test_last_turn_penthouses_on_orange_five(no_table):
    # Orange 5 high, last turn, P P P, no other building: the chance of at least one orange
    # penthouse in a roll is 1 - (5/6)^k.  Without one, nothing is buildable and the column is
    # the only building: it must be demolished.  With one: 36 points; the standard game ends
    # anyway.  So the value is 36 * (1 - (5/6)^3).
    p = pos(1, (0,) * 8 + (1,))
    assert options(p)[("take", ("P", "P", "P"))] == pytest.approx(36 * (1 - (5 / 6) ** 3))
    # With a 4-point tile to sacrifice instead, a blank roll costs the tile and the two
    # remaining dice get another roll (and a third if needed, sacrificing the column).
    q = 1 - (5 / 6) ** 3
    q2 = 1 - (5 / 6) ** 2
    with_tile = pos(1, (0,) * 8 + (1,), tiles=(2,))
    # No orange in 3 dice: sacrifice the tile (-4, better than the column: 11 > 4), reroll
    # the other two: an orange penthouse (q2) gives 36; otherwise the column must go: 0.
    expected = q * (36 + 4) + (1 - q) * (q2 * 36)
    assert options(with_tile)[("take", ("P", "P", "P"))] == pytest.approx(expected)


def test_mid_turn_options_hand_values(no_table):
    # Last turn, a blue column of height 3 and dice P(blue) and P(blank), nothing resolved.
    p = pos(1, (0, 0, 0, 1, 0, 0, 0, 0, 0))
    opts = options(p, [("P", "blank"), ("P", "blue")])
    # Build the blue penthouse: 16 points, then end (value 16) - rerolling the blank with no
    # column left risks a forced demolition of the new tile.
    assert opts[("build", 1, ("blue", 3))] == pytest.approx(16)
    # Demolishing the column with the blank leaves nothing to build on.
    assert opts[("demolish", 0, ("blue", 3))] == pytest.approx(0)
    best = sv.best_turn_choice(p, [("P", "blank"), ("P", "blue")])
    assert best.action == ("build", 1, ("blue", 3)) and best.value == pytest.approx(16)
    # After resolving: ending keeps the column (0 at the end); rerolling the blank penthouse
    # gives 1/3 chance of 16, else a forced demolition of the column (the only building).
    opts2 = options(p, [("P", "blank")], resolved=True)
    assert opts2[("end",)] == 0
    assert opts2[("reroll", (0,))] == pytest.approx(16 / 3)


# ---------------------------------------------------------------------------------------
# The offline solver agrees with the runtime search on small exact cases
# ---------------------------------------------------------------------------------------

# Caps large enough that nothing reachable in one turn from the empty skyline (or a lone
# purple) is forgotten.
SMALL_CAPS = (4, 3, 1, 1, 3, 1, 1, 0, 0, 1)


@pytest.mark.parametrize("mode", ["standard", "nine"])
def test_solver_matches_runtime_on_the_last_turn(mode, no_table):
    np = pytest.importorskip("numpy")
    import solve_solo

    W = solve_solo.solve(mode, caps=SMALL_CAPS, turns=1, dtype=np.float64)
    assert np.all(W[0][(1,) + (0,) * 9] == 1)
    for counts in [Z, (1,) + (0,) * 8, (0, 1) + (0,) * 7]:
        key = tuple(counts) + (0,)
        best = max(options(pos(1, counts, mode=mode)).values())
        assert float(W[1][key]) == pytest.approx(best, abs=1e-9)


def test_solver_hand_value_two_turns_tiny_caps():
    pytest.importorskip("numpy")
    import solve_solo

    # Only lone purples exist (every other column is forgotten at cap 0; no tile tracking).
    # One turn, one purple column: the best is 3.5 (U U U)?  Compare with G G G = 3.375 and
    # the solver's optimum over all ten dice choices, which must be at least both.
    caps = (4, 0, 0, 0, 0, 0, 0, 0, 0)
    W = solve_solo.solve("nine", caps=caps, turns=1)
    v = float(W[1][(1,) + (0,) * 8])
    assert v >= 3.5 - 1e-9
    # Zero turns: banked lone purples only.
    assert float(W[0][(3,) + (0,) * 8]) == 3


# ---------------------------------------------------------------------------------------
# The shipped table
# ---------------------------------------------------------------------------------------


def test_table_loads_with_header():
    table = sv.load_table()
    assert table.meta["format"] == 1
    assert tuple(table.caps) == sv.CAPS
    assert set(table.modes) == {"standard", "nine"}
    path = ROOT / "skyline" / "data" / "solo_values.bin"
    assert path.stat().st_size < 500_000
    for mode, low in (("standard", 82.0), ("nine", 84.6)):
        v = sv.value(sv.SoloPosition.start(mode))
        assert v > low
        assert v == pytest.approx(table.meta["optimum"][mode], abs=2 / table.meta["scale"])


@pytest.mark.parametrize("mode", ["standard", "nine"])
def test_table_is_consistent_with_the_turn_search(mode):
    """Bellman check: the exact turn search over the shipped W[t-1] reproduces W[t]."""
    sv.set_table(None)
    table = sv.load_table()
    rng = random.Random(7)
    checked = 0
    tol = 3 / table.meta["scale"]
    for t in (9, 6, 3, 1):
        keys = sorted(table.level(mode, t))
        for idx in rng.sample(keys, min(3, len(keys))) if t != 9 else keys[:1]:
            counts = table.counts(idx)
            if any(c >= cap for c, cap in zip(counts, table.caps, strict=True)):
                continue  # at a cap the runtime (real counts) may do better than the model
            p = sv.SoloPosition(t, tuple(counts[:9]), (2,) * counts[sv.T2], mode)
            opts = sv.turn_options(p)
            if not all(o.exact for o in opts):
                continue
            best = opts[0].value - p.banked
            assert best == pytest.approx(table.lookup(mode, t, counts)[0], abs=tol)
            checked += 1
    assert checked >= 3


@pytest.mark.skipif(not os.environ.get("SKYLINE_SLOW"), reason="minutes; set SKYLINE_SLOW=1")
def test_shipped_table_matches_solver():
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "solve_solo.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


# ---------------------------------------------------------------------------------------
# Legality of the runtime's choices
# ---------------------------------------------------------------------------------------


def _legal(p: sv.SoloPosition, dice, resolved, action) -> bool:
    cols = {c: n for c, n in zip(sv.COLUMN_CLASSES, p.columns, strict=True)}
    kind = action[0]
    if kind == "take":
        return dice is None and len(action[1]) == 3 and set(action[1]) <= {"G", "U", "P"}
    if kind == "end":
        return resolved
    if kind == "reroll":
        idx = action[1]
        return (
            resolved
            and len(idx) > 0
            and len(set(idx)) == len(idx)
            and all(0 <= i < len(dice) for i in idx)
        )
    i, target = action[1], action[2]
    if not 0 <= i < len(dice):
        return False
    ty, face = dice[i]
    if kind == "demolish":
        if target[0] == "tile":
            return target[1] in p.tiles
        return cols.get(target, 0) > 0
    assert kind == "build"
    if ty == "G":
        return target is None
    if target is None or cols.get(target, 0) == 0 or target[0] != face:
        return False
    colour, h = target
    if ty == "U":
        return (colour, h) in {("purple", 1), ("blue", 1), ("blue", 2)} or (
            colour == "orange" and h <= 4
        )
    return (colour == "blue" and h <= 3) or (colour == "orange" and 2 <= h <= 5)


def test_every_listed_option_is_legal():
    rng = random.Random(3)
    dice_all = [(ty, f) for ty in "GUP" for f in sv.FACES[ty]]
    for _ in range(25):
        counts = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(9))
        tiles = tuple(rng.choice((2, 3, 4, 5)) for _ in range(rng.randrange(3)))
        mode = rng.choice(("standard", "nine"))
        p = sv.SoloPosition(rng.randint(1, 9), counts, tiles, mode)
        if rng.random() < 0.3:
            for o in sv.turn_options(p):
                assert _legal(p, None, False, o.action), o
            continue
        dice = [rng.choice(dice_all) for _ in range(rng.randint(1, 3))]
        resolved = rng.random() < 0.5
        opts = sv.turn_options(p, dice, resolved)
        for o in opts:
            assert _legal(p, dice, resolved, o.action), (p, dice, o)
        values = [o.value for o in opts]
        assert values == sorted(values, reverse=True)
        if not opts:  # only when nothing at all can be resolved after a roll
            assert not resolved and not any(counts) and not tiles


def test_forced_choice_when_nothing_is_buildable():
    # Last turn, only a 9-point tile and an orange 2 column, dice U(blue), P(blank).
    p = pos(1, (0, 0, 0, 0, 0, 1, 0, 0, 0), tiles=(3,))
    opts = sv.turn_options(p, [("U", "blue"), ("P", "blank")])
    assert all(o.action[0] == "demolish" for o in opts)
    # demolishing the worthless column beats losing the 9-point tile
    assert opts[0].action[2] == ("orange", 2)


def test_bot_plays_legal_games():
    import bench_solo_optimum as bench

    rng = random.Random(11)
    for mode in ("standard", "nine"):
        for _ in range(2):
            score, _exact = bench.play(rng, mode, None)
            assert 0 <= score <= 400


def test_all_take_options_listed():
    p = sv.SoloPosition.start("nine")
    acts = [o.action for o in sv.turn_options(p)]
    assert sorted(acts) == sorted(
        ("take", tuple(sv.TYPES[i] for i in c))
        for c in itertools.combinations_with_replacement(range(3), 3)
    )
