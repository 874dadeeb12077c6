"""The guided first game, "Learn to play": the rulebook's sample round played step by
step, then two turns of a real solo game with comments.

The tutorial is a state the session owns (``Session.tutorial``, a :class:`TutorialState`):
its own board and page state, while the game that was open waits untouched in
``stash`` (nothing is saved while the tutorial runs, nothing is counted in the
statistics, and leaving puts the game, its entry and its page state back exactly).
The sample round's board is the engine's (``skyline.records.tutorial``): a position
built from the rulebook's description whose rolls take the rulebook's faces through
the engine's chance interface. Every step the player makes is an ordinary page
command that becomes a legal engine action; the tutorial only decides which command
the step wants (:func:`expect`), refuses the others with a friendly word, and says
what to do and why (:meth:`Tutorial.view`).

Steps (:data:`STEPS`): cards (read, then Next), the moves of the sample round (each
one or more clicks: take, select dice, press a command, choose a building), the solo
part (the player decides, the page comments) and the finish card. The step and, in
the solo part, its moves are kept in the settings (``store.Store.save_tutorial``), so a
reload resumes the tutorial where it was.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.core.commands import Cmd, Command, plain
from app.core.dom import (
    LEARN_BUTTON,
    NEW_GAME_LEARN,
    TAKE_DISTRICT,
    command_id,
    die_id,
    tile_id,
    yard_id,
)
from app.core.events import Emit, OpenNewGame, ShowHint
from app.core.i18n import Text
from app.core.page_state import DemolishChoice, Lesson, NewGameDialog, PageState, held_as
from app.core.session import Session
from app.core.whose_turn import can_hint
from app.tutorial.coach import COACH
from skyline import Board, DieType, GameEntry, Phase, parse_action
from skyline.records.tutorial import (
    SAMPLE_MOVES,
    die_kind,
    move_action_counts,
    resolve_move,
    sample_round_board,
)

#: The solo part: its seed (a real game's dice) and how many turns it lasts.
SOLO_SEED = "learn-to-play"
SOLO_TURNS = 2


@dataclass(frozen=True)
class Step:
    """One step: ``kind`` card, move (``move``: index into ``SAMPLE_MOVES``), solo or
    finish; ``key`` names its words (``tutorial.step.<key>``, ``tutorial.card.<key>``)."""

    key: str
    kind: str
    move: int | None = None


MOVE_KEYS = (
    "e_take", "e_roll", "e_build", "e_end",
    "t_take", "t_roll", "t_build", "t_reroll", "t_abandon", "t_reroll2", "t_build2", "t_end",
    "d_take", "d_roll", "d_build", "d_reroll", "d_demolish", "d_reroll2", "d_build2", "d_end",
)
assert len(MOVE_KEYS) == len(SAMPLE_MOVES)


def _steps() -> tuple[Step, ...]:
    steps = [Step("intro", "card")]
    cards_after = {3: "e_done", 11: "t_done", 19: "d_done"}
    for index, key in enumerate(MOVE_KEYS):
        steps.append(Step(key, "move", index))
        if index in cards_after:
            steps.append(Step(cards_after[index], "card"))
    steps += [Step("solo_intro", "card"), Step("solo", "solo"), Step("finish", "finish")]
    return tuple(steps)


STEPS = _steps()
#: Steps counted in the kicker ("step n of N"): the sample round's.
ROUND_STEPS = sum(1 for s in STEPS if s.kind != "solo" and s.key not in ("solo_intro", "finish"))

#: Commands that always work during the tutorial (they do not touch the game).
FREE = frozenset({Cmd.RULES, Cmd.RULES_GOTO, Cmd.LANG, Cmd.CLOSE, Cmd.DISMISS, Cmd.MENU,
                  Cmd.BOT_PACE, Cmd.TUTORIAL, Cmd.TUTORIAL_NEXT, Cmd.TUTORIAL_LEAVE,
                  Cmd.TUTORIAL_PLAY})
#: The top bar's tools that belong to the real games: they leave the tutorial first.
LEAVE_FIRST = frozenset({Cmd.GAMES, Cmd.NEW_GAME, Cmd.SHARE, Cmd.DAILY, Cmd.STATS})
#: Commands of a turn (the board's): the step decides which one it wants.
TURN = frozenset({Cmd.TAKE, Cmd.UNTAKE, Cmd.DISTRICT, Cmd.DIE, Cmd.ROLL, Cmd.BUILD,
                  Cmd.DEMOLISH, Cmd.ABANDON, Cmd.END, Cmd.UNDO, Cmd.CANCEL, Cmd.COLUMN,
                  Cmd.TILE, Cmd.BOT_HINT})
VERB_COMMAND = {"roll": Cmd.ROLL, "build": Cmd.BUILD, "abandon": Cmd.ABANDON,
                "demolish": Cmd.DEMOLISH}
COMMAND_LABEL = {Cmd.ROLL: "btn.roll", Cmd.BUILD: "btn.build", Cmd.ABANDON: "btn.abandon",
                 Cmd.DEMOLISH: "btn.demolish", Cmd.END: "btn.end_turn"}


@dataclass(frozen=True)
class Expect:
    """The click a step wants now: the command, the ``data-arg`` values it accepts
    (empty: any), the elements to mark, and how to say it (``tutorial.do.*``)."""

    action: str
    args: frozenset[str]
    marks: frozenset[str]
    what: Text


@dataclass
class Stash:
    """The game that was open when the tutorial started, put back when it ends."""

    board: Board | None
    entry: GameEntry | None
    page: PageState


@dataclass
class TutorialState(Lesson):
    """Where the tutorial is: ``step`` (index into :data:`STEPS`), its own board, the
    friendly word of the last refused click (with its narration number, so the live
    region says it once) and the game waiting in ``stash``."""

    step: int
    board: Board
    stash: Stash
    oops: Text | None = None
    oops_seq: int = 0
    step_seq: int = 0  # the narration number of the step's start (the live region says it)
    counts: tuple[int, ...] = field(default_factory=move_action_counts)

    @property
    def current(self) -> Step:
        return STEPS[self.step]


def running(session: Session) -> TutorialState | None:
    """The tutorial's state while it runs in ``session`` (its ``Lesson``), else None."""
    return held_as(session.tutorial, TutorialState)


def expect(step: Step, board: Board, page: PageState) -> Expect | None:
    """The click ``step`` wants in this position and page state (None: the solo part,
    where every legal command is the player's own)."""
    if step.kind == "card":
        return Expect(Cmd.TUTORIAL_NEXT, frozenset(), frozenset({Cmd.TUTORIAL_NEXT}),
                      Text("tutorial.do.next"))
    if step.kind == "finish":
        return Expect(Cmd.TUTORIAL_PLAY, frozenset(), frozenset({Cmd.TUTORIAL_PLAY}),
                      Text("tutorial.do.finish"))
    if step.kind == "solo" or step.move is None:
        return None
    move = SAMPLE_MOVES[step.move]
    state = board.state
    verb = move.verb
    if verb == "take":
        need = Counter(move.dice) - Counter(t.letter for t in page.takes)
        letters = sorted(need, key="GUP".index)
        return Expect(Cmd.TAKE, frozenset(str(DieType.from_letter(x).value) for x in letters),
                      frozenset(map(yard_id, letters)), Text("tutorial.do.take"))
    if verb == "district":
        return Expect(Cmd.DISTRICT, frozenset(), frozenset({TAKE_DISTRICT}),
                      Text("tutorial.do.district"))
    if verb == "end":
        return _press(Cmd.END)
    if verb == "roll" and not move.dice:
        return _press(Cmd.ROLL)
    if verb == "demolish" and isinstance(page.choice, DemolishChoice):
        kind, height = move.target[0], int(move.target[1:])
        tiles = [i for i, b in enumerate(state.player.buildings)
                 if (b.kind.letter, b.height) == (kind, height)]
        return Expect(Cmd.TILE, frozenset(map(str, tiles)),
                      frozenset(tile_id(state.seat, i) for i in tiles), Text("tutorial.do.tile"))
    alive = {d.id: d for d in state.dice}
    selected = sorted(i for i in page.selected if i in alive)
    wanted = Counter(move.dice)
    have = Counter(die_kind(alive[i]) for i in selected)
    extra = [i for i in selected if have[die_kind(alive[i])] > wanted[die_kind(alive[i])]]
    if extra:
        return Expect(Cmd.DIE, frozenset(map(str, extra)),
                      frozenset(map(die_id, extra)), Text("tutorial.do.undie"))
    missing = wanted - have
    if missing:
        dice = [d.id for d in state.dice if d.id not in selected and missing[die_kind(d)] > 0]
        return Expect(Cmd.DIE, frozenset(map(str, dice)), frozenset(map(die_id, dice)),
                      Text("tutorial.do.die"))
    return _press(VERB_COMMAND[verb])


def _press(command: Cmd) -> Expect:
    return Expect(command, frozenset(), frozenset({command_id(command)}),
                  Text("tutorial.do.press", (("command", Text(COMMAND_LABEL[command])),)))


class Tutorial:
    """The guided first game's commands and views (see the module's docstring)."""

    def __init__(self, session: Session, emit: Emit) -> None:
        self.s = session
        self.emit = emit

    def commands(self) -> dict[Cmd, Command]:
        return {
            Cmd.TUTORIAL: plain(self.start),  # it sets the focus (the coach)
            Cmd.TUTORIAL_NEXT: plain(self.next),
            Cmd.TUTORIAL_LEAVE: plain(self.leave),  # back where it was started
            Cmd.TUTORIAL_PLAY: plain(self.play_real),
        }

    @property
    def state(self) -> TutorialState | None:
        return running(self.s)

    # ------------------------------------------------------------------ start, leave

    def start(self, step: int = 0) -> None:
        """Learn to play: the open game waits (untouched) while the tutorial runs."""
        s = self.s
        if s.tutorial is not None:
            s.focus_id = COACH
            return
        old = s.page
        page = PageState(pace=old.pace, tz_minutes=old.tz_minutes,
                         storage_kept=old.storage_kept)
        tutorial = TutorialState(step, sample_round_board(), Stash(s.board, s.entry, old))
        s.tutorial = tutorial
        s.page = page
        s.set_board(tutorial.board)
        self.s.narrate_new_game()
        self._speak()
        self._save()
        s.focus_id = Cmd.TUTORIAL_NEXT if tutorial.current.kind == "card" else COACH

    def leave(self) -> None:
        """Skip the rest: the game that was open is back exactly as it was."""
        s = self.s
        tutorial = self.state
        if tutorial is None:
            return
        s.tutorial = None
        stash = tutorial.stash
        s.set_board(stash.board)
        s.entry = stash.entry
        s.page = stash.page
        s.store.save_tutorial(None)
        s.focus_id = NEW_GAME_LEARN if isinstance(s.page.dialog, NewGameDialog) else LEARN_BUTTON

    def aside(self, run: Callable[[], None]) -> None:
        """Run ``run`` on the game waiting (another tab's lock or save is about it),
        while the tutorial goes on with its own board and page."""
        s, tutorial = self.s, self.state
        if tutorial is None:
            run()
            return
        mine = (s.board, s.entry, s.page)
        s.board, s.entry, s.page = tutorial.stash.board, tutorial.stash.entry, tutorial.stash.page
        try:
            run()
        finally:
            tutorial.stash = Stash(s.board, s.entry, s.page)
            s.board, s.entry, s.page = mine
            s.log = None
            s.log_version += 1

    def play_real(self) -> None:
        """The end of the lesson: back to the games, with the new-game dialog open."""
        self.leave()
        if not isinstance(self.s.page.dialog, NewGameDialog):
            self.emit(OpenNewGame())

    def next(self) -> None:
        tutorial = self.state
        if tutorial is None or tutorial.current.kind != "card":
            return
        self._advance()
        self.s.focus_id = self._first_mark() or COACH

    # ------------------------------------------------------------------ the controller's hooks

    def allows(self, name: str, arg: str | None) -> bool:
        """Whether the command may run now (the tutorial's own, the rules and the
        language always; a turn command only if the step wants it). A refused click
        gets a friendly word; a tool of the real games leaves the tutorial first."""
        tutorial = self.state
        if tutorial is None or name in FREE:
            return True
        if name in LEAVE_FIRST:
            self.leave()
            return True
        step = tutorial.current
        wanted = expect(step, tutorial.board, self.s.page)
        if wanted is None:  # the solo part: every turn command is the player's
            return name in TURN
        if name == Cmd.CANCEL and step.kind == "move":
            return True  # backing out of a choice: the step asks again
        if name == wanted.action and (not wanted.args or (arg or "") in wanted.args):
            tutorial.oops = None
            return True
        self.s.narrations += 1
        tutorial.oops = wanted.what
        tutorial.oops_seq = self.s.narrations
        return False

    def after(self, name: str) -> None:
        """A command ran: move on when the step's engine actions are on the board."""
        tutorial = self.state
        if tutorial is None or name in FREE:
            return
        step = tutorial.current
        if step.kind == "move" and step.move is not None:
            if len(tutorial.board.actions) >= tutorial.counts[step.move]:
                self._advance()
            first = self._first_mark()
            if first is not None:  # Enter after Enter walks a keyboard through the round
                self.s.focus_id = first
        elif step.kind == "solo":
            state = tutorial.board.state
            if state.phase is Phase.OVER or state.round > SOLO_TURNS:
                self._advance()
                self.s.focus_id = Cmd.TUTORIAL_PLAY
            else:
                self._save()
                self._hint()

    def _speak(self) -> None:
        """The live region says the new step's words (with the engine's news)."""
        tutorial = self.state
        assert tutorial is not None
        self.s.narrations += 1
        tutorial.step_seq = self.s.narrations

    def _first_mark(self) -> str | None:
        tutorial = self.state
        if tutorial is None:
            return None
        wanted = expect(tutorial.current, tutorial.board, self.s.page)
        return min(wanted.marks) if wanted is not None and wanted.marks else None

    def _advance(self) -> None:
        tutorial = self.state
        assert tutorial is not None
        tutorial.step = min(tutorial.step + 1, len(STEPS) - 1)
        tutorial.oops = None
        if tutorial.current.kind == "solo":
            self._solo_board()
        self._speak()
        self._save()
        if tutorial.current.kind == "solo":
            self._hint()

    def _solo_board(self, record: str = "") -> None:
        tutorial = self.state
        assert tutorial is not None
        board = Board.new([self.s.t("newgame.default_name", n=1)], seed=SOLO_SEED)
        for token in record.split():
            board.push(parse_action(token))
        tutorial.board = board
        self.s.set_board(board)
        self.s.selection.auto_select()

    def _hint(self) -> None:
        """The solo part: what Hint suggests, at every decision (the expert's table is
        fetched on first need, as for the Hint button)."""
        page, board = self.s.page, self.s.board
        if board is None or not can_hint(page, board):
            return
        if page.hint is None or page.hint.actions != len(board.actions):
            self.emit(ShowHint())

    # ------------------------------------------------------------------ storage

    def _save(self) -> None:
        tutorial = self.state
        if tutorial is None:
            return
        data: dict[str, Any] = {"v": 1, "step": tutorial.step}
        if tutorial.current.kind in ("solo", "finish"):
            data["solo"] = " ".join(str(a) for a in tutorial.board.actions)
        self.s.store.save_tutorial(json.dumps(data, separators=(",", ":")))

    def resume(self) -> None:
        """At boot: a tutorial the last visit left running carries on at its step (the
        sample round's moves before it replayed, the solo part's moves too). Anything
        unreadable is dropped: the page starts as without a tutorial."""
        raw = self.s.store.load_tutorial()
        if raw is None or self.s.tutorial is not None:
            return
        try:
            data = json.loads(raw)
            step = data["step"]
            if not isinstance(step, int) or not 0 <= step < len(STEPS):
                raise ValueError(step)
            record = data.get("solo", "")
            if not isinstance(record, str):
                raise ValueError(record)
            self.start()
            tutorial = self.state
            assert tutorial is not None
            for earlier in STEPS[:step]:
                if earlier.kind == "move" and earlier.move is not None:
                    for action in resolve_move(tutorial.board.state, SAMPLE_MOVES[earlier.move]):
                        tutorial.board.push(action)
            tutorial.step = step
            self.s.set_board(tutorial.board)
            if STEPS[step].kind in ("solo", "finish"):
                self._solo_board(record)
            self.s.selection.auto_select()
            self._speak()
            self._save()
            self.s.focus_id = None
            if STEPS[step].kind == "solo":
                self._hint()
        except (ValueError, KeyError, TypeError):
            self.leave()
            self.s.store.save_tutorial(None)
