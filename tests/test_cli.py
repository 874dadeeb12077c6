"""The command line: ``python -m skyline play`` (stdin piped) and ``simulate``."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest

from skyline import Board
from skyline.__main__ import main
from skyline.players.bots import BOTS


def run(argv, stdin: str = "", monkeypatch=None, capsys=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_play_session(monkeypatch, capsys):
    """Readable state, actions in notation, help, illegal input keeps the game, undo,
    record and quit."""
    script = "help\ntGGU\nr0.1.2\nb7\nnonsense\ne\nb0\nundo\nundo\nrecord\nquit\n"
    code, out, _ = run(["play", "--players", "Ada", "--seed", "demo"], script, monkeypatch,
                       capsys)
    assert code == 0
    assert "Round 1/9 - Ada to play (take)" in out
    assert "tGUP       take ground, upper, penthouse from the yard" in out
    assert "dice: 0:G?  1:G?  2:U?" in out
    assert "Ada rolls: " in out
    assert "illegal: there is no active die 7" in out
    assert "illegal: not an action: 'nonsense'" in out
    assert "illegal: not now: resolve at least one die first" in out
    assert "undone: b0" in out
    assert "cannot undo: nothing to undo" in out
    assert "skyline1 players=Ada seed=demo start=0 nine=0 scenario=- | tGGU r0.1.2\n" in out
    assert out.rstrip().endswith("record: skyline1 players=Ada seed=demo start=0 nine=0 "
                                 "scenario=- | tGGU r0.1.2")
    assert "*>Ada" in out and "unfinished [c0:o1]" in out


def test_play_multiplayer_state_and_help(monkeypatch, capsys):
    """Several players: district, start star, scores; help describes every legal action."""
    script = "tGUP\nr0.1.2\nhelp\n"
    code, out, _ = run(["play", "--players", "Ada", "Bo", "Cy", "--seed", "m", "--start", "1"],
                       script, monkeypatch, capsys)
    assert code == 0
    assert "district: GUP" in out and " *>Bo" in out and "Cy" in out
    assert "a0.1.2     abandon 0 (" in out
    assert "end the turn" not in out  # not legal before resolving


def test_play_whole_game_matches_record(monkeypatch, capsys):
    """A full solo game typed in by a bot ends with the summary and a record that loads
    to the same final state."""
    board = Board.new(["Solo"], seed="full", scenario="tucson")
    rng = random.Random(0)
    lines = []
    while not board.is_game_over():
        action = BOTS["greedy"](board.state, rng)
        board.push(action)
        lines.append(str(action))
    code, out, _ = run(
        ["play", "--players", "Solo", "--seed", "full", "--scenario", "tucson"],
        "\n".join(lines) + "\n", monkeypatch, capsys,
    )
    assert code == 0 and "Game over after round" in out and "Level:" in out
    assert "Scenario tucson:" in out
    record = out.strip().splitlines()[-1].removeprefix("record: ")
    assert Board.from_record(record).state == board.state


def test_play_stuck_is_reported(monkeypatch, capsys):
    """A roll after which nothing can be resolved ends the turn; the log says stuck."""
    script = "tGGG\nr0.1.2\nx0@c0\ne\ntUUP\nr0.1.2\n"
    code, out, _ = run(["play", "--players", "Solo", "--seed", "stuck"], script, monkeypatch,
                       capsys)
    assert "cannot resolve any die: the turn ends (stuck)" in out
    assert "Round 3/9" in out


def test_play_auto_places_upper_floor(monkeypatch, capsys):
    """``bN`` for an upper floor places it when its tower is unique."""
    board = Board.new(["Solo"], seed="auto0")
    # find a seed where the first roll of tUUU shows an orange upper floor
    for i in range(200):
        board = Board.new(["Solo"], seed=f"auto{i}")
        board.push_text("tUUU")
        board.push_text("r0.1.2")
        dice = [d for d in board.state.dice if d.face is not None and d.face.letter == "o"]
        if dice:
            break
    die = dice[0].id
    code, out, _ = run(["play", "--players", "Solo", "--seed", f"auto{i}"],
                       f"tUUU\nr0.1.2\nb{die}\n", monkeypatch, capsys)
    assert "unfinished [c0:o2]" in out


def test_play_bad_options(monkeypatch, capsys):
    code, out, _ = run(["play", "--players", "A", "B", "C", "D", "E", "--seed", "x"], "",
                       monkeypatch, capsys)
    assert code == 2 and "error: names" in out
    code, out, _ = run(["play", "--players", "A", "--seed", "bad seed!"], "", monkeypatch,
                       capsys)
    assert code == 2 and "error: seed" in out


def test_play_vs_bot(monkeypatch, capsys):
    """``--vs`` lets a bot play the other seats."""
    code, out, _ = run(["play", "--players", "Ada", "Bo", "--seed", "vs", "--vs", "greedy"],
                       "tGGG\nr0.1.2\nb0\ne\n", monkeypatch, capsys)
    assert code == 0 and "Bo takes" not in out and "Round 2/9 - Ada to play" in out


def test_simulate_json_solo(monkeypatch, capsys):
    code, out, err = run(["simulate", "--players", "1", "--games", "40", "--seed", "t",
                          "--json"], "", monkeypatch, capsys)
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    assert data["games"] == 40 and "win_rate" not in data
    assert set(data["levels"]) == {"project-manager", "junior-architect", "senior-architect",
                                   "principal-architect", "urban-planner", "master-planner",
                                   "urban-overseer"}
    assert 30 < data["mean"] < 65 and data["sd"] > 0
    assert data["levels"]["project-manager"] >= data["levels"]["junior-architect"]
    assert "mean score" in out and "simulating" in err
    # deterministic
    code, out2, _ = run(["simulate", "--players", "1", "--games", "40", "--seed", "t", "--json",
                         "--no-progress"], "", monkeypatch, capsys)
    again = json.loads(out2.strip().splitlines()[-1])
    data.pop("ms_per_game"), again.pop("ms_per_game")
    assert again == data


def test_simulate_json_multiplayer(monkeypatch, capsys):
    code, out, _ = run(["simulate", "--players", "3", "--games", "12", "--seed", "t", "--json",
                        "--bot", "greedy", "--bot", "beginner", "--bot", "random",
                        "--all-nine", "--no-progress"], "", monkeypatch, capsys)
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    assert len(data["win_rate"]) == 3 and sum(data["win_rate"]) == pytest.approx(1.0)
    assert data["win_rate"][0] > 0.8 and data["bots"] == ["greedy", "beginner", "random"]
    assert "shared wins count as a fraction" in out


def test_simulate_errors(monkeypatch, capsys):
    code, out, _ = run(["simulate", "--bot", "nobody", "--games", "2"], "", monkeypatch, capsys)
    assert code == 2 and "unknown bot" in out
    code, out, _ = run(["simulate", "--players", "3", "--bot", "greedy", "--bot", "random"], "",
                       monkeypatch, capsys)
    assert code == 2 and "one per seat" in out
    code, out, _ = run(["simulate", "--seed", "x" * 40], "", monkeypatch, capsys)
    assert code == 2 and "seed" in out


def test_simulate_progress_fallback_without_tqdm(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import fails
    code, out, err = run(["simulate", "--games", "5", "--seed", "f"], "", monkeypatch, capsys)
    assert code == 0 and "simulating 5/5" in err


def test_module_entry_point():
    """``python -m skyline`` works as a subprocess with piped stdin."""
    proc = subprocess.run(
        [sys.executable, "-m", "skyline", "simulate", "--games", "3", "--seed", "sp", "--json"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert json.loads(proc.stdout.strip().splitlines()[-1])["games"] == 3
    proc = subprocess.run(
        [sys.executable, "-m", "skyline", "play", "--players", "Ada", "--seed", "sp"],
        input="tGGG\nr0.1.2\nquit\n", capture_output=True, text=True, timeout=60, check=True,
    )
    assert "Ada rolls" in proc.stdout and "record: skyline1" in proc.stdout
