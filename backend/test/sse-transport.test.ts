/**
 * The SSE transport finishes what it started and notices a client that left at any moment. The
 * reader here is a raw HTTP client that takes its time (a pause per chunk), as a browser under
 * load does, and the model streams as fast as it can.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { postJson, sseEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

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
        const frames = body.split("\n\n").filter((f) => f.startsWith("data: "));
        const last = JSON.parse(frames[frames.length - 1].slice(6)) as { type: string; content?: string };
        if (last.type === "final" && last.content === LONG_ANSWER) complete++;
      }
    };
    await Promise.all([0, 1, 2, 3, 4].map(reader));
    expect(complete).toBe(50);
  }, 120_000);
});

describe("a client that leaves", () => {
  async function leaveAfter(stage: (event: { type: string }) => boolean | Promise<boolean>) {
    const controller = new AbortController();
    const response = await postJson(`${wb!.url}/api/chat`, { message: "go", stream: true }, { signal: controller.signal });
    for await (const event of sseEvents(response)) {
      if (await stage(event)) break;
    }
    controller.abort();
  }

  it("right after the session event, before the model request: no model request runs to its end", async () => {
    wb = await startWorkbench({ script: () => ({ firstByteDelayMs: 2000, content: "late answer" }) });
    await leaveAfter((e) => e.type === "session");
    await new Promise((r) => setTimeout(r, 2500));
    expect(wb.model.requests.every((r) => r.closedEarly)).toBe(true);
  });

  it("while the model request waits for its first token: the request is closed", async () => {
    wb = await startWorkbench({ script: () => ({ firstByteDelayMs: 4000, content: "late answer" }) });
    await leaveAfter(async (e) => {
      if (e.type !== "session") return false;
      await expect.poll(() => wb!.model.requests.length, { timeout: 3000 }).toBe(1);
      return true;
    });
    await expect.poll(() => wb!.model.requests[0]?.closedEarly, { timeout: 2000 }).toBe(true);
  });

  it("mid-stream: the model request is closed", async () => {
    wb = await startWorkbench({ script: () => ({ content: LONG_ANSWER, chunkDelayMs: 5 }) });
    await leaveAfter((e) => e.type === "token");
    await expect.poll(() => wb!.model.requests[0]?.closedEarly, { timeout: 2000 }).toBe(true);
  });

  it("during a tool call: the tool is stopped and no further model request is made", async () => {
    wb = await startWorkbench({
      env: { SANDBOX: "off" },
      script: (_body, index) => (index === 0 ? { toolCalls: [{ name: "terminal", args: { command: "sleep 5; echo done" } }] } : { content: "after the tool" }),
    });
    const started = Date.now();
    await leaveAfter((e) => e.type === "tool_call");
    await new Promise((r) => setTimeout(r, 1500));
    expect(wb.model.requests).toHaveLength(1);
    // The turn ended and released the session well before the 5 s tool would have.
    const sessions = (await (await fetch(`${wb.url}/api/sessions`)).json()) as { sessions: Array<{ id: string }> } | Array<{ id: string }>;
    expect(sessions).toBeTruthy();
    expect(Date.now() - started).toBeLessThan(4500);
  });

  it("during a delegation: the sub-agent's model request is closed and the parent makes no further request", async () => {
    const isSubAgent = (body: { messages: Array<{ role: string; content: unknown }> }) => String(body.messages[0]?.content).startsWith('You are the "researcher" sub-agent');
    wb = await startWorkbench({
      script: (body, index) =>
        isSubAgent(body)
          ? { content: LONG_ANSWER, chunkDelayMs: 5 }
          : index === 0
            ? { toolCalls: [{ name: "delegate", args: { agent: "researcher", task: "Look it up." } }] }
            : { content: "after the delegation" },
    });
    await leaveAfter((e) => e.type === "delegate" && (e as { event?: { type: string } }).event?.type === "token");
    const sub = () => wb!.model.requests.find((r) => isSubAgent(r.body));
    await expect.poll(() => sub()?.closedEarly, { timeout: 2000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(wb.model.requests.filter((r) => !isSubAgent(r.body))).toHaveLength(1);
  });
});
