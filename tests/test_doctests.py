"""The engine's doctests run with the test suite: every module of the package, each with
the public API in scope (as after ``from skyline import *``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import skyline

MODULES = ["skyline"] + sorted(
    info.name for info in pkgutil.walk_packages(skyline.__path__, "skyline.")
    if info.name != "skyline.__main__"
)


def test_the_subpackages_are_all_listed() -> None:
    assert {"skyline.rules", "skyline.records", "skyline.players"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    api = {key: getattr(skyline, key) for key in skyline.__all__}
    result = doctest.testmod(importlib.import_module(name), extraglobs=api,
                             optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
