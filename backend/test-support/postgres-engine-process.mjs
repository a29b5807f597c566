/**
 * A PostgreSQL engine for the tests and benchmarks, as its own process: PGlite (PostgreSQL compiled to
 * WebAssembly) behind a small wire-protocol server. PG_ENGINE_DIR: its data folder (kept across a stop
 * and a start); PG_ENGINE_VECTOR=1: with pgvector; PG_ENGINE_PORT; PG_ENGINE_LATENCY_MS: each answer
 * reaches its client that much later, as from a server across a network (the engine meanwhile serves
 * others). Prints `{"port":N}` when it listens; SIGTERM stops it cleanly (its clients see their
 * connections end).
 *
 * PGlite is one PostgreSQL session. Its own socket server passes each client's messages on one by
 * one, so two clients' extended-protocol queries (Parse, Bind, Execute, Sync) interleave and corrupt
 * each other. Here a client's messages go to the engine in whole units (up to a Sync or a simple
 * Query), and while a client's transaction is open (ReadyForQuery says so) only that client's units
 * run: to each client the engine behaves as a server with a session of its own would.
 */
import { createServer } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
/** Messages after which a client waits for the engine's answer. */
const UNIT_ENDS = new Set(["S", "Q", "p", "H"]);

const LATENCY_MS = Number(process.env.PG_ENGINE_LATENCY_MS ?? 0);

const db = await PGlite.create({ dataDir: process.env.PG_ENGINE_DIR, extensions: process.env.PG_ENGINE_VECTOR === "1" ? { vector } : {} });

/** Units waiting: { client, messages }. `owner`: the client whose transaction is open. */
const queue = [];
let owner = null;
let running = false;

/** The transaction status of the last ReadyForQuery in an answer ("I" idle, "T" in a transaction, "E" failed one), or null. */
function lastStatus(bytes) {
  let status = null;
  for (let at = 0; at + 5 <= bytes.length; ) {
    const length = (bytes[at + 1] << 24) | (bytes[at + 2] << 16) | (bytes[at + 3] << 8) | bytes[at + 4];
    if (bytes[at] === 0x5a && length === 5) status = String.fromCharCode(bytes[at + 5]);
    at += 1 + length;
  }
  return status;
}

function pump() {
  if (running) return;
  const next = queue.findIndex((unit) => owner === null || unit.client === owner);
  if (next < 0) return;
  const [unit] = queue.splice(next, 1);
  running = true;
  const began = Date.now();
  void db
    .runExclusive(async () => {
      const answer = await db.execProtocolRaw(Buffer.concat(unit.messages), { syncToFs: false });
      // A copy: the answer is a view of the engine's memory, which its next unit writes over.
      if (answer.length > 0) deliver(unit.client, Buffer.from(answer));
      const status = lastStatus(answer);
      if (status !== null) owner = status === "I" ? null : unit.client;
    })
    .catch(() => unit.client.destroy())
    .finally(() => {
      if (process.env.PG_ENGINE_SLOW_MS && Date.now() - began > Number(process.env.PG_ENGINE_SLOW_MS)) {
        process.stderr.write(`slow unit ${Date.now() - began} ms: ${Buffer.concat(unit.messages).toString("latin1").replace(/[^ -~]+/g, " ").slice(0, 300)}\n`);
      }
      running = false;
      pump();
    });
}

/** An answer to its client, after the network's latency (same delay for all, so a client's answers stay in order). */
function deliver(client, answer) {
  const write = () => {
    if (!client.destroyed) client.write(answer);
  };
  if (LATENCY_MS > 0) setTimeout(write, LATENCY_MS);
  else write();
}

/** A client gone: its waiting units dropped, its open transaction rolled back. */
function forget(client) {
  for (let i = queue.length - 1; i >= 0; i--) if (queue[i].client === client) queue.splice(i, 1);
  if (owner !== client) return;
  queue.unshift({ client: { destroyed: true, write() {}, destroy() {} }, messages: [simpleQuery("ROLLBACK")] });
  owner = null;
  pump();
}

function simpleQuery(sql) {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write("Q", 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

const server = createServer((client) => {
  let buffer = Buffer.alloc(0);
  let started = false;
  let pending = [];
  client.on("data", (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST) client.write("N");
        else if (code === CANCEL_REQUEST) client.destroy();
        else {
          started = true;
          queue.push({ client, messages: [message] });
          pump();
        }
        continue;
      }
      if (buffer.length < 5) return;
      const total = 1 + buffer.readInt32BE(1);
      if (buffer.length < total) return;
      const type = String.fromCharCode(buffer[0]);
      const message = buffer.subarray(0, total);
      buffer = buffer.subarray(total);
      if (type === "X") {
        client.end();
        return;
      }
      pending.push(message);
      if (UNIT_ENDS.has(type)) {
        queue.push({ client, messages: pending });
        pending = [];
        pump();
      }
    }
  });
  client.on("error", () => {});
  client.on("close", () => forget(client));
});
const sockets = new Set();
server.on("connection", (socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
});
await new Promise((resolve) => server.listen(Number(process.env.PG_ENGINE_PORT ?? 0), "127.0.0.1", resolve));
process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  for (const socket of sockets) socket.destroy();
  await db.close().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", stop);
// The process that started the engine has ended (its end of the stdin pipe closed).
process.stdin.on("end", stop).resume();
