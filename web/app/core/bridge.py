"""The bridge's values, typed on the Python side as web/js/ types them: ``PageEvent``
(web/js/bridge.js), what the page sends for one event, and ``DomCommand``
(web/js/render.js), what the page is told to do, queued by ``main.DomHost`` and sent
in one batch as JSON.

>>> event = PageEvent.from_json('{"kind": "click", "action": "roll", "arg": null}')
>>> event.kind, event.action, event.arg, event.form
('click', 'roll', None, None)
>>> PageEvent.from_json('{"kind": "saved", "id": 3, "outcome": "conflict"}').save_id
3
>>> command: DomCommand = ("html", "log", "<p>")
>>> command_json([command, ("focus", None)])
'[["html", "log", "<p>"], ["focus", null]]'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

#: A form's values (web/js/bridge.js, FormValues), as the page reduced them to text.
Form = dict[str, str]


@dataclass(frozen=True)
class PageEvent:
    """One page event (web/js/bridge.js, PageEvent): ``kind`` is "click", "change",
    "submit", "keydown", "hashchange", "storage", "saved" or "live"; the other fields are
    those of its kind (the rest keep their defaults). ``fault``: the test-only hint
    that ``window.__skylineFault`` is set (``main.DomHost.fault``)."""

    kind: str
    action: str | None = None  # click, change, submit: the control's data-action
    arg: str | None = None  # click, change: its data-arg
    form: Form | None = None  # click, change, submit: the form's values
    target_id: str | None = None  # click, change: the control's id
    key: str = ""  # keydown: the key; storage: the key another tab wrote
    in_field: bool = False  # keydown: typed into a field
    hash: str = ""  # hashchange: the page's new fragment
    save_id: int = 0  # saved: which save the page could not write
    outcome: str = ""  # saved: why ("conflict", "partial", "failed", "full")
    # live: what happened at the live table (web/js/live-page.js): "joined", "left",
    # "message", "tick", "relays", "offline", "online" or "error"; from which peer; the
    # message's text (relays: "open" or "closed"; error: why)
    what: str = ""
    peer: str = ""
    text: str = ""
    fault: bool = False

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> PageEvent:
        """The event from the JS object (parsed JSON); the one place that reads it."""

        def text(name: str) -> str | None:
            value = data.get(name)
            return None if value is None else str(value)

        form = data.get("form")
        save_id = data.get("id")
        return cls(
            kind=str(data.get("kind") or ""),
            action=text("action"),
            arg=text("arg"),
            form=({str(k): str(v) for k, v in form.items()} if isinstance(form, dict)
                  else None),
            target_id=text("target_id"),
            key=text("key") or "",
            in_field=bool(data.get("in_field")),
            hash=text("hash") or "",
            save_id=save_id if isinstance(save_id, int) else 0,
            outcome=text("outcome") or "",
            what=text("what") or "",
            peer=text("peer") or "",
            text=text("text") or "",
            fault=bool(data.get("fault")),
        )

    @classmethod
    def from_json(cls, text: str) -> PageEvent:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"not a page event: {text[:80]!r}")
        return cls.from_data(data)


#: One edit of a region's children (app.core.region_edits.Splice.as_list): the id of
#: the element, the first child replaced, how many, the HTML put there, how many
#: children the element has before.
SpliceList = list[str | int]

#: One DOM command (web/js/render.js, DomCommand), by its name.
HtmlCommand = tuple[Literal["html"], str, str]
PatchCommand = tuple[Literal["patch"], str, str, list[SpliceList]]
StoreCommand = tuple[Literal["store"], str, str | None]
SaveCommand = tuple[Literal["save"], int, str, str | None, str, str]
DomCommand = (
    HtmlCommand
    | PatchCommand
    | tuple[Literal["announce"], str]
    | tuple[Literal["focus"], str | None]
    | tuple[Literal["settle"]]
    | tuple[Literal["lang"], str]
    | tuple[Literal["scroll"], str]
    | tuple[Literal["reveal"], str]
    | tuple[Literal["clearFragment"]]
    | tuple[Literal["download"], str, str]
    | tuple[Literal["ready"], str, str]
    | tuple[Literal["cue"], str]
    | tuple[Literal["liveJoin"], str]
    | tuple[Literal["liveSend"], str, str]
    | tuple[Literal["liveLeave"]]
    | StoreCommand
    | SaveCommand
)


def command_json(commands: Sequence[DomCommand]) -> str:
    """A batch of commands as web/js/render.js ``apply`` reads it."""
    return json.dumps(list(commands))
