// @ts-check
// The page's side of a live table: Python (web/main.py) decides everything and sends
// three DOM commands (web/js/render.js): liveJoin(secret), liveSend(to, text) and
// liveLeave(); this side runs the transport (web/js/live.js) and turns what happens on
// it into LiveEvents for Python (web/js/bridge.js): a device joined or left, a message,
// a tick every TICK_MS while joined (Python pings its peers then: it keeps no timer),
// whether any relay is reachable, the window going offline or online, an error.
//
// Nothing loads or connects before the first join: the transport module, with its npm
// library, is loaded by the `loadTransport` function given to connectLive (the page's:
// a dynamic import of ./live.js, the build's own entry of that name, precached by the
// service worker). This module imports nothing, so the tests can load it by itself with
// a transport of their choosing (e2e/test_live_transport.py).

/**
 * What the page tells Python about its live table (a PageEvent, web/js/bridge.js).
 * @typedef {object} LiveEvent
 * @property {"live"} kind
 * @property {"joined" | "left" | "message" | "tick" | "relays" | "offline" | "online"
 *   | "error"} what
 * @property {string | null} peer the device's peer id (joined, left, message), else null
 * @property {string} text the message; "open" or "closed" (relays); the error; else ""
 */
/**
 * The transport module (web/js/live.js), or a stand-in with its join().
 * @typedef {{join: (secret: string) => import("./live.js").LiveTable}} LiveTransport
 */
/**
 * What the page's render commands call.
 * @typedef {object} LivePage
 * @property {(secret: string) => void} join join the table of `secret`, leaving another
 * @property {(to: string, text: string) => void} send to device `to`, or every one ("")
 * @property {() => void} leave leave the table (channels, announcing, timers)
 */
/**
 * Timings and the window, injectable for the tests.
 * @typedef {object} LiveOptions
 * @property {number} [tickMs] the tick's period while joined
 * @property {number} [relayWaitMs] how long after a join no open relay means "closed"
 * @property {number} [relayPollMs] how often the relays are looked at until then
 * @property {() => boolean} [online] whether the device has a network (navigator.onLine)
 * @property {EventTarget} [events] where "online" and "offline" fire (window)
 */

/** Python pings its peers on every tick. */
export const TICK_MS = 4000;
/** No relay open this long after a join: the relays are reported "closed" (at once when
 * every relay refused the connection). */
export const RELAY_WAIT_MS = 8000;
/** Until then the relays are looked at this often, so "open" comes as soon as one is. */
const RELAY_POLL_MS = 250;

/**
 * The page's live table, driven by Python's commands.
 * @param {() => Promise<LiveTransport>} loadTransport loads the transport (at the first
 *   join, not before)
 * @param {(event: LiveEvent) => void} emit hands an event to Python
 * @param {LiveOptions} [options]
 * @returns {LivePage}
 */
export function connectLive(loadTransport, emit, options = {}) {
  const {
    tickMs = TICK_MS,
    relayWaitMs = RELAY_WAIT_MS,
    relayPollMs = RELAY_POLL_MS,
    online = () => navigator.onLine,
    events = window,
  } = options;
  /** @type {Promise<LiveTransport> | null} */
  let transport = null; // loaded once; a failed load is tried again at the next join
  /** @type {string | null} */
  let wanted = null; // the secret of the table Python wants, joined or not
  /** @type {"off" | "offline" | "loading" | "joined" | "failed"} */
  let state = "off";
  /** @type {import("./live.js").LiveTable | null} */
  let table = null;
  let generation = 0; // bumped by every stop: a join still loading is then dropped
  /** @type {Promise<void>} */
  let leaving = Promise.resolve(); // the last table's leave (a rejoin waits for it)
  /** @type {"open" | "closed" | null} */
  let relays = null; // what Python was last told, since this join
  /** @type {ReturnType<typeof setInterval>[]} */
  let timers = [];

  /**
   * @param {LiveEvent["what"]} what
   * @param {string | null} [peer]
   * @param {string} [text]
   */
  function tell(what, peer = null, text = "") {
    emit({ kind: "live", what, peer, text });
  }

  /** The relays' state now, told to Python if it is new. */
  function checkRelays() {
    if (!table) return;
    const open = table.relays().some((relay) => relay.open) ? "open" : "closed";
    if (open !== relays) {
      relays = open;
      tell("relays", null, open);
    }
  }

  function startTimers() {
    const joinedAt = Date.now();
    const poll = setInterval(() => {
      if (!table) return;
      const states = table.relays();
      // known at once when a relay is open or every one refused; else after the wait
      const known =
        states.some((relay) => relay.open) || states.every((relay) => relay.refused);
      if (known || Date.now() - joinedAt >= relayWaitMs) {
        clearInterval(poll);
        checkRelays();
      }
    }, relayPollMs);
    const tick = setInterval(() => {
      if (relays !== null) checkRelays(); // every change after the first report
      tell("tick");
    }, tickMs);
    timers = [poll, tick];
  }

  /** Stop the transport and the timers; `wanted` stays. */
  function stop() {
    generation += 1;
    for (const timer of timers) clearInterval(timer);
    timers = [];
    relays = null;
    const left = table;
    table = null;
    if (left) leaving = left.leave().catch(() => {});
    exposeForTests(null);
    state = "off";
  }

  /** @param {string} secret */
  async function start(secret) {
    const mine = ++generation;
    state = "loading";
    try {
      transport ??= loadTransport();
      const module = await transport;
      await leaving; // the library keeps a room until its leave is done
      if (mine !== generation) return;
      table = module.join(secret);
    } catch {
      if (mine !== generation) return;
      transport = null;
      state = "failed";
      tell("error", null, "unavailable");
      return;
    }
    state = "joined";
    const joined = table;
    // what a table says once it is left (its channels closing) is not Python's concern
    const current = () => table === joined;
    joined.onPeerJoin((peer) => current() && tell("joined", peer));
    joined.onPeerLeave((peer) => current() && tell("left", peer));
    joined.onMessage((text, peer) => current() && tell("message", peer, text));
    joined.onError((error) => current() && tell("error", null, String(error)));
    startTimers();
    exposeForTests(joined);
  }

  function onOffline() {
    if (wanted === null) return;
    stop();
    state = "offline";
    tell("offline");
  }

  function onOnline() {
    if (wanted === null) return;
    tell("online");
    if (state === "offline" || state === "failed") start(wanted);
  }

  function leave() {
    stop();
    wanted = null;
    events.removeEventListener("offline", onOffline);
    events.removeEventListener("online", onOnline);
  }

  return {
    join(secret) {
      if (wanted === secret && state !== "failed") return;
      if (wanted !== null) leave();
      wanted = secret;
      events.addEventListener("offline", onOffline);
      events.addEventListener("online", onOnline);
      if (!online()) {
        state = "offline";
        tell("offline");
        return;
      }
      start(secret);
    },
    send(to, text) {
      if (!table) return;
      try {
        // a device gone meanwhile: the message is lost, as on a channel that closes
        table.send(text, to === "" ? undefined : to).catch(() => {});
      } catch {
        // the same, refused at once
      }
    },
    leave,
  };
}

/**
 * Test-only: the joined table as `window.__skylineLive` when the e2e tests set their
 * relay override (`window.__skylineLiveRelays`), so a test can send raw messages from a
 * real device. Never otherwise.
 * @param {import("./live.js").LiveTable | null} table
 */
function exposeForTests(table) {
  if (typeof window === "undefined") return;
  // typed from globals.js without importing it (this module imports nothing)
  const page = /** @type {Window & import("./globals.js").SkylineGlobals} */ (window);
  if (!table) {
    delete page.__skylineLive;
    return;
  }
  if (!Array.isArray(page.__skylineLiveRelays)) return;
  page.__skylineLive = {
    self: table.self,
    peers: () => table.peers(),
    send: (text, to) => table.send(text, to),
  };
}
