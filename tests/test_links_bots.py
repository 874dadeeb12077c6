"""Share links naming computer seats (``bots=1e3g``, skyline.records.links)."""

from __future__ import annotations

import pytest

from skyline import Options
from skyline.records import LinkError, make_share_fragment, parse_share_bots, parse_share_fragment


def test_bots_round_trip():
    options = Options(("Ann", "Robo", "Cy", "Di"), "s1", 0)
    fragment = make_share_fragment(options, None, {3: "greedy", 1: "expert"})
    assert fragment.endswith("&bots=1e3g")
    assert parse_share_bots(fragment) == ((1, "expert"), (3, "greedy"))
    assert parse_share_fragment(fragment).options == options


def test_links_without_bots_unchanged():
    options = Options(("Ann",), "s1", 0)
    assert make_share_fragment(options) == "play?p=Ann&seed=s1&start=0&nine=0"
    assert parse_share_bots("play?p=Ann&seed=s1") == ()
    assert make_share_fragment(options, None, {}) == make_share_fragment(options)


@pytest.mark.parametrize("value", ["", "1", "1x", "2e", "1e1g", "1e0g", "0e1e2e3e4e", "01", "e1"])
def test_bad_bots_are_link_errors(value):
    for parse in (parse_share_fragment, parse_share_bots):
        with pytest.raises(LinkError) as info:
            parse(f"play?p=A,B&seed=x&bots={value}")
        assert info.value.code == "bots"


def test_make_rejects_bad_bots():
    options = Options(("A", "B"), "x", 0)
    for bots in ({2: "expert"}, {0: "nobody"}, {True: "expert"}, "1e"):
        with pytest.raises(LinkError):
            make_share_fragment(options, None, bots)
