"""Seat kinds as a type (skyline.records.seats): codes, letters, and the records using them."""

from __future__ import annotations

import pytest

from skyline import Board, Seat, SeatKind, make_entry, make_game_link, parse_game_link
from skyline.records.game_links import claim_seats, may_move, send_to
from skyline.records.seats import COMPUTER_LEVELS, LEVEL_LETTERS


def test_constructors_properties_and_codes() -> None:
    here, friend, expert = Seat.here(), Seat.friend(), Seat.computer("expert")
    assert (here.kind, friend.kind, expert.kind) == (SeatKind.HERE, SeatKind.FRIEND,
                                                     SeatKind.COMPUTER)
    assert here.is_here and not here.is_computer and not here.is_friend
    assert friend.is_friend and expert.is_computer and expert.level == "expert"
    assert [s.code for s in (here, friend, expert)] == ["here", "friend", "expert"]
    for seat in (here, friend, *(Seat.computer(level) for level in COMPUTER_LEVELS)):
        assert Seat.from_code(seat.code) == seat


def test_letters_match_game_links() -> None:
    assert Seat.here().letter == Seat.friend().letter == "h"
    assert {Seat.computer(level).letter: level for level in COMPUTER_LEVELS} == LEVEL_LETTERS


@pytest.mark.parametrize("bad", [
    lambda: Seat(SeatKind.COMPUTER), lambda: Seat(SeatKind.COMPUTER, "genius"),
    lambda: Seat(SeatKind.HERE, "greedy"), lambda: Seat("here"),  # type: ignore[arg-type]
])
def test_inconsistent_seats_are_refused(bad) -> None:
    with pytest.raises(ValueError, match="^seat"):
        bad()


def test_unknown_codes_are_refused_precisely() -> None:
    with pytest.raises(ValueError, match="unknown seat kind 'human'"):
        Seat.from_code("human")
    with pytest.raises(ValueError, match="'here', 'friend' or a computer level"):
        Seat.from_code("random")


def test_records_take_seats_or_codes_alike_and_store_codes() -> None:
    board = Board.new(["Ann", "Bo", "Cy"], seed="seats")
    codes = ("here", "friend", "greedy")
    seats = (Seat.here(), Seat.friend(), Seat.computer("greedy"))
    assert make_entry(board, seats) == make_entry(board, codes)
    assert make_entry(board, seats).seats == codes
    assert make_game_link(board, seats, "n") == make_game_link(board, codes, "n")
    link = parse_game_link(make_game_link(board, seats, "n"))
    assert link.seats == ("human", "human", "greedy")
    assert claim_seats(link.seats, [1]) == ("friend", "here", "greedy")
    assert may_move(board, codes) and send_to(board, codes) is None
    assert send_to(board, ("friend", "here", "greedy")) == 0
