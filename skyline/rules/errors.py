"""The engine's coded errors: every one is a :class:`SkylineError` (a ``ValueError``)
with a stable ``code`` the page translates; :func:`coded_only` keeps a reader to its
one error class."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


class SkylineError(ValueError):
    """Base of the engine's coded errors.

    ``code`` is a stable identifier the page translates; ``params`` fill its message;
    the message itself is plain English for logs and the terminal. Subclasses:
    :class:`IllegalActionError`, :class:`OptionsError`, ``RecordError``
    (:mod:`skyline.rules.board`), ``LinkError`` and ``SaveError`` (:mod:`skyline.records.links`),
    ``BotError`` (:mod:`skyline.players.registry`).
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class IllegalActionError(SkylineError):
    """An action that the rules do not allow in this state."""


class OptionsError(SkylineError):
    """Game options that :func:`validate_options` refuses.

    ``code`` is the field at fault: ``names``, ``seed``, ``start_seat``, ``all_nine`` or
    ``scenario`` (also :attr:`field`); ``params["reason"]`` says what is wrong with it.
    The message starts with the field's name, e.g. ``"seed: expected 1 to 32 ..."``.
    """

    @property
    def field(self) -> str:
        return self.code


#: The option fields an :class:`OptionsError` may name (its ``code``).
OPTION_FIELDS = ("names", "seed", "start_seat", "all_nine", "scenario")


def coded_only(
    error: type[SkylineError], message: str, read: Callable[[object], _T], text: object
) -> _T:
    """``read(text)`` for a reader whose callers catch ``error`` only: any other exception
    becomes ``error("internal", message)`` with the exception's class as ``reason``.

    >>> try:
    ...     coded_only(OptionsError, "could not be read", int, "x")
    ... except OptionsError as error:
    ...     error.code, error.params
    ('internal', {'reason': 'ValueError'})
    """
    try:
        return read(text)
    except error:
        raise
    except Exception as exc:
        raise error("internal", message, reason=type(exc).__name__) from exc
