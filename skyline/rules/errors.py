"""The engine's coded errors: every one is a :class:`SkylineError` (a ``ValueError``)
with a stable ``code`` the page translates."""

from __future__ import annotations


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
