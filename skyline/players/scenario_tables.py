"""The scenario value tables: their file format and the ones in use.

One table per solo scenario and mode, ``data/scenarios/<scenario>-<mode>.bin`` in the
package, written by ``scripts/solve_scenarios.py``. A table is read only when its scenario
is played (:func:`load_scenario_table`); where the file is not in the package (the web
page) that raises :class:`MissingScenarioTable`, naming the file the host fetches before
asking again, or the host hands the bytes over (:func:`install_scenario_table`).

>>> scenario_table_path("essen", "nine")
'data/scenarios/essen-nine.bin'
>>> scenario_table_path("atlantis", "nine")
Traceback (most recent call last):
...
ValueError: no scenario table for 'atlantis' / 'nine'
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from .deferred import MissingTable
from .scenario_model import SCENARIO_MODELS, SUCCESS_WEIGHT
from .value_table import decode_levels, encode_levels, linear_fit, read_header, write_table

__all__ = [
    "SCENARIO_MAGIC", "MissingScenarioTable", "ScenarioTable", "has_scenario_table",
    "install_scenario_table", "load_scenario_table", "prepare_scenario", "scenario_table_path",
    "set_scenario_table",
]

SCENARIO_MAGIC = b"SKYSCEN1"


class ScenarioTable:
    """Values of one solo scenario in one mode (``scripts/solve_scenarios.py``).

    Per turn level and shipped count vector (10 solo counts + the scenario counter, capped
    at ``caps``) two numbers under the policy optimal for ``score + SUCCESS_WEIGHT * met``:
    the expected points still to come ``S`` and the probability ``P`` of meeting the
    scenario. ``lookup`` gives the objective ``S + SUCCESS_WEIGHT * P``.

    Binary format::

        b"SKYSCEN1", u32 little-endian header length, JSON header, one zlib blob: the
        byte-plane shuffled u32 index deltas, i32 deltas of round(S * scale), i32 deltas of
        round(P * p_scale), all levels one after the other (entries per level in
        header["counts"], indices sorted per level, deltas from 0 per level). The flat index
        is mixed radix over ``caps + 1`` with the scenario counter most significant and the
        solo counts after it, the last fastest.

    Missing entries fall back to the header's per-level linear fits of S and P (inexact).
    """

    def __init__(self, header: dict, blob: bytes) -> None:
        self.meta = header
        self.caps = tuple(header["caps"])
        self.mode = header["mode"]
        self.scenario = header["scenario"]
        self.scale = header["scale"]
        self.p_scale = header["p_scale"]
        self._blob: bytes | None = blob
        self._levels: list = []
        # flat index: the scenario counter (last count) is the most significant digit, then
        # the solo counts in order, the last fastest (entries of one counter value together
        # compress better)
        self.radix: list[int] = [0] * len(self.caps)
        r = 1
        for k in range(len(self.caps) - 2, -1, -1):
            self.radix[k] = r
            r *= self.caps[k] + 1
        self.radix[-1] = r

    @classmethod
    def from_bytes(cls, data: bytes) -> ScenarioTable:
        header, pos = read_header(data, SCENARIO_MAGIC, "scenario")
        blob = data[pos:]
        if len(blob) != header["blob_size"]:
            raise ValueError("truncated scenario value table")
        return cls(header, blob)

    @staticmethod
    def to_bytes(
        header: dict, entries: list[dict[int, tuple[int, int]]]
    ) -> bytes:
        """``entries[t]`` maps flat index -> (round(S * scale), round(P * p_scale))."""
        levels = ([(i, s, p) for i, (s, p) in sorted(per_t.items())] for per_t in entries)
        blob, counts = encode_levels(levels, "Iii")
        header = dict(header, format=1, counts=counts, blob_size=len(blob))
        return write_table(SCENARIO_MAGIC, header, [blob])

    def _level(self, t: int) -> tuple[Sequence[int], ...]:
        if self._blob is not None:
            self._levels = decode_levels(self._blob, self.meta["counts"], "Iii", "Iii",
                                         "scenario")
            self._blob = None
        level = self._levels[t]
        if callable(level):
            level = self._levels[t] = level()
        return level

    def prepare(self, t: int | None = None) -> None:
        """Decode all levels now (or only level ``t``)."""
        for level in range(len(self.meta["counts"])) if t is None else (t,):
            self._level(level)

    def index(self, counts: Sequence[int]) -> int:
        i = 0
        for c, cap, r in zip(counts, self.caps, self.radix, strict=True):
            i += (c if c < cap else cap) * r
        return i

    def lookup_pair(self, t: int, counts: Sequence[int]) -> tuple[float, float, bool]:
        """(expected points still to come, P(met), exact?) with ``t >= 1`` turns left.

        Lone low-rise ground floors beyond the table's cap are forgotten by the model, but
        they still count against Toronto and Shanghai at the end: for those the lookup counts
        each such floor as a building the scenario counter cannot lose again."""
        extra = counts[0] - self.caps[0]
        if extra > 0 and self.scenario in ("toronto", "shanghai"):
            x = counts[-1] + extra if self.scenario == "toronto" else self.caps[-1]
            counts = (*counts[:-1], x)
        idx, s_vals, p_vals = self._level(t)
        i = self.index(counts)
        j = bisect_left(idx, i)
        if j < len(idx) and idx[j] == i:
            return s_vals[j] / self.scale, p_vals[j] / self.p_scale, True
        fits = [linear_fit(coef, counts, self.caps) for coef in self.meta["linear"][t]]
        return fits[0], min(1.0, max(0.0, fits[1])), False

    def lookup(self, mode: str, t: int, counts: Sequence[int]) -> tuple[float, bool]:
        """The objective ``S + SUCCESS_WEIGHT * P`` (the interface of ``ValueTable``)."""
        s, p, exact = self.lookup_pair(t, counts)
        return s + SUCCESS_WEIGHT * p, exact

    def lookup_p(self, mode: str, t: int, counts: Sequence[int]) -> float:
        return self.lookup_pair(t, counts)[1]


# --------------------------------------------------------------------------- in use

_SCENARIO_TABLES: dict[tuple[str, str], ScenarioTable] = {}


class MissingScenarioTable(MissingTable):
    """The table of a scenario is neither installed nor in the package.  The web build
    serves every scenario table as a separate file, like the solo table: the host fetches
    ``path`` (relative to the ``skyline`` package) when a scenario game first needs it, puts
    it into the package folder and asks again (or hands the bytes to
    ``install_scenario_table``)."""

    def __init__(self, scenario: str, mode: str, path: str) -> None:
        super().__init__(path)
        self.scenario = scenario
        self.mode = mode


def scenario_table_path(scenario: str, mode: str) -> str:
    """Where a scenario table lives in the package (and in the web build, under the site's
    root): ``data/scenarios/<scenario>-<mode>.bin``."""
    if scenario not in SCENARIO_MODELS or mode not in ("standard", "nine"):
        raise ValueError(f"no scenario table for {scenario!r} / {mode!r}")
    return f"data/scenarios/{scenario}-{mode}.bin"


def install_scenario_table(scenario: str, mode: str, data: bytes) -> None:
    """Hand the bytes of a scenario table to the runtime (the page fetches the file lazily
    when a scenario game starts, then calls this); it replaces the packaged file."""
    scenario_table_path(scenario, mode)  # validates the names
    table = ScenarioTable.from_bytes(bytes(data))
    if table.scenario != scenario or table.mode != mode:
        raise ValueError("scenario table for another scenario or mode")
    _SCENARIO_TABLES[scenario, mode] = table


def has_scenario_table(scenario: str, mode: str) -> bool:
    """Whether the table can be used now (installed, or found in the package)."""
    if (scenario, mode) in _SCENARIO_TABLES:
        return True
    from importlib import resources

    return resources.files("skyline").joinpath(scenario_table_path(scenario, mode)).is_file()


def load_scenario_table(scenario: str, mode: str) -> ScenarioTable:
    """The table of a scenario and mode, loaded on first use only (from the package unless
    one was installed with ``install_scenario_table``)."""
    table = _SCENARIO_TABLES.get((scenario, mode))
    if table is None:
        from importlib import resources

        path = scenario_table_path(scenario, mode)
        try:
            data = resources.files("skyline").joinpath(path).read_bytes()
        except FileNotFoundError:
            raise MissingScenarioTable(scenario, mode, path) from None
        table = _SCENARIO_TABLES[scenario, mode] = ScenarioTable.from_bytes(data)
    return table


def prepare_scenario(scenario: str, mode: str, t: int | None = None) -> None:
    """Decode a scenario table now (all levels, or only level ``t``), e.g. while idle."""
    load_scenario_table(scenario, mode).prepare(t)


def set_scenario_table(scenario: str, mode: str, table: object | None) -> None:
    """Replace (or with None forget) the table of a scenario (offline tools, tests)."""
    if table is None:
        _SCENARIO_TABLES.pop((scenario, mode), None)
    else:
        # an offline tool's stand-in has ScenarioTable's lookups only
        _SCENARIO_TABLES[scenario, mode] = table  # type: ignore[assignment]
