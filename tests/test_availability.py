"""What the page greys is what the controller refuses, and the check of it
(``tests/control_check.py``, run on every screen the screen walker sweeps) fails where
the two disagree: a view that enables a control its rule refuses, greys one it
accepts, or gives another reason than the controller."""

from __future__ import annotations

import dataclasses

import pytest
from app.core.commands import Cmd
from control_check import ControlCheck
from web_fakes import make_page, start_game


def failures_on_a_fresh_turn(plant: str | None) -> list[str]:
    """The check's findings on a two-player game's first turn, with ``plant`` (a
    disagreement planted in the rule or the page) or none."""
    c, host, _ = make_page()
    start_game(c, ("Ann", "Bo"), ("human", "human"), "availability")
    shown = dict(host.html)
    if plant == "rule refuses what the page enables":  # Take is offered on a fresh turn
        c.commands[Cmd.TAKE] = dataclasses.replace(
            c.commands[Cmd.TAKE], rule=lambda page, board, arg: "why.take_first")
    elif plant == "rule accepts what the page greys":  # Roll is greyed before a take
        c.commands[Cmd.ROLL] = dataclasses.replace(
            c.commands[Cmd.ROLL], rule=lambda page, board, arg: None)
    elif plant == "page gives another reason":
        c.commands[Cmd.ROLL] = dataclasses.replace(
            c.commands[Cmd.ROLL], rule=lambda page, board, arg: "why.over")
    found: list[str] = []
    check = ControlCheck(lambda where, what: found.append(what))
    check.look(c, shown, "first turn")
    assert check.checked["commands"] > 5
    return found


def test_a_fresh_turn_agrees() -> None:
    assert failures_on_a_fresh_turn(None) == []


@pytest.mark.parametrize("plant", ["rule refuses what the page enables",
                                   "rule accepts what the page greys",
                                   "page gives another reason"])
def test_each_planted_disagreement_is_caught(plant: str) -> None:
    assert failures_on_a_fresh_turn(plant)
