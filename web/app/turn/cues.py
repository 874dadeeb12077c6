"""The cues of one engine action (``app.core.cues``): which elements of the page the
action moved, built, completed or demolished, read from the states before and after
it. Every action goes through here, a person's click or a computer's step alike."""

from __future__ import annotations

from collections.abc import Callable

from app.core import cues
from app.core.cues import Cue, CueKind
from skyline import (
    Abandon,
    Action,
    Build,
    Demolish,
    GameState,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    ranking,
    score,
)


def action_cues(before: GameState, action: Action, after: GameState,
                here: Callable[[int], bool]) -> list[Cue]:
    """What ``action`` did, as cues; ``here(seat)``: a person on this device plays it."""
    seat = before.seat
    out = _action(before, action, after, seat, here(seat))
    if after.phase is Phase.OVER:
        if before.phase is not Phase.OVER:
            out += _end(after)
    elif (after.seat != seat and here(after.seat) and len(after.players) > 1):
        out.append(Cue(CueKind.YOUR_TURN, targets=(cues.player(after.seat),)))
    return out


def pick_cue(type_letter: str, picks: int) -> Cue:
    """A die picked in the yard before the third: it flies to its tray slot."""
    return Cue(CueKind.TAKE, targets=(cues.TRAY_SLOT.format(n=picks),),
               sources=(cues.YARD_ROW.format(type=type_letter),))


def last_pick_cue(after: GameState, type_letter: str) -> Cue | None:
    """The third pick, which took the dice: it flies to its die in the tray."""
    dice = [d for d in after.dice if d.type.letter == type_letter]
    if not dice:
        return None
    return Cue(CueKind.TAKE, targets=(cues.die(dice[-1].id),),
               sources=(cues.YARD_ROW.format(type=type_letter),))


def _action(before: GameState, action: Action, after: GameState, seat: int,
            by_hand: bool) -> list[Cue]:
    if isinstance(action, Take):
        # a person's picks fly one by one as they are picked (pick_cue, last_pick_cue);
        # a computer's three at once
        if by_hand:
            return []
        dice = after.dice
        return [Cue(CueKind.TAKE, targets=tuple(cues.die(d.id) for d in dice),
                    sources=tuple(cues.YARD_ROW.format(type=d.type.letter) for d in dice))]
    if isinstance(action, TakeDistrict):
        ids = [d.id for d in after.dice]
        return [Cue(CueKind.TAKE, targets=tuple(map(cues.die, ids)),
                    sources=(cues.DISTRICT,) * len(ids))]
    if isinstance(action, Roll):
        # nothing usable: the engine ended the turn and the dice are gone (it sounds)
        shown = {d.id for d in after.dice} if after.seat == seat else set()
        return [Cue(CueKind.ROLL, targets=tuple(cues.die(i) for i in action.dice if i in shown))]
    if isinstance(action, Build):
        return [_build(before, action, after, seat)]
    if isinstance(action, Demolish):
        kind = "tile" if action.completed else "col"
        lost = score(after.players[seat]) - score(before.players[seat])
        return [Cue(CueKind.DEMOLISH, sources=(cues.lot(kind, seat, action.index),),
                    points=lost or None)]
    if isinstance(action, Abandon):
        return [Cue(CueKind.ABANDON, sources=tuple(map(cues.die, action.dice)),
                    targets=(cues.DISTRICT,))]
    return []


def _build(before: GameState, action: Build, after: GameState, seat: int) -> Cue:
    was, now = before.players[seat], after.players[seat]
    if len(now.buildings) > len(was.buildings):
        done = now.buildings[-1]
        source = () if action.column is None else (cues.lot("col", seat, action.column),)
        return Cue(CueKind.COMPLETE, targets=(cues.lot("tile", seat, len(now.buildings) - 1),),
                   sources=source, points=done.points)
    index = len(now.columns) - 1 if action.column is None else action.column
    return Cue(CueKind.FLOOR, targets=(cues.lot("col", seat, index),))


def _end(after: GameState) -> list[Cue]:
    """The ranking revealed from the last place up, then the winners' skylines."""
    ranks = ranking(after)
    order = sorted(range(len(ranks)), key=lambda s: (-ranks[s], -s))
    winners = tuple(cues.player(s) for s, r in enumerate(ranks) if r == 1)
    return [Cue(CueKind.END, targets=tuple(map(cues.score_row, order))),
            Cue(CueKind.WIN, targets=winners)]
