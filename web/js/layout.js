// @ts-check
// What the page's layout needs after a render that CSS cannot do: the player to move in
// view on a phone, every skyline fitting its street, and the cue on a skyline that
// still does not (a street narrower than a building).

const phone = matchMedia("(max-width: 480px)");
let shownTurn = "";

/**
 * On a phone the skylines are one sideways strip in seat order (style.css, "the table
 * on a phone"): a new render of it shows the player to move, or the skyline a tap on
 * its scoreboard chip asked for (`.shown`, page state in Python). Seats never move;
 * only the strip's view does. Elsewhere the strip does not scroll and this does
 * nothing. A new turn on a phone starts at the top: the table (style.css) fits one
 * screen there. The game's end starts at the top on every screen.
 * @param {Element} region the players' region, just rendered
 */
export function showActiveSeat(region) {
  const end = /** @type {HTMLElement | null} */ (region.querySelector(".player-list.over"));
  if (end) {
    // the game's end, once: the page at its top, where the final scoring and the
    // winner's skyline (the first in the ranking's order, style.css) are; after the
    // render's focus (New game), which would scroll to itself on a phone
    if (shownTurn !== "over") {
      requestAnimationFrame(() => {
        scrollTo({ top: 0, behavior: "instant" });
        end.scrollTo({ left: 0, behavior: "instant" });
      });
    }
    shownTurn = "over";
    return;
  }
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
  window.addEventListener("resize", () => {
    fitSkylines();
    markSkylineOverflow();
  });
}

/**
 * Every skyline of a table at one scale that fits the fullest one in its street: a
 * street that would be wider than its box (up to 12 buildings and more) draws the whole
 * table smaller instead of scrolling sideways. `--fit` on the list of skylines scales
 * the rows' font size (style.css, .art-row), and every length in a row is in em, so a
 * row's width is in proportion to it.
 * @param {ParentNode} [root]
 */
export function fitSkylines(root = document) {
  for (const list of root.querySelectorAll(".player-list")) {
    if (!(list instanceof HTMLElement)) continue;
    const fit = Number(list.style.getPropertyValue("--fit")) || 1;
    let need = 0;
    let room = Number.POSITIVE_INFINITY;
    for (const row of list.querySelectorAll(".art-row")) {
      const street = row.parentElement;
      if (!street || street.clientWidth === 0) continue;
      // the street's two ends (style.css, .art-row::before and ::after: 1.25 em)
      let width = 1.25 * Number.parseFloat(getComputedStyle(row).fontSize);
      for (const lot of row.children) width += lot.getBoundingClientRect().width;
      need = Math.max(need, width / fit);
      room = Math.min(room, street.clientWidth - 1);
    }
    const next = need > room ? Math.floor((room / need) * 1000) / 1000 : 1;
    if (Math.abs(next - fit) < 0.002) continue;
    if (next < 1) list.style.setProperty("--fit", String(next));
    else list.style.removeProperty("--fit");
  }
}
