#!/usr/bin/env python3
"""Length of game links (``skyline.records.game_links.make_game_link``), measured.

Plays seeded bot games and measures the fragment a player would send (what follows
``#``; the page adds its own address in front). The issue's aim: a 2-player game
at the end of round 9 fits a chat message, at most 1,500 characters.

Measured per configuration over ``--games`` seeded games (min / mean / max):

* 2 players, standard game, at its end (round 9, or earlier after a 6-high building);
* 2 players, "all nine rounds", at the end of round 9 (the longest 2-player records);
* 4 players, "all nine rounds", at the end of round 9 (the longest records there are).

Random-legal players make far longer records than people (they reroll a lot), so
they are measured too, as a worst case. The last line is one JSON object.

    python scripts/game_link_length.py             # 200 games per configuration
    python scripts/game_link_length.py --games 50
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline import Board, Options
from skyline.players.bots import get_bot
from skyline.records.game_links import make_game_link, parse_game_link

CONFIGS = (
    ("2p standard, expert vs greedy", 2, False, "expert,greedy"),
    ("2p standard, greedy vs greedy", 2, False, "greedy"),
    ("2p all nine, greedy vs greedy", 2, True, "greedy"),
    ("2p all nine, random vs random", 2, True, "random"),
    ("4p all nine, greedy x4", 4, True, "greedy"),
    ("4p all nine, random x4", 4, True, "random"),
)


def play(players: int, all_nine: bool, bot_name: str, index: int) -> Board:
    names = ("Ann", "Bo", "Chiara", "Dimitri")[:players]
    board = Board(Options(names, f"len{index}x{players}", None, all_nine))
    levels = bot_name.split(",")
    bots = [get_bot(levels[seat % len(levels)]) for seat in range(players)]
    rng = random.Random(f"len/{index}/{players}/{bot_name}")
    while not board.is_game_over():
        board.push(bots[board.state.seat](board.state, rng))
    return board


def measure(players: int, all_nine: bool, bot_name: str, games: int) -> dict:
    lengths = []
    actions = []
    for index in range(games):
        board = play(players, all_nine, bot_name, index)
        seats = ("here",) + ("friend",) * (players - 1)
        link = make_game_link(board, seats, nonce="k3Xq9a")
        assert parse_game_link(link).board.state == board.state  # the link gives the game
        lengths.append(len(link))
        actions.append(len(board.actions))
    return {
        "games": games,
        "chars_min": min(lengths),
        "chars_mean": round(statistics.fmean(lengths), 1),
        "chars_max": max(lengths),
        "actions_mean": round(statistics.fmean(actions), 1),
        "within_1500": sum(length <= 1500 for length in lengths),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    args = parser.parse_args(argv)
    results = {}
    print("Game link length in characters (the fragment after '#'), min / mean / max")
    for label, players, all_nine, bot_name in CONFIGS:
        figures = measure(players, all_nine, bot_name, args.games)
        results[label] = figures
        print(f"  {label:<32} {figures['chars_min']:>5} / {figures['chars_mean']:>7} / "
              f"{figures['chars_max']:>5}   ({figures['actions_mean']} actions on average, "
              f"{figures['within_1500']}/{figures['games']} within 1,500)")
    print(json.dumps(results, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
