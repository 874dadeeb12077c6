// @ts-check
// Motion and sound for what just happened on the table. Python sends the cues of the
// actions it just applied (web/app/core/cues.py) as one `cue` DOM command placed before
// the regions' new HTML (web/js/render.js): noteCues keeps a picture (position, size,
// a copy) of each element the cues say is about to go; once the batch is applied,
// playCues animates the new elements and the pictures, and plays the sounds
// (web/js/sound.js, loaded once the sound is on and the player has pressed something).
//
// The rules: only transform and opacity move (the layout never shifts: the pictures of
// removed elements are copies in a fixed overlay that takes no space and no pointer);
// under prefers-reduced-motion: reduce nothing moves; and motion never delays input:
// a press or a key finishes every running animation at once, before the page's own
// listener sees the event. Nothing here is saved: a reload shows the table still.
//
// Sound: the AudioContext is created or resumed only inside a press or a key, and only
// when the Sound switch is on or is the thing pressed: no sound, and no AudioContext,
// before the player's first interaction.

/**
 * One cue (app.core.cues.Cue.as_json): the elements as CSS selectors.
 * @typedef {{kind: string, targets: string[], sources: string[], points: number | null}} Cue
 */
/** @typedef {{sound: boolean, cues: Cue[]}} CueBatch */
/** A picture of an element about to go: where it was, its font size, a copy.
 * @typedef {{rect: DOMRect, fontSize: string, copy: Element}} Picture */
/** @typedef {(cue: Cue, pictures: Map<string, Picture>) => void} Motion */

const SMOOTH = "cubic-bezier(0.2, 0.8, 0.3, 1)";
const SPRING = "cubic-bezier(0.3, 1.5, 0.5, 1)";
const STEP_MS = 220; // between two rows of the ranking
const LAYER = "fx-layer";
const SOUND_SWITCH = "btn-sound";

const still = matchMedia("(prefers-reduced-motion: reduce)");

/** @type {{batch: CueBatch, pictures: Map<string, Picture>} | null} */
let pending = null;
/** @type {AudioContext | null} */
let audio = null;
/** @type {Promise<typeof import("./sound.js")> | null} */
let sounds = null;

/**
 * The `cue` command, before the regions change: remember the cues, and a picture of
 * each element they start from.
 * @param {string} json CueBatch as JSON
 */
export function noteCues(json) {
  const batch = /** @type {CueBatch} */ (JSON.parse(json));
  const pictures = pending?.pictures ?? new Map();
  if (!still.matches) {
    for (const cue of batch.cues) {
      for (const selector of cue.sources) {
        const el = pictures.has(selector) ? null : document.querySelector(selector);
        if (el) pictures.set(selector, picture(el));
      }
    }
  }
  pending = pending
    ? { batch: { sound: batch.sound, cues: [...pending.batch.cues, ...batch.cues] }, pictures }
    : { batch, pictures };
}

/** The batch is applied: move and sound what the cues say. */
export function playCues() {
  if (!pending) return;
  const { batch, pictures } = pending;
  pending = null;
  const ac = audio;
  if (batch.sound && ac) {
    const kinds = batch.cues.map((cue) => cue.kind);
    loadSounds().then((module) => module.playSounds(ac, kinds), () => {});
  }
  if (still.matches) return;
  for (const cue of batch.cues) MOTION[cue.kind]?.(cue, pictures);
}

/** Listen for presses and keys, before anything else on the page. */
export function installEffects() {
  for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, onInput, true);
}

/** @param {Event} event */
function onInput(event) {
  finishAll();
  unlockSound(event);
}

function loadSounds() {
  sounds ??= import("./sound.js");
  return sounds;
}

/**
 * Inside a press or a key: create or resume the AudioContext when the sound is on or
 * the Sound switch itself is pressed (about to be switched on).
 * @param {Event} event
 */
function unlockSound(event) {
  const target = event.target instanceof Element ? event.target : null;
  const on = document.getElementById(SOUND_SWITCH)?.getAttribute("aria-pressed") === "true";
  if (!on && !target?.closest(`#${SOUND_SWITCH}`)) return;
  if (typeof AudioContext === "undefined") return;
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume();
    void loadSounds();
  } catch {
    audio = null; // no sound on this device: the game plays on silently
  }
}

/**
 * Every running animation jumps to its end (its copy in the overlay goes with it);
 * endless ones (a pulsing hint) and scroll-driven ones are left alone.
 */
export function finishAll() {
  for (const animation of document.getAnimations()) {
    if (animation.timeline !== document.timeline) continue;
    const end = animation.effect?.getComputedTiming().endTime;
    if (typeof end === "number" && Number.isFinite(end)) animation.finish();
  }
}

// ---------------------------------------------------------------------------- helpers

/** @param {Element} el @returns {Picture} */
function picture(el) {
  const copy = /** @type {Element} */ (el.cloneNode(true));
  // a copy is a picture: no id, no test id, no command, nothing to read or press
  for (const node of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of ["id", "data-testid", "data-die", "data-lot", "data-action", "aria-label"]) {
      node.removeAttribute(name);
    }
  }
  return { rect: el.getBoundingClientRect(), fontSize: getComputedStyle(el).fontSize, copy };
}

/** @param {string | undefined} selector */
function find(selector) {
  return selector ? document.querySelector(selector) : null;
}

/** The fixed overlay the pictures and floating points live in (made on first need). */
function layer() {
  let el = document.getElementById(LAYER);
  if (!el) {
    el = document.createElement("div");
    el.id = LAYER;
    el.setAttribute("aria-hidden", "true");
    el.inert = true;
    // inside the app, so the copies keep the app's styles (out of flow: no space taken)
    (document.getElementById("app") ?? document.body).append(el);
  }
  return el;
}

/**
 * An element of the overlay at `rect` (viewport coordinates), gone when its
 * animation ends, is finished or cancelled.
 * @param {string} className
 * @param {DOMRect} rect
 * @param {Keyframe[]} frames
 * @param {KeyframeAnimationOptions} timing
 * @param {Node | string} content
 * @param {string} [fontSize]
 * @returns {HTMLElement}
 */
function overlay(className, rect, frames, timing, content, fontSize) {
  const box = document.createElement("div");
  box.className = `fx-ghost ${className}`;
  box.style.left = `${rect.left}px`;
  box.style.top = `${rect.top}px`;
  box.style.width = `${rect.width}px`;
  box.style.height = `${rect.height}px`;
  if (fontSize) box.style.fontSize = fontSize;
  box.append(content);
  layer().append(box);
  const animation = box.animate(frames, timing);
  const gone = () => box.remove();
  animation.finished.then(gone, gone);
  return box;
}

/**
 * Keep an overlay element where it was put relative to `selector`'s element while it
 * lives: the overlay is fixed to the screen, and the card it belongs to may scroll or
 * move (a phone's row of skylines snaps to the player to move; the next render).
 * @param {HTMLElement} box
 * @param {string} selector
 */
function follow(box, selector) {
  const anchor = find(selector);
  if (!anchor) return;
  const start = anchor.getBoundingClientRect();
  const left = Number.parseFloat(box.style.left);
  const top = Number.parseFloat(box.style.top);
  const step = () => {
    if (!box.isConnected) return;
    const now = find(selector)?.getBoundingClientRect();
    if (now) {
      box.style.left = `${left + now.left - start.left}px`;
      box.style.top = `${top + now.top - start.top}px`;
    }
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/**
 * The skyline (player card) a lot selector of app.core.cues belongs to.
 * @param {string | undefined} lot e.g. `[data-lot="tile-1-0"]`
 */
function cardOf(lot) {
  const seat = /data-lot="[a-z]+-(\d+)-/.exec(lot ?? "")?.[1];
  return seat === undefined ? "" : `[data-testid="player-${seat}"]`;
}

/** @param {DOMRect} a @param {DOMRect} b */
function offset(a, b) {
  return [a.left + a.width / 2 - (b.left + b.width / 2), a.top + a.height / 2 - (b.top + b.height / 2)];
}

/**
 * The points a building won or lost, floating up from it and staying over its skyline
 * (`card`) however that moves.
 * @param {DOMRect} rect
 * @param {number | null} points
 * @param {number} delay
 * @param {string} card
 */
function floatPoints(rect, points, delay, card) {
  if (!points) return;
  const at = new DOMRect(rect.left, rect.top - 8, rect.width, 24);
  const box = overlay(points > 0 ? "fx-points" : "fx-points lost", at,
    [{ transform: "translateY(0.4em) scale(0.8)", opacity: 0 },
      { transform: "translateY(-0.6em) scale(1.1)", opacity: 1, offset: 0.25 },
      { transform: "translateY(-2.6em)", opacity: 0 }],
    { duration: 1300, delay, easing: "ease-out", fill: "backwards" },
    points > 0 ? `+${points}` : `\u2212${-points}`);
  if (card) follow(box, card);
}

// ---------------------------------------------------------------------------- motions

/** @type {Record<string, Motion>} */
const MOTION = {
  // dice leave the yard (or the district) for the tray: a copy flies in the overlay,
  // which takes no pointer, while the die itself waits unseen in its place, so a press
  // on the yard row under the flight takes another die and one on the die acts on it
  take: (cue, pictures) => {
    cue.targets.forEach((selector, i) => {
      const el = find(selector);
      const from = pictures.get(cue.sources[i])?.rect ?? find(cue.sources[i])?.getBoundingClientRect();
      if (!el || !from) return;
      const to = el.getBoundingClientRect();
      const [dx, dy] = offset(from, to);
      const timing = { duration: 380, delay: i * 60, easing: SMOOTH, fill: /** @type {const} */ ("backwards") };
      const shot = picture(el);
      overlay("fx-fly", to, [{ transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0.3 },
        { transform: "none", opacity: 1 }], timing, shot.copy, shot.fontSize);
      el.animate([{ opacity: 0 }, { opacity: 0 }], { duration: timing.duration + timing.delay });
    });
  },
  // a floor rises into place
  floor: (cue) => {
    const pic = find(cue.targets[0])?.querySelector(".art-pic");
    pic?.animate([{ transform: "translateY(0.9em)", opacity: 0.2 }, { transform: "none", opacity: 1 }],
      { duration: 420, easing: SPRING });
  },
  // the column becomes its tile (it moves to the completed buildings), points float up
  complete: (cue, pictures) => {
    const lot = find(cue.targets[0]);
    const pic = lot?.querySelector(".art-pic");
    if (!lot || !pic) return;
    const to = pic.getBoundingClientRect();
    const from = pictures.get(cue.sources[0])?.rect;
    const [dx, dy] = from ? offset(from, to) : [0, 0];
    pic.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.5 },
      { transform: "translateY(-0.3em) scale(1.12)", opacity: 1, offset: 0.6 },
      { transform: "none", opacity: 1 }], { duration: 650, easing: SMOOTH });
    floatPoints(to, cue.points, 250, cardOf(cue.targets[0]));
  },
  // a building crumbles where it stood
  demolish: (cue, pictures) => {
    const pic = pictures.get(cue.sources[0]);
    if (!pic) return;
    overlay("fx-crumble", pic.rect,
      [{ transform: "none", opacity: 1 },
        { transform: "translateY(0.2em) rotate(-3deg) scaleY(0.75)", opacity: 0.85, offset: 0.35 },
        { transform: "translateY(1em) rotate(5deg) scaleY(0.15)", opacity: 0 }],
      { duration: 700, easing: "ease-in" }, pic.copy, pic.fontSize);
    floatPoints(pic.rect, cue.points, 100, cardOf(cue.sources[0]));
  },
  // abandoned dice slide to the district
  abandon: (cue, pictures) => {
    const to = find(cue.targets[0])?.getBoundingClientRect();
    cue.sources.forEach((selector, i) => {
      const pic = pictures.get(selector);
      if (!pic || !to) return;
      const [dx, dy] = offset(to, pic.rect);
      overlay("fx-slide", pic.rect,
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0 }],
        { duration: 550, delay: i * 70, easing: "ease-in-out" }, pic.copy, pic.fontSize);
    });
  },
  // a person here is to move: their card nods
  your_turn: (cue) => {
    find(cue.targets[0])?.animate([{ transform: "none" }, { transform: "scale(1.02)" }, { transform: "none" }],
      { duration: 500, easing: "ease-in-out" });
  },
  // the ranking, revealed from the last place up
  end: (cue) => {
    cue.targets.forEach((selector, i) => {
      find(selector)?.animate([{ transform: "translateY(0.6em)", opacity: 0 }, { transform: "none", opacity: 1 }],
        { duration: 380, delay: i * STEP_MS, easing: SMOOTH, fill: "backwards" });
    });
  },
  // the winners' skylines light up once the ranking is out
  win: (cue) => {
    const rows = document.querySelectorAll(".scoring tbody tr").length;
    const delay = rows * STEP_MS + 150;
    for (const selector of cue.targets) {
      const card = find(selector);
      const street = card?.querySelector(".art-street");
      if (!card || !street) continue;
      card.querySelectorAll(".art-lot .art-pic").forEach((pic, i) => {
        pic.animate([{ transform: "none" }, { transform: "translateY(-0.35em)" }, { transform: "none" }],
          { duration: 420, delay: delay + i * 70, easing: "ease-in-out" });
      });
      overlay("fx-glow", street.getBoundingClientRect(),
        [{ opacity: 0 }, { opacity: 1, offset: 0.3 }, { opacity: 0 }],
        { duration: 1600, delay, easing: "ease-in-out", fill: "backwards" }, "");
    }
  },
};
