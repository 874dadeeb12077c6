"""Why the page's storage refused a write, from what the browser said: its space is used
up (the player can make room), or it keeps nothing at all (blocked, private browsing).
"""

from __future__ import annotations

from enum import Enum


class Refusal(Enum):
    """Why the store refused a write: its space is used up, or it lets nothing be kept."""

    FULL = "full"
    BLOCKED = "blocked"


# What the engines call a store that is full (the DOMException's name; older Firefox's
# code), as it reaches Python (a JsException's text); the page's answers to a save that
# mean the same (web/js/storage.js: "full"; "partial": the save went, the rest did not).
_FULL_NAMES = ("QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED")
_FULL_OUTCOMES = ("full", "partial")


def refusal(exc: BaseException | str) -> Refusal:
    """Why the store refused, from the exception it raised (or the page's outcome word).

    >>> refusal("full"), refusal(OSError("QuotaExceededError: the quota has been exceeded"))
    (<Refusal.FULL: 'full'>, <Refusal.FULL: 'full'>)
    >>> refusal(OSError("SecurityError: access is denied")), refusal("failed")
    (<Refusal.BLOCKED: 'blocked'>, <Refusal.BLOCKED: 'blocked'>)
    """
    text = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    if text in _FULL_OUTCOMES or any(name in text for name in _FULL_NAMES):
        return Refusal.FULL
    return Refusal.BLOCKED
