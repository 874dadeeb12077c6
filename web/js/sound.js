// @ts-check
// The page's sounds, made in the page with Web Audio (no audio files): a few
// milliseconds of oscillators and noise per cue. web/js/effects.js makes the
// AudioContext inside a press and loads this module only then (a page whose sound is
// off never downloads it).

const VOLUME = 0.18;
/** The same sound is not started again within this many ms (a computer's quick steps). */
const AGAIN_MS = 120;

/** @type {AudioBuffer | null} */
let noise = null;
/** @type {Map<string, number>} */
const lastPlayed = new Map();

/** @param {AudioContext} ac */
function noiseBuffer(ac) {
  if (!noise) {
    noise = ac.createBuffer(1, Math.round(ac.sampleRate * 0.5), ac.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  return noise;
}

/**
 * A gain that rises at `at` and decays over `length` seconds, into the speakers.
 * @param {AudioContext} ac
 * @param {number} at
 * @param {number} length
 * @param {number} peak
 */
function envelope(ac, at, length, peak) {
  const gain = ac.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak * VOLUME, at + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  gain.connect(ac.destination);
  return gain;
}

/**
 * One note.
 * @param {AudioContext} ac
 * @param {OscillatorType} type
 * @param {number} from frequency at the start (Hz)
 * @param {number} to frequency at the end (Hz)
 * @param {number} at start time (s, the context's clock)
 * @param {number} length (s)
 * @param {number} peak relative loudness
 */
function tone(ac, type, from, to, at, length, peak = 1) {
  const osc = ac.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(from, at);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  osc.connect(envelope(ac, at, length, peak));
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/**
 * A burst of filtered noise: a click, a rattle, rubble.
 * @param {AudioContext} ac
 * @param {number} at
 * @param {number} length
 * @param {number} from filter frequency at the start (Hz)
 * @param {number} to filter frequency at the end (Hz)
 * @param {number} peak
 */
function hiss(ac, at, length, from, to, peak = 1) {
  const src = ac.createBufferSource();
  src.buffer = noiseBuffer(ac);
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = 1.5;
  filter.frequency.setValueAtTime(from, at);
  if (to !== from) filter.frequency.exponentialRampToValueAtTime(to, at + length);
  src.connect(filter).connect(envelope(ac, at, length, peak));
  src.start(at, Math.random() * 0.2);
  src.stop(at + length + 0.02);
}

/** @type {Record<string, (ac: AudioContext, t: number) => void>} */
const SOUNDS = {
  // dice rattling: a handful of clicks, closer together at first
  roll: (ac, t) => {
    for (let i = 0, at = t; i < 7; i++, at += 0.025 + i * 0.012) {
      hiss(ac, at, 0.04, 2600 + Math.random() * 1800, 1800, 1.2);
    }
  },
  take: (ac, t) => hiss(ac, t, 0.05, 3000, 2200, 0.7),
  // a floor set down: a short wooden knock
  floor: (ac, t) => {
    tone(ac, "sine", 220, 120, t, 0.14, 1.4);
    hiss(ac, t, 0.03, 1500, 900, 0.6);
  },
  // a building completed: a rising chime
  complete: (ac, t) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => {
      tone(ac, "triangle", f, f, t + i * 0.07, 0.35, 0.9);
    });
  },
  // a demolition: rubble falling, low rumble
  demolish: (ac, t) => {
    hiss(ac, t, 0.5, 1400, 160, 1.6);
    tone(ac, "sine", 90, 45, t, 0.45, 1.2);
  },
  abandon: (ac, t) => hiss(ac, t, 0.18, 2400, 700, 0.8),
  // a person here is to move: two bell notes
  your_turn: (ac, t) => {
    tone(ac, "sine", 880, 880, t, 0.3, 0.9);
    tone(ac, "sine", 1174.66, 1174.66, t + 0.12, 0.4, 0.9);
  },
  // the end: a short fanfare
  end: (ac, t) => {
    [392, 523.25, 659.25, 783.99].forEach((f, i) => {
      tone(ac, "triangle", f, f, t + i * 0.11, i === 3 ? 0.8 : 0.22, 1);
    });
  },
  sound_on: (ac, t) => tone(ac, "sine", 660, 880, t, 0.15, 0.8),
};

/**
 * Play the sound of each kind once (a completion sounds instead of the floor that
 * made it). A context still resuming plays them when it runs.
 * @param {AudioContext} ac
 * @param {string[]} kinds
 */
export function playSounds(ac, kinds) {
  if (ac.state === "closed") return;
  const now = performance.now();
  const wanted = new Set(kinds);
  if (wanted.has("complete")) wanted.delete("floor");
  let at = ac.currentTime + 0.01;
  for (const kind of wanted) {
    const sound = SOUNDS[kind];
    if (!sound || now - (lastPlayed.get(kind) ?? -Infinity) < AGAIN_MS) continue;
    lastPlayed.set(kind, now);
    sound(ac, at);
    at += 0.06;
  }
}
