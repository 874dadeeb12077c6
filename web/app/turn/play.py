"""Turn commands: a click becomes an engine action, pushed on the board; the yard picks
not yet pushed, the selected dice and a pending tower or demolition choice are page
state (``page_state``). Every rule (legality, build plans, undo limits) is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.commands import Cmd, Command, Guard, number_arg, plain
from app.core.events import Emit, TurnToFriend
from app.core.page_state import DemolishChoice, Level
from app.core.session import Session
from app.turn.cues import action_cues, last_pick_cue, pick_cue
from app.turn.rules import RULES
from app.turn.state import BuildChoice
from app.turn.view import build_choice_for
from skyline import (
    Abandon,
    Action,
    Build,
    Demolish,
    DieType,
    EndTurn,
    GameState,
    IllegalActionError,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    describe,
    has_demolition_target,
)


class Play:
    """The turn commands of the player to move on this device."""

    def __init__(self, session: Session, emit: Emit) -> None:
        self.s = session
        self.emit = emit

    def commands(self) -> dict[Cmd, Command]:
        """The turn's commands: each refused by its rule (``app.turn.rules``) before it
        runs, so the handlers below only check their argument."""
        game = Guard.GAME
        numbered: dict[Cmd, Callable[[int], object]] = {
            Cmd.TAKE: self.take, Cmd.UNTAKE: self.put_back, Cmd.DIE: self.toggle,
            Cmd.COLUMN: self.choose_column, Cmd.TILE: self.choose_tile,
        }
        bare: dict[Cmd, Callable[[], object]] = {
            Cmd.DISTRICT: self.take_district, Cmd.ROLL: self.roll, Cmd.BUILD: self.build,
            Cmd.DEMOLISH: self.demolish, Cmd.ABANDON: self.abandon, Cmd.END: self.end_turn,
            Cmd.UNDO: self.undo, Cmd.CANCEL: self.cancel,
        }
        return ({name: number_arg(handler, game, rule=RULES[name])
                 for name, handler in numbered.items()}
                | {name: plain(handler, game, rule=RULES[name]) for name, handler in bare.items()})

    # ------------------------------------------------------------------ pushing actions

    def dispatch(self, action: Action) -> bool:
        """Push one engine action; on an illegal one show the translated reason.
        Refused while another tab has the game or after a crash (see Controller)."""
        s = self.s
        if s.page.readonly or s.page.crashed or s.board is None:
            return False
        s.page.playback = None  # a move shows the game as it is
        before = s.board.state
        try:
            s.board.push(action)
        except IllegalActionError as exc:
            s.notify("notice.illegal", Level.ERROR, reason=s.error(exc))
            return False
        self.after(action, before)
        return True

    def after(self, action: Action, before: GameState, describe_log: bool = True) -> None:
        s = self.s
        page = s.page
        state = s.game.state
        s.log_version += 1
        page.cues += action_cues(before, action, state, lambda seat: page.seat_kind(seat).is_here)
        if describe_log:
            events = describe(before, action, state)
            s.narrate(events, before)
            if s.log is not None:
                s.log.append(events)
        else:
            s.log = None
        page.rolled = tuple(action.dice) if isinstance(action, Roll) else ()
        if isinstance(action, Roll):
            page.selected = set()
            s.selection.auto_select()
        elif isinstance(action, Build | Demolish):
            page.selected.discard(action.die)
        elif isinstance(action, Abandon):
            page.selected -= set(action.dice)
        else:
            page.selected = set()
        page.selected &= {d.id for d in state.dice}
        if (state.seat, state.round) != (before.seat, before.round) or state.phase is Phase.OVER:
            page.takes = []
            page.choice = None
            if isinstance(action, Roll):  # nothing could be used: the engine ended the turn
                s.notify("notice.stuck", Level.WARN, name=before.players[before.seat].name,
                         seat=before.seat)
        self.fault_point("action")
        s.save()
        self.s.selection.keep()
        if state.phase is Phase.OVER:
            s.record_result()
        if page.friend_seats and page.dialog is None and page.live is None and (
            (state.phase is Phase.OVER and before.phase is not Phase.OVER)
            or (state.phase is not Phase.OVER and state.seat != before.seat
                and page.seat_kind(state.seat).is_friend)
        ):
            self.emit(TurnToFriend())  # the turn went to a friend: send the link
        page.hint = None

    def fault_point(self, where: str) -> None:
        """Test hook: raise here if the host says so (main.DomHost.fault reads the
        page's ``window.__skylineFault``; nothing sets it outside the e2e tests)."""
        if self.s.host.fault(where):
            raise RuntimeError(f"simulated fault ({where}), set by a test")

    def _drop_log(self) -> None:
        self.s.log = None
        self.s.log_version += 1

    # ------------------------------------------------------------------ the yard

    def take(self, type_index: int) -> None:
        page = self.s.page
        if not 0 <= type_index < len(DieType):
            return
        picked = DieType(type_index)
        page.takes.append(picked)
        if len(page.takes) == 3:
            picks = page.takes
            page.takes = []
            if not self.dispatch(Take(tuple(sorted(picks)))):
                page.takes = picks[:2]
            else:
                cue = last_pick_cue(self.s.game.state, picked.letter)
                page.cues += [cue] if cue is not None else []
        else:
            page.cues.append(pick_cue(picked.letter, len(page.takes)))
            self.s.save()

    def put_back(self, index: int) -> None:
        s = self.s
        page, board = s.page, s.game
        state = board.state
        last = board.actions[-1] if board.actions else None
        if state.phase is Phase.TAKE and 0 <= index < len(page.takes):
            page.takes.pop(index)
            s.save()
        elif state.phase is Phase.ROLL and isinstance(last, Take):
            types = list(last.types)
            if 0 <= index < len(types) and board.can_undo():
                board.pop()
                self._drop_log()
                types.pop(index)
                page.takes = types
                s.save()

    def take_district(self) -> None:
        page = self.s.page
        picks = page.takes
        page.takes = []
        if not self.dispatch(TakeDistrict()):
            page.takes = picks

    # ------------------------------------------------------------------ dice

    def toggle(self, die_id: int) -> None:
        page = self.s.page
        state = self.s.game.state
        if die_id in page.selected:
            page.selected.discard(die_id)
        elif any(d.id == die_id for d in state.dice):
            page.selected.add(die_id)
        self.s.selection.keep()

    def roll(self) -> None:
        state = self.s.game.state
        if state.phase is Phase.ROLL:
            self.dispatch(Roll(tuple(d.id for d in state.dice)))
        else:
            self.dispatch(Roll(self.s.selection.alive()))

    def build(self) -> None:
        self._build_step(self.s.selection.alive(), ())

    def _build_step(self, ids: tuple[int, ...], choices: tuple) -> None:
        s = self.s
        board, page = s.game, s.page
        before = board.state
        pushed = len(board.actions)
        try:
            plan = board.build_selection(ids, choices)
        except IllegalActionError as exc:
            s.notify("notice.illegal", Level.ERROR, reason=s.error(exc))
        else:
            remaining = {d.id for d in board.state.dice} & set(ids)
            if plan.choice_die is not None and remaining:
                rest = tuple(sorted(remaining))
                page.choice = BuildChoice(plan.choice_die, tuple(plan.choices), rest)
                page.selected = set(remaining)
            else:
                page.choice = None
        new = board.actions[pushed:]
        for action in new:
            # build_selection pushed them all: describe one alone, rebuild the log for several
            self.after(action, before, describe_log=len(new) == 1)
        if len(new) > 1:
            events, state = [], before
            for action in new:
                after = apply_action(state, action)
                events += describe(state, action, after)
                state = after
            self.s.narrate(events, before)

    def choose_column(self, index: int) -> None:
        choice = self.s.page.choice
        state = self.s.game.state
        if isinstance(choice, BuildChoice):
            if not 0 <= index < len(state.player.columns):
                return
            # equivalent columns map to the engine's representative
            target = build_choice_for(state, choice, index)
            if target is None:
                return
            self.s.page.choice = None
            self._build_step(choice.remaining, (target,))
        elif isinstance(choice, DemolishChoice):
            self._demolish_target(index, False)

    def choose_tile(self, index: int) -> None:
        if isinstance(self.s.page.choice, DemolishChoice):
            self._demolish_target(index, True)

    def demolish(self) -> None:
        self.s.page.choice = DemolishChoice(self.s.selection.alive())

    def _demolish_target(self, index: int, completed: bool) -> None:
        choice = self.s.page.choice
        assert isinstance(choice, DemolishChoice)
        queue = list(choice.queue)
        if not self.dispatch(Demolish(queue[0], index, completed)):
            return
        queue.pop(0)
        state = self.s.game.state
        queue = [i for i in queue if any(d.id == i for d in state.dice)]
        if queue and has_demolition_target(state):
            self.s.page.choice = DemolishChoice(tuple(queue))
        else:
            self.s.page.choice = None

    def abandon(self) -> None:
        self.dispatch(Abandon(self.s.selection.alive()))

    def end_turn(self) -> None:
        self.dispatch(EndTurn())

    def cancel(self) -> None:
        self.s.page.choice = None

    def undo(self) -> None:
        s = self.s
        page, board = s.page, s.game
        if board.state.phase is Phase.TAKE and page.takes:
            page.takes.pop()
            s.save()
            return
        action = board.pop()  # the rule let it: the engine can undo
        self._drop_log()
        page.hint = None
        if isinstance(action, Take):
            page.takes = list(action.types[:2])
            page.selected = set()
        elif isinstance(action, Build | Demolish):
            page.selected = {action.die}
        elif isinstance(action, Abandon):
            page.selected = set(action.dice)
        else:
            page.selected = set()
        s.save()
