"""Property tests: thousands of random legal games (1-4 players, both modes, random
undos) with invariants checked after every action, round trips and fuzzed input.

The games are driven by a ``random.Random`` seeded from a Hypothesis integer, so a
failure is reproducible from the falsifying example. ``SKYLINE_PROPERTY_SCALE``
multiplies the number of games (see conftest.py).
"""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from skyline import (
    Abandon,
    Board,
    Build,
    Demolish,
    DieType,
    EndTurn,
    Face,
    GameState,
    IllegalActionError,
    Options,
    Phase,
    RecordError,
    Roll,
    Take,
    TakeDistrict,
    action_class,
    apply_action,
    final_buildings,
    is_legal,
    legal_actions,
    new_game,
    parse_action,
    ranking,
    score,
    state_from_dict,
    state_to_dict,
)
from skyline.rules import MAX_LISTED_REROLLS

SCALE = max(1, int(os.environ.get("SKYLINE_PROPERTY_SCALE", "1")))
NAMES = ("Ada", "Bo", "Cy", "Di")
P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741
COLUMN_HEIGHTS = {P: (1, 1), B: (1, 3), O: (1, 5)}
BUILDING_HEIGHTS = {P: (2, 2), B: (2, 4), O: (3, 6)}

games = st.fixed_dictionaries(
    {
        "players": st.integers(1, 4),
        "all_nine": st.booleans(),
        "start": st.integers(0, 3),
        "seed": st.integers(0, 2**40),
        # how strongly the random player prefers building (0 = uniform over legal actions)
        "build_bias": st.sampled_from([0.0, 0.5, 0.9, 1.0]),
        "undo_rate": st.sampled_from([0.0, 0.05, 0.3]),
    }
)


def options_for(g: dict) -> Options:
    n = g["players"]
    return Options(NAMES[:n], f"prop{g['seed']}", g["start"] % n, g["all_nine"])


def choose(rng: random.Random, actions: list, build_bias: float):
    builds = [a for a in actions if isinstance(a, Build)]
    if builds and rng.random() < build_bias:
        return rng.choice(builds)
    return actions[rng.randrange(len(actions))]


# --------------------------------------------------------------------------- invariants


def skyline_dice(player) -> int:
    return sum(c.height for c in player.columns) + sum(b.height for b in player.buildings)


def check_state(state: GameState, taken: int) -> None:
    """Invariants of a single state; ``taken`` = dice taken this turn."""
    n = len(state.players)
    assert 1 <= state.round <= 9 and 0 <= state.seat < n
    ids = [d.id for d in state.dice]
    assert len(ids) == len(set(ids)), "active dice ids are unique"
    assert all(0 <= i < taken for i in ids), "active dice belong to this turn's take"
    if state.phase in (Phase.TAKE, Phase.OVER):
        assert state.dice == ()
    if state.phase is Phase.ROLL:
        assert state.dice and all(d.face is None for d in state.dice) and state.rolls == 0
    if state.phase in (Phase.RESOLVE, Phase.CONTINUE):
        assert all(d.face is not None for d in state.dice) and state.rolls >= 1
        assert all(d.face in (X, B, O) if d.type is DieType.PENTHOUSE else d.face is not X
                   for d in state.dice)
    if state.phase is Phase.RESOLVE:
        assert state.dice
    if n == 1:
        assert state.district == ()
    else:
        assert len(state.district) >= 3 or state.phase in (Phase.ROLL, Phase.RESOLVE,
                                                          Phase.CONTINUE)
    for player in state.players:
        for c in player.columns:
            low, high = COLUMN_HEIGHTS[c.kind]
            assert low <= c.height <= high, c
        for b in player.buildings:
            low, high = BUILDING_HEIGHTS[b.kind]
            assert low <= b.height <= high, b
        assert score(player) == sum(b.height**2 for b in final_buildings(player))
        assert score(player) == sum(b.height**2 for b in player.buildings) + sum(
            1 for c in player.columns if c.kind is P
        )
    ranks = ranking(state)
    assert min(ranks) == 1


def check_transition(before: GameState, action, after: GameState) -> None:
    """Invariants linking a state, a successful action and the next state."""
    seat = before.seat
    for other in range(len(before.players)):
        if other != seat:
            assert after.players[other] == before.players[other], "others are untouched"
    me0, me1 = before.players[seat], after.players[seat]
    lost = len(before.dice) - len(after.dice) if after.seat == seat else None
    if isinstance(action, Build):
        assert lost == 1 and skyline_dice(me1) == skyline_dice(me0) + 1
        assert me1.buildings[: len(me0.buildings)] == me0.buildings
        assert len(me1.buildings) - len(me0.buildings) in (0, 1)
        assert me1.demolitions == me0.demolitions
        if len(me1.buildings) > len(me0.buildings) and me1.buildings[-1].height == 6:
            assert after.six_completed
    elif isinstance(action, Demolish):
        assert lost == 1 and me1.demolitions == me0.demolitions + 1
        pool0, pool1 = ((me0.buildings, me1.buildings) if action.completed
                        else (me0.columns, me1.columns))
        assert pool1 == pool0[: action.index] + pool0[action.index + 1 :]
        other0 = me0.columns if action.completed else me0.buildings
        other1 = me1.columns if action.completed else me1.buildings
        assert other0 == other1
    else:
        assert me1 == me0, "only build and demolish change a skyline"
    if isinstance(action, Abandon):
        moved = Counter(d.type for d in before.dice if d.id in action.dice)
        assert Counter(after.district) == Counter(before.district) + moved
        assert lost == len(action.dice)
    elif isinstance(action, TakeDistrict):
        assert sorted(d.type for d in after.dice) == sorted(before.district)
        assert Counter(after.district) == {DieType.GROUND: 1, DieType.UPPER: 1,
                                           DieType.PENTHOUSE: 1}
    else:
        assert after.district == before.district
    if isinstance(action, Roll) and after.phase is Phase.RESOLVE:
        assert [(d.id, d.type) for d in after.dice] == [(d.id, d.type) for d in before.dice]
        kept = {d.id: d.face for d in before.dice if d.id not in action.dice}
        assert all(d.face == kept[d.id] for d in after.dice if d.id in kept)
    if after.phase is Phase.TAKE and before.phase is not Phase.TAKE:
        # the turn ended: next seat, same or next round
        n = len(before.players)
        assert after.seat == (seat + 1) % n
        if after.seat == before.start_seat:
            assert after.round == before.round + 1
        else:
            assert after.round == before.round
    if after.phase is Phase.OVER:
        assert before.round == 9 or before.six_completed or (
            isinstance(action, Build | Roll | EndTurn))


def play_checked(g: dict, rng: random.Random) -> Board:
    """Play a full random game on a Board, checking everything after every action."""
    board = Board(options_for(g))
    taken = 0
    check_state(board.state, taken)
    while not board.is_game_over():
        before = board.state
        actions = board.legal_actions()
        assert actions, "a live game always has a legal action"
        action = choose(rng, actions, g["build_bias"])
        board.push(action)
        after = board.state
        if isinstance(action, Take | TakeDistrict):
            taken = len(after.dice)
        check_transition(before, action, after)
        check_state(after, taken if after.phase is not Phase.TAKE else 0)
        if board.can_undo() and rng.random() < g["undo_rate"]:
            assert board.pop() == action
            assert board.state == before
            if isinstance(action, Take | TakeDistrict):
                taken = 0
    return board


def check_round_trips(board: Board) -> None:
    again = Board.from_record(board.record())
    assert again.state == board.state and again.actions == board.actions
    assert again.can_undo() == board.can_undo()
    j = Board.from_json(board.to_json())
    assert j.state == board.state and j.can_undo() == board.can_undo()
    assert state_from_dict(state_to_dict(board.state)) == board.state
    # replaying is deterministic, also through the pure functions
    state = new_game(board.options)
    for action in board.actions:
        assert parse_action(str(action)) == action
        state = apply_action(state, action)
    assert state == board.state


# --------------------------------------------------------------------------- properties


@settings(max_examples=500 * SCALE, deadline=None)
@given(games)
def test_random_games_keep_invariants(g):
    """Random legal games with random undos: invariants hold after every action, and the
    record and JSON forms reproduce the final state (and its undo status)."""
    rng = random.Random(g["seed"])
    board = play_checked(g, rng)
    assert board.is_game_over() and board.legal_actions() == []
    check_round_trips(board)
    # a mid-game cut reproduces as well, including whether undo is possible
    cut = rng.randrange(len(board.actions) + 1)
    partial = Board(board.options)
    for action in board.actions[:cut]:
        partial.push(action)
    check_round_trips(partial)


@settings(max_examples=2000 * SCALE, deadline=None)
@given(games)
def test_many_fast_games_never_fail(g):
    """Thousands of random games on the pure functions: no internal error, the game always
    ends within nine rounds, and the scores are consistent."""
    rng = random.Random(g["seed"])
    state = new_game(options_for(g))
    steps = 0
    while state.phase is not Phase.OVER:
        actions = legal_actions(state)
        state = apply_action(state, choose(rng, actions, g["build_bias"]))
        steps += 1
        assert steps < 20_000
    assert state.round <= 9 and state.dice == ()
    for player in state.players:
        assert score(player) == sum(b.points for b in final_buildings(player))


def canonical(state: GameState) -> tuple:
    """``state`` up to interchangeable dice and the order of columns and buildings."""
    return (
        state.options, state.round, state.seat, state.phase, tuple(sorted(state.district)),
        tuple(sorted((d.type, -1 if d.face is None else d.face) for d in state.dice)),
        state.rolls, state.six_completed,
        tuple((p.name, tuple(sorted(p.columns)), tuple(sorted(p.buildings)), p.demolitions)
              for p in state.players),
    )


def fuzz_actions(state: GameState, rng: random.Random, count: int) -> list:
    ids = list(range(-1, 8))
    out = []
    for _ in range(count):
        kind = rng.randrange(7)
        sel = tuple(sorted(set(rng.sample(ids, rng.randint(0, 4)))))
        if sel and rng.random() < 0.1:
            sel = sel + sel[:1]  # a die selected twice
        if kind == 0:
            size = rng.choice([2, 3, 3, 4])
            out.append(Take(tuple(rng.choice(list(DieType)) for _ in range(size))))
        elif kind == 1:
            out.append(TakeDistrict())
        elif kind == 2:
            out.append(Roll(sel))
        elif kind == 3:
            out.append(Build(rng.choice(ids), rng.choice([None, None, -1, 0, 1, 2, 3, 9])))
        elif kind == 4:
            index = rng.choice([-1, 0, 1, 2, 5])
            out.append(Demolish(rng.choice(ids), index, rng.random() < 0.5))
        elif kind == 5:
            out.append(Abandon(sel))
        else:
            out.append(EndTurn())
    return out


@settings(max_examples=120 * SCALE, deadline=None)
@given(games)
def test_legal_actions_are_exactly_the_legal_classes(g):
    """Every action in ``legal_actions`` applies; every action that applies is in one of
    the listed equivalence classes (abandoning a selection: each of its dice; rerolls:
    only below MAX_LISTED_REROLLS); anything else raises IllegalActionError."""
    rng = random.Random(g["seed"])
    state = new_game(options_for(g))
    while state.phase is not Phase.OVER:
        actions = legal_actions(state)
        keys = set()
        reps = {}
        for action in actions:
            apply_action(state, action)  # never raises
            keys.add(action_class(state, action))
            reps[action_class(state, action)] = action
        assert len(keys) == len(actions), "one representative per class"
        n_sel = 1
        for count in Counter((d.type, d.face) for d in state.dice).values():
            n_sel *= count + 1
        for action in fuzz_actions(state, rng, 12):
            key = action_class(state, action)
            try:
                apply_action(state, action)
            except IllegalActionError:
                assert not is_legal(state, action)
                assert key not in keys, (action, "is listed but illegal")
                continue
            assert is_legal(state, action)
            if key in keys:
                # same class, equivalent state: the same up to which die or column it was
                after, rep_after = apply_action(state, action), apply_action(state, reps[key])
                assert canonical(after) == canonical(rep_after), (action, reps[key])
                continue
            if isinstance(action, Abandon):
                assert all(action_class(state, Abandon((i,))) in keys for i in action.dice)
            elif isinstance(action, Roll):
                assert n_sel - 1 > MAX_LISTED_REROLLS, (action, "applies but is not listed")
            else:
                raise AssertionError((action, "applies but is not listed"))
        state = apply_action(state, choose(rng, actions, g["build_bias"]))
    assert legal_actions(state) == []


@settings(max_examples=150 * SCALE, deadline=None)
@given(games, st.lists(st.text(alphabet="tGUPDrbxa@ce.0123456789|", max_size=8), max_size=6))
def test_bad_records_raise_record_error_only(g, junk):
    """Tampered records (junk tokens spliced in, truncation) raise RecordError, never
    another exception; accepted records replay to the same state twice."""
    rng = random.Random(g["seed"])
    board = Board(options_for(g))
    for _ in range(rng.randrange(80)):
        if board.is_game_over():
            break
        board.push(choose(rng, board.legal_actions(), g["build_bias"]))
    text = board.record()
    for variant in (
        text[: rng.randrange(len(text) + 1)],
        text + " " + " ".join(junk),
        text.replace(" ", " " + "".join(junk) + " ", 1),
    ):
        try:
            loaded = Board.from_record(variant)
        except RecordError:
            continue
        assert Board.from_record(loaded.record()).state == loaded.state


def _reference_rerolls(groups):
    """The reroll listing as first written (kept to check the optimised version)."""
    from itertools import product

    total = 1
    for g in groups:
        total *= len(g) + 1
    if total - 1 <= MAX_LISTED_REROLLS:
        out = []
        for counts in product(*(range(len(g) + 1) for g in groups)):
            chosen = [i for g, c in zip(groups, counts, strict=True) for i in g[:c]]
            if chosen:
                out.append(tuple(sorted(chosen)))
        return out
    everything = sorted(i for g in groups for i in g)
    seen = set()
    for group in groups:
        seen.add((group[0],))
        seen.add(tuple(group))
        seen.add(tuple(i for i in everything if i != group[-1]))
    seen.add(tuple(everything))
    return sorted(seen, key=lambda sel: (len(sel), sel))


@settings(max_examples=300 * SCALE, deadline=None)
@given(st.integers(0, 45), st.integers(1, 9), st.booleans(), st.integers(0, 2**32))
def test_rerolls_match_reference_definition(n, kinds, shuffled, seed):
    """The optimised reroll listing equals its reference definition, small and large
    pools alike (the structured subset above MAX_LISTED_REROLLS)."""
    from skyline.rules.legal import _rerolls

    rng = random.Random(seed)
    ids = list(range(n))
    if shuffled:
        rng.shuffle(ids)
    groups: dict[int, list[int]] = {}
    for i in ids:
        groups.setdefault(rng.randrange(kinds), []).append(i)
    listed = list(groups.values())
    assert list(_rerolls(listed)) == _reference_rerolls(listed)
