"""The engine's doctests run with the test suite."""

from __future__ import annotations

import doctest

import pytest

import skyline
import skyline.board
import skyline.bots
import skyline.core
import skyline.correspondence
import skyline.daily
import skyline.games

MODULES = [skyline, skyline.core, skyline.board, skyline.bots, skyline.correspondence,
           skyline.daily, skyline.games]


@pytest.mark.parametrize("module", MODULES)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
