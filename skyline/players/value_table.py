"""The solo value table's file format, and what the scenario tables' format shares with it.

A table file is a magic of 8 bytes, a little-endian u32 header length, a JSON header
(utf-8) and zlib blobs. A blob holds levels (one per turns left) of entries sorted by their
flat index (a mixed-radix number over the capped counts), every column delta coded from 0
at the start of its level and stored as byte planes (all first bytes, then all second
bytes, ...: they compress far better). Missing entries fall back to the header's linear
fits per level. :class:`ValueTable` is the solo table (``scripts/solve_solo.py`` writes it);
:class:`~skyline.players.scenario_tables.ScenarioTable` reads the scenario tables with the
same helpers.

>>> from skyline.players.solo_model import CAPS
>>> data = ValueTable.to_bytes(CAPS, 1, {"nine": [{}, {3: 256, 9: 512}]},
...                            {"nine": [[0.0] * 11, [0.5] + [0.0] * 10]}, 256)
>>> table = ValueTable.from_bytes(data)
>>> table.lookup("nine", 1, table.counts(9)), table.lookup("nine", 1, (1,) + (0,) * 9)
((2.0, True), (0.5, False))
>>> ValueTable.from_bytes(b"SKYSCEN1" + bytes(8))
Traceback (most recent call last):
...
ValueError: not a Skyline solo value table
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate

from .solo_model import COLUMN_CLASSES

__all__ = ["MAGIC", "ValueTable", "decode_levels", "encode_levels", "linear_fit",
           "read_header", "write_table"]

MAGIC = b"SKYSOLO1"

#: A level of a table: its sorted flat indices, then one array per value column.
Level = tuple[Sequence[int], ...]


def _shuffle(data: bytes, width: int) -> bytes:
    """Byte planes of fixed-width little-endian items (compresses far better)."""
    return b"".join(data[i::width] for i in range(width))


def _unshuffle(planes: bytes, width: int) -> bytes:
    n = len(planes) // width
    out = bytearray(len(planes))
    for i in range(width):
        out[i::width] = planes[i * n : (i + 1) * n]
    return bytes(out)


def read_header(data: bytes, magic: bytes, what: str) -> tuple[dict, int]:
    """The JSON header of a table file whose kind (``what``: ``"solo"``, ``"scenario"``)
    has ``magic``, and the offset of its first blob."""
    if data[:8] != magic:
        raise ValueError(f"not a Skyline {what} value table")
    (hlen,) = struct.unpack_from("<I", data, 8)
    header = json.loads(data[12 : 12 + hlen].decode())
    if header.get("format") != 1:
        raise ValueError(f"unsupported {what} table format {header.get('format')}")
    return header, 12 + hlen


def write_table(magic: bytes, header: dict, blobs: Iterable[bytes]) -> bytes:
    """A table file: ``magic``, the header (sorted keys, no spaces) and the blobs."""
    hb = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    return magic + struct.pack("<I", len(hb)) + hb + b"".join(blobs)


def encode_levels(
    levels: Iterable[Iterable[Sequence[int]]], codes: str
) -> tuple[bytes, list[int]]:
    """One blob of levels of rows ``(flat index, value, ...)`` sorted by index: the
    columns delta coded per level into arrays of the type ``codes`` names (an
    ``OverflowError`` if a delta does not fit), as byte planes, compressed. Returns the
    blob and the rows per level."""
    columns = [array(code) for code in codes]
    counts = []
    for rows in levels:
        prev: Sequence[int] = (0,) * len(codes)
        n = 0
        for row in rows:
            for column, x, before in zip(columns, row, prev, strict=True):
                column.append(x - before)
            prev = row
            n += 1
        counts.append(n)
    if sys.byteorder != "little":
        for column in columns:
            column.byteswap()
    raw = b"".join(_shuffle(column.tobytes(), column.itemsize) for column in columns)
    return zlib.compress(raw, 9), counts


def decode_levels(
    blob: bytes, counts: Sequence[int], stored: str, decoded: str, what: str
) -> list[Callable[[], Level] | Level]:
    """The levels of a blob written by :func:`encode_levels` with the array types
    ``stored``, each summed into arrays of the types ``decoded`` when it is called (the
    tables then put the level in its place)."""
    raw = zlib.decompress(blob)
    n = sum(counts)
    widths = [array(code).itemsize for code in stored]
    if len(raw) != sum(widths) * n:
        raise ValueError(f"corrupt {what} value table")
    planes = []
    start = 0
    for code, width in zip(stored, widths, strict=True):
        plane = array(code, _unshuffle(raw[start : start + width * n], width))
        if sys.byteorder != "little":
            plane.byteswap()
        planes.append(plane)
        start += width * n
    # Summing the deltas is the slow part (a Python loop per entry); it is deferred per
    # level so that no single step blocks a browser page for long.
    out: list[Callable[[], Level] | Level] = []
    start = 0
    for c in counts:
        out.append(_summed(planes, decoded, start, start + c))
        start += c
    return out


def _summed(planes: list[array], decoded: str, a: int, b: int) -> Callable[[], Level]:
    """A level's decoder: the entries ``a:b`` of each plane, summed."""

    def level() -> Level:
        return tuple(array(code, accumulate(plane[a:b]))
                     for code, plane in zip(decoded, planes, strict=True))

    return level


def linear_fit(coef: Sequence[float], counts: Sequence[int], caps: Sequence[int]) -> float:
    """The fallback value of a missing entry: ``coef[0]`` plus one coefficient per capped
    count."""
    x = coef[0]
    for c, cap, a in zip(counts, caps, coef[1:], strict=False):
        x += a * (c if c < cap else cap)
    return x


class ValueTable:
    """W[mode][t] lookups on capped count vectors; fallback: fitted linear value.

    Binary format (version 1)::

        b"SKYSOLO1", u32 little-endian header length, JSON header (utf-8),
        then one zlib blob per mode (sizes in header["blob_sizes"], order header["modes"]).

    The header holds: format, caps (9 column classes + number of 4-point tiles), classes,
    modes, turns, scale, counts[mode][t] (entries per level, t = 0..turns, t = 0 empty),
    linear[mode][t] (fallback: bias, then one coefficient per capped count), optimum[mode]
    (value of the start) and notes on the model.  A mode's blob (after zlib) is two byte-plane
    shuffled arrays: all levels' u32 index deltas, then all levels' i16 value deltas.  Per level
    the flat indices (mixed radix over caps + 1 in class order, last class fastest) are sorted
    and delta coded from 0, and the values round(W * scale) delta coded from 0.  A mode is
    decoded on first use (or by ``prepare``).
    """

    def __init__(
        self,
        caps: tuple[int, ...],
        levels: dict[str, list[tuple[Sequence[int], Sequence[int]]]],
        linear: dict[str, list[list[float]]],
        meta: dict | None = None,
        blobs: dict[str, bytes] | None = None,
    ) -> None:
        self.caps = tuple(caps)
        # mode -> [t] -> (sorted flat indices, scaled values), or a level still to decode
        self._levels: dict[str, list] = dict(levels)
        self._blobs = dict(blobs or {})
        self.linear = linear  # mode -> [t] -> [bias, coef per count]
        self.meta = meta or {}
        self.scale = self.meta.get("scale", 256)
        self.radix = []
        r = 1
        for c in reversed(self.caps):
            self.radix.append(r)
            r *= c + 1
        self.radix.reverse()

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*self._levels, *self._blobs]))

    def _level(self, mode: str, t: int) -> Level:
        lv: list | None = self._levels.get(mode)
        if lv is None:
            counts = self.meta["counts"][mode]
            lv = self._levels[mode] = decode_levels(self._blobs.pop(mode), counts, "Ih", "Ii",
                                                    "solo")
        level = lv[t]
        if callable(level):  # still delta coded: decoded on first use, one level at a time
            level = lv[t] = level()
        return level

    def level(self, mode: str, t: int) -> dict[int, float]:
        """All shipped entries {flat index: value} of W[t]."""
        idx, vals = self._level(mode, t)
        return {i: v / self.scale for i, v in zip(idx, vals, strict=True)}

    def prepare(self, mode: str, t: int | None = None) -> None:
        """Decode a mode now (else on its first lookup): all levels, or only level ``t``."""
        levels = range(len(self.meta["counts"][mode])) if t is None else (t,)
        for level in levels:
            self._level(mode, level)

    def index(self, counts: Sequence[int]) -> int:
        i = 0
        for c, cap, r in zip(counts, self.caps, self.radix, strict=False):
            i += (c if c < cap else cap) * r
        return i

    def counts(self, index: int) -> tuple[int, ...]:
        out = []
        for r in self.radix:
            out.append(index // r)
            index %= r
        return tuple(out)

    def lookup(self, mode: str, t: int, counts: Sequence[int]) -> tuple[float, bool]:
        """(W[t](counts), exact?)  ``t >= 1``; counts: 9 column counts + 4-point tiles."""
        idx, vals = self._level(mode, t)
        i = self.index(counts)
        j = bisect_left(idx, i)
        if j < len(idx) and idx[j] == i:
            return vals[j] / self.scale, True
        return linear_fit(self.linear[mode][t], counts, self.caps), False

    @classmethod
    def from_bytes(cls, data: bytes) -> ValueTable:
        header, pos = read_header(data, MAGIC, "solo")
        blobs = {}
        for mode, size in zip(header["modes"], header["blob_sizes"], strict=True):
            blobs[mode] = data[pos : pos + size]
            pos += size
        if pos != len(data):
            raise ValueError("trailing data in solo value table")
        return cls(tuple(header["caps"]), {}, header["linear"], header, blobs)

    @staticmethod
    def to_bytes(
        caps: Sequence[int],
        turns: int,
        entries: dict[str, list[dict[int, int]]],
        linear: dict[str, list[list[float]]],
        scale: int,
        extra: dict | None = None,
    ) -> bytes:
        """``entries[mode][t]`` (t = 0..turns) maps flat index -> round(value * scale)."""
        blobs = []
        counts: dict[str, list[int]] = {}
        for mode, per_t in entries.items():
            levels = (sorted(per_t[t].items()) if t < len(per_t) else []
                      for t in range(turns + 1))
            blob, counts[mode] = encode_levels(levels, "Ih")
            blobs.append(blob)
        header = {
            "format": 1,
            "caps": list(caps),
            "classes": [f"{c}{h}" for c, h in COLUMN_CLASSES] + ["tiles4"],
            "modes": list(entries),
            "turns": turns,
            "scale": scale,
            "counts": counts,
            "linear": linear,
            "blob_sizes": [len(b) for b in blobs],
        }
        header.update(extra or {})
        return write_table(MAGIC, header, blobs)
