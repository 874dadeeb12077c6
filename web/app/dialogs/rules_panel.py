# ruff: noqa: E501 - HTML templates read better unwrapped
"""The rules help panel: the rule texts of the seeds (001 English, 003 German),
the short help card (000) and the rulebook's solo rules (002), un-glued into
headings and paragraphs. All text lives in the string tables under ``rules.*``
(the solo level titles and scenarios under the ``level.*``, ``scenario.*`` and
``scenario_goal.*`` keys the end screen uses); this module only gives it structure.
The levels and scenarios listed are the engine's own (SOLO_LEVELS, SCENARIOS)."""

from __future__ import annotations

from app.core.commands import Cmd
from app.core.dom import DIALOG_FIRST
from app.core.html import esc
from skyline import SCENARIOS, SOLO_LEVELS

SECTIONS = ("aim", "setup", "turn", "actions", "heights", "end", "scoring", "solo", "app")
CARD = ("turn", "actions", "heights", "end")


def _p(t, key: str) -> str:
    return f"<p>{esc(t(key))}</p>"


def _section(name: str, t, inner: str) -> str:
    return (
        f'<section class="rules-sec" id="rules-{name}" aria-labelledby="rules-{name}-h">'
        f'<h3 id="rules-{name}-h">{esc(t(f"rules.{name}.title"))}</h3>{inner}</section>'
    )


def _solo(t) -> str:
    """The solo rules: what differs, the levels (points -> title) and the scenarios."""
    levels = "".join(
        f'<tr><td class="num">{points}</td><td>{esc(t(f"level.{title}"))}</td></tr>'
        for points, title in sorted(SOLO_LEVELS)
    )
    scenarios = "".join(
        f'<tr><th scope="row">{esc(t(f"scenario.{s}"))}</th><td>{esc(t(f"scenario_goal.{s}"))}</td></tr>'
        for s in SCENARIOS
    )
    return (
        _p(t, "rules.solo.body")
        + f'<h4 id="rules-solo-levels-h">{esc(t("rules.solo.levels.title"))}</h4>'
        + _p(t, "rules.solo.levels.body")
        + '<table class="points solo-table" aria-labelledby="rules-solo-levels-h"><thead><tr>'
        f'<th scope="col">{esc(t("rules.solo.levels.points"))}</th>'
        f'<th scope="col">{esc(t("rules.solo.levels.level"))}</th>'
        f"</tr></thead><tbody>{levels}</tbody></table>"
        + f'<h4 id="rules-solo-scenarios-h">{esc(t("rules.solo.scenarios.title"))}</h4>'
        + _p(t, "rules.solo.scenarios.body")
        + '<table class="points solo-table" aria-labelledby="rules-solo-scenarios-h"><thead><tr>'
        f'<th scope="col">{esc(t("rules.solo.scenarios.scenario"))}</th>'
        f'<th scope="col">{esc(t("rules.solo.scenarios.goal"))}</th>'
        f"</tr></thead><tbody>{scenarios}</tbody></table>"
    )


def render(view) -> str:
    """The rules dialog's body from a ``screen.RulesView`` (``t``: its translated texts)."""
    t = view.t
    first = f' id="{DIALOG_FIRST}"'
    nav = "".join(
        f'<li><button type="button" class="linkish" data-action="{Cmd.RULES_GOTO}" data-arg="{name}"'
        f'{first if i == 0 else ""}>{esc(t(f"rules.{name}.title"))}</button></li>'
        for i, name in enumerate(SECTIONS)
    )
    card = "".join(
        f'<h4>{esc(t(f"rules.card.{name}.title"))}</h4>{_p(t, f"rules.card.{name}.body")}' for name in CARD
    )
    card += f'<p class="points-line">{esc(t("rules.card.points"))}</p>'
    # the rule texts name some things twice (the quick help and the buttons differ): once,
    # which words mean the same
    card += f'<p id="rules-same-words">{esc(t("rules.same_words"))}</p>'
    legend = (
        f'<figure class="legend"><figcaption>{esc(t("rules.legend.title"))}</figcaption><ul>'
        + "".join(
            f'<li><span class="lg-die lg-{k}" aria-hidden="true"></span>{esc(t(f"rules.legend.{k}"))}</li>'
            for k in ("penthouse", "upper", "ground")
        )
        + "</ul><ul>"
        + "".join(
            f'<li><span class="lg-kind k-{k}" aria-hidden="true"></span><b>{esc(t(f"rules.kind.{name}"))}</b> '
            f'{esc(t(f"rules.legend.{name}_floors"))}</li>'
            for k, name in (("p", "low"), ("b", "mid"), ("o", "high"))
        )
        + "</ul></figure>"
    )
    steps = "".join(
        f"<li><strong>{esc(t(f'rules.turn.step{i}.title'))}</strong> {esc(t(f'rules.turn.step{i}.body'))}</li>"
        for i in range(1, 5)
    )
    actions = "".join(
        f'<h4>{esc(t(f"rules.actions.{a}.title"))}</h4>{_p(t, f"rules.actions.{a}.body")}'
        for a in ("build", "abandon", "demolish")
    )
    table_rows = "".join(
        f'<tr><th scope="row">{esc(t(f"rules.kind.{name}"))}</th>'
        + "".join(f"<td>{pts}</td>" if pts else "<td></td>" for pts in points)
        + "</tr>"
        for name, points in (
            ("low", (1, 4, None, None, None, None)),
            ("mid", (None, 4, 9, 16, None, None)),
            ("high", (None, None, 9, 16, 25, 36)),
        )
    )
    table = (
        f'<table class="points"><caption>{esc(t("rules.table.caption"))}</caption><thead><tr>'
        f'<th scope="col">{esc(t("rules.table.floors"))}</th>'
        + "".join(f'<th scope="col">{n}</th>' for n in range(1, 7))
        + f"</tr></thead><tbody>{table_rows}</tbody></table>"
    )
    body = {
        "aim": _p(t, "rules.aim.body"),
        "setup": _p(t, "rules.setup.body"),
        "turn": f'<ol class="steps">{steps}</ol>',
        "actions": actions,
        "heights": _p(t, "rules.heights.body") + table,
        "end": _p(t, "rules.end.body"),
        "scoring": _p(t, "rules.scoring.body"),
        "solo": _solo(t),
        "app": _p(t, "rules.app.body") + _p(t, "rules.app.keys")
        + f'<p id="rules-app-dice">{esc(t("rules.app.dice"))}</p>'
        + f'<p id="rules-app-storage">{esc(t("rules.app.storage"))}</p>'
        # the open game's export, where the rules say why to keep a copy
        + f'<p><button type="button" id="rules-export" data-action="{Cmd.RULES_EXPORT}">'
        f'{esc(t("rules.app.export"))}</button></p>',
    }
    sections = "".join(_section(name, t, body[name]) for name in SECTIONS)
    return (
        f'<div class="rules" lang="{esc(view.lang)}" data-testid="rules">'
        f'<p class="tagline">{esc(t("rules.tagline"))} <span class="meta">{esc(t("rules.meta"))}</span></p>'
        f'<nav aria-label="{esc(t("rules.nav"))}"><ul class="rules-nav">{nav}</ul></nav>'
        f'<section class="card" id="rules-card" aria-labelledby="rules-card-h">'
        f'<h3 id="rules-card-h">{esc(t("rules.card.title"))}</h3>{card}</section>'
        f"{legend}{sections}</div>"
    )
