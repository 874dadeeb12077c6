"""The suite itself: pytest (rootdir-relative imports, no packages) refuses to collect two
test modules with the same basename, so one clash in tests/ and e2e/ stops the whole run."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_test_modules_have_unique_basenames() -> None:
    names = [p.name for d in ("tests", "e2e") for p in (ROOT / d).glob("test_*.py")]
    clashes = sorted({n for n in names if names.count(n) > 1})
    assert clashes == []


def test_test_modules_are_named_for_what_they_test() -> None:
    """A test file says what it tests (``test_screen_names_and_words.py``), not which
    issue asked for it (``test_issue8.py``): issues end, the behaviour stays."""
    named_for_issues = [p.name for d in ("tests", "e2e") for p in (ROOT / d).glob("test_*.py")
                        if "issue" in p.stem.lower()]
    assert named_for_issues == []
