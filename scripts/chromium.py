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
# turn or demolish with the first die. Returns what it did. The page handles a click
# in its worker (web/js/bridge.js), so every click is awaited until it has been rendered.
POLICY_STEP = """
async () => {
  const q = (s) => document.querySelector(s);
  const on = (s) => { const b = q(s); return b && !b.disabled ? b : null; };
  const click = (s) => { q(s).click(); return window.skylineHost.settled(); };
  const deselect = async () => {
    for (const o of document.querySelectorAll('button[data-action=die][aria-pressed=true]')) {
      await click('#' + o.id);
    }
  };
  if (q('[data-testid=scoring]')) return 'over';
  if (q('button.target')) { await click('button.target'); return 'target'; }
  if (on('#yard-G')) {
    const n = document.querySelectorAll('[data-testid=taken]').length;
    await click('#yard-' + 'GUP'[n]);
    return 'take';
  }
  const dice = [...document.querySelectorAll('button[data-action=die]')].map((d) => d.id);
  if (on('#act-roll') && dice.length === 0) { await click('#act-roll'); return 'roll'; }
  for (const id of dice) {
    await deselect();
    await click('#' + id);
    if (on('#act-build')) { await click('#act-build'); return 'build'; }
  }
  await deselect();
  if (on('#act-end')) { await click('#act-end'); return 'end'; }
  if (dice.length) {
    await click('#' + dice[0]);
    if (on('#act-demolish')) { await click('#act-demolish'); return 'demolish'; }
  }
  return 'stuck';
}
"""
