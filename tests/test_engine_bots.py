"""The bots: legal, deterministic, no peeking at seeded rolls, and as strong as described."""

from __future__ import annotations

import random
import statistics

import pytest

import skyline.rules.turns
from skyline import (
    Build,
    Demolish,
    EndTurn,
    GameState,
    Options,
    Phase,
    apply_action,
    legal_actions,
    new_game,
    score,
)
from skyline.players.bots import BOTS, DEFAULT_BOT, get_bot, register

NAMES = ("Ada", "Bo", "Cy", "Di")


def play(bot_names, seed: str, all_nine: bool = False, check=None) -> GameState:
    state = new_game(Options(NAMES[: len(bot_names)], seed, 0, all_nine))
    rngs = [random.Random(f"{seed}/{i}") for i in range(len(bot_names))]
    while state.phase is not Phase.OVER:
        bot = BOTS[bot_names[state.seat]]
        action = bot(state, rngs[state.seat])
        if check:
            check(state, action)
        state = apply_action(state, action)
    return state


def test_registry():
    """The registry holds the three bots; greedy is the default; new bots can register."""
    assert {"random", "beginner", "greedy"} <= set(BOTS) and DEFAULT_BOT == "greedy"
    assert get_bot("greedy") is BOTS["greedy"]
    with pytest.raises(ValueError, match="^bot: unknown bot"):
        get_bot("nobody")

    @register("_test_first")
    def first(state, rng):
        return legal_actions(state)[0]

    try:
        assert BOTS["_test_first"] is first
        play(["_test_first"], "reg")
    finally:
        del BOTS["_test_first"]


@pytest.mark.parametrize("name", ["random", "beginner", "greedy"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_bots_play_legal_deterministic_games(name, players, monkeypatch):
    """Every decision applies without error; same seeds, same game; no bot looks at the
    seeded future rolls."""
    real = skyline.rules.turns.seeded_faces
    deciding = []

    def guarded(state, dice):
        assert not deciding, "a bot looked at seeded_faces"
        return real(state, dice)

    monkeypatch.setattr(skyline.rules.turns, "seeded_faces", guarded)
    bot = BOTS[name]

    def wrapped(state, rng):
        deciding.append(1)
        try:
            return bot(state, rng)
        finally:
            deciding.pop()

    monkeypatch.setitem(BOTS, name, wrapped)
    for i in range(6):
        a = play([name] * players, f"det{i}", all_nine=i % 2 == 1)
        b = play([name] * players, f"det{i}", all_nine=i % 2 == 1)
        assert a == b


def test_beginner_demolishes_only_when_forced_and_builds_before_ending():
    """beginner: random legal, but never demolishes unless forced and never ends a turn
    with a buildable die unbuilt."""

    def check(state, action):
        actions = legal_actions(state)
        if isinstance(action, Demolish):
            assert all(isinstance(a, Demolish) for a in actions)
        if isinstance(action, EndTurn):
            assert not any(isinstance(a, Build) for a in actions)

    for i in range(40):
        play(["beginner"] * (1 + i % 4), f"beg{i}", check=check)


def test_greedy_does_not_demolish_with_opponents():
    """With opponents greedy abandons dice it cannot use rather than demolish."""
    for i in range(30):
        state = play(["greedy"] * (2 + i % 3), f"nodemo{i}")
        assert all(p.demolitions == 0 for p in state.players)


def _solo_mean(name: str, games: int, all_nine: bool = False) -> float:
    return statistics.fmean(
        score(play([name], f"mean{i}", all_nine).players[0]) for i in range(games)
    )


def test_bot_strength_solo():
    """The issue's yardsticks: greedy about 43 (ours is a little stronger), random legal
    about 0.4, random-but-demolish-only-when-forced about 8.7 (ours also builds before
    ending a turn, so a little more)."""
    assert 42 <= _solo_mean("greedy", 300) <= 56
    assert 42 <= _solo_mean("greedy", 200, all_nine=True) <= 56
    assert _solo_mean("random", 200) < 2
    assert 6 <= _solo_mean("beginner", 200) <= 20


def test_greedy_beats_beginner():
    """Greedy wins clearly against the beginner in two-player games."""
    wins = 0
    for i in range(60):
        state = play(["greedy", "beginner"] if i % 2 else ["beginner", "greedy"], f"duel{i}")
        greedy_seat = 0 if i % 2 else 1
        wins += score(state.players[greedy_seat]) > score(state.players[1 - greedy_seat])
    assert wins >= 54
