// @ts-check
// Live tables' transport: the devices of one table talk over WebRTC data channels,
// found through public Nostr relays (npm @trystero-p2p/nostr, trystero's Nostr
// strategy). Nothing here runs until join() is called, which the page does only when a
// player opens a live table: importing this module connects to nothing.
//
// The room is derived from the invitation's secret: a relay sees hashes of it (the
// topics), random peer ids and one-off public keys, and the devices' offers, answers
// and ICE candidates encrypted with a key derived from the secret (AES-GCM), as
// ephemeral events (kinds 20000-29999, which relays pass on and do not store); it
// never sees the secret, the game, the names or a message (those go device to device).
// docs/dependencies.md has the measurements behind the choice of strategy.

import { getRelaySockets, joinRoom, resumeRelayReconnection, selfId } from "@trystero-p2p/nostr";

/** The public relays (Nostr relays) a live table announces itself on, all at once for
 * redundancy: devices meet through any one relay they share. Taken from the library's
 * own list of relays it works with. The one list: the Content-Security-Policy's
 * connect-src must name exactly these. */
export const RELAYS = Object.freeze([
  "wss://nos.lol",
  "wss://relay.mostr.pub",
  "wss://purplerelay.com",
  "wss://nostr.data.haus",
  "wss://yabu.me/v2",
]);

/** The STUN servers WebRTC asks for this device's public address (its server-reflexive
 * ICE candidates), so that two devices behind ordinary NATs can reach each other:
 * trystero's own defaults (npm @trystero-p2p/core, `defaultIceServers` in peer.mjs),
 * named here so the list is ours to see and change. STUN is not governed by the
 * Content-Security-Policy's connect-src. No TURN server: two devices both behind strict
 * (symmetric) NATs cannot connect, and the page falls back to the correspondence link. */
export const STUN_SERVERS = Object.freeze([
  "stun:stun.l.google.com:19302",
  "stun:stun1.l.google.com:19302",
  "stun:stun2.l.google.com:19302",
  "stun:stun.cloudflare.com:3478",
]);

/** Names the app in the room's hash, with the version of the live protocol: devices of
 * another protocol version never meet. */
const APP_ID = "skyline-live-1";
/** A message longer than this (characters) is dropped on arrival, never handed on. */
export const MAX_MESSAGE = 64 * 1024;
/** An invitation's secret: at least 128 bits of URL-safe random characters. */
const SECRET = /^[A-Za-z0-9_-]{22,128}$/;

/**
 * One joined live table.
 * @typedef {object} LiveTable
 * @property {string} self this device's peer id (random, new on every page load)
 * @property {(message: string, to?: string) => Promise<void>} send to every connected
 *   device, or only to `to` (a peer id)
 * @property {(handler: (message: string, from: string) => void) => void} onMessage
 * @property {(handler: (peer: string) => void) => void} onPeerJoin a device's data
 *   channel opened (after both proved they hold the secret)
 * @property {(handler: (peer: string) => void) => void} onPeerLeave its channel closed
 * @property {(handler: (error: string) => void) => void} onError a device that failed
 *   the secret's check, or could not decrypt an offer
 * @property {() => string[]} peers the connected devices' peer ids
 * @property {() => {url: string, open: boolean, refused: boolean}[]} relays each relay's
 *   WebSocket: open or not (none open: no device can be found, though connected ones keep
 *   playing); refused: its last attempt ended closed (the library tries again later)
 * @property {() => Promise<void>} leave close every channel and stop announcing
 */

/** The relays to use: the public ones, or the test-only override the e2e tests set
 * (`window.__skylineLiveRelays`, a relay on the loopback). */
export function relayList() {
  // typed from globals.js without importing it: an import would split its `win` into a
  // chunk of its own that the page's entries would then load as one more request
  const page = /** @type {Window & import("./globals.js").SkylineGlobals} */ (window);
  const override = page.__skylineLiveRelays;
  if (Array.isArray(override) && override.every((url) => typeof url === "string")) {
    return [...override];
  }
  return [...RELAYS];
}

/**
 * Join the live table of an invitation's `secret`.
 * @param {string} secret the invitation's room secret
 * @param {readonly string[]} [relays] WebSocket URLs of the relays (default: relayList())
 * @returns {LiveTable}
 */
export function join(secret, relays = relayList()) {
  if (!SECRET.test(secret)) throw new Error("live: not a room secret");
  if (relays.length === 0) throw new Error("live: no relay");
  // The library pauses its relays' reconnection on the window's offline event and
  // resumes it on online only while a room is joined; the page leaves its table when
  // offline and joins again when online (web/js/live-page.js), after that event: resume
  // here, or relays closed while offline would wait for the next online event.
  if (navigator.onLine) resumeRelayReconnection();
  const loopback = relays.every((url) => /^wss?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url));
  /** @type {(error: string) => void} */
  let onError = () => {};
  const room = joinRoom(
    {
      appId: APP_ID,
      password: secret,
      relayConfig: { urls: [...relays] },
      // A loopback relay means a test on one machine: no STUN server (none can be
      // reached), host candidates only. Otherwise the public STUN servers above (this
      // list replaces the library's own, which is the same today).
      rtcConfig: { iceServers: loopback ? [] : [{ urls: [...STUN_SERVERS] }] },
    },
    secret,
    { onJoinError: (details) => onError(details.error) },
  );
  const action = room.makeAction("m");
  /** @type {(message: string, from: string) => void} */
  let onMessage = () => {};
  action.onMessage = (data, context) => {
    if (typeof data === "string" && data.length <= MAX_MESSAGE) onMessage(data, context.peerId);
  };
  return {
    self: selfId,
    send: (message, to) => action.send(message, to === undefined ? {} : { target: to }),
    onMessage: (handler) => {
      onMessage = handler;
    },
    onPeerJoin: (handler) => {
      room.onPeerJoin = handler;
    },
    onPeerLeave: (handler) => {
      room.onPeerLeave = handler;
    },
    onError: (handler) => {
      onError = handler;
    },
    peers: () => Object.keys(room.getPeers()),
    relays: () => {
      const sockets = getRelaySockets();
      return relays.map((url) => {
        const socket = sockets[url];
        return {
          url,
          open: socket?.readyState === WebSocket.OPEN,
          refused: socket?.readyState === WebSocket.CLOSED,
        };
      });
    },
    leave: () => room.leave(),
  };
}
