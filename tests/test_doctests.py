"""The engine's doctests run with the test suite."""

from __future__ import annotations

import doctest

import pytest

import skyline
import skyline.board
import skyline.bots
import skyline.core


@pytest.mark.parametrize("module", [skyline, skyline.core, skyline.board, skyline.bots])
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
