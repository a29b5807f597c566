/**
 * The SSE transport finishes what it started. The reader here is a raw HTTP client that takes its
 * time (a pause per chunk), as a browser under load does, and the model streams as fast as it can.
 * (A client that leaves leaves the turn running: live-turns.test.ts.)
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

/**
 * Posts a streamed chat turn and reads the body with a pause after every chunk (and, if asked, a
 * stall after the first one, so the server finishes while its last bytes still wait in its own
 * buffers); resolves with the whole text.
 */
function slowRead(url: string, message: string, pauseMs: number, stallMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const target = new URL(`${url}/api/chat`);
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          const first = text === "";
          text += chunk;
          res.pause();
          setTimeout(() => res.resume(), first && stallMs > 0 ? stallMs : pauseMs);
        });
        res.on("end", () => resolve(text));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ message, stream: true }));
  });
}

const LONG_ANSWER = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" ");

describe("a slow reader", () => {
  it("gets every final over 50 long turns streamed as fast as the model can (5 readers, 10 turns each)", async () => {
    wb = await startWorkbench({ script: () => ({ content: LONG_ANSWER, chunkChars: 12 }) });
    let complete = 0;
    const reader = async (n: number) => {
      for (let turn = 0; turn < 10; turn++) {
        const body = await slowRead(wb!.url, `reader ${n} turn ${turn}`, 1);
        const data = body.split("\n\n").flatMap((f) => f.split("\n").filter((line) => line.startsWith("data: ")));
        const last = JSON.parse(data[data.length - 1].slice(6)) as { type: string; content?: string };
        if (last.type === "final" && last.content === LONG_ANSWER) complete++;
      }
    };
    await Promise.all([0, 1, 2, 3, 4].map(reader));
    expect(complete).toBe(50);
  }, 120_000);
});
