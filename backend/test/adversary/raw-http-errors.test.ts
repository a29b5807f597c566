/**
 * Round 4, finding 16: what Node answers by itself, before any route runs (headers too large, a
 * request that is not HTTP), in the API's error shape like every other error reply.
 */
import { connect } from "node:net";
import { apiErrorSchema } from "@mini-openclaw/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkbench, type Workbench } from "../../test-support/workbench-harness.js";

let wb: Workbench;
beforeAll(async () => {
  wb = await startWorkbench();
});
afterAll(async () => wb?.close());

/** Sends raw bytes and reads the whole answer (the server closes the connection after these). */
function raw(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(wb.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(bytes));
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
  });
}

describe("errors Node answers before any route", () => {
  it("431: headers too large, as { error, code }", async () => {
    const reply = await raw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(reply.status).toBe(431);
    expect(reply.headers).toMatch(/content-type: application\/json/i);
    expect(apiErrorSchema.parse(JSON.parse(reply.body))).toEqual({ error: "The request's headers are too large.", code: "too_large" });
  });

  it("400: not HTTP at all, as { error, code }", async () => {
    const reply = await raw("HELLO THERE\r\n\r\n");
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({ error: "The request is not valid HTTP.", code: "invalid_request" });
    expect((await fetch(`${wb.url}/api/health`)).status).toBe(200);
  });
});
