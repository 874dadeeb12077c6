"""The turn's part of the screen model: what the player to move sees and may do
(the commands with the reasons they are greyed, the prompt, the tray, the yard, the
district, the skylines, the final scoring), from the page state and the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core.commands import TURN_COMMANDS, Cmd
from app.core.page_state import DemolishChoice, PageState
from app.core.whose_turn import friend_turn, live_waiting
from app.core.words import TYPE_LETTERS, die_label, read_summary, turn_words, unbuildable_reasons
from app.turn.rules import RULES, panel
from app.turn.state import BuildChoice, shown_seat_of
from app.turn.views import (
    ColumnView,
    Command,
    DieView,
    District,
    DistrictDie,
    LastTurn,
    PlayerView,
    ScenarioView,
    ScoreRow,
    Scoring,
    TileView,
    TurnView,
    Yard,
    YardRow,
)
from skyline import (
    FACE_LETTERS,
    Board,
    Build,
    GameState,
    Phase,
    Take,
    action_class,
    completed_count,
    scenario_progress,
    scores_as_tile,
)


def since_last_turn_view(page: PageState, board: Board, t, names) -> tuple[LastTurn, ...]:
    """What each rival's turn did since the player to move here last played (oldest
    first; one line in a game of two), until that player acts. "You" is the seat to move
    now: in pass-and-play each person here sees what happened since their own turn."""
    state = board.state
    if (state.solo or state.phase is not Phase.TAKE or page.takes or page.replay is not None
            or not page.seat_kind(state.seat).is_here):
        return ()
    lines = []
    for report in board.turns_since(state.seat):
        name = names[report.seat]
        points = t("last.points", n=report.points, signed=f"{report.points:+d}")
        lines.append(LastTurn(
            report.seat, t("last.line", name=name, parts=turn_words(t, report.events),
                           points=points),
            report.columns, report.tiles, t("last.short", name=name, points=points)))
    return tuple(lines)


def shown_seat(page: PageState, board: Board) -> int | None:
    """The seat whose skyline a tap on its scoreboard chip asked for, while it holds:
    in the same turn, with no tower or demolition choice pending (its targets are on
    the skyline of the player to move)."""
    shown = shown_seat_of(page)
    state = board.state
    if (shown is None or page.choice is not None
            or shown.turn != (state.round, state.seat)
            or not 0 <= shown.seat < len(state.players)):
        return None
    return shown.seat


def first_target(players: tuple[PlayerView, ...]) -> str | None:
    """The element id of the first build or demolition target on the screen, if any."""
    for p in players:
        for b in p.tiles:
            if b.target:
                return f"tile-{p.seat}-{b.index}"
        for col in p.columns:
            if col.target:
                return f"col-{p.seat}-{col.index}"
    return None


# ---------------------------------------------------------------------------- engine reads


def build_target_columns(state: GameState, choice: BuildChoice) -> set[int]:
    """The active player's columns ``choice.die`` may go onto: every column whose build
    is in the same class (``skyline.action_class``) as one of the engine's choices."""
    columns = state.players[state.seat].columns
    wanted = {action_class(state, Build(choice.die, c)) for c in choice.choices
              if c is not None and 0 <= c < len(columns)}
    return {i for i in range(len(columns))
            if action_class(state, Build(choice.die, i)) in wanted}


def build_choice_for(state: GameState, choice: BuildChoice, column: int) -> int | None:
    """The engine's choice (a column index) equivalent to building onto ``column``."""
    columns = state.players[state.seat].columns
    if not 0 <= column < len(columns):
        return None
    key = action_class(state, Build(choice.die, column))
    return next((c for c in choice.choices
                 if c is not None and action_class(state, Build(choice.die, c)) == key), None)


def scenario_view(t: Callable[..., str], state: GameState) -> ScenarioView | None:
    """The solo scenario's name, goal and standing (``skyline.scenario_progress``)."""
    p = scenario_progress(state)
    if p is None:
        return None
    status = t("scenario_status." + p.scenario, n=p.count)
    if p.met and (p.at_least or p.settled):
        status = t("scenario_status.reached", status=status)
    elif not p.met and p.settled:
        status = t("scenario_status.missed", status=status)
    name, goal = t("scenario." + p.scenario), t("scenario_goal." + p.scenario)
    return ScenarioView(name, goal, status, t("scenario_status.line", name=name, goal=goal,
                                               status=status), p.met, p.settled)


def prompt_key(page: PageState, board: Board, t: Callable[..., str] | None = None,
               names=None) -> tuple[str, dict[str, Any]]:
    """The prompt's string-table key and parameters (``t`` fills in the reasons why
    nothing can be built; ``names``: the names as shown)."""
    state = board.state
    if page.replay is not None:
        return "replay.prompt", {}
    if state.phase is Phase.OVER:
        return "prompt.over", {}
    if isinstance(page.choice, BuildChoice):
        return "prompt.choose_tower", {}
    if isinstance(page.choice, DemolishChoice):
        return "prompt.choose_demolish", {}
    if page.playback is not None:
        return "prompt.playback", {"name": state.player.name}
    if page.live is not None and friend_turn(page, board):
        away = state.seat in page.live.away
        return ("prompt.live_away" if away else "prompt.live_turn"), {"name": state.player.name}
    if live_waiting(page, board):
        return "prompt.live_sync", {}
    if page.seat_kind(state.seat).is_friend:
        return "prompt.friend", {"name": state.player.name}
    if page.seat_kind(state.seat).is_computer:
        return "prompt.waiting", {"name": names[state.seat] if names else state.player.name}
    if state.phase is Phase.TAKE:
        left = max(1, 3 - len(page.takes))
        return f"prompt.take{'_solo' if state.solo else ''}.{left}", {}
    if state.phase is Phase.ROLL:
        return "prompt.roll", {}
    if state.phase is Phase.RESOLVE:
        if not any(isinstance(a, Build) for a in board.legal_actions()):
            reasons = unbuildable_reasons(t, state) if t is not None else ""
            return ("prompt.must_demolish" if state.solo else "prompt.no_build"), {
                "reasons": reasons}
        return ("prompt.resolve_solo" if state.solo else "prompt.resolve"), {}
    return "prompt.continue", {}


def can_take_yard(page: PageState, board: Board) -> bool:
    return RULES[Cmd.TAKE](page, board, None) is None


def can_take_district(page: PageState, board: Board) -> bool:
    return RULES[Cmd.DISTRICT](page, board, None) is None


def _tray(page: PageState, board: Board, t) -> tuple[DieView, ...]:
    state = board.state
    choice = page.choice
    focus = choice.die if isinstance(choice, BuildChoice | DemolishChoice) else None
    items: list[DieView] = []
    if state.phase is Phase.TAKE:
        for i, dtype in enumerate(page.takes):
            letter = TYPE_LETTERS[dtype]
            label = die_label(t, letter, None)
            items.append(DieView(
                -1, i, letter, None, label, t("die.short." + letter), taken=True,
                put_back=None if page.readonly else t("btn.put_back_label", die=label),
                put_back_text=t("btn.put_back"),
            ))
        return tuple(items)
    last = board.actions[-1] if board.actions else None
    # a computer's dice cannot be put back by the player
    from_yard = (state.phase is Phase.ROLL and isinstance(last, Take)
                 and page.seat_kind(state.seat).is_here and not page.readonly)
    rolled = set(just_rolled(page, board))
    for i, die in enumerate(state.dice):
        letter = TYPE_LETTERS[die.type]
        face = None if die.face is None else FACE_LETTERS[die.face]
        label = die_label(t, letter, face)
        short = t("die.short." + letter)
        if state.phase is Phase.ROLL:
            put_back = t("btn.put_back_label", die=label) if from_yard else None
            items.append(DieView(die.id, i, letter, face, label, short, put_back=put_back,
                                 put_back_text=t("btn.put_back")))
            continue
        items.append(DieView(
            die.id, i, letter, face, label, short, button=True,
            selectable=choice is None and not page.readonly, selected=die.id in page.selected,
            focus=die.id == focus,
            just_rolled=die.id in rolled,
        ))
    return tuple(items)


COMMAND_LABELS = {
    Cmd.ROLL: "btn.roll", Cmd.BUILD: "btn.build", Cmd.ABANDON: "btn.abandon",
    Cmd.DEMOLISH: "btn.demolish", Cmd.END: "btn.end_turn", Cmd.UNDO: "btn.undo",
}


def _why(t, cmds: tuple[Command, ...]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """One line per reason: the disabled commands it greys out, then the reason."""
    groups: dict[str, list[Command]] = {}
    for cmd in cmds:
        if not cmd.enabled and cmd.reason:
            groups.setdefault(cmd.reason, []).append(cmd)
    return tuple(
        (tuple(c.name for c in group),
         t("why.line", commands=", ".join(c.label for c in group), reason=reason))
        for reason, group in groups.items()
    )


def _commands(page: PageState, board: Board, t) -> tuple[Command, ...]:
    """The turn panel's buttons, each greyed with the reason its rule gives
    (``app.turn.rules.panel``)."""
    state = board.state
    reasons = panel(page, board)
    names = [c for c in TURN_COMMANDS if c is not Cmd.ABANDON or not state.solo]
    return tuple(
        Command(
            name, t(COMMAND_LABELS[name]), reasons[name] is None, reasons[name],
            t(reasons[name]) if reasons[name] else None,
            primary=name == Cmd.ROLL and state.phase is Phase.ROLL,
        )
        for name in names
    )


def just_rolled(page: PageState, board: Board) -> tuple[int, ...]:
    """The dice the last action rolled, while that roll is new (``page.rolled`` is set
    by the controller after a roll and cleared by the next event): the tray animates
    them once and the narration can announce their faces."""
    state = board.state
    if not page.rolled or state.phase not in (Phase.RESOLVE, Phase.CONTINUE):
        return ()
    alive = {d.id for d in state.dice if d.face is not None}
    return tuple(i for i in page.rolled if i in alive)


def turn_view(page: PageState, board: Board, t, names) -> TurnView:
    state = board.state
    over = state.phase is Phase.OVER
    if over:
        title = t("turn.title_over")
    else:
        title = t("turn.title_solo") if state.solo else t("turn.title", name=names[state.seat])
    key, params = prompt_key(page, board, t, names)
    cmds = _commands(page, board, t)
    return TurnView(
        title=title,
        prompt=t(key, **params),
        phase="choose" if page.choice is not None else state.phase.name.lower(),
        choosing=page.choice is not None,
        over=over,
        tray=() if over else _tray(page, board, t),
        open_slots=3 - len(page.takes) if state.phase is Phase.TAKE else 0,
        commands=cmds,
        why=() if over else _why(t, cmds),
        just_rolled=() if over else just_rolled(page, board),
    )


def yard_view(page: PageState, board: Board, t) -> Yard:
    rows = []
    for i, letter in enumerate(TYPE_LETTERS):
        picked = sum(1 for d in page.takes if d == i)
        rows.append(YardRow(i, letter, t("yard.row." + letter), t("yard.faces." + letter),
                            picked, t("yard.picked", n=picked) if picked else ""))
    return Yard(tuple(rows), can_take_yard(page, board))


def district_view(page: PageState, board: Board, t) -> District | None:
    state = board.state
    if state.solo:
        return None
    dice = tuple(DistrictDie(TYPE_LETTERS[d], die_label(t, TYPE_LETTERS[d], None))
                 for d in state.district)
    return District(dice, can_take_district(page, board),
                    t("district.take", n=len(state.district)))


def players_view(page: PageState, board: Board, t, names,
                 since: tuple[LastTurn, ...] = ()) -> tuple[PlayerView, ...]:
    state = board.state
    marked = {last.seat: last for last in since}
    shown = shown_seat(page, board)
    over = state.phase is Phase.OVER
    choice = page.choice
    scores = board.scores()
    places = board.ranking() if over else [0] * len(state.players)
    out = []
    for seat, player in enumerate(state.players):
        active = seat == state.seat and not over
        demolish = active and isinstance(choice, DemolishChoice)
        build_targets: set[int] = set()
        if active and isinstance(choice, BuildChoice):
            build_targets = build_target_columns(state, choice)
        last = marked.get(seat)
        tiles = []
        for i, b in enumerate(player.buildings):
            kind = FACE_LETTERS[b.kind]
            label = t("tile.label", kind=t("kind.short." + kind), height=b.height,
                      points=b.points)
            tiles.append(TileView(i, kind, b.height, b.points, label,
                                  t("tile.points", points=b.points), demolish,
                                  t("target.demolish", what=label),
                                  last is not None and i in last.tiles))
        columns = []
        for i, col in enumerate(player.columns):
            kind = FACE_LETTERS[col.kind]
            # what the final scoring makes of it, at every moment, as the score and the
            # building count do: a lone low-rise ground floor is a building of one point
            counts = scores_as_tile(col)
            label = (t("column.label_counts", kind=t("kind.short." + kind), points=1) if counts
                     else t("column.label", kind=t("kind.short." + kind), height=col.height))
            target = "demolish" if demolish else ("build" if i in build_targets else None)
            what = "target.demolish" if target == "demolish" else "target.build"
            as_tile = t("tile.points", points=1) if counts else None
            columns.append(ColumnView(i, kind, col.height, label, target, t(what, what=label),
                                      as_tile,
                                      last is not None and i in last.columns))
        score = scores[seat]
        # the final scoring's count (lone low-rise ground floors included), as the score is
        buildings = completed_count(player)
        seat_kind = page.seat_kind(seat)
        start = seat == state.start_seat and not state.solo
        score_label = t("player.score", score=score)
        summary = [t("scoreboard.seat", name=names[seat], score=score_label,
                     buildings=t("scoreboard.buildings", n=buildings))]
        if start:
            summary.append(t("player.start"))
        if active and not state.solo:
            summary.append(t("player.to_move"))
        out.append(PlayerView(
            seat=seat, name=names[seat], label=t("player.label", name=names[seat]),
            kind=seat_kind, active=active,
            start=start,
            to_move=active and not state.solo, score=score,
            score_label=score_label, tiles=tuple(tiles),
            columns=tuple(columns),
            computer=t("seat.bot." + seat_kind.level) if seat_kind.level is not None else None,
            elsewhere=_elsewhere(page, seat, t) if seat_kind.is_friend else None,
            score_unit=t("player.points_short", n=score),
            buildings=buildings, summary=", ".join(summary),
            show=t("scoreboard.show", seat=", ".join(summary)), shown=seat == shown,
            place=places[seat],
        ))
    return tuple(out)


def _elsewhere(page: PageState, seat: int, t) -> str:
    """What the scoreboard says of a friend's seat: elsewhere, or at a live table whether
    that friend's device is connected now."""
    if page.live is None:
        return t("player.elsewhere")
    return t("player.live_away" if seat in page.live.away else "player.live_connected")


def scoring_view(page: PageState, board: Board, t, best: dict, names) -> Scoring:
    state = board.state
    info = read_summary(state)
    rows = []
    for r in info.players:
        chips = tuple((b.kind.letter, t("score.chip", height=b.height, points=b.points))
                      for b in r.buildings)
        rows.append(ScoreRow(
            seat=r.seat, rank=r.rank, name=names[r.seat], chips=chips,
            none_text=None if chips else t("score.none"),
            converted=t("score.converted", n=r.converted) if r.converted else "–",
            discarded=t("score.discarded", n=len(r.discarded)) if r.discarded else None,
            score=r.score, completed=t("score.completed_n", n=r.completed),
        ))
    shown = names
    names = [shown[s] for s in info.winners]
    lines = []
    if state.solo:
        r = info.players[0]
        level = info.level
        lines.append(t("result.solo_level", level=t("level." + level)) if level
                     else t("result.solo_no_level"))
        if info.scenario:
            key = "result.scenario_met" if info.scenario_met else "result.scenario_failed"
            lines.append(t(key, scenario=t("scenario." + info.scenario)))
        if page.beat is not None:
            key = "result.beat_yes" if r.score > page.beat else (
                "result.beat_tie" if r.score == page.beat else "result.beat_no")
            lines.append(t(key, score=page.beat))
        record = best.get(info.scenario or "-")
        if isinstance(record, int):
            lines.append(t("result.best", score=record))
        headline = t("result.solo_total", score=r.score)
    else:
        if len(names) == 1:
            headline = t("result.winner", name=names[0])
        else:
            headline = t("result.shared", names=", ".join(names))
        if info.tie_break:
            lines.append(t("result.tie_break"))
            if len(names) > 1:
                lines.append(t("result.still_tied"))
        else:  # the rule behind the ranks below, in the rules' words
            lines.append(t("result.ranking_rule"))
    # by rank (the tie-break is stated above), seat order among equals
    return Scoring(headline, tuple(lines), tuple(sorted(rows, key=lambda r: (r.rank, r.seat))))
