"""Scoring: points, ranks, the solo levels and scenarios, and the game's summary
(:func:`game_summary`). Lone low-rise ground floors are converted in one place,
:func:`lone_low_rises`."""

from __future__ import annotations

from dataclasses import dataclass

from .state import (
    Building,
    Column,
    GameState,
    O,
    P,
    Phase,
    Player,
)

SOLO_LEVELS = (
    (100, "urban-overseer"),
    (90, "master-planner"),
    (80, "urban-planner"),
    (70, "principal-architect"),
    (60, "senior-architect"),
    (50, "junior-architect"),
    (40, "project-manager"),
)


def scores_as_tile(column: Column) -> bool:
    """Whether an unfinished building is scored as a completed height-1 building (1
    point): a purple (low-rise) ground floor. The one place this rule is written;
    :func:`lone_low_rises` counts them.

    >>> scores_as_tile(Column(P, 1))
    True
    """
    return column.kind is P


def lone_low_rises(player: Player) -> int:
    """Unfinished purple (low-rise) ground floors: each is scored as a completed height-1
    building (1 point); :func:`final_buildings`, :func:`score`, :func:`completed_count`
    and :func:`game_summary` use this count."""
    return sum(1 for c in player.columns if scores_as_tile(c))


def final_buildings(player: Player) -> tuple[Building, ...]:
    """The scored skyline: completed buildings plus lone purple ground floors as
    height-1 tiles; other unfinished columns are discarded."""
    return player.buildings + (Building(P, 1),) * lone_low_rises(player)


def score(player: Player) -> int:
    """Points of a skyline; the same during play and at the end."""
    return sum(b.height * b.height for b in player.buildings) + lone_low_rises(player)


def completed_count(player: Player) -> int:
    """Completed buildings, lone low-rise ground floors included (the tie-break)."""
    return len(player.buildings) + lone_low_rises(player)


def ranking(state: GameState) -> list[int]:
    """Rank of each seat (1 = winner), ties on points and completed buildings shared."""
    keys = [(score(p), completed_count(p)) for p in state.players]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def solo_level(points: int) -> str | None:
    """The solo title reached with ``points``, or None below 40."""
    for threshold, title in SOLO_LEVELS:
        if points >= threshold:
            return title
    return None


#: Each solo scenario as a count and a bound: (what is counted, the bound, at least?).
#: ``at_least``: the count must reach the bound; otherwise it must not exceed it.
SCENARIO_GOALS: dict[str, tuple[str, int, bool]] = {
    "dubai": ("height_3", 3, True),
    "essen": ("demolitions", 0, False),
    "new-york": ("height_5_6", 2, True),
    "sao-paolo": ("height_4", 4, True),
    "shanghai": ("low_rise", 0, False),
    "toronto": ("buildings", 7, False),
    "tucson": ("high_rise", 0, False),
}


def _scenario_count(scenario: str, player: Player) -> int:
    """What ``scenario`` counts in the skyline ``player`` would score now."""
    if scenario not in SCENARIO_GOALS:
        raise ValueError(f"scenario: unknown scenario {scenario!r}")
    what = SCENARIO_GOALS[scenario][0]
    if what == "demolitions":
        return player.demolitions
    final = final_buildings(player)
    if what == "buildings":
        return len(final)
    if what == "low_rise":
        return sum(1 for b in final if b.kind is P)
    if what == "high_rise":
        return sum(1 for b in final if b.kind is O)
    if what == "height_5_6":
        return sum(1 for b in final if b.height >= 5)
    return sum(1 for b in final if b.height == int(what[-1]))


def scenario_met(scenario: str, player: Player) -> bool:
    """Whether the final skyline of ``player`` fulfils a solo scenario."""
    _, bound, at_least = SCENARIO_GOALS.get(scenario, ("", 0, True))
    count = _scenario_count(scenario, player)
    return count >= bound if at_least else count <= bound


@dataclass(frozen=True, slots=True)
class ScenarioProgress:
    """How a solo scenario stands, judged on the skyline as it would score now.

    ``count`` is what the scenario counts (``counted``: ``height_3``, ``height_4``,
    ``height_5_6``, ``buildings``, ``low_rise``, ``high_rise`` or ``demolitions``),
    ``bound`` the number the goal names: ``at_least`` means ``count`` must reach it,
    otherwise ``count`` must not exceed it. ``met``: the goal holds now (at the end of
    the game, the verdict; equal to :func:`scenario_met`). ``settled``: nothing can
    change ``met`` any more (the game is over, or Essen after a demolition).
    """

    scenario: str
    counted: str
    count: int
    bound: int
    at_least: bool
    met: bool
    settled: bool


def scenario_progress(state: GameState) -> ScenarioProgress | None:
    """The solo scenario's standing in ``state`` (None without a scenario).

    >>> s = new_game(Options(("Ada",), seed="demo", scenario="dubai"))
    >>> p = scenario_progress(s)
    >>> (p.count, p.bound, p.at_least, p.met, p.settled)
    (0, 3, True, False, False)
    """
    scenario = state.options.scenario
    if scenario is None or not state.solo:
        return None
    player = state.players[0]
    counted, bound, at_least = SCENARIO_GOALS[scenario]
    count = _scenario_count(scenario, player)
    met = count >= bound if at_least else count <= bound
    over = state.phase is Phase.OVER
    return ScenarioProgress(
        scenario=scenario, counted=counted, count=count, bound=bound, at_least=at_least,
        met=met, settled=over or (counted == "demolitions" and not met),
    )


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat's scoring (see :class:`GameSummary`).

    ``buildings`` are the completed tiles; ``converted`` lone low-rise ground floors
    become height-1 tiles and ``discarded`` are the other unfinished columns (they score
    nothing); ``final`` is the scored skyline (tiles plus converted ground floors).
    ``completed`` counts ``final`` (the tie-break), ``rank`` is 1 for a winner.
    """

    seat: int
    name: str
    buildings: tuple[Building, ...]
    converted: int
    discarded: tuple[Column, ...]
    final: tuple[Building, ...]
    score: int
    completed: int
    rank: int
    demolitions: int


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The scoring of a game, at its end or so far (``over`` says which).

    ``winners`` are the seats ranked 1 (several: a shared win); ``tie_break`` is true when
    several players had the best points, so completed buildings decided. Solo only
    (None otherwise): ``level``, the title reached (None below 40, too); ``scenario`` and
    ``scenario_met`` (None without a scenario).
    """

    players: tuple[PlayerSummary, ...]
    over: bool
    winners: tuple[int, ...]
    tie_break: bool
    solo: bool
    level: str | None
    scenario: str | None
    scenario_met: bool | None

    def to_dict(self) -> dict[str, object]:
        """The plain-dict form (letters for kinds) of the former ``summary()``."""
        rows = [
            {
                "seat": p.seat,
                "name": p.name,
                "buildings": [[b.kind.letter, b.height, b.points] for b in p.buildings],
                "converted": p.converted,
                "discarded": [[c.kind.letter, c.height] for c in p.discarded],
                "final": [[b.kind.letter, b.height, b.points] for b in p.final],
                "score": p.score,
                "completed": p.completed,
                "rank": p.rank,
                "demolitions": p.demolitions,
            }
            for p in self.players
        ]
        out: dict[str, object] = {
            "players": rows, "over": self.over, "winners": list(self.winners),
            "tie_break": self.tie_break,
        }
        if self.solo:
            out["level"] = self.level
            out["scenario"] = self.scenario
            out["scenario_met"] = self.scenario_met
        return out


def game_summary(state: GameState) -> GameSummary:
    """The scoring of ``state`` for each seat: tiles, low-rise conversion, totals, ranks,
    and the solo level and scenario.

    >>> s = game_summary(new_game(Options(("Ada",), seed="demo")))
    >>> s.players[0].score, s.players[0].discarded, s.level, s.over
    (0, (Column(kind=<Face.ORANGE: 2>, height=1),), None, False)
    """
    ranks = ranking(state)
    players = tuple(
        PlayerSummary(
            seat=seat,
            name=player.name,
            buildings=player.buildings,
            converted=lone_low_rises(player),
            discarded=tuple(c for c in player.columns if c.kind is not P),
            final=final_buildings(player),
            score=score(player),
            completed=completed_count(player),
            rank=ranks[seat],
            demolitions=player.demolitions,
        )
        for seat, player in enumerate(state.players)
    )
    best = max(p.score for p in players)
    tie_break = len(players) > 1 and sum(1 for p in players if p.score == best) > 1
    solo = state.solo
    scenario = state.options.scenario if solo else None
    return GameSummary(
        players=players,
        over=state.phase is Phase.OVER,
        winners=tuple(p.seat for p in players if p.rank == 1),
        tie_break=tie_break,
        solo=solo,
        level=solo_level(players[0].score) if solo else None,
        scenario=scenario,
        scenario_met=None if scenario is None else scenario_met(scenario, state.players[0]),
    )
