"""The game's words every feature uses: dice, the log's sentences, an action
as a sentence, why a die cannot be built, numbers and percentages in the player's
language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.i18n import Texts
from skyline import (
    DIE_LETTERS,
    Abandon,
    Action,
    Board,
    Build,
    Demolish,
    EndTurn,
    GameState,
    GameSummary,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    build_blocker,
    game_summary,
)
from skyline import FACE_LETTERS as FACE_LETTERS  # the page's word for it too
from skyline.rules import describe

TYPE_LETTERS = DIE_LETTERS


def turn_words(t: Callable[..., str], events: Sequence[dict[str, Any]]) -> str:
    """What a turn did, from its engine events, in the player's words: "built 3 floors,
    completed a building 2 high (+4), built on a lone low-rise ground floor (-1),
    abandoned a die" (the last turn's line, the review's turning points). Every die
    placed counts as a floor, and the points in brackets add up to what the turn changed
    in the score (each event's ``score``): what it gained, and apart what it lost."""
    builds = [e for e in events if e["event"] == "build"]
    parts = [t("last.district")] if any(e["event"] == "take_district" for e in events) else []
    parts.append(t("last.floors", n=len(builds)) if builds else t("last.nothing"))
    parts.extend(_build_points(t, builds))
    parts.extend(_demolition_words(t, [e for e in events if e["event"] == "demolish"]))
    abandoned = sum(len(e["dice"].split()) for e in events if e["event"] == "abandon")
    if abandoned:
        parts.append(t("last.abandoned", n=abandoned))
    return ", ".join(parts)


def _build_points(t: Callable[..., str], builds: list[dict[str, Any]]) -> list[str]:
    """The points a turn's builds gained (each completion, lone low-rise ground floors
    started) and lost (lone low-rise ground floors built on: their point is gone)."""
    done = [e for e in builds if "completed" in e]
    # completions of one height in one phrase (a long turn's line stays short on a phone)
    heights: dict[int, list[int]] = {}
    for e in done:
        heights.setdefault(e["completed"], []).append(e["points"])
    words = [t("last.completed", n=len(points), height=height, gained=sum(points))
             for height, points in heights.items()]
    started = sum(e["score"] for e in builds if "completed" not in e)
    if started:
        words.append(t("last.lone_started", n=started))
    built_on = sum(e["points"] - e["score"] for e in done)
    if built_on:
        words.append(t("last.lone_built_on", n=built_on))
    return words


def _demolition_words(t: Callable[..., str], demolished: list[dict[str, Any]]) -> list[str]:
    """Each completed building demolished with the points it took, lone low-rise ground
    floors with theirs, then the other unfinished buildings (they scored nothing)."""
    words = [t("last.demolished_tile", height=e["height"], lost=-e["score"])
             for e in demolished if e["completed"]]
    lone = sum(-e["score"] for e in demolished if not e["completed"])
    if lone:
        words.append(t("last.demolished_lone", n=lone))
    others = sum(1 for e in demolished if not e["completed"] and not e["score"])
    if others:
        words.append(t("last.demolished", n=others))
    return words


@dataclass(frozen=True)
class LogEntry:
    round: int
    event: str
    text: str
    seat: int | None = None  # whose action (the line takes the seat's colour)


@dataclass(frozen=True)
class LogView:
    entries: tuple[LogEntry, ...]  # newest first, at most 300


def read_summary(state: GameState) -> GameSummary:
    """The engine's end-of-game summary (the one place it is read)."""
    return game_summary(state)


def number(lang: str, value: float) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "de" else text


def percent(lang: str, p: float) -> str:
    """A probability (0..1) in percent, whole; one decimal near 0 and 100 so that a
    chance that is not certain never reads as 100 (nor a possible one as 0)."""
    v = 100.0 * min(1.0, max(0.0, p))
    text = f"{min(99.9, max(0.1, v)):.1f}" if 0.0 < v < 1.0 or 99.0 < v < 100.0 else f"{v:.0f}"
    return text.replace(".", ",") if lang == "de" else text


def game_scenario(board: Board) -> str | None:
    """The solo scenario of the game (None: none, or not solo)."""
    return board.options.scenario if board.state.solo else None


def unbuildable_reasons(t: Callable[..., str], state: GameState) -> str:
    """Why each active die cannot be built (``skyline.build_blocker``), one clause per
    kind of die, joined; "" when some die can be built."""
    clauses = blocked_dice(t, state)
    if len(clauses) < len(state.dice):
        return ""
    return "; ".join(dict.fromkeys(clauses))


def blocked_dice(t: Callable[..., str], state: GameState) -> list[str]:
    """Why each active die that cannot be built cannot (one clause per die, in tray
    order), naming its colour: "the blue upper floor has no unfinished blue building
    to go on"; the normal game's prompt and Learn to play say the same."""
    clauses = []
    for die in state.dice:
        error = build_blocker(state, die.id)
        if error is None:
            continue
        code = TYPE_LETTERS[die.type] + ("" if die.face is None else FACE_LETTERS[die.face])
        key = "why_die." + error.code
        if error.code != "blank_penthouse":
            key += "." + code[1:]
        the = t("dieword_the." + code) if len(code) == 2 else code
        clauses.append(t(key, die=the) if key in _KEYS_WITH_DIE else t("error.action." + error.code,
                                                                       **error.params))
    return clauses


_KEYS_WITH_DIE = frozenset(
    ["why_die.blank_penthouse"]
    + [f"why_die.needs_column.{f}" for f in "pbo"]
    + [f"why_die.{c}.{f}" for c in ("too_high", "penthouse_height") for f in "bo"]
)


# ---------------------------------------------------------------------------- texts


def die_label(t: Callable[..., str], type_letter: str, face_letter: str | None) -> str:
    if face_letter is None:
        return t("die.label_unrolled", type=t("die.type." + type_letter))
    return t("die.label", type=t("die.type." + type_letter), face=t("die.face." + face_letter))


def die_word(t: Callable[..., str], code: str) -> str:
    return t("dieword." + code)


def event_text(t: Callable[..., str], e: dict[str, Any], names: Sequence[str]) -> str:
    name = names[e["seat"]] if e["seat"] < len(names) else "?"
    kind = e["event"]
    if kind == "take":
        return t("log.take", name=name, dice=", ".join(t("log.type." + x) for x in e["dice"]))
    if kind == "take_district":
        return t("log.take_district", name=name, n=len(e["dice"]))
    if kind == "roll":
        dice = ", ".join(die_word(t, d) for d in e["dice"].split())
        return t("log.reroll" if e["reroll"] else "log.roll", name=name, dice=dice)
    if kind == "stuck":
        return t("log.stuck", name=name)
    if kind == "build":
        text = t("log.build", name=name, die=t("dieword_a." + e["die"]), height=e["height"])
        if "completed" in e:
            text += " " + t("log.completed", height=e["completed"], points=e["points"])
        return text
    if kind == "demolish":
        what = t("column.label" if not e["completed"] else "tile.label_short",
                 kind=t("kind.short." + e["kind"]), height=e["height"])
        return t("log.demolish", name=name, die=t("dieword_with." + e["die"]), what=what)
    if kind == "abandon":
        return t("log.abandon", name=name,
                 dice=", ".join(die_word(t, d) for d in e["dice"].split()))
    if kind == "end_turn":
        return t("log.end_turn", name=name, n=e["returned"])
    if kind == "round_end":
        return t("log.round_end", round=e["round"])
    if kind == "game_over":
        return t("log.game_over")
    return str(kind)


#: the log's events that are the table's, not one player's (no seat colour)
TABLE_EVENTS = frozenset({"round_end", "game_over"})


#: the log's lines already worded, by language, names and event: a click adds one or
#: two events to a log of hundreds, and the page words the log again after every click
_worded: dict[tuple[object, str], LogEntry] = {}


def log_view(events: list[dict[str, Any]], names: Sequence[str], texts: Texts) -> LogView:
    """The game log, newest first (the last 300 events); with rivals each player's
    lines carry the seat (its colour)."""
    table = len(names) > 1
    if len(_worded) > 4000:
        _worded.clear()
    context = (texts.lang, id(texts.tables), tuple(names))
    entries = []
    for e in reversed(events[-300:]):
        key = (context, repr(e))
        entry = _worded.get(key)
        if entry is None:
            entry = _worded[key] = LogEntry(
                e["round"], e["event"], event_text(texts.t, e, names),
                e.get("seat") if table and e["event"] not in TABLE_EVENTS else None)
        entries.append(entry)
    return LogView(tuple(entries))


def action_text(t: Callable[..., str], state: GameState, action: Action) -> str:
    """An action as an instruction in the player's language (no future faces shown)."""
    if isinstance(action, Take):
        return t("hint.take", dice=", ".join(t("log.type." + d.letter) for d in action.types))
    if isinstance(action, TakeDistrict):
        return t("hint.district", n=len(state.district))
    if isinstance(action, Roll):
        if state.phase is Phase.ROLL:
            return t("hint.roll")
        by_id = {d.id: d for d in state.dice}
        words = []
        for i in action.dice:
            die = by_id[i]
            assert die.face is not None  # a reroll is of rolled dice
            words.append(die_word(t, die.type.letter + die.face.letter))
        return t("hint.reroll", dice=", ".join(words))
    if isinstance(action, EndTurn):
        return t("hint.end")
    events = describe(state, action, apply_action(state, action))
    e = events[0] if events else {}
    if isinstance(action, Build):
        the_die = t("dieword_the." + e["die"])
        if "completed" in e:
            return t("hint.build_completes", die=the_die, height=e["height"],
                     completed=e["completed"], points=e["points"])
        return t("hint.build", die=the_die, height=e["height"])
    if isinstance(action, Demolish):
        what = t("column.label" if not e["completed"] else "tile.label_short",
                 kind=t("kind.short." + e["kind"]), height=e["height"])
        return t("hint.demolish", die=t("dieword_with." + e["die"]), what=what)
    if isinstance(action, Abandon):
        return t("hint.abandon", dice=", ".join(die_word(t, d) for d in e["dice"].split()))
    return str(action)
