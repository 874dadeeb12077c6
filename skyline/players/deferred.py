"""Data files a host delivers on request instead of shipping them in the package.

The web page keeps the solo value table off its start-up path and fetches it when a
computer player, Hint or the review first needs it. This small module holds that list
apart from :mod:`skyline.players.solo_value`, so that asking whether the expert can play
(:mod:`skyline.players.registry`) does not load the solver. Reading a deferred file that
has not come yet raises :class:`MissingTable`, which names the file the host fetches.

>>> defer_table("data/example.bin")
>>> "data/example.bin" in DEFERRED
True
>>> DEFERRED.discard("data/example.bin")
"""

from __future__ import annotations

#: The solo value table, a path inside the ``skyline`` package.
TABLE_RESOURCE = "data/solo_values.bin"

#: Package data files (paths inside ``skyline``) that the host delivers on request.
DEFERRED: set[str] = set()


def defer_table(path: str = TABLE_RESOURCE) -> None:
    """Declare that the host delivers the data file ``path`` on request: until then it
    counts as available (:func:`skyline.players.solo_value.table_available`), and reading
    it raises :class:`MissingTable` instead of ``FileNotFoundError``."""
    DEFERRED.add(path)


class MissingTable(LookupError):
    """A deferred data file (see :func:`defer_table`) is not there yet: the host fetches
    ``path`` (relative to the ``skyline`` package), puts it into the package folder and
    asks again."""

    def __init__(self, path: str) -> None:
        super().__init__(f"data file {path!r} is not loaded yet; the host delivers it")
        self.path = path
