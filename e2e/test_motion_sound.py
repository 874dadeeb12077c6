"""Motion and sound in the browser (web/js/effects.js, web/js/sound.js). Which cues each
action sends, once and never after a reload, is proven under CPython
(``tests/test_screen_cues.py``); here only what needs a browser: the cues move elements
(and nothing moves under prefers-reduced-motion), a press finishes what moves, and the
Sound switch is remembered with no AudioContext made before the player presses
something.

The page's animations run 20 times slower here (DevTools' animation playback rate), so
a busy machine cannot let one end before it is looked at."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from board_helpers import (
    POLICY_STEP,
    close_first_dialog,
    dice,
    new_game,
    play_turn,
    record,
    select_only,
    start_with_a_friend,
    take,
)
from playwright.sync_api import Page

from skyline.players.bots import get_bot
from skyline.records.game_links import make_game_link, parse_game_link

# Animations that end (the hint's pulse never does), still running.
RUNNING = """() => document.getAnimations().filter((a) => a.playState === "running"
    && Number.isFinite(a.effect.getComputedTiming().endTime)).length"""
# Running on a building of a skyline (a floor rising, a tile appearing).
ON_A_BUILDING = """() => document.getAnimations().some((a) => a.playState === "running"
    && a.effect.target instanceof Element && a.effect.target.closest("[data-lot]") !== null)"""

# A completed building's points floating up ("+N"), moving, while its tile moves too.
COMPLETION_MOVING = """() => [...document.querySelectorAll('#fx-layer .fx-points:not(.lost)')]
    .some((el) => /^\\+\\d+$/.test(el.textContent) && el.getAnimations().some(
      (a) => a.playState === 'running')) && (""" + ON_A_BUILDING + """)()"""

TAKEN_TWO = "() => document.querySelectorAll('#turn [data-testid=taken]').length === 2"

# Counts the AudioContexts the page makes and the Web Audio sources it starts (every
# sound is oscillators and noise buffers started at a time), installed before the
# page's scripts.
AUDIO_SPY = """(() => {
  window.__audioContexts = 0;
  window.__audioStarts = 0;
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audioContexts += 1; }
  };
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (...args) {
    window.__audioStarts += 1;
    return start.apply(this, args);
  };
})();"""


def slow_motion(page: Page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})


def test_actions_move_a_press_finishes_them_and_reduced_motion_keeps_still(app_page: Page) -> None:
    page = app_page
    slow_motion(page)
    close_first_dialog(page)
    new_game(page, ("Mo",), seed="motion1")

    # a press on the yard row under a die flying to the tray takes another die: what
    # flies is no target (the press is at the row's centre at once, as a quick tap is)
    page.click("#yard-G")
    row = page.locator("#yard-G").bounding_box()
    assert row is not None and page.evaluate(RUNNING) > 0
    page.mouse.click(row["x"] + row["width"] / 2, row["y"] + row["height"] / 2)
    page.wait_for_function(TAKEN_TWO, timeout=5000)
    page.emulate_media(reduced_motion="reduce")
    take(page, "G")
    page.click("#act-roll")
    assert page.evaluate(RUNNING) == 0
    assert page.locator("#fx-layer > *").count() == 0

    page.emulate_media(reduced_motion="no-preference")
    select_only(page, [dice(page)[0]["id"]])
    page.click("#act-build")  # a ground floor: a new building rises
    assert page.evaluate(ON_A_BUILDING)
    page.click("#log-title")  # a press anywhere: everything moving is at its end
    assert page.evaluate(RUNNING) == 0
    select_only(page, [d["id"] for d in dice(page)])
    page.click("#act-roll")  # the reroll tumbles, then a key finishes it too
    assert page.evaluate(RUNNING) > 0
    page.keyboard.press("Shift")
    assert page.evaluate(RUNNING) == 0


# Where the floating points are against the skyline that scored, after that skyline
# moved down by `shift` pixels (as a phone's row of skylines scrolls to the next player).
POINTS_AFTER_THE_CARD_MOVED = """async (shift) => {
  const float = document.querySelector('#fx-layer .fx-points');
  const card = document.querySelector('[data-testid="player-0"]');
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const before = float.getBoundingClientRect().top - card.getBoundingClientRect().top;
  card.style.marginTop = `${shift}px`;
  await frame(); await frame();
  return [before, float.getBoundingClientRect().top - card.getBoundingClientRect().top];
}"""


def test_a_completion_moves_its_tile_and_floats_its_points(app_page: Page) -> None:
    """A whole solo game played by clicks until a building is completed: its tile
    moves into place and its points float up from it, staying over its skyline when
    the skyline moves."""
    page = app_page
    slow_motion(page)
    close_first_dialog(page)
    new_game(page, ("Mo",), seed="motion2")
    for _ in range(600):
        step = page.evaluate(POLICY_STEP)
        assert step not in ("over", "stuck"), f"no completion moved before the {step}"
        if step == "build" and page.evaluate(COMPLETION_MOVING):
            break
    else:
        raise AssertionError("no building was completed")
    before, after = page.evaluate(POINTS_AFTER_THE_CARD_MOVED, 90)
    assert abs(after - before) < 12, (before, after)  # rising slowly, not left behind


def friends_reply(link: str) -> tuple[str, str]:
    """The friend's turn played elsewhere (the greedy computer's choices) on the game a
    link carries: the reply link's fragment and the game's record after it."""
    sent = parse_game_link("#" + link.split("#", 1)[1])
    board = sent.board
    seat = board.state.seat
    rng = random.Random(7)
    while board.state.seat == seat:
        board.push(get_bot("greedy")(board.state, rng))
    return make_game_link(board, sent.seats, sent.nonce), board.record()


def test_a_friends_turn_by_link_plays_on_the_board_and_skip_ends_it(
        app_page: Page, site_url: str) -> None:
    """Bo's turn arrives by link: the board shows it action by action at the pace (the
    bar says whose turn it shows, with Skip), things move; Skip shows the game as it is
    at once. Which actions are cued is proven under CPython (tests/test_screen_cues.py)."""
    page = app_page
    slow_motion(page)
    start_with_a_friend(page, "motion-link", friend="Bo")
    link = play_turn(page)
    page.click("#dlg-first")  # close "Send your move"
    reply, after = friends_reply(link)
    page.goto(site_url + "#" + reply)  # the same document: a hashchange
    bar = page.locator("[data-testid=bot-bar]")
    bar.get_by_text("Bo's turn, as it came in the link").wait_for()
    assert page.locator("#yard-G").is_disabled()  # the board as it was: Bo to move
    page.wait_for_function(f"({RUNNING})() > 0")  # Bo's actions move on the board
    page.click("#bot-skip")
    assert bar.count() == 0
    assert not page.locator("#yard-G").is_disabled()  # Ann's turn, as the game is now
    assert record(page) == after


def test_the_sound_switch_is_remembered_and_no_audio_before_a_press(
        app_page: Page, wait_ready: Callable[[Page], None]) -> None:
    page = app_page
    close_first_dialog(page)
    page.add_init_script(AUDIO_SPY)
    page.reload()
    wait_ready(page)
    switch = page.locator("#btn-sound")
    assert switch.get_attribute("aria-pressed") == "false"
    take(page, "GGG")  # presses with the sound off make no AudioContext, no sound
    page.click("#act-roll")
    assert page.evaluate("[window.__audioContexts, window.__audioStarts]") == [0, 0]

    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    assert page.evaluate("window.__audioContexts") == 1
    assert json.loads(page.evaluate("localStorage.getItem('skyline.settings')"))["sound"] == "on"
    started = page.evaluate("window.__audioStarts")  # the switch's own blip
    for _ in range(30):  # play on until a floor is built or the dice roll again
        if page.evaluate(POLICY_STEP) in ("build", "roll"):
            break
    assert page.evaluate("window.__audioStarts") > started

    page.reload()
    wait_ready(page)
    assert switch.get_attribute("aria-pressed") == "true"
    assert page.evaluate("window.__audioContexts") == 0  # on, but nothing pressed yet
    page.click("#log-title")
    assert page.evaluate("window.__audioContexts") == 1
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
