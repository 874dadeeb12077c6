"""Chance: the seed decides every roll (:func:`seeded_faces`, integer-only hashing
so CPython and Pyodide agree); :func:`roll_outcomes` lists a roll's outcomes with their
probabilities for a search."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from itertools import product
from math import factorial

from .state import (
    DIE_FACES,
    FACE_TABLE,
    Die,
    DieType,
    Face,
    GameState,
    X,
)

_MASK = (1 << 64) - 1
_seed_cache: dict[str, int] = {}


def seed_hash(seed: str) -> int:
    """The seed as a 64-bit integer (SHA-256), the base of every seeded choice."""
    base = _seed_cache.get(seed)
    if base is None:
        base = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
        if len(_seed_cache) > 256:
            _seed_cache.clear()
        _seed_cache[seed] = base
    return base


def mix64(x: int) -> int:
    """SplitMix64 finaliser: integer-only, so CPython and Pyodide agree bit for bit."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def seeded_faces(state: GameState, dice: Sequence[Die]) -> tuple[Face, ...]:
    """The faces the seed gives to ``dice`` rolled now.

    A face depends on the seed, round, seat, the roll's number in the turn, the
    die type and how many dice of that type come before it in this roll, so two
    players of the same seed who take the same types see the same faces.
    """
    base = seed_hash(state.options.seed) ^ (
        state.round << 56 | state.seat << 52 | state.rolls << 40
    )
    seen = [0, 0, 0]
    faces = []
    table = FACE_TABLE
    mask = _MASK
    for die in dice:
        t = die.type
        k = seen[t]
        seen[t] = k + 1
        # mix64(base ^ (t << 16 | k)), inlined: this runs for every rolled die
        x = ((base ^ (t << 16 | k)) + 0x9E3779B97F4A7C15) & mask
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        faces.append(table[t][(x ^ (x >> 31)) % 6])
    return tuple(faces)


def roll_outcomes(types: Sequence[DieType]) -> list[tuple[tuple[Face, ...], float]]:
    """Distinct outcomes of rolling dice of ``types`` with their probabilities.

    Dice of the same type are interchangeable, so outcomes are multisets: faces
    come back aligned with ``types`` and sorted within each type.

    >>> [(f, round(p, 3)) for f, p in roll_outcomes([DieType.PENTHOUSE])]
    [((<Face.BLUE: 1>,), 0.333), ((<Face.ORANGE: 2>,), 0.167), ((<Face.BLANK: 3>,), 0.5)]
    """
    groups: dict[DieType, list[int]] = {}
    for position, t in enumerate(types):
        groups.setdefault(t, []).append(position)
    per_type = []
    for t, positions in groups.items():
        faces = sorted(set(DIE_FACES[t]))
        weights = {f: DIE_FACES[t].count(f) / 6 for f in faces}
        options = []
        for counts in _compositions(len(positions), len(faces)):
            prob: float = factorial(len(positions))
            chosen: list[Face] = []
            for face, count in zip(faces, counts, strict=True):
                prob = prob / factorial(count) * weights[face] ** count
                chosen += [face] * count
            options.append((positions, tuple(chosen), prob))
        per_type.append(options)
    outcomes: list[tuple[tuple[Face, ...], float]] = []
    for combo in product(*per_type):
        faces_out: list[Face] = [X] * len(types)
        prob = 1.0
        for positions, faces_in, p in combo:
            prob *= p
            for position, face in zip(positions, faces_in, strict=True):
                faces_out[position] = face
        outcomes.append((tuple(faces_out), prob))
    return outcomes


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)
