"""The doctests run with the test suite: every module of the engine, each with the public
API in scope (as after ``from skyline import *``), and every module of the page's Python
(``web/app``, imported as the page imports it: tests/conftest.py puts web/ on the path)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import app
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


PAGE_MODULES = sorted(info.name for info in pkgutil.walk_packages(app.__path__, "app."))


def test_the_page_rooms_are_all_listed() -> None:
    assert {"app.core.dom", "app.core.region_edits", "app.turn.view"} <= set(PAGE_MODULES)


@pytest.mark.parametrize("name", PAGE_MODULES)
def test_page_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
