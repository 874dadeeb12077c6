"""The game log's events: what each action did, as plain dicts the page translates
(:func:`describe`; :meth:`skyline.Board.log` lists them for a whole game)."""

from __future__ import annotations

from typing import Any

from .actions import Abandon, Action, Build, Demolish, EndTurn, Roll, Take, TakeDistrict
from .chance import seeded_faces
from .scoring import score
from .state import Die, GameState, Phase


def describe(before: GameState, action: Action, after: GameState) -> list[dict[str, Any]]:
    """Events caused by one action, for the game log."""
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
