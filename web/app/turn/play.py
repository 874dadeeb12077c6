"""Turn commands: a click becomes an engine action, pushed on the board; the yard picks
not yet pushed, the selected dice and a pending tower or demolition choice are page
state (``page_state``). Every rule (legality, build plans, undo limits) is the engine's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from app import screen as screen_model
from app.core.page_state import BuildChoice, DemolishChoice, Level, Narration
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

if TYPE_CHECKING:
    from app.controller import Controller

#: The dice selected mid-turn, kept so a reload keeps them: {"game": the open game's id,
#: "actions": how many actions it had, "dice": [die ids]}; restored only at that very
#: moment of that game.
KEY_SELECTION = "skyline.selection"


class Play:
    """The turn commands of the player to move on this device."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self.s = c.session
        self._kept_selection: str | None = None  # the selection as last stored

    # ------------------------------------------------------------------ pushing actions

    def dispatch(self, action: Action) -> bool:
        """Push one engine action; on an illegal one show the translated reason.
        Refused while another tab has the game or after a crash (see Controller)."""
        s = self.s
        if s.page.readonly or s.page.crashed or s.board is None:
            return False
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
        if describe_log:
            events = describe(before, action, state)
            self.narrate(events, before)
            if s.log is not None:
                s.log.append(events)
        else:
            s.log = None
        page.rolled = tuple(action.dice) if isinstance(action, Roll) else ()
        if isinstance(action, Roll):
            page.selected = set()
            self.auto_select()
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
        self.keep_selection()
        if state.phase is Phase.OVER:
            s.record_result()
        if page.friend_seats and page.dialog is None and (
            (state.phase is Phase.OVER and before.phase is not Phase.OVER)
            or (state.phase is not Phase.OVER and state.seat != before.seat
                and page.seat_kind(state.seat).is_friend)
        ):
            self.c.friends.open_send_dialog()  # the turn went to a friend: send the link
        page.hint = None
        for listener in self.c.listeners:
            listener(self.c, action)

    def narrate(self, events: list[dict], before: GameState, new_game: bool = False) -> None:
        """The live region's news: the latest action's events and whether the turn
        changed (``screen`` words it)."""
        s = self.s
        state = s.game.state
        s.narrations += 1
        changed = new_game or (state.phase is not Phase.OVER
                               and (state.seat, state.round) != (before.seat, before.round))
        s.page.narration = Narration(s.narrations, tuple(events), changed, new_game)

    def narrate_new_game(self) -> None:
        self.narrate([], self.s.game.state, new_game=True)

    def fault_point(self, where: str) -> None:
        """Test hook: raise here if the host says so (main.DomHost.fault reads the
        page's ``window.__skylineFault``; nothing sets it outside the e2e tests)."""
        if self.s.host.fault(where):
            raise RuntimeError(f"simulated fault ({where}), set by a test")

    def auto_select(self) -> None:
        """After a roll a single die is selected automatically; several start deselected."""
        state = self.s.game.state
        if state.phase is Phase.RESOLVE and len(state.dice) == 1:
            self.s.page.selected = {state.dice[0].id}

    def select_on_open(self) -> None:
        """A game just opened (a reload, another game of the list): the dice selected at
        this very moment of it before, else the automatic selection."""
        s = self.s
        raw = s.store.get(KEY_SELECTION) if s.tutorial is None else None
        self._kept_selection = raw
        kept = self._read_selection(raw)
        if kept:
            s.page.selected = set(kept)
        else:
            self.auto_select()

    def _read_selection(self, raw: str | None) -> tuple[int, ...]:
        """The stored selection if it is of the open game as it is now (rolled active dice
        only), else none."""
        s = self.s
        try:
            data = json.loads(raw) if raw else None
        except (ValueError, RecursionError):
            return ()
        state = s.game.state
        if (not isinstance(data, dict) or s.entry is None or data.get("game") != s.entry.id
                or data.get("actions") != len(s.game.actions)
                or state.phase not in (Phase.RESOLVE, Phase.CONTINUE)
                or not isinstance(data.get("dice"), list)):
            return ()
        rolled = {d.id for d in state.dice if d.face is not None}
        return tuple(i for i in data["dice"] if isinstance(i, int) and i in rolled)

    def keep_selection(self) -> None:
        """Store the selected dice, so a reload mid-turn keeps them (never from a tab that
        only watches, nor from the tutorial, which is never saved)."""
        s = self.s
        if (s.entry is None or s.board is None or s.page.readonly or s.page.crashed
                or s.tutorial is not None):
            return
        raw = None
        if s.page.selected:
            raw = json.dumps({"game": s.entry.id, "actions": len(s.board.actions),
                              "dice": sorted(s.page.selected)}, separators=(",", ":"))
        if raw == self._kept_selection:
            return
        self._kept_selection = raw
        if raw is None:
            s.store.remove(KEY_SELECTION)
        else:
            s.store.set(KEY_SELECTION, raw)

    def _selection(self) -> tuple[int, ...]:
        alive = {d.id for d in self.s.game.state.dice}
        return tuple(sorted(self.s.page.selected & alive))

    def _drop_log(self) -> None:
        self.s.log = None
        self.s.log_version += 1

    # ------------------------------------------------------------------ the yard

    def take(self, type_index: int) -> None:
        page = self.s.page
        state = self.s.game.state
        if state.phase is not Phase.TAKE or page.choice or len(page.takes) >= 3:
            return
        if not 0 <= type_index < len(DieType):
            return
        page.takes.append(DieType(type_index))
        if len(page.takes) == 3:
            picks = page.takes
            page.takes = []
            if not self.dispatch(Take(tuple(sorted(picks)))):
                page.takes = picks[:2]
        else:
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
        if self.s.game.state.phase is Phase.TAKE and not page.choice:
            picks = page.takes
            page.takes = []
            if not self.dispatch(TakeDistrict()):
                page.takes = picks

    # ------------------------------------------------------------------ dice

    def toggle(self, die_id: int) -> None:
        page = self.s.page
        state = self.s.game.state
        if page.choice or state.phase not in (Phase.RESOLVE, Phase.CONTINUE):
            return
        if die_id in page.selected:
            page.selected.discard(die_id)
        elif any(d.id == die_id for d in state.dice):
            page.selected.add(die_id)
        self.keep_selection()

    def roll(self) -> None:
        state = self.s.game.state
        if self.s.page.choice:
            return
        if state.phase is Phase.ROLL:
            self.dispatch(Roll(tuple(d.id for d in state.dice)))
        else:
            self.dispatch(Roll(self._selection()))

    def build(self) -> None:
        if self.s.page.choice:
            return
        self._build_step(self._selection(), ())

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
            self.narrate(events, before)

    def choose_column(self, index: int) -> None:
        choice = self.s.page.choice
        state = self.s.game.state
        if isinstance(choice, BuildChoice):
            if not 0 <= index < len(state.player.columns):
                return
            # equivalent columns map to the engine's representative
            target = screen_model.build_choice_for(state, choice, index)
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
        if self.s.page.choice:
            return
        ids = self._selection()
        if ids:
            self.s.page.choice = DemolishChoice(ids)

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
        if not self.s.page.choice:
            self.dispatch(Abandon(self._selection()))

    def end_turn(self) -> None:
        if not self.s.page.choice:
            self.dispatch(EndTurn())

    def cancel(self) -> None:
        self.s.page.choice = None

    def undo(self) -> None:
        s = self.s
        page, board = s.page, s.game
        page.choice = None
        if board.state.phase is Phase.TAKE and page.takes:
            page.takes.pop()
            s.save()
            return
        if not board.can_undo():
            return
        action = board.pop()
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
