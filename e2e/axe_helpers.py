"""axe-core audits for the e2e suite (imported by tests; not a test module).

axe-core is a dev dependency (package.json, pinned); the build never ships it. It is
injected from ``node_modules/axe-core/axe.min.js`` with ``page.add_script_tag``, which
the site's CSP (no inline scripts) refuses: audit only in a context created with
``bypass_csp=True``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"

# What a colour scheme changes: the colours only (the DOM, names and roles are the same
# in both), so the second scheme needs only the rules that look at colours.
COLOUR_RULES = ("color-contrast", "link-in-text-block")

_RUN = """async ([include, rules]) => {
  // the page at rest: what moves (web/js/effects.js fades and slides) is at its end
  for (const a of document.getAnimations()) {
    if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish();
  }
  const options = {resultTypes: ["violations"]};
  if (rules) options.runOnly = {type: "rule", values: rules};
  const result = await axe.run(include ? {include: [include]} : document, options);
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
  }));
}"""


def run_axe(page: Page, include: str | None = None,
            rules: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The axe violations of the page (or of the elements matching ``include``): of
    every rule, or of ``rules`` only (e.g. ``COLOUR_RULES`` in the second scheme)."""
    assert AXE.is_file(), f"{AXE} missing: run npm ci (axe-core is a dev dependency)"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(_RUN, [include, list(rules) if rules else None])


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per violation and node, for assertion messages and reports."""
    lines = []
    for v in violations:
        for n in v["nodes"]:
            lines.append(f"{v['id']} ({v['impact']}): {n['target']}: {v['help']}")
    return "\n".join(lines)
