"""Whether each game command may run now, and why not: one rule per command, a function of
the page state and the board that gives None (allowed) or the reason it is not (a
string-table key). The turn view greys its controls and explains them from these rules
(``app.turn.view``), the controller refuses from the same ones (``Controller.refusal``),
and the handlers (``app.turn.play``) do not decide again.

The turn panel's commands (``TURN_COMMANDS``) show their reason beside the panel; the
yard, the district, the dice and the choice's targets are only greyed, so their
reasons other than whose turn it is are :data:`NOT_NOW` (never shown).

Two states of the whole page are not a rule's business: after a crash the page says so
in its own notice, and an open dialog covers the board; the controller refuses game
commands in both before any rule is asked (its guards, ``app.core.commands.Guard``).
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.commands import TURN_COMMANDS, Cmd, Rule
from app.core.page_state import DemolishChoice, PageState
from app.core.whose_turn import computer_turn, friend_turn, live_waiting
from skyline import Abandon, Board, Build, Demolish, EndTurn, Phase, Roll, Take, plan_build
from skyline.rules import can_take_district

#: The reason of a greyed control that shows no reason (the yard outside the take phase,
#: the dice before the roll...): never shown, never translated.
NOT_NOW = "not-now"


def panel(page: PageState, board: Board) -> dict[Cmd, str | None]:
    """The turn panel's commands (``TURN_COMMANDS``): each one's reason it may not run
    now (a ``why.*`` key), or None, from the page state and the engine's legal actions."""
    state = board.state
    phase = state.phase
    blocked = None
    if page.replay is not None:
        blocked = "why.replay"
    elif page.readonly and phase is not Phase.OVER:
        blocked = "why.readonly"  # "Play here" moves the game to this tab
    elif computer_turn(page, board):
        blocked = "why.computer"
    elif page.playback is not None:
        blocked = "why.playback"
    elif friend_turn(page, board):
        blocked = "why.friend"
    elif live_waiting(page, board):
        blocked = "why.live_sync"
    elif phase is Phase.OVER:
        blocked = "why.over"
    elif page.choice is not None:
        blocked = "why.choosing"
    if blocked is not None:
        return dict.fromkeys(TURN_COMMANDS, blocked)
    out: dict[Cmd, str | None] = {}
    undo_ok = bool(page.takes and phase is Phase.TAKE) or board.can_undo()
    out[Cmd.UNDO] = None if undo_ok else (
        "why.committed" if board.actions else "why.nothing_to_undo")
    if phase is Phase.TAKE:
        # solo has no abandoned district to take
        take_first = "why.take_first_solo" if state.solo else "why.take_first"
        return out | dict.fromkeys((Cmd.ROLL, Cmd.BUILD, Cmd.ABANDON, Cmd.DEMOLISH, Cmd.END),
                                   take_first)
    if phase is Phase.ROLL:
        return out | {Cmd.ROLL: None} | dict.fromkeys(
            (Cmd.BUILD, Cmd.ABANDON, Cmd.DEMOLISH, Cmd.END), "why.roll_first")
    kinds = {type(a) for a in board.legal_actions()}
    sel = tuple(sorted(page.selected & {d.id for d in state.dice}))
    cannot = "why.cannot_build" if Build in kinds else "why.nothing_buildable"
    if not sel:
        out |= dict.fromkeys((Cmd.BUILD, Cmd.ABANDON, Cmd.DEMOLISH), "why.select")
        if Build not in kinds:
            out[Cmd.BUILD] = cannot
    else:
        out[Cmd.BUILD] = None if plan_build(state, sel).feasible else cannot
        out[Cmd.ABANDON] = None if Abandon in kinds else "why.no_abandon_solo"
        out[Cmd.DEMOLISH] = None if Demolish in kinds else "why.no_buildings"
    if phase is Phase.RESOLVE:
        out[Cmd.ROLL] = out[Cmd.END] = "why.resolve_first"
    else:
        out[Cmd.ROLL] = None if sel and Roll in kinds else "why.select_reroll"
        out[Cmd.END] = None if EndTurn in kinds else "why.resolve_first"
    return out


def not_yours(page: PageState, board: Board) -> str | None:
    """Why the player here may not touch the game now: a replay, another tab has it, or
    the seat to move is not a person here."""
    seat = page.seat_kind(board.state.seat)
    if page.replay is not None:
        return "why.replay"
    if page.readonly:
        return "why.readonly"
    if page.live is not None and board.state.phase is not Phase.OVER:
        if friend_turn(page, board):
            return "why.computer" if seat.is_computer else "why.friend"
        return "why.live_sync" if live_waiting(page, board) else None
    if seat.is_computer:
        return "why.computer"
    if seat.is_friend:
        return "why.friend"
    return None


def _own_move(allowed: Callable[[PageState, Board], bool]) -> Rule:
    """A rule for a control of the player to move: :func:`not_yours`, then ``allowed``."""
    def rule(page: PageState, board: Board, arg: str | None = None) -> str | None:
        return not_yours(page, board) or (None if allowed(page, board) else NOT_NOW)
    return rule


def _take(page: PageState, board: Board) -> bool:
    """A die type of the yard: in the take phase, up to three picks."""
    return board.state.phase is Phase.TAKE and page.choice is None and len(page.takes) < 3


def _district(page: PageState, board: Board) -> bool:
    """The abandoned district, when the rules let it be taken (``skyline.rules``)."""
    return can_take_district(board.state) and page.choice is None


def _put_back(page: PageState, board: Board) -> bool:
    """A yard pick of this turn: before the take, or the take just made (before its roll)."""
    state = board.state
    last = board.actions[-1] if board.actions else None
    return ((state.phase is Phase.TAKE and bool(page.takes))
            or (state.phase is Phase.ROLL and isinstance(last, Take)))


def _die(page: PageState, board: Board) -> bool:
    """A rolled die, selected or not, when no tower or demolition is being chosen."""
    return board.state.phase in (Phase.RESOLVE, Phase.CONTINUE) and page.choice is None


def _panel_rule(name: Cmd) -> Rule:
    def rule(page: PageState, board: Board, arg: str | None = None) -> str | None:
        return panel(page, board)[name]
    return rule


#: Every game command's rule (the commands guarded by ``Guard.GAME``).
RULES: dict[Cmd, Rule] = {
    **{name: _panel_rule(name) for name in TURN_COMMANDS},
    Cmd.TAKE: _own_move(_take),
    Cmd.UNTAKE: _own_move(_put_back),
    Cmd.DISTRICT: _own_move(_district),
    Cmd.DIE: _own_move(_die),
    Cmd.CANCEL: _own_move(lambda page, board: page.choice is not None),
    Cmd.COLUMN: _own_move(lambda page, board: page.choice is not None),
    Cmd.TILE: _own_move(lambda page, board: isinstance(page.choice, DemolishChoice)),
}
