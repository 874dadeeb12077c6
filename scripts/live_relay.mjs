// A signalling relay on the loopback for the live-table tests and benchmarks.
//
//   node scripts/live_relay.mjs [STRATEGY] [--port N] [--log FILE]
//
// STRATEGY: nostr (the default, web/js/live.js's strategy: @nostr-relay/core behind a
// WebSocket server, a real relay that checks every event's id and signature and passes
// ephemeral events on without storing them), or, for the strategy comparison of
// scripts/bench_live.py only, torrent (bittorrent-tracker's WebSocket tracker) and mqtt
// (aedes behind a WebSocket server), whose packages package.json does not pin
// (`npm install --no-save bittorrent-tracker@11.2.3 aedes@1.2.0` first).
// Listens on 127.0.0.1 (port 0: any free port), prints one JSON line
// {"url": "ws://127.0.0.1:PORT"} on stdout once it accepts connections, and runs until
// stdin closes or it gets SIGTERM/SIGINT. --log FILE appends one JSON line per message
// a client sent to the relay ({"t": ms, "bytes": n, "text": ...}): what a relay sees.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";

const args = process.argv.slice(2);
const strategy = args[0] && !args[0].startsWith("--") ? args[0] : "nostr";
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(option("--port", "0"));
const logFile = option("--log", "");
const host = "127.0.0.1";

/** Record one message a client sent (when --log is given). */
function seen(data) {
  if (!logFile) return;
  const text = Buffer.isBuffer(data) ? data.toString("utf8") : String(data);
  appendFileSync(logFile, `${JSON.stringify({ t: Date.now(), bytes: Buffer.byteLength(text), text })}\n`);
}

async function torrent() {
  const { default: Server } = await import("bittorrent-tracker/server");
  const server = new Server({ udp: false, http: false, ws: true, stats: false });
  server.on("error", (err) => console.error(`relay: ${err.message}`));
  server.on("warning", () => {});
  server.ws.on("connection", (socket) => socket.on("message", seen));
  await new Promise((resolve) => server.listen(port, host, resolve));
  return { port: server.ws.address().port, close: () => server.close() };
}

/**
 * A WebSocket server on host:port, each connection handed to `onConnection`.
 * @param {(socket: import("ws").WebSocket, req: import("http").IncomingMessage) => void} onConnection
 * @param {() => void} closeAlso what the relay itself must close
 */
async function webSocketServer(onConnection, closeAlso) {
  const { WebSocketServer } = await import("ws");
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  wss.on("connection", onConnection);
  await new Promise((resolve) => http.listen(port, host, resolve));
  return {
    port: http.address().port,
    close: () => {
      wss.close();
      http.close();
      closeAlso();
    },
  };
}

async function mqtt() {
  const { Aedes } = await import("aedes");
  const { createWebSocketStream } = await import("ws");
  const broker = await Aedes.createBroker();
  broker.on("publish", (packet, client) => {
    if (client) seen(`${packet.topic} ${packet.payload.toString("utf8")}`);
  });
  return webSocketServer(
    (socket, req) => broker.handle(createWebSocketStream(socket), req),
    () => broker.close(),
  );
}

async function nostr() {
  const { NostrRelay } = await import("@nostr-relay/core");
  const { EventRepository, LogLevel } = await import("@nostr-relay/common");
  // The live strategy sends ephemeral events only (kinds 20000-29999), which a relay
  // passes on and never stores; anything else is kept in memory for this run.
  class MemoryRepository extends EventRepository {
    events = new Map();
    isSearchSupported() {
      return false;
    }
    upsert(event) {
      const isDuplicate = this.events.has(event.id);
      this.events.set(event.id, event);
      return { isDuplicate };
    }
    find(filter) {
      const ids = filter.ids ?? [];
      return [...this.events.values()].filter((e) => ids.includes(e.id));
    }
    async destroy() {
      this.events.clear();
    }
  }
  const relay = new NostrRelay(new MemoryRepository(), { logLevel: LogLevel.ERROR });
  return webSocketServer((socket) => {
    relay.handleConnection(socket);
    socket.on("message", (data) => {
      seen(data);
      let message;
      try {
        message = JSON.parse(data.toString("utf8"));
      } catch {
        return;
      }
      relay.handleMessage(socket, message).catch((err) => console.error(`relay: ${err}`));
    });
    socket.on("close", () => relay.handleDisconnect(socket));
  }, () => relay.destroy());
}

const starts = { torrent, mqtt, nostr };
if (!(strategy in starts)) {
  console.error("usage: node scripts/live_relay.mjs [nostr|torrent|mqtt] [--port N] [--log FILE]");
  process.exit(2);
}
const relay = await starts[strategy]();
console.log(JSON.stringify({ url: `ws://${host}:${relay.port}` }));
const stop = () => {
  relay.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
