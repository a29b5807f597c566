/**
 * A body refused for its size is a readable 413 with its `{ error }`, whether the client is still
 * sending or not. A browser on a slow link (or Node's fetch streaming a file) is still writing when
 * the refusal is ready; the connection must stay open long enough for it to read the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench;
beforeAll(async () => {
  wb = await startWorkbench({ noModel: true });
});
afterAll(async () => wb?.close());

/** `total` bytes, sent a megabyte at a time with a pause between, as a slow upload does. */
function slowBody(total: number, fill: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= total) return controller.close();
      await new Promise((r) => setTimeout(r, 4));
      const n = Math.min(1024 * 1024, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(fill));
    },
  });
}

async function twentyRefusals(path: string, type: string, total: number, fill: number) {
  const outcomes: string[] = [];
  for (let i = 0; i < 20; i++) {
    try {
      const response = await fetch(`${wb.url}${path.replace("#", String(i))}`, {
        method: "POST",
        headers: { "content-type": type, "content-length": String(total), origin: wb.url },
        body: slowBody(total, fill),
        duplex: "half",
      } as RequestInit);
      const body = (await response.json()) as { error?: string };
      outcomes.push(`${response.status} ${body.error ? "error" : JSON.stringify(body)}`);
    } catch (err) {
      outcomes.push(`threw ${String((err as { cause?: { code?: string } }).cause?.code ?? err)}`);
    }
  }
  expect(outcomes).toEqual(Array(20).fill("413 error"));
}

describe("an oversized body", () => {
  it("to POST /api/files: twenty in a row each read a 413 with its error", async () => {
    // A JSON body of 20 MB: `{"path": ..., "content": "aaaa…`, refused by its Content-Length.
    await twentyRefusals("/api/files", "application/json", 20 * 1024 * 1024, 0x61);
  });

  it("to a knowledge upload: twenty in a row each read a 413 with its error", async () => {
    await twentyRefusals("/api/knowledge/documents?filename=big-#.txt", "application/octet-stream", 21 * 1024 * 1024, 0x62);
  });
});
