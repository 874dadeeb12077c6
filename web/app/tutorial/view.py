"""What the guided first game shows and says: the coach card of the step, the live
region's words, and the log of the sample round (which begins in round 3)."""

from __future__ import annotations

from app.core.commands import Cmd
from app.core.i18n import translate
from app.core.page_state import DemolishChoice
from app.core.session import Session
from app.core.whose_turn import can_hint
from app.core.words import LogEntry, LogView, action_text, blocked_dice
from app.tutorial.coach import CoachButton, CoachView
from app.tutorial.guide import (
    ROUND_STEPS,
    SOLO_TURNS,
    STEPS,
    TutorialState,
    expect,
    running,
)
from skyline import Phase
from skyline.records.tutorial import SAMPLE_MOVES
from skyline.rules.position import PositionBoard


class TutorialView:
    """The tutorial's part of the screen (``app.render`` asks it)."""

    def __init__(self, session: Session) -> None:
        self.s = session

    @property
    def state(self) -> TutorialState | None:
        return running(self.s)

    def view(self) -> CoachView | None:
        """The coach panel of the step shown now (None without a tutorial)."""
        tutorial = self.state
        s = self.s
        if tutorial is None or s.board is None:
            return None
        t = s.t
        step = tutorial.current
        page, board = s.page, tutorial.board
        wanted = expect(step, board, page)
        paragraphs: list[str]
        marks = wanted.marks if wanted is not None else frozenset()
        if step.kind in ("card", "finish"):
            heading = t(f"tutorial.card.{step.key}.title")
            paragraphs = [t(f"tutorial.card.{step.key}.text")]
            if s.texts.has(f"tutorial.card.{step.key}.more"):
                paragraphs.append(t(f"tutorial.card.{step.key}.more"))
        elif step.kind == "move" and step.move is not None:
            move = SAMPLE_MOVES[step.move]
            heading = t("tutorial.turn", name=board.state.options.names[move.seat])
            key = step.key
            if move.verb == "demolish" and isinstance(page.choice, DemolishChoice):
                key += "_target"
            paragraphs = [t(f"tutorial.step.{key}")]
        else:
            heading = t("tutorial.solo.title")
            paragraphs = self._solo_words()
        if step.kind in ("solo", "finish") or step.key == "solo_intro":
            kicker = t("btn.learn")
        else:
            number = sum(1 for x in STEPS[: tutorial.step + 1] if x.key != "solo_intro")
            kicker = t("tutorial.kicker", n=number, total=ROUND_STEPS)
        buttons = []
        if step.kind == "card":
            buttons.append(CoachButton(Cmd.TUTORIAL_NEXT, t("tutorial.next"), True))
        if step.kind == "finish":
            buttons.append(CoachButton(Cmd.TUTORIAL_PLAY, t("tutorial.play_real"), True))
        buttons.append(CoachButton(Cmd.TUTORIAL_LEAVE, t("tutorial.leave")))
        oops = None
        if tutorial.oops is not None:
            oops = t("tutorial.oops", what=translate(t, tutorial.oops))
        name = step.key
        if step.kind == "move" and isinstance(page.choice, DemolishChoice):
            name += "_target"  # the same step, its second half: what to demolish
        return CoachView(name, kicker, heading, tuple(paragraphs), oops, marks,
                         tuple(buttons), t("tutorial.label"))

    def log(self, log: LogView) -> LogView:
        """The game log; the sample round's begins in round 3, and says so (oldest last)."""
        tutorial = self.state
        if tutorial is None or not isinstance(tutorial.board, PositionBoard):
            return log
        start = tutorial.board.start
        first = LogEntry(start.round, "start",
                                      self.s.t("tutorial.log_start", n=start.round))
        return LogView((*log.entries, first))

    def _solo_words(self) -> list[str]:
        t = self.s.t
        page = self.s.page
        board = self.s.board
        assert board is not None
        state = board.state
        turn = min(state.round, SOLO_TURNS)
        words = []
        if state.phase is Phase.TAKE:
            words.append(t("tutorial.solo.take", n=turn, total=SOLO_TURNS))
        elif state.phase is Phase.ROLL:
            words.append(t("tutorial.solo.roll"))
        else:
            if page.choice is not None:
                words.append(t("tutorial.solo.choose"))
            else:
                key = "resolve" if state.phase is Phase.RESOLVE else "continue"
                words.append(t("tutorial.solo." + key))
            # the normal game's reasons, naming the colour (words.blocked_dice), each
            # one a sentence
            reasons = dict.fromkeys(r.rstrip(".") for r in blocked_dice(t, state))
            blocked = [t("tutorial.solo.blocked", reason=r[:1].upper() + r[1:]) for r in reasons]
            words += blocked or ([t("tutorial.solo.all_fit")] if state.dice else [])
        hint = page.hint
        if hint is not None and hint.actions == len(board.actions):
            action = hint.rows[0].get("action") if hint.rows else None
            if action is not None:
                words.append(t("tutorial.solo.hint",
                               action=action_text(t, state, action).rstrip(".")))
        elif can_hint(page, board) and (state.dice or state.phase is Phase.TAKE):
            words.append(t("tutorial.solo.hint_wait"))
        return words

    def announce(self, screen_text: str, seq: int) -> tuple[str, int]:
        """What the live region says now: a refused click's friendly word, or the new
        step's words after the engine's own news (``screen_text``)."""
        tutorial = self.state
        if tutorial is None:
            return screen_text, seq
        t = self.s.t
        if tutorial.oops is not None and tutorial.oops_seq == self.s.narrations:
            return t("tutorial.oops", what=translate(t, tutorial.oops)), tutorial.oops_seq
        if tutorial.step_seq == self.s.narrations:
            view = self.view()
            if view is not None:
                words = " ".join((screen_text, view.heading, *view.paragraphs)).strip()
                return words, tutorial.step_seq
        return screen_text, seq
