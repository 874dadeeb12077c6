"""The table at six screen sizes, in English and German: 1280x800, 1024x768, 800x600,
768x1024 (one desktop context) and 390x844, 360x740 (touch phones). A solo game and a
game against a computer are played a few turns; at every turn's start, at every size,
the whole yard (each dice row, the penthouse row too) and every command of the action
bar are on screen under the sticky top bar without scrolling (as
test_scoreboard_and_seats_in_view.py measures them), the top bar keeps one height for
the whole game, the round label is not under the tools, no skyline hides buildings
without its cue (``data-more``), no dice captions run into each other (the tray full
after the dice are taken) and the page never scrolls sideways. In the game against the
computer, from the human's first take to the end of the turn the board holds still,
measured after every step at every size: no region changes its place or size (the top
bar, the turn panel, the yard, the district, the skylines and each skyline's card; the
log keeps its place), and the yard and the skyline of the player to move are wholly on
screen. On a phone the turn panel's text (the prompt, the reasons) changes its height,
so there the top bar, the skylines and the turn panel's place hold still; the phone
plays its first turn against the computer with Hint open. On Learn to play's first step
the action bar and the card's Next are on screen at every size, and from 481 px the
card, the dice, the commands, the yard and the skylines keep their places over the next
two steps.

Each group of sizes plays in one page (the game is played at the group's first size
and measured at each of its sizes in turn); ``SKYLINE_VIEWPORT_SHOTS=<folder>`` saves a
screenshot at each size of a turn's start and of Learn to play's first step.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from board_helpers import CURRENT_RAW, POLICY_STEP
from playwright.sync_api import BrowserContext, Page

DESKTOP = ((1280, 800), (1024, 768), (800, 600), (768, 1024))
PHONE = ((390, 844), (360, 740))
GROUPS = {"desktop": DESKTOP, "phone": PHONE}
SHOTS = os.environ.get("SKYLINE_VIEWPORT_SHOTS")
GAMES = {  # a short scripted game of each kind (the human, Ann, starts): its link, and
    # how many of the human's turns are measured
    "solo": ("#play?p=Ann&seed=view-solo", 2),
    "computer": ("#play?p=Ann,Robo&seed=view-duel&start=0&bots=1g", 3),
}

# The games whose human turns are measured step by step (the board holding still): the
# solo game's turns are measured at their start only
STILL_GAMES = ("computer",)
BAR_SHARE = 0.15  # the sticky top bar takes at most this share of the screen's height
TURN_START = """() => !document.querySelector('[data-testid=taken]') &&
  !!document.querySelector('#yard-G:not([disabled])')"""
# What a size shows as the page stands (no scrolling): the parts wholly on screen under
# the sticky top bar, as test_scoreboard_and_seats_in_view.py's TABLE measures them.
MEASURE = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  // the page at rest: what moves (web/js/effects.js, transforms only) is at its end
  for (const a of document.getAnimations()) {
    if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish();
  }
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  const bar = q('.topbar').getBoundingClientRect();
  const inView = (el) => { const r = el.getBoundingClientRect();
    return r.top >= bar.bottom && r.bottom <= innerHeight && r.left >= 0 &&
      r.right <= innerWidth; };
  const name = (el) => el.id || el.className;
  const meet = (a, b) => a.top < b.bottom && b.top < a.bottom && a.left < b.right - 0.5 &&
    b.left < a.right - 0.5;
  const round = q('[data-testid=round]')?.getBoundingClientRect();
  const caps = all('#turn .die-cap').map((c) => c.getBoundingClientRect());
  return {
    bar: Math.round(bar.height),
    yard: all('.yard, .yard-row').filter((e) => !inView(e)).map(name),
    commands: all('#turn .actions button').filter((e) => !inView(e)).map(name),
    learn: all('#turn .actions button, #tutorial-next').filter((e) => !inView(e)).map(name),
    covered: round ? all('.topbar .tools button, #btn-menu')
      .filter((b) => b.offsetParent && meet(round, b.getBoundingClientRect())).map(name) : [],
    hidden: all('.art-street')
      .filter((s) => s.scrollWidth - s.clientWidth > 1 && !s.dataset.more).length,
    captions: caps.filter((a, i) => caps.some((b, j) => j > i && meet(a, b))).length,
    dice: caps.length,
    wide: document.documentElement.scrollWidth > innerWidth,
  };
}"""
# Where each region of the board is (left, top in the page, width, height) and whether
# the yard and the skyline of the player to move are wholly on screen under the top bar.
BOXES = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (const a of document.getAnimations()) {
    if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish();
  }
  const q = (s) => document.querySelector(s);
  const bar = q('.topbar').getBoundingClientRect();
  const box = (e) => { if (!e) return null;  // a solo game has no district
    const r = e.getBoundingClientRect();
    return [r.left, r.top + scrollY, r.width, r.height].map(Math.round); };
  const inView = (e) => { const r = e.getBoundingClientRect();
    return r.top >= bar.bottom - 1 && r.bottom <= innerHeight + 1 && r.left >= -1 &&
      r.right <= innerWidth + 1; };
  const boxes = { 'top bar': box(q('.topbar')), 'turn panel': box(q('#turn')),
    'yard': box(q('.yard')), 'district': box(q('.district')), 'skylines': box(q('#players')),
    'log': box(q('#log'))?.slice(0, 2) };
  for (const card of document.querySelectorAll('.player')) boxes[card.id] = box(card);
  const active = q('.player.active');
  return { boxes, yard: inView(q('.yard')), skyline: !active || inView(active) };
}"""
# Learn to play's board: where the card, the dice, the commands, the yard and the
# skylines are (the element a step marks to be pressed: LEARN_MARKED)
LEARN_BOXES = """() => Object.fromEntries(['#coach', '#turn .tray', '#turn .actions', '.yard',
  '#players'].map((s) => { const r = document.querySelector(s).getBoundingClientRect();
    return [s, [r.left, r.top + scrollY, r.width, r.height].map(Math.round)]; }))"""
LEARN_MARKED = "#turn .hinted, #supply .hinted, #players .art-lot.hinted button"
# On a phone these hold still, and the turn panel's place (its height changes with its
# text, and what is under it moves)
PHONE_STILL = ("top bar", "skylines", "skyline-0", "skyline-1")
# The human plays by the e2e policy until they have taken three dice ("taken": the tray
# full, not yet rolled), until their next turn starts ("turn"; the computer's turn
# skipped through), until any turn of theirs starts ("next") or the game ends.
PLAY = f"""async (until) => {{
  const q = (s) => document.querySelector(s);
  const turnStart = {TURN_START};
  const policy = {POLICY_STEP.strip()};
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  let left = false;
  let takes = 0;
  for (let i = 0; i < 2000; i++) {{
    if (q('[data-testid=scoring]')) return 'over';
    if (until === 'taken' && takes === 3) return 'taken';
    if (until === 'next' && turnStart()) return 'next';
    if (until === 'turn' && left && turnStart()) return 'turn';
    const pace = q('#bot-pace');
    if (pace && pace.value !== 'instant') {{  // the computer's turn at once (remembered)
      pace.value = 'instant';
      pace.dispatchEvent(new Event('change', {{ bubbles: true }}));
      await window.skylineHost.settled();
      continue;
    }}
    const skip = q('#bot-skip:not([disabled])');
    if (skip) {{ skip.click(); await window.skylineHost.settled(); await sleep(20); continue; }}
    if (q('[data-testid=bot-bar]')) {{ await sleep(20); continue; }}
    const step = await policy();
    if (step === 'stuck') {{ await sleep(20); continue; }}
    if (step === 'take') takes += 1;
    left = true;
  }}
  return 'no end';
}}"""


@pytest.fixture
def phone_context(warm_context: Callable[..., BrowserContext],
                  site_url: str) -> BrowserContext:
    """A touch phone context for both phone sizes, new to the player (a copy of the warm
    profile: the page restores Python instead of booting it cold)."""
    return warm_context(viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True, base_url=site_url)


def size_of(page: Page) -> str:
    v = page.viewport_size
    assert v is not None
    return f"{v['width']}x{v['height']}"


def at(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


def shoot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{size_of(page)}.png"))


def tool(page: Page, selector: str) -> None:
    """Press a top-bar tool, through the menu where the tools are folded into it."""
    if not page.locator(selector).is_visible():
        page.click("#btn-menu")
    page.click(selector)


def use_lang(page: Page, lang: str) -> None:
    if page.evaluate("document.documentElement.lang") != lang:
        tool(page, "#btn-lang")
    assert page.evaluate("document.documentElement.lang") == lang


def start(page: Page, site_url: str, link: str) -> None:
    """Open a game link (same document: a hashchange), over the game in progress."""
    page.goto(site_url + link)
    seed = link.split("seed=")[1].split("&")[0]
    page.wait_for_function(
        f"""() => !!document.querySelector('[data-testid=dialog-confirm_link] #dlg-first') ||
          ({CURRENT_RAW} || '').includes('seed={seed} ')""")
    confirm = page.locator("[data-testid=dialog-confirm_link] #dlg-first")
    if confirm.count():
        confirm.click()
    page.wait_for_function(f"() => ({CURRENT_RAW} || '').includes('seed={seed} ')")
    page.wait_for_function(TURN_START)


def measure(page: Page, sizes: tuple[tuple[int, int], ...], where: str,
            bars: dict[str, set[int]], turn_start: bool) -> list[str]:
    """What is wrong at each size (the game stands still meanwhile); then back to the
    first size, where the game is played."""
    wrong = []
    for size in sizes:
        at(page, size)
        m = page.evaluate(MEASURE)
        here = f"{size_of(page)} {where}"
        if turn_start and m["yard"]:
            wrong.append(f"{here}: the yard is not wholly on screen: {m['yard']}")
        if turn_start and m["commands"]:
            wrong.append(f"{here}: commands off screen: {m['commands']}")
        if not turn_start and m["dice"] != 3:
            wrong.append(f"{here}: {m['dice']} dice captions")
        if m["covered"]:
            wrong.append(f"{here}: the round label is under {m['covered']}")
        if m["hidden"]:
            wrong.append(f"{here}: a skyline hides buildings without a cue")
        if m["captions"]:
            wrong.append(f"{here}: dice captions run into each other")
        if m["wide"]:
            wrong.append(f"{here}: the page scrolls sideways")
        if m["bar"] > BAR_SHARE * size[1]:
            wrong.append(f"{here}: the top bar is {m['bar']} px tall")
        bars[size_of(page)].add(m["bar"])
    at(page, sizes[0])
    return wrong


def hold_still(page: Page, sizes: tuple[tuple[int, int], ...], where: str,
               bars: dict[str, set[int]], phone: bool, captions: bool) -> list[str]:
    """Play the human's turn by the policy, step by step up to its end, and say what moved
    after the first take or left the screen (at each size); with ``captions``, measure
    the dice captions once three dice are taken (:func:`measure`)."""
    wrong: list[str] = []
    first: dict[tuple[int, int], dict] = {}
    takes = 0
    while True:
        step = page.evaluate(POLICY_STEP)
        assert step not in ("stuck", "over"), f"{where}: the policy ended with {step!r}"
        if step == "end":
            return wrong
        takes += step == "take"
        if captions and takes == 3 and step == "take":
            wrong += measure(page, sizes, f"{where}, dice taken", bars, False)
        for size in sizes:
            at(page, size)
            m = page.evaluate(BOXES)
            here = f"{size_of(page)} {where}, after {step}"
            if not m["yard"]:
                wrong.append(f"{here}: the yard is not wholly on screen")
            if not m["skyline"]:
                wrong.append(f"{here}: the skyline of the player to move is not on screen")
            before = first.setdefault(size, m["boxes"])
            for name, now in m["boxes"].items():
                was = before.get(name) or now
                if now is None:
                    continue
                if phone and name == "turn panel":
                    was, now = was[:3], now[:3]  # its place only
                elif phone and name not in PHONE_STILL:
                    continue
                if any(abs(a - b) > 1 for a, b in zip(was, now, strict=True)):
                    wrong.append(f"{here}: the {name} moved from {was} to {now}")
        at(page, sizes[0])


def play(page: Page, until: str) -> None:
    end = page.evaluate(PLAY, until)
    assert end == until, f"the policy ended with {end!r} instead of {until!r}"


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("group", list(GROUPS))
def test_turn_starts_and_learn_to_play_at_every_size(
    request: pytest.FixtureRequest, site_url: str, wait_ready, guard, group: str,
    lang: str,
) -> None:
    sizes = GROUPS[group]
    if group == "desktop":
        page = request.getfixturevalue("app_page")
    else:
        page = request.getfixturevalue("phone_context").new_page()
        guard.attach(page)
        page.goto(site_url, wait_until="commit")
        wait_ready(page)
    try:
        at(page, sizes[0])
        if page.locator("[data-testid=dialog-newgame]").count():
            page.click("#ng-cancel")
        use_lang(page, lang)
        bars: dict[str, set[int]] = {f"{w}x{h}": set() for w, h in sizes}
        wrong: list[str] = []
        for game, (link, turns) in GAMES.items():
            start(page, site_url, link)
            for turn in range(1, turns + 1):
                where = f"{lang}, {game} game, turn {turn}"
                wrong += measure(page, sizes, f"{where}'s start", bars, True)
                if turn == 2 and game == "computer":  # under the computer's last turn
                    for size in sizes:
                        at(page, size)
                        shoot(page, f"{lang}-turn")
                    at(page, sizes[0])
                if group == "phone" and game == "computer" and turn == 1:
                    # with Hint open the yard it marks stays on screen (with the skyline)
                    page.click("#btn-hint")
                    page.locator("[data-testid=hint]").wait_for()
                if game in STILL_GAMES:
                    # the tray full on the first turn: the captions (the policy takes G,
                    # U, P)
                    wrong += hold_still(page, sizes, where, bars, group == "phone", turn == 1)
                    play(page, "next")
                    continue
                if turn == 1:  # the tray full: the captions
                    play(page, "taken")
                    wrong += measure(page, sizes, f"{where}, dice taken", bars, False)
                play(page, "turn")
        wrong += [f"{size} {lang}: the top bar changed height: {sorted(heights)}"
                  for size, heights in bars.items() if len(heights) > 1]
        # Learn to play's first step: the card leaves the commands on screen
        tool(page, "#btn-learn")
        page.locator("#coach[data-step=intro]").wait_for()
        steps: dict[tuple[int, int], dict] = {}
        for size in sizes:
            at(page, size)
            m = page.evaluate(MEASURE)
            shoot(page, f"{lang}-learn")
            if m["learn"]:
                wrong.append(f"{size_of(page)} {lang}: Learn to play's first step leaves off "
                             f"screen {m['learn']}")
            steps[size] = page.evaluate(LEARN_BOXES)
        at(page, sizes[0])
        if group == "desktop":  # from 481 px the board holds still from step to step
            for press in ("#tutorial-next", LEARN_MARKED):  # Next, then the step's press
                page.locator(press).first.click()
                step = page.get_attribute("#coach", "data-step")
                for size in sizes:
                    at(page, size)
                    now = page.evaluate(LEARN_BOXES)
                    wrong += [f"{size_of(page)} {lang}: Learn to play's {step} step moved the "
                              f"{name} from {steps[size][name]} to {box}"
                              for name, box in now.items() if box != steps[size][name]]
                at(page, sizes[0])
        page.click("#tutorial-leave")
        assert page.locator("#coach").count() == 0
        assert not wrong, "\n".join(wrong)
    finally:
        if group == "phone" and not page.is_closed():
            page.evaluate("localStorage.clear(); sessionStorage.clear()")
            page.close()
