"""scripts/cvd_check.py, the palette check: the seat colours in web/style.css stay apart
from the dice colours and from each other with protanopia, deuteranopia and tritanopia
(and normal vision), so a colour change that breaks that fails the suite."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "cvd_check.py"
CSS = ROOT / "web" / "style.css"


def _script():
    spec = importlib.util.spec_from_file_location("cvd_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cvd = _script()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_the_page_palette_passes_for_every_vision_type():
    result = run()
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for view in ("normal", "protanopia", "deuteranopia", "tritanopia"):
        line = next(line for line in lines if line.strip().startswith(view))
        assert "TOO CLOSE" not in line
    # the seven colours it read are the stylesheet's
    colours = cvd.read_colours(CSS.read_text("utf-8"))
    assert len(set(colours.values())) == 7
    for value in colours.values():
        assert value in lines[0]


def test_the_seat_colours_are_applied_by_the_stylesheet():
    """Each seat class takes its colour from the checked property (the check is about
    the colours the page shows)."""
    css = CSS.read_text("utf-8")
    for seat in range(4):
        assert f".seat-{seat} {{\n  --seat: var(--seat-{seat});\n}}" in css


def test_a_seat_colour_too_close_to_a_die_fails(tmp_path):
    """A seat coloured like the orange die (nearly: one step of red) makes the script
    exit 1 and name the pair."""
    css = CSS.read_text("utf-8")
    orange = cvd.read_colours(css)["--orange"]
    near = f"#{int(orange[1:3], 16) - 1:02x}{orange[3:]}"
    bad = tmp_path / "style.css"
    bad.write_text(css.replace(f"--seat-2: {cvd.read_colours(css)['--seat-2']};",
                               f"--seat-2: {near};"), "utf-8")
    assert cvd.read_colours(bad.read_text("utf-8"))["--seat-2"] == near
    result = run("--css", str(bad))
    assert result.returncode == 1
    assert "TOO CLOSE" in result.stdout and "--seat-2 --orange" in result.stdout


def test_a_stylesheet_without_the_colours_is_refused(tmp_path):
    bad = tmp_path / "style.css"
    bad.write_text(".app {\n  --purple: #7446c0;\n}\n", "utf-8")
    with pytest.raises(ValueError, match="--seat-0"):
        cvd.read_colours(bad.read_text("utf-8"))


@pytest.mark.parametrize("view", ["protanopia", "deuteranopia", "tritanopia"])
def test_the_simulation_keeps_white_and_black_and_merges_what_it_should(view):
    """Machado's matrices keep white and black; red and green become hard to tell apart
    with protanopia and deuteranopia, blue and green with tritanopia."""
    white, black = (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)
    assert [round(c, 2) for c in cvd.seen_as(white, view)] == [1.0, 1.0, 1.0]
    assert cvd.seen_as(black, view) == black

    def distance(a: str, b: str, v: str) -> float:
        return cvd.ciede2000(cvd.lab(cvd.seen_as(cvd.linear(a), v)),
                             cvd.lab(cvd.seen_as(cvd.linear(b), v)))

    pair = ("#0072b2", "#009e73") if view == "tritanopia" else ("#d55e00", "#808000")
    assert distance(*pair, view) < distance(*pair, "normal") / 2


def test_the_colour_maths_matches_the_published_test_pairs():
    import doctest

    assert doctest.testmod(cvd, raise_on_error=False).failed == 0
