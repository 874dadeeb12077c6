// @ts-check
// What the page's scripts, web/main.py (through PyScript) and the tests share on
// `window`, typed in one place.

/**
 * @typedef {object} SkylineGlobals
 * @property {import("./host.js").SkylineHost} [skylineHost] the page's half of the
 *   host, for main.py's DomHost (web/js/host.js)
 * @property {import("./boot.js").SkylineBoot} [skylineBoot] the start before Python
 *   (web/js/boot.js); main.py calls live() right before its first render
 * @property {() => Promise<unknown[]>} [skylineStats] the controller's timings, for the
 *   tests and benches
 * @property {(command: string, arg?: string) => Promise<string>} [skylineBots] the
 *   computer players' test hooks (main.py bots_api; web/app/computer/pacer.py, js_api)
 * @property {Promise<ServiceWorkerRegistration | undefined>} [skylineSW] the service
 *   worker's registration, once the app is ready
 * @property {import("./snapshot-maker.js").SnapshotMade} [skylineSnapshotMade] how
 *   making the interpreter's memory snapshot went, for the tests and benches
 * @property {string} [skylineSnapshotStatus] why the start did or did not restore a
 *   memory snapshot (web/snapshot.mjs)
 * @property {string} [__skylineFault] test-only: where the next event raises in Python
 * @property {number} [__skylineStallMs] test-only: a shorter stall limit at start-up
 * @property {string[]} [__skylineLiveRelays] test-only: the live tables' relays (a relay
 *   on the loopback) instead of the public ones (web/js/live.js)
 * @property {LiveHook} [__skylineLive] test-only: the joined live table, set only while
 *   __skylineLiveRelays is (web/js/live-page.js)
 */
/**
 * Test-only: a joined live table, for sending raw messages from a real device.
 * @typedef {object} LiveHook
 * @property {string} self this device's peer id
 * @property {() => string[]} peers the connected devices' peer ids
 * @property {(text: string, to?: string) => Promise<void>} send to every device, or `to`
 */

/** `window`, with the page's own properties typed. */
export const win = /** @type {Window & typeof globalThis & SkylineGlobals} */ (window);
