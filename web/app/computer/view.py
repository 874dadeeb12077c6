"""The computer's part of the screen model: the bar of a computer's turn, Hint,
and the reviews of a finished game (solo: the value table; 2-4 players: the table
expert's chances)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.computer.state import ReviewProgress, review_of, table_review_of
from app.core.commands import Cmd
from app.core.dom import TAKE_DISTRICT, column_id, command_id, die_id, tile_id, yard_id
from app.core.i18n import Texts
from app.core.names import is_default_name
from app.core.page_state import PACES, PageState
from app.core.whose_turn import computer_turn
from skyline import (
    Abandon,
    Board,
    Build,
    Demolish,
    EndTurn,
    GameState,
    Phase,
    Roll,
    Take,
    TakeDistrict,
)

if TYPE_CHECKING:  # the review of 2-4 players is imported when first needed
    from skyline.players.table_review import TurnChange
from app.core.words import action_text, game_scenario, number, percent, turn_words


@dataclass(frozen=True)
class BotBar:
    """A computer is playing this turn."""

    text: str
    skip_enabled: bool
    pace: tuple[tuple[str, str, bool], ...] = ()  # (value, label, chosen) of the pace select
    pace_label: str = ""


def bot_bar_view(page: PageState, board: Board, texts: Texts,
                 names: Sequence[str]) -> BotBar | None:
    """The bar of a computer's turn (Skip and the pace), or of a friend's turn from a
    link played on the board; None on a person's turn."""
    t = texts.t
    state = board.state
    paces = tuple((p, t("bot.pace." + p), p == page.pace) for p in PACES)
    if computer_turn(page, board):
        kind = page.seat_kind(state.seat)
        level = t("seat.level." + str(kind.level))
        name = names[state.seat]
        text = (t("bot.playing_level", level=level)
                if is_default_name(texts, state.player.name, state.seat, kind)
                else t("bot.playing", name=name, level=level))
        return BotBar(text, not page.skipping and not page.readonly, paces, t("bot.pace"))
    if page.playback is not None:  # a friend's turn from a link, played on the board
        return BotBar(t("corr.playback", name=names[state.seat]), True, paces, t("bot.pace"))
    return None


@dataclass(frozen=True)
class HintView:
    best: str | None  # None: no hint rows (the engine found nothing to advise)
    options: tuple[tuple[str, str], ...]  # (action text, value text)
    note: str | None = None  # without rows: what to do (e.g. "click End turn")
    # the options as the list shows them, one line each: "Take 3 ground floors –
    # expected final score 61.2"
    lines: tuple[str, ...] = ()
    # above the rows: what the values are (a scenario game: the chance of meeting it too)
    heading: str = ""
    # where the best action is on the board: the ids of the yard rows, dice, buildings and
    # command it uses (as board_view names them), marked there
    marks: frozenset[str] = frozenset()


def hint_marks(state: GameState, action: object) -> frozenset[str]:
    """The page elements the hinted action uses: what to take, which dice, which tower
    (their ids from ``app.core.dom``: a yard row, the district, dice, a column or
    building, the command's button)."""
    seat = state.seat
    if isinstance(action, Take):
        return frozenset(yard_id(t.letter) for t in action.types)
    if isinstance(action, TakeDistrict):
        return frozenset({TAKE_DISTRICT})
    if isinstance(action, Roll) and state.phase is Phase.ROLL:
        return frozenset({command_id(Cmd.ROLL)})  # the first roll: every die, none to choose
    if isinstance(action, Roll | Abandon):
        command = command_id(Cmd.ROLL if isinstance(action, Roll) else Cmd.ABANDON)
        return frozenset({*map(die_id, action.dice), command})
    if isinstance(action, Build):
        marks = {die_id(action.die), command_id(Cmd.BUILD)}
        if action.column is not None:
            marks.add(column_id(seat, action.column))
        return frozenset(marks)
    if isinstance(action, Demolish):
        target = (tile_id if action.completed else column_id)(seat, action.index)
        return frozenset({die_id(action.die), target, command_id(Cmd.DEMOLISH)})
    if isinstance(action, EndTurn):
        return frozenset({command_id(Cmd.END)})
    return frozenset()


@dataclass(frozen=True)
class ReviewRow:
    round: int
    chosen: str
    best: str
    loss: str
    lost: bool


@dataclass(frozen=True)
class RoundLoss:
    """One round of the solo review's per-round strip."""

    round: int
    loss: str  # expected points lost in the round, as a number
    label: str  # "Round 3: 1.2" (its accessible name)
    lost: bool


@dataclass(frozen=True)
class ReviewView:
    """The solo review: the accuracy, the few decisions that cost the most
    (``costly``, worst first), the loss per round and every decision (``rows``,
    in play order) for the list shown on demand (``all_label`` opens it)."""

    done: bool
    progress: str | None
    accuracy: str | None
    rows: tuple[ReviewRow, ...]
    costly: tuple[ReviewRow, ...] = ()
    rounds: tuple[RoundLoss, ...] = ()
    all_label: str = ""
    # the headings of the parts (a scenario game grades the chance of meeting it too)
    rounds_title: str = ""
    costly_title: str = ""
    no_costly: str = ""
    lost_head: str = ""
    # a scenario game: met or failed, and the decision that lost it (one line each)
    scenario: tuple[str, ...] = ()
    scenario_met: bool | None = None


@dataclass(frozen=True)
class TableReviewRow:
    """One decision of a game of 2-4 players that cost chance of winning."""

    round: int
    chosen: str
    best: str
    chances: str  # "58% → 51%": the chance of winning with the best choice, with the one made
    loss: str  # percentage points, as a number
    lost: bool


@dataclass(frozen=True)
class TableReviewSeat:
    """The review of one player at this device: a heading, one summary line and the
    decisions that cost the most chance of winning (worst first)."""

    seat: int
    name: str
    title: str
    summary: str
    rows: tuple[TableReviewRow, ...]
    none: str | None  # no decision cost chance of winning


@dataclass(frozen=True)
class TableReviewView:
    """The review of a finished game of 2-4 players (``skyline.players.table_review``):
    ``progress`` while it runs; then per player at this device the costly decisions, the
    game's turning points (one line each) and what was not reviewed."""

    done: bool
    progress: str | None
    title: str
    intro: str = ""  # what "chance of winning" and "percentage points" mean
    seats: tuple[TableReviewSeat, ...] = ()
    heads: tuple[str, ...] = ()  # the decisions table's column headings
    turning_title: str = ""
    turning: tuple[str, ...] = ()
    turning_none: str | None = None
    not_reviewed: str | None = None  # computer seats and friends elsewhere


def hint_view(page: PageState, board: Board, t, lang: str) -> HintView | None:
    hint = page.hint
    if hint is None or hint.actions != len(board.actions):
        return None
    state = board.state
    if not hint.rows:
        legal = board.legal_actions()
        only_end = [type(a) for a in legal] == [EndTurn]
        if len(legal) == 1 and not only_end:  # e.g. the first roll (a scenario's hint has no
            # rows for it): the one thing to do is the best
            return HintView(t("hint.best", action=action_text(t, state, legal[0])), (),
                            marks=hint_marks(state, legal[0]))
        return HintView(None, (), t("hint.only_end" if only_end else "hint.none"),
                        marks=frozenset({command_id(Cmd.END)}) if only_end else frozenset())
    scenario = game_scenario(board)
    if scenario and all("p_success" in r for r in hint.rows):
        name = t("scenario." + scenario)
        options = tuple(
            (action_text(t, state, r["action"]),
             t("hint.scenario_value", scenario=name, p=percent(lang, r["p_success"]),
               value=number(lang, r["expected_score"])))
            for r in hint.rows
        )
        heading = t("hint.scenario_options", scenario=name)
    elif all("win" in r for r in hint.rows):  # 2-4 players: the chart's and review's measure
        options = tuple(
            (action_text(t, state, r["action"]), t("hint.win_value", p=percent(lang, r["win"])))
            for r in hint.rows
        )
        heading = t("hint.win_options")
    else:
        options = tuple(
            (action_text(t, state, r["action"]), t("hint.value", value=number(lang, r["value"])))
            for r in hint.rows
        )
        heading = t("hint.options")
    best = t("hint.best", action=action_text(t, state, hint.rows[0]["action"]))
    lines = tuple(t("hint.option", action=action, value=value) for action, value in options)
    return HintView(best, options, heading=heading,
                    marks=hint_marks(state, hint.rows[0]["action"]), lines=lines)


LOSS_SHOWN = 0.05  # expected points: a decision losing less is as good as the best
COSTLY_SHOWN = 5  # the review lists at most this many costly decisions up front


def review_view(page: PageState, board: Board, t, lang: str) -> ReviewView | None:
    r = review_of(page)
    if r is None or not board.is_game_over() or not board.state.solo:
        return None
    if not r.done:
        return ReviewView(False, t("review.working", done=r.i, total=len(board.actions)),
                          None, ())
    if r.verdict is not None and game_scenario(board):
        return _scenario_review(r, t, lang)
    rows = tuple(
        ReviewRow(d["round"], action_text(t, d["state"], d["chosen"]),
                  action_text(t, d["state"], d["best"]), number(lang, d["loss"]),
                  d["loss"] >= LOSS_SHOWN)
        for d in r.decisions
    )
    accuracy = t("review.accuracy", accuracy=number(lang, r.accuracy),
                 lost=number(lang, r.total), optimum=number(lang, r.start))
    worst = _costliest(r.decisions)
    per_round: dict[int, float] = {}
    for d in r.decisions:
        per_round[d["round"]] = per_round.get(d["round"], 0.0) + d["loss"]
    rounds = tuple(
        RoundLoss(n, number(lang, loss), t("review.round_cell", round=n, lost=number(lang, loss)),
                  loss >= LOSS_SHOWN)
        for n, loss in sorted(per_round.items())
    )
    return ReviewView(True, None, accuracy, rows, tuple(rows[i] for i in worst), rounds,
                      t("review.all", n=len(rows)), t("review.rounds"), t("review.costly"),
                      t("review.no_costly"), t("review.lost"))


def _costliest(decisions: list[dict]) -> list[int]:
    """The decisions that cost at least LOSS_SHOWN (on the game's objective), worst first."""
    return sorted((i for i, d in enumerate(decisions) if d["loss"] >= LOSS_SHOWN),
                  key=lambda i: (-decisions[i]["loss"], i))[:COSTLY_SHOWN]


def _scenario_review(r: ReviewProgress, t, lang: str) -> ReviewView:
    """The review of a scenario game: every decision graded on the scenario's objective
    (``skyline.expert.grade``: the chance of meeting it first, then the expected score),
    the chance and points each one gave away, whether the scenario was met and, if it
    failed, the decision that lost the most of its chance."""
    v = r.verdict or {}
    name = t("scenario." + v["scenario"])

    def points_lost(d: dict) -> float:  # negative: the choice expects more points
        lost = d["best_expected_score"] - d["chosen_expected_score"]
        return 0.0 if abs(lost) < 0.05 else lost

    def pp(p: float) -> str:  # percentage points
        return number(lang, 100.0 * p)

    rows = tuple(
        ReviewRow(d["round"], action_text(t, d["state"], d["chosen"]),
                  action_text(t, d["state"], d["best"]),
                  # a choice for the objective may give up chance and still gain points
                  t("review.scenario_loss" if points_lost(d) >= 0 else "review.scenario_gain",
                    p=pp(d["p_loss"]), points=number(lang, abs(points_lost(d)))),
                  d["loss"] >= LOSS_SHOWN)
        for d in r.decisions
    )
    accuracy = t("review.scenario_accuracy", scenario=name, accuracy=number(lang, r.accuracy),
                 lost=pp(v["p_loss_total"]), start=percent(lang, v["start_p_success"]),
                 optimum=number(lang, v["start_expected_score"]))
    per_round: dict[int, list[float]] = {}
    for d in r.decisions:
        acc = per_round.setdefault(d["round"], [0.0, 0.0, 0.0])
        acc[0] += d["p_loss"]
        acc[1] += points_lost(d)
        acc[2] += d["loss"]
    rounds = tuple(
        RoundLoss(n, pp(p), t("review.scenario_round_cell", round=n, p=pp(p),
                              points=number(lang, points)), loss >= LOSS_SHOWN)
        for n, (p, points, loss) in sorted(per_round.items())
    )
    met = v.get("scenario_met")
    lines = [t("review.scenario_met" if met else "review.scenario_failed", scenario=name)]
    culprit = v.get("failed_by")
    if v.get("failed_scenario") and culprit is not None:
        lines.append(t("review.scenario_lost_by", round=culprit["round"],
                       chosen=action_text(t, culprit["state"], culprit["chosen"]),
                       best=action_text(t, culprit["state"], culprit["best"]),
                       p=pp(culprit["p_loss"]),
                       before=percent(lang, culprit["best_p_success"]),
                       after=percent(lang, culprit["chosen_p_success"])))
    elif v.get("failed_scenario"):
        lines.append(t("review.scenario_dice"))
    return ReviewView(True, None, accuracy, rows,
                      tuple(rows[i] for i in _costliest(r.decisions)), rounds,
                      t("review.all", n=len(rows)),
                      t("review.scenario_rounds", scenario=name), t("review.scenario_costly"),
                      t("review.scenario_no_costly"), t("review.scenario_lost"),
                      tuple(lines), met)


TABLE_LOSS_SHOWN = 0.1  # percentage points: a decision losing less is as good as the best
TABLE_COSTLY_SHOWN = 5  # the costly decisions listed per player


def table_review_view(page: PageState, board: Board, t, lang: str,
                  names) -> TableReviewView | None:
    """The review of a finished game of 2-4 players: for each person at this device the
    decisions that cost the most chance of winning (graded by the expert that plays), the
    game's turning points and a line on the seats not reviewed."""
    r = table_review_of(page)
    state = board.state
    if (r is None or state.solo or not board.is_game_over()
            or r.key != (board.options, tuple(board.actions))):
        return None
    title = t("table_review.title")
    if r.result is None:
        return TableReviewView(False, t("table_review.working", done=r.i, total=r.total), title)
    review = r.result

    def pct(p: float) -> str:
        return percent(lang, p)

    seats = []
    for seat in review.seats:
        graded = review.of(seat)
        rows = tuple(
            TableReviewRow(d.round, action_text(t, d.state, d.chosen),
                           action_text(t, d.state, d.best),
                           t("table_review.chance_cell", before=pct(d.before), after=pct(d.after)),
                           number(lang, d.loss), True)
            for d in review.costly(seat, TABLE_COSTLY_SHOWN, TABLE_LOSS_SHOWN)
        )
        seats.append(TableReviewSeat(
            seat, names[seat], t("table_review.seat_title", name=names[seat]),
            t("table_review.seat_summary", n=len(graded),
              lost=number(lang, review.total_loss(seat))),
            rows, None if rows else t("table_review.seat_none")))
    # the turning points as the people here see them (their own chances), else the winner's
    readers = review.seats or review.winners[:1] or (0,)
    turning = [turning_line(t, turn, readers, bool(review.seats), names, pct)
               for turn in review.turning_points_for(readers)]
    others = len(review.seats) < len(state.players)
    return TableReviewView(
        True, None, title, t("table_review.intro"), tuple(seats),
        (t("review.round"), t("table_review.chosen"), t("review.best"),
         t("table_review.chances"), t("table_review.lost")),
        t("table_review.turning_title"), tuple(turning),
        None if turning else t("table_review.turning_none"),
        t("table_review.not_reviewed") if others else None,
    )


def turning_line(t: Callable[..., str], turn: TurnChange, readers: tuple[int, ...],
                 here: bool, names: Sequence[str], pct: Callable[[float], str]) -> str:
    """One turning point of the review of 2-4 players, from the readers' point of view:
    one person here reads "your chance" ("you" on their own turn), several read each
    one's chance by name; without anyone here, the chance of ``readers`` (the winner)."""
    lead = ""
    if turn.leader_after == turn.seat and turn.leader_before != turn.seat:
        lead = t("table_review.took_lead")
    elif turn.leader_before == turn.seat and turn.leader_after != turn.seat:
        lead = t("table_review.lost_lead", leader=names[turn.leader_after])
    words = {"round": turn.round, "name": names[turn.seat], "parts": turn_words(t, turn.events),
             "lead": lead}
    if not here:
        focus = readers[0]
        return t("table_review.turning", focus=names[focus], before=pct(turn.before[focus]),
                 after=pct(turn.after[focus]), **words)
    if len(readers) == 1:
        me = readers[0]
        key = "table_review.turning_own" if turn.seat == me else "table_review.turning_yours"
        return t(key, before=pct(turn.before[me]), after=pct(turn.after[me]), **words)
    chances = ", ".join(t("table_review.turning_chance", name=names[seat],
                          before=pct(turn.before[seat]), after=pct(turn.after[seat]))
                        for seat in readers)
    return t("table_review.turning_several", chances=chances, **words)
