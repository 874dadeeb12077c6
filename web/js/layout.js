// @ts-check
// What the page's layout needs after a render that CSS cannot do: the player to move in
// view on a phone, and the cue on a skyline wider than its box.

const phone = matchMedia("(max-width: 480px)");
let shownTurn = "";

/**
 * On a phone the skylines are one sideways strip in seat order (style.css, "the table
 * on a phone"): a new render of it shows the player to move, or the skyline a tap on
 * its scoreboard chip asked for (`.shown`, page state in Python). Seats never move;
 * only the strip's view does. Elsewhere the strip does not scroll and this does
 * nothing. A new turn on a phone starts at the top: the table (style.css) fits one
 * screen there.
 * @param {Element} region the players' region, just rendered
 */
export function showActiveSeat(region) {
  const active = /** @type {HTMLElement | null} */ (region.querySelector(".player.active"));
  const seat = /** @type {HTMLElement | null} */ (region.querySelector(".player.shown")) ?? active;
  const strip = seat?.parentElement;
  if (!seat || !strip) return;
  const turn = `${active?.dataset.testid} ${document.querySelector("[data-testid=round]")?.textContent}`;
  if (turn !== shownTurn && phone.matches) scrollTo({ top: 0, behavior: "instant" });
  shownTurn = turn;
  if (strip.scrollWidth <= strip.clientWidth) return;
  const left = seat.getBoundingClientRect().left - strip.getBoundingClientRect().left;
  strip.scrollTo({ left: strip.scrollLeft + left, behavior: "instant" });
}

/**
 * A skyline wider than its box scrolls sideways: the side where buildings are out of
 * sight says so (data-more="left right", a fade and an arrow in style.css), after
 * every render, scroll and resize, so no building is hidden without a cue.
 * @param {Iterable<Element>} [streets]
 */
export function markSkylineOverflow(streets = document.querySelectorAll(".art-street")) {
  for (const street of streets) {
    if (!(street instanceof HTMLElement)) continue;
    const hidden = street.scrollWidth - street.clientWidth;
    const more = [];
    if (hidden > 1 && street.scrollLeft > 1) more.push("left");
    if (hidden > 1 && street.scrollLeft < hidden - 1) more.push("right");
    const value = more.join(" ");
    if ((street.dataset.more || "") !== value) {
      if (value) street.dataset.more = value;
      else delete street.dataset.more;
    }
  }
}

/** The cue follows the player's scrolling and the window's size. */
export function watchSkylines() {
  document.addEventListener("scroll", (event) => {
    if (event.target instanceof Element && event.target.matches(".art-street")) {
      markSkylineOverflow([event.target]);
    }
  }, { capture: true, passive: true });
  window.addEventListener("resize", () => markSkylineOverflow());
}
