"""Command line: ``python -m skyline play`` and ``python -m skyline simulate``.

``play`` runs a game in the terminal (hot seat; ``--vs BOT`` lets a bot play every
seat but the first). Actions are typed in the record notation::

    tGGU    take ground, ground, upper dice from the yard     tD      take the district
    r0.1.2  roll dice 0, 1 and 2                               e       end the turn
    b0      build die 0 (a ground floor; an upper floor or penthouse is placed
            automatically when its tower is unique or equivalent)
    b1@0    build die 1 on unfinished building 0
    x2@c0   demolish unfinished building 0 with die 2   x2@b1  ... completed building 1
    a0.1    abandon dice 0 and 1 to the district

plus ``help`` (the legal actions, explained), ``undo``, ``record`` and ``quit``.

``simulate`` plays seeded games between bots and prints statistics; with
``--json`` the last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from .players.registry import DEFAULT_BOT, BotError, available_bots, get_bot
from .rules import (
    MAX_PLAYERS,
    SCENARIOS,
    SEED_PATTERN,
    SOLO_LEVELS,
    Abandon,
    Action,
    Board,
    Build,
    Demolish,
    Die,
    DieType,
    EndTurn,
    Face,
    GameState,
    IllegalActionError,
    Options,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    game_summary,
    new_game,
    parse_action,
    ranking,
    scenario_met,
    score,
    validate_options,
)

TYPE_NAMES = {DieType.GROUND: "ground", DieType.UPPER: "upper", DieType.PENTHOUSE: "penthouse"}
KIND_NAMES: dict[Face | None, str] = {
    Face.PURPLE: "low-rise", Face.BLUE: "mid-rise", Face.ORANGE: "high-rise"
}


# --------------------------------------------------------------------------- text helpers


def die_text(die: Die) -> str:
    return die.type.letter + ("?" if die.face is None else die.face.letter)


def describe_action(state: GameState, action: Action) -> str:
    """A short explanation of a legal action, for ``help``."""
    dice = {d.id: d for d in state.dice}
    player = state.player
    if isinstance(action, Take):
        return "take " + ", ".join(TYPE_NAMES[t] for t in action.types) + " from the yard"
    if isinstance(action, TakeDistrict):
        return "take the abandoned district (" + "".join(t.letter for t in state.district) + ")"
    if isinstance(action, Roll):
        what = ", ".join(f"{i} ({die_text(dice[i])})" for i in action.dice)
        return ("roll " if state.phase is Phase.ROLL else "reroll ") + what
    if isinstance(action, Build):
        die = dice[action.die]
        if action.column is None:
            kind = KIND_NAMES[die.face]
            return f"build die {action.die} ({die_text(die)}) as a new {kind}"
        column = player.columns[action.column]
        finish = die.type is DieType.PENTHOUSE or die.face is Face.PURPLE
        result = f"completes it, {(column.height + 1) ** 2} points" if finish else "goes up"
        return (
            f"build die {action.die} ({die_text(die)}) on unfinished {column.kind.letter}"
            f"{column.height} (#{action.column}): {result}"
        )
    if isinstance(action, Demolish):
        die = dice[action.die]
        if action.completed:
            b = player.buildings[action.index]
            target = f"completed {b.kind.letter}{b.height} (#{action.index}, {b.points} points)"
        else:
            c = player.columns[action.index]
            target = f"unfinished {c.kind.letter}{c.height} (#{action.index})"
        return f"demolish {target} with die {action.die} ({die_text(die)})"
    if isinstance(action, Abandon):
        what = ", ".join(f"{i} ({die_text(dice[i])})" for i in action.dice)
        return "abandon " + what + " to the district"
    if isinstance(action, EndTurn):
        return "end the turn" + (" (remaining dice go back to the yard)" if state.dice else "")
    return str(action)


def render(state: GameState) -> str:
    """The state, readably: round, active player, dice, every skyline and score."""
    lines = []
    if state.phase is Phase.OVER:
        lines.append(f"Game over after round {state.round}.")
    else:
        lines.append(
            f"Round {state.round}/9 - {state.player.name} to play ({state.phase.name.lower()})"
        )
    if state.dice:
        lines.append("  dice: " + "  ".join(f"{d.id}:{die_text(d)}" for d in state.dice))
    if not state.solo:
        lines.append("  district: " + ("".join(t.letter for t in state.district) or "-"))
    for seat, player in enumerate(state.players):
        marks = ("*" if seat == state.start_seat else " ") + (
            ">" if seat == state.seat and state.phase is not Phase.OVER else " "
        )
        columns = " ".join(f"c{i}:{c.kind.letter}{c.height}" for i, c in enumerate(player.columns))
        done = " ".join(
            f"b{i}:{b.kind.letter}{b.height}" for i, b in enumerate(player.buildings)
        )
        lines.append(
            f" {marks}{player.name:<12} {score(player):>3} pts  unfinished [{columns}]"
            f"  completed [{done}]"
        )
    return "\n".join(lines)


#: Log lines of the events that read their fields as they are (``who``: the seat's name).
_EVENT_LINES = {
    "take": "{who} takes {dice}",
    "take_district": "{who} takes the district ({dice})",
    "stuck": "{who} cannot resolve any die: the turn ends (stuck)",
    "abandon": "{who} abandons {dice}",
    "end_turn": "{who} ends the turn ({returned} dice back to the yard)",
    "round_end": "-- end of round {round} --",
}


def event_text(event: dict[str, Any], names: Sequence[str]) -> str:
    who = names[event["seat"]]
    kind = event["event"]
    line = _EVENT_LINES.get(kind)
    if line is not None:
        return line.format_map({**event, "who": who})
    if kind == "roll":
        return f"{who} {'rerolls' if event['reroll'] else 'rolls'}: {event['dice']}"
    if kind == "build":
        extra = f", completes {event['completed']} high (+{event['points']})" if (
            "completed" in event) else ""
        return f"{who} builds {event['die']} at height {event['height']}{extra}"
    if kind == "demolish":
        state = "completed" if event["completed"] else "unfinished"
        return f"{who} demolishes a {state} {event['kind']}{event['height']} with {event['die']}"
    if kind == "game_over":
        return "game over, scores " + ", ".join(str(s) for s in event["scores"])
    return str(event)


def summary_text(state: GameState) -> str:
    s = game_summary(state)
    lines = []
    for row in s.players:
        final = " ".join(f"{b.kind.letter}{b.height}" for b in row.final) or "-"
        lines.append(
            f"  #{row.rank} {row.name}: {row.score} points, {row.completed} buildings"
            f" [{final}]"
        )
    if len(s.winners) > 1:
        lines.append("  Shared win: " + ", ".join(state.players[i].name for i in s.winners))
    if s.solo:
        lines.append(f"  Level: {s.level or 'none (below 40)'}")
        if s.scenario:
            lines.append(f"  Scenario {s.scenario}: {'met' if s.scenario_met else 'missed'}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- play


HELP_TEXT = """Commands: an action in notation, or help, undo, record, quit.
  tGGU take 3 yard dice (G ground, U upper, P penthouse)   tD take the district
  r0.1.2 roll/reroll dice   b0 build die 0   b1@0 build die 1 on unfinished #0
  x2@c0 / x2@b1 demolish unfinished #0 / completed #1 with die 2   a0.1 abandon   e end turn"""


def _push_build(board: Board, die: int, out: TextIO) -> None:
    """``bN`` for an upper floor or penthouse: place it if its tower is unique."""
    plan = board.plan_build([die])
    if not plan.feasible:
        board.push(Build(die, None))  # let the engine say why
        return
    if plan.choice_die is not None:
        state = board.state
        options = ", ".join(
            f"b{die}@{i} ({state.player.columns[i].kind.letter}{state.player.columns[i].height})"
            for i in plan.choices
            if i is not None
        )
        out.write(f"choose a tower: {options}\n")
        return
    board.build_selection([die])


def play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    names = tuple(args.players or ["Player"])
    try:
        board = Board.new(names, args.seed, args.start, args.all_nine, args.scenario)
    except ValueError as exc:
        out.write(f"error: {exc}\n")
        return 2
    bot = get_bot(args.vs) if args.vs else None
    rng = random.Random(args.seed)
    shown_events = 0

    def flush_events() -> None:
        nonlocal shown_events
        events = board.log()
        for event in events[shown_events:]:
            if event["event"] not in ("take",):
                out.write("  " + event_text(event, names) + "\n")
        shown_events = len(events)

    out.write(f"Skyline - seed {board.options.seed}. Type help for the legal actions.\n")
    last_shown = None
    while True:
        state = board.state
        if state.phase is Phase.OVER:
            flush_events()
            out.write(render(state) + "\n" + summary_text(state) + "\n")
            out.write("record: " + board.record() + "\n")
            return 0
        if bot is not None and state.seat != 0:
            board.push(bot(state, rng))
            continue
        flush_events()
        if state != last_shown:
            out.write(render(state) + "\n")
            last_shown = state
        out.write(f"{state.player.name}> ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return 0
        command = line.strip()
        if not command:
            continue
        if command in ("quit", "q", "exit"):
            out.write("record: " + board.record() + "\n")
            return 0
        if command in ("help", "?", "h"):
            out.write(HELP_TEXT + "\nLegal now:\n")
            for action in board.legal_actions():
                out.write(f"  {str(action):<10} {describe_action(state, action)}\n")
            continue
        if command == "undo":
            try:
                undone = board.pop()
            except IllegalActionError as exc:
                out.write(f"cannot undo: {exc}\n")
            else:
                shown_events = len(board.log())
                out.write(f"undone: {undone}\n")
            continue
        if command == "record":
            out.write(board.record() + "\n")
            continue
        try:
            action = parse_action(command)
            if (
                isinstance(action, Build)
                and action.column is None
                and any(d.id == action.die and d.type is not DieType.GROUND for d in state.dice)
            ):
                _push_build(board, action.die, out)
            else:
                board.push(action)
        except ValueError as exc:  # IllegalActionError is a ValueError too
            out.write(f"illegal: {exc}\n")


# --------------------------------------------------------------------------- simulate


def play_bot_game(options: Options, bots: Sequence[str], rng_seed: str) -> GameState:
    """One game with ``bots[seat]`` playing each seat; deterministic for its seeds."""
    state = new_game(options)
    players = [get_bot(name) for name in bots]
    rngs = [random.Random(f"{rng_seed}/{seat}") for seat in range(len(players))]
    while state.phase is not Phase.OVER:
        seat = state.seat
        state = apply_action(state, players[seat](state, rngs[seat]))
    return state


def _progress(total: int, enabled: bool) -> Iterator[int]:
    if not enabled:
        yield from range(total)
        return
    try:
        from tqdm import tqdm
    except ImportError:  # the simple fallback
        step = max(1, total // 50)
        for i in range(total):
            if i % step == 0:
                sys.stderr.write(f"\rsimulating {i}/{total}")
                sys.stderr.flush()
            yield i
        sys.stderr.write(f"\rsimulating {total}/{total}\n")
        return
    yield from tqdm(range(total), desc="simulating", unit="game", file=sys.stderr)


def simulate(
    players: int,
    games: int,
    seed: str,
    bots: Sequence[str],
    all_nine: bool = False,
    progress: bool = False,
    scenario: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded games; return the statistics (see ``simulate --json``).

    Game ``i`` uses the seed ``f"{seed}-{i}"`` and seat 0 as start player. Shared wins
    count as a fraction: a win shared by k players gives each 1/k. With a solo
    ``scenario`` the result adds the success rate and its standard error.
    """
    names = tuple(f"{bots[s]}{s}"[:24] for s in range(players))
    scores: list[int] = []
    seat_scores: list[list[int]] = [[] for _ in range(players)]
    wins = [0.0] * players
    met = 0
    start = time.perf_counter()
    for i in _progress(games, progress):
        game_seed = f"{seed}-{i}"
        state = play_bot_game(Options(names, game_seed, 0, all_nine, scenario), bots, game_seed)
        if scenario is not None:
            met += scenario_met(scenario, state.players[0])
        ranks = ranking(state)
        winners = ranks.count(1)
        for seat, player in enumerate(state.players):
            points = score(player)
            scores.append(points)
            seat_scores[seat].append(points)
            if ranks[seat] == 1:
                wins[seat] += 1 / winners
    elapsed = time.perf_counter() - start
    result: dict[str, Any] = {
        "games": games,
        "players": players,
        "bots": list(bots),
        "all_nine": all_nine,
        "seed": seed,
        "mean": statistics.fmean(scores),
        "sd": statistics.stdev(scores) if len(scores) > 1 else 0.0,
        "mean_se": (statistics.stdev(scores) / len(scores) ** 0.5) if len(scores) > 1 else 0.0,
        "levels": {
            title: sum(1 for s in scores if s >= threshold) / len(scores)
            for threshold, title in reversed(SOLO_LEVELS)
        },
        "ms_per_game": 1000 * elapsed / games,
    }
    if scenario is not None:
        rate = met / games
        result["scenario"] = scenario
        result["success_rate"] = rate
        result["success_se"] = (rate * (1 - rate) / games) ** 0.5
    if players > 1:
        result["win_rate"] = [w / games for w in wins]
        result["seat_mean"] = [statistics.fmean(s) for s in seat_scores]
        result["shared_wins"] = "fraction"
    return result


def simulate_text(result: dict[str, Any]) -> str:
    lines = [
        f"{result['games']} games, {result['players']} player(s), bots {', '.join(result['bots'])}"
        f"{', all nine rounds' if result['all_nine'] else ''}, seed {result['seed']}",
        f"mean score {result['mean']:.2f}, sd {result['sd']:.2f}"
        f" ({result['ms_per_game']:.1f} ms per game)",
    ]
    if result.get("scenario"):
        lines.append(
            f"scenario {result['scenario']}: met in {result['success_rate']:.2%} of games"
            f" (standard error {result['success_se']:.2%})"
        )
    scope = "games" if result["players"] == 1 else "seat scores"
    thresholds = dict((title, points) for points, title in SOLO_LEVELS)
    lines.append(f"share of {scope} reaching each solo level:")
    for title, share in result["levels"].items():
        lines.append(f"  {thresholds[title]:>3} {title:<20} {share:6.1%}")
    if result["players"] > 1:
        lines.append("win rate per seat (shared wins count as a fraction 1/k):")
        for seat, (rate, mean) in enumerate(zip(result["win_rate"], result["seat_mean"],
                                                strict=True)):
            lines.append(f"  seat {seat}{' *' if seat == 0 else '  '} {rate:6.1%}  mean {mean:.2f}")
    return "\n".join(lines)


def run_simulate(args: argparse.Namespace, out: TextIO) -> int:
    bots = args.bot or [DEFAULT_BOT]
    if len(bots) not in (1, args.players):
        out.write(f"error: bot: give one bot or one per seat ({args.players})\n")
        return 2
    if len(bots) == 1:
        bots = bots * args.players
    for name in bots:
        try:
            get_bot(name)
        except BotError as exc:
            out.write(f"error: {exc}\n")
            return 2
    if args.games < 1:
        out.write("error: games: expected at least 1\n")
        return 2
    probe = f"{args.seed}-{args.games - 1}"
    if not SEED_PATTERN.fullmatch(probe):
        out.write("error: seed: expected up to 25 letters, digits, '-' or '_'\n")
        return 2
    try:
        validate_options(
            Options(tuple("abcd")[: args.players], probe, 0, args.all_nine, args.scenario)
        )
    except ValueError as exc:
        out.write(f"error: {exc}\n")
        return 2
    result = simulate(
        args.players, args.games, args.seed, bots, args.all_nine, progress=not args.no_progress,
        scenario=args.scenario,
    )
    out.write(simulate_text(result) + "\n")
    if args.json:
        out.write(json.dumps(result, separators=(",", ":")) + "\n")
    return 0


# --------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skyline", description="Skyline dice game")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("--players", nargs="+", metavar="NAME", help="1 to 4 player names")
    p.add_argument("--seed", default=None, help="game seed (letters, digits, - and _)")
    p.add_argument("--start", type=int, default=0, help="start seat (default 0)")
    p.add_argument("--all-nine", action="store_true", help="always play nine rounds")
    p.add_argument("--scenario", choices=SCENARIOS, help="solo scenario")
    p.add_argument("--vs", choices=available_bots(), help="a bot plays every seat but the first")
    s = sub.add_parser("simulate", help="play seeded games between bots, print statistics")
    s.add_argument("--players", type=int, default=1, choices=range(1, MAX_PLAYERS + 1))
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seed", default="sim")
    s.add_argument("--all-nine", action="store_true")
    s.add_argument("--scenario", choices=SCENARIOS, help="solo scenario (--players 1)")
    s.add_argument(
        "--bot", action="append", help=f"bot name (default {DEFAULT_BOT}); repeat to set each seat"
    )
    s.add_argument("--json", action="store_true", help="last stdout line: the statistics as JSON")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    args = build_parser().parse_args(None if argv is None else list(argv))
    if args.command == "play":
        if args.seed is None:
            args.seed = f"{random.SystemRandom().getrandbits(48):012x}"
        return play(args, sys.stdin, sys.stdout)
    return run_simulate(args, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
