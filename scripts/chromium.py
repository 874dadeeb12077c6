"""Shared by the e2e suite and the browser benchmarks: how Debian's Chromium is launched
here, and the scripted click policy that plays a game through the page's real buttons."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("SKYLINE_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps dialling out, which this
# machine's closed network refuses (and the e2e guard would count as foreign requests).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# One step of a simple deterministic policy, run inside the page with real click
# events on the real buttons: take ground+upper+penthouse, roll, build the first
# die that can be built alone, pick the first offered target, otherwise end the
# turn or demolish with the first die. Returns what it did.
POLICY_STEP = """
() => {
  const q = (s) => document.querySelector(s);
  const on = (s) => { const b = q(s); return b && !b.disabled ? b : null; };
  const deselect = () => {
    for (const o of document.querySelectorAll('button[data-action=die][aria-pressed=true]')) {
      q('#' + o.id).click();
    }
  };
  if (q('[data-testid=scoring]')) return 'over';
  if (q('button.target')) { q('button.target').click(); return 'target'; }
  if (on('#yard-G')) {
    const n = document.querySelectorAll('[data-testid=taken]').length;
    q('#yard-' + 'GUP'[n]).click();
    return 'take';
  }
  const dice = [...document.querySelectorAll('button[data-action=die]')].map((d) => d.id);
  if (on('#act-roll') && dice.length === 0) { q('#act-roll').click(); return 'roll'; }
  for (const id of dice) {
    deselect();
    q('#' + id).click();
    if (on('#act-build')) { q('#act-build').click(); return 'build'; }
  }
  deselect();
  if (on('#act-end')) { q('#act-end').click(); return 'end'; }
  if (dice.length) {
    q('#' + dice[0]).click();
    if (on('#act-demolish')) { q('#act-demolish').click(); return 'demolish'; }
  }
  return 'stuck';
}
"""
