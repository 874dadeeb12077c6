"""The two helpers every view's HTML uses, written once.

>>> esc('<b title="x">&')
'&lt;b title=&quot;x&quot;&gt;&amp;'
>>> attr_disabled(False)
' disabled'
"""

from __future__ import annotations

from html import escape


def esc(text: object) -> str:
    """Text as HTML text or an attribute's value: a player's name is never markup."""
    return escape(str(text), quote=True)


def attr_disabled(enabled: bool) -> str:
    return "" if enabled else " disabled"
