"""The seven solo scenarios as the solver and the runtime model them.

A scenario adds one counter ``x`` to the solo model of :mod:`skyline.players.solo_model`
(appended to the column counts). This module says, for each scenario, what ``x`` counts,
how completing or demolishing a building changes it, and when the final skyline meets the
scenario (judged exactly as :func:`skyline.rules.scenario_met` judges it, see
``RULINGS.md``). The runtime keeps ``x`` exact (uncapped); the solver's tables cap it at
``cap`` (a count at the cap means "at least the cap").

=========  ===============================  ============  ===========================
scenario   ``x`` counts                     cap           met at the end when
=========  ===============================  ============  ===========================
dubai      completed buildings of height 3  3             ``x >= 3``
essen      demolitions (0 or 1 is enough)   1             ``x == 0``
new-york   completed buildings of height    2             ``x >= 2``
           5 or 6
sao-paolo  completed buildings of height 4  4             ``x >= 4``
shanghai   completed low-rise buildings     3             ``x == 0`` and no lone
                                                          low-rise ground floor
toronto    completed buildings              8             ``x + lone low-rise ground
                                                          floors <= 7``
tucson     completed high-rise buildings    1             ``x == 0``
=========  ===============================  ============  ===========================

The objective is ``score + SUCCESS_WEIGHT * met`` (see ``SUCCESS_WEIGHT``).

Stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["SCENARIO_MODELS", "SUCCESS_WEIGHT", "ScenarioModel"]

#: Points a scenario success is worth in the objective ``E[score] + SUCCESS_WEIGHT * P(met)``:
#: one percentage point of success probability outweighs 100 points of expected score, so
#: the objective ranks by the probability first and by the score among (practically) equal
#: probabilities.
SUCCESS_WEIGHT = 10_000.0


@dataclass(frozen=True)
class ScenarioModel:
    """What a scenario's counter counts and when it is met (see the module docstring)."""

    name: str
    cap: int

    # ----------------------------------------------------------------- transitions
    def is_counted(self, colour: str | None, height: int) -> bool:
        """Whether ``x`` counts a completed building of this colour and height (``colour``
        None: not known, then only what does not depend on the colour counts)."""
        n = self.name
        return (
            (n == "dubai" and height == 3)
            or (n == "new-york" and height >= 5)
            or (n == "sao-paolo" and height == 4)
            or (n == "shanghai" and colour == "purple")
            or n == "toronto"
            or (n == "tucson" and colour == "orange")
        )

    def complete(self, x: int, colour: str, height: int) -> int:
        """``x`` after completing a building of this colour and height."""
        return x + 1 if self.is_counted(colour, height) else x

    def demolish_tile(self, x: int, colour: str | None, height: int) -> int:
        """``x`` after demolishing a completed building (``colour`` None: not known, then
        only changes that do not depend on the colour are applied)."""
        if self.name == "essen":
            return x + 1
        return max(0, x - 1) if self.is_counted(colour, height) else x

    def demolish_column(self, x: int) -> int:
        """``x`` after demolishing an unfinished building."""
        return x + 1 if self.name == "essen" else x

    def met(self, x: int, lone_purple: int) -> bool:
        """Whether the final skyline meets the scenario (``x`` exact or capped)."""
        n = self.name
        if n == "dubai":
            return x >= 3
        if n == "essen":
            return x == 0
        if n == "new-york":
            return x >= 2
        if n == "sao-paolo":
            return x >= 4
        if n == "shanghai":
            return x == 0 and lone_purple == 0
        if n == "toronto":
            return x + lone_purple <= 7
        return x == 0  # tucson

    # ----------------------------------------------------------------- the solver's view
    def capped(self, x: int) -> int:
        return x if x < self.cap else self.cap

    def model_complete(self, x: int, colour: str, height: int) -> int:
        """Capped transition of the solver (a count at the cap stays there)."""
        return self.capped(self.complete(x, colour, height))

    def model_demolish_tile(self, x: int, colour: str | None, height: int) -> int:
        """Capped transition: at the cap the true count is unknown (at least the cap), so a
        decrement keeps it there (never better than the truth)."""
        if x >= self.cap and self.name != "essen":
            return x
        return self.capped(self.demolish_tile(x, colour, height))

    def model_demolish_column(self, x: int) -> int:
        return self.capped(self.demolish_column(x))

    # ----------------------------------------------------------------- from a skyline
    def count(self, buildings: Iterable[tuple[str, int]], demolitions: int) -> int:
        """Exact ``x`` of a skyline: completed buildings as (colour, height), the number of
        demolitions so far."""
        if self.name == "essen":
            return 1 if demolitions else 0
        x = 0
        for colour, height in buildings:
            x = self.complete(x, colour, height)
        return x


SCENARIO_MODELS: dict[str, ScenarioModel] = {
    m.name: m
    for m in (
        ScenarioModel("dubai", 3),
        ScenarioModel("essen", 1),
        ScenarioModel("new-york", 2),
        ScenarioModel("sao-paolo", 4),
        ScenarioModel("shanghai", 3),
        ScenarioModel("toronto", 8),
        ScenarioModel("tucson", 1),
    )
}
