"""The game log's events: what each action did, as plain dicts the page translates
(:func:`describe`; :meth:`skyline.Board.log` lists them for a whole game)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Abandon, Action, Build, Demolish, EndTurn, Roll, Take, TakeDistrict
from .chance import seeded_faces
from .scoring import score
from .state import Die, GameState, Phase


def describe(before: GameState, action: Action, after: GameState) -> list[dict[str, Any]]:
    """Events caused by one action, for the game log. A build or demolition event
    carries ``score``: how it changed the player's score (:func:`score`): a build gains a
    completed building's points, less the point of a lone low-rise ground floor built on,
    or that point for a new one; a demolition loses what the building scored."""
    base = {"round": before.round, "seat": before.seat}
    events: list[dict[str, Any]] = []
    dice = {d.id: d for d in before.dice}
    if isinstance(action, Take):
        events.append({**base, "event": "take", "dice": "".join(t.letter for t in action.types)})
    elif isinstance(action, TakeDistrict):
        taken = "".join(t.letter for t in before.district)
        events.append({**base, "event": "take_district", "dice": taken})
    elif isinstance(action, Roll):
        faces = _faces_of(before, action, after)
        reroll = before.phase is Phase.CONTINUE
        events.append({**base, "event": "roll", "dice": faces, "reroll": reroll})
        if after.phase is not Phase.RESOLVE:  # nothing resolvable: the turn ended at once
            events.append({**base, "event": "stuck"})
    elif isinstance(action, Build):
        die = dice[action.die]
        face = die.face
        assert face is not None
        p_before, p_after = before.players[before.seat], after.players[before.seat]
        done = p_after.buildings[len(p_before.buildings) :]
        event = {**base, "event": "build", "die": die.type.letter + face.letter}
        if action.column is None:
            event["height"] = 1
        else:
            event["height"] = p_before.columns[action.column].height + 1
        if done:
            event["completed"] = done[0].height
            event["points"] = done[0].points
        event["score"] = score(p_after) - score(p_before)
        events.append(event)
    elif isinstance(action, Demolish):
        die = dice[action.die]
        player = before.players[before.seat]
        target = (player.buildings if action.completed else player.columns)[action.index]
        events.append(
            {
                **base,
                "event": "demolish",
                "die": die.type.letter + (die.face.letter if die.face is not None else "?"),
                "kind": target.kind.letter,
                "height": target.height,
                "completed": action.completed,
                "score": score(after.players[before.seat]) - score(player),
            }
        )
    elif isinstance(action, Abandon):
        events.append(
            {**base, "event": "abandon", "dice": " ".join(_die_text(dice[i]) for i in action.dice)}
        )
    elif isinstance(action, EndTurn):
        events.append({**base, "event": "end_turn", "returned": len(before.dice)})
    if after.phase is Phase.TAKE and (after.seat, after.round) != (before.seat, before.round):
        if after.round != before.round:
            events.append({"round": before.round, "seat": before.seat, "event": "round_end"})
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        events.append({**base, "event": "game_over", "scores": [score(p) for p in after.players]})
    return events


def _die_text(die: Die) -> str:
    return die.type.letter + (die.face.letter if die.face is not None else "?")


def _faces_of(before: GameState, action: Roll, after: GameState) -> str:
    """The faces a roll gave: read off the state after it, or recomputed from the seed
    when the turn ended at once (the dice are then back in the yard)."""
    ids = set(action.dice)
    chosen = [d for d in before.dice if d.id in ids]
    if after.phase is Phase.RESOLVE:
        by_id = {d.id: d for d in after.dice}
        return " ".join(_die_text(by_id[d.id]) for d in chosen)
    faces = seeded_faces(before, chosen)
    return " ".join(d.type.letter + f.letter for d, f in zip(chosen, faces, strict=True))


@dataclass(frozen=True)
class TurnReport:
    """What one finished turn did: its events, the points it gained, and which of the
    player's buildings it built on or completed (indices into the skyline after the
    turn), so a view can mark them.

    >>> from skyline import Board
    >>> board = Board.new(["Ann", "Bo"], "report-doc")
    >>> board.last_turn() is None  # no turn has finished yet
    True
    """

    seat: int
    round: int
    events: tuple[dict[str, Any], ...]
    points: int  # the player's score after the turn minus before it
    columns: frozenset[int]  # unfinished buildings built on (new ones included)
    tiles: frozenset[int]  # buildings the turn completed


def _shift_out(marked: set[int], index: int) -> set[int]:
    """Marks after the item at ``index`` was removed from their list."""
    return {j if j < index else j - 1 for j in marked if j != index}


def _turn_start(states: Sequence[GameState], end: int) -> int:
    """The index of the first state of the turn that ``states[end - 1]`` belongs to."""
    turn = (states[end - 1].round, states[end - 1].seat)
    first = end - 1
    while first > 0 and (states[first - 1].round, states[first - 1].seat) == turn:
        first -= 1
    return first


def _finished_turns(states: Sequence[GameState]) -> Iterator[tuple[int, int]]:
    """The finished turns, newest first, as ``(first, end)``: ``states[first]`` starts
    the turn, ``states[end]`` is the first state after it. None once the game is over."""
    if states[-1].phase is Phase.OVER:
        return
    end = _turn_start(states, len(states))  # the turn now being played is not finished
    while end > 0:
        first = _turn_start(states, end)
        yield first, end
        end = first


def _report(states: Sequence[GameState], actions: Sequence[Action], first: int,
            end: int) -> TurnReport:
    """What the actions from ``states[first]`` to ``states[end]`` (one turn) did."""
    seat = states[first].seat
    columns: set[int] = set()
    tiles: set[int] = set()
    events: list[dict[str, Any]] = []
    for k in range(first, end):
        before, action, after = states[k], actions[k], states[k + 1]
        events.extend(describe(before, action, after))
        if isinstance(action, Build):
            p_before, p_after = before.players[seat], after.players[seat]
            if len(p_after.buildings) > len(p_before.buildings):  # completed: a tile now
                assert action.column is not None
                columns = _shift_out(columns, action.column)
                tiles.add(len(p_after.buildings) - 1)
            elif action.column is None:
                columns.add(len(p_after.columns) - 1)
            else:
                columns.add(action.column)
        elif isinstance(action, Demolish):
            if action.completed:
                tiles = _shift_out(tiles, action.index)
            else:
                columns = _shift_out(columns, action.index)
    points = score(states[end].players[seat]) - score(states[first].players[seat])
    return TurnReport(seat, states[first].round, tuple(events), points, frozenset(columns),
                      frozenset(tiles))


def last_turn_report(
    states: Sequence[GameState], actions: Sequence[Action]
) -> TurnReport | None:
    """The latest finished turn of a game (``states[i + 1]`` is ``actions[i]`` applied to
    ``states[i]``), or None before the first turn has ended and once the game is over."""
    for first, end in _finished_turns(states):
        return _report(states, actions, first, end)
    return None


def turns_since_report(
    states: Sequence[GameState], actions: Sequence[Action], seat: int
) -> tuple[TurnReport, ...]:
    """The finished turns of the other seats since ``seat``'s latest finished turn (since
    the game began if it has none), oldest first: one per rival at most, as seats take
    turns in order. Each report's marks still hold: no turn of another seat changes a
    player's skyline. Empty once the game is over."""
    reports = []
    for first, end in _finished_turns(states):
        if states[first].seat == seat:
            break
        reports.append(_report(states, actions, first, end))
    return tuple(reversed(reports))
