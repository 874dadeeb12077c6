"""The expert at a table of 2-4 players: a search over its own turn that plays to win.

Solo, the expert maximises its expected score (:mod:`skyline.players.expert`). With opponents the
goal is to *win*, so this policy searches the whole of its own turn (take, every roll,
build, abandon, reroll, end) by expectimax and values each end-of-turn position by the
**probability of finishing first**:

* its own final score is modelled as normal, with mean the solo value of its skyline at
  the end of the turn (:func:`skyline.players.solo_value.value`: banked points plus the table's
  expected points still to come with the turns it has left) and a standard deviation by
  turns left *and* points still to come (:data:`SPREAD`, fitted to solo expert games by
  ``scripts/fit_table_expert.py``): a skyline with much unbanked is riskier, so when far
  ahead the search banks points and when far behind it keeps the big chances open;
* every opponent's final score likewise, from the solo value and spread of its actual
  skyline and turns left, minus its **trend**: the solo value it lost per turn so far
  (shrunk by :data:`TREND_PRIOR`) is expected to be lost again in each turn it has left,
  so an opponent playing worse than the solo expert is not feared as one;
* **end-game race** (standard game): a position in which the search completed a six-high
  building ends the game with this round: the expert's score is then final, opponents who
  still play this round get exactly one more turn, the others are done. So the search takes
  an end trigger when it wins the race and avoids it when it would lose it, with the real
  odds instead of a fixed bonus;
* **end threat** (two players, standard game): an opponent with an orange five-high may
  complete the six in its next turn (chance :data:`THREAT_Q`) and end the game, which it
  does when that wins it the game; then only the expert's turns until then count;
* **district**: every die beyond three left in the district raises the next player's
  expected final score by :data:`DISTRICT_DIE` points (it may take them as extra dice), so
  abandoning a die, or leaving a big district untaken, costs exactly what it gives the
  next player in win probability; taking a district of more than three dice is valued as
  its best three types plus :data:`DISTRICT_DIE` for each further die.

Within the turn the search differs from the solo one: abandoning (a free drop for the
own skyline) is always possible, so a roll never forces a demolition, and rerolling is
valued accordingly. Demolishing is never chosen (abandoning the die instead is at least as
good for the own skyline). A hand of more than :data:`MAX_HAND` dice (after a big district)
is searched on its most promising dice; the others are spare.

The win probability of ``n`` normals is evaluated exactly for two players and by a fixed
quadrature otherwise. The spreads are measured; :data:`DISTRICT_DIE` is the earlier
expert's extra-die value, and :data:`SPREAD_SCALE` 0.6 instead of 1.0 made no measurable
difference in 400 four-player games against ``expert1`` (self-play with common random
numbers: ``scripts/bench_bots.py --duel expert,expert1,4``). The spread by points to
come together with the end threat (chance 0.5 guessed: about 2/3 for a player who takes
three penthouses for it) raised the two-player win rate against ``expert1`` from 59.5 % to
60.8 % (paired difference +1.2 %, se 0.8 %, 1,500 games) and against greedy from 94.6 %
(2,000 games) to 95.4 % (2,000 games, the same seeds); the trend (:data:`TREND_PRIOR` 5
against off) made no measurable difference against ``expert1`` (+0.1 %, se 0.4 %) nor
(2 against off) against greedy (+0.0 %, se 0.3 %): against these bots it rarely changes a
choice that matters; it is kept for opponents weaker than the solo expert (people). All measured by
``scripts/tune_table_expert.py`` (seed ``tune``). Everything is deterministic and does no
I/O.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from ..rules import (
    Abandon,
    Action,
    Build,
    Die,
    DieType,
    EndTurn,
    Face,
    GameState,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    ranking,
    score,
)
from . import solo_value as sv
from .adapter import (
    column_index,
    die_kind,
    distinct,
    outcomes,
    promising,
    reroll_dist,
    rerolls,
    still_to_play,
)
from .solo_model import build_moves, position

__all__ = [
    "DISTRICT_DIE", "MAX_HAND", "SPREAD", "TableOption", "table_chances", "table_options",
    "value_after",
]

#: Spread of (final score - solo value) by turns left (index 0..9) and the points still to
#: come ``g`` (solo value minus the score if the game ended now): the standard deviation is
#: ``sqrt(a * max(1, g) ** p)`` with ``(a, p)`` per turns left, fitted by maximum likelihood
#: to 2,000 (standard) and 1,500 (all nine rounds) solo expert games
#: (``scripts/fit_table_expert.py``). A skyline with more points still unbanked is
#: riskier, most of all in the last two turns (p about 1.7 and 1.1).
SPREAD: dict[str, tuple[tuple[float, float], ...]] = {
    "standard": ((0.0, 0.0), (0.613, 1.7), (2.2025, 1.15), (26.5188, 0.475), (204.1045, 0.0),
                 (24.1619, 0.5), (112.6771, 0.15), (74.4342, 0.25), (227.8675, 0.0),
                 (229.9767, 0.0)),
    "nine": ((0.0, 0.0), (0.3884, 1.825), (1.9771, 1.125), (0.4198, 1.425), (0.5794, 1.35),
             (2.1844, 1.05), (2.8031, 1.0), (6.0723, 0.825), (69.2981, 0.275),
             (234.6703, 0.0)),
}
#: The earlier spread by turns left only (1,500 solo expert games per mode), used when
#: :data:`SPREAD_BY_GAIN` is off (a baseline for ``scripts/tune_table_expert.py``).
SPREAD_TURNS: dict[str, tuple[float, ...]] = {
    "standard": (0.0, 10.92, 12.47, 13.42, 13.92, 14.36, 14.56, 14.73, 14.86, 14.88),
    "nine": (0.0, 10.33, 12.70, 14.18, 14.79, 15.32, 15.62, 15.94, 16.06, 16.08),
}
SPREAD_BY_GAIN = True
#: Multiplier on :data:`SPREAD` (tuned by self-play).
SPREAD_SCALE = 1.0
#: Expected points a die beyond three in the district gives the player who takes it.
DISTRICT_DIE = 2.0
#: Scores closer than this are treated as a toss-up (ties, tie-breaks).
MIN_SPREAD = 0.7
#: A hand of more dice is searched on this many most promising dice.
MAX_HAND = 4
#: Opponent trend: an opponent whose solo value fell by ``D`` points over ``k`` turns is
#: expected to lose ``D / (k + TREND_PRIOR)`` more points per turn it has left.
TREND_PRIOR = 5.0
#: The chart's (:func:`table_chances`) model by the number of players: the points per turn
#: a player falls short of its solo value before it shows its own trend, per place in the
#: turn order (start player first); that prior's weight in turns against its own trend;
#: whether it is measured from the solo optimum. Fitted by ``scripts/bench_calibration.py``:
#: the shortfalls so that a chance changes by 0 on average over the seat's own turn (it
#: fell by 2.4 points without them), the weight by the Brier score (2p: 0.0970 at 5, 0.0956).
CHART_SHORTFALL: dict[int, tuple[float, ...]] = {2: (2.84, 3.07), 3: (2.6,) * 3, 4: (1.7,) * 4}
CHART_TREND_PRIOR: dict[int, float] = {2: 1.5, 3: TREND_PRIOR, 4: TREND_PRIOR}
CHART_FROM_OPTIMUM: frozenset[int] = frozenset({2})
#: Two players, standard game: the chance that an opponent with an orange column of height
#: 5 completes the six-high building in its next turn when that wins it the game (it then
#: ends the game with that round), and the points it adds to its score by doing so.
THREAT_Q = 0.5
THREAT_POINTS = 40.0
THREAT_SPREAD = 5.0
#: Gift columns by turn order (start player first), as :func:`skyline.rules.new_game`.
_GIFTS = (("orange", 1),), (("blue", 1),), (("purple", 1),), ()


@dataclass(frozen=True)
class TableOption:
    """One choice: the engine action, the expected final score of the own skyline after
    it, and the probability of winning the expert ranks by."""

    action: Action
    value: float
    win: float


# --------------------------------------------------------------------------- win chance

#: Quadrature over the own score: standard normal points and weights (sum 1).
_Z = tuple(-4.0 + 0.25 * i for i in range(33))
_W0 = tuple(math.exp(-z * z / 2) for z in _Z)
_W = tuple(w / sum(_W0) for w in _W0)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def win_chance(mine: float, spread: float, others: Sequence[tuple[float, float]]) -> float:
    """P(own score > every other) for independent normals: own mean ``mine`` and sd
    ``spread``; ``others`` = (mean, sd) per opponent."""
    if not others:
        return 1.0
    if len(others) == 1:
        mu, sd = others[0]
        s = max(MIN_SPREAD, math.hypot(spread, sd))
        return _phi((mine - mu) / s)
    if spread < MIN_SPREAD:
        out = 1.0
        for mu, sd in others:
            out *= _phi((mine - mu) / max(MIN_SPREAD, sd))
        return out
    total = 0.0
    for z, w in zip(_Z, _W, strict=True):
        x = mine + spread * z
        p = w
        for mu, sd in others:
            p *= _phi((x - mu) / max(MIN_SPREAD, sd))
        total += p
    return total


# --------------------------------------------------------------------------- the table


def _spread(mode: str, turns: int, gain: float) -> float:
    """Standard deviation of the final score of a skyline with ``turns`` left and ``gain``
    points still to come (:data:`SPREAD`)."""
    turns = max(0, min(9, turns))
    if not SPREAD_BY_GAIN:
        return SPREAD_SCALE * SPREAD_TURNS[mode][turns]
    a, p = SPREAD[mode][turns]
    return SPREAD_SCALE * math.sqrt(a * max(1.0, gain) ** p)


def _pos_spread(pos: sv.SoloPosition) -> float:
    return _spread(pos.mode, pos.turns_left, sv.value(pos) - pos.final_score)


def _drift(state: GameState, seat: int, pos: sv.SoloPosition, prior: float = 0.0) -> float:
    """Points per turn the player at ``seat`` (its position ``pos``) is expected to fall
    short of its solo value: how far its solo value (with the turns a full game leaves it)
    fell since its start, per turn played, shrunk by :data:`TREND_PRIOR` turns towards
    ``prior`` points per turn (0: as well as the solo expert; the chart has its own)."""
    if TREND_PRIOR < 0:
        return 0.0
    n = len(state.players)
    played = state.round - 1 + (0 if still_to_play(state, seat) else 1)
    if played <= 0:
        return prior
    order = (seat - state.start_seat) % n
    mode = "nine" if state.options.all_nine else "standard"
    start = sv.value(sv.SoloPosition.from_columns(9, _GIFTS[order], (), mode))
    now = sv.value(replace(pos, turns_left=max(0, 9 - played)))
    return (max(0.0, start - now) + prior * TREND_PRIOR) / (played + TREND_PRIOR)


class _Table:
    """The opponents as seen from the active player's decision: their expected finals and
    spreads, for the game going on and for the game ending with this round."""

    def __init__(self, state: GameState) -> None:
        self.mode = "nine" if state.options.all_nine else "standard"
        n = len(state.players)
        me = state.seat
        order = [(me + k) % n for k in range(1, n)]
        self.next_seat = order[0]
        self.going: list[tuple[float, float]] = []
        self.ending: list[tuple[float, float]] = []
        self.next_index = -1
        for seat in order:
            pos = position(state, seat)
            if seat == self.next_seat and pos.turns_left > 0:
                self.next_index = len(self.going)
            drift = _drift(state, seat, pos)
            self.going.append((sv.value(pos) - drift * pos.turns_left, _pos_spread(pos)))
            if still_to_play(state, seat) and not state.six_completed:
                last = replace(pos, turns_left=1)
                self.ending.append((sv.value(last) - drift, _pos_spread(last)))
            elif state.six_completed:
                self.ending.append(self.going[-1])
            else:
                self.ending.append((float(score(state.players[seat])), 0.0))
        #: (chance, opponent's final, own turns left) of the opponent ending the game with
        #: a six-high building in its next turn (two players, standard game), or None
        self.threat: tuple[float, float, int] | None = None
        opp = state.players[self.next_seat]
        if (n == 2 and self.mode == "standard" and not state.six_completed and THREAT_Q > 0
                and any(c.kind is Face.ORANGE and c.height == 5 for c in opp.columns)):
            after = 0 if still_to_play(state, self.next_seat) else 1
            self.threat = (THREAT_Q, score(opp) + THREAT_POINTS, after)
        self.memo: dict[tuple[float, int, bool, float], float] = {}

    def win(self, mine: float, spread: float, district_extra: int, ended: bool) -> float:
        key = (mine, district_extra, ended, spread)
        u = self.memo.get(key)
        if u is None:
            others = list(self.ending if ended else self.going)
            if district_extra > 0 and self.next_index >= 0 and not ended:
                mu, sd = others[self.next_index]
                others[self.next_index] = (mu + DISTRICT_DIE * district_extra, sd)
            u = self.memo[key] = win_chance(mine, spread, others)
        return u


# --------------------------------------------------------------------------- the search


class _Search:
    """Expectimax over the rest of the own turn. A node is (column counts as in the solo
    table, banked points, dice in the district, hand of sorted kinds, resolved since the
    last roll, six-high completed); its value is (win chance, expected own final score) of
    the best choice by win chance. One search serves a whole turn (its memo stays valid)."""

    def __init__(self, pos: sv.SoloPosition, table: _Table, bonus: float) -> None:
        self.mode = pos.mode
        self.t = pos.turns_left
        self.table = table
        self.bonus = bonus
        self.std = pos.mode == "standard"
        self.ended0 = self.std and 6 in pos.tiles
        self.lookup = sv.load_table().lookup
        self.memo: dict[tuple, tuple[float, float]] = {}
        self.leaves: dict[tuple, tuple[float, float]] = {}
        self.moves_memo: dict[tuple[int, ...], tuple] = {}

    def moves(self, cols: tuple[int, ...]) -> tuple:
        """Builds per kind at ``cols``: ((points, cols after, tile height, from class), ...)."""
        mv = self.moves_memo.get(cols)
        if mv is None:
            mv = self.moves_memo[cols] = build_moves(cols)
        return mv

    def leaf(self, cols: tuple[int, ...], pts: int, dis: int, ended: bool) -> tuple[float, float]:
        """The turn ends here: (win chance, expected own final score)."""
        key = (cols, pts, dis, ended)
        r = self.leaves.get(key)
        if r is None:
            t = self.t
            if ended or t <= 1:
                mine = self.bonus + pts + cols[0]
                spread = 0.0
            else:
                ahead = self.lookup(self.mode, t - 1, cols)[0]
                mine = self.bonus + pts + ahead
                spread = _spread(self.mode, t - 1, ahead - cols[0])
            # a six completed in this turn (not earlier this round) ends the game with it
            race = ended and not self.ended0 and t > 1
            u = self.table.win(mine, spread, max(0, dis - 3), race)
            threat = self.table.threat
            if threat is not None and not ended and t - 1 > threat[2]:
                # the opponent may end the game in its next turn: then only the turns
                # until then count (none, or one if it plays first next round)
                q, theirs, after = threat
                ahead = self.lookup(self.mode, 1, cols)[0] if after else cols[0]
                end = self.bonus + pts + ahead
                if theirs > end:
                    lost = win_chance(end, _spread(self.mode, after, ahead - cols[0]),
                                      [(theirs, THREAT_SPREAD)])
                    u = (1.0 - q) * u + q * lost
            r = self.leaves[key] = (u, mine)
        return r

    def node(
        self, cols: tuple[int, ...], pts: int, dis: int, hand: tuple[int, ...], flag: bool,
        ended: bool,
    ) -> tuple[float, float]:
        if not hand:
            return self.leaf(cols, pts, dis, ended)
        key = (cols, pts, dis, hand, flag, ended)
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = self._best(cols, pts, dis, hand, flag, ended)
        return r

    def reroll(
        self, cols: tuple[int, ...], pts: int, dis: int, kept: tuple[int, ...],
        types: tuple[int, ...], ended: bool,
    ) -> tuple[float, float]:
        """(win, value) of rerolling dice of ``types``, keeping ``kept``."""
        u = v = 0.0
        node = self.node
        for h2, p in reroll_dist(kept, types):
            a, b = node(cols, pts, dis, h2, False, ended)
            u += p * a
            v += p * b
        return u, v

    def _best(
        self, cols: tuple[int, ...], pts: int, dis: int, hand: tuple[int, ...], flag: bool,
        ended: bool,
    ) -> tuple[float, float]:
        """The best (win, value) at a node: :meth:`options` without the list (the same
        order, so the same choice on ties), the search's inner loop."""
        r = (-1.0, 0.0)
        best = -1.0
        moves = self.moves(cols)
        std = self.std
        node = self.node
        for kind, rest in distinct(hand):
            for p, c2, th, _rem in moves[kind]:
                r2 = node(c2, pts + p, dis, rest, True, ended or (std and th == 6))
                if r2[0] > best:
                    best = r2[0]
                    r = r2
        if flag:
            r2 = self.leaf(cols, pts, dis, ended)
            if r2[0] > best:
                best = r2[0]
                r = r2
            for kept, types in rerolls(hand):
                r2 = self.reroll(cols, pts, dis, kept, types, ended)
                if r2[0] > best:
                    best = r2[0]
                    r = r2
        else:
            for _kind, rest in distinct(hand):
                r2 = node(cols, pts, dis + 1, rest, True, ended)
                if r2[0] > best:
                    best = r2[0]
                    r = r2
        return r

    def options(
        self, cols: tuple[int, ...], pts: int, dis: int, hand: tuple[int, ...], flag: bool,
        ended: bool,
    ) -> list[tuple[tuple, tuple[float, float]]]:
        """(raw action, (win, value)) for every choice at a node, in a fixed order (ties go
        to the earlier one): builds, end, rerolls, abandons. Raw actions:
        ("build", kind, from class), ("end",), ("reroll", kept kinds), ("abandon", kind)."""
        out: list[tuple[tuple, tuple[float, float]]] = []
        moves = self.moves(cols)
        std = self.std
        node = self.node
        for kind, rest in distinct(hand):
            for p, c2, th, rem in moves[kind]:
                r = node(c2, pts + p, dis, rest, True, ended or (std and th == 6))
                out.append((("build", kind, rem), r))
        if flag:
            out.append((("end",), self.leaf(cols, pts, dis, ended)))
            for kept, types in rerolls(hand):
                out.append((("reroll", kept), self.reroll(cols, pts, dis, kept, types, ended)))
        else:
            # must resolve: abandoning is the free drop (once resolved, keeping a die is
            # at least as good as abandoning it, so it is only offered here)
            for kind, rest in distinct(hand):
                out.append((("abandon", kind), node(cols, pts, dis + 1, rest, True, ended)))
        return out

    def take(
        self, cols: tuple[int, ...], pts: int, dis: int, types: tuple[int, ...]
    ) -> tuple[float, float]:
        """(win, value) of rolling dice of ``types`` (sorted type indices) now."""
        u = v = 0.0
        for hand, p in outcomes(types):
            a, b = self.node(cols, pts, dis, hand, False, self.ended0)
            u += p * a
            v += p * b
        return u, v


# --------------------------------------------------------------------------- per turn cache

_CACHE: dict[tuple, _Search] = {}


def _search(state: GameState, bonus: float = 0.0) -> tuple[_Search, tuple[int, ...], int]:
    """The search of this turn (its memo is kept while the turn goes on), the column
    counts and the banked points of the active player now."""
    pos = position(state)
    key = (state.options, state.round, state.seat, state.six_completed, pos.turns_left,
           tuple(p for i, p in enumerate(state.players) if i != state.seat), bonus)
    s = _CACHE.get(key)
    if s is None:
        if len(_CACHE) > 8:
            _CACHE.clear()
        s = _CACHE[key] = _Search(pos, _Table(state), bonus)
    return s, sv.ext_counts(pos), pos.banked


# --------------------------------------------------------------------------- options


def table_options(state: GameState) -> list[TableOption]:
    """Every choice considered at this decision (2-4 players), best win chance first."""
    return list(_table_options(state))


# The same position is weighed again when a game is reviewed after the expert played it,
# or reviewed again after a reload: a few hundred positions cover a game.
@functools.lru_cache(maxsize=1024)
def _table_options(state: GameState) -> tuple[TableOption, ...]:
    return tuple(_options(state))


def _options(state: GameState) -> list[TableOption]:
    phase = state.phase
    if phase is Phase.OVER or state.solo:
        return []
    dis = len(state.district)
    if phase is Phase.TAKE:
        s, cols, pts = _search(state)
        out = []
        for a in range(3):
            for b in range(a, 3):
                for c in range(b, 3):
                    u, v = s.take(cols, pts, dis, (a, b, c))
                    out.append(TableOption(Take((DieType(a), DieType(b), DieType(c))), v, u))
        if dis > 3:
            u, v = _rich_take(state, tuple(sorted(int(t) for t in state.district)), 3)
            out.append(TableOption(TakeDistrict(), v, u))
        return _ranked(out)
    if phase is Phase.ROLL:
        types = tuple(sorted(int(d.type) for d in state.dice))
        u, v = _rich_take(state, types, dis)
        return [TableOption(Roll(tuple(d.id for d in state.dice)), v, u)]
    s, cols, pts = _search(state)
    dice = list(state.dice)
    focus = dice
    if len(dice) > MAX_HAND:
        focus = promising(state, dice)[:MAX_HAND]
    kinds = [die_kind(d) for d in focus]
    hand = tuple(sorted(kinds))
    flag = phase is Phase.CONTINUE
    ended = s.ended0 or bool(state.six_completed and s.std)
    out = [TableOption(_to_engine(state, focus, kinds, raw), v, u)
           for raw, (u, v) in s.options(cols, pts, dis, hand, flag, ended)]
    spare = [d for d in dice if d not in focus]
    if spare:
        # a spare die abandoned keeps the focus hand (and meets the must-resolve rule)
        u, v = s.node(cols, pts, dis + 1, hand, True, ended)
        out.append(TableOption(Abandon((spare[-1].id,)), v, u))
    return _ranked(out)


def value_after(state: GameState, after: GameState) -> tuple[float, float]:
    """(win chance, expected own final score) of ``after``, the position an action of the
    active player at ``state`` (2-4 players) led to, as the expert values it: while the
    turn goes on, its best option there (:func:`table_options`: the rest of the turn
    searched); once the turn is over (the next player's turn, or the game's end), the
    end-of-turn value of this decision's search (the same leaf every option of
    :func:`table_options` is built from). A review grades with it an action the option
    list does not name: a demolition, several dice abandoned at once, a die beyond the
    search's focus of :data:`MAX_HAND` dice."""
    seat = state.seat
    if after.phase is not Phase.OVER and (after.round, after.seat) == (state.round, seat):
        options = table_options(after)
        if options:
            return options[0].win, options[0].value
    s, _cols, _pts = _search(state)
    pos = position(after, seat)
    ended = s.std and (bool(state.six_completed) or 6 in pos.tiles)
    win, value = s.leaf(sv.ext_counts(pos), pos.banked, len(after.district), ended)
    return win, value


def table_chances(state: GameState) -> tuple[float, ...]:
    """Every seat's chance of finishing first (0..1, summing to 1) as the expert's model
    sees the table between turns: each final score normal around its solo value minus the
    seat's shortfall per turn left (its trend, as :class:`_Table` sees an opponent, shrunk
    by :data:`CHART_TREND_PRIOR` turns towards :data:`CHART_SHORTFALL`), with its spread by
    turns and points still to come. For :data:`CHART_FROM_OPTIMUM` a trend is measured from
    the solo optimum (82.2) and a seat that has not played is valued as the start player:
    the solo table's fallback values the second player's blue ground floor at 89.8, which
    opened two-player charts at 36 % / 64 % (the start player wins 54 %) and charged that
    player's first turn as trend. At the game's end it is the result: the winners share 1
    (a tie after the tie-break shares the win)."""
    n = len(state.players)
    if state.phase is Phase.OVER:
        ranks = ranking(state)
        winners = [i for i in range(n) if ranks[i] == 1]
        return tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(n))
    optimum = n in CHART_FROM_OPTIMUM
    finals = []
    for seat in range(n):
        pos = position(state, seat)
        order = (seat - state.start_seat) % n
        gift = _GIFTS[0] if optimum else _GIFTS[order]
        prior, weight = CHART_SHORTFALL[n][order], CHART_TREND_PRIOR[n]
        played = state.round - 1 + (0 if still_to_play(state, seat) else 1)
        drift = prior
        if played > 0:
            start = sv.value(sv.SoloPosition.from_columns(9, gift, (), pos.mode))
            now = sv.value(replace(pos, turns_left=max(0, 9 - played)))
            drift = (max(0.0, start - now) + prior * weight) / (played + weight)
        elif optimum:  # its gift only: valued as the start player's
            pos = sv.SoloPosition.from_columns(pos.turns_left, gift, (), pos.mode)
        finals.append((sv.value(pos) - drift * pos.turns_left, _pos_spread(pos)))
    raw = [win_chance(mu, sd, finals[:i] + finals[i + 1:]) for i, (mu, sd) in enumerate(finals)]
    total = sum(raw)
    return tuple(p / total for p in raw) if total > 0 else tuple(1.0 / n for _ in raw)


def _rich_take(state: GameState, types: tuple[int, ...], dis: int) -> tuple[float, float]:
    """(win, value) of rolling dice of ``types``: up to MAX_HAND dice exactly; more (a big
    district) as the best MAX_HAND of them plus DISTRICT_DIE for each further die."""
    if len(types) <= MAX_HAND:
        s, cols, pts = _search(state)
        return s.take(cols, pts, dis, types)
    s, cols, pts = _search(state, DISTRICT_DIE * (len(types) - MAX_HAND))
    return max(s.take(cols, pts, dis, sub) for sub in set(combinations(types, MAX_HAND)))


def _to_engine(state: GameState, dice: Sequence[Die], kinds: Sequence[int], raw: tuple) -> Action:
    """The engine action for a raw search action over ``dice`` (kinds aligned)."""
    verb = raw[0]
    if verb == "end":
        return EndTurn()
    if verb == "reroll":
        need = list(raw[1])
        ids = []
        for d, k in zip(dice, kinds, strict=True):
            if k in need:
                need.remove(k)
            else:
                ids.append(d.id)
        return Roll(tuple(sorted(ids)))
    die = dice[kinds.index(raw[1])]
    if verb == "abandon":
        return Abandon((die.id,))
    rem = raw[2]
    if rem < 0:
        return Build(die.id, None)
    return Build(die.id, column_index(state.player.columns, sv.COLUMN_CLASSES[rem]))


def _ranked(options: list[TableOption]) -> list[TableOption]:
    """Best win chance first; ties keep the search's order (builds before ending before
    rerolls before abandons)."""
    return sorted(options, key=lambda o: -o.win)
